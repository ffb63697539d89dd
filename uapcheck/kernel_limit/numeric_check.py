"""The numeric cross-check of the kernel limit: log k(x,tz₁) − log k(x,tz₂) evaluated at large t with
high precision and compared with the growing part (or the finite limit) the analysis derived.

The check is numeric and never proves anything; a disagreement that persists makes the rule's step
undecided (uapcheck/rules/limit.py), and the check itself never raises.
"""
from __future__ import annotations

from typing import Optional

import sympy
from mpmath.libmp import (dps_to_prec, fone, from_man_exp, from_rational, mpf_add, mpf_gt, mpf_lt, mpf_mul, mpf_shift,
                          mpf_sign, mpf_sub, round_ceiling, round_floor)
from mpmath.libmp.libmpi import mpi_abs, mpi_div, mpi_sub

from ..budget import BudgetExceeded, time_limit
from ..certificates import RegionStatus
from ..memo import exact_cache
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import SCALE as t, ZETA, ClosedKernel, FeatureKernel, KernelModel
from .analysis import RegionResult, invariants_at
from .enclosures import enclose, log_enclosure

CROSS_CHECK_STEPS = 4  # t = T, T·10⁶, T·10¹², T·10¹⁸ with T = 10⁶ · (the largest constant)


class _Point:
    """k(x, t z) at the 1-dimensional query x and key z, t left free: the model's formula and the values of its
    invariants there. The formula with the values substituted exactly (`exact`) is made only when the numeric
    evaluation of the formula with the values beside it (`_log_beside`) does not give the number: SymPy builds
    and evaluates the substituted tree anew (exp and sqrt of the new arguments), most of the check's time."""

    def __init__(self, model: KernelModel, x: int, z: int):
        inv = invariants_at(model, x, z)
        expr = model.scaled if isinstance(model, ClosedKernel) else model.term
        if isinstance(model, FeatureKernel) and model.index == "landmark":
            expr = model.key  # the landmark coefficient cancels in the ratio
            inv = dict(inv)
            inv[ZETA] = sympy.Integer(1)
        self.formula, self.values = expr, inv
        self._exact: Optional[sympy.Expr] = None

    @property
    def exact(self) -> sympy.Expr:
        if self._exact is None:
            self._exact = self.formula.xreplace(self.values)
        return self._exact


def _log_k(point: _Point, tval, digits: int = 40):
    """log k(x, t z) at t = tval (the params at their sample values), to `digits` digits (made once per point:
    only t changes between the check's evaluations)."""
    value = _log_beside(point, tval, digits)
    if value is not None:
        return value
    at_point = point.exact
    value = _log_numerically(at_point, tval, digits)
    if value is not None:
        return value
    val = at_point.xreplace({t: tval})
    return sympy.log(val).xreplace(_sample_params(val)).evalf(digits)


def _log_beside(point: _Point, tval, digits: int) -> Optional[sympy.Float]:
    """`_log_numerically` of the point's formula with the invariants' values given to evalf beside t and the
    params, instead of substituted first: evalf of the same function at the same exact arguments, to `digits`
    correct digits (`strict=True`). None where the formula has an exponential nested in another (the
    substituted one then has one too, or fewer: it goes the way `_log_numerically` decides) and wherever
    `_log_numerically` would answer None of it (an exact 0, ±∞, a complex value, a failure); the caller then
    substitutes and evaluates as before."""
    if _nested_growth(point.formula):
        return None
    params = {sym: val for sym, val in _sample_params(point.formula).items()
              if sym != t and sym not in point.values}
    try:
        value = sympy.log(point.formula, evaluate=False).evalf(
            digits, subs={**point.values, t: tval, **params}, strict=True)
    except (BudgetExceeded, MemoryError):
        raise
    except Exception:  # noqa: BLE001 - PrecisionExhausted or any failure: the substituted formula decides
        return None
    if isinstance(value, sympy.Float) and value.is_finite and value != 0:
        return value
    return None


def _log_numerically(at_point: sympy.Expr, tval, digits: int) -> Optional[sympy.Float]:
    """log of `at_point` at t = tval by evalf with the values substituted numerically, or None.

    The same number as substituting exactly first (SymPy then evaluates exp, log and powers of the
    huge t symbolically, about three quarters of the check's time) and evaluating after: both are
    evalf of one expression, and `strict=True` makes evalf raise instead of returning fewer than
    `digits` correct digits. Only a finite non-zero real is taken. Anything else (an exact 0, ±∞, a
    complex value, a failure) is None, and the caller evaluates the exact way, as before: an exact 0
    there can be a value below evalf's resolution that the exact route resolves after simplifying
    (log(exp(exp(−t))) is exp(−t) there, about 10^(−434) at t = 10³). An exponential nested in
    another (`_nested_growth`) goes the exact way without being tried."""
    if _nested_growth(at_point):
        return None
    params = {sym: val for sym, val in _sample_params(at_point).items() if sym != t}
    try:
        value = sympy.log(at_point, evaluate=False).evalf(digits, subs={t: tval, **params}, strict=True)
    except (BudgetExceeded, MemoryError):
        raise
    except Exception:  # noqa: BLE001 - PrecisionExhausted or any failure: the exact way decides
        return None
    if isinstance(value, sympy.Float) and value.is_finite and value != 0:
        return value
    return None


_GROWING = (sympy.exp, sympy.sinh, sympy.cosh)


def _grows_in_t(node) -> bool:
    """An exponential of something in t: exp, sinh, cosh, or a power with t in its exponent."""
    if isinstance(node, _GROWING):
        return t in node.args[0].free_symbols
    return isinstance(node, sympy.Pow) and t in node.exp.free_symbols


def _nested_growth(expr: sympy.Expr) -> bool:
    """Whether an exponential in t sits inside another one's argument (exp(exp(t))): its value at
    t = 10⁶ has an exponent of 10⁴³⁴²⁹⁴ digits, beyond numeric evaluation, where the exact route
    first simplifies log(exp(y)) to y."""
    for node in sympy.preorder_traversal(expr):
        if _grows_in_t(node):
            inner = node.args[0] if isinstance(node, _GROWING) else node.exp
            if any(_grows_in_t(sub) for sub in sympy.preorder_traversal(inner)):
                return True
    return False


def _sample_params(expr) -> dict:
    """One admissible value per declared param (the cross-check is numeric, the proof is not)."""
    out = {}
    for sym in expr.free_symbols:
        if sym.is_integer:
            out[sym] = sympy.Integer(3)
        elif sym.is_positive or sym.is_nonnegative or sym.is_nonzero or sym.is_real:
            out[sym] = sympy.Rational(3, 2)
    return out


def _scale_of_constants(model: KernelModel) -> sympy.Integer:
    """A power of ten at least the largest constant of the kernel (and at least 1): the expansion's
    lower-order terms are relatively O(constant / t), so t is chosen as 10⁶ times this."""
    exprs = [model.scaled] if isinstance(model, ClosedKernel) else [e for part in model.parts for e in part]
    biggest = sympy.Integer(1)
    for expr in exprs:
        for num in expr.atoms(sympy.Rational):
            for part in (abs(num.p), abs(num.q)):
                if part > biggest:
                    biggest = sympy.Integer(part)
    from ..bignum import digits
    return sympy.Integer(10) ** min(digits(int(biggest)) - 1, 200)


class _Enclosure:
    """lo ≤ A ≤ hi for every value A the exact route can compute for a log-ratio at `digits` digits.

    The true log-ratio D = L₁ − L₂ (Lᵢ = log k(x, t zᵢ)) lies in the interval made by
    uapcheck/kernel_limit/enclosures.py; the exact route's number is D up to evalf's error, at most
    10^(10 − digits)·|Lᵢ| for each log (evalf promises `digits` correct digits), and the rounding of the
    difference; (lo, hi) is D's interval widened by all of that. The printed value (12 digits, rounded to
    nearest by SymPy) is the same for every number in (lo, hi) when lo and hi print the same (rounding is
    monotone), and so is a comparison whose both sides agree over the whole interval."""

    def __init__(self, lo, hi, digits: int):
        self.lo, self.hi, self.digits = lo, hi, digits

    def shown(self):
        try:
            return self._shown()
        except (BudgetExceeded, MemoryError):
            raise
        except Exception:  # noqa: BLE001 - anything unforeseen: the exact route decides
            return _UNDECIDED

    def beyond(self, kind: str, ref, bound) -> object:
        """abs(A / ref − 1) > bound ("ratio") or abs(A − ref) > bound ("difference") for every A in
        the enclosure and every rounding of SymPy's Float arithmetic on the way, else _UNDECIDED."""
        try:
            return self._beyond(kind, ref, bound)
        except (BudgetExceeded, MemoryError):
            raise
        except Exception:  # noqa: BLE001 - anything unforeseen: the exact route decides
            return _UNDECIDED

    def _shown(self):
        lo = sympy.Float(sympy.Float._new(self.lo, max(self.lo[3], 1)), 12)
        hi = sympy.Float(sympy.Float._new(self.hi, max(self.hi[3], 1)), 12)
        if type(lo) is not sympy.Float or type(hi) is not sympy.Float or lo._mpf_ != hi._mpf_:
            return _UNDECIDED
        return lo

    def _beyond(self, kind: str, ref, bound) -> object:
        if not isinstance(ref, sympy.Float) or ref == 0:
            return _UNDECIDED
        prec = _working_precision(self.digits)
        ref_iv = (ref._mpf_, ref._mpf_)
        if kind == "ratio":
            value = mpi_sub(mpi_div((self.lo, self.hi), ref_iv, prec), (fone, fone), prec)
        else:
            value = mpi_sub((self.lo, self.hi), ref_iv, prec)
        # SymPy rounds the quotient (or difference) and the subtraction of 1 at the Floats' precision,
        # at least that of `digits` digits: 2^(4 − that) of the magnitudes involved covers both
        slack = _scaled(_magnitude_bound(value, ref_iv, (self.lo, self.hi)), 4 - _float_bits(self.digits))
        low, high = mpi_abs(value)
        low, high = mpf_sub(low, slack, prec, round_floor), mpf_add(high, slack, prec, round_ceiling)
        b_lo, b_hi = from_rational(int(bound.p), int(bound.q), prec, round_floor), \
            from_rational(int(bound.p), int(bound.q), prec, round_ceiling)
        if mpf_gt(low, b_hi):
            return True
        if mpf_lt(high, b_lo):
            return False
        return _UNDECIDED


def _float_bits(digits: int) -> int:
    """The binary precision of a SymPy Float of `digits` decimal digits."""
    return dps_to_prec(digits)


def _working_precision(digits: int) -> int:
    return dps_to_prec(digits) + 32


def _scaled(x, bits: int):
    """x · 2^bits (exact)."""
    return mpf_shift(x, bits)


def _magnitude_bound(*intervals):
    """An upper bound of 1 + the absolute values in the intervals (a power of two)."""
    biggest = 1
    for lo, hi in intervals:
        for end in (lo, hi):
            if end[1]:
                biggest = max(biggest, end[2] + end[3] + 1)
    return from_man_exp(1, biggest + 1)


def _log_enclosure(point: "_Point", tval, prec: int):
    """An interval of log k(x, t z) at t = tval (the params at their sample values), or None where the
    exact route is needed: an exponential nested in another, a symbol without a value, a value the
    interval does not keep away from 0 in the log (log k = 0 is where the exact route may print an
    exact 0), or anything `enclosures.enclose` declines."""
    if _nested_growth(point.formula):
        return None
    params = {sym: val for sym, val in _sample_params(point.formula).items()
              if sym != t and sym not in point.values}
    value = enclose(point.formula, {**point.values, t: tval, **params}, prec)
    out = None if value is None else log_enclosure(value, prec)
    if out is None or mpf_sign(out[0]) != mpf_sign(out[1]) or mpf_sign(out[0]) == 0:
        return None
    return out


def _enclosed_log_ratio(k1: "_Point", k2: "_Point", tval, digits: int):
    """The log-ratio at t = tval as an `_Enclosure` of every number the exact route may give, or
    _UNDECIDED when an enclosure cannot be made."""
    prec = _working_precision(digits)
    try:
        l1 = _log_enclosure(k1, tval, prec)
        l2 = None if l1 is None else _log_enclosure(k2, tval, prec)
        if l1 is None or l2 is None:
            return _UNDECIDED
        lo, hi = mpi_sub(l1, l2, prec)
        # evalf's error on each log (10^(10 − digits) of its size, generously) and the difference's rounding
        slack = mpf_mul(_magnitude_bound(l1, l2, (lo, hi)),
                        from_rational(1, 10 ** (digits - 10), prec, round_ceiling), prec, round_ceiling)
        return _Enclosure(mpf_sub(lo, slack, prec, round_floor), mpf_add(hi, slack, prec, round_ceiling), digits)
    except (BudgetExceeded, MemoryError):
        raise
    except Exception:  # noqa: BLE001 - anything unforeseen in the enclosures: the exact route decides
        return _UNDECIDED


@exact_cache()  # a function of the model alone: computed once per batch
def cross_check(model: KernelModel, result: RegionResult) -> dict:
    """Evaluate log k(x,tz₁) − log k(x,tz₂) at large t with high precision and compare it with the
    growing part the rules derived (or with the finite limit they derived).

    t starts at 10⁶ times the kernel's largest constant (so a constant such as the 10⁹ of
    elu(x) + 10⁹ cannot dominate) and grows by 10⁶ while the numbers disagree. A disagreement that
    persists is returned with "agrees": False and the numbers; the rule then reports its step
    undecided. It never raises: a numeric check cannot turn a derivation into an internal error.

    The log-ratios are first taken from interval enclosures (`_Enclosure`); where an enclosure does
    not decide a printed digit or a comparison, the whole check goes the exact way (evalf), which
    gives the same dict (docs/theory.md §19)."""
    wit = result.witness or {}
    point = wit.get("first", wit)
    if "x" not in point:
        return {"skipped": "no witness point"}
    x, z1, z2 = point["x"][0], point["z1"][0], point["z2"][0]
    if isinstance(model, FeatureKernel) and model.index == "landmark":
        return {"skipped": "landmark sums are checked through their key factor only"}
    g = result.growth
    base = sympy.Integer(10) ** 6 * _scale_of_constants(model)
    try:
        with time_limit("the numeric cross-check of the kernel limit", 10.0):
            k1, k2 = _Point(model, x, z1), _Point(model, x, z2)
            for log_ratio in (_enclosed_log_ratio, _log_ratio):
                out = _run_check(model, result, g, wit, x, z1, z2, base, k1, k2, log_ratio)
                if out is not _UNDECIDED:
                    return out
    except (TypeError, ValueError, ZeroDivisionError, BudgetExceeded, ArithmeticError) as exc:
        return {"skipped": f"numeric evaluation failed: {exc}"}
    raise AssertionError("the exact route decides every check")  # pragma: no cover


_UNDECIDED = object()  # an enclosure too wide for a printed digit or a comparison: go the exact way


def _run_check(model, result, g, wit, x, z1, z2, base, k1: "_Point", k2: "_Point", log_ratio):
    """The check's dict with the log-ratios from `log_ratio` (an exact Float, or an `_Enclosure` that may
    leave a printed digit or a comparison undecided: then _UNDECIDED)."""
    out: dict = {"x": x, "z1": z1, "z2": z2, "values": {}}
    small = base / sympy.Integer(10) ** 3
    digits = 40 + 2 * len(str(base))
    shown = _shown(log_ratio(k1, k2, small, digits))
    if shown is _UNDECIDED:
        return _UNDECIDED
    out["values"][f"t = {small}"] = shown
    for step in range(CROSS_CHECK_STEPS):
        big = base * sympy.Integer(10) ** (6 * step)
        digits = 40 + 2 * len(str(big))
        actual = log_ratio(k1, k2, big, digits)
        shown = _shown(actual)
        if shown is _UNDECIDED:
            return _UNDECIDED
        out["values"][f"t = {big}"] = shown
        mismatch = _cross_check_mismatch(model, result, g, wit, x, z1, z2, big, actual, digits, out)
        if mismatch is _UNDECIDED:
            return _UNDECIDED
        if mismatch is None:
            out["agrees"] = True
            return out
    out["agrees"] = False
    out["disagreement"] = mismatch
    return out


def _log_ratio(k1: "_Point", k2: "_Point", tval, digits: int):
    """log k(x, t z₁) − log k(x, t z₂) at t = tval, evaluated to `digits` digits (the exact route)."""
    return _log_k(k1, tval, digits) - _log_k(k2, tval, digits)


def _cross_check_mismatch(model, result, g, wit, x, z1, z2, big, actual, digits, out):
    """None if the value at t = big agrees with the derivation, else what disagrees (_UNDECIDED where an
    enclosure does not tell)."""
    if result.status.holds:
        s1, s2 = invariants_at(model, x, z1), invariants_at(model, x, z2)
        predicted = sum((co.xreplace(s1) - co.xreplace(s2)) * big ** al for al, co in g.E) + \
            (g.p.xreplace(s1) - g.p.xreplace(s2)) * sympy.log(big)
        predicted = sympy.Float(predicted.xreplace(_sample_params(predicted)).evalf(digits), 12)
        out["predicted growing part at t = 10^6" if big == 10 ** 6 else f"predicted growing part at t = {big}"] = predicted
        off = True if predicted == 0 else _beyond(actual, "ratio", predicted, sympy.Rational(1, 10))
        if off is _UNDECIDED:
            return _UNDECIDED
        if off:
            return (f"at x={x}, z1={z1}, z2={z2}, t = {sympy.sstr(big)}: log-ratio {_shown(actual)} "
                    f"but the derived growing part is {predicted}")
    elif result.status is RegionStatus.FAILS and "limit of the ratio" in wit:
        lim = wit["limit of the ratio"]
        target = sympy.log(lim).xreplace(_sample_params(lim)).evalf(40) if lim != 0 else None
        out["derived limit of the log-ratio"] = target
        off = False if target is None else _beyond(actual, "difference", target, sympy.Rational(1, 100))
        if off is _UNDECIDED:
            return _UNDECIDED
        if off:
            return (f"at x={x}, z1={z1}, z2={z2}, t = {sympy.sstr(big)}: log-ratio {_shown(actual)} "
                    f"but the derived limit is log({lim}) = {target}")
    return None


def _shown(actual):
    """The log-ratio as the check prints it: to 12 digits."""
    if actual is _UNDECIDED:
        return _UNDECIDED
    if isinstance(actual, _Enclosure):
        return actual.shown()
    return sympy.Float(actual, 12)


def _beyond(actual, kind: str, ref, bound) -> object:
    """abs(actual / ref − 1) > bound ("ratio") or abs(actual − ref) > bound ("difference"), computed
    on the exact route's Float; for an enclosure, the answer every value in it gives, or _UNDECIDED."""
    if isinstance(actual, _Enclosure):
        return actual.beyond(kind, ref, bound)
    if kind == "ratio":
        return bool(abs(actual / ref - 1) > bound)
    return bool(abs(actual - ref) > bound)


def disagreeing(checks) -> list:
    items = checks if isinstance(checks, list) else [checks]
    return [c for c in items if isinstance(c, dict) and c.get("agrees") is False]
