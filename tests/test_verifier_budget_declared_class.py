"""PAT-BUDGET-N, PAT-BUDGET-CLASS and PAT-BUDGET-WITNESS state an obstruction for G-equivariant targets: the verifier
re-checks them under `target receptive` on a strongly connected family (its class is the G-equivariant maps, §14.1)
and beside a declared class's own verdict (TGT-VERDICT, which reads TGT-NOT-CAUSAL and TGT-BUDGET, never them). It
rejected every such honest certificate ("the input declares another class"): `window(1)` at a symbolic n with
`layers 2` and `target receptive` or `target causal`."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(pattern: str, target: str, budget: int) -> str:
    return (f"tokens n\ntarget {target}\nlayers {budget}\nattention {{\n  kernel k(x, y) = exp(x . y)\n"
            f"  pattern {pattern}\n}}\n")


@pytest.mark.parametrize("pattern,target,budget", [
    ("window(1)", "receptive", 2), ("window(2)", "receptive", 2), ("window(1)", "causal", 2),
    ("window(1)", "causal", 1), ("window(2)", "causal", 3), ("blocks(3) + global(1)", "causal", 2),
])
def test_the_budget_steps_verify_under_a_declared_class(pattern, target, budget):
    report = verify(certificate_of(_text(pattern, target, budget)))
    assert not [s for s in report.steps if s.outcome == "rejected"], [(s.rule, s.reason) for s in report.steps]
    assert report.ok


def test_a_causal_verdict_does_not_rest_on_the_equivariant_budget_step():
    cert = certificate_of(_text("window(1)", "causal", 2))
    assert cert["verdict"] == "NOT-UAP"
    forged = copy.deepcopy(cert)
    gone = next(s["id"] for s in forged["steps"] if s["rule"] == "TGT-NOT-CAUSAL")
    forged["steps"] = [s for s in forged["steps"] if s["id"] != gone]
    root = forged["steps"][-1]
    root["premises"] = [p for p in root["premises"] if p != gone]
    assert not verify(forged).ok
