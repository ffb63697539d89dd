"""AN-STRUCT off the zero sets of Gram norms |α x + β y| (docs/theory.md §20.4): any positive semidefinite Gram form
under a root is analytic where it is positive, and its zero set for a pair is a linear subspace of codimension d; under
`tie query key` a norm of q − k vanishes at the pairs (i, i) for every θ, so the kernel there must be analytic at 0."""
import random

import mpmath
import pytest
import sympy

import uapcheck
from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c
from uapcheck.rules.analytic import _gram_norm
from certificates import certificate_of
from uapcheck.verifier import TRUSTED, VERIFIED, verify


def _source(body: str) -> str:
    return f"attention {{\n  {body}\n}}\n"


def _check(body: str):
    return uapcheck.check(_source(body), "t.uap")


def _step(result, rule: str):
    steps = [s for s in result.root.walk() if s.rule == rule]
    assert steps, rule
    return steps[0]


@pytest.mark.parametrize("kernel", [
    "exp(-|x - 2 * y|)",
    "exp(-|2 * x + 3 * y|)",
    "exp(x . y - |x - 2 * y|)",
    "exp(-|x - y| - |x - 2 * y|)",
    "exp(-sqrt(|x|^2 + |y|^2 + x . y))",
])
def test_gram_norm_kernels_are_analytic_off_their_zero_sets(kernel):
    result = _check(f"kernel k(x, y) = {kernel}")
    step = _step(result, "AN-STRUCT")
    assert step.status == "proved"
    assert step.evidence["dimensions"] == "d ≥ 2"
    assert result.verdict == "UAP"


@pytest.mark.parametrize("kernel", [
    "exp(-sqrt(|x|^2 + |y|^2 + 3 * x . y))",  # indefinite: negative where x·z < −(|x|² + |z|²)/3
    "exp(-abs(x . y))",  # |x·z| vanishes on a hypersurface
])
def test_forms_that_are_not_norms_stay_undecided(kernel):
    assert _step(_check(f"kernel k(x, y) = {kernel}"), "AN-STRUCT").status == "undecided"


def test_a_pole_on_the_diagonal_under_tie_is_not_analytic():
    # q_i = k_i at every pair (i, i) for every θ: 1/|q − k| is undefined there, whatever θ
    tied = _step(_check("score s(x, y) = 1 / |x - y|\n  tie query key"), "AN-STRUCT")
    assert tied.status == "undecided"
    untied = _step(_check("score s(x, y) = 1 / |x - y|"), "AN-STRUCT")
    assert untied.status == "proved"


def test_under_tie_a_norm_not_vanishing_on_the_diagonal_still_counts():
    # q_i − 2k_i = −W x_i: zero only where W x_i = 0, a subspace of codimension d
    assert _step(_check("score s(x, y) = 1 / |x - 2 * y|\n  tie query key"), "AN-STRUCT").status == "proved"


def test_under_tie_a_kernel_analytic_at_the_diagonal_counts():
    # exp(−|q − k|) is 1 at the pairs (i, i): analytic there
    assert _step(_check("kernel k(x, y) = exp(-|x - y|)\n  tie query key"), "AN-STRUCT").status == "proved"


@pytest.mark.parametrize("body, verified", [
    ("kernel k(x, y) = exp(-|x - 2 * y|)", True),
    ("kernel k(x, y) = exp(x . y - |2 * x + 3 * y| / 4)", True),
    ("kernel k(x, y) = exp(-|x - y|)\n  tie query key", False),  # the verifier does not read the diagonal: trusted
])
def test_verifier_reads_gram_norms(body, verified):
    report = verify(certificate_of(_source(body)))
    outcome = {s.rule: s.outcome for s in report.steps}["AN-STRUCT"]
    assert outcome == (VERIFIED if verified else TRUSTED)


@pytest.mark.parametrize("coefficients", [(1, -2, 4), (4, -6, 9), (2, 2, 2), (2, 1, 1), (1, 1, 1), (3, 1, 1)])
def test_gram_norm_matches_the_norm_it_names(coefficients):
    """The second way: B(x, z) = p|x|² + 2q x·z + r|z|² against |α x + β z|² at random vectors (mpmath, 30 digits)."""
    p, q, r = (sympy.Integer(v) for v in coefficients)
    base = p * c + 2 * q * a + r * b
    norm = _gram_norm(base)
    assert norm is not None
    rng = random.Random(7)
    mpmath.mp.dps = 30
    for _ in range(20):
        x = [mpmath.mpf(rng.uniform(-3, 3)) for _ in range(3)]
        z = [mpmath.mpf(rng.uniform(-3, 3)) for _ in range(3)]
        value = p * sum(u * u for u in x) + 2 * q * sum(u * v for u, v in zip(x, z)) + r * sum(v * v for v in z)
        assert value >= 0
        if norm.rank == 1:
            alpha, beta = float(norm.alpha), float(norm.beta)
            named = sum((alpha * u + beta * v) ** 2 for u, v in zip(x, z))
            assert abs(value - named) < mpmath.mpf(10) ** -10
        else:
            assert value > 0


@pytest.mark.parametrize("coefficients", [(1, 2, 1), (1, -2, 3), (-1, 0, 1), (1, 0, -1)])
def test_indefinite_forms_are_not_gram_norms(coefficients):
    p, q, r = (sympy.Integer(v) for v in coefficients)
    assert _gram_norm(p * c + 2 * q * a + r * b) is None


def test_a_root_of_a_gram_form_plus_a_positive_constant_is_analytic_everywhere():
    # log(1 + |q − 2k|²) ≥ log 1: defined and analytic for every query and key (Lemma D), also at d = 1
    step = _step(_check("score s(x, y) = log(1 + |x - 2 * y|^2)"), "AN-STRUCT")
    assert step.status == "proved"
    assert step.evidence["dimensions"] == "d ≥ 1"
