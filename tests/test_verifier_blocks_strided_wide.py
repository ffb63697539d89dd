"""The verifier's Theorem F34 (verifier/blocks_strided.py) above s = 7: the column maps T counted column by column
equal the count over every τ ∈ S_s (s ≤ 7, where both run), and `blocks(9) + strided(8)` at n = 504 and 5,000 has its
D and its least layer count verified (instances re-checked on the verifier's arcs), where the match stopped at s = 7
and the steps were trusted; a forged layer count is rejected."""
from __future__ import annotations

import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import assert_least_layers_verified, certificate_of, softmax_source  # noqa: E402

from uapcheck.verifier.blocks_strided import _column_maps  # noqa: E402


def _vectors(n: int, b: int, s: int) -> Counter:
    rows: dict = {}
    for p in range(1, n + 1):
        rows.setdefault((p - 1) // b, Counter())[p % s] += 1
    return Counter(tuple(rows[r][c] for c in range(s)) for r in rows)


def test_the_column_maps_by_prefixes_equal_every_permutation():
    compared = 0
    for s in range(2, 8):
        for b in range(s + 1, s + 7):
            for n in range(3 * b, 3 * b + b * s, 5):
                many = _vectors(n, b, s)
                every = sum(all(many[tuple(v[tau.index(c)] for c in range(s))] == k for v, k in many.items())
                            for tau in permutations(range(s)))
                assert _column_maps(many, s) == every, (b, s, n)
                compared += 1
    assert compared >= 200


@pytest.mark.parametrize("n, layers", [(504, 2), (5000, 3)])
def test_strided_eight_beside_wider_blocks_is_verified(n, layers):
    assert_least_layers_verified(certificate_of(softmax_source("blocks(9) + strided(8)", n)), layers, 5 - layers)
