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


# ---------------------------------------------------------------------------------------------
# The exact least layers at a concrete n, with nauty (Theorem F68, §14.5(f))

EXACT_MAX_N = 4096
EXACT_MAX_WORK = 400_000  # positions and arcs of the rooted graphs, summed over the roots


def _rooted(nbs, field: list, dist: dict, depth: Optional[int]):
    """field's positions as 1..m with the arcs u → v (u ≠ v) into the positions with d(v → i) ≤ depth − 1
    (every position when depth is None), each labelled by the heads holding it; (m, arcs, index)."""
    index = {v: k + 1 for k, v in enumerate(field)}
    arcs: dict = {}
    for h, nb in enumerate(nbs):
        for v in field:
            if depth is not None and dist[v] > depth - 1:
                continue
            for u in nb[v]:
                if u != v:
                    arcs[(index[u], index[v])] = arcs.get((index[u], index[v]), ()) + (h,)
    return len(field), arcs, index


def exact_least(spans_per_head: list, union: I.Spans, radius: int) -> tuple[int, str]:
    """(the least layers for the receptive-field class, why), re-derived with nauty: r, or r + 1 when a
    receptive witness exists (§14.5(d)). A witness (σ, i) has i at eccentricity r and is a question about σ
    on R(i) alone (Theorem F68): a bijection R(i) → R(j), i ↦ j, that is an isomorphism of the *known parts*
    H (the arcs into the positions at distance ≤ r − 1 from the root, those positions and the root
    coloured) but not of the *fields* F (every arc of R(i), the root coloured). Some witness exists iff
    for a root i some generator of Aut(H_i) is not an automorphism of F_i, or H_i ≅ H_j while F_i ≇ F_j
    for two roots: a root-preserving isomorphism of the fields keeps distances, so it is one of the known
    parts, and when Aut(H_i) ⊆ Aut(F_i) the isomorphisms H_i → H_j are one coset of Aut(H_i)."""
    import pynauty
    from . import nauty_graph
    n = union.n
    if radius == 0:
        return 1, "no position attends to another: one layer"
    if n > EXACT_MAX_N:
        raise I.Unsupported(f"n = {n} is above the exact receptive search's limit {EXACT_MAX_N}")
    nbs = neighbourhoods(spans_per_head, n)
    forms: dict = {}
    work = 0
    for i in range(1, n + 1):
        levels = union.levels(i)
        if len(levels) - 1 != radius:
            continue
        dist = {v: t for t, lv in enumerate(levels) for lo, hi in lv for v in range(lo, hi + 1)}
        field = sorted(dist)
        m, known_arcs, index = _rooted(nbs, field, dist, radius)
        _, field_arcs, _ = _rooted(nbs, field, dist, None)
        work += m + len(field_arcs)
        if work > EXACT_MAX_WORK:
            raise I.Unsupported(f"the rooted graphs exceed {EXACT_MAX_WORK} positions and arcs")
        known = {index[v] for v in field if 0 < dist[v] <= radius - 1}
        root = {index[i]}
        try:
            h_graph, h_sig = nauty_graph.build(m, known_arcs, [root, known, set(range(1, m + 1)) - root - known])
            f_graph, f_sig = nauty_graph.build(m, field_arcs, [root, set(range(1, m + 1)) - root])
        except nauty_graph.TooLarge as exc:
            raise I.Unsupported(str(exc)) from None
        for gen in nauty_graph.position_generators(pynauty.autgrp(h_graph)[0], m):
            if any(field_arcs.get((gen[u - 1], gen[v - 1])) != heads for (u, v), heads in field_arcs.items()):
                return radius + 1, (f"an automorphism of the known part of {i}'s receptive field (nauty generator) is "
                                    f"not one of the field: a receptive witness at depth {radius}")
        h_key, f_key = (h_sig, pynauty.certificate(h_graph)), (f_sig, pynauty.certificate(f_graph))
        if h_key in forms and forms[h_key][1] != f_key:
            return radius + 1, (f"the known parts of the receptive fields of {forms[h_key][0]} and {i} are isomorphic "
                                f"and the fields are not (nauty certificates): a receptive witness at depth {radius}")
        forms.setdefault(h_key, (i, f_key))
    return radius, (f"every root's known part has only automorphisms of its receptive field, and isomorphic known "
                    f"parts have isomorphic fields (nauty): no receptive witness at depth {radius}")
