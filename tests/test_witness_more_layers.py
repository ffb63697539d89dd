"""Theorem F173 (docs/theory.md §20.5): TD-WITNESS for a key-scale-invariant kernel (the cosine similarity, degree 0),
and what more attention layers do — one normalised layer translates a ray sample by W_V·mean(X); every layer of a
kernel even in the key fixes a sample symmetric on a line. The witnesses, their wording, their near misses, and the
layer statements at 50 digits through random layers, independently of the engines."""
from __future__ import annotations

import random
from pathlib import Path

import mpmath as mp
import pytest

import uapcheck
from uapcheck import proof

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


pytestmark = pytest.mark.mpmath_digits(50)  # mpmath's working precision in each test (tests/conftest.py)


def witness_step(text: str):
    found = [s for s in uapcheck.check(text).root.walk() if s.rule == "TD-WITNESS"]
    return found[0] if found else None


def test_the_cosine_similarity_has_a_ray_witness_of_degree_zero():
    step = witness_step((CATALOG / "cosine.uap").read_text("utf-8"))
    assert step is not None and step.status == proof.REFUTED
    assert step.evidence["X"] == [5, 1, 4] and step.evidence["X′"] == [5, 2, 3]
    assert step.evidence["family"] == "homogeneous" and step.evidence["degree in the key"] == 0
    assert "one layer adds the same vector W_V·mean(X) to each of them" in step.claim
    assert "whether a second attention layer (the translated tokens no longer on a ray through 0)" in step.claim


def test_an_even_polynomial_kernel_names_the_symmetric_pair_for_every_m():
    step = witness_step((CATALOG / "polynomial.uap").read_text("utf-8"))
    assert "Y = (3, -3, 1, -1)·e and Y′ = (3, -3, 2, -2)·e are never separated by attention layers" in step.claim
    assert "the literal reading fails for every m" in step.claim
    offset = witness_step((CATALOG / "polynomial_offset.uap").read_text("utf-8"))
    assert "Y = (3, -3" not in offset.claim and "whether m ≥ 2 attention layers" in offset.claim


@pytest.mark.parametrize("kernel", ["exp(x . y / |y|)", "exp(x . y / (|x| * |y|)) * 2"])
def test_other_degree_zero_kernels_get_the_ray_witness(kernel):
    step = witness_step(f"attention {{ kernel k(x, y) = {kernel} }}\n")
    assert step is not None and step.evidence["degree in the key"] == 0


@pytest.mark.parametrize("kernel", ["exp(x . y / |y|^2)", "exp(x . y / (|x| * |y|)) + |y|^2",
                                    "exp(x . y / (|x| * |y|)) + 1 / (1 + |y|^2)"])
def test_near_misses_get_no_homogeneous_witness(kernel):
    step = witness_step(f"attention {{ kernel k(x, y) = {kernel} }}\n")
    assert step is None or step.evidence["family"] != "homogeneous"


def test_bias_terms_remove_the_ray_witness():
    step = witness_step("attention {\n  kernel k(x, y) = exp(x . y / (|x| * |y|))\n  affine query key\n}\n")
    assert step is None


# ---------------------------------------------------------------------------------------------
# The layer statements, through random layers (d = 2)

def _norm(v):
    return mp.sqrt(v[0] ** 2 + v[1] ** 2)


def cosine(q, k):
    return mp.exp((q[0] * k[0] + q[1] * k[1]) / (_norm(q) * _norm(k)))


def square(q, k):
    return (q[0] * k[0] + q[1] * k[1]) ** 2


def exp_cos(q, k):
    return mp.exp(mp.cos(q[0] * k[0] + q[1] * k[1]))


def layer(tokens, kernel, WQ, WK, WV):
    """One normalised attention layer with its residual, every position."""
    out = []
    for x in tokens:
        q = [WQ[r][0] * x[0] + WQ[r][1] * x[1] for r in range(2)]
        num, den = [mp.mpf(0), mp.mpf(0)], mp.mpf(0)
        for y in tokens:
            w = kernel(q, [WK[r][0] * y[0] + WK[r][1] * y[1] for r in range(2)])
            num = [num[r] + w * (WV[r][0] * y[0] + WV[r][1] * y[1]) for r in range(2)]
            den += w
        out.append([x[r] + num[r] / den for r in range(2)])
    return out


def _matrix(rng):
    return [[mp.mpf(rng.gauss(0, 1)) for _ in range(2)] for _ in range(2)]


def _line(values, e):
    return [[mp.mpf(v) * e[0], mp.mpf(v) * e[1]] for v in values]


def test_one_cosine_layer_translates_both_ray_samples_by_the_same_vector():
    rng = random.Random(5)
    for _ in range(4):
        e = [mp.mpf(rng.gauss(0, 1)), mp.mpf(rng.gauss(0, 1))]
        X, Y = _line((5, 1, 4), e), _line((5, 2, 3), e)
        WQ, WK, WV = _matrix(rng), _matrix(rng), _matrix(rng)
        shifts = [[o[r] - x[r] for r in range(2)] for S in (X, Y) for o, x in zip(layer(S, cosine, WQ, WK, WV), S)]
        assert all(abs(s[r] - shifts[0][r]) < mp.mpf(10) ** -40 for s in shifts for r in range(2))
        # … and a second layer, on tokens no longer on a ray through 0, separates the shared token (evidence only)
        X2, Y2 = layer(X, cosine, WQ, WK, WV), layer(Y, cosine, WQ, WK, WV)
        WQ, WK, WV = _matrix(rng), _matrix(rng), _matrix(rng)
        a, b = layer(X2, cosine, WQ, WK, WV)[0], layer(Y2, cosine, WQ, WK, WV)[0]
        assert max(abs(a[r] - b[r]) for r in range(2)) > mp.mpf(10) ** -6


@pytest.mark.parametrize("kernel", [square, exp_cos], ids=["(x.y)^2", "exp(cos(x.y))"])
def test_every_layer_of_an_even_kernel_fixes_a_symmetric_sample(kernel):
    rng = random.Random(7)
    e = [mp.mpf(rng.gauss(0, 1)), mp.mpf(rng.gauss(0, 1))]
    for values in ((3, -3, 1, -1), (3, -3, 2, -2)):
        tokens = _line(values, e)
        state = tokens
        for _ in range(3):
            state = layer(state, kernel, _matrix(rng), _matrix(rng), _matrix(rng))
        assert all(abs(s[r] - t[r]) < mp.mpf(10) ** -40 for s, t in zip(state, tokens) for r in range(2))
