"""Plain-Python pattern graphs for the verifier: arcs rebuilt from the re-parsed patterns, BFS, the
labelled structure a symmetry must preserve, and the checks on them.

Conventions (the language's, docs/language.md): positions 1..n; query i attends to key j gives the
arc j -> i; self-loops are dropped (every position sees itself through the residual stream).
"""
from __future__ import annotations

import functools

import random
from collections import deque
from itertools import combinations, permutations
from typing import Optional, Sequence

from .. import spec as S

MAX_N = 1024  # beyond this the verifier does not materialise arcs (the step is then trusted)


class Symbolic(Exception):
    """A pattern quantity is a name, not an integer."""


def _int(term) -> int:
    if isinstance(term, bool) or not isinstance(term, int):
        raise Symbolic(f"pattern quantity {term!r} is not an integer")
    return term


def _offset_arcs(out: set, n: int, a: int, cyclic: bool) -> None:
    """The arcs (i + a, i) (indices mod n when cyclic), without self-loops."""
    if cyclic:
        out.update(((i + a - 1) % n + 1, i) for i in range(1, n + 1) if (i + a - 1) % n + 1 != i)
    elif a:
        out.update((i + a, i) for i in range(max(1, 1 - a), min(n, n - a) + 1))


def _arcs(p: S.Pattern, n: int, out: set) -> bool:  # noqa: C901 - one branch per pattern kind (spec.Pattern)
    """Add the arcs of p; True when p is complete (full)."""
    if isinstance(p, S.Full):
        return True
    if isinstance(p, S.PatternUnion):
        full = False
        for part in p.parts:
            full = _arcs(part, n, out) or full
        return full
    if isinstance(p, S.Causal):
        out.update(combinations(range(1, n + 1), 2))  # (j, i) with j < i, in C
    elif isinstance(p, S.Window):
        for d in range(1, _int(p.w) + 1):
            if d >= n:
                break
            _offset_arcs(out, n, d, p.cyclic)
            _offset_arcs(out, n, -d, p.cyclic)
    elif isinstance(p, S.Offsets):
        for term in p.offsets:
            _offset_arcs(out, n, _int(term), p.cyclic)
    elif isinstance(p, S.Dilated):
        w, r = _int(p.w), _int(p.r)
        for k in range(1, w + 1):
            if k * r >= n:
                break
            _offset_arcs(out, n, k * r, False)
            _offset_arcs(out, n, -k * r, False)
    elif isinstance(p, S.Strided):
        s = _int(p.s)
        for a in range(s, n, s):
            _offset_arcs(out, n, a, False)
            _offset_arcs(out, n, -a, False)
    elif isinstance(p, S.Blocks):
        b = _int(p.b)
        for i in range(1, n + 1):
            start = (i - 1) // b * b
            out.update((j, i) for j in range(start + 1, min(n, start + b) + 1) if j != i)
    elif isinstance(p, (S.Global, S.Star)):
        g = 1 if isinstance(p, S.Star) else _int(p.g)
        for t in range(1, min(g, n) + 1):
            out.update((j, t) for j in range(1, n + 1) if j != t)
            out.update((t, i) for i in range(1, n + 1) if i != t)
    elif isinstance(p, S.RandomPattern):
        r = _int(p.r)
        rng = random.Random(p.seed)  # the language defines random(r, seed=S) by Python's generator
        for i in range(1, n + 1):
            for j in rng.sample(range(1, n + 1), r):
                if j != i:
                    out.add((j, i))
    elif isinstance(p, S.Edges):
        out.update((j, i) for (i, j) in p.edges if i != j)
    elif isinstance(p, S.PatternIntersection):
        return _intersection_arcs(p, n, out)
    elif isinstance(p, S.Sinks):
        k = min(_int(p.k), n)
        out.update((s, i) for s in range(1, k + 1) for i in range(k + 1, n + 1))
    elif isinstance(p, S.GlobalAt):
        for t in p.positions:
            out.update((j, t) for j in range(1, n + 1) if j != t)
            out.update((t, i) for i in range(1, n + 1) if i != t)
    elif isinstance(p, S.Columns):
        # the last c positions of every block of l: j with j mod l in {0, l - 1, ..., l - c + 1}
        l_, c = _int(p.l), _int(p.c)
        residues = {(l_ - t) % l_ for t in range(c)}
        keys = [j for j in range(1, n + 1) if j % l_ in residues]
        out.update((j, i) for i in range(1, n + 1) for j in keys if j != i)
    elif isinstance(p, S.Blockwise):
        b = _int(p.b)
        nb = n // b
        inner: set = set()
        if nb == 1 or _arcs(p.inner, nb, inner):
            inner = {(q, r) for q in range(1, nb + 1) for r in range(1, nb + 1)}
        inner |= {(q, q) for q in range(1, nb + 1)}
        for q, r in inner:  # block q -> block r: every key of q to every query of r
            out.update((j, i) for j in range((q - 1) * b + 1, q * b + 1) for i in range((r - 1) * b + 1, r * b + 1) if j != i)
    else:
        raise Symbolic(f"pattern {type(p).__name__}")
    return False


def _intersection_arcs(p: S.PatternIntersection, n: int, out: set) -> bool:
    """Add the arcs every part of `P & Q & …` holds; True when every part is complete. A `causal` part keeps the arcs
    j < i of the others (the arcs it holds), read as that filter rather than built whole (n(n − 1)/2 arcs)."""
    common = None
    causal = False
    for part in p.parts:
        if isinstance(part, S.Causal):
            causal = True
            continue
        mine: set = set()
        if _arcs(part, n, mine):
            continue  # P & full = P
        common = mine if common is None else common & mine
    if common is None:  # every part complete or causal
        return True if not causal else _arcs(S.Causal(), n, out)
    out.update(common if not causal else {(j, i) for j, i in common if j < i})
    return False


def head_arcs(pattern: S.Pattern, n: int) -> frozenset:
    """The arcs (j, i) of one head's pattern at length n (every ordered pair when it is complete). At n = 1 there is
    no pair i ≠ j: no arc, whatever the pattern's sizes (params included)."""
    if n == 1:
        return frozenset()
    out: set = set()
    if _arcs(pattern, n, out):
        return frozenset(permutations(range(1, n + 1), 2))  # every (j, i) with j ≠ i, in C
    return frozenset(out)


def spec_arcs(spec: S.Spec) -> list[frozenset]:
    n = spec.tokens
    if isinstance(n, bool) or not isinstance(n, int):
        raise Symbolic("the number of tokens is symbolic")
    if n > MAX_N:
        raise Symbolic(f"n = {n} is above the verifier's graph limit {MAX_N}")
    return [head_arcs(h.pattern, n) for h in spec.heads]


def union_out(heads: Sequence[frozenset], n: int) -> list[list[int]]:
    outs: list[list[int]] = [[] for _ in range(n + 1)]
    for arcs in heads:
        for j, i in arcs:
            outs[j].append(i)
    return [sorted(set(row)) if len(heads) > 1 else sorted(row) for row in outs]  # one head's arcs are distinct


def bfs(outs: list[list[int]], source: int) -> list[Optional[int]]:
    n = len(outs) - 1
    dist: list[Optional[int]] = [None] * (n + 1)
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in outs[u]:
            if dist[v] is None:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist



def diameter(outs: list[list[int]], n: int) -> Optional[int]:
    """The directed diameter of positions 1..n under `outs` (BFS from each), None when not strongly connected."""
    worst = 0
    for v in range(1, n + 1):
        dist = bfs(outs, v)
        if any(x is None for x in dist[1:]):
            return None
        worst = max(worst, max((x for x in dist[1:] if x is not None), default=0))
    return worst


def check_distances(heads: Sequence[frozenset], n: int, source: int, dist: Sequence) -> Optional[str]:
    """A distance array from `source`, checked arc by arc: d[source] = 0, d[v] <= d[u] + 1 on every
    arc u -> v (so d is at most the distance), and every other reached v has an in-arc from some u with
    d[u] = d[v] - 1 (so d is attained). `None` entries mean unreachable; None when it checks."""
    if len(dist) != n + 1 or dist[source] != 0:
        return f"the distance array from {source} is malformed"
    support = set()
    for arcs in heads:
        support |= arcs
    has_pred = [False] * (n + 1)
    for u, v in support:
        du, dv = dist[u], dist[v]
        if du is not None and (dv is None or dv > du + 1):
            return f"arc {u} -> {v}: d({source} -> {v}) = {dv} exceeds d({source} -> {u}) + 1"
        if du is not None and dv is not None and dv == du + 1:
            has_pred[v] = True
    for v in range(1, n + 1):
        if v != source and dist[v] is not None and not has_pred[v]:
            return f"d({source} -> {v}) = {dist[v]} is not attained by any arc"
    return None


BIAS_KINDS = ("free", "circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz")


def bias_class(kind: "Optional[str | tuple[int, int]]", n: int, j: int, i: int):
    d = j - i
    if kind is None:
        return 0
    if kind == "circulant":
        return d % n
    if kind == "symmetric circulant":
        m = d % n
        return min(m, n - m)
    if kind == "toeplitz":
        return d
    if kind == "symmetric toeplitz":
        return abs(d)
    if kind == "free":
        return (j, i)
    if isinstance(kind, tuple):  # T5's buckets (B, D): the bucket of the offset, the released function exactly
        return ("bucket", _bucket(d, *kind))
    raise Symbolic(f"bias kind {kind}")


@functools.lru_cache(maxsize=65536)
def _bucket(d: int, num_buckets: int, max_distance: int) -> int:
    from .rules_positions import _released_bucket
    return _released_bucket(d, num_buckets, max_distance)


def head_labels(heads: Sequence[frozenset]) -> dict:
    """(j, i) -> the indices of the heads (arc sets, in order) that contain the arc: the arc-coloured union."""
    lab: dict = {}
    for idx, arcs in enumerate(heads):
        for arc in arcs:
            lab[arc] = lab.get(arc, ()) + (idx,)
    return lab


def labels(spec: S.Spec, heads: Sequence[frozenset]) -> dict:
    return labels_at(spec, heads, spec.tokens)


def labels_at(spec: S.Spec, heads: Sequence[frozenset], n: int, kinds: Optional[Sequence] = None) -> dict:
    """(j, i) -> the tuple of (head, bias class) over the heads that contain the arc: a permutation
    σ is a symmetry of the family iff it maps every labelled pair onto a pair with the same label
    (each head has its own parameters; a bias of kind K ties the scores of pairs of one class)."""
    lab: dict = {}
    if len(heads) == 1 and (kinds[0] if kinds is not None else spec.heads[0].bias) is None:
        return dict.fromkeys(heads[0], ((0, bias_class(None, n, 0, 0)),))  # one label: the loop below, at once
    for h, (head, arcs) in enumerate(zip(spec.heads, heads)):
        kind = kinds[h] if kinds is not None else head.bias
        for j, i in arcs:
            lab.setdefault((j, i), []).append((h, bias_class(kind, n, j, i)))
    return {k: tuple(v) for k, v in lab.items()}


def is_permutation(perm, n: int) -> bool:
    return (isinstance(perm, list) and len(perm) == n and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in perm) and sorted(perm) == list(range(1, n + 1)))


def preserves(perm: Sequence[int], lab: dict, positional: str = "none") -> bool:
    """σ (1-based image list) preserves every label (and a positional encoding forces σ = id)."""
    if positional == "absolute" and any(perm[k] != k + 1 for k in range(len(perm))):
        return False
    for (j, i), value in lab.items():
        if lab.get((perm[j - 1], perm[i - 1])) != value:
            return False
    return True


def in_neighbourhoods(heads: Sequence[frozenset], n: int) -> list[list[frozenset]]:
    out = []
    for arcs in heads:
        nb = [set([v]) for v in range(n + 1)]
        for j, i in arcs:
            nb[i].add(j)
        out.append([frozenset(s) for s in nb])
    return out


def view_bad_positions(perm: Sequence[int], heads: Sequence[frozenset], n: int) -> set:
    """Positions v with σ(N_h(v)) != N_h(σ v) for some head h (σ as a 1-based image list)."""
    bad = set()
    for nb in in_neighbourhoods(heads, n):
        for v in range(1, n + 1):
            if frozenset(perm[k - 1] for k in nb[v]) != nb[perm[v - 1]]:
                bad.add(v)
    return bad
