"""Theorem F185 (docs/theory.md §11.11), `window(1) + strided(s)` with s even, checked a second way: the diameter from
every root (not a few), the distances of the proof's triple, and that the triple breaks F57's common-neighbour premise,
at every n of the open classes from the range's first length 7s through two periods, by breadth-first search on the
reference arcs; the triple's y lies past n − h + 2 on exactly the classes named (so its walk of h steps would leave
1..n), and nowhere else; and F120's check leaves exactly those classes open for every even s ≤ 24, as the theorem says."""
from __future__ import annotations

import pytest

from uapcheck.graphs.strided_least import beyond_classes
from uapcheck.spec import PatternUnion, Strided, Window

from .reference import attends, distances_from


def _named(s: int) -> set:
    h = s // 2
    return {0} | set(range(h + 2, s))


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12])
def test_the_triple_at_every_length_of_the_named_classes(s):
    h = s // 2
    for n in range(7 * s, 9 * s + 1):
        if n % s not in _named(s):
            continue
        arcs = attends(PatternUnion((Window(1), Strided(s))), n)
        near = {v: {u for u in range(1, n + 1) if (v, u) in arcs} for v in range(1, n + 1)}
        dist = {r: distances_from(near, r) for r in range(1, n + 1)}
        assert max(max(d.values()) for d in dist.values()) == h + 1, (s, n)   # D = M from every root
        x, z = s + h + 1, s + h + 2
        y = max(v for v in range(1, n + 1) if v % s == (h + 2) % s)
        assert (dist[1][x], dist[1][y], dist[1][z]) == (h + 1, h + 1, h), (s, n)
        assert y not in near[x] and z in near[x] and z in near[y], (s, n)


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12, 14, 16, 18])
def test_y_lies_past_n_minus_h_plus_2_exactly_on_the_named_classes(s):
    h = s // 2
    for n in range(7 * s, 9 * s):
        y = max(v for v in range(1, n + 1) if v % s == (h + 2) % s)
        assert (y >= n - h + 2) == (n % s in _named(s)), (s, n)


@pytest.mark.parametrize("s", [18, 20, 22, 24])
def test_f120_s_check_leaves_exactly_the_named_classes_open_up_to_24(s):
    found = beyond_classes(1, s)
    assert found is not None and set(found.pendant) == _named(s) and not found.open  # F199 decides what F120 leaves
    assert set(found.premise) == set(range(1, s // 2 + 2)) and not found.swaps and not found.far
