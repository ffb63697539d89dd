"""Searches from every source of blocks of b (cliques) with arcs v → v − k, done for all sources at once on
matrices, against the searches they replaced: the directed diameter F117's onset search reads from the
eccentricities F118's class check computes (periodic_least.diameter) against periodic_exchanges.diameter_by_sources
and a breadth-first search per source; F115's survey of distances by stretch (periodic_lines.survey) against
periodic_lines.survey_by_sources."""
from __future__ import annotations

import random
from collections import deque

import pytest

from uapcheck.graphs import periodic_exchanges as F117
from uapcheck.graphs import periodic_least as F118
from uapcheck.graphs import periodic_lines as F115


def _by_search(n: int, b: int, jumps) -> int | None:
    """0-based positions; v's out-neighbours: its block mates and v − k."""
    def out(v):
        first = v // b * b
        yield from range(first, min(first + b, n))
        for k in jumps:
            if 0 <= v - k < n:
                yield v - k
    worst = 0
    for s in range(n):
        dist = {s: 0}
        queue = deque([s])
        while queue:
            v = queue.popleft()
            for w in out(v):
                if w not in dist:
                    dist[w] = dist[v] + 1
                    queue.append(w)
        if len(dist) < n:
            return None
        worst = max(worst, max(dist.values()))
    return worst


CASES = [(n, b, jumps) for n in (1, 2, 3, 5, 8, 13, 24, 61, 64, 65, 97)
         for b, jumps in [(4, (-6, -4, -2, 2, 4, 6)), (3, (-4, -2, 2, 4)), (1, (-1, 1)), (2, (3,)), (3, (-5, 2)),
                          (1, (2,)), (5, (-7, 7)), (2, (-3, -1, 4))]]


@pytest.mark.parametrize("n, b, jumps", CASES)
def test_the_eccentricities_give_the_diameter(n, b, jumps):
    want = F117.diameter_by_sources(n, b, jumps)
    assert F117._diameter(n, b, jumps) == want
    assert want == _by_search(n, b, jumps)


def test_random_blocks_and_jumps():
    rng = random.Random(20261205)
    for _ in range(150):
        n, b = rng.randint(1, 90), rng.randint(1, 6)
        jumps = tuple(sorted({rng.choice([-1, 1]) * rng.randint(1, 12) for _ in range(rng.randint(1, 4))}))
        assert F117._diameter(n, b, jumps) == F117.diameter_by_sources(n, b, jumps), (n, b, jumps)


def test_the_eccentricities_are_computed_once_and_kept_exact():
    F118._eccentricities_once.cache_clear()
    first = F118.eccentricities(61, 4, (6, 4, 2, -2, -4, -6))
    assert F118.eccentricities(61, 4, (-6, -4, -2, 2, 4, 6)) is first
    assert list(first) == F118._eccentricities(61, 4, (-6, -4, -2, 2, 4, 6))
    assert F118._eccentricities_once.cache_info().hits == 1


@pytest.mark.parametrize("seed", range(4))
def test_the_survey_by_stretches_on_matrices(seed):
    rng = random.Random(seed)
    for _ in range(60):
        n, b = rng.randint(1, 130), rng.randint(1, 6)
        jumps = {rng.choice([-1, 1]) * rng.randint(1, 12) for _ in range(rng.randint(1, 4))}
        if rng.random() < 0.5:
            jumps |= {-j for j in jumps}
        cut, short = rng.randint(1, 15), rng.randint(0, 4)
        args = (n, b, tuple(sorted(jumps)), cut, short)
        assert F115.survey(*args) == F115.survey_by_sources(*args), args


def test_the_survey_of_the_catalog_lines():
    """The pattern of catalog/blocks_dilated_exchange_n.uap (blocks(4) + dilated(3, 2)) at its base lengths."""
    for n in range(61, 152, 7):
        for cut, short in ((8, 0), (8, 5)):
            args = (n, 4, (-6, -4, -2, 2, 4, 6), cut, short)
            assert F115.survey(*args) == F115.survey_by_sources(*args), args
