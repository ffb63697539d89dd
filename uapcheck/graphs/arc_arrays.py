"""Compact arc arrays of large pattern graphs (numpy) and a breadth-first search over them.

The re-checks of the proof kernel read large graphs through these arrays instead of Python lists of
neighbours: exact integer arithmetic on the arc codes ``(j-1)*n + (i-1)`` (below n² < 2⁶³), no igraph.
``out_csr`` cuts the sorted codes per source (compressed sparse rows); ``bfs`` expands a whole BFS
level at once (every out-arc of the frontier gathered by index arithmetic), with the same result as a
queue-based BFS: the distance of each position from the nearest source, −1 when not reached.
"""
from __future__ import annotations

from typing import Optional, Sequence

from .build import PatternGraph, _derived, code_array, code_endpoints, reversed_code_array


def union_codes(graphs: Sequence[PatternGraph]):
    """The sorted codes of the union of the heads, each arc once (numpy int64)."""
    import numpy as np
    if len(graphs) == 1:
        return code_array(graphs[0])
    codes = np.sort(np.concatenate([code_array(g) for g in graphs]), kind="stable")  # sorted runs: timsort
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
            reversed_codes = reversed_code_array(graph)
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
        if depth == LEVELS_BEFORE_C and frontier.size <= THIN_FRONTIER_MAX and frontier.size * THIN_FRONTIER < unreached:
            # a long, thin search (a path-like pattern: thousands of levels of a few positions each): each
            # level's numpy calls cost more than the level; igraph's C search gives the same distances
            return _c_bfs(indptr, targets, n, frontier.tolist(), radius, stop, dist, depth)
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


#: After this many levels, a search whose frontier is thin (below 1/THIN_FRONTIER of the positions left) goes on
#: in C (python-igraph) from its frontier.
LEVELS_BEFORE_C = 64
THIN_FRONTIER = 64
THIN_FRONTIER_MAX = 16  # searches from at most this many frontier positions (one C search each)
_C_GRAPHS: dict = {}  # id(indptr) → (indptr, targets, the igraph graph): the arrays are kept, so ids stay theirs


def _c_graph(indptr, targets, n: int):
    """The directed igraph of the CSR arrays (v → targets[indptr[v]:indptr[v + 1]]), built once per pair."""
    import numpy as np
    from ..lazy import digraph
    got = _C_GRAPHS.get(id(indptr))
    if got is not None and got[0] is indptr and got[1] is targets:
        return got[2]
    sources = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    graph = digraph(n, zip(sources.tolist(), targets.tolist()))
    if len(_C_GRAPHS) >= 8:
        _C_GRAPHS.pop(next(iter(_C_GRAPHS)))
    _C_GRAPHS[id(indptr)] = (indptr, targets, graph)
    return graph


def _c_bfs(indptr, targets, n: int, frontier: list, radius, stop, dist, depth: int):
    """The rest of ``bfs`` from a frontier at ``depth`` (``dist`` set up to it), by igraph's breadth-first
    search in C: each frontier position's own search, the least distance kept (a position first reached at
    level L of the whole search is at distance depth + L from the frontier's nearest member)."""
    import numpy as np
    graph = _c_graph(indptr, targets, n)
    best = np.full(n, -1, dtype=np.int64)
    for v in frontier:
        order, starts, _ = graph.bfs(v, mode="out")
        order = np.asarray(order, dtype=np.int64)
        bounds = np.asarray(starts, dtype=np.int64)
        sizes = bounds[1:] - bounds[:-1]
        level = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        here = np.full(n, -1, dtype=np.int64)
        here[order] = level
        better = (here >= 0) & ((best < 0) | (here < best))
        best[better] = here[better]
    todo = (dist < 0) & (best >= 0)
    dist[todo] = best[todo] + depth
    if radius is not None:
        dist[dist > radius] = -1
    if stop is not None and dist[stop] >= 0:
        dist[dist > dist[stop]] = -1
    return dist


#: Sources one bit-parallel search follows at once (the bits of a uint64).
BATCH_SOURCES = 64


def bit_levels(indptr, tails, n: int, sources: Sequence[int], max_levels: int, last_level: Optional[int] = None):
    """A breadth-first search from up to 64 sources at once, as level masks (numpy uint64): bit k of
    ``masks[L][v]`` is set iff v is within L hops of ``sources[k]`` along arcs a → v, where
    ``tails[indptr[v]:indptr[v + 1]]`` are the a's of v (the in-neighbours for a search forward, the
    out-neighbours for one backward). Each level is one pass over the arcs: v's mask or-ed with those of
    its a's. The list ends with the first level equal to the next (every later level is the same);
    None when that takes more than ``max_levels`` levels. ``last_level``: stop after that level instead
    (the list then ends there, or earlier at its fixed point)."""
    import numpy as np
    if not 1 <= len(sources) <= BATCH_SOURCES:
        raise ValueError(f"a bit-parallel search takes 1 to {BATCH_SOURCES} sources, got {len(sources)}")
    columns, rest, shifts = _padded_rows(indptr, tails, n)
    mask = np.zeros(n, dtype=np.uint64)
    mask[np.asarray(sources, dtype=np.int64)] |= np.left_shift(np.uint64(1), np.arange(len(sources), dtype=np.uint64))
    masks = [mask]
    buf = np.empty_like(mask)
    while len(tails):
        nxt = _or_of_columns(mask, columns, np.empty_like(mask), buf, shifts)
        if rest is not None:
            rest_heads, rest_tails, rest_starts = rest
            nxt[rest_heads] |= np.bitwise_or.reduceat(mask[rest_tails], rest_starts)
        if np.array_equal(nxt, mask):
            break
        if len(masks) > max_levels:
            return None
        masks.append(nxt)
        mask = nxt
        if last_level is not None and len(masks) > last_level:
            break
    for m in masks:
        m.flags.writeable = False
    return masks


#: Words per position of a wide bit-parallel search (`wide_search`): 64 × WIDE_WORDS sources at once. One gather of
#: a position's row of words costs little more than one of a word (about 2× the work for 4× the sources).
WIDE_WORDS = 4


def spread_lowered(ub, changed, indptr, tails) -> None:
    """ub(w) <= 1 + ub(z) over the arcs w -> z, spread in place from the positions ``changed`` whose ub just went down,
    where ``tails[indptr[z]:indptr[z + 1]]`` are the w's of z: each round relaxes the arcs into the positions the round
    before lowered. When ub met every such inequality before the positions were lowered, the result is the least
    fixed point below it, the one repeated passes over all the arcs reach (connectivity._propagated)."""
    import numpy as np
    front = np.asarray(changed, dtype=np.int64)
    while front.size:
        ws, lens = _neighbours_of_all(indptr, tails, front)
        vals = np.repeat(ub[front] + 1, lens)
        better = vals < ub[ws]
        if not bool(better.any()):
            return
        ws, vals = ws[better], vals[better]
        np.minimum.at(ub, ws, vals)
        if len(ws) * 16 < len(ub):  # the distinct ws, ascending: sorted when few, else counted over every position
            ws = np.sort(ws)
            front = ws[np.concatenate(([True], ws[1:] != ws[:-1]))]
        else:
            front = np.flatnonzero(np.bincount(ws, minlength=len(ub)))


def _or_of_columns(mask, columns, out, buf, shifts=()):
    """``out`` (returned) := ``mask`` or-ed with ``mask``'s rows gathered by each padded column (`_padded_rows`) and
    with its rows shifted by each of ``shifts`` (`_padded_rows`: (c, lo, hi), rows lo + c … hi − 1 + c or-ed into rows
    lo … hi − 1): one level of a bit-parallel search. The first column is gathered straight into ``out`` and ``mask``
    or-ed in after (the same bits as a copy of ``mask`` or-ed with every column, one pass over the words fewer);
    ``buf``: an array of ``mask``'s shape for the other columns (None: made here)."""
    import numpy as np
    if not columns:
        np.copyto(out, mask)
    else:
        np.take(mask, columns[0], axis=0, out=out, mode="clip")  # every index is a position: clip never clips
        np.bitwise_or(out, mask, out=out)
        if len(columns) > 1:
            buf = np.empty_like(mask) if buf is None else buf
            for column in columns[1:]:
                np.take(mask, column, axis=0, out=buf, mode="clip")
                np.bitwise_or(out, buf, out=out)
    for c, lo, hi in shifts:
        np.bitwise_or(out[lo:hi], mask[lo + c:hi + c], out=out[lo:hi])
    return out


def _and_of_rows(mask):
    """The and of every row of a 2-D uint64 array, as a row (a new array): halves and-ed pairwise (numpy's reduction
    down axis 0 of a C-ordered array is about 10 times slower). The first halving makes one array of half the rows;
    the later ones and into its first rows in place (the rows written, [:half], and those read, [half:2 half] and the
    odd last one, never overlap), so a search's level allocates no further arrays."""
    import numpy as np
    if len(mask) <= 1:
        return mask[0].copy()
    half = len(mask) // 2
    merged = mask[:half] & mask[half:2 * half]
    if len(mask) % 2:
        merged[0] &= mask[-1]
    while len(merged) > 1:
        half = len(merged) // 2
        odd = len(merged) % 2
        np.bitwise_and(merged[:half], merged[half:2 * half], out=merged[:half])
        if odd:
            merged[0] &= merged[2 * half]
        merged = merged[:half]
    return merged[0]


def wide_search(indptr, tails, n: int, sources: Sequence[int], last_level: Optional[int] = None):
    """``bit_levels`` from up to 64 × WIDE_WORDS sources at once, each position holding a row of uint64 words (bit b of
    word w stands for ``sources[64 w + b]``), keeping only the current level. Returns (first, mask, level): first[k]
    the first level at which every position holds source k's bit (−1: not by the last level searched), ``mask`` the
    (n, words) masks of that last level, ``level`` its number. The search stops when every source's bit is
    everywhere, after ``last_level``, or at a fixed point (a source whose bit never reaches everything keeps −1)."""
    import numpy as np
    k = len(sources)
    if not 1 <= k <= 64 * WIDE_WORDS:
        raise ValueError(f"a wide bit-parallel search takes 1 to {64 * WIDE_WORDS} sources, got {k}")
    words = -(-k // 64)
    columns, rest, shifts = _padded_rows(indptr, tails, n)
    index = np.arange(k, dtype=np.int64)
    bits = np.left_shift(np.uint64(1), (index % 64).astype(np.uint64))
    mask = np.zeros((n, words), dtype=np.uint64)
    at = np.asarray(sources, dtype=np.int64)
    np.bitwise_or.at(mask, (at, index // 64), bits)
    first = np.full(k, -1, dtype=np.int64)
    found = np.zeros(words, dtype=np.uint64)  # the bits of `first` already set
    sample = max(1, n // 256)
    buf = np.empty_like(mask)
    spare = None
    level = 0
    while True:
        # a bit in every row is in every sampled row: the and of all rows only when the sample shows a new bit
        if bool((_and_of_rows(mask[::sample]) & ~found).any()):
            common = _and_of_rows(mask)
            now = ((common[index // 64] & bits) != 0) & (first < 0)
            first[now] = level
            found |= common
        if bool((first >= 0).all()) or (last_level is not None and level >= last_level) or not len(tails):
            return first, mask, level
        nxt = _or_of_columns(mask, columns, spare if spare is not None else np.empty_like(mask), buf, shifts)
        if rest is not None:
            rest_heads, rest_tails, rest_starts = rest
            nxt[rest_heads] |= np.bitwise_or.reduceat(mask[rest_tails], rest_starts, axis=0)
        # with a last level the search ends there anyway; without one a fixed point ends it (a source's bit that
        # never reaches every position keeps −1)
        if last_level is None and np.array_equal(nxt, mask):
            return first, mask, level
        spare, mask = mask, nxt  # the level before is not kept: its array takes the next level
        level += 1


#: The padded columns of `_padded_rows`: at most this many, and no more than the in-degree most positions reach.
PADDED_MAX_COLUMNS = 16
PADDED_QUANTILE = 0.9
_PADDED: dict = {}  # id(indptr) → (indptr, tails, layout): the arrays are kept, so ids stay theirs


def _padded_rows(indptr, tails, n: int):
    """(columns, rest, shifts): the a's of every v as K padded columns (``columns[k][v]`` = v's k-th a, or its last
    one, or v itself when it has none: or-ing a mask twice, or v's own, changes nothing) plus the a's past the K-th,
    grouped by v (``rest``: heads, tails, starts for a reduceat; None when there are none), after the arcs of whole
    shifts are taken out (`_shifts`: an offset c held by every v of a range lo ≤ v < hi and by no other v, read as
    the slice of rows lo + c … hi − 1 + c, with no gather). K is the in-degree that 90% of the positions do not
    exceed, at most 16: one gather of n words per column instead of one per arc, with the skewed rows (global
    tokens) in the rest. Cached per arrays."""
    import numpy as np
    got = _PADDED.get(id(indptr))
    if got is not None and got[0] is indptr and got[1] is tails:
        return got[2]
    key, key_tails = indptr, tails
    indptr, tails, shifts = _shifts(indptr, tails, n)
    deg = np.diff(indptr)
    # the in-degree at rank ⌊0.9·(n − 1)⌋ of the sorted degrees (np.quantile's own path imports numpy.ma, about 35 ms,
    # the first time); K shapes the layout only, every search reads the same arcs whatever it is
    k = min(PADDED_MAX_COLUMNS, int(np.sort(deg)[int(PADDED_QUANTILE * (n - 1))])) if n else 0
    starts, ends = indptr[:-1], indptr[1:]
    own = np.arange(n, dtype=np.int64)
    columns = []
    for c in range(k):  # k ≥ 1 only when some position has an a, so tails is not empty
        at = np.clip(np.minimum(starts + c, ends - 1), 0, len(tails) - 1)  # the c-th a, or the last one
        columns.append(np.where(deg > 0, tails[at], own))
    extra = np.flatnonzero(deg > k)
    rest = None
    if len(extra):
        lens = deg[extra] - k
        first = starts[extra] + k
        offsets = np.repeat(first - np.concatenate(([0], np.cumsum(lens)[:-1])), lens)
        rest_tails = tails[np.arange(int(lens.sum()), dtype=np.int64) + offsets]
        rest_starts = np.concatenate(([0], np.cumsum(lens)[:-1])).astype(np.int64)
        rest = (extra, rest_tails, rest_starts)
    layout = (tuple(columns), rest, shifts)
    if len(_PADDED) > 8:
        _PADDED.clear()
    _PADDED[id(key)] = (key, key_tails, layout)
    return layout


#: An offset is read as a shift (`_shifts`) when at least 1/SHIFT_SHARE of the positions hold it.
SHIFT_SHARE = 4


def _shifts(indptr, tails, n: int):
    """(indptr, tails, shifts): the arcs a → v (``tails[indptr[v]:indptr[v + 1]]``, each row ascending) without those
    of the shifts, and the shifts, each (c, lo, hi): the arcs v + c → v for every lo ≤ v < hi and for no other v, c ≠ 0,
    held by at least n / SHIFT_SHARE positions (a window's offsets). A row keeps its order. An arc v → v (c = 0) is
    dropped too: a search or-s each row with itself already. The arrays come back unchanged when no arc is taken out."""
    import numpy as np
    deg = np.diff(indptr)
    if n < SHIFT_SHARE or not len(tails):
        return indptr, tails, ()
    heads = np.repeat(np.arange(n, dtype=np.int64), deg)
    offset = tails - heads
    counts = np.bincount(offset + (n - 1), minlength=2 * n - 1)  # offsets −(n − 1) … n − 1
    drop = offset == 0
    shifts = []
    for c in (np.flatnonzero(counts * SHIFT_SHARE >= n) - (n - 1)).tolist():
        if c == 0:
            continue
        held = offset == c
        at = heads[held]  # ascending
        lo, hi = int(at[0]), int(at[-1]) + 1
        if hi - lo == len(at) and bool((at[1:] - at[:-1] == 1).all()):  # every v of lo … hi − 1, each once
            shifts.append((c, lo, hi))
            drop |= held
    if not bool(drop.any()):
        return indptr, tails, ()
    keep = ~drop
    kept_deg = np.bincount(heads[keep], minlength=n)
    return (np.concatenate(([0], np.cumsum(kept_deg))).astype(np.int64), np.ascontiguousarray(tails[keep]),
            tuple(shifts))


def lowest_bit_index(words):
    """The index of the lowest set bit of each uint64 (numpy int64), −1 where no bit is set: x & −x
    isolates that bit, a power of two 2^i, which float64 holds exactly, and frexp writes it as
    0.5 · 2^(i + 1) (and 0 as 0 · 2^0)."""
    import numpy as np
    low = words & (~words + np.uint64(1))
    return np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1
