"""Theorem F34 of docs/theory.md §11.11 (`blocks(b) + strided(s)`, b > s ≥ 2) for strides above the column
permutations' enumeration (s ≥ 8): |T| counted by BLISS on the row vectors equals the enumeration wherever both run,
F34 at s = 8 and 9 equals the concrete engine (D, |G|, the layer count, least) over two blocks' worth of lengths from
the range's start (which is above 60 for these strides, and above 8 for brute force over S_n), and `blocks(13) +
strided(8)` at n = 1,048,576, formerly INCONCLUSIVE ("about 137,453,633,536 arcs"), is decided in seconds."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import blocks_strided as BS
from uapcheck.graphs import families as F
from uapcheck.spec import Blocks, PatternUnion, Strided

from .timed_checks import timed_check

N = sympy.Symbol("n", integer=True, positive=True)


def pattern(b, s):
    return PatternUnion((Blocks(b), Strided(s)))


def test_the_column_permutations_by_bliss_equal_the_enumeration():
    compared = 0
    for s in range(2, BS.MAX_S + 1):
        for b in range(s + 1, s + 12):
            for n in range(BS.low(b, s), BS.low(b, s) + b * (s + 1), 5):
                vectors = BS.row_vectors(n, b, s)
                assert BS._column_automorphisms(vectors, s) == BS.column_permutations(vectors, s), (b, s, n)
                compared += 1
    assert compared >= 500


def test_equal_rows_give_every_column_permutation():
    """s | b: every whole row has the same vector, so T is all of S_s (8! = 40,320 at s = 8), and a last row of
    ρ positions keeps only the permutations fixing its ρ first residues as a set (ρ = 3: 3! · 5! = 720)."""
    assert BS.column_permutations(BS.row_vectors(16 * 30, 16, 8), 8) == 40320
    assert BS.column_permutations(BS.row_vectors(16 * 30 + 3, 16, 8), 8) == 720


@pytest.mark.parametrize("b, s", [(9, 8), (13, 8), (11, 9)])
def test_theorem_agrees_with_the_concrete_engine_above_seven(b, s):
    theorem = F.match([pattern(b, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F34" and theorem.least
    start = int(theorem.low)
    threes = 0
    for n in range(start, start + 2 * b):
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern(b, s), n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, want["order"], want["layers"], True), n
        assert want["layers"] == (3 if 1 <= n % b <= s - 2 else 2)
        threes += want["layers"] == 3
    assert threes >= 2 * (s - 2)


@pytest.mark.parametrize("n, layers", [(1048576, 2), (1048568, 3)])
def test_thirteen_wide_blocks_beside_strided_eight_at_a_real_size(n, layers):
    """n = 1,048,576 = 13 · 80,659 + 9: the last block holds 9 ≥ s − 1 positions, 2 layers, least; n = 1,048,568 (ρ =
    1): the swap of two positions of the first block in residues the last block lacks is a view witness, 3, least."""
    r, steps, cpu = timed_check("blocks(13) + strided(8)", n)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, layers)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name.startswith("the permutations that map the blocks {1, …, 13}")
    assert cpu < 10.0
