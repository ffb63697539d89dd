"""The verifier calls nauty on digraphs through an undirected encoding (uapcheck/verifier/nauty_digraph.py): the same
group as the digraph's, checked against every permutation at small sizes, and a directed path of 2,000 vertices in a
fraction of a second (nauty with `directed=True` took about 45 s there, growing like k³)."""
from __future__ import annotations

import itertools
import random
import time

import pytest

pytest.importorskip("pynauty")

from uapcheck.verifier import groups, nauty_digraph  # noqa: E402


def _brute_order(k: int, arcs: set, colour: list) -> int:
    return sum(1 for p in itertools.permutations(range(k))
               if all(colour[p[v]] == colour[v] for v in range(k)) and {(p[u], p[v]) for u, v in arcs} == arcs)


@pytest.mark.parametrize("seed", range(40))
def test_the_encoding_gives_the_digraphs_group(seed):
    rng = random.Random(seed)
    k = rng.randint(1, 6)
    arcs = {(u, v) for u in range(k) for v in range(k) if rng.random() < 0.35}  # loops too
    colour = [rng.randint(0, 1) for _ in range(k)]
    cells = [{v for v in range(k) if colour[v] == c} for c in (0, 1)]
    out: dict = {}
    for u, v in arcs:
        out.setdefault(u, []).append(v)
    gens = nauty_digraph.generators(k, out, cells)
    for g in gens:
        assert {(g[u], g[v]) for u, v in arcs} == arcs and all(colour[g[v]] == colour[v] for v in range(k))
    assert groups.order([[v + 1 for v in g] for g in gens], k) == _brute_order(k, arcs, colour)


def test_a_directed_path_is_fast():
    k = 2000
    start = time.perf_counter()
    assert nauty_digraph.generators(k, {v: [v + 1] for v in range(k - 1)}) == []
    assert time.perf_counter() - start < 5


def test_the_group_of_a_one_label_path_is_fast():
    """groups.full_generators on the arcs of a directed path (one label): nauty's generators, none, within seconds."""
    n = 2000
    lab = {(j, j + 1): 1 for j in range(1, n)}
    start = time.perf_counter()
    gens, method = groups.full_generators(lab, n, "none")
    assert gens == [] and "nauty" in method
    assert time.perf_counter() - start < 5


def test_the_directed_cycle_keeps_its_rotations():
    k = 12
    gens = nauty_digraph.generators(k, {v: [(v + 1) % k] for v in range(k)})
    assert groups.order([[v + 1 for v in g] for g in gens], k) == k


@pytest.mark.parametrize("seed", range(40))
def test_a_symmetric_digraph_on_its_plain_graph_gives_the_same_group(seed):
    """Every arc with its reverse (loops on some vertices, colours, a vertex in no listed cell): nauty runs on the k
    vertices alone (nauty_digraph._symmetric), and the group is still every permutation keeping arcs and colours."""
    rng = random.Random(100 + seed)
    k = rng.randint(1, 7)
    edges = {(u, v) for u in range(k) for v in range(u + 1, k) if rng.random() < 0.4}
    arcs = edges | {(v, u) for u, v in edges} | {(v, v) for v in range(k) if rng.random() < 0.5}
    colour = [rng.randint(0, 2) for _ in range(k)]
    cells = [{v for v in range(k) if colour[v] == c} for c in (0, 1)]  # colour 2: in no listed cell
    out: dict = {}
    for u, v in arcs:
        out.setdefault(u, []).append(v)
    assert nauty_digraph._symmetric(k, out) is not None
    gens = nauty_digraph.generators(k, out, cells)
    for g in gens:
        assert {(g[u], g[v]) for u, v in arcs} == arcs and all(colour[g[v]] == colour[v] for v in range(k))
    assert groups.order([[v + 1 for v in g] for g in gens], k) == _brute_order(k, arcs, colour)


def test_one_arc_without_its_reverse_is_not_read_as_symmetric():
    assert nauty_digraph._symmetric(3, {0: [1], 1: [0, 2]}) is None
    gens = nauty_digraph.generators(3, {0: [1], 1: [0, 2]})
    assert groups.order([[v + 1 for v in g] for g in gens], 3) == 1  # 0 - 1 → 2: no symmetry, as a digraph
