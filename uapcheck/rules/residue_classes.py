"""A closed form whose cases at large n depend on n mod L, split into its residue classes.

A closed form (graphs/closed_forms.ClosedForm) states its result as cases with conditions on n and the
parameters. When the cases that hold at large n differ by the residue of n mod L, no single case is "the"
answer: Theorem 1 applies to each class of n separately (docs/theory.md §11.4). `split_by_residue` finds,
for every residue r of n mod L, the one case that holds at every large n ≡ r — proved, not sampled: its residue
parts hold at r, and each of its bounds holds at every large n for every admissible value of the parameters
(`_eventually`: a lower bound a·n + g ≥ 0 with a > 0, a parameter condition true on the parameters' whole
range) — and the range R where every chosen case's bounds hold. When the case of some class depends on the
parameters, `dependence` says exactly how. The split is
exact by construction: a case's condition is the conjunction of its bounds (free of Mod, kept in R) and its
residue parts (a function of n mod L alone, evaluated at r), so for n in R with n ≡ r (mod L) the chosen
case's condition holds.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Optional

import sympy

from ..memo import exact_cache


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
            if case is None:
                continue  # an open class (PartialSplit): no case chosen there
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


ALWAYS, NEVER, DEPENDS = "always", "never", "depends"


def _params_sign(expr, params: dict) -> Optional[str]:
    """For expr linear in the parameters (each an integer p ≥ its lower bound, unbounded above): ALWAYS when
    expr ≥ 0 at every admissible value, NEVER when expr < 0 at every one, DEPENDS otherwise; None when expr is
    not linear in them with numeric coefficients. A linear function on the box [p₀, ∞) × … has its minimum at
    the corner when every coefficient is ≥ 0 (else none), and its maximum at the corner when every one is ≤ 0."""
    syms = sorted(expr.free_symbols, key=str)
    if any(s.name not in params for s in syms):
        return None
    expr = sympy.expand(expr)
    if syms:
        poly = sympy.Poly(expr, *syms)
        if poly.total_degree() > 1 or not all(c.is_Rational for c in poly.coeffs()):
            return None
        slopes = [poly.coeff_monomial(s) for s in syms]
    else:
        if not expr.is_Rational:
            return None
        slopes = []
    corner = expr.xreplace({s: sympy.Integer(params[s.name]) for s in syms})
    if all(c >= 0 for c in slopes) and corner >= 0:
        return ALWAYS
    if all(c <= 0 for c in slopes) and corner < 0:
        return NEVER
    return DEPENDS


def _relation_kind(rel) -> Optional[tuple]:
    """(difference lhs − rhs, "ge" | "gt" | "le" | "lt" | "eq" | "ne")."""
    kinds = {sympy.GreaterThan: "ge", sympy.StrictGreaterThan: "gt", sympy.LessThan: "le",
             sympy.StrictLessThan: "lt", sympy.Equality: "eq", sympy.Unequality: "ne"}
    kind = kinds.get(type(rel))
    return None if kind is None else (rel.lhs - rel.rhs, kind)


def _eventually(bound, n, params: dict) -> Optional[str]:
    """Whether a case's bound holds at every large n (for each admissible value of the parameters): ALWAYS, NEVER
    or DEPENDS (on the parameters), proved, or None when it is not decided here. A relation a·n + g(params) ⋈ 0
    with a a non-zero number: ≥, >, ≠ hold for every large n when a > 0 (g is finite at each parameter value),
    ≤, <, = never do; a relation without n is decided over the parameters' whole range (`_params_sign`); And and
    Or combine these."""
    if bound is sympy.true:
        return ALWAYS
    if bound is sympy.false:
        return NEVER
    if isinstance(bound, (sympy.And, sympy.Or)):
        parts = [_eventually(a, n, params) for a in bound.args]
        if any(p is None for p in parts):
            return None
        if isinstance(bound, sympy.And):
            return NEVER if NEVER in parts else ALWAYS if all(p == ALWAYS for p in parts) else DEPENDS
        return ALWAYS if ALWAYS in parts else NEVER if all(p == NEVER for p in parts) else DEPENDS
    got = _relation_kind(bound)
    if got is None:
        return None
    diff, kind = got
    if n not in diff.free_symbols:
        sign = {"ge": diff, "gt": diff - 1, "le": -diff, "lt": -diff - 1}.get(kind)
        if sign is not None:  # integers: x > 0 is x − 1 ≥ 0
            return _params_sign(sign, params)
        zero = _params_sign(diff, params), _params_sign(-diff, params)
        if zero == (ALWAYS, ALWAYS):  # identically 0
            return ALWAYS if kind == "eq" else NEVER
        if NEVER in zero:  # never 0
            return NEVER if kind == "eq" else ALWAYS
        return None if None in zero else DEPENDS
    sign = _growth(sympy.expand(diff), n, params)
    if sign is None:
        return None
    up = sign > 0
    holds = {"ge": up, "gt": up, "ne": True, "le": not up, "lt": not up, "eq": False}[kind]
    return ALWAYS if holds else NEVER


def _positive_monomial(expr, params: dict) -> Optional[int]:
    """+1 or −1 when `expr` is a non-zero rational times integer powers of parameters whose lower bound is ≥ 1
    (so of that sign at every admissible value), else None."""
    coeff, rest = sympy.expand(expr).as_coeff_Mul()
    if not coeff.is_Rational or coeff == 0:
        return None
    for factor in sympy.Mul.make_args(rest):
        base, exp = factor.as_base_exp()
        if base == 1:
            continue
        if not (isinstance(base, sympy.Symbol) and base.name in params and params[base.name] >= 1 and exp.is_Integer):
            return None
    return 1 if coeff > 0 else -1


def _growth(diff, n, params: dict) -> Optional[int]:
    """+1 when diff → +∞ as n → ∞ at every admissible parameter value, −1 when it → −∞, None when not shown.

    diff = g + Σ_i c_i·t_i with g free of n and each t_i either n or ⌊a_i·n + b_i⌋ or ⌈a_i·n + b_i⌉ (c_i, a_i, b_i
    free of n), the c_i·a_i numbers whose sum has sign σ, or each a rational times powers of parameters ≥ 1, all of
    sign σ. Since
    x − 1 < ⌊x⌋ ≤ x ≤ ⌈x⌉ < x + 1, |c_i·t_i − c_i·a_i·n − c_i·b_i| ≤ |c_i|, so diff = (Σ_i c_i·a_i)·n + O(1) at each
    parameter value, with Σ_i c_i·a_i of sign σ: diff tends to σ·∞ (a bound ⌊n/w⌋ ≥ 3 holds at every large n)."""
    if diff.is_polynomial(n) and sympy.degree(diff, n) == 1 and n not in diff.coeff(n, 0).free_symbols \
            and diff.coeff(n, 1).is_Rational:  # a·n + g, a a number: g is finite at each parameter value
        return None if diff.coeff(n, 1) == 0 else 1 if diff.coeff(n, 1) > 0 else -1
    if any(s.name not in params or params[s.name] < 1 for s in diff.free_symbols - {n}):
        return None  # a parameter that may be 0 could sit in a denominator
    signs, slopes = set(), []
    for term in sympy.Add.make_args(diff):
        if n not in term.free_symbols:
            continue
        coeff, core = term.as_independent(n, as_Add=False)
        if core == n:
            slope = sympy.Integer(1)
        elif isinstance(core, (sympy.floor, sympy.ceiling)):
            arg = sympy.expand(core.args[0])
            if not arg.is_polynomial(n) or sympy.degree(arg, n) != 1 or n in arg.coeff(n, 0).free_symbols:
                return None
            slope = arg.coeff(n, 1)
        else:
            return None
        slopes.append(sympy.expand(coeff * slope))
        signs.add(_positive_monomial(slopes[-1], params))
    if slopes and all(x.is_Rational for x in slopes):  # numeric slopes: the sign of their sum
        total = sum(slopes)
        return None if total == 0 else 1 if total > 0 else -1
    return signs.pop() if len(signs) == 1 and None not in signs else None


def split_by_residue(form, n, lower_bounds: dict) -> Optional[ResidueSplit]:
    """The cases of `form` by residue class of n mod L (L the lcm of the moduli of n in its conditions), or
    None when no condition mentions n mod an integer, when some case's condition mixes residues with other
    terms, or when some residue class has no single case at large n, proved (`choices`)."""
    found = choices(form, n, lower_bounds)
    if found is None or any(len(c) != 1 or c[0][1] != ALWAYS for c in found[1]):
        return None
    modulus, picks, parts = found
    chosen = tuple(c[0][0] for c in picks)
    bounds: list = []
    for case, _, bound in parts:
        if any(case is c for c in chosen):
            bounds.extend(b for b in bound if b not in bounds)
    return ResidueSplit(modulus, chosen, sympy.And(*bounds) if bounds else sympy.true)


@dataclass(frozen=True)
class PartialSplit:
    """The residues of n mod `modulus` split into those with one case proved at every large n (`split`, whose
    `chosen[r]` is None on the others) and the open ones (`open`), each open residue with why no case is chosen
    there (`why`: no case holds at large n, or the case depends on the parameters, exactly as the cases say)."""

    split: ResidueSplit
    open: tuple
    why: str

    def decided(self) -> tuple:
        return tuple(r for r in range(self.split.modulus) if r not in self.open)


def split_partially(form, n, lower_bounds: dict) -> Optional[PartialSplit]:
    """The cases of `form` by residue class on the classes where one case is proved at every large n, when the
    others have none (no case holds there at large n, or only cases that hold for some parameter values): those
    classes are open, and a verdict states nothing proved on them (docs/theory.md §11.4, §12). None when every
    class has its case (`split_by_residue` applies), when no class has one, when some class has several cases
    that hold at every large n, or when the residues cannot be read."""
    found = choices(form, n, lower_bounds)
    if found is None:
        return None
    modulus, picks, parts = found
    proved = [len(c) == 1 and c[0][1] == ALWAYS for c in picks]
    if all(proved) or not any(proved) or any(any(k == ALWAYS for _, k in c) and not ok
                                             for c, ok in zip(picks, proved)):
        return None
    chosen = tuple(c[0][0] if ok else None for c, ok in zip(picks, proved))
    bounds: list = []
    for case, _, bound in parts:
        if any(case is c for c in chosen if c is not None):
            bounds.extend(b for b in bound if b not in bounds)
    split = ResidueSplit(modulus, chosen, sympy.And(*bounds) if bounds else sympy.true)
    return PartialSplit(split, tuple(r for r, ok in enumerate(proved) if not ok), dependence(form, n, lower_bounds) or "")


def choices(form, n, lower_bounds: dict) -> Optional[tuple]:
    """(L, for every residue r of n mod L the cases that may hold at every large n ≡ r with ALWAYS or DEPENDS,
    the cases' parts), or None when the residues cannot be read (no Mod of n, a Mod of n by a parameter, a
    condition mixing n mod L with other terms) or a bound is not decided. A case holds at every large n ≡ r when
    its residue parts hold at r (they depend on n mod L alone) and each bound holds eventually (`_eventually`:
    proved over every admissible parameter value, no sampling)."""
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
    kinds = []
    for _, _, bound in parts:
        each = [_eventually(b, n, lower_bounds) for b in bound]
        if any(k is None for k in each):
            return None
        kinds.append(NEVER if NEVER in each else ALWAYS if all(k == ALWAYS for k in each) else DEPENDS)
    picks = []
    for r in range(modulus):
        here = [(case, kind) for (case, residue, _), kind in zip(parts, kinds)
                if kind != NEVER and all(_holds_at(p, {n.name: r}) for p in residue)]
        picks.append(tuple(here))
    return modulus, tuple(picks), parts


def dependence(form, n, lower_bounds: dict) -> Optional[str]:
    """Why no split by residue is stated when the case of some class at large n depends on the parameters (or
    several cases hold there): "n mod 4 = 1: … (n ≥ 2·w + 3 and w ≥ 2), or … (…)", exactly as the cases state
    it; None when that is not why."""
    from ..show import show_condition
    found = choices(form, n, lower_bounds)
    if found is None:
        return None
    modulus, picks, parts = found
    out = []
    for r, here in enumerate(picks):
        if len(here) == 1 and here[0][1] == ALWAYS:
            continue
        if not here:
            out.append(f"n mod {modulus} = {r}: no case holds at large n")
            continue
        bounds = {id(case): bound for case, _, bound in parts}
        cases = [f"`{getattr(case, 'rule', '') or 'a case'}` where "
                 + (show_condition(sympy.And(*bounds[id(case)])) if bounds[id(case)] else "every n") for case, _ in here]
        out.append(f"n mod {modulus} = {r}: " + " or ".join(cases))
    return "; ".join(out) if out else None


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


@exact_cache()  # one closed form, split by the lengths' rule, its `applies` and the expect line alike
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
