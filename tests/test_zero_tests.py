"""`uapcheck.zero`: the cheap exact zero tests agree with `sympy.simplify(e) == 0`, and `simplified`
returns exactly what `sympy.simplify` returns."""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from uapcheck.zero import is_zero, simplified

x = sympy.Symbol("x·z", real=True)
b = sympy.Symbol("|z|²", positive=True)
tau = sympy.Symbol("tau", positive=True)
lam = sympy.Symbol("λ", positive=True)
n = sympy.Symbol("n", integer=True, positive=True)
SYMBOLS = [x, b, tau, lam, n]

rationals = st.builds(sympy.Rational, st.integers(-6, 6), st.integers(1, 4))
leaves = st.one_of(rationals, st.sampled_from(SYMBOLS))


def _combine(children):
    return st.one_of(
        st.builds(lambda p, q: p + q, children, children),
        st.builds(lambda p, q: p - q, children, children),
        st.builds(lambda p, q: p * q, children, children),
        st.builds(lambda p, k: p ** k, children, st.integers(-2, 3)),
    )


rational_functions = st.recursive(leaves, _combine, max_leaves=8).filter(
    lambda e: not e.has(sympy.zoo, sympy.nan, sympy.oo))

monomials = st.builds(lambda c, powers: c * sympy.Mul(*[s ** k for s, k in zip(SYMBOLS, powers)]),
                      rationals, st.lists(st.integers(-3, 3), min_size=len(SYMBOLS), max_size=len(SYMBOLS)))


@settings(max_examples=150, deadline=None)
@given(rational_functions, rational_functions)
def test_rational_functions_agree_with_simplify(p, q):
    for expr in (p - q, p * q - q * p, (p + q) ** 2 - p ** 2 - 2 * p * q - q ** 2, p / (q + 7) - p / (7 + q)):
        assert is_zero(expr) == (sympy.simplify(expr) == 0), expr


@settings(max_examples=100, deadline=None)
@given(monomials)
def test_monomials_come_back_as_simplify_returns_them(m):
    assert sympy.srepr(simplified(m)) == sympy.srepr(sympy.simplify(m))
    assert sympy.srepr(simplified(sympy.exp(m))) == sympy.srepr(sympy.simplify(sympy.exp(m)))


@settings(max_examples=150, deadline=None)
@given(rational_functions, st.sampled_from([sympy.sqrt, sympy.exp, sympy.log, sympy.cos]))
def test_non_rational_expressions_agree_with_simplify(p, fn):
    for expr in (fn(b) * p - fn(b), fn(b) * (p + 1) - fn(b) * p - fn(b), fn(b) ** 2 * p - p * fn(b) ** 2):
        assert is_zero(expr) == (sympy.simplify(expr) == 0), expr


def test_a_non_zero_value_at_an_admissible_point_decides_without_simplify(monkeypatch):
    def fail(expr, *args, **kwargs):
        raise AssertionError(f"simplify called on {expr}")
    monkeypatch.setattr(sympy, "simplify", fail)
    assert not is_zero(sympy.sqrt(b) * lam - sympy.sqrt(b))  # at |z|² = 4, λ = 9: 16
    assert not is_zero(sympy.sqrt(b) + tau)
    assert simplified(sympy.exp(1 / tau)) == sympy.exp(1 / tau)


def test_points_respect_the_assumptions():
    neg = sympy.Symbol("m", negative=True)
    # sqrt(m²) = −m for m < 0, so sqrt(m²) + m ≡ 0: a point m > 0 would wrongly show it non-zero.
    assert is_zero(sympy.sqrt(neg ** 2) + neg)
    assert not is_zero(sympy.sqrt(neg ** 2) - neg)


def test_known_zeros_and_non_zeros():
    assert is_zero((x + 1) ** 2 - x ** 2 - 2 * x - 1)
    assert is_zero(x / (x * tau) - 1 / tau)
    assert is_zero(sympy.exp(x) * (tau + 1) - sympy.exp(x) * tau - sympy.exp(x))  # by expansion
    assert is_zero(sympy.sin(x) ** 2 + sympy.cos(x) ** 2 - 1)  # left to simplify, as before
    assert is_zero(0) and is_zero(sympy.Integer(0)) and not is_zero(3)
    assert not is_zero(x * lam - x)
    assert not is_zero(sympy.sqrt(b) * lam - sympy.sqrt(b))
    assert not is_zero(sympy.exp(x) - 1)


def test_irrational_constants_are_not_treated_as_symbols():
    # (√2 + 1)(√2 − 1) − 1 = 0 although it is "non-zero" as a polynomial in a symbol √2.
    assert is_zero((sympy.sqrt(2) + 1) * (sympy.sqrt(2) - 1) - 1)
    assert is_zero(sympy.pi * x - x * sympy.pi)


def test_floats_go_to_simplify():
    e = sympy.Float("0.1") * x + sympy.Float("0.2") * x - sympy.Float("0.3") * x
    assert is_zero(e) == (sympy.simplify(e) == 0)
    assert simplified(sympy.Float("0.5") * x) == sympy.simplify(sympy.Float("0.5") * x)


def test_non_monomials_are_simplified():
    e = x * lam / tau - x / tau
    assert simplified(e) == sympy.simplify(e) != e


transcendental = st.sampled_from([sympy.exp, sympy.log, sympy.cos, sympy.sin, sympy.tanh, sympy.sinh, sympy.cosh,
                                  sympy.sqrt, sympy.Abs])


@settings(max_examples=40, deadline=None)
@given(rational_functions, transcendental, transcendental)
def test_transcendental_expressions_agree_with_simplify(p, f, g):
    """The interval route (a non-zero enclosure at an admissible point) never says non-zero where
    simplify finds zero, and its zeros are simplify's."""
    for expr in (f(b) * p - g(b), f(tau * b) - tau * f(b) * p, f(x) * (p + 1) - f(x) * p - f(x), 2 + f(x * tau) - g(x)):
        if expr.has(sympy.zoo, sympy.nan, sympy.oo):
            continue
        assert is_zero(expr) == (sympy.simplify(expr) == 0), expr


def test_interval_enclosures_contain_the_value():
    """uapcheck.intervals: each enclosure contains the value mpmath computes at 60 digits, and is tight."""
    import mpmath
    from uapcheck.intervals import NotEnclosable, enclose
    r = sympy.Rational
    cases = [(2 + sympy.tanh(x * tau) - tau * (2 + sympy.tanh(x)), {x: r(9), tau: r(4)}),
             (sympy.exp(sympy.cos(x)) - sympy.sinh(tau) / sympy.cosh(b), {x: r(-16), tau: r(1, 3), b: r(4)}),
             (sympy.log(1 + sympy.exp(x)) * x ** r(2, 3) + sympy.Max(x, -x) + sympy.Abs(x - 100), {x: r(25)}),
             (sympy.Piecewise((x, x > 0), (sympy.exp(x) - 1, True)) + sympy.Min(x, 1), {x: r(-9)})]
    exact = [lambda: 2 + mpmath.tanh(36) - 4 * (2 + mpmath.tanh(9)),
             lambda: mpmath.exp(mpmath.cos(-16)) - mpmath.sinh(mpmath.mpf(1) / 3) / mpmath.cosh(4),
             lambda: mpmath.log(1 + mpmath.exp(25)) * mpmath.cbrt(25) ** 2 + 25 + 75,
             lambda: mpmath.exp(-9) - 1 - 9]
    with mpmath.workdps(60):
        for (expr, point), value in zip(cases, exact):
            box = enclose(expr, point)
            v = value()
            assert box.a <= v <= box.b, expr
            assert box.b - box.a <= abs(v) * mpmath.mpf(2) ** -60 + mpmath.mpf(2) ** -70
    for refused in (sympy.log(x), sympy.sqrt(x), x ** r(1, 3), sympy.erf(x), 1 / (x + 9),
                    sympy.Piecewise((1, sympy.exp(x) > 2), (0, True)), sympy.Float("0.5") * x):
        try:
            box = enclose(refused, {x: r(-9)})
        except NotEnclosable:
            continue
        assert not (box.a > 0 or box.b < 0), refused  # 1/(x + 9) at −9: an unbounded enclosure, never a sign


def test_transcendental_non_zeros_decide_without_simplify(monkeypatch):
    def fail(expr, *args, **kwargs):
        raise AssertionError(f"simplify called on {expr}")
    monkeypatch.setattr(sympy, "simplify", fail)
    r = sympy.Symbol("r", positive=True)
    xi = sympy.Symbol("ξ", positive=True)
    assert not is_zero(2 + sympy.tanh(r * xi) - r * (2 + sympy.tanh(xi)))  # bounded_tanh's homogeneity test
    assert not is_zero(sympy.exp(sympy.cos(r * xi)) - r ** 2 * sympy.exp(sympy.cos(xi)))


def test_exponential_identities_are_zero_without_simplify_and_agree_with_it():
    # zero._zero_in_one_exponential: expr as a rational function of Y = exp(g/L), brought to 0 by cancel
    import random

    from uapcheck.zero import _zero_in_one_exponential
    a = sympy.Symbol("a", real=True)
    b = sympy.Symbol("b", positive=True)
    rng = random.Random(5)
    sigmoid = [1 / (1 + sympy.exp(-k * a)) for k in (1, 2, 3)]
    identities = [sigmoid[0] + 1 / (1 + sympy.exp(a)) - 1,
                  (sympy.exp(a / 2) + 1) ** 2 - sympy.exp(a) - 2 * sympy.exp(a / 2) - 1,
                  (sympy.exp(2 * a) - 1) / (sympy.exp(a) - 1) - sympy.exp(a) - 1,
                  b * sigmoid[1] - b * sympy.exp(2 * a) / (sympy.exp(2 * a) + 1)]
    for expr in identities:
        assert _zero_in_one_exponential(expr) and sympy.simplify(expr) == 0, expr
    for _ in range(30):
        k = rng.choice([1, 2, 3])
        c = sympy.Rational(rng.randint(1, 5), rng.randint(1, 3))
        expr = c * sigmoid[k - 1] - c * sympy.exp(k * a) / (1 + sympy.exp(k * a)) + rng.choice([0, 1, b])
        assert _zero_in_one_exponential(expr) == (sympy.simplify(expr) == 0), expr
    # two different exponents' bases, or a non-rational rest: nothing decided
    assert not _zero_in_one_exponential(sympy.exp(a) - sympy.exp(b))
    assert not _zero_in_one_exponential(sympy.exp(a) * sympy.sin(a))


# Affine forms c₀ + Σ c_k s_k over symbols of every kind of assumption the engines make (the bounds' differences of
# the conditions and ranges, 1 − w, 4k + 2): `simplified` returns them unchanged, exactly what simplify returns.
AFFINE_SYMBOLS = SYMBOLS + [sympy.Symbol("w", integer=True, positive=True), sympy.Symbol("k", integer=True),
                            sympy.Symbol("y"), sympy.Symbol("δ", integer=True, nonzero=True),
                            sympy.Symbol("m", integer=True, nonnegative=True), sympy.Symbol("r", nonnegative=True),
                            sympy.Symbol("q", negative=True)]
affine = st.builds(lambda c0, terms: sympy.Add(c0, *[c * s for c, s in terms]),
                   st.builds(sympy.Rational, st.integers(-30, 30), st.integers(1, 6)),
                   st.lists(st.tuples(st.builds(sympy.Rational, st.integers(-12, 12), st.integers(1, 6)),
                                      st.sampled_from(AFFINE_SYMBOLS)), min_size=1, max_size=5))


@settings(max_examples=300, deadline=None)
@given(affine)
def test_affine_forms_come_back_as_simplify_returns_them(form):
    assert sympy.srepr(simplified(form)) == sympy.srepr(sympy.simplify(form))


def test_only_affine_forms_skip_simplify():
    from uapcheck.zero import _linear
    w, k = AFFINE_SYMBOLS[-6], AFFINE_SYMBOLS[-5]
    assert _linear(1 - w) and _linear(4 * k + 2) and _linear(x / 3 - 2 * b + 1)
    assert not _linear(w ** 2 - 1) and not _linear(w * k + 1) and not _linear(sympy.cos(w) + 1)
    assert not _linear(sympy.floor(n / 2) - 1) and not _linear(w)  # a symbol is a monomial, not an Add
