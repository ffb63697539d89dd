"""The Puiseux expansion of √(quadratic in t) by its closed form (asymptotics._root_of_quadratic) against
`sympy.series`, which `puiseux` used for it before and still uses for every other algebraic function: the same
expansion, printed the same, on many quadratics; None (so the series) outside the closed form's reach."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck import asymptotics as A
from uapcheck.lower import QUERY_DOT_KEY, SCALE as t

S = sympy.Symbol("1/t", positive=True)
P = sympy.Symbol("p", positive=True)
Q = sympy.Symbol("q", positive=True)
R = sympy.Symbol("r")
NORM_Z = sympy.Symbol("|z|²", positive=True)
NORM_X = sympy.Symbol("|x|²", positive=True)

LEADING = [1, 4, 2, 3, sympy.Rational(1, 3), sympy.Rational(9, 4), P, Q, NORM_Z]
LINEAR = [0, 1, -2, R, -2 * R, 3 * P, R * Q - 1, sympy.Rational(-1, 2) * R, -2 * QUERY_DOT_KEY, P + R]
CONSTANT = [0, 1, P, R ** 2, Q + 5, -R, NORM_X]


def _series(g):
    return sympy.expand(sympy.series(g, S, 0, n=1).removeO())


@pytest.mark.parametrize("a", LEADING, ids=str)
def test_the_closed_form_is_the_series(a):
    for b, c in itertools.product(LINEAR, CONSTANT):
        expr = sympy.sqrt(a * t ** 2 + b * t + c)
        g = expr.xreplace({t: 1 / S})
        closed = A._root_of_quadratic(g, S)
        if b == 0 and c == 0:
            assert closed is None  # √(a t²) is not a Pow of a quadratic once SymPy simplifies it
            continue
        assert closed is not None, expr
        got, want = sympy.expand(closed), _series(g)
        assert got == want and sympy.sstr(got) == sympy.sstr(want), (expr, got, want)


@pytest.mark.parametrize("expr", [
    sympy.sqrt(t ** 3 + 1), sympy.sqrt(t + 1), sympy.cbrt(t ** 2 + 1), sympy.sqrt(R * t ** 2 + 1),
    sympy.sqrt((P + Q) * t ** 2 + t), sympy.sqrt(P * Q * t ** 2 + 1), sympy.sqrt(sympy.exp(t) + t ** 2),
    sympy.sqrt(t ** 2 + 1) + 1, (t ** 2 + 1) ** sympy.Rational(3, 2), sympy.sqrt(-t ** 2 + 1),
], ids=str)
def test_other_functions_go_to_the_series(expr):
    assert A._root_of_quadratic(expr.xreplace({t: 1 / S}), S) is None


def test_puiseux_gives_what_the_series_route_gives(monkeypatch):
    exprs = [sympy.sqrt(t ** 2 * NORM_Z - 2 * t * QUERY_DOT_KEY + NORM_X), sympy.sqrt(4 * t ** 2 + R * t + 1),
             sympy.sqrt(P * t ** 2 + 3)]
    fast = [A.puiseux(e, A.Context()) for e in exprs]
    monkeypatch.setattr(A, "_root_of_quadratic", lambda g, s: None)
    slow = [A.puiseux(e, A.Context()) for e in exprs]
    assert fast == slow
    assert fast[0].E[0][0] == 1 and fast[0].E[0][1] == sympy.sqrt(NORM_Z)
    assert fast[0].const == -QUERY_DOT_KEY / sympy.sqrt(NORM_Z)
