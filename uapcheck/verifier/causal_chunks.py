"""Chunked causal layers with the full causal mask (Llama 4), for the verifier (docs/theory.md §21.11, Theorem F169).

The verifier's own reading of the layers (layer_table: every layer one head, `causal & blocks(b)` or `causal`, one
b), its own count from the statement of §21.11:

    n = 1, or n ≤ min(b, 2): 1;   3 ≤ n ≤ b: 2;   b < n ≤ 2b: g₁;   n > 2b: g₂,

g₁ < g₂ the first two full causal layers of the periodic extension (the first layer chunked), confirmed by brute force
over the permutations of the prefix (§21.5's causal view condition, on its own arcs) at chunk sizes 1, 2, 3 and every
n ≤ min(2b + 3, 6): a witness at the count minus one (unless it is D_c) and none at the count. Written from the
statement, not from the engine (uapcheck/graphs/layers_chunks.py)."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional, Union

from .. import spec as S
from .layer_table import layer_table

#: the chunk sizes and the largest length of the brute-force confirmation
BRUTE_SIZES = (1, 2, 3)
BRUTE_MAX_N = 6


class NotChunks(ValueError):
    pass


@dataclass(frozen=True)
class Chunks:
    kinds: str  # "C"/"G" per layer of the period
    b: Union[int, str]

    @property
    def g1(self) -> int:
        return self.kinds.index("G") + 1

    @property
    def g2(self) -> int:
        rest = self.kinds.find("G", self.g1)
        return rest + 1 if rest >= 0 else self.g1 + len(self.kinds)

    def count(self, n: int, b: Optional[int] = None) -> int:
        size = self.b if b is None else b
        assert isinstance(size, int)
        if n == 1 or n <= min(size, 2):
            return 1
        if n <= size:
            return 2
        return self.g1 if n <= 2 * size else self.g2


def read(spec: S.Spec) -> Chunks:
    table = layer_table(spec, NotChunks)
    if not table.periodic or table.limit is not None:
        raise NotChunks("a periodic list without a budget")
    kinds, sizes = "", set()
    for row in table.rows:
        if len(row) != 1:
            raise NotChunks("one head per layer")
        p = row[0]
        if isinstance(p, S.Causal):
            kinds += "G"
        elif isinstance(p, S.PatternIntersection) and len(p.parts) == 2 and \
                {type(q) for q in p.parts} == {S.Causal, S.Blocks}:
            kinds += "C"
            sizes.add(next(q.b for q in p.parts if isinstance(q, S.Blocks)))
        else:
            raise NotChunks("a layer that is neither `causal & blocks(b)` nor `causal`")
    if len(sizes) != 1 or "G" not in kinds or kinds[0] != "C":
        raise NotChunks("one chunk size, a `causal` layer, the first layer chunked")
    return Chunks(kinds, sizes.pop())


def _neighbours(kind: str, b: int, v: int) -> frozenset:
    start = 1 if kind == "G" else (v - 1) // b * b + 1
    return frozenset(range(start, v + 1))


def _witness(c: Chunks, b: int, n: int, m: int) -> bool:
    """A causal view witness at depth m at some position i ≤ n (brute force over the permutations of {1, …, i})."""
    for i in range(1, n + 1):
        kinds = [c.kinds[(ell - 1) % len(c.kinds)] for ell in range(1, m + 1)]
        views: list[set] = [set() for _ in range(m + 1)]
        views[m] = {i}
        for ell in range(m, 0, -1):
            views[ell - 1] = set().union(*(_neighbours(kinds[ell - 1], b, v) for v in views[ell]))
        for perm in itertools.permutations(range(1, i + 1)):
            if all(perm[k] == k + 1 for k in range(i)):
                continue
            sigma = dict(zip(range(1, i + 1), perm))
            if all(frozenset(sigma[u] for u in _neighbours(kinds[ell - 1], b, v)) ==
                   _neighbours(kinds[ell - 1], b, sigma[v])
                   for ell in range(1, m + 1) for v in views[ell]):
                return True
    return False


def _reach_depth(c: Chunks, b: int, n: int) -> int:
    """D_c: the least m with every prefix {1, …, i} read by the output at i (i ≤ n)."""
    for m in range(0, 4 * len(c.kinds) + 5):
        if all(1 in _reach_back(c, b, i, m) for i in range(1, n + 1)):
            return m
    raise NotChunks("the prefix is not reached")


def _reach_back(c: Chunks, b: int, i: int, m: int) -> set:
    """The positions the output at i reads through the layers 1, …, m."""
    cur = {i}
    for ell in range(m, 0, -1):
        cur = set().union(*(_neighbours(c.kinds[(ell - 1) % len(c.kinds)], b, v) for v in cur))
    return cur


def confirm(c: Chunks) -> Optional[str]:
    """Why the brute force disagrees with the stated count at a small chunk size (None: it agrees)."""
    for b in BRUTE_SIZES:
        for n in range(1, min(2 * b + 3, BRUTE_MAX_N) + 1):
            want = c.count(n, b)
            d = max(_reach_depth(c, b, n), 1)
            if want < d or _witness(c, b, n, want) or (want > d and not _witness(c, b, n, want - 1)):
                return f"at b = {b}, n = {n} the count {want} is not the least without a causal view witness"
    return None


def pieces(c: Chunks, b) -> tuple[object, list[tuple]]:
    """The range's start and the pieces (from, below, layers) below it, b an int or a Symbol."""
    if b == 1:
        return 3, [(1, 2, 1), (2, 3, c.g1)]
    out = [(1, 3, 1), (3, b + 1, 2), (b + 1, 2 * b + 1, c.g1)]
    return 2 * b + 1, [p for p in out if not (isinstance(p[1], int) and p[1] <= p[0])]
