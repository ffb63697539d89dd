"""The breadth-first rings on bit-set neighbourhoods (graphs/bit_rings.py) against a plain breadth-first search."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs.bit_rings import members, rings

from .reference import distances_from


@pytest.mark.parametrize("seed", range(40))
def test_rings_are_the_distance_classes_of_breadth_first_search(seed):
    rnd = random.Random(seed)
    n = rnd.randint(1, 40)
    p = rnd.choice((0.05, 0.1, 0.3))
    adj = {v: {v} for v in range(1, n + 1)}
    for u in range(1, n + 1):
        for v in range(1, n + 1):
            if u != v and rnd.random() < p:
                adj[u].add(v)
    near = [0] + [sum(1 << (v - 1) for v in adj[u]) for u in range(1, n + 1)]
    for root in range(1, n + 1):
        dist = distances_from(adj, root)
        got = rings(near, n, root)
        if len(dist) < n:
            assert got is None
            continue
        assert got is not None and len(got) == max(dist.values()) + 1
        for k, ring in enumerate(got):
            assert members(ring) == sorted(v for v, d in dist.items() if d == k)


def test_members_lists_the_set_bits_in_order():
    assert members(0) == []
    assert members(0b1011001) == [1, 4, 5, 7]
    assert members(1 << 600) == [601]
