"""Kernel-side certificate fields that an OK used to leave unchecked: an ILL-POSED verdict resting on a trusted sign
change, the random-feature sign change itself (a positive amplitude times a 2π-periodic factor of w·x), the
regions a LIM-REGION step states beside its chosen one, and the pair of a TD-WITNESS proof certificate."""
from __future__ import annotations

import copy
import hashlib

from tests.certificates import certificate
from uapcheck.verifier import verify


def _with_text(cert: dict, old: str, new: str) -> dict:
    out = copy.deepcopy(cert)
    text = out["input"]["text"]
    assert old in text
    text = text.replace(old, new)
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def _outcome(report, rule: str) -> str:
    return next(s.outcome for s in report.steps if s.rule == rule)


def test_the_random_feature_sign_change_is_verified():
    report = verify(certificate("performer_trig.uap"))
    assert report.ok and _outcome(report, "WP-POSITIVE") == "verified"


def test_a_positive_periodic_factor_is_rejected():
    cert = _with_text(certificate("performer_trig.uap"), "cos(w . x)", "(2 + cos(w . x))")
    report = verify(cert)
    assert not report.ok and _outcome(report, "WP-POSITIVE") == "rejected"


def test_an_ill_posed_verdict_on_a_trusted_step_is_not_ok():
    cert = _with_text(certificate("performer_trig.uap"), "exp(|x|^2 / 2) * cos(w . x)", "exp(w . x - |x|^2 / 2)")
    report = verify(cert)
    assert _outcome(report, "WP-POSITIVE") in ("trusted", "rejected")
    assert not report.ok


def test_a_failing_region_restated_as_holding_is_rejected():
    cert = copy.deepcopy(certificate("sigmoid.uap"))
    step = next(s for s in cert["steps"] if s["rule"] == "LIM-REGION")
    other = next(r for r in step["data"]["regions"] if r["region"] != step["data"]["chosen region"])
    assert other["status"] == "fails"
    other["status"] = "holds"
    report = verify(cert)
    assert not report.ok and _outcome(report, "LIM-REGION") == "rejected"


def test_a_witness_certificate_with_another_pair_is_rejected():
    cert = copy.deepcopy(certificate("polynomial.uap"))
    step = next(s for s in cert["steps"] if s["rule"] == "TD-WITNESS")
    step["certificate"]["right"][-1] += 1
    assert _outcome(verify(cert), "TD-WITNESS") == "rejected"
    assert _outcome(verify(certificate("polynomial.uap")), "TD-WITNESS") == "checked numerically"


def test_positivity_of_an_exponential_of_a_non_real_argument_is_not_verified():
    """exp(√(x·y)) is not positive (exp(2i) at x·y = −4): a WP-POSITIVE `proved` kept on that formula is not verified
    by structure (the verifier's positivity needs a real argument of exp, sigmoid, softplus and cosh)."""
    cert = _with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)", "kernel k(x, y) = exp(sqrt(x . y))")
    assert _outcome(verify(cert), "WP-POSITIVE") != "verified"
    cert = _with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)", "kernel k(x, y) = 2 ^ sqrt(x . y)")
    assert _outcome(verify(cert), "WP-POSITIVE") != "verified"
    cert = _with_text(certificate("softmax.uap"), "kernel k(x, y) = exp(x . y)",
                      "kernel k(x, y) = exp(sqrt(|x|^2) + log(1 + |y|^2))")
    assert _outcome(verify(cert), "WP-POSITIVE") == "verified"


def _ridge_certificate(tmp_path) -> dict:
    from tests.certificates import certificate_from_cli
    return certificate_from_cli("attention {\n  score s(x, y) = cos(x . y)\n  affine query key\n}\n", tmp_path)


def _with_period(cert: dict, evidence: str, stated: str) -> dict:
    out = copy.deepcopy(cert)
    step = next(s for s in out["steps"] if s["rule"] == "TD-RIDGE")
    step["evidence"]["period"], step["certificate"]["period"] = evidence, stated
    return out


def test_a_ridge_period_is_re_derived_and_a_tampered_one_rejected(tmp_path):
    """TD-RIDGE's periodic route states a period p of α(u) = cos u; the verifier checks α(u + p) = α(u) exactly for
    the stated p: 2π and 4π hold, π (cos(u + π) = −cos u) and a period the evidence and certificate disagree on do
    not."""
    cert = _ridge_certificate(tmp_path)
    assert _outcome(verify(cert), "TD-RIDGE") == "checked numerically"
    assert _outcome(verify(_with_period(cert, "4*pi", "4*pi")), "TD-RIDGE") == "checked numerically"
    for evidence, stated in (("pi", "pi"), ("pi/2", "pi/2"), ("2*pi", "pi"), ("2*pi + 1", "2*pi + 1")):
        report = verify(_with_period(cert, evidence, stated))
        assert _outcome(report, "TD-RIDGE") == "rejected" and not report.ok, (evidence, stated)
