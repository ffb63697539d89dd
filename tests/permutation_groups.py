"""The group a set of permutations generates, by brute force (for tests at a few vertices)."""
from __future__ import annotations


def generated_group(gens: list, m: int) -> set:
    """Every permutation of 0..m − 1 (a tuple p, p[v] the image of v) in the group the generators generate."""
    seen = {tuple(range(m))}
    frontier = list(seen)
    while frontier:
        p = frontier.pop()
        for g in gens:
            q = tuple(g[p[v]] for v in range(m))
            if q not in seen:
                seen.add(q)
                frontier.append(q)
    return seen
