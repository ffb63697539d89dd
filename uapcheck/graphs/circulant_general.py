"""Cyclic offsets with any finite jump set at symbolic n: Theorems F27–F29 of docs/theory.md §11.11.

The pattern `offsets S cyclic` (and every union of cyclic offsets and cyclic windows, whose arcs are
those of the union S of their jumps) is the circulant digraph Γ_n: positions Z_n, the arc i + k → i for
k ∈ S. With g = gcd(S):

* F27 (connectivity and diameter). Γ_n is strongly connected iff gcd(n, g) = 1; then x ↦ g⁻¹x (mod n) is
  an isomorphism onto the circulant of S/g (Lemma F13), and, with S/g mirrored to have a positive jump,
  b its largest jump and a = −(its least jump) when it has jumps of both signs, the diameter satisfies
  D(n + L) = D(n) + 1 for n ≥ N₀, L = a + b (both signs) or b (one sign): D = ⌊n/L⌋ + h(n mod L), the
  table h read off one period of breadth-first searches on Z_n.
* F28 (group). When a finite certificate holds (the rooted ball of radius R of the Cayley graph of Z,
  coloured by level, has automorphisms acting on S as the identity, or as ±1 when S = −S), G = C_n, or
  D_n when S = −S, for n ≥ R(a + b) + max(a, b) + 1 (coprime to g).
* F29 (least layers). For n ≥ N₂ (coprime to g), D layers suffice iff the rooted view of position 0 has
  no automorphism but the identity that fixes every position of level ≤ D − R; this answer depends on
  n mod L only (the top levels of n and n + L correspond), and is decided at one n per residue class.

This module computes the constants, the table and the certificates; ``graphs/families.py`` states the
theorem (FamilyTheorem "F27") from them. Nothing here reads user text.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, reduce
from math import ceil, gcd
from typing import Optional, Sequence

SECTION = "docs/theory.md §11.11"

#: The certificate radius R of Theorem F28 is searched up to max(this, a + b + 2): below the length a + b
#: of the relation a·b + b·(−a) = 0, the ball of {−a, b} is the simplex of N², whose swap of the two
#: coordinates is a rooted automorphism exchanging the jumps.
MAX_RADIUS = 8
#: No theorem is attempted when the largest |jump| (after dividing by the gcd) exceeds this.
MAX_JUMP = 40
#: The layer check of F29 runs at one n per residue class: skipped (D + 1 sufficient) when the sum
#: of those n exceeds this.
MAX_LAYER_WORK = 400_000
#: Below the proved range N₂ the concrete engine decides each n downwards to the first that differs
#: from the closed forms (so the stated range is sharp), when N₂ is at most this.
ONSET_MAX = 160


# ---------------------------------------------------------------------------------------------
# The normal form: divide by the gcd, mirror to have a positive jump

@dataclass(frozen=True)
class Reduced:
    jumps: tuple[int, ...]     # the offsets as given (nonzero, sorted, distinct)
    g: int                     # gcd of the jumps
    steps: tuple[int, ...]     # S/g, negated when every jump is negative (sorted)
    mirrored: bool             # S/g was negated

    @property
    def positive(self) -> tuple[int, ...]:
        return tuple(s for s in self.steps if s > 0)

    @property
    def negative(self) -> tuple[int, ...]:
        """The magnitudes of the negative steps."""
        return tuple(-s for s in self.steps if s < 0)

    @property
    def b(self) -> int:
        return max(self.positive)

    @property
    def a(self) -> int:
        """The largest negative magnitude (0 when every step is positive)."""
        return max(self.negative, default=0)

    @property
    def two_sided(self) -> bool:
        return bool(self.negative)

    @property
    def symmetric(self) -> bool:
        return set(self.steps) == {-s for s in self.steps}

    @property
    def period(self) -> int:
        return self.a + self.b if self.two_sided else self.b


def reduce_jumps(jumps: Sequence[int]) -> Reduced:
    vals = tuple(sorted({int(k) for k in jumps} - {0}))
    if not vals:
        raise ValueError("no nonzero jump")
    g = reduce(gcd, (abs(v) for v in vals))
    steps = tuple(v // g for v in vals)
    mirrored = all(s < 0 for s in steps)
    if mirrored:
        steps = tuple(sorted(-s for s in steps))
    return Reduced(vals, g, steps, mirrored)


# ---------------------------------------------------------------------------------------------
# Word lengths on Z (exact breadth-first search on an interval)

def z_lengths(steps: Sequence[int], lo: int, hi: int) -> dict[int, int]:
    """ℓ(m), the least number of steps (with repetition) summing to m, for every m in [lo, hi] that is
    reachable by a walk from 0 staying in [lo, hi]. By the ordering lemma (F27 (1)) every sum of k steps
    equal to m can be ordered with partial sums in [min(0, m) − a, max(0, m) + b], so for
    lo ≤ min(0, m) − a and max(0, m) + b ≤ hi the value is exact (absent means no representation)."""
    dist = {0: 0}
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for s in steps:
            v = u + s
            if lo <= v <= hi and v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


@dataclass(frozen=True)
class Constants:
    """The constants of the proof of F27 for the reduced steps (docs/theory.md §11.11, F27)."""
    m_plus: int                # ℓ(m + b) = ℓ(m) + 1 for m ≥ M₊
    m_minus: int               # ℓ(m − a) = ℓ(m) + 1 for m ≤ −M₋ (two-sided only; else 0)
    k_slope: Fraction          # ℓ(m) ≤ m/b + K₊ (m ≥ 0), ≤ |m|/a + K₋ (m ≤ 0): K = max of both
    edge: int                  # E: the largest level on [0, M₊ + b) (and on (−M₋ − a, 0])
    frobenius: int             # the largest non-representable m ≥ 0 (one-sided), −1 if none
    back: int                  # c₀ = max(1, max ℓ(−k)) (two-sided only)
    small: int                 # E_W (one-sided): the largest finite ℓ on [0, F + b]
    lift: int                  # N_lift: only the lifts {t, t − n} (two-sided) or {t, t + n} matter
    period_low: int            # N₀: D(n + L) = D(n) + 1 for n ≥ N₀


def constants(red: Reduced) -> Constants:
    P, Q, a, b = red.positive, red.negative, red.a, red.b
    m_plus = (b - 1) * sum(s for s in P if s < b) + b * a
    m_minus = (a - 1) * sum(q for q in Q if q < a) + a * b if Q else 0
    span = m_plus + m_minus + 2 * (a + b) + 4
    ell = z_lengths(red.steps, -span - a, span + b)
    k_plus = max(Fraction(ell[m]) - Fraction(m, b) for m in range(0, m_plus + b) if m in ell)
    if Q:
        k_minus = max(Fraction(ell[m]) - Fraction(-m, a) for m in range(-m_minus - a + 1, 1))
        k = max(k_plus, k_minus)
        edge = max(max(ell[m] for m in range(0, m_plus + b)), max(ell[m] for m in range(-m_minus - a + 1, 1)))
        back = max([1] + [ell[-s] for s in red.steps])
        lift = ceil(k * max(a, b) * (a + b) / min(a, b))
        period_low = max(lift, (a + b) * (edge + 1), 2)
        return Constants(m_plus, m_minus, k, edge, -1, back, 0, lift, period_low)
    gaps = [m for m in range(0, m_plus + b) if m not in ell]
    # every residue mod b is represented on [M₊, M₊ + b), so nothing beyond is a gap
    if any(m >= m_plus for m in gaps):
        raise ValueError("internal: a gap at or beyond M₊")
    frob = max(gaps, default=-1)
    edge = max(ell[m] for m in range(0, m_plus + b) if m in ell)
    small = max(ell[m] for m in range(0, frob + b + 1) if m in ell)
    lift = max(ceil(b * k_plus), frob + 1)
    period_low = max(lift, m_plus + b, b * (edge + 1), 2)
    return Constants(m_plus, 0, k_plus, edge, frob, 1, small, lift, period_low)


# ---------------------------------------------------------------------------------------------
# Distances on Z_n

def levels(steps: Sequence[int], n: int) -> list[int]:
    """ℓ_n(v) = d(v → 0) for every v ∈ Z_n (the arcs x → x − k, k ∈ steps): the least number of steps
    summing to v mod n; -1 where unreachable."""
    dist = [-1] * n
    dist[0] = 0
    frontier = [0]
    ks = sorted({s % n for s in steps} - {0})
    d = 0
    while frontier:
        d += 1
        nxt = []
        for u in frontier:
            for k in ks:
                v = u + k
                if v >= n:
                    v -= n
                if dist[v] < 0:
                    dist[v] = d
                    nxt.append(v)
        frontier = nxt
    return dist


def diameter_at(steps: Sequence[int], n: int) -> int:
    return max(levels(steps, n))


# ---------------------------------------------------------------------------------------------
# F28: the local certificate (the rooted ball of the Cayley graph of Z)

def z_ball(steps: Sequence[int], radius: int) -> dict[int, int]:
    """{m : ℓ(m) ≤ radius} with ℓ(m), exact (a walk of ≤ radius steps to m stays in
    [−(radius + 1)a, (radius + 1)b], the ordering lemma)."""
    a = max([-s for s in steps if s < 0], default=0)
    b = max([s for s in steps if s > 0], default=0)
    ell = z_lengths(steps, -(radius + 1) * a, (radius + 1) * b)
    return {m: d for m, d in ell.items() if d <= radius}


def ball_orders(steps: Sequence[int], radius: int) -> tuple[int, int]:
    """(|Aut|, |Aut fixing every jump|) of the rooted ball of radius R of Cay(Z, S), vertices coloured
    by level, arcs m → m − k inside the ball (BLISS). Their ratio is the number of permutations of S
    that rooted automorphisms induce."""
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    ball = z_ball(steps, radius)
    order = sorted(ball)
    index = {m: i for i, m in enumerate(order)}
    edges = [(index[m], index[m - k]) for m in order for k in steps if (m - k) in index]
    graph = digraph(len(order), edges)
    colours = [ball[m] for m in order]
    whole = count_automorphisms(graph, color=colours)
    pinned = list(colours)
    for j, s in enumerate(sorted(set(steps))):
        pinned[index[s]] = radius + 1 + j
    fixed = count_automorphisms(graph, color=pinned)
    return whole, fixed


def max_radius(red: Reduced) -> int:
    return max(MAX_RADIUS, red.a + red.b + 2)


def rigid_radius(red: Reduced) -> Optional[int]:
    """The least R ≤ max_radius at which every rooted automorphism of the radius-R ball acts on S as the
    identity (S ≠ −S) or as ±1 (S = −S); None if none does."""
    want = 2 if red.symmetric else 1
    for radius in range(1, max_radius(red) + 1):
        whole, fixed = ball_orders(red.steps, radius)
        if whole == want * fixed:
            return radius
    return None


def group_low(red: Reduced, radius: int) -> int:
    """F28's range: the ball of radius R of Γ_n is the ball of Z (n > R(a + b) + max(a, b)), and
    n > 2·max|S| (so s ≠ −s and the jumps stay distinct mod n)."""
    a, b = red.a, red.b
    return max(radius * (a + b) + max(a, b) + 1, 2 * max(abs(s) for s in red.steps) + 1, 3)


# ---------------------------------------------------------------------------------------------
# F29: the layer check (one n per residue class)

def layers_low(red: Reduced, c: Constants, radius: int) -> int:
    """N₂ of F29: from here the top levels of n and n + L correspond (docs/theory.md §11.11, F29)."""
    a, b = red.a, red.b
    low = max(c.period_low, group_low(red, radius))
    if red.two_sided:
        return max(low, (a + b) * (c.edge + radius + c.back))
    y = ceil(b * (radius + c.k_slope)) + 1
    return max(low, y + c.frobenius + 3 * b + 1, c.m_plus + y + b, c.frobenius + y + b + 1,
               b * (c.small + radius) + 1)


def top_rigid(steps: Sequence[int], n: int, radius: int) -> bool:
    """At this n: every automorphism of the rooted view of 0 (arcs into the positions of level ≤ D − 1,
    colours min(level, D)) that fixes every position of level ≤ D − R is the identity (BLISS, the
    low positions coloured one by one)."""
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    lev = levels(steps, n)
    d = max(lev)
    ks = sorted({s % n for s in steps} - {0})
    edges = [((v + k) % n, v) for v in range(n) if lev[v] <= d - 1 for k in ks]
    colours = [lev[v] if lev[v] > d - radius else d + 1 + v for v in range(n)]
    return count_automorphisms(digraph(n, edges), color=colours) == 1


# ---------------------------------------------------------------------------------------------
# The theorem's data

@dataclass(frozen=True)
class CirculantData:
    red: Reduced
    constants: Constants
    low_diameter: int              # N₀
    excess: tuple[int, ...]        # D(n) = ⌊n/L⌋ + excess[n mod L] for n ≥ N₀
    radius: Optional[int]          # F28's R (None: the group is not proved)
    low_group: Optional[int]
    low_layers: Optional[int]      # N₂ (None: the least count is not decided)
    extra: tuple[bool, ...]        # extra[ρ]: D + 1 layers are least for n ≡ ρ (mod L); else D
    checked_at: tuple[int, ...]    # the n of F29's check, one per residue
    onset: Optional[int] = None    # the least n₁ ≤ N₂ with the closed forms decided concretely on [n₁, N₂)

    @property
    def period(self) -> int:
        return self.red.period

    def diameter(self, n: int) -> int:
        return n // self.period + self.excess[n % self.period]

    @property
    def proved_low(self) -> int:
        """N₂ (or the largest range proved), made coprime to g."""
        low = max(x for x in (self.low_diameter, self.low_group, self.low_layers) if x is not None)
        while gcd(low, self.red.g) != 1:
            low += 1
        return low

    @property
    def low(self) -> int:
        """The stated range: the proved one, extended down to the onset where every n below it was
        decided by the concrete engine with the same values (the instance check runs at it)."""
        return self.onset if self.onset is not None else self.proved_low

    def layers(self, n: int) -> int:
        return self.diameter(n) + int(self.extra[n % self.period])


@lru_cache(maxsize=256)
def circulant_data(jumps: tuple[int, ...]) -> Optional[CirculantData]:
    """F27–F29 for the offsets ``jumps`` (integers, 0 ignored), or None when the jumps are beyond the
    computation's bounds (MAX_JUMP)."""
    red = reduce_jumps(jumps)
    if max(abs(s) for s in red.steps) > MAX_JUMP:
        return None
    c = constants(red)
    L = red.period
    low_d = c.period_low
    excess = tuple(diameter_at(red.steps, n) - n // L for n in sorted(range(low_d, low_d + L), key=lambda m: m % L))
    radius = rigid_radius(red)
    if radius is None:
        return CirculantData(red, c, low_d, excess, None, None, None, (), ())
    low_g = group_low(red, radius)
    low_l = layers_low(red, c, radius)
    if L * (low_l + L) > MAX_LAYER_WORK:
        return CirculantData(red, c, low_d, excess, radius, low_g, None, (), ())
    at = tuple(sorted(range(low_l, low_l + L), key=lambda m: m % L))
    extra = tuple(not top_rigid(red.steps, n, radius) for n in at)
    data = CirculantData(red, c, low_d, excess, radius, low_g, low_l, extra, at)
    return replace(data, onset=concrete_onset(data)) if data.proved_low <= ONSET_MAX else data


def concrete_onset(data: CirculantData) -> int:
    """The least n₁ ≤ N₂ such that at every n in [n₁, N₂) with gcd(n, g) = 1 the concrete engine (graphs,
    BLISS, rooted views) finds the closed forms' D, |G| (n or 2n) and least layer count: each such n is
    then decided by that computation, the others by F27–F29, so the values hold for n ≥ n₁; at n₁ − 1
    (coprime to g) they differ, unless n₁ = 3. Uses the reduced steps (the isomorphism of F27 (b))."""
    from ..spec import Offsets
    from .families import concrete
    pattern = Offsets(tuple(sorted(set(data.red.steps) | {0})), True)
    order = 2 if data.red.symmetric else 1
    onset = data.proved_low
    n = onset - 1
    while n >= 3:
        if gcd(n, data.red.g) == 1:
            got = concrete(pattern, n)
            if not (got.connected and got.least and got.diameter == data.diameter(n)
                    and got.order == order * n and got.layers == data.layers(n)):
                break
            onset = n
        n -= 1
    return onset
