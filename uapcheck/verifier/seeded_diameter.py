"""Theorem F131 (docs/theory.md §11.3: the exact diameter by seeded searches) re-checked on the verifier's own arc
arrays (arrays.py), from the seeds the certificate lists, with the verifier's own searches.

Theorem F131, restated. Let Γ be a digraph on n ≥ 2 positions, S a set of positions (the seeds) with e(s) = ecc_out(s)
finite for s ∈ S, and b a map from positions to integers with (i) b(s) ≥ e(s) for s ∈ S and (ii) b(w) ≥ 1 + min{b(z) :
w → z an arc} for w ∉ S. Then ecc_out(w) ≤ b(w) for every w; so D ≤ max b, and a pair (j, i) with d(j → i) = max b gives
D = max b. (Induction on b(w): a non-seed w has an arc w → z with b(z) ≤ b(w) − 1, and d(w → y) ≤ 1 + d(z → y).)
Strong connectivity follows as well: every w reaches a seed (along arcs of decreasing b), and every seed reaches every
position (its e is finite).

What runs here, none of it read from the certificate but the seeds and the claimed values:
  * each seed's e: bit-parallel forward searches, 64 seeds at a time (bit k of level L at v is set iff
    d(s_k → v) ≤ L: level L + 1 is level L or-ed over the in-arcs of v), each level over the arcs, until every bit is
    everywhere; e(s_k) is the first level at which bit k is set at every position (a level that stops changing
    before that: s_k does not reach every position, not strongly connected). A stated e that differs is rejected;
  * b: the least map meeting (i) with equality and (ii), by its fixed point (b = e on S, +∞ elsewhere; then
    b(w) ← min(b(w), 1 + min over the out-arcs w → z of b(z)) at every w ∉ S until nothing changes); a position left
    at +∞ reaches no seed, so it does not reach every position;
  * (i) and (ii) once more on the result, arc by arc (one pass over the out-arcs);
  * max b ≤ D (a claimed diameter one too small is rejected here), and d(j → i) = D for the stated pair by one
    breadth-first search (arrays.distances_from).
The certificate's other values (n, lower, upper, the pair as `realised by`, the method) are compared with these.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from .check import Reject, Trust

BATCH = 64
#: bit-parallel arc visits (levels × arcs, summed over the batches) the seeds' searches may take; past it the step is
#: left trusted with the size that fits (n = 65,536 for `window(1) + random(2)`: 3,222 seeds, about 2·10⁸)
SEARCH_WORK = 3_000_000_000
MAX_COLUMNS = 16  # the in-arcs laid out as columns up to this in-degree; a longer row's rest goes through reduceat
_FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


class Columns:
    """The arcs into (or out of) each position as K columns of n entries: column k holds the k-th neighbour, a
    shorter row repeating its last one (an empty row the position itself), so that or-ing (or taking the minimum
    of) a value over the K columns is the same as over the row; the rows longer than K keep their rest as one
    segment list for reduceat. K = the degree 90% of the rows do not exceed, at most MAX_COLUMNS."""

    def __init__(self, ptr: np.ndarray, nbr: np.ndarray, n: int):
        deg = np.diff(ptr)
        self.n = n
        # the degree at rank ⌊0.9·(n − 1)⌋ of the sorted degrees (np.percentile's own path imports numpy.ma, about
        # 35 ms); K shapes the layout only: the columns and the rest hold every arc of every row whatever it is
        k = int(np.sort(deg)[int(0.9 * (n - 1))]) if n else 0
        k = max(1, min(MAX_COLUMNS, k, int(deg.max()) if n else 1))
        self.columns = []
        own = np.arange(n, dtype=np.int64)
        last = ptr[1:] - 1
        for c in range(k):
            at = np.minimum(ptr[:-1] + c, last)
            self.columns.append(np.where(deg > 0, nbr[np.maximum(at, 0)] if nbr.size else own, own))
        long = np.flatnonzero(deg > k)
        self.rest = None
        if long.size:
            lens = deg[long] - k
            starts = np.zeros(long.size, dtype=np.int64)
            np.cumsum(lens[:-1], out=starts[1:])
            idx = np.repeat(ptr[long] + k - starts, lens) + np.arange(int(lens.sum()), dtype=np.int64)
            self.rest = (long, nbr[idx], starts)

    def or_step(self, masks: np.ndarray) -> np.ndarray:
        out = masks.copy()
        for col in self.columns:
            np.bitwise_or(out, masks[col], out=out)
        if self.rest is not None:
            rows, tails, starts = self.rest
            out[rows] |= np.bitwise_or.reduceat(masks[tails], starts)
        return out

    def min_over(self, values: np.ndarray) -> np.ndarray:
        out = values[self.columns[0]].copy()
        for col in self.columns[1:]:
            np.minimum(out, values[col], out=out)
        if self.rest is not None:
            rows, tails, starts = self.rest
            out[rows] = np.minimum(out[rows], np.minimum.reduceat(values[tails], starts))
        return out


def columns(ctx, direction: str) -> Columns:
    """The union's in-arcs ("in") or out-arcs ("out") as Columns, cached on the context."""
    key = ("seeded columns", direction)
    if key not in ctx.cache:
        from .large import arrays
        _, adj = arrays(ctx)
        ptr, nbr = adj.ins() if direction == "in" else adj.outs()
        ctx.cache[key] = Columns(ptr, nbr, adj.n)
    return ctx.cache[key]


def search(into: Columns, sources: Sequence[int], levels: int, keep: Optional[int] = None):
    """Forward searches from up to 64 (0-based) sources at once: (e, kept) with e[k] the first level at which bit k
    is set at every position (−1: never, the search stopped changing first, or `levels` ran out) and `kept` the
    masks of level `keep` (None when not asked; the last level when the searches ended before it)."""
    n = into.n
    k = len(sources)
    masks = np.zeros(n, dtype=np.uint64)
    for b, v in enumerate(sources):
        masks[v] |= np.uint64(1) << np.uint64(b)
    want = _FULL if k == 64 else np.uint64((1 << k) - 1)
    ecc = [-1] * k
    kept = masks if keep == 0 else None
    everywhere = int(np.bitwise_and.reduce(masks)) if n else int(want)
    _settle(ecc, everywhere, 0)
    level = 0
    while level < levels and any(e < 0 for e in ecc):
        nxt = into.or_step(masks)
        level += 1
        if keep is not None and level == keep:
            kept = nxt
        if np.array_equal(nxt, masks):
            break  # a fixed point: the bits not everywhere never will be
        masks = nxt
        _settle(ecc, int(np.bitwise_and.reduce(masks)), level)
    if keep is not None and kept is None:
        kept = masks
    return ecc, kept


def _settle(ecc: list, everywhere: int, level: int) -> None:
    for b in range(len(ecc)):
        if ecc[b] < 0 and (everywhere >> b) & 1:
            ecc[b] = level


def least_bound(outs: Columns, seeds: np.ndarray, ecc: np.ndarray) -> np.ndarray:
    """The least b with b = e on the seeds and b(w) ≥ 1 + min over w's out-arcs of b for every other w (numpy int64;
    a position that reaches no seed stays at the sentinel `UNBOUNDED`)."""
    n = outs.n
    b = np.full(n, UNBOUNDED, dtype=np.int64)
    b[seeds] = ecc
    is_seed = np.zeros(n, dtype=bool)
    is_seed[seeds] = True
    while True:
        cand = np.minimum(outs.min_over(b) + 1, UNBOUNDED)
        new = np.where(is_seed, b, np.minimum(b, cand))
        if np.array_equal(new, b):
            return b
        b = new


UNBOUNDED = np.int64(1 << 40)


def _pairs(value, n: int) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(value, list) or not value:
        raise Reject("the seeded certificate lists no seeds")
    pos, ecc = [], []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
            raise Reject("a seed is not a pair [position, eccentricity] of integers")
        if not 1 <= item[0] <= n or item[1] < 0:
            raise Reject(f"the seed {item} is outside 1..n or has a negative eccentricity")
        pos.append(item[0] - 1)
        ecc.append(item[1])
    p = np.asarray(pos, dtype=np.int64)
    ordered = np.sort(p)  # (np.unique would import numpy.ma)
    if bool((ordered[1:] == ordered[:-1]).any()):
        raise Reject("a seed is listed twice")
    return p, np.asarray(ecc, dtype=np.int64)


def fitting_n(n: int, work: float, limit: float) -> int:
    """The largest n′ whose work fits `limit` for a pattern of the same density (searches ∝ n, each ∝ n)."""
    return max(1, int(n * (limit / max(work, 1.0)) ** 0.5))


def check(ctx, s: dict, d: int, pair: list) -> tuple[np.ndarray, str]:
    """Theorem F131 on the step's certificate: (b, the reason text) with b the least bound from the verified seeds
    (every ecc_out ≤ b), or Reject / Trust. `d` is the claimed diameter, `pair` the claimed [j, i]."""
    key = ("seeded bound", s["id"])
    if key in ctx.cache:
        return ctx.cache[key]
    from . import arrays as A
    from .large import arrays
    cert = s.get("certificate") or {}
    _, adj = arrays(ctx)
    n = adj.n
    seeds, stated = _pairs(cert.get("seeds"), n)
    if n < 2:
        raise Trust("one position: the seeded searches are for n ≥ 2")
    top = int(stated.max())
    work = -(-seeds.size // BATCH) * (top + 1) * max(adj.arcs, 1)
    if work > SEARCH_WORK:
        raise Trust(f"the {seeds.size:,} seeds' searches would visit about {work:,} arcs (levels × arcs, 64 seeds at "
                    f"a time; limit {SEARCH_WORK:,}): a pattern of this density fits up to about "
                    f"n = {fitting_n(n, work, SEARCH_WORK):,}")
    into = columns(ctx, "in")
    # the seeds in the order of their stated values (each compared with its own search whatever the order): a search
    # lasts as many levels as its largest eccentricity, so 64 seeds of one value stop together
    by_value = np.argsort(stated, kind="stable")
    for k in range(0, seeds.size, BATCH):
        at = by_value[k:k + BATCH]
        part = seeds[at].tolist()
        got, _ = search(into, part, max(top, d) + 1)
        for v, e, want in zip(part, got, stated[at].tolist()):
            if e < 0:
                raise Reject(f"x_{v + 1} does not reach every position within {max(top, d) + 1} levels: the stated "
                             f"eccentricity {want} is wrong, or the pattern is not strongly connected")
            if e != want:
                raise Reject(f"the seed {v + 1} has eccentricity {e}, not {want}")
    b = least_bound(columns(ctx, "out"), seeds, stated)
    if int(b.max()) >= int(UNBOUNDED):
        w = int(np.argmax(b))
        raise Reject(f"position {w + 1} reaches no seed: it does not reach every position (not strongly connected)")
    outs = columns(ctx, "out")
    others = np.ones(n, dtype=bool)
    others[seeds] = False
    # (ii) arc by arc, once more on the result: every position but a seed has an out-arc to a bound one lower
    if bool((b[others] < outs.min_over(b)[others] + 1).any()) or bool((b[seeds] < stated).any()):
        raise Reject("internal: the propagated bound breaks (i) or (ii)")  # never: the fixed point meets both
    high = int(b.max())
    if high > d:
        w = int(np.argmax(b))
        raise Reject(f"the seeds bound the eccentricity of position {w + 1} by {high} only: the certificate does not "
                     f"show D ≤ {d}")
    j, i = pair
    if not (isinstance(j, int) and isinstance(i, int) and 1 <= j <= n and 1 <= i <= n):
        raise Reject("the pair is not two positions in 1..n")
    if int(A.distances_from(adj, j - 1)[i - 1]) != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}")
    _compare(s, cert, n, d, j, i)
    why = (f"on the arc arrays ({adj.arcs:,} arcs), Theorem F131: the {seeds.size:,} seeds' eccentricities re-computed "
           f"by the verifier's own bit-parallel searches (64 at a time), the least bound b with b = e on the seeds and "
           f"b(w) ≤ 1 + b(z) over an arc w → z elsewhere reaches every position with max b = {high} ≤ {d} (so every "
           f"position reaches every other: strongly connected, D ≤ {d}); attained by x_{j} reaching position {i}")
    ctx.cache[key] = (b, why)
    return b, why


def _compare(s: dict, cert: dict, n: int, d: int, j: int, i: int) -> None:
    """The certificate block's values against the checked ones."""
    stated = {"n": cert.get("n"), "diameter": cert.get("diameter"), "lower": cert.get("lower"),
              "upper": cert.get("upper"), "upper bound method": cert.get("upper bound method"),
              "realised by": cert.get("realised by")}
    want = {"n": n, "diameter": d, "lower": d, "upper": d, "upper bound method": "seeded",
            "realised by": {"from j": j, "to i": i}}
    for name, value in stated.items():
        if value != want[name]:
            raise Reject(f"{s['id']} certificate.{name} is {str(value)[:60]}, not {want[name]}")
