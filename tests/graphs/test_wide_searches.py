"""The faster searches behind Theorems F131 and F132 (docs/theory.md §11.3, §11.9) against plain references.

- `arc_arrays.wide_search` (256 sources at once, a row of uint64 words per position, only the current level kept)
  against `bit_levels` 64 sources at a time and against queue BFS distances;
- `arc_arrays.spread_lowered` (a lowered bound spread from the lowered positions only) against
  `connectivity._propagated` (passes over every arc until nothing changes);
- the kernel's `_kernel_eccentricities` (256 seeds per search) against queue BFS;
- `view_refine.far_search` (seed passes, then the candidates left) against one search per root, and its positions of
  eccentricity D against the exact eccentricities;
- Theorem F131's loop searching the next batches ahead (`connectivity.SEED_AHEAD`) against one batch at a time (the
  same certificate), and the kernel's capped searches;
- `view_refine.refine` against a reference refinement written with np.add.at and np.unique (the same colours,
  rounds and keys), and `view_refine.marked_refinement` (only the positions near the far set recomputed) against
  both;
- the transposition probe restricted to the pairs that can pass (`views._possible_pairs`) against the probe over
  every pair, and `views._twin_pairs` against every pair whose swap keeps each head's neighbourhoods of a and b.
"""
from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from breadth_first import distances
from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.graphs import connectivity as conn_mod
from uapcheck.graphs.arc_arrays import bit_levels, spread_lowered, wide_search
from uapcheck.graphs.build import PatternGraph
from uapcheck.graphs.view_refine import ArcArrays, _mix, far_search, marked_refinement, refine
from uapcheck.graphs.views import Neighbourhoods, _candidate_pairs, _possible_pairs, _transposition_bad, _twin_pairs
from uapcheck.graphs.views import PROBE_WORK, probe_transpositions
from uapcheck.spec import PatternUnion, RandomPattern, Window

from .test_views import _spec


def _csr(n: int, arcs):
    """In-CSR (indptr, tails) of arcs (a, b), a -> b: tails[indptr[b]:indptr[b + 1]] are the a's of b."""
    arcs = sorted(set(arcs))
    heads = np.array([b for _, b in arcs], dtype=np.int64)
    tails = np.array([a for a, _ in arcs], dtype=np.int64)
    order = np.lexsort((tails, heads))
    heads, tails = heads[order], tails[order]
    return np.concatenate(([0], np.cumsum(np.bincount(heads, minlength=n)))).astype(np.int64), tails


def _bfs(n: int, arcs, s: int) -> list[int]:
    outs: list[list[int]] = [[] for _ in range(n)]
    for a, b in set(arcs):
        outs[a].append(b)
    return distances(outs, s)


@pytest.mark.parametrize("seed", range(60))
def test_wide_search_gives_bit_levels_and_bfs_distances(seed):
    rnd = random.Random(seed)
    n = rnd.randint(1, 400)
    skew = rnd.random() < 0.3  # a few positions with many in-arcs (global tokens): the rest rows of _padded_rows
    arcs = [(rnd.randrange(n), rnd.randrange(min(n, 2)) if skew and rnd.random() < 0.2 else rnd.randrange(n))
            for _ in range(rnd.randint(0, 5 * n))]
    indptr, tails = _csr(n, arcs)
    sources = rnd.sample(range(n), min(n, rnd.randint(1, 256)))
    last = rnd.choice([None, rnd.randint(0, 6)])
    first, mask, level = wide_search(indptr, tails, n, sources, last)
    for k, s in enumerate(sources):
        dist = _bfs(n, arcs, s)
        ecc = max(dist) if min(dist) >= 0 else -1
        assert first[k] == (ecc if 0 <= ecc <= level else -1)
        # the mask of the last level: bit k at v iff d(s -> v) <= level
        got = (mask[:, k // 64] >> np.uint64(k % 64)) & np.uint64(1)
        assert got.tolist() == [int(0 <= d <= level) for d in dist]
    assert last is None or level <= last
    for k0 in range(0, len(sources), 64):  # and bit_levels' own last level, 64 sources at a time
        masks = bit_levels(indptr, tails, n, sources[k0:k0 + 64], 10 ** 6)
        at = masks[min(level, len(masks) - 1)]
        word = mask[:, k0 // 64]
        assert np.array_equal(word, at)


@pytest.mark.parametrize("seed", range(40))
def test_spread_lowered_is_the_fixed_point_of_full_passes(seed):
    rnd = random.Random(seed)
    n = rnd.randint(2, 300)
    arcs = {(v, (v + 1) % n) for v in range(n)} | {(rnd.randrange(n), rnd.randrange(n)) for _ in range(2 * n)}
    out_ptr, out_to = _csr(n, [(b, a) for a, b in arcs])  # out-CSR: the z's of w for w -> z
    in_ptr, in_from = _csr(n, arcs)
    ub = np.full(n, 10 ** 6, dtype=np.int64)
    for v in rnd.sample(range(n), rnd.randint(1, n)):
        ub[v] = rnd.randint(0, 40)
    ub = conn_mod._propagated(ub, out_ptr, out_to)
    lowered = rnd.sample(range(n), rnd.randint(1, n))
    new = ub.copy()
    new[lowered] = np.maximum(0, new[lowered] - np.array([rnd.randint(0, 5) for _ in lowered]))
    want = conn_mod._propagated(new.copy(), out_ptr, out_to)
    spread_lowered(new, [v for v in lowered if new[v] < ub[v]], in_ptr, in_from)
    assert np.array_equal(new, want)


@pytest.mark.parametrize("seed", range(20))
def test_kernel_eccentricities_256_at_a_time(seed):
    rnd = random.Random(seed)
    n = rnd.randint(2, 500)
    arcs = {(v, (v + 1) % n) for v in range(n)} | {(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(0, 3 * n))}
    graph = PatternGraph(n, frozenset(a * n + b for a, b in arcs))
    src, dst = conn_mod._arc_arrays(graph)
    from uapcheck.graphs.build import reversed_code_array
    into = conn_mod._InArcs(src, dst, n, reversed_code_array(graph))
    layout = conn_mod._kernel_columns(into, n)
    seeds = rnd.sample(range(1, n + 1), min(n, rnd.randint(1, 256)))
    got = conn_mod._kernel_eccentricities(seeds, layout, n)
    assert got == [max(_bfs(n, arcs, s - 1)) for s in seeds]


def _in_distances(graphs, i: int) -> np.ndarray:
    return ArcArrays(graphs).in_distances(i)


@pytest.mark.parametrize("n,r,seed", [(1500, 1, 0), (3000, 2, 3), (5000, 2, 1), (6000, 1, 4)])
def test_far_search_gives_the_positions_at_distance_d(n, r, seed):
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(r, seed=seed))), n)]
    conn = analyze_connectivity(graphs)
    d = int(conn.diameter)
    bound = conn.upper_bound.seeded_bound if conn.upper_bound.method == "seeded" else conn.upper_bound.eccentricities
    arrays = ArcArrays(graphs)
    got = far_search(arrays, bound, d, range(n))
    assert got.far is not None
    ecc = np.array([int(arrays.out_distances(v).max()) for v in range(n)])
    assert np.array_equal(got.eccentric, ecc == d)
    for i in range(n):
        dist = arrays.in_distances(i)
        assert sorted(got.far.get(i, [])) == np.flatnonzero(dist == d).tolist()


def test_far_search_seeds_where_many_candidates_remain():
    # b = D + (whatever) everywhere but the probes': every position a candidate; the seed passes lower most bounds
    n = 8000
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(2, seed=5))), n)]
    conn = analyze_connectivity(graphs)
    d = int(conn.diameter)
    bound = np.asarray(conn.upper_bound.seeded_bound if conn.upper_bound.method == "seeded"
                       else conn.upper_bound.eccentricities)
    arrays = ArcArrays(graphs)
    got = far_search(arrays, bound, d, range(n))
    assert got.seeded > 0 and got.searched + got.seeded < got.candidates
    eccentric = np.flatnonzero(got.eccentric)
    for v in eccentric.tolist():
        assert int(arrays.out_distances(v).max()) == d
    # every position outside is within D − 1 of all: its far set is empty, so the roots' far sets name only these
    assert {v for sources in got.far.values() for v in sources} <= set(eccentric.tolist())


def _reference_refine(arrays: ArcArrays, dist, diameter: int):
    """view_refine.refine as first written: the arcs into the ball taken out, np.add.at sums, np.unique counts."""
    n = arrays.n
    ball = (dist >= 0) & (dist <= diameter - 1)
    sel = ball[arrays.dst]
    src, dst, lab = arrays.src[sel], arrays.dst[sel], arrays.label[sel]
    colours = _mix(np.where(ball, dist, diameter).astype(np.uint64) + np.uint64(1))
    lab_in = _mix(lab * np.uint64(2) + np.uint64(0x51ED27))
    lab_out = _mix(lab * np.uint64(2) + np.uint64(0x2545F491))
    count, rounds = len(np.unique(colours)), 0
    while True:
        rounds += 1
        ins = np.zeros(n, dtype=np.uint64)
        outs = np.zeros(n, dtype=np.uint64)
        np.add.at(ins, dst, _mix(colours[src] ^ lab_in))
        np.add.at(outs, src, _mix(colours[dst] ^ lab_out))
        new = _mix(colours ^ _mix(ins + np.uint64(0x9E3779B97F4A7C15)) ^ (_mix(outs) * np.uint64(3)))
        if len(np.unique(new)) <= count:
            break
        colours, count = new, len(np.unique(new))
    digest = hashlib.sha256(np.sort(colours).tobytes() + f"|{rounds}".encode()).hexdigest()
    return colours, rounds, count == n, digest


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)"], 300), (["window(1) + random(1, seed=2)"], 500),
                                        (["window(2)", "random(2, seed=3)"], 200), (["window(1)", "global(1)"], 120),
                                        (["offsets {-1, 3} cyclic", "random(1, seed=4)"], 150)])
def test_refine_is_the_reference_refinement(patterns, n):
    graphs = _graphs(patterns, n)
    arrays = ArcArrays(graphs)
    conn = analyze_connectivity(graphs)
    d = int(conn.diameter)
    rnd = random.Random(n)
    for root in rnd.sample(range(n), 12):
        for radius in (d - 1, max(0, d - 3), 1):  # balls of most arcs (refined over all of them) and of few
            dist = arrays.in_distances(root, radius)
            got = refine(arrays, root, dist, radius + 1)
            colours, rounds, discrete, key = _reference_refine(arrays, dist, radius + 1)
            assert np.array_equal(got.colours, colours) and (got.rounds, got.discrete, got.key) == (rounds, discrete, key)
    for far in ([0], [1, 5], rnd.sample(range(n), 7)):
        got = marked_refinement(arrays, far, d)
        dist = np.zeros(n, dtype=np.int64)
        dist[far] = -1
        colours, rounds, discrete, key = _reference_refine(arrays, dist, d)
        assert np.array_equal(got.colours, colours) and (got.rounds, got.discrete, got.key) == (rounds, discrete, key)


@pytest.mark.parametrize("seed", range(40))
def test_marked_refinement_near_the_far_set_is_the_whole_refinement(seed):
    # marked_refinement computes only the positions within t steps of U in round t, the rest read off the rounds of
    # the unmarked graph made once per arrays: the same colours, rounds and key as refining all of Γ^U, for random
    # digraphs of one to three heads (labels), far sets of any size, one after another on the same arrays
    rnd = random.Random(seed)
    n = rnd.randint(2, 300)
    heads = []
    for _ in range(rnd.randint(1, 3)):
        arcs = {(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(0, 4 * n))}
        if rnd.random() < 0.5:
            arcs |= {(v, (v + 1) % n) for v in range(n)}
        heads.append(PatternGraph(n, frozenset(a * n + b for a, b in arcs)))
    arrays = ArcArrays(heads)
    d = rnd.randint(2, 9)
    for _ in range(6):
        far = rnd.sample(range(n), rnd.choice([1, 1, 2, 3, rnd.randint(1, n)]))
        got = marked_refinement(arrays, far, d)
        dist = np.zeros(n, dtype=np.int64)
        dist[far] = -1
        whole = refine(arrays, -1, dist, d)
        colours, rounds, discrete, key = _reference_refine(arrays, dist, d)
        for view in (got, whole):
            assert np.array_equal(view.colours, colours)
            assert (view.rounds, view.discrete, view.key) == (rounds, discrete, key)
        assert np.array_equal(got.ball, whole.ball) and got.arcs == whole.arcs


def _graphs(patterns, n: int):
    spec = _spec(patterns, n)
    return [build_graph(h.pattern, n, {}) for h in spec.heads]


@pytest.mark.parametrize("patterns,n", [(["window(1)"], 12), (["blocks(2)", "window(1)"], 14), (["window(2) cyclic"], 13),
                                        (["star"], 9), (["blocks(3)"], 12), (["window(1) + random(1, seed=0)"], 16),
                                        (["window(1)", "global(1)"], 10), (["dilated(2, 2)"], 12)])
def test_twin_pairs_hold_every_pair_whose_swap_keeps_the_neighbourhoods(patterns, n):
    graphs = _graphs(patterns, n)
    nb = Neighbourhoods(graphs)
    twins = _twin_pairs(nb)
    assert twins is not None
    for a in range(n):
        for b in range(a + 1, n):
            keeps = all(frozenset(b if k == a else a if k == b else k for k in nb.head_set(h, a)) == nb.head_set(h, b)
                        for h in range(nb.num_heads))
            if keeps:
                assert (a, b) in twins


@pytest.mark.parametrize("patterns,n", [(["window(3) + global(2) + random(3, seed=0)"], 64),
                                        (["window(1) + random(1, seed=3)"], 40), (["window(2)", "random(1, seed=1)"], 48),
                                        (["window(1) + random(2, seed=1)"], 300), (["window(1)", "global(1)"], 30),
                                        (["blocks(4)", "window(1) + random(1, seed=2)"], 60)])
def test_the_restricted_probe_finds_the_first_witness_of_the_whole_probe(patterns, n):
    from uapcheck.graphs.symmetry import pattern_structure
    graphs = _graphs(patterns, n)
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected or conn.diameter is None or conn.diameter < 2:
        pytest.skip("not strongly connected or complete")
    d = int(conn.diameter)
    arrays = ArcArrays(graphs)
    ecc = np.array([int(arrays.out_distances(v).max()) for v in range(n)])
    in_group = pattern_structure(graphs).preserves
    nb = Neighbourhoods(graphs)
    whole = probe_transpositions(nb, d, in_group, work=60 * PROBE_WORK)
    restricted = probe_transpositions(Neighbourhoods(graphs), d, in_group, work=60 * PROBE_WORK, possible=ecc >= d)
    assert (whole is None) == (restricted is None)
    if whole is not None:
        assert (whole.position, whole.permutation) == (restricted.position, restricted.permutation)
    pairs = _possible_pairs(nb, ecc >= d)
    assert pairs is not None
    listed = set(pairs)
    order = [p for p in _candidate_pairs(nb) if p in listed]
    assert order == pairs  # the same order as the whole probe's
    for a, b in _candidate_pairs(nb):  # every pair left out changes a position within D − 1 of every position
        if (a, b) not in listed:
            bad = _transposition_bad(nb, a, b)
            assert bad is None or any(ecc[v] < d for v in bad)


@pytest.mark.parametrize("pattern,n", [("window(1) + random(2, seed=1)", 6000), ("window(1) + random(1, seed=3)", 9000),
                                       ("window(2) + random(3, seed=2)", 12000)])
def test_seeded_diameter_searching_ahead_keeps_the_certificate(pattern, n, monkeypatch):
    # SEED_AHEAD = 1 searches exactly each batch's positions, one batch at a time (the loop as first written); searching
    # the next batches' positions ahead in one wide search must give the same seeds, bound array, diameter and pair
    graphs = [build_graph(_spec([pattern], n).heads[0].pattern, n, {})]
    union = graphs[0]
    out = []
    for ahead in (1, conn_mod.SEED_AHEAD):
        monkeypatch.setattr(conn_mod, "SEED_AHEAD", ahead)
        search = conn_mod._ArraySearch(union)
        bounds = conn_mod._ArrayBounds(n, search.degree())
        c = conn_mod._seeded_diameter(union, search, bounds, 0, None, 1e9, 0)
        out.append((c.diameter, c.lower_pair, c.upper_bound.seeds, c.upper_bound.seeded_bound.tolist()))
    assert out[0] == out[1]
    import igraph as ig
    g = ig.Graph(n=n, edges=[(j - 1, i - 1) for j, i in union.arcs()], directed=True)
    assert out[0][0] == g.diameter(directed=True)


@pytest.mark.parametrize("seed", range(20))
def test_kernel_eccentricities_with_a_cap_reject_what_is_above_it(seed):
    rnd = random.Random(100 + seed)
    n = rnd.randint(2, 300)
    arcs = {(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(0, 3 * n))}
    if rnd.random() < 0.7:
        arcs |= {(v, (v + 1) % n) for v in range(n)}
    graph = PatternGraph(n, frozenset(a * n + b for a, b in arcs))
    src, dst = conn_mod._arc_arrays(graph)
    from uapcheck.graphs.build import reversed_code_array
    layout = conn_mod._kernel_columns(conn_mod._InArcs(src, dst, n, reversed_code_array(graph)), n)
    seeds = rnd.sample(range(1, n + 1), min(n, rnd.randint(1, 256)))
    want = [max(d) if min(d) >= 0 else None for d in (_bfs(n, arcs, s - 1) for s in seeds)]
    cap = rnd.choice([None, rnd.randint(0, 30)])
    got = conn_mod._kernel_eccentricities(seeds, layout, n, cap)
    assert got == (None if any(w is None or (cap is not None and w > cap) for w in want) else want)


@pytest.mark.parametrize("seed", range(30))
def test_far_search_top_picks_are_the_stable_argsort(seed):
    from uapcheck.graphs.view_refine import _top
    rnd = random.Random(seed)
    n = rnd.randint(1, 3000)
    score = np.array([rnd.choice([0.0, 1.0, 2.5, float(rnd.randint(0, 40))]) for _ in range(n)])
    for k in (1, 2, rnd.randint(1, n), n, n + 3, 256):
        assert _top(score, k).tolist() == np.argsort(-score, kind="stable")[:k].tolist()


@pytest.mark.parametrize("seed", range(30))
def test_searches_read_whole_offsets_as_shifts_with_the_same_levels(seed):
    """Arcs v + c → v over a whole range of v (a window's offsets) are read as slices of rows, not gathered
    (`arc_arrays._shifts`); an offset missing at some v inside its range stays gathered, and loops are dropped. The
    wide search, bit_levels, the kernel's search and the bound's fixed point (`connectivity._propagated`) give what a
    queue BFS and a plain fixed point give."""
    from uapcheck.graphs.arc_arrays import _padded_rows
    rnd = random.Random(seed)
    n = rnd.randint(8, 400)
    arcs = set()
    for c in rnd.sample([-3, -2, -1, 1, 2, 5], rnd.randint(1, 3)):
        lo, hi = max(0, -c) + rnd.randint(0, 3), min(n, n - c) - rnd.randint(0, 3)
        holes = set(rnd.sample(range(lo, hi), 1)) if hi > lo and rnd.random() < 0.3 else set()
        arcs |= {(v + c, v) for v in range(lo, hi) if v not in holes}
    arcs |= {(rnd.randrange(n), rnd.randrange(n)) for _ in range(rnd.randint(0, 2 * n))}
    arcs |= {(v, v) for v in rnd.sample(range(n), rnd.randint(0, n // 4))}
    indptr, tails = _csr(n, arcs)
    columns, rest, shifts = _padded_rows(indptr, tails, n)
    for c, lo, hi in shifts:  # each shift is whole: every v of its range, no other
        assert {v for a, v in arcs if a - v == c} == set(range(lo, hi))
    sources = rnd.sample(range(n), min(n, rnd.randint(1, 256)))
    first, mask, level = wide_search(indptr, tails, n, sources)
    for k, s in enumerate(sources):
        dist = _bfs(n, arcs, s)
        ecc = max(dist) if min(dist) >= 0 else -1
        assert first[k] == (ecc if 0 <= ecc <= level else -1)
        got = (mask[:, k // 64] >> np.uint64(k % 64)) & np.uint64(1)
        assert got.tolist() == [int(0 <= d <= level) for d in dist]
        if k < 64:
            masks = bit_levels(indptr, tails, n, [s], 10 ** 6)
            assert [int(((m >> np.uint64(0)) & np.uint64(1)).sum()) for m in masks] == [
                sum(0 <= d <= L for d in dist) for L in range(len(masks))]
    graph = PatternGraph(n, frozenset(a * n + b for a, b in arcs if a != b))
    src, dst = conn_mod._arc_arrays(graph)
    from uapcheck.graphs.build import reversed_code_array
    layout = conn_mod._kernel_columns(conn_mod._InArcs(src, dst, n, reversed_code_array(graph)), n)
    ecc, _ = conn_mod._kernel_levels([s + 1 for s in sources], layout, n)
    loopless = {(a, b) for a, b in arcs if a != b}
    want = []
    for s in sources:
        dist = _bfs(n, loopless, s)
        want.append(max(dist) if min(dist) >= 0 else -1)
    assert ecc.tolist() == want
    # the fixed point of ub(w) <= 1 + ub(z) over the arcs w -> z, from a few values
    out_ptr, out_to = _csr(n, [(b, a) for a, b in arcs])  # out-CSR: the z's of w
    ub = np.full(n, 10 ** 6, dtype=np.int64)
    for v in rnd.sample(range(n), rnd.randint(1, n)):
        ub[v] = rnd.randint(0, 40)
    plain = ub.tolist()
    while True:
        nxt = list(plain)
        for w, z in arcs:
            nxt[w] = min(nxt[w], plain[z] + 1)
        if nxt == plain:
            break
        plain = nxt
    assert conn_mod._propagated(ub, out_ptr, out_to).tolist() == plain


@pytest.mark.parametrize("patterns,n,seed", [(["window(1) + random(2, seed=1)"], 3000, 0),
                                             (["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 2000, 1),
                                             (["window(2) + global(1)", "random(2, seed=0)"], 500, 2)])
def test_near_open_counts_kept_up_to_date_are_the_fresh_bincounts(patterns, n, seed):
    """The far search's counts of open positions one and two arcs back (`view_refine._NearOpen`), updated from the
    positions that left the open set, are bit for bit the counts made afresh from the whole set."""
    from uapcheck.graphs.view_refine import _NearOpen
    arrays = ArcArrays(_graphs(patterns, n))
    rng = np.random.default_rng(seed)
    open_ = rng.random(n) < 0.9
    near = _NearOpen(arrays)
    for share in (1.0, 0.97, 0.8, 0.8, 0.5, 0.1, 0.0):
        open_ = open_ & (rng.random(n) < share)
        one, two = near.update(open_)
        fresh_one = np.bincount(arrays.dst, weights=open_[arrays.src], minlength=n)
        fresh_two = np.bincount(arrays.dst, weights=fresh_one[arrays.src], minlength=n)
        assert one.tobytes() == fresh_one.tobytes() and two.tobytes() == fresh_two.tobytes()
    with pytest.raises(AssertionError, match="joined the open set"):
        near.update(np.ones(n, dtype=bool))


@pytest.mark.parametrize("words", [1, 4])
def test_and_of_rows_is_numpy_s_reduction_and_leaves_the_rows(words):
    """`arc_arrays._and_of_rows` (halvings, the later ones in place) against np.bitwise_and.reduce down the rows, for
    even and odd lengths and strided samples; the rows read are not changed."""
    from uapcheck.graphs.arc_arrays import _and_of_rows
    rng = np.random.default_rng(words)
    for n in [*range(1, 40), 255, 256, 257, 4097]:
        rows = rng.integers(0, 2 ** 63, size=(n, words), dtype=np.int64).view(np.uint64) | np.uint64(1 << 63)
        rows[rng.integers(0, n)] &= ~np.uint64(1)  # one row without bit 0
        kept = rows.copy()
        for view in (rows, rows[::3], rows[1::2]):
            if len(view):
                assert np.array_equal(_and_of_rows(view), np.bitwise_and.reduce(view, axis=0)), (n, words)
        assert np.array_equal(rows, kept)


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 400),
                                        (["window(2) + global(1)", "random(2, seed=0)", "window(1)"], 300)])
def test_arc_arrays_of_several_heads_read_off_the_kept_union_are_the_same(patterns, n, monkeypatch):
    """Several large heads: ArcArrays reads the union `build.union_graph` keeps (its codes, endpoints and compressed
    rows, shared with the connectivity searches) instead of making them from the heads' codes: the same arrays."""
    from uapcheck.graphs import build
    from uapcheck.graphs import view_refine
    monkeypatch.setattr(build, "UNION_KEPT_MIN_ARCS", 0)  # every union of several heads kept, as large ones are
    graphs = _graphs(patterns, n)
    assert view_refine._kept_union(graphs) is build.union_graph(graphs)
    kept = ArcArrays(graphs)
    monkeypatch.setattr(view_refine, "_kept_union", lambda distinct: None)
    made = ArcArrays(graphs)
    for name in ("codes", "src", "dst", "out_ptr", "out_to", "in_ptr", "in_from", "label", "indegree"):
        a, b = getattr(kept, name), getattr(made, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert all(np.array_equal(a, b) for a, b in zip(kept.head_indeg, made.head_indeg))
