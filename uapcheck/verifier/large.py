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
    SYM-AUT (other)   one head: |Aut| = |Aut(Q)| · ∏ |C|! over the twin classes C (modules any
                      permutation of which is an automorphism, found by neighbourhood hashes, checked
                      exactly, maximal), with Q the quotient coloured by size and kind, by nauty
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


def _points(sp: I.Spans, v: int) -> set:
    return {x for lo, hi in sp.neighbourhood(v) for x in range(lo, hi + 1)}


def bad_positions(ctx, perm: list) -> set:
    """Positions v with σ(N_h(v)) ≠ N_h(σ v) for some head h, computed from the moved points only."""
    _spans(ctx)
    heads = ctx.cache["head spans"]
    n = heads[0].n
    moved = [k for k in range(1, n + 1) if perm[k - 1] != k]
    bad = set()
    for sp in heads:
        for v in moved:  # a moved position: compare the whole neighbourhood
            if {perm[x - 1] for x in _points(sp, v)} != _points(sp, perm[v - 1]):
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


def forward_chain(ctx):
    """The reason the group is trivial when every arc of the union goes forward and every arc k − 1 → k
    is present (checked at every position), else None."""
    if "forward chain" not in ctx.cache:
        spans = _spans(ctx)
        ok = True
        for v in range(1, spans.n + 1):
            nb = spans.neighbourhood(v)
            if nb[-1][1] > v or (v > 1 and not I.contains(nb, v - 1)):
                ok = False
                break
        ctx.cache["forward chain"] = ok
    if not ctx.cache["forward chain"]:
        return None
    return ("every arc of the union goes forward and every arc k − 1 → k is present (checked at every position): "
            "an automorphism keeps the unique Hamiltonian path 1 → … → n of an acyclic digraph, so G is trivial")


# ---------------------------------------------------------------------------------------------
# |Aut| above the arc limit: twin classes and a quotient decided by nauty

HASH_BITS = 61
QUOTIENT_MAX_ARCS = 6_000_000
MAX_TWIN_TESTS = 200


def _hashes(spans: I.Spans) -> tuple[list, list]:
    """HC(v) = a hash of N(v) (v included) and HO(v) = a hash of N(v) ∖ {v}, from prefix sums of random
    weights. Twins (the transposition (u v) an automorphism) have N(u) = N(v) (an arc between them) or
    N(u) ∖ {u} = N(v) ∖ {v} (none), so equal HC or equal HO; a collision only costs an exact check."""
    import random
    n = spans.n
    rng = random.Random(20261201)
    mod = (1 << HASH_BITS) - 1
    weight = [0] + [rng.getrandbits(HASH_BITS) for _ in range(n)]
    prefix = [0] * (n + 1)
    for k in range(1, n + 1):
        prefix[k] = (prefix[k - 1] + weight[k]) % mod
    hc, ho = [0] * (n + 1), [0] * (n + 1)
    for v in range(1, n + 1):
        h = 0
        for lo, hi in spans.neighbourhood(v):
            h = (h + prefix[hi] - prefix[lo - 1]) % mod
        hc[v], ho[v] = h, (h - weight[v]) % mod
    return hc, ho


def _module(spans: I.Spans, part: list, closed: bool) -> bool:
    """Every permutation of `part` is an automorphism: outside positions see all of it or none of it,
    its members have the same neighbours outside it, and inside it all arcs (closed) or none (open)."""
    n = spans.n
    cell = I.normalise((v, v) for v in part)
    k = len(part)
    outside = None
    for x in range(1, n + 1):
        nb = spans.neighbourhood(x)
        common = I.size(_intersect(nb, cell))
        if x in part:
            if common != (k if closed else 1):
                return False
            rest = I.subtract(nb, cell)
            if outside is None:
                outside = rest
            elif rest != outside:
                return False
        elif common not in (0, k):
            return False
    return True


def _intersect(a: I.Intervals, b: I.Intervals) -> I.Intervals:
    out, p, q = [], 0, 0
    while p < len(a) and q < len(b):
        lo, hi = max(a[p][0], b[q][0]), min(a[p][1], b[q][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[p][1] < b[q][1]:
            p += 1
        else:
            q += 1
    return out


def _swap_is_automorphism(ctx, u: int, v: int) -> bool:
    n = ctx.spec.tokens
    perm = list(range(1, n + 1))
    perm[u - 1], perm[v - 1] = v, u
    return not bad_positions(ctx, perm)


def twin_partition(ctx):
    """The twin classes (maximal sets any permutation of which is an automorphism), each with its kind."""
    spans = _spans(ctx)
    if len(ctx.spec.heads) != 1:
        raise Trust("the group above the arc limit is re-derived here for one head")
    n = spans.n
    hc, ho = _hashes(spans)
    by: dict = {}
    for v in range(1, n + 1):
        by.setdefault(("c", hc[v]), []).append(v)
        by.setdefault(("o", ho[v]), []).append(v)
    part_of: dict = {}
    parts: list = []
    for (kind, _), members in sorted(by.items(), key=lambda kv: kv[1]):
        if len(members) < 2:
            continue
        if any(v in part_of for v in members):
            raise Trust("a position lies in two candidate twin classes")
        if not _module(spans, members, kind == "c"):
            raise Trust("a candidate twin class is not a module of the pattern")
        for v in members:
            part_of[v] = len(parts)
        parts.append((members, kind))
    for v in range(1, n + 1):
        if v not in part_of:
            part_of[v] = len(parts)
            parts.append(([v], "single"))
    # maximality: representatives of different parts that share a hash must not be twins
    sharing: dict = {}
    for idx, (members, _) in enumerate(parts):
        u = members[0]
        for key in (("c", hc[u]), ("o", ho[u])):
            sharing.setdefault(key, []).append(idx)
    pairs = {(a, b) for group in sharing.values() for a in group for b in group if a < b}
    if len(pairs) > MAX_TWIN_TESTS:
        raise Trust("too many candidate twin classes share a neighbourhood hash")
    for a, b in sorted(pairs):
        if _swap_is_automorphism(ctx, parts[a][0][0], parts[b][0][0]):
            raise Trust("two candidate twin classes are twins of each other")
    return parts, part_of


def group(ctx, s):
    import math
    data = s.get("data") or {}
    from .trees import decode
    if data.get("order") is None:
        # an order too long for the certificate's integers is stated in the bounded form "≈ m × 10^e"
        # (the certificate's `order`): the recomputed order is compared with that statement
        claimed = _approximate_order(s)
    else:
        claimed = decode(data.get("order"), ctx.symbols)
        if not claimed.is_Integer:
            raise Reject("the group's order is not stated as an integer")
    gens = data.get("generators")
    if isinstance(gens, list):
        for g in gens:
            if not (isinstance(g, list) and len(g) == ctx.spec.tokens) or bad_positions(ctx, g):
                raise Reject("a generator is not a symmetry of the heads")
    parts, part_of = twin_partition(ctx)
    try:
        q_order = _quotient_order(ctx, parts, part_of)
    except ImportError:
        raise Trust("pynauty is not installed: the quotient's group is not re-derived") from None
    except MemoryError:
        # pynauty raises MemoryError when nauty cannot allocate the graph (offsets {±1, ±3} cyclic at
        # 1,048,576 positions, no twins): a resource limit, never a traceback
        raise Trust(f"nauty could not allocate the quotient on {len(parts)} classes: the group is not "
                    "re-derived") from None
    order = q_order
    for members, _ in parts:
        order *= math.factorial(len(members))
    if isinstance(claimed, tuple):
        if not _agrees_with(order, *claimed):
            raise Reject(f"|Aut| = {q_order} · ∏ |C|! over the twin classes is not ≈ {claimed[0]} × 10^{claimed[1]}")
    elif order != claimed:
        raise Reject(f"|Aut| = {q_order} · ∏ |C|! over the twin classes is not the stated order")
    big = sorted((len(m) for m, _ in parts if len(m) > 1), reverse=True)
    stated = (f"agrees with the stated ≈ {claimed[0]} × 10^{claimed[1]} (to one unit in its last digit)"
              if isinstance(claimed, tuple) else "equals the stated order")
    return VERIFIED, (f"twin classes recomputed on the interval model ({len(parts)} classes; sizes ≥ 2: "
                      f"{big[:6]}{'…' if len(big) > 6 else ''}), each checked to be a module (every permutation "
                      f"of it is an automorphism) and maximal; the coloured quotient's group by nauty (order "
                      f"{q_order}); |Aut| = |Aut(quotient)| · ∏ |C|! {stated}")


def _approximate_order(s) -> tuple:
    """The stated order "≈ m × 10^e" of a step whose exact order is too long to write: (m as text, e)."""
    import re
    text = (s.get("certificate") or {}).get("order")
    match = re.fullmatch(r"≈ ([1-9]\.[0-9]+) × 10\^([0-9]+)", text) if isinstance(text, str) else None
    if match is None:
        raise Reject("the group's order is stated neither as an integer nor as ≈ m × 10^e")
    return match.group(1), int(match.group(2))


def _agrees_with(order: int, mantissa: str, exponent: int) -> bool:
    """Whether the positive integer `order` is mantissa × 10^exponent to within one unit in the
    mantissa's last place (the statement is a rounding of a floating-point logarithm, so its last digit
    may be off by one). Exact: compared in integers, (m − 1) · 10^(e − k) ≤ order ≤ (m + 1) · 10^(e − k)
    with m the mantissa's k-digit fraction written as an integer."""
    whole, _, frac = mantissa.partition(".")
    m, scale = int(whole + frac), exponent - len(frac)
    if scale >= 0:
        return (m - 1) * 10 ** scale <= order <= (m + 1) * 10 ** scale
    return (m - 1) <= order * 10 ** (-scale) <= (m + 1)


def _quotient_order(ctx, parts, part_of) -> int:
    """|Aut| of the quotient digraph on the twin classes, coloured by (size, kind), by nauty; the order of
    nauty's generators by Schreier–Sims."""
    import pynauty
    from . import groups
    spans = _spans(ctx)
    k = len(parts)
    adjacency: dict = {x: [] for x in range(k)}
    arcs = 0
    for idx, (members, _) in enumerate(parts):
        seen = set()
        for lo, hi in spans.neighbourhood(members[0]):
            arcs += hi - lo + 1
            if arcs > QUOTIENT_MAX_ARCS:
                raise Trust("the quotient has too many arcs for the verifier")
            for v in range(lo, hi + 1):
                src = part_of[v]
                if src != idx and src not in seen:
                    seen.add(src)
                    adjacency[src].append(idx)
    colours: dict = {}
    for idx, (members, kind) in enumerate(parts):
        colours.setdefault((len(members), kind), set()).add(idx)
    g = pynauty.Graph(k, directed=True, adjacency_dict=adjacency,
                      vertex_coloring=[colours[c] for c in sorted(colours)])
    gens = pynauty.autgrp(g)[0]
    return groups.order([[p[v] + 1 for v in range(k)] for p in gens], k)
