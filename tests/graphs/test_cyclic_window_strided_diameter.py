"""Theorem F197 (docs/theory.md §11.11, lemma I): a `window(w) cyclic` beside a `strided(s)` with 2 ≤ s ≤ 2w + 1, in
one head or in different ones, bounds the union's diameter by 2 at every n, and D = 2 exactly from n = d* + K + 1 (K
the largest jump, d* the least d > K no stride divides). The engine states the bound where no family theorem gives D,
with 3 = D + 1 layers, sufficient, not least; the verifier restates it in its spanning-part bound.

Checked here against breadth-first search on arcs written from docs/language.md's definitions (tests/graphs/
reference.py through brute_views.neighbourhoods), never against the engine's own arcs."""
from __future__ import annotations

import copy
import math

import pytest
import sympy

from certificates import certificate_of

from uapcheck.derive import check_spec
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, verify

from .brute_views import diameter, least_layers, neighbourhoods

# (heads, K the largest jump, the strides): one head and several, with non-cyclic and cyclic offsets and dilations
TUPLES = [
    (["window(5) cyclic + strided(7)", "window(4) + offsets {-8}"], 8, (7,)),
    (["window(4) cyclic", "strided(4)", "window(5) cyclic"], 5, (4,)),
    (["offsets {-3, -1, 5} + strided(4)", "window(2) cyclic + dilated(3, 2)", "offsets {-3, 7, 9}"], 9, (4,)),
    (["window(1) cyclic + strided(3)"], 1, (3,)),
    (["window(2) cyclic + strided(5)"], 2, (5,)),
    (["window(3) cyclic + strided(7)"], 3, (7,)),
    (["window(5) cyclic + strided(4)"], 5, (4,)),
    (["window(2) cyclic + strided(2)"], 2, (2,)),
    (["window(3) cyclic", "strided(6) + offsets {1}"], 3, (6,)),
    (["window(2) cyclic + strided(3)", "offsets {4, -6} cyclic"], 6, (3,)),
    (["window(1) cyclic", "strided(2)", "strided(3)"], 1, (2, 3)),
    (["window(4) cyclic + dilated(2, 5)", "strided(9)"], 10, (9,)),
]


def _exact_from(k: int, strides: tuple) -> int:
    """d* + K + 1: d* the least integer above K that no stride divides (docs/theory.md, Theorem F197 (b))."""
    d = k + 1
    while any(d % s == 0 for s in strides):
        d += 1
    assert d <= k + math.lcm(*strides)
    return d + k + 1


def _source(heads: list, tokens: str = "n") -> str:
    lines = [f"tokens {tokens}"]
    lines += ["attention { kernel k(x, y) = exp(x . y); pattern " + h + " }" for h in heads]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("heads, k, strides", TUPLES)
def test_the_diameter_is_at_most_two_everywhere_and_two_from_the_stated_length(heads, k, strides):
    start = _exact_from(k, strides)
    for n in range(4, 61):
        d = diameter(neighbourhoods(heads, n), n)
        assert d is not None and d <= 2, (heads, n, d)
        if n >= start:
            assert d == 2, (heads, n, d)


@pytest.mark.parametrize("heads, k, strides", TUPLES)
def test_the_closed_form_states_the_bound_two(heads, k, strides):
    n = sympy.Symbol("n", integer=True, positive=True)
    spec = parse_source(_source(heads), "f197.uap")
    form = closed_connectivity([h.pattern for h in spec.heads], n)
    assert form is not None
    bounds = {c.diameter_bound for c in form.cases if c.strongly_connected and c.diameter is None}
    exact = {c.diameter for c in form.cases if c.diameter is not None}
    # the bound 2 where no family theorem gives D; a family theorem's exact D, where one does, is at most 2 as well
    assert bounds <= {sympy.Integer(2)} and all(d.is_Integer and int(d) <= 2 for d in exact if d.is_number)
    assert bounds or exact


def test_a_stride_beyond_the_window_gives_no_bound():
    n = sympy.Symbol("n", integer=True, positive=True)
    spec = parse_source(_source(["window(2) cyclic", "strided(6)"]), "f197.uap")
    form = closed_connectivity([h.pattern for h in spec.heads], n)
    assert form is not None
    assert all(c.diameter_bound != sympy.Integer(2) for c in form.cases)  # s = 2w + 2: the window's own bound


def test_the_one_head_states_the_bound_and_theorem_f201_s_group():
    # one head `window(w) cyclic + strided(s)`, w + 1 ≤ s ≤ 2w + 1: D = 2 (F197), its group by Theorem F201; a stride
    # beyond 2w + 3 leaves the diameter open (O6)
    result = check_spec(parse_source(_source(["window(2) cyclic + strided(4)"]), "f197.uap"), 60.0)
    # 2 layers on 4 | n (Theorem F218) and on n mod 4 ∈ {2, 3} (Theorem F219), 3 on Theorem F200's class 1
    n = sympy.Symbol("n", integer=True, positive=True)
    assert result.verdict == "UAP" and result.layers == sympy.Piecewise((3, sympy.Eq(sympy.Mod(n, 4), 1)), (2, True))
    assert result.group.name == "D_n when 4 | n, else the reflection i ↦ n + 1 − i"
    wide = check_spec(parse_source(_source(["window(2) cyclic + strided(9)"]), "f197.uap"), 60.0)
    assert "the diameter (walks" in " ".join(str(step.claim) for step in wide.root.walk() if step.rule == "SYM-UNDECIDED")


@pytest.mark.parametrize("heads", [TUPLES[0][0], TUPLES[1][0], TUPLES[2][0]])
def test_the_symbolic_count_is_three_sufficient_and_never_below_the_concrete_least_count(heads):
    result = check_spec(parse_source(_source(heads), "f197.uap"), 60.0)
    assert result.verdict == "UAP" and result.layers == 3  # formerly the cyclic window's ⌈⌊n/2⌋/w⌉ + 1
    for n in (12, 19, 26, 33):
        concrete = check_spec(parse_source(_source(heads, str(n)), "f197.uap"), 60.0)
        assert concrete.verdict == "UAP"
        assert concrete.layers is not None and int(concrete.layers) <= 3


@pytest.mark.parametrize("heads", [["window(2) cyclic + strided(5)"], ["window(1) cyclic", "strided(3)"],
                                   ["window(2) cyclic", "strided(4) + offsets {1}"]])
def test_brute_force_never_needs_more_than_three_layers(heads):
    for n in range(4, 8):
        nbs = neighbourhoods(heads, n)
        d = diameter(nbs, n)
        assert d is not None and d <= 2
        assert least_layers(nbs, n) <= 3


def _outcome(report, rule: str):
    return next(s for s in report.steps if s.rule == rule)


def test_the_verifier_checks_the_bound_and_rejects_a_smaller_one():
    cert = certificate_of(_source(TUPLES[0][0]))
    report = verify(cert)
    assert [(s.id, s.rule, s.reason) for s in report.steps if s.outcome == REJECTED] == []
    conn, layers = _outcome(report, "PAT-CONNECTED"), _outcome(report, "PAT-LAYERS")
    assert conn.outcome == VERIFIED and "F197" in conn.reason
    assert layers.outcome == VERIFIED and "not claimed least" in layers.reason
    forged = copy.deepcopy(cert)
    for s in forged["steps"]:
        if s["rule"] in ("PAT-CONNECTED", "PAT-LAYERS"):
            s["data"]["diameter bound"] = 1
        if s["rule"] == "PAT-LAYERS":
            s["data"]["layers"] = 2
    assert _outcome(verify(forged), "PAT-CONNECTED").outcome == REJECTED
