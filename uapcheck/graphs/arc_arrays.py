"""Compact arc arrays of large pattern graphs (numpy) and a breadth-first search over them.

The re-checks of the proof kernel read large graphs through these arrays instead of Python lists of
neighbours: exact integer arithmetic on the arc codes ``(j-1)*n + (i-1)`` (below n² < 2⁶³), no igraph.
``out_csr`` cuts the sorted codes per source (compressed sparse rows); ``bfs`` expands a whole BFS
level at once (every out-arc of the frontier gathered by index arithmetic), with the same result as a
queue-based BFS: the distance of each position from the nearest source, −1 when not reached.
"""
from __future__ import annotations

from typing import Optional, Sequence

from .build import PatternGraph, _derived, code_array, code_endpoints


def union_codes(graphs: Sequence[PatternGraph]):
    """The sorted codes of the union of the heads, each arc once (numpy int64)."""
    import numpy as np
    if len(graphs) == 1:
        return code_array(graphs[0])
    codes = np.sort(np.concatenate([code_array(g) for g in graphs]))
    if len(codes) == 0:
        return codes
    return codes[np.concatenate(([True], codes[1:] != codes[:-1]))]


def out_csr(codes, n: int):
    """(indptr, targets), 0-based: the out-neighbours of v are targets[indptr[v]:indptr[v + 1]]."""
    import numpy as np
    src, dst = codes // n, codes % n  # sorted codes: sources ascending
    return np.searchsorted(src, np.arange(n + 1)), dst


def graph_csr(graph: PatternGraph, mode: str):
    """(indptr, targets) of one graph's out-arcs (``mode="out"``) or in-arcs (``"in"``: the arcs
    reversed), 0-based, each neighbour list ascending; cached on the graph (read-only arrays)."""
    import numpy as np
    if mode not in ("out", "in"):
        raise ValueError(f"mode must be 'out' or 'in', got {mode!r}")
    cache = _derived(graph)
    key = "csr " + mode
    if key not in cache:
        n = graph.n
        src, dst = code_endpoints(graph)  # sorted codes: sources ascending, targets ascending per source
        if mode == "out":
            heads, tails = src, dst
        else:  # the reversed codes (i−1)·n + (j−1), sorted: targets ascending, sources ascending per target
            reversed_codes = np.sort(dst * n + src)
            heads = reversed_codes // n
            tails = reversed_codes - heads * n
        indptr = np.concatenate(([0], np.cumsum(np.bincount(heads, minlength=n)))).astype(np.int64)
        indptr.flags.writeable = False
        tails = np.ascontiguousarray(tails)
        tails.flags.writeable = False
        cache[key] = (indptr, tails)
    return cache[key]


def _neighbours_of_all(indptr, targets, vertices):
    """(the neighbours of every vertex in ``vertices``, concatenated in order; how many each has)."""
    import numpy as np
    starts = indptr[vertices]
    lens = indptr[vertices + 1] - starts
    offsets = np.cumsum(lens) - lens
    return targets[np.arange(int(lens.sum()), dtype=np.int64) + np.repeat(starts - offsets, lens)], lens


def bfs(indptr, targets, n: int, sources: Sequence[int], radius: Optional[int] = None,
        stop: Optional[int] = None, reverse=None):
    """Distances (0-based positions, numpy int64, −1: unreached) from the nearest of ``sources``,
    up to ``radius`` hops (None: all); stops after the level that reaches ``stop``.

    ``reverse``: the (indptr, targets) of the reversed arcs, when the caller has them: a level with
    fewer positions left unreached than in the frontier is then expanded bottom-up (each unreached
    position looks for an in-neighbour in the frontier), which reads fewer arcs on the last, largest
    levels of an expander-like pattern. The same distances either way."""
    import numpy as np
    dist = np.full(n, -1, dtype=np.int64)
    dist[np.asarray(list(sources), dtype=np.int64)] = 0
    frontier = np.flatnonzero(dist == 0)  # each source once (np.unique would import numpy.ma)
    unreached = n - frontier.size
    depth = 0
    while frontier.size and unreached and (radius is None or depth < radius):
        if stop is not None and dist[stop] >= 0:
            break
        depth += 1
        if reverse is not None and unreached < frontier.size:
            todo = np.flatnonzero(dist < 0)
            parents, lens = _neighbours_of_all(reverse[0], reverse[1], todo)
            newly = np.repeat(todo, lens)[dist[parents] == depth - 1]
        else:
            reached, _ = _neighbours_of_all(indptr, targets, frontier)
            newly = reached[dist[reached] < 0]
        if newly.size == 0:
            break
        dist[newly] = depth
        frontier = np.flatnonzero(dist == depth)
        unreached -= frontier.size
    return dist
