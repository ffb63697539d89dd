"""Theorem F187 (docs/theory.md §11.11), restated for the verifier: several heads made of non-cyclic `dilated` and
`offsets` parts and `global`/`star` hubs whose line falls apart into the classes mod m, m the gcd of every jump. The
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

from itertools import permutations
from math import factorial, gcd
from typing import Optional

from .. import spec as S
from . import coloured_lines as C
from . import patterns

MAX_LOW = 400


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def heads_of(pats) -> Optional[tuple[int, tuple]]:
    """(g, per head (g_h, its jumps)) or None when a part is outside the theorem."""
    out = []
    for p in pats:
        parts = list(p.parts) if isinstance(p, S.PatternUnion) else [p]
        hubs, jumps = 0, set()
        for q in parts:
            if isinstance(q, S.Star):
                hubs = max(hubs, 1)
            elif isinstance(q, S.Global) and _int(q.g) is not None:
                hubs = max(hubs, int(q.g))
            elif isinstance(q, S.Dilated) and _int(q.w) is not None and _int(q.r) is not None:
                jumps |= {k * int(q.r) for k in range(-int(q.w), int(q.w) + 1)}
            elif isinstance(q, S.Offsets) and not q.cyclic and all(_int(x) is not None for x in q.offsets):
                jumps |= {int(x) for x in q.offsets}
            elif isinstance(q, S.Blocks) and _int(q.b) == 1:
                continue
            else:
                return None
        out.append((hubs, frozenset(jumps - {0})))
    return max(h for h, _ in out), tuple(out)


def _arc(j: int, i: int, heads) -> int:
    if i == j:
        return 0
    return sum(1 << k for k, (hubs, jumps) in enumerate(heads) if i <= hubs or j <= hubs or j - i in jumps)


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
    """The theorem's data: m, J, a = 2, L_c, L_Λ, the attached classes, N; None outside it."""
    jumps = [abs(s) for _, js in heads for s in js]
    if not 1 <= g <= C.MAX_HUBS or not jumps:
        return None
    m = 0
    for s in jumps:
        m = gcd(m, s)
    span = max(jumps)
    if m < 2 or span > C.MAX_SPAN:
        return None
    scaled = tuple(((), frozenset(s // m for s in js)) for _, js in heads)
    line = C.proved(0, scaled)
    conn = _connected_from(scaled)
    if line is None or conn is None:
        return None
    _, period, mirror = C._setting(scaled)
    far = g + span + 1 + m
    plain = [(_arc(x, far, heads), _arc(far, x, heads)) for x in range(1, g + 1)]
    stuck = [r for r in range(m) if any((_arc(x, g + 1 + r + k * m, heads), _arc(g + 1 + r + k * m, x, heads))
                                        != plain[x - 1] for k in range(span + 1) for x in range(1, g + 1))]
    low = max(g + 2 * span + 2, g + m * max(conn, line, 2 * span + 1))
    return {"m": m, "span": span, "reversible": mirror is not None and period == 1, "connected from": conn,
            "line from": line, "attached": stuck, "proved from": low}


def _lengths(n: int, g: int, m: int) -> list[int]:
    return [len(range(g + 1 + r, n + 1, m)) for r in range(m)]


def hub_maps(n: int, g: int, heads, mine: dict) -> list:
    m, span, stuck = mine["m"], mine["span"], mine["attached"]
    lengths = _lengths(n, g, m)
    far = g + span + 1 + m
    out = []
    for pi in permutations(range(1, g + 1)):
        if any(_arc(x, y, heads) != _arc(pi[x - 1], pi[y - 1], heads) for x in range(1, g + 1)
               for y in range(1, g + 1)) or any(
                (_arc(x, far, heads), _arc(far, x, heads)) != (_arc(pi[x - 1], far, heads), _arc(far, pi[x - 1], heads))
                for x in range(1, g + 1)):
            continue
        for images in permutations(stuck):
            tau = dict(zip(stuck, images))
            if all(lengths[r] == lengths[tau[r]] for r in stuck) and all(
                    _arc(x, g + 1 + r + k * m, heads) == _arc(pi[x - 1], g + 1 + tau[r] + k * m, heads)
                    and _arc(g + 1 + r + k * m, x, heads) == _arc(g + 1 + tau[r] + k * m, pi[x - 1], heads)
                    for r in stuck for k in range(span + 1) for x in range(1, g + 1)):
                out.append([list(pi), [tau.get(r, r) for r in range(m)]])
    return sorted(out)


def unattached(n: int, g: int, mine: dict) -> list:
    m = mine["m"]
    lengths = _lengths(n, g, m)
    return [[r for r in range(m) if r not in mine["attached"] and lengths[r] == length]
            for length in sorted(set(lengths), reverse=True)]


def class_order(hubs: list, loose: list, reversible: bool) -> int:
    out = len(hubs)
    for group in loose:
        out *= (2 ** len(group) if reversible else 1) * factorial(len(group))
    return out


def _image(pi, tau, n: int, g: int, m: int) -> list[int]:
    return list(pi) + [p - (p - g - 1) % m + tau[(p - g - 1) % m] for p in range(g + 1, n + 1)]


def _generators(hubs: list, loose: list, n: int, g: int, mine: dict) -> list[list[int]]:
    m = mine["m"]
    out = [_image(pi, tau, n, g, m) for pi, tau in hubs]
    for group in loose:
        for a, b in zip(group, group[1:]):
            tau = list(range(m))
            tau[a], tau[b] = b, a
            out.append(_image(range(1, g + 1), tau, n, g, m))
        if mine["reversible"] and group:
            seg = list(range(g + 1 + group[0], n + 1, m))
            img = list(range(1, n + 1))
            for p, q in zip(seg, reversed(seg)):
                img[p - 1] = q
            out.append(img)
    return out


def _exact(pats, n: int, g: int, heads, mine: dict, hubs: list, loose: list, order: int) -> bool:
    """At n: the class's hub maps and unattached classes are those at n, its generators keep every head's arcs and
    generate a group of the class's order, which is nauty's order of the coloured union."""
    from . import groups
    if hub_maps(n, g, heads, mine) != hubs or unattached(n, g, mine) != loose:
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
                        ("attached", cert.get("attached")), ("proved from", cert.get("proved from"))):
        if mine[key] != theirs:
            raise Reject(f"Theorem F187: {key} is the verifier's {mine[key]!r}, not the certificate's {theirs!r}")
    if cert.get("hubs") != g:
        raise Reject(f"Theorem F187: the hubs are 1..{g}, not the certificate's {cert.get('hubs')}")
    if mine["proved from"] > MAX_LOW:
        raise Reject(f"Theorem F187: N = {mine['proved from']} is beyond the verifier's bound")
    return mine


def _class_check(ctx, s, cert: dict, pats, g: int, heads, mine: dict) -> tuple[str, str]:
    """The class's group re-derived at its length from N, its order, and every length below checked."""
    from .check import VERIFIED, Reject, Trust
    m = mine["m"]
    cls = cert.get("class") or {}
    residue, start = int(cls.get("residue", -1)), int(cls.get("from", 0))
    hubs = sorted([[int(x) for x in pi], [int(x) for x in tau]] for pi, tau in cls.get("hub maps") or [])
    loose = [[int(r) for r in grp] for grp in cls.get("unattached") or []]
    data = s.get("data") or {}
    if "residues" in data and any(int(r) % m != residue for r in data["residues"]) or int(data.get("modulus", m)) % m:
        raise Reject(f"Theorem F187: the step's classes are not n ≡ {residue} (mod {m})")
    if not 0 <= residue < m:
        raise Reject(f"Theorem F187: the class {residue} is not a residue mod {m}")
    rep = mine["proved from"] + (residue - mine["proved from"]) % m
    if hub_maps(rep, g, heads, mine) != hubs or unattached(rep, g, mine) != loose:
        raise Reject(f"Theorem F187: at n = {rep} the hub maps or the unattached classes are not the certificate's")
    order = class_order(hubs, loose, mine["reversible"])
    for stated in (data.get("order"), cert.get("order")):
        if stated is not None and int(stated) != order:
            raise Reject(f"Theorem F187: the order {stated} is not the class's, {order}")
    if start < g + 2 * mine["span"] + 2 or start % m != residue:
        raise Reject(f"Theorem F187: the class's bound {start} is not a length of the class above g + 2J + 1")
    for n in range(start, rep, m):
        if not _exact(pats, n, g, heads, mine, hubs, loose, order):
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
