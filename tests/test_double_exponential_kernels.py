"""The double-exponential kernel class LIM-EXPEXP (Theorem F209, docs/theory.md §6.5): a closed kernel
k(x, t z) = exp(H) whose exponent tends to +∞ or −∞ (one sign per region) and satisfies (LIM) itself satisfies (LIM), since
log k(x,tz₁) − log k(x,tz₂) = H₁ − H₂ = H₂(H₁/H₂ − 1). The rule fires only where H → +∞ or H → −∞ on every sign region
is shown; near misses (an exponent that tends to 0 on a region, or that returns to 0) keep their verdict. The
numbers are checked with mpmath, independently of the engines, and the verifier re-derives H from the re-parsed
formula."""
from __future__ import annotations

import copy
import random

import mpmath as mp
import pytest

import uapcheck
from certificates import certificate_of, step_outcome as _outcome, with_text
from uapcheck.verifier import verify


def _text(body: str) -> str:
    return f"attention {{\n  {body}\n}}\n"


def _steps(result, rule: str) -> list:
    return [s for s in result.root.walk() if s.rule == rule]


def _lim_steps(result) -> list:
    return [s for s in result.root.walk() if s.rule.startswith("LIM-") and s.rule != "LIM-REDUCE"]


COVERED = [
    "kernel k(x, y) = exp(cosh(x . y))",
    "kernel k(x, y) = exp(cosh(x . y) + cos(x . y))",       # a bounded summand next to the growing cosh
    "kernel k(x, y) = exp(cos(x . y) + cosh(x . y))",       # the rotation TD-COMPLEX refuses: its own rotation
    "kernel k(x, y) = exp(cosh(x . y) * (2 + cos(x . y)))",  # a bounded positive oscillating factor of H
    "kernel k(x, y) = exp(cosh(|x - y|^2))",                # H ~ e^{t²|z|²}/2
    "score s(x, y) = exp(cosh(x . y))",
    "kernel k(x, y) = exp(-cosh(x . y))",                   # H → −∞ on both signs of x·z
    "kernel k(x, y) = exp(x . y * cosh(x . y))",            # H → +∞ where x·z > 0, −∞ where x·z < 0
]


@pytest.mark.parametrize("body", COVERED)
def test_a_double_exponential_kernel_is_uap_through_its_exponent(body):
    result = uapcheck.check(_text(body))
    (lim,) = _lim_steps(result)
    assert lim.rule == "LIM-EXPEXP" and lim.proved
    assert (result.verdict, result.group.name, result.layers) == ("UAP", "S_n", 1)
    assert "double-exponential class" in lim.claim and "H(x,tz₁) − H(x,tz₂) → ±∞" in lim.claim
    assert "log |H(x,tz₁)| − log |H(x,tz₂)|" in lim.claim
    # the numeric cross-check of log H at the witness points agrees with the derived growth
    checks = lim.evidence["numeric cross-check"]
    assert checks and all(c.get("agrees", True) and "skipped" not in c for c in checks)


NEAR_MISSES = {
    # H = e^{t x·z} → 0 where x·z < 0: k → 1 there and (LIM) fails on that region
    "kernel k(x, y) = exp(exp(x . y))": "LIM-BOUNDED",
    # H returns to 0 at every zero of 1 + cos: not a bounded positive factor
    "kernel k(x, y) = exp(cosh(x . y) * (1 + cos(x . y)))": "LIM-OSC",
    # H = x·z e^{t x·z} → 0 where x·z < 0: k → 1 there
    "kernel k(x, y) = exp(x . y * exp(x . y))": "LIM-UNDECIDED",
    # H = −e^{t x·z} → 0 where x·z < 0
    "kernel k(x, y) = exp(-exp(x . y))": "LIM-BOUNDED",
    # a triple exponential: no growth form for H
    "kernel k(x, y) = exp(exp(cosh(x . y)))": "LIM-UNDECIDED",
}


@pytest.mark.parametrize("body", sorted(NEAR_MISSES))
def test_near_misses_keep_their_class_and_stay_inconclusive(body):
    result = uapcheck.check(_text(body))
    assert result.verdict == "INCONCLUSIVE"
    (lim,) = _lim_steps(result)
    assert lim.rule == NEAR_MISSES[body] and not lim.proved
    assert not _steps(result, "LIM-EXPEXP")


def test_an_even_exponent_names_the_antipodal_keys():
    result = uapcheck.check(_text("kernel k(x, y) = exp(cosh(x . y))"))
    (lim,) = _steps(result, "LIM-EXPEXP")
    assert any("antipodal keys" in note for note in lim.notes)
    (odd,) = _steps(uapcheck.check(_text("kernel k(x, y) = exp(cosh(x . y) + x . y)")), "LIM-EXPEXP")
    assert not any("antipodal" in note for note in odd.notes)


def test_the_pinned_open_question_is_gone_for_cosh():
    """exp(cosh(x . y)) was LIM-UNDECIDED ("no double-exponential class"); its derivation now names the class."""
    result = uapcheck.check(_text("kernel k(x, y) = exp(cosh(x . y))"))
    assert not _steps(result, "LIM-UNDECIDED")
    (td,) = _steps(result, "TD-KERNEL")
    assert td.proved


# ---------------------------------------------------------------------------------------------
# Numbers, independent of the engines (mpmath at 60 digits)

def test_the_log_ratio_of_exp_cosh_diverges_with_the_larger_score():
    mp.mp.dps = 60
    rng = random.Random(7)
    for _ in range(40):
        s1, s2 = (mp.mpf(rng.uniform(-3, 3)) for _ in range(2))
        if abs(abs(s1) - abs(s2)) < mp.mpf("0.05"):
            continue
        t = mp.mpf(4096)
        diff = mp.cosh(t * s1) - mp.cosh(t * s2)  # log k(x, t z1) − log k(x, t z2), s_i = x·z_i
        assert abs(diff) > 10 ** 4 and mp.sign(diff) == mp.sign(abs(s1) - abs(s2))
        top = max(abs(s1), abs(s2))
        # log |H₁ − H₂| = t·max|s| − log 2 + o(1): the growth of the larger exponent decides
        assert abs(mp.log(abs(diff)) - (t * top - mp.log(2))) < mp.mpf(10) ** -10


def test_an_exponent_that_tends_to_minus_infinity_diverges_too():
    """H = s cosh(s) (k = e^{x·y cosh(x·y)}): H → +∞ for s > 0 and −∞ for s < 0. The log-ratio H(t s₁) − H(t s₂)
    diverges for scores of opposite signs at once, and for two negative scores with the one of larger modulus
    dominating (−∞ when |s₁| > |s₂|); so does −cosh (k = e^{−cosh(x·y)})."""
    mp.mp.dps = 60
    t = mp.mpf(512)

    def h(s):
        return s * mp.cosh(s)
    for s1, s2 in ((mp.mpf("0.3"), mp.mpf("-0.2")), (mp.mpf("-0.2"), mp.mpf("0.3"))):
        assert abs(h(t * s1) - h(t * s2)) > 10 ** 20 and mp.sign(h(t * s1) - h(t * s2)) == mp.sign(s1)
    for s1, s2 in ((mp.mpf("-0.3"), mp.mpf("-0.2")), (mp.mpf("-0.2"), mp.mpf("-0.3"))):
        diff = h(t * s1) - h(t * s2)
        assert abs(diff) > 10 ** 20 and mp.sign(diff) == -mp.sign(abs(s1) - abs(s2))
        neg = -mp.cosh(t * s1) + mp.cosh(t * s2)
        assert abs(neg) > 10 ** 20 and mp.sign(neg) == -mp.sign(abs(s1) - abs(s2))


def test_exp_exp_tends_to_one_on_negative_scores():
    """The near miss e^{e^{x·y}}: at x·z₁, x·z₂ < 0 the log-ratio e^{t s₁} − e^{t s₂} tends to 0, so the ratio tends
    to 1 and (LIM) fails there; the class must not fire."""
    mp.mp.dps = 60
    for s1, s2 in ((-1, -2), (mp.mpf("-0.5"), mp.mpf("-0.25"))):
        values = [abs(mp.exp(t * s1) - mp.exp(t * s2)) for t in (mp.mpf(10), mp.mpf(100), mp.mpf(1000))]
        assert values[0] > values[1] > values[2] and values[2] < mp.mpf(10) ** -100


# ---------------------------------------------------------------------------------------------
# The verifier

COSH = "exp(cosh(x . y))"


def test_the_verifier_checks_the_exponent_numerically():
    report = verify(certificate_of(_text(f"kernel k(x, y) = {COSH}")))
    assert report.ok and not report.rejected
    assert _outcome(report, "LIM-EXPEXP") == "checked numerically"
    assert _outcome(report, "TD-KERNEL") == "verified"


@pytest.mark.parametrize("new", [
    "exp(x . y * exp(x . y))",     # H = x·z e^{t x·z} → 0 at the witness points of x·z < 0
    "exp(exp(x . y))",             # H = e^{t x·z} decreases where x·z < 0
    "exp(cos(x . y) * cosh(x . y))",  # H changes sign along t
    "exp(cosh(x . y)) + 1",        # not one exponential
    "exp(cosh(2 * x . y))",        # the stated growth coefficient of log H is twice the true one
])
def test_a_forged_double_exponential_step_is_rejected(new):
    cert = with_text(certificate_of(_text(f"kernel k(x, y) = {COSH}")), COSH, new)
    assert _outcome(verify(cert), "LIM-EXPEXP") == "rejected"


def test_a_false_growth_coefficient_is_rejected():
    cert = copy.deepcopy(certificate_of(_text(f"kernel k(x, y) = {COSH}")))
    step = next(s for s in cert["steps"] if s["rule"] == "LIM-EXPEXP")
    point = step["data"]["regions"][0]["points"][0]
    point["difference"] = point["difference"] * 3
    assert _outcome(verify(cert), "LIM-EXPEXP") == "rejected"


def _without_region(cert: dict, rule: str, region: str) -> dict:
    out = copy.deepcopy(cert)
    step = next(s for s in out["steps"] if s["rule"] == rule)
    step["data"]["regions"] = [r for r in step["data"]["regions"] if r["region"] != region]
    step["certificate"]["regions"] = [r for r in step["certificate"]["regions"] if r["region"] != region]
    return out


def test_a_proved_limit_that_leaves_out_a_sign_region_is_rejected():
    """A forged certificate that states (LIM) proved on x·z > 0 alone, for e^{e^{x·y}} (which fails on x·z < 0, where
    k → 1): every stated region holds at its witness points, so only the coverage of the regions can catch it. The
    verifier used to accept it (and the verdict UAP); the same for an ordinary class, e^{relu(x·y)}, whose kernel is
    the constant 1 on x·z < 0."""
    cosh = with_text(certificate_of(_text(f"kernel k(x, y) = {COSH}")), COSH, "exp(exp(x . y))")
    forged = _without_region(cosh, "LIM-EXPEXP", "x·z < 0")
    report = verify(forged)
    assert _outcome(report, "LIM-EXPEXP") == "rejected" and not report.ok
    absolute = certificate_of(_text("kernel k(x, y) = exp(abs(x . y))"))
    rule = next(s["rule"] for s in absolute["steps"] if s["rule"].startswith("LIM-") and s["rule"] != "LIM-REDUCE")
    assert verify(absolute).ok
    forged = _without_region(with_text(absolute, "exp(abs(x . y))", "exp(relu(x . y))"), rule, "x·z < 0")
    assert _outcome(verify(forged), rule) == "rejected"
