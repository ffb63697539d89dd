"""Theorem F34 (`blocks(b) + strided(s)`, b > s; docs/theory.md §11.11) above s = 7, where the column permutations T
are counted by BLISS on the row vectors instead of a loop over S_s: the statement `uapcheck` prints at `tokens n`,
read at lengths from the range's start b·m₀ through every value of ρ = n mod b, against arcs written from
docs/language.md's definitions (scripts/sweep_patterns.py: BLISS for |G| on the arcs themselves, BFS, the sweep's
rooted views for the least count; no engine imported): the group's order exactly, 3 layers exactly when
1 ≤ ρ ≤ s − 2, 2 otherwise, and never below the reference's least count."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

# (b, s, the first length of the range b·m₀, how many lengths from it)
CASES = [(9, 8, 90, 9), (10, 8, 110, 4)]


@pytest.mark.parametrize("b,s,low,count", CASES, ids=[f"blocks({b}) + strided({s})" for b, s, _, _ in CASES])
def test_the_statement_from_the_range_start_against_the_reference(b, s, low, count):
    head = (("blocks", b), ("strided", s))
    result = SP.engine(SP.file_text([head], "n"))
    assert result is not None
    for n in range(low, low + count):
        claim = SP.claims_at(result, n)
        assert claim is not None, (b, s, n)
        verdict, order, layers, least = claim
        ref = SP.reference([head], n)
        assert verdict == ref["verdict"] == "UAP" and ref["diameter"] == 2, (b, s, n)
        assert order == ref["order"], (b, s, n, order, ref["order"])
        rho = n % b
        assert ref["layers"] == (3 if 1 <= rho <= s - 2 else 2), (b, s, n, ref["layers"])
        assert layers == ref["layers"] and least, (b, s, n, claim, ref["layers"])
