"""The proof kernel's re-checks of large pattern graphs (numpy arrays over the arc codes) decide
exactly as the per-arc loops: the same certificates accepted, the same tampered ones rejected.
Thresholds are lowered so that small graphs take both paths."""
from __future__ import annotations

import random

import pytest

from random_permutations import transpositions_and_shuffles

from uapcheck import certificates as C
from uapcheck import proof
from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs import connectivity as conn_mod
from uapcheck.graphs.connectivity import verify_connectivity
from uapcheck.spec import Global, PatternUnion, RandomPattern, Window

PATTERNS = [PatternUnion((Window(1), RandomPattern(2, seed=s))) for s in range(3)] + [
    PatternUnion((Window(2), Global(1), RandomPattern(1, seed=5))), Window(3)]


def _both(monkeypatch, check):
    """check() with the per-arc loops and with the arrays: the two outcomes."""
    out = []
    for threshold in (10 ** 12, 0):
        monkeypatch.setattr(C, "NUMPY_CHECK_ARCS", threshold)
        monkeypatch.setattr(conn_mod, "NUMPY_CHECK_ARCS", threshold)
        try:
            check()
            out.append(True)
        except proof.CertificateRejected as exc:
            out.append(type(exc).__name__)
    return out


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_view_witness_checks_agree(monkeypatch, pattern):
    rng = random.Random(7)
    n = 40
    graphs = (build_graph(pattern, n),)
    for perm in transpositions_and_shuffles(rng, n, 60):
        for position in (1, n // 2, n):
            for diameter in (1, 2, 3):
                w = C.ViewWitness(graphs, diameter, position, tuple(perm))
                got = _both(monkeypatch, w.check)
                assert got[0] == got[1], (perm, position, diameter)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_bad_positions_agree_with_the_definition(pattern):
    rng = random.Random(3)
    n = 30
    g = build_graph(pattern, n)
    nb = [{v} for v in range(n + 1)]
    for j, i in g.arcs():
        nb[i].add(j)
    for _ in range(40):
        perm = list(range(1, n + 1))
        rng.shuffle(perm)
        want = {v for v in range(1, n + 1) if {perm[k - 1] for k in nb[v]} != nb[perm[v - 1]]}
        preserved, bad = C._view_bad_arrays((g,), perm)
        assert bad == want
        assert preserved == all((perm[j - 1], perm[i - 1]) in set(g.arcs()) for j, i in g.arcs())


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_generator_checks_agree(monkeypatch, pattern):
    n = 36
    graphs = (build_graph(pattern, n),)
    grp = symmetry_group(list(graphs))
    gens = tuple(tuple(g) for g in grp.generators)
    good = C.Generators(graphs, (None,), "none", gens, int(grp.order))
    assert _both(monkeypatch, good.check) == [True, True]
    rng = random.Random(1)
    rejected = 0
    for _ in range(20):
        perm = list(range(1, n + 1))
        a, b = rng.sample(range(n), 2)
        perm[a], perm[b] = perm[b], perm[a]
        bad = C.Generators(graphs, (None,), "none", gens + (tuple(perm),), int(grp.order))
        got = _both(monkeypatch, bad.check)
        assert got[0] == got[1]
        rejected += got[0] is not True
    assert rejected > 0


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_connectivity_checks_agree(monkeypatch, pattern):
    n = 50
    graphs = [build_graph(pattern, n)]
    c = analyze_connectivity(graphs)
    outcomes = []
    for threshold in (10 ** 12, 0):
        monkeypatch.setattr(conn_mod, "NUMPY_CHECK_ARCS", threshold)
        outcomes.append(verify_connectivity(graphs, c))
    assert outcomes == [True, True]
    if c.upper_bound is not None and c.upper_bound.probes and c.upper_bound.method == "bounds":
        probe = c.upper_bound.probes[0]
        for k in range(len(probe.dist_out)):
            if probe.dist_out[k] > 0:
                tampered = tuple(d + (1 if i == k else 0) for i, d in enumerate(probe.dist_out))
                break
        from dataclasses import replace
        ub = replace(c.upper_bound, probes=(replace(probe, dist_out=tampered),) + c.upper_bound.probes[1:])
        bad = replace(c, upper_bound=ub)
        results = []
        for threshold in (10 ** 12, 0):
            monkeypatch.setattr(conn_mod, "NUMPY_CHECK_ARCS", threshold)
            results.append(verify_connectivity(graphs, bad))
        assert results == [False, False]


def test_successor_lists_agree(monkeypatch):
    graphs = (build_graph(PATTERNS[0], 30), build_graph(Window(2), 30))
    monkeypatch.setattr(C, "NUMPY_CHECK_ARCS", 10 ** 12)
    plain = C._successors(graphs, 30)
    monkeypatch.setattr(C, "NUMPY_CHECK_ARCS", 0)
    assert C._successors(graphs, 30) == plain


@pytest.mark.parametrize("pattern,n", [(PatternUnion((Window(1), RandomPattern(2, seed=1))), 60),
                                       (PatternUnion((Window(2), RandomPattern(1, seed=3))), 40)])
def test_bfs_array_check_decides_as_the_plain_one(pattern, n):
    """The vectorised BFS check (least distance over each position's in-arcs = its distance − 1)
    accepts and rejects exactly the arrays the per-arc check does: every root, both directions, the
    true distances and copies with a few entries moved by ±1 or ±2; and on graphs that are not strongly
    connected (unreached positions, a root with no in-arc)."""
    import numpy as np

    from uapcheck.spec import Causal, Edges, Offsets
    rng = random.Random(5)
    for pat, size in ((pattern, n), (Offsets((1,), cyclic=True), 9), (Causal(), 12), (Offsets((1, 2)), 15),
                      (Edges(((1, 2), (2, 3), (3, 1), (1, 4))), 5)):
        g = build_graph(pat, size)
        outs, ins = conn_mod.adjacency_lists(g)
        src, dst = conn_mod._arc_arrays(g)
        into, out_of = conn_mod._InArcs(src, dst, size), conn_mod._InArcs(dst, src, size)
        for root in range(size):
            for true, grouped, preds, succs in ((conn_mod._plain_bfs(outs, root), into, ins, outs),
                                                (conn_mod._plain_bfs(ins, root), out_of, outs, ins)):
                for trial in range(8):
                    d = list(true)
                    for _ in range(rng.randint(1, 3) if trial else 0):
                        d[rng.randrange(size)] += rng.choice((-2, -1, 1, 2))
                    assert (conn_mod._valid_bfs(root, d, preds, succs)
                            == conn_mod._valid_bfs_arrays(root, np.array(d), grouped, size)), (pat, root, d)


def _local_conditions(root0, dist, preds, succs) -> bool:
    """The BFS check as local conditions: dist[root] = 0, every other vertex at distance ≥ 1 with a predecessor one
    step closer, no successor more than one step further."""
    n = len(preds)
    if len(dist) != n or dist[root0] != 0:
        return False
    for a in range(n):
        if a != root0 and (dist[a] < 1 or (dist[a] - 1) not in [dist[p] for p in preds[a]]):
            return False
        if succs[a] and max(dist[b] for b in succs[a]) > dist[a] + 1:
            return False
    return True


def test_bfs_check_decides_as_the_local_conditions():
    """`_valid_bfs` (a search from the root, compared entry by entry) accepts exactly the arrays the local conditions
    accept: on random digraphs, some not strongly connected (positions unreached, marked −1 or given a number), the
    true distances and copies with entries moved, as lists and tuples, in both directions."""
    rng = random.Random(11)
    accepted = rejected = unreached = 0
    for _ in range(400):
        n = rng.randint(1, 14)
        arcs = {(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3 * n))}
        outs = [[] for _ in range(n)]
        ins = [[] for _ in range(n)]
        for j, i in sorted(arcs):
            outs[j].append(i)
            ins[i].append(j)
        root = rng.randrange(n)
        for preds, succs in ((ins, outs), (outs, ins)):
            true = conn_mod._plain_bfs(succs, root)
            unreached += -1 in true
            for trial in range(6):
                d = list(true)
                if trial == 1 and -1 in true:
                    d = [rng.randint(1, n) if x < 0 else x for x in d]  # an unreached vertex given a number
                elif trial:
                    for _ in range(rng.randint(1, 2)):
                        d[rng.randrange(n)] += rng.choice((-2, -1, 1, 2))
                for given in (d, tuple(d)):
                    want = _local_conditions(root, given, preds, succs)
                    assert conn_mod._valid_bfs(root, given, preds, succs) == want, (arcs, root, given)
                    accepted += want
                    rejected += not want
    assert conn_mod._valid_bfs(0, [0, 1], [[], [0]], [[1], []]) and not conn_mod._valid_bfs(0, [0], [[], [0]], [[1], []])
    assert accepted > 200 and rejected > 1000 and unreached > 50
