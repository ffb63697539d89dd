"""`window(w) + global {1, …, g}`: the listed first g positions are global(g) (docs/theory.md §11.11,
"Listed globals"), so Theorem F2 decides the pattern at a concrete n without building the token
graph. Checked against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 for
several (w, g), in and below the theorem's range."""
from __future__ import annotations

import pytest
import sympy

import uapcheck
from uapcheck.graphs import build_graph
from uapcheck.graphs import families as F
from uapcheck.graphs.closed_forms import prefix_global_count
from uapcheck.spec import Global, GlobalAt, PatternUnion, Window

NMAX = 60
PARAMS = [(1, 1), (2, 1), (1, 2), (3, 2), (2, 3), (1, 4)]


def listed(w: int, g: int, order=None) -> PatternUnion:
    positions = tuple(order) if order is not None else tuple(range(g, 0, -1))  # any order of 1..g
    return PatternUnion((Window(w), GlobalAt(positions)))


@pytest.mark.parametrize("w,g", PARAMS)
def test_listed_globals_agree_with_the_concrete_decision_for_every_n_up_to_60(w, g):
    pattern = listed(w, g)
    low = g + 2 * w + 3
    for n in range(g, NMAX + 1):
        assert set(build_graph(pattern, n).arcs()) == set(build_graph(PatternUnion((Window(w), Global(g))), n).arcs())
        theorem = F.match([pattern], sympy.Integer(n))
        assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F2"
        if n < low:
            assert not F.in_range(theorem, {})
            continue
        want = F.at(theorem, {})
        got = F.concrete(pattern, n)
        assert (got.connected, got.diameter, got.order) == (True, want["diameter"], want["order"]), n
        assert (got.layers, got.least) == (want["layers"], True), n


def test_only_the_first_positions_are_global_g():
    assert prefix_global_count(GlobalAt((3, 1, 2))) == 3
    assert prefix_global_count(GlobalAt((1, 3))) is None
    assert prefix_global_count(GlobalAt((2,))) is None
    assert F.match([PatternUnion((Window(2), GlobalAt((1, 3))))], sympy.Integer(40)) is None


def test_longformer_task_tokens_at_4096_are_decided_without_arcs(no_graphs):
    text = ("tokens 4096\nattention { kernel k(x, y) = exp(x . y); pattern window(256) + global {1, 2, 3, 4} }\n")
    r = uapcheck.check(text)
    assert r.verdict == "UAP" and r.layers == 3 and r.group.order == 48
    assert r.group.name == "S_4 on {1, …, 4} × the reflection of {5, …, 4096}"
    layers = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert layers.evidence["least"] is True
    assert layers.evidence["view witness"]["position"] == 519 and layers.evidence["view witness"]["swap"] == [5, 6]


def test_below_the_range_the_token_graph_decides():
    # n = g + 2w + 2 is below F2's range: the concrete engine finds that 2 layers suffice
    text = "tokens 7\nattention { kernel k(x, y) = exp(x . y); pattern window(2) + global {1} }\n"
    r = uapcheck.check(text)
    assert r.verdict == "UAP" and r.layers == 2
