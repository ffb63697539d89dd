"""Permutations for tests at a few vertices: the group a set of them generates (by brute force), and a coloured
digraph relabelled by one."""
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


def relabelled(perm: list, arcs, colours: list) -> tuple[set, list]:
    """The coloured digraph (arcs, colours) on 0..m − 1 with each vertex v renamed perm[v]."""
    image_colours = [0] * len(colours)
    for v, c in enumerate(colours):
        image_colours[perm[v]] = c
    return {(perm[u], perm[v]) for u, v in arcs}, image_colours
