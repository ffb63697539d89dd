"""uapcheck/sign_points.py: a sign query is skipped only where SymPy's answer could not be True, so the sign
engine's answers are the same with and without it."""
from __future__ import annotations

import pytest
import sympy

from uapcheck import asymptotics, sign_points
from uapcheck.asymptotics import Context, NeedSign, Undecided, sign_of
from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c
from uapcheck.sign_points import NOTHING, Excluded, excluded

r = sympy.Symbol("r", nonnegative=True)
p = sympy.Symbol("p", positive=True)
n = sympy.Symbol("n", integer=True, positive=True)
x = sympy.Symbol("x", real=True)

EXPRESSIONS = [
    a, -a, a + 1, a ** 2, a ** 2 + 1, (a + p) ** 2, (a - p) ** 2, b + c, b - c, 1 / (b + c - a + 1),
    ((b + c - r) / 2) ** 2, sympy.expand(((b + c - r) / 2 + p) ** 2), p - sympy.Rational(1, 2),
    n - sympy.Rational(1, 2), n ** 2 - 2 * n + 1, (x - 1) / (x - 1), x ** 2 - 2, 1 / (1 + x ** 2), -b * c - 1,
    sympy.exp(a), sympy.cos(a) + 2, sympy.Float(0.5) * a, sympy.sqrt(b), sympy.Integer(3), r * p,
]


def test_a_sign_change_excludes_every_query():
    assert excluded(a).every
    assert excluded(b - c).every
    assert excluded(sympy.expand((a + p) * (a - 2))).every


def test_a_positive_expression_keeps_is_positive():
    assert excluded(b + c) == Excluded(positive=False, negative=True, zero=True)
    assert excluded(1 / (1 + x ** 2)) == Excluded(positive=False, negative=True, zero=True)
    assert not excluded(-b * c - 1).negative


def test_a_zero_on_a_variety_is_found_exactly():
    # ((b + c − r)/2)² = (x·z)² vanishes at b = c = 1, r = 2: never negative, not positive, not zero
    assert excluded(sympy.expand(((b + c - r) / 2) ** 2)) == Excluded(positive=True, negative=True, zero=True)


def test_points_satisfy_every_assumption():
    # an integer symbol gets only integers: n − 1/2 > 0 for every positive integer n
    assert not excluded(n - sympy.Rational(1, 2)).positive
    # a positive real one gets 1/3 as well: p − 1/2 < 0 there
    assert excluded(p - sympy.Rational(1, 2)).positive
    # (n − 1)² with n a positive integer: zero at n = 1, so not positive
    assert excluded(n ** 2 - 2 * n + 1).positive


def test_a_changed_symbol_misses_the_cache():
    """The cache is keyed by the expression with its symbols' assumptions: the same printed expression over an
    integer symbol and over a real one are two entries with different answers."""
    real_n = sympy.Symbol("n", positive=True)
    assert sympy.sstr(n - sympy.Rational(1, 2)) == sympy.sstr(real_n - sympy.Rational(1, 2))
    assert excluded(n - sympy.Rational(1, 2)) != excluded(real_n - sympy.Rational(1, 2))
    assert excluded(a + 1) != excluded(a + 2 * a ** 2 + 3)


def test_outside_rational_functions_nothing_is_excluded():
    for expr in (sympy.exp(a), sympy.cos(a) + 2, sympy.Float(0.5) * a, sympy.sqrt(b), sympy.Integer(3)):
        assert excluded(expr) == NOTHING


def test_a_zero_denominator_is_skipped():
    # (x − 1)/(x − 1) is 1 wherever it is defined: x = 1 is no point of it
    assert excluded(sympy.Mul(x - 1, sympy.Pow(x - 1, -1, evaluate=False), evaluate=False)) == Excluded(positive=False, negative=True, zero=True)


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=sympy.sstr)
def test_sympy_never_answers_true_where_a_query_is_excluded(expr):
    out = excluded(expr)
    assert not (out.positive and expr.is_positive)
    assert not (out.negative and expr.is_negative)
    assert not (out.zero and expr.is_zero)


def _sign(expr, ctx):
    try:
        return sign_of(expr, ctx)
    except NeedSign as exc:
        return ("NeedSign", exc.atom)
    except Undecided as exc:
        return ("Undecided", str(exc))


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=sympy.sstr)
def test_sign_of_is_the_same_without_the_exclusions(expr, monkeypatch):
    for ctx in (Context(), Context({a: 1}), Context({a: -1})):
        fast = _sign(expr, ctx)
        with monkeypatch.context() as m:
            m.setattr(asymptotics, "excluded", lambda e: NOTHING)
            slow = _sign(expr, ctx)
        assert fast == slow


def test_the_allowed_numbers_are_sympys_own_facts():
    assert 0 not in sign_points._allowed(p) and 0 in sign_points._allowed(r)
    assert all(v.denominator == 1 for v in sign_points._allowed(n))
    assert all(v > 0 for v in sign_points._allowed(n))
