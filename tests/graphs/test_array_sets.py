"""Distinct values and dense ranks by one sort (uapcheck/graphs/array_sets.py) equal numpy.unique's, and the engine
paths that use them leave numpy.ma unloaded (np.unique imports it, about 35 ms)."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from uapcheck.graphs.array_sets import dense_ranks, distinct


@pytest.mark.parametrize("seed", range(12))
def test_distinct_and_ranks_equal_numpy_unique(seed):
    rng = np.random.default_rng(seed)
    size = int(rng.integers(0, 400))
    dtype = (np.int64, np.uint64, np.int32)[seed % 3]
    low = 0 if dtype is np.uint64 else -50
    values = rng.integers(low, 60, size=size).astype(dtype)
    if seed % 4 == 0:
        values = values.reshape(-1, 1) if size else values
    want_values, want_ranks = np.unique(values, return_inverse=True)
    assert np.array_equal(distinct(values), want_values)
    assert distinct(values).dtype == want_values.dtype
    assert np.array_equal(dense_ranks(values), want_ranks.ravel())


def test_a_constant_and_an_empty_array():
    assert distinct(np.array([7, 7, 7])).tolist() == [7]
    assert dense_ranks(np.array([7, 7, 7])).tolist() == [0, 0, 0]
    assert distinct(np.array([], dtype=np.int64)).tolist() == []
    assert dense_ranks(np.array([], dtype=np.int64)).tolist() == []


_CHILD = """
import importlib, json, sys
from uapcheck.graphs import families, strided_classes
closed_connectivity = importlib.import_module("uapcheck.graphs.closed_connectivity")
out = {
    "eccentricity": closed_connectivity.circulant_eccentricity(1009, [3, 7, -11]),
    "collision": strided_classes.class_collision(strided_classes.low(3, 9) + 5, 3, 9),
    "refined": families.strided_refined_check(8, 9),
}
out["numpy.ma"] = "numpy.ma" in sys.modules
print(json.dumps(out))
"""


def test_the_engine_paths_that_dedupe_arrays_load_no_numpy_ma():
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["numpy.ma"] is False
    assert out["collision"] is None and out["refined"] is True   # F164's and F7's certificates hold there
    # the values themselves, a second way: the circulant's eccentricity by breadth-first search here
    n, jumps = 1009, (3, 7, -11)
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for j in jumps:
                v = (u + j) % n
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    assert out["eccentricity"] == max(dist.values())
