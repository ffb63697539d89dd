"""BLISS (through python-igraph) on undirected graphs only: counts, generators and canonical labellings of a
directed, vertex-coloured graph are taken on an undirected encoding of it.

python-igraph 1.0's BLISS is unreliable on directed graphs: it undercounts some under the "maximally connected"
splitting heuristics (uapcheck/bignum.py, BLISS_SPLITTING), and it ends the process with a segmentation fault on
others under every heuristic — counting, listing generators or labelling canonically the coloured quotient of
`strided(6) + blocks(2)` | `global(1)` at n = 19 (55 vertices, 124 arcs; 576 automorphisms by VF2 and by the
encoding below). Its undirected search is the one BLISS is built and tested for.

The encoding of a digraph on n vertices with colours c: every vertex v becomes three, out(v) = v, in(v) = n + v
and mid(v) = 2n + v, coloured 3c(v), 3c(v) + 1 and 3c(v) + 2, with the edges out(v)–mid(v) and mid(v)–in(v); an arc
u → v becomes the edge out(u)–in(v). An automorphism of the encoding keeps the colours, so it maps outs to outs, ins
to ins and mids to mids; mid(v) is the only mid beside out(v) and beside in(v), so it permutes the triples as one
permutation π of the vertices, and the edge out(u)–in(v) goes to out(πu)–in(πv): π keeps the arcs and the colours.
Conversely every automorphism π of the digraph gives one of the encoding, and only one (the triples are π's). So
the two groups are isomorphic by restriction to the outs: the same order, generators restricted to the first n
entries, and a canonical labelling restricted to the outs (in the order it places them) labels the digraph
canonically: two coloured digraphs are isomorphic iff their encodings are, and the canonical encodings put the
outs on the same labels.
The colours 3c, 3c + 1, 3c + 2 depend on c alone, so two graphs with the same colours get encodings that compare.
"""
from __future__ import annotations

from typing import Optional, Sequence

#: BLISS's splitting heuristic for every call (see uapcheck/bignum.py for why not an "m" one)
SPLITTING = "fl"


def _encoded(graph, color: Optional[Sequence[int]]):
    """The graph itself when it is undirected, else its undirected encoding (module docstring), with colours."""
    if not graph.is_directed():
        return graph, (list(color) if color is not None else None)
    from .lazy import igraph  # without numpy or matplotlib (uapcheck/lazy.py)

    n = graph.vcount()
    base = list(color) if color is not None else [0] * n
    edges = [(v, 2 * n + v) for v in range(n)]
    edges += [(n + v, 2 * n + v) for v in range(n)]
    edges += [(u, n + v) for u, v in graph.get_edgelist()]
    colours = [3 * c for c in base] + [3 * c + 1 for c in base] + [3 * c + 2 for c in base]
    encoded = igraph.Graph.__new__(igraph.Graph)
    igraph.GraphBase.__init__(encoded, 3 * n, edges, False)  # lazy.digraph's constructor, undirected
    return encoded, colours


def count(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING) -> int:
    """|Aut| of the coloured graph, exactly (BLISS's decimal string, converted without Python's digit limit)."""
    import sys

    encoded, colours = _encoded(graph, color)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return int(encoded.count_automorphisms(sh=splitting, color=colours))
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


def canonical_permutation(graph, color: Optional[Sequence[int]] = None, splitting: str = SPLITTING) -> list[int]:
    """A canonical labelling as igraph's ``canonical_permutation`` gives it: entry k is the vertex placed at
    canonical position k (for the encoding, the outs in the order the encoding's labelling places them)."""
    encoded, colours = _encoded(graph, color)
    order = encoded.canonical_permutation(sh=splitting, color=colours)
    if encoded is graph:
        return list(order)
    n = graph.vcount()
    return [v for v in order if v < n]
