"""Theorems F115 and F116 (docs/theory.md §11.11), restated for the verifier: `blocks(b)` with non-cyclic window,
dilated and offsets parts (jumps S), the restriction to 1..n of a pattern on Z that translating by b keeps.

F115: with J = max(b − 1, max |S|), Q = b⌈J/b⌉, F and B the distances in Z between the stretches [1, Q] and
[Q + 1, 2Q] (forward, backward), t₀, σ, c_F, c_B with M^(t + σ) = M^t + c (min-plus) for t ≥ t₀, e their largest entry,
h = ⌈eJ/Q⌉ + 1: D(n + σQ) = D(n) + max(c_F, c_B) from the least N₀ = Q(2h + t₀ + σ + 3) + kσQ whose σQ lengths pass the
base check (strongly connected; (h + 1)Q + E·J ≤ n, E the largest distance between adjacent stretches; a direction of
the largest rate attains D above every distance within 2h + t₀ + 3 stretches). F116: a ball certificate of radius R
(the residues' coloured balls in Z pairwise non-isomorphic but for mirror residues x + y ≡ 1 (mod b) when S = −S, each
rigid on its first level but for its own mirror, no ball of a non-deep position isomorphic to one of them, the deep
positions connected) gives |G| = |E_L|·|E_R(n mod b)|, times 2 when b | n and S = −S, for n ≥ N_G.

The verifier's own jump set, distances on Z, min-plus powers, ranges, D at one length per residue by breadth-first
search on its own arcs (``patterns.head_arcs``), balls, canonical certificates and orders (nauty, Schreier–Sims) and
end groups; D + 1 layers, not least, unless S = −S and Theorem F118's premise holds on the verifier's own check
(``periodic_least``): D layers, least.
"""
from __future__ import annotations

import re
from functools import lru_cache
from math import gcd
from typing import Optional, Sequence

import sympy

from .. import spec as S
from . import patterns

MAX_SPAN = 24
MAX_RADIUS = 6
MAX_POWER = 120
MAX_PERIOD = 240
MAX_WORK = 40_000_000


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def blocks_and_jumps(parts: list) -> Optional[tuple[int, tuple[int, ...]]]:
    """(b, S) when the union parts are one `blocks(b)` (b ≥ 2) and line parts with the jumps S, else None."""
    from .offsets_line import line_jumps
    blocks = [q for q in parts if isinstance(q, S.Blocks)]
    rest = [q for q in parts if not isinstance(q, S.Blocks)]
    if len(blocks) != 1 or not rest:
        return None
    b = _int(blocks[0].b)
    jumps = line_jumps(rest)
    if b is None or b < 2 or jumps is None:
        return None
    return b, tuple(jumps)


def match(parts: list):
    got = blocks_and_jumps(parts)
    if got is None:
        return None
    found = restated(*got)
    if found is None:
        return None
    b, jumps = got
    ends = _group(b, jumps, max(b - 1, max(abs(k) for k in jumps)))
    assert ends is not None
    low, diameter_low, period, growth, base, left, right, symmetric = found
    return _family(b, low, diameter_low, period, growth, base, left, right, symmetric, jumps=jumps, radius=ends[0],
                   group_low=ends[1])


# ---------------------------------------------------------------------------------------------
# The pattern on Z

def _near(p: int, b: int, jumps: Sequence[int], sign: int) -> set[int]:
    """sign = 1: the positions p's arcs reach (i with p − i ∈ S, or p's block); −1: those reaching p."""
    k = (p - 1) // b
    out = {q for q in range(k * b + 1, k * b + b + 1) if q != p}
    return out | {p - sign * s for s in jumps}


def _z_distances(source: int, wanted: set[int], b: int, jumps, sign: int) -> Optional[dict[int, int]]:
    dist, layer = {source: 0}, [source]
    missing = set(wanted) - {source}
    depth = 0
    while missing and layer and depth < 400:
        depth += 1
        nxt = []
        for v in layer:
            for q in _near(v, b, jumps, sign):
                if q not in dist:
                    dist[q] = depth
                    nxt.append(q)
        missing -= set(nxt)
        layer = nxt
    return None if missing else dist


def _power_law(m: tuple) -> Optional[tuple[int, int, int]]:
    """(t₀, σ, c): M^(t₀ + σ) − M^(t₀) a constant c, checked entry by entry; the least t₀, then the least σ."""
    powers = [m]
    for _ in range(MAX_POWER):
        a, cols = powers[-1], list(zip(*m))
        powers.append(tuple(tuple(min(x + y for x, y in zip(row, col)) for col in cols) for row in a))
    for t0 in range(len(powers)):
        for sigma in range(1, len(powers) - t0):
            diff = {y - x for r0, r1 in zip(powers[t0], powers[t0 + sigma]) for x, y in zip(r0, r1)}
            if len(diff) == 1:
                return t0 + 1, sigma, diff.pop()
    return None


# ---------------------------------------------------------------------------------------------
# F115

@lru_cache(maxsize=32)
def restated(b: int, jumps: tuple[int, ...]):
    """(low, N₀, σQ, c, D at N₀ … N₀ + σQ − 1, |E_L|, |E_R| by n mod b, S = −S) of F115–F116, or None."""
    found = diameter_part(b, jumps)
    if found is None:
        return None
    span, low, period, growth, base = found
    ends = _group(b, jumps, span)
    if ends is None:
        return None
    radius, group_low, left, right = ends
    symmetric = set(jumps) == {-k for k in jumps}
    start_ = _onset(b, jumps, max(low, group_low), max(61, 2 * (radius + 1) * span + 1),
                    low, period, growth, base, left, right, symmetric)
    return start_, low, period, growth, base, left, right, symmetric


@lru_cache(maxsize=32)
def diameter_part(b: int, jumps: tuple[int, ...]) -> Optional[tuple[int, int, int, int, tuple[int, ...]]]:
    """F115 alone: (J, N₀, σQ, c, D at N₀ … N₀ + σQ − 1), or None (also read by Theorem F117's restatement)."""
    span = max(b - 1, max(abs(k) for k in jumps))
    if span > MAX_SPAN:
        return None
    q = b * ((span + b - 1) // b)
    fwd, bwd = [], []
    for x in range(1, q + 1):
        d = _z_distances(x, set(range(q + 1, 2 * q + 1)), b, jumps, 1)
        e = _z_distances(q + x, set(range(1, q + 1)), b, jumps, 1)
        if d is None or e is None:
            return None
        fwd.append(tuple(d[q + y] for y in range(1, q + 1)))
        bwd.append(tuple(e[y] for y in range(1, q + 1)))
    law_f, law_b = _power_law(tuple(fwd)), _power_law(tuple(bwd))
    if law_f is None or law_b is None:
        return None
    (tf, sf, cf), (tb, sb, cb) = law_f, law_b
    sigma = sf * sb // gcd(sf, sb)
    start, rate_f, rate_b = max(tf, tb), cf * sigma // sf, cb * sigma // sb
    top = max(max(map(max, fwd)), max(map(max, bwd)))
    zone = (top * span + q - 1) // q + 1
    period = sigma * q
    if period > MAX_PERIOD:
        return None
    low = q * (2 * zone + start + sigma + 3)
    for _ in range(6):
        if period * (low + period) ** 2 > MAX_WORK:
            return None
        base = _base(b, jumps, low, period, q, span, zone, 2 * zone + start + 3, rate_f, rate_b)
        if base is not None:
            return span, low, period, max(rate_f, rate_b), base
        low += period
    return None


def _base(b: int, jumps, low: int, period: int, q: int, span: int, zone: int, short: int, rate_f: int,
          rate_b: int) -> Optional[tuple[int, ...]]:
    out = []
    pattern = _pattern(b, jumps)
    for n in range(low, low + period):
        outs = patterns.union_out([patterns.head_arcs(pattern, n)], n)
        worst = {"fwd": 0, "bwd": 0, "short": 0, "adj": 0}
        for u in range(1, n + 1):
            dist = patterns.bfs(outs, u)
            for v in range(1, n + 1):
                d = dist[v]
                if d is None:
                    return None
                gap = (v - 1) // q - (u - 1) // q
                if gap > 0:
                    worst["fwd"] = max(worst["fwd"], d)
                if gap < 0:
                    worst["bwd"] = max(worst["bwd"], d)
                if abs(gap) <= short:
                    worst["short"] = max(worst["short"], d)
                if abs(gap) == 1:
                    worst["adj"] = max(worst["adj"], d)
        if (zone + 1) * q + worst["adj"] * span > n:
            return None
        top = max(worst["fwd"], worst["bwd"], worst["short"])
        fastest = max(rate_f, rate_b)
        if not any(worst[key] == top > worst["short"] for key, rate in (("fwd", rate_f), ("bwd", rate_b))
                   if rate == fastest):
            return None
        out.append(top)
    return tuple(out)


def _onset(b: int, jumps, proved: int, floor_: int, low: int, period: int, growth: int, base: tuple, left: int,
           right: tuple, symmetric: bool) -> int:
    """The stated range: downwards from the proved one while the length below has the closed forms' D (BFS on the
    verifier's arcs) and order (nauty, Schreier–Sims), not below ``floor_``."""
    import pynauty

    from . import groups, nauty_graph
    n = proved
    while n - 1 >= floor_:
        m = n - 1
        want_d = base[(m - low) % period] + growth * ((m - low) // period)
        want_g = left * right[m % b] * (2 if symmetric and m % b == 0 else 1)
        arcs = patterns.head_arcs(_pattern(b, jumps), m)
        worst = patterns.diameter(patterns.union_out([arcs], m), m)
        if worst is None:
            return n
        graph, _ = nauty_graph.build(m, {a: 1 for a in arcs}, [set(range(1, m + 1))])
        order = groups.order(nauty_graph.position_generators(pynauty.autgrp(graph)[0], m), m)
        if worst != want_d or order != want_g:
            return n
        n = m
    return n


def _pattern(b: int, jumps) -> S.Pattern:
    return S.PatternUnion((S.Blocks(b), S.Offsets(tuple(jumps), False)))


# ---------------------------------------------------------------------------------------------
# F116

def _ball(root: int, radius: int, b: int, jumps, n: Optional[int]) -> dict[int, int]:
    dist, layer = {root: 0}, [root]
    for depth in range(1, radius + 1):
        nxt = []
        for v in layer:
            for x in _near(v, b, jumps, 1) | _near(v, b, jumps, -1):
                if x not in dist and (n is None or 1 <= x <= n):
                    dist[x] = depth
                    nxt.append(x)
        layer = nxt
    return dist


def _nauty(vertices: Sequence[int], cells: Sequence[set], b: int, jumps):
    from . import nauty_graph
    pos = {v: i + 1 for i, v in enumerate(vertices)}
    arcs = {(pos[v], pos[x]): 1 for v in vertices for x in _near(v, b, jumps, 1) if x in pos}
    graph, _ = nauty_graph.build(len(vertices), arcs, [{pos[v] for v in cell} for cell in cells])
    return graph


def _cells(ball: dict[int, int], radius: int) -> list[set]:
    return [{v for v, d in ball.items() if d == k} for k in range(radius + 1)]


def _certificate(ball: dict[int, int], radius: int, b: int, jumps) -> bytes:
    import pynauty
    return pynauty.certificate(_nauty(sorted(ball), _cells(ball, radius), b, jumps))


def _order(vertices: Sequence[int], cells: Sequence[set], b: int, jumps) -> int:
    import pynauty

    from . import groups, nauty_graph
    graph = _nauty(vertices, cells, b, jumps)
    gens = nauty_graph.position_generators(pynauty.autgrp(graph)[0], len(vertices))
    return groups.order(gens, len(vertices))


def _rigid(b: int, jumps, radius: int, symmetric: bool) -> bool:
    certs = []
    for x in range(1, b + 1):
        ball = _ball(x, radius, b, jumps, None)
        certs.append(_certificate(ball, radius, b, jumps))
        cells = _cells(ball, radius)
        pinned = [cells[0]] + [{v} for v in sorted(cells[1])] + cells[2:]
        mirror = symmetric and (2 * x) % b == 1 % b
        if _order(sorted(ball), cells, b, jumps) != (2 if mirror else 1) * _order(sorted(ball), pinned, b, jumps):
            return False
    return all(certs[x] != certs[y] or (symmetric and (x + y + 2) % b == 1 % b)
               for x in range(b) for y in range(x + 1, b))


def _connected(allowed: set[int], b: int, jumps) -> bool:
    if not allowed:
        return True
    start = min(allowed)
    seen, todo = {start}, [start]
    while todo:
        v = todo.pop()
        for x in _near(v, b, jumps, 1) | _near(v, b, jumps, -1):
            if x in allowed and x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen) == len(allowed)


@lru_cache(maxsize=32)
def _group(b: int, jumps, span: int):
    symmetric = set(jumps) == {-k for k in jumps}
    for radius in range(1, MAX_RADIUS + 1):
        if _rigid(b, jumps, radius, symmetric):
            found = _ends(b, jumps, span, radius, symmetric)
            if found is not None:
                return (radius,) + found
    return None


def _ends(b: int, jumps, span: int, radius: int, symmetric: bool):
    reach, wide = radius * span, 2 * span + b
    if not all(_connected(set(range(x, x + wide)), b, jumps) for x in range(1, b + 1)):
        return None
    certs = {_certificate(_ball(x, radius, b, jumps, None), radius, b, jumps) for x in range(1, b + 1)}
    low = 2 * reach + 2 * wide + 2 * span + b
    for _ in range(4):
        left, right, far = 1, [], 0
        for rho in range(b):
            n = low + (rho - low) % b
            near = []
            for v in list(range(1, reach + 1)) + list(range(n - reach + 1, n + 1)):
                ball = _ball(v, radius, b, jumps, None)
                if min(ball) < 1 or max(ball) > n:
                    near.append(v)
            if any(_certificate(_ball(v, radius, b, jumps, n), radius, b, jumps) in certs for v in near):
                return None
            deep = set(range(1, n + 1)) - set(near)
            if symmetric and n % b and (min(deep) + max(deep)) % b == 1 % b:
                return None
            if not (_connected(deep & set(range(1, reach + wide + 1)), b, jumps)
                    and _connected(deep & set(range(n - reach - wide + 1, n + 1)), b, jumps)):
                return None
            outs = patterns.union_out([patterns.head_arcs(_pattern(b, jumps), n)], n)
            both = [sorted(set(outs[v]) | {u for u in range(1, n + 1) if v in outs[u]}) for v in range(n + 1)]
            d_left, d_right = patterns.bfs(both, reach + 1), patterns.bfs(both, n - reach)
            for v in near:
                d = d_left[v] if v <= reach else d_right[v]
                far = max(far, d if d is not None else 10 ** 9)
            lz, rz = [v for v in near if v <= reach], [v for v in near if v > n - reach]
            if rho == 0:
                around = list(range(1, reach + span + 1))
                left = _order(around, [set(lz)] + [{v} for v in around if v not in lz], b, jumps)
            around = list(range(n - reach - span + 1, n + 1))
            right.append(_order(around, [set(rz)] + [{v} for v in around if v not in rz], b, jumps))
        need = 2 * reach + 2 * wide + 2 * span + b + far * span
        if need <= low:
            return low, left, tuple(right)
        low = need
    return None


def periodic_diameter(n, low: int, period: int, growth: int, base: tuple):
    """F115's D at n (an int) or by n mod the period (a Symbol): base[t] at low + t, growing by `growth` a period."""
    if isinstance(n, int):
        t = (n - low) % period
        return sympy.Integer(base[t] + growth * ((n - low) // period))
    pieces = []
    for t in range(period):
        m = low + t
        pieces.append((sympy.Integer(base[t] - growth * (m // period)) + growth * sympy.floor(n / period),
                       sympy.Eq(sympy.Mod(n, period), m % period)))
    return sympy.Piecewise(*pieces)


def _family(b: int, low: int, diameter_low: int, period: int, growth: int, base: tuple, left: int, right: tuple,
            symmetric: bool, jumps: tuple = (), radius: int = 0, group_low: int = 0):
    from .families import Family, ResidueLength
    from .periodic_least import family_fields

    def diameter(n):
        return periodic_diameter(n, diameter_low, period, growth, base)

    def order(n):
        rho = n.rho % b if isinstance(n, ResidueLength) else int(n) % b
        return sympy.Integer(left * right[rho] * (2 if rho == 0 and symmetric else 1))

    def name(text):
        return group_name_fits(text, b, left, right, symmetric)
    layers = ({"least": False, "layers_by": lambda n: diameter(n) + 1} if not symmetric else
              family_fields(b, tuple(jumps), low, diameter_low, group_low, radius, diameter, "F116"))
    return Family("F115", low, 0, 0, order=order, modulus=b, name=name, witness=None, diameter_at=diameter,
                  period=period, **layers)


_TURN = "the reflection i ↦ n + 1 − i"


def _kept(order) -> str:
    """A pattern for the engine's words for the permutations of some positions near an end that keep the arcs."""
    return r"the permutations of \{[0-9, ]+\} that keep the arcs \(order " + str(order) + r"\)"


def group_name_fits(text: str, b: int, left: int, right: tuple, symmetric: bool) -> bool:
    """`text` names F116's group E_L × E_R(n mod b) (× the reflection when b | n and S = −S) on some residue class,
    written as the engine writes it at an integer n (`trivial`; each end group of order > 1 by the positions it
    moves and its order; the reflection), or at symbolic n (the reflection "when b | n", the right end "by residue of
    n mod b"); or the short name of one class's group (`trivial`, `reflection`) other checks ask the family about.
    The orders are the verifier's own (its end groups and S = −S); a name of another group, or of an end group of
    another order, does not fit."""
    for rho in range(b):
        turn = symmetric and rho == 0
        if left == 1 and right[rho] == 1 and text in (("reflection", "the reflection", _TURN) if turn else ("trivial",)):
            return True
        parts = ([_kept(left)] if left > 1 else []) + ([_kept(right[rho])] if right[rho] > 1 else [])
        if turn:
            parts.append(re.escape(_TURN))
        if parts and re.fullmatch(" × ".join(parts), text):
            return True
    parts = [_kept(left)] if left > 1 else []
    if any(order > 1 for order in right):
        parts.append(re.escape("the permutations of the positions near n that keep the arcs (order by residue of n mod "
                               f"{b})"))
    if symmetric:
        parts.append(re.escape(f"{_TURN} when {b} | n"))
    if parts == [re.escape(f"{_TURN} when {b} | n")]:
        return text == f"{_TURN} when {b} | n, else trivial"
    return bool(parts) and re.fullmatch(" × ".join(parts), text) is not None
