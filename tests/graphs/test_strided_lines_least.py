"""The least layer count of `strided(s)` with non-cyclic local parts (docs/theory.md §11.11, Theorems F74, F91, F92):
Theorem F97 (s = 2 with symmetric jumps leaving a class: D layers, least) and Theorem F98 (s ≥ 3, symmetric: D layers,
least, where the common-neighbour premise holds through one period past 16M + 4s) against the concrete engine (graphs,
BLISS, rooted views by canonical labelling) at every n ≤ 60 in range, or one period of the range and two later lengths,
and the lemmas against brute force over S_n at small n; the premises on the reference arcs (tests/graphs/reference.py)."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families, strided_lines_least
from uapcheck.graphs.families import concrete
from uapcheck.parse import parse_source

from . import brute_views
from .reference import attends, distances_from

N = sympy.Symbol("n", integer=True, positive=True)

# s = 2, S′ = −S′: F74 (gcd(S′) = 1) and F92 (gcd(S′) = r > 2)
TWO_CLASSES = [("strided(2) + dilated(1, 3)", "F92"), ("strided(2) + dilated(2, 3)", "F92"),
               ("strided(2) + dilated(1, 5)", "F92"), ("strided(2) + window(1) + dilated(1, 3)", "F74"),
               ("strided(2) + offsets {-1, 1, 4, -4, 3, -3}", "F74")]


def _theorem(pattern: str):
    spec = parse_source(f"attention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}", "t.uap")
    return families.match([spec.heads[0].pattern], N, {}), spec.heads[0].pattern


@pytest.mark.parametrize("pattern, name", TWO_CLASSES)
def test_two_classes_d_layers_least_against_the_concrete_engine(pattern, name):
    theorem, pat = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == name
    assert theorem.least and theorem.layers == theorem.diameter and "F97" in theorem.why_layers
    assert not theorem.open_question
    for n in range(int(theorem.low), max(61, int(theorem.low) + 4)):
        got = concrete(pat, n)
        want = families.at(theorem, {"n": n})
        assert got.least and got.layers == want["layers"] == want["diameter"] == got.diameter, (pattern, n)


def _far_clique(pattern, n: int) -> bool:
    """At every root the positions at distance D are pairwise adjacent (reference arcs, breadth-first search)."""
    pairs = attends(pattern, n)
    assert all((j, i) in pairs for (i, j) in pairs)
    adj = {v: {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    for _, far in _far_sets(adj):
        if any(v not in adj[u] for u in far for v in far if u < v):
            return False
    return True


def _far_sets(adj):
    """For each root (breadth-first search over `adj`): the positions within D − 1 of it and, sorted, those at
    distance D, D the largest distance from any root."""
    dist = [distances_from(adj, root) for root in adj]
    big = max(max(d.values()) for d in dist)
    for d in dist:
        yield {v for v, k in d.items() if k < big}, sorted(v for v, k in d.items() if k == big)


@pytest.mark.parametrize("pattern, name", TWO_CLASSES[:3])
def test_the_far_clique_premise_on_the_reference_arcs(pattern, name):
    """The premise the proof establishes, at every n from 10 to 60 (it holds below the range too)."""
    _, pat = _theorem(pattern)
    for n in range(10, 61, 3):
        assert _far_clique(pat, n), (pattern, n)


@pytest.mark.parametrize("pattern", ["strided(2) + dilated(1, 3)", "strided(2) + window(1) + dilated(1, 3)"])
@pytest.mark.parametrize("n", [7, 8])
def test_two_classes_against_brute_force(pattern, n):
    """The lemma at a length below the range: brute force over S_n finds no view witness at depth D."""
    nbs = brute_views.neighbourhoods([pattern], n)
    d = brute_views.diameter(nbs, n)
    assert d is not None and d >= 2
    assert brute_views.view_witness(nbs, n, d) is None


@pytest.mark.parametrize("pattern", ["strided(2) + offsets {-3, 9}"])
def test_asymmetric_jumps_stay_sufficient(pattern):
    """S′ ≠ −S′ with gcd(S′) = 3 (F92: neither F97, F98 nor F114): D + 1 layers, not least, the question named.
    `strided(8) + offsets {-5, 9}` (F74) is D layers, least, by F114 (tests/graphs/test_strided_lines_directed.py)."""
    theorem, _ = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and not theorem.least
    assert theorem.layers == theorem.diameter + 1 and theorem.open_question


# Theorem F98: s ≥ 3, S′ = −S′, the common-neighbour premise through one period past N₁ = max(N, 16M + 4s)
PREMISE = [("strided(5) + dilated(2, 3)", "F91"), ("strided(7) + dilated(1, 2)", "F91"),
           ("strided(3) + offsets {-5, -2, 2, 5}", "F74"), ("strided(3) + dilated(1, 4)", "F92")]
NO_PREMISE = ["strided(6) + window(1) + dilated(1, 3)"]


@pytest.mark.parametrize("pattern, name", PREMISE)
def test_premise_d_layers_least_against_the_concrete_engine(pattern, name):
    """D layers, least, at every n of one period from the range's start and at two later lengths, as the concrete
    engine decides (rooted views by canonical labelling)."""
    theorem, pat = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == name
    assert theorem.least and theorem.layers == theorem.diameter and "F98" in theorem.why_layers
    low = int(theorem.low)
    s = int(theorem.values()["s"])
    for n in list(range(low, low + s)) + [low + 3 * s + 1, low + 5 * s + 2]:
        got = concrete(pat, n)
        want = families.at(theorem, {"n": n})
        assert got.least and got.layers == want["layers"] == want["diameter"] == got.diameter, (pattern, n)


def _premise_on_reference_arcs(pattern, n: int) -> bool:
    """The common-neighbour premise by breadth-first search on the reference arcs, pair by pair."""
    pairs = attends(pattern, n)
    adj = {v: {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    for ball, far in _far_sets(adj):
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                if (v in adj[u]) != bool(adj[u] & adj[v] & ball):
                    return False
    return True


@pytest.mark.parametrize("pattern, s, jumps, lengths", [
    ("strided(5) + dilated(2, 3)", 5, (-6, -3, 3, 6), (135, 138, 140)),
    ("strided(6) + window(1) + dilated(1, 3)", 6, (-3, -1, 1, 3), (90, 91)),
    ("strided(4) + dilated(1, 5)", 4, (-5, 5), (60, 61)),
    ("strided(4) + window(1)", 4, (-1, 1), (60, 61, 64))])
def test_the_finite_check_against_the_reference_arcs(pattern, s, jumps, lengths):
    _, pat = _theorem(pattern)
    for n in lengths:
        assert strided_lines_least.premise_holds(s, jumps, n) == _premise_on_reference_arcs(pat, n), (pattern, n)


@pytest.mark.parametrize("s, jumps", [(5, (-6, -3, 3, 6)), (7, (-2, 2)), (4, (-4, -1, 1, 4))])
def test_the_premise_is_periodic_past_the_check(s, jumps):
    """(a) beyond the lengths the theorem reads: P(n) = P(n + s) over two more periods past N₁ + s."""
    _, top = strided_lines_least.check_span(s, jumps, 0)
    for n in range(top + 1, top + 2 * s + 1):
        assert strided_lines_least.premise_holds(s, jumps, n) == strided_lines_least.premise_holds(s, jumps, n + s)


@pytest.mark.parametrize("pattern", ["strided(3) + dilated(1, 2)", "strided(3) + dilated(1, 4)"])
def test_the_common_neighbour_lemma_against_brute_force(pattern):
    """Where the premise holds at a small length, brute force over S_n finds no view witness at depth D."""
    _, pat = _theorem(pattern)
    n = 8
    pairs_ok = _premise_on_reference_arcs(pat, n)
    nbs = brute_views.neighbourhoods([pattern], n)
    d = brute_views.diameter(nbs, n)
    assert pairs_ok and d is not None and d >= 2
    assert brute_views.view_witness(nbs, n, d) is None


@pytest.mark.parametrize("pattern", NO_PREMISE)
def test_where_the_check_decides_nothing_the_count_stays_sufficient(pattern):
    """Neither the premise (F98) nor a swap of far positions (F99) at some length: D + 1, sufficient."""
    theorem, _ = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and not theorem.least
    assert theorem.layers == theorem.diameter + 1 and theorem.open_question


# Theorem F99: a swap of two far positions with the same neighbours in the ball, not twins: D + 1 layers, least
WITNESSED = [("strided(4) + dilated(1, 5)", "F92")]


@pytest.mark.parametrize("pattern, name", WITNESSED)
def test_swap_d_plus_one_least_against_the_concrete_engine(pattern, name):
    theorem, pat = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == name
    assert theorem.least and "F99" in theorem.why_layers
    low = int(theorem.low)
    s = int(theorem.values()["s"])
    for n in list(range(low, low + s)) + [low + 3 * s + 1]:
        got = concrete(pat, n)
        want = families.at(theorem, {"n": n})
        assert got.least and got.layers == want["layers"] == want["diameter"] + 1, (pattern, n)


def _swap_on_reference_arcs(pattern, n: int) -> bool:
    """Some root has two positions at distance D with the same neighbours within D − 1 that are not twins."""
    pairs = attends(pattern, n)
    adj = {v: {j for (i, j) in pairs if i == v} | {v} for v in range(1, n + 1)}
    for ball, far in _far_sets(adj):
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                if adj[u] & ball == adj[v] & ball and adj[u] - {u, v} != adj[v] - {u, v}:
                    return True
    return False


@pytest.mark.parametrize("pattern, s, jumps, n, want", [
    ("strided(4) + dilated(1, 5)", 4, (-5, 5), 92, 1), ("strided(4) + dilated(1, 5)", 4, (-5, 5), 95, 1),
    ("strided(5) + dilated(2, 3)", 5, (-6, -3, 3, 6), 136, 0),
    ("strided(6) + window(1) + dilated(1, 3)", 6, (-3, -1, 1, 3), 90, None)])
def test_each_length_decided_against_the_reference_arcs(pattern, s, jumps, n, want):
    _, pat = _theorem(pattern)
    assert strided_lines_least.decide_length(s, jumps, n) == want
    assert _swap_on_reference_arcs(pat, n) == (want == 1)
    assert _premise_on_reference_arcs(pat, n) == (want == 0)


def test_the_swap_against_brute_force():
    """Where the reference arcs show a swap of two far positions, brute force over S_8 finds a view witness at depth D."""
    pattern = "strided(3) + dilated(1, 5)"
    _, pat = _theorem(pattern)
    nbs = brute_views.neighbourhoods([pattern], 8)
    d = brute_views.diameter(nbs, 8)
    assert d is not None and _swap_on_reference_arcs(pat, 8)   # the swap (5 8) at the root 4
    assert brute_views.view_witness(nbs, 8, d) is not None
