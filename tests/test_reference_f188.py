"""Theorem F188 (docs/theory.md §11.12): heads `full` and `star` (at least one of each) need one layer, least, from
n = 3, with G = Stab(1). Checked apart from the engines by brute force over S_n (tests/graphs/brute_views.py) at
n = 3 … 7, on the head tuples and on near misses outside the premise (`global(2)` or `window(1)` beside `full`, where
one layer is not enough), and against the statement `uapcheck` prints at `tokens n` and at concrete lengths."""
from __future__ import annotations

import math

import pytest
from graphs.brute_views import least_layers as brute_least
from graphs.brute_views import neighbourhoods

TUPLES = [("full", "star"), ("full", "star", "star"), ("full", "full", "star"), ("star", "full")]
NEAR = [("full", "global(2)"), ("full", "window(1)"), ("full", "star", "global(2)")]


def _file(patterns, n) -> str:
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    return f"tokens {n}\n{heads}\n"


def _engine(patterns, n) -> dict:
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    return check_spec(parse_source(_file(patterns, n), "f188.uap"), 60.0).to_dict()


@pytest.mark.parametrize("patterns", TUPLES, ids=[" | ".join(t) for t in TUPLES])
def test_one_layer_by_brute_force_and_in_the_statement(patterns):
    for n in range(3, 8):
        assert brute_least(neighbourhoods(list(patterns), n), n) == 1, (patterns, n)
        d = _engine(patterns, n)
        assert d["verdict"] == "UAP" and d["layers"] == 1 and d["least"], (patterns, n, d["layers"])
        assert d["group"]["order"] == math.factorial(n - 1), (patterns, n, d["group"])
    d = _engine(patterns, "n")  # at a symbolic n the count is written as text
    assert d["verdict"] == "UAP" and str(d["layers"]) == "1" and d["least"], (patterns, d["layers"])
    d = _engine(patterns, 5000)
    assert d["verdict"] == "UAP" and d["layers"] == 1, (patterns, d["layers"])


@pytest.mark.parametrize("patterns", NEAR, ids=[" | ".join(t) for t in NEAR])
def test_near_misses_need_two_layers_and_are_not_stated_one(patterns):
    for n in range(4, 8):
        want = brute_least(neighbourhoods(list(patterns), n), n)
        assert want == 2, (patterns, n, want)
        d = _engine(patterns, n)
        assert d["verdict"] == "UAP" and d["layers"] >= want, (patterns, n, d["layers"])
    d = _engine(patterns, "n")
    assert d["verdict"] != "UAP" or str(d["layers"]) != "1", (patterns, d["layers"])
