"""The least layer count of `window(w) cyclic` with symmetric non-cyclic offsets outside it, class by class of
n mod P: Theorem F184 of docs/theory.md §11.11.

With A = −A (so a = b and P = 2b, Γ one symmetric head, G the reflection, Theorem F101) the far positions of a root
form one short arc of the cycle opposite to it, and inserting b positions into each of the two long arcs between the
root and that arc (away from the seam between n and 1) raises every distance from the root to the arc by exactly one
(F168 (1) and the rays of F27 (d)) and keeps the arcs near it. So F184's count premise (the adjacency of two far
positions is a function of their common and own neighbour counts in the ball, by level), and F99's swap of two
far positions, hold at n + P exactly where they hold at n, from N₂ on (F184 (a)); the check below runs both on every
length of [low, N₂ + P) by breadth-first search on bit sets, and a class of n mod P whose lengths all hold the premise
has D layers, least, one whose lengths all have the swap D + 1, least (F184 (b), (c)). Other classes stay D + 1,
sufficient.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import ceil
from typing import Optional

from .circulant_general import constants, reduce_jumps
from .offsets_line import rays
from .strided_lines_least import swap_witness_on

#: The check runs breadth-first searches at every length up to N₂ + P; beyond this length it is not run (D + 1 layers
#: stay sufficient, not shown least).
MAX_CHECK_N = 420


@dataclass(frozen=True)
class SeamClasses:
    period: int                      # P = 2b
    proved_low: int                  # N₂ of F184 (a): the premise and the swap are P-periodic from it
    extra: tuple[int, ...]           # by residue of n mod P: 0 (D layers) or 1 (D + 1 layers)
    least: tuple[int, ...]           # the residues where the count is proved least (F184 (b), (c); F227)
    #: the residues F184's check leaves open that Theorem F227 decides (its check held): D layers, least
    by_cut: tuple[int, ...] = ()


def cut_low(w: int, outside: tuple[int, ...]) -> int:
    """N₂ of F184 (a) (docs/theory.md §11.11) for A = −A: N₀ of F168, and n so large that b·Y ≥ 2J + 2L + b + 2 with
    Y = (n − w)/P − 4 − 2K and L = w + μ + 1 (room for a cut of b positions in each long arc)."""
    from .cyclic_window_diameter import proved_low
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    b = steps[-1]
    period = 2 * b
    c = constants(reduce_jumps(steps))
    r = rays(steps, c)
    far = max(outside)
    margin = 1 + w + max(r.plus, r.minus)                                   # L
    room = 2 * far + 2 * margin + b + 2                                     # b·Y must reach this
    return max(proved_low(w, outside), ceil(w + period * (4 + 2 * Fraction(c.k_slope))) + 2 * room)


def closed_neighbourhoods(n: int, w: int, outside: tuple[int, ...]) -> list[int]:
    """N[v] on bit sets (bit v − 1 is position v): the cyclic window's v + c (mod n) and v + k, k ∈ A, inside 1..n."""
    rows = []
    for v in range(n):
        row = 0
        for c in range(-w, w + 1):
            row |= 1 << ((v + c) % n)
        for k in outside:
            if 0 <= v + k < n:
                row |= 1 << (v + k)
        rows.append(row)
    return rows


def _layers(near: list[int]) -> Optional[tuple[dict[int, list[int]], int]]:
    """The distance layers of the roots v ≤ (n + 1)/2 (the reflection maps the others onto them) and D, or None when
    not strongly connected."""
    from .bit_rings import rings
    n = len(near)
    padded = [0] + near  # rings reads position v's set at index v
    layers: dict[int, list[int]] = {}
    for i in range((n + 1) // 2):
        found = rings(padded, n, i + 1)
        if found is None:
            return None
        layers[i] = found
    return layers, max(len(found) - 1 for found in layers.values())


def count_premise_on(near: list[int], layers: dict[int, list[int]], diameter: int) -> bool:
    """Theorem F184's count premise at one length: one function of κ decides the adjacency of two far positions at every
    root. κ(u, u′) lists the profiles of the common neighbours of u and u′ within D − 1 of the root, then those of the
    neighbours of u and of u′ there (unordered); the profile of a position z of the ball is its distance from the root
    and how many of its neighbours lie at distance D, D − 1 and D − 2."""
    decided: dict[tuple, bool] = {}
    for found in layers.values():
        if len(found) - 1 != diameter:
            continue
        ball = 0
        for level in found[:diameter]:
            ball |= level
        far = [p for p in range(len(near)) if found[diameter] >> p & 1]
        kept: dict[int, tuple] = {}
        own = {x: _profiles(near[x] & ball, near, found, diameter, kept) for x in far}
        for k, x in enumerate(far):
            for y in far[k + 1:]:
                key = (_profiles(near[x] & near[y] & ball, near, found, diameter, kept),) + tuple(sorted((own[x], own[y])))
                if decided.setdefault(key, bool(near[x] >> y & 1)) != bool(near[x] >> y & 1):
                    return False
    return True


def _profiles(bits: int, near: list[int], found: list[int], diameter: int, kept: dict[int, tuple]) -> tuple:
    """The sorted profiles of the ball positions in ``bits`` (distance from the root; neighbours at D, D − 1, D − 2)."""
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        z = low.bit_length() - 1
        if z not in kept:
            level = next(k for k, ring in enumerate(found) if ring >> z & 1)
            kept[z] = (level,) + tuple(bin(near[z] & found[diameter - k]).count("1") for k in range(3))
        out.append(kept[z])
    return tuple(sorted(out))


def length_label(n: int, w: int, outside: tuple[int, ...]) -> Optional[str]:
    """"premise" when F184's count premise holds at n, "swap" when F99's swap property does, else None."""
    near = closed_neighbourhoods(n, w, outside)
    found = _layers(near)
    if found is None:
        return None
    layers, diameter = found
    if diameter <= 1 or count_premise_on(near, layers, diameter):
        return "premise"
    return "swap" if swap_witness_on(near, layers, diameter) else None


@lru_cache(maxsize=64)
def seam_classes(w: int, outside: tuple[int, ...], low: int) -> Optional[SeamClasses]:
    """F184 for `window(w) cyclic` with the symmetric non-cyclic offsets ``outside`` (A = −A, sorted, outside the
    window) from the length ``low`` (F168's range): the count and the least flag by class of n mod P, or None when A is
    not symmetric or the check lies beyond MAX_CHECK_N."""
    if set(outside) != {-k for k in outside}:
        return None
    period = 2 * max(outside)
    top = cut_low(w, outside) + period
    if top > MAX_CHECK_N:
        return None
    labels: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        labels[n % period].add(length_label(n, w, outside))
    extra = [1 if labels[r] != {"premise"} else 0 for r in range(period)]
    least = [r for r in range(period) if labels[r] in ({"premise"}, {"swap"})]
    by_cut: tuple[int, ...] = ()
    from . import cyclic_window_dilated_an as an
    if an.applies(w, outside) and low >= an.LOW and period == an.PERIOD:
        # Theorem F227: on F184's open classes where its check holds, D layers, least, from n = 65
        by_cut = tuple(r for r in an.decided_classes() if r not in least)
        for r in by_cut:
            extra[r] = 0
        least = sorted(set(least) | set(by_cut))
    return SeamClasses(period, top - period, tuple(extra), tuple(least), by_cut)
