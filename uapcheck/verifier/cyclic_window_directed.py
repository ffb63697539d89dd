"""Theorem F190 (docs/theory.md §11.11), restated for the verifier: `window(w) cyclic` with non-cyclic offsets A ≠ −A
outside it (one directed head, G trivial by F101). At every length from the range's start through N₂ + P − 1, on
the verifier's own arcs: at every root i with positions at distance D (d(x → i), the union's BFS), the colours that
two rounds of refinement give the positions of the rooted view (start: the distance; a round adds the sorted colours of
the positions a ball position attends to, and of the ball positions attending to the position) must decide whether a
far position u attends to x, for every x with d(x → i) ≥ D − ⌈J/w⌉, together with the sorted colours of the ball
positions attending to both (the count premise: D layers on the class); or some root has two far positions attended
by the same ball positions (a swap witness: D + 1, least). Its own N₂ from its own word lengths
(``offsets_line.ray_constants``). Shares no code with the engines.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil
from typing import Optional, Sequence

#: The check's last length N₂ + P − 1 must lie below this (the engine's limit too).
MAX_CHECK_N = 300
#: Rounds of colour refinement (the engine's F190 check uses the same number; the theorem holds for any fixed one).
ROUNDS = 2


def cut_low(w: int, outside: Sequence[int], base_low: int) -> int:
    """N₂ of Theorem F190 (a): at least ``base_low`` (F168's N₀, the verifier's own), and n with α·((n − w)/P − 4 − 2K −
    t) ≥ (r + 2)J + 4L + 2β + 6, r = ROUNDS, t = ⌈J/w⌉, L = w + max(M₊′, M₋′) + 1."""
    from .offsets_line import ray_constants
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    k, plus, minus, _ = ray_constants(steps)
    far = max(abs(x) for x in outside)
    t = (far + w - 1) // w
    margin = w + max(plus, minus) + 1
    room = (ROUNDS + 2) * far + 4 * margin + 2 * max(a, b) + 6
    return max(base_low, ceil(w + (a + b) * (4 + 2 * Fraction(k) + t + Fraction(room, min(a, b)))))


def _attended(w: int, outside: Sequence[int], n: int) -> list[set[int]]:
    """N(v) for v = 0..n − 1 (position v + 1), read from the verifier's own arcs (j, i): i attends to j."""
    from . import patterns
    from .cyclic_window_line import _union
    rows: list[set[int]] = [{v} for v in range(n)]
    for j, i in patterns.head_arcs(_union(w, tuple(outside)), n):
        rows[i - 1].add(j - 1)
    return rows


def _distances(rows: list[set[int]]) -> Optional[list[list[int]]]:
    """dist[i][x] = d(x → i) for every root i, by breadth-first search along the attended positions (bit sets)."""
    n = len(rows)
    masks = [sum(1 << x for x in row) for row in rows]
    out = []
    for i in range(n):
        dist = [-1] * n
        dist[i] = 0
        seen = edge = 1 << i
        d = 0
        while edge:
            d += 1
            grown = 0
            for x in _members(edge):
                grown |= masks[x]
            edge = grown & ~seen
            seen |= edge
            for x in _members(edge):
                dist[x] = d
        if -1 in dist:
            return None
        out.append(dist)
    return out


def _cyclic_gaps(zone: list[int], n: int, reach: int) -> dict[int, int]:
    """The positions within cyclic distance ``reach`` of ``zone``, each with that distance (a search along the cycle)."""
    gaps = {z: 0 for z in zone}
    edge = list(zone)
    for step in range(1, reach + 1):
        grown = []
        for p in edge:
            for q in ((p - 1) % n, (p + 1) % n):
                if q not in gaps:
                    gaps[q] = step
                    grown.append(q)
        edge = grown
    return gaps


def _members(bits: int) -> list[int]:
    out = []
    while bits:
        x = (bits & -bits).bit_length() - 1
        out.append(x)
        bits &= bits - 1
    return out


def properties(w: int, outside: Sequence[int], n: int) -> Optional[tuple[bool, bool]]:
    """(the count premise, a swap of two far positions) at n on the verifier's arcs; None when not connected."""
    rows = _attended(w, outside, n)
    dists = _distances(rows)
    if dists is None:
        return None
    d = max(max(row) for row in dists)
    far_span = max(abs(x) for x in outside)
    t = (far_span + w - 1) // w
    attending: list[set[int]] = [set() for _ in range(n)]
    for v, row in enumerate(rows):
        for x in row:
            attending[x].add(v)
    names: dict = {}
    decided: dict = {}
    premise, swap = True, False
    for dist in dists:
        if max(dist) != d:
            continue
        zone = [x for x in range(n) if dist[x] >= d - t]
        near_zone = _cyclic_gaps(zone, n, (ROUNDS + 1) * far_span)
        colour = {p: dist[p] for p in near_zone}
        for r in range(1, ROUNDS + 1):
            keep = (ROUNDS + 1 - r) * far_span
            colour = {p: names.setdefault((r, colour[p],
                                           tuple(sorted(colour[y] for y in rows[p])) if dist[p] < d else None,
                                           tuple(sorted(colour[v] for v in attending[p] if dist[v] < d))),
                                          len(names))
                      for p in colour if near_zone[p] <= keep}
        far = [u for u in range(n) if dist[u] == d]
        seen = [frozenset(v for v in attending[u] if dist[v] < d) for u in far]
        if len(set(seen)) < len(seen):
            swap = True
        if not premise:
            continue
        for u in far:
            for x in zone:
                if x == u:
                    continue
                both = sorted(colour[v] for v in attending[u] & attending[x] if dist[v] < d)
                key = (colour[u], colour[x], tuple(both))
                if decided.setdefault(key, x in rows[u]) != (x in rows[u]):
                    premise = False
    return premise, swap


@lru_cache(maxsize=32)
def directed_classes(w: int, outside: tuple, low: int, base_low: int
                     ) -> Optional[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Theorem F190 restated: (P, per residue of n mod P 0 for D layers and 1 for D + 1, the residues where the count
    is least), from the verifier's own check at every length from low through N₂ + P − 1; None past MAX_CHECK_N or
    for A = −A."""
    if set(outside) == {-x for x in outside}:
        return None
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    period = steps[-1] - steps[0]
    top = cut_low(w, outside, base_low) + period
    if top > MAX_CHECK_N:
        return None
    found: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        got = properties(w, outside, n)
        found[n % period].add(None if got is None else 0 if got[0] and not got[1] else 1 if got[1] and not got[0]
                              else None)
    extra = tuple(0 if found[r] == {0} else 1 for r in range(period))
    return period, extra, tuple(r for r in range(period) if found[r] in ({0}, {1}))
