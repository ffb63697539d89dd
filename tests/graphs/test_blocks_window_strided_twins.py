"""Theorem F119 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b ≥ s, b ≥ w + 2, s ≤ w + 1 — D = 2,
G = ∏ Sym(twin class) × the reflection when b | n, 3 layers (least where the first blocks hold a swap witness), 2 layers,
least, when s = 2 (F119 (d), the far-clique lemma) — against BLISS on the reference arcs and breadth-first search at
every n from the range's start through 150 and a few larger n, the concrete engine's rooted views (every n through 100
for s = 2), and brute force for the twin-quotient lemma and the far-clique step at n ≤ 8."""
from __future__ import annotations

import itertools
from math import factorial

import igraph
import pytest
import sympy

from uapcheck.graphs import blocks_window_strided_twins as f119
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, PatternUnion, Strided, Window

from .reference import closed_neighbourhoods, distances_from

N = sympy.Symbol("n", integer=True, positive=True)

# (b, w, s): the two of the former open list, and others; the last column says whether the count is least (3 layers
# with a swap witness when s ≥ 3, 2 layers by the far-clique lemma when s = 2: every case here)
CASES = [(5, 1, 2, True), (7, 2, 3, True), (5, 2, 3, True), (6, 1, 2, True), (6, 3, 4, True), (7, 3, 2, True),
         (7, 4, 5, True), (8, 2, 3, True), (8, 3, 4, True), (9, 2, 2, True), (9, 4, 3, True), (10, 3, 4, True)]
# where BLISS finds G larger than 2^[b | n]·∏ |T|! (b = w + 2, s | b − 1) or the certificate's clique check fails
UNDECIDED = [(5, 3, 2), (5, 3, 4), (6, 4, 5), (7, 5, 3), (4, 2, 2), (6, 4, 2)]


def _pattern(b, w, s):
    return PatternUnion((Blocks(b), Window(w), Strided(s)))


def _bliss_order(adj, n: int) -> int:
    edges = [(i - 1, j - 1) for i in range(1, n + 1) for j in adj[i] if i < j]
    return int(igraph.Graph(n=n, edges=edges).count_automorphisms())


def _diameter(adj, n: int) -> int:
    worst = 0
    for root in range(1, n + 1):
        dist = distances_from(adj, root)
        assert len(dist) == n
        worst = max(worst, max(dist.values()))
    return worst


def _twin_product(adj, n: int) -> int:
    classes: dict = {}
    for p in range(1, n + 1):
        classes.setdefault(frozenset(adj[p] | {p}), []).append(p)
    out = 1
    for members in classes.values():
        out *= factorial(len(members))
    return out


@pytest.mark.parametrize("b, w, s, least", CASES)
def test_the_theorem_against_bliss_and_bfs(b, w, s, least):
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F119", (b, w, s)
    assert theorem.least is least and int(theorem.diameter) == 2 and int(theorem.layers) == (2 if s == 2 else 3)
    assert (theorem.witness is None) is (s == 2)
    low = int(theorem.low)
    lengths = list(range(max(low, 61), 151)) + [low + 7 * f119.lcm(b, s) + k for k in (0, 1, b)]
    for n in lengths:
        adj = closed_neighbourhoods(_pattern(b, w, s), n)
        want = families.at(theorem, {"n": n})
        assert want["diameter"] == _diameter(adj, n) == 2, (b, w, s, n)
        order = _bliss_order(adj, n)
        assert want["order"] == order == _twin_product(adj, n) * (2 if n % b == 0 else 1), (b, w, s, n)


@pytest.mark.parametrize("b, w, s", [(b, w, s) for b, w, s, _ in CASES[:6]])
def test_the_symbolic_order_is_the_concrete_theorem_s(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    for n in (int(theorem.low), int(theorem.low) + 13, 1000, 4097):
        at_n = families.match([_pattern(b, w, s)], sympy.Integer(n), {})
        assert at_n.theorem == "F119" and int(at_n.order) == int(families.at(theorem, {"n": n})["order"])


@pytest.mark.parametrize("b, w, s", UNDECIDED)
def test_no_group_where_the_certificate_fails(b, w, s):
    assert f119.decide(b, w, s) is None
    theorem = families.match([_pattern(b, w, s)], N, {})
    assert not (isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F119")


@pytest.mark.parametrize("b, w, s", [(5, 3, 2), (6, 4, 5), (3, 1, 2)])
def test_the_excluded_cases_have_a_larger_group(b, w, s):
    """With b = w + 2 and s | b − 1 the block adds no pair (its only pair beyond the window is b − 1 apart, one class),
    so the union is window(w) + strided(s), with the reflection at every n: G is twice the twins' product there, and
    the certificate refuses them (the test above), where a formula without it would state a group smaller than G."""
    n = 4 * s * b + 1
    adj = closed_neighbourhoods(_pattern(b, w, s), n)
    assert _bliss_order(adj, n) == 2 * _twin_product(adj, n) * (2 if n % b == 0 else 1)


@pytest.mark.parametrize("b, w, s", [(5, 1, 2), (7, 2, 3), (5, 2, 3)])
def test_the_layers_against_the_rooted_views(b, w, s):
    theorem = families.match([_pattern(b, w, s)], N, {})
    for n in (int(theorem.low), int(theorem.low) + 1):
        got = concrete(_pattern(b, w, s), n)
        assert got.diameter == 2 and got.least
        # 3 layers least where the theorem's swap witness is; with s = 2 the far-clique lemma gives 2
        assert got.layers == int(theorem.layers) == (2 if s == 2 else 3), (b, w, s, n)


@pytest.mark.parametrize("b, w", [(5, 1), (6, 1), (7, 3), (9, 2), (8, 4), (11, 8)])
def test_two_layers_least_with_two_classes_against_the_rooted_views(b, w):
    """F119 (d): with s = 2 the count is D = 2, least, at every n of the range; the concrete engine (rooted views,
    canonical labelling) agrees at every n from the range's start through 100, and at each of those lengths the
    positions at distance 2 from every root are pairwise adjacent on the reference arcs (the lemma's premise)."""
    theorem = families.match([_pattern(b, w, 2)], N, {})
    assert theorem.theorem == "F119" and theorem.least and int(theorem.layers) == 2
    for n in range(int(theorem.low), 101):
        got = concrete(_pattern(b, w, 2), n)
        assert (got.diameter, got.layers, got.least) == (2, 2, True), (b, w, n)
        at_n = families.match([_pattern(b, w, 2)], sympy.Integer(n), {})
        assert int(at_n.layers) == 2 and at_n.least_at(n)
        adj = closed_neighbourhoods(_pattern(b, w, 2), n)
        for root in range(1, n + 1):
            far = [v for v, d in distances_from(adj, root).items() if d == 2]
            assert all(v in adj[u] for u in far for v in far if u != v), (b, w, n, root)


@pytest.mark.parametrize("b, w", [(3, 1), (4, 1), (5, 1), (4, 2), (5, 2), (6, 1)])
def test_the_far_clique_step_by_brute_force(b, w):
    """At every n ≤ 8 where `blocks(b) + window(w) + strided(2)` has D = 2, no permutation of S_n is a view witness at
    depth 2 (brute force over all n! permutations): the step F119 (d) takes from the far-clique lemma, below the
    theorem's range where it holds too (it needs only D = 2 and the two classes)."""
    from .brute_views import diameter, neighbourhoods, view_witness
    seen = 0
    for n in range(4, 9):
        nbs = neighbourhoods([f"blocks({b}) + window({w}) + strided(2)"], n)
        if diameter(nbs, n) != 2:
            continue
        seen += 1
        assert view_witness(nbs, n, 2) is None, (b, w, n)
    assert seen


def test_the_group_at_a_million_by_structure():
    data = f119.decide(5, 1, 2)
    words = f119.concrete_words(1048576, data)
    assert words.startswith("S_2 on each of the 209,716 twin classes of 2 positions ({1, 3}, {2, 4}, …")
    assert "reflection" not in words
    assert f119.concrete_words(1048575, data).endswith("the reflection i ↦ n + 1 − i")
    few = f119.decide(7, 2, 3)
    assert f119.concrete_words(1048576, few) == "S_2 on {1, 4} × S_2 on {2, 5}"
    assert int(f119.order_expr(1048576, few)) == 4
    assert int(f119.order_expr(1048579, few)) == 32


def _brute_order(adj, n: int) -> int:
    count = 0
    for perm in itertools.permutations(range(1, n + 1)):
        image = dict(zip(range(1, n + 1), perm))
        if all(image[j] in adj[image[i]] for i in range(1, n + 1) for j in adj[i]):
            count += 1
    return count


def _quotient_order(adj, n: int) -> int:
    """|Aut| of the twin quotient keeping the classes' sizes, by brute force."""
    classes: dict = {}
    for p in range(1, n + 1):
        classes.setdefault(frozenset(adj[p] | {p}), []).append(p)
    reps = [members for members in classes.values()]
    k = len(reps)
    count = 0
    for perm in itertools.permutations(range(k)):
        if all(len(reps[a]) == len(reps[perm[a]]) for a in range(k)) and all(
                (reps[c][0] in adj[reps[a][0]]) == (reps[perm[c]][0] in adj[reps[perm[a]][0]])
                for a in range(k) for c in range(k) if a != c):
            count += 1
    return count


@pytest.mark.parametrize("b, w, s", [(3, 1, 2), (4, 1, 2), (4, 2, 3), (5, 1, 2), (5, 2, 3)])
def test_the_twin_quotient_lemma_by_brute_force(b, w, s):
    """|G| = ∏ |T|! · |Aut(quotient, class sizes)| (the proof's first step) on every n ≤ 8, all permutations."""
    for n in range(2, 9):
        adj = closed_neighbourhoods(_pattern(b, w, s), n)
        assert _brute_order(adj, n) == _twin_product(adj, n) * _quotient_order(adj, n), (b, w, s, n)
