"""Bounds on the size of SymPy's `expand` and `factor` of an expression, read from its tree without expanding it.

A kernel such as `(1 + x · y)^50` is small as written, but written through |x − z|² its expansion has C(53, 3) =
23,426 terms (half a minute of SymPy), and `(x · y)^999` beside `exp(x)` is a polynomial of degree 999 that
`factor` cannot split within any budget. Work in proportion to an exponent's value, not to its digits, is what the
rules must not start: they ask these bounds first and leave the form undecided above them (the form is an identity of
the kernel, so leaving it out loses a proof, never adds one).
"""
from __future__ import annotations

import math

import sympy

#: the most terms an expansion the rules ask for may have (1,771 terms take about 0.6 s of SymPy)
MAX_EXPANDED_TERMS = 1_000
#: the highest total degree of a polynomial the rules hand to `factor`
MAX_FACTORED_DEGREE = 60


class _TooLarge(Exception):
    pass


def _terms(expr: sympy.Basic, cap: int) -> int:
    """An upper bound on the terms of `sympy.expand(expr)` (every node's own expansion below `cap`, else _TooLarge)."""
    if isinstance(expr, sympy.Add):
        count = sum(_terms(a, cap) for a in expr.args)
    elif isinstance(expr, sympy.Mul):
        count = 1
        for a in expr.args:
            count *= _terms(a, cap)
            if count > cap:
                raise _TooLarge
    elif isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        base = _terms(expr.base, cap)
        e = abs(int(expr.exp))
        # a multinomial: C(base + e − 1, e) monomials of degree e in `base` terms; an exponent e ≥ cap with two
        # terms already exceeds cap, and with one term the power is one term
        count = 1 if base == 1 else (cap + 1 if e >= cap else math.comb(base + e - 1, e))
    elif expr.args:  # a function or a symbolic power: expand also expands its arguments; itself one term
        for a in expr.args:
            _terms(a, cap)
        count = 1
    else:
        count = 1
    if count > cap:
        raise _TooLarge
    return count


def expansion_fits(expr: sympy.Basic, cap: int = MAX_EXPANDED_TERMS) -> bool:
    """True when `sympy.expand(expr)` has at most `cap` terms at every node (an upper bound; never expands)."""
    try:
        _terms(expr, cap)
    except _TooLarge:
        return False
    return True


def _degree(expr: sympy.Basic) -> int:
    """An upper bound on the total degree of `expr` in its generators (a function of a symbol counts as one)."""
    if isinstance(expr, sympy.Add):
        return max((_degree(a) for a in expr.args), default=0)
    if isinstance(expr, sympy.Mul):
        return sum(_degree(a) for a in expr.args)
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        return _degree(expr.base) * abs(int(expr.exp))
    if expr.is_number:
        return 0
    return 1  # a symbol, or a generator such as exp(x), or a symbolic power


def factoring_fits(expr: sympy.Basic, degree: int = MAX_FACTORED_DEGREE) -> bool:
    """True when `sympy.factor(expr)` is asked of a polynomial of total degree at most `degree` whose expansion fits
    (upper bounds; nothing is expanded or factored)."""
    return _degree(expr) <= degree and expansion_fits(expr)
