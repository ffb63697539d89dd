"""Theorem F94 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b > s ≥ 2w + 1 — D = 2, G = the
cells' symmetric groups of the positions without window edges between blocks (with the class permutations that keep
them, and the reflection when b | n), 3 layers, least by an exchange of blocks — against the concrete engine (graphs,
BLISS, rooted views) and the reference arcs."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import blocks_window_strided_cells as f94
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)

CASES = [(5, 1, 3), (6, 1, 4), (8, 1, 3), (7, 1, 3), (6, 1, 3), (4, 1, 3), (7, 2, 5), (12, 1, 8)]


def _pattern(b, w, s):
    return PatternUnion((Blocks(b), Window(w), Strided(s)))


@pytest.mark.parametrize("b, w, s", CASES)
def test_against_the_concrete_engine(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F94" and theorem.least
    low, period = int(theorem.low), f94.lcm(b, s)
    for n in range(max(20, 4 * b), 61):           # the order holds below the range too
        got = concrete(_pattern(b, w, s), n, layers=False)
        assert got.diameter == 2 and got.order == f94.order_at(n, b, w, s), (b, w, s, n)
    step = 1 if period <= 20 else 4
    for n in range(low, low + period, step):
        want = families.at(theorem, {"n": n})
        got = concrete(_pattern(b, w, s), n, layers=False)
        assert got.diameter == want["diameter"] == 2 and got.order == want["order"], (b, w, s, n)
        assert want["layers"] == 3


@pytest.mark.parametrize("b, w, s", [(5, 1, 3), (6, 1, 3), (12, 1, 8)])
def test_the_order_at_symbolic_n_grows_by_one_factor_per_period(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    low, period = int(theorem.low), f94.lcm(b, s)
    for n in range(low, low + 2 * period):
        assert families.at(theorem, {"n": n})["order"] == f94.order_at(n, b, w, s), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", CASES + [(10, 2, 7)])
def test_the_block_exchange_is_a_view_witness(b, w, s):
    """σ is no symmetry, and every position within distance 1 of the root keeps its neighbourhood under σ (the arcs
    written in tests/graphs/reference.py)."""
    low = f94.low(b, w, s)
    for n in (low, low + 1, low + b - 1):
        adj: dict = {v: set() for v in range(1, n + 1)}
        for i, j in attends(_pattern(b, w, s), n):
            adj[i].add(j)
        perm = f94.chunk_exchange(n, b, s)
        assert any(perm[j - 1] not in adj[perm[i - 1]] for i in adj for j in adj[i])
        root = f94.root(b, w, s)
        for v in {root} | adj[root]:
            assert {perm[u - 1] for u in adj[v]} == adj[perm[v - 1]], (b, w, s, n, v)


@pytest.mark.parametrize("b, w, s", [(5, 1, 3), (6, 1, 4)])
def test_three_layers_are_the_engine_s_least_count(b, w, s):
    n = f94.low(b, w, s)
    assert concrete(_pattern(b, w, s), n).layers == 3


@pytest.mark.parametrize("b, w, s", [(5, 2, 3), (4, 1, 4), (3, 1, 5), (7, 3, 5)])
def test_outside_the_theorem(b, w, s):
    """s ≤ 2w, b = s (Theorem F64), b < s (Theorem F93)."""
    assert not f94.applies(b, w, s)
