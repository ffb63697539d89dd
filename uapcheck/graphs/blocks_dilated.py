"""`blocks(b) + dilated(w, b)` at symbolic n: Theorem F63 of docs/theory.md §11.11.

Position p is the cell (block k, offset c) of a grid, p = (k − 1)b + c, 1 ≤ c ≤ b: the m = ⌊n/b⌋ whole blocks are
rows of b cells and a last partial row holds the offsets 1..ρ, ρ = n − mb. The blocks join the cells of one row;
the dilation (p ~ p ± jb, 1 ≤ j ≤ w) joins the cells of one column (offset) whose rows are at most w apart. So Γ
is the Cartesian product K_b □ P^w_m of a clique and the w-th power of a path when b | n, with a partial row
otherwise. F63: D = ⌈(⌈n/b⌉ − 1)/w⌉ + 1; G = the maps (k, c) ↦ (π k, τ c) with τ ∈ S_ρ × S_(b − ρ) on the offsets
(S_b when ρ = 0) and π the identity, or also the reversal of the rows when b | n. F80: D layers suffice (so they are
least): at every root the positions at distance D lie in the far rows on one side, two of them are adjacent iff
they have a common neighbour within D − 1 of the root or both lie in the far row with the fewest neighbours in the
ball (the least-degree clique lemma).

Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial

import sympy
from sympy import Integer

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"


def applies(b, w, r) -> bool:
    return all(isinstance(x, int) for x in (b, w, r)) and b >= 2 and w >= 1 and r == b


def rows_low(b: int, w: int) -> int:
    """m₀: the whole rows the proof needs (the reversal is the only non-trivial automorphism of the row graph
    P^w on m or m + 1 rows, m ≥ 2w + 1; the column cliques of w + 1 rows exist, m ≥ w + 2; the ladder, m ≥ 3)."""
    return max(2 * w + 1, w + 2, 3)


def low(b: int, w: int) -> int:
    """F63's range: n ≥ b·m₀."""
    return b * rows_low(b, w)


def diameter_at(n: int, b: int, w: int) -> int:
    rows = -(-n // b)
    return -(-(rows - 1) // w) + 1


def order_at(n: int, b: int) -> int:
    rho = n % b
    return 2 * factorial(b) if rho == 0 else factorial(rho) * factorial(b - rho)


def theorem(n, b: int, w: int):
    """F63 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    start = low(b, w)
    rows = sympy.ceiling(n / b)
    diameter = sympy.ceiling((rows - 1) / w) + 1
    order = _residue_pieces(n, b, {t: t for t in range(b)}, lambda t: Integer(order_at(t, b)), explicit=True)
    group = (f"the offsets {_span(1, b)} within a block permuted alike in every block, keeping the last block's offsets "
             f"{{1, …, n mod {b}}} (S_(n mod {b}) × S_({b} − n mod {b})), with the reversal of the blocks when {b} | n "
             f"(S_{b} × the reflection i ↦ n + 1 − i)")
    if isinstance(n, (int, Integer)):  # a concrete n: its own residue's group
        rho = int(n) % b
        group = (f"the offsets {_span(1, b)} within a block permuted alike in every block (S_{b}), with the reversal of "
                 "the blocks (S_{b} × the reflection i ↦ n + 1 − i)".replace("{b}", str(b)) if rho == 0 else
                 f"the offsets {_span(1, b)} within a block permuted alike in every block, keeping the last block's "
                 f"offsets {_span(1, rho)} (S_{rho} × S_{b - rho}); no reversal of the blocks ({b} ∤ n)")
    return FamilyTheorem(
        "F63", "blocks(b) + dilated(w, b)", (("b", Integer(b)), ("w", Integer(w))), Integer(start), diameter,
        group, order, (f"a transposition of two offsets, applied in every block (when {b} | n, or both below n mod {b})",
                       f"i ↦ n + 1 − i when {b} | n"),
        diameter, True, WHY_D_LAYERS)


#: why D layers suffice (docs/theory.md §11.11, Theorem F80)
WHY_D_LAYERS = ("Theorem F80: the positions at distance D from a root lie in the farthest rows on one side of it; two of "
                "them are adjacent exactly when they have a common neighbour within D − 1 of the root, or both lie in the "
                "far row with the fewest neighbours within D − 1 (a clique), so a rooted view at depth D fixes every arc "
                "(the least-degree clique lemma) and D layers suffice; D layers are always needed")
