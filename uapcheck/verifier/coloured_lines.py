"""Theorem F180 (docs/theory.md §11.11), restated for the verifier: the anchor of Theorems F35–F39 for heads made of
`blocks`, non-cyclic `window`, `dilated` and `offsets` parts and `global`/`star` hubs. The heads' arc-coloured union
restricted to Y = {g + 1, …, n} is a restriction of a coloured digraph Γ_∞ on Z that translating by P₀ keeps; the ball
certificate (C1)–(C5) puts every automorphism of the heads in Sym({1..g}) × ⟨the reversal of Y⟩ from N_G on, and every
length from the certificate's stated bound up to N_G is checked exactly (the coloured union's order by nauty and
Schreier–Sims, or by every permutation at n ≤ 8, equals the number of those maps that keep every head's arcs).

The verifier's own parts walk, colours, least period, mirror, balls, nauty certificates and orders, end groups and
ranges; nothing is read from uapcheck/graphs.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from math import gcd
from typing import Optional, Sequence

from .. import spec as S
from . import patterns

MAX_SPAN = 16
MAX_PERIOD = 60
MAX_RADIUS = 4
MAX_HUBS = 4


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def parts_of(pats: Sequence[S.Pattern]) -> Optional[tuple[int, tuple]]:
    """(g, per head (its block sizes, its jumps)) or None when a part is outside the theorem."""
    hubs, heads = 0, []
    for p in pats:
        parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
        blocks, jumps = set(), set()
        for q in parts:
            sizes = [_int(x) for x in _sizes(q)]
            if any(x is None for x in sizes):
                return None
            v = [int(x) for x in sizes if x is not None]
            if isinstance(q, S.Star):
                hubs = max(hubs, 1)
            elif isinstance(q, S.Global):
                hubs = max(hubs, v[0])
            elif isinstance(q, S.Blocks):
                if v[0] >= 2:
                    blocks.add(v[0])
            elif isinstance(q, S.Window) and not q.cyclic:
                jumps |= set(range(-v[0], v[0] + 1))
            elif isinstance(q, S.Dilated):
                jumps |= {k * v[1] for k in range(-v[0], v[0] + 1)}
            elif isinstance(q, S.Offsets) and not q.cyclic:
                jumps |= set(v)
            else:
                return None
        heads.append((tuple(sorted(blocks)), frozenset(jumps - {0})))
    if not any(b or j for b, j in heads):
        return None
    return hubs, tuple(heads)


def _sizes(q) -> tuple:
    """The integer sizes a part is stated with (a name is not an integer)."""
    if isinstance(q, S.Global):
        return (q.g,)
    if isinstance(q, S.Blocks):
        return (q.b,)
    if isinstance(q, S.Window):
        return (q.w,)
    if isinstance(q, S.Dilated):
        return (q.w, q.r)
    if isinstance(q, S.Offsets):
        return tuple(q.offsets)
    return ()


def _colour(j: int, i: int, heads) -> int:
    if i == j:
        return 0
    bits = 0
    for k, (blocks, jumps) in enumerate(heads):
        if j - i in jumps or any((i - 1) // b == (j - 1) // b for b in blocks):
            bits |= 1 << k
    return bits


def _near(v: int, heads, span: int, lo: Optional[int], hi: Optional[int]) -> list[int]:
    return [x for x in range(v - span, v + span + 1) if (lo is None or x >= lo) and (hi is None or x <= hi)
            and (_colour(x, v, heads) or _colour(v, x, heads))]


def _ball(root: int, radius: int, heads, span: int, lo=None, hi=None) -> dict[int, int]:
    dist, layer = {root: 0}, [root]
    for depth in range(1, radius + 1):
        nxt = []
        for v in layer:
            for x in _near(v, heads, span, lo, hi):
                if x not in dist:
                    dist[x] = depth
                    nxt.append(x)
        layer = nxt
    return dist


def _nauty(vertices: Sequence[int], cells: Sequence[set], heads, span: int):
    from . import nauty_graph
    pos = {v: i + 1 for i, v in enumerate(vertices)}
    arcs = {(pos[x], pos[v]): _colour(x, v, heads) for v in vertices for x in range(v - span, v + span + 1)
            if x in pos and _colour(x, v, heads)}
    return nauty_graph.build(len(vertices), arcs, [{pos[v] for v in cell} for cell in cells])


def _cells(ball: dict[int, int], radius: int) -> list[set]:
    return [{v for v, d in ball.items() if d == k} for k in range(radius + 1)]


def _key(ball: dict[int, int], radius: int, heads, span: int) -> tuple:
    import pynauty
    graph, signature = _nauty(sorted(ball), _cells(ball, radius), heads, span)
    return signature, pynauty.certificate(graph)


def _order(vertices: Sequence[int], cells: Sequence[set], heads, span: int) -> int:
    import pynauty

    from . import groups, nauty_graph
    graph, _ = _nauty(vertices, cells, heads, span)
    return groups.order(nauty_graph.position_generators(pynauty.autgrp(graph)[0], len(vertices)), len(vertices))


def _connected(allowed: set, heads, span: int) -> bool:
    if not allowed:
        return True
    first = min(allowed)
    seen, todo = {first}, [first]
    while todo:
        v = todo.pop()
        for x in _near(v, heads, span, None, None):
            if x in allowed and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(allowed)


def _distances(root: int, lo: int, hi: int, heads, span: int) -> dict:
    dist, layer = {root: 0}, [root]
    while layer:
        nxt = []
        for v in layer:
            for x in _near(v, heads, span, lo, hi):
                if x not in dist:
                    dist[x] = dist[v] + 1
                    nxt.append(x)
        layer = nxt
    return dist


def _setting(heads) -> tuple[int, int, Optional[int]]:
    """(J, P₀, the mirror c or None)."""
    span = max([b - 1 for blocks, _ in heads for b in blocks] + [abs(k) for _, jumps in heads for k in jumps] + [1])
    full = 1
    for blocks, _ in heads:
        for b in blocks:
            full = full * b // gcd(full, b)
    period = next(t for t in range(1, full + 1) if full % t == 0 and all(
        _colour(j, i, heads) == _colour(j + t, i + t, heads) for i in range(1, full + 1)
        for j in range(i - span, i + span + 1)))
    mirror = next((c for c in range(period) if all(
        _colour(j, i, heads) == _colour(c - j, c - i, heads) for i in range(1, period + 1)
        for j in range(i - span, i + span + 1))), None)
    return span, period, mirror


def _rigid(heads, span: int, period: int, mirror: Optional[int], radius: int) -> Optional[set]:
    keys = {}
    for x in range(1, period + 1):
        ball = _ball(x, radius, heads, span)
        cells = _cells(ball, radius)
        pinned = [cells[0]] + [{v} for v in sorted(cells[1])] + cells[2:]
        own = mirror is not None and (2 * x - mirror) % period == 0
        if _order(sorted(ball), cells, heads, span) != (2 if own else 1) * _order(sorted(ball), pinned, heads, span):
            return None
        keys[x] = _key(ball, radius, heads, span)
    if any(keys[x] == keys[y] and not (mirror is not None and (x + y - mirror) % period == 0)
           for x in keys for y in keys if x < y):
        return None
    return set(keys.values())


def _trivial_end(zone: list, around: range, heads, span: int) -> bool:
    if len(zone) < 2:
        return True
    vertices = list(around)
    return _order(vertices, [set(zone)] + [{v} for v in vertices if v not in zone], heads, span) == 1


def _base(hubs: int, reach: int, wide: int, span: int, period: int) -> int:
    return hubs + 1 + 4 * reach + 2 * wide + 4 * span + period + hubs + 2


def _ends(hubs: int, heads, span: int, period: int, mirror: Optional[int], radius: int, keys: set) -> Optional[int]:
    a, reach, wide = hubs + 1, radius * span, 2 * span + period
    if not all(_connected(set(range(x, x + wide)), heads, span) for x in range(1, period + 1)):
        return None
    low = _base(hubs, reach, wide, span, period)
    for _ in range(4):
        far = 0
        for rho in range(period):
            n = low + (rho - low) % period
            near = [v for v in list(range(a, a + reach)) + list(range(n - reach + 1, n + 1))
                    if min(_ball(v, radius, heads, span)) < a or max(_ball(v, radius, heads, span)) > n]
            if any(_key(_ball(v, radius, heads, span, a, n), radius, heads, span) in keys for v in near):
                return None
            deep = set(range(a, n + 1)) - set(near)
            if mirror is not None and (min(deep) + max(deep) - mirror) % period == 0 and (a + n - mirror) % period:
                return None
            if not (_connected(deep & set(range(a, a + reach + wide)), heads, span)
                    and _connected(deep & set(range(n - reach - wide + 1, n + 1)), heads, span)):
                return None
            left, right = [v for v in near if v < a + reach], [v for v in near if v > n - reach]
            if not (_trivial_end(left, range(a, a + reach + span + 1), heads, span)
                    and _trivial_end(right, range(n - reach - span, n + 1), heads, span)):
                return None
            d_left, d_right = _distances(a + reach, a, n, heads, span), _distances(n - reach, a, n, heads, span)
            if any(v not in d_left for v in left) or any(v not in d_right for v in right):
                return None
            far = max([far] + [d_left[v] for v in left] + [d_right[v] for v in right])
        need = _base(hubs, reach, wide, span, period) + far * span
        if need <= low:
            return low
        low = need
    return None


@lru_cache(maxsize=64)
def proved(hubs: int, heads: tuple) -> Optional[int]:
    """N_G of the certificate at the least radius that gives it, or None."""
    span, period, mirror = _setting(heads)
    if span > MAX_SPAN or period > MAX_PERIOD or hubs > MAX_HUBS:
        return None
    for radius in range(1, MAX_RADIUS + 1):
        keys = _rigid(heads, span, period, mirror, radius)
        if keys is not None:
            low = _ends(hubs, heads, span, period, mirror, radius, keys)
            if low is not None:
                return low
    return None


def _image(pi: tuple, e: int, n: int) -> list:
    u = len(pi)
    return list(pi) + [(n + u + 1 - i) if e else i for i in range(u + 1, n + 1)]


def exact_at(pats: Sequence[S.Pattern], n: int, hubs: int) -> bool:
    """The coloured union's order at n equals the number of maps of Sym({1..g}) × ⟨reversal of g + 1..n⟩ keeping it."""
    from . import groups
    heads = [patterns.head_arcs(p, n) for p in pats]
    lab = patterns.head_labels(heads)
    full, _ = groups.full_order(lab, n, "none")
    if full is None:
        return False
    kept = 0
    for pi in permutations(range(1, hubs + 1)):
        for e in (0, 1):
            p = _image(pi, e, n)
            kept += all(all((p[j - 1], p[i - 1]) in arcs for (j, i) in arcs) for arcs in heads)
    return kept == full


def anchor_checked(pats: Sequence[S.Pattern], anchor: dict) -> Optional[str]:
    """Why the coloured union's group lies in the anchor's maps from its stated bound on; None when the verifier's
    restatement does not give it (the caller then trusts the step, never verifies it)."""
    from .check import Reject
    found = parts_of(pats)
    if found is None:
        return None
    hubs, heads = found
    kind, u, low = anchor["group"], int(anchor.get("prefix") or 0), int(anchor["from"])
    if (kind, u) != (("prefix", hubs) if hubs else ("reflection", 0)):
        return None
    top = proved(hubs, heads)
    if top is None:
        return None
    span = _setting(heads)[0]
    if low < hubs + 2 * span + 2:
        raise Reject(f"the anchor's bound {low} is below g + 2J + 2 = {hubs + 2 * span + 2}")
    for n in range(low, top):
        if not exact_at(pats, n, hubs):
            raise Reject(f"at n = {n} the heads have a symmetry outside the anchor's maps")
    below = f", and at n = {low}..{top - 1} exactly (nauty order = the anchor's maps that keep the arcs)" \
        if low < top else ""
    return (f"the verifier's Theorem F180 (§11.11): the coloured ball certificate holds with trivial end groups from "
            f"n = {top}{below}")
