"""Theorems F23 (`strided(s) + global(g)`), F24 (`offsets {±1} cyclic + global(g)`) and F25
(`blocks(s) + strided(s)`) of docs/theory.md §11.11, against the concrete engine (graphs, BLISS, rooted
views) at every n ≤ 60 in range, the groups against every permutation (built position by position) at
small n, and the witnesses on the arcs."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs import symbolic_unions as U
from uapcheck.spec import Blocks, Global, Offsets, PatternUnion, Star, Strided

from .reference import count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def agree(pattern, theorem, n):
    want = F.at(theorem, {"n": n})
    got = F.concrete(pattern, n)
    return (got.diameter, got.order, got.layers, got.least) == (want["diameter"], want["order"], want["layers"], True)


@pytest.mark.parametrize("s,g", [(2, 1), (3, 1), (4, 1), (3, 2), (2, 3), (5, 2), (3, 4)])
def test_f23_agrees_with_the_concrete_engine_for_every_n_up_to_60(s, g):
    pattern = PatternUnion((Strided(s), Global(g)))
    theorem = F.match([pattern], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F23"
    assert theorem.low == g + s + 1
    for n in range(g + s + 1, NMAX + 1):
        assert agree(pattern, theorem, n), n
    assert F.at(theorem, {"n": g + s + 1})["layers"] == (2 if s == 2 else 3)


@pytest.mark.parametrize("s,g,n", [(3, 1, 9), (3, 1, 10), (2, 2, 8), (4, 1, 9), (3, 2, 9)])
def test_f23_order_against_every_permutation(s, g, n):
    def arc(u, v):
        return u <= g or v <= g or (u - v) % s == 0
    assert U.strided_global_order_at(n, s, g) == count_automorphisms(n, arc)


@pytest.mark.parametrize("sign,g", [(1, 1), (-1, 1), (1, 2), (-1, 3), (1, 4)])
def test_f24_agrees_with_the_concrete_engine_for_every_n_up_to_60(sign, g):
    for offsets in ((sign,), (0, sign)):
        pattern = PatternUnion((Offsets(offsets, True), Star() if g == 1 else Global(g)))
        theorem = F.match([pattern], N, {})
        assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F24" and theorem.low == g + 3
        for n in range(g + 3, NMAX + 1, 1 if offsets == (sign,) else 7):
            assert agree(pattern, theorem, n), n


def test_f24_with_a_symbolic_number_of_globals():
    g = sympy.Symbol("g", integer=True, positive=True)
    theorem = F.match([PatternUnion((Offsets((1,), True), Global("g")))], N, {"g": g})
    assert theorem.theorem == "F24" and theorem.low == g + 3
    assert F.at(theorem, {"n": 9, "g": 3}) == {"diameter": 2, "order": 6, "layers": 3}


@pytest.mark.parametrize("sign,g,n", [(1, 1, 7), (-1, 2, 8), (1, 3, 8)])
def test_f24_order_against_every_permutation(sign, g, n):
    def arc(u, v):  # u → v: v attends to u
        return u <= g or v <= g or u == v or (u - v - sign) % n == 0
    assert count_automorphisms(n, arc) == sympy.factorial(g)


@pytest.mark.parametrize("s", [3, 4, 5])
def test_f25_agrees_with_the_concrete_engine_for_every_n_up_to_60(s):
    pattern = PatternUnion((Blocks(s), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F25" and theorem.low == s * (s + 1)
    for n in range(s * (s + 1), NMAX + 1):
        assert agree(pattern, theorem, n), n


@pytest.mark.parametrize("s,n", [(3, 12), (3, 13), (3, 14), (4, 20), (4, 22)])
def test_f25_order_against_every_permutation(s, n):
    def arc(u, v):
        return (u - 1) // s == (v - 1) // s or (u - v) % s == 0
    assert U.rook_order_at(n, s) == count_automorphisms(n, arc)


def test_other_block_and_stride_sizes_stay_open():
    found = F.match([PatternUnion((Blocks(7), Strided(11)))], N, {})  # one period bL = 77 > 72
    assert isinstance(found, F.OpenFamily) and "b < s with b ∤ s" in found.question
    assert F.match([PatternUnion((Blocks(2), Strided(3)))], N, {}).theorem == "F44"  # tests/graphs/test_blocks_strided.py
    assert F.match([PatternUnion((Blocks(4), Strided(2)))], N, {}).theorem == "F34"  # b > s (tests/graphs/test_blocks_strided.py)
