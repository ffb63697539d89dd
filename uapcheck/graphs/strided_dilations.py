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
from fractions import Fraction
from functools import lru_cache, reduce
from math import gcd
from typing import Optional

import sympy
from sympy import Integer

from .strided_lines import MAX_JUMP, MAX_LOW, SECTION, diameter_by_residue, residue_costs

MAX_LINES = 12      # F92: r at most this (the order is counted over the r lines' types)
MAX_PERIOD = 120    # F92: the order depends on n mod rs; at most this many closed forms


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
    orders: tuple[int, ...] = ()  # F92 (r > s): |G| at n ≡ 0..rs − 1 (mod rs), n ≥ low

    @property
    def low(self) -> int:
        return max(self.diameter_low, self.group_low)


@lru_cache(maxsize=128)
def strided_scaled(s: int, jumps: tuple[int, ...]) -> Optional[StridedScaled]:
    """F91 for `strided(s)` with the local jumps S, or None (gcd(S′) = 1 — Theorem F74 —, r ≥ s or sharing a factor
    with s, S′/r one-sided, no ball certificate, a jump beyond MAX_JUMP, N₀ beyond MAX_LOW)."""
    from .offsets_line import group_low as line_group_low
    from .offsets_line import rigid_steps
    vals = tuple(sorted({int(k) for k in jumps} - {0}))
    if s < 2 or not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = tuple(k for k in vals if k % s)
    if not leaving:
        return None
    r = reduce(gcd, (abs(k) for k in leaving))
    if r < 2 or gcd(r, s) != 1 or (r > s and (r > MAX_LINES or r * s > MAX_PERIOD)) or (r < s and s < 3):
        return None
    found = rigid_steps(tuple(k // r for k in leaving))
    if found is None:
        return None
    steps, radius = found
    costs = residue_costs(vals, s)
    if len(costs) < s:  # cannot happen when gcd(r, s) = 1; kept as a guard
        return None
    big = max(abs(k) for k in vals)
    low_d = 4 * (max(costs.values()) + 2) * big + 2 * s
    if low_d > MAX_LOW:
        return None
    table = diameter_by_residue(vals, s, low_d)
    if table is None:
        return None
    low_g = max(r * line_group_low(steps, radius), r * s, s * (4 * big + 3))
    symmetric = set(leaving) == {-k for k in leaving}
    orders: tuple[int, ...] = ()
    if r > s:
        start = max(low_d, low_g)
        by_residue = {n % (r * s): line_order(n, s, r, symmetric) for n in range(start, start + r * s)}
        orders = tuple(by_residue[m] for m in range(r * s))
    return StridedScaled(s, vals, leaving, r, low_d, table, low_g, symmetric, orders)


def line_order(n: int, s: int, r: int, symmetric: bool) -> int:
    """F92 (b): |G| at the length n, r > s. The lines Λ_a = {a, a + r, …} (a = 1..r) have the lengths
    ℓ_a = ⌊(n − a)/r⌋ + 1 and the last positions e_a = a + r(ℓ_a − 1). An automorphism maps Λ_a onto a line Λ_b of
    the same length by the index map (the classes move by x ↦ x + b − a) or, when S′ = −S′, reversed (x ↦ e_b + a −
    x), every line with one class map π. So |G| = Σ_π #{(β, orientations)}: for each π a count of bijections between
    the line types (a mod s, ℓ_a), the weight of a pair of types the number of orientations that induce π."""
    length = {a: (n - a) // r + 1 for a in range(1, r + 1)}
    kinds: dict[tuple[int, int], int] = {}
    for a in range(1, r + 1):
        kinds[(a % s, length[a])] = kinds.get((a % s, length[a]), 0) + 1
    types = sorted(kinds)
    maps = {tuple((x + t) % s for x in range(s)) for t in range(s)}
    if symmetric:
        maps |= {tuple((c - x) % s for x in range(s)) for c in range(s)}
    total = 0
    for pi in sorted(maps):
        weight = {}
        for i, (x, la) in enumerate(types):
            for j, (y, lb) in enumerate(types):
                if la != lb:
                    continue
                last = (y + r * (lb - 1)) % s            # e_b mod s for a line starting at y (mod s) of length lb
                w = int(pi == tuple((z + y - x) % s for z in range(s)))
                if symmetric:
                    w += int(pi == tuple((last + x - z) % s for z in range(s)))
                if w:
                    weight[(i, j)] = w
        total += _type_bijections([kinds[t] for t in types], weight)
    return total


def _type_bijections(sizes: list[int], weight: dict) -> int:
    """The permanent of the block matrix whose rows and columns are grouped by type (sizes[i] of type i) with the
    weight weight[(i, j)] between types i and j: Σ over the matrices k_ij with row and column sums `sizes` of
    ∏ sizes! ∏ sizes! / ∏ k_ij! · ∏ weight^k_ij."""
    from math import factorial, prod
    k = len(sizes)
    out: list[Fraction] = [Fraction(0)]

    def place(i: int, left: list[int], coeff: Fraction) -> None:
        if i == k:
            if not any(left):
                out[0] += coeff
            return
        targets = [j for j in range(k) if (i, j) in weight]

        def split(t: int, remaining: int, left_now: list[int], c: Fraction) -> None:
            if t == len(targets):
                if remaining == 0:
                    place(i + 1, left_now, c)
                return
            j = targets[t]
            for take in range(min(remaining, left_now[j]) + 1):
                nxt = left_now.copy()
                nxt[j] -= take
                split(t + 1, remaining - take, nxt, c * Fraction(weight[(i, j)] ** take, factorial(take)))
        split(0, sizes[i], left, coeff)

    place(0, list(sizes), Fraction(1))
    total = out[0] * prod(factorial(x) for x in sizes) ** 2
    assert total.denominator == 1
    return int(total)


def theorem(n, data: StridedScaled):
    """F91 (r < s) or F92 (r > s) at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .strided_lines_least import layer_count, line_layers
    from .symbolic_unions import _residue_pieces
    s = data.s
    if isinstance(n, (int, Integer)):
        diameter: sympy.Expr = Integer(data.table[int(n) % s])
    else:
        diameter = _residue_pieces(n, s, {r: data.table[r] for r in range(s)}, Integer)
    shown = ", ".join(map(str, data.leaving))
    r = data.factor
    question = (f"whether D layers suffice for strided(s) with local parts is not proved ({SECTION}, Theorems "
                f"F74, F91 and F92); the jumps leaving a residue class are {{{shown}}}, all multiples of {r}")
    layers = line_layers(s, data.symmetric, "F92" if r > s else "F91", question, data.jumps, data.low)
    count = layer_count(n, diameter, layers, data.table, s)
    if r > s:
        period = r * s
        if isinstance(n, (int, Integer)):
            order: sympy.Expr = Integer(data.orders[int(n) % period])
        else:
            order = _residue_pieces(n, period, {m: data.orders[m] for m in range(period)}, Integer, explicit=True)
        turned = " or reversed" if data.symmetric else ""
        where = "" if isinstance(n, (int, Integer)) else f", by residue of {sympy.sstr(n)} mod {period}"
        group = (f"the maps taking each line a, a + {r}, a + {2 * r}, … (a = 1..{r}) onto a line of the same length "
                 f"in order{turned}, all moving the residue classes mod {s} by one map{where}")
        return FamilyTheorem(
            "F92", "strided(s) + non-cyclic local parts whose jumps leaving a class share a factor r > s",
            (("s", Integer(s)), ("r", Integer(r))), Integer(data.low), diameter, group, order, (), count,
            layers.least, layers.why, open_question=layers.question)
    group, order = ("reflection", Integer(2)) if data.symmetric else ("trivial", Integer(1))
    return FamilyTheorem(
        "F91", "strided(s) + non-cyclic local parts whose jumps leaving a class share a factor r < s",
        (("s", Integer(s)), ("r", Integer(r))), Integer(data.low), diameter,
        group, order, ("i ↦ n + 1 − i",) if data.symmetric else (), count, layers.least, layers.why,
        open_question=layers.question)
