"""TD-RIDGE with a periodic score (docs/theory.md §20.1, "A periodic α"): sin(q·k) and cos(q·k) oscillate, so the
asymptotic engine states no growth, but a non-constant periodic function is not a polynomial, which is all the
moment lemma needs. Checked against a simulation (one layer separates) and the verifier (which re-derives the
period and rejects a tampered score)."""
from __future__ import annotations

import copy
import dataclasses
import hashlib

import pytest
import sympy

import uapcheck
from tests.certificates import certificate_of
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


def _with_text(cert: dict, old: str, new: str) -> dict:
    out = copy.deepcopy(cert)
    text = out["input"]["text"].replace(old, new)
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def test_the_verifier_re_derives_the_period_and_rejects_a_tampered_score():
    cert = certificate_of("attention { score s(x, y) = sin(x . y); affine query key }\n")
    report = verify(cert)
    assert next(s.outcome for s in report.steps if s.rule == "TD-RIDGE") == "checked numerically"
    # nothing rejected (LIM-OSC, the refuted (LIM) premise the route does not use, is the verifier's trusted step)
    assert all(s.outcome != "rejected" for s in report.steps) and not report.problems
    for tampered in ("sin(x . y) + (x . y)", "sin(x . y)^2 + cos(x . y)^2"):
        bad = verify(_with_text(cert, "sin(x . y)", tampered))
        assert not bad.ok
        assert next(s.outcome for s in bad.steps if s.rule == "TD-RIDGE") == "rejected"


def test_one_layer_separates_in_a_simulation():
    from uapcheck.parse import parse_source
    from uapcheck.simulate import Options, simulate
    sim = simulate(parse_source("attention { score s(x, y) = sin(x . y); affine query key }\n", "t.uap"), None,
                   Options(seed=0))
    (demo,) = [d for d in sim.demonstrations if d.kind == "separation"]
    assert demo.holds is True
