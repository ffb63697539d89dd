"""Theorem F217 (docs/theory.md §20.1, TD-RIDGE): a param-free score α(q·k) = exp(H) whose exponent outgrows log t at
one end (an exponential, or a power t^p with p ≥ 1) is not a polynomial, so with `affine query key` the moment lemma
and Theorem 2 give one layer, S_n. `exp(exp(x . y))` with affine query and key was undecided (no growth form for
α); it is UAP. Checked a second way with mpmath (a biased e^{e^{q·k}} layer separates a pair with equal power sums up
to degree 3, which polynomial scores of degree ≤ 2 never separate) and by the verifier, which re-derives exp(H) and
checks H's growth at 60 digits without evaluating α at large arguments."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import mpmath as mp
import pytest
import sympy

import uapcheck
from certificates import certificate_of, step_outcome as _outcome, with_text
from uapcheck import proof
from uapcheck.asymptotics import Growth
from uapcheck.rules.ridge import exponent_not_polynomial
from uapcheck.verifier import verify


def _text(body: str, affine: bool = True) -> str:
    return f"attention {{\n  {body}\n" + ("  affine query key\n" if affine else "") + "}\n"


def _ridge(result):
    return next(s for s in result.root.walk() if s.rule == "TD-RIDGE")


@pytest.mark.parametrize("body", ["kernel k(x, y) = exp(exp(x . y))", "kernel k(x, y) = exp(-exp(x . y))",
                                  "score s(x, y) = exp(exp(x . y))"])
def test_a_double_exponential_score_with_biases_is_uap(body):
    result = uapcheck.check(_text(body))
    step = _ridge(result)
    assert step.proved
    assert (result.verdict, result.group.name, result.layers) == ("UAP", "S_n", 1)
    assert "α = exp(H)" in step.evidence["reason"]
    assert "growth of H at +∞" in step.evidence


def test_the_catalog_file_is_uap():
    result = uapcheck.check_file(Path(__file__).resolve().parent.parent / "catalog" / "exp_exp_affine.uap")
    assert (result.verdict, result.group.name, result.layers) == ("UAP", "S_n", 1)


@pytest.mark.parametrize("text", [
    _text("kernel k(x, y) = exp(exp(x . y))", affine=False),     # no biases: (LIM) fails on x·z < 0, no moment route
    "param g > 0\n" + _text("kernel k(x, y) = exp(g * exp(x . y))"),  # params: the route is not stated for them
])
def test_outside_the_route_the_verdict_stays_inconclusive(text):
    assert uapcheck.check(text).verdict == "INCONCLUSIVE"


def test_which_exponents_rule_out_a_polynomial():
    one, half = sympy.Integer(1), sympy.Rational(1, 2)
    assert exponent_not_polynomial(Growth(one, sympy.Integer(0), ((one, one),), False), 1) is not None  # e^t
    assert exponent_not_polynomial(Growth(-one, sympy.Integer(2), (), False), -1) is not None          # −t²
    assert exponent_not_polynomial(Growth(one, one, (), False), 1) is not None                         # t
    assert exponent_not_polynomial(Growth(one, half, (), False), 1) is None                            # √t: not stated
    assert exponent_not_polynomial(Growth(one, sympy.Integer(0), ((one, -one),), False), 1) is None     # e^{−t} → 0
    g = sympy.Symbol("g", positive=True)
    assert exponent_not_polynomial(Growth(g, one, (), False), 1) is None                                # a param


def test_the_certificate_rejects_a_forged_exponent_growth():
    result = uapcheck.check(_text("kernel k(x, y) = exp(exp(x . y))"))
    cert = _ridge(result).certificate
    cert.check()
    end, g = cert.exponent
    for bad in (dataclasses.replace(g, C=g.C * 3), dataclasses.replace(g, E=((sympy.Integer(1), sympy.Integer(2)),))):
        with pytest.raises(proof.CertificateRejected):
            dataclasses.replace(cert, exponent=(end, bad)).check()


# ---------------------------------------------------------------------------------------------
# Numbers, independent of the engines (mpmath at 60 digits)

def _output(tokens, wq, wk, wv, bq, bk):
    alpha = lambda u: mp.exp(mp.exp(u))  # noqa: E731
    q = wq * tokens[0] + bq
    weights = [alpha(q * (wk * y + bk)) for y in tokens]
    return sum(w * wv * y for w, y in zip(weights, tokens)) / sum(weights)


def test_one_biased_layer_separates_a_pair_with_equal_power_sums():
    mp.mp.dps = 60
    X, Y = [5, 0, 4, 7, 11], [5, 1, 2, 9, 10]  # Σ r^k equal for k ≤ 3: blind spot of scores of degree ≤ 2
    assert all(sum(r ** k for r in X) == sum(r ** k for r in Y) for k in range(4))
    rng = random.Random(5)
    for _ in range(5):
        wq, wk, wv, bq, bk = (mp.mpf(rng.uniform(-0.4, 0.4)) for _ in range(5))
        assert abs(_output(X, wq, wk, wv, bq, bk) - _output(Y, wq, wk, wv, bq, bk)) > mp.mpf(10) ** -12


def test_the_profile_outgrows_every_power():
    mp.mp.dps = 60
    ratios = [mp.exp(mp.exp(T)) / T ** 20 for T in (mp.mpf(4), mp.mpf(6), mp.mpf(8))]
    assert ratios[0] < ratios[1] < ratios[2]


# ---------------------------------------------------------------------------------------------
# The verifier

EE = "exp(exp(x . y))"


def test_the_verifier_checks_the_exponent_route():
    report = verify(certificate_of(_text(f"kernel k(x, y) = {EE}")))
    assert report.ok and _outcome(report, "TD-RIDGE") == "checked numerically"


@pytest.mark.parametrize("new", [
    "exp(log(1 + (x . y)^2))",  # H = log(1 + u²) grows like 2 log u: a polynomial profile
    "(x . y)^2 + 1",            # not one exponential
])
def test_a_forged_exponent_route_is_rejected(new):
    cert = with_text(certificate_of(_text(f"kernel k(x, y) = {EE}")), EE, new)
    assert _outcome(verify(cert), "TD-RIDGE") == "rejected"
