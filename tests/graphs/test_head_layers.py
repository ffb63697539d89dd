"""Theorems F70–F71 of docs/theory.md §11.11 (the least layer count of several heads at symbolic n, from the union
of their arcs): every decided head tuple against the concrete engine (graphs, BLISS rooted views with the heads
as arc colours) at EVERY n ≤ 60 in its range, F71's swap re-checked with the reference neighbourhoods (no code
shared with the engine), and the least count by brute force over S_n at n = 7 where a range starts there."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import build_graph
from uapcheck.graphs import head_layers as HL
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Global, Offsets, PatternUnion, Strided, Window

from .heads_engines import closed_least, engine_least
from .brute_views import least_layers as brute_least, neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# (heads, theorem, union's theorem)
DECIDED = [
    ((Window(2), Global(1)), "F71", "F2"),                                  # catalog longformer_heads_n
    ((Window(3), Strided(4)), "F70", "F7"),                                 # catalog sparse_transformer_heads_n
    ((Offsets((1, -1), True), Offsets((2, -2), True)), "F70", "F5"),        # catalog two_heads_ring_jumps_n
    ((Window(3), Global(2)), "F71", "F2"),
    ((Strided(4), Global(1)), "F71", "F23"),
    ((Window(1, True), Offsets((0, 2), True)), "F70", "F27"),
    ((Window(2), Strided(3)), "F70", "F7"),
    ((Window(1), Strided(2)), "F70", "F7"),
    ((Window(1), Global(1)), "F71", "F31"),          # F2's swap is split by the window head; F31's is kept
    ((Window(1), Global(2)), "F71", "F31"),
    ((U(Window(1), Global(1)), Window(2)), "F71", "F2"),
    ((Blocks(4), Strided(4)), "F86", "F25"),         # catalog blocks_strided_heads_n: 3 for n ≡ 1, 2 (mod 4), else 2
    ((Blocks(3), Strided(3)), "F86", "F25"),
    ((Blocks(5), Strided(5)), "F86", "F25"),
    ((Global(2), Strided(4)), "F86", "F23"),         # F23's swap is split by the strided head; F88's own swaps
    ((U(Blocks(2), Global(1)), Strided(3)), "F86", "F87"),   # no union theorem: D = 2 by F87, 3 by F88 on every class
]


@pytest.mark.parametrize("heads,theorem,union", DECIDED)
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads, theorem, union):
    found = closed_least(heads)
    assert found is not None and found.theorem == theorem and found.union_theorem == union
    assert found.low <= NMAX
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == int(found.diameter.xreplace({N: n})), n
        layers = int(found.layers.xreplace({N: n}))
        assert layers == (d if suffices else d + 1), (n, layers, d, suffices)


@pytest.mark.parametrize("heads,theorem,union", [c for c in DECIDED if c[1] == "F71"])
def test_the_kept_swap_meets_every_heads_condition_by_the_reference_neighbourhoods(heads, theorem, union):
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    pos, (a, b) = found.witness
    for n in range(found.low, NMAX + 1):
        i, x, y = (int(e.xreplace({N: n})) for e in (pos, a, b))
        nbs = neighbourhoods(texts, n)
        ball = {i} | set().union(*(nb[i] for nb in nbs))
        assert x not in ball and y not in ball
        for nb in nbs:
            for v in ball:
                assert (x in nb[v]) == (y in nb[v]), (n, v)


@pytest.mark.parametrize("heads,theorem,union", [c for c in DECIDED if c[1] == "F86"])
def test_each_class_kept_swap_meets_every_heads_condition_by_the_reference_neighbourhoods(heads, theorem, union):
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    assert {c.residue for c in found.classes} == set(range(found.modulus))
    assert any(c.witness for c in found.classes)
    for c in found.classes:
        if c.witness is None:
            continue
        pos, (a, b) = c.witness
        for n in range(c.low, NMAX + 1, found.modulus):
            assert n % found.modulus == c.residue
            i, x, y = (int(e.xreplace({N: n})) for e in (pos, a, b))
            nbs = neighbourhoods(texts, n)
            ball = {i} | set().union(*(nb[i] for nb in nbs))
            assert x not in ball and y not in ball
            for nb in nbs:
                for v in ball:
                    assert (x in nb[v]) == (y in nb[v]), (n, v)
            if c.found_by == "F88":  # outside G: the swap is no automorphism of some head
                def image(v, x=x, y=y):
                    return y if v == x else x if v == y else v
                assert any(frozenset(map(image, nb[v])) != nb[image(v)] for nb in nbs for v in range(1, n + 1)), n


def test_the_class_pattern_of_the_rook_heads_by_brute_force_below_the_range():
    # blocks(3) | strided(3) at n = 6 and 7 (below F25's range n ≥ 12, so no claim there): the brute force over S_n
    # shows the same split by class the theorem states from 12 on, D = 2 for n ≡ 0 and D + 1 for n ≡ 1 (mod 3)
    texts = ["blocks(3)", "strided(3)"]
    found = closed_least((Blocks(3), Strided(3)))
    for n in (6, 7):
        assert brute_least(neighbourhoods(texts, n), n) == int(found.layers.xreplace({N: n}))


def test_a_swap_of_the_heads_own_by_brute_force_at_the_start_of_its_range():
    # global(2) | strided(4) from n = 7 (F23's union, its swap split by the strided head; F88's own swap): 3 layers,
    # least, by brute force over S_7
    heads = (Global(2), Strided(4))
    found = closed_least(heads)
    assert found.low == 7 and found.layers == 3
    assert brute_least(neighbourhoods([show_pattern(h) for h in heads], 7), 7) == 3


def test_the_least_count_by_brute_force_where_a_range_starts_low():
    # two_heads_ring_jumps at n = 7 (F5's range starts there): D = 2 layers, no view witness over S_7
    heads = (Offsets((1, -1), True), Offsets((2, -2), True))
    found = closed_least(heads)
    assert found.low == 7
    nbs = neighbourhoods([show_pattern(h) for h in heads], 7)
    assert brute_least(nbs, 7) == int(found.layers.xreplace({N: 7})) == 2


def test_undecided_tuples_stay_undecided():
    # the union's group is larger than the heads' on a class (window(2) | blocks(4): the reflection only
    # for n ≡ 0 mod 4): no claim from F70 (F75 decides it from the far ends, tests/graphs/test_straight_heads.py)
    from uapcheck.spec import Blocks
    assert closed_least((Window(2), Blocks(4))).theorem == "F75"
    assert closed_least((Window(1), Blocks(4))) is None
    # the two directions of a ring in two heads: G = C_n, the union's D_n is larger; no claim from F70, and Theorem
    # F143 decides it (no reflection keeps a one-sided head: D = ⌊n/2⌋ layers, tests/graphs/test_cyclic_window_heads.py)
    assert closed_least((Offsets((1,), True), Offsets((-1,), True))).theorem == "F143"


def test_a_split_union_witness_falls_back_to_f31s():
    # window(1) | global(1): F2's swap (2 3) at 6 is split (the window head's N(1) = {1, 2}), F31's (5 6) at 2 is kept
    found = closed_least((Window(1), Global(1)))
    assert found.union_theorem == "F31" and found.witness == (2, (5, 6)) and found.low == 7


def test_the_check_rejects_a_swap_that_one_head_splits():
    n = 12
    heads = [build_graph(Window(1), n, {}), build_graph(Global(1), n, {})]
    assert not HL.heads_keep_swap(heads, n, 7, 2, 3)   # N(1) in the window head holds 2, not 3
    heads = [build_graph(Window(2), n, {}), build_graph(Global(1), n, {})]
    assert HL.heads_keep_swap(heads, n, 8, 2, 3)
    assert not HL.heads_keep_swap(heads, n, 4, 2, 3)   # 2 is in the ball of 4
    assert not HL.heads_keep_swap(heads, n, 8, 3, 3)
