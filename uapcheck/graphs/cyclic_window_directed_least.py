"""The least layer count of `window(w) cyclic` with non-cyclic offsets outside it that are not symmetric (A ≠ −A),
class by class of n mod P: Theorem F190 of docs/theory.md §11.11.

The head is directed and its group is trivial (Theorem F101 (b)), so D layers suffice exactly where no rooted view
at depth D has a symmetry other than the identity. F190's count premise says that, at every root with positions at
distance D (the *far* positions u), whether u attends to a position x with d(x → i) ≥ D − t (t = ⌈J/w⌉; no other x
can be attended by u) is one function of κ(u, x): D − d(x → i), and the profiles of the ball positions that attend
to both, to u, and to x (a profile is a position's distance from the root and the sorted distances of the positions
it attends to). A view isomorphism keeps κ, so where the premise holds it keeps every arc: D layers suffice. Where
some root has two far positions attended by the same ball positions, their swap is a view witness: D + 1 are least.
Inserting a positions into the arc just below the root and b into the arc just above it (away from the seam and the
far region) raises every distance from the root to the far region by exactly one (Theorem F168 (1) and the rays of
F27), so both properties hold at n + P exactly where they hold at n, from N₂ on (F190 (a)); the check runs them on
every length of [low, N₂ + P) by breadth-first search on bit sets.

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

#: The check runs breadth-first searches from every root at every length up to N₂ + P; beyond this length it is not
#: run (D + 1 layers stay sufficient, not shown least).
MAX_CHECK_N = 300
#: Nor where its work, (lengths checked) × (the last length) × (parts per position) × (heads), passes this (about 8 s
#: of CPU here): `window(5) cyclic + offsets {−7}` (873,000) stays D + 1, sufficient, inside the closed forms' budget.
MAX_WORK = 450_000
#: The rounds of colour refinement on the rooted view before the arcs of the far positions are read off the colours:
#: two for one head, three for several heads (F191; the theorem holds for any fixed number, N₂ grows with it).
ROUNDS = 2
HEAD_ROUNDS = 3


@dataclass(frozen=True)
class DirectedClasses:
    period: int                      # P = a + b
    proved_low: int                  # N₂ of F190 (a): the premise and the swap are P-periodic from it
    extra: tuple[int, ...]           # by residue of n mod P: 0 (D layers) or 1 (D + 1 layers)
    least: tuple[int, ...]           # the residues where the count is proved least (F190 (b))


def level_reach(w: int, outside: tuple[int, ...]) -> int:
    """t = ⌈J/w⌉: a far position attends only to positions x with d(x → i) ≥ D − t (the cyclic window walks from it to x
    in at most t steps)."""
    return -(-max(abs(k) for k in outside) // w)


def cut_low(w: int, outside: tuple[int, ...], rounds: int = ROUNDS) -> int:
    """N₂ of F190 (a): N₀ of F168, and n so large that α·Y(n) ≥ (r + 2)J + 4L + 2β + 6 with Y(n) = (n − w)/P − 4 − 2K − t,
    r = ROUNDS, α = min(a, b), β = max(a, b), L = w + μ + 1 (room for a cut of a positions below the root and of b
    above it, each (r + 2)J + 2 away from the far region, L from the seam and from the root)."""
    from .cyclic_window_diameter import proved_low
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    period = a + b
    c = constants(reduce_jumps(steps))
    r = rays(steps, c)
    far = max(abs(k) for k in outside)
    margin = 1 + w + max(r.plus, r.minus)                                   # L
    room = (rounds + 2) * far + 4 * margin + 2 * max(a, b) + 6
    bound = w + period * (4 + 2 * Fraction(c.k_slope) + level_reach(w, outside) + Fraction(room, min(a, b)))
    return max(proved_low(w, outside), ceil(bound))


def attends(n: int, w: int, outside: tuple[int, ...]) -> list[int]:
    """N(v) on bit sets (bit v − 1 is position v): the cyclic window's v + c (mod n) and v + k, k ∈ A, inside 1..n (the
    rows F184's check reads, cyclic_window_seam_least.closed_neighbourhoods)."""
    from .cyclic_window_seam_least import closed_neighbourhoods
    return closed_neighbourhoods(n, w, outside)


def _levels(near: list[int]) -> Optional[tuple[list[list[int]], int]]:
    """Per root, its distance layers d(x → i) = 0, 1, … (following the positions each attends to), and D; None when
    not strongly connected."""
    from .bit_rings import rings
    n = len(near)
    padded = [0] + near  # rings reads position v's set at index v
    out = []
    for i in range(n):
        found = rings(padded, n, i + 1)
        if found is None:
            return None
        out.append(found)
    return out, max(len(found) - 1 for found in out)


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        x ^= low
        out.append(low.bit_length() - 1)
    return out


def _dilate(bits: int, n: int, span: int) -> int:
    """The positions within cyclic distance ``span`` of those in ``bits``."""
    full = (1 << n) - 1
    out = bits
    for c in range(1, span + 1):
        out |= ((bits << c) | (bits >> (n - c)) | (bits >> c) | (bits << (n - c))) & full
    return out


def _attended_by(near: list[int]) -> list[int]:
    """For each position z, the bit set of the positions v that attend to z."""
    back = [0] * len(near)
    for v, row in enumerate(near):
        for z in _bits(row):
            back[z] |= 1 << v
    return back


def root_properties(near: list[int], heads: list[list[list[int]]], backs: list[list[int]], found: list[int],
                    diameter: int, reach: int, span: int, names: dict, decided: dict, rounds: int = ROUNDS
                    ) -> tuple[bool, bool]:
    """At one root with far positions: (the count premise still holds with this root's pairs added to ``decided``,
    some two far positions are attended by the same ball positions in every head). ``near``: the union's N(z) as bit
    sets (the distances are the union's); ``heads``: per head, N_h(z) as lists; ``backs``: per head, the positions
    attending to z as bit sets; ``names`` numbers the colours of the refinement (one table for every root of a length,
    so that colours of different roots compare)."""
    ball = 0
    for ring in found[:diameter]:
        ball |= ring
    far = _bits(found[diameter])
    zone = 0
    for ring in found[max(0, diameter - reach):]:
        zone |= ring
    # the colours of round k are needed within (rounds − k + 1)·J of the zone only (every arc spans at most J)
    regions = [zone]
    for _ in range(rounds + 1):
        regions.append(_dilate(regions[-1], len(near), span))
    level = {}
    for k, ring in enumerate(found):
        for z in _bits(ring & regions[-1]):
            level[z] = k
    seen_by = [{z: back[z] & ball for z in level} for back in backs]
    seen_list = [{z: _bits(bits) for z, bits in seen.items()} for seen in seen_by]
    colour = level
    for k in range(1, rounds + 1):
        colour = {z: names.setdefault(
            (k, colour[z],
             tuple(tuple(sorted(colour[y] for y in lists[z])) for lists in heads) if ball >> z & 1 else None,
             tuple(tuple(sorted(colour[v] for v in seen[z])) for seen in seen_list)), len(names))
            for z in _bits(regions[rounds + 1 - k])}
    holds = True
    for u in far:
        for x in _bits(zone):
            if x == u:
                continue
            key = (colour[u], colour[x],
                   tuple(tuple(sorted(colour[v] for v in _bits(seen[u] & seen[x]))) for seen in seen_by))
            edge = tuple(bool(back[x] >> u & 1) for back in backs)
            if decided.setdefault(key, edge) != edge:
                holds = False
                break
        if not holds:
            break
    twins = len({tuple(seen[u] for seen in seen_by) for u in far}) < len(far)
    return holds, twins


def length_label(n: int, w: int, outside: tuple[int, ...]) -> Optional[str]:
    """"premise" when F190's count premise holds at n, "swap" when two far positions of a root are attended by the same
    ball positions, else None."""
    near = attends(n, w, outside)
    return _label(near, [near], max(abs(k) for k in outside), level_reach(w, outside))


def _label(near: list[int], rows: list[list[int]], span: int, reach: int, rounds: int = ROUNDS) -> Optional[str]:
    """F190's two properties at one length: the union's N(z) ``near`` (its distances), each head's N_h(z) ``rows``."""
    got = _levels(near)
    if got is None:
        return None
    layers, diameter = got
    if diameter <= 1:
        return "premise"
    heads = [[_bits(row) for row in head] for head in rows]
    backs = [_attended_by(head) for head in rows]
    decided: dict = {}
    names: dict = {}
    premise, swap = True, False
    for found in layers:
        if len(found) - 1 != diameter:
            continue
        holds, twins = root_properties(near, heads, backs, found, diameter, reach, span, names,
                                       decided if premise else {}, rounds)
        premise = premise and holds
        swap = swap or twins
        if swap:
            return "swap"
    return "premise" if premise else None


def head_rows(patterns: tuple, n: int) -> list[list[int]]:
    """Each head's N_h(z) on bit sets at n (the position itself included), from its PatternGraph."""
    from .build import build_graph
    out = []
    for pattern in patterns:
        g = build_graph(pattern, n, {})
        rows = [1 << v for v in range(n)]
        if g.complete:
            rows = [(1 << n) - 1] * n
        else:
            for code in g.codes:
                rows[code % n] |= 1 << (code // n)
        out.append(rows)
    return out


def heads_label(patterns: tuple, n: int, w: int, outside: tuple[int, ...], rounds: int = HEAD_ROUNDS) -> Optional[str]:
    """F191: F190's two properties for several heads whose union is `window(w) cyclic` with the non-cyclic offsets
    ``outside`` (the union's distances, each head's arcs coloured apart)."""
    rows = head_rows(patterns, n)
    near = [0] * n
    for head in rows:
        near = [a | b for a, b in zip(near, head)]
    return _label(near, rows, max(abs(k) for k in outside), level_reach(w, outside), rounds)


def union_offsets(patterns: tuple, w: int, n: int) -> tuple[int, ...]:
    """A: the non-cyclic offsets of the heads' union outside {−w, …, w}, read at a middle position of a length n past
    2J + 2w + 1 (no cyclic arc of the window and no offset reaches past the ends there)."""
    near = [0] * n
    for head in head_rows(patterns, n):
        near = [a | b for a, b in zip(near, head)]
    v = n // 2
    return tuple(sorted(u - v for u in _bits(near[v]) if abs(u - v) > w))


@dataclass(frozen=True)
class CheckSize:
    """The size of F191's check on several heads: the lengths low … last − 1 and its work, (lengths checked) × (the
    last length) × (parts per position) × (heads); it runs when last ≤ MAX_CHECK_N and work ≤ MAX_WORK."""
    low: int
    last: int
    work: int
    per_length: int  # (parts per position) × (heads): the work is (last − low) × last × per_length

    @property
    def fits(self) -> bool:
        return self.last <= MAX_CHECK_N and self.work <= MAX_WORK

    def last_that_fits(self) -> int:
        """The largest last length whose check would run (both bounds), for the report of a refused check."""
        last = min(self.last, MAX_CHECK_N)
        while last > self.low and (last - self.low) * last * self.per_length > MAX_WORK:
            last -= 1
        return last


def heads_check_size(patterns: tuple, w: int, outside: tuple[int, ...], low: int) -> CheckSize:
    """The size of F191's check (`heads_classes`) for these heads: deterministic, so the check runs or is refused
    alike on every machine."""
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    top = cut_low(w, outside, HEAD_ROUNDS) + steps[-1] - steps[0]
    per_length = (2 * w + 1 + len(outside)) * len(patterns)
    return CheckSize(low, top, (top - low) * top * per_length, per_length)


@lru_cache(maxsize=32)
def heads_classes(patterns: tuple, w: int, outside: tuple[int, ...], low: int) -> Optional[DirectedClasses]:
    """F191: F190's check on several heads (each head's arcs coloured apart, HEAD_ROUNDS rounds) whose union is
    `window(w) cyclic` with the non-symmetric non-cyclic offsets ``outside``: the count by class of n mod P, or None
    (A symmetric, or the check beyond MAX_CHECK_N)."""
    if set(outside) == {-k for k in outside}:
        return None
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    period = steps[-1] - steps[0]
    size = heads_check_size(patterns, w, outside, low)
    if not size.fits:
        return None
    top = size.last
    labels: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        labels[n % period].add(heads_label(patterns, n, w, outside))
    extra = tuple(0 if labels[r] == {"premise"} else 1 for r in range(period))
    least = tuple(r for r in range(period) if labels[r] in ({"premise"}, {"swap"}))
    return DirectedClasses(period, top - period, extra, least)


@lru_cache(maxsize=64)
def directed_classes(w: int, outside: tuple[int, ...], low: int) -> Optional[DirectedClasses]:
    """F190 for `window(w) cyclic` with the non-symmetric non-cyclic offsets ``outside`` (A ≠ −A, sorted, outside the
    window) from the length ``low`` (F168's range): the count and the least flag by class of n mod P, or None when A is
    symmetric or the check lies beyond MAX_CHECK_N."""
    if set(outside) == {-k for k in outside}:
        return None
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    period = steps[-1] - steps[0]
    top = cut_low(w, outside) + period
    if top > MAX_CHECK_N or (top - low) * top * (2 * w + 1 + len(outside)) > MAX_WORK:
        return None
    labels: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        labels[n % period].add(length_label(n, w, outside))
    extra = tuple(0 if labels[r] == {"premise"} else 1 for r in range(period))
    least = tuple(r for r in range(period) if labels[r] in ({"premise"}, {"swap"}))
    return DirectedClasses(period, top - period, extra, least)
