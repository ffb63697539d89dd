"""`blocks(b) + strided(s)` with b ≠ s at symbolic n: Theorem F34 of docs/theory.md §11.11 (F25 is b = s).

Positions are the cells of a grid: the rows are the blocks ({1..b}, {b+1..2b}, …; m = ⌊n/b⌋ whole ones and a
partial last one of ρ = n − mb positions), the columns the residue classes mod s; u ~ v iff u, v share a row or a
column, and the positions of one row and one column (a *cell*) are twins.

* b > s ≥ 2 (integers; s ≤ 7, or a period bL of at most MAX_PERIOD lengths), n ≥ b·m₀ (``rows_low``): D = 2; G = the permutations that map blocks onto blocks and
  residue classes onto residue classes, of order ∏ |cell|! × ∏ over row types (count)! × |T| (T the column
  permutations that keep the multiset of row weight vectors and the last row's), written by residue of n mod bL,
  L = s/gcd(b, s); 3 layers least when 1 ≤ ρ ≤ s − 2 (a swap of two positions of the first block in residues the
  last block lacks is a view witness at the last block's first position), else 2 (no view witness).
* b | s, s ≥ 2b: not strongly connected for n ≥ b + 1 (``graphs/closed_connectivity.py``: ⌈p/b⌉ mod s/b is kept
  by every arc).
* b < s with b ∤ s, s ≤ 7 or one period bL of at most MAX_PERIOD_BELOW lengths (Theorem F44, ``theorem_below``): Γ is the line graph of the block–residue incidence
  graph; D by residue of n mod bL, G = the permutations mapping blocks onto blocks and classes onto classes (Whitney),
  of F34's order with cells of one position, for n ≥ max(bL, s(b + 1)); D + 1 layers,
  except where Theorem F57 decides: when D = 3 at every n of the range, the least count is D + 1 = 4 for
  1 ≤ n mod b ≤ s − b and D = 3 otherwise (``below_least``: a finite check of F57's criterion on the block types, which
  depend on n mod bL only once every type occurs twice). Where D > 3, Theorem F58 (``pumped_layers``) checks a
  twin-block witness or the common-neighbour premise at every n up to one period past 4bL; adding a block of each
  type is adding twins, which keeps both, so the last period decides every larger n ((2, 5), (2, 7)). Theorem F66
  adds a second witness (two positions of one block whose residue classes lie at distance ≥ D from a root) and a
  second rigidity condition (the far-star lemma F65: at most one block or class entirely at distance D from any
  root), both kept by twin insertion: it decides (3, 7), 5 = D + 1 layers least for n ≡ 1 (mod 3), else D = 4.

Nothing here reads user text.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from math import factorial, gcd

import sympy
from sympy import Integer

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"
#: the column permutations T are enumerated for s up to this (and F44's checks run up to it)
MAX_S = 7
#: above MAX_S, F34 (b > s) is taken while one period of n mod bL has at most this many lengths; |T| is then
#: counted by BLISS on the row vectors (`column_permutations`)
MAX_PERIOD = 4096
#: above MAX_S, F44 (b < s, b ∤ s) is taken while one period bL has at most this many lengths: its finite checks
#: (F57's criterion, F58's and F66's conditions up to one period past 4bL, by distance matrices of about 5bL
#: positions) grow with the cube of the period (bL = 72: under a second; bL = 240: about 35 s)
MAX_PERIOD_BELOW = 72


def applies(b, s) -> bool:
    if not (isinstance(b, int) and isinstance(s, int) and b > s >= 2):
        return False
    return s <= MAX_S or b * (s // gcd(b, s)) <= MAX_PERIOD


def rows_low(b: int, s: int) -> int:
    """m₀: every residue class has more than max(b, 2⌈b/s⌉) positions (m⌊b/s⌋ exceeds both), each row type
    occurs at least once (m ≥ L), and m ≥ 3."""
    fl, ce = b // s, -(-b // s)
    return max(max(b, 2 * ce) // fl + 1, s // gcd(b, s), 3)


def low(b: int, s: int) -> int:
    """F34's range: n ≥ b·m₀."""
    return b * rows_low(b, s)


def row_vectors(n: int, b: int, s: int) -> list[tuple[int, ...]]:
    """The cell sizes of each row (block), columns ordered by residue 0, …, s − 1."""
    rows: dict = {}
    for p in range(1, n + 1):
        rows.setdefault((p - 1) // b, Counter())[p % s] += 1
    return [tuple(rows[r][c] for c in range(s)) for r in sorted(rows)]


def column_permutations(vectors: list, s: int) -> int:
    """|T|: the permutations τ of the s columns with count(V∘τ⁻¹) = count(V) for every row vector V.

    Built column by column: τ maps the columns 0, …, k to t₀, …, t_k only if the row vectors read on the columns
    0, …, k and read on t₀, …, t_k give the same multiset (a necessary condition, and at k = s − 1 the whole one),
    so the branches that cannot be completed are cut at the first column that fails. Above MAX_S columns, by BLISS
    (`_column_automorphisms`)."""
    if s > MAX_S:
        return _column_automorphisms(vectors, s)
    count = Counter(vectors)
    rows = list(count.items())

    def extend(chosen: list) -> int:
        k = len(chosen)
        if k == s:
            return 1
        total = 0
        for t in range(s):
            if t in chosen:
                continue
            here = chosen + [t]
            source: Counter = Counter()
            target: Counter = Counter()
            for v, m in rows:
                source[v[:k + 1]] += m
                target[tuple(v[c] for c in here)] += m
            if source == target:
                total += extend(here)
        return total
    return extend([])


def _column_automorphisms(vectors: list, s: int) -> int:
    """|T| as the automorphisms of a coloured graph: the s columns (one colour), one vertex per distinct row vector
    (coloured by how many rows have it), and for each vector V and column c a vertex coloured by the cell size V[c]
    joined to both. An automorphism permutes the columns by some τ and the vectors by V ↦ V∘τ⁻¹ with the same count,
    so its column part is in T; each τ ∈ T gives one (the vector vertices follow τ, the cell vertices follow both),
    and an automorphism fixing every column fixes every vector vertex (distinct vectors differ on some column) and
    so every cell vertex: |Aut| = |T|."""
    from ..bignum import count_automorphisms
    from ..lazy import igraph as ig, igraph_without_numpy
    count = Counter(vectors)
    rows = sorted(count)
    sizes = sorted({x for v in rows for x in v})
    multiplicities = sorted(set(count.values()))
    colour = [0] * s + [1 + multiplicities.index(count[v]) for v in rows]
    base = 1 + len(multiplicities)
    edges = []
    for r, v in enumerate(rows):
        for c in range(s):
            cell = len(colour)
            colour.append(base + sizes.index(v[c]))
            edges += [(s + r, cell), (cell, c)]
    with igraph_without_numpy():
        graph = ig.Graph(n=len(colour), edges=edges)
    return count_automorphisms(graph, color=colour)


@lru_cache(maxsize=512)
def order_at(n: int, b: int, s: int) -> int:
    """|G| at an integer n in the range: ∏ |cell|! · ∏ (rows per vector)! · |T|."""
    vectors = row_vectors(n, b, s)
    out = column_permutations(vectors, s)
    for v in vectors:
        for x in v:
            out *= factorial(x)
    for k in Counter(vectors).values():
        out *= factorial(k)
    return out


def row_factor(b: int, s: int) -> int:
    """A = ∏ |cell|! over one whole row: r₀ = b mod s cells of ⌈b/s⌉ positions, s − r₀ of ⌊b/s⌋."""
    r0, fl = b % s, b // s
    return factorial(fl + 1) ** r0 * factorial(fl) ** (s - r0)


def layers_at(n: int, b: int, s: int) -> int:
    return 3 if 1 <= n % b <= s - 2 else 2


def witness_at(n: int, b: int, s: int):
    """(root, (a, c)) for 1 ≤ ρ ≤ s − 2: the first position of the last block, and two positions of the first block
    whose residues the last block lacks (the residues of mb + ρ + 1 and mb + ρ + 2)."""
    m, rho = divmod(n, b)
    if not 1 <= rho <= s - 2:
        return None
    lacks = [(m * b + rho + t) % s for t in (1, 2)]
    first = [next(p for p in range(1, b + 1) if p % s == c) for c in lacks]
    return m * b + 1, (first[0], first[1])


def theorem(n, b: int, s: int):
    """F34 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem, _fact
    from .symbolic_unions import _residue_pieces
    start = low(b, s)
    period_rows = s // gcd(b, s)
    period = b * period_rows
    a = row_factor(b, s)
    data = {}
    for t in range(period):
        n0 = start + (t - start) % period
        m0 = n0 // b
        alpha, beta = divmod(m0, period_rows)
        scale = a ** m0 * factorial(alpha + 1) ** beta * factorial(alpha) ** (period_rows - beta)
        value = order_at(n0, b, s)
        assert value % scale == 0, "F34's order does not factor as stated"  # not reached: see the proof
        data[t] = (value // scale, beta)
    m = sympy.floor(n / b)
    alpha_ = sympy.floor(n / period)

    def build(item):
        const, beta = item
        return (Integer(const) * Integer(a) ** m * _fact(alpha_ + 1) ** beta * _fact(alpha_) ** (period_rows - beta))
    order = _residue_pieces(n, period, data, build, explicit=True)
    three = [r for r in range(b) if 1 <= r <= s - 2]
    layers = (sympy.Piecewise((Integer(3), sympy.Or(*[sympy.Eq(sympy.Mod(n, b), r) for r in three])), (Integer(2), True))
              if three else Integer(2))
    group = (f"the permutations that map the blocks {_span(1, b)}, {_span(b + 1, 2 * b)}, … onto blocks and the "
             f"residue classes mod {s} onto residue classes (the positions of one block and one class are twins)")
    return FamilyTheorem(
        "F34", "blocks(b) + strided(s), b > s", (("b", Integer(b)), ("s", Integer(s))), Integer(start), Integer(2),
        group, order, (), layers, True,
        f"the positions form a grid of the blocks by the residues mod {s}; when the last block has "
        + (f"1 ≤ ρ ≤ {s - 2} positions" if s > 3 else "ρ = 1 position") + ", the swap of two positions of the first block in residues the last block lacks changes no "
        "neighbourhood within distance 1 of the last block's first position and is not in G, so 3 layers are least; "
        "otherwise every rooted view holds a residue class that meets every block, which forces blocks onto blocks, "
        "and a whole block (or the last block lacking at most one residue), which forces residue classes onto residue "
        "classes: no view witness, D = 2 layers suffice (Theorem F34)",
        witness=None)


# ---------------------------------------------------------------------------------------------
# Theorem F44: b < s with b ∤ s — the line graph of the block–residue incidence graph

def applies_below(b, s) -> bool:
    """F44: integers 2 ≤ b < s with b ∤ s (b | s, s ≥ 2b is not connected), and s ≤ MAX_S or one period bL of at
    most MAX_PERIOD_BELOW lengths (the theorem holds for every such pair; the bound is the cost of its finite checks,
    and |T| above MAX_S is counted by BLISS, `column_permutations`)."""
    if not (isinstance(b, int) and isinstance(s, int) and 2 <= b < s and s % b != 0):
        return False
    return s <= MAX_S or b * (s // gcd(b, s)) <= MAX_PERIOD_BELOW


def low_below(b: int, s: int) -> int:
    """F44's range: every one of the L = s/gcd(b, s) whole-block types occurs (⌊n/b⌋ ≥ L), and every residue
    class has more than b positions (⌊n/s⌋ ≥ b + 1)."""
    return max(b * (s // gcd(b, s)), s * (b + 1))


@lru_cache(maxsize=512)
def diameter_at(n: int, b: int, s: int) -> int:
    """D at an integer n by breadth-first search (u ~ v iff one block or one residue class); -1 if not connected.
    For b < s, Γ is the line graph of the block–residue incidence graph H (F44's proof), and the searches run in H
    (`_distance_matrix`: ⌈n/b⌉ + s vertices instead of n positions)."""
    if b < s:
        dist = _distance_matrix(n, b, s)
        return -1 if dist is None else int(dist.max())
    blocks: dict = {}
    classes: dict = {}
    for p in range(1, n + 1):
        blocks.setdefault((p - 1) // b, []).append(p)
        classes.setdefault(p % s, []).append(p)
    worst = 0
    for src in range(1, n + 1):
        seen = {src: 0}
        frontier = [src]
        while frontier:
            nxt = []
            for u in frontier:
                for v in blocks[(u - 1) // b] + classes[u % s]:
                    if v not in seen:
                        seen[v] = seen[u] + 1
                        nxt.append(v)
            frontier = nxt
        if len(seen) < n:
            return -1
        worst = max(worst, max(seen.values()))
    return worst


def block_sets(n: int, b: int, s: int) -> tuple:
    """The residue sets of the blocks at an integer n: (Counter of the whole blocks' sets, the last partial block's
    set or None). F57's criterion reads only these."""
    whole, rho = divmod(n, b)
    kinds: Counter = Counter(frozenset(((k - 1) * b + j) % s for j in range(1, b + 1)) for k in range(1, whole + 1))
    last = frozenset((whole * b + j) % s for j in range(1, rho + 1)) if rho else None
    return kinds, last


def below_verdict(n: int, b: int, s: int) -> str:
    """Theorem F57's criterion at an integer n where D = 3 (Γ the line graph of the block–residue incidence graph;
    a position is (block, class)). For the root (B, C) the far positions are the (B′, C′) with C′ ∉ B and C ∉ B′:
    'D' when at every root two far positions in one block share a class with B (so they have a common neighbour
    within distance 2) and two far positions in one class c have a common neighbour (a block holding C and c):
    then adjacency among far positions is read off the ball and D layers suffice; 'W' when some root (B, C) has a
    block B′ ∌ C disjoint from B with another block of the same set (swapping the positions of one class in the
    two is a view witness); '?' otherwise."""
    kinds, last = block_sets(n, b, s)
    sets = list(kinds.items()) + ([(last, 1)] if last is not None else [])
    witness = broken = False
    for root_set, _ in sets:
        for c in root_set:
            for other, count in sets:
                if c not in other and len(other - root_set) >= 2 and not other & root_set:
                    broken = True
                    witness = witness or count >= 2
            for cls in set(range(s)) - root_set - {c}:
                holders = sum(count for other, count in sets if cls in other and c not in other)
                if holders >= 2 and not any(c in other and cls in other for other, _ in sets):
                    broken = True
    return "W" if witness else ("?" if broken else "D")


@lru_cache(maxsize=64)
def below_least(b: int, s: int) -> bool:
    """Theorem F57's finite check: D = 3 over one period of n mod bL from F44's range's start (D depends on n mod bL
    there, F44 (a)), and the criterion gives 'W' exactly when 1 ≤ n mod b ≤ s − b, and 'D' otherwise, at every n from
    the range's start through one whole period past the length where every block type occurs twice (from there on
    the block sets, hence the criterion, depend on n mod bL only)."""
    period = b * (s // gcd(b, s))
    start = low_below(b, s)
    if any(diameter_at(n, b, s) != 3 for n in range(start, start + period)):
        return False
    return all(below_verdict(n, b, s) == ("W" if 1 <= n % b <= s - b else "D")
               for n in range(start, max(start, 2 * period) + period))


def below_witness(n: int, b: int, s: int):
    """F57 (b) at an integer n with 1 ≤ n mod b ≤ s − b: (root, (x, y)) — a root (B, C), and x, y the positions of
    one class in two blocks with the same residue set, missing C and disjoint from B. None when there is none."""
    kinds, _ = block_sets(n, b, s)
    blocks_of: dict = {}
    for k in range(1, n // b + 1):
        blocks_of.setdefault(frozenset(((k - 1) * b + j) % s for j in range(1, b + 1)), []).append(k)
    for root in (n, *range(1, n)):
        block = frozenset(p % s for p in range((root - 1) // b * b + 1, min(n, (root - 1) // b * b + b) + 1))
        c = root % s
        for other, ks in blocks_of.items():
            if len(ks) >= 2 and c not in other and not other & block and len(other) >= 2:
                cls = min(other)
                x, y = ((k - 1) * b + next(j for j in range(1, b + 1) if ((k - 1) * b + j) % s == cls) for k in ks[:2])
                return root, (x, y)
    return None


def _neighbours(n: int, b: int, s: int) -> dict:
    """N(p) (with p) at an integer n: the positions of p's block and of p's residue class."""
    blocks: dict = {}
    classes: dict = {}
    for p in range(1, n + 1):
        blocks.setdefault((p - 1) // b, set()).add(p)
        classes.setdefault(p % s, set()).add(p)
    return {p: blocks[(p - 1) // b] | classes[p % s] for p in range(1, n + 1)}


def _distance_matrix(n: int, b: int, s: int):
    """The distances of Γ at an integer n as an n × n array (row root − 1, column p − 1), or None when Γ is not
    connected. Γ is the line graph of the block–residue incidence graph H (a position is the edge between its block
    and its residue class), so for p ≠ root, d(root, p) = 1 + the least distance in H between an end of root and an
    end of p: breadth-first searches in H, whose ⌈n/b⌉ + s vertices are far fewer than the positions."""
    import numpy as np
    blocks = -(-n // b)
    size = blocks + s  # H's vertices: blocks 0, …, blocks − 1, then residue class c as blocks + c
    adjacent: list = [set() for _ in range(size)]
    for p in range(1, n + 1):
        k, c = (p - 1) // b, blocks + p % s
        adjacent[k].add(c)
        adjacent[c].add(k)
    far = 2 * size + 2  # no distance in H reaches it
    in_h = np.full((size, size), far, dtype=np.int64)
    for x in range(size):
        row = {x: 0}
        frontier = [x]
        while frontier:
            nxt = []
            for u in frontier:
                for v in adjacent[u]:
                    if v not in row:
                        row[v] = row[u] + 1
                        nxt.append(v)
            frontier = nxt
        in_h[x, list(row)] = list(row.values())
    positions = np.arange(1, n + 1)
    block_end, class_end = (positions - 1) // b, blocks + positions % s
    nearest = np.minimum(np.minimum(in_h[np.ix_(block_end, block_end)], in_h[np.ix_(block_end, class_end)]),
                         np.minimum(in_h[np.ix_(class_end, block_end)], in_h[np.ix_(class_end, class_end)]))
    if int(nearest.max()) >= far:
        return None
    dist = nearest + 1
    np.fill_diagonal(dist, 0)
    return dist


@lru_cache(maxsize=512)
def pumping_verdict(n: int, b: int, s: int) -> tuple:
    """Theorems F58 and F66: the conditions at an integer n. Witnesses (D layers are not enough): (D, 'W', (root,
    (k, k′))) when two whole blocks k, k′ (0-based) with one residue set lie entirely at distance ≥ D from a root
    (swapping one class's positions in them is a view witness); (D, 'X', (root, (x, y))) when two positions x, y of
    one whole block have residue classes entirely at distance ≥ D from a root (their swap is a view witness). Rigid
    (D layers suffice): (D, 'Q', None) when at every root two positions at distance D are adjacent exactly when they
    have a common neighbour within distance D − 1 of it (the common-neighbour lemma); (D, 'S', None) when every star
    (block or class) holds two positions or more and at every root at most one star lies entirely at distance D (the
    far-star lemma, Theorem F65). Else (D, '?', None). The roots are tried from the last position down (the last
    block's positions first: that is where the premises fail), and the first witness found is the one returned."""
    import numpy as np
    dist = _distance_matrix(n, b, s)
    if dist is None:
        raise ValueError(f"blocks({b}) + strided({s}) is not connected at n = {n}")
    d = int(dist.max())
    whole = n // b
    kinds: dict = {}
    for k in range(whole):
        kinds.setdefault(frozenset(p % s for p in range(k * b + 1, k * b + b + 1)), []).append(k)
    # far_block[r, k]: the whole block k lies entirely at distance ≥ D from the root r + 1
    far_block = dist[:, :whole * b].reshape(n, whole, b).min(axis=2) >= d
    twice = [(ks, far_block[:, ks].sum(axis=1) >= 2) for ks in kinds.values()]
    for r in range(n - 1, -1, -1):
        for ks, found in twice:
            if found[r]:
                far = [k for k in ks if far_block[r, k]]
                return d, "W", (r + 1, (far[0], far[1]))
    # the common-neighbour lemma at each root: two positions at distance D are adjacent exactly when some position
    # within distance D − 1 is a neighbour of both (adjacency: one block or one residue class)
    positions = np.arange(1, n + 1)
    adjacent = (((positions[:, None] - 1) // b == (positions[None, :] - 1) // b)
                | (positions[:, None] % s == positions[None, :] % s))
    as_float = adjacent.astype(np.float64)
    common = True
    for r in range(n - 1, -1, -1):
        row = dist[r]
        ball, rim = np.flatnonzero(row < d), np.flatnonzero(row == d)
        shared = (as_float[np.ix_(rim, ball)] @ as_float[np.ix_(ball, rim)]) > 0
        agree = shared == adjacent[np.ix_(rim, rim)]
        np.fill_diagonal(agree, True)
        if not agree.all():
            common = False
            break
    # far_class[r, c]: every position of residue class c lies at distance ≥ D from the root r + 1
    far_class = np.ones((n, s), dtype=bool)
    for c in range(s):
        members = [p - 1 for p in range(1, n + 1) if p % s == c]
        if members:
            far_class[:, c] = dist[:, members].min(axis=1) >= d
    swap = _in_block_swap(n, b, s, far_class)
    if swap is not None:
        return d, "X", swap
    if common:
        return d, "Q", None
    return d, ("S" if _far_stars_at_most_one(n, b, s, dist, d, far_class) else "?"), None


def _in_block_swap(n: int, b: int, s: int, far_class):
    """Theorem F66 (X): (root, (x, y)) with x, y in one whole block and every position of their two residue classes
    at distance ≥ d from the root (the swap (x y) then changes only neighbourhoods there); None when there is none.
    ``far_class[r, c]``: class c lies entirely at distance ≥ d from the root r + 1."""
    for r in range(n - 1, -1, -1):
        far = {c for c in range(s) if far_class[r, c]}
        if len(far) < 2:
            continue
        for k in range(n // b):
            inside = [p for p in range(k * b + 1, k * b + b + 1) if p % s in far]
            if len(inside) >= 2:
                return r + 1, (inside[0], inside[1])
    return None


def _far_stars_at_most_one(n: int, b: int, s: int, dist, d: int, far_class) -> bool:
    """Theorem F65's premise at n: every star (every block, the last one partial, and every residue class) holds at
    least two positions, and at every root at most one star lies entirely at distance d (the diameter)."""
    blocks = -(-n // b)
    if any(min(n, k * b + b) - k * b < 2 for k in range(blocks)) or any(len(range(c or s, n + 1, s)) < 2
                                                                          for c in range(s)):
        return False
    far_blocks = sum((dist[:, k * b:min(n, k * b + b)].min(axis=1) >= d).astype(int) for k in range(blocks))
    return bool(((far_blocks + far_class.sum(axis=1)) <= 1).all())


#: the kinds of pumping_verdict that are view witnesses at D layers (the count is D + 1 there)
WITNESSED = ("W", "X")


@lru_cache(maxsize=64)
def pumped_layers(b: int, s: int):
    """Theorem F58's finite check: the conditions over one period of n mod bL from max(start, 4bL) (from ⌊n/b⌋ ≥ 4L
    on, each holds at n + bL when it holds at n: adding a block of each type is adding twins), and then at every
    smaller n down to the first that disagrees. Returns (start, {n mod bL: least layers}) when that period is decided
    everywhere, start the least n from which every n agrees with it (at least F44's start); None otherwise."""
    period = b * (s // gcd(b, s))
    low = low_below(b, s)
    top = max(low, 4 * period) + period
    table = {}
    for n in range(top - period, top):
        table[n % period] = _count(pumping_verdict(n, b, s))
        if table[n % period] is None:
            return None
    start = top - period  # every n below it, down to the start, is checked directly
    while start > low and _count(pumping_verdict(start - 1, b, s)) == table[(start - 1) % period]:
        start -= 1
    return start, table


def _count(verdict: tuple):
    """The least layer count a verdict of ``pumping_verdict`` proves: D + 1 at a witness, D where rigid, else None."""
    d, kind, _ = verdict
    return None if kind == "?" else d + (kind in WITNESSED)


def pumping_witness(n: int, b: int, s: int):
    """F58 (b) at an integer n: (root, (x, y)), x and y the positions of the least class in the two far blocks; F66
    (X): the two positions of one block whose classes lie at distance ≥ D from the root."""
    d, kind, found = pumping_verdict(n, b, s)
    if kind == "X":
        return found
    if kind != "W":
        return None
    root, (k, k2) = found
    cls = min(p % s for p in range(k * b + 1, k * b + b + 1))
    x, y = (next(p for p in range(j * b + 1, j * b + b + 1) if p % s == cls) for j in (k, k2))
    return root, (x, y)


def theorem_below(n, b: int, s: int):
    """F44 at the length n: D by residue of n mod bL (one period of breadth-first searches), G the permutations
    that map blocks onto blocks and residue classes onto residue classes (Whitney: Γ is the line graph of the
    block–residue incidence graph), of order |T|·∏ (blocks per type)!, and D + 1 layers (not shown least)."""
    from .families import FamilyTheorem, _fact
    from .symbolic_unions import _residue_pieces
    pumped = None if below_least(b, s) else pumped_layers(b, s)
    start = low_below(b, s) if pumped is None else pumped[0]
    period_rows = s // gcd(b, s)
    period = b * period_rows
    data, table = {}, {}
    for t in range(period):
        n0 = start + (t - start) % period
        alpha, beta = divmod(n0 // b, period_rows)
        scale = factorial(alpha + 1) ** beta * factorial(alpha) ** (period_rows - beta)
        value = order_at(n0, b, s)
        assert value % scale == 0, "F44's order does not factor as stated"  # not reached: see the proof
        data[t] = (value // scale, beta)
        table[t] = diameter_at(n0, b, s)
    alpha_ = sympy.floor(n / period)

    def build(item):
        const, beta = item
        return Integer(const) * _fact(alpha_ + 1) ** beta * _fact(alpha_) ** (period_rows - beta)
    order = _residue_pieces(n, period, data, build, explicit=True)
    diameter = _residue_pieces(n, period, table, Integer)
    group = (f"the permutations that map the blocks {_span(1, b)}, {_span(b + 1, 2 * b)}, … onto blocks and the "
             f"residue classes mod {s} onto residue classes (Γ is the line graph of the block–residue incidence graph)")
    if below_least(b, s):  # Theorem F57: D = 3 everywhere; 4 least for 1 ≤ n mod b ≤ s − b, else 3
        four = list(range(1, s - b + 1))
        layers = sympy.Piecewise((Integer(4), sympy.Or(*[sympy.Eq(sympy.Mod(n, b), r) for r in four])),
                                 (Integer(3), True))
        return FamilyTheorem(
            "F44", "blocks(b) + strided(s), b < s, b ∤ s", (("b", Integer(b)), ("s", Integer(s))), Integer(start),
            Integer(3), group, order, (), layers, True, below_why(b, s))
    if pumped is not None:  # Theorem F58: the least count by residue of n mod bL, from the check's start
        by_b = {t % b: v for t, v in pumped[1].items()}
        if all(by_b[t % b] == v for t, v in pumped[1].items()):  # the count follows n mod b alone
            layers = _residue_pieces(n, b, by_b, Integer)
        else:
            layers = _residue_pieces(n, period, pumped[1], Integer)
        return FamilyTheorem(
            "F44", "blocks(b) + strided(s), b < s, b ∤ s", (("b", Integer(b)), ("s", Integer(s))), Integer(start),
            diameter, group, order, (), layers, True, pumping_why(b, s, pumped[1], period))
    return FamilyTheorem(
        "F44", "blocks(b) + strided(s), b < s, b ∤ s", (("b", Integer(b)), ("s", Integer(s))), Integer(start),
        diameter, group, order, (), diameter + 1, False,
        "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F44, open question O9)",
        open_question=(f"whether D layers suffice for blocks(b) + strided(s) with b < s, b ∤ s is not proved at symbolic "
                       f"n ({SECTION}, Theorem F44, open question O9)"))


def below_why(b: int, s: int) -> str:
    """Why Theorem F57's count holds, in words."""
    where = f"1 ≤ n mod {b} ≤ {s - b}" if s - b > 1 else ("n is odd" if b == 2 else f"n mod {b} = 1")
    return (f"Theorem F57: a position is (block, residue class); where {where}, some position (B, C) has "
            "a block disjoint from B and missing C whose residue set another block repeats, and swapping the "
            "positions of one class in these two blocks keeps the neighbourhood of every position within distance 2 "
            "of (B, C) and is not in G, so D = 3 layers are not enough and D + 1 = 4 are least; otherwise two "
            "positions at distance 3 from any position are adjacent exactly when they have a common neighbour "
            "within distance 2 of it, so a rooted view of depth 3 fixes every arc and D = 3 layers suffice")


def pumping_why(b: int, s: int, table: dict, period: int) -> str:
    """Why Theorem F58's count (with F66's conditions) holds, in words."""
    top = max(low_below(b, s), 4 * period) + period
    kinds = {pumping_verdict(n, b, s)[1] for n in range(top - period, top)}
    plus = []
    if "W" in kinds:
        plus.append("two whole blocks with one residue set lie entirely at distance ≥ D from some position, and "
                    "swapping one class's positions in them")
    if "X" in kinds:
        plus.append("two residue classes lie entirely at distance ≥ D from some position, and swapping their "
                    "positions in one block (Theorem F66)")
    equal = []
    if "Q" in kinds:
        equal.append("two positions at distance D from any position are adjacent exactly when they have a common "
                     "neighbour nearer to it")
    if "S" in kinds:
        equal.append("at most one block or residue class lies entirely at distance D from any position, so a rooted "
                     "view of depth D carries every block and class onto a block or class (the far-star lemma, "
                     "Theorem F65)")
    theorems = "Theorem F58" + (" with Theorem F66" if kinds & {"X", "S"} else "")
    text = f"{theorems}: "
    if plus:
        text += ("where the count is D + 1, " + " or ".join(plus) + " changes no neighbourhood within distance D − 1 of "
                 "it and is not in G; ")
    if equal:
        text += "where it is D, " + "; or ".join(equal) + ", so a rooted view of depth D fixes every arc; "
    return (text + f"both checked over one period of n mod {period} from the range's start past {4 * period}, and "
            "carried to every larger n by adding twin blocks")
