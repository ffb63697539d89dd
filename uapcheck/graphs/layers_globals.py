"""Per-layer windows with global tokens at any n, by arithmetic (docs/theory.md §21.13, Theorems F237–F239, F129,
Lemma AP).

One head per layer, every layer `window(w_ℓ)`, `window(w_ℓ) + global(g)` or `global(g)` (width 0), w_ℓ ≥ 0 an
integer, one global count g ≥ 1 shared by the layers that have globals (Longformer's global tokens on some or all
layers, its windows growing per layer). N_ℓ(v) = [v − w_ℓ, v + w_ℓ] ∩ [n] ∪ Γ_ℓ, and N_ℓ(γ) = [n] for γ ∈ Γ_ℓ,
where Γ_ℓ = [1, g] on a global layer and ∅ otherwise. R(m) = w_1 + ⋯ + w_m; a_1 < a_2 < ⋯ the global layers.
Layer kinds: P (no globals, w ≥ 1), Z (no globals, w = 0), GW (globals, w ≥ 1), G0 (globals, w = 0).

* F237 (reach, every n): after m layers x_j is read at A_m(j) = [j − R(m), j + R(m)] ∪ [1, c_m] ∩ [n], or at every
  position from the first global layer t whose globals meet A_{t−1}(j); so Φ is connected within a_2 layers at every
  n, and from n ≥ g + 2R(a_2) + 2 on not within a_2 − 1 (x_n does not reach position g + R(a_2 − 1) + 1): D_Φ = a_2.
* F238 (the group, n large): with a P layer among the network's, G is trivial; without, G = S_g × C_2 (any
  permutation of the globals, times the reflection i ↦ n + g + 1 − i of [g + 1, n]).
* F239 / Lemma AP (the least count, n from the start of ``claim_start`` on): write C_m for the layers ℓ < m followed by two global layers within m
  (seen whole by every root). No view witness at depth m ≥ a_2 iff, with G trivial, C_m holds a P layer, or C_m holds
  a GW layer and some P layer ℓ ≤ m is followed by a global layer within m; with G = S_g × C_2, iff C_m holds a GW
  layer. Otherwise a witness: a transposition of two far positions, or ρ_g (the reflection of [g + 1, n]).
* F129: a finite list (or a budget) with one global layer at most, or whose depth has a witness: NOT-UAP.

Nothing is materialised; below N* the caller keeps the arc engine (or reports the length open).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .. import spec as S


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class GlobalLayers:
    """The network's layers: widths w_ℓ and global counts g_ℓ ∈ {0, g}, one period (``periodic``) or the whole finite
    list (a budget applied)."""
    widths: tuple[int, ...]
    globals_: tuple[int, ...]
    periodic: bool

    @property
    def g(self) -> int:
        return max(self.globals_)

    @property
    def depth(self) -> Optional[int]:
        return None if self.periodic else len(self.widths)

    def width(self, layer: int) -> int:
        return self.widths[(layer - 1) % len(self.widths)]

    def is_global(self, layer: int) -> bool:
        return self.globals_[(layer - 1) % len(self.globals_)] > 0

    def kind(self, layer: int) -> str:
        w = self.width(layer)
        if self.is_global(layer):
            return "GW" if w >= 1 else "G0"
        return "P" if w >= 1 else "Z"

    def kinds(self) -> set[str]:
        return {self.kind(q) for q in range(1, len(self.widths) + 1)}

    def reach(self, m: int) -> int:
        """R(m) = w_1 + ⋯ + w_m."""
        p = len(self.widths)
        if self.periodic:
            q, r = divmod(m, p)
            return q * sum(self.widths) + sum(self.widths[:r])
        return sum(self.widths[:m])

    def global_layers(self, upto: int) -> list[int]:
        """The global layers ℓ ≤ ``upto`` among the network's."""
        top = upto if self.periodic else min(upto, len(self.widths))
        return [q for q in range(1, top + 1) if self.is_global(q)]

    def words(self) -> str:
        def one(w: int, g: int) -> str:
            return f"window({w}) + global({g})" if g else f"window({w})"
        inner = ", ".join(one(w, g) for w, g in zip(self.widths, self.globals_))
        return ("periodic { " if self.periodic else "sequence { ") + inner + " }"


def layer_of(p: S.Pattern) -> Optional[tuple[int, int]]:
    """(w, g) for `window(w)`, `global(g)`, `star`, `window(w) + global(g)` (either order; non-cyclic, integers); None
    otherwise."""
    if isinstance(p, S.Window):
        return (int(p.w), 0) if not p.cyclic and _nat(p.w) and int(p.w) >= 0 else None
    if isinstance(p, S.Global):
        return (0, int(p.g)) if _nat(p.g) and int(p.g) >= 1 else None
    if isinstance(p, S.Star):
        return (0, 1)
    if isinstance(p, S.PatternUnion) and len(p.parts) == 2:
        a, b = (layer_of(q) for q in p.parts)
        if a is None or b is None:
            return None
        kinds = sorted([a, b], key=lambda t: t[1])
        if kinds[0][1] == 0 and kinds[1][0] == 0 and kinds[1][1] >= 1:
            return kinds[0][0], kinds[1][1]
    return None


def unchanged_by_budget(pairs: Sequence[tuple[int, int]]) -> int:
    """A budget `layers M` on a periodic list with M at least this, a_2 + 3p (a_2 the second global layer, p the
    period; p + 1 without globals), leaves its decision unchanged: the network still has every layer kind of the period
    (F238), a_2 (F237) and every depth Lemma AP reads, up to a_2 + 3p (F239), so the list is kept periodic rather than
    unrolled into M layers."""
    p = len(pairs)
    glob = [k for k in range(1, 2 * p + 1) if pairs[(k - 1) % p][1] > 0]
    return (glob[1] if len(glob) >= 2 else 1) + 3 * p


def recognise(patterns: Sequence[S.Pattern], periodic: bool, budget: Optional[int] = None) -> Optional[GlobalLayers]:
    """The layers when every pattern is a window, a global part or their union, with at least one global layer and one
    global count shared by all (the budget `layers M` applied: a budget below the list's length cuts it, and the cut
    list no longer repeats); None otherwise."""
    pairs = []
    for p in patterns:
        got = layer_of(p)
        if got is None:
            return None
        pairs.append(got)
    if budget is not None and budget < len(pairs):
        pairs, periodic = pairs[:budget], False
    elif budget is not None and periodic and budget < unchanged_by_budget(pairs):
        pairs, periodic = [pairs[(k - 1) % len(pairs)] for k in range(1, budget + 1)], False
    gs = {g for _, g in pairs if g > 0}
    if len(gs) != 1:
        return None
    return GlobalLayers(tuple(w for w, _ in pairs), tuple(g for _, g in pairs), periodic)


def from_spec(spec: S.Spec) -> Optional[GlobalLayers]:
    """The file's layers when it has one head whose pattern is a per-layer list of §21.13's layers, else None."""
    if len(spec.heads) != 1:
        return None
    h = spec.heads[0]
    if not isinstance(h.pattern, S.PatternSequence) or h.bias is not None or h.position is not None:
        return None
    budget = int(spec.layers) if _nat(spec.layers) else None  # type: ignore[arg-type]  # _nat: an int
    return recognise(h.pattern.patterns, h.pattern.periodic, budget)


# ---------------------------------------------------------------------------------------------
# Reach (Theorem F237, every n)


def reached(L: GlobalLayers, n: int, j: int, m: int) -> tuple[bool, int, int, int]:
    """A_m(j), the positions reading x_j after m layers, as (full, lo, hi, c): [n] when full, else
    [lo, hi] ∪ [1, c] (c = 0: no prefix)."""
    full, lo, hi, c = False, j, j, 0
    top = m if L.periodic else min(m, len(L.widths))
    for ell in range(1, top + 1):
        w, glob = L.width(ell), L.is_global(ell)
        if glob and (c >= 1 or lo <= L.g):
            return True, 1, n, n
        lo, hi = max(1, lo - w), min(n, hi + w)
        c = min(n, c + w) if c >= 1 else 0
        if glob:
            c = max(c, min(L.g, n))
        if lo <= c + 1 and hi >= n:
            full = True
    return full, lo, hi, c


def connected_within(L: GlobalLayers, n: int, m: int) -> bool:
    """Every x_j reaches every position within m layers (F237's sets, every j)."""
    return all(reached(L, n, j, m)[0] for j in range(1, n + 1))


def depth_exact(L: GlobalLayers, n: int) -> Optional[int]:
    """D_Φ at any n by F237's sets (every j; for tests and small n): None when not within the network's depth."""
    if n <= 1:
        return 0
    a = L.global_layers(2 * len(L.widths) + 1 if L.periodic else len(L.widths))
    top = a[1] if len(a) >= 2 else (len(L.widths) if not L.periodic else None)
    if top is None:
        return None
    for m in range(0, top + 1):
        if connected_within(L, n, m):
            return m
    return None


def second_global(L: GlobalLayers) -> Optional[int]:
    """a_2, the second global layer of the network (None: at most one)."""
    a = L.global_layers(2 * len(L.widths) if L.periodic else len(L.widths))
    return a[1] if len(a) >= 2 else None


def reach_start(L: GlobalLayers, m: int) -> int:
    """F237's threshold g + 2R(m) + 2: from it on, no fewer than a_2 layers connect, nor a list with one global layer
    (m its depth)."""
    return L.g + 2 * L.reach(m) + 2


def unreached_pair(L: GlobalLayers, m: int) -> tuple[int, int]:
    """(i, j) with x_j not reaching i within m layers when n ≥ reach_start(L, m + 1) and m < a_2: (g + R(m) + 1, n) —
    named with n as the string "n" replaced by the caller."""
    return L.g + L.reach(m) + 1, 0


# ---------------------------------------------------------------------------------------------
# The group (Theorem F238) and the least count (Lemma AP, Theorem F239), n large


def group_kind(L: GlobalLayers) -> Optional[str]:
    """'trivial' (a P layer among the network's), 'globals' (no P layer, a GW layer: S_g × C_2), None (outside)."""
    kinds = L.kinds()
    if "P" in kinds:
        return "trivial"
    if "GW" in kinds:
        return "globals"
    return None


def whole_layers(L: GlobalLayers, m: int) -> list[int]:
    """C_m: the layers ℓ < m with at least two global layers in (ℓ, m] (seen whole by every root)."""
    glob = L.global_layers(m)
    return [ell for ell in range(1, m) if sum(1 for a in glob if a > ell) >= 2]


@dataclass(frozen=True)
class DepthVerdict:
    """Lemma AP at depth m: ``pins`` None when a view witness exists (``witness`` 'swap' or 'reflection'), else the
    layers whose conditions exclude every σ ∉ G (the whole layer(s), and the P layer before a global one)."""
    m: int
    witness: Optional[str]
    pins: tuple[int, ...]


def at_depth(L: GlobalLayers, m: int) -> DepthVerdict:
    """Lemma AP's case analysis at depth m ≥ a_2 (n at least the start of ``start``); the pinning layers of least width
    (their thresholds are the lowest)."""
    kind = group_kind(L)
    whole = whole_layers(L, m)

    def narrowest(layers: list[int]) -> Optional[int]:
        return min(layers, key=lambda q: (L.width(q), q)) if layers else None
    p_whole = narrowest([q for q in whole if L.kind(q) == "P"])
    gw_whole = narrowest([q for q in whole if L.kind(q) == "GW"])
    if kind == "globals":
        return DepthVerdict(m, None, (gw_whole,)) if gw_whole else DepthVerdict(m, "swap", ())
    if p_whole:
        return DepthVerdict(m, None, (p_whole,))
    if not gw_whole:
        return DepthVerdict(m, "swap", ())
    glob = L.global_layers(m)
    before = narrowest([q for q in range(1, m + 1) if L.kind(q) == "P" and any(a > q for a in glob)])
    if before:
        return DepthVerdict(m, None, (gw_whole, before))
    return DepthVerdict(m, "reflection", ())


def group_start(L: GlobalLayers) -> Optional[int]:
    """F238's threshold: trivial from max(3, min over P layers of 2w + 1, min over global layers of g + w + 2);
    S_g × C_2 from the least g + 2w + 2 over GW layers."""
    pairs = list(zip(L.widths, L.globals_))
    kind = group_kind(L)
    if kind == "trivial":
        return max(3, min(2 * w + 1 for w, h in pairs if not h and w), min(L.g + w + 2 for w, h in pairs if h))
    if kind == "globals":
        return min(L.g + 2 * w + 2 for w, h in pairs if h and w)
    return None


def pin_start(L: GlobalLayers, pins: Sequence[int]) -> int:
    """Where Lemma AP's no-witness cases hold with these pinning layers: a P layer p alone (G trivial),
    max(2w_p + 1, g + w_{a_1} + 2); a GW layer q with a P layer p, max(g + 2w_q + 2, g + w_p + 1); a GW layer q
    alone (G = S_g × C_2), g + 2w_q + 2."""
    g = L.g
    if len(pins) == 1 and L.kind(pins[0]) == "P":
        a1 = L.global_layers(pins[0] + 2 * len(L.widths))[0]
        return max(2 * L.width(pins[0]) + 1, g + L.width(a1) + 2)
    out = g + 2 * L.width(pins[0]) + 2
    return max(out, g + L.width(pins[1]) + 1) if len(pins) == 2 else out


def claim_start(L: GlobalLayers, m: Optional[int], v: Optional[DepthVerdict]) -> int:
    """The first n from which the stated decision holds (Theorems F237–F239, F129): F238's threshold; D_Φ = a_2 from
    g + 2R(a_2 − 1) + 2; the pinning layers' thresholds at the count m; the witness one layer below it (or at a finite
    network's whole depth) from g + 2R(depth) + 3; a network with one global layer at most never connects from
    g + 2R(k) + 2."""
    g, base = L.g, group_start(L) or 3
    a2 = second_global(L)
    if a2 is None:
        return max(base, g + 2 * L.reach(len(L.widths)) + 2)
    parts = [base, g + 2 * L.reach(a2 - 1) + 2]
    if m is None:  # a witness at the whole depth
        return max(*parts, g + 2 * L.reach(len(L.widths)) + 3)
    if m > a2:
        parts.append(g + 2 * L.reach(m - 1) + 3)
    if v is not None and v.pins:
        parts.append(pin_start(L, v.pins))
    return max(parts)


def count_bound(L: GlobalLayers) -> Optional[int]:
    """The depth at which Lemma AP's search stops: a finite network's depth, or for a periodic list a_2 + 3p (every
    ℓ ≤ a_2 + p has two whole periods after it, so C_m holds a whole period and every kind of it: Lemma AP's condition
    holds there)."""
    a2 = second_global(L)
    if a2 is None:
        return None
    return len(L.widths) if not L.periodic else a2 + 3 * len(L.widths)


def least_depth(L: GlobalLayers) -> tuple[Optional[int], Optional[DepthVerdict]]:
    """(the least m ≥ a_2 without a witness, its verdict) by Lemma AP; (None, the verdict at the whole depth) for a finite
    network whose depth keeps a witness; (None, None) outside (no second global layer or no group kind)."""
    a2, top = second_global(L), count_bound(L)
    if a2 is None or top is None or group_kind(L) is None:
        return None, None
    v = None
    for m in range(a2, top + 1):
        v = at_depth(L, m)
        if v.witness is None:
            return m, v
    return None, v


@dataclass(frozen=True)
class GlobalsDecision:
    """At n ≥ N*: D_Φ (None: the network has at most one global layer), the count (None: NOT-UAP with the witness of
    ``verdict`` at the whole depth, or not connected), the verdict at the count (its pinning layers) or at the whole
    depth."""
    n: int
    start: int
    depth: Optional[int]
    layers: Optional[int]
    verdict: Optional[DepthVerdict]


def decide(L: GlobalLayers, n: int) -> Optional[GlobalsDecision]:
    """The decision at an integer n within the theorems' range; None below it (or outside the class)."""
    if group_kind(L) is None:
        return None
    a2 = second_global(L)
    if a2 is None:  # finite, at most one global layer: never connected from the start on
        start = claim_start(L, None, None)
        return GlobalsDecision(n, start, None, None, None) if n >= start else None
    m, v = least_depth(L)
    start = claim_start(L, m, v)
    if n < start:
        return None
    return GlobalsDecision(n, start, a2, m, v)
