"""Theorem F64 (docs/theory.md §11.11), restated for the verifier: `blocks(s) + window(w) + strided(s)`, integers
w ≥ 1, s ≥ max(2w + 1, w + 3), for n ≥ s(s + 1): D = 2; |G| = 2·(s − 2w)! when s | n, else a!·(s − 2w − a)! with a
the interior offsets {w + 1, …, s − w} that the last block holds; 3 layers, least: the exchange of the blocks 3 and 4
is re-checked on the verifier's arcs at every instance (no symmetry, and no neighbourhood within distance 1 of
position w + 1 changed). The instance check re-checks D and the order at a whole period of n mod s.

Theorem F93: `blocks(b) + window(w) + strided(s)` with 3 ≤ b < s, 1 ≤ w ≤ b − 2 (P = lcm(b, s) ≤ 120), for n ≥
max(4K₀(b − 1) + 2P, 3b + 1, s(4b − 1), P + 4b), K₀ = ⌈⌊s/2⌋/w⌉ + 2: D and |G| depend on n mod P only; G = the
permutations of the classes mod s keeping the residue set of every twin class of `blocks(b) + window(w)`, applied in
every twin class alike (|G| = ∏ |atom|!), times the reflection when b | n; D + 1 layers, least on the classes of
n mod P where Theorem F110's swap check (restated here on the verifier's own bit sets) succeeds at every length from
the range's start through N₁ + P − 1; Theorem F113: D layers, least, on the classes where the class-piece premise
(restated here on the verifier's own bit sets: the far positions' classes read off the ball, and two far positions of
different classes adjacent iff a ball position of neither's class is adjacent to both) holds at every length of the
same check, re-checked on the verifier's arcs at every instance of those classes; D + 1, not least, on the others
(at a concrete length the count of its class of n mod P, least where F110 or F113 holds on that class). The verifier's own
range, D at one length per residue by breadth-first search on its own arcs, and the order from its own twin classes
(equal closed neighbourhoods on its own arcs of the blocks and the window, not assumed to be runs); the instance check
compares both with BFS and nauty over a whole period of n mod P.

Theorem F94: `blocks(b) + window(w) + strided(s)` with b > s ≥ 2w + 1, for n ≥ max(s(b + 2w + 2⌈(b + 2w)/s⌉ + 1),
(2L + 4)b), L = s/gcd(b, s): D = 2; |G| = C_t·A^⌊n/P⌋ by residue t of n mod P = lcm(b, s); 3 layers, least: the
exchange of the L blocks from the block 3 on with the next L is a view witness at the theorem's root. The verifier's
own range and root; the order at one length n₀ of each residue from its own twin classes (equal closed
neighbourhoods on its own arcs) and nauty on the quotient coloured by the classes' sizes, A from n₀ and n₀ + P; the
exchange re-checked on its own arcs at every instance (no symmetry, no neighbourhood within distance 1 of the root
changed).

Theorem F100: `blocks(b) + window(w) + strided(s)` with b ≥ s, w + 2 ≤ s ≤ 2w, for n ≥ max(s(b + 2w + 2⌈(b + 2w)/s⌉ +
1), 4b + 1): D = 2; |G| = C_t·A^⌊n/P⌋ by residue t of n mod P; 3 layers, least when b > s: the swap of b − s and b is
a view witness at the verifier's own root (the first position of the fourth block whose class is none of b, …, b + w
mod s); 3 sufficient, not least, when b = s.
The order as for F94 (its own twin classes and nauty on the quotient at n₀ and n₀ + P); the swap re-checked on its own
arcs at every instance.

Theorem F119: `blocks(b) + window(w) + strided(s)` with b ≥ s, b ≥ w + 2, 2 ≤ s ≤ w + 1 (P ≤ 60, b ≤ 16), for n ≥
max(s(4b − 1), P + 6b, 6b + w): D = 2; |G| = 2^[b | n]·∏ |T|! over the twin classes, C_t·A^⌊n/P⌋ by residue t of
n mod P. The verifier restates the certificate on its own arcs: (C1) every clique of at least b positions meeting two
classes is a whole block (its own Bron–Kerbosch on the positions within 2(b − 1) of each checked position), (C2)
nauty's orbits on every checked block with its neighbouring blocks (coloured by block, a vertex per class) stay inside
twin classes, at the first P + 4b positions of n₀ and the last P + 4b of each n₀ + t; the order from its own twin
classes and nauty on the quotient at n₀ and n₀ + P; 3 layers, least when the verifier's own search finds a swap of two
positions of the first four blocks changing no neighbourhood within distance 1 of a root among them (re-checked on its
own arcs at every instance), else sufficient; with s = 2, 2 layers least (F119 (d): the positions at distance 2 from a
root lie in the other class, pairwise adjacent, re-checked on its own arcs at every instance: the far-clique lemma).
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial
from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .named_structure import interval


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list, tokens=None):
    if sorted(type(q).__name__ for q in parts) != ["Blocks", "Strided", "Window"]:
        return None
    win = next(q for q in parts if isinstance(q, S.Window))
    b = _int(next(q for q in parts if isinstance(q, S.Blocks)).b)
    s = _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    w = _int(win.w)
    if win.cyclic or b is None or s is None or w is None:
        return None
    if 3 <= b < s and 1 <= w <= b - 2:
        return _shorter_blocks_family(b, w, s, S.PatternUnion(tuple(parts)), _int(tokens))
    if b > s >= 2 * w + 1 and w >= 1:
        return _longer_blocks_family(b, w, s, S.PatternUnion(tuple(parts)))
    if b >= s and w + 2 <= s <= 2 * w:
        return _wide_window_family(b, w, s, S.PatternUnion(tuple(parts)))
    if b >= s and b >= w + 2 and 2 <= s <= w + 1:
        return _twins_family(b, w, s, S.PatternUnion(tuple(parts)))
    if b != s or w < 1 or s < max(2 * w + 1, w + 3):
        return None
    return _family(s, w, S.PatternUnion(tuple(parts)))


def _shorter_blocks_family(b: int, w: int, s: int, pattern: S.Pattern, tokens: Optional[int] = None):
    """Theorem F93's Family, or None beyond the restatement's limits (P > 120, the range above 1,200). At a concrete
    length (`tokens`) the count is that of its class of n mod P: D, least, on Theorem F113's classes, D + 1, least, on
    Theorem F110's, D + 1, not least, on the others (one least flag, no classes)."""
    from math import lcm

    from .families import Family, ResidueLength
    from .strided_lines import diameter_on_arcs
    period = lcm(b, s)
    k0 = (s // 2 + w - 1) // w + 2
    low = max(4 * k0 * (b - 1) + 2 * period, 3 * b + 1, s * (4 * b - 1), period + 4 * b)
    if period > 120 or low > 1200:
        return None
    diameters, orders = {}, {}
    for n in range(low, low + period):
        d = diameter_on_arcs(pattern, n)
        if d is None:
            return None
        diameters[n % period] = d
        orders[n % period] = _class_maps(n, b, w, s)

    def residue(n) -> int:
        return n.rho % period if isinstance(n, ResidueLength) else int(n) % period

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(diameters[n % period])
        values = set(diameters.values())
        if len(values) == 1:
            return sympy.Integer(values.pop())
        return sympy.Piecewise(*[(sympy.Integer(diameters[r]), sympy.Eq(sympy.Mod(n, period), r))
                                 for r in range(period)])

    def name(text):  # the order is compared residue by residue; the name only has to be this theorem's wording
        return text in ("trivial", "reflection") or "reflection i ↦ n + 1 − i" in text or (
            f"mod {s}" in text and "twin run" in text)

    least, classes, check = _swap_classes(b, w, s, low, period, diameters, pattern)
    swaps = {r for r in range(period) if r % classes[0] in classes[1]} if classes else set(range(period)) if least \
        else set()
    fits = set(_premise_residues(b, w, s, low, period, tuple(sorted(diameters.items())), frozenset(swaps)))
    where = "every n" if least else f"n mod {classes[0]} in {list(classes[1])}" if classes else ""
    text = (f"D + 1 layers least for {where} (Theorem F110: at every length of those classes from {low} through "
            "N₁ + P − 1, on the verifier's own bit sets, two positions at distance D from a root with the same "
            "neighbours within D − 1 that are not twins; their swap re-checked on the verifier's arcs at every "
            "instance of those classes)" + ("" if least or fits else ", D + 1 not claimed least on the other classes")
            if where else "")
    counts = {r: diameters[r] + (0 if r in fits else 1) for r in range(period)}  # D on F113's classes, else D + 1

    def layers_by(n):
        if not fits:
            return diameter(n) + 1
        if isinstance(n, int):
            return sympy.Integer(counts[n % period])
        return sympy.Piecewise(*[(sympy.Integer(counts[r]), sympy.Eq(sympy.Mod(n, period), r)) for r in range(period)])

    if fits:  # Theorem F113: D layers, least, on these classes
        kept = swaps | fits
        least = len(kept) == period
        modulus = min(m for m in range(1, period + 1) if period % m == 0
                      and all((r in kept) == (r % m in {k % m for k in kept}) for r in range(period)))
        classes = () if least else (modulus, tuple(sorted({k % modulus for k in kept})))
        swap_check = check

        def check(n: int, d: int) -> Optional[str]:
            if n % period in fits:
                return None if _premise_on(_near_on_arcs(pattern, n), n, s, d) else \
                    f"n = {n}: the class-piece premise of Theorem F113 fails on the verifier's arcs"
            return swap_check(n, d) if swap_check is not None else None
        fit_mod = min(m for m in range(1, period + 1) if period % m == 0
                      and all((r in fits) == (r % m in {k % m for k in fits}) for r in range(period)))
        text = ((text + "; " if text else "") + f"D layers least for n mod {fit_mod} in "
                f"{sorted({k % fit_mod for k in fits})} (Theorem F113: "
                f"at every length of those classes from {low} through N₁ + P − 1, on the verifier's own bit sets, "
                "every position at distance D from a root has its own class and no other among the positions within "
                "D − 1 inside its neighbourhood, and two of different classes are adjacent iff a position within "
                "D − 1 of neither's class is adjacent to both; re-checked on the verifier's arcs at every instance "
                "of those classes)" + ("" if least else ", D + 1 not claimed least on the other classes"))
    # at a concrete length, the count of its class: least where F110 or F113 holds on it (one flag, no classes)
    least, classes, at_length = _at_length(tokens, period, swaps, fits) or (least, classes, "")
    return Family("F93", low, 0, 0, least, lambda n: sympy.Integer(orders[residue(n)]), period, name, None,
                  diameter_at=diameter, period=period, layers_by=layers_by, least_classes=classes,
                  layers_check=check, layers_text=text, length_text=at_length)


def _at_length(tokens: Optional[int], period: int, swaps: set, fits: set) -> Optional[tuple]:
    """At a concrete length n ≡ r (mod P): (least, no classes, what the count rests on: Theorem F113's class, F110's, or
    neither); None at symbolic n."""
    if tokens is None:
        return None
    r = tokens % period
    return r in swaps or r in fits, (), f"n ≡ {r} (mod {period}): " + (
        "D layers least by Theorem F113 (its class-piece premise holds on the verifier's own bit sets at every length "
        "of this class in the check)" if r in fits else
        "D + 1 layers least by Theorem F110 (a swap witness on the verifier's own bit sets at every length of this "
        "class in the check)" if r in swaps else
        "D + 1 layers, not least: neither Theorem F110 nor F113 holds on this class")


@lru_cache(maxsize=32)
def _premise_residues(b: int, w: int, s: int, low: int, period: int, by_residue: tuple, swaps: frozenset) -> frozenset:
    """Theorem F113 restated: the residues of n mod P outside F110's (`swaps`) where every length from `low` through
    the verifier's own N₁ + P − 1 has the class-piece premise on the verifier's own bit sets (`by_residue`: the pairs
    (r, D at n ≡ r)); empty past SWAP_TOP."""
    diameters = dict(by_residue)
    k0 = (s // 2 + w - 1) // w + 2
    top = max(low, 16 * k0 * (b - 1) + 4 * period) + period - 1
    if top > SWAP_TOP:
        return frozenset()
    kept = set(range(period)) - swaps
    for n in range(low, top + 1):
        if n % period in kept and not _premise_on(_near_by_rule(n, b, w, s), n, s, diameters[n % period]):
            kept.discard(n % period)
    return frozenset(kept)


def _near_by_rule(n: int, b: int, w: int, s: int) -> list:
    """Entry v (0..n − 1, position v + 1): the bit set of v's block, the positions within w and v's class mod s."""
    everything = (1 << n) - 1
    same_class = [0] * s
    for u in range(n):
        same_class[u % s] |= 1 << u
    return [(((1 << b) - 1) << (v // b * b) | ((1 << (2 * w + 1)) - 1) << v >> w | same_class[v % s]) & everything
            for v in range(n)]


def _near_on_arcs(pattern: S.Pattern, n: int) -> list:
    """The same bit sets read off the verifier's arcs of the pattern (both directions, and v itself)."""
    near = [1 << v for v in range(n)]
    for j, i in patterns.head_arcs(pattern, n):
        near[i - 1] |= 1 << (j - 1)
        near[j - 1] |= 1 << (i - 1)
    return near


def _premise_on(near: list, n: int, s: int, d: int) -> bool:
    """Theorem F113's premise on the bit sets `near` (bit v is position v + 1; the class of v is v + 1 mod s): at every
    root, every far position (distance d) has a non-empty piece of its own class among the positions within d − 1 and
    no other class's piece inside its neighbourhood, and two far positions of different classes are adjacent iff some
    position within d − 1, in neither's class, is adjacent to both."""
    everything = (1 << n) - 1
    same_class = [0] * s
    for v in range(n):
        same_class[(v + 1) % s] |= 1 << v

    def each(bits: int):
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low
    for root in range(n):
        reached, shell, depth = 1 << root, 1 << root, 0
        while reached != everything and depth < d:
            grown = 0
            for v in each(shell):
                grown |= near[v]
            shell = grown & ~reached
            reached |= shell
            depth += 1
        if reached != everything:
            return False  # beyond the diameter d
        if depth < d:
            continue  # every position within d − 1
        inner = everything & ~shell
        pieces = [c & inner for c in same_class]
        for u in each(shell):
            mine = (u + 1) % s
            if not pieces[mine] or any(p and not p & ~near[u] for r, p in enumerate(pieces) if r != mine):
                return False
            joined = 0
            for z in each(near[u] & inner & ~same_class[mine]):
                joined |= near[z] & ~same_class[(z + 1) % s]
            if (joined ^ near[u]) & shell & ~same_class[mine]:
                return False
    return True


#: Theorem F110: the verifier re-runs the swap check only up to this last length (the engine's limit too).
SWAP_TOP = 720


def _swap_classes(b: int, w: int, s: int, low: int, period: int, diameters: dict, pattern: S.Pattern) -> tuple:
    """Theorem F110 restated: (least on every class, (L, residues) of the classes where it is least, the instance
    check). The verifier's own last length N₁ + P − 1 (N₁ = max(low, 16M + 4P), M = K₀(b − 1)) and, at every length
    from `low` through it, its own search for two positions at distance D from a root with the same neighbours within
    D − 1 that are not twins; a class of n mod P is kept when every length of it has one."""
    from .strided_lines import swap_witness_problem
    k0 = (s // 2 + w - 1) // w + 2
    top = max(low, 16 * k0 * (b - 1) + 4 * period) + period - 1
    if top > SWAP_TOP:
        return False, (), None
    kept = set(range(period))
    for n in range(low, top + 1):
        if n % period in kept and not _has_swap(n, b, w, s, diameters[n % period]):
            kept.discard(n % period)
    if not kept:
        return False, (), None
    modulus = min(m for m in range(1, period + 1) if period % m == 0
                  and all((r in kept) == (r % m in {k % m for k in kept}) for r in range(period)))
    residues = tuple(sorted({k % modulus for k in kept}))

    def check(n: int, d: int) -> Optional[str]:
        return swap_witness_problem(pattern, n, d) if n % modulus in residues else None
    if modulus == 1:
        return True, (), check
    return False, (modulus, residues), check


def _has_swap(n: int, b: int, w: int, s: int, d: int) -> bool:
    """On the verifier's own bit sets (bit v is position v + 1): some root, tried from the ends inwards, has two
    positions at distance d with equal neighbours among the positions within d − 1 and unequal neighbourhoods outside
    the pair."""
    everything = (1 << n) - 1
    same_class = [0] * s
    for u in range(n):
        same_class[u % s] |= 1 << u
    around = []
    for v in range(n):
        block = ((1 << b) - 1) << (v // b * b)  # the positions of v's block (cut at n below)
        window = ((1 << (2 * w + 1)) - 1) << v >> w  # v − w … v + w (cut at 0 by the shift, at n below)
        around.append((block | window | same_class[v % s]) & everything)
    for root in sorted(range(n), key=lambda v: min(v, n - 1 - v)):
        reached, shell, depth = 1 << root, 1 << root, 0
        while reached != everything and depth < d:
            grown = 0
            for v in range(n):
                if shell >> v & 1:
                    grown |= around[v]
            shell = grown & ~reached
            reached |= shell
            depth += 1
        if depth != d or reached != everything:
            continue
        inner = everything & ~shell
        by_view: dict = {}
        for v in range(n):
            if shell >> v & 1:
                by_view.setdefault(around[v] & inner, []).append(v)
        for group in by_view.values():
            if any((around[x] ^ around[y]) & ~(1 << x | 1 << y) for k, x in enumerate(group) for y in group[k + 1:]):
                return True
    return False


def _class_maps(n: int, b: int, w: int, s: int) -> int:
    """|G| at n: the twin classes of `blocks(b) + window(w)` on the verifier's arcs (equal closed neighbourhoods), the
    classes mod s grouped by which twin classes' residue sets hold them, ∏ |group|!, times 2 when b | n."""
    local = patterns.head_arcs(S.PatternUnion((S.Blocks(b), S.Window(w))), n)
    closed: dict = {v: {v} for v in range(1, n + 1)}
    for j, i in local:
        closed[i].add(j)
        closed[j].add(i)
    twins: dict = {}
    for v in range(1, n + 1):
        twins.setdefault(frozenset(closed[v]), []).append(v)
    sets = [frozenset(v % s for v in cls) for cls in twins.values()]
    if any(len(x) != len(cls) for x, cls in zip(sets, twins.values())):
        return 0  # two positions of one class in a twin class: outside the restatement (cannot happen for b < s)
    groups: dict = {}
    for x in range(s):
        key = tuple(x in part for part in sets)
        groups[key] = groups.get(key, 0) + 1
    out = 2 if n % b == 0 else 1
    for size in groups.values():
        out *= factorial(size)
    return out


def _count(n: int, s: int, w: int) -> int:
    rho = n % s
    if rho == 0:
        return 2 * factorial(s - 2 * w)
    held = len([c for c in range(w + 1, s - w + 1) if c <= rho])
    return factorial(held) * factorial(s - 2 * w - held)


def exchange_problem(pattern: S.Pattern, n: int, s: int, w: int) -> Optional[str]:
    perm = list(range(1, n + 1))
    for t in range(1, s + 1):
        perm[2 * s + t - 1], perm[3 * s + t - 1] = 3 * s + t, 2 * s + t
    return _view_witness_problem(pattern, n, perm, w + 1, "the block exchange", "the exchange")


def _view_witness_problem(pattern: S.Pattern, n: int, perm: list[int], root: int, named: str, short: str
                          ) -> Optional[str]:
    """None when the permutation is not a symmetry of the pattern at n and changes no neighbourhood within distance 1
    of the root (a view witness against 2 layers, on the verifier's arcs); else what fails, `named` and `short`
    naming the permutation."""
    heads = [patterns.head_arcs(pattern, n)]
    arcs = heads[0]
    if all((perm[u - 1], perm[v - 1]) in arcs for u, v in arcs):
        return f"n = {n}: {named} is a symmetry"
    dist = patterns.bfs(patterns.union_out(heads, n), root)
    near = [v for v in patterns.view_bad_positions(perm, heads, n) if dist[v] is not None and dist[v] <= 1]
    if near:
        return f"n = {n}: position {near[0]}, whose neighbourhood {short} changes, is within 1 of position {root}"
    return None


def _family(s: int, w: int, pattern: S.Pattern):
    from .families import Family, ResidueLength
    low = s * (s + 1)

    def order(n):
        rho = (n.rho % s) if isinstance(n, ResidueLength) else int(n) % s
        return sympy.Integer(_count(rho + s * low, s, w))

    def name(text):
        return f"interior offsets {interval(w + 1, s - w)}" in text and "reflection" in text
    return Family("F64", low, 2, 3, True, order, s, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=s,  # a whole period re-checked, past MAX_INSTANCE_N
                  layers_check=lambda n, d: exchange_problem(pattern, n, s, w),
                  layers_text=(f"3 layers least (Theorem F64): exchanging the blocks {interval(2 * s + 1, 3 * s)} and "
                               f"{interval(3 * s + 1, 4 * s)} keeps every neighbourhood within distance 1 of position "
                               f"{w + 1} and is not in G (checked on the verifier's arcs at every instance); D + 1 = 3 "
                               "suffice"))


def _growth_base(pattern: S.Pattern, low: int, period: int) -> Optional[dict]:
    """By n mod the period: (n₀, |G| at n₀, the factor |G(n₀ + P)|/|G(n₀)|) at the lengths low..low + P − 1, from the
    verifier's twin-quotient counts; None when a factor is not an integer."""
    base = {}
    for n in range(low, low + period):
        first, second = _twin_quotient_order(pattern, n), _twin_quotient_order(pattern, n + period)
        if first == 0 or second % first:
            return None
        base[n % period] = (n, first, second // first)
    return base


def _grown_order(base: dict, period: int):
    """|G| at a length or a residue class: |G(n₀)| times the factor once a period past n₀ (F94, F100)."""
    from .families import ResidueLength

    def order(n):
        if isinstance(n, ResidueLength):
            n0, at, grow = base[n.rho % period]
            periods = sympy.floor((n.n - n0) / period)   # n − n₀ is a multiple of P in the class
            return sympy.Integer(at) * sympy.Integer(grow) ** periods
        n0, at, grow = base[int(n) % period]
        return sympy.Integer(at * grow ** ((int(n) - n0) // period))
    return order


def _longer_blocks_family(b: int, w: int, s: int, pattern: S.Pattern):
    """Theorem F94's Family, or None beyond the restatement's limits (P > 60, the range above 600)."""
    from math import gcd, lcm

    from .families import Family
    period, chunk = lcm(b, s), (s // gcd(b, s)) * b
    low = max(s * (b + 2 * w + 2 * ((b + 2 * w + s - 1) // s) + 1), 2 * chunk + 4 * b)
    if period > 60 or low > 600:
        return None
    base = _growth_base(pattern, low, period)
    if base is None:
        return None
    near = {(2 * b + t) % s for t in range(-w + 1, w + 1)}
    root = next(c for c in range(1, b + 1) if c % s not in near)

    order = _grown_order(base, period)

    def name(text):
        return f"cells (one block, one residue class mod {s})" in text

    return Family("F94", low, 2, 3, True, order, period, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=period,
                  layers_check=lambda n, d: _chunk_problem(pattern, n, b, chunk, root),
                  layers_text=(f"3 layers least (Theorem F94): exchanging the blocks {interval(2 * b + 1, 2 * b + chunk)} "
                               f"with {interval(2 * b + chunk + 1, 2 * b + 2 * chunk)} keeps every neighbourhood within "
                               f"distance 1 of position {root} and is not in G (checked on the verifier's arcs at every "
                               "instance); D + 1 = 3 suffice"))


def _wide_window_family(b: int, w: int, s: int, pattern: S.Pattern):
    """Theorem F100's Family (b ≥ s, w + 2 ≤ s ≤ 2w), or None beyond the restatement's limits (P > 60, the range above
    600)."""
    from math import lcm

    from .families import Family
    period = lcm(b, s)
    low = max(s * (b + 2 * w + 2 * ((b + 2 * w + s - 1) // s) + 1), 4 * b + 1)
    if period > 60 or low > 600:
        return None
    base = _growth_base(pattern, low, period)
    if base is None:
        return None
    # the swap's pair and the positions that see one of them only have the residues b, …, b + w mod s: the root is
    # the verifier's own, the first position of the fourth block in none of them
    seen_by_one = {(b + t) % s for t in range(w + 1)}
    root = next(p for p in range(3 * b + 1, 4 * b + 1) if p % s not in seen_by_one)

    order = _grown_order(base, period)

    def name(text):
        return "reflection i ↦ n + 1 − i" in text and (
            b <= 2 * w + 1 or f"cells (one block, one residue class mod {s})" in text)

    if b == s:   # 3 layers suffice; whether 2 do is open
        return Family("F100", low, 2, 3, False, order, period, name, None,
                      diameter_at=lambda n: sympy.Integer(2), period=period)
    return Family("F100", low, 2, 3, True, order, period, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=period,
                  layers_check=lambda n, d: _swap_problem(pattern, n, b - s, b, root),
                  layers_text=(f"3 layers least (Theorem F100): swapping {b - s} and {b} keeps every neighbourhood "
                               f"within distance 1 of position {root} and is not in G (checked on the verifier's arcs "
                               "at every instance); D + 1 = 3 suffice"))


def _swap_problem(pattern: S.Pattern, n: int, x: int, y: int, root: int) -> Optional[str]:
    perm = list(range(1, n + 1))
    perm[x - 1], perm[y - 1] = y, x
    return _view_witness_problem(pattern, n, perm, root, f"the swap of {x} and {y}", "the swap")


def _twin_quotient_order(pattern: S.Pattern, n: int) -> int:
    """|Aut| at n: ∏ |T|! over the twin classes (equal closed neighbourhoods on the verifier's arcs) times the
    automorphisms of the quotient (a vertex per class, adjacent when their positions are) keeping the classes' sizes,
    by nauty and Schreier–Sims."""
    import pynauty

    from .groups import order as group_order
    closed: dict = {v: {v} for v in range(1, n + 1)}
    for j, i in patterns.head_arcs(pattern, n):
        closed[i].add(j)
        closed[j].add(i)
    twins: dict = {}
    for v in range(1, n + 1):
        twins.setdefault(frozenset(closed[v]), []).append(v)
    classes = list(twins.values())
    k = len(classes)
    adjacency = {a: [c for c in range(k) if c != a and classes[c][0] in closed[classes[a][0]]] for a in range(k)}
    cells = [set(a for a in range(k) if len(classes[a]) == size) for size in sorted({len(c) for c in classes})]
    graph = pynauty.Graph(k, directed=False, adjacency_dict=adjacency, vertex_coloring=cells)
    gens = [[p[v] + 1 for v in range(k)] for p in pynauty.autgrp(graph)[0]]
    out = group_order(gens, k) if gens else 1
    for c in classes:
        out *= factorial(len(c))
    return out


def _chunk_problem(pattern: S.Pattern, n: int, b: int, chunk: int, root: int) -> Optional[str]:
    perm = list(range(1, n + 1))
    for p in range(2 * b + 1, 2 * b + chunk + 1):
        perm[p - 1], perm[p + chunk - 1] = p + chunk, p
    return _view_witness_problem(pattern, n, perm, root, "the exchange of blocks", "the exchange")


def _closed_sets(pattern: S.Pattern, n: int) -> dict:
    closed: dict = {v: {v} for v in range(1, n + 1)}
    for j, i in patterns.head_arcs(pattern, n):
        closed[i].add(j)
        closed[j].add(i)
    return closed


def _maximal_cliques(clique: set, candidates: set, excluded: set, closed: dict):
    """The maximal cliques holding `clique` among `candidates` (Bron–Kerbosch on sets, pivoting on the position with
    the most candidates among its neighbours)."""
    if not candidates and not excluded:
        yield clique
        return
    pivot = max(sorted(candidates | excluded), key=lambda p: len(candidates & closed[p]))
    for v in sorted(candidates - (closed[pivot] - {pivot})):
        yield from _maximal_cliques(clique | {v}, candidates & closed[v] - {v}, excluded & closed[v] - {v}, closed)
        candidates = candidates - {v}
        excluded = excluded | {v}


def _twin_certificate(pattern: S.Pattern, n: int, b: int, s: int, starts: bool) -> bool:
    """F119's (C1) and (C2) on the verifier's arcs at the length n (the last P + 4b positions, and with `starts`
    the first P + 4b)."""
    from math import lcm

    import pynauty
    closed = _closed_sets(pattern, n)
    twin_of: dict = {}
    for v in range(1, n + 1):
        twin_of[v] = frozenset(closed[v])
    span = lcm(b, s) + 4 * b
    checked = set(range(max(1, n - span), n + 1)) | (set(range(1, min(n, span) + 1)) if starts else set())
    whole = {frozenset(range(k + 1, k + b + 1)) for k in range(0, n - b + 1, b)}
    for u in sorted(checked):
        near = set(range(max(1, u - 2 * b + 2), min(n, u + 2 * b - 2) + 1))
        for clique in _maximal_cliques({u}, (closed[u] & near) - {u}, set(), closed):
            if len(clique) >= b and len({v % s for v in clique}) > 1 and frozenset(clique) not in whole:
                return False
    for k in sorted({(u - 1) // b for u in checked}):
        rows = [j for j in (k - 1, k, k + 1) if 0 <= j * b < n]
        members = [v for j in rows for v in range(j * b + 1, min(n, j * b + b) + 1)]
        at = {v: i for i, v in enumerate(members)}
        m = len(members)
        adjacency: dict = {i: [] for i in range(m + s)}
        for x in members:
            adjacency[at[x]] += [at[y] for y in members if y > x and y in closed[x]]
            adjacency[at[x]].append(m + x % s)
        cells = [set(at[v] for v in members if (v - 1) // b == j) for j in rows] + [set(range(m, m + s))]
        graph = pynauty.Graph(m + s, directed=False, adjacency_dict=adjacency, vertex_coloring=cells)
        orbits = pynauty.autgrp(graph)[3]
        own = [v for v in range(k * b + 1, min(n, k * b + b) + 1)]
        for x in own:
            for y in own:
                if orbits[at[x]] == orbits[at[y]] and twin_of[x] != twin_of[y]:
                    return False
    return True


def _twins_swap(pattern: S.Pattern, n: int, b: int) -> Optional[tuple[int, int, int]]:
    """(root, x, y) in the first four blocks: x, y not adjacent to the root, the swap no symmetry (their neighbourhoods
    off the pair differ), and no position adjacent to the root or the root itself adjacent to exactly one of them."""
    closed = _closed_sets(pattern, n)
    for root in range(1, 4 * b + 1):
        ball = closed[root]
        far = [x for x in range(1, 4 * b + 1) if x not in ball]
        for i, x in enumerate(far):
            for y in far[i + 1:]:
                if ((closed[x] ^ closed[y]) - {x, y}) & ball:
                    continue
                if closed[x] - {x, y} == closed[y] - {x, y}:
                    continue
                return root, x, y
    return None


def _twins_family(b: int, w: int, s: int, pattern: S.Pattern):
    """Theorem F119's Family (b ≥ s, b ≥ w + 2, s ≤ w + 1), or None beyond the restatement's limits (P > 60, b > 16, the
    range above 600) or where the verifier's own certificate check fails."""
    from math import lcm

    from .families import Family, ResidueLength
    period = lcm(b, s)
    low = max(s * (4 * b - 1), period + 6 * b, 6 * b + w)
    if period > 60 or b > 16 or low > 600:
        return None
    base = {}
    for n in range(low, low + period):
        if not _twin_certificate(pattern, n, b, s, starts=n == low):
            return None
        first, second = _twin_quotient_order(pattern, n), _twin_quotient_order(pattern, n + period)
        if first == 0 or second % first:
            return None
        base[n % period] = (n, first, second // first)
    found = _twins_swap(pattern, low, b)

    def order(n):
        if isinstance(n, ResidueLength):
            n0, at, grow = base[n.rho % period]
            return sympy.Integer(at) * sympy.Integer(grow) ** sympy.floor((n.n - n0) / period)
        n0, at, grow = base[int(n) % period]
        return sympy.Integer(at * grow ** ((int(n) - n0) // period))

    def name(text):  # the symbolic wording, or the group at an integer n by structure (its order is compared)
        return ("reflection i ↦ n + 1 − i" in text and "twin classes" in text) or text == "trivial" or (
            text.startswith("S_") or text == "the reflection i ↦ n + 1 − i")

    if s == 2:   # F119 (d): the far positions lie in the other class, a clique (the far-clique lemma)
        from .blocks_dilated_chains import far_clique_problem
        return Family("F119", low, 2, 2, True, order, period, name, None,
                      diameter_at=lambda n: sympy.Integer(2), period=period,
                      layers_check=lambda n, d: far_clique_problem(pattern, n, d),
                      layers_text=("D = 2 layers least (Theorem F119 (d)): with two residue classes the positions at "
                                   "distance 2 from a root lie in the other class, pairwise adjacent (re-checked on the "
                                   "verifier's arcs at every instance); the far-clique lemma"))
    if found is None:   # 3 layers suffice; whether 2 do is open
        return Family("F119", low, 2, 3, False, order, period, name, None,
                      diameter_at=lambda n: sympy.Integer(2), period=period)
    root, x, y = found
    from .families import _swap
    return Family("F119", low, 2, 3, True, order, period, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=period,
                  quoted_witness=lambda n: (root, _swap(n, x, y)),  # a step quoting a witness quotes this one
                  layers_check=lambda n, d: _swap_problem(pattern, n, x, y, root),
                  layers_text=(f"3 layers least (Theorem F119): swapping {x} and {y} keeps every neighbourhood "
                               f"within distance 1 of position {root} and is not in G (checked on the verifier's arcs "
                               "at every instance); D + 1 = 3 suffice"))
