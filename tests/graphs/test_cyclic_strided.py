"""Theorem F26 (docs/theory.md §11.11): `window(w) cyclic + strided(s)` with s ∈ {2w + 2, 2w + 3}: D = 3 for
n ≥ s(4w + 3); for w = 1 G = D_n when s | n, else the reflection; D + 1 = 4 layers suffice (not claimed least).
Checked against the concrete engine at every n ≤ 60 in range (and past it for w = 2), the group against every
permutation at small n, and that the stated count is never below the engine's least count."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.spec import PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)


def pattern(w, s):
    return PatternUnion((Window(w, True), Strided(s)))


@pytest.mark.parametrize("w,s,top", [(1, 4, 60), (1, 5, 60), (2, 6, 80), (2, 7, 85)])
def test_f26_agrees_with_the_concrete_engine(w, s, top):
    theorem = F.match([pattern(w, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F26"
    assert theorem.least is ((w, s) == (1, 5))  # Theorem F55 (tests/graphs/test_strided_least.py)
    assert (theorem.group is None) == (w != 1)
    for n in range(s * (4 * w + 3), top + 1):
        got = F.concrete(pattern(w, s), n)
        want = F.at(theorem, {"n": n})
        assert got.diameter == 3 == want["diameter"], n
        assert got.least and got.layers <= want["layers"] == 4, n  # a sufficient count, never below the least
        if w == 1:
            assert got.order == want["order"] == (2 * n if n % s == 0 else 2), n
        else:
            assert got.order == (2 * n if n % s == 0 else 2), n  # the engine agrees where F26 claims nothing


def test_f26_below_the_range_and_outside_the_strides_claims_nothing():
    assert isinstance(F.match([pattern(1, 6)], N, {}), F.OpenFamily)
    assert isinstance(F.match([pattern(1, 3)], N, {}), F.OpenFamily)
    theorem = F.match([pattern(1, 4)], N, {})
    assert not F.in_range(theorem, {"n": 27}) and F.in_range(theorem, {"n": 28})
