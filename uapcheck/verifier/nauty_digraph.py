"""nauty (pynauty) on a vertex-coloured digraph through an undirected encoding, never with `directed=True`.

nauty's refinement of a digraph (digraph=TRUE without a vertex invariant) does not tell a vertex's in-neighbours from
its out-neighbours well enough: on a directed path every vertex stays equitable to the others and the search
individualises them one by one, so the time grows like k³ — 6 s at k = 1,000 and 45 s at k = 2,000 for the path
0 → 1 → … → k − 1, and past any budget on the arc paths of a quotient. Its undirected refinement is the one it is
built for.

The encoding (the verifier's own, with its proof; uapcheck/bliss.py gives BLISS the same triples, except that it keeps
the vertices that subdivide labelled arcs single): every vertex v of
the digraph on k vertices becomes three, out(v) = v, in(v) = k + v and mid(v) = 2k + v, in the cells of v's colour
for outs, ins and mids (three cells per colour, in that order); the edges are out(v)–mid(v) and mid(v)–in(v), and an
arc u → v (a loop u → u too) becomes the edge out(u)–in(v). An automorphism of the coloured encoding keeps the cells,
so it maps outs to outs, ins to ins and mids to mids; mid(v) is the only mid beside out(v) and beside in(v), so it
permutes the triples by one permutation π of the vertices, and out(u)–in(v) goes to out(πu)–in(πv): π keeps the arcs
and the colours. Conversely every automorphism π of the coloured digraph gives exactly one of the encoding. So the
two groups are isomorphic by restriction to the outs: generators restricted to their first k entries generate the
digraph's group, of the same order.

A symmetric digraph (every arc u → v with its reverse v → u, as a pattern's union at symbolic n often is) is given
to nauty as the plain graph on its k vertices instead: the edge u–v for each pair of reverse arcs u ≠ v, and each
colour cell split by whether the vertex has a loop. The arc set is determined by those edges and loops (each edge
is the two arcs, each loop one), so a permutation keeps the arcs and the colours iff it keeps the edges and the
split cells: the two groups are equal, on k vertices instead of 3k (about a tenth of the time on
`window(20) + strided(22)` at n = 1,826).
"""
from __future__ import annotations

from typing import Mapping, Sequence


def generators(k: int, arcs: Mapping[int, Sequence[int]], cells: Sequence[set] | None = None) -> list[list[int]]:
    """Generators of the automorphism group of the digraph on 0..k − 1 with out-lists `arcs` and the colour cells
    `cells` (a partition of 0..k − 1; one cell when None), each a 0-based image list of length k."""
    import pynauty
    colours = [set(c) for c in cells if c] if cells is not None else [set(range(k))]
    plain = _symmetric(k, arcs)
    if plain is not None:
        edges, loops = plain
        rest = set(range(k)).difference(*colours)  # (vertices in no listed cell: one cell, as pynauty reads them)
        coloring = [part for cell in (*colours, rest) for part in (cell & loops, cell - loops) if part]
        graph = pynauty.Graph(k, directed=False, adjacency_dict=edges, vertex_coloring=coloring)
        return [list(g) for g in pynauty.autgrp(graph)[0] if list(g) != list(range(k))]
    adjacency: dict[int, list[int]] = {x: [] for x in range(3 * k)}
    for v in range(k):
        adjacency[v].append(2 * k + v)
        adjacency[k + v].append(2 * k + v)
    for u, heads in arcs.items():
        adjacency[u].extend(k + v for v in heads)
    coloring = [c for cell in colours for c in (set(cell), {k + v for v in cell}, {2 * k + v for v in cell})]
    graph = pynauty.Graph(3 * k, directed=False, adjacency_dict=adjacency, vertex_coloring=coloring)
    out = []
    for gen in pynauty.autgrp(graph)[0]:
        perm = list(gen[:k])
        if perm != list(range(k)):
            out.append(perm)
    return out


def _symmetric(k: int, arcs: Mapping[int, Sequence[int]]):
    """(each vertex's list of greater neighbours, the vertices with a loop) when every arc's reverse is an arc too,
    else None."""
    outs = {u: set(heads) for u, heads in arcs.items() if heads}
    loops = {u for u, heads in outs.items() if u in heads}
    adjacency: dict[int, list[int]] = {}
    for u, heads in outs.items():
        for v in heads:
            if v != u and u not in outs.get(v, ()):
                return None
        adjacency[u] = sorted(v for v in heads if v > u)
    return adjacency, loops
