"""`target receptive` on dense heads (every receptive field is 1..n, so the class is the G-equivariant maps, docs/theory.md
§14.1) keeps the default target's verdict under a `layers M` budget a view witness defeats (PAT-BUDGET-WITNESS,
§11.12). Before, the budget step was made for `target equivariant` only: T5 buckets at 10 tokens with `layers 1` were
NOT-UAP, and the same file with `target receptive` INCONCLUSIVE ("whether the budget suffices is not decided"); the
verifier accepted the step under `target receptive` only beside a proved PAT-CONNECTED step, which dense heads have
not."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402


def _text(target: str, layers: int, n: int = 10, bias: str = "bias buckets(32, 128)") -> str:
    return (f"tokens {n}\ntarget {target}\nlayers {layers}\n"
            f"attention {{\n  kernel k(x, y) = exp(x . y)\n  {bias}\n}}\n")


def _one_layer_witness(n: int, label) -> bool:
    """Some σ outside the group (σ not keeping every label) that keeps the labels of one row: written here."""
    for image in itertools.permutations(range(1, n + 1)):
        perm = dict(zip(range(1, n + 1), image))
        rows = [all(label(perm[i], perm[u]) == label(i, u) for u in range(1, n + 1)) for i in range(1, n + 1)]
        if not all(rows) and any(rows):
            return True
    return False


@pytest.mark.parametrize("target", ["receptive", "equivariant"])
def test_a_budget_below_the_labelled_count_is_not_uap_for_either_name_of_the_class(target):
    r = uapcheck.check(_text(target, 1), "t.uap")
    assert r.verdict == "NOT-UAP"
    assert any(s.rule == "PAT-BUDGET-WITNESS" and s.proved for s in r.root.walk())
    report = verify(certificate_of(_text(target, 1)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert uapcheck.check(_text(target, 2), "t.uap").verdict == "UAP"


def test_symmetric_toeplitz_at_small_n_against_the_witness_written_here():
    """`bias symmetric toeplitz` (labels |j − i|) at n = 4..6: one layer is defeated exactly when a row-keeping σ
    outside the group exists, under both names of the class."""
    for n in range(4, 7):
        witness = _one_layer_witness(n, lambda i, u: abs(u - i))
        for target in ("receptive", "equivariant"):
            r = uapcheck.check(_text(target, 1, n, "bias symmetric toeplitz"), "t.uap")
            assert (r.verdict == "NOT-UAP") == witness, (n, target, r.verdict)


def test_the_step_under_a_causal_target_is_still_rejected():
    """The witness's target is G-equivariant, not causal: the step presented under `target causal` (its own verdict
    replaced by the default one) is rejected."""
    import hashlib
    cert = certificate_of(_text("receptive", 1))
    text = _text("causal", 1)
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    assert rejects(cert, "PAT-BUDGET-WITNESS")
