"""`blocks(b)` with non-cyclic window, dilated and offsets parts at symbolic n: Theorems F115 and F116 of
docs/theory.md §11.11 (a *periodic line pattern*).

Γ_∞ is the digraph on Z with the arc j → i (i attends to j) when i ≠ j share a block {kb + 1, …, kb + b} or j − i lies in
S, the union of the parts' jumps; translating by b is an automorphism, and Γ_n is its restriction to 1, …, n. Every arc
joins positions at most J = max(b − 1, max |S|) apart.

* F115 (the diameter). With stretches of Q = b⌈J/b⌉ positions, every walk between two stretches passes through each
  stretch between them, so the distances from one stretch to a later one are min-plus products of the matrices of
  distances between consecutive stretches: F (forward) and B (backward) in the middle, other matrices within h
  stretches of either end. Min-plus powers of a matrix of finite entries are eventually periodic: F^(t + σ) = F^t + c.
  So D(n + σQ) = D(n) + c for n ≥ N₀ (where a finite check at one length per residue holds), D read off those lengths
  by breadth-first search.
* F116 (the group). A ball certificate with period b: the coloured rooted balls of radius R of Γ_∞ at the b residues
  are pairwise non-isomorphic (but for mirror residues when S = −S), each rigid on its first level (but for the
  mirror fixing it), and no ball of a position near an end is isomorphic to one of them. Then every automorphism of
  Γ_n is the identity or the reflection on the positions whose balls lie inside 1..n, and
  G = E_L × E_R(n mod b), with the reflection when b | n and S = −S, E_L and E_R the automorphisms moving only
  positions near the left or the right end (finite groups, computed).
* D + 1 layers suffice (§11.2); with S = −S, D layers, least, where Theorem F118's finite check holds
  (``graphs/periodic_least.py``); otherwise whether D do is open.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd
from typing import Any, Optional, Sequence

import sympy
from .. import bliss
from sympy import Integer

SECTION = "docs/theory.md §11.11"
MAX_SPAN = 24          # J: the longest arc
MAX_RADIUS = 6         # the ball certificate's radius is searched up to this
MAX_POWER = 120        # min-plus powers looked at for the period of F and B
MAX_PERIOD = 240       # σQ: one breadth-first search per residue
MAX_WORK = 40_000_000  # Σ over the base lengths of n² (the all-pairs searches on bit sets; 8,649,000 is 0.4 s)
TRIES = 6              # the base lengths move up by σQ at most this often


@dataclass(frozen=True)
class PeriodicLine:
    b: int
    jumps: tuple[int, ...]           # S (j − i for the arcs j → i), without 0
    span: int                        # J = max(b − 1, max |S|)
    cut: int                         # Q = b⌈J/b⌉
    sigma: int                       # F^(t + σ) = F^t + c_F, B^(t + σ) = B^t + c_B for t ≥ t₀
    start: int                       # t₀
    growth: int                      # c = max(c_F, c_B): D(n + σQ) = D(n) + c
    zone: int                        # h: stretches within h of an end may differ from F, B
    diameter_low: int                # N₀
    base: tuple[int, ...]            # D at the lengths N₀, …, N₀ + σQ − 1
    radius: int                      # R of the ball certificate
    group_low: int                   # N_G
    left_order: int                  # |E_L|
    right_orders: tuple[int, ...]    # |E_R| at n ≡ 0, …, b − 1 (mod b)
    left_moved: tuple[int, ...]      # the positions E_L moves (empty when trivial)
    right_moved: tuple[tuple[int, ...], ...]  # by residue: the positions E_R moves, as offsets n − p (0 for n)
    onset: int = 0                   # the stated range's start (≤ the proved one): every length from it to the
    #                                  proved range has the closed forms' values, computed exactly (0: not searched)

    @property
    def symmetric(self) -> bool:
        return set(self.jumps) == {-k for k in self.jumps}

    @property
    def period(self) -> int:
        return self.sigma * self.cut

    @property
    def proved_low(self) -> int:
        return max(self.diameter_low, self.group_low)

    @property
    def low(self) -> int:
        return self.onset or self.proved_low

    def diameter_at(self, n: int) -> int:
        """D at an integer n ≥ N₀ (F115)."""
        t = (n - self.diameter_low) % self.period
        return self.base[t] + self.growth * ((n - self.diameter_low) // self.period)

    def order_at(self, n: int) -> int:
        """|G| at an integer n ≥ N_G (F116)."""
        turn = 2 if self.symmetric and n % self.b == 0 else 1
        return self.left_order * self.right_orders[n % self.b] * turn


# ---------------------------------------------------------------------------------------------
# Γ_∞ and its restrictions

def _block(p: int, b: int) -> range:
    first = (p - 1) // b * b + 1
    return range(first, first + b)


def successors(p: int, b: int, jumps: Sequence[int], lo: Optional[int] = None, hi: Optional[int] = None) -> list[int]:
    """The positions p reaches by one arc (p → i: i attends to p) inside [lo, hi] (None: unbounded)."""
    out = dict.fromkeys([q for q in _block(p, b) if q != p] + [p - k for k in jumps])  # a jump inside a block: once
    return [q for q in out if (lo is None or q >= lo) and (hi is None or q <= hi)]


def predecessors(p: int, b: int, jumps: Sequence[int], lo: Optional[int] = None, hi: Optional[int] = None) -> list[int]:
    out = dict.fromkeys([q for q in _block(p, b) if q != p] + [p + k for k in jumps])
    return [q for q in out if (lo is None or q >= lo) and (hi is None or q <= hi)]


def _distances_to(source: int, targets: set[int], b: int, jumps: Sequence[int], limit: int) -> Optional[dict]:
    """d(source → t) in Γ_∞ for every target (breadth-first search on Z until all are reached), None beyond limit."""
    dist = {source: 0}
    frontier = [source]
    left = set(targets) - {source}
    level = 0
    while left:
        level += 1
        if level > limit or not frontier:
            return None
        nxt = []
        for v in frontier:
            for q in successors(v, b, jumps):
                if q not in dist:
                    dist[q] = level
                    nxt.append(q)
                    left.discard(q)
        frontier = nxt
    return {t: dist[t] for t in targets}


def transfer_matrices(b: int, jumps: Sequence[int], cut: int) -> Optional[tuple[tuple, tuple]]:
    """(F, B): F[x][y] = d(x → Q + y) and B[y][x] = d(Q + y → x) in Γ_∞, x, y = 1..Q (the stretches [1, Q], [Q + 1, 2Q])."""
    first, second = set(range(1, cut + 1)), set(range(cut + 1, 2 * cut + 1))
    forward, backward = [], []
    for x in range(1, cut + 1):
        d = _distances_to(x, second, b, jumps, 8 * cut)
        if d is None:
            return None
        forward.append(tuple(d[cut + y] for y in range(1, cut + 1)))
    for y in range(1, cut + 1):
        d = _distances_to(cut + y, first, b, jumps, 8 * cut)
        if d is None:
            return None
        backward.append(tuple(d[x] for x in range(1, cut + 1)))
    return tuple(forward), tuple(backward)


def min_plus(a: Sequence[Sequence[int]], c: Sequence[Sequence[int]]) -> tuple:
    cols = list(zip(*c))
    return tuple(tuple(min(x + y for x, y in zip(row, col)) for col in cols) for row in a)


def power_period(matrix: tuple) -> Optional[tuple[int, int, int]]:
    """(t₀, σ, c) with M^(t₀ + σ) = M^(t₀) + c (min-plus), the least t₀ and then σ, found by the first repetition of
    M^t less its least entry; then M^(t + σ) = M^t + c for every t ≥ t₀."""
    seen: dict = {}
    power = matrix
    for t in range(1, MAX_POWER + 1):
        low = min(min(row) for row in power)
        key = tuple(tuple(x - low for x in row) for row in power)
        if key in seen:
            t0, low0 = seen[key]
            return t0, t - t0, low - low0
        seen[key] = (t, low)
        power = min_plus(power, matrix)
    return None


# ---------------------------------------------------------------------------------------------
# F115: the diameter at the base lengths, on bit sets (bit p − 1 is position p)

def _masks(n: int, b: int) -> list[tuple[int, int]]:
    """For d = 1..b − 1: (positions p with p − d in p's block, positions p with p + d in p's block)."""
    out = []
    for d in range(1, b):
        down = sum(1 << (p - 1) for p in range(1, n + 1) if (p - 1) % b >= d)
        up = sum(1 << (p - 1) for p in range(1, n + 1) if (p - 1) % b < b - d and p + d <= n)
        out.append((down, up))
    return out


def survey(n: int, b: int, jumps: Sequence[int], cut: int, short: int) -> Optional[dict]:
    """`survey_by_sources` for all sources at once: row u of a boolean matrix is u's ball, and the ball at level
    ℓ + 1 is the union of u's and its out-neighbours' balls at level ℓ (arcs p → p − j and within a block), so one
    level is a few row shifts; the new part of each row is that source's breadth-first layer. The tests compare
    both."""
    import numpy as np
    rows = np.arange(n)
    stretch = rows // cut
    last = int(stretch[-1])
    k = stretch[:, None]  # the source's stretch, against each position's stretch `stretch[None, :]`
    keys = (("forward", stretch[None, :] > k), ("backward", stretch[None, :] < k),
            ("short", np.abs(stretch[None, :] - k) <= short),
            ("adjacent", (np.abs(stretch[None, :] - k) == 1) & (stretch[None, :] <= last)))
    # (shift, the rows that have that out-neighbour): p → p − j, then the block mates p ± d
    moves: list[tuple[int, Any]] = [(-j, None) for j in jumps if j and abs(j) < n]
    place = rows % b
    for d in range(1, min(b, n)):
        moves.append((-d, place >= d))
        moves.append((d, (place < b - d) & (rows + d < n)))
    ball = np.eye(n, dtype=bool)
    out = {"forward": 0, "backward": 0, "short": 0, "adjacent": 0}
    level = 0
    while not ball.all():
        grown = ball.copy()
        for shift, where in moves:  # row u takes the ball of u + shift
            if shift > 0:
                taken = ball[shift:]
                grown[:n - shift] |= taken if where is None else taken & where[:n - shift, None]
            else:
                taken = ball[:n + shift]
                grown[-shift:] |= taken if where is None else taken & where[-shift:, None]
        frontier = grown & ~ball
        if (~ball.all(axis=1) & ~frontier.any(axis=1)).any():
            return None  # a source whose search stops short of everything
        ball = grown
        level += 1
        for key, mask in keys:
            if (frontier & mask).any():
                out[key] = level
    return out


def survey_by_sources(n: int, b: int, jumps: Sequence[int], cut: int, short: int) -> Optional[dict]:
    """Breadth-first search from every position of Γ_n: None if not strongly connected, else the largest distance
    forward (to a later stretch of Q positions), backward, within ``short`` stretches, and between adjacent
    stretches."""
    full = (1 << n) - 1
    masks = _masks(n, b)
    stretch = [((p - 1) // cut) for p in range(1, n + 1)]
    last = stretch[-1]

    def span(lo: int, hi: int) -> int:  # the positions of the stretches lo..hi
        lo, hi = max(lo, 0), min(hi, last)
        if lo > hi:
            return 0
        return ((1 << min(n, (hi + 1) * cut)) - 1) ^ ((1 << (lo * cut)) - 1)
    out = {"forward": 0, "backward": 0, "short": 0, "adjacent": 0}
    for u in range(1, n + 1):
        k = stretch[u - 1]
        later, earlier = span(k + 1, last), span(0, k - 1)
        near, adjacent = span(k - short, k + short), span(k - 1, k + 1) & ~span(k, k)
        seen = frontier = 1 << (u - 1)
        level = 0
        while seen != full:
            nxt = 0
            for j in jumps:  # p → p − j: the bit moves down by j
                nxt |= (frontier >> j) if j > 0 else (frontier << -j)
            for d, (down, up) in enumerate(masks, start=1):
                nxt |= ((frontier << d) & down) | ((frontier >> d) & up)
            frontier = nxt & full & ~seen
            if not frontier:
                return None
            seen |= frontier
            level += 1
            for key, mask in (("forward", later), ("backward", earlier), ("short", near), ("adjacent", adjacent)):
                if frontier & mask:
                    out[key] = max(out[key], level)
    return out


@lru_cache(maxsize=64)
def diameter_data(b: int, jumps: tuple[int, ...]) -> Optional[tuple]:
    """(J, Q, σ, t₀, c, h, N₀, base) of F115, or None (not strongly connected, or beyond the bounds)."""
    span_ = max(b - 1, max(abs(k) for k in jumps))
    if span_ > MAX_SPAN:
        return None
    cut = b * -(-span_ // b)
    mats = transfer_matrices(b, jumps, cut)
    if mats is None:
        return None
    fwd, bwd = mats
    pf, pb = power_period(fwd), power_period(bwd)
    if pf is None or pb is None:
        return None
    sigma = pf[1] * pb[1] // gcd(pf[1], pb[1])
    start = max(pf[0], pb[0])
    c_fwd, c_bwd = pf[2] * sigma // pf[1], pb[2] * sigma // pb[1]
    top = max(max(max(r) for r in fwd), max(max(r) for r in bwd))
    zone = -(-top * span_ // cut) + 1
    period = sigma * cut
    if period > MAX_PERIOD:
        return None
    short = 2 * zone + start + 3
    low = cut * (2 * zone + start + sigma + 3)
    for _ in range(TRIES):
        if period * (low + period) ** 2 > MAX_WORK:
            return None
        base = _base(low, period, b, jumps, cut, short, zone, span_, c_fwd, c_bwd)
        if base is not None:
            return span_, cut, sigma, start, max(c_fwd, c_bwd), zone, low, tuple(base)
        low += period
    return None


def _base(low: int, period: int, b: int, jumps, cut: int, short: int, zone: int, span_: int,
          c_fwd: int, c_bwd: int) -> Optional[list[int]]:
    """D at low, …, low + σQ − 1 when F115's finite check holds at each (every length strongly connected; the end
    stretches' walks inside 1..n; a direction of the largest rate attains D above every distance within ``short``
    stretches); None otherwise."""
    out = []
    best = max(c_fwd, c_bwd)
    for n in range(low, low + period):
        found = survey(n, b, jumps, cut, short)
        if found is None or (zone + 1) * cut + found["adjacent"] * span_ > n:
            return None
        d = max(found["forward"], found["backward"], found["short"])
        ahead = [found[key] for key, rate in (("forward", c_fwd), ("backward", c_bwd)) if rate == best]
        if not any(x == d and x > found["short"] for x in ahead):
            return None
        out.append(d)
    return out


# ---------------------------------------------------------------------------------------------
# F116: the ball certificate with period b, and the ends' groups

def _ball(root: int, radius: int, b: int, jumps, lo: Optional[int], hi: Optional[int]) -> dict[int, int]:
    """The positions within undirected distance R of root (inside [lo, hi]), with their distances."""
    dist = {root: 0}
    frontier = [root]
    for level in range(1, radius + 1):
        nxt = []
        for v in frontier:
            for q in successors(v, b, jumps, lo, hi) + predecessors(v, b, jumps, lo, hi):
                if q not in dist:
                    dist[q] = level
                    nxt.append(q)
        frontier = nxt
    return dist


def _graph(vertices: Sequence[int], b: int, jumps) -> list[tuple[int, int]]:
    index = {v: i for i, v in enumerate(vertices)}
    return sorted({(index[v], index[q]) for v in vertices for q in successors(v, b, jumps) if q in index})


def _key(ball: dict[int, int], b: int, jumps) -> tuple:
    """A canonical form of the coloured rooted ball (BLISS): equal keys iff isomorphic, levels kept."""
    from ..lazy import digraph
    vertices = sorted(ball)
    colours = [ball[v] for v in vertices]
    graph = digraph(len(vertices), _graph(vertices, b, jumps))
    order = bliss.canonical_permutation(graph, colours)  # canonical index k -> the vertex placed there
    label = [0] * len(order)
    for k, v in enumerate(order):
        label[v] = k
    edges = tuple(sorted((label[x], label[y]) for x, y in graph.get_edgelist()))
    placed = [0] * len(vertices)
    for v, c in enumerate(colours):
        placed[label[v]] = c
    return len(vertices), tuple(placed), edges


def _order(vertices: Sequence[int], colours: Sequence[int], b: int, jumps) -> int:
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    return count_automorphisms(digraph(len(vertices), _graph(vertices, b, jumps)), color=list(colours))


def _mirror(x: int, y: int, b: int, symmetric: bool) -> bool:
    """x and y are exchanged by a reflection of Γ_∞ (p ↦ kb + 1 − p, an automorphism when S = −S)."""
    return symmetric and (x + y) % b == 1 % b


def certificate(b: int, jumps: tuple[int, ...], radius: int, symmetric: bool) -> bool:
    """(C1) the residues' balls are isomorphic only for mirror residues; (C2) each ball's automorphisms act on its
    first level as the identity, or also as the mirror when the residue is its own mirror."""
    keys = {}
    for x in range(1, b + 1):
        ball = _ball(x, radius, b, jumps, None, None)
        keys[x] = _key(ball, b, jumps)
        vertices = sorted(ball)
        colours = [ball[v] for v in vertices]
        pinned = [radius + 1 + i if ball[v] == 1 else c for i, (v, c) in enumerate(zip(vertices, colours))]
        want = 2 if _mirror(x, x, b, symmetric) else 1
        if _order(vertices, colours, b, jumps) != want * _order(vertices, pinned, b, jumps):
            return False
    return all(keys[x] != keys[y] or _mirror(x, y, b, symmetric) for x in keys for y in keys if x < y)


@dataclass(frozen=True)
class _Ends:
    radius: int
    low: int
    left: tuple[int, tuple[int, ...]]
    right: tuple[tuple[int, tuple[int, ...]], ...]


def _end_group(moved_zone: Sequence[int], around: Sequence[int], b: int, jumps) -> tuple[int, tuple[int, ...]]:
    """|the permutations of moved_zone that, with the identity elsewhere, keep Γ_n's arcs| and the positions some of
    them move (BLISS on the positions ``around``, which hold every position within J of moved_zone; the others
    coloured one by one)."""
    from ..lazy import digraph
    vertices = sorted(around)
    zone = set(moved_zone)
    colours = [0 if v in zone else 1 + i for i, v in enumerate(vertices)]
    order = _order(vertices, colours, b, jumps)
    if order == 1:
        return 1, ()
    graph = digraph(len(vertices), _graph(vertices, b, jumps))
    gens = bliss.generators(graph, colours)
    moved = sorted({vertices[i] for g in gens for i, j in enumerate(g) if i != j})
    return order, tuple(moved)


@lru_cache(maxsize=64)
def group_data(b: int, jumps: tuple[int, ...]) -> Optional[_Ends]:
    """F116's radius, range and end groups, or None when no radius up to MAX_RADIUS gives the certificate."""
    span_ = max(b - 1, max(abs(k) for k in jumps))
    symmetric = set(jumps) == {-k for k in jumps}
    for radius in range(1, MAX_RADIUS + 1):
        if not certificate(b, jumps, radius, symmetric):
            continue
        ends = _ends(b, jumps, radius, span_, symmetric)
        if ends is not None:
            return ends
    return None


def _ends(b: int, jumps, radius: int, span_: int, symmetric: bool) -> Optional[_Ends]:
    """(C3) no ball of a position near an end (its ball in Γ_∞ leaving 1..n) is isomorphic to a residue's ball; (C4)
    the deep positions are connected; the end groups; the range. None when a check fails."""
    reach = radius * span_
    wide = 2 * span_ + b                      # W₀: every W₀ consecutive positions are connected
    for x in range(1, b + 1):
        piece = set(range(x, x + wide))
        if len(_component(min(piece), piece, b, jumps)) != wide:
            return None
    keys = {_key(_ball(x, radius, b, jumps, None, None), b, jumps) for x in range(1, b + 1)}
    low = 2 * reach + 2 * wide + 2 * span_ + b
    for _ in range(4):
        left: tuple = ()
        right, far = [], 0
        for rho in range(b):
            n = low + (rho - low) % b
            ends = [v for v in range(1, n + 1) if v <= reach or v > n - reach]
            near = [v for v in ends if not _inside(v, radius, b, jumps, n)]
            if any(_key(_ball(v, radius, b, jumps, 1, n), b, jumps) in keys for v in near):
                return None
            deep = set(range(1, n + 1)) - set(near)
            if symmetric and n % b and (min(deep) + max(deep)) % b == 1 % b:
                return None  # a reflection of Γ_∞ could map the deep positions onto themselves: not excluded here
            for piece in (deep & set(range(1, reach + wide + 1)), deep & set(range(n - reach - wide + 1, n + 1))):
                if len(_component(min(piece), piece, b, jumps)) != len(piece):
                    return None
            zone_l, zone_r = [v for v in near if v <= reach], [v for v in near if v > n - reach]
            everything = set(range(1, n + 1))
            from_left, from_right = _component(reach + 1, everything, b, jumps), _component(n - reach, everything, b, jumps)
            far = max(far, max((from_left[v] for v in zone_l), default=0), max((from_right[v] for v in zone_r), default=0))
            if rho == 0:
                left = _end_group(zone_l, range(1, reach + span_ + 1), b, jumps)
            order, moved = _end_group(zone_r, range(n - reach - span_ + 1, n + 1), b, jumps)
            right.append((order, tuple(n - p for p in moved)))
        need = 2 * reach + 2 * wide + 2 * span_ + b + far * span_
        if need <= low:
            return _Ends(radius, low, left, tuple(right))
        low = need
    return None


def _inside(v: int, radius: int, b: int, jumps, n: int) -> bool:
    """v's ball in Γ_∞ lies inside 1..n (then it is v's ball in Γ_n)."""
    ball = _ball(v, radius, b, jumps, None, None)
    return min(ball) >= 1 and max(ball) <= n


def _component(root: int, allowed: set[int], b: int, jumps) -> dict[int, int]:
    """Undirected distances from root inside the positions ``allowed``."""
    dist = {root: 0}
    frontier = [root]
    while frontier:
        nxt = []
        for v in frontier:
            for q in successors(v, b, jumps) + predecessors(v, b, jumps):
                if q in allowed and q not in dist:
                    dist[q] = dist[v] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


# ---------------------------------------------------------------------------------------------
# Both theorems together

def diameter_and_groups(b: int, jumps: tuple[int, ...], groups_of) -> Optional[tuple[tuple, Any]]:
    """(F115's diameter data, `groups_of(b, jumps)`: a group theorem's certificate), or None when either is missing
    (the diameter is sought first). Shared by F116, F117 and F122."""
    if b < 2 or not jumps or 0 in jumps:
        return None
    found = diameter_data(b, jumps)
    if found is None:
        return None
    groups = groups_of(b, jumps)
    return None if groups is None else (found, groups)


def diameter_line(b: int, jumps: tuple[int, ...], found: tuple, radius: int, group_low: int) -> PeriodicLine:
    """F115's diameter beside another theorem's group (F117, F122): the ends' group fields unused (trivial)."""
    return _line(b, jumps, found, radius, group_low, 1, (1,) * b, (), ((),) * b)


def _line(b: int, jumps: tuple[int, ...], found: tuple, radius: int, group_low: int, left_order: int,
          right_orders: tuple[int, ...], left_moved: tuple[int, ...], right_moved: tuple[tuple[int, ...], ...]):
    """A PeriodicLine from F115's diameter data (J, Q, σ, t₀, c, h, N₀, base) and the ends' group fields."""
    span_, cut, sigma, start, growth, zone, low, base = found
    return PeriodicLine(b, jumps, span_, cut, sigma, start, growth, zone, low, base, radius, group_low, left_order,
                        right_orders, left_moved, right_moved)


def diameter_at_length(n, data: PeriodicLine) -> sympy.Expr:
    """F115's D at the length n: its value at an Integer, the closed form by n mod σQ at a Symbol."""
    from .symbolic_unions import _residue_pieces
    if isinstance(n, (int, Integer)):
        return Integer(data.diameter_at(int(n)))
    P, c, low = data.period, data.growth, data.diameter_low
    offsets = {(low + t) % P: data.base[t] - c * ((low + t) // P) for t in range(P)}
    return _residue_pieces(n, P, offsets, lambda a: Integer(a) + c * sympy.floor(n / P))


@lru_cache(maxsize=64)
def decide(b: int, jumps: tuple[int, ...]) -> Optional[PeriodicLine]:
    got = diameter_and_groups(b, jumps, group_data)
    if got is None:
        return None
    found, ends = got
    data = _line(b, jumps, found, ends.radius, ends.low,
                 ends.left[0], tuple(r[0] for r in ends.right), ends.left[1], tuple(r[1] for r in ends.right))
    return replace(data, onset=onset(data))


ONSET_FLOOR = 61  # the lengths up to 60 are decided one by one below any range (docs/theory.md §13 L5)


def onset(data: PeriodicLine) -> int:
    """The least n from which every length below the proved range has the closed forms' D and |G|, computed exactly
    (breadth-first search, BLISS on Γ_n), searched downwards from the proved range and not below max(61, 2(RJ + J) + 1)
    (there E_L and E_R are automorphisms, so equal orders give the group)."""
    floor_ = max(ONSET_FLOOR, 2 * (data.radius * data.span + data.span) + 1)
    n = data.proved_low
    while n - 1 >= floor_ and _agrees(n - 1, data):
        n -= 1
    return n


def _agrees(n: int, data: PeriodicLine) -> bool:
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    found = survey(n, data.b, data.jumps, data.cut, 0)
    if found is None or max(found.values()) != data.diameter_at(n):
        return False
    graph = digraph(n, _graph(range(1, n + 1), data.b, data.jumps))
    return count_automorphisms(graph) == data.order_at(n)


def _group_words(data: PeriodicLine, n) -> str:
    b = data.b
    turn = "the reflection i ↦ n + 1 − i"
    concrete = isinstance(n, (int, Integer))
    parts = []
    if data.left_order > 1:
        parts.append(f"the permutations of {{{', '.join(map(str, data.left_moved))}}} that keep the arcs (order "
                     f"{data.left_order})")
    if concrete:
        rho = int(n) % b
        if data.right_orders[rho] > 1:
            moved = ", ".join(sympy.sstr(n - k) for k in data.right_moved[rho])
            parts.append(f"the permutations of {{{moved}}} that keep the arcs (order {data.right_orders[rho]})")
        if data.symmetric and rho == 0:
            parts.append(turn)
        return " × ".join(parts) or "trivial"
    if any(order > 1 for order in data.right_orders):
        parts.append(f"the permutations of the positions near n that keep the arcs (order by residue of n mod {b})")
    if data.symmetric:
        parts.append(f"{turn} when {b} | n")
    if not parts:
        return "trivial"
    if parts == [f"{turn} when {b} | n"]:
        return f"{turn} when {b} | n, else trivial"
    return " × ".join(parts)


def theorem(n, data: PeriodicLine):
    """F115 (D) and F116 (G) at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    P, low = data.period, data.diameter_low
    diameter = diameter_at_length(n, data)
    if isinstance(n, (int, Integer)):
        order: sympy.Expr = Integer(data.order_at(int(n)))
    else:
        order = _residue_pieces(n, data.b, {m: data.order_at(low + (m - low) % data.b) for m in range(data.b)},
                                Integer, explicit=True)
    words = _group_words(data, n)
    group = {"trivial": "trivial", "the reflection i ↦ n + 1 − i": "reflection"}.get(words, words)
    shown = ", ".join(map(str, data.jumps))
    if data.symmetric:
        from .periodic_least import layers_fields
        layers, least, why, question, classes = layers_fields(data, data.group_low, data.radius, data.low, "F116",
                                                              diameter, n)
    else:
        classes = ()
        layers, least, why, question = (
            diameter + 1, False, "D + 1 layers suffice by the view argument (§11.2); whether D do is open (Theorems "
            "F115, F116; F118 needs S = −S)",
            f"whether D layers suffice for blocks(b) with a non-cyclic line part is not proved ({SECTION}, Theorems "
            "F115, F116)")
    return FamilyTheorem(
        "F115", f"blocks(b) + a non-cyclic line part with jumps S (S = {{{shown}}})",
        (("b", Integer(data.b)), ("P", Integer(P)), ("R", Integer(data.radius))), Integer(data.low), diameter,
        group, order, ("i ↦ n + 1 − i when b | n",) if data.symmetric else (), layers, least, why,
        open_question=question, least_classes=classes)
