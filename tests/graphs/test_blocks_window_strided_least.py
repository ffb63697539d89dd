"""Theorem F110 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with 3 ≤ b < s, w ≤ b − 2 (Theorem F93's
setting) has D + 1 layers, least, on the classes of n mod P = lcm(b, s) where a swap of two positions at distance D
from a root with the same neighbours within D − 1 (not twins) exists at every length of a finite check, carried to
every n by the cut argument; on the others Theorem F113 may prove D (tests/graphs/test_blocks_window_strided_pieces.py),
else the count is sufficient, not shown least (a least flag by residue class). Checked
against the concrete engine (rooted views by canonical labelling) at three periods of n mod 4 from the
range's start and two later lengths, the swap as a view witness on the reference arcs, the search against brute force over S_n at n = 7, 8,
and the verifier's restatement with tampering."""
from __future__ import annotations

import pytest
import sympy
from certificates import certificate_of, rejects, softmax_source

from uapcheck.graphs import blocks_window_strided_classes as B
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window
from uapcheck.verifier import verify

from .brute_views import least_layers, neighbourhoods
from .reference import closed_neighbourhoods, distances_from

N = sympy.Symbol("n", integer=True, positive=True)
SHORTER = "blocks(4) + window(1) + strided(7)"


def _pattern(b: int, w: int, s: int) -> PatternUnion:
    return PatternUnion((Blocks(b), Window(w, False), Strided(s)))


def test_the_classes_of_the_catalog_pattern():
    """F110's swap classes are n mod 4 ∈ {1, 2, 3}; the class 4 | n is Theorem F113's (D layers), so the count is least
    on every class (tests/graphs/test_blocks_window_strided_pieces.py)."""
    assert B.swap_classes(4, 1, 7) == (4, (1, 2, 3))
    theorem = families.match([_pattern(4, 1, 7)], N, {})
    assert theorem.theorem == "F93" and theorem.least and theorem.least_classes == ()
    assert "F110" in theorem.why_layers and "F113" in theorem.why_layers
    assert [theorem.layers.subs(N, n) for n in (116, 117, 118, 119)] == [3, 4, 4, 4]
    # where D = 2 the swap holds on every class with D = 2 (and F113 holds on the classes with D = 3)
    data = B.decide(4, 2, 5)
    modulus, residues = B.swap_classes(4, 2, 5)
    assert modulus == 20 and set(residues) == {r for r in range(20) if data.diameters[r] == 2}
    assert B.swap_classes(3, 1, 4) == ()  # no swap class (every class is F113's)


@pytest.mark.parametrize("n", list(range(116, 128)) + [147, 150])
def test_the_classes_against_the_concrete_engine(n):
    """On a swap class the engine's least count is the stated D + 1; on 4 | n it is D = 3 (Theorem F113)."""
    theorem = families.match([_pattern(4, 1, 7)], N, {})
    got = concrete(_pattern(4, 1, 7), n)
    assert got.least and got.diameter == 3 and theorem.least_at(n)
    assert got.layers == (3 if n % 4 == 0 else 4) == theorem.layers.subs(N, n), n


def _is_view_witness(pattern, n: int, root: int, x: int, y: int) -> bool:
    """The swap (x y) keeps the closed neighbourhood of every position within D − 1 of the root and is not a
    symmetry, on the reference arcs."""
    near = {v: frozenset(around) for v, around in closed_neighbourhoods(pattern, n).items()}
    sigma = {v: v for v in range(1, n + 1)}
    sigma[x], sigma[y] = y, x
    dist = distances_from(near, root)
    d = max(dist.values())
    keeps = all(frozenset(sigma[u] for u in near[v]) == near[sigma[v]] for v in near if dist[v] <= d - 1)
    symmetry = all(frozenset(sigma[u] for u in near[v]) == near[sigma[v]] for v in near)
    return keeps and not symmetry and dist[x] == dist[y] == d


@pytest.mark.parametrize("n", [117, 118, 119, 121, 150])
def test_the_swap_is_a_view_witness_on_the_reference_arcs(n):
    found = B.swap_witness(n, 4, 1, 7, 3)
    assert found is not None
    assert _is_view_witness(_pattern(4, 1, 7), n, *found)
    assert B.swap_witness(120, 4, 1, 7, 3) is None


@pytest.mark.parametrize("b, w, s, n", [(3, 1, 4, 7), (3, 1, 4, 8), (3, 1, 5, 8)])
def test_the_search_against_brute_force(b, w, s, n):
    """At small n (outside the range, where the lemma (a) still holds): a swap the search finds is a view witness, and
    brute force over S_n then needs D + 1 layers."""
    from .brute_views import diameter
    nbs = neighbourhoods([f"blocks({b}) + window({w}) + strided({s})"], n)
    d = diameter(nbs, n)
    found = B.swap_witness(n, b, w, s, d)
    if found is not None:
        assert _is_view_witness(_pattern(b, w, s), n, *found)
        assert least_layers(nbs, n) == d + 1


def test_the_verifier_restates_the_classes():
    cert = certificate_of(softmax_source(SHORTER))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and "least classes" not in step["data"]
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert any("F110" in s.reason and "F113" in s.reason for s in report.steps if s.rule == "PAT-LAYERS")
    for forged in ({"modulus": 4, "residues": [1, 2, 3]}, {"modulus": 4, "residues": [0, 1, 2, 3]}):
        cert = certificate_of(softmax_source(SHORTER))
        step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
        step["data"]["least"] = False
        step["data"]["least classes"] = forged
        assert rejects(cert, "PAT-LAYERS")
    cert = certificate_of(softmax_source(SHORTER))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")
