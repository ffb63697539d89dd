"""Theorem F101 (docs/theory.md §11.11), restated for the verifier: `window(w) cyclic` with non-cyclic window,
dilated and offsets parts whose offsets outside {−w, …, w} form A ≠ ∅. With J = max |A| and S = {−w, …, w} ∪ A
without 0 (a = −min S, b = max S), for n ≥ max(2J + m₀, 2J + a + b + 1, 2J + w + 1, 2w + 3), m₀ the length from
which the line pattern `offsets S` has F41's group (the verifier's own restatement, ``offsets_line.group_range``:
its own ball certificate and the lengths below re-decided on its arcs): G = the reflection when A = −A, else
trivial. Theorem F168: D(n + P) = D(n) + 1 for n ≥ N₀ (P = a + b), so D = ⌊n/P⌋ + h(n mod P), D + 1 layers; the verifier's own N₀ (from its own word lengths, ``offsets_line.ray_constants``), h by breadth-first search on
its own arcs over one period from N₀, and every length below N₀ down to the range's start re-decided on its arcs.
Theorem F184 (A = −A): D layers, least, on the classes of n mod P where its count premise holds at every length from the range's start through N₂ + P − 1 on the verifier's own arcs, D + 1, least, where a far swap
does, D + 1 not least elsewhere (its own N₂, its own check, re-checked at every instance).
Where that period lies beyond MAX_CHECK_N: D ≤ ⌈⌊n/2⌋/w⌉ (a bound, the cyclic window's alone), that plus one layers.
The verifier's own A, S and range; its instance check re-checks D or the bound (BFS) and the order (nauty) on its
own arcs.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil, floor
from typing import Optional, Sequence

import sympy

from .. import spec as S

MAX_CHECK_N = 400
#: Theorem F184's check runs through N₂ + P − 1 below this length (the engine's limit too).
MAX_SEAM_CHECK_N = 420


def match(parts: Sequence[S.Pattern]):
    """F101's Family for these parts, or None."""
    cyclic = [q for q in parts if isinstance(q, S.Window) and q.cyclic]
    rest = [q for q in parts if q not in cyclic]
    if len(cyclic) != 1 or not rest or not isinstance(cyclic[0].w, int) or isinstance(cyclic[0].w, bool):
        return None
    if any(not isinstance(q, (S.Window, S.Dilated, S.Offsets)) or getattr(q, "cyclic", False) for q in rest):
        return None
    from .offsets_line import line_jumps
    jumps = line_jumps(rest)
    if jumps is None:
        return None
    return family(cyclic[0].w, tuple(jumps))


def family(w: int, jumps: tuple):
    from .families import Family
    from .offsets_line import group_range
    window = set(range(-w, w + 1))
    outside = sorted(set(jumps) - window)
    if w < 1 or not outside:
        return None
    steps = sorted((window | set(outside)) - {0})
    found = group_range(steps)
    if found is None:
        return None
    m0, _ = found
    far = max(abs(k) for k in outside)
    a, b = -min(steps), max(steps)
    low = max(2 * far + m0, 2 * far + a + b + 1, 2 * far + w + 1, 2 * w + 3)
    symmetric = set(outside) == {-k for k in outside}

    def name(text):
        return text == ("reflection" if symmetric else "trivial")

    def order(n):
        return sympy.Integer(2 if symmetric else 1)

    exact = _diameter_table(w, tuple(outside), low)
    if exact is not None:
        period, start, table = exact

        def diameter(n):
            if isinstance(n, (int, sympy.Integer)):
                return sympy.Integer(int(n) // period + table[int(n) % period])
            total = sympy.Integer(0)
            for r in range(period):
                total += (sympy.floor(n / period) + table[r]) * (sympy.floor((n - r) / period)
                                                                  - sympy.floor((n - r - 1) / period))
            return total

        seam = (_seam_family if symmetric else _directed_family)(w, tuple(outside), max(low, start), period, diameter,
                                                                order, name)
        if seam is not None:
            return seam
        return Family("F101", max(low, start), 0, 1, False, order, 1, name, None, diameter_at=diameter,
                      period=period, layers_by=lambda n: diameter(n) + 1)

    def bound(n):
        return sympy.ceiling(sympy.floor(sympy.Integer(n) / 2 if isinstance(n, int) else n / 2) / w)

    return Family("F101", low, 0, 1, False, order, 1, name, None,
                  diameter_at=bound, period=2 * w, layers_by=lambda n: bound(n) + 1, bound=True)


def _seam_family(w: int, outside: tuple, start: int, period: int, diameter, order, name):
    """F101 with Theorem F184's count by class (A = −A), or None when its check decides no class."""
    from .families import Family
    classes = seam_classes(w, outside, start)
    if classes is None or not classes[1]:
        return None
    extra, least = classes
    cut: tuple = ()
    own = least  # F184's own classes, before F227's
    from . import cyclic_window_dilated_an as an
    if an.applies(w, outside) and period == an.PERIOD:
        # Theorem F227 on F184's open classes where the verifier's own check (nauty's rooted views) holds, with the
        # lengths of the range below 65 checked at every root
        cut = tuple(r for r in an.decided_classes(start) if r not in least)
        extra = tuple(0 if r in cut else extra[r] for r in range(period))
        least = tuple(sorted(set(least) | set(cut)))
    pattern = _union(w, outside)

    def layers(n):
        if isinstance(n, (int, sympy.Integer)):
            return diameter(n) + extra[int(n) % period]
        return diameter(n) + sympy.Piecewise(*[(sympy.Integer(extra[r]), sympy.Eq(sympy.Mod(n, period), r))
                                               for r in range(period - 1)],
                                             (sympy.Integer(extra[period - 1]), True))

    def check(n: int, d: int) -> Optional[str]:
        from .strided_lines import swap_witness_problem
        if n % period not in least:
            return None
        if n % period in cut:
            return an.class_problem(n % period, start)
        if extra[n % period]:
            return swap_witness_problem(pattern, n, d)
        return None if count_premise(*_rings_on_arcs(w, outside, n)) else \
            f"n = {n}: the count premise of Theorem F184 fails on the verifier's arcs"
    every = len(least) == period
    text = (f"D + {{1 at n mod {period} ∈ {[r for r in range(period) if extra[r]]}, else 0}} layers (Theorem "
            f"F184: at every length from {start} through N₂ + P − 1 = {seam_cut_low(w, outside) + period - 1} "
            "on the verifier's own arcs, the adjacency of two far positions is one function of their common and "
            "own neighbour counts at distance D − 1 and at most D − 2 from the root, or two far positions with "
            "the same neighbours within D − 1 are not twins, "
            f"each class alike on n mod {period} ∈ {list(own)}; re-checked on its arcs at every instance)"
            + (f"; D layers, least, on n mod {period} ∈ {list(cut)} by Theorem F227 (a view witness at n + 16 ≥ 240 "
               "is cut to one at n; nauty's rooted views on the verifier's arcs find none at every length of these "
               f"classes from {start} to 239, at the roots without blocks from 82)" if cut else "")
            + ("" if every else ", D + 1 not claimed least on the other classes"))
    return Family("F101", start, 0, 1, every, order, 1, name, None, diameter_at=diameter,
                  period=period, layers_by=layers, layers_check=check, layers_text=text,
                  least_classes=() if every else (period, tuple(least)))


def _directed_family(w: int, outside: tuple, start: int, period: int, diameter, order, name):
    """F101 with Theorem F190's count by class (A ≠ −A: one directed head, G trivial), or None when its check decides
    no class (``verifier/cyclic_window_directed.py``, the verifier's own restatement)."""
    from .cyclic_window_directed import cut_low, directed_classes, properties
    from .families import Family
    classes = directed_classes(w, outside, start, seam_low(w, outside))
    if classes is None or not classes[2]:
        return None
    _, extra, least = classes

    def layers(n):
        if isinstance(n, (int, sympy.Integer)):
            return diameter(n) + extra[int(n) % period]
        return diameter(n) + sympy.Piecewise(*[(sympy.Integer(extra[r]), sympy.Eq(sympy.Mod(n, period), r))
                                               for r in range(period - 1)],
                                             (sympy.Integer(extra[period - 1]), True))

    def check(n: int, d: int) -> Optional[str]:
        if n % period not in least:
            return None
        got = properties(w, outside, n)
        want = (False, True) if extra[n % period] else (True, False)
        return None if got == want else \
            f"n = {n}: Theorem F190's {'swap' if extra[n % period] else 'count premise'} fails on the verifier's arcs"
    every = len(least) == period
    text = (f"D + {{1 at n mod {period} ∈ {[r for r in range(period) if extra[r]]}, else 0}} layers (Theorem "
            f"F190: at every length from {start} through N₂ + P − 1 = "
            f"{cut_low(w, outside, seam_low(w, outside)) + period - 1} on the verifier's own arcs, the arcs into the "
            "far positions are one function of the refined colours of the rooted view, or two far positions are "
            f"attended by the same ball positions, each class alike on n mod {period} ∈ {list(least)}; re-checked on "
            "its arcs at every instance)" + ("" if every else ", D + 1 not claimed least on the other classes"))
    return Family("F101", start, 0, 1, every, order, 1, name, None, diameter_at=diameter,
                  period=period, layers_by=layers, layers_check=check, layers_text=text,
                  least_classes=() if every else (period, tuple(least)))


def seam_low(w: int, outside: Sequence[int]) -> int:
    """N₀ of Theorem F168 (2), from the verifier's own word lengths: (c1)–(c4) of its proof."""
    from .offsets_line import ray_constants
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    k, plus, minus, edge = ray_constants(steps)
    corner = 1 + 2 * k + Fraction(2 * (w + max(plus, minus) + max(a, b)), min(a, b))
    return max(a + b, 2 * w + 3, ceil(max(a, b) * k), ceil((2 * k + 1) * max(a, b) * (a + b) / min(a, b)),
               (a + b) * (floor(max(Fraction(edge), corner)) + 2) + w + 1)


def _union(w: int, outside: tuple) -> S.Pattern:
    return S.PatternUnion((S.Window(w, True), S.Offsets(tuple(sorted(set(outside) | {0})), False)))


def _diameter_on_arcs(w: int, outside: tuple, n: int) -> Optional[int]:
    from . import bit_distances, patterns
    return bit_distances.Balls(patterns.union_out([patterns.head_arcs(_union(w, outside), n)], n), n).diameter()


def seam_cut_low(w: int, outside: Sequence[int]) -> int:
    """N₂ of Theorem F184 (a) for A = −A, from the verifier's own word lengths: N₀ of F168, and n with
    J·((n − w)/P − 4 − 2K) ≥ 2J + 2L + J + 2, L = w + max(M₊′, M₋′) + 1 (room for the cuts)."""
    from .offsets_line import ray_constants
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    k, plus, minus, _ = ray_constants(steps)
    far = max(outside)
    margin = w + max(plus, minus) + 1
    return max(seam_low(w, outside), ceil(w + 2 * far * (4 + 2 * k)) + 2 * (3 * far + 2 * margin + 2))


def _rings_on_arcs(w: int, outside: tuple, n: int) -> tuple[list[list[int]], list[int]]:
    """(per root, the bit sets of the positions at distance 0, 1, 2, …; the closed neighbourhoods), bit v − 1 for the
    position v, from the verifier's own arcs (the union is symmetric and strongly connected at these lengths)."""
    from . import patterns
    outs = patterns.union_out([patterns.head_arcs(_union(w, outside), n)], n)
    around = [sum(1 << (u - 1) for u in outs[v]) | 1 << (v - 1) for v in range(1, n + 1)]
    rings = []
    for root in range(n):
        seen = edge = 1 << root
        ring = [edge]
        while True:
            grown, rest = 0, edge
            while rest:
                low = rest & -rest
                grown |= around[low.bit_length() - 1]
                rest ^= low
            edge = grown & ~seen
            if not edge:
                break
            seen |= edge
            ring.append(edge)
        rings.append(ring)
    return rings, around


def count_premise(rings: list[list[int]], around: list[int]) -> bool:
    """Theorem F184's count premise restated: over every root with positions at the largest distance D, the pairs of
    such far positions with equal κ (the profiles of their common neighbours within D − 1 of the root, then of each
    one's neighbours there, unordered; a profile is the distance from the root and the numbers of neighbours at D,
    D − 1 and D − 2) are all adjacent or all not."""
    d = max(len(r) for r in rings) - 1
    seen: dict = {}
    for ring in rings:
        if len(ring) - 1 != d:
            continue
        level = {v: k for k, bits in enumerate(ring) for v in range(len(around)) if bits >> v & 1}
        ball = {v for v, k in level.items() if k < d}

        def profiles(group, ring=ring, level=level) -> tuple:
            return tuple(sorted((level[z],) + tuple(bin(around[z] & ring[d - k]).count("1") for k in range(3))
                                for z in group))
        far = [v for v, k in level.items() if k == d]
        near = {x: {v for v in ball if around[x] >> v & 1} for x in far}
        for k, x in enumerate(far):
            for y in far[k + 1:]:
                key = (profiles(near[x] & near[y]),) + tuple(sorted((profiles(near[x]), profiles(near[y]))))
                if seen.setdefault(key, bool(around[x] >> y & 1)) != bool(around[x] >> y & 1):
                    return False
    return True


@lru_cache(maxsize=32)
def seam_classes(w: int, outside: tuple, low: int) -> Optional[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Theorem F184 restated: (per residue of n mod P, 0 for D layers and 1 for D + 1; the residues where the count is
    least) from the verifier's own check of the common-neighbour premise and the far swap at every length from low
    through N₂ + P − 1 on its own arcs; None past MAX_SEAM_CHECK_N."""
    from .strided_lines import _swap_rings
    period = 2 * max(outside)
    top = seam_cut_low(w, outside) + period
    if top > MAX_SEAM_CHECK_N:
        return None
    found: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        rings, around = _rings_on_arcs(w, outside, n)
        found[n % period].add(0 if count_premise(rings, around) else 1 if _swap_rings(rings, around) else None)
    extra = tuple(0 if found[r] == {0} else 1 for r in range(period))
    return extra, tuple(r for r in range(period) if found[r] in ({0}, {1}))


@lru_cache(maxsize=64)
def _diameter_table(w: int, outside: tuple, floor_low: int) -> Optional[tuple[int, int, tuple[int, ...]]]:
    """(P, the start of the range, h): D = ⌊n/P⌋ + h[n mod P] for n ≥ start, by Theorem F168 from N₀ on with h by
    breadth-first search on the verifier's arcs over one period, and every length from start to N₀ − 1 re-decided
    on its arcs; None when the period's lengths exceed MAX_CHECK_N."""
    period = max([w] + [-k for k in outside]) + max([w] + list(outside))
    n0 = seam_low(w, outside)
    if n0 + period > MAX_CHECK_N:
        return None
    table = [0] * period
    for n in range(n0, n0 + period):
        d = _diameter_on_arcs(w, outside, n)
        if d is None:
            return None
        table[n % period] = d - n // period
    start = n0
    while start - 1 >= max(floor_low, 2 * w + 3) and \
            _diameter_on_arcs(w, outside, start - 1) == (start - 1) // period + table[(start - 1) % period]:
        start -= 1
    return period, start, tuple(table)
