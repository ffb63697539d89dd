"""`blocks(b)` with non-cyclic window, dilated and offsets parts whose symmetries exchange residues mod b: Theorem F117
of docs/theory.md §11.11 (the group; the diameter is Theorem F115's).

Γ_∞ is the digraph on Z of Theorems F115–F116 (``graphs/periodic_lines.py``): j → i when i ≠ j share a block
{kb + 1, …, kb + b} or j − i lies in S. A *periodic symmetry* is an automorphism α of Γ_∞ with α(p + b) = α(p) ± b:
α(kb + x) = ±kb + a_x, given by its values a_1, …, a_b on one block (so the symmetries form a group A that contains the
translations by b, the reflections p ↦ kb + 1 − p when S = −S, and for instance the residue exchange of
`blocks(4) + dilated(3, 2)`, p ↦ p + 1 for odd p, p − 1 for even p). Where F116's certificate fails because such an
exchange exists, F117 asks a certificate relative to A:

* (C1) the coloured rooted balls of radius R of two residues are isomorphic only when some α ∈ A maps one residue to
  the other; (C2) every automorphism of a residue's ball acts on its first level as an element of A fixing the root
  (|Aut β(x)| = |Stab_A(x)| times the order with the first level coloured one by one); (C5) only the identity of A
  fixes a position and a neighbour; (C3), (C4) as in F116 (no ball of a position near an end is isomorphic to a
  residue's ball; the deep positions are connected).

Then every automorphism of Γ_n agrees on the deep positions with one α ∈ A, and for n ≥ N_G the automorphisms of Γ_n
and of Γ_(n + b) correspond one to one (cut in the middle, the right part moved by b): |G| depends on n mod b only and
is read off b lengths (BLISS), with the elements of A that extend named (the kernel, the automorphisms fixing every
deep position, moves positions near the ends only).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Optional, Sequence

import sympy
from sympy import Integer

from . import periodic_lines as lines
from .. import bliss

SECTION = "docs/theory.md §11.11"
MAX_SEARCH = 20_000    # nodes of the search for the periodic symmetries
MAX_SYMMETRIES = 64    # |A / translations|


@dataclass(frozen=True)
class Symmetry:
    """α(kb + x) = sign·kb + images[x − 1] (x = 1..b), an automorphism of Γ_∞."""
    sign: int
    images: tuple[int, ...]

    def __call__(self, p: int) -> int:
        b = len(self.images)
        k, x = divmod(p - 1, b)
        return self.sign * k * b + self.images[x]

    def shifted(self, t: int) -> "Symmetry":
        return Symmetry(self.sign, tuple(a + t for a in self.images))


def _arc(j: int, i: int, b: int, jumps: frozenset) -> bool:
    """j → i in Γ_∞."""
    return i != j and ((i - 1) // b == (j - 1) // b or j - i in jumps)


class _Search:
    """The backtracking search for the periodic symmetries: a_1 ∈ [1, b], then a_x ∈ [a_1 − J, a_1 + J] with distinct
    residues, keeping arcs and non-arcs within J between the assigned residues; a full assignment is kept when it maps
    every arc j → i with i ∈ [1, b] onto an arc (then it is an automorphism, docs/theory.md F117)."""

    def __init__(self, b: int, jumps: tuple[int, ...]):
        self.b, self.jset = b, frozenset(jumps)
        self.span = max(b - 1, max(abs(k) for k in jumps))
        self.preds = {x: [j for j in range(x - self.span, x + self.span + 1) if _arc(j, x, b, self.jset)]
                      for x in range(1, b + 1)}
        self.found: list[Symmetry] = []
        self.nodes = 0
        # α maps a position onto one whose coloured ball of radius 2 is isomorphic (Γ_∞'s balls are translates of the
        # residues' balls): only such images are tried
        keys = [lines._key(lines._ball(x, 2, b, jumps, None, None), b, jumps) for x in range(1, b + 1)]
        self.like = [{y for y in range(b) if keys[y] == keys[x]} for x in range(b)]

    def complete(self, alpha: Symmetry) -> bool:
        return all(_arc(alpha(j), alpha(i), self.b, self.jset) for i in range(1, self.b + 1) for j in self.preds[i])

    def fits(self, sign: int, images: list[int]) -> bool:
        """Arcs and non-arcs between the assigned residues (one of them the last), within J, are kept."""
        b, jset = self.b, self.jset
        alpha, x = Symmetry(sign, tuple(images) + (0,) * (b - len(images))), len(images)
        for p in range(x - self.span, x + self.span + 1):
            if p != x and (p - 1) % b + 1 <= x and (
                    _arc(p, x, b, jset) != _arc(alpha(p), alpha(x), b, jset)
                    or _arc(x, p, b, jset) != _arc(alpha(x), alpha(p), b, jset)):
                return False
        return True

    def extend(self, sign: int, images: list[int], used: frozenset) -> bool:
        """False when the search is beyond its bounds."""
        self.nodes += 1
        if self.nodes > MAX_SEARCH or len(self.found) > MAX_SYMMETRIES:
            return False
        if len(images) == self.b:
            alpha = Symmetry(sign, tuple(images))
            if self.complete(alpha):
                self.found.append(alpha)
            return True
        like = self.like[len(images)]
        for c in range(images[0] - self.span, images[0] + self.span + 1):
            if c % self.b not in used and (c - 1) % self.b in like and self.fits(sign, images + [c]) and \
                    not self.extend(sign, images + [c], used | {c % self.b}):
                return False
        return True


def symmetries(b: int, jumps: tuple[int, ...]) -> Optional[list[Symmetry]]:
    """The periodic symmetries of Γ_∞ up to translation by b (the one with a_1 ∈ [1, b] each), the identity first; None
    when the search exceeds its bound."""
    search = _Search(b, jumps)
    for sign in (1, -1):
        for first in range(1, b + 1):
            if first - 1 in search.like[0] and not search.extend(sign, [first], frozenset({first % b})):
                return None
    return sorted(search.found, key=lambda a: (a.sign != 1, a.images != tuple(range(1, b + 1)), a.images))


def _fixing(alpha: Symmetry, x: int, b: int) -> Optional[Symmetry]:
    """The translate of α by a multiple of b that fixes x, or None."""
    t = x - alpha(x)
    return alpha.shifted(t) if t % b == 0 else None


def _around(p: int, b: int, jumps) -> set[int]:
    return set(lines.successors(p, b, jumps)) | set(lines.predecessors(p, b, jumps))


def _moves_neighbours(alpha: Symmetry, x: int, b: int, jumps) -> bool:
    """(C5) at x: α (fixing x, not the identity) moves, for every U-neighbour y of x, y itself or a common U-neighbour
    of x and y."""
    near = _around(x, b, jumps)
    return all(alpha(y) != y or any(alpha(z) != z for z in near & _around(y, b, jumps)) for y in near)


def certificate(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[Symmetry]) -> bool:
    """(C1), (C2) and (C5) at the radius."""
    identity = tuple(range(1, b + 1))
    return balls_certificate(b, jumps, radius, found, lambda x, stabiliser: all(
        _moves_neighbours(s, x, b, jumps) for s in stabiliser if (s.sign, s.images) != (1, identity)))


def balls_certificate(b: int, jumps: tuple[int, ...], radius: int, found: Sequence[Symmetry],
                      at_residue: Callable[[int, list[Symmetry]], bool]) -> bool:
    """(C1), (C2) at the radius, with `at_residue(x, the translates of A fixing x)` at each x in 1..b (F117's (C5),
    F122's (C1′), (C2′) with (C5₀))."""
    orbit = {x: {(a(x) - 1) % b + 1 for a in found} for x in range(1, b + 1)}
    keys = {}
    for x in range(1, b + 1):
        stabiliser = [s for s in (_fixing(a, x, b) for a in found) if s is not None]
        if not at_residue(x, stabiliser):
            return False
        ball = lines._ball(x, radius, b, jumps, None, None)
        keys[x] = lines._key(ball, b, jumps)
        vertices = sorted(ball)
        colours = [ball[v] for v in vertices]
        pinned = [radius + 1 + i if ball[v] == 1 else c for i, (v, c) in enumerate(zip(vertices, colours))]
        if lines._order(vertices, colours, b, jumps) != len(stabiliser) * lines._order(vertices, pinned, b, jumps):
            return False
    return all(keys[x] != keys[y] or y in orbit[x] for x in keys for y in keys if x < y)


@dataclass(frozen=True)
class ClassGroup:
    """G at the lengths n ≡ rho (mod b) from the range on."""
    order: int
    kernel: int                          # the automorphisms fixing every deep position
    moved: tuple[int, ...]               # the positions they move: p (≤ n/2), or p − n − 1 (< 0) near n
    shifts: tuple[tuple[int, tuple[int, ...]], ...]  # the extending symmetries: (sign, δ by residue 1..b), see words


@dataclass(frozen=True)
class Exchanges:
    b: int
    jumps: tuple[int, ...]
    radius: int
    group_low: int                       # N_G
    classes: tuple[ClassGroup, ...]      # by n mod b
    line: lines.PeriodicLine             # F115's diameter (its group fields unused)
    found: tuple[Symmetry, ...]          # A / translations, the identity first
    onset: int

    @property
    def low(self) -> int:
        return self.onset

    def order_at(self, n: int) -> int:
        return self.classes[n % self.b].order


@lru_cache(maxsize=64)
def group_data(b: int, jumps: tuple[int, ...]):
    """(R, N_G, the class groups) of F117, or None."""
    found = symmetries(b, jumps)
    if found is None or len(found) < 2:
        return None
    span = max(b - 1, max(abs(k) for k in jumps))
    for radius in range(1, lines.MAX_RADIUS + 1):
        if not certificate(b, jumps, radius, found):
            continue
        low = _range(b, jumps, radius, span, found)
        if low is None:
            return None
        classes = []
        for rho in range(b):
            n = low + (rho - low) % b
            got = _class_group(n, b, jumps, radius, span, found)
            if got is None:
                return None
            classes.append(got)
        return radius, low, tuple(classes), tuple(found)  # classes[rho]: at the length low + (rho − low) mod b ≡ rho
    return None


@lru_cache(maxsize=256)
def _extent(x: int, b: int, jumps: tuple[int, ...], radius: int) -> tuple[int, int]:
    """(min, max) of the ball of radius R of x in Γ_∞, less x: the same for every position ≡ x (mod b)."""
    ball = lines._ball(x, radius, b, jumps, None, None)
    return min(ball) - x, max(ball) - x


def _deep(n: int, b: int, jumps, radius: int, span: int) -> set[int]:
    """The positions whose ball in Γ_∞ lies in 1..n."""
    out = set()
    for v in range(1, n + 1):
        lo, hi = _extent((v - 1) % b + 1, b, tuple(jumps), radius)
        if v + lo >= 1 and v + hi <= n:
            out.add(v)
    return out


def _range(b: int, jumps, radius: int, span: int, found: Sequence[Symmetry]) -> Optional[int]:
    """(C3), (C4) at one length per residue, and N_G: the ends' distance f (as F116), the symmetries' displacement Δ
    (|α(p) − p| or the spread of α(p) + p), and room in the middle for the cut."""
    reach, wide = radius * span, 2 * span + b
    for x in range(1, b + 1):
        piece = set(range(x, x + wide))
        if len(lines._component(min(piece), piece, b, jumps)) != wide:
            return None
    keys = {lines._key(lines._ball(x, radius, b, jumps, None, None), b, jumps) for x in range(1, b + 1)}
    shift = max(max(abs(a(x) - a.sign * x) for x in range(1, b + 1)) for a in found)
    spread = max(max(a(x) - a.sign * x for x in range(1, b + 1)) - min(a(x) - a.sign * x for x in range(1, b + 1))
                 for a in found)
    move = shift + spread + b
    low = 2 * reach + 2 * wide + 2 * span + 2 * b + 4 * move
    for _ in range(4):
        far = 0
        for rho in range(b):
            n = low + (rho - low) % b
            deep = _deep(n, b, jumps, radius, span)
            near = [v for v in range(1, n + 1) if v not in deep]
            if any(lines._key(lines._ball(v, radius, b, jumps, 1, n), b, jumps) in keys for v in near):
                return None
            for piece in (deep & set(range(1, reach + wide + 1)), deep & set(range(n - reach - wide + 1, n + 1))):
                if len(lines._component(min(piece), piece, b, jumps)) != len(piece):
                    return None
            everything = set(range(1, n + 1))
            from_left = lines._component(reach + 1, everything, b, jumps)
            from_right = lines._component(n - reach, everything, b, jumps)
            far = max([far] + [from_left[v] for v in near if v <= reach] + [from_right[v] for v in near if v > reach])
        need = 2 * reach + 2 * wide + 2 * span + 2 * b + 4 * move + 2 * far * span
        if need <= low:
            return low
        low = need
    return None


def _class_group(n: int, b: int, jumps, radius: int, span: int, found: Sequence[Symmetry]) -> Optional[ClassGroup]:
    """|Aut Γ_n| (BLISS), the kernel (the deep positions coloured one by one) and the symmetries α ∈ A with α(T) = T
    whose restriction to T extends to an automorphism (canonical forms); None if |G| ≠ |kernel|·#extending."""
    from ..bignum import count_automorphisms
    from ..lazy import digraph
    deep = _deep(n, b, jumps, radius, span)
    edges = lines._graph(range(1, n + 1), b, jumps)
    graph = digraph(n, edges)
    order = count_automorphisms(graph)
    label = {v: i + 1 for i, v in enumerate(sorted(deep))}
    colours = [label.get(v, 0) for v in range(1, n + 1)]
    kernel = count_automorphisms(graph, color=colours)
    moved: tuple[int, ...] = ()
    if kernel > 1:
        gens = bliss.generators(graph, colours)
        moved = tuple(sorted({i + 1 if i + 1 <= n // 2 else i - n for g in gens for i, j in enumerate(g) if i != j}))
    arcs = _arc_array(graph)
    own = _canonical(graph, colours, arcs)
    shifts = []
    first, last = min(deep), max(deep)
    in_order = list(deep)
    for alpha in found:
        near = (first if alpha.sign > 0 else last) - alpha(first)  # β(first) is T's first (last) position
        images = [alpha(v) for v in in_order]  # β = α shifted by t·b: β(v) = α(v) + t·b
        for t in range(near // b - 2, near // b + 3):
            beta = alpha.shifted(t * b)
            if {a + t * b for a in images} != deep:
                continue
            moved_colours = [0] * n
            for v, a in zip(in_order, images):
                moved_colours[a + t * b - 1] = label[v]
            if _canonical(graph, moved_colours, arcs) == own:
                start = n + 1 if beta.sign < 0 else 0
                shifts.append((beta.sign, tuple(beta(x) - start - beta.sign * x for x in range(1, b + 1))))
    shifts.sort(key=lambda s: (s[0] != 1, any(s[1]), s[1]))
    if order != kernel * len(shifts):
        return None
    return ClassGroup(order, kernel, moved, tuple(shifts))


def _arc_array(graph):
    """The graph's arcs (tail, head), 0-based, as an (m, 2) numpy int64 array (read once per graph)."""
    import numpy as np
    return np.asarray(graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)


def _canonical(graph, colours: list[int], arcs) -> tuple:
    """The coloured graph under BLISS's canonical labelling: the colours in canonical order and the relabelled
    arcs (``arcs``: `_arc_array` of the graph) as their sorted codes x·n + y (equal exactly when the sorted
    pairs are)."""
    import numpy as np
    order = bliss.canonical_permutation(graph, colours)
    n = len(order)
    label = np.empty(n, dtype=np.int64)
    label[np.asarray(order, dtype=np.int64)] = np.arange(n, dtype=np.int64)
    placed = [0] * n
    for where, c in zip(label.tolist(), colours):
        placed[where] = c
    codes = label[arcs[:, 0]] * n + label[arcs[:, 1]]
    codes.sort(kind="stable")
    return tuple(placed), codes.tobytes()


@lru_cache(maxsize=64)
def decide(b: int, jumps: tuple[int, ...]) -> Optional[Exchanges]:
    """F115 (D) with F117 (G), or None (F115 fails, F116 applies, or no certificate)."""
    got = lines.diameter_and_groups(b, jumps, group_data)
    if got is None:
        return None
    found, (radius, group_low, classes, symmetries_) = got
    line = lines.diameter_line(b, jumps, found, radius, group_low)
    data = Exchanges(b, jumps, radius, group_low, classes, line, symmetries_, 0)
    return replace(data, onset=_onset(data))


def _diameter(n: int, b: int, jumps) -> Optional[int]:
    """The directed diameter of Γ_n (arcs v → v − k, blocks of b as cliques; None: not strongly connected), from
    the eccentricities F118's class check computes at the same lengths (periodic_least.diameter, whose out-arcs
    are p → p + k: the jumps negated). `diameter_by_sources` is the search it replaced; the tests compare both."""
    from .periodic_least import diameter
    return diameter(n, b, [-k for k in jumps])


def diameter_by_sources(n: int, b: int, jumps) -> Optional[int]:
    """The directed diameter of Γ_n (None: not strongly connected), by one search from every source at once: reach[v]
    holds a bit for each source that reaches v within the levels so far (a block is a clique: its members' bits are
    pooled once per level)."""
    reach = [1 << v for v in range(n)]
    full = (1 << n) - 1
    moves = [(v, v - k) for v in range(n) for k in jumps if 0 <= v - k < n]  # v → v − k
    level = 0
    while any(r != full for r in reach):
        nxt = reach[:]
        for first in range(0, n, b):
            pooled = 0
            for v in range(first, min(first + b, n)):
                pooled |= reach[v]
            for v in range(first, min(first + b, n)):
                nxt[v] |= pooled
        for v, q in moves:
            nxt[q] |= reach[v]
        if nxt == reach:
            return None
        reach, level = nxt, level + 1
    return level


def onset_down(data, group_holds) -> int:
    """The stated range of F117 or F122 (`data` an Exchanges or a Determined): downwards from the proved one while
    the length m below has F115's D (the search above) and `group_holds(m)`, not below max(61, 2(RJ + J) + 1)."""
    line = data.line
    floor_ = max(lines.ONSET_FLOOR, 2 * (data.radius * line.span + line.span) + 1)
    n = max(line.diameter_low, data.group_low)
    while n - 1 >= floor_:
        m = n - 1
        if _diameter(m, data.b, data.jumps) != line.diameter_at(m) or not group_holds(m):
            break
        n = m
    return n


def _onset(data: Exchanges) -> int:
    """The stated range: F115's D and F117's group (|G|, K and the extending symmetries, by BLISS: then G = K·H
    there as well) at each length below the proved one (onset_down)."""
    line = data.line
    # the order, the kernel's moved positions and the extending symmetries: the words hold at m
    return onset_down(data, lambda m: _class_group(m, data.b, data.jumps, data.radius, line.span, data.found)
                      == data.classes[m % data.b])


def _symmetry_words(sign: int, delta: tuple[int, ...], b: int) -> str:
    if sign < 0 and not any(delta):
        return "the reflection i ↦ n + 1 − i"
    base = "i" if sign > 0 else "n + 1 − i"
    shown = ", ".join(str(d).replace("-", "−") for d in delta)
    return f"i ↦ {base} + δ(i mod {b}) with δ = ({shown}) on the residues 1, …, {b}"


def _position(p: int, n) -> str:
    """A moved position p > 0, or p − n − 1 < 0 near n (at an integer n, its value)."""
    if p > 0:
        return str(p)
    if isinstance(n, (int, Integer)):
        return str(int(n) + 1 + p)
    return f"n − {-p - 1}" if p < -1 else "n"


def _compose(f: tuple, g: tuple, b: int, rho: int) -> tuple:
    """f ∘ g for the maps p ↦ (n + 1 if sign < 0 else 0) + sign·p + δ(p mod b), read in the middle of a length
    n ≡ rho (mod b)."""
    n = 1000 * b + rho

    def apply(h: tuple, p: int) -> int:
        return (n + 1 if h[0] < 0 else 0) + h[0] * p + h[1][(p - 1) % b]
    sign = f[0] * g[0]
    start = n + 1 if sign < 0 else 0
    return sign, tuple(apply(f, apply(g, p)) - start - sign * p for p in range(500 * b + 1, 500 * b + b + 1))


def _generators(shifts: Sequence[tuple], b: int, rho: int) -> list[tuple]:
    """A generating set of the extending symmetries, taken in order (the exchanges first, the reflection first among
    the reversals), each one not in the group generated by those before."""
    identity = (1, (0,) * b)
    group, gens = {identity}, []
    for h in sorted(shifts, key=lambda s: (s[0] != 1, any(s[1]), s[1])):
        if h in group:
            continue
        gens.append(h)
        while True:
            more = {_compose(x, y, b, rho) for x in group for y in gens} - group
            if not more:
                break
            group |= more
    return gens


def class_words(data: Exchanges, rho: int, n=None) -> str:
    group = data.classes[rho]
    parts = []
    if group.kernel > 1:
        near = ", ".join(_position(p, n) for p in sorted(group.moved, key=lambda p: (p < 0, p)))
        parts.append(f"the permutations of {{{near}}} that keep the arcs (order {group.kernel})")
    gens = _generators(group.shifts, data.b, rho)
    if gens:
        shown = "; ".join(_symmetry_words(sign, delta, data.b) for sign, delta in gens)
        parts.append(f"the periodic symmetries generated by {{{shown}}} (order {len(group.shifts)})")
    return " extended by ".join(parts) or "trivial"


def theorem(n, data: Exchanges):
    """F115 (D) and F117 (G) at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    from .symbolic_unions import _residue_pieces
    P, b = data.line.period, data.b
    diameter = lines.diameter_at_length(n, data.line)
    if isinstance(n, (int, Integer)):
        order: sympy.Expr = Integer(data.order_at(int(n)))
        group = class_words(data, int(n) % b, n)
    else:
        order = _residue_pieces(n, b, {m: data.order_at(m) for m in range(b)}, Integer, explicit=True)
        group = "; ".join(f"for n mod {b} = {rho}: {class_words(data, rho)}" for rho in range(b))
    shown = ", ".join(map(str, data.jumps))
    from .periodic_least import layers_fields
    layers, least, why, question, classes = layers_fields(data.line, data.group_low, data.radius, data.low, "F117",
                                                          diameter, n)
    return FamilyTheorem(
        "F117", f"blocks(b) + a non-cyclic line part with jumps S whose symmetries exchange residues (S = {{{shown}}})",
        (("b", Integer(b)), ("P", Integer(P)), ("R", Integer(data.radius))), Integer(data.low), diameter,
        group, order, (), layers, least, why,
        open_question=question, least_classes=classes,
        periodic=(data.radius, tuple((a.sign, a.images) for a in data.found)))
