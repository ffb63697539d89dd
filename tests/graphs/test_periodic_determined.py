"""Theorem F122 (docs/theory.md §11.11): `blocks(b)` with non-cyclic line parts whose automorphisms are all periodic
symmetries (`blocks(6) + dilated(2, 3)`, `blocks(8) + dilated(2, 4)`: the residue classes mod r permuted by S_3, S_4
with the reflections, where F117's (C5) fails) — G = the periodic symmetries mapping 1..n onto itself, |G| by n mod b,
D by F115 — against BLISS on the concrete graphs at every length from the range's start to 120, an automorphism count
written in the tests (no engine) at a few lengths, and the values at 1,048,576 without arcs."""
from __future__ import annotations

import pytest
import sympy

from .reference import attends, count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs import periodic_determined as PD
from uapcheck.graphs import periodic_exchanges as PE
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, PatternUnion

N = sympy.Symbol("n", integer=True, positive=True)

UNIONS = [(Blocks(6), Dilated(2, 3)), (Blocks(8), Dilated(2, 4))]


def _theorem(parts, n=N):
    return families.match([PatternUnion(parts)], n, {})


@pytest.mark.parametrize("parts", UNIONS, ids=lambda p: " + ".join(map(str, p)))
def test_against_bliss_up_to_120(parts):
    """D (BFS) and |G| (BLISS) of the concrete engine at every length from the range's start to 120."""
    theorem = _theorem(parts)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F122", theorem
    assert theorem.least and theorem.group is not None  # D layers, least, by Theorem F118
    assert int(theorem.low) == 61
    for n in range(int(theorem.low), 121):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(parts), n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (parts, n, got.diameter, want)
        assert got.order == want["order"], (parts, n, got.order, want)
        assert want["layers"] == want["diameter"]


def test_orders_by_residue():
    """12 and 48 when b | n (the permutations of the residue classes mod r with the reflection), as BLISS found."""
    first, second = PD.decide(6, (-6, -3, 3, 6)), PD.decide(8, (-8, -4, 4, 8))
    assert first is not None and second is not None
    assert (first.order_at(66), second.order_at(64)) == (12, 48)
    assert len(first.found) == 12 and len(second.found) == 48
    assert (first.width, second.width) == (7, 9)
    assert PE.decide(6, (-6, -3, 3, 6)) is None and PE.decide(8, (-8, -4, 4, 8)) is None  # F117's (C5) fails


@pytest.mark.parametrize("n", [61, 63, 66])
def test_order_by_a_count_written_in_the_test(n):
    """|Aut Γ_n| by extending partial maps on the reference arcs (tests/graphs/reference.py), no engine."""
    data = PD.decide(6, (-6, -3, 3, 6))
    assert data is not None
    arcs = attends(PatternUnion((Blocks(6), Dilated(2, 3))), n)
    degree = {v: sum(1 for i, j in arcs if j == v) for v in range(1, n + 1)}
    assert count_automorphisms(n, lambda u, v: (u, v) in arcs, lambda v: degree[v]) == data.order_at(n)


def test_the_count_keeps_the_reference_arcs():
    """Every periodic symmetry counted at n = 96 maps the reference arcs of Γ_96 onto arcs."""
    data = PD.decide(8, (-8, -4, 4, 8))
    assert data is not None
    n, b = 96, 8
    arcs = attends(PatternUnion((Blocks(8), Dilated(2, 4))), n)
    kept = 0
    for alpha in data.found:
        for t in range(-n // b - 3, n // b + 4):
            beta = alpha.shifted(t * b)
            if sorted(beta(p) for p in range(1, n + 1)) == list(range(1, n + 1)):
                kept += 1
                assert all((beta(i), beta(j)) in arcs for i, j in arcs)
    assert kept == PD.count_at(n, b, data.found) == 48


def test_a_real_size_without_arcs():
    theorem = _theorem(UNIONS[0], sympy.Integer(1_048_576))
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F122"
    data = PD.decide(6, (-6, -3, 3, 6))
    assert data is not None and theorem.order == data.order_at(1_048_576) == data.order_at(64)  # both ≡ 4 (mod 6)
    assert theorem.layers == theorem.diameter and theorem.least
