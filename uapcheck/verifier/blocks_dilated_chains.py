"""Theorems F95 and F96 (docs/theory.md §11.11), restated for the verifier: `blocks(b) + dilated(w, r)`, integers r ≥ 2,
w ≥ 1, 2wr ≤ b — chains of blocks joined by the dilation. With L = wr, n = mb + ρ (0 ≤ ρ < b), for n ≥ 2b:
D = 2⌈n/b⌉ − 2 when 1 ≤ ρ ≤ L, else 2⌈n/b⌉ − 1; |G| = 2·((b − L)!)²·((b − 2L)!)^(m − 2)·(r!)^(m − 1) when b | n, else
(b − L)!·((b − 2L)!)^(m − 2)·(r!)^(m − 1)·(b − 2L + w·max(0, r − ρ))!·J(ρ)·(max(0, ρ − L))!, J(ρ) the last
junction's count (its classes reaching the partial block exchanged when they reach it alike, and the twins among a
class's right positions); D layers, least. The verifier's own range and closed forms; the instance check re-checks a
whole period of n mod b from the range's start on its own arcs (BFS, the group order with nauty), and, for the layers,
the far-clique premise at every root: the positions at distance D from it are pairwise adjacent.
F96 adds `global(g)`: for n ≥ (⌊g/b⌋ + 4)b + 1, D = 2, |G| = g! times the chain's count on {g + 1, …, n} (a first
piece of b⌈(g + 1)/b⌉ − g positions, the mirror image of a last piece), times 2 when b | n + g; 3 layers, least, the
swap (x x+1) of the block after the first piece's first two right ports being a view witness at n (re-checked on
the verifier's arcs at every instance).
"""
from __future__ import annotations

from math import factorial
from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .blocks_dilated import blocks_dilated, symmetric_neighbours


def match(parts: list):
    got = blocks_dilated(parts)
    if got is None:
        return None
    b, w, r = got
    if w < 1 or r < 2 or 2 * w * r > b:
        return None
    return _family(b, w, r)


def _junction(rho: int, w: int, r: int) -> int:
    """The last junction's automorphisms that keep its two sides (a partial block of ρ positions): per residue class
    c ≤ min(ρ, r) the left positions c, c + r, … up to min(ρ, wr); classes with as many are exchanged, and the
    right positions of a class adjacent to all its left ones are twins."""
    top = min(rho, w * r)
    sizes = [sum(1 for y in range(1, top + 1) if y % r == c % r) for c in range(1, r + 1)]
    out = 1
    for size in sorted(set(sizes)):
        if size:
            out *= factorial(sizes.count(size)) * factorial(w + 1 - size) ** sizes.count(size)
    return out


def _order(m, rho: int, b: int, w: int, r: int):
    ell = w * r
    common = sympy.factorial(b - 2 * ell) ** (m - 2) * sympy.factorial(r) ** (m - 1)
    if rho == 0:
        return 2 * sympy.factorial(b - ell) ** 2 * common
    return (sympy.factorial(b - ell) * common * sympy.factorial(b - 2 * ell + w * max(0, r - rho))
            * _junction(rho, w, r) * sympy.factorial(max(0, rho - ell)))


def _family(b: int, w: int, r: int):
    from .families import Family, ResidueLength
    ell = w * r

    def diameter(n):
        if isinstance(n, int):
            blocks = -(-n // b)
            return sympy.Integer(2 * blocks - (2 if 1 <= n % b <= ell else 1))
        short = sympy.Or(*[sympy.Eq(sympy.Mod(n, b), t) for t in range(1, ell + 1)])
        return sympy.Piecewise((2 * sympy.ceiling(n / b) - 2, short), (2 * sympy.ceiling(n / b) - 1, True))

    def order(n):
        if isinstance(n, ResidueLength):
            k = next(iter(n.n.free_symbols))
            return _order(k, n.rho % b, b, w, r)  # n = bk + ρ: k whole blocks
        return sympy.Integer(_order(int(n) // b, int(n) % b, b, w, r))

    def name(text):
        return f"residue classes mod {r}" in text and "no arc to another block" in text and "reflection" in text
    return Family("F95", 2 * b, 0, 0, True, order, b, name, None, None, diameter_at=diameter, period=b,
                  layers_by=diameter, layers_check=lambda n, d: far_clique_problem(
                      S.PatternUnion((S.Blocks(b), S.Dilated(w, r))), n, d),
                  layers_text="D layers least (Theorem F95: at every root the positions at distance D are pairwise "
                              "adjacent, re-checked on the verifier's arcs at every instance; the far-clique lemma)")


def match_global(parts: list):
    """Theorem F96: `blocks(b) + dilated(w, r) + global(g)` (or `+ star`), the same b, w, r, g ≥ 1."""
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds not in (["Blocks", "Dilated", "Global"], ["Blocks", "Dilated", "Star"]):
        return None
    glob = next(q for q in parts if isinstance(q, (S.Global, S.Star)))
    got = blocks_dilated([q for q in parts if q is not glob])
    g = 1 if isinstance(glob, S.Star) else glob.g
    if got is None or not isinstance(g, int) or isinstance(g, bool):
        return None
    b, w, r = got
    if g < 1 or w < 1 or r < 2 or 2 * w * r > b:
        return None
    return _family_global(b, w, r, g)


def _piece_count(size: int, w: int, r: int) -> int:
    """An end piece of `size` positions: its free positions (no arc to the next block), times its junction's count,
    as `_junction` (the first piece is the mirror image of a last one)."""
    return factorial(max(0, size - w * r)) * _junction(size, w, r)


def _global_order(blocks, last: int, b: int, w: int, r: int, g: int):
    """g!·|Aut| of the chain of pieces of {g + 1, …, n}: a first piece of b·k₀ − g positions, the whole blocks, a last
    piece of `last` positions (b when b | n); ``blocks`` = ⌈n/b⌉ (an integer or an expression)."""
    ell, k0 = w * r, g // b + 1
    first = k0 * b - g
    middle = blocks - k0 - 1  # whole blocks between the first and the last piece
    beside = sympy.factorial(b - 2 * ell + w * max(0, r - first)) * sympy.factorial(b - 2 * ell + w * max(0, r - last))
    chain = (_piece_count(first, w, r) * beside * sympy.factorial(b - 2 * ell) ** (middle - 2)
             * sympy.factorial(r) ** (middle - 1) * _piece_count(last, w, r))
    return sympy.factorial(g) * chain * (2 if (last - first) % b == 0 else 1)


def _family_global(b: int, w: int, r: int, g: int):
    from .families import Family, ResidueLength
    low = (g // b + 4) * b + 1
    x = (g // b + 2) * b - w * r + 1

    def order(n):
        if isinstance(n, ResidueLength):
            return _global_order(n.blocks, n.rho, b, w, r, g)
        return sympy.Integer(_global_order(-(-int(n) // b), int(n) % b or b, b, w, r, g))

    def swap(n: int) -> list:
        return [x + 1 if k == x else x if k == x + 1 else k for k in range(1, n + 1)]

    def name(text):
        return f"residue classes mod {r}" in text and "no arc to another block" in text and "reflection" in text
    return Family("F96", low, 2, 3, True, order, b, name, lambda n: (n, swap(n)))


def far_clique_problem(pattern: S.Pattern, n: int, d: int) -> Optional[str]:
    """The premise of the far-clique lemma (docs/theory.md §11.11, Theorem F53) at one length, on the verifier's
    arcs: the pattern is symmetric with diameter d, and at every root the positions at distance d from it are
    pairwise adjacent. None when it holds."""
    got = symmetric_neighbours(pattern, n)
    if got is None:
        return f"n = {n}: the pattern is not symmetric"
    outs, near = got
    for root in range(1, n + 1):
        found = patterns.bfs(outs, root)
        if any(x is None or x > d for x in found[1:]):
            return f"n = {n}: a position is farther than {d} from {root}"
        far = [v for v in range(1, n + 1) if found[v] == d]
        for k, u in enumerate(far):
            for v in far[k + 1:]:
                if v not in near[u]:
                    return f"n = {n}: positions {u}, {v} at distance {d} from {root} are not adjacent"
    return None
