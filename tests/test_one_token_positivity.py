"""`tokens 1`: a row has one key, its own token's. WP-POSITIVE's third and fourth forms (positive off q·k = 0, or
unless the query equals a key) need n ≥ 2 keys per row: with one key the normaliser k(q, k) of (q·k)² e^{q·k} vanishes
on the quadric xᵀW_QᵀW_K x = 0, which splits the parameters in two. At `tokens 1` neither form is used (the step is
undecided); at n ≥ 2 they still are, and a derivation at one length does not leak into the other (the premises'
cache keeps n = 1 apart)."""
from __future__ import annotations

import random

import pytest

import uapcheck

TWO_KEY_FORMS = ["(x . y)^2 * exp(x . y)", "|x - y|^2 * exp(x . y)"]


def _wp(result):
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


def _check(body: str, tokens: str):
    return uapcheck.check(f"{tokens}attention {{ kernel k(x, y) = {body} }}\n", "t.uap")


@pytest.mark.parametrize("body", TWO_KEY_FORMS)
def test_one_token_does_not_use_a_form_that_needs_two_keys(body):
    many = _check(body, "tokens 3\n")  # derived first: the one-token derivation must not reuse its premises
    assert _wp(many).proved and "boundary" in _wp(many).evidence
    assert many.verdict == "UAP"
    one = _check(body, "tokens 1\n")
    wp = _wp(one)
    assert not wp.proved
    assert one.verdict != "UAP"


def test_the_one_key_normaliser_vanishes_on_a_splitting_quadric():
    """For a fixed token x, q·k = xᵀW_QᵀW_K x takes both signs over the parameters (so its zero set, where the one-key
    normaliser (q·k)² e^{q·k} vanishes, separates them), while with two keys the normaliser vanishes only where both
    q·k_1 and q·k_2 do."""
    rng = random.Random(2)
    x = [1.0, -0.5, 2.0]
    signs = set()
    for _ in range(200):
        WQ = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(3)]
        WK = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(3)]
        q = [sum(WQ[r][c] * x[c] for c in range(3)) for r in range(3)]
        k = [sum(WK[r][c] * x[c] for c in range(3)) for r in range(3)]
        signs.add(sum(a * b for a, b in zip(q, k)) > 0)
    assert signs == {True, False}
