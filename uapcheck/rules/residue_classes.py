"""A closed form whose cases at large n depend on n mod L, split into its residue classes.

A closed form (graphs/closed_forms.ClosedForm) states its result as cases with conditions on n and the
parameters. When the cases that hold at large n differ by the residue of n mod L, no single case is "the"
answer: Theorem 1 applies to each class of n separately (docs/theory.md §11.4). `split_by_residue` finds,
for every residue r of n mod L, the one case that holds at every large n ≡ r (sampled as the single-case
choice of rules/pattern.py samples), and the range R where every chosen case's bounds hold. The split is
exact by construction: a case's condition is the conjunction of its bounds (free of Mod, kept in R) and its
residue parts (a function of n mod L alone, evaluated at r), so for n in R with n ≡ r (mod L) the chosen
case's condition holds.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Optional

import sympy

#: A residue class of n is sampled at n = SAMPLE·L + r (large), as the single-case choice samples 10⁷.
SAMPLE = 10 ** 6


@dataclass(frozen=True)
class ResidueSplit:
    """For every residue r of n mod `modulus`, the case chosen (`chosen[r]`), and the range `bound` (the
    conjunction of the chosen cases' Mod-free parts, sympy.true when there are none)."""

    modulus: int
    chosen: tuple
    bound: sympy.Basic

    def classes(self) -> list[tuple[tuple[int, ...], object]]:
        """(residues, case) for each distinct chosen case, in order of the first residue."""
        out: dict[int, list[int]] = {}
        cases: dict[int, object] = {}
        for r, case in enumerate(self.chosen):
            out.setdefault(id(case), []).append(r)
            cases[id(case)] = case
        return [(tuple(rs), cases[key]) for key, rs in out.items()]


def _conjuncts(cond) -> tuple:
    return tuple(cond.args) if isinstance(cond, sympy.And) else (cond,)


def _periodic_mod(atom, n) -> Optional[int]:
    """The modulus m of Mod(a·n + c, m) with integers a, c, m > 0; None for any other Mod."""
    expr, m = atom.args
    if not (m.is_Integer and m > 0) or expr.free_symbols - {n}:
        return None
    poly = sympy.Poly(expr, n) if expr.free_symbols else None
    if poly is not None and (poly.degree() > 1 or not all(c.is_Integer for c in poly.all_coeffs())):
        return None
    return int(m)


def _residue_part(part, n) -> bool:
    """Whether `part` is a function of Mod atoms of n alone (n occurs only inside them)."""
    mods = part.atoms(sympy.Mod)
    if not mods:
        return False
    hidden = part.xreplace({m: sympy.Dummy() for m in mods})
    return n not in hidden.free_symbols and not (hidden.free_symbols - {d for d in hidden.free_symbols
                                                                         if isinstance(d, sympy.Dummy)})


def _holds_at(cond, values: dict) -> bool:
    sub = {s: sympy.Integer(values[s.name]) for s in cond.free_symbols if s.name in values}
    return (cond.xreplace(sub) if sub else cond) is sympy.true


def _parts(form, n) -> Optional[list]:
    """(case, residue parts, bound parts) for every case; None when a part mixes n mod L with other terms."""
    parts = []
    for case in form.cases:
        residue, bound = [], []
        for part in _conjuncts(case.condition):
            if part.atoms(sympy.Mod) and n in part.free_symbols:
                if not _residue_part(part, n):
                    return None
                residue.append(part)
            else:
                bound.append(part)
        parts.append((case, residue, bound))
    return parts


def split_by_residue(form, n, lower_bounds: dict) -> Optional[ResidueSplit]:
    """The cases of `form` by residue class of n mod L (L the lcm of the moduli of n in its conditions), or
    None when no condition mentions n mod an integer, when some case's condition mixes residues with other
    terms, or when some residue class has no single case at large n (for the sampled parameter values:
    each parameter at its lower bound + 0, 1, 3, 7, as the single-case choice samples)."""
    if form is None or not isinstance(n, sympy.Symbol):
        return None
    moduli = set()
    for case in form.cases:
        for atom in case.condition.atoms(sympy.Mod):
            if n not in atom.free_symbols:
                continue
            m = _periodic_mod(atom, n)
            if m is None:
                return None
            moduli.add(m)
    if not moduli:
        return None
    modulus = lcm(*moduli)
    parts = _parts(form, n)
    if parts is None:
        return None
    chosen = []
    for r in range(modulus):
        pick = None
        for bump in (0, 1, 3, 7):
            values = {name: v + bump for name, v in lower_bounds.items()}
            values[n.name] = SAMPLE * modulus + r
            here = [case for case, residue, bound in parts
                    if all(_holds_at(p, {n.name: r}) for p in residue) and all(_holds_at(p, values) for p in bound)]
            if len(here) != 1 or (pick is not None and here[0] is not pick):
                return None
            pick = here[0]
        chosen.append(pick)
    bounds: list = []
    for case, _, bound in parts:
        if any(case is c for c in chosen):
            bounds.extend(b for b in bound if b not in bounds)
    return ResidueSplit(modulus, tuple(chosen), sympy.And(*bounds) if bounds else sympy.true)


def excludes(cond, n, modulus: int, residues) -> bool:
    """Whether `cond` is false for every n ≡ r (mod `modulus`), r in `residues`, proved from its residue parts
    alone (conjuncts that are functions of n mod m for integers m): some such conjunct is false at each r, read
    modulo lcm(modulus, m). False when it cannot be shown (a condition without residue parts excludes nothing)."""
    if not isinstance(n, sympy.Symbol) or not isinstance(cond, sympy.Basic):
        return False
    parts = [p for p in _conjuncts(cond) if p.atoms(sympy.Mod) and n in p.free_symbols and _residue_part(p, n)]
    moduli = [_periodic_mod(a, n) for p in parts for a in p.atoms(sympy.Mod) if n in a.free_symbols]
    if not parts or any(m is None for m in moduli):
        return False
    both = lcm(modulus, *[m for m in moduli if m is not None])
    return all(any(not _holds_at(p, {n.name: r}) for p in parts)
               for r in range(both) if r % modulus in residues)


def pieces_by_residue(expr, n) -> Optional[tuple[int, tuple]]:
    """(L, (e_0, …, e_{L−1})) when `expr` is a Piecewise over residues of n mod L (after folding sums such as
    D + 1 into one Piecewise): e_r is the piece that holds on n ≡ r (mod L), for every n. None when `expr`
    has no Piecewise, or some condition is not a function of n mod an integer alone (then nothing is split)."""
    if not isinstance(expr, sympy.Basic) or not isinstance(n, sympy.Symbol) or not expr.has(sympy.Piecewise):
        return None
    folded = sympy.piecewise_fold(expr)
    if not isinstance(folded, sympy.Piecewise):
        return None
    moduli = []
    for _, cond in folded.args:
        if cond is sympy.true:
            continue
        if not _residue_part(cond, n):
            return None
        for atom in cond.atoms(sympy.Mod):
            m = _periodic_mod(atom, n) if n in atom.free_symbols else None
            if m is None:
                return None
            moduli.append(m)
    if not moduli:
        return None
    modulus = lcm(*moduli)
    pieces = []
    for r in range(modulus):
        piece = next((e for e, c in folded.args if _holds_at(c, {n.name: r})), None)
        if piece is None:
            return None
        pieces.append(piece)
    return modulus, tuple(pieces)


def complement_condition(n, modulus: int, residues):
    """n mod L in the residues not listed (None when every residue is listed)."""
    from ..groups import class_condition
    rest = [r for r in range(modulus) if r not in set(residues)]
    return class_condition(n, modulus, rest) if rest else None
