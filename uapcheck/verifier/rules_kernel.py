"""Kernel steps: the limit premise (LIM) at its witness points, positivity and analyticity by the
structure of the re-parsed formula, and the Gaussian form behind Nyström heads."""
from __future__ import annotations

import dataclasses
import random

import re

import sympy

from .. import spec as S
from . import kernels, numeric, patterns
from .check import NUMERIC, VERIFIED, Reject, Trust, checker
from .kernels import T
from .trees import decode

LIM_RULES = ("LIM-EXPPOLY", "LIM-EXPALG", "LIM-FEATSUM", "LIM-REGION", "LIM-REGVAR", "LIM-SCALEINV",
             "LIM-BOUNDED", "LIM-OSC")
HOLDS = ("holds", "holds-d2")


def _head(ctx, s) -> S.Head:
    h = ctx.heads_of.get(s["id"])
    if h is None:
        raise Reject("the step belongs to no head")
    return ctx.spec.heads[h]


def _vec(v) -> tuple:
    if not (isinstance(v, list) and len(v) == 1 and isinstance(v[0], int) and not isinstance(v[0], bool)):
        raise Reject(f"a witness vector is a list of one integer, not {str(v)[:40]}")
    if abs(v[0]) > 10 ** 6:
        raise Reject("witness coordinates are small integers")
    return (sympy.Integer(v[0]),)


def _in_region(region: str, x: int, z: int) -> bool:
    """Whether the 1-dimensional point (x, z) lies in the named sign region of the invariants."""
    table = {"x·z > 0": x * z > 0, "x·z < 0": x * z < 0, "all z[r] > 0": z > 0, "all z[r] < 0": z < 0,
             "all w·z > 0": z > 0, "all w·z < 0": z < 0}
    if region in table:
        return table[region]
    return region in ("all invariants", "every key", "mixed signs")


#: The families of sign regions whose union is every point off the null set where a sign is 0: the engine's names
#: for all invariants, the two signs of x·z (closed kernels), and the key regions of a feature sum (all key features
#: positive, all negative, mixed).
COVERS = ({"all invariants"}, {"every key"}, {"x·z > 0", "x·z < 0"},
          {"all z[r] > 0", "all z[r] < 0", "mixed signs"}, {"all w·z > 0", "all w·z < 0", "mixed signs"})


def _covers(names: set) -> bool:
    """Whether the stated regions of a proved (LIM) step cover every sign of the invariants (off a null set)."""
    return any(family <= names for family in COVERS)


def _log_ratio(ctx, head, x, z1, z2, exponent: bool = False):
    k1 = kernels.scaled_kernel(ctx.spec, head, x, z1)
    k2 = kernels.scaled_kernel(ctx.spec, head, x, z2)
    if exponent:
        return _exponent(k1), _exponent(k2)
    return k1, k2


def _exponent(k: sympy.Expr) -> sympy.Expr:
    """|H| where k(x, t z) = exp(H) at a witness point (LIM-EXPEXP), where H must tend to +∞ or to −∞: of one sign
    and growing in modulus at t = 10^4, 10^8, 10^16 (50 digits); Reject otherwise."""
    if not isinstance(k, sympy.exp):
        raise Reject(f"the kernel at a witness point is not one exponential exp(H): {sympy.sstr(k)[:60]}")
    h = k.args[0]
    values = []
    for at in numeric.TS:
        v = sympy.N(h.xreplace({T: sympy.Integer(at)}), numeric.DIGITS)
        if not (v.is_real and (v.is_Float or v.is_Integer)) or v == 0:
            raise Reject(f"the exponent H = {sympy.sstr(h)[:60]} is not a non-zero real number at t = {at}")
        values.append(v)
    if not (all(v > 0 for v in values) or all(v < 0 for v in values)):
        raise Reject(f"the exponent H = {sympy.sstr(h)[:60]} changes sign along t at the witness point")
    sign = 1 if values[0] > 0 else -1
    if not sign * values[0] < sign * values[1] < sign * values[2]:
        raise Reject(f"the exponent H = {sympy.sstr(h)[:60]} does not grow in modulus with t at the witness point")
    return sign * h


def _exact_log(k):
    return kernels.log_polynomial(k, [T])


def _polynomial_class(ctx, head, region: str) -> bool:
    """log k(x, t z) is a polynomial in t and the coordinates of 2-dimensional x, z (coordinates
    taking the region's signs): then every growth coefficient is a polynomial in the Gram
    invariants, non-zero off a null set once it is non-zero at one point."""
    key = ("polyclass", head, region)
    if key in ctx.cache:
        return ctx.cache[key]
    zsign = {"all z[r] > 0": {"positive": True}, "all z[r] < 0": {"negative": True},
             "all w·z > 0": {"positive": True}, "all w·z < 0": {"negative": True}}.get(region)
    ok = False
    if region in ("all invariants", "every key") or zsign is not None:
        kw = zsign or {"real": True}
        # A coordinate-wise feature map: k = Σ_r φ(x_r)φ(t z_r), and the feature-sum argument works
        # with one coordinate's term; otherwise 2-dimensional vectors (one feature w = e_1).
        dim = 1 if head.kind == "features" and not head.random else 2
        xs = sympy.symbols("x_1 x_2", real=True)[:dim]
        zs = sympy.symbols("z_1 z_2", **kw)[:dim]
        try:
            k = kernels.scaled_kernel(ctx.spec, head, xs, zs)
            ok = kernels.log_polynomial(k, [T, *xs, *zs], [T]) is not None
        except kernels.OutOfScope:
            ok = False
    ctx.cache[key] = ok
    return ok


def _printed_points(s: dict, region: str) -> list:
    item = s["evidence"].get(region)
    wit = item.get("witness") if isinstance(item, dict) else None
    pts = wit.get("points") if isinstance(wit, dict) else None
    return [(p.get("x"), p.get("z1"), p.get("z2")) for p in pts] if isinstance(pts, list) else []


def _check_point(ctx, head, region, p, exponent: bool = False) -> str:
    """VERIFIED or NUMERIC for one witness point; Reject when it does not show the growth (of log H, k = exp(H), with
    `exponent`: LIM-EXPEXP)."""
    x, z1, z2 = _vec(p.get("x")), _vec(p.get("z1")), _vec(p.get("z2"))
    if region == "mixed signs" and p.get("sign class") is not None:
        region = p["sign class"]  # a point of one sign class, which rules the keys its terms dominate
        if region not in ("all w·z > 0", "all w·z < 0", "all z[r] > 0", "all z[r] < 0"):
            raise Reject(f"unknown sign class {region!r} of a mixed-region point")
    if not (_in_region(region, int(x[0]), int(z1[0])) and _in_region(region, int(x[0]), int(z2[0]))):
        raise Reject(f"the witness point x = {p.get('x')}, z = {p.get('z1')}, {p.get('z2')} is outside the region {region}")
    power = _growth_power(p.get("power"))
    stored = decode(p["difference"], ctx.symbols) if p.get("difference") is not None else None
    k1, k2 = _log_ratio(ctx, head, x, z1, z2, exponent)
    l1, l2 = _exact_log(k1), _exact_log(k2)
    if l1 is not None and l2 is not None and isinstance(power, int):
        diff = sympy.expand(l1 - l2)
        poly = sympy.Poly(diff, T)
        if poly.degree() != power:
            raise Reject(f"at x = {p['x']}, z = {p['z1']}, {p['z2']} the log-ratio has degree {poly.degree()} in t, not {power}")
        coeff = sympy.simplify(poly.coeff_monomial(T ** power))
        if stored is not None and sympy.simplify(coeff - stored) != 0:
            raise Reject(f"at x = {p['x']}, z = {p['z1']}, {p['z2']} the coefficient of t^{power} is "
                         f"{sympy.sstr(coeff)}, not {sympy.sstr(stored)}")
        if coeff.is_zero is not False:
            raise Reject(f"the coefficient {sympy.sstr(coeff)} of t^{power} is not shown non-zero")
        return VERIFIED
    # A transcendental growth class: 50 digits at large t, every param at sample values.
    samples = _param_samples(ctx)
    for sub in samples:
        ratio = sympy.log(k1.xreplace(sub)) - sympy.log(k2.xreplace(sub))
        want = stored.xreplace(sub) if stored is not None else None
        problem = numeric.growth_matches(ratio, T, power, want)
        if problem:
            raise Reject(f"at x = {p['x']}, z = {p['z1']}, {p['z2']}: {problem}")
    return NUMERIC


def _growth_power(power):
    """The growth term of a witness point: "log", an integer 1…64, or a fraction "p/q" (1 ≤ p, q ≤ 64, not an
    integer: √(x·z) t^(1/2)), which only the numeric check reads; Reject otherwise."""
    if power == "log" or (isinstance(power, int) and not isinstance(power, bool) and 1 <= power <= 64):
        return power
    if isinstance(power, str) and re.fullmatch(r"[1-9]\d?/[1-9]\d?", power):
        num, den = (int(part) for part in power.split("/"))
        value = sympy.Rational(num, den)
        if num <= 64 and den <= 64 and not value.is_integer:
            return value
    raise Reject(f"unknown growth term {power!r}")


def _param_samples(ctx) -> list[dict]:
    syms = [s for name, s in ctx.symbols.items() if ctx.spec.param(name) is not None]
    if not syms:
        return [{}]
    out = []
    for vals in ((sympy.Rational(1, 3),), (sympy.Integer(3),)):
        sub = {}
        for s in syms:
            v = vals[0]
            if s.is_integer:
                v = sympy.Integer(2)
            sub[s] = v
        out.append(sub)
    return out


def _check_finite(ctx, head, region, fl) -> str:
    x, z1, z2 = _vec(fl.get("x")), _vec(fl.get("z1")), _vec(fl.get("z2"))
    if fl.get("limit") is None:
        raise Trust("the finite limit at the witness is not a rational number")
    limit = decode(fl["limit"], ctx.symbols)
    if not limit.is_positive:
        raise Reject("a finite limit of the ratio is positive")
    k1, k2 = _log_ratio(ctx, head, x, z1, z2)
    l1, l2 = _exact_log(k1), _exact_log(k2)
    if l1 is not None and l2 is not None:
        diff = sympy.expand(l1 - l2)
        if diff.has(T) or sympy.simplify(sympy.exp(diff) - limit) != 0:
            raise Reject(f"at x = {fl['x']}, z = {fl['z1']}, {fl['z2']} the ratio is {sympy.sstr(sympy.exp(diff))}, "
                         f"not the limit {sympy.sstr(limit)}")
        return VERIFIED
    import mpmath
    with mpmath.workdps(numeric.DIGITS):
        for sub in _param_samples(ctx):
            ratio = sympy.log(k1.xreplace(sub)) - sympy.log(k2.xreplace(sub))
            target = sympy.log(limit.xreplace(sub))
            errs = []
            for at in numeric.TS:
                v = sympy.N((ratio - target).xreplace({T: sympy.Integer(at)}), numeric.DIGITS)
                if not v.is_real:
                    raise Reject("the ratio is not real at the witness")
                errs.append(abs(v))
            if errs[-1] > 1e-3 or errs[-1] > errs[0] + sympy.Float("1e-30"):
                raise Reject(f"at x = {fl['x']}, z = {fl['z1']}, {fl['z2']} the ratio does not approach "
                             f"{sympy.sstr(limit)}")
    return NUMERIC


@checker("LIM-UNDECIDED")
def lim_undecided(ctx, s):
    """An undecided LIM-UNDECIDED asserts nothing; a refuted one (every region where (LIM) does not hold fails:
    `features phi(x) = relu(x) * exp(x)` vanishes on all z[r] < 0) states its regions like any class rule and is
    checked as they are."""
    if s["status"] == "undecided":
        return VERIFIED, "an undecided step asserts nothing"
    return lim(ctx, s)


@checker("LIM-OSCPROD")
def lim_oscprod(ctx, s):
    """A growing kernel times bounded positive oscillating factors (docs/theory.md §6.5, LIM-OSCPROD): every such
    factor P is recognised in the re-parsed formula — A + Σ B_k s_k(·) with numbers A > Σ |B_k|, or exp of a
    polynomial in the s_k, the s_k monomials in sin and cos of arguments proved real — so m ≤ P ≤ M with constants
    0 < m ≤ M, and log k(x, t z) = log G(x, t z) + O(1). The certificate's witness points are then re-checked on the
    kernel G with those factors set to 1, exactly as for LIM-EXPPOLY: the growing coefficient of
    log G(x, tz₁) − log G(x, tz₂) is the stated non-zero value, which the bounded term cannot cancel."""
    if s["status"] != "proved":
        return lim(ctx, s)
    head = _head(ctx, s)
    if head.kind != "kernel" or isinstance(head.expr, S.FeatureList):
        # the engine also concludes it for score heads (a positive score exp(-|x - y|) * (2 + sin(x . y))); the
        # verifier re-checks the closed-kernel form only, as docs/theory.md §18.5 lists
        raise Trust(f"LIM-OSCPROD on a {head.kind} head is not re-checked (closed kernels only)")
    reduced, found = _without_bounded_factors(ctx, head.expr)
    if not found:
        raise Reject("no factor of the kernel is a bounded positive oscillating one (A + Σ B_k s_k with A > Σ|B_k|, "
                     "or exp of a polynomial in sines and cosines of real arguments)")
    how, why = lim(ctx, s, dataclasses.replace(head, expr=reduced))
    return how, (f"{len(found)} bounded positive oscillating factor{'s' if len(found) > 1 else ''} "
                 f"({', '.join(found)}) set aside: " + why)


def _without_bounded_factors(ctx, e) -> tuple:
    """(the expression with each bounded positive oscillating factor replaced by 1, the factors' descriptions)."""
    found: list[str] = []

    def walk(f):
        if isinstance(f, S.BinOp) and f.op == "*":
            return S.BinOp("*", walk(f.left), walk(f.right))
        if _bounded_positive(ctx, f):
            found.append("A + Σ B_k s_k" if not isinstance(f, S.Call) else "exp(bounded)")
            return S.Num(sympy.Integer(1))
        if isinstance(f, S.Call) and f.fn == "exp" and len(f.args) == 1:  # exp(g + bounded): exp(g)·exp(bounded)
            kept, dropped = [], []
            for term in _summands(f.args[0]):
                (dropped if _trig_polynomial(ctx, term) is not None else kept).append(term)
            if dropped and kept:
                found.append("exp(bounded)")
                total = kept[0]
                for term in kept[1:]:
                    total = S.BinOp("+", total, term)
                return S.Call("exp", (total,))
        return f
    return walk(e), found


def _summands(e) -> list:
    if isinstance(e, S.BinOp) and e.op == "+":
        return _summands(e.left) + _summands(e.right)
    if isinstance(e, S.BinOp) and e.op == "-":
        return _summands(e.left) + [S.Neg(r) for r in _summands(e.right)]
    return [e]


def _trig_polynomial(ctx, e):
    """e as a polynomial with rational coefficients in fresh symbols standing for sin(u) and cos(u) of arguments u
    proved real (each in [−1, 1]); None when e is not one."""
    atoms: dict = {}

    def to(e):
        if isinstance(e, S.Num):
            return sympy.Rational(e.value)
        if isinstance(e, S.Neg):
            inner = to(e.operand)
            return None if inner is None else -inner
        if isinstance(e, S.Call) and e.fn in ("sin", "cos") and len(e.args) == 1 and real(ctx, e.args[0]):
            return atoms.setdefault(e, sympy.Symbol(f"s•{len(atoms)}", real=True))
        if isinstance(e, S.BinOp) and e.op in ("+", "-", "*"):
            a, b = to(e.left), to(e.right)
            if a is None or b is None:
                return None
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if isinstance(e, S.BinOp) and e.op == "^" and isinstance(e.right, S.Num) and e.right.value.is_integer \
                and 0 <= e.right.value <= 16:
            a = to(e.left)
            return None if a is None else a ** int(e.right.value)
        return None
    value = to(e)
    if value is None or not atoms:
        return None
    return sympy.Poly(sympy.expand(value), *atoms.values())


def _bounded_positive(ctx, f) -> bool:
    """A + Σ B_k m_k (m_k monomials in sines and cosines of real arguments, so |m_k| ≤ 1) with A > Σ |B_k|, or exp of
    any polynomial in them: bounded between positive constants whatever the arguments' values."""
    if isinstance(f, S.Call) and f.fn == "exp" and len(f.args) == 1:
        return _trig_polynomial(ctx, f.args[0]) is not None
    poly = _trig_polynomial(ctx, f)
    if poly is None:
        return False
    constant = poly.coeff_monomial(1)
    rest = sum((abs(c) for m, c in zip(poly.monoms(), poly.coeffs()) if any(m)), sympy.Integer(0))
    return bool(constant > rest)


@checker("LIM-EXPEXP")
def lim_expexp(ctx, s):
    """Theorem F209 (docs/theory.md §6.5, LIM-EXPEXP): k(x, t z) = exp(H) with H → ±∞ and (LIM) for H. The verifier
    re-derives H from the re-parsed formula at each witness point (the kernel there must be one exponential, its
    exponent of one sign and growing in modulus at t = 10^4, 10^8, 10^16) and checks the stated growth of
    log |H(x,tz₁)| − log |H(x,tz₂)| there exactly as it checks log k for the other classes; that |H| → ∞ with one
    sign on the whole region (or off the null set of a sign atom the evidence names, Theorem F216) and the
    genericity of the witnesses rest on the class's analytic coefficients, as for every transcendental class."""
    head = _head(ctx, s)
    if head.kind not in ("kernel", "score"):
        raise Trust(f"LIM-EXPEXP on a {head.kind} head is not re-checked (closed kernels only)")
    if s["status"] != "proved":
        return VERIFIED, "an undecided step asserts nothing"
    how, text = lim(ctx, s, head, exponent=True)
    at = ", ".join(f"10^{len(str(t)) - 1}" for t in numeric.TS)
    return NUMERIC, (f"k = exp(H) with H of one sign and growing in modulus at the witness points (t = {at}, "
                     f"{numeric.DIGITS} digits); for |H|: " + text)


@checker(*LIM_RULES)
def lim(ctx, s, head=None, exponent: bool = False):  # noqa: C901 - one check per field of a LIM certificate
    head = head or _head(ctx, s)
    data = s.get("data") or {}
    regions = data.get("regions")
    if not isinstance(regions, list) or not regions:
        raise Reject("no sign region of the invariants is certified")
    statuses = {r.get("region"): r.get("status") for r in regions}
    chosen = data.get("chosen region")
    if s["status"] == "proved":
        if s["rule"] == "LIM-REGION":
            if not head.affine or statuses.get(chosen) not in HOLDS:
                raise Reject("LIM-REGION needs `affine query key` and a region where (LIM) holds")
            # the chosen region proves the step; the others' stated results are re-checked too (a region stated to
            # hold needs its own witness points, a failing one its finite limit)
            need = [r for r in regions if r.get("region") == chosen or r.get("status") in ("fails", *HOLDS)]
        else:
            if any(v not in HOLDS for v in statuses.values()):
                raise Reject("proved although a region does not hold")
            if not _covers(set(statuses)):
                raise Reject(f"proved on the regions {sorted(map(str, statuses))}, which do not cover every sign of the "
                             "invariants (a sign region left out may be one where (LIM) fails)")
            need = regions
    elif s["status"] == "refuted":
        fails = [r for r in regions if r.get("status") in ("fails", "oscillates", "zero")]
        if not fails or any(r.get("status") not in ("fails", "oscillates", "zero") + HOLDS for r in regions):
            raise Reject("refuted without a failing region")
        need = [r for r in regions if r.get("status") == "fails"]
        if not need:
            raise Trust("the failing region oscillates or the kernel vanishes there: not re-checked here")
        # the regions stated to hold are certified facts too: their witness points are re-checked as well
        need += [r for r in regions if r.get("status") in HOLDS]
    else:
        return VERIFIED, "an undecided step asserts nothing"
    outcomes, classes = [], []
    for r in need:
        name = r.get("region")
        if r.get("status") in HOLDS:
            pts = r.get("points")
            if not isinstance(pts, list) or not pts:
                raise Reject(f"region {name}: no witness point")
            printed = _printed_points(s, name)
            if printed and [(p.get("x"), p.get("z1"), p.get("z2")) for p in pts] != printed:
                raise Reject(f"region {name}: the witness points are not the ones the derivation printed")
            for p in pts:
                outcomes.append(_check_point(ctx, head, name, p, exponent))
            classes.append(not exponent and _polynomial_class(ctx, head, name))
        else:
            fl = r.get("finite limit")
            if not isinstance(fl, dict):
                raise Trust(f"region {name} fails without a finite-limit witness")
            item = s["evidence"].get(name)
            pw = item.get("witness") if isinstance(item, dict) else None
            if isinstance(pw, dict) and (pw.get("x"), pw.get("z1"), pw.get("z2")) != (fl.get("x"), fl.get("z1"), fl.get("z2")):
                raise Reject(f"region {name}: the witness point is not the one the derivation printed")
            res = _check_finite(ctx, head, name, fl)
            if s["status"] != "proved":
                outcomes.append(res)  # for a proved step a failing region is only cross-checked
    regions_text = ", ".join(str(r.get("region")) for r in need if s["status"] != "proved" or r.get("status") in HOLDS)
    k = "H" if exponent else "k"
    if s["status"] == "refuted":
        how = NUMERIC if NUMERIC in outcomes else VERIFIED
        return how, (f"on {regions_text} the ratio has a finite non-zero limit at the witness point "
                     + ("(exact)" if how == VERIFIED else "(50 digits at t = 10^4, 10^8, 10^16: the kernel's log is "
                                                          "not a polynomial in t)"))
    if all(o == VERIFIED for o in outcomes) and all(classes):
        return VERIFIED, (f"on {regions_text}: log k(x, t z) is a polynomial in t and the coordinates, and at each "
                          "witness point the leading coefficient of log k(x,tz₁) − log k(x,tz₂) is the stated non-zero "
                          "value (exact), so it is non-zero off a null set")
    if exponent and all(o == VERIFIED for o in outcomes):
        return VERIFIED, (f"on {regions_text}: at each witness point log |H(x,tz₁)| − log |H(x,tz₂)| is a polynomial in t "
                          "whose leading coefficient is the stated non-zero value (exact)")
    at, one, two = ((f"|{k}(x, t z)|", f"|{k}(x,tz₁)|", f"|{k}(x,tz₂)|") if exponent else
                    (f"{k}(x, t z)", f"{k}(x,tz₁)", f"{k}(x,tz₂)"))
    return NUMERIC, (f"on {regions_text}: log {at} is not a polynomial in t and the invariants (a "
                     f"transcendental growth class), so the growth of log {one} − log {two} at the witness "
                     "points is checked with 50 digits at t = 10^4, 10^8, 10^16; genericity rests on the class's "
                     "analytic coefficients")


# ---------------------------------------------------------------------------------------------
# Positivity and analyticity by structure (on the re-parsed formula)

def _param(ctx, name):
    return ctx.spec.param(name)


def positive(ctx, e, vectors) -> bool:
    """e > 0 for every input and admissible param, by structure."""
    if isinstance(e, S.FeatureList):  # every component positive: each product φ_c(x)φ_c(y) is
        return all(positive(ctx, item, vectors) for item in e.items)
    if isinstance(e, S.Num):
        return e.value > 0
    if isinstance(e, S.Name):
        p = _param(ctx, e.id)
        return p is not None and p.constraint == "> 0"
    if isinstance(e, S.Call):
        if e.fn in ("exp", "sigmoid", "softplus", "cosh"):  # positive on the reals only: exp(√(x·y)) is not, nor
            return all(real(ctx, arg, defined=True) for arg in e.args)  # exp(x·y/τ) where τ = 0 is admissible
        if e.fn == "sqrt" and len(e.args) == 1:  # the square root of a positive number is positive
            return positive(ctx, e.args[0], vectors)
        return False
    if isinstance(e, S.BinOp):
        if e.op == "+":
            l, r = e.left, e.right
            if (positive(ctx, l, vectors) and nonneg(ctx, r, vectors)) or (positive(ctx, r, vectors) and nonneg(ctx, l, vectors)):
                return True
            # elu(u) > -1: elu(u) + c > 0 for a constant c >= 1
            for a, c in ((l, r), (r, l)):
                if isinstance(a, S.Call) and a.fn == "elu" and isinstance(c, S.Num) and c.value >= 1:
                    return True
                # cos(√u) ≥ −1 and sin(√u)/√u > −2173/10000 for every real u (cosh, sinh s / s ≥ 1 for u < 0; theory §4)
                lower = _even_of_root_lower(ctx, a)
                const = _constant(c)
                if lower is not None and const is not None and (const + lower).is_positive:
                    return True
            return False
        if e.op in ("*", "/"):
            return positive(ctx, e.left, vectors) and positive(ctx, e.right, vectors)
        if e.op == "^":
            return positive(ctx, e.left, vectors) and real(ctx, e.right, defined=True)
    return False


def _even_of_root_lower(ctx, e) -> "sympy.Expr | None":
    """A lower bound of cos(sqrt(u)) (−1) or sin(sqrt(u)) / sqrt(u) (`_sinc_lower`: −2173/10000 when its interval
    argument holds, else −1/π) for a real u, read off the formula: both are real entire functions of u
    (Σ (−u)^k/(2k)!, Σ (−u)^k/(2k + 1)!), at least −1 and that bound for u ≥ 0 and at least 1 for u < 0 (cosh s,
    sinh s / s); None otherwise."""
    def root_of(x):
        if isinstance(x, S.Call) and x.fn == "sqrt" and len(x.args) == 1 and real(ctx, x.args[0]):
            return x.args[0]
        return None
    if isinstance(e, S.Call) and e.fn == "cos" and len(e.args) == 1 and root_of(e.args[0]) is not None:
        return sympy.Integer(-1)
    if isinstance(e, S.BinOp) and e.op == "/" and isinstance(e.left, S.Call) and e.left.fn == "sin" \
            and len(e.left.args) == 1:
        u = root_of(e.left.args[0])
        if u is not None and root_of(e.right) == u:
            return _sinc_lower()
    return None


_SINC_LOWER: list = []


def _sinc_lower() -> sympy.Expr:
    """−c with c = 2173/10000 when sin t / t > −c for every t ≥ 0 is re-derived here (docs/theory.md §4, Lemma W),
    else −1/π (sin t / t ≥ 0 on [0, π] and ≥ −1/t beyond). On [0, π] sin t ≥ 0; beyond 2π, −1/t ≥ −1/(2π) > −c; on
    [π, 2π] g(t) = sin t + c t is convex (g″ = −sin t ≥ 0), so with g′(t₁) < 0 < g′(t₂) it is ≥ g(t₁) left of t₁, ≥ g(t₂)
    right of t₂ and ≥ g(t₁) + g′(t₁)(t₂ − t₁) between: each is checked positive by interval arithmetic (mpmath.iv,
    outward rounding) at the rationals t₁ = 44933/10000, t₂ = 44934/10000."""
    if not _SINC_LOWER:
        from mpmath import iv
        saved = iv.prec
        try:
            iv.prec = 113
            c = iv.mpf(2173) / 10000
            t1, t2 = iv.mpf(44933) / 10000, iv.mpf(44934) / 10000
            g1, d1 = iv.sin(t1) + c * t1, iv.cos(t1) + c
            g2, d2 = iv.sin(t2) + c * t2, iv.cos(t2) + c
            inside = (iv.pi < t1) and (t2 < 2 * iv.pi)
            holds = bool(inside and d1 < 0 and d2 > 0 and g1 > 0 and g2 > 0 and g1 + d1 * (t2 - t1) > 0
                         and 1 / (2 * iv.pi) < c)
        finally:
            iv.prec = saved
        _SINC_LOWER.append(sympy.Rational(-2173, 10000) if holds else -1 / sympy.pi)
    return _SINC_LOWER[0]


def _constant(e) -> "sympy.Expr | None":
    """The exact value of a formula built from numbers by + − × ÷ (3/2), else None."""
    if isinstance(e, S.Num):
        return sympy.Rational(e.value)
    if isinstance(e, S.Neg):
        v = _constant(e.operand)
        return None if v is None else -v
    if isinstance(e, S.BinOp) and e.op in ("+", "-", "*", "/"):
        left, right = _constant(e.left), _constant(e.right)
        if left is None or right is None or (e.op == "/" and right == 0):
            return None
        return {"+": left + right, "-": left - right, "*": left * right,
                "/": left / right if right != 0 else None}[e.op]
    return None


REAL_OF_REAL = ("exp", "sin", "cos", "tan", "sinh", "cosh", "tanh", "erf", "sigmoid", "softplus", "relu", "elu",
                "gelu", "silu", "abs", "max", "min", "identity")


def real(ctx, e, defined: bool = False) -> bool:  # noqa: C901 - one branch per node kind
    """e is real wherever it is defined, by structure: the invariants, numbers and params, the real operations and
    functions of real arguments, a log of a positive quantity, a fractional power or sqrt of a non-negative one.
    `defined`: and defined (finite) everywhere, for every admissible param value — a quotient or a negative power only
    of a positive quantity or of a constant non-zero for every admissible value (`param tau != 0`; exp(x·y/τ) under
    `param tau real` is undefined at τ = 0), and no tan (poles) — as positivity for all inputs needs."""
    if isinstance(e, (S.Num, S.Name, S.Dot, S.Norm)):
        return True
    if isinstance(e, S.Neg):
        return real(ctx, e.operand, defined)
    if isinstance(e, S.Call):
        if e.fn == "log":
            return positive(ctx, e.args[0], ()) and real(ctx, e.args[0], defined)
        if e.fn == "sqrt":
            return nonneg(ctx, e.args[0], ()) and real(ctx, e.args[0], defined)
        if defined and e.fn == "tan":
            return False
        return e.fn in REAL_OF_REAL and all(real(ctx, arg, defined) for arg in e.args)
    if isinstance(e, S.BinOp):
        if not (real(ctx, e.left, defined) and real(ctx, e.right, defined)):
            return False
        if e.op == "^":
            power = _constant(e.right)  # an integer power, also a negative one written -2
            integer = power is not None and power.is_integer
            if integer and defined and power is not None and power < 0:
                return positive(ctx, e.left, ()) or nonzero_constant(ctx, e.left)
            return integer or nonneg(ctx, e.left, ())
        if e.op == "/" and defined:
            return positive(ctx, e.right, ()) or nonzero_constant(ctx, e.right)
        return e.op in ("+", "-", "*", "/")
    return False


def nonneg(ctx, e, vectors) -> bool:
    if positive(ctx, e, vectors):
        return True
    if isinstance(e, S.Num):
        return e.value >= 0
    if isinstance(e, S.Name):
        p = _param(ctx, e.id)
        return p is not None and p.constraint in ("> 0", ">= 0")
    if isinstance(e, S.Norm):
        return True
    if isinstance(e, S.Call) and e.fn in ("relu", "abs"):
        return True
    if isinstance(e, S.Call) and e.fn == "sqrt":  # √u ≥ 0 for u ≥ 0 only: √(x·y) is imaginary where x·y < 0
        return nonneg(ctx, e.args[0], vectors)
    if isinstance(e, S.BinOp):
        if e.op == "+":
            return nonneg(ctx, e.left, vectors) and nonneg(ctx, e.right, vectors)
        if e.op in ("*", "/"):
            return nonneg(ctx, e.left, vectors) and nonneg(ctx, e.right, vectors)
        if e.op == "^":
            return nonneg(ctx, e.left, vectors) or (isinstance(e.right, S.Num) and e.right.value.is_integer
                                                    and int(e.right.value) % 2 == 0)
    return False


ANALYTIC = ("exp", "sin", "cos", "sinh", "cosh", "tanh", "erf", "sigmoid", "softplus")


def finite_constant(ctx, e) -> bool:
    """e is built from numbers and declared params alone and is a finite real number for every admissible param
    value (docs/theory.md §5, Lemma G): a quotient by, or negative integer power of, a constant that is non-zero for
    every admissible value (`param tau != 0`, `> 0`, products and powers of such), a log of a positive constant, a
    square root or fractional power of a non-negative one, and real functions other than tan (whose poles a real
    argument can meet). Such a subformula is one fixed number for each value of the params, which θ does not enter."""
    if isinstance(e, S.Num):
        return True
    if isinstance(e, S.Name):
        return _param(ctx, e.id) is not None
    if isinstance(e, S.Neg):
        return finite_constant(ctx, e.operand)
    if isinstance(e, S.BinOp):
        if not (finite_constant(ctx, e.left) and finite_constant(ctx, e.right)):
            return False
        if e.op in ("+", "-", "*"):
            return True
        if e.op == "/":
            return nonzero_constant(ctx, e.right)
        if e.op == "^":
            power = _constant(e.right)
            if power is not None and power.is_integer:
                return power >= 0 or nonzero_constant(ctx, e.left)
            return positive(ctx, e.left, ()) or (nonneg(ctx, e.left, ()) and positive(ctx, e.right, ()))
        return False
    if isinstance(e, S.Call):
        if not all(finite_constant(ctx, a) for a in e.args):
            return False
        if e.fn == "log":
            return positive(ctx, e.args[0], ())
        if e.fn == "sqrt":
            return nonneg(ctx, e.args[0], ())
        return e.fn in REAL_OF_REAL and e.fn != "tan"
    return False


def nonzero_constant(ctx, e) -> bool:
    """e (a formula in numbers and params) is non-zero for every admissible param value, by structure."""
    if isinstance(e, S.Num):
        return e.value != 0
    if isinstance(e, S.Name):
        p = _param(ctx, e.id)
        return p is not None and p.constraint in ("> 0", "!= 0")
    if isinstance(e, S.Neg):
        return nonzero_constant(ctx, e.operand)
    if isinstance(e, S.BinOp) and e.op in ("*", "/"):
        return nonzero_constant(ctx, e.left) and nonzero_constant(ctx, e.right) and finite_constant(ctx, e)
    power = _constant(e.right) if isinstance(e, S.BinOp) and e.op == "^" else None
    if power is not None and power.is_integer:
        return nonzero_constant(ctx, e.left) and finite_constant(ctx, e)
    return positive(ctx, e, ()) and finite_constant(ctx, e)


def analytic(ctx, e, signed=frozenset()) -> bool:
    """e is real-analytic in its inputs everywhere, by structure; `signed` names the vectors whose
    every coordinate has a fixed sign on the region considered (there relu and elu are analytic)."""
    if isinstance(e, S.FeatureList):
        return all(analytic(ctx, item, signed) for item in e.items)
    if isinstance(e, (S.Num, S.Name)) or finite_constant(ctx, e):  # a constant: one number per admissible param value
        return True  # (Lemma G, docs/theory.md §5)
    if isinstance(e, S.Neg):
        return analytic(ctx, e.operand, signed)
    if isinstance(e, S.Call) and e.fn in ("relu", "elu") and isinstance(e.args[0], S.Name) and e.args[0].id in signed:
        return True
    if isinstance(e, S.Dot):
        return analytic(ctx, e.left, signed) and analytic(ctx, e.right, signed)
    if isinstance(e, S.Call):
        if e.fn in ANALYTIC:
            return all(analytic(ctx, a, signed) for a in e.args)
        if e.fn in ("log", "sqrt"):
            return positive(ctx, e.args[0], ()) and analytic(ctx, e.args[0], signed)
        return False
    if isinstance(e, S.BinOp):
        if e.op in ("+", "-", "*"):
            return analytic(ctx, e.left, signed) and analytic(ctx, e.right, signed)
        if e.op == "/":
            return analytic(ctx, e.left, signed) and analytic(ctx, e.right, signed) and (
                positive(ctx, e.right, ()) or (finite_constant(ctx, e.right) and nonzero_constant(ctx, e.right)))
        if e.op == "^":
            ex = e.right
            if isinstance(ex, S.Num) and ex.value.is_integer and ex.value >= 0:
                if isinstance(e.left, S.Norm) and int(ex.value) % 2 == 0:
                    return analytic(ctx, e.left.operand, signed)
                return analytic(ctx, e.left, signed)
            return positive(ctx, e.left, ()) and analytic(ctx, e.left, signed) and analytic(ctx, ex, signed)
    return False


def _linear_in(e, x: str, y: str):
    """(α, β) when e is the vector α·x + β·y with rational α, β (a linear combination of query and key), else None."""
    if isinstance(e, S.Name) and e.id in (x, y):
        return (sympy.Integer(1), sympy.Integer(0)) if e.id == x else (sympy.Integer(0), sympy.Integer(1))
    if isinstance(e, S.Neg):
        inner = _linear_in(e.operand, x, y)
        return None if inner is None else (-inner[0], -inner[1])
    if isinstance(e, S.BinOp) and e.op in ("+", "-"):
        left, right = _linear_in(e.left, x, y), _linear_in(e.right, x, y)
        if left is None or right is None:
            return None
        sign = 1 if e.op == "+" else -1
        return left[0] + sign * right[0], left[1] + sign * right[1]
    if isinstance(e, S.BinOp) and e.op == "*":
        for scalar, vector in ((e.left, e.right), (e.right, e.left)):
            inner = _linear_in(vector, x, y)
            if isinstance(scalar, S.Num) and inner is not None:
                return scalar.value * inner[0], scalar.value * inner[1]
    if isinstance(e, S.BinOp) and e.op == "/" and isinstance(e.right, S.Num) and e.right.value != 0:
        inner = _linear_in(e.left, x, y)
        return None if inner is None else (inner[0] / e.right.value, inner[1] / e.right.value)
    return None


def _off_diagonal_norm(e, x: str, y: str, tied: bool = False) -> bool:
    """e is |α x + β y| with both α, β non-zero rationals (|x − y|, |x + y|, |x − 2y|, …): analytic and positive
    off the parameters where α q + β k = 0, for each pair a linear subspace of codimension d (§20.4). Under `tie query
    key` a norm with α + β = 0 vanishes at every pair (i, i) for every θ, so it is not one."""
    if not isinstance(e, S.Norm):
        return False
    coefficients = _linear_in(e.operand, x, y)
    if coefficients is None or 0 in coefficients:
        return False
    return not (tied and coefficients[0] + coefficients[1] == 0)


def _analytic_off_diagonal(ctx, head) -> bool:
    """Analytic by structure once every |α x + β y| is read as a positive analytic atom (§20.4): the atom is
    replaced by the positive constant 1 and the structural checks run on the result."""
    if len(head.params) != 2:
        return False
    x, y = head.params
    tied = bool(head.tie)

    def rewrite(e):
        if _off_diagonal_norm(e, x, y, tied):
            return S.Num(sympy.Integer(1))
        if isinstance(e, S.Call):
            return S.Call(e.fn, tuple(rewrite(a) for a in e.args))
        if isinstance(e, S.BinOp):
            return S.BinOp(e.op, rewrite(e.left), rewrite(e.right))
        if isinstance(e, S.Neg):
            return S.Neg(rewrite(e.operand))
        return e
    def uses(e) -> bool:
        if _off_diagonal_norm(e, x, y, tied):
            return True
        children = list(e.args) if isinstance(e, S.Call) else [getattr(e, k) for k in ("left", "right", "operand")
                                                                 if hasattr(e, k)]
        return any(uses(c) for c in children)
    return uses(head.expr) and analytic(ctx, rewrite(head.expr))


COORDINATE_REGIONS = ("all z[r] > 0", "all z[r] < 0")


def _region_of_head(ctx, s) -> str | None:
    """The coordinate sign region a proved LIM-REGION step of the same head works on."""
    h = ctx.heads_of.get(s["id"])
    for sid, hh in ctx.heads_of.items():
        step = ctx.steps[sid]
        if hh == h and step["rule"] == "LIM-REGION" and step["status"] == "proved":
            region = (step.get("data") or {}).get("chosen region")
            if region in COORDINATE_REGIONS:
                return region
    return None


@checker("WP-POSITIVE")
def wp_positive(ctx, s):
    head = _head(ctx, s)
    block = s.get("certificate")
    if s["status"] == "proved" and isinstance(block, dict) and block.get("kind") == "real-exponential":
        return VERIFIED, _real_exponential(ctx, head, s, block)
    if s["status"] == "proved":
        if s["evidence"].get("dimensions") == "d ≥ 2":
            raise Trust("positive only for non-zero query and key directions: not re-checked here")
        if positive(ctx, head.expr, ()):
            return VERIFIED, ("the formula is positive by structure (exponentials, positive constants and params, square "
                              "roots of positives, elu + c with c ≥ 1)")
        raise Trust("positivity by sign regions: not re-checked here")
    if s["status"] == "refuted":
        ev = s["evidence"]
        if "zero row" in ev:
            return VERIFIED, _zero_row(ctx, head, ev["zero row"])
        if "end rows" in ev:
            return VERIFIED, _end_rows(ctx, head, s)
        if "mixed row" in ev:
            return VERIFIED, _mixed_row(ctx, head, ev["mixed row"])
        if "ratio row" in ev:
            return VERIFIED, _ratio_row(ctx, head, ev["ratio row"])
        data = s.get("data") or {}
        if "sign pattern" in ev:
            return VERIFIED, _sign_pattern(ctx, head, data.get("sign pattern"))
        if "sign at infinity" in ev:
            return VERIFIED, _sign_at_infinity(ctx, head, data.get("sign at infinity"))
        pos, neg = ev.get("positive at"), ev.get("negative at")
        if not (isinstance(pos, dict) and isinstance(neg, dict)):
            return VERIFIED, _periodic_sign_change(ctx, head)
        signs = []
        for point in (pos, neg):
            val = kernels.kernel_value(ctx.spec, head, _vec(point.get("x")), _vec(point.get("y")))
            val = val.xreplace({p: 1 for p in val.free_symbols})
            signs.append(numeric.sign_of_constant(sympy.simplify(val)))
        if signs != [1, -1]:
            raise Reject("the kernel does not take both signs at the stated points")
        _sign_change_block(s.get("certificate"), pos, neg)
        return VERIFIED, ("the kernel takes both signs at the stated points; the certificate's invariants are those "
                          "of the same points")
    return VERIFIED, "an undecided step asserts nothing"


def _real_exponential(ctx, head: S.Head, s: dict, block: dict) -> str:
    """A kernel proved positive as C·exp(E) with E real (Lemma D, docs/theory.md §4): the positivity, and with it the
    realness of every exponent, is re-derived from the formula by the verifier's own structural test (`positive`,
    whose `real` takes a norm |v| as real: √ of a sum of squares); the block's E and C must give the formula's
    kernel exactly at symbolic 2-dimensional vectors. A block that claims this and fails either test is rejected:
    it states a checkable proof, not an engine's word."""
    if head.kind != "kernel":
        raise Reject("a real-exponential certificate is for a closed kernel")
    if s["evidence"].get("dimensions") != "d ≥ 1":
        raise Reject("a real-exponential certificate proves the first form (all inputs, `dimensions: d ≥ 1`)")
    if not positive(ctx, head.expr, ()):
        raise Reject("the formula is not positive by structure: some exponent is not shown real (or a factor not "
                     "positive) by the verifier's own test")
    xs = (sympy.Dummy("x1", real=True), sympy.Dummy("x2", real=True))  # no declared param can be one of them
    ys = (sympy.Dummy("y1", real=True), sympy.Dummy("y2", real=True))
    symbols = dict(ctx.symbols)
    gram = {"x·z": xs[0] * ys[0] + xs[1] * ys[1], "|z|²": ys[0] ** 2 + ys[1] ** 2, "|x|²": xs[0] ** 2 + xs[1] ** 2}
    for name in gram:
        symbols[name] = sympy.Symbol(name, real=True)
    exponent = decode(block.get("exponent"), symbols, functions=True)
    factor = decode(block.get("factor"), symbols, functions=True)
    at = {symbols[name]: value for name, value in gram.items()}
    stated = _expanded_bases(factor.xreplace(at) * sympy.exp(exponent.xreplace(at)))
    own = _expanded_bases(kernels.kernel_value(ctx.spec, head, xs, ys))
    if not _same_kernel(own, stated):
        raise Reject("the block's factor · exp(exponent) is not the formula's kernel")
    return ("the formula is positive by structure (exponentials of quantities real by the verifier's own test, norms "
            "real as square roots of sums of squares, positive factors), and the block's factor · exp(exponent) is "
            "the formula's kernel at symbolic 2-dimensional vectors (exact)")


def _same_kernel(own: sympy.Expr, stated: sympy.Expr) -> bool:
    """own = stated as functions of the coordinates and params: exactly, or, when SymPy took a power of a product apart
    on one side only (it does so where it sees the factors ≥ 0: ((x₁ − y₁)² + …)^(1/4)·(…)^(1/4) against
    √(√P·√Q) with P expanded), after both are taken apart alike (`force`, which assumes the bases ≥ 0, as the
    formula's own positivity test has shown for every fractional power of the formula) and then at four random
    rational points with admissible params at 50 digits, which a stated expression on another branch would fail."""
    if sympy.expand(sympy.powsimp(own - stated)) == 0:
        return True

    def apart(e):
        return sympy.expand(sympy.powdenest(sympy.expand_power_base(e, force=True), force=True))
    if sympy.expand(apart(own) - apart(stated)) != 0:
        return False
    rng = random.Random(20261204)
    symbols = sorted(own.free_symbols | stated.free_symbols, key=str)
    for _ in range(4):
        point = {}
        for sym in symbols:
            value = sympy.Rational(rng.randint(1, 40), rng.randint(1, 7))
            point[sym] = value if sym.is_nonnegative or sym.is_positive else value * rng.choice((1, -1))
        a, b = sympy.N(own.xreplace(point), 50), sympy.N(stated.xreplace(point), 50)
        if not (a.is_number and b.is_number) or abs(a - b) > sympy.Float("1e-40", 50) * (1 + abs(a)):
            return False
    return True


def _expanded_bases(e: sympy.Expr) -> sympy.Expr:
    """e rebuilt bottom-up with every power's base expanded (the same value): √((x₁ − y₁)² + (x₂ − y₂)²) and
    √(|x|² − 2x·z + |z|²) at the same vectors become one node, so SymPy's own evaluation treats both alike (it takes
    √(√P·√Q) apart only where it sees P, Q ≥ 0)."""
    if not e.args or e.is_Atom:
        return e
    args = [_expanded_bases(a) for a in e.args]
    if e.is_Pow:
        return sympy.Pow(sympy.expand(args[0]), args[1])
    return e.func(*args)


# The invariants a sign-change certificate names, as functions of the 1-dimensional query x and key y.
_INVARIANTS_AT = {"x·z": lambda x, y: x * y, "|z|²": lambda x, y: y * y, "|x|²": lambda x, y: x * x,
                  "w·x": lambda x, y: x, "w·z": lambda x, y: y, "x[r]": lambda x, y: x, "z[r]": lambda x, y: y}


def _sign_change_block(cert, pos: dict, neg: dict) -> None:
    """The step's certificate block states the witness points again as invariants (x·z, |x|², |z|², …): each
    stated value must be the invariant of the evidence's point just checked, so that no field of the block
    states a point that was not re-checked."""
    if cert is None:
        return
    if not isinstance(cert, dict) or cert.get("kind") != "sign-change":
        raise Reject("a sign change's certificate block is of another kind")
    for key, point in (("positive at", pos), ("negative at", neg)):
        stated = cert.get(key)
        if not isinstance(stated, dict) or not stated:
            raise Reject(f"the certificate block states no point '{key}'")
        x, y = _vec(point.get("x"))[0], _vec(point.get("y"))[0]
        for name, value in stated.items():
            if name not in _INVARIANTS_AT:
                raise Reject(f"the certificate block's point '{key}' names an unknown invariant {name[:20]}")
            if not isinstance(value, int) or isinstance(value, bool) or value != _INVARIANTS_AT[name](x, y):
                raise Reject(f"the certificate block's {name} = {str(value)[:20]} '{key}' is not the invariant of "
                             f"the checked point (x, y) = ({x}, {y})")


def _zero_row(ctx, head: S.Head, row: dict) -> str:
    """A reweight that vanishes at every visible key of one row: the row's visible keys re-derived from the pattern
    (at the stated length, or, for every n, from a pattern whose arcs all lie on one side of the diagonal, whose
    first or last row then sees only itself), and c(row, j) evaluated exactly."""
    pos = head.position
    if pos is None or pos.kind != "reweight" or pos.expr is None or not head.normalized:
        raise Reject("a zero row needs a normalised head with a reweight")
    if not isinstance(row, dict) or not isinstance(row.get("visible"), list):
        raise Reject("the zero row states no visible keys")
    tokens = ctx.spec.tokens
    symbols = kernels.param_symbols(ctx.spec)
    if row.get("every key") is True:
        return _zero_row_every_key(ctx, pos, row, tokens, symbols)

    def position(v):
        if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10 ** 9:
            return sympy.Integer(v)
        if isinstance(v, str) and v == tokens:
            return symbols[v]
        raise Reject(f"a position is a positive integer or the length's name, not {str(v)[:20]}")
    i, visible = position(row.get("row")), sorted({position(v) for v in row["visible"]}, key=str)
    if row.get("every n") is True:
        side = _one_side(head.pattern)
        end = sympy.Integer(1) if side == -1 else (symbols[tokens] if isinstance(tokens, str) else sympy.Integer(tokens))
        if side is None or i != end or visible != [i]:
            raise Reject("the pattern does not show that this row sees only itself at every length")
    else:
        n = row.get("n")
        if not (isinstance(tokens, int) and n == tokens and isinstance(i, sympy.Integer) and 1 <= i <= n):
            raise Reject("a zero row at one length needs the file's concrete length")
        seen = sorted(_row_keys_at(head.pattern, int(n), int(i)), key=str)
        if seen != visible:
            raise Reject(f"row {i} sees the keys {[int(j) for j in seen]}, not the stated ones")
    env = dict(symbols, pi=sympy.pi)
    for key in visible:
        env[pos.names[0]], env[pos.names[1]] = i, key
        value = kernels.evaluate(pos.expr, env)
        if sympy.simplify(value) != 0:
            raise Reject(f"c({i}, {key}) = {sympy.sstr(value)} is not 0")
    return f"c(i, j) = 0 at every key the row {i} sees: its normaliser vanishes for every input and parameter"


def _end_rows(ctx, head: S.Head, s: dict) -> str:
    """Rows near the last one that vanish on residue classes of a symbolic n (docs/theory.md §4, Lemma U): the
    pattern's shift period L′ and reach R read with the verifier's own code (`_end_period`), the stated modulus a
    multiple of L′; for each stated class r its row n − t, with t below the class's least length, its keys at the
    stated length n_r ≡ r, n_r ≥ t + R + 1, from the verifier's own arcs as offsets n_r − j, and c(n − t, n − d) = 0
    for each offset d with n = L·k + first (k ≥ 0), by the verifier's own evaluator; the step's classes are exactly
    the residues listed (none when every residue is: ILL-POSED at every n)."""
    pos = head.position
    if pos is None or pos.kind != "reweight" or pos.expr is None or not head.normalized:
        raise Reject("end rows need a normalised head with a reweight")
    tokens = ctx.spec.tokens
    if not isinstance(tokens, str):
        raise Reject("end rows are stated at a symbolic length")
    cert = s.get("certificate") or {}
    if cert.get("kind") != "end-rows" or not isinstance(cert.get("rows"), list) or not cert["rows"]:
        raise Reject("end rows need their certificate block")
    found = _end_period(head.pattern)
    modulus = cert.get("modulus")
    if found is None or not isinstance(modulus, int) or isinstance(modulus, bool) or not 1 <= modulus <= 64 \
            or modulus % found[0]:
        raise Reject("the pattern's arcs are not one relation invariant under shifts by the stated modulus")
    reach = found[1]
    symbols = kernels.param_symbols(ctx.spec)
    k = sympy.Symbol("k•", integer=True, nonnegative=True)
    residues = []
    for row in cert["rows"]:
        r, first, built, offsets, name = (row.get(x) for x in ("residue", "first", "built at", "offsets", "row"))
        t = 0 if name == "n" else int(name[4:]) if isinstance(name, str) and name.startswith("n - ") \
            and name[4:].isdigit() else None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (r, first, built)) or t is None \
                or not isinstance(offsets, list):
            raise Reject("an end row states its class, row, length and offsets as integers")
        if not (0 <= r < modulus and first == (r or modulus) and built % modulus == r
                and t + reach + 1 <= built <= 4096 and t < first) or r in residues:
            raise Reject(f"the row n − {t} of the class n ≡ {r} (mod {modulus}) is not stated at a length where its "
                         "keys are those of the whole class")
        i = built - t
        seen = sorted({built - j for j, q in patterns.head_arcs(head.pattern, built) if q == i} | {t})
        if seen != sorted(offsets):
            raise Reject(f"at n = {built} the row n − {t} sees the keys n − d for d in {seen}, not the stated ones")
        n = modulus * k + first
        env = dict(symbols, pi=sympy.pi)
        for d in seen:
            env[pos.names[0]], env[pos.names[1]] = n - t, n - d
            value = kernels.evaluate(pos.expr, env)
            if sympy.simplify(value) != 0:
                raise Reject(f"c(n − {t}, n − {d}) = {sympy.sstr(value)} is not 0 on n ≡ {r} (mod {modulus})")
        residues.append(r)
    classes = (s.get("data") or {}).get("classes")
    every = sorted(residues) == list(range(modulus))
    if every != (classes is None) or (classes is not None and (
            classes.get("modulus") != modulus or sorted(classes.get("residues") or []) != sorted(residues))):
        raise Reject("the step's classes are not the residues whose end rows vanish")
    return (f"at every n ≡ r (mod {modulus}), r in {sorted(residues)}, a row near the last one sees only keys n − d "
            f"(the pattern's arcs are one relation invariant under shifts by {found[0]}, reach {reach}, built at one "
            "length of the class on the verifier's arcs), and c(n − t, n − d) = 0 on the whole class: its normaliser "
            "vanishes for every input and parameter")


def _end_period(p) -> "tuple[int, int] | None":
    """(L, R) when the pattern's arcs at every length are one relation A cut to [1, n] with (i, j) ∈ A ⟺
    (i + L, j + L) ∈ A and |i − j| ≤ R on A (Lemma U, docs/theory.md §4): non-cyclic windows, integer offsets and
    dilated windows (L = 1), blocks of b (L = b, R = b − 1), unions and intersections (the lcm, the largest R)."""
    from math import lcm

    def size(v) -> "int | None":
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    if isinstance(p, S.Window):
        w = size(p.w)
        return None if p.cyclic or w is None else (1, w)
    if isinstance(p, S.Offsets):
        ints = [o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool)]
        return None if p.cyclic or len(ints) != len(p.offsets) else (1, max([0, *map(abs, ints)]))
    if isinstance(p, S.Dilated):
        w, r = size(p.w), size(p.r)
        return None if w is None or r is None else (1, w * r)
    if isinstance(p, S.Blocks):
        b = size(p.b)
        return None if not b else (b, b - 1)
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)) and p.parts:
        parts = [_end_period(q) for q in p.parts]
        known = [x for x in parts if x is not None]
        if len(known) != len(parts):
            return None
        return lcm(*(x[0] for x in known)), max(x[1] for x in known)
    return None


def _row_keys_at(pattern, n: int, i: int) -> set:
    """Row i's keys at length n from the verifier's own arcs: built at n up to 4096; above, for a row near the end of a
    shift-periodic pattern (`_end_period`, Lemma U of docs/theory.md §4), the keys of row m − (n − i) at the least
    m ≡ n (mod L) with m ≥ (n − i) + R + 1, shifted by n − m; Reject otherwise."""
    if n <= 4096:
        return {sympy.Integer(j) for j, q in patterns.head_arcs(pattern, n) if q == i} | {sympy.Integer(i)}
    found = _end_period(pattern)
    t = n - i
    if found is None or found[0] > 64 or t > 64:
        raise Reject("a zero row above n = 4096 needs a row near the end of a shift-periodic pattern")
    period, reach = found
    m = next(v for v in range(t + reach + 1, t + reach + 1 + period) if v % period == n % period)
    keys = {j for j, q in patterns.head_arcs(pattern, m) if q == m - t} | {m - t}
    return {sympy.Integer(n - m + j) for j in keys}


def _zero_row_every_key(ctx, pos, row: dict, tokens, symbols: dict) -> str:
    """Row 1 or row n whose factor c(row, j) is 0 for a free integer j: whatever keys the pattern gives the row (at
    least one), its normaliser is 0. The row must be 1 or the file's length; the length is the file's symbol (every n)
    or its number."""
    last = symbols[tokens] if isinstance(tokens, str) else sympy.Integer(tokens)
    stated = row.get("row")
    i = None
    if isinstance(stated, bool):
        i = None
    elif stated == 1:
        i = sympy.Integer(1)
    elif stated == tokens:
        i = last
    if i is None:
        raise Reject("a row that vanishes at every key is row 1 or the last row")
    if row.get("every n") is not isinstance(tokens, str):
        raise Reject("a zero row at every key holds at every n exactly when the length is symbolic")
    key = sympy.Symbol("j•", integer=True, positive=True)
    env = dict(symbols, pi=sympy.pi)
    env[pos.names[0]], env[pos.names[1]] = i, key
    value = kernels.evaluate(pos.expr, env)
    if sympy.simplify(value) != 0:
        raise Reject(f"c({i}, j) = {sympy.sstr(value)} is not identically 0 in j")
    return f"c({i}, j) = 0 for every j: the row's normaliser vanishes whatever keys it sees"


def _mixed_row(ctx, head: S.Head, row: dict) -> str:
    """A row whose factors take both signs (docs/theory.md §4, Lemma Q): its keys re-derived from the pattern at the
    file's length, c(row, j) evaluated exactly, and the normaliser Σ_j c(row, j) k(q, x_j) evaluated with the
    verifier's own kernel evaluator at the two stated 1-dimensional configurations (W_K = 1, W_Q = q / x_row, no
    biases): one positive, one negative."""
    pos = head.position
    if pos is None or pos.kind != "reweight" or pos.expr is None or not head.normalized:
        raise Reject("a mixed row needs a normalised head with a reweight")
    if head.kind != "kernel" or head.tie or head.projection or head.nystrom or head.bias or head.heads \
            or head.differential:
        raise Reject("a mixed row's witness needs a kernel head whose query and keys are free")
    if not isinstance(row, dict):
        raise Reject("the mixed row states nothing")
    i, from_n = row.get("row"), row.get("from n")
    seen, r = _mixed_row_keys(ctx, head, row)
    if ctx.spec.params:
        raise Reject("a mixed row's witness is checked without params")
    if row.get("visible") != seen:
        raise Reject(f"row {i} sees the keys {seen}, not the stated ones")
    env: dict = {"pi": sympy.pi}
    weights = []
    for key in seen:
        env[pos.names[0]], env[pos.names[1]] = sympy.Integer(i), sympy.Integer(key)
        weights.append(kernels.evaluate(pos.expr, env))
    signs = []
    for label in ("positive at", "negative at"):
        point = row.get(label)
        if not isinstance(point, dict) or not isinstance(point.get("keys"), dict):
            raise Reject(f"the mixed row states no point '{label}'")
        q, keys = point.get("q"), point["keys"]
        if sorted(keys) != sorted(str(j) for j in seen):
            raise Reject(f"the point '{label}' does not give exactly the row's keys a value")
        values = [keys[str(j)] for j in seen]
        if not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 10 ** 6 for v in values + [q]):
            raise Reject(f"the point '{label}' has a value that is not a small integer")
        if q != 0 and keys[str(i)] == 0:
            raise Reject(f"the point '{label}': the query q = {q} is not W_Q times the row's token 0")
        total = sum((w * kernels.kernel_value(ctx.spec, head, (q,), (v,)) for w, v in zip(weights, values)),
                    sympy.Integer(0))
        signs.append(numeric.sign_of_constant(sympy.simplify(total)))
    if signs != [1, -1]:
        raise Reject("the row's normaliser does not take both signs at the stated points")
    return (f"row {i} sees the keys {seen}" + (f" at every n ≥ {from_n} (a local pattern, reach {r}: its arcs are one "
                                               "relation cut to [1, n])" if from_n is not None else "") +
            f"; its normaliser Σ_j c({i}, j) k(q, x_j) is positive at one stated point and negative at the other, so "
            "it vanishes on a hypersurface of inputs")


def _ratio_row(ctx, head: S.Head, row: dict) -> str:
    """A dense row whose factors take both signs at every n ≥ N (docs/theory.md §4, Lemma Q, the ratio form): the
    head dense by the verifier's own reading, the row and the two keys (an integer, n, or n minus an integer) in 1..n
    at every n ≥ N, c at them positive and negative on n = N + k (k ≥ 0) by the verifier's own evaluator, and the
    kernel, evaluated by its own evaluator at the query q and the keys 1 and −1, positive far out at both ends of the
    query line with a ratio tending to +∞ at one end and 0 at the other."""
    import re
    pos = head.position
    if pos is None or pos.kind != "reweight" or pos.expr is None or not head.normalized:
        raise Reject("a ratio row needs a normalised head with a reweight")
    if head.kind != "kernel" or head.tie or head.projection or head.nystrom or head.bias or head.heads \
            or head.differential or not isinstance(head.pattern, S.Full):
        raise Reject("a ratio row needs a dense kernel head whose query and keys are free")
    tokens = ctx.spec.tokens
    if not isinstance(tokens, str) or ctx.spec.params or not isinstance(row, dict):
        raise Reject("a ratio row is stated at a symbolic length, without params")
    start = row.get("from n")
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= 64:
        raise Reject("a ratio row states its first length as a small integer")
    n = kernels.param_symbols(ctx.spec)[tokens]
    places = []
    for name in ("row", "plus", "minus"):
        text = row.get(name)
        found = re.fullmatch(rf"(?:({re.escape(tokens)})(?: - (\d+))?|(\d+))", text) if isinstance(text, str) else None
        if found is None:
            raise Reject(f"the ratio row's {name} is not an integer, n or n minus an integer")
        place = n - int(found.group(2) or 0) if found.group(1) else sympy.Integer(int(found.group(3)))
        low = place.xreplace({n: sympy.Integer(start)})
        if low < 1 or (not place.has(n) and low > start):
            raise Reject(f"the position {text} is not in 1..n at every n ≥ {start}")
        places.append(place)
    k = sympy.Symbol("k•", integer=True, nonnegative=True)
    env = dict(kernels.param_symbols(ctx.spec), pi=sympy.pi)
    for key, want in ((places[1], 1), (places[2], -1)):
        env[pos.names[0]], env[pos.names[1]] = places[0], key
        raw = kernels.evaluate(pos.expr, env)
        if not isinstance(raw, sympy.Basic):
            raise Reject("the reweight is not a number at the row and key")
        value = sympy.simplify(raw.xreplace({n: start + k}))
        if (value.is_positive if want > 0 else value.is_negative) is not True:
            raise Reject(f"c at the key {sympy.sstr(key)} is not {'positive' if want > 0 else 'negative'} for every "
                         f"n ≥ {start}")
    _ratio_takes_every_value(ctx, head)
    return (f"on the dense head, row {row['row']} has c > 0 at {row['plus']} and c < 0 at {row['minus']} at every "
            f"n ≥ {start}, and k(q, 1)/k(q, −1) takes every positive value (limits +∞ and 0 at the two ends, both "
            "values positive far out): the row's normaliser A k(q, 1) + B k(q, −1), A > 0 > B, takes both signs")


def _ratio_takes_every_value(ctx, head: S.Head) -> None:
    """The kernel, by the verifier's own evaluator at the query q and the keys 1 and −1, is positive far out at both
    ends of the query line, with a ratio tending to +∞ at one end and 0 at the other; Reject otherwise."""
    q = sympy.Symbol("q•", real=True)
    kp, km = (kernels.kernel_value(ctx.spec, head, (q,), (x,)) for x in (1, -1))
    ends = []
    for end, signed in ((sympy.oo, sympy.Symbol("q+", positive=True)), (-sympy.oo, sympy.Symbol("q-", negative=True))):
        for value in (kp, km):
            if value.xreplace({q: signed}).is_positive is not True:
                far = sympy.limit(value, q, end)
                if not (far == sympy.oo or (far.is_finite and far.is_positive) is True):
                    raise Reject("the kernel is not shown positive far out along the query line")
        ends.append(sympy.limit(sympy.simplify(kp / km), q, end))
    if set(ends) != {sympy.oo, sympy.Integer(0)}:
        raise Reject("the kernel's ratio k(q, 1)/k(q, −1) does not tend to +∞ at one end and 0 at the other")


def _mixed_row_keys(ctx, head: S.Head, row: dict) -> tuple:
    """(row i's keys from the verifier's own arcs, the pattern's reach or None): at the file's concrete length, or at
    a symbolic length (Lemma T, docs/theory.md §4) on a local pattern by the verifier's own reading, built at
    n = i + R, with the stated range starting at the last of them, where they are all present."""
    tokens, n, i, from_n = ctx.spec.tokens, row.get("n"), row.get("row"), row.get("from n")
    if isinstance(tokens, str):
        r = _local_reach(head.pattern)
        if r is None:
            raise Reject("a mixed row at a symbolic length needs a local pattern (its rows' keys fixed from a length on)")
        if not (isinstance(i, int) and not isinstance(i, bool) and 1 <= i <= 64 and r <= 4096):
            raise Reject("a mixed row at a symbolic length names a small fixed row")
        arcs = patterns.head_arcs(head.pattern, i + r)
        seen = sorted({j for j, q in arcs if q == i} | {i})
        if from_n != max(seen) or n != from_n:
            raise Reject(f"row {i}'s keys are all present from n = {max(seen)} on, not from the stated length")
        return seen, r
    if not (isinstance(tokens, int) and n == tokens and from_n is None and isinstance(i, int)
            and not isinstance(i, bool) and 1 <= i <= n <= 4096):
        raise Reject("a mixed row needs the file's concrete length and a row within it")
    arcs = patterns.head_arcs(head.pattern, n)
    return sorted({j for j, q in arcs if q == i} | {i}), None


def _local_reach(p) -> "int | None":
    """R when the pattern's arcs at every length n are one relation A on the positive integers cut to [1, n], with
    j ≤ i + R on every (i, j) ∈ A (Lemma T, docs/theory.md §4): `causal` (0), a non-cyclic window (w), non-cyclic
    integer offsets (the largest positive one, or 0), a dilated window (w·r), blocks (b − 1), and unions
    (the largest) and intersections (the smallest) of these; None otherwise."""
    def size(v) -> "int | None":
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    if isinstance(p, S.Causal):
        return 0
    if isinstance(p, S.Window):
        return None if p.cyclic else size(p.w)
    if isinstance(p, S.Offsets):
        ints = [o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool)]
        return None if p.cyclic or len(ints) != len(p.offsets) else max([0, *ints])
    if isinstance(p, S.Dilated):
        w, r = size(p.w), size(p.r)
        return None if w is None or r is None else w * r
    if isinstance(p, S.Blocks):
        b = size(p.b)
        return None if not b else b - 1
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)) and p.parts:
        reaches = [_local_reach(q) for q in p.parts]
        known = [x for x in reaches if x is not None]
        if len(known) != len(reaches):
            return None
        return max(known) if isinstance(p, S.PatternUnion) else min(known)
    return None


def _one_side(p) -> "int | None":
    """−1 when every arc j → i of the pattern has j < i (row 1 sees only itself at every n), +1 when j > i (row n
    does), from the pattern's form."""
    if isinstance(p, S.Causal) or (isinstance(p, S.Window) and p.w == 0):
        return -1
    if isinstance(p, S.Offsets) and not p.cyclic:
        offsets = [o for o in p.offsets if isinstance(o, int) and not isinstance(o, bool)]
        if len(offsets) != len(p.offsets):
            return None
        return -1 if all(o <= 0 for o in offsets) else (1 if all(o >= 0 for o in offsets) else None)
    if isinstance(p, S.PatternUnion):
        sides = {_one_side(q) for q in p.parts}
        return sides.pop() if len(sides) == 1 else None
    return None


def _nodes(e):
    """The sub-expressions of a re-parsed expression, e itself first."""
    yield e
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        for item in (v if isinstance(v, tuple) else (v,)):
            if dataclasses.is_dataclass(item) and not isinstance(item, (S.Loc, type)):
                yield from _nodes(item)


def _factors(e) -> list:
    if isinstance(e, S.BinOp) and e.op == "*":
        return _factors(e.left) + _factors(e.right)
    return [e]


def _names(e) -> set:
    return {n.id for n in _nodes(e) if isinstance(n, S.Name)}


def _through_dot(e, w: str, x: str) -> bool:
    """Every occurrence of w and x in e is inside a `w . x` (or `x . w`) of the two names themselves."""
    if isinstance(e, S.Dot) and {getattr(e.left, "id", None), getattr(e.right, "id", None)} == {w, x} and \
            isinstance(e.left, S.Name) and isinstance(e.right, S.Name):
        return True
    if isinstance(e, S.Name):
        return e.id not in (w, x)
    return all(_through_dot(c, w, x) for c in _children(e))


def _children(e) -> list:
    out: list = []
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        out.extend(i for i in (v if isinstance(v, tuple) else (v,)) if dataclasses.is_dataclass(i)
                   and not isinstance(i, (S.Loc, type)))
    return out


def _sign_of(f: sympy.Expr, s_: sympy.Symbol) -> str | None:
    """"+" when f(s) > 0 for every s > 0 and < 0 for every s < 0, "−" for the reverse, whatever its other (real)
    symbols: by SymPy's assumptions at a positive and a negative s, or from f(0) = 0 and f′ of one sign everywhere;
    None when neither is shown."""
    pos, neg = sympy.Symbol("s_pos", positive=True), sympy.Symbol("s_neg", negative=True)
    a, b = sympy.simplify(f.subs(s_, pos)), sympy.simplify(f.subs(s_, neg))
    if a.is_positive and b.is_negative:
        return "+"
    if a.is_negative and b.is_positive:
        return "−"
    if sympy.simplify(f.subs(s_, 0)) != 0:
        return None
    slope = sympy.simplify(sympy.diff(f, s_))
    return "+" if slope.is_positive else "−" if slope.is_negative else None


def _sign_pattern(ctx, head, stated) -> str:  # noqa: C901 - one check per field of the sign pattern
    """Lemma K (docs/theory.md §4): every component of the feature map has the sign of its argument (or of its
    negative), so k(x, −x) = Σ φ(x)_r φ(−x)_r < 0 < Σ φ(x)_r² = k(x, x) where every argument is non-zero. Re-derived
    from the formula: a coordinate map is evaluated at x = (s, t) (its first coordinate, t a second real
    coordinate, so a dependence on |x|² is covered), a random map, which must use x only through w·x, at w = (1),
    x = (s)."""
    if head.kind != "features" or not head.params or head.expr is None:
        raise Reject("a sign pattern is a property of a feature map")
    x = head.params[0]
    s_, t_ = sympy.Symbol("s", real=True), sympy.Symbol("t", real=True)
    items: tuple[S.Expr, ...] = head.expr.items if isinstance(head.expr, S.FeatureList) else (head.expr,)
    params = dict(kernels.param_symbols(ctx.spec))
    signs = stated.get("signs") if isinstance(stated, dict) else None
    if signs is not None and (not isinstance(signs, list) or len(signs) != len(items)):
        raise Reject(f"the step states {len(signs) if isinstance(signs, list) else signs!r} component signs; the "
                     f"feature map has {len(items)} components")
    index = stated.get("index") if isinstance(stated, dict) else None
    if index is not None and index != ("random" if head.random else "coordinate"):
        raise Reject(f"the step states {index!r} arguments; the feature map's are "
                     f"{'w·x (random features)' if head.random else 'the coordinates of x'}")
    for c, item in enumerate(items):
        try:
            if head.random:
                if not _through_dot(item, head.random, x):
                    raise Reject("the random vector and the token do not enter only through w·x")
                f = kernels.evaluate(item, dict(params, **{head.random: (sympy.Integer(1),), x: (s_,)}))
            else:
                f = kernels.evaluate(item, dict(params, **{x: (s_, t_)}))
        except kernels.OutOfScope as exc:
            raise Trust(f"the feature map is not evaluated here ({exc})") from None
        first = f[0] if isinstance(f, tuple) else f
        if not isinstance(first, sympy.Expr) or first.free_symbols - {s_, t_, *params.values()}:
            raise Trust("a component is not a scalar of the argument: not re-checked here")
        sign = _sign_of(first, s_)
        if sign is None:
            raise Reject(f"the component {sympy.sstr(first)} is not shown to have the sign of its argument")
        if signs is not None and signs[c] != sign:
            raise Reject(f"component {c + 1}, {sympy.sstr(first)}, has the sign of "
                         f"{'its argument' if sign == '+' else 'its negative'} ({sign}); the step states {signs[c]!r}")
    checked = f"; the stated signs {', '.join(signs)} agree" if signs else ""
    return ("every component of φ has the sign of its argument or of its negative (re-derived from the formula"
            f"{checked}), so k(x, −x) < 0 < k(x, x) wherever every argument is non-zero: the kernel takes both signs")


def _stated_limit(tree, symbols) -> sympy.Expr:
    """A limit the step states: ±∞ as {"infinity": ±1}, else an expression tree."""
    if isinstance(tree, dict) and set(tree) == {"infinity"}:
        if tree["infinity"] not in (1, -1) or isinstance(tree["infinity"], bool):
            raise Reject(f"an infinite limit is {{\"infinity\": 1}} or {{\"infinity\": -1}}, not {str(tree)[:40]}")
        return sympy.oo if tree["infinity"] == 1 else -sympy.oo
    return decode(tree, symbols)


def _sign_at_infinity(ctx, head, stated) -> str:  # noqa: C901 - one check per field of the limits
    """The kernel along the ray x = (1), y = (s), re-evaluated from the formula with the params as symbols under their
    declared signs: its limits at s → +∞ and s → −∞ have opposite signs for every admissible value, so the kernel
    takes both signs far enough out (docs/theory.md §4)."""
    s_ = sympy.Symbol("s", real=True)
    try:
        ray = kernels.kernel_value(ctx.spec, head, (sympy.Integer(1),), (s_,))
    except kernels.OutOfScope as exc:
        raise Trust(f"the kernel is not evaluated here ({exc})") from None
    signs, limits = [], []
    for end in (sympy.oo, -sympy.oo):
        try:
            value = sympy.limit(ray, s_, end)
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            raise Trust("the limit along the ray is not computed here") from None
        if value.has(sympy.Limit, sympy.nan, sympy.zoo, sympy.AccumBounds):
            raise Reject(f"the limit {sympy.sstr(value)} along the ray is not determined")
        signs.append(1 if value.is_extended_positive else -1 if value.is_extended_negative else 0)
        limits.append(value)
    if isinstance(stated, dict):
        if stated.get("x", [1]) != [1] or stated.get("z", "s") != "s":
            raise Reject("the ray of the limits is x = 1, z = s, not the one the step states")
        for end, key, value in (("+∞", "limit at +oo", limits[0]), ("−∞", "limit at -oo", limits[1])):
            if stated.get(key) is None:
                continue
            want = _stated_limit(stated[key], ctx.symbols)
            same = want == value if not (want.is_finite and value.is_finite) else sympy.simplify(want - value) == 0
            if not same:
                raise Reject(f"the kernel's limit along x = 1, y = s → {end} is {sympy.sstr(value)}; the step states "
                             f"{sympy.sstr(want)}")
    if sorted(signs) != [-1, 1]:
        raise Reject("the kernel's limits along x = 1, y = s → ±∞ are not of opposite signs for every admissible "
                     "param value")
    return (f"the kernel's limits along x = 1, y = s → ±∞, {sympy.sstr(limits[0])} and {sympy.sstr(limits[1])} "
            "(re-derived from the formula, params under their declared signs"
            + ("; the stated limits agree" if isinstance(stated, dict) else "") + "), have opposite signs: the kernel "
            "takes both signs")


def _periodic_sign_change(ctx, head) -> str:
    """A random-feature map φ(x) = A(x)·F(w·x): A > 0 by structure and free of w, F a 2π-periodic function of s = w·x
    alone, with no params, positive at some s⁺ and negative at some s⁻ among 0, π/2, π, 3π/2 (exact). Then
    k(x, y) = A(x)A(y) Σ_r F(w_r·x)F(w_r·y) takes both signs for almost every draw of w_1, …, w_m: no non-zero
    integer combination of the w_r vanishes almost surely, so (Kronecker–Weyl) y ↦ (w_r·y mod 2π)_r has a dense
    image in the torus; points with every w_r·x near s⁺ and every w_r·y near s⁺ or s⁻ give k > 0 and k < 0
    (docs/theory.md §4, §18.3)."""
    if head.kind != "features" or not head.random:
        raise Reject("refuted without a witness: no points of both signs, no sign pattern, no limits at infinity, and "
                     "the head is not a random-feature map whose draw could give them")
    if not head.params or not dataclasses.is_dataclass(head.expr):
        raise Trust("a sign change of a random-feature kernel not of the form A(x)·F(w·x): not re-checked here")
    w, x = head.random, head.params[0]
    periodic = [f for f in _factors(head.expr) if w in _names(f)]
    amplitude = [f for f in _factors(head.expr) if w not in _names(f)]
    if len(periodic) != 1 or not _through_dot(periodic[0], w, x):
        raise Trust("the random vector does not enter one factor through w·x alone: not re-checked here")
    if not all(positive(ctx, a, (x,)) for a in amplitude):
        raise Trust("the amplitude A(x) is not positive by structure: not re-checked here")
    s_ = sympy.Symbol("s", real=True)
    try:
        f = kernels.evaluate(periodic[0], {w: (sympy.Integer(1),), x: (s_,)})
    except kernels.OutOfScope as exc:
        raise Trust(f"the periodic factor is not evaluated here ({exc})") from None
    if not isinstance(f, sympy.Expr) or f.free_symbols - {s_}:
        raise Trust("the periodic factor has params or is not a scalar: not re-checked here")
    if sympy.simplify(f.subs(s_, s_ + 2 * sympy.pi) - f) != 0:
        raise Reject("the factor of w·x is not shown 2π-periodic")
    signs = {at: numeric.sign_of_constant(sympy.simplify(f.subs(s_, at)))
             for at in (sympy.Integer(0), sympy.pi / 2, sympy.pi, 3 * sympy.pi / 2)}
    plus = next((at for at, sg in signs.items() if sg == 1), None)
    minus = next((at for at, sg in signs.items() if sg == -1), None)
    if plus is None or minus is None:
        raise Reject("the factor of w·x does not take both signs at 0, π/2, π, 3π/2")
    return (f"φ(x) = A(x)·F(w·x) with A > 0 by structure and F 2π-periodic, F({sympy.sstr(plus)}) > 0 > "
            f"F({sympy.sstr(minus)}) (exact): for almost every draw the values w_r·y are dense mod 2π "
            "(Kronecker–Weyl), so the kernel takes both signs")


@checker("AN-STRUCT")
def an_struct(ctx, s):
    head = _head(ctx, s)
    if s["status"] != "proved":
        return VERIFIED, "an undecided step asserts nothing"
    prem = ctx.premises(s)
    if head.normalized and (len(prem) != 1 or prem[0]["rule"] != "WP-POSITIVE" or prem[0]["status"] != "proved"):
        raise Reject("a normalised head is analytic only with a positive normaliser (WP-POSITIVE proved)")
    if analytic(ctx, head.expr):
        return VERIFIED, ("the formula is built from analytic functions, polynomials, even powers of norms and "
                          "quotients by positive expressions" + (", and the normaliser is positive" if head.normalized else ""))
    if s["evidence"].get("dimensions") == "d ≥ 2" and head.kind == "kernel" and _analytic_off_diagonal(ctx, head):
        dim = ctx.spec.dim
        if isinstance(dim, int) and not isinstance(dim, bool) and dim < 2:
            raise Reject(f"analyticity off q = ±k needs d ≥ 2 (the input has d = {dim})")
        return VERIFIED, ("the formula is analytic once every |α x + β y| (α, β ≠ 0) is taken positive (norms of "
                          "linear combinations of query and key, analytic where non-zero; the rest built from analytic "
                          "functions, polynomials and quotients by positive expressions), so the layer is analytic off "
                          "the parameters where some α q + β k = 0: finitely many subspaces of codimension d ≥ 2, with a "
                          "connected complement (docs/theory.md §20.4)"
                          + (", and the normaliser is positive" if head.normalized else ""))
    region = _region_of_head(ctx, s)
    if region and head.kind == "features" and head.affine and analytic(ctx, head.expr, frozenset(head.params)):
        return VERIFIED, (f"on the region {region} (for queries and keys alike: `affine query key`) every relu/elu "
                          "argument has a fixed sign, so the feature map is analytic there")
    raise Trust("analyticity on a sign region or away from a null set: not re-checked here")


@checker("LIM-NYSTROM")
def lim_nystrom(ctx, s):
    head = _head(ctx, s)
    if not head.nystrom:
        raise Reject("the head has no Nyström landmarks")
    if s["status"] != "proved":
        return VERIFIED, "an undecided step asserts nothing"
    xs = sympy.symbols("x_1 x_2", real=True)
    ys = sympy.symbols("y_1 y_2", real=True)
    k = kernels.kernel_value(ctx.spec, head, xs, ys)
    lp = kernels.log_polynomial(k, [*xs, *ys])
    if lp is None:
        raise Reject("the kernel is not exp of a polynomial")
    gamma = -sympy.Poly(lp, *xs, *ys).coeff_monomial(xs[0] ** 2)
    if sympy.expand(lp + gamma * ((xs[0] - ys[0]) ** 2 + (xs[1] - ys[1]) ** 2)) != 0 or not gamma.is_positive:
        raise Reject("the kernel is not a Gaussian exp(−γ|x − y|²) with γ > 0")
    return VERIFIED, f"the kernel is the Gaussian exp(−γ|x − y|²) with γ = {sympy.sstr(gamma)} > 0 (polynomial identity)"
