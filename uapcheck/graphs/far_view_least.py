"""Whether D layers suffice for one symmetric head at a concrete n, without canonical forms (docs/theory.md §11.9,
Theorem F111).

Two exact certificates, each read off the rings of breadth-first search from the orbit representatives:

* a *swap witness* (Theorem F99 (a), read at one n): a root i with two positions x ≠ y at distance D whose
  neighbours within distance D − 1 of i agree and which are not twins; (x y) is a view witness, so D layers are not
  enough and D + 1 are least;
* the *far-adjacency table* (Theorem F111): colour every position z within distance D − 1 of a root i by its
  distance from i and the sizes of N[z] ∩ {positions at distance k from i} for k = 0, …, D; when whether two
  positions at distance D from i are adjacent is a function of (the number of their common neighbours at each
  distance 1, …, D − 1 from i, the unordered pair of the counts of each one's neighbours of each colour), one
  function for every root, no view witness exists and D layers suffice.

Either answers the question the rooted views decide (§11.9) with the same answer; when neither holds the caller
runs the exact test. The caller (rules/pattern.py) uses it only where the answer alone is read (the lengths below
a stated range), for one symmetric head without labels.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .bit_rings import members as _members
from .bit_rings import rings as _rings
from .build import PatternGraph, arc_codes, endpoints

#: Past this many positions the check is not tried (its pairs of far positions grow like n²·(far positions)²).
MAX_POSITIONS = 512


@dataclass(frozen=True)
class QuickCount:
    """`sufficient` True: D layers suffice (Theorem F111); False: the swap (x y) at `root` is a view witness
    (Theorem F99 (a)), so D + 1 layers are least."""

    sufficient: bool
    root: int = 0
    swap: tuple[int, int] = (0, 0)


def closed_neighbourhoods(graph: PatternGraph) -> Optional[list[int]]:
    """Entry v (1..n): the bit set (bit u − 1 is position u) of v and the positions v attends to; None when the
    head is not symmetric (some arc without its reverse) or is the complete pattern."""
    n = graph.n
    if graph.complete:
        return None
    near = [0] + [1 << (v - 1) for v in range(1, n + 1)]
    codes = arc_codes(graph)  # the arc j -> i is (j − 1)·n + (i − 1)
    for j0, i0 in zip(*endpoints(graph)):
        if i0 * n + j0 not in codes:
            return None
        near[i0 + 1] |= 1 << j0
    return near


def quick_count(graph: PatternGraph, diameter: int, roots: Sequence[int]) -> Optional[QuickCount]:
    """The answer for one symmetric head with directed diameter D = `diameter` ≥ 2, `roots` one position of each
    orbit of G = Aut(Γ): a swap witness, else the far-adjacency table of Theorem F111, else None (undecided here)."""
    n = graph.n
    if diameter < 2 or n > MAX_POSITIONS:
        return None
    near = closed_neighbourhoods(graph)
    if near is None:
        return None
    views = []
    for root in roots:
        rings = _rings(near, n, root)
        if rings is None or len(rings) - 1 > diameter:
            return None  # not the diameter given
        if len(rings) - 1 < diameter:
            continue  # every position within D − 1: no witness at this root (§11.9, R1)
        ball = ((1 << n) - 1) & ~rings[diameter]
        far = _members(rings[diameter])
        seen: dict[int, int] = {}
        for x in far:
            y = seen.setdefault(near[x] & ball, x)
            if y != x and (near[x] ^ near[y]) & ~((1 << (x - 1)) | (1 << (y - 1))):
                return QuickCount(False, root, (y, x))
        views.append((rings, ball, far))
    return QuickCount(True) if _table_holds(near, diameter, views) else None


def _table_holds(near: list[int], diameter: int, views) -> bool:
    """Theorem F111's premise: adjacency of two far positions is one function of their colour data at every root
    (the colours' ids are shared by every root; a far position's data is the count of its neighbours of each colour
    within D − 1, a pair's the counts of its common neighbours at each distance 1, …, D − 1). A far position's data
    is held as a small id (equal data, equal id, at every root), so the table's keys are short tuples of ints."""
    colour_ids: dict[tuple, int] = {}
    data_ids: dict[tuple, int] = {}
    table: dict[tuple, int] = {}
    for rings, ball, far in views:
        masks: dict[int, int] = {}
        for level in range(diameter):
            for z in _members(rings[level]):
                near_z = near[z]
                c = colour_ids.setdefault((level, *[(near_z & ring).bit_count() for ring in rings]), len(colour_ids))
                masks[c] = masks.get(c, 0) | 1 << (z - 1)
        by_colour = sorted(masks.items())
        own = [data_ids.setdefault(tuple([(c, (near[u] & m).bit_count()) for c, m in by_colour if near[u] & m]),
                                   len(data_ids)) for u in far]
        if not _pairs_agree(table, near, ball, rings[1:diameter], far, own):
            return False
    return True


def _pairs_agree(table: dict, near: list[int], ball: int, levels: list[int], far: list[int], own: list[int]) -> bool:
    """Add every pair of far positions at one root to `table` (key: the counts of their common neighbours at each
    level, then the pair of their data ids, smaller first; value: whether they are adjacent); False at the first pair
    whose key the table holds with the other value."""
    single = levels[0] if len(levels) == 1 else None
    for k, u in enumerate(far):
        near_u, a = near[u], own[k]
        mine = near_u & ball
        for v, b in zip(far[k + 1:], own[k + 1:]):
            common = mine & near[v]
            counts = (common & single).bit_count() if single is not None else \
                tuple([(common & ring).bit_count() for ring in levels])
            adjacent = near_u >> (v - 1) & 1
            if table.setdefault((counts, a, b) if a <= b else (counts, b, a), adjacent) != adjacent:
                return False
    return True
