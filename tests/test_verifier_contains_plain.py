"""TGT-POSITIONS' route `contains plain` (docs/theory.md §14.11(e)) and the TGT-LAYERS count it gives, re-checked by the
verifier at an integer n: every head position-blind or a trainable class (0 in every class, so the family contains the
position-blind one), and the count r + 1 (Theorem L, not shown least) or r when the position-blind family's least count
is r (the closed forms of §14.6, §14.7 in their range, or Theorem F68's exact search with nauty). Both steps were
reported trusted ("a positions route other than §14.11's one layer and collision is not re-checked here"); at a
symbolic n they stay trusted (the lengths below the closed form's range are not re-derived with labels)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(pattern: str, bias: str, n: "int | None") -> str:
    return ((f"tokens {n}\n" if n else "") + f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {bias}\n}}\n"
            "target causal\n")


CASES = [("causal & window(2)", "bias toeplitz", 9, 4, True), ("offsets {-1, 0}", "bias toeplitz", 7, 6, True),
         ("causal + sinks(1)", "bias free", 9, 2, False), ("causal & window(2)", "bias symmetric toeplitz", 9, 4, True),
         ("causal & window(3) + sinks(1)", "bias buckets(8, 20)", 14, 4, True)]


def _steps(cert: dict) -> dict:
    return {s["rule"]: s for s in cert["steps"]}


@pytest.mark.parametrize("pattern,bias,n,layers,least", CASES)
def test_the_honest_certificates_are_fully_verified(pattern, bias, n, layers, least):
    cert = certificate_of(_text(pattern, bias, n))
    steps = _steps(cert)
    assert steps["TGT-POSITIONS"]["data"]["route"] == "contains plain"
    assert (steps["TGT-LAYERS"]["data"]["layers"], steps["TGT-LAYERS"]["data"]["least"]) == (layers, least)
    report = verify(cert)
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["TGT-POSITIONS"] == outcomes["TGT-LAYERS"] == "verified", \
        [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert report.ok and report.complete


def test_the_exact_search_decides_a_count_outside_the_closed_forms():
    """Two heads with different causal patterns (no closed form): the position-blind count by Theorem F68's search."""
    text = ("tokens 8\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern offsets {-1, 0}\n  bias toeplitz\n}\n"
            "attention {\n  kernel k(x, y) = exp(x . y)\n  pattern causal & window(3)\n}\ntarget causal\n")
    cert = certificate_of(text)
    steps = _steps(cert)
    if steps["TGT-POSITIONS"]["data"]["route"] != "contains plain":
        pytest.skip("the engine takes another route here")
    report = verify(cert)
    outcomes = {s.rule: (s.outcome, s.reason) for s in report.steps}
    assert outcomes["TGT-LAYERS"][0] == "verified", outcomes["TGT-LAYERS"]


@pytest.mark.parametrize("layers,least", [(1, True), (3, False), (1, False)])
def test_a_forged_count_is_rejected(layers, least):
    """`causal + sinks(1)` with a free bias at n = 9: r = 1, the position-blind family needs 2 (§14.6)."""
    cert = certificate_of(_text("causal + sinks(1)", "bias free", 9))
    forged = json.loads(json.dumps(cert))
    step = _steps(forged)["TGT-LAYERS"]
    step["data"]["layers"], step["data"]["least"] = layers, least
    assert rejects(forged, "TGT-LAYERS")


def test_a_forged_least_r_is_rejected_where_the_blind_family_needs_more():
    cert = certificate_of(_text("causal & window(2)", "bias toeplitz", 9))
    forged = json.loads(json.dumps(cert))
    step = _steps(forged)["TGT-LAYERS"]
    step["data"]["layers"] = step["data"]["radius"] = 3  # r is 4: the receptive step and the count disagree
    assert rejects(forged, "TGT-LAYERS")


def test_the_route_on_a_fixed_position_term_is_rejected():
    """A fixed bias is not a trainable class: the family need not contain the position-blind one."""
    cert = certificate_of(_text("causal & window(2)", "bias toeplitz", 9))
    text = _text("causal & window(2)", "bias b(i, j) = j - i", 9)
    import hashlib
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    assert rejects(cert, "TGT-POSITIONS")


def test_at_a_symbolic_n_the_route_stays_trusted():
    report = verify(certificate_of(_text("causal & window(2)", "bias toeplitz", None)))
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["TGT-POSITIONS"] == outcomes["TGT-LAYERS"] == "trusted"
    assert "rejected" not in outcomes.values()
