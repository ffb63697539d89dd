"""A head `blocks(b) + strided(s)` beside heads of hubs `global(g_h)` / `star`, at symbolic n: Theorem F171 of
docs/theory.md §11.11.

The grid head's graph is the union of two clique partitions, the blocks P and the residue classes Q mod s. Every
clique of it lies in one block or in one class (two positions of a clique in different blocks share a class, and a
third one adjacent to both shares it too), so from n ≥ s(b + 1) on, where every class has more than b positions, its
maximal cliques of more than b positions are the classes and the others the blocks of at least two positions: every
automorphism keeps P and Q. A hub head's hubs X_h = {1..g_h} are the positions attending to every other (n ≥ g_h + 2).
With g = max g_h ≤ b the hubs lie in the first block, so G is the set of permutations that keep the blocks, the
residue classes and every X_h — the stabiliser of two partitions with marks: the blocks with the first one cut at
every g_h into layers, each layer marked (fixed), and the classes. That is Theorem F72's structure (the cells, the
weighted graph H of the parts, its twin classes, one period inserted after N − L), and its order formula on each class
of n mod L = lcm(b, s) is read and checked as there (graphs/partition_heads.py).

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial, gcd
from typing import Mapping, Optional, Sequence

import sympy
from sympy import And, Eq, Ge, Mod

from ..spec import Pattern
from . import partition_heads as PH
from .closed_forms import GroupCase, _atoms, _is_int, _merge, _span, _Undecided

SECTION = "docs/theory.md §11.11, Theorem F171"
GROUP_KIND = "grid hub heads"
#: No closed form is attempted when a length to count would exceed this.
MAX_N = 320


@dataclass(frozen=True)
class GridHubs:
    """The grid head's block size b and stride s, the hub heads' hub counts (distinct, increasing), L, N and one
    order formula per residue class of n mod L."""
    block: int
    stride: int
    hubs: tuple
    modulus: int
    start: int
    classes: tuple           # PH.ClassOrder per residue

    def name(self) -> str:
        sets = ", ".join(_span(1, g) for g in self.hubs)
        return f"the permutations keeping the blocks of {self.block}, the residue classes mod {self.stride}, and {sets}"


def grid_json(found: GridHubs) -> dict:
    """The decision as the certificates write it."""
    return {"block": found.block, "stride": found.stride, "hubs": list(found.hubs), "modulus": found.modulus,
            "start": found.start, "name": found.name(),
            "classes": [{"residue": c.residue, "from": c.low, "base": c.base, "constant": c.constant,
                         "power": c.power, "factorials": [list(x) for x in c.factorials]} for c in found.classes]}


def read_heads(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, int, tuple]]:
    """(b, s, the hub counts) when one head is `blocks(b) + strided(s)` (b, s ≥ 2) and every other is `global(g_h)` or
    `star` (blocks(1) adds nothing), at least one, with max g_h ≤ b; None otherwise."""
    grid, hubs = None, set()
    for pattern in dict.fromkeys(patterns):
        try:
            atoms = _merge(_atoms(pattern, dict(params)))
        except (_Undecided, KeyError, TypeError, ValueError):
            return None
        if not atoms or not all(a.args and all(_is_int(x) for x in a.args) for a in atoms):
            return None
        kinds = [(a.kind, int(a.args[0])) for a in atoms if not (a.kind == "blocks" and int(a.args[0]) == 1)]
        names = sorted(k for k, _ in kinds)
        if names == ["blocks", "strided"] and grid is None:
            sizes = dict(kinds)
            if sizes["blocks"] < 2 or sizes["strided"] < 2:
                return None
            grid = (sizes["blocks"], sizes["strided"])
        elif names == ["global"] and kinds[0][1] >= 1:
            hubs.add(kinds[0][1])
        else:
            return None
    if grid is None or not hubs or max(hubs) > grid[0]:
        return None
    return grid[0], grid[1], tuple(sorted(hubs))


def sides_at(b: int, s: int, hubs: Sequence[int], n: int) -> list:
    """The two marked partitions at n: the blocks, the first cut at every hub count into marked layers, and the
    residue classes mod s."""
    cuts = [0] + [g for g in hubs if g < n] + [min(b, n)]
    first = [(frozenset(range(lo + 1, hi + 1)), True) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
    blocks = [(frozenset(range(lo, min(lo + b, n + 1))), False) for lo in range(b + 1, n + 1, b)]
    classes = [(frozenset(range(r, n + 1, s)), False) for r in range(1, min(s, n) + 1)]
    return [first + blocks, classes]


def order_at(b: int, s: int, hubs: Sequence[int], n: int) -> int:
    """|G| at n by (a) and (b): ∏ |cell|! · ∏ |T|! · |Aut of H's quotient by its twin classes| (sides, marks, class
    sizes and weights kept; every such map lifts to H by bijections of the twin classes, and H's to G by bijections of
    the cells), the quotient's automorphisms counted by a search."""
    st = PH.structure_of(sides_at(b, s, hubs, n), n)
    out = 1
    for c in st.cells:
        out *= factorial(len(c))
    for t in st.classes:
        out *= factorial(len(t))
    return out * quotient_automorphisms(st)


def quotient_automorphisms(st) -> int:
    """The number of permutations of H's twin classes that keep each one's side, mark (a marked class is fixed) and
    size, and the weight between every two classes (that of any member of one to any member of the other)."""
    owner = {}
    for k, (side, part, _) in enumerate(st.vertices):
        for x in part:
            owner[(side, x)] = k
    weight: dict = {}
    for cell in st.cells:
        x = next(iter(cell))
        weight[(owner[(0, x)], owner[(1, x)])] = len(cell)
    cls = {v: k for k, t in enumerate(st.classes) for v in t}
    q = len(st.classes)
    w = [[0] * q for _ in range(q)]
    for (u, v), size in weight.items():
        w[cls[u]][cls[v]] = w[cls[v]][cls[u]] = size
    key = []
    for k, t in enumerate(st.classes):
        side, _, mark = st.vertices[t[0]]
        key.append((side, len(t), k if mark else -1))
    image: list[int] = []

    def extend() -> int:
        k = len(image)
        if k == q:
            return 1
        total = 0
        for cand in range(q):
            if cand in image or key[cand] != key[k]:
                continue
            if all(w[k][j] == w[cand][image[j]] for j in range(k)):
                image.append(cand)
                total += extend()
                image.pop()
        return total

    return extend()


def floor_of(b: int, s: int, hubs: Sequence[int]) -> int:
    """From this n on the theorem's description of G holds: every class has more than b positions, and every hub
    head has two non-hubs."""
    return max(s * (b + 1), max(hubs) + 2)


def start_of(b: int, s: int, hubs: Sequence[int]) -> tuple[int, int]:
    """(L, N): L = lcm(b, s), N = L⌈max(b + g, s(b + 1), g + 2)/L⌉ + 2L."""
    modulus = b * s // gcd(b, s)
    g = max(hubs)
    return modulus, modulus * -(-max(b + g, floor_of(b, s, hubs)) // modulus) + 2 * modulus


@lru_cache(maxsize=64)
def _decide(patterns: tuple, params_items: tuple) -> Optional[GridHubs]:
    params = dict(params_items)
    got = read_heads(patterns, params)
    if got is None:
        return None
    b, s, hubs = got
    modulus, start = start_of(b, s, hubs)
    if start + 3 * modulus > MAX_N:
        return None

    def structure(k: int):
        return PH.structure_of(sides_at(b, s, hubs, k), k)

    classes = []
    for residue in range(modulus):
        found = PH._class_order(lambda k: order_at(b, s, hubs, k), structure, residue, start, modulus,
                                floor_of(b, s, hubs))
        if found is None:
            return None
        classes.append(found)
    return GridHubs(b, s, hubs, modulus, start, tuple(classes))


def decide(patterns: Sequence[Pattern], params: Optional[Mapping] = None) -> Optional[GridHubs]:
    params = dict(params or {})
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    return _decide(tuple(dict.fromkeys(patterns)), ints)


def group_cases(patterns: Sequence[Pattern], n: sympy.Symbol, params: Optional[Mapping] = None) -> Optional[list]:
    """Theorem F171 as GroupCases, one per residue class of n mod L, each carrying (GROUP_KIND, the decision) for its
    certificate; None outside the theorem."""
    if not isinstance(n, sympy.Symbol) or len(set(patterns)) < 2:
        return None
    found = decide(patterns, params)
    if found is None:
        return None
    rule = f"a head of blocks and residue classes beside heads of hubs: the stabiliser of the blocks, the classes and " \
           f"the hubs ({SECTION})"
    out = []
    for c in found.classes:
        cond = And(Ge(n, c.low), Eq(Mod(n, found.modulus), c.residue))
        out.append(GroupCase(cond, c.expression(n, found.modulus), None, None, frozenset(), rule, found.name(),
                             intersection=(GROUP_KIND, found)))
    return out
