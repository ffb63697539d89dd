"""Per-layer cyclic windows at any n, by arithmetic (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ).

One head per layer, every layer a `window(w_ℓ) cyclic` with an integer width (N_ℓ(v) = the positions within cyclic
distance w_ℓ of v): `pattern periodic { window(a) cyclic, … }` or `pattern sequence { … }`, a budget `layers M` cutting
either. R(m) = w_1 + ⋯ + w_m, h = ⌊n/2⌋ (the largest cyclic distance).

* F139 (reach): x_j reaches i within m layers iff d(i, j) ≤ R(m), so D_Φ = the least m with R(m) ≥ h, and x_(1 + h)
  does not reach position 1 within D_Φ − 1; for a period of p layers with P = R(p) ≥ 1,
  D_Φ(n) = Σ_{r<p} ⌈(h − S_r)/P⌉ (n ≥ 2). G = D_n iff n ≥ 2w_* + 3 (n ≥ 5; w_* the least positive width).
* Lemma AQ: at depth m ≥ D_Φ, a layer ℓ ≤ m with w_ℓ ≥ 1, n ≥ 2w_ℓ + 3 and n − 2r_ℓ − 2 ≤ w_ℓ (r_ℓ = R(m) − R(ℓ): the
  positions a root does not see at layer ℓ form one arc whose span is at most w_ℓ) pins every view-keeping σ to
  Aut(window(w_ℓ) cyclic) = D_n = G: D_Φ layers suffice, least (F160).
* F160 at a symbolic n (periodic lists): whether some layer of the first period meets Lemma AQ at depth D_Φ depends on
  n mod 2P alone from n ≥ T = max(2w_max + 3, 2P + 2) on; when it holds on every class, D_Φ layers are least from the
  first length `start` after which it holds at every n.

Nothing is materialised; where no layer qualifies, the caller falls back to the arc engine or reports the count open.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional, Sequence, cast

import sympy

from .. import spec as S
from . import layers_windows as windows
from .layers_windows import WindowLayers


@dataclass(frozen=True)
class CyclicLayers(WindowLayers):
    """The widths of the network's `window(w) cyclic` layers (the windows' layer list, R(m) read off its prefix sums)."""
    cyclic: ClassVar[bool] = True


def recognise(patterns: Sequence[S.Pattern], periodic: bool, budget: Optional[int] = None) -> Optional[CyclicLayers]:
    """The widths when every pattern is a `window(w) cyclic` with an integer w ≥ 0 (one head), the budget applied (a
    budget below the list's length cuts it; a budget on a periodic list unrolls it); None otherwise."""
    return cast(Optional[CyclicLayers], windows.recognise(patterns, periodic, budget, CyclicLayers))


def from_spec(spec: S.Spec) -> Optional[CyclicLayers]:
    """The file's layers when it has one head whose pattern is a per-layer list of cyclic windows, else None."""
    return cast(Optional[CyclicLayers], windows.from_spec(spec, CyclicLayers))


def reach_depth(L: CyclicLayers, n: int) -> Optional[int]:
    """D_Φ (F139): the least m with R(m) ≥ ⌊n/2⌋; None when no layer count the network has reaches it."""
    h = n // 2
    if h == 0:
        return 0
    total = sum(L.widths)
    if L.periodic:
        if total == 0:
            return None
        return sum(max(0, -(-(h - L.reach(r)) // total)) for r in range(len(L.widths)))
    return next((m for m in range(1, len(L.widths) + 1) if L.reach(m) >= h), None)


def least_positive(L: CyclicLayers) -> Optional[int]:
    return min((w for w in L.widths if w > 0), default=None)


def is_dihedral(L: CyclicLayers, n: int) -> bool:
    """G = D_n (F139): some layer's window(w) cyclic with n ≥ 2w + 3 (Aut = D_n there, §11.4), D_n keeping every one."""
    w = least_positive(L)
    return w is not None and n >= 2 * w + 3


def meets_aq(L: CyclicLayers, n: int, m: int, ell: int) -> bool:
    """Lemma AQ's premises at depth m and layer ℓ ≤ m."""
    w = L.width(ell)
    r = L.reach(m) - L.reach(ell)
    return 1 <= ell <= m and w >= 1 and n >= 2 * w + 3 and n - 2 * r - 2 <= w


def pinning_layer(L: CyclicLayers, n: int, m: int) -> Optional[int]:
    """The first layer ℓ ≤ m meeting Lemma AQ at depth m, or None (for a periodic list only the first period is read:
    a later layer ℓ + p has the same width and a smaller r)."""
    top = m if not L.periodic else min(m, len(L.widths))
    return next((ell for ell in range(1, top + 1) if meets_aq(L, n, m, ell)), None)


@dataclass(frozen=True)
class CyclicDecision:
    """At a concrete n: D_Φ (None: not reached within the network's depth) and the layer Lemma AQ pins at D_Φ."""
    n: int
    depth: Optional[int]
    pinned: Optional[int]


def decide(L: CyclicLayers, n: int) -> CyclicDecision:
    d = reach_depth(L, n)
    pinned = pinning_layer(L, n, d) if d is not None and d >= 1 and is_dihedral(L, n) else None
    return CyclicDecision(n, d, pinned)


def far_position(n: int) -> int:
    """The position at cyclic distance ⌊n/2⌋ from 1."""
    return 1 + n // 2


# ---------------------------------------------------------------------------------------------
# Symbolic n (periodic lists)


@dataclass(frozen=True)
class CyclicForm:
    """For n ≥ ``start``: G = D_n and ``layers`` = Σ_{r<p} ⌈(⌊n/2⌋ − S_r)/P⌉ layers, least (F160)."""
    layers: sympy.Expr
    start: int
    periodic_from: int  # T: from here on the premises depend on n mod 2P alone


def reach_formula(L: CyclicLayers, tokens: str = "n") -> sympy.Expr:
    n = sympy.Symbol(tokens, integer=True, positive=True)
    total = sum(L.widths)
    prefix = [L.reach(r) for r in range(len(L.widths))]
    out = sympy.Integer(0)
    for s_r in sorted(set(prefix)):
        out += prefix.count(s_r) * sympy.ceiling((sympy.floor(n / 2) - s_r) / sympy.Integer(total))
    return out


def periodic_from(L: CyclicLayers) -> int:
    """T = max(2w_max + 3, 2P + 2): every width's window has D_n as its group and D_Φ ≥ p (⌊n/2⌋ > P)."""
    return max(2 * max(L.widths) + 3, 2 * sum(L.widths) + 2, 5)


def symbolic_form(L: CyclicLayers, tokens: str = "n") -> Optional[CyclicForm]:
    """The form of a periodic list with a positive width when Lemma AQ pins a layer at D_Φ on every class of n mod 2P
    from T on; ``start`` the least length from which it holds at every n. None otherwise."""
    if not L.periodic or sum(L.widths) == 0:
        return None
    T = periodic_from(L)
    period = 2 * sum(L.widths)
    if any(decide(L, n).pinned is None for n in range(T, T + period)):
        return None
    start = T
    while start > 5 and decide(L, start - 1).pinned is not None:
        start -= 1
    return CyclicForm(reach_formula(L, tokens), start, T)
