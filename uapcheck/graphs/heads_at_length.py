"""Several heads at one concrete length n, without their arcs (docs/theory.md §11.11, Theorem F125).

Theorems F35–F39 decide the group of several distinct unbiased heads at symbolic n: one result per residue
class of n mod L, each for every n ≥ the class's bound. At a concrete n in a decided class, G is that class's
group at this n (F125 (a)): its order and its name are the class's, evaluated at n. The decision itself is
the symbolic one (graphs/head_intersection.py, a few representative lengths ≤ MAX_REPRESENTATIVE_N), so a
length such as n = 1,048,576 costs no arc; the certificate carries the length, and the kernel and the
verifier check that it lies in the stated class.

Likewise the least layer count (F125 (b)): Theorems F70–F71, F75, F76, F86, F88, F124, F127 and F143 decide it at symbolic n for every
n ≥ their bound (F86, F76, F88: class by class mod M); at a concrete n in that range (and class) the count is the
symbolic one evaluated at n, least, with the union's witness evaluated at n where the count is D + 1.

Two partition heads (Theorem F72, whose group is a large product and not F35–F39's) are read the same way (Theorem
F126): the class of n mod L holding n gives G at n, its order the class's formula at n with large factorials left
unevaluated. Heads whose union is a cyclic window (Theorem F153) likewise: from the union's bound on, the group's
closed form read at n.

Lengths below the class's bound, or in an open class, get nothing here (the token graph decides them, or the
group stays undecided).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Optional, Sequence

import sympy
from sympy import Integer

from ..spec import Pattern
from .closed_forms import GroupCase

SECTION = "docs/theory.md §11.11, Theorem F125"


def symbol() -> sympy.Symbol:
    """The length as the symbolic theorems name it."""
    return sympy.Symbol("n", integer=True, positive=True)


def class_of(found, n: int):
    """The class of the decision `found` (graphs/head_intersection.Intersection) that holds at n: n ≡ its
    residue (mod L) and n ≥ its bound; None when n is below it or the class is open."""
    for c in found.classes:
        if c.kind != "open" and n % found.modulus == c.residue and n >= c.low:
            return c
    return None


def group_at(patterns: Sequence[Pattern], n: int, params: Optional[Mapping] = None) -> Optional[GroupCase]:
    """G of the distinct unbiased heads `patterns` at the concrete length n from Theorems F35–F39 (F125 (a)),
    as a case whose condition is true; None when they leave this n undecided."""
    from .closed_groups import closed_group
    from .head_intersection import describe
    if len(patterns) < 2 or n < 1:
        return None
    big = symbol()
    try:
        form = closed_group(list(patterns), big, dict(params or {}))
    except (ValueError, TypeError):
        return None
    if form is None:
        return None
    for case in form.cases:
        decision = case.intersection
        if isinstance(decision, tuple) and decision[0] == "partition heads":
            at = _partition_group_at(case, decision[1], n)
            if at is not None:
                return at
            continue
        if isinstance(decision, tuple) and decision[0] == "cyclic window heads":
            if n >= decision[2]:  # Theorem F153 from the union's bound on: its group read at n
                order = sympy.sympify(case.order, strict=True)  # safe: strict (an order the engine wrote)
                return replace(case, condition=sympy.true, order=order.xreplace({big: Integer(n)}),
                               rule=f"{case.rule}, read at n = {n:,}", intersection=decision + (n,))
            continue
        if isinstance(decision, tuple) and decision[0] in ("residue exchanging heads", "split line heads"):
            # Theorems F186 and F187: the class of n mod Q (mod m) holding at n, from its bound on (the same maps at
            # every such n)
            c = next(c for c in decision[1].classes if c.residue == decision[2])
            modulus = decision[1].period if decision[0] == "residue exchanging heads" else decision[1].modulus
            if n >= c.low and n % modulus == c.residue:
                return replace(case, condition=sympy.true, rule=f"{case.rule}, read at n = {n:,}",
                               intersection=decision + (n,))
            continue
        if not isinstance(decision, tuple) or len(decision) != 2 or isinstance(decision[0], str):
            continue  # a tagged decision not read here (F221's "cyclic parity hubs": read by closed_groups)
        found, stated = decision
        c = class_of(found, n)
        if c is None or (stated is not None and (c.residue, c.low) != tuple(stated)):
            continue
        if case.condition.xreplace({big: Integer(n)}) is not sympy.true:
            continue  # cannot happen for a decided class (its condition is n ≥ bound in the class)
        named = describe(c, Integer(n))
        if named is None:
            return None
        order, name, structure, contains = named
        return replace(case, condition=sympy.true, order=sympy.Integer(order), name=name, structure=structure,
                       contains=frozenset(contains),
                       rule=f"several heads at n = {n:,}: the class n ≡ {c.residue} (mod {found.modulus}), n ≥ "
                            f"{c.low}, of Theorems F35–F39 ({SECTION})",
                       intersection=(found, stated, n))
    return None


def partition_class_at(found, n: int):
    """The class of Theorem F72's decision `found` (graphs/partition_heads.PartitionGroup) that holds at n (n ≡ its
    residue mod L, n ≥ its bound), or None."""
    for c in found.classes:
        if n % found.modulus == c.residue and n >= c.low:
            return c
    return None


def partition_order_at(c, n: int, modulus: int) -> sympy.Expr:
    """|G| of F72's class `c` at the length n as an expression whose large factorials and powers stay unevaluated
    (24·262144! at n = 1,048,576 rather than its million digits): constant · power^t · ∏ (z + δt)!^m,
    t = (n − base)/L."""
    from .closed_forms import _fact
    t = (n - c.base) // modulus
    out = [Integer(c.constant)]
    if c.power != 1 and t:
        out.append(sympy.Pow(Integer(c.power), Integer(t), evaluate=False) if t > 20 else Integer(c.power ** t))
    for z, d, m in c.factorials:
        f = _fact(z + d * t)
        out.append(f if m == 1 else sympy.Pow(f, Integer(m), evaluate=False))
    number = sympy.Mul(*[x for x in out if x.is_Integer])
    rest = [x for x in out if not x.is_Integer]
    if not rest:
        return number
    return sympy.Mul(*([number] if number != 1 else []), *rest, evaluate=False) if len(rest) > 1 or number != 1 \
        else rest[0]


def _partition_group_at(case: GroupCase, found, n: int) -> Optional[GroupCase]:
    """Theorem F126: the group of two partition heads (Theorem F72) at the concrete length n, read off the class of
    n mod L holding n, without the arcs at n."""
    c = partition_class_at(found, n)
    if c is None:
        return None
    return replace(case, condition=sympy.true, order=partition_order_at(c, n, found.modulus),
                   rule=f"two partition heads at n = {n:,}: the class n ≡ {c.residue} (mod {found.modulus}), n ≥ "
                        f"{c.low}, of Theorem F72 (docs/theory.md §11.11, Theorem F126)",
                   intersection=("partition heads", found, n))


@dataclass(frozen=True)
class LayersAt:
    """Theorem F125 (b): the least layer count ``layers`` of the heads at the concrete length ``n`` (with the union's
    diameter ``diameter`` there), from the symbolic decision ``found`` (graphs/head_layers.HeadLayers) whose range
    (and class, for F86) holds n; ``witness`` (position, (a, b)) at n when the count is D + 1."""
    found: object
    n: int
    layers: int
    diameter: int
    witness: Optional[tuple] = None


def layers_at(found, n: int) -> Optional[LayersAt]:
    """The symbolic least count `found` evaluated at n, when n is in its range (and in a class F86 decides)."""
    big = symbol()
    if n < found.low:
        return None
    at = {big: Integer(n)}
    diameter = sympy.sympify(found.diameter, strict=True).xreplace(at)  # safe: strict (no text parsed)
    if found.classes:
        here = [c for c in found.classes if c.residue == n % found.modulus]
        if len(here) != 1 or n < here[0].low:
            return None
        layers, witness = sympy.Integer(here[0].layers), here[0].witness
    else:
        if found.growing and not any(c.residue == n % found.modulus and n >= c.low for c in found.growing):
            return None  # F192: below the bound of n's class
        layers, witness = sympy.sympify(found.layers, strict=True).xreplace(at), found.witness  # safe: strict
    if not (layers.is_Integer and diameter.is_Integer):
        return None
    if witness is not None:
        pos, (a, b) = witness
        witness = tuple(int(sympy.sympify(e, strict=True).xreplace(at)) for e in (pos, a, b))  # safe: strict
        witness = (witness[0], (witness[1], witness[2]))
    return LayersAt(found, n, int(layers), int(diameter), witness)


def heads_layers_at(patterns: Sequence[Pattern], n: int, params: Optional[Mapping] = None) -> Optional[LayersAt]:
    """The least layer count of the distinct unbiased heads `patterns` at the concrete length n from Theorems
    F70–F71, F75, F76, F86, F88, F124, F127 and F143 at symbolic n (F125 (b)); None when they leave n undecided."""
    from .closed_groups import closed_group
    from .head_layers import least_layers
    if len(patterns) < 2:
        return None
    big = symbol()
    try:
        grp = closed_group(list(patterns), big, dict(params or {}))
        found = least_layers(list(patterns), grp.cases if grp is not None else None, big, dict(params or {}))
    except (ValueError, TypeError):
        return None
    return None if found is None else layers_at(found, n)
