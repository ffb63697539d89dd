"""TD-COMPLEX (docs/theory.md §20.10, Theorem F172): an entire even profile α(q·k) rotated by an imaginary key
scale to β(s) = α(i s), whose (LIM) transfers two-sample separation back to α. The rule, its near misses (which
must stay INCONCLUSIVE or keep their other rule), its certificate, the verifier, and the rotation identity and the
separation checked numerically at 50 digits, independently of the engines."""
from __future__ import annotations

import random

import mpmath as mp
import pytest
import sympy

import uapcheck
from certificates import certificate, certificate_of, step_outcome, with_text
from uapcheck import proof
from uapcheck.lower import QUERY_DOT_KEY as a
from uapcheck.rules import complex_scale
from uapcheck.verifier import verify


pytestmark = pytest.mark.mpmath_digits(50)  # mpmath's working precision in each test (tests/conftest.py)


def steps(result, rule):
    return [s for s in result.root.walk() if s.rule == rule]


def head(body: str, extra: str = "") -> str:
    return extra + "attention {\n  " + body.replace(";", "\n  ") + "\n}\n"


# ---------------------------------------------------------------------------------------------
# The rule and its premises

@pytest.mark.parametrize("body", ["kernel k(x, y) = exp(cos(x . y))", "kernel k(x, y) = 2 + cos(x . y)",
                                  "score s(x, y) = cos(x . y)", "kernel k(x, y) = 3 + cos(x . y) * cos(2 * x . y)"])
def test_entire_even_profiles_are_one_layer_distinguishing(body):
    result = uapcheck.check(head(body))
    assert result.verdict == "UAP" and result.layers == 1
    (step,) = steps(result, "TD-COMPLEX")
    assert step.status == proof.PROVED
    assert [p.rule for p in step.premises] == ["AN-STRUCT"]


def test_the_catalog_periodic_kernel_names_its_rotation():
    result = uapcheck.check((uapcheck_catalog() / "exp_cos.uap").read_text("utf-8"))
    (step,) = steps(result, "TD-COMPLEX")
    assert "its rotation β(s) = α(i s), β(s) = exp(cosh(s)), is real" in step.claim and "γ(s) = cosh(s)" in step.claim
    assert step.evidence["(LIM) for α"] == "LIM-OSC" and step.evidence["rotated (LIM)"] == "LIM-EXPPOLY"


def uapcheck_catalog():
    from pathlib import Path
    return Path(__file__).resolve().parents[1] / "catalog"


NEAR_MISSES = [
    "score s(x, y) = sin(x . y)",                       # odd: α(i s) = i sinh(s) is not real
    "kernel k(x, y) = exp(sin(x . y))",                 # not even
    "kernel k(x, y) = 2 + tanh(x . y)",                 # not entire (poles at ±iπ/2), not even
    "kernel k(x, y) = exp(1/(1 + (x . y)^2))",          # even, analytic on R, not entire (poles at ±i)
    "score s(x, y) = (x . y)^2",                        # even and entire, but β = −s² has no (LIM)
    "kernel k(x, y) = exp(cos(x . y)) + |y|^2",         # not a function of x·y alone
    "kernel k(x, y) = exp(cos(x . y)); tie query key",  # tied projections
    "kernel k(x, y) = exp(cos(x . y)); bias symmetric toeplitz",
    "kernel k(x, y) = exp(cos(x . y)); affine query key",
]


@pytest.mark.parametrize("body", NEAR_MISSES)
def test_near_misses_do_not_use_the_rotation(body):
    result = uapcheck.check(head(body))
    assert not any(s.proved for s in steps(result, "TD-COMPLEX"))


def test_a_param_in_the_profile_is_outside_the_rule():
    result = uapcheck.check(head("kernel k(x, y) = exp(cos(x . y) / tau)", "param tau > 0\n"))
    assert steps(result, "TD-COMPLEX") == []


def test_beside_another_head_and_on_a_pattern_the_rule_gives_what_softmax_gets():
    """The step is the separation property the view argument (§11.2, Lemma V) uses, as the dominant-pair lemma is for
    softmax: the same group and layer count as exp(x . y) on the same heads."""
    for extra in ("", "; pattern window(2)", "; pattern strided(3)"):
        rotated = uapcheck.check(head("kernel k(x, y) = exp(cos(x . y))" + extra, "tokens 12\n"))
        softmax = uapcheck.check(head("kernel k(x, y) = exp(x . y)" + extra, "tokens 12\n"))
        assert any(s.proved for s in steps(rotated, "TD-COMPLEX"))
        assert (rotated.verdict, str(rotated.group), rotated.layers) == (softmax.verdict, str(softmax.group),
                                                                          softmax.layers)
    two = uapcheck.check(head("kernel k(x, y) = exp(cos(x . y))") + head("kernel k(x, y) = exp(x . y)"))
    assert two.verdict == "UAP" and two.layers == 1 and any(s.proved for s in steps(two, "TD-COMPLEX"))


# ---------------------------------------------------------------------------------------------
# The certificate

def _certificate(body: str):
    (step,) = steps(uapcheck.check(head(body)), "TD-COMPLEX")
    return step.certificate


def test_the_certificate_rejects_an_odd_or_non_entire_profile():
    cert = _certificate("kernel k(x, y) = exp(cos(x . y))")
    cert.check()
    for alpha in (sympy.exp(sympy.sin(a)), sympy.exp(1 / (1 + a ** 2)), sympy.sqrt(2 + sympy.cos(a))):
        bad = complex_scale.ComplexCertificate(alpha, cert.beta, cert.gamma, cert.lim, cert.analytic, True)
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def test_the_certificate_rejects_a_wrong_rotation_or_exponent():
    cert = _certificate("kernel k(x, y) = exp(cos(x . y))")
    wrong_beta = complex_scale.ComplexCertificate(cert.alpha, sympy.exp(sympy.cos(a)), None, cert.lim, cert.analytic,
                                                  True)
    wrong_gamma = complex_scale.ComplexCertificate(cert.alpha, cert.beta, sympy.cos(a), cert.lim, cert.analytic, True)
    for bad in (wrong_beta, wrong_gamma):
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def test_entire_by_structure():
    s = a
    assert complex_scale.entire_by_structure(sympy.exp(sympy.cos(s)) * s ** 2 + sympy.cosh(3 * s), s)
    for f in (1 / (1 + s ** 2), sympy.sqrt(s), sympy.Abs(s), sympy.tanh(s), sympy.log(2 + sympy.cos(s))):
        assert not complex_scale.entire_by_structure(f, s)


# ---------------------------------------------------------------------------------------------
# The verifier

def test_the_verifier_checks_the_catalog_step_numerically():
    report = verify(certificate("exp_cos.uap"))
    assert report.ok and step_outcome(report, "TD-COMPLEX") == "checked numerically"


@pytest.mark.parametrize("old,new", [("exp(cos(x . y))", "exp(sin(x . y))"),
                                     ("exp(cos(x . y))", "exp(1 / (1 + (x . y)^2))"),
                                     ("exp(cos(x . y))", "exp(cos(x . y)) + 1 / (2 + (x . y)^2)"),
                                     ("exp(cos(x . y))", "2 + (x . y)^2")])
def test_the_verifier_rejects_a_profile_outside_the_theorem(old, new):
    report = verify(with_text(certificate("exp_cos.uap"), old, new))
    assert not report.ok and step_outcome(report, "TD-COMPLEX") == "rejected"


def test_the_verifier_orders_an_unnormalised_rotation_by_its_modulus():
    """s² cos(s) rotates to −s² cosh(s): negative, with moduli ordered as (LIM) needs."""
    report = verify(certificate_of(head("score s(x, y) = (x . y)^2 * cos(x . y)")))
    assert report.ok and step_outcome(report, "TD-COMPLEX") == "checked numerically"


def test_the_verifier_rejects_the_rule_on_a_head_with_bias_terms():
    cert = certificate_of(head("kernel k(x, y) = exp(cos(x . y))"))
    report = verify(with_text(cert, "exp(cos(x . y))", "exp(cos(x . y))\n  affine query key"))
    assert not report.ok and step_outcome(report, "TD-COMPLEX") == "rejected"


def test_the_verifier_accepts_the_rule_on_a_windowed_head():
    report = verify(certificate_of(head("kernel k(x, y) = exp(cos(x . y)); pattern window(2)", "tokens 9\n")))
    assert report.ok and step_outcome(report, "TD-COMPLEX") == "checked numerically"


# ---------------------------------------------------------------------------------------------
# Numeric confirmation, independent of the engines (d = 2, 50 digits)

def _sums(alpha, q, WK, tokens):
    """(N, D) = (Σ α(q·W_K y) y, Σ α(q·W_K y)) over the tokens (complex W_K allowed)."""
    N, D = [mp.mpc(0), mp.mpc(0)], mp.mpc(0)
    for y in tokens:
        key = [WK[r][0] * y[0] + WK[r][1] * y[1] for r in range(2)]
        w = alpha(q[0] * key[0] + q[1] * key[1])
        N = [N[r] + w * y[r] for r in range(2)]
        D += w
    return N, D


def _cross(alpha, q, WK, X, Y):
    """N_X D_Y − N_Y D_X: the two samples' cross-multiplied output difference at the shared token (W_V = I)."""
    NX, DX = _sums(alpha, q, WK, X)
    NY, DY = _sums(alpha, q, WK, Y)
    return [NX[r] * DY - NY[r] * DX for r in range(2)]


ALPHA = lambda s: mp.exp(mp.cos(s))  # noqa: E731
BETA = lambda s: mp.exp(mp.cosh(s))  # noqa: E731


def _random_matrix(rng):
    return [[mp.mpf(rng.gauss(0, 1)) for _ in range(2)] for _ in range(2)]


def test_the_rotation_identity_holds_numerically():
    """F_α(W_Q, i W) = F_β(W_Q, W) for random real W_Q, W and random samples sharing a token."""
    rng = random.Random(3)
    for _ in range(5):
        X = [(mp.mpf(rng.uniform(-1, 1)), mp.mpf(rng.uniform(-1, 1))) for _ in range(4)]
        Y = [X[0]] + [(mp.mpf(rng.uniform(-1, 1)), mp.mpf(rng.uniform(-1, 1))) for _ in range(3)]
        WQ, W = _random_matrix(rng), _random_matrix(rng)
        q = [WQ[r][0] * X[0][0] + WQ[r][1] * X[0][1] for r in range(2)]
        rotated = [[1j * W[r][c] for c in range(2)] for r in range(2)]
        lhs, rhs = _cross(ALPHA, q, rotated, X, Y), _cross(BETA, q, W, X, Y)
        assert all(abs(lhs[r] - rhs[r]) <= mp.mpf(10) ** -40 * (1 + abs(rhs[r])) for r in range(2))
        assert all(abs(mp.im(rhs[r])) < mp.mpf(10) ** -40 for r in range(2))  # β is real


def test_exp_cos_separates_a_pair_one_layer_of_it_was_not_known_to():
    """A moment-blind pair for polynomial kernels (equal power sums up to degree 3 on a line) is separated by one
    exp(cos) layer at random real parameters, and the rotated β-head separates it by far more (its (LIM))."""
    X = [(mp.mpf(v), mp.mpf(0)) for v in (5, 0, 4, 7, 11)]
    Y = [(mp.mpf(v), mp.mpf(0)) for v in (5, 1, 2, 9, 10)]
    rng = random.Random(0)
    biggest = mp.mpf(0)
    for _ in range(6):
        WQ, WK = _random_matrix(rng), _random_matrix(rng)
        q = [WQ[r][0] * X[0][0] + WQ[r][1] * X[0][1] for r in range(2)]
        NX, DX = _sums(ALPHA, q, WK, X)
        NY, DY = _sums(ALPHA, q, WK, Y)
        biggest = max(biggest, max(abs(NX[r] / DX - NY[r] / DY) for r in range(2)))
    assert biggest > mp.mpf(10) ** -2


def test_the_antipodal_pair_is_the_null_set_the_rotation_leaves():
    """Symmetric samples X = −X on a line (an antipodal null set, where β's (LIM) fails too): both sides of the
    rotation vanish, for every parameter; the literal reading of Definition 3 fails there (docs/theory.md §20.10)."""
    X = [(mp.mpf(v), mp.mpf(0)) for v in (3, -3, 1, -1)]
    Y = [(mp.mpf(v), mp.mpf(0)) for v in (3, -3, 2, -2)]
    rng = random.Random(1)
    for _ in range(4):
        WQ, W = _random_matrix(rng), _random_matrix(rng)
        q = [WQ[r][0] * X[0][0] + WQ[r][1] * X[0][1] for r in range(2)]
        for alpha, WK in ((ALPHA, W), (BETA, W)):
            assert all(abs(v) < mp.mpf(10) ** -40 for v in _cross(alpha, q, WK, X, Y))
