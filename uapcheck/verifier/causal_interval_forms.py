"""Per-layer causal interval heads at a symbolic n, for the verifier (docs/theory.md §21.8, Theorem F123).

The verifier's own reading of the widths (verifier/causal_intervals.py's, with a window given by one param w
`integer >= 1`), confirmed on its own arcs at small lengths (at several values of w). Then, from §21.8's statement:

    ℓ₁ the first layer of positive width, c₁ the first of width ∞, C the first of width ∞ after ℓ₁;
    for n ≥ N₀ = max(S + 2, θ) with S = W(0, c₁ − 1] and, when C > c₁, θ = x₀ + 1 (x₀ the least x ≥ W + 2 outside
    every [w_h + 1, w_h + W + 1], heads h of layer ℓ₁ of finite width, W = W(ℓ₁, C − 1]): D_c = c₁, a witness at
    every depth c₁ … C − 1 at position n (x = n − j, the verifier's covering of §21.6), none at C (W(ℓ₁, C] = ∞);
    the count is nondecreasing in n (§21.8), so a count equal at both ends of a run of lengths holds on the run.

At one concrete n the count is the verifier's own F121 (causal_intervals.Intervals: the reach by sums of widths, the
witness by the covering at position n). Written from the statement of §21.8, not from the engine
(uapcheck/graphs/layers_interval_forms.py)."""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from . import patterns
from .causal_intervals import INF, Intervals, NotIntervals, _width
from .layer_table import layer_table

#: The values of a param width the verifier re-derives every length at: the lower bound plus these.
PARAM_OFFSETS = (0, 1, 2, 3, 5, 9)
#: With a param width, every n up to this is re-derived at each value (beyond it the verifier's N₀ argument).
PARAM_MAX_N = 120


def _width_or_param(p, lower: dict):
    """An interval width, or the name of a param window `causal & window(w)`."""
    if isinstance(p, S.PatternIntersection):
        kinds = [q for q in p.parts if not isinstance(q, S.Full)]
        named = [q.w for q in kinds if isinstance(q, S.Window) and isinstance(q.w, str) and not q.cyclic]
        if named and len(kinds) == 2 and any(isinstance(q, S.Causal) for q in kinds):
            name = named[0]
            if name.startswith("-") or (lower.get(name) or 0) < 1:
                raise NotIntervals(f"the width {name} is not a param `integer >= 1`")
            return name
    if isinstance(p, S.PatternUnion):
        parts = [_width_or_param(q, lower) for q in p.parts]
        if INF in parts:
            return INF
        names = {x for x in parts if isinstance(x, str)}
        if not names:
            return max(parts)
        if len(names) > 1 or any(not isinstance(x, str) and x > lower[next(iter(names))] for x in parts):
            raise NotIntervals("a union whose width depends on the params")
        return next(iter(names))
    return _width(p)


class Form:
    """rows[q]: the head widths of the layers ℓ ≡ q + 1 (mod period); an entry is a number, ∞, or the param's name."""

    def __init__(self, spec: S.Spec, single: bool = False):
        """`single`: an input without per-layer patterns is read as one pattern in every layer (Theorem F159)."""
        if isinstance(spec.tokens, int):
            raise NotIntervals("Theorem F123 is stated at a symbolic n")
        lower = {p.name: p.lower for p in spec.params if p.constraint.startswith("integer")}
        table = layer_table(spec, NotIntervals, single=single)
        self.spec = spec
        self.patterns = table.rows
        self.rows = [[_width_or_param(p, lower) for p in row] for row in self.patterns]
        self.limit = table.limit
        self.periodic = table.periodic
        names = {x for row in self.rows for x in row if isinstance(x, str)}
        if len(names) > 1:
            raise NotIntervals("widths given by several params")
        self.param = names.pop() if names else None
        bound = lower.get(self.param) if self.param else None
        self.lower: int = bound if bound is not None else 1
        self.mixed = bool(self.param) and any(not isinstance(x, str) and x not in (0, INF) for row in self.rows
                                              for x in row)

    def values(self) -> list:
        """The param values the verifier works at (one None without a param)."""
        return [None] if self.param is None else [self.lower + d for d in PARAM_OFFSETS]

    def at(self, n: int, w: Optional[int]) -> Intervals:  # the rows hold numbers once w is set
        """The verifier's F121 object at a concrete n (the param set to w), without its arc confirmation."""
        iv = Intervals.__new__(Intervals)
        iv.n = n
        iv.rows = [[float(w if isinstance(x, str) and w is not None else x) for x in row] for row in self.rows]
        iv.limit = self.limit
        return iv

    def confirm(self, w: Optional[int]) -> None:
        """Each head's arcs at a small length, built by the verifier, are the intervals of its width (the param w)."""
        seen = set()
        finite = [int(v) for r in self.at(1, w).rows for v in r if v != INF]
        m = min(max([40] + [x + 3 for x in finite]), 640)  # as causal_intervals: a wider window shows as `causal` there
        values = {} if self.param is None else {self.param: w}
        for layer, row in enumerate(self.patterns, 1):
            for h, p in enumerate(row):
                width = self.at(1, w).rows[layer - 1][h]
                if (p, width) in seen:
                    continue
                seen.add((p, width))
                q = S.resolve_sizes(p, values) if values else p  # the param's value in the window
                got = {(j, i) for j, i in patterns.head_arcs(q, m) if j != i}
                want = {(j, i) for i in range(1, m + 1)
                        for j in range(1 if width == INF else max(1, i - int(width)), i)}
                if got != want:
                    raise NotIntervals(f"layer {layer}, head {h + 1}: its arcs at n = {m} are not the intervals of "
                                       f"width {width}")

    def count(self, n: int, w: Optional[int]) -> int:
        """The least count at n by the verifier's own F121 (NotIntervals when F121 gives none there)."""
        if n <= 1:
            return 1
        iv = self.at(n, w)
        cap = self.limit if self.limit is not None else 4 * len(self.rows) * (n + 2)
        d = iv.reach_depth(cap)
        if d is None:
            raise NotIntervals(f"the prefixes are not reached at n = {n}")
        m = max(d, 1)
        while iv.any_witness(m) is not None:
            m += 1
            if self.limit is not None and m > self.limit:
                raise NotIntervals(f"a witness at the whole depth at n = {n}")
        return m

    def layers_from(self, w: Optional[int]) -> tuple[int, int]:
        """(C, N₀) at the param value w: from N₀ on the count is C, by the argument in the module docstring."""
        if self.mixed:
            raise NotIntervals("positive integer widths beside a param width")
        rows = self.at(3, w).rows
        width = [max(r) for r in rows]
        p = len(rows)
        top = 2 * p if self.limit is None else min(self.limit, p)

        def u(layer):
            return width[(layer - 1) % p]
        wide = [ell for ell in range(1, top + 1) if u(ell) >= 1]
        if not wide:
            raise NotIntervals("no layer of positive width")
        first = wide[0]
        c1 = next((ell for ell in range(1, top + 1) if u(ell) == INF), None)
        C = next((ell for ell in range(first + 1, top + 1) if u(ell) == INF), None)
        if c1 is None or C is None:
            raise NotIntervals("no layer of width ∞ after the first of positive width")
        bound = int(sum(u(ell) for ell in range(1, c1))) + 2
        if C > c1:
            W = int(sum(u(ell) for ell in range(first + 1, C)))
            x = W + 2
            for lo, hi in sorted((int(wh) + 1, int(wh) + W + 1) for wh in rows[(first - 1) % p] if wh != INF):
                if lo <= x <= hi:
                    x = hi + 1
            bound = max(bound, x + 1)
        return C, bound


def growing_terms(F: Form, w: Optional[int]) -> tuple[int, int, list[int], int]:
    """Theorem F137's data from the verifier's reading (finite widths, periodic; the param set to w): (p, P,
    [S_0 … S_{p−1}], u), u the width of the first layer of positive width. NotIntervals outside F137."""
    if F.limit is not None:
        raise NotIntervals("Theorem F137 takes a periodic list without a budget")
    widths = [max(r) for r in F.at(3, w).rows]
    if INF in widths:
        raise NotIntervals("a layer of width ∞: Theorem F123's case, not F137's")
    ints = [int(x) for x in widths]
    total = sum(ints)
    if total == 0:
        raise NotIntervals("every layer has width 0")
    prefix = [sum(ints[:r]) for r in range(len(ints))]
    u = next(x for x in ints if x >= 1)
    return len(ints), total, prefix, u


def growing_symbolic(F: Form, w) -> tuple[list, object]:
    """([S_0 … S_{p−1}], P) with the param width as the symbol w (a row's width: ∞ absent, the param when a head has
    it, integers beside it at most its lower bound, as the reading checked)."""
    def union(row):
        return w if any(isinstance(x, str) for x in row) else int(max(row))
    widths = [union(r) for r in F.rows]
    return [sum(widths[:r], 0) for r in range(len(widths))], sum(widths, 0)


def growing_count(prefix: list[int], total: int, n: int) -> int:
    """D_c(n) (n ≥ 2) as the verifier counts it: the layers m ≥ 1 with W(0, m − 1] < n − 1, one period at a time
    (layer m = qp + r + 1 has W(0, m − 1] = qP + S_r)."""
    return sum(max(0, -((s_r + 1 - n) // total)) for s_r in prefix)


def build(spec: S.Spec) -> Form:
    return Form(spec)
