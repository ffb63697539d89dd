"""The token graph's connectivity and symmetry group kept per process for equal arcs (graphs/kept_results.py): the
kept answer is the one a fresh computation gives, equal arcs built apart share it, other arcs, biases or encodings
do not, large graphs and undecided diameters are not kept, and `memo.clear_caches()` empties the stores."""
from __future__ import annotations

import pytest

from uapcheck import graphs
from uapcheck import spec as S
from uapcheck.graphs import build_graph, connectivity, kept_results, symmetry
from uapcheck.memo import clear_caches


@pytest.fixture(autouse=True)
def _empty():
    clear_caches()
    yield
    clear_caches()


PATTERNS = [S.Window(1), S.Window(2, True), S.Strided(3), S.Dilated(2, 2), S.Blocks(4)]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("n", [5, 12, 31])
def test_the_kept_answers_are_the_fresh_ones(pattern, n):
    g = [build_graph(pattern, n, {})]
    fresh_group = symmetry.symmetry_group(g)
    fresh_conn = connectivity.analyze_connectivity(g)
    assert graphs.symmetry_group(g) == fresh_group
    assert graphs.analyze_connectivity(g) == fresh_conn
    again = [build_graph(pattern, n, {})]  # the same arcs, another graph object
    assert graphs.symmetry_group(again) is graphs.symmetry_group(g)
    assert graphs.analyze_connectivity(again) is graphs.analyze_connectivity(g)
    # the automorphisms given to the probe loop: a separate entry, with the same connectivity
    known = graphs.analyze_connectivity(g, union_automorphisms=fresh_group.generators)
    assert (known.strongly_connected, known.diameter) == (fresh_conn.strongly_connected, fresh_conn.diameter)


def test_other_arcs_biases_and_encodings_are_other_entries():
    window, wider = [build_graph(S.Window(1), 9, {})], [build_graph(S.Window(2), 9, {})]
    assert graphs.symmetry_group(window).order == 2  # the reflection
    assert graphs.symmetry_group(window, ["toeplitz"]).order == 1  # the offsets' signs kept apart
    assert graphs.symmetry_group(window, None) is graphs.symmetry_group(window, [None])
    assert graphs.symmetry_group(window, positional="absolute").order == 1
    assert graphs.analyze_connectivity(window).diameter == 8
    assert graphs.analyze_connectivity(wider).diameter == 4
    cyclic = [build_graph(S.Window(1, True), 9, {})]
    assert graphs.symmetry_group(cyclic).order == 18  # D_9, not the window's answer at the same n


def test_large_graphs_are_not_kept(monkeypatch):
    monkeypatch.setattr(kept_results, "KEPT_MAX_ARCS", 10)
    g = [build_graph(S.Window(1), 9, {})]  # 16 arcs
    assert graphs.symmetry_group(g) is not graphs.symmetry_group(g)
    assert graphs.analyze_connectivity(g) is not graphs.analyze_connectivity(g)


def test_an_undecided_diameter_is_not_kept(monkeypatch):
    undecided = connectivity.Connectivity(9, True, lower=3, upper=5, reason="the time budget ran out")
    monkeypatch.setattr(kept_results, "_analyze_connectivity", lambda graphs, **kw: undecided)
    g = [build_graph(S.Window(1), 9, {})]
    graphs.analyze_connectivity(g)
    assert not kept_results._CONNECTIVITY


def test_clear_caches_empties_the_stores():
    g = [build_graph(S.Window(1), 9, {})]
    first = graphs.symmetry_group(g)
    graphs.analyze_connectivity(g)
    assert kept_results._GROUPS and kept_results._CONNECTIVITY
    clear_caches()
    assert not kept_results._GROUPS and not kept_results._CONNECTIVITY
    assert graphs.symmetry_group(g) is not first
