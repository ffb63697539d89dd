"""Vector-valued feature maps written as a bracketed list of components (docs/language.md, docs/theory.md
§6.1 and LIM-FEATSUM): parsing and located errors, the lowering (the kernel is Σ_c φ_c(x) φ_c(y), checked
against hyperbolic FAVOR+'s closed form Σ_r 2cosh(w_r·(x + y)) e^{−(|x|²+|y|²)/2} at exact points, and
against the verifier's own evaluation), the derivation, the certificate and its tampering, and the
simulator."""
from __future__ import annotations

import pytest
import sympy

import uapcheck
from uapcheck import spec as S
from uapcheck.errors import UapError
from uapcheck.lower import (KEY_NORM2, QUERY_NORM2, RANDOM_DOT_KEY, RANDOM_DOT_QUERY, SCALE, FeatureKernel,
                            lower_head)
from uapcheck.parse import parse_source
from uapcheck.show import show_head
from uapcheck.verifier import kernels as vk

from certificates import certificate_of, rejects

HYPERBOLIC = "[exp(w . x - |x|^2 / 2), exp(-(w . x) - |x|^2 / 2)] random w"
SUMMED = "exp(w . x - |x|^2 / 2) + exp(-(w . x) - |x|^2 / 2) random w"


def source(body: str) -> str:
    return f"attention {{ features phi(x) = {body} }}\n"


def head_of(body: str) -> S.Head:
    return parse_source(source(body), "t.uap").heads[0]


def error_of(body: str) -> UapError:
    with pytest.raises(UapError) as info:
        parse_source(source(body), "t.uap")
    return info.value


def column_of(body: str, marker: str) -> int:
    return source(body).index(marker) + 1


def step(result, rule: str):
    return next(s for s in result.root.walk() if s.rule == rule)


# ---------------------------------------------------------------------------------------------
# Parsing

def test_a_list_parses_to_its_components_and_prints_back():
    head = head_of(HYPERBOLIC)
    assert isinstance(head.expr, S.FeatureList) and len(head.expr.items) == 2
    assert head.random == "w"
    assert show_head(head) == f"features phi(x) = {HYPERBOLIC}"
    assert head_of(show_head(head)[len("features phi(x) = "):]) == head  # the printed form reads back


def test_a_list_of_one_component_is_that_component():
    assert head_of("[exp(w . x)] random w").expr == head_of("exp(w . x) random w").expr


def test_coordinate_wise_components():
    head = head_of("[exp(x), exp(-x)]")
    assert isinstance(head.expr, S.FeatureList) and head.random is None


@pytest.mark.parametrize("body,marker,words", [
    ("[exp(w . x), x] random w", "x]", "must be a scalar expression"),
    ("[exp(x), |x|^2]", "|x|^2", "must be a vector in the argument"),
    ("[exp(x . x), exp(-|x|^2)] random w", "random", "does not appear in the feature map"),
    ("[exp(w . x), exp(2 * w . x)] random w", "2 * w", "may appear only as `w . v`"),
    ("[exp(w . x), expo(w . x)] random w", "expo", "unknown function `expo`"),
])
def test_bad_components_are_located_errors(body, marker, words):
    err = error_of(body)
    assert words in str(err)
    assert (err.line, err.column) == (1, column_of(body, marker))


def test_too_many_components():
    body = "[" + ", ".join(["exp(w . x)"] * 17) + "] random w"
    err = error_of(body)
    assert "at most 16 components" in str(err) and err.column == column_of(body, "[")


def test_a_list_is_only_a_feature_map():
    with pytest.raises(UapError) as info:
        parse_source("attention { kernel k(x, y) = [exp(x . y), 1] }\n", "t.uap")
    assert info.value.line == 1 and info.value.column == len("attention { kernel k(x, y) = ") + 1


# ---------------------------------------------------------------------------------------------
# Lowering: the kernel is Σ_c φ_c(x) φ_c(y), hyperbolic FAVOR+'s, not the summed feature's

def _term_at(model: FeatureKernel, f, cq, e, cb, t=1):
    return model.term.xreplace({RANDOM_DOT_QUERY: f, QUERY_NORM2: cq, RANDOM_DOT_KEY: e, KEY_NORM2: cb, SCALE: t})


POINTS = [(sympy.Integer(1), 2, sympy.Integer(-1), 3), (sympy.Rational(1, 2), 1, sympy.Integer(2), 5),
          (sympy.Integer(0), 1, sympy.Integer(0), 1)]


@pytest.mark.parametrize("f,cq,e,cb", POINTS)
def test_the_list_lowers_to_hyperbolic_favor(f, cq, e, cb):
    spec = parse_source(source(HYPERBOLIC), "t.uap")
    model = lower_head(spec, spec.heads[0])
    assert isinstance(model, FeatureKernel) and len(model.parts) == 2
    want = 2 * sympy.cosh(f + e) * sympy.exp(-(sympy.Integer(cq) + cb) / 2)
    assert sympy.simplify((_term_at(model, f, cq, e, cb) - want).rewrite(sympy.exp)) == 0


def test_the_summed_feature_is_a_different_kernel():
    spec = parse_source(source(SUMMED), "t.uap")
    model = lower_head(spec, spec.heads[0])
    f, cq, e, cb = POINTS[0]
    hyperbolic = 2 * sympy.cosh(f + e) * sympy.exp(-(sympy.Integer(cq) + cb) / 2)
    summed = _term_at(model, f, cq, e, cb)  # 4 cosh(w·x) cosh(w·y) e^{…}: the cross terms too
    assert sympy.N(summed - hyperbolic, 30) > 0.1


@pytest.mark.parametrize("x,y,w", [((1, 2), (-1, 1), (1, 0)), ((2, -1), (1, 3), (1, 1)),
                                   ((0, 1), (1, 0), (2, -1))])
def test_the_verifier_evaluates_the_same_kernel(x, y, w):
    spec = parse_source(source(HYPERBOLIC), "t.uap")
    head = spec.heads[0]
    value = vk.kernel_value(spec, head, tuple(map(sympy.Integer, x)), tuple(map(sympy.Integer, y)),
                            tuple(map(sympy.Integer, w)))
    dot = lambda a, b: sum(p * q for p, q in zip(a, b))  # noqa: E731
    s = tuple(p + q for p, q in zip(x, y))
    want = 2 * sympy.cosh(dot(w, s)) * sympy.exp(-sympy.Rational(dot(x, x) + dot(y, y), 2))
    assert sympy.simplify((value - want).rewrite(sympy.exp)) == 0


# ---------------------------------------------------------------------------------------------
# Derivations

def test_hyperbolic_favor_is_uap_by_the_feature_sum_rule():
    result = uapcheck.check(source(HYPERBOLIC), "t.uap")
    assert result.verdict == "UAP"
    lim = step(result, "LIM-FEATSUM")
    assert lim.status == "proved"
    assert "Σ_c" in str(step(result, "LIM-REDUCE").claim)
    assert step(result, "WP-POSITIVE").status == "proved"


def test_random_fourier_features_are_not_claimed():
    # cos(w·(x − y)) = cos(w·x)cos(w·y) + sin(w·x)sin(w·y): components of both signs, so no feature-sum proof
    result = uapcheck.check(source("[cos(w . x), sin(w . x)] random w"), "t.uap")
    assert result.verdict != "UAP"
    lim = step(result, "LIM-UNDECIDED")
    assert lim.status == "undecided" and "not shown non-negative" in str(lim.claim)


def test_a_component_that_vanishes_on_a_region_of_queries_is_not_claimed():
    result = uapcheck.check(source("[relu(w . x) * exp(w . x), exp(-(w . x))] random w"), "t.uap")
    assert result.verdict != "UAP"


def test_coordinate_components_exp_both_signs_are_uap():
    result = uapcheck.check(source("[exp(x), exp(-x)]"), "t.uap")
    assert result.verdict == "UAP" and step(result, "LIM-FEATSUM").status == "proved"


# ---------------------------------------------------------------------------------------------
# Certificate

def test_the_certificate_verifies_and_a_tampered_witness_is_rejected():
    from uapcheck.verifier import verify
    cert = certificate_of(source(HYPERBOLIC))
    assert verify(cert).ok
    lim = next(s for s in cert["steps"] if s["rule"] == "LIM-FEATSUM")
    region = lim["evidence"]["all w·z > 0"]
    point = region["witness"]["points"][0]
    point["z2"] = point["z1"]  # equal keys: the growing part no longer differs
    assert rejects(cert, "LIM-FEATSUM")


def test_the_verifier_calls_a_list_positive_or_analytic_only_when_every_component_is():
    from types import SimpleNamespace

    from uapcheck.verifier.rules_kernel import analytic, positive
    for body, is_positive, is_analytic in ((HYPERBOLIC, True, True),
                                           ("[exp(w . x), sin(w . x)] random w", False, True),
                                           ("[exp(w . x), relu(w . x)] random w", False, False)):
        spec = parse_source(source(body), "t.uap")
        ctx = SimpleNamespace(spec=spec)
        assert positive(ctx, spec.heads[0].expr, ()) is is_positive
        assert analytic(ctx, spec.heads[0].expr) is is_analytic


# ---------------------------------------------------------------------------------------------
# Simulation

def test_simulation_confirms_one_layer_separates():
    from uapcheck.simulate import Options, simulate
    sim = simulate(parse_source(source(HYPERBOLIC), "t.uap"), None, Options(seed=1))
    assert sim.verdict == "UAP" and sim.consistent
    sep = next(d for d in sim.demonstrations if d.kind == "separation")
    assert sep.holds is True and sep.data["layers"] == 1
