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
every length of [low, N₂ + P), every root of a length at once on arrays (distances, colour refinement, the far
positions' arcs).

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


def _bits(x: int) -> list[int]:
    out = []
    while x:
        low = x & -x
        x ^= low
        out.append(low.bit_length() - 1)
    return out


def length_label(n: int, w: int, outside: tuple[int, ...]) -> Optional[str]:
    """"premise" when F190's count premise holds at n, "swap" when two far positions of a root are attended by the same
    ball positions, else None."""
    near = attends(n, w, outside)
    return _label(near, [near], max(abs(k) for k in outside), level_reach(w, outside))


def _label(near: list[int], rows: list[list[int]], span: int, reach: int, rounds: int = ROUNDS) -> Optional[str]:
    """F190's two properties at one length: the union's N(z) ``near`` (its distances), each head's N_h(z) ``rows``.
    Every root at eccentricity D at once, on arrays: the distances by breadth-first search, `rounds` rounds of colour
    refinement near each root's zone (a position's colour, the sorted colours of the positions it attends to in each
    head when it lies in the ball, and of the ball positions attending to it), then the far positions' arcs."""
    import numpy as np
    from .row_ranks import row_ranks
    n = len(near)
    union = _matrix(near, n)
    dist = _distances(union, n)
    if dist is None:
        return None
    ecc = dist.max(axis=1)
    diameter = int(ecc.max())
    if diameter <= 1:
        return "premise"
    roots = np.flatnonzero(ecc == diameter)
    level = dist[roots]                                         # (R, n): d from each root
    count = len(roots)
    ball = np.zeros((count, n + 1), dtype=bool)                 # column n: the padding of the neighbour lists
    ball[:, :n] = level < diameter
    far = level == diameter
    zone = level >= diameter - reach
    adjacency = [_matrix(head, n) for head in rows]             # adjacency[h][v, z]: v attends to z in head h
    outs = [_padded(a, n) for a in adjacency]                   # the positions z attends to
    ins = [_padded(a.T, n) for a in adjacency]                  # the positions attending to z
    # the swap property: two far positions of one root attended by the same ball positions in every head
    far_root, far_at = np.nonzero(far)
    seen_sets = [far_root[:, None]]
    for into in ins:
        sources = into[far_at]
        seen_sets.append(np.sort(np.where(ball[far_root[:, None], sources], sources, n), axis=1))
    if row_ranks(np.concatenate(seen_sets, axis=1)).max() + 1 < len(far_root):
        return "swap"
    regions = [zone]
    for _ in range(rounds + 1):
        regions.append(_dilated(regions[-1], span))
    blank = 1 << 40                                             # the padding's colour: no colour is this large
    width = n + 1
    colour = np.full((count, width), blank, dtype=np.int64)
    colour[:, :n] = level
    balls = ball.ravel()                                        # [root · (n + 1) + z], as colour below
    for k in range(1, rounds + 1):
        at_root, at = np.nonzero(regions[rounds + 1 - k])
        flat = colour.ravel()
        base = (at_root * width)[:, None]
        here = base[:, 0] + at
        parts = [flat[here][:, None]]
        inside = balls[here][:, None]
        for out in outs:
            parts.append(np.where(inside, np.sort(flat[base + out[at]], axis=1), -1))
        for into in ins:
            sources = base + into[at]
            parts.append(np.sort(np.where(balls[sources], flat[sources], blank), axis=1))
        colour = np.full((count, width), blank, dtype=np.int64)
        colour.ravel()[here] = row_ranks(np.concatenate(parts, axis=1))
    flat = colour.ravel()
    # the premise: whether u attends to x is one function of (κ(u), κ(x), the colours of the ball positions attending
    # to both), over every root, far u and zone x ≠ u
    zone_root, zone_at = np.nonzero(zone)
    per_root = np.bincount(zone_root, minlength=count)
    first = np.concatenate(([0], np.cumsum(per_root)[:-1]))
    pair = np.repeat(np.arange(len(far_root)), per_root[far_root])
    offset = np.arange(len(pair)) - np.repeat(np.cumsum(per_root[far_root]) - per_root[far_root], per_root[far_root])
    r, u = far_root[pair], far_at[pair]
    x = zone_at[first[r] + offset]
    keep = x != u
    r, u, x = r[keep], u[keep], x[keep]
    base = (r * width)[:, None]
    keys = [flat[base[:, 0] + u][:, None], flat[base[:, 0] + x][:, None]]
    edge = np.zeros(len(r), dtype=np.int64)
    for h, (a, into) in enumerate(zip(adjacency, ins)):
        attends_x = np.vstack((a, np.zeros((1, n), dtype=bool))).ravel()   # [v · n + x]: v attends to x (v = n: none)
        sources = into[u]
        both = balls[base + sources] & attends_x[sources * n + x[:, None]]
        keys.append(np.sort(np.where(both, flat[base + sources], blank), axis=1))
        edge |= a[u, x].astype(np.int64) << h
    key = row_ranks(np.concatenate(keys, axis=1))
    order = np.argsort(key, kind="stable")
    key, edge = key[order], edge[order]
    # one arc pattern per key: no two rows with the same key and different arcs
    return None if np.any((key[1:] == key[:-1]) & (edge[1:] != edge[:-1])) else "premise"


def _matrix(bit_rows: list[int], n: int):
    """The (n, n) boolean matrix of bit set rows: [v, z] when bit z of row v is set."""
    import numpy as np
    width = (n + 7) // 8
    packed = np.frombuffer(b"".join(row.to_bytes(width, "little") for row in bit_rows), dtype=np.uint8)
    return np.unpackbits(packed.reshape(n, width), axis=1, count=n, bitorder="little").astype(bool)


def _padded(adjacency, n: int):
    """Each row's set positions, ascending, padded with n to the longest row's length."""
    import numpy as np
    width = int(adjacency.sum(axis=1).max())
    order = np.argsort(~adjacency, axis=1, kind="stable")[:, :width]
    return np.where(np.take_along_axis(adjacency, order, axis=1), order, n)


def _dilated(mask, span: int):
    """The positions within cyclic distance ``span`` of those in each row of ``mask``."""
    import numpy as np
    out = mask.copy()
    for c in range(1, span + 1):
        out |= np.roll(mask, c, axis=1) | np.roll(mask, -c, axis=1)
    return out


def _distances(adjacency, n: int):
    """d(root → z) along the arcs v → z (z in N(v), v in N(v)) for every root and z, as an (n, n) array; None when some
    position is not reached. Breadth-first search from every root at once: for each z, the roots that reach it, as a
    bit set over the roots (bytes read as 64-bit words for the union, which is bytewise), grown by the union over the
    positions attending to z."""
    import numpy as np
    sources = _padded(adjacency.T, n).T.copy()                  # the positions attending to z (z itself among them)
    words = (n + 63) // 64
    reached = np.zeros((n + 1, 8 * words), dtype=np.uint8)      # row n: the padding, reached from no root
    reached[:n, :(n + 7) // 8] = np.packbits(np.eye(n, dtype=bool), axis=1, bitorder="little")
    reached = reached.view(np.uint64)
    dist = np.zeros((n, n), dtype=np.int32)                     # [z, root] while searching
    while True:
        grown = reached[sources[0]]
        for column in sources[1:]:
            grown |= reached[column]
        if np.array_equal(grown, reached[:n]):
            break
        dist += 1 - np.unpackbits(reached[:n].view(np.uint8), axis=1, count=n, bitorder="little")
        reached[:n] = grown
    if not np.unpackbits(reached[:n].view(np.uint8), axis=1, count=n, bitorder="little").all():
        return None
    return dist.T.astype(np.int64)


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
