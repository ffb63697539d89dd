"""Constants in the params (docs/theory.md §5, Lemma G): a subexpression in the declared params alone that is finite
and real for every admissible value is one number per value, which θ does not enter, so AN-STRUCT passes it.
exp(x·y/τ) is analytic (and the head UAP) with `param tau != 0` or `> 0`, whose constraints exclude the pole τ = 0,
and stays undecided with `>= 0` or `real`, which admit it. Checked a second way with mpmath: finite at random inputs
for admissible τ near 0, and a pole at τ = 0."""
from __future__ import annotations

import random

import mpmath
import pytest
import sympy
from certificates import certificate_of

import uapcheck
from uapcheck.rules.analytic import finite_param_constant
from uapcheck.verifier import TRUSTED, VERIFIED, verify


def _source(body: str, constraint: str) -> str:
    return f"tokens n\nparam tau {constraint}\nattention {{ kernel k(x, y) = {body} }}\n"


def _step(result, rule: str):
    return next(s for s in result.root.walk() if s.rule == rule)


@pytest.mark.parametrize("constraint,analytic", [("!= 0", True), ("> 0", True), (">= 0", False), ("real", False)])
def test_the_constraint_decides_whether_the_pole_is_excluded(constraint, analytic):
    result = uapcheck.check(_source("exp(x . y / tau)", constraint), "t.uap")
    an, wp = _step(result, "AN-STRUCT"), _step(result, "WP-POSITIVE")
    assert (an.status == "proved") is analytic
    assert (wp.status == "proved") is analytic  # x·y/τ is real for every admissible τ only when τ = 0 is excluded
    assert (result.verdict == "UAP") is analytic
    if not analytic:
        assert result.verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("body", ["exp(x . y / tau)", "exp(x . y * tau^(-2))", "exp((x . y) / (2 * tau))",
                                  "exp(x . y * log(tau^2 + 1) / tau)"])
def test_the_verifier_re_derives_the_constants(body):
    report = verify(certificate_of(_source(body, "!= 0")))
    outcome = {s.rule: s.outcome for s in report.steps}
    assert outcome["AN-STRUCT"] == VERIFIED, [s.reason for s in report.steps if s.rule == "AN-STRUCT"]
    assert report.ok


def test_a_constant_that_meets_a_pole_is_not_one():
    tau = sympy.Symbol("tau", real=True, nonzero=True)
    free = sympy.Symbol("tau", real=True)
    positive = sympy.Symbol("tau", positive=True)
    assert finite_param_constant(1 / tau)
    assert not finite_param_constant(1 / free)
    assert not finite_param_constant(1 / (tau - 1))  # τ = 1 is admissible under `!= 0`
    assert not finite_param_constant(sympy.tan(positive))  # poles at π/2 + kπ
    assert not finite_param_constant(sympy.log(tau))  # τ < 0 admissible
    assert finite_param_constant(sympy.log(positive))
    assert not finite_param_constant(sympy.Symbol("x·z", real=True) / tau)  # an invariant is not a constant


def _with_constraint(cert: dict, constraint: str) -> dict:
    """The certificate of `param tau != 0` with its input re-declared (`tau >= 0`, `tau real`) and re-hashed, so
    that the verifier re-parses the new constraint against the steps derived under the old one."""
    import hashlib
    text = cert["input"]["text"].replace("tau != 0", constraint)
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cert


def test_a_division_by_the_input_stays_flagged():
    result = uapcheck.check(_source("exp(tau / (x . y))", "!= 0"), "t.uap")
    assert _step(result, "AN-STRUCT").status == "undecided"


def test_a_forged_analyticity_at_a_pole_is_not_verified():
    """AN-STRUCT's status forced to `proved` under `tau >= 0` (where τ = 0 is a pole): the verifier does not verify it."""
    cert = _with_constraint(certificate_of(_source("exp(x . y / tau)", "!= 0")), "tau >= 0")
    outcome = next(s for s in verify(cert).steps if s.rule == "AN-STRUCT")
    assert outcome.outcome != VERIFIED
    assert outcome.outcome in (TRUSTED, "rejected")


def test_finite_at_admissible_tau_and_a_pole_at_zero():
    """mpmath: exp(x·y/τ) is finite (and positive) at random x, y in R² for τ = ±10⁻³, ±1, ±7.25, and x·y/τ has no
    finite value at τ = 0 (division by zero)."""
    mpmath.mp.dps = 30
    rng = random.Random(3)
    for tau in (mpmath.mpf("0.001"), mpmath.mpf("-0.001"), 1, -1, mpmath.mpf("7.25"), mpmath.mpf("-7.25")):
        for _ in range(100):
            dot = sum(mpmath.mpf(rng.uniform(-3, 3)) * mpmath.mpf(rng.uniform(-3, 3)) for _ in range(2))
            v = mpmath.exp(dot / tau)
            assert mpmath.isfinite(v) and v > 0
    with pytest.raises(ZeroDivisionError):
        mpmath.mpf(1) / mpmath.mpf(0)


def test_a_forged_positivity_at_an_admissible_pole_is_not_verified():
    """WP-POSITIVE forced to `proved` (all inputs) for exp(x·y/τ) under `param tau real`: τ = 0 is admissible and the
    kernel undefined there, so the verifier's positivity test (exponents real *and defined*) does not verify it."""
    cert = _with_constraint(certificate_of(_source("exp(x . y / tau)", "!= 0")), "tau real")
    outcome = next(s for s in verify(cert).steps if s.rule == "WP-POSITIVE")
    assert outcome.outcome != VERIFIED


def test_tan_is_no_constant_and_no_real_exponent():
    result = uapcheck.check("tokens n\nattention { kernel k(x, y) = exp(tan(x . y)) }\n", "t.uap")
    wp = _step(result, "WP-POSITIVE")
    assert not (wp.status == "proved" and wp.evidence.get("dimensions") == "d ≥ 1")  # poles at x·y = π/2 + kπ
