"""Theorem F169 (docs/theory.md §21.11), chunked causal layers with the full causal mask, against the plain reference of
tests/view_witness_reference.py (§21.5's causal view condition by brute force over S_n, written from the definitions
with no import of uapcheck): the closed form at every n ≤ 6 for layouts and chunk sizes beyond the theorem's own test
(the full layer in the middle, at the end of a longer period, two full layers in a row), and the checker's answer at a
symbolic n — its count from 2b + 1 on and every piece below — read at each of those lengths."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck.graphs.layers_chunks import ChunkLayers, chunk_count

import view_witness_reference as R  # tests/ is on sys.path

LAYOUTS = ["CG", "CCG", "CGC", "CGCC", "CGCG", "CCGG", "CCCG"]


def _layers(kinds: str, b: int, n: int, depth: int) -> list:
    """The heads' closed neighbourhoods of layers 1..depth (one head each): chunked N(v) = [s(v), v], full [1, v]."""
    def nb(kind: str) -> list:
        return [frozenset()] + [frozenset(range(1 if kind == "G" else (v - 1) // b * b + 1, v + 1))
                                for v in range(1, n + 1)]
    return [[nb(kinds[ell % len(kinds)])] for ell in range(depth)]


def _least(kinds: str, b: int, n: int) -> int:
    found = R.causal_least(n, _layers(kinds, b, n, 10), 10)
    assert found is not None
    return found


@pytest.mark.parametrize("kinds", LAYOUTS)
@pytest.mark.parametrize("b", [1, 2, 3, 4])
def test_the_closed_form_is_the_brute_force_least_count(kinds, b):
    L = ChunkLayers(tuple(kinds), b)
    for n in range(1, 7):   # n ≤ b, b < n ≤ 2b and n ≥ 2b + 1 each met for b ≤ 2; the first two for b = 3, 4
        assert chunk_count(L, n) == _least(kinds, b, n), (kinds, b, n)


def _source(kinds: str, b: int) -> str:
    layers = ", ".join(f"causal & blocks({b})" if k == "C" else "causal" for k in kinds)
    return (f"tokens n\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {layers} }}\n}}\n"
            "target causal\n")


@pytest.mark.parametrize("kinds", ["CG", "CGC", "CCGG"])
@pytest.mark.parametrize("b", [1, 2])
def test_the_symbolic_answer_read_at_each_length_is_the_brute_force_count(kinds, b):
    r = uapcheck.check(_source(kinds, b), "t.uap")
    target = r.to_dict()["target"]
    assert r.verdict == "UAP" and target["least"]
    pieces = target["below_pieces"]
    start = max(p["below"] for p in pieces)
    assert start == 2 * b + 1
    for n in range(1, 7):
        stated = r.layers if n >= start else next(p["layers"] for p in pieces if p["from"] <= n < p["below"])
        assert stated == _least(kinds, b, n), (kinds, b, n, stated)
