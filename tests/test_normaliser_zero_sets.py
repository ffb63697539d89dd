"""WP-POSITIVE's forms for kernels that vanish on part of the inputs (docs/theory.md §4): positive off the
hypersurfaces x·z = 0 ((x·y)² exp(x·y)) and positive unless the query equals a key (|x − y|² exp(x·y)). A row
normaliser then vanishes on a closed set of parameters whose complement is connected only for a dense head (every
row has n ≥ 2 keys) and d ≥ 2: a row with one key gives the quadric q·k = 0, which splits the parameters in two.
The connectivity claims are checked by sampling: the sign of q·k on random parameters takes both values for one
key, and random paths avoid the zero set for two keys."""
from __future__ import annotations

import random

import pytest

import uapcheck
from uapcheck import proof


def _step(result, rule):
    return next(s for s in result.root.walk() if s.rule == rule)


@pytest.mark.parametrize("kernel", ["(x . y)^2 * exp(x . y)", "|x - y|^2 * exp(x . y)"])
def test_a_dense_head_is_proved_for_d_at_least_2(kernel):
    result = uapcheck.check(f"attention {{ kernel k(x, y) = {kernel} }}\n", "t.uap")
    wp, an = _step(result, "WP-POSITIVE"), _step(result, "AN-STRUCT")
    assert wp.status == proof.PROVED and wp.evidence["dimensions"] == "d ≥ 2"
    assert "positive off a closed set of parameters" in an.claim and an.evidence["dimensions"] == "d ≥ 2"
    assert "divided by a positive normaliser" not in an.claim  # at W_Q = 0 (resp. every key = query) it is 0
    assert result.verdict == "UAP" and result.group.name == "S_n"
    assert uapcheck.check(f"dim 1\nattention {{ kernel k(x, y) = {kernel} }}\n", "t.uap").verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("kernel", ["(x . y)^2 * exp(x . y)", "|x - y|^2 * exp(x . y)"])
def test_a_sparse_head_is_undecided(kernel):
    result = uapcheck.check(f"attention {{ kernel k(x, y) = {kernel}; pattern window(1) }}\n", "t.uap")
    assert _step(result, "WP-POSITIVE").status == proof.UNDECIDED and result.verdict == "INCONCLUSIVE"


def test_the_first_form_is_never_claimed_for_a_kernel_with_zeros():
    result = uapcheck.check("attention { kernel k(x, y) = (x . y)^2 * exp(x . y) }\n", "t.uap")
    assert "for all inputs and parameters" not in _step(result, "WP-POSITIVE").claim
    from pathlib import Path
    text = (Path(uapcheck.__file__).parent / "rule_docs" / "WP-POSITIVE.md").read_text()  # what --explain prints
    assert "reported positive everywhere" not in text and "off the hypersurfaces" in text


def _dot(u, v):
    return sum(p * q for p, q in zip(u, v))


def test_one_key_splits_the_parameters_and_two_keys_do_not():
    """q·k₁ = 0 alone (a row with one key) takes both signs on random (W_Q, W_K): two components. With two
    linearly independent keys, {q·k₁ = q·k₂ = 0} has codimension 2: a random straight path between two random
    parameter points never meets it (sampled), while it meets q·k₁ = 0 about half the time."""
    rng = random.Random(1)
    x1, x2 = (1.0, 0.3), (-0.4, 1.2)

    def qk(wq, wk, x):
        q = [sum(wq[r][c] * x1[c] for c in range(2)) for r in range(2)]
        return _dot(q, [sum(wk[r][c] * x[c] for c in range(2)) for r in range(2)])

    def rnd():
        return [[rng.gauss(0, 1) for _ in range(2)] for _ in range(2)]
    signs = set()
    crossings_one = crossings_two = 0
    for _ in range(200):
        a, b = (rnd(), rnd()), (rnd(), rnd())
        signs.add(qk(*a, x1) > 0)
        path = [tuple([[a[m][r][c] * (1 - t / 50) + b[m][r][c] * t / 50 for c in range(2)] for r in range(2)]
                      for m in range(2)) for t in range(51)]
        one = [qk(*p, x1) for p in path]
        if any(u * v < 0 for u, v in zip(one, one[1:])):
            crossings_one += 1
            both = [(qk(*p, x1), qk(*p, x2)) for p in path]
            if any(abs(u) < 1e-3 and abs(v) < 1e-3 for u, v in both):
                crossings_two += 1
    assert signs == {True, False} and crossings_one > 40 and crossings_two == 0
