"""Theorems F21 and F22 (docs/theory.md §11.11), restated for the verifier with its own arcs:
`blocks(b) + window(w)` and `blocks(b) + window(w) + global(g)`, integers b ≥ 3, 1 ≤ w ≤ b − 2, g ≥ 1.

    F21 blocks(b) + window(w):           n ≥ 3b + 1: D by residue of n mod Q (the greedy walk from 1,
                                         p ↦ max(b⌈p/b⌉, p + w), gains T steps every Q positions; D at one
                                         length per residue by BFS on the verifier's arcs); |G| = ∏ |C|! over
                                         the twin classes (the verifier's own, from its arcs), times 2 when
                                         the reversal preserves the arcs, and |G|(n + b) = |G|(n)·(b − 2w)!
                                         (or ·1 when b ≤ 2w + 1); D layers (least): rooted views with nauty
    F22 … + global(g):                   n ≥ max((⌊g/b⌋ + 3)b + 1, (⌊g/b⌋ + 1)b + 3w + 2): D = 2, |G| as
                                         above times g! (classes of the non-globals), 3 layers (least),
                                         witness the swap (x x+1), x = (⌊g/b⌋ + 1)b + w, at position n
"""
from __future__ import annotations

from math import factorial
from typing import Optional

import sympy

from .. import spec as S
from . import patterns


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _swap(n: int, a: int, b: int) -> list:
    return [b if k == a else a if k == b else k for k in range(1, n + 1)]


def _globals(parts: list) -> Optional[int]:
    """g for `blocks + window` (0) and `blocks + window + global(g)` or `+ star` (g), else None."""
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds == ["Blocks", "Window"]:
        return 0
    if kinds in (["Blocks", "Global", "Window"], ["Blocks", "Star", "Window"]):
        glob = next(q for q in parts if isinstance(q, (S.Global, S.Star)))
        return 1 if isinstance(glob, S.Star) else _int(glob.g)
    return None


def match(parts: list):
    """The verifier's Family for these union parts, or None."""
    g = _globals(parts)
    if g is None or g < 0:
        return None
    win = next(q for q in parts if isinstance(q, S.Window))
    blk = next(q for q in parts if isinstance(q, S.Blocks))
    b, w = _int(blk.b), _int(win.w)
    if win.cyclic or b is None or w is None or not (b >= 3 and 1 <= w <= b - 2):
        return None
    return _BlocksWindow(b, w, g, S.PatternUnion(tuple(parts))).family()


class _BlocksWindow:
    """The verifier's own values of F21/F22 on its own arcs."""

    def __init__(self, b: int, w: int, g: int, pattern: S.Pattern):
        self.b, self.w, self.g, self.pattern = b, w, g, pattern
        self.k0 = g // b + 1
        self.low = (self.k0 + 2) * b + 1 if g == 0 else max((self.k0 + 2) * b + 1, self.k0 * b + 3 * w + 2)
        self.inner = factorial(max(b - 2 * w, 1))
        self.cache: dict = {}

    def arcs(self, n: int) -> frozenset:
        if ("a", n) not in self.cache:
            self.cache[("a", n)] = patterns.head_arcs(self.pattern, n)
        return self.cache[("a", n)]

    def bfs_diameter(self, n: int) -> int:
        if ("d", n) not in self.cache:
            outs = patterns.union_out([self.arcs(n)], n)
            self.cache[("d", n)] = max(x for v in range(1, n + 1) for x in patterns.bfs(outs, v)[1:] if x is not None)
        return self.cache[("d", n)]

    def reversal(self, n: int) -> list:
        """i ↦ n + g + 1 − i on the non-globals, the globals fixed."""
        return list(range(1, self.g + 1)) + [n + self.g + 1 - p for p in range(self.g + 1, n + 1)]

    def own_order(self, n: int) -> int:
        """g! · ∏ |C|! over the twin classes of the non-globals (equal closed neighbourhoods, on the arcs),
        times 2 when the reversal of the non-globals preserves the arcs."""
        if ("o", n) not in self.cache:
            a, g = self.arcs(n), self.g
            closed: dict = {}
            for p in range(g + 1, n + 1):
                closed.setdefault(frozenset([p] + [j for j in range(g + 1, n + 1) if (j, p) in a]), []).append(p)
            out = factorial(g)
            for members in closed.values():
                out *= factorial(len(members))
            refl = self.reversal(n)
            self.cache[("o", n)] = out * (2 if all((refl[j - 1], refl[i - 1]) in a for j, i in a) else 1)
        return self.cache[("o", n)]

    def order(self, n):
        from .families import ResidueLength
        if isinstance(n, ResidueLength):
            k = next(iter(n.n.free_symbols))
            r = int(n.n.xreplace({k: 0}))
            n0 = self.low + (r - self.low) % self.b
            return sympy.Integer(self.own_order(n0)) * sympy.Integer(self.inner) ** (k - n0 // self.b)
        return sympy.Integer(self.own_order(int(n)))

    def period(self) -> tuple[int, int]:
        """(T, Q): the greedy walk from 1 gains T steps every Q positions (back to a block end)."""
        reach = [1]
        while len(reach) < 3 or reach[-1] % self.b:
            p = reach[-1]
            reach.append(max(self.b * -(-p // self.b), p + self.w))
        return len(reach) - 2, reach[-1] - reach[1]

    def diameter(self, n):
        if isinstance(n, int):
            return sympy.Integer(self.bfs_diameter(n))
        steps, q = self.period()
        total = sympy.Integer(0)
        for r in range(q):
            n0 = self.low + (r - self.low) % q
            here = self.bfs_diameter(n0) + steps * (sympy.floor(n / q) - n0 // q)
            total += here * (sympy.floor((n - r) / q) - sympy.floor((n - r - 1) / q))
        return total

    def generators(self, n: int) -> list:
        """Swaps of consecutive twins (on the arcs) and the reversal when it preserves the arcs."""
        a = self.arcs(n)
        out = []
        for p in range(1, n):
            if ({j for j in range(1, n + 1) if (j, p) in a} | {p}) == ({j for j in range(1, n + 1) if (j, p + 1) in a}
                                                                       | {p + 1}):
                out.append(_swap(n, p, p + 1))
        refl = list(range(n, 0, -1))
        if all((refl[j - 1], refl[i - 1]) in a for j, i in a):
            out.append(refl)
        return out or [list(range(1, n + 1))]

    def family(self):
        from .families import Family

        def name(text):
            return "twin classes" in text
        if self.g:
            x = self.k0 * self.b + self.w

            def witness(n):
                return n, _swap(n, x, x + 1)
            return Family("F22", self.low, 2, 3, True, self.order, self.b, name, witness)
        return Family("F21", self.low, 0, 0, True, self.order, self.b, name, None, self.generators,
                      diameter_at=self.diameter, period=self.period()[1])
