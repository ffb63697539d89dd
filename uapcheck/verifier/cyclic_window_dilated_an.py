"""Theorem F227 (lemma AN, docs/theory.md §11.11), restated for the verifier: `window(1) cyclic + dilated(2, 4)`
(w = 1, non-cyclic offsets ±4, ±8) on the classes n mod 16 in {0, 2, 4, 5, 6, 9}: a view witness with D layers at
n + 16 ≥ 240 gives one at n, so where none exists at the class's lengths 65 ≤ n < 240, D = ⌊n/16⌋ + 3 layers suffice,
least, at every n ≥ 65 of the class.

The verifier's own check, on its own arcs: at each length of the class in increasing order, the distances by
breadth-first search, D = ⌊n/16⌋ + 3; from n = 82 on, the two-route distances (its own word lengths ℓ on Z by
breadth-first search) at n and n − 16, so (F227 (c)) only the roots of eccentricity D with no block on one side need
the rooted views; below 82 every root. Rooted views by nauty with G = {id, ρ} as generators (F101's group, which the
instance check re-checks with nauty).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

import numpy as np

from .. import spec as S

CLASSES = (0, 2, 4, 5, 6, 9)
PERIOD, LOW, TOP, CUT_FROM = 16, 65, 240, 82
STEPS = (-8, -4, -1, 1, 4, 8)


def applies(w: int, outside: tuple) -> bool:
    return w == 1 and tuple(sorted(outside)) == (-8, -4, 4, 8)


@lru_cache(maxsize=1)
def _word_lengths(top: int = TOP + 64) -> tuple[int, ...]:
    """ℓ(m) for 0 ≤ m ≤ top: word length on Z over STEPS, by breadth-first search on [−top − 16, top + 16]."""
    wide = top + 16
    length = {0: 0}
    frontier = [0]
    while frontier:
        grown = []
        for m in frontier:
            for s in STEPS:
                if abs(m + s) <= wide and m + s not in length:
                    length[m + s] = length[m] + 1
                    grown.append(m + s)
        frontier = grown
    return tuple(length[m] for m in range(top + 1))


def _arcs(n: int) -> frozenset:
    from . import patterns
    return patterns.head_arcs(S.PatternUnion((S.Window(1, True), S.Offsets((-8, -4, 0, 4, 8), False))), n)


@lru_cache(maxsize=4)
def _distances(n: int) -> np.ndarray:
    """d(i, z) (1-based; row and column 0 unused, −1 where unreached) on the verifier's arcs, by breadth-first search
    from every root at once (an arc (j, i) makes i a neighbour of j)."""
    ins: list[list[int]] = [[] for _ in range(n + 1)]
    for j, i in _arcs(n):
        ins[i].append(j)
    width = max(len(x) for x in ins)
    padded = np.array([x + [0] * (width - len(x)) for x in ins], dtype=np.int64)  # column 0 is never reached
    dist = np.full((n + 1, n + 1), -1, dtype=np.int64)
    frontier = np.eye(n + 1, dtype=bool)
    frontier[0, 0] = False
    seen = frontier.copy()
    level = 0
    while frontier.any():
        dist[frontier] = level
        frontier = frontier[:, padded].any(axis=2) & ~seen
        seen |= frontier
        level += 1
    return dist


def _two_routes_hold(n: int, dist: np.ndarray) -> bool:
    ell = np.array(_word_lengths())
    z = np.arange(1, n + 1)
    low, high = np.minimum(z[:, None], z[None, :]), np.maximum(z[:, None], z[None, :])
    return bool(np.array_equal(dist[1:, 1:], np.minimum(ell[high - low], 1 + ell[low - 1] + ell[n - high])))


def _has_block(n: int, i: int, step: int, row, d: int) -> bool:
    """A block on the walk from i in direction ``step`` before the first position at distance ≥ D − 1: 24 consecutive
    positions of the walk, each deep (17 ≤ z ≤ n − 16) and within D − 3 of i."""
    run, z = 0, i
    while True:
        z = (z - 1 + step) % n + 1
        if row[z] >= d - 1:
            return False
        run = run + 1 if 17 <= z <= n - 16 and row[z] <= d - 3 else 0
        if run >= 24:
            return True


@lru_cache(maxsize=256)
def length_problem(n: int) -> Optional[str]:
    """None when F227's check holds at n (given it held at n − 16 of the class), else the reason."""
    from . import views
    arcs = _arcs(n)
    dist = _distances(n)
    if (dist[1:, 1:] < 0).any():
        return f"n = {n}: not strongly connected on the verifier's arcs"
    d = int(dist.max())
    if n >= LOW and d != n // 16 + 3:
        return f"n = {n}: D = {d}, not ⌊n/16⌋ + 3"
    roots = None
    if n >= CUT_FROM:
        if not _two_routes_hold(n, dist) or not _two_routes_hold(n - 16, _distances(n - 16)):
            return f"n = {n}: the two-route distances of F227 (1) fail at n or n − 16 on the verifier's arcs"
        rows = dist.tolist()
        roots = frozenset(i for i in range(1, n + 1) if max(rows[i][1:]) == d
                          and not all(_has_block(n, i, s, rows[i], d) for s in (1, -1)))
        if roots != frozenset(n + 1 - i for i in roots):
            return f"n = {n}: the roots without blocks are not kept by the reflection"
    try:
        return views.decide([arcs], n, d, [[n + 1 - k for k in range(1, n + 1)]], roots=roots)
    except views.NoNauty as exc:
        return f"n = {n}: {exc}"


@lru_cache(maxsize=16)
def class_problem(r: int, low: int = LOW) -> Optional[str]:
    """None when F227's check holds on the class r (every length 65 ≤ n < 240 of it, in increasing order) and no
    view witness exists at its lengths low ≤ n < 65 either (every root: below F227's range, where the family's range
    starts earlier), else the reason."""
    if r not in CLASSES:
        return f"n mod 16 = {r} is not one of Theorem F227's classes"
    for n in range(low + (r - low) % PERIOD, TOP, PERIOD):
        if n >= CUT_FROM and n - PERIOD < low:  # the roots with blocks are passed over only where n − 16 was checked
            return f"n = {n}: the check at the roots without blocks needs n − 16 = {n - PERIOD} checked (from {low})"
        problem = length_problem(n)
        if problem is not None:
            return problem
    return None


def decided_classes(low: int = LOW) -> tuple[int, ...]:
    """The classes where the verifier's F227 check holds (from the length low)."""
    return tuple(r for r in CLASSES if class_problem(r, low) is None)
