"""Lemma K (docs/theory.md §4): a feature map whose every component has the sign of its argument makes a
kernel that takes both signs, k(x, −x) < 0 < k(x, x), so a normalised head is ILL-POSED. Compared with numpy
(the kernel's values at random x and −x) and re-checked by the verifier, which rejects a tampered formula."""
from __future__ import annotations


import numpy as np
import pytest
import sympy

import uapcheck
from certificates import certificate_of, step_outcome, with_text
from uapcheck.certificates import SignPattern, sign_of_argument
from uapcheck.proof import CertificateRejected
from uapcheck.verifier import verify

# (feature map, φ on one coordinate or one w·x as numpy, random?)
SIGN_PATTERN = [
    ("exp(x) - 1", lambda u, c: np.exp(u) - 1, False),
    ("exp(w . x) - exp(-(w . x)) random w", lambda u, c: np.exp(u) - np.exp(-u), True),
    ("tanh(x) * exp(-|x|^2)", lambda u, c: np.tanh(u) * np.exp(-c), False),
    ("x^3", lambda u, c: u ** 3, False),
    ("sinh(w . x) random w", lambda u, c: np.sinh(u), True),
    ("[x, 1 - exp(x)]", None, False),
]


def _step(text: str):
    r = uapcheck.check(text, "t.uap")
    (step,) = [s for s in r.root.walk() if s.rule == "WP-POSITIVE"]
    return r, step


@pytest.mark.parametrize("phi, numeric, random", SIGN_PATTERN)
def test_a_sign_pattern_feature_map_is_ill_posed(phi, numeric, random):
    r, step = _step(f"attention {{ features phi(x) = {phi} }}\n")
    assert r.verdict == "ILL-POSED"
    assert step.status == "refuted" and "sign pattern" in step.evidence
    if numeric is None:
        return
    rng = np.random.default_rng(0)
    for _ in range(20):  # the kernel at x and ±x, d = 3, 8 random features
        x = rng.normal(size=3)
        W = rng.normal(size=(8, 3)) if random else np.eye(3)
        f = numeric(W @ x, x @ x)
        g = numeric(W @ -x, x @ x)
        assert f @ f > 0 > f @ g


@pytest.mark.parametrize("phi, verdict", [
    ("exp(x) - 1/2", "INCONCLUSIVE"),  # exp(u) − 1/2 > 0 for u > −log 2: no sign pattern
    ("relu(x)", "INCONCLUSIVE"),  # zero for u < 0, never negative
    ("elu(x) + 1", "INCONCLUSIVE"),  # positive (linear_elu: open elsewhere, theory §13)
])
def test_maps_without_the_pattern_are_not_ill_posed_by_it(phi, verdict):
    r, step = _step(f"attention {{ features phi(x) = {phi} }}\n")
    assert r.verdict == verdict
    assert "sign pattern" not in step.evidence


def test_the_sign_of_the_argument_is_proved_two_ways():
    u = sympy.Symbol("u", real=True)
    assert sign_of_argument(sympy.exp(u) - 1, u) == 1  # q(0) = 0 and q′ = e^u > 0
    assert sign_of_argument(sympy.atan(u), u) == 1  # by the assumptions at u > 0 and u < 0
    assert sign_of_argument(1 - sympy.exp(u), u) == -1
    assert sign_of_argument(sympy.exp(u) - sympy.Rational(1, 2), u) == 0
    assert sign_of_argument(u ** 2, u) == 0


def test_the_certificate_rejects_a_key_side_that_differs_or_a_map_without_the_pattern():
    u, v = sympy.Symbol("u", real=True), sympy.Symbol("v", real=True)
    cq, cb = sympy.Symbol("cq", positive=True), sympy.Symbol("cb", positive=True)
    SignPattern(((sympy.exp(u) - 1, sympy.exp(v) - 1),), u, v, (cq, cb)).check()
    for parts in [((sympy.exp(u) - 1, sympy.exp(2 * v) - 1),), ((sympy.exp(u) - 2, sympy.exp(v) - 2),)]:
        with pytest.raises(CertificateRejected):
            SignPattern(parts, u, v, (cq, cb)).check()


@pytest.mark.parametrize("phi, tampered", [
    ("exp(x) - 1", "exp(x) - 1/2"),
    ("x^3", "x^2"),
    ("exp(w . x) - exp(-(w . x)) random w", "exp(w . x) + exp(-(w . x)) random w"),
])
def test_the_verifier_re_derives_the_pattern_and_rejects_a_tampered_map(phi, tampered):
    cert = certificate_of(f"attention {{ features phi(x) = {phi} }}\n")
    report = verify(cert)
    assert report.ok and step_outcome(report, "WP-POSITIVE") == "verified"
    bad = verify(with_text(cert, phi, tampered))
    assert not bad.ok and step_outcome(bad, "WP-POSITIVE") == "rejected"
