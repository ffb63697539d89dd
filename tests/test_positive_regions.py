"""WP-POSITIVE's all-positive sign regions (uapcheck/rules/analytic.py `_positive_regions`): read up to the first
region of another sign, they are the whole list of `_sign_regions` when every sign is +1 and None otherwise, on every
form of a sweep of kernels."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, ClosedKernel
from uapcheck.rules import analytic

tau = sympy.Symbol("tau", positive=True)
p = sympy.Symbol("p", real=True)
KERNELS = [
    sympy.exp(a), a, -a, a + 1, a ** 2, a ** 2 + 1, sympy.Max(0, a), sympy.Max(0, a) + 1, sympy.cos(a), sympy.cos(a) + 2,
    (a + tau) ** 2, (a - tau) ** 2, 1 / (1 + b + c - 2 * a), 1 / sympy.sqrt(1 + b + c - 2 * a),
    sympy.exp(-sympy.sqrt(b + c - 2 * a)), sympy.tanh(a) + 2, sympy.tanh(a), 1 / (1 + sympy.exp(-a)), a * sympy.exp(a),
    sympy.exp(a / tau), (a + p) ** 3, a * (a - 1), sympy.Abs(a) + b, b + c - 2 * a, b * c - a, sympy.exp(a) - 1,
    sympy.Max(0, a) * sympy.exp(a), (1 + a) ** 2 * sympy.exp(-b), a ** 3 + 1, sympy.sin(a) ** 2 + 1,
]


def _reference(expr):
    regions = list(analytic._sign_regions(expr))
    return regions if all(s == 1 for _, s in regions) else None


def _plain(regions):
    return None if regions is None else [(dict(ctx.signs), s) for ctx, s in regions]


@pytest.mark.parametrize("kernel", KERNELS, ids=sympy.sstr)
def test_positive_regions_are_the_whole_list_or_none(kernel):
    model = ClosedKernel(kernel, kernel, (a, b), (c,), "test")
    for _, form in analytic._forms(model, kernel):
        for expr in (form, analytic._with_nonnegative_norms(form)):
            fast = _plain(analytic._positive_regions(expr))
            analytic._sign_regions.cache_clear()
            assert fast == _plain(_reference(expr))


def test_a_negative_region_stops_the_exploration(monkeypatch):
    """Max(0, a) − 1/2 is not shown positive in its first region (a > 0): the regions after it are not explored."""
    calls = []
    original = analytic.sign_of

    def counting(expr, ctx):
        calls.append(dict(ctx.signs))
        return original(expr, ctx)

    monkeypatch.setattr(analytic, "sign_of", counting)
    assert analytic._positive_regions(sympy.Max(0, a) - sympy.Rational(1, 2)) is None
    explored = len(calls)
    calls.clear()
    analytic._sign_regions.cache_clear()
    assert not all(s == 1 for _, s in list(analytic._sign_regions(sympy.Max(0, a) - sympy.Rational(1, 2))))
    assert explored < len(calls)


@pytest.mark.parametrize("kernel", KERNELS + [sympy.exp(sympy.sqrt(b + c + 2 * a) - sympy.sqrt(b + c - 2 * a)),
                                              2 + sympy.cos(sympy.sqrt(b + c - 2 * a)), sympy.exp(1 / sympy.Abs(a))],
                         ids=sympy.sstr)
def test_the_kept_factor_test_and_norms_are_computed_afresh(kernel):
    """The factor test and the kernel with |x|², |z|² ≥ 0 are kept per process: a kept answer, asked after the other
    kernels', is what the uncached functions compute with every cache empty."""
    from uapcheck.memo import clear_caches
    model = ClosedKernel(kernel, kernel, (a, b), (c,), "test")
    forms = [form for _, form in analytic._forms(model, kernel)]
    asked = [(expr, gram) for form in forms for expr in (form, analytic._with_nonnegative_norms(form))
             for gram in (False, True)]
    kept = [(analytic._trig_positive(e, g), analytic._with_nonnegative_norms(e)) for e, g in asked]
    for (expr, gram), (positive, norms) in zip(asked, kept):
        clear_caches()
        assert positive == analytic._trig_positive.__wrapped__(expr, gram)
        assert norms == analytic._with_nonnegative_norms.__wrapped__(expr)
