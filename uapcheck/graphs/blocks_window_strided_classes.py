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
suffice; whether D do is open.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial, lcm
from typing import Optional

import sympy
from sympy import Integer

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
        diameters[n % period] = diameter_at(n, b, w, s)
        orders[n % period] = order_at(n, b, w, s)
    return BlocksWindowStrided(b, w, s, period, low_d, low_g, tuple(diameters), tuple(orders))


def diameter_at(n: int, b: int, w: int, s: int) -> int:
    """D on 1..n by breadth-first search from every position on bit sets (bit p − 1 is position p; the window's arcs
    by shifts, a block or a class met by the frontier taken whole)."""
    full = (1 << n) - 1
    classes = [sum(1 << (p - 1) for p in range(r if r else s, n + 1, s)) for r in range(s)]
    blocks = [((1 << min(b, n - k)) - 1) << k for k in range(0, n, b)]
    worst = 0
    for j in range(1, n + 1):
        seen = frontier = 1 << (j - 1)
        level = 0
        while seen != full:
            nxt = 0
            for k in range(1, w + 1):
                nxt |= (frontier >> k) | (frontier << k)
            nxt &= full
            for part in blocks:
                if frontier & part:
                    nxt |= part
            for part in classes:
                if frontier & part:
                    nxt |= part
            frontier = nxt & ~seen
            seen |= frontier
            level += 1
        worst = max(worst, level)
    return worst


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
    return FamilyTheorem(
        "F93", "blocks(b) + window(w) + strided(s), 3 ≤ b < s, 1 ≤ w ≤ b − 2",
        (("b", Integer(data.b)), ("w", Integer(data.w)), ("s", Integer(data.s))), Integer(data.low), diameter,
        group, order, (), diameter + 1, False,
        "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F93)",
        open_question=(f"whether D layers suffice for blocks(b) + window(w) + strided(s) with b < s is not proved "
                       f"({SECTION}, Theorem F93; the concrete engine finds D at some residues of n mod "
                       f"{P} and D + 1 at others)"))
