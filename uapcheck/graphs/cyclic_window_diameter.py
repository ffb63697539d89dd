"""The diameter of `window(w) cyclic` with non-cyclic offsets outside it: Theorem F168 of docs/theory.md §11.11.

With S = {−w, …, w} ∪ A without 0 (A the non-cyclic offsets outside the window, Theorem F101), a = −min S,
b = max S and P = a + b: every arc of Γ_n lifts to a step of S on Z, and a walk that crosses the seam between n and
1 does so by a window step, so d(u → v) is the least of ℓ(v − u) (no crossing, F40 (a)) and the two crossing costs
(F168 (1)); for u < v those are a function Λ(u, n + 1 − v) of the two end distances and the forward crossing, never
shorter. ℓ and Λ grow by one when p = v − u grows by b and u or n + 1 − v by a (the rays of F27 (d)), so
D(n + P) = D(n) + 1 for n ≥ N₀ (F168 (2)): D = ⌊n/P⌋ + h(n mod P), h read off one period by breadth-first search, and
below N₀ each length is re-decided downwards to the first that differs (the stated range is sharp).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import ceil, floor
from typing import Optional

from .circulant_general import constants, reduce_jumps
from .offsets_line import rays

#: The base check and the onset search run breadth-first searches up to this length; beyond it only F101's bound on
#: D is stated.
MAX_CHECK_N = 400


@dataclass(frozen=True)
class SeamDiameter:
    period: int                  # P = a + b
    proved_low: int              # N₀ of F168 (2): D(n + P) = D(n) + 1 for n ≥ N₀
    low: int                     # D(n) = ⌊n/P⌋ + excess[n mod P] for every n ≥ low (re-decided on [low, N₀))
    excess: tuple[int, ...]      # h by residue of n mod P

    def diameter(self, n: int) -> int:
        return n // self.period + self.excess[n % self.period]


def proved_low(w: int, outside: tuple[int, ...]) -> int:
    """N₀ of F168 (2) (docs/theory.md §11.11): the conditions (c1)–(c4) of its proof."""
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    small, large = min(a, b), max(a, b)
    c = constants(reduce_jumps(steps))
    r = rays(steps, c)
    k = c.k_slope
    ray_start = max(r.plus, r.minus)
    corner = 1 + 2 * k + Fraction(2 * (w + ray_start + large), small)     # C₁: Λ below it near the seam's corner
    return max(a + b, 2 * w + 3,
               ceil(large * k),                                          # (c2) the forward crossing is never shorter
               ceil((2 * k + 1) * large * (a + b) / small),              # (c3) no walk winds twice
               (a + b) * (floor(max(Fraction(r.edge), corner)) + 2) + w + 1)   # (c4) D above E and C₁


def diameter_at(n: int, w: int, outside: tuple[int, ...]) -> Optional[int]:
    """D of the union at the length n by breadth-first search from every position at once (bit sets), None when not
    strongly connected: position i reaches i + k for the cyclic window's k (mod n) and k ∈ A inside 1..n."""
    outs: list[list[int]] = []
    for i in range(n):
        row = {(i + k) % n for k in range(-w, w + 1)} | {i + k for k in outside if 0 <= i + k < n}
        outs.append(sorted(row - {i}))
    level = [1 << i for i in range(n)]
    full = (1 << n) - 1
    depth = 0
    while any(ball != full for ball in level):
        grown = level[:]
        for i, targets in enumerate(outs):
            for j in targets:
                grown[i] |= level[j]
        if grown == level:
            return None
        level, depth = grown, depth + 1
    return depth


@lru_cache(maxsize=128)
def seam_diameter(w: int, outside: tuple[int, ...], floor_low: int) -> Optional[SeamDiameter]:
    """F168 for `window(w) cyclic` with the non-cyclic offsets ``outside`` (A, sorted, outside the window), its
    range searched down to ``floor_low`` at most; None when the base check lies beyond MAX_CHECK_N."""
    a = max([w] + [-k for k in outside])
    b = max([w] + list(outside))
    period = a + b
    n0 = proved_low(w, outside)
    if n0 + period > MAX_CHECK_N:
        return None
    table = [0] * period
    for n in range(n0, n0 + period):
        d = diameter_at(n, w, outside)
        if d is None:
            return None
        table[n % period] = d - n // period
    found = SeamDiameter(period, n0, n0, tuple(table))
    low = n0
    while low - 1 >= max(floor_low, 2 * w + 3) and diameter_at(low - 1, w, outside) == found.diameter(low - 1):
        low -= 1
    return SeamDiameter(period, n0, low, tuple(table))
