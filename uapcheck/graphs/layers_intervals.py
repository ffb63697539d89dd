"""Per-layer causal interval patterns at any concrete n, by arithmetic (docs/theory.md §21.6, Theorem F121).

A head is an *interval head* of width w ∈ ℕ ∪ {∞} when it attends at v to N(v) = [max(1, v − w), v]: `causal`
(w = ∞), `causal & window(w)` (Mistral's and Gemma's sliding window), `offsets {−w, …, −1, 0}` (non-cyclic, the
offsets with 0 an interval ending at 0), and unions of those (the largest width). When every head of every layer is
one, nothing is materialised: the receptive set of v after m layers is [max(1, v − W(0, m]), v] with W(a, b] the sum
over the layers a + 1, …, b of each layer's largest head width, and Theorem F121 decides the causal view witnesses
at depth m from the widths of the first layer ℓ₁ with a width ≥ 1 and W(ℓ₁, m] alone. Positions are 1-based.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .. import spec as S

#: The width of a head that attends to every earlier position (`causal`).
INF = None


def interval_width(p: S.Pattern) -> tuple[bool, Optional[int]]:
    """(True, w) when `p` is an interval head of width w (None = ∞); (False, None) otherwise."""
    if isinstance(p, S.Causal):
        return True, INF
    if isinstance(p, S.PatternIntersection):
        parts = [q for q in p.parts if not isinstance(q, S.Full)]
        causal = [q for q in parts if isinstance(q, S.Causal)]
        windows = [q for q in parts if isinstance(q, S.Window)]
        if not causal or len(causal) + len(windows) != len(parts):
            return False, None
        if any(q.cyclic or not _nat(q.w) for q in windows):
            return False, None
        return True, (min(int(q.w) for q in windows) if windows else INF)
    if isinstance(p, S.Offsets):
        if p.cyclic or not all(_int(o) for o in p.offsets):
            return False, None
        offs = {int(o) for o in p.offsets} | {0}
        w = -min(offs)
        if max(offs) != 0 or offs != set(range(-w, 1)):
            return False, None
        return True, w
    if isinstance(p, S.PatternUnion):
        widths: list[Optional[int]] = []
        for q in p.parts:
            ok, part = interval_width(q)
            if not ok:
                return False, None
            widths.append(part)
        return True, (INF if INF in widths else max(x for x in widths if x is not None))
    return False, None


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _nat(v) -> bool:
    return _int(v) and v >= 0


def _add(a: Optional[int], b: Optional[int]) -> Optional[int]:
    return INF if a is INF or b is INF else a + b


def _ge(a: Optional[int], b: int) -> bool:
    """a ≥ b with a = None standing for ∞."""
    return a is INF or a >= b


@dataclass(frozen=True)
class IntervalLayers:
    """Φ of interval heads on n positions: ``widths[q]`` the head widths of layer q + 1 (None = ∞); periodic (layer ℓ
    uses ``widths[(ℓ − 1) mod p]``) or exactly ``len(widths)`` layers."""
    n: int
    widths: tuple[tuple[Optional[int], ...], ...]
    periodic: bool

    @property
    def period(self) -> int:
        return len(self.widths)

    @property
    def depth(self) -> Optional[int]:
        return None if self.periodic else len(self.widths)

    def union(self, layer: int) -> Optional[int]:
        """The largest head width of attention layer ``layer`` (1-based)."""
        ws = self.widths[(layer - 1) % self.period]
        return INF if INF in ws else max(w for w in ws if w is not None)

    def total(self, a: int, b: int) -> Optional[int]:
        """W(a, b]: the sum of the layers a + 1, …, b's largest widths (None: ∞), in O(period)."""
        return width_sum([self.union(q + 1) for q in range(self.period)], self.periodic, a, b)


def width_sum(unions: Sequence[Optional[int]], periodic: bool, a: int, b: int) -> Optional[int]:
    """W(a, b] = u_{a+1} + ⋯ + u_b (None: ∞) for the layers' widths `unions` (one period, or every layer of a finite
    list), in O(period)."""
    if b <= a:
        return 0
    p = len(unions)
    if not periodic:
        out: Optional[int] = 0
        for q in range(a, b):
            out = _add(out, unions[q])
        return out
    if b - a >= p:
        if INF in unions:
            return INF
        whole, rest = divmod(b - a, p)
        finite = [u for u in unions if u is not None]
        return whole * sum(finite) + sum(finite[(a + k) % p] for k in range(rest))
    out = 0
    for k in range(a, b):
        out = _add(out, unions[k % p])
    return out


def first_holding(holds: Callable[[int], bool], lo: int, hi: int) -> int:
    """The least m in (lo, hi] with holds(m), for a property monotone in m that fails at lo and holds at hi."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid
    return hi


def interval_layers(per_layer: Sequence[Sequence[S.Pattern]], periodic: bool, n: int) -> Optional[IntervalLayers]:
    """The widths when every head of every layer is an interval head; else None."""
    rows = []
    for pats in per_layer:
        row = []
        for p in pats:
            ok, w = interval_width(p)
            if not ok:
                return None
            row.append(w)
        rows.append(tuple(row))
    return IntervalLayers(n, tuple(rows), periodic)


@dataclass(frozen=True)
class IntervalReach:
    """``depth``: D_c (None: never within ``limit``); ``missing``: (i, j) with x_j not reaching i within depth − 1
    layers (or within the limit)."""
    depth: Optional[int]
    missing: Optional[tuple[int, int]]


def interval_reach(L: IntervalLayers, limit: Optional[int]) -> IntervalReach:
    """D_c = the least m with W(0, m] ≥ n − 1 (In_m(v) = [max(1, v − W(0, m]), v]); None when no m ≤ limit reaches
    (a periodic Φ without a budget: when a whole period has width 0)."""
    n = L.n
    if n <= 1:
        return IntervalReach(0, None)
    top = limit
    if top is None:
        per = L.total(0, L.period)
        if per == 0:
            return IntervalReach(None, (2, 1))
        top = L.period * ((n - 1) // per + 2) if per is not INF else L.period
    if not _ge(L.total(0, top), n - 1):
        return IntervalReach(None, _short(L, top))
    hi = first_holding(lambda m: _ge(L.total(0, m), n - 1), 0, top)  # W(0, 0] < n − 1 ≤ W(0, top]
    return IntervalReach(hi, _short(L, hi - 1))


def _short(L: IntervalLayers, m: int) -> tuple[int, int]:
    """The first position whose reach within m layers misses some earlier one, and the least missed (x_1): position
    W(0, m] + 2 (W finite and below n − 1)."""
    w = L.total(0, m)
    if w is INF:
        raise ValueError("the reach is complete")
    return (w + 2, 1)


def first_wide(L: IntervalLayers, m: int) -> Optional[int]:
    """ℓ₁: the first layer ≤ m with a head of width ≥ 1."""
    for ell in range(1, min(m, L.period) + 1):
        if _ge(L.union(ell), 1):
            return ell
    return None


@dataclass(frozen=True)
class IntervalWitness:
    """The transposition (j, j + 1) meets §21.3's condition at ``position`` (= n), depth ``depth`` (Theorem F121)."""
    position: int
    depth: int
    j: int
    layer: int      # ℓ₁
    above: int      # W(ℓ₁, depth]


def interval_witness(L: IntervalLayers, m: int) -> Optional[IntervalWitness]:
    """A causal view witness at depth m ≥ D_c, or None when there is none (Theorem F121, exact)."""
    ell = first_wide(L, m)
    if ell is None:
        return None
    above = L.total(ell, m)
    if above is INF:
        return None
    heads = L.widths[(ell - 1) % L.period]
    for t in sorted({0} | {w for w in heads if w is not INF}):
        if L.n < above + 3 + t:
            break
        if all((w is not INF and w <= t) or _ge(w, above + 2 + t) for w in heads):
            return IntervalWitness(L.n, m, L.n - above - 2 - t, ell, above)
    return None


@dataclass(frozen=True)
class IntervalLeast:
    """``layers``: the least m ≥ D_c without a causal view witness (None: a witness at ``top``, the whole depth);
    ``witness``: one at layers − 1 (when layers > D_c) or at ``top``."""
    layers: Optional[int]
    witness: Optional[IntervalWitness]
    top: int


def interval_least(L: IntervalLayers, depth: int, limit: Optional[int]) -> IntervalLeast:
    """The least m ≥ depth (= D_c) without a witness: witnesses are monotone in m (§21.5 (c)), so a bisection."""
    top = limit
    if top is None:  # periodic: W(ℓ₁, m] ≥ n − 2 leaves no witness (n < W + 3)
        per = L.total(0, L.period)
        top = depth + L.period * (L.n // max(1, per) + 2) if per is not INF else depth + 2 * L.period
    if depth > top:
        raise ValueError("the reach depth is above the network's depth")
    if interval_witness(L, depth) is None:
        return IntervalLeast(depth, None, top)
    at_top = interval_witness(L, top)
    if at_top is not None:
        if limit is None:
            raise AssertionError("internal error: a witness at the periodic search bound")
        return IntervalLeast(None, at_top, top)
    hi = first_holding(lambda m: interval_witness(L, m) is None, depth, top)  # a witness at depth, none at top
    return IntervalLeast(hi, interval_witness(L, hi - 1), top)


def witness_holds(L: IntervalLayers, position: int, m: int, j: int) -> bool:
    """§21.3's condition for the transposition (j, j + 1) at ``position`` and depth m, checked layer by layer on
    the interval heads (for tests: the definition, not Theorem F121): V_ℓ = [max(1, i − W(ℓ, m]), i]; at every
    v ∈ V_ℓ other than j, j + 1 each head's N(v) holds both or neither; at v = j (if j ∈ V_ℓ) N(j + 1) is N(j)
    with j replaced by j + 1."""
    i = position
    if not (1 <= j and j + 1 <= i):
        return False
    for ell in range(1, m + 1):
        above = L.total(ell, m)
        lo = 1 if above is INF else max(1, i - above)
        for w in L.widths[(ell - 1) % L.period]:
            if lo <= j:  # j (and j + 1 ≤ i) in V_ℓ: σ(N(j)) = N(j + 1) and σ(N(j + 1)) = N(j)
                img = set(range(_start(w, j), j + 1)) - {j} | {j + 1}
                if img != set(range(_start(w, j + 1), j + 2)):
                    return False
            elif lo == j + 1:
                return False  # j + 1 ∈ V_ℓ, j ∉ V_ℓ: σ does not keep V_ℓ
            # v ∈ V_ℓ ∖ {j, j + 1}: N(v) ∋ j ⟺ N(v) ∋ j + 1, i.e. no v with N(v) starting at j + 1
            if any(_start(w, v) == j + 1 for v in range(max(lo, j + 2), i + 1)):
                return False
    return True


def _start(w: Optional[int], v: int) -> int:
    """The first position of an interval head's N(v) = [max(1, v − w), v]."""
    return 1 if w is INF else max(1, v - w)
