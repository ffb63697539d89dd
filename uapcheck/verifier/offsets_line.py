"""Theorems F40–F42 (docs/theory.md §11.11), restated for the verifier: a union of non-cyclic `window(w)`,
`dilated(w, r)` and `offsets K` parts is `offsets S` on the line 1..n (S the union of their offsets); with
jumps of both signs and gcd 1 its diameter is ⌊n/L⌋ + h(n mod L) (L = min(a, b)), its group the reflection
(S = −S) or trivial, and whether D layers suffice depends on n mod L only from N₂ on.

The verifier's own jump set (from the re-parsed parts), its own mirror (a ≤ b), its own word lengths on Z
and constants of the proofs (M₊, M₋ sharpened on the exact lengths, K, E), its own ranges N₀, N_G, N₂, its
own ball certificate (nauty, ``circulant_general._ball_rigid``), D at one length per residue by
breadth-first search on its own arcs, the layer count at one length per residue from N₂ by its rooted
views (nauty), and every n from the onset up to N₂ re-decided on its arcs (diameter, |G| with nauty or
brute force, rooted views): the stated range is accepted only from its own onset on.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil, floor, gcd
from typing import Optional, Sequence

import sympy

from .. import spec as S
from .circulant_general import _ball_rigid, _lengths

MAX_JUMP = 40
MAX_RADIUS = 8
MAX_CHECK_N = 400
MAX_CHECK_WORK = 3_000
ONSET_MAX = 100


def line_jumps(parts: Sequence[S.Pattern]) -> Optional[list[int]]:
    """The offsets of a union of non-cyclic window, dilated and offsets parts with integer sizes, else None."""
    jumps: set = set()
    for q in parts:
        if isinstance(q, S.Offsets) and not q.cyclic and all(isinstance(x, int) for x in q.offsets):
            jumps |= set(q.offsets)
        elif isinstance(q, S.Window) and not q.cyclic and isinstance(q.w, int):
            jumps |= set(range(-q.w, q.w + 1))
        elif isinstance(q, S.Dilated) and isinstance(q.w, int) and isinstance(q.r, int):
            jumps |= {k * q.r for k in range(-q.w, q.w + 1)}
        else:
            return None
    out = sorted(jumps - {0})
    return out or None


def _steps(jumps: Sequence[int]) -> Optional[list[int]]:
    vals = sorted(set(jumps) - {0})
    if not vals or vals[0] > 0 or vals[-1] < 0:
        return None
    g = 0
    for v in vals:
        g = gcd(g, abs(v))
    if g != 1:
        return None
    return sorted(-v for v in vals) if -vals[0] > vals[-1] else vals


def _arcs(steps: Sequence[int], n: int) -> frozenset:
    from . import patterns
    return patterns.head_arcs(S.Offsets(tuple(sorted(set(steps) | {0})), False), n)


def _diameter_on_arcs(steps, n: int) -> Optional[int]:
    from . import patterns
    return patterns.diameter(patterns.union_out([_arcs(steps, n)], n), n)


def ray_constants(steps: Sequence[int]) -> tuple[Fraction, int, int, int]:
    """(K, M₊′, M₋′, E) of F27 (d) and F40 (b) for jumps of both signs: ℓ(m) ≤ m/b + K (m ≥ 0) and ≤ |m|/a + K
    (m ≤ 0), ℓ(m + b) = ℓ(m) + 1 for m ≥ M₊′ and ℓ(m − a) = ℓ(m) + 1 for m ≤ −M₋′ (F27 (d)'s rays, sharpened down
    to where the exact lengths stop confirming them), E the largest ℓ on (−M₋′ − a, M₊′ + b)."""
    a, b = -min(steps), max(steps)
    P = [s for s in steps if s > 0]
    Q = [-s for s in steps if s < 0]
    m_plus = (b - 1) * sum(s for s in P if s < b) + b * a
    m_minus = (a - 1) * sum(q for q in Q if q < a) + a * b
    span = m_plus + m_minus + 2 * (a + b) + 4
    ell = _lengths(steps, -span - a, span + b)
    k = max(max(Fraction(ell[m]) - Fraction(m, b) for m in range(m_plus + b)),
            max(Fraction(ell[m]) - Fraction(-m, a) for m in range(-m_minus - a + 1, 1)))
    plus, minus = m_plus, m_minus
    while plus > 0 and ell[plus - 1 + b] == ell[plus - 1] + 1:
        plus -= 1
    while minus > 0 and ell[-(minus - 1) - a] == ell[-(minus - 1)] + 1:
        minus -= 1
    return k, plus, minus, max(ell[m] for m in range(-minus - a + 1, plus + b))


def restated(jumps: Sequence[int]):
    """(proved low N₂, period, diameter table, symmetric, extra table, steps, N_G) of F40–F42, or None."""
    return _restated(tuple(sorted(set(jumps))))


@lru_cache(maxsize=64)
def _restated(jumps: tuple):
    steps = _steps(jumps)
    if steps is None or max(abs(s) for s in steps) > MAX_JUMP:
        return None
    a, b = -steps[0], steps[-1]
    symmetric = set(steps) == {-s for s in steps}
    k, plus, minus, edge = ray_constants(steps)
    low_d = max(a + b + 1, plus + b + 1, b * edge + 1, minus + a + 1, a * edge + 1)
    if a < b:
        low_d = max(low_d, floor(k * a * b / (b - a)) + 2)
    radius = next((r for r in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, r, symmetric)), None)
    if radius is None:
        return None
    low_g = max((radius + 1) * (a + b) + 1, 2 * max(a, b) + 1)
    kc = ceil(k)
    far = a * (kc + radius + 1)
    low_l = max(low_d, low_g, far + radius * b + a + b + 1, a * (2 * kc + radius + 1) + 2,
                far + a * kc + max(plus, minus) + b + 2, low_d + a * kc + 2)
    period = a
    if low_l + period > MAX_CHECK_N or period * (low_l + period) > MAX_CHECK_WORK:
        return None
    table = {}
    for n in range(low_d, low_d + period):
        d = _diameter_on_arcs(steps, n)
        if d is None:
            return None
        table[n % period] = d - n // period
    extra = {}
    for n in range(low_l, low_l + period):
        witness = _witness(steps, n, n // period + table[n % period], symmetric)
        if witness is None:
            return None
        extra[n % period] = witness
    return low_l, period, table, symmetric, extra, steps, low_g


def _gens(n: int, symmetric: bool) -> list:
    return [list(range(n, 0, -1))] if symmetric else []


def _witness(steps, n: int, d: int, symmetric: bool) -> Optional[bool]:
    """True when a view witness exists at depth d (D + 1 layers least), False when none does, None when
    the rooted views are not decided."""
    from . import views
    try:
        return views.decide([_arcs(steps, n)], n, d, _gens(n, symmetric)) is not None
    except views.NoNauty:
        return None


def _agrees_at(steps, n: int, diameter, layers, symmetric: bool) -> bool:
    from . import groups, patterns
    d = _diameter_on_arcs(steps, n)
    if d is None or d != diameter(n):
        return False
    arcs = _arcs(steps, n)
    lab = {arc: ((0, None),) for arc in arcs}
    full, _ = groups.full_order(lab, n, "none")
    if full != (2 if symmetric else 1):
        return False
    if d <= 1:
        return layers(n) == 1
    gens = _gens(n, symmetric)
    if not all(patterns.preserves(g, lab) for g in gens):
        return False
    found = _witness(steps, n, d, symmetric)
    return found is not None and layers(n) == d + int(found)


def group_range(jumps: Sequence[int]) -> Optional[tuple[int, bool]]:
    """(m₀, S = −S): F41's group (the reflection, or trivial) holds on m ≥ m₀ positions, m₀ the least of F41's
    own range and the onset down to which every m was re-decided on the verifier's arcs; None if not proved."""
    found = restated(jumps)
    fam = family(jumps)
    if found is None or fam is None:
        return None
    return min(fam.low, found[6]), found[3]


@lru_cache(maxsize=64)
def _family(jumps: tuple):
    return _build_family(jumps)


def family(jumps: Sequence[int]):
    """The verifier's Family for F40–F42, or None."""
    return _family(tuple(sorted(set(jumps))))


def _build_family(jumps: Sequence[int]):
    from .families import Family
    found = restated(jumps)
    if found is None:
        return None
    low, period, table, symmetric, extra, steps, _ = found

    def by_residue(n, values):
        if isinstance(n, int):
            return sympy.Integer(n // period + values[n % period])
        total = sympy.Integer(0)
        for r in range(period):
            total += (sympy.floor(n / period) + values[r]) * (sympy.floor((n - r) / period)
                                                             - sympy.floor((n - r - 1) / period))
        return total

    def diameter(n):
        return by_residue(n, table)

    more = {r: table[r] + int(extra[r]) for r in range(period)}

    def layers(n):
        return by_residue(n, more)

    if low <= ONSET_MAX:
        n = low - 1
        while n >= 2 and _agrees_at(steps, n, lambda m: int(diameter(m)), lambda m: int(layers(m)), symmetric):
            low, n = n, n - 1

    def name(text):
        return text == ("reflection" if symmetric else "trivial")
    return Family("F40", low, 0, 0, True, lambda n: sympy.Integer(2 if symmetric else 1), 1, name, None,
                  lambda n: _gens(n, symmetric), diameter_at=diameter, period=period,
                  layers_by=layers if any(extra.values()) else None)
