"""Per-layer cyclic windows at any n, for the verifier (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ).
Written here from the statements, not from the engine (uapcheck/graphs/layers_cyclic_windows.py).

The verifier's own reading of the file: one head whose pattern is a `periodic` or `sequence` list of
`window(w) cyclic` with integer widths w ≥ 1 (a budget `layers M` cutting it). Then, without arcs:

    F139  x_j reaches i within m layers iff the cyclic distance of i and j is at most R(m) (the first m widths' sum):
          D_Φ, the least m with R(m) ≥ ⌊n/2⌋, is counted here layer by layer, and at a symbolic n the stated formula
          is read at every n from the start up to 200 and at 10⁶ + 3 against that count; G = D_n from n = 2w_* + 3 on
          (Aut(window(w_*) cyclic) compared with D_n by nauty on the verifier's own arcs at 2w_* + 3 … 2w_* + 5);
          a finite list whose widths sum below ⌊n/2⌋ leaves the position opposite 1 unreached.
    F160  Lemma AQ's premises at the stated layer ℓ and depth D_Φ: w_ℓ ≥ 1, n ≥ 2w_ℓ + 3 and n − 2r − 2 ≤ w_ℓ with
          r = R(D_Φ) − R(ℓ); at a symbolic n, some layer ℓ ≤ p meets them at every n from the start to T + 2P, where
          T = max(2w_max + 3, 2P + 2): from T on D_Φ(n + 2P) = D_Φ(n) + p and R rises by P, so the premises at n + 2P
          are those at n (the verifier's own reading of the theorem's periodicity).
"""
from __future__ import annotations

from typing import cast

import sympy

from .. import spec as S
from .check import VERIFIED, Reject, checker
from .layer_windows import NotWindows, Windows
from .layer_windows import read as windows_read


class Cyclic(Windows):
    """The layers' cyclic windows (widths w ≥ 1): every position needs a reach of ⌊n/2⌋ on the cycle."""
    cyclic = True
    least_width = 1
    words = "a cyclic window"

    def target(self, n: int) -> int:
        return n // 2


def read(spec: S.Spec) -> Cyclic:
    return cast(Cyclic, windows_read(spec, Cyclic))


def _reading(ctx, data: dict) -> Cyclic:
    try:
        W = read(ctx.spec)
    except NotWindows as exc:
        raise Reject(f"the layers are not cyclic windows of Theorem F139: {exc}") from None
    if (data.get("widths"), data.get("periodic")) != (W.widths, W.periodic):
        raise Reject("the step's widths are not the input's")
    if data.get("n") != ctx.spec.tokens:
        raise Reject("the step's length is not the input's")
    return W


def _instance(w: int) -> str:
    from . import groups
    if 2 * w + 5 > 60:
        return ""
    tested = []
    for m in range(2 * w + 3, 2 * w + 6):
        lab = {(j, i): ((0, 0),) for i in range(1, m + 1) for j in range(1, m + 1)
               if j != i and min(abs(i - j), m - abs(i - j)) <= w}
        order, method = groups.full_order(lab, m, "none")
        if order is None:
            return ""
        if order != 2 * m:
            raise Reject(f"Aut(window({w}) cyclic) has order {order} at n = {m} ({method}), not D_n's {2 * m}")
        tested.append(m)
    return f"; Aut(window({w}) cyclic) has D_n's order on the verifier's own arcs at n = {', '.join(map(str, tested))}"


@checker("SEQ-CYCLIC-GROUP")
def cyclic_group(ctx, s):
    if s["status"] != "proved":
        raise Reject("SEQ-CYCLIC-GROUP only concludes `proved`")
    data = s.get("data") or {}
    W = _reading(ctx, data)
    w = min(W.widths)
    if (data.get("name"), data.get("least positive width")) != ("D_n", w):
        raise Reject("the group or w_* is not the theorem's")
    n = ctx.spec.tokens
    first = n if isinstance(n, int) else data.get("from")
    if not isinstance(first, int) or first < 2 * w + 3:
        raise Reject(f"the length (or the range's start) must be at least 2w_* + 3 = {2 * w + 3}")
    return VERIFIED, (f"Theorem F139: n ≥ {first} ≥ 2w_* + 3 = {2 * w + 3}, so window({w}) cyclic alone has only D_n "
                      f"(§11.4), which keeps every cyclic window{_instance(w)}")


@checker("SEQ-CYCLIC-LAYERS")
def cyclic_layers(ctx, s):
    if s["status"] != "proved":
        raise Reject("SEQ-CYCLIC-LAYERS only concludes `proved`")
    data = s.get("data") or {}
    W = _reading(ctx, data)
    n = ctx.spec.tokens
    if data.get("theorem") == "F139":
        return VERIFIED, _never(W, n, data)
    if data.get("theorem") != "F160" or data.get("least") is not True:
        raise Reject("the step's theorem or least flag is not F160's")
    if isinstance(n, int):
        return VERIFIED, _concrete(W, n, data)
    return VERIFIED, _symbolic(ctx, W, n, data)


def _never(W: Cyclic, n, data: dict) -> str:
    total = W.R(len(W.widths))
    if W.periodic:
        raise Reject("a periodic list reaches every position")
    if isinstance(n, int):
        if total >= n // 2:
            raise Reject("the network's layers reach every position")
        return (f"Theorem F139: the {len(W.widths)} widths sum to {total} < ⌊n/2⌋ = {n // 2}, so x_{1 + n // 2} never "
                "reaches position 1 and the sum target is not approximable")
    start = data.get("from")
    if not isinstance(start, int) or start < 2 * total + 2:
        raise Reject(f"the range must start at 2R(k) + 2 = {2 * total + 2} or later")
    return (f"Theorem F139: from n = {start} on ⌊n/2⌋ > {total}, the widths' sum, so the position opposite 1 never "
            "reaches it within the list")


def _aq(W: Cyclic, n: int, m: int, ell: object) -> bool:
    if not isinstance(ell, int) or not 1 <= ell <= m:
        return False
    w, r = W.width(ell), W.R(m) - W.R(ell)
    return w >= 1 and n >= 2 * w + 3 and n - 2 * r - 2 <= w


def _concrete(W: Cyclic, n: int, data: dict) -> str:
    d = W.depth(n)
    if d is None or (data.get("D_Φ"), data.get("layers")) != (d, d):
        raise Reject(f"D_Φ is {d} by the widths, not {data.get('D_Φ')}")
    ell = data.get("pinned layer")
    if not _aq(W, n, d, ell):
        raise Reject(f"Lemma AQ's premises fail at layer {ell} and depth {d}")
    return (f"Theorem F139: R({d}) = {W.R(d)} ≥ ⌊n/2⌋ > R({d - 1}) = {W.R(d - 1)}; Lemma AQ's premises hold at layer "
            f"{ell}, so {d} layers are least (Theorem F160)")


def _symbolic(ctx, W: Cyclic, name: str, data: dict) -> str:
    from .trees import TreeError, decode
    if not W.periodic:
        raise Reject("a finite list's count at a symbolic n is outside Theorem F160")
    start = data.get("from")
    if not isinstance(start, int) or start < 5:
        raise Reject("the range must start at n ≥ 5")
    try:
        formula = decode(data.get("layers"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"the formula: {exc}") from None
    sym = next((x for x in getattr(formula, "free_symbols", ()) if getattr(x, "name", None) == name), None)
    for k in (*range(start, 201), 10 ** 6 + 3):
        got = formula if sym is None else formula.xreplace({sym: k})
        if sympy.Integer(W.depth(k)) != sympy.sympify(got, strict=True):  # safe: strict (a decoded tree)
            raise Reject(f"the formula is not D_Φ at {name} = {k}")
    p, P = len(W.widths), sum(W.widths)
    top = max(2 * max(W.widths) + 3, 2 * P + 2) + 2 * P
    for k in range(start, top):
        d = W.depth(k)
        if d is None or not any(_aq(W, k, d, ell) for ell in range(1, min(d, p) + 1)):
            raise Reject(f"Lemma AQ pins no layer at {name} = {k}")
    return (f"Theorem F139: the formula equals D_Φ counted from the widths at every {name} from {start} to 200 and at "
            f"10⁶ + 3; Lemma AQ pins a layer of the first period at every {name} from {start} to {top - 1}, a whole "
            f"period of {name} mod {2 * P} past T, so D_Φ layers are least (Theorem F160)")
