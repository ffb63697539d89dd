"""Interval enclosures of a SymPy expression's value at exact rational values of its symbols, for the
numeric cross-check of the kernel limit (uapcheck/kernel_limit/numeric_check.py; docs/theory.md §19).

`enclose(expr, values, prec)` walks the expression tree and returns (lo, hi), two mpmath mpf values with
lo ≤ value ≤ hi, or None where it cannot tell. Every step uses mpmath's interval routines
(mpmath.libmp.libmpi) at the precision given as an argument, so nothing global (mpmath.mp.dps, the iv
context's precision) is read or changed: sums, products and integer powers are rounded outwards exactly;
exp, log and square roots are rounded outwards by mpmath and then widened by a few more units in the last
place (mpmath rounds them in the asked direction after guard bits; the widening covers a last-bit slip).

Nothing is guessed: a node the walker does not know, a symbol without a value, a logarithm or a square
root of an interval that reaches 0 or below, a division by an interval that contains 0, a Piecewise
condition or a Max/Min the intervals do not decide, an exponential of an argument beyond 2^4000, or an
infinite endpoint all give None, and the caller evaluates the exact way instead.
"""
from __future__ import annotations

from typing import Optional

import sympy
from mpmath.libmp import (finf, fnan, fninf, fone, from_int, from_man_exp, from_rational, fzero, mpf_add,
                          mpf_lt, mpf_mul, mpf_neg, mpf_sign, round_ceiling, round_floor)
from mpmath.libmp.libmpi import (mpi_abs, mpi_add, mpi_div, mpi_exp, mpi_log, mpi_mul, mpi_neg, mpi_pow_int,
                                 mpi_sqrt, mpi_sub)

Interval = tuple  # (lo, hi): raw mpmath mpf values, lo ≤ hi

MAX_EXP_BITS = 4000  # an exponential's argument beyond 2^4000 in absolute value is not evaluated


class _Undecided(Exception):
    """The walker cannot enclose this node: the caller goes the exact way."""


def enclose(expr: sympy.Basic, values: dict, prec: int) -> Optional[Interval]:
    """(lo, hi) with lo ≤ expr ≤ hi at `values` (symbol → sympy Integer or Rational), every step at
    `prec` bits, or None (see the module's docstring)."""
    try:
        return _finite(_walk(expr, values, prec))
    except (_Undecided, ZeroDivisionError, OverflowError, ValueError):
        return None


def _finite(iv: Interval) -> Interval:
    for end in iv:
        if end in (finf, fninf, fnan):
            raise _Undecided
    if mpf_lt(iv[1], iv[0]):
        raise _Undecided
    return iv


def _exact(num: sympy.Rational, prec: int) -> Interval:
    if num.q == 1:
        value = from_int(int(num.p))
        return value, value
    p, q = int(num.p), int(num.q)
    return from_rational(p, q, prec, round_floor), from_rational(p, q, prec, round_ceiling)


def _widen(iv: Interval, prec: int) -> Interval:
    """iv widened by 4 units in its last place at `prec` bits on each side (relative 2^(2 − prec))."""
    lo, hi = _finite(iv)
    return (mpf_add(lo, mpf_neg(_ulps(lo, prec)), prec, round_floor), mpf_add(hi, _ulps(hi, prec), prec, round_ceiling))


def _ulps(x, prec: int):
    if x == fzero:
        return fzero
    sign, man, exp, bc = x
    return from_man_exp(1, exp + bc - prec + 2)  # 4 units of the last place at prec bits


def _positive(iv: Interval) -> bool:
    return mpf_sign(iv[0]) > 0


def _exp(iv: Interval, prec: int) -> Interval:
    for end in iv:
        if end != fzero and end[2] + end[3] > MAX_EXP_BITS:
            raise _Undecided
    return _widen(mpi_exp(iv, prec), prec)


def log_enclosure(iv: Interval, prec: int) -> Optional[Interval]:
    """An interval of log x for x in `iv` (None unless iv is positive)."""
    try:
        return _log(iv, prec)
    except _Undecided:
        return None


def _log(iv: Interval, prec: int) -> Interval:
    if not _positive(iv):
        raise _Undecided
    return _widen(mpi_log(iv, prec), prec)


def _point(x, prec: int) -> Interval:
    return (x, x)


def _monotone(fn, iv: Interval, prec: int) -> Interval:
    """An increasing function on an interval: its lower end at the lower end, its upper end at the upper."""
    return fn(_point(iv[0], prec), prec)[0], fn(_point(iv[1], prec), prec)[1]


def _tanh_point(iv: Interval, prec: int) -> Interval:
    # tanh(x) = 1 − 2/(e^(2x) + 1), for x of either sign (e^(2x) has no cancellation with 1 added)
    two = from_int(2)
    e2x = _exp(mpi_mul(iv, (two, two), prec), prec)
    return mpi_sub((fone, fone), mpi_div((two, two), mpi_add(e2x, (fone, fone), prec), prec), prec)


def _sinh_point(iv: Interval, prec: int) -> Interval:
    e, em = _exp(iv, prec), _exp(mpi_neg(iv), prec)
    return mpi_mul(mpi_sub(e, em, prec), (from_man_exp(1, -1), from_man_exp(1, -1)), prec)


def _cosh(iv: Interval, prec: int) -> Interval:
    # cosh(x) = cosh(|x|), increasing in |x|
    a = mpi_abs(iv)
    e_lo, e_hi = _exp(_point(a[0], prec), prec), _exp(_point(a[1], prec), prec)
    em_lo, em_hi = _exp(_point(mpf_neg(a[0]), prec), prec), _exp(_point(mpf_neg(a[1]), prec), prec)
    half = from_man_exp(1, -1)
    lo = mpf_mul(mpf_add(e_lo[0], em_lo[0], prec, round_floor), half, prec, round_floor)
    hi = mpf_mul(mpf_add(e_hi[1], em_hi[1], prec, round_ceiling), half, prec, round_ceiling)
    return lo, hi


def _max(a: Interval, b: Interval) -> Interval:
    return (a[0] if mpf_lt(b[0], a[0]) else b[0]), (a[1] if mpf_lt(b[1], a[1]) else b[1])


def _min(a: Interval, b: Interval) -> Interval:
    return (a[0] if mpf_lt(a[0], b[0]) else b[0]), (a[1] if mpf_lt(a[1], b[1]) else b[1])


def _pow(base: Interval, exponent: sympy.Basic, values: dict, prec: int) -> Interval:
    if isinstance(exponent, sympy.Integer):
        n = int(exponent)
        if n < 0 and not (_positive(base) or mpf_sign(base[1]) < 0):
            raise _Undecided  # 1/x with x's interval reaching 0
        return _finite(mpi_pow_int(base, n, prec))
    if exponent == sympy.S.Half:
        if mpf_sign(base[0]) < 0:
            raise _Undecided
        return _widen(mpi_sqrt(base, prec), prec)
    if exponent == -sympy.S.Half:
        if not _positive(base):
            raise _Undecided
        root = _widen(mpi_sqrt(base, prec), prec)
        return _finite(mpi_div((fone, fone), root, prec))
    # b^e = exp(e log b) for b > 0
    return _exp(mpi_mul(_walk(exponent, values, prec), _log(base, prec), prec), prec)


_RELATIONS = {
    sympy.StrictGreaterThan: lambda lhs, rhs: _decide(rhs, lhs, strict=True),
    sympy.GreaterThan: lambda lhs, rhs: _decide(rhs, lhs, strict=False),
    sympy.StrictLessThan: lambda lhs, rhs: _decide(lhs, rhs, strict=True),
    sympy.LessThan: lambda lhs, rhs: _decide(lhs, rhs, strict=False),
}


def _decide(small: Interval, big: Interval, strict: bool) -> bool:
    """Whether small < big (strict) or small ≤ big for every value in the intervals; _Undecided when
    the intervals do not tell."""
    if mpf_lt(small[1], big[0]):
        return True
    if mpf_lt(big[1], small[0]) or (strict and small[0] == small[1] == big[0] == big[1]):
        return False
    if not strict and small[0] == small[1] == big[0] == big[1]:
        return True
    raise _Undecided


def _condition(cond: sympy.Basic, values: dict, prec: int) -> bool:
    if cond is sympy.true:
        return True
    if cond is sympy.false:
        return False
    relation = _RELATIONS.get(type(cond))
    if relation is None:
        raise _Undecided
    return relation(_walk(cond.lhs, values, prec), _walk(cond.rhs, values, prec))


def _walk(expr: sympy.Basic, values: dict, prec: int) -> Interval:  # noqa: C901 - one case per node kind
    if isinstance(expr, sympy.Rational):  # Integer, Rational and their singletons
        return _exact(expr, prec)
    if isinstance(expr, sympy.Symbol):
        value = values.get(expr)
        if not isinstance(value, sympy.Rational):
            raise _Undecided
        return _exact(value, prec)
    if isinstance(expr, sympy.Add):
        total = _walk(expr.args[0], values, prec)
        for arg in expr.args[1:]:
            total = mpi_add(total, _walk(arg, values, prec), prec)
        return _finite(total)
    if isinstance(expr, sympy.Mul):
        product = _walk(expr.args[0], values, prec)
        for arg in expr.args[1:]:
            product = mpi_mul(product, _walk(arg, values, prec), prec)
        return _finite(product)
    if isinstance(expr, sympy.Pow):
        return _pow(_walk(expr.base, values, prec), expr.exp, values, prec)
    if isinstance(expr, sympy.exp):
        return _exp(_walk(expr.args[0], values, prec), prec)
    if isinstance(expr, sympy.log) and len(expr.args) == 1:
        return _log(_walk(expr.args[0], values, prec), prec)
    if isinstance(expr, sympy.tanh):
        return _monotone(_tanh_point, _walk(expr.args[0], values, prec), prec)
    if isinstance(expr, sympy.sinh):
        return _monotone(_sinh_point, _walk(expr.args[0], values, prec), prec)
    if isinstance(expr, sympy.cosh):
        return _cosh(_walk(expr.args[0], values, prec), prec)
    if isinstance(expr, sympy.Abs):
        return mpi_abs(_walk(expr.args[0], values, prec))
    if isinstance(expr, (sympy.Max, sympy.Min)):
        pick = _max if isinstance(expr, sympy.Max) else _min
        out = _walk(expr.args[0], values, prec)
        for arg in expr.args[1:]:
            out = pick(out, _walk(arg, values, prec))
        return out
    if isinstance(expr, sympy.Piecewise):
        for piece, cond in expr.args:
            if _condition(cond, values, prec):
                return _walk(piece, values, prec)
        raise _Undecided  # no piece applies: undefined there
    raise _Undecided
