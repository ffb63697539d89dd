"""Several strides with globals at symbolic n: Theorem F90 of docs/theory.md §11.11.

`strided(s_1) + … + strided(s_k) + global(g)` (k ≥ 2 strides, integers, gcd 1 after dropping multiples; g ≥ 1;
`star` = global(1)). With P = {1, …, g} and R = {g + 1, …, n}, Γ[R] is, through x ↦ x − g, the union of strides on
n − g positions (Theorem F89), whose residue graph Q mod L has no universal residue. For n ≥ g + L:

* D = 2 (the globals are common neighbours; Γ is not complete);
* G = S_g on P × Aut(Γ[R]), |G| = g! · |F89's group at n − g|;
* 2 layers, least, when on Q two residues outside N_Q[0] are adjacent exactly when a residue of N_Q[0] is adjacent to
  both (the common-neighbour lemma with the globals left out: a view keeps every in-degree of its ball, so it tells the
  globals apart); 3 = D + 1 layers, least, when two residues outside N_Q[0] with the same neighbours in N_Q[0] are not
  twins (their swap is a view witness); otherwise 3 layers, sufficient.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import sympy
from sympy import Integer

from .strided_unions import (MAX_SYMBOLIC_L, SECTION, adjacent, decide, not_twins, reduced_strides, _order_piece)


@dataclass(frozen=True)
class GlobalDecision:
    lemma: bool                          # the premise with the globals left out holds on Q at 0
    witness: Optional[tuple[int, int]]   # two residues outside N_Q[0] whose swap is a view witness


@lru_cache(maxsize=256)
def decide_layers(strides: tuple[int, ...]) -> Optional[GlobalDecision]:
    """The cell-level layer decision of Theorem F90 for the strides S (reduced, gcd 1)."""
    data = decide(strides)
    if data is None:
        return None
    L = data.modulus
    closed = [x for x in range(L) if any(x % s == 0 for s in strides)]
    full = (1 << L) - 1
    mask0 = sum(1 << x for x in closed)

    def shifted(m: int, h: int) -> int:
        h %= L
        return ((m << h) | (m >> (L - h))) & full
    nbr = [shifted(mask0, x) for x in range(L)]
    ball = mask0   # N_Q[0]
    far = [x for x in range(L) if not ball >> x & 1]
    # with Q of diameter 3 or more, two positions of a cell at distance 3 are adjacent without a common neighbour in
    # the ball outside the globals, so the premise is asked only when Q has diameter 2
    lemma = data.diameter == 2 and all(adjacent(x, y, strides) == bool(nbr[x] & nbr[y] & ball)
                                       for a, x in enumerate(far) for y in far[a + 1:])
    witness = None
    if not lemma:
        by_trace: dict[int, list[int]] = {}
        for x in far:
            by_trace.setdefault(nbr[x] & ball, []).append(x)
        witness = next(((x, y) for xs in by_trace.values() for a, x in enumerate(xs) for y in xs[a + 1:]
                        if not_twins(x, y, strides, nbr)), None)
    return GlobalDecision(lemma, witness)


def applies(strides, g) -> bool:
    """Two or more strided parts (integers ≥ 2) whose reduced set has gcd 1 and L ≤ MAX_L, and g ≥ 1 globals."""
    from math import gcd, lcm
    from functools import reduce
    from .strided_unions import MAX_L
    red = reduced_strides(strides)
    if red is None or len(strides) < 2 or not isinstance(g, (int, Integer)) or int(g) < 1:
        return False
    return len(red) >= 2 and reduce(gcd, red) == 1 and lcm(*red) <= MAX_L


def first_position(g: int, L: int, residue: int) -> int:
    """The least position above g with this residue mod L."""
    return g + 1 + (residue - g - 1) % L


def order_at(n: int, strides: tuple[int, ...], g: int) -> int:
    from math import factorial
    from .strided_unions import order_at as base_order
    data = decide(strides)
    assert data is not None
    return factorial(g) * base_order(n - g, data)


def _order(n, data, g: int) -> sympy.Expr:
    from .families import _fact
    from .symbolic_unions import _residue_pieces
    L = data.modulus
    if isinstance(n, (int, Integer)):
        q, rho = divmod(int(n) - g, L)
        return _fact(Integer(g)) * _order_piece(data, rho, Integer(q))
    q = sympy.floor((n - g) / L)
    return _residue_pieces(n, L, {r: (r - g) % L for r in range(L)},
                           lambda rho: _fact(Integer(g)) * _order_piece(data, rho, q), explicit=True)


def theorem(n, strides, g: int):
    """F90 at the length n (a positive integer Symbol or an Integer)."""
    from .closed_forms import _span
    from .families import FamilyTheorem
    g = int(g)
    red = reduced_strides(strides)
    assert red is not None
    data = decide(red)
    layers = decide_layers(red)
    assert data is not None and layers is not None
    L = data.modulus
    shown = ", ".join(map(str, red))
    symbolic_order = isinstance(n, (int, Integer)) or L <= MAX_SYMBOLIC_L
    rest = _span(Integer(g + 1), n)
    by = "" if isinstance(n, (int, Integer)) else f", by residue of {sympy.sstr(n)} mod {L}"
    group = (f"S_{g} on {_span(Integer(1), Integer(g))} × the symmetric groups of the twin classes of {rest} (its "
             f"residues mod {L}), with the automorphisms of the quotient graph on the classes that keep their "
             f"sizes{by}") if symbolic_order else None
    order = _order(n, data, g) if symbolic_order else None
    witness = None
    root = first_position(g, L, 0)
    if layers.lemma:
        count, least = Integer(2), True
        why = (f"on the residue graph mod {L}, two residues outside the closed neighbourhood of 0 are adjacent exactly "
               "when a residue inside it is adjacent to both; a rooted view keeps the in-degrees of its ball, so it "
               "tells the globals apart, and by the common-neighbour lemma with the globals left out 2 = D layers "
               "suffice (Theorem F90)")
    elif layers.witness is not None:
        x, y = (first_position(g, L, r) for r in layers.witness)
        count, least = Integer(3), True
        witness = (Integer(root), (Integer(x), Integer(y)))
        why = (f"the positions {x} and {y} (residues {layers.witness[0]} and {layers.witness[1]} mod {L}) lie at "
               f"distance 2 from {root} and have the same neighbours within distance 1 of it without being twins, so "
               f"their swap is a view witness at {root}: 3 = D + 1 layers, least (Theorem F90)")
    else:
        count, least = Integer(3), False
        why = "3 = D + 1 layers suffice by the view argument (§11.2); whether 2 do is open (Theorem F90)"
    open_parts = []
    if not least:
        open_parts.append(f"whether 2 layers suffice for the strides {{{shown}}} with global({g}) is not proved "
                          f"({SECTION}, Theorem F90)")
    if not symbolic_order:
        open_parts.append(f"the group is stated at a concrete n only (one closed form per residue of n mod {L} > "
                          f"{MAX_SYMBOLIC_L}: give `tokens N`)")
    params = tuple((f"s{k + 1}", Integer(s)) for k, s in enumerate(red)) + (("L", Integer(L)), ("g", Integer(g)))
    return FamilyTheorem(
        "F90", "strided(s₁) + … + strided(s_k) + global(g), gcd 1", params, Integer(g + L), Integer(2), group, order,
        (), count, least, why, open_question="; ".join(open_parts), witness=witness)
