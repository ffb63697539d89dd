"""Group orders and completeness for the verifier.

The order of ⟨generators⟩ is re-derived by Schreier–Sims (sympy.combinatorics). Completeness (no
symmetry of the labelled structure lies outside ⟨generators⟩) is checked by a second algorithm
independent of the engines' BLISS run: every permutation when n ≤ 7, otherwise nauty (pynauty) on
the same labelled digraph, each labelled arc j -> i replaced by a path j - a - b - i whose inner
vertices are coloured by the label and the side; since
⟨generators⟩ ≤ Aut, equal orders mean equal groups.
"""
from __future__ import annotations

import functools
import itertools
from typing import Optional, Sequence

from .patterns import preserves

BRUTE_FORCE_MAX_N = 7


def order(perms: Sequence[Sequence[int]], n: int) -> int:
    if not perms or n <= 1:
        return 1
    return _order(tuple(tuple(p) for p in perms), n)


@functools.lru_cache(maxsize=64)
def _order(perms: tuple, n: int) -> int:
    # one Schreier–Sims per generating set: the view and group checks of one certificate ask for the same one
    from sympy.combinatorics import Permutation, PermutationGroup
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
    gens, method = full_generators(lab, n, positional)
    return (None, method) if gens is None else (order(gens, n), method)


def full_generators(lab: dict, n: int, positional: str) -> tuple[Optional[list[list[int]]], str]:
    """(generators of the whole group of the labelled structure, method), found without the engines: nauty's
    generators, or every permutation that preserves the labels when n ≤ 7 and pynauty is missing; (None,
    reason) when neither is available."""
    if positional == "absolute" or n <= 1:
        return [], "an absolute positional encoding is fixed only by the identity"
    try:
        import pynauty
    except ImportError:
        if n <= BRUTE_FORCE_MAX_N:
            return ([list(p) for p in itertools.permutations(range(1, n + 1)) if preserves(list(p), lab)],
                    f"every one of the {n}! permutations tried")
        return None, "pynauty is not installed (pip install pynauty) and n > 7"
    from . import nauty_graph
    try:
        g, _ = nauty_graph.build(n, lab, [set(range(1, n + 1))])
    except nauty_graph.TooLarge as exc:
        return None, str(exc)
    return (nauty_graph.position_generators(pynauty.autgrp(g)[0], n),
            "nauty (pynauty) on the labelled digraph, order by Schreier–Sims")


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
