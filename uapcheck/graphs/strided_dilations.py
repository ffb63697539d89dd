"""`strided(s)` with local parts whose jumps leaving a class share a factor r < s: Theorem F91 of docs/theory.md §11.11.

Theorem F74's setting (`strided(s)` with non-cyclic windows, dilations and offsets; S their jumps, S′ the jumps s does
not divide, J = max |S|), except that gcd(S′) = r ≥ 2, with r < s and gcd(r, s) = 1 (`strided(5) + dilated(2, 3)`).
The arcs between classes are those of `offsets S′`, which split 1..n into the r *lines* a, a + r, a + 2r, … (a = 1..r),
each a copy of `offsets S′/r`. When S′/r has jumps of both signs and F28's ball certificate (radius R), for n ≥ N:

* D depends on n mod s only, read off one n per residue by breadth-first search (F74 (a), whose proof asks only that
  the residues of S′ generate Z_s, which gcd(r, s) = 1 gives);
* G = the reflection when S′ = −S′, else trivial: an automorphism maps classes onto classes and lines onto lines of
  the same length, each by its index map or its reversal (F41 on each line); along a line the class moves by r per
  step, so the class map is a translation (index maps) or a reflection (reversals) of Z_s, and since the lines' first
  positions 1..r are r < s consecutive residues the translation is 0 (only the identity) and the reflection is the one
  of the whole sequence (i ↦ n + 1 − i);
* D + 1 layers suffice (whether D do is open, as in F74).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache, reduce
from math import gcd
from typing import Optional

import sympy
from sympy import Integer

from .strided_lines import MAX_JUMP, MAX_LOW, SECTION, diameter_bfs, residue_costs


@dataclass(frozen=True)
class StridedScaled:
    s: int
    jumps: tuple[int, ...]        # S
    leaving: tuple[int, ...]      # S′
    factor: int                   # r = gcd(S′)
    diameter_low: int             # N₀ (F74 (a))
    table: tuple[int, ...]        # D at n ≡ 0..s − 1 (mod s), n ≥ N₀
    group_low: int                # r·N_G(S′/r), r·s, s(4J + 3)
    symmetric: bool               # S′ = −S′

    @property
    def low(self) -> int:
        return max(self.diameter_low, self.group_low)


@lru_cache(maxsize=128)
def strided_scaled(s: int, jumps: tuple[int, ...]) -> Optional[StridedScaled]:
    """F91 for `strided(s)` with the local jumps S, or None (gcd(S′) = 1 — Theorem F74 —, r ≥ s or sharing a factor
    with s, S′/r one-sided, no ball certificate, a jump beyond MAX_JUMP, N₀ beyond MAX_LOW)."""
    from .circulant_general import reduce_jumps, rigid_radius
    from .offsets_line import group_low as line_group_low
    from .offsets_line import line_steps
    vals = tuple(sorted({int(k) for k in jumps} - {0}))
    if s < 3 or not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = tuple(k for k in vals if k % s)
    if not leaving:
        return None
    r = reduce(gcd, (abs(k) for k in leaving))
    if not (2 <= r < s and gcd(r, s) == 1):
        return None
    found = line_steps(tuple(k // r for k in leaving))
    if found is None:
        return None
    steps, _ = found
    radius = rigid_radius(reduce_jumps(steps))
    if radius is None:
        return None
    costs = residue_costs(vals, s)
    if len(costs) < s:  # cannot happen when gcd(r, s) = 1; kept as a guard
        return None
    big = max(abs(k) for k in vals)
    low_d = 4 * (max(costs.values()) + 2) * big + 2 * s
    if low_d > MAX_LOW:
        return None
    table = [0] * s
    for n in range(low_d, low_d + s):
        d = diameter_bfs(vals, s, n)
        if d is None:
            return None
        table[n % s] = d
    low_g = max(r * line_group_low(steps, radius), r * s, s * (4 * big + 3))
    return StridedScaled(s, vals, leaving, r, low_d, tuple(table), low_g, set(leaving) == {-k for k in leaving})


def theorem(n, data: StridedScaled):
    """F91 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    s = data.s
    if isinstance(n, (int, Integer)):
        diameter: sympy.Expr = Integer(data.table[int(n) % s])
    else:
        diameter = _residue_pieces(n, s, {r: data.table[r] for r in range(s)}, Integer)
    group, order = ("reflection", Integer(2)) if data.symmetric else ("trivial", Integer(1))
    shown = ", ".join(map(str, data.leaving))
    return FamilyTheorem(
        "F91", "strided(s) + non-cyclic local parts whose jumps leaving a class share a factor r < s",
        (("s", Integer(s)), ("r", Integer(data.factor))), Integer(data.low), diameter,
        group, order, ("i ↦ n + 1 − i",) if data.symmetric else (), diameter + 1, False,
        "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F91, as F74)",
        open_question=(f"whether D layers suffice for strided(s) with local parts is not proved ({SECTION}, Theorems "
                       f"F74 and F91); the jumps leaving a residue class are {{{shown}}}, all multiples of "
                       f"{data.factor}"))
