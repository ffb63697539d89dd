"""Theorem F122 (docs/theory.md §11.11), restated for the verifier: `blocks(b)` with non-cyclic window, dilated and
offsets parts whose automorphisms are all periodic symmetries (tried where F116's and F117's certificates fail).

With A the periodic symmetries of the pattern on Z (the verifier's own search, ``periodic_exchanges.symmetries``) and
β(x) the coloured rooted balls: (C1′), (C2′) as in F117; (C5₀) only the identity of A fixes a closed neighbourhood
N[x] pointwise; (C3) no ball of a non-deep position of Γ_n is isomorphic to a residue's; a patch of positions joined by
good pairs (U-adjacent u, v with only the identity of A fixing N[u] ∩ N[v]) whose closed neighbourhoods cover W
consecutive positions; (C6) every position is the only one outside the W positions before it (after it) with its arcs
to and from them. Then G = the α ∈ A with α(1..n) = 1..n for n ≥ N_G, their number depending on n mod b only.

The verifier's own values: D by F115 (``periodic_lines.diameter_part``), the checks above on its own balls (nauty)
and arcs, N_G, the count of the α ∈ A keeping 1..n at one length per residue (every position of 1..n looked at), and
the stated range re-derived downwards (BFS for D, nauty for |Aut Γ_n| equal to the count, at every length); D + 1
layers, not least. The certificate's symmetries and radius must be its own.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional, Sequence

from . import patterns
from . import periodic_exchanges as exchanges
from . import periodic_lines as lines

Symmetry = exchanges.Symmetry


def match(parts: list):
    """The verifier's Family of F122 for these union parts, or None (the parts as F117's match asks)."""
    return exchanges.match_with(parts, restated, _family)


def _closed(p: int, b: int, jumps) -> set[int]:
    return exchanges._around(p, b, jumps) | {p}


def _fixes_only_identity(found: Sequence[Symmetry], points: set[int], b: int) -> bool:
    identity = (1, tuple(range(1, b + 1)))
    p = min(points)
    for alpha in found:
        g = exchanges._fixing(alpha, p, b)
        if g is not None and g != identity and all(exchanges._apply(g, q, b) == q for q in points):
            return False
    return True


def balls_hold(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[Symmetry]) -> bool:
    """(C1′), (C2′) and (C5₀) at the radius."""
    return exchanges.balls_certificate(b, jumps, radius, found,  # (C5₀) at each residue
                                       lambda x, _: _fixes_only_identity(found, _closed(x, b, jumps), b))


def window(b: int, jumps: tuple[int, ...]) -> Optional[int]:
    """The least W ≤ 4J + 2b with (C6): each p = 1, …, b has an arc to the W positions before it (after it), and no
    other position outside them within J of them has the same arcs to and from them."""
    jset = frozenset(jumps)
    span = max(b - 1, max(abs(k) for k in jumps))
    for width in range(1, 4 * span + 2 * b + 1):
        ok = True
        for p in range(1, b + 1):
            for side in (range(p - width, p), range(p + 1, p + width + 1)):
                def arcs(q, side=side):
                    return [(exchanges._arc(j, q, b, jset), exchanges._arc(q, j, b, jset)) for j in side]
                own = arcs(p)
                if not any(x or y for x, y in own) or any(
                        arcs(q) == own for q in range(side[0] - span, side[-1] + span + 1) if q != p and q not in side):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return width
    return None


def patch_extent(b: int, jumps: tuple[int, ...], found: Sequence[Symmetry], width: int) -> Optional[int]:
    """The extent (largest − least position) of the good-pair component of 1 among the positions within 4b + 2J of
    [1, b], when its closed neighbourhoods cover W consecutive positions; else None."""
    span = max(b - 1, max(abs(k) for k in jumps))
    lo, hi = 1 - 4 * b - 2 * span, 5 * b + 2 * span
    comp, todo = {1}, [1]
    while todo:
        u = todo.pop()
        for v in sorted(exchanges._around(u, b, jumps)):
            if lo <= v <= hi and v not in comp and \
                    _fixes_only_identity(found, _closed(u, b, jumps) & _closed(v, b, jumps), b):
                comp.add(v)
                todo.append(v)
    cover = set()
    for v in comp:
        cover |= _closed(v, b, jumps)
    longest = run = 0
    for p in range(min(cover), max(cover) + 1):
        run = run + 1 if p in cover else 0
        longest = max(longest, run)
    return max(comp) - min(comp) if longest >= width else None


def count(n: int, b: int, found: Sequence[Symmetry]) -> int:
    """The α ∈ A (every translate by a multiple of b that can map 1 into 1..n) with α(1..n) ⊆ 1..n, so = 1..n."""
    out = 0
    for sign, images in found:
        for t in range(-(n // b) - 3, n // b + 4):
            alpha = (sign, tuple(a + t * b for a in images))
            if all(1 <= exchanges._apply(alpha, p, b) <= n for p in range(1, n + 1)):
                out += 1
    return out


def _group_low(b: int, jumps: tuple[int, ...], radius: int, span: int, found: Sequence[Symmetry],
               extent: int) -> Optional[int]:
    reach = radius * span
    move = max(abs(exchanges._apply(a, x, b) - a[0] * x) for a in found for x in range(1, b + 1)) + b
    low = max(4 * reach + 2, 2 * reach + extent + 2 * b + 2 * span, 4 * move + 2 * b)
    certs = {lines._certificate(lines._ball(x, radius, b, jumps, None), radius, b, jumps) for x in range(1, b + 1)}
    for rho in range(b):
        n = low + (rho - low) % b
        deep = exchanges._deep(n, b, jumps, radius)
        if any(lines._certificate(lines._ball(v, radius, b, jumps, n), radius, b, jumps) in certs
               for v in range(1, n + 1) if v not in deep):
            return None  # (C3)
    return low


@lru_cache(maxsize=32)
def restated(b: int, jumps: tuple[int, ...]):
    """(stated low, N₀, σQ, c, D at N₀ …, R, N_G, (|G|, 1) by n mod b, the symmetries), the layout of F117's
    restatement, or None."""
    if lines.restated(b, jumps) is not None or exchanges.restated(b, jumps) is not None:
        return None  # F116 or F117 decides the group
    line = lines.diameter_part(b, jumps)
    if line is None:
        return None
    span, low, period, growth, base = line
    found = exchanges.symmetries(b, jumps)
    if found is None or len(found) < 2:
        return None
    width = window(b, jumps)
    extent = None if width is None else patch_extent(b, jumps, found, width)
    if extent is None:
        return None
    for radius in range(1, lines.MAX_RADIUS + 1):
        if not balls_hold(b, jumps, radius, found):
            continue
        group_low = _group_low(b, jumps, radius, span, found, extent)
        if group_low is None:
            return None
        classes = tuple((count(group_low + (rho - group_low) % b, b, found), 1) for rho in range(b))
        stated = _onset(b, jumps, radius, span, max(low, group_low), low, period, growth, base, classes, found)
        return stated, low, period, growth, base, radius, group_low, classes, tuple(found)
    return None


def _onset(b: int, jumps, radius: int, span: int, proved: int, low: int, period: int, growth: int, base: tuple,
           classes: tuple, found: Sequence[Symmetry]) -> int:
    """Downwards from the proved range while the length below has F115's D (BFS) and |Aut Γ_n| (nauty) equal to the
    class's count and to the count of the α ∈ A keeping 1..n there, not below max(61, 2(RJ + J) + 1)."""
    n = proved
    while n - 1 >= max(61, 2 * (radius + 1) * span + 1):
        m = n - 1
        arcs = patterns.head_arcs(lines._pattern(b, jumps), m)
        if patterns.diameter(patterns.union_out([arcs], m), m) != base[(m - low) % period] + growth * ((m - low) // period):
            return n
        whole, _ = exchanges.orders_at(m, b, jumps, radius)
        if whole != classes[m % b][0] or whole != count(m, b, found):
            return n
        n = m
    return n


class _Values(exchanges._Values):
    """F122's words: each class's group is the periodic symmetries keeping 1..n, named with their order."""
    theorem = "F122"

    def class_named(self, text: str, rho: int) -> bool:
        whole = self.classes[rho][0]
        if whole == 1:
            return text.strip() == "trivial"
        return f"(order {whole})" in text and "periodic symmetries" in text


def _family(b: int, found: tuple, jumps: tuple = ()):
    v = _Values(b, found)
    return exchanges.values_family(
        v, (f"the verifier's own periodic symmetries ({len(v.symmetries)} modulo translation), balls at radius "
            f"{v.radius}, patch and determining window, N_G = {v.group_low}, |G| by n mod {b} as the count of those "
            f"keeping 1..n, the range re-derived by BFS and nauty; instances n = {v.stated}..{v.stated + v.period} "
            "re-checked on the verifier's arcs"), jumps)
