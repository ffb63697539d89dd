"""Theorem F73 (docs/theory.md §11.11), restated for the verifier: `strided(s) + strided(t)`, integers 2 ≤ s < t with
gcd(s, t) = 1, for n ≥ st: D = 2; |G| = N_ρ · ((q + 1)!)^ρ · (q!)^(st − ρ) with n = q·st + ρ, where N_ρ counts the
pairs of permutations of the residues mod s and mod t that keep the cells (x mod s, x mod t), 1 ≤ x ≤ ρ; 2 layers,
least. The verifier counts N_ρ itself (nauty on the bipartite graph of those cells, sides coloured, order by
Schreier–Sims), and at every instance it re-checks D and the order on its own arcs and the premise of the
common-neighbour lemma by breadth-first search: two positions at distance 2 from a root are adjacent exactly when
some position within distance 1 of the root is adjacent to both.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial, gcd
from typing import Optional

import sympy

from .. import spec as S
from . import patterns


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list):
    if [type(q).__name__ for q in parts] != ["Strided", "Strided"]:
        return None
    values = [_int(q.s) for q in parts]
    if any(v is None for v in values):
        return None
    s, t = sorted(v for v in values if v is not None)
    if s < 2 or s == t or gcd(s, t) != 1:
        return None
    return _family(s, t, S.PatternUnion(tuple(parts)))


@lru_cache(maxsize=512)
def pairs_keeping(s: int, t: int, rho: int) -> int:
    """N_ρ: |Aut| of the bipartite graph on the residues mod s (one colour) and mod t (another) with an edge
    (x mod s, x mod t) for x = 1..ρ, by nauty's generators and Schreier–Sims."""
    if rho == 0:
        return factorial(s) * factorial(t)
    import pynauty

    from .groups import order
    adjacency: dict[int, list[int]] = {v: [] for v in range(s + t)}
    for x in range(1, rho + 1):
        adjacency[x % s].append(s + x % t)
    graph = pynauty.Graph(s + t, directed=False, adjacency_dict=adjacency,
                          vertex_coloring=[set(range(s)), set(range(s, s + t))])
    gens = [[p[v] + 1 for v in range(s + t)] for p in pynauty.autgrp(graph)[0]]
    return order(gens, s + t)


def premise_problem(pattern: S.Pattern, n: int) -> Optional[str]:
    """The common-neighbour lemma's premise at D = 2, on the verifier's arcs: at every root i, two positions at
    distance 2 are adjacent iff some position within distance 1 of i is adjacent to both."""
    arcs = patterns.head_arcs(pattern, n)
    near: list[set[int]] = [set() for _ in range(n + 1)]
    for j, i in arcs:
        near[i].add(j)
    for i in range(1, n + 1):
        ball = near[i] | {i}
        far = [u for u in range(1, n + 1) if u not in ball]
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                shared = bool((near[u] | {u}) & (near[v] | {v}) & ball)
                if (v in near[u]) != shared:
                    return (f"n = {n}: positions {u}, {v} at distance 2 from {i} are "
                            f"{'adjacent' if v in near[u] else 'not adjacent'} but "
                            f"{'have' if shared else 'have no'} common neighbour within distance 1")
    return None


def _family(s: int, t: int, pattern: S.Pattern):
    from .families import Family
    from .symbolic_unions import _residue_of
    cells = s * t

    def order(n):
        found = _residue_of(n, cells)
        if found is None:
            q, rho = divmod(int(n), cells)
            qq: sympy.Expr = sympy.Integer(q)
        else:
            k, rho = found
            qq = k
        return sympy.Integer(pairs_keeping(s, t, rho)) * sympy.factorial(qq + 1) ** rho * sympy.factorial(qq) ** (cells - rho)

    def name(text):
        return "permuted among themselves" in text and f"residues mod {s} and mod {t}" in text
    return Family("F73", cells, 2, 2, True, order, cells, name, None,
                  layers_check=lambda n, d: premise_problem(pattern, n),
                  layers_text=("2 layers least (Theorem F73): at every instance two positions at distance 2 from a "
                               "root are adjacent exactly when they have a common neighbour within distance 1 of it "
                               "(checked on the verifier's arcs), so by the common-neighbour lemma no view witness "
                               "exists"))
