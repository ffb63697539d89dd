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


# Rows 1 and n at any length and any pattern: c(1, j) or c(n, j) vanishes identically in j (docs/theory.md §4).
EVERY_KEY_ROWS = [
    ("reweight c(i, j) = n - i", "", "n"),  # dense, symbolic n: row n
    ("pattern blocks(2)\n  reweight c(i, j) = i - 1", "", 1),  # a two-sided pattern: row 1
    ("reweight c(i, j) = (i - 1) * (j + 1)", "", 1),
    ("reweight c(i, j) = 100 - i", "tokens 100\n", 100),  # a concrete length beyond the enumerated rows
    ("pattern blocks(2)\n  reweight c(i, j) = (n - i) * j", "", "n"),
]


@pytest.mark.parametrize("body,tokens,row", EVERY_KEY_ROWS)
def test_an_end_row_whose_factor_vanishes_at_every_key_is_ill_posed(body, tokens, row):
    text = _text(body, tokens)
    result = uapcheck.check(text, "r.uap")
    assert result.verdict == "ILL-POSED"
    zero = _wp(result).evidence["zero row"]
    assert zero["row"] == row and zero["every key"] is True
    report = verify(_certificate(text))
    assert report.ok and report.verdict == "ILL-POSED"


def test_the_last_row_of_n_minus_i_is_zero_numerically():
    """c(n, j) = n − n = 0 at every key of row n, at n = 1…8: the normaliser of row n is 0, the one of row n − 1 is
    a positive sum."""
    for n in range(1, 9):
        assert all(n - n == 0 for _ in range(1, n + 1))
        if n > 1:
            assert sum((n - (n - 1)) * mp.exp(mp.mpf(j) / 7) for j in range(1, n + 1)) > 0


def test_the_verifier_rejects_an_every_key_row_that_is_not_an_end_row_or_does_not_vanish():
    text = _text("reweight c(i, j) = n - i")
    cert = _certificate(text)
    moved = copy.deepcopy(cert)
    row = next(s for s in moved["steps"] if s["rule"] == "WP-POSITIVE")["evidence"]["zero row"]
    row["row"] = 2
    assert next(s.outcome for s in verify(moved).steps if s.rule == "WP-POSITIVE") == "rejected"
    import hashlib
    other = copy.deepcopy(cert)
    other["input"]["text"] = text.replace("n - i", "n + 1 - i")
    other["input"]["sha256"] = hashlib.sha256(other["input"]["text"].encode("utf-8")).hexdigest()
    assert next(s.outcome for s in verify(other).steps if s.rule == "WP-POSITIVE") == "rejected"


# Rows whose factors take both signs (Lemma Q, docs/theory.md §4): (pattern and reweight, tokens line, row)
MIXED_ROWS = [
    ("pattern causal\n  reweight c(i, j) = 1 + j - i", "tokens 6\n", 3),
    ("pattern causal\n  reweight c(i, j) = cos(pi * (i - j) / 2)", "tokens 6\n", 3),
    ("pattern causal\n  reweight c(i, j) = 1 + j - i", "tokens 3\n", 3),
    ("reweight c(i, j) = j - 2", "tokens 3\n", 1),
    ("reweight c(i, j) = 10 + j - i", "tokens 12\n", 12),  # c(12, 1) = −1, c(12, 12) = 10; at n = 11 none is < 0
]


@pytest.mark.parametrize("body,tokens,row", MIXED_ROWS)
def test_a_row_whose_factors_take_both_signs_is_ill_posed(body, tokens, row):
    text = _text(body, tokens)
    result = uapcheck.check(text, "r.uap")
    assert result.verdict == "ILL-POSED"
    mixed = _wp(result).evidence["mixed row"]
    assert mixed["row"] == row
    report = verify(_certificate(text))
    # (a dense head's SYM-DENSE with a reweight not positive everywhere is a trusted step, not a rejected one)
    assert report.verdict == "ILL-POSED" and all(s.outcome != "rejected" for s in report.steps)
    assert next(s.outcome for s in report.steps if s.rule == "WP-POSITIVE") == "verified"


NOT_MIXED = [
    ("pattern causal\n  reweight c(i, j) = 1 + j - i", "tokens 2\n"),  # rows 1, 2: factors 1; 0 and 1
    ("pattern causal\n  reweight c(i, j) = 1 + j - i\n  tie query key", "tokens 6\n"),  # the query is not free
    ("pattern causal\n  reweight c(i, j) = 1 + j - i\n  unnormalized", "tokens 6\n"),  # no normaliser
    ("pattern window(1)\n  reweight c(i, j) = cos(pi * (i - j) / 3)", "tokens 6\n"),  # cos(±π/3) = 1/2 > 0
]


@pytest.mark.parametrize("body,tokens", NOT_MIXED)
def test_no_mixed_row_is_claimed_where_no_row_takes_both_signs_or_the_query_is_not_free(body, tokens):
    result = uapcheck.check(_text(body, tokens), "r.uap")
    assert all("mixed row" not in s.evidence for s in result.root.walk() if s.rule == "WP-POSITIVE")


def test_rows_with_factors_of_both_signs_by_brute_force():
    """1 + j − i on `causal`: row i sees keys 1…i with factors 1 + j − i, of both signs exactly when i ≥ 3 (c(i, 1) =
    2 − i < 0 < 1 = c(i, i)); so n ≥ 3 is ILL-POSED by a mixed row and n = 2 is not."""
    for n in range(1, 7):
        mixed = [i for i in range(1, n + 1) if min(1 + j - i for j in range(1, i + 1)) < 0 < max(1 + j - i for j in range(1, i + 1))]
        assert (mixed != []) == (n >= 3)
        result = uapcheck.check(_text("pattern causal\n  reweight c(i, j) = 1 + j - i", f"tokens {n}\n"), "r.uap")
        assert (result.verdict == "ILL-POSED") == (n >= 3)


def test_the_mixed_row_normaliser_vanishes_with_a_pole_numerically():
    """Row 3 of `causal` with 1 + j − i and exp(x·y): N_3 = e^{q·k_3} − e^{q·k_1} (c(3, 2) = 0). In d = 3 with random
    queries and keys both signs occur; on the segment between a positive and a negative configuration mpmath finds a
    zero of N_3, where the numerator Σ_j c(3, j) e^{q·k_j} v_j (v_j = x_j, W_V = 1) is not 0: a pole."""
    mp.mp.dps = 40
    rng = random.Random(11)

    def config():
        return [[mp.mpf(rng.gauss(0, 1)) for _ in range(3)] for _ in range(4)]  # q, x_1, x_2, x_3

    def dot(u, v):
        return sum(a * b for a, b in zip(u, v))

    def normaliser(cf):
        q, x1, _, x3 = cf
        return mp.exp(dot(q, x3)) - mp.exp(dot(q, x1))

    def numerator(cf):
        q, x1, _, x3 = cf
        return [mp.exp(dot(q, x3)) * b - mp.exp(dot(q, x1)) * a for a, b in zip(x1, x3)]
    samples = [config() for _ in range(40)]
    pos = next(cf for cf in samples if normaliser(cf) > 0)
    neg = next(cf for cf in samples if normaliser(cf) < 0)

    def at(t):
        return [[a + t * (b - a) for a, b in zip(u, v)] for u, v in zip(pos, neg)]
    t = mp.findroot(lambda s: normaliser(at(s)), (0, 1), solver="bisect")
    assert abs(normaliser(at(t))) < mp.mpf(10) ** -25
    assert max(abs(v) for v in numerator(at(t))) > mp.mpf(10) ** -5


def _mixed_cert(text: str) -> dict:
    return _certificate(text)


@pytest.mark.parametrize("tamper", ["sign", "row", "visible", "query"])
def test_the_verifier_rejects_a_tampered_mixed_row(tamper):
    text = _text("pattern causal\n  reweight c(i, j) = 1 + j - i", "tokens 6\n")
    cert = _certificate(text)
    assert verify(cert).ok
    mixed = next(s for s in cert["steps"] if s["rule"] == "WP-POSITIVE")["evidence"]["mixed row"]
    if tamper == "sign":  # the positive point stated as the negative one
        mixed["positive at"], mixed["negative at"] = mixed["negative at"], mixed["positive at"]
    elif tamper == "row":  # row 2 (factors 0 and 1): one sign only
        mixed["row"], mixed["visible"] = 2, [1, 2]
        for p in ("positive at", "negative at"):
            mixed[p]["keys"] = {"1": 1, "2": 1}
    elif tamper == "visible":
        mixed["visible"] = [1, 3]
    else:  # a query with a zero own token: W_Q cannot realise it
        mixed["positive at"]["keys"]["3"] = 0
    assert next(s.outcome for s in verify(cert).steps if s.rule == "WP-POSITIVE") == "rejected"
