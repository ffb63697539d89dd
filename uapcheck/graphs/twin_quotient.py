"""The twin quotient of a union with few wide blocks at a concrete n (Lemma L, Theorem F196, docs/theory.md §11.11).

Two positions are *twins* when they have the same in- and out-neighbourhoods (each position attends to itself, so
a class of twins is a clique). For `blocks(b)` beside a window, cyclic window, offsets, cyclic offsets, dilated,
global or star part, every position whose local offsets stay inside its block and that is not global has the
neighbourhoods block ∪ globals: the twin classes are the blocks' interiors, the global positions, and the few
positions near a block's ends, whose neighbourhoods are read off the parts' arithmetic (intervals, never arcs).

Lemma L: the pattern graph is the blow-up of its quotient Q (the classes, with their arcs) by the class sizes c,
and strong connectivity, the diameter, the group's structure and whether a view witness exists at any depth
depend on (Q, c) only through the comparisons of the signed sums of the sizes with the integers of absolute value
at most R = Σ_t min(c_t, k) (k the number of classes). So the blow-up by smaller sizes c' with the same comparisons
(R-equivalent) is a *stand-in* graph of a few hundred positions that the concrete engine decides exactly; its answers
are the pattern's, and G = the symmetric groups of the classes ⋊ the class permutations of the stand-in.
"""
from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass
from typing import Optional

from .. import spec as S

#: at most this many twin classes (the stand-in grows with the classes: Lemma L (d))
MAX_CLASSES = 32
#: at most this many when the quotient itself decides (Theorem F181: a search over the classes, no stand-in)
WIDE_CLASSES = 64
#: at most this many positions near the blocks' ends are read one by one
MAX_SPECIAL = 4096
#: at most this many sign patterns are compared when the sizes are shrunk
MAX_BOX = 200_000

Intervals = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Quotient:
    """The twin classes (each a tuple of runs (lo, hi, step): the positions lo, lo + step, …, hi, 1-based), their
    sizes, and for each class the classes its members attend to (`keys`, its in-neighbour classes, itself
    included)."""

    n: int
    runs: tuple[tuple[tuple[int, int, int], ...], ...]
    sizes: tuple[int, ...]
    keys: tuple[frozenset, ...]

    @property
    def k(self) -> int:
        return len(self.sizes)


@dataclass(frozen=True)
class _Parts:
    n: int
    b: int
    g: int  # the global positions 1..g (0: none)
    full: bool
    intervals: tuple  # (w, cyclic) windows
    offsets: tuple  # (d, cyclic): key i + d of query i
    stride: int = 0  # strided(s): the keys j ≡ i (mod s) (0: no strided part)


def _parts(pattern, n: int, max_classes: int = MAX_CLASSES) -> Optional[_Parts]:
    parts = pattern.parts if isinstance(pattern, S.PatternUnion) else (pattern,)
    blocks = [p for p in parts if isinstance(p, S.Blocks)]
    if len(blocks) != 1 or not isinstance(blocks[0].b, int) or blocks[0].b < 1:
        return None
    g, full, stride = 0, False, 0
    windows: list[tuple[int, bool]] = []
    offsets: list[tuple[int, bool]] = []
    for p in parts:
        if isinstance(p, S.Blocks):
            continue
        if isinstance(p, S.Full):
            full = True
        elif isinstance(p, S.Star):
            g = max(g, 1)
        elif isinstance(p, S.Global) and isinstance(p.g, int) and p.g >= 0:
            g = max(g, p.g)
        elif isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 0:
            windows.append((p.w, bool(p.cyclic)))
        elif isinstance(p, S.Offsets) and all(isinstance(d, int) for d in p.offsets):
            offsets.extend((int(d), bool(p.cyclic)) for d in p.offsets)
        elif isinstance(p, S.Strided) and isinstance(p.s, int) and p.s >= 1 and stride in (0, p.s):
            stride = p.s
        elif isinstance(p, S.Dilated) and isinstance(p.w, int) and isinstance(p.r, int) and p.w >= 0 and p.r >= 1:
            if p.w > 64:
                return None
            offsets.extend((k * p.r, False) for k in range(-p.w, p.w + 1))
        else:
            return None
    if stride > max_classes:
        return None
    return _Parts(n, blocks[0].b, min(g, n), full, tuple(windows), tuple(offsets), stride)


def _merge(spans: list) -> Intervals:
    spans.sort()
    out: list = []
    for lo, hi in spans:
        if lo > hi:
            continue
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _cyclic_span(n: int, lo: int, hi: int) -> list:
    """The positions lo..hi taken mod n (1-based), lo ≤ hi."""
    if hi - lo + 1 >= n:
        return [(1, n)]
    a, z = (lo - 1) % n + 1, (hi - 1) % n + 1
    return [(a, z)] if a <= z else [(a, n), (1, z)]


def _block(p: _Parts, i: int) -> tuple[int, int]:
    lo = (i - 1) // p.b * p.b + 1
    return lo, min(lo + p.b - 1, p.n)


def _neighbourhood(p: _Parts, i: int, sign: int) -> "Hood":
    """The keys of query i (sign 1) or the queries that attend to i (sign −1): merged intervals U and the residue r
    of a strided part (the set U ∪ {j ≡ r mod s}), r None without one."""
    n = p.n
    if p.full or i <= p.g or p.stride == 1:
        return ((1, n),), None
    spans = [(i, i), _block(p, i)]
    if p.g:
        spans.append((1, p.g))
    for w, cyclic in p.intervals:
        spans.extend(_cyclic_span(n, i - w, i + w) if cyclic else [(max(1, i - w), min(n, i + w))])
    for d, cyclic in p.offsets:
        j = i + sign * d
        if cyclic:
            j = (j - 1) % n + 1
        if 1 <= j <= n:
            spans.append((j, j))
    return _merge(spans), (i % p.stride if p.stride else None)


Hood = tuple[Intervals, Optional[int]]


def _gaps(spans: Intervals, n: int) -> list:
    out, at = [], 1
    for lo, hi in spans:
        if lo > at:
            out.append((at, lo - 1))
        at = hi + 1
    if at <= n:
        out.append((at, n))
    return out


def _count(a: int, z: int, r: int, s: int) -> int:
    """The positions j in a..z with j ≡ r (mod s)."""
    return (z - r) // s - (a - 1 - r) // s


def _within(x: Hood, y: Hood, n: int, s: int) -> bool:
    """The set x is contained in the set y (each U ∪ {j ≡ r mod s})."""
    (ux, rx), (uy, ry) = x, y
    gaps = _gaps(uy, n)
    for lo, hi in ux:
        for a, z in gaps:
            a, z = max(a, lo), min(z, hi)
            if a > z:
                continue
            if ry is None or (s > 1 and (z > a or a % s != ry)):
                return False
    if rx is not None and rx != ry:
        return not any(_count(a, z, rx, s) for a, z in gaps)
    return True


def _size(x: Hood, n: int, s: int) -> int:
    u, r = x
    inside = sum(hi - lo + 1 for lo, hi in u)
    return inside + (0 if r is None else sum(_count(a, z, r, s) for a, z in _gaps(u, n)))


def _same(x: Hood, y: Hood, n: int, s: int) -> bool:
    return _within(x, y, n, s) and _within(y, x, n, s)


def _contains(hood: Hood, j: int, s: int) -> bool:
    spans, r = hood
    k = bisect.bisect_right(spans, (j, float("inf"))) - 1
    return (k >= 0 and spans[k][0] <= j <= spans[k][1]) or (r is not None and j % s == r)


def _span(p: _Parts) -> int:
    """The largest |offset| of the local parts."""
    return max([w for w, _ in p.intervals] + [abs(d) for d, _ in p.offsets] + [0])


def quotient(pattern, n: int, max_classes: int = MAX_CLASSES) -> Optional[Quotient]:
    """The twin quotient of one head's `blocks(b) + …` union at a concrete n, or None (another kind of part, or
    more than `max_classes` classes, or too many positions near the blocks' ends to read one by one).

    A position i > g with i + d inside its block for every local offset ±d is *interior*: its keys and its queries
    are both block(i) ∪ {1, …, g} (the local parts add positions of the block, itself included), so the interior
    positions of one block are twins. Every other position's two neighbourhoods are read off the parts, and the
    positions are grouped by the pair; two positions are twins exactly when their pairs are equal."""
    p = _parts(pattern, n, max_classes)
    if p is None or n < 1:
        return None
    span, st = _span(p), p.stride
    blocks = (n + p.b - 1) // p.b
    if blocks * max(st, 1) > max_classes:
        return None
    groups: list = []  # [(keys, queries), [runs (lo, hi, step)], (sizes of keys and queries)]
    special = 0

    def put(i: int, run: tuple) -> bool:
        sig = (_neighbourhood(p, i, 1), _neighbourhood(p, i, -1))
        size = (_size(sig[0], n, st), _size(sig[1], n, st))
        for other, members, osize in groups:
            if osize == size and _same(other[0], sig[0], n, st) and _same(other[1], sig[1], n, st):
                members.append(run)
                return True
        groups.append((sig, [run], size))
        return len(groups) <= max_classes

    if p.g and not put(1, (1, p.g, 1)):
        return None
    for t in range(blocks):
        cells, singles = _block_cells(p, t, span)
        special += len(singles)
        if special > MAX_SPECIAL:
            return None
        for cell in cells:
            if not put(cell[0], cell):
                return None
        for i in singles:
            if not put(i, (i, i, 1)):
                return None
    runs = tuple(_merge_runs(members) for _, members, _ in groups)
    sizes = tuple(sum((hi - lo) // step + 1 for lo, hi, step in r) for r in runs)
    reps = [r[0][0] for r in runs]
    keys = tuple(frozenset(u for u, rep in enumerate(reps) if _contains(groups[t][0][0], rep, st))
                 for t in range(len(groups)))
    return Quotient(n, runs, sizes, keys)


def _block_cells(p: _Parts, t: int, span: int) -> tuple[list, list]:
    """Block t's non-global positions: its interior as one cell per residue class mod s (runs (lo, hi, step)), and
    the other positions one by one."""
    lo, hi = t * p.b + 1, min((t + 1) * p.b, p.n)
    a, z = max(lo, p.g + 1), hi
    if a > z:
        return [], []
    ia, iz = max(a, lo + span), hi - span  # the interior of the block
    if p.full or p.stride == 1:
        ia, iz = a, z
    if ia > iz:
        return [], list(range(a, z + 1))
    step = p.stride if p.stride > 1 and not p.full else 1
    cells = [(first, first + (iz - first) // step * step, step) for first in range(ia, min(ia + step, iz + 1))]
    return cells, list(range(a, ia)) + list(range(iz + 1, z + 1))


def _merge_runs(runs: list) -> tuple:
    """Runs (lo, hi, step) sorted, consecutive runs of step 1 (single positions included) joined; runs that together
    fill an interval (the residue cells of a block that are twins) are that interval."""
    size = sum((hi - lo) // step + 1 for lo, hi, step in runs)
    low, high = min(r[0] for r in runs), max(r[1] for r in runs)
    if size == high - low + 1:
        return ((low, high, 1),)
    out: list = []
    for lo, hi, step in sorted(runs):
        if out and step == 1 and out[-1][2] == 1 and lo == out[-1][1] + 1:
            out[-1] = (out[-1][0], hi, 1)
        elif step > 1 and lo == hi:
            out.append((lo, hi, 1))
        else:
            out.append((lo, hi, step))
    return tuple(out)


def members(runs: tuple):
    """The positions of a class, in order of its runs."""
    for lo, hi, step in runs:
        yield from range(lo, hi + 1, step)


# ---------------------------------------------------------------------------------------------
# R-equivalent sizes (Lemma L (d))

def equivalent(sizes: tuple, small: tuple, bound: int) -> bool:
    """Whether every signed sum Σ ε_t c_t (ε ∈ {−1, 0, 1}) of `sizes` is equal to that of `small` when its absolute
    value is at most `bound`, and has the same sign and an absolute value above `bound` otherwise. Sums are
    enumerated by the multiplicities of the distinct sizes (the same ε-sum of equal sizes is the same number)."""
    by: dict = {}
    for c, c2 in zip(sizes, small):
        by.setdefault((c, c2), 0)
        by[(c, c2)] += 1
    if len({c for c, _ in by}) != len(by):
        return False  # equal sizes must stay equal
    items = list(by.items())
    box = 1
    for _, m in items:
        box *= 2 * m + 1
    if box > MAX_BOX:
        return False
    for es in itertools.product(*[range(-m, m + 1) for _, m in items]):
        s = sum(e * c for e, ((c, _), _) in zip(es, items))
        s2 = sum(e * c2 for e, ((_, c2), _) in zip(es, items))
        if abs(s) <= bound:
            if s2 != s:
                return False
        elif abs(s2) <= bound or (s2 > 0) != (s > 0):
            return False
    return True


def stand_in_sizes(sizes: tuple) -> Optional[tuple]:
    """Sizes R-equivalent to `sizes`, R = Σ_t min(c_t, k) (a bound on the entries of a class transport's support,
    Lemma L (c)), or None. The sizes at most R stay. The larger ones are cut into clusters of sizes whose consecutive
    gaps are at most H = R + T + 1 (T the small sizes' sum), which keep their offsets; first the clusters start at
    min(least, H) and keep their gaps up to H; then (sizes of equal multiplicity-weighted sums, such as the residue
    cells of a strided part) each cluster's start is scaled by L / (the least large size) for L = H, 2H, …, 16H.
    Each candidate is checked by `equivalent` (every signed sum); the first that passes is taken."""
    bound = support_bound(sizes)
    small_sum = sum(c for c in sizes if c <= bound)
    h = bound + small_sum + 1
    big = sorted({c for c in sizes if c > bound})
    if not big:
        return tuple(sizes)
    candidates = [_gapped(big, h)] + [_scaled(big, h, k * h) for k in range(1, 17)]
    for new in candidates:
        if new is None:
            continue
        small = tuple(new.get(c, c) for c in sizes)
        if equivalent(sizes, small, bound):
            return small
    return None


def _gapped(big: list, h: int) -> dict:
    new: dict = {}
    prev_old = prev_new = 0
    for c in big:
        new[c] = min(c, h) if not new else prev_new + min(c - prev_old, h)
        prev_old, prev_new = c, new[c]
    return new


def _scaled(big: list, h: int, least: int) -> Optional[dict]:
    if least >= big[0]:
        return None
    new: dict = {}
    start = prev = None
    for c in big:
        if start is None or prev is None or c - prev > h:
            start = c
            base = max(round(c * least / big[0]), (max(new.values()) + h + 1) if new else least)
        new[c] = base + (c - start)
        prev = c
    return new


def support_bound(sizes: tuple) -> int:
    """R = Σ_t min(c_t, k): a transport between the classes has at most min(c_t, k) entries in row t."""
    return sum(min(c, len(sizes)) for c in sizes)


def stand_in_arcs(q: Quotient, sizes: tuple) -> tuple[int, tuple]:
    """The blow-up of the quotient by `sizes`: (n', the (i, j) pairs, i attends to j, i ≠ j), classes laid out one
    after another."""
    starts, at = [], 1
    for c in sizes:
        starts.append(at)
        at += c
    pairs = []
    for t, c in enumerate(sizes):
        for u in q.keys[t]:
            for i in range(starts[t], starts[t] + c):
                for j in range(starts[u], starts[u] + sizes[u]):
                    if i != j:
                        pairs.append((i, j))
    return at - 1, tuple(pairs)


def class_starts(sizes: tuple) -> list[int]:
    out, at = [], 1
    for c in sizes:
        out.append(at)
        at += c
    return out
