"""Several heads made of non-cyclic `dilated` and `offsets` parts with `global(g)` / `star` hubs whose line falls apart
into residue classes, at symbolic n: Theorem F187 of docs/theory.md §11.11.

Every head's line part is a jump set S_h (no blocks, no window: both join neighbours), and m = gcd of every jump of
every head is at least 2. Then the heads' arc-coloured union on Y = {g + 1, …, n} is the disjoint union of m
*segments*, the classes of g + 1, …, g + m mod m, each a copy of Λ_L: the coloured union of the scaled jump sets
S_h / m on 1..L, L = ⌈(n − g − r)/m⌉ for the class of g + 1 + r. From the scaled line's own certificates

* Λ_L is connected for every L ≥ L_c (the least L ≥ the least scaled jump at which it is: adding L + 1 keeps it so);
* every automorphism of Λ_L is the identity or the reversal for L ≥ L_Λ (Theorem F180 on the scaled heads, no hubs),
  and the reversal is one exactly when every scaled jump set is symmetric (a = 2, else a = 1),

so every automorphism of Γ_Y permutes the segments of equal length, each moved in order or reversed. A segment is
*attached* when a hub has, in some head, an arc to or from one of its positions other than that head's hub arcs (only
positions within J of the hubs can). From N on (Fact 1 of F180, every segment at least max(L_c, L_Λ, 2J + 1) long) the
heads' group is H × ∏_L (the a^u · u! maps of the u unattached segments of length L), H the pairs (π on the hubs, an
exchange of attached segments of equal length, in order) that keep the arcs touching the hubs: a finite group, the same
on every class of n mod m. Below N a class's lengths are checked one by one (the class's generators keep every head's
arcs, and the group they generate has the class's order and the coloured union's, BLISS).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations, product
from math import factorial, gcd
from typing import Mapping, Optional, Sequence

import sympy

from ..spec import Pattern
from . import coloured_lines as CL
from .closed_forms import _atoms, _is_int, _merge, _Undecided
from .residue_exchanging_unions import cycle_notation

SECTION = "docs/theory.md §11.11, Theorem F187"
GROUP_KIND = "split line heads"
MAX_LOW = 400


@dataclass(frozen=True)
class SplitHead:
    """One head: its hub count g_h (0 without hubs), its jump set and its cyclic jumps (each at most g in size)."""
    hubs: int
    jumps: frozenset
    cyclic: frozenset = frozenset()


@dataclass(frozen=True)
class SplitClass:
    residue: int                         # n mod m
    low: int                             # the least length of the class's range
    attached: tuple                      # the attached segments r (the class of g + 1 + r)
    hub_maps: tuple                      # H: (π on 1..g, τ the image of each segment 0..m − 1, ε each one's sign)
    unattached: tuple                    # per segment length (long, short): the unattached segments r
    order: int


@dataclass(frozen=True)
class SplitLines:
    hubs: int                            # g
    heads: tuple                         # SplitHead per distinct head
    modulus: int                         # m
    span: int                            # J
    reversible: bool                     # a = 2: the reversal of a segment keeps its colours
    connected_from: int                  # L_c
    line_from: int                       # L_Λ (Theorem F180 on the scaled heads)
    proved_low: int                      # N
    classes: tuple                       # SplitClass by residue of n mod m


# ---------------------------------------------------------------------------------------------
# The heads

def split_heads(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, tuple[SplitHead, ...]]]:
    """(g, the heads) when every head is made of dilated and offsets parts (cyclic ones too) and hubs with integer sizes
    (blocks(1) adds nothing); None otherwise."""
    heads = []
    for pattern in patterns:
        try:
            atoms = _merge(_atoms(pattern, params))
        except (_Undecided, KeyError, TypeError, ValueError):
            return None
        hubs, jumps, cyclic = 0, set(), set()
        for a in atoms:
            if not all(_is_int(x) for x in a.args):
                return None
            args = [int(x) for x in a.args]
            if a.kind == "global":
                hubs = max(hubs, args[0])
            elif a.kind == "dilated":
                jumps |= {k * args[1] for k in range(-args[0], args[0] + 1)}
            elif a.kind == "offsets":
                jumps |= set(args)
            elif a.kind == "coffsets":
                cyclic |= set(args)
            elif not (a.kind == "blocks" and args[0] == 1):
                return None
        heads.append(SplitHead(hubs, frozenset(jumps - {0}), frozenset(cyclic - {0})))
    g = max(h.hubs for h in heads)
    return g, tuple(heads)


def arc(j: int, i: int, heads: Sequence[SplitHead], n: int) -> int:
    """The arc j → i of the union at n (hub arcs, jumps, cyclic jumps) as a bit set of heads (0: no arc)."""
    if i == j:
        return 0
    out = 0
    for k, h in enumerate(heads):
        if i <= h.hubs or j <= h.hubs or j - i in h.jumps or any((j - i - a) % n == 0 for a in h.cyclic):
            out |= 1 << k
    return out


def _scaled(heads: Sequence[SplitHead], m: int) -> tuple:
    return tuple(CL.LineHead((), frozenset(s // m for s in h.jumps | h.cyclic)) for h in heads)


def _connected_segment(scaled: tuple, length: int) -> bool:
    """Λ_L (the scaled union on 1..L) is connected, directions forgotten."""
    span = CL.span_of(scaled)
    seen, todo = {1}, [1]
    while todo:
        v = todo.pop()
        for d in range(-span, span + 1):
            u = v + d
            if 1 <= u <= length and u not in seen and (CL.colour(u, v, scaled) or CL.colour(v, u, scaled)):
                seen.add(u)
                todo.append(u)
    return len(seen) == length


def connected_from(scaled: tuple) -> Optional[int]:
    """L_c: the least L ≥ the least scaled jump with Λ_L connected (then every longer one is: the new last position
    has an arc to L + 1 − s ≥ 1)."""
    least = min(abs(s) for h in scaled for s in h.jumps)
    for length in range(least, 4 * CL.MAX_SPAN + 2):
        if _connected_segment(scaled, length):
            return length
    return None


def line_from(scaled: tuple) -> Optional[tuple[int, bool]]:
    """(L_Λ, a = 2): Theorem F180's bound on the scaled heads without hubs (every automorphism of Λ_L the identity or
    the reversal from there), and whether the reversal keeps the colours."""
    span = CL.span_of(scaled)
    if span > CL.MAX_SPAN:
        return None
    period = CL.least_period(scaled, span)
    mirror = CL.mirror_of(scaled, period, span)
    for radius in range(1, CL.MAX_RADIUS + 1):
        low = CL.certificate(0, scaled, span, period, mirror, radius)
        if low is not None:
            return low, mirror is not None and period == 1
    return None


# ---------------------------------------------------------------------------------------------
# The segments and their maps at one length

def segment(r: int, n: int, g: int, m: int) -> list[int]:
    """The positions of the class of g + 1 + r mod m in {g + 1, …, n}, in order."""
    return list(range(g + 1 + r, n + 1, m))


def _position(r: int, k: int, side: int, n: int, g: int, m: int) -> int:
    """The k-th position of segment r from its left end (side 1) or its right end (side −1); 0 when the segment is
    shorter (below the range, where a length is checked one by one)."""
    seg = range(g + 1 + r, n + 1, m)
    if k >= len(seg):
        return 0
    return seg[k] if side > 0 else seg[len(seg) - 1 - k]


def _colours(x: int, y: int, heads, n: int) -> tuple[int, int]:
    return (arc(x, y, heads, n), arc(y, x, heads, n)) if y else (-1, -1)


def _far(g: int, span: int, m: int, n: int) -> int:
    """A position of Y farther than J from the hubs and from n's end (its colours with the hubs are plain)."""
    return g + 2 * span + 2 + m if n >= 2 * (g + 2 * span + 2 + m) else g + 1 + (n - g) // 2


def attached(n: int, g: int, m: int, span: int, heads) -> tuple:
    """The segments with a position within J + 1 of one of their ends whose colours with a hub are not the plain ones
    (every position's far from the hubs and, with cyclic jumps, from n)."""
    far = _far(g, span, m, n)
    plain = [_colours(x, far, heads, n) for x in range(1, g + 1)]
    return tuple(r for r in range(m) if any(_colours(x, p, heads, n) != plain[x - 1]
                                            for k in range(span + 1) for side in (1, -1) for x in range(1, g + 1)
                                            for p in [_position(r, k, side, n, g, m)] if p))


def _lengths(n: int, g: int, m: int) -> list[int]:
    return [len(segment(r, n, g, m)) for r in range(m)]


def _ends_kept(pi: tuple, r: int, r2: int, sign: int, n: int, g: int, m: int, span: int, heads) -> bool:
    """Segment r onto segment r2 (in order, or reversed for sign −1) keeps the colours between the hubs and both
    ends' first J + 1 positions, with π on the hubs."""
    return all(_colours(x, _position(r, k, side, n, g, m), heads, n)
               == _colours(pi[x - 1], _position(r2, k, side * sign, n, g, m), heads, n)
               for k in range(span + 1) for side in (1, -1) for x in range(1, g + 1))


def hub_maps(n: int, g: int, m: int, span: int, heads, stuck: tuple, reversible: bool) -> tuple:
    """H at n: (π, τ, ε) with π a permutation of the hubs keeping the arcs among them and every hub's plain colours,
    τ a permutation of the attached segments among those of equal length, each moved in order (ε = 1) or reversed
    (ε = −1, when a = 2), keeping every arc between a hub and the first J + 1 positions of either end of a segment."""
    lengths = _lengths(n, g, m)
    far = _far(g, span, m, n)
    out = []
    signs = (1, -1) if reversible else (1,)
    for pi in permutations(range(1, g + 1)):
        if any(arc(x, y, heads, n) != arc(pi[x - 1], pi[y - 1], heads, n) for x in range(1, g + 1)
               for y in range(1, g + 1)):
            continue
        if any(_colours(x, far, heads, n) != _colours(pi[x - 1], far, heads, n) for x in range(1, g + 1)):
            continue
        for images in permutations(stuck):
            tau = dict(zip(stuck, images))
            if any(lengths[r] != lengths[tau[r]] for r in stuck):
                continue
            options = [[e for e in signs if _ends_kept(pi, r, tau[r], e, n, g, m, span, heads)] for r in stuck]
            for chosen in product(*options):
                eps = dict(zip(stuck, chosen))
                out.append((tuple(pi), tuple(tau.get(r, r) for r in range(m)), tuple(eps.get(r, 1) for r in range(m))))
    return tuple(sorted(out))


def unattached_by_length(n: int, g: int, m: int, stuck: tuple) -> tuple:
    """The unattached segments grouped by length, longer first (two lengths at most)."""
    lengths = _lengths(n, g, m)
    out = []
    for length in sorted(set(lengths), reverse=True):
        out.append(tuple(r for r in range(m) if r not in stuck and lengths[r] == length))
    return tuple(out)


def class_order(hubs_group: tuple, unattached: tuple, reversible: bool) -> int:
    out = len(hubs_group)
    for group in unattached:
        out *= (2 ** len(group) if reversible else 1) * factorial(len(group))
    return out


def _image(pi: tuple, tau: tuple, n: int, g: int, m: int, signs: Optional[tuple] = None) -> tuple[int, ...]:
    """The map π on the hubs and segment r onto segment τ(r), in order (or reversed where signs[r] = −1), at n."""
    img = list(pi)
    for p in range(g + 1, n + 1):
        r = (p - g - 1) % m
        k = (p - g - 1) // m
        img.append(_position(tau[r], k, 1 if signs is None else signs[r], n, g, m) or p)
    return tuple(img)


def generators(c: SplitClass, n: int, g: int, m: int, reversible: bool) -> list[tuple[int, ...]]:
    """The class's group at n as permutations of 1..n: H's maps, exchanges of neighbouring unattached segments of
    equal length, and (a = 2) the reversal of one of them."""
    ident = tuple(range(m))
    if any(len(segment(r, n, g, m)) != len(segment(tau[r], n, g, m)) for _, tau, _ in c.hub_maps for r in range(m)):
        return []
    out = [_image(pi, tau, n, g, m, signs) for pi, tau, signs in c.hub_maps]
    hub_id = tuple(range(1, g + 1))
    lengths = _lengths(n, g, m)
    for group in c.unattached:
        if not group or any(lengths[r] != lengths[group[0]] for r in group):
            continue
        for a, b in zip(group, group[1:]):
            tau = list(ident)
            tau[a], tau[b] = b, a
            out.append(_image(hub_id, tuple(tau), n, g, m))
        if reversible:
            seg = segment(group[0], n, g, m)
            img = list(range(1, n + 1))
            for p, q in zip(seg, reversed(seg)):
                img[p - 1] = q
            out.append(tuple(img))
    return out


def holds_at(patterns: Sequence[Pattern], params: Mapping, n: int, c: SplitClass, found: tuple) -> bool:
    """At n (g, m, J, the heads, the attached segments and a = 2 in `found`) the class's hub maps and unattached
    segments are H's and the segments' at n, its generators keep every head's arcs, and they generate a group of the
    class's order, which is the coloured union's (BLISS): then they generate G."""
    from sympy.combinatorics import Permutation, PermutationGroup

    from .head_intersection import _graph_codes, keeps
    g, m, span, heads, reversible = found
    if attached(n, g, m, span, heads) != c.attached or unattached_by_length(n, g, m, c.attached) != c.unattached \
            or hub_maps(n, g, m, span, heads, c.attached, reversible) != c.hub_maps:
        return False
    codes = [_graph_codes(p, n, params) for p in patterns]
    gens = generators(c, n, g, m, reversible)
    if not gens and c.order > 1 or any(sorted(p) != list(range(1, n + 1)) or not all(keeps(p, cd, n) for cd in codes) for p in gens):
        return False
    group = PermutationGroup([Permutation([x - 1 for x in p]) for p in gens] or [Permutation(list(range(n)))])
    return int(group.order()) == c.order == CL._coloured_union_order(patterns, n, params)


# ---------------------------------------------------------------------------------------------
# The decision

def _class_at(n: int, g: int, m: int, span: int, heads, reversible: bool, low: int) -> SplitClass:
    stuck = attached(n, g, m, span, heads)
    hubs_group = hub_maps(n, g, m, span, heads, stuck, reversible)
    loose = unattached_by_length(n, g, m, stuck)
    return SplitClass(n % m, low, stuck, hubs_group, loose, class_order(hubs_group, loose, reversible))


def _decide(patterns: tuple, params_items: tuple) -> Optional[SplitLines]:
    params = dict(params_items)
    got = split_heads(patterns, params)
    if got is None:
        return None
    g, heads = got
    jumps = [abs(s) for h in heads for s in h.jumps | h.cyclic]
    if not 1 <= g <= CL.MAX_HUBS or not jumps or any(abs(s) > g for h in heads for s in h.cyclic):
        return None  # a cyclic jump longer than the hubs would join the two ends of Y
    m = 0
    for s in jumps:
        m = gcd(m, s)
    span = max(jumps)
    if m < 2 or span > CL.MAX_SPAN:
        return None
    scaled = _scaled(heads, m)
    conn = connected_from(scaled)
    line = line_from(scaled)
    if conn is None or line is None:
        return None
    line_low, reversible = line
    low = max(g + 2 * span + 2, g + m * max(conn, line_low, 2 * span + 2))
    if low > MAX_LOW:
        return None
    floor_ = max(CL.ONSET_FLOOR, g + 2 * span + 2)
    classes = []
    for rho in range(m):
        rep = low + (rho - low) % m
        c = _class_at(rep, g, m, span, heads, reversible, rep)
        if c != _class_at(rep + m, g, m, span, heads, reversible, rep):
            return None  # cannot happen from N on (the theorem); kept as a guard
        start = rep
        while start - m >= floor_ and holds_at(patterns, params, start - m, c, (g, m, span, heads, reversible)):
            start -= m
        classes.append(SplitClass(rho, start, c.attached, c.hub_maps, c.unattached, c.order))
    return SplitLines(g, heads, m, span, reversible, conn, line_low, low, tuple(classes))


_CACHE: dict = {}


def decide(patterns: Sequence[Pattern], params: Mapping) -> Optional[SplitLines]:
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    k = (tuple(patterns), ints)
    if k not in _CACHE:
        _CACHE[k] = _decide(*k)
    return _CACHE[k]


# ---------------------------------------------------------------------------------------------
# Names

def _classes_text(rs: Sequence[int], g: int, m: int) -> str:
    return f"the class{'es' if len(rs) > 1 else ''} of {', '.join(str(g + 1 + r) for r in rs)} mod {m} of " \
           f"{{{g + 1}, …, n}}"


def _hub_words(pi: tuple, tau: tuple, signs: tuple, g: int, m: int) -> str:
    parts = []
    hub = cycle_notation([x - 1 for x in pi], lambda x: str(x + 1))
    if hub:
        parts.append(f"{hub} on the hubs")
    moved = cycle_notation(tau, lambda r: str(g + 1 + r))
    flipped = [r for r in range(m) if signs[r] < 0]
    if moved:
        how = "each moved in order" if not flipped else \
            f"those of {', '.join(str(g + 1 + r) for r in flipped)} reversed, the others in order"
        parts.append(f"{moved} on the classes mod {m} of {{{g + 1}, …, n}}, {how}")
    elif flipped:
        parts.append(f"the reversal of {_classes_text(flipped, g, m)}")
    return " and ".join(parts)


def describe(found: SplitLines, c: SplitClass) -> Optional[tuple[int, Optional[str], Optional[str]]]:
    """(order, name, structure) of a class's group; None when H has no name here (then the class is not stated)."""
    g, m = found.hubs, found.modulus
    if c.order == 1:
        return 1, "trivial", None
    factors = []
    ident = (tuple(range(1, g + 1)), tuple(range(m)), (1,) * m)
    if len(c.hub_maps) == 2:
        (pi, tau, signs), = [e for e in c.hub_maps if e != ident]
        factors.append(f"C_2 generated by {_hub_words(pi, tau, signs, g, m)}")
    elif len(c.hub_maps) > 2:
        if any((tau, signs) != ident[1:] for _, tau, signs in c.hub_maps):
            return None
        perms = [tuple(x - 1 for x in pi) for pi, _, _ in c.hub_maps]
        orbits: list[list[int]] = []
        seen: set[int] = set()
        for x in range(g):
            if x not in seen:
                orbit = sorted({p[x] for p in perms})
                seen |= set(orbit)
                orbits.append(orbit)
        total = 1
        for o in orbits:
            total *= factorial(len(o))
        if total != len(c.hub_maps):
            return None
        factors += ["S_" + str(len(o)) + " on {" + ", ".join(str(x + 1) for x in o) + "}" for o in orbits if len(o) > 1]
    for group in c.unattached:
        if found.reversible and len(group) == 1:
            factors.append(f"C_2 generated by the reversal of {_classes_text(group, g, m)}")
        elif found.reversible and len(group) > 1:
            factors.append(f"C_2 ≀ S_{len(group)} on {_classes_text(group, g, m)} (each reversed, or exchanged in "
                           f"order)")
        elif len(group) > 1:
            factors.append(f"S_{len(group)} on {_classes_text(group, g, m)}, exchanged in order")
    return c.order, None, " × ".join(factors)


def group_cases(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping) -> Optional[list]:
    """Theorem F187 as one GroupCase per named class of n mod m (n ≥ the class's bound), each carrying
    (GROUP_KIND, the SplitLines, the residue) for its certificate; None outside the theorem."""
    from .closed_forms import GroupCase
    patterns = list(dict.fromkeys(patterns))
    if len(patterns) < 2 or not isinstance(n, sympy.Symbol):
        return None
    found = decide(patterns, params)
    if found is None:
        return None
    out = []
    rule = f"several heads whose line falls apart into the classes mod {found.modulus}: segments exchanged as wholes " \
           f"({SECTION})"
    for c in found.classes:
        named = describe(found, c)
        if named is None:
            continue
        order, name, structure = named
        cond = sympy.And(sympy.Ge(n, c.low), sympy.Eq(sympy.Mod(n, found.modulus), c.residue))
        out.append(GroupCase(cond, sympy.Integer(order), name, None, frozenset(), rule, structure,
                             intersection=(GROUP_KIND, found, c.residue)))
    return out or None
