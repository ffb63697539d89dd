"""Theorem F7's base case (graphs/families.py `strided_ball_separates`): colour refinement on the ball around
position 1, where each position's marks are the ball's positions within distance w or in its class mod s. The
marks are read off the window and the class (about 2w + M/s positions) instead of a scan of the whole ball (M
positions), and refined on arrays (`refine_on_lists`: each position's sorted marks as a row of integers, rows told
apart by sorting them) instead of dicts of tuples; checked against the whole-ball scan refined by `refine_on_ball`,
as the engine read it before, for every w ≤ 8, 2 ≤ s ≤ w + 2 and radius ≤ w + 4, and the two refinements against
each other on random marked structures (the same stable partition)."""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck.graphs import families as F


def _by_scanning_the_ball(w: int, s: int, radius: int):
    """The base case with each position's marks found by scanning every position of the ball."""
    extent = 1 + radius * w
    cross = {d for d in range(1, w + 1) if d % s}
    dist = {1: 0}
    frontier = [1]
    while frontier:
        nxt = []
        for u in frontier:
            for d in cross:
                for v in (u - d, u + d):
                    if 1 <= v <= extent and v not in dist and dist[u] + 1 <= radius:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    ball = sorted(dist)

    def marks(v, colour):
        return [(abs(v - u) <= w or (v - u) % s == 0, (v - u) % s == 0, colour[u])
                for u in ball if u != v and (abs(v - u) <= w or (v - u) % s == 0)]
    colour = F.refine_on_ball(ball, {v: dist[v] for v in ball}, marks)
    return extent if F.each_alone(colour, ball, range(1, w + 1)) else None


@pytest.mark.parametrize("w", range(1, 9))
def test_the_base_case_is_the_whole_ball_scan(w):
    outcomes = set()
    for s in range(2, w + 3):
        for radius in range(0, w + 5):
            got = F.strided_ball_separates(w, s, radius)
            assert got == _by_scanning_the_ball(w, s, radius), (w, s, radius)
            outcomes.add(got is None)
    if w >= 3:
        assert outcomes == {True, False}  # both answers occur: the comparison tells them apart


def test_the_merged_sparse_transformer_head_base_case():
    """window(64) + strided(64) (catalog/sparse_transformer_merged_4096.uap): the least extent is 1 + 63·64."""
    assert F.strided_base_check(64, 64) == 1 + 63 * 64


def _partition(colour, points) -> set:
    cells: dict = {}
    for v in points:
        cells.setdefault(colour[v], set()).add(v)
    return {frozenset(c) for c in cells.values()}


@pytest.mark.parametrize("seed", range(40))
def test_refinement_on_arrays_ends_with_the_partition_of_refinement_on_dicts(seed):
    rng = random.Random(seed)
    count = rng.randint(1, 30)
    first = [rng.randint(0, 2) for _ in range(count)]
    lists = {v: [(u, rng.randint(0, 2)) for u in rng.sample(range(count), rng.randint(0, min(count, 6)))]
             for v in range(count)}
    want = F.refine_on_ball(list(range(count)), dict(enumerate(first)),
                            lambda v, colour: [(tag, colour[u]) for u, tag in lists[v]])
    rows = np.array([v for v in range(count) for _ in lists[v]], dtype=np.int64)
    cols = np.array([u for v in range(count) for u, _ in lists[v]], dtype=np.int64)
    tags = np.array([tag for v in range(count) for _, tag in lists[v]], dtype=np.int64)
    got = F.refine_on_lists(np.array(first, dtype=np.int64), rows, cols, tags)
    assert _partition(got.tolist(), range(count)) == _partition(want, range(count))


@pytest.mark.parametrize("seed", range(20))
def test_row_ranks_are_the_ranks_numpy_unique_gives_the_rows(seed):
    """F7's step (6″) ranks its (colour, sum) rows with `_row_ranks` as it did with np.unique: the same numbers."""
    rng = np.random.default_rng(seed)
    rows, cols = int(rng.integers(1, 60)), int(rng.integers(1, 4))
    table = rng.integers(0, 4, size=(rows, cols)).astype(np.uint64)
    if seed % 2:
        table[:, -1] = rng.integers(0, 2**64 - 1, size=rows, dtype=np.uint64, endpoint=True)  # wrapped sums
        table[rows // 2:, -1] = table[:rows - rows // 2, -1]
    want = np.unique(table, axis=0, return_inverse=True)[1].ravel()
    assert F._row_ranks(table).tolist() == want.tolist()
