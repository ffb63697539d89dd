"""Theorem F43 (docs/theory.md §11.11): globals added to a base of non-cyclic windows, dilations and offsets —
G = S_g × F41's group of `offsets S` on the other positions — against the concrete engine (graphs, BLISS,
rooted views) at every n ≤ 60 in range, and the order by an automorphism count written in the test."""
from __future__ import annotations

import pytest
import sympy

from .reference import count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Global, Offsets, PatternUnion, Window

CASES = [
    ((Window(1), Offsets((0, 5), False)), 1, 1),
    ((Offsets((-1, 0, 3), False),), 2, 2),
    ((Window(2), Offsets((-5, 5), False)), 1, 2),
    ((Window(1), Dilated(2, 3), Dilated(1, 7)), 1, 2),
    ((Offsets((-2, 0, 1), False),), 3, 6),
    ((Window(1), Offsets((-4, 4), False)), 2, 4),
]


def _theorem(base, g):
    n = sympy.Symbol("n", integer=True, positive=True)
    return families.match([PatternUnion(base + (Global(g),))], n, {})


@pytest.mark.parametrize("base, g, order", CASES)
def test_against_concrete_engine(base, g, order):
    theorem = _theorem(base, g)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F31"
    assert theorem.order == order and theorem.least and theorem.layers == 3
    pattern = PatternUnion(base + (Global(g),))
    for n in range(int(theorem.low), 61):
        got = concrete(pattern, n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, order, 3, True), (base, g, n)


COUNTED = [({-1, 1, 5}, 1, 1), ({-1, 3}, 2, 2), ({-5, -2, -1, 1, 2, 5}, 1, 2)]  # the jumps of CASES[:3]


@pytest.mark.parametrize("jumps, g, order", COUNTED)
def test_order_by_counting(jumps, g, order):
    """|Aut| by extending partial maps (no engine; arcs written here: i attends to j when one of them is a
    global or j − i is a jump) at the first two lengths of the range."""
    base = CASES[COUNTED.index((jumps, g, order))][0]
    theorem = _theorem(base, g)
    for n in range(int(theorem.low), int(theorem.low) + 2):
        arcs = {(j, i) for i in range(1, n + 1) for j in range(1, n + 1)
                if i != j and (i <= g or j <= g or j - i in jumps)}
        assert count_automorphisms(n, lambda u, v, arcs=arcs: (u, v) in arcs) == order, (jumps, g, n)


def test_one_sided_base_without_step_one_stays_open():
    """offsets {2, 3} + global(1): one-sided without the step 1 (F32 (a) does not apply), not a line theorem."""
    theorem = _theorem((Offsets((0, 2, 3), False),), 1)
    assert theorem.order is None and "O7" in theorem.open_question
