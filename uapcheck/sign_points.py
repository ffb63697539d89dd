"""Exact values of a rational function at points its symbols' assumptions allow: which sign queries
SymPy's assumptions can never answer True.

If a rational function f (sums, products and integer powers of symbols and rational numbers) takes a
value ≤ 0 at a point where every symbol satisfies all of its assumptions, then `f.is_positive` cannot
be True: that would claim f > 0 at every such point. Likewise a value ≥ 0 rules out `is_negative`
and a non-zero value rules out `is_zero`. The values are computed exactly (quotients of Python ints), at a
fixed list of points, and a point counts only when every one of its numbers satisfies every
assumption of its symbol, checked by SymPy on the number itself (an integer symbol gets only
integers, a positive one only positive numbers). A point where f is undefined (a zero denominator)
is skipped.

This decides nothing: it only spares a query whose answer cannot be True, so a caller that asks
`not excluded.positive and expr.is_positive` gets the answer it would have got by asking (the
sign engine, uapcheck/asymptotics.py `sign_of`, and WP-POSITIVE's sign witnesses use it). Anything
other than a rational function of symbols with rational coefficients (a function, a Float, a
non-integer power) excludes nothing.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import sympy

from .memo import exact_cache

# The numbers tried for each symbol, in order; small integers first, so that a zero of a polynomial with small
# integer coefficients is often hit exactly.
CANDIDATES = tuple(Fraction(v) for v in (0, 1, -1, 2, -2, 3, -3, Fraction(1, 2), Fraction(-1, 2), 5, Fraction(1, 3)))
MAX_POINTS = 400  # points tried at most per expression


@dataclass(frozen=True)
class Excluded:
    """The queries whose answer cannot be True: `positive` (a value ≤ 0 was found), `negative` (a value ≥ 0),
    `zero` (a value ≠ 0)."""
    positive: bool = False
    negative: bool = False
    zero: bool = False

    @property
    def every(self) -> bool:
        return self.positive and self.negative and self.zero


NOTHING = Excluded()


class _NotRational(Exception):
    pass


def _compile(node: sympy.Basic, symbols: dict):
    """The expression as nested tuples for `_value`; _NotRational outside sums, products, integer powers,
    symbols and rational numbers."""
    if isinstance(node, sympy.Symbol):
        return ("s", symbols.setdefault(node, len(symbols)))
    if isinstance(node, sympy.Rational):
        return ("c", Fraction(int(node.p), int(node.q)), (int(node.p), int(node.q)))
    if isinstance(node, sympy.Add):
        return ("+", tuple(_compile(arg, symbols) for arg in node.args))
    if isinstance(node, sympy.Mul):
        return ("*", tuple(_compile(arg, symbols) for arg in node.args))
    if isinstance(node, sympy.Pow) and isinstance(node.exp, sympy.Integer):
        return ("^", _compile(node.base, symbols), int(node.exp))
    raise _NotRational


def _value(code, point: tuple) -> Fraction:
    """The exact value of `code` at `point` (numbers as Fractions): the reference `_pair_value` is compared with."""
    kind = code[0]
    if kind == "s":
        return point[code[1]]
    if kind == "c":
        return code[1]
    if kind == "+":
        return sum((_value(arg, point) for arg in code[1]), Fraction(0))
    if kind == "*":
        out = Fraction(1)
        for arg in code[1]:
            out *= _value(arg, point)
        return out
    base = _value(code[1], point)
    return base ** code[2]  # ZeroDivisionError for 0 to a negative power


def _pair_value(code, point: tuple) -> tuple[int, int]:
    """The value of `code` at `point` as an unreduced quotient (numerator, denominator) of Python ints with a
    non-zero denominator: the same number as `_value` (sums and products of quotients, integer powers, a zero base to
    a negative power a ZeroDivisionError), without a gcd per operation. `point` holds (numerator, denominator) pairs
    (`_as_pairs`). Only the sign and whether it is zero are read: numerator × denominator has the value's sign."""
    kind = code[0]
    if kind == "s":
        return point[code[1]]
    if kind == "c":
        return code[2]
    if kind == "+":
        num, den = 0, 1
        for arg in code[1]:
            n, d = _pair_value(arg, point)
            if d == den:
                num += n
            else:
                num, den = num * d + n * den, den * d
        return num, den
    if kind == "*":
        num, den = 1, 1
        for arg in code[1]:
            n, d = _pair_value(arg, point)
            num, den = num * n, den * d
        return num, den
    num, den = _pair_value(code[1], point)
    power = code[2]
    if power >= 0:
        return num ** power, den ** power
    if num == 0:
        raise ZeroDivisionError("0 to a negative power")
    return den ** -power, num ** -power


def _as_pairs(point: tuple) -> tuple:
    return tuple((v.numerator, v.denominator) for v in point)


@exact_cache(maxsize=256)
def _allowed(symbol: sympy.Symbol) -> tuple:
    """The candidate numbers that satisfy every assumption of `symbol` (SymPy's own facts about each number)."""
    facts = symbol.assumptions0
    out = []
    for v in CANDIDATES:
        number = sympy.Rational(v.numerator, v.denominator)
        if all(getattr(number, f"is_{name}") == value for name, value in facts.items()):
            out.append(v)
    return tuple(out)


@exact_cache(maxsize=1024)
def excluded(expr: sympy.Expr) -> Excluded:
    """Which of `is_positive`, `is_negative`, `is_zero` cannot be True for `expr` (see the module's docstring)."""
    symbols: dict = {}
    try:
        code = _compile(expr, symbols)
    except _NotRational:
        return NOTHING
    if not symbols:
        return NOTHING  # a number: SymPy answers at once
    choices = [_allowed(sym) for sym in symbols]
    if not all(choices):
        return NOTHING
    nonpositive = nonnegative = nonzero = False
    pairs = [_as_pairs(numbers) for numbers in choices]
    for point in itertools.islice(itertools.product(*pairs), MAX_POINTS):
        try:
            num, den = _pair_value(code, point)
        except ZeroDivisionError:
            continue
        sign = num if den > 0 else -num  # the value's sign (den ≠ 0)
        nonpositive = nonpositive or sign <= 0
        nonnegative = nonnegative or sign >= 0
        nonzero = nonzero or sign != 0
        if nonpositive and nonnegative and nonzero:
            break
    return Excluded(nonpositive, nonnegative, nonzero)

