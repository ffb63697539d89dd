"""Several heads made of `blocks`, non-cyclic `window`, `dilated` and `offsets` parts with `global(g)` / `star` hubs
whose symmetries exchange residue classes, at symbolic n: Theorem F186 of docs/theory.md §11.11 (F122's certificate
on the arc-coloured periodic line of Theorem F180, with the hubs).

Γ_∞, its colours, J, P₀, the hubs X = {1..g}, Y = {g + 1..n} and Γ_Y are F180's (``coloured_lines.py``). A *periodic
symmetry* of period Q (a multiple of P₀) is a colour automorphism α of Γ_∞ with α(p + Q) = α(p) + εQ, ε = ±1; they
form a group A, found up to translation by a search (``symmetries``). F122's certificate, with colours:

* (C1′), (C2′), (C5₀) on the coloured rooted balls β(x) of radius R (x = 1..Q): β(x) ≅ β(y) only when A maps x to y
  (mod Q); |Aut β(x)| = |Stab_A(x)| times the order with the first level pinned; only the identity of A fixes N[x];
* (C6) every position is the only one of Z with its coloured arcs to and from the W positions before it (after it);
* (P) a *patch*: positions joined to 1 by good pairs (U-adjacent u, v with only the identity of A fixing
  N[u] ∩ N[v]) whose closed neighbourhoods cover W consecutive positions;
* (C3) no ball in Γ_Y of a position that is not deep is isomorphic to a β(x), at one length per residue of n mod Q.

Then from N_G on every automorphism of Γ_Y is the restriction of an α ∈ A with α(Y) = Y, and G is the set of the maps
π × α (π ∈ Sym(X)) that keep every head's arcs: a finite set, the same maps (each given by π, ε and the shift of every
residue class) at every n ≥ N_X of a class of n mod Q. Below, the lengths are decided one by one: a length belongs to
the class's range when the class's maps are automorphisms there and as many as the coloured union's group (BLISS).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from math import factorial
from typing import Mapping, Optional, Sequence

import sympy

from ..spec import Pattern
from . import coloured_lines as CL
from .closed_forms import _is_int

SECTION = "docs/theory.md §11.11, Theorem F186"
GROUP_KIND = "residue exchanging heads"
MAX_SEARCH = 200_000       # nodes of the search for the periodic symmetries
MAX_SYMMETRIES = 720       # |A / translations|
MAX_PERIOD = 24            # Q
PATCH_PERIODS = 4
MAX_LOW = 400


@dataclass(frozen=True)
class Symmetry:
    """α(kQ + x) = sign·kQ + images[x − 1] (x = 1..Q), a colour automorphism of Γ_∞."""
    sign: int
    images: tuple[int, ...]

    def __call__(self, p: int) -> int:
        q = len(self.images)
        k, x = divmod(p - 1, q)
        return self.sign * k * q + self.images[x]

    def shifted(self, t: int) -> "Symmetry":
        return Symmetry(self.sign, tuple(a + t for a in self.images))

    def is_identity(self) -> bool:
        return self.sign == 1 and self.images == tuple(range(1, len(self.images) + 1))


@dataclass(frozen=True)
class Map:
    """An element of G on a class of n: π on the hubs 1..g, and on Y the map p ↦ base(p) + shifts[(p − g − 1) mod Q]
    with base(p) = p (sign 1) or g + 1 + n − p (sign −1)."""
    hubs: tuple[int, ...]
    sign: int
    shifts: tuple[int, ...]

    def image(self, p: int, n: int) -> int:
        g, q = len(self.hubs), len(self.shifts)
        if p <= g:
            return self.hubs[p - 1]
        base = p if self.sign > 0 else g + 1 + n - p
        return base + self.shifts[(p - g - 1) % q]

    def perm(self, n: int) -> Optional[tuple[int, ...]]:
        """The images of 1..n, or None when the map is not a permutation of 1..n at this n."""
        out = tuple(self.image(p, n) for p in range(1, n + 1))
        return out if sorted(out) == list(range(1, n + 1)) else None


@dataclass(frozen=True)
class ClassMaps:
    residue: int           # n mod Q
    low: int               # the least length of the class's range
    maps: frozenset        # the Maps: G at every n ≡ residue (mod Q), n ≥ low


@dataclass(frozen=True)
class Exchanges:
    hubs: int
    heads: tuple
    period: int            # Q
    span: int              # J
    radius: int            # R
    width: int             # W
    symmetries: tuple      # A / translations (Symmetry, a_1 ∈ [1, Q])
    proved_low: int        # N_G
    classes: tuple         # ClassMaps by residue of n mod Q


# ---------------------------------------------------------------------------------------------
# The periodic symmetries

def _residue(p: int, q: int) -> int:
    return (p - 1) % q + 1


def _order_of_residues(heads, span: int, q: int) -> Optional[list[tuple[int, int, int]]]:
    """The residues 2..Q in the order a breadth-first search from 1 reaches them, each with (the residue, an assigned
    residue y, the offset d with y + d a position of the new residue adjacent to y); None when U does not reach
    every residue."""
    seen, out, todo = {1}, [], [1]
    while todo:
        y = todo.pop(0)
        for p in CL._around(y, heads, span, None, None):
            x = _residue(p, q)
            if x not in seen:
                seen.add(x)
                out.append((x, y, p - y))
                todo.append(x)
    return out if len(seen) == q else None


class _Search:
    def __init__(self, heads, span: int, q: int, steps: list):
        self.heads, self.span, self.q, self.steps = heads, span, q, steps
        self.found: list[Symmetry] = []
        self.nodes = 0
        keys = [CL.key(CL.ball(x, 2, heads, span), heads, span) for x in range(1, q + 1)]
        self.like = [{y for y in range(1, q + 1) if keys[y - 1] == keys[x - 1]} for x in range(1, q + 1)]

    def _at(self, sign: int, images: dict, p: int) -> Optional[int]:
        k, x = divmod(p - 1, self.q)
        return sign * k * self.q + images[x + 1] if x + 1 in images else None

    def fits(self, sign: int, images: dict, x: int) -> bool:
        for p in range(x - self.span, x + self.span + 1):
            if p == x:
                continue
            a, b = self._at(sign, images, p), images[x]
            if a is None:
                continue
            if CL.colour(p, x, self.heads) != CL.colour(a, b, self.heads) or \
                    CL.colour(x, p, self.heads) != CL.colour(b, a, self.heads):
                return False
        return True

    def extend(self, sign: int, images: dict, used: frozenset, step: int) -> bool:
        self.nodes += 1
        if self.nodes > MAX_SEARCH or len(self.found) > MAX_SYMMETRIES:
            return False
        if step == len(self.steps):
            alpha = Symmetry(sign, tuple(images[x] for x in range(1, self.q + 1)))
            if all(CL.colour(alpha(j), alpha(i), self.heads) == CL.colour(j, i, self.heads)
                   for i in range(1, self.q + 1) for j in range(i - self.span, i + self.span + 1)):
                self.found.append(alpha)
            return True
        x, y, d = self.steps[step]
        k = (y + d - 1) // self.q  # y + d = kQ + x
        for e in range(-self.span, self.span + 1):
            image_p = images[y] + e  # α(y + d), adjacent to α(y)
            a = image_p - sign * k * self.q
            if e == 0 or a % self.q in used or _residue(a, self.q) not in self.like[x - 1]:
                continue
            images[x] = a
            if self.fits(sign, images, x) and not self.extend(sign, images, used | {a % self.q}, step + 1):
                del images[x]
                return False
            del images[x]
        return True


def symmetries(heads, span: int, q: int) -> Optional[list[Symmetry]]:
    """The periodic symmetries of period Q up to translation by Q (a_1 ∈ [1, Q]), the identity first; None when U does
    not connect the residues or the search is beyond its bounds."""
    steps = _order_of_residues(heads, span, q)
    if steps is None:
        return None
    search = _Search(heads, span, q, steps)
    for sign in (1, -1):
        for first in range(1, q + 1):
            if first in search.like[0] and not search.extend(sign, {1: first}, frozenset({first % q}), 0):
                return None
    return sorted(search.found, key=lambda a: (not a.is_identity(), a.sign != 1, a.images))


def _fixing(alpha: Symmetry, x: int, q: int) -> Optional[Symmetry]:
    t = x - alpha(x)
    return alpha.shifted(t) if t % q == 0 else None


def _closed(p: int, heads, span: int) -> set[int]:
    return set(CL._around(p, heads, span, None, None)) | {p}


def only_identity_fixes(found: Sequence[Symmetry], points: set[int], q: int) -> bool:
    p = min(points)
    for alpha in found:
        fixing = _fixing(alpha, p, q)
        if fixing is not None and not fixing.is_identity() and all(fixing(v) == v for v in points):
            return False
    return True


# ---------------------------------------------------------------------------------------------
# The certificate

def balls_hold(heads, span: int, q: int, radius: int, found: Sequence[Symmetry]) -> Optional[set]:
    """(C1′), (C2′) and (C5₀) at the radius: the residues' ball keys, or None."""
    orbit = {x: {_residue(a(x), q) for a in found} for x in range(1, q + 1)}
    keys = {}
    for x in range(1, q + 1):
        stabiliser = [s for s in (_fixing(a, x, q) for a in found) if s is not None]
        if not only_identity_fixes(found, _closed(x, heads, span), q):
            return None
        dist = CL.ball(x, radius, heads, span)
        vertices = sorted(dist)
        colours = [dist[v] for v in vertices]
        pinned = [radius + 1 + k if dist[v] == 1 else c for k, (v, c) in enumerate(zip(vertices, colours))]
        if CL.order(vertices, colours, heads, span) != len(stabiliser) * CL.order(vertices, pinned, heads, span):
            return None
        keys[x] = CL.key(dist, heads, span)
    if any(keys[x] == keys[y] and y not in orbit[x] for x in keys for y in keys if x < y):
        return None
    return set(keys.values())


def _arcs_with(p: int, window: range, heads) -> tuple:
    return tuple((CL.colour(j, p, heads), CL.colour(p, j, heads)) for j in window)


def determining_window(heads, span: int, q: int, limit: int) -> Optional[int]:
    """(C6): the least W ≤ limit, or None."""
    for width in range(1, limit + 1):
        ok = True
        for x in range(1, q + 1):
            for side in (1, -1):
                window = range(x - width, x) if side == 1 else range(x + 1, x + width + 1)
                own = _arcs_with(x, window, heads)
                if not any(a or b for a, b in own) or any(
                        v != x and _arcs_with(v, window, heads) == own
                        for v in range(window[0] - span, window[-1] + span + 1) if v not in window):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return width
    return None


def patch(heads, span: int, q: int, found: Sequence[Symmetry], width: int) -> Optional[tuple[int, int]]:
    """(P): the good-pair component of 1 within PATCH_PERIODS periods and 2J of it, (least, largest), when its closed
    neighbourhoods cover W consecutive positions."""
    lo, hi = 1 - PATCH_PERIODS * q - 2 * span, q + PATCH_PERIODS * q + 2 * span
    comp, todo = {1}, [1]
    while todo:
        u = todo.pop()
        for v in CL._around(u, heads, span, None, None):
            if lo <= v <= hi and v not in comp and \
                    only_identity_fixes(found, _closed(u, heads, span) & _closed(v, heads, span), q):
                comp.add(v)
                todo.append(v)
    cover = set().union(*(_closed(v, heads, span) for v in comp))
    run = best = 0
    for p in range(min(cover), max(cover) + 2):
        run = run + 1 if p in cover else 0
        best = max(best, run)
    return (min(comp), max(comp)) if best >= width else None


def displacement(found: Sequence[Symmetry], q: int) -> int:
    """Δ: the largest |a_x − εx| over A (a_1 ∈ [1, Q]), plus Q."""
    return max(abs(a(x) - a.sign * x) for a in found for x in range(1, q + 1)) + q


def _no_end_ball_alike(hubs: int, heads, span: int, q: int, radius: int, keys: set, low: int) -> bool:
    """(C3) at one length of each residue of n mod Q from `low`."""
    a = hubs + 1
    for rho in range(q):
        n = low + (rho - low) % q
        for v in range(a, n + 1):
            around = CL.ball(v, radius, heads, span)
            if (min(around) < a or max(around) > n) and CL.key(CL.ball(v, radius, heads, span, a, n), heads,
                                                               span) in keys:
                return False
    return True


def proved_low(hubs: int, span: int, q: int, radius: int, extent: tuple[int, int], delta: int) -> int:
    """N_G: F122's bound for the line Y of n − g positions (the ends' balls apart, a translate of the patch among the
    deep positions, the counts settled), and the hub arcs' check apart from both ends (N_X)."""
    reach = radius * span
    line = max(4 * reach + 2, 2 * reach + (extent[1] - extent[0]) + 2 * q + 2 * span, 4 * delta + 2 * q)
    return hubs + max(line, 2 * (span + 2 * delta + q) + 2, 2 * span + 2)


def certificate(hubs: int, heads, span: int, q: int):
    """(R, W, N_G, A) of F186 at period Q, or None."""
    found = symmetries(heads, span, q)
    if found is None or len(found) < 2:
        return None
    width = determining_window(heads, span, q, 4 * span + 2 * q)
    if width is None:
        return None
    extent = patch(heads, span, q, found, width)
    if extent is None:
        return None
    for radius in range(1, CL.MAX_RADIUS + 1):
        keys = balls_hold(heads, span, q, radius, found)
        if keys is None:
            continue
        low = proved_low(hubs, span, q, radius, extent, displacement(found, q))
        if low > MAX_LOW or not _no_end_ball_alike(hubs, heads, span, q, radius, keys, low):
            return None
        return radius, width, low, tuple(found)
    return None


# ---------------------------------------------------------------------------------------------
# G at one length

def _candidates_on_y(n: int, hubs: int, q: int, found: Sequence[Symmetry]) -> list[tuple[int, tuple[int, ...]]]:
    """(ε, the shifts by (p − g − 1) mod Q) of every translate of an α ∈ A mapping Y = g + 1..n onto itself."""
    a = hubs + 1
    out = []
    for alpha in found:
        for t in range((a - n - alpha(a)) // q - 1, (n - alpha(a)) // q + 2):
            beta = alpha.shifted(t * q)
            if not a <= beta(a) <= n or not a <= beta(n) <= n:
                continue
            images = [beta(p) for p in range(a, n + 1)]
            if sorted(images) != list(range(a, n + 1)):
                continue
            base = (lambda p: p) if beta.sign > 0 else (lambda p: a + n - p)
            shifts = tuple(beta(p) - base(p) for p in range(a, a + q))
            out.append((beta.sign, shifts))
    return out


def maps_at(patterns: Sequence[Pattern], params: Mapping, n: int, hubs: int, q: int,
            found: Sequence[Symmetry]) -> frozenset:
    """The maps π × α (π ∈ Sym(1..g), α ∈ A with α(Y) = Y) that keep every head's arcs at n: G at n ≥ N_G."""
    from .head_intersection import _graph_codes, keeps
    codes = [_graph_codes(p, n, params) for p in patterns]
    out = set()
    for sign, shifts in _candidates_on_y(n, hubs, q, found):
        for pi in permutations(range(1, hubs + 1)):
            m = Map(tuple(pi), sign, shifts)
            p = m.perm(n)
            if p is not None and all(keeps(p, c, n) for c in codes):
                out.add(m)
    return frozenset(out)


def holds_at(patterns: Sequence[Pattern], params: Mapping, n: int, maps: frozenset) -> bool:
    """The class's maps are automorphisms of every head at n, and as many as the coloured union's group (BLISS): then
    they are all of G at n."""
    from .head_intersection import _graph_codes, keeps
    codes = [_graph_codes(p, n, params) for p in patterns]
    perms = [m.perm(n) for m in maps]
    if any(p is None or not all(keeps(p, c, n) for c in codes) for p in perms) or len(set(perms)) != len(perms):
        return False
    return len(perms) == CL._coloured_union_order(patterns, n, params)


# ---------------------------------------------------------------------------------------------
# The decision

def _decide(patterns: tuple, params_items: tuple) -> Optional[Exchanges]:
    params = dict(params_items)
    got = CL.line_heads(patterns, params)
    if got is None:
        return None
    hubs, heads = got
    if hubs > CL.MAX_HUBS:
        return None
    span = CL.span_of(heads)
    if span > CL.MAX_SPAN:
        return None
    p0 = CL.least_period(heads, span)
    for q in range(p0, MAX_PERIOD + 1, p0):
        cert = certificate(hubs, heads, span, q)
        if cert is None:
            continue
        radius, width, low, found = cert
        classes = []
        for rho in range(q):
            rep = low + (rho - low) % q
            maps = maps_at(patterns, params, rep, hubs, q, found)
            if maps != maps_at(patterns, params, rep + q, hubs, q, found):
                return None  # cannot happen from N_G on (the theorem); kept as a guard
            floor_ = max(CL.ONSET_FLOOR, hubs + 2 * span + 2)
            start = rep
            while start - q >= floor_ and holds_at(patterns, params, start - q, maps):
                start -= q
            classes.append(ClassMaps(rho, start, maps))
        return Exchanges(hubs, heads, q, span, radius, width, tuple(found), low, tuple(classes))
    return None


_CACHE: dict = {}


def decide(patterns: Sequence[Pattern], params: Mapping) -> Optional[Exchanges]:
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    k = (tuple(patterns), ints)
    if k not in _CACHE:
        _CACHE[k] = _decide(*k)
    return _CACHE[k]


# ---------------------------------------------------------------------------------------------
# Names

def _set_text(points: Sequence[int]) -> str:
    return "{" + ", ".join(str(p) for p in points) + "}"


def least_period_of(shifts: tuple[int, ...]) -> int:
    q = len(shifts)
    return next(t for t in range(1, q + 1) if q % t == 0 and all(shifts[x] == shifts[x % t] for x in range(q)))


def _full_symmetric(perms: list[tuple[int, ...]], size: int) -> Optional[list[list[int]]]:
    """The orbits (on 0..size − 1) when the permutations are the whole product of the symmetric groups on them."""
    seen: set[int] = set()
    orbits = []
    for x in range(size):
        if x in seen:
            continue
        orbit = sorted({p[x] for p in perms})
        seen |= set(orbit)
        orbits.append(orbit)
    total = 1
    for o in orbits:
        total *= factorial(len(o))
    return orbits if total == len(set(perms)) else None


def cycle_notation(images: Sequence[int], label) -> str:
    """Cycle notation of the permutation x ↦ images[x] of 0..len − 1, the points written by `label`."""
    seen, out = set(), []
    for x in range(len(images)):
        if x in seen or images[x] == x:
            continue
        cycle, y = [], x
        while y not in seen:
            seen.add(y)
            cycle.append(label(y))
            y = images[y]
        out.append("(" + " ".join(cycle) + ")")
    return "".join(out)


def _residue_images(m: Map, period: int) -> Optional[tuple[int, ...]]:
    """The permutation of the classes mod `period` (x ↦ x + shift) when the map moves each class onto a class inside
    every period of Y; None otherwise."""
    images = tuple(x + m.shifts[x] for x in range(period))
    return images if sorted(images) == list(range(period)) else None


def map_words(m: Map, g: int) -> str:
    """A map of a class in words: π on the hubs in cycles, then its action on Y."""
    q = least_period_of(m.shifts)
    parts = []
    hub = cycle_notation([x - 1 for x in m.hubs], lambda x: str(x + 1))
    if hub:
        parts.append(f"{hub} on the hubs")
    moves = _residue_images(m, q)
    base = "" if m.sign > 0 else f"the reversal i ↦ {g + 1} + n − i of {{{g + 1}, …, n}}"
    if moves is not None:
        if any(moves[x] != x for x in range(q)):
            words = f"{cycle_notation(moves, lambda x: str(g + 1 + x))} on the classes mod {q} of {{{g + 1}, …, n}}"
            parts.append(f"{base} then {words}" if base else words)
        elif base:
            parts.append(base)
    else:
        shifts = ", ".join(f"{d:+d}" for d in m.shifts[:q])
        head = f"i ↦ {g + 1} + n − i + d" if m.sign < 0 else "i ↦ i + d"
        parts.append(f"{head}, d = {shifts} for i ≡ {g + 1}, …, {g + q} (mod {q})")
    return " and ".join(parts) if parts else "the identity"


def _compose(a: Map, b: Map, n: int) -> Optional[tuple[int, ...]]:
    pa, pb = a.perm(n), b.perm(n)
    if pa is None or pb is None:
        return None
    return tuple(pa[pb[i] - 1] for i in range(n))


def _forward_words(forward: list[Map], g: int, q: int) -> Optional[str]:
    """The maps of sign 1 that fix the hubs as a product of symmetric groups on classes of a sub-period."""
    if len(forward) == 1:
        return ""
    period = max(least_period_of(m.shifts) for m in forward)
    while q % period:
        period += 1
    images = [_residue_images(m, period) for m in forward]
    if any(x is None for x in images):
        return None
    orbits = _full_symmetric([x for x in images if x is not None], period)
    if orbits is None:
        return None
    return " × ".join(f"S_{len(o)} on the classes of {', '.join(str(g + 1 + x) for x in o)} mod {period}"
                      for o in orbits if len(o) > 1)


def describe(found: Exchanges, c: ClassMaps) -> Optional[tuple[int, Optional[str], Optional[str]]]:
    """(order, name, structure) of a class's group; None when it has no name here (then the class is not stated)."""
    g, q = found.hubs, found.period
    maps = sorted(c.maps, key=repr)
    order = len(maps)
    if order == 1:
        return 1, "trivial", None
    n = c.low + q * ((4 * q + 2 * g + 60 - c.low) // q + 1)  # a length of the class, the maps' words read there
    plain = (0,) * q
    ident = tuple(range(1, g + 1))
    on_hubs = [m.hubs for m in maps if m.sign == 1 and m.shifts == plain]
    on_line = [m for m in maps if m.hubs == ident]
    if len(on_hubs) * len(on_line) != order:
        if order == 2:  # one map besides the identity
            (m,) = [m for m in maps if not (m.hubs == ident and m.sign == 1 and m.shifts == plain)]
            return order, None, f"C_2 generated by {map_words(m, g)}"
        return None  # not the direct product of its parts on X and on Y
    factors = []
    if len(on_hubs) > 1:
        orbits = _full_symmetric([tuple(x - 1 for x in h) for h in on_hubs], g)
        if orbits is None:
            return None
        factors += [f"S_{len(o)} on {_set_text([x + 1 for x in o])}" for o in orbits if len(o) > 1]
    forward = [m for m in on_line if m.sign == 1]
    backward = [m for m in on_line if m.sign == -1]
    words = _forward_words(forward, g, q)
    if words is None:
        return None
    if backward:
        backward.sort(key=lambda b: b.shifts != plain)  # the reversal itself first, when it is there
        turn = next((b for b in backward if _compose(b, b, n) == tuple(range(1, n + 1))), None)
        if turn is None or len(backward) != len(forward):
            return None
        turn_words = map_words(turn, g)
        if not words:
            words = f"C_2 generated by {turn_words}"
        else:
            commute = all(_compose(turn, m, n) == _compose(m, turn, n) for m in forward)
            words = f"({words}) {'×' if commute else '⋊'} C_2 generated by {turn_words}"
    if words:
        factors.append(words)
    return order, None, " × ".join(factors)


def group_cases(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping) -> Optional[list]:
    """Theorem F186 as one GroupCase per named class of n mod Q (n ≥ the class's bound), each carrying
    (GROUP_KIND, the Exchanges, the residue) for its certificate; None outside the theorem."""
    from .closed_forms import GroupCase
    patterns = list(dict.fromkeys(patterns))
    if len(patterns) < 2 or not isinstance(n, sympy.Symbol):
        return None
    found = decide(patterns, params)
    if found is None:
        return None
    out = []
    rule = f"several heads whose symmetries exchange residue classes: periodic symmetries of the coloured line ({SECTION})"
    for c in found.classes:
        named = describe(found, c)
        if named is None:
            continue
        order, name, structure = named
        cond = sympy.And(sympy.Ge(n, c.low), sympy.Eq(sympy.Mod(n, found.period), c.residue))
        out.append(GroupCase(cond, sympy.Integer(order), name, None, frozenset(), rule, structure,
                             intersection=(GROUP_KIND, found, c.residue)))
    return out or None
