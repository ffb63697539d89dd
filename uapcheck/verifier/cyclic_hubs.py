"""Theorem F62 (docs/theory.md §11.11), restated for the verifier: globals added to cyclic offsets (and cyclic
windows) with an offset above g, other parts non-cyclic with offsets at most g.

The verifier's own jump set (every part's offsets, 0 dropped), its own test of gcd(S) = 1, its own ball certificate
(``circulant_general._ball_rigid``: nauty's generators of the rooted ball of Z, each acting on the jumps as the
identity, or as ±1 when S = −S), its own range (the proof's inequalities written out again) and its own onset:
below the proved range, each n down to F31's range is re-decided on the verifier's arcs (nauty's group order of
the whole pattern) while it is g!·(2 if S = −S else 1). The instance check then re-checks the first lengths of the
stated range on the verifier's arcs.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial, gcd
from typing import Optional, Sequence

from .. import spec as S

ONSET_MAX = 160


def hole_jumps(g: int, base: list, offsets: list) -> Optional[tuple[int, ...]]:
    """S when some cyclic part has an offset above g and every non-cyclic part has offsets at most g and no part is
    dilated; else None."""
    above = False
    for q, o in zip(base, offsets):
        if isinstance(q, S.Dilated):
            return None
        r = max(abs(k) for k in o)
        if getattr(q, "cyclic", False):
            above = above or r > g
        elif r > g:
            return None
    if not above:
        return None
    return tuple(sorted({k for o in offsets for k in o}))


def _frobenius(steps: Sequence[int]) -> int:
    """The largest m ≥ 0 that is no sum of the (positive, gcd 1) steps, −1 if none (a sieve up to max·min)."""
    top = max(steps) * min(steps) + max(steps)
    ok = [False] * (top + 1)
    ok[0] = True
    for m in range(1, top + 1):
        ok[m] = any(m >= s and ok[m - s] for s in steps)
    return max((m for m in range(top + 1) if not ok[m]), default=-1)


def _range(jumps: tuple[int, ...], g: int, radius: int) -> int:
    pos = [k for k in jumps if k > 0]
    neg = [-k for k in jumps if k < 0]
    if not pos:
        pos, neg = neg, []
    b, a = max(pos), max(neg, default=0)
    span = radius * (a + b)
    low = max(span + max(a, b) + 1, 2 * max(abs(k) for k in jumps) + 1, g + 2 * span + 1, g + len(jumps) + 2)
    if neg:
        return max(low, g + span + a + b)
    return max(low, g + radius * b + 2 * (_frobenius(pos) + 1) + 1)


def _order_at(jumps: tuple[int, ...], g: int, n: int) -> int:
    """|Aut| of the whole pattern at n on the verifier's arcs (nauty)."""
    from . import groups, patterns
    pattern = S.PatternUnion((S.Offsets(tuple(sorted(set(jumps) | {0})), True), S.Global(g)))
    heads = [patterns.head_arcs(pattern, n)]
    lab = {arc: ((0, None),) for arc in heads[0]}
    full, _ = groups.full_order(lab, n, "none")
    return -1 if full is None else int(full)


@lru_cache(maxsize=64)
def restated(jumps: tuple[int, ...], g: int, floor: int) -> Optional[tuple[int, bool]]:
    """(the stated range, S = −S) of F62, or None (gcd(S) > 1, a jump above 40, no certificate radius)."""
    from .circulant_general import MAX_JUMP, MAX_RADIUS, _ball_rigid
    common = 0
    for k in jumps:
        common = gcd(common, abs(k))
    if common != 1 or max(abs(k) for k in jumps) > MAX_JUMP:
        return None
    steps = sorted(jumps) if any(k > 0 for k in jumps) else sorted(-k for k in jumps)
    symmetric = set(jumps) == {-k for k in jumps}
    a = max([-s for s in steps if s < 0], default=0)
    b = max(s for s in steps if s > 0)
    radius = next((r for r in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, r, symmetric)), None)
    if radius is None:
        return None
    low = max(_range(jumps, g, radius), floor)
    want = factorial(g) * (2 if symmetric else 1)
    if low <= ONSET_MAX:
        n = low - 1
        while n >= floor and _order_at(jumps, g, n) == want:
            low, n = n, n - 1
    return low, symmetric


# Theorem F230 (docs/theory.md §11.11): the same with non-cyclic parts reaching beyond g (or dilated parts).

def mixed_jumps(g: int, base: list, offsets: list) -> Optional[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(C, L) of F230 when some cyclic part has an offset above g and the base is not F62's (a non-cyclic part with an
    offset above g, or a dilated part): C the cyclic parts' jumps and the non-cyclic jumps of absolute value at most
    g, L the other non-cyclic jumps not in C; else None."""
    if hole_jumps(g, base, offsets) is not None:
        return None
    if not any(getattr(q, "cyclic", False) and max(abs(k) for k in o) > g for q, o in zip(base, offsets)):
        return None
    cyc: set = set()
    line: set = set()
    for q, o in zip(base, offsets):
        for k in o:
            (cyc if getattr(q, "cyclic", False) or abs(k) <= g else line).add(k)
    return tuple(sorted(cyc)), tuple(sorted(line - cyc))


def _pattern_order_at(pattern, n: int) -> int:
    """|Aut| of the pattern at n on the verifier's arcs (nauty)."""
    from . import groups, patterns
    heads = [patterns.head_arcs(pattern, n)]
    lab = {arc: ((0, None),) for arc in heads[0]}
    full, _ = groups.full_order(lab, n, "none")
    return -1 if full is None else int(full)


@lru_cache(maxsize=64)
def restated_mixed(cyc: tuple[int, ...], line: tuple[int, ...], g: int, floor: int,
                   base: tuple) -> Optional[tuple[int, bool]]:
    """(the stated range, S = −S) of F230, or None: gcd(S) > 1, a jump above 40, no certificate radius, or S = −S
    while C ≠ −C or L ≠ −L. The onset is searched on the arcs of the pattern itself (``base`` with global(g))."""
    from .circulant_general import MAX_JUMP, MAX_RADIUS, _ball_rigid
    jumps = tuple(sorted(set(cyc) | set(line)))
    common = 0
    for k in jumps:
        common = gcd(common, abs(k))
    if common != 1 or max(abs(k) for k in jumps) > MAX_JUMP:
        return None
    symmetric = set(jumps) == {-k for k in jumps}
    if symmetric and (set(cyc) != {-k for k in cyc} or set(line) != {-k for k in line}):
        return None
    steps = sorted(jumps) if any(k > 0 for k in jumps) else sorted(-k for k in jumps)
    a = max([-s for s in steps if s < 0], default=0)
    b = max(s for s in steps if s > 0)
    radius = next((r for r in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, r, symmetric)), None)
    if radius is None:
        return None
    low = max(_range(jumps, g, radius), floor)
    want = factorial(g) * (2 if symmetric else 1)
    if low <= ONSET_MAX:
        pattern = S.PatternUnion(tuple(base) + (S.Global(g),))
        n = low - 1
        while n >= floor and _pattern_order_at(pattern, n) == want:
            low, n = n, n - 1
    return low, symmetric
