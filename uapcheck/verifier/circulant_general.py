"""Theorems F27–F29 (docs/theory.md §11.11), restated for the verifier: `offsets S cyclic` with any finite
integer S (and a union of cyclic offsets and cyclic windows, the circulant of the union of the jumps).

The verifier's own normal form (S/g, mirrored to have a positive jump), its own word lengths on Z (a
breadth-first search on an interval, exact by F27 (c)), its own constants of the proof (M₊, M₋, K, E, F,
c₀, E_W, Y) and ranges, its own ball certificate (nauty's generators of the rooted ball's automorphism
group, each acting on the jumps as the identity, or as ±1 when S = −S), and D at one length per
residue class by its own breadth-first search on Z_n. The instance check then re-runs a whole period
from the start of the range on the verifier's arcs (diameter, group order with nauty, rooted views with
nauty), which by F29 (3) settles the layer count of every residue class.

A jump set whose top check needs D + 1 layers somewhere is not restated here (the steps stay trusted).
"""
from __future__ import annotations

from fractions import Fraction
from math import ceil, gcd
from typing import Optional, Sequence

import sympy

from .. import spec as S
from .families import cyclic_eccentricity

MAX_JUMP = 40
MAX_RADIUS = 8
ONSET_MAX = 160  # below a proved range at most this, each n is re-decided on the verifier's arcs (the onset)


def union_jumps(parts: Sequence[S.Pattern]) -> Optional[list[int]]:
    """The jumps of a union of cyclic offsets and cyclic windows with integer parameters, else None."""
    jumps: set = set()
    for q in parts:
        if isinstance(q, S.Offsets) and q.cyclic and all(isinstance(x, int) for x in q.offsets):
            jumps |= set(q.offsets)
        elif isinstance(q, S.Window) and q.cyclic and isinstance(q.w, int):
            jumps |= set(range(-q.w, q.w + 1))
        else:
            return None
    out = sorted(jumps - {0})
    return out or None


def _lengths(steps: Sequence[int], lo: int, hi: int) -> dict:
    """Word lengths on Z from 0 with walks inside [lo, hi] (exact on [lo + a, hi − b] by F27 (c))."""
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for s in steps:
                v = u + s
                if lo <= v <= hi and v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return dist


def _ball_rigid(steps: Sequence[int], radius: int, symmetric: bool) -> bool:
    """F28's certificate with nauty: every generator of the rooted ball's automorphism group (levels as
    colours) acts on the jumps as the identity, or (S = −S) as s ↦ −s on all of them."""
    import pynauty
    from . import nauty_graph
    a = max([-s for s in steps if s < 0], default=0)
    b = max(s for s in steps if s > 0)
    ell = _lengths(steps, -(radius + 1) * a, (radius + 1) * b)
    ball = sorted(m for m, d in ell.items() if d <= radius)
    pos = {m: i + 1 for i, m in enumerate(ball)}
    arcs = {(pos[m], pos[m - s]): 1 for m in ball for s in steps if (m - s) in pos}
    cells = [{pos[m] for m in ball if ell[m] == d} for d in range(radius + 1)]
    try:
        graph, _ = nauty_graph.build(len(ball), arcs, cells)
    except nauty_graph.TooLarge:
        return False
    for gen in nauty_graph.position_generators(pynauty.autgrp(graph)[0], len(ball)):
        image = {ball[i]: ball[gen[i] - 1] for i in range(len(ball))}
        if all(image[s] == s for s in steps):
            continue
        if symmetric and all(image[s] == -s for s in steps):
            continue
        return False
    return True



def restated(jumps: Sequence[int]):
    """(low, period, diameter table h, symmetric, g) of F27–F29 for these jumps, or None (beyond the
    bounds, no certificate radius ≤ max(8, a + b + 2))."""
    vals = sorted(set(jumps) - {0})
    g = 0
    for v in vals:
        g = gcd(g, abs(v))
    steps = [v // g for v in vals]
    if all(s < 0 for s in steps):
        steps = sorted(-s for s in steps)
    if max(abs(s) for s in steps) > MAX_JUMP:
        return None
    P = [s for s in steps if s > 0]
    Q = [-s for s in steps if s < 0]
    b, a = max(P), max(Q, default=0)
    symmetric = set(steps) == {-s for s in steps}
    m_plus = (b - 1) * sum(s for s in P if s < b) + b * a
    m_minus = ((a - 1) * sum(q for q in Q if q < a) + a * b) if Q else 0
    span = m_plus + m_minus + 2 * (a + b) + 4
    ell = _lengths(steps, -span - a, span + b)
    k_plus = max(Fraction(ell[m]) - Fraction(m, b) for m in range(m_plus + b) if m in ell)
    radius = next((r for r in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, r, symmetric)), None)
    if radius is None:
        return None
    low_group = max(radius * (a + b) + max(a, b) + 1, 2 * max(abs(s) for s in steps) + 1, 3)
    if Q:
        period = a + b
        k = max(k_plus, max(Fraction(ell[m]) - Fraction(-m, a) for m in range(-m_minus - a + 1, 1)))
        edge = max(ell[m] for m in list(range(m_plus + b)) + list(range(-m_minus - a + 1, 1)))
        back = max([1] + [ell[-s] for s in steps])
        low_d = max(ceil(k * max(a, b) * (a + b) / min(a, b)), period * (edge + 1), 2)
        low_l = max(low_d, low_group, period * (edge + radius + back))
    else:
        period = b
        gaps = [m for m in range(m_plus + b) if m not in ell]
        frob = max(gaps, default=-1)
        edge = max(ell[m] for m in range(m_plus + b) if m in ell)
        small = max(ell[m] for m in range(frob + b + 1) if m in ell)
        low_d = max(ceil(b * k_plus), frob + 1, m_plus + b, b * (edge + 1), 2)
        y = ceil(b * (radius + k_plus)) + 1
        low_l = max(low_d, low_group, y + frob + 3 * b + 1, m_plus + y + b, frob + y + b + 1, b * (small + radius) + 1)
    table = {}
    for n in range(low_d, low_d + period):
        d = cyclic_eccentricity(n, steps)
        if d is None:
            return None
        table[n % period] = d - n // period
    low = low_l
    while gcd(low, g) != 1:
        low += 1
    return low, period, table, symmetric, g


def _d_layers_everywhere(jumps, low: int, period: int, g: int, diameter, gens) -> bool:
    """D layers suffice at one n of each residue class from the start of the range (the verifier's rooted
    views with nauty); by F29 (3) this is every n of the range. False also when they cannot be decided."""
    from . import patterns, views
    pattern = S.Offsets(tuple(sorted(set(jumps) | {0})), True)
    for n in range(low, low + period + 1):
        if gcd(n, g) != 1:
            continue
        heads = [patterns.head_arcs(pattern, n)]
        try:
            if views.decide(heads, n, int(diameter(n)), gens(n)) is not None:
                return False
        except views.NoNauty:
            return False
    return True


def _agrees_at(jumps, n: int, diameter, gens, symmetric: bool) -> bool:
    """At this n, on the verifier's arcs: the diameter is the table's (BFS from one position: the rotations
    are symmetries), |G| is n or 2n (nauty), and D layers suffice (rooted views with nauty)."""
    from . import groups, patterns, views
    pattern = S.Offsets(tuple(sorted(set(jumps) | {0})), True)
    heads = [patterns.head_arcs(pattern, n)]
    reached = [x for x in patterns.bfs(patterns.union_out(heads, n), 1)[1:] if x is not None]
    if len(reached) != n or max(reached) != int(diameter(n)):
        return False
    lab = {arc: ((0, None),) for arc in heads[0]}
    full, _ = groups.full_order(lab, n, "none")
    if full != (2 * n if symmetric else n):
        return False
    try:
        return views.decide(heads, n, int(diameter(n)), gens(n)) is None
    except views.NoNauty:
        return False


def _onset(jumps, low: int, g: int, diameter, gens, symmetric: bool) -> int:
    """The least n₁ ≤ low with every n in [n₁, low) (coprime to g) agreeing on the verifier's arcs."""
    if low > ONSET_MAX:
        return low
    onset, n = low, low - 1
    while n >= 3:
        if gcd(n, g) == 1:
            if not _agrees_at(jumps, n, diameter, gens, symmetric):
                break
            onset = n
        n -= 1
    return onset


def family(jumps: Sequence[int]):
    """The verifier's Family for F27–F29, or None."""
    from .families import Family
    found = restated(jumps)
    if found is None:
        return None
    low, period, table, symmetric, g = found

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(n // period + table[n % period])
        total = sympy.Integer(0)
        for r in range(period):
            total += (sympy.floor(n / period) + table[r]) * (sympy.floor((n - r) / period)
                                                            - sympy.floor((n - r - 1) / period))
        return total

    def gens(n):
        out = [[k % n + 1 for k in range(1, n + 1)]]
        return out + [list(range(n, 0, -1))] if symmetric else out

    def name(text):
        return text == ("D_n" if symmetric else "C_n")
    if not _d_layers_everywhere(jumps, low, period, g, diameter, gens):
        return None
    low = _onset(jumps, low, g, diameter, gens, symmetric)
    order = (lambda n: 2 * n) if symmetric else (lambda n: n)
    return Family("F27", low, 0, 0, True, order, 1, name, None, gens, diameter_at=diameter, period=period,
                  coprime_to=g)
