"""The numeric cross-check's values of log k(x, t z) (uapcheck/kernel_limit/numeric_check.py): evalf
with t and the params substituted numerically gives the number of the exact route (substitute, let
SymPy evaluate, then evalf) to every printed digit; anything that is not a finite non-zero real to
full accuracy goes the exact way."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.kernel_limit import numeric_check
from uapcheck.kernel_limit.analysis import invariants_at
from uapcheck.lower import SCALE as t, lower_head
from uapcheck.parse import parse_source

KERNELS = [
    "attention { kernel k(x, y) = exp(x . y) }",
    "attention { kernel k(x, y) = exp(-|x - y|^2 / 3) + exp(x . y) }",
    "attention { kernel k(x, y) = (x . y + c)^2 }",
    "attention { kernel k(x, y) = exp(-sqrt(|x - y|^2 + 1)) }",
    "attention { kernel k(x, y) = log(1 + exp(x . y)) }",
    "attention { kernel k(x, y) = 2 + tanh(x . y) }",
    "attention { kernel k(x, y) = exp(x . y) + 999999999 }",
    "attention { features phi(x) = elu(x) + 1 }",
    "attention { features phi(x) = exp(x) + 1 }",
    "attention { kernel k(x, y) = exp(exp(x . y)) }",  # at x·z < 0 the exact route resolves a value evalf calls 0
    "attention { kernel k(x, y) = 1 / (1 + exp(-(x . y))) }",
]


def _model(body: str):
    spec = parse_source(("param c > 0\n" if " c)" in body else "") + body + "\n")
    return lower_head(spec, spec.heads[0])


def _exact(model, x, z, tval, digits):
    """The route the check took before the numeric one (and still takes when that declines)."""
    expr = model.scaled if hasattr(model, "scaled") else model.query * model.key
    val = expr.xreplace(invariants_at(model, x, z)).xreplace({t: tval})
    return sympy.log(val).xreplace(numeric_check._sample_params(val)).evalf(digits)


@pytest.mark.parametrize("body", KERNELS)
@pytest.mark.parametrize("z", [1, -1, 2])
def test_the_numeric_route_gives_the_exact_routes_number(body, z):
    model = _model(body)
    for tval in (sympy.Integer(10) ** 3, sympy.Integer(10) ** 6, sympy.Integer(10) ** 12):
        digits = 40 + 2 * len(str(tval))
        exact = _exact(model, 1, z, tval, digits)
        fast = numeric_check._log_k(numeric_check._Point(model, 1, z), tval, digits)
        assert type(fast) is type(exact)
        assert str(sympy.Float(fast, 12)) == str(sympy.Float(exact, 12))
        if isinstance(exact, sympy.Float) and exact != 0:
            assert abs(fast - exact) <= abs(exact) * sympy.Float(10) ** (5 - digits)


def test_an_exact_zero_or_a_complex_value_goes_the_exact_way():
    assert numeric_check._log_numerically(sympy.Integer(1), sympy.Integer(10) ** 6, 50) is None  # log 1 = 0
    assert numeric_check._log_numerically(-1 - t, sympy.Integer(10) ** 6, 50) is None  # log of a negative
    assert numeric_check._log_numerically(1 + t, sympy.Integer(10) ** 6, 50) == sympy.log(10 ** 6 + 1).evalf(50)


def test_an_exponential_inside_an_exponential_is_never_evaluated_numerically(monkeypatch):
    # exp(exp(t)) at t = 10¹²: an exponent of 4·10¹¹ digits (tens of GB); the exact route takes
    # log(exp(y)) = y first. The numeric route must decline without evaluating anything.
    evaluated = []
    monkeypatch.setattr(sympy.Expr, "evalf", lambda self, *args, **kwargs: evaluated.append(self))
    for expr in (sympy.exp(sympy.exp(t)), sympy.exp(sympy.cosh(t)) + 1, 2 ** (2 ** t), sympy.exp(3 ** t) * t):
        assert numeric_check._log_numerically(expr, sympy.Integer(10) ** 12, 90) is None
    assert evaluated == []
    assert numeric_check._nested_growth(sympy.exp(sympy.exp(t))) and not numeric_check._nested_growth(
        sympy.exp(t ** 2) * sympy.exp(-t) + sympy.tanh(sympy.exp(t)))


def test_a_value_evalf_cannot_get_to_full_accuracy_goes_the_exact_way():
    # e^t (1 + e^{−t}) − e^t = 1, but numerically the two huge terms cancel to far below any precision
    expr = sympy.exp(t) * (1 + sympy.exp(-t)) - sympy.exp(t)
    assert numeric_check._log_numerically(expr, sympy.Integer(10) ** 24, 90) is None


def test_the_cross_check_prints_the_numbers_of_the_exact_route(monkeypatch):
    from uapcheck.kernel_limit.analysis import analyse_closed
    model = _model("attention { kernel k(x, y) = exp(-|x - y|^2 / 3) + exp(x . y) }")
    result = next(r for r in analyse_closed(model) if r.witness)
    fast = numeric_check.cross_check(model, result)
    numeric_check.cross_check.cache_clear()
    monkeypatch.setattr(numeric_check, "_log_beside", lambda *args: None)
    monkeypatch.setattr(numeric_check, "_log_numerically", lambda *args: None)
    assert numeric_check.cross_check(model, result) == fast


@pytest.mark.parametrize("body", KERNELS)
@pytest.mark.parametrize("z", [1, -1, 2])
def test_the_formula_evaluated_beside_its_values_gives_the_substituted_formulas_number(body, z):
    # the values of the invariants given to evalf beside t, not substituted first: the same number where both
    # answer, and the substituted formula's own route wherever the formula has a nested exponential
    model = _model(body)
    point = numeric_check._Point(model, 1, z)
    for tval in (sympy.Integer(10) ** 6, sympy.Integer(10) ** 12):
        digits = 40 + 2 * len(str(tval))
        beside = numeric_check._log_beside(point, tval, digits)
        substituted = numeric_check._log_numerically(point.exact, tval, digits)
        if numeric_check._nested_growth(point.formula):
            assert beside is None
        if beside is not None and substituted is not None:
            assert str(sympy.Float(beside, 12)) == str(sympy.Float(substituted, 12))
            assert abs(beside - substituted) <= abs(substituted) * sympy.Float(10) ** (5 - digits)


def test_the_substituted_formula_is_made_only_when_needed():
    model = _model("attention { kernel k(x, y) = exp(-sqrt(|x - y|^2 + 1)) }")
    point = numeric_check._Point(model, 1, 2)
    assert numeric_check._log_k(point, sympy.Integer(10) ** 6, 52) is not None
    assert point._exact is None
