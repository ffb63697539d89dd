"""`strided(s)` with non-cyclic windows, dilations and offsets at symbolic n: Theorem F74 of docs/theory.md §11.11.

Let S be the non-zero jumps of the local parts (`window(w)`: ±1..±w, `dilated(w, r)`: ±r..±wr, `offsets K`: K; the
union's arcs are those of `offsets S`, §11.13) and S′ = {k ∈ S : s ∤ k} the jumps that leave a residue class mod s
(the others join positions of one class, which `strided(s)` joins already). When S′ has jumps of both signs and
gcd 1, and Theorem F28's ball certificate holds for S′ (radius R):

* the residue classes mod s are the maximal cliques of more than 4J + 2 positions (J = max |S|) once ⌊n/s⌋ ≥ 4J + 3,
  so every automorphism maps classes onto classes and keeps the arcs between classes, which are those of
  `offsets S′`: G = Aut(offsets S′ on 1..n) = the reflection when S′ = −S′, else trivial (Theorem F41, n ≥ N_G);
* every distance is at most K₀ = c* + 2 (c* the largest number of jumps needed to change the residue mod s), and
  whether d(j → i) ≤ m depends only on the residues of j, i, their distances to the ends capped at M = K₀J, and
  i − j when |i − j| ≤ M; these *types* are the same at n and n + s once n ≥ 4M + 2s, so D depends on n mod s only
  and is read off one n per residue by breadth-first search (bit sets, the classes taken whole);
* D + 1 layers suffice (§11.2); whether D do is not proved (the concrete engine finds D at every n ≤ 60 it ran).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional, Sequence

import sympy
from sympy import Integer

SECTION = "docs/theory.md §11.11"
#: No theorem is attempted when the largest |jump| exceeds this (F41's ball certificate is computed up to it).
MAX_JUMP = 40
#: ... nor when the diameter's range start N₀ exceeds this (one breadth-first search per position and residue).
MAX_LOW = 2_000


@dataclass(frozen=True)
class StridedLine:
    s: int
    jumps: tuple[int, ...]        # S
    leaving: tuple[int, ...]      # S′: the jumps that change the residue mod s
    bound: int                    # K₀ = c* + 2: every distance is at most this for n ≥ diameter_low
    diameter_low: int             # N₀ = 4M + 2s, M = K₀·J
    table: tuple[int, ...]        # D at n ≡ r (mod s), r = 0..s − 1, for n ≥ N₀
    radius: int                   # F28's ball certificate radius for S′
    group_low: int                # F41's N_G for S′, and s(4J + 3) (the classes are the large cliques)
    symmetric: bool               # S′ = −S′: G is the reflection

    @property
    def low(self) -> int:
        return max(self.diameter_low, self.group_low)

    def diameter(self, n: int) -> int:
        return self.table[n % self.s]

    def order(self, n: int) -> int:
        return 2 if self.symmetric else 1


def residue_distances(steps, m: int) -> dict[int, int]:
    """The distance from 0 of each residue mod m reached by adding the steps (BFS on Z_m, in the steps' order)."""
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for t in steps:
                v = (u + t) % m
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


def residue_costs(jumps: Sequence[int], s: int) -> dict[int, int]:
    """c(r): the least number of steps, each −k for a jump k (an arc j → j − k), whose sum is r mod s (BFS on Z_s)."""
    return residue_distances({(-k) % s for k in jumps}, s)


def bitset_diameter(n: int, jumps: Sequence[int], parts: Sequence[int]) -> Optional[int]:
    """D on 1..n by breadth-first search from every position on bit sets (bit p − 1 is position p; an arc j → j − k
    for k in `jumps` inside 1..n, and a part (a bit mask of positions that form a clique) met by the frontier taken
    whole), or None when not strongly connected."""
    full = (1 << n) - 1
    worst = 0
    for j in range(1, n + 1):
        seen = frontier = 1 << (j - 1)
        level = 0
        while seen != full:
            nxt = 0
            for k in jumps:
                nxt |= (frontier >> k) if k > 0 else (frontier << -k)
            nxt &= full
            for part in parts:
                if frontier & part:
                    nxt |= part
            frontier = nxt & ~seen
            if not frontier:
                return None
            seen |= frontier
            level += 1
        worst = max(worst, level)
    return worst


def class_masks(n: int, s: int) -> list[int]:
    """The residue classes mod s of 1..n as bit masks (bit p − 1 is position p), by residue 0..s − 1."""
    return [sum(1 << (p - 1) for p in range(r if r else s, n + 1, s)) for r in range(s)]


def line_neighbourhood(s: int, jumps: Sequence[int], n: int) -> Callable[[int], int]:
    """On bit sets with bit p for position p ∈ 1..n: a set with its shifts by the jumps (inside 1..n) and every
    residue class mod s it meets, i.e. its closed neighbourhood in `strided(s) + offsets S` (a shift by k > 0
    moves bit p to bit p + k)."""
    full = (1 << (n + 1)) - 2
    classes = [mask << 1 for mask in class_masks(n, s)]

    def closed(bits: int) -> int:
        out = bits
        for k in jumps:
            out |= (bits << k) if k > 0 else (bits >> -k)
        out &= full
        for cls in classes:
            if bits & cls:
                out |= cls
        return out

    return closed


def diameter_bfs(jumps: Sequence[int], s: int, n: int) -> Optional[int]:
    """D of `strided(s) + offsets S` on 1..n (bitset_diameter, the classes mod s taken whole), or None when not
    strongly connected."""
    return bitset_diameter(n, jumps, class_masks(n, s))


def diameter_by_residue(jumps: Sequence[int], s: int, low: int) -> Optional[tuple[int, ...]]:
    """D at the lengths low..low + s − 1, indexed by n mod s (None when one is not strongly connected)."""
    table = [0] * s
    for n in range(low, low + s):
        d = diameter_bfs(jumps, s, n)
        if d is None:
            return None
        table[n % s] = d
    return tuple(table)


@lru_cache(maxsize=128)
def strided_line(s: int, jumps: tuple[int, ...]) -> Optional[StridedLine]:
    """F74 for `strided(s)` with the local jumps S (0 ignored), or None (S′ one-sided or with gcd > 1, a jump
    beyond MAX_JUMP, no ball certificate, or N₀ beyond MAX_LOW)."""
    from .offsets_line import group_low as line_group_low
    from .offsets_line import rigid_steps
    vals = tuple(sorted({int(k) for k in jumps} - {0}))
    if s < 2 or not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = tuple(k for k in vals if k % s)
    found = rigid_steps(leaving)
    if found is None:
        return None
    steps, radius = found
    costs = residue_costs(vals, s)
    if len(costs) < s:  # cannot happen when gcd(S′) = 1; kept as a guard
        return None
    big = max(abs(k) for k in vals)
    bound = max(costs.values()) + 2
    low_d = 4 * bound * big + 2 * s
    if low_d > MAX_LOW:
        return None
    table = diameter_by_residue(vals, s, low_d)
    if table is None:
        return None
    low_g = max(line_group_low(steps, radius), s * (4 * big + 3))
    return StridedLine(s, vals, leaving, bound, low_d, table, radius, low_g,
                       set(leaving) == {-k for k in leaving})


def theorem(n, data: StridedLine):
    """F74 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    s = data.s
    if isinstance(n, (int, Integer)):
        diameter: sympy.Expr = Integer(data.diameter(int(n)))
    else:
        diameter = _residue_pieces(n, s, {r: data.table[r] for r in range(s)}, Integer)
    from .strided_lines_least import layer_count, line_layers
    group, order = ("reflection", Integer(2)) if data.symmetric else ("trivial", Integer(1))
    shown = ", ".join(map(str, data.leaving))
    layers = line_layers(s, data.symmetric, "F74", (
        f"whether D layers suffice for strided(s) with non-cyclic windows, dilations and offsets is not proved "
        f"({SECTION}, Theorem F74; the concrete engine finds D at every n ≤ 60 it ran); the jumps leaving a residue "
        f"class are {{{shown}}}"), data.jumps, data.low)
    return FamilyTheorem(
        "F74", "strided(s) + non-cyclic windows, dilations and offsets",
        (("s", Integer(s)),), Integer(data.low), diameter,
        group, order, ("i ↦ n + 1 − i",) if data.symmetric else (), layer_count(n, diameter, layers, data.table, s),
        layers.least, layers.why, open_question=layers.question)

