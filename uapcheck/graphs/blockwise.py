"""Block-level patterns (`blockwise(b) { P }`) analysed on the n/b blocks and lifted to tokens.

The token graph T of `blockwise(b) { P }` is the block graph B of P (every block also attends to
itself) with each block blown up into b positions that all see each other: the arc u → v exists
iff block(u) = block(v) or block(u) → block(v) in B.  Hence (docs/theory.md §11.8):

* T is strongly connected iff B is; for positions u, v in different blocks d_T(u → v) is the
  block distance d_B(block u → block v), and positions in one block are one hop apart, so the
  directed diameter of T is max(D_B, 1) when b ≥ 2;
* for b ≥ 2 the twin classes of T (positions with the same closed in- and out-neighbourhoods in
  every head) are exactly the unions of the blocks in one closed-twin class of B, and T has no
  other twins; with G = ∏ Sym(class) ⋊ Aut(quotient coloured by class size) for B and for T, and
  the same coloured quotient in both,

      |G_T| = |G_B| · ∏_C (b·|C|)! / |C|!     over the closed-twin classes C of B;

* a view witness σ for B at block p lifts (moving whole blocks) to a view witness for T at any
  position of block p.
"""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Sequence

from .build import PatternGraph


def _closed(graph: PatternGraph, nb: int) -> tuple[list[frozenset], list[frozenset]]:
    """Closed in- and out-neighbourhoods (1-based blocks) of one block graph."""
    if graph.complete:
        everything = frozenset(range(1, nb + 1))
        return [everything] * (nb + 1), [everything] * (nb + 1)
    ins = [{v} for v in range(nb + 1)]
    outs = [{v} for v in range(nb + 1)]
    for j, i in graph.arcs():
        ins[i].add(j)
        outs[j].add(i)
    return [frozenset(s) for s in ins], [frozenset(s) for s in outs]


def closed_twin_classes(block_graphs: Sequence[PatternGraph]) -> list[list[int]]:
    """Blocks with equal closed in- and out-neighbourhoods in every head, as sorted classes."""
    nb = block_graphs[0].n
    hoods = [_closed(g, nb) for g in block_graphs]
    groups: dict[tuple, list[int]] = defaultdict(list)
    for p in range(1, nb + 1):
        key = tuple((ins[p], outs[p]) for ins, outs in hoods)
        groups[key].append(p)
    return sorted(groups.values())


def quotient_order(block_order: int, classes: Sequence[Sequence[int]]) -> int:
    """|Aut(coloured quotient)| = |G_B| / ∏ |C|! (an exact division)."""
    denominator = 1
    for cls in classes:
        denominator *= math.factorial(len(cls))
    q, r = divmod(block_order, denominator)
    if r:
        raise ArithmeticError("the twin classes do not divide the block group's order")
    return q


def lifted_order(block_order: int, classes: Sequence[Sequence[int]], b: int) -> int:
    """|G_T| = |Aut(quotient)| · ∏ (b·|C|)! from |G_B| and the closed-twin classes of B."""
    order = quotient_order(block_order, classes)
    for cls in classes:
        order *= math.factorial(b * len(cls))
    return order


def lift_position(block: int, b: int) -> int:
    """The first position of a 1-based block."""
    return (block - 1) * b + 1


def lifted_order_text(block_order: int, classes: Sequence[Sequence[int]], b: int) -> str:
    """The same order as a product of factorials (for orders too long to print)."""
    counts: dict[int, int] = defaultdict(int)
    for cls in classes:
        counts[b * len(cls)] += 1
    q = quotient_order(block_order, classes)
    parts = [] if q == 1 else [str(q)]
    for size in sorted(counts, reverse=True):
        parts.append(f"{size}!" if counts[size] == 1 else f"({size}!)^{counts[size]}")
    return " · ".join(parts) or "1"


def lifted_order_latex(block_order: int, classes: Sequence[Sequence[int]], b: int) -> str:
    """`lifted_order_text` in math mode, built from the same counts."""
    from ..render.math import integer
    counts: dict[int, int] = defaultdict(int)
    for cls in classes:
        counts[b * len(cls)] += 1
    q = quotient_order(block_order, classes)
    parts = [] if q == 1 else [integer(q)]
    for size in sorted(counts, reverse=True):
        parts.append(f"{size}!" if counts[size] == 1 else f"({size}!)^{{{counts[size]}}}")
    return r" \cdot ".join(parts) or "1"
