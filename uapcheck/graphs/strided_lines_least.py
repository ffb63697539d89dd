"""The least layer count of `strided(s)` with non-cyclic local parts (Theorems F74, F91, F92 of docs/theory.md §11.11):
Theorem F97.

* **F97 (s = 2, S′ = −S′).** The residue classes mod 2 are two cliques and every arc between them is symmetric, so Γ is
  symmetric. At a root i every position of i's class is adjacent to i (distance 1 ≤ D − 1, as D ≥ 2), so the positions
  at distance D all lie in the other class, a clique: by the far-clique lemma (Theorem F53) D layers suffice, and they
  are least (§11.1).
* **F98 (s ≥ 3, S′ = −S′).** The common-neighbour premise of Theorem F57 (two positions at distance D from a root are
  adjacent iff some position within D − 1 of it is adjacent to both) holds at n iff it holds at n + s once
  n ≥ N₁ = max(N, 16M + 4s), M = K₀·J as in F74 (the premise reads only the residues, the end distances capped at 2M
  and the differences up to 2M of three positions, and a cut of s positions away from them keeps these); so where a
  finite check finds it at every n from the range's start N through N₁ + s − 1, D layers suffice at every n ≥ N.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class LineLayers:
    """The layer count a theorem of F74, F91, F92 states: D (least) or D + 1 (sufficient), why, and what stays open."""
    least: bool
    why: str
    question: str = ""


def line_layers(s: int, symmetric: bool, theorem: str, question: str, jumps: tuple[int, ...], low: int) -> LineLayers:
    """F97 or F98 where they apply (D layers, least), else D + 1 sufficient with `question` open."""
    if s == 2 and symmetric:
        return LineLayers(True, f"D layers suffice, so they are least (Theorem F97 with Theorem {theorem}: the two "
                                "residue classes mod 2 are cliques, every position of the root's class is adjacent to "
                                "it, so the positions at distance D all lie in the other class and are pairwise "
                                "adjacent; the far-clique lemma, Theorem F53)")
    top = common_neighbour_top(s, jumps, low) if symmetric else None
    if top is not None:
        return LineLayers(True, f"D layers suffice, so they are least (Theorem F98 with Theorem {theorem}: two "
                                "positions at distance D from a root are adjacent exactly when a position within D − 1 "
                                f"of it is adjacent to both, checked at every n from {low} to {top}, and this premise "
                                f"is the same at n and n + {s} past {top + 1 - s}; the common-neighbour lemma, Theorem "
                                "F57)")
    return LineLayers(False, f"D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem "
                             f"{theorem}{'' if theorem == 'F74' else ', as F74'})", question)

#: Theorem F98's finite check reads every length from the range's start through N₁ + s − 1; it is run only while that
#: last length is at most this (a few seconds at the limit).
MAX_CHECK_TOP = 720


def check_span(s: int, jumps: Sequence[int], low: int) -> tuple[int, int]:
    """(M, the last length F98's check reads): M = K₀·J as in Theorem F74, N₁ = max(low, 16M + 4s), last N₁ + s − 1."""
    from .strided_lines import residue_costs
    costs = residue_costs(jumps, s)
    big = max(abs(k) for k in jumps)
    far = (max(costs.values()) + 2) * big
    return far, max(low, 16 * far + 4 * s) + s - 1


@lru_cache(maxsize=128)
def common_neighbour_top(s: int, jumps: tuple[int, ...], low: int) -> Optional[int]:
    """Theorem F98: the last length of the finite check when the common-neighbour premise holds at every n from `low`
    through it (hence at every n ≥ low), or None (s = 2, S′ ≠ −S′, a check beyond MAX_CHECK_TOP, or a length where the
    premise fails)."""
    leaving = {k for k in jumps if k % s}
    if s < 3 or not leaving or leaving != {-k for k in leaving}:
        return None
    _, top = check_span(s, jumps, low)
    if top > MAX_CHECK_TOP:
        return None
    for n in range(low, top + 1):
        if not premise_holds(s, jumps, n):
            return None
    return top


def premise_holds(s: int, jumps: Sequence[int], n: int) -> bool:
    """The common-neighbour premise of Theorem F57 for `strided(s) + offsets S` (S = −S′ on the arcs between classes) on
    1..n: at every root i, two positions at distance D from i are adjacent iff some position within D − 1 of i is
    adjacent to both. Bit sets (bit p is position p); a neighbourhood of a set is its shifts by the jumps and the classes
    it meets. Roots i ≤ (n + 1)/2 only: the reflection is an automorphism (S′ = −S′), mapping the premise at i onto the
    premise at n + 1 − i. False also when Γ is not strongly connected."""
    full = (1 << (n + 1)) - 2
    classes = [0] * s
    for p in range(1, n + 1):
        classes[p % s] |= 1 << p

    def closed(bits: int) -> int:
        out = bits
        for k in jumps:
            out |= (bits << k) if k > 0 else (bits >> -k)
        out &= full
        for cls in classes:
            if bits & cls:
                out |= cls
        return out

    roots = range(1, (n + 1) // 2 + 1)
    layers: dict[int, list[int]] = {}
    for i in roots:
        seen = frontier = 1 << i
        found = [frontier]
        while seen != full:
            frontier = closed(frontier) & ~seen
            if not frontier:
                return False
            seen |= frontier
            found.append(frontier)
        layers[i] = found
    diameter = max(len(found) - 1 for found in layers.values())
    near = [0] + [closed(1 << p) for p in range(1, n + 1)]
    for i in roots:
        found = layers[i]
        if len(found) - 1 < diameter:
            continue
        far = found[diameter]
        ball = 0
        for level in found[:diameter]:
            ball |= level
        rest = far
        while rest:
            bit = rest & -rest
            rest ^= bit
            u = bit.bit_length() - 1
            shared = 0
            inner = near[u] & ball
            while inner:
                low_bit = inner & -inner
                inner ^= low_bit
                shared |= near[low_bit.bit_length() - 1]
            if (shared ^ near[u]) & far & ~bit:
                return False
    return True
