"""Theorems F20–F22 (docs/theory.md §11.11): `blocks(b) + window(w)` and `blocks(b) + window(w) +
global(g)` at symbolic n (integers b ≥ 3, 1 ≤ w ≤ b − 2).

F21: D by residue of n mod the greedy period, G = the symmetric groups of the twin classes with the
reflection when b | n, D layers, least (F20: straight-ordered patterns have no view witness at D).
F22: D = 2, G = S_g × (twin classes of the non-globals, with their reflection when b | n + g), 3 layers,
least (the swap of two adjacent non-twins of the second piece at position n).
Checked against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in the range, the
group against brute force over S_n at small n, the straightness and the twin classes on the arcs, and
the witness on the arcs.
"""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs import symbolic_unions as U
from uapcheck.spec import Blocks, Global, PatternUnion, Window

from .reference import count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60
F21_PARAMS = [(3, 1), (4, 1), (4, 2), (5, 1), (5, 2), (5, 3), (6, 2), (7, 3), (8, 1)]
F22_PARAMS = [(4, 1, 1), (8, 1, 1), (4, 2, 1), (3, 1, 2), (5, 3, 1), (4, 1, 3), (4, 1, 5), (6, 2, 2)]


def pattern(b, w, g=0):
    parts = (Blocks(b), Window(w)) + ((Global(g),) if g else ())
    return PatternUnion(parts)


def adjacency(n, b, w, g):
    def adj(u, v):
        return u <= g or v <= g or (u - 1) // b == (v - 1) // b or abs(u - v) <= w
    return adj


@pytest.mark.parametrize("b,w", F21_PARAMS)
def test_f21_agrees_with_the_concrete_engine_for_every_n_up_to_60(b, w):
    theorem = F.match([pattern(b, w)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F21" and theorem.least
    checked = 0
    for n in range(1, NMAX + 1):
        point = {"n": n}
        if not F.in_range(theorem, point):
            assert n <= 3 * b
            continue
        want = F.at(theorem, point)
        got = F.concrete(pattern(b, w), n)
        assert (got.diameter, got.order, got.layers, got.least) == (
            want["diameter"], want["order"], want["layers"], True), n
        checked += 1
    assert checked == NMAX - 3 * b


@pytest.mark.parametrize("b,w,g", F22_PARAMS)
def test_f22_agrees_with_the_concrete_engine_for_every_n_up_to_60(b, w, g):
    theorem = F.match([pattern(b, w, g)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F22" and theorem.least
    low = U.blocks_window_low(b, w, g)
    for n in range(low, NMAX + 1):
        want = F.at(theorem, {"n": n})
        assert want["diameter"] == 2 and want["layers"] == 3
        got = F.concrete(pattern(b, w, g), n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, want["order"], 3, True), n


@pytest.mark.parametrize("b,w,g", [(4, 1, 0), (5, 2, 0), (4, 1, 1), (5, 3, 1), (3, 1, 2)])
def test_the_pattern_is_straight_and_the_twin_classes_are_the_runs_of_equal_intervals(b, w, g):
    for n in range(U.blocks_window_low(b, w, g), NMAX + 1):
        adj = adjacency(n, b, w, g)
        r = range(g + 1, n + 1)
        for u, v, x in itertools.combinations(r, 3):
            if adj(u, x):
                assert adj(u, v) and adj(v, x)
        closed = {p: frozenset(q for q in r if adj(p, q)) for p in r}
        iv = U.neighbourhood_intervals(n, b, w, g)
        assert all(closed[p] == frozenset(range(iv[p][0], iv[p][1] + 1)) for p in r)
        classes = {}
        for p in r:
            classes.setdefault(closed[p], []).append(p)
        want = sorted((min(c), max(c)) for c in classes.values())
        assert U.twin_classes(n, b, w, g) == want
        assert all(max(c) - min(c) + 1 == len(c) for c in classes.values())


def brute_order(n, b, w, g):
    """|Aut(Γ)| by trying every permutation, built position by position (reference.count_automorphisms)."""
    return count_automorphisms(n, adjacency(n, b, w, g))


@pytest.mark.parametrize("b,w,g,n", [(3, 1, 0, 10), (3, 1, 0, 12), (3, 1, 1, 13), (4, 1, 0, 13), (4, 1, 0, 12),
                                     (5, 2, 0, 16), (4, 1, 1, 13), (4, 1, 1, 15)])
def test_the_order_formula_against_every_permutation(b, w, g, n):
    assert U.order_at(n, b, w, g) == brute_order(n, b, w, g)


@pytest.mark.parametrize("b,w,g", F22_PARAMS)
def test_f22_witness_changes_no_neighbourhood_near_its_root(b, w, g):
    for n in range(U.blocks_window_low(b, w, g), NMAX + 1):
        adj = adjacency(n, b, w, g)
        root, (x, y) = U.witness(n, b, w, g)
        sigma = {x: y, y: x}

        def nb(v, n=n, adj=adj):
            return frozenset(q for q in range(1, n + 1) if adj(v, q))
        changed = [v for v in range(1, n + 1)
                   if frozenset(sigma.get(q, q) for q in nb(v)) != nb(sigma.get(v, v))]
        assert changed and all(not adj(v, root) for v in changed)
        assert nb(x) - {x, y} != nb(y) - {x, y}  # adjacent non-twins: (x y) is not a symmetry


def test_symbolic_parameters_are_an_open_family():
    theorem = F.match([pattern("b", 1)], N, {"b": sympy.Symbol("b", integer=True, positive=True)})
    assert isinstance(theorem, F.OpenFamily)
