"""Theorem F172 (TD-COMPLEX, docs/theory.md §20.10) against an engine-free reference: one attention layer of an
entire even profile α(q·k) computed at 50 digits from the layer's definition (x + W_V N/D, or x + W_V N unnormalised),
the rotation identity F_α(W_Q, i W) = F_β(W_Q, W) for profiles beyond the catalog's, and the rule's premises probed
with inputs that break one premise each (a profile with zeros under a normaliser, a rotation without (LIM), profiles
that are constants in disguise, a non-entire even profile). The verifier's numeric re-check of β's (LIM) is probed
both ways: a rotation whose log-ratio oscillates (no (LIM)) and rotations that grow slowly or change sign."""
from __future__ import annotations

import copy
import hashlib
import random

import mpmath as mp
import pytest

import uapcheck
from certificates import certificate, certificate_of, step_outcome
from uapcheck import proof
from uapcheck.verifier import verify


pytestmark = pytest.mark.mpmath_digits(50)  # mpmath's working precision in each test (tests/conftest.py)


def _head(body: str) -> str:
    return "attention {\n  " + body.replace(";", "\n  ") + "\n}\n"


def _rule_steps(result, rule: str):
    return [s for s in result.root.walk() if s.rule == rule]


# ---------------------------------------------------------------------------------------------
# The reference layer: tokens in R^d as lists, W_Q, W_K (real or complex) as d×d lists, W_V = I

def _matvec(M, v):
    return [sum(M[r][c] * v[c] for c in range(len(v))) for r in range(len(M))]


def _sums(alpha, q, WK, tokens):
    d = len(q)
    N, D = [mp.mpc(0)] * d, mp.mpc(0)
    for y in tokens:
        key = _matvec(WK, y)
        w = alpha(sum(q[r] * key[r] for r in range(d)))
        N = [N[r] + w * y[r] for r in range(d)]
        D += w
    return N, D


def _cross(alpha, q, WK, X, Y, normalized):
    """F = N_X D_Y − N_Y D_X (normalised) or N_X − N_Y (unnormalised) at the shared token X[0] = Y[0]."""
    NX, DX = _sums(alpha, q, WK, X)
    NY, DY = _sums(alpha, q, WK, Y)
    if normalized:
        return [NX[r] * DY - NY[r] * DX for r in range(len(q))]
    return [NX[r] - NY[r] for r in range(len(q))]


def _output(alpha, WQ, WK, X, normalized):
    """The layer's output at position 1 (W_V = I): x + N/D, or x + N."""
    q = _matvec(WQ, X[0])
    N, D = _sums(alpha, q, WK, X)
    return [X[0][r] + (N[r] / D if normalized else N[r]) for r in range(len(q))]


def _rand_matrix(rng, d, scale=1.0):
    return [[mp.mpf(rng.gauss(0, scale)) for _ in range(d)] for _ in range(d)]


def _rand_token(rng, d):
    return [mp.mpf(rng.uniform(-1, 1)) for _ in range(d)]


# (body, α, β = α(i s), normalised)
COVERED = [
    ("kernel k(x, y) = exp(cos(x . y))", lambda s: mp.exp(mp.cos(s)), lambda s: mp.exp(mp.cosh(s)), True),
    ("kernel k(x, y) = 3 - cos(x . y)", lambda s: 3 - mp.cos(s), lambda s: 3 - mp.cosh(s), True),
    ("score s(x, y) = cos(x . y)", mp.cos, mp.cosh, False),
    ("score s(x, y) = sin(x . y)^2", lambda s: mp.sin(s) ** 2, lambda s: -mp.sinh(s) ** 2, False),
]


@pytest.mark.parametrize("body,alpha,beta,normalized", COVERED, ids=[c[0] for c in COVERED])
def test_the_rule_fires_and_states_one_layer(body, alpha, beta, normalized):
    result = uapcheck.check(_head(body))
    assert result.verdict == "UAP" and result.layers == 1
    (step,) = _rule_steps(result, "TD-COMPLEX")
    assert step.status == proof.PROVED


@pytest.mark.parametrize("body,alpha,beta,normalized", COVERED, ids=[c[0] for c in COVERED])
def test_the_rotation_identity_for_each_covered_profile(body, alpha, beta, normalized):
    """(a): F_α(W_Q, i W) = F_β(W_Q, W), and F_β is real, at random samples sharing a token (d = 3)."""
    rng = random.Random(hash(body) % 1000)
    for _ in range(3):
        X = [_rand_token(rng, 3) for _ in range(4)]
        Y = [X[0]] + [_rand_token(rng, 3) for _ in range(2)]
        WQ, W = _rand_matrix(rng, 3), _rand_matrix(rng, 3)
        q = _matvec(WQ, X[0])
        iW = [[1j * w for w in row] for row in W]
        lhs, rhs = _cross(alpha, q, iW, X, Y, normalized), _cross(beta, q, W, X, Y, normalized)
        for u, v in zip(lhs, rhs):
            assert abs(u - v) <= mp.mpf(10) ** -40 * (1 + abs(v))
            assert abs(mp.im(v)) <= mp.mpf(10) ** -40 * (1 + abs(v))


@pytest.mark.parametrize("d", [1, 2])
@pytest.mark.parametrize("body,alpha,beta,normalized", COVERED, ids=[c[0] for c in COVERED])
def test_one_real_layer_separates_random_pairs_sharing_a_token(body, alpha, beta, normalized, d):
    """(c) in d = 1 and d = 2: random samples of different multisets sharing the first token have different outputs
    at it for some real parameters (and the β-head, the rotated one, separates them as well)."""
    rng = random.Random(17 * d)
    for _ in range(4):
        X = [_rand_token(rng, d) for _ in range(4)]
        Y = [X[0]] + [_rand_token(rng, d) for _ in range(3)]
        best = mp.mpf(0)
        for _ in range(4):
            WQ, WK = _rand_matrix(rng, d, 2.0), _rand_matrix(rng, d, 2.0)
            a, b = _output(alpha, WQ, WK, X, normalized), _output(alpha, WQ, WK, Y, normalized)
            best = max(best, max(abs(u - v) for u, v in zip(a, b)))
        assert best > mp.mpf(10) ** -6


def test_the_rotated_head_dominant_pair_grows_for_a_sign_changing_rotation():
    """β = 3 − cosh changes sign; its cross difference still grows without bound along t W (the dominant pair),
    which is all (c) uses of (LIM): the moduli ordered, not the weights positive."""
    beta = COVERED[1][2]
    X = [[mp.mpf(1), mp.mpf(0)], [mp.mpf(2), mp.mpf(1)], [mp.mpf(-1), mp.mpf(3)]]
    Y = [X[0], [mp.mpf(2), mp.mpf(1)], [mp.mpf(1), mp.mpf(-2)]]
    WQ = [[mp.mpf(1), mp.mpf(0)], [mp.mpf(0), mp.mpf(1)]]
    q = _matvec(WQ, X[0])
    sizes = []
    for t in (2, 4, 8):
        W = [[mp.mpf(t) * mp.mpf("0.7"), mp.mpf(t) * mp.mpf("0.3")], [mp.mpf(t) * mp.mpf("-0.2"), mp.mpf(t)]]
        sizes.append(max(abs(v) for v in _cross(beta, q, W, X, Y, True)))
    assert sizes[0] < sizes[1] < sizes[2] and sizes[2] > 10 ** 3


# ---------------------------------------------------------------------------------------------
# Premises: inputs that break one premise each must not get the rule

NEAR_MISSES = [
    "kernel k(x, y) = 1 + cos(x . y)",                         # normalised, α has zeros: WP-POSITIVE fails
    "kernel k(x, y) = cos(x . y)",                             # normalised, α changes sign: ill-posed
    "score s(x, y) = cos(x . y) * cosh(x . y)",                # β = cosh·cos has no (LIM)
    "score s(x, y) = 3 + cos(x . y) * cosh(x . y)",            # likewise
    "kernel k(x, y) = exp(cos(x . y) * cosh(x . y)^2)",        # β = exp(cos² · cosh): log-ratio oscillates
    "kernel k(x, y) = exp(sqrt((x . y)^2))",                   # even, e^{|s|}: not entire
    "kernel k(x, y) = cos(x . y)^2 + sin(x . y)^2",            # the constant 1 in disguise
    "kernel k(x, y) = 2 + cos(3 * x . y) - 4*cos(x . y)^3 + 3*cos(x . y)",  # the constant 2 (triple angle)
    "kernel k(x, y) = exp(cos(x . y)^2 + sin(x . y)^2)",       # the constant e
    "score s(x, y) = cos(x . y); normalize",                   # a normalised score with zeros
    "kernel k(x, y) = exp(cos(x . y)); bias toeplitz",         # a trainable bias term
    "kernel k(x, y) = exp(cos(x . y)); bias b(i, j) = -(i - j)",  # a fixed bias term
]


@pytest.mark.parametrize("body", NEAR_MISSES)
def test_a_broken_premise_keeps_the_rule_out(body):
    result = uapcheck.check(_head(body))
    assert not any(s.proved for s in _rule_steps(result, "TD-COMPLEX"))


@pytest.mark.parametrize("body", NEAR_MISSES[6:9])
def test_a_constant_in_disguise_is_not_uap_with_one_layer(body):
    """The uniform kernel maps every token x_i to x_i + W_V·mean(X): two samples with equal means and a shared token
    coincide after one layer, at any parameter (checked on the disguised formula itself, at 50 digits)."""
    result = uapcheck.check(_head(body))
    assert not (result.verdict == "UAP" and result.layers == 1)
    alpha = {6: lambda s: mp.cos(s) ** 2 + mp.sin(s) ** 2,
             7: lambda s: 2 + mp.cos(3 * s) - 4 * mp.cos(s) ** 3 + 3 * mp.cos(s),
             8: lambda s: mp.exp(mp.cos(s) ** 2 + mp.sin(s) ** 2)}[NEAR_MISSES.index(body)]
    X = [[mp.mpf(v), mp.mpf(w)] for v, w in ((1, 2), (0, 1), (2, -1))]
    Y = [X[0], [mp.mpf(1), mp.mpf(1)], [mp.mpf(1), mp.mpf(-1)]]
    rng = random.Random(5)
    WQ, WK = _rand_matrix(rng, 2, 3.0), _rand_matrix(rng, 2, 3.0)
    a, b = _output(alpha, WQ, WK, X, True), _output(alpha, WQ, WK, Y, True)
    assert max(abs(u - v) for u, v in zip(a, b)) < mp.mpf(10) ** -40


def test_the_oscillating_rotation_has_no_lim():
    """β(u) = exp(cos(u)² cosh(u)) (the rotation of exp(cos(s) cosh(s)²)): along t = kπ the log-ratio of the scores
    2t and t tends to +∞, along t = π/4 + kπ/2 to −∞, so β's ratio has no limit: (LIM) fails."""
    def log_ratio(t):
        return mp.cos(2 * t) ** 2 * mp.cosh(2 * t) - mp.cos(t) ** 2 * mp.cosh(t)
    ups = [log_ratio(k * mp.pi) for k in (4, 8, 12)]
    downs = [log_ratio(mp.pi / 4 + k * mp.pi / 2) for k in (8, 16, 24)]
    assert ups[0] < ups[1] < ups[2] and ups[2] > 10 ** 10
    assert downs[0] > downs[1] > downs[2] and downs[2] < -10 ** 5


# ---------------------------------------------------------------------------------------------
# The verifier's numeric re-check of β's (LIM)

def _forged(new_kernel: str) -> dict:
    out = copy.deepcopy(certificate("exp_cos.uap"))
    text = out["input"]["text"].replace("kernel k(x, y) = exp(cos(x . y))", "kernel k(x, y) = " + new_kernel)
    assert new_kernel in text
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def test_the_verifier_rejects_a_rotation_without_lim():
    """exp(cos(x . y) * cosh(x . y)^2) rotates to exp(cosh(u) cos(u)^2), whose (LIM) fails on an exponentially thin set
    of scales that no sample sees: the verifier confirms only rotations free of sin and cos (exp-log functions)."""
    report = verify(_forged("exp(cos(x . y) * cosh(x . y)^2)"))
    assert step_outcome(report, "TD-COMPLEX") == "rejected"


@pytest.mark.parametrize("body", ["score s(x, y) = cos(x . y)", "kernel k(x, y) = 2 + cos(x . y)",
                                  "kernel k(x, y) = 3 - cos(x . y)", "score s(x, y) = sin(x . y)^2"])
def test_the_verifier_accepts_the_rules_covered_profiles(body):
    """The re-check takes log|β| at T = 4, 16, 64 (a rotation may change sign: 3 − cosh, −sinh²). (The normalised
    kernels' reports are not all `ok`: their WP-POSITIVE steps, by sign regions, are trusted.)"""
    report = verify(certificate_of(_head(body)))
    assert step_outcome(report, "TD-COMPLEX") == "checked numerically"
    assert not [s for s in report.steps if s.outcome == "rejected"]
