"""Lemma I (docs/theory.md §20.11): the poles of tanh separate pairs whose tokens have no rational linear relation —
checked at 50 digits, independently of the engines — and the open questions the INCONCLUSIVE catalog files name
(§20.8), pinned in their derivations."""
from __future__ import annotations

import random
from pathlib import Path

import mpmath as mp
import pytest

import uapcheck

CATALOG = Path(__file__).resolve().parents[1] / "catalog"


pytestmark = pytest.mark.mpmath_digits(50)  # mpmath's working precision in each test (tests/conftest.py)


def alpha(s):
    return 2 + mp.tanh(s)


def _sums(tokens, u):
    N, D = [mp.mpc(0), mp.mpc(0)], mp.mpc(0)
    for y in tokens:
        w = alpha(u[0] * y[0] + u[1] * y[1])
        N = [N[r] + w * y[r] for r in range(2)]
        D += w
    return N, D


def _pair(rng):
    shared = (mp.mpf(rng.uniform(-1, 1)), mp.mpf(rng.uniform(-1, 1)))
    X = [shared] + [(mp.mpf(rng.uniform(-1, 1)), mp.mpf(rng.uniform(-1, 1))) for _ in range(3)]
    Y = [shared] + [(mp.mpf(rng.uniform(-1, 1)), mp.mpf(rng.uniform(-1, 1))) for _ in range(3)]
    return X, Y


def test_the_residue_at_a_pole_of_one_token_is_the_stated_sum():
    """Near λ_m = iπm/(2 p_a) only α(λ p_a) blows up: (λ − λ_m)·g(λ) → ρ Σ_{b∈S′} α(λ_m p_b)(a − b), ρ = 1/p_a."""
    rng = random.Random(11)
    X, Y = _pair(rng)
    a = X[1]
    v = (mp.mpf(rng.gauss(0, 1)), mp.mpf(rng.gauss(0, 1)))
    p = lambda y: v[0] * y[0] + v[1] * y[1]  # noqa: E731
    for m in (1, 3, -5):
        lam = 1j * mp.pi * m / (2 * p(a))
        eps = mp.mpf(10) ** -20  # the residue to about 14 digits (tanh near its pole cancels the rest)
        at = lam + eps
        NX, DX = _sums(X, (at * v[0], at * v[1]))
        NY, DY = _sums(Y, (at * v[0], at * v[1]))
        g = [eps * (NX[r] * DY - NY[r] * DX) for r in range(2)]
        expected = [sum((alpha(lam * p(b)) * (a[r] - b[r]) for b in Y), mp.mpc(0)) / p(a) for r in range(2)]
        assert all(abs(g[r] - expected[r]) < mp.mpf(10) ** -10 * (1 + abs(expected[r])) for r in range(2))
        assert max(abs(e) for e in expected) > mp.mpf(10) ** -6  # non-zero: the pair is separated


def test_one_bounded_tanh_layer_separates_random_pairs():
    rng = random.Random(2)
    for _ in range(4):
        X, Y = _pair(rng)
        u = (mp.mpf(rng.gauss(0, 2)), mp.mpf(rng.gauss(0, 2)))
        NX, DX = _sums(X, u)
        NY, DY = _sums(Y, u)
        assert max(abs(NX[r] / DX - NY[r] / DY) for r in range(2)) > mp.mpf(10) ** -6


# ---------------------------------------------------------------------------------------------
# The open questions of the INCONCLUSIVE catalog files, as their derivations word them

def _reason(name: str) -> str:
    result = uapcheck.check((CATALOG / f"{name}.uap").read_text("utf-8"))
    assert result.verdict == "INCONCLUSIVE"
    return " ".join(s.claim for s in result.root.walk())


@pytest.mark.parametrize("name,phrases", [
    ("bounded_tanh", ["(LIM) fails (LIM-BOUNDED)", "no moment route (which needs `affine query key` or a radial kernel)",
                      "no rotation route (TD-COMPLEX, which needs one head with an entire even profile α(x·y) whose "
                      "rotation α(i s) satisfies (LIM))", "whether one layer is token distinguishing is open"]),
    ("linear_elu", ["(LIM) fails (LIM-REGVAR)", "analyticity in θ is not shown (AN-STRUCT: Piecewise)",
                    "no rotation route (TD-COMPLEX"]),
    ("linear_relu_affine", ["analyticity in θ is not shown (AN-STRUCT: Max, the normaliser is not shown non-zero)",
                            "no rotation route (TD-COMPLEX"]),
    ("cosformer", ["the fixed weights are even in j − i", "two layers are shown for a dense normalised softmax head"]),
    ("linformer_fixed", ["for n > 32 (= 2·16) ker E ∩ ker F ≠ 0", "at n ≤ 32 the frozen case is not decided"]),
    ("attention_only", ["`ffn none`: no token-wise FFN, so Definition 2 fails"]),
])
def test_each_open_file_names_its_open_question(name, phrases):
    text = _reason(name)
    for phrase in phrases:
        assert phrase in text, (name, phrase)
