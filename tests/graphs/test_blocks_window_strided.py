"""Theorem F64 (docs/theory.md §11.11): `blocks(s) + window(w) + strided(s)` with s ≥ max(2w + 1, w + 3) — D = 2, |G| by residue of
n mod s, 3 layers least — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in range and at
spot lengths above, the order by an automorphism count written in the test (no engine), and the block exchange on the
arcs by the definition of a view witness."""
from __future__ import annotations

import pytest
import sympy

from .reference import count_automorphisms
from uapcheck.graphs import blocks_window_strided as F64
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)


def _pattern(s, w):
    return PatternUnion((Blocks(s), Window(w), Strided(s)))


def _theorem(s, w):
    return families.match([_pattern(s, w)], N, {})


@pytest.mark.parametrize("s, w, lengths", [(4, 1, range(20, 61)), (5, 1, range(30, 61)), (5, 2, range(30, 61)),
                                            (6, 1, range(42, 61)), (7, 3, (56, 57, 58, 59, 60, 61, 62, 63)),
                                            (7, 2, (56, 57, 60, 61, 62, 63, 70))])
def test_against_concrete_engine(s, w, lengths):
    theorem = _theorem(s, w)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F64"
    assert theorem.least and theorem.layers == 3 and int(theorem.low) == F64.low(s, w) == lengths[0]
    for n in lengths:
        want = families.at(theorem, {"n": n})
        got = concrete(_pattern(s, w), n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, want["order"], 3, True), (s, w, n)


def _arc(s, w):
    def arc(u, v):
        return u != v and ((u - 1) // s == (v - 1) // s or (u - v) % s == 0 or abs(u - v) <= w)
    return arc


def test_order_by_counting():
    """|Aut| by extending partial maps (arcs written here), at the first lengths of the range of (5, 1)."""
    for n in range(30, 36):
        assert count_automorphisms(n, _arc(5, 1)) == F64.order_at(n, 5, 1), n


@pytest.mark.parametrize("s, w, n", [(4, 1, 20), (4, 1, 23), (5, 1, 30), (5, 1, 33), (5, 2, 31), (6, 1, 45), (7, 2, 59),
                                     (7, 3, 58), (9, 3, 90), (8, 2, 77)])
def test_the_block_exchange_is_a_view_witness(s, w, n):
    """By the definition (§11.9): σ is no symmetry, and σ(N(v)) = N(σ v) for every v within distance 1 of w + 1."""
    arc = _arc(s, w)
    perm = F64.block_exchange(n, s)
    assert any(arc(u, v) and not arc(perm[u - 1], perm[v - 1]) for u in range(1, n + 1) for v in range(1, n + 1))
    root = w + 1
    near = [v for v in range(1, n + 1) if v == root or arc(v, root)]
    for v in near:
        image = {perm[u - 1] for u in range(1, n + 1) if u == v or arc(u, v)}
        assert image == {u for u in range(1, n + 1) if u == perm[v - 1] or arc(u, perm[v - 1])}, (s, w, n, v)


@pytest.mark.parametrize("s, w", [(6, 3), (3, 1)])
def test_narrow_blocks_stay_outside(s, w):
    """s ≤ 2w (no interior offset; blocks(6) + window(3) + strided(6) needs 2 layers at some residues) and s = 3,
    w = 1 (a row is no larger than a clique holding a window edge) are not F64's."""
    found = _theorem(s, w)
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F64")
