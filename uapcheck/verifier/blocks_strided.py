"""Theorem F34 (docs/theory.md §11.11), restated for the verifier: `blocks(b) + strided(s)`, integers b > s ≥ 2,
s ≤ 7 or one period b·s/gcd(b, s) of at most 4,096 lengths, for n ≥ b·m₀ with m₀ = max(⌊max(b, 2⌈b/s⌉)/⌊b/s⌋⌋ + 1, s/gcd(b, s), 3): D = 2; |G| = ∏ |cell|! ·
∏ (rows per weight vector)! · |T| (the verifier's own count of the cells of the grid blocks × residues, and of the
column permutations T), as C_t·A^m·((α + 1)!)^β·(α!)^{L−β} per residue t of n mod bL; 3 layers (least) when
1 ≤ n mod b ≤ s − 2, with the witness checked on the arcs, else 2 (least; nauty's rooted views, with G's
generators from nauty on the verifier's arcs), re-checked at one whole period of n mod b from the range's start.

Theorem F44 (b < s, b ∤ s, s ≤ 7 or one period bL of at most 72 lengths: the line graph of the block–residue incidence graph) with Theorem F57's layers:
where the verifier's own check finds D = 3 and F57's criterion (restated here on the blocks' residue sets, read off
the positions) decided at every n from the range's start through one period of n mod bL past the length where every
block set occurs twice, 4 = D + 1 layers (least) for 1 ≤ n mod b ≤ s − b and D = 3 (least) otherwise; at one whole
period of instances, where 3 layers are claimed, two positions at distance 3 from any root are adjacent exactly
when they have a common neighbour within distance 2 of it (the lemma's premise, by BFS on the verifier's arcs), and
where 4 are claimed the swap of one class's positions in two blocks of one residue set is checked on the arcs.
Where F57 does not apply, Theorems F58 and F66: the verifier's own check, on its arcs, of a twin-block witness (two
whole blocks of one residue set entirely at distance ≥ D from a root), an in-block swap witness (two positions of one
whole block whose residue classes lie entirely at distance ≥ D from a root), the common-neighbour premise, or the
far-star premise (every block and class of two positions or more, at most one of them entirely at distance D from any
root) at every n from the range's start through one period past 4bL, its own start for the periodic count, and the
conditions again at the instances.
"""
from __future__ import annotations

from collections import Counter
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
    if (b is not None and s is not None and 2 <= b < s and s % b
            and (s <= 7 or b * (s // gcd(b, s)) <= MAX_PERIOD_BELOW)):
        return _Incidence(b, s, S.PatternUnion(tuple(parts)), spec).family()
    if b is None or s is None or not b > s >= 2 or (s > 7 and b * (s // gcd(b, s)) > MAX_PERIOD):
        return None
    return _Grid(b, s, S.PatternUnion(tuple(parts)), spec).family()


#: above s = 7 (where every τ ∈ S_s was tried) the grid is taken while one period b·s/gcd(b, s) has at most this many
#: lengths; the column maps are then counted column by column (`_column_maps`)
MAX_PERIOD = 4096
#: and Theorem F44 (b < s, b ∤ s) above s = 7 while one period bL has at most this many lengths (its checks, BFS on
#: the verifier's arcs up to one period past 4bL, grow with the period); |G| by the same column-by-column count
MAX_PERIOD_BELOW = 72


def _column_maps(many: Counter, s: int) -> int:
    """|T|: the column maps τ with many[V∘τ⁻¹] = many[V] for every row vector V, counted by extending τ column by
    column (a prefix τ(0), …, τ(j) is kept only when the vectors read on the columns 0..j and on their images give
    the same multiset, which every τ ∈ T meets at every prefix; at j = s − 1 it is the whole condition)."""
    items = list(many.items())

    def grow(image: tuple) -> int:
        j = len(image)
        if j == s:
            return 1
        total = 0
        for c in range(s):
            if c in image:
                continue
            longer = image + (c,)
            mine: Counter = Counter()
            theirs: Counter = Counter()
            for v, k in items:
                mine[v[:j + 1]] += k
                theirs[tuple(v[x] for x in longer)] += k
            if mine == theirs:
                total += grow(longer)
        return total
    return grow(())


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
        return out * _column_maps(many, self.s)

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
        self._least: Optional[bool] = None
        self._pumped: Optional[tuple] = None
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
            if what == "layers" and self.least_decided():
                problem = self.layers_problem(n)
                if problem:
                    return problem
        return None

    def _sets(self, n: int) -> tuple:
        """The residue set of every block, read off the positions: ({block index: set}, the last block's index when
        it is partial, else None)."""
        sets: dict = {}
        for p in range(1, n + 1):
            sets.setdefault((p - 1) // self.b, set()).add(p % self.s)
        last = (n - 1) // self.b if n % self.b else None
        return {k: frozenset(v) for k, v in sets.items()}, last

    def criterion(self, n: int) -> str:
        """F57 at n (D = 3): 'W' when a root (block k, class c) has a block j ∌ c, disjoint from block k, with ≥ 2
        classes and another block of the same set; 'D' when no root has such a block j at all and every class e
        outside k's set and c held by two blocks without c shares a block with c; '?' otherwise."""
        sets, _ = self._sets(n)
        same = Counter(sets.values())
        found = bad = False
        for here in sets.values():
            for c in here:
                for there in sets.values():
                    if c in there or there & here or len(there) < 2:
                        continue
                    bad = True
                    found = found or same[there] >= 2
                for e in range(self.s):
                    if e in here or e == c:
                        continue
                    lacking = [there for there in sets.values() if e in there and c not in there]
                    if len(lacking) >= 2 and not any(c in there and e in there for there in sets.values()):
                        bad = True
        return "W" if found else ("?" if bad else "D")

    def layers(self, n):
        def at(rho):
            return 4 if 1 <= rho <= self.s - self.b else 3
        if isinstance(n, int):
            return sympy.Integer(at(n % self.b))
        return sum((at(r) * (sympy.floor((n - r) / self.b) - sympy.floor((n - r - 1) / self.b)) for r in range(self.b)),
                   sympy.Integer(0))

    def least_decided(self) -> bool:
        """F57's finite check, the verifier's own: D = 3 in every residue class (its table, one period of BFS), and the
        criterion as the layer formula says at every n from the range's start through one period past 2bL (from
        there on the block sets depend on n mod bL only)."""
        if self._least is not None:
            return self._least
        top = max(self.low, 2 * self.period) + self.period
        self._least = all(d == 3 for d in self.table.values()) and all(self.criterion(n) == ("W" if int(self.layers(n)) == 4 else "D")
                   for n in range(self.low, top))
        return self._least

    def layers_problem(self, n: int) -> Optional[str]:
        """At one instance: where 3 layers, the common-neighbour premise at every root; where 4, the swap."""
        heads = [patterns.head_arcs(self.pattern, n)]
        arcs = heads[0]
        outs = patterns.union_out(heads, n)
        dist = {v: patterns.bfs(outs, v) for v in range(1, n + 1)}
        if int(self.layers(n)) == 3:
            for root in range(1, n + 1):
                far = [v for v in range(1, n + 1) if dist[root][v] == 3]
                for u in far:
                    for v in far:
                        if u < v and ((u, v) in arcs) != any(
                                (u, z) in arcs and (v, z) in arcs and (dist[root][z] or 0) <= 2 for z in range(1, n + 1)):
                            return f"n = {n}: positions {u}, {v} at distance 3 from {root} break the common-neighbour premise"
            return None
        sets, last = self._sets(n)
        for k, here in sets.items():
            root = k * self.b + 1
            c = root % self.s
            for j, there in sets.items():
                twins = [i for i, other in sets.items() if other == there and i != j and i != last]
                if j == last or c in there or there & here or len(there) < 2 or not twins:
                    continue
                e = min(there)
                x, y = (i * self.b + next(q for q in range(1, self.b + 1) if (i * self.b + q) % self.s == e)
                        for i in (j, twins[0]))
                perm = [y if q == x else x if q == y else q for q in range(1, n + 1)]
                if all((perm[u - 1], perm[v - 1]) in arcs for u, v in arcs):
                    return f"n = {n}: the swap ({x} {y}) is a symmetry"
                bad = [v for v in patterns.view_bad_positions(perm, heads, n) if (dist[v][root] or 0) <= 2]
                if bad:
                    return f"n = {n}: the swap ({x} {y}) changes the neighbourhood of {bad[0]}, within 2 of {root}"
                return None
        return f"n = {n}: no swap of one class's positions in two blocks of one residue set was found"

    def pumping(self, n: int) -> str:
        """F58's and F66's conditions at n on the verifier's arcs. Witnesses: 'W' when two whole blocks with one
        residue set lie entirely at distance ≥ D from some root; 'X' when two positions of one whole block have residue
        classes entirely at distance ≥ D from some root. Rigid: 'Q' when at every root two positions at distance D are
        adjacent iff they have a common neighbour within D − 1; 'S' when every block and class holds two positions or
        more and at every root at most one of them lies entirely at distance D (F65). '?' otherwise."""
        arcs = patterns.head_arcs(self.pattern, n)
        outs = patterns.union_out([arcs], n)
        near = [set(outs[v]) | {v} for v in range(n + 1)]
        dist = [[0 if x is None else x for x in patterns.bfs(outs, v)] for v in range(n + 1)]
        d = max(max(row[1:]) for row in dist[1:])
        sets: dict = {}
        for k in range(n // self.b):
            sets.setdefault(frozenset(p % self.s for p in range(k * self.b + 1, (k + 1) * self.b + 1)), []).append(k)
        groups = [[p for p in range(1, n + 1) if (p - 1) // self.b == k] for k in range((n - 1) // self.b + 1)]
        groups += [[p for p in range(1, n + 1) if p % self.s == c] for c in range(self.s)]
        rule = True
        swap = spread = False
        for root in range(n, 0, -1):
            row = dist[root]
            for ks in sets.values():
                if sum(all(row[k * self.b + q] >= d for q in range(1, self.b + 1)) for k in ks) >= 2:
                    return "W"
            far = {c for c in range(self.s) if all(row[p] >= d for p in range(1, n + 1) if p % self.s == c)}
            swap = swap or any(len({(k * self.b + q) % self.s for q in range(1, self.b + 1)} & far) >= 2
                               for k in range(n // self.b))
            spread = spread or sum(all(row[p] >= d for p in g) for g in groups) >= 2
            rim = [v for v in range(1, n + 1) if row[v] == d]
            rule = rule and all(((u, v) in arcs) == any(row[z] < d for z in near[u] & near[v])
                                for a, u in enumerate(rim) for v in rim[a + 1:])
        if swap:
            return "X"
        if rule:
            return "Q"
        return "S" if not spread and all(len(g) >= 2 for g in groups) else "?"

    def pumped(self):
        """F58's finite check, the verifier's own: the conditions over one period from max(start, 4bL), then at every
        smaller n down to the first that disagrees; (start, {n mod bL: layers}) when that period is decided."""
        if self._pumped is not None:
            return self._pumped or None
        top = max(self.low, 4 * self.period) + self.period
        last = {}
        for n in range(top - self.period, top):
            last[n % self.period] = self._count(n)
            if last[n % self.period] is None:
                self._pumped = ()
                return None
        start = top - self.period
        while start > self.low and self._count(start - 1) == last[(start - 1) % self.period]:
            start -= 1
        self._pumped = (start, last)
        return self._pumped

    def _count(self, n: int) -> Optional[int]:
        """The least count the conditions prove at n: D + 1 at a witness ('W', 'X'), D where rigid ('Q', 'S')."""
        kind, d = self.pumping(n), self.table[n % self.period]
        return None if kind == "?" or d is None else d + (kind in ("W", "X"))

    def pumped_layers(self, n):
        _, table = self.pumped()
        if isinstance(n, int):
            return sympy.Integer(table[n % self.period])
        return sum((table[r] * (sympy.floor((n - r) / self.period) - sympy.floor((n - r - 1) / self.period))
                    for r in range(self.period)), sympy.Integer(0))

    def pumped_instances(self, what: str) -> Optional[str]:
        problem = self.instances(what)
        if problem or what != "layers":
            return problem
        start, table = self.pumped()
        for n in range(start, start + self.period + 1):
            kind = self.pumping(n)
            want = ("W", "X") if table[n % self.period] > self.table[n % self.period] else ("Q", "S")
            if kind not in want:
                return f"n = {n}: F58's condition is {kind}, the layer count needs {' or '.join(want)}"
        return None

    def family(self):
        from .families import Family

        def name(text):
            return "onto blocks" in text and f"residue classes mod {self.s}" in text and "line graph" in text
        if any(d is None for d in self.table.values()):
            return None
        if not self.least_decided() and self.pumped() is not None:  # Theorem F58
            start = self.pumped()[0]
            return Family("F44", start, 0, 0, True, self.order, self.period, name, None, None,
                          diameter_at=self.diameter, period=self.period, instances=self.pumped_instances,
                          instances_text=(f"instances n = {self.low}..{self.low + self.period} re-checked on the "
                                          "verifier's arcs (BFS, the group code, F58's conditions)"),
                          layers_by=self.pumped_layers,
                          layers_text=(f"Theorem F58 with F66 (the verifier's own check of the twin-block or in-block "
                                       f"swap witness, or the common-neighbour or far-star premise, on its arcs at "
                                       f"every n from {self.low} through one "
                                       f"period past {4 * self.period}; from {start} on the count follows n mod "
                                       f"{self.period}): least"))
        if self.least_decided():  # Theorem F57
            return Family("F44", self.low, 3, 3, True, self.order, self.period, name, None, None,
                          diameter_at=self.diameter, period=self.period, instances=self.instances,
                          instances_text=(f"instances n = {self.low}..{self.low + self.period} re-checked on the "
                                          "verifier's arcs (BFS, the group code, F57's premise or witness)"),
                          layers_by=self.layers,
                          layers_text=(f"Theorem F57 (the verifier's own criterion on the blocks' residue sets, at every "
                                       f"n from {self.low} through one period past {2 * self.period}): 4 layers least "
                                       f"for 1 ≤ n mod {self.b} ≤ {self.s - self.b} (a swap of one class's positions in "
                                       "two blocks of one residue set), else D = 3, least"))
        if any(d is None for d in self.table.values()):
            return None
        return Family("F44", self.low, 0, 0, False, self.order, self.period, name, None, None,
                      diameter_at=self.diameter, period=self.period, instances=self.instances,
                      instances_text=(f"instances n = {self.low}..{self.low + self.period} re-checked on the verifier's "
                                      "arcs (BFS, the group code)"),
                      layers_by=lambda n: self.diameter(n) + 1)
