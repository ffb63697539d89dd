"""The G-orbits of a group whose generators are too many to list (docs/theory.md §11.9, (R4)): read from BLISS's
generators of the twin quotient one at a time into a union-find on arrays (`symmetry._orbit_roots`), while that list
fits a quarter of the file's memory limit (its size bounded by min(bits of the order, 3q/2) generators on q classes);
beyond it the rooted views say the orbits are unknown and name the size and the bound. `star` beside `blocks(4)` at
n = 4,000 (bits of the order × classes above the former 5·10⁶ entries) had its orbits left unknown."""
from __future__ import annotations

import math
import random

import pytest

from uapcheck import budget
from uapcheck import spec as S
from uapcheck.graphs import symmetry
from uapcheck.graphs.build import build_graph


def _python_orbits(size: int, generators) -> list[int]:
    parent = list(range(size))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x
    for g in generators:
        for k in range(size):
            a, b = find(k), find(g[k])
            if a != b:
                parent[max(a, b)] = min(a, b)
    return [find(k) for k in range(size)]


@pytest.mark.parametrize("seed", range(12))
def test_the_array_union_find_gives_the_orbits_of_the_generators(seed):
    rng = random.Random(seed)
    size = rng.choice([1, 2, 7, 50, 400])
    gens = []
    for _ in range(rng.randrange(0, 5)):
        kind = rng.random()
        perm = list(range(size))
        if kind < 0.3:  # one long cycle on a random subset
            chosen = rng.sample(range(size), rng.randrange(0, size + 1))
            for a, b in zip(chosen, chosen[1:] + chosen[:1]):
                perm[a] = b
        else:
            rng.shuffle(perm)
        gens.append(perm + [size + k for k in range(rng.randrange(0, 3))])  # extra vertices beyond the classes
    assert symmetry._orbit_roots(size, iter(gens)) == _python_orbits(size, gens)


def test_the_generators_are_given_one_at_a_time_as_listed():
    from uapcheck import bliss
    from uapcheck.lazy import digraph
    g = digraph(12, [(k, (k + 1) % 12) for k in range(12)] + [((k + 1) % 12, k) for k in range(12)])
    assert list(bliss.each_generator(g)) == bliss.generators(g)


def test_orbits_beyond_the_former_bound_are_read():
    n = 4000
    graphs = [build_graph(S.Star(), n), build_graph(S.Blocks(4), n)]
    group = symmetry.symmetry_group(graphs)
    assert group.generators is None  # too many to list
    classes, bits = 1000, math.factorial(999).bit_length()  # the 999 blocks beyond the hub's, {1} and {2, 3, 4}: |Q| = 999!
    assert bits * classes > symmetry.MAX_ORBIT_ENTRIES  # the former bound: "orbits unknown"
    assert group.orbit_of is not None and group.orbits_why == ""
    assert group.orbit_of == tuple([0] + [1] * 3 + [4] * (n - 4))


def test_beyond_the_memory_bound_the_views_name_the_size(monkeypatch):
    from uapcheck.graphs.views import decide_views
    monkeypatch.setattr(symmetry, "MAX_ORBIT_ENTRIES", 1000)
    monkeypatch.setattr(budget, "memory_bytes", 4 * 10_000 * symmetry.ORBIT_BYTES_PER_ENTRY)  # a bound of 10,000
    monkeypatch.setattr(symmetry, "MAX_GENERATOR_ENTRIES", 1000)
    n = 400
    graphs = [build_graph(S.Star(), n), build_graph(S.Blocks(4), n)]
    group = symmetry.symmetry_group(graphs)
    assert group.generators is None and group.orbit_of is None
    assert "entries" in group.orbits_why and "10,000" in group.orbits_why, group.orbits_why
    structure = symmetry.pattern_structure(graphs)
    decision = decide_views(graphs, 2, int(group.order), None, structure.preserves, probe_work=0,
                            orbits_why=group.orbits_why)
    assert decision.sufficient is None and group.orbits_why in decision.reason
