"""Theorem F63 (docs/theory.md §11.11): `blocks(b) + dilated(w, b)`, the grid of blocks by offsets — D, |G| by residue
of n mod b and D + 1 layers (not least) — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in
range, and the order by an automorphism count written in the test (no engine)."""
from __future__ import annotations

import pytest
import sympy

from tests.graphs.reference import count_automorphisms
from uapcheck.graphs import blocks_dilated, families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, PatternUnion

N = sympy.Symbol("n", integer=True, positive=True)
PARAMS = [(2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (5, 2)]


def _theorem(b, w):
    return families.match([PatternUnion((Blocks(b), Dilated(w, b)))], N, {})


@pytest.mark.parametrize("b, w", PARAMS)
def test_against_concrete_engine(b, w):
    theorem = _theorem(b, w)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F63"
    assert not theorem.least and theorem.group is not None
    pattern = PatternUnion((Blocks(b), Dilated(w, b)))
    for n in range(int(theorem.low), 61):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == blocks_dilated.diameter_at(n, b, w), (b, w, n)
        assert got.order == want["order"] == blocks_dilated.order_at(n, b), (b, w, n)
        assert got.least and want["layers"] == want["diameter"] + 1 >= got.layers, (b, w, n)


def test_the_ladder_is_named_by_structure():
    """blocks(2) + dilated(1, 2) is the ladder: order 4 for even n (the offset swap and the reflection), 1 for odd n."""
    theorem = _theorem(2, 1)
    assert "offsets {1, …, 2} within a block" in theorem.group and "reversal of the blocks" in theorem.group
    assert families.at(theorem, {"n": 1000})["order"] == 4 and families.at(theorem, {"n": 1001})["order"] == 1


@pytest.mark.parametrize("b, w", [(2, 1), (3, 1), (3, 2)])
def test_order_by_counting(b, w):
    """|Aut| by extending partial maps (arcs written here: same block, or a difference jb with 1 ≤ j ≤ w)."""
    theorem = _theorem(b, w)
    for n in range(int(theorem.low), int(theorem.low) + b):
        def arc(u, v):
            return u != v and ((u - 1) // b == (v - 1) // b or (abs(u - v) % b == 0 and abs(u - v) <= w * b))
        assert count_automorphisms(n, arc) == blocks_dilated.order_at(n, b), (b, w, n)


def test_other_dilations_stay_outside():
    """blocks(4) + dilated(1, 2) (r ≠ b) is not F63's."""
    found = families.match([PatternUnion((Blocks(4), Dilated(1, 2)))], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F63")
