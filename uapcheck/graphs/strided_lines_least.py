"""The least layer count of `strided(s)` with non-cyclic local parts (Theorems F74, F91, F92 of docs/theory.md §11.11):
Theorems F97, F98, F99 and F114.

* **F97 (s = 2, S′ = −S′).** The residue classes mod 2 are two cliques and every arc between them is symmetric, so Γ is
  symmetric. At a root i every position of i's class is adjacent to i (distance 1 ≤ D − 1, as D ≥ 2), so the positions
  at distance D all lie in the other class, a clique: by the far-clique lemma (Theorem F53) D layers suffice, and they
  are least (§11.1).
* **F98 (s ≥ 3, S′ = −S′).** The common-neighbour premise of Theorem F57 (two positions at distance D from a root are
  adjacent iff some position within D − 1 of it is adjacent to both) holds at n iff it holds at n + s once
  n ≥ N₁ = max(N, 16M + 4s), M = K₀·J as in F74 (the premise reads only the residues, the end distances capped at 2M
  and the differences up to 2M of three positions, and a cut of s positions away from them keeps these); so where a
  finite check finds it at every n from the range's start N through N₁ + s − 1, D layers suffice at every n ≥ N.
* **F99 (s ≥ 3, S′ = −S′).** Where some root has two positions at distance D with the same neighbours within D − 1 of it
  that are not twins, their swap is a view witness: D + 1 layers are least there. This too is the same at n and n + s
  past N₁ (a triple and one more quantified position, as for F98), so where every n of the check has the premise or
  such a swap, each residue class of n mod s alike, the least count is D or D + 1 by n mod s at every n ≥ N.
* **F114 (F74 with S′ ≠ −S′, G trivial).** Where the pinning premise (`strided_lines_directed`) holds at every length
  of its finite check, D layers suffice at every n ≥ N, so they are least.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class LineLayers:
    """The layer count a theorem of F74, F91, F92 states: D (least) or D + 1 (sufficient), or D + extra[n mod s]
    (least), why, and what stays open."""
    least: bool
    why: str
    question: str = ""
    extra: tuple[int, ...] = ()    # F99: 1 on the classes of n mod s where D + 1 are least, 0 where D are


def layer_count(n, diameter, layers: LineLayers, table: Sequence[int], s: int):
    """The theorem's layer count at n (an Integer, or the length's symbol): D + 1 when not least, D + extra[n mod s]
    by residue (F99), else D."""
    from sympy import Integer
    from .symbolic_unions import _residue_pieces
    if not layers.least:
        return diameter + 1
    if not layers.extra:
        return diameter
    if isinstance(n, (int, Integer)):
        return Integer(table[int(n) % s] + layers.extra[int(n) % s])
    return _residue_pieces(n, s, {r: table[r] + layers.extra[r] for r in range(s)}, Integer)


def line_layers(s: int, symmetric: bool, theorem: str, question: str, jumps: tuple[int, ...], low: int) -> LineLayers:
    """F97, F98 or F99 where they apply (D or D + 1 by residue of n mod s, least), else D + 1 sufficient with
    `question` open."""
    if s == 2 and symmetric:
        return LineLayers(True, f"D layers suffice, so they are least (Theorem F97 with Theorem {theorem}: the two "
                                "residue classes mod 2 are cliques, every position of the root's class is adjacent to "
                                "it, so the positions at distance D all lie in the other class and are pairwise "
                                "adjacent; the far-clique lemma, Theorem F53)")
    if not symmetric and theorem == "F74":
        return _directed_layers(s, jumps, low, question)
    extra = least_extra(s, jumps, low) if symmetric else None
    if extra is None:
        return LineLayers(False, f"D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem "
                                 f"{theorem}{'' if theorem == 'F74' else ', as F74'})", question)
    _, top = check_span(s, jumps, low)
    checked = f"checked at every n from {low} to {top}, and the same at n and n + {s} past {top + 1 - s}"
    if not any(extra):
        return LineLayers(True, f"D layers suffice, so they are least (Theorem F98 with Theorem {theorem}: two "
                                "positions at distance D from a root are adjacent exactly when a position within D − 1 "
                                f"of it is adjacent to both, checked at every n from {low} to {top}, and this premise "
                                f"is the same at n and n + {s} past {top + 1 - s}; the common-neighbour lemma, Theorem "
                                "F57)")
    plus = [r for r in range(s) if extra[r]]
    where = "every n" if len(plus) == s else f"n mod {s} ∈ {{{', '.join(map(str, plus))}}}"
    rest = "" if len(plus) == s else (" and D layers suffice on the other classes (Theorem F98: far positions are "
                                      "adjacent exactly when a position within D − 1 of the root is adjacent to both)")
    return LineLayers(True, f"the least count is D + 1 at {where} (Theorem F99 with Theorem {theorem}: some root has two "
                            "positions at distance D with the same neighbours within D − 1 of it that are not twins, so "
                            f"their swap is a view witness with D layers){rest}, {checked}", extra=extra)

def _directed_layers(s: int, jumps: Sequence[int], low: int, question: str) -> LineLayers:
    """Theorem F114 (S′ ≠ −S′, G trivial): D layers, least, where the pinning premise holds at every length of its
    finite check; else D + 1, sufficient, with the reason the premise was not shown."""
    from .strided_lines import strided_line
    from .strided_lines_directed import directed_check
    data = strided_line(s, tuple(jumps))
    if data is None:
        return LineLayers(False, "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F74)",
                          question)
    holds, why = directed_check(s, tuple(data.jumps), low, data.radius)
    if holds:
        return LineLayers(True, "D layers suffice, so they are least (Theorem F114 with Theorem F74: at every root with "
                                "a position at distance D, a permutation meeting the view condition keeps the residue "
                                "classes, is a translation in the middle by F28's ball certificate, the identity by the "
                                "end without far positions, and the pinning closure fixes the rest; the premise "
                                f"{why})")
    return LineLayers(False, "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F74; "
                             f"Theorem F114's pinning premise is not shown: {why})", question)


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
def least_extra(s: int, jumps: tuple[int, ...], low: int) -> Optional[tuple[int, ...]]:
    """Theorems F98 and F99: per residue r of n mod s, 0 when D layers are least there (the common-neighbour premise)
    and 1 when D + 1 are (a swap of two far positions is a view witness), when the finite check decides every n from
    `low` through N₁ + s − 1 and each residue class alike; None otherwise (s = 2, S′ ≠ −S′, beyond MAX_CHECK_TOP, a
    length with neither, or a class decided both ways)."""
    leaving = {k for k in jumps if k % s}
    if s < 3 or not leaving or leaving != {-k for k in leaving}:
        return None
    _, top = check_span(s, jumps, low)
    if top > MAX_CHECK_TOP:
        return None
    extra: dict[int, int] = {}
    for n in range(low, top + 1):
        found = decide_length(s, jumps, n)
        if found is None or extra.setdefault(n % s, found) != found:
            return None
    return tuple(extra[r] for r in range(s))


def decide_length(s: int, jumps: Sequence[int], n: int) -> Optional[int]:
    """0 when the common-neighbour premise holds at n (D layers suffice, F57), 1 when some root has two positions at
    distance D with the same neighbours within D − 1 of it that are not twins (their swap is a view witness: D + 1
    layers are least), None when neither (or Γ is not strongly connected)."""
    graph = _line_graph(s, jumps, n)
    if graph is None:
        return None
    near, layers, diameter = graph
    if premise_on(near, layers, diameter):
        return 0
    return 1 if swap_witness_on(near, layers, diameter) else None


def premise_holds(s: int, jumps: Sequence[int], n: int) -> bool:
    """The common-neighbour premise of Theorem F57 for `strided(s) + offsets S` (S = −S′ on the arcs between classes) on
    1..n: at every root i, two positions at distance D from i are adjacent iff some position within D − 1 of i is
    adjacent to both. False also when Γ is not strongly connected."""
    graph = _line_graph(s, jumps, n)
    return graph is not None and premise_on(*graph)


def _line_graph(s: int, jumps: Sequence[int], n: int) -> Optional[tuple[list[int], dict[int, list[int]], int]]:
    """(closed neighbourhoods, the distance layers of the roots i ≤ (n + 1)/2, D) on bit sets (bit p is position p; a
    neighbourhood of a set is its shifts by the jumps and the classes it meets), or None when not strongly connected.
    Roots past the middle are left out: the reflection is an automorphism (S′ = −S′), mapping what holds at i onto
    what holds at n + 1 − i."""
    full = (1 << (n + 1)) - 2
    from .strided_lines import line_neighbourhood

    closed = line_neighbourhood(s, jumps, n)

    layers: dict[int, list[int]] = {}
    for i in range(1, (n + 1) // 2 + 1):
        seen = frontier = 1 << i
        found = [frontier]
        while seen != full:
            frontier = closed(frontier) & ~seen
            if not frontier:
                return None
            seen |= frontier
            found.append(frontier)
        layers[i] = found
    diameter = max(len(found) - 1 for found in layers.values())
    return [0] + [closed(1 << p) for p in range(1, n + 1)], layers, diameter


def _balls(layers: dict[int, list[int]], diameter: int):
    """(the ball of radius D − 1, the positions at distance D) of every root with some position at distance D."""
    for found in layers.values():
        if len(found) - 1 == diameter:
            ball = 0
            for level in found[:diameter]:
                ball |= level
            yield ball, found[diameter]


def premise_on(near: list[int], layers: dict[int, list[int]], diameter: int) -> bool:
    for ball, far in _balls(layers, diameter):
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


def swap_witness_on(near: list[int], layers: dict[int, list[int]], diameter: int) -> bool:
    """Some root has two positions x ≠ y at distance D with the same neighbours in its ball and N[x] ∖ {x, y} ≠
    N[y] ∖ {x, y}: the swap (x y) keeps every neighbourhood within D − 1 of the root and is not an automorphism."""
    for ball, far in _balls(layers, diameter):
        groups: dict[int, list[int]] = {}
        rest = far
        while rest:
            bit = rest & -rest
            rest ^= bit
            groups.setdefault(near[bit.bit_length() - 1] & ball, []).append(bit.bit_length() - 1)
        for members in groups.values():
            for a, x in enumerate(members):
                for y in members[a + 1:]:
                    if (near[x] ^ near[y]) & ~((1 << x) | (1 << y)):
                        return True
    return False
