"""Theorems F63 and F80 (docs/theory.md §11.11): `blocks(b) + dilated(w, b)`, the grid of blocks by offsets — D, |G| by
residue of n mod b and D layers (least) — against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in
range, the order by an automorphism count written in the test (no engine), and F80's premise (the least-degree clique
lemma) by a breadth-first search written in the test on the reference arcs."""
from __future__ import annotations

import pytest
import sympy

from collections import deque

from .reference import attends, count_automorphisms
from uapcheck.graphs import blocks_dilated, families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, PatternUnion

N = sympy.Symbol("n", integer=True, positive=True)
PARAMS = [(2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (5, 2)]


def _theorem(b, w):
    return families.match([PatternUnion((Blocks(b), Dilated(w, b)))], N, {})


@pytest.mark.parametrize("b, w", PARAMS)
def test_against_concrete_engine(b, w):
    theorem = _theorem(b, w)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F63"
    assert theorem.least and theorem.group is not None
    pattern = PatternUnion((Blocks(b), Dilated(w, b)))
    for n in range(int(theorem.low), 61):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == blocks_dilated.diameter_at(n, b, w), (b, w, n)
        assert got.order == want["order"] == blocks_dilated.order_at(n, b), (b, w, n)
        assert got.least and want["layers"] == want["diameter"] == got.layers, (b, w, n)


def test_the_ladder_is_named_by_structure():
    """blocks(2) + dilated(1, 2) is the ladder: order 4 for even n (the offset swap and the reflection), 1 for odd n."""
    theorem = _theorem(2, 1)
    assert "offsets {1, 2} within a block" in theorem.group and "reversal of the blocks" in theorem.group
    assert families.at(theorem, {"n": 1000})["order"] == 4 and families.at(theorem, {"n": 1001})["order"] == 1


@pytest.mark.parametrize("b, w", [(2, 1), (3, 1), (3, 2)])
def test_order_by_counting(b, w):
    """|Aut| by extending partial maps (arcs written here: same block, or a difference jb with 1 ≤ j ≤ w)."""
    theorem = _theorem(b, w)
    for n in range(int(theorem.low), int(theorem.low) + b):
        def arc(u, v):
            return u != v and ((u - 1) // b == (v - 1) // b or (abs(u - v) % b == 0 and abs(u - v) <= w * b))
        assert count_automorphisms(n, arc) == blocks_dilated.order_at(n, b), (b, w, n)


def test_other_dilations_stay_outside():
    """blocks(4) + dilated(1, 2) (r ≠ b) is not F63's."""
    found = families.match([PatternUnion((Blocks(4), Dilated(1, 2)))], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F63")


def _far_pairs_follow_the_rule(n, b, w):
    """The least-degree clique premise of F80 at every root, on the reference arcs (BFS written here)."""
    near = {v: set() for v in range(1, n + 1)}
    for i, j in attends(PatternUnion((Blocks(b), Dilated(w, b))), n):
        near[i].add(j)
    assert all(i in near[j] for i in near for j in near[i])
    dist = {}
    for root in near:
        seen = {root: 0}
        queue = deque([root])
        while queue:
            x = queue.popleft()
            for y in near[x]:
                if y not in seen:
                    seen[y] = seen[x] + 1
                    queue.append(y)
        dist[root] = seen
    diameter = max(max(d.values()) for d in dist.values())
    for root, seen in dist.items():
        ball = {v for v, d in seen.items() if d < diameter}
        far = sorted(v for v, d in seen.items() if d == diameter)
        if not far:
            continue
        fewest = min(len(near[u] & ball) for u in far)
        least = {u for u in far if len(near[u] & ball) == fewest}
        rows = {(u - 1) // b for u in least}
        assert len(rows) == 1, (n, root)   # the fewest-degree far positions are one row (a clique)
        for k, u in enumerate(far):
            for v in far[k + 1:]:
                assert (v in near[u]) == (bool(near[u] & near[v] & ball) or (u in least and v in least)), (n, root, u, v)
    return diameter


@pytest.mark.parametrize("b, w", PARAMS + [(2, 3), (4, 2)])
def test_the_least_degree_clique_premise_holds_at_every_root(b, w):
    """F80 (a): at every root, far positions are adjacent iff they share a neighbour in the ball or both lie in the far
    row with the fewest neighbours in the ball; the plain common-neighbour premise fails at some n (a partial last row
    whose cells miss the root's column), so the least-degree clause is needed."""
    low = int(_theorem(b, w).low)
    for n in range(low, min(61, low + 3 * b + 1)):
        assert _far_pairs_follow_the_rule(n, b, w) == blocks_dilated.diameter_at(n, b, w), (b, w, n)
