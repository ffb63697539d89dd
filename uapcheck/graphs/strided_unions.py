"""Unions of several `strided` parts at symbolic n: Theorem F89 of docs/theory.md §11.11.

`strided(s_1) + … + strided(s_k)` (integers s_j ≥ 2): u ~ v iff u ≡ v (mod s_j) for some j. Drop every stride that
is a multiple of another (its arcs are the other's) and let S be the rest, L = lcm(S). Position p lies in the *cell*
p mod L; whether u ~ v depends on the cells only, through the Cayley graph Q = Cay(Z_L, C) with
C = {x ≢ 0 : s | x for some s ∈ S}. Let H = {h ∈ Z_L : h + C₀ = C₀} (C₀ = C ∪ {0}), the translations keeping the
closed neighbourhoods. With gcd(S) = 1 (else every arc keeps p mod gcd(S): not strongly connected), S not two coprime
strides alone (Theorem F73), and n = qL + ρ ≥ L (every cell non-empty):

* D = the diameter of Q (from the cell 0, Q being vertex-transitive); D ≥ 2;
* the twin classes (equal closed neighbourhoods) are the unions of the cells of one coset of H; G = the symmetric
  groups of the classes with the automorphisms of the quotient R = Q/H that keep the classes' sizes, which are
  |H|q + h_T(ρ) with h_T(ρ) the number of residues 1, …, ρ in the class T: |G| = N_ρ · ∏_T (|H|q + h_T(ρ))!, N_ρ the
  order of Aut(R) keeping the colours h_T(ρ);
* D layers, least, when the common-neighbour lemma's premise holds on Q at the cell 0, or Theorem F112's far-adjacency
  table (with no two residues twins); D + 1, least, when Q has
  two cells at distance D from 0 with the same neighbours within D − 1 that are not twins (their transposition is a
  view witness); otherwise D + 1, sufficient (whether D suffice is open).

Nothing here reads user text.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache, reduce
from math import gcd, lcm
from typing import Optional

import sympy
from sympy import Integer

from .strided_lines import residue_distances

SECTION = "docs/theory.md §11.11"

#: The closed forms are computed for L = lcm(S) up to this (a BFS and a BLISS count on L vertices).
MAX_L = 5000

#: At symbolic n the order is one closed form per residue of n mod L: stated for L up to this.
MAX_SYMBOLIC_L = 64


def reduced_strides(strides) -> Optional[tuple[int, ...]]:
    """S: the strides that are multiples of no other (sorted), or None (a stride not an integer ≥ 2)."""
    if not all(isinstance(x, (int, Integer)) and not isinstance(x, bool) for x in strides):
        return None
    vals = sorted({int(x) for x in strides})
    if not vals or vals[0] < 2:
        return None
    return tuple(s for s in vals if not any(t != s and s % t == 0 for t in vals))


def applies(strides) -> bool:
    """Two or more strided parts, gcd 1 after dropping multiples, not F73's two coprime strides alone, L ≤ MAX_L."""
    red = reduced_strides(strides)
    if red is None or len(strides) < 2 or reduce(gcd, red) != 1 or len(red) < 2:
        return False
    if len(red) == 2 and len(set(int(x) for x in strides)) == 2:
        return False  # exactly two coprime strides: Theorem F73
    return lcm(*red) <= MAX_L


def common_modulus(strides) -> Optional[int]:
    """gcd(S) when it is at least 2 (every arc keeps p mod it: not strongly connected), else None."""
    red = reduced_strides(strides)
    if red is None:
        return None
    g = reduce(gcd, red)
    return g if g >= 2 else None


@dataclass(frozen=True)
class StridedUnion:
    strides: tuple[int, ...]      # S (no stride a multiple of another)
    modulus: int                  # L = lcm(S)
    diameter: int                 # D = diam Q
    stabiliser: tuple[int, ...]   # H (the translations keeping C₀), sorted
    classes: tuple[tuple[int, ...], ...]  # the cosets x + H (residues in 0..L−1), sorted
    lemma: bool                   # the common-neighbour lemma's premise holds on Q at 0
    witness: Optional[tuple[int, int]]    # two cells at distance D whose transposition is a view witness
    table: bool = False           # Theorem F112: the far-adjacency table holds on Q at 0 (H trivial)

    @property
    def layers(self) -> int:
        return self.diameter if self.lemma or self.table else self.diameter + 1

    @property
    def least(self) -> bool:
        return self.lemma or self.table or self.witness is not None


def adjacent(x: int, y: int, strides) -> bool:
    return any((x - y) % s == 0 for s in strides)


@lru_cache(maxsize=256)
def decide(strides: tuple[int, ...]) -> Optional[StridedUnion]:
    """The cell-level data of Theorem F89 for the strides S (already reduced, gcd 1), or None (L above MAX_L)."""
    L = lcm(*strides)
    if L > MAX_L or reduce(gcd, strides) != 1:
        return None
    closed = [x for x in range(L) if any(x % s == 0 for s in strides)]   # C₀
    mask0 = sum(1 << x for x in closed)
    full = (1 << L) - 1

    def shifted(m: int, h: int) -> int:  # the set m + h in Z_L, as a bit mask
        h %= L
        return ((m << h) | (m >> (L - h))) & full
    nbr = [shifted(mask0, x) for x in range(L)]  # N_Q[x] = x + C₀
    stab = tuple(h for h in range(L) if nbr[h] == mask0)
    dist = residue_distances(closed, L)
    if len(dist) < L:
        return None
    D = max(dist.values())
    ball = sum(1 << x for x, d in dist.items() if d <= D - 1)
    far = [x for x, d in dist.items() if d == D]
    lemma = all(adjacent(x, y, strides) == bool(nbr[x] & nbr[y] & ball)
                for a, x in enumerate(far) for y in far[a + 1:])
    witness = None
    if not lemma:
        by_trace: dict[int, list[int]] = {}
        for x in sorted(far):
            by_trace.setdefault(nbr[x] & ball, []).append(x)
        witness = next(((x, y) for xs in by_trace.values() for a, x in enumerate(xs) for y in xs[a + 1:]
                        if not_twins(x, y, strides, nbr)), None)
    classes = tuple(sorted({tuple(sorted((x + h) % L for h in stab)) for x in range(L)}))
    table = not lemma and witness is None and stab == (0,) and far_table(nbr, dist, D, far)
    return StridedUnion(strides, L, D, stab, classes, lemma, witness, table)


def far_table(nbr: list[int], dist: dict[int, int], diameter: int, far: list[int]) -> bool:
    """Theorem F112's premise on Q at the cell 0 (H trivial): the far cells have pairwise different neighbours
    within D − 1 of 0, and whether two far cells are adjacent is one function of (their common neighbours' count at
    each distance 1, …, D − 1, the unordered pair of their neighbours' counts by colour), a cell's colour within D − 1
    being its distance and the numbers of its neighbours at each distance 0, …, D (Theorem F111 on the cells)."""
    rings = [sum(1 << x for x, d in dist.items() if d == k) for k in range(diameter + 1)]
    ball = sum(rings[:diameter])
    if len({nbr[x] & ball for x in far}) < len(far):
        return False
    colour = {z: (d, *((nbr[z] & ring).bit_count() for ring in rings)) for z, d in dist.items() if d < diameter}

    def counts(x: int) -> tuple:
        return tuple(sorted(Counter(colour[z] for z in colour if nbr[x] >> z & 1).items()))
    own = {x: counts(x) for x in far}
    table: dict[tuple, bool] = {}
    for a, x in enumerate(far):
        for y in far[a + 1:]:
            common = nbr[x] & nbr[y]
            key = (tuple((common & ring).bit_count() for ring in rings[1:diameter]), *sorted((own[x], own[y])))
            if table.setdefault(key, bool(nbr[x] >> y & 1)) != bool(nbr[x] >> y & 1):
                return False
    return True


def not_twins(x: int, y: int, strides, nbr: list[int]) -> bool:
    """The transposition of a position of the cell x and one of y is no automorphism at any n ≥ L: adjacent cells
    with different closed neighbourhoods, or non-adjacent ones with different open neighbourhoods."""
    if adjacent(x, y, strides):
        return nbr[x] != nbr[y]
    return (nbr[x] & ~(1 << x)) != (nbr[y] & ~(1 << y))


def class_offsets(data: StridedUnion, rho: int) -> list[int]:
    """h_T(ρ) for each class T (in data.classes' order): how many of the residues 1, …, ρ it holds."""
    heavy = {x % data.modulus for x in range(1, rho + 1)}
    return [sum(1 for x in cls if x in heavy) for cls in data.classes]


@lru_cache(maxsize=4096)
def quotient_automorphisms(strides: tuple[int, ...], rho: int) -> int:
    """N_ρ: |Aut| of the quotient R = Q/H (a class per coset of H, adjacent when their cells are), coloured by
    h_T(ρ) (BLISS)."""
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    data = decide(strides)
    assert data is not None
    reps = [cls[0] for cls in data.classes]
    k = len(reps)
    edges = [(a, b) for a in range(k) for b in range(k) if a != b and adjacent(reps[a], reps[b], strides)]
    colours = class_offsets(data, rho)
    palette = {c: i for i, c in enumerate(sorted(set(colours)))}
    return count_automorphisms(digraph(k, edges), color=[palette[c] for c in colours])


def order_at(n: int, data: StridedUnion) -> int:
    from math import factorial
    q, rho = divmod(n, data.modulus)
    out = quotient_automorphisms(data.strides, rho)
    for h in class_offsets(data, rho):
        out *= factorial(len(data.stabiliser) * q + h)
    return out


def _order_piece(data: StridedUnion, rho: int, q) -> sympy.Expr:
    from .families import _fact
    sizes: dict[int, int] = {}
    for h in class_offsets(data, rho):
        sizes[h] = sizes.get(h, 0) + 1
    out: sympy.Expr = Integer(quotient_automorphisms(data.strides, rho))
    for h, count in sorted(sizes.items()):
        out *= _fact(len(data.stabiliser) * q + h) ** count
    return out


def _order(n, data: StridedUnion) -> sympy.Expr:
    from .symbolic_unions import _residue_pieces
    L = data.modulus
    if isinstance(n, (int, Integer)):
        q, rho = divmod(int(n), L)
        return _order_piece(data, rho, Integer(q))
    q = sympy.floor(n / L)
    return _residue_pieces(n, L, {r: r for r in range(L)}, lambda r: _order_piece(data, r, q), explicit=True)


def _group_words(data: StridedUnion, n) -> str:
    L, h = data.modulus, len(data.stabiliser)
    classes = (f"the residues mod {L}" if h == 1 else
               f"the residues mod {L} joined by the translations {{{', '.join(map(str, data.stabiliser))}}} "
               f"(mod {L}) that keep every neighbourhood")
    where = "" if isinstance(n, (int, Integer)) else f", by residue of {sympy.sstr(n)} mod {L}"
    return (f"the symmetric groups of the twin classes ({classes}), with the automorphisms of the quotient graph on "
            f"the classes that keep their sizes{where}")


def theorem(n, strides):
    """F89 at the length n (a positive integer Symbol or an Integer) for the strides as written."""
    from .families import FamilyTheorem
    red = reduced_strides(strides)
    assert red is not None
    data = decide(red)
    assert data is not None
    L = data.modulus
    shown = ", ".join(map(str, red))
    symbolic_order = isinstance(n, (int, Integer)) or L <= MAX_SYMBOLIC_L
    group = _group_words(data, n) if symbolic_order else None
    order = _order(n, data) if symbolic_order else None
    witness = None
    if data.lemma:
        why = (f"at the cell 0 of Q two cells at distance D = {data.diameter} are adjacent exactly when a cell within "
               f"D − 1 is adjacent to both, and Q is vertex-transitive, so by the common-neighbour lemma D layers "
               f"suffice (Theorem F89)")
    elif data.witness is not None:
        x, y = data.witness
        witness = (Integer(L), (Integer(x), Integer(y)))
        why = (f"the cells {x} and {y} (mod {L}) lie at distance D from the cell 0 of the root {L} and have the same "
               f"neighbours within D − 1 of it without being twins, so the swap ({x} {y}) is a view witness at {L}: "
               f"D + 1 layers, least (Theorem F89)")
    elif data.table:
        why = (f"on Q (mod {L}) the cells at distance D = {data.diameter} from 0 have pairwise different neighbours "
               "within D − 1, and whether two of them are adjacent is read off the colours of their neighbours there, "
               "so a view witness would induce an automorphism of Q keeping the cells' sizes, which lies in G: D "
               "layers suffice at every n ≥ L, least (Theorem F112)")
    else:
        why = "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorem F89)"
    open_parts = []
    if not data.least:
        open_parts.append(f"whether D layers suffice for the strides {{{shown}}} is not proved ({SECTION}, Theorem "
                          "F89: neither the common-neighbour lemma's premise nor a transposition witness holds on the "
                          "residue graph, nor Theorem F112's far-adjacency table)")
    if not symbolic_order:
        open_parts.append(f"the group is stated at a concrete n only (one closed form per residue of n mod {L} > "
                          f"{MAX_SYMBOLIC_L}: give `tokens N`)")
    params = tuple((f"s{k + 1}", Integer(s)) for k, s in enumerate(red)) + (("L", Integer(L)),)
    return FamilyTheorem(
        "F89", "strided(s₁) + … + strided(s_k), gcd 1", params, Integer(L), Integer(data.diameter), group, order, (),
        Integer(data.layers), data.least, why, open_question="; ".join(open_parts), witness=witness)
