"""The numeric cross-check's log-ratios from interval enclosures (uapcheck/kernel_limit/enclosures.py,
numeric_check._Enclosure): the same dict as the exact route (evalf) wherever the enclosures decide, the
exact route wherever they do not, and enclosures that contain the value SymPy computes."""
from __future__ import annotations

import random

import pytest
import sympy
from mpmath.libmp import from_man_exp, mpf_le, to_str

from uapcheck.kernel_limit import enclosures, numeric_check
from uapcheck.kernel_limit.analysis import analyse_closed, analyse_features, key_regions_for_features
from uapcheck.lower import ClosedKernel, lower_head
from uapcheck.parse import parse_source

KERNELS = [
    "attention { kernel k(x, y) = exp(x . y) }",
    "attention { kernel k(x, y) = exp(-|x - y|^2 / 3) + exp(x . y) }",
    "attention { kernel k(x, y) = (x . y + c)^2 }",
    "attention { kernel k(x, y) = exp(-sqrt(|x - y|^2 + 1)) }",
    "attention { kernel k(x, y) = 1 / sqrt(|x - y|^2 + 1) }",
    "attention { kernel k(x, y) = 1 / (|x - y|^2 + 1) }",
    "attention { kernel k(x, y) = log(1 + exp(x . y)) }",
    "attention { kernel k(x, y) = 2 + tanh(x . y) }",
    "attention { kernel k(x, y) = cosh(x . y) }",
    "attention { kernel k(x, y) = exp(x . y) + 999999999 }",
    "attention { kernel k(x, y) = exp(x . y / 8) }",
    "attention { kernel k(x, y) = relu(x . y) }",
    "attention { kernel k(x, y) = exp(-(x . y)^2 / 4 + |x|^2 / 8) }",
    "attention { features phi(x) = elu(x) + 1 }",
    "attention { features phi(x) = exp(x) + 1 }",
    "attention { features phi(x) = relu(x) }",
    "attention { kernel k(x, y) = exp(exp(x . y)) }",  # nested growth: the exact route alone
    "attention { kernel k(x, y) = 1 / (1 + exp(-(x . y))) }",
]


def _model(body: str):
    spec = parse_source(("param c > 0\n" if " c)" in body else "") + body + "\n")
    return lower_head(spec, spec.heads[0])


def _regions(model):
    if isinstance(model, ClosedKernel):
        return [r for r in analyse_closed(model) if r is not None and r.witness]
    results, _ = analyse_features(model)
    return [r for r in key_regions_for_features(results, model).values() if r is not None and r.witness]


def _exact_only(monkeypatch):
    monkeypatch.setattr(numeric_check, "_enclosed_log_ratio", lambda *args: numeric_check._UNDECIDED)


def _same(a, b) -> bool:
    """Equal dicts whose Floats are the same numbers at the same precision (what the printers print)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, sympy.Float):
        return isinstance(b, sympy.Float) and a._mpf_ == b._mpf_ and a._prec == b._prec
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("body", KERNELS)
def test_the_enclosures_give_the_exact_routes_dict(body, monkeypatch):
    model = _model(body)
    regions = _regions(model)
    assert regions
    numeric_check.cross_check.cache_clear()
    fast = [numeric_check.cross_check(model, r) for r in regions]
    numeric_check.cross_check.cache_clear()
    with monkeypatch.context() as m:
        _exact_only(m)
        exact = [numeric_check.cross_check(model, r) for r in regions]
    numeric_check.cross_check.cache_clear()
    assert all(_same(f, e) for f, e in zip(fast, exact)), (fast, exact)


def test_the_enclosures_decide_the_common_kernels_without_evalf(monkeypatch):
    # exp(x·y), the Gaussian plus exp(x·y), ReLU features: the whole check from enclosures, no log evaluated by evalf
    for body in (KERNELS[0], KERNELS[1], "attention { features phi(x) = relu(x) }"):
        model = _model(body)
        numeric_check.cross_check.cache_clear()
        with monkeypatch.context() as m:
            m.setattr(numeric_check, "_log_k", lambda *args: pytest.fail("the exact route ran"))
            checks = [numeric_check.cross_check(model, r) for r in _regions(model)]
        assert checks and all(c.get("agrees") is True for c in checks)
    numeric_check.cross_check.cache_clear()


def test_a_zero_log_ratio_goes_the_exact_way(monkeypatch):
    # exp(x·y / (|x| |y|)) does not depend on t: at keys of one direction the log-ratio is exactly 0, which
    # no interval decides (the exact route prints its 0)
    model = _model("attention { kernel k(x, y) = exp(x . y / (|x| * |y|)) }")
    exact_calls = []
    original = numeric_check._log_k
    monkeypatch.setattr(numeric_check, "_log_k", lambda *args: exact_calls.append(1) or original(*args))
    numeric_check.cross_check.cache_clear()
    for r in _regions(model):
        numeric_check.cross_check(model, r)
    numeric_check.cross_check.cache_clear()
    assert exact_calls


X, Y, Z = sympy.symbols("X Y Z", real=True)
EXPRESSIONS = [
    X * Y + Z, X / (Y - Z), sympy.exp(X * 10 ** 30) * Y, sympy.log(X ** 2 + 1), sympy.sqrt(X ** 2 + Y ** 2),
    1 / sympy.sqrt(X ** 2 + 3), sympy.tanh(X), sympy.tanh(X * 10 ** 20) + 2, sympy.cosh(X) - sympy.sinh(Y),
    sympy.Max(0, X) * sympy.Min(Y, Z), sympy.Abs(X - Y), (X ** 2 + 1) ** sympy.Rational(3, 2),
    sympy.Piecewise((X, X > 0), (sympy.exp(X) - 1, True)), sympy.exp(-(X - Y) ** 2 * 10 ** 40),
]


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=str)
def test_an_enclosure_contains_sympys_value(expr):
    rng = random.Random(str(expr))
    for _ in range(20):
        values = {s: sympy.Rational(rng.randint(-40, 40), rng.randint(1, 9)) for s in (X, Y, Z)}
        for prec in (60, 200):
            iv = enclosures.enclose(expr, values, prec)
            exact = expr.xreplace(values)
            if iv is None:
                continue
            value = sympy.N(exact, 80 + prec // 3)
            assert value.is_real
            lo, hi = sympy.Float._new(iv[0], max(iv[0][3], 1)), sympy.Float._new(iv[1], max(iv[1][3], 1))
            assert lo <= value <= hi, (expr, values, to_str(iv[0], 30), value, to_str(iv[1], 30))
            # tight, where no huge constant magnifies the rounding of an exponential's argument
            small_constants = all(abs(n) < 10 ** 6 for n in expr.atoms(sympy.Integer))
            if value != 0 and small_constants and not expr.has(sympy.Piecewise, sympy.Max, sympy.Min):
                assert (hi - lo) <= abs(value) * sympy.Float(2) ** (30 - prec) + sympy.Float(2) ** (-prec)


def test_what_an_enclosure_declines():
    t = sympy.Symbol("t", positive=True)
    one = {X: sympy.Integer(1)}
    assert enclosures.enclose(X + t, one, 100) is None  # a symbol without a value
    assert enclosures.enclose(sympy.log(X - 1), one, 100) is None  # log at 0
    assert enclosures.enclose(sympy.sqrt(X - 2), one, 100) is None  # a square root of a negative
    assert enclosures.enclose(1 / (X - 1), one, 100) is None  # a division by 0
    assert enclosures.enclose(sympy.cos(X), one, 100) is None  # a function the walker does not know
    assert enclosures.enclose(sympy.exp(sympy.exp(X * 10 ** 1300)), one, 100) is None  # beyond 2^4000
    undecided = sympy.Piecewise((X, X > sympy.Rational(1, 3) * 3), (2 * X, True))  # X > 1 at X = 1: False
    assert enclosures.enclose(undecided, one, 100) == enclosures.enclose(2 * X, one, 100)


def test_a_printed_digit_on_a_rounding_boundary_is_undecided():
    # a 43-bit rounding boundary (SymPy's 12 digits) strictly inside the enclosure: the two ends print apart
    middle = from_man_exp((1 << 43) + 1, -44)  # halfway between two 43-bit numbers next to 1
    eps = from_man_exp(1, -200)
    from mpmath.libmp import mpf_add, mpf_sub
    enclosure = numeric_check._Enclosure(mpf_sub(middle, eps, 300), mpf_add(middle, eps, 300), 60)
    assert enclosure.shown() is numeric_check._UNDECIDED
    inside = numeric_check._Enclosure(mpf_sub(from_man_exp(3, -1), eps, 300), mpf_add(from_man_exp(3, -1), eps, 300), 60)
    assert inside.shown() == sympy.Float(sympy.Rational(3, 2), 12)
    assert mpf_le(inside.lo, inside.hi)


@pytest.mark.parametrize("kind", ["ratio", "difference"])
def test_a_comparison_decided_on_an_enclosure_is_the_exact_routes(kind):
    rng = random.Random(kind)
    digits = 60
    bound = sympy.Rational(1, 10) if kind == "ratio" else sympy.Rational(1, 100)
    decided = 0
    for _ in range(400):
        ref = sympy.Float(sympy.Rational(rng.randint(-10 ** 6, 10 ** 6) or 1, rng.randint(1, 10 ** 4)), 12)
        offset = sympy.Rational(rng.choice([-1, 1]) * rng.randint(0, 3000), 10 ** rng.randint(3, 6))
        actual = sympy.Float(ref * (1 + offset) if kind == "ratio" else ref + offset, digits)
        exact = numeric_check._beyond(actual, kind, ref, bound)
        width = sympy.Float(10) ** (-digits + 12) * (abs(actual) + 1)
        enclosure = numeric_check._Enclosure((actual - width)._mpf_, (actual + width)._mpf_, digits)
        answer = enclosure.beyond(kind, ref, bound)
        if answer is not numeric_check._UNDECIDED:
            decided += 1
            assert answer == exact, (ref, actual)
    assert decided > 300
