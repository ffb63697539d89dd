"""Theorem F11 (docs/theory.md §11.11): `window(w) + strided(s)` with w + 2 ≤ s ≤ 2w + 1.

The diameter's case split by n mod s is compared with a breadth-first search written here (not the
engine's) at every n from the theorem's range start up to it + 3s, for every w ≤ 4; the group and the
layer count are compared with the concrete engine (graphs, BLISS, rooted views) in
tests/graphs/test_symbolic_families.py at every n ≤ 60 in range. Below the range the formula is not
claimed; the engine's own examples from issue 9 are pinned here too.
"""
from __future__ import annotations

from collections import deque

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.spec import PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)


def _diameter(n: int, w: int, s: int) -> int:
    best = 0
    for start in range(1, n + 1):
        dist = {start: 0}
        queue = deque([start])
        while queue:
            x = queue.popleft()
            for y in range(1, n + 1):
                if y not in dist and (abs(x - y) <= w or (x - y) % s == 0):
                    dist[y] = dist[x] + 1
                    queue.append(y)
        assert len(dist) == n
        best = max(best, max(dist.values()))
    return best


@pytest.mark.parametrize("w,s", [(w, s) for w in range(1, 5) for s in range(w + 2, 2 * w + 2)])
def test_the_diameter_by_residue_agrees_with_a_search(w, s):
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    assert theorem.theorem == "F11" and theorem.group == "reflection"
    assert theorem.least  # Theorems F53 and, for s = w + 2 ≤ 7, F81 (tests/graphs/test_strided_least.py)
    low = int(theorem.low)
    for n in range(low, low + 3 * s):
        want = _diameter(n, w, s)
        assert F.at(theorem, {"n": n})["diameter"] == want
        # F53: D where D = 3 (a), D + 1 where D = 2 (b); s = w + 2, w ≥ 2: D at every n (F81)
        assert F.at(theorem, {"n": n})["layers"] == (want if s == w + 2 and w >= 2 else 3)


def test_the_issue_s_examples():
    """window(1) + strided(3): D = 3 iff 3 | n; window(2) + strided(5): D = 3 iff n mod 5 ∈ {0, 1, 4}."""
    for (w, s), far in (((1, 3), {0}), ((2, 5), {0, 1, 4})):
        assert {m for m in range(s) if F.wide_stride_far(w, s, m)} == far


def test_wider_strides_are_theorem_f14():
    """s ≥ 2w + 2: Theorem F14 (tests/graphs/test_stride_beyond.py checks it)."""
    found = F.match([PatternUnion((Window(2), Strided(6)))], N, {})  # (window(1) + strided(4): least since F199)
    assert isinstance(found, F.FamilyTheorem) and found.theorem == "F14" and not found.least
