"""Per-layer two-sided windows at any n, for the verifier (docs/theory.md §21.12, Theorems F231–F234, Lemma AO).
Written here from the statements, not from the engine (uapcheck/graphs/layers_windows.py).

The verifier's own reading of the file: one head whose pattern is a `periodic` or `sequence` list of non-cyclic
`window(w)` with integer widths w ≥ 0 (a budget `layers M` cutting it). Then, without arcs:

    F231  x_j reaches i within m layers iff |i − j| ≤ R(m) (R(m) the first m widths' sum): D_Φ is counted here layer
          by layer, and at a symbolic n the stated formula (a sum of ceilings and floors of linear forms in n) is read
          against that count over one of its periods from the start, with its growth over the period: equal at every n.
    F232  G is the reflection iff n ≥ 2w_* + 1 (w_* the least positive width); Aut(window(w_*)) is compared with the
          reflection by nauty on the verifier's own arcs at 2w_* + 1 … 2w_* + 3 when nauty is there.
    F233  Lemma AO's premises at the stated layer ℓ and depth D_Φ: w_ℓ ≥ 1, n ≥ 2w_ℓ + 1, r + w_ℓ ≥ n − 2 and
          n ≤ 2r + 2 with r = R(D_Φ) − R(ℓ); at a symbolic n, ℓ is the first layer of positive width and the start is
          at least max(3, 2u + 1), u its width (then the premises hold at every n of the range: r + u = R(D_Φ) ≥ n − 1
          and 2r + 2 ≥ 2n − 2u ≥ n).
    F234  a finite list whose widths sum below n − 1: x_n never reaches position 1.
"""
from __future__ import annotations

from fractions import Fraction
from math import gcd
from typing import Optional

import sympy

from .. import spec as S
from .check import VERIFIED, Reject, checker


class NotWindows(Exception):
    pass


class Windows:
    #: the layers' kind: non-cyclic windows of widths w ≥ 0 (layer_cyclic_windows.Cyclic: cyclic, w ≥ 1)
    cyclic = False
    least_width = 0
    words = "a non-cyclic window"

    def __init__(self, widths: list[int], periodic: bool):
        self.widths, self.periodic = widths, periodic

    def target(self, n: int) -> int:
        """The reach every position needs: n − 1 on the line (⌊n/2⌋ on the cycle)."""
        return n - 1

    def width(self, layer: int) -> int:
        return self.widths[(layer - 1) % len(self.widths)]

    def R(self, m: int) -> int:
        """The first m widths' sum, counted layer by layer (a periodic list repeats)."""
        out = 0
        for layer in range(1, m + 1):
            out += self.width(layer)
        return out

    def depth(self, n: int) -> Optional[int]:
        """The least m with R(m) ≥ target(n) among the network's layers (period by period, then layer by layer)."""
        t = self.target(n)
        if t <= 0:
            return 0
        p, P = len(self.widths), sum(self.widths)
        if self.periodic:
            if P == 0:
                return None
            full = max(0, t // P - 1)  # whole periods that stay below the target
            m, total = full * p, full * P
        else:
            m, total = 0, 0
        while total < t:
            m += 1
            if not self.periodic and m > p:
                return None
            total += self.width(m)
        return m


def read(spec: S.Spec, kind: type[Windows] = Windows) -> Windows:
    """The input's layers as ``kind`` (the budget applied), or NotWindows naming what is not such a list."""
    if len(spec.heads) != 1:
        raise NotWindows("more than one head")
    h = spec.heads[0]
    pat = h.pattern
    if not isinstance(pat, S.PatternSequence) or h.bias is not None or h.position is not None:
        raise NotWindows("not a per-layer list without bias or position term")
    widths = []
    for p in pat.patterns:
        if not isinstance(p, S.Window) or p.cyclic != kind.cyclic or not isinstance(p.w, int) or isinstance(p.w, bool) \
                or p.w < kind.least_width:
            raise NotWindows(f"a layer is not {kind.words} of integer width")
        widths.append(int(p.w))
    periodic = pat.periodic
    budget = spec.layers if isinstance(spec.layers, int) and not isinstance(spec.layers, bool) else None
    if budget is not None:
        widths = [widths[(k - 1) % len(widths)] if periodic else widths[k - 1]
                  for k in range(1, min(budget, len(widths) if not periodic else budget) + 1)]
        periodic = False
    return kind(widths, periodic)


def _reading(ctx, data: dict) -> Windows:
    try:
        W = read(ctx.spec)
    except NotWindows as exc:
        raise Reject(f"the layers are not two-sided windows of Theorem F231: {exc}") from None
    if (data.get("widths"), data.get("periodic")) != (W.widths, W.periodic):
        raise Reject("the step's widths are not the input's")
    if data.get("n") != ctx.spec.tokens:
        raise Reject("the step's length is not the input's")
    return W


def _least_positive(W: Windows) -> int:
    w = min((x for x in W.widths if x > 0), default=None)
    if w is None:
        raise Reject("every layer has width 0")
    return w


def _instance(w: int) -> str:
    """Aut(window(w)) against the reflection at 2w + 1 … 2w + 3 on the verifier's own arcs (nauty, or brute force);
    '' when the size is past what is instance-tested."""
    from . import groups
    if 2 * w + 3 > 200:
        return ""
    tested = []
    for m in range(2 * w + 1, 2 * w + 4):
        lab = {(j, i): ((0, 0),) for i in range(1, m + 1) for j in range(max(1, i - w), min(m, i + w) + 1) if j != i}
        order, method = groups.full_order(lab, m, "none")
        if order is None:
            return ""
        if order != 2:
            raise Reject(f"Aut(window({w})) has order {order} at n = {m} ({method}), not the reflection's 2")
        tested.append(m)
    return f"; Aut(window({w})) is the reflection on the verifier's own arcs at n = {', '.join(map(str, tested))}"


@checker("SEQ-WINDOWS-GROUP")
def windows_group(ctx, s):
    if s["status"] != "proved":
        raise Reject("SEQ-WINDOWS-GROUP only concludes `proved`")
    data = s.get("data") or {}
    W = _reading(ctx, data)
    w = _least_positive(W)
    if (data.get("name"), data.get("order"), data.get("least positive width")) != ("reflection", 2, w):
        raise Reject("the group, its order or w_* is not the theorem's")
    n = ctx.spec.tokens
    if isinstance(n, int):
        if n < 3 or n < 2 * w + 1:
            raise Reject(f"n = {n} is below 2w_* + 1 = {2 * w + 1}: G is larger than the reflection")
        where = f"n = {n} ≥ 2w_* + 1 = {2 * w + 1}"
    else:
        start = data.get("from")
        if not isinstance(start, int) or start < max(3, 2 * w + 1):
            raise Reject(f"the range must start at n ≥ max(3, 2w_* + 1) = {max(3, 2 * w + 1)}")
        where = f"the range n ≥ {start} is within n ≥ 2w_* + 1 = {2 * w + 1}"
    return VERIFIED, (f"Theorem F232: {where}, so window({w}) alone has only the reflection (§11.5), which keeps every "
                      f"window{_instance(w)}")


@checker("SEQ-WINDOWS-LAYERS")
def windows_layers(ctx, s):
    if s["status"] != "proved":
        raise Reject("SEQ-WINDOWS-LAYERS only concludes `proved`")
    data = s.get("data") or {}
    W = _reading(ctx, data)
    n = ctx.spec.tokens
    if data.get("theorem") == "F234":
        if not isinstance(n, int) or W.periodic or W.R(len(W.widths)) >= n - 1:
            raise Reject("the network's layers reach every position (or n is symbolic)")
        return VERIFIED, (f"Theorem F234: the {len(W.widths)} widths sum to {W.R(len(W.widths))} < n − 1, so x_{n} "
                          "never reaches position 1 and the sum target is not approximable")
    if data.get("theorem") != "F233" or data.get("least") is not True:
        raise Reject("the step's theorem or least flag is not F233's")
    if isinstance(n, int):
        return VERIFIED, _concrete(W, n, data)
    return VERIFIED, _symbolic(ctx, W, n, data)


def _ao(W: Windows, n: int, m: int, ell: object) -> bool:
    if not isinstance(ell, int) or not 1 <= ell <= m:
        return False
    w, r = W.width(ell), W.R(m) - W.R(ell)
    return w >= 1 and n >= 2 * w + 1 and r + w >= n - 2 and n <= 2 * r + 2


def _concrete(W: Windows, n: int, data: dict) -> str:
    d = W.depth(n)
    if d is None or (data.get("D_Φ"), data.get("layers")) != (d, d):
        raise Reject(f"D_Φ is {d} by the widths, not {data.get('D_Φ')}")
    ell = data.get("pinned layer")
    if not isinstance(ell, int) or not _ao(W, n, d, ell):
        raise Reject(f"Lemma AO's premises fail at layer {ell} and depth {d}")
    return (f"Theorem F231: R({d}) = {W.R(d)} ≥ n − 1 > R({d - 1}) = {W.R(d - 1)}; Lemma AO's premises hold at layer "
            f"{ell} (width {W.width(ell)}, n ≥ {2 * W.width(ell) + 1}), so {d} layers are least (Theorem F233)")


def _symbolic(ctx, W: Windows, name: str, data: dict) -> str:
    from .trees import TreeError, decode
    if not W.periodic:
        raise Reject("a finite list at a symbolic n is outside Theorem F233")
    first = next((q for q in range(1, len(W.widths) + 1) if W.widths[q - 1] >= 1), None)
    if first is None:
        raise Reject("every layer has width 0")
    start = data.get("from")
    u = W.widths[first - 1]
    if data.get("pinned layer") != first or not isinstance(start, int) or start < max(3, 2 * u + 1):
        raise Reject(f"the range must start at max(3, 2u + 1) = {max(3, 2 * u + 1)} with layer {first}")
    try:
        formula = decode(data.get("layers"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"the formula: {exc}") from None
    window = _same_as_depth(W, formula, name, start)
    return (f"Theorem F231: the formula equals D_Φ counted from the widths at every {name} from {start} to "
            f"{start + window - 1} and grows as D_Φ does over {window} lengths, its period, so at every {name} ≥ {start}; "
            f"from {name} = {start} ≥ 2u + 1 = {2 * u + 1} on Lemma AO holds at layer {first} (r + u = R(D_Φ) ≥ n − 1, "
            "2r + 2 ≥ 2n − 2u ≥ n), so D_Φ layers are least (Theorem F233)")


#: the longest period of a stated count that the verifier reads length by length
MAX_WINDOW = 200_000


def _linear_terms(formula, name: str) -> tuple[Fraction, Fraction, list]:
    """The formula as c₀ + c₁·n + Σ c·⌈a·n + b⌉ (or ⌊a·n + b⌋) with rationals c₀, c₁, c, a, b: (c₀, c₁, [(c, ceil?, a,
    b)]); Reject for any other shape."""
    c0, c1, terms = Fraction(0), Fraction(0), []

    def rational(x) -> Fraction:
        if not isinstance(x, sympy.Rational):
            raise Reject(f"the formula is not a sum of ceilings and floors of linear forms in {name}")
        return Fraction(int(x.p), int(x.q))
    for term in sympy.Add.make_args(formula):
        if isinstance(term, sympy.Rational):
            c0 += rational(term)
            continue
        coeff, rest = term.as_coeff_Mul()
        if isinstance(rest, sympy.Symbol) and rest.name == name:
            c1 += rational(coeff)
            continue
        if not isinstance(rest, (sympy.ceiling, sympy.floor)):
            raise Reject(f"the formula is not a sum of ceilings and floors of linear forms in {name}")
        a, b = Fraction(0), Fraction(0)
        for part in sympy.Add.make_args(rest.args[0]):
            k, x = part.as_coeff_Mul()
            if isinstance(part, sympy.Rational):
                b += rational(part)
            elif isinstance(x, sympy.Symbol) and x.name == name:
                a += rational(k)
            else:
                raise Reject(f"the formula is not a sum of ceilings and floors of linear forms in {name}")
        terms.append((rational(coeff), isinstance(rest, sympy.ceiling), a, b))
    return c0, c1, terms


def _evaluate(c0: Fraction, c1: Fraction, terms: list, k: int) -> Fraction:
    out = c0 + c1 * k
    for c, up, a, b in terms:
        x = a * k + b
        out += c * (-((-x.numerator) // x.denominator) if up else x.numerator // x.denominator)
    return out


def _same_as_depth(W: Windows, formula, name: str, start: int) -> int:
    """The stated count equals D_Φ at every n ≥ start, proved, not sampled. D_Φ(n + P) = D_Φ(n) + p for n ≥ 2 (R(m + p)
    = R(m) + P, and no m < p has R(m) ≥ n − 1 + P > P). A formula c₀ + c₁·n + Σ c·⌈a·n + b⌉ grows by the constant
    (c₁ + Σ c·a)·T over T lengths, T a multiple of every a's denominator. So with T a multiple of P as well, equality at
    the T lengths from the start and equal growth over T give equality at every n ≥ start. Returns T."""
    c0, c1, terms = _linear_terms(formula, name)
    p, P = len(W.widths), sum(W.widths)
    window = P
    for _, _, a, _ in terms:
        window = window * a.denominator // gcd(window, a.denominator)
    if window > MAX_WINDOW:
        raise Reject(f"the formula's period {window} is beyond the {MAX_WINDOW} lengths the verifier reads")
    if (c1 + sum(c * a for c, _, a, _ in terms)) * window != Fraction(p * (window // P)):
        raise Reject(f"the formula does not grow as D_Φ does: by {p} layers every {P} lengths")
    for k in range(max(start, 2), max(start, 2) + window):
        if _evaluate(c0, c1, terms, k) != W.depth(k):
            raise Reject(f"the formula is not D_Φ at {name} = {k}")
    return window
