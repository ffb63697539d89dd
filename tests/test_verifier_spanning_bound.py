"""A union with no exact closed form for its diameter at symbolic n (a bias or position terms in the weights keep the
family theorems away): the engine states D ≤ the bound of a spanning part (`window(w)`, docs/theory.md §11.11) and
one layer more. The certificate carries that bound as the step proves it (`diameter bound`, no diameter: the data are
re-read from the spec the derivation decided, positions in the weights as their bias kind), the verifier re-derives
the bound from the re-parsed parts, compares it exactly (by residue class of n), and binds the verdict's premise
facts to it. Before, the data were re-read from the plain pattern (Theorem F21's exact D) and the verdict step was
REJECTED for an honest certificate."""
from __future__ import annotations

import copy

import pytest
import sympy

from certificates import certificate_of

from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify
from uapcheck.verifier.exact_forms import equal_in_n
from uapcheck.verifier.patterns import bfs, head_arcs, union_out
from uapcheck import spec as S

REWEIGHT = "reweight c(i, j) = 1 + (i - j)^2"
BIAS = "bias b(i, j) = -(i - j)^2"


def _source(pattern: str, weights: str, tokens: str = "n") -> str:
    return (f"tokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {weights}\n}}\n")


CASES = [("blocks(6) + window(2)", REWEIGHT), ("blocks(3) + window(1)", REWEIGHT), ("blocks(6) + window(2)", BIAS),
         ("blocks(6) + window(2)", "bias free")]


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _outcomes(cert: dict) -> dict:
    return {s.rule: s.outcome for s in verify(cert).steps}


@pytest.fixture(scope="module")
def certs() -> dict:
    return {case: certificate_of(_source(*case)) for case in CASES}


@pytest.mark.parametrize("case", CASES)
def test_the_honest_certificate_verifies_with_the_bound_checked(certs, case):
    cert = certs[case]
    report = verify(cert)
    assert [(s.id, s.rule, s.reason) for s in report.steps if s.outcome == REJECTED] == [] and report.problems == []
    out = {s.rule: s for s in report.steps}
    assert out["PAT-CONNECTED"].outcome == VERIFIED and "spans every position" in out["PAT-CONNECTED"].reason
    assert out["PAT-LAYERS"].outcome == VERIFIED and "not claimed least" in out["PAT-LAYERS"].reason
    assert out["VERDICT-T1"].outcome == VERIFIED
    conn = _step(cert, "PAT-CONNECTED")
    # the data state what the step proves: a bound, no diameter, no family theorem's range
    assert conn["data"]["diameter"] is None and "from" not in conn["data"]
    assert conn["facts"]["exact"] is False and conn["data"]["diameter bound"] is not None


def test_the_bound_is_an_upper_bound_by_bfs_and_below_it_is_the_exact_diameter():
    """A second way: BFS on the verifier's arcs; the window's bound is above the true D (≈ n/3) for large n, so
    it is an `at most`, not D."""
    pat = S.PatternUnion((S.Blocks(6), S.Window(2)))
    for n in range(2, 40):
        outs = union_out([head_arcs(pat, n)], n)
        d = max(x for s in range(1, n + 1) for x in bfs(outs, s)[1:])
        assert d <= -(-(n - 1) // 2)
    assert d < -(-(39 - 1) // 2)


def test_a_premise_fact_in_another_form_of_the_same_bound_is_accepted(certs):
    cert = copy.deepcopy(certs[CASES[0]])
    verdict = _step(cert, "VERDICT-T1")
    fact = next(p for p in verdict["certificate"]["premises"] if p["rule"] == "PAT-CONNECTED")["facts"]
    assert fact["diameter"] == "ceiling(n/2 - 1/2)"
    n = sympy.Symbol("n", integer=True, positive=True)
    assert equal_in_n(sympy.ceiling((n - 1) / 2), sympy.floor(n / 2), 1) is True
    fact["diameter"] = "floor(n/2)"  # equal at every n ≥ 1 (by n mod 2)
    assert _outcomes(cert)["VERDICT-T1"] == VERIFIED


@pytest.mark.parametrize("stated", ["ceiling(n/3)", "n - 1", "floor(n/2) + 1"])
def test_a_premise_fact_that_is_not_the_bound_is_rejected(certs, stated):
    cert = copy.deepcopy(certs[CASES[0]])
    fact = next(p for p in _step(cert, "VERDICT-T1")["certificate"]["premises"] if p["rule"] == "PAT-CONNECTED")
    fact["facts"]["diameter"] = stated
    assert _outcomes(cert)["VERDICT-T1"] == REJECTED


def test_a_bound_stated_as_exact_is_rejected(certs):
    cert = copy.deepcopy(certs[CASES[0]])
    fact = next(p for p in _step(cert, "VERDICT-T1")["certificate"]["premises"] if p["rule"] == "PAT-CONNECTED")
    fact["facts"]["exact"] = True
    assert _outcomes(cert)["VERDICT-T1"] == REJECTED


def _tree(expr_n_over: int) -> dict:
    # ⌈(n − 1)/k⌉ as an expression tree
    return {"op": "ceiling", "args": [{"op": "+", "args": [{"q": [-1, expr_n_over]},
                                                          {"op": "*", "args": [{"q": [1, expr_n_over]}, {"sym": "n"}]}]}]}


def test_a_smaller_bound_that_fails_at_a_small_n_is_rejected(certs):
    cert = copy.deepcopy(certs[CASES[0]])
    _step(cert, "PAT-CONNECTED")["data"]["diameter bound"] = _tree(4)  # ⌈(n − 1)/4⌉ < D at n = 9
    assert _outcomes(cert)["PAT-CONNECTED"] == REJECTED


def test_a_bound_no_part_gives_that_holds_at_the_small_lengths_is_trusted_not_verified(certs):
    cert = copy.deepcopy(certs[CASES[0]])
    _step(cert, "PAT-CONNECTED")["data"]["diameter bound"] = {"op": "+", "args": [{"sym": "n"}, 5]}
    assert _outcomes(cert)["PAT-CONNECTED"] == TRUSTED


def test_the_layer_step_binds_its_bound_count_and_least_flag(certs):
    cert = certs[("blocks(6) + window(2)", "bias free")]  # no position term: a changed count is rejected
    assert _step(cert, "VERDICT-T1")["status"] == "proved"
    assert _outcomes(cert)["PAT-LAYERS"] == VERIFIED
    more = copy.deepcopy(cert)
    layers = _step(more, "PAT-LAYERS")["data"]
    layers["layers"] = {"op": "+", "args": [layers["layers"], 1]}
    assert _outcomes(more)["PAT-LAYERS"] == REJECTED
    least = copy.deepcopy(cert)
    _step(least, "PAT-LAYERS")["data"]["least"] = True
    assert _outcomes(least)["PAT-LAYERS"] == REJECTED
    other = copy.deepcopy(cert)
    _step(other, "PAT-LAYERS")["data"]["diameter bound"] = _tree(1)
    assert _outcomes(other)["PAT-LAYERS"] == REJECTED
    exact = copy.deepcopy(cert)
    _step(exact, "PAT-CONNECTED")["data"]["diameter"] = _step(exact, "PAT-CONNECTED")["data"]["diameter bound"]
    assert _outcomes(exact)["PAT-CONNECTED"] != VERIFIED


def test_a_layer_count_other_than_bound_plus_one_with_position_terms_is_trusted(certs):
    cert = copy.deepcopy(certs[CASES[0]])
    layers = _step(cert, "PAT-LAYERS")["data"]
    layers["layers"] = {"op": "+", "args": [layers["layers"], 1]}
    assert _outcomes(cert)["PAT-LAYERS"] == TRUSTED


@pytest.mark.parametrize("heads, diameter", [(("window(1)", "blocks(2)"), lambda n: n - 1),
                                             (("window(2)", "blocks(3)"), lambda n: sympy.ceiling((n - 1) / 2))])
def test_heads_whose_union_is_one_window_state_its_diameter_not_the_bound(heads, diameter):
    """blocks(b) ⊆ window(w) for b ≤ w + 1: the heads' union is the window, whose D is exact. The engine stated the
    spanning part's bound only (its union normal form was asked for a family theorem alone); it now reads the union
    in normal form, states D, and the verifier checks it by the `window` lemma on the union, every step verified."""
    from certificates import heads_certificate
    cert = heads_certificate(*heads)
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    assert step["data"].get("diameter") is not None and step["data"].get("diameter bound") is None
    n = sympy.Symbol("n", integer=True, positive=True)
    from uapcheck.verifier.trees import decode
    assert equal_in_n(decode(step["data"]["diameter"], {"n": n}), diameter(n), 2)
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    forged = copy.deepcopy(cert)
    next(s for s in forged["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"] = \
        {"op": "+", "args": [step["data"]["diameter"], -1]}
    assert any(s.rule == "PAT-CONNECTED" and s.outcome == REJECTED for s in verify(forged).steps)
