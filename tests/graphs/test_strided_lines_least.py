"""The least layer count of `strided(s)` with non-cyclic local parts (docs/theory.md §11.11, Theorems F74, F91, F92):
Theorem F97 (s = 2 with symmetric jumps leaving a class: D layers, least) against the concrete engine (graphs, BLISS,
rooted views by canonical labelling) at every n ≤ 60 in range and against brute force over S_n at small n; the
far-clique premise on the reference arcs (tests/graphs/reference.py)."""
from __future__ import annotations

from collections import deque

import pytest
import sympy

from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.parse import parse_source

from . import brute_views
from .reference import attends

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
    dist = {}
    for root in adj:
        d = {root: 0}
        queue = deque([root])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in d:
                    d[v] = d[u] + 1
                    queue.append(v)
        dist[root] = d
    big = max(max(d.values()) for d in dist.values())
    for d in dist.values():
        far = [v for v, k in d.items() if k == big]
        if any(v not in adj[u] for u in far for v in far if u < v):
            return False
    return True


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


@pytest.mark.parametrize("pattern", ["strided(2) + offsets {-3, 9}", "strided(5) + dilated(2, 3)",
                                     "strided(8) + offsets {-5, 9}"])
def test_outside_f97_the_count_stays_sufficient(pattern):
    """Not s = 2 with S′ = −S′: D + 1 layers, not least, the question named."""
    theorem, _ = _theorem(pattern)
    assert isinstance(theorem, families.FamilyTheorem) and not theorem.least
    assert theorem.layers == theorem.diameter + 1 and theorem.open_question
