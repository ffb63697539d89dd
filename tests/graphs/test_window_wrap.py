"""Theorem F144 of docs/theory.md §11.11 (`window(w) + offsets S cyclic`, S one-sided within w: the cyclic offsets add
only arcs across the wrap, one way): D = ⌈(n − 1)/w⌉, G trivial, D layers, least, for n ≥ 3w + 2. Against the concrete
engine (breadth-first search, the group, coloured rooted views) at every n ≤ 60 in range, for one head and for the
referee sweep's heads (F70 on the union), and by brute force over S_n at n ≤ 8 (tests/graphs/brute_views.py, no code
shared with the engine)."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.families import FamilyTheorem, match
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, PatternUnion, Window

from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods
from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


ONE_HEAD = [(6, (4,)), (1, (1,)), (1, (-1,)), (2, (-2,)), (3, (1, 2)), (3, (-1, -3)), (4, (2, 4)), (2, (1, 2))]


def _theorem(w: int, jumps: tuple):
    return match([U(Window(w), Offsets(jumps, True))], N, {})


@pytest.mark.parametrize("w,jumps", ONE_HEAD, ids=[f"window({w}) + offsets {set(j)} cyclic" for w, j in ONE_HEAD])
def test_one_head_against_the_concrete_engine_at_every_n_in_range(w, jumps):
    found = _theorem(w, jumps)
    assert isinstance(found, FamilyTheorem) and found.theorem == "F144" and found.least and found.order == 1
    assert found.low == 3 * w + 2
    pattern = U(Window(w), Offsets(jumps, True))
    for n in range(int(found.low), NMAX + 1):
        d, suffices = engine_least((pattern,), n)
        assert d == int(found.diameter.xreplace({N: n})) == -(-(n - 1) // w), n
        assert suffices, n
        assert symmetry_group([build_graph(pattern, n, {})]).order == 1, n


HEADS = [
    (U(Blocks(2), Offsets((4,), True)), Window(6)),   # §13 L2′ (i), the referee sweep's file
    (Offsets((1,), True), Window(2)),
    (Offsets((-2,), True), Window(3)),
]


@pytest.mark.parametrize("heads", HEADS, ids=[" | ".join(map(show_pattern, h)) for h in HEADS])
def test_heads_whose_union_it_is_get_d_layers_by_f70(heads):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F70" and found.union_theorem == "F144"
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == int(found.diameter.xreplace({N: n})) == int(found.layers.xreplace({N: n})), n
        assert suffices, n


@pytest.mark.parametrize("w,jumps", [(2, (-2, 2)), (6, (7,)), (3, (1, -1))], ids=["two-sided", "beyond", "both signs"])
def test_no_claim_outside_the_premises(w, jumps):
    found = _theorem(w, jumps)
    assert not (isinstance(found, FamilyTheorem) and found.theorem == "F144")


def _brute_order(nb, n: int) -> int:
    return sum(all(frozenset(p[u - 1] for u in nb[v]) == nb[p[v - 1]] for v in range(1, n + 1))
               for p in itertools.permutations(range(1, n + 1)))


@pytest.mark.parametrize("text,w", [("window(1) + offsets {1} cyclic", 1), ("window(1) + offsets {-1} cyclic", 1),
                                    ("window(2) + offsets {2} cyclic", 2), ("window(2) + offsets {1, 2} cyclic", 2),
                                    ("window(2) + offsets {-1} cyclic", 2)])
def test_the_theorem_by_brute_force_over_s_n(text, w):
    for n in range(3 * w + 2, 9):
        nbs = neighbourhoods([text], n)
        assert brute_diameter(nbs, n) == -(-(n - 1) // w), n
        assert _brute_order(nbs[0], n) == 1, n
        assert brute_least(nbs, n) == -(-(n - 1) // w), n
