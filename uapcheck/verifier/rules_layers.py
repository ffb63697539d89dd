"""Per-layer pattern steps (SEQ-*, docs/theory.md §21), re-checked on the layers' arcs the verifier
rebuilds itself (uapcheck/verifier/layer_views.py)."""
from __future__ import annotations

from typing import Optional

from . import groups, layer_views, patterns
from .blocks_layers import states_order
from .check import VERIFIED, Reject, Trust, checker
from .rules_graph import name_checked
from .views import NoNauty

STANDARD_NAMES = ("S_n", "C_n", "D_n", "reflection", "trivial")


def _reading(ctx, key: str, build, failure: type[Exception], refuse):
    """`build(ctx.spec)`, the verifier's own reading of the file's layers, made once per certificate (`ctx.cache`);
    when it fails with `failure`, the failure is kept and every step that asks raises `refuse(failure)`."""
    if key not in ctx.cache:
        try:
            ctx.cache[key] = build(ctx.spec)
        except failure as exc:
            ctx.cache[key] = exc
    got = ctx.cache[key]
    if isinstance(got, failure):
        raise refuse(got)
    return got


def _layers(ctx) -> layer_views.Layers:
    return _reading(ctx, "layers", layer_views.build, layer_views.NotLayered, lambda exc: Trust(str(exc)))


def _int(v, what) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise Reject(f"{what} is not an integer")
    return v


def _proved(s) -> None:
    if s["status"] != "proved":
        raise Reject(f"{s['rule']} only concludes `proved`")


def _position(v, n, what) -> int:
    v = _int(v, what)
    if not 1 <= v <= n:
        raise Reject(f"{what} {v} is not a position 1..{n}")
    return v


@checker("SEQ-CONNECTED")
def connected(ctx, s):
    _proved(s)
    L = _layers(ctx)
    data = s.get("data") or {}
    d = _int(data.get("depth"), "the depth D_Φ")
    if s["evidence"].get("D_Φ") != d:
        raise Reject("the depth is not the one the derivation printed")
    if L.n == 1:  # one position: it sees x_1 at depth 0, and no pair is missed below it
        if d != 0 or data.get("i") is not None or data.get("j") is not None:
            raise Reject(f"n = 1: D_Φ is 0 (the only position holds x_1), not {d} with a pair missed below it")
        return VERIFIED, "n = 1: the only position holds x_1 at depth 0, so D_Φ = 0"
    i, j = _position(data.get("i"), L.n, "the position i"), _position(data.get("j"), L.n, "the position j")
    printed = s["evidence"].get("not within D − 1") or {}
    if (printed.get("i"), printed.get("j")) != (i, j):
        raise Reject("the pair (i, j) is not the one the derivation printed")
    if d < 1 or (L.limit is not None and d > L.limit):
        raise Reject(f"D_Φ = {d} is not within the network's {L.limit} attention layers")
    full = sum(1 << v for v in range(1, L.n + 1))
    within = layer_views.reach(L, d)
    short = [v for v in range(1, L.n + 1) if within[v] != full]
    if short:
        missing = next(u for u in range(1, L.n + 1) if not within[short[0]] >> u & 1)
        raise Reject(f"x_{missing} does not reach position {short[0]} within {d} layers")
    if layer_views.reach(L, d - 1)[i] >> j & 1:
        raise Reject(f"x_{j} reaches position {i} within {d - 1} layers: D_Φ is not {d}")
    return VERIFIED, (f"receptive sets In_ℓ(i) recomputed from the arcs of layers 1..{d} (paths through increasing "
                      f"layers, §21.1): every In_{d}(i) is all of 1..{L.n}, and x_{j} is not in In_{d - 1}({i})")


@checker("SEQ-DISCONNECTED")
def disconnected(ctx, s):
    _proved(s)
    L = _layers(ctx)
    data = s.get("data") or {}
    i, j = _position(data.get("i"), L.n, "the witness i"), _position(data.get("j"), L.n, "the witness j")
    printed = s["evidence"].get("witness") or {}
    if (printed.get("i"), printed.get("j")) != (i, j):
        raise Reject("the witness is not the one the derivation printed")
    mask, depth = layer_views.reach_limit(L, i)
    if mask >> j & 1:
        raise Reject(f"x_{j} reaches position {i}" + (f" within {depth} layers" if depth is not None else ""))
    where = f"within the {depth} attention layers" if L.limit is not None else (
        "at any depth (the receptive set stopped growing for a whole period)")
    return VERIFIED, f"receptive set of position {i} recomputed from the layers' arcs: x_{j} never enters it {where}"


def _generators(s, n) -> list:
    data = s.get("data") or {}
    gens = data.get("generators")
    if gens is None:
        gens = (s.get("certificate") or {}).get("generators") if isinstance(s.get("certificate"), dict) else None
    if not isinstance(gens, list):
        raise Reject("the generators of G are not listed")
    for g in gens:
        if not patterns.is_permutation(g, n):
            raise Reject(f"generator {str(g)[:60]} is not a permutation of 1..n")
    return gens


def _checked_group(ctx, s, L) -> tuple[list, int]:
    """The group step's generators, each preserving every layer's heads arc by arc, and their order."""
    key = ("seq group", s["id"])
    if key not in ctx.cache:
        gens = _generators(s, L.n)
        lab = L.labels()
        for g in gens:
            if not patterns.preserves(g, lab):
                moved = [k + 1 for k in range(L.n) if g[k] != k + 1][:6]
                raise Reject(f"a generator (moving {moved}) does not preserve every layer's heads")
        ctx.cache[key] = (gens, groups.order(gens, L.n))
    return ctx.cache[key]


@checker("SEQ-GROUP")
def group(ctx, s):
    _proved(s)
    L = _layers(ctx)
    gens, order = _checked_group(ctx, s, L)
    data = s.get("data") or {}
    stated = data.get("order")
    if stated is None and isinstance(s.get("certificate"), dict) and isinstance(s["certificate"].get("order"), str):
        stated = s["certificate"]["order"]  # an order too long to write as an integer, in its bounded form
    if not states_order(stated, order):
        raise Reject(f"the generators generate a group of order {order}, not {stated}")
    full, method = groups.full_order(L.labels(), L.n, "none")
    if full is None:
        raise Trust(f"the order {order} is re-derived (Schreier–Sims), completeness not re-checked: {method}")
    if full != order:
        raise Reject(f"every layer's heads together have {full} symmetries ({method}); the generators give only {order}")
    why = name_checked(data, gens, L.n, order)
    return VERIFIED, (f"every generator preserves the arcs of every head of layers 1..{len(L.group_layers())}; order "
                      f"{order} by Schreier–Sims; complete: {method}{why}")


def _group_step(ctx):
    found = [st for st in ctx.steps.values() if st["rule"] == "SEQ-GROUP" and st["status"] == "proved"]
    if len(found) != 1:
        raise Reject("the derivation has no (single) proved SEQ-GROUP step to take G from")
    return found[0]


def _witness(ctx, s, L, wit, depth: int, gens) -> str:
    """A view witness at `depth`, checked by the definition on the arcs, outside G."""
    if not isinstance(wit, dict) or wit.get("depth") != depth:
        raise Reject(f"no view witness at depth {depth} is given")
    i = _position(wit.get("position"), L.n, "the witness position")
    printed = s["evidence"].get("view witness") or {}
    if (printed.get("position"), printed.get("depth")) != (i, depth):
        raise Reject("the view witness is not the one the derivation printed")
    perm = wit.get("permutation")
    if not isinstance(perm, list) or not patterns.is_permutation(perm, L.n):
        raise Reject("the view witness is not a permutation of 1..n")
    if patterns.preserves(perm, L.labels()):
        raise Reject("the view witness preserves every layer's heads: it lies in G and shows nothing")
    problem = layer_views.witness_holds(L, perm, i, depth)
    if problem:
        raise Reject(f"the view witness fails at position {i}, depth {depth}: {problem}")
    moved = [k + 1 for k in range(L.n) if perm[k] != k + 1]
    return (f"σ (moving {moved[:6]}{'…' if len(moved) > 6 else ''}) is outside G and satisfies the view condition at "
            f"position {i} on every layer ≤ {depth}, checked arc by arc")


@checker("SEQ-LAYERS")
def layers(ctx, s):
    _proved(s)
    L = _layers(ctx)
    data = s.get("data") or {}
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "SEQ-CONNECTED":
        raise Reject("its premise is not the connectivity step")
    d = _int((prem[0].get("data") or {}).get("depth"), "the premise's depth")
    m = _int(data.get("layers"), "the number of layers")
    if m < max(d, 1):
        raise Reject(f"{m} layers is below D_Φ = {d}: the connectivity step shows fewer do not reach"
                     if m < d else f"{m} layers: a model has at least one attention layer")
    if L.limit is not None and m > L.limit:
        raise Reject(f"{m} layers exceed the network's {L.limit}")
    gens, _ = _checked_group(ctx, _group_step(ctx), L)
    why_least = f"fewer than D_Φ = {d} layers do not reach (premise)"
    if d == 0 and m == 1:
        why_least = "D_Φ = 0 (n = 1), and one attention layer is the fewest a model has"
    elif data.get("least") and m > d:
        why_least = _witness(ctx, s, L, data.get("view witness"), m - 1, gens) + (
            f", so {m - 1} layers (and, views growing with the depth, fewer) do not give the G-UAP")
    cert = s.get("certificate") if isinstance(s.get("certificate"), dict) else {}
    if cert.get("kind") == "layer-group-covering":
        return VERIFIED, _covering(ctx, L, m, cert.get("layers seen whole"), gens) + "; " + (
            why_least if data.get("least") else "least not claimed")
    try:
        problem = layer_views.no_witness(L, m, gens)
    except NoNauty as exc:
        raise Trust(f"{m} layers claimed sufficient; the rooted views are not re-decided: {exc}") from None
    if problem:
        raise Reject(f"{m} layers do not suffice: {problem}")
    return VERIFIED, (f"rooted views per layer (§21.4) decided with nauty, not BLISS: no view witness at depth {m}, so "
                      f"{m} layers suffice; " + (why_least if data.get("least") else "least not claimed"))


def _covering(ctx, L, m: int, covered, gens) -> str:
    """The covering lemma (§21.3) re-checked: each named layer ℓ < m is seen whole by every position (layers
    ℓ + 1, …, m connect, on the verifier's own arcs), and the automorphism group of those layers' heads alone,
    computed here with nauty, has G's order (it contains G, so it is G): no permutation outside G keeps a view."""
    if not isinstance(covered, list) or not covered or not all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in covered):
        raise Reject("the layers seen whole are not listed")
    full = sum(1 << v for v in range(1, L.n + 1))
    for ell in covered:
        if not 1 <= ell < m:
            raise Reject(f"layer {ell} is not below the depth {m}")
        within = layer_views.reach_from(L, ell, m - ell)
        short = next((v for v in range(1, L.n + 1) if within[v] != full), None)
        if short is not None:
            raise Reject(f"layers {ell + 1}…{m} do not connect every position to {short}: layer {ell} is not seen "
                         "whole")
    _, order = _checked_group(ctx, _group_step(ctx), L)
    covering, method = groups.full_order(layer_views.layer_labels(L, covered), L.n, "none")
    if covering is None:
        raise Trust(f"the covered layers' group is not re-derived: {method}")
    if covering != order:
        raise Reject(f"the heads of layers {covered} alone have {covering} automorphisms ({method}), not |G| = {order}: "
                     "a permutation outside G may keep a view")
    return (f"layers {covered} are seen whole by every position at depth {m} (reach recomputed) and their heads alone "
            f"have |G| = {order} automorphisms ({method}): no view witness at depth {m}, so {m} layers suffice")


@checker("SEQ-DEPTH")
def depth(ctx, s):
    _proved(s)
    L = _layers(ctx)
    if L.limit is None:
        raise Reject("a periodic Φ without a budget has no whole depth")
    gens, _ = _checked_group(ctx, _group_step(ctx), L)
    data = s.get("data") or {}
    return VERIFIED, _witness(ctx, s, L, data.get("view witness"), L.limit, gens) + (
        f": the network's {L.limit} attention layers never give the G-UAP")


# ---------------------------------------------------------------------------------------------
# Causal targets (docs/theory.md §21.5)


@checker("SEQ-CAUSAL-REACH")
def causal_reach(ctx, s):
    _proved(s)
    L = _layers(ctx)
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    forward = layer_views.forward_arc(L)
    if forward is not None:
        raise Reject(f"layer {forward[0]} has the arc {forward[1]} → {forward[2]} from a later position: not causal")
    data = s.get("data") or {}
    d = _int(data.get("depth"), "the depth D_c")
    if s["evidence"].get("D_c") != d:
        raise Reject("the depth is not the one the derivation printed")
    if L.limit is not None and d > L.limit:
        raise Reject(f"D_c = {d} is not within the network's {L.limit} attention layers")
    short = layer_views.prefix_reached(L, d)
    if short is not None:
        raise Reject(f"x_{short[1]} does not reach position {short[0]} within {d} layers")
    if d >= 1:
        i, j = _position(data.get("i"), L.n, "the position i"), _position(data.get("j"), L.n, "the position j")
        printed = s["evidence"].get("not within D_c − 1") or {}
        if (printed.get("i"), printed.get("j")) != (i, j):
            raise Reject("the pair (i, j) is not the one the derivation printed")
        if not j < i or layer_views.reach(L, d - 1)[i] >> j & 1:
            raise Reject(f"x_{j} reaches position {i} within {d - 1} layers (or j ≥ i)")
    return VERIFIED, (f"every layer causal-class and every prefix reached within D_c = {d} layers, recomputed on the "
                      "verifier's own arcs, and not within D_c − 1 (the pair, §21.5)")


@checker("SEQ-CAUSAL-LAYERS")
def causal_layers(ctx, s):
    _proved(s)
    L = _layers(ctx)
    data = s.get("data") or {}
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "SEQ-CAUSAL-REACH" or prem[0]["status"] != "proved":
        raise Reject("its premise is not the proved prefix-reach step")
    d = _int((prem[0].get("data") or {}).get("depth"), "the premise's depth")
    m = _int(data.get("layers"), "the number of layers")
    if m < max(d, 1):
        raise Reject(f"{m} layers is below D_c = {d}: the reach step shows fewer do not reach the prefixes"
                     if m < d else f"{m} layers: a model has at least one attention layer")
    if L.limit is not None and m > L.limit:
        raise Reject(f"{m} layers exceed the network's {L.limit}")
    if not data.get("least"):
        raise Reject("the step always claims the least count")
    why_least = f"fewer than D_c = {d} layers do not reach (premise)"
    if d == 0 and m == 1:
        why_least = "D_c = 0 (n = 1), and one attention layer is the fewest a model has"
    elif m > d:
        why_least = _causal_witness(L, data.get("causal view witness"), m - 1) + (
            f", so {m - 1} layers (and, views growing with the depth, fewer) do not give the UAP for causal targets")
    try:
        problem = layer_views.no_causal_witness(L, m)
    except NoNauty as exc:
        raise Trust(f"{m} layers claimed sufficient; the rooted views are not re-decided: {exc}") from None
    if problem:
        raise Reject(f"{m} layers do not suffice: {problem}")
    return VERIFIED, (f"rooted views on the prefixes (§21.5) decided with nauty, not BLISS: no causal view witness at "
                      f"depth {m}, so {m} layers suffice; {why_least}")


def _causal_witness(L, wit, depth: int) -> str:
    if not isinstance(wit, dict):
        raise Reject("no causal view witness is given for the depth below the count")
    i = _position(wit.get("position"), L.n, "the witness position")
    perm = wit.get("permutation")
    if not isinstance(perm, list) or not patterns.is_permutation(perm, L.n):
        raise Reject("the witness is not a permutation of 1..n")
    if wit.get("depth") != depth:
        raise Reject(f"the witness is stated at depth {wit.get('depth')}, not {depth}")
    problem = layer_views.causal_witness(L, perm, i, depth)
    if problem:
        raise Reject(f"not a causal view witness: {problem}")
    return f"the causal view witness at position {i}, depth {depth}, re-checked arc by arc"


def causal_depth_witness(ctx, s, data) -> tuple:
    """TGT-NOT-CAUSAL's per-layer route: a causal view witness at the network's whole depth (§21.5)."""
    L = _layers(ctx)
    if L.limit is None:
        raise Reject("a periodic Φ without a budget has no whole depth")
    return VERIFIED, _causal_witness(L, data, L.limit) + (
        f": the network's {L.limit} attention layers never give the UAP for causal targets")


def causal_unreached(ctx, i: int, j: int) -> tuple:
    """TGT-NOT-CAUSAL's unreached route on per-layer patterns: x_j never reaches i within the network's layers
    (a periodic Φ: until the reach stops growing for a whole period, §21.1)."""
    above = sink_unreached(ctx, i, j) or interval_unreached(ctx, i, j)
    if above is not None:
        return above
    L = _layers(ctx)
    got, used = layer_views.reach_limit(L, i)
    if got >> j & 1:
        raise Reject(f"x_{j} reaches position {i} on the verifier's per-layer arcs")
    where = f"within the network's {used} layers" if used is not None else "at any depth"
    return VERIFIED, (f"the reach of position {i} through increasing layers on the verifier's own arcs misses {j} < {i} "
                      f"{where}: every model's output at {i} ignores x_{j}, while the causal target F(X)_{i} = x_{j} "
                      "depends on it")


# ---------------------------------------------------------------------------------------------
# Causal targets on per-layer interval heads at any n (docs/theory.md §21.6, Theorem F121)


def _intervals(ctx):
    from .causal_intervals import NotIntervals, build
    return _reading(ctx, "intervals", build, NotIntervals,
                    lambda exc: Reject(f"the heads are not interval heads: {exc}"))


@checker("SEQ-CAUSAL-INTERVALS")
def causal_intervals(ctx, s):
    _proved(s)
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    iv = _intervals(ctx)
    data = s.get("data") or {}
    d = _int(data.get("depth"), "the depth D_c")
    m = _int(data.get("layers"), "the number of layers")
    if s["evidence"].get("D_c") != d or s["evidence"].get("layers") != m:
        raise Reject("the depth or the count is not the one the derivation printed")
    if data.get("least") is not True:
        raise Reject("the step always claims the least count")
    cap = d if iv.limit is None else min(d, iv.limit)
    if iv.reach_depth(cap) != d:
        raise Reject(f"the widths do not reach every prefix first at depth {d}")
    if d >= 1:
        i, j = _position(data.get("i"), iv.n, "the position i"), _position(data.get("j"), iv.n, "the position j")
        if not (j < i and i - iv.total(d - 1) > j):
            raise Reject(f"x_{j} reaches position {i} within {d - 1} layers (or j ≥ i)")
    if m < max(d, 1) or (iv.limit is not None and m > iv.limit):
        raise Reject(f"{m} layers is below D_c = {d} or above the network's depth")
    if iv.any_witness(m) is not None:
        raise Reject(f"a causal view witness exists at depth {m} (Theorem F121): {m} layers do not suffice")
    why = f"fewer than D_c = {d} layers do not reach (x_{data.get('j')} misses position {data.get('i')})"
    if m == d and data.get("causal view witness") is not None:  # the count is D_c's: a witness there was read by nothing
        raise Reject(f"a causal view witness is stated, but the count is D_c = {d}, which needs none")
    if m > d:
        wit = data.get("causal view witness") or {}
        pair = wit.get("transposition")
        if wit.get("depth") != m - 1 or wit.get("position") != iv.n or not isinstance(pair, list) or len(pair) != 2:
            raise Reject("no transposition witness at position n and depth layers − 1 is given")
        j0 = _int(pair[0], "the transposition")
        if pair[1] != j0 + 1 or not iv.is_witness(m - 1, j0):
            raise Reject(f"the transposition ({pair[0]} {pair[1]}) is not a causal view witness at depth {m - 1}")
        why = (f"the transposition ({j0} {j0 + 1}) is a causal view witness at position {iv.n}, depth {m - 1} "
               "(Theorem F121, by the verifier's own covering of the first wide layer's out-sets)")
    return VERIFIED, (f"every head read as an interval head (confirmed on the verifier's arcs at a small n); every "
                      f"prefix reached within D_c = {d} layers by the sums of the widths; no causal view witness at "
                      f"depth {m} (Theorem F121), so {m} layers suffice; {why}")


def interval_depth_witness(ctx, data) -> tuple:
    """TGT-NOT-CAUSAL's interval route: a transposition witness at the network's whole depth (§21.6)."""
    iv = _intervals(ctx)
    if iv.limit is None:
        raise Reject("a periodic Φ without a budget has no whole depth")
    if data.get("depth") != iv.limit or data.get("position") != iv.n:
        raise Reject("the witness is not at position n and the network's whole depth")
    j = _int(data.get("j"), "the transposition")
    if iv.reach_depth(iv.limit) is None:
        raise Reject("the prefixes are not reached within the network's depth")
    if not iv.is_witness(iv.limit, j):
        raise Reject(f"the transposition ({j} {j + 1}) is not a causal view witness at depth {iv.limit}")
    return VERIFIED, (f"the transposition ({j} {j + 1}) is a causal view witness at position {iv.n} and the network's "
                      f"whole depth {iv.limit} (Theorem F121): no member of the family gives the UAP for causal targets")


def _sink_heads(ctx):
    """The verifier's reading of per-layer heads with attention sinks (None when no head has sinks or they are not
    sink interval heads)."""
    from .causal_intervals import NotIntervals
    from .causal_sinks import build
    if "sink heads" not in ctx.cache:
        try:
            got = build(ctx.spec)
            ctx.cache["sink heads"] = got if any(k for row in got.rows for _, k in row) else None
        except NotIntervals:
            ctx.cache["sink heads"] = None
    return ctx.cache["sink heads"]


def sink_unreached(ctx, i: int, j: int) -> Optional[tuple]:
    """TGT-NOT-CAUSAL's unreached route on heads with attention sinks above the per-layer arc limit: the view of
    position i at the network's whole depth (the recursion of §21.3 on interval lists) misses j."""
    if not isinstance(ctx.spec.tokens, int) or ctx.spec.tokens <= layer_views.MAX_N:
        return None
    sk = _sink_heads(ctx)
    if sk is None:
        return None
    if sk.limit is None:
        raise Reject("a periodic Φ without a budget has no whole depth to fall short of")
    if not 1 <= j < i <= sk.n or any(a <= j <= b for a, b in sk.views(i, sk.limit)[0]):
        raise Reject(f"x_{j} reaches position {i} within the network's {sk.limit} layers (or j ≥ i)")
    return VERIFIED, (f"position {i}'s view through the network's {sk.limit} layers (the sinks and windows of §21.9, "
                      f"on the verifier's interval lists) misses {j} < {i}: the causal target F(X)_{i} = x_{j} is not "
                      "approximable")


def sink_depth_witness(ctx, data) -> tuple:
    """TGT-NOT-CAUSAL's sink route: a transposition witness at the network's whole depth (§21.9, F128 (d)), checked
    by the definition on the verifier's interval lists, every prefix reached within that depth."""
    sk = _sink_heads(ctx)
    if sk is None:
        raise Reject("the heads are not sink interval heads")
    if sk.limit is None:
        raise Reject("a periodic Φ without a budget has no whole depth")
    i, m, j = (_int(data.get(k), k) for k in ("position", "depth", "j"))
    j2 = _int(data.get("j2", j + 1), "j2")
    if m != sk.limit:
        raise Reject("the witness is not at the network's whole depth")
    if sk.reached(m) is not None:
        raise Reject("the prefixes are not reached within the network's depth")
    if not sk.witness(i, m, j, j2):
        raise Reject(f"the transposition ({j} {j2}) is not a causal view witness at position {i}, depth {m}")
    return VERIFIED, (f"the transposition ({j} {j2}) is a causal view witness at position {i} and the network's "
                      f"whole depth {m} (checked set by set on the verifier's interval lists): no member of the family "
                      "gives the UAP for causal targets")


def interval_unreached(ctx, i: int, j: int) -> Optional[tuple]:
    """TGT-NOT-CAUSAL's unreached route on interval heads above the per-layer arc limit (None: not that case)."""
    if not isinstance(ctx.spec.tokens, int) or ctx.spec.tokens <= layer_views.MAX_N:
        return None
    iv = _intervals(ctx)
    if iv.limit is not None:
        if i - iv.total(iv.limit) <= j:
            raise Reject(f"x_{j} reaches position {i} within the network's {iv.limit} layers")
        where = f"within the network's {iv.limit} layers"
    else:
        if sum(max(row) for row in iv.rows) != 0 or i == j:
            raise Reject("a period of positive width reaches every prefix")
        where = "at any depth (every layer of the period has width 0)"
    return VERIFIED, (f"position {i} reads [{i} − S, {i}] after the layers' widths summed to S, which misses {j} "
                      f"{where}: the causal target F(X)_{i} = x_{j} is not approximable")


# ---------------------------------------------------------------------------------------------
# Sparse Transformer's alternations at any n (docs/theory.md §21.7, Theorems F133 and F134)


def _alternation(ctx):
    from .alternations import NotAlternation, read
    got = _reading(ctx, "alternation", read, NotAlternation,
                   lambda exc: Reject(f"the layers are not an alternation of Theorem F133 or F134: {exc}"))
    budget = ctx.spec.layers
    if isinstance(budget, int) and not isinstance(budget, bool):
        from .alternations import count
        if budget < count(got)[1]:
            raise Reject(f"the budget `layers {budget}` is below the theorem's count")
    return got


def _same_reading(alt, data) -> None:
    theorem = "F133" if alt.family == "strided" else "F134"
    if (data.get("theorem"), data.get("family"), data.get("parameters"), data.get("first layer")) != \
            (theorem, alt.family, [alt.p, alt.q], alt.kinds[0]):
        raise Reject("the step's family, parameters or first layer are not the input's")


@checker("SEQ-ALTERNATION-GROUP")
def alternation_group(ctx, s):
    from .alternations import group_words, instance_order
    _proved(s)
    alt = _alternation(ctx)
    data = s.get("data") or {}
    _same_reading(alt, data)
    name, order = group_words(alt)
    if data.get("name") != name or s["evidence"].get("name") != name:
        raise Reject(f"Theorem {data.get('theorem')} gives the group {name[:80]}, not {str(data.get('name'))[:80]}")
    if data.get("order") is not None and data.get("order") != order:
        raise Reject(f"the order is {order}, not {data.get('order')}")
    tested = []
    for m in alt.small:
        got, method = instance_order(alt, m)
        if got is None:
            raise Trust(f"the closed form is not instance-tested: {method}")
        want = group_words(alt.at_length(m))[1]
        if got != want:
            raise Reject(f"at n = {m} both layers have {got} symmetries ({method}); the closed form gives {want}")
        tested.append(m)
    theorem = data.get("theorem")
    return VERIFIED, (f"Theorem {theorem}'s premises hold at n = {alt.n} (the patterns read here and confirmed on the "
                      f"verifier's arcs); its group is {name[:80]}; the closed form's order equals nauty's on the "
                      f"verifier's own arcs at n = {', '.join(map(str, tested))}")


def _alternation_strided(alt, data, m: int) -> str:
    """Theorem F133 (c), (d): the covered layers recomputed, the least flag and the witness by the definition."""
    from .alternations import WITNESS_MAX_N, connects_all, witness_holds, witness_residue
    covered = [1] if alt.kinds[0] == "window" else [1, 2]
    if data.get("layers seen whole") != covered:
        raise Reject("the layers seen whole are not the theorem's")
    for ell in covered:
        if not connects_all(alt, ell, m - ell):
            raise Reject(f"layers {ell + 1}…{m} do not connect every position: layer {ell} is not seen whole")
    why = (f"; at depth {m} the window layer is seen whole (layers after it connect, recomputed), and "
           f"Aut(window({alt.p})) is the reflection at n ≥ {2 * alt.p + 1} = G (the covering lemma, §21.3)")
    a = witness_residue(alt)
    if data.get("least") is not (a is not None):
        raise Reject("the least flag is not the theorem's")
    if a is None:
        return why
    wit = data.get("witness") or {}
    if (wit.get("position"), wit.get("depth"), wit.get("a")) != (1, m - 1, a):
        raise Reject("the witness is not the theorem's")
    if alt.n > WITNESS_MAX_N:
        return why + f"; the witness by Theorem F133 (d) (n above {WITNESS_MAX_N:,}: not re-checked position by position)"
    perm = list(range(1, alt.n + 1))
    for x in (range(a, alt.n, alt.q) if alt.kinds[0] == "strided" else [a]):
        perm[x - 1], perm[x] = x + 1, x
    if not witness_holds(alt, perm, 1, m - 1):
        raise Reject(f"the witness fails the view condition at depth {m - 1}")
    return why + f"; the witness keeps position 1's view at depth {m - 1} (by the definition, position by position)"


@checker("SEQ-ALTERNATION-LAYERS")
def alternation_layers(ctx, s):
    from .alternations import connects_all, count, reach
    _proved(s)
    alt = _alternation(ctx)
    data = s.get("data") or {}
    _same_reading(alt, data)
    d, m, (i, j) = count(alt)
    if (data.get("D_Φ"), data.get("layers")) != (d, m) or (s["evidence"].get("D_Φ"), s["evidence"].get("layers")) \
            != (d, m):
        raise Reject(f"the theorem gives D_Φ = {d} and {m} layers")
    if data.get("not within D_Φ − 1") != [i, j]:
        raise Reject("the pair not reached within D_Φ − 1 layers is not the theorem's")
    if j in reach(alt, i, d - 1):
        raise Reject(f"x_{j} reaches position {i} within {d - 1} layers")
    if not connects_all(alt, 0, d):
        raise Reject(f"the first {d} layers do not connect every position")
    why = f"D_Φ = {d} by the reach sets on implicit neighbourhoods (x_{j} misses position {i} within {d - 1})"
    if alt.family == "strided":
        why += _alternation_strided(alt, data, m)
    else:
        if data.get("least") is not True:
            raise Reject("Theorem F134's count is least")
        why += (f"; every block of {alt.p} holds {alt.q} summaries (b | n), so a view-keeping permutation one layer "
                "below the block layer lies in G (Theorem F134)")
    return VERIFIED, why


# ---------------------------------------------------------------------------------------------
# Causal targets on per-layer interval heads at a symbolic n (docs/theory.md §21.8, Theorem F123)


def _form(ctx):
    from .causal_interval_forms import NotIntervals, build
    return _reading(ctx, "interval form", build, NotIntervals,
                    lambda exc: Reject(f"the heads are not interval heads of Theorem F123: {exc}"))


def _bind_reading(data: dict, field: str, rows: list, periodic: bool, limit, n=None) -> None:
    """The heads a step states it read — `field`: per layer of the period and per head, a width ("∞" for the full
    causal mask, a param's name) or a [width, sinks] pair; `periodic`; `limit`, the network's depth; `n` at a concrete
    length — are the verifier's own reading of the file: a forged value is rejected, though no other check reads it
    (§18.1)."""
    if n is not None and data.get("n") != n:
        raise Reject(f"the step states n = {data.get('n')}, the file {n}")
    from .causal_intervals import INF

    def shown(x):
        if isinstance(x, tuple):
            return [shown(x[0]), x[1]]
        return "∞" if x == INF else x if isinstance(x, str) else int(x)
    mine = [[shown(x) for x in row] for row in rows]
    if (data.get(field), data.get("periodic"), data.get("limit")) != (mine, periodic, limit):
        raise Reject(f"the step states the heads {data.get(field)} (periodic: {data.get('periodic')}, depth "
                     f"{data.get('limit')}), the verifier reads {mine} (periodic: {periodic}, depth {limit})")


def _form_number(ctx, value, what: str):
    """An int, or a tree decoded with the file's symbols."""
    from .trees import TreeError, decode
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return decode(value, ctx.symbols)
    except (TreeError, TypeError, KeyError):
        raise Reject(f"{what} is not a number or a formula") from None


def _form_at(value, subs: dict) -> int:
    import sympy
    return value if isinstance(value, int) else int(sympy.sympify(value, strict=True).xreplace(subs))  # safe: strict


def _form_at_value(ctx, F, w, C: int, start, stated: list) -> None:
    """The step's range and pieces at one value w of the param (w None: integer widths), by the verifier's own F121
    and N₀ argument (verifier/causal_interval_forms.py)."""
    from .causal_interval_forms import PARAM_MAX_N, NotIntervals
    try:
        F.confirm(w)
        want, bound = F.layers_from(w)
    except NotIntervals as exc:
        raise Reject(str(exc)) from None
    subs = {} if F.param is None else {ctx.symbols[F.param]: w}
    where = "" if F.param is None else f" at {F.param} = {w}"
    if want != C:
        raise Reject(f"from n = {bound} on the count is {want}{where}, not {C}")
    first = _form_at(start, subs)
    if first < 2 or first > bound:
        raise Reject(f"the range starts at n = {first}{where}, outside 2 … N₀ = {bound}")

    def count(n: int) -> int:
        try:
            return F.count(n, w)
        except NotIntervals as exc:
            raise Reject(str(exc)) from None
    # the count is nondecreasing in n (§21.8): equal at n = start and at N₀ gives C on [start, N₀], the argument
    # gives it beyond; fewer layers at start − 1 make the range sharp
    if count(first) != C or count(bound) != C or count(first - 1) >= C:
        raise Reject(f"the count is not {C} from n = {first} on, or already {C} at n = {first - 1}{where}")
    n_sym = ctx.symbols.get(str(ctx.spec.tokens))
    expect = 1
    for lo, hi, lay in stated:
        a, b = _form_at(lo, subs), _form_at(hi, subs)
        if a != expect or b <= a:
            raise Reject(f"the pieces do not partition 1 ≤ n < {first}{where} (a piece starts at {a})")
        ends = {a, b - 1} if F.param is None else set(range(a, min(b, PARAM_MAX_N + 1)))
        for n in sorted(ends):
            at = _form_at(lay, {**subs, **({} if n_sym is None else {n_sym: n})})
            if count(n) != at:
                raise Reject(f"at n = {n}{where} the verifier's F121 gives {count(n)} layers, not the piece's {at}")
        expect = b
    if expect != first:
        raise Reject(f"the pieces end at n = {expect}, not at the range's start {first}{where}")


@checker("SEQ-CAUSAL-FORM")
def causal_interval_form(ctx, s):
    _proved(s)
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    F = _form(ctx)
    data = s.get("data") or {}
    _bind_reading(data, "widths", F.rows, F.periodic, F.limit)
    if data.get("param") != F.param:
        raise Reject(f"the step states the param {data.get('param')!r}, the widths read {F.param!r}")
    if data.get("growing") is True:
        return _growing_form(ctx, F, data)
    C = _int(data.get("layers"), "the number of layers")
    if data.get("least") is not True:
        raise Reject("the step claims the least count")
    start = _form_number(ctx, data.get("from"), "the range's start")
    pieces = data.get("pieces")
    if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
        raise Reject("the lengths below the range are not listed as pieces")
    stated = [tuple(_form_number(ctx, p.get(k), f"a piece's {k}") for k in ("from", "below", "layers")) for p in pieces]
    for w in F.values():
        _form_at_value(ctx, F, w, C, start, stated)
    how = (f"at {F.param} = {', '.join(str(w) for w in F.values())} (the closed form in {F.param} is the theorem's, "
           "checked at these values)" if F.param is not None else "")
    return VERIFIED, (f"every head read as an interval head (confirmed on the verifier's arcs at small lengths); the "
                      f"first layer of width ∞ after the first of positive width is layer {C}: from N₀ on (D_c = c₁, "
                      "a witness at every depth below C by the covering of §21.6, none at C) the count is "
                      f"{C}{' ' + how if how else ''}; the range's start and every piece re-derived by the verifier's "
                      "own F121 at their ends (the count is nondecreasing in n, §21.8)")


#: The verifier re-derives every length of [start, 2u + 2P) when there are at most this many (else the ends of the
#: stretch and a spread of lengths in it).
GROWING_LENGTHS = 20_000


def _growing_at_value(F, w, formula, start, n_sym, w_sym, pieces: list) -> str:
    """F137 at one value w of the param (None: integer widths): the formula against the verifier's D_c and F121 from
    the start through two periods past 2u; integer widths: sharp, and every piece at its ends. Returns the stretch."""
    from .causal_interval_forms import NotIntervals, growing_count, growing_terms
    try:
        p, total, prefix, u = growing_terms(F, w)
        F.confirm(w)
    except NotIntervals as exc:
        raise Reject(str(exc)) from None
    subs = {} if w_sym is None else {w_sym: w}
    first = _form_at(start, subs)
    if first < 2:
        raise Reject(f"the range starts at n = {first}, below 2")

    def count(n: int) -> int:
        try:
            return F.count(n, w)
        except NotIntervals as exc:
            raise Reject(str(exc)) from None
    top = max(2 * u, first) + 2 * total
    lengths = list(range(first, top))
    if len(lengths) > GROWING_LENGTHS:
        stride = len(lengths) // GROWING_LENGTHS + 1
        lengths = sorted({*lengths[::stride], *range(max(first, 2 * u - 50), top)})
    for n in lengths:
        own, said = growing_count(prefix, total, n), _form_at(formula, {**subs, n_sym: n})
        if said != own or count(n) != own:
            raise Reject(f"at n = {n}{'' if w is None else f', {F.param} = {w}'} the stated formula gives {said}, the "
                         f"verifier's D_c {own} and its F121 {count(n)}")
    where = f"{first}…{top - 1}" if w is None else f"{F.param} = {w}: {first}…{top - 1}"
    if F.param is not None:
        return where
    if count(first - 1) == growing_count(prefix, total, first - 1):
        raise Reject(f"the range is not sharp: n = {first - 1} has D_c(n) layers too")
    expect = 1
    for piece in pieces:
        a, b, lay = (_int(piece.get(k), f"a piece's {k}") for k in ("from", "below", "layers"))
        if a != expect or b <= a or count(a) != lay or count(b - 1) != lay:
            raise Reject(f"the piece {a} ≤ n < {b} is not {lay} layers by the verifier's F121, or the pieces do not "
                         "partition the lengths below the start")
        expect = b
    if expect != first:
        raise Reject(f"the pieces end at n = {expect}, not at the range's start {first}")
    return where


def _growing_form(ctx, F, data: dict):
    """SEQ-CAUSAL-FORM with finite widths (Theorem F137, §21.10): the stated formula is Σ_r ⌈(n − 1 − S_r)/P⌉ for the
    verifier's widths, and its own F121 gives D_c(n) at every length from the start through two periods past 2u
    (beyond 2u the count is D_c by the theorem; a param width: at several of its values); with integer widths the
    length before the start differs (sharp), and every piece is re-derived at its ends; with a param width no piece is
    claimed, and the start (Theorem F158: at least the sharp start at every value) is checked from itself on at the
    verifier's values of the param."""
    import sympy
    from .causal_interval_forms import growing_symbolic
    if data.get("least") is not True:
        raise Reject("the step claims the least count")
    formula = _form_number(ctx, data.get("layers"), "the number of layers")
    start = _form_number(ctx, data.get("from"), "the range's start")
    n_sym = ctx.symbols.get(str(ctx.spec.tokens))
    w_sym = ctx.symbols.get(F.param) if F.param is not None else None
    if n_sym is None or (F.param is not None and w_sym is None):
        raise Reject("the length symbol or the param's symbol is missing")
    prefix_sym, total_sym = growing_symbolic(F, w_sym)
    own_formula = sum(sympy.ceiling((n_sym - 1 - s_r) / sympy.sympify(total_sym, strict=True))  # safe: strict
                      for s_r in prefix_sym)
    if sympy.simplify(sympy.sympify(formula, strict=True) - own_formula) != 0:  # safe: strict (a decoded tree)
        raise Reject("the stated formula is not Σ_r ⌈(n − 1 − S_r)/P⌉ for the verifier's widths")
    lows = [_growing_at_value(F, w, formula, start, n_sym, w_sym, data.get("pieces") or []) for w in F.values()]
    if F.param is not None and data.get("pieces"):
        raise Reject("with a param width no lengths below the range are derived")
    return VERIFIED, ("every head read as an interval head of finite width (confirmed on the verifier's arcs); the "
                      "stated formula is Σ_r ⌈(n − 1 − S_r)/P⌉ = D_c(n) for the verifier's widths (P their sum per "
                      "period, S_r the first r layers' sum); from n = 2u on no witness exists at D_c (Theorem F137), "
                      "and the verifier's own F121 gives D_c(n) at every length from the start through two periods "
                      f"past 2u ({'; '.join(lows)})" + ("" if F.param is not None else
                                                        ", fewer-or-more at the length before; every piece re-derived "
                                                        "at its ends"))


def check_form_verdict(ctx, s, data: dict, rule: str = "SEQ-CAUSAL-FORM") -> str:
    """TGT-VERDICT on a SEQ-CAUSAL-FORM premise (or `rule`'s, stating a range and pieces the same way): the range and
    the pieces stated are the premise's."""
    import sympy
    form = [p for p in ctx.premises(s) if p["rule"] == rule]
    if not form:
        return ""
    fdata = form[0].get("data") or {}
    start = _form_number(ctx, fdata.get("from"), "the range's start")
    text = f"n ≥ {start}" if isinstance(start, int) else None
    rng = data.get("range")
    if text is not None and rng != text:
        raise Reject(f"{rule}'s count holds for {text}, the verdict states {rng!r}")
    if not isinstance(rng, str):
        raise Reject("the verdict states no range")
    if data.get("below_range") is not None:
        raise Reject(f"the lengths below the range are {rule}'s pieces; the verdict lists lengths beside them")
    given, mine = fdata.get("pieces") or [], data.get("below_pieces") or []
    if not isinstance(given, list) or not isinstance(mine, list) or not all(isinstance(q, dict) for q in mine):
        raise Reject(f"the lengths below the range are not {rule}'s pieces")
    same = len(given) == len(mine) and all(
        sympy.simplify(sympy.sympify(_form_number(ctx, p.get(k), k), strict=True)  # safe: strict (decoded trees)
                       - sympy.sympify(_form_number(ctx, q.get(k), k), strict=True)) == 0  # safe: strict
        for p, q in zip(given, mine) for k in ("from", "below", "layers"))
    if not same or not all(q.get("least") is True for q in mine):
        raise Reject(f"the lengths below the range are not {rule}'s pieces")
    return f"; the range and the lengths below it are {rule}'s (§21.8)"


# ---------------------------------------------------------------------------------------------
# Causal targets on per-layer heads with attention sinks (docs/theory.md §21.9, Theorem F128)


def _sinks(ctx):
    from .causal_sinks import build
    from .causal_intervals import NotIntervals
    return _reading(ctx, "sinks", build, NotIntervals,
                    lambda exc: Reject(f"the heads are not sink interval heads: {exc}"))


def _sinks_at(ctx, n: int, values: Optional[dict] = None):
    """The verifier's reading of the sink heads with n set to a concrete length (a symbolic n), and the params named in
    `values` set to theirs."""
    from dataclasses import replace
    from .causal_intervals import NotIntervals
    from .causal_sinks import build
    from .. import spec as S
    spec = ctx.spec if not values else replace(ctx.spec, heads=S.resolve_sizes(ctx.spec.heads, values))
    try:
        return build(replace(spec, tokens=n))
    except NotIntervals as exc:
        raise Reject(f"the heads are not sink interval heads: {exc}") from None


def _names_a_sink_count(pattern, name: str) -> bool:
    from .. import spec as S
    if isinstance(pattern, S.Sinks):
        return pattern.k == name
    parts = getattr(pattern, "parts", None) or getattr(pattern, "patterns", None) or ()
    return any(_names_a_sink_count(q, name) for q in parts)


def _sinks_values(ctx, data: dict):
    """A concrete n with one param window or sink count (§21.9): the values are every one a file of n tokens allows
    (lower bound … n for a sink count; … n − 1 for a window, a wider one being the causal mask); the verifier re-derives
    D_c, the pair below it and the covering with its own recursion at the ends and a spread of the values, and names the
    others trusted (the kernel re-ran F128 at each)."""
    from .causal_intervals import NotIntervals
    from .causal_sinks import WORK
    vals = data["values"]
    name, lo, hi = vals.get("param"), _int(vals.get("from"), "the first value"), _int(vals.get("to"), "the last value")
    n = ctx.spec.tokens
    lower = {p.name: p.lower for p in ctx.spec.params if p.constraint.startswith("integer")}
    top = n if any(_names_a_sink_count(h.pattern, name) for h in ctx.spec.heads) else n - 1
    if name not in lower or (lo, hi) != (lower[name], top):
        raise Reject(f"the values are not every value of {name} a file of {n} tokens allows ({lower.get(name)} … {top})")
    d, m = _int(data.get("D_c"), "the depth D_c"), _int(data.get("layers"), "the number of layers")
    if data.get("least") is True and m != max(d, 1):
        raise Reject("a count above D_c is claimed least")
    sample = sorted({v for v in (lo, lo + 1, lo + 2, hi - 2, hi - 1, hi, *range(lo, hi + 1, max(1, (hi - lo) // 6)))
                     if lo <= v <= hi})
    if n * max(m, 1) > WORK:
        raise Trust(f"the reach and the covering are not recomputed at n = {n} with {m} layers")
    for v in sample:
        Kv = _sinks_at(ctx, n, {name: v})
        _bind_param_heads(data, {name: v}, Kv)
        try:
            ok = Kv.reached(d) is None and (d == 0 or Kv.reached(d - 1) is not None) and Kv.covered(m) is None
        except NotIntervals as exc:
            raise Reject(str(exc)) from None
        if not ok:
            raise Reject(f"at {name} = {v} the verifier's recursion does not give D_c = {d} with {m} layers covered")
    if len(sample) < hi - lo + 1:
        raise Trust(f"at {name} = {', '.join(map(str, sample))} the verifier's recursion gives D_c = {d} and the covering "
                    f"at {m} layers; the other {hi - lo + 1 - len(sample)} values are the kernel's (F128 at each)")
    return VERIFIED, (f"at every value {name} = {lo} … {hi} the verifier's recursion gives D_c = {d} and the covering "
                      f"at {m} layers (§21.9)")


def _bind_param_heads(data: dict, values: dict, K) -> None:
    """The heads a step states with params (a param's name for a width or a sink count) are, with each param set to
    its value here, the verifier's own reading of the file with the params so set: checked at several values, a name
    stated for an integer or an integer for a name, or one param for another, differs at one of them."""
    def at(x):
        return [at(y) for y in x] if isinstance(x, list) else values.get(x, x) if isinstance(x, str) else x
    _bind_reading({**data, "heads": at(data.get("heads"))}, "heads", K.rows, K.periodic, K.limit)


def _sinks_growth(ctx, s):
    """F146 at a symbolic n: periodic sink heads of finite widths, the layers before the verifier's own ℓ₁ of width 0
    (F157: sinks allowed); the stated formula is Σ_r ⌈(n − 1 − k* − S_r)/P⌉ for the verifier's widths and sink counts, and at
    every length from the start through N₁ + P (at most GROWTH_LENGTHS of them) its own recursion gives D_c = the
    formula and finds no twins at that depth; past N₁ the theorem carries the count."""
    import sympy
    from .causal_intervals import INF, NotIntervals
    data = s.get("data") or {}
    if data.get("least") is not True:
        raise Reject("F146 states the least count")
    start = _form_number(ctx, data.get("from"), "the range's start")
    formula = _form_number(ctx, data.get("layers"), "the count")
    if not isinstance(start, int):
        raise Reject("F146's start is an integer")
    K = _sinks_at(ctx, max(start, 64))
    _bind_reading(data, "heads", K.rows, K.periodic, K.limit)
    ell = K.first_chain()
    if not K.periodic or K.limit is not None or ell is None or any(w == INF for row in K.rows for w, _ in row):
        raise Reject("F146 needs a periodic list of finite widths with a layer of positive width in its period")
    if data.get("first wide layer") != ell:
        raise Reject(f"the step names layer {data.get('first wide layer')} as the first of positive width; the "
                     f"verifier reads layer {ell}")
    widths = [int(max(w for w, _ in row)) for row in K.rows]
    p, P = len(widths), sum(widths)
    counts = sorted({k for row in K.rows for _, k in row if k >= 1})
    top = max(counts, default=0)
    n = _length_symbol(ctx)
    own = sum((sympy.ceiling((n - 1 - top - sum(widths[:r])) / sympy.Integer(P)) for r in range(p)), sympy.Integer(0))
    gaps = [v - 1 - max((k for k in counts if k < v), default=0) for v in range(1, top + 1)]
    bound = max(2, top + 2 + sum(widths[(q - 1) % p] for q in range(1, ell + p)), top + 1 + max(gaps, default=0))
    lengths = list(range(start, bound + P + 1))[:GROWTH_LENGTHS]
    if lengths and lengths[-1] < bound - 1:  # neither the recursion below nor F146 (from `bound` on) covers these
        raise Trust(f"F146 carries the count from n = {bound} on; the verifier's recursion re-derives at most "
                    f"{GROWTH_LENGTHS} lengths from the start, n = {start} … {lengths[-1]}, so n = {lengths[-1] + 1} … "
                    f"{bound - 1} are not re-derived here")
    for value in sorted({*lengths, *range(bound + 2 * P, bound + 2 * P + 3)}):
        want = int(sympy.sympify(own, strict=True).xreplace({n: value}))  # safe: strict (no text parsed)
        if _form_at(formula, {n: value}) != want:
            raise Reject(f"at n = {value} the stated formula is not Σ_r ⌈(n − 1 − k* − S_r)/P⌉ = {want}")
        if value not in lengths:
            continue
        Kn = _sinks_at(ctx, value)
        try:
            if Kn.reached(want) is not None or (want >= 1 and Kn.reached(want - 1) is None):
                raise Reject(f"at n = {value} the verifier's recursion does not give D_c = {want}")
            got = Kn.twins(ell, want)
        except NotIntervals as exc:
            raise Reject(str(exc)) from None
        if got is not None:
            raise Reject(f"at n = {value}, depth {want}, root {got[0]} has the twins {got[1]} and {got[2]}")
    return VERIFIED, (f"every head read as an interval head with sinks, of finite widths ({P} per period of {p}); the "
                      f"layers before layer {ell} have width 0; the formula is Σ_r ⌈(n − 1 − {top} − S_r)/"
                      f"{P}⌉; at n = {lengths[0]} … {lengths[-1]} the verifier's recursion gives D_c equal to it and no "
                      f"twins at that depth (F145); from n = {bound} on Theorem F146 carries it")


#: _sinks_growth re-derives at most this many lengths from the start.
GROWTH_LENGTHS = 160


def _sinks_symbolic(ctx, s):
    """F128 (e): C = c₁ layers, least, for every n ≥ start, re-derived: the first layer with a head of width ≥ 1
    comes before c₁, the first layer of width ∞; for n ≥ W(0, c₁ − 1] + K + 2 (K the largest sink count before c₁)
    position n misses x_1 … within c₁ − 1 layers, and at depth c₁ every root sees that layer whole; the start is at
    least that bound, and the verifier's own recursion confirms it at the start and the next length."""
    data = s.get("data") or {}
    C = _int(data.get("layers"), "the number of layers")
    if data.get("least") is not True or data.get("D_c") != C:
        raise Reject("F128 (e) states D_c = the count, the least")
    start = _form_number(ctx, data.get("from"), "the range's start")
    if isinstance(start, int):
        K = _sinks_at(ctx, max(start, 64))
        _bind_reading(data, "heads", K.rows, K.periodic, K.limit)
        return _sinks_symbolic_at(ctx, C, start, None)
    import itertools
    names = sorted(str(x) for x in start.free_symbols)
    lower = {p.name: p.lower for p in ctx.spec.params if p.constraint.startswith("integer")}
    if any((lower.get(x) or 0) < 1 for x in names):
        raise Reject("the range's start names a symbol that is not a param `integer >= 1`")
    if data.get("params") != {x: lower[x] for x in names}:
        raise Reject(f"the step states the params {data.get('params')}, the file declares {names} with lower bounds "
                     f"{[lower[x] for x in names]}")
    said = []
    for combo in itertools.product(*[[lower[x] + d for d in (0, 1, 2, 5)] for x in names]):
        values = dict(zip(names, combo))
        at = _form_at(start, {ctx.symbols[x]: v for x, v in values.items()})
        _bind_param_heads(data, values, _sinks_at(ctx, max(at, 64), values))
        said.append(_sinks_symbolic_at(ctx, C, at, values)[1])
    return VERIFIED, (f"at every combination of {', '.join(names)} among their lower bound + 0, 1, 2, 5: "
                      + said[0] + f" (and {len(said) - 1} more values; the start is F128 (e)'s bound, which the "
                      "theorem states for every value)")


def _sinks_symbolic_at(ctx, C: int, start: int, values: Optional[dict]) -> tuple:
    """F128 (e) at integer widths and sink counts (the params set to `values`)."""
    from .causal_intervals import INF, NotIntervals
    K = _sinks_at(ctx, max(start, 64), values)
    p = len(K.rows)
    top = 2 * p if K.limit is None else min(K.limit, p)
    rows = [K.rows[(ell - 1) % p] for ell in range(1, top + 1)]
    chain = next((ell for ell, row in enumerate(rows, 1) if any(w >= 1 for w, _ in row)), None)
    c1 = next((ell for ell, row in enumerate(rows, 1) if any(w == INF for w, _ in row)), None)
    if chain is None or c1 is None or chain >= c1 or c1 != C:
        raise Reject(f"the first layer of width ∞ after a head of width ≥ 1 is not layer {C}")
    bound = max(2, int(sum(max(w for w, _ in row) for row in rows[:c1 - 1])) +
                max([k for row in rows[:c1 - 1] for _, k in row] + [0]) + 2)
    if start < bound:
        raise Reject(f"the count is shown from n = {bound} on, not from {start}")
    for n in (start, start + 1):
        Kn = _sinks_at(ctx, n, values)
        try:
            if Kn.reached(C) is not None or (C >= 2 and Kn.reached(C - 1) is None) or Kn.covered(C) is not None:
                raise Reject(f"at n = {n} the verifier's recursion does not give D_c = {C} with the covering")
        except NotIntervals as exc:
            raise Reject(str(exc)) from None
    return VERIFIED, (f"every head read as an interval head with sinks; layer {chain} has a head of width ≥ 1 and layer "
                      f"{C} is the first of width ∞, so from n = {bound} on position n misses x_1 within {C - 1} layers "
                      f"and at depth {C} every root sees layer {chain} whole (F128 (e)); the start n = {start} is at "
                      "least that bound, and the verifier's recursion confirms it there")


def _length_symbol(ctx):
    """The file's length n as the symbol the step's formulas are decoded with."""
    import sympy
    return ctx.symbols.get(str(ctx.spec.tokens)) or sympy.Symbol(str(ctx.spec.tokens), integer=True, positive=True)


def _every_length_below(ctx, step, start: int) -> list:
    """The lengths below the start as a verdict without a range claims them: the step's count, the least, at each
    length the file allows (no sink count above it) — an integer, or a formula in n (F146) taken at that length; a
    count with another symbol (a param) names no one count per length and is rejected."""
    count = _form_number(ctx, (step.get("data") or {}).get("layers"), "the number of layers")
    n_sym = _length_symbol(ctx)
    if not isinstance(count, int):
        other = sorted(str(x) for x in getattr(count, "free_symbols", set()) - {n_sym})
        if other or not getattr(count, "free_symbols", None):
            raise Reject(f"a verdict without a range claims the count {count} at every length below {start}; it "
                         f"depends on {', '.join(other) or 'no length'}, not on n alone: no count per length")
    ks = [k for row in _sinks_at(ctx, max(start, 64)).rows for _, k in row]
    return [{"n": n, "allowed": False, "verdict": None} if any(k > n for k in ks) else
            {"n": n, "verdict": "UAP", "layers": _form_at(count, {n_sym: n}), "least": True}
            for n in range(1, start)]


def _sinks_param_verdict(data: dict) -> str:
    if not isinstance(data.get("range"), str) or data.get("below_range") is not None or data.get("below_pieces"):
        raise Reject("a range with params states no lengths below it")
    return "; the range is SEQ-CAUSAL-SINKS's, the lengths below it not claimed"


def _sinks_length_checked(ctx, rec: dict, start: int) -> bool:
    """One length below the range, re-derived (True), left to the derivation at that n (False), or rejected."""
    n = rec["n"]
    if rec.get("allowed") is False:
        ks = [k for row in _sinks_at(ctx, max(start, 64)).rows for _, k in row]
        if not any(k > n for k in ks) or rec.get("verdict") is not None:
            raise Reject(f"n = {n} is stated not allowed, but no sink count exceeds it")
        return True
    if rec.get("verdict") != "UAP" or not isinstance(rec.get("layers"), int):
        return False
    if n == 1:
        if rec["layers"] != 1:
            raise Reject("n = 1 needs one layer")
        return True
    Kn = _sinks_at(ctx, n)
    m = rec["layers"]
    d = next((depth for depth in range(0, m + 1) if Kn.reached(depth) is None), None)
    if d is None:
        raise Reject(f"at n = {n} the stated {m} layers do not reach every prefix")
    if Kn.covered(m) is None and not (rec.get("least") and m > max(d, 1)):
        return True
    # sufficiency beyond the covering lemma, or least above D_c: the rooted views on the prefixes (§21.5), decided
    # here with nauty on the verifier's own arcs at this n
    return _sinks_length_by_views(ctx, n, m, least=bool(rec.get("least")) and m > max(d, 1))


def _sinks_length_by_views(ctx, n: int, m: int, least: bool) -> bool:
    """One length below a symbolic sink range whose count the covering lemma does not give: no causal view witness at
    depth m (m layers suffice) and, for a count above D_c claimed least, one at depth m − 1 (views growing with the
    depth, fewer layers do not suffice either), decided on the verifier's rooted views at this n; False (trusted)
    when the views do not fit nauty or the per-layer limit."""
    from dataclasses import replace
    if n > layer_views.MAX_N:
        return False
    try:
        L = layer_views.build(replace(ctx.spec, tokens=n))
        problem = layer_views.no_causal_witness(L, m)
        below = layer_views.no_causal_witness(L, m - 1) if least else "not claimed"
    except (layer_views.NotLayered, NoNauty):
        return False
    if problem:
        raise Reject(f"at n = {n} the stated {m} layers do not suffice: {problem}")
    if below is None:
        raise Reject(f"at n = {n} no causal view witness exists at depth {m - 1}: {m} layers are not the least")
    return True


def check_sinks_verdict(ctx, s, data: dict) -> str:
    """TGT-VERDICT on SEQ-CAUSAL-SINKS at a symbolic n: the range is the step's, and each length below it listed once
    (a length the file does not allow: a sink count above it; a UAP length whose count is D_c there with the covering:
    re-derived; any other UAP length up to the per-layer limit: re-derived by the rooted views on the prefixes, no
    causal view witness at the count and, claimed least above D_c, one a layer below; a count that does not reach every
    prefix or that the views refute: rejected; beyond the limit: trusted). A verdict without a range
    claims the step's count at every length the file allows: each length below the start is checked as one listed
    with that count."""
    steps = [p for p in ctx.premises(s) if p["rule"] == "SEQ-CAUSAL-SINKS"]
    if not steps or isinstance(ctx.spec.tokens, int):
        return ""
    start = _form_number(ctx, (steps[0].get("data") or {}).get("from"), "the range's start")
    if not isinstance(start, int):  # params in the start: the range stated, the lengths below it not claimed
        return _sinks_param_verdict(data)
    listed = data.get("below_range") or []
    if not isinstance(listed, list):
        raise Reject("the lengths below the start are not listed")
    if data.get("range") is None:  # the count holds at every length: each length below must have it
        listed = listed or _every_length_below(ctx, steps[0], start)
    elif data.get("range") != f"n ≥ {start}":
        raise Reject(f"SEQ-CAUSAL-SINKS holds for n ≥ {start}, the verdict states {data.get('range')!r}")
    if [r.get("n") if isinstance(r, dict) else None for r in listed] != list(range(1, start)):
        raise Reject(f"the lengths below the range are not listed once each, n = 1 … {start - 1}")
    trusted = [rec["n"] for rec in listed if not _sinks_length_checked(ctx, rec, start)]
    if trusted:
        raise Trust(f"the lengths n = {', '.join(map(str, trusted))} below the range are the derivation's at that n "
                    "(rooted views), not re-derived here")
    return ("; the lengths below the range re-derived by the verifier's recursion (D_c and the covering) or, where the "
            "covering lemma does not give the count, by its rooted views on the prefixes (nauty)")


def _sink_sufficiency(K, keyed, m: int) -> str:
    """m layers suffice: by F145 (no twins at any root, the step naming the verifier's own ℓ₁) when the step says so,
    else by the covering lemma at every root; the reason, or Reject."""
    if keyed is not None:
        ell = K.first_chain()
        if not isinstance(keyed, dict) or ell is None or keyed.get("layer") != ell or \
                not str(keyed.get("rule", "")).startswith("out-set keys (F145"):
            raise Reject("the out-set keys of F145 and F157 need a first layer of positive width, every layer before "
                         f"it of width 0, and that layer ({ell}) named")
        got = K.twins(ell, m)
        if got is not None:
            raise Reject(f"at depth {m} root {got[0]} has positions {got[1]} and {got[2]} with the same out-sets "
                         f"into the views of layers 1 … {ell}: F145 and F157 do not give the count")
        return (f"at depth {m} no root has two positions outside layer {ell}'s view with the same out-sets into the "
                f"views of layers 1 … {ell} (Theorems F145, F157), so")
    root = K.covered(m)
    if root is not None:
        raise Reject(f"at depth {m} root {root} sees no layer with a head of width ≥ 1 whole: the covering lemma does "
                     "not give the count")
    return f"at depth {m} every root sees a layer with a head of width ≥ 1 whole (the causal covering lemma, §21.9), so"


@checker("SEQ-CAUSAL-SINKS")
def causal_sinks(ctx, s):
    from .causal_intervals import NotIntervals
    _proved(s)
    if ctx.spec.target != "causal":
        raise Reject(f"the input declares `target {ctx.spec.target}`, not causal")
    if not isinstance(ctx.spec.tokens, int) and (s.get("data") or {}).get("growing") is True:
        return _sinks_growth(ctx, s)
    if not isinstance(ctx.spec.tokens, int) or isinstance((s.get("data") or {}).get("values"), dict):
        return _sinks_symbolic(ctx, s) if not isinstance(ctx.spec.tokens, int) else _sinks_values(ctx, s["data"])
    K = _sinks(ctx)
    data = s.get("data") or {}
    _bind_reading(data, "heads", K.rows, K.periodic, K.limit, n=K.n)
    d = _int(data.get("D_c"), "the depth D_c")
    m = _int(data.get("layers"), "the number of layers")
    least = data.get("least")
    if not isinstance(least, bool):
        raise Reject("the step does not say whether its count is the least")
    if m < max(d, 1) or (K.limit is not None and m > K.limit):
        raise Reject(f"{m} layers is below D_c = {d} or above the network's depth")
    from .causal_sinks import WORK
    if K.n * max(m, 1) > WORK:
        raise Trust(f"the reach and the covering at every position are not recomputed at n = {K.n} with {m} layers "
                    f"(above {WORK:,} position-layers)")
    try:
        if K.reached(d) is not None:
            raise Reject(f"some prefix is not reached within D_c = {d} layers")
        if d >= 1:
            pair = data.get("not within D_c − 1") or {}
            v, j = _int(pair.get("i"), "the position"), _int(pair.get("j"), "the missing token")
            if not 1 <= j < v <= K.n or any(a <= j <= b for a, b in K.views(v, d - 1)[0]):
                raise Reject(f"x_{j} reaches position {v} within {d - 1} layers")
        keyed = data.get("sufficiency")
        suffices = _sink_sufficiency(K, keyed, m)
        why = "the count is stated as sufficient only"
        if least and m > max(d, 1):
            wit = data.get("witness") or {}
            pair = wit.get("transposition")
            if wit.get("depth") != m - 1 or not isinstance(pair, list) or len(pair) != 2:
                raise Reject("a count above D_c claimed least needs a transposition witness one layer below")
            i, j0 = _int(wit.get("position"), "the witness's position"), _int(pair[0], "the transposition")
            j1 = _int(pair[1], "the transposition")
            if (keyed is None and j1 != j0 + 1) or not K.witness(i, m - 1, j0, j1):
                raise Reject(f"the transposition ({j0} {j1}) is not a causal view witness at depth {m - 1}")
            why = f"the transposition ({j0} {j1}) at position {i} is a witness at depth {m - 1}, checked set by set"
        elif least:
            why = f"{m} = D_c layers are needed"
    except NotIntervals as exc:
        raise Reject(str(exc)) from None
    return VERIFIED, ("every head read as an interval head with sinks (confirmed on the verifier's arcs at a small n); "
                      f"every prefix reached within D_c = {d} layers and not within {d - 1}, by the reach recursion on "
                      f"interval lists at every position; {suffices} {m} layers suffice; {why}")


#: Above this N* the verifier does not scan every length below it (Theorem F159 is then trusted for them).
SPLIT_SCANNED = 4096


def _split_form(ctx):
    """The verifier's reading of M layers of finite integer widths at a symbolic n (Theorem F159's premise), confirmed
    on its own arcs; Reject outside it."""
    from .causal_interval_forms import Form
    from .causal_intervals import INF, NotIntervals
    if "split form" not in ctx.cache:
        try:
            F = Form(ctx.spec, single=True)  # one pattern in every layer: a period of one layer
            F.confirm(None)
        except NotIntervals as exc:
            raise Reject(f"the budget split needs per-layer interval heads: {exc}") from None
        if F.param is not None or F.limit is None or any(x == INF for row in F.rows for x in row):
            raise Reject("the budget split (Theorem F159) takes integer finite widths and a network of finitely many "
                         "layers")
        ctx.cache["split form"] = F
    return ctx.cache["split form"]


def _split_count(F, n: int) -> Optional[int]:
    """The verifier's own F121 count at n within the network's depth (None: no count, NOT-UAP at n)."""
    from .causal_intervals import NotIntervals
    try:
        return F.count(n, None)
    except NotIntervals:
        return None


def budget_split(ctx, data) -> tuple:
    """TGT-NOT-CAUSAL's budget-split route (docs/theory.md §21.10, Theorem F159): the verifier scans n = 2, 3, … with
    its own F121 (the reach by sums of widths, the witness by its covering at position n) within the network's M
    layers, and requires the first length without a count to be the stated N*, and none at the next W(0, M] + 2
    lengths; Theorem F159 carries every longer length (a count that fails at N* fails at every n ≥ N*)."""
    F = _split_form(ctx)
    start, depth = data.get("from"), data.get("depth")
    _int(start, "the split's N*")
    if depth != F.limit:
        raise Reject(f"the split is stated for {depth} layers, the network has {F.limit}")
    total = int(sum(max(F.rows[(ell - 1) % len(F.rows)]) for ell in range(1, F.limit + 1)))
    if data.get("reach end") != total + 2:
        raise Reject(f"from n = W(0, M] + 2 = {total + 2} on x_1 misses n, not from {data.get('reach end')}")
    if not 2 <= start <= total + 2:
        raise Reject(f"N* = {start} lies outside 2 … W(0, M] + 2 = {total + 2}")
    if start > SPLIT_SCANNED:
        raise Trust(f"N* = {start} is above the {SPLIT_SCANNED} lengths the verifier scans (Theorem F159)")
    for n in range(2, start):
        if _split_count(F, n) is None:
            raise Reject(f"at n = {n} < N* = {start} the verifier's F121 finds no count within {F.limit} layers")
    for n in range(start, start + total + 3):
        if _split_count(F, n) is not None:
            raise Reject(f"at n = {n} ≥ N* = {start} the verifier's F121 finds {_split_count(F, n)} layers suffice")
    return VERIFIED, (f"the verifier's own F121 within the network's {F.limit} layers gives a count at every n < {start} "
                      f"and none at n = {start} … {start + total + 2} (not reached, or a causal view witness at the "
                      "whole depth); Theorem F159 carries every longer length")


def budget_split_lengths(ctx, listed: list) -> None:
    """The lengths below a budget split's N*: each UAP with the verifier's own F121 count, the least (F121 decides the
    least count), or not decided (asserting nothing)."""
    F = _split_form(ctx)
    for rec in listed:
        n, verdict = rec.get("n"), rec.get("verdict")
        if verdict is None and rec.get("allowed") is not False and rec.get("layers") is None:
            continue
        own = 1 if n == 1 else _split_count(F, n)
        if verdict != "UAP" or rec.get("layers") != own or rec.get("least") is not True:
            raise Reject(f"n = {n} below N*: stated {verdict} with {rec.get('layers')} layers (least "
                         f"{rec.get('least')}), the verifier's F121 gives UAP with {own}, the least")
