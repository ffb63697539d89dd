"""All-pairs distances of a pattern graph as bit sets, for the verifier's instance checks (docs/theory.md §18.4).

`Balls(outs, n)` grows, for every position v at once, the set of positions within k steps of v along the lists
`outs` (out-lists: the positions v reaches; in-lists: those that reach v), one level per k, as Python integers
with bit u for position u:

    ball_0(v) = {v},    ball_{k+1}(v) = ball_k(v) ∪ ⋃_{u ∈ outs[v]} ball_k(u),

until a level changes nothing. A walk of length k + 1 from v is one arc v → u and a walk of length k from u, so
ball_k(v) is exactly the set of positions at distance ≤ k from v (induction on k); the balls stop growing at the
largest eccentricity, and the graph is strongly connected iff every last ball holds all of 1..n. This is the
breadth-first search of every source, run side by side: each level is one pass over the arcs with a word-parallel
union per arc, instead of one pass per source (n = 1,826 with 222,352 arcs: 0.1 s against about 30 s for the
searches one by one). Written apart from the engines (uapcheck/graphs); the arcs are the verifier's own.
"""
from __future__ import annotations

from typing import Optional, Sequence


class Balls:
    """The balls of every radius around every position 1..n of the digraph `outs` (`outs[v]`: v's neighbours in
    the direction searched; index 0 unused)."""

    def __init__(self, outs: Sequence[Sequence[int]], n: int) -> None:
        self.n = n
        self.everything = (1 << (n + 1)) - 2  # bits 1..n
        level = [0] + [1 << v for v in range(1, n + 1)]
        self.levels: list[list[int]] = [level]
        while True:
            grown = [0] * (n + 1)
            changed = False
            for v in range(1, n + 1):
                ball = level[v]
                for u in outs[v]:
                    ball |= level[u]
                grown[v] = ball
                changed = changed or ball != level[v]
            if not changed:
                break
            self.levels.append(grown)
            level = grown

    def diameter(self) -> Optional[int]:
        """The largest distance between two positions (the directed diameter), None when some position does not
        reach every other."""
        if any(ball != self.everything for ball in self.levels[-1][1:]):
            return None
        return len(self.levels) - 1

    def within(self, v: int, u: int, k: int) -> bool:
        """d(v, u) ≤ k along the searched direction."""
        return k >= 0 and bool(self.ball(v, k) >> u & 1)

    def ball(self, v: int, k: int) -> int:
        """The positions at distance ≤ k from v, as a bit set (k ≥ 0)."""
        return self.levels[min(k, len(self.levels) - 1)][v]

    def sphere(self, v: int, k: int) -> int:
        """The positions at distance exactly k from v, as a bit set (k ≥ 1)."""
        return self.ball(v, k) & ~self.ball(v, k - 1)


def members(bits: int) -> list[int]:
    """The positions of a bit set, in increasing order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
