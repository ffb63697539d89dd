"""Whether D layers suffice, decided by the verifier with nauty (pynauty), not the engines' BLISS:
the rooted views of docs/theory.md §11.9.

R_i is the digraph on the n positions with the arcs u → v of the union graph for v in the ball
B_i = {v : d(v → i) ≤ D − 1}, each arc labelled by the set of heads containing it (a subdivision
vertex coloured by that set when there are several heads), and position v coloured by
min(d(v → i), D). A view witness exists iff for some representative i of the G-orbits
|Aut(R_i)| > |G| / |G·i|, or R_i ≅ R_j for two representatives i ≠ j (§11.9, Theorem). nauty gives
the generators of Aut(R_i) (their order is re-derived by Schreier–Sims on the positions) and a
canonical form of R_i; equal canonical forms are isomorphic views (a witness), different ones are not.
"""
from __future__ import annotations

from typing import Optional, Sequence

from . import groups, patterns

MAX_N = 512


class NoNauty(Exception):
    pass


def orbits(gens: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    parent = list(range(n + 1))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for g in gens:
        for k in range(1, n + 1):
            a, b = find(k), find(g[k - 1])
            if a != b:
                parent[a] = b
    out: dict = {}
    for k in range(1, n + 1):
        out.setdefault(find(k), []).append(k)
    return sorted(out.values())


def _rooted_view(heads: Sequence[frozenset], n: int, dist_to_i: list, d: int):
    import pynauty
    ball = {v for v in range(1, n + 1) if dist_to_i[v] is not None and dist_to_i[v] <= d - 1}
    labels: dict = {}
    for h, arcs in enumerate(heads):
        for u, v in arcs:
            if v in ball:
                labels.setdefault((u, v), []).append(h)
    kinds = sorted({tuple(x) for x in labels.values()})
    # An undirected graph (pynauty's directed mode can stall on rooted views): the arc u -> v becomes the
    # path u - a - b - v, a coloured (tail, its head set), b coloured (head, its head set); its
    # automorphisms restrict to those of the labelled coloured digraph on the positions, and every
    # automorphism of that digraph extends.
    total = n + 2 * len(labels)
    adjacency: dict = {x: [] for x in range(total)}
    colour_cells: list = [set() for _ in range(d + 1)]
    for v in range(1, n + 1):
        c = dist_to_i[v] if dist_to_i[v] is not None and dist_to_i[v] < d else d
        colour_cells[c].add(v - 1)
    tail_cells: list = [set() for _ in kinds]
    head_cells: list = [set() for _ in kinds]
    for k, ((u, v), hs) in enumerate(sorted(labels.items())):
        a, b = n + 2 * k, n + 2 * k + 1
        adjacency[u - 1].append(a)
        adjacency[a].append(b)
        adjacency[b].append(v - 1)
        tail_cells[kinds.index(tuple(hs))].add(a)
        head_cells[kinds.index(tuple(hs))].add(b)
    cells = colour_cells + tail_cells + head_cells
    signature = (tuple(len(c) for c in cells), tuple(kinds))
    g = pynauty.Graph(total, directed=False, adjacency_dict=adjacency, vertex_coloring=[c for c in cells if c])
    return g, signature


def decide(heads: Sequence[frozenset], n: int, d: int, gens: Sequence[Sequence[int]]) -> Optional[str]:
    """None when no view witness exists at depth D = d (so D layers suffice), else the reason."""
    try:
        import pynauty  # noqa: F401 - only whether it is there: first_view_witness uses it
    except ImportError:
        raise NoNauty("pynauty is not installed (pip install pynauty)") from None
    if n > MAX_N:
        raise NoNauty(f"n = {n} is above the rooted-view limit {MAX_N}")
    ins: list = [[] for _ in range(n + 1)]
    for arcs in heads:
        for u, v in arcs:
            ins[v].append(u)
    # d(v → i): the search follows arcs backwards
    return first_view_witness(n, gens, lambda i: _rooted_view(heads, n, patterns.bfs(ins, i), d), MISMATCH)


MISMATCH = ("|Aut(R_{i})| = {aut} exceeds |Stab_G({i})| = {stab}: some automorphism of {i}'s rooted view lies "
            "outside G, a view witness")


def first_view_witness(n: int, gens: Sequence[Sequence[int]], rooted_view, mismatch: str) -> Optional[str]:
    """§11.9's theorem, decided with nauty: None when, for every G-orbit's representative i, the rooted
    view `rooted_view(i)` (a pynauty graph and the signature of its colour cells) has exactly
    |Stab_G(i)| automorphisms and no two representatives' views are isomorphic; else the reason
    (`mismatch` worded with i, aut and stab, or the isomorphic pair)."""
    import pynauty
    order = groups.order(gens, n)
    forms: dict = {}
    for orbit in orbits(gens, n):
        i = orbit[0]
        g, signature = rooted_view(i)
        auts = pynauty.autgrp(g)[0]
        aut_order = groups.order([[p[v] + 1 for v in range(n)] for p in auts], n)
        stab = order // len(orbit)
        if aut_order != stab:
            return mismatch.format(i=i, aut=aut_order, stab=stab)
        key = (signature, pynauty.certificate(g))
        if key in forms:
            return f"the rooted views of {forms[key]} and {i} (different G-orbits) are isomorphic: a view witness"
        forms[key] = i
    return None
