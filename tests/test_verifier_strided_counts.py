"""The verifier's window(w) + strided(s) checks counted, not built (docs/theory.md §18.2): Theorem F164's pair keys
from neighbour counts (formerly two products of the n × n adjacency matrix: above about 16,000 positions the step was
trusted) and F7's base case, colour refinement on the cross ball in linear space (formerly every pair of the ball:
out of memory at w = 64). Each is compared with its definition computed the direct way."""
from __future__ import annotations

import time

import numpy as np
import pytest

from uapcheck.verifier import families as F


def _keys_by_matrices(w: int, s: int, n: int) -> tuple[set, set]:
    """F164's keys from the adjacency matrix A (closed neighbourhoods): |N(v) ∩ N(i)| = (A·A)[v, i] and the sum
    Σ over x ∈ N(v) ∩ N(i) of |N(x) ∩ N(i)| = (A·(A ∘ (A·A)))[v, i], over the roots i < (n + 1)/2."""
    pos = np.arange(n)
    diff = pos[:, None] - pos[None, :]
    adj = ((np.abs(diff) <= w) | (diff % s == 0)).astype(np.int64)
    half = (n + 1) // 2
    common = adj @ adj[:, :half]
    weighted = adj @ (adj[:, :half] * common)
    degree = adj.sum(axis=1)
    v, i = np.nonzero(adj[:, :half])
    keep = v != i
    v, i = v[keep], i[keep]
    keys = np.stack([degree[i], degree[v], common[v, i], weighted[v, i]], axis=1)
    one_class = (v - i) % s == 0
    return set(map(tuple, keys[one_class].tolist())), set(map(tuple, keys[~one_class].tolist()))


@pytest.mark.parametrize("w", range(1, 8))
def test_f164_keys_are_the_matrix_products(w):
    """At the start of F164's range, a little above it, and at lengths of both parities beyond, for every s."""
    for s in range(2, w + 2):
        low = 6 * w + 4 * s + 1
        for n in sorted({low, low + 1, low + s + 2, low + 3 * w + 5, 2 * low + 1}):
            assert F.f164_keys(w, s, n) == _keys_by_matrices(w, s, n), (w, s, n)


def test_f164_verifies_at_large_lengths_within_seconds():
    """window(8) + strided(5) and window(64) + strided(64) at 4,096 and 65,536 positions: the keys separate the
    classes (G the reflection, 2 layers, least), in seconds and without an n × n matrix."""
    for w, s, n in ((8, 5, 65536), (64, 64, 4096), (64, 64, 65536)):
        start = time.process_time()
        fam = F._f164(w, s, n)
        assert fam is not None and fam.theorem == "F164" and fam.least_at(n), (w, s, n)
        assert time.process_time() - start < 20, (w, s, n)


def _cross_ball_by_pairs(w: int, s: int, radius: int) -> bool:
    """F7's base case as stated: colour refinement on the ball with every pair's type (adjacent in Γ, one class)."""
    top = 1 + radius * w
    dist = {1: 0}
    frontier = [1]
    for d in range(1, radius + 1):
        nxt = []
        for u in frontier:
            for v in range(max(1, u - w), min(top, u + w) + 1):
                if v not in dist and v != u and (v - u) % s:
                    dist[v] = d
                    nxt.append(v)
        frontier = nxt
    ball = sorted(dist)
    colour = {v: dist[v] for v in ball}
    while True:
        sig = {v: (colour[v], tuple(sorted(((abs(u - v) <= w or (u - v) % s == 0, (u - v) % s == 0), colour[u])
                                           for u in ball if u != v))) for v in ball}
        ids = {x: k for k, x in enumerate(sorted(set(sig.values())))}
        new = {v: ids[sig[v]] for v in ball}
        if len(set(new.values())) == len(set(colour.values())):
            break
        colour = new
    sizes: dict = {}
    for v in ball:
        sizes[colour[v]] = sizes.get(colour[v], 0) + 1
    return all(v in colour and sizes[colour[v]] == 1 for v in range(1, w + 1))


def test_cross_ball_refinement_is_the_pairwise_one():
    """Every 2 ≤ s ≤ w + 1, w ≤ 9, at every radius F7 tries (w − 1 … w + 4): both answers (True and False occur)."""
    answers = set()
    for w in range(1, 10):
        for s in range(2, w + 2):
            for radius in range(max(1, w - 1), w + 5):
                mine = F._cross_ball_separates(w, s, radius)
                assert mine == _cross_ball_by_pairs(w, s, radius), (w, s, radius)
                answers.add(mine)
    assert answers == {True, False}


def test_f7_builds_at_w_64():
    """F7's base case at w = 64 (out of memory before) and at w = 41 (26 s before)."""
    start = time.process_time()
    for w, s in ((64, 64), (64, 2), (41, 20)):
        fam = F._f7(w, s)
        assert fam is not None and fam.low >= s * (4 * w + 3), (w, s)
    assert time.process_time() - start < 30
