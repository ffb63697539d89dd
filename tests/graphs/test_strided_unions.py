"""Theorem F89 (docs/theory.md §11.11): two or more strides with gcd 1 (not two coprime ones alone) — D the diameter
of the residue graph mod L, |G| by residue of n mod L, D layers by the common-neighbour lemma or D + 1 by a
transposition witness (else D + 1 sufficient) — against the concrete engine (graphs, BLISS, rooted views) at every
n ≤ 60 in range, the order by an automorphism count written in the test, the witness on arcs written in the test,
and the least layer count by the brute-force view argument at the first lengths; strides sharing a factor are not
strongly connected."""
from __future__ import annotations

from math import lcm

import pytest
import sympy

from . import brute_views
from .reference import count_automorphisms
from uapcheck.graphs import families, strided_unions
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.graphs.families import concrete
from uapcheck.spec import PatternUnion, Strided

N = sympy.Symbol("n", integer=True, positive=True)

# (strides as written, D, layers, least)
CASES = [((2, 3, 5), 2, 2, True), ((4, 6, 9), 2, 3, True), ((6, 10, 15), 3, 3, True), ((2, 3, 4), 2, 2, True),
         ((2, 5, 6), 2, 2, True), ((3, 4, 5), 2, 2, True), ((4, 5, 6), 2, 3, False), ((2, 3, 7), 2, 2, True), ((4, 6, 15), 2, 3, True), ((10, 12, 15), 3, 3, True)]


def _pattern(strides):
    return PatternUnion(tuple(Strided(s) for s in strides))


def _theorem(strides, n=N):
    return families.match([_pattern(strides)], n, {})


@pytest.mark.parametrize("strides, d, layers, least", CASES)
def test_against_concrete_engine(strides, d, layers, least):
    theorem = _theorem(strides)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F89"
    assert (int(theorem.diameter), int(theorem.layers), theorem.least) == (d, layers, least)
    kept = strided_unions.reduced_strides(strides)
    assert int(theorem.low) == lcm(*kept)
    pattern = _pattern(strides)
    for n in range(int(theorem.low), 61):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == d, (strides, n)
        assert got.order == want["order"], (strides, n)
        if least:
            assert got.least and got.layers == want["layers"], (strides, n)
        else:
            assert got.layers <= want["layers"] == d + 1, (strides, n)


@pytest.mark.parametrize("strides, lengths", [((2, 3, 4), range(6, 11)), ((2, 5, 6), (10, 11, 12))])
def test_order_by_counting(strides, lengths):
    """|Aut| by extending partial maps (arcs written here: a difference divisible by one of the strides)."""
    data = strided_unions.decide(strided_unions.reduced_strides(strides))
    for n in lengths:
        def arc(u, v):
            return u != v and any((u - v) % s == 0 for s in strides)
        assert count_automorphisms(n, arc) == strided_unions.order_at(n, data), (strides, n)


@pytest.mark.parametrize("strides", [(4, 6, 9), (4, 10, 15)])
def test_the_witness_by_the_definition(strides):
    """The swap of the theorem's cells at the root L keeps N(v) for every v within D − 1 of L and is no symmetry
    (arcs and distances written here)."""
    theorem = _theorem(strides)
    root, (a, b) = (int(theorem.witness[0]), tuple(int(x) for x in theorem.witness[1]))
    for n in range(int(theorem.low), int(theorem.low) + 6):
        def adj(u, v):
            return u != v and any((u - v) % s == 0 for s in strides)
        dist = {root: 0}
        frontier = [root]
        while frontier:
            frontier = [v for u in frontier for v in range(1, n + 1) if adj(u, v) and v not in dist
                        and not dist.__setitem__(v, dist[u] + 1)]
        ball = [v for v in range(1, n + 1) if dist[v] <= int(theorem.diameter) - 1]
        assert dist[a] == dist[b] == int(theorem.diameter)
        assert all(adj(v, a) == adj(v, b) for v in ball), (strides, n)
        assert any(adj(a, v) != adj(b, v) for v in range(1, n + 1) if v not in (a, b)), (strides, n)


def test_least_layers_by_brute_force():
    """strided(2) + strided(3) + strided(4) at n = 6, 7, 8: no view witness at depth 2 among all n! permutations."""
    for n in (6, 7, 8):
        nbs = brute_views.neighbourhoods(["strided(2) + strided(3) + strided(4)"], n)
        assert brute_views.diameter(nbs, n) == 2
        assert brute_views.least_layers(nbs, n) == 2, n


def test_symbolic_order_is_the_count_at_every_residue():
    theorem = _theorem((2, 3, 5))
    data = strided_unions.decide((2, 3, 5))
    for n in range(30, 90):
        assert families.at(theorem, {"n": n})["order"] == strided_unions.order_at(n, data)
    at_large = _theorem((4, 6, 9), sympy.Integer(1_048_576))
    assert isinstance(at_large, families.FamilyTheorem) and at_large.theorem == "F89" and at_large.low == 36


def test_a_large_modulus_states_the_group_at_a_concrete_n_only():
    """strided(7) + strided(8) + strided(9) (L = 504): D and the layers at symbolic n, the group at an integer n."""
    symbolic = _theorem((7, 8, 9))
    assert isinstance(symbolic, families.FamilyTheorem) and symbolic.group is None and "tokens N" in symbolic.open_question
    concrete_n = _theorem((7, 8, 9), sympy.Integer(65_536))
    assert concrete_n.group is not None and concrete_n.order is not None


@pytest.mark.parametrize("strides", [(4, 6, 10), (4, 6), (6, 9, 15), (2, 4)])
def test_strides_sharing_a_factor_are_not_strongly_connected(strides):
    found = _theorem(strides)
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F89")
    closed = closed_connectivity([_pattern(strides)], N)
    cases = [c for c in closed.cases if c.condition == sympy.Ge(N, 2)]
    assert cases and not cases[0].strongly_connected and cases[0].witness == (1, 2)
    for n in range(2, 25):
        assert not concrete(_pattern(strides), n, layers=False).connected, (strides, n)


@pytest.mark.parametrize("strides", [(2, 3), (3, 5)])
def test_two_coprime_strides_stay_f73(strides):
    found = _theorem(strides)
    assert isinstance(found, families.FamilyTheorem) and found.theorem == "F73"


@pytest.mark.parametrize("strides, lengths", [((3, 4, 5), (60, 61, 62, 63, 64, 65, 70, 90)), ((3, 4, 7), range(84, 90))])
def test_the_far_adjacency_table_on_the_residue_graph(strides, lengths):
    """Theorem F112: where the far-adjacency table holds on Q at the cell 0, D layers suffice at every n ≥ L; the
    concrete engine's rooted views agree at the first lengths of the range (and later ones for {3, 4, 5}), and the
    table fails for {4, 5, 6}, which stays open."""
    data = strided_unions.decide(strides)
    assert data.table and not data.lemma and data.witness is None and data.layers == data.diameter == 2
    for n in lengths:
        got = concrete(_pattern(strides), n)
        assert got.least and got.layers == 2, (strides, n)
    assert not strided_unions.decide((4, 5, 6)).table
