"""Kernel routes beyond (LIM) (docs/theory.md §20): TD-RIDGE, TD-RADIAL and TD-WITNESS, re-checked
from the re-parsed formula alone (the verifier's own evaluation, kernels.kernel_value).

- TD-RIDGE / TD-RADIAL: the head's items, the analyticity premise, that the kernel depends on its
  claimed scalar only (exact equality at integer points sharing the scalar), and that the profile
  does not behave like a polynomial at large arguments (60 digits), with the same apparent power,
  at several admissible values of the declared params (3/2, 7, and 0 where the declaration admits
  it); with params in the profile, its growth is also re-derived for every admissible value: the
  limit L of profile(T)/T^p (or of log|profile(T)|/T^α) with the params as symbols must be finite
  and non-zero under the params' declared signs (`param g >= 0` with 1/(1 + g r): L = 1/g, not
  finite at g = 0, rejected): `checked numerically`.
- TD-WITNESS: the two samples of the evidence, evaluated through one layer at exact rational
  parameter points (with bias vectors under `affine query key`): equal outputs at the shared token
  at every point (exact where the values are rational, else to 45 digits): `checked numerically`,
  since "for every parameter" is checked at sample points here (the rule's certificate proves it).
"""
from __future__ import annotations

import random
import re

import sympy

from .. import spec as S
from . import kernels
from .check import NUMERIC, Reject, checker

DIGITS = 60


def _head(ctx, s) -> S.Head:
    h = ctx.heads_of.get(s["id"])
    if h is None:
        raise Reject("the step belongs to no head")
    return ctx.spec.heads[h]


def _plain(head: S.Head) -> bool:
    return (not head.tie and head.bias is None and head.position is None and head.projection is None
            and not head.nystrom and not head.differential)


def _params_sample(ctx) -> dict:
    return {sym: sympy.Rational(3, 2) for sym in kernels.param_symbols(ctx.spec).values()}


def _value(ctx, head, x, y):
    return kernels.kernel_value(ctx.spec, head, x, y).xreplace(_params_sample(ctx))


def _same(u, v) -> bool:
    d = sympy.N(u - v, DIGITS)
    return abs(d) < sympy.Float(10, DIGITS) ** -45


# Integer 2-D pairs (x, y) grouped by their inner product / squared distance.
_DOT_PAIRS = [(((1, 2), (3, 1)), ((5, 0), (1, 7))), (((2, -1), (1, 3)), ((1, 1), (-3, 2))),
              (((3, 0), (-1, 4)), ((1, -1), (2, 5)))]  # x·y = 5, -1, -3
_DIST_PAIRS = [(((1, 2), (4, 6)), ((0, 0), (5, 0))), (((2, 1), (3, 1)), ((0, 5), (0, 4))),
               (((1, 1), (2, 3)), ((3, 0), (1, 1)))]  # |x − y|² = 25, 1, 5


def _profile_is_not_polynomial(values_plus, values_minus, points) -> bool:
    """From α(±T) at T in `points`: the apparent degree at +∞ is not a non-negative integer, or it
    differs from the one at −∞, or the sign pattern breaks α(−T) ≈ (−1)^D α(T)."""
    def degree(values):
        a, b = values[-2], values[-1]
        if a == 0 or b == 0:
            return None
        return sympy.log(abs(b / a)) / sympy.log(points[-1] / points[-2])
    dp = degree(values_plus)
    if dp is None:
        return False
    dp = sympy.N(dp, 30)
    near = round(float(dp))
    if dp < -sympy.Rational(1, 2) or abs(dp - near) > sympy.Rational(1, 10) or dp > 40:
        return True
    if values_minus is None:
        return False
    dm = degree(values_minus)
    if dm is None:
        return False
    if abs(sympy.N(dm, 30) - near) > sympy.Rational(1, 10):
        return True
    ratio = sympy.N(values_minus[-1] / values_plus[-1], 30)
    return abs(ratio - (-1) ** near) > sympy.Rational(1, 10)


def _moment_route(ctx, s, shape: str):
    head = _head(ctx, s)
    prem = ctx.premises(s)
    if len(prem) != 2 or prem[0]["rule"] != "AN-STRUCT":
        raise Reject("the premises are the analyticity step and the (LIM) step")
    if s["status"] != "proved":
        return NUMERIC, "an undecided step asserts nothing"
    if prem[0]["status"] != "proved":
        raise Reject("proved although analyticity is not proved")
    if not _plain(head) or (shape == "dot" and not head.affine):
        raise Reject("the head's items are not those the rule needs")
    pairs = _DOT_PAIRS if shape == "dot" else _DIST_PAIRS
    for (x1, y1), (x2, y2) in pairs:
        if not _same(_value(ctx, head, x1, y1), _value(ctx, head, x2, y2)):
            raise Reject(f"the kernel is not a function of {'x·y' if shape == 'dot' else '|x − y|²'} alone")
    points = [sympy.Integer(10), sympy.Integer(10) ** 3, sympy.Integer(10) ** 5]
    symbols = kernels.param_symbols(ctx.spec)
    ends = _profiles(ctx, head, shape)
    params = sorted({sym for f in ends for sym in f.free_symbols if sym != _T}, key=lambda sym: sym.name)
    stated = _stated_period(s)
    if stated is not None:
        if shape != "dot" or params:
            raise Reject("a period is stated for a param-free score α(q·k) only")
        _check_period(ends[0], ends[1], stated)
        return NUMERIC, (f"the kernel is a function of the claimed scalar at integer points, and the stated period "
                         f"p = {sympy.sstr(stated)} is re-derived: α(u + p) = α(u) exactly and α takes different values "
                         "at 0 and p/4 or p/2, so it is not a polynomial (a periodic polynomial is constant); the moment "
                         "lemma (docs/theory.md §20.1) and Theorem 2 with the proved analyticity give the conclusion")
    end = (s.get("certificate") or {}).get("exponent at")
    if end is not None:
        return _exponent_route(ends, end, shape, params, points)
    if shape == "dot" and not params and _periodic_not_constant(ends[0]):
        return NUMERIC, ("the kernel is a function of the claimed scalar at integer points, and its profile is "
                         "2π-periodic (exact) and takes different values at 0 and π/2, so it is not a polynomial (a "
                         "periodic polynomial is constant); the moment lemma (docs/theory.md §20.1) and Theorem 2 with "
                         "the proved analyticity give the conclusion")
    degrees = set()
    for sample in _admissible_samples(ctx.spec, symbols, params):
        plus, minus = ([sympy.N(f.xreplace({**sample, _T: T}), DIGITS) for T in points] if f is not None else None
                       for f in (ends[0], ends[1] if len(ends) > 1 else None))
        at = ", ".join(f"{sym.name} = {sympy.sstr(v)}" for sym, v in sample.items())
        if not _profile_is_not_polynomial(plus, minus, points) and not (
                shape == "radial" and _bounded_not_constant(ends[0].xreplace(sample), plus)):
            raise Reject("the profile behaves like a polynomial at large arguments" + (f" at {at}" if at else ""))
        degrees.add(_apparent_degree(plus, points))
    if len(degrees) > 1:
        raise Reject("the profile's apparent power at large arguments changes with the params (the growth is not one "
                     "form for every admissible value)")
    for f in ends if params else ():
        _growth_for_every_param(f, params)
    return NUMERIC, ("the kernel is a function of the claimed scalar at integer points, and its profile at "
                     "±10, ±10³, ±10⁵ (60 digits) does not behave like a polynomial"
                     + (" at admissible values of the params, with its growth constant finite and non-zero for "
                        "every admissible value" if params else "")
                     + "; the moment lemma (docs/theory.md §20.1) and Theorem 2 with the proved analyticity give "
                     "the conclusion")


_T = sympy.Symbol("T", positive=True)


def _exponent_route(ends: list, end, shape: str, params: list, points: list):
    """Theorem F217 (docs/theory.md §20.1): a param-free profile α = exp(H) whose exponent at the stated end
    (+1: α(T), −1: α(−T)) keeps one sign and grows in modulus at T = 10, 10³, 10⁵ with an apparent power above 1/2
    between the last two (60 digits), so |H| outgrows log T there and α is not a polynomial. The profile itself is
    not evaluated (e^{e^{10⁵}} is out of reach); that the growth holds for every large T is the engine's certified
    growth of H, trusted as for every transcendental growth."""
    if shape != "dot" or params or end not in (1, -1) or isinstance(end, bool):
        raise Reject("the exponent route is for a param-free score α(q·k), at the end +1 or −1")
    f = ends[0] if end == 1 else ends[1]
    if not isinstance(f, sympy.exp):
        raise Reject("the profile is not one exponential exp(H)")
    h = f.args[0]
    values = [sympy.N(h.xreplace({_T: T}), DIGITS) for T in points]
    if not all(v.is_real and v.is_Number and v != 0 for v in values):
        raise Reject("the exponent H is not a non-zero real number at the points")
    if not (all(v > 0 for v in values) or all(v < 0 for v in values)):
        raise Reject("the exponent H changes sign at the points")
    mags = [abs(v) for v in values]
    slope = sympy.N(sympy.log(mags[2] / mags[1]) / sympy.log(points[2] / points[1]), 30)
    if not (mags[0] < mags[1] < mags[2] and slope > sympy.Rational(1, 2)):
        raise Reject("the exponent H does not outgrow log T at the points (apparent power at most 1/2)")
    return NUMERIC, ("the kernel is a function of the claimed scalar at integer points, and its profile is exp(H) with "
                     "H of one sign and growing in modulus like a power above 1/2 or faster at "
                     f"{'+' if end == 1 else '−'}10, 10³, 10⁵ (60 digits), so α grows faster than every power or tends "
                     "to 0 without vanishing there and is not a polynomial (Theorem F217); the moment lemma "
                     "(docs/theory.md §20.1) and Theorem 2 with the proved analyticity give the conclusion")


_PERIOD = re.compile(r"^(?:([1-9][0-9]{0,3})\*)?pi(?:/([1-9][0-9]{0,3}))?$")


def _stated_period(s) -> "sympy.Expr | None":
    """The period the step states (evidence and certificate must agree), read as a rational multiple of π from its
    text by a fixed pattern (`2*pi`, `pi`, `pi/2`, `3*pi/2`), never by a general parser; None when none is stated."""
    texts = {d.get("period") for d in (s.get("evidence") or {}, s.get("certificate") or {}) if isinstance(d, dict)}
    texts.discard(None)
    if not texts:
        return None
    if len(texts) > 1:
        raise Reject("the evidence and the certificate state different periods")
    (text,) = texts
    match = _PERIOD.match(text) if isinstance(text, str) else None
    if match is None:
        raise Reject(f"the stated period {str(text)[:30]!r} is not a positive rational multiple of π")
    return sympy.Rational(int(match.group(1) or 1), int(match.group(2) or 1)) * sympy.pi


def _check_period(plus, minus, period) -> None:
    """α(u + p) = α(u) for every real u, exactly (on u = T and u = −T, T > 0, from the two profiles), and α(0) differs
    from α(p/4) or α(p/2): the stated period is one, and α is periodic and not constant."""
    u = sympy.Symbol("u", real=True)
    alpha = plus.xreplace({_T: u})
    try:
        if minus is None or sympy.simplify(minus.xreplace({_T: -u}) - alpha) != 0:
            raise Reject("the profile is not one expression in q·k on both sides of 0")
        if sympy.simplify(alpha.xreplace({u: u + period}) - alpha) != 0:
            raise Reject(f"α(u + {sympy.sstr(period)}) = α(u) does not hold: the stated period is not a period")
        gaps = [sympy.simplify(alpha.xreplace({u: sympy.Integer(0)}) - alpha.xreplace({u: period * f}))
                for f in (sympy.Rational(1, 4), sympy.Rational(1, 2))]
    except (TypeError, ValueError, NotImplementedError) as exc:
        raise Reject(f"the stated period could not be checked: {exc}") from exc
    if not any(g.is_zero is False for g in gaps):
        raise Reject("α(0) = α(p/4) = α(p/2) is not ruled out: the profile is not shown non-constant")


def _periodic_not_constant(profile) -> bool:
    """The profile f(T) (no params) is 2π-periodic, f(T + 2π) = f(T) exactly, and f(0) ≠ f(π/2): not a polynomial."""
    try:
        if sympy.simplify(profile.xreplace({_T: _T + 2 * sympy.pi}) - profile) != 0:
            return False
        gap = sympy.simplify(profile.xreplace({_T: sympy.Integer(0)}) - profile.xreplace({_T: sympy.pi / 2}))
    except (TypeError, ValueError, NotImplementedError):
        return False
    return gap.is_zero is False


def _bounded_not_constant(profile, values) -> bool:
    """The bounded case of §20.2: the profile's value at 0 lies more than a hundred times farther from its value
    at T = 10⁵ than that lies from the value at 10³ (it settles, and not at g(0)): bounded and not constant,
    which no polynomial is on [0, ∞)."""
    at_zero = sympy.N(sympy.limit(profile, _T, 0, "+"), DIGITS)
    if not at_zero.is_finite:
        return False
    settle, step = values[-1], abs(values[-1] - values[-2])
    return abs(at_zero - settle) > 100 * step


def _profiles(ctx, head, shape: str) -> list:
    """The profile at +T (and at −T for the dot shape) with the params as symbols."""
    if shape == "dot":  # x = (1, 0), y = (±T, 0): x·y = ±T
        return [kernels.kernel_value(ctx.spec, head, (1, 0), (sign * _T, 0)) for sign in (1, -1)]
    return [kernels.kernel_value(ctx.spec, head, (0, 0), (sympy.sqrt(_T), 0))]  # |x − y|² = T


def _admissible_samples(spec, symbols: dict, params: list) -> list[dict]:
    """3/2 and 7 for every param, and each param's boundary 0 where its declaration admits it."""
    out = [{p: sympy.Rational(3, 2) for p in params}, {p: sympy.Integer(7) for p in params}]
    declared = {p.name: p for p in spec.params}
    for p in params:
        decl = declared.get(p.name)
        if decl is not None and (decl.constraint in (">= 0", "real")
                                 or (decl.constraint == "integer" and (decl.lower is None or decl.lower <= 0))):
            out.append({**out[0], p: sympy.Integer(0)})
    return out


def _apparent_degree(values, points):
    a, b = values[-2], values[-1]
    if a == 0 or b == 0:
        return None
    return round(float(sympy.log(abs(b / a)) / sympy.log(points[-1] / points[-2])) * 12) / 12


def _growth_for_every_param(f, params: list) -> None:
    """The growth of the profile f(T) re-derived with the params as symbols: L = lim f(T)/T^p for the
    apparent power p (or lim log|f(T)|/T^α for an exponential profile) must be finite and non-zero
    for every admissible value, by SymPy's assumptions on the declared params."""
    sample = {p: sympy.Rational(3, 2) for p in params}
    points = [sympy.Integer(10) ** 4, sympy.Integer(10) ** 5]
    values = [sympy.N(f.xreplace({**sample, _T: T}), DIGITS) for T in points]
    degree = _apparent_degree(values, points)
    candidates = []
    if degree is not None and abs(degree) <= 40:
        candidates.append(f / _T ** sympy.Rational(round(degree * 12), 12))
    candidates += [sympy.log(sympy.Abs(f)) / _T ** alpha for alpha in (1, 2, sympy.Rational(1, 2))]
    for quotient in candidates:
        try:
            limit = sympy.limit(quotient, _T, sympy.oo)
        except (NotImplementedError, ValueError, TypeError, RecursionError):
            continue
        if limit.has(sympy.Limit) or limit.has(sympy.nan):
            continue
        if limit.is_finite and limit.is_zero is False:
            return
        if limit.is_zero or limit.is_finite is False:
            continue  # not the right power: try the next form
        names = ", ".join(p.name for p in params)
        raise Reject(f"the profile's growth constant {sympy.sstr(limit)} is not shown finite and non-zero for every "
                     f"admissible value of {names}")
    raise Reject("the profile's growth is not re-derived for every admissible param value")


@checker("TD-RIDGE")
def td_ridge(ctx, s):
    return _moment_route(ctx, s, "dot")


@checker("TD-RADIAL")
def td_radial(ctx, s):
    return _moment_route(ctx, s, "radial")


def _output(ctx, head, tokens, WQ, WK, WV, bQ, bK):
    x = tokens[0]
    q = tuple(WQ[r][0] * x[0] + WQ[r][1] * x[1] + bQ[r] for r in range(2))
    num, den = [sympy.Integer(0), sympy.Integer(0)], sympy.Integer(0)
    for y in tokens:
        key = tuple(WK[r][0] * y[0] + WK[r][1] * y[1] + bK[r] for r in range(2))
        w = _value(ctx, head, q, key)
        num = [num[r] + w * (WV[r][0] * y[0] + WV[r][1] * y[1]) for r in range(2)]
        den += w
    return [n / den for n in num] if head.normalized else num


@checker("TD-WITNESS")
def td_witness(ctx, s):
    head = _head(ctx, s)
    if s["status"] != "refuted":
        raise Reject("TD-WITNESS concludes `refuted`")
    ev = s["evidence"]
    X, Y = ev.get("X"), ev.get("X′")
    if not (isinstance(X, list) and isinstance(Y, list) and len(X) == len(Y) >= 2
            and all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10 ** 6 for v in X + Y)):
        raise Reject("the witness is two equal-length lists of small integers")
    if X[0] != Y[0] or len(set(X)) != len(X) or len(set(Y)) != len(Y) or sorted(X) == sorted(Y):
        raise Reject("the samples must share their first token, have distinct tokens and differ as sets")
    if len(ctx.spec.heads) != 1 or not _plain(head) or not isinstance(head.pattern, S.Full):
        raise Reject("a witness is claimed for a lone dense head with no other items")
    n = ctx.spec.tokens
    if isinstance(n, int) and n < len(X):
        raise Reject("the witness has more tokens than the sequence")
    X2 = [(sympy.Integer(v), sympy.Integer(0)) for v in X]
    Y2 = [(sympy.Integer(v), sympy.Integer(0)) for v in Y]
    rng = random.Random(0)
    checked = 0
    for _ in range(6):
        mat = lambda: [[sympy.Rational(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(2)]  # noqa: E731
                       for _ in range(2)]
        WQ, WK, WV = mat(), mat(), mat()
        vec = lambda: [sympy.Rational(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(2)]  # noqa: E731
        bQ, bK = (vec(), vec()) if head.affine else ((0, 0), (0, 0))
        try:
            a = _output(ctx, head, X2, WQ, WK, WV, bQ, bK)
            b = _output(ctx, head, Y2, WQ, WK, WV, bQ, bK)
        except ZeroDivisionError:
            continue
        if any(v.has(sympy.zoo, sympy.nan) for v in (*a, *b)):
            continue  # a vanishing normaliser: no output at this point
        if not all(_same(u, v) for u, v in zip(a, b)):
            raise Reject("one layer separates the two samples at a parameter point: not a witness")
        checked += 1
    if checked < 2:
        raise Reject("too few parameter points with a defined output")
    cert = s.get("certificate") or {}
    tail = ""
    if cert.get("kind") == "one-layer-witness":
        shared = cert.get("shared")
        if [shared, *(cert.get("left") or [])] != X or [shared, *(cert.get("right") or [])] != Y:
            raise Reject("the proof kernel's certificate states another pair than the evidence's")
        tail = ("; the proof kernel's certificate states the same pair, and its identity for every parameter is that "
                "kernel's check (docs/theory.md §20.5)")
    return NUMERIC, (f"the two samples' outputs at the shared token agree at {checked} exact rational parameter "
                     "points (to 45 digits)" + tail)


# TD-COMPLEX (docs/theory.md §20.10, Theorem F172): an entire even profile, rotated by an imaginary key scale
_ENTIRE = (sympy.exp, sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)
_U = sympy.Symbol("u", real=True)


def _entire(expr, variable) -> bool:
    """The verifier's own structural test: a number, the variable, or +, ·, non-negative integer powers and
    exp/sin/cos/sinh/cosh of such expressions."""
    if expr == variable:
        return True
    if expr.is_Number:
        return bool(expr.is_finite) and expr.is_real is True
    if isinstance(expr, sympy.NumberSymbol):
        return True
    if expr.is_Symbol:
        return False
    if expr.is_Add or expr.is_Mul:
        return all(_entire(arg, variable) for arg in expr.args)
    if expr.is_Pow:
        base, exponent = expr.args
        if base == sympy.E:
            return _entire(exponent, variable)
        return bool(exponent.is_Integer and exponent >= 0) and _entire(base, variable)
    if isinstance(expr, _ENTIRE):
        return all(_entire(arg, variable) for arg in expr.args)
    return False


def _log_rotated(beta, s) -> sympy.Expr:
    """log |β(s)| at 60 digits (the dominant-pair lemma orders the weights by their moduli; an unnormalised score's
    rotation may be negative, −s² cosh(s) for s² cos(s))."""
    value = sympy.N(sympy.expand_log(sympy.log(sympy.Abs(beta.xreplace({_U: s}))), force=True), DIGITS)
    if not value.is_real:
        raise Reject(f"the rotated profile vanishes at {sympy.sstr(s)}")
    return value


@checker("TD-COMPLEX")
def td_complex(ctx, s):
    head = _head(ctx, s)
    if s["status"] != "proved":
        raise Reject("TD-COMPLEX concludes `proved`")
    prem = ctx.premises(s)
    if len(prem) != 1 or prem[0]["rule"] != "AN-STRUCT" or prem[0]["status"] != "proved":
        raise Reject("the premise is the proved analyticity step")
    if not _plain(head) or head.affine or head.heads is not None or head.sink is not None:
        raise Reject("the rule is for a head with no bias, positions, projections, tying, affine terms, groups or sink")
    if head.normalized and not any(p["rule"] == "WP-POSITIVE" and p["status"] == "proved"
                                   for p in ctx.premises(prem[0])):
        raise Reject("a normalised head needs its kernel proved positive")
    for (x1, y1), (x2, y2) in _DOT_PAIRS:
        if not _same(_value(ctx, head, x1, y1), _value(ctx, head, x2, y2)):
            raise Reject("the kernel is not a function of x·y alone")
    alpha = kernels.kernel_value(ctx.spec, head, (1, 0), (_U, 0))  # α(u), u = x·y
    if alpha.free_symbols != {_U} or not _entire(alpha, _U):
        raise Reject("the profile is not shown entire (polynomials, exp, sin, cos, sinh, cosh of x·y only)")
    if sympy.simplify(alpha - alpha.xreplace({_U: -_U})) != 0:
        raise Reject("the profile is not even")
    beta = sympy.expand_complex(alpha.xreplace({_U: sympy.I * _U}))
    if beta.has(sympy.I):
        raise Reject("the rotated profile α(i u) is not a real expression")
    if beta.has(sympy.sin, sympy.cos, sympy.tan):
        # an exp-log function (exp, cosh, sinh, polynomials) lies in a Hardy field: its log-ratio has a limit, which the
        # samples below indicate; a sine or cosine may vanish on an exponentially thin set no sample sees
        # (exp(cosh(u) cos(u)²), whose (LIM) fails)
        raise Reject("the rotated profile contains sin or cos, so its (LIM) cannot be confirmed by samples")
    # (LIM) for β, confirmed: for |s₁| > |s₂| the log-ratio log|β(T s₁)| − log|β(T s₂)| increases past 10 (T = 4, 16, 64)
    for s1, s2 in ((2, 1), (-2, 1), (3, -2), (1, sympy.Rational(1, 2))):
        gaps = [_log_rotated(beta, T * s1) - _log_rotated(beta, T * s2) for T in (4, 16, 64)]
        if not (0 < gaps[0] < gaps[1] < gaps[2] and gaps[2] > 10):
            raise Reject(f"the rotated kernel's log-ratio at scores {s1}, {s2} does not grow: (LIM) for β not confirmed")
    return NUMERIC, ("the kernel is a function of x·y alone at integer points; its profile α is entire by structure "
                     "and even (exact), α(i u) = " + sympy.sstr(beta) + " is real, and its log-ratios at scores of "
                     "different size grow at T = 4, 16, 64 (60 digits); Theorem F172 (docs/theory.md §20.10) and "
                     "Theorem 2 with the proved analyticity give the conclusion")
