"""Non-cyclic offsets with any finite jump set at symbolic n: Theorems F40–F42 of docs/theory.md §11.11.

Every union of `window(w)`, `dilated(w, r)` and non-cyclic `offsets K` parts is the digraph P_n(S) on the
positions 1..n with the arc i + k → i (i attends to i + k) for k in one finite set S of non-zero integers,
whenever both ends lie in 1..n (S is the union of the parts' offsets: ±1..±w, ±r..±wr, K). Let a = −min S
and b = max S when S has jumps of both signs, and g = gcd(S).

* Connectivity: for n ≥ 2, P_n(S) is not strongly connected when every jump has one sign or g > 1 (the
  closed connectivity of §11.3 says so already); with both signs and g = 1 it is strongly connected for
  n ≥ a + b, and d(j → i) = ℓ(j − i), the word length of j − i over S on Z (F40 (a)).
* F40 (b), diameter: after the mirror i ↦ n + 1 − i (an isomorphism P_n(S) ≅ P_n(−S)) a ≤ b; with L = a,
  D(n + L) = D(n) + 1 for n ≥ N₀, so D = ⌊n/L⌋ + h(n mod L), h read off one period.
* F41, group: with R the radius of Theorem F28's ball certificate for S, for n ≥ (R + 1)(a + b) + 1,
  G = the reflection i ↦ n + 1 − i when S = −S, else trivial.
* F42, least layers: for n ≥ N₂ whether D layers suffice depends on n mod L only; it is decided at one n
  per residue class by the concrete engine (graphs, BLISS, rooted views), and below N₂ each n is decided
  by the concrete engine down to the first that differs (the stated range is sharp).

``graphs/families.py`` states the theorem (FamilyTheorem "F40") from ``line_data``. The closed forms are
evaluable at a concrete n without arcs (``LineData.diameter``, ``order``, ``layers``). Nothing here
reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, reduce
from math import ceil, floor, gcd
from typing import Optional, Sequence

from .circulant_general import Constants, constants, reduce_jumps, rigid_radius, z_lengths

SECTION = "docs/theory.md §11.11"

#: No theorem is attempted when the largest |jump| exceeds this.
MAX_JUMP = 40
#: The layer check runs the concrete engine at one n per residue class: skipped (D + 1 sufficient, not
#: shown least) when the first of those n exceeds this.
MAX_CHECK_N = 400
#: ... and when the checks' total length (a·(N₂ + a), the positions of one rooted-view decision per residue)
#: exceeds this (a symbolic-n derivation stays within seconds).
MAX_CHECK_WORK = 3_000
#: Below the proved range the concrete engine decides each n downwards to the first that differs from
#: the closed forms (so the stated range is sharp), when the proved range starts at most here.
ONSET_MAX = 100


def line_steps(jumps: Sequence[int]) -> Optional[tuple[tuple[int, ...], bool]]:
    """(S, mirrored) with S the non-zero jumps, negated when that makes a = −min S ≤ b = max S; None when
    S is empty, one-sided or has gcd > 1 (not strongly connected for n ≥ 2: no theorem here)."""
    vals = sorted({int(k) for k in jumps} - {0})
    if not vals or vals[0] > 0 or vals[-1] < 0:
        return None
    if reduce(gcd, (abs(v) for v in vals)) != 1:
        return None
    if -vals[0] > vals[-1]:
        return tuple(sorted(-v for v in vals)), True
    return tuple(vals), False


def rigid_steps(jumps: Sequence[int]) -> Optional[tuple[tuple[int, ...], int]]:
    """(S mirrored as line_steps gives it, F28's ball certificate radius for S), or None (no steps, or no
    certificate)."""
    found = line_steps(jumps)
    if found is None:
        return None
    steps, _ = found
    radius = rigid_radius(reduce_jumps(steps))
    return None if radius is None else (steps, radius)


@dataclass(frozen=True)
class LineData:
    jumps: tuple[int, ...]        # the non-zero jumps as given (sorted)
    steps: tuple[int, ...]        # mirrored so that a ≤ b
    mirrored: bool
    constants: Constants          # F27's constants of the steps (M₊, M₋, K, E)
    low_diameter: int             # N₀
    excess: tuple[int, ...]       # D(n) = ⌊n/L⌋ + excess[n mod L] for n ≥ N₀
    radius: Optional[int]         # F28's certificate radius R (None: the group is not proved)
    low_group: Optional[int]
    low_layers: Optional[int]     # N₂ (None: the least count is not decided)
    extra: tuple[bool, ...]       # extra[ρ]: D + 1 layers are least for n ≡ ρ (mod L); else D
    checked_at: tuple[int, ...]   # the n of F42's check, one per residue
    onset: Optional[int] = None   # the least n₁ with the closed forms decided concretely on [n₁, N₂)

    @property
    def a(self) -> int:
        return -min(self.steps)

    @property
    def b(self) -> int:
        return max(self.steps)

    @property
    def period(self) -> int:
        return self.a

    @property
    def symmetric(self) -> bool:
        return set(self.steps) == {-s for s in self.steps}

    def diameter(self, n: int) -> int:
        return n // self.period + self.excess[n % self.period]

    def order(self, n: int) -> int:
        return 2 if self.symmetric else 1

    def layers(self, n: int) -> int:
        return self.diameter(n) + int(self.extra[n % self.period])

    @property
    def proved_low(self) -> int:
        return max(x for x in (self.low_diameter, self.low_group, self.low_layers) if x is not None)

    @property
    def low(self) -> int:
        return self.onset if self.onset is not None else self.proved_low


def _ceil(x: Fraction) -> int:
    return int(ceil(x))


@dataclass(frozen=True)
class Rays:
    """The rays of F27 (d), sharpened by the exact word lengths: ℓ(m + b) = ℓ(m) + 1 for every m ≥ plus and
    ℓ(m − a) = ℓ(m) + 1 for every m ≤ −minus (F27 (d) proves it from M₊, M₋; below, down to plus and
    minus, it is read off the exact lengths), edge = the largest ℓ on (−minus − a, plus + b)."""
    plus: int
    minus: int
    edge: int


def rays(steps: Sequence[int], c: Constants) -> Rays:
    a, b = -min(steps), max(steps)
    hi, lo = c.m_plus + b, c.m_minus + a
    ell = z_lengths(steps, -lo - 2 * a - b, hi + a + 2 * b)   # exact on [−lo − a, hi + b] (F27 (c))
    plus = c.m_plus
    while plus > 0 and ell[plus - 1 + b] == ell[plus - 1] + 1:
        plus -= 1
    minus = c.m_minus
    while minus > 0 and ell[-(minus - 1) - a] == ell[-(minus - 1)] + 1:
        minus -= 1
    edge = max(ell[m] for m in range(-minus - a + 1, plus + b))
    return Rays(plus, minus, edge)


def diameter_low(steps: Sequence[int], c: Constants) -> int:
    """N₀ of F40 (b): from here D(n) = max(A(n − 1), B(n − 1)) with A(N + b) = A(N) + 1 and B(N + a) = B(N) + 1,
    and (a < b) B(n − 1) > A(n − 1), so D(n + a) = D(n) + 1."""
    a, b = -min(steps), max(steps)
    k = c.k_slope
    r = rays(steps, c)
    low = max(a + b + 1, r.plus + b + 1, b * r.edge + 1, r.minus + a + 1, a * r.edge + 1)
    if a < b:
        low = max(low, floor(k * a * b / (b - a)) + 2)
    return low


@lru_cache(maxsize=512)
def diameter_table(steps: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """(N₀, h) of F40 (b) for the mirrored steps (a ≤ b): D(n) = ⌊n/a⌋ + h[n mod a] for n ≥ N₀."""
    L = -min(steps)
    n0 = diameter_low(steps, constants(reduce_jumps(steps)))
    at = sorted(range(n0, n0 + L), key=lambda m: m % L)
    return n0, tuple(line_diameter_at(steps, n) - n // L for n in at)


def line_diameter_at(steps: Sequence[int], n: int) -> int:
    """D(n) = max over |m| ≤ n − 1 of ℓ(m) (F40 (a): d(j → i) = ℓ(j − i) for n ≥ a + b)."""
    a, b = -min(steps), max(steps)
    ell = z_lengths(steps, -(n - 1) - a, (n - 1) + b)
    return max(ell[m] for m in range(-(n - 1), n))


def group_low(steps: Sequence[int], radius: int) -> int:
    """F41's range: the interval of deep positions [Ra + 1, n − Rb] holds at least a + b positions."""
    a, b = -min(steps), max(steps)
    return max((radius + 1) * (a + b) + 1, 2 * max(a, b) + 1)


def layers_low(steps: Sequence[int], c: Constants, radius: int, n0: int) -> int:
    """N₂ of F42 (docs/theory.md §11.11, F42: the conditions (i)–(vi) of its proof)."""
    a, b = -min(steps), max(steps)
    k = _ceil(c.k_slope)
    r = rays(steps, c)
    far = a * (k + radius + 1)                      # F: the far region is [1, F] (mirrored: [n − F + 1, n])
    return max(n0, group_low(steps, radius),
               far + radius * b + a + b + 1,        # (ii) J = [F + 1, n − Rb] holds a + b positions
               a * (2 * k + radius + 1) + 2,        # (iv) every position beyond F is at level ≤ D − R − 1
               far + a * k + max(r.minus, r.plus) + b + 2,   # (v) the far levels shift by one
               n0 + a * k + 2)                      # (vi) the non-covering roots shift with n


@lru_cache(maxsize=256)
def line_data(jumps: tuple[int, ...]) -> Optional[LineData]:
    """F40–F42 for the non-cyclic offsets ``jumps`` (0 ignored), or None (one-sided, gcd > 1, or a jump
    beyond MAX_JUMP)."""
    found = line_steps(jumps)
    if found is None:
        return None
    steps, mirrored = found
    if max(abs(s) for s in steps) > MAX_JUMP:
        return None
    red = reduce_jumps(steps)
    c = constants(red)
    L = -min(steps)
    n0, excess = diameter_table(steps)
    vals = tuple(sorted({int(k) for k in jumps} - {0}))
    radius = rigid_radius(red)
    if radius is None:
        return LineData(vals, steps, mirrored, c, n0, excess, None, None, None, (), ())
    low_g = group_low(steps, radius)
    low_l = layers_low(steps, c, radius, n0)
    if low_l + L > MAX_CHECK_N or L * (low_l + L) > MAX_CHECK_WORK:
        return LineData(vals, steps, mirrored, c, n0, excess, radius, low_g, None, (), ())
    checks = tuple(sorted(range(low_l, low_l + L), key=lambda m: m % L))
    extra = []
    for n in checks:
        got = _concrete(steps, n)
        if not got.least or got.layers is None:
            return LineData(vals, steps, mirrored, c, n0, excess, radius, low_g, None, (), ())
        extra.append(got.layers == got.diameter + 1)
    data = LineData(vals, steps, mirrored, c, n0, excess, radius, low_g, low_l, tuple(extra), checks)
    return replace(data, onset=concrete_onset(data)) if data.proved_low <= ONSET_MAX else data


def _concrete(steps: Sequence[int], n: int):
    from ..spec import Offsets
    from .families import concrete
    return concrete(Offsets(tuple(sorted(set(steps) | {0})), False), n)


def concrete_onset(data: LineData) -> int:
    """The least n₁ ≤ N₂ such that at every n in [n₁, N₂) the concrete engine (graphs, BLISS, rooted views)
    finds the closed forms' D, |G| and least layer count: the values then hold for n ≥ n₁, and at n₁ − 1
    they differ (or n₁ = 2)."""
    onset = data.proved_low
    n = onset - 1
    while n >= 2:
        got = _concrete(data.steps, n)
        if not (got.connected and got.least and got.diameter == data.diameter(n)
                and got.order == data.order(n) and got.layers == data.layers(n)):
            break
        onset = n
        n -= 1
    return onset
