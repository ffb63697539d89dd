"""Theorem F44 of docs/theory.md §11.11 (`blocks(b) + strided(s)`, b < s, b ∤ s) above s = 7, while one period bL
has at most 72 lengths: the theorem's D, |G| (|T| counted by BLISS above s = 7) and least layer count (Theorems F57,
F58, F66 by their finite checks) equal the concrete engine's at every n of one whole period of n mod bL from the
range's start (the ranges start above 40, so neither n ≤ 60 in full nor brute force over S_n at n ≤ 8 reaches them); a pair whose period
is longer stays open; and `blocks(3) + strided(8)` at n = 1,048,576, formerly INCONCLUSIVE ("about 137,443,147,776
arcs"), is decided in seconds: UAP, 6 layers, least."""
from __future__ import annotations

from math import gcd

import pytest
import sympy

from uapcheck.graphs import blocks_strided as BS
from uapcheck.graphs import families as F
from uapcheck.spec import Blocks, PatternUnion, Strided

from .timed_checks import timed_check

N = sympy.Symbol("n", integer=True, positive=True)


def pattern(b, s):
    return PatternUnion((Blocks(b), Strided(s)))


@pytest.mark.parametrize("b, s", [(3, 8), (5, 8), (2, 9), (4, 9), (5, 9)])
def test_theorem_agrees_with_the_concrete_engine_above_seven(b, s):
    theorem = F.match([pattern(b, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F44" and theorem.least
    start = int(theorem.low)
    compared = 0
    period = b * (s // gcd(b, s))
    for n in range(start, start + period):  # one whole period of n mod bL: every residue's D, |G| and count
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern(b, s), n)
        assert (got.diameter, got.order, got.layers, got.least) == (
            want["diameter"], want["order"], want["layers"], True), n
        compared += 1
    assert compared == period


def test_the_bound_is_the_period_of_the_checks():
    assert BS.applies_below(3, 8) and BS.applies_below(8, 9) and BS.applies_below(2, 11)
    assert not BS.applies_below(11, 12)  # bL = 132 > 72
    assert not BS.applies_below(3, 9) and not BS.applies_below(4, 8)  # b | s
    assert isinstance(F.match([pattern(11, 12)], N, {}), F.OpenFamily)


def test_above_seven_the_column_permutations_by_bliss_equal_the_enumeration_of_s8():
    """F44's order reads |T| from `column_permutations`, by BLISS above s = 7: against every τ ∈ S_8 on the row
    vectors of `blocks(3) + strided(8)` (cells of one position) at a few lengths of its range."""
    from collections import Counter
    from itertools import permutations
    for n in (44, 50, 67):
        vectors = BS.row_vectors(n, 3, 8)
        many = Counter(vectors)
        every = sum(all(many[tuple(v[tau.index(c)] for c in range(8))] == k for v, k in many.items())
                    for tau in permutations(range(8)))
        assert BS.column_permutations(vectors, 8) == every, n


def test_three_wide_blocks_beside_strided_eight_at_a_real_size():
    """n = 1,048,576 ≡ 16 (mod 24): D = 5, and a view witness at depth 5 (two whole blocks of one residue set far
    from a root, Theorem F58), so 6 layers, least; G the block and class permutations."""
    r, steps, cpu = timed_check("blocks(3) + strided(8)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (5, 6)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name.startswith("the permutations that map the blocks {1, 2, 3}")
    assert cpu < 10.0


def _plain_diameter(n: int, b: int, s: int) -> int:
    """D by breadth-first search over the positions themselves (u ~ v iff one block or one residue class)."""
    near = {p: {q for q in range(1, n + 1) if (q - 1) // b == (p - 1) // b or q % s == p % s} for p in range(1, n + 1)}
    worst = 0
    for root in range(1, n + 1):
        seen, frontier = {root: 0}, [root]
        while frontier:
            frontier = [v for u in frontier for v in near[u] if v not in seen and not seen.update({v: seen[u] + 1})]
        if len(seen) < n:
            return -1
        worst = max(worst, max(seen.values()))
    return worst


@pytest.mark.parametrize("b, s", [(2, 3), (3, 5), (2, 5), (3, 7), (3, 8), (5, 8), (2, 9), (4, 9), (2, 4), (3, 6)])
def test_the_diameter_searched_in_the_incidence_graph_equals_the_search_over_positions(b, s):
    """For b < s, `diameter_at` searches the block–residue incidence graph H (Γ is its line graph): equal to the
    search over the positions at every n from 2 to 60 (not connected, -1, for b | s)."""
    for n in range(2, 61):
        assert BS.diameter_at(n, b, s) == _plain_diameter(n, b, s), n
