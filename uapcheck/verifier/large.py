"""Pattern steps above the verifier's arc limit (n > patterns.MAX_N): the same facts, checked on the
interval model of the re-parsed patterns (uapcheck/verifier/intervals.py) without listing arcs.

    PAT-DISCONNECTED  the positions that reach i (the backward search from i, closed under
                      in-neighbourhoods) do not contain j
    PAT-CONNECTED     every backward search from i reaches all n positions; the largest number of
                      levels is the diameter; the stated pair realises it
    PAT-LAYERS        a view witness σ: the positions whose in-neighbourhood σ changes (per head) are
                      at distance ≥ D from i (none among the first D − 1 levels of the search)
    SYM-AUT (trivial) every arc of the union goes forward and every arc k − 1 → k is present: an
                      automorphism keeps the unique Hamiltonian path of an acyclic digraph, so it is
                      the identity (and G ⊆ Aut(union) is trivial)
"""
from __future__ import annotations

from . import intervals as I
from .check import VERIFIED, Reject, Trust


def _spans(ctx):
    if "union spans" not in ctx.cache:
        try:
            if any(h.bias for h in ctx.spec.heads) or ctx.spec.positional != "none":
                raise I.Unsupported("a bias or positional encoding")
            ctx.cache["union spans"] = I.union_spans(ctx.spec)
            ctx.cache["head spans"] = I.head_spans(ctx.spec)
        except I.Unsupported as exc:
            ctx.cache["union spans"] = exc
    sp = ctx.cache["union spans"]
    if isinstance(sp, Exception):
        raise Trust(f"n = {ctx.spec.tokens}: the interval model does not cover these patterns ({sp})")
    return sp


def _int(v, what):
    if not isinstance(v, int) or isinstance(v, bool):
        raise Reject(f"{what} is not an integer")
    return v


def disconnected(ctx, s, i, j):
    spans = _spans(ctx)
    n = spans.n
    if not (1 <= i <= n and 1 <= j <= n):
        raise Reject("the witness is outside 1..n")
    field = spans.receptive(i)
    if I.contains(field, j):
        raise Reject(f"x_{j} reaches position {i}")
    return VERIFIED, (f"the backward search from {i} on the interval model closes on {I.size(field)} positions "
                      f"without {j}: position {i} never sees x_{j} (n = {n})")


def eccentricities(ctx):
    if "eccentricities" not in ctx.cache:
        spans = _spans(ctx)
        n = spans.n
        ecc = {}
        for i in range(1, n + 1):
            levels = spans.levels(i)
            if I.size(I.normalise(x for lv in levels for x in lv)) != n:
                ecc = None
                break
            ecc[i] = len(levels) - 1
        ctx.cache["eccentricities"] = ecc
    return ctx.cache["eccentricities"]


def connected(ctx, s):
    data = s.get("data") or {}
    d = _int(data.get("diameter"), "the diameter")
    ecc = eccentricities(ctx)
    if ecc is None:
        raise Reject("some position does not reach every other: not strongly connected")
    true_d = max(ecc.values())
    if true_d != d:
        raise Reject(f"the directed diameter is {true_d}, not {d}")
    pair = data.get("pair") or [None, None]
    if pair[0] is None and pair[1] is None:
        i = max(ecc, key=lambda v: ecc[v])
        return VERIFIED, (f"every one of the {len(ecc)} backward searches on the interval model reaches all "
                          f"positions; diameter {d}, the eccentricity of position {i}")
    j, i = _int(pair[0], "the pair"), _int(pair[1], "the pair")
    if _spans(ctx).distance(j, i) != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}")
    return VERIFIED, (f"every one of the {len(ecc)} backward searches on the interval model reaches all positions; "
                      f"diameter {d}, attained by x_{j} reaching position {i}")


def bad_positions(ctx, perm: list) -> set:
    """Positions v with σ(N_h(v)) ≠ N_h(σ v) for some head h, computed from the moved points only."""
    _spans(ctx)
    heads = ctx.cache["head spans"]
    n = heads[0].n
    moved = [k for k in range(1, n + 1) if perm[k - 1] != k]
    bad = set()
    for sp in heads:
        def nb(v):
            return {x for lo, hi in sp.neighbourhood(v) for x in range(lo, hi + 1)}
        for v in moved:  # a moved position: compare the whole neighbourhood
            if {perm[x - 1] for x in nb(v)} != nb(perm[v - 1]):
                bad.add(v)
        mset = set(moved)
        for v in range(1, n + 1):  # a fixed position: σ must map N(v) ∩ moved onto itself
            if v in mset:
                continue
            inside = {x for lo, hi in sp.neighbourhood(v) for x in mset if lo <= x <= hi}
            if {perm[x - 1] for x in inside} != inside:
                bad.add(v)
    return bad


def view_witness(ctx, perm: list, i: int, d: int) -> str:
    spans = _spans(ctx)
    bad = bad_positions(ctx, perm)
    if not bad:
        raise Reject("σ changes no neighbourhood: it is a symmetry of the heads and shows nothing")
    near = spans.levels(i, limit=d - 1)[:d]
    for t, level in enumerate(near):
        hit = [v for v in bad if I.contains(level, v)]
        if hit:
            raise Reject(f"position {hit[0]}, whose neighbourhood σ changes, is at distance {t} < {d} from {i}")
    return (f"view witness checked on the interval model: the {len(bad)} positions whose neighbourhood σ changes "
            f"are at distance ≥ {d} from {i}")


def trivial_group(ctx) -> str:
    spans = _spans(ctx)
    for v in range(1, spans.n + 1):
        nb = spans.neighbourhood(v)
        if nb[-1][1] > v:
            raise Trust("an arc goes backwards: the trivial group is not re-derived here")
        if v > 1 and not I.contains(nb, v - 1):
            raise Trust("an arc k − 1 → k is missing: the trivial group is not re-derived here")
    return ("every arc of the union goes forward and every arc k − 1 → k is present (checked at every position): "
            "an automorphism keeps the unique Hamiltonian path 1 → … → n of an acyclic digraph, so G is trivial")


def group(ctx, s):
    raise Trust(f"n = {ctx.spec.tokens}: only the trivial group is re-derived above the arc limit")
