"""A bound on the directed diameter from a spanning part, at symbolic n (docs/theory.md §11.11, the closed forms'
fallback; §18.4).

When no closed form gives the exact diameter of a union of patterns, the engine states an upper bound from one part
that alone spans every position: a non-cyclic `window(w)` (D ≤ ⌈(n − 1)/w⌉: from j to i in ⌈|i − j|/w⌉ hops of at
most w), a cyclic `window(w)` (D ≤ ⌈⌊n/2⌋/w⌉: the cyclic distance is at most ⌊n/2⌋), `offsets` holding both 1 and
−1 (D ≤ n − 1: the path), or a cyclic `window(w)` together with a `strided(s)`, 2 ≤ s ≤ 2w + 1, from any heads (D ≤ 2,
Theorem F197: a position's cyclic window meets every residue class unless it wraps, and two positions whose windows
both wrap are joined by two window steps). The parts' arcs are arcs of the union of the heads' patterns (a part of a head's union, or
a head's whole pattern: never a part of an intersection), so every distance in the union is at most the part's, the
union is strongly connected and D ≤ the part's bound, at every n ≥ 1; the arcs do not depend on a bias or on position
terms in the weights. The verifier re-reads the parts from the re-parsed patterns, computes the bounds itself, and
compares the stated bound with them exactly (`exact_forms.equal_in_n`: by residue class of n); as a second way it
runs BFS on its own arcs at n = 1…12. PAT-LAYERS on such a premise states bound + 1 layers, not least (the view
argument, §11.2: D + 1 layers suffice, and so does every larger count).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from . import lemmas, patterns
from .check import VERIFIED, Reject
from .exact_forms import equal_in_n
from .trees import TreeError, decode

INSTANCES = range(1, 13)  # the lengths the bound is re-checked at by BFS on the verifier's arcs


def _int(v) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _parts(p) -> list:
    """The parts whose arcs are arcs of the pattern p: p itself, or the parts of a union (recursively)."""
    if isinstance(p, S.PatternUnion):
        return [q for part in p.parts for q in _parts(part)]
    return [p]


def part_bounds(spec: S.Spec, n: sympy.Symbol) -> list[tuple[str, sympy.Expr]]:
    """(the part, its bound on D) for every spanning part of the heads' patterns the verifier reads here."""
    out: list[tuple[str, sympy.Expr]] = []
    for head in spec.heads:
        if not isinstance(head.pattern, (S.PatternUnion, S.Window, S.Offsets)):
            continue
        for q in _parts(head.pattern):
            w = _int(q.w) if isinstance(q, S.Window) else None
            if isinstance(q, S.Window) and w is not None and w >= 1:
                if q.cyclic:
                    out.append((f"cyclic window({w})", sympy.ceiling(sympy.floor(n / 2) / w)))
                else:
                    out.append((f"window({w})", sympy.ceiling((n - 1) / sympy.Integer(w))))
            elif isinstance(q, S.Offsets) and 1 in q.offsets and -1 in q.offsets and all(
                    _int(o) is not None for o in q.offsets):
                out.append(("offsets with ±1", n - 1))
    return out + _stride_pairs(spec, n)


def _equal(a, b) -> Optional[bool]:
    """a = b at every n ≥ 1: two integers compared, else `exact_forms.equal_in_n` (one free symbol n)."""
    if isinstance(a, sympy.Integer) and isinstance(b, sympy.Integer):
        return a == b
    return equal_in_n(a, b, 1)


def _stride_pairs(spec: S.Spec, n: sympy.Symbol) -> list[tuple[str, sympy.Expr]]:
    """Theorem F197: a cyclic `window(w)` and a `strided(s)` with 2 ≤ s ≤ 2w + 1, each a part of some head's union (the
    verifier's own reading: integer sizes only), bound D by 2 at every n ≥ 1. With the largest such w, any s."""
    radii: list[int] = []
    strides: list[int] = []
    for head in spec.heads:
        for q in _parts(head.pattern):
            w = _int(q.w) if isinstance(q, S.Window) and q.cyclic else None
            s = _int(q.s) if isinstance(q, S.Strided) else None
            ks = [_int(o) for o in q.offsets] if isinstance(q, S.Offsets) and q.cyclic else []
            if w is not None and w >= 1:
                radii.append(w)
            elif s is not None and s >= 2:
                strides.append(s)
            elif ks and all(k is not None for k in ks):
                jumps = {k for k in ks if k}
                r = max((abs(k) for k in jumps if k is not None), default=0)
                if r >= 1 and jumps == set(range(-r, r + 1)) - {0}:  # `offsets {±1, …, ±r} cyclic` is window(r) cyclic
                    radii.append(r)
    if not radii:
        return []
    w = max(radii)
    return [(f"cyclic window({w}) with strided({s}), {s} ≤ 2·{w} + 1 (Theorem F197)", sympy.Integer(2))
            for s in sorted(set(strides)) if s <= 2 * w + 1][:1]


def applies(ctx, s: dict, *, ranged: bool = False) -> bool:
    """A symbolic-n step that states a diameter bound and no diameter and no family theorem's range (`ranged`: one
    that states a range, `from`, as the closed forms' fallback does when a family theorem was not reached)."""
    data = s.get("data") or {}
    return (isinstance(data, dict) and not isinstance(ctx.spec.tokens, int) and data.get("diameter") is None
            and data.get("diameter bound") is not None and ("from" in data) == ranged
            and all(not isinstance(h.pattern, S.PatternSequence) for h in ctx.spec.heads))


def ranged_step(ctx, s: dict, rule: str) -> Optional[tuple]:
    """A step with a range (`from`) stating D ≤ a spanning part's bound: the bound holds at every n ≥ 1, so at every
    n of the range, and the step is checked as one without a range. None when no part gives that bound: a family
    theorem's bound, which holds only on its range, is then left to the family's own check (no BFS below the range)."""
    if _matching_part(ctx, _stated_bound(ctx, s)) is None:
        return None
    return connected(ctx, s) if rule == "PAT-CONNECTED" else layers(ctx, s)


def _stated_bound(ctx, s: dict) -> sympy.Expr:
    try:
        return decode((s.get("data") or {}).get("diameter bound"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"the diameter bound is not an expression: {exc}") from None


def _matching_part(ctx, bound: sympy.Expr) -> Optional[tuple[str, sympy.Expr]]:
    n = ctx.symbols.get(ctx.spec.tokens)
    if n is None:
        return None
    for part, mine in part_bounds(ctx.spec, n):
        if _equal(bound, mine) is True:
            return part, mine
    return None


def _instances(ctx, bound: sympy.Expr) -> str:
    """BFS on the verifier's own arcs: strongly connected with D ≤ the stated bound at n = 1…12."""
    key = ("spanning bound instances", sympy.srepr(bound))
    if key not in ctx.cache:
        n_sym = ctx.symbols[ctx.spec.tokens]
        problem = None
        for n in INSTANCES:
            heads = [patterns.head_arcs(h.pattern, n) for h in ctx.spec.heads]
            outs = patterns.union_out(heads, n)
            value = bound.xreplace({n_sym: sympy.Integer(n)})
            if not (value.is_number and value.is_real):
                problem = f"n = {n}: the bound is not a number there"
                break
            top = int(sympy.floor(value))
            for src in range(1, n + 1):
                dist = patterns.bfs(outs, src)
                if any(d is None or d > top for d in dist[1:]):
                    problem = f"n = {n}: a distance from {src} is above the bound {top} (or infinite)"
                    break
            if problem:
                break
        ctx.cache[key] = problem
    if ctx.cache[key]:
        raise Reject(f"the diameter bound fails at an instance: {ctx.cache[key]}")
    return f"BFS on the verifier's arcs at n = {INSTANCES.start}..{INSTANCES.stop - 1}: every distance within the bound"


def connected(ctx, s: dict) -> Optional[tuple]:
    """PAT-CONNECTED stating D ≤ bound from a spanning part; None when no part of the verifier's reading gives that
    bound (the step is then left to the other checks, or trusted)."""
    bound = _stated_bound(ctx, s)
    found = _matching_part(ctx, bound)
    if found is None:
        _instances(ctx, bound)  # a bound that fails at a small n is rejected; one that holds there stays trusted
        return None
    part, mine = found
    return VERIFIED, (f"the part {part} of the re-parsed pattern spans every position: its arcs are the union's, so "
                      f"the union is strongly connected with D ≤ {sympy.sstr(mine)} for every n (docs/theory.md "
                      f"§11.11, spanning-part bound); " + _instances(ctx, bound))


def layers(ctx, s: dict) -> Optional[tuple]:
    """PAT-LAYERS on a spanning-part bound: bound + 1 layers, not least, the bound its premise's."""
    data = s.get("data") or {}
    bound = _stated_bound(ctx, s)
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "PAT-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    pdata = prem[0].get("data") or {}
    try:
        pbound = decode(pdata.get("diameter bound"), ctx.symbols) if pdata.get("diameter bound") is not None else None
        m = decode(data.get("layers"), ctx.symbols)
    except TreeError as exc:
        raise Reject(f"a stated value is not an expression: {exc}") from None
    if pbound is None or pdata.get("diameter") is not None or _equal(pbound, bound) is not True:
        raise Reject("the diameter bound differs from its connectivity premise's")
    found = _matching_part(ctx, bound)
    if found is None:
        return None
    if data.get("least") is not False:
        raise Reject("a count from a bound on the diameter is not shown least")
    if _equal(m, bound + 1) is not True:
        lemmas._position_terms_trusted(ctx, "count")  # a position term may make the count larger (§16): trusted
        raise Reject(f"{sympy.sstr(m)} layers is not the bound plus one, {sympy.sstr(bound + 1)}")
    return VERIFIED, (f"D ≤ {sympy.sstr(found[1])} ({found[0]} spans every position), so {sympy.sstr(bound + 1)} "
                      "layers suffice by the view argument (docs/theory.md §11.2); not claimed least; "
                      + _instances(ctx, bound))
