"""Per-layer causal heads with attention sinks at any n, for the verifier (docs/theory.md §21.9, Theorem F128).

The verifier's own reading of a head: an interval head of width w (verifier/causal_intervals.py) with `+ sinks(k)`,
attending at v to [max(1, v − w), v] and, when v > k, to 1, …, k; confirmed on the verifier's own arcs at a small
length. Sets of positions are kept as lists of disjoint intervals, and every step below runs over all positions:

    reach     In_m(v) by the recursion In_m(v) = ∪_{u ∈ N_m(v)} In_{m−1}(u) on interval lists, for every v — D_c the
              first m where In_m(v) = [1, v] for all v (n · m ≤ WORK; above, the step is trusted);
    covering  for every root i at depth m, some layer ℓ with a head of width ≥ 1 whose view V_ℓ(i) (the recursion of
              §21.3 on interval lists) is [1, i];
    witness   the transposition (j j + 1) (or (x y)) at the root and depth given: it keeps every V_ℓ, and for every
              v ∈ V_ℓ and head, σ(N(v)) = N(σ v), each N(v) compared as a set of intervals;
    twins     F145, F157: at every root, no two positions outside the view of the first layer of positive width lie in
              the same neighbourhoods of the positions of that view and of the earlier layers' views, themselves
              aside (their out-sets, intersected on interval lists).

Written from the statement of §21.9, not from the engine (uapcheck/graphs/layers_sinks.py)."""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from . import patterns
from .causal_intervals import INF, NotIntervals, _width
from .layer_table import layer_table

#: Above this many positions times layers the verifier does not recompute the step (it is trusted).
WORK = 4_000_000


def _head(p) -> tuple[float, int]:
    """(w, k) of a sink interval head (k = 0 without sinks); `sinks(k)` alone is width 0 with k sinks."""
    if isinstance(p, S.Sinks):
        if not isinstance(p.k, int) or isinstance(p.k, bool) or p.k < 1:
            raise NotIntervals("sinks given by a parameter (each value is read on its own)")
        return 0, int(p.k)
    if isinstance(p, S.PatternUnion):
        sinks = [q for q in p.parts if isinstance(q, S.Sinks)]
        rest = [q for q in p.parts if not isinstance(q, S.Sinks)]
        if sinks:
            if not rest or not all(isinstance(q.k, int) and not isinstance(q.k, bool) and q.k >= 1 for q in sinks):
                raise NotIntervals("sinks given by a parameter (each value is read on its own), or sinks alone")
            base = rest[0] if len(rest) == 1 else S.PatternUnion(tuple(rest))
            return _width(base), max(int(q.k) for q in sinks)
    return _width(p), 0


def _nb(w: float, k: int, v: int) -> list:
    """N(v) as disjoint intervals."""
    lo = 1 if w == INF else max(1, v - int(w))
    out = [(lo, v)]
    if v > k >= 1:
        out.append((1, k))
    return _norm(out)


def _norm(iv: list) -> list:
    iv = sorted(iv)
    out: list = []
    for a, b in iv:
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _points(iv: list):
    for a, b in iv:
        yield from range(a, b + 1)


class Sinks:
    def __init__(self, spec: S.Spec):
        n = spec.tokens
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise NotIntervals("sink heads are re-checked at an integer n")
        table = layer_table(spec, NotIntervals)
        self.n = n
        self.pats = table.rows
        self.rows = [[_head(p) for p in row] for row in self.pats]
        self.limit: Optional[int] = table.limit
        self.periodic = table.periodic
        self._confirm()

    def _confirm(self) -> None:
        seen = set()
        for row, heads in zip(self.pats, self.rows):
            for p, (w, k) in zip(row, heads):
                if (p, w, k) in seen:
                    continue
                seen.add((p, w, k))
                m = min(self.n, max(40, (0 if w == INF else int(w)) + k + 4), 640)
                got = {(j, i) for j, i in patterns.head_arcs(p, m) if j != i}
                want = {(j, i) for i in range(1, m + 1) for j in _points(_nb(w, k, i)) if j != i}
                if got != want:
                    raise NotIntervals(f"a head's arcs at n = {m} are not those of width {w} with {k} sinks")

    def row(self, layer: int) -> list:
        if self.limit is not None and layer > self.limit:
            raise NotIntervals(f"layer {layer} is beyond the network's depth")
        return self.rows[(layer - 1) % len(self.rows)]

    def views(self, i: int, m: int) -> list:
        """V_0 … V_m of root i at depth m, as interval lists."""
        out: list = [None] * (m + 1)
        out[m] = [(i, i)]
        for ell in range(m, 0, -1):
            acc: list = []
            cur = out[ell]
            # the union over v ∈ V_ℓ of N_ℓ(v): per head, the intervals of the interval points' windows and sinks
            for w, k in self.row(ell):
                for a, b in cur:
                    acc.append((1 if w == INF else max(1, a - int(w)), b))
                    if k >= 1 and b > k:
                        acc.append((1, k))
            out[ell - 1] = _norm(acc)
        return out

    def reached(self, m: int) -> Optional[tuple[int, int]]:
        """None when every prefix is reached within m layers, else (v, j) with x_j missing position v."""
        for v in range(2, self.n + 1):
            v0 = self.views(v, m)[0]
            if v0 != [(1, v)]:
                j = 1 if v0[0][0] > 1 else v0[0][1] + 1
                return v, j
        return None

    def covered(self, m: int) -> Optional[int]:
        """None when every root has a layer with a head of width ≥ 1 seen whole at depth m, else such a root."""
        for i in range(2, self.n + 1):
            vs = self.views(i, m)
            if not any(vs[ell] == [(1, i)] and any(w >= 1 for w, _ in self.row(ell)) for ell in range(1, m + 1)):
                return i
        return None

    def witness(self, i: int, m: int, j: int, j2: Optional[int] = None) -> bool:
        """§21.3's condition for σ = (j j2) at root i, depth m, j < j2 ≤ i (j2 = j + 1 unless given); each N(v)
        compared as a set."""
        j2 = j + 1 if j2 is None else j2
        if not 1 <= j < j2 <= i <= self.n:
            return False
        tau = {j: j2, j2: j}
        vs = self.views(i, m)
        for ell in range(1, m + 1):
            pts = set(_points(vs[ell]))
            if (j in pts) != (j2 in pts):
                return False
            for v in pts:
                for w, k in self.row(ell):
                    nv = _nb(w, k, v)
                    moved = _norm([(tau.get(x, x), tau.get(x, x)) for x in (j, j2) if any(a <= x <= b for a, b in nv)]
                                  + _cut(_cut(nv, j), j2))
                    if moved != _nb(w, k, tau.get(v, v)):
                        return False
        return True

    def first_chain(self) -> Optional[int]:
        """The first layer with a head of width ≥ 1 (every layer before it has heads of width 0, sinks allowed:
        the premise of F145 and F157); None when no layer of the first period has one."""
        ell = 1
        while self.limit is None or ell <= self.limit:
            if ell > len(self.rows):
                return None
            if any(w >= 1 for w, _ in self.row(ell)):
                return ell
            ell += 1
        return None

    def twins(self, ell: int, m: int) -> Optional[tuple[int, int, int]]:
        """(i, x, y): a root i at depth m and two positions x < y of [1, i] outside V_ℓ(i) that lie in the same
        neighbourhoods N_{ℓ′,h}(v) for every layer ℓ′ ≤ ℓ, head h and v ∈ V_ℓ′(i) other than x and y themselves
        (F145, F157); None when no root has such a pair."""
        for i in range(2, self.n + 1):
            views = self.views(i, m)
            view = views[ell]
            seen: dict = {}
            for x in range(1, i + 1):
                if any(a <= x <= b for a, b in view):
                    continue
                key = []
                for layer in range(1, ell + 1):
                    for w, k in self.row(layer):
                        # the v > x within w of it, and every v > k when x is a sink, intersected with the view
                        reach = ([(x + 1, i if w == INF else x + int(w))] if w >= 1 else []) \
                            + ([(k + 1, i)] if 1 <= x <= k < i else [])
                        key.append(tuple(_norm([(max(a, c), min(b, d)) for a, b in views[layer] for c, d in reach
                                                if max(a, c) <= min(b, d)])))
                got = seen.setdefault(tuple(key), x)
                if got != x:
                    return i, got, x
        return None


def _cut(iv: list, j: int) -> list:
    """The intervals without the point j."""
    out = []
    for a, b in iv:
        for lo, hi in ((a, min(b, j - 1)), (max(a, j + 1), b)):
            if lo <= hi:
                out.append((lo, hi))
    return out


def build(spec: S.Spec) -> Sinks:
    return Sinks(spec)
