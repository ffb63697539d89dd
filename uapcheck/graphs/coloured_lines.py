"""Several heads (or one) made of `blocks`, non-cyclic `window`, `dilated` and `offsets` parts, with `global(g)` or `star`
hubs, at symbolic n: Theorem F180 of docs/theory.md §11.11, an anchor for Theorems F35–F39 (``head_intersection.py``).

Γ_∞ is the *arc-coloured* digraph on Z: j → i (i attends to j) with the colour {heads h : h has that arc}, where head h
has the arc when i ≠ j share a block of one of its `blocks(b)` parts or j − i lies in its jump set S_h (its window,
dilated and offsets parts). Every arc joins positions at most J apart, and translating by P (the lcm of the block sizes)
keeps the colours; P₀ is the least such translation. The hubs X = {1, …, g} (g the largest `global` size, `star` = 1)
are the universal positions of the union once n ≥ g + 2J + 2, so every automorphism of the coloured union maps X and
Y = {g + 1, …, n} onto themselves, and acts on Y as an automorphism of Γ_Y = Γ_∞ restricted to Y (the hubs' arcs all
touch X).

* F180 (the certificate, F116's with colours, period P₀ and trivial ends). The coloured rooted balls β(x) of radius R
  (positions within undirected distance R of x, coloured by that distance, with the coloured arcs among them), x = 1..P₀:
  (C1) pairwise non-isomorphic but for mirror residues x + y ≡ c (mod P₀), where p ↦ c − p keeps Γ_∞'s colours;
  (C2) each rigid on its first level, but for its own mirror; (C3) no ball in Γ_Y of a position that is not deep (its
  ball in Γ_∞ leaves Y) is isomorphic to a β(x); (C4) the deep positions are connected, and when their least and
  largest add up to c (mod P₀), so do g + 1 and n; (C5) the end groups E_L, E_R (the permutations of the non-deep
  positions at one end that, with the identity elsewhere, keep Γ_Y's arcs) are trivial, at one length per residue of
  n mod P₀. Then every automorphism of Γ_Y is the identity or the reversal of Y, so the heads' group lies in
  Sym(X) × ⟨the reversal of Y⟩: Theorem F36's prefix anchor with u = g (the reflection, g = 0).

The range N_G is F116's, read for Y; below it, down to a floor, every length whose coloured union has exactly as many
automorphisms (BLISS) as the anchor's maps that keep every head's arcs is in the anchor's range too (then every
automorphism is one of them). Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd
from typing import Mapping, Optional, Sequence

from ..memo import exact_cache
from ..spec import Pattern
from .closed_forms import _atoms, _is_int, _merge, _Undecided
from .. import bliss

SECTION = "docs/theory.md §11.11, Theorem F180"
MAX_SPAN = 16          # J
MAX_PERIOD = 60        # P₀
MAX_RADIUS = 4
MAX_HUBS = 4           # Theorem F36's prefix anchors stop at u = 4
MAX_LOW = 400          # the range's start (the onset search builds Γ_n below it)
ONSET_FLOOR = 8


@dataclass(frozen=True)
class LineHead:
    """One head's arcs on Y: its block sizes and its jump set."""
    blocks: tuple[int, ...]
    jumps: frozenset


@dataclass(frozen=True)
class ColouredLine:
    hubs: int                      # g
    heads: tuple[LineHead, ...]
    period: int                    # P₀
    span: int                      # J
    mirror: Optional[int]          # c (mod P₀) with p ↦ c − p an automorphism of Γ_∞, or None
    radius: int                    # R
    proved_low: int                # N_G
    low: int                       # the stated range's start (≤ N_G; the lengths between checked exactly)


# ---------------------------------------------------------------------------------------------
# Γ_∞ from the heads

def line_heads(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, tuple[LineHead, ...]]]:
    """(g, the heads' line parts) when every head is made of blocks, non-cyclic window, dilated and offsets parts and
    global/star hubs with integer sizes (at least one line part in all); None otherwise."""
    hubs, heads = 0, []
    for pattern in patterns:
        try:
            atoms = _merge(_atoms(pattern, params))
        except (_Undecided, KeyError, TypeError, ValueError):
            return None
        blocks, jumps = [], set()
        for a in atoms:
            if not all(_is_int(x) for x in a.args):
                return None
            args = [int(x) for x in a.args]
            if a.kind == "global":
                hubs = max(hubs, args[0])
            elif a.kind == "blocks" and args[0] >= 2:
                blocks.append(args[0])
            elif a.kind == "window":
                jumps |= set(range(-args[0], args[0] + 1))
            elif a.kind == "dilated":
                jumps |= {k * args[1] for k in range(-args[0], args[0] + 1)}
            elif a.kind == "offsets":
                jumps |= set(args)
            elif a.kind != "blocks":  # blocks(1): no arcs
                return None
        heads.append(LineHead(tuple(sorted(set(blocks))), frozenset(jumps - {0})))
    if not any(h.blocks or h.jumps for h in heads):
        return None
    return hubs, tuple(heads)


def _arc_colour(j: int, i: int, heads: Sequence[LineHead]) -> int:
    if i == j:
        return 0
    out = 0
    for k, h in enumerate(heads):
        if j - i in h.jumps or any((i - 1) // b == (j - 1) // b for b in h.blocks):
            out |= 1 << k
    return out


@lru_cache(maxsize=256)
def _table(heads: tuple) -> tuple[int, int, tuple, tuple]:
    """(P, J, colours, neighbours): colours[(i − 1) mod P][d + J] is the colour of the arc i + d → i, and
    neighbours[(i − 1) mod P] the d ≠ 0 with an arc between i and i + d either way (translating by P keeps both)."""
    span = span_of(heads)
    full = 1
    for h in heads:
        for b in h.blocks:
            full = full * b // gcd(full, b)
    colours = tuple(tuple(_arc_colour(i + d, i, heads) for d in range(-span, span + 1)) for i in range(1, full + 1))
    near = tuple(tuple(d for d in range(-span, span + 1) if _arc_colour(i + d, i, heads) or _arc_colour(i, i + d, heads))
                 for i in range(1, full + 1))
    return full, span, colours, near


def colour(j: int, i: int, heads: tuple) -> int:
    """The arc j → i of Γ_∞ as a bit set of heads (0: no arc)."""
    full, span, colours, _ = _table(heads)
    d = j - i
    return colours[(i - 1) % full][d + span] if -span <= d <= span else 0


def span_of(heads: Sequence[LineHead]) -> int:
    return max([b - 1 for h in heads for b in h.blocks] + [abs(k) for h in heads for k in h.jumps] + [1])


def least_period(heads: tuple, span: int) -> int:
    full = 1
    for h in heads:
        for b in h.blocks:
            full = full * b // gcd(full, b)
    for t in range(1, full + 1):
        if full % t == 0 and all(colour(j, i, heads) == colour(j + t, i + t, heads)
                                 for i in range(1, full + 1) for j in range(i - span, i + span + 1)):
            return t
    return full


def mirror_of(heads: tuple, period: int, span: int) -> Optional[int]:
    for c in range(period):
        if all(colour(j, i, heads) == colour(c - j, c - i, heads)
               for i in range(1, period + 1) for j in range(i - span, i + span + 1)):
            return c
    return None


# ---------------------------------------------------------------------------------------------
# Balls and their canonical forms (BLISS, arcs subdivided by a vertex of their colour)

def _around(p: int, heads, span: int, lo: Optional[int], hi: Optional[int]) -> list[int]:
    full, _, _, near = _table(heads)
    return [p + d for d in near[(p - 1) % full] if (lo is None or p + d >= lo) and (hi is None or p + d <= hi)]


def ball(root: int, radius: int, heads, span: int, lo: Optional[int] = None, hi: Optional[int] = None) -> dict:
    dist = {root: 0}
    frontier = [root]
    for level in range(1, radius + 1):
        nxt = []
        for v in frontier:
            for q in _around(v, heads, span, lo, hi):
                if q not in dist:
                    dist[q] = level
                    nxt.append(q)
        frontier = nxt
    return dist


def _encoded(vertices: Sequence[int], colours: Sequence[int], heads, span: int):
    """(graph, vertex colours): the positions, then one vertex per arc j → i coloured by the arc's colour."""
    from ..lazy import digraph
    index = {v: k for k, v in enumerate(vertices)}
    edges, vcol = [], list(colours)
    top = max(colours) + 1
    for v in vertices:
        for q in range(v - span, v + span + 1):
            c = colour(q, v, heads) if q in index else 0
            if c:
                m = len(vcol)
                vcol.append(top + c)
                edges += [(index[q], m), (m, index[v])]
    return digraph(len(vcol), edges), vcol


def key(dist: dict, heads, span: int) -> tuple:
    """A canonical form of the coloured rooted ball: equal keys iff isomorphic (levels kept)."""
    vertices = sorted(dist)
    graph, vcol = _encoded(vertices, [dist[v] for v in vertices], heads, span)
    order = bliss.canonical_permutation(graph, vcol)
    label = [0] * len(order)
    for k, v in enumerate(order):
        label[v] = k
    placed = [0] * len(vcol)
    for v, c in enumerate(vcol):
        placed[label[v]] = c
    return len(vcol), tuple(placed), tuple(sorted((label[x], label[y]) for x, y in graph.get_edgelist()))


def order(vertices: Sequence[int], colours: Sequence[int], heads, span: int) -> int:
    from ..bignum import count_automorphisms
    graph, vcol = _encoded(vertices, colours, heads, span)
    return count_automorphisms(graph, color=vcol)


# ---------------------------------------------------------------------------------------------
# The certificate

def _rigid(heads, span: int, period: int, mirror: Optional[int], radius: int) -> Optional[set]:
    """(C1), (C2): the residues' ball keys, or None when they fail at this radius."""
    keys = {}
    for x in range(1, period + 1):
        dist = ball(x, radius, heads, span)
        vertices = sorted(dist)
        colours = [dist[v] for v in vertices]
        pinned = [radius + 1 + k if dist[v] == 1 else c for k, (v, c) in enumerate(zip(vertices, colours))]
        own = mirror is not None and (2 * x - mirror) % period == 0
        if order(vertices, colours, heads, span) != (2 if own else 1) * order(vertices, pinned, heads, span):
            return None
        keys[x] = key(dist, heads, span)
    for x in keys:
        for y in keys:
            if x < y and keys[x] == keys[y] and not (mirror is not None and (x + y - mirror) % period == 0):
                return None
    return set(keys.values())


def _connected(allowed: set, heads, span: int) -> bool:
    if not allowed:
        return True
    root = min(allowed)
    seen = {root}
    frontier = [root]
    while frontier:
        nxt = []
        for v in frontier:
            for q in _around(v, heads, span, None, None):
                if q in allowed and q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    return len(seen) == len(allowed)


def _distances(root: int, lo: int, hi: int, heads, span: int) -> dict:
    dist = {root: 0}
    frontier = [root]
    while frontier:
        nxt = []
        for v in frontier:
            for q in _around(v, heads, span, lo, hi):
                if q not in dist:
                    dist[q] = dist[v] + 1
                    nxt.append(q)
        frontier = nxt
    return dist


def _end_trivial(zone: list, around: range, heads, span: int) -> bool:
    if len(zone) < 2:
        return True
    vertices = list(around)
    inside = set(zone)
    colours = [0 if v in inside else 1 + k for k, v in enumerate(vertices)]
    return order(vertices, colours, heads, span) == 1


def certificate(hubs: int, heads: tuple, span: int, period: int, mirror: Optional[int],
                radius: int) -> Optional[int]:
    """N_G when (C1)–(C5) hold at this radius, else None."""
    keys = _rigid(heads, span, period, mirror, radius)
    if keys is None:
        return None
    a = hubs + 1
    reach, wide = radius * span, 2 * span + period
    if not all(_connected(set(range(x, x + wide)), heads, span) for x in range(1, period + 1)):
        return None
    low = a + 4 * reach + 2 * wide + 2 * span + period + hubs + 2 * span + 2
    for _ in range(4):
        far = 0
        for rho in range(period):
            n = low + (rho - low) % period
            ends = [v for v in range(a, n + 1) if v < a + reach or v > n - reach]
            near = []
            for v in ends:
                around = ball(v, radius, heads, span)
                if min(around) < a or max(around) > n:
                    near.append(v)
            if any(key(ball(v, radius, heads, span, a, n), heads, span) in keys for v in near):
                return None
            deep = set(range(a, n + 1)) - set(near)
            if mirror is not None and (min(deep) + max(deep) - mirror) % period == 0 \
                    and (a + n - mirror) % period != 0:
                return None  # (C4): a reversal of the deep positions that is not the reversal of Y
            if not (_connected(deep & set(range(a, a + reach + wide)), heads, span)
                    and _connected(deep & set(range(n - reach - wide + 1, n + 1)), heads, span)):
                return None
            zone_l = [v for v in near if v < a + reach]
            zone_r = [v for v in near if v > n - reach]
            if not (_end_trivial(zone_l, range(a, a + reach + span + 1), heads, span)
                    and _end_trivial(zone_r, range(n - reach - span, n + 1), heads, span)):
                return None
            from_left, from_right = _distances(a + reach, a, n, heads, span), _distances(n - reach, a, n, heads, span)
            if any(v not in from_left for v in zone_l) or any(v not in from_right for v in zone_r):
                return None
            far = max([far] + [from_left[v] for v in zone_l] + [from_right[v] for v in zone_r])
        need = a + 4 * reach + 2 * wide + 2 * span + period + hubs + 2 * span + 2 + far * span
        if need <= low:
            return low
        low = need
    return None


# ---------------------------------------------------------------------------------------------
# The exact check at one length (the range below N_G)

def prefix_maps(u: int) -> list:
    from itertools import permutations
    return [("prefix", tuple(pi), e) for pi in permutations(range(1, u + 1)) for e in (0, 1)]


def _coloured_union_order(patterns: Sequence[Pattern], n: int, params: Mapping) -> Optional[int]:
    """|Aut| of the heads' arc-coloured union at n (BLISS), from the engine's own arcs; None when BLISS's counts under
    two splitting heuristics differ (bignum.count_automorphisms cross-checks them: python-igraph 1.0's BLISS counts 4
    with "flm" and 16 with "fl" on the twin quotient of dilated(2, 4) | star at n = 54, whose group has order 16)."""
    from ..bignum import AutomorphismCountsDisagree, count_automorphisms
    from ..lazy import digraph
    from .build import build_graph
    arcs: dict[int, int] = {}
    for k, p in enumerate(patterns):
        g = build_graph(p, n, params)
        codes = range(n * n) if g.complete else g.codes
        for c in codes:
            if c // n != c % n:
                arcs[c] = arcs.get(c, 0) | (1 << k)
    vcol = [0] * n
    edges = []
    for c, bits in arcs.items():
        m = len(vcol)
        vcol.append(1 + bits)
        edges += [(c // n, m), (m, c % n)]
    graph = digraph(len(vcol), edges)
    try:
        return count_automorphisms(graph, color=vcol)
    except AutomorphismCountsDisagree:
        return None


def exact_at(patterns: Sequence[Pattern], n: int, params: Mapping, hubs: int) -> bool:
    """At this n every automorphism of the coloured union is a prefix map (Sym(1..g) × ⟨reversal of g + 1..n⟩): the
    number of those that keep every head's arcs equals the group's order."""
    from .head_intersection import _graph_codes, keeps, perm
    codes = [_graph_codes(p, n, params) for p in patterns]
    maps = prefix_maps(hubs) if hubs else [("id",), ("refl", 1)]
    kept = sum(1 for e in maps if all(keeps(perm(e, n), c, n) for c in codes))
    return kept == _coloured_union_order(patterns, n, params)


# ---------------------------------------------------------------------------------------------
# The anchor

@exact_cache(maxsize=128)  # emptied with the other per-process caches (tests/conftest.py)
def _decide(patterns: tuple, params_items: tuple) -> Optional[ColouredLine]:
    params = dict(params_items)
    found = line_heads(patterns, params)
    if found is None:
        return None
    hubs, heads = found
    if hubs > MAX_HUBS:
        return None
    span = span_of(heads)
    if span > MAX_SPAN:
        return None
    period = least_period(heads, span)
    if period > MAX_PERIOD:
        return None
    mirror = mirror_of(heads, period, span)
    for radius in range(1, MAX_RADIUS + 1):
        proved = certificate(hubs, heads, span, period, mirror, radius)
        if proved is None:
            continue
        if proved > MAX_LOW:
            return None
        low = proved
        floor_ = max(ONSET_FLOOR, hubs + 2 * span + 2)
        while low - 1 >= floor_ and exact_at(patterns, low - 1, params, hubs):
            low -= 1
        return ColouredLine(hubs, heads, period, span, mirror, radius, proved, low)
    return None


def decide(patterns: Sequence[Pattern], params: Mapping) -> Optional[ColouredLine]:
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    return _decide(tuple(patterns), ints)
