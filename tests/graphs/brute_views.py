"""The view argument by brute force: the one reference implementation every layer-count test uses.

Each head h has closed neighbourhoods N_h(v) = {v} ∪ {keys query v attends to}, taken from the naive
pattern semantics of tests/graphs/reference.py. By the view lemma (docs/theory.md §11.2), m layers
do not suffice when a *view witness* exists: a permutation σ outside G = ∩_h Aut(h) and a position i
with σ(N_h(v)) = N_h(σ(v)) for every head h and every v with d(v → i) ≤ m − 1. The least sufficient
count is the least m ≥ D (the diameter of the union) without a witness.

Deliberately naive (all n! permutations, so n ≤ 8) and sharing no code with ``uapcheck.graphs``.
"""
from __future__ import annotations

import itertools
from collections import deque
from typing import Optional, Sequence

from uapcheck.parse import parse_source

from .reference import attends

Neighbourhoods = list[list[frozenset]]  # one list per head, indexed by position 1..n (0 unused)


def neighbourhoods(patterns: Sequence[str], n: int) -> Neighbourhoods:
    """The closed neighbourhoods of heads written as `.uap` patterns (e.g. "window(1)", "full")."""
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    spec = parse_source(f"tokens {n}\n{heads}", "brute_views.uap")
    out = []
    for head in spec.heads:
        pairs = attends(head.pattern, n)
        out.append([frozenset()] + [frozenset([v] + [j for (i, j) in pairs if i == v]) for v in range(1, n + 1)])
    return out


def distances_to(nbs: Neighbourhoods, n: int) -> dict[int, dict[int, int]]:
    """dist[i][v] = d(v → i) in the union of the heads (only the positions that reach i)."""
    union_in = [set().union(*(nb[v] for nb in nbs)) for v in range(n + 1)]
    dist = {}
    for i in range(1, n + 1):
        d = {i: 0}
        queue = deque([i])
        while queue:
            v = queue.popleft()
            for u in union_in[v]:
                if u not in d:
                    d[u] = d[v] + 1
                    queue.append(u)
        dist[i] = d
    return dist


def diameter(nbs: Neighbourhoods, n: int) -> Optional[int]:
    """D = max d(v → i), or None when some position does not reach another."""
    dist = distances_to(nbs, n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


def _preserves(nbs: Neighbourhoods, sigma: tuple, v: int) -> bool:
    """σ(N_h(v)) = N_h(σ(v)) for every head h (σ 1-based, sigma[0] = 0)."""
    return all(frozenset(sigma[k] for k in nb[v]) == nb[sigma[v]] for nb in nbs)


def view_witness(nbs: Neighbourhoods, n: int, m: int) -> Optional[tuple[tuple[int, ...], int]]:
    """A view witness (σ as the tuple σ(1), …, σ(n); position i) for m layers, or None."""
    dist = distances_to(nbs, n)
    balls = {i: [v for v, k in dist[i].items() if k <= m - 1] for i in dist}
    for p in itertools.permutations(range(1, n + 1)):
        sigma = (0,) + p
        good = [False] + [_preserves(nbs, sigma, v) for v in range(1, n + 1)]
        if all(good[1:]):
            continue  # σ ∈ G
        for i in range(1, n + 1):
            if all(good[v] for v in balls[i]):
                return p, i
    return None


def least_layers(nbs: Neighbourhoods, n: int) -> int:
    """The least m ≥ max(D, 1) with no view witness (the union must be strongly connected)."""
    d = diameter(nbs, n)
    assert d is not None, "the union of the heads is not strongly connected"
    m = max(d, 1)
    while view_witness(nbs, n, m) is not None:
        m += 1
    return m
