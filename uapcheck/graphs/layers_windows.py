"""Per-layer two-sided windows at any n, by arithmetic (docs/theory.md §21.12, Theorems F231–F234, Lemma AO).

One head per layer, every layer a non-cyclic `window(w_ℓ)` with an integer width (N_ℓ(v) = [v − w_ℓ, v + w_ℓ] ∩ [n]):
`pattern periodic { window(a), window(b), … }` (Longformer's growing windows repeated) or `pattern sequence { … }`
(exactly these layers), a budget `layers M` cutting either. R(m) = w_1 + ⋯ + w_m.

* F231: x_j reaches i within m layers iff |i − j| ≤ R(m), so D_Φ = the least m with R(m) ≥ n − 1, and x_n does not
  reach position 1 within D_Φ − 1; for a period of p layers with P = R(p) ≥ 1, D_Φ(n) = Σ_{r<p} ⌈(n − 1 − S_r)/P⌉
  (n ≥ 2, S_r the first r widths' sum).
* F232: G is the reflection iff n ≥ 2w_* + 1, w_* the least positive width of the network's layers (n ≥ 3).
* Lemma AO / F233: at depth m ≥ D_Φ, a layer ℓ ≤ m with w_ℓ ≥ 1, n ≥ 2w_ℓ + 1, r_ℓ + w_ℓ ≥ n − 2 and
  n ≤ 2r_ℓ + 2 (r_ℓ = R(m) − R(ℓ)) pins every view-keeping σ to Aut(window(w_ℓ)) = G: D_Φ layers suffice, least. The
  first layer of positive width always qualifies when n ≥ 2u + 1 (u its width).
* F234: a finite Φ (or a budget) of depth k is NOT-UAP when R(k) < n − 1 (x_n never reaches position 1).

Nothing is materialised; where no layer qualifies (n ≤ 2u and no later layer pins G), the caller falls back to the
arc engine of graphs/layers.py or reports the count open.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from typing import ClassVar, Optional, Sequence, Union

import sympy

from .. import spec as S


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class WindowLayers:
    """The widths of the network's layers: one period (``periodic``) or the whole finite list (a budget applied)."""
    widths: tuple[int, ...]
    periodic: bool
    #: whether the layers are `window(w) cyclic` (graphs/layers_cyclic_windows.CyclicLayers) or non-cyclic windows
    cyclic: ClassVar[bool] = False

    def width(self, layer: int) -> int:
        """w_ℓ (1-based); a finite list's layers beyond its length do not exist (width 0 is never read there)."""
        if self.periodic:
            return self.widths[(layer - 1) % len(self.widths)]
        return self.widths[layer - 1]

    @property
    def depth(self) -> Optional[int]:
        """The network's depth (None: any, periodic)."""
        return None if self.periodic else len(self.widths)

    @cached_property
    def prefix(self) -> tuple[int, ...]:
        """R(0), R(1), …, R(len(widths)): read once, so R(m) costs no sum over the list (a budget of 10⁶ layers
        unrolls a period into 10⁶ widths, and the searches below read R at every layer)."""
        return (0, *accumulate(self.widths))

    def reach(self, m: int) -> int:
        """R(m) = w_1 + ⋯ + w_m."""
        if self.periodic:
            q, r = divmod(m, len(self.widths))
            return q * self.prefix[-1] + self.prefix[r]
        return self.prefix[min(m, len(self.widths))]

    def words(self) -> str:
        inner = ", ".join(f"window({w}){' cyclic' if self.cyclic else ''}" for w in self.widths)
        return ("periodic { " if self.periodic else "sequence { ") + inner + " }"


def recognise(patterns: Sequence[S.Pattern], periodic: bool, budget: Optional[int] = None,
              kind: type[WindowLayers] = WindowLayers) -> Optional[WindowLayers]:
    """The widths when every pattern of the list is a `window(w)` with an integer w ≥ 0, cyclic exactly when ``kind``
    is (one head), the budget `layers M` applied (a budget below the list's length cuts it, and the cut list no longer
    repeats; a budget on a periodic list unrolls it); None otherwise."""
    widths = []
    for p in patterns:
        if not isinstance(p, S.Window) or p.cyclic != kind.cyclic or not _nat(p.w) or int(p.w) < 0:
            return None
        widths.append(int(p.w))
    if not widths:
        return None
    if budget is not None and budget < len(widths):
        return kind(tuple(widths[:budget]), False)
    if budget is not None and periodic:
        return kind(tuple(widths[(k - 1) % len(widths)] for k in range(1, budget + 1)), False)
    return kind(tuple(widths), periodic)


def from_spec(spec: S.Spec, kind: type[WindowLayers] = WindowLayers) -> Optional[WindowLayers]:
    """The file's layers when it has one head whose pattern is a per-layer list of windows (§21.12; cyclic ones,
    §21.15, for ``kind`` CyclicLayers), else None. A budget is an integer here (the parser refuses a named one)."""
    if len(spec.heads) != 1:
        return None
    h = spec.heads[0]
    if not isinstance(h.pattern, S.PatternSequence) or h.bias is not None or h.position is not None:
        return None
    budget = int(spec.layers) if _nat(spec.layers) else None  # type: ignore[arg-type]  # _nat: an int
    return recognise(h.pattern.patterns, h.pattern.periodic, budget, kind)


# ---------------------------------------------------------------------------------------------
# Concrete n


def reach_depth(L: WindowLayers, n: int) -> Optional[int]:
    """D_Φ (F231): the least m with R(m) ≥ n − 1; None when no layer count the network has reaches it."""
    if n <= 1:
        return 0
    total = sum(L.widths)
    if L.periodic:
        if total == 0:
            return None
        p = len(L.widths)
        return sum(max(0, -(-(n - 1 - L.reach(r)) // total)) for r in range(p))
    m = bisect_left(L.prefix, n - 1)  # the prefix sums do not decrease: the first m with R(m) ≥ n − 1
    return m if m <= len(L.widths) else None


def least_positive(L: WindowLayers) -> Optional[int]:
    """w_*: the least positive width of the network's layers (None: every layer has width 0)."""
    return min((w for w in L.widths if w > 0), default=None)


def is_reflection(L: WindowLayers, n: int) -> bool:
    """F232: G is the reflection i ↦ n + 1 − i iff n ≥ 2w_* + 1 (for n ≥ 3)."""
    w = least_positive(L)
    return w is not None and n >= 3 and n >= 2 * w + 1


def pinning_layer(L: WindowLayers, n: int, m: int) -> Optional[int]:
    """Lemma AO at depth m: the first layer ℓ ≤ m with w_ℓ ≥ 1, n ≥ 2w_ℓ + 1, r_ℓ + w_ℓ ≥ n − 2 and n ≤ 2r_ℓ + 2,
    r_ℓ = R(m) − R(ℓ) (every view-keeping σ then preserves layer ℓ's window, whose group is the reflection); None."""
    total = L.reach(m)
    for ell in range(1, m + 1):
        w = L.width(ell)
        r = total - L.reach(ell)
        if w >= 1 and n >= 2 * w + 1 and r + w >= n - 2 and n <= 2 * r + 2:
            return ell
        if ell > len(L.widths) and L.periodic:
            break  # the conditions only get harder further on (r falls, the widths repeat)
    return None


@dataclass(frozen=True)
class WindowsDecision:
    """At a concrete n: D_Φ (None: not reached within the network's depth, F234), the pair not reached one layer below
    it (or at the whole depth), the layer Lemma AO pins at depth D_Φ (None: not decided here)."""
    n: int
    depth: Optional[int]
    missing: Optional[tuple[int, int]]
    pinned: Optional[int]


def decide(L: WindowLayers, n: int) -> WindowsDecision:
    d = reach_depth(L, n)
    if d is None:
        return WindowsDecision(n, None, (1, n), None)
    missing = (1, n) if d >= 1 else None
    pinned = pinning_layer(L, n, d) if d >= 1 and is_reflection(L, n) else None
    return WindowsDecision(n, d, missing, pinned)


def reaches(L: WindowLayers, n: int, i: int, j: int, m: int) -> bool:
    """x_j reaches position i within m layers (F231's closed form: |i − j| ≤ R(m))."""
    return 1 <= i <= n and 1 <= j <= n and abs(i - j) <= L.reach(m)


# ---------------------------------------------------------------------------------------------
# Symbolic n (periodic lists)


Size = Union[int, sympy.Expr]


@dataclass(frozen=True)
class WindowsForm:
    """F231 and F233 at a symbolic n: for n ≥ ``start`` (= max(3, 2u + 1), u the first positive width) G is the
    reflection and ``layers`` = Σ_{r<p} ⌈(n − 1 − S_r)/P⌉ layers are needed and suffice (least)."""
    layers: sympy.Expr
    start: int
    first_wide: int  # ℓ₁
    period: int
    total: int  # P
    prefix: tuple[int, ...]  # S_0, …, S_{p−1}


def reach_formula(prefix: Sequence[int], total: int, tokens: str = "n") -> sympy.Expr:
    """Σ_r ⌈(n − 1 − S_r)/P⌉ (equal S_r grouped), the number of m ≥ 0 with R(m) < n − 1 (n ≥ 2)."""
    n = sympy.Symbol(tokens, integer=True, positive=True)
    out = sympy.Integer(0)
    for s_r in sorted(set(prefix)):
        out += list(prefix).count(s_r) * sympy.ceiling((n - 1 - s_r) / sympy.Integer(total))
    return out


def symbolic_form(L: WindowLayers, tokens: str = "n") -> Optional[WindowsForm]:
    """The form of a periodic list with a positive width; None otherwise (a finite list, or every width 0)."""
    if not L.periodic or sum(L.widths) == 0:
        return None
    p = len(L.widths)
    first = next(q for q in range(1, p + 1) if L.widths[q - 1] >= 1)
    prefix = tuple(L.reach(r) for r in range(p))
    start = max(3, 2 * L.widths[first - 1] + 1)
    return WindowsForm(reach_formula(prefix, sum(L.widths), tokens), start, first, p, sum(L.widths), prefix)
