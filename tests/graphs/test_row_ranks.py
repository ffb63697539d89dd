"""graphs/row_ranks.py: two rows get the same number exactly when they are equal, checked against a dictionary of the
rows as tuples, on random small arrays, and with every digest forced equal (the exact sort of whole rows takes over)."""
from __future__ import annotations

import numpy as np
import pytest

from uapcheck.graphs import row_ranks as R


def _same_partition(rows, ranks):
    names: dict = {}
    expected = [names.setdefault(tuple(row), len(names)) for row in rows.tolist()]
    pairs = set(zip(expected, ranks.tolist()))
    assert len(pairs) == len(names) == len(set(ranks.tolist()))   # a bijection between the rows' values and the ranks
    assert sorted(set(ranks.tolist())) == list(range(len(names)))  # dense


@pytest.mark.parametrize("seed", range(6))
def test_equal_rows_and_equal_ranks(seed):
    rng = np.random.default_rng(seed)
    rows = rng.integers(-3, 4, size=(400, 1 + seed % 4))
    rows[::7] = rows[0]
    rows[:, 0] += (1 << 40) * (seed % 2)              # large values (the padding's colour) as well
    _same_partition(rows, R.row_ranks(rows))


def test_a_shared_digest_falls_back_to_the_whole_rows(monkeypatch):
    monkeypatch.setattr(R, "_MIX", (0,) * 8)          # every row's digest is 0
    rows = np.random.default_rng(9).integers(0, 3, size=(300, 3))
    _same_partition(rows, R.row_ranks(rows))


def test_empty_and_zero_width():
    assert R.row_ranks(np.zeros((0, 3), dtype=np.int64)).size == 0
    assert R.row_ranks(np.zeros((4, 0), dtype=np.int64)).tolist() == [0, 0, 0, 0]
