"""Theorems F89 and F90 (docs/theory.md §11.11), restated for the verifier: a union of two or more `strided` parts (integers at
least 2) whose strides, after dropping every multiple of another, have gcd 1 and are not two coprime strides alone
(Theorem F73), for n ≥ L = their lcm. Positions are adjacent iff their residues mod L are adjacent in the residue
graph Q on Z_L (x ~ y iff some stride divides x − y). The verifier re-derives, with its own code on Q:

* D: the largest distance from the residue 0 (breadth-first search on Z_L; Q is a Cayley graph);
* |G| = N · ∏ over the twin classes T of Q (equal closed neighbourhoods) of (|T|·q + h_T)!, with n = qL + ρ, h_T the
  number of residues 1, …, ρ in T, N the order of the automorphisms of the quotient on the classes keeping the
  colours h_T (nauty's generators, Schreier–Sims);
* the layer count: D (least) when two residues at distance D from 0 are adjacent exactly when some residue within
  D − 1 of 0 is adjacent to both (and then, at every instance, that premise on its own arcs at every root); D + 1
  (least) when two residues at distance D with the same neighbours within D − 1 are not twins (the swap of those
  positions at the root L is the witness, re-checked at every instance); D + 1, not least, otherwise.

F90 adds g globals (`global(g)` or `star`), n ≥ g + L: D = 2, |G| = g!·(F89's order at n − g), 2 layers (least) when
two residues outside N_Q[0] are adjacent exactly when a residue of N_Q[0] is adjacent to both and Q has diameter 2 (and
then that premise on the arcs, globals left out), 3 (least) when two residues outside N_Q[0] with the same neighbours
in it are not twins (the swap of their first positions above g, at the first position above g of residue 0), else 3.
"""
from __future__ import annotations

from functools import lru_cache, reduce
from math import gcd, lcm
from typing import Optional

import sympy

from .. import spec as S
from . import patterns

MAX_L = 5000


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def match(parts: list):
    """F89 for strided parts alone, F90 for strided parts with one `global(g)` or `star`; None otherwise."""
    hubs = [q for q in parts if isinstance(q, (S.Global, S.Star))]
    rest = [q for q in parts if not isinstance(q, (S.Global, S.Star))]
    if len(hubs) > 1 or len(rest) < 2 or any(type(q).__name__ != "Strided" for q in rest):
        return None
    g: Optional[int] = 0
    if hubs:
        g = 1 if isinstance(hubs[0], S.Star) else _int(hubs[0].g)
    if g is None or (hubs and g < 1):
        return None
    values = [_int(q.s) for q in rest]
    if any(v is None or v < 2 for v in values):
        return None
    written = sorted({v for v in values if v is not None})
    kept = tuple(s for s in written if not any(t != s and s % t == 0 for t in written))
    if len(kept) < 2 or reduce(gcd, kept) != 1 or lcm(*kept) > MAX_L:
        return None
    if g:
        return _global_family(kept, g, S.PatternUnion(tuple(parts)))
    if len(written) == 2 and len(kept) == 2:
        return None  # two coprime strides: Theorem F73
    return _family(kept, S.PatternUnion(tuple(parts)))


@lru_cache(maxsize=64)
def residue_graph(kept: tuple) -> dict:
    """Q's data: L, the distances from 0, the closed neighbourhoods, the twin classes, the layer decision."""
    L = lcm(*kept)

    def adj(x: int, y: int) -> bool:
        return any((x - y) % s == 0 for s in kept)
    closed = [frozenset(y for y in range(L) if adj(x, y)) for x in range(L)]
    dist = {0: 0}
    queue = [0]
    for x in queue:
        for y in closed[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                queue.append(y)
    D = max(dist.values())
    inner = {x for x, d in dist.items() if d < D}
    far = sorted(x for x, d in dist.items() if d == D)
    premise = all(adj(x, y) == bool(closed[x] & closed[y] & inner) for i, x in enumerate(far) for y in far[i + 1:])
    witness = None if premise else _swap_pair(kept, closed, inner, far)
    groups: dict = {}
    for x in range(L):
        groups.setdefault(closed[x], []).append(x)
    classes = sorted(groups.values())
    table = (not premise and witness is None and len(classes) == L and len(dist) == L
             and _table_holds(closed, dist, D, inner, far))
    return {"L": L, "D": D, "closed": closed, "classes": classes, "premise": premise, "witness": witness,
            "table": table, "connected": len(dist) == L}


def _table_holds(closed: list, dist: dict, D: int, inner: set, far: list) -> bool:
    """Theorem F112 on the residue graph (no two residues twins): the residues at distance D from 0 have pairwise
    different neighbours within D − 1 of 0, and adjacency of two of them is one function of (their common
    neighbours' count at each distance 1, …, D − 1; the unordered pair of the multisets of their neighbours' colours
    within D − 1, a colour being a residue's distance and the numbers of its neighbours at each distance)."""
    traces = [closed[x] & inner for x in far]
    if len(set(traces)) < len(traces):
        return False
    colour = {z: (dist[z],) + tuple(sum(1 for y in closed[z] if dist[y] == k) for k in range(D + 1)) for z in inner}
    seen = {x: sorted(colour[z] for z in closed[x] & inner) for x in far}
    table: dict = {}
    for i, x in enumerate(far):
        for y in far[i + 1:]:
            shared = closed[x] & closed[y]
            key = (tuple(sum(1 for z in shared if dist[z] == k) for k in range(1, D)),
                   tuple(sorted((tuple(seen[x]), tuple(seen[y])))))
            if table.setdefault(key, y in closed[x]) != (y in closed[x]):
                return False
    return True


def _swap_pair(kept: tuple, closed: list, inner, far: list) -> Optional[tuple[int, int]]:
    """Two residues of ``far`` with the same neighbours in ``inner`` that are not twins (adjacent with different
    closed neighbourhoods, or not adjacent with different open ones), or None."""
    for i, x in enumerate(far):
        for y in far[i + 1:]:
            if closed[x] & inner != closed[y] & inner:
                continue
            if y in closed[x]:
                twins = closed[x] == closed[y]
            else:
                twins = closed[x] - {x} == closed[y] - {y}
            if not twins:
                return x, y
    return None


@lru_cache(maxsize=2048)
def quotient_order(kept: tuple, rho: int) -> int:
    """N: the automorphisms of the quotient (one vertex per twin class, adjacent when their residues are) keeping
    the colours h_T (residues 1..ρ in T), by nauty and Schreier–Sims."""
    import pynauty

    from .groups import order
    data = residue_graph(kept)
    classes, closed = data["classes"], data["closed"]
    k = len(classes)
    heavy = {x % data["L"] for x in range(1, rho + 1)}
    colour = [sum(1 for x in c if x in heavy) for c in classes]
    adjacency = {a: [b for b in range(k) if b != a and classes[b][0] in closed[classes[a][0]]] for a in range(k)}
    cells = [set(a for a in range(k) if colour[a] == c) for c in sorted(set(colour))]
    graph = pynauty.Graph(k, directed=False, adjacency_dict=adjacency, vertex_coloring=cells)
    gens = [[p[v] + 1 for v in range(k)] for p in pynauty.autgrp(graph)[0]]
    return order(gens, k) if gens else 1


def premise_problem(pattern: S.Pattern, n: int, D: int, globals_: int = 0) -> Optional[str]:
    """The common-neighbour lemma's premise on the verifier's arcs: at every root i, two positions at distance D
    are adjacent iff some position within distance D − 1 of i, other than the globals 1..globals_, is adjacent to
    both."""
    arcs = patterns.head_arcs(pattern, n)
    outs = patterns.union_out([arcs], n)
    near: list[set[int]] = [set() for _ in range(n + 1)]
    for j, i in arcs:
        near[i].add(j)
    for i in range(1, n + 1):
        dist = patterns.bfs(outs, i)
        ball = {v for v, d in enumerate(dist) if v > globals_ and d is not None and d <= D - 1}
        far = [v for v in range(1, n + 1) if dist[v] == D]
        for x, u in enumerate(far):
            for v in far[x + 1:]:
                shared = bool(near[u] & near[v] & ball)
                if (v in near[u]) != shared:
                    return (f"n = {n}: positions {u}, {v} at distance {D} from {i} are "
                            f"{'adjacent' if v in near[u] else 'not adjacent'} but "
                            f"{'have' if shared else 'have no'} common neighbour within distance {D - 1}")
    return None


def _family(kept: tuple, pattern: S.Pattern):
    from .families import Family
    from .symbolic_unions import _residue_of
    data = residue_graph(kept)
    L, D = data["L"], data["D"]
    if not data["connected"]:
        return None

    def order(n):
        found = _residue_of(n, L)
        if found is None:
            q, rho = divmod(int(n), L)
            qq: sympy.Expr = sympy.Integer(q)
        else:
            qq, rho = found
        heavy = {x % L for x in range(1, rho + 1)}
        out: sympy.Expr = sympy.Integer(quotient_order(kept, rho))
        for c in data["classes"]:
            out *= sympy.factorial(len(c) * qq + sum(1 for x in c if x in heavy))
        return out

    def name(text):
        return "twin classes" in text and f"residues mod {L}" in text

    witness = None
    if data["witness"] is not None:
        x, y = data["witness"]

        def witness(n):
            return L, [y if k == x else x if k == y else k for k in range(1, n + 1)]
    least = data["premise"] or data["table"] or witness is not None
    layers = D if data["premise"] or data["table"] else D + 1
    check = (lambda n, d: premise_problem(pattern, n, d)) if data["premise"] else None
    text = ""
    if data["premise"]:
        text = (f"{D} layers least (Theorem F89): on the residue graph mod {L} two residues at distance {D} from 0 are "
                f"adjacent exactly when one within {D - 1} is adjacent to both, and at every instance the same holds on "
                "the verifier's arcs at every root, so by the common-neighbour lemma no view witness exists")
    elif data["table"]:
        text = (f"{D} layers least (Theorem F112): on the residue graph mod {L} the residues at distance {D} from 0 have "
                f"different neighbours within {D - 1}, and their adjacency is one function of the colours of those "
                "neighbours (re-derived here), so a view witness would induce a size-keeping automorphism of the residue "
                "graph, which lies in G")
    return Family("F89", L, D, layers, least, order, L, name, witness, layers_check=check, layers_text=text)


def _global_family(kept: tuple, g: int, pattern: S.Pattern):
    """Theorem F90: the strides with g globals, n ≥ g + L: D = 2, |G| = g!·(F89's order at n − g), 2 layers (least)
    when the premise with the globals left out holds on Q, 3 (least) with a transposition witness, else 3."""
    from math import factorial

    from .families import Family
    from .symbolic_unions import _residue_of
    data = residue_graph(kept)
    L, closed = data["L"], data["closed"]
    if not data["connected"]:
        return None

    def adj(x: int, y: int) -> bool:
        return any((x - y) % s == 0 for s in kept)
    near0 = closed[0]
    far = [x for x in range(L) if x not in near0]
    premise = data["D"] == 2 and all(adj(x, y) == bool(closed[x] & closed[y] & near0)
                                     for i, x in enumerate(far) for y in far[i + 1:])
    pair = None if premise else _swap_pair(kept, closed, near0, far)

    def first(r: int) -> int:
        return g + 1 + (r - g - 1) % L

    def order(n):
        found = _residue_of(n, L)
        if found is None:
            q, rho = divmod(int(n) - g, L)
            qq: sympy.Expr = sympy.Integer(q)
        else:
            k, r = found
            qq, rho = k + (r - g) // L, (r - g) % L
        heavy = {x % L for x in range(1, rho + 1)}
        out: sympy.Expr = sympy.Integer(factorial(g) * quotient_order(kept, rho))
        for c in data["classes"]:
            out *= sympy.factorial(len(c) * qq + sum(1 for x in c if x in heavy))
        return out

    def name(text):
        return text.startswith(f"S_{g} on") and "twin classes" in text and f"residues mod {L}" in text

    witness = None
    if pair is not None:
        root, a, b = first(0), first(pair[0]), first(pair[1])

        def witness(n):
            return root, [b if k == a else a if k == b else k for k in range(1, n + 1)]
    least = premise or witness is not None
    check = (lambda n, d: premise_problem(pattern, n, d, g)) if premise else None
    text = ("2 layers least (Theorem F90): on the residue graph mod {L} two residues outside the closed neighbourhood "
            "of 0 are adjacent exactly when one inside it is adjacent to both, and at every instance the same holds on "
            "the verifier's arcs at every root with the globals left out (a view keeps the in-degrees of its ball), "
            "so no view witness exists").format(L=L) if premise else ""
    return Family("F90", g + L, 2, 2 if premise else 3, least, order, L, name, witness, layers_check=check,
                  layers_text=text)
