"""sin, cos, tanh and erf lie in [−1, 1] only for a real argument: WP-POSITIVE's factor test and the kernel-limit
engine's bounded oscillating factors use the bound only where the argument is proved real. 2 − cos(√(x·y)) is
2 − cosh 2 < 0 at x·y = −4, so a normalised head of it is ILL-POSED, not positive; the witness is checked with
mpmath, which takes the principal square root as SymPy does."""
from __future__ import annotations

import mpmath
import pytest
import sympy

import uapcheck
from uapcheck.lower import QUERY_DOT_KEY, QUERY_NORM2
from uapcheck.realness import proved_real, unreal_arguments

MP = {"sqrt": mpmath.sqrt, "cos": mpmath.cos, "sin": mpmath.sin, "exp": mpmath.exp, "tanh": mpmath.tanh,
      "erf": mpmath.erf, "log": mpmath.log}


def _check(body: str, extra: str = ""):
    return uapcheck.check(f"attention {{\n  kernel k(x, y) = {body}\n{extra}}}\n", "case.uap")


def _step(result, rule: str):
    steps = [s for s in result.root.walk() if s.rule == rule]
    assert steps, rule
    return steps[0]


def _lim(result):
    skip = {"LIM-REDUCE", "LIM-NYSTROM", "LIM-NYSTROM-USE", "LIM-UNSUPPORTED"}
    steps = [s for s in result.root.walk() if s.rule.startswith("LIM-") and s.rule not in skip]
    assert len(steps) == 1
    return steps[0]


# (kernel, value as a function of u = x·y with mpmath, for the witness check)
ILL_POSED = [
    ("2 - cos(sqrt(x . y))", lambda u: 2 - mpmath.cos(mpmath.sqrt(u))),
    ("exp(x . y) * (2 - cos(sqrt(x . y)))", lambda u: mpmath.exp(u) * (2 - mpmath.cos(mpmath.sqrt(u)))),
    ("3/2 - cos(sqrt(x . y)) / 2", lambda u: mpmath.mpf(3) / 2 - mpmath.cos(mpmath.sqrt(u)) / 2),
]


@pytest.mark.parametrize("body,value", ILL_POSED, ids=[c[0] for c in ILL_POSED])
def test_cosine_of_a_square_root_is_ill_posed_with_a_true_witness(body, value):
    result = _check(body)
    assert result.verdict == "ILL-POSED"
    wp = _step(result, "WP-POSITIVE")
    assert wp.status == "refuted"
    neg, pos = wp.evidence["negative at"], wp.evidence["positive at"]
    for point, sign in ((neg, -1), (pos, 1)):
        u = mpmath.mpc(int(point["x"][0]) * int(point["y"][0]))
        v = value(u)
        assert abs(mpmath.im(v)) < mpmath.mpf(10) ** -30  # the kernel is real there (cos √u is entire in u)
        assert mpmath.sign(mpmath.re(v)) == sign


def test_the_motivating_value_is_below_zero():
    """2 − cos(√−4) = 2 − cosh 2 ≈ −1.762 (mpmath at 50 digits; SymPy's exact value agrees)."""
    mpmath.mp.dps = 50
    v = 2 - mpmath.cos(mpmath.sqrt(mpmath.mpc(-4)))
    assert mpmath.re(v) < -1.76 and abs(mpmath.im(v)) < mpmath.mpf(10) ** -40
    exact = 2 - sympy.cos(sympy.sqrt(-4))
    assert exact.equals(2 - sympy.cosh(2)) and exact.is_negative


# Kernels whose bounded function has a possibly non-real argument: never proved positive, never UAP.
NOT_REAL = [
    "2 + sin(sqrt(x . y))",          # sin(2i) = i sinh 2: not real for x·y < 0
    "2 + erf(sqrt(x . y))",          # erf(2i) is imaginary
    "2 + tanh(log(x . y))",          # log of a negative number is not real
    "2 + cos((x . y)^(1/3))",        # the principal cube root of a negative number is not real
    "exp(sqrt(x . y))",              # exp of an imaginary number is not positive
    "exp(x . y) * (2 + sin(sqrt(x . y)))",
]


@pytest.mark.parametrize("body", NOT_REAL)
def test_a_bound_on_a_non_real_argument_is_not_used(body):
    result = _check(body)
    assert result.verdict != "UAP"
    assert _step(result, "WP-POSITIVE").status != "proved"


def test_the_non_real_values_are_real_failures_numerically():
    """The kernels above leave the reals (or their bound) at x·y = −4, computed with mpmath."""
    u = mpmath.mpc(-4)
    assert abs(mpmath.im(2 + mpmath.sin(mpmath.sqrt(u)))) > 3
    assert abs(mpmath.im(2 + mpmath.erf(mpmath.sqrt(u)))) > 1
    assert abs(mpmath.im(2 + mpmath.cos(u ** (mpmath.mpf(1) / 3)))) > 0.1
    assert abs(mpmath.im(mpmath.exp(mpmath.sqrt(u)))) > 0.5


# Bounded functions of arguments proved real keep their proofs.
STILL_PROVED = [
    ("exp(x . y) * (2 + cos(x . y))", "UAP"),
    ("exp(x . y) * (2 + cos(sqrt(1 + |y|^2)))", None),
    ("exp(x . y) * (2 + tanh(log(1 + |x|^2)))", None),
    ("2 + cos(x . y)", None),
    # |x − y| = √(|x|² + |y|² − 2x·y) is real: the factor test is repeated with x·y written through |x ∓ z|² ≥ 0
    ("(2 + cos(|x - y|)) * exp(-|x - y|)", None),
    ("(2 + sin(|x + y|)) * exp(x . y)", None),
]


@pytest.mark.parametrize("body,verdict", STILL_PROVED, ids=[c[0] for c in STILL_PROVED])
def test_real_arguments_keep_the_bound(body, verdict):
    result = _check(body)
    assert _step(result, "WP-POSITIVE").status == "proved"
    if verdict is not None:
        assert result.verdict == verdict


def test_the_limit_engine_does_not_treat_a_non_real_cosine_as_oscillating():
    """cos(√(t x·z)) is cosh(√(t|x·z|)) for x·z < 0: it grows; the region is undecided, not "oscillates", and the
    step never concludes from a bounded factor there (LIM-OSCPROD)."""
    result = _check("exp(x . y) * (2 + cos(sqrt(x . y)))", "  unnormalized\n")
    lim = _lim(result)
    assert lim.rule != "LIM-OSCPROD" and lim.status != "proved"
    result = _check("2 - cos(sqrt(x . y))", "  unnormalized\n")
    lim = _lim(result)
    assert lim.status != "refuted"  # (LIM) is not shown to fail from an oscillation that is not one
    assert result.verdict != "UAP"
    # the growth is real on x·z < 0 (mpmath): cos(√(−t)) = cosh(√t), unbounded
    assert mpmath.cos(mpmath.sqrt(mpmath.mpc(-100))).real > 10000


def test_proved_real_by_structure():
    a, c = QUERY_DOT_KEY, QUERY_NORM2
    assert proved_real(a) and proved_real(sympy.sqrt(c)) and proved_real(sympy.log(1 + c))
    assert proved_real(sympy.cos(a) * a ** 2 + sympy.exp(a)) and proved_real(sympy.sqrt(a ** 2 + 1))
    assert not proved_real(sympy.sqrt(a)) and not proved_real(sympy.log(a)) and not proved_real(a ** sympy.Rational(1, 3))
    assert not proved_real(sympy.I * a) and not proved_real(sympy.sqrt(a - c))
    assert proved_real(sympy.log(a), positive=lambda e: e == a)  # the caller's sign engine may prove the base positive
    assert unreal_arguments(2 - sympy.cos(sympy.sqrt(a))) == [sympy.cos(sympy.sqrt(a))]
    assert unreal_arguments(2 - sympy.cos(sympy.sqrt(c))) == []


@pytest.mark.parametrize("body", NOT_REAL)
def test_a_non_real_kernel_is_inconclusive_with_the_point_named_and_never_ill_posed(body):
    """2 + sin(√(x·y)) is 2 + i sinh 2 at x·y = −4: not real, so the layer is not a real map (INCONCLUSIVE), while
    its normaliser's real part is at least the number of keys (Re sin(i t) = 0, sin ≥ −1 on the reals): no normaliser
    vanishes, so ILL-POSED would be false. The step names a point where the value is not real; mpmath agrees."""
    result = _check(body)
    assert result.verdict == "INCONCLUSIVE"
    wp = _step(result, "WP-POSITIVE")
    assert wp.status == "undecided"
    if "not real at" in wp.evidence:
        at = wp.evidence["not real at"]
        x, y = mpmath.mpf(at["x"][0]), mpmath.mpf(at["y"][0])
        value = complex(sympy.N(at["value"], 30))
        assert abs(value.imag) > 1e-3
        if body == "2 + sin(sqrt(x . y))":
            mpmath.mp.dps = 30
            assert abs(mpmath.im(2 + mpmath.sin(mpmath.sqrt(mpmath.mpc(x * y))))) > 1e-3
    if body == "2 + sin(sqrt(x . y))":
        assert "not real at" in wp.evidence


def test_the_real_part_of_a_sine_of_a_square_root_normaliser_stays_positive():
    """Σ_j (2 + sin(√a_j)) has real part ≥ n for real a_j of either sign (mpmath at random points), so it never
    vanishes: the non-real kernel is not ILL-POSED."""
    import random
    rng = random.Random(5)
    mpmath.mp.dps = 30
    for _ in range(200):
        values = [mpmath.mpc(rng.uniform(-30, 30)) for _ in range(rng.randint(1, 6))]
        total = sum(2 + mpmath.sin(mpmath.sqrt(v)) for v in values)
        assert mpmath.re(total) >= len(values) - mpmath.mpf(10) ** -20
