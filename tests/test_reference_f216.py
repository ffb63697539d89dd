"""Theorem F216 (docs/theory.md §6.5, LIM-EXPEXP): the exponent's sign may be shown on both halves of a sign atom the
region leaves open. Checked apart from the engines by mpmath at 60 digits: for the kernels the theorem decides
(catalog/exp_exp_square.uap among them), log k(x, tz₁) − log k(x, tz₂) diverges at random query–key pairs with the sign
the proof gives, and `uapcheck` states them UAP · S_n · 1 layer; for kernels built to tempt the rule, whose exponent
H(x, tz) does not tend to ±∞ off a null set (its leading coefficient changes sign with x·z, or is ≤ 0 everywhere, or
depends on more than a sign atom), the reference finds (LIM) failing on an open set of pairs, and `uapcheck` does not
state UAP."""
from __future__ import annotations

import random
from pathlib import Path

import mpmath
import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.mpmath_digits(60)  # mpmath's working precision in each test (tests/conftest.py)


def _engine_text(text: str) -> dict:
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    return check_spec(parse_source(text, "f216.uap"), 60.0).to_dict()


def _engine_kernel(kernel: str) -> dict:
    return _engine_text(f"attention {{ kernel k(x, y) = {kernel} }}\n")


def _pairs(seed: int, d: int = 3, count: int = 6):
    """Random (x, z₁, z₂) with query and keys in general position (rational coordinates, exact)."""
    rng = random.Random(seed)
    for _ in range(count):
        x, z1, z2 = ([mpmath.mpf(rng.randint(-9, 9)) / 7 for _ in range(d)] for _ in range(3))
        yield x, z1, z2


def _dot(a, b):
    return mpmath.fsum(p * q for p, q in zip(a, b))


def _norm2(a):
    return _dot(a, a)


# log k(x, y) for each kernel, written from its formula (no engine code)
def _log_exp_exp_square(x, y):
    return mpmath.exp(_dot(x, y) ** 2)


def _log_minus_exp_exp_square(x, y):
    return -mpmath.exp(_dot(x, y) ** 2)


def _log_exp_exp_quartic(x, y):
    return mpmath.exp(_dot(x, y) ** 4 - _dot(x, y) ** 2)


DECIDED = [
    ("exp(exp((x . y)^2))", _log_exp_exp_square, 1),
    ("exp(-exp((x . y)^2))", _log_minus_exp_exp_square, -1),
    ("exp(exp((x . y)^4 - (x . y)^2))", _log_exp_exp_quartic, 1),
]


@pytest.mark.parametrize("kernel,logk,sign", DECIDED, ids=[k for k, _, _ in DECIDED])
def test_decided_kernels_diverge_with_the_proofs_sign(kernel, logk, sign):
    checked = 0
    for x, z1, z2 in _pairs(216):
        a1, a2 = abs(_dot(x, z1)), abs(_dot(x, z2))
        if a1 == 0 or a2 == 0 or abs(a1 - a2) < mpmath.mpf(1) / 10:
            continue
        t = mpmath.mpf(16) / min(a1, a2)  # large enough that the larger |x·z| dominates by far
        diff = logk(x, [t * c for c in z1]) - logk(x, [t * c for c in z2])
        assert abs(diff) > mpmath.mpf(10) ** 10, (kernel, diff)
        assert mpmath.sign(diff) == sign * mpmath.sign(a1 - a2), (kernel, diff, a1, a2)
        checked += 1
    assert checked >= 3
    d = _engine_kernel(kernel)
    assert d["verdict"] == "UAP" and d["layers"] == 1 and d["group"]["name"] == "S_n", (kernel, d["verdict"])


def test_catalog_file_is_stated_as_the_reference_finds():
    d = _engine_text((ROOT / "catalog" / "exp_exp_square.uap").read_text())
    assert d["verdict"] == "UAP" and d["layers"] == 1 and d["group"]["name"] == "S_n", d["verdict"]


# kernels whose exponent does not tend to ±∞ off a null set: (LIM) fails on an open set
TEMPTING = [
    # E = t³(x·z)³: > 0 on one half of x·z only; k(x, tz) → e⁰ = 1 where x·z < 0
    ("exp(exp((x . y)^3))", lambda x, y: mpmath.exp(_dot(x, y) ** 3), lambda x, z: _dot(x, z) < 0),
    # E = t²((x·z)² − |x|²|z|²) ≤ 0 (Cauchy–Schwarz): H ∈ (0, 1] everywhere, the log-ratio stays bounded
    ("exp(exp((x . y)^2 - |x|^2 * |y|^2))",
     lambda x, y: mpmath.exp(_dot(x, y) ** 2 - _norm2(x) * _norm2(y)), lambda x, z: True),
    ("exp(-exp((x . y)^2 - |x|^2 * |y|^2))",
     lambda x, y: -mpmath.exp(_dot(x, y) ** 2 - _norm2(x) * _norm2(y)), lambda x, z: True),
    # E = t²((x·z)² − |z|²): its sign depends on |x|, not on a sign atom; H → 0 where |x·z| < |z|
    ("exp(exp((x . y)^2 - |y|^2))", lambda x, y: mpmath.exp(_dot(x, y) ** 2 - _norm2(y)),
     lambda x, z: _dot(x, z) ** 2 < _norm2(z)),
]


@pytest.mark.parametrize("kernel,logk,bad", TEMPTING, ids=[k for k, _, _ in TEMPTING])
def test_kernels_whose_exponent_stays_bounded_somewhere_are_not_uap(kernel, logk, bad):
    found = 0
    for x, z1, z2 in _pairs(2160, count=40):
        if not (bad(x, z1) and bad(x, z2)) or _dot(x, z1) == 0 or _dot(x, z2) == 0:
            continue
        values = [logk(x, [t * c for c in z1]) - logk(x, [t * c for c in z2]) for t in (10, 100, 1000)]
        assert all(abs(v) <= 2 for v in values), (kernel, values)  # the ratio stays bounded: no limit 0 or ∞
        found += 1
    assert found >= 2, kernel
    d = _engine_kernel(kernel)
    assert d["verdict"] != "UAP", (kernel, d["verdict"])
