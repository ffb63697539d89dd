"""Theorem F100 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b > s and w + 2 ≤ s ≤ 2w — D = 2,
G = the symmetric groups of the cells' inner positions and of the bunch's classes (every class fixed, τ = id), with
the reflection when b | n, 3 layers, least by the swap of b − s and b — against the concrete engine (graphs, BLISS,
rooted views), nauty on the reference arcs, and the reference arcs for the swap."""
from __future__ import annotations

import pynauty
import pytest
import sympy

from uapcheck.graphs import blocks_window_strided_wide as f100
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)

CASES = [(5, 2, 4), (6, 2, 4), (6, 3, 5), (8, 3, 5), (10, 2, 4), (7, 3, 5), (9, 4, 6), (12, 3, 5)]
EQUAL = [(4, 2, 4), (5, 3, 5), (6, 3, 6), (6, 4, 6)]     # b = s: 3 layers suffice, not shown least


def _pattern(b, w, s):
    return PatternUnion((Blocks(b), Window(w), Strided(s)))


def _nauty_order(b, w, s, n) -> int:
    adj: dict = {v: set() for v in range(n)}
    for i, j in attends(_pattern(b, w, s), n):
        if i != j:
            adj[i - 1].add(j - 1)
            adj[j - 1].add(i - 1)
    _, mantissa, exponent, _, _ = pynauty.autgrp(pynauty.Graph(n, adjacency_dict={v: sorted(a) for v, a in adj.items()}))
    return round(mantissa * 10 ** exponent)


@pytest.mark.parametrize("b, w, s", CASES + EQUAL)
def test_against_the_concrete_engine(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F100" and theorem.least == (b > s)
    low, period = int(theorem.low), f100.lcm(b, s)
    for n in range(4 * b + 1, 61):          # the order holds below the range too
        got = concrete(_pattern(b, w, s), n, layers=False)
        assert got.diameter == 2 and got.order == f100.order_at(n, b, w, s), (b, w, s, n)
    step = 1 if period <= 20 else 5
    for n in range(low, low + period, step):
        want = families.at(theorem, {"n": n})
        got = concrete(_pattern(b, w, s), n, layers=False)
        assert got.diameter == want["diameter"] == 2 and got.order == want["order"], (b, w, s, n)
        assert want["layers"] == 3


@pytest.mark.parametrize("b, w, s", [(5, 2, 4), (10, 2, 4), (7, 3, 5), (6, 3, 6)])
def test_the_order_is_nauty_s_on_the_reference_arcs(b, w, s):
    low = f100.low(b, w, s)
    for n in (low, low + 1, low + b - 1, low + 2 * b + 3):
        assert _nauty_order(b, w, s, n) == f100.order_at(n, b, w, s), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", [(5, 2, 4), (10, 2, 4), (12, 3, 5)])
def test_the_order_at_symbolic_n_grows_by_one_factor_per_period(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    low, period = int(theorem.low), f100.lcm(b, s)
    for n in range(low, low + 2 * period):
        assert families.at(theorem, {"n": n})["order"] == f100.order_at(n, b, w, s), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", CASES + [(13, 3, 5), (10, 4, 8)])
def test_the_swap_is_a_view_witness(b, w, s):
    """σ = (b − s, b) is no symmetry, and every position within distance 1 of the root keeps its neighbourhood under σ
    (the arcs written in tests/graphs/reference.py)."""
    low = f100.low(b, w, s)
    for n in (low, low + 1, low + b - 1):
        adj: dict = {v: set() for v in range(1, n + 1)}
        for i, j in attends(_pattern(b, w, s), n):
            adj[i].add(j)
        x, y = f100.swap(b, s)
        perm = list(range(1, n + 1))
        perm[x - 1], perm[y - 1] = y, x
        assert any(perm[j - 1] not in adj[perm[i - 1]] for i in adj for j in adj[i])
        root = f100.root(b, w, s)
        for v in {root} | adj[root]:
            assert {perm[u - 1] for u in adj[v]} == adj[perm[v - 1]], (b, w, s, n, v)


@pytest.mark.parametrize("b, w, s", [(5, 2, 4), (6, 3, 5)])
def test_three_layers_are_the_engine_s_least_count(b, w, s):
    assert concrete(_pattern(b, w, s), f100.low(b, w, s)).layers == 3


@pytest.mark.parametrize("b, w, s", [(4, 2, 4), (6, 3, 6)])
def test_with_the_block_equal_to_the_stride_three_layers_suffice_and_two_do_at_some_residues(b, w, s):
    """The concrete engine's least count is 2 or 3 by residue of n mod s (n ≤ 60): F100 states 3, not least."""
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert theorem.layers == 3 and not theorem.least and theorem.open_question
    counts = {n % s: concrete(_pattern(b, w, s), n).layers for n in range(40, 40 + s)}
    assert set(counts.values()) == {2, 3}


@pytest.mark.parametrize("b, w, s", [(5, 1, 3), (5, 1, 2), (7, 2, 3), (3, 2, 4), (6, 2, 6)])
def test_outside_the_theorem(b, w, s):
    """s ≥ 2w + 1 (Theorem F94; b = s: F64), s ≤ w + 1, b < s."""
    assert not f100.applies(b, w, s)


def test_a_real_size_is_decided_without_arcs():
    theorem = families.match([_pattern(5, 2, 4)], sympy.Integer(1_048_576), {})
    assert theorem.theorem == "F100" and theorem.order == 1 and theorem.layers == 3
    theorem = families.match([_pattern(10, 2, 4)], sympy.Integer(1_048_576), {})
    assert theorem.order == f100.order_at(1_048_576 % 20 + 20 * 5, 10, 2, 4) * f100.period_factor(10, 2, 4) ** (
        (1_048_576 - 1_048_576 % 20 - 20 * 5) // 20)
