"""Theorem F185 (docs/theory.md §11.11): for `window(1) + strided(s)` with s even, the common-neighbour premise of F57
fails at the root 1 on n ≡ 0, s/2 + 2, …, s − 1 (mod s), by the triple of its proof, checked by breadth-first search on
the reference arcs; and Theorem F120's check leaves exactly these classes, which Theorem F199 decides."""
from __future__ import annotations

import pytest

from uapcheck.graphs.strided_least import beyond_classes
from uapcheck.spec import PatternUnion, Strided, Window

from .reference import attends, distances_from


def _open_classes(s: int) -> set:
    h = s // 2
    return {0} | set(range(h + 2, s))


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12, 14, 16])
def test_the_triple_breaks_the_premise_on_the_open_classes(s):
    h = s // 2
    for n in range(7 * s, 9 * s + 1):
        if n % s not in _open_classes(s):
            continue
        arcs = attends(PatternUnion((Window(1), Strided(s))), n)
        adj = {v: {u for u in range(1, n + 1) if (v, u) in arcs} for v in range(1, n + 1)}
        dist = distances_from(adj, 1)
        diameter = max(max(distances_from(adj, r).values()) for r in (1, n // 2, n))
        x, z = s + h + 1, s + h + 2
        y = max(v for v in range(1, n + 1) if v % s == (h + 2) % s)
        assert diameter == 1 + h == dist[x] == dist[y] and dist[z] == h, (s, n)
        assert y not in adj[x] and x in adj[z] and y in adj[z], (s, n)


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12, 14, 16])
def test_f120_s_check_leaves_exactly_these_classes_to_f199(s):
    found = beyond_classes(1, s)
    assert found is not None and set(found.pendant) == _open_classes(s) and not found.open  # Theorem F199 decides them
    assert set(found.premise) == set(range(1, s // 2 + 2)) and not found.swaps and not found.far
