"""Strong connectivity, directed diameter, witnesses and the layer budget, with known answers."""
import math
import time

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from uapcheck.graphs import (Separation, analyze_connectivity, build_graph, check_layers, distance,
                             verify_connectivity, verify_separation)
from uapcheck.spec import (Blocks, Causal, Dilated, Edges, Full, Global, Offsets, PatternUnion,
                           RandomPattern, Star, Strided, Window)

from .reference import all_distances, attends

BIGBIRD = PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))


def conn(pattern, n, params=None):
    return analyze_connectivity([build_graph(pattern, n, params)])


# (pattern, n, strongly connected, diameter or witness (i, j))
PINNED = [
    (Full(), 9, True, 1),
    (Full(), 1, True, 0),
    (Window(1), 10, True, 9),
    (Window(3), 100, True, 33),
    (Window(3), 101, True, 34),
    (Window(2, cyclic=True), 11, True, 3),
    (Window(3, cyclic=True), 100, True, 17),
    (Offsets((0, 1, 2), cyclic=True), 7, True, 3),
    (Offsets((1,), cyclic=True), 9, True, 8),            # a directed cycle
    (Edges(((1, 2), (2, 3), (3, 4), (4, 1))), 4, True, 3),
    (Star(), 12, True, 2),
    (Global(2), 3, True, 1),
    (Global(2), 4, True, 2),
    (BIGBIRD, 64, True, 2),
    (PatternUnion((Window(3), Global(2))), 64, True, 2),
    (PatternUnion((Strided(4), Window(1))), 30, True, None),
    (PatternUnion((Dilated(2, 4), Window(1))), 30, True, None),
    (PatternUnion((Blocks(4), Global(1))), 20, True, 2),
    (PatternUnion((Causal(), Window(2))), 21, True, 10),
    (Causal(), 8, False, (1, 2)),
    (Blocks(4), 12, False, (1, 5)),
    (Strided(3), 10, False, (1, 2)),
    (Dilated(2, 3), 20, False, (1, 2)),
    (Offsets((1, 2)), 8, False, (2, 1)),     # x_1 never reaches 2 ... 8: position 8 sees nothing
    (Offsets((2, 4), cyclic=True), 8, False, (1, 2)),
    (Edges(((1, 2), (2, 3))), 3, False, (2, 1)),  # 2 attends only to 3: x_1 never reaches 2
]


@pytest.mark.parametrize("pattern,n,sc,expected", PINNED, ids=lambda x: repr(x)[:40])
def test_pinned(pattern, n, sc, expected):
    g = build_graph(pattern, n)
    c = analyze_connectivity([g])
    assert c.strongly_connected == sc
    assert verify_connectivity([g], c)
    if sc:
        if expected is not None:
            assert c.diameter == expected
        else:  # check against the reference all-pairs distances
            dist = all_distances(attends(pattern, n), n)
            assert c.diameter == max(max(d.values()) for d in dist.values())
        j, i = c.lower_pair
        assert distance([g], j, i) == c.diameter
    else:
        assert c.witness == expected
        i, j = expected
        assert distance([g], j, i) is None


def test_causal_witness_semantics():
    c = conn(Causal(), 5)
    assert c.witness == (1, 2) and c.diameter is None
    assert 2 not in c.separation.reach_i and c.separation.reach_i == frozenset({1})


def test_bad_separation_is_rejected():
    g = build_graph(Window(1), 5)
    assert not verify_separation([g], Separation(1, 5, frozenset({1, 2})))


def test_window_diameter_formula():
    for w in (1, 2, 3, 5):
        for n in range(1, 60):
            c = conn(Window(w), n)
            assert c.diameter == math.ceil((n - 1) / w)
            c = conn(Window(w, cyclic=True), n)
            assert c.diameter == math.ceil((n // 2) / w)


def test_layers_budget():
    g = build_graph(Window(3), 100)
    ok = check_layers([g], 33)
    assert ok.sufficient is True
    bad = check_layers([g], 10)
    assert bad.sufficient is False and bad.distance == 33
    i, j = bad.witness
    assert distance([g], j, i) == 33 > 10
    causal = check_layers([build_graph(Causal(), 6)], 100)
    assert causal.sufficient is False and causal.witness == (1, 2) and causal.distance is None


def test_heads_union_for_connectivity():
    # head 1 attends forward, head 2 backward: each alone is not strongly connected, the union is
    fwd, bwd = build_graph(Offsets((1,)), 10), build_graph(Offsets((-1,)), 10)
    assert not analyze_connectivity([fwd]).strongly_connected
    assert not analyze_connectivity([bwd]).strongly_connected
    c = analyze_connectivity([fwd, bwd])
    assert c.strongly_connected and c.diameter == 9 and verify_connectivity([fwd, bwd], c)


def test_vertex_transitive_needs_symmetry_and_is_certified():
    # circulants never close the Takes-Kosters bounds: the rotation supplies the orbits
    g = build_graph(Offsets((1, 5, -7), cyclic=True), 4001)
    c = analyze_connectivity([g])
    assert c.diameter is not None and c.upper_bound.method == "bounds"
    assert c.upper_bound.automorphisms
    assert verify_connectivity([g], c)
    ig_ecc = nx.eccentricity(nx.DiGraph([(j, i) for (j, i) in g.arcs()]), v=1)
    assert c.diameter == ig_ecc


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14), st.lists(st.tuples(st.integers(1, 14), st.integers(1, 14)), max_size=60),
       st.booleans())
def test_random_digraphs_against_networkx(n, edges, ring):
    edges = tuple((i, j) for (i, j) in edges if i <= n and j <= n)
    if ring:  # make strong connectivity likely
        edges += tuple((i, i % n + 1) for i in range(1, n + 1))
    g = build_graph(Edges(edges), n)
    c = analyze_connectivity([g])
    D = nx.DiGraph()
    D.add_nodes_from(range(1, n + 1))
    D.add_edges_from(g.arcs())
    assert c.strongly_connected == nx.is_strongly_connected(D)
    assert verify_connectivity([g], c)
    if c.strongly_connected:
        assert c.diameter == nx.diameter(D)


def test_large_patterns_fast():
    t = time.perf_counter()
    n = 65536
    bb = build_graph(BIGBIRD, n)
    c = analyze_connectivity([bb])
    assert c.strongly_connected and c.diameter == 2
    lf = build_graph(Window(3), n)
    c = analyze_connectivity([lf])
    assert c.diameter == 21845 == math.ceil((n - 1) / 3)
    j, i = c.lower_pair
    assert math.ceil(abs(i - j) / 3) == 21845  # d(j -> i) in a window of radius 3
    assert time.perf_counter() - t < 20  # about 3 s on the reference machine


# The probe loop keeps its bounds in lists up to LIST_BOUNDS_MAX_N positions and in numpy arrays
# beyond: both give the same result, probe for probe.
SAME_BOUNDS = [*[(p, n) for p, n, _, _ in PINNED if n > 1],
               (Offsets((1, 5, -7), cyclic=True), 401), (Window(2, cyclic=True), 300),
               (PatternUnion((Window(1), Strided(8))), 64), (PatternUnion((Dilated(3, 2), Window(1))), 90),
               (PatternUnion((Blocks(8), Global(2))), 96), (BIGBIRD, 512)]


@pytest.mark.parametrize("pattern,n", SAME_BOUNDS, ids=lambda x: repr(x)[:40])
def test_list_and_array_bounds_agree(pattern, n, monkeypatch):
    import uapcheck.graphs.connectivity as connectivity
    g = build_graph(pattern, n)
    as_lists = analyze_connectivity([g])
    monkeypatch.setattr(connectivity, "LIST_BOUNDS_MAX_N", 0)
    as_arrays = analyze_connectivity([g])
    assert as_lists == as_arrays
    monkeypatch.setattr(connectivity, "EXHAUSTIVE_MAX_WORK", 0)  # the probe loop to its end
    as_arrays = analyze_connectivity([g])
    monkeypatch.setattr(connectivity, "LIST_BOUNDS_MAX_N", 10 ** 9)
    assert analyze_connectivity([g]) == as_arrays


def test_array_probes_are_checked_distance_by_distance(monkeypatch):
    """Above LIST_BOUNDS_MAX_N the probes search the arc arrays and keep numpy distances: the kernel's
    re-check accepts them, and rejects a probe whose distances were altered by one."""
    import numpy as np

    import uapcheck.graphs.connectivity as connectivity
    from dataclasses import replace
    pattern = PatternUnion((Window(1), RandomPattern(2, seed=1)))
    g = build_graph(pattern, 300)
    monkeypatch.setattr(connectivity, "EXHAUSTIVE_MAX_WORK", 0)  # the probe loop, not every eccentricity
    as_lists = analyze_connectivity([g])
    monkeypatch.setattr(connectivity, "LIST_BOUNDS_MAX_N", 0)
    as_arrays = analyze_connectivity([g])
    probes = as_arrays.upper_bound.probes
    assert probes and all(isinstance(p.dist_out, np.ndarray) for p in probes)
    assert as_arrays == as_lists and verify_connectivity([g], as_arrays)
    assert [p.ecc_out for p in probes] == [max(p.dist_out.tolist()) for p in probes]
    for threshold in (10 ** 12, 0):  # the plain re-check and the numpy one
        monkeypatch.setattr(connectivity, "NUMPY_CHECK_ARCS", threshold)
        bad_dist = probes[0].dist_in.copy()
        bad_dist[int(np.argmax(bad_dist))] += 1
        bad = replace(as_arrays.upper_bound, probes=(replace(probes[0], dist_in=bad_dist), *probes[1:]))
        assert verify_connectivity([g], as_arrays)
        assert not verify_connectivity([g], replace(as_arrays, upper_bound=bad))


@pytest.mark.parametrize("pattern,n", [(Window(3), 200), (BIGBIRD, 512), (PatternUnion((Window(1), Strided(8))), 64),
                                       (Offsets((1, 5, -7), cyclic=True), 401)], ids=lambda x: repr(x)[:40])
def test_deep_searches_on_arrays_go_to_igraph_with_the_same_result(pattern, n, monkeypatch):
    """A numpy search stops after MAX_LEVELS levels and igraph searches instead (a path-like pattern
    has thousands of levels): the same probes and bounds either way."""
    import uapcheck.graphs.connectivity as connectivity
    g = build_graph(pattern, n)
    monkeypatch.setattr(connectivity, "EXHAUSTIVE_MAX_WORK", 0)
    as_lists = analyze_connectivity([g])
    monkeypatch.setattr(connectivity, "LIST_BOUNDS_MAX_N", 0)
    for levels in (1, 3, 10 ** 6):
        monkeypatch.setattr(connectivity._ArraySearch, "MAX_LEVELS", levels)
        as_arrays = analyze_connectivity([g])
        assert as_arrays == as_lists and verify_connectivity([g], as_arrays)


def test_not_strongly_connected_on_arrays_gives_the_canonical_witness(monkeypatch):
    import uapcheck.graphs.connectivity as connectivity
    for pattern, n in ((Causal(), 300), (Offsets((1, 2)), 200), (Blocks(50), 200)):
        g = build_graph(pattern, n)
        plain = analyze_connectivity([g])
        monkeypatch.setattr(connectivity, "LIST_BOUNDS_MAX_N", 0)
        assert not plain.strongly_connected and analyze_connectivity([g]) == plain
        monkeypatch.undo()


def _eccentricities_by_search(outs):
    """One plain BFS per vertex: each vertex's out-eccentricity, None when some vertex reaches not every other."""
    from uapcheck.graphs.connectivity import _plain_bfs
    out = []
    for v in range(len(outs)):
        dist = _plain_bfs(outs, v)
        if min(dist) < 0:
            return None
        out.append(max(dist))
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.sets(
    st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n * n))))
def test_the_bit_parallel_eccentricities_are_those_of_one_search_per_vertex(graph):
    from uapcheck.graphs.connectivity import _eccentricities
    n, arcs = graph
    outs: list = [[] for _ in range(n)]
    ins: list = [[] for _ in range(n)]
    for j, i in sorted(arcs):
        outs[j].append(i)
        ins[i].append(j)
    assert _eccentricities(ins) == _eccentricities_by_search(outs)


@pytest.mark.parametrize("pattern, n", [(Window(3), 40), (Window(1), 17), (Offsets((1,), cyclic=True), 9),
                                        (PatternUnion((Strided(4), Window(1))), 30), (Star(), 12)])
def test_an_exhaustive_diameter_is_re_checked_and_a_wrong_eccentricity_is_rejected(pattern, n):
    import dataclasses
    from uapcheck.graphs import connectivity
    from uapcheck.graphs.connectivity import verify_upper_bound
    from uapcheck.graphs.build import to_igraph
    g = build_graph(pattern, n)
    ub = connectivity._exhaustive(g, to_igraph(g), []).upper_bound  # every eccentricity, by igraph
    assert ub.method == "exhaustive" and verify_upper_bound([g], ub)
    ecc = list(ub.eccentricities)
    outs: list = [[] for _ in range(n)]
    for i, j in sorted(attends(pattern, n)):  # query i attends key j: x_j reaches position i
        outs[j - 1].append(i - 1)
    assert ecc == _eccentricities_by_search(outs)
    for k in (0, n // 2, n - 1):
        for wrong in (ecc[k] - 1, ecc[k] + 1):
            if 0 <= wrong <= ub.bound:
                bad = dataclasses.replace(ub, eccentricities=tuple(ecc[:k] + [wrong] + ecc[k + 1:]))
                assert not verify_upper_bound([g], bad)
