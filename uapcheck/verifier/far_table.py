"""Two exact answers to "do D layers suffice?" for one symmetric head at one n, re-derived on the verifier's own arcs
(docs/theory.md §11.9, Theorem F111 and the swap of Theorem F99 (a)); shares no code with the engines.

* a swap (x y) of two positions at distance D from a root i, with the same neighbours among the positions within
  D − 1 of i and not twins, is a view witness (checked here by the definition: (x y) moves some arc, and keeps the
  closed neighbourhood of every position within D − 1 of i);
* when adjacency of two positions at distance D from a root is one function of (their common neighbours' count at
  each distance 1, …, D − 1, the unordered pair of their neighbours' counts by colour), a colour being a ball
  position's distance and the sizes of its closed neighbourhood's meets with every distance layer, no view witness
  exists (Theorem F111).

`decide` returns "witness" or "enough" when one of them answers, None when neither does (the caller's rooted views
decide).
"""
from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence


def _closed(arcs: frozenset, n: int) -> Optional[list[frozenset]]:
    """N[v] for v = 1..n (index 0 unused), or None when some arc has no reverse."""
    out: list[set] = [set()] + [{v} for v in range(1, n + 1)]
    for j, i in arcs:
        if (i, j) not in arcs:
            return None
        out[i].add(j)
    return [frozenset(s) for s in out]


def _layers(near: list[frozenset], n: int, root: int) -> list[int]:
    """dist[v] = d(v, root) (−1 when unreachable), by breadth-first search on the closed neighbourhoods."""
    dist = [-1] * (n + 1)
    dist[root] = 0
    frontier = [root]
    while frontier:
        nxt = []
        for u in frontier:
            for v in near[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


def _swap_is_witness(near: list[frozenset], n: int, dist: list[int], d: int, x: int, y: int) -> bool:
    """(x y) moves some arc and keeps N[v] for every v within d − 1 of the root. Only a position of N[x] ∪ N[y] can
    have its closed neighbourhood changed (any other v has neither x nor y in N[v], and is fixed), so only those are
    read: the same answer as reading every position."""
    def image(v: int) -> int:
        return y if v == x else x if v == y else v
    changed = [v for v in near[x] | near[y] if frozenset(image(u) for u in near[v]) != near[image(v)]]
    return bool(changed) and all(not 0 <= dist[v] <= d - 1 for v in changed)


def _swap_at(near: list[frozenset], n: int, dist: list[int], d: int, far: list[int], ball: set) -> bool:
    """Some two positions at distance d with the same neighbours in the ball swap to a view witness."""
    by_ball: dict = {}
    for x in far:
        by_ball.setdefault(near[x] & ball, []).append(x)
    return any(_swap_is_witness(near, n, dist, d, x, y)
               for group in by_ball.values() for k, x in enumerate(group) for y in group[k + 1:])


def _bits(near: list[frozenset]) -> list[int]:
    """Each closed neighbourhood as a bit set (bit v for position v)."""
    return [sum(1 << u for u in s) for s in near]


def _matrix(near: list[frozenset]):
    """The closed neighbourhoods as a boolean matrix (row v, column u: u ∈ N[v]; row and column 0 unused)."""
    import numpy as np
    out = np.zeros((len(near), len(near)), dtype=bool)
    for v in range(1, len(near)):
        out[v, list(near[v])] = True
    return out


def _table_agrees(near: list[frozenset], dist: list[int], d: int, far: list[int], ball: set, table: dict,
                  bits: Optional[list[int]] = None, ids: Optional[dict] = None, matrix=None) -> bool:
    """The root's entries of Theorem F111's table agree with `table` (entries added as they come). An entry's key is
    (the pair's common neighbours' count at each distance 1, …, d − 1; the unordered pair of their neighbours' counts
    by colour), the latter as the pair of the counts' numbers in `ids` (one numbering per `decide`, so equal counts
    get one number: the same keys as the counts themselves). The counts are read on bit sets (`bits`: `_bits(near)`,
    made once per length) and the pairs' common counts as one matrix product per distance (numpy, exact integers)."""
    import numpy as np
    if bits is None:
        bits = _bits(near)
    if ids is None:
        ids = {}
    layer = [0] * (d + 1)
    for z in range(1, len(dist)):
        if 0 <= dist[z] <= d:
            layer[dist[z]] |= 1 << z
    colour = {z: (dist[z],) + tuple((bits[z] & layer[k]).bit_count() for k in range(d + 1)) for z in ball}
    number = np.array([ids.setdefault(tuple(sorted(Counter(colour[z] for z in near[u] & ball).items())), len(ids))
                       for u in far], dtype=np.int64)
    k = len(far)
    if k < 2:
        return True
    upper = np.triu_indices(k, 1)
    if matrix is None:
        matrix = _matrix(near)
    rows = matrix[np.array(far)]
    distance = np.array(dist)
    parts = []
    for level in range(1, d):
        member = rows[:, distance == level].astype(np.int64)
        parts.append((member @ member.T)[upper])
    low = np.minimum(number[upper[0]], number[upper[1]])
    high = np.maximum(number[upper[0]], number[upper[1]])
    adj = rows[:, np.array(far)][upper]
    cols = parts + [low, high]
    order = np.lexsort(cols[::-1])  # the pairs sorted by key, exactly (no combined code that could overflow)
    keys = np.stack([c[order] for c in cols])
    adj = adj[order]
    same = np.all(keys[:, 1:] == keys[:, :-1], axis=0)  # a pair's key equals the previous pair's
    if np.any(same & (adj[1:] != adj[:-1])):
        return False  # two pairs of this root with one key, one adjacent and one not
    first = np.concatenate(([True], ~same))
    return all(table.setdefault(tuple(key), a) == a
               for key, a in zip(keys[:, first].T.tolist(), adj[first].tolist()))


def decide(heads: Sequence[frozenset], n: int, d: int, representatives: Sequence[int]) -> Optional[str]:
    """"witness", "enough" or None for one symmetric head with diameter d ≥ 2; `representatives`: one position of
    each orbit of the group G = Aut(Γ) the verifier re-derived."""
    if len(heads) != 1 or d < 2:
        return None
    near = _closed(heads[0], n)
    if near is None:
        return None
    table: dict = {}
    consistent = True
    bits = _bits(near)
    ids: dict = {}
    matrix = _matrix(near)
    for root in representatives:
        dist = _layers(near, n, root)
        if min(dist[1:]) < 0 or max(dist[1:]) > d:
            return None
        far = [v for v in range(1, n + 1) if dist[v] == d]
        if not far:
            continue
        ball = {v for v in range(1, n + 1) if dist[v] < d}
        if _swap_at(near, n, dist, d, far, ball):
            return "witness"
        consistent = consistent and _table_agrees(near, dist, d, far, ball, table, bits, ids, matrix)
    return "enough" if consistent else None
