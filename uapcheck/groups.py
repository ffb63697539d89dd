"""The named groups of positions 1..n, in one place: which groups have names, their generators and
closed-form orders, how they meet, which group a bias kind leaves, and how a derived order compares
with an expected one.

The graph engine (graphs/symmetry.py computes a pattern's group exactly and names it with these),
the closed forms for symbolic n (graphs/closed_groups.py), the rules (rules/symmetry.py, SYM-DENSE and
SYM-AUT) and the `expect` check (expect.py) all take their group knowledge from here.

* ``NamedGroup``: S_n, C_n, D_n, the reflection i ↦ n + 1 − i, the trivial group. Their string values
  are the names the reports print and the JSON carries. ``symbolic_group``/``concrete_group``: a named
  group's order (closed form for symbolic n) and generators for n tokens.
* ``GroupInfo``: the typed record of a derived group that passes between the rules, the verdict and
  the printers (a named group, or one named by its structure, with its order and generators).
* ``meet``: the intersection of two named groups (n ≥ 3), again a named group (docs/theory.md §9).
* ``bias_group``: the group of the trainable bias of a kind (docs/theory.md §9).
* ``rotation``, ``reflection``, ``symmetric_generators``, ``stabilizer_generators``: generators as
  1-based image lists; ``orbits``: the orbits of the group they generate.
* ``order_value``, ``same_order``: a derived order (int, SymPy expression or text such as ``k!``)
  compared with an integer without materialising either as a decimal string.

Groups named by their structure, and orders printed in a bounded form:
* ``order_text``: an order as an int when it is short (at most ``SHORT_DIGITS`` digits), else as a
  string: factorials as ``k!`` (``65535!``, ``2 · 62!``), a plain long integer as ``≈ 10^k``. No
  digit string of a huge integer is ever built (Python refuses those above 4,300 digits).
* ``position_set``: ``{1, 2}``, ``{3, …, 64}``, ``{2, 4, …, 64}``, or the first few and a count.
* ``structure_name``: the product of the symmetric groups on the twin classes (positions that every
  symmetry may exchange freely), e.g. ``S_2 on {1, 2} × S_62 on {3, …, 64}``, and the part that
  permutes the classes, named when it is the reflection or trivial.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field, replace
from itertools import compress
from operator import ne
from typing import Any, Optional, Sequence, Union

import sympy

from . import spec as S
from .memo import exact_cache
from .value_enum import ValueEnum


class NamedGroup(ValueEnum):
    """A group of positions 1..n with a standard name. The JSON strings are the values."""

    SYMMETRIC = "S_n"
    CYCLIC = "C_n"  # the rotations i ↦ i + 1 mod n
    DIHEDRAL = "D_n"  # rotations and the reflection
    REFLECTION = "reflection"  # {id, i ↦ n + 1 − i}
    TRIVIAL = "trivial"

    @property
    def symbolic_generators(self) -> tuple[str, ...]:
        """The generators as printed for a symbolic n."""
        return _SYMBOLIC_GENERATORS[self]


_SYMBOLIC_GENERATORS: dict[str, tuple[str, ...]] = {
    NamedGroup.SYMMETRIC: ("(1 2)", "(1 2 ... n)"), NamedGroup.CYCLIC: ("(1 2 ... n)",),
    NamedGroup.DIHEDRAL: ("(1 2 ... n)", "i ↦ n + 1 − i"), NamedGroup.REFLECTION: ("i ↦ n + 1 − i",),
    NamedGroup.TRIVIAL: (),
}



def symbolic_generators(name: Optional[str]) -> tuple[str, ...]:
    """The printed generators of a named group for symbolic n; () for a group without a standard name."""
    return _SYMBOLIC_GENERATORS.get(name, ()) if name is not None else ()


#: The named groups between the trivial group and S_n.
ROTATION_AND_REFLECTION_GROUPS = frozenset({NamedGroup.CYCLIC, NamedGroup.DIHEDRAL, NamedGroup.REFLECTION})


@dataclass(frozen=True)
class GroupInfo:
    """A derived group: its name (a NamedGroup, a structural name such as "stabilizer 3", or None),
    its order (an int; a text such as "n!" or "2 · n" for symbolic n or a huge order) and generators
    (image tuples, or texts for symbolic n)."""

    name: Optional[str]
    order: Union[int, str, None]
    generators: tuple
    condition: str = ""
    # the condition as a SymPy relation, for the formula in a claim (the words stay `condition`)
    condition_formula: Any = field(default=None, compare=False)
    # the name as typed parts when it is a structure (GroupStructure), for formulas (the words stay `name`)
    structure: Any = field(default=None, compare=False)
    # the order in math mode when it is a product of factorials (the words stay `order`)
    order_latex: Optional[str] = field(default=None, compare=False)
    #: G by residue class of n (docs/theory.md §11.4): when it is not empty, G is the class's group on each
    #: class (GroupClass, together covering every residue of n mod their modulus, the last one printed
    #: "else"), `name` and `order` are the classes' words, and `generators` is empty
    classes: tuple = ()
    #: the order as a SymPy expression when it is symbolic (`order` is its words): the JSON writes it in the
    #: documented form (bignum.json_order: a Piecewise by its pieces); at an integer n, the order as an int when
    #: `order` is its bounded words ("25!", "≈ 10^26") and it has at most 1000 digits (`exact_int`), which the
    #: JSON writes out (docs/language.md, "Orders")
    exact: Any = field(default=None, compare=False)

    @property
    def order_value(self) -> Any:
        """The order for the JSON (bignum.json_order writes it): by class when G is, else the exact one."""
        if self.classes:
            return [{"modulus": c.modulus, "residues": list(c.residues), "order": c.group.order_value}
                    for c in self.classes]
        return self.order if self.exact is None else self.exact

    def every_class(self) -> bool:
        """Whether the classes cover every residue of n mod their modulus (else the group is stated on those
        classes only, its range excluding the others, docs/theory.md §11.4: no class is printed "else")."""
        if not self.classes:
            return True
        modulus = self.classes[0].modulus
        return sorted(r for c in self.classes for r in c.residues) == list(range(modulus))

    def to_json(self) -> dict:
        from .bignum import json_order
        out = {"name": self.name, "order": json_order(self.order_value), "condition": self.condition or None,
               "generators": [g if isinstance(g, str) else list(g) for g in self.generators]}
        if self.classes:
            out["classes"] = [c.to_json() for c in self.classes]
        return out


@dataclass(frozen=True)
class GroupClass:
    """G on one residue class of n: the residues r with n mod `modulus` = r, the class as a SymPy condition
    (Eq(Mod(n, L), r), or an Or of such) and the class's group (a GroupInfo without condition)."""

    modulus: int
    residues: tuple
    condition: Any
    group: GroupInfo

    def to_json(self) -> dict:
        from .bignum import json_order
        return {"modulus": self.modulus, "residues": list(self.residues), "name": self.group.name,
                "order": json_order(self.group.order_value),
                "generators": [g if isinstance(g, str) else list(g) for g in self.group.generators]}


def class_condition(n, modulus: int, residues) -> Any:
    """n mod L = r, or n mod L = r₁ ∨ …, as one SymPy condition (the residues in increasing order)."""
    eqs = [sympy.Eq(sympy.Mod(n, modulus), r, evaluate=False) for r in sorted(residues)]
    return eqs[0] if len(eqs) == 1 else sympy.Or(*eqs, evaluate=False)


MAX_CONCRETE = 256  # above this, orders and generators are given by formula, not materialised


def offset_class(kind: str, n: int, m: int):
    """The class of offset m = l − i under a trainable `bias KIND` that depends on the offset
    (docs/theory.md TD-BIAS: every kind but `free`)."""
    if kind == "toeplitz":
        return m
    if kind == "circulant":
        return m % n
    if kind == "symmetric toeplitz":
        return abs(m)
    if kind == "symmetric circulant":
        return min(m % n, (-m) % n)
    buckets = bucket_kind(kind)
    if buckets is not None:
        from .rules.positions import t5_bucket
        return ("bucket", t5_bucket(m, *buckets))
    raise ValueError(f"the bias kind `{kind}` is not a function of the offset")


_BUCKET_KIND = re.compile(r"buckets\((\d+), (\d+)\)")


def bucket_kind(kind: str) -> "Optional[tuple[int, int]]":
    """(B, D) when `kind` names T5's trainable relative buckets as `buckets(B, D)` (a trainable bias per
    bucket of the offset, docs/theory.md §16.4), else None."""
    match = _BUCKET_KIND.fullmatch(kind)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def bias_class(kind: str, n: int, query: int, key: int):
    """The class of the pair (query, key) under a trainable `bias KIND` on positions 1..n: the pair
    itself for `free`, else the class of the offset key − query (docs/theory.md §8, TD-BIAS)."""
    return (query, key) if kind == "free" else offset_class(kind, n, key - query)


def symbolic_group(name: str, n: S.IntTerm) -> GroupInfo:
    """The named group for n tokens (a symbolic n: orders and generators as text)."""
    if isinstance(n, int):
        return concrete_group(name, n)
    group = NamedGroup(name)
    orders: dict[str, Union[int, str]] = {"S_n": f"{n}!", "C_n": f"{n}", "D_n": f"2 · {n}", "reflection": 2,
                                          "trivial": 1}
    order = orders[group]
    cond = {"D_n": f"{n} ≥ 3", "C_n": f"{n} ≥ 3", "reflection": f"{n} ≥ 2"}.get(group, "")
    least = {"D_n": 3, "C_n": 3, "reflection": 2}.get(group)
    typed = None if least is None else sympy.GreaterThan(sympy.Symbol(str(n)), least, evaluate=False)
    return GroupInfo(name, order, group.symbolic_generators, cond, typed)


def concrete_group(name: str, n: int) -> GroupInfo:
    """The named group for an integer n (above MAX_CONCRETE: generators by formula)."""
    if n > MAX_CONCRETE:
        sym = symbolic_group(name, "n")
        orders: dict[str, Union[int, str]] = {"S_n": f"{n}!", "C_n": n, "D_n": 2 * n, "reflection": 2, "trivial": 1}
        order = orders[name]
        return GroupInfo(name, order, sym.generators)
    ident = list(range(1, n + 1))
    cycle = ident[1:] + ident[:1]
    refl = ident[::-1]
    if name == "S_n":
        return GroupInfo(name, math.factorial(n), _distinct(tuple([2, 1] + ident[2:]), tuple(cycle)))
    if name == "C_n":
        return GroupInfo(name, n, _distinct(tuple(cycle)))
    if name == "D_n":
        return GroupInfo(name, 2 * n if n >= 3 else math.factorial(n), _distinct(tuple(cycle), tuple(refl)))
    if name == "reflection":
        return GroupInfo(name, 2 if n >= 2 else 1, _distinct(tuple(refl)))
    return GroupInfo("trivial", 1, ())


def _distinct(*generators: tuple) -> tuple:
    """The generators without the identity and without repeats, in their order (at n = 2 the swap (1 2) is also the
    2-cycle and the reversal; at n = 1 every one is the identity)."""
    out: list = []
    for g in generators:
        if g != tuple(range(1, len(g) + 1)) and g not in out:
            out.append(g)
    return tuple(out)


def named_at_length(group: Optional[GroupInfo], n) -> Optional[GroupInfo]:
    """The group named at a concrete length n (docs/language.md, "Groups at a concrete n"): a group of positions
    1..n of order n! is S_n whatever class it was derived as (D_3 = S_3; C_2 = D_2 = the reflection at n = 2 = S_2),
    and one of order 1 is the trivial group (every named group at n = 1). Other groups, a symbolic n and a group
    stated by residue class keep their names."""
    if group is None or not isinstance(n, int) or isinstance(n, bool) or group.classes or group.condition:
        return group
    if n > MAX_CONCRETE:  # orders by formula, read by name: no named class is of order 1 or n! under another name
        return group
    order = order_value(group.order)
    if order is None:
        return group
    if order == 1:
        return group if group.name == NamedGroup.TRIVIAL else \
            replace(group, name=NamedGroup.TRIVIAL.value, generators=(), structure=None, order_latex=None)
    if order == math.factorial(n) and group.name != NamedGroup.SYMMETRIC:
        return replace(group, name=NamedGroup.SYMMETRIC.value, structure=None, order_latex=None)
    return group


def bias_group(kind: Optional[str]) -> NamedGroup:
    """The group that keeps every trainable bias of the kind (None: no bias)."""
    return _BIAS_GROUP[kind]


_BIAS_GROUP = {None: NamedGroup.SYMMETRIC, "free": NamedGroup.TRIVIAL, "toeplitz": NamedGroup.TRIVIAL,
               "circulant": NamedGroup.CYCLIC, "symmetric circulant": NamedGroup.DIHEDRAL,
               "symmetric toeplitz": NamedGroup.REFLECTION}


def meet(g1: str, g2: str) -> NamedGroup:
    """Intersection of two of the named groups acting on positions 1..n (n ≥ 3): always named."""
    a, b = NamedGroup(g1), NamedGroup(g2)
    if a is b:
        return a
    if NamedGroup.SYMMETRIC in (a, b):
        return b if a is NamedGroup.SYMMETRIC else a
    if NamedGroup.TRIVIAL in (a, b):
        return NamedGroup.TRIVIAL
    pair = {a, b}
    if pair == {NamedGroup.CYCLIC, NamedGroup.DIHEDRAL}:
        return NamedGroup.CYCLIC
    if pair == {NamedGroup.REFLECTION, NamedGroup.DIHEDRAL}:
        return NamedGroup.REFLECTION
    return NamedGroup.TRIVIAL  # {reflection, C_n}: i ↦ n+1−i is not a rotation for n ≥ 3


# ---------------------------------------------------------------------------------------------
# Generators as 1-based image lists [σ(1), ..., σ(n)]

@functools.lru_cache(maxsize=8)
def rotation(n: int) -> tuple[int, ...]:
    """i ↦ i + 1 mod n, as images [σ(1), ..., σ(n)] (an immutable tuple, cached: a large n asks
    for it several times)."""
    return tuple(list(range(2, n + 1)) + [1])


@functools.lru_cache(maxsize=8)
def reflection(n: int) -> tuple[int, ...]:
    """i ↦ n + 1 - i (cached, as ``rotation``)."""
    return tuple(range(n, 0, -1))


def orbits(n: int, generators: Sequence[Sequence[int]]) -> list[int]:
    """The least member (0-based) of each position's orbit under the generated group (union-find over
    the generators' cycles; the generators are 1-based image lists)."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    touched: set[int] = set()
    for perm in generators:
        # a point the generator fixes joins nothing: only its moved points are visited (a transposition
        # of two tokens at n = 65,536 visits 2 of them)
        moved = list(compress(range(n), map(ne, perm, range(1, n + 1))))
        touched.update(moved)
        for x in moved:
            a, b = find(x), find(perm[x] - 1)
            if a != b:
                parent[max(a, b)] = min(a, b)
    for x in touched:  # every other point is its own root
        parent[x] = find(x)
    return parent


def symmetric_generators(points: list[int], n: int) -> tuple[tuple[int, ...], ...]:
    """Generators of the symmetric group on ``points`` (1-based), fixing the others."""
    if len(points) < 2:
        return ()
    ident = list(range(1, n + 1))
    t = ident[:]
    t[points[0] - 1], t[points[1] - 1] = points[1], points[0]
    if len(points) == 2:
        return (tuple(t),)
    c = ident[:]
    for a, b in zip(points, points[1:] + points[:1]):
        c[a - 1] = b
    return (tuple(t), tuple(c))


def stabilizer_generators(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Generators of the stabilizer of position k in S_n (the symmetric group on the others)."""
    return symmetric_generators([i for i in range(1, n + 1) if i != k], n)


# ---------------------------------------------------------------------------------------------
# Orders

_FACTORIAL_TEXT = re.compile(r"^(\d{1,5})!$")


def exact_int(order) -> Optional[int]:
    """A concrete order as an int when the JSON writes it out (at most bignum.MAX_DIGITS_SHOWN digits), for
    GroupInfo.exact; None for a symbolic order, text, or a larger number (the JSON then keeps its bounded words)."""
    from .bignum import MAX_DIGITS_SHOWN
    if isinstance(order, sympy.Basic) and order.is_Integer:
        order = int(order)
    if isinstance(order, int) and not isinstance(order, bool) and 0 < order < 10 ** MAX_DIGITS_SHOWN:
        return order
    return None


def order_value(derived) -> Optional[int]:
    """A derived order as an int when it is one, or a short integer or k! (k ≤ 20000) written as text;
    None when it cannot be read without guessing."""
    if isinstance(derived, sympy.Integer):
        return int(derived)
    if isinstance(derived, int):
        return derived
    if isinstance(derived, str):
        if derived.isdigit() and len(derived) <= 50:
            return int(derived)
        m = _FACTORIAL_TEXT.match(derived)
        if m and int(m.group(1)) <= 20000:
            return math.factorial(int(m.group(1)))
    return None


def same_order(derived, expected: int) -> bool:
    """Compare a derived order (int, SymPy expression or text such as "n!") with an integer, without
    materialising either as a decimal string (orders can have thousands of digits)."""
    value = order_value(derived)
    if value is not None:
        return value == expected
    if isinstance(derived, str):
        return False
    if isinstance(derived, sympy.Basic) and not derived.free_symbols:
        return derived == sympy.Integer(expected)  # an unevaluated k! (k > 20000) is never a small int
    return False


# ---------------------------------------------------------------------------------------------
# Structural names and bounded order texts

SHORT_DIGITS = 24


def _digits_upper(k: int) -> int:
    """An upper bound on the number of decimal digits of k > 0, from its bit length."""
    return int(k.bit_length() * 0.30103) + 1


def _power_of_ten(k: int) -> str:
    # log10 from the top bits: exact to the printed integer part for any size
    shift = max(0, k.bit_length() - 64)
    exponent = math.log10(k >> shift) + shift * math.log10(2)
    return f"≈ 10^{int(exponent)}"


def _factorial_power_text(part) -> str:
    """k! or (k!)^m for a factorial of an integer, or its power."""
    if isinstance(part, sympy.Pow):
        return f"({int(part.base.args[0])}!)^{int(part.exp)}"
    return f"{int(part.args[0])}!"


def _factorial_product(order) -> bool:
    """An unevaluated product of factorials of integers and their integer powers (an order kept by structure,
    graphs/families.bounded_product), printed factor by factor in its own order, as the group engine prints
    the same order ("63! · (64!)^63 · 63!")."""
    def factor(a) -> bool:
        if isinstance(a, sympy.Pow):
            return a.exp.is_Integer and factor(a.base)
        return isinstance(a, sympy.factorial) and a.args[0].is_Integer
    return isinstance(order, sympy.Mul) and all(factor(a) for a in order.args)


@exact_cache(maxsize=1024)  # a function of the order alone; the same orders are shown over and over in a batch
def order_text(order) -> Union[int, str]:
    """The order as an int when short, else a bounded string (never a 200-digit number); a symbolic order in
    the order notation (show.show_order_expr: 2 · n, n!, (n − 1)!), and one by residue class of n as its cases
    ("2 · n if n mod 4 = 0, else 2"; the JSON writes those as a list, bignum.json_order)."""
    if isinstance(order, sympy.Basic) and order.is_Integer:
        order = int(order)
    if isinstance(order, int):
        if order <= 0 or _digits_upper(order) <= SHORT_DIGITS:
            return order
        return _power_of_ten(order)
    if isinstance(order, sympy.Basic) and _factorial_product(order):
        return " · ".join(_factorial_power_text(a) for a in order.args)
    if isinstance(order, sympy.Piecewise):
        return "; ".join(f"{order_text(piece['order'])} {_piece_words(piece)}" for piece in order_pieces(order))
    if isinstance(order, sympy.Basic):
        from .bignum import MAX_DIGITS_SHOWN, show_int
        from .show import show_order_expr
        # an integer factor of more than 4300 digits (e.g. 2^1000000) is shown bounded
        big = {i: sympy.Symbol(show_int(int(i))) for i in order.atoms(sympy.Integer) if abs(i) >= 10 ** MAX_DIGITS_SHOWN}
        return show_order_expr(order.xreplace(big) if big else order)
    return str(order)


def _piece_words(piece: dict) -> str:
    if "residues" in piece:
        rs = piece["residues"]
        among = f"= {rs[0]}" if len(rs) == 1 else "∈ {" + ", ".join(map(str, rs)) + "}"
        return f"if n mod {piece['modulus']} {among}"
    return "otherwise" if piece["condition"] is None else f"if {piece['condition']}"


def order_pieces(order: sympy.Piecewise) -> list[dict]:
    """A Piecewise order by its pieces, in order: {"modulus": L, "residues": [r, …], "order": expr} for a piece on
    residue classes of one variable mod L (Eq(Mod(n, L), r) or an Or of such), else {"condition": its words (None
    for the last piece's True), "order": expr}."""
    from .show import show_condition
    out: list[dict] = []
    for value, cond in order.args:
        eqs = cond.args if isinstance(cond, sympy.Or) else (cond,)
        if all(isinstance(eq, sympy.Eq) and isinstance(eq.lhs, sympy.Mod) and eq.rhs.is_Integer
               and eq.lhs.args[1].is_Integer for eq in eqs) and len({eq.lhs for eq in eqs}) == 1:
            out.append({"modulus": int(eqs[0].lhs.args[1]), "residues": sorted(int(eq.rhs) for eq in eqs),
                        "order": value})
        else:
            out.append({"condition": None if cond is sympy.true else show_condition(cond), "order": value})
    moduli = {int(p["modulus"]) for p in out[:-1] if "modulus" in p}
    if len(out) >= 2 and out[-1].get("condition", "") is None and len(moduli) == 1 \
            and all("modulus" in p for p in out[:-1]):
        modulus = moduli.pop()  # "else": the residues the other pieces leave
        rest = sorted(set(range(modulus)) - {r for p in out[:-1] for r in p["residues"]})
        if rest:
            out[-1] = {"modulus": modulus, "residues": rest, "order": out[-1]["order"]}
        else:
            out.pop()  # the residue pieces cover every class: the last piece is never reached
    return out


def position_set(points: Sequence[int]) -> str:
    """A set of 1-based positions, compactly: an interval, an arithmetic progression, up to 6 listed, or a
    prefix with the count."""
    pts = sorted(points)
    if not pts:
        return "∅"
    if len(pts) <= 3:
        return "{" + ", ".join(map(str, pts)) + "}"
    step = pts[1] - pts[0]
    if all(b - a == step for a, b in zip(pts, pts[1:])):
        if step == 1:
            return f"{{{pts[0]}, …, {pts[-1]}}}"
        return f"{{{pts[0]}, {pts[1]}, …, {pts[-1]}}}"
    if len(pts) <= 6:
        return "{" + ", ".join(map(str, pts)) + "}"
    head = ", ".join(map(str, pts[:4]))
    return f"{{{head}, …}} ({len(pts)} positions)"


def position_set_latex(points: Sequence[int]) -> str:
    """`position_set` in math mode."""
    pts = sorted(points)
    if not pts:
        return r"\emptyset"
    if len(pts) <= 3:
        return r"\{" + ", ".join(map(str, pts)) + r"\}"
    step = pts[1] - pts[0]
    if all(b - a == step for a, b in zip(pts, pts[1:])):
        if step == 1:
            return rf"\{{{pts[0]}, \ldots, {pts[-1]}\}}"
        return rf"\{{{pts[0]}, {pts[1]}, \ldots, {pts[-1]}\}}"
    if len(pts) <= 6:
        return r"\{" + ", ".join(map(str, pts)) + r"\}"
    head = ", ".join(map(str, pts[:4]))
    return rf"\{{{head}, \ldots\}}\ ({len(pts)}\text{{ positions}})"


@dataclass(frozen=True)
class SymmetricOn:
    """S_k on a set of positions (a twin class)."""
    size: int
    positions: tuple

    @property
    def text(self) -> str:
        return f"S_{self.size} on {position_set(self.positions)}"

    @property
    def latex(self) -> str:
        return rf"S_{{{self.size}}} \text{{ on }} {position_set_latex(self.positions)}"

    def to_json(self) -> dict:
        return {"kind": "symmetric", "positions": list(self.positions)}


@dataclass(frozen=True)
class PowerOn:
    """(S_k)^c on c twin classes of k positions each (`classes`, 1-based, for certificates)."""
    size: int
    count: int
    covered: tuple
    classes: tuple = field(default=(), compare=False)

    def to_json(self) -> dict:
        return {"kind": "power", "classes": [list(c) for c in self.classes]}

    @property
    def text(self) -> str:
        return (f"(S_{self.size})^{self.count} on {self.count} classes of {self.size} positions covering "
                f"{position_set(self.covered)}")

    @property
    def latex(self) -> str:
        return (rf"(S_{{{self.size}}})^{{{self.count}}} \text{{ on {self.count} classes of {self.size} positions "
                rf"covering }} {position_set_latex(self.covered)}")


@dataclass(frozen=True)
class ReflectionOf:
    """The reflection of the positions no twin class joins (all of them when `positions` is None)."""
    positions: Optional[tuple]

    @property
    def text(self) -> str:
        return "the reflection" + (f" of {position_set(self.positions)}" if self.positions is not None else "")

    @property
    def latex(self) -> str:
        return r"\text{the reflection}" + (rf"\text{{ of }} {position_set_latex(self.positions)}"
                                           if self.positions is not None else "")

    def to_json(self) -> dict:
        return {"kind": "reflection", "positions": None if self.positions is None else list(self.positions)}


@dataclass(frozen=True)
class ReflectionsOf:
    """One involution that reverses several disjoint intervals of positions at once (and fixes the rest): the
    reflection i ↦ c − i (mod n) of a cyclic pattern reverses {1, …, c − 1} and {c, …, n}. `intervals` are
    (first, last) pairs, first < last, in increasing order."""
    intervals: tuple

    @property
    def positions(self) -> tuple:
        return tuple(p for lo, hi in self.intervals for p in range(lo, hi + 1))

    @property
    def text(self) -> str:
        sets = [position_set(range(lo, hi + 1)) for lo, hi in self.intervals]
        return "the reflection of " + ", of ".join(sets[:-1]) + f" and of {sets[-1]} at once"

    @property
    def latex(self) -> str:
        sets = [position_set_latex(range(lo, hi + 1)) for lo, hi in self.intervals]
        return (r"\text{the reflection of } " + r"\text{, of } ".join(sets[:-1])
                + rf"\text{{ and of }} {sets[-1]}\text{{ at once}}")

    def to_json(self) -> dict:
        return {"kind": "reflections", "intervals": [[lo, hi] for lo, hi in self.intervals]}


@dataclass(frozen=True)
class GroupStructure:
    """G named by structure as typed parts: factors (SymmetricOn, PowerOn, ReflectionOf) in a direct
    product, extended (⋊) by a group of order `quotient_order` permuting `classes` twin classes when
    that order is given. `text` is the name's wording, `latex` its formula."""
    factors: tuple
    quotient_order: Optional[int] = None
    classes: int = 0

    @property
    def text(self) -> str:
        product = " × ".join(f"({f.text})" if _bracketed(f, self.factors) else f.text for f in self.factors)
        if self.quotient_order is None:
            return product
        return (f"({product}) ⋊ a group of order {order_text(self.quotient_order)} permuting the "
                f"{self.classes} twin classes")

    @property
    def latex(self) -> str:
        product = r" \times ".join(f"({f.latex})" if _bracketed(f, self.factors) else f.latex for f in self.factors)
        if self.quotient_order is None:
            return product
        from .render.math import integer
        return (rf"({product}) \rtimes \text{{a group of order }} {integer(self.quotient_order)}"
                rf"\text{{ permuting the {self.classes} twin classes}}")

    def to_json(self) -> dict:
        """The typed parts for a certificate: `uapcheck verify` words the name from them and rebuilds the
        named group (uapcheck/verifier/named_structure.py)."""
        return {"factors": [f.to_json() for f in self.factors], "quotient order": self.quotient_order,
                "classes": self.classes}


def _bracketed(factor, factors: tuple) -> bool:
    """A wreath product among other factors is bracketed: S_7 on {2, …, 8} × (S_8 ≀ S_3 on the blocks …)."""
    return len(factors) > 1 and getattr(factor, "compound", False)


def group_structure(n: int, classes: Sequence[Sequence[int]], quotient_order: int,
                    quotient_is_reflection: bool = False,
                    quotient_generators: Optional[Sequence[Sequence[int]]] = None,
                    quotient_colours: Optional[Sequence[int]] = None) -> Optional[GroupStructure]:
    """G = ∏ Sym(C) over the twin classes C, extended by the quotient group permuting classes.

    ``classes`` are 0-based twin classes (positions u, v with (u v) ∈ G). With the quotient's
    generators (permutations of class indices), the part permuting classes is named by structure when
    class_action proves a name (wreath products, C_k, D_k, the reflection of an interval); otherwise it
    stays "a group of order N". Returns None when there is nothing to say beyond a standard name (no
    twin class of size ≥ 2 and a trivial quotient).
    """
    if quotient_order > 1 and not quotient_is_reflection and (quotient_generators or quotient_colours):
        from .class_action import name_action, name_by_colours
        acting = None if quotient_colours is None else name_by_colours(classes, quotient_colours, quotient_order)
        if acting is not None:
            moved = {v for f in acting for block in f.parts for c in block for v in c}
            rest = [m for m in classes if m[0] + 1 not in moved]
        elif quotient_generators:
            acting = name_action(classes, quotient_generators, quotient_order)
            if acting is not None:
                moving = {x for g in quotient_generators for x in range(len(classes)) if g[x] != x}
                rest = [m for x, m in enumerate(classes) if x not in moving]
        if acting is not None:
            fixed = group_structure(n, rest, 1)
            parts = list(fixed.factors if fixed is not None else ()) + acting
            return GroupStructure(tuple(sorted(parts, key=_least_position)))
    factors: list = []
    big = sorted((m for m in classes if len(m) > 1), key=lambda m: m[0])
    by_size: dict[int, list] = {}
    for members in big:
        by_size.setdefault(len(members), []).append(members)
    for members in big:
        same = by_size[len(members)]
        if len(same) > 3:
            if members is same[0]:  # many classes of one size: one factor (S_k)^c
                covered = tuple(sorted(v + 1 for m in same for v in m))
                factors.append(PowerOn(len(members), len(same), covered,
                                       tuple(tuple(v + 1 for v in m) for m in same)))
            continue
        factors.append(SymmetricOn(len(members), tuple(sorted(v + 1 for v in members))))
    if quotient_order == 1:
        return GroupStructure(tuple(factors)) if factors else None
    singles = [m[0] + 1 for m in classes if len(m) == 1]
    if quotient_is_reflection and len(singles) == sum(len(m) for m in classes if len(m) == 1):
        return GroupStructure(tuple(factors) + (ReflectionOf(tuple(singles) if factors else None),))
    if not factors:
        return None
    return GroupStructure(tuple(factors), quotient_order, len(classes))


def _least_position(factor) -> int:
    """The least position a factor acts on (factors are listed in this order)."""
    least = getattr(factor, "least", None)
    if least is not None:
        return least
    if isinstance(factor, SymmetricOn):
        return min(factor.positions)
    if isinstance(factor, PowerOn):
        return min(factor.covered)
    return min(factor.positions) if factor.positions else 0


def structure_name(n: int, classes: Sequence[Sequence[int]], quotient_order: int,
                   quotient_is_reflection: bool = False) -> Optional[str]:
    """The wording of `group_structure` (None when there is nothing beyond a standard name)."""
    found = group_structure(n, classes, quotient_order, quotient_is_reflection)
    return None if found is None else found.text


def _class_sizes(classes: Sequence[Sequence[int]]) -> dict[int, int]:
    """How many classes there are of each size ≥ 2, by size in order of first occurrence (one pass in
    C over the sizes: at n = 65,536 the classes are mostly single positions)."""
    sizes: dict[int, int] = {}
    for size in filter((1).__lt__, map(len, classes)):
        sizes[size] = sizes.get(size, 0) + 1
    return sizes


def factorial_order_text(classes: Sequence[Sequence[int]], quotient_order: int) -> Union[int, str]:
    """|G| = |Aut(quotient)| · ∏ |C|! as an int when short, else as a product of factorials."""
    sizes = _class_sizes(classes)
    bits = quotient_order.bit_length() + sum(c * math.lgamma(k + 1) / math.log(2) for k, c in sizes.items())
    if bits * 0.30103 < SHORT_DIGITS - 1:
        total = quotient_order
        for k, c in sizes.items():
            total *= math.factorial(k) ** c
        return total
    root = _factorial_root(quotient_order)
    parts = [] if quotient_order == 1 else [f"{root}!" if root else str(order_text(quotient_order))]
    for k in sorted(sizes, reverse=True):
        parts.append(f"{k}!" if sizes[k] == 1 else f"({k}!)^{sizes[k]}")
    return " · ".join(parts) or "1"


def _factorial_root(value: int) -> Optional[int]:
    """k when value = k! with k ≥ 21 (smaller factorials print as numbers), else None; at most 100,000
    multiplications."""
    m, k = 1, 1
    while m < value and k < 100_000:
        k += 1
        m *= k
    return k if m == value and k >= 21 else None


def factorial_order_latex(classes: Sequence[Sequence[int]], quotient_order: int) -> Optional[str]:
    """`factorial_order_text`'s product of factorials in math mode, built from the same counts (None
    when the order is short enough to be a number)."""
    if isinstance(factorial_order_text(classes, quotient_order), int):
        return None
    sizes = _class_sizes(classes)
    from .render.math import integer
    root = _factorial_root(quotient_order)
    parts = [] if quotient_order == 1 else [f"{root}!" if root else integer(quotient_order)]
    for k in sorted(sizes, reverse=True):
        parts.append(f"{k}!" if sizes[k] == 1 else f"({k}!)^{{{sizes[k]}}}")
    return r" \cdot ".join(parts) or "1"
