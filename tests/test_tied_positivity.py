"""WP-POSITIVE with `tie query key`: every row's normaliser holds its own token's term k(q_i, q_i), so a kernel that
changes sign is not thereby ill-posed (exp(x·y) − 1/3 on `window(1)`: the normaliser exceeds e^{|q|²} − 1 ≥ 0). The
tied head is never reported ILL-POSED from a sign change; the same kernel untied still is."""
from __future__ import annotations

import math
import random

import pytest

import uapcheck


def _check(body: str, tokens: str = "n"):
    return uapcheck.check(f"tokens {tokens}\nattention {{\n  {body}\n}}\n", "case.uap")


def _positivity(result):
    steps = [s for s in result.root.walk() if s.rule == "WP-POSITIVE"]
    assert steps
    return steps[0]


TIED = [
    ("kernel k(x, y) = exp(x . y) - 1/3\n  tie query key\n  pattern window(1)", "n"),
    ("kernel k(x, y) = exp(x . y) - 1/2\n  tie query key", "2"),
    ("kernel k(x, y) = 1 + x . y\n  tie query key", "1"),
    ("kernel k(x, y) = x . y\n  tie query key", "1"),
]


@pytest.mark.parametrize("body,tokens", TIED)
def test_a_tied_sign_change_is_not_ill_posed(body, tokens):
    result = _check(body, tokens)
    assert result.verdict != "ILL-POSED"
    step = _positivity(result)
    assert step.status == "undecided"
    assert "k(q_i, q_i)" in step.claim


def test_the_same_kernel_untied_is_still_ill_posed():
    result = _check("kernel k(x, y) = exp(x . y) - 1/3\n  pattern window(1)")
    assert result.verdict == "ILL-POSED"
    assert _positivity(result).status == "refuted"


def test_the_tied_window_normaliser_is_positive_numerically():
    """The first case's premise a second way: random tied rows of window(1) (the token and two neighbours, d = 3)
    never give a normaliser ≤ 0, while untied rows (a separate key projection) do."""
    rng = random.Random(5)
    untied_nonpositive = 0
    for _ in range(4000):
        scale = rng.choice([0.1, 1.0, 3.0])
        q, left, right = ([rng.gauss(0, scale) for _ in range(3)] for _ in range(3))
        dot = lambda a, b: sum(x * y for x, y in zip(a, b))  # noqa: E731
        tied = sum(math.exp(dot(q, key)) - 1 / 3 for key in (q, left, right))
        assert tied > 0
        own = [rng.gauss(0, scale) for _ in range(3)]  # untied: the row's own key is not its query
        untied = sum(math.exp(dot(q, key)) - 1 / 3 for key in (own, left, right))
        untied_nonpositive += untied <= 0
    assert untied_nonpositive > 0
