"""The first length from which a diameter closed form exceeds a layer budget (docs/theory.md §12, PAT-BUDGET-N).

A closed form D(n) for the directed diameter at a symbolic n is built from floors, ceilings and Mods of linear
functions of n with rational slopes, and Piecewise cases by n mod m. On each residue class n = L·k + r, L the lcm
of the denominators and moduli, every such atom is exact (floor(a·L·k + c) = a·L·k + floor(c) when a·L is an
integer), so D is a polynomial in k there; when it is a·k + b with a ≥ 0 on every class, D(n) > M holds on the
class exactly from k_r = max(0, ⌊(M − b)/a⌋ + 1) on, and for every n ≥ N = max_r(L·k_r + r − L) + 1 (each class
from its first such n). N − 1 is the last length with D ≤ M (when N > 1): the range n ≥ N is the least of its
kind. Nothing is guessed: any other shape of D (a parameter, a slope that is negative, a class that stays at or
below M) gives None and the budget keeps its former step.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Optional

import sympy

#: the class variable k of n = L·k + r
K = sympy.Symbol("k", integer=True, nonnegative=True)


@dataclass(frozen=True)
class Beyond:
    """D(n) > M for every n ≥ `start` (and D(start − 1) ≤ M when start > 1): on n = `modulus`·k + r, D is
    `lines[r]` = (a, b), i.e. a·k + b."""

    start: int
    modulus: int
    lines: tuple  # ((a, b), ...) per residue r, Rationals


def class_modulus(expr, n) -> Optional[int]:
    """The lcm L of what the floors, ceilings and Mods of `expr` need for each to be exact on n = L·k + r: the
    denominator of each linear argument's slope (times the modulus for a Mod); None for a non-linear argument, a
    slope that is not rational, or another symbol."""
    dens = [1]
    for atom in expr.atoms(sympy.floor, sympy.ceiling, sympy.Mod):
        arg = sympy.expand(_unrounded(atom.args[0]))
        if n not in arg.free_symbols:
            continue
        if arg.free_symbols - {n} or not arg.is_polynomial(n) or sympy.degree(arg, n) != 1:
            return None
        slope = arg.coeff(n, 1)
        if not isinstance(slope, sympy.Rational):
            return None
        extra = 1
        if isinstance(atom, sympy.Mod):
            if not isinstance(atom.args[1], sympy.Integer) or atom.args[1] < 1:
                return None
            extra = int(atom.args[1])
        dens.append(int(slope.q) * extra)
    return lcm(*dens)


def _unrounded(expr):
    """expr with every floor and ceiling replaced by its argument and every Mod by 0: the slope in n that a nested
    rounding has on average (ceiling(floor(n/2)/2) has slope 1/4), so that the modulus makes the outer rounding exact
    too; lines_on_classes then checks exactness on every class by substitution, so a modulus too small only gives
    None."""
    while True:
        atoms = expr.atoms(sympy.floor, sympy.ceiling, sympy.Mod)
        if not atoms:
            return expr
        expr = expr.xreplace({a: (sympy.Integer(0) if isinstance(a, sympy.Mod) else a.args[0]) for a in atoms})


def lines_on_classes(expr, n) -> Optional[tuple[int, tuple]]:
    """(L, ((a_r, b_r) for r = 0, …, L − 1)) with expr = a_r·k + b_r on n = L·k + r, exactly; None otherwise."""
    if not isinstance(expr, sympy.Basic) or not isinstance(n, sympy.Symbol) or expr.free_symbols - {n}:
        return None
    modulus = class_modulus(expr, n)
    if modulus is None or modulus > 10_000:
        return None
    lines = []
    for r in range(modulus):
        on = sympy.expand(sympy.piecewise_fold(expr.xreplace({n: modulus * K + r})))
        if on.free_symbols - {K} or not on.is_polynomial(K) or sympy.degree(on, K) > 1:
            return None
        a, b = on.coeff(K, 1), on.coeff(K, 0)
        if not (isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational)):
            return None
        lines.append((a, b))
    return modulus, tuple(lines)


def first_beyond(expr, n, budget: int) -> Optional[Beyond]:
    """The least N with expr(n) > budget for every n ≥ N, from the closed form's lines on the classes; None when
    the closed form is not of that shape, or some class never exceeds the budget."""
    found = lines_on_classes(expr, n)
    if found is None:
        return None
    modulus, lines = found
    lasts = []  # per class, the last n ≡ r with D ≤ M (possibly ≤ 0: none)
    for r, (a, b) in enumerate(lines):
        if a < 0 or (a == 0 and b <= budget):
            return None
        first_k = 0 if b > budget else int(sympy.floor((budget - b) / a)) + 1
        lasts.append(modulus * first_k + r - modulus)
    return Beyond(max(1, max(lasts) + 1), modulus, lines)


def value_at(expr, n, value: int):
    """expr at the integer n = value, exactly (an Integer, or None when it does not evaluate to one)."""
    got = sympy.piecewise_fold(expr.xreplace({n: sympy.Integer(value)}))
    return got if isinstance(got, sympy.Integer) else None
