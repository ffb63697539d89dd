"""`blocks(s) + window(w) + strided(s)` (the block equal to the stride) at symbolic n: Theorem F64 of
docs/theory.md §11.11.

Position p is the cell (row k, column c) with k = ⌈p/s⌉ its block and c = p − (k − 1)s its offset, which is also its
residue class mod s: `blocks(s) + strided(s)` is the rook's graph of the rows by the columns (F25), with a partial
last row of the columns 1..ρ, ρ = n mod s. The window adds, between consecutive rows, the *cross* edges
(k, s − j) ~ (k + 1, d − j), 0 ≤ j < d ≤ w: the tail columns T = {s − w + 1, …, s} to the head columns H = {1, …, w}
(a staircase: tail column s − j meets the heads 1..w − j). For s ≥ max(2w + 1, w + 3), n ≥ s(s + 1): D = 2;
G = the permutations of the interior columns I = {w + 1, …, s − w} (in every row at once) that keep the last row's
columns, × the reflection i ↦ n + 1 − i when s | n; 3 = D + 1 layers, least (exchanging the blocks 3 and 4 is a view
witness at position w + 1).

Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial

from sympy import Integer

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"


def applies(b, w, s) -> bool:
    return all(isinstance(x, int) for x in (b, w, s)) and b == s and w >= 1 and s >= max(2 * w + 1, w + 3)


def low(s: int, w: int) -> int:
    """F64's range: m = ⌊n/s⌋ ≥ s + 1 whole rows (the columns are the cliques above s cells; every clique holding a
    cross edge has at most w + 2 < s cells)."""
    return s * (s + 1)


def block_exchange(n: int, s: int) -> list[int]:
    """The witness of F64 as an image list (1-based): the blocks {2s + 1, …, 3s} and {3s + 1, …, 4s} exchanged."""
    perm = list(range(1, n + 1))
    for t in range(1, s + 1):
        perm[2 * s + t - 1], perm[3 * s + t - 1] = 3 * s + t, 2 * s + t
    return perm


def interior_split(n: int, s: int, w: int) -> tuple[int, int]:
    """(a, |I| − a): the interior columns the last partial row holds, and the others (a = 0 when s | n)."""
    rho = n % s
    size = s - 2 * w
    a = max(0, min(rho, s - w) - w) if rho else 0
    return a, size - a


def order_at(n: int, s: int, w: int) -> int:
    a, rest = interior_split(n, s, w)
    if n % s == 0:
        return 2 * factorial(s - 2 * w)
    return factorial(a) * factorial(rest)


def theorem(n, s: int, w: int):
    """F64 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    start = low(s, w)
    order = _residue_pieces(n, s, {t: t for t in range(s)}, lambda t: Integer(order_at(t + s * start, s, w)),
                            explicit=True)
    group = (f"the interior offsets {_span(w + 1, s - w)} permuted alike in every block, keeping the last block's "
             f"offsets {{1, …, n mod {s}}}, × the reflection i ↦ n + 1 − i when {s} | n")
    if isinstance(n, (int, Integer)):  # a concrete n: its own residue's group
        rho = int(n) % s
        group = (f"the interior offsets {_span(w + 1, s - w)} permuted alike in every block (S_{s - 2 * w}), × the "
                 "reflection i ↦ n + 1 − i" if rho == 0 else
                 f"the interior offsets {_span(w + 1, s - w)} permuted alike in every block, keeping the last block's "
                 f"offsets {_span(1, rho)}; no reflection ({s} ∤ n)")
    return FamilyTheorem(
        "F64", "blocks(s) + window(w) + strided(s), s ≥ max(2w + 1, w + 3)", (("s", Integer(s)), ("w", Integer(w))),
        Integer(start), Integer(2), group, order, (), Integer(3), True,
        f"exchanging the blocks {_span(2 * s + 1, 3 * s)} and {_span(3 * s + 1, 4 * s)} keeps the neighbourhood of "
        f"every position within distance 1 of position {w + 1} (the first block and the residue class of {w + 1} mod "
        f"{s}, whose positions have no window edge leaving their block) and is not in G (it breaks the window edge "
        f"{2 * s} ~ {2 * s + 1}): D = 2 layers are not enough, D + 1 = 3 suffice (Theorem F64)")
