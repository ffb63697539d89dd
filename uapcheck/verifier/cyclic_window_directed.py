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

import numpy as np
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


def _padded(rows: Sequence[set[int]], n: int) -> np.ndarray:
    """The rows of positions as an array, each sorted and padded with n (a sentinel position)."""
    out = np.full((len(rows), max(len(r) for r in rows)), n, dtype=np.int64)
    for v, r in enumerate(rows):
        out[v, :len(r)] = sorted(r)
    return out


def _distances(rows: list[set[int]]) -> Optional[np.ndarray]:
    """dist[i, x] = d(x → i) for every root i, by breadth-first search along the attended positions, every root at
    once (a frontier row per root); None when some position never reaches some root."""
    n = len(rows)
    pre: list[set[int]] = [set() for _ in range(n)]
    for x, row in enumerate(rows):
        for y in row:
            pre[y].add(x)
    back = _padded(pre, n)  # the positions x whose row holds y
    dist = np.full((n, n), -1, dtype=np.int64)
    np.fill_diagonal(dist, 0)
    seen = np.eye(n, dtype=bool)
    edge = np.zeros((n, n + 1), dtype=bool)  # the sentinel column stays False
    edge[:, :n] = seen
    d = 0
    while edge.any():
        d += 1
        grown = edge[:, back].any(axis=2) & ~seen
        seen |= grown
        dist[grown] = d
        edge[:, :n] = grown
    return None if (dist < 0).any() else dist


def _cyclic_gaps(zone: np.ndarray) -> np.ndarray:
    """For each root's row of the boolean zone, every position's cyclic distance from the nearest zone position (what
    a search along the cycle gives)."""
    n = zone.shape[1]
    pos = np.arange(3 * n)
    tiled = np.tile(zone, (1, 3))
    last = np.maximum.accumulate(np.where(tiled, pos, -10 * n), axis=1)[:, n:2 * n]
    after = np.minimum.accumulate(np.where(tiled, pos, 10 * n)[:, ::-1], axis=1)[:, ::-1][:, n:2 * n]
    mid = pos[n:2 * n]
    return np.minimum(mid - last, after - mid)


def _row_ids(rows: np.ndarray) -> np.ndarray:
    """An id per row, equal exactly for equal rows (the rows' bytes, sorted)."""
    rows = np.ascontiguousarray(rows)
    flat = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).reshape(-1)
    return np.unique(flat, return_inverse=True)[1].reshape(-1)


def properties(w: int, outside: Sequence[int], n: int, rounds: int = ROUNDS) -> Optional[tuple[bool, bool]]:
    """(the count premise, a swap of two far positions) at n on the verifier's arcs; None when not connected."""
    return _properties([_attended(w, outside, n)], w, max(abs(x) for x in outside), rounds)


def _properties(heads: list[list[set[int]]], w: int, far_span: int, rounds: int) -> Optional[tuple[bool, bool]]:
    """Both properties for heads given by their N_h(v) (v = 0..n − 1, each holding v), distances in their union. Every
    root at distance D at once: a colour is an id of its key row (the previous colour, then per head the sorted colours
    of the positions it attends to, or a mark for a far position, and of the ball positions attending to it), sorted
    rows padded with -1, so two rows are equal exactly when their colour multisets are; ids are per round, as a
    colour is only compared with colours of its own round."""
    n = len(heads[0])
    dists = _distances([set().union(*(head[v] for head in heads)) for v in range(n)])
    if dists is None:
        return None
    d = int(dists.max())
    t = (far_span + w - 1) // w
    outs = [_padded(head, n) for head in heads]
    intos = []
    for head in heads:
        attending: list[set[int]] = [set() for _ in range(n)]
        for v, row in enumerate(head):
            for x in row:
                attending[x].add(v)
        intos.append(_padded(attending, n))
    roots = dists[dists.max(axis=1) == d]  # d(x → i) for the roots i with positions at distance D
    count = roots.shape[0]
    inner = np.concatenate([roots, np.full((count, 1), d)], axis=1) < d  # the ball; the sentinel is not in it
    zone, far = roots >= d - t, roots == d
    gap = _cyclic_gaps(zone)
    colour = np.concatenate([roots, np.full((count, 1), -1)], axis=1)  # round 0: the distance; the sentinel -1
    for r in range(1, rounds + 1):
        pr, pp = np.nonzero(gap <= (rounds + 1 - r) * far_span)  # the (root, position) pairs coloured this round
        col = pr[:, None]
        parts = [colour[pr, pp][:, None]]
        for o in outs:
            c = np.sort(colour[col, o[pp]], axis=1)
            c[roots[pr, pp] >= d] = -2  # a far position: its out-colours are not read
            parts.append(c)
        for into in intos:
            members = into[pp]
            parts.append(np.sort(np.where(inner[col, members], colour[col, members], -1), axis=1))
        colour = np.full((count, n + 1), -3, dtype=np.int64)
        colour[:, n] = -1
        colour[pr, pp] = _row_ids(np.concatenate(parts, axis=1))
    # a swap: two far positions of one root attended by the same ball positions (per head)
    fr, fu = np.nonzero(far)
    seen = [fr[:, None]] + [np.sort(np.where(inner[fr[:, None], into[fu]], into[fu], -1), axis=1) for into in intos]
    ids = _row_ids(np.concatenate(seen, axis=1))
    swap = len(np.unique(ids)) < len(ids)
    # the premise: (colour of u, colour of x, the sorted colours of the ball positions attending to both) decides
    # whether u attends to x, over every far u and zone x ≠ u of every root
    zr, zx = np.nonzero(zone)
    starts = np.concatenate([[0], np.cumsum(zone.sum(axis=1))])
    lens = starts[fr + 1] - starts[fr]
    offset = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    ri, ui, xi = np.repeat(fr, lens), np.repeat(fu, lens), zx[np.repeat(starts[fr], lens) + offset]
    pick = ui != xi
    ri, ui, xi = ri[pick], ui[pick], xi[pick]
    parts = [colour[ri, ui][:, None], colour[ri, xi][:, None]]
    edges = np.zeros(len(ri), dtype=np.int64)
    for h, into in enumerate(intos):
        mu, mx = into[ui], into[xi]
        both = (mu[:, :, None] == mx[:, None, :]).any(axis=2) & inner[ri[:, None], mu]
        parts.append(np.sort(np.where(both, colour[ri[:, None], mu], -1), axis=1))
        edges |= (outs[h][ui] == xi[:, None]).any(axis=1).astype(np.int64) << h
    keys = _row_ids(np.concatenate(parts, axis=1))
    order = np.lexsort((edges, keys))
    keys, edges = keys[order], edges[order]
    premise = not bool(((keys[1:] == keys[:-1]) & (edges[1:] != edges[:-1])).any())
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
