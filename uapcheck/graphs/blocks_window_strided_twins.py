"""`blocks(b) + window(w) + strided(s)` with the block at least the stride and the window at least the stride less one
(b ≥ s, b ≥ w + 2, 2 ≤ s ≤ w + 1) at symbolic n: Theorem F119 of docs/theory.md §11.11.

u ~ v iff u, v share a block, or |u − v| ≤ w, or s | u − v. Positions of one block and one residue class whose window
edges into the neighbouring blocks reach the same positions outside their class are *twins* (equal closed
neighbourhoods), so G holds ∏ Sym(T) over the twin classes T and |G| grows with n. The proof reads G through the twin
quotient with a finite certificate checked here at a whole period of lengths:

* (K1) for ⌊n/s⌋ ≥ 4b − 1 the residue classes mod s are the cliques of more than 4b − 2 positions (a clique meeting
  two classes lies within b − 1 of one of two positions at most b − 1 apart), so every automorphism permutes them;
* (C1) every clique of at least b positions meeting two classes is a whole block (checked on the positions within
  2(b − 1) of each position u, where every such clique containing u lies), so every automorphism permutes the whole
  blocks; the links between blocks (cross-class edges) form a path, kept, or reversed only when b | n (the partial
  block is linked to the last whole block alone), and the reversal is then the reflection i ↦ n + 1 − i;
* (C2) for every block B, every permutation of B and its neighbouring blocks that keeps each of them, maps classes
  onto classes and keeps the edges among them maps each position of B to a twin of it (BLISS on the three blocks with
  a vertex per class, coloured by block).

So G = ∏ Sym(T) × ⟨reflection⟩ when b | n, else ∏ Sym(T): |G| = 2^[b | n]·∏ |T|!. Every local check depends on the
positions within 2b of a position, which the translation by P = lcm(b, s) keeps, so one length for the first
P + 4b positions and the last 4b positions at each residue of n mod P cover every n ≥ N. D = 2 for n ≥ b + w + 2
(each window of w + 1 ≥ s positions meets every class). 3 = D + 1 layers suffice; least where a swap of two positions
of the first four blocks at distance 2 from a root among them changes no neighbourhood within distance 1 of the root
(the condition reads positions below 5b + w only, so one length carries it to every n ≥ N); with s = 2, D = 2 layers
suffice, so they are least (F119 (d): the positions at distance 2 from a root lie in the other residue class, a clique,
and the far-clique lemma of Theorem F53 applies); otherwise whether 2 layers suffice is open. When a check fails, the family is not decided here (the group stays undecided).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial, lcm
from typing import Optional

import sympy
from sympy import Integer

from .blocks_window_strided_classes import closed_neighbourhoods
from .. import bliss

SECTION = "docs/theory.md §11.11"
MAX_PERIOD = 120     # P = lcm(b, s): the end checks run at P lengths
MAX_LOW = 1500       # the range's start (the checks run on that many positions)
MAX_BLOCK = 24       # the clique search runs on 4b − 3 positions


@dataclass(frozen=True)
class BlocksWindowStridedTwins:
    b: int
    w: int
    s: int
    period: int                    # P = lcm(b, s)
    low: int                       # N: the range's start
    orders: tuple[int, ...]        # |G| at the lengths N + t, t = 0..P − 1 (indexed by (N + t) mod P)
    growth: int                    # Φ: |G|(n + P) = Φ·|G|(n) for n ≥ N
    witness: Optional[tuple[int, int, int]]   # (root, x, y): 3 layers least; None: whether 2 suffice is open


def applies(b, w, s) -> bool:
    return (all(isinstance(x, int) for x in (b, w, s)) and 2 <= s <= w + 1 and b >= s and b >= w + 2
            and lcm(b, s) <= MAX_PERIOD and b <= MAX_BLOCK)


def low_of(b: int, w: int, s: int) -> int:
    """N = max(s(4b − 1) (K1), P + 6b (every local type at one length), 6b + w (the witness's positions))."""
    return max(s * (4 * b - 1), lcm(b, s) + 6 * b, 6 * b + w)


def twin_classes(n: int, b: int, w: int, s: int) -> list[list[int]]:
    near = closed_neighbourhoods(n, b, w, s)
    grouped: dict[int, list[int]] = {}
    for p in range(1, n + 1):
        grouped.setdefault(near[p], []).append(p)
    return sorted(grouped.values())


def twin_factor(n: int, b: int, w: int, s: int) -> int:
    out = 1
    for t in twin_classes(n, b, w, s):
        out *= factorial(len(t))
    return out


def order_at(n: int, b: int, w: int, s: int) -> int:
    """|G| at an integer n in the range: 2^[b | n]·∏ |T|!."""
    return twin_factor(n, b, w, s) * (2 if n % b == 0 else 1)


def _cliques_ok(n: int, b: int, near: list[int], s: int, u: int) -> bool:
    """(C1) at u: every maximal clique of G on [u − 2b + 2, u + 2b − 2] that holds u, has at least b positions and
    meets two classes is a whole block."""
    lo, hi = max(1, u - 2 * b + 2), min(n, u + 2 * b - 2)
    window = ((1 << (hi - lo + 1)) - 1) << (lo - 1)
    blocks = set()
    for k in range(0, n - b + 1, b):
        if lo <= k + 1 and k + b <= hi:
            blocks.add(((1 << b) - 1) << k)
    bad = False

    def classes_of(bits: int) -> int:
        seen = set()
        while bits:
            low = bits & -bits
            seen.add(low.bit_length() % s)
            bits ^= low
            if len(seen) > 1:
                return 2
        return len(seen)

    def expand(clique: int, cand: int, excl: int) -> None:
        nonlocal bad
        if bad:
            return
        if not cand and not excl:
            if bin(clique).count("1") >= b and classes_of(clique) > 1 and clique not in blocks:
                bad = True
            return
        if bin(clique | cand).count("1") < b:
            return
        pivot_pool = cand | excl
        pivot = (pivot_pool & -pivot_pool).bit_length()
        rest = cand & ~(near[pivot] & ~(1 << (pivot - 1)))
        while rest:
            low = rest & -rest
            v = low.bit_length()
            expand(clique | low, cand & near[v] & ~low, excl & near[v] & ~low)
            cand &= ~low
            excl |= low
            rest ^= low

    start = 1 << (u - 1)
    expand(start, near[u] & window & ~start, 0)
    return not bad


def _local_orbits_ok(n: int, b: int, s: int, near: list[int], twin_of: dict[int, int], k: int) -> bool:
    """(C2) at the block k (0-based): every permutation of the block and its neighbouring blocks keeping each block,
    mapping classes onto classes and keeping G's edges among them maps each position of block k to a twin of it
    (the orbits of BLISS's group on the coloured graph with a vertex per class)."""
    import igraph
    firsts = [j for j in (k - 1, k, k + 1) if 0 <= j * b < n]
    positions = [p for j in firsts for p in range(j * b + 1, min(n, j * b + b) + 1)]
    index = {p: i for i, p in enumerate(positions)}
    m = len(positions)
    edges = [(index[p], index[q]) for p in positions for q in positions
             if p < q and near[p] >> (q - 1) & 1]
    edges += [(index[p], m + p % s) for p in positions]
    colours = [firsts.index((p - 1) // b) for p in positions] + [3] * s
    graph = igraph.Graph(n=m + s, edges=edges)
    parent = list(range(m + s))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for gen in bliss.generators(graph, colours):
        for i, j in enumerate(gen):
            a, c = find(i), find(j)
            if a != c:
                parent[a] = c
    for p in range(k * b + 1, min(n, k * b + b) + 1):
        for q in range(k * b + 1, min(n, k * b + b) + 1):
            if find(index[p]) == find(index[q]) and twin_of[p] != twin_of[q]:
                return False
    return True


def _checks_hold(n: int, b: int, w: int, s: int, starts: bool) -> bool:
    """(C1) and (C2) at the length n: at the last 4b + P positions (and blocks), and with `starts` at the first
    P + 4b positions (and blocks)."""
    near = closed_neighbourhoods(n, b, w, s)
    twin_of = {}
    for t, members in enumerate(twin_classes(n, b, w, s)):
        for p in members:
            twin_of[p] = t
    period = lcm(b, s)
    span = period + 4 * b
    us = set(range(max(1, n - span), n + 1)) | (set(range(1, min(n, span) + 1)) if starts else set())
    if not all(_cliques_ok(n, b, near, s, u) for u in sorted(us)):
        return False
    ks = {(u - 1) // b for u in us}
    return all(_local_orbits_ok(n, b, s, near, twin_of, k) for k in sorted(ks))


def find_witness(n: int, b: int, w: int, s: int) -> Optional[tuple[int, int, int]]:
    """(root, x, y) among the first four blocks: x, y at distance 2 from the root, the swap (x y) no symmetry, and no
    position within distance 1 of the root adjacent to exactly one of x, y (nor x, y themselves)."""
    near = closed_neighbourhoods(n, b, w, s)
    top = 4 * b
    for root in range(1, top + 1):
        ball = near[root]
        far = [x for x in range(1, top + 1) if not ball >> (x - 1) & 1]
        for i, x in enumerate(far):
            for y in far[i + 1:]:
                pair = (1 << (x - 1)) | (1 << (y - 1))
                if (near[x] ^ near[y]) & ~pair & ball:
                    continue
                if (near[x] & ~pair) == (near[y] & ~pair):
                    continue   # twins or open twins: the swap is a symmetry
                return root, x, y
    return None


@lru_cache(maxsize=64)
def decide(b: int, w: int, s: int) -> Optional[BlocksWindowStridedTwins]:
    """The certificate's checks at N..N + P − 1 and the orders, or None where the theorem's premises do not hold or a
    check fails (the group is then not decided here)."""
    if not applies(b, w, s):
        return None
    period = lcm(b, s)
    start = low_of(b, w, s)
    if start + 2 * period > MAX_LOW:
        return None
    orders = [0] * period
    growth = None
    for n in range(start, start + period):
        if not _checks_hold(n, b, w, s, starts=n == start):
            return None
        here, later = order_at(n, b, w, s), order_at(n + period, b, w, s)
        if later % here:
            return None
        if growth is None:
            growth = later // here
        elif growth != later // here:
            return None
        orders[n % period] = here
    assert growth is not None
    return BlocksWindowStridedTwins(b, w, s, period, start, tuple(orders), growth, find_witness(start, b, w, s))


def order_expr(n, data: BlocksWindowStridedTwins):
    from .symbolic_unions import _residue_pieces
    P, start = data.period, data.low
    base = {m: start + (m - start) % P for m in range(P)}
    if isinstance(n, (int, Integer)):
        n0 = base[int(n) % P]
        return Integer(data.orders[n0 % P]) * Integer(data.growth) ** ((int(n) - n0) // P)
    return _residue_pieces(n, P, base, lambda n0: Integer(data.orders[n0 % P])
                           * Integer(data.growth) ** (sympy.floor(n / P) - n0 // P), explicit=True)


def group_words(b: int, s: int) -> str:
    return (f"the symmetric groups of the twin classes (positions of one block and one residue class mod {s} whose "
            f"window edges into the neighbouring blocks reach the same positions outside their class) × the "
            f"reflection i ↦ n + 1 − i when {b} | n")


def concrete_words(n: int, data: BlocksWindowStridedTwins) -> str:
    """G at an integer n in the range, by structure: "S_2 on {…}" per twin class when they are few and do not grow,
    else the twin classes counted by size with the first two and the last; the reflection when b | n. The classes are
    read at the length n₀ ≡ n (mod P) of the checked period: those in n₀'s first half stay, the others move by n − n₀
    (each class lies in one block and depends on the positions within 2b of it)."""
    b, w, s, P = data.b, data.w, data.s, data.period
    n0 = data.low + (n - data.low) % P
    first = [t for t in twin_classes(n0, b, w, s) if len(t) > 1]
    later = [t for t in twin_classes(n0 + P, b, w, s) if len(t) > 1]
    periods = (n - n0) // P
    sizes = sorted({len(t) for t in first} | {len(t) for t in later})
    counts = {c: sum(len(t) == c for t in first)
              + periods * (sum(len(t) == c for t in later) - sum(len(t) == c for t in first)) for c in sizes}
    shown = sorted((t if t[-1] <= n0 // 2 else [p + n - n0 for p in t]) for t in first)

    def braces(t: list[int]) -> str:
        return "{" + ", ".join(f"{p:,}" for p in t) + "}"

    parts = []
    if len(first) == len(later) and len(first) <= 6:
        parts = [f"S_{len(t)} on {braces(t)}" for t in shown]
    else:
        for c in sizes:
            mine = [t for t in shown if len(t) == c]
            listed = ", ".join(braces(t) for t in mine[:2]) + (f", …, {braces(mine[-1])}" if len(mine) > 2 else "")
            parts.append(f"S_{c} on each of the {counts[c]:,} twin classes of {c} positions ({listed})")
    if n % b == 0:
        parts.append("the reflection i ↦ n + 1 − i")
    return " × ".join(parts) or "trivial"


def theorem(n, data: BlocksWindowStridedTwins):
    """F119 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    b, w, s = data.b, data.w, data.s
    order = order_expr(n, data)
    params = (("b", Integer(b)), ("w", Integer(w)), ("s", Integer(s)))
    family = "blocks(b) + window(w) + strided(s), b ≥ s, b ≥ w + 2, s ≤ w + 1"
    group = concrete_words(int(n), data) if isinstance(n, (int, Integer)) else group_words(b, s)
    if s == 2:
        return FamilyTheorem(
            "F119", family, params, Integer(data.low), Integer(2), group, order, (), Integer(2), True,
            "with two residue classes the positions at distance 2 from a root lie outside its class, so in the other "
            "class, pairwise adjacent: by the far-clique lemma (Theorem F53) a permutation meeting the witness "
            "condition at depth 2 is an automorphism, so D = 2 layers suffice, and they are least (Theorem F119 (d))")
    if data.witness is None:
        return FamilyTheorem(
            "F119", family, params, Integer(data.low), Integer(2), group, order, (), Integer(3), False,
            "D + 1 = 3 layers suffice (§11.2; Theorem F119)",
            open_question=("whether D = 2 layers suffice (no swap within the first four blocks is a view witness; "
                           f"{SECTION}, Theorem F119)"))
    root, x, y = data.witness
    why = (f"swapping {x} and {y} (at distance 2 from position {root}) changes no neighbourhood within distance 1 of "
           f"position {root} and is not in G; the condition reads the positions below {5 * b + w} only, so it holds at "
           "every n in the range: D = 2 layers are not enough, 3 suffice (Theorem F119)")
    return FamilyTheorem("F119", family, params, Integer(data.low), Integer(2), group, order, (), Integer(3), True,
                         why, witness=(Integer(root), (Integer(x), Integer(y))))
