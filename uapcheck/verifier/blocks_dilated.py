"""Theorem F63 (docs/theory.md §11.11), restated for the verifier: `blocks(b) + dilated(w, b)`, integers b ≥ 2,
w ≥ 1, the grid of the blocks by the offsets within a block (K_b □ P^w when b | n): for n ≥ b·max(2w + 1, w + 2, 3),
D = ⌈(⌈n/b⌉ − 1)/w⌉ + 1, |G| = 2·b! when b | n, else ρ!·(b − ρ)! with ρ = n mod b; with Theorem F80, D layers
(least). The verifier's own range and closed forms; the instance check re-checks a whole period of n mod b from the
range's start on its own arcs (BFS, the group order with nauty), and, for the layers, F80's premise at every root:
two positions at distance D are adjacent exactly when they have a common neighbour within distance D − 1, or both
have the fewest neighbours within distance D − 1 among the positions at distance D (the least-degree clique lemma).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .named_structure import interval


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def blocks_dilated(parts: list) -> Optional[tuple[int, int, int]]:
    """(b, w, r) when the union parts are `blocks(b)` and `dilated(w, r)` with integer arguments, else None."""
    if sorted(type(q).__name__ for q in parts) != ["Blocks", "Dilated"]:
        return None
    blk = next(q for q in parts if isinstance(q, S.Blocks))
    dil = next(q for q in parts if isinstance(q, S.Dilated))
    b, w, r = _int(blk.b), _int(dil.w), _int(dil.r)
    return None if b is None or w is None or r is None else (b, w, r)


def match(parts: list):
    got = blocks_dilated(parts)
    if got is None:
        return None
    b, w, r = got
    if b < 2 or w < 1 or r != b:
        return None
    return _family(b, w)


def _family(b: int, w: int):
    from .families import Family, ResidueLength
    low = b * max(2 * w + 1, w + 2, 3)

    def diameter(n):
        rows = -(-n // b) if isinstance(n, int) else sympy.ceiling(n / b)
        return sympy.ceiling(sympy.Integer(rows - 1) / w) + 1 if isinstance(n, int) else sympy.ceiling((rows - 1) / w) + 1

    def order(n):
        rho = (n.rho % b) if isinstance(n, ResidueLength) else int(n) % b
        return 2 * sympy.factorial(b) if rho == 0 else sympy.factorial(rho) * sympy.factorial(b - rho)

    def name(text):
        return f"offsets {interval(1, b)} within a block" in text and "reversal of the blocks" in text
    return Family("F63", low, 0, 0, True, order, b, name, None, None, diameter_at=diameter, period=b,
                  layers_by=diameter, layers_check=lambda n, d: least_degree_clique_problem(
                      S.PatternUnion((S.Blocks(b), S.Dilated(w, b))), n, d),
                  layers_text="D layers least (Theorem F80: at every root, two positions at distance D are adjacent "
                              "exactly when they share a neighbour within D − 1 or both have the fewest neighbours "
                              "within D − 1, re-checked on the verifier's arcs at every instance)")


def symmetric_neighbours(pattern: S.Pattern, n: int) -> Optional[tuple[list, list[set]]]:
    """(the out-lists, the neighbour sets) of the pattern at n on the verifier's arcs; None when it is not symmetric."""
    arcs = patterns.head_arcs(pattern, n)
    if any((i, j) not in arcs for j, i in arcs):
        return None
    outs = patterns.union_out([arcs], n)
    return outs, [set(o) for o in outs]


def least_degree_clique_problem(pattern: S.Pattern, n: int, d: int) -> Optional[str]:
    """The premise of the least-degree clique lemma (docs/theory.md §11.11, Theorem F80) at one length, on the
    verifier's arcs: the pattern is symmetric with diameter d, and at every root i, two positions u ≠ u′ at distance
    d from i are adjacent iff some position within d − 1 of i is adjacent to both, or both lie in Q_i (the positions
    at distance d with the fewest neighbours within d − 1 of i). None when it holds."""
    got = symmetric_neighbours(pattern, n)
    if got is None:
        return f"n = {n}: the pattern is not symmetric"
    outs, near = got
    for root in range(1, n + 1):
        found = patterns.bfs(outs, root)
        dist = [d + 1 if x is None else x for x in found]
        if any(x > d for x in dist[1:]):
            return f"n = {n}: a position is farther than {d} from {root}"
        ball = {v for v in range(1, n + 1) if dist[v] <= d - 1}
        far = [v for v in range(1, n + 1) if dist[v] == d]
        if not far:
            continue
        inside = {u: near[u] & ball for u in far}
        fewest = min(len(x) for x in inside.values())
        least = {u for u in far if len(inside[u]) == fewest}
        for k, u in enumerate(far):
            for v in far[k + 1:]:
                rule = bool(inside[u] & inside[v]) or (u in least and v in least)
                if rule != (v in near[u]):
                    return (f"n = {n}: positions {u}, {v} at distance {d} from {root} break the least-degree clique "
                            "premise")
    return None
