"""A normalised head whose reweight vanishes at every key a row sees has that row's normaliser Σ_j k(q_i, k_j) c(i, j)
identically 0: ILL-POSED, with the row named (row 1 of `causal` sees only itself, so `exp(j - i) - 1` is 0 there).
Checked by a direct evaluation of the row's normaliser, and by the verifier, which re-derives the row's keys and
rejects a certificate that names another row or a reweight that does not vanish."""
from __future__ import annotations

import copy
import json
import random

import mpmath as mp
import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _text(body: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  {body}\n}}\n"


def _wp(result):
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "r.uap"), text)))


# (pattern and reweight, tokens line, the row that vanishes, its visible keys)
ZERO_ROWS = [
    ("pattern causal\n  reweight c(i, j) = exp(j - i) - 1", "", 1, [1]),
    ("pattern causal\n  reweight c(i, j) = exp(j - i) - 1", "tokens 6\n", 1, [1]),
    ("pattern offsets {-1, 0}\n  reweight c(i, j) = j - i", "", 1, [1]),
    ("pattern offsets {0, 1}\n  reweight c(i, j) = exp(i - j) - 1", "", "n", ["n"]),
    ("pattern causal + offsets {-1}\n  reweight c(i, j) = (i - j)^2", "", 1, [1]),
    ("reweight c(i, j) = i - 1", "tokens 4\n", 1, [1, 2, 3, 4]),
    ("pattern window(1)\n  reweight c(i, j) = (i - 2) * (j + 1)", "tokens 5\n", 2, [1, 2, 3]),
]


@pytest.mark.parametrize("body,tokens,row,visible", ZERO_ROWS)
def test_a_row_whose_weights_all_vanish_is_ill_posed(body, tokens, row, visible):
    text = _text(body, tokens)
    result = uapcheck.check(text, "r.uap")
    assert result.verdict == "ILL-POSED"
    wp = _wp(result)
    assert wp.status == "refuted"
    assert wp.evidence["zero row"]["row"] == row and wp.evidence["zero row"]["visible"] == visible
    report = verify(_certificate(text))
    assert report.ok and report.verdict == "ILL-POSED"


def test_the_first_causal_row_normaliser_is_zero_numerically():
    """Row 1 of a causal head: the normaliser is k(q_1, k_1)·(e^{1 − 1} − 1) = 0 for random parameters, while row 2's
    (which also sees key 1, with c(2, 1) = e^{−1} − 1 < 0) is not 0."""
    mp.mp.dps = 30
    rng = random.Random(7)
    for _ in range(20):
        q = [mp.mpf(rng.gauss(0, 1)) for _ in range(3)]
        keys = [[mp.mpf(rng.gauss(0, 1)) for _ in range(3)] for _ in range(2)]

        def k(u, v):
            return mp.exp(sum(a * b for a, b in zip(u, v)))

        def c(i, j):
            return mp.exp(j - i) - 1
        assert k(q, keys[0]) * c(1, 1) == 0
        assert k(q, keys[0]) * c(2, 1) + k(q, keys[1]) * c(2, 2) != 0


NOT_ILL_POSED = [
    ("pattern causal\n  reweight c(i, j) = exp(j - i) - 1\n  unnormalized", ""),  # no normaliser
    ("pattern causal\n  reweight c(i, j) = exp(j - i)", ""),  # positive on every row
    ("pattern causal\n  reweight c(i, j) = 2 - exp(j - i)", "tokens 4\n"),  # c(i, i) = 1
]


@pytest.mark.parametrize("body,tokens", NOT_ILL_POSED)
def test_no_zero_row_is_claimed_where_a_row_keeps_a_weight(body, tokens):
    result = uapcheck.check(_text(body, tokens), "r.uap")
    assert result.verdict != "ILL-POSED"
    assert all("zero row" not in s.evidence for s in result.root.walk() if s.rule == "WP-POSITIVE")


def test_the_verifier_rejects_another_row_or_a_non_vanishing_reweight():
    text = _text("pattern causal\n  reweight c(i, j) = exp(j - i) - 1", "tokens 6\n")
    cert = _certificate(text)
    step = next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")
    moved = copy.deepcopy(cert)
    row = next(s for s in moved["steps"] if s["rule"] == "WP-POSITIVE")["evidence"]["zero row"]
    row["row"], row["visible"] = 3, [3]
    assert next(s.outcome for s in verify(moved).steps if s.rule == "WP-POSITIVE") == "rejected"
    assert step["evidence"]["zero row"]["row"] == 1
    import hashlib
    other = copy.deepcopy(cert)
    other["input"]["text"] = text.replace("exp(j - i) - 1", "exp(j - i) - 1/2")
    other["input"]["sha256"] = hashlib.sha256(other["input"]["text"].encode("utf-8")).hexdigest()
    report = verify(other)
    assert not report.ok
    assert next(s.outcome for s in report.steps if s.rule == "WP-POSITIVE") == "rejected"
