"""The exact directed diameter by seeded searches (docs/theory.md §11.3, Theorem F131): forward searches 64 at a time
give their sources' exact eccentricities, ecc_out(w) <= 1 + ecc_out(z) over the arcs w -> z spreads them to a bound
everywhere, and the positions still above the longest distance found are searched themselves.

Checked a second way: the diameter against igraph's and networkx's all-pairs diameters on random strongly connected
digraphs (hypothesis), the kernel's re-check accepting the certificate and rejecting it tampered, the budget stop
(bounds that hold and the size that fits), and the decision at n = 65,536 that the probes alone left at 14 <= D <= 20."""
from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.graphs import connectivity as conn_mod
from uapcheck.graphs.build import PatternGraph
from uapcheck.graphs.connectivity import verify_connectivity
from uapcheck.spec import PatternUnion, RandomPattern, Window


def _graph(n: int, arcs) -> PatternGraph:
    """Arcs (a, b), 0-based, a -> b (b attends to a), plus the cycle 0 -> 1 -> ... -> n-1 -> 0: strongly connected."""
    codes = {a * n + b for a, b in arcs} | {v * n + (v + 1) % n for v in range(n)}
    return PatternGraph(n, frozenset(codes))


def _seeded(graph: PatternGraph, budget: int = 10**15):
    search = conn_mod._ArraySearch(graph)
    bounds = conn_mod._ArrayBounds(graph.n, search.degree())
    return conn_mod._seeded_diameter(graph, search, bounds, 0, None, budget, 0)


def _nx_diameter(graph: PatternGraph) -> int:
    g = nx.DiGraph()
    g.add_nodes_from(range(1, graph.n + 1))
    g.add_edges_from(graph.arcs())
    return nx.diameter(g)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=90), st.integers(min_value=0, max_value=3), st.randoms(use_true_random=False))
def test_seeded_diameter_is_the_all_pairs_diameter(n, per, rnd):
    arcs = [(rnd.randrange(n), rnd.randrange(n)) for _ in range(per * n)]
    graph = _graph(n, arcs)
    c = _seeded(graph)
    d = _nx_diameter(graph)
    if c is None:  # a search deeper than the bit-parallel levels: the caller keeps its own bounds
        assert d >= conn_mod._ArraySearch.MAX_LEVELS
        return
    assert c.diameter == d
    assert c.upper_bound.method == "seeded"
    assert verify_connectivity([graph], c)


@pytest.mark.parametrize("n,per,seed", [(700, 1, 0), (1500, 2, 1), (3000, 1, 2), (2500, 3, 3)])
def test_seeded_diameter_at_medium_n_is_igraphs(n, per, seed):
    import igraph as ig
    rnd = random.Random(seed)
    graph = _graph(n, [(rnd.randrange(n), rnd.randrange(n)) for _ in range(per * n)])
    c = _seeded(graph)
    g = ig.Graph(n=n, edges=[(a - 1, b - 1) for a, b in graph.arcs()], directed=True)
    assert c.diameter == g.diameter(directed=True)
    j, i = c.lower_pair
    assert g.distances(source=[j - 1], target=[i - 1], mode="out")[0][0] == c.diameter
    assert verify_connectivity([graph], c)


def test_the_kernel_rejects_a_tampered_seeded_certificate():
    from dataclasses import replace
    rnd = random.Random(7)
    n = 400
    graph = _graph(n, [(rnd.randrange(n), rnd.randrange(n)) for _ in range(n)])
    c = _seeded(graph)
    ub = c.upper_bound
    assert conn_mod._seeded_bound_holds(graph, ub)
    bound = np.array(ub.seeded_bound)
    # a bound one below the diameter somewhere a seed does not hold it: the local rule breaks there
    low = bound.copy()
    w = int(np.flatnonzero(low == low.max())[0])
    low[w] -= 2
    assert not conn_mod._seeded_bound_holds(graph, replace(ub, seeded_bound=low))
    # a seed's eccentricity understated
    (v, e), *rest = ub.seeds
    assert not conn_mod._seeded_bound_holds(graph, replace(ub, seeds=((v, e - 1), *rest)))
    # a claimed diameter below the bound array's largest entry
    assert not conn_mod._seeded_bound_holds(graph, replace(ub, bound=int(bound.max()) - 1))
    # the whole array lowered by one, seeds with it: a seed's own eccentricity is then above its bound
    assert not conn_mod._seeded_bound_holds(graph, replace(ub, seeded_bound=bound - 1))


@pytest.mark.parametrize("kept", [True, False])
def test_the_kernel_compares_each_claim_with_its_own_seed_over_several_searches(kept):
    # 769 seeds: the kernel searches them 256 at a time in the order of their claims; a claim moved to another seed
    # or changed anywhere in that order is rejected. ``kept``: the claims compared with the eccentricities the
    # diameter's search kept on the graph (the kernel's own searches, done once); else those dropped and every seed
    # searched again by the re-check
    from dataclasses import replace

    from uapcheck.graphs.build import _derived
    graph = build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), 6000)
    ub = analyze_connectivity([graph]).upper_bound
    assert ub.method == "seeded" and len(ub.seeds) > 2 * conn_mod.KERNEL_SEEDS
    found = _derived(graph).get(conn_mod._KERNEL_ECC)
    # the seeds the wide searches found (the probes' own, settled before, are searched by the re-check)
    assert sum(v - 1 in found for v, _ in ub.seeds) > 2 * conn_mod.KERNEL_SEEDS
    assert all(found.get(v - 1, e) == e for v, e in ub.seeds)
    if not kept:
        _derived(graph).pop(conn_mod._KERNEL_ECC)
    assert conn_mod._seeded_bound_holds(graph, ub)
    seeds = list(ub.seeds)
    values = sorted({e for _, e in seeds})
    low = next(k for k, (_, e) in enumerate(seeds) if e == values[0])
    high = next(k for k, (_, e) in enumerate(seeds) if e == values[-1])
    swapped = list(seeds)
    swapped[low], swapped[high] = (seeds[low][0], seeds[high][1]), (seeds[high][0], seeds[low][1])
    assert not conn_mod._seeded_bound_holds(graph, replace(ub, seeds=tuple(swapped)))
    for k in (low, high, len(seeds) // 2, len(seeds) - 1):
        for delta in (-1, 1):
            changed = list(seeds)
            changed[k] = (seeds[k][0], seeds[k][1] + delta)
            assert not conn_mod._seeded_bound_holds(graph, replace(ub, seeds=tuple(changed)))


def test_the_budget_stop_gives_bounds_that_hold_and_the_size_that_fits():
    rnd = random.Random(3)
    n = 3000
    graph = _graph(n, [(rnd.randrange(n), rnd.randrange(n)) for _ in range(n)])
    c = _seeded(graph, budget=0)  # one batch, then the work bound is spent
    assert c.diameter is None and c.fits_up_to is not None and c.fits_up_to < n
    assert "work bound" in c.reason and f"n = {c.fits_up_to:,}" in c.reason
    assert verify_connectivity([graph], c)
    true_d = _seeded(graph).diameter
    assert c.lower <= true_d <= c.upper


def test_a_stalled_probe_loop_hands_over_to_the_seeded_searches(monkeypatch):
    # the probe loop's work estimate says the probes will not close: the seeded searches decide instead
    n = 2000
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), n)]
    monkeypatch.setattr(conn_mod, "EXHAUSTIVE_MAX_WORK", 10_000)
    c = analyze_connectivity(graphs, max_probes=40)
    assert c.upper_bound.method == "seeded" and c.diameter is not None
    import igraph as ig
    assert c.diameter == ig.Graph(n=n, edges=[(a - 1, b - 1) for a, b in graphs[0].arcs()], directed=True).diameter()
    assert verify_connectivity(graphs, c)


def test_random_pattern_at_65536_has_diameter_14():
    # `window(1) + random(2, seed=1)` at n = 65,536: the probes alone stopped at 14 <= D <= 20; igraph's
    # eccentricities (all 65,536 of them, both ways, computed once outside the test) give 14
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), 65536)]
    c = analyze_connectivity(graphs)
    assert c.diameter == 14 and c.upper_bound.method == "seeded"
    assert verify_connectivity(graphs, c)


def _reduceat_levels(indptr, tails, n, sources, max_levels):
    """Bit-parallel levels by one reduceat over all arcs (the definition the padded columns replace)."""
    has = np.flatnonzero(indptr[1:] > indptr[:-1])
    mask = np.zeros(n, dtype=np.uint64)
    mask[np.asarray(sources)] |= np.left_shift(np.uint64(1), np.arange(len(sources), dtype=np.uint64))
    masks = [mask]
    while len(tails):
        nxt = mask.copy()
        nxt[has] |= np.bitwise_or.reduceat(mask[tails], indptr[has])
        if np.array_equal(nxt, mask):
            break
        if len(masks) > max_levels:
            return None
        masks.append(nxt)
        mask = nxt
    return masks


@pytest.mark.parametrize("seed", range(200))
def test_padded_columns_give_the_reduceat_levels(seed):
    # skewed in-degrees (a few heads take a fifth of the arcs, like global tokens), empty rows, repeated runs
    from uapcheck.graphs.arc_arrays import bit_levels
    rnd = random.Random(seed)
    n = rnd.randint(1, 70)
    arcs = sorted({(rnd.randrange(n), rnd.randrange(n) if rnd.random() < 0.8 else rnd.randrange(min(n, 2)))
                   for _ in range(rnd.randint(0, 5 * n))})
    heads = np.array([b for _, b in arcs], dtype=np.int64)
    tails = np.array([a for a, _ in arcs], dtype=np.int64)
    order = np.lexsort((tails, heads))
    heads, tails = heads[order], tails[order]
    indptr = np.concatenate(([0], np.cumsum(np.bincount(heads, minlength=n)))).astype(np.int64)
    sources = rnd.sample(range(n), min(n, rnd.randint(1, 64)))
    got, want = bit_levels(indptr, tails, n, sources, 64), _reduceat_levels(indptr, tails, n, sources, 64)
    assert (got is None) == (want is None)
    if got is not None:
        assert len(got) == len(want) and all(np.array_equal(a, b) for a, b in zip(got, want))


def test_the_kept_eccentricities_are_igraphs():
    # the eccentricities the kernel's search keeps on the graph (and the re-check compares claims with) against
    # igraph's own breadth-first eccentricities, at every kept position of a random pattern
    from uapcheck.graphs.build import _derived
    graph = build_graph(PatternUnion((Window(1), RandomPattern(2, seed=3))), 3000)
    analyze_connectivity([graph])
    found = _derived(graph).get(conn_mod._KERNEL_ECC)
    assert found
    import igraph
    g = igraph.Graph(n=graph.n, edges=[(a - 1, b - 1) for a, b in graph.arcs()], directed=True)
    vs = sorted(found)
    assert [int(e) for e in g.eccentricity(vertices=vs, mode="out")] == [found[v] for v in vs]



def test_two_heads_share_one_large_union_and_the_kernel_reads_its_kept_eccentricities():
    # a union of more than UNION_KEPT_MIN_ARCS arcs is made once for the same heads: the analysis and the kernel's
    # re-check read one union, which carries the seeds' eccentricities the kernel found; small unions are made afresh
    from uapcheck.graphs.build import UNION_KEPT_MIN_ARCS, _derived, union_graph
    n = 16384
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(1, seed=2))), n), build_graph(RandomPattern(1, seed=5), n)]
    assert sum(g.num_arcs for g in graphs) > UNION_KEPT_MIN_ARCS
    union = union_graph(graphs)
    assert union_graph(graphs) is union and union_graph(graphs[::-1]) is not union
    assert set(union_graph(graphs[::-1]).all_codes()) == set(union.all_codes())
    c = analyze_connectivity(graphs)
    assert c.upper_bound.method == "seeded"
    found = _derived(union).get(conn_mod._KERNEL_ECC)
    assert found and all(found.get(v - 1, e) == e for v, e in c.upper_bound.seeds)
    assert verify_connectivity(graphs, c)
    small = [build_graph(Window(1), 50), build_graph(RandomPattern(1, seed=5), 50)]
    assert union_graph(small) is not union_graph(small)
