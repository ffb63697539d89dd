"""Positions in the kernel and in biases: RoPE, fixed bias formulas (ALiBi), T5 buckets, cosFormer.

Each construct is reduced to a *class function on the offset* m = j − i (docs/theory.md §16):

* a fixed bias b(i, j) (or a fixed factor c(i, j)) that depends on the positions only through m:
  h(δ) = b(i, i + m) − b(i, i) (or c(i, i + m)/c(i, i)), decided exactly from the formula;
* T5's buckets: the bucket of m, in integer arithmetic;
* RoPE: the score is q_iᵀ R(m) k_j, and with the first frequency θ_0 = 1 a phase φ makes
  cos(m − φ) injective on the integers.

From the class function: the group (offset-injective → the classes of a `toeplitz` bias;
even and injective on |δ| → those of `symmetric toeplitz`; otherwise undecided) and one-layer token
distinguishability (POS-OFFSET, TD-FIXEDBIAS, TD-ROTARY, TD-BUCKETS).
"""
from __future__ import annotations

import functools

from dataclasses import dataclass, field
from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..claim import Claim, Formula, claim, written
from .wording import ZERO_SCORES, shifted_token
from ..certificates import BucketCollision, BucketRange, Inference, OffsetClass, OneSidedPattern, PositiveValue, SoftmaxKernel
# the invariants under the docs' names (uapcheck/lower.py)
from ..memo import exact_cache
from ..lower import (KEY_COORD as v, KEY_NORM2 as b_sym, QUERY_COORD as u, QUERY_DOT_KEY as a, QUERY_NORM2 as c_sym,
                     SCALE as t, _Lowerer, param_symbol)

CITE_POS_TEXT = "positions as a class function of the offset j − i (docs/theory.md §16)"
CITE_POS = proof.derived(text=CITE_POS_TEXT)
CITE_TD_POS = proof.derived("Theorem 2", text=CITE_POS_TEXT)
CITE_ROPE = proof.derived("Theorem 2", text="Su et al. 2021, RoFormer (RoPE), arXiv:2104.09864; the argument: "
                          "docs/theory.md §16.3")
CITE_T5 = proof.derived("Theorem 2", text="Raffel et al. 2020, T5, arXiv:1910.10683 (relative position buckets); "
                        "docs/theory.md §16.4")

I = sympy.Symbol("i·pos", integer=True, positive=True)
J = sympy.Symbol("j·pos", integer=True, positive=True)
# Not possible .uap names (those are ASCII), so no param can collide with them; derivations print the
# offset j − i as δ, never as m, which a model may name a parameter (ALiBi's slope).
M = sympy.Symbol("δ", integer=True)
MP = sympy.Symbol("δ", integer=True, positive=True)
INTERVAL_MAX_N = 20_000


@dataclass(frozen=True)
class OffsetClasses:
    """The outcome of the offset analysis of one head's position term."""
    kind: Optional[str]  # "injective" | "symmetric" | None (undecided)
    effective_bias: Optional[str]  # "toeplitz" | "symmetric toeplitz" | None
    h: Optional[sympy.Expr]
    reason: str
    positive: Optional[bool] = None  # reweight: c > 0 on every offset in range (None: not shown)
    method: str = ""  # how injectivity was shown: "linear" | "monotone" | "intervals" ("" when not shown)
    bits: int = 0  # the interval precision, for "intervals"
    reason_parts: Optional[Claim] = field(default=None, compare=False)  # `reason` with h(δ) as a formula

    @property
    def reason_claim(self) -> Claim:
        return self.reason_parts if self.reason_parts is not None else claim(self.reason)


def h_of_m(h: sympy.Expr) -> Formula:
    """h(δ) = … as a formula, worded `h(δ) = {sympy.sstr(h)}`."""
    return Formula(sympy.Eq(sympy.Function("h")(M), h, evaluate=False), f"h(δ) = {sympy.sstr(h)}")


def _offsets(kind, effective, h, rest: str, *args, **kwargs) -> OffsetClasses:
    """OffsetClasses whose reason is `h(δ) = … {rest}`, the formula typed."""
    return OffsetClasses(kind, effective, h, f"h(δ) = {sympy.sstr(h)}{rest}", *args,
                         reason_parts=claim(h_of_m(h), rest), **kwargs)


# ---------------------------------------------------------------------------------------------
# Lowering a position formula

def position_expr(spec: S.Spec, head: S.Head) -> sympy.Expr:
    pos = head.position
    params = {p.name: param_symbol(p) for p in spec.params}
    scalars = {pos.names[0]: I, pos.names[1]: J, "pi": sympy.pi}
    if isinstance(spec.tokens, str):
        scalars[spec.tokens] = sympy.Symbol(spec.tokens, integer=True, positive=True)
    return _Lowerer(params, {}, {}, {}, scalars=scalars).lower(pos.expr)


def offset_function(spec: S.Spec, head: S.Head) -> Optional[sympy.Expr]:
    """h(δ) with m = j − i, when the formula depends on the positions only through m."""
    return _offset_of(position_expr(spec, head), head.position.kind == "bias")


@exact_cache()  # a function of the lowered term alone: the suggestion search re-derives it per edit
def _offset_of(e: sympy.Expr, additive: bool) -> Optional[sympy.Expr]:
    if additive:
        h = e.xreplace({J: I + M}) - e.xreplace({J: I})
    else:
        h = e.xreplace({J: I + M}) / e.xreplace({J: I})
    h = sympy.simplify(h)
    if h.has(I) or h.has(J):
        return None
    return h


# ---------------------------------------------------------------------------------------------
# Exact interval evaluation (mpmath.iv): a SymPy expression in m only

def _iv(expr: sympy.Expr, m: int, bits: int = 80):
    """expr at the integer m as an mpmath.iv interval computed at `bits` bits (ValueError when expr
    uses a function the interval evaluation does not have)."""
    import mpmath
    iv = mpmath.iv
    program = _interval_program(expr)
    saved = iv.prec
    iv.prec = bits
    try:
        return program(m)
    finally:
        iv.prec = saved


@functools.lru_cache(maxsize=64)
def _interval_program(expr: sympy.Expr):
    """expr compiled once into nested closures over mpmath.iv (the same operations, in the same order,
    as a walk of the expression at every m; every constant is made at evaluation time, so at the
    precision then in force)."""
    import mpmath
    iv = mpmath.iv

    def go(e):  # noqa: C901 - one branch per kind of node
        if e is M or e == M:
            return lambda m: iv.mpf(m)
        if e.is_Integer:
            k = int(e)
            return lambda m: iv.mpf(k)
        if e.is_Rational:
            p, q = int(e.p), int(e.q)
            return lambda m: iv.mpf(p) / iv.mpf(q)
        if e is sympy.pi:
            return lambda m: iv.pi
        if e is sympy.E:
            return lambda m: iv.e
        if e.is_Add or e.is_Mul:
            parts = [go(x) for x in e.args]
            add = e.is_Add

            def combine(m):
                out = iv.mpf(0) if add else iv.mpf(1)
                for f in parts:
                    out = out + f(m) if add else out * f(m)
                return out
            return combine
        if e.is_Pow and e.exp.is_Integer:
            base, k = go(e.base), int(e.exp)
            return lambda m: base(m) ** k
        if e.is_Pow and e.exp == sympy.Rational(1, 2):
            base = go(e.base)
            return lambda m: iv.sqrt(base(m))
        table = {sympy.exp: iv.exp, sympy.log: iv.log, sympy.cos: iv.cos, sympy.sin: iv.sin}
        if e.func in table:
            f, arg = table[e.func], go(e.args[0])
            return lambda m: f(arg(m))
        if isinstance(e, sympy.Abs):
            arg = go(e.args[0])

            def absolute(m):
                x = arg(m)
                return x if x.a >= 0 else (-x if x.b <= 0 else iv.mpf([0, max(-x.a, x.b)]))
            return absolute
        raise ValueError(f"no interval evaluation for {e.func}")
    return go(expr)


def _disjoint(intervals) -> bool:
    ordered = sorted(intervals, key=lambda x: x.a)
    return all(ordered[k].b < ordered[k + 1].a for k in range(len(ordered) - 1))


def offset_values(h: sympy.Expr, n: int, even: bool, bits: int) -> tuple:
    """h's exact intervals at `bits` bits on the offsets of n positions (0..n − 1 when h is even,
    else −(n − 1)..n − 1); the errors of `_iv` propagate. Computed once per process for the same
    arguments: classify and the OffsetClass certificate's check ask for the same values."""
    return _offset_values(h, n, even, bits)


@exact_cache(maxsize=8)
def _offset_values(h: sympy.Expr, n: int, even: bool, bits: int) -> tuple:
    offsets = range(0, n) if even else range(-(n - 1), n)
    return tuple(_iv(h, m, bits) for m in offsets)


@exact_cache()
def offsets_disjoint(h: sympy.Expr, n: int, even: bool, bits: int) -> bool:
    """The intervals of `offset_values` are pairwise disjoint (h told apart on every offset); the
    errors of `_iv` propagate. Once per process for the same arguments, like the values."""
    return _disjoint(offset_values(h, n, even, bits))


def _linear_positive(h: sympy.Expr, n) -> Optional[bool]:
    """A linear h(δ) without params at a concrete n: positive on every offset −(n − 1)..n − 1 when positive at both
    ends (a linear function takes its least value at an end), e.g. 10 + δ at n = 8 (least 3); else None."""
    if not isinstance(n, int) or h.free_symbols - {M}:
        return None
    ends = [h.xreplace({M: sympy.Integer(e)}) for e in (-(n - 1), n - 1)]
    return True if all(e.is_positive for e in ends) else None


def _strictly_monotone(h: sympy.Expr) -> Optional[bool]:
    """h(δ) without params whose derivative on the real line has one sign (SymPy's assumptions, e.g. e^δ): strictly
    monotone, hence injective on the integers. Returns whether h is also positive on the whole line (a reweight's
    c > 0), or None when monotonicity is not shown."""
    if h.free_symbols - {M}:
        return None
    x = sympy.Dummy("x", real=True)
    hx = h.xreplace({M: x})
    try:
        slope = sympy.simplify(sympy.diff(hx, x))
    except (TypeError, ValueError, NotImplementedError):
        return None
    if not (slope.is_positive or slope.is_negative):
        return None
    return bool(hx.is_positive)


def monotone_polynomial(poly: sympy.Poly) -> bool:
    """Σ_(k ≥ 1) c_k x^k (+ c_0) with every c_k ≥ 0, or every c_k ≤ 0, and some c_k ≠ 0 (signs decided
    under the params' assumptions): strictly monotone on x ≥ 0, since p(y) − p(x) = Σ c_k (y^k − x^k)."""
    coeffs = [c for (k,), c in poly.terms() if k >= 1]
    if not coeffs or not any(c.is_nonzero is True for c in coeffs):
        return False
    return all(c.is_nonnegative is True for c in coeffs) or all(c.is_nonpositive is True for c in coeffs)


@exact_cache()  # a function of its arguments alone: the suggestion search re-derives it per edit
def classify(h: sympy.Expr, n, multiplicative: bool) -> OffsetClasses:
    """Injective / even-and-injective-on-|δ| over the offsets of n positions (n an int or symbolic)."""
    even = sympy.simplify(h.xreplace({M: -M}) - h) == 0
    poly = sympy.Poly(h, M) if h.is_polynomial(M) else None
    if poly is not None and poly.degree() == 1 and poly.LC().is_nonzero:
        return _offsets("injective", "toeplitz", h, " is linear in δ with a non-zero slope: injective on every "
                        "offset", _linear_positive(h, n) if multiplicative else None, method="linear")
    monotone = _strictly_monotone(h) if not even else None
    if monotone is not None:
        return _offsets("injective", "toeplitz", h, " is strictly monotone in δ (its derivative has one sign on the "
                        "real line): injective on every offset", monotone if multiplicative else None,
                        method="derivative")
    if even:
        hp = sympy.simplify(h.xreplace({M: MP}))
        pp = sympy.Poly(hp, MP) if hp.is_polynomial(MP) else None
        if pp is not None and pp.degree() == 1 and pp.LC().is_nonzero:
            return _offsets("symmetric", "symmetric toeplitz", h, " is even in δ and linear in |δ| with a non-zero "
                            "slope: injective on |δ|", method="linear")
        if pp is not None and monotone_polynomial(pp):
            return _offsets("symmetric", "symmetric toeplitz", h, " is even in δ and a polynomial in |δ| whose "
                            "non-constant coefficients share one sign and are not all 0: strictly monotone in |δ|, "
                            "injective on |δ|", method="monotone")
    if poly is not None and poly.degree() == 1:  # linear, with a slope that may vanish (`param m >= 0`)
        return _offsets(None, None, h, f" is linear in δ, but its slope {sympy.sstr(poly.LC())} is not shown non-zero "
                        "for every admissible param value (at slope 0 every offset has the same weight): injectivity "
                        "is not decided")
    if not isinstance(n, int) or n > INTERVAL_MAX_N or (h.free_symbols - {M}):
        return _offsets(None, None, h, ": injectivity on the offsets is decided only for linear forms, or by exact "
                        f"interval evaluation for an integer n ≤ {INTERVAL_MAX_N} without params")
    for bits in (80, 400, 1600):
        try:
            values = offset_values(h, n, even, bits)
            disjoint = offsets_disjoint(h, n, even, bits)
        except (ValueError, ZeroDivisionError, TypeError, AttributeError, ArithmeticError):
            return _offsets(None, None, h, " could not be evaluated on every offset")
        if disjoint:
            break
    positive = None
    if multiplicative:
        positive = all(x.a > 0 for x in values)
    if disjoint:
        how = (f"exact interval evaluation at δ = 0..{n - 1} (h is even), {bits}-bit intervals" if even else
               f"exact interval evaluation at δ = −{n - 1}..{n - 1}, {bits}-bit intervals")
        return _offsets("symmetric" if even else "injective", "symmetric toeplitz" if even else "toeplitz",
                        h, f" takes pairwise different values: {how}", positive, method="intervals", bits=bits)
    return _offsets(None, None, h, ": two offsets could not be told apart by interval evaluation", positive)


# ---------------------------------------------------------------------------------------------
# T5 buckets (bidirectional, as in the released code, in exact integer arithmetic)

@functools.lru_cache(maxsize=1 << 16, typed=True)  # a pure function of integers, asked again at every length
def t5_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    """relative_position = m = j − i. Half the buckets per direction; within a direction offsets
    below max_exact = buckets/4 have their own bucket, larger ones share logarithmic buckets
    clipped at the last: bucket = max_exact + ⌊log(|δ|/max_exact)/log(max_distance/max_exact)·
    (half − max_exact)⌋, decided exactly (k ≤ x ⇔ |δ|^(half−me)·me^k ≥ max_distance^k·me^(half−me))."""
    half = num_buckets // 2
    base = half if m > 0 else 0
    d = abs(m)
    me = half // 2
    if d < me:
        return base + d
    span = half - me
    k = 0
    while k + 1 <= span and d ** span * me ** (k + 1) >= max_distance ** (k + 1) * me ** span:
        k += 1
    return base + min(me + k, half - 1)


#: above this n the offsets' buckets are not enumerated (two offsets then share a bucket for every bucket count the
#: language takes: the logarithmic buckets are at most num_buckets/2 per direction)
BUCKET_ENUMERATION_N = 100_000


def buckets_injective(n: int, num_buckets: int, max_distance: int) -> bool:
    """Whether the offsets −(n − 1), …, n − 1 have pairwise different buckets (each offset its own class)."""
    if n - 1 < (num_buckets // 2) // 2:
        return True
    if n > BUCKET_ENUMERATION_N:
        return False
    seen = {t5_bucket(m, num_buckets, max_distance) for m in range(-(n - 1), n)}
    return len(seen) == 2 * n - 1


#: Bucket counts up to which the first pair of row 1 is searched (each offset's bucket costs about B/4 exact
#: comparisons of powers with B/4 digits' exponents); T5 uses 32, mT5 and most others 32 or 64.
BUCKET_PAIR_MAX = 4096


def first_bucket_pair(num_buckets: int, max_distance: int) -> Optional[tuple[int, int]]:
    """The first two keys l < l′ that share a bucket as seen from position 1, at any n ≥ l′ (the buckets do
    not depend on n). It exists with l′ ≤ num_buckets/2 + 2: the offsets 0, …, num_buckets/2 + 1 − 1 fall into
    the num_buckets/2 non-negative buckets. None above BUCKET_PAIR_MAX buckets (not searched)."""
    if num_buckets > BUCKET_PAIR_MAX:
        return None
    pair = bucket_pair(num_buckets // 2 + 2, num_buckets, max_distance)
    assert pair is not None  # pigeonhole
    return pair


def bucket_pair(n: int, num_buckets: int, max_distance: int) -> Optional[tuple[int, int]]:
    """Two positions l < l' that share a bucket as seen from position 1, if any (n concrete)."""
    seen: dict[int, int] = {}
    for l in range(2, n + 1):
        key = t5_bucket(l - 1, num_buckets, max_distance)
        if key in seen:
            return seen[key], l
        seen[key] = l
    return None


# ---------------------------------------------------------------------------------------------
# Rules

def _kernel_at_zero(model) -> Optional[sympy.Expr]:
    """k(0, 0), when it is shown > 0 (the uniform weights at W_Q = W_K = 0), else None."""
    try:
        if hasattr(model, "plain"):
            value = model.plain.xreplace({a: 0, b_sym: 0, c_sym: 0})
        elif model.single:
            value = (model.query.xreplace({u: 0, c_sym: 0}) *
                     model.key.xreplace({v: 0, t: 1, b_sym: 0}))
        else:  # Σ_c φ_c(0) φ_c(0), per feature
            value = model.term.xreplace({model.query_symbol: 0, model.key_symbol: 0, c_sym: 0, b_sym: 0, t: 1})
        value = sympy.simplify(value)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    if value.has(sympy.nan, sympy.zoo):
        return None
    return value if value.is_positive is True else None


def analyse(spec: S.Spec, head: S.Head) -> OffsetClasses:
    pos = head.position
    n = spec.tokens
    if pos.kind == "rotary" and spec.dim == 1:
        return OffsetClasses(None, None, None, "at d = 1 there is no rotation plane: RoPE rotates pairs of coordinates, "
                             "so the offset classes of its factor are not those of the layer")
    if pos.kind == "rotary":
        return OffsetClasses("injective", "toeplitz", None, "RoPE: q_iᵀ R(j − i) k_j depends on the positions through "
                             "j − i, and with θ_0 = 1 and a generic phase φ the factor cos(m − φ) is injective on "
                             "the integers")
    if pos.kind == "buckets":
        me = pos.buckets // 4
        if isinstance(n, int) and n - 1 < me:
            return OffsetClasses("injective", "toeplitz", None, f"every offset |j − i| ≤ {n - 1} is below the exact "
                                 f"range {me}: each offset has its own bucket (a Toeplitz bias)")
        if isinstance(n, int) and buckets_injective(n, pos.buckets, pos.max_distance):
            return OffsetClasses("injective", "toeplitz", None, f"the offsets −{n - 1}, …, {n - 1} have pairwise "
                                 f"different buckets (every offset below {me} has its own, and the logarithmic buckets "
                                 "met up to this n hold one offset each): a Toeplitz bias")
        # the group's kind: `toeplitz` (trivial) for every B ≥ 4 the language takes — the positive offsets' buckets
        # (B/2 and above) are not the others' (below B/2), so a permutation keeping the buckets keeps the order i < j
        return OffsetClasses("buckets", "toeplitz" if me >= 1 else None, None,
                             f"offsets up to {me - 1} in each direction have their own bucket; larger ones share "
                             f"logarithmic buckets up to distance {pos.max_distance}")
    h = offset_function(spec, head)
    if h is None:
        return OffsetClasses(None, None, None, f"`{pos.fn}({pos.names[0]}, {pos.names[1]})` does not depend on the "
                             "positions only through their offset")
    if h.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        # a reweight's h is c(i, i + δ)/c(i, i): with c(i, i) = 0 on the diagonal the ratio is undefined (SymPy's zoo)
        return OffsetClasses(None, None, None, f"`{pos.fn}({pos.names[0]}, {pos.names[0]})` = 0 on the diagonal, so "
                             f"the ratio {pos.fn}(i, i + δ)/{pos.fn}(i, i) that defines h(δ) is undefined: the offset "
                             "classes are not decided (a reweight that vanishes on the diagonal is not a positive factor)")
    if not head.normalized and row_dependent(spec, head):
        # Unnormalised, the row's own term b(i, i) (resp. c(i, i)) is not cancelled by a normaliser: a permutation must
        # keep it too, so the classes of h alone would give too large a group (docs/theory.md §16.1).
        return OffsetClasses(None, None, h, f"the head is unnormalised and `{pos.fn}({pos.names[0]}, {pos.names[0]})` "
                             f"depends on {pos.names[0]}: the row factor is not cancelled by a normaliser, so the "
                             "offset classes alone do not give the group")
    return classify(h, n, pos.kind == "reweight")


def row_dependent(spec: S.Spec, head: S.Head) -> bool:
    """Whether the position term on the diagonal, b(i, i) (or c(i, i)), depends on i (or is not shown constant)."""
    diagonal = sympy.simplify(position_expr(spec, head).xreplace({J: I}))
    return bool(diagonal.has(I))


@proof.rule("POS-OFFSET", "A fixed position bias or factor as a function of the offset j − i", CITE_POS,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(OffsetClass,))
def offset_step(head: S.Head, info: OffsetClasses, label: str, term: Optional[sympy.Expr] = None,
                n=None) -> proof.Step:
    pos = head.position
    what = (f"bias {pos.fn}({', '.join(pos.names)})" if pos.kind == "bias" else
            f"reweight {pos.fn}({', '.join(pos.names)})")
    ev = {"offset function": sympy.sstr(info.h) if info.h is not None else None, "reason": info.reason}
    if info.positive is not None:
        ev["positive on every offset"] = info.positive
    if info.kind is None:
        return proof.conclude(f"{label}: {what}: the classes of the offsets are not decided", proof.UNDECIDED,
                              evidence=ev)
    shape = ("injective in δ = j − i (the classes of a Toeplitz bias)" if info.kind == "injective" else
             "even in δ = j − i and injective in |δ| (the classes of a symmetric Toeplitz bias)")
    if term is None:
        return proof.conclude(f"{label}: {what}: the position term is not available to certify its classes",
                              proof.UNDECIDED, evidence=ev)
    cert = OffsetClass(term, I, J, M, info.h, pos.kind == "reweight", info.kind == "symmetric", n, info.method,
                       info.bits)
    return proof.conclude(f"{label}: {what} depends on the positions through h(j − i), {shape}", proof.PROVED,
                          evidence=ev, facts={"offset classes": info.kind, "positive": info.positive, "offset function": info.h,
                                 "offset": M},
                          certificate=cert)


@proof.rule("TD-FIXEDBIAS", "A fixed position bias: one layer when offset-injective, two when even", CITE_TD_POS,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def td_fixed_bias(head: S.Head, offset: proof.Step, analytic: proof.Step, info: OffsetClasses,
                  k00: Optional[sympy.Expr], label: str, softmax: Optional[sympy.Expr] = None) -> proof.Step:
    """`softmax`: the kernel in the invariants when the head is a dense normalised softmax head (the
    two-layer argument for an even h needs it), else None."""
    pos = head.position
    premises = [offset, analytic]
    if info.kind == "symmetric":
        side = pattern_side(head.pattern)
        if side is None:
            return _td_fixed_even(head, offset, analytic, info, softmax, label)
        return _td_fixed_one_sided(head, offset, analytic, info, k00, label, side)
    if info.kind != "injective":
        return proof.conclude(f"{label}: the offset classes are not decided", proof.UNDECIDED, premises)
    if pos.kind == "reweight" and info.positive is not True:
        return proof.conclude(f"{label}: c(i, j) > 0 on every pair is not shown, so the weights may vanish or change "
                              "sign", proof.UNDECIDED, premises)
    if not analytic.proved:
        return proof.conclude(f"{label}: analyticity in θ is not established", proof.UNDECIDED, premises)
    if k00 is None or not offset.proved:
        return proof.conclude(claim(f"{label}: k(0, 0) > 0 is not shown, so the position-only weights at ",
                                    ZERO_SCORES, " that the argument uses may not exist"), proof.UNDECIDED, premises)
    requires = [(offset, "offset classes", "injective")]
    if pos.kind == "reweight":
        requires.append((offset, "positive", True))
    cert = Inference(((offset, proof.PROVED), (analytic, proof.PROVED)),
                     "at W_Q = W_K = 0 the weights are the fixed position weights; an injective h forces σ = id",
                     tuple(requires), (PositiveValue(k00, "k(0, 0), the weight at W_Q = W_K = 0"),))
    return proof.conclude(claim(f"{label}: at ", ZERO_SCORES, " the weights are the fixed position weights, "
                                "positive on every pair, and row i of the output is ",
                                written("Σ_l β_il x_l", r"\sum_{l} \beta_{il} x_{l}"), ": samples with different "
                                "token sets differ there generically, and for X' = σX equal rows force ",
                                written("β_(σi,σl) = β_il", r"\beta_{\sigma i, \sigma l} = \beta_{il}"),
                                " for every l, hence h(σl − σi) = h(l − i) and σ = id (h injective); with Theorem 2: "
                                "1-layer token distinguishing w.r.t. the trivial group"), proof.PROVED, premises,
                          facts={"layers": 1}, certificate=cert)


def pattern_side(p) -> Optional[int]:
    """−1 when every arc i → j of the pattern has j ≤ i (the causal mask, a causal window, sinks), +1 when
    every arc has j ≥ i, None when neither is shown (read from the pattern's form, for every n)."""
    if isinstance(p, (S.Causal, S.Sinks)):
        return -1
    if isinstance(p, S.Offsets) and not p.cyclic and all(isinstance(o, int) for o in p.offsets):
        if all(o <= 0 for o in p.offsets):
            return -1
        return 1 if all(o >= 0 for o in p.offsets) else None
    if isinstance(p, S.Edges) and p.edges:
        if all(j <= i for i, j in p.edges):
            return -1
        return 1 if all(j >= i for i, j in p.edges) else None
    if isinstance(p, S.PatternIntersection):
        return next((side for side in map(pattern_side, p.parts) if side is not None), None)
    if isinstance(p, S.PatternUnion):
        sides = {pattern_side(q) for q in p.parts}
        return sides.pop() if len(sides) == 1 else None
    return None


def _td_fixed_one_sided(head: S.Head, offset: proof.Step, analytic: proof.Step, info: OffsetClasses,
                        k00: Optional[sympy.Expr], label: str, side: int) -> proof.Step:
    """An even h, injective on |δ|, on a one-sided pattern (docs/theory.md §16.2, Lemma O): no row sees two
    keys at the same distance, so h labels the keys of every row differently, as an offset-injective h does."""
    premises = [offset, analytic]
    seen = "j ≤ i" if side < 0 else "j ≥ i"
    offsets = "δ ≤ 0" if side < 0 else "δ ≥ 0"
    if head.position.kind == "reweight" and info.positive is not True:
        return proof.conclude(f"{label}: c(i, j) > 0 on every pair is not shown, so the weights may vanish or change "
                              "sign", proof.UNDECIDED, premises)
    if not analytic.proved or not offset.proved:
        return proof.conclude(f"{label}: analyticity in θ is not established", proof.UNDECIDED, premises)
    if k00 is None:
        return proof.conclude(claim(f"{label}: k(0, 0) > 0 is not shown, so the position-only weights at ",
                                    ZERO_SCORES, " that the argument uses may not exist"), proof.UNDECIDED, premises)
    requires = [(offset, "offset classes", "symmetric")]
    if head.position.kind == "reweight":
        requires.append((offset, "positive", True))
    cert = Inference(((offset, proof.PROVED), (analytic, proof.PROVED)),
                     "Lemma O: on a pattern whose arcs i → j all have " + seen + ", an even h injective on |δ| is "
                     "injective on the offsets every row sees, so the fixed weights at W_Q = W_K = 0 label the keys of "
                     "every row differently, as an offset-injective h does",
                     tuple(requires), (PositiveValue(k00, "k(0, 0), the weight at W_Q = W_K = 0"),
                                       OneSidedPattern(head.pattern, side)))
    return proof.conclude(claim(f"{label}: h is even in j − i, but every arc i → j of the pattern has {seen}, so no "
                                "row sees both i + s and i − s and h is injective on the offsets " + offsets +
                                " a row sees: at ", ZERO_SCORES, " the fixed weights, positive on every arc, label "
                                "the keys of every row differently, as an offset-injective h does (the even case's "
                                "obstruction needs a row that sees i + s and i − s; Lemma O, docs/theory.md §16.2); "
                                "the pattern is not strongly connected, so the count is the target class's "
                                "(TGT-LAYERS)"), proof.PROVED, premises,
                          {"visible offsets": offsets}, facts={"one_sided": side}, certificate=cert)


def _td_fixed_even(head: S.Head, offset: proof.Step, analytic: proof.Step, info: OffsetClasses,
                   softmax: Optional[sympy.Expr], label: str) -> proof.Step:
    """An even h, injective on |δ| (docs/theory.md §16.2, Lemma E): one layer cannot tell i + s from i − s,
    but on a dense normalised softmax head two layers separate every pair outside the reflection."""
    premises = [offset, analytic]
    one_layer = claim(f"{label}: the fixed weights are even in j − i, so position i weighs i + s and i − s alike "
                      "and one layer does not separate X from X with ", shifted_token("i+s", "i+s"), ", ",
                      shifted_token("i−s", "i-s"), " exchanged (n ≥ 4)")
    why = None
    sparse = not isinstance(head.pattern, S.Full)
    if sparse and (softmax is None or head.projection is not None or head.nystrom):
        why = ("; on a pattern more layers are analysed for normalised softmax heads k(x, y) = exp(γ x·y) only (the "
               "lemma of §14.11(f) orders the states by scaled scores; the fixed weights are not scaled away)")
    elif softmax is None:
        what = ("this head is not one (it is unnormalised)" if not head.normalized else "this kernel is not one")
        why = ("; two layers are shown for a dense normalised softmax head k(x, y) = exp(γ x·y) only (the second "
               f"layer needs scaled scores that order its states), and {what}")
    elif head.position.kind == "reweight" and info.positive is not True:
        why = "; c(i, j) > 0 on every offset is not shown, so the weights may vanish or change sign"
    elif not analytic.proved or not offset.proved:
        why = "; analyticity in θ is not established"
    if why is not None:
        return proof.conclude(claim(one_layer, why), proof.UNDECIDED, premises,
                              {"reason": "one layer is not token distinguishing for an even offset function"})
    requires = [(offset, "offset classes", "symmetric")]
    if head.position.kind == "reweight":
        requires.append((offset, "positive", True))
    if sparse:
        return _td_fixed_labelled(offset, analytic, softmax, label, one_layer, requires)
    cert = Inference(((offset, proof.PROVED), (analytic, proof.PROVED)),
                     "Lemma E: a first layer at W_Q = W_K = 0 (the fixed weights) leaves, at every position v whose "
                     "row σ does not keep, a state no position of the other sample has; a second layer with "
                     "scaled softmax scores then separates the rows of X and σX (dominant cross pair)",
                     tuple(requires), (SoftmaxKernel(softmax, a, (b_sym, c_sym)),))
    return proof.conclude(claim(one_layer, "; but two layers separate every pair outside the reflection: a first "
                                "layer at ", ZERO_SCORES, " gives the states ",
                                written("s_v = x_v + c Σ_l β_vl x_l", r"s_{v} = x_{v} + c \sum_{l} \beta_{vl} x_{l}"),
                                ", and for σ outside the reflection some row v of the fixed weights is not kept by σ, "
                                "so X and σX have different state multisets at equal labels; a second layer with "
                                "scaled scores is dominated by one cross pair of states and separates them "
                                "(Lemma E, docs/theory.md §16.2); with Theorem 2: token distinguishing w.r.t. the "
                                "reflection with two layers, the count and its least value are BIAS-LAYERS'"),
                          proof.PROVED, premises,
                          {"reason": "one layer is not token distinguishing for an even offset function; two layers "
                                     "are (Lemma E)"},
                          facts={"fixed_even": True}, certificate=cert)


def _td_fixed_labelled(offset: proof.Step, analytic: proof.Step, softmax: sympy.Expr, label: str, one_layer,
                       requires: list) -> proof.Step:
    """An even h, injective on |δ|, on a sparse normalised softmax head (docs/theory.md §16.2, Theorem F161): the fixed
    weights g(|δ|) = e^{h(δ)} are injective on the classes |δ|, so each layer separates different labelled views
    (Lemma V^ρ, §14.11(f)), and the count is the labelled views' (PAT-LAYERS)."""
    cert = Inference(((offset, proof.PROVED), (analytic, proof.PROVED)),
                     "Lemma V^ρ: a fixed weight injective on the classes |δ| of a normalised softmax head; with equal own "
                     "states and different labelled neighbour multisets, a layer with scaled scores is dominated by one "
                     "pair of states in different classes of proportional weights and separates the rows",
                     tuple(requires), (SoftmaxKernel(softmax, a, (b_sym, c_sym)),))
    return proof.conclude(claim(one_layer, "; the fixed weights ", written("g(|δ|) = e^(h(δ))", r"g(|\delta|) = "
                                r"e^{h(\delta)}"), " are injective on the classes |δ| of a normalised softmax head, so "
                                "each layer separates positions whose labelled neighbour multisets differ (Lemma ",
                                written("V^ρ", r"V^{\rho}"), ", docs/theory.md §14.11(f)), and the number of layers is "
                                "the labelled views' (PAT-LAYERS; Theorem F161, §16.2)"),
                          proof.PROVED, [offset, analytic],
                          {"reason": "one layer is not token distinguishing for an even offset function; each layer "
                                     "separates different labelled views (Lemma V^ρ)"},
                          facts={"labelled_views": True}, certificate=cert)


@proof.rule("TD-ROTARY", "RoPE: one softmax layer is token distinguishing w.r.t. the trivial group", CITE_ROPE,
            statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def td_rotary(head: S.Head, analytic: proof.Step, softmax: Optional[sympy.Expr], label: str) -> proof.Step:
    """`softmax`: the kernel in the invariants when the head is a normalised softmax head, else None."""
    if softmax is None:
        return proof.conclude(claim(f"{label}: RoPE is analysed for normalised softmax heads ",
                                    written("k(x, y) = exp(γ x·y)", r"k(x, y) = e^{\gamma\, x \cdot y}"),
                                    ", γ > 0; this kernel is not covered"), proof.UNDECIDED, [analytic])
    if head.tie:
        # the argument moves W_Q and W_K independently (a phase φ with cos(m − φ) injective); with W_Q = W_K the
        # rank-one scores are ε (uᵀx_i)(uᵀx_l)|a|² cos(l − i), even in the offset, and the first-order term
        # vanishes for a reflection about i (n = 3, i = 2, σ = (1 3))
        return proof.conclude(claim(f"{label}: RoPE's argument takes ", written("W_Q", "W_{Q}"), " and ",
                                    written("W_K", "W_{K}"), " apart; under `tie query key` it does not apply"),
                              proof.UNDECIDED, [analytic])
    if not analytic.proved:
        return proof.conclude(f"{label}: analyticity in θ is not established", proof.UNDECIDED, [analytic])
    return proof.conclude(claim(f"{label}: with ", written("W_Q = ε·a vᵀ", r"W_{Q} = \varepsilon\, a v^{\top}"),
                                " and ", written("W_K = b uᵀ", r"W_{K} = b u^{\top}"), " in the first rotation plane (",
                                written("θ_0 = 1", r"\theta_{0} = 1"), ") the scores are ",
                                written("ε (vᵀx_i)(uᵀx_l) cos(l − i − φ)",
                                        r"\varepsilon\, (v^{\top} x_{i})(u^{\top} x_{l}) \cos(l - i - \varphi)"),
                                "; at ε = 0 (mean pooling) different token "
                          "sets are separated, and for X' = σX, σ ≠ id, the first-order term in ε differs for "
                          "some u because cos(m − φ) is injective on the integers; Theorem 2 extends this: "
                          "1-layer token distinguishing w.r.t. the trivial group (d ≥ 2)"), proof.PROVED, [analytic],
                          {"dimensions": "d ≥ 2"}, facts={"layers": 1, "min_dim": 2},
                          certificate=Inference(((analytic, proof.PROVED),), "first-order term in ε of a rank-one "
                                                "score in the first rotation plane; cos(m − φ) injective on the "
                                                "integers", conditions=(SoftmaxKernel(softmax, a, (b_sym, c_sym)),)))


@proof.rule("TD-BUCKETS", "T5 relative buckets: one layer distinguishes when every offset has its own bucket",
            CITE_T5, statuses=(proof.PROVED, proof.UNDECIDED), certificates=(Inference,))
def td_buckets(head: S.Head, td: proof.Step, n, label: str) -> proof.Step:
    pos = head.position
    if not td.proved:
        return proof.conclude(f"{label}: the kernel premises are not proved", proof.UNDECIDED, [td])
    me = pos.buckets // 4
    if isinstance(n, int) and buckets_injective(n, pos.buckets, pos.max_distance):
        why = (f"every offset |j − i| ≤ {n - 1} lies in T5's exact range (< {me})" if n - 1 < me else
               f"the offsets −{n - 1}, …, {n - 1} have pairwise different buckets")
        return proof.conclude(f"{label}: {why}: the buckets are the classes of a Toeplitz bias, and a large bias on one bucket "
                              "concentrates each row on one position (as TD-BIAS for `toeplitz`): 1-layer token "
                              "distinguishing w.r.t. the trivial group", proof.PROVED, [td], facts={"layers": 1},
                              certificate=Inference(((td, proof.PROVED),), "a large bias on one bucket concentrates "
                                                    "each row on one position",
                                                    conditions=(BucketRange(n, pos.buckets, pos.max_distance),)))
    pair = first_bucket_pair(pos.buckets, pos.max_distance)
    if pair is None:
        return proof.conclude(f"{label}: with more than {BUCKET_PAIR_MAX} buckets the offsets' buckets are not searched "
                              "for two keys of one bucket; the number of layers is not analysed here",
                              proof.UNDECIDED, [td], {"reason": "too many buckets to search"})
    l1, l2 = pair
    if isinstance(n, int) and l2 > n:  # not with B ≥ 4 (the language's range): kept as a guard, never a guess
        return proof.conclude(f"{label}: two offsets share a bucket at this n, but no two keys of row 1 do; one layer "
                              "is not analysed here", proof.UNDECIDED, [td],
                              {"reason": "a bucket holds several offsets"})
    ev = {"reason": "a logarithmic bucket holds several offsets",
          "witness": {"position": 1, "swap": [l1, l2],
                      "why": f"from position 1 the offsets {l1 - 1} and {l2 - 1} share bucket "
                             f"{t5_bucket(l1 - 1, pos.buckets, pos.max_distance)}; every other key keeps its bucket, "
                             "so row 1 is the same for X and for X with these two tokens exchanged, for every "
                             "parameter"}}
    where = "" if isinstance(n, int) else f" (for {n} ≥ {l2})"
    # One layer cannot tell the keys l1, l2 of row 1 apart, but the buckets are trainable classes of the offset
    # (the own arc has bucket 0 in every row), so Lemma V^λ holds: each layer separates different labelled
    # views, and the number of layers is the labelled views' (BIAS-LAYERS on dense heads; docs/theory.md §16.4).
    return proof.conclude(claim(f"{label}: offsets beyond {me - 1} share logarithmic buckets{where}, so one layer "
                                "does not tell two positions of one bucket apart (X and X with them exchanged agree "
                                "at the row); the buckets are trainable classes of the offset (the own arc in bucket 0 "
                                "in every row), so each layer separates different labelled views (Lemma ",
                                written("V^λ", r"V^{\lambda}"), ", docs/theory.md §11.10), and the number of layers "
                                "is the labelled views' (BIAS-LAYERS)"), proof.PROVED, [td], ev,
                          facts={"labelled_views": True},
                          certificate=Inference(((td, proof.PROVED),), "Lemma V^λ: trainable classes of the offset "
                                                "on a head whose kernel is token distinguishing",
                                                conditions=(BucketCollision(n, pos.buckets, pos.max_distance, pair),)))


def softmax_kernel(model) -> bool:
    """k(x, y) = exp(γ x·y) with γ a positive constant."""
    plain = getattr(model, "plain", None)
    if plain is None or not isinstance(plain, sympy.exp):
        return False
    ratio = sympy.simplify(plain.args[0] / a)
    return not ratio.free_symbols & {a, b_sym, c_sym} and bool(ratio.is_positive)


def position_td(spec: S.Spec, head: S.Head, model, analytic: proof.Step, td_kernel: proof.Step,
                label: str) -> proof.Step:
    """The head's token-distinguishability step when positions enter its weights."""
    pos = head.position
    if pos.kind == "rotary":
        softmax = model.plain if head.normalized and softmax_kernel(model) else None
        return td_rotary(head, analytic, softmax, label)
    if pos.kind == "buckets":
        return td_buckets(head, td_kernel, spec.tokens, label)
    info = analyse(spec, head)
    term = position_expr(spec, head) if info.kind is not None else None  # lowered once already by `analyse`
    off = offset_step(head, info, label, term, spec.tokens)
    softmax = (model.plain if head.normalized and not head.affine and not head.tie and softmax_kernel(model)
               else None)
    return td_fixed_bias(head, off, analytic, info, _kernel_at_zero(model), label, softmax)


def one_window_of_buckets(spec: S.Spec) -> bool:
    """Every head is the one `window(w)` with a concrete w ≥ 1: at a symbolic n the bucket labels of a non-cyclic
    window's arcs are those of the offsets −w, …, w, which do not depend on n, and Theorem F140 (docs/theory.md §16.5)
    decides the group and the count from them; a cyclic window's wrap arcs read the offsets ±(n − d), d ≤ w, whose
    buckets depend on n but whose signs do not, and Theorem F152 decides both from the signs alone."""
    pats = {h.pattern for h in spec.heads}
    if len(pats) != 1:
        return False
    (p,) = pats
    return isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 1


def effective_bias(spec: S.Spec, head: S.Head, model=None) -> tuple[Optional[str], str]:
    """The trainable-bias kind with the same classes on every pair (for the group), or None."""
    pos = head.position
    if pos.kind == "rotary" and model is not None and not softmax_kernel(model):
        return None, "RoPE's group is derived for softmax heads only"
    info = analyse(spec, head)
    # Beside a sparse head the pattern engines read these classes too (labelled views): a complete bucket head then
    # carries its buckets, never the finer Toeplitz classes, which would hide view witnesses (§16.5)
    if pos.kind == "buckets" and info.kind == "buckets" and any(not isinstance(h.pattern, S.Full) for h in spec.heads):
        if not isinstance(spec.tokens, int) and not one_window_of_buckets(spec):
            return None, ("T5 buckets on or beside a sparse pattern at a symbolic length: the bucket classes on the "
                          "arcs are computed at a concrete n only, but for one window (docs/theory.md §16.5)")
        if pos.buckets // 4 < 1 or pos.max_distance <= pos.buckets // 4:
            # the released function divides by log(D / (B/4)) and by B/4: its buckets are not defined here
            return None, (f"T5 buckets({pos.buckets}, {pos.max_distance}) beside a sparse pattern: the released bucket "
                          "function is not defined for B/4 = 0 or D = B/4 (it divides by zero), so the arcs' classes "
                          "are not computed")
        # the bucket of each arc's offset labels the arc: the group and the labelled views read these classes, never
        # the Toeplitz ones, which are finer (docs/theory.md §16.5)
        return f"buckets({pos.buckets}, {pos.max_distance})", ("T5 buckets on or beside a sparse pattern: each arc is "
                                                               "labelled by the bucket of its offset")
    return info.effective_bias, info.reason


# ---------------------------------------------------------------------------------------------
# Causal rows: do a head's positions tell the keys of one causal row apart? (docs/theory.md §14.11)

#: The trainable bias kinds whose classes are singletons on every causal row (offsets 0, −1, …, −(n − 1)):
#: free (the pair), toeplitz (the offset), circulant (the offset mod n, all different for |δ| < n),
#: symmetric toeplitz (|δ|). Symmetric circulant puts offsets −d and −(n − d) in one class.
ROW_INJECTIVE_KINDS = ("free", "toeplitz", "circulant", "symmetric toeplitz")
#: Concrete sizes up to which T5's buckets are computed offset by offset.
BUCKET_ROW_MAX_N = 1_000_000


def bias_class(kind: str, n: int, i: int, l: int):
    """The class of the pair (query i, key l) of a trainable bias of `kind` (docs/theory.md TD-BIAS)."""
    if kind == "free":
        return (i, l)
    from ..graphs.views import offset_class
    try:
        return offset_class(kind, n, l - i)
    except ValueError:
        raise ValueError(f"unknown bias kind {kind}") from None


@dataclass(frozen=True)
class CausalRowLabels:
    """How one head labels the keys of a causal row i (keys l = 1, …, i, offsets m = l − i ≤ 0).

    source: "plain" (no positions: every key alike), "trainable" (a `bias KIND` or T5 buckets: a
    trainable value per class, 0 included), "fixed" (a fixed bias or factor of the offset), "rotary".
    injective: True when different keys of every causal row get different labels; False when two keys
    l < l′ < n of row n share a label (collisions lists such pairs exactly, for concrete n or as
    text for symbolic n); None when undecided."""
    source: str
    detail: str
    injective: Optional[bool]
    reason: str
    collisions: Optional[frozenset] = None  # pairs (l, l′), 1 ≤ l < l′ < n, with equal labels in row n
    symbolic_collision: Optional[tuple[str, str]] = None  # symmetric circulant at symbolic n: ("1", "n - 1")
    reason_parts: Optional[Claim] = field(default=None, compare=False)  # `reason` with its formulas typed

    @property
    def reason_claim(self) -> Claim:
        return self.reason_parts if self.reason_parts is not None else claim(self.reason)


def causal_row_labels(spec: S.Spec, head: S.Head) -> CausalRowLabels:
    """The labels a head puts on the keys of a causal row (exact: integer classes or the offset
    classification of §16.1)."""
    n = spec.tokens
    concrete = isinstance(n, int)
    pos = head.position
    if pos is None and head.bias is None:
        pairs = frozenset((l, l2) for l in range(1, n) for l2 in range(l + 1, n)) if concrete and n <= 64 else None
        return CausalRowLabels("plain", "no position in the weights", False,
                               "the weights see the keys' states only, not their positions", pairs,
                               None if concrete else ("1", "2"))
    if pos is None:
        kind = head.bias
        if kind in ROW_INJECTIVE_KINDS:
            return CausalRowLabels("trainable", kind, True, f"the classes of `bias {kind}` on a causal row are "
                                   "single keys (the offsets 0, −1, …, −(n − 1) are in different classes)")
        if kind == "symmetric circulant":
            if concrete:
                pairs = frozenset((d, n - d) for d in range(1, n) if d < n - d)
                return CausalRowLabels("trainable", kind, False if pairs else True,
                                       "offsets −d and −(n − d) share the class min(d, n − d)" if pairs else
                                       "n ≤ 2: every class holds one key", pairs)
            return CausalRowLabels("trainable", kind, False, "offsets −1 and −(n − 1) share the class 1 (n ≥ 3)",
                                   None, ("1", f"{n} - 1"))
        return CausalRowLabels("trainable", kind, None, f"unknown bias kind {kind}")
    if pos.kind == "buckets":
        detail = f"buckets({pos.buckets}, {pos.max_distance})"
        if not concrete or n > BUCKET_ROW_MAX_N:
            return CausalRowLabels("trainable", detail, None, "the buckets of a causal row are computed for an integer "
                                   f"n ≤ {BUCKET_ROW_MAX_N}")
        first: dict[int, int] = {}
        pairs = set()
        for l in range(n - 1, 0, -1):  # keys of row n from the nearest; offset l − n
            key = t5_bucket(l - n, pos.buckets, pos.max_distance)
            if key in first:
                pairs.add((l, first[key]))
                if len(pairs) >= 1:
                    break
            else:
                first[key] = l
        if pairs:
            return CausalRowLabels("trainable", detail, False, "two offsets of row n share a logarithmic bucket",
                                   frozenset(pairs))
        return CausalRowLabels("trainable", detail, True, f"every offset −1, …, −{n - 1} has its own bucket")
    if pos.kind == "rotary":
        return CausalRowLabels("rotary", "rotary", True, "RoPE's score depends on the offset itself")
    info = analyse(spec, head)
    detail = f"{pos.kind} {pos.fn}({', '.join(pos.names)})"
    if info.kind in ("injective", "symmetric"):
        if pos.kind == "reweight" and info.positive is not True:
            return CausalRowLabels("fixed", detail, None, "c(i, j) > 0 on every offset is not shown")
        what = ("injective in δ" if info.kind == "injective" else "injective in |δ|, hence on the causal "
                "offsets δ ≤ 0")
        return CausalRowLabels("fixed", detail, True, f"h(δ) = {sympy.sstr(info.h)} is {what} ({info.reason})",
                               reason_parts=claim(h_of_m(info.h), f" is {what} (", info.reason_claim, ")"))
    return CausalRowLabels("fixed", detail, None, info.reason, reason_parts=info.reason_claim)


def causal_row_collision(n: int, labels) -> Optional[tuple[int, int]]:
    """A pair l < l′ < n whose labels agree in every head's row n (concrete n), or None."""
    common = None
    for lab in labels:
        if lab.injective is not False or lab.collisions is None:
            if lab.source == "plain" and lab.collisions is None and lab.injective is False:
                continue  # plain at large n: every pair collides
            return None
        common = lab.collisions if common is None else common & lab.collisions
    if common is None:
        return (1, 2) if n >= 3 else None
    return min(common) if common else None


def fixed_softmax_classes(spec: S.Spec, head: S.Head) -> Optional[str]:
    """The trainable-bias kind whose classes a fixed bias or factor has, when the head is a normalised
    softmax head k(x, y) = exp(γ x·y) (neither `affine query key` nor tied) and h is injective on those
    classes (the offset: `toeplitz`; |δ| for an even h: `symmetric toeplitz`), else None. Lemma V^ρ
    (docs/theory.md §14.11(f)) then separates different labelled views in one layer."""
    from ..lower import Unsupported, lower_head
    pos = head.position
    if pos is None or pos.kind not in ("bias", "reweight") or head.bias is not None or not head.normalized or \
            head.affine or head.tie or head.projection is not None or head.nystrom:
        return None
    info = analyse(spec, head)
    if info.kind not in ("injective", "symmetric") or (pos.kind == "reweight" and info.positive is not True):
        return None
    try:
        model = lower_head(spec, head)
    except (Unsupported, ValueError, TypeError):
        return None
    return info.effective_bias if softmax_kernel(model) else None


def kernel_at_zero_positive(spec: S.Spec, head: S.Head) -> Optional[bool]:
    """k(0, 0) > 0 for the head's kernel (the linear regime W_Q = W_K = 0 of §14.11 needs it)."""
    from ..lower import Unsupported, lower_head
    try:
        model = lower_head(spec, head)
    except (Unsupported, ValueError, TypeError):
        return None
    return True if _kernel_at_zero(model) is not None else None  # the value, shown > 0, or not shown
