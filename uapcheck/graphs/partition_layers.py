"""Partition heads whose union has D = 2: 2 layers, least, on a residue class of n where no position's ball misses
two parts of one head (docs/theory.md §11.11, Theorem F76; open question O8 before it).

Setting of F72: every head is a *partition head* (`blocks(b)`, `strided(s)`, `global(g)`, or `blocks(b)` or
`strided(s)` with `global(g)`): its universal positions P_h attend to and are attended by every position, and the
others fall into *parts*, cliques with N_h(v) = P_h ∪ part_h(v). The union has D = 2 (Theorem F87, or the union's
family theorem), so the ball of a root i is B_i = {i} ∪ ∪_h N_h(i).

* F76. If for every root i outside every P_h and every head h at most one part of h is disjoint from B_i (is
  *hidden* from i), the heads have no view witness at D = 2: a σ meeting every head's condition at i keeps each P_h
  (N_h(σp) = σ(N_h(p)) is everything), maps every part meeting B_i onto a part, and so maps the parts visible from i
  onto those visible from σ(i) (σ⁻¹ meets the condition at σ(i)), hence the hidden part of each head onto the
  hidden part: σ keeps every head's arcs, σ ∈ G. So D = 2 layers suffice and are least.
* Symbolic n. Inserting L positions after x₀ (a multiple of L past the globals and the first blocks, with four
  clean periods before it) maps the parts at n into the parts at n + L and adds new full blocks, each a translate of
  the block L positions before it: the hidden counts of every old root are kept, a new root counts as its translate,
  and a new hidden block has four translates at n, at least three of them hidden (at most one head has blocks, and
  the root's block is at most one of them). So the
  condition has one truth value on all n ≥ N of a residue class mod L, N = L⌈max(g* + b*, v_h)/L⌉ + 6L, and the
  lengths of the class from its bound up to N + M − 1 are checked one by one on the heads' arcs.
"""
from __future__ import annotations

from math import gcd
from typing import Mapping, Optional, Sequence

from ..spec import Pattern

SECTION = "docs/theory.md §11.11, Theorem F76"
#: the lengths checked go up to N + M − 1; no claim is made beyond this.
MAX_CHECKED_N = 400


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def start(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, int]]:
    """(N, L) for partition heads with integer sizes, at most one of them with blocks; else None."""
    from .partition_heads import classify
    heads = [classify(p, params) for p in patterns]
    if any(h is None for h in heads) or sum(1 for h in heads if h is not None and h.kind == "blocks") > 1:
        return None
    period, most, widest, onsets = 1, 0, 1, [1]
    for h in heads:
        assert h is not None
        if h.kind in ("blocks", "strided"):
            period = _lcm(period, h.size)
        if h.kind == "blocks":
            widest = max(widest, h.size)
        most = max(most, h.globals)
        if h.globals:
            onsets.append(h.size * (h.globals // h.size + 1) + 1 if h.kind == "blocks" else h.globals + 2)
    top = max([most + widest] + onsets)
    return period * -(-top // period) + 6 * period, period


def hidden_parts_at_most_one(heads: Sequence, n: int) -> bool:
    """At n (``heads``: the PatternGraphs): every head is its universal positions P_h plus a clique partition of the
    rest (N_h(v) = P_h ∪ part_h(v)), and for every position i outside every P_h and every head h at most one part of h
    misses the ball {i} ∪ ∪_h N_h(i)."""
    every = frozenset(range(1, n + 1))
    balls: dict[int, set] = {v: {v} for v in every}
    universal: list[frozenset] = []
    partitions: list[set] = []
    for g in heads:
        if g.complete:
            return False
        nb: dict[int, set] = {v: {v} for v in every}
        for code in g.codes:
            j, i = divmod(code, n)
            nb[i + 1].add(j + 1)
        uni = frozenset(u for u in every if len(nb[u]) == n and all(u in nb[v] for v in every))
        part = {v: frozenset(nb[v] - uni) for v in every - uni}
        if any(part.get(u) != p or not uni <= nb[v] for v, p in part.items() for u in p):
            return False
        universal.append(uni)
        partitions.append(set(part.values()))
        for v in every:
            balls[v] |= nb[v]
    globs = frozenset().union(*universal)
    for i in every - globs:
        ball = balls[i]
        for parts in partitions:
            if sum(1 for p in parts if p.isdisjoint(ball)) > 1:
                return False
    return True


def class_bound(patterns: Sequence[Pattern], params: Mapping, modulus: int, residue: int,
                low: int) -> Optional[int]:
    """F76 on the class n ≡ ``residue`` (mod ``modulus``, a multiple of L) from ``low`` (where D = 2): the class's
    bound, the condition holding at every length of the class from it up to max(N, bound) + M − 1; None when it
    fails at a length ≥ N or the lengths exceed the limit."""
    from .build import build_graph
    found = start(patterns, params)
    if found is None:
        return None
    n_start, period = found
    if modulus % period:
        return None
    first = low + (residue - low) % modulus
    top = max(n_start, first) + modulus - 1
    if top > MAX_CHECKED_N:
        return None
    ints = {key: int(v) for key, v in params.items() if getattr(v, "is_Integer", False) or isinstance(v, int)}
    bound = first
    for length in range(first, top + 1, modulus):
        if not hidden_parts_at_most_one([build_graph(p, length, ints) for p in patterns], length):
            if length >= n_start:
                return None
            bound = length + modulus
    return bound
