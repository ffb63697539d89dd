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
"""
from __future__ import annotations

from typing import Mapping, Sequence


def generators(k: int, arcs: Mapping[int, Sequence[int]], cells: Sequence[set] | None = None) -> list[list[int]]:
    """Generators of the automorphism group of the digraph on 0..k − 1 with out-lists `arcs` and the colour cells
    `cells` (a partition of 0..k − 1; one cell when None), each a 0-based image list of length k."""
    import pynauty
    colours = [set(c) for c in cells if c] if cells is not None else [set(range(k))]
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
