"""Per-layer causal heads with attention sinks at any concrete n, without arcs (docs/theory.md §21.9, Theorem F128).

A *sink interval head* of width w ∈ ℕ ∪ {∞} with k ≥ 0 sinks attends at v to

    N(v) = [max(1, v − w), v] ∪ ([1, k] when v > k)

(`causal & window(w) + sinks(k)`, StreamingLLM's layout; k = 0 is §21.6's interval head). Every N(v) is an initial
segment [1, κ] and an interval ending at v, and so are the reach sets and the views (F128 (a), (b)):

    In_m(v) = [1, K_(0,m](v)] ∪ [max(1, v − W(0, m]), v],   V_ℓ(i) = [1, K_(ℓ,m](i)] ∪ [max(1, i − W(ℓ, m]), i]

with W(a, b] the layers' widths summed and K_(a,b](v) the largest sink count k < v of a head of a layer in (a, b].
D_c is decided at the positions v ∈ {n} ∪ {the sink counts}; sufficiency by the causal covering lemma (F128 (c)); the
count is the least when it is D_c or when a transposition of neighbours is a witness one layer below (F128 (d),
checked by the definition on the implicit neighbourhoods). Positions are 1-based; a width None is ∞.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from .. import spec as S
from .layers_intervals import first_holding, interval_width, width_sum

#: Depths searched for the covering (beyond them the rule is undecided).
MAX_DEPTH = 4096
#: The witness search one layer below the covering count runs when n · depth is at most this (else: not least).
WITNESS_WORK = 5_000_000


def sink_head(p: S.Pattern) -> Optional[tuple[Optional[int], int]]:
    """(w, k) for a sink interval head (k = 0 without sinks); None otherwise."""
    ok, w = interval_width(p)
    if ok:
        return w, 0
    if not isinstance(p, (S.PatternUnion, S.Sinks)):
        return None
    parts = p.parts if isinstance(p, S.PatternUnion) else (p,)
    sinks = [q for q in parts if isinstance(q, S.Sinks)]
    rest = [q for q in parts if not isinstance(q, S.Sinks)]
    if not sinks or not all(isinstance(q.k, int) and not isinstance(q.k, bool) and q.k >= 1 for q in sinks):
        return None
    if not rest:  # `sinks(k)` alone: the position itself and, after the sinks, the sinks (width 0)
        return 0, max(int(q.k) for q in sinks)
    ok, w = interval_width(rest[0] if len(rest) == 1 else S.PatternUnion(tuple(rest)))
    if not ok:
        return None
    return w, max(int(q.k) for q in sinks)


@dataclass(frozen=True)
class SinkLayers:
    """heads[q]: the (w, k) of each head of layer q + 1 (periodic: layer ℓ uses heads[(ℓ − 1) mod p]); `limit` the
    network's depth (None: any)."""
    n: int
    heads: tuple[tuple[tuple[Optional[int], int], ...], ...]
    periodic: bool
    limit: Optional[int]

    def row(self, layer: int) -> tuple[tuple[Optional[int], int], ...]:
        return self.heads[(layer - 1) % len(self.heads)]

    def width(self, layer: int) -> Optional[int]:
        ws = [w for w, _ in self.row(layer)]
        return None if None in ws else max(w for w in ws if w is not None)

    def has(self, layer: int) -> bool:
        return (self.periodic or layer <= len(self.heads)) and (self.limit is None or layer <= self.limit)

    def total(self, a: int, b: int) -> Optional[int]:
        """W(a, b] (None: ∞), in O(period)."""
        return width_sum([self.width(q + 1) for q in range(len(self.heads))], self.periodic, a, b)

    def sinks_below(self, a: int, b: int, v: int) -> int:
        """K_(a,b](v): the largest k < v of a head of a layer in (a, b] (0 if none)."""
        best = 0
        for q in range(len(self.heads)):
            if not any(a < ell <= b for ell in _layers_of(q, a, b, len(self.heads), self.periodic)):
                continue
            for _, k in self.heads[q]:
                if k < v and k > best:
                    best = k
        return best

    def counts(self) -> list[int]:
        return sorted({k for row in self.heads for _, k in row if k >= 1})


def _layers_of(q: int, a: int, b: int, p: int, periodic: bool):
    """The layers in (a, b] that use heads[q] (at most one representative is enough: yields the first)."""
    first = q + 1
    if not periodic:
        if a < first <= b:
            yield first
        return
    ell = first + ((a + 1 - first + p - 1) // p) * p if a + 1 > first else first
    if ell <= b:
        yield ell


def sink_layers(per_layer: Sequence[Sequence[S.Pattern]], periodic: bool, n: int,
                limit: Optional[int]) -> Optional[SinkLayers]:
    rows = []
    for pats in per_layer:
        row = []
        for p in pats:
            got = sink_head(p)
            if got is None:
                return None
            row.append(got)
        rows.append(tuple(row))
    return SinkLayers(n, tuple(rows), periodic, limit)


def _gap(L: SinkLayers, a: int, b: int, v: int) -> bool:
    """Some x_j, j < v, misses the positions that reach v through the layers a + 1, …, b: v − W(a, b] − 1 >
    K_(a,b](v)."""
    W = L.total(a, b)
    return W is not None and v - W - 1 > L.sinks_below(a, b, v)


def _candidates(L: SinkLayers) -> list[int]:
    """The positions where a gap shows first: n and each sink count (F128 (a): between two of them v − K(v) grows)."""
    return sorted({L.n} | {k for k in L.counts() if 2 <= k <= L.n})


def _top(L: SinkLayers, start: int) -> int:
    """The last depth searched: the network's depth, or for a periodic Φ enough periods for the widths to pass n
    (capped at MAX_DEPTH)."""
    if L.limit is not None:
        return L.limit
    per = L.total(0, len(L.heads))
    periods = 2 if per is None or per == 0 else L.n // per + 2
    return min(MAX_DEPTH, start + len(L.heads) * periods)


def _reached(L: SinkLayers, m: int) -> bool:
    return not any(_gap(L, 0, m, v) for v in _candidates(L))


def reach_depth(L: SinkLayers, top: int) -> tuple[Optional[int], Optional[tuple[int, int]]]:
    """(D_c, the pair (v, j) not reached within D_c − 1 layers) — (None, the pair at `top`) when no m ≤ top reaches.
    Reaching is monotone in m (the reach sets grow), so a bisection."""
    if L.n <= 1 or _reached(L, 0):
        return 0, None
    top = min(top, _top(L, 0))
    if not _reached(L, top):
        v = [v for v in _candidates(L) if _gap(L, 0, top, v)][-1]
        return None, (v, L.sinks_below(0, top, v) + 1)
    hi = first_holding(lambda m: _reached(L, m), 0, top)
    v = [v for v in _candidates(L) if _gap(L, 0, hi - 1, v)][-1]
    return hi, (v, L.sinks_below(0, hi - 1, v) + 1)


def covered(L: SinkLayers, m: int) -> bool:
    """F128 (c): at depth m every root i has a layer ℓ ≤ m with a head of width ≥ 1 whose view V_ℓ(i) is [1, i]
    (checked at i ∈ {n} ∪ {the sink counts}: between two of them the uncovered roots form a suffix). For a periodic
    Φ the first period's layers suffice: a later layer with the same heads has fewer layers above it, so it sees
    less of the prefix."""
    high = m if not L.periodic else min(m, len(L.heads))
    chains = [ell for ell in range(1, high + 1) if any(w is None or w >= 1 for w, _ in L.row(ell))]
    return all(any(not _gap(L, ell, m, i) for ell in chains) for i in _candidates(L))


def covering_depth(L: SinkLayers, start: int, top: int) -> Optional[int]:
    """The least m in [start, top] meeting the covering lemma: monotone in m (views grow), so a bisection."""
    start = max(start, 1)
    top = min(top, _top(L, start))
    if top < start or not covered(L, top):
        return None
    return first_holding(lambda m: covered(L, m), start - 1, top)


def _nb(w: Optional[int], k: int, v: int, x: int) -> bool:
    """x ∈ N(v) for the head (w, k)."""
    if x > v or x < 1:
        return False
    return w is None or x >= v - w or (v > k and x <= k)


def _in_view(L: SinkLayers, ell: int, m: int, i: int, x: int) -> bool:
    """x ∈ V_ℓ(i) at depth m (F128 (b))."""
    if x > i or x < 1:
        return False
    W = L.total(ell, m)
    return W is None or x >= i - W or x <= L.sinks_below(ell, m, i)


def transposition_holds(L: SinkLayers, i: int, m: int, j: int) -> bool:
    """§21.3's condition for σ = (j j + 1) at root i and depth m, on the implicit neighbourhoods, with j + 1 ≤ i
    (σ then moves the prefix of i): σ keeps every V_ℓ(i), and for every v ∈ V_ℓ(i) and head h,
    σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v). For v ∉ {j, j + 1} that is: N(v) holds both or neither; the v holding exactly one are
    v = j + 1 + w (j + 1 its window's first position) and, when j = k, every v > max(k, j + 1 + w); for v = j, j + 1
    it is N(j + 1) ∖ {j + 1} = N(j) ∖ {j}."""
    if not 1 <= j < i:
        return False
    for ell in range(1, m + 1):
        a, b = _in_view(L, ell, m, i, j), _in_view(L, ell, m, i, j + 1)
        if a != b:
            return False
        for w, k in L.row(ell):
            if a and not _pair_heads_match(w, k, j):
                return False
            v = j + 1 + w if w is not None else None
            if v is not None and v <= i and _in_view(L, ell, m, i, v) and v not in (j, j + 1) \
                    and _nb(w, k, v, j) != _nb(w, k, v, j + 1):
                return False
            if k >= 1 and j == k:
                low = max(k, j + 1 + (w if w is not None else i)) + 1
                if low <= i:  # i itself is such a v: every view V_ℓ(i) holds its root
                    return False
    return True


def _pair_heads_match(w: Optional[int], k: int, j: int) -> bool:
    """N(j + 1) ∖ {j + 1} = N(j) ∖ {j}: never with a width ≥ 1 (j ∈ N(j + 1)); with width 0 the sinks of j and j + 1
    agree (j ≠ k)."""
    if w is None or w >= 1:
        return False
    return k == 0 or j != k


def find_witness(L: SinkLayers, m: int) -> Optional[tuple[int, int]]:
    """A transposition (j j + 1) meeting the condition at root n and depth m: (n, j), or None."""
    i = L.n
    for j in range(1, i):
        if transposition_holds(L, i, m, j):
            return i, j
    return None


def key_layer(L: SinkLayers) -> Optional[int]:
    """ℓ₁ of Theorems F145 and F157: the first layer with a head of width ≥ 1 (every layer before it has heads of
    width 0 only, with or without sinks); None when the network has no such layer within its first period."""
    top = len(L.heads) if L.limit is None else min(len(L.heads), L.limit)
    for ell in range(1, top + 1):
        if any(w is None or w >= 1 for w, _ in L.row(ell)):
            return ell
    return None


def early_counts(L: SinkLayers, ell: int) -> tuple[int, ...]:
    """The sink counts of the heads of the layers before ℓ₁ (F157: a witness keeps each [1, k] with k below its root)."""
    return tuple(sorted({k for q in range(1, ell) for _, k in L.row(q) if k >= 1}))


def out_key(L: SinkLayers, ell: int, a: int, i: int, x: int) -> tuple:
    """x's out-sets in V_ℓ(i) through the heads of layer ℓ, for x in the gap [K + 1, a − 1] (F145): per head (w, k)
    the set [a, min(i, x + w)] ∪ ([max(a, k + 1), i] when x ≤ k), as (last of the window part or a − 1, first of
    the sink part or i + 1), the two parts merged when they touch; then (F157) the number of the earlier layers' sink
    counts k < i with x ≤ k (x's band: x lies in the neighbourhood {v} ∪ [1, k] of every v ∈ (k, i] there)."""
    out: list = []
    for w, k in L.row(ell):
        c = i if w is None else min(i, max(a - 1, x + w))
        s = max(a, k + 1) if k >= x else i + 1
        if s <= c + 1:
            c, s = i, i + 1
        out.append((c, s))
    out.append(sum(1 for k in early_counts(L, ell) if x <= k < i))
    return tuple(out)


def gap_of(L: SinkLayers, ell: int, m: int, i: int) -> tuple[int, int, int]:
    """(K, a, i): V_ℓ(i) = [1, K] ∪ [a, i] at depth m (F128 (b)); the gap is [K + 1, a − 1]."""
    W = L.total(ell, m)
    a = 1 if W is None else max(1, i - W)
    return L.sinks_below(ell, m, i), a, i


def twin_at(L: SinkLayers, ell: int, m: int, i: int) -> Optional[tuple[int, int]]:
    """Two gap positions x < y of root i with equal out-keys (F145: (x y) is a causal view witness), or None."""
    K, a, _ = gap_of(L, ell, m, i)
    seen: dict = {}
    for x in range(K + 1, a):
        key = out_key(L, ell, a, i, x)
        if key in seen:
            return seen[key], x
        seen[key] = x
    return None


def key_work(L: SinkLayers, ell: int, m: int) -> int:
    """The positions the F145 search at depth m visits (every root's gap), times the heads of layer ℓ₁."""
    W = L.total(ell, m)
    if W is None:
        return 0
    return sum(max(0, i - W - 1 - L.sinks_below(ell, m, i)) for i in range(W + 2, L.n + 1)) * len(L.row(ell))


def key_witness(L: SinkLayers, ell: int, m: int) -> Optional[tuple[int, int, int]]:
    """(i, x, y): a root i and twins x < y at depth m (F145), or None — then no causal view witness at depth m."""
    W = L.total(ell, m)
    if W is None:
        return None
    for i in range(W + 2, L.n + 1):
        got = twin_at(L, ell, m, i)
        if got is not None:
            return i, got[0], got[1]
    return None


@dataclass(frozen=True)
class SinkCount:
    depth: Optional[int]                  # D_c
    missing: Optional[tuple[int, int]]    # (v, j): x_j misses v within D_c − 1 (or within the limit)
    layers: Optional[int]                 # the count (None: none within the limit or the search)
    least: bool
    witness: Optional[tuple[int, int, int]]  # (position, depth, j) at layers − 1: the transposition (j j + 1)
    reason: str = ""
    keys: Optional[int] = None            # ℓ₁ when F145 decides the count exactly (no twins at `layers`)
    twin: Optional[tuple[int, int, int, int]] = None  # (position, depth, x, y) at layers − 1: the transposition (x y)


def decide(L: SinkLayers) -> SinkCount:
    top = L.limit if L.limit is not None else MAX_DEPTH
    d, missing = reach_depth(L, top)
    if d is None:
        return SinkCount(None, missing, None, False, None, "not reached")
    m = covering_depth(L, max(d, 1), top)
    if m is None:
        exact = _by_keys(L, d, missing, L.limit if L.limit is not None else _top(L, max(d, 1)))
        if exact is not None:
            return exact
        return SinkCount(d, missing, None, False, None,
                         f"no depth up to {top} meets the covering lemma (F128 (c))")
    if m == max(d, 1):
        return SinkCount(d, missing, m, True, None)
    exact = _by_keys(L, d, missing, m)
    if exact is not None:
        return exact
    wit = find_witness(L, m - 1) if m - 1 >= max(d, 1) and L.n * m <= WITNESS_WORK else None
    if wit is not None:
        return SinkCount(d, missing, m, True, (wit[0], m - 1, wit[1]))
    return SinkCount(d, missing, m, False, None)


def _by_keys(L: SinkLayers, d: int, missing, m: int) -> Optional[SinkCount]:
    """F145: the least depth in [max(D_c, 1), m] without twins at any root (witnesses are monotone in the depth), with
    the twins one layer below it; None outside F145's premise or its work, or when depth m has twins too."""
    ell = key_layer(L)
    low = max(d, 1)
    if ell is None or ell > low or m < low or key_work(L, ell, low) > WITNESS_WORK \
            or key_witness(L, ell, m) is not None:
        return None
    exact = first_holding(lambda t: key_witness(L, ell, t) is None, low, m) \
        if key_witness(L, ell, low) is not None else low
    if exact == low:
        return SinkCount(d, missing, exact, True, None, keys=ell)
    i, x, y = key_witness(L, ell, exact - 1) or (0, 0, 0)
    return SinkCount(d, missing, exact, True, None, keys=ell, twin=(i, exact - 1, x, y))


@dataclass(frozen=True)
class SinkForm:
    """F128 (e) at a symbolic n: C layers, least, for every n ≥ start (C = c₁, the first layer of width ∞, after ℓ₁,
    the first layer with a head of width ≥ 1); with params the start is a formula in them."""
    layers: int
    start: Any
    first_wide: int


def _chain_before_global(heads: tuple, periodic: bool, limit: Optional[int]) -> Optional[tuple[int, int]]:
    """(ℓ₁, c₁): the first layer with a head of width ≥ 1 (a param width counts: it is at least 1) and the first
    layer of width ∞, among the network's layers; None unless ℓ₁ < c₁ (F128 (e)'s premise)."""
    p = len(heads)
    top = 2 * p if periodic else p
    if limit is not None:
        top = min(top, limit)

    def row(ell):
        return heads[(ell - 1) % p]
    chain = next((ell for ell in range(1, top + 1) if any(w is None or isinstance(w, str) or w >= 1
                                                         for w, _ in row(ell))), None)
    c1 = next((ell for ell in range(1, top + 1) if any(w is None for w, _ in row(ell))), None)
    if chain is None or c1 is None or chain >= c1:
        return None
    return chain, c1


def _rows_before_global(heads: tuple, periodic: bool, limit: Optional[int]) -> Optional[tuple[int, int, list]]:
    """(ℓ₁, c₁, the heads of layers 1, …, c₁ − 1), or None outside F128 (e)'s premise (``_chain_before_global``)."""
    got = _chain_before_global(heads, periodic, limit)
    if got is None:
        return None
    chain, c1 = got
    return chain, c1, [heads[(ell - 1) % len(heads)] for ell in range(1, c1)]


def sink_form(heads: tuple, periodic: bool, limit: Optional[int]) -> Optional[SinkForm]:
    """The count at a symbolic n when a layer of width ∞ follows the first layer with a head of width ≥ 1 (None:
    outside F128 (e))."""
    got = _rows_before_global(heads, periodic, limit)
    if got is None:
        return None
    chain, c1, rows = got
    W = sum(max(w for w, _ in r if w is not None) if r else 0 for r in rows)
    K = max([k for r in rows for _, k in r] + [0])
    every = max([k for r in heads for _, k in r] + [0])  # a length below a sink count is not one the file allows
    return SinkForm(c1, max(2, W + K + 2, every), chain)


# ---------------------------------------------------------------------------------------------
# Param widths and sink counts at a symbolic n (F128 (e) read with params)


def param_sink_head(p: S.Pattern, lower: dict) -> Optional[tuple]:
    """(w, k) of a sink interval head whose window or sink count may be a param (a name, declared `integer >= 1`);
    None otherwise."""
    from .layers_interval_forms import FormOutside, form_width
    parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
    sinks = [q for q in parts if isinstance(q, S.Sinks)]
    rest = [q for q in parts if not isinstance(q, S.Sinks)] if sinks else [p]
    counts: list = []
    for q in sinks:
        k = q.k
        if isinstance(k, str) and not k.startswith("-") and (lower.get(k) or 0) >= 1:
            counts.append(k)
        elif isinstance(k, int) and not isinstance(k, bool) and k >= 1:
            counts.append(k)
        else:
            return None
    if sinks and (not rest or len(counts) != 1):
        return None
    try:
        w = form_width(rest[0] if len(rest) == 1 else S.PatternUnion(tuple(rest)), lower)
    except FormOutside:
        return None
    return w, (counts[0] if counts else 0)


def param_sink_form(heads: tuple, periodic: bool, limit: Optional[int], lower: dict) -> Optional[SinkForm]:
    """F128 (e) with params: C = c₁ for every n ≥ max(2, W(0, c₁ − 1] + K + 2, k*), a formula in the params (W the
    layers' widths before c₁, K the largest sink count before c₁, k* the largest of all); None outside (e) or when a
    layer's width is the larger of a param and an integer above its lower bound."""
    import sympy
    from .layers_interval_forms import FormOutside, _max, _sym

    def size(x):
        return _sym(x) if isinstance(x, str) else sympy.Integer(x)
    got = _rows_before_global(heads, periodic, limit)
    if got is None:
        return None
    chain, c1, rows = got
    try:
        widths = [_max([w for w, _ in r], lower) for r in rows]
    except FormOutside:
        return None
    W = sum((size(w) for w in widths), sympy.Integer(0))
    K = sympy.Max(0, *[size(k) for r in rows for _, k in r])
    every = sympy.Max(0, *[size(k) for r in heads for _, k in r])
    return SinkForm(c1, sympy.Max(2, W + K + 2, every), chain)


def instantiate(heads: tuple, values: dict) -> tuple:
    """The heads with each param replaced by its value."""
    def value(x):
        return values[x] if isinstance(x, str) else x
    return tuple(tuple((value(w), value(k)) for w, k in row) for row in heads)


# ---------------------------------------------------------------------------------------------
# Finite widths with sinks at a symbolic n (Theorem F146)


@dataclass(frozen=True)
class SinkGrowth:
    """Theorem F146 at a symbolic n: periodic sink interval heads of finite widths under F145's premise have the count
    D_c(n) = Σ_r ⌈(n − 1 − k* − S_r)/P⌉, least, for every n ≥ start (start ≤ N₁, each length in [start, N₁) decided
    exactly by F145 at that n)."""
    layers: Any          # the formula in n
    start: int
    bound: int           # N₁
    first_wide: int      # ℓ₁
    period: int
    total: int           # P
    offsets: tuple       # S_0, …, S_{p−1}
    top_sink: int        # k*


#: How far below N₁ the start is sharpened by F145's decision at each length.
GROWTH_SHARPEN = 512


def growth_terms(heads: tuple) -> Optional[tuple[int, int, int, list[int], int]]:
    """(ℓ₁, N₁, P, [S_r], k*) of F146 for periodic integer heads of finite widths under F145's premise; None outside."""
    if any(w is None for row in heads for w, _ in row):
        return None
    ell = key_layer(SinkLayers(2, heads, True, None))
    if ell is None:
        return None
    p = len(heads)
    width = [max(w for w, _ in row) for row in heads]
    total = sum(width)
    offsets = [sum(width[:r]) for r in range(p)]
    counts = sorted({k for row in heads for _, k in row if k >= 1})
    top = max(counts, default=0)
    g0 = max((v - 1 - max((k for k in counts if k < v), default=0) for v in range(1, top + 1)), default=0)
    before = sum(width[(q - 1) % p] for q in range(1, ell + p))  # W(0, ℓ₁ + p − 1]
    return ell, max(2, top + 2 + before, top + 1 + g0), total, offsets, top


def growth_count(total: int, offsets: Sequence[int], top: int, n: int) -> int:
    """Σ_r ⌈(n − 1 − k* − S_r)/P⌉ at an integer n."""
    return sum(-((-(n - 1 - top - s)) // total) for s in offsets)


def sink_growth(heads: tuple, periodic: bool, limit: Optional[int], tokens: str) -> Optional[SinkGrowth]:
    """F146's form (None outside it): the formula, N₁, and the start sharpened down from N₁ while F145's exact
    decision at the length has the formula's count, least."""
    import sympy
    if not periodic or limit is not None:
        return None
    got = growth_terms(heads)
    if got is None:
        return None
    ell, bound, total, offsets, top = got
    n = sympy.Symbol(tokens, integer=True, positive=True)
    layers = sympy.Add(*[sympy.ceiling((n - 1 - top - s) / sympy.Integer(total)) for s in offsets])
    start = bound
    while start > max(2, top, bound - GROWTH_SHARPEN):
        c = decide(SinkLayers(start - 1, heads, True, None))
        if not (c.least and c.layers == growth_count(total, offsets, top, start - 1)):
            break
        start -= 1
    return SinkGrowth(layers, start, bound, ell, len(heads), total, tuple(offsets), top)
