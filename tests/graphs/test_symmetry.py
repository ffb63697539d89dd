"""Exact symmetry groups: pinned known answers, and brute force over all permutations."""
import math

import pytest
from hypothesis import given, settings, strategies as st

from uapcheck.graphs import (build_graph, is_automorphism, reflection, rotation, symmetry_group,
                             union_graph, verify_group)
from .reference import BIASES, HEADS
from uapcheck.spec import (Blocks, Causal, Dilated, Edges, Full, Global, Offsets, PatternUnion,
                           RandomPattern, Star, Strided, Window)

from .reference import attends, brute_group_order

BIGBIRD = PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))


def group(patterns, n, biases=None, positional="none"):
    graphs = [build_graph(p, n) for p in patterns]
    G = symmetry_group(graphs, biases, positional)
    assert verify_group(G, graphs, biases, positional)
    return G


# (heads, n, order, name)
PINNED = [
    ([Offsets((0, 1, 2), cyclic=True)], 7, 7, "C_n"),
    ([Offsets((1,), cyclic=True)], 9, 9, "C_n"),                     # directed cycle
    ([Edges(((1, 2), (2, 3), (3, 4), (4, 5), (5, 1)))], 5, 5, "C_n"),  # directed cycle by edges
    ([Edges(((1, 2), (2, 3), (3, 1)))], 5, 6, None),                   # C_3 × S_2 on {4, 5}
    ([Window(1, cyclic=True)], 7, 14, "D_n"),
    ([Window(2, cyclic=True)], 8, 16, "D_n"),
    ([Window(2, cyclic=True)], 6, 48, None),                           # octahedron
    ([Window(3, cyclic=True)], 8, 384, None),                          # K_8 minus a perfect matching
    ([Window(2, cyclic=True)], 5, 120, "S_n"),                         # 2w + 1 >= n: complete
    ([Window(1, cyclic=True)], 4, 8, "D_n"),
    ([Offsets((1, -1), True), Offsets((2, -2), True)], 6, 12, "D_n"),  # intersection, not union
    ([Offsets((2, -2), True)], 6, 72, None),
    ([Star()], 10, math.factorial(9), "stabilizer 1"),
    ([Star()], 3, 2, "stabilizer 1"),
    ([Global(2)], 10, 2 * math.factorial(8), None),
    ([Global(3)], 4, 24, "S_n"),
    ([Blocks(3)], 9, 6 ** 3 * 6, None),
    ([Blocks(3)], 4, 6, "stabilizer 4"),
    ([Dilated(1, 2)], 8, 8, None),                                     # two paths P_4: Z_2 wr Z_2
    ([PatternUnion((Dilated(1, 2), Window(1)))], 8, 2, "reflection"),
    ([Strided(2)], 8, 24 * 24 * 2, None),
    ([Strided(2)], 4, 8, "D_n"),
    ([PatternUnion((Strided(3), Window(1)))], 9, 2, "reflection"),
    ([Causal()], 8, 1, "trivial"),
    ([Window(1)], 10, 2, "reflection"),
    ([Window(3)], 7, 2, "reflection"),
    ([Window(3)], 6, 4, None),                                         # middle positions universal
    ([Window(3)], 5, 12, None),                                        # K_5 minus an edge: 2·3!
    ([Window(3)], 4, 24, "S_n"),
    ([PatternUnion((Window(3), Global(2)))], 20, 4, None),
    ([BIGBIRD], 64, 2, None),                                          # the two global tokens swap
    ([Full()], 6, 720, "S_n"),
    ([Full(), Window(1)], 6, 2, "reflection"),
    ([Window(1), Offsets((1,), True)], 6, 1, "trivial"),               # reflection ∩ C_6
]


@pytest.mark.parametrize("heads,n,order,name", PINNED, ids=lambda x: repr(x)[:50])
def test_pinned(heads, n, order, name):
    G = group(heads, n)
    assert G.order == order
    assert G.name == name
    if n <= 7:
        assert brute_group_order([attends(p, n) for p in heads], n) == order


def test_bigbird_swaps_its_global_tokens():
    G = group([BIGBIRD], 64)
    assert G.generators == (tuple([2, 1] + list(range(3, 65))),)


def test_union_has_more_automorphisms_than_intersection():
    heads = [build_graph(Offsets((1, -1), True), 6), build_graph(Offsets((2, -2), True), 6)]
    assert symmetry_group(heads).order == 12
    assert symmetry_group([union_graph(heads)]).order == 48


def test_one_sided_cyclic_window_is_not_dihedral():
    g = build_graph(Offsets((0, 1, 2), cyclic=True), 7)
    assert is_automorphism(rotation(7), [g]) and not is_automorphism(reflection(7), [g])


def test_biases_and_positional():
    n = 7
    full = [Full()]
    assert group(full, n, ["circulant"]).name == "C_n"
    assert group(full, n, ["symmetric circulant"]).name == "D_n"
    assert group(full, n, ["toeplitz"]).name == "trivial"
    assert group(full, n, ["symmetric toeplitz"]).name == "reflection"
    assert group(full, n, ["free"]).name == "trivial"
    assert group(full, n, None, "absolute").name == "trivial"
    assert group([Window(2, True)], n, ["circulant"]).name == "C_n"
    assert group([Window(2)], n, ["symmetric circulant"]).name == "reflection"
    # a bias only matters on the arcs the pattern uses: the block swap survives a toeplitz bias
    G = group([Blocks(2)], 4, ["toeplitz"])
    assert G.order == 2 and G.generators == ((3, 4, 1, 2),)


def test_generators_are_image_lists_and_verified():
    G = group([Window(2, cyclic=True)], 6)
    graphs = [build_graph(Window(2, cyclic=True), 6)]
    assert all(sorted(p) == list(range(1, 7)) for p in G.generators)
    assert all(is_automorphism(p, graphs) for p in G.generators)
    assert not is_automorphism((2, 1, 3, 4, 5, 6), [build_graph(Window(1), 6)])


def test_star_at_large_n_keeps_two_generators():
    G = group([Star()], 5000)
    assert G.name == "stabilizer 1" and G.order == math.factorial(4999) and len(G.generators) == 2




@settings(max_examples=80, deadline=None)
@given(st.integers(5, 6), st.lists(st.tuples(HEADS, BIASES), min_size=1, max_size=3))
def test_brute_force_multihead_with_bias(n, heads):
    patterns = [p for p, _ in heads]
    biases = [b for _, b in heads]
    G = group(patterns, n, biases)
    expected = brute_group_order([attends(p, n) for p in patterns], n, biases)
    assert G.order == expected
