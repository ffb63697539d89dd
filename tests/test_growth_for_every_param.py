"""TD-RADIAL / TD-RIDGE prove "the profile is not a polynomial" from its growth C t^p e^{E(t)} at
infinity, which the asymptotic engine computes with the params as symbols. The step is proved only
when that form holds for every admissible param value (C finite and non-zero, p free of params:
docs/theory.md §20.1, hypothesis (G)): `param g >= 0` admits g = 0, where 1/(1 + g|x − y|²) is the
constant 1 (mean pooling, not UAP by one layer). The verifier re-derives the same for every value."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp
import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.asymptotics import Growth
from uapcheck.rules import ridge
from uapcheck.verifier import NUMERIC, REJECTED, verify

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_kernel_routes import PTE_X, PTE_Y, dist2, max_difference  # noqa: E402

pytestmark = pytest.mark.mpmath_digits(50)  # the digits of test_kernel_routes' references (tests/conftest.py)

CAUCHY = "param g {c}\nattention {{\n  kernel k(x, y) = 1 / (1 + g * |x - y|^2)\n}}\n"
RIDGE = "param g {c}\nattention {{\n  score s(x, y) = 1 / (1 + g * (x . y)^2)\n  affine query key\n}}\n"


def _steps(result, rule):
    return [s for s in result.root.walk() if s.rule == rule]


@pytest.mark.parametrize("text,rule", [(CAUCHY, "TD-RADIAL"), (RIDGE, "TD-RIDGE")], ids=["radial", "ridge"])
def test_a_param_range_that_admits_a_constant_profile_leaves_the_step_undecided(text, rule):
    result = uapcheck.check(text.format(c=">= 0"))
    assert result.verdict == "INCONCLUSIVE"
    (step,) = _steps(result, rule)
    assert step.status == proof.UNDECIDED
    assert "1/g" in step.claim and "g = 0" in step.claim and "every admissible param value" in step.claim
    proved = uapcheck.check(text.format(c="> 0"))  # g = 0 left out: the growth t^-1 (or t^-2) holds for all g
    assert proved.verdict == "UAP" and [s.status for s in _steps(proved, rule)] == [proof.PROVED]


def test_at_g_zero_the_layer_is_blind_to_the_tokens():
    """The reason the step must not be proved for g >= 0: at g = 0 the Cauchy kernel is constant, so one
    normalised layer gives every sample with the same mean the same output (numerically, 50 digits)."""
    at_zero = lambda q, k: 1 / (1 + 0 * dist2(q, k))  # noqa: E731
    assert max_difference(at_zero, PTE_X, PTE_Y) < mp.mpf(10) ** -40
    at_one = lambda q, k: 1 / (1 + dist2(q, k))  # noqa: E731
    assert max_difference(at_one, PTE_X, PTE_Y) > mp.mpf(10) ** -6
    assert uapcheck.check("attention {\n  kernel k(x, y) = 1 / (1 + 0 * |x - y|^2)\n}\n").verdict != "UAP"


@pytest.mark.parametrize("C,ok", [
    (1 / sympy.Symbol("g", nonnegative=True), False),  # infinite at g = 0
    (sympy.Symbol("g", nonnegative=True), False),  # zero at g = 0
    (1 / (sympy.Symbol("g", positive=True) - 1), False),  # infinite at g = 1
    (1 / sympy.Symbol("g", positive=True), True),
    (sympy.Integer(3), True),
])
def test_the_growth_form_must_hold_for_every_admissible_value(C, ok):
    assert (ridge.growth_form_problem(Growth(C, sympy.Integer(-1))) is None) == ok
    g = sympy.Symbol("g", positive=True)
    assert ridge.growth_form_problem(Growth(sympy.Integer(1), -g)) is not None  # the power depends on g


def test_the_certificate_rejects_a_growth_that_fails_at_an_admissible_value():
    good = uapcheck.check(CAUCHY.format(c="> 0"))
    (step,) = _steps(good, "TD-RADIAL")
    cert = step.certificate
    g0 = sympy.Symbol("g", nonnegative=True)
    kernel = cert.kernel.xreplace({s: g0 for s in cert.kernel.free_symbols if s.name == "g"})
    profile = cert.profile.xreplace({s: g0 for s in cert.profile.free_symbols if s.name == "g"})
    lying = ridge.MomentCertificate("radial", kernel, cert.params, profile, cert.variable, cert.normalized,
                                    cert.affine, cert.tied, cert.analytic, Growth(1 / g0, sympy.Integer(-1)), None)
    with pytest.raises(proof.CertificateRejected, match="every admissible param value"):
        lying.check()


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _retext(cert: dict, old: str, new: str) -> dict:
    text = cert["input"]["text"].replace(old, new)
    assert text != cert["input"]["text"]
    cert["input"]["text"] = text
    cert["input"]["sha256"] = certfile.source_hash(text)
    return cert


def _outcome(cert: dict, rule: str):
    return next(s for s in verify(cert).steps if s.rule == rule)


@pytest.mark.parametrize("text,rule", [(CAUCHY, "TD-RADIAL"), (RIDGE, "TD-RIDGE")], ids=["radial", "ridge"])
def test_the_verifier_accepts_the_positive_range_and_rejects_it_widened_to_zero(text, rule):
    cert = _certificate(text.format(c="> 0"))
    assert _outcome(cert, rule).outcome == NUMERIC
    widened = _outcome(_retext(cert, "param g > 0", "param g >= 0"), rule)
    assert widened.outcome == REJECTED and "g = 0" in widened.reason


def test_the_verifier_rejects_a_growth_constant_that_vanishes_inside_the_range():
    """1/(1 + (g − 1)|x − y|²) with g > 0 is constant at g = 1: no sample point hits it, the verifier's
    own limit 1/(g − 1) (not finite for every g > 0) does."""
    cert = _retext(_certificate(CAUCHY.format(c="> 0")), "1 + g *", "1 + (g - 1) *")
    step = _outcome(cert, "TD-RADIAL")
    assert step.outcome == REJECTED and "not shown finite and non-zero" in step.reason
