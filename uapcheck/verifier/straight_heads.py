"""PAT-LAYERS of several symmetric heads whose union is straight (docs/theory.md §11.11, Theorem F75), re-checked
with the verifier's own code: its own F21 entry for the union, its own arcs, its own walks and its own searches.

What is checked (a certificate of kind "head layers", theorem "F75"):
* the union of the heads is in the verifier's own table as Theorem F21 (`blocks(b) + window(w)`, D layers least);
* every head is made of non-cyclic windows and blocks with integer sizes, and its arcs are symmetric at every
  length checked;
* the step's layer count is the union's D on every residue class of n mod M (symbolically, n = Mk + r);
* the verifier's own periods: the greedy walk to the right (T, Q), the walk to the left from a block start
  (T', Q'), L the lcm of the heads' block sizes, M = lcm(L, Q, Q'), and N the first length from the union's
  bound with D ≥ b + 2 (D by its own search);
* at every length from the step's bound up to N + M − 1: for every position i (every root, not only those near
  the ends), the positions at distance D from i in the union form a clique in every head, and D = d(1, n) is the
  union's D.
"""
from __future__ import annotations

from math import gcd

import sympy

from .. import spec as S
from . import patterns
from .check import Reject, Trust
from .trees import decode

MAX_CHECKED_N = 400


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def _int(t) -> int:
    if isinstance(t, bool) or not isinstance(t, int):
        raise Reject("F75: a head's size is not an integer")
    return t


def _block_sizes(pats: list) -> list[int]:
    """The heads' block sizes; Reject unless every head is non-cyclic windows and blocks."""
    sizes = []
    for p in pats:
        parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
        if not parts:
            raise Reject("F75: an empty head")
        for q in parts:
            if isinstance(q, S.Window) and not q.cyclic:
                _int(q.w)
            elif isinstance(q, S.Blocks):
                sizes.append(_int(q.b))
            else:
                raise Reject("F75: a head is not made of non-cyclic windows and blocks")
    return sizes


def _union_sizes(pats: list) -> tuple[int, int]:
    """(b, w) of the union: the largest window radius and the one block size that contains the others."""
    parts = [q for p in pats for q in (p.parts if isinstance(p, S.PatternUnion) else (p,))]
    w = max([_int(q.w) for q in parts if isinstance(q, S.Window)] or [0])
    blocks = sorted({_int(q.b) for q in parts if isinstance(q, S.Blocks)})
    if not blocks or w < 1 or any(blocks[-1] % x for x in blocks):
        raise Reject("F75: the union is not blocks(b) + window(w)")
    return blocks[-1], w


def _right_period(b: int, w: int) -> tuple[int, int]:
    walk = [1]
    while len(walk) < 3 or walk[-1] % b:
        p = walk[-1]
        walk.append(max(b * -(-p // b), p + w))
    return len(walk) - 2, walk[-1] - walk[1]


def _left_period(b: int, w: int) -> tuple[int, int]:
    start = x = b * (4 * b + 4) + 1
    steps = 0
    while True:
        x = min(x - (x - 1) % b, x - w)
        steps += 1
        if (x - 1) % b == 0:
            return steps, start - x


def _far_cliques(heads: list, n: int) -> int:
    """D = d(1, n) of the union when the positions at distance D from each root form a clique in every head (heads:
    arc sets of pairs (j, i), i attends to j); -1 otherwise."""
    for arcs in heads:
        if any((i, j) not in arcs for j, i in arcs):
            return -1
    outs = patterns.union_out(heads, n)
    d = patterns.bfs(outs, 1)[n]
    if d is None or d < 2:
        return -1
    for root in range(1, n + 1):
        dist = patterns.bfs(outs, root)
        if any(x is None or x > d for x in dist[1:]):
            return -1
        far = [j for j in range(1, n + 1) if dist[j] == d]
        if any((u, v) not in arcs for arcs in heads for u in far for v in far if u != v):
            return -1
    return d


def check(ctx, s, cert: dict, pats: list, n) -> str:
    from . import rules_families
    fam = rules_families.union_family(ctx)
    if fam is None:
        raise Trust("F75: the union of the heads is not in the verifier's family table")
    if fam.theorem != "F21" or not fam.least or cert.get("union theorem") != "F21":
        raise Reject("F75: the union's theorem is not F21 (blocks(b) + window(w), straight, D layers least)")
    sizes = _block_sizes(pats)
    b, w = _union_sizes(pats)
    period = 1
    for x in sizes:
        period = _lcm(period, x)
    right, left = _right_period(b, w), _left_period(b, w)
    m = _lcm(_lcm(period, right[1]), left[1])
    stated = decode((s.get("data") or {}).get("layers"), ctx.symbols)
    d_stated = (s.get("data") or {}).get("diameter")
    d_stated = stated if d_stated is None else decode(d_stated, ctx.symbols)
    k = sympy.Symbol("k", integer=True, positive=True)
    for r in range(m):
        for what, value in (("layers", stated), ("diameter", d_stated)):
            at = sympy.simplify(sympy.sympify(value - fam.d(n), strict=True).xreplace({n: m * k + r}))  # safe: strict (no text parsed)
            if at != 0:
                raise Reject(f"F75: on n ≡ {r} (mod {m}) the {what} is not the union's D")
    first = int(cert.get("from", 0))
    low = int(fam.low)
    if first < low:
        raise Reject(f"F75: the range starts at n = {first}, below the union theorem's {low}")
    start = low
    while int(fam.d(start)) < b + 2:
        start += 1
        if start > MAX_CHECKED_N:
            raise Trust("F75: D stays below b + 2 over the lengths the verifier checks")
    top = max(start, first) + m - 1
    if top > MAX_CHECKED_N:
        raise Trust(f"F75: the lengths to check go up to {top}")
    for length in range(first, top + 1):
        heads = [patterns.head_arcs(p, length) for p in pats]
        d = _far_cliques(heads, length)
        if d < 0:
            raise Reject(f"F75: at n = {length} the positions at distance D from some position are not a clique in "
                         "every head (or a head is not symmetric)")
        if d != int(fam.d(length)) or d != int(stated.xreplace({n: sympy.Integer(length)})):
            raise Reject(f"F75: at n = {length} D = {d} on the verifier's arcs is not the stated count")
    return (f"Theorem F75: the union's own F21 entry (straight, from n = {low}); every head symmetric; for every root "
            f"the positions at distance D form a clique in every head, on the verifier's arcs at n = {first}..{top} "
            f"(N = {start}, the first length with D ≥ b + 2 = {b + 2}; M = lcm(L = {period}, Q = {right[1]}, "
            f"Q' = {left[1]}) = {m}), hence at every n ≥ {first}")
