"""Receptive fields, the causal class and receptive witnesses (docs/theory.md §14), recomputed by the
verifier on the interval model of the re-parsed patterns (uapcheck/verifier/intervals.py).

    causal class   every arc j → i has j ≤ i and every arc k − 1 → k is present: R(i) = {1, …, i}
    radius r       max over i of the largest d(j → i), j ∈ R(i)
    witness        σ, i with σ(N_h(v)) = N_h(σ v) for every head h and every v with d(v → i) ≤ m − 1,
                   failing for some v ∈ R(i) (§14.5(d)); searched over every permutation (n ≤ 7)

The closed forms (§14.6, §14.7) for one causal mask or one causal window with k sinks in every head:

    causal mask            r = 1, least layers 2 (n ≥ 3)
    window(w), k sinks     r = max(⌈(n − k − 1)/w⌉, ⌈(k − 1)/w⌉), least layers r (n ≥ max(k + w + 2, 2k);
                           r = ⌈(n − k − 1)/w⌉ there)
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional, Union

import sympy

from .. import spec as S
from . import intervals as I

SCAN_MAX_N = 1 << 17
WITNESS_MAX_N = 7


@dataclass(frozen=True)
class Facts:
    causal: bool  # forward arcs and every arc k − 1 → k
    forward: bool
    radius: int
    strongly_connected: bool
    far: tuple  # (j, i, d) with d = radius


def scan(spans: I.Spans) -> Facts:
    n = spans.n
    if n > SCAN_MAX_N:
        raise I.Unsupported(f"n = {n} is above the verifier's scan limit {SCAN_MAX_N}")
    forward = chain = True
    for v in range(1, n + 1):
        nb = spans.neighbourhood(v)
        if nb[-1][1] > v:
            forward = False
        if v > 1 and not I.contains(nb, v - 1):
            chain = False
    radius, far, strong = 0, (1, 1, 0), True
    for i in range(1, n + 1):
        levels = spans.levels(i)
        if I.size(I.normalise(x for lv in levels for x in lv)) != n:
            strong = False
        if len(levels) - 1 > radius:
            radius = len(levels) - 1
            far = (levels[-1][0][0], i, radius)
    return Facts(forward and chain, forward, radius, strong, far)


# ---------------------------------------------------------------------------------------------
# Closed forms

def causal_kind(spec: S.Spec, patterns_only: bool = False) -> Optional[tuple]:
    """("causal", 0, 0) or ("window", w, k) when every head has the same causal mask, or the same causal
    window (non-cyclic `offsets {-w, …, -1[, 0]}` or `causal & window(w)`) with k ≥ 0 sinks; w and k
    integers or the names of integer params ≥ 1. Unless `patterns_only`, no head may carry a bias, a
    position term or a projection (they may change the least layers, not the receptive fields)."""
    kinds = {_head_kind(h.pattern) for h in spec.heads}
    if len(kinds) != 1 or None in kinds or any(h.projection for h in spec.heads):
        return None
    if not patterns_only and any(h.bias or h.position for h in spec.heads):
        return None
    kind = kinds.pop()
    if kind is None:
        return None
    for t in kind[1:]:
        if isinstance(t, str):
            p = spec.param(t)
            if p is None or p.constraint != "integer" or (p.lower or 0) < 1:
                return None
    return kind


def _size(t) -> bool:
    return (isinstance(t, int) and not isinstance(t, bool)) or (isinstance(t, str) and not t.startswith("-"))


def _head_kind(p) -> Optional[tuple]:
    k: Union[int, str] = 0
    if isinstance(p, S.PatternUnion) and len(p.parts) == 2 and sum(isinstance(q, S.Sinks) for q in p.parts) == 1:
        sink = next(q for q in p.parts if isinstance(q, S.Sinks))
        if not _size(sink.k) or (isinstance(sink.k, int) and sink.k < 1):
            return None
        k, p = sink.k, next(q for q in p.parts if not isinstance(q, S.Sinks))
    if isinstance(p, S.Causal):
        return ("causal", 0, 0) if k == 0 else None
    if isinstance(p, S.Offsets) and not p.cyclic:
        neg = {o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool) and o != 0}
        if len(neg) == len([o for o in p.offsets if o != 0]) and neg and neg == set(range(min(neg), 0)):
            return ("window", -min(neg), k)
        return None
    if isinstance(p, S.PatternIntersection) and len(p.parts) == 2:
        win = [q for q in p.parts if isinstance(q, S.Window)]
        if len(win) == 1 and any(isinstance(q, S.Causal) for q in p.parts) and not win[0].cyclic:
            w = win[0].w
            if _size(w) and not (isinstance(w, int) and w < 1):
                return ("window", w, k)
    return None


def closed_radius(kind: tuple, n):
    name, w, k = kind
    if name == "causal":
        return sympy.Integer(1)
    if isinstance(n, int) and isinstance(w, int) and isinstance(k, int):
        return max(-(-(n - k - 1) // w), -(-(k - 1) // w), 0)
    return sympy.ceiling((n - k - 1) / (sympy.Integer(w) if isinstance(w, int) else w))


def closed_from(kind: tuple) -> int:
    """The least n from which the closed form (radius and least layers) is stated."""
    name, w, k = kind
    if name == "causal":
        return 3
    if isinstance(w, int) and isinstance(k, int):
        return max(k + w + 2, 2 * k)
    return sympy.Max(k + w + 2, 2 * k)


def closed_layers(kind: tuple, n):
    return sympy.Integer(2) if kind[0] == "causal" else closed_radius(kind, n)


def instance_pattern(kind: tuple) -> S.Pattern:
    name, w, k = kind
    base = S.Causal() if name == "causal" else S.PatternIntersection((S.Causal(), S.Window(w)))
    return S.PatternUnion((base, S.Sinks(k))) if k else base


# ---------------------------------------------------------------------------------------------
# Receptive witnesses at small n

def neighbourhoods(spans_per_head: list, n: int) -> list[list[frozenset]]:
    out: list[list[frozenset]] = []
    for sp in spans_per_head:
        out.append([frozenset()] + [frozenset(x for lo, hi in sp.neighbourhood(v) for x in range(lo, hi + 1))
                                    for v in range(1, n + 1)])
    return out


def _keeps(sigma, v: int, nbs) -> bool:
    """σ(N_h(v)) = N_h(σ v) for every head h."""
    return all(frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]] for nb in nbs)


def find_witness(spans_per_head: list, union: I.Spans, m: int) -> Optional[tuple]:
    """(σ, i) a receptive witness at depth m, or None; every permutation is tried (n ≤ 7)."""
    n = union.n
    if n > WITNESS_MAX_N:
        raise I.Unsupported(f"the exhaustive witness search stops at n = {WITNESS_MAX_N}")
    nbs = neighbourhoods(spans_per_head, n)
    perms = [(0,) + p for p in itertools.permutations(range(1, n + 1))]
    for i in range(1, n + 1):
        levels = union.levels(i)
        inner = [v for t, lv in enumerate(levels) if t <= m - 1 for lo, hi in lv for v in range(lo, hi + 1)]
        field = [v for lv in levels for lo, hi in lv for v in range(lo, hi + 1)]
        for sigma in perms:
            if all(_keeps(sigma, v, nbs) for v in inner) and not all(_keeps(sigma, v, nbs) for v in field):
                return list(sigma[1:]), i
    return None
