"""Several symmetric heads whose union is straight: D layers, least, when the union's far ends are cliques in
every head (docs/theory.md §11.11, Theorem F75; open question O8 before it).

Setting of Theorems F70–F71: several distinct unbiased heads without a positional encoding, G = ∩_h Aut(Γ_h).
Every head is made of non-cyclic windows and blocks (so every head's arc relation is symmetric), and the union Γ
is Theorem F21's `blocks(b) + window(w)`, straight in the order 1..n (F20), with D = d(1, n) ≥ 2.

* F75. Let U_1 = {j : d(1, j) = D} and U_n = {j : d(j, n) = D} (the union's distances). If U_1 and U_n are
  cliques in every head, the heads need exactly D layers, though their group may be smaller than the union's
  (the union's twins need not be the heads' twins, so Theorem F70 says nothing). Proof: a view witness σ of the
  heads at i keeps every head's neighbourhoods on the ball B_i; the positions outside it, U_i, lie on one side
  of i and inside U_1 or U_n (F20 (a, c)), and σ(U_i) = U_{σ(i)} (§11.9, Lemma 1); a pair meeting B_i keeps its
  arcs in every head by the condition at its member in B_i (the heads are symmetric), a pair inside U_i is an
  arc of every head and so is its image inside U_{σ(i)}: σ ∈ G, no witness.
* Symbolic n. U_1 is the tail (p_{D−1}, n] of the greedy walk from 1 (period (T, Q), F21) and U_n the head
  [1, l^{D−1}(n)) of the walk to the left, which reaches a block start within b steps and then has a period
  (T', Q'); so, once D ≥ b + 2, both are the same sets in end coordinates at n and n + M, M = lcm(L, Q, Q'),
  and every head's arcs among them depend on n mod L. The condition is checked on the heads' arcs at every
  length from the union's bound up to N + M − 1, N the first length with D ≥ b + 2.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Mapping, Optional, Sequence

import sympy

from ..spec import Pattern
from .closed_forms import _atoms, _is_int, _merge, _Undecided

SECTION = "docs/theory.md §11.11, Theorem F75"
#: the lengths checked go up to N + M − 1; no claim is made beyond this.
MAX_CHECKED_N = 400


@dataclass(frozen=True)
class FarEnds:
    """F75's decision: the union's b and w, the heads' lcm ``period`` (L), the walks' periods ``right`` (T, Q)
    and ``left`` (T', Q'), the modulus M, the first length ``start`` (N) with D ≥ b + 2, and the range
    ``low``: the far ends are cliques in every head at every length from ``low`` up to N + M − 1."""
    b: int
    w: int
    period: int
    right: tuple[int, int]
    left: tuple[int, int]
    modulus: int
    start: int
    low: int


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def symmetric_parts(patterns: Sequence[Pattern], params: Mapping) -> Optional[int]:
    """L, the lcm of the heads' block sizes, when every head is made of non-cyclic windows and blocks with
    integer sizes (each head's arc relation is then symmetric); else None."""
    period = 1
    for p in patterns:
        try:
            atoms = _merge(_atoms(p, dict(params)))
        except (_Undecided, KeyError, TypeError, ValueError):
            return None
        if not atoms:
            return None
        for a in atoms:
            if a.kind not in ("window", "blocks") or not all(_is_int(x) for x in a.args):
                return None
            if a.kind == "blocks":
                period = _lcm(period, int(a.args[0]))
    return period


def left_period(b: int, w: int) -> tuple[int, int]:
    """(T', Q'): the walk to the left x ↦ min(start of x's block, x − w) from a block start returns to a block
    start after T' steps, Q' positions further left (Q' a multiple of b)."""
    start = x = b * (4 * b + 4) + 1
    for t in range(1, 2 * b + 3):
        x = min(b * ((x - 1) // b) + 1, x - w)
        if (x - 1) % b == 0:
            return t, start - x
    raise AssertionError("the walk to the left of blocks + window has no period")  # not reached: offsets grow


def _distances(adj: list[set], n: int, root: int) -> list[int]:
    dist = [-1] * (n + 1)
    dist[root] = 0
    frontier = [root]
    while frontier:
        nxt = []
        for v in frontier:
            for u in adj[v]:
                if dist[u] < 0:
                    dist[u] = dist[v] + 1
                    nxt.append(u)
        frontier = nxt
    return dist


def far_ends_are_cliques(heads: Sequence, n: int, reach: int) -> Optional[int]:
    """D = d(1, n) of the union when, for every position i, the positions at distance D from i form a clique in
    every head (``heads``: the PatternGraphs at n), else None. Only the roots within ``reach`` (b) of an end are
    searched: in a straight union a root i with r(1) ≤ i ≤ l(n) reaches every position within D − 1 (F20 (a):
    r^{D−1}(i) ≥ r^D(1) ≥ n, and the same to the left), and r(1) = b, l(n) > n − b for blocks(b) + window(w)."""
    def sees(g, v: int, u: int) -> bool:
        return u == v or g.complete or (u - 1) * n + (v - 1) in g.codes

    adj: list[set] = [set() for _ in range(n + 1)]
    for g in heads:
        if g.complete:
            return None
        for code in g.codes:
            j, i = divmod(code, n)
            adj[j + 1].add(i + 1)
            adj[i + 1].add(j + 1)
    d = _distances(adj, n, 1)[n]
    if d < 2:
        return None
    for root in sorted(set(range(1, min(n, reach) + 1)) | set(range(max(1, n - reach), n + 1))):
        dist = _distances(adj, n, root)
        if max(dist[1:]) > d or min(dist[1:]) < 0:
            return None
        far = [j for j in range(1, n + 1) if dist[j] == d]
        if not all(sees(g, u, v) for g in heads for u in far for v in far):
            return None
    return d


def decide(patterns: Sequence[Pattern], union, params: Mapping) -> Optional[FarEnds]:
    """F75 on the heads when their union's theorem is F21 (straight, D layers): the far ends are cliques in
    every head at every length from the returned bound (checked up to N + M − 1), or None."""
    from .build import build_graph
    from .symbolic_unions import diameter_at, greedy_period
    if union is None or union.theorem != "F21" or union.low.free_symbols:
        return None
    period = symmetric_parts(patterns, params)
    if period is None:
        return None
    values = union.values()
    b, w = int(values["b"]), int(values["w"])
    right, left = greedy_period(b, w), left_period(b, w)
    modulus = _lcm(_lcm(period, right[1]), left[1])
    low = int(union.low)
    start = low
    while diameter_at(start, b, w) < b + 2:
        start += 1
    top = start + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    ints = {key: int(v) for key, v in params.items() if getattr(v, "is_Integer", False) or isinstance(v, int)}
    bound = low
    for length in range(low, top + 1):
        d = far_ends_are_cliques([build_graph(p, length, ints) for p in patterns], length, b)
        if d is None or d != diameter_at(length, b, w):
            if length >= start:
                return None  # the class of this length has the answer "no" at every n ≥ N
            bound = length + 1
    return FarEnds(b, w, period, right, left, modulus, start, bound)


def heads_layers(patterns: Sequence[Pattern], union, n: sympy.Symbol, params: Mapping):
    """The heads' least count under F75 (head_layers.HeadLayers, D layers for every n ≥ the bound), or None."""
    found = decide(patterns, union, params)
    if found is None:
        return None
    from .head_layers import HeadLayers
    diameter = sympy.sympify(union.diameter, strict=True).xreplace({union.n_symbol: n})  # safe: strict (no text parsed)
    return HeadLayers("F75", union.theorem, found.low, diameter, diameter, modulus=found.modulus, reach=found.b,
                      period=found.period, start=found.start, far_ends=found)

