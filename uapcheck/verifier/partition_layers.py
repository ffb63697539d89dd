"""F86's classes "found by" F76 (docs/theory.md §11.11, Theorem F76: partition heads with D = 2, 2 layers, least, on a
class where no position's ball misses two parts of one head), re-checked with the verifier's own code: its own
reading of the heads, its own N and L, and the condition on its own arcs at every length of the class from the
class's bound up to N + M − 1 (the parts read off the arcs: the universal positions of each head, and a clique
partition of the rest that the check confirms)."""
from __future__ import annotations

from math import gcd

from .. import spec as S
from . import patterns
from .check import Reject
from .class_lengths import class_lengths

MAX_CHECKED_N = 400


def _int(t) -> int:
    if isinstance(t, bool) or not isinstance(t, int) or t < 1:
        raise Reject("F76: a head's size is not a positive integer")
    return t


def _head(p: S.Pattern) -> tuple[str, int, int]:
    """(kind, size, globals) of a partition head; Reject otherwise."""
    parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
    glob = [q for q in parts if isinstance(q, (S.Global, S.Star))]
    rest = [q for q in parts if not isinstance(q, (S.Global, S.Star))]
    g = max([1 if isinstance(q, S.Star) else _int(q.g) for q in glob] or [0])
    if not rest and g:
        return "rest", 0, g
    if len(rest) == 1 and isinstance(rest[0], S.Blocks) and _int(rest[0].b) >= 2:
        return "blocks", _int(rest[0].b), g
    if len(rest) == 1 and isinstance(rest[0], S.Strided) and _int(rest[0].s) >= 2:
        return "strided", _int(rest[0].s), g
    raise Reject("F76: a head is not blocks(b), strided(s) or global(g), alone or with global(g)")


def own_start(pats: list) -> tuple[int, int]:
    """(N, L): L the lcm of the block sizes and strides, N = L⌈max(g* + b*, v_h)/L⌉ + 6L."""
    period, most, widest, onsets = 1, 0, 1, [1]
    if sum(1 for p in pats if _head(p)[0] == "blocks") > 1:
        raise Reject("F76: more than one head with blocks")
    for p in pats:
        kind, size, g = _head(p)
        if kind in ("blocks", "strided"):
            period = period * size // gcd(period, size)
        if kind == "blocks":
            widest = max(widest, size)
        most = max(most, g)
        if g:
            onsets.append(size * (g // size + 1) + 1 if kind == "blocks" else g + 2)
    top = max([most + widest] + onsets)
    return period * -(-top // period) + 6 * period, period


def no_root_hides_two_parts(heads: list, n: int) -> bool:
    """Each head (arcs (j, i): i attends to j) is its universal positions plus a clique partition of the others, and
    no position outside every head's universal set has a ball missing two parts of one head."""
    every = set(range(1, n + 1))
    nbs = []
    for arcs in heads:
        nb = {v: {v} for v in every}
        for j, i in arcs:
            nb[i].add(j)
        nbs.append(nb)
    universal = [{u for u in every if nb[u] == every and all(u in nb[v] for v in every)} for nb in nbs]
    partitions = []
    for nb, uni in zip(nbs, universal):
        if uni == every:
            return False
        part = {v: frozenset(nb[v] - uni) for v in every - uni}
        for v, own in part.items():
            if not uni <= nb[v] or any(part.get(u) != own for u in own):
                return False
        partitions.append(set(part.values()))
    outside = every - set().union(*universal)
    for i in outside:
        ball = set().union(*(nb[i] for nb in nbs))
        if any(sum(1 for q in parts if not (q & ball)) > 1 for parts in partitions):
            return False
    return True


def check_class(c: dict, pats: list, m: int, r: int, low: int, first: int) -> None:
    n_start, period = own_start(pats)
    if m % period:
        raise Reject(f"F76: the modulus {m} is not a multiple of L = {period}")
    for length in class_lengths("F76", c, m, r, low, first, n_start, MAX_CHECKED_N):
        if not no_root_hides_two_parts([patterns.head_arcs(p, length) for p in pats], length):
            raise Reject(f"F76: at n = {length} some position's ball misses two parts of one head (or a head is not "
                         "a partition of cliques with universal positions)")
