"""Theorem F81's step (6′) (docs/theory.md §11.11): no view witness of `window(w) + strided(w + 2)` at depth 2, here
for w = 4 (the first width the step proves without the finite check) by a view-witness search by backtracking written
apart from the engine (tests/graphs/backtrack_views.py), at every root near the start, where steps (3′) and (6′) treat
the end cells and the empty run (the reflection carries the roots near the end onto them), and with `global(1)`
(F33 (b)): the reduction to the base's witness condition on the non-global positions."""
from __future__ import annotations

import pytest

from .backtrack_views import view_witness
from .brute_views import neighbourhoods


ENDS = list(range(1, 3 * 6 + 1))  # 3s positions: every residue of the first three classes' members


@pytest.mark.parametrize("pattern, n, roots", [
    ("window(4) + strided(6)", 118, ENDS + [59]),          # n ≡ w (mod s): the end counts agree (3′)
    ("window(4) + strided(6) + global(1)", 119, [r + 1 for r in ENDS[:8]]),
])
def test_no_view_witness_at_depth_two_by_backtracking(pattern, n, roots):
    nbs = neighbourhoods([pattern], n)
    assert view_witness(nbs, n, 2, roots) is None
    assert view_witness(nbs, n, 1, roots[:1]) is not None  # the search finds a witness where one exists
