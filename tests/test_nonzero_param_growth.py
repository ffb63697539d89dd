"""(LIM) with a growing part whose key dependence carries a param of unknown sign (`param g != 0`,
exp(g * (x . y))): the coefficient difference −g·x·(z₁ − z₂) is non-zero for every admissible g, so one key
dominates (which one depends on the sign of g), which is all (LIM) asks (docs/theory.md §6.5, LIM-EXPPOLY).
Compared with the ratio at 50 digits for both signs of g, and with the verifier, which rejects the same
certificate once the declaration admits g = 0."""
from __future__ import annotations

import copy
import hashlib

import mpmath
import pytest

import uapcheck
from certificates import certificate_of
from uapcheck.verifier import verify

TEXT = "param g != 0\nattention { kernel k(x, y) = exp(g * (x . y)) }\n"


def test_a_nonzero_temperature_of_either_sign_is_uap():
    r = uapcheck.check(TEXT, "t.uap")
    assert r.verdict == "UAP" and r.layers == 1
    (lim,) = [s for s in r.root.walk() if s.rule == "LIM-EXPPOLY"]
    assert lim.status == "proved"


@pytest.mark.parametrize("declaration", ["param g real", "param g >= 0"])
def test_a_declaration_that_admits_zero_stays_open(declaration):
    r = uapcheck.check(TEXT.replace("param g != 0", declaration), "t.uap")
    assert r.verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("g", [-1.3, 0.7])
def test_the_ratio_tends_to_zero_or_infinity_for_both_signs(g):
    with mpmath.workdps(50):
        x, z1, z2 = mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(2)
        ratios = [mpmath.exp(g * t * x * z1) / mpmath.exp(g * t * x * z2) for t in (10, 100, 1000)]
    assert all(r > 1e10 for r in ratios[1:]) or all(r < 1e-10 for r in ratios[1:])


def test_the_verifier_accepts_and_rejects_the_certificate_under_g_real():
    cert = certificate_of(TEXT)
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    text = bad["input"]["text"].replace("param g != 0", "param g real")
    bad["input"]["text"] = text
    bad["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    report = verify(bad)
    assert not report.ok
