"""The ways of writing a kernel that WP-POSITIVE and AN-STRUCT try (uapcheck/rules/analytic.py): the
rewritten forms are exact identities, produced lazily (only when the form before did not decide) and
kept per expression and reparametrisation."""
from __future__ import annotations

import sympy

from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, ClosedKernel, FeatureKernel
from uapcheck.rules import analytic


def _closed(plain):
    return ClosedKernel(plain, plain, (a, b), (c,), "test")


def test_the_forms_are_the_identities_written_out():
    expr = 1 / (1 + b + c - 2 * a)
    forms = list(analytic._forms(_closed(expr), expr))
    assert [name for name, _ in forms] == [name for name, _ in analytic.REPARAMETRISATIONS]
    assert forms[0][1] is expr
    for (_, form), (_, sub) in zip(forms[1:], analytic.REPARAMETRISATIONS[1:]):
        assert form == sympy.expand(expr.xreplace(sub))
    # checked a second way: at a point where the identities hold, every form has the kernel's value
    x, z = sympy.Matrix([1, 2]), sympy.Matrix([3, -1])
    point = {a: x.dot(z), b: z.dot(z), c: x.dot(x), analytic.r_minus: (x - z).dot(x - z),
             analytic.r_plus: (x + z).dot(x + z)}
    assert {form.xreplace(point) for _, form in forms} == {expr.xreplace(point)}


def test_a_feature_kernel_has_one_form():
    u = sympy.Symbol("u", real=True)
    model = FeatureKernel(((sympy.exp(u), sympy.exp(u)),), u, u, "coordinate", "test")
    assert list(analytic._forms(model, sympy.exp(u))) == [("per-feature invariants", sympy.exp(u))]


def test_a_form_is_rewritten_only_when_asked_for():
    expr = sympy.exp(a)
    forms = analytic._forms(_closed(expr), expr)
    assert next(forms)[1] is expr
    assert analytic._rewritten.cache_size() == 0  # the first form decides softmax: nothing expanded
    next(forms)
    assert analytic._rewritten.cache_size() == 1


def test_the_rewritten_forms_are_kept_per_expression_and_reparametrisation():
    first = sympy.exp(a) + 1
    list(analytic._forms(_closed(first), first))
    assert analytic._rewritten.cache_size() == 2
    list(analytic._forms(_closed(first), first))
    assert analytic._rewritten.cache_size() == 2  # hits
    other = sympy.exp(2 * a) + 1
    forms = dict(analytic._forms(_closed(other), other))
    assert analytic._rewritten.cache_size() == 4
    assert forms[analytic.REPARAMETRISATIONS[1][0]] == sympy.expand(other.xreplace(analytic.REPARAMETRISATIONS[1][1]))
