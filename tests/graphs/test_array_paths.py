"""The numpy paths of the graph engine and the proof kernel's large-graph re-checks against the
plain-Python paths they replace at large n: thresholds are lowered so that small graphs take both.

Covered: the level-at-a-time BFS over compact arc arrays (against a queue BFS), the twin classes'
cheap keys from the code arrays, membership tests on the sorted codes (reflection and moved points),
the probe loop's bounds (numpy) against the exhaustive eccentricities, and its early stop (bounds
that hold, a reason naming the size that fits)."""
from __future__ import annotations

import random
from collections import deque

import pytest

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs import connectivity as conn_mod
from uapcheck.graphs import symmetry as sym_mod
from uapcheck.graphs.arc_arrays import bfs, out_csr, union_codes
from uapcheck.graphs.connectivity import verify_connectivity
from uapcheck.graphs.symmetry import _structure, _twin_classes
from uapcheck.spec import Blocks, Global, Offsets, PatternUnion, RandomPattern, Star, Window

PATTERNS = [
    PatternUnion((Window(1), RandomPattern(2, seed=1))),
    PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
    PatternUnion((Window(2), Global(1), RandomPattern(1, seed=5))),
    Window(2, cyclic=True), Star(), Blocks(4), PatternUnion((Blocks(3), Global(1))),
    Offsets((1, -2), cyclic=True), RandomPattern(1, seed=3),
]


def queue_bfs(graphs, n, sources, radius=None):
    outs = [set() for _ in range(n)]
    for g in graphs:
        for j, i in g.arcs():
            outs[j - 1].add(i - 1)
    dist = [-1] * n
    q = deque()
    for s in sources:
        dist[s] = 0
        q.append(s)
    while q:
        a = q.popleft()
        if radius is not None and dist[a] >= radius:
            continue
        for b in outs[a]:
            if dist[b] < 0:
                dist[b] = dist[a] + 1
                q.append(b)
    return dist


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_array_bfs_is_the_queue_bfs(pattern):
    rng = random.Random(11)
    for n in (7, 23, 40):
        graphs = [build_graph(pattern, n), build_graph(Window(1), n)][: rng.choice((1, 2))]
        indptr, targets = out_csr(union_codes(graphs), n)
        for _ in range(10):
            sources = rng.sample(range(n), rng.choice((1, 1, 3)))
            radius = rng.choice((None, 0, 1, 2, 5))
            got = bfs(indptr, targets, n, sources, radius=radius).tolist()
            assert got == queue_bfs(graphs, n, sources, radius), (n, sources, radius)
            stop = rng.randrange(n)
            early = bfs(indptr, targets, n, sources, stop=stop).tolist()
            full = queue_bfs(graphs, n, sources)
            assert early[stop] == full[stop]


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_twin_classes_from_arrays_agree(monkeypatch, pattern):
    for n in (6, 17, 32):
        st = _structure([build_graph(pattern, n)], None, "none")
        if not st.codes:
            continue
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 10 ** 12)
        plain = _twin_classes(st)
        st = _structure([build_graph(pattern, n)], None, "none")
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 0)
        assert _twin_classes(st) == plain, n


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_membership_on_arrays_agrees(monkeypatch, pattern):
    rng = random.Random(5)
    n = 24
    g = build_graph(pattern, n)
    perms = [tuple(range(n, 0, -1)), tuple(list(range(2, n + 1)) + [1])]
    for _ in range(30):
        p = list(range(1, n + 1))
        if rng.random() < 0.5:
            a, b = rng.sample(range(n), 2)
            p[a], p[b] = p[b], p[a]
        else:
            rng.shuffle(p)
        perms.append(tuple(p))
    arcs = set(g.arcs())
    for perm in perms:
        want = all((perm[j - 1], perm[i - 1]) in arcs for j, i in arcs)
        for threshold in (10 ** 12, 0):
            monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", threshold)
            assert _structure([g], None, "none").preserves(perm) == want, (perm, threshold)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_groups_agree_on_both_paths(monkeypatch, pattern):
    for n in (9, 30):
        out = []
        for threshold in (10 ** 12, 0):
            monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", threshold)
            grp = symmetry_group([build_graph(pattern, n)])
            out.append((grp.order, grp.name, grp.generators, grp.structure))
        assert out[0] == out[1]


@pytest.mark.parametrize("seed", range(6))
def test_probe_bounds_are_the_exhaustive_diameter(seed):
    # the numpy probe loop decides the same diameter as every eccentricity computed one by one
    n = 300
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(1, seed=seed))), n)]
    c = analyze_connectivity(graphs, use_symmetry=False, max_probes=10 ** 6)
    dists = [queue_bfs(graphs, n, [v]) for v in range(n)]
    assert c.diameter == max(max(d) for d in dists)
    assert verify_connectivity(graphs, c)


def test_a_hopeless_probe_loop_stops_early_with_bounds_and_the_size_that_fits(monkeypatch):
    # every eccentricity would take more than the limit, and the probes settle too few positions to
    # close within theirs: the loop stops after 16 probes with proved bounds (re-checked) and a
    # reason that names the size that fits (the seeded searches that take over here, Theorem F131, left out as when
    # a search is deeper than their bit-parallel levels; tests/graphs/test_seeded_diameter.py covers them)
    n = 2000
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), n)]
    monkeypatch.setattr(conn_mod, "EXHAUSTIVE_MAX_WORK", 10_000)
    monkeypatch.setattr(conn_mod, "_seeded_diameter", lambda *args: None)
    c = analyze_connectivity(graphs, max_probes=40)
    assert c.diameter is None and c.probes_used == 16
    fit = conn_mod.fitting_n(n, graphs[0].num_arcs, 10_000)
    assert f"exact diameter of a pattern of this density is decided up to about n = {fit:,}" in c.reason
    assert verify_connectivity(graphs, c)
    true_diameter = max(max(queue_bfs(graphs, n, [v])) for v in range(n))
    assert c.lower <= true_diameter <= c.upper
    # with the default probe limit the same graph closes: the early stop is a resource decision only
    monkeypatch.undo()
    assert analyze_connectivity(graphs).diameter == true_diameter


def test_fitting_n_is_the_largest_size_within_the_work():
    for n, arcs, work in ((65536, 262138, 300_000_000), (1000, 4000, 10 ** 6)):
        fit = conn_mod.fitting_n(n, arcs, work)
        per = arcs / n
        assert fit * fit * per <= work < (fit + 1) * (fit + 1) * per


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_lazy_neighbours_are_the_lists(pattern):
    from uapcheck.graphs.build import LazyNeighbours, neighbour_lists
    g = build_graph(pattern, 29)
    if g.complete:
        return
    for mode in ("out", "in"):
        lazy = LazyNeighbours(g, mode)
        assert len(lazy) == 29 and list(lazy) == neighbour_lists(g, mode)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_view_decisions_agree_with_lazy_and_built_lists(pattern):
    # the rooted-view decision reads the same lists whether they are fetched per position or built
    from uapcheck.graphs.build import neighbour_lists
    from uapcheck.graphs.connectivity import analyze_connectivity as conn
    from uapcheck.graphs.symmetry import pattern_structure
    from uapcheck.graphs.views import decide_views
    out = []
    for built in (False, True):
        g = build_graph(pattern, 26)
        c = conn([g])
        if not c.strongly_connected or c.diameter is None or g.complete:
            return
        if built:
            neighbour_lists(g, "in")
            neighbour_lists(g, "out")
        grp = symmetry_group([g])
        d = decide_views([g], int(c.diameter), int(grp.order), grp.generators, pattern_structure([g]).preserves)
        out.append((d.sufficient, d.witness, d.certificate, d.reason))
    assert out[0] == out[1]


@pytest.mark.parametrize("seed", range(4))
def test_probe_bounds_on_arrays_agree(monkeypatch, seed):
    # the probes' bound combined in Python and with numpy: the same verdict, tampered or not
    from dataclasses import replace
    n = 120
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(1, seed=seed))), n)]
    monkeypatch.setattr(conn_mod, "EXHAUSTIVE_MAX_WORK", 0)  # the probes close the bounds themselves
    c = analyze_connectivity(graphs, use_symmetry=False, max_probes=10 ** 6)
    ub = c.upper_bound
    assert ub.method == "bounds" and len(ub.probes) > 2
    cases = [ub, replace(ub, bound=ub.bound - 1), replace(ub, probes=ub.probes[:1])]
    for case in cases:
        got = []
        for threshold in (10 ** 12, 0):
            monkeypatch.setattr(conn_mod, "NUMPY_BOUNDS_ENTRIES", threshold)
            got.append(conn_mod._probe_bounds_hold(build_graph(PatternUnion((Window(1), RandomPattern(1, seed=seed))), n), case))
        assert got[0] == got[1]
    monkeypatch.setattr(conn_mod, "NUMPY_BOUNDS_ENTRIES", 0)
    assert conn_mod._probe_bounds_hold(graphs[0], ub)
    assert not conn_mod._probe_bounds_hold(graphs[0], cases[1])


@pytest.mark.parametrize("pattern", PATTERNS + [PatternUnion((Window(1), Global(1)))], ids=str)
def test_invariant_colours_on_arrays_are_the_same_colouring(monkeypatch, pattern):
    from uapcheck.graphs.build import to_igraph
    from uapcheck.graphs.symmetry import _invariant_colours
    for n in (9, 30, 64):
        g = build_graph(pattern, n)
        if g.complete:
            continue
        graph = to_igraph(g)
        for colours in ([0] * n, [v % 3 for v in range(n)], [int(v == 4) for v in range(n)]):
            got = []
            for threshold in (10 ** 9, 0):
                monkeypatch.setattr(sym_mod, "NUMPY_INVARIANT_VERTICES", threshold)
                got.append(_invariant_colours(graph, colours))
            assert got[0] == got[1], (n, colours)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_labelled_groups_agree_with_numpy_decoding(monkeypatch, pattern):
    # edge order (ascending codes once decoded with numpy) must match the labels handed to BLISS
    from uapcheck.graphs import build as build_mod
    n = 24
    out = []
    for threshold in (10 ** 12, 0):
        monkeypatch.setattr(build_mod, "NUMPY_DECODE_ARCS", threshold)
        graphs = [build_graph(pattern, n), build_graph(Window(2), n)]
        grp = symmetry_group(graphs, [None, "toeplitz"])
        out.append((grp.order, grp.name, grp.structure))
    assert out[0] == out[1]


@pytest.mark.parametrize("pattern", PATTERNS + [Offsets((1, 2)), PatternUnion((Window(1), RandomPattern(2, seed=1)))],
                         ids=str)
def test_bottom_up_levels_give_the_same_distances(pattern):
    """`bfs` with the reversed arcs (late levels expanded bottom-up) against the plain top-down search
    and a queue: every source set, radius and stop tried."""
    from uapcheck.graphs.arc_arrays import graph_csr
    rng = random.Random(3)
    for n in (9, 40, 300):
        g = build_graph(pattern, n)
        if g.complete:
            continue
        out, into = graph_csr(g, "out"), graph_csr(g, "in")
        for _ in range(12):
            sources = rng.sample(range(n), rng.choice((1, 1, 2, 5)))
            radius = rng.choice((None, None, 1, 3))
            stop = rng.choice((None, rng.randrange(n)))
            for forward, backward in ((out, into), (into, out)):
                plain = bfs(*forward, n, sources, radius=radius, stop=stop)
                both = bfs(*forward, n, sources, radius=radius, stop=stop, reverse=backward)
                assert plain.tolist() == both.tolist(), (n, sources, radius, stop)
            if radius is None and stop is None:
                assert bfs(*out, n, sources, reverse=into).tolist() == queue_bfs([g], n, sources)


@pytest.mark.parametrize("pattern", PATTERNS + [PatternUnion((Blocks(8), Global(2))), Star(), Global(3),
                                                PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))], ids=str)
def test_cheap_key_prefilter_gives_the_same_buckets(pattern, monkeypatch):
    """Positions that share no (out-degree, sum) pair are never sorted on all four cheap keys: the same
    colliding groups, in the same order, as the full sort."""
    for n in (30, 64, 200, 1000):
        g = build_graph(pattern, n)
        if g.complete:
            continue
        prefiltered = list(sym_mod._cheap_buckets_arrays(g))
        monkeypatch.setattr(sym_mod, "PREFILTER_MAX_N", 0)
        assert list(sym_mod._cheap_buckets_arrays(g)) == prefiltered, n
        monkeypatch.undo()


def test_first_occurrence_ids_are_the_dict_numbering():
    """Classes of equal rows numbered by first occurrence (the plain `dict.setdefault` numbering),
    with their sizes and first rows: through one combined key, and through the lexsort when the
    columns' ranges do not fit one int64."""
    import numpy as np
    rng = np.random.default_rng(1)
    cases = [[rng.integers(-3, int(rng.integers(1, 20)), size).astype(np.int64) for _ in range(k)]
             for size, k in ((1, 1), (7, 2), (60, 3), (299, 5), (100, 4))]
    cases.append([np.array([0, 2 ** 40, 5, 0]), np.array([0, 2 ** 40, 5, 0]), np.array([1, 1, 1, 1])])
    assert sym_mod._one_key(cases[-1]) is None
    for cols in cases:
        ids: dict = {}
        plain = [ids.setdefault(t, len(ids)) for t in zip(*[c.tolist() for c in cols])]
        got, sizes, firsts = sym_mod._first_occurrence_ids(cols)
        assert got.tolist() == plain
        assert sizes.tolist() == [plain.count(i) for i in range(len(ids))]
        assert firsts.tolist() == [plain.index(i) for i in range(len(ids))]


@pytest.mark.parametrize("pattern", PATTERNS + [Offsets((1, 2))], ids=str)
def test_graph_csr_lists_each_positions_neighbours(pattern):
    from uapcheck.graphs.arc_arrays import graph_csr
    for n in (9, 64):
        g = build_graph(pattern, n)
        if g.complete:
            continue
        for mode in ("out", "in"):
            indptr, targets = graph_csr(g, mode)
            got = [targets[indptr[v]:indptr[v + 1]].tolist() for v in range(n)]
            want = [sorted((i if mode == "out" else j) - 1 for j, i in g.arcs() if (j if mode == "out" else i) == v + 1)
                    for v in range(n)]
            assert got == want, mode
