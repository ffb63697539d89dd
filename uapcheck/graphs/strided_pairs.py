"""`strided(s) + strided(t)` (two strides, coprime) at symbolic n: Theorem F73 of docs/theory.md §11.11.

Position p lies in the *cell* (p mod s, p mod t), which by the Chinese remainder theorem is its residue mod L = st;
u ~ v iff u, v share a residue mod s (a *row*) or a residue mod t (a *column*). With n = qL + ρ, 0 ≤ ρ < L, the cell
of residue x ∈ {1, …, L} holds q + 1 positions when x ≤ ρ (a *heavy* cell) and q otherwise. For integers 2 ≤ s < t,
gcd(s, t) = 1 and n ≥ L (every cell non-empty):

* D = 2 (the cell (p mod s, p′ mod t) is a common neighbour);
* G = the permutations of the positions that map cells onto cells through a pair (α, β) of permutations of the
  residues mod s and mod t keeping the set H_ρ of heavy cells: |G| = N_ρ · ((q + 1)!)^ρ · (q!)^(L − ρ), N_ρ the number
  of such pairs (N_0 = s!·t!), which is |Aut| of the bipartite graph of the heavy cells with its two sides kept;
* 2 = D layers, least (F57's common-neighbour lemma: every pair at distance 2 from a root that is adjacent has a
  common neighbour in the root's row or column, every non-adjacent pair has none).

Nothing here reads user text.
"""
from __future__ import annotations

from functools import lru_cache
from math import gcd

import sympy
from sympy import Integer

SECTION = "docs/theory.md §11.11"


def applies(s, t) -> bool:
    """Two strides s < t (in either order of writing), coprime, both at least 2."""
    if not all(isinstance(x, int) for x in (s, t)):
        return False
    s, t = sorted((s, t))
    return 2 <= s < t and gcd(s, t) == 1


def low(s: int, t: int) -> int:
    """F73's range: n ≥ st (every cell non-empty)."""
    return s * t


def heavy_cells(s: int, t: int, rho: int) -> list[tuple[int, int]]:
    """H_ρ: the cells (x mod s, x mod t) of the residues x = 1, …, ρ, which hold one position more."""
    return [(x % s, x % t) for x in range(1, rho + 1)]


@lru_cache(maxsize=1024)
def pair_count(s: int, t: int, rho: int) -> int:
    """N_ρ: the pairs (α, β) of permutations of the residues mod s and mod t that map H_ρ onto itself, as |Aut| of the
    bipartite graph (rows, columns, an edge per heavy cell) with each side coloured (BLISS)."""
    from math import factorial

    from ..bignum import count_automorphisms
    from ..lazy import digraph
    if rho == 0:
        return factorial(s) * factorial(t)
    edges = [(a, s + b) for a, b in heavy_cells(s, t, rho)]
    graph = digraph(s + t, edges + [(v, u) for u, v in edges])
    return count_automorphisms(graph, color=[0] * s + [1] * t)


def order_at(n: int, s: int, t: int) -> int:
    from math import factorial
    q, rho = divmod(n, s * t)
    return pair_count(s, t, rho) * factorial(q + 1) ** rho * factorial(q) ** (s * t - rho)


def _order(n, s: int, t: int) -> sympy.Expr:
    from .families import _fact
    from .symbolic_unions import _residue_pieces
    L = s * t
    if isinstance(n, (int, Integer)):
        q, rho = divmod(int(n), L)
        return Integer(pair_count(s, t, rho)) * _fact(Integer(q + 1)) ** rho * _fact(Integer(q)) ** (L - rho)
    q = sympy.floor(n / L)
    return _residue_pieces(n, L, {r: r for r in range(L)},
                           lambda r: Integer(pair_count(s, t, r)) * _fact(q + 1) ** r * _fact(q) ** (L - r),
                           explicit=True)


def theorem(n, s: int, t: int):
    """F73 at the length n (a positive integer Symbol or an Integer), s < t."""
    from .families import FamilyTheorem
    s, t = sorted((s, t))
    L = s * t
    group = (f"the positions of each cell (one residue mod {s} and one mod {t}, i.e. one residue mod {L}) permuted "
             f"among themselves, with the permutations of the residues mod {s} and mod {t} that keep the cells "
             f"holding ⌊n/{L}⌋ + 1 positions (the residues 1, …, n mod {L})")
    if isinstance(n, (int, Integer)):  # a concrete n: its own residue
        q, rho = divmod(int(n), L)
        group = (f"the positions of each cell (one residue mod {s} and one mod {t}, i.e. one residue mod {L}) permuted "
                 f"among themselves, with the permutations of the residues mod {s} and mod {t} that "
                 + (f"keep the {rho} cells holding {q + 1} positions (the residues 1, …, {rho} mod {L})" if rho else
                    f"map cells onto cells (all hold {q} positions)"))
    return FamilyTheorem(
        "F73", "strided(s) + strided(t), gcd(s, t) = 1", (("s", Integer(s)), ("t", Integer(t))), Integer(low(s, t)),
        Integer(2), group, _order(n, s, t), (), Integer(2), True,
        f"two positions at distance 2 from a root share a residue mod {s} or mod {t} exactly when they have a common "
        "neighbour in the root's two classes (the cell of that residue and the root's other residue is non-empty), "
        "so by the common-neighbour lemma every permutation meeting the witness condition is an automorphism: "
        "no view witness, D = 2 layers suffice (Theorem F73)")
