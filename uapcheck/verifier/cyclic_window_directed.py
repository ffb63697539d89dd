"""Theorem F190 (docs/theory.md §11.11), restated for the verifier: `window(w) cyclic` with non-cyclic offsets A ≠ −A
outside it (one directed head, G trivial by F101). At every length from the range's start through N₂ + P − 1, on
the verifier's own arcs: at every root i with positions at distance D (d(x → i), the union's BFS), the colours that
two rounds of refinement give the positions of the rooted view (start: the distance; a round adds the sorted colours of
the positions a ball position attends to, and of the ball positions attending to the position) must decide whether a
far position u attends to x, for every x with d(x → i) ≥ D − ⌈J/w⌉, together with the sorted colours of the ball
positions attending to both (the count premise: D layers on the class); or some root has two far positions attended
by the same ball positions (a swap witness: D + 1, least). Its own N₂ from its own word lengths
(``offsets_line.ray_constants``). Shares no code with the engines.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil
from typing import Optional, Sequence

import sympy

from .. import spec as S

#: The check's last length N₂ + P − 1 must lie below this (the engine's limit too).
MAX_CHECK_N = 300
#: Rounds of colour refinement (the engine's F190 check uses the same number; the theorem holds for any fixed one).
ROUNDS = 2


def cut_low(w: int, outside: Sequence[int], base_low: int, rounds: int = ROUNDS) -> int:
    """N₂ of Theorem F190 (a): at least ``base_low`` (F168's N₀, the verifier's own), and n with α·((n − w)/P − 4 − 2K −
    t) ≥ (r + 2)J + 4L + 2β + 6, r = ROUNDS, t = ⌈J/w⌉, L = w + max(M₊′, M₋′) + 1."""
    from .offsets_line import ray_constants
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    k, plus, minus, _ = ray_constants(steps)
    far = max(abs(x) for x in outside)
    t = (far + w - 1) // w
    margin = w + max(plus, minus) + 1
    room = (rounds + 2) * far + 4 * margin + 2 * max(a, b) + 6
    return max(base_low, ceil(w + (a + b) * (4 + 2 * Fraction(k) + t + Fraction(room, min(a, b)))))


def _attended(w: int, outside: Sequence[int], n: int) -> list[set[int]]:
    """N(v) for v = 0..n − 1 (position v + 1), read from the verifier's own arcs (j, i): i attends to j."""
    from . import patterns
    from .cyclic_window_line import _union
    rows: list[set[int]] = [{v} for v in range(n)]
    for j, i in patterns.head_arcs(_union(w, tuple(outside)), n):
        rows[i - 1].add(j - 1)
    return rows


def _distances(rows: list[set[int]]) -> Optional[list[list[int]]]:
    """dist[i][x] = d(x → i) for every root i, by breadth-first search along the attended positions (bit sets)."""
    n = len(rows)
    masks = [sum(1 << x for x in row) for row in rows]
    out = []
    for i in range(n):
        dist = [-1] * n
        dist[i] = 0
        seen = edge = 1 << i
        d = 0
        while edge:
            d += 1
            grown = 0
            for x in _members(edge):
                grown |= masks[x]
            edge = grown & ~seen
            seen |= edge
            for x in _members(edge):
                dist[x] = d
        if -1 in dist:
            return None
        out.append(dist)
    return out


def _cyclic_gaps(zone: list[int], n: int, reach: int) -> dict[int, int]:
    """The positions within cyclic distance ``reach`` of ``zone``, each with that distance (a search along the cycle)."""
    gaps = {z: 0 for z in zone}
    edge = list(zone)
    for step in range(1, reach + 1):
        grown = []
        for p in edge:
            for q in ((p - 1) % n, (p + 1) % n):
                if q not in gaps:
                    gaps[q] = step
                    grown.append(q)
        edge = grown
    return gaps


def _members(bits: int) -> list[int]:
    out = []
    while bits:
        x = (bits & -bits).bit_length() - 1
        out.append(x)
        bits &= bits - 1
    return out


def properties(w: int, outside: Sequence[int], n: int, rounds: int = ROUNDS) -> Optional[tuple[bool, bool]]:
    """(the count premise, a swap of two far positions) at n on the verifier's arcs; None when not connected."""
    return _properties([_attended(w, outside, n)], w, max(abs(x) for x in outside), rounds)


def _properties(heads: list[list[set[int]]], w: int, far_span: int, rounds: int) -> Optional[tuple[bool, bool]]:
    """Both properties for heads given by their N_h(v) (v = 0..n − 1, each holding v), distances in their union."""
    n = len(heads[0])
    rows = [set().union(*(head[v] for head in heads)) for v in range(n)]
    dists = _distances(rows)
    if dists is None:
        return None
    d = max(max(row) for row in dists)
    t = (far_span + w - 1) // w
    attending: list[list[set[int]]] = []
    for head in heads:
        into: list[set[int]] = [set() for _ in range(n)]
        for v, row in enumerate(head):
            for x in row:
                into[x].add(v)
        attending.append(into)
    names: dict = {}
    decided: dict = {}
    premise, swap = True, False
    for dist in dists:
        if max(dist) != d:
            continue
        zone = [x for x in range(n) if dist[x] >= d - t]
        near_zone = _cyclic_gaps(zone, n, (rounds + 1) * far_span)
        colour = {p: dist[p] for p in near_zone}
        for r in range(1, rounds + 1):
            keep = (rounds + 1 - r) * far_span
            colour = {p: names.setdefault((r, colour[p],
                                           tuple(tuple(sorted(colour[y] for y in head[p])) for head in heads)
                                           if dist[p] < d else None,
                                           tuple(tuple(sorted(colour[v] for v in into[p] if dist[v] < d))
                                                 for into in attending)), len(names))
                      for p in colour if near_zone[p] <= keep}
        far = [u for u in range(n) if dist[u] == d]
        seen = [tuple(frozenset(v for v in into[u] if dist[v] < d) for into in attending) for u in far]
        if len(set(seen)) < len(seen):
            swap = True
        if not premise:
            continue
        for u in far:
            for x in zone:
                if x == u:
                    continue
                both = tuple(tuple(sorted(colour[v] for v in into[u] & into[x] if dist[v] < d)) for into in attending)
                key = (colour[u], colour[x], both)
                edge = tuple(x in head[u] for head in heads)
                if decided.setdefault(key, edge) != edge:
                    premise = False
    return premise, swap


def _head_rows(pattern, n: int) -> list[set[int]]:
    from . import patterns
    rows: list[set[int]] = [{v} for v in range(n)]
    for j, i in patterns.head_arcs(pattern, n):
        rows[i - 1].add(j - 1)
    return rows


def _union_of_parts(pats: list) -> Optional[tuple[int, tuple[int, ...]]]:
    """(w, A) when the heads' parts side by side are `window(w) cyclic` (cyclic windows and cyclic offsets whose
    differences make {−w, …, w}) with non-cyclic window, dilated and offsets parts, A their offsets outside
    {−w, …, w}; else None. Read off the re-parsed patterns, so it holds at every n."""
    from .offsets_line import line_jumps
    parts = [q for p in pats for q in (p.parts if isinstance(p, S.PatternUnion) else (p,))]
    cyclic: set = set()
    rest = []
    for q in parts:
        if isinstance(q, S.Window) and q.cyclic and isinstance(q.w, int) and not isinstance(q.w, bool):
            cyclic |= set(range(-q.w, q.w + 1))
        elif isinstance(q, S.Offsets) and q.cyclic and all(isinstance(x, int) for x in q.offsets):
            cyclic |= set(q.offsets)
        else:
            rest.append(q)
    cyclic.discard(0)
    if not cyclic or not rest:
        return None
    w = max(cyclic)
    if cyclic != set(range(-w, w + 1)) - {0}:
        return None
    jumps = line_jumps(rest)
    if jumps is None:
        return None
    outside = tuple(sorted(set(jumps) - set(range(-w, w + 1))))
    return (w, outside) if outside else None


def heads_check(ctx, s, cert: dict, pats: list, n) -> str:
    """Theorem F191 for several heads: the union re-read from the heads' parts, F101's range and F168's D from the
    verifier's own restatement, both properties on each head's arcs at every length of the check, every class decided
    and the stated count D + 1 exactly where the swap holds."""
    from .check import Reject
    from .cyclic_window_line import family, seam_low
    from .head_layers import _same_for_every_n
    from .trees import decode
    data = cert.get("directed heads") or {}
    got = _union_of_parts(pats)
    if got is None:
        raise Reject("F191: the heads' parts side by side are not `window(w) cyclic` with non-cyclic offsets outside it")
    w, outside = got
    if (data.get("w"), tuple(data.get("outside") or ())) != (w, outside):
        raise Reject(f"F191: the union is window({w}) cyclic with the offsets {list(outside)}, not the certificate's")
    if set(outside) == {-x for x in outside}:
        raise Reject("F191 is for non-symmetric offsets (A ≠ −A: a trivial group)")
    rounds = data.get("rounds")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 4:
        raise Reject("F191: the rounds of refinement are a small positive integer")
    fam = family(w, outside)
    if fam is None or fam.bound or fam.diameter_at is None:
        raise Reject("F191: the union has no exact diameter in the verifier's F101 and F168")
    start = cert.get("from")
    if not isinstance(start, int) or start < fam.low:
        raise Reject(f"F191: the range starts below the union's, n = {fam.low}")
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    period = steps[-1] - steps[0]
    top = cut_low(w, outside, seam_low(w, outside), rounds) + period
    if top > MAX_CHECK_N:
        raise Reject(f"F191: the check would run past n = {MAX_CHECK_N}")
    found: dict[int, set] = {r: set() for r in range(period)}
    for m in range(start, top):
        props = _properties([_head_rows(p, m) for p in pats], w, max(abs(x) for x in outside), rounds)
        found[m % period].add(None if props is None else 0 if props == (True, False) else 1 if props == (False, True)
                              else None)
    extra = [r for r in range(period) if found[r] == {1}]
    if any(found[r] not in ({0}, {1}) for r in range(period)):
        raise Reject("F191: some class of n mod P has neither property at every length of the verifier's check")
    if list(data.get("extra") or []) != [1 if r in extra else 0 for r in range(period)]:
        raise Reject(f"F191: the classes are not the verifier's (D + 1 on n mod {period} ∈ {extra})")
    d = fam.diameter_at(n)
    step = s.get("data") or {}
    if not _same_for_every_n(decode(step.get("diameter"), ctx.symbols), d, n):
        raise Reject("F191: D is not the union's (Theorem F168)")
    want = d if not extra else sympy.Piecewise(
        (d + 1, sympy.Or(*[sympy.Eq(sympy.Mod(n, period), r) for r in extra])), (d, True))
    if not _same_for_every_n(decode(step.get("layers"), ctx.symbols), want, n):
        raise Reject(f"F191: the count is not D + 1 exactly on n mod {period} ∈ {extra} and D elsewhere")
    return (f"F191: the heads' union is window({w}) cyclic with the offsets {list(outside)} (the verifier's F101 and "
            f"F168); {rounds} rounds of refinement on each head's arcs at every length from {start} through "
            f"{top - 1} decide every class of n mod {period}: D + 1 on {extra}, D elsewhere, for n ≥ {start}")


@lru_cache(maxsize=32)
def directed_classes(w: int, outside: tuple, low: int, base_low: int
                     ) -> Optional[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Theorem F190 restated: (P, per residue of n mod P 0 for D layers and 1 for D + 1, the residues where the count
    is least), from the verifier's own check at every length from low through N₂ + P − 1; None past MAX_CHECK_N or
    for A = −A."""
    if set(outside) == {-x for x in outside}:
        return None
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    period = steps[-1] - steps[0]
    top = cut_low(w, outside, base_low) + period
    if top > MAX_CHECK_N:
        return None
    found: dict[int, set] = {r: set() for r in range(period)}
    for n in range(low, top):
        got = properties(w, outside, n)
        found[n % period].add(None if got is None else 0 if got[0] and not got[1] else 1 if got[1] and not got[0]
                              else None)
    extra = tuple(0 if found[r] == {0} else 1 for r in range(period))
    return period, extra, tuple(r for r in range(period) if found[r] in ({0}, {1}))
