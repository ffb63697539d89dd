"""The verifier's F190 refinement as it was first written, in pure Python (bit-set BFS, a search along the cycle,
colours named by a dict of tuples): the reference the numpy restatement in uapcheck/verifier/cyclic_window_directed.py
is compared with, length by length (tests/test_verifier_cyclic_window_directed_numpy.py)."""
from __future__ import annotations

from typing import Optional


def distances(rows: list[set[int]]) -> Optional[list[list[int]]]:
    """dist[i][x] = d(x → i) for every root i, by breadth-first search along the attended positions (bit sets)."""
    n = len(rows)
    masks = [sum(1 << x for x in row) for row in rows]
    out = []
    for i in range(n):
        dist = [-1] * n
        dist[i] = 0
        seen = edge = 1 << i
        d = 0
        while edge:
            d += 1
            grown = 0
            for x in _members(edge):
                grown |= masks[x]
            edge = grown & ~seen
            seen |= edge
            for x in _members(edge):
                dist[x] = d
        if -1 in dist:
            return None
        out.append(dist)
    return out


def _cyclic_gaps(zone: list[int], n: int, reach: int) -> dict[int, int]:
    """The positions within cyclic distance ``reach`` of ``zone``, each with that distance (a search along the cycle)."""
    gaps = {z: 0 for z in zone}
    edge = list(zone)
    for step in range(1, reach + 1):
        grown = []
        for p in edge:
            for q in ((p - 1) % n, (p + 1) % n):
                if q not in gaps:
                    gaps[q] = step
                    grown.append(q)
        edge = grown
    return gaps


def _members(bits: int) -> list[int]:
    out = []
    while bits:
        x = (bits & -bits).bit_length() - 1
        out.append(x)
        bits &= bits - 1
    return out


def properties(heads: list[list[set[int]]], w: int, far_span: int, rounds: int) -> Optional[tuple[bool, bool]]:
    """Both properties for heads given by their N_h(v) (v = 0..n − 1, each holding v), distances in their union."""
    n = len(heads[0])
    rows = [set().union(*(head[v] for head in heads)) for v in range(n)]
    dists = distances(rows)
    if dists is None:
        return None
    d = max(max(row) for row in dists)
    t = (far_span + w - 1) // w
    attending: list[list[set[int]]] = []
    for head in heads:
        into: list[set[int]] = [set() for _ in range(n)]
        for v, row in enumerate(head):
            for x in row:
                into[x].add(v)
        attending.append(into)
    names: dict = {}
    decided: dict = {}
    premise, swap = True, False
    for dist in dists:
        if max(dist) != d:
            continue
        zone = [x for x in range(n) if dist[x] >= d - t]
        near_zone = _cyclic_gaps(zone, n, (rounds + 1) * far_span)
        colour = {p: dist[p] for p in near_zone}
        for r in range(1, rounds + 1):
            keep = (rounds + 1 - r) * far_span
            colour = {p: names.setdefault((r, colour[p],
                                           tuple(tuple(sorted(colour[y] for y in head[p])) for head in heads)
                                           if dist[p] < d else None,
                                           tuple(tuple(sorted(colour[v] for v in into[p] if dist[v] < d))
                                                 for into in attending)), len(names))
                      for p in colour if near_zone[p] <= keep}
        far = [u for u in range(n) if dist[u] == d]
        seen = [tuple(frozenset(v for v in into[u] if dist[v] < d) for into in attending) for u in far]
        if len(set(seen)) < len(seen):
            swap = True
        if not premise:
            continue
        for u in far:
            for x in zone:
                if x == u:
                    continue
                both = tuple(tuple(sorted(colour[v] for v in into[u] & into[x] if dist[v] < d)) for into in attending)
                key = (colour[u], colour[x], both)
                edge = tuple(x in head[u] for head in heads)
                if decided.setdefault(key, edge) != edge:
                    premise = False
    return premise, swap


