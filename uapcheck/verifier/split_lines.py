"""Theorem F187 (docs/theory.md §11.11), restated for the verifier: several heads made of `dilated` and `offsets` parts
(cyclic offsets no longer than the hubs) and `global`/`star` hubs whose line falls apart into the classes mod m, m the
gcd of every jump. The
heads' arc-coloured union on Y = {g + 1, …, n} is the disjoint union of the m classes mod m, each a copy of the scaled
line Λ_L (jumps divided by m) on 1..L; Λ_L is connected from L_c on and, by Theorem F180 restated here
(verifier/coloured_lines.py, no hubs), its automorphisms are the identity and (when every scaled jump set is symmetric)
the reversal from L_Λ on. The class's group (the hub maps H, the unattached classes by length) is re-derived at one
length of the class from N, its order computed, and every length of the class from its stated bound up to there is
checked exactly (the generators keep every head's arcs and generate a group of that order (Schreier–Sims), nauty's
order of the coloured union).

Nothing is read from uapcheck/graphs.
"""
from __future__ import annotations

import re
from itertools import permutations, product
from math import factorial, gcd
from typing import Optional

from .. import spec as S
from . import coloured_lines as C
from . import patterns

MAX_LOW = 400


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def heads_of(pats) -> Optional[tuple[int, tuple]]:
    """(g, per head (g_h, its jumps, its cyclic jumps)) or None when a part is outside the theorem."""
    out = []
    for p in pats:
        parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
        hubs = 0
        jumps: set[int] = set()
        cyclic: set[int] = set()
        for q in parts:
            if isinstance(q, S.Star):
                hubs = max(hubs, 1)
            elif isinstance(q, S.Global) and _int(q.g) is not None:
                hubs = max(hubs, int(q.g))
            elif isinstance(q, S.Dilated) and _int(q.w) is not None and _int(q.r) is not None:
                jumps |= {k * int(q.r) for k in range(-int(q.w), int(q.w) + 1)}
            elif isinstance(q, S.Offsets) and all(_int(x) is not None for x in q.offsets):
                (cyclic if q.cyclic else jumps).update(int(x) for x in q.offsets)
            elif isinstance(q, S.Blocks) and _int(q.b) == 1:
                continue
            else:
                return None
        out.append((hubs, frozenset(jumps - {0}), frozenset(cyclic - {0})))
    return max(h for h, _, _ in out), tuple(out)


def _arc(j: int, i: int, heads, n: int) -> int:
    if i == j:
        return 0
    return sum(1 << k for k, (hubs, jumps, cyclic) in enumerate(heads)
               if i <= hubs or j <= hubs or j - i in jumps or any((j - i - a) % n == 0 for a in cyclic))


def _connected_from(scaled: tuple) -> Optional[int]:
    span = C._setting(scaled)[0]
    least = min(abs(s) for _, jumps in scaled for s in jumps)
    for length in range(least, 4 * C.MAX_SPAN + 2):
        seen, todo = {1}, [1]
        while todo:
            v = todo.pop()
            for u in C._near(v, scaled, span, 1, length):
                if u not in seen:
                    seen.add(u)
                    todo.append(u)
        if len(seen) == length:
            return length
    return None


def restated(g: int, heads: tuple) -> Optional[dict]:
    """The theorem's data: m, J, a = 2, L_c, L_Λ, N; None outside it."""
    jumps = [abs(s) for _, js, cs in heads for s in js | cs]
    if not 1 <= g <= C.MAX_HUBS or not jumps or any(abs(s) > g for _, _, cs in heads for s in cs):
        return None
    m = 0
    for s in jumps:
        m = gcd(m, s)
    span = max(jumps)
    if m < 2 or span > C.MAX_SPAN:
        return None
    scaled = tuple(((), frozenset(s // m for s in js | cs)) for _, js, cs in heads)
    line = C.proved(0, scaled)
    conn = _connected_from(scaled)
    if line is None or conn is None:
        return None
    _, period, mirror = C._setting(scaled)
    low = max(g + 2 * span + 2, g + m * max(conn, line, 2 * span + 2))
    return {"m": m, "span": span, "reversible": mirror is not None and period == 1, "connected from": conn,
            "line from": line, "proved from": low}


def _at(r: int, k: int, side: int, n: int, g: int, m: int) -> int:
    """The k-th position of the class of g + 1 + r in g + 1..n from its left (side 1) or right end; 0 past it."""
    seg = list(range(g + 1 + r, n + 1, m))
    return 0 if k >= len(seg) else seg[k] if side > 0 else seg[-1 - k]


def _pair(x: int, y: int, heads, n: int) -> tuple[int, int]:
    return (_arc(x, y, heads, n), _arc(y, x, heads, n)) if y else (-1, -1)


def _plain(n: int, g: int, heads, mine: dict) -> list:
    span, m = mine["span"], mine["m"]
    far = g + 2 * span + 2 + m if n >= 2 * (g + 2 * span + 2 + m) else g + 1 + (n - g) // 2
    return [_pair(x, far, heads, n) for x in range(1, g + 1)]


def attached(n: int, g: int, heads, mine: dict) -> list:
    """The classes with a position among the first J + 1 from either end whose colours with a hub are not plain."""
    plain, m = _plain(n, g, heads, mine), mine["m"]
    return [r for r in range(m) if any(_pair(x, y, heads, n) != plain[x - 1] for k in range(mine["span"] + 1)
                                       for side in (1, -1) for x in range(1, g + 1)
                                       for y in [_at(r, k, side, n, g, m)] if y)]


def _lengths(n: int, g: int, m: int) -> list[int]:
    return [len(range(g + 1 + r, n + 1, m)) for r in range(m)]


def hub_maps(n: int, g: int, heads, mine: dict, stuck: list) -> list:
    """[π, τ, ε]: π on the hubs keeping their arcs and plain colours, τ on the attached classes of equal length, each in
    order (ε = 1) or reversed (ε = −1, a = 2), keeping the colours with the hubs of both ends' first J + 1 positions."""
    m, span = mine["m"], mine["span"]
    lengths = _lengths(n, g, m)
    plain = _plain(n, g, heads, mine)
    out = []
    for pi in permutations(range(1, g + 1)):
        if any(_arc(x, y, heads, n) != _arc(pi[x - 1], pi[y - 1], heads, n) for x in range(1, g + 1)
               for y in range(1, g + 1)) or any(plain[x - 1] != plain[pi[x - 1] - 1] for x in range(1, g + 1)):
            continue
        for images in permutations(stuck):
            tau = dict(zip(stuck, images))
            if not all(lengths[r] == lengths[tau[r]] for r in stuck):
                continue
            options = [[e for e in ((1, -1) if mine["reversible"] else (1,)) if all(
                _pair(x, _at(r, k, side, n, g, m), heads, n) == _pair(pi[x - 1], _at(tau[r], k, side * e, n, g, m),
                                                                      heads, n)
                for k in range(span + 1) for side in (1, -1) for x in range(1, g + 1))] for r in stuck]
            for chosen in product(*options):
                eps = dict(zip(stuck, chosen))
                out.append([list(pi), [tau.get(r, r) for r in range(m)], [eps.get(r, 1) for r in range(m)]])
    return sorted(out)


def unattached(n: int, g: int, mine: dict, stuck: list) -> list:
    m = mine["m"]
    lengths = _lengths(n, g, m)
    return [[r for r in range(m) if r not in stuck and lengths[r] == length]
            for length in sorted(set(lengths), reverse=True)]


def class_order(hubs: list, loose: list, reversible: bool) -> int:
    out = len(hubs)
    for group in loose:
        out *= (2 ** len(group) if reversible else 1) * factorial(len(group))
    return out


def _image(pi, tau, signs, n: int, g: int, m: int) -> list[int]:
    return list(pi) + [_at(tau[(p - g - 1) % m], (p - g - 1) // m, signs[(p - g - 1) % m], n, g, m) or p
                       for p in range(g + 1, n + 1)]


def _generators(hubs: list, loose: list, n: int, g: int, mine: dict) -> list[list[int]]:
    m = mine["m"]
    out = [_image(pi, tau, signs, n, g, m) for pi, tau, signs in hubs]
    for group in loose:
        for a, b in zip(group, group[1:]):
            tau = list(range(m))
            tau[a], tau[b] = b, a
            out.append(_image(range(1, g + 1), tau, [1] * m, n, g, m))
        if mine["reversible"] and group:
            seg = list(range(g + 1 + group[0], n + 1, m))
            img = list(range(1, n + 1))
            for p, q in zip(seg, reversed(seg)):
                img[p - 1] = q
            out.append(img)
    return out


def _exact(pats, n: int, g: int, heads, mine: dict, cls: tuple, order: int) -> bool:
    """At n: the class's attached classes, hub maps and unattached classes are those at n, its generators keep every
    head's arcs and generate a group of the class's order, which is nauty's order of the coloured union."""
    from . import groups
    stuck, hubs, loose = cls
    if attached(n, g, heads, mine) != stuck or hub_maps(n, g, heads, mine, stuck) != hubs \
            or unattached(n, g, mine, stuck) != loose:
        return False
    arcs = [patterns.head_arcs(p, n) for p in pats]
    gens = _generators(hubs, loose, n, g, mine)
    if any(sorted(p) != list(range(1, n + 1)) or not all(all((p[j - 1], p[i - 1]) in a for (j, i) in a) for a in arcs)
           for p in gens):
        return False
    full, _ = groups.full_order(patterns.head_labels(arcs), n, "none")
    return full is not None and groups.order(gens, n) == order == full


def group_check(ctx, s) -> tuple[str, str]:
    """SYM-AUT by Theorem F187 (a certificate of kind "split line heads") on one class of n mod m."""
    from .check import Reject
    spec = ctx.spec
    if spec.positional != "none" or any(h.bias for h in spec.heads):
        raise Reject("Theorem F187 is for unbiased heads without a positional encoding")
    cert = s.get("certificate") or {}
    pats = list(dict.fromkeys(h.pattern for h in spec.heads))
    got = heads_of(pats)
    if got is None or len(pats) < 2:
        raise Reject("Theorem F187: a head has a part outside dilated, non-cyclic offsets and hubs")
    g, heads = got
    mine = _setting_checked(cert, g, heads)
    return _class_check(ctx, s, cert, pats, g, heads, mine)


def _setting_checked(cert: dict, g: int, heads) -> dict:
    """The verifier's m, a, L_c, L_Λ, attached classes and N, equal to the certificate's."""
    from .check import Reject
    mine = restated(g, heads)
    if mine is None:
        raise Reject("Theorem F187: the verifier's restatement does not hold for these heads")
    for key, theirs in (("m", cert.get("modulus")), ("reversible", cert.get("reversible")),
                        ("connected from", cert.get("connected from")), ("line from", cert.get("line from")),
                        ("proved from", cert.get("proved from"))):
        if mine[key] != theirs:
            raise Reject(f"Theorem F187: {key} is the verifier's {mine[key]!r}, not the certificate's {theirs!r}")
    if cert.get("hubs") != g:
        raise Reject(f"Theorem F187: the hubs are 1..{g}, not the certificate's {cert.get('hubs')}")
    if mine["proved from"] > MAX_LOW:
        raise Reject(f"Theorem F187: N = {mine['proved from']} is beyond the verifier's bound")
    return mine


MAX_NAMED_DEGREE = 100  # a name's S_u with u beyond this is not read (u is at most the modulus m here)


def name_order(name) -> Optional[int]:
    """The order a class's name states, factor by factor (" × "): "trivial" 1, "C_2 ≀ S_u …" 2^u·u!, "C_2 …" 2,
    "S_u …" u! (the names of §11.11, Theorem F187's *Names*); None when a factor is none of these (the words are
    then not read). The words beyond the order are not compared (§18.5): the report names them."""
    if not isinstance(name, str):
        return None
    out = 1
    for factor in name.split(" × "):
        factor = factor.strip("()")
        wreath = re.match(r"C_2 ≀ S_(\d+)\b", factor)
        sym = re.match(r"S_(\d+)\b", factor)
        found = wreath or sym
        u = int(found.group(1)) if found is not None else 0
        if factor == "trivial":
            continue
        if u > MAX_NAMED_DEGREE:
            return None
        if wreath:
            out *= 2 ** u * factorial(u)
        elif re.match(r"C_2\b", factor):
            out *= 2
        elif sym:
            out *= factorial(u)
        else:
            return None
    return out


def _class_check(ctx, s, cert: dict, pats, g: int, heads, mine: dict) -> tuple[str, str]:
    """The class's group re-derived at its length from N, its order, and every length below checked."""
    from .check import VERIFIED, Reject, Trust
    m = mine["m"]
    cls = cert.get("class") or {}
    residue, start = int(cls.get("residue", -1)), int(cls.get("from", 0))
    stuck = [int(r) for r in cls.get("attached") or []]
    hubs = sorted([[int(x) for x in pi], [int(x) for x in tau], [int(x) for x in sg]]
                  for pi, tau, sg in cls.get("hub maps") or [])
    loose = [[int(r) for r in grp] for grp in cls.get("unattached") or []]
    data = s.get("data") or {}
    if "residues" in data and any(int(r) % m != residue for r in data["residues"]) or int(data.get("modulus", m)) % m:
        raise Reject(f"Theorem F187: the step's classes are not n ≡ {residue} (mod {m})")
    if not 0 <= residue < m:
        raise Reject(f"Theorem F187: the class {residue} is not a residue mod {m}")
    rep = mine["proved from"] + (residue - mine["proved from"]) % m
    if attached(rep, g, heads, mine) != stuck or hub_maps(rep, g, heads, mine, stuck) != hubs \
            or unattached(rep, g, mine, stuck) != loose:
        raise Reject(f"Theorem F187: at n = {rep} the attached classes, hub maps or unattached classes are not the "
                     f"certificate's")
    order = class_order(hubs, loose, mine["reversible"])
    for stated in (data.get("order"), cert.get("order")):
        if stated is not None and int(stated) != order:
            raise Reject(f"Theorem F187: the order {stated} is not the class's, {order}")
    named = name_order(data.get("name"))
    if named is not None and named != order:
        raise Reject(f"Theorem F187: the name {str(data.get('name'))[:80]!r} states a group of order {named}, the "
                     f"class's has {order}")
    if start < g + 2 * mine["span"] + 2 or start % m != residue:
        raise Reject(f"Theorem F187: the class's bound {start} is not a length of the class above g + 2J + 1")
    for n in range(start, rep, m):
        if not _exact(pats, n, g, heads, mine, (stuck, hubs, loose), order):
            raise Reject(f"Theorem F187: at n = {n} the class's group is not the heads' group")
    length = cert.get("n")
    if length is not None:
        if not isinstance(length, int) or length < start or length % m != residue:
            raise Reject(f"Theorem F187: n = {length} is not a length of the class")
        if ctx.spec.tokens != length:
            raise Trust("Theorem F187 at a concrete length other than the file's")
    return VERIFIED, (f"the verifier's Theorem F187 (§11.11): the line falls apart into the classes mod {m}, each a "
                      f"scaled line connected from length {mine['connected from']} with Theorem F180's bound "
                      f"{mine['line from']}, from n = {mine['proved from']}; the class n ≡ {residue} (mod {m}) has "
                      f"order {order}, re-derived at n = {rep} and checked exactly at n = {start}..{rep - m} (nauty)")
