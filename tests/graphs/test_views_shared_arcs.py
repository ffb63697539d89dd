"""Rooted views built from the neighbourhoods' shared arcs (graphs/views.py: `Neighbourhoods.whole_view`,
`arc_arrays`, `in_ball_by_search`): a view whose ball is every position shares the one digraph of all the arcs, a
view with a smaller ball keeps the arcs into its ball by a mask, and canonical forms are compared as sorted numpy
arrays. Checked against the views built arc by arc as before (the reference below): the same colours, arcs,
automorphism counts and certificate digests, the same canonical forms up to equality, and the same decisions with
the array path on and off; and BLISS's answers do not depend on the order of the arcs, which the sharing uses."""
from __future__ import annotations

import random

import igraph
import pytest

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs import views as V
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.lazy import digraph
from uapcheck.parse import parse_source

CASES = [
    (["strided(8) + offsets {-5, 9}"], 120), (["strided(4) + offsets {-3, 5}"], 41), (["window(1) + strided(3)"], 19),
    (["window(2) cyclic"], 16), (["blocks(3) + global(1)"], 17), (["window(1) + random(2, seed=3)"], 23),
    (["offsets {1, 3} cyclic"], 13), (["window(1)", "global(1)"], 11), (["window(1) + dilated(2, 2)"], 15),
    (["blocks(4) + window(1) + strided(7)"], 40), (["causal + window(1)"], 9), (["star"], 10),
    (["window(1) cyclic", "window(2) cyclic"], 12),
]


def _graphs(patterns, n):
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    spec = parse_source(f"tokens {n}\n{heads}", "views.uap")
    return [build_graph(h.pattern, n, {}) for h in spec.heads]


def _reference_view(nb: V.Neighbourhoods, root0: int, diameter: int):
    """(colours, digraph) of the rooted view built arc by arc, as views.py built every view before."""
    n = nb.n
    dist = nb.in_ball(root0, diameter - 1)
    colours = [diameter] * n
    for v, d in dist.items():
        colours[v] = d
    edges = [(u, v) for v in dist for u in nb.ins[v]]
    return colours, digraph(n, edges)


def _reference_form(colours, graph):
    order = graph.canonical_permutation(sh="fl", color=colours)
    m = len(order)
    lab = [0] * m
    for k, v in enumerate(order):
        lab[v] = k
    cols = [0] * m
    for v, c in enumerate(colours):
        cols[lab[v]] = c
    return m, tuple(cols), tuple(sorted(lab[a] * m + lab[b] for a, b in graph.get_edgelist()))


def _same_partition(keys_a, keys_b):
    """keys_a[i] == keys_a[j] exactly when keys_b[i] == keys_b[j]."""
    first_a, first_b = {}, {}
    return [first_a.setdefault(k, i) for i, k in enumerate(keys_a)] == [first_b.setdefault(k, i) for i, k in
                                                                        enumerate(keys_b)]


@pytest.mark.parametrize("array_arcs", [0, V.VIEW_ARRAY_ARCS])
@pytest.mark.parametrize("patterns, n", CASES, ids=[f"{'|'.join(p)}@{n}" for p, n in CASES])
def test_views_match_the_views_built_arc_by_arc(patterns, n, array_arcs, monkeypatch):
    monkeypatch.setattr(V, "VIEW_ARRAY_ARCS", array_arcs)
    graphs = _graphs(patterns, n)
    conn = analyze_connectivity(graphs)
    nb = V.Neighbourhoods(graphs)
    assert nb.arc_arrays() is None  # outside the exact test
    nb.exact_views = True
    if nb.labels is not None:
        assert nb.arc_arrays() is None
        pytest.skip("labelled arcs: views built arc by arc, as before")
    if array_arcs == 0:
        assert nb.arc_arrays() is not None
    forms, reference_forms = [], []
    for diameter in sorted({2, int(conn.diameter)}):
        for r in range(n):
            view = V._RootedView(nb, r, diameter)
            colours, graph = _reference_view(nb, r, diameter)
            assert view.colours == colours
            assert view.graph.vcount() == graph.vcount()
            assert sorted(view.graph.get_edgelist()) == sorted(graph.get_edgelist())
            assert view.automorphism_order() == graph.count_automorphisms(sh="fl", color=colours)
            lab, digest = view.canonical()
            ref = V._RootedView.__new__(V._RootedView)
            ref.n, ref.graph, ref.colours = n, graph, colours
            assert (lab, digest) == ref.canonical()
            forms.append((diameter, view.canonical_form()[1]))
            reference_forms.append((diameter, _reference_form(colours, graph)))
    assert _same_partition(forms, reference_forms)


@pytest.mark.parametrize("patterns, n", CASES, ids=[f"{'|'.join(p)}@{n}" for p, n in CASES])
def test_the_search_gives_the_ball(patterns, n):
    nb = V.Neighbourhoods(_graphs(patterns, n))
    if nb.labels is not None:
        pytest.skip("labelled arcs: the arc-by-arc ball only")
    nb.exact_views = True
    for r in range(n):
        for radius in (0, 1, 2, 5):
            assert nb.in_ball_by_search(r, radius) == nb.in_ball(r, radius)


@pytest.mark.parametrize("patterns, n", CASES + [(["strided(8) + offsets {-5, 9}"], 312)],
                         ids=[f"{'|'.join(p)}@{n}" for p, n in CASES + [(["strided(8) + offsets {-5, 9}"], 312)]])
def test_the_decision_is_the_same_with_and_without_arrays(patterns, n, monkeypatch):
    graphs = _graphs(patterns, n)
    conn = analyze_connectivity(graphs)
    grp = symmetry_group(graphs)
    st = pattern_structure(graphs)
    out = {}
    for array_arcs in (0, 10 ** 12):
        monkeypatch.setattr(V, "VIEW_ARRAY_ARCS", array_arcs)
        for certificate in (False, True):
            dec = V.decide_views(graphs, int(conn.diameter), int(grp.order), grp.generators, st.preserves,
                                 certificate=certificate)
            out[array_arcs, certificate] = (dec.sufficient, dec.witness, dec.certificate, dec.reason)
    assert out[0, False] == out[10 ** 12, False] and out[0, True] == out[10 ** 12, True]


def test_isomorphic_views_of_a_shared_digraph_have_equal_forms():
    """Two roots of window(2) cyclic (a rotation maps one view onto the other): equal canonical forms by arrays,
    and a root of another pattern's view (different arcs) a different one."""
    n = 16
    V.VIEW_ARRAY_ARCS, saved = 0, V.VIEW_ARRAY_ARCS
    try:
        nbs = [V.Neighbourhoods(_graphs([p], n)) for p in
               ("window(2) cyclic", "window(1) cyclic + offsets {2, -2} cyclic", "offsets {1, 3} cyclic")]
        for nb in nbs:
            nb.exact_views = True
        forms = {V._RootedView(nbs[0], r, 4).canonical_form()[1] for r in range(n)}
        assert len(forms) == 1 and isinstance(next(iter(forms))[2], bytes)
        assert V._RootedView(nbs[1], 0, 4).canonical_form()[1] in forms  # the same graph as window(2) cyclic
        assert V._RootedView(nbs[2], 0, 4).canonical_form()[1] not in forms
    finally:
        V.VIEW_ARRAY_ARCS = saved


@pytest.mark.parametrize("seed", range(60))
def test_bliss_does_not_depend_on_the_order_of_the_arcs(seed):
    rnd = random.Random(seed)
    n = rnd.randint(3, 30)
    p = rnd.choice((0.1, 0.2, 0.4))
    edges = [(u, v) for u in range(n) for v in range(n) if u != v and rnd.random() < p]
    colours = [rnd.randint(0, 2) for _ in range(n)]
    shuffled = edges[:]
    rnd.shuffle(shuffled)
    a, b = igraph.Graph(n=n, edges=edges, directed=True), igraph.Graph(n=n, edges=shuffled, directed=True)
    assert a.canonical_permutation(sh="fl", color=colours) == b.canonical_permutation(sh="fl", color=colours)
    assert a.automorphism_group(sh="fl", color=colours) == b.automorphism_group(sh="fl", color=colours)
    assert a.count_automorphisms(sh="fl", color=colours) == b.count_automorphisms(sh="fl", color=colours)


LABELLED = [(["window(1)", "global(1)"], 11), (["window(1) cyclic", "window(2) cyclic"], 12),
            (["window(2)", "strided(3)"], 14)]


@pytest.mark.parametrize("patterns, n", LABELLED, ids=[f"{'|'.join(p)}@{n}" for p, n in LABELLED])
def test_views_built_arc_by_arc_read_their_own_arcs(patterns, n):
    """A view built from its arc list (labelled arcs, subdivided) reads that list for its canonical form and digest:
    the same form and digest as from igraph's list of the graph's arcs."""
    graphs = _graphs(patterns, n)
    nb = V.Neighbourhoods(graphs)
    assert nb.labels is not None
    for diameter in (2, 3):
        for r in range(n):
            view = V._RootedView(nb, r, diameter)
            assert view.edges is not None and sorted(view.edges) == sorted(view.graph.get_edgelist())
            ref = V._RootedView.__new__(V._RootedView)
            ref.n, ref.graph, ref.colours, ref.arcs = view.n, view.graph, view.colours, None
            assert view.canonical() == ref.canonical()
            assert view.canonical_form() == ref.canonical_form()
