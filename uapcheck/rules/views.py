"""How many attention layers a sparse pattern needs: the diameter D, or D + 1.

View argument (docs/theory.md §11.2, derived here). After m layers the output at position i is a
function of its depth-m view: the tokens within distance m and, per head, the in-neighbourhood
N_h(v) of every position v with d(v → i) ≤ m − 1. Input tokens are distinct, so two samples X and
X' = σX give the same view at i and σ(i) exactly when σ maps N_h(v) onto N_h(σ v) for every head h
and every such v. Hence

* m ≥ D is necessary (receptive field);
* m = D + 1 always suffices: then every v is within distance m − 1, and σ must be an automorphism;
* m = D suffices unless some σ outside the group keeps the neighbourhoods of all positions within
  distance D − 1 of some i: a *view witness*, which this module searches for (transpositions for
  moderate n, every permutation for n ≤ 8).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional, Sequence

from ..graphs import PatternGraph

EXHAUSTIVE_MAX_N = 8
TRANSPOSITION_MAX_N = 400


@dataclass(frozen=True)
class LayerCount:
    layers: int
    exact: bool  # True: `layers` is the least number that works
    method: str
    witness: Optional[dict] = None  # a view witness showing D layers are not enough


def _in_neighbourhoods(graphs: Sequence[PatternGraph]) -> list[list[frozenset]]:
    n = graphs[0].n
    out = []
    for g in graphs:
        nb = [set([v]) for v in range(n + 1)]
        for j, i in g.arcs():
            nb[i].add(j)
        out.append([frozenset(s) for s in nb])
    return out


def _within(graphs: Sequence[PatternGraph], radius: int) -> list[int]:
    """Bitsets R[v]: the positions i with d(v → i) ≤ radius in the union graph."""
    n = graphs[0].n
    succ = [set() for _ in range(n + 1)]
    for g in graphs:
        for j, i in g.arcs():
            succ[j].add(i)
    reach = [0] * (n + 1)
    for v in range(1, n + 1):
        seen, frontier, bits = {v}, [v], 1 << v
        for _ in range(radius):
            nxt = []
            for a in frontier:
                for b in succ[a]:
                    if b not in seen:
                        seen.add(b)
                        nxt.append(b)
                        bits |= 1 << b
            frontier = nxt
        reach[v] = bits
    return reach


def _blind_position(bad: set, reach: list[int], n: int) -> Optional[int]:
    """A position i none of the `bad` positions reaches within the radius, if any."""
    covered = 0
    for v in bad:
        covered |= reach[v]
    full = ((1 << (n + 1)) - 1) ^ 1
    missing = full & ~covered
    if not missing:
        return None
    return (missing & -missing).bit_length() - 1


def _bad_positions(perm: dict, nbs: list[list[frozenset]], n: int) -> set:
    """Positions v whose neighbourhood some head does not carry onto N(σ v)."""
    bad = set()
    for nb in nbs:
        for v in range(1, n + 1):
            image = frozenset(perm.get(k, k) for k in nb[v])
            if image != nb[perm.get(v, v)]:
                bad.add(v)
    return bad


def layers_needed(graphs: Sequence[PatternGraph], diameter: int, in_group) -> LayerCount:
    """The number of layers for a strongly connected pattern with directed diameter D.

    `in_group(perm_list)` tells whether a permutation (1-based image list) is in the family's group.
    """
    n = graphs[0].n
    if diameter <= 1 and all(g.complete or g.num_arcs == n * (n - 1) for g in graphs):
        return LayerCount(1, True, "every head is complete: every position sees every token in one layer")
    if n > TRANSPOSITION_MAX_N:
        return LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice; "
                          f"whether D = {diameter} suffice is not searched above {TRANSPOSITION_MAX_N} tokens")
    nbs = _in_neighbourhoods(graphs)
    outs = _out_bits(nbs, n)
    # With D = 1 but incomplete heads (their union is complete), the view of i after one layer
    # holds only i's own neighbourhoods: radius 0.
    reach = _within(graphs, diameter - 1)
    for a, b in itertools.combinations(range(1, n + 1), 2):
        perm = {a: b, b: a}
        bad_bits = _bad_bits_pair(a, b, nbs, outs, n)
        if not bad_bits:
            continue  # the swap keeps every neighbourhood: an automorphism of the pattern
        bad = [v for v in range(1, n + 1) if bad_bits >> v & 1]
        i = _blind_position(bad, reach, n)
        if i is not None:
            image = [perm.get(k, k) for k in range(1, n + 1)]
            if in_group(image):
                continue
            return LayerCount(diameter + 1, True, "view witness: D layers are not enough, D + 1 suffice",
                              {"position": i, "swap": [a, b], "diameter": diameter,
                               "why": f"every position whose neighbourhood the swap σ = ({a} {b}) changes is at "
                                      f"distance ≥ {diameter} from {i}, so after {diameter} layers the output at "
                                      f"{i} for X equals the output at σ({i}) for X with x_{a}, x_{b} exchanged"})
    if n <= EXHAUSTIVE_MAX_N:
        for images in itertools.permutations(range(1, n + 1)):
            perm = {k + 1: images[k] for k in range(n)}
            bad = _bad_positions(perm, nbs, n)
            if not bad or in_group(list(images)):
                continue
            i = _blind_position(bad, reach, n)
            if i is not None:
                return LayerCount(diameter + 1, True, "view witness: D layers are not enough, D + 1 suffice",
                                  {"position": i, "permutation": list(images), "diameter": diameter})
        return LayerCount(diameter, True, f"exhaustive over all {n}! permutations: no sample pair outside "
                                          "one orbit shares a depth-D view, so D layers suffice")
    return LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice; no "
                      f"transposition shows that D = {diameter} is not enough, and other permutations are "
                      "not searched")


def _out_bits(nbs: list[list[frozenset]], n: int) -> list[list[int]]:
    """Per head, bitsets Out[a] = {v : a ∈ N_h(v)} (who sees a)."""
    out = []
    for nb in nbs:
        bits = [0] * (n + 1)
        for v in range(1, n + 1):
            for k in nb[v]:
                bits[k] |= 1 << v
        out.append(bits)
    return out


def _bad_bits_pair(a: int, b: int, nbs, outs, n: int) -> int:
    """Bitset of positions whose neighbourhood the swap (a b) does not carry onto N(σ v)."""
    bad = 0
    for nb, out in zip(nbs, outs):
        bad |= out[a] ^ out[b]
        image = frozenset(b if k == a else a if k == b else k for k in nb[a])
        if image != nb[b]:
            bad |= (1 << a) | (1 << b)
    mask = ~((1 << a) | (1 << b))
    for nb in nbs:  # a and b themselves are judged by their own neighbourhoods only
        image = frozenset(b if k == a else a if k == b else k for k in nb[a])
        if image != nb[b]:
            return bad
    return bad & mask
