"""Theorem F63 (docs/theory.md §11.11), restated for the verifier: `blocks(b) + dilated(w, b)`, integers b ≥ 2,
w ≥ 1, the grid of the blocks by the offsets within a block (K_b □ P^w when b | n): for n ≥ b·max(2w + 1, w + 2, 3),
D = ⌈(⌈n/b⌉ − 1)/w⌉ + 1, |G| = 2·b! when b | n, else ρ!·(b − ρ)! with ρ = n mod b; D + 1 layers (not least). The
verifier's own range and closed forms; the instance check re-checks a whole period of n mod b from the range's start
on its own arcs (BFS, the group order with nauty).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list):
    if sorted(type(q).__name__ for q in parts) != ["Blocks", "Dilated"]:
        return None
    blk = next(q for q in parts if isinstance(q, S.Blocks))
    dil = next(q for q in parts if isinstance(q, S.Dilated))
    b, w, r = _int(blk.b), _int(dil.w), _int(dil.r)
    if b is None or w is None or r is None or b < 2 or w < 1 or r != b:
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
        return f"offsets {{1, …, {b}}} within a block" in text and "reversal of the blocks" in text
    return Family("F63", low, 0, 0, False, order, b, name, None, None, diameter_at=diameter, period=b,
                  layers_by=lambda n: diameter(n) + 1)
