"""Theorem F62 (docs/theory.md §11.11): globals added to cyclic offsets with an offset above g — G = S_g × {id, ρ}
(S = −S) or S_g, D = 2, 3 layers least — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60
in range, and the order by an automorphism count written in the test (no engine)."""
from __future__ import annotations

from math import factorial

import pytest
import sympy

from .reference import count_automorphisms
from uapcheck.graphs import cyclic_hubs, families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Global, Offsets, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)

CASES = [
    ((Offsets((1, 5), True),), 2, 2),
    ((Offsets((1, 5), True),), 1, 1),
    ((Offsets((-3, 2), True),), 1, 1),
    ((Offsets((-5, -1, 1, 5), True),), 2, 4),
    ((Offsets((2, 5), True),), 1, 1),
    ((Offsets((-4, 1), True),), 2, 2),
    ((Window(2, True), Offsets((7,), True)), 1, 1),
    ((Offsets((0, 1, 3), True),), 1, 1),
    ((Offsets((-6, -1, 1, 6), True),), 3, 12),
    ((Window(1), Offsets((0, 4), True)), 1, 1),
    ((Offsets((3, 4), True),), 2, 2),
    ((Window(3, True), Offsets((-5, 5), True)), 2, 4),
]


def _theorem(base, g):
    return families.match([PatternUnion(base + (Global(g),))], N, {})


@pytest.mark.parametrize("base, g, order", CASES)
def test_against_concrete_engine(base, g, order):
    theorem = _theorem(base, g)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F62"
    assert theorem.order == order and theorem.least and theorem.layers == 3 and theorem.diameter == 2
    pattern = PatternUnion(base + (Global(g),))
    assert int(theorem.low) <= 60
    for n in range(int(theorem.low), 61):
        got = concrete(pattern, n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, order, 3, True), (base, g, n)


def test_the_onset_is_where_the_concrete_engine_first_differs():
    """offsets {1, 5} cyclic + star: at n = 24 the multiplier x ↦ 5x (25 ≡ 1 mod 24) conjugated to fix the hole is
    an extra automorphism; the stated range starts right above it, below F62's proved range."""
    theorem = _theorem((Offsets((1, 5), True),), 1)
    assert theorem.low == 25
    data = cyclic_hubs.hole_data((1, 5), 1, 23)
    assert data is not None and data.proved_low > 25 and data.low == 25
    assert concrete(PatternUnion((Offsets((1, 5), True), Global(1))), 24).order == 2


@pytest.mark.parametrize("jumps, g", [((1, 5), 2), ((-3, 2), 1), ((-5, -1, 1, 5), 2), ((2, 5), 1)])
def test_order_by_counting(jumps, g):
    """|Aut| by extending partial maps (arcs written here: i attends to j when one of them is a global, or
    j − i ≡ k (mod n) for a jump k), at the first two lengths of the range."""
    theorem = _theorem((Offsets(jumps, True),), g)
    want = factorial(g) * (2 if set(jumps) == {-k for k in jumps} else 1)
    for n in range(int(theorem.low), int(theorem.low) + 2):
        arcs = {(j, i) for i in range(1, n + 1) for j in range(1, n + 1)
                if i != j and (i <= g or j <= g or any((j - i - k) % n == 0 for k in jumps))}
        assert count_automorphisms(n, lambda u, v, arcs=arcs: (u, v) in arcs) == want, (jumps, g, n)


def test_the_proved_range_holds_far_beyond_the_onset():
    """Spot lengths above the proved range (the concrete engine, BLISS)."""
    for jumps, g in (((-5, -1, 1, 5), 2), ((2, 5), 1)):
        data = cyclic_hubs.hole_data(jumps, g, 1)
        assert data is not None
        pattern = PatternUnion((Offsets(jumps, True), Global(g)))
        want = cyclic_hubs.hole_order(g, data.symmetric)
        for n in (data.proved_low, data.proved_low + 7, 2 * data.proved_low + 1):
            assert concrete(pattern, n, layers=False).order == want, (jumps, n)


def test_outside_the_theorem_stays_open():
    """A shared factor (offsets {2, 6} cyclic) is not F62's; a non-cyclic part with offsets above g is Theorem F230's
    (tests/graphs/test_mixed_hubs.py)."""
    shared = _theorem((Offsets((2, 6), True),), 1)
    assert shared.group is None and "F62" in shared.open_question
    mixed = _theorem((Offsets((1, 5), True), Dilated(1, 3)), 1)
    assert mixed.theorem == "F230" and mixed.order == 1
