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


@st.composite
def generators_on_orbits(draw):
    """Generators each moving the points of one chosen part of 1..n (transpositions often), and now and
    then one moving two parts at once: both the product over orbits and the whole-group fallback."""
    n = draw(st.integers(2, 12))
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=3)))
    parts = [list(range(a, b)) for a, b in zip([0] + cuts, cuts + [n])]
    gens = []
    for _ in range(draw(st.integers(1, 5))):
        part = draw(st.sampled_from(parts))
        if draw(st.booleans()) and len(parts) > 1:
            part = part + draw(st.sampled_from([q for q in parts if q is not part]))
        p = list(range(1, n + 1))
        kind = draw(st.sampled_from(["any", "transposition", "cycle"]))
        if kind == "transposition" and len(part) >= 2:
            a, b = draw(st.lists(st.sampled_from(part), min_size=2, max_size=2, unique=True))
            p[a], p[b] = p[b], p[a]
        elif kind == "cycle":
            points = draw(st.lists(st.sampled_from(part), unique=True))
            for a, b in zip(points, points[1:] + points[:1]):
                p[a] = b + 1
        else:
            images = draw(st.permutations(part))
            for a, b in zip(part, images):
                p[a] = b + 1
        gens.append(p)
    return n, gens


@settings(max_examples=300, deadline=None)
@given(generators_on_orbits())
def test_the_order_on_chosen_orbits_is_sympys(case):
    n, gens = case
    assert generated_order(n, gens) == _sympy_order(n, gens)


def test_a_symmetric_orbit_beside_a_swap_is_read_from_transpositions():
    """S_2 × S_198 from (1 2), (3 4) and a 198-cycle (a per-layer group of periodic { global(2), global(2) }
    at n = 200): a minute of Schreier–Sims before; the transpositions' conjugates connect the orbit."""
    import time
    n = 200
    gens = [_cycle(n, [1, 2]), _cycle(n, [3, 4]), _cycle(n, list(range(3, n + 1)))]
    start = time.process_time()
    assert generated_order(n, gens) == 2 * math.factorial(198)
    # the conjugates of (3 5) under the 198-cycle link points of one parity: two components of 99 that the
    # cycle exchanges, (S_99 × S_99) ⋊ C_2 (14 s of Schreier–Sims before)
    half = [_cycle(n, [3, 5]), _cycle(n, list(range(3, n + 1)))]
    assert generated_order(n, half) == 2 * math.factorial(99) ** 2
    assert time.process_time() - start < 2.0
    small = [_cycle(12, [3, 5]), _cycle(12, list(range(3, 13)))]
    assert generated_order(12, small) == _sympy_order(12, small) == 2 * math.factorial(5) ** 2


def _product(n, *perms):
    """The permutation applying perms[0] first, then perms[1], … (1-based image lists)."""
    p = list(range(1, n + 1))
    for q in perms:
        p = [q[x - 1] for x in p]
    return p


def _adversarial_cases():
    """Generator sets where the transpositions' reduction recurses or its components are permuted by generators
    that also act inside them."""
    n = 12  # S_3 wr S_4: (1 2) and (1 2 3) in the first block, the blocks permuted by a 4-cycle twisted by (1 2)
    shift = _product(n, *(_cycle(n, [k, k + 3, k + 6, k + 9]) for k in (1, 2, 3)))
    yield "twisted wreath", n, [_cycle(n, [1, 2]), _cycle(n, [1, 2, 3]), _product(n, _cycle(n, [1, 2]), shift)]
    n = 8  # S_2 wr S_2 wr S_2: the induced group on the four pairs has transpositions again (a second reduction)
    pairs_swap = _product(n, _cycle(n, [1, 3]), _cycle(n, [2, 4]))
    halves_swap = _product(n, *(_cycle(n, [k, k + 4]) for k in (1, 2, 3, 4)))
    yield "iterated wreath", n, [_cycle(n, [1, 2]), pairs_swap, halves_swap]
    n = 9  # (1 4) and the 9-cycle: the conjugates (k k + 3) make components {1, 4, 7}, … that the cycle permutes
    yield "transposition and long cycle", n, [_cycle(n, [1, 4]), _cycle(n, list(range(1, n + 1)))]
    n = 10  # transpositions on one orbit beside a generator moving two orbits (the whole group decides)
    yield "two orbits at once", n, [_cycle(n, [1, 2]), _cycle(n, [1, 2, 3, 4]),
                                    _product(n, _cycle(n, [3, 4]), _cycle(n, [5, 6, 7, 8, 9, 10]))]
    n = 8  # (1 2)'s conjugates are the four pairs, a proper normal S_2^4; the pairs permuted by S_4 (no transposition)
    yield "transpositions normal, not everything", n, [_cycle(n, [1, 2]),
                                                        _product(n, _cycle(n, [1, 3, 5, 7]), _cycle(n, [2, 4, 6, 8])),
                                                        _product(n, _cycle(n, [1, 3]), _cycle(n, [2, 4]))]


@pytest.mark.parametrize("name, n, gens", list(_adversarial_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_the_transpositions_reduction_on_adversarial_generators_is_sympys(name, n, gens):
    assert generated_order(n, gens) == _sympy_order(n, gens), name
