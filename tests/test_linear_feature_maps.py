"""A feature map α(|x|²)·x lowers to the kernel k(x, y) = φ(x)·φ(y) = α(|x|²) α(|y|²) x·y: the key's coefficient
comes from the key (α(t²|z|²) t for the scaled key t z), not the query's used twice. Checked against a direct
evaluation of φ(x)·φ(y) in d = 3 (mpmath, 40 digits), the limit by hand, and the certificate's verification."""
from __future__ import annotations

import random

import mpmath as mp
import pytest
import sympy

import uapcheck
from certificates import certificate_from_cli
from test_kernel_routes import max_difference, on_line
from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t, ClosedKernel, lower_head
from uapcheck.parse import parse_source
from uapcheck.verifier import verify


pytestmark = pytest.mark.mpmath_digits(40)  # mpmath's working precision in each test (tests/conftest.py)

# (feature map body, α as a function of |x|² with mpmath, the expected k(x, t z) in the invariants)
MAPS = [
    ("x * exp(|x|^2)", mp.exp, sympy.exp(c) * sympy.exp(t ** 2 * b) * t * a),
    ("x * (1 + |x|^2)", lambda r: 1 + r, (1 + c) * (1 + t ** 2 * b) * t * a),
    ("(2 + |x|^2) * x / 3", lambda r: (2 + r) / 3, (2 + c) * (2 + t ** 2 * b) * t * a / 9),
]


def _model(body: str, extra: str = "") -> ClosedKernel:
    spec = parse_source(f"attention {{\n  features phi(x) = {body}\n{extra}}}\n", "f.uap")
    model = lower_head(spec, spec.heads[0])
    assert isinstance(model, ClosedKernel)
    return model


@pytest.mark.parametrize("body,alpha,expected", MAPS, ids=[m[0] for m in MAPS])
def test_the_lowered_kernel_is_phi_x_dot_phi_y(body, alpha, expected):
    model = _model(body)
    assert sympy.expand(model.scaled - expected) == 0
    rng = random.Random(11)
    for _ in range(5):  # the plain kernel at the Gram invariants equals the direct dot product of the features
        x = [mp.mpf(rng.uniform(-1, 1)) for _ in range(3)]
        y = [mp.mpf(rng.uniform(-1, 1)) for _ in range(3)]
        nx, ny, xy = (sum(u * v for u, v in zip(p, q)) for p, q in ((x, x), (y, y), (x, y)))
        direct = sum(alpha(nx) * u * alpha(ny) * v for u, v in zip(x, y))
        point = {a: sympy.Float(str(xy), 40), b: sympy.Float(str(ny), 40), c: sympy.Float(str(nx), 40)}
        assert abs(mp.mpf(str(model.plain.xreplace(point).evalf(40))) - direct) < mp.mpf(10) ** -30


def test_exponential_scaling_is_uap_unnormalised_and_its_certificate_verifies(tmp_path):
    text = "attention {\n  features phi(x) = x * exp(|x|^2)\n  unnormalized\n}\n"
    result = uapcheck.check(text, "f.uap")
    assert result.verdict == "UAP"
    lim = next(s for s in result.root.walk() if s.rule.startswith("LIM-") and s.rule != "LIM-REDUCE")
    assert lim.status == "proved"
    report = verify(certificate_from_cli(text, tmp_path))
    assert report.ok and report.verdict == "UAP"


def test_the_limit_by_hand():
    """k(x, t z) = e^{|x|²} e^{t²|z|²} t x·z, so k(x, t z₁)/k(x, t z₂) = e^{t²(|z₁|² − |z₂|²)} x·z₁/x·z₂ → 0 for
    |z₁| < |z₂| (here x = 1, z₁ = 1, z₂ = 2 in d = 1)."""
    def k(x, z, s):
        return mp.exp(x * x) * x * mp.exp(s * s * z * z) * s * z
    ratios = [abs(k(1, 1, s) / k(1, 2, s)) for s in (2, 4, 8)]
    assert ratios[0] > ratios[1] > ratios[2] and ratios[2] < mp.mpf(10) ** -80


def test_a_polynomial_scaling_gets_a_witness_pair_that_witnesses():
    """α = 1 + |x|²: k(x, y) = (1 + |x|²)(1 + |y|²) x·y has degree 3 in the key, and the witness pair the engine states
    has outputs equal at 40 digits for random parameters (the pair of the query's factor used twice, a polynomial
    of degree 1, did not)."""
    result = uapcheck.check("attention {\n  features phi(x) = x * (1 + |x|^2)\n  unnormalized\n}\n", "f.uap")
    assert result.verdict == "INCONCLUSIVE"
    (step,) = [s for s in result.root.walk() if s.rule == "TD-WITNESS"]
    assert step.status == "refuted"
    X, Y = step.evidence["X"], step.evidence["X′"]

    def kernel(q, key):
        nq, nk = q[0] ** 2 + q[1] ** 2, key[0] ** 2 + key[1] ** 2
        return (1 + nq) * (1 + nk) * (q[0] * key[0] + q[1] * key[1])
    assert max_difference(kernel, on_line(X), on_line(Y), normalized=False) < mp.mpf(10) ** -25


def test_normalised_scaling_changes_sign_and_is_ill_posed():
    result = uapcheck.check("attention { features phi(x) = x * exp(|x|^2) }\n", "f.uap")
    assert result.verdict == "ILL-POSED"
