"""Theorem F227 (lemma AN, docs/theory.md §11.11): `window(1) cyclic + dilated(2, 4)` on the classes n mod 16 in
{0, 2, 4, 5, 6, 9} (F184's open classes) — a view witness with D layers at n + 16 ≥ 240 is cut to one at n, so a
class with no view witness at its lengths 65 ≤ n < 240 needs D = ⌊n/16⌋ + 3 layers, least, at every n ≥ 65.

The check, restricted by F227 (c): at each length n of the class in increasing order, breadth-first search on bit sets
gives every distance; D = ⌊n/16⌋ + 3; for n ≥ 82 the two-route distances of F227 (1) hold at n and n − 16 (so a
witness at a root with a block on both sides gives one at n − 16, checked before and found to have none), and the
rooted views (canonical labelling, §11.9) run only at the G-orbits of the roots without blocks; below 82 at every
root. G_n = {id, ρ} is re-decided (BLISS) at each length. A class is decided when every length passes.

Nothing here reads user text.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

import numpy as np

#: the family F227 is about: w = 1, the non-cyclic offsets ±4, ±8 (dilated(2, 4))
W, OUTSIDE = 1, (-8, -4, 4, 8)
#: F184's open classes of n mod 16, the ones F227 decides where its check holds
OPEN = (0, 2, 4, 5, 6, 9)
PERIOD = 16
#: the check's lengths: 65 ≤ n < START (lemma AN holds for n + 16 ≥ START)
LOW, START = 65, 240
#: from this length the check runs the rooted views at the roots without blocks only (F227 (c))
RESTRICT_FROM = 82
#: ℓ(m) = ⌊m/8⌋ + H8[m mod 8] for m ≥ 0 (F227 (0))
H8 = (0, 1, 2, 2, 1, 2, 3, 2)
#: a block: 8 consecutive positions with 8 more on each side (the run W of F227 (3))
BLOCK, MARGIN = 8, 8


def applies(w: int, outside: tuple) -> bool:
    return w == W and tuple(sorted(outside)) == OUTSIDE


def pattern():
    from ..spec import Offsets, PatternUnion, Window
    return PatternUnion((Window(1, True), Offsets((-8, -4, 0, 4, 8), False)))


def matrix_distances(n: int) -> np.ndarray:
    """d(i, z) for every pair (0-based rows and columns; −1 where unreached) by breadth-first search on the
    definition's arcs (|u − v| ∈ {1, 4, 8}, and {1, n}), every root at once: row i is root i's frontier."""
    dist = np.full((n, n), -1, dtype=np.int64)
    frontier = np.eye(n, dtype=bool)
    seen = frontier.copy()
    level = 0
    while frontier.any():
        dist[frontier] = level
        grown = np.zeros_like(frontier)
        for k in (1, 4, 8):
            grown[:, k:] |= frontier[:, :-k]
            grown[:, :-k] |= frontier[:, k:]
        grown[:, n - 1] |= frontier[:, 0]
        grown[:, 0] |= frontier[:, n - 1]
        frontier = grown & ~seen
        seen |= frontier
        level += 1
    return dist


def two_routes(n: int) -> np.ndarray:
    """F227 (1): min(ℓ(|z − i|), 1 + ℓ(min(z, i) − 1) + ℓ(n − max(z, i))) for every pair (0-based)."""
    z = np.arange(1, n + 1)
    length = np.array([m // 8 + H8[m % 8] for m in range(n + 1)])
    low, high = np.minimum(z[:, None], z[None, :]), np.maximum(z[:, None], z[None, :])
    return np.minimum(length[high - low], 1 + length[low - 1] + length[n - high])


def arc(n: int, i: int, step: int, row: list, diameter: int) -> list[int]:
    """The positions from i (excluded) along the cycle in direction ``step`` before the first at distance ≥ D − 1
    (row[z] = d(i, z), 1-based)."""
    out: list[int] = []
    z = i
    while True:
        z = (z - 1 + step) % n + 1
        if row[z] >= diameter - 1:
            return out
        out.append(z)


def block(n: int, walk: list[int], row: list, diameter: int) -> Optional[list[int]]:
    """The first block of the walk: 8 positions with 8 on each side inside it (the run W), every position of W deep
    (17 ≤ z ≤ n − 16) and within D − 3 of the root; None where there is none."""
    run = 0
    for k, z in enumerate(walk):
        run = run + 1 if 17 <= z <= n - 16 and row[z] <= diameter - 3 else 0
        if run >= BLOCK + 2 * MARGIN:
            return walk[k - BLOCK - MARGIN + 1:k - MARGIN + 1]
    return None


def roots_without_blocks(n: int, dist: np.ndarray) -> list[int]:
    """The roots (1-based) of eccentricity D with no block on one side (F227 (3))."""
    diameter = int(dist.max())
    out = []
    for i in range(1, n + 1):
        row = [0] + dist[i - 1].tolist()
        if max(row) == diameter and any(block(n, arc(n, i, s, row, diameter), row, diameter) is None
                                        for s in (1, -1)):
            out.append(i)
    return out


def no_witness_rooted_at(n: int, roots: list[int]) -> bool:
    """The rooted views (the engine's exact test, canonical labelling) at one root of each G-orbit of ``roots`` (a
    ρ-invariant set), with G = {id, ρ} re-decided: True when no view witness with D = ⌊n/16⌋ + 3 layers is rooted
    there (no automorphism of a view outside G, no two isomorphic views of different orbits)."""
    from . import build_graph, symmetry_group
    from .views import Neighbourhoods, _exact
    graph = build_graph(pattern(), n, {})
    group = symmetry_group([graph])
    if int(group.order) != 2 or [list(g) for g in group.generators or ()] != [list(range(n, 0, -1))]:
        return False
    ident, mirror = list(range(n)), list(range(n - 1, -1, -1))
    reps = sorted({min(i, n + 1 - i) - 1 for i in roots})
    if not reps:
        return True
    sizes = {r: 1 if 2 * r + 2 == n + 1 else 2 for r in reps}
    found = _exact(Neighbourhoods([graph]), n // 16 + 3, 2, reps, sizes, lambda p: list(p) in (ident, mirror), False)
    return found.sufficient is True


def length_holds(n: int) -> bool:
    """F227's check at one length n (65 ≤ n < 240), given that it held at n − 16 when n − 16 ≥ 65."""
    dist = matrix_distances(n)
    if (dist < 0).any() or int(dist.max()) != n // 16 + 3:
        return False
    if n < RESTRICT_FROM:
        return no_witness_rooted_at(n, list(range(1, n + 1)))
    if not (np.array_equal(dist, two_routes(n)) and np.array_equal(matrix_distances(n - 16), two_routes(n - 16))):
        return False
    roots = roots_without_blocks(n, dist)
    if roots != sorted(n + 1 - i for i in roots):
        return False
    return no_witness_rooted_at(n, roots)


def class_lengths(r: int) -> range:
    return range(LOW + (r - LOW) % PERIOD, START, PERIOD)


@lru_cache(maxsize=None)
def class_holds(r: int) -> bool:
    """F227 (b)'s check on the class r: every length 65 ≤ n < 240 of it, in increasing order."""
    return r in OPEN and all(length_holds(n) for n in class_lengths(r))


@lru_cache(maxsize=None)
def decided_classes() -> tuple[int, ...]:
    """The classes of F184's open ones where F227's check holds: D = ⌊n/16⌋ + 3 layers, least, for n ≥ 65."""
    return tuple(r for r in OPEN if class_holds(r))
