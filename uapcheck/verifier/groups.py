"""Group orders and completeness for the verifier.

The order of ⟨generators⟩ is re-derived by Schreier–Sims (sympy.combinatorics). Completeness (no
symmetry of the labelled structure lies outside ⟨generators⟩) is checked by a second algorithm
independent of the engines' BLISS run: every permutation when n ≤ 7, otherwise nauty (pynauty) on
the same labelled digraph, each labelled arc j -> i replaced by a path j - a - b - i whose inner
vertices are coloured by the label and the side; since
⟨generators⟩ ≤ Aut, equal orders mean equal groups.
"""
from __future__ import annotations

import itertools
from typing import Optional, Sequence

from .patterns import preserves

BRUTE_FORCE_MAX_N = 7
NAUTY_MAX_VERTICES = 300_000


def order(perms: Sequence[Sequence[int]], n: int) -> int:
    from sympy.combinatorics import Permutation, PermutationGroup
    if not perms or n <= 1:
        return 1
    return int(PermutationGroup([Permutation([v - 1 for v in p]) for p in perms]).order())


def contains(perms: Sequence[Sequence[int]], n: int, candidate: Sequence[int]) -> bool:
    from sympy.combinatorics import Permutation, PermutationGroup
    if n <= 1:
        return True
    gens = [Permutation([v - 1 for v in p]) for p in perms] or [Permutation(list(range(n)))]
    return bool(PermutationGroup(gens).contains(Permutation([v - 1 for v in candidate])))


def full_order(lab: dict, n: int, positional: str) -> tuple[Optional[int], str]:
    """(|Aut| of the labelled structure, method) by an algorithm other than the engines', or
    (None, reason) when neither is available."""
    if positional == "absolute" or n <= 1:
        return 1, "an absolute positional encoding is fixed only by the identity"
    if n <= BRUTE_FORCE_MAX_N:
        count = sum(1 for images in itertools.permutations(range(1, n + 1)) if preserves(list(images), lab))
        return count, f"every one of the {n}! permutations tried"
    try:
        import pynauty
    except ImportError:
        return None, "pynauty is not installed (pip install pynauty) and n > 7"
    values = sorted(set(lab.values()), key=repr)
    if n + 2 * len(lab) > NAUTY_MAX_VERTICES:
        return None, f"{n + 2 * len(lab)} vertices exceed the verifier's nauty limit"
    colour = {v: k for k, v in enumerate(values)}
    # An undirected graph: the arc j -> i of label L becomes the path j - a - b - i with a coloured
    # (L, tail) and b coloured (L, head); its automorphisms restrict to the labelled digraph's.
    total = n + 2 * len(lab)
    adjacency: dict[int, list[int]] = {v: [] for v in range(total)}
    cells: list[set] = [set(range(n))] + [set() for _ in range(2 * len(values))]
    for k, ((j, i), value) in enumerate(sorted(lab.items())):
        a, b = n + 2 * k, n + 2 * k + 1
        adjacency[j - 1].append(a)
        adjacency[a].append(b)
        adjacency[b].append(i - 1)
        cells[1 + 2 * colour[value]].add(a)
        cells[2 + 2 * colour[value]].add(b)
    g = pynauty.Graph(total, directed=False, adjacency_dict=adjacency,
                      vertex_coloring=[c for c in cells if c])
    gens = pynauty.autgrp(g)[0]
    perms = [[p[v] + 1 for v in range(n)] for p in gens]
    return order(perms, n), "nauty (pynauty) on the labelled digraph, order by Schreier–Sims"


def named_generators(name: str, n: int) -> Optional[list[list[int]]]:
    """Standard generators of the named groups (1-based image lists), for comparing names."""
    ident = list(range(1, n + 1))
    rot = [k % n + 1 for k in range(1, n + 1)]
    refl = [n + 1 - k for k in range(1, n + 1)]
    if name == "trivial":
        return []
    if name == "S_n":
        swap = ident[:]
        if n >= 2:
            swap[0], swap[1] = 2, 1
        return [swap, rot]
    if name == "C_n":
        return [rot]
    if name == "D_n":
        return [rot, refl]
    if name == "reflection":
        return [refl]
    if name.startswith("stabilizer "):
        try:
            k = int(name.split()[1])
        except ValueError:
            return None
        others = [v for v in ident if v != k]
        if len(others) < 2:
            return []
        swap, cyc = ident[:], ident[:]
        swap[others[0] - 1], swap[others[1] - 1] = others[1], others[0]
        for idx, v in enumerate(others):
            cyc[v - 1] = others[(idx + 1) % len(others)]
        return [swap, cyc]
    return None
