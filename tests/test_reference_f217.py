"""Theorem F217 (docs/theory.md §20.1, TD-RIDGE): a param-free score α = exp(H) whose exponent outgrows log t at one end
is not a polynomial. Checked apart from the engines with mpmath at 60 digits: the (D + 1)-th finite differences of α
at the integers, which vanish for a polynomial of degree ≤ D, are far from 0 for e^{e^u} and e^{−e^u} at every D ≤ 30,
and `uapcheck` states both scores with `affine query key` UAP · S_n · 1 layer (catalog/exp_exp_affine.uap); scores
exp(H) whose exponent grows like log t only (exp(c log(1 + u²)), a polynomial in disguise) get no such statement."""
from __future__ import annotations

from pathlib import Path

import mpmath
import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.mpmath_digits(60)  # mpmath's working precision in each test (tests/conftest.py)


def _engine(text: str) -> dict:
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    return check_spec(parse_source(text, "f217.uap"), 60.0).to_dict()


def _file(kernel: str) -> str:
    return f"attention {{\n  kernel k(x, y) = {kernel}\n  affine query key\n}}\n"


def _difference(alpha, order: int, start: int = -3) -> mpmath.mpf:
    """Δ^order α at start, step 1: Σ_k (−1)^(order−k) C(order, k) α(start + k)."""
    return mpmath.fsum((-1) ** (order - k) * mpmath.binomial(order, k) * alpha(start + k) for k in range(order + 1))


@pytest.mark.parametrize("kernel,alpha", [("exp(exp(x . y))", lambda u: mpmath.exp(mpmath.exp(u))),
                                          ("exp(-exp(x . y))", lambda u: mpmath.exp(-mpmath.exp(u)))])
def test_double_exponential_scores_are_not_polynomials_and_are_stated_uap(kernel, alpha):
    for degree in range(31):  # a polynomial of degree <= degree has Δ^(degree+1) = 0 identically
        assert abs(_difference(alpha, degree + 1)) > mpmath.mpf(10) ** -20, (kernel, degree)
    d = _engine(_file(kernel))
    assert d["verdict"] == "UAP" and d["layers"] == 1 and d["group"]["name"] == "S_n", (kernel, d["verdict"])


def test_catalog_file_is_stated_uap():
    d = _engine((ROOT / "catalog" / "exp_exp_affine.uap").read_text())
    assert d["verdict"] == "UAP" and d["layers"] == 1 and d["group"]["name"] == "S_n", d["verdict"]


@pytest.mark.parametrize("kernel,power", [("exp(log(1 + (x . y)^2))", 1), ("exp(2 * log(1 + (x . y)^2))", 2)])
def test_a_polynomial_written_as_exp_of_a_log_is_not_stated_uap(kernel, power):
    alpha = lambda u: mpmath.exp(power * mpmath.log(1 + u ** 2))  # noqa: E731
    assert abs(_difference(alpha, 2 * power + 1)) < mpmath.mpf(10) ** -40  # it is the polynomial (1 + u²)^power
    d = _engine(_file(kernel))
    assert d["verdict"] != "UAP", (kernel, d["verdict"])
