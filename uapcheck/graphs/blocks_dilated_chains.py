"""`blocks(b) + dilated(w, r)` with 2 ≤ r, 2wr ≤ b at symbolic n: Theorem F95 of docs/theory.md §11.11.

With L = wr, the dilation's jumps jr ≤ L ≤ b/2 join a block only to its neighbours: the last L positions of a
block (its *right ports*, offsets b − L + a, a = 1..L) to the first L of the next (its *left ports*, offsets
y = 1..L), right port a to left port y exactly when a ≡ y (mod r) and a ≥ y: r disjoint half graphs, one per
residue class mod r. So Γ is a chain of cliques K_b joined by these *junctions*, and the positions of a block with
no arc leaving it are twins. F95, for n ≥ 2b: D = 2⌈n/b⌉ − 2 when 1 ≤ n mod b ≤ L, else 2⌈n/b⌉ − 1; G = the
permutations that keep every block and, at each junction, permute its r residue classes (a class's right and left
ports moved together), with the permutations of each block's positions that no arc leaves, and the reflection
i ↦ n + 1 − i when b | n; D layers, least (the positions at distance D from a root lie in one block: the far-clique
lemma).

Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial

import sympy
from sympy import Integer

SECTION = "docs/theory.md §11.11"


def applies(b, w, r) -> bool:
    return all(isinstance(x, int) for x in (b, w, r)) and r >= 2 and w >= 1 and 2 * w * r <= b


def low(b: int) -> int:
    """F95's range: n ≥ 2b (two whole blocks; with a partial block, three blocks in all)."""
    return 2 * b


def diameter_at(n: int, b: int, w: int, r: int) -> int:
    blocks, rho = -(-n // b), n % b
    return 2 * blocks - 2 if 1 <= rho <= w * r else 2 * blocks - 1


def last_junction_order(rho: int, w: int, r: int) -> int:
    """|Aut| (sides kept) of the junction between the last whole block and a partial block of ρ positions, over
    its classes that reach the partial block: the classes with equal numbers ℓ of left ports are exchanged, and
    a class's right ports adjacent to all ℓ of them (w − ℓ + 1) are twins."""
    reach = min(rho, w * r)
    counts = [len(range(c, reach + 1, r)) for c in range(1, r + 1)]
    out = 1
    for ell in set(counts) - {0}:
        out *= factorial(counts.count(ell)) * factorial(w - ell + 1) ** counts.count(ell)
    return out


def order_at(n: int, b: int, w: int, r: int) -> int:
    """|G| at one length n ≥ 2b (F95 (b))."""
    ell, m, rho = w * r, n // b, n % b
    inner = factorial(b - 2 * ell) ** (m - 2) * factorial(r) ** (m - 1)
    if rho == 0:
        return 2 * factorial(b - ell) ** 2 * inner
    unreached = max(0, r - rho)  # classes with no left port in the partial block: their right ports are twins
    return (factorial(b - ell) * inner * factorial(b - 2 * ell + w * unreached) * last_junction_order(rho, w, r)
            * factorial(max(0, rho - ell)))


def block_factor(b: int, w: int, r: int) -> int:
    """|G|(n + b) / |G|(n): one more middle block ((b − 2L)!) and one more junction (r!)."""
    return factorial(b - 2 * w * r) * factorial(r)


def theorem(n, b: int, w: int, r: int):
    """F95 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    ell, start = w * r, low(b)
    base = {t: start + (t - start) % b for t in range(b)}
    rows = sympy.ceiling(n / b)
    diameter = _residue_pieces(n, b, {t: t for t in range(b)},
                               lambda t: 2 * rows - (2 if 1 <= t <= ell else 1))
    order = _residue_pieces(n, b, base, lambda n0: Integer(order_at(n0, b, w, r))
                            * Integer(block_factor(b, w, r)) ** (sympy.floor(n / b) - n0 // b), explicit=True)
    group = (f"the permutations that keep every block {{{b}k + 1, …, {b}k + {b}}} and the arcs between consecutive "
             f"blocks: at a junction of two whole blocks the {r}! permutations of its residue classes mod {r} (a "
             f"class's positions among the last {ell} of one block and the first {ell} of the next, moved together), "
             f"and the positions with no arc to another block permuted freely within their block; with the "
             f"reflection i ↦ n + 1 − i when {b} | n")
    if isinstance(n, (int, Integer)):  # a concrete n: say whether the reflection is in
        group = group.replace(f"; with the reflection i ↦ n + 1 − i when {b} | n",
                              "; with the reflection i ↦ n + 1 − i" if int(n) % b == 0 else f"; no reflection ({b} ∤ n)")
    gens = (f"a transposition of two positions of a middle block that no arc leaves (offsets {ell + 1}, …, {b - ell})"
            if b - 2 * ell >= 2 else "",
            f"the exchange of two residue classes mod {r} at a junction: offsets b − {ell} + a ↔ b − {ell} + a′ of one "
            f"block with a ↔ a′ of the next, for a ≡ c, a′ ≡ c′ (mod {r})",
            f"i ↦ n + 1 − i when {b} | n")
    return FamilyTheorem(
        "F95", "blocks(b) + dilated(w, r), r ≥ 2, 2wr ≤ b", (("b", Integer(b)), ("w", Integer(w)), ("r", Integer(r))),
        Integer(start), diameter, group, order, tuple(g for g in gens if g), diameter, True, WHY_D_LAYERS)


#: why D layers suffice (docs/theory.md §11.11, Theorem F95 (c))
WHY_D_LAYERS = ("Theorem F95: a walk between blocks crosses every junction between them, and between two crossings "
                "it moves inside a block (the ports a junction uses on either side are disjoint), so the positions at "
                "distance D from a root lie in one end block, a clique; by the far-clique lemma a rooted view at depth "
                "D fixes every arc, and D layers suffice; D layers are always needed")
