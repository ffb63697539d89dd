"""Theorem F230 (docs/theory.md §11.11): globals added to cyclic offsets with an offset above g and to non-cyclic parts
(windows, offsets, dilations) — G = S_g × {id, ρ} (S = −S, with C = −C and L = −L) or S_g, D = 2, 3 layers least —
against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in range, the order by an automorphism count
written in the test (no engine), the cases left open, and the verifier's own restatement."""
from __future__ import annotations

from math import factorial

import pytest
import sympy
from certificates import assert_rests_on, certificate_of, rejects  # tests/ is on sys.path

from .reference import count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Global, Offsets, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)

#: (base, g, |G|): one- and two-sided, symmetric, windows, offsets and dilations beside a cyclic part above g.
CASES = [
    ((Window(2), Offsets((0, 3, 6), True)), 1, 1),             # the audit's case (seed 29)
    ((Window(2), Offsets((0, 2, 3), True)), 1, 1),             # the audit's case (seed 31)
    ((Dilated(2, 2), Offsets((1, 10), True)), 3, 6),           # C = {1, ±2, 10}, L = {±4}
    ((Window(2, True), Window(3)), 1, 2),                      # symmetric: the reflection of {2, …, n}
    ((Offsets((1, 5), True), Dilated(1, 3)), 1, 1),            # F62's open example
    ((Offsets((3,), True), Dilated(1, 4)), 2, 2),              # one-sided cyclic part
    ((Window(5, True), Offsets((0, 1, 4), False)), 3, 12),     # L = ∅ after C: the reflection
    ((Offsets((-5, -1, 0, 3), True), Dilated(2, 3)), 2, 2),
]


def _theorem(base, g):
    return families.match([PatternUnion(base + (Global(g),))], N, {})


def _order(theorem, n):
    return int(theorem.order.subs(N, n)) if isinstance(theorem.order, sympy.Expr) else int(theorem.order)


@pytest.mark.parametrize("base, g, order", CASES)
def test_against_concrete_engine(base, g, order):
    theorem = _theorem(base, g)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F230", theorem
    assert theorem.least and theorem.layers == 3 and theorem.diameter == 2
    pattern = PatternUnion(base + (Global(g),))
    low = int(theorem.low)
    assert low <= 45
    for n in range(low, 61):
        assert _order(theorem, n) == order
        got = concrete(pattern, n, layers=n < low + 4)
        assert (got.diameter, got.order) == (2, order), (base, g, n)
        if got.layers is not None:
            assert (got.layers, got.least) == (3, True), (base, g, n)


def _arcs(base, g: int, n: int) -> set:
    """i attends to j (written here from the parts' definitions): a global, or j − i a jump of a non-cyclic part, or
    ≡ a jump of a cyclic part (mod n)."""
    def one(part, i, j):
        d = j - i
        if isinstance(part, Window):
            return (min(d % n, (-d) % n) if part.cyclic else abs(d)) <= part.w
        if isinstance(part, Offsets):
            return any((d - k) % n == 0 for k in part.offsets) if part.cyclic else d in part.offsets
        return d % part.r == 0 and abs(d) // part.r <= part.w
    return {(j, i) for i in range(1, n + 1) for j in range(1, n + 1)
            if i != j and (i <= g or j <= g or any(one(p, i, j) for p in base))}


@pytest.mark.parametrize("base, g, order", [CASES[0], CASES[2], CASES[3], CASES[5]])
def test_order_by_counting(base, g, order):
    """|Aut| by extending partial maps on the arcs written in the test, at the first two lengths of the range."""
    theorem = _theorem(base, g)
    assert order == factorial(g) * (2 if order > factorial(g) else 1)
    for n in range(int(theorem.low), int(theorem.low) + 2):
        arcs = _arcs(base, g, n)
        assert count_automorphisms(n, lambda u, v, arcs=arcs: (u, v) in arcs) == order, (base, g, n)


def test_the_proved_range_holds_far_beyond_the_onset():
    """Spot lengths well above the range (the concrete engine, BLISS), and at n = 1,048,576 the closed form."""
    for base, g, order in (CASES[0], CASES[3]):
        theorem = _theorem(base, g)
        pattern = PatternUnion(base + (Global(g),))
        for n in (97, 151):
            assert concrete(pattern, n, layers=False).order == order, (base, n)
        assert _order(theorem, 1_048_576) == order


@pytest.mark.parametrize("base, g", [
    ((Offsets((6, 10), True), Dilated(1, 2)), 1),    # gcd(S) = 2
    ((Offsets((3,), True), Window(3)), 2),           # S = −S but C = {±1, ±2, 3} ≠ −C: ρ need not be an automorphism
])
def test_outside_the_theorem_stays_open(base, g):
    theorem = _theorem(base, g)
    assert theorem.theorem == "F31" and theorem.group is None and "F230" in theorem.open_question


def _symbolic(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def test_the_verifier_rests_on_its_own_restatement():
    assert_rests_on(certificate_of(_symbolic("window(2) + offsets {0, 3, 6} cyclic + star")), "Theorem F230")


def test_a_forged_order_and_a_range_below_the_onset_are_rejected():
    from uapcheck.verifier.trees import encode
    cert = certificate_of(_symbolic("window(2) cyclic + window(3) + star"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    low = step["data"]["from"]
    step["data"]["order"] = encode(1)
    assert rejects(cert, "SYM-AUT")
    cert = certificate_of(_symbolic("window(2) cyclic + window(3) + star"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["from"] == low
    step["data"]["from"] = encode(12)
    assert rejects(cert, "SYM-AUT")
