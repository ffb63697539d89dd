"""Patterns as arithmetic: who attends to whom, decided per pair without materialising arcs.

`attends(pattern, n, i, j)` answers "does query i see key j?" (1-based; i always sees itself) from
the pattern's definition, in O(1) for the structured kinds (O(r) for a random row, drawn once per
pattern and length).  `lower_triangular` / `upper_triangular` decide from the pattern's structure
alone that every arc j → i has j ≤ i (causal-type masks: Mistral's causal window, StreamingLLM's
sinks) or j ≥ i, which settles connectivity and, with the path 1 → 2 → … → n, the symmetry group
at any n (docs/theory.md §11.7).

The definitions here are the same as `build.py`'s arc generators; tests compare the two pair by
pair at small n.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Optional

from ..spec import (Blocks, Blockwise, Causal, Columns, Dilated, Edges, Full, Global, GlobalAt, Offsets, Pattern,
                    PatternIntersection, PatternUnion, RandomPattern, Sinks, Star, Strided, Window)
from .build import random_rows, resolve


@lru_cache(maxsize=8)
def _random_rows(r: int, seed: int, n: int) -> tuple[frozenset, ...]:
    return tuple(map(frozenset, random_rows(seed, n, r)))


def attends(pattern: Pattern, n: int, i: int, j: int, params: Optional[Mapping[str, int]] = None) -> bool:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    """True when query i attends to key j under `pattern` at length n (always for i == j)."""
    if i == j:
        return True
    params = params or {}
    p = pattern
    if isinstance(p, Full):
        return True
    if isinstance(p, Causal):
        return j <= i
    if isinstance(p, Window):
        w, d = resolve(p.w, params), abs(i - j)
        return (min(d, n - d) if p.cyclic else d) <= w
    if isinstance(p, Offsets):
        offs = [resolve(o, params) for o in p.offsets]
        if p.cyclic:
            return any((j - i) % n == o % n for o in offs)
        return (j - i) in offs
    if isinstance(p, Dilated):
        w, r = resolve(p.w, params), resolve(p.r, params)
        d = j - i
        return d % r == 0 and abs(d) // r <= w
    if isinstance(p, Strided):
        return (j - i) % resolve(p.s, params) == 0
    if isinstance(p, Blocks):
        b = resolve(p.b, params)
        return (i - 1) // b == (j - 1) // b
    if isinstance(p, (Global, Star)):
        g = 1 if isinstance(p, Star) else resolve(p.g, params)
        return i <= g or j <= g
    if isinstance(p, RandomPattern):
        return j in _random_rows(resolve(p.r, params), p.seed, n)[i - 1]
    if isinstance(p, Edges):
        return (i, j) in p.edges
    if isinstance(p, PatternUnion):
        return any(attends(q, n, i, j, params) for q in p.parts)
    if isinstance(p, PatternIntersection):
        return all(attends(q, n, i, j, params) for q in p.parts)
    if isinstance(p, Sinks):
        k = resolve(p.k, params)
        return j <= k < i
    if isinstance(p, GlobalAt):
        return i in p.positions or j in p.positions
    if isinstance(p, Blockwise):
        bi, bj = (i - 1) // p.b + 1, (j - 1) // p.b + 1
        return attends(p.inner, n // p.b, bi, bj, params)
    if isinstance(p, Columns):  # the last c positions of each block of l: j mod l in {0, −1, …, −(c − 1)}
        return (-j) % resolve(p.l, params) < resolve(p.c, params)
    raise TypeError(f"unknown pattern {pattern!r}")


def lower_triangular(p: Pattern) -> bool:
    """Proved from the structure: every arc j → i (i attends to j) has j ≤ i."""
    if isinstance(p, (Causal, Sinks)):
        return True
    if isinstance(p, Offsets):
        return not p.cyclic and all(isinstance(o, int) and o <= 0 for o in p.offsets)
    if isinstance(p, Edges):
        return all(j <= i for i, j in p.edges)
    if isinstance(p, PatternUnion):
        return all(lower_triangular(q) for q in p.parts)
    if isinstance(p, PatternIntersection):
        return any(lower_triangular(q) for q in p.parts)
    return False


def upper_triangular(p: Pattern) -> bool:
    """Proved from the structure: every arc j → i has j ≥ i (anti-causal masks)."""
    if isinstance(p, Offsets):
        return not p.cyclic and all(isinstance(o, int) and o >= 0 for o in p.offsets)
    if isinstance(p, Edges):
        return all(j >= i for i, j in p.edges)
    if isinstance(p, PatternUnion):
        return all(upper_triangular(q) for q in p.parts)
    if isinstance(p, PatternIntersection):
        return any(upper_triangular(q) for q in p.parts)
    return False


def has_path(p: Pattern, n: int, lower: bool) -> bool:
    """Every query i ≥ 2 attends to i − 1 (lower) / every query i ≤ n − 1 attends to i + 1 (upper): read off the
    structure where it shows it (`path_by_structure`), else checked position by position."""
    if path_by_structure(p, lower):
        return True
    if lower:
        return all(attends(p, n, i, i - 1) for i in range(2, n + 1))
    return all(attends(p, n, i, i + 1) for i in range(1, n))


def path_by_structure(p: Pattern, lower: bool) -> bool:
    """True when the pattern's structure alone shows that every query attends to its neighbour on the one side (the
    key i − 1 when `lower`, else i + 1) at every n: `full`; `causal` (j ≤ i) on the lower side; a window of radius
    w ≥ 1 (the offset ±1 is within w, cyclic or not); offsets with −1 (lower) or +1 (upper), not cyclic; a union with
    such a part; an intersection of such parts. False: not shown here (`has_path` then checks every position)."""
    if isinstance(p, Full):
        return True
    if isinstance(p, Causal):
        return lower
    if isinstance(p, Window):
        return isinstance(p.w, int) and not isinstance(p.w, bool) and p.w >= 1
    if isinstance(p, Offsets):
        return not p.cyclic and (-1 if lower else 1) in [o for o in p.offsets if isinstance(o, int)]
    if isinstance(p, PatternUnion):
        return any(path_by_structure(q, lower) for q in p.parts)
    if isinstance(p, PatternIntersection):
        return all(path_by_structure(q, lower) for q in p.parts)
    return False


def uses_new_kinds(p: Pattern) -> bool:
    """Kinds the symbolic-n closed forms do not cover."""
    if isinstance(p, (PatternIntersection, Sinks, GlobalAt, Blockwise)):
        return True
    if isinstance(p, PatternUnion):
        return any(uses_new_kinds(q) for q in p.parts)
    return False
