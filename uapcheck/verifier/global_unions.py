"""PAT-CONNECTED (and the D + 1 layers that follow) for a union with globals at symbolic n (docs/theory.md §11.11,
Theorem F87), re-checked with the verifier's own code: its own reading of the re-parsed heads' parts, its own reach,
strides and pair, and its own arcs (patterns.head_arcs).

What is checked (a certificate of kind "global union"):
* the heads' parts, all together, are globals 1..g (`global(g)`, `star`) and windows, offsets, dilations, strides,
  blocks or causal masks with integer sizes (cyclic or not); the certificate's g is the verifier's;
* the verifier's R (the largest reach: w, |k|, w'·r, b) and t (the least t > R with t ≡ 1 modulo every stride and
  dilation step, each at least 2) give N₁ = max(g + 1 + t, t + R + 1): for n ≥ N₁ the difference t and, for cyclic
  parts, n − t exceed R, and t is no multiple of a stride or step, so g + 1 attends to g + 1 + t in no part (a
  causal part only looks back); the pair is also looked up on the verifier's arcs at N₁, …, N₁ + the period;
* every length from the certificate's bound up to N₁ has an ordered pair of non-globals that is not an arc (the
  verifier's arcs), so with j → 1 → i the diameter is 2 at every n from the bound on;
* the step states D = 2 (and at an integer n, n is in the range); PAT-LAYERS on it states D + 1 = 3, not least.
"""
from __future__ import annotations

from math import gcd
from typing import Optional

from .. import spec as S
from . import patterns
from .check import VERIFIED, Reject, Trust

MAX_FAR = 400


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _parts(pats: list) -> tuple[int, list]:
    """(g, the other parts) of the heads' parts taken together; Reject when a part is outside Theorem F87."""
    g, others = 0, []
    for p in pats:
        for q in (p.parts if isinstance(p, S.PatternUnion) else (p,)):
            if isinstance(q, S.Star):
                g = max(g, 1)
            elif isinstance(q, S.Global) and (_int(q.g) or 0) >= 1:
                g = max(g, _int(q.g) or 0)
            elif isinstance(q, (S.Window, S.Offsets, S.Dilated, S.Strided, S.Blocks, S.Causal)):
                others.append(q)
            else:
                raise Reject(f"Theorem F87: a part {type(q).__name__} outside its vocabulary")
    if g < 1:
        raise Reject("Theorem F87 needs a global part")
    return g, others


def _reach_and_steps(q) -> tuple[int, list]:
    def need(t):
        v = _int(t)
        if v is None:
            raise Reject("Theorem F87: a size that is not an integer")
        return v
    if isinstance(q, S.Window):
        return need(q.w), []
    if isinstance(q, S.Offsets):
        return max([0] + [abs(need(k)) for k in q.offsets]), []
    if isinstance(q, S.Dilated):
        w, r = need(q.w), need(q.r)
        return w * r, ([r] if r != 1 else [])
    if isinstance(q, S.Strided):
        return 0, [need(q.s)]
    if isinstance(q, S.Blocks):
        return need(q.b), []
    return 0, []  # causal


def _missing_pair(heads: list, n: int, g: int) -> Optional[tuple[int, int]]:
    """An ordered pair (i, j) of distinct non-globals such that i attends to j in no head, or None."""
    arcs = set().union(*heads)
    for i in range(g + 1, n + 1):
        for j in range(g + 1, n + 1):
            if i != j and (j, i) not in arcs:
                return i, j
    return None


def check(ctx, s) -> tuple[str, str]:
    cert = s.get("certificate") or {}
    spec = ctx.spec
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    g, others = _parts(pats)
    if cert.get("globals") != g:
        raise Reject(f"Theorem F87: the globals are 1..{g}, not the certificate's {cert.get('globals')}")
    reach, steps = 0, list[int]()
    for q in others:
        r, st = _reach_and_steps(q)
        reach, steps = max(reach, r), steps + st
    if any(x < 2 for x in steps):
        raise Reject("Theorem F87: a stride of 1 (a complete part)")
    period = 1
    for x in steps:
        period = period * x // gcd(period, x)
    t = 1
    while t <= reach:
        t += period
    far = max(g + 1 + t, t + reach + 1)
    if far > MAX_FAR:
        raise Trust(f"Theorem F87: the lengths to check reach {far}")
    if (s.get("data") or {}).get("diameter") != 2:
        raise Reject("Theorem F87 gives D = 2")
    low = _int(cert.get("from"))
    if low is None or low < g + 2:
        raise Reject(f"Theorem F87: the range starts at {cert.get('from')}, below g + 2 = {g + 2}")
    for n in range(far, far + period + 1):
        heads = [patterns.head_arcs(p, n) for p in pats]
        if any((g + 1 + t, g + 1) in h for h in heads):
            raise Reject(f"Theorem F87: at n = {n} position {g + 1} attends to {g + 1 + t}")
    for n in range(low, far):
        heads = [patterns.head_arcs(p, n) for p in pats]
        if _missing_pair(heads, n, g) is None:
            raise Reject(f"Theorem F87: at n = {n} the union is complete (D = 1, not 2)")
    tokens = spec.tokens
    if isinstance(tokens, int) and tokens < low:
        raise Reject(f"Theorem F87: n = {tokens} is below the range n ≥ {low}")
    return VERIFIED, (f"Theorem F87 (docs/theory.md §11.11): globals 1..{g}, so j → 1 → i and D ≤ 2; with the "
                      f"verifier's R = {reach} and t = {t}, position {g + 1} attends to {g + 1 + t} in no part from "
                      f"n = {far} on; every length from {low} to {far - 1} has a non-adjacent pair on the verifier's "
                      f"arcs: D = 2 for every n ≥ {low}")


def layers(ctx, s) -> Optional[tuple[str, str]]:
    """PAT-LAYERS on a Theorem F87 connectivity step: D + 1 = 3, not least (the view argument, §11.2)."""
    prem = ctx.premises(s)
    if len(prem) != 1 or (prem[0].get("certificate") or {}).get("kind") != "global union":
        return None
    data = s.get("data") or {}
    if data.get("diameter") != 2 or data.get("layers") != 3 or data.get("least"):
        raise Reject("on Theorem F87's D = 2 the view argument gives 3 layers, not claimed least")
    return VERIFIED, "D + 1 = 3 layers suffice by the view argument (docs/theory.md §11.2) on Theorem F87's D = 2"


def applies(s) -> bool:
    return (s.get("certificate") or {}).get("kind") == "global union"
