"""Kernels that degenerate: a parameter value that kills the kernel or its leading term, a
parameter named like one of the engine's invariants, leading terms that cancel. Each verdict was
examined against the mathematics (a high-precision check where a limit is claimed)."""
from __future__ import annotations

import pytest

import uapcheck


def check(text: str):
    return uapcheck.check(text, "degenerate_kernels.uap")


def verdict(text: str) -> str:
    return str(check(text).verdict)


# -- declared params whose names are the engine's invariants (a, b, c, u, v, e, f) -------------

def test_param_named_b_is_not_the_key_norm():
    r = check("param b > 0\nattention { kernel k(x, y) = (1 + (x . y)^2)^b }")
    assert str(r.verdict) != "UAP"


def test_same_kernel_with_another_param_name_is_inconclusive():
    r = check("param beta > 0\nattention { kernel k(x, y) = (1 + (x . y)^2)^beta }")
    assert str(r.verdict) == "INCONCLUSIVE"
    assert any(s.rule == "LIM-REGVAR" and s.status == "refuted" for s in r.root.walk())


def test_polynomial_power_kernel_ratio_has_a_finite_limit():
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    beta = mpmath.mpf(3) / 2
    x, z1, z2 = [1, 2, -1], [2, -1, 3], [1, 1, 1]

    def k(q, key):
        return (1 + mpmath.fsum(p * s for p, s in zip(q, key)) ** 2) ** beta

    a1 = mpmath.fsum(p * s for p, s in zip(x, z1))
    a2 = mpmath.fsum(p * s for p, s in zip(x, z2))
    limit = 2 * beta * mpmath.log(abs(a1 / a2))
    for t in (mpmath.mpf(10) ** 6, mpmath.mpf(10) ** 12):
        ratio = mpmath.log(k(x, [t * s for s in z1])) - mpmath.log(k(x, [t * s for s in z2]))
        assert abs(ratio - limit) < mpmath.mpf(10) ** -6


def test_param_named_a_does_not_crash():
    check("param a real\nattention { kernel k(x, y) = (1 + |y|^2)^a }")


def test_param_named_u_in_features_is_not_uap():
    assert verdict("param u real\nattention { features phi(x) = exp(u * x) }") != "UAP"


# -- unnormalised heads whose constant factor can be 0 --------------------------------------------

def test_score_with_a_factor_that_vanishes_for_an_admissible_param():
    assert verdict("param g > 0\nattention { score s(x, y) = (g - 1) * exp(x . y) }") != "UAP"


def test_score_with_a_nonnegative_param_factor():
    assert verdict("param gamma >= 0\nattention { score s(x, y) = gamma * exp(x . y) }") != "UAP"


def test_linformer_score_with_a_nonnegative_param_factor():
    text = "param g >= 0\nattention { score s(x, y) = g * exp(x . y); project keys values to 4 }"
    assert verdict(text) != "UAP"


def test_positive_param_factor_is_uap():
    assert verdict("param gamma > 0\nattention { score s(x, y) = gamma * exp(x . y) }") == "UAP"


# -- leading coefficients / parameter factors that vanish for an admissible value -----------------

@pytest.mark.parametrize("text", [
    "param g real\nattention { kernel k(x, y) = exp(x . y) - g * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = (g - 1)^2 * exp(x . y) }",
    "param g > 0\nattention { kernel k(x, y) = exp((g - 1) * x . y) }",
    "param g >= 0\nattention { kernel k(x, y) = exp(g * x . y) }",
    "param g > 0\nattention { kernel k(x, y) = log(g)^2 * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = max(g, 0) * exp(x . y) }",
    "param g real\nattention { kernel k(x, y) = exp(x . y * (cosh(g) - 1)) }",
    "param m integer >= 0\nattention { kernel k(x, y) = exp(x . y)^m }",
    "param m integer >= 0\nattention { kernel k(x, y) = exp((x . y)^m) }",
    "param g >= 0\nattention { features phi(x) = exp(g * x) }",
    "param v > 0\nattention { features phi(x) = (v - 1)^2 * exp(x) }",
    "param g real\nattention { features phi(x) = exp(w . x - |x|^2/2) * (g-1)^2 random w }",
    "param g >= 0\nattention { kernel k(x, y) = exp(-g * |x - y|^2); nystrom landmarks 3; unnormalized }",
])
def test_parameter_that_can_kill_the_kernel_is_not_uap(text):
    assert check(text).verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("text", [
    "param g > 0\nattention { kernel k(x, y) = exp(x . y * log(1 + g)) }",
    "param g > 0\nattention { kernel k(x, y) = (1 + g) ^ (x . y) }",
    # at g = 0 the features are exp(-|x|^2/2): the kernel depends on the key norm only, whose
    # growing part -t^2|z|^2/2 still separates keys (dominant-pair lemma), so UAP is right.
    "param g >= 0\nattention { features phi(x) = exp(w . x * g - |x|^2/2) random w }",
])
def test_parameter_kernels_that_are_uap(text):
    assert check(text).verdict == "UAP"


@pytest.mark.parametrize("name", ["x", "z", "w", "r", "s", "zeta", "kappa", "lambda", "xi", "e", "f"])
def test_param_named_like_an_internal_symbol(name):
    arg = "q" if name == "x" else "x"
    text = (f"param {name} > 0\nattention {{ kernel k({arg}, y) = exp(-{name} * |{arg} - y|^2); "
            "nystrom landmarks 3; unnormalized }")
    assert check(text).verdict == "UAP"


# -- leading terms that cancel or stay bounded ----------------------------------------------------

@pytest.mark.parametrize("kernel", [
    "exp(2 * x . y) - exp(x . y)^2 + 1",
    "(exp(x . y) + 1)^2 - exp(2 * x . y) - 2 * exp(x . y)",
    "exp(x . y) * sigmoid(-x . y)",
    "exp(relu(x . y))",
])
def test_kernels_whose_limit_fails_are_not_uap(kernel):
    assert verdict(f"attention {{ kernel k(x, y) = {kernel} }}") == "INCONCLUSIVE"
