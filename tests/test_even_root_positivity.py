"""cos(√u) and sin(√u)/√u are real entire functions of a real u (docs/theory.md §4, the one-sided bounds):
cos(√u) ≥ −1 and sin(√u)/√u > −2173/10000 (Lemma W) on the whole real line, and both ≥ 1 for u < 0 (cosh, sinh s / s), with no upper
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


pytestmark = pytest.mark.mpmath_digits(30)  # mpmath's working precision in each test (tests/conftest.py)


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
        assert mpmath.re(c) >= -1 - tiny and mpmath.re(s) > -mpmath.mpf(2173) / 10000
        if u < 0:
            assert mpmath.re(c) >= 1 and mpmath.re(s) >= 1  # cosh s, sinh s / s
            assert abs(mpmath.re(c) - mpmath.cosh(mpmath.sqrt(-u))) < tiny * max(1, abs(c))
    # the sinc bound is below the minimum (about −0.217234, at tan t = t, t ≈ 4.4934) by less than 10⁻⁴
    t = mpmath.findroot(lambda t: mpmath.tan(t) - t, 4.49)
    assert -mpmath.mpf(2173) / 10000 < mpmath.sin(t) / t < -mpmath.mpf(2172) / 10000
    # neither is bounded above: cos(√u) grows like cosh √−u
    assert mpmath.re(_cos_sqrt(-10 ** 4)) > 10 ** 40


POSITIVE = ["2 + cos(sqrt(x . y))", "exp(x . y) * (2 + cos(sqrt(x . y)))", "1/2 + sin(sqrt(x . y)) / sqrt(x . y)",
            "1/4 + sin(sqrt(x . y)) / sqrt(x . y)", "exp(x . y) * (3 + cos(sqrt(x . y)) + sin(x . y))",
            "2 + cos(sqrt(x . y)) / 2 + cos(sqrt(x . y))",
            "exp(x . y) * (2174/10000 + sin(sqrt(x . y)) / sqrt(x . y))"]


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
        assert mpmath.re(mpmath.mpf(1) / 4 + _sinc_sqrt(u)) > mpmath.mpf(1) / 4 - mpmath.mpf(2173) / 10000


def test_the_sinc_bound_by_a_fine_grid_near_its_minimum_with_mpmath():
    """A second check of Lemma W beside its interval proof: sin t / t at 20,001 points of [π, 2π] and 4,001 around the
    minimum stays above −2173/10000; beyond 2π it is ≥ −1/t ≥ −1/(2π); and a constant 2172/10000 is below −min."""
    c = mpmath.mpf(2173) / 10000
    grid = [mpmath.pi * (1 + mpmath.mpf(k) / 20000) for k in range(20001)]
    grid += [mpmath.mpf("4.4934") + mpmath.mpf(k - 2000) / 10 ** 7 for k in range(4001)]
    low = min(mpmath.sin(t) / t for t in grid)
    assert -c < low < -mpmath.mpf(2172) / 10000
    assert 1 / (2 * mpmath.pi) < c


def test_the_sinc_bound_by_interval_arithmetic():
    """Lemma W's proof (docs/theory.md §4) written out with mpmath.iv: g(t) = sin t + c t is convex on [π, 2π], with
    g′(t₁) < 0 < g′(t₂) at t₁ = 4.4933, t₂ = 4.4934, and g(t₁), g(t₂), g(t₁) + g′(t₁)(t₂ − t₁) all > 0; the precision
    of the interval context is left as it was."""
    from mpmath import iv
    saved = iv.prec
    try:
        iv.prec = 200
        c = iv.mpf(2173) / 10000
        t1, t2 = iv.mpf(44933) / 10000, iv.mpf(44934) / 10000
        g1, d1, g2, d2 = iv.sin(t1) + c * t1, iv.cos(t1) + c, iv.sin(t2) + c * t2, iv.cos(t2) + c
        assert iv.pi < t1 and t2 < 2 * iv.pi
        assert d1 < 0 < d2 and g1 > 0 and g2 > 0 and g1 + d1 * (t2 - t1) > 0
        # the same argument fails for 2172/10000: g has a negative value near the minimum
        c2 = iv.mpf(2172) / 10000
        t = iv.mpf(44934) / 10000
        assert iv.sin(t) + c2 * t < 0
    finally:
        iv.prec = saved
    assert iv.prec == saved


NOT_PROVED = [
    ("2 - cos(sqrt(x . y))", "ILL-POSED"),              # 2 − cosh 2 < 0 at x·y = −4
    ("3/2 - cos(sqrt(x . y)) / 2", "ILL-POSED"),
    ("(2 + cos(sqrt(x . y))) * (3 - cos(sqrt(x . y)))", "ILL-POSED"),  # the second factor is 3 − cosh 3 < 0 at −9
    ("2 + sin(sqrt(x . y))", "INCONCLUSIVE"),           # not real for x·y < 0
    ("1 + cos(sqrt(x . y))", "INCONCLUSIVE"),           # 0 at x·y = π²: not positive
    ("3/2 + cos(sqrt(x . y)) / 2 + cos(sqrt(x . y))", "INCONCLUSIVE"),  # 3/2 (1 + cos): 0 at π²
    # negative near t = 4.4934 (u ≈ 20.19): not proved positive (the exact points tried miss the negative values)
    ("2172/10000 + sin(sqrt(x . y)) / sqrt(x . y)", "INCONCLUSIVE"),
    ("exp(x . y) * (2172/10000 + sin(sqrt(x . y)) / sqrt(x . y))", "INCONCLUSIVE"),
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
    assert sorted(lower for _, lower, _ in found) == [-1, sympy.Rational(-2173, 10000)]
    assert not g.has(sympy.sin, sympy.cos)
    # a root of a quantity proved non-negative keeps the two-sided bound of a real argument
    assert one_sided_atoms(sympy.cos(sympy.sqrt(1 + QUERY_DOT_KEY ** 2)))[1] == []


def _certificate(body: str) -> tuple[dict, str]:
    text = f"attention {{\n  kernel k(x, y) = {body}\n}}\n"
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text))), text


def _wp_outcome(cert: dict):
    return next(s for s in verify(cert).steps if s.rule == "WP-POSITIVE")


@pytest.mark.parametrize("body", POSITIVE[:4])
def test_the_verifier_re_derives_the_bound_from_the_formula(body):
    cert, _ = _certificate(body)
    step = _wp_outcome(cert)
    assert step.outcome == VERIFIED


@pytest.mark.parametrize("tampered", ["1 + cos(sqrt(x . y))", "2 - cos(sqrt(x . y))",
                                      "2172/10000 + sin(sqrt(x . y)) / sqrt(x . y)",
                                      "2 + sin(sqrt(x . y)) / sqrt(x . y + 1)"])
def test_a_tampered_kernel_is_not_verified_positive(tampered):
    """The certificate of 2 + cos(√(x·y)) with its input replaced by a kernel the bound does not make positive (and the
    hash recomputed): the verifier's own structural test does not pass it."""
    import hashlib
    cert, text = _certificate("2 + cos(sqrt(x . y))")
    new = text.replace("2 + cos(sqrt(x . y))", tampered)
    cert["input"]["text"] = new
    cert["input"]["sha256"] = hashlib.sha256(new.encode("utf-8")).hexdigest()
    assert _wp_outcome(cert).outcome != VERIFIED


def test_the_verifier_derives_the_sinc_bound_itself_and_leaves_mpmath_iv_as_it_was(monkeypatch):
    from mpmath import iv
    from uapcheck.verifier import rules_kernel
    monkeypatch.setattr(rules_kernel, "_SINC_LOWER", [])
    saved = iv.prec
    assert rules_kernel._sinc_lower() == sympy.Rational(-2173, 10000)
    assert iv.prec == saved
