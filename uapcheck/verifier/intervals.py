"""Pattern graphs at any integer n without their arcs: in-neighbourhoods as interval sets.

For a set of queries [a, b], `Spans.span(a, b)` is the union of the in-neighbourhoods N(v) (v
included) over v in [a, b], computed from the re-parsed pattern by arithmetic, exactly:

    full          [1, n]                      causal        [1, b]
    window(w)     [a − w, b + w] (mod n when cyclic)
    offsets, dilated, strided: [a, b] shifted by each offset (clipped, or mod n when cyclic)
    blocks(b)     from the block of a to the end of the block of b
    global, star, global {P}: [1, n] when a global position is in [a, b], else the global positions
    sinks(k)      [1, k] when b > k
    P + Q         the union of the parts' spans
    P & Q         each part's N(v) an interval [L(v), U(v)] ∋ v with L, U non-decreasing (full,
                  causal, non-cyclic window, blocks): the intersection is [max L, min U] ∋ v, again
                  non-decreasing, and consecutive intervals meet (both contain their own v), so the
                  union over [a, b] is [L(a), U(b)]
    blockwise(b) { P }: the blocks of [a, b] and their span in P on the block indices, as positions
    random, edges: the explicit neighbourhoods of every v in [a, b]

The backward search from i (`levels`) grows B_t(i) = {v : d(v → i) ≤ t} by the span of the last
level, so the distances, receptive fields and the radius come out at n = 32,768 in seconds.
"""
from __future__ import annotations

import random
from typing import Optional, Sequence

from .. import spec as S

Intervals = list  # sorted, disjoint, non-adjacent (lo, hi) pairs, 1 ≤ lo ≤ hi ≤ n
MAX_N = 1 << 20
EXPLICIT_MAX_ARCS = 4_000_000


class Unsupported(Exception):
    """The pattern has a part the interval model does not cover."""


def _int(term) -> int:
    if isinstance(term, bool) or not isinstance(term, int):
        raise Unsupported(f"pattern quantity {term!r} is not an integer")
    return term


def normalise(ivs) -> Intervals:
    out: list = []
    for lo, hi in sorted(ivs):
        if lo > hi:
            continue
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def subtract(a: Intervals, b: Intervals) -> Intervals:
    """a ∖ b for normalised interval lists."""
    out, k = [], 0
    for lo, hi in a:
        cur = lo
        while k < len(b) and b[k][1] < cur:
            k += 1
        m = k
        while m < len(b) and b[m][0] <= hi:
            if b[m][0] > cur:
                out.append((cur, b[m][0] - 1))
            cur = max(cur, b[m][1] + 1)
            m += 1
        if cur <= hi:
            out.append((cur, hi))
    return out


def contains(ivs: Intervals, v: int) -> bool:
    return any(lo <= v <= hi for lo, hi in ivs)


def size(ivs: Intervals) -> int:
    return sum(hi - lo + 1 for lo, hi in ivs)


def _shift(a: int, b: int, o: int, n: int, cyclic: bool) -> list:
    lo, hi = a + o, b + o
    if not cyclic:
        return [(max(1, lo), min(n, hi))] if lo <= n and hi >= 1 else []
    if hi - lo + 1 >= n:
        return [(1, n)]
    lo0, hi0 = (lo - 1) % n + 1, (hi - 1) % n + 1
    return [(lo0, hi0)] if lo0 <= hi0 else [(1, hi0), (lo0, n)]


def _monotone(p: S.Pattern, v: int, n: int) -> tuple[int, int]:
    """N_p(v) as the interval [L(v), U(v)] ∋ v, for the parts whose L, U are non-decreasing."""
    if isinstance(p, S.Full):
        return 1, n
    if isinstance(p, S.Causal):
        return 1, v
    if isinstance(p, S.Window) and not p.cyclic:
        w = _int(p.w)
        return max(1, v - w), min(n, v + w)
    if isinstance(p, S.Blocks):
        b = _int(p.b)
        start = (v - 1) // b * b + 1
        return start, min(n, start + b - 1)
    raise Unsupported(f"an intersection with {type(p).__name__}")


#: The most intervals one position's neighbourhood may have: a search's level is a union of such spans, so their
#: size bounds its memory and time (`blocks(600000) + strided(4)` at n = 1,048,576 has 524,288 per neighbourhood, a
#: few hundred megabytes for each level of each search, where the model ran out of memory).
MAX_PIECES = 16_384


def _pieces(p: S.Pattern, n: int) -> int:
    """An upper bound on the intervals of N_p(v) for one position v (before they are merged)."""
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return sum(_pieces(q, n) for q in p.parts)
    if isinstance(p, S.Strided):
        s = _int(p.s)
        return 2 * (n // max(s, 1) + 1)
    if isinstance(p, S.Offsets):
        return 2 * len(p.offsets)
    if isinstance(p, S.Dilated):
        return 2 * _int(p.w)
    if isinstance(p, S.GlobalAt):
        return len(p.positions)
    if isinstance(p, S.Blockwise):
        return _pieces(p.inner, max(n // max(_int(p.b), 1), 1))
    return 2


class Spans:
    """Spans of one head's pattern (or, with several patterns, of their union graph) at length n."""

    def __init__(self, patterns: Sequence[S.Pattern], n: int):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_N:
            raise Unsupported("the number of tokens is not an integer in range")
        self.n = n
        self.patterns = list(patterns)
        self._explicit: dict = {}
        for p in self.patterns:
            self._prepare(p, n)
        pieces = sum(_pieces(p, n) for p in self.patterns)
        if pieces > MAX_PIECES:
            raise Unsupported(f"a neighbourhood of up to {pieces:,} intervals at n = {n:,} (the model's limit is "
                              f"{MAX_PIECES:,}: its searches would run out of memory or time)")

    def _prepare(self, p, n):
        if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
            for part in p.parts:
                self._prepare(part, n)
        elif isinstance(p, S.Blockwise):
            b = _int(p.b)
            if b < 1 or n % b:
                raise Unsupported("a block size that does not divide n")
            self._prepare(p.inner, n // b)
        elif isinstance(p, (S.RandomPattern, S.Edges)) and (id(p), n) not in self._explicit:
            nb: list = [set() for _ in range(n + 1)]
            if isinstance(p, S.RandomPattern):
                r = _int(p.r)
                if r * n > EXPLICIT_MAX_ARCS or r > n:
                    raise Unsupported("too many random arcs to list")
                rng = random.Random(p.seed)  # the language defines random(r, seed=S) by Python's generator
                for i in range(1, n + 1):
                    nb[i].update(rng.sample(range(1, n + 1), r))
            else:
                for i, j in p.edges:
                    if 1 <= i <= n and 1 <= j <= n:
                        nb[i].add(j)
            self._explicit[(id(p), n)] = nb

    # -----------------------------------------------------------------------------------------
    def span(self, a: int, b: int) -> Intervals:
        out = [(a, b)]
        for p in self.patterns:
            out.extend(self._span(p, a, b, self.n))
        return normalise(out)

    def neighbourhood(self, v: int) -> Intervals:
        return self.span(v, v)

    def _span(self, p, a: int, b: int, n: int) -> list:  # noqa: C901 - one branch per pattern kind
        if isinstance(p, S.Full):
            return [(1, n)]
        if isinstance(p, S.Causal):
            return [(1, b)]
        if isinstance(p, S.Window):
            w = _int(p.w)
            if not p.cyclic:
                return [(max(1, a - w), min(n, b + w))]
            return _shift(a - w, b + w, 0, n, True)
        if isinstance(p, S.Offsets):
            out = []
            for o in p.offsets:
                out.extend(_shift(a, b, _int(o), n, p.cyclic))
            return out
        if isinstance(p, S.Dilated):
            w, r = _int(p.w), _int(p.r)
            out = []
            for k in range(1, w + 1):
                out.extend(_shift(a, b, k * r, n, False) + _shift(a, b, -k * r, n, False))
            return out
        if isinstance(p, S.Strided):
            s = _int(p.s)
            if s < 1:
                raise Unsupported("strided(0)")
            out = []
            for o in range(s, n, s):
                out.extend(_shift(a, b, o, n, False) + _shift(a, b, -o, n, False))
            return out
        if isinstance(p, S.Blocks):
            lo, _ = _monotone(p, a, n)
            _, hi = _monotone(p, b, n)
            return [(lo, hi)]
        if isinstance(p, (S.Global, S.Star, S.GlobalAt)):
            if isinstance(p, S.GlobalAt):
                glob = sorted(set(p.positions))
            else:
                g = 1 if isinstance(p, S.Star) else _int(p.g)
                glob = list(range(1, min(g, n) + 1))
            if any(a <= t <= b for t in glob):
                return [(1, n)]
            return [(t, t) for t in glob if 1 <= t <= n]
        if isinstance(p, S.Sinks):
            k = min(_int(p.k), n)
            return [(1, k)] if b > k and k >= 1 else []
        if isinstance(p, S.PatternUnion):
            out = []
            for part in p.parts:
                out.extend(self._span(part, a, b, n))
            return out
        if isinstance(p, S.PatternIntersection):
            parts = [q for q in p.parts if not isinstance(q, S.Full)]
            if not parts:
                return [(1, n)]
            lo = max(_monotone(q, a, n)[0] for q in parts)
            hi = min(_monotone(q, b, n)[1] for q in parts)
            return [(lo, hi)]
        if isinstance(p, S.Blockwise):
            bs = _int(p.b)
            nb = n // bs
            qa, qb = (a - 1) // bs + 1, (b - 1) // bs + 1
            blocks = [(1, nb)] if nb == 1 else normalise([(qa, qb)] + self._span(p.inner, qa, qb, nb))
            return [((lo - 1) * bs + 1, hi * bs) for lo, hi in blocks]
        if isinstance(p, (S.RandomPattern, S.Edges)):
            nb = self._explicit[(id(p), n)]
            return [(j, j) for v in range(a, b + 1) for j in nb[v]]
        raise Unsupported(f"pattern {type(p).__name__}")

    # -----------------------------------------------------------------------------------------
    def levels(self, i: int, limit: Optional[int] = None) -> list[Intervals]:
        """[L_0, L_1, ...]: L_t = {v : d(v → i) = t}, up to the receptive field (or `limit` levels)."""
        reached = [(i, i)]
        out = [[(i, i)]]
        frontier = [(i, i)]
        while frontier and (limit is None or len(out) <= limit):
            grown = normalise(x for lo, hi in frontier for x in self.span(lo, hi))
            new = subtract(grown, reached)
            if not new:
                break
            out.append(new)
            reached = normalise(reached + new)
            frontier = new
        return out

    def distance(self, j: int, i: int) -> Optional[int]:
        for t, level in enumerate(self.levels(i)):
            if contains(level, j):
                return t
        return None

    def receptive(self, i: int) -> Intervals:
        return normalise(x for level in self.levels(i) for x in level)


def _tokens(spec: S.Spec) -> int:
    n = spec.tokens
    if isinstance(n, bool) or not isinstance(n, int):
        raise Unsupported("the number of tokens is symbolic")
    return n


def head_spans(spec: S.Spec) -> list[Spans]:
    n = _tokens(spec)
    return [Spans([h.pattern], n) for h in spec.heads]


def union_spans(spec: S.Spec) -> Spans:
    return Spans([h.pattern for h in spec.heads], _tokens(spec))
