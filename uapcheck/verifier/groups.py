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
import math
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
    factored = symmetric_factors(perms, n)
    if factored is not None:
        classes, images, k = factored
        return math.prod(math.factorial(len(c)) for c in classes) * _schreier_sims(images, k)
    return _schreier_sims(perms, n)


def _schreier_sims(perms, n: int) -> int:
    from sympy.combinatorics import Permutation, PermutationGroup
    if not perms or n <= 1:
        return 1
    return int(PermutationGroup([Permutation([v - 1 for v in p]) for p in perms]).order())


def symmetric_factors(perms: Sequence[Sequence[int]], n: int):
    """H = ⟨perms⟩ split by its symmetric factors (docs/theory.md §18.3, "Orders with symmetric factors"): disjoint
    classes C of points with Sym(C) ≤ H — a generator that is a transposition, or an |S|-cycle on its support S
    with a transposition of two points adjacent on it, gives Sym of its support; overlapping such sets merge (the
    transpositions of both join), and a generator's image of a class is one too (g Sym(C) g⁻¹ = Sym(g C)) — until
    every generator maps every class onto a class. Then T = ∏ Sym(C) is normal in H and is the kernel of H's
    action on the classes and the other points, so |H| = ∏ |C|! · |that action's image|. Returns (the classes,
    the generators' images on the k classes-and-points, k), or None when no class has 3 points or more (nothing
    to gain: Schreier–Sims on the points)."""
    classes = _closed(_merge(_symmetric_sets(perms, n)), perms, n)
    if classes is None or not any(len(c) >= 3 for c in classes):
        return None
    where = {}
    for idx, c in enumerate(classes):
        for v in c:
            where[v] = idx
    point = len(classes)
    for v in range(1, n + 1):
        if v not in where:
            where[v] = point
            point += 1
    images = []
    for p in perms:
        img = [0] * point
        for v in range(1, n + 1):
            img[where[v]] = where[p[v - 1]] + 1
        if img != list(range(1, point + 1)):
            images.append(img)
    return classes, tuple(tuple(g) for g in images), point


def _symmetric_sets(perms, n: int) -> list:
    """Sets S with Sym(S) ≤ ⟨perms⟩ read off single generators: a transposition's two points; the support of a
    generator that is one cycle on it, with a listed transposition of two points adjacent on the cycle."""
    sets, cycles, swaps = [], [], []
    for p in perms:
        support = [k + 1 for k in range(n) if p[k] != k + 1]
        if len(support) == 2:
            swaps.append(frozenset(support))
            sets.append(set(support))
        elif support and _one_cycle(p, support):
            cycles.append((p, support))
    for p, support in cycles:
        if any(all(v in support for v in t) and _adjacent(p, t) for t in swaps):
            sets.append(set(support))
    return sets


def _closed(classes: list, perms, n: int):
    """The classes merged with their images under the generators and their inverses until every generator maps
    every class onto a class (each round merges classes: at most n rounds); None if that fails (it cannot)."""
    inverses = []
    for p in perms:
        inv = [0] * n
        for k in range(n):
            inv[p[k] - 1] = k + 1
        inverses.append(inv)
    while True:
        grown = _grown(classes, (*perms, *inverses))
        if grown is None:
            break
        classes = grown
    if any({p[v - 1] for v in c} not in classes for p in perms for c in classes):
        return None  # a generator maps C into a larger class D only if its inverse grows C
    return classes


def _grown(classes: list, maps) -> Optional[list]:
    for p in maps:
        for c in classes:
            image = {p[v - 1] for v in c}
            if image not in classes:
                merged = _merge(classes + [image])
                if merged != classes:
                    return merged
    return None


def _one_cycle(p, support) -> bool:
    v, steps = support[0], 0
    while True:
        v = p[v - 1]
        steps += 1
        if v == support[0]:
            return steps == len(support)


def _adjacent(p, pair) -> bool:
    a, b = sorted(pair)
    return p[a - 1] == b or p[b - 1] == a


def _merge(sets) -> list:
    """The connected unions of overlapping sets (each as a set), in order of their least point."""
    out: list = []
    for s in sets:
        s = set(s)
        keep = []
        for t in out:
            if t & s:
                s |= t
            else:
                keep.append(t)
        out = keep + [s]
    return sorted(out, key=min)


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
    plain = _one_label_arcs(lab)
    if plain is not None:
        from . import nauty_digraph
        return ([[v + 1 for v in g] for g in nauty_digraph.generators(n, plain)],
                "nauty (pynauty) on the labelled digraph's undirected encoding, order by Schreier–Sims")
    try:
        g, _ = nauty_graph.build(n, lab, [set(range(1, n + 1))])
    except nauty_graph.TooLarge as exc:
        return None, str(exc)
    return (nauty_graph.position_generators(pynauty.autgrp(g)[0], n),
            "nauty (pynauty) on the labelled digraph, order by Schreier–Sims")


def _one_label_arcs(lab: dict) -> Optional[dict[int, list[int]]]:
    """The labelled digraph as a plain digraph on the positions (0-based out-lists), when every arc has one and the
    same label: a permutation keeps the labels iff it maps the arc set onto itself, iff it is an automorphism of the
    plain digraph (nauty on its undirected encoding, nauty_digraph.py, loops included), on 3n vertices instead of the
    n·(2b + 1) of nauty_graph.build. None when the arcs carry more than one label."""
    if len(set(lab.values())) != 1:
        return None
    arcs: dict[int, list[int]] = {}
    for j, i in lab:
        arcs.setdefault(j - 1, []).append(i - 1)
    return arcs


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
