"""`blocks(b) + window(w) + strided(s)` with the block longer than the stride and a short window (b > s ≥ 2w + 1,
w ≥ 1) at symbolic n: Theorem F94 of docs/theory.md §11.11.

Whole blocks (*rows*) hold every class. The classes are the adjacent pairs with many common neighbours; the rows are
the components of "in one clique of s positions" in the graph of the local edges between classes (such a clique with
an edge between rows lies in w + 1 consecutive positions); the rows form a path, kept or reversed (the reversal only
when b | n). Keeping every row, a symmetry keeps the window's staircase between consecutive rows, whose positions have
distinct numbers of edges into the next (previous) row and are fixed — except, when the last partial row has
0 < ρ < w positions, the last w − ρ + 1 positions of the last whole row, which all see the whole partial row (the
*bunch*). The other positions (no window edge into another row: the *inner* ones) and the bunch are permuted within
their row, class by class, the classes moved by one permutation τ of Z_s that fixes every class meeting a fixed
position and keeps, row by row, how many inner (and bunch) positions each class has. So |G| = ∏_atoms |A|! · ∏ over
rows and classes (inner count)! · ∏ over classes (bunch count)!, times 2 when b | n, where the atoms group the classes
that meet no fixed position by those counts. D = 2; 3 = D + 1 layers, least: exchanging the L = s/gcd(b, s) blocks
from the block 3 on with the next L (a shift by a multiple of s) is a view witness at a position of the first block
whose class meets no position near the stretches' ends.

Nothing here reads user text.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial, gcd, lcm

import sympy
from sympy import Integer

from .closed_forms import _span

MAX_PERIOD = 600     # P = lcm(b, s)


def applies(b, w, s) -> bool:
    return (all(isinstance(x, int) for x in (b, w, s)) and w >= 1 and s >= 2 * w + 1 and b > s
            and lcm(b, s) <= MAX_PERIOD)


def low(b: int, w: int, s: int) -> int:
    """The range: ⌊n/s⌋ > b + 2w + 2⌈(b + 2w)/s⌉ (the classes by common neighbours) and at least L + 4 whole rows,
    L = s/gcd(b, s) (every residue of a row's start mod s among the middle rows, with rows to spare at both ends),
    and 2L + 4 for the witness's two stretches of L blocks from the block 3 on."""
    common = b + 2 * w + 2 * (-(-(b + 2 * w) // s))
    return max(s * (common + 1), (2 * (s // gcd(b, s)) + 4) * b)


def _cross(n: int, b: int, w: int) -> list[frozenset]:
    """For each position p (index p), the positions of other rows within w of p (the window's edges between rows)."""
    out: list[frozenset] = [frozenset()] * (n + 1)
    for p in range(1, n + 1):
        row = (p - 1) // b
        out[p] = frozenset(q for q in range(max(1, p - w), min(n, p + w) + 1) if (q - 1) // b != row)
    return out


def parts_at(n: int, b: int, w: int, s: int) -> tuple[list[dict], dict, set]:
    """(inner counts per row: row -> {class: count}, bunch counts {class: count}, the classes meeting a fixed position)
    at an integer n in the range."""
    cross = _cross(n, b, w)
    rows = (n + b - 1) // b
    rho = n % b
    bunch_rows = {rows - 2} if 0 < rho < w else set()   # the last whole row, when the partial row is shorter than w
    inner: list[dict] = [dict() for _ in range(rows)]
    bunch: dict = {}
    fixed: set = set()
    for p in range(1, n + 1):
        row, cls = (p - 1) // b, p % s
        if not cross[p]:
            inner[row][cls] = inner[row].get(cls, 0) + 1
        elif row in bunch_rows and p > (row + 1) * b - (w - rho + 1):
            bunch[cls] = bunch.get(cls, 0) + 1
        else:
            fixed.add(cls)
    return inner, bunch, fixed


def atoms_at(n: int, b: int, w: int, s: int) -> list[list[int]]:
    """The classes mod s meeting no fixed position, grouped by their inner and bunch counts row by row (the classes
    that τ may exchange); the classes meeting a fixed position are atoms of one class."""
    inner, bunch, fixed = parts_at(n, b, w, s)
    grouped: dict = {}
    for x in range(s):
        key = ("fixed", x) if x in fixed else (tuple(row.get(x, 0) for row in inner), bunch.get(x, 0))
        grouped.setdefault(key, []).append(x)
    return sorted(grouped.values())


def order_at(n: int, b: int, w: int, s: int) -> int:
    inner, bunch, _ = parts_at(n, b, w, s)
    out = 2 if n % b == 0 else 1
    for atom in atoms_at(n, b, w, s):
        out *= factorial(len(atom))
    for row in inner:
        for c in row.values():
            out *= factorial(c)
    for c in bunch.values():
        out *= factorial(c)
    return out


@lru_cache(maxsize=64)
def period_factor(b: int, w: int, s: int) -> int:
    """A: the factor of one period of P/b middle rows (inner offsets w + 1..b − w), by which |G| grows from n to n + P."""
    period = lcm(b, s)
    out = 1
    for k in range(period // b):
        start = (k + 2) * b          # rows 3, …: the offsets w + 1..b − w of a row starting after start
        counts: dict = {}
        for c in range(w + 1, b - w + 1):
            counts[(start + c) % s] = counts.get((start + c) % s, 0) + 1
        for v in counts.values():
            out *= factorial(v)
    return out


def root(b: int, w: int, s: int) -> int:
    """F94 (c)'s root: the first position of the first block whose class meets no position within w of the boundary
    after the block 2 (the residues 2b − w + 1, …, 2b + w mod s; s ≥ 2w + 1 leaves one out)."""
    near = {(2 * b + t) % s for t in range(-w + 1, w + 1)}
    return next(c for c in range(1, b + 1) if c % s not in near)


def chunk_exchange(n: int, b: int, s: int) -> list[int]:
    """F94 (c)'s witness as an image list (1-based): the L = s/gcd(b, s) blocks 3..L + 2 exchanged with the blocks
    L + 3..2L + 2, position by position (a shift by ±Lb, a multiple of s)."""
    shift = (s // gcd(b, s)) * b
    perm = list(range(1, n + 1))
    for p in range(2 * b + 1, 2 * b + shift + 1):
        perm[p - 1], perm[p + shift - 1] = p + shift, p
    return perm


def growing_order(n, start: int, period: int, factor: int, order_at) -> sympy.Expr:
    """|G| at the length n (an Integer, or a Symbol: by n mod the period) when it is order_at(n₀) at the lengths n₀ of
    start..start + period − 1 and gains the factor a period (F94, F100)."""
    from .symbolic_unions import _residue_pieces
    base = {m: start + (m - start) % period for m in range(period)}
    if isinstance(n, (int, Integer)):
        n0 = base[int(n) % period]
        return Integer(order_at(n0)) * Integer(factor) ** ((int(n) - n0) // period)
    return _residue_pieces(n, period, base, lambda n0: Integer(order_at(n0))
                           * Integer(factor) ** (sympy.floor(n / period) - n0 // period), explicit=True)


def theorem(n, b: int, w: int, s: int):
    """F94 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    start = low(b, w, s)
    order = growing_order(n, start, lcm(b, s), period_factor(b, w, s), lambda n0: order_at(n0, b, w, s))
    bunch = (f" (and of the last whole block's last positions when 0 < n mod {b} < {w})" if w >= 2 else "")
    group = (f"the symmetric groups of the cells (one block, one residue class mod {s}) of the positions with no "
             f"window edge into another block{bunch}, with the permutations of the classes that keep them, × the "
             f"reflection i ↦ n + 1 − i when {b} | n")
    chunk = (s // gcd(b, s)) * b
    i = root(b, w, s)
    why = (f"exchanging the blocks {_span(2 * b + 1, 2 * b + chunk)} with {_span(2 * b + chunk + 1, 2 * b + 2 * chunk)} "
           f"(a shift by {chunk}, a multiple of {s}) keeps the neighbourhood of every position within distance 1 of "
           f"position {i} (its block and its residue class mod {s}, which meets no position within {w} of the "
           f"exchanged stretches' ends) and is not in G (it breaks the window edge {2 * b} ~ {2 * b + 1}): D = 2 layers "
           "are not enough, 3 suffice (Theorem F94)")
    return FamilyTheorem(
        "F94", "blocks(b) + window(w) + strided(s), b > s ≥ 2w + 1",
        (("b", Integer(b)), ("w", Integer(w)), ("s", Integer(s))), Integer(start), Integer(2), group, order, (),
        Integer(3), True, why)
