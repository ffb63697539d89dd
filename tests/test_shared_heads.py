"""Heads that share or combine: grouped-query / multi-query attention and differential attention
(docs/theory.md §17)."""
from __future__ import annotations

import math
import random

import pytest

import uapcheck
from uapcheck.errors import UapError
from uapcheck.parse import parse_source


def _check(body: str, extra: str = ""):
    return uapcheck.check(f"{extra}\nattention {{\n{body}\n}}")


def _rules(result):
    return {s.rule: s for s in result.root.walk()}


@pytest.mark.parametrize("heads", ["heads 8 kv 2", "heads 8 kv 1", "heads 4", "heads 8 kv 8"])
def test_shared_heads_keep_the_single_heads_verdict(heads):
    r = _check(f"kernel k(q, key) = exp(q . key)\n{heads}")
    assert r.verdict == "UAP" and r.group.name == "S_n" and r.layers == 1
    assert _rules(r)["HEADS-SHARED"].proved


def test_shared_heads_keep_the_pattern_group():
    single = _check("kernel k(q, key) = exp(q . key)\npattern window(2)", "tokens 12")
    shared = _check("kernel k(q, key) = exp(q . key)\npattern window(2)\nheads 8 kv 2", "tokens 12")
    assert shared.verdict == single.verdict == "UAP"
    assert shared.group.order == single.group.order and shared.layers == single.layers


def test_shared_heads_of_an_undecided_kernel_are_undecided():
    r = _check("features phi(x) = relu(x)\nheads 4 kv 1")
    assert r.verdict == "INCONCLUSIVE" and not _rules(r)["HEADS-SHARED"].proved


def test_differential_attention():
    r = _check("kernel k(q, key) = exp(q . key)\ndifferential")
    assert r.verdict == "UAP" and r.group.name == "S_n" and r.layers == 1
    assert _rules(r)["HEADS-DIFF"].proved
    assert _check("kernel k(x, y) = 1 + relu(x . y)\ndifferential").verdict == "INCONCLUSIVE"


@pytest.mark.parametrize("text, message", [
    ("kernel k(x, y) = exp(x . y)\nheads 8 kv 3", "G must divide H"),
    ("kernel k(x, y) = exp(x . y)\nheads 2 kv 4", "G must divide H"),
    ("kernel k(x, y) = exp(x . y)\nheads 0", "at least 1"),
    ("score s(x, y) = exp(x . y)\ndifferential", "normalised `kernel` head"),
    ("kernel k(x, y) = exp(x . y)\nunnormalized\ndifferential", "normalised `kernel` head"),
])
def test_errors(text, message):
    with pytest.raises(UapError) as err:
        parse_source(f"attention {{\n{text}\n}}")
    assert message in err.value.message


def test_grouped_heads_with_equal_maps_are_one_head_numerically():
    """The containment used by HEADS-SHARED: 8 query heads, 2 groups, all W_Q equal, the two groups'
    W_K equal and W_V = W/8 give exactly one softmax head with value matrix W."""
    rng = random.Random(3)
    n, d = 5, 3
    X = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    Wq = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(d)]
    Wk = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(d)]

    def mv(A, x):
        return [sum(a * b for a, b in zip(row, x)) for row in A]

    def head(i, scale):
        s = [sum(a * b for a, b in zip(mv(Wq, X[i]), mv(Wk, X[l]))) for l in range(n)]
        w = [math.exp(v - max(s)) for v in s]
        return [scale * sum(w[l] * X[l][k] for l in range(n)) / sum(w) for k in range(d)]
    for i in range(n):
        grouped = [sum(head(i, 1 / 8)[k] for _ in range(8)) for k in range(d)]
        assert all(abs(a - b) < 1e-12 for a, b in zip(grouped, head(i, 1.0)))


def test_differential_weights_take_both_signs_yet_rows_are_defined():
    """Each softmax row sums to 1, so the difference row sums to 1 − λ for every input: no vanishing
    normaliser, although entries are negative."""
    rng = random.Random(4)
    s1 = [rng.gauss(0, 3) for _ in range(6)]
    s2 = [rng.gauss(0, 3) for _ in range(6)]
    lam = 0.8
    p1 = [math.exp(v) / sum(math.exp(u) for u in s1) for v in s1]
    p2 = [math.exp(v) / sum(math.exp(u) for u in s2) for v in s2]
    row = [a - lam * b for a, b in zip(p1, p2)]
    assert any(x < 0 for x in row) and any(x > 0 for x in row)
    assert abs(sum(row) - (1 - lam)) < 1e-12
