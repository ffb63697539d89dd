"""The family theorems at symbolic n (docs/theory.md §11.11, F1–F4, F7–F14), restated for the verifier:
its own match of the re-parsed pattern, its own ranges and closed forms, and an instance check with
its own arcs, BFS, group code (every permutation or nauty) and view check at the start of the range
and a few more lengths.

    F1  global(g), star:                 n ≥ g + 2:   D = 2, |G| = g!·(n − g)!, D layers (least)
    F2  window(w) + global(g):           n ≥ g + 2w + 3: D = 2, |G| = 2·g!, 3 layers (least),
                                         witness σ = (g+1 g+2) at position g + 2w + 3
    F3  window(w) cyclic + global(g), g ≥ w: the pattern of F2 (the wrap-around pairs touch a global)
    F10 window(w) cyclic + global(g), g < w: n ≥ 3w + 3: D = 2, |G| = 2·g!, 3 layers (least),
                                         witness σ = (w+1 w+2) at position n
    F9  window(w) + dilated(w', r), 2 ≤ r ≤ w + 1, w'r ≥ w + 2: with L = w'r and μ the least non-step,
                                         n ≥ max(2L + 1, RL + μ + 1): D = ⌊(n − 1 − μ)/L⌋ + 2, |G| = 2 (the
                                         reflection), D layers (least), R the radius at which colour
                                         refinement of the ball around 1 separates 1, …, L
    F15 window(w) + dilated(w', r), r ≥ w + 2, w'r ≤ 96: D = ⌊(n − 1 − μ′)/L⌋ + C, μ′ and C fitted to the running
                                         maximum of the step costs on Z (the verifier's own BFS on Z) in its
                                         periodic regime, |G| = 2 (the reflection), D layers (least), from the
                                         least n where every hypothesis of the proof holds
    F4  blocks(b) + global(g), b ≥ 2:    n ≥ b(⌊g/b⌋ + 2) + 1: D = 2, |G| = g!·∏_s (s!)^{m_s}·m_s! over the
                                         pieces (blocks minus the globals) of each size s, 3 layers (least),
                                         witness σ = (a c), a in the next-to-last piece, c in the first,
                                         at a position of the last piece
    F8  offsets {1, s} cyclic (or {−1, −s}), s ≥ 3: n ≥ s² + 1: D = q + max(r, s − 2) with n − 1 = qs + r,
                                         |G| = n (C_n), D layers (least): the rooted views, decided with
                                         nauty at n = s² + 1, …, s² + s + 1 (a whole period of D's formula)
    F7  window(w) + strided(s), 2 ≤ s ≤ w + 1: D = 2 from n ≥ d* + 1 (d* = w + 1, or w + 2 when s | w + 1);
                                         G = the reflection for n ≥ max(s(4w + 3), 2w + 1, 1 + Rw) when
                                         colour refinement of the cross graph's ball of radius R around 1
                                         gives 1, …, w colours of their own; for s = 2, D = 2 layers (least:
                                         no view witness); for 3 ≤ s ≤ 7, from n ≥ 6w + 4s + 1 as well, D = 2
                                         layers (least) when the local check of step (6) succeeds (the
                                         verifier's own search over the class permutations); else 3 = D + 1
                                         layers (not least)

    F12 offsets {−s, −1, 1, s} cyclic, s ≥ 3: n ≥ s² + s + 2: D = max over t of min(c(t), c(n − t)), c the
                                         cost of t with steps ±1, ±s (by residue of n mod 2s at a symbolic
                                         length, one whole period re-checked), |G| = 2n (D_n), D layers
                                         (least) for s ≥ 4, rooted views decided with nauty; D + 1 for s = 3

    F16 offsets {−3, −1, 1, 3} cyclic:   n ≥ 14: F12's D and D_n, D layers (least), rooted views with nauty
    F17 offsets {a, b} cyclic (or {−a, −b}), 2 ≤ a < b, gcd(a, b) = 1: n ≥ max(b² + b + 1, ab − a + 1,
                                         (b − a)(b − 1) + 1): D = ⌊n/b⌋ + h(n mod b) (the verifier's own BFS at one
                                         length per residue, one whole period re-checked), |G| = n (C_n), D
                                         layers (least), rooted views decided with nauty

    F14 window(w) + strided(s), s ≥ 2w + 2:  n ≥ s(4w + 3): D = M or M + 1 by residue of n mod s (M = 1 +
                                         ⌈⌊s/2⌋/w⌉; the verifier's own BFS at one length per residue, one whole
                                         period re-checked); G = the reflection; M + 1 layers (Theorem F54:
                                         least when s is odd and w | ⌊s/2⌋, by a block exchange at position 1)

    F11 window(w) + strided(s), w + 2 ≤ s ≤ 2w + 1: n ≥ s(4w + 3): D = 3 when positions a and n + 1 − b
                                         (a, b ≤ s − w − 1) have no common neighbour, else 2 (by residue of
                                         n mod s, one whole period re-checked); G = the reflection; 3
                                         layers (Theorem F53: least unless s = w + 2 with w ≥ 2); for
                                         s = w + 2 ≤ 9, D layers, least (Theorem F81: F7's local check
                                         restated, every class permutation tried; nauty at the instances)

Parameters are integer literals (the catalog's families); a named size is not matched here.
"""
from __future__ import annotations

import functools

import re
from dataclasses import dataclass
from typing import Callable, Optional

import sympy

from .. import spec as S
from . import bit_distances, groups, patterns, views

INSTANCES = 5  # lengths checked from the start of the range on (nauty above n = 7)
MAX_INSTANCE_N = 60


@dataclass(frozen=True)
class Family:
    theorem: str
    low: int                                   # every value below holds for n ≥ low
    diameter: int
    layers: int
    least: bool
    order: Callable[[sympy.Expr], sympy.Expr]  # |G| at a length (a symbol in a residue class, or an integer)
    modulus: int                               # the order's formula depends on n mod this
    name: Optional[Callable[[str], bool]]      # accepts the group's stated name
    witness: Optional[Callable[[int], tuple]]  # n -> (position, permutation): D layers do not suffice
    generators: Optional[Callable[[int], list]] = None  # n -> generators of G (for the rooted views)
    diameter_at: Optional[Callable[[sympy.Expr], sympy.Expr]] = None  # D as a function of n (else `diameter`)
    period: int = 1                            # D's formula depends on n mod this: one period is re-checked
    instances: Optional[Callable[[str], Optional[str]]] = None  # F13: its own instance check (the image's)
    instances_text: str = ""
    layers_by: Optional[Callable[[sympy.Expr], sympy.Expr]] = None  # the layers as a function of n (F25)
    coprime_to: int = 1                        # F27: the range is also gcd(n, coprime_to) = 1
    layers_check: Optional[Callable[[int, int], Optional[str]]] = None  # (n, D) -> problem: F53's own layer check
    layers_text: str = ""                      # why the layer count holds, when not one of the standard reasons
    quoted_witness: Optional[Callable[[int], tuple]] = None  # n -> (position, permutation) a concrete step may quote (F53; else `witness`)
    class_witness: Optional[Callable[[int], Optional[tuple]]] = None  # F25: n -> (position, permutation) where the
    #                                                                  layers are D + 1 at n, None where D suffice
    bound: bool = False                        # F101 where F168 gives no D: `diameter_at` bounds D
    group_open: tuple = ()                     # F26 (w ≥ 2): the residues of n mod `modulus` where no group is stated
    least_classes: tuple = ()                  # (L, residues) with `least` False: the count is least on the classes
    #                                            n mod L in residues only (F67 on s | n at symbolic n)
    length_text: str = ""                     # at an integer n: what the count of n's class rests on (F93: F110 or F113)
    data_check: Optional[Callable[[dict, Optional[int]], Optional[str]]] = None  # F117: the group step's data (its
    #                                            name, periodic symmetries and radius) against the verifier's own at an
    #                                            integer n or (None) a symbolic one: a problem, or None
    group_low: int = 0                         # F205 with F226: the group's own range when `low` is the layer count's

    def d(self, n) -> sympy.Expr:
        """D at the length n (an integer, or the length's symbol)."""
        return sympy.Integer(self.diameter) if self.diameter_at is None else self.diameter_at(n)

    def least_at(self, n) -> bool:
        """Whether the count is claimed least at the length n: on every class, or (an integer n) on n's class of the
        least flag by class."""
        return self.least or bool(isinstance(n, (int, sympy.Integer)) and self.least_classes
                                  and int(n) % self.least_classes[0] in self.least_classes[1])

    def layers_at(self, n) -> sympy.Expr:
        if self.layers_by is not None:
            return self.layers_by(n)
        return self.d(n) + (self.layers - self.diameter)


def _int(t) -> Optional[int]:
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _parts(p: S.Pattern) -> list:
    """A union's parts as one flat list (`A + (B + C)` has the parts A, B, C: the same arcs as its flat form)."""
    return [r for q in p.parts for r in _parts(q)] if isinstance(p, S.PatternUnion) else [p]


def _swap(n: int, a: int, b: int) -> list:
    return [b if k == a else a if k == b else k for k in range(1, n + 1)]


def match(spec: S.Spec) -> Optional[Family]:  # noqa: C901 - one branch per theorem
    if spec.positional != "none" or any(h.bias for h in spec.heads) or not spec.heads:
        return None
    if any(h.position is not None for h in spec.heads if hasattr(h, "position")):
        return None
    pats = {h.pattern for h in spec.heads}
    if len(pats) != 1:
        return None
    parts = _parts(pats.pop())
    kinds = sorted(type(q).__name__ for q in parts)
    glob = [q for q in parts if isinstance(q, (S.Global, S.Star))]
    g = None
    if len(glob) == 1:
        g = 1 if isinstance(glob[0], S.Star) else _int(glob[0].g)
        if g is None or g < 1:
            return None
    if len(parts) == 1 and g is not None:
        return _f1(g)
    if len(parts) == 1 and isinstance(parts[0], S.Offsets) and parts[0].cyclic:
        found = _f8(parts[0])
        if found is None and isinstance(spec.tokens, int):
            found = _f13(spec, parts[0], spec.tokens)
        found = found if found is not None else _f17(parts[0])
        return found if found is not None else _f27(parts)
    if len(parts) >= 2 and all(isinstance(q, (S.Offsets, S.Window)) and q.cyclic for q in parts):
        return _f27(parts)
    wrap = _f144(parts)
    if wrap is not None:
        return wrap
    from . import cyclic_window_line  # F101: a cyclic window with non-cyclic parts outside it (§11.11)
    seam = cyclic_window_line.match(parts)
    if seam is not None:
        return seam
    from . import offsets_line  # F40–F42: non-cyclic window, dilated and offsets parts (docs/theory.md §11.11)
    jumps = offsets_line.line_jumps(parts)
    if jumps is not None and (any(isinstance(q, S.Offsets) for q in parts)
                              or sum(isinstance(q, S.Dilated) for q in parts) >= 2):
        return offsets_line.family(jumps)
    from . import symbolic_unions  # F21, F22: unions of structured patterns (docs/theory.md §11.11)
    union = symbolic_unions.match(parts, spec)
    if union is not None:
        return union
    if len(parts) != 2:
        return None
    other = [q for q in parts if q not in glob]
    if g is not None and len(other) == 1:
        q = other[0]
        if isinstance(q, S.Window):
            w = _int(q.w)
            if w is None or w < 1:
                return None
            if q.cyclic and g < w:
                return _f10(w, g)
            return _f2(w, g, "F3" if q.cyclic else "F2")
        if isinstance(q, S.Blocks):
            b = _int(q.b)
            return _f4(b, g) if b is not None and b >= 2 else None
        return None
    if kinds == ["Dilated", "Window"]:
        win = next(q for q in parts if isinstance(q, S.Window))
        dil = next(q for q in parts if isinstance(q, S.Dilated))
        w, wd, r = _int(win.w), _int(dil.w), _int(dil.r)
        if not win.cyclic and w is not None and wd is not None and r is not None and w >= 1 and wd >= 1 and r >= w + 2:
            return _f15(w, wd, r) or _line(parts)
        if win.cyclic or w is None or wd is None or r is None or w < 1 or not 2 <= r <= w + 1 or wd * r < w + 2:
            return _line(parts)
        return _f9(w, wd, r) or _line(parts)
    if kinds == ["Strided", "Window"]:
        win = next(q for q in parts if isinstance(q, S.Window))
        st = next(q for q in parts if isinstance(q, S.Strided))
        w, s = _int(win.w), _int(st.s)
        if win.cyclic or w is None or s is None:
            return None
        if w + 2 <= s <= 2 * w + 1:
            return _f11(w, s)
        if w >= 1 and s >= 2 * w + 2:
            return _f14(w, s, spec.tokens if isinstance(spec.tokens, int) else None)
        if not 2 <= s <= w + 1:
            return None
        below = None
        if isinstance(spec.tokens, int) and spec.tokens < s * (4 * w + 3):  # below F7's range, which starts there or later
            below = _f164(w, s, spec.tokens)
        fam = below or _f7(w, s)
        if below is None and isinstance(spec.tokens, int) and fam is not None and (spec.tokens < fam.low or not fam.least):
            return _f164(w, s, spec.tokens) or fam
        return fam
    return None


def _f144(parts) -> Optional[Family]:
    """Theorem F144: `window(w) + offsets S cyclic` (non-cyclic window), S inside {1, …, w} or inside {−w, …, −1},
    integers: the cyclic offsets add only arcs across the wrap, one way; D = ⌈(n − 1)/w⌉, G trivial, D layers (least),
    for n ≥ 3w + 2. The instances re-check D, |G| = 1 and the rooted views at depth D (no view witness) with nauty."""
    wins = [q for q in parts if isinstance(q, S.Window) and not q.cyclic]
    offs = [q for q in parts if isinstance(q, S.Offsets) and q.cyclic]
    if len(parts) != 2 or len(wins) != 1 or len(offs) != 1:
        return None
    w = _int(wins[0].w)
    ks = [_int(x) for x in offs[0].offsets]
    if w is None or w < 1 or any(k is None for k in ks):
        return None
    jumps = {k for k in ks if k}
    if not jumps or not (all(1 <= k <= w for k in jumps) or all(-w <= k <= -1 for k in jumps)):
        return None

    def diameter(n):
        return sympy.ceiling(sympy.Rational(n - 1, w) if isinstance(n, int) else (n - 1) / w)

    return Family("F144", 3 * w + 2, 0, 0, True, lambda n: sympy.Integer(1), 1, lambda text: text == "trivial", None,
                  lambda n: [], diameter_at=diameter, period=w)


def _line(parts) -> Optional[Family]:
    """F40–F42 where F9 and F15 do not apply (uapcheck/verifier/offsets_line.py)."""
    from . import offsets_line
    jumps = offsets_line.line_jumps(parts)
    return offsets_line.family(jumps) if jumps is not None else None


def _f1(g: int) -> Family:
    def gens(n):
        out = []
        for lo, hi in ((1, g), (g + 1, n)):
            if hi - lo >= 1:
                out.append(_swap(n, lo, lo + 1))
                cyc = list(range(1, n + 1))
                for v in range(lo, hi + 1):
                    cyc[v - 1] = v + 1 if v < hi else lo
                out.append(cyc)
        return out
    def name(text):
        if g == 1:  # the stabiliser of the centre, by name or by structure
            return text == "stabilizer 1" or re.fullmatch(r"S_\((\w+) − 1\) on \{2, …, \1\}", text) is not None
        return text.startswith("S_") and "×" in text
    return Family("F1", g + 2, 2, 2, True, lambda n: sympy.factorial(g) * sympy.factorial(n - g), 1,
                  name, None, gens)


def _f2(w: int, g: int, theorem: str) -> Family:
    def witness(n):
        return g + 2 * w + 3, _swap(n, g + 1, g + 2)

    def name(text):
        return g != 1 or text == "the reflection of {2, …, n}"
    return Family(theorem, g + 2 * w + 3, 2, 3, True, lambda n: 2 * sympy.factorial(g), 1, name, witness)


def _f10(w: int, g: int) -> Family:
    """window(w) cyclic + global(g) with g < w: the wrap-around pairs i, j > g with n − |i − j| ≤ w stay,
    and the swap (w+1 w+2) at position n is the witness (w + 1 > g is not global)."""
    def witness(n):
        return n, _swap(n, w + 1, w + 2)

    def name(text):
        return g != 1 or text == "the reflection of {2, …, n}"
    return Family("F10", 3 * w + 3, 2, 3, True, lambda n: 2 * sympy.factorial(g), 1, name, witness)


def _f4(b: int, g: int) -> Family:
    k0 = g // b + 1  # the block holding g + 1

    def order(n):
        if isinstance(n, ResidueLength):
            blocks, rho = n.blocks, n.rho
        else:
            n = int(n)
            blocks, rho = -(-n // b), n - b * (-(-n // b) - 1)
        sizes: dict = {}
        for size, mult in ((k0 * b - g, 1), (b, blocks - k0 - 1), (rho, 1)):
            sizes[size] = sizes.get(size, 0) + mult
        out = sympy.factorial(g)
        for size, mult in sizes.items():
            out *= sympy.factorial(size) ** mult * sympy.factorial(mult)
        return out

    def witness(n):
        blocks = -(-n // b)
        a = b * (blocks - 2) + 1        # the first position of the next-to-last block (a whole piece)
        c = g + 1                       # the first non-global position (in the first piece)
        return n, _swap(n, a, c)

    def name(text):
        return "disjoint cliques" in text
    return Family("F4", b * (g // b + 2) + 1, 2, 3, True, order, b, name, witness)


def _cross_ball_separates(w: int, s: int, radius: int) -> bool:
    """Colour refinement on the ball of radius R around 1 in the cross graph X (1 ≤ |u − v| ≤ w, s ∤ u − v),
    with the pair types (adjacent in Γ, same class mod s) and the X-distance from 1 as the first colours:
    True when each of 1, …, w ends with a colour of its own.

    In linear space: a position's next colour is its colour, the colours it sees in its own class (one histogram per
    class, less its own colour), and those of the pairs 1 ≤ |u − v| ≤ w across classes (at most 2w); the pairs of the
    third type (neither) see the ball's whole histogram less those two and itself, the same for every position, so
    they add nothing to the partition."""
    import numpy as np
    top = 1 + radius * w
    dist = np.full(top + 1, -1, dtype=np.int64)               # X-distance from 1 on [1, top]; −1 outside the ball
    dist[1] = 0
    frontier = [1]
    for d in range(1, radius + 1):
        nxt = []
        for u in frontier:
            for v in range(max(1, u - w), min(top, u + w) + 1):
                if dist[v] < 0 and v != u and (v - u) % s:
                    dist[v] = d
                    nxt.append(v)
        frontier = nxt
    ball = np.nonzero(dist >= 0)[0]
    offsets = [d for d in range(-w, w + 1) if d % s]                    # the cross pairs 1 ≤ |d| ≤ w, s ∤ d
    cross = ball[:, None] + np.array(offsets, dtype=np.int64)[None, :]
    cross = np.where((cross >= 1) & (cross <= top), cross, 0)           # position 0 is never in the ball
    residue = ball % s
    colour = np.unique(dist[ball], return_inverse=True)[1].ravel()
    count = int(colour.max()) + 1
    while True:
        at = np.full(top + 1, -1, dtype=np.int64)
        at[ball] = colour
        seen = np.sort(at[cross], axis=1)                                 # the colours across, −1 off the ball
        table = np.zeros((s, count), dtype=np.int64)                      # colours per class
        np.add.at(table, (residue, colour), 1)
        own_class = np.unique(table, axis=0, return_inverse=True)[1].ravel()[residue]
        sig = np.column_stack([colour, own_class, seen])
        refined = np.unique(sig, axis=0, return_inverse=True)[1].ravel()
        if int(refined.max()) + 1 == count:
            break
        colour, count = refined, int(refined.max()) + 1
    first = ball <= w
    sizes = np.bincount(colour, minlength=count)
    return bool(first.sum() == w and (sizes[colour[first]] == 1).all())


#: The verifier runs its own local view check of F7 for s up to this (as the engine does).
STRIDED_VIEW_MAX_S = 7
#: F81's instances where D = 2 get the rooted views at depth 2 (a second way beside the checked premises of the proof)
#: up to this length: beyond, each would cost seconds to minutes (s = w + 2 ≥ 10 starts at n ≥ 350)
F81_VIEWS_MAX_N = 300


def _strided_root_rigid(w: int, s: int, i: int) -> bool:
    """F7, step (6) (docs/theory.md §11.11), restated: with the root i (i − 1 positions before it, the
    far end beyond i + 3w + 2s) no τ ≠ id fixing the root's class C(i) pointwise keeps the cells (equal
    runs W(x) ∩ C(i)), maps the classes by a permutation κ read on Y = W(i) ∖ C(i), keeps Γ on Y, and
    maps the type t(x) = {v ∈ Y : x ~ v} of every position of a cell meeting [i − 2w, i + 2w] to the
    type of its image. Every κ is tried (κ ≠ id must fail; κ = id needs distinct types off Y): κ is built residue by
    residue, and a partial κ is dropped as soon as it sends a position of Y outside Y or breaks Γ among the positions
    of Y it places (every completion would fail ``_strided_tau`` on the same pair)."""
    local = _strided_local(w, s, i)
    if local is None:
        return False
    y, where, close, typ = local
    for kappa in _class_maps(w, s, i, y, where):
        tau = _strided_tau(w, s, i, y, where, kappa)
        if tau is None or not _strided_types_fit(close, typ, tau):
            continue
        if any(kappa[r] != r for r in kappa):
            return False
        if any(len({typ[x] for x in c if x not in tau}) != len([x for x in c if x not in tau]) for c in close):
            return False
    return True


def _class_maps(w: int, s: int, i: int, y: list, where: dict):
    """The permutations κ of the residues 1, …, s − 1 (mod s, relative to i) under which every position of Y has an
    image in Y (its cell's position in the class κ of its own) and Γ is kept on Y, by backtracking."""
    def place(kappa: dict, tau: dict):
        r = len(kappa) + 1
        if r == s:
            yield dict(kappa)
            return
        for img in range(1, s):
            if img in kappa.values():
                continue
            kappa[r] = img
            new = {}
            for u in y:
                if (u - i) % s == r:
                    hit = [x for x in where[u] if (x - i) % s == img]
                    new[u] = hit[0] if hit and hit[0] in y else None
            both = tau | new
            if None not in new.values() and all(
                    _strided_near(w, s, a, b) == _strided_near(w, s, both[a], both[b]) for a in new for b in both):
                yield from place(kappa, both)
            del kappa[r]
    return place({}, {})


def _strided_near(w: int, s: int, a: int, b: int) -> bool:
    return abs(a - b) <= w or (a - b) % s == 0


def _strided_local(w: int, s: int, i: int):
    """Y, the cell of each position, the cells meeting [i − 2w, i + 2w] and their types (None if such a
    cell reaches the edge of the positions looked at)."""
    span = range(max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s + 1)
    y = [u for u in range(max(1, i - w), i + w + 1) if (u - i) % s]
    cells: dict = {}
    for x in span:
        if (x - i) % s:
            run = tuple(p for p in range(max(1, x - w), x + w + 1) if (p - i) % s == 0)
            cells.setdefault(run, []).append(x)
    close = [c for c in cells.values() if any(i - 2 * w <= x <= i + 2 * w for x in c)]
    if any(min(c) == span[0] > 1 or max(c) == span[-1] for c in close):
        return None
    where = {x: c for c in cells.values() for x in c}
    typ = {x: frozenset(v for v in y if _strided_near(w, s, v, x)) for c in close for x in c}
    return y, where, close, typ


def _strided_tau(w: int, s: int, i: int, y: list, where: dict, kappa: dict) -> Optional[dict]:
    """τ on Y for the class permutation κ (each u to its cell's position in the class κ(u)), when that
    lies in Y and keeps Γ on Y."""
    tau = {}
    for u in y:
        hit = [x for x in where[u] if (x - i) % s == kappa[(u - i) % s]]
        if not hit or hit[0] not in y:
            return None
        tau[u] = hit[0]
    if any(_strided_near(w, s, a, b) != _strided_near(w, s, tau[a], tau[b]) for a in y for b in y):
        return None
    return tau


def _strided_types_fit(close: list, typ: dict, tau: dict) -> bool:
    for c in close:
        if any(x in tau and typ[tau[x]] != frozenset(tau[v] for v in typ[x]) for x in c):
            return False
        rest = [x for x in c if x not in tau]
        if sorted(sorted(tau[v] for v in typ[x]) for x in rest) != sorted(sorted(typ[x]) for x in rest):
            return False
    return True


@functools.lru_cache(maxsize=None)
def _wide_views_rigid(w: int) -> bool:
    """Theorem F81 (docs/theory.md §11.11), restated: for window(w) + strided(w + 2), w ≥ 2, at every root offset
    i = 1, …, 3w + 3s + 1 (s = w + 2; the last stands for every root away from the ends) a permutation fixing the
    root's class pointwise and keeping every neighbourhood within distance 1 of the root is the identity; the proof's
    other steps (the class, its order, the ends, including the case n ≡ w (mod s) where the end counts agree) hold
    at every n ≥ s(4w + 3). For w = 2, 3 by the local check of F7's step (6) (every class permutation tried), for
    w ≥ 4 by the premises of step (6′), each checked on the verifier's own arcs (``_six_prime_root``) at the roots
    i = 1, …, 2w + 2s + 2: beyond, the positions within 2w + 2s of the root are those of a root away from the start,
    translated."""
    s = w + 2
    if w < 2:
        return False
    if w <= 3:
        return all(_strided_root_rigid(w, s, i) for i in range(1, 3 * w + 3 * s + 2))
    return all(_six_prime_root(w, i) for i in range(1, 2 * w + 2 * s + 3))


def _six_prime_root(w: int, i: int) -> bool:
    """F81 (6′) at the root i of window(w) + strided(w + 2) on the half-line (positions 1, 2, …; the far end
    beyond i + 2w + 2s): (a) the positions with the run {i, i + s} are [i + 2, i + w] and those with the run
    {i + s, i + 2s} are [i + s + 2, i + s + w]; (b) the neighbours in the first of the second's positions separate
    both (colour refinement of that incidence ends discrete: only the identity keeps it); (c) each position of
    W(i) before i shares its residue with one of the first cell, and i + 1 is adjacent to i + w while i − 1 is not;
    (d) positions outside N(i) with one run have distinct neighbours in N(i) (the position n of an empty run, with
    residue w + 1 and far from i, has {i − 1} there)."""
    s = w + 2

    def near(a: int, b: int) -> bool:
        return abs(a - b) <= w or (a - b) % s == 0

    def run(x: int) -> tuple:
        return tuple(p for p in range(max(1, x - w), x + w + 1) if (p - i) % s == 0)
    span = range(max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s + 1)
    cells: dict = {}
    for x in span:
        if (x - i) % s:
            cells.setdefault(run(x), []).append(x)
    first, second = cells.get((i, i + s), []), cells.get((i + s, i + 2 * s), [])
    if first != list(range(i + 2, i + w + 1)) or second != list(range(i + s + 2, i + s + w + 1)):
        return False
    if not _incidence_discrete(first, second, near):
        return False
    before = [u for u in range(max(1, i - w), i - 1)]
    if any(not any((u - v) % s == 0 for v in first) for u in before):
        return False
    if not near(i + 1, i + w) or (i >= 2 and near(i - 1, i + w)):
        return False
    window = [u for u in range(max(1, i - w), i + w + 1)]
    traces: dict = {}
    for x in span:
        if abs(x - i) <= w or (x - i) % s == 0:
            continue  # in N(i)
        close = range(max(span[0], x - w), min(span[-1], x + w) + 1)
        trace = frozenset(u for u in close if abs(u - i) <= w or (u - i) % s == 0) | \
            frozenset(u for u in window if (u - x) % s == 0)
        if (run(x), trace) in traces:
            return False
        traces[(run(x), trace)] = x
    far_end = frozenset({i - 1}) if i >= 2 else frozenset()
    return ((), far_end) not in traces


def _incidence_discrete(points: list, blocks: list, near) -> bool:
    """Colour refinement of the bipartite incidence (a point x and a block y joined when near(x, y)) ends with every point
    and every block alone in its colour, so the only permutations of the points and of the blocks that keep the
    incidence are the identities."""
    joined = {("p", x): [("b", y) for y in blocks if near(x, y)] for x in points} | \
        {("b", y): [("p", x) for x in points if near(x, y)] for y in blocks}
    return _refines_to_singletons({node: node[0] for node in joined}, joined)


def _refines_to_singletons(colour: dict, arcs: dict) -> bool:
    """Equitable colour refinement (1-dimensional Weisfeiler–Leman) from `colour` over the neighbour lists `arcs`
    ends with every node alone in its colour; any permutation keeping the colours and the arcs is then the identity."""
    count = len(set(map(repr, colour.values())))
    while True:
        colour = {x: (colour[x], tuple(sorted(map(repr, (colour[u] for u in arcs[x]))))) for x in arcs}
        names = {c: k for k, c in enumerate(sorted(set(map(repr, colour.values()))))}
        colour = {x: names[repr(colour[x])] for x in arcs}
        if len(names) == count:
            return count == len(arcs)
        count = len(names)


def _strided_views_rigid(w: int, s: int) -> bool:
    """F7's step (6) for 3 ≤ s ≤ w + 1: by trying every class permutation for s ≤ STRIDED_VIEW_MAX_S, by colour
    refinement (step (6″), ``_refined_root``) for larger s up to w = REFINE_MAX_W, as the engine runs them."""
    if not 3 <= s <= w + 1:
        return False
    if s <= STRIDED_VIEW_MAX_S:
        return all(_strided_root_rigid(w, s, i) for i in range(1, 3 * w + 3 * s + 2))
    return w <= REFINE_MAX_W and all(_refined_root(w, s, i) for i in range(1, 2 * w + 2 * s + 3))


REFINE_MAX_W = 64


def _refined_root(w: int, s: int, i: int) -> bool:
    """F7 (6″), restated: the positions within 2w + 2s of the root i on the half-line (whole cells only), the root's
    class each alone, the others by (run, in N(i)), joined when adjacent with an end in N(i); equitable refinement
    ends with each position alone. Runs are rows of incidence with the class members within w of the span; each
    round's colour is the rank of (colour, the sums of c, c², c³ over the colours c of the joined positions): exact
    integers in float64 (below 2⁵³), a function of what τ keeps, so τ keeps every round's colours and a discrete end
    shows τ = id (two multisets with equal sums merge a colour: then the answer is False, never a wrong True)."""
    import numpy as np
    span = np.arange(max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s + 1)
    classed = (span - i) % s == 0
    near = np.arange(max(1, int(span[0]) - w), int(span[-1]) + w + 1)
    near = near[(near - i) % s == 0]
    runs = np.abs(span[:, None] - near[None, :]) <= w                     # row x: W(x) ∩ C(i)
    names = np.unique(runs, axis=0, return_inverse=True)[1].ravel()
    cut = {int(names[-1])} if not classed[-1] else set()
    if span[0] > 1 and not classed[0]:
        cut.add(int(names[0]))
    kept = classed | ~np.isin(names, list(cut))
    span, classed, names = span[kept], classed[kept], names[kept]
    in_ball = (np.abs(span - i) <= w) | classed
    diff = span[:, None] - span[None, :]
    arcs = ((np.abs(diff) <= w) | (diff % s == 0)) & (in_ball[:, None] | in_ball[None, :]) & (diff != 0)
    colour = np.unique(np.where(classed, -span, 2 * names + in_ball), return_inverse=True)[1].ravel()
    weights = arcs.astype(np.float64)
    while True:
        c = colour.astype(np.float64) + 1.0
        sums = weights @ np.column_stack([c, c * c, c * c * c])
        refined = np.unique(np.column_stack([colour, sums.astype(np.int64)]), axis=0, return_inverse=True)[1].ravel()
        if refined.max() == colour.max():
            return int(refined.max()) + 1 == len(span)
        colour = refined


def _f7(w: int, s: int) -> Optional[Family]:
    d_star = w + 2 if (w + 1) % s == 0 else w + 1
    extent = next((1 + r * w for r in range(max(1, w - 1), w + 5) if _cross_ball_separates(w, s, r)), None)
    if extent is None:
        return None
    low = max(d_star + 1, s * (4 * w + 3), 2 * w + 1, extent)

    def name(text):
        return text == "reflection"
    def gens(n):
        return [list(range(n, 0, -1))]
    # D = 2 layers suffice (§11.11, F7 layers): no view witness, checked with nauty per instance
    if s == 2:
        return Family("F7", low, 2, 2, True, lambda n: sympy.Integer(2), 1, name, None, gens)
    if _strided_views_rigid(w, s):
        return Family("F7", max(low, 6 * w + 4 * s + 1), 2, 2, True, lambda n: sympy.Integer(2), 1, name, None,
                      gens)
    return Family("F7", low, 2, 3, False, lambda n: sympy.Integer(2), 1, name, None)


def _f164(w: int, s: int, n: int) -> Optional[Family]:
    """Theorem F164 (docs/theory.md §11.11), restated at one n with 6w + 4s + 1 ≤ n: the keys (|N(i)|, |N(v)|,
    |N(v) ∩ N(i)|, Σ over x ∈ N(v) ∩ N(i) of |N(x) ∩ N(i)|) of the pairs v ~ i in one class mod s and of those in
    different classes are disjoint (`f164_keys`, from the neighbour counts, no matrix), and F7's local check holds: G
    is the reflection and D = 2 layers suffice, least, at n."""
    if not 2 <= s <= w + 1 or n < 6 * w + 4 * s + 1:
        return None
    # step (6″) for every s ≥ 3 (step (6) reads the classes on Y from F7's step (1), which the keys do not give)
    if s >= 3 and (w > REFINE_MAX_W or not all(_refined_root(w, s, i) for i in range(1, 2 * w + 2 * s + 3))):
        return None
    same, other = f164_keys(w, s, n)
    if same & other:
        return None

    def gens(m):
        return [list(range(m, 0, -1))]
    return Family("F164", n, 2, 2, True, lambda m: sympy.Integer(2), 1, lambda text: text == "reflection", None, gens)


def f164_keys(w: int, s: int, n: int) -> tuple[set, set]:
    """Theorem F164's pair keys at n (positions 0, …, n − 1; N(x) = W(x) ∪ C(x), x itself included), over the roots
    i < (n + 1)/2 (ρ gives the rest): (the keys of the pairs v ∈ N(i) ∩ C(i), v ≠ i; those of v ∈ N(i) ∖ C(i)).

    Counted, not built: y ∈ N(x) iff |y − x| ≤ w or s | y − x, and for the root i
    * f_i(x) = |N(x) ∩ N(i)| = [x ∈ C(i)]·|C(i)| + the y ∈ W(x) ∪ W(i) in N(x) ∩ N(i) outside C(x) ∩ C(i);
    * a pair v with |v − i| ≤ 2w: N(v) ∩ N(i) is C(i) ∪ (W(v) ∩ W(i)) for v ∈ C(i), and lies in W(v) ∪ W(i) otherwise,
      so its sum is the sum over x within 2w of i, plus |C(i)| for each x ∈ C(i) beyond (where W(x) ∩ W(i) = ∅);
    * a pair v ∈ C(i) with |v − i| > 2w: f_i(v) = |C(i)| and the sum is S_i = Σ over x ∈ C(i) of f_i(x), so its key
      is (|N(i)|, |N(v)|, |C(i)|, S_i), one for each value of |N(v)| on the class beyond 2w.
    Every count within 3w of i is invariant under i ↦ i + s while [i − 3w, i + 3w] ⊆ [0, n − 1]: the near pairs and
    S_i are computed at the roots i < 3w + s, and repeat with period s above them (i ≤ (n + 1)/2 ≤ n − 1 − 3w)."""
    import numpy as np
    half = (n + 1) // 2
    pos = np.arange(n, dtype=np.int64)
    size = (n - 1 - pos % s) // s + 1                                     # |C(u)|
    lo, hi = np.maximum(pos - w, 0), np.minimum(pos + w, n - 1)
    degree = size + (hi - lo + 1) - ((hi - pos) // s + (pos - lo) // s + 1)  # |C(u)| + |W(u)| − |W(u) ∩ C(u)|

    def member(a, b):  # a ∈ N(b)
        d = a - b
        return (np.abs(d) <= w) | (d % s == 0)
    same: set = set()
    other: set = set()
    computed = min(3 * w + s, half)
    sums = [0] * half
    for i in range(computed):
        xs = pos[max(0, i - 2 * w):min(n, i + 2 * w + 1)]
        ys = pos[max(0, i - 3 * w):min(n, i + 3 * w + 1)]
        c = int(size[i])
        both = ((ys[None, :] - xs[:, None]) % s == 0) & ((ys - i) % s == 0)[None, :]
        f = (member(ys[None, :], xs[:, None]) & member(ys, i)[None, :] & ~both).sum(axis=1)  # int64: all ≤ n²
        in_class = (xs - i) % s == 0
        f = f + in_class * c
        beyond = c * (c - int(in_class.sum()))                          # the x ∈ C(i) beyond 2w, f_i(x) = |C(i)| each
        sums[i] = int(f[in_class].sum()) + beyond
        near = member(xs, i)
        vs = np.nonzero(near & (xs != i))[0]
        pair_sums = (member(xs[None, :], xs[vs][:, None]) & near[None, :]).astype(np.int64) @ f
        for k, total in zip(vs.tolist(), pair_sums.tolist()):
            v = int(xs[k])
            one_class = (v - i) % s == 0
            key = (int(degree[i]), int(degree[v]), int(f[k]), int(total) + (beyond if one_class else 0))
            (same if one_class else other).add(key)
    for i in range(computed, half):
        sums[i] = sums[i - s]
    # the pairs v ∈ C(i) beyond 2w: for each class and each value of |N(v)| on it, its first and last position
    for r in range(min(s, n)):
        members = pos[r::s]
        values = degree[r::s]
        roots = pos[r:half:s]
        for value in sorted(set(values.tolist())):  # np.unique would import numpy.ma (about 35 ms)
            at = members[values == value]
            first, last = int(at[0]), int(at[-1])
            hit = roots[(first < roots - 2 * w) | (last > roots + 2 * w)]
            for i in hit.tolist():
                same.add((int(degree[i]), value, int(size[i]), int(sums[i])))
    return same, other


def _f8(p: S.Offsets) -> Optional[Family]:
    """`offsets {1, s} cyclic` or {−1, −s} (0, the query itself, may be listed), integer s ≥ 3."""
    offs = [o for o in (_int(x) for x in p.offsets) if o is not None]
    if len(offs) != len(p.offsets):
        return None
    jumps = sorted(set(offs) - {0})
    if len(jumps) == 4 and jumps[1:3] == [-1, 1] and jumps[0] == -jumps[3] and jumps[3] >= 3:
        return _f12(jumps[3])
    if len(jumps) != 2 or not (jumps[0] == 1 or jumps[1] == -1):
        return None
    s = max(abs(j) for j in jumps)
    if s < 3:
        return None

    def diameter(n):
        # n − 1 = qs + r, 0 ≤ r < s: q = ⌈n/s⌉ − 1, r = n − 1 − qs; D = q + max(r, s − 2)
        q = sympy.ceiling(sympy.Rational(n, s) if isinstance(n, int) else n / s) - 1
        return q + sympy.Max(n - 1 - s * q, s - 2)

    def rotation(n):
        return [k % n + 1 for k in range(1, n + 1)]

    def name(text):
        return text == "C_n"
    return Family("F8", s * s + 1, 0, 0, True, lambda n: n, 1, name, None, lambda n: [rotation(n)],
                  diameter_at=diameter, period=s)


def _f12(s: int) -> Family:
    """F12: offsets {−s, −1, 1, s} cyclic, s ≥ 3, n ≥ s² + s + 2: D is the largest over 0 ≤ t ≤ n of
    min(c(t), c(n − t)), c(t) = min over y of |y| + |t − sy| (the cost of t with steps ±1, ±s; no other
    wrap-around is shorter), and D(n + 2s) = D(n) + 1, so at a symbolic length it is written by residue:
    Σ_ρ (⌊n/(2s)⌋ + h_ρ)·[n ≡ ρ (mod 2s)] with h_ρ taken at one length of each class; G = D_n; D layers,
    least, for s ≥ 4 (the rooted views re-decided with nauty over one period), D + 1 for s = 3."""
    low = s * s + s + 2
    period = 2 * s

    def cost(t: int) -> int:
        return min(abs(y) + abs(t - s * y) for y in range(t // s - 1, t // s + 2))

    def at(n: int) -> int:
        return max(min(cost(t), cost(n - t)) for t in range(n + 1))

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(at(n))
        start = period * (low // period + 1)  # a multiple of 2s in the range
        total = sympy.Integer(0)
        for r in range(period):
            h = at(start + r) - start // period
            indicator = sympy.floor((n - r) / period) - sympy.floor((n - r - 1) / period)
            total += (sympy.floor(n / period) + h) * indicator
        return total

    def rotation(n):
        return [k % n + 1 for k in range(1, n + 1)]

    def reflection(n):
        return [n + 1 - k for k in range(1, n + 1)]

    def name(text):
        return text == "D_n"
    # F16 (s = 3): D layers as well, by its own proof
    return Family("F12" if s >= 4 else "F16", low, 0, 0, True, lambda n: 2 * n, 1, name, None,
                  lambda n: [rotation(n), reflection(n)], diameter_at=diameter, period=period)


def cyclic_eccentricity(n: int, jumps) -> Optional[int]:
    """The largest distance from 0 in the circulant digraph on Z_n with these jumps (every position's, by
    the rotations), by breadth-first search; None when some position is not reached."""
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for k in jumps:
                v = (u + k) % n
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    return max(dist.values()) if len(dist) == n else None


def _f17(p: S.Offsets) -> Optional[Family]:
    """F17: offsets {a, b} cyclic or {−a, −b}, 2 ≤ a < b, gcd(a, b) = 1, n ≥ max(b² + b + 1, ab − a + 1,
    (b − a)(b − 1) + 1): D(n + b) = D(n) + 1 there, so the verifier takes D at one length of each residue class
    mod b by breadth-first search on its own arcs (and the instance check re-runs one whole period); G = C_n;
    D layers, least (the rooted views decided with nauty at every instance)."""
    from math import gcd
    offs = [o for o in (_int(x) for x in p.offsets) if o is not None]
    if len(offs) != len(p.offsets):
        return None
    jumps = sorted(set(offs) - {0})
    if len(jumps) != 2 or not (jumps[0] > 0 or jumps[1] < 0):
        return None
    a, b = sorted(abs(j) for j in jumps)
    if a < 2 or gcd(a, b) != 1 or b > 400:
        return None
    low = max(b * b + b + 1, a * b - a + 1, (b - a) * (b - 1) + 1)
    cache: dict = {}

    def bfs_diameter(n: int) -> int:
        if n not in cache:
            d = cyclic_eccentricity(n, (a, b))
            assert d is not None  # gcd(a, b) = 1: every position is reached
            cache[n] = d
        return cache[n]

    def at(n: int) -> int:
        m = low + (n - low) % b          # the same residue, at the start of the range
        return bfs_diameter(m) + (n - m) // b

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(at(n))
        total = sympy.Integer(0)
        for r in range(b):
            m = low + (r - low) % b
            h = bfs_diameter(m) - m // b
            total += (sympy.floor(n / b) + h) * (sympy.floor((n - r) / b) - sympy.floor((n - r - 1) / b))
        return total

    def rotation(n):
        return [k % n + 1 for k in range(1, n + 1)]

    def name(text):
        return text == "C_n"
    return Family("F17", low, 0, 0, True, lambda n: n, 1, name, None, lambda n: [rotation(n)],
                  diameter_at=diameter, period=b)


def _f27(parts: list) -> Optional[Family]:
    """F27–F29: cyclic offsets (and unions with cyclic windows) with any other integer jump set
    (uapcheck/verifier/circulant_general.py). A union whose jumps are {±1, …, ±w}, {1..w}, {1, s}, {±1, ±s} or
    coprime one-sided {a, b} is left to those theorems (F5/F6 are lemmas, §18.4; F8, F12, F16, F17 here)."""
    from . import circulant_general
    jumps = circulant_general.union_jumps(parts)
    if jumps is None:
        return None
    if len(parts) >= 2:
        single = S.Offsets(tuple(sorted(set(jumps) | {0})), True)
        for theorem in (_f8, _f17):
            found = theorem(single)
            if found is not None:
                return found
    w = max(abs(j) for j in jumps)
    if jumps in (list(range(1, w + 1)), list(range(-w, 0)), list(range(-w, 0)) + list(range(1, w + 1))):
        return None  # F5, F6: the verifier's lemmas
    return circulant_general.family(jumps)


def _f13(spec: S.Spec, p: S.Offsets, n: int) -> Optional[Family]:
    """F13 at the integer n: a unit u of Z_n (the inverse of one jump) with u·K ≡ {1, s} (F8's range at n)
    or {±1, ±s} (F12's range at n); x ↦ ux is an isomorphism of circulants, so the image's theorem gives
    D, |G| and the layers at n, and its own instance check (on its arcs, at its range's start) is run."""
    import dataclasses
    from math import gcd
    offs = [o for o in (_int(x) for x in p.offsets) if o is not None]
    if len(offs) != len(p.offsets) or n < 3:
        return None
    ks = {o % n for o in offs} - {0}
    if len(ks) != len(set(offs) - {0}):
        return None
    for k in sorted(ks):
        if gcd(k, n) != 1:
            continue
        u = pow(k, -1, n)
        image = sorted({(u * j) % n for j in ks})
        offsets: tuple[int, ...]
        if len(image) == 2 and image[0] == 1:
            s, offsets = image[1], (1, image[1])
            inner = _f8(S.Offsets(offsets, True))
        elif len(image) == 4 and image[0] == 1 and image[3] == n - 1 and image[1] + image[2] == n:
            s, offsets = image[1], (-image[1], -1, 1, image[1])
            inner = _f12(s) if s >= 3 else None
        else:
            continue
        if inner is None or n < inner.low:
            continue
        image_spec = dataclasses.replace(spec, heads=tuple(dataclasses.replace(h, pattern=S.Offsets(offsets, True))
                                                           for h in spec.heads), tokens="n")
        d = int(inner.d(n))

        def instances(what: str, image_spec=image_spec, inner=inner) -> Optional[str]:
            return instance_problem(image_spec, inner, what)
        return Family("F13", n, d, int(inner.layers_at(n)), inner.least, inner.order, 1, inner.name, None,
                      inner.generators, instances=instances,
                      instances_text=(f"x ↦ {u}x (mod {n}) maps the offsets onto {{{', '.join(map(str, offsets))}}}; "
                                      f"Theorem {inner.theorem}'s instances n = {inner.low}..{instance_top(inner)} "
                                      "re-checked on the verifier's arcs"))
    return None


def _f14(w: int, s: int, tokens: Optional[int] = None) -> Family:
    """F14: window(w) + strided(s), s ≥ 2w + 2, n ≥ s(4w + 3): D is M or M + 1 (M = 1 + ⌈⌊s/2⌋/w⌉) by the
    residue of n mod s; the verifier takes D at one length of each residue class from the start of the
    range by breadth-first search on its own arcs (the theorem says D depends on n mod s only there), and
    the instance check re-runs one whole period; G = the reflection; D + 1 layers, not least."""
    low = s * (4 * w + 3)
    pattern = S.PatternUnion((S.Window(w), S.Strided(s)))
    cache: dict = {}

    def bfs_diameter(n: int) -> int:
        if n not in cache:
            outs = patterns.union_out([patterns.head_arcs(pattern, n)], n)
            cache[n] = max(x for v in range(1, n + 1) for x in patterns.bfs(outs, v)[1:] if x is not None)
        return cache[n]

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(bfs_diameter(low + (n - low) % s))
        total = sympy.Integer(0)
        for r in range(s):
            d = bfs_diameter(low + (r - low) % s)
            total += d * (sympy.floor((n - r) / s) - sympy.floor((n - r - 1) / s))
        return total

    def name(text):
        return text == "reflection"
    from . import strided_least
    middle = 1 + -(-(s // 2) // w)
    # F54: M + 1 layers at every n; least when the block witness (restated, its conditions checked) exists
    least = strided_least.block_witness(w, s) is not None and strided_least.block_conditions(w, s) is None
    why = (f"M + 1 = {middle + 1} layers least (Theorem F54): exchanging two blocks of {s} positions keeps every "
           "neighbourhood within M − 1 of position 1 (the proof's conditions checked near the block boundaries, "
           "which covers every n) and is not in G; " if least else
           f"M + 1 = {middle + 1} layers suffice, not claimed least (Theorem F54 (a); D = M open, O11): ")
    why += "where D = M + 1, D layers suffice (rooted views with nauty at every instance)"
    found = None if least else strided_least.beyond_table(w, s)
    kinds = found[1] if found is not None else {}
    decided = sorted(r for r, kind in kinds.items() if kind != "open")
    if found is None or not decided:
        return Family("F14", low, 0, 1, least, lambda n: sympy.Integer(2), 1, name, None, None,
                      diameter_at=diameter, period=s, layers_by=lambda n: sympy.Integer(middle + 1),
                      layers_check=lambda n, d: strided_least.beyond_instance_problem(w, s, n, d), layers_text=why)
    # Theorem F120: the classes where D = M by the verifier's own finite check, class by class
    counts = {r: middle if kinds[r] in ("premise", "pendant") else middle + 1 for r in range(s)}

    def layers_by(n):
        if isinstance(n, int):
            return sympy.Integer(counts[n % s])
        return sympy.Piecewise(*[(sympy.Integer(counts[r]), sympy.Eq(sympy.Mod(n, s), r)) for r in range(s)])

    def check(n: int, d: int) -> Optional[str]:
        return (strided_least.beyond_instance_problem(w, s, n, d)
                or strided_least.beyond_class_problem(w, s, kinds[n % s], n, d))

    every = len(decided) == s
    said = {"premise": f"M = {middle} layers least (the common-neighbour premise)",
            "pendant": f"M = {middle} layers least (a far clique with one pendant, Theorem F199)",
            "swap": f"M + 1 = {middle + 1} layers least (a swap of two far positions is a view witness)",
            "far": f"D = M + 1 = {middle + 1} layers least (F54 (a), rooted views with nauty at every instance)",
            "open": f"M + 1 = {middle + 1} layers, not claimed least (O11)"}
    text = (f"Theorem F120 (the verifier's own check at every length from {low} to {found[0]}, past which it repeats "
            f"with period {s}; re-checked on its arcs at every instance): " + "; ".join(
                f"n mod {s} in {{{', '.join(str(r) for r in range(s) if kinds[r] == kind)}}}: {said[kind]}"
                for kind in said if kind in kinds.values()))
    if tokens is not None:
        at = f"n mod {s} = {tokens % s}: {said[kinds[tokens % s]]} (Theorem F120)"
        return Family("F14", low, 0, 1, kinds[tokens % s] != "open", lambda n: sympy.Integer(2), 1, name, None, None,
                      diameter_at=diameter, period=s, layers_by=layers_by, layers_check=check, layers_text=text,
                      length_text=at)
    return Family("F14", low, 0, 1, every, lambda n: sympy.Integer(2), 1, name, None, None,
                  diameter_at=diameter, period=s, layers_by=layers_by, layers_check=check, layers_text=text,
                  least_classes=() if every else (s, tuple(decided)))


def _f11(w: int, s: int) -> Family:
    """F11: window(w) + strided(s), w + 2 ≤ s ≤ 2w + 1, n ≥ s(4w + 3): D = 3 when two positions at opposite
    ends have no common neighbour (a ≤ s − w − 1 from the left, b ≤ s − w − 1 from the right: the class of
    each misses the other's clipped window), else 2; G = the reflection; D + 1 layers, not least. At a
    symbolic length D is written by residue: Σ_r D_r·[n ≡ r (mod s)], [n ≡ r] = ⌊(n − r)/s⌋ − ⌊(n − r − 1)/s⌋."""
    low = s * (4 * w + 3)

    def far(n: int) -> bool:
        for a in range(1, s - w):
            for b in range(1, s - w):
                j = n + 1 - b
                if j % s not in {p % s for p in range(1, a + w + 1)} and \
                        a % s not in {p % s for p in range(j - w, n + 1)}:
                    return True
        return False

    def diameter(n):
        if isinstance(n, int):
            return sympy.Integer(3 if far(n) else 2)
        return sum(((3 if far(s * low + r) else 2) * (sympy.floor((n - r) / s) - sympy.floor((n - r - 1) / s))
                    for r in range(s)), sympy.Integer(0))

    def name(text):
        return text == "reflection"
    from . import strided_least
    found = strided_least.witness(w, s)
    # F53: 3 layers at every n of the range; least when the witness (restated, re-checked on the half-line) exists
    if found is not None and strided_least.witness_on_the_half_line(w, s) is not None:
        found = None
    if found is None and s == w + 2 and _wide_views_rigid(w):
        # F81: D layers (2 or 3 by n mod s), least: the restated local check, and the rooted views with nauty at depth
        # D at every instance
        why = ("D layers least (Theorem F81 where D = 2: " + ("the local check of F7's step (6) restated and run at every "
               "root offset" if w <= 3 else "the premises of its step (6′) checked at every root offset") +
               "; Theorem F53 (a) where D = 3), " + (
                   "rooted views decided with nauty at every instance" + (
                       "" if low <= F81_VIEWS_MAX_N else f" where D = 3 (where D = 2 up to n = {F81_VIEWS_MAX_N} only)")
                   if low <= views.MAX_N else "the far-clique premise of F53 (a) re-checked on the arcs at every "
                   f"instance where D = 3 (above the rooted-view limit n = {views.MAX_N})"))
        return Family("F11", low, 0, 0, True, lambda n: sympy.Integer(2), 1, name, None, None,
                      diameter_at=diameter, period=s, layers_by=diameter,
                      layers_check=lambda n, d: strided_least.instance_problem(w, s, n, d,
                                                                               two_rigid=n <= F81_VIEWS_MAX_N),
                      layers_text=why)
    why = ("3 layers least (Theorem F53): the swap ({} {}) keeps every neighbourhood within distance 1 of position 1 "
           "(re-checked on the half-line, which covers every n) and is not in G; ".format(*found[1:])
           if found is not None else "3 layers suffice, not claimed least (Theorem F53 (a)): ")
    why += ("where D = 3 the far positions are pairwise adjacent, so D layers suffice (rooted views with nauty at "
            "every instance)")
    return Family("F11", low, 0, 1, found is not None, lambda n: sympy.Integer(2), 1, name, None, None,
                  diameter_at=diameter, period=s, layers_by=lambda n: sympy.Integer(3),
                  layers_check=lambda n, d: strided_least.instance_problem(w, s, n, d), layers_text=why,
                  quoted_witness=None if found is None else (lambda n: (found[0], _swap(n, found[1], found[2]))))


def same_value(fam: Family, claimed: sympy.Expr, n_sym: sympy.Symbol, layers: bool = False) -> bool:
    """The claimed D (or layer count) equals the family's for every n: structurally, or in every
    residue class n = period·k + j (k a positive integer symbol), where floor and ceiling of
    (period·k + j)/period evaluate exactly."""
    mine = fam.layers_at(n_sym) if layers else fam.d(n_sym)
    if claimed == mine:
        return True
    if fam.diameter_at is None:
        return sympy.simplify(claimed - mine) == 0
    k = sympy.Symbol("k", integer=True, positive=True)
    for j in range(fam.period):
        at = {n_sym: fam.period * k + j}
        if sympy.simplify(claimed.xreplace(at) - mine.xreplace(at)) != 0:
            return False
    return True


def _dilated_ball_separates(steps: list, radius: int) -> bool:
    """Colour refinement on the ball of radius R around 1 in the distance graph with these steps (u ~ v iff
    |u − v| is a step), the distance from 1 as the first colours: True when each of 1, …, L (the largest
    step) ends with a colour of its own."""
    top = steps[-1]
    last = 1 + radius * top
    dist = {1: 0}
    frontier = [1]
    for d in range(1, radius + 1):
        nxt = []
        for u in frontier:
            for s in steps:
                for v in (u - s, u + s):
                    if 1 <= v <= last and v not in dist:
                        dist[v] = d
                        nxt.append(v)
        frontier = nxt
    ball = sorted(dist)
    step_set = set(steps)
    colour = _refined(ball, {v: dist[v] for v in ball},
                      lambda v, colour: [colour[u] for u in ball if abs(u - v) in step_set])
    return _alone(colour, ball, range(1, top + 1))


def _refined(ball, colour: dict, marks) -> dict:
    """Colour refinement on a finite ball (the verifier's own, for the base cases of F7 and F9): the colour
    and the sorted marks a position sees give its next colour, until the number of colours is stable."""
    while True:
        sig = {v: (colour[v], tuple(sorted(marks(v, colour)))) for v in ball}
        ids = {x: k for k, x in enumerate(sorted(set(sig.values())))}
        new = {v: ids[sig[v]] for v in ball}
        if len(set(new.values())) == len(set(colour.values())):
            return colour
        colour = new


def _alone(colour: dict, ball, positions) -> bool:
    """Whether each of `positions` is in the ball with a colour of its own."""
    counts: dict = {}
    for v in ball:
        counts[colour[v]] = counts.get(colour[v], 0) + 1
    return all(v in colour and counts[colour[v]] == 1 for v in positions)


def _f9(w: int, wd: int, r: int) -> Optional[Family]:
    """window(w) + dilated(w', r), 2 ≤ r ≤ w + 1, w'r ≥ w + 2: steps S = {1..w} ∪ {r, …, w'r}, L = w'r, μ the
    least non-step; D = ⌊(n − 1 − μ)/L⌋ + 2 layers (least), G the reflection, for n ≥ max(2L + 1, RL + μ + 1)."""
    steps = sorted(set(range(1, w + 1)) | {k * r for k in range(1, wd + 1)})
    top = steps[-1]
    mu = next(d for d in range(1, top + 1) if d not in steps)
    radius = next((k for k in range(1, 5) if _dilated_ball_separates(steps, k)), None)
    if radius is None:
        return None

    def diameter(n):
        # ⌊(n − 1 − μ)/L⌋ + 2
        return sympy.floor((sympy.Integer(n) if isinstance(n, int) else n) / top - sympy.Rational(1 + mu, top)) + 2

    def gens(n):
        return [list(range(n, 0, -1))]

    def name(text):
        return text == "reflection"
    return Family("F9", max(2 * top + 1, radius * top + mu + 1), 0, 0, True, lambda n: sympy.Integer(2), 1, name,
                  None, gens, diameter_at=diameter, period=top)


def _z_costs(steps: list, top: int) -> list:
    """The least number of steps from ±S summing to x, for 0 ≤ x ≤ top: breadth-first search on the integers
    in [−L, top + L] (a sum of steps of size ≤ L can be ordered so that its partial sums stay within L of
    [0, x]: a positive step while below x, a negative one while at or above it)."""
    big = steps[-1]
    lo, hi = -big, top + big
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for s in steps:
                for v in (u - s, u + s):
                    if lo <= v <= hi and v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    return [dist[x] for x in range(top + 1)]


def _inside_cost(steps: list, x: int) -> int:
    """The least number of steps of a walk from 0 to x inside [0, x]."""
    dist = {0: 0}
    frontier = [0]
    while x not in dist:
        nxt = []
        for u in frontier:
            for s in steps:
                for v in (u - s, u + s):
                    if 0 <= v <= x and v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    return dist[x]


def _f15(w: int, wd: int, r: int) -> Optional[Family]:
    """F15: window(w) + dilated(w', r), r ≥ w + 2, w'r ≤ 96: with c the cost on Z (its own BFS), E its largest
    value below L, X2 = max(0, ⌊(w(1 + E) − r)L/(L − w)⌋ + 1) (c(x + L) = c(x) + 1 beyond), the running maximum
    of c fitted as ⌊(N − μ′)/L⌋ + C on one period from X2 + L − 1 and extended down to N1, G_s the largest
    walk-inside cost below L, R the radius of the base case: D = ⌊(n − 1 − μ′)/L⌋ + C layers (least), G the
    reflection, for n from the least length where every hypothesis of the proof holds."""
    steps = sorted(set(range(1, w + 1)) | {k * r for k in range(1, wd + 1)})
    top = steps[-1]
    if top > 96:
        return None
    e_max = max(_z_costs(steps, top - 1))
    x2 = max(0, (w * (1 + e_max) - r) * top // (top - w) + 1)
    n0 = x2 + top - 1
    costs = _z_costs(steps, n0 + 2 * top)
    running = [max(costs[:k + 1]) for k in range(len(costs))]
    if max(costs[x2:n0 + 1]) < running[x2 + top - 1]:
        return None
    gains = [k for k in range(n0 + 1, n0 + top + 1) if running[k] == running[k - 1] + 1]
    if len(gains) != 1:
        return None
    mu = gains[0] % top
    const = running[n0] - (n0 - mu) // top
    if any((k - mu) // top + const != running[k] for k in range(n0, len(running))):
        return None
    n1 = n0
    while n1 > 0 and (n1 - 1 - mu) // top + const == running[n1 - 1]:
        n1 -= 1
    short = max(_inside_cost(steps, x) for x in range(1, top))
    radius = next((k for k in range(1, 7) if _dilated_ball_separates(steps, k)), None)
    if radius is None:
        return None

    def hypotheses(n: int) -> bool:
        q = (n - 1 - mu) // top
        x = top * q + mu
        return (n >= 2 * top + 1 and n >= 1 + radius * top and n - 1 >= n1 and q + const >= short + 1
                and x - 1 >= n1 and 2 * x > n - 1 and x >= radius * top + 1)
    low = max(2 * top + 2, n1 + top + 1, (radius + 1) * top + 2, top * (short + 1 - const) + mu + 1 + top)
    if not all(hypotheses(k) for k in range(low, low + 2 * top)):
        return None
    while low > 1 and hypotheses(low - 1):
        low -= 1

    def diameter(n):
        return sympy.floor((sympy.Integer(n) if isinstance(n, int) else n) / top - sympy.Rational(1 + mu, top)) + const

    def gens(n):
        return [list(range(n, 0, -1))]

    def name(text):
        return text == "reflection"
    return Family("F15", low, 0, 0, True, lambda n: sympy.Integer(2), 1, name, None, gens,
                  diameter_at=diameter, period=top)


@dataclass(frozen=True)
class ResidueLength:
    """n = b·k + r with k ≥ 1 a symbol: ⌈n/b⌉ and the last piece's size as expressions in k."""
    n: sympy.Expr
    blocks: sympy.Expr
    rho: int


def residue_length(b: int, r: int, k: sympy.Symbol) -> ResidueLength:
    return ResidueLength(b * k + r, k + (1 if r else 0), r if r else b)


def instance_problem(spec: S.Spec, fam: Family, what: str, diameters: Optional[dict] = None) -> Optional[str]:
    """At n = low, …, low + INSTANCES − 1 (and a whole residue period): the verifier's arcs give the
    family's diameter, group order (and the generators preserve them), and the witness fails D layers.
    F13 runs its image's instance check instead. `diameters`: the instances' diameters found on the verifier's
    arcs so far for this spec (n -> D, or None when not strongly connected), kept by the caller for one
    certificate, whose connectivity, group and layer steps re-check the same instances."""
    if fam.instances is not None:
        return fam.instances(what)
    return _instance_problem_on_arcs(spec, fam, what, {} if diameters is None else diameters)


def _instance_lengths(fam: Family) -> list[int]:
    """The lengths re-checked: low..instance_top, without the n sharing a factor with F27's gcd (outside
    its range: not strongly connected there)."""
    from math import gcd
    return [n for n in range(fam.low, instance_top(fam) + 1) if gcd(n, fam.coprime_to) == 1]


class _Instance:
    """The verifier's arcs of a spec at one length n, and what is read off them, each made when first asked."""

    def __init__(self, spec: S.Spec, n: int) -> None:
        self.spec, self.n = spec, n

    @functools.cached_property
    def heads(self) -> list:
        return [patterns.head_arcs(h.pattern, self.n) for h in self.spec.heads]

    @functools.cached_property
    def balls(self) -> bit_distances.Balls:
        """Every breadth-first search at once (bit_distances)."""
        return bit_distances.Balls(patterns.union_out(self.heads, self.n), self.n)

    @functools.cached_property
    def labels(self) -> dict:
        return patterns.labels_at(self.spec, self.heads, self.n)


def _instance_problem_on_arcs(spec: S.Spec, fam: Family, what: str, diameters: dict) -> Optional[str]:
    for n in _instance_lengths(fam):
        at = _Instance(spec, n)
        if n not in diameters:
            diameters[n] = at.balls.diameter()
        d = diameters[n]
        if d is None:
            return f"n = {n}: not strongly connected"
        want = int(fam.d(n))
        if d != want and not (fam.bound and d < want):
            return f"n = {n}: the diameter is {d}, " + (f"above the bound {want}" if fam.bound else f"not {want}")
        if what == "connectivity":
            continue
        if what == "group" and n % fam.modulus in fam.group_open:
            continue  # no group is claimed on this class
        if what == "group":
            full, method = groups.full_order(at.labels, n, "none")
            if full is None:
                return f"n = {n}: the group is not computed ({method})"
            if full != int(fam.order(n)):
                return f"n = {n}: the pattern has {full} symmetries, the theorem says {fam.order(n)}"
        if what == "layers":
            problem = _layers_problem(fam, at, want)
            if problem:
                return problem
    return None


def _layers_problem(fam: Family, at: _Instance, want: int) -> Optional[str]:
    """The layer count at one instance: the family's own check (F53), the witness fails D layers, or (least
    without a witness) no view witness at depth D (nauty)."""
    n = at.n
    if fam.layers_check is not None:
        problem = fam.layers_check(n, want)
        if problem:
            return problem
    if fam.witness is not None:
        i, perm = fam.witness(n)
        if patterns.preserves(perm, at.labels):
            return f"n = {n}: the witness is a symmetry"
        bad = patterns.view_bad_positions(perm, at.heads, n)
        near = [v for v in bad if at.balls.within(v, i, want - 1)]
        if near:
            return f"n = {n}: position {near[0]}, whose neighbourhood σ changes, is within D − 1 of {i}"
    if fam.least and fam.witness is None and fam.generators is not None:
        gens = fam.generators(n)
        if not all(patterns.preserves(g, at.labels) for g in gens):
            return f"n = {n}: a generator is not a symmetry"
        try:
            found = views.decide(at.heads, n, want, gens)
        except views.NoNauty as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        if found:
            return f"n = {n}: {found}"
    return None


def instance_top(fam: Family) -> int:
    """The last length re-checked: INSTANCES lengths (or a whole period of the order's formula) from the
    start of the range, up to MAX_INSTANCE_N; a family whose D depends on n (F8) always gets a whole
    period of D's formula, wherever its range starts."""
    top = min(MAX_INSTANCE_N, fam.low + max(INSTANCES, fam.modulus + 1) - 1)
    if fam.diameter_at is not None:
        top = max(top, fam.low + fam.period)
    return top


def same_order(fam: Family, claimed: sympy.Expr, n_sym: sympy.Symbol, residue: Optional[int]) -> bool:
    """The claimed order (for n ≡ residue mod the family's modulus, or every n) is the theorem's."""
    if fam.modulus == 1:
        return sympy.simplify(claimed - fam.order(n_sym)) == 0
    if residue is None:
        return False
    k = sympy.Symbol("k", integer=True, positive=True)
    length = residue_length(fam.modulus, residue, k)
    mine = fam.order(length)
    theirs = claimed.xreplace({n_sym: length.n})
    return sympy.simplify(theirs - mine) == 0 or sympy.simplify(sympy.combsimp(theirs / mine)) == 1
