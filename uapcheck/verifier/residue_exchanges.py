"""Theorem F186 (docs/theory.md §11.11), restated for the verifier: several heads made of `blocks`, non-cyclic
`window`, `dilated` and `offsets` parts and `global`/`star` hubs whose symmetries exchange residue classes. The heads'
arc-coloured union on Y = {g + 1, …, n} is a restriction of a coloured digraph Γ_∞ on Z; its periodic symmetries of
period Q (α(p + Q) = α(p) ± Q) are searched here, and F122's certificate with colours ((C1′), (C2′), (C5₀) on the
coloured balls, the determining window (C6), the patch of good pairs, (C3) at the ends) puts every automorphism of Γ_Y
among their restrictions from N_G on. The class's maps (π on the hubs × a periodic symmetry) are then re-derived at one
length of the class from N_G and compared with the certificate's, and every length of the class from its stated bound
up to there is checked exactly (the maps keep every head's arcs and are as many as nauty's order of the coloured union).

The verifier's own parts walk, colours, balls, nauty certificates and orders (verifier/coloured_lines.py); nothing is
read from uapcheck/graphs.
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import permutations
from typing import Optional, Sequence

from .. import spec as S
from . import coloured_lines as C
from . import patterns

MAX_PERIOD = 24
MAX_NODES = 200_000
MAX_FOUND = 720
PATCH_PERIODS = 4
MAX_LOW = 400


def _res(p: int, q: int) -> int:
    return (p - 1) % q + 1


def _apply(sign: int, images: tuple, p: int) -> int:
    q = len(images)
    k, x = divmod(p - 1, q)
    return sign * k * q + images[x]


def _reached(heads, span: int, q: int) -> Optional[list[tuple[int, int, int]]]:
    """(residue, the residue it is reached from, the position reached) in breadth-first order from 1; None when U
    does not reach every residue."""
    order, seen, todo = [], {1}, [1]
    while todo:
        y = todo.pop(0)
        for p in C._near(y, heads, span, None, None):
            if _res(p, q) not in seen:
                seen.add(_res(p, q))
                order.append((_res(p, q), y, p))
                todo.append(_res(p, q))
    return order if len(seen) == q else None


def _search(heads, span: int, q: int) -> Optional[list[tuple[int, tuple]]]:
    """The colour automorphisms α(kQ + x) = ±kQ + a_x of Γ_∞ with a_1 ∈ [1, Q]; None beyond the bounds or when the
    residues are not connected."""
    order = _reached(heads, span, q)
    if order is None:
        return None
    found: list[tuple[int, tuple]] = []
    nodes = [0]

    def value(sign, a, p):
        k, x = divmod(p - 1, q)
        return None if x + 1 not in a else sign * k * q + a[x + 1]

    def grow(sign: int, a: dict, step: int) -> bool:
        nodes[0] += 1
        if nodes[0] > MAX_NODES or len(found) > MAX_FOUND:
            return False
        if step == len(order):
            images = tuple(a[x] for x in range(1, q + 1))
            if all(C._colour(_apply(sign, images, j), _apply(sign, images, i), heads) == C._colour(j, i, heads)
                   for i in range(1, q + 1) for j in range(i - span, i + span + 1)):
                found.append((sign, images))
            return True
        x, y, p = order[step]
        k = (p - 1) // q
        for e in range(-span, span + 1):
            if e == 0:
                continue
            ax = a[y] + e - sign * k * q
            if any(ax % q == v % q for v in a.values()):
                continue
            a[x] = ax
            ok = all(C._colour(r, x, heads) == C._colour(value(sign, a, r), a[x], heads)
                     and C._colour(x, r, heads) == C._colour(a[x], value(sign, a, r), heads)
                     for r in range(x - span, x + span + 1) if r != x and value(sign, a, r) is not None)
            if ok and not grow(sign, a, step + 1):
                del a[x]
                return False
            del a[x]
        return True

    for sign in (1, -1):
        for first in range(1, q + 1):
            if not grow(sign, {1: first}, 0):
                return None
    return found


def _fixing(sym: tuple[int, tuple], x: int, q: int) -> Optional[tuple[int, tuple]]:
    sign, images = sym
    t = x - _apply(sign, images, x)
    return (sign, tuple(v + t for v in images)) if t % q == 0 else None


def _identity(sym: tuple[int, tuple]) -> bool:
    return sym[0] == 1 and sym[1] == tuple(range(1, len(sym[1]) + 1))


def _closed(p: int, heads, span: int) -> set[int]:
    return set(C._near(p, heads, span, None, None)) | {p}


def _only_identity(found, points: set[int], q: int) -> bool:
    p = min(points)
    for sym in found:
        f = _fixing(sym, p, q)
        if f is not None and not _identity(f) and all(_apply(f[0], f[1], v) == v for v in points):
            return False
    return True


def _balls(heads, span: int, q: int, radius: int, found) -> Optional[set]:
    keys = {}
    for x in range(1, q + 1):
        if not _only_identity(found, _closed(x, heads, span), q):
            return None
        stab = [f for f in (_fixing(s, x, q) for s in found) if f is not None]
        ball = C._ball(x, radius, heads, span)
        cells = C._cells(ball, radius)
        pinned = [cells[0]] + [{v} for v in sorted(cells[1])] + cells[2:]
        if C._order(sorted(ball), cells, heads, span) != len(stab) * C._order(sorted(ball), pinned, heads, span):
            return None
        keys[x] = C._key(ball, radius, heads, span)
    orbit = {x: {_res(_apply(s[0], s[1], x), q) for s in found} for x in keys}
    if any(keys[x] == keys[y] and y not in orbit[x] for x in keys for y in keys if x < y):
        return None
    return set(keys.values())


def _window(heads, span: int, q: int) -> Optional[int]:
    def arcs(v, window):
        return tuple((C._colour(j, v, heads), C._colour(v, j, heads)) for j in window)
    for width in range(1, 4 * span + 2 * q + 1):
        good = True
        for x in range(1, q + 1):
            for window in (range(x - width, x), range(x + 1, x + width + 1)):
                own = arcs(x, window)
                if not any(a or b for a, b in own) or any(
                        v != x and v not in window and arcs(v, window) == own
                        for v in range(window[0] - span, window[-1] + span + 1)):
                    good = False
        if good:
            return width
    return None


def _patch(heads, span: int, q: int, found, width: int) -> Optional[int]:
    lo, hi = 1 - PATCH_PERIODS * q - 2 * span, q + PATCH_PERIODS * q + 2 * span
    comp, todo = {1}, [1]
    while todo:
        u = todo.pop()
        for v in C._near(u, heads, span, None, None):
            if lo <= v <= hi and v not in comp and \
                    _only_identity(found, _closed(u, heads, span) & _closed(v, heads, span), q):
                comp.add(v)
                todo.append(v)
    cover = set().union(*(_closed(v, heads, span) for v in comp))
    best = run = 0
    for p in range(min(cover), max(cover) + 2):
        run = run + 1 if p in cover else 0
        best = max(best, run)
    return max(comp) - min(comp) if best >= width else None


@lru_cache(maxsize=32)
def restated(hubs: int, heads: tuple, q: int) -> Optional[tuple]:
    """(R, W, N_G, A) of the verifier's F186 at period Q, or None."""
    span, p0, _ = C._setting(heads)
    if q % p0 or q > MAX_PERIOD:
        return None
    found = _search(heads, span, q)
    if not found or len(found) < 2:
        return None
    width = _window(heads, span, q)
    if width is None:
        return None
    extent = _patch(heads, span, q, found, width)
    if extent is None:
        return None
    delta = max(abs(_apply(s, a, x) - s * x) for s, a in found for x in range(1, q + 1)) + q
    for radius in range(1, C.MAX_RADIUS + 1):
        keys = _balls(heads, span, q, radius, found)
        if keys is None:
            continue
        reach = radius * span
        low = hubs + max(4 * reach + 2, 2 * reach + extent + 2 * q + 2 * span, 4 * delta + 2 * q,
                         2 * (span + 2 * delta + q) + 2, 2 * span + 2)
        if low > MAX_LOW:
            return None
        a = hubs + 1
        for rho in range(q):
            n = low + (rho - low) % q
            for v in range(a, n + 1):
                ball = C._ball(v, radius, heads, span)
                if (min(ball) < a or max(ball) > n) and \
                        C._key(C._ball(v, radius, heads, span, a, n), radius, heads, span) in keys:
                    return None
        return radius, width, low, tuple(sorted(found))
    return None


def _maps_at(pats, n: int, hubs: int, q: int, found) -> set:
    """The maps π × α (α ∈ A with α(Y) = Y) that keep every head's arcs at n, as (π, sign, shifts)."""
    heads = [patterns.head_arcs(p, n) for p in pats]
    a = hubs + 1
    out = set()
    for sign, images in found:
        first = _apply(sign, images, a)
        for t in range((a - n - first) // q - 1, (n - first) // q + 2):
            ims = tuple(v + t * q for v in images)
            line = [_apply(sign, ims, p) for p in range(a, n + 1)]
            if sorted(line) != list(range(a, n + 1)):
                continue
            shifts = tuple(_apply(sign, ims, p) - (p if sign > 0 else a + n - p) for p in range(a, a + q))
            for pi in permutations(range(1, hubs + 1)):
                img = list(pi) + line
                if all(all((img[j - 1], img[i - 1]) in arcs for (j, i) in arcs) for arcs in heads):
                    out.add((tuple(pi), sign, shifts))
    return out


def _perm(m: tuple, n: int, hubs: int) -> Optional[list]:
    pi, sign, shifts = m
    q = len(shifts)
    img = list(pi) + [(p if sign > 0 else hubs + 1 + n - p) + shifts[(p - hubs - 1) % q] for p in range(hubs + 1, n + 1)]
    return img if sorted(img) == list(range(1, n + 1)) else None


def _exact(pats, n: int, hubs: int, maps: list) -> bool:
    from . import groups
    heads = [patterns.head_arcs(p, n) for p in pats]
    full, _ = groups.full_order(patterns.head_labels(heads), n, "none")
    imgs = [_perm(m, n, hubs) for m in maps]
    if full is None or any(p is None for p in imgs) or len({tuple(p) for p in imgs if p}) != len(imgs):
        return False
    return len(imgs) == full and all(
        all((p[j - 1], p[i - 1]) in arcs for (j, i) in arcs) for p in imgs if p for arcs in heads)


def _name_order(name: str) -> int:
    """The order a structure name states: the product of its S_k and C_2 factors."""
    out = 1
    for k in re.findall(r"S_(\d+)", name):
        for v in range(2, int(k) + 1):
            out *= v
    return out * 2 ** name.count("C_2")


def group_check(ctx, s) -> tuple[str, str]:
    """SYM-AUT by Theorem F186 (a certificate of kind "residue exchanging heads") on one class of n mod Q."""
    from .check import Reject
    spec = ctx.spec
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F186 is for unbiased heads without a positional encoding")
    cert = s.get("certificate") or {}
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    got = C.parts_of(pats)
    if got is None or len(pats) < 2:
        raise Reject("Theorem F186: a head has a part outside blocks, non-cyclic line parts and hubs")
    hubs, heads = got
    q = cert.get("period")
    if not isinstance(q, int) or isinstance(q, bool) or not 1 <= q <= MAX_PERIOD:
        raise Reject(f"Theorem F186: the period {q!r} is not a period the verifier tries")
    if hubs != cert.get("hubs") or hubs > C.MAX_HUBS:
        raise Reject(f"Theorem F186: the hubs are 1..{hubs}, not the certificate's {cert.get('hubs')}")
    mine = restated(hubs, heads, q)
    if mine is None:
        raise Reject(f"Theorem F186: the verifier's certificate does not hold at period {q}")
    radius, width, low, found = mine
    if (radius, width, low) != (cert.get("radius"), cert.get("width"), cert.get("proved from")):
        raise Reject(f"Theorem F186: the radius, window and bound are the verifier's {radius}, {width}, {low}, not "
                     f"the certificate's")
    stated = sorted((int(sg), tuple(int(v) for v in ims)) for sg, ims in cert.get("symmetries") or [])
    if stated != list(found):
        raise Reject(f"Theorem F186: the periodic symmetries are not the verifier's {len(found)}")
    return _class_check(ctx, s, cert, pats, hubs, heads, mine)


def _class_check(ctx, s, cert: dict, pats, hubs: int, heads, mine: tuple) -> tuple[str, str]:
    """The class's maps re-derived at its length from N_G, its order and name, and every length below checked."""
    from .check import VERIFIED, Reject, Trust
    radius, width, low, found = mine
    q = int(cert["period"])
    cls = cert.get("class") or {}
    residue, start = int(cls.get("residue", -1)), int(cls.get("from", 0))
    maps = sorted((tuple(int(x) for x in pi), int(sg), tuple(int(x) for x in sh)) for pi, sg, sh in cls.get("maps") or [])
    data = s.get("data") or {}
    if "residues" in data and any(int(r) % q != residue for r in data["residues"]) or int(data.get("modulus", q)) % q:
        raise Reject(f"Theorem F186: the step's classes are not n ≡ {residue} (mod {q})")
    rep = low + (residue - low) % q
    if set(maps) != _maps_at(pats, rep, hubs, q, found):
        raise Reject(f"Theorem F186: at n = {rep} the maps keeping every head are not the certificate's")
    order = data.get("order", cert.get("order"))
    if order is not None and int(order) != len(maps):
        raise Reject(f"Theorem F186: the order {order} is not the number of the class's maps, {len(maps)}")
    name = data.get("name")
    if isinstance(name, str) and name != "trivial" and _name_order(name) != len(maps):
        raise Reject(f"Theorem F186: the name {name!r} does not state a group of order {len(maps)}")
    if start < hubs + 2 * C._setting(heads)[0] + 2 or start % q != residue:
        raise Reject(f"Theorem F186: the class's bound {start} is not a length of the class above g + 2J + 1")
    for n in range(start, rep, q):
        if not _exact(pats, n, hubs, maps):
            raise Reject(f"Theorem F186: at n = {n} the class's maps are not the heads' group")
    length = cert.get("n")
    if length is not None:
        if not isinstance(length, int) or length < start or length % q != residue:
            raise Reject(f"Theorem F186: n = {length} is not a length of the class")
        if ctx.spec.tokens != length:
            raise Trust("Theorem F186 at a concrete length other than the file's")
    return VERIFIED, (f"the verifier's Theorem F186 (§11.11): {len(found)} periodic symmetries of period {q}, the "
                      f"coloured ball certificate at radius {radius} with window {width} from n = {low}; the class "
                      f"n ≡ {residue} (mod {q}) has {len(maps)} maps, re-derived at n = {rep} and checked exactly at "
                      f"n = {start}..{rep - q} (nauty)")


def patterns_of(spec) -> Sequence[S.Pattern]:
    return list(dict.fromkeys(h.pattern for h in spec.heads))
