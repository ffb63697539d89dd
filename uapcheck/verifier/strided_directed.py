"""Theorem F114 (docs/theory.md §11.11), restated for the verifier: `strided(s)` with non-cyclic local parts whose
class-changing jumps S′ have both signs, gcd 1 and S′ ≠ −S′ (F74 with G trivial). D layers are least when the
pinning premise holds at every length from the range's start N through N₁ + s − 1, N₁ = max(N, s(M + |S′| + 1),
2T + 2M + 2s, M + 2Rm + a + b) (M = K₀·J, T = M + a + b + s, R the ball certificate radius, m = max(a, b)); at
every non-covering root i (some position at distance D): (Q0) each residue class has |S′| + 1 positions within D − 1
of i; (Q1) the far positions lie within M of one end and the middle interval (positions v with [v − Rm, v + Rm]
inside 1..n and free of far positions) has a + b positions; (Q2) the pinning closure from the positions beyond the
last far position fixes every position.

The verifier's own code: its residue costs and certificate radius (``strided_lines``), distances by breadth-first
search on the in-neighbour sets read off its own arcs (``patterns.head_arcs``), its own closure (a work list).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from .. import spec as S
from . import patterns

#: The last length the verifier's finite check reads and how many lengths at most (the engine's limits too).
MAX_CHECK_TOP = 480
MAX_CHECK_LENGTHS = 120


def constants(s: int, vals: list) -> Optional[tuple[list, int, int, int]]:
    """(S′, M, R, N₁ without the range start) from the verifier's own residue costs and ball certificate."""
    from .circulant_general import _ball_rigid
    from .strided_lines import MAX_RADIUS, _costs
    leaving = sorted(k for k in vals if k % s)
    steps = sorted(-k for k in leaving) if -min(leaving) > max(leaving) else leaving
    a, b = -steps[0], steps[-1]
    radius = next((x for x in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, x, False)), None)
    if radius is None:
        return None
    costs = _costs(vals, s)
    m_far = (max(costs.values()) + 2) * max(abs(k) for k in vals)
    t_win = m_far + a + b + s
    first = max(s * (m_far + len(leaving) + 1), 2 * t_win + 2 * m_far + 2 * s, m_far + 2 * radius * max(a, b) + a + b)
    return leaving, m_far, radius, first


def _in_masks(pattern: S.Pattern, n: int) -> list:
    """Per position i, the bit set of the positions j with an arc j → i (i attends to j), from the verifier's arcs."""
    attends = [0] * (n + 1)
    for j, i in patterns.head_arcs(pattern, n):
        attends[i] |= 1 << j
    return attends


def _depths(attends: list, root: int, n: int) -> list:
    """d(u → root) for every u (None: not reached), one bit-set layer at a time."""
    depth: list = [None] * (n + 1)
    seen = layer = 1 << root
    level = 0
    while layer:
        nxt = 0
        x = layer
        while x:
            low = x & -x
            v = low.bit_length() - 1
            depth[v] = level
            nxt |= attends[v]
            x ^= low
        layer = nxt & ~seen
        seen |= layer
        level += 1
    return depth


def _pinned(n: int, s: int, leaving: list, inner: set, start: set) -> bool:
    """The pinning closure: True when it fixes every position of 1..n. A position is added when a witness must fix
    it: alone in its residue among the unfixed; the only unfixed one of its residue among the targets of a fixed
    driver within D − 1 of the root; or within D − 1 and the only one of its residue among the sources of a fixed
    target."""
    fixed = set(start)
    changed = True
    while changed and len(fixed) < n:
        changed = False
        loose = [p for p in range(1, n + 1) if p not in fixed]
        residues = [p % s for p in loose]
        new = {p for p in loose if residues.count(p % s) == 1}
        for v in fixed:
            if v in inner:
                targets = [v + k for k in leaving if 0 < v + k <= n and v + k not in fixed]
                new |= {y for y in targets if [z % s for z in targets].count(y % s) == 1}
            sources = [v - k for k in leaving if 0 < v - k <= n]
            new |= {y for y in sources if y not in fixed and y in inner
                    and [z % s for z in sources].count(y % s) == 1}
        if new:
            fixed |= new
            changed = True
    return len(fixed) == n


def premise_problem(pattern: S.Pattern, s: int, vals: list, n: int) -> Optional[str]:
    """The pinning premise at n on the verifier's own arcs; None when it holds."""
    return _premise_problem(pattern, s, tuple(vals), n)


@lru_cache(maxsize=256)
def _premise_problem(pattern: S.Pattern, s: int, vals: tuple, n: int) -> Optional[str]:
    found = constants(s, list(vals))
    if found is None:
        return "no ball certificate"
    leaving, m_far, radius, _ = found
    a, b = -min(leaving), max(leaving)
    reach = radius * max(a, b)
    attends = _in_masks(pattern, n)
    depth = {i: _depths(attends, i, n) for i in range(1, n + 1)}
    if any(x is None for arr in depth.values() for x in arr[1:]):
        return f"n = {n}: not strongly connected"
    d = max(x for arr in depth.values() for x in arr[1:])
    for i, arr in depth.items():
        far = [u for u in range(1, n + 1) if arr[u] == d]
        if not far:
            continue
        inner = {u for u in range(1, n + 1) if arr[u] <= d - 1}
        for r in range(s):
            count = sum(1 for u in inner if u % s == r)
            if count < len(leaving) + 1:
                return f"n = {n}, root {i}: the residue class {r} has {count} positions within D − 1 (Q0)"
        if all(u <= m_far for u in far):
            start = {p for p in range(max(far) + 1, n + 1)}
            middle = n - reach - (max(far) + reach)
        elif all(u >= n + 1 - m_far for u in far):
            start = {p for p in range(1, min(far))}
            middle = min(far) - 1 - 2 * reach
        else:
            return f"n = {n}, root {i}: the far positions {far[:4]} are not within {m_far} of one end (Q1)"
        if middle < a + b:
            return f"n = {n}, root {i}: the middle interval has {max(middle, 0)} < a + b positions (Q1)"
        if not _pinned(n, s, leaving, inner, start):
            return f"n = {n}, root {i}: the pinning closure leaves positions unfixed (Q2)"
    return None


@lru_cache(maxsize=32)
def _table(s: int, vals: tuple, low: int, pattern: S.Pattern) -> Optional[int]:
    found = constants(s, list(vals))
    if found is None:
        return None
    top = max(low, found[3]) + s - 1
    if top > MAX_CHECK_TOP or top - low + 1 > MAX_CHECK_LENGTHS:
        return None
    for n in range(low, top + 1):
        if premise_problem(pattern, s, list(vals), n) is not None:
            return None
    return top


def directed_least(s: int, vals: list, low: int, pattern: S.Pattern) -> Optional[int]:
    """The last length of F114's finite check when the premise holds at every length from `low` through it (D layers
    least at every n ≥ low); None otherwise (symmetric S′, no certificate, past the limit, or a length fails)."""
    leaving = {k for k in vals if k % s}
    if not leaving or leaving == {-k for k in leaving}:
        return None
    return _table(s, tuple(vals), low, pattern)
