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


# The exclusions are computed on unreduced integer quotients (`_pair_value`); the reference is the same tree evaluated
# in Fractions (`_value`). Both must give the same number, or both a zero division, at every point.
from fractions import Fraction  # noqa: E402

from hypothesis import given, settings, strategies as st  # noqa: E402

_SYMBOLS = (a, b, c, r, p, n, x)
_NUMBERS = st.sampled_from(sign_points.CANDIDATES + (Fraction(-7, 4), Fraction(9, 2), Fraction(0)))


def _trees(depth: int):
    leaf = st.one_of(st.sampled_from(_SYMBOLS),
                     st.builds(sympy.Rational, st.integers(-9, 9), st.integers(1, 6)))
    if depth == 0:
        return leaf
    sub = _trees(depth - 1)
    return st.one_of(
        leaf,
        st.builds(lambda args: sympy.Add(*args, evaluate=False), st.lists(sub, min_size=2, max_size=4)),
        st.builds(lambda args: sympy.Mul(*args, evaluate=False), st.lists(sub, min_size=2, max_size=4)),
        st.builds(lambda base, e: sympy.Pow(base, e, evaluate=False), sub, st.integers(-3, 4)),
    )


def _exact(fn, *args):
    try:
        return fn(*args)
    except ZeroDivisionError:
        return "zero division"


@settings(max_examples=400, deadline=None)
@given(_trees(3), st.lists(_NUMBERS, min_size=len(_SYMBOLS), max_size=len(_SYMBOLS)))
def test_integer_quotients_give_the_fraction_value(expr, numbers):
    symbols: dict = {}
    code = sign_points._compile(expr, symbols)
    point = tuple(numbers[: len(symbols)])
    reference = _exact(sign_points._value, code, point)
    pair = _exact(sign_points._pair_value, code, sign_points._as_pairs(point))
    if reference == "zero division":
        assert pair == "zero division"
    else:
        num, den = pair
        assert den != 0 and Fraction(num, den) == reference


def _excluded_by_fractions(expr) -> Excluded:
    """`excluded` as it was computed before the integer quotients: every point's value in Fractions."""
    import itertools
    symbols: dict = {}
    try:
        code = sign_points._compile(expr, symbols)
    except sign_points._NotRational:
        return NOTHING
    if not symbols:
        return NOTHING
    choices = [sign_points._allowed(sym) for sym in symbols]
    if not all(choices):
        return NOTHING
    nonpositive = nonnegative = nonzero = False
    for point in itertools.islice(itertools.product(*choices), sign_points.MAX_POINTS):
        try:
            v = sign_points._value(code, point)
        except ZeroDivisionError:
            continue
        nonpositive, nonnegative, nonzero = nonpositive or v <= 0, nonnegative or v >= 0, nonzero or v != 0
        if nonpositive and nonnegative and nonzero:
            break
    return Excluded(nonpositive, nonnegative, nonzero)


@settings(max_examples=300, deadline=None)
@given(_trees(3))
def test_excluded_is_the_fraction_computation(expr):
    sign_points.excluded.cache_clear()
    assert excluded(expr) == _excluded_by_fractions(expr)


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=sympy.sstr)
def test_excluded_is_the_fraction_computation_on_the_listed_expressions(expr):
    sign_points.excluded.cache_clear()
    assert excluded(expr) == _excluded_by_fractions(expr)


def _sign_asking_every_form(expr, ctx):
    """sign_of as it was: every form asked, an equal one again (the reference for the skipped repeats)."""
    if not isinstance(expr, sympy.Basic):
        expr = sympy.Integer(expr)
    if expr == 0:
        return 0
    pos = ctx.positive_form(expr)
    out = excluded(pos)
    if not out.every:
        for candidate in asymptotics._sign_candidates(pos):
            sign = asymptotics._asked_sign(candidate, out)
            if sign is not None:
                return sign
    for atom in asymptotics.SIGN_ATOMS:
        if atom in expr.free_symbols and atom not in ctx.signs:
            return ("NeedSign", atom)
    if out.every:
        return ("Undecided", f"cannot decide the sign of {sympy.sstr(expr)}")
    sign = asymptotics._asked_sign(sympy.factor(pos), out)
    if sign is not None:
        return sign
    return ("Undecided", f"cannot decide the sign of {sympy.sstr(expr)}")


SWEEP = EXPRESSIONS + [
    sympy.Max(0, a), sympy.Max(0, b + c - r) / 2, sympy.cos(a), sympy.cos(b + c - r) + 2, (a + p) ** 2 + b,
    1 / sympy.sqrt(b + c - 2 * a + 1), sympy.exp(-sympy.sqrt(b + c - 2 * a)), 2 * a + 2 * b, 4 * a ** 2 - 4,
    sympy.expand((c + a) ** 2 - 2 * c * a), sympy.Max(0, a) * sympy.Max(0, b), (b + c) * (a + 1), sympy.tanh(a) + 1,
]


@pytest.mark.parametrize("expr", SWEEP, ids=sympy.sstr)
def test_sign_of_asks_no_equal_form_twice_and_answers_as_before(expr):
    for ctx in (Context(), Context({a: 1}), Context({a: -1})):
        assert _sign(expr, ctx) == _sign_asking_every_form(expr, ctx)
