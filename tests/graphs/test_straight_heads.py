"""Theorem F75 of docs/theory.md §11.11 (several symmetric heads whose union is straight: D layers, least, when the
positions at distance D from any root form a clique in every head): every decided head tuple against the concrete
engine (graphs, BLISS rooted views with the heads as arc colours) at EVERY n ≤ 60 in its range; the theorem itself
(at any n, for any windows and blocks) by brute force over S_n at n ≤ 8 with the reference neighbourhoods of
tests/graphs/brute_views.py; the engine's search of the roots near the ends only against a search from every root."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import build_graph
from uapcheck.graphs import straight_heads as SH
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, PatternUnion, Window

from .heads_engines import closed_least, engine_least
from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# head tuples F75 decides (their union is F21's blocks(b) + window(w); the heads' group is smaller than the
# union's on some class, so F70 does not apply)
DECIDED = [
    (Window(2), Blocks(4)),                      # catalog window_blocks_heads_n
    (Window(1), Blocks(3)),
    (Window(2), Blocks(5)),
    (Window(3), Blocks(6)),
    (U(Window(1), Blocks(4)), Window(2)),
    (U(Window(2), Blocks(4)), Window(1)),
]
# unions F21 covers whose far ends are not cliques in every head: F75 makes no claim (the engine finds D + 1 for
# the first two; window(3) | blocks(5) needs D, a case F75 does not reach, docs/theory.md §13 L2)
UNDECIDED = [(Window(1), Blocks(4)), (Window(1), Blocks(5)), (Window(3), Blocks(5))]


@pytest.mark.parametrize("heads", DECIDED)
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F75" and found.union_theorem == "F21"
    assert found.layers == found.diameter and found.low <= NMAX
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == int(found.diameter.xreplace({N: n})), n
        assert suffices, n  # D layers, as F75 states


@pytest.mark.parametrize("heads", UNDECIDED)
def test_no_claim_when_a_far_end_is_not_a_clique_in_some_head(heads):
    found = closed_least(heads)
    assert found is None or found.theorem != "F75"


def test_the_catalog_pair_from_the_union_bound_with_a_smaller_group_than_the_unions():
    # window(2) | blocks(4): G is the reflection or trivial, the union's group has its end twins {1, 2} too
    found = closed_least((Window(2), Blocks(4)))
    assert found.low == 13 and found.modulus == 4
    assert int(found.layers.xreplace({N: 15})) == 7


@pytest.mark.parametrize("heads", DECIDED)
def test_the_roots_near_the_ends_decide_as_every_root_does(heads):
    found = closed_least(heads)
    b = found.far_ends.b
    for n in range(found.low, NMAX + 1):
        graphs = [build_graph(h, n, {}) for h in heads]
        assert SH.far_ends_are_cliques(graphs, n, b) == SH.far_ends_are_cliques(graphs, n, n), n


def _reference_far_ends(texts, n):
    """D when, for every root, the positions at distance D form a clique in every head (reference semantics)."""
    nbs = neighbourhoods(texts, n)
    d = brute_diameter(nbs, n)
    if d is None or d < 2:
        return None
    union = {v: set().union(*(nb[v] for nb in nbs)) for v in range(1, n + 1)}
    for root in range(1, n + 1):
        dist = {root: 0}
        frontier = [root]
        while frontier:
            nxt = []
            for v in frontier:
                for u in sorted(union[v]):
                    if u not in dist:
                        dist[u] = dist[v] + 1
                        nxt.append(u)
            frontier = nxt
        far = [j for j in range(1, n + 1) if dist.get(j) == d]
        if not all(u in nb[v] for nb in nbs for u in far for v in far):
            return None
    return d


PARTS = ["window(1)", "window(2)", "window(3)", "blocks(2)", "blocks(3)", "blocks(4)", "window(1) + blocks(3)"]


def test_the_theorem_by_brute_force_over_s_n_for_windows_and_blocks():
    # F75 at any n, with no family theorem: symmetric heads whose far sets are cliques in every head need D layers
    seen = 0
    for texts in itertools.combinations(PARTS, 2):
        for n in (6, 7):
            d = _reference_far_ends(list(texts), n)
            if d is None:
                continue
            seen += 1
            assert brute_least(neighbourhoods(list(texts), n), n) == d, (texts, n)
    assert seen >= 8


def test_the_theorem_by_brute_force_on_the_catalog_pair_at_n_8():
    texts = [show_pattern(Window(2)), show_pattern(Blocks(4))]
    d = _reference_far_ends(texts, 8)
    assert d == 3
    assert brute_least(neighbourhoods(texts, 8), 8) == 3
