"""Convolution mixer steps (CONV-*, docs/theory.md §22), re-checked from the re-parsed taps.

One layer is X ↦ X + g(X), [g(X)]_i = Σ_{k ∈ K} ψ_k x_{(i + k) mod n}. With g = gcd(n, K ∖ {0} mod n):
the exact group is the centraliser of ⟨P^g⟩, C_{n/g} ≀ S_g of order (n/g)^g · g! (§22.1); after m
layers position i reads the offsets of the m-fold sum set of K ∪ {0} mod n (§22.2), and D (the
first m where that is Z_n) layers are token distinguishing under C_n when g = 1 (§22.3).

At symbolic n the verifier accepts taps whose union with 0 is an interval [a, b] of width b − a ≥ 1
for every allowed value of the span (then g = 1 for every n, and the m-fold sum set is [ma, mb]
mod n, so D = ⌈(n − 1)/(b − a)⌉); each closed form is re-checked by brute force at n = 2..12. Taps
whose union with 0 is s·[a, b] with s ≥ 2 (§22.5, `{0, 2}`) are accepted by residue class of n mod s: the
group, the reach and the count on the classes prime to s (named by the steps' "on classes", which must be
exactly those), NOT-UAP on the others (CONV-DISCONNECTED's "classes", exactly the others, with the pair
(1, 2) re-checked by the sum sets at every n ≤ 40 of those classes).
"""
from __future__ import annotations

import itertools
import math
from typing import Optional

import sympy

from .check import VERIFIED, Reject, Trust, checker
from .trees import decode

INSTANCE_MAX_N = 12
GROUP_INSTANCE_MAX_N = 6
MAX_SUMSET_WORK = 20_000_000


def _mixer(ctx):
    conv = ctx.spec.mixer
    if conv is None:
        raise Reject("the input has no convolution mixer")
    return conv


def _lower(ctx, name: str) -> Optional[int]:
    for p in ctx.spec.params:
        if p.name == name and p.constraint == "integer" and p.lower is not None:
            return p.lower
    return None


def _taps(ctx, values: dict, n: Optional[int] = None) -> list[int]:
    """The taps K at the given span value (for `circular(l)`: 0, 1, …, l, read mod an integer n as 0, …,
    min(l, n − 1): every residue once); at n = 1 every tap is 0 mod n, so a span that is a parameter is read there
    as the taps {0}."""
    conv = _mixer(ctx)
    if n == 1 and isinstance(conv.span, str) and conv.span not in values:
        return [0]
    if conv.span is not None:
        span = values.get(conv.span, conv.span) if isinstance(conv.span, str) else conv.span
        if isinstance(span, str):
            raise Trust(f"the span {span} is a parameter: its taps are not read at a given n")
        top = int(span) if n is None else min(int(span), n - 1)
        return list(range(top + 1))
    out = []
    for t in conv.taps:
        if not isinstance(t, int) or isinstance(t, bool):
            raise Trust(f"tap {t!r} is not an integer")
        out.append(t)
    return out


def _span_values(ctx) -> tuple[Optional[str], list[int]]:
    """(the span's name, the values to instantiate it at) — (None, []) for integer taps."""
    conv = _mixer(ctx)
    if isinstance(conv.span, str):
        low = _lower(ctx, conv.span)
        if low is None:
            raise Reject(f"the span {conv.span} has no declared integer lower bound")
        if low < 1:
            raise Reject(f"the span {conv.span} may be {low}: the taps then need not generate Z_n")
        return conv.span, [low, low + 1, low + 2]
    return None, []


def _interval(ctx) -> tuple[sympy.Expr, sympy.Expr]:
    """(a, b) with K ∪ {0} = s·[a, b] for every allowed span, width ≥ 1 (s = 1 but for integer taps whose non-zero
    members share a factor s ≥ 2, `_step`) — else the step is not covered."""
    conv = _mixer(ctx)
    name, _ = _span_values(ctx)
    if name is not None:
        return sympy.Integer(0), ctx.symbols[name]
    if conv.span is not None:  # an integer span l: the taps 0..l (not listed: l may be 10⁹)
        if int(conv.span) < 1:
            raise Reject(f"the span {conv.span} is below 1: the taps need not generate Z_n")
        return sympy.Integer(0), sympy.Integer(conv.span)
    s = _step(ctx)
    ks = {t // s for t in _taps(ctx, {})} | {0}
    a, b = min(ks), max(ks)
    if ks != set(range(a, b + 1)) or b - a < 1:
        raise Trust(f"taps {sorted(conv.taps)} with 0 are not an interval of width ≥ 1, nor a multiple of one: at "
                    "symbolic n their gcd with n is not decided here")
    return sympy.Integer(a), sympy.Integer(b)


def _step(ctx) -> int:
    """s = the gcd of the non-zero integer taps (1 for a span, or when every tap is 0)."""
    if _mixer(ctx).span is not None:
        return 1
    nonzero = [abs(t) for t in _taps(ctx, {}) if t != 0]
    return math.gcd(*nonzero) if nonzero else 1


def _kept(ctx) -> list[int]:
    """The residues r of n mod s with gcd(r, s) = 1: the classes where the taps generate Z_n."""
    s = _step(ctx)
    return [r for r in range(s) if math.gcd(r, s) == 1]


def _on_classes(ctx, data: dict) -> str:
    """For taps s·[a, b] with s ≥ 2, a step at symbolic n states its classes ("on classes"), and they must be exactly
    the residues prime to s; for s = 1 it states none. Returns the words for the reason."""
    s = _step(ctx)
    stated = data.get("on classes")
    if s == 1:
        if stated:
            raise Reject("the taps generate Z_n for every n: no residue classes to state")
        return ""
    if not isinstance(stated, dict) or stated.get("modulus") != s or \
            sorted(int(r) for r in stated.get("residues") or []) != _kept(ctx):
        raise Reject(f"every non-zero tap is a multiple of {s}: the step holds on the classes n mod {s} in "
                     f"{_kept(ctx)} exactly, and must state them")
    return f" on the classes n mod {s} in {_kept(ctx)} (prime to {s}: multiplying by {s} is an automorphism of Z_n)"


def _in_kept(ctx, n: int) -> bool:
    return math.gcd(n, _step(ctx)) == 1


def tap_gcd(n: int, taps) -> int:
    g = n
    for k in taps:
        g = math.gcd(g, k % n)
    return g


def sumset_depth(n: int, taps, limit: Optional[int] = None) -> tuple[Optional[int], list[set]]:
    """(D, the sum sets S_0, S_1, …): S_m = S_{m−1} + (K ∪ {0}) mod n; D = None when it never fills."""
    steps = sorted({k % n for k in taps} | {0})
    sets = [{0}]
    while len(sets[-1]) < n:
        if limit is not None and len(sets) > limit:
            return None, sets
        nxt = {(s + k) % n for s in sets[-1] for k in steps}
        if nxt == sets[-1]:
            return None, sets
        sets.append(nxt)
    return len(sets) - 1, sets


def centraliser_order(n: int, taps) -> int:
    """|{σ ∈ S_n : σ commutes with every P^k, k ∈ K}|, every permutation tried (positions 0..n−1)."""
    shifts = [k % n for k in taps]
    count = 0
    for images in itertools.permutations(range(n)):
        if all(images[(v + k) % n] == (images[v] + k) % n for k in shifts for v in range(n)):
            count += 1
    return count


def _wreath_order(n: int, g: int) -> int:
    return (n // g) ** g * math.factorial(g)


def _n(ctx):
    n = ctx.spec.tokens
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def _instances(ctx):
    name, values = _span_values(ctx)
    for v in values or [None]:
        yield ({name: v} if name else {}), v


def _depth_formula(ctx) -> sympy.Expr:
    a, b = _interval(ctx)
    return sympy.ceiling((ctx.symbols[ctx.spec.tokens] - 1) / (b - a))


def _same(a, b) -> bool:
    return a == b or sympy.simplify(a - b) == 0


def _check_depth_instances(ctx, formula) -> str:
    key = "conv depth instances"
    if key not in ctx.cache:
        n_sym = ctx.symbols[ctx.spec.tokens]
        problem = None
        for values, _v in _instances(ctx):
            for n in range(2, INSTANCE_MAX_N + 1):
                if not _in_kept(ctx, n):
                    continue
                taps = _taps(ctx, values, n)  # read mod n (a span's taps 0..min(l, n − 1))
                sub = {n_sym: n, **({ctx.symbols[k]: val for k, val in values.items()})}
                want = int(formula.xreplace(sub))
                got, _ = sumset_depth(n, taps)
                if got != want:
                    problem = f"n = {n}, taps {taps}: the sum sets fill Z_n after {got} layers, not {want}"
                    break
            if problem:
                break
        ctx.cache[key] = problem
    if ctx.cache[key]:
        raise Reject(f"the closed form fails at an instance: {ctx.cache[key]}")
    name, values = _span_values(ctx)
    return (f"re-checked by the sum-set recurrence at n = 2..{INSTANCE_MAX_N}"
            + (f", {name} = {', '.join(map(str, values))}" if name else ""))


def _claimed_depth(ctx, tree):
    if isinstance(tree, int) and not isinstance(tree, bool):
        return sympy.Integer(tree)
    return decode(tree, ctx.symbols)


def _concrete_depth(ctx, n: int) -> tuple[int, list[set], list[int]]:
    taps = _taps(ctx, {}, n)
    if n * (len(taps) + 1) * n > MAX_SUMSET_WORK:
        raise Trust(f"n = {n}: the sum sets are not recomputed above the verifier's work limit")
    d, sets = sumset_depth(n, taps)
    if d is None:
        raise Reject(f"the taps generate only the multiples of {tap_gcd(n, taps)} in Z_n: the sum sets never fill it")
    return d, sets, taps


@checker("CONV-REACH")
def reach(ctx, s):
    if s["status"] != "proved":
        raise Reject("CONV-REACH only concludes `proved`")
    data = s.get("data") or {}
    claimed = _claimed_depth(ctx, data.get("depth"))
    n = _n(ctx)
    if n is None and _general_taps(ctx):
        where = _on_classes(ctx, data)
        return VERIFIED, f"D{where}: " + _lemma_p_check(ctx, claimed, data.get("from"))
    if n is None:
        formula = _depth_formula(ctx)
        if not _same(claimed, formula):
            raise Reject(f"D = {sympy.sstr(claimed)} is not the interval closed form {sympy.sstr(formula)}")
        where = _on_classes(ctx, data)
        return VERIFIED, (f"K ∪ {{0}} is an interval of width ≥ 1 (or s times one), so the m-fold sum set is an interval "
                          f"of m times that width (s times one) and D = {sympy.sstr(formula)}{where} (§22.2, §22.5); "
                          + _check_depth_instances(ctx, formula))
    d, sets, _ = _concrete_depth(ctx, n)
    if claimed != d:
        raise Reject(f"the sum sets fill Z_{n} after {d} layers, not {sympy.sstr(claimed)}")
    i, j = data.get("i"), data.get("j")
    if i is not None or j is not None:
        if not all(isinstance(v, int) and 1 <= v <= n for v in (i, j)) or (j - i) % n in sets[d - 1]:
            raise Reject(f"offset j − i of the pair ({i}, {j}) is in the {d - 1}-fold sum set: it is reached")
    return VERIFIED, f"the sum sets of the taps with 0 recomputed: they fill Z_{n} after exactly {d} layers"


@checker("CONV-LAYERS")
def layers(ctx, s):
    if s["status"] != "proved":
        raise Reject("CONV-LAYERS only concludes `proved`")
    data = s.get("data") or {}
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "CONV-REACH":
        raise Reject("its premise is not the reach step")
    m = _claimed_depth(ctx, data.get("layers"))
    d = _claimed_depth(ctx, (prem[0].get("data") or {}).get("depth"))
    if m.is_number and m < 1:
        raise Reject(f"{sympy.sstr(m)} layers: a model has at least one convolution layer")
    if _n(ctx) == 1 and d == 0 and m == 1 and data.get("least"):
        return VERIFIED, "n = 1: D = 0 (the only position holds x_1), and one convolution layer is the fewest a model has"
    if not _same(m, d) or not data.get("least"):
        raise Reject(f"{sympy.sstr(m)} layers (least: {data.get('least')}) are not the reach step's D = {sympy.sstr(d)}, "
                     "least")
    n = _n(ctx)
    if n is None and _general_taps(ctx):
        if data.get("from") != (prem[0].get("data") or {}).get("from"):
            raise Reject("the count's range is not the reach step's")
        why = _on_classes(ctx, data).strip() + ("; " if _step(ctx) > 1 else "") + \
            _lemma_p_check(ctx, m, data.get("from"))
    elif n is None:
        formula = _depth_formula(ctx)
        if not _same(m, formula):
            raise Reject(f"{sympy.sstr(m)} layers is not the interval closed form {sympy.sstr(formula)}")
        why = _on_classes(ctx, data).strip() + ("; " if _step(ctx) > 1 else "") + _check_depth_instances(ctx, formula)
    else:
        depth, _, taps = _concrete_depth(ctx, n)
        if m != depth:
            raise Reject(f"the sum sets fill Z_{n} after {depth} layers, not {sympy.sstr(m)}")
        if tap_gcd(n, taps) != 1:
            raise Reject("the taps do not generate Z_n")
        why = f"the sum sets recomputed at n = {n}"
    shown = "D" if n is None and _general_taps(ctx) else f"D = {sympy.sstr(m)}"
    return VERIFIED, (f"{shown} layers: the D-fold sum set is Z_n, so the composed coefficients c_s are "
                      f"linearly independent polynomials in the taps (§22.3, token distinguishing under C_n), and fewer "
                      f"leave an offset unread (§22.2); {why}")


@checker("CONV-GROUP")
def group(ctx, s):
    if s["status"] != "proved":
        raise Reject("CONV-GROUP only concludes `proved`")
    data = s.get("data") or {}
    n = _n(ctx)
    if n is None:
        if _step(ctx) > 1 and not _all_zero(ctx):
            return _scaled_group(ctx, data)
        return _symbolic_group(ctx, data.get("name"), data.get("order"))
    return _concrete_group(ctx, n, data.get("name"), data.get("order"))


def _all_zero(ctx) -> bool:
    conv = _mixer(ctx)
    return conv.span is None and bool(conv.taps) and all(t == 0 for t in _taps(ctx, {}))


def _scaled_group(ctx, data):
    """Taps s·[a, b], s ≥ 2: C_n on the classes prime to s (stated exactly), every permutation tried there."""
    where = _on_classes(ctx, data)
    if data.get("name") != "C_n" or data.get("order") is not None:
        raise Reject(f"the group {data.get('name')!r} is not C_n on the classes prime to {_step(ctx)}")
    taps = _taps(ctx, {})
    for k in range(2, INSTANCE_MAX_N + 1):
        if _in_kept(ctx, k) and tap_gcd(k, taps) != 1:
            raise Reject(f"at n = {k} the taps do not generate Z_n")
    bad = [k for k in range(2, GROUP_INSTANCE_MAX_N + 2) if _in_kept(ctx, k) and centraliser_order(k, taps) != k]
    if bad:
        raise Reject(f"at n = {bad[0]} the centraliser of the taps does not have order {bad[0]}")
    return VERIFIED, (f"gcd(n, taps) = gcd(n, {_step(ctx)}) = 1{where}, so the centraliser of the tap shifts is "
                      f"⟨P⟩ = C_n (§22.1, §22.5); every permutation tried at the lengths of those classes up to "
                      f"{GROUP_INSTANCE_MAX_N + 1}")


CLASS_INSTANCE_TOP = 40


def _disconnected_by_class(ctx, data):
    """Taps whose non-zero members are multiples of s ≥ 2: NOT-UAP on exactly the classes n mod s with
    gcd(r, s) > 1, where e = gcd(n, s) > 1 divides every tap and n; the sum sets recomputed at n ≤ 40 there."""
    classes = data["classes"]
    s = _step(ctx)
    if _mixer(ctx).span is not None or s < 2:
        raise Reject("NOT-UAP by residue class needs integer taps whose non-zero members share a factor")
    residues = sorted(int(r) for r in classes.get("residues") or [])
    shared = [r for r in range(s) if math.gcd(r, s) > 1]
    if classes.get("modulus") != s or residues != shared:
        raise Reject(f"the classes where the taps miss offset 1 are n mod {s} in {shared} exactly")
    if (data.get("i"), data.get("j")) != (1, 2):
        raise Reject("the witness of taps that stay in a proper subgroup is x_2 and position 1")
    taps, checked = _taps(ctx, {}), 0
    for n in range(2, CLASS_INSTANCE_TOP + 1):
        if n % s not in residues:
            continue
        _d, sets = sumset_depth(n, taps)
        if 1 in sets[-1]:
            raise Reject(f"at n = {n} offset 1 is reached")
        checked += 1
    return VERIFIED, (f"every non-zero tap is a multiple of {s}: for n mod {s} in {shared}, e = gcd(n, {s}) > 1 divides "
                      f"every tap and n, so the sum sets stay in eZ_n and x_2 never reaches position 1 (§22.5); the "
                      f"sum sets recomputed at {checked} lengths n ≤ {CLASS_INSTANCE_TOP} of those classes")


def _symbolic_disconnected(ctx, data):
    """Every tap 0: for every n ≥ 2 the sum sets stay {0}, so x_2 never reaches position 1."""
    if data.get("classes"):
        return _disconnected_by_class(ctx, data)
    if not _all_zero(ctx):
        raise Trust("convolution taps that never mix are re-checked at an integer n only, or when every tap is 0")
    if (data.get("i"), data.get("j")) != (1, 2):
        raise Reject("the witness for taps that are all 0 is the pair (1, 2)")
    for k in range(2, INSTANCE_MAX_N + 1):
        d, sets = sumset_depth(k, _taps(ctx, {}))
        if d is not None or sets[-1] != {0}:
            raise Reject(f"at n = {k} the sum sets of the taps grow")
    return VERIFIED, ("every tap is 0: the m-fold sum set of K ∪ {0} is {0} for every m and every n, so for n ≥ 2 "
                      f"x_2 never reaches position 1 (§22.2); the sum sets recomputed at n = 2..{INSTANCE_MAX_N}")


def _symbolic_group(ctx, name, order):
    if _all_zero(ctx):
        if name != "S_n":
            raise Reject(f"every tap is 0, so the mixer commutes with every permutation: the group is S_n, not {name!r}")
        bad = [k for k in range(2, GROUP_INSTANCE_MAX_N + 1)
               if centraliser_order(k, _taps(ctx, {})) != math.factorial(k)]
        if bad:
            raise Reject(f"at n = {bad[0]} the centraliser of the taps is not S_n")
        return VERIFIED, ("every tap is 0: the mixer is a multiple of the identity, whose centraliser is S_n (§22.1); "
                          f"every permutation tried at n = 2..{GROUP_INSTANCE_MAX_N}")
    if not isinstance(_mixer(ctx).span, str) and name == "C_n":
        for k in range(2, INSTANCE_MAX_N + 1):
            g = tap_gcd(k, _taps(ctx, {}, k))
            if g != 1:
                raise Reject(f"at n = {k} the taps generate only {g}Z_n: G is not C_n for every n")
    if isinstance(_mixer(ctx).span, str):
        _interval(ctx)
    elif _step(ctx) != 1:
        raise Reject("the non-zero taps share a factor: G is C_n on residue classes of n only")
    if name != "C_n" or order is not None:
        raise Reject(f"the group {name!r} (order {order}) is not C_n: taps whose non-zero members have gcd 1 "
                     "generate Z_n for every n")
    key = "conv group instances"
    if key not in ctx.cache:
        ctx.cache[key] = None
        for values, _v in _instances(ctx):
            bad = [k for k in range(2, GROUP_INSTANCE_MAX_N + 1) if centraliser_order(k, _taps(ctx, values, k)) != k]
            if bad:
                ctx.cache[key] = f"n = {bad[0]}, taps {_taps(ctx, values, bad[0])}: the centraliser does not have " \
                                 f"order {bad[0]}"
                break
    if ctx.cache[key]:
        raise Reject(f"the closed form fails at an instance: {ctx.cache[key]}")
    span, values = _span_values(ctx)
    return VERIFIED, ("the non-zero taps have gcd 1 (K ∖ {0} holds 1 or two consecutive integers for a span), so "
                      "gcd(n, K) = 1 and the centraliser of the tap shifts is ⟨P⟩ = C_n for every n (§22.1); every permutation tried at n = 2.."
                      f"{GROUP_INSTANCE_MAX_N}" + (f", {span} = {', '.join(map(str, values))}" if span else ""))


def _concrete_group(ctx, n: int, name, order):
    taps = _taps(ctx, {}, n)
    g = tap_gcd(n, taps)
    want = _wreath_order(n, g)
    if order != want:
        raise Reject(f"g = gcd(n, taps) = {g}: the centraliser C_{n // g} ≀ S_{g} has order {want}, not {order}")
    expected = {1: "C_n", n: "S_n"}.get(g)
    if n == 1 and name in ("C_n", "S_n"):  # C_1 = S_1: either name is the one group of one position
        expected = name
    if expected is not None and name != expected:
        raise Reject(f"g = {g}: the group is {expected}, not {name!r}")
    extra = ""
    if n <= GROUP_INSTANCE_MAX_N + 1:
        if centraliser_order(n, taps) != want:
            raise Reject(f"every permutation tried: the centraliser does not have order {want}")
        extra = f"; every one of the {n}! permutations tried"
    return VERIFIED, f"g = gcd(n, taps) = {g}: the centraliser of the tap shifts is C_{n // g} ≀ S_{g}, order {want}{extra}"


@checker("CONV-DISCONNECTED")
def disconnected(ctx, s):
    if s["status"] != "proved":
        raise Reject("CONV-DISCONNECTED only concludes `proved`")
    n = _n(ctx)
    if n is None:
        return _symbolic_disconnected(ctx, s.get("data") or {})
    data = s.get("data") or {}
    i, j = data.get("i"), data.get("j")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= n for v in (i, j)):
        raise Reject("the witness is not a pair of positions")
    taps = _taps(ctx, {}, n)
    budget = ctx.spec.layers if isinstance(ctx.spec.layers, int) else None
    d, sets = sumset_depth(n, taps, budget)
    reached = sets[min(len(sets) - 1, budget)] if budget is not None else sets[-1]
    if d is not None and (budget is None or d <= budget):
        raise Reject(f"the sum sets fill Z_{n} after {d} layers: every position is reached")
    if (j - i) % n in reached:
        raise Reject(f"offset {(j - i) % n} is reached: x_{j} reaches position {i}")
    return VERIFIED, (f"the sum sets of the taps with 0 recomputed: offset {(j - i) % n} is never reached"
                      + (f" within {budget} layers" if budget is not None else " (they stay in gZ_n)"))


# ---------------------------------------------------------------------------------------------
# Lemma P (§22.6): any integer taps at symbolic n, re-derived here from the taps alone

MAX_REDUCED_SPAN = 64


def _general_taps(ctx) -> bool:
    """Integer taps, not all 0, whose union with 0 is neither an interval nor s times one: Lemma P's case."""
    conv = _mixer(ctx)
    if conv.span is not None or _all_zero(ctx):
        return False
    s = _step(ctx)
    ks = sorted({t // s for t in _taps(ctx, {})} | {0})
    return ks != list(range(ks[0], ks[-1] + 1))


def _numerical_gaps(gens: list[int]) -> list[int]:
    """ℕ ∖ ⟨gens⟩ for positive generators with gcd 1 (every gap is below max²)."""
    top = max(gens) ** 2 + 1
    reach = {0}
    for x in range(1, top + 1):
        if any(x - g in reach for g in gens):
            reach.add(x)
    return [x for x in range(top + 1) if x not in reach]


def _lemma_p(taps: list[int]) -> dict:
    """Lemma P's data from the taps: s, A ⊆ [0, b], the gaps, u*[ρ], the k₀ whose finite check starts the induction,
    and the length from which the closed form is proved."""
    s = math.gcd(*[abs(t) for t in taps if t != 0])
    ks = sorted({t // s for t in taps} | {0})
    a = [x - ks[0] for x in ks]
    b = a[-1]
    if b > MAX_REDUCED_SPAN:
        raise Trust(f"the reduced taps span {b} > {MAX_REDUCED_SPAN}: Lemma P is not re-derived here")
    if math.gcd(*a) != 1:
        raise Reject("the reduced taps do not have gcd 1")
    low = _numerical_gaps([x for x in a if x > 0])
    high = _numerical_gaps([b - x for x in a if x < b])
    f1, f2 = max(low, default=-1), max(high, default=-1)
    big = max(f1, f2, -1)
    sums = {g + h for g in low for h in high}
    least = {}
    for rho in range(b):
        u = big + ((rho - big) % b)
        while u in sums:
            u += b
        least[rho] = u
    k = 1
    while True:
        if k * b >= b + f1 + f2 + 1:
            kfold = {0}
            for _ in range(k):
                kfold = {x + y for x in kfold for y in a}
            if kfold == {x for x in range(k * b + 1) if x not in low and (k * b - x) not in high}:
                break
        k += 1
        if k > 8 * b + 8:
            raise Trust("the sum-set structure of Lemma P is not reached within the verifier's search")
    return {"s": s, "A": a, "b": b, "least": least, "k0": k,
            "proved": max(big + 1, max(least.values()) + 1, k * b, 2)}


def _lemma_p_check(ctx, claimed, start) -> str:
    """The stated D equals Lemma P's (n + u*[−n mod b])/b on every class n = bk + r (symbolically in k), which the
    lemma proves for n ≥ its start; below that, down to the stated `from`, the sum sets recomputed at each n."""
    if not isinstance(start, int) or isinstance(start, bool) or start < 2:
        raise Reject("Lemma P's count needs its first length `from`, an integer ≥ 2")
    taps = _taps(ctx, {})
    key = ("lemma P", tuple(taps))
    if key not in ctx.cache:
        ctx.cache[key] = _lemma_p(taps)
    p = ctx.cache[key]
    n = ctx.symbols[ctx.spec.tokens]
    b, s = p["b"], p["s"]
    k = sympy.Symbol("k_lemma_p", integer=True, nonnegative=True)
    for r in range(b):
        want = k + (r + p["least"][(-r) % b]) // b
        got = sympy.simplify(sympy.piecewise_fold(claimed.xreplace({n: b * k + r})))
        if sympy.simplify(got - want) != 0:
            raise Reject(f"on n = {b}k + {r} the count is {sympy.sstr(got)}, not Lemma P's {sympy.sstr(want)}")
    checked = 0
    for v in range(start, p["proved"]):
        if math.gcd(v, s) != 1:
            continue
        d, _ = sumset_depth(v, taps)
        if d != int(claimed.xreplace({n: v})):
            raise Reject(f"at n = {v} the sum sets fill Z_n after {d} layers, not {claimed.xreplace({n: v})}")
        checked += 1
    return (f"Lemma P re-derived from the taps (reduced span b = {b}, k₀ = {p['k0']}: the k-fold sum set is [0, kb] "
            f"minus the two gap sets from k₀ on), so D = (n + u*[−n mod b])/b for n ≥ {p['proved']}, equal to the "
            f"stated count on each class of n mod {b}; the sum sets recomputed at the {checked} lengths from "
            f"{start} below that")
