"""Whether D layers suffice, by far sets (docs/theory.md §11.9, Theorem F132): with an upper bound on every ecc_out,
only the positions whose bound reaches D can be at distance D from a root; one forward search from each gives every
root's far set U_i, the rooted view of i is the graph with the arcs into U_i removed and U_i marked (plus distance
colours), so the roots of one far set are decided together by one refinement of that marked graph.

Checked a second way: brute force over S_n (n ≤ 8, the 44 patterns of test_views.py) with the exact eccentricities
and with the loosest bound (D everywhere), the BLISS path on random unions of structured patterns (12 ≤ n ≤ 60),
the per-root mid-size path on random patterns (n up to 3,000), and the decision at n = 65,536."""
from __future__ import annotations


import numpy as np
import pytest
from breadth_first import distances

from uapcheck.derive import check_spec
from uapcheck.graphs.view_refine import ArcArrays, far_sets
from uapcheck.graphs.views import decide_views, verify_witness
from uapcheck.parse import parse_source

from .test_mid_size_views import _random_cases, _setup
from .test_views import SMALL, _brute


def _eccentricities(graphs) -> np.ndarray:
    """ecc_out of every position by one queue BFS each over the union's arcs (no engine code)."""
    n = graphs[0].n
    outs = [set() for _ in range(n)]
    for g in graphs:
        for j, i in g.arcs():
            outs[j - 1].add(i - 1)
    ecc = np.zeros(n, dtype=np.int64)
    for s in range(n):
        ecc[s] = max(distances(outs, s))
    return ecc


def _far(graphs, d, grp, st, bound):
    return decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=0, work_limit=0,
                        ecc_bound=bound)


@pytest.mark.parametrize("patterns,n", SMALL)
def test_far_sets_agree_with_brute_force_over_all_permutations(patterns, n):
    got = _setup(patterns, n)
    if got is None:
        pytest.skip("not strongly connected")
    graphs, d, grp, st = got
    bd, suffices = _brute(patterns, n)
    assert bd == d
    exact = _eccentricities(graphs)
    assert int(exact.max()) == d
    for bound in (exact, np.full(n, d, dtype=np.int64)):  # the tightest bound and the loosest
        got = _far(graphs, d, grp, st, bound)
        assert got.sufficient is suffices, got.reason
        if not suffices:
            assert verify_witness(graphs, d, got.witness, st.preserves)


@pytest.mark.parametrize("patterns,n", _random_cases(11, 40))
def test_far_sets_agree_with_the_bliss_path_on_random_unions(patterns, n):
    got = _setup(patterns, n)
    if got is None or got[1] < 2 or got[2].generators is None:
        pytest.skip("not strongly connected, complete, or no generators")
    graphs, d, grp, st = got
    slow = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=0,
                        work_limit=10 ** 12)
    far = _far(graphs, d, grp, st, _eccentricities(graphs))
    assert slow.sufficient is not None and far.sufficient is slow.sufficient
    if far.sufficient is False:
        assert verify_witness(graphs, d, far.witness, st.preserves)


@pytest.mark.parametrize("n,r,seed", [(300, 1, 0), (500, 2, 3), (1200, 1, 5), (3000, 2, 1)])
def test_far_sets_agree_with_the_per_root_path_on_random_patterns(n, r, seed):
    got = _setup([f"window(1) + random({r}, seed={seed})"], n)
    graphs, d, grp, st = got
    per_root = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=0, work_limit=0)
    far = _far(graphs, d, grp, st, _eccentricities(graphs) if n <= 1200 else np.full(n, d, dtype=np.int64))
    assert per_root.sufficient is not None and far.sufficient is per_root.sufficient
    if far.sufficient:
        assert far.certificate.far_groups is not None
        # the same roots examined: the far sets' roots are exactly those whose ball is not every position
        assert sorted(far.certificate.representatives) == sorted(per_root.certificate.representatives)


def test_far_sets_are_the_positions_at_distance_d():
    graphs, d, _, _ = _setup(["window(1) + random(1, seed=2)"], 200)
    arrays = ArcArrays(graphs)
    far, searched = far_sets(arrays, np.full(200, d, dtype=np.int64), d, range(200))
    assert searched == 200
    for i in range(200):
        dist = arrays.in_distances(i)
        assert sorted(far.get(i, [])) == sorted(np.flatnonzero(dist == d).tolist())


def test_random_pattern_at_65536_needs_exactly_14_layers():
    # the rooted views of all 65,536 roots were out of reach (14 ≤ D ≤ 20, 21 layers sufficient); the exact
    # diameter (Theorem F131) and the far sets give D = 14 with 166 roots whose ball is not everything (their
    # in-eccentricity is 14, igraph's count over all positions), decided by 8 marked graphs
    src = "tokens 65536\nattention { kernel k(x, y) = exp(x . y); pattern window(1) + random(2, seed=1) }\n"
    result = check_spec(parse_source(src, "far.uap"), 120)
    assert result.verdict == "UAP"
    (step,) = {s for s in result.root.walk() if s.rule == "PAT-LAYERS"}
    assert step.facts["layers"] == 14 and step.facts["least"] is True
    assert step.evidence["rooted views"]["orbits examined"] == 166


def test_an_edges_listing_takes_the_same_path_as_the_pattern():
    # the arcs of `window(1) + random(2, seed=1)` at n = 10,000 written out as `edges`: the same token graph, so the
    # same seeded diameter (Theorem F131), far sets (F132) and count, 12 layers, least
    from uapcheck.graphs import build_graph
    from uapcheck.spec import PatternUnion, RandomPattern, Window
    n = 10000
    graph = build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), n)
    listed = ", ".join(f"{i} -> {j}" for j, i in sorted(graph.arcs()))  # arc j -> i: i attends to j
    out = []
    for pattern in ("window(1) + random(2, seed=1)", f"edges {{{listed}}}"):
        src = f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n"
        result = check_spec(parse_source(src, "edges.uap"), 120)
        (connected,) = {s for s in result.root.walk() if s.rule == "PAT-CONNECTED"}
        (layers,) = {s for s in result.root.walk() if s.rule == "PAT-LAYERS"}
        assert connected.evidence["upper bound method"] == "seeded"
        out.append((layers.facts["layers"], layers.facts["least"], layers.evidence["rooted views"]["orbits examined"]))
    assert out[0] == out[1] and out[0][:2] == (12, True)
