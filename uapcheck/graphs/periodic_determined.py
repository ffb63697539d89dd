"""`blocks(b)` with non-cyclic window, dilated and offsets parts whose automorphisms are all periodic symmetries:
Theorem F122 of docs/theory.md §11.11 (the group; the diameter is Theorem F115's).

Γ_∞, its periodic symmetries A (α(kb + x) = ±kb + a_x) and the coloured rooted balls β(x) are those of Theorems
F115–F117 (``graphs/periodic_lines.py``, ``graphs/periodic_exchanges.py``). F117 needs (C5): a symmetry fixing a
position and a neighbour moves one of their common neighbours. `blocks(6) + dilated(2, 3)` and `blocks(8) +
dilated(2, 4)` break it (a permutation of the residue classes mod r fixing one class fixes a position, its neighbours
along its class and their common neighbours). F122 replaces (C4) and (C5) by two finite checks on Γ_∞:

* (C5₀) only the identity of A fixes a closed neighbourhood N[x] pointwise, and a *patch*: positions joined by *good
  pairs* (U-adjacent u, v with only the identity of A fixing N[u] ∩ N[v]) whose closed neighbourhoods cover W
  consecutive positions;
* (C6) every position p is the only position outside [p − W, p − 1] with p's arcs to and from it, and the only one
  outside [p + 1, p + W] with p's arcs to and from that.

Then an automorphism of Γ_n agrees with one α ∈ A on the patch's W positions, and (C6) carries the agreement to every
position: G = the α ∈ A with α(1..n) = 1..n, counted without a graph, by n mod b from the range on.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Optional, Sequence

import sympy
from sympy import Integer

from . import periodic_exchanges as exchanges
from . import periodic_lines as lines

SECTION = "docs/theory.md §11.11"
PATCH_BLOCKS = 4       # the patch is searched among the positions within this many blocks (and 2J) of residue 1


def _closed(p: int, b: int, jumps) -> set[int]:
    return exchanges._around(p, b, jumps) | {p}


def only_identity_fixes(found: Sequence[exchanges.Symmetry], points: set[int], b: int) -> bool:
    """No element of A other than the identity fixes every position of the (non-empty) set."""
    identity = tuple(range(1, b + 1))
    p = min(points)
    for alpha in found:
        fixing = exchanges._fixing(alpha, p, b)
        if fixing is not None and (fixing.sign, fixing.images) != (1, identity) and all(fixing(q) == q for q in points):
            return False
    return True


def balls_hold(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[exchanges.Symmetry]) -> bool:
    """(C1′), (C2′) and (C5₀) at the radius."""
    return exchanges.balls_certificate(b, jumps, radius, found,
                                       lambda x, _: only_identity_fixes(found, _closed(x, b, jumps), b))


def _arc(j: int, i: int, b: int, jset: frozenset) -> bool:
    return exchanges._arc(j, i, b, jset)


def determining_window(b: int, jumps: tuple[int, ...], limit: int) -> Optional[int]:
    """The least W ≤ limit with (C6), or None."""
    jset = frozenset(jumps)
    span = max(b - 1, max(abs(k) for k in jumps))
    for width in range(1, limit + 1):
        if all(_determined(x, width, side, b, jset, span) for x in range(1, b + 1) for side in (1, -1)):
            return width
    return None


def _determined(p: int, width: int, side: int, b: int, jset: frozenset, span: int) -> bool:
    """p is the only position outside the W positions before it (side 1) or after it (side −1) with its arcs to and
    from them."""
    window = range(p - width, p) if side == 1 else range(p + 1, p + width + 1)

    def arcs(q: int) -> tuple:
        return tuple((_arc(j, q, b, jset), _arc(q, j, b, jset)) for j in window)
    own = arcs(p)  # a position with no arc to the window shares it with every far one; else q is within J of it
    return any(any(pair) for pair in own) and \
        all(q == p or arcs(q) != own for q in range(window[0] - span, window[-1] + span + 1) if q not in window)


def patch(b: int, jumps: tuple[int, ...], found: Sequence[exchanges.Symmetry], width: int) -> Optional[tuple[int, int]]:
    """The good-pair component of position 1 among the positions within PATCH_BLOCKS blocks and 2J of it: (its
    least, its largest position) when its closed neighbourhoods cover W consecutive positions, else None."""
    span = max(b - 1, max(abs(k) for k in jumps))
    lo, hi = 1 - PATCH_BLOCKS * b - 2 * span, b + PATCH_BLOCKS * b + 2 * span
    comp, todo = {1}, [1]
    while todo:
        u = todo.pop()
        for v in exchanges._around(u, b, jumps):
            if lo <= v <= hi and v not in comp and \
                    only_identity_fixes(found, _closed(u, b, jumps) & _closed(v, b, jumps), b):
                comp.add(v)
                todo.append(v)
    cover = set().union(*(_closed(v, b, jumps) for v in comp))
    run = best = 0
    for p in range(min(cover), max(cover) + 2):
        run = run + 1 if p in cover else 0
        best = max(best, run)
    return (min(comp), max(comp)) if best >= width else None


def count_at(n: int, b: int, found: Sequence[exchanges.Symmetry]) -> int:
    """The number of α ∈ A with α(1..n) = 1..n. α(p) − εp (ε = 1) or α(p) + p (ε = −1) is periodic mod b, and for a
    bijection of 1..n its mean over 1..n is 0 (resp. n + 1), so only the translates of each class of A modulo the
    translations whose values at 1..b lie within its spread of that mean are tried; such a translate moves p by at
    most e from p (resp. n + 1 − p), so only the positions within e + b of an end are looked at (the others stay
    inside 1..n)."""
    out = 0
    for alpha in found:
        offsets = [alpha(x) - alpha.sign * x for x in range(1, b + 1)]
        mean = 0 if alpha.sign > 0 else n + 1
        lo, hi = mean - max(offsets), mean - min(offsets)
        for t in range(lo // b - 1, hi // b + 2):
            beta = alpha.shifted(t * b)
            far = max(abs(beta(x) - (x if beta.sign > 0 else n + 1 - x)) for x in range(1, b + 1)) + b
            ends = range(1, n + 1) if 2 * far >= n else [*range(1, far + 1), *range(n - far + 1, n + 1)]
            if all(1 <= beta(p) <= n for p in ends):
                out += 1  # a bijection of Z mapping 1..n into 1..n maps it onto 1..n
    return out


@dataclass(frozen=True)
class Determined:
    b: int
    jumps: tuple[int, ...]
    radius: int
    width: int                           # W of (C6)
    group_low: int                       # N_G
    orders: tuple[int, ...]              # |G| by n mod b from the range on
    line: lines.PeriodicLine             # F115's diameter (its group fields unused)
    found: tuple[exchanges.Symmetry, ...]
    onset: int

    @property
    def low(self) -> int:
        return self.onset

    def order_at(self, n: int) -> int:
        return self.orders[n % self.b]


def _displacement(found: Sequence[exchanges.Symmetry], b: int) -> int:
    """Δ: the largest |a_x − εx| over the symmetries (a_1 ∈ [1, b]) and the residues, plus b."""
    return max(abs(a(x) - a.sign * x) for a in found for x in range(1, b + 1)) + b


def _group_range(b: int, jumps: tuple[int, ...], radius: int, span: int, found, extent: tuple[int, int]) -> Optional[int]:
    """N_G: the two ends' balls apart (4RJ + 2), a translate of the patch among the deep positions, the counts by n mod
    b settled (4Δ + 2b), and (C3) at one length per residue from there; None when (C3) fails."""
    reach = radius * span
    low = max(4 * reach + 2, 2 * reach + (extent[1] - extent[0]) + 2 * b + 2 * span, 4 * _displacement(found, b) + 2 * b)
    keys = {lines._key(lines._ball(x, radius, b, jumps, None, None), b, jumps) for x in range(1, b + 1)}
    for rho in range(b):
        n = low + (rho - low) % b
        near = [v for v in range(1, n + 1) if not lines._inside(v, radius, b, jumps, n)]
        if any(lines._key(lines._ball(v, radius, b, jumps, 1, n), b, jumps) in keys for v in near):
            return None
    return low


@lru_cache(maxsize=64)
def group_data(b: int, jumps: tuple[int, ...]):
    """(R, W, N_G, |G| by n mod b, A) of F122, or None."""
    found = exchanges.symmetries(b, jumps)
    if found is None or len(found) < 2:
        return None
    span = max(b - 1, max(abs(k) for k in jumps))
    width = determining_window(b, jumps, 4 * span + 2 * b)
    if width is None:
        return None
    extent = patch(b, jumps, found, width)
    if extent is None:
        return None
    for radius in range(1, lines.MAX_RADIUS + 1):
        if not balls_hold(b, jumps, radius, found):
            continue
        low = _group_range(b, jumps, radius, span, found, extent)
        if low is None:
            return None
        orders = [0] * b
        for rho in range(b):
            orders[rho] = count_at(low + (rho - low) % b, b, found)
        return radius, width, low, tuple(orders), tuple(found)
    return None


@lru_cache(maxsize=64)
def decide(b: int, jumps: tuple[int, ...]) -> Optional[Determined]:
    """F115 (D) with F122 (G), or None (F115 fails, or no certificate)."""
    got = lines.diameter_and_groups(b, jumps, group_data)
    if got is None:
        return None
    found, (radius, width, group_low, orders, symmetries) = got
    line = lines.diameter_line(b, jumps, found, radius, group_low)
    data = Determined(b, jumps, radius, width, group_low, orders, line, symmetries, 0)
    return replace(data, onset=_onset(data))


def _onset(data: Determined) -> int:
    """The stated range: F115's D and |Aut Γ_n| (BLISS) equal to the number of α ∈ A keeping 1..n (those are
    automorphisms, so they are then all of G) at each length below the proved one (exchanges.onset_down)."""
    from ..bignum import count_automorphisms
    from ..lazy import digraph

    def group_holds(m: int) -> bool:
        order = count_automorphisms(digraph(m, lines._graph(range(1, m + 1), data.b, data.jumps)))
        return order == data.order_at(m) == count_at(m, data.b, data.found)
    return exchanges.onset_down(data, group_holds)


def _class_words(data: Determined, rho: int) -> str:
    order = data.orders[rho]
    if order == 1:
        return "trivial"
    return f"the periodic symmetries of the pattern on Z that map 1, …, n onto itself (order {order})"


def theorem(n, data: Determined):
    """F115 (D) and F122 (G) at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    P, b = data.line.period, data.b
    diameter = lines.diameter_at_length(n, data.line)
    if isinstance(n, (int, Integer)):
        order: sympy.Expr = Integer(count_at(int(n), b, data.found))
        group = _class_words(data, int(n) % b)
    else:
        order = _residue_pieces(n, b, {m: data.order_at(m) for m in range(b)}, Integer, explicit=True)
        group = "; ".join(f"for n mod {b} = {rho}: {_class_words(data, rho)}" for rho in range(b))
    shown = ", ".join(map(str, data.jumps))
    from .periodic_least import layers_fields
    layers, least, why, question, classes = layers_fields(data.line, data.group_low, data.radius, data.low, "F122",
                                                          diameter, n)
    return FamilyTheorem(
        "F122", f"blocks(b) + a non-cyclic line part whose automorphisms are periodic symmetries (S = {{{shown}}})",
        (("b", Integer(b)), ("P", Integer(P)), ("R", Integer(data.radius)), ("W", Integer(data.width))),
        Integer(data.low), diameter, group, order, (), layers, least, why,
        open_question=question, least_classes=classes,
        periodic=(data.radius, tuple((a.sign, a.images) for a in data.found)))
