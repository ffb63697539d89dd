"""Theorem F90 (docs/theory.md §11.11): two or more strides (gcd 1) with g globals — D = 2, G = S_g × the strides'
group on the other n − g positions (Theorem F89's at n − g), 2 layers by the common-neighbour lemma with the globals
left out or 3 by a transposition witness — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60
in range, the order by an automorphism count written in the test, the witness on arcs written in the test, and the
least count by the brute-force view argument at the first lengths."""
from __future__ import annotations

from math import factorial, lcm

import pytest
import sympy

from . import brute_views
from .reference import count_automorphisms
from uapcheck.graphs import families, strided_globals, strided_unions
from uapcheck.graphs.families import concrete
from uapcheck.spec import Global, PatternUnion, Star, Strided

N = sympy.Symbol("n", integer=True, positive=True)

# (strides, g, layers, least)
CASES = [((2, 3, 5), 1, 2, True), ((2, 3, 5), 2, 2, True), ((4, 6, 9), 1, 3, True), ((6, 10, 15), 1, 3, True),
         ((2, 3), 1, 2, True), ((2, 3), 3, 2, True), ((2, 3, 7), 1, 2, True), ((2, 5), 2, 2, True),
         ((2, 3, 4), 2, 2, True)]


def _pattern(strides, g):
    return PatternUnion(tuple(Strided(s) for s in strides) + ((Star(),) if g == 1 else (Global(g),)))


def _theorem(strides, g, n=N):
    return families.match([_pattern(strides, g)], n, {})


@pytest.mark.parametrize("strides, g, layers, least", CASES)
def test_against_concrete_engine(strides, g, layers, least):
    theorem = _theorem(strides, g)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F90"
    assert (int(theorem.diameter), int(theorem.layers), theorem.least) == (2, layers, least)
    kept = strided_unions.reduced_strides(strides)
    assert int(theorem.low) == g + lcm(*kept)
    pattern = _pattern(strides, g)
    for n in range(int(theorem.low), 61):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == 2, (strides, g, n)
        assert got.order == want["order"], (strides, g, n)
        assert got.least and got.layers == want["layers"], (strides, g, n)


@pytest.mark.parametrize("strides, g, lengths", [((2, 3), 1, range(7, 11)), ((2, 3), 2, (8, 9, 10)),
                                                 ((2, 5), 1, (11, 12))])
def test_order_by_counting(strides, g, lengths):
    """|Aut| by extending partial maps (arcs written here: a global, or a difference divisible by a stride)."""
    for n in lengths:
        def arc(u, v):
            return u != v and (u <= g or v <= g or any((u - v) % s == 0 for s in strides))
        want = factorial(g) * strided_unions.order_at(n - g, strided_unions.decide(tuple(sorted(strides))))
        assert count_automorphisms(n, arc) == want == strided_globals.order_at(n, tuple(sorted(strides)), g)


@pytest.mark.parametrize("strides, g", [((4, 6, 9), 1), ((6, 10, 15), 2)])
def test_the_witness_by_the_definition(strides, g):
    """The swap at its root keeps N(v) for every v within distance 1 and is no symmetry (arcs written here)."""
    theorem = _theorem(strides, g)
    root, (a, b) = int(theorem.witness[0]), tuple(int(x) for x in theorem.witness[1])
    for n in range(int(theorem.low), int(theorem.low) + 4):
        def adj(u, v):
            return u != v and (u <= g or v <= g or any((u - v) % s == 0 for s in strides))
        ball = [v for v in range(1, n + 1) if v == root or adj(v, root)]
        assert a not in ball and b not in ball and root > g
        assert all(adj(v, a) == adj(v, b) for v in ball), (strides, n)
        assert any(adj(a, v) != adj(b, v) for v in range(1, n + 1) if v not in (a, b)), (strides, n)


def test_least_layers_by_brute_force():
    """strided(2) + strided(3) + star at n = 7, 8: no view witness at depth 2 among all n! permutations."""
    for n in (7, 8):
        nbs = brute_views.neighbourhoods(["strided(2) + strided(3) + star"], n)
        assert brute_views.diameter(nbs, n) == 2
        assert brute_views.least_layers(nbs, n) == 2, n


def test_symbolic_order_is_the_count_at_every_residue():
    theorem = _theorem((2, 3, 5), 2)
    for n in range(32, 95):
        assert families.at(theorem, {"n": n})["order"] == strided_globals.order_at(n, (2, 3, 5), 2)


def test_one_stride_with_globals_stays_f23():
    found = families.match([PatternUnion((Strided(3), Global(2)))], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F90")
