"""`bliss._encoded` (the undirected encoding of a directed, vertex-coloured graph that BLISS is asked about) against
the Python loop it replaced, kept here: the same number of vertices, the same edges in the same order and the same
colours, so BLISS gets the same input and canonical labellings and certificates stay as they were. The draws give
loops, path vertices (one arc in, one out, neither neighbour so), chains of such vertices, isolated vertices,
parallel arcs and colours; the undirected pass-through is checked too."""
from __future__ import annotations

import random

import igraph
import pytest

from uapcheck import bliss
from uapcheck.lazy import digraph


def _reference_encoded(graph, color):
    """The loop `bliss._encoded` was, for a directed graph."""
    n = graph.vcount()
    base = list(color) if color is not None else [0] * n
    arcs = graph.get_edgelist()
    indegree, outdegree = [0] * n, [0] * n
    looped = [False] * n
    tail_of, head_of = [0] * n, [0] * n
    for u, v in arcs:
        outdegree[u] += 1
        indegree[v] += 1
        head_of[u] = v
        tail_of[v] = u
        if u == v:
            looped[u] = True
    one_one = [indegree[v] == 1 and outdegree[v] == 1 and not looped[v] for v in range(n)]
    path = [one_one[v] and not one_one[tail_of[v]] and not one_one[head_of[v]] for v in range(n)]
    colours = [4 * c + 3 if p else 4 * c for c, p in zip(base, path)]
    in_end = list(range(n))
    edges = []
    for v in range(n):
        if not path[v]:
            mid, in_ = len(colours), len(colours) + 1
            colours += [4 * base[v] + 2, 4 * base[v] + 1]
            edges += [(v, mid), (mid, in_)]
            in_end[v] = in_
    edges += [(u, in_end[v]) for u, v in arcs]
    return len(colours), edges, colours


def _random_arcs(rng: random.Random, n: int) -> list[tuple[int, int]]:
    kind = rng.randrange(4)
    if kind == 0:    # sparse: many vertices of one arc in and one out, some isolated
        return [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, n))]
    if kind == 1:    # a subdivided graph: each arc through a vertex of its own (an arc-labelled graph's form)
        core = max(1, n // 3)
        arcs = []
        for k in range(core, n):
            u, v = rng.randrange(core), rng.randrange(core)
            arcs += [(u, k), (k, v)]
        return arcs
    if kind == 2:    # directed cycles and paths, with loops here and there
        arcs = [(k, (k + 1) % n) for k in range(n) if rng.random() < 0.8]
        return arcs + [(k, k) for k in range(n) if rng.random() < 0.1]
    return [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3 * n))]


@pytest.mark.parametrize("seed", range(4))
def test_the_encoding_is_the_reference_loops(seed):
    rng = random.Random(2800 + seed)
    paths = loops = isolated = 0
    for case in range(250):
        n = rng.randint(0, 30)
        arcs = _random_arcs(rng, n) if n else []
        rng.shuffle(arcs)   # the encoding keeps the arcs' order
        colours = [rng.randrange(4) for _ in range(n)] if case % 3 else None
        graph = digraph(n, arcs)
        encoded, encoded_colours = bliss._encoded(graph, colours)
        count, edges, want_colours = _reference_encoded(graph, colours)
        assert not encoded.is_directed()
        assert encoded.vcount() == count == len(encoded_colours)
        assert encoded.ecount() == len(edges)
        # igraph stores an undirected edge with its ends ordered; the edges in order, as given, then so stored
        assert encoded.get_edgelist() == igraph.Graph(n=count, edges=edges).get_edgelist()
        assert [tuple(sorted(e)) for e in encoded.get_edgelist()] == [tuple(sorted(e)) for e in edges]
        assert encoded_colours == want_colours
        paths += sum(1 for c in want_colours[:n] if c % 4 == 3)
        loops += sum(1 for u, v in arcs if u == v)
        isolated += sum(1 for d in graph.degree() if d == 0)
    assert paths > 100 and loops > 20 and isolated > 20   # the draws met each kind


def test_an_undirected_graph_and_its_colours_pass_through():
    graph = igraph.Graph(n=3, edges=[(0, 1), (1, 2)])
    colours = (2, 0, 2)
    encoded, encoded_colours = bliss._encoded(graph, colours)
    assert encoded is graph and encoded_colours == [2, 0, 2]
    assert bliss._encoded(graph, None) == (graph, None)


def test_the_last_encoding_is_kept_for_the_same_content_only():
    graph = digraph(4, [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)])
    first = bliss._encoded(graph, [0, 1, 0, 1])
    assert bliss._encoded(graph, (0, 1, 0, 1))[0] is first[0]   # counted, then labelled: encoded once
    alike = digraph(4, graph.get_edgelist())
    assert bliss._encoded(alike, [0, 1, 0, 1])[0] is first[0]   # the content, not the object, is the key
    recoloured = bliss._encoded(graph, [0, 1, 1, 0])
    assert recoloured[0] is not first[0] and recoloured[1] == _reference_encoded(graph, [0, 1, 1, 0])[2]
    graph.add_edges([(1, 3)])   # the same object, changed: encoded afresh
    count, edges, colours = _reference_encoded(graph, [0, 1, 1, 0])
    encoded, encoded_colours = bliss._encoded(graph, [0, 1, 1, 0])
    assert encoded.get_edgelist() == igraph.Graph(n=count, edges=edges).get_edgelist() and encoded_colours == colours
    assert bliss.count(graph, [0, 1, 1, 0]) == bliss.count(digraph(4, graph.get_edgelist()), [0, 1, 1, 0])
    # the order of the arcs is part of the key: the encoding's edges follow it
    reordered = digraph(4, graph.get_edgelist()[::-1])
    count, edges, _ = _reference_encoded(reordered, [0, 1, 1, 0])
    again = bliss._encoded(reordered, [0, 1, 1, 0])[0].get_edgelist()
    assert again == igraph.Graph(n=count, edges=edges).get_edgelist() != encoded.get_edgelist()


def test_a_graph_of_many_arcs_is_not_kept(monkeypatch):
    monkeypatch.setattr(bliss, "CACHE_ARCS", 3)
    graph = digraph(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
    assert bliss._encoded(graph, None)[0] is not bliss._encoded(graph, None)[0]
