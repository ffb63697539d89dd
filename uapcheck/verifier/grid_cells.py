"""One head `blocks(b) + strided(s)` at a concrete n above the verifier's arc limit, decided on its cells with the
verifier's own arithmetic neighbour function, where the interval model would need one interval per position of a
residue class (docs/theory.md §18.5).

    neighbours     position p attends to the positions of its block, ⌊(q − 1)/b⌋ = ⌊(p − 1)/b⌋, and of its residue
                   class, q ≡ p (mod s), itself included: the arcs patterns.py writes for Blocks and Strided, which
                   are symmetric
    cells          C(k, c): the positions of block k with p ≡ c (mod s), each nonempty one with its first member and
                   its size ⌊(hi − f)/s⌋ + 1 (f its first member, hi the block's last position), in closed form; the
                   positions of one cell have one neighbourhood, the union of the cells of its row and of its column
    twin classes   the cells: any permutation of a cell is an automorphism (one neighbourhood, and a cell lies in one
                   block, so its positions are adjacent); maximal when the cells' In-sets (row ∪ column) are pairwise
                   distinct, as two twins in two cells would give both cells one In-set (else the route stands aside)
    PAT-CONNECTED  D on the quotient (Theorem F196 (a): d_Q between cells, 1 inside a cell of two or more); the stated
                   pair's distance likewise
    PAT-LAYERS     D layers, least, by Theorem F181's class-map search on this quotient at the true sizes
                   (twin_class_maps.decide), for a certificate of the twin quotient
    SYM-AUT        |Aut| = |Aut_c(Q)| · ∏ |C|!: every automorphism permutes the twin classes, inducing one of the
                   quotient coloured by size, with kernel ∏ S_C, and each such permutation of Q lifts; Aut_c(Q) by
                   nauty, its order by Schreier–Sims, compared with the stated order (large.twin_order)

Taken where the interval model refuses the pattern (a strided part puts n/s intervals in each neighbourhood), with at
most MAX_CELLS cells (blocks times residues present); elsewhere the steps are left to the other routes.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Optional

from .. import spec as S
from .check import VERIFIED, Reject, Trust

MAX_CELLS = 256  # the quotient's breadth-first searches, one per cell, stay within a second below it


@dataclass(frozen=True)
class Grid:
    b: int
    s: int
    n: int
    cells: tuple      # ((block, residue), ...)
    sizes: tuple      # each cell's number of positions
    firsts: tuple     # each cell's first position
    into: tuple       # each cell's In-set: the cells of its row and of its column (itself included)

    def cell_of(self, p: int) -> int:
        return self.cells.index(((p - 1) // self.b, p % self.s))

    def distances(self, root: int) -> dict:
        """d_Q(· → root) on the quotient (symmetric: the same from root)."""
        dist = {root: 0}
        queue = deque([root])
        while queue:
            t = queue.popleft()
            for u in self.into[t]:
                if u not in dist:
                    dist[u] = dist[t] + 1
                    queue.append(u)
        return dist

    def distance(self, j: int, i: int) -> Optional[int]:
        """d(j → i) between positions: 0 for j = i, 1 inside a cell, else d_Q between their cells."""
        if j == i:
            return 0
        a, c = self.cell_of(j), self.cell_of(i)
        return 1 if a == c else self.distances(c).get(a)

    def words(self) -> str:
        return (f"the verifier's cells of blocks({self.b}) × residues mod {self.s} at n = {self.n:,} ({len(self.cells)} "
                f"cells, sizes in closed form, In-sets pairwise distinct: the maximal twin classes)")


def _ints(*values) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values)


def grid(ctx) -> Optional[Grid]:
    """The cells of the one plain head `blocks(b) + strided(s)` at the integer n (cached), where the interval model
    refuses the pattern (it decides the rest); None when the file is another, the model covers it, the cells are more
    than MAX_CELLS, or two cells share their In-set."""
    if "grid cells" not in ctx.cache:
        found = _grid(ctx.spec)
        ctx.cache["grid cells"] = found if found is not None and _beyond_intervals(ctx) else None
    return ctx.cache["grid cells"]


def _beyond_intervals(ctx) -> bool:
    from . import large
    try:
        large._spans(ctx)
    except Trust:
        return True
    return False


def _grid(spec: S.Spec) -> Optional[Grid]:
    n = spec.tokens
    if not isinstance(n, int) or not _ints(n) or len(spec.heads) != 1 or spec.positional != "none":
        return None
    head = spec.heads[0]
    p = head.pattern
    if head.bias or head.position is not None or not isinstance(p, S.PatternUnion) or len(p.parts) != 2:
        return None
    blocks = [q.b for q in p.parts if isinstance(q, S.Blocks)]
    strided = [q.s for q in p.parts if isinstance(q, S.Strided)]
    if len(blocks) != 1 or len(strided) != 1:
        return None
    b, s = blocks[0], strided[0]
    if not isinstance(b, int) or not isinstance(s, int) or not _ints(b, s):
        return None
    rows = -(-n // b)
    if rows * min(b, s) > MAX_CELLS:
        return None
    cells, sizes, firsts = [], [], []
    for k in range(rows):
        lo, hi = k * b + 1, min((k + 1) * b, n)
        for first in range(lo, min(hi, lo + s - 1) + 1):  # one first member per residue present in the block
            cells.append((k, first % s))
            sizes.append((hi - first) // s + 1)
            firsts.append(first)
    by_row: dict = {}
    by_column: dict = {}
    for t, (k, c) in enumerate(cells):
        by_row.setdefault(k, set()).add(t)
        by_column.setdefault(c, set()).add(t)
    into = tuple(frozenset(by_row[k] | by_column[c]) for k, c in cells)
    if len(set(into)) != len(cells):
        return None
    return Grid(b, s, n, tuple(cells), tuple(sizes), tuple(firsts), into)


def connected(ctx, s):
    """PAT-CONNECTED: the stated D (and pair) on the quotient; None when the cells do not apply."""
    g = grid(ctx)
    data = s.get("data") or {}
    if g is None or data.get("diameter") is None:
        return None
    from .twin_class_maps import quotient_diameter
    d = data["diameter"]
    found = quotient_diameter(list(g.into), list(g.sizes))
    if found is None:
        raise Reject("some cell does not reach another: not strongly connected")
    if found != d:
        raise Reject(f"the directed diameter is {found} on the cells' quotient, not {d}")
    pair = data.get("pair") or [None, None]
    where = f"{g.words()}; the quotient's diameter (Theorem F196 (a): d_Q between cells, 1 inside one) is {d}"
    if pair == [None, None]:
        return VERIFIED, where
    j, i = pair
    if not (_ints(j, i) and j <= g.n and i <= g.n) or g.distance(j, i) != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}")
    ctx.cache[("pair checked", s["id"])] = True
    return VERIFIED, f"{where}, attained by x_{j} reaching position {i}"


def layers(ctx, s, d: int):
    """PAT-LAYERS: D = d layers, least, by the class-map search on the cells' quotient; None when it does not apply."""
    g = grid(ctx)
    if g is None:
        return None
    from . import twin_class_maps
    return twin_class_maps.layers_on(ctx, s, d, list(g.sizes), list(g.into), list(g.firsts), g.words())


def group(ctx, s):
    """SYM-AUT: |Aut| = |Aut_c(Q)| · ∏ |C|! on the cells; None when they do not apply or generators are listed (those
    are checked on the arcs by the other routes)."""
    g = grid(ctx)
    if g is None:
        return None
    from . import large
    data = s.get("data") or {}
    if large.stated_generators(data):
        return None
    claimed = large.stated_order(ctx, s)
    try:
        q_order = quotient_order(g)
    except ImportError:
        raise Trust("pynauty is not installed: the quotient's group is not re-derived") from None
    stated = large.twin_order(claimed, q_order, list(g.sizes))
    big = sorted((c for c in g.sizes if c > 1), reverse=True)
    return VERIFIED, (f"{g.words()}; the quotient coloured by size, its group by nauty (order {q_order}); |Aut| = "
                      f"|Aut(quotient)| · ∏ |C|! over the cells (sizes ≥ 2: {big[:6]}{'…' if len(big) > 6 else ''}) "
                      f"{stated}")


def quotient_order(g: Grid) -> int:
    """|Aut_c(Q)|: the cells' quotient coloured by size, by nauty; the order of its generators by Schreier–Sims."""
    from . import groups, nauty_digraph
    k = len(g.cells)
    arcs = {t: sorted(u for u in g.into[t] if u != t) for t in range(k)}
    colours: dict = {}
    for t, size in enumerate(g.sizes):
        colours.setdefault(size, set()).add(t)
    gens = nauty_digraph.generators(k, arcs, [colours[c] for c in sorted(colours)])
    return groups.order([[v + 1 for v in p] for p in gens], k)
