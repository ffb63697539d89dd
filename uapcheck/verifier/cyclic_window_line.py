"""Theorem F101 (docs/theory.md §11.11), restated for the verifier: `window(w) cyclic` with non-cyclic window,
dilated and offsets parts whose offsets outside {−w, …, w} form A ≠ ∅. With J = max |A| and S = {−w, …, w} ∪ A
without 0 (a = −min S, b = max S), for n ≥ max(2J + m₀, 2J + a + b + 1, 2J + w + 1, 2w + 3), m₀ the length from
which the line pattern `offsets S` has F41's group (the verifier's own restatement, ``offsets_line.group_range``:
its own ball certificate and the lengths below re-decided on its arcs): G = the reflection when A = −A, else
trivial; D ≤ ⌈⌊n/2⌋/w⌉ (a bound, the cyclic window's alone), that plus one layers, not least. The verifier's own A,
S and range; its instance check re-checks the bound (BFS) and the order (nauty) on its own arcs.
"""
from __future__ import annotations

from typing import Sequence

import sympy

from .. import spec as S


def match(parts: Sequence[S.Pattern]):
    """F101's Family for these parts, or None."""
    cyclic = [q for q in parts if isinstance(q, S.Window) and q.cyclic]
    rest = [q for q in parts if q not in cyclic]
    if len(cyclic) != 1 or not rest or not isinstance(cyclic[0].w, int) or isinstance(cyclic[0].w, bool):
        return None
    if any(not isinstance(q, (S.Window, S.Dilated, S.Offsets)) or getattr(q, "cyclic", False) for q in rest):
        return None
    from .offsets_line import line_jumps
    jumps = line_jumps(rest)
    if jumps is None:
        return None
    return family(cyclic[0].w, tuple(jumps))


def family(w: int, jumps: tuple):
    from .families import Family
    from .offsets_line import group_range
    window = set(range(-w, w + 1))
    outside = sorted(set(jumps) - window)
    if w < 1 or not outside:
        return None
    steps = sorted((window | set(outside)) - {0})
    found = group_range(steps)
    if found is None:
        return None
    m0, _ = found
    far = max(abs(k) for k in outside)
    a, b = -min(steps), max(steps)
    low = max(2 * far + m0, 2 * far + a + b + 1, 2 * far + w + 1, 2 * w + 3)
    symmetric = set(outside) == {-k for k in outside}

    def bound(n):
        return sympy.ceiling(sympy.floor(sympy.Integer(n) / 2 if isinstance(n, int) else n / 2) / w)

    def name(text):
        return text == ("reflection" if symmetric else "trivial")

    return Family("F101", low, 0, 1, False, lambda n: sympy.Integer(2 if symmetric else 1), 1, name, None,
                  diameter_at=bound, period=2 * w, layers_by=lambda n: bound(n) + 1, bound=True)
