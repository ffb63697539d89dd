"""Breadth-first searches over arc arrays that turn long and thin (path-like patterns) go on in C
(python-igraph) from their frontier: the distances are the same as the level-by-level numpy search."""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck.graphs import arc_arrays as A


def _level_by_level(monkeypatch, *args):
    with monkeypatch.context() as m:
        m.setattr(A, "LEVELS_BEFORE_C", 10 ** 9)
        return A.bfs(*args)


@pytest.mark.parametrize("seed", range(6))
def test_thin_search_in_c_gives_the_same_distances(monkeypatch, seed):
    rng = random.Random(seed)
    for _ in range(30):
        n = rng.randint(40, 2000)
        offs = rng.sample(range(-7, 8), rng.randint(1, 3))
        arcs = {(v, v + o) for v in range(n) for o in offs if 0 <= v + o < n}
        arcs |= {(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3))}
        codes = np.array(sorted(a * n + b for a, b in arcs), dtype=np.int64)
        indptr, targets = A.out_csr(codes, n)
        sources = rng.sample(range(n), rng.randint(1, 3))
        radius = rng.choice([None, None, rng.randint(1, n)])
        stop = rng.choice([None, rng.randrange(n)])
        monkeypatch.setattr(A, "LEVELS_BEFORE_C", rng.randint(1, 70))
        got = A.bfs(indptr, targets, n, sources, radius, stop)
        want = _level_by_level(monkeypatch, indptr, targets, n, sources, radius, stop)
        assert got.tolist() == want.tolist()


def test_a_path_switches_to_c(monkeypatch):
    """A directed path of 5,000 positions: the search leaves numpy after LEVELS_BEFORE_C levels."""
    n = 5000
    codes = np.array([v * n + v + 1 for v in range(n - 1)], dtype=np.int64)
    indptr, targets = A.out_csr(codes, n)
    calls = []
    real = A._c_bfs
    monkeypatch.setattr(A, "_c_bfs", lambda *a: calls.append(1) or real(*a))
    dist = A.bfs(indptr, targets, n, [0])
    assert calls and dist.tolist() == list(range(n))
