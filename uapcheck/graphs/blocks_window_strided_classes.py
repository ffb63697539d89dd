"""`blocks(b) + window(w) + strided(s)` with the block shorter than the stride (3 ≤ b < s, 1 ≤ w ≤ b − 2) at symbolic
n: Theorem F93 of docs/theory.md §11.11.

u ~ v iff u, v share a block, or |u − v| ≤ w, or s | u − v. The local part Λ = `blocks(b) + window(w)` joins positions
less than b < s apart, never two of one residue class, so (for n ≥ s(4b − 1)) the classes are the maximal cliques of
more than 4b − 2 positions, every automorphism maps classes onto classes and keeps Λ, and G = Aut(Λ) ∩ {maps keeping
the classes}. Aut(Λ) is Theorem F21's (the twin runs of consecutive positions, each with its symmetric group, with
the reflection when b | n), and each run holds fewer than s consecutive positions, so at most one of each class: a
product of the runs' permutations keeps the classes iff it moves the classes by one permutation π of Z_s that keeps
the residue set of every run, in every run alike. So |G| = ∏ |A|! over the *atoms* A (the classes sorted by which
runs' residue sets hold them), times 2 when b | n, constant by residue of n mod P = lcm(b, s). D depends on n mod P
only (F74 (a)'s argument with the residues mod P), read off one n per residue by breadth-first search. D + 1 layers
suffice; Theorem F110 proves them least on the classes of n mod P where a swap of two positions at distance D from a
root with the same neighbours within D − 1 (not twins) exists at every length from the range's start through
N₁ + P − 1 (F99's cut argument with P for s carries it to every n); Theorem F113 proves D layers least on the
classes where the class-piece premise holds at every length of the same check (the far positions' classes are read
off the positions within D − 1, and two far positions of different classes are adjacent iff a position within D − 1
in neither's class is adjacent to both, so every permutation meeting the witness condition is an automorphism);
whether D do on the remaining classes is open.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial, lcm
from typing import Callable, Optional

import sympy
from sympy import Integer

from . import bit_rings
from .strided_lines import bitset_diameter, class_masks

SECTION = "docs/theory.md §11.11"
MAX_PERIOD = 120     # P = lcm(b, s): one breadth-first search and one order per residue of n mod P
MAX_LOW = 1200       # the range's start (the searches run on that many positions)


@dataclass(frozen=True)
class BlocksWindowStrided:
    b: int
    w: int
    s: int
    period: int                  # P = lcm(b, s)
    diameter_low: int            # N₀ = 4M + 2P, M = K₀(b − 1), K₀ = ⌈⌊s/2⌋/w⌉ + 2
    group_low: int               # max(3b + 1, s(4b − 1), P + 4b)
    diameters: tuple[int, ...]   # D at n ≡ 0..P − 1 (mod P)
    orders: tuple[int, ...]      # |G| at n ≡ 0..P − 1 (mod P)

    @property
    def low(self) -> int:
        return max(self.diameter_low, self.group_low)


def applies(b, w, s) -> bool:
    return (all(isinstance(x, int) for x in (b, w, s)) and 3 <= b < s and 1 <= w <= b - 2
            and lcm(b, s) <= MAX_PERIOD)


def lows(b: int, w: int, s: int) -> tuple[int, int]:
    """(N₀, N_G): the diameter's period from N₀ (F74 (a) with P; every distance at most K₀), the group from N_G (F21's
    range, the classes as the cliques above 4b − 2 positions, and P/b middle blocks for the runs' residue sets)."""
    period = lcm(b, s)
    k0 = -(-(s // 2) // w) + 2
    return 4 * k0 * (b - 1) + 2 * period, max(3 * b + 1, s * (4 * b - 1), period + 4 * b)


@lru_cache(maxsize=64)
def decide(b: int, w: int, s: int) -> Optional[BlocksWindowStrided]:
    if not applies(b, w, s):
        return None
    period = lcm(b, s)
    low_d, low_g = lows(b, w, s)
    start = max(low_d, low_g)
    if start > MAX_LOW:
        return None
    diameters = [0] * period
    orders = [0] * period
    for n in range(start, start + period):
        d = diameter_at(n, b, w, s)
        if d is None:
            return None
        diameters[n % period] = d
        orders[n % period] = order_at(n, b, w, s)
    return BlocksWindowStrided(b, w, s, period, low_d, low_g, tuple(diameters), tuple(orders))


def diameter_at(n: int, b: int, w: int, s: int) -> Optional[int]:
    """D on 1..n by breadth-first search from every position on bit sets (bit p − 1 is position p; the window's arcs
    by shifts, a block or a class met by the frontier taken whole); None when not strongly connected."""
    blocks = [((1 << min(b, n - k)) - 1) << k for k in range(0, n, b)]
    window = [k for k in range(1, w + 1)] + [-k for k in range(1, w + 1)]
    return bitset_diameter(n, window, blocks + class_masks(n, s))


def atoms_at(n: int, b: int, w: int, s: int) -> list[list[int]]:
    """The classes mod s grouped by the runs whose residue sets hold them (F21's twin runs of blocks(b) + window(w))."""
    from .symbolic_unions import twin_classes
    sets = [frozenset(p % s for p in range(lo, hi + 1)) for lo, hi in twin_classes(n, b, w, 0)]
    grouped: dict[tuple[bool, ...], list[int]] = {}
    for x in range(s):
        grouped.setdefault(tuple(x in part for part in sets), []).append(x)
    return sorted(grouped.values())


def order_at(n: int, b: int, w: int, s: int) -> int:
    out = 2 if n % b == 0 else 1
    for atom in atoms_at(n, b, w, s):
        out *= factorial(len(atom))
    return out


#: Theorem F110: the swap check runs through N₁ + P − 1 only when that is at most this.
MAX_SWAP_TOP = 720


def swap_top(b: int, w: int, s: int, low: int) -> int:
    """The last length of Theorem F110's check: N₁ + P − 1, N₁ = max(N, 16M + 4P), M = K₀(b − 1) (F93's constants)."""
    period = lcm(b, s)
    k0 = -(-(s // 2) // w) + 2
    return max(low, 16 * k0 * (b - 1) + 4 * period) + period - 1


def closed_neighbourhoods(n: int, b: int, w: int, s: int) -> list[int]:
    """Entry p (1..n): the bit set (bit q − 1 is position q) of p and its neighbours: its block, the positions within
    w, its residue class mod s (the arcs of `blocks(b) + window(w) + strided(s)`, any b, w, s)."""
    out = [0] * (n + 1)
    classes = class_masks(n, s)
    for p in range(1, n + 1):
        start = (p - 1) // b * b + 1
        bits = ((1 << (min(start + b - 1, n) - start + 1)) - 1) << (start - 1)
        bits |= ((1 << (min(p + w, n) - max(p - w, 1) + 1)) - 1) << (max(p - w, 1) - 1)
        out[p] = bits | classes[p % s]
    return out


def swap_witness(n: int, b: int, w: int, s: int, diameter: int) -> Optional[tuple[int, int, int]]:
    """Theorem F110 (F99's W(n)) at the length n: (root, x, y) with x ≠ y at distance D from the root, the same
    neighbours within distance D − 1 of it, and N[x] ∖ {x, y} ≠ N[y] ∖ {x, y} (so their swap is a view witness with D
    layers); roots near the ends first. None when no root has one."""
    near = closed_neighbourhoods(n, b, w, s)
    full = (1 << n) - 1
    for root in sorted(range(1, n + 1), key=lambda r: (min(r, n + 1 - r), -r)):
        rings = bit_rings.rings(near, n, root)
        if rings is None:
            return None  # not strongly connected (outside the theorem's range)
        if len(rings) - 1 != diameter:
            continue
        ball = full & ~rings[diameter]
        groups: dict[int, list[int]] = {}
        rest = rings[diameter]
        while rest:
            low = rest & -rest
            groups.setdefault(near[low.bit_length()] & ball, []).append(low.bit_length())
            rest ^= low
        for group in groups.values():
            for k, x in enumerate(group):
                for y in group[k + 1:]:
                    if (near[x] ^ near[y]) & ~((1 << (x - 1)) | (1 << (y - 1))):
                        return root, x, y
    return None


def closure(n: int, b: int, w: int, s: int) -> Callable[[int], int]:
    """The closed neighbourhood of a bit set (bit p − 1 is position p) in `blocks(b) + window(w) + strided(s)` on 1..n:
    the union of `closed_neighbourhoods` over its positions, made by whole-set operations: the window's shifts, each
    block's other positions by shifts inside the block (a shift by k keeps the positions whose block holds the one k
    further), every residue class the set meets."""
    full = (1 << n) - 1
    # down[k]: bit i with i + k in i's block (and below n); up[k]: bit i with i − k in i's block
    down = [sum(1 << i for i in range(n) if i % b + k < b and i + k < n) for k in range(b)]
    up = [sum(1 << i for i in range(n) if i % b >= k) for k in range(b)]
    classes = class_masks(n, s)
    shifts = range(1, b)
    steps = range(1, w + 1)

    def closed(bits: int) -> int:
        out = bits
        for k in steps:
            out |= bits >> k | bits << k
        out &= full
        for k in shifts:
            out |= (bits >> k) & down[k] | (bits << k) & up[k]
        for cls in classes:
            if bits & cls:
                out |= cls
        return out

    return closed


def _shift(bits: int, k: int) -> int:
    """Bit i of the result is bit i + k of `bits` (k of either sign; bits below 0 dropped, none above added)."""
    return bits >> k if k >= 0 else bits << -k


class _LocalPairs:
    """The local arcs of `blocks(b) + window(w) + strided(s)` on 1..n (u ~ v with u ≢ v mod s: a block's or the
    window's) by offset, for Theorem F113's premise read on whole sets. L(u) = N[u] ∖ (u's class).

    ``adjacent[δ]``: the bit set of u (bit u − 1) with u + δ ∈ L(u). ``through[δ]``: the pairs (ε, T) with T the u such
    that u + ε ∈ L(u) and u + δ ∈ L(u + ε) (a local path u → u + ε → u + δ), for the offsets δ ≢ 0 (mod s) that some
    such path or arc has. ``most``: the most positions of any L(u), so at least the most of one class in one."""

    def __init__(self, n: int, near: list[int], classes: list[int], s: int) -> None:
        adjacent: dict[int, int] = {}
        most = 0
        for u in range(1, n + 1):
            loc = near[u] & ~classes[u % s]
            most = max(most, loc.bit_count())
            for v in bit_rings.members(loc):
                adjacent[v - u] = adjacent.get(v - u, 0) | 1 << (u - 1)
        self.adjacent = adjacent
        self.most = most
        reach = max(map(abs, adjacent), default=0)
        self.through: dict[int, list[tuple[int, int]]] = {}
        for d in range(-2 * reach, 2 * reach + 1):
            if d % s == 0:
                continue  # the far v of u's own class are not compared
            pairs = []
            for e in adjacent:
                if e != d and d - e in adjacent:
                    mask = adjacent[e] & _shift(adjacent[d - e], e)
                    if mask:
                        pairs.append((e, mask))
            if pairs or d in adjacent:
                self.through[d] = pairs

    def joins_alike(self, far: int, ball: int) -> bool:
        """(P2) for the far set F and the ball B: for u, v = u + δ in F with δ ≢ 0 (mod s), u + δ ∈ L(u) iff some ε has
        u + ε ∈ B on a local path u → u + ε → u + δ."""
        shifted: dict[int, int] = {}
        for d, paths in self.through.items():
            both = far & _shift(far, d)  # u ∈ F with u + δ ∈ F
            if not both:
                continue
            said = 0
            for e, mask in paths:
                got = shifted.get(e)
                if got is None:
                    got = shifted[e] = _shift(ball, e)
                said |= mask & got
            if both & (said ^ self.adjacent.get(d, 0)):
                return False
        return True


def piece_premise(n: int, b: int, w: int, s: int, diameter: int) -> bool:
    """Theorem F113's premise at the length n: at every root i, with the far positions those at distance D and the
    *pieces* the non-empty sets (a residue class mod s) ∩ B_i, B_i the positions within D − 1: (P1) every far u has
    its own class's piece non-empty and no other piece inside N[u]; (P2) two far positions u ≢ v (mod s) are adjacent
    iff some z ∈ B_i in neither's class is adjacent to both (z then lies in the local neighbourhood of both).

    Read on whole sets, not per far position. The rings of distances come from whole-set steps (`closure`). (P1) per
    class: every far u has its class's piece iff every class meeting the far positions has a piece; for u of another
    class, N[u] ∩ (the class) is the part of L(u) (its block's and window's positions) in the class, so a piece inside
    N[u] has at most `most` positions, and then it is inside N[u] iff u lies in N[p] for every p of the piece (the arcs
    are symmetric). (P2) per offset δ = v − u: a z in neither's class adjacent to both is a local path u → z → v (z ∉ L
    of its own class), so with F the far positions and B the ball, the u ∈ F with v = u + δ ∈ F, v ≢ u, fail iff
    u + δ ∈ L(u) differs from "some ε with u + ε ∈ B on a local path u → u + ε → u + δ"."""
    near = closed_neighbourhoods(n, b, w, s)
    closed = closure(n, b, w, s)
    full = (1 << n) - 1
    classes = class_masks(n, s)
    pairs = _LocalPairs(n, near, classes, s)
    most = pairs.most
    for root in range(1, n + 1):
        rings = bit_rings.rings_by(closed, n, root)
        if rings is None:
            return False  # not strongly connected (outside the theorem's range)
        if len(rings) - 1 < diameter:
            continue  # every position within D − 1: no far position at this root
        if len(rings) - 1 != diameter:
            return False
        far = rings[diameter]
        ball = full & ~far
        for cls in classes:
            piece = cls & ball
            if not piece:
                if far & cls:
                    return False  # (P1): a far position without its class's piece
                continue
            if piece.bit_count() > most:
                continue  # inside no N[u] of another class
            inside = far & ~cls  # the far u of other classes with the piece inside N[u] so far
            rest = piece
            while rest and inside:
                low = rest & -rest
                inside &= near[low.bit_length()]
                rest ^= low
            if inside:
                return False  # (P1)
        if not pairs.joins_alike(far, ball):
            return False  # (P2)
    return True


def coarsest_classes(period: int, residues) -> tuple[int, tuple[int, ...]]:
    """(L, the residues mod L): the least divisor L of `period` such that the residues mod `period` are exactly the
    n with n mod L among them."""
    kept = set(residues)
    for modulus in sorted(d for d in range(1, period + 1) if period % d == 0):
        coarse = {r % modulus for r in kept}
        if {r for r in range(period) if r % modulus in coarse} == kept:
            return modulus, tuple(sorted(coarse))
    return period, tuple(sorted(kept))


def _classes_through_check(b: int, w: int, s: int, kept: Optional[frozenset], holds) -> frozenset:
    """The residues of n mod P among `kept` (all of them when None) where `holds(n, D)` at every length from the
    range's start through N₁ + P − 1 (Theorem F110's check; a class is dropped at its first length without it); empty
    when the family is not decided or the check is beyond MAX_SWAP_TOP."""
    data = decide(b, w, s)
    if data is None:
        return frozenset()
    top = swap_top(b, w, s, data.low)
    if top > MAX_SWAP_TOP:
        return frozenset()
    alive = set(range(data.period)) if kept is None else set(kept)
    for n in range(data.low, top + 1):
        r = n % data.period
        if r in alive and not holds(n, data.diameters[r]):
            alive.discard(r)
    return frozenset(alive)


@lru_cache(maxsize=64)
def swap_residues(b: int, w: int, s: int) -> frozenset:
    """Theorem F110: the residues of n mod P where every length from the range's start through N₁ + P − 1 has a swap
    witness (`swap_witness`), so D + 1 layers are least at every n of those classes in the range; empty when there are
    none or the check is beyond MAX_SWAP_TOP."""
    return _classes_through_check(b, w, s, None, lambda n, d: swap_witness(n, b, w, s, d) is not None)


@lru_cache(maxsize=64)
def premise_residues(b: int, w: int, s: int) -> frozenset:
    """Theorem F113: the residues of n mod P outside F110's where every length from the range's start through
    N₁ + P − 1 (F110's check) has the class-piece premise (`piece_premise`), so D layers suffice, and are least, at
    every n of those classes in the range; empty when there are none or the check is beyond MAX_SWAP_TOP."""
    data = decide(b, w, s)
    if data is None:
        return frozenset()
    return _classes_through_check(b, w, s, frozenset(range(data.period)) - swap_residues(b, w, s),
                                  lambda n, d: piece_premise(n, b, w, s, d))


def swap_classes(b: int, w: int, s: int) -> tuple:
    """Theorem F110's classes written mod the least L that carries them: (L, residues), or () when there are none."""
    data = decide(b, w, s)
    alive = swap_residues(b, w, s)
    return coarsest_classes(data.period, alive) if data is not None and alive else ()


def least_classes(b: int, w: int, s: int) -> tuple:
    """The classes where the count is least, F110's (D + 1) with F113's (D), written mod the least L that carries
    them: (L, residues), or () when there are none."""
    data = decide(b, w, s)
    alive = swap_residues(b, w, s) | premise_residues(b, w, s)
    return coarsest_classes(data.period, alive) if data is not None and alive else ()


def layers_by_residue(data: BlocksWindowStrided) -> dict[int, int]:
    """The count at n ≡ r (mod P): D on F113's classes, D + 1 on the others (least on F110's)."""
    fit = premise_residues(data.b, data.w, data.s)
    return {r: data.diameters[r] + (0 if r in fit else 1) for r in range(data.period)}


def coarsest_values(period: int, values: dict[int, int]) -> tuple[int, dict[int, int]]:
    """(L, values mod L): the least divisor L of `period` such that the value at r depends on r mod L only."""
    for modulus in sorted(d for d in range(1, period + 1) if period % d == 0):
        if all(values[r] == values[r % modulus] for r in range(period)):
            return modulus, {r: values[r] for r in range(modulus)}
    return period, dict(values)


def swap_words(b: int, w: int, s: int, classes: tuple) -> str:
    """Why D + 1 layers are least on the classes of Theorem F110 (and sufficient on the others)."""
    data = decide(b, w, s)
    assert data is not None
    modulus, residues = classes
    top = swap_top(b, w, s, data.low)
    every = modulus == 1
    return (f"Theorem F110: for {_where(modulus, residues)} some position has two positions at distance D with the "
            "same neighbours within distance D − 1 of it that are not twins, so their swap is a view witness and D "
            f"layers are not enough (checked at every such length from {data.low} through {top}, and carried to every "
            f"larger n by the cut argument with the period {data.period}); D + 1 layers suffice by the view argument"
            + ("" if every else "; on the other classes whether D layers suffice is open (Theorem F93)"))


def _where(modulus: int, residues) -> str:
    from ..groups import class_condition
    from ..show import show_condition
    if modulus == 1:
        return "every n"
    return show_condition(class_condition(sympy.Symbol("n", integer=True, positive=True), modulus, residues))


def least_words(b: int, w: int, s: int) -> str:
    """Why the count is least on F110's classes (D + 1) and F113's (D), and sufficient on the others."""
    data = decide(b, w, s)
    assert data is not None
    top = swap_top(b, w, s, data.low)
    swaps, fits = swap_residues(b, w, s), premise_residues(b, w, s)
    said = []
    if swaps:
        said.append(f"Theorem F110: for {_where(*coarsest_classes(data.period, swaps))} some position has two "
                    "positions at distance D with the same neighbours within distance D − 1 of it that are not twins, "
                    "so their swap is a view witness and D layers are not enough; D + 1 layers suffice by the view "
                    "argument")
    said.append(f"Theorem F113: for {_where(*coarsest_classes(data.period, fits))}, at every position, the positions "
                "at distance D are adjacent when they share a residue class mod "
                f"{s} (read off the class's positions within distance D − 1, the only class all inside their "
                "neighbourhood) or when a position within distance D − 1 of neither's class is adjacent to both, so "
                "every permutation keeping the neighbourhoods within distance D − 1 is a symmetry: D layers suffice")
    rest = set(range(data.period)) - swaps - fits
    return ("; ".join(said) + f" (each checked at every such length from {data.low} through {top}, and carried to "
            f"every larger n by the cut argument with the period {data.period})"
            + ("; on the other classes D + 1 layers suffice and whether D do is open (Theorem F93)" if rest else ""))


def _group_words(data: BlocksWindowStrided, n) -> str:
    b, s = data.b, data.s
    if isinstance(n, (int, Integer)):
        rep = data.low + (int(n) - data.low) % data.period  # a length of n's residue in the range: the same runs' sets
        moved = [a for a in atoms_at(rep, b, data.w, s) if len(a) > 1]
        base = (" × ".join(f"S_{len(a)} on the residues {{{', '.join(map(str, a))}}} mod {s}" for a in moved)
                + " (the positions of those residues permuted alike in every twin run of the blocks and window)"
                if moved else "")
        turn = "the reflection i ↦ n + 1 − i" if int(n) % b == 0 else ""
        return " × ".join(x for x in (base, turn) if x) or "trivial"
    if all(order == (2 if m % b == 0 else 1) for m, order in enumerate(data.orders)):
        return f"the reflection i ↦ n + 1 − i when {b} | n, else trivial"
    return (f"the permutations of the residue classes mod {s} that keep the residues of every twin run of "
            f"blocks({b}) + window({data.w}), applied alike in every run, × the reflection i ↦ n + 1 − i when "
            f"{b} | n, by residue of {sympy.sstr(n)} mod {data.period}")


def theorem(n, data: BlocksWindowStrided):
    """F93 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    P = data.period
    if isinstance(n, (int, Integer)):
        diameter: sympy.Expr = Integer(data.diameters[int(n) % P])
        order: sympy.Expr = Integer(data.orders[int(n) % P])
    else:
        diameter = _residue_pieces(n, P, {m: data.diameters[m] for m in range(P)}, Integer)
        order = _residue_pieces(n, P, {m: data.orders[m] for m in range(P)}, Integer, explicit=True)
    words = _group_words(data, n)
    group = "trivial" if words == "trivial" else ("reflection" if words == "the reflection i ↦ n + 1 − i" else words)
    symbolic = isinstance(n, sympy.Symbol)
    classes = swap_classes(data.b, data.w, data.s)
    fits = premise_residues(data.b, data.w, data.s)
    found = FamilyTheorem(
        "F93", "blocks(b) + window(w) + strided(s), 3 ≤ b < s, 1 ≤ w ≤ b − 2",
        (("b", Integer(data.b)), ("w", Integer(data.w)), ("s", Integer(data.s))), Integer(data.low), diameter,
        group, order, (), diameter + 1, False,
        "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F93)",
        open_question=(f"whether D layers suffice for blocks(b) + window(w) + strided(s) with b < s is not proved "
                       f"({SECTION}, Theorem F93; the concrete engine finds D at some residues of n mod "
                       f"{P} and D + 1 at others)"))
    if not symbolic:  # the count of n's class (Theorems F110 and F113 read at the length)
        return at_length(found, data, int(n))
    from dataclasses import replace
    if fits:  # Theorem F113: D on its classes, D + 1 on the others (least on F110's)
        modulus, values = coarsest_values(P, layers_by_residue(data))
        layers = _residue_pieces(n, modulus, values, Integer)
        on = least_classes(data.b, data.w, data.s)
        why = least_words(data.b, data.w, data.s)
        if on[0] == 1:
            return replace(found, layers=layers, least=True, why_layers=why, open_question="")
        return replace(found, layers=layers, least_classes=on, why_layers=why,
                       open_question=found.open_question.replace(
                           "is not proved", "is not proved off the classes where Theorems F110 and F113 prove the "
                           "count least"))
    if not classes:
        return found
    why = swap_words(data.b, data.w, data.s, classes)
    if classes[0] == 1:
        return replace(found, least=True, why_layers=why, open_question="")
    return replace(found, least_classes=classes, why_layers=why, open_question=found.open_question.replace(
        "is not proved", "is not proved off the classes where Theorem F110 proves D + 1 least"))


def at_length(found, data: BlocksWindowStrided, n: int):
    """F93 at the integer length n (in its range): the count of n's class of n mod P, D layers least on Theorem F113's
    classes, D + 1 least on Theorem F110's, D + 1 sufficient on the others (`found`, F93's count)."""
    from dataclasses import replace
    b, w, s, period = data.b, data.w, data.s, data.period
    r = n % period
    fits, swaps = premise_residues(b, w, s), swap_residues(b, w, s)
    if r not in fits and r not in swaps:
        return found
    top = swap_top(b, w, s, data.low)
    modulus, residues = coarsest_classes(period, fits if r in fits else swaps)
    where = (f"n = {n:,} has {_where(modulus, residues)}" if modulus > 1 else f"at every n (n = {n:,})")
    checked = (f" (checked at every such length from {data.low} through {top}, and carried to every larger n by the cut "
               f"argument with the period {period})")
    if r in fits:
        return replace(found, layers=Integer(data.diameters[r]), least=True, open_question="",
                       why_layers=f"Theorem F113: {where}, where {_PIECE_WORDS.format(s=s)}{checked}")
    return replace(found, least=True, open_question="", why_layers=f"Theorem F110: {where}, where {_SWAP_WORDS}{checked}")


#: Theorem F110's and F113's premises in words (the layers' method at a concrete n)
_SWAP_WORDS = ("some position has two positions at distance D with the same neighbours within distance D − 1 of it that "
               "are not twins, so their swap is a view witness and D layers are not enough; D + 1 layers suffice by the "
               "view argument")
_PIECE_WORDS = ("at every position, the positions at distance D are adjacent when they share a residue class mod {s} (read "
                "off the class's positions within distance D − 1, the only class all inside their neighbourhood) or "
                "when a position within distance D − 1 of neither's class is adjacent to both, so every permutation "
                "keeping the neighbourhoods within distance D − 1 is a symmetry: D layers suffice, and they are least")
