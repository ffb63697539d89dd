"""Circulant reach for the circular convolution mixer (docs/theory.md §22).

With taps K ⊆ Z, position i reads x_{i+k mod n} for k ∈ K (and keeps x_i through the residual), so
after m layers it reads the offsets of the m-fold sum set of K ∪ {0} modulo n.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

#: The sum-set recurrence is run for n up to this (plain Python sets of residues).
MAX_CIRCULANT_N = 1_000_000


def tap_gcd(n: int, taps) -> int:
    """gcd(n, K \\ {0} mod n); n when every tap is 0 mod n (no mixing)."""
    nonzero = sorted({t % n for t in taps} - {0})
    return math.gcd(n, *nonzero) if nonzero else n


def sumset_depth(n: int, taps) -> Optional[int]:
    """The least m ≥ 0 with (K ∪ {0})^{+m} = Z_n; None when K \\ {0} does not generate Z_n."""
    if tap_gcd(n, taps) != 1:
        return None if n > 1 else 0
    steps = sorted({t % n for t in taps} - {0})
    reached = {0}
    frontier = {0}
    m = 0
    while len(reached) < n:
        m += 1
        nxt = set()
        for s in frontier:
            for k in steps:
                r = (s + k) % n
                if r not in reached:
                    nxt.add(r)
        reached |= nxt
        frontier = nxt
    return m


def missing_offset(n: int, taps, m: int) -> Optional[int]:
    """An offset s ∈ Z_n outside the m-fold sum set of K ∪ {0} (None: none)."""
    steps = sorted({t % n for t in taps} - {0})
    reached = {0}
    for _ in range(m):
        reached |= {(s + k) % n for s in reached for k in steps}
    return next((s for s in range(n) if s not in reached), None)


def scaled_interval(taps) -> Optional[tuple[int, int, int]]:
    """(s, a, b) when K ∪ {0} = s·[a, b] = {s·a, …, s·b} with s ≥ 2 the gcd of the non-zero taps and
    b − a ≥ 1 (`{0, 2}`: s = 2, [0, 1]); else None. Then gcd(n, K \\ {0}) = gcd(n, s) for every n."""
    nonzero = sorted({abs(t) for t in taps} - {0})
    if not nonzero:
        return None
    s = math.gcd(*nonzero)
    if s < 2:
        return None
    scaled = sorted({t // s for t in taps} | {0})
    if interval_width(scaled) is None:
        return None
    return s, scaled[0], scaled[-1]


def interval_width(taps) -> Optional[int]:
    """b − a when K ∪ {0} is the integer interval [a, b] (with a < b), else None."""
    vals = sorted(set(taps) | {0})
    if len(vals) >= 2 and len(vals) == vals[-1] - vals[0] + 1:  # distinct sorted integers filling [a, b] (not listed)
        return vals[-1] - vals[0]
    return None


# ---------------------------------------------------------------------------------------------
# Lemma P (docs/theory.md §22.6): the sum sets of any finite tap set at symbolic n

#: Lemma P is attempted for reduced tap spans b up to this (the gaps of ⟨A⟩ lie below b², the finite checks are
#: cubic in b).
MAX_TAP_SPAN = 64


def semigroup_gaps(generators) -> tuple[int, ...]:
    """The gaps ℕ ∖ ⟨generators⟩ of the numerical semigroup the positive generators span (gcd 1 assumed): every gap
    lies below (min − 1)(max − 1) ≤ max², so the search stops there."""
    gens = sorted({g for g in generators if g > 0})
    top = gens[-1] ** 2 + 1
    member = [False] * (top + 1)
    member[0] = True
    for x in range(1, top + 1):
        member[x] = any(g <= x and member[x - g] for g in gens)
    return tuple(x for x in range(top + 1) if not member[x])


@dataclass(frozen=True)
class TapSumsetForm:
    """Lemma P's data for integer taps K (not all 0): s = gcd of the non-zero taps, A = (K ∪ {0})/s − min, a set in
    [0, b] with 0, b ∈ A and gcd 1; G₁, G₂ the gaps of ⟨A⟩ and ⟨b − A⟩, F = max(G₁ ∪ G₂) (−1 when there are none),
    E = G₁ + G₂; u*[ρ] = the least u ≥ F with u ≡ ρ (mod b) and u ∉ E; k₀ the first k with kb ≥ b + f₁ + f₂ + 1 at
    which kA = [0, kb] ∖ (G₁ ∪ (kb − G₂)). For n prime to s and n ≥ `proved_from` (= max(F + 1, max u* + 1, k₀b)),
    D(n) = (n + u*[−n mod b])/b; `start` is the least length from which that holds at every n prime to s (the lengths
    between it and `proved_from` computed by the sum-set recurrence)."""
    taps: tuple
    step: int
    reduced: tuple
    span: int
    gaps_low: tuple
    gaps_high: tuple
    least_excess: tuple  # u*[ρ], ρ = 0..b − 1
    k0: int
    proved_from: int
    start: int

    def depth_at(self, n: int) -> int:
        return (n + self.least_excess[(-n) % self.span]) // self.span


def _kfold(reduced, k: int) -> set:
    out = {0}
    for _ in range(k):
        out = {x + a for x in out for a in reduced}
    return out


def tap_sumset_form(taps) -> Optional[TapSumsetForm]:
    """Lemma P's closed form for integer taps, or None (every tap 0, or a reduced span above MAX_TAP_SPAN)."""
    nonzero = sorted({abs(t) for t in taps} - {0})
    if not nonzero:
        return None
    s = math.gcd(*nonzero)
    scaled = sorted({t // s for t in taps} | {0})
    reduced = tuple(x - scaled[0] for x in scaled)
    b = reduced[-1]
    if b > MAX_TAP_SPAN:
        return None
    low, high = semigroup_gaps(reduced), semigroup_gaps(b - a for a in reduced)
    f1, f2 = max(low, default=-1), max(high, default=-1)
    big = max(f1, f2, -1)
    excluded = {g + h for g in low for h in high}
    excess = []
    for rho in range(b):
        u = big
        while u % b != rho or u in excluded:
            u += 1
        excess.append(u)
    k = max(1, -(-(b + f1 + f2 + 1) // b))
    while _kfold(reduced, k) != {x for x in range(k * b + 1) if x not in low and k * b - x not in high}:
        k += 1  # the structure holds from some k on (Nathanson 1972); the check is finite for each k
        if k * b > 4 * b * b + 4 * b:
            return None
    proved = max(big + 1, max(excess) + 1, k * b, 2)
    form = TapSumsetForm(tuple(taps), s, reduced, b, low, high, tuple(excess), k, proved, proved)
    start = proved
    while start > 2 and (math.gcd(start - 1, s) != 1 or sumset_depth(start - 1, taps) == form.depth_at(start - 1)):
        start -= 1
    return TapSumsetForm(tuple(taps), s, reduced, b, low, high, tuple(excess), k, proved, start)


def tap_depth_expression(form: TapSumsetForm, n):
    """D(n) = (n + u*[−n mod b])/b as ⌈(n + c)/b⌉ (c = min u*) plus, on the classes of n mod b where u* exceeds the
    least u ≥ c in its class, that excess over b: one ceiling, or a Piecewise over n mod b with the commonest value
    last (a SymPy expression in the symbol n)."""
    import sympy
    b, excess = form.span, form.least_excess
    c = min(excess)
    extra = []
    for r in range(b):
        rho = (-r) % b
        v = c + (rho - c) % b
        extra.append((excess[rho] - v) // b)
    head = sympy.ceiling((n + c) / sympy.Integer(b)) if b > 1 else n + c
    values = sorted(set(extra), key=lambda e: (-extra.count(e), e))
    if len(values) == 1:
        return head + values[0]
    pieces = [(head + v, sympy.Or(*[sympy.Eq(sympy.Mod(n, b), r) for r, e in enumerate(extra) if e == v]))
              for v in values[1:]]
    return sympy.Piecewise(*pieces, (head + values[0], True))
