"""Theorem F74 (docs/theory.md §11.11): `strided(s)` with non-cyclic windows, dilations and offsets — D by residue of
n mod s, G = the reflection or trivial (the arcs between residue classes), D + 1 layers — against breadth-first search
on the reference arcs (tests/graphs/reference.py) and the concrete engine (graphs, BLISS, rooted views) through one
period of n mod s from the range's start, and the group with the concrete engine at every 20 ≤ n ≤ 60."""
from __future__ import annotations

import pytest
import sympy

from .reference import all_distances, attends
from uapcheck.graphs import families, strided_lines
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Offsets, PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)
CASES = {  # the pattern, s, its jumps S
    "strided(5) + offsets {-2, 3}": (PatternUnion((Strided(5), Offsets((-2, 3), False))), 5, (-2, 3)),
    "strided(3) + offsets {-1, 1, 2}": (PatternUnion((Strided(3), Offsets((-1, 1, 2), False))), 3, (-1, 1, 2)),
    "strided(4) + offsets {-1, 3}": (PatternUnion((Strided(4), Offsets((-1, 3), False))), 4, (-1, 3)),
    "strided(6) + window(1) + dilated(1, 3)": (PatternUnion((Strided(6), Window(1), Dilated(1, 3))), 6,
                                               (-3, -1, 1, 3)),
    "strided(4) + window(1) + dilated(1, 4)": (PatternUnion((Strided(4), Window(1), Dilated(1, 4))), 4,
                                               (-4, -1, 1, 4)),
    "strided(4) + window(1) + dilated(2, 3)": (PatternUnion((Strided(4), Window(1), Dilated(2, 3))), 4,
                                               (-6, -3, -1, 1, 3, 6)),
}


def _reference_diameter(pattern, n):
    dist = all_distances(attends(pattern, n), n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_breadth_first_search_is_the_reference_s(name):
    """The bit-set search that reads D off one period agrees with a plain search on the reference arcs."""
    pattern, s, jumps = CASES[name]
    for n in range(20, 61, 4):
        assert strided_lines.diameter_bfs(jumps, s, n) == _reference_diameter(pattern, n), (name, n)


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_period_against_the_concrete_engine(name):
    pattern, s, jumps = CASES[name]
    theorem = families.match([pattern], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F74"
    assert theorem.least == ("(Theorem F114 with" in theorem.why_layers)   # D least only by F114 here (S′ ≠ −S′)
    low = int(theorem.low)
    for n in range(low, low + s):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"], (name, n)
        assert got.order == want["order"], (name, n)
        if theorem.least:
            assert got.least and want["layers"] == want["diameter"] == got.layers, (name, n)
        else:
            assert got.least and want["layers"] == want["diameter"] + 1 >= got.layers, (name, n)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_group_at_every_length_from_20_to_60(name):
    """The group's closed form (the reflection or trivial) is the concrete engine's at every 20 ≤ n ≤ 60: within the
    proof's range (⌊n/s⌋ ≥ 4J + 3, F41's range for S′) where it reaches 60, and below it as well."""
    pattern, s, jumps = CASES[name]
    data = strided_lines.strided_line(s, jumps)
    assert data is not None
    for n in range(20, 61):
        assert concrete(pattern, n, layers=False).order == data.order(n), (name, n)


def test_the_diameter_is_periodic_past_its_range():
    """One more period than the table reads: D(n + s) = D(n)."""
    for name, (_, s, jumps) in CASES.items():
        data = strided_lines.strided_line(s, jumps)
        assert data is not None
        for n in range(data.diameter_low + s, data.diameter_low + 2 * s):
            assert strided_lines.diameter_bfs(jumps, s, n) == data.diameter(n), (name, n)


@pytest.mark.parametrize("pattern", [
    PatternUnion((Strided(9), Offsets((-4, -2, 6), False))),   # S′ has gcd 2
    PatternUnion((Strided(4), Offsets((1, 3), False))),         # S′ one-sided
    PatternUnion((Strided(5), Offsets((-4, 3), True))),         # a cyclic part
])
def test_outside_the_hypotheses_no_theorem(pattern):
    found = families.match([pattern], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F74")


def test_a_large_length_is_decided_without_arcs():
    pattern = PatternUnion((Strided(8), Offsets((-5, 9), False)))
    theorem = families.match([pattern], sympy.Integer(1_048_576), {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F74"
    assert (theorem.diameter, theorem.order, theorem.layers, theorem.group) == (5, 1, 5, "trivial")   # F114: least
    assert theorem.least
