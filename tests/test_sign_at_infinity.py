"""WP-POSITIVE by limits along a ray (docs/theory.md §4, "Both signs far out"): exp(x . y) - c with `param c > 0`
is negative where x·y < log c and positive for large x·y, for every admissible c, though no fixed point shows both
signs for every c. Compared with exact values at the c-dependent points x·y = log c ± 1, and with the verifier,
which rejects the certificate once the declaration admits c = 0."""
from __future__ import annotations

import copy
import hashlib

import pytest
import sympy

import uapcheck
from certificates import certificate_of
from uapcheck.certificates import SignAtInfinity
from uapcheck.lower import KEY_NORM2, QUERY_DOT_KEY, QUERY_NORM2
from uapcheck.proof import CertificateRejected
from uapcheck.verifier import verify

TEXT = "param c > 0\nattention { kernel k(x, y) = exp(x . y) - c }\n"


def _wp(text: str):
    r = uapcheck.check(text, "t.uap")
    (step,) = [s for s in r.root.walk() if s.rule == "WP-POSITIVE"]
    return r, step


def test_exp_minus_a_positive_constant_is_ill_posed_for_every_c():
    r, step = _wp(TEXT)
    assert r.verdict == "ILL-POSED" and step.status == "refuted"
    assert "sign at infinity" in step.evidence
    c = sympy.Symbol("c", positive=True)
    assert sympy.factor(sympy.expand(sympy.exp(sympy.log(c) + 1) - c)).is_positive  # c(e − 1)
    assert sympy.factor(sympy.expand(sympy.exp(sympy.log(c) - 1) - c)).is_negative  # c(1/e − 1)


@pytest.mark.parametrize("text, verdict", [
    ("param c >= 0\nattention { kernel k(x, y) = exp(x . y) - c }\n", "INCONCLUSIVE"),  # c = 0 is softmax
    ("param c > 0\nattention { kernel k(x, y) = exp(x . y) + c }\n", "INCONCLUSIVE"),  # positive
])
def test_a_kernel_positive_for_some_admissible_value_is_not_refuted(text, verdict):
    r, step = _wp(text)
    assert r.verdict == verdict and step.status != "refuted"


def test_the_certificate_recomputes_the_limits():
    a, b, c = QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2
    p = sympy.Symbol("c", positive=True)
    SignAtInfinity(sympy.exp(a) - p, a, b, c).check()
    for bad in (sympy.exp(a) + p, sympy.exp(a) - p ** 2 + p ** 2, sympy.exp(a - b) - p):
        with pytest.raises(CertificateRejected):
            SignAtInfinity(bad, a, b, c).check()


def test_the_verifier_re_derives_the_limits_and_rejects_c_nonnegative():
    cert = certificate_of(TEXT)
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    text = bad["input"]["text"].replace("param c > 0", "param c >= 0")
    bad["input"]["text"] = text
    bad["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    report = verify(bad)
    assert not report.ok
    assert next(s.outcome for s in report.steps if s.rule == "WP-POSITIVE") == "rejected"
