"""uapcheck.schreier_sims: the order of a generated permutation group, against SymPy's Schreier–Sims
(the verifier's independent implementation) on random generator sets and against known orders."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from uapcheck.schreier_sims import generated_order


def _sympy_order(n: int, gens) -> int:
    return int(PermutationGroup([Permutation([x - 1 for x in g]) for g in gens] or
                                [Permutation(list(range(n)))]).order())


@st.composite
def generator_sets(draw):
    n = draw(st.integers(1, 10))
    count = draw(st.integers(0, 4))
    gens = []
    for _ in range(count):
        kind = draw(st.sampled_from(["any", "transposition", "cycle"]))
        p = list(range(1, n + 1))
        if kind == "any":
            p = draw(st.permutations(p))
        elif kind == "transposition":
            a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            p[a], p[b] = p[b], p[a]
        else:
            points = draw(st.lists(st.integers(0, n - 1), unique=True))
            for a, b in zip(points, points[1:] + points[:1]):
                p[a] = b + 1
        gens.append(list(p))
    return n, gens


@settings(max_examples=400, deadline=None)
@given(generator_sets())
def test_the_order_is_sympys(case):
    n, gens = case
    assert generated_order(n, gens) == _sympy_order(n, gens)


def _cycle(n, points):
    p = list(range(1, n + 1))
    for a, b in zip(points, points[1:] + points[:1]):
        p[a - 1] = b
    return p


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 40])
def test_named_groups(n):
    full = list(range(1, n + 1))
    assert generated_order(n, [_cycle(n, full), _cycle(n, [1, 2])] if n > 1 else []) == math.factorial(n)
    assert generated_order(n, [_cycle(n, full)]) == n
    if n >= 3:
        reflection = [n + 1 - i for i in full]
        assert generated_order(n, [_cycle(n, full), reflection]) == 2 * n
        three_cycles = [_cycle(n, [1, 2, k]) for k in range(3, n + 1)]
        assert generated_order(n, three_cycles) == math.factorial(n) // 2


def test_blocks_permuted_whole():
    """(S_7)^8 ⋊ S_8 on 64 points (sparse_transformer_fixed's per-layer group): 7!^8 · 8!."""
    n, gens = 64, []
    for b in range(8):
        gens.append(_cycle(n, [8 * b + 1, 8 * b + 2]))
        gens.append(_cycle(n, list(range(8 * b + 1, 8 * b + 8))))
    for b in range(7):
        p = list(range(1, n + 1))
        for k in range(8):
            p[8 * b + k], p[8 * b + 8 + k] = 8 * b + 9 + k, 8 * b + 1 + k
        gens.append(p)
    assert generated_order(n, gens) == math.factorial(7) ** 8 * math.factorial(8)


def test_a_large_symmetric_group_and_the_limits():
    n = 64
    assert generated_order(n, [_cycle(n, list(range(1, n + 1))), _cycle(n, [1, 2])]) == math.factorial(n)
    with pytest.raises(ValueError):
        generated_order(257, [])
    with pytest.raises(ValueError):
        generated_order(3, [[1, 1, 2]])
    with pytest.raises(ValueError):
        generated_order(3, [[1, 2]])
