"""Circulant reach for the circular convolution mixer (docs/theory.md §22).

With taps K ⊆ Z, position i reads x_{i+k mod n} for k ∈ K (and keeps x_i through the residual), so
after m layers it reads the offsets of the m-fold sum set of K ∪ {0} modulo n.
"""
from __future__ import annotations

import math
from typing import Optional

#: The sum-set recurrence is run for n up to this (plain Python sets of residues).
MAX_CIRCULANT_N = 1_000_000


def tap_gcd(n: int, taps) -> int:
    """gcd(n, K \\ {0} mod n); n when every tap is 0 mod n (no mixing)."""
    nonzero = sorted({t % n for t in taps} - {0})
    return math.gcd(n, *nonzero) if nonzero else n


def sumset_depth(n: int, taps) -> Optional[int]:
    """The least m ≥ 0 with (K ∪ {0})^{+m} = Z_n; None when K \\ {0} does not generate Z_n."""
    if tap_gcd(n, taps) != 1:
        return None if n > 1 else 0
    steps = sorted({t % n for t in taps} - {0})
    reached = {0}
    frontier = {0}
    m = 0
    while len(reached) < n:
        m += 1
        nxt = set()
        for s in frontier:
            for k in steps:
                r = (s + k) % n
                if r not in reached:
                    nxt.add(r)
        reached |= nxt
        frontier = nxt
    return m


def missing_offset(n: int, taps, m: int) -> Optional[int]:
    """An offset s ∈ Z_n outside the m-fold sum set of K ∪ {0} (None: none)."""
    steps = sorted({t % n for t in taps} - {0})
    reached = {0}
    for _ in range(m):
        reached |= {(s + k) % n for s in reached for k in steps}
    return next((s for s in range(n) if s not in reached), None)


def scaled_interval(taps) -> Optional[tuple[int, int, int]]:
    """(s, a, b) when K ∪ {0} = s·[a, b] = {s·a, …, s·b} with s ≥ 2 the gcd of the non-zero taps and
    b − a ≥ 1 (`{0, 2}`: s = 2, [0, 1]); else None. Then gcd(n, K \\ {0}) = gcd(n, s) for every n."""
    nonzero = sorted({abs(t) for t in taps} - {0})
    if not nonzero:
        return None
    s = math.gcd(*nonzero)
    if s < 2:
        return None
    scaled = sorted({t // s for t in taps} | {0})
    if interval_width(scaled) is None:
        return None
    return s, scaled[0], scaled[-1]


def interval_width(taps) -> Optional[int]:
    """b − a when K ∪ {0} is the integer interval [a, b] (with a < b), else None."""
    vals = sorted(set(taps) | {0})
    if len(vals) >= 2 and vals == list(range(vals[0], vals[-1] + 1)):
        return vals[-1] - vals[0]
    return None
