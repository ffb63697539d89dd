"""T5's released bucket function in floating point, for the tests that compare the engines' exact buckets with it
(shared by the tests of T5 buckets; tests/ is on sys.path)."""
from __future__ import annotations

import math


def released_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    """T5's bidirectional _relative_position_bucket(j − i = m), as released (floating-point logarithm)."""
    half = num_buckets // 2
    ret = half if m > 0 else 0
    d = abs(m)
    exact = half // 2
    if d < exact:
        return ret + d
    large = exact + int(math.log(d / exact) / math.log(max_distance / exact) * (half - exact))
    return ret + min(large, half - 1)
