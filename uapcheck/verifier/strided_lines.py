"""Theorem F74 (docs/theory.md §11.11), restated for the verifier: `strided(s)` united with non-cyclic `window`,
`dilated` and `offsets` parts (jumps S, the union's arcs those of `offsets S`), where the jumps S′ = {k ∈ S : s ∤ k}
have both signs and gcd 1 and F28's ball certificate holds for S′ (radius R). For n ≥ max(N₀, N_G, s(4J + 3)),
J = max |S|, N₀ = 4·K₀·J + 2s, K₀ = c* + 2 (c* the most steps needed to change the residue mod s), N_G F41's range for
S′: G = the reflection when S′ = −S′, else trivial; D depends on n mod s only; D + 1 layers (not least).

The verifier's own jump sets, residue costs (breadth-first search on Z_s), ranges, ball certificate (nauty,
``circulant_general._ball_rigid``) and D at one length per residue from N₀ by breadth-first search on its own arcs
(out-neighbour bit sets read off ``patterns.head_arcs``).
"""
from __future__ import annotations

from functools import lru_cache
from math import gcd
from typing import Optional, Sequence

import sympy

from .. import spec as S
from . import patterns
from .circulant_general import _ball_rigid

MAX_JUMP = 40
MAX_RADIUS = 8
MAX_LOW = 2_000


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list):
    from .offsets_line import line_jumps
    strided = [q for q in parts if isinstance(q, S.Strided)]
    rest = [q for q in parts if not isinstance(q, S.Strided)]
    if len(strided) != 1 or not rest or all(isinstance(q, S.Window) for q in rest):
        return None  # a window alone is Theorems F7, F11 and F14
    s = _int(strided[0].s)
    jumps = line_jumps(rest)
    if s is None or s < 2 or jumps is None:
        return None
    found = restated(s, tuple(jumps), S.PatternUnion(tuple(parts)))
    if found is None:
        return None
    low, table, symmetric = found
    return family_by_residue("F74", s, low, table, symmetric, S.PatternUnion(tuple(parts)), sorted(set(jumps) - {0}))


def _costs(jumps: Sequence[int], s: int) -> dict[int, int]:
    """The least number of arcs j → j − k (k ∈ S) whose steps sum to r mod s, for each reachable r."""
    best = {0: 0}
    todo = [0]
    while todo:
        nxt = []
        for r in todo:
            for k in jumps:
                x = (r - k) % s
                if x not in best:
                    best[x] = best[r] + 1
                    nxt.append(x)
        todo = nxt
    return best


def diameter_on_arcs(pattern: S.Pattern, n: int) -> Optional[int]:
    """D by breadth-first search from every position on the verifier's arcs (out-neighbour bit sets)."""
    out = [0] * (n + 1)
    for j, i in patterns.head_arcs(pattern, n):
        out[j] |= 1 << i
    full = ((1 << (n + 1)) - 1) ^ 1
    worst = 0
    for v in range(1, n + 1):
        seen = frontier = 1 << v
        level = 0
        while seen != full:
            nxt = 0
            x = frontier
            while x:
                low = x & -x
                nxt |= out[low.bit_length() - 1]
                x ^= low
            frontier = nxt & ~seen
            if not frontier:
                return None
            seen |= frontier
            level += 1
        worst = max(worst, level)
    return worst


@lru_cache(maxsize=64)
def restated(s: int, jumps: tuple, pattern: S.Pattern) -> Optional[tuple[int, dict, bool]]:
    """(the range's start, D by residue of n mod s on the pattern's own arcs, S′ = −S′), or None when F74 does not
    apply."""
    vals = sorted(set(jumps) - {0})
    if not vals or max(abs(k) for k in vals) > MAX_JUMP:
        return None
    leaving = [k for k in vals if k % s]
    if not leaving or min(leaving) > 0 or max(leaving) < 0:
        return None
    g = 0
    for k in leaving:
        g = gcd(g, abs(k))
    if g != 1:
        return None
    return restate_by_residue(s, vals, leaving, 1, pattern)


def restate_by_residue(s: int, vals: list, leaving: list, r: int, pattern: S.Pattern
                       ) -> Optional[tuple[int, dict, bool]]:
    """F74's restatement from the class-changing jumps divided by their common factor r (1 for F74, 2 ≤ r < s for
    F91): the ball certificate on those steps, the range (the group's bound scaled by r) and D by residue of n mod s
    on the pattern's own arcs."""
    steps = sorted(-k for k in leaving) if -min(leaving) > max(leaving) else leaving
    symmetric = set(leaving) == {-k for k in leaving}
    a, b = -steps[0], steps[-1]
    radius = next((x for x in range(1, max(MAX_RADIUS, a + b + 2) + 1) if _ball_rigid(steps, x, symmetric)), None)
    if radius is None:
        return None
    costs = _costs(vals, s)
    if len(costs) != s:
        return None
    big = max(abs(k) for k in vals)
    low_d = 4 * (max(costs.values()) + 2) * big + 2 * s
    if low_d > MAX_LOW:
        return None
    low_g = max(r * max((radius + 1) * (a + b) + 1, 2 * max(a, b) + 1), r * s, s * (4 * big + 3))
    table = {}
    for n in range(low_d, low_d + s):
        d = diameter_on_arcs(pattern, n)
        if d is None:
            return None
        table[n % s] = d
    return max(low_d, low_g), table, symmetric


def family_by_residue(theorem: str, s: int, low: int, table: dict, symmetric: bool, pattern: S.Pattern,
                      vals: list):
    """The verifier's Family of F74 or F91: D by residue of n mod s from `table`, G the reflection or trivial, D + 1 layers."""
    from .families import Family

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(table[n % s])
        values = set(table.values())
        if len(values) == 1:
            return sympy.Integer(values.pop())
        return sympy.Piecewise(*[(sympy.Integer(table[r]), sympy.Eq(sympy.Mod(n, s), r)) for r in range(s)])

    def name(text):
        return text == ("reflection" if symmetric else "trivial")
    least, layers_by, check, text = least_layers(s, symmetric, diameter, pattern, vals, low, theorem)
    return Family(theorem, low, 0, 0, least, lambda n: sympy.Integer(2 if symmetric else 1), 1, name, None,
                  diameter_at=diameter, period=s, layers_by=layers_by, layers_check=check, layers_text=text)


def least_layers(s: int, symmetric: bool, diameter, pattern: S.Pattern, vals: list, low: int, theorem: str = "F74"):
    """(least, the layers as a function of n, the check at one instance, why) for F74, F91 and F92. Theorem F97: with
    s = 2 and S′ = −S′ the positions at distance D from a root lie in the class it misses, a clique, so D layers are
    least by the far-clique lemma, re-checked on the verifier's arcs at every instance. Theorems F98 and F99: with
    s ≥ 3 and S′ = −S′, D layers are least on the classes of n mod s where the common-neighbour premise holds and D + 1
    on those where a swap of two far positions is a view witness, when the verifier's own finite check (`least_table`)
    finds one or the other at every length from the range's start through N₁ + s − 1, each class alike; re-checked on
    its arcs at every instance. Theorem F114: for F74 with S′ ≠ −S′ (G trivial), D layers are least when the verifier's
    own check of the pinning premise (`strided_directed`) holds at every length from the range's start through
    N₁ + s − 1; the premise is re-checked on its arcs at every instance. Else D + 1, not least."""
    if not symmetric:
        from .strided_directed import directed_least, premise_problem
        top_directed = directed_least(s, vals, low, pattern) if theorem == "F74" else None
        if top_directed is None:
            return False, (lambda n: diameter(n) + 1), None, ""

        def pinned(n: int, d: int) -> Optional[str]:
            return premise_problem(pattern, s, vals, n)
        return True, diameter, pinned, (f"D layers least (Theorem F114: the pinning premise holds at every length from "
                                        f"{low} to {top_directed} on the verifier's own arcs, past which it repeats "
                                        f"with period {s}; re-checked on its arcs at every instance)")
    if s == 2:
        from .blocks_dilated_chains import far_clique_problem

        def clique(n: int, d: int) -> Optional[str]:
            return far_clique_problem(pattern, n, d)
        return True, diameter, clique, ("D layers least (Theorem F97: with two residue classes and symmetric jumps "
                                        "the positions at distance D from a root lie in the other class, pairwise "
                                        "adjacent, re-checked on the verifier's arcs at every instance; the far-clique "
                                        "lemma)")
    found = least_table(s, vals, low)
    if found is None:
        return False, (lambda n: diameter(n) + 1), None, ""
    top, extra = found

    def layers(n):
        if isinstance(n, int):
            return diameter(n) + extra[n % s]
        return diameter(n) + sympy.Piecewise(*[(sympy.Integer(extra[r]), sympy.Eq(sympy.Mod(n, s), r))
                                                for r in range(s - 1)], (sympy.Integer(extra[s - 1]), True))

    def check(n: int, d: int) -> Optional[str]:
        if extra[n % s]:
            return swap_witness_problem(pattern, n, d)
        return common_neighbour_problem(pattern, n, d)
    plus = sorted(r for r in range(s) if extra[r])
    return True, layers, check, (f"the least layers D + {{1 at n mod {s} ∈ {plus}, else 0}} (Theorems F98 and F99: at "
                                 "every length from {low} to {top} on the verifier's own graph — past which both "
                                 f"properties repeat with period {s} — either far positions are adjacent exactly when "
                                 "they have a common neighbour within D − 1 of the root, or two far positions with the "
                                 "same neighbours there are not twins; re-checked on its arcs at every instance)"
                                 ).replace("{low}", str(low)).replace("{top}", str(top))

#: Theorem F98: the verifier re-runs the finite check only up to this last length (the engine's limit too).
MAX_CHECK_TOP = 720


def least_table(s: int, vals: list, low: int) -> Optional[tuple[int, dict]]:
    """Theorems F98 and F99 restated: (the last length of the finite check, N₁ + s − 1 with N₁ = max(low, 16M + 4s),
    M = K₀·J from the verifier's own residue costs; per residue of n mod s, 0 where the common-neighbour premise holds
    and 1 where a swap of two far positions is a view witness) when every length from `low` through it is one or the
    other on the verifier's own graph of `strided(s) + offsets S`, each residue class alike; else None."""
    costs = _costs(vals, s)
    far = (max(costs.values()) + 2) * max(abs(k) for k in vals)
    top = max(low, 16 * far + 4 * s) + s - 1
    if top > MAX_CHECK_TOP:
        return None
    extra: dict = {}
    for n in range(low, top + 1):
        rings = _rings(s, vals, n)
        if rings is None:
            return None
        around = _closed_neighbourhoods(s, vals, n)
        if _premise_rings(rings, around, n):
            found = 0
        elif _swap_rings(rings, around):
            found = 1
        else:
            return None
        if extra.setdefault(n % s, found) != found:
            return None
    return top, extra


def class_table(s: int, vals: list, low: int, top: int) -> Optional[dict]:
    """Per residue r of n mod s, what every length n ≡ r from `low` through `top` shows on the verifier's own graph of
    `strided(s) + offsets S`: (D, 0) where the common-neighbour premise holds at each, (D, 1) where a swap of two far
    positions is a view witness at each (the premise failing), (D, None) where neither holds at some length or the two
    are mixed; None when some length is not strongly connected or D differs within a class. Theorem F120 reads it
    for `window(w) + strided(s)` class by class (Theorems F98, F99 there read it for every class at once)."""
    table: dict = {}
    for n in range(low, top + 1):
        rings = _rings(s, vals, n)
        if rings is None:
            return None
        d = max(len(r) for r in rings) - 1
        around = _closed_neighbourhoods(s, vals, n)
        found = 0 if _premise_rings(rings, around, n) else 1 if _swap_rings(rings, around) else None
        was = table.setdefault(n % s, (d, found))
        if was[0] != d:
            return None
        if was[1] != found:
            table[n % s] = (d, None)
    return table


def _far_parts(rings: list):
    d = max(len(r) for r in rings) - 1
    for ring in rings:
        if len(ring) - 1 == d:
            yield sum(ring[:d]), ring[d]


def _premise_rings(rings: list, around: list, n: int) -> bool:
    """At every root (all of them), two positions at the largest distance D are adjacent iff a position within D − 1
    of the root is adjacent to both (bit v − 1 is position v)."""
    for ball, far in _far_parts(rings):
        for u in (v for v in range(n) if far >> v & 1):
            reach = 0
            common = ball & around[u]
            while common:
                z = (common & -common).bit_length() - 1
                common &= common - 1
                reach |= around[z]
            if (reach ^ around[u]) & far & ~(1 << u):
                return False
    return True


def _swap_rings(rings: list, around: list) -> bool:
    """Some root has two positions at distance D with the same neighbours in its ball that are not twins."""
    for ball, far in _far_parts(rings):
        seen: dict = {}
        for u in (v for v in range(far.bit_length()) if far >> v & 1):
            seen.setdefault(around[u] & ball, []).append(u)
        for group in seen.values():
            if any((around[x] ^ around[y]) & ~(1 << x | 1 << y) for a, x in enumerate(group) for y in group[a + 1:]):
                return True
    return False


def swap_witness_problem(pattern: S.Pattern, n: int, d: int) -> Optional[str]:
    """Theorem F99 at one instance on the verifier's arcs: some root has two positions at distance d whose
    neighbourhoods agree on the positions within d − 1 of it and differ elsewhere (their swap is a view witness with d
    layers). None when one is found."""
    arcs = patterns.head_arcs(pattern, n)
    outs = patterns.union_out([arcs], n)
    near = [frozenset(o) | {v} for v, o in enumerate(outs)]
    for root in range(1, n + 1):
        found = patterns.bfs(outs, root)
        dist = [d + 1 if x is None else x for x in found]
        ball = frozenset(v for v in range(1, n + 1) if dist[v] <= d - 1)
        groups: dict = {}
        for v in range(1, n + 1):
            if dist[v] == d:
                groups.setdefault(near[v] & ball, []).append(v)
        for group in groups.values():
            for a, x in enumerate(group):
                for y in group[a + 1:]:
                    if near[x] - {x, y} != near[y] - {x, y}:
                        return None
    return f"n = {n}: no swap of two positions at distance {d} from a root is a view witness"


def _closed_neighbourhoods(s: int, vals: list, n: int) -> list[int]:
    """Bit v − 1 of entry v − 1 and of its neighbours: the residue class mod s and the jumps inside 1..n."""
    out = []
    for v in range(n):
        bits = sum(1 << x for x in range(v % s, n, s)) | 1 << v
        for k in vals:
            if 0 <= v + k < n:
                bits |= 1 << (v + k)
        out.append(bits)
    return out


def _rings(s: int, vals: list, n: int) -> Optional[list[list[int]]]:
    """Per root, the bit sets of the positions at distance 0, 1, 2, … (None when some position is not reached)."""
    mask = (1 << n) - 1
    same = [sum(1 << x for x in range(c, n, s)) for c in range(s)]
    rings = []
    for root in range(n):
        seen = edge = 1 << root
        ring = [edge]
        while seen != mask:
            grown = edge
            for k in vals:
                grown |= (edge << k if k > 0 else edge >> -k) & mask
            for c in same:
                if c & edge:
                    grown |= c
            edge = grown & ~seen
            if not edge:
                return None
            seen |= edge
            ring.append(edge)
        rings.append(ring)
    return rings


def common_neighbour_problem(pattern: S.Pattern, n: int, d: int) -> Optional[str]:
    """The common-neighbour premise at one instance on the verifier's arcs (``patterns.head_arcs``): symmetric, diameter
    d, and far pairs adjacent exactly when they have a common neighbour within d − 1 of the root. None when it holds."""
    arcs = patterns.head_arcs(pattern, n)
    if any((i, j) not in arcs for j, i in arcs):
        return f"n = {n}: the pattern is not symmetric"
    outs = patterns.union_out([arcs], n)
    near = [set(o) | {v} for v, o in enumerate(outs)]
    for root in range(1, n + 1):
        found = patterns.bfs(outs, root)
        dist = [d + 1 if x is None else x for x in found]
        if any(x > d for x in dist[1:]):
            return f"n = {n}: a position is farther than {d} from {root}"
        ball = {v for v in range(1, n + 1) if dist[v] <= d - 1}
        far = [v for v in range(1, n + 1) if dist[v] == d]
        for k, u in enumerate(far):
            for v in far[k + 1:]:
                shared = bool(near[u] & near[v] & ball)
                if (v in near[u]) != shared:
                    return (f"n = {n}: positions {u}, {v} at distance {d} from {root} are "
                            f"{'adjacent' if v in near[u] else 'not adjacent'} but "
                            f"{'have' if shared else 'have no'} common neighbour within distance {d - 1}")
    return None
