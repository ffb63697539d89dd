"""Several heads at one concrete length n, without their arcs (docs/theory.md §11.11, Theorem F125).

Theorems F35–F39 decide the group of several distinct unbiased heads at symbolic n: one result per residue
class of n mod L, each for every n ≥ the class's bound. At a concrete n in a decided class, G is that class's
group at this n (F125 (a)): its order and its name are the class's, evaluated at n. The decision itself is
the symbolic one (graphs/head_intersection.py, a few representative lengths ≤ MAX_REPRESENTATIVE_N), so a
length such as n = 1,048,576 costs no arc; the certificate carries the length, and the kernel and the
verifier check that it lies in the stated class.

Lengths below the class's bound, or in an open class, get nothing here (the token graph decides them, or the
group stays undecided).
"""
from __future__ import annotations

from dataclasses import replace
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
        if not isinstance(decision, tuple) or decision[0] == "partition heads":
            continue
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
