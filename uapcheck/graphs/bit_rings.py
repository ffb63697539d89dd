"""Breadth-first search on closed neighbourhoods held as bit sets (bit u − 1 stands for position u), for the checks
that read the rings of distances from a root (graphs/far_view_least.py, graphs/blocks_window_strided_classes.py).

Nothing here reads user text.
"""
from __future__ import annotations

from typing import Callable, Optional


def rings(near: list[int], n: int, root: int) -> Optional[list[int]]:
    """[the positions at distance 0, 1, 2, … from `root`] as bit sets, out to the last position; None when some
    position is not reached. `near[v]` (1 ≤ v ≤ n): the bit set of v and the positions joined to it."""
    full = (1 << n) - 1
    seen = edge = 1 << (root - 1)
    out = [edge]
    while seen != full:
        grown, rest = 0, edge
        while rest:
            low = rest & -rest
            grown |= near[low.bit_length()]
            rest ^= low
        edge = grown & ~seen
        if not edge:
            return None
        seen |= edge
        out.append(edge)
    return out


def rings_by(closed: Callable[[int], int], n: int, root: int) -> Optional[list[int]]:
    """`rings` with the closed neighbourhood of a whole set given as a function (`closed(S)` = the union of S's closed
    neighbourhoods), for graphs whose structure gives it in a few whole-set operations."""
    full = (1 << n) - 1
    seen = edge = 1 << (root - 1)
    out = [edge]
    while seen != full:
        edge = closed(edge) & ~seen
        if not edge:
            return None
        seen |= edge
        out.append(edge)
    return out


def members(bits: int) -> list[int]:
    """The positions of the bit set `bits`, in increasing order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length())
        bits ^= low
    return out
