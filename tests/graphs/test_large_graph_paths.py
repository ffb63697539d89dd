"""Large pattern graphs kept as sorted code arrays, and BLISS with the twins pinned, against the set-based
build and the twin quotient they stand in for at large n (thresholds lowered so small graphs take both).

Covered: the codes `_add` puts into a `_CodeChunks` against the set it fills (every pattern kind, cyclic,
with and without self-loops and repeats), a graph built on arrays against the set-built one (equality,
hash, membership, arcs, union), and |Aut(quotient)| from the pinned count against the quotient's own on
random directed graphs, connected or not, with planted twin classes (open and closed, of sizes 2 to 4)."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs import build as build_mod
from uapcheck.graphs import symmetry as sym_mod
from uapcheck.graphs.build import (PatternGraph, _add, _CodeChunks, build_graph, code_array, endpoints,
                                   union_graph)
from uapcheck.spec import (Blocks, Blockwise, Causal, Columns, Dilated, Edges, Global, GlobalAt, Offsets,
                           PatternUnion, RandomPattern, Sinks, Star, Strided, Window)

PATTERNS = [
    Window(3), Window(2, cyclic=True), Offsets((1, -3, 5)), Offsets((2, -7), cyclic=True), Dilated(2, 3),
    Strided(4), Blocks(5), Global(2), Star(), RandomPattern(3, seed=4), Edges(((1, 2), (3, 3), (5, 1), (2, 1))),
    Sinks(2), GlobalAt((1, 4)), Columns(4, 2), Causal(),
    PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
    PatternUnion((Window(1), RandomPattern(2, seed=1), Edges(((2, 9),)))),
    Blockwise(2, PatternUnion((Window(1), Global(1)))),
]


def _set_codes(pattern, n):
    out: set[int] = set()
    _add(out, pattern, n, {})
    out.difference_update(range(0, n * n, n + 1))
    return sorted(out)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_code_chunks_hold_the_codes_of_the_set(pattern):
    for n in (10, 24, 32):
        chunks = _CodeChunks()
        _add(chunks, pattern, n, {})
        assert chunks.array(n).tolist() == _set_codes(pattern, n)


def test_random_codes_on_arrays_match_the_set_above_the_word_threshold():
    # random(r) draws through `_sample_rows_by_words` from n = 4,096 on: the array path must draw the same
    for pattern in (RandomPattern(3, seed=0), PatternUnion((Window(1), RandomPattern(2, seed=1)))):
        chunks = _CodeChunks()
        _add(chunks, pattern, 5000, {})
        assert chunks.array(5000).tolist() == _set_codes(pattern, 5000)


def _on_arrays(pattern, n):
    chunks = _CodeChunks()
    _add(chunks, pattern, n, {})
    return PatternGraph.from_sorted_codes(n, chunks.array(n))


@pytest.mark.parametrize("pattern", PATTERNS[:10], ids=str)
def test_a_graph_on_arrays_is_the_set_built_graph(pattern):
    n = 30
    by_set = build_graph(pattern, n)
    by_array = _on_arrays(pattern, n)
    assert by_array._array_only()
    assert by_array == by_set and by_set == by_array and hash(by_array) == hash(by_set)
    assert by_array.num_arcs == by_set.num_arcs
    assert all(by_array.has_arc(j, i) == by_set.has_arc(j, i) for j in range(0, n + 2) for i in range(0, n + 2))
    assert list(by_array.arcs()) == list(by_set.arcs())
    assert by_array._array_only()  # nothing above made the frozenset
    assert by_array.codes == by_set.codes and not by_array._array_only()
    other = _on_arrays(Window(1) if pattern != Window(1) else Window(2), n)
    assert by_array != other and len({by_array, by_set, other}) == 2


def test_a_large_build_is_kept_on_arrays_and_agrees_with_the_set_build(monkeypatch):
    pattern = PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))
    by_set = build_graph(pattern, 300)
    monkeypatch.setattr(build_mod, "ARRAY_BUILD_ARCS", 0)
    monkeypatch.setattr(build_mod, "NUMPY_DECODE_ARCS", 100)
    by_array = build_graph(pattern, 300)
    assert by_array._array_only() and by_array == by_set
    assert code_array(by_array).tolist() == sorted(by_set.codes)
    # endpoints are the ascending codes, divided: the same lists igraph is given either way
    assert endpoints(by_array) == ((code_array(by_array) // 300).tolist(), (code_array(by_array) % 300).tolist())
    # a union of large heads stays on arrays and is the union of the arc sets
    second = build_graph(Window(5), 300)
    union = union_graph([by_array, second])
    assert union._array_only() and union.codes == by_set.codes | second.codes
    # fewer arcs than NUMPY_DECODE_ARCS: the set-built graph (its edge order is the set's)
    small = build_graph(Window(1), 40)
    assert not small._array_only()


def test_graphs_stay_immutable():
    g = build_graph(Window(1), 8)
    with pytest.raises(AttributeError):
        g.n = 9  # type: ignore[misc]


def _random_digraph_with_twins(rng: random.Random, base: int, p: float):
    """Arcs (codes) on base + t positions: a random digraph on `base` positions, then planted twins,
    each a copy of an earlier position's in- and out-neighbourhood (closed twins also get both arcs
    to it)."""
    arcs = {(a, b) for a in range(base) for b in range(base) if a != b and rng.random() < p}
    n = base
    for _ in range(rng.choice((1, 2, 3, 5))):
        u = rng.randrange(base)
        for _ in range(rng.choice((1, 1, 2, 3))):  # class sizes 2 to 4
            v = n
            n += 1
            arcs |= {(v, b) for a, b in arcs if a == u} | {(a, v) for a, b in arcs if b == u}
            if rng.random() < 0.5:  # closed twins: u and v see each other
                arcs |= {(u, v), (v, u)}
    return n, frozenset(a * n + b for a, b in arcs)


def test_pinned_twins_count_the_quotients_group(monkeypatch):
    rng = random.Random(20261202)
    planted = 0
    for trial in range(60):
        base = rng.choice((5, 8, 12))
        n, codes = _random_digraph_with_twins(rng, base, rng.choice((0.1, 0.3, 0.5)))
        g = PatternGraph(n, codes)
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 10 ** 9)  # the quotient, as for small graphs
        by_quotient = sym_mod.symmetry_group([g])
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 1)  # twins pinned on the graph itself
        st = sym_mod._structure([g], None, "none")
        sol = sym_mod._Solution(st)
        if sol._quotient is None:
            planted += 1
        pinned = sym_mod.symmetry_group([g])
        assert (pinned.order, pinned.name, pinned.structure, pinned.order_text) == \
            (by_quotient.order, by_quotient.name, by_quotient.structure, by_quotient.order_text), trial
        assert set(pinned.generators or ()) and all(st.preserves(p) for p in pinned.generators)
    assert planted > 40  # most trials took the pinned count


def test_pinned_twins_on_a_symmetric_graph_keep_the_quotient_generators(monkeypatch):
    # a directed 6-cycle with every position doubled (open twins): G = (S_2)^6 ⋊ C_6, |Aut(quotient)| = 6
    n = 12
    arcs = {(a + s, (a + 1) % 6 + t) for a in range(6) for s in (0, 6) for t in (0, 6)}
    arcs = {(a % 12, b % 12) for a, b in arcs}
    g = PatternGraph(n, frozenset(a * n + b for a, b in arcs))
    monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 10 ** 9)
    by_quotient = sym_mod.symmetry_group([g])
    monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 1)
    pinned = sym_mod.symmetry_group([g])
    assert pinned.order == by_quotient.order == 2 ** 6 * 6
    assert pinned.generators == by_quotient.generators and pinned.structure == by_quotient.structure


# ---------------------------------------------------------------------------------------------
# Probes searched 64 at a time (bit-parallel level masks) and their re-check by the kernel

def _queue_distances(n, arcs, source):
    outs = [[] for _ in range(n)]
    for a, b in arcs:
        outs[a].append(b)
    dist = [-1] * n
    dist[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for a in frontier:
            for b in outs[a]:
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist


def test_bit_levels_are_the_distances_of_each_source():
    import numpy as np

    from uapcheck.graphs.arc_arrays import bit_levels
    rng = random.Random(7)
    for trial in range(40):
        n = rng.choice((5, 17, 40))
        arcs = {(a, b) for a in range(n) for b in range(n) if a != b and rng.random() < rng.choice((0.05, 0.2))}
        by_head = sorted((b, a) for a, b in arcs)  # forward: each head's tails
        indptr = np.zeros(n + 1, dtype=np.int64)
        for b, _ in by_head:
            indptr[b + 1] += 1
        indptr = np.cumsum(indptr)
        tails = np.asarray([a for _, a in by_head], dtype=np.int64)
        sources = rng.sample(range(n), rng.randint(1, min(n, 64)))
        masks = bit_levels(indptr, tails, n, sources, max_levels=10 ** 6)
        dists = [_queue_distances(n, arcs, s) for s in sources]
        for level, mask in enumerate(masks):
            for v in range(n):
                want = sum(1 << k for k, d in enumerate(dists) if 0 <= d[v] <= level)
                assert int(mask[v]) == want, (trial, level, v)
        deepest = max(max(d) for d in dists)
        assert len(masks) == deepest + 1  # the last level is the first that the next one repeats
        assert bit_levels(indptr, tails, n, sources, max_levels=deepest - 1) is None or deepest == 0


def test_lowest_bit_index_is_the_lowest_set_bit():
    import numpy as np

    from uapcheck.graphs.arc_arrays import lowest_bit_index
    rng = random.Random(3)
    words = [0, 1, 2, 3, 1 << 63, (1 << 64) - 1, (1 << 63) | 1, 6 << 40] + [rng.getrandbits(64) for _ in range(500)]
    words += [rng.getrandbits(64) << rng.randrange(64) & ((1 << 64) - 1) for _ in range(500)]
    got = lowest_bit_index(np.asarray(words, dtype=np.uint64)).tolist()
    assert got == [(w & -w).bit_length() - 1 for w in words]


def _batched(monkeypatch):
    from uapcheck.graphs import connectivity as conn_mod
    monkeypatch.setattr(conn_mod, "LIST_BOUNDS_MAX_N", 0)        # bounds and searches on arc arrays
    monkeypatch.setattr(conn_mod, "ARRAY_BOUNDS_LOADED_MIN_N", 0)
    monkeypatch.setattr(conn_mod, "NUMPY_CHECK_ARCS", 0)         # the kernel's checks on arc arrays
    monkeypatch.setattr(conn_mod, "EXHAUSTIVE_MAX_WORK", 0)      # every eccentricity out of reach: batches
    monkeypatch.setattr(conn_mod, "BATCH_PROBES", 8)
    return conn_mod


@pytest.mark.parametrize("seed", range(8))
def test_batched_probes_bound_the_diameter_and_the_kernel_checks_them(monkeypatch, seed):
    conn_mod = _batched(monkeypatch)
    rng = random.Random(seed)
    n = rng.choice((30, 60, 90))
    pattern = PatternUnion((Window(1), RandomPattern(rng.choice((1, 2)), seed=seed)))
    graphs = [build_graph(pattern, n)]
    c = conn_mod.analyze_connectivity(graphs, use_symmetry=bool(seed % 2), max_probes=rng.choice((40, 400)))
    true_d = max(max(_queue_distances(n, [divmod(x, n) for x in graphs[0].codes], v)) for v in range(n))
    assert c.strongly_connected and c.upper_bound is not None and c.upper_bound.batches
    assert c.lower <= true_d <= c.upper and (c.diameter is None or c.diameter == true_d)
    assert c.probes_used == len(c.upper_bound.probes) + sum(len(b.sources) for b in c.upper_bound.batches)
    assert conn_mod.verify_connectivity(graphs, c)


def test_the_kernel_rejects_altered_batches(monkeypatch):
    import dataclasses

    import numpy as np
    conn_mod = _batched(monkeypatch)
    n = 60
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(1, seed=2))), n)]
    c = conn_mod.analyze_connectivity(graphs, use_symmetry=False, max_probes=400)
    assert conn_mod.verify_connectivity(graphs, c)
    ub = c.upper_bound
    b = ub.batches[0]

    def with_batch(**change):
        altered = dataclasses.replace(b, **change)
        return dataclasses.replace(c, upper_bound=dataclasses.replace(ub, batches=(altered,) + ub.batches[1:]))

    flipped = [m.copy() for m in b.forward]
    flipped[1][5] ^= np.uint64(1)  # a bit set (or cleared) one level early
    assert not conn_mod.verify_connectivity(graphs, with_batch(forward=tuple(flipped)))
    shorter = b.backward[:-2] if len(b.backward) > 2 else b.backward[:1]
    assert not conn_mod.verify_connectivity(graphs, with_batch(backward=shorter))  # never reaches every bit
    assert not conn_mod.verify_connectivity(graphs, with_batch(order=b.order[::-1]))  # bits no longer by ecc
    swapped = b.sources[1:2] + b.sources[:1] + b.sources[2:]
    assert not conn_mod.verify_connectivity(graphs, with_batch(sources=swapped))
    # a smaller bound than the batches prove is rejected
    lower_claim = dataclasses.replace(c, upper=c.upper - 1, diameter=None,
                                      upper_bound=dataclasses.replace(ub, bound=ub.bound - 1))
    assert c.upper - 1 < c.lower or not conn_mod.verify_connectivity(graphs, lower_claim)
    # batches are checked on arc arrays only
    monkeypatch.setattr(conn_mod, "NUMPY_CHECK_ARCS", 10 ** 9)
    assert not conn_mod.verify_connectivity(graphs, c)


def test_vertex_ok_with_the_moved_points_is_the_pointwise_image():
    from uapcheck.graphs.views import Neighbourhoods
    rng = random.Random(5)
    for trial in range(30):
        n = rng.choice((8, 15, 30))
        pattern = rng.choice([PatternUnion((Window(1), Global(1), RandomPattern(1, seed=trial))),
                              PatternUnion((Window(2), RandomPattern(2, seed=trial))), Star(), Blocks(3)])
        nb = Neighbourhoods([build_graph(pattern, n)])
        for _ in range(20):
            p0 = list(range(n))
            points = rng.sample(range(n), rng.choice((2, 2, 3, 4)))
            images = points[:]
            rng.shuffle(images)
            for a, b in zip(points, images):
                p0[a] = b
            moved = frozenset(v for v in range(n) if p0[v] != v)
            for v in range(n):
                want = all(frozenset(p0[u] for u in nb.head_set(h, v)) == nb.head_set(h, p0[v])
                           for h in range(nb.num_heads))
                assert nb.vertex_ok(p0, v, moved) == want == nb.vertex_ok(p0, v), (trial, v)
