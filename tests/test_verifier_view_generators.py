"""The verifier's view decision (§11.9) reads G from the generators its caller gives; a generator that does not keep
every head's arcs would let a view witness pass as a symmetry, so the decision refuses such a G itself."""
from __future__ import annotations

import pytest

from uapcheck.verifier import views

pytest.importorskip("pynauty")


def _path(n: int) -> frozenset:
    """window(1) on a line: every position reads itself and its neighbours."""
    return frozenset((j, i) for i in range(1, n + 1) for j in (i - 1, i, i + 1) if 1 <= j <= n)


def test_a_rotation_is_not_taken_for_a_symmetry_of_a_line():
    n = 7
    rotation = [i % n + 1 for i in range(1, n + 1)]
    reason = views.decide([_path(n)], n, n - 1, [rotation])
    assert reason is not None and "does not keep every head's arcs" in reason


def test_the_reflection_of_a_line_is_accepted_and_decides_the_count():
    n = 7
    reflection = [n + 1 - i for i in range(1, n + 1)]
    assert views.decide([_path(n)], n, n - 1, [reflection]) is None


def test_each_head_must_be_kept_not_only_their_union():
    n = 6
    left = frozenset((j, i) for i in range(1, n + 1) for j in (i - 1, i) if j >= 1)
    right = frozenset((j, i) for i in range(1, n + 1) for j in (i, i + 1) if j <= n)
    reflection = [n + 1 - i for i in range(1, n + 1)]  # swaps the two one-sided heads: keeps their union only
    reason = views.decide([left, right], n, n - 1, [reflection])
    assert reason is not None and "does not keep every head's arcs" in reason
