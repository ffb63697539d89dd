"""TD-RIDGE with a periodic score (docs/theory.md §20.1, "A periodic α"): sin(q·k) and cos(q·k) oscillate, so the
asymptotic engine states no growth, but a non-constant periodic function is not a polynomial, which is all the
moment lemma needs. Checked against a simulation (one layer separates) and the verifier (which re-derives the
period and rejects a tampered score)."""
from __future__ import annotations

import copy
import dataclasses

import pytest
import sympy

import uapcheck
from certificates import certificate_of, with_text
from uapcheck.proof import CertificateRejected
from uapcheck.rules.ridge import U, MomentCertificate, periodic_not_constant
from uapcheck.verifier import verify


def _ridge(text: str):
    r = uapcheck.check(text, "t.uap")
    (step,) = [s for s in r.root.walk() if s.rule == "TD-RIDGE"]
    return r, step


@pytest.mark.parametrize("score", ["sin(x . y)", "cos(x . y)", "sin(x . y) + cos(x . y) / 2", "2 + sin(x . y)"])
def test_a_periodic_score_is_one_layer_token_distinguishing(score):
    r, step = _ridge(f"attention {{ score s(x, y) = {score}; affine query key }}\n")
    assert step.status == "proved" and str(step.evidence["period"]) in ("2*pi", "pi")
    assert r.verdict == "UAP" and r.layers == 1


def test_without_affine_terms_or_with_params_the_periodic_route_is_not_taken():
    r = uapcheck.check("attention { score s(x, y) = sin(x . y) }\n", "t.uap")
    assert not any(s.rule == "TD-RIDGE" and s.proved for s in r.root.walk())
    r, step = _ridge("param g real\nattention { score s(x, y) = sin(g * (x . y)); affine query key }\n")
    assert step.status != "proved"  # at g = 0 the score is the constant 0


def test_the_period_check():
    u = U
    assert periodic_not_constant(sympy.sin(u), u, 2 * sympy.pi)
    assert periodic_not_constant(sympy.cos(2 * u), u, sympy.pi)
    assert periodic_not_constant(sympy.sin(u) + u, u, 2 * sympy.pi) is None  # not periodic
    assert periodic_not_constant(sympy.sin(u) ** 2 + sympy.cos(u) ** 2, u, 2 * sympy.pi) is None  # constant


def test_the_certificate_rejects_a_non_periodic_profile():
    r, step = _ridge("attention { score s(x, y) = sin(x . y); affine query key }\n")
    cert = step.certificate
    cert.check()
    bad = dataclasses.replace(cert, profile=sympy.sin(U) + U)
    with pytest.raises(CertificateRejected):
        bad.check()
    with pytest.raises(CertificateRejected):
        dataclasses.replace(cert, period=sympy.Integer(3)).check()
    assert isinstance(cert, MomentCertificate)


def test_the_verifier_re_derives_the_period_and_rejects_a_tampered_score():
    cert = certificate_of("attention { score s(x, y) = sin(x . y); affine query key }\n")
    report = verify(cert)
    assert next(s.outcome for s in report.steps if s.rule == "TD-RIDGE") == "checked numerically"
    # nothing rejected (LIM-OSC, the refuted (LIM) premise the route does not use, is the verifier's trusted step)
    assert all(s.outcome != "rejected" for s in report.steps) and not report.problems
    for tampered in ("sin(x . y) + (x . y)", "sin(x . y)^2 + cos(x . y)^2"):
        bad = verify(with_text(cert, "sin(x . y)", tampered))
        assert not bad.ok
        assert next(s.outcome for s in bad.steps if s.rule == "TD-RIDGE") == "rejected"


def test_one_layer_separates_in_a_simulation():
    from uapcheck.parse import parse_source
    from uapcheck.simulate import Options, simulate
    sim = simulate(parse_source("attention { score s(x, y) = sin(x . y); affine query key }\n", "t.uap"), None,
                   Options(seed=0))
    (demo,) = [d for d in sim.demonstrations if d.kind == "separation"]
    assert demo.holds is True


# Rational frequencies other than 1 and 2: the common period 2πQ/g of the sines and cosines (Q the lcm of the
# frequencies' denominators, g the gcd of their numerators over Q), docs/theory.md §20.1.
COMMENSURABLE = [("sin((x . y) / 3)", "6*pi"), ("sin((x . y) / 2) + cos((x . y) / 3)", "12*pi"),
                 ("cos(2 * (x . y) / 5) + 1", "5*pi"), ("sin(3 * (x . y) / 4) * cos((x . y) / 6)", "24*pi")]


@pytest.mark.parametrize("score,period", COMMENSURABLE)
def test_a_trigonometric_polynomial_with_rational_frequencies_gets_its_common_period(score, period):
    import mpmath
    r, step = _ridge(f"attention {{ score s(x, y) = {score}; affine query key }}\n")
    assert step.status == "proved" and str(step.evidence["period"]) == period
    assert r.verdict == "UAP" and r.layers == 1
    # a second way: mpmath at random points, α(u + P) = α(u) to 40 digits and α not constant
    mpmath.mp.dps = 50
    p = int(period.split("*")[0]) * mpmath.pi
    prof = step.certificate.profile
    for u in (mpmath.mpf("0.3"), mpmath.mpf("-1.7"), mpmath.mpf("5.1")):
        a = sympy.N(prof.xreplace({U: sympy.Float(str(u), 50)}), 45)
        b = sympy.N(prof.xreplace({U: sympy.Float(str(u + p), 50)}), 45)
        assert abs(a - b) < 1e-35
    assert abs(sympy.N(prof.xreplace({U: 0}) - prof.xreplace({U: sympy.Rational(1, 2)}))) > 1e-3
    cert = certificate_of(f"attention {{ score s(x, y) = {score}; affine query key }}\n")
    report = verify(cert)
    assert next(s.outcome for s in report.steps if s.rule == "TD-RIDGE") == "checked numerically"
    tampered = copy.deepcopy(cert)
    for s in tampered["steps"]:
        if s["rule"] == "TD-RIDGE":
            for d in (s["evidence"], s.get("certificate") or {}):
                if "period" in d:
                    d["period"] = "pi"  # a half period or less of each of these: not a period
    assert next(s.outcome for s in verify(tampered).steps if s.rule == "TD-RIDGE") == "rejected"


def test_incommensurable_frequencies_get_no_period():
    """sin(u) + sin(√2 u) is not periodic (frequencies with an irrational ratio): no period is stated, and the step
    does not conclude from one."""
    from uapcheck.rules.ridge import _common_periods
    assert _common_periods(sympy.sin(U) + sympy.sin(sympy.sqrt(2) * U)) == ()
    r = uapcheck.check("attention { score s(x, y) = sin(x . y) + sin(sqrt(2) * (x . y)); affine query key }\n", "t.uap")
    assert not any(s.rule == "TD-RIDGE" and "period" in s.evidence for s in r.root.walk())
