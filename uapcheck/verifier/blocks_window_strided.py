"""Theorem F64 (docs/theory.md §11.11), restated for the verifier: `blocks(s) + window(w) + strided(s)`, integers
w ≥ 1, s ≥ max(2w + 1, w + 3), for n ≥ s(s + 1): D = 2; |G| = 2·(s − 2w)! when s | n, else a!·(s − 2w − a)! with a
the interior offsets {w + 1, …, s − w} that the last block holds; 3 layers, least: the exchange of the blocks 3 and 4
is re-checked on the verifier's arcs at every instance (no symmetry, and no neighbourhood within distance 1 of
position w + 1 changed). The instance check re-checks D and the order at a whole period of n mod s.
"""
from __future__ import annotations

from math import factorial
from typing import Optional

import sympy

from .. import spec as S
from . import patterns


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list):
    if sorted(type(q).__name__ for q in parts) != ["Blocks", "Strided", "Window"]:
        return None
    win = next(q for q in parts if isinstance(q, S.Window))
    b = _int(next(q for q in parts if isinstance(q, S.Blocks)).b)
    s = _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    w = _int(win.w)
    if win.cyclic or b is None or s is None or w is None or b != s or w < 1 or s < max(2 * w + 1, w + 3):
        return None
    return _family(s, w, S.PatternUnion(tuple(parts)))


def _count(n: int, s: int, w: int) -> int:
    rho = n % s
    if rho == 0:
        return 2 * factorial(s - 2 * w)
    held = len([c for c in range(w + 1, s - w + 1) if c <= rho])
    return factorial(held) * factorial(s - 2 * w - held)


def exchange_problem(pattern: S.Pattern, n: int, s: int, w: int) -> Optional[str]:
    heads = [patterns.head_arcs(pattern, n)]
    arcs = heads[0]
    perm = list(range(1, n + 1))
    for t in range(1, s + 1):
        perm[2 * s + t - 1], perm[3 * s + t - 1] = 3 * s + t, 2 * s + t
    if all((perm[u - 1], perm[v - 1]) in arcs for u, v in arcs):
        return f"n = {n}: the block exchange is a symmetry"
    dist = patterns.bfs(patterns.union_out(heads, n), w + 1)
    near = [v for v in patterns.view_bad_positions(perm, heads, n) if dist[v] is not None and dist[v] <= 1]
    if near:
        return f"n = {n}: position {near[0]}, whose neighbourhood the exchange changes, is within 1 of position {w + 1}"
    return None


def _family(s: int, w: int, pattern: S.Pattern):
    from .families import Family, ResidueLength
    low = s * (s + 1)

    def order(n):
        rho = (n.rho % s) if isinstance(n, ResidueLength) else int(n) % s
        return sympy.Integer(_count(rho + s * low, s, w))

    def name(text):
        return f"interior offsets {{{w + 1}, …, {s - w}}}" in text and "reflection" in text
    return Family("F64", low, 2, 3, True, order, s, name, None,
                  diameter_at=lambda n: sympy.Integer(2), period=s,  # a whole period re-checked, past MAX_INSTANCE_N
                  layers_check=lambda n, d: exchange_problem(pattern, n, s, w),
                  layers_text=(f"3 layers least (Theorem F64): exchanging the blocks {{{2 * s + 1}, …, {3 * s}}} and "
                               f"{{{3 * s + 1}, …, {4 * s}}} keeps every neighbourhood within distance 1 of position "
                               f"{w + 1} and is not in G (checked on the verifier's arcs at every instance); D + 1 = 3 "
                               "suffice"))
