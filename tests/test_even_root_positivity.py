"""cos(√u) and sin(√u)/√u are real entire functions of a real u (docs/theory.md §4, the one-sided bounds):
cos(√u) ≥ −1 and sin(√u)/√u ≥ −1/π on the whole real line, and both ≥ 1 for u < 0 (cosh, sinh s / s), with no upper
bound. WP-POSITIVE uses them from below only: 2 + cos(√(x·y)) is proved positive, 2 − cos(√(x·y)) stays ILL-POSED
(negative at x·y = −4), 2 + sin(√(x·y)) stays non-real (INCONCLUSIVE). Every claim is checked with mpmath at many
points, negative u included; the verifier re-derives the bound from the formula with its own code."""
from __future__ import annotations

import json

import mpmath
import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.lower import QUERY_DOT_KEY
from uapcheck.realness import one_sided_atoms, proved_real
from uapcheck.verifier import VERIFIED, verify

POINTS = [mpmath.mpf(k) / 4 for k in range(-400, 401)] + [mpmath.mpf(-10) ** 4, mpmath.mpf(10) ** 4,
                                                         mpmath.pi ** 2, (3 * mpmath.pi / 2) ** 2, (1.43 * mpmath.pi) ** 2]


@pytest.fixture(autouse=True)
def _thirty_digits():
    """The mpmath checks here run at 30 digits and leave the global context as they found it."""
    with mpmath.workdps(30):
        yield


def _check(body: str):
    return uapcheck.check(f"attention {{\n  kernel k(x, y) = {body}\n}}\n", "case.uap")


def _wp(result):
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


def _cos_sqrt(u):
    return mpmath.cos(mpmath.sqrt(mpmath.mpc(u)))


def _sinc_sqrt(u):
    if u == 0:
        return mpmath.mpf(1)  # the entire function's value, the limit of sin(t)/t
    r = mpmath.sqrt(mpmath.mpc(u))
    return mpmath.sin(r) / r


def test_the_bounds_hold_at_many_points_with_mpmath():
    tiny = mpmath.mpf(10) ** -25
    for u in POINTS:
        c, s = _cos_sqrt(u), _sinc_sqrt(u)
        assert abs(mpmath.im(c)) < tiny and abs(mpmath.im(s)) < tiny  # real on the whole line
        assert mpmath.re(c) >= -1 - tiny and mpmath.re(s) >= -1 / mpmath.pi
        if u < 0:
            assert mpmath.re(c) >= 1 and mpmath.re(s) >= 1  # cosh s, sinh s / s
            assert abs(mpmath.re(c) - mpmath.cosh(mpmath.sqrt(-u))) < tiny * max(1, abs(c))
    # the sinc bound is not tight (its minimum is about −0.2172, at t ≈ 4.4934) but is below it
    t = mpmath.findroot(lambda t: mpmath.tan(t) - t, 4.49)
    assert -1 / mpmath.pi < mpmath.sin(t) / t < -0.217
    # neither is bounded above: cos(√u) grows like cosh √−u
    assert mpmath.re(_cos_sqrt(-10 ** 4)) > 10 ** 40


POSITIVE = ["2 + cos(sqrt(x . y))", "exp(x . y) * (2 + cos(sqrt(x . y)))", "1/2 + sin(sqrt(x . y)) / sqrt(x . y)",
            "exp(x . y) * (3 + cos(sqrt(x . y)) + sin(x . y))", "2 + cos(sqrt(x . y)) / 2 + cos(sqrt(x . y))"]


@pytest.mark.parametrize("body", POSITIVE)
def test_even_functions_of_a_root_bound_a_factor_from_below(body):
    result = _check(body)
    wp = _wp(result)
    assert wp.status == "proved", wp.claim
    assert "cos(√u) ≥ −1" in str(wp.claim)
    assert result.verdict != "ILL-POSED"


def test_the_proved_kernels_are_at_least_their_bound_with_mpmath():
    for u in POINTS:
        assert mpmath.re(2 + _cos_sqrt(u)) >= 1 - mpmath.mpf(10) ** -25
        assert mpmath.re(mpmath.mpf(1) / 2 + _sinc_sqrt(u)) > mpmath.mpf(1) / 2 - 1 / mpmath.pi


NOT_PROVED = [
    ("2 - cos(sqrt(x . y))", "ILL-POSED"),              # 2 − cosh 2 < 0 at x·y = −4
    ("3/2 - cos(sqrt(x . y)) / 2", "ILL-POSED"),
    ("(2 + cos(sqrt(x . y))) * (3 - cos(sqrt(x . y)))", "ILL-POSED"),  # the second factor is 3 − cosh 3 < 0 at −9
    ("2 + sin(sqrt(x . y))", "INCONCLUSIVE"),           # not real for x·y < 0
    ("1 + cos(sqrt(x . y))", "INCONCLUSIVE"),           # 0 at x·y = π²: not positive
    ("3/2 + cos(sqrt(x . y)) / 2 + cos(sqrt(x . y))", "INCONCLUSIVE"),  # 3/2 (1 + cos): 0 at π²
    ("1/4 + sin(sqrt(x . y)) / sqrt(x . y)", "INCONCLUSIVE"),  # positive (min ≈ −0.2172), not by the −1/π bound
]


@pytest.mark.parametrize("body,verdict", NOT_PROVED, ids=[c[0] for c in NOT_PROVED])
def test_a_decreasing_or_non_real_use_is_not_proved(body, verdict):
    result = _check(body)
    assert _wp(result).status != "proved"
    assert result.verdict == verdict


def test_the_ill_posed_witnesses_are_true_with_mpmath():
    assert mpmath.re(2 - _cos_sqrt(-4)) < 0 and mpmath.re(3 - _cos_sqrt(-9)) < 0
    assert abs(mpmath.im(2 + mpmath.sin(mpmath.sqrt(mpmath.mpc(-4))))) > 3
    assert abs(1 + _cos_sqrt(mpmath.pi ** 2)) < mpmath.mpf(10) ** -25


def test_cos_of_a_root_of_a_real_is_real_by_structure():
    a = QUERY_DOT_KEY
    assert proved_real(sympy.cos(sympy.sqrt(a)))
    assert not proved_real(sympy.sin(sympy.sqrt(a)))
    g, found = one_sided_atoms(2 + sympy.sin(sympy.sqrt(a)) / sympy.sqrt(a) + sympy.cos(sympy.sqrt(a)))
    assert sorted(lower for _, lower, _ in found) == [-1, -1 / sympy.pi]
    assert not g.has(sympy.sin, sympy.cos)
    # a root of a quantity proved non-negative keeps the two-sided bound of a real argument
    assert one_sided_atoms(sympy.cos(sympy.sqrt(1 + QUERY_DOT_KEY ** 2)))[1] == []


def _certificate(body: str) -> tuple[dict, str]:
    text = f"attention {{\n  kernel k(x, y) = {body}\n}}\n"
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text))), text


def _wp_outcome(cert: dict):
    return next(s for s in verify(cert).steps if s.rule == "WP-POSITIVE")


@pytest.mark.parametrize("body", POSITIVE[:3])
def test_the_verifier_re_derives_the_bound_from_the_formula(body):
    cert, _ = _certificate(body)
    step = _wp_outcome(cert)
    assert step.outcome == VERIFIED


@pytest.mark.parametrize("tampered", ["1 + cos(sqrt(x . y))", "2 - cos(sqrt(x . y))",
                                      "1/4 + sin(sqrt(x . y)) / sqrt(x . y)", "2 + sin(sqrt(x . y)) / sqrt(x . y + 1)"])
def test_a_tampered_kernel_is_not_verified_positive(tampered):
    """The certificate of 2 + cos(√(x·y)) with its input replaced by a kernel the bound does not make positive (and the
    hash recomputed): the verifier's own structural test does not pass it."""
    import hashlib
    cert, text = _certificate("2 + cos(sqrt(x . y))")
    new = text.replace("2 + cos(sqrt(x . y))", tampered)
    cert["input"]["text"] = new
    cert["input"]["sha256"] = hashlib.sha256(new.encode("utf-8")).hexdigest()
    assert _wp_outcome(cert).outcome != VERIFIED
