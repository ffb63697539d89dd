"""Two heads whose groups are both large products, at symbolic n (docs/theory.md §11.11, Theorem F72; open
question O8): each head is a *partition head*, `blocks(b)`, `strided(s)` or `global(g)`, or `blocks(b)` or
`strided(s)` with `global(g)`. Such a head's graph is a disjoint union of cliques (its *parts*: the blocks, the
residue classes mod s, or the one independent set of non-globals) with, when it has globals, the set
{1, …, g} attending to and attended by every position; its group is the stabiliser of its parts with the
globals kept (Sym({1..g}) × the permutations of the non-globals that map parts onto parts).

So G = ∩ heads Aut(Γ_h) is the set of permutations that keep both heads' parts and globals. Let H be the
bipartite weighted graph whose vertices are the two heads' parts (each head's globals one marked vertex) and
whose edge p — q has weight |p ∩ q| (the *cells*). Then G ≅ (∏_cells Sym(cell)) ⋊ Aut(H) (Aut(H) keeping the
two sides and the marks), and Aut(H) ≅ (∏_T Sym(T)) ⋊ Q over the twin classes T of H (vertices with the same
weights to every vertex), Q the group induced on the twin classes. So

    |G| = |Q| · ∏_cells |cell|! · ∏_T |T|!.

F72 (the residue classes). Let L be the lcm of the block sizes and strides, at least one head without blocks.
For n ≥ N = L⌈max(g_max + b_max, v_1, v_2)/L⌉ + 2L (v_h: from where the head's group is its parts' stabiliser), inserting L positions after x₀ = N − L (a multiple of L past the globals and
the first block, before the last block) maps n onto n + L and keeps every part: the new positions form new full
blocks, each a twin in H of the block L positions before it, or join the parts and cells of the old positions.
So the quotient of H by its twin classes, with its weights and marks, is the same at n and n + L, Q is the same,
and each cell and twin class grows by a fixed amount per period. On each residue class e of n mod L, from the
least n_e ≥ N of the class: |G(n)| = |Q_e| · X^t · ∏_c (|c| + δ_c t)! · ∏_T (|T| + ε_T t)!, t = (n − n_e)/L, read off
at n_e and n_e + L (|G(n_e)| exactly, by the concrete engine); checked again at n_e + L and n_e + 2L.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import factorial, gcd
from typing import Callable, Mapping, Optional, Sequence

import sympy
from sympy import And, Eq, Ge, Integer, Mod

from ..spec import Pattern
from .closed_forms import GroupCase, _atoms, _is_int, _merge, _span, _Undecided

SECTION = "docs/theory.md §11.11, Theorem F72"
#: No closed form is attempted when a representative length would exceed this.
MAX_REPRESENTATIVE_N = 240


@dataclass(frozen=True)
class PartitionHead:
    """A head whose arcs are a clique partition of the non-globals (``kind``: blocks of ``size``, residues mod
    ``size``, or one independent set "rest") plus ``globals`` positions 1..g attending to and attended by all."""
    kind: str
    size: int
    globals: int

    def words(self) -> str:
        rest = {"blocks": f"the blocks of {self.size}", "strided": f"the residue classes mod {self.size}",
                "rest": ""}[self.kind]
        if not self.globals:
            return rest
        first = _span(1, self.globals)
        return first if not rest else f"{first} and {rest} minus it"


@dataclass(frozen=True)
class ClassOrder:
    """|G| on the residue class n ≡ ``residue`` (mod L), for every such n ≥ ``low``: ``constant`` · ``power``^t ·
    ∏ (z + δ·t)! over ``factorials`` (z, δ, multiplicity), t = (n − ``base``)/L."""
    residue: int
    low: int
    base: int
    constant: int
    power: int
    factorials: tuple

    def at(self, n: int, modulus: int) -> Optional[int]:
        t, r = divmod(n - self.base, modulus)
        if r:
            return None
        if t < 0:
            value = sympy.Rational(self.constant) * sympy.Rational(self.power) ** t
            for z, d, m in self.factorials:
                if z + d * t < 0:
                    return None
                value *= sympy.Integer(factorial(z + d * t)) ** m
            return int(value) if value.is_Integer else None
        out = self.constant * self.power ** t
        for z, d, m in self.factorials:
            out *= factorial(z + d * t) ** m
        return out

    def expression(self, n: sympy.Symbol, modulus: int) -> sympy.Expr:
        """The order in n on the class, with t = ⌊n/L⌋ − ⌊base/L⌋ (= (n − base)/L there)."""
        t = sympy.floor(n / modulus) - self.base // modulus
        out = Integer(self.constant) * Integer(self.power) ** t
        for z, d, m in self.factorials:
            out *= sympy.factorial(z + d * t) ** m
        return out


@dataclass(frozen=True)
class PartitionGroup:
    """The whole answer: the two heads, L, N and one order per residue class."""
    heads: tuple
    modulus: int
    start: int
    classes: tuple

    def name(self) -> str:
        a, b = (h.words() for h in self.heads)
        return f"the permutations keeping {a}, and {b}"


def partition_json(found: PartitionGroup) -> dict:
    """The decision as the certificates write it (L, N, the name, every class's order formula and bound)."""
    return {"modulus": found.modulus, "start": found.start, "name": found.name(),
            "classes": [{"residue": c.residue, "from": c.low, "base": c.base, "constant": c.constant,
                         "power": c.power, "factorials": [list(x) for x in c.factorials]} for c in found.classes]}


def classify(pattern: Pattern, params: Mapping) -> Optional[PartitionHead]:
    try:
        atoms = _merge(_atoms(pattern, dict(params)))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    if not atoms or not all(a.kind in ("blocks", "strided", "global") and len(a.args) >= 1
                            and all(_is_int(x) for x in a.args) for a in atoms):
        return None  # `full`, windows, offsets, …: not a partition head
    kinds = {a.kind: int(a.args[0]) for a in atoms}
    if len(kinds) != len(atoms) or not set(kinds) <= {"blocks", "strided", "global"}:
        return None
    g = kinds.get("global", 0)
    if "blocks" in kinds and "strided" in kinds:
        return None
    for kind in ("blocks", "strided"):
        if kind in kinds:
            return PartitionHead(kind, kinds[kind], g) if kinds[kind] >= 2 else None
    return PartitionHead("rest", 1, g) if g else None


def parts_at(head: PartitionHead, n: int) -> tuple[list, frozenset]:
    """(the parts of the non-globals, the globals) at length n."""
    g = min(head.globals, n)
    marked = frozenset(range(1, g + 1))
    groups: dict = {}
    for x in range(g + 1, n + 1):
        key = 0 if head.kind == "rest" else ((x - 1) // head.size if head.kind == "blocks" else (x - 1) % head.size)
        groups.setdefault(key, set()).add(x)
    return [frozenset(v) for _, v in sorted(groups.items())], marked


def valid_from(head: PartitionHead) -> int:
    """From this n on the head's group is the stabiliser of its parts with the globals kept: no position
    outside the globals attends to every position (two parts, or two non-globals for `global(g)`)."""
    if head.kind == "rest":
        return head.globals + 2
    if head.kind == "strided":
        return head.globals + 2
    return head.size * (head.globals // head.size + 1) + 1


@dataclass(frozen=True)
class _Structure:
    cells: list          # the cells (sets of positions)
    vertices: list       # H's vertices: (side, part) with part a frozenset; the marked ones are the globals
    classes: list        # H's twin classes (lists of vertex indices)


def structure_at(heads: Sequence[PartitionHead], n: int) -> _Structure:
    sides = []
    for h in heads:
        parts, marked = parts_at(h, n)
        sides.append(([(marked, True)] if marked else []) + [(p, False) for p in parts])
    return structure_of(sides, n)


def structure_of(sides: Sequence[Sequence[tuple[frozenset, bool]]], n: int) -> _Structure:
    """The cells and H's twin classes of two partitions of 1..n, each given as its parts with a mark (a marked part
    is fixed: it is its own twin class)."""
    vertices = []
    owner: list[dict[int, int]] = [{}, {}]  # position -> vertex index, per side
    for side, parts in enumerate(sides):
        for part, mark in parts:
            vertices.append((side, part, mark))
            for x in part:
                owner[side][x] = len(vertices) - 1
    cells: dict = {}
    for x in range(1, n + 1):
        cells.setdefault((owner[0][x], owner[1][x]), set()).add(x)
    sizes = {key: len(v) for key, v in cells.items()}
    signature = []
    for idx, (side, _, mark) in enumerate(vertices):
        row = tuple(sorted((other, sizes[(idx, other) if side == 0 else (other, idx)])
                           for other in range(len(vertices)) if vertices[other][0] != side
                           and ((idx, other) if side == 0 else (other, idx)) in sizes))
        signature.append((side, mark, idx if mark else -1, row))
    classes: dict = {}
    for idx, sig in enumerate(signature):
        classes.setdefault(sig, []).append(idx)
    return _Structure([frozenset(v) for v in cells.values()], vertices, list(classes.values()))


def _insert(x: int, at: int, length: int) -> int:
    return x if x <= at else x + length


def _growth(structure: Callable[[int], _Structure], n: int, at: int, modulus: int) -> Optional[tuple]:
    """Cells and twin classes at n mapped into n + L by inserting L positions after ``at``: (power X, the
    factorial terms (size, growth)), or None when a new twin class appears (the argument does not apply)."""
    old, new = structure(n), structure(n + modulus)
    cell_of = {x: k for k, c in enumerate(new.cells) for x in c}
    terms = []
    hit = set()
    for c in old.cells:
        images = {cell_of[_insert(x, at, modulus)] for x in c}
        if len(images) != 1:
            return None
        k = images.pop()
        hit.add(k)
        terms.append((len(c), len(new.cells[k]) - len(c)))
    power = 1
    for k, c in enumerate(new.cells):
        if k not in hit:
            if any(x <= at or x > at + modulus for x in c):
                return None
            power *= factorial(len(c))
    vertex_of = {}
    for idx, (side, part, _) in enumerate(new.vertices):
        vertex_of[(side, min(part))] = idx
    class_of = {v: k for k, cls in enumerate(new.classes) for v in cls}
    hit = set()
    for cls in old.classes:
        images = set()
        for v in cls:
            side, part, _ = old.vertices[v]
            images.add(class_of[vertex_of[(side, _insert(min(part), at, modulus))]])
        if len(images) != 1:
            return None
        k = images.pop()
        if k in hit:
            return None
        hit.add(k)
        terms.append((len(cls), len(new.classes[k]) - len(cls)))
    if len(hit) != len(new.classes):
        return None
    return power, terms


def _order_engine(patterns: Sequence[Pattern], n: int, params: Mapping) -> int:
    from .build import build_graph
    from .symmetry import symmetry_group
    return int(symmetry_group([build_graph(p, n, dict(params)) for p in patterns]).order)


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def _class_order(order_at: Callable[[int], int], structure: Callable[[int], _Structure], residue: int, start: int,
                 modulus: int, floor_n: int) -> Optional[ClassOrder]:
    """The order formula on one residue class (Theorem F72 (c)), read at its base and checked two periods on against
    the exact order ``order_at``; the class's range goes down by whole periods to ``floor_n`` while the formula equals
    it."""
    base = start + (residue - start) % modulus
    grown = _growth(structure, base, start - modulus, modulus)
    if grown is None:
        return None
    power, terms = grown
    st = structure(base)
    fixed = 1
    for c in st.cells:
        fixed *= factorial(len(c))
    for cls in st.classes:
        fixed *= factorial(len(cls))
    order = order_at(base)
    if order % fixed:
        return None
    constant = order // fixed
    folded: Counter = Counter()
    for z, d in terms:
        if d == 0:
            constant *= factorial(z)
        else:
            folded[(z, d)] += 1
    found = ClassOrder(residue, base, base, constant, power, tuple(sorted((z, d, m) for (z, d), m in folded.items())))
    for again in (base + modulus, base + 2 * modulus):
        if found.at(again, modulus) != order_at(again):
            return None
    low = base
    while low - modulus >= floor_n and found.at(low - modulus, modulus) == order_at(low - modulus):
        low -= modulus
    return ClassOrder(residue, low, base, constant, power, found.factorials)


@lru_cache(maxsize=64)
def _decide(patterns: tuple, params_items: tuple) -> Optional[PartitionGroup]:
    params = dict(params_items)
    heads = [classify(p, params) for p in patterns]
    hs = [h for h in heads if h is not None]
    if len(heads) != 2 or len(hs) != 2 or all(h.kind == "blocks" for h in hs):
        return None  # (two block partitions: no period inserts twins, the quotient grows)
    modulus = 1
    for h in hs:
        if h.kind in ("blocks", "strided"):
            modulus = _lcm(modulus, h.size)
    big_g = max(h.globals for h in hs)
    big_b = max([h.size for h in hs if h.kind == "blocks"] + [1])
    start = modulus * -(-max([big_g + big_b] + [valid_from(h) for h in hs]) // modulus) + 2 * modulus
    if start + 3 * modulus > MAX_REPRESENTATIVE_N:
        return None
    classes = []
    for residue in range(modulus):
        found = _class_order(lambda k: _order_engine(patterns, k, params), lambda k: structure_at(hs, k), residue,
                             start, modulus, max(valid_from(h) for h in hs))
        if found is None:
            return None
        classes.append(found)
    return PartitionGroup(tuple(hs), modulus, start, tuple(classes))


def decide(patterns: Sequence[Pattern], params: Optional[Mapping] = None) -> Optional[PartitionGroup]:
    params = dict(params or {})
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    return _decide(tuple(dict.fromkeys(patterns)), ints)


def group_cases(patterns: Sequence[Pattern], n: sympy.Symbol, params: Optional[Mapping] = None) -> Optional[list]:
    """G of two partition heads at symbolic n as GroupCases (one per residue class of n mod L)."""
    if not isinstance(n, sympy.Symbol):
        return None
    found = decide(patterns, params)
    if found is None:
        return None
    rule = f"two partition heads: the stabiliser of both heads' parts ({SECTION})"
    name = found.name()
    out = []
    for c in found.classes:
        cond = Ge(n, c.low) if found.modulus == 1 else And(Ge(n, c.low), Eq(Mod(n, found.modulus), c.residue))
        out.append(GroupCase(cond, c.expression(n, found.modulus), None, None, frozenset(), rule, name,
                             intersection=("partition heads", found)))
    return out
