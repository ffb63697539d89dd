"""How a group G ≤ S_n permutes its twin classes, named by structure (docs/theory.md §11.9, "Groups named by structure").

The twin classes C_1, …, C_q of G (maximal sets of positions every permutation of which lies in G) are
permuted by G, and the kernel of that action is ∏ Sym(C). So G = {σ : σ maps each class onto a class and
induces an element of Q}, where Q ≤ Sym{C_1, …, C_q} is the induced group, given here by generators
(permutations of class indices) and its exact order |Q| = |G| / ∏ |C|!.

``name_action`` names Q by structure, or returns None (the caller keeps "a group of order |Q|"):

1. Families. Two orbits of Q are *linked* when a bijection φ between them commutes with every generator:
   then each element's action on the second orbit is φ ∘ (its action on the first) ∘ φ⁻¹. A family is an
   orbit O with the orbits linked to it; its *blocks* are B_c = c ∪ φ₂(c) ∪ … (c ∈ O), and Q acts on the
   family through P = Q|_O on the k = |O| blocks.
2. Bounds. P ≤ D_k on a cyclic order of O when an orbital graph of P (the images of one pair of classes)
   is a single k-cycle; P is then computed exactly inside D_k, as pairs (rotation, reflection). Otherwise
   P ≤ Sym(O).
3. Orders. Q ≤ ∏_F P_F ≤ ∏_F bound_F. When |Q| equals the product of the exact dihedral parts and k! for
   the others, both are equalities: Q = ∏_F P_F, and each P_F bounded by Sym(O_F) is Sym(O_F).

Each family is then named on positions: ``H ≀ S_k on the blocks …`` (H the symmetric groups of the classes
of the first block; the classes of a block have distinct sizes, so blocks correspond class by class),
``S_m ≀ D_k on the blocks … in cyclic order``, ``D_k on the cycle (…)`` / ``C_k`` for single positions,
``the reflection of {a, …, b}`` for an involution reversing an interval, ``the reflection of {1, 2} and of
{3, …, n} at once`` for one reversing two or three disjoint intervals (a cyclic reflection i ↦ c − i (mod n)
is one). Anything else: None.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional, Sequence

from .groups import position_set, position_set_latex

#: Q is analysed only while it moves at most this many classes (above: "a group of order N").
MAX_MOVED_CLASSES = 4096
#: An orbit is compared with at most this many families of its signature (a bound on the work).
MAX_LINK_TRIES = 32
#: Above this many classes in an orbit, only a few candidate pairs are tried for its cyclic order.
ALL_PAIRS_UP_TO = 64
#: An involution is named as the reflection of several intervals at once only up to this many intervals.
MAX_REVERSED_INTERVALS = 3

Perm = Sequence[int]


# ---------------------------------------------------------------------------------------------
# Typed factors (each with its wording and its formula)

def _blocks_words(blocks: Sequence[Sequence[int]], ordered: bool) -> Optional[tuple[str, str]]:
    """The blocks as words and LaTeX: all of them up to 4 (up to 6 when their order matters), else the
    first two, … and the last when each block is the previous one shifted by a constant; when the order
    does not matter, `k blocks of s positions covering X` as a last resort. None: not writable."""
    k = len(blocks)
    text = [position_set(b) for b in blocks]
    tex = [position_set_latex(b) for b in blocks]
    if k <= (6 if ordered else 4):
        return ", ".join(text), ", ".join(tex)
    shift = blocks[1][0] - blocks[0][0]
    if all(tuple(x + shift * j for x in blocks[0]) == tuple(b) for j, b in enumerate(blocks)):
        return f"{text[0]}, {text[1]}, …, {text[-1]}", rf"{tex[0]}, {tex[1]}, \ldots, {tex[-1]}"
    if ordered:
        return None
    covered = sorted(x for b in blocks for x in b)
    return (f"{k} blocks of {len(blocks[0])} positions covering {position_set(covered)}",
            rf"{k}\text{{ blocks of {len(blocks[0])} positions covering }} {position_set_latex(covered)}")


def _cycle_words(cycle: Sequence[int]) -> Optional[tuple[str, str]]:
    """A cyclic order of positions: listed up to 6, else (a, a + s, …, b) when it is a progression."""
    if len(cycle) <= 6:
        return "(" + ", ".join(map(str, cycle)) + ")", "(" + ", ".join(map(str, cycle)) + ")"
    step = cycle[1] - cycle[0]
    if step > 0 and all(b - a == step for a, b in zip(cycle, cycle[1:])):
        return (f"({cycle[0]}, {cycle[1]}, …, {cycle[-1]})", rf"({cycle[0]}, {cycle[1]}, \ldots, {cycle[-1]})")
    return None


@dataclass(frozen=True)
class WreathOn:
    """H ≀ T on blocks: T (S_k, C_k or D_k) permutes the blocks, in the listed cyclic order for C_k and
    D_k; H is the symmetric groups on the classes of size ≥ 2 of the first block, carried to the other
    blocks class by class (`parts`: each block's classes; the classes of a block have distinct sizes).
    As a set: the σ that map blocks onto blocks, inducing an element of T, and each class of a block onto
    the class of the same size of its image block."""
    top: str
    blocks: tuple
    parts: tuple  # per block, its classes (1-based positions)
    words: tuple  # (text, latex) of the blocks
    compound = True  # bracketed among other factors

    @property
    def base(self) -> tuple:
        return tuple(c for c in self.parts[0] if len(c) > 1)

    @property
    def whole(self) -> bool:
        return len(self.parts[0]) == 1

    @property
    def least(self) -> int:
        return min(self.blocks[0])

    def _base(self, tex: bool) -> str:
        if self.whole:
            m = len(self.base[0])
            return f"S_{{{m}}}" if tex else f"S_{m}"
        if tex:
            return "(" + r" \times ".join(rf"S_{{{len(c)}}} \text{{ on }} {position_set_latex(c)}"
                                          for c in self.base) + ")"
        return "(" + " × ".join(f"S_{len(c)} on {position_set(c)}" for c in self.base) + ")"

    def to_json(self) -> dict:
        return {"kind": "wreath", "top": self.top, "parts": [[list(c) for c in block] for block in self.parts]}

    @property
    def text(self) -> str:
        k = len(self.blocks)
        order = " in cyclic order" if self.top != "S" else ""
        return f"{self._base(False)} ≀ {self.top}_{k} on the blocks {self.words[0]}{order}"

    @property
    def latex(self) -> str:
        k = len(self.blocks)
        order = r"\text{ in cyclic order}" if self.top != "S" else ""
        return rf"{self._base(True)} \wr {self.top}_{{{k}}} \text{{ on the blocks }} {self.words[1]}{order}"


@dataclass(frozen=True)
class CycleOn:
    """C_k (the rotations) or D_k (rotations and reflections) of positions in the listed cyclic order."""
    top: str
    cycle: tuple
    words: tuple

    @property
    def least(self) -> int:
        return min(self.cycle)

    def to_json(self) -> dict:
        return {"kind": "cycle", "top": self.top, "cycle": list(self.cycle)}

    @property
    def text(self) -> str:
        return f"{self.top}_{len(self.cycle)} on the cycle {self.words[0]}"

    @property
    def latex(self) -> str:
        return rf"{self.top}_{{{len(self.cycle)}}} \text{{ on the cycle }} {self.words[1]}"


# ---------------------------------------------------------------------------------------------
# Orbits, links, bounds

def _orbits(q: int, gens: Sequence[Perm]) -> list[list[int]]:
    """The orbits of size ≥ 2, each sorted, ordered by least member."""
    parent = list(range(q))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for g in gens:
        for x in range(q):
            a, b = find(x), find(g[x])
            if a != b:
                parent[max(a, b)] = min(a, b)
    by_root: dict[int, list[int]] = defaultdict(list)
    for x in range(q):
        by_root[find(x)].append(x)
    return [m for m in sorted(by_root.values()) if len(m) > 1]


def _equivariant(a: list[int], b: list[int], gens: Sequence[Perm]) -> list[dict[int, int]]:
    """Every bijection φ: a → b with φ(g x) = g φ(x) for every generator g (φ is fixed by φ(a[0]))."""
    found = []
    a0 = a[0]
    fixed = tuple(g[a0] == a0 for g in gens)
    for b0 in b:
        if tuple(g[b0] == b0 for g in gens) != fixed:  # φ keeps which generators fix a point
            continue
        phi = {a0: b0}
        stack, ok = [a0], True
        while stack and ok:
            x = stack.pop()
            for g in gens:
                gx, gy = g[x], g[phi[x]]
                known = phi.get(gx)
                if known is None:
                    phi[gx] = gy
                    stack.append(gx)
                elif known != gy:
                    ok = False
                    break
        if ok and len(phi) == len(a) and len(set(phi.values())) == len(a):
            found.append(phi)
    return found


def _signature(orbit: list[int], gens: Sequence[Perm]) -> tuple:
    """An invariant of the action on an orbit (linked orbits share it): each generator's cycle type."""
    out = []
    for g in gens:
        seen: set[int] = set()
        lengths = []
        for x in orbit:
            if x in seen:
                continue
            length, y = 0, x
            while y not in seen:
                seen.add(y)
                y = g[y]
                length += 1
            lengths.append(length)
        out.append(tuple(sorted(lengths)))
    return (len(orbit), tuple(out))


def _families(orbits: list[list[int]], gens: Sequence[Perm]) -> list[list[tuple[list[int], list[dict]]]]:
    """Orbits grouped into families: [(first orbit, [identity]), (linked orbit, [φ, φ′, …]), …]."""
    families: list[list[tuple[list[int], list[dict]]]] = []
    by_signature: dict[tuple, list[int]] = defaultdict(list)  # signature -> indices into families
    for orbit in orbits:
        sig = _signature(orbit, gens)
        for f in by_signature[sig][:MAX_LINK_TRIES]:  # unlinked at worst: the orders then decide nothing
            maps = _equivariant(families[f][0][0], orbit, gens)
            if maps:
                families[f].append((orbit, maps))
                break
        else:
            by_signature[sig].append(len(families))
            families.append([(orbit, [{x: x for x in orbit}])])
    return families


def _cycle(orbit: list[int], gens: Sequence[Perm]) -> Optional[list[int]]:
    """A cyclic order of the orbit kept by every generator (an orbital graph that is one cycle), or None.
    The natural order (by least member) is tried first."""
    k = len(orbit)
    x = orbit[0]
    candidates = [orbit[1], orbit[-1]] + [g[x] for g in gens]
    if k <= ALL_PAIRS_UP_TO:
        candidates += orbit[1:]
    tried: set[int] = set()
    for y in candidates:
        if y == x or y in tried:
            continue
        tried.add(y)
        edges = {frozenset((x, y))}
        stack = [(x, y)]
        while stack and len(edges) <= k:
            u, v = stack.pop()
            for g in gens:
                e = frozenset((g[u], g[v]))
                if e not in edges:
                    edges.add(e)
                    stack.append((g[u], g[v]))
        if len(edges) != k:
            continue
        nbrs: dict[int, list[int]] = defaultdict(list)
        for e in edges:
            u, v = tuple(e)
            nbrs[u].append(v)
            nbrs[v].append(u)
        if any(len(nbrs[u]) != 2 for u in orbit):
            continue
        order, prev, cur = [x], x, min(nbrs[x])
        while cur != x:
            order.append(cur)
            a, b = nbrs[cur]
            prev, cur = cur, (b if a == prev else a)
        if len(order) == k:
            return order
    return None


def _dihedral_part(cycle: list[int], gens: Sequence[Perm]) -> frozenset:
    """P inside D_k on the cycle, as the set of its elements (a, e): c_i ↦ c_(a + e·i mod k)."""
    k = len(cycle)
    index = {c: i for i, c in enumerate(cycle)}
    moves = set()
    for g in gens:
        a = index[g[cycle[0]]]
        e = 1 if index[g[cycle[1]]] == (a + 1) % k else -1
        moves.add((a, e))
    seen = {(0, 1)}
    frontier = [(0, 1)]
    while frontier:
        a1, e1 = frontier.pop()
        for a2, e2 in moves:
            prod = ((a2 + e2 * a1) % k, e1 * e2)  # first (a1, e1), then (a2, e2)
            if prod not in seen:
                seen.add(prod)
                frontier.append(prod)
    return frozenset(seen)


# ---------------------------------------------------------------------------------------------
# Naming

def name_by_colours(classes: Sequence[Sequence[int]], colours: Sequence[int], order: int) -> Optional[list]:
    """Q named without its generators: Q keeps a colouring of the classes (size, internal label, and any
    refinement every automorphism keeps), so Q ≤ ∏ Sym(classes of one colour); when |Q| is that product's
    order, Q is the product: S_m ≀ S_k on each colour's k classes of size m. None otherwise (or when a
    colour holds single positions, which Q cannot permute freely: they would be twins)."""
    by_colour: dict[int, list[int]] = defaultdict(list)
    for x in range(len(classes)):
        by_colour[colours[x]].append(x)
    moved = [members for members in by_colour.values() if len(members) > 1]
    if sum(map(len, moved)) > MAX_MOVED_CLASSES or not moved:
        return None
    bound = 1
    for members in moved:
        bound *= math.factorial(len(members))
        if bound > order:
            return None
    if bound != order:
        return None
    factors = []
    for members in moved:
        parts = [(tuple(v + 1 for v in classes[x]),) for x in sorted(members)]
        if len(parts[0][0]) < 2:
            return None
        blocks = [p[0] for p in parts]
        words = _blocks_words(blocks, ordered=False)
        if words is None:
            return None
        factors.append(WreathOn("S", tuple(blocks), tuple(parts), words))
    return factors


def name_action(classes: Sequence[Sequence[int]], gens: Sequence[Perm], order: int) -> Optional[list]:
    """The factors naming Q (the group the generators induce on the 0-based `classes`, of exact order
    `order`) on positions, or None. The caller adds the symmetric groups of the classes Q fixes."""
    q = len(classes)
    gens = [tuple(g[:q]) for g in gens if tuple(g[:q]) != tuple(range(q))]
    if not gens or order < 2:
        return None
    orbits = _orbits(q, gens)
    if sum(map(len, orbits)) > MAX_MOVED_CLASSES:
        return None
    families = _families(orbits, gens)
    tops: list[tuple[str, list[int]]] = []  # per family: the top group and the order of its first orbit
    product = 1
    for family in families:
        orbit = family[0][0]
        k = len(orbit)
        cycle = _cycle(orbit, gens) if k >= 3 else None
        if cycle is None:
            tops.append(("S", orbit))
            product *= math.factorial(k)
        else:
            part = _dihedral_part(cycle, gens)
            if len(part) == 2 * k:
                tops.append(("S" if k == 3 else "D", cycle if k > 3 else orbit))
            elif len(part) == k and all(e == 1 for _, e in part):
                tops.append(("C", cycle))
            else:
                return None
            product *= len(part)
        if product > order:
            return None
    if product != order:
        return None
    fixed_singles = {c[0] + 1 for x, c in enumerate(classes) if len(c) == 1
                     and all(g[x] == x for g in gens)}
    factors = []
    for family, (top, order_of_blocks) in zip(families, tops):
        factor = _family_factor(classes, family, top, order_of_blocks, gens, fixed_singles)
        if factor is None:
            return None
        factors.append(factor)
    return factors


def _progression(points: Sequence[int]) -> bool:
    pts = sorted(points)
    return len(pts) < 3 or all(b - a == pts[1] - pts[0] for a, b in zip(pts, pts[1:]))


def _choose_maps(classes, family, first: list[int]) -> list[dict]:
    """One φ per linked orbit (any choice names the same group: each gives blocks that correspond class
    by class); greedily the one whose blocks are most often arithmetic progressions, for the wording."""
    chosen: list[dict] = []
    for _, maps in family:
        def untidy(phi, so_far=tuple(chosen)):
            return sum(not _progression([v for psi in (*so_far, phi) for v in classes[psi[c]]]) for c in first)
        chosen.append(min(maps, key=untidy))
    return chosen


def _reversed_intervals(swap: dict[int, int], fixed_singles: set):
    """An involution of single positions (`swap`, on the positions it moves) that reverses two or more disjoint
    intervals and fixes nothing inside them but their midpoints: ReflectionsOf those intervals, or None. The
    least moved position p and its image q bound an interval [p, q] that must be reversed (x ↦ p + q − x on
    every x in it, the midpoint of an odd interval being one of the fixed positions); then the next."""
    from .groups import ReflectionsOf
    intervals, midpoints = [], []
    covered: set[int] = set()
    for p in sorted(swap):
        if p in covered:
            continue
        q = swap[p]
        if q < p:
            return None
        for x in range(p, q + 1):
            if x in swap:
                if swap[x] != p + q - x:
                    return None
            elif 2 * x == p + q and x in fixed_singles:
                midpoints.append(x)
            else:
                return None
        covered.update(range(p, q + 1))
        intervals.append((p, q))
    if not 2 <= len(intervals) <= MAX_REVERSED_INTERVALS:
        return None
    fixed_singles.difference_update(midpoints)  # one factor names them, so the factors stay disjoint
    return ReflectionsOf(tuple(intervals))


def _family_factor(classes, family, top: str, first: list[int], gens, fixed_singles: set):
    """One family's factor on positions (WreathOn, CycleOn or the reflection), or None."""
    from .groups import ReflectionOf
    maps = _choose_maps(classes, family, first)
    members = [[tuple(v + 1 for v in classes[phi[c]]) for phi in maps] for c in first]  # per block
    sizes = [len(m) for m in members[0]]
    blocks = [tuple(sorted(x for m in block for x in m)) for block in members]
    if all(s == 1 for s in sizes):
        if len(sizes) == 1:
            if top == "S":
                return None  # two single positions exchanged freely would be twins
            words = _cycle_words([b[0] for b in blocks])
            return None if words is None else CycleOn(top, tuple(b[0] for b in blocks), words)
        if len(blocks) != 2:
            return None
        # an involution of single positions: the reflection of an interval or progression?
        moved = sorted(blocks[0] + blocks[1])
        lo, hi = moved[0], moved[-1]
        if (lo + hi) % 2 == 0 and (lo + hi) // 2 in fixed_singles:
            fixed_singles.discard((lo + hi) // 2)  # one factor names it, so the factors stay disjoint
            moved = sorted(moved + [(lo + hi) // 2])
        swap = {}
        for a, b in zip(members[0], members[1]):
            swap[a[0]], swap[b[0]] = b[0], a[0]
        if any(swap.get(p, p) != moved[-1 - j] for j, p in enumerate(moved)) or position_set(moved).endswith(
                "positions)"):
            return _reversed_intervals(swap, fixed_singles)
        return ReflectionOf(tuple(moved))
    if len(set(sizes)) != len(sizes):
        return None  # two classes of one size in a block: the blocks do not correspond class by class
    words = _blocks_words(blocks, ordered=top != "S")
    if words is None:
        return None
    return WreathOn(top, tuple(blocks), tuple(tuple(block) for block in members), words)
