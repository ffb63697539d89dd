"""Inference steps (their conclusion follows from their premises by a theorem of the trusted base),
the FFN step (named activations), and the dense symmetry group (bias table, cross-checked by
brute force at small n)."""
from __future__ import annotations

import sympy

from .. import spec as S
from . import groups, kernels, numeric, patterns
from .check import NUMERIC, VERIFIED, Reject, Trust, checker

LIM_PROVING = {"LIM-EXPPOLY", "LIM-EXPALG", "LIM-EXPEXP", "LIM-FEATSUM", "LIM-OSCPROD", "LIM-REGION", "LIM-NYSTROM-USE", "LIM-BOUNDED",
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
    from .by_class import ill_posed_range, lengths, not_uap_range, range_within_premises, two_key_range
    below = range_within_premises(ctx, s)  # a UAP range starts no lower than the premises it rests on
    trusted = None
    try:
        below += lengths(ctx, s)  # the lengths below the stated range, when the step lists them (§12)
    except Trust as exc:
        trusted = exc  # named after the checks below, which still reject what they find (a range n ≥ 10¹² trusts
        # the lengths below it, and must not pass a NOT-UAP range over a strongly connected length unnamed)
    below += not_uap_range(ctx, s)  # a NOT-UAP verdict's range, re-checked at its first lengths
    below += ill_posed_range(ctx, s)  # an ILL-POSED verdict's range: its refuted normaliser's (Lemma T, §4)
    below += two_key_range(ctx, s)  # a UAP resting on a form that needs two keys per row excludes n = 1 (§4)
    if trusted is not None:
        raise trusted
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


#: a head's token distinguishing steps, each of which PE-LIFT passes through (the engine lifts every head's step:
#: T5 buckets, RoPE, a fixed bias, shared or differential heads beside an encoding were rejected as premises)
HEAD_TD_RULES = frozenset({"TD-KERNEL", "TD-BIAS", "TD-BUCKETS", "TD-FIXEDBIAS", "TD-LINFORMER", "TD-MEANS", "TD-RIDGE",
                           "TD-RADIAL", "TD-ROTARY", "TD-WITNESS", "TD-COMPLEX", "HEADS-DIFF", "HEADS-SINK", "HEADS-SHARED",
                           "HEADS-ZERO-VALUE"})


@checker("PE-LIFT")
def pe_lift(ctx, s):
    """An absolute encoding (§10): the step's one premise is the head's token distinguishing step, whatever rule made
    it, with the same status; what the head's count is stays with the layer steps."""
    (td,) = _premise_rules(ctx, s, HEAD_TD_RULES)
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


# Functions of one argument that are bounded with a bounded derivative (|f| ≤ 1 or π/2, |f'| ≤ 1 or 2/√π), and
# functions that are Lipschitz but unbounded (|f'| ≤ 1, 1.1 for silu and gelu's bound above): the facts the
# structural Lipschitz check of a custom activation composes (docs/theory.md §18.3).
BOUNDED_LIPSCHITZ = ("tanh", "sin", "cos", "sigmoid", "erf")
LIPSCHITZ_FUNCTIONS = ("relu", "abs", "softplus", "elu", "gelu", "silu", "max", "min")
NONNEGATIVE = ("relu", "abs", "softplus")


def _positive_constant(ctx, e) -> bool:
    if isinstance(e, S.Num):
        return e.value > 0
    p = ctx.spec.param(e.id) if isinstance(e, S.Name) else None
    return p is not None and p.constraint == "> 0"


def _lipschitz(ctx, e, var: str) -> tuple[bool, bool, bool]:  # noqa: C901 - one rule per expression kind
    """(Lipschitz, bounded, non-negative) for a scalar expression of `var`, by structure: sums, constant multiples,
    products of bounded Lipschitz factors, quotients by a non-zero constant, t/(c + |t|) and 1/(c + g) with c > 0
    and g ≥ 0 Lipschitz, and compositions with the functions above. (False, …) means not shown."""
    if var not in _names(e):
        return True, True, isinstance(e, S.Num) and e.value >= 0 or _positive_constant(ctx, e)
    if isinstance(e, S.Name):
        return True, False, False
    if isinstance(e, S.Neg):
        lip, bnd, _ = _lipschitz(ctx, e.operand, var)
        return lip, bnd, False
    if isinstance(e, S.Norm):
        lip, bnd, _ = _lipschitz(ctx, e.operand, var)
        return lip, bnd, True
    if isinstance(e, S.Call):
        parts = [_lipschitz(ctx, a, var) for a in e.args]
        lip, bnd = all(p[0] for p in parts), all(p[1] for p in parts)
        if e.fn in BOUNDED_LIPSCHITZ and len(parts) == 1:
            return lip, True, e.fn == "sigmoid"
        if e.fn in LIPSCHITZ_FUNCTIONS:
            return lip, bnd and e.fn in ("max", "min", "relu", "abs"), e.fn in NONNEGATIVE
        return False, False, False
    if not isinstance(e, S.BinOp):
        return False, False, False
    left, right = _lipschitz(ctx, e.left, var), _lipschitz(ctx, e.right, var)
    if e.op in ("+", "-"):
        return left[0] and right[0], left[1] and right[1], e.op == "+" and left[2] and right[2]
    if e.op == "*":
        if var not in _names(e.left) or var not in _names(e.right):
            const, other = (left, right) if var not in _names(e.left) else (right, left)
            return other[0], other[1], other[2] and const[2]
        both = left[0] and left[1] and right[0] and right[1]  # |ab − a'b'| ≤ |a||b − b'| + |b'||a − a'|
        return both, left[1] and right[1], left[2] and right[2]
    if e.op == "/":
        return _quotient(ctx, e, var, left)
    if e.op == "^" and isinstance(e.right, S.Num) and e.right.value == 1:
        return left
    return False, False, False


def _quotient(ctx, e, var: str, left) -> tuple[bool, bool, bool]:
    """a / c (c a non-zero constant), t / (c + |t|) (1/c-Lipschitz, |·| < 1) and b / (c + g) with b constant, c > 0,
    g ≥ 0 Lipschitz (|1/(c + g(x)) − 1/(c + g(y))| ≤ |g(x) − g(y)|/c²)."""
    den = e.right
    if var not in _names(den):
        nonzero = isinstance(den, S.Num) and den.value != 0 or (
            isinstance(den, S.Name) and ctx.spec.param(den.id) is not None
            and ctx.spec.param(den.id).constraint in ("> 0", "!= 0"))
        return (left[0], left[1], False) if nonzero else (False, False, False)
    if not (isinstance(den, S.BinOp) and den.op == "+"):
        return False, False, False
    for c, g in ((den.left, den.right), (den.right, den.left)):
        if not _positive_constant(ctx, c):
            continue
        if isinstance(g, S.Norm) and g.operand == e.left or (
                isinstance(g, S.Call) and g.fn == "abs" and len(g.args) == 1 and g.args[0] == e.left):
            return left[0], True, False  # t/(c + |t|) of a Lipschitz t
        glip, _, gnonneg = _lipschitz(ctx, g, var)
        if var not in _names(e.left) and glip and gnonneg:
            return True, True, False
    return False, False, False


def _names(e) -> set:
    from .rules_kernel import _names as names
    return names(e)


def _custom_ffn(ctx, s) -> tuple[str, str]:
    """A custom activation σ(u) = EXPR, evaluated by the verifier's own functions: affine when σ'' simplifies to 0;
    otherwise non-affine by the exact second difference at the stated points, and Lipschitz by structure."""
    f = ctx.spec.ffn
    z = sympy.Symbol("ξ", real=True)
    env = dict(kernels.param_symbols(ctx.spec), **{f.var: z})
    try:
        sigma_z = kernels.evaluate(f.expr, env)
    except kernels.OutOfScope as exc:
        raise Trust(f"the custom activation is not evaluated here ({exc})") from None
    if isinstance(sigma_z, tuple):
        raise Reject("the activation is not a scalar")
    if s["status"] == "refuted":
        if sympy.simplify(sympy.diff(sigma_z, z, 2)) != 0:
            raise Reject(f"σ(ξ) = {sympy.sstr(sigma_z)} is not shown affine (σ'' does not simplify to 0)")
        return VERIFIED, f"σ(ξ) = {sympy.sstr(sigma_z)} is affine (σ'' = 0): Definition 2 fails"
    if s["status"] != "proved":
        return VERIFIED, "an undecided step asserts nothing"
    how, reason = _second_difference(ctx, s, lambda p: sigma_z.xreplace({z: p}))
    lip, _, _ = _lipschitz(ctx, f.expr, f.var)
    if not lip:
        raise Trust(f"σ(ξ) = {sympy.sstr(sigma_z)}: {reason} (not affine, re-checked); its Lipschitz bound is not "
                    "re-derived here (the structural rules do not cover it)")
    return how, (f"σ(ξ) = {sympy.sstr(sigma_z)}: {reason} (not affine); Lipschitz by structure (sums, constant "
                 "multiples, products of bounded Lipschitz factors, t/(c + |t|), 1/(c + g) with g ≥ 0, compositions "
                 "with Lipschitz functions)" + (NUMERIC_SIGN if how == NUMERIC else ""))


def _second_difference(ctx, s, sigma) -> tuple[str, str]:
    """The stated non-affinity witness: three equally spaced integers where σ's second difference is the stated
    value (exact) and non-zero."""
    data = s.get("data") or {}
    pts = data.get("points")
    if not (isinstance(pts, list) and len(pts) == 3 and all(isinstance(p, int) and not isinstance(p, bool) for p in pts)
            and pts[1] - pts[0] == pts[2] - pts[1] != 0):
        raise Reject("the non-affinity witness is not three equally spaced integers")
    if any(abs(p) > 10 ** 6 for p in pts):
        raise Reject("the non-affinity witness's points are small integers")
    val = sympy.simplify(sigma(sympy.Integer(pts[0])) - 2 * sigma(sympy.Integer(pts[1])) + sigma(sympy.Integer(pts[2])))
    stored = data.get("second difference")
    if stored is not None:
        from .trees import decode
        if sympy.simplify(decode(stored, ctx.symbols) - val) != 0:
            raise Reject(f"the second difference at {pts} is {sympy.sstr(val)}, not the stored value")
    sign = numeric.sign_of_constant(val)
    if not sign:
        raise Reject(f"σ(p) − 2σ(q) + σ(r) = {sympy.sstr(val)} is not shown non-zero")
    return (VERIFIED if val.is_Rational else NUMERIC), f"second difference {sympy.sstr(val)} ≠ 0 at {pts}"


NUMERIC_SIGN = " (the sign of the transcendental second difference checked with 50 digits)"


@checker("FFN-DEF2")
def ffn(ctx, s):
    f = ctx.spec.ffn
    stated = (s.get("data") or {}).get("ffn")
    if stated is not None and f.kind in ("named", "none") and stated != (f.name if f.kind == "named" else "none"):
        raise Reject(f"the step names the FFN {str(stated)[:60]!r}; the input's is "
                     f"{f.name if f.kind == 'named' else 'none'}")
    if stated is not None and f.kind not in ("named", "none"):
        ctx.unbound.append(f"{s['id']} data.ffn")  # a custom activation's text: the verifier evaluates the input's own
    if f.kind == "none":
        if s["status"] != "refuted":
            raise Reject("`ffn none` has no non-affine member: Definition 2 fails")
        return VERIFIED, "`ffn none`: the FFN family has no non-affine member"
    if f.kind != "named":
        return _custom_ffn(ctx, s)
    sigma = kernels.ACTIVATIONS[f.name]
    if f.name == "identity":
        if s["status"] == "proved":
            raise Reject("the identity is affine")
        return VERIFIED, "σ = identity is affine"
    if s["status"] != "proved":
        raise Trust("the FFN step is not proved")
    how, second = _second_difference(ctx, s, sigma)
    return how, f"σ = {f.name}: {second} (not affine); Lipschitz: {LIPSCHITZ[f.name]}" + (NUMERIC_SIGN if how == NUMERIC else "")


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
    whole = (f"; at n = {n} its order is the labelled structure's (nauty, or colour refinement on the labelled arcs "
             "with one position individualised)") if isinstance(n, int) and n > 7 else ""
    return VERIFIED, (f"G = {name} for {where}: every bias class and the positional encoding preserved; "
                      f"confirmed by trying every permutation at n = {', '.join(map(str, checked))}{whole}")


DENSE_REFINEMENT_ARCS = 4_200_000  # complete heads × n(n − 1) arcs refined when nauty's graph is too large


def _dense_by_refinement(spec, n: int, kinds) -> int | None:
    """|G| of complete heads with bias classes when nauty's graph is too large (n = 1,024 with an offset class per
    distance): colour refinement on the labelled arc arrays, then one position individualised (arrays.py, the same
    route as above n = 1,024 for patterns, docs/theory.md §18.3); None when it does not decide it."""
    import numpy as np

    from . import arrays
    heads = spec.heads
    if spec.positional != "none" or len(heads) * n * (n - 1) > DENSE_REFINEMENT_ARCS:
        return None
    v = np.arange(n, dtype=np.int64)
    j, i = np.repeat(v, n), np.tile(v, n)
    keep = j != i
    codes = j[keep] * n + i[keep]
    labels = []
    for k, head in enumerate(heads):
        kind = kinds[k] if kinds is not None else head.bias
        d = j[keep] - i[keep]
        if kind is None:
            labels.append(np.zeros(codes.size, dtype=np.int64))
        elif kind == "toeplitz":
            labels.append(d)
        elif kind == "symmetric toeplitz":
            labels.append(np.abs(d))
        elif kind == "circulant":
            labels.append(d % n)
        elif kind == "symmetric circulant":
            labels.append(np.minimum(d % n, n - d % n))
        elif kind == "free":
            labels.append(codes.copy())
        else:
            return None
    all_codes = [codes] * len(heads)
    cells = arrays.group_by_refinement(all_codes, n, labels)
    if cells is not None:
        import math
        return math.prod(math.factorial(len(c)) for c in cells)
    colour = arrays.refine(all_codes, n, labels, arrays.labelled_rounds(all_codes, n))
    found = arrays.individualised_group(all_codes, n, labels, colour) if colour is not None else None
    return None if found is None else found[0]


def _dense_group(spec, n: int, name, brute: bool = True, ctx=None):
    """None when the labelled complete structure at n has exactly the named group, else the reason."""
    heads = [patterns.head_arcs(S.Full(), n) for _ in spec.heads]
    kinds = None
    if any(h.position for h in spec.heads) and ctx is not None:
        from .rules_positions import group_bias
        kinds = [group_bias(ctx, h, n) for h in spec.heads]
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
        full, method = groups.full_order(lab, n, spec.positional)
        if full is None:
            full = _dense_by_refinement(spec, n, kinds)
        if full is None:
            raise Trust(f"completeness at n = {n} is not re-derived: {method}; colour refinement on the labelled "
                        "arcs did not settle it")
    mine = groups.order(gens, n)
    if full is not None and full > mine:
        raise Trust(f"the claimed group {name} is smaller than the bias table's at n = {n}: a construct the "
                    "verifier does not model")
    if full != mine:
        return f"the structure has {full} symmetries, {name} has {mine}"
    return None
