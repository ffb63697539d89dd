"""Theorems F40–F42 (docs/theory.md §11.11): `offsets S` on a line, and every union of non-cyclic windows,
dilations and offsets, at symbolic n — checked against breadth-first search on the arcs, an automorphism
count by extension of partial maps, and the concrete engine (graphs, BLISS, rooted views)."""
from __future__ import annotations

import itertools
from collections import deque
from functools import reduce
from math import gcd

import pytest
import sympy

from .reference import all_distances as reference_distances
from .reference import count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete, line_jumps
from uapcheck.graphs.offsets_line import diameter_table, line_data, line_steps
from uapcheck.graphs.closed_forms import _Atom
from uapcheck.spec import Dilated, Offsets, PatternUnion, Window

BOX = [v for v in range(-6, 7) if v]
ALL_SETS = [c for k in (2, 3) for c in itertools.combinations(BOX, k)
            if min(c) < 0 < max(c) and reduce(gcd, map(abs, c)) == 1]

# the example list of issue 9 and a spread of two- and three-jump sets (both signs, symmetric, mirrored)
ENGINE_SETS = [(-1, 3), (-2, 1), (-1, 1, 5), (-5, -2, -1, 1, 2, 5), (-7, -6, -3, -1, 1, 3, 6, 7), (-2, 3),
               (-3, 1, 2), (-3, 2), (-4, 1), (-1, 4), (-5, 3), (-6, 1), (-4, -1, 2), (-3, -2, 4), (-2, 1, 5),
               (-6, -1, 3), (-3, 3, 4), (-4, -3, 3, 4), (-1, 2, 6), (-5, -4, 1)]


def arcs_of(S, n):
    """i attends to i + k for k in S, both in 1..n: the arc (i + k, i)."""
    return {(i + k, i) for i in range(1, n + 1) for k in S if 1 <= i + k <= n}


def all_distances(S, n):
    """dist[j][i] = d(j → i) on P_n(S), by breadth-first search on the arcs (the shared reference search)."""
    return reference_distances([(i, j) for j, i in arcs_of(S, n)], n)


def bfs_diameter(S, n):
    dist = all_distances(S, n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


def word_lengths(S, top):
    """ℓ(m) on [−top, top] by BFS on Z restricted to a wide interval (F27 (c))."""
    a, b = -min(S), max(S)
    lo, hi = -top - 3 * (a + b), top + 3 * (a + b)
    seen = {0: 0}
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for k in S:
            v = u + k
            if lo <= v <= hi and v not in seen:
                seen[v] = seen[u] + 1
                queue.append(v)
    return seen


def pattern(S):
    return Offsets(tuple(sorted(set(S) | {0})), False)


@pytest.mark.parametrize("S", [(-1, 3), (-2, 3), (-3, 1, 2), (-5, -2, -1, 1, 2, 5), (-4, 1, 6)])
def test_distances_are_word_lengths(S):
    """F40 (a): for n ≥ a + b, d(j → i) = ℓ(j − i) for every pair."""
    a, b = -min(S), max(S)
    ell = word_lengths(S, 40)
    for n in range(a + b, 36):
        dist = all_distances(S, n)
        for i in range(1, n + 1):
            for j in range(1, n + 1):
                assert dist[j][i] == ell[j - i], (S, n, i, j)  # d(j → i)


@pytest.mark.parametrize("S", ALL_SETS)
def test_diameter_by_bfs(S):
    """F40 (b): D = ⌊n/a⌋ + h(n mod a) equals BFS on the arcs at every n from N₀ to 80 (to N₀ + 2a beyond)."""
    steps, _ = line_steps(S)
    n0, excess = diameter_table(steps)
    a = -min(steps)
    assert a == min(-min(S), max(S))
    for n in range(n0, max(81, n0 + 2 * a)):
        assert n // a + excess[n % a] == bfs_diameter(S, n), (S, n)


@pytest.mark.parametrize("S", ENGINE_SETS)
def test_against_concrete_engine(S):
    """D, |G| and the least layer count against the concrete engine at every n ≤ 60 in range."""
    data = line_data(S)
    assert data is not None and data.low_layers is not None
    for n in range(data.low, 61):
        got = concrete(pattern(S), n)
        assert got.connected and got.least
        assert (got.diameter, got.order, got.layers) == (data.diameter(n), data.order(n), data.layers(n)), (S, n)


@pytest.mark.parametrize("S", [(-1, 3), (-1, 1, 5), (-5, -2, -1, 1, 2, 5), (-3, 1, 2), (-2, 3), (-4, -3, 3, 4)])
def test_range_is_sharp(S):
    """Below the stated range the concrete engine's values differ (or the range starts at 2)."""
    data = line_data(S)
    n = data.low - 1
    if n < 2:
        return
    got = concrete(pattern(S), n)
    assert not (got.connected and got.least and got.diameter == data.diameter(n) and got.order == data.order(n)
                and got.layers == data.layers(n))


@pytest.mark.parametrize("S", [(-1, 3), (-2, 1), (-1, 1, 5), (-3, 1, 2), (-2, -1, 1, 2, 5), (-3, 3, 4), (-2, 3)])
def test_group_order_by_counting(S):
    """F41: |Aut| counted by extending partial maps (no engine) at the first lengths of the range, n ≤ 16."""
    data = line_data(S)
    for n in range(data.low, min(data.low + 4, 17)):
        arcs = arcs_of(S, n)
        got = count_automorphisms(n, lambda u, v, arcs=arcs: (u, v) in arcs)
        assert got == data.order(n) == (2 if set(S) == {-k for k in S} else 1), (S, n)


@pytest.mark.parametrize("S", [(1, 3), (-3, -1), (-2, 4), (-6, -3, 3), (2, 4), (-4, 2, 6)])
def test_one_sign_or_shared_factor_is_not_connected(S):
    """One-signed jumps or gcd > 1: no theorem, and the arcs are not strongly connected for n ≥ 2."""
    assert line_steps(S) is None and line_data(S) is None
    for n in range(2, 25):
        assert bfs_diameter(S, n) is None


def test_mirror_and_period():
    """a > b is mirrored (a ≤ b after it); the period of D is min(a, b) of the jumps as written."""
    data = line_data((-3, 1, 2))
    assert data.mirrored and data.steps == (-2, -1, 3) and data.period == 2
    for n in range(data.proved_low, data.proved_low + 20):
        assert data.diameter(n + 2) == data.diameter(n) + 1


def test_large_n_without_arcs():
    """The closed forms are evaluated at n = 1,048,576 without arcs (the table per residue)."""
    data = line_data((-5, -2, -1, 1, 2, 5))
    n = 1_048_576
    assert data.diameter(n) == n // 5 + (2 if n % 5 == 4 else 1)
    assert data.order(n) == 2 and data.layers(n) == data.diameter(n)


def test_family_match_at_symbolic_n():
    """`window(2) + offsets {−5, 5}`: F40 with the reflection and D layers, least, by residue of n mod 5."""
    n = sympy.Symbol("n", integer=True, positive=True)
    theorem = families.match([PatternUnion((Window(2), Offsets((-5, 5), False)))], n, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F40"
    assert theorem.group == "reflection" and theorem.order == 2 and theorem.least
    assert int(theorem.low) == 9
    for value in range(9, 40):
        at = families.at(theorem, {"n": value})
        assert at["diameter"] == bfs_diameter((-5, -2, -1, 1, 2, 5), value) == at["layers"]


def test_union_jumps():
    """window(1) + dilated(2, 3) + dilated(1, 7) is offsets {±1, ±3, ±6, ±7}; a global part is not a line."""
    atoms = [_Atom("window", (sympy.Integer(1),)), _Atom("dilated", (sympy.Integer(2), sympy.Integer(3))),
             _Atom("dilated", (sympy.Integer(1), sympy.Integer(7)))]
    assert line_jumps(atoms) == [-7, -6, -3, -1, 1, 3, 6, 7]
    assert line_jumps(atoms + [_Atom("global", (sympy.Integer(1),))]) is None
    n = sympy.Symbol("n", integer=True, positive=True)
    theorem = families.match([PatternUnion((Window(1), Dilated(2, 3), Dilated(1, 7)))], n, {})
    assert theorem.theorem == "F40" and int(theorem.low) == 16 and theorem.group == "reflection"


def test_dilated_alone_is_not_a_line_theorem():
    """`dilated(2, 2)` (S = {±2, ±4}, gcd 2) is not connected: no F40, NOT-UAP by the closed connectivity."""
    n = sympy.Symbol("n", integer=True, positive=True)
    found = families.match([Dilated(2, 2)], n, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F40")
    assert all(bfs_diameter((-4, -2, 2, 4), m) is None for m in range(2, 20))
