"""The verifier re-checks a `layers M` budget (docs/theory.md §14, TGT-BUDGET; §18): the TGT-BUDGET step against the
radius of TGT-RECEPTIVE and the count of TGT-LAYERS, and every UAP a certificate states (the verdict, a target class's,
an alternative's) against the input's budget. Before, TGT-BUDGET had no checker (trusted), and the certificate of the
same file without its `layers` line was accepted for the file with it: `window(1)` at n = 8 with `layers 2` was
certified "UAP · 7 attention layers", `causal` with `layers 1` and `target causal` "UAP for causal targets with 2
attention layers". An undecided TGT-BUDGET (a count that depends on n) made the verifier expect UAP and reject the
honest INCONCLUSIVE; a NOT-UAP alternative from TGT-BUDGET was rejected; `target receptive` on a causal pattern (the
class is the causal one) was rejected."""
from __future__ import annotations

import copy
import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(pattern: str, tokens="8", budget: int | None = None, target: str = "") -> str:
    return (f"tokens {tokens}\n" + (f"target {target}\n" if target else "") + (f"layers {budget}\n" if budget else "")
            + f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n")


def _ok(cert: dict) -> bool:
    return verify(cert).ok


def _for_input(cert: dict, text: str) -> dict:
    """The certificate with another input's text (a certificate of one file presented for another)."""
    out = copy.deepcopy(cert)
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    return out


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern,tokens,budget,target", [
    ("window(1)", 8, 2, ""),                  # VERDICT-T1: 7 layers needed
    ("causal", 8, 1, "causal"),               # TGT-VERDICT: 2 layers needed
    ("offsets {-1, 0}", 8, 3, "causal"),      # below the radius 7
    ("causal", 8, 1, ""),                     # the alternative: UAP for causal targets with 2 layers
])
def test_a_certificate_without_the_budget_is_rejected_for_the_file_with_it(pattern, tokens, budget, target):
    honest = certificate_of(_text(pattern, tokens, budget, target))
    assert _ok(honest) and honest["verdict"] == "NOT-UAP"
    free = certificate_of(_text(pattern, tokens, None, target))
    assert _ok(free)
    assert not _ok(_for_input(free, _text(pattern, tokens, budget, target)))


@pytest.mark.parametrize("pattern,tokens,budget,target", [
    ("causal", 8, 2, "causal"), ("causal", "n", 3, "causal"), ("window(1)", 8, 7, ""), ("causal", 8, 2, ""),
])
def test_a_budget_at_or_above_the_count_keeps_the_uap(pattern, tokens, budget, target):
    cert = certificate_of(_text(pattern, tokens, budget, target))
    assert _ok(cert), [(s.rule, s.reason) for s in verify(cert).steps if s.outcome != "verified"]


@pytest.mark.parametrize("pattern,budget,target", [
    ("causal", 1, "causal"), ("offsets {-1, 0}", 3, "causal"), ("causal & window(2)", 2, "causal"),
    ("causal", 1, ""), ("offsets {-6, -3, 0}", 1, "receptive"),
])
def test_target_budget_is_verified_not_trusted(pattern, budget, target):
    cert = certificate_of(_text(pattern, 8, budget, target))
    report = verify(cert)
    assert report.ok
    assert [s.outcome for s in report.steps if s.rule == "TGT-BUDGET"] == ["verified"]


def test_a_target_budget_claimed_at_a_sufficient_budget_is_rejected():
    # `causal` at n = 8 with `layers 2`: 2 layers are least and suffice; a forged TGT-BUDGET turning it NOT-UAP fails
    cert = certificate_of(_text("causal", 8, 2, "causal"))
    forged = copy.deepcopy(cert)
    root = forged["steps"][-1]
    budget = {"id": "s99", "rule": "TGT-BUDGET", "status": "proved", "premises": [], "claim": "NOT-UAP",
              "evidence": {"budget": 2}, "data": {"budget": 2}, "cite": ""}
    forged["steps"].insert(len(forged["steps"]) - 1, budget)
    root["premises"].append("s99")
    root["data"]["verdict"] = forged["verdict"] = "NOT-UAP"
    forged["layers"] = None
    assert rejects(forged, "TGT-BUDGET")


def test_a_target_budget_naming_another_budget_is_rejected():
    cert = certificate_of(_text("causal", 8, 1, "causal"))
    bad = copy.deepcopy(cert)
    _step(bad, "TGT-BUDGET")["data"]["budget"] = 0
    assert rejects(bad, "TGT-BUDGET")


def test_a_target_budget_against_a_count_not_shown_least_is_rejected():
    # r = 1 ≤ M = 1 < 2 layers: NOT-UAP follows only from a least count
    cert = certificate_of(_text("causal", 8, 1, "causal"))
    bad = copy.deepcopy(cert)
    _step(bad, "TGT-LAYERS")["data"]["least"] = False
    assert not verify(bad).ok
    assert rejects(bad, "TGT-BUDGET")


@pytest.mark.parametrize("pattern", ["causal"])
def test_an_undecided_target_budget_at_a_symbolic_n_verifies_inconclusive(pattern):
    cert = certificate_of(_text(pattern, "n", 1, "causal"))
    assert cert["verdict"] == "INCONCLUSIVE"
    assert _ok(cert)
    forged = copy.deepcopy(cert)  # the same steps presented as a UAP
    forged["steps"][-1]["data"]["verdict"] = forged["verdict"] = "UAP"
    forged["steps"][-1]["status"] = "proved"
    assert not _ok(forged)


@pytest.mark.parametrize("pattern,budget", [("causal", 1), ("causal", 2), ("causal", None), ("offsets {-1, 0}", 3)])
def test_target_receptive_on_a_causal_pattern_names_the_causal_class(pattern, budget):
    assert _ok(certificate_of(_text(pattern, 8, budget, "receptive")))


def test_a_receptive_class_states_the_family_group_only():
    text = _text("offsets {-2, 0}", 8, None, "receptive")
    cert = certificate_of(text)
    assert cert["verdict"] == "UAP" and cert["group"]["order"] == 2
    assert _ok(cert)
    for key, value in (("order", 4), ("generators", [[2, 1, 3, 4, 5, 6, 7, 8]])):
        bad = copy.deepcopy(cert)
        bad["group"][key] = value
        assert not _ok(bad), key


def test_a_budget_on_a_finite_width_at_a_symbolic_n_splits_by_length():
    """`offsets {-1, 0}` (a causal window of width 1) with `layers 1`: one layer reads two positions, so from n = 3 on
    the output at n ignores x_1 (Theorem F159 with a period of one layer, docs/theory.md §21.10); it was INCONCLUSIVE."""
    cert = certificate_of(_text("offsets {-1, 0}", "n", 1, "causal"))
    assert cert["verdict"] == "NOT-UAP" and cert["steps"][-1]["data"]["range"] == "n ≥ 3"
    assert [(r["n"], r["verdict"], r["layers"]) for r in cert["steps"][-1]["data"]["below_range"]] == \
        [(1, "UAP", 1), (2, "UAP", 1)]
    assert _ok(cert)
