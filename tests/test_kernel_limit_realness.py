"""(LIM) compares log-moduli, so a growing part whose coefficient is not real proves nothing: exp(√(x·y)) has the
growing part √(x·z) t^(1/2), imaginary where x·z < 0, where |k(x,tz₁)/k(x,tz₂)| = 1 for every t; it was LIM-EXPALG
`proved` (docs/theory.md §6). And SymPy's series drops an absolute value of a t-free atom (√(1 + |x·z|/s) expands to
√(x·z)/√s), which gave exp(√(1 + |x·y|)) that same non-real growing part; the expansion now sees |x·z| as a
non-negative symbol, and the verifier reads the fractional growth term t^(1/2) numerically."""
from __future__ import annotations

import json

import mpmath
import pytest
import sympy

from uapcheck.asymptotics import Context, growth
from uapcheck.lower import QUERY_DOT_KEY as a, SCALE as t
from uapcheck.verifier import REJECTED, verify
from certificates import certificate_of


def _text(kernel: str) -> str:
    return f"attention {{\n  kernel k(x, y) = {kernel}\n}}\n"


def _lim(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"].startswith("LIM-") and s["rule"] != "LIM-REDUCE")


def test_a_square_root_of_the_dot_product_does_not_prove_lim():
    cert = certificate_of(_text("exp(sqrt(x . y))"))
    assert _lim(cert)["status"] != "proved"
    assert cert["verdict"] != "UAP"


def test_the_modulus_of_the_ratio_stays_one_where_x_dot_z_is_negative():
    # the second way: where x·z < 0 the kernel has modulus 1 at every t, so the ratio cannot tend to 0 or ∞
    with mpmath.workdps(30):
        for scale in (mpmath.mpf(10) ** 4, mpmath.mpf(10) ** 12):
            k1, k2 = mpmath.exp(mpmath.sqrt(-1 * scale)), mpmath.exp(mpmath.sqrt(-2 * scale))
            assert abs(abs(k1 / k2) - 1) < mpmath.mpf("1e-20")


def test_an_absolute_value_survives_the_puiseux_expansion():
    g = growth(sympy.exp(sympy.sqrt(1 + sympy.Abs(t * a))), Context())
    (alpha, coeff), = g.E
    assert alpha == sympy.Rational(1, 2) and coeff == sympy.sqrt(sympy.Abs(a))


def test_a_real_square_root_growth_is_proved_and_verified():
    cert = certificate_of(_text("exp(sqrt(1 + abs(x . y)))"))
    lim = _lim(cert)
    assert lim["status"] == "proved"
    assert {p["power"] for r in lim["data"]["regions"] for p in r["points"]} == {"1/2"}
    assert verify(cert).ok
    # the growth the engine states, √|x·z| t^(1/2), matches the kernel at high precision
    with mpmath.workdps(40):
        scale = mpmath.mpf(10) ** 16
        ratio = mpmath.sqrt(1 + 1 * scale) - mpmath.sqrt(1 + 2 * scale)
        assert abs(ratio / mpmath.sqrt(scale) - (1 - mpmath.sqrt(2))) < mpmath.mpf("1e-6")


@pytest.mark.parametrize("power", ["1/2", "3/2"])
def test_a_forged_fractional_growth_on_a_non_real_kernel_is_rejected(power):
    # the LIM step of the real kernel, moved onto exp(√(x·y)): its points with x·z < 0 are checked on the kernel
    # the verifier re-parses, whose log-ratio is not real there
    forged = certificate_of(_text("exp(sqrt(x . y))"))
    honest = _lim(certificate_of(_text("exp(sqrt(1 + abs(x . y)))")))
    at = next(k for k, s in enumerate(forged["steps"]) if s["id"] == _lim(forged)["id"])
    step = json.loads(json.dumps(honest))
    step["id"] = forged["steps"][at]["id"]
    for region in step["data"]["regions"]:
        for point in region["points"]:
            point["power"] = power
    forged["steps"][at] = step
    outcome = next(s for s in verify(forged).steps if s.id == step["id"])
    assert outcome.outcome == REJECTED
    # t^(1/2) is the true rate on x·z > 0, so only the non-real points can reject it; t^(3/2) fails at the first
    assert power != "1/2" or "not a finite real number" in outcome.reason


def test_unknown_growth_terms_are_rejected():
    cert = certificate_of(_text("exp(sqrt(1 + abs(x . y)))"))
    for bad in ("2/1", "1/0", "x", "65/2"):
        forged = json.loads(json.dumps(cert))
        for region in _lim(forged)["data"]["regions"]:
            for point in region["points"]:
                point["power"] = bad
        report = verify(forged)
        assert any(s.outcome == REJECTED and s.rule.startswith("LIM-") for s in report.steps), bad
