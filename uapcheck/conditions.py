"""Conditions on n and the parameters (SymPy relations), simplified exactly before they are printed.

A range is built by conjoining the ranges of several results (n ≥ 8 from the group, n ≥ 13 from the
layer count), so it carries bounds that others imply. `simplify_condition` returns an equivalent
condition, for every value of the symbols under their assumptions (integers, positive where declared):

* in a conjunction, a lower bound (lhs ≥ a, lhs > a) implied by another of the same lhs is dropped, and
  so is an upper bound (lhs ≤ a, lhs < a) implied by another; on an integer lhs a strict bound is the
  non-strict one moved by 1 (n > 12 is n ≥ 13), an equality n = a drops every bound it satisfies;
* in a disjunction, two integer ranges of the same lhs that meet or touch merge into one
  (n ≤ 3 or n = 4 is n ≤ 4; 5 ≤ n ≤ 7 or n ≥ 8 is n ≥ 5).

* an alternative of lower bounds by residue class that together hold exactly from some A on is n ≥ A ((n ≥ 61
  and n odd) or (n ≥ 62 and n even) is n ≥ 61);
* residue sets of one symbol (n mod L = r, alternatives of them, n mod L ≠ r) are combined exactly: in a
  conjunction intersected, in a disjunction united, as sets of residues mod the lcm of their moduli, and
  written back mod the least modulus that states the same set (n mod 20 ∈ {0, 5, 10, 15} is n mod 5 = 0); all
  the residues are no condition (n ≥ 76 and n mod 20 ∈ {0, …, 19} is n ≥ 76), none is false.

Nothing is dropped that is not implied: an implication is decided by the sign of a difference of
bounds (sympy's assumptions), and undecided differences keep both bounds.
"""
from __future__ import annotations

from typing import Optional

import sympy


def _integer(expr) -> bool:
    return bool(getattr(expr, "is_integer", False))


def _as_bound(rel) -> Optional[tuple]:
    """(lhs, kind, value) for lhs ≥ value ("lower"), lhs ≤ value ("upper") or lhs = value ("equal"), with strict
    bounds on an integer side moved by 1; None for any other relation."""
    if isinstance(rel, sympy.Equality) and rel.lhs.free_symbols:
        return rel.lhs, "equal", rel.rhs
    if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan, sympy.LessThan, sympy.StrictLessThan)):
        lhs, rhs = rel.lhs, rel.rhs
        strict = isinstance(rel, (sympy.StrictGreaterThan, sympy.StrictLessThan))
        lower = isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan))
        if strict and not (_integer(lhs) and _integer(rhs)):
            return None
        if strict:
            rhs = rhs + 1 if lower else rhs - 1
        return lhs, "lower" if lower else "upper", rhs
    return None


def _simplified(expr):
    from .zero import simplified  # sympy.simplify without the call where it returns its argument
    return simplified(expr)


def _nonnegative(expr) -> bool:
    return _simplified(expr).is_nonnegative is True


def _implied(q: tuple, p: tuple) -> bool:
    """Whether bound q implies bound p (same lhs)."""
    lhs_q, kind_q, a = q
    lhs_p, kind_p, b = p
    if lhs_q != lhs_p:
        return False
    if kind_p == "lower":
        return kind_q in ("lower", "equal") and _nonnegative(a - b)
    if kind_p == "upper":
        return kind_q in ("upper", "equal") and _nonnegative(b - a)
    return kind_q == "equal" and _simplified(a - b) == 0


def _relation(bound: tuple):
    lhs, kind, value = bound
    make = {"lower": sympy.GreaterThan, "upper": sympy.LessThan, "equal": sympy.Eq}[kind]
    return make(lhs, value, evaluate=False)


def _residues(cond) -> Optional[tuple]:
    """(n, L, the residues mod L where cond holds) for n mod L = r (n a symbol, L ≥ 1 and r integers), n mod L ≠ r,
    or an alternative of such conditions on the same n; None for any other condition."""
    if isinstance(cond, sympy.Or):
        found = [_residues(a) for a in cond.args]
        if any(f is None for f in found) or len({f[0] for f in found if f is not None}) != 1:
            return None
        return _combine([f for f in found if f is not None], union=True)
    if not (isinstance(cond, (sympy.Eq, sympy.Ne)) and isinstance(cond.lhs, sympy.Mod)):
        return None
    n, modulus = cond.lhs.args
    if not (isinstance(n, sympy.Symbol) and n.is_integer and isinstance(modulus, sympy.Integer) and modulus >= 1
            and isinstance(cond.rhs, sympy.Integer)):
        return None
    big, r = int(modulus), int(cond.rhs)
    held = {r} if 0 <= r < big else set()
    return n, big, frozenset(held if isinstance(cond, sympy.Eq) else set(range(big)) - held)


def _combine(sets: list, union: bool) -> tuple:
    """The intersection (or the union) of residue sets of one symbol, mod the lcm of their moduli."""
    from math import lcm
    n = sets[0][0]
    big = lcm(*(m for _, m, _ in sets))
    lifted = [{r for r in range(big) if r % m in rs} for _, m, rs in sets]
    out = set().union(*lifted) if union else set.intersection(*lifted)
    return n, big, frozenset(out)


def _residue_condition(n, modulus: int, residues: frozenset):
    """The residue set written mod the least modulus that states it; true for all residues, false for none."""
    if not residues:
        return sympy.false
    for d in range(1, modulus + 1):
        if modulus % d == 0:
            small = {r % d for r in residues}
            if len(small) * (modulus // d) == len(residues):
                if len(small) == d:
                    return sympy.true
                eqs = [sympy.Eq(sympy.Mod(n, d), r, evaluate=False) for r in sorted(small)]
                return eqs[0] if len(eqs) == 1 else sympy.Or(*eqs, evaluate=False)
    return sympy.true  # not reached: d = modulus states every set


def _merge_residues(parts: list, union: bool) -> list:
    """The parts with the residue sets of each symbol combined into one (at the place of the first)."""
    found = [_residues(p) for p in parts]
    out: list = []
    done: set = set()
    for p, f in zip(parts, found):
        if f is None:
            out.append(p)
            continue
        if f[0] in done:
            continue
        done.add(f[0])
        same = [g for g in found if g is not None and g[0] == f[0]]
        out.append(_residue_condition(*_combine(same, union)) if len(same) > 1 else _residue_condition(*f))
    return out


def _empty_range(bounds: list) -> bool:
    """Whether integer bounds with integer values on one integer side hold for no value (n = 1 and n ≥ 3)."""
    lows: dict = {}
    highs: dict = {}
    for b in bounds:
        if b is None or not _integer(b[0]) or not b[2].is_Integer:
            continue
        lhs, kind, value = b
        if kind in ("lower", "equal"):
            lows[lhs] = max(lows.get(lhs, value), value)
        if kind in ("upper", "equal"):
            highs[lhs] = min(highs.get(lhs, value), value)
    return any(lhs in highs and low > highs[lhs] for lhs, low in lows.items())


def _conjunction(parts: list):
    parts = [p for p in _merge_residues(parts, union=False) if p is not sympy.true]
    if any(p is sympy.false for p in parts):
        return sympy.false
    bounds = [_as_bound(p) for p in parts]
    if _empty_range(bounds):
        return sympy.false
    kept = []
    for i, p in enumerate(parts):
        b = bounds[i]
        if b is None:
            kept.append(p)
            continue
        # dropped when another bound implies it strictly, or implies it and comes first (equal bounds: one stays)
        if any(j != i and c is not None and _implied(c, b) and (j < i or not _implied(b, c))
               for j, c in enumerate(bounds)):
            continue
        kept.append(_relation(b) if _relation(b) != p and b[1] != "equal" else p)
    # an integer range lo ≤ n ≤ lo is n = lo
    lows = [_as_bound(p) for p in kept]
    for i, lo in enumerate(lows):
        for j, hi in enumerate(lows):
            if lo and hi and lo[1] == "lower" and hi[1] == "upper" and lo[0] == hi[0] and _integer(lo[0]) \
                    and _simplified(lo[2] - hi[2]) == 0:
                rest = [p for k, p in enumerate(kept) if k not in (i, j)]
                return _conjunction([sympy.Eq(lo[0], lo[2], evaluate=False), *rest])
    if not kept:
        return sympy.true
    return kept[0] if len(kept) == 1 else sympy.And(*kept, evaluate=False)


def _interval(cond) -> Optional[tuple]:
    """(lhs, low, high) with integer bounds (None: unbounded) for an integer range of one integer lhs."""
    parts = list(cond.args) if isinstance(cond, sympy.And) else [cond]
    lhs, low, high = None, None, None
    for p in parts:
        b = _as_bound(p)
        if b is None or not b[2].is_Integer or not _integer(b[0]) or (lhs is not None and b[0] != lhs) \
                or b[0].has(sympy.Mod):  # residues stay a set of classes (n mod 3 ∈ {0, 1}), not a range
            return None
        lhs = b[0]
        if b[1] in ("lower", "equal"):
            low = b[2] if low is None else max(low, b[2])
        if b[1] in ("upper", "equal"):
            high = b[2] if high is None else min(high, b[2])
    return None if lhs is None else (lhs, low, high)


def _range(lhs, low, high):
    if low is not None and high is not None and low == high:
        return sympy.Eq(lhs, low, evaluate=False)
    parts = ([sympy.GreaterThan(lhs, low, evaluate=False)] if low is not None else []) + \
        ([sympy.LessThan(lhs, high, evaluate=False)] if high is not None else [])
    if not parts:
        return sympy.true
    return parts[0] if len(parts) == 1 else sympy.And(*parts, evaluate=False)


def _classed_lower(cond) -> Optional[tuple]:
    """(n, a, L, R) for n ≥ a (an integer) with, optionally, n's residue mod L in R: one symbol, one lower bound;
    None for any other condition."""
    n, low, res = None, None, None
    for p in (cond.args if isinstance(cond, sympy.And) else (cond,)):
        b = _as_bound(p)
        if b is not None and b[1] == "lower" and b[2].is_Integer and isinstance(b[0], sympy.Symbol) \
                and b[0].is_integer and n in (None, b[0]):
            n, low = b[0], int(b[2]) if low is None else max(low, int(b[2]))
            continue
        r = _residues(p)
        if r is None:
            return None
        res = r if res is None else _combine([res, r], union=False)
    if n is None and res is not None and res[0].is_integer and res[0].is_nonnegative:
        n, low = res[0], 1 if res[0].is_positive else 0  # the symbol's own least value
    if n is None or (res is not None and res[0] != n):
        return None
    return (n, low, 1, frozenset({0})) if res is None else (n, low, res[1], res[2])


def _classed_union(parts: list):
    """n ≥ A for an alternative of lower bounds by residue class that together hold exactly from A on ((n ≥ 61 and n
    odd) or (n ≥ 62 and n even) is n ≥ 61); None otherwise. With lo(r) the least bound over the parts holding on the
    class r mod L (L the lcm), the alternative is {n : n ≥ lo(n mod L)}; A is its least member, and it is all of
    n ≥ A iff every n from A to max lo + L − 1 is in it (above max lo every n is)."""
    from math import lcm
    found = [_classed_lower(p) for p in parts]
    if len(parts) < 2 or any(f is None for f in found) or len({f[0] for f in found if f is not None}) != 1:
        return None
    big = lcm(*(f[2] for f in found if f is not None))
    if big > 10_000:
        return None
    lo: dict[int, int] = {}
    for f in found:
        if f is not None:
            for r in range(big):
                if r % f[2] in f[3]:
                    lo[r] = min(lo.get(r, f[1]), f[1])
    if len(lo) != big:
        return None
    least = min(low + (r - low) % big for r, low in lo.items())
    if not all(x >= lo[x % big] for x in range(least, max(lo.values()) + big)) or found[0] is None:
        return None
    n = found[0][0]
    if (n.is_positive and least <= 1) or (n.is_nonnegative and least <= 0):
        return sympy.true
    return sympy.GreaterThan(n, least, evaluate=False)


def _disjunction(parts: list):
    parts = [p for p in _merge_residues(parts, union=True) if p is not sympy.false]
    if any(p is sympy.true for p in parts):
        return sympy.true
    if not parts:
        return sympy.false
    whole = _classed_union(parts)
    if whole is not None:
        return whole
    intervals = [_interval(p) for p in parts]
    merged: list = []
    rest = [p for p, iv in zip(parts, intervals) if iv is None]
    for iv in sorted((iv for iv in intervals if iv is not None),
                     key=lambda t: (sympy.default_sort_key(t[0]), float("-inf") if t[1] is None else int(t[1]))):
        if merged and merged[-1][0] == iv[0]:
            lhs, low, high = merged[-1]
            if high is None or iv[1] is None or int(iv[1]) <= int(high) + 1:
                top = None if high is None or iv[2] is None else max(high, iv[2])
                merged[-1] = (lhs, low, top)
                continue
        merged.append(iv)
    out = [_range(*iv) for iv in merged] + rest
    if any(o is sympy.true for o in out):
        return sympy.true
    return out[0] if len(out) == 1 else sympy.Or(*out, evaluate=False)


def simplify_condition(cond):
    """An equivalent condition without implied bounds and with adjacent integer ranges merged."""
    if not isinstance(cond, sympy.Basic) or cond in (sympy.true, sympy.false):
        return cond
    if isinstance(cond, sympy.Or):
        flat_or: list = []
        for a in cond.args:
            a = simplify_condition(a)
            flat_or.extend(a.args if isinstance(a, sympy.Or) and _residues(a) is None else (a,))
        return _disjunction(flat_or)
    if isinstance(cond, sympy.And):
        flat: list = []
        for a in cond.args:
            a = simplify_condition(a)
            flat.extend(a.args if isinstance(a, sympy.And) else (a,))
        return _conjunction(flat)
    if _residues(cond) is not None:
        return _residue_condition(*_residues(cond))
    return cond
