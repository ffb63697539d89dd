"""Inference steps (their conclusion follows from their premises by a theorem of the trusted base),
the FFN step (named activations), and the dense symmetry group (bias table, cross-checked by
brute force at small n)."""
from __future__ import annotations

import sympy

from .. import spec as S
from . import groups, kernels, numeric, patterns
from .check import NUMERIC, VERIFIED, Reject, Trust, checker

LIM_PROVING = {"LIM-EXPPOLY", "LIM-EXPALG", "LIM-FEATSUM", "LIM-OSCPROD", "LIM-REGION", "LIM-NYSTROM-USE", "LIM-BOUNDED",
               "LIM-REGVAR", "LIM-SCALEINV", "LIM-OSC", "LIM-UNDECIDED", "LIM-UNSUPPORTED"}


def _premise_rules(ctx, s, *allowed_sets):
    prem = ctx.premises(s)
    if len(prem) != len(allowed_sets):
        raise Reject(f"expected {len(allowed_sets)} premises, found {len(prem)}")
    for p, allowed in zip(prem, allowed_sets):
        if p["rule"] not in allowed:
            raise Reject(f"premise {p['id']} ({p['rule']}) is not one this rule uses")
    return prem


def _head(ctx, s) -> S.Head:
    h = ctx.heads_of.get(s["id"])
    if h is None:
        raise Reject("the step belongs to no head")
    return ctx.spec.heads[h]


@checker("VERDICT-T1")
def verdict(ctx, s):
    from .structure import is_theorem1
    if not is_theorem1(ctx) or s["id"] != ctx.order[-1]:
        raise Reject("VERDICT-T1 is the last step")
    want = "proved" if ctx.cert["verdict"] in ("UAP", "NOT-UAP", "ILL-POSED") else "undecided"
    if s["status"] != want:
        raise Reject(f"a {ctx.cert['verdict']} verdict step is {want}, not {s['status']}")
    from .by_class import lengths, not_uap_range, range_within_premises
    below = range_within_premises(ctx, s)  # a UAP range starts no lower than the premises it rests on
    below += lengths(ctx, s)  # the lengths below the stated range, when the step lists them (§12)
    below += not_uap_range(ctx, s)  # a NOT-UAP verdict's range, re-checked at its first lengths
    return VERIFIED, ("inference: the verdict recomputed from its premises' statuses (Theorem 1 with the "
                      "fixed-m corollary; a proved obstruction gives NOT-UAP)" + below)


@checker("TD-KERNEL")
def td_kernel(ctx, s):
    lim, an = _premise_rules(ctx, s, LIM_PROVING | {"LIM-NYSTROM"}, {"AN-STRUCT"})
    both = lim["status"] == "proved" and an["status"] == "proved"
    if s["status"] == "proved" and not both:
        if ctx.spec.tokens == 1:
            return VERIFIED, _one_token(ctx, s, an)
        raise Reject("proved although a premise (LIM or analyticity) is not proved")
    if s["status"] == "refuted" or (s["status"] == "undecided" and both):
        raise Reject(f"status {s['status']} does not follow from the premises")
    return VERIFIED, "inference: (LIM) and analyticity give token distinguishing (dominant-pair lemma, Theorem 2)"


def _one_token(ctx, s, an) -> str:
    """TD-KERNEL at n = 1 (docs/theory.md §8): two samples from different orbits are two different tokens, and the
    identity layer (W_V = 0) keeps them apart, for a well-posed head: unnormalised, or normalised with the kernel
    proved positive (the analyticity step's WP-POSITIVE premise)."""
    head = _head(ctx, s)
    if head.normalized and not any(p["rule"] == "WP-POSITIVE" and p["status"] == "proved" for p in ctx.premises(an)):
        raise Reject("at n = 1 a normalised head is token distinguishing only with its normaliser proved positive")
    return ("at n = 1 two samples from different orbits are two different tokens, and the identity layer (W_V = 0) "
            "keeps them apart; the head is well-posed")


@checker("TD-BIAS")
def td_bias(ctx, s):
    (td,) = _premise_rules(ctx, s, {"TD-KERNEL"})
    head = _head(ctx, s)
    if not head.bias:
        raise Reject("the head has no bias")
    can = td["status"] == "proved"
    if (s["status"] == "proved") != can or s["status"] == "refuted":
        raise Reject(f"status {s['status']} does not follow (premise {td['status']}, bias `{head.bias}`)")
    if head.bias.startswith("symmetric"):
        if can and (s.get("data") or {}).get("labelled_views") is not True:
            raise Reject("a symmetric bias is not one-layer distinguishing: the step must leave the count to "
                         "the labelled views")
        return VERIFIED, (f"inference: a trainable `{head.bias}` bias has offset classes, so Lemma V^λ "
                          "(docs/theory.md §11.10) holds; the layers are the labelled views'")
    return VERIFIED, f"inference: a trainable `{head.bias}` bias separates permuted copies (docs/theory.md §Bias)"


@checker("PE-LIFT")
def pe_lift(ctx, s):
    (td,) = _premise_rules(ctx, s, {"TD-KERNEL", "TD-BIAS", "TD-LINFORMER", "TD-RIDGE", "TD-RADIAL", "TD-WITNESS"})
    if ctx.spec.positional != "absolute":
        raise Reject("the input has no absolute positional encoding")
    if (s["status"] == "proved") != (td["status"] == "proved") or s["status"] == "refuted":
        raise Reject(f"status {s['status']} does not follow from the premise ({td['status']})")
    return VERIFIED, "inference: a learned absolute encoding lifts the premises (paper §6.9)"


@checker("TD-LINFORMER")
def td_linformer(ctx, s):
    head = _head(ctx, s)
    if head.projection is None:
        raise Reject("the head has no sequence projection")
    prem = ctx.premises(s)
    if s["status"] == "proved":
        if head.projection.fixed or len(prem) != 2 or any(p["status"] != "proved" for p in prem):
            raise Reject("proved without trainable projections and proved analyticity and positivity")
        if {p["rule"] for p in prem} != {"AN-STRUCT", "WP-POSITIVE"}:
            raise Reject("its premises are not the analyticity and positivity steps")
        if not _zero_key_positive(ctx, head):
            raise Reject("k(q, 0) > 0 is not shown")
    elif s["status"] == "refuted":
        raise Reject("TD-LINFORMER never refutes")
    return VERIFIED, ("inference: trainable projections with W_K = 0 give uniform weights k(q, 0) > 0 "
                      "(docs/theory.md §Token distinguishability)")


def _zero_key_positive(ctx, head) -> bool:
    for xv in (1, -1, 2):
        val = kernels.kernel_value(ctx.spec, head, (sympy.Integer(xv),), (sympy.Integer(0),))
        if numeric.sign_of_constant(sympy.simplify(val.subs({v: 1 for v in val.free_symbols}))) != 1:
            return False
    return True


@checker("LIM-NYSTROM-USE")
def nystrom_use(ctx, s):
    prem = ctx.premises(s)
    if not prem or prem[-1]["rule"] not in LIM_PROVING or s["status"] != prem[-1]["status"]:
        raise Reject("its status is not that of the limit step it wraps")
    if any(p["status"] != "proved" for p in prem) and s["status"] == "proved":
        raise Reject("proved although a premise is not")
    return VERIFIED, "inference: the limit of the landmark expansion carries over"


@checker("LIM-REDUCE")
def reduce(ctx, s):
    if s["status"] != "proved":
        raise Reject("LIM-REDUCE only concludes `proved`")
    _head(ctx, s)
    return VERIFIED, ("not relied on: the verifier evaluates k(x, t z) itself from the re-parsed formula at "
                      "every point it checks")


# ---------------------------------------------------------------------------------------------
# FFN (Definition 2) by a table of named activations

LIPSCHITZ = {  # a bound on |σ'| with its one-line reason (docs/theory.md §18.3)
    "relu": "piecewise linear with slopes 0 and 1",
    "leaky_relu": "piecewise linear with slopes 1/100 and 1",
    "gelu": "σ' = Φ(ξ) + ξφ(ξ) with 0 ≤ Φ ≤ 1 and |ξφ(ξ)| ≤ φ(1) < 1/4",
    "tanh": "σ' = 1 − tanh² ∈ (0, 1]",
    "sigmoid": "σ' = σ(1 − σ) ∈ (0, 1/4]",
    "softplus": "σ' = sigmoid ∈ (0, 1)",
    "elu": "σ' = 1 for ξ > 0 and e^ξ ∈ (0, 1] for ξ ≤ 0; σ is continuous at 0",
    "silu": "σ' = s(ξ)(1 + ξ(1 − s(ξ))) with s the sigmoid, bounded by 1.1",
    "sin": "σ' = cos ∈ [−1, 1]",
}


@checker("FFN-DEF2")
def ffn(ctx, s):
    f = ctx.spec.ffn
    if f.kind == "none":
        if s["status"] != "refuted":
            raise Reject("`ffn none` has no non-affine member: Definition 2 fails")
        return VERIFIED, "`ffn none`: the FFN family has no non-affine member"
    if f.kind != "named":
        raise Trust("a custom activation: its Lipschitz bound is not re-checked here")
    sigma = kernels.ACTIVATIONS[f.name]
    if f.name == "identity":
        if s["status"] == "proved":
            raise Reject("the identity is affine")
        return VERIFIED, "σ = identity is affine"
    data = s.get("data") or {}
    pts = data.get("points")
    if s["status"] != "proved":
        raise Trust("the FFN step is not proved")
    if not (isinstance(pts, list) and len(pts) == 3 and all(isinstance(p, int) and not isinstance(p, bool) for p in pts)
            and pts[1] - pts[0] == pts[2] - pts[1] != 0):
        raise Reject("the non-affinity witness is not three equally spaced integers")
    val = sympy.simplify(sigma(sympy.Integer(pts[0])) - 2 * sigma(sympy.Integer(pts[1])) + sigma(sympy.Integer(pts[2])))
    stored = data.get("second difference")
    if stored is not None:
        from .trees import decode
        if sympy.simplify(decode(stored, ctx.symbols) - val) != 0:
            raise Reject(f"the second difference at {pts} is {sympy.sstr(val)}, not the stored value")
    sign = numeric.sign_of_constant(val)
    if not sign:
        raise Reject(f"σ(p) − 2σ(q) + σ(r) = {sympy.sstr(val)} is not shown non-zero")
    how = VERIFIED if val.is_Rational else NUMERIC
    reason = (f"σ = {f.name}: second difference {sympy.sstr(val)} ≠ 0 at {pts} (not affine); Lipschitz: "
              f"{LIPSCHITZ[f.name]}")
    if how == NUMERIC:
        reason += " (the sign of the transcendental second difference checked with 50 digits)"
    return how, reason


# ---------------------------------------------------------------------------------------------
# Dense heads: the group from the bias table

BIAS_GROUP = {None: "S_n", "free": "trivial", "toeplitz": "trivial", "circulant": "C_n",
              "symmetric circulant": "D_n", "symmetric toeplitz": "reflection"}


@checker("SYM-DENSE")
def sym_dense(ctx, s):
    spec = ctx.spec
    if any(not isinstance(h.pattern, S.Full) for h in spec.heads):
        raise Reject("SYM-DENSE is for heads with the full pattern")
    if s["status"] != "proved":
        raise Reject("SYM-DENSE only concludes `proved`")
    name = (s.get("data") or {}).get("group")
    if any(h.projection for h in spec.heads):
        if name != "trivial":
            raise Reject("sequence projections leave only the identity")
        if any(h.projection.fixed for h in spec.heads):
            raise Trust("frozen projections: the group is trivial only for generic frozen E, F")
        return VERIFIED, "trainable projections commute only with the identity"
    n = spec.tokens
    checked = []
    sizes = [n] if isinstance(n, int) and n <= 7 else [3, 4, 5, 6, 7]
    for m in sizes:
        want = _dense_group(spec, m, name, ctx=ctx)
        if want is not None:
            raise Reject(f"at n = {m}: {want}")
        checked.append(m)
    if isinstance(n, int) and n > 7:
        got = _dense_group(spec, n, name, brute=False, ctx=ctx)
        if got is not None:
            raise Reject(got)
    where = f"n = {n}" if isinstance(n, int) else "every n (the bias-group table, docs/theory.md §Bias)"
    return VERIFIED, (f"G = {name} for {where}: every bias class and the positional encoding preserved; "
                      f"confirmed by trying every permutation at n = {', '.join(map(str, checked))}")


def _dense_group(spec, n: int, name, brute: bool = True, ctx=None):
    """None when the labelled complete structure at n has exactly the named group, else the reason."""
    heads = [patterns.head_arcs(S.Full(), n) for _ in spec.heads]
    kinds = None
    if any(h.position for h in spec.heads) and ctx is not None:
        from .rules_positions import effective_bias
        kinds = [effective_bias(ctx, h, n) for h in spec.heads]
    lab = patterns.labels_at(spec, heads, n, kinds)
    gens = groups.named_generators(name, n) if isinstance(name, str) else None
    if gens is None:
        return f"unknown group name {name!r}"
    for g in gens:
        if not patterns.preserves(g, lab, spec.positional):
            return f"the generator {g} of {name} does not preserve the heads' bias classes"
    if brute:
        full, _ = groups.full_order(lab, n, spec.positional)
    else:
        full, _ = groups.full_order(lab, n, spec.positional)
        if full is None:
            raise Trust(f"completeness at n = {n} needs pynauty")
    mine = groups.order(gens, n)
    if full is not None and full > mine:
        raise Trust(f"the claimed group {name} is smaller than the bias table's at n = {n}: a construct the "
                    "verifier does not model")
    if full != mine:
        return f"the structure has {full} symmetries, {name} has {mine}"
    return None
