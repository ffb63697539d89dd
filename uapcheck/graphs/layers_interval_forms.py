"""Per-layer causal interval heads at a symbolic n (docs/theory.md §21.8, Theorem F123).

Theorem F121 (§21.6, graphs/layers_intervals.py) decides the least number of layers for causal targets at one
concrete n from the head widths. Here n is symbolic. Let ℓ₁ be the first layer of positive width, c₁ the first layer
of width ∞ (`causal`) and C the first layer after ℓ₁ of width ∞ (C = c₁ when ℓ₁ < c₁; the next ∞ layer when ℓ₁ = c₁).
When C is a layer the network has, the count is C for every n from a sharp start on, and below it a step function of
n (nondecreasing, §21.8), given as pieces:

* integer widths: the start and the pieces are computed by F121 at concrete lengths (the count is nondecreasing in
  n, so each piece is found by bisection and is checked at its ends);
* a width given by one param w (every positive finite width is w; widths 0 and ∞ as they are): the pieces are
  closed forms in w and n (F123 (b)–(c)).

Positions are 1-based; `None` is the width ∞, a `str` the param's name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

import sympy

from .. import spec as S
from .layers_intervals import IntervalLayers, first_holding, interval_least, interval_reach, interval_width

Width = Union[int, str, None]
Size = Union[int, sympy.Expr]


class FormOutside(Exception):
    """The file is outside Theorem F123: the message names the premise that fails."""


def form_width(p: S.Pattern, lower: dict) -> Width:
    """The width of an interval head whose window may be a param (`causal & window(w)`, `param w integer >= 1`);
    raises FormOutside for any other head. `lower` maps each param to its lower bound."""
    if isinstance(p, S.PatternIntersection):
        parts = [q for q in p.parts if not isinstance(q, S.Full)]
        wins = [q for q in parts if isinstance(q, S.Window)]
        named = [q.w for q in wins if isinstance(q.w, str) and not q.cyclic]
        if named and any(isinstance(q, S.Causal) for q in parts) and len(parts) == 2:
            name = named[0]
            if name.startswith("-") or lower.get(name) is None or lower[name] < 1:
                raise FormOutside(f"the window's width {name} is not a param declared `integer >= 1`")
            return name
    if isinstance(p, S.PatternUnion):
        widths = [form_width(q, lower) for q in p.parts]
        return _max(widths, lower)
    ok, w = interval_width(p)
    if not ok:
        if _has_sinks(p):
            raise FormOutside("a head with `sinks(k)` is not an interval head (Theorem F128 decides sinks at a "
                              "concrete n)")
        raise FormOutside("a head is not an interval head (`causal`, `causal & window(w)`, `offsets {-w, …, 0}` "
                          "or a union of those)")
    return w


def _has_sinks(p) -> bool:
    if isinstance(p, S.Sinks):
        return True
    return isinstance(p, (S.PatternUnion, S.PatternIntersection)) and any(_has_sinks(q) for q in p.parts)


def _max(widths: Sequence[Width], lower: dict) -> Width:
    """The largest of interval widths (a union's width; a layer's width u_ℓ)."""
    if any(w is None for w in widths):
        return None
    names = {w for w in widths if isinstance(w, str)}
    ints = [w for w in widths if isinstance(w, int)]
    if not names:
        return max(ints)
    if len(names) > 1:
        raise FormOutside(f"widths given by different params ({', '.join(sorted(names))})")
    name = names.pop()
    if ints and max(ints) > lower[name]:
        raise FormOutside(f"the largest of {name} and {max(ints)} depends on {name}")
    return name


@dataclass(frozen=True)
class FormLayers:
    """The head widths of the network's layers: rows[q] for layer q + 1 (periodic: layer ℓ uses rows[(ℓ − 1) mod p]);
    `limit` the network's depth (None: any); `param` the name of the one param width, with its lower bound."""
    rows: tuple[tuple[Width, ...], ...]
    periodic: bool
    limit: Optional[int]
    param: Optional[str] = None
    lower: int = 1

    def row(self, layer: int) -> tuple[Width, ...]:
        return self.rows[(layer - 1) % len(self.rows)]

    def union(self, layer: int) -> Width:
        return _max(self.row(layer), {self.param: self.lower} if self.param else {})

    def has(self, layer: int) -> bool:
        return layer <= (self.limit if self.limit is not None else layer) and (self.periodic or layer <= len(self.rows))

    def at(self, n: int, w: Optional[int] = None) -> IntervalLayers:
        """The interval layers at a concrete n (the param's width set to w)."""
        def value(x: Width) -> Optional[int]:
            if isinstance(x, str):
                if w is None:
                    raise ValueError("a param width needs a value")
                return w
            return x
        rows = tuple(tuple(value(x) for x in r) for r in self.rows)
        return IntervalLayers(n, rows, self.periodic)


def read_form_layers(spec: S.Spec) -> FormLayers:
    """The widths of the network's layers at a symbolic n (FormOutside names what is not covered)."""
    from ..rules.layers import budget_of, layer_patterns, network_rows
    lower = {p.name: p.lower for p in spec.params if p.constraint.startswith("integer")}
    try:
        per_layer, periodic = layer_patterns(spec)
    except ValueError as exc:
        raise FormOutside(str(exc)) from None
    rows = tuple(tuple(form_width(p, lower) for p in pats) for pats in per_layer)
    names = {w for r in rows for w in r if isinstance(w, str)}
    if len(names) > 1:
        raise FormOutside(f"widths given by different params ({', '.join(sorted(names))})")
    param = names.pop() if names else None
    rows, periodic, limit = network_rows(rows, periodic, budget_of(spec))
    bound = lower.get(param) if param else None
    return FormLayers(rows, periodic, limit, param, bound if bound is not None else 1)


@dataclass(frozen=True)
class Piece:
    """The lengths lower ≤ n < upper, with their least count for causal targets."""
    lower: Size
    upper: Size
    layers: Size


@dataclass(frozen=True)
class IntervalForm:
    """Theorem F123's answer: `layers` (= C) for every n ≥ `start`, least; `pieces` the lengths 1 ≤ n < start."""
    layers: int
    start: Size
    pieces: tuple[Piece, ...]
    first_wide: int      # ℓ₁
    first_global: int    # c₁
    bound: int           # N₀ = max(W(0, c₁ − 1] + 2, θ(C − 1)): the count is C from here on by the theorem (integers)


def _horizon(L: FormLayers) -> int:
    return len(L.rows) * 2 if L.periodic else len(L.rows)


def structure(L: FormLayers) -> tuple[int, int, int]:
    """(ℓ₁, c₁, C); FormOutside when a premise fails."""
    top = _horizon(L)
    wide = [ell for ell in range(1, top + 1) if L.has(ell) and L.union(ell) != 0]
    if not wide:
        raise FormOutside("no layer the network has has a positive width (the prefixes are never reached)")
    first = wide[0]
    globals_ = [ell for ell in range(1, top + 1) if L.has(ell) and L.union(ell) is None]
    after = [ell for ell in globals_ if ell > first]
    if not after:
        raise FormOutside("no layer of width ∞ (`causal`) after the first layer of positive width among the "
                          "layers the network has: the count grows with n, and its closed form is not derived "
                          "(Theorem F123's premise)")
    return first, globals_[0], after[0]


def _witness_threshold(L: FormLayers, first: int, m: int) -> int:
    """θ(m) (integer widths): a causal view witness exists at depth m ≥ D_c iff n ≥ θ(m); W(ℓ₁, m] finite. By F121,
    θ = W + 3 + t for the least t ≥ 0 with every head of ℓ₁ at most t or at least W + 2 + t."""
    W = 0
    for ell in range(first + 1, m + 1):
        u = L.union(ell)
        assert isinstance(u, int)
        W += u
    heads = [w for w in L.row(first) if w is not None]
    for t in sorted({0} | {int(w) for w in heads}):
        if all(int(w) <= t or int(w) >= W + 2 + t for w in heads):
            return W + 3 + t
    raise AssertionError("t = the largest width always qualifies")


def count_at(L: FormLayers, n: int, w: Optional[int] = None) -> int:
    """The least count at one concrete n by Theorem F121 (ValueError when F121 gives no count: not reached, or a
    witness at the whole depth)."""
    if n <= 1:
        return 1
    I = L.at(n, w)
    if not L.periodic and L.limit is not None and L.limit < len(I.widths):
        I = IntervalLayers(n, I.widths[:L.limit], False)
    reach = interval_reach(I, L.limit)
    if reach.depth is None:
        raise ValueError(f"not reached at n = {n}")
    least = interval_least(I, reach.depth, L.limit)
    if least.layers is None:
        raise ValueError(f"a witness at the whole depth at n = {n}")
    return least.layers


def _runs(L: FormLayers, below: int, w: Optional[int] = None) -> tuple[Piece, ...]:
    """The lengths 1 ≤ n < below as runs of one count, by bisection (the count is nondecreasing in n, §21.8)."""
    out = []
    lo = 1
    while lo < below:
        v = count_at(L, lo, w)
        a, b = lo, below - 1  # count(a) = v; find the last n ≤ below − 1 with count v
        if count_at(L, b, w) == v:
            a = b
        else:
            while b - a > 1:
                mid = (a + b) // 2
                if count_at(L, mid, w) == v:
                    a = mid
                else:
                    b = mid
        out.append(Piece(lo, a + 1, v))
        lo = a + 1
    return tuple(out)


def integer_form(L: FormLayers) -> IntervalForm:
    """F123 (a) for integer widths."""
    first, c1, C = structure(L)
    S0 = 0
    for ell in range(1, c1):
        u = L.union(ell)
        assert isinstance(u, int)
        S0 += u
    bound = S0 + 2
    if C > c1:  # ℓ₁ = c₁: a witness at every depth c₁ ≤ m < C from θ(C − 1) on
        bound = max(bound, _witness_threshold(L, first, C - 1))
    if count_at(L, bound) != C:
        raise AssertionError("internal error: F121 at the bound differs from Theorem F123")
    hi = first_holding(lambda n: count_at(L, n) >= C, 1, bound)  # count(1) = 1 < C = count(bound)
    return IntervalForm(C, hi, _runs(L, hi), first, c1, bound)


def _sym(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, integer=True, positive=True)


def param_form(L: FormLayers, tokens: str = "n") -> IntervalForm:
    """F123 (b)–(c): every positive finite width is the param w (widths 0 and ∞ as they are); `tokens` names n."""
    assert L.param is not None
    w, n = _sym(L.param), _sym(tokens)
    first, c1, C = structure(L)
    pieces: list[Piece] = [Piece(1, 2, 1)]
    if first < c1:  # (b): the w-layers p_1 < … < p_k before c₁
        p = [ell for ell in range(1, c1) if L.union(ell) == L.param]
        k = len(p)
        pieces.append(Piece(2, 3, p[0]))
        if k == 1:
            start: Size = 3
        else:
            pieces.append(Piece(3, 2 * w + 2, p[1]))
            pieces += _progression(p[2:], 3, lambda r: (r - 1) * w + 2, sympy.ceiling((n - 1) / w))
            start = k * w + 2
        return IntervalForm(C, start, _merged(pieces), first, c1, 0)
    # (c): ℓ₁ = c₁; the w-layers q_1 < … < q_K in (c₁, C)
    q = [ell for ell in range(c1 + 1, C) if L.union(ell) == L.param]
    K = len(q)
    pieces.append(Piece(2, 3, c1))
    if any(x == L.param for x in L.row(c1)):
        if L.lower < 2:
            raise FormOutside(f"layer {c1} (the first of positive width, of width ∞) has a head of width {L.param}, "
                              f"and whether n = 3 has a witness there depends on whether {L.param} = 1: declare "
                              f"`param {L.param} integer >= 2`")
        if K == 0:
            start = 3
        else:
            pieces.append(Piece(3, 2 * w + 3, q[0]))
            pieces += _progression(q[1:], 2, lambda J: J * w + 3, sympy.floor((n - 3) / w))
            start = (K + 1) * w + 3
    else:
        if K == 0:
            start = 3
        else:
            pieces += _progression(q, 1, lambda J: (J - 1) * w + 3, sympy.ceiling((n - 2) / w))
            start = K * w + 3
    return IntervalForm(C, start, _merged(pieces), first, c1, 0)


def _progression(layers: list, r0: int, low, index) -> list:
    """Pieces [low(r), low(r + 1)) with count layers[r − r0], r = r0, r0 + 1, …: one piece in closed form when there
    are three or more and the layers are in arithmetic progression (count layers[0] + d·(index − r0), `index` the
    expression of r in n on those lengths), else one piece per r."""
    if len(layers) >= 3:
        d = layers[1] - layers[0]
        if all(layers[i] == layers[0] + i * d for i in range(len(layers))):
            return [Piece(low(r0), low(r0 + len(layers)), sympy.expand(layers[0] + d * (index - r0)))]
    return [Piece(low(r), low(r + 1), layers[r - r0]) for r in range(r0, r0 + len(layers))]


def _merged(pieces: list) -> tuple[Piece, ...]:
    """Adjacent pieces with one integer count joined (n = 1 and n = 2 at 1 layer: n ≤ 2)."""
    out: list[Piece] = []
    for p in pieces:
        if out and isinstance(p.layers, int) and out[-1].layers == p.layers and out[-1].upper == p.lower:
            out[-1] = Piece(out[-1].lower, p.upper, p.layers)
        else:
            out.append(p)
    return tuple(out)


def interval_form(L: FormLayers, tokens: str = "n") -> "IntervalForm | GrowingForm":
    if growing(L):
        return growing_form(L, tokens)
    if L.param is not None and any(isinstance(w, int) and w > 0 for r in L.rows for w in r):
        raise FormOutside(f"positive integer widths beside the param width {L.param} (Theorem F123 takes one param "
                          "width, with widths 0 and ∞)")
    return param_form(L, tokens) if L.param is not None else integer_form(L)


# ---------------------------------------------------------------------------------------------
# Finite widths only: a count that grows with n (docs/theory.md §21.10, Theorem F137)


def growing(L: FormLayers) -> bool:
    """Theorem F137's case: a periodic Φ whose layers all have finite widths (no `causal` head)."""
    return L.periodic and L.limit is None and all(x is not None for r in L.rows for x in r)


@dataclass(frozen=True)
class GrowingForm:
    """Theorem F137's answer: for every n ≥ `start` the least count is D_c(n) = `layers`, the least m with
    W(0, m] ≥ n − 1, in closed form Σ_{r=0}^{p−1} ⌈(n − 1 − S_r)/P⌉; `pieces` the lengths 1 ≤ n < start (None with a param width: the start
    is then 2u, not shown sharp, and the lengths below it are not decided)."""
    layers: sympy.Expr
    start: Size
    pieces: Optional[tuple[Piece, ...]]
    first_wide: int      # ℓ₁
    bound: Size          # 2u, u the width of layer ℓ₁: the count is D_c(n) from here on by the theorem
    period: int          # p
    total: Size          # P = W(0, p]
    prefix: tuple[Size, ...]  # S_0, …, S_{p−1}


def reach_formula(prefix: Sequence[Size], total: Size, tokens: str = "n") -> sympy.Expr:
    """D_c(n) = #{m ≥ 1 : W(0, m − 1] < n − 1} = Σ_r ⌈(n − 1 − S_r)/P⌉ (each S_r ≤ P, n ≥ 2), equal S_r grouped."""
    n = _sym(tokens)
    out = sympy.Integer(0)
    for s_r in sorted(set(prefix), key=sympy.default_sort_key):
        out += list(prefix).count(s_r) * sympy.ceiling((n - 1 - s_r) / sympy.Integer(1) / total)
    return out


def _param_growing(L: FormLayers, tokens: str) -> GrowingForm:
    """F137 (a)–(b) with a param width among the finite widths: D_c(n) in closed form for every n ≥ the start of
    Theorem F158 (the sharp start in w, or a start at most 2u)."""
    w = _sym(str(L.param))
    p = len(L.rows)
    widths: list[Size] = [w if isinstance(x, str) else int(x)  # type: ignore[arg-type]
                          for x in (L.union(q) for q in range(1, p + 1))]
    total = sum(widths, sympy.Integer(0))
    prefix = tuple(sum(widths[:r], sympy.Integer(0)) for r in range(p))
    first = next(q for q in range(1, p + 1) if widths[q - 1] != 0)
    bound = 2 * widths[first - 1]
    return GrowingForm(reach_formula(prefix, total, tokens), param_start(L, bound), None, first, bound, p, total,
                       prefix)


def at_value(L: FormLayers, value: int) -> FormLayers:
    """The layers with the param's width set to `value` (integer widths)."""
    return FormLayers(tuple(tuple(value if isinstance(x, str) else x for x in row) for row in L.rows), L.periodic,
                      L.limit)


def flip_bound(L: FormLayers) -> int:
    """Z of Theorem F158: every comparison the sharp start makes (F137 (c) at the depths ℓ₁ … ℓ₁ + p − 1) is between
    a·w + b and a′·w + b′ with 0 ≤ b, b′ ≤ Z, so its truth is the same for every w > Z."""
    ints = [x for row in L.rows for x in row if isinstance(x, int)]
    unions = [u for u in (L.union(q) for q in range(1, len(L.rows) + 1)) if isinstance(u, int)]
    return 2 * sum(unions) + max(ints, default=0) + 3


def param_start(L: FormLayers, bound: Size) -> Size:
    """Theorem F158: the sharp start N_s(w) by F137 (c) at each w ≥ L below Z + 1; beyond, one affine form A(w) (the
    same depths have a witness for every w > Z), read at two values. The start stated is
    min(2u, max(A(w), S₀)), S₀ the largest N_s(w) over the w < w₀ where N_s(w) ≠ A(w) (none: A alone): at least
    N_s(w) for every w ≥ L, and equal to it wherever it is A(w) and w ≥ w₀."""
    w = _sym(str(L.param))
    high = max(L.lower, flip_bound(L) + 1)
    a0, a1 = sharp_start(at_value(L, high)), sharp_start(at_value(L, high + 1))
    form = sympy.expand(a0 + (a1 - a0) * (w - high))
    small = {v: sharp_start(at_value(L, v)) for v in range(L.lower, high)}
    off = [v for v, got in small.items() if got != form.xreplace({w: v})]
    start = form if not off else _larger(form, sympy.Integer(max(small[v] for v in range(L.lower, max(off) + 1))),
                                         w, L.lower)
    return _larger(start, sympy.sympify(bound, strict=True), w, L.lower, smaller=True)  # safe: strict (SymPy)


def _larger(a: sympy.Expr, b: sympy.Expr, w: sympy.Symbol, low: int, smaller: bool = False) -> sympy.Expr:
    """max(a, b) (min with `smaller`) over the integers w ≥ low for affine a, b: the one that is larger (smaller) at
    w = low and stays so, else Max(a, b) (Min)."""
    d = sympy.expand(a - b) * (-1 if smaller else 1)
    slope, at = d.coeff(w), d.xreplace({w: low})
    if at >= 0 and slope >= 0:
        return a
    if at <= 0 and slope <= 0:
        return b
    return sympy.Min(a, b) if smaller else sympy.Max(a, b)


def growing_form(L: FormLayers, tokens: str = "n") -> GrowingForm:
    """F137 for integer widths: the start is one past the last length with a causal view witness at depth D_c(n)
    (only depths m with W(ℓ₁, m] ≤ u − 2 can have one, and at such an m the lengths with D_c(n) = m and a witness are
    an interval: n ≥ θ(m) by F121)."""
    if L.param is not None:
        return _param_growing(L, tokens)
    p = len(L.rows)
    unions = [int(L.union(q)) for q in range(1, p + 1)]  # type: ignore[arg-type]
    total = sum(unions)
    if total == 0:
        raise FormOutside("every layer has width 0: the prefixes are never reached")
    prefix = tuple(sum(unions[:r]) for r in range(p))
    first = next(q for q in range(1, p + 1) if unions[q - 1] >= 1)
    start = sharp_start(L)
    return GrowingForm(reach_formula(prefix, total, tokens), start, _runs(L, start), first, 2 * unions[first - 1], p,
                       total, prefix)


def sharp_start(L: FormLayers) -> int:
    """F137 (c) for integer widths: one past the last length with a causal view witness at depth D_c(n)."""
    p = len(L.rows)
    unions = [int(L.union(q)) for q in range(1, p + 1)]  # type: ignore[arg-type]
    first = next(q for q in range(1, p + 1) if unions[q - 1] >= 1)
    u = unions[first - 1]

    def W(a: int, b: int) -> int:
        return sum(unions[(q - 1) % p] for q in range(a + 1, b + 1))
    last_bad = 1
    m = first
    while W(first, m) <= u - 2:  # ends within a period: layer ℓ₁ + p has width u
        lo, hi = W(0, m - 1) + 2, W(0, m) + 1
        if max(_witness_threshold(L, first, m), lo) <= hi:
            last_bad = hi
        m += 1
    return last_bad + 1


def piece_at(form: "IntervalForm | GrowingForm", n: int, values: dict, tokens: str = "n") -> int:
    """The form's count at a concrete n (values: the param's value, by name)."""
    subs = {_sym(k): v for k, v in values.items()}
    subs[_sym(tokens)] = n

    def num(x) -> int:
        return x if isinstance(x, int) else int(sympy.sympify(x, strict=True).xreplace(subs))  # safe: strict
    if n >= num(form.start):
        return num(form.layers)
    hits = [p for p in form.pieces or () if num(p.lower) <= n < num(p.upper)]
    if len(hits) != 1:
        raise ValueError(f"the pieces do not partition the lengths below the range at n = {n}")
    return num(hits[0].layers)


# ---------------------------------------------------------------------------------------------
# Finite widths with a budget: UAP below a length, NOT-UAP from it on (docs/theory.md §21.10, Theorem F159)

#: The lengths below the split are listed one by one (each with its count by F121) up to this many.
SPLIT_LISTED = 1024


@dataclass(frozen=True)
class BudgetSplit:
    """Theorem F159's answer for M layers of finite widths: UAP for causal targets at every n < `start` (`pieces`:
    the lengths 1 ≤ n < start as runs of one count, the least by F121), NOT-UAP for every n ≥ `start` (N*)."""
    start: int                  # N* = min(W(0, M] + 2, θ_M), or 2 without a layer of positive width
    depth: int                  # M, the network's depth
    reach_end: int              # W(0, M] + 2: from here on position n misses x_1 within M layers
    threshold: Optional[int]    # θ_M: from here on a causal view witness sits at the whole depth (None without ℓ₁)
    first_wide: Optional[int]   # ℓ₁ ≤ M (None: no layer of positive width)
    pieces: tuple[Piece, ...]


def split_applies(L: FormLayers) -> bool:
    """Theorem F159's premise: integer finite widths only (no param, no `causal` head) and a network of finitely
    many layers (a budget or a finite list)."""
    return L.param is None and L.limit is not None and all(isinstance(x, int) for r in L.rows for x in r)


def budget_split(L: FormLayers) -> BudgetSplit:
    """N* by Theorem F159, and the lengths below it by F121 at each (nondecreasing counts, as runs)."""
    M = int(L.limit)  # type: ignore[arg-type]
    unions = [int(L.union(ell)) for ell in range(1, M + 1)]  # type: ignore[arg-type]
    reach_end = sum(unions) + 2
    wide = [ell for ell in range(1, M + 1) if unions[ell - 1] >= 1]
    if not wide:
        return BudgetSplit(2, M, reach_end, None, None, (Piece(1, 2, 1),))
    first = wide[0]
    theta = _witness_threshold(L, first, M)
    start = min(reach_end, theta)
    return BudgetSplit(start, M, reach_end, theta, first, _runs(L, start))
