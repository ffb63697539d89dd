"""High-precision checks for growth classes that exact arithmetic cannot settle (mpmath, 50 digits)."""
from __future__ import annotations

from typing import Optional

import sympy

DIGITS = 50
TS = (10 ** 4, 10 ** 8, 10 ** 16)


def _stable(expr: sympy.Expr) -> sympy.Expr:
    """log(1 + u) as log1p(u): softplus(−t) = log(1 + e^{−t}) at t = 10^16 is e^{−10^16}, which a
    sum 1 + e^{−10^16} cannot carry at any working precision; log1p evaluates it exactly."""
    from sympy.codegen.cfunctions import log1p

    def is_log_one_plus(e):
        return isinstance(e, sympy.log) and isinstance(e.args[0], sympy.Add) and sympy.Integer(1) in e.args[0].args
    return expr.replace(is_log_one_plus, lambda e: log1p(e.args[0] - 1))


def _value(expr: sympy.Expr, t: sympy.Symbol, at: int):
    import mpmath
    with mpmath.workdps(DIGITS):
        try:
            val = sympy.N(_stable(expr.xreplace({t: sympy.Integer(at)})), DIGITS)
        except OverflowError as exc:  # mpmath's float conversion of an exponent beyond range (exp(exp(...)))
            from .kernels import OutOfScope
            raise OutOfScope(f"the log-ratio at t = {at} is beyond the numeric range ({exc})") from None
        if not val.is_real or val.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            return None
        return mpmath.mpf(str(val)) if val.is_Float else mpmath.mpf(int(val)) if val.is_Integer else None


def growth_matches(log_ratio: sympy.Expr, t: sympy.Symbol, power, expected: Optional[sympy.Expr]) -> Optional[str]:
    """`log_ratio(t) / t^power` (or / log t) tends to a non-zero limit (equal to `expected` when given):
    checked at t = 10^4, 10^8, 10^16, the error shrinking and below 10^-3 at the last point.
    None when it matches, else the reason."""
    import mpmath
    scale = sympy.log(t) if power == "log" else t ** power
    errors = []
    with mpmath.workdps(DIGITS):
        for at in TS:
            v = _value(log_ratio / scale, t, at)
            if v is None:
                return f"log k(x, t z1) − log k(x, t z2) is not a finite real number at t = {at}"
            if expected is not None:
                target = mpmath.mpf(str(sympy.N(expected, DIGITS)))
                errors.append(abs(v - target))
            else:
                errors.append(v)
        if expected is None:
            last = errors[-1]
            if abs(last) < mpmath.mpf("1e-6") or abs(errors[-1] - errors[-2]) > abs(last) / 10:
                return "the growth does not settle to a non-zero coefficient"
            return None
        if errors[-1] > mpmath.mpf("1e-3") or errors[-1] > errors[0] + mpmath.mpf("1e-30"):
            return (f"log k(x, t z1) − log k(x, t z2) divided by the growth term does not approach "
                    f"{sympy.sstr(expected)} (error {mpmath.nstr(errors[-1], 5)} at t = 10^16)")
    return None


def sign_of_constant(value: sympy.Expr) -> Optional[int]:
    """The sign of a closed-form real constant: SymPy's exact answer, else 50 digits when the value is
    far from 0 (|v| > 10^-30); None when it cannot be told."""
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if value.is_zero:
        return 0
    v = sympy.N(value, DIGITS)
    if v.is_real and v.is_Float and abs(v) > sympy.Float("1e-30"):
        return 1 if v > 0 else -1
    return None
