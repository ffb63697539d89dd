"""Theorem F73 (docs/theory.md §11.11): `strided(s) + strided(t)` with coprime strides — D = 2, |G| by residue of n
mod st, 2 layers, least — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in range, the
order by an automorphism count written in the test and the pair count N_ρ by trying every pair of residue
permutations (no engine), and the least layer count by the brute-force view argument at the first lengths."""
from __future__ import annotations

from itertools import permutations
from math import factorial

import pytest
import sympy

from . import brute_views
from .reference import count_automorphisms
from uapcheck.graphs import families, strided_pairs
from uapcheck.graphs.families import concrete
from uapcheck.spec import PatternUnion, Strided

N = sympy.Symbol("n", integer=True, positive=True)
PAIRS = [(2, 3), (2, 5), (3, 4), (3, 5), (2, 7), (4, 5), (3, 7), (4, 7)]


def _theorem(s, t, n=N):
    return families.match([PatternUnion((Strided(t), Strided(s)))], n, {})


@pytest.mark.parametrize("s, t", PAIRS)
def test_against_concrete_engine(s, t):
    theorem = _theorem(s, t)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F73" and theorem.least
    assert int(theorem.low) == s * t
    pattern = PatternUnion((Strided(s), Strided(t)))
    for n in range(s * t, 61):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == 2, (s, t, n)
        assert got.order == want["order"] == strided_pairs.order_at(n, s, t), (s, t, n)
        assert got.least and got.layers == want["layers"] == 2, (s, t, n)


def _pairs_by_trying(s, t, rho):
    heavy = set(strided_pairs.heavy_cells(s, t, rho))
    return sum(1 for alpha in permutations(range(s)) for beta in permutations(range(t))
               if {(alpha[a], beta[b]) for a, b in heavy} == heavy)


@pytest.mark.parametrize("s, t", [(2, 3), (2, 5), (3, 4), (3, 5)])
def test_pair_count_by_trying_every_pair(s, t):
    for rho in range(s * t):
        assert strided_pairs.pair_count(s, t, rho) == _pairs_by_trying(s, t, rho), (s, t, rho)


@pytest.mark.parametrize("s, t", [(2, 3), (2, 5)])
def test_order_by_counting(s, t):
    """|Aut| by extending partial maps (arcs written here: a difference divisible by s or by t)."""
    for n in range(s * t, s * t + 4):
        def arc(u, v):
            return u != v and ((u - v) % s == 0 or (u - v) % t == 0)
        assert count_automorphisms(n, arc) == strided_pairs.order_at(n, s, t), (s, t, n)


def test_least_layers_by_brute_force():
    """strided(2) + strided(3) at n = 6, 7, 8: no view witness at depth 2 among all n! permutations."""
    for n in (6, 7, 8):
        nbs = brute_views.neighbourhoods(["strided(2) + strided(3)"], n)
        assert brute_views.diameter(nbs, n) == 2
        assert brute_views.least_layers(nbs, n) == 2, n


def test_symbolic_order_is_the_count_at_every_residue():
    theorem = _theorem(3, 4)
    for n in range(12, 12 + 2 * 12):
        assert families.at(theorem, {"n": n})["order"] == strided_pairs.order_at(n, 3, 4)
    q, rho = divmod(1_048_576, 36)
    at_large = _theorem(4, 9, sympy.Integer(1_048_576))
    assert isinstance(at_large, families.FamilyTheorem) and at_large.theorem == "F73"
    assert sympy.sstr(at_large.order) == (f"{strided_pairs.pair_count(4, 9, rho)}*factorial({q})**{36 - rho}"
                                          f"*factorial({q + 1})**{rho}")
    assert strided_pairs.pair_count(4, 9, 0) == factorial(4) * factorial(9)


@pytest.mark.parametrize("strides", [(2, 4), (4, 6), (3, 3), (1, 5)])
def test_strides_with_a_common_factor_or_one_stay_outside(strides):
    """A common factor (not strongly connected), equal strides and stride 1 (complete) are not F73's."""
    found = families.match([PatternUnion(tuple(Strided(x) for x in strides))], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F73")
