"""The view argument by backtracking: a second reference beside tests/graphs/brute_views.py for lengths where n! is
out of reach (n up to a few hundred for one head at depth 2).

A view witness for m layers (docs/theory.md §11.2) is a permutation σ outside G = ∩_h Aut(h) and a position i with
σ(N_h(v)) = N_h(σ(v)) for every head h and every v with d(v → i) ≤ m − 1. The search assigns σ position by position
(the ball first, in breadth-first order from i), and each assignment v ↦ t of a ball position narrows the candidates:
σ(N_h(v)) = N_h(t) exactly, so u ∈ N_h(v) needs σ(u) ∈ N_h(t) and u ∉ N_h(v) needs σ(u) ∉ N_h(t). Positions that no
ball constraint reaches stay free; a partial σ with a free position extends to two permutations that differ by a
transposition; the search reports a witness when either lies outside G (both inside would put a transposition of two
positions in G, which no group met here holds: G ≤ D_n, n ≥ 5). Shares no code with
``uapcheck.graphs``; the neighbourhoods are brute_views' (closed, from the naive semantics of reference.py).
"""
from __future__ import annotations

from typing import Iterator, Optional, Sequence

from .brute_views import Neighbourhoods, distances_to


def _solutions(nbs: Neighbourhoods, n: int, ball: Sequence[int], root: int, image: int) -> Iterator[dict[int, int]]:
    """Every partial σ with σ(root) = image meeting the condition on the ball (σ on the ball and on every position a
    ball constraint narrows; the others free)."""
    in_ball = set(ball)
    touched = set(ball).union(*(nb[v] for nb in nbs for v in ball))
    universe = frozenset(range(1, n + 1))
    domains: dict[int, frozenset[int]] = {u: universe for u in touched}
    domains[root] = frozenset([image])

    def narrow(domains, v, t):
        new = dict(domains)
        for nb in nbs:
            if len(nb[v]) != len(nb[t]):
                return None
            inside, image_set = nb[v], nb[t]
            for u in touched:
                if u == v:
                    continue
                d = new[u] & image_set if u in inside else new[u] - image_set
                if not d:
                    return None
                new[u] = d
        for u in touched:
            if u != v:
                new[u] = new[u] - {t}
                if not new[u]:
                    return None
        new[v] = frozenset([t])
        return new

    order = [root] + [v for v in ball if v != root] + sorted(touched - in_ball)

    def search(k, domains, assigned):
        if k == len(order):
            yield dict(assigned)
            return
        v = order[k]
        for t in sorted(domains[v]):
            if t in assigned.values():
                continue
            new = narrow(domains, v, t) if v in in_ball else _fix(domains, v, t, touched)
            if new is None:
                continue
            assigned[v] = t
            yield from search(k + 1, new, assigned)
            del assigned[v]

    yield from search(0, domains, {})


def _fix(domains, v, t, touched):
    new = {u: (d - {t} if u != v else frozenset([t])) for u, d in domains.items()}
    return None if any(not new[u] for u in touched) else new


def group(nbs: Neighbourhoods, n: int) -> list[dict[int, int]]:
    """G = ∩_h Aut(h): the witness condition at every position (one ball holding everything, rooted at 1)."""
    everything = list(range(1, n + 1))
    return [s for t in everything for s in _solutions(nbs, n, everything, 1, t)]


def view_witness(nbs: Neighbourhoods, n: int, m: int, roots: Optional[Sequence[int]] = None
                 ) -> Optional[tuple[dict[int, int], int]]:
    """A view witness (σ on the positions the ball's constraints reach; root i) for m layers, or None."""
    members = {tuple(sorted(g.items())) for g in group(nbs, n)}
    dist = distances_to(nbs, n)
    for i in roots if roots is not None else range(1, n + 1):
        ball = sorted((v for v, k in dist[i].items() if k <= m - 1), key=lambda v: (dist[i][v], v))
        for j in range(1, n + 1):
            for partial in _solutions(nbs, n, ball, i, j):
                if len(partial) < n:
                    free = sorted(set(range(1, n + 1)) - set(partial))
                    rest = sorted(set(range(1, n + 1)) - set(partial.values()))
                    one = {**partial, **dict(zip(free, rest))}
                    two = {**one, free[0]: one[free[-1]], free[-1]: one[free[0]]} if len(free) > 1 else one
                    if any(tuple(sorted(s.items())) not in members for s in (one, two)):
                        return one, i
                elif tuple(sorted(partial.items())) not in members:
                    return partial, i
    return None


def least_layers(nbs: Neighbourhoods, n: int, roots: Optional[Sequence[int]] = None) -> int:
    """The least m ≥ D with no view witness (D + 1 always suffice, §11.2 item 1)."""
    dist = distances_to(nbs, n)
    d = max(max(x.values()) for x in dist.values())
    assert all(len(x) == n for x in dist.values())
    return d if view_witness(nbs, n, d, roots) is None else d + 1

