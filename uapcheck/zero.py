"""Exact zero tests, cheaper than `sympy.simplify(e) == 0` and never weaker.

`is_zero(e)` answers whether e is identically zero in its free symbols:
- a rational function with rational coefficients (symbols and rationals joined by +, ·, integer
  powers) is zero exactly when `cancel` brings it to 0: cancel computes the reduced fraction in
  Q(x₁, …, x_k), so its answer is a decision, and simplify (which itself tries cancel and keeps
  the shortest form) can only agree;
- otherwise an expansion to 0 proves zero (expand applies only identities valid under the
  symbols' assumptions), and anything else is left to `sympy.simplify` as before.
So the answer is True whenever `simplify(e) == 0` was, and simplify runs only where the cheap tests
do not decide. Floats go straight to simplify (rounding could fake a cancellation).
"""
from __future__ import annotations

import sympy


def _rational_over_q(expr: sympy.Basic) -> bool:
    if expr.is_Symbol or expr.is_Rational:
        return True
    if expr.is_Add or expr.is_Mul:
        return all(_rational_over_q(arg) for arg in expr.args)
    if expr.is_Pow:
        return expr.exp.is_Integer and _rational_over_q(expr.base)
    return False


def is_zero(expr) -> bool:
    """True when `expr` is identically zero (see the module docstring for the tests used)."""
    if not isinstance(expr, sympy.Basic):
        return expr == 0
    if expr.is_Number:
        return bool(expr == 0)
    if not expr.has(sympy.Float):
        if _rational_over_q(expr):
            return sympy.cancel(expr) == 0
        if sympy.expand(expr) == 0:
            return True
    return sympy.simplify(expr) == 0


def _monomial(expr: sympy.Basic) -> bool:
    """A rational number times symbols to integer powers: c · s₁^k₁ ⋯ s_m^k_m."""
    factors = expr.args if expr.is_Mul else (expr,)
    return all(f.is_Rational or f.is_Symbol or (f.is_Pow and f.base.is_Symbol and f.exp.is_Integer)
               for f in factors)


def simplified(expr):
    """`sympy.simplify(expr)`, the same value, without the call where simplify has nothing to do:
    rational numbers and monomials c · s₁^k₁ ⋯ s_m^k_m come back unchanged from simplify (no
    rewrite is shorter), so they are returned as they are."""
    if isinstance(expr, sympy.Basic) and not expr.has(sympy.Float) and _monomial(expr):
        return expr
    return sympy.simplify(expr)
