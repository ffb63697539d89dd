"""The tests' own breadth-first search (written from the definition, not the engine's): distances from one
source over out-lists, −1 where the source does not reach."""
from __future__ import annotations

from collections import deque


def distances(outs, s: int) -> list[int]:
    """dist[v] = the least number of arcs from `s` to `v` along `outs[a]` (the heads of a's arcs), −1 if none."""
    dist = [-1] * len(outs)
    dist[s] = 0
    queue = deque([s])
    while queue:
        a = queue.popleft()
        for b in outs[a]:
            if dist[b] < 0:
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist
