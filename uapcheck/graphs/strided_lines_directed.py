"""`strided(s)` with non-cyclic local parts whose jumps leaving a class are not symmetric (S′ ≠ −S′, G trivial):
Theorem F114 of docs/theory.md §11.11 — D layers, least, where a finite check of the *pinning premise* succeeds.

At a length n, a root i is *non-covering* when some position u has d(u → i) = D (u is *far*); only those roots can
carry a view witness (§11.9 (R1)). The premise Q(n) asks, at every non-covering root i:

* (Q0) every residue class mod s has at least |S′| + 1 positions within distance D − 1 of i;
* (Q1) the far positions all lie within W₀ = M of one end (M = K₀·J as in F74), and the middle interval of the
  positions v with [v − Rm, v + Rm] inside 1..n and free of far positions (R F28's certificate radius, m = max|S′|)
  has at least a + b positions;
* (Q2) the *pinning closure* fixes every position: start from the positions on the far side of the last far position
  (fixed: the proof shows a witness σ is the identity there) and add a position y when σ(y) = y is forced by
  - a residue class met by exactly one unfixed position (σ keeps the classes and fixes the others),
  - a fixed v within D − 1 of i with y the only unfixed member of its residue in O(v) = (v + S′) ∩ [1, n]
    (σ(O(v)) = O(v)),
  - a fixed u and y within D − 1 of i with u ∈ O(y), y the only position of its residue in u − S′ inside 1..n.

Theorem F114: where Q(n) holds at every n from the range's start N through N₁ + s − 1 (N₁ below), D layers suffice at
every n ≥ N, so they are least. The check reads the positions within T of the ends and of the root, and a cut of s
positions away from them keeps the premise (Q(n) ⇔ Q(n + s) for n ≥ N₁).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence

SECTION = "docs/theory.md §11.11"

#: The finite check reads every length from N through N₁ + s − 1; it runs only while that is at most this, and reads
#: at most MAX_CHECK_LENGTHS lengths (a few seconds at the limit; the verifier re-runs it on its own arcs).
MAX_CHECK_TOP = 480
MAX_CHECK_LENGTHS = 120


@dataclass(frozen=True)
class DirectedSpan:
    """The constants of Theorem F114 for `strided(s) + offsets S` (S′ = the jumps leaving a class)."""
    s: int
    leaving: tuple[int, ...]
    a: int          # −min S′
    b: int          # max S′
    far: int        # M = K₀·J (F74), also the window W₀
    radius: int     # R, F28's ball certificate radius for S′
    low: int        # N, the range's start (F74)
    top: int        # N₁ + s − 1, the last length of the check

    @property
    def cut_low(self) -> int:
        """N₁ = max(N, s(M + |S′| + 1), 2T + 2M + 2s, M + 2Rm + a + b), T = M + a + b + s, m = max(a, b)."""
        return self.top - self.s + 1


def directed_span(s: int, jumps: Sequence[int], low: int, radius: int) -> DirectedSpan:
    """F114's constants: M = K₀·J, the window W₀ = M, T = M + a + b + s and N₁ as in DirectedSpan.cut_low."""
    from .strided_lines import residue_costs
    leaving = tuple(sorted(k for k in set(jumps) if k % s))
    costs = residue_costs(jumps, s)
    big = max(abs(k) for k in jumps)
    far = (max(costs.values()) + 2) * big
    a, b = -min(leaving), max(leaving)
    reach = radius * max(a, b)
    window = far + a + b + s
    first = max(low, s * (far + len(leaving) + 1), 2 * window + 2 * far + 2 * s, far + 2 * reach + a + b)
    return DirectedSpan(s, leaving, a, b, far, radius, low, first + s - 1)


def _distances(s: int, jumps: Sequence[int], n: int) -> Optional[list[list[int]]]:
    """The distance layers d(u → i) of every root i (bit p is position p), or None when not strongly connected."""
    full = (1 << (n + 1)) - 2
    from .strided_lines import line_neighbourhood

    attended = line_neighbourhood(s, jumps, n)

    result = []
    for i in range(1, n + 1):
        seen = frontier = 1 << i
        found = [frontier]
        while seen != full:
            frontier = attended(frontier) & ~seen
            if not frontier:
                return None
            seen |= frontier
            found.append(frontier)
        result.append(found)
    return result


def _positions(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def pin_closure(s: int, leaving: Sequence[int], n: int, ball: int, start: set[int]) -> set[int]:  # noqa: C901 - the three rules and their revisits in one worklist
    """The pinning closure (Theorem F114 (Q2)): the positions of 1..n a permutation σ must fix when it fixes `start`
    pointwise, keeps every residue mod s, and has σ(O(v)) = O(σv) for every v in `ball` (a bit set), O(v) =
    (v + S′) ∩ [1, n]. Rules: (α) alone in its residue outside the fixed set; (β) the only unfixed member of its
    residue in O(v) for a fixed v in the ball; (γ) in the ball, with a fixed u ∈ O(y), and the only position of its
    residue in u − S′.

    Each rule only adds positions, and a rule that fires keeps firing when more positions are fixed, so the closure
    is the least set containing `start` that no rule extends, whatever the order the rules are applied in
    (`pin_closure_by_sweeps` applies them in sweeps over 1..n until none fires; the tests compare both). Here each
    newly fixed position p revisits only the rules it can make fire: α in p's residue, β at p and at the fixed v with
    p ∈ O(v), γ at p (docs/theory.md §19)."""
    fixed = [False] * (n + 1)
    for p in start:
        if 1 <= p <= n:
            fixed[p] = True
    unfixed: dict[int, set[int]] = {}
    for p in range(1, n + 1):
        if not fixed[p]:
            unfixed.setdefault(p % s, set()).add(p)
    left = [sum(len(members) for members in unfixed.values())]
    queue: list[int] = []

    def fix(p: int) -> None:
        fixed[p] = True
        unfixed[p % s].discard(p)
        left[0] -= 1
        queue.append(p)

    def beta(v: int) -> None:  # (β) at a fixed v in the ball
        targets = [v + k for k in leaving if 1 <= v + k <= n and not fixed[v + k]]
        for y in targets:
            if not fixed[y] and sum(1 for z in targets if z % s == y % s) == 1:
                fix(y)

    def gamma(u: int) -> None:  # (γ) at a fixed u
        sources = [u - k for k in leaving if 1 <= u - k <= n]
        for y in sources:
            if not fixed[y] and ball >> y & 1 and sum(1 for z in sources if z % s == y % s) == 1:
                fix(y)

    for members in list(unfixed.values()):  # (α) before anything moves
        if len(members) == 1:
            fix(next(iter(members)))
    # every position fixed: no rule adds anything (each fixes an unfixed position)
    for v in range(1, n + 1):
        if not left[0]:
            break
        if fixed[v]:
            if ball >> v & 1:
                beta(v)
            gamma(v)
    while queue and left[0]:
        p = queue.pop()
        members = unfixed[p % s]
        if len(members) == 1:  # (α): p's residue has one unfixed position left
            fix(next(iter(members)))
        if ball >> p & 1:
            beta(p)
        for k in leaving:  # (β) at the fixed v in the ball whose O(v) holds p
            v = p - k
            if 1 <= v <= n and fixed[v] and ball >> v & 1:
                beta(v)
        gamma(p)
    return {p for p in range(1, n + 1) if fixed[p]}


def pin_closure_by_sweeps(s: int, leaving: Sequence[int], n: int, ball: int, start: set[int]) -> set[int]:
    """`pin_closure` by sweeps: every rule at every position, again until a whole sweep fixes nothing (the reference
    the tests compare the worklist with)."""
    fixed = [False] * (n + 1)
    for p in start:
        fixed[p] = True
    changed = True
    while changed:
        changed = False
        loose = [p for p in range(1, n + 1) if not fixed[p]]
        if not loose:
            break
        by_class: dict[int, list[int]] = {}
        for p in loose:
            by_class.setdefault(p % s, []).append(p)
        for members in by_class.values():
            if len(members) == 1:
                fixed[members[0]] = changed = True
        for v in range(1, n + 1):
            if not fixed[v] or not ball >> v & 1:
                continue
            targets = [v + k for k in leaving if 1 <= v + k <= n and not fixed[v + k]]
            for y in targets:
                if sum(1 for z in targets if z % s == y % s) == 1:
                    fixed[y] = changed = True
        for u in range(1, n + 1):
            if not fixed[u]:
                continue
            sources = [u - k for k in leaving if 1 <= u - k <= n]
            for y in sources:
                if not fixed[y] and ball >> y & 1 and sum(1 for z in sources if z % s == y % s) == 1:
                    fixed[y] = changed = True
    return {p for p in range(1, n + 1) if fixed[p]}


@lru_cache(maxsize=8)
def _class_bits(n: int, s: int) -> tuple[int, ...]:
    """The residue classes mod s of 1..n as bit sets (bit p is position p), by residue 0..s − 1."""
    return tuple(sum(1 << p for p in range(r if r else s, n + 1, s)) for r in range(s))


def root_problem(span: DirectedSpan, n: int, ball: int, far: int) -> Optional[str]:
    """Why the premise fails at a non-covering root with the ball (within D − 1) and far set given as bit sets on
    1..n, or None when Q0, Q1 and Q2 hold there."""
    s, leaving, a, b = span.s, span.leaving, span.a, span.b
    far_list = _positions(far)
    for r, members in enumerate(_class_bits(n, s)):
        inside = (ball & members).bit_count()  # the positions of residue r within D − 1 of the root
        if inside < len(leaving) + 1:
            return f"Q0: the residue class {r} has {inside} positions within D − 1 of the root"
    window = span.far
    reach = span.radius * max(a, b)
    if max(far_list) <= window:
        left, last = True, max(far_list)
        middle = (n - reach) - (last + reach)
    elif min(far_list) >= n + 1 - window:
        left, last = False, min(far_list)
        middle = (last - reach - 1) - (reach + 1) + 1
    else:
        return "Q1: far positions lie beyond the windows at the ends or near both ends"
    if middle < a + b:
        return "Q1: the middle interval is shorter than a + b"
    start = {p for p in range(1, n + 1) if (p > last if left else p < last)}
    fixed = pin_closure(s, leaving, n, ball, start)
    return None if len(fixed) == n else "Q2: the pinning closure leaves positions unfixed"


def length_problem(span: DirectedSpan, jumps: Sequence[int], n: int) -> Optional[str]:
    """Why Q(n) fails (the root and the clause), or None when it holds."""
    layers = _distances(span.s, jumps, n)
    if layers is None:
        return "not strongly connected"
    diameter = max(len(found) - 1 for found in layers)
    for i, found in enumerate(layers, start=1):
        if len(found) - 1 < diameter:
            continue
        ball = 0
        for level in found[:diameter]:
            ball |= level
        problem = root_problem(span, n, ball, found[diameter])
        if problem is not None:
            return f"at n = {n}, root {i}: {problem}"
    return None


@lru_cache(maxsize=64)
def directed_check(s: int, jumps: tuple[int, ...], low: int, radius: int) -> tuple[bool, str]:
    """(True, the checked span) when Q(n) holds at every n from `low` through N₁ + s − 1; else (False, why)."""
    leaving = {k for k in jumps if k % s}
    if not leaving or leaving == {-k for k in leaving}:
        return False, "S′ is symmetric (Theorems F97, F98 apply)"
    span = directed_span(s, jumps, low, radius)
    if span.top > MAX_CHECK_TOP or span.top - low + 1 > MAX_CHECK_LENGTHS:
        return False, (f"the check would read every n from {low} to {span.top}, beyond its limits (the last length "
                       f"{MAX_CHECK_TOP}, {MAX_CHECK_LENGTHS} lengths)")
    for n in range(low, span.top + 1):
        problem = length_problem(span, jumps, n)
        if problem is not None:
            return False, problem
    return True, f"checked at every n from {low} to {span.top}, and the same at n and n + {s} past {span.cut_low}"
