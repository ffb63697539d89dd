"""Theorem F91 (docs/theory.md §11.11): `strided(s)` with non-cyclic local parts whose jumps leaving a class share a
factor 2 ≤ r < s, gcd(r, s) = 1 — D by residue of n mod s, G = the reflection (S′ = −S′) or trivial, D + 1 layers —
against the concrete engine (graphs, BLISS, rooted views) through two periods of n mod s from the range's start, and
the group at every n from max(20, rs) to 60 (it holds below the proof's range too)."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families, strided_dilations
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Offsets, PatternUnion, Strided

N = sympy.Symbol("n", integer=True, positive=True)

# (s, local parts, r, S′ = −S′)
CASES = [(5, (Dilated(2, 3),), 3, True), (5, (Dilated(1, 2),), 2, True), (7, (Dilated(2, 3),), 3, True),
         (7, (Dilated(1, 2),), 2, True), (5, (Offsets((-2, 4)),), 2, False), (3, (Dilated(1, 2),), 2, True),
         (4, (Dilated(2, 3),), 3, True), (5, (Dilated(1, 3), Offsets((6, -3, 9))), 3, False)]


def _pattern(s, rest):
    return PatternUnion((Strided(s),) + tuple(rest))


@pytest.mark.parametrize("s, rest, r, symmetric", CASES)
def test_against_concrete_engine(s, rest, r, symmetric):
    theorem = families.match([_pattern(s, rest)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F91" and not theorem.least
    assert theorem.values()["r"] == r and theorem.group == ("reflection" if symmetric else "trivial")
    low = int(theorem.low)
    pattern = _pattern(s, rest)
    for n in range(low, low + 2 * s):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (s, rest, n)
        assert got.order == want["order"] == (2 if symmetric else 1), (s, rest, n)
        assert want["layers"] == want["diameter"] + 1
    for n in range(max(20, r * s), 61):
        assert concrete(pattern, n, layers=False).order == (2 if symmetric else 1), (s, rest, n)


@pytest.mark.parametrize("s, rest", [(3, (Dilated(1, 2),)), (5, (Dilated(1, 2),)), (4, (Dilated(2, 3),))])
def test_d_plus_one_is_sufficient_at_the_range_start(s, rest):
    """The concrete engine's least count never exceeds the theorem's D + 1."""
    theorem = families.match([_pattern(s, rest)], N, {})
    n = int(theorem.low)
    got = concrete(_pattern(s, rest), n)
    assert got.layers <= families.at(theorem, {"n": n})["layers"]


@pytest.mark.parametrize("s, rest", [(2, (Dilated(1, 3),)), (3, (Dilated(1, 4),)), (4, (Dilated(1, 2),)),
                                     (6, (Dilated(2, 3),)), (5, (Offsets((3, 6)),))])
def test_outside_the_theorem(s, rest):
    """r ≥ s (lines of one class can be exchanged), gcd(r, s) > 1 (not strongly connected), S′/r one-sided."""
    assert strided_dilations.strided_scaled(s, tuple(sorted({k for q in rest for k in _jumps(q)}))) is None


def _jumps(q):
    if isinstance(q, Dilated):
        return [k * q.r for k in range(-q.w, q.w + 1) if k]
    return list(q.offsets)


def test_a_larger_group_where_r_exceeds_s():
    """strided(2) + dilated(1, 3): the lines of 1 and 3 start in one class and can be exchanged (why r < s is asked)."""
    assert concrete(_pattern(2, (Dilated(1, 3),)), 30, layers=False).order > 2
