"""A labelled, coloured digraph on positions 1..n as an undirected coloured graph for nauty (pynauty).

nauty works on undirected vertex-coloured graphs. The digraph's arcs carry labels (the set of heads
containing the arc, a bias class, a layer and head); each label gets a number c ≥ 1 and the bits of c
give "bit layers": position v has a hub vertex v* (coloured by v's position colour) and, for each bit k,
two copies v_{2k} (tails) and v_{2k+1} (heads), each adjacent to v* and to nothing else of v's. An arc
u → v whose label number has bit k set becomes the edge u_{2k} — v_{2k+1}.

Exactness: an automorphism φ of the coloured graph fixes the colour classes, so it maps hubs to hubs
(φ(v*) = π(v)* for a permutation π of the positions) and copies of layer j to copies of layer j; v_j's
only hub neighbour is v*, so φ(v_j) = π(v)_j. Then φ keeps the edges of every bit layer iff π keeps,
for every ordered pair (u, v), every bit of its label number, that is its label (0: no arc), and the
position colours. Conversely every such π extends to exactly one φ. So Aut(graph) ≅ Aut(labelled
digraph), with the same order, and the restriction to the hubs is a group isomorphism.

The graph has n·(2b + 1) vertices (b bits for the labels), where the subdivision of every arc would have
n + 2·|arcs|: a dense causal head at n = 640 has 1,920 vertices instead of about 412,000, which nauty's
dense representation (|V|²/8 bytes) could not even allocate.
"""
from __future__ import annotations

from typing import Hashable, Mapping, Sequence

#: Above this many vertices nauty is not called (its dense graph takes |V|²/8 bytes, its refinement
#: on path-like graphs grows faster than |V|²): the caller reports its step undecided instead.
MAX_VERTICES = 12_000


class TooLarge(Exception):
    pass


def vertex_count(n: int, labels: int) -> int:
    return n * (2 * max(labels, 1).bit_length() + 1)


def build(n: int, arcs: Mapping[tuple[int, int], Hashable], position_cells: Sequence[set]):
    """(pynauty.Graph, signature): `arcs` maps (u, v) to its label; `position_cells` partitions 1..n
    into the position colours, in a fixed order. Equal signatures mean the colour cells and labels
    correspond, so nauty's canonical certificates of two such graphs are comparable."""
    import pynauty
    keys = sorted(set(arcs.values()), key=repr)
    number = {key: c + 1 for c, key in enumerate(keys)}
    bits = max(len(keys), 1).bit_length()
    total = n * (2 * bits + 1)
    if total > MAX_VERTICES:
        raise TooLarge(f"{total} vertices exceed the verifier's nauty limit {MAX_VERTICES}")

    def copy(v: int, layer: int) -> int:
        return n + layer * n + v - 1

    adjacency: dict[int, list[int]] = {x: [] for x in range(total)}
    for v in range(1, n + 1):
        adjacency[v - 1].extend(copy(v, layer) for layer in range(2 * bits))
    # (the tail copy's offset, the head copy's offset) of each bit layer set in a label's number: u_{2k} — v_{2k+1}
    layers = {key: [(copy(0, 2 * k), copy(0, 2 * k + 1)) for k in range(bits) if c >> k & 1]
              for key, c in number.items()}
    for (u, v), key in arcs.items():
        for tail, head in layers[key]:
            adjacency[tail + u].append(head + v)
    cells = [{v - 1 for v in cell} for cell in position_cells if cell]
    cells += [{copy(v, layer) for v in range(1, n + 1)} for layer in range(2 * bits)]
    signature = (tuple(len(cell) for cell in position_cells), tuple(repr(key) for key in keys))
    return pynauty.Graph(total, directed=False, adjacency_dict=adjacency, vertex_coloring=cells), signature


def position_generators(auts: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    """nauty's generators restricted to the hubs: image lists on 1..n."""
    return [[p[v] + 1 for v in range(n)] for p in auts]
