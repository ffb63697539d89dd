"""The fast paths of uapcheck.graphs against plain definitions.

Each shortcut taken for speed at large n (cached decodings, twin detection from igraph neighbour
lists, the moved-point and reflection membership checks, the distance colouring handed to BLISS,
the factorial guard) is compared here with a direct computation that shares none of its code.
"""
import itertools
import math
import time

import igraph as ig
from hypothesis import given, settings, strategies as st

from uapcheck.graphs import build_graph, is_automorphism, reflection, rotation, symmetry_group
from uapcheck.graphs.build import arc_codes, endpoints, to_igraph
from uapcheck.graphs.connectivity import _is_graph_automorphism
from uapcheck.graphs.symmetry import (_factorial_bits_floor, _invariant_colours, _is_factorial,
                                      _structure, _twin_classes)
from uapcheck.spec import (Blocks, Edges, Full, Global, Offsets, PatternUnion,
                           RandomPattern, Star, Window)

from .reference import BIASES, HEADS, attends, bias_class

BIGBIRD = PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))



def preserves_by_definition(perm, head_pairs, biases, n):
    """σ maps every pair (i, j) of every head to a pair of that head with the same bias class."""
    s = (0,) + tuple(perm)
    for pairs, kind in zip(head_pairs, biases):
        for (i, j) in pairs:
            if (s[i], s[j]) not in pairs or bias_class(kind, n, i, j) != bias_class(kind, n, s[i], s[j]):
                return False
    return True


def transposition(n, u, v):
    p = list(range(1, n + 1))
    p[u - 1], p[v - 1] = v, u
    return tuple(p)


# ---------------------------------------------------------------------------------------------
# build: cached decodings

def test_cached_forms_are_shared_and_consistent():
    g = build_graph(PatternUnion((Window(2), RandomPattern(2, seed=1))), 40)
    assert to_igraph(g) is to_igraph(g) and endpoints(g) is endpoints(g)
    js, is_ = endpoints(g)
    assert [j * 40 + i for j, i in zip(js, is_)] == list(arc_codes(g))
    assert sorted(to_igraph(g).get_edgelist()) == sorted(zip(js, is_))
    assert {(j + 1, i + 1) for j, i in zip(js, is_)} == set(g.arcs())
    # the cache is no dataclass field: equality and hashing ignore it
    fresh = build_graph(PatternUnion((Window(2), RandomPattern(2, seed=1))), 40)
    assert fresh == g and hash(fresh) == hash(g) and "_derived" not in repr(g)


def test_complete_graph_decodes_every_pair():
    g = build_graph(Full(), 5)
    assert to_igraph(g).ecount() == 20 and len(endpoints(g)[0]) == 20


# ---------------------------------------------------------------------------------------------
# symmetry: twin classes, membership checks, the invariant colouring

@settings(max_examples=60, deadline=None)
@given(st.integers(5, 7), st.lists(st.tuples(HEADS, BIASES), min_size=1, max_size=3))
def test_twin_classes_are_the_transpositions_in_g(n, heads):
    patterns = [p for p, _ in heads]
    biases = [b for _, b in heads]
    graphs = [build_graph(p, n) for p in patterns]
    st_ = _structure(graphs, biases, "none")
    if not st_.codes:
        return
    classes = _twin_classes(st_)
    cls = {u: k for k, m in enumerate(classes) for u in m}
    assert sorted(cls) == list(range(n))
    assert all(m == sorted(m) for m in classes) and [m[0] for m in classes] == sorted(m[0] for m in classes)
    pairs = [attends(p, n) for p in patterns]
    for u, v in itertools.combinations(range(1, n + 1), 2):
        in_g = preserves_by_definition(transposition(n, u, v), pairs, biases, n)
        assert in_g == (cls[u - 1] == cls[v - 1]), (u, v, classes)


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 8), st.lists(st.tuples(HEADS, BIASES), min_size=1, max_size=2),
       st.randoms(use_true_random=False))
def test_membership_checks_match_the_definition(n, heads, rnd):
    patterns = [p for p, _ in heads]
    biases = [b for _, b in heads]
    graphs = [build_graph(p, n) for p in patterns]
    pairs = [attends(p, n) for p in patterns]
    perms = [reflection(n), rotation(n), tuple(range(1, n + 1))]
    for k in (2, 3, n):  # few moved points (probing path) and many (full pass)
        pts = rnd.sample(range(1, n + 1), k)
        p = list(range(1, n + 1))
        for a, b in zip(pts, pts[1:] + pts[:1]):
            p[a - 1] = b
        perms.append(tuple(p))
    for perm in perms:
        assert is_automorphism(perm, graphs, biases) == preserves_by_definition(perm, pairs, biases, n)


def test_membership_rejects_non_permutations():
    g = [build_graph(Window(1), 6)]
    assert not is_automorphism((1, 2, 3), g)
    assert not is_automorphism((1, 1, 3, 4, 5, 6), g)
    assert not is_automorphism((0, 2, 3, 4, 5, 6), g)


def test_graph_automorphism_fast_paths():
    for pattern, n in [(Window(2), 9), (Offsets((1,)), 9), (Offsets((1, -2), True), 10),
                       (BIGBIRD, 30), (Edges(((1, 2), (3, 2))), 3)]:
        g = build_graph(pattern, n)
        pairs = attends(pattern, n)
        for perm in (reflection(n), rotation(n), transposition(n, 1, 2)):
            assert _is_graph_automorphism(perm, g) == preserves_by_definition(perm, [pairs], [None], n)


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 12), st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=40),
       st.lists(st.integers(0, 2), min_size=12, max_size=12))
def test_invariant_colouring_keeps_the_group(n, edges, colours):
    edges = sorted({(a, b) for a, b in edges if a < n and b < n and a != b})
    g = ig.Graph(n=n, edges=edges, directed=True)
    colours = colours[:n]
    refined = _invariant_colours(g, colours)
    assert len(refined) == n
    # a refinement: equal refined colours imply equal given colours
    assert all(colours[u] == colours[v] for u in range(n) for v in range(n) if refined[u] == refined[v])
    assert (g.count_automorphisms(sh="fl", color=refined) == g.count_automorphisms(sh="fl", color=colours))


def test_invariant_colouring_splits_a_window():
    g = to_igraph(build_graph(Window(3), 60))
    refined = _invariant_colours(g, [0] * 60)
    # the distance from the two ends (degree 3): about n / 6 classes instead of 4 degree classes
    assert len(set(refined)) >= 10
    assert all(refined[k] == refined[59 - k] for k in range(60))  # the reflection keeps them
    assert g.count_automorphisms(color=refined) == 2


def test_factorial_guard():
    for k in range(0, 200):
        f = math.factorial(k)
        assert 2 ** _factorial_bits_floor(k) <= f
        for order in (f - 1, f, f + 1, f // 2, 2 * f, 1):
            if order >= 1:
                assert _is_factorial(order, k) == (order == f), (k, order)


# ---------------------------------------------------------------------------------------------
# large n

def test_large_patterns_symmetry_fast():
    n = 65536
    t = time.perf_counter()
    bb = build_graph(BIGBIRD, n)
    G = symmetry_group([bb])
    assert G.order == 2 and G.name is None
    assert G.generators == (tuple([2, 1] + list(range(3, n + 1))),)  # the global tokens swap
    lf = build_graph(Window(3), n)
    G = symmetry_group([lf])
    assert G.order == 2 and G.name == "reflection" and G.generators == (reflection(n),)
    star = symmetry_group([build_graph(Star(), n)])
    assert star.name == "stabilizer 1" and star.order == math.factorial(n - 1)
    assert time.perf_counter() - t < 30  # about 2 s on the reference machine


def test_large_labelled_structure():
    # two heads (labels) and a bias on a cyclic window: the rotation survives, the reflection not
    n = 4096
    heads = [build_graph(Window(2, cyclic=True), n), build_graph(Offsets((1,), cyclic=True), n)]
    G = symmetry_group(heads, [None, "circulant"])
    assert G.order == n and G.name == "C_n"
    assert not is_automorphism(reflection(n), heads, [None, "circulant"])
    b = symmetry_group([build_graph(Blocks(2), 512)], ["toeplitz"])
    # the toeplitz bias keeps every block swap of equal-length blocks: no twins inside a block
    # (the arcs 2k -> 2k+1 and back differ in class), so G permutes the 256 blocks: 256!
    assert b.order == math.factorial(256)
