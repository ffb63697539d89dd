"""Exact zero tests, cheaper than `sympy.simplify(e) == 0` and never weaker.

`is_zero(e)` answers whether e is identically zero in its free symbols:
- a polynomial with rational coefficients is zero exactly when its expansion is 0 (expanded, it
  is a sum of distinct monomials with non-zero coefficients);
- a rational function with rational coefficients (symbols and rationals joined by +, ·, integer
  powers) is zero exactly when `cancel` brings it to 0: cancel computes the reduced fraction in
  Q(x₁, …, x_k), so its answer is a decision, and simplify (which itself tries cancel and keeps
  the shortest form) can only agree;
- otherwise an expansion to 0 proves zero (expand applies only identities valid under the
  symbols' assumptions); a value at an admissible integer point (one that satisfies every
  assumption on the symbols) that is an exact non-zero rational, or whose rigorous interval
  enclosure (uapcheck/intervals.py, mpmath.iv with outward rounding) excludes 0, proves non-zero;
  anything else is left to `sympy.simplify` as before;
- an expression in exponentials exp(c·g) of one g (c rational) that `cancel` brings to 0 once they
  are written as powers of Y = exp(g/L) is zero (docs/theory.md §19, case 4).
So the answer is True whenever `simplify(e) == 0` was, and simplify runs only where the cheap tests
do not decide. Floats go straight to simplify (rounding could fake a cancellation).
"""
from __future__ import annotations

import sympy

from .intervals import NotEnclosable, enclose, excludes_zero
from .memo import exact_cache


def _rational_over_q(expr: sympy.Basic, polynomial: bool = False) -> bool:
    """Symbols and rationals joined by +, · and integer powers (non-negative ones if `polynomial`)."""
    if expr.is_Symbol or expr.is_Rational:
        return True
    if expr.is_Add or expr.is_Mul:
        return all(_rational_over_q(arg, polynomial) for arg in expr.args)
    if expr.is_Pow:
        return (expr.exp.is_Integer and (not polynomial or expr.exp >= 0)
                and _rational_over_q(expr.base, polynomial))
    return False


@exact_cache(maxsize=1024)  # a function of the expression alone: rules and certificate checks ask again
def is_zero(expr) -> bool:
    """True when `expr` is identically zero (see the module docstring for the tests used)."""
    if not isinstance(expr, sympy.Basic):
        return expr == 0
    if expr.is_Number:
        return bool(expr == 0)
    if not expr.has(sympy.Float):
        if _rational_over_q(expr, polynomial=True):
            # Expanded, a polynomial is a sum of distinct monomials: zero exactly when it is 0.
            return sympy.expand(expr) == 0
        if _rational_over_q(expr):
            return sympy.cancel(expr) == 0
        if sympy.expand(expr) == 0:
            return True
        if _zero_in_one_exponential(expr):
            return True
        if _non_zero_somewhere(expr):
            return False
    return sympy.simplify(expr) == 0


def _zero_in_one_exponential(expr: sympy.Expr) -> bool:
    """True when every exponential in expr is exp(c·g) with c rational and one g for all, and expr
    written in Y = exp(g/L) (L the common denominator of the c; exp(c·g) = Y^(c·L) for any g, c·L an
    integer) is a rational function over Q that `cancel` brings to 0: then expr is 0 wherever it is
    defined. (sigmoid's 1/(e^a + 1) + 1/(1 + e^(−a)) − 1: simplify spent 5–50 ms on each.) False
    decides nothing."""
    exps = expr.atoms(sympy.exp)
    if not exps:
        return False
    base = None
    powers = []
    for e in exps:
        c, g = e.args[0].as_coeff_Mul()
        if not c.is_Rational or (base is not None and g != base):
            return False
        base = g
        powers.append(c)
    common = sympy.ilcm(*[c.q for c in powers]) if len(powers) > 1 else powers[0].q
    y = sympy.Dummy("Y", positive=True)
    written = expr.xreplace({e: y ** int(c * common) for e, c in zip(exps, powers)})
    if written.has(sympy.exp) or not _rational_over_q(written):
        return False
    return sympy.cancel(written) == 0


# Values tried for the symbols: perfect squares first, so that square roots evaluate exactly.
_CANDIDATES = (4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, -4, -9, -16, 1, 2, 3, 0)
_POINTS = 3


def _admissible(symbol: sympy.Symbol, value: sympy.Integer) -> bool:
    """The value has every property the symbol's assumptions state (positive, integer, ...)."""
    return all(getattr(value, f"is_{fact}", None) == truth for fact, truth in symbol.assumptions0.items())


def _non_zero_somewhere(expr: sympy.Expr) -> bool:
    """True when expr is non-zero at an admissible integer point, shown by an exact non-zero
    rational value or by an interval enclosure of its real value that excludes 0: then it is not
    identically zero (and simplify, an equivalence, cannot bring it to 0). False means only that no
    such point was found."""
    symbols = sorted(expr.free_symbols, key=sympy.default_sort_key)
    if not symbols or not all(isinstance(s, sympy.Symbol) for s in symbols):
        return False
    choices = [[sympy.Integer(v) for v in _CANDIDATES if _admissible(s, sympy.Integer(v))] for s in symbols]
    if not all(choices):
        return False
    for shift in range(_POINTS):
        point = {s: values[(i + shift * len(symbols)) % len(values)]
                 for i, (s, values) in enumerate(zip(symbols, choices))}
        value = expr.xreplace(point)
        if value.is_Rational:
            if value != 0:
                return True
            continue
        try:
            if excludes_zero(enclose(expr, point)):
                return True
        except NotEnclosable:
            continue
    return False


def _monomial(expr: sympy.Basic) -> bool:
    """A rational number times symbols to integer powers: c · s₁^k₁ ⋯ s_m^k_m."""
    factors = expr.args if expr.is_Mul else (expr,)
    return all(f.is_Rational or f.is_Symbol or (f.is_Pow and f.base.is_Symbol and f.exp.is_Integer)
               for f in factors)


def _linear(expr: sympy.Basic) -> bool:
    """An affine form c₀ + c₁ s₁ + ⋯ + c_m s_m with rational coefficients (a bound's difference: 1 − w, 4k + 2)."""
    return expr.is_Add and all(t.is_Rational or _monomial(t) and len(t.free_symbols) == 1 and t.as_coeff_Mul()[1].is_Symbol
                               for t in expr.args)


@exact_cache(maxsize=1024)  # a function of its argument alone: the same closed forms are simplified over a batch
def simplified(expr):
    """`sympy.simplify(expr)`, the same value, without the call where simplify has nothing to do:
    rational numbers, monomials c · s₁^k₁ ⋯ s_m^k_m and their exponentials, and affine forms c₀ + Σ c_k s_k with
    rational coefficients come back unchanged from simplify (no rewrite is shorter), so they are returned as they are
    (tests/test_zero_tests.py compares the two on random monomials and affine forms)."""
    if isinstance(expr, sympy.Basic) and not expr.has(sympy.Float) and (
            _monomial(expr) or _linear(expr) or (isinstance(expr, sympy.exp) and _monomial(expr.args[0]))):
        return expr
    return sympy.simplify(expr)
