"""The verifier's own checks of two kernel-limit rules it used to leave out: LIM-OSCPROD (a growing kernel times a
bounded positive oscillating factor, docs/theory.md §6.5) is re-derived from the formula — the factor recognised as
A + Σ B_k s_k with A > Σ|B_k| or exp of a trigonometric polynomial of real arguments, and the witness points
re-checked exactly on the kernel with that factor set to 1 — and a refuted LIM-UNDECIDED (which the engine concludes
when every region where (LIM) does not hold fails) is checked like the class rules instead of being rejected."""
from __future__ import annotations

import copy

import mpmath as mp
import pytest

from certificates import certificate_of, step_outcome, with_text
from uapcheck.verifier import verify


def _text(kernel: str) -> str:
    return f"attention {{\n  kernel k(x, y) = {kernel}\n}}\n"


OSCPROD = [
    "exp(x . y) * (2 + cos(x . y))",
    "exp(x . y) * exp(sin(x . y))",
    "exp(x . y + cos(x . y))",
    "exp(x . y) * (3 + cos(x . y) * sin(x . y))",
    "exp(-|x - y|^2) * (2 + sin(|y|^2))",
]


@pytest.mark.parametrize("kernel", OSCPROD)
def test_lim_oscprod_is_verified_with_the_verifiers_own_code(kernel):
    cert = certificate_of(_text(kernel))
    assert any(s["rule"] == "LIM-OSCPROD" and s["status"] == "proved" for s in cert["steps"])
    report = verify(cert)
    # (WP-POSITIVE on 2 + cos(x·y) is positivity by sign regions, a trusted step: report.ok is not asked here)
    assert not report.rejected and step_outcome(report, "LIM-OSCPROD") == "verified"


@pytest.mark.parametrize("new", [
    "exp(x . y) * (1 + cos(x . y))",  # A = Σ|B|: the factor reaches 0, log k is unbounded below
    "exp(x . y) * (2 + cos(sqrt(x . y)))",  # cos of a non-real argument: cosh, unbounded
    "exp(x . y) * (2 + tanh(x . y))",  # no sine or cosine: not the oscillating form
])
def test_a_factor_that_is_not_bounded_positive_and_oscillating_is_rejected(new):
    cert = with_text(certificate_of(_text("exp(x . y) * (2 + cos(x . y))")), "exp(x . y) * (2 + cos(x . y))", new)
    assert step_outcome(verify(cert), "LIM-OSCPROD") == "rejected"


def test_a_false_growth_coefficient_is_rejected():
    cert = copy.deepcopy(certificate_of(_text("exp(x . y) * (2 + cos(x . y))")))
    step = next(s for s in cert["steps"] if s["rule"] == "LIM-OSCPROD")
    point = step["data"]["regions"][0]["points"][0]
    point["difference"] = point["difference"] * 3
    assert step_outcome(verify(cert), "LIM-OSCPROD") == "rejected"


def test_the_bounded_factor_only_adds_a_bounded_term_numerically():
    """log k(x, t z₁) − log k(x, t z₂) for exp(x·y)(2 + cos(x·y)) at x = 1, z = 1, 2 is −t + log((2 + cos t)/(2 + cos 2t)),
    whose second part stays within ±log 3 (mpmath at t up to 10^6): the growth −t the verifier re-checks decides."""
    mp.mp.dps = 30
    for t in (mp.mpf(10) ** e for e in range(7)):
        extra = mp.log((2 + mp.cos(t)) / (2 + mp.cos(2 * t)))
        assert abs(extra) <= mp.log(3) + mp.mpf(10) ** -20


FEATURES_REFUTED = "attention {\n  features phi(x) = relu(x) * exp(x)\n}\n"


def test_a_refuted_lim_undecided_is_not_rejected():
    """relu(x)e^x vanishes on all z[r] < 0, where (LIM) fails: the engine's LIM-UNDECIDED is refuted, a status its
    rule concludes (uapcheck/rules/limit.py); the verifier used to reject it as a rule that only concludes undecided."""
    cert = certificate_of(FEATURES_REFUTED)
    step = next(s for s in cert["steps"] if s["rule"] == "LIM-UNDECIDED")
    assert step["status"] == "refuted" and step["data"]["regions"]
    report = verify(cert)
    assert step_outcome(report, "LIM-UNDECIDED") != "rejected" and not report.rejected


def test_a_lim_undecided_stated_proved_is_rejected():
    cert = copy.deepcopy(certificate_of(FEATURES_REFUTED))
    next(s for s in cert["steps"] if s["rule"] == "LIM-UNDECIDED")["status"] = "proved"
    assert step_outcome(verify(cert), "LIM-UNDECIDED") == "rejected"


def test_oscprod_on_a_score_head_is_trusted_not_rejected():
    """The engine concludes LIM-OSCPROD for a positive score head too; the verifier re-checks the closed-kernel
    form only and reports the score head's step as trusted (docs/theory.md §18.5), never as rejected."""
    cert = certificate_of("attention {\n  score s(x, y) = exp(-|x - y|) * (2 + sin(x . y))\n}\n")
    report = verify(cert)
    assert step_outcome(report, "LIM-OSCPROD") == "trusted"
