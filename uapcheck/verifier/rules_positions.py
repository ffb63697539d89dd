"""Positions in the weights (docs/theory.md §16) and heads that share or combine (§17), re-checked from
the re-parsed formulas: the offset function h(δ) = b(i, i + m) − b(i, i) recomputed by the verifier's
own evaluator, its injectivity decided exactly (linear in δ with a non-zero slope) or, for a
transcendental h at an integer n, at 60 digits on every offset; the hypotheses of TD-FIXEDBIAS,
TD-ROTARY, TD-BUCKETS, HEADS-SHARED, HEADS-DIFF and HEADS-SINK read off the input and the premises' statuses."""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from . import kernels, patterns
from .check import NUMERIC, VERIFIED, Reject, Trust, checker
from .trees import decode

I_POS = sympy.Symbol("i·pos", integer=True, positive=True)
M_OFF = sympy.Symbol("δ", integer=True)
NUMERIC_MAX_N = 2048
DIGITS = 60


def _head(ctx, s) -> S.Head:
    h = ctx.heads_of.get(s["id"])
    if h is None:
        raise Reject("the step belongs to no head")
    return ctx.spec.heads[h]


def offset_function(spec: S.Spec, head: S.Head) -> sympy.Expr:
    """h(δ) = b(i, i + m) − b(i, i) for a `bias`, c(i, i + m)/c(i, i) for a `reweight`; Reject when it depends on i."""
    pos = head.position
    if pos is None:
        raise Reject("the head has no position formula")
    env: dict = dict(kernels.param_symbols(spec))
    env["pi"] = sympy.pi
    env[pos.names[0]] = I_POS

    def at(j):
        env[pos.names[1]] = j
        val = kernels.evaluate(pos.expr, env)
        if isinstance(val, tuple):
            raise Reject("the position formula is not a scalar")
        return val
    if pos.kind == "reweight":
        own = sympy.simplify(at(I_POS))
        if own.is_zero is not False:
            raise Reject(f"c(i, i) = {sympy.sstr(own)} is not shown non-zero")
        h = sympy.simplify(at(I_POS + M_OFF) / own)
    else:
        h = sympy.simplify(at(I_POS + M_OFF) - at(I_POS))
    if h.has(I_POS):
        raise Reject(f"h(δ) = {sympy.sstr(h)} depends on i: the formula is not a function of the offset")
    if not head.normalized:
        diagonal = sympy.simplify(at(I_POS))
        if diagonal.has(I_POS):
            raise Reject(f"b(i, i) = {sympy.sstr(diagonal)} depends on i: in an unnormalised head the row factor "
                         "e^(b(i, i)) does not cancel, so h(δ) does not give the head's classes (§16.1)")
    return h


def _linear_slope(h: sympy.Expr, m: sympy.Symbol) -> Optional[sympy.Expr]:
    if not h.is_polynomial(m):
        return None
    poly = sympy.Poly(h, m)
    return poly.LC() if poly.degree() == 1 and poly.LC().is_nonzero else None


def _monotone(h: sympy.Expr, x: sympy.Symbol) -> bool:
    """h = Σ c_k x^k with the c_k (k ≥ 1) all ≥ 0 or all ≤ 0 and not all 0: strictly monotone on x ≥ 0."""
    if not h.is_polynomial(x):
        return False
    coeffs = [c for (k,), c in sympy.Poly(h, x).terms() if k >= 1]
    return bool(coeffs) and any(c.is_nonzero is True for c in coeffs) and (
        all(c.is_nonnegative is True for c in coeffs) or all(c.is_nonpositive is True for c in coeffs))


def offset_class(spec: S.Spec, head: S.Head) -> tuple[str, str, str]:
    """(class, how, reason): class "injective" or "symmetric"; how VERIFIED or NUMERIC."""
    h = offset_function(spec, head)
    slope = _linear_slope(h, M_OFF)
    if slope is not None:
        return "injective", VERIFIED, f"h(δ) = {sympy.sstr(h)} is linear in δ with slope {sympy.sstr(slope)} ≠ 0"
    even = sympy.simplify(h.xreplace({M_OFF: -M_OFF}) - h) == 0
    mp = sympy.Symbol("m·abs", integer=True, positive=True)
    if even and _linear_slope(sympy.simplify(h.xreplace({M_OFF: mp})), mp) is not None:
        return "symmetric", VERIFIED, f"h(δ) = {sympy.sstr(h)} is even and linear in |δ| with a non-zero slope"
    if even and _monotone(sympy.simplify(h.xreplace({M_OFF: mp})), mp):
        return "symmetric", VERIFIED, (f"h(δ) = {sympy.sstr(h)} is even and a polynomial in |δ| whose non-constant "
                                       "coefficients share one sign, not all 0: strictly monotone in |δ|")
    if not even and not h.free_symbols - {M_OFF}:
        x = sympy.Symbol("x·real", real=True)
        slope = sympy.simplify(sympy.diff(h.xreplace({M_OFF: x}), x))
        if slope.is_positive or slope.is_negative:
            return "injective", VERIFIED, (f"h(δ) = {sympy.sstr(h)} has the derivative {sympy.sstr(slope)}, of one sign "
                                           "on the real line: strictly monotone, injective on every offset")
    n = spec.tokens
    if not isinstance(n, int) or n > NUMERIC_MAX_N or h.free_symbols - {M_OFF}:
        raise Trust(f"h(δ) = {sympy.sstr(h)}: injectivity is re-checked only for linear forms or an integer n "
                    f"≤ {NUMERIC_MAX_N} without params")
    offsets = range(0, n) if even else range(-(n - 1), n)
    import mpmath
    with mpmath.workdps(DIGITS):
        values = []
        for m in offsets:
            val = sympy.N(h.xreplace({M_OFF: sympy.Integer(m)}), DIGITS)
            if not val.is_real or not (val.is_Float or val.is_Integer or val.is_Rational):
                raise Reject(f"h({m}) is not a real number")
            values.append(mpmath.mpf(str(val)))
        values.sort()
        gap = min((b - a for a, b in zip(values, values[1:])), default=mpmath.mpf(1))
        if not gap > mpmath.mpf(10) ** (-(DIGITS - 15)):
            raise Reject(f"h(δ) = {sympy.sstr(h)}: two offsets give values closer than 10^-{DIGITS - 15}")
    return ("symmetric" if even else "injective"), NUMERIC, (
        f"h(δ) = {sympy.sstr(h)} takes pairwise different values at δ = {offsets.start}..{offsets.stop - 1} "
        f"(smallest gap {mpmath.nstr(gap, 3)}; h is transcendental, so its values are compared at {DIGITS} digits)")


def reweight_positive(spec: S.Spec, head: S.Head) -> tuple[Optional[bool], str, str]:
    """(positive, how, reason): whether a `reweight`'s h(δ) = c(i, i + δ)/c(i, i) is > 0 on every offset of the
    sequence: exactly for a linear h without params at an integer n (its least value is at an end) or an h whose
    positivity on the whole line SymPy's assumptions show; else, for an integer n ≤ NUMERIC_MAX_N without params,
    at 60 digits on every offset (a value above 10^-45 is positive). None: not decided here."""
    h = offset_function(spec, head)
    n = spec.tokens
    x = sympy.Symbol("x·real", real=True)
    if sympy.simplify(h.xreplace({M_OFF: x})).is_positive:
        return True, VERIFIED, f"h(δ) = {sympy.sstr(h)} is positive on the whole real line"
    if not isinstance(n, int) or h.free_symbols - {M_OFF}:
        return None, VERIFIED, f"h(δ) = {sympy.sstr(h)} is not shown positive on every offset at every n"
    if h.is_polynomial(M_OFF) and sympy.Poly(h, M_OFF).degree() <= 1:
        ends = [h.xreplace({M_OFF: sympy.Integer(e)}) for e in (-(n - 1), n - 1)]
        ok = all(e.is_positive for e in ends)
        return ok, VERIFIED, (f"h(δ) = {sympy.sstr(h)} is linear: its values at δ = ±{n - 1} are "
                              f"{', '.join(map(sympy.sstr, ends))}")
    if n > NUMERIC_MAX_N:
        return None, VERIFIED, f"n = {n} is above the {NUMERIC_MAX_N} offsets evaluated here"
    import mpmath
    with mpmath.workdps(DIGITS):
        least = None
        for m in range(-(n - 1), n):
            val = sympy.N(h.xreplace({M_OFF: sympy.Integer(m)}), DIGITS)
            if not val.is_real:
                return False, NUMERIC, f"h({m}) is not a real number"
            least = val if least is None or val < least else least
    if least is not None and least > sympy.Float(10) ** (-(DIGITS - 15)):
        return True, NUMERIC, f"h(δ) = {sympy.sstr(h)} is at least {sympy.N(least, 6)} on δ = −{n - 1}..{n - 1} (60 digits)"
    return False, NUMERIC, f"h(δ) = {sympy.sstr(h)} takes the value {sympy.N(least, 6)} ≤ 0 on an offset"


def _stated_h(ctx, s, head: S.Head) -> None:
    """The offset function the step states (a tree), compared with the verifier's own h(δ)."""
    data = s.get("data") or {}
    if data.get("h") is None:
        return
    stated = decode(data["h"], dict(ctx.symbols, **{"δ": M_OFF}), functions=True)
    own = offset_function(ctx.spec, head)
    if sympy.simplify(stated - own) != 0:
        raise Reject(f"the offset function is h(δ) = {sympy.sstr(own)}, the step states {sympy.sstr(stated)}")


@checker("POS-OFFSET")
def pos_offset(ctx, s):
    head = _head(ctx, s)
    pos = head.position
    if pos is None or pos.kind not in ("bias", "reweight"):
        raise Reject("the head has no position formula")
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if s["status"] != "proved":
        raise Reject("POS-OFFSET never refutes")
    _stated_h(ctx, s, head)
    key = ("offset class", head)
    if key not in ctx.cache:
        ctx.cache[key] = offset_class(ctx.spec, head)
    kind, how, reason = ctx.cache[key]
    claimed = (s.get("data") or {}).get("class")
    if claimed != kind:
        raise Reject(f"h is {kind} on the offsets, the step says {claimed}")
    reason = f"{reason}: the classes of a {'symmetric ' if kind == 'symmetric' else ''}Toeplitz bias (§16.1)"
    if pos.kind == "reweight":
        stated = (s.get("data") or {}).get("positive")
        if stated is True:
            positive, how_pos, why = reweight_positive(ctx.spec, head)
            if positive is False:
                raise Reject(f"the step states c > 0 on every offset, but {why}")
            if positive is None:
                raise Trust(f"the step states c > 0 on every offset: not re-checked here ({why})")
            how = NUMERIC if NUMERIC in (how, how_pos) else VERIFIED
            reason += f"; c > 0 on every offset: {why}"
        elif stated is not None and stated is not False:
            raise Reject(f"the positivity of the factor is {stated!r}, not true, false or null")
    return how, reason


def _proved(p) -> bool:
    return p["status"] == "proved"


@checker("TD-FIXEDBIAS")
def td_fixed_bias(ctx, s):
    head = _head(ctx, s)
    prem = ctx.premises(s)
    if [p["rule"] for p in prem] != ["POS-OFFSET", "AN-STRUCT"]:
        raise Reject("its premises are not POS-OFFSET and AN-STRUCT")
    off, an = prem
    if s["status"] == "refuted":
        raise Reject("TD-FIXEDBIAS never refutes")
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if (s.get("data") or {}).get("fixed_even"):
        return _td_fixed_even(ctx, s, head, off, an)
    side = (s.get("data") or {}).get("one_sided")
    if side is not None:
        return _td_fixed_one_sided(ctx, head, off, an, side)
    if (s.get("data") or {}).get("labelled_views"):
        return _td_fixed_labelled(ctx, head, off, an)
    if not (_proved(off) and _proved(an)) or (off.get("data") or {}).get("class") != "injective":
        raise Reject("proved without an injective offset function and analyticity")
    _reweight_premise(head, off)
    k00 = kernels.kernel_value(ctx.spec, head, (sympy.Integer(0),), (sympy.Integer(0),))
    k00 = sympy.simplify(k00)
    if k00.is_positive is not True:
        raise Reject(f"k(0, 0) = {sympy.sstr(k00)} is not shown positive")
    return VERIFIED, (f"inference (§16.2): h injective (POS-OFFSET), AN-STRUCT proved, k(0, 0) = {sympy.sstr(k00)} > 0: "
                      "1-layer token distinguishing w.r.t. the trivial group")


def _reweight_premise(head: S.Head, off: dict) -> None:
    """A `reweight` factor's weights are positive: its POS-OFFSET step (re-checked there) states c > 0 on every
    offset."""
    if head.position is None or head.position.kind not in ("bias", "reweight"):
        raise Reject("the head has no fixed position term")
    if head.position.kind == "reweight" and (off.get("data") or {}).get("positive") is not True:
        raise Reject("a `reweight` factor needs c > 0 on every offset, and its POS-OFFSET step does not state it")


def _k00_positive(ctx, head: S.Head) -> sympy.Expr:
    k00 = sympy.simplify(kernels.kernel_value(ctx.spec, head, (sympy.Integer(0),), (sympy.Integer(0),)))
    if k00.is_positive is not True:
        raise Reject(f"k(0, 0) = {sympy.sstr(k00)} is not shown positive")
    return k00


ONE_SIDED_SAMPLE = 24  # at a symbolic n, the arcs are rebuilt for n = 2, …, this


def _arcs_on_side(pattern: S.Pattern, n: int, side: int) -> bool:
    """Every arc (j, i) (query i attends to key j) has j ≤ i (side −1) or j ≥ i (side +1)."""
    return all((j - i) * side >= 0 for j, i in patterns.head_arcs(pattern, n))


def _td_fixed_one_sided(ctx, head: S.Head, off, an, side):
    """Lemma O (§16.2): an even h, injective on |δ|, on a pattern whose arcs all lie on one side of the
    diagonal is injective on the offsets every row sees, so the offset-injective argument applies."""
    if side not in (-1, 1):
        raise Reject(f"the side of the pattern is {side!r}, not −1 or +1")
    if not (_proved(off) and _proved(an)) or (off.get("data") or {}).get("class") != "symmetric":
        raise Reject("Lemma O needs an even offset function injective on |δ| and analyticity")
    _reweight_premise(head, off)
    k00 = _k00_positive(ctx, head)
    n = ctx.spec.tokens
    where = "j ≤ i" if side < 0 else "j ≥ i"
    try:
        lengths = [n] if isinstance(n, int) else list(range(2, ONE_SIDED_SAMPLE + 1))
        if isinstance(n, int) and n > patterns.MAX_N:
            raise Trust(f"n = {n} is above the {patterns.MAX_N} tokens whose arcs are rebuilt")
        for length in lengths:
            if not _arcs_on_side(head.pattern, length, side):
                raise Reject(f"at n = {length} an arc of the pattern does not have {where}")
    except patterns.Symbolic as exc:
        raise Trust(f"the pattern's arcs are not rebuilt: {exc}") from None
    how = VERIFIED if isinstance(n, int) else NUMERIC
    at = f"n = {n}" if isinstance(n, int) else f"n = 2, …, {ONE_SIDED_SAMPLE}"
    return how, (f"inference (§16.2, Lemma O): h even and injective on |δ| (POS-OFFSET), AN-STRUCT proved, "
                 f"k(0, 0) = {sympy.sstr(k00)} > 0, every arc i → j has {where} (rebuilt at {at}): h is injective on "
                 "the offsets every row sees")


def _td_fixed_even(ctx, s, head: S.Head, off, an):
    """Lemma E (§16.2): an even h, injective on |δ|, on a dense normalised softmax head: two layers
    separate every pair outside the reflection (the count is BIAS-LAYERS')."""
    if not (_proved(off) and _proved(an)) or (off.get("data") or {}).get("class") != "symmetric":
        raise Reject("Lemma E needs an even offset function injective on |δ| and analyticity")
    if not isinstance(head.pattern, S.Full):
        raise Reject("Lemma E is for dense heads")
    gamma = softmax_gamma(ctx.spec, head)
    if gamma is None:
        raise Reject("Lemma E is proved for normalised heads k(x, y) = exp(γ x·y), γ > 0, only")
    _reweight_premise(head, off)
    return VERIFIED, (f"inference (§16.2, Lemma E): h even and injective on |δ| (POS-OFFSET), AN-STRUCT proved, "
                      f"k(x, y) = exp({sympy.sstr(gamma)} x·y) re-derived, a dense head: two layers separate every "
                      "pair outside the reflection")


def _td_fixed_labelled(ctx, head: S.Head, off, an):
    """Theorem F161 (§16.2): an even h, injective on |δ|, on a sparse normalised softmax head without projections:
    the fixed weights are injective on the classes |δ|, so each layer separates different labelled views (Lemma V^ρ,
    §14.11(f)); the count is the pattern's labelled views' (PAT-LAYERS)."""
    if not (_proved(off) and _proved(an)) or (off.get("data") or {}).get("class") != "symmetric":
        raise Reject("Lemma V^ρ's even case needs an even offset function injective on |δ| and analyticity")
    if isinstance(head.pattern, S.Full):
        raise Reject("a dense head's count is Lemma E's (BIAS-LAYERS), not the labelled views'")
    gamma = softmax_gamma(ctx.spec, head)
    if gamma is None or head.projection is not None or head.nystrom:
        raise Reject("Lemma V^ρ is proved for normalised heads k(x, y) = exp(γ x·y), γ > 0, without projections, only")
    _reweight_premise(head, off)
    return VERIFIED, (f"inference (§16.2, Theorem F161): h even and injective on |δ| (POS-OFFSET), AN-STRUCT proved, "
                      f"k(x, y) = exp({sympy.sstr(gamma)} x·y) re-derived on a sparse head: each layer separates "
                      "different labelled views (Lemma V^ρ); the count is the labelled views'")


def softmax_gamma(spec: S.Spec, head: S.Head, affine_ok: bool = False) -> Optional[sympy.Expr]:
    """γ when the head's kernel is exp(γ x·y) with γ > 0 (checked at 2-dimensional symbolic vectors). `affine_ok`: an
    `affine query key` head is accepted (for an argument that sets the affine terms to 0, so the family contains the
    head without them)."""
    if head.kind != "kernel" or head.normalize is False or head.tie or (head.affine and not affine_ok):
        return None
    x1, x2, y1, y2 = sympy.symbols("x1 x2 y1 y2", real=True)
    k = kernels.kernel_value(spec, head, (x1, x2), (y1, y2))
    if not isinstance(k, sympy.exp):
        return None
    gamma = sympy.simplify(k.args[0] / (x1 * y1 + x2 * y2))
    if gamma.free_symbols & {x1, x2, y1, y2} or not gamma.is_positive:
        return None
    return gamma


@checker("TD-ROTARY")
def td_rotary(ctx, s):
    head = _head(ctx, s)
    if head.position is None or head.position.kind != "rotary":
        raise Reject("the head is not `rotary`")
    prem = ctx.premises(s)
    if [p["rule"] for p in prem] != ["AN-STRUCT"]:
        raise Reject("its premise is not AN-STRUCT")
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if s["status"] != "proved" or not _proved(prem[0]):
        raise Reject("proved without analyticity")
    gamma = softmax_gamma(ctx.spec, head, affine_ok=True)  # affine terms 0 in the argument (§16.3)
    if gamma is None:
        raise Reject("RoPE is proved for normalised heads k(x, y) = exp(γ x·y), γ > 0, without `tie query key`, only")
    d = ctx.spec.dim
    if isinstance(d, int) and d < 2:
        raise Reject("RoPE's argument needs d ≥ 2")
    return VERIFIED, (f"inference (§16.3): k(x, y) = exp({sympy.sstr(gamma)} x·y) re-derived from the formula, normalised, "
                      "AN-STRUCT proved, d ≥ 2: 1-layer token distinguishing w.r.t. the trivial group")


@checker("TD-BUCKETS")
def td_buckets(ctx, s):
    head = _head(ctx, s)
    pos = head.position
    if pos is None or pos.kind != "buckets":
        raise Reject("the head has no T5 buckets")
    prem = ctx.premises(s)
    if [p["rule"] for p in prem] != ["TD-KERNEL"]:
        raise Reject("its premise is not TD-KERNEL")
    n = ctx.spec.tokens
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if s["status"] == "proved" and (s.get("data") or {}).get("labelled_views") is True:
        # Lemma V^λ (§11.10, §16.4): the buckets are trainable classes of the offset; the count is BIAS-LAYERS'
        if not _proved(prem[0]):
            raise Reject("Lemma V^λ needs the head's TD-KERNEL step proved")
        pair = _row_one_pair(pos.buckets, pos.max_distance)
        if isinstance(n, int) and (pair is None or pair[1] > n):
            raise Reject(f"no two keys of row 1 share a bucket at n = {n}")
        return VERIFIED, (f"inference (§16.4): keys {pair[0]} and {pair[1]} of row 1 share a bucket (recomputed), so one "
                          "layer is not token distinguishing; the buckets are trainable classes of the offset, so "
                          "Lemma V^λ holds and the count is the labelled views'")
    exact = isinstance(n, int) and _own_buckets(n, pos.buckets, pos.max_distance)
    if s["status"] != "proved" or not _proved(prem[0]) or not exact:
        raise Reject("proved needs TD-KERNEL proved and every offset |j − i| ≤ n − 1 in a bucket of its own")
    return VERIFIED, (f"inference (§16.4): the offsets −{n - 1}, …, {n - 1} have pairwise different T5 buckets "
                      "(recomputed from the released bucket function: a Toeplitz bias), TD-KERNEL proved")


BUCKET_CHECK_N = 2048


def _released_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    """T5's bidirectional _relative_position_bucket(j − i = m), as released, with the logarithm's floor evaluated
    exactly (SymPy) rather than in floating point."""
    half = num_buckets // 2
    ret = half if m > 0 else 0
    d = abs(m)
    exact = half // 2
    if d < exact:
        return ret + d
    large = exact + int(sympy.floor(sympy.log(sympy.Rational(d, exact)) / sympy.log(sympy.Rational(max_distance, exact))
                                    * (half - exact)))
    return ret + min(large, half - 1)


def _row_one_pair(num_buckets: int, max_distance: int):
    """The first keys a < b of row 1 (offsets a − 1, b − 1) in one bucket; within b ≤ B/2 + 2 by pigeonhole."""
    if num_buckets > 4096:  # not searched (the engine does not search either)
        return None
    seen: dict = {}
    for key in range(2, num_buckets // 2 + 3):
        bucket = _released_bucket(key - 1, num_buckets, max_distance)
        if bucket in seen:
            return seen[bucket], key
        seen[bucket] = key
    return None


def _own_buckets(n: int, num_buckets: int, max_distance: int) -> bool:
    if n > BUCKET_CHECK_N:
        return False
    buckets = [_released_bucket(m, num_buckets, max_distance) for m in range(-(n - 1), n)]
    return len(set(buckets)) == len(buckets)


@checker("HEADS-SHARED")
def heads_shared(ctx, s):
    head = _head(ctx, s)
    if head.heads is None:
        raise Reject("the head declares no `heads H kv G`")
    h, g = head.heads
    if not (isinstance(h, int) and isinstance(g, int) and 1 <= g <= h and h % g == 0):
        raise Reject(f"`heads {h} kv {g}`: G must divide H")
    prem = ctx.premises(s)
    if len(prem) != 1:
        raise Reject("its premise is the single head's token distinguishing step")
    if s["status"] == "refuted" or (s["status"] == "proved") != _proved(prem[0]):
        raise Reject(f"status {s['status']} does not follow from the premise ({prem[0]['status']})")
    return VERIFIED, (f"inference (§17.1): {h} query heads in {g} key/value groups contain the single head (equal W_Q, "
                      "W_K, W_V/H), whose step is proved; the group is the single head's")


ONE_LAYER_RULES = ("TD-KERNEL", "TD-RIDGE", "TD-RADIAL", "TD-COMPLEX", "TD-LINFORMER", "HEADS-SHARED", "HEADS-DIFF", "HEADS-SINK")


def _subtree(ctx, sid: str) -> list[dict]:
    seen, stack, out = set(), [sid], []
    while stack:
        cur = stack.pop()
        if cur not in seen:
            seen.add(cur)
            out.append(ctx.steps[cur])
            stack.extend(ctx.steps[cur]["premises"])
    return out


@checker("HEADS-ZERO-VALUE")
def heads_zero_value(ctx, s):
    """Lemma Z (§17.3): W_V = 0 in this head leaves the separating head's layer, which is 1-layer token
    distinguishing w.r.t. S_n, the family's group."""
    from .structure import slots
    head = _head(ctx, s)
    if s["status"] != "proved":
        raise Reject("HEADS-ZERO-VALUE concludes `proved`")
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["status"] not in ("undecided", "proved"):
        raise Reject("its premise is this head's own step, undecided (or proved, for d ≥ 2 only)")
    k = (s.get("data") or {}).get("separating_head")
    heads = ctx.spec.heads
    if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(heads) or heads[k] is head:
        raise Reject("the separating head is not another head of the input")
    if ctx.spec.positional == "absolute" or not all(isinstance(h.pattern, S.Full) for h in heads):
        raise Reject("Lemma Z is stated for dense heads without an absolute encoding")
    sep = heads[k]
    if sep.bias is not None or sep.position is not None:
        raise Reject("the separating head carries positions or a bias: its group may be smaller than S_n")
    _, tds, rest, group = slots(ctx)
    if rest or group["rule"] != "SYM-DENSE" or group["status"] != "proved" or (group.get("data") or {}).get("group") != "S_n":
        raise Reject("Lemma Z needs the dense group S_n and no layer step")
    if tds[k]["status"] != "proved" or tds[k]["rule"] not in ONE_LAYER_RULES:
        raise Reject(f"the separating head's step ({tds[k]['rule']}, {tds[k]['status']}) is not a proved one-layer step")
    steps = _subtree(ctx, prem[0]["id"])
    if head.normalized and not any(
            p["rule"] == "WP-POSITIVE" and p["status"] == "proved" for p in steps):
        raise Reject("a normalised head needs a proved positive kernel (its layer must be defined)")
    if any(p["rule"] == "WP-POSITIVE" and p["status"] == "refuted" for p in steps):
        raise Reject("the head is ill-posed")
    return VERIFIED, (f"inference (§17.3, Lemma Z): W_V = 0 in this head leaves head {k + 1}'s layer, whose proved "
                      f"{tds[k]['rule']} step is 1-layer token distinguishing w.r.t. S_n, the family's group")


@checker("HEADS-DIFF")
def heads_diff(ctx, s):
    head = _head(ctx, s)
    if not head.differential or head.kind != "kernel" or head.normalize is False:
        raise Reject("HEADS-DIFF is for a normalised `differential` kernel head")
    prem = ctx.premises(s)
    if len(prem) != 1:
        raise Reject("its premise is the single head's token distinguishing step")
    if s["status"] == "refuted" or (s["status"] == "proved") != _proved(prem[0]):
        raise Reject(f"status {s['status']} does not follow from the premise ({prem[0]['status']})")
    return VERIFIED, ("inference (§17.2): at λ = 0 the layer is the single head, whose step is proved; analytic in "
                      "(θ, λ), so Theorem 2 applies; the group is the single head's")


#: the proved one-layer steps a sink logit carries over (§17.4)
SINK_CARRIED = ("TD-KERNEL", "TD-RIDGE", "TD-RADIAL", "TD-ROTARY", "TD-FIXEDBIAS", "TD-BUCKETS", "TD-BIAS", "HEADS-DIFF")


@checker("HEADS-SINK")
def heads_sink(ctx, s):
    """§17.4: a learned sink logit carries the sink-free head's proved one-layer step (F194: the sink-free layer is
    the limit b → −∞); a fixed one does for exp(c x·y + a), c ≠ 0, without positions, tie or affine terms (F195,
    Lemma J), the kernel's form re-derived here."""
    head = _head(ctx, s)
    if head.sink is None or head.kind != "kernel" or head.normalize is False:
        raise Reject("HEADS-SINK is for a normalised kernel head with `sink logit`")
    prem = ctx.premises(s)
    if len(prem) != 1:
        raise Reject("its premise is the sink-free head's token distinguishing step")
    if s["status"] == "refuted":
        raise Reject("HEADS-SINK never refutes: a sink may separate what the sink-free head cannot")
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    if not _proved(prem[0]) or prem[0]["rule"] not in SINK_CARRIED:
        raise Reject(f"its premise ({prem[0]['rule']}, {prem[0]['status']}) is not a proved one-layer step")
    if head.sink.learned:
        return VERIFIED, ("inference (§17.4, Theorem F194): as b → −∞ the layer tends to the sink-free layer uniformly "
                          "on compact sets, so the proved sink-free step's separations hold for b small enough")
    if head.bias is not None or head.position is not None or head.tie or head.affine:
        raise Reject("Theorem F195 (a fixed sink logit) is proved without positions, tie or affine terms")
    if prem[0]["rule"] != "TD-KERNEL" or _exp_linear(ctx.spec, head) is None:
        raise Reject("Theorem F195 (a fixed sink logit) is proved for the kernel exp(c x·y + a), c ≠ 0, only")
    return VERIFIED, ("inference (§17.4, Theorem F195, Lemma J): the kernel is exp(c x·y + a) with c ≠ 0 (re-derived), "
                      "so the dominant-pair lemma holds with the fixed extra weight")


def _exp_linear(spec: S.Spec, head: S.Head) -> Optional[tuple]:
    """(c, a) when the head's kernel is exp(c x·y + a) with numbers c ≠ 0 and a (at 2-dimensional symbolic vectors)."""
    x1, x2, y1, y2 = sympy.symbols("x1 x2 y1 y2", real=True)
    k = kernels.kernel_value(spec, head, (x1, x2), (y1, y2))
    if not isinstance(k, sympy.exp):
        return None
    arg = sympy.expand(k.args[0])
    a = arg.subs({x1: 0, x2: 0, y1: 0, y2: 0})
    c = sympy.simplify((arg - a) / (x1 * y1 + x2 * y2))
    if not (c.is_number and a.is_number and c.is_real and a.is_real) or c == 0:
        return None
    return c, a


def effective_bias(ctx, head: S.Head, n) -> "Optional[str | tuple[int, int]]":
    """The bias kind whose classes a head's position term has (for the group), or Trust."""
    pos = head.position
    if pos is None:
        return head.bias
    if head.bias:
        raise Trust("a head with both a bias and a position term")
    if pos.kind == "rotary":
        if softmax_gamma(ctx.spec, head, affine_ok=True) is None:  # affine terms 0: a subfamily with this group
            raise Trust("RoPE's group is derived for softmax heads only")
        return "toeplitz"
    if pos.kind == "buckets":
        if isinstance(n, int) and _own_buckets(n, pos.buckets, pos.max_distance):
            return "toeplitz"
        if isinstance(n, int) and pos.buckets // 4 >= 1 and pos.max_distance > pos.buckets // 4:
            return (pos.buckets, pos.max_distance)  # each arc's bucket, recomputed by `patterns.bias_class` (§16.5)
        raise Trust("T5 buckets shared by several offsets: the bucket classes are not re-derived here")
    if pos.kind == "reweight" and reweight_positive(ctx.spec, head)[0] is not True:
        raise Trust("a `reweight` factor not shown positive on every offset: its classes may not be the weights'")
    if not head.normalized and _row_dependent(ctx, head):
        raise Reject("an unnormalised head whose b(i, i) depends on i: the row factor is not cancelled, so the offset "
                     "classes do not give the group (§16.1)")
    key = ("offset class", head)
    if key not in ctx.cache:
        ctx.cache[key] = offset_class(ctx.spec, head)
    kind = ctx.cache[key][0]
    return "toeplitz" if kind == "injective" else "symmetric toeplitz"


def group_bias(ctx, head: S.Head, n) -> "Optional[str | tuple[int, int]]":
    """The bias kind with the same group as a head's position term: effective_bias's, and for T5 buckets shared
    by several offsets `toeplitz` for every B ≥ 4 (B/4 ≥ 1): the buckets of the positive offsets are B/2 and above,
    those of the others below B/2, so a permutation keeping the bucket labels keeps the order (i < j exactly when
    j − i is positive), so it is the identity, the group of a Toeplitz bias too. For the group only: a bucket is not
    a Toeplitz class, so labels read for views and witnesses stay effective_bias's."""
    pos = head.position
    if pos is not None and pos.kind == "buckets" and not head.bias and (pos.buckets // 2) // 2 >= 1 and \
            _halves_apart(pos.buckets, pos.max_distance) and isinstance(head.pattern, S.Full):  # every pair an arc
        return "toeplitz"
    return effective_bias(ctx, head, n)


def _halves_apart(num_buckets: int, max_distance: int) -> bool:
    """The released function puts offset 0 and the negative offsets below B/2 and the positive ones at B/2 and above
    (read off its two branches, checked here on the offsets up to B/2 + 2 on each side and the largest one D)."""
    half = num_buckets // 2
    probe = list(range(0, half + 3)) + [max_distance, max_distance + 1]
    return all(_released_bucket(-d, num_buckets, max_distance) < half <= _released_bucket(d + 1, num_buckets,
                                                                                            max_distance)
               for d in probe)


def _row_dependent(ctx, head) -> bool:
    """Whether the position term on the diagonal, b(i, i), depends on i (evaluated from the re-parsed formula)."""
    pos = head.position
    i = sympy.Symbol("i_diag", integer=True, positive=True)
    env = dict(kernels.param_symbols(ctx.spec), **{pos.names[0]: i, pos.names[1]: i, "pi": sympy.pi})
    try:
        value = kernels.evaluate(pos.expr, env)
    except kernels.OutOfScope:
        return True
    return bool(sympy.simplify(value).has(i))
