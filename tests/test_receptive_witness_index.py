"""The receptive-witness search's index (uapcheck/graphs/receptive.py, _WitnessIndex): for a set of bad
positions, the first position i whose receptive field R(i) meets the set while every member of the
set in R(i) lies at distance ≥ depth, checked against that definition directly on random patterns."""
from __future__ import annotations

import itertools
import random

import pytest

from uapcheck.graphs.build import PatternGraph
from uapcheck.graphs.receptive import _WitnessIndex, receptive_fields


def _random_graph(rng: random.Random, n: int, density: float) -> PatternGraph:
    codes = frozenset((j - 1) * n + (i - 1) for j in range(1, n + 1) for i in range(1, n + 1)
                      if i != j and rng.random() < density)
    return PatternGraph(n, codes)


def _first_by_definition(rec, depth: int, bad: set):
    for i in range(1, rec.n + 1):
        inside = [v for v in bad if v in rec.dist[i]]
        if inside and all(rec.dist[i][v] >= depth for v in inside):
            return i
    return None


@pytest.mark.parametrize("seed", range(40))
def test_the_first_qualifying_position_is_the_definitions(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 11)
    graphs = [_random_graph(rng, n, rng.choice([0.1, 0.25, 0.5])) for _ in range(rng.randint(1, 2))]
    rec = receptive_fields(graphs)
    for depth in range(0, rec.radius + 2):
        index = _WitnessIndex(rec, depth)
        subsets = [set(c) for k in range(0, min(n, 3) + 1) for c in itertools.combinations(range(1, n + 1), k)]
        subsets += [set(rng.sample(range(1, n + 1), rng.randint(1, n))) for _ in range(20)]
        for bad in subsets:
            assert index.first(bad) == _first_by_definition(rec, depth, bad), (n, depth, bad)


def test_a_path_finds_the_far_end():
    # 1 → 2 → 3 → 4: R(4) = {1, 2, 3, 4} with d(1 → 4) = 3
    graph = PatternGraph(4, frozenset((j - 1) * 4 + j for j in range(1, 4)))
    rec = receptive_fields([graph])
    index = _WitnessIndex(rec, 3)
    assert index.first({1}) == 4  # only at 4 is position 1 three steps away
    assert index.first({1, 2}) is None  # 2 is nearer than 3 to every position that 1 reaches at distance ≥ 3
    assert index.first(set()) is None
