"""Square roots of Gram forms are real (docs/theory.md §4, Lemma D): α|x|² + 2γ x·z + β|z|² + κ ≥ 0 for all x, z when
[[α, γ], [γ, β]] is positive semidefinite and κ ≥ 0, so |x + y| and |x − y| are real although x·z alone has no sign.
WP-POSITIVE then proves exp(|x + y| − |x − y|) positive, with a `real-exponential` certificate that the verifier
re-checks (and rejects when tampered). Checked a second way: the PSD test against the form's values at random and
grid points, and the kernel with mpmath at random points of R²."""
from __future__ import annotations

import copy
import hashlib
import itertools
import random

import mpmath
import pytest
import sympy
from certificates import certificate_of

import uapcheck
from uapcheck.lower import KEY_NORM2 as B, QUERY_DOT_KEY as A, QUERY_NORM2 as C
from uapcheck.realness import gram_nonnegative, proved_real
from uapcheck.verifier import REJECTED, VERIFIED, verify

TAU = sympy.Symbol("tau", real=True)


def _step(result, rule: str):
    steps = [s for s in result.root.walk() if s.rule == rule]
    assert steps, rule
    return steps[0]


def _source(body: str, params: str = "") -> str:
    return f"tokens n\n{params}attention {{ kernel k(x, y) = {body} }}\n"


@pytest.mark.parametrize("form,nonnegative", [
    (C - 2 * A + B, True),             # |x − z|²
    (C + 2 * A + B, True),             # |x + z|²
    (C + A + B, True),                 # M = [[1, 1/2], [1/2, 1]]
    (4 * C - 4 * A + B, True),         # |2x − z|²
    (1 + C + 2 * A + B, True),         # κ = 1
    (C - 2 * TAU * A + TAU ** 2 * B, True),  # |x − τz|², every real τ
    (C + 3 * A + B, False),            # αβ − γ² < 0: x = −z gives −|x|²
    (2 * A + B, False),                # α = 0 with γ ≠ 0
    (C - 2 * A + B - 1, False),        # κ < 0
    (A, False),
])
def test_the_psd_test_on_gram_forms(form, nonnegative):
    assert gram_nonnegative(sympy.expand(form)) is nonnegative


def test_the_psd_test_against_the_forms_values():
    """For random integer (α, 2γ, β, κ): a form the test accepts is ≥ 0 at random points of R² (x, z in the plane), and
    a form it rejects with κ = 0 is negative at some 1-dimensional point (x, z) of a grid (necessity at d = 1)."""
    rng = random.Random(4)
    for _ in range(300):
        al, g2, be, ka = (rng.randint(-3, 3) for _ in range(4))
        ka = abs(ka) if rng.random() < 0.7 else 0
        form = sympy.expand(al * C + g2 * A + be * B + ka)
        accepted = gram_nonnegative(form) if form.has(A) else None
        if accepted is None:
            continue
        if accepted:
            for _ in range(40):
                x = [sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(2)]
                z = [sympy.Rational(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(2)]
                value = form.xreplace({A: x[0] * z[0] + x[1] * z[1], B: z[0] ** 2 + z[1] ** 2, C: x[0] ** 2 + x[1] ** 2})
                assert value >= 0, (form, x, z)
        elif ka == 0:
            grid = range(-4, 5)
            assert any(form.xreplace({A: x * z, B: z * z, C: x * x}) < 0 for x, z in itertools.product(grid, grid)), form


def test_realness_needs_the_flag_and_the_form():
    root_plus = sympy.sqrt(C + 2 * A + B)
    assert not proved_real(root_plus)  # the default (the asymptotics engine) is unchanged
    assert proved_real(root_plus, gram=True)
    assert not proved_real(sympy.sqrt(2 * A + B), gram=True)  # 2x·z + |z|² < 0 at x = −z
    assert not proved_real(sympy.sqrt(A), gram=True)


def test_exp_of_the_difference_of_the_two_norms_is_positive_and_analytic():
    result = uapcheck.check(_source("exp(|x + y| - |x - y|)"), "t.uap")
    wp, an = _step(result, "WP-POSITIVE"), _step(result, "AN-STRUCT")
    assert wp.status == "proved" and wp.evidence["dimensions"] == "d ≥ 1"
    assert wp.certificate_json["kind"] == "real-exponential"
    assert an.status == "proved" and an.evidence["dimensions"] == "d ≥ 2"  # analytic off q = ±k
    # (LIM) fails (the kernel is bounded along every ray), so the verdict stays INCONCLUSIVE, resting on no trust
    assert result.verdict == "INCONCLUSIVE"
    report = verify(certificate_of(_source("exp(|x + y| - |x - y|)")))
    outcome = {s.rule: s.outcome for s in report.steps}
    assert outcome["WP-POSITIVE"] == VERIFIED and outcome["AN-STRUCT"] == VERIFIED and report.ok


@pytest.mark.parametrize("body,params", [
    ("exp(|x + y| - |x - y|)", ""),
    ("exp(|x - 2 * y| / 3 - |x|)", ""),
    ("(1 + |x|^2) * exp(|x + y| - |x - tau * y|)", "param tau real\n"),
    ("exp(sqrt(1 + |x + y|^2) - |y|)", ""),
    ("exp(sqrt(|x - y| * |x + y|) - (tau / 2)^2)", "param tau != 0\n"),
])
def test_proved_kernels_are_positive_at_random_points(body, params):
    """mpmath (40 digits) at random points of R², x = ±y and zero vectors, τ random: real and positive."""
    result = uapcheck.check(_source(body, params), "t.uap")
    wp = _step(result, "WP-POSITIVE")
    assert wp.status == "proved" and wp.evidence["dimensions"] == "d ≥ 1", wp.claim
    mpmath.mp.dps = 40
    rng = random.Random(7)

    def norm(v):
        return mpmath.sqrt(sum(t * t for t in v))

    def k(x, y, tau):
        return {
            "exp(|x + y| - |x - y|)": lambda: mpmath.exp(norm([a + b for a, b in zip(x, y)]) - norm([a - b for a, b in zip(x, y)])),
            "exp(|x - 2 * y| / 3 - |x|)": lambda: mpmath.exp(norm([a - 2 * b for a, b in zip(x, y)]) / 3 - norm(x)),
            "(1 + |x|^2) * exp(|x + y| - |x - tau * y|)": lambda: (1 + norm(x) ** 2) * mpmath.exp(
                norm([a + b for a, b in zip(x, y)]) - norm([a - tau * b for a, b in zip(x, y)])),
            "exp(sqrt(1 + |x + y|^2) - |y|)": lambda: mpmath.exp(mpmath.sqrt(1 + norm([a + b for a, b in zip(x, y)]) ** 2)
                                                                - norm(y)),
            "exp(sqrt(|x - y| * |x + y|) - (tau / 2)^2)": lambda: mpmath.exp(mpmath.sqrt(
                norm([a - b for a, b in zip(x, y)]) * norm([a + b for a, b in zip(x, y)])) - (tau / 2) ** 2),
        }[body]()

    for _ in range(200):
        x = [mpmath.mpf(rng.uniform(-4, 4)) for _ in range(2)]
        y = [mpmath.mpf(rng.uniform(-4, 4)) for _ in range(2)]
        tau = mpmath.mpf(rng.uniform(-3, 3))
        for xx, yy in ((x, y), (x, x), (x, [-t for t in x]), ([0, 0], y), (x, [0, 0])):
            v = k(xx, yy, tau)
            assert mpmath.im(v) == 0 and mpmath.re(v) > 0


@pytest.mark.parametrize("body,params", [("exp(|x + y| - |x - y|)", ""),
                                         ("exp(sqrt(|x - y| * |x + y|) - (tau / 2)^2)", "param tau != 0\n")])
def test_the_verifier_verifies_the_honest_certificates(body, params):
    """Also where SymPy takes √(√P·√Q) apart on the verifier's side only (P, Q sums of squares there)."""
    report = verify(certificate_of(_source(body, params)))
    assert {s.rule: s.outcome for s in report.steps}["WP-POSITIVE"] == VERIFIED
    assert report.ok


@pytest.mark.parametrize("body", ["exp(sqrt(x . y))", "exp(sqrt(2 * (x . y) + |y|^2))", "exp(sqrt(x . y + |y|^2))"])
def test_roots_of_forms_without_a_sign_are_not_proved(body):
    """√(x·y), √(2x·y + |y|²) and √(x·y + |y|²) are imaginary somewhere (at x = −y the last two are −|y|² and 0, and
    x = −2y gives −|y|² for the last): never `proved`."""
    wp = _step(uapcheck.check(_source(body), "t.uap"), "WP-POSITIVE")
    assert wp.status != "proved"


def _cert():
    return certificate_of(_source("exp(|x + y| - |x - y|)"))


def _wp(cert):
    return next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")


def _outcome(cert, rule="WP-POSITIVE"):
    return next(s for s in verify(cert).steps if s.rule == rule)


def test_a_tampered_exponent_is_rejected():
    bad = _cert()
    block = _wp(bad)["certificate"]
    block["exponent"] = {"op": "*", "args": [-1, block["exponent"]]}
    assert _outcome(bad).outcome == REJECTED


def test_a_tampered_factor_is_rejected():
    bad = _cert()
    _wp(bad)["certificate"]["factor"] = 2
    assert _outcome(bad).outcome == REJECTED


def test_a_non_real_exponent_under_the_same_block_is_rejected_not_trusted():
    """The input's kernel replaced by exp(√(x·y)) (hash recomputed): the block still claims a checked realness,
    which the verifier's own test does not give, so the step is rejected (a plain engine step would be trusted)."""
    bad = copy.deepcopy(_cert())
    text = bad["input"]["text"].replace("exp(|x + y| - |x - y|)", "exp(sqrt(x . y))")
    assert text != bad["input"]["text"]
    bad["input"]["text"] = text
    bad["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert _outcome(bad).outcome == REJECTED


def test_a_block_on_the_second_form_is_rejected():
    bad = _cert()
    _wp(bad)["evidence"]["dimensions"] = "d ≥ 2"
    assert _outcome(bad).outcome == REJECTED
