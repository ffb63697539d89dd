"""BLISS (through python-igraph) on undirected graphs only: counts, generators and canonical labellings of a
directed, vertex-coloured graph are taken on an undirected encoding of it.

python-igraph 1.0's BLISS is unreliable on directed graphs: it undercounts some under the "maximally connected"
splitting heuristics (uapcheck/bignum.py, BLISS_SPLITTING), and it ends the process with a segmentation fault on
others under every heuristic — counting, listing generators or labelling canonically the coloured quotient of
`strided(6) + blocks(2)` | `global(1)` at n = 19 (55 vertices, 124 arcs; 576 automorphisms by VF2 and by the
encoding below). Its undirected search is the one BLISS is built and tested for.

The encoding of a digraph on n vertices with colours c. A *path vertex* is one with exactly one arc in and one arc out,
no loop, and neither neighbour a vertex of that degree (u → p → w with u, w of other degrees); every other vertex is
a *triple vertex*. A triple vertex v becomes three, out(v) = v, in(v) and mid(v), coloured 4c(v), 4c(v) + 1 and
4c(v) + 2, with the edges out(v)–mid(v) and mid(v)–in(v); a path vertex p stays one vertex, p, coloured 4c(p) + 3.
An arc u → v becomes an edge from u's tail end to v's head end: the tail end of a triple vertex is its out, its head
end its in, and both ends of a path vertex are the vertex itself (no arc joins two path vertices).
An automorphism φ of the encoding keeps the colours, so it maps outs to outs, ins to ins, mids to mids and path
vertices to path vertices; mid(v) is the only mid beside out(v) and beside in(v), so φ permutes the triples, and with
the path vertices this is one permutation π of the vertices, keeping c. An edge joins an out to an in only for an arc
between triple vertices, an out to a path vertex only for an arc into it, and a path vertex to an in only for an arc
out of it; φ keeps these kinds of edge, so π maps each arc u → v to the arc πu → πv. Conversely an automorphism π of
the digraph keeps in- and out-degrees and loops, so it maps path vertices to path vertices, and gives one automorphism
of the encoding, and only one. So the two groups are isomorphic by restriction to the first n vertices (each vertex's
out, or the path vertex itself): the same order, generators restricted to the first n entries, and a canonical
labelling restricted to them (in the order it places them) labels the digraph canonically: two coloured digraphs
are isomorphic iff their encodings are. The colours depend on c and on a vertex's kind alone, and the kind on the
digraph's isomorphism class, so the encodings of two graphs compare.
Path vertices are what an arc-labelled graph subdivides its arcs with (a vertex per labelled arc): they stay single,
so such a graph's encoding has about as many vertices as the graph, not three times as many.
"""
from __future__ import annotations

import sys
from itertools import compress
from typing import Optional, Sequence

from .lazy import igraph  # a stand-in: igraph (without numpy or matplotlib) is imported on first use

#: BLISS's splitting heuristic for every call (see uapcheck/bignum.py for why not an "m" one)
SPLITTING = "fl"


def _encoded(graph, color: Optional[Sequence[int]]):
    """The graph itself when it is undirected, else its undirected encoding (module docstring), with colours.
    The arcs are read once, the degrees taken by igraph, the edges and colours made by comprehensions: the same
    vertices, edges in the same order and colours as the loop it replaced (kept in
    tests/graphs/test_bliss_encoding_identity.py)."""
    if not graph.is_directed():
        return graph, (list(color) if color is not None else None)
    n = graph.vcount()
    if graph.ecount() >= ARRAY_ARCS and "numpy" in sys.modules:
        return _encoded_on_arrays(graph, color)
    arcs = graph.get_edgelist()
    key = (n, arcs, list(color) if color is not None else None)
    global _last
    if _last is not None and _last[0] == key:
        return _last[1]
    colours = [4 * c for c in color] if color is not None else [0] * n
    path = _path_vertices(graph, n, arcs)
    if path:
        triple: Sequence[int] = [v for v in range(n) if v not in path]
        for v in path:
            colours[v] += 3
        in_end = list(range(n))   # the head end of each vertex: its in, or the path vertex itself
        for v, mid in zip(triple, range(n, 3 * n, 2)):
            in_end[v] = mid + 1
    else:
        triple = range(n)
        in_end = list(range(n + 1, 3 * n, 2))
    # triple k (in increasing order of its vertex v) gets mid(v) = n + 2k and in(v) = n + 2k + 1
    edges = [e for v, mid in zip(triple, range(n, 3 * n, 2)) for e in ((v, mid), (mid, mid + 1))]
    colours += [x for c in (colours[v] for v in triple) for x in (c + 2, c + 1)] if path else \
        [x for c in colours for x in (c + 2, c + 1)]
    edges += [(u, in_end[v]) for u, v in arcs]   # the tail end of u is u itself: its out, or the path vertex
    encoded = igraph.Graph.__new__(igraph.Graph)
    igraph.GraphBase.__init__(encoded, len(colours), edges, False)  # lazy.digraph's constructor, undirected
    _last = (key, (encoded, colours)) if len(arcs) < CACHE_ARCS else None
    return encoded, colours


#: The last directed graph encoded (fewer than CACHE_ARCS arcs): its vertex count, arcs in order and colours, and its
#: encoding. A rooted view is counted (two splitting heuristics) and then labelled canonically: the labelling finds
#: the encoding here. The key is the graph's content, compared in full (the encoding is a function of it alone), never
#: its identity: a graph changed in between, or another graph alike, gets the encoding of what it holds.
_last: Optional[tuple] = None
CACHE_ARCS = 50_000


def _path_vertices(graph, n: int, arcs) -> set[int]:
    """The path vertices (module docstring): one arc in, one out, no loop, and neither neighbour so."""
    one_one = [i == 1 == o for i, o in zip(graph.indegree(), graph.outdegree())]
    if True not in one_one:
        return set()
    head_of = dict(arcs)                    # the one out-neighbour, at a vertex of out-degree 1
    tail_of = {v: u for u, v in arcs}       # the one in-neighbour, at a vertex of in-degree 1
    # a vertex whose one arc is a loop is its own neighbour, one_one: not a path vertex, and nobody else's neighbour
    return {v for v in compress(range(n), one_one) if not one_one[tail_of[v]] and not one_one[head_of[v]]}


#: From this many arcs on (numpy already imported), the encoding is made on arrays (`_encoded_on_arrays`): the same
#: vertices, edges in the same order and colours as the loop of `_encoded`.
ARRAY_ARCS = 50_000


def _encoded_on_arrays(graph, color: Optional[Sequence[int]]):
    """`_encoded` of a directed graph on numpy arrays: the same encoded graph (vertex numbers, edge order) and colours."""
    from itertools import chain

    import numpy as np

    from .lazy import igraph
    n, m = graph.vcount(), graph.ecount()
    made = getattr(graph, "arc_arrays", None)  # the arrays a graph made from arrays was made from (its arcs in order)
    if made is not None:
        u, v = made
    else:
        arcs = np.fromiter(chain.from_iterable(graph.get_edgelist()), dtype=np.int64, count=2 * m).reshape(m, 2)
        u, v = arcs[:, 0], arcs[:, 1]
    base = np.asarray(color, dtype=np.int64) if color is not None else np.zeros(n, dtype=np.int64)
    looped = np.zeros(n, dtype=bool)
    looped[u[u == v]] = True
    one_one = (np.bincount(u, minlength=n) == 1) & (np.bincount(v, minlength=n) == 1) & ~looped
    tail_of, head_of = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    # read only at one_one vertices, whose one arc in and one arc out write them once
    head_of[u], tail_of[v] = v, u
    path = one_one & ~one_one[tail_of] & ~one_one[head_of]
    triple = np.flatnonzero(~path)   # in order: each gets mid = n + 2k and in = n + 2k + 1
    k = len(triple)
    mids = n + 2 * np.arange(k, dtype=np.int64)
    in_end = np.arange(n, dtype=np.int64)
    in_end[triple] = mids + 1
    inner = np.empty((2 * k, 2), dtype=np.int64)
    inner[0::2, 0], inner[0::2, 1] = triple, mids
    inner[1::2, 0], inner[1::2, 1] = mids, mids + 1
    extra = np.empty(2 * k, dtype=np.int64)
    extra[0::2], extra[1::2] = 4 * base[triple] + 2, 4 * base[triple] + 1
    colours = np.concatenate((np.where(path, 4 * base + 3, 4 * base), extra))
    edges = np.concatenate((inner, np.stack((u, in_end[v]), axis=1)))
    encoded = igraph.Graph.__new__(igraph.Graph)
    igraph.GraphBase.__init__(encoded, n + 2 * k, zip(edges[:, 0].tolist(), edges[:, 1].tolist()), False)
    return encoded, colours.tolist()


def count(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING) -> int:
    """|Aut| of the coloured graph, exactly (BLISS's decimal string, converted without Python's digit limit)."""
    return counts(graph, color, (splitting,))[0]


def counts(graph, color: Optional[Sequence[int]], splittings: Sequence[str]) -> list[int]:
    """`count` under each splitting heuristic in turn, on one encoding of the graph (made once, not once a count)."""
    encoded, colours = _encoded(graph, color)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return [int(encoded.count_automorphisms(sh=splitting, color=colours)) for splitting in splittings]
    finally:
        sys.set_int_max_str_digits(limit)


def generators(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING) -> list[list[int]]:
    """Generators of the coloured graph's automorphism group, each a list p with p[v] the image of v."""
    encoded, colours = _encoded(graph, color)
    n = graph.vcount()
    out = []
    for gen in encoded.automorphism_group(sh=splitting, color=colours):
        perm = list(gen[:n])
        if perm != list(range(n)):
            out.append(perm)
    return out


def each_generator(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING):
    """The generators of `generators`, one at a time (each a list of the graph's n images, the identity skipped).
    python-igraph returns the whole list at once; it is consumed as it is read (each generator dropped once given), so
    beside that list at most one generator's copy is held."""
    encoded, colours = _encoded(graph, color)
    n = graph.vcount()
    raw = encoded.automorphism_group(sh=splitting, color=colours)
    del encoded, colours
    raw.reverse()
    while raw:
        gen = raw.pop()
        perm = gen[:n]
        del gen
        if perm != list(range(n)):
            yield perm


def canonical_permutation(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING) -> list[int]:
    """A canonical labelling as igraph's ``canonical_permutation`` gives it: entry k is the vertex placed at
    canonical position k (for the encoding, the outs in the order the encoding's labelling places them)."""
    encoded, colours = _encoded(graph, color)
    order = encoded.canonical_permutation(sh=splitting, color=colours)
    if encoded is graph:
        return list(order)
    n = graph.vcount()
    return [v for v in order if v < n]
