"""The verifier's F190 refinement in numpy (uapcheck/verifier/cyclic_window_directed.py `_properties`: every root at
once, colours as ids of sorted key rows) gives, length by length, what its first pure-Python form gives
(tests/cyclic_window_directed_reference.py: bit-set BFS, a search along the cycle, colours named by a dict of
tuples): the count premise and the far swap, and None where the union is not strongly connected. One head and two,
directed unions with a swap class and without, short and long lengths."""
from __future__ import annotations

import numpy as np
import pytest

from cyclic_window_directed_reference import distances, properties  # tests/ is on sys.path

from uapcheck.spec import Offsets, Window
from uapcheck.verifier import cyclic_window_directed as C

# (w, the offsets outside the window, lengths): D everywhere, a swap class mod 3, an open class mod 6, two-sided
ONE_HEAD = [(1, (2,), range(5, 40)), (2, (4,), range(8, 50, 3)), (4, (-4, 5), range(20, 208, 17)),
            (2, (-3, 5), range(12, 90, 7)), (3, (5,), range(10, 70, 6))]


@pytest.mark.parametrize("w, outside, lengths", ONE_HEAD, ids=[f"w{w}{list(o)}" for w, o, _ in ONE_HEAD])
def test_one_head_as_the_reference(w, outside, lengths):
    far = max(abs(x) for x in outside)
    for n in lengths:
        rows = [C._attended(w, outside, n)]
        assert C._properties(rows, w, far, 2) == properties(rows, w, far, 2), n


@pytest.mark.parametrize("n", [9, 17, 30, 41])
def test_two_heads_as_the_reference(n):
    """`offsets {2}` beside `window(1) cyclic`, and `offsets {-3, 5}` beside `window(2) cyclic`, as two heads."""
    for w, parts in ((1, (Offsets((2,), False), Window(1, True))), (2, (Offsets((-3, 5), False), Window(2, True)))):
        heads = [C._head_rows(p, n) for p in parts]
        far = max(abs(x) for x in parts[0].offsets)
        for rounds in (1, 2, 3):
            assert C._properties(heads, w, far, rounds) == properties(heads, w, far, rounds), (n, w, rounds)


def test_the_distances_as_the_reference():
    for n in (7, 23, 60):
        rows = C._attended(2, (-3, 5), n)
        assert np.array_equal(C._distances(rows), np.array(distances(rows)))
    # not strongly connected: offsets {2} alone, no window, at an even length
    rows = [{v, (v + 2) % 10} if v + 2 < 10 else {v} for v in range(10)]
    assert C._distances(rows) is None and distances(rows) is None
