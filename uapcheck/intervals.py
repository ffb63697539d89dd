"""Rigorous interval enclosures of a SymPy expression at an exact rational point (mpmath.iv).

`enclose(expr, point, bits)` returns an mpmath.iv interval that contains the real value of `expr`
at `point` (a map from each free symbol to a Rational), or raises NotEnclosable when the expression
leaves what is evaluated here. mpmath's interval arithmetic rounds every endpoint outwards, so the
true value lies in the interval; the functions mpmath.iv lacks are built from monotone pieces of
the ones it has (tanh(x) = 1 − 2/(e^{2x} + 1) with one occurrence of e^{2x}, so the enclosure stays
rigorous). Only real values are evaluated: a logarithm, a square root or a non-integer power needs
a base interval > 0, and anything else (complex branches, Piecewise with a condition that is not an
exact rational comparison, unknown functions) is refused rather than guessed.

Used by zero.is_zero: an interval that excludes 0 proves the expression non-zero at that point, so
it is not identically zero.
"""
from __future__ import annotations

import sympy


class NotEnclosable(ValueError):
    """The expression uses something this evaluation does not enclose rigorously."""


def enclose(expr: sympy.Basic, point: dict, bits: int = 80):
    """An mpmath.iv interval containing expr's value at `point` (computed at `bits` bits)."""
    import mpmath
    iv = mpmath.iv
    saved = iv.prec
    iv.prec = bits
    try:
        return _walk(expr, point, iv)
    except (ArithmeticError, TypeError, AttributeError) as exc:  # mpmath's ComplexResult among them
        raise NotEnclosable(str(exc)) from exc
    finally:
        iv.prec = saved


def excludes_zero(x) -> bool:
    """The interval lies strictly on one side of 0 (NaN endpoints compare false: not excluded)."""
    return bool(x.a > 0 or x.b < 0)


def _positive(x) -> bool:
    return bool(x.a > 0)


def _rational(e: sympy.Basic, point: dict) -> bool:
    """e at the point is a rational number computed exactly (symbols and rationals, +, ·, integer powers)."""
    if e.is_Rational or (e.is_Symbol and e in point):
        return True
    if e.is_Add or e.is_Mul:
        return all(_rational(arg, point) for arg in e.args)
    if e.is_Pow:
        return e.exp.is_Integer and _rational(e.base, point)
    return False


#: the widest exponent enclosed: mpmath computes e^x with a mantissa of about |x| bits, so exp(exp(exp(x · y))) at
#: x · y = 9 (an exponent of about 10^3519) ran out of memory at once; beyond this the value is not enclosed
MAX_EXPONENT = 1 << 20


def _exp(x, iv):
    if not (abs(x.a) <= MAX_EXPONENT and abs(x.b) <= MAX_EXPONENT):  # NaN endpoints are refused too
        raise NotEnclosable(f"an exponential of an argument beyond ±{MAX_EXPONENT:,}")
    return iv.exp(x)


def _walk(e: sympy.Basic, point: dict, iv):  # noqa: C901 - one branch per kind of node
    if e.is_Symbol:
        if e not in point:
            raise NotEnclosable(f"no value for {e}")
        value = point[e]
        return iv.mpf(int(value.p)) / iv.mpf(int(value.q))
    if e.is_Integer:
        return iv.mpf(int(e))
    if e.is_Rational:
        return iv.mpf(int(e.p)) / iv.mpf(int(e.q))
    if e is sympy.pi:
        return iv.pi
    if e is sympy.E:
        return iv.e
    if e.is_Add or e.is_Mul:
        parts = [_walk(x, point, iv) for x in e.args]
        out = parts[0]
        for x in parts[1:]:
            out = out + x if e.is_Add else out * x
        return out
    if e.is_Pow:
        base = _walk(e.base, point, iv)
        if e.exp.is_Integer:
            k = int(e.exp)
            if k < 0 and not excludes_zero(base):
                raise NotEnclosable("a negative power of an interval that contains 0")
            return base ** k
        if e.exp.is_Rational and _positive(base):
            if e.exp == sympy.Rational(1, 2):
                return iv.sqrt(base)
            return _exp(_walk(e.exp, point, iv) * iv.log(base), iv)
        if e.base is sympy.E:
            return _exp(_walk(e.exp, point, iv), iv)
        raise NotEnclosable("a power that is not real-valued on this point")
    if isinstance(e, sympy.exp):
        return _exp(_walk(e.args[0], point, iv), iv)
    if isinstance(e, sympy.log):
        arg = _walk(e.args[0], point, iv)
        if not _positive(arg):
            raise NotEnclosable("the logarithm of an interval that is not > 0")
        return iv.log(arg)
    if isinstance(e, (sympy.sin, sympy.cos)):
        f = iv.sin if isinstance(e, sympy.sin) else iv.cos
        return f(_walk(e.args[0], point, iv))
    if isinstance(e, (sympy.tanh, sympy.sinh, sympy.cosh)):
        x = _walk(e.args[0], point, iv)
        if isinstance(e, sympy.tanh):
            return 1 - 2 / (_exp(2 * x, iv) + 1)  # e^{2x} occurs once: a rigorous, tight enclosure
        y = _exp(x, iv)
        return (y - 1 / y) / 2 if isinstance(e, sympy.sinh) else (y + 1 / y) / 2
    if isinstance(e, sympy.Abs):
        x = _walk(e.args[0], point, iv)
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return iv.mpf([0, max(-x.a, x.b)])
    if isinstance(e, (sympy.Max, sympy.Min)):
        parts = [_walk(x, point, iv) for x in e.args]
        pick = max if isinstance(e, sympy.Max) else min
        return iv.mpf([pick(x.a for x in parts), pick(x.b for x in parts)])
    if isinstance(e, sympy.Piecewise):
        for value, condition in e.args:
            decided = _condition(condition, point)
            if decided:
                return _walk(value, point, iv)
        raise NotEnclosable("no branch of the Piecewise is decided exactly at this point")
    raise NotEnclosable(f"no interval evaluation for {e.func}")


def _condition(condition: sympy.Basic, point: dict) -> bool:
    """True / False for a Piecewise condition decided exactly at the point (True itself, or a
    comparison of two rational expressions); NotEnclosable otherwise."""
    if condition is sympy.true:
        return True
    if isinstance(condition, sympy.core.relational.Relational) and all(
            _rational(side, point) for side in condition.args):
        value = condition.xreplace(point)
        if value in (sympy.true, sympy.false):
            return bool(value)
    raise NotEnclosable("a Piecewise condition that is not an exact rational comparison")
