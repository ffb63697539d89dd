"""Theorem F93 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with 3 ≤ b < s, 1 ≤ w ≤ b − 2 — D by
residue of n mod P = lcm(b, s), G = the permutations of the classes mod s keeping the residue set of every twin run of
the blocks and window (applied alike in every run), with the reflection when b | n, D + 1 layers — against the
concrete engine (graphs, BLISS) through a whole period of n mod P from the range's start, D(n + P) = D(n) over one
more period by breadth-first search on the reference arcs, and the count (D + 1, or D on Theorem F113's classes)
against the engine's least count."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import blocks_window_strided_classes as f93
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

from .reference import all_distances, attends

N = sympy.Symbol("n", integer=True, positive=True)

# (b, w, s): gcd(b, s) from 1 to 4, the group the reflection alone, or larger ((8, 1, 12): the classes {2, 6} and
# {3, 7} … exchanged alike in every run)
CASES = [(3, 1, 4), (3, 1, 5), (4, 1, 7), (4, 2, 5), (4, 1, 6), (5, 2, 7), (8, 1, 12)]


def _pattern(b, w, s):
    return PatternUnion((Blocks(b), Window(w), Strided(s)))


def bfs_diameter(pattern, n):
    dist = all_distances(attends(pattern, n), n)
    return max(max(d.values()) for d in dist.values())


@pytest.mark.parametrize("b, w, s", CASES)
def test_against_the_concrete_engine(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F93"
    fits = f93.premise_residues(b, w, s)  # Theorem F113's classes: D layers (compared with the engine in test_..._pieces)
    data = f93.decide(b, w, s)
    low, period = int(theorem.low), data.period
    step = 1 if low + period <= 160 else 5
    for n in range(low, low + period, step):
        want = families.at(theorem, {"n": n})
        got = concrete(_pattern(b, w, s), n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (b, w, s, n)
        assert got.order == want["order"], (b, w, s, n)
        assert want["layers"] == want["diameter"] + (0 if n % period in fits else 1), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", CASES[:4])
def test_the_diameter_repeats_with_period_p(b, w, s):
    data = f93.decide(b, w, s)
    for n in range(data.low, data.low + data.period):
        d = bfs_diameter(_pattern(b, w, s), n + data.period)
        assert d == data.diameters[n % data.period] == f93.diameter_at(n, b, w, s), (b, w, s, n)


def test_the_group_can_exceed_the_reflection():
    """(8, 1, 12): gcd(b, s) = 4 > 2w, so some classes lie in no run alone and are exchanged alike in every run."""
    data = f93.decide(8, 1, 12)
    assert max(data.orders) == 16 and min(data.orders) == 4
    assert any(len(a) > 1 for a in f93.atoms_at(400, 8, 1, 12))


@pytest.mark.parametrize("b, w, s", [(3, 1, 4), (4, 1, 7)])
def test_the_count_is_at_least_the_least_count(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    low = int(theorem.low)
    for n in (low, low + 1):
        got = concrete(_pattern(b, w, s), n)
        want = families.at(theorem, {"n": n})["layers"]
        assert got.layers <= want and (got.layers == want or not theorem.least_at(n)), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", [(4, 1, 4), (5, 1, 3), (3, 2, 5), (2, 1, 5)])
def test_outside_the_theorem(b, w, s):
    """b ≥ s (same-class pairs inside a block), w ≥ b − 1 (the blocks add nothing to the window)."""
    assert f93.decide(b, w, s) is None


def test_at_a_real_size_without_arcs():
    theorem = families.match([_pattern(4, 2, 5)], sympy.Integer(1_048_576), {})
    assert theorem.theorem == "F93" and theorem.diameter == 3 and theorem.order == 2 and theorem.group == "reflection"
