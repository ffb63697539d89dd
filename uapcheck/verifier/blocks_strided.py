"""Theorem F34 (docs/theory.md §11.11), restated for the verifier: `blocks(b) + strided(s)`, integers b > s ≥ 2,
s ≤ 7, for n ≥ b·m₀ with m₀ = max(⌊max(b, 2⌈b/s⌉)/⌊b/s⌋⌋ + 1, s/gcd(b, s), 3): D = 2; |G| = ∏ |cell|! ·
∏ (rows per weight vector)! · |T| (the verifier's own count of the cells of the grid blocks × residues, and of the
column permutations T), as C_t·A^m·((α + 1)!)^β·(α!)^{L−β} per residue t of n mod bL; 3 layers (least) when
1 ≤ n mod b ≤ s − 2, with the witness checked on the arcs, else 2 (least; nauty's rooted views, with G's
generators from nauty on the verifier's arcs), re-checked at one whole period of n mod b from the range's start.
"""
from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import factorial, gcd
from typing import Optional

import sympy

from .. import spec as S
from . import patterns
from .residue_layers import DiameterTwoByResidue


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list, spec: S.Spec):
    kinds = sorted(type(q).__name__ for q in parts)
    if kinds != ["Blocks", "Strided"]:
        return None
    b = _int(next(q for q in parts if isinstance(q, S.Blocks)).b)
    s = _int(next(q for q in parts if isinstance(q, S.Strided)).s)
    if b is not None and s is not None and 2 <= b < s <= 7 and s % b:
        return _Incidence(b, s, S.PatternUnion(tuple(parts)), spec).family()
    if b is None or s is None or not b > s >= 2 or s > 7:
        return None
    return _Grid(b, s, S.PatternUnion(tuple(parts)), spec).family()


class _Grid(DiameterTwoByResidue):
    def __init__(self, b: int, s: int, pattern: S.Pattern, spec: S.Spec):
        self.b, self.s, self.pattern, self.spec = b, s, pattern, spec
        self.layer_modulus = b
        floor_, ceil_ = b // s, -(-b // s)
        self.rows_per_period = s // gcd(b, s)
        self.low = b * max(max(b, 2 * ceil_) // floor_ + 1, self.rows_per_period, 3)
        self.period = b * self.rows_per_period
        self.whole = factorial(ceil_) ** (b % s) * factorial(floor_) ** (s - b % s)

    def count(self, n: int) -> int:
        """|G| at an integer n, from the grid: cells, rows per vector, column permutations."""
        cells: dict = {}
        for p in range(1, n + 1):
            cells[((p - 1) // self.b, p % self.s)] = cells.get(((p - 1) // self.b, p % self.s), 0) + 1
        rows = sorted({r for r, _ in cells})
        vec = [tuple(cells.get((r, c), 0) for c in range(self.s)) for r in rows]
        many = Counter(vec)
        out = 1
        for size in cells.values():
            out *= factorial(size)
        for k in many.values():
            out *= factorial(k)
        good = 0
        for tau in permutations(range(self.s)):
            if all(many[tuple(v[tau.index(c)] for c in range(self.s))] == k for v, k in many.items()):
                good += 1
        return out * good

    def order(self, n):
        from .symbolic_unions import _residue_of
        found = _residue_of(n, self.period)
        if found is None:
            return sympy.Integer(self.count(int(n)))
        k, t = found
        n0 = self.low + (t - self.low) % self.period
        m0, big = n0 // self.b, self.rows_per_period
        a0, beta = divmod(m0, big)
        const = sympy.Integer(self.count(n0)) / (self.whole ** m0 * factorial(a0 + 1) ** beta * factorial(a0) ** (big - beta))
        length = k * self.period + t  # the residue length's own value
        m = sympy.floor(length / self.b)
        alpha = sympy.floor(length / self.period)
        return const * sympy.Integer(self.whole) ** m * sympy.factorial(alpha + 1) ** beta * sympy.factorial(alpha) ** (big - beta)

    def expected_order(self, n: int) -> int:
        return self.count(n)

    def _layers_problem(self, n: int, heads: list, dist: dict, lab: dict) -> Optional[str]:
        from . import views
        m, rho = divmod(n, self.b)
        if 1 <= rho <= self.s - 2:
            lacks = [(m * self.b + rho + t) % self.s for t in (1, 2)]
            a, c = (next(p for p in range(1, self.b + 1) if p % self.s == r) for r in lacks)
            root = m * self.b + 1
            perm = [c if k == a else a if k == c else k for k in range(1, n + 1)]
            if patterns.preserves(perm, lab):
                return f"n = {n}: the witness is a symmetry"
            if any(dist[v][root] is not None and dist[v][root] <= 1 for v in patterns.view_bad_positions(perm, heads, n)):
                return f"n = {n}: the witness changes a neighbourhood within distance 1 of {root}"
            return None
        try:
            import pynauty
            from . import nauty_graph
            g, _ = nauty_graph.build(n, lab, [set(range(1, n + 1))])
            gens = nauty_graph.position_generators(pynauty.autgrp(g)[0], n)
            found = views.decide(heads, n, 2, gens)
        except (ImportError, views.NoNauty, nauty_graph.TooLarge) as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        return f"n = {n}: {found}" if found else None

    def family(self):
        from .families import Family

        def name(text):
            return "onto blocks" in text and f"residue classes mod {self.s}" in text
        return Family("F34", self.low, 2, 2, True, self.order, self.period, name, None, None,
                      diameter_at=lambda n: sympy.Integer(2), period=self.b, instances=self.instances,
                      instances_text=(f"instances n = {self.low}..{self.low + self.b} re-checked on the verifier's arcs "
                                      "(BFS, the group code, the witness or nauty's rooted views)"),
                      layers_by=self.layers)


class _Incidence(_Grid):
    """Theorem F44: b < s, b ∤ s — the line graph of the block–residue incidence graph. The verifier's own range
    (every block type present, every class above b positions), D per residue of n mod bL by BFS on its arcs, |G| by
    its own count (cells of one position), and D + 1 layers (not claimed least)."""

    def __init__(self, b: int, s: int, pattern: S.Pattern, spec: S.Spec):
        self.b, self.s, self.pattern, self.spec = b, s, pattern, spec
        self.rows_per_period = s // gcd(b, s)
        self.period = b * self.rows_per_period
        self.low = max(b * self.rows_per_period, s * (b + 1))
        self.whole = 1  # every cell holds at most one position (b < s)
        self.table = {}
        for n in range(self.low, self.low + self.period):
            self.table[n % self.period] = self._diameter(n)

    def _diameter(self, n: int) -> Optional[int]:
        outs = patterns.union_out([patterns.head_arcs(self.pattern, n)], n)
        found = [x for v in range(1, n + 1) for x in patterns.bfs(outs, v)[1:]]
        return None if None in found else max(x for x in found if x is not None)

    def diameter(self, n):
        if isinstance(n, int):
            return sympy.Integer(self.table[n % self.period])
        return sum((self.table[r] * (sympy.floor((n - r) / self.period) - sympy.floor((n - r - 1) / self.period))
                    for r in range(self.period)), sympy.Integer(0))

    def instances(self, what: str) -> Optional[str]:
        from . import groups
        for n in range(self.low, self.low + self.period + 1):
            d = self._diameter(n)
            if d is None or d != self.table[n % self.period]:
                return f"n = {n}: the diameter is {d}, not {self.table[n % self.period]}"
            if what == "group":
                heads = [patterns.head_arcs(self.pattern, n)]
                lab = patterns.labels_at(self.spec, heads, n, kinds=[None])
                full, method = groups.full_order(lab, n, "none")
                if full is None or full != self.count(n):
                    return f"n = {n}: the pattern has {full} symmetries ({method}), the theorem says {self.count(n)}"
        return None

    def family(self):
        from .families import Family

        def name(text):
            return "onto blocks" in text and f"residue classes mod {self.s}" in text and "line graph" in text
        if any(d is None for d in self.table.values()):
            return None
        return Family("F44", self.low, 0, 0, False, self.order, self.period, name, None, None,
                      diameter_at=self.diameter, period=self.period, instances=self.instances,
                      instances_text=(f"instances n = {self.low}..{self.low + self.period} re-checked on the verifier's "
                                      "arcs (BFS, the group code)"),
                      layers_by=lambda n: self.diameter(n) + 1)
