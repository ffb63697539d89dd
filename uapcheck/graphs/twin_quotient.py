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
#: at most this many positions near the blocks' ends are read one by one
MAX_SPECIAL = 4096
#: at most this many sign patterns are compared when the sizes are shrunk
MAX_BOX = 200_000

Intervals = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Quotient:
    """The twin classes (each a tuple of runs (lo, hi) of positions, 1-based), their sizes, and for each class the
    classes its members attend to (`keys`, its in-neighbour classes, itself included)."""

    n: int
    runs: tuple[tuple[tuple[int, int], ...], ...]
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


def _parts(pattern, n: int) -> Optional[_Parts]:
    parts = pattern.parts if isinstance(pattern, S.PatternUnion) else (pattern,)
    blocks = [p for p in parts if isinstance(p, S.Blocks)]
    if len(blocks) != 1 or not isinstance(blocks[0].b, int) or blocks[0].b < 1:
        return None
    g, full = 0, False
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
        elif isinstance(p, S.Dilated) and isinstance(p.w, int) and isinstance(p.r, int) and p.w >= 0 and p.r >= 1:
            if p.w > 64:
                return None
            offsets.extend((k * p.r, False) for k in range(-p.w, p.w + 1))
        else:
            return None
    return _Parts(n, blocks[0].b, min(g, n), full, tuple(windows), tuple(offsets))


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


def _neighbourhood(p: _Parts, i: int, sign: int) -> Intervals:
    """The keys of query i (sign 1) or the queries that attend to i (sign −1), as merged intervals."""
    n = p.n
    if p.full or i <= p.g:
        return ((1, n),)
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
    return _merge(spans)


def _contains(spans: Intervals, j: int) -> bool:
    k = bisect.bisect_right(spans, (j, float("inf"))) - 1
    return k >= 0 and spans[k][0] <= j <= spans[k][1]


def _span(p: _Parts) -> int:
    """The largest |offset| of the local parts."""
    return max([w for w, _ in p.intervals] + [abs(d) for d, _ in p.offsets] + [0])


def quotient(pattern, n: int) -> Optional[Quotient]:
    """The twin quotient of one head's `blocks(b) + …` union at a concrete n, or None (another kind of part, or
    more than MAX_CLASSES classes, or too many positions near the blocks' ends to read one by one).

    A position i > g with i + d inside its block for every local offset ±d is *interior*: its keys and its queries
    are both block(i) ∪ {1, …, g} (the local parts add positions of the block, itself included), so the interior
    positions of one block are twins. Every other position's two neighbourhoods are read off the parts, and the
    positions are grouped by the pair; two positions are twins exactly when their pairs are equal."""
    p = _parts(pattern, n)
    if p is None or n < 1:
        return None
    span = _span(p)
    blocks = (n + p.b - 1) // p.b
    if blocks > MAX_CLASSES:
        return None
    groups: dict = {}
    special = 0
    if p.g:
        groups.setdefault((((1, n),), ((1, n),)), []).append((1, p.g))
    for t in range(blocks):
        lo, hi = t * p.b + 1, min((t + 1) * p.b, n)
        a, z = max(lo, p.g + 1), hi
        if a > z:
            continue
        ia, iz = max(a, lo + span), hi - span  # the interior of the block
        if p.full:
            ia, iz = a, z
        singles = [i for i in range(a, z + 1)] if ia > iz else \
            list(range(a, ia)) + list(range(iz + 1, z + 1))
        special += len(singles)
        if special > MAX_SPECIAL:
            return None
        if ia <= iz:
            groups.setdefault((_neighbourhood(p, ia, 1), _neighbourhood(p, ia, -1)), []).append((ia, iz))
        for i in singles:
            groups.setdefault((_neighbourhood(p, i, 1), _neighbourhood(p, i, -1)), []).append((i, i))
        if len(groups) > MAX_CLASSES:
            return None
    sigs = list(groups)
    runs = tuple(tuple(_merge(list(groups[s]))) for s in sigs)
    sizes = tuple(sum(hi - lo + 1 for lo, hi in r) for r in runs)
    reps = [r[0][0] for r in runs]
    keys = tuple(frozenset(u for u, rep in enumerate(reps) if _contains(sigs[t][0], rep)) for t in range(len(sigs)))
    return Quotient(n, runs, sizes, keys)


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
    Lemma L (d)): the sizes at most R stay; the larger ones, in increasing order, keep their gaps up to
    H = R + T + 1 (T the small sizes' sum) and start at min(least, H). Checked by `equivalent`; None when the check
    fails."""
    bound = support_bound(sizes)
    small_sum = sum(c for c in sizes if c <= bound)
    h = bound + small_sum + 1
    big = sorted({c for c in sizes if c > bound})
    new: dict = {}
    prev_old = prev_new = None
    for c in big:
        new[c] = min(c, h) if prev_old is None else prev_new + min(c - prev_old, h)
        prev_old, prev_new = c, new[c]
    small = tuple(new.get(c, c) for c in sizes)
    return small if equivalent(sizes, small, bound) else None


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
