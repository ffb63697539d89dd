"""`blocks(b) + window(w) + strided(s)` with the block at least the stride and a window wider than half the stride
(w + 2 ≤ s ≤ 2w, b ≥ s) at symbolic n: Theorem F100 of docs/theory.md §11.11.

As in Theorem F94, the residue classes mod s are the adjacent pairs with many common neighbours, and the blocks
(*rows*) the components of "in one clique of s positions" among the local edges between classes (a clique with an
edge between rows lies in w + 1 < s consecutive positions); the rows form a path, kept or reversed (the reversal only
when b | n). Keeping every row, a symmetry fixes each position with a window edge into a neighbouring whole row (their
numbers of such edges are w, …, 1) and the partial row's first positions; when the partial row has 0 < ρ < w
positions, the last w − ρ + 1 positions of the last whole row without an edge into the row before (the *bunch*) all
see the whole partial row. The 2w residues around a block boundary meet every class (s ≤ 2w), so every class is
fixed: G is the product of the symmetric groups of the *inner* positions (no window edge into another row) of each
cell (one row, one class) and of the bunch's positions of each class, times the reflection when b | n (when
b ≤ 2w + 1, the reflection or trivial). D = 2; 3 = D + 1 layers, least when b > s: the swap of b − s and b (one cell
of the first block; only b's window reaches the second block) is a view witness at the position of the fourth block
in the class b + w + 1 mod s. When b = s, 3 layers suffice and whether 2 do is open (the concrete engine finds 2 at
some residues of n mod s and 3 at others).

Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial, lcm

from sympy import Integer

from .blocks_window_strided_cells import growing_order

MAX_PERIOD = 600     # P = lcm(b, s)


def applies(b, w, s) -> bool:
    return (all(isinstance(x, int) for x in (b, w, s)) and w >= 2 and w + 2 <= s <= 2 * w and b >= s
            and lcm(b, s) <= MAX_PERIOD)


def low(b: int, w: int, s: int) -> int:
    """⌊n/s⌋ > b + 2w + 2⌈(b + 2w)/s⌉ (the classes by common neighbours, as in Theorem F94); this is above 4b, the
    four whole blocks the witness and the insertion of a period of blocks need."""
    common = b + 2 * w + 2 * (-(-(b + 2 * w) // s))
    return max(s * (common + 1), 4 * b + 1)


def counts_at(n: int, b: int, w: int, s: int) -> tuple[dict, dict]:
    """(inner counts {(row, class): count}, bunch counts {class: count}) at an integer n in the range."""
    rho = n % b
    last_whole = n // b - 1          # rows from 0
    inner: dict = {}
    bunch: dict = {}
    for p in range(1, n + 1):
        row = (p - 1) // b
        start, end = row * b, min(n, row * b + b)
        before = row > 0 and p - w <= start      # a position of the row before within w
        after = end < n and p + w > end          # a position of the row after within w
        if not before and not after:
            inner[(row, p % s)] = inner.get((row, p % s), 0) + 1
        elif not before and 0 < rho < w and row == last_whole and p > end - (w - rho + 1):
            bunch[p % s] = bunch.get(p % s, 0) + 1
    return inner, bunch


def order_at(n: int, b: int, w: int, s: int) -> int:
    inner, bunch = counts_at(n, b, w, s)
    out = 2 if n % b == 0 else 1
    for c in list(inner.values()) + list(bunch.values()):
        out *= factorial(c)
    return out


def period_factor(b: int, w: int, s: int) -> int:
    """A: the factor of the P/b middle blocks inserted from n to n + P (inner offsets w + 1..b − w of blocks
    starting at 2b, 3b, …): |G|(n + P) = A·|G|(n)."""
    out = 1
    for k in range(lcm(b, s) // b):
        counts: dict = {}
        for c in range(w + 1, b - w + 1):
            counts[((k + 2) * b + c) % s] = counts.get(((k + 2) * b + c) % s, 0) + 1
        for v in counts.values():
            out *= factorial(v)
    return out


def root(b: int, w: int, s: int) -> int:
    """The witness's root: the position of the fourth block in the class b + w + 1 mod s (none of the residues
    b, b + 1, …, b + w of the swapped pair and of the positions that see one of them only)."""
    return next(p for p in range(3 * b + 1, 4 * b + 1) if (p - b - w - 1) % s == 0)


def swap(b: int, s: int) -> tuple[int, int]:
    """The swapped pair: b − s and b, one cell of the first block."""
    return b - s, b


def theorem(n, b: int, w: int, s: int):
    """F100 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    start = low(b, w, s)
    order = growing_order(n, start, lcm(b, s), period_factor(b, w, s), lambda n0: order_at(n0, b, w, s))
    if b <= 2 * w + 1:    # every cell has at most one inner position, the bunch at most one of each class
        group = f"the reflection i ↦ n + 1 − i when {b} | n, else trivial"
    else:
        group = (f"the symmetric groups of the cells (one block, one residue class mod {s}) of the positions with no "
                 f"window edge into another block (and, when 0 < n mod {b} < {w}, of the last whole block's last "
                 f"positions that see the whole last block, class by class) × the reflection i ↦ n + 1 − i when {b} | n")
    params = (("b", Integer(b)), ("w", Integer(w)), ("s", Integer(s)))
    family = "blocks(b) + window(w) + strided(s), b ≥ s, w + 2 ≤ s ≤ 2w"
    if b == s:
        return FamilyTheorem(
            "F100", family, params, Integer(start), Integer(2), group, order, (), Integer(3), False,
            "D + 1 = 3 layers suffice (§11.2; Theorem F100)",
            open_question=(f"whether D = 2 layers suffice (with the block equal to the stride no swap inside a block "
                           f"is a witness; the concrete engine finds 2 layers at some residues of n mod {s} and 3 at "
                           "others)"))
    x, y = swap(b, s)
    i = root(b, w, s)
    why = (f"swapping {x} and {y} (one block, one residue class mod {s}; only {y}'s window reaches the next block) "
           f"keeps the neighbourhood of every position within distance 1 of position {i} (its block, the fourth, its "
           f"residue class mod {s}, which holds none of {x}, {y} and the positions {b + 1}, …, {b + w}, and its window) "
           f"and is not in G ({y} ~ {b + 1}, {x} ≁ {b + 1}): D = 2 layers are not enough, 3 suffice (Theorem F100)")
    return FamilyTheorem("F100", family, params, Integer(start), Integer(2), group, order, (), Integer(3), True, why,
                         witness=(Integer(i), (Integer(x), Integer(y))))
