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

from .closed_forms import _span

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


def chain_order(first: int, middle: int, last: int, b: int, w: int, r: int) -> int:
    """|G₀| of a chain of pieces of sizes first, b (``middle`` ≥ 2 whole blocks), last (1 ≤ first, last ≤ b): the
    permutations keeping every piece and the arcs between pieces (F96 (b); F95's when first = b). An end piece of
    size t has max(0, t − L) free positions and its junction J(t) (the mirror of the last junction for the first);
    the whole block beside it has w·max(0, r − t) more free positions (its ports that reach nothing there)."""
    ell = w * r
    return (factorial(max(0, first - ell)) * last_junction_order(first, w, r)
            * factorial(b - 2 * ell + w * max(0, r - first)) * factorial(b - 2 * ell) ** (middle - 2)
            * factorial(b - 2 * ell + w * max(0, r - last)) * factorial(r) ** (middle - 1)
            * last_junction_order(last, w, r) * factorial(max(0, last - ell)))


def applies_global(b, w, r, g) -> bool:
    return applies(b, w, r) and isinstance(g, int) and g >= 1


def low_global(b: int, g: int) -> int:
    """F96's range: n ≥ (k₀ + 3)b + 1, k₀ = ⌊g/b⌋ + 1 the block holding g + 1: the first piece, three whole blocks and
    a last piece (the swap witness's blocks k₀ + 1, k₀ + 2 are then more than one block from the last)."""
    return (g // b + 4) * b + 1


def global_order_at(n: int, b: int, w: int, r: int, g: int) -> int:
    """|G| of `blocks(b) + dilated(w, r) + global(g)` at one length n in F96's range."""
    k0 = g // b + 1
    first, last = k0 * b - g, n % b or b
    pieces = -(-n // b) - k0 + 1
    return factorial(g) * chain_order(first, pieces - 2, last, b, w, r) * (2 if (n + g) % b == 0 else 1)


def swap_position(b: int, w: int, r: int, g: int) -> int:
    """x of F96's witness (x x+1): the first two right ports of the block after the first piece (classes 1 and 2)."""
    return (g // b + 2) * b - w * r + 1


def theorem_global(n, b: int, w: int, r: int, g: int):
    """F96 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    ell, start = w * r, low_global(b, g)
    base = {t: start + (t - start) % b for t in range(b)}
    order = _residue_pieces(n, b, base, lambda n0: Integer(global_order_at(n0, b, w, r, g))
                            * Integer(block_factor(b, w, r)) ** (sympy.floor(n / b) - n0 // b), explicit=True)
    globs = "position 1 fixed × " if g == 1 else f"S_{g} on {_span(1, g)} × "
    group = (f"{globs}the permutations of {{{g + 1}, …, n}} that keep every block {{{b}k + 1, …, {b}k + {b}}} (less the "
             f"globals) and the arcs between consecutive blocks: at a junction of two whole blocks the {r}! "
             f"permutations of its residue classes mod {r} (a class's positions among the last {ell} of one block and "
             f"the first {ell} of the next, moved together), and the positions with no arc to another block "
             f"permuted freely within their block; with the reflection i ↦ n + {g + 1} − i of {{{g + 1}, …, n}} when "
             f"{b} | n + {g}")
    if isinstance(n, (int, Integer)):
        group = group.replace(f"; with the reflection i ↦ n + {g + 1} − i of {{{g + 1}, …, n}} when {b} | n + {g}",
                              f"; with the reflection i ↦ n + {g + 1} − i of {{{g + 1}, …, n}}" if (int(n) + g) % b == 0
                              else f"; no reflection ({b} ∤ n + {g})")
    x = swap_position(b, w, r, g)
    return FamilyTheorem(
        "F96", "blocks(b) + dilated(w, r) + global(g), r ≥ 2, 2wr ≤ b",
        (("b", Integer(b)), ("w", Integer(w)), ("r", Integer(r)), ("g", Integer(g))), Integer(start), Integer(2),
        group, order, (), Integer(3), True,
        f"the swap ({x} {x + 1}) of two positions of one block with different arcs to the next block ({x} ~ {x + ell} "
        f"and {x + 1} ≁ {x + ell}) can change only the neighbourhoods of {x}, {x + 1} and of positions of the next "
        f"block, none within distance 1 of position n (its block, the block before it and the globals), and is not "
        f"in G: D = 2 layers are not enough, D + 1 = 3 suffice (Theorem F96)",
        witness=(n, (Integer(x), Integer(x + 1))))


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
