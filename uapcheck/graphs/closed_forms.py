"""Closed forms for symbolic n: connectivity, directed diameter and symmetry group of structured
patterns, each stated with the range of n (and of the parameters) where it holds.

Inputs: ``n`` a sympy Symbol (integer, positive) or an int; parameters map names to ints or to
sympy Symbols that are integer and positive (a symbol without those assumptions makes the result
undecided).  Every answer is a ``ClosedForm``: a tuple of cases with pairwise disjoint conditions.
Values of (n, parameters) that no case covers are undecided, and a pattern with no closed form we
are sure of returns None: nothing is guessed.  ``tests/graphs/test_closed_forms.py`` compares every
case with the concrete engine for all n ≤ 40 and several parameter values.

Proof sketches (Γ has the arc j -> i when i attends to j; d(j -> i) is the directed distance).

This module holds what both answers share: the results (``ClosedForm`` and its cases), the
normalised atoms a pattern is made of, and the closed-form view witnesses. The connectivity proofs
and rules are in ``closed_connectivity.py``, the group proofs and rules in ``closed_groups.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Optional, Sequence, Union

import sympy
from sympy import (Ge, Integer, Max)

from ..bignum import factorial  # k! stays symbolic above a bound: never (10⁹)! computed exactly

from ..spec import (Blocks, Causal, Columns, Dilated, Edges, Full, Global, GlobalAt, Offsets, Pattern,
                    PatternUnion, RandomPattern, Star, Strided, Window)

Value = Union[int, sympy.Expr]

#: Factorials of integers above this stay unevaluated (`factorial(1048575)`): an order is stated, never
#: computed digit by digit (a concrete n of 10⁶ would otherwise spend seconds on n!).
EAGER_FACTORIAL_MAX = 20


def _span(lo, hi, show=sympy.sstr) -> str:
    """{lo, …, hi}: the engine's one wording of an interval of positions, listed in full when it has at most
    three ({1}, {1, 2}, {1, 2, 3}); `show` writes a symbolic end."""
    if _is_int(lo) and _is_int(hi) and int(hi) - int(lo) < 3:
        return "{" + ", ".join(str(k) for k in range(int(lo), int(hi) + 1)) + "}"
    return f"{{{show(lo)}, …, {show(hi)}}}"


def _fact(x) -> sympy.Expr:
    """x! — unevaluated when x is an integer above EAGER_FACTORIAL_MAX."""
    if isinstance(x, (int, Integer)) or (isinstance(x, sympy.Basic) and x.is_Integer):
        if int(x) > EAGER_FACTORIAL_MAX:
            return factorial(Integer(x), evaluate=False)
    return factorial(x)


# ---------------------------------------------------------------------------------------------
# Results

@dataclass(frozen=True)
class ConnectivityCase:
    """Where ``condition`` holds: strongly connected with ``diameter`` (None: not derived, but at
    most ``diameter_bound``), or not, with ``witness`` (i, j): x_j never reaches position i."""
    condition: sympy.Basic
    strongly_connected: bool
    diameter: Optional[sympy.Expr] = None
    witness: Optional[tuple[sympy.Expr, sympy.Expr]] = None
    diameter_bound: Optional[sympy.Expr] = None
    rule: str = ""
    hub: Optional[object] = None  # Theorem F87's decision (graphs/global_unions.GlobalUnion) behind the case


@dataclass(frozen=True)
class GroupCase:
    """Where ``condition`` holds, G has order ``order`` and is the named group (None: no standard
    name; "stabilizer" names carry ``fixed_point``).  ``contains`` lists standard groups
    (C_n, D_n, reflection) known to be subgroups of G, used only to intersect heads exactly."""
    condition: sympy.Basic
    order: sympy.Expr
    name: Optional[str]
    fixed_point: Optional[sympy.Expr] = None
    contains: frozenset = field(default_factory=frozenset)
    rule: str = ""
    #: G by its structure when it has no standard name ("S_2 on {1, 2} × the reflection of {3, …, n}")
    structure: Optional[str] = None
    #: several heads: (the decision of graphs/head_intersection.py (Theorems F35–F39), the (residue, low) of
    #: its class this case states, or None for all of them), for the case's certificate
    intersection: Optional[object] = field(default=None, compare=False)


@dataclass(frozen=True)
class ClosedForm:
    """Cases with pairwise disjoint conditions; values no case covers are undecided."""
    cases: tuple

    def at(self, values: Mapping) -> Optional[object]:
        """The case that holds at integer values (keys: Symbols or their names), with every
        expression evaluated; None when no case covers these values."""
        subs = {(sympy.Symbol(k) if isinstance(k, str) else k): Integer(v) for k, v in values.items()}
        # symbols carry assumptions: substitute by name so that callers may pass plain names
        found = None
        for case in self.cases:
            cond = case.condition
            by_name = {s: subs.get(s, subs.get(sympy.Symbol(s.name))) for s in cond.free_symbols}
            cond = cond.xreplace({s: v for s, v in by_name.items() if v is not None})
            if cond not in (sympy.true, sympy.false):
                cond = sympy.simplify(cond)
            if cond not in (sympy.true, sympy.false):
                raise ValueError(f"condition {case.condition} is not decided by {values}")
            if cond is sympy.true:
                if found is not None:
                    raise AssertionError("closed-form cases overlap")
                found = _evaluate(case, subs)
        return found


def _evaluate(case, subs):
    def ev(e):
        if e is None:
            return None
        by_name = {s: subs.get(s, subs.get(sympy.Symbol(s.name))) for s in e.free_symbols}
        out = e.xreplace({s: v for s, v in by_name.items() if v is not None})
        if out.free_symbols:
            raise ValueError(f"{e} is not decided by the values given")
        return Integer(out) if out.is_Integer else out  # an unevaluated huge factorial stays one

    if isinstance(case, ConnectivityCase):
        w = None if case.witness is None else (ev(case.witness[0]), ev(case.witness[1]))
        return replace(case, condition=sympy.true, diameter=ev(case.diameter), witness=w,
                       diameter_bound=ev(case.diameter_bound))
    k = ev(case.fixed_point)
    name = case.name if k is None else f"stabilizer {int(k)}"
    return replace(case, condition=sympy.true, order=ev(case.order), name=name, fixed_point=k)


class _Undecided(Exception):
    """Raised internally when no closed form is known: the public functions return None."""


# ---------------------------------------------------------------------------------------------
# Normalised atoms

@dataclass(frozen=True)
class _Atom:
    kind: str          # full, empty, causal, window, cwindow, offsets, coffsets, dilated, strided,
    args: tuple = ()   # blocks, global


def _is_int(x) -> bool:
    return isinstance(x, (int, Integer)) or (isinstance(x, sympy.Basic) and x.is_Integer)


def _value(term, params: Mapping[str, Value]) -> sympy.Expr:
    if isinstance(term, bool):
        raise TypeError(f"not an integer term: {term!r}")
    if isinstance(term, int):
        return Integer(term)
    if isinstance(term, str):
        name, sign = (term[1:], -1) if term.startswith("-") else (term, 1)
        if name not in params:
            raise KeyError(f"no value given for parameter {name!r}")
        v = params[name]
        if isinstance(v, int) and not isinstance(v, bool):
            return Integer(sign * v)
        if isinstance(v, sympy.Basic) and v.is_Integer:
            return sign * v
        if isinstance(v, sympy.Symbol):
            if not (v.is_integer and v.is_positive):
                raise _Undecided(f"parameter {name} must be a positive integer symbol")
            return sign * v
        raise TypeError(f"parameter {name!r} has an unsupported value {v!r}")
    raise TypeError(f"not an integer term: {term!r}")


def _check(value: sympy.Expr, lowest: int, what: str) -> None:
    if _is_int(value) and int(value) < lowest:
        raise ValueError(f"{what} must be >= {lowest}, got {value}")


def _atoms(pattern: Pattern, params: Mapping[str, Value]) -> list[_Atom]:  # noqa: C901 - one branch per pattern kind
    if isinstance(pattern, PatternUnion):
        return [a for p in pattern.parts for a in _atoms(p, params)]
    if isinstance(pattern, Full):
        return [_Atom("full")]
    if isinstance(pattern, Causal):
        return [_Atom("causal")]
    if isinstance(pattern, Window):
        w = _value(pattern.w, params)
        _check(w, 0, "window radius")
        if w == 0:
            return [_Atom("empty")]
        return [_Atom("cwindow" if pattern.cyclic else "window", (w,))]
    if isinstance(pattern, Offsets):
        ks = tuple(_value(t, params) for t in pattern.offsets)
        return [_offsets_atom(ks, pattern.cyclic)]
    if isinstance(pattern, Dilated):
        w, r = _value(pattern.w, params), _value(pattern.r, params)
        _check(w, 0, "dilated radius")
        _check(r, 1, "dilation")
        if w == 0:
            return [_Atom("empty")]
        if r == 1:
            return [_Atom("window", (w,))]
        return [_Atom("dilated", (w, r))]
    if isinstance(pattern, Strided):
        s = _value(pattern.s, params)
        _check(s, 1, "stride")
        return [_Atom("full")] if s == 1 else [_Atom("strided", (s,))]
    if isinstance(pattern, Blocks):
        b = _value(pattern.b, params)
        _check(b, 1, "block size")
        return [_Atom("empty")] if b == 1 else [_Atom("blocks", (b,))]
    if isinstance(pattern, (Global, Star)):
        g = Integer(1) if isinstance(pattern, Star) else _value(pattern.g, params)
        _check(g, 0, "global count")
        return [_Atom("empty")] if g == 0 else [_Atom("global", (g,))]
    if isinstance(pattern, GlobalAt):
        g = prefix_global_count(pattern)
        if g is None:
            raise _Undecided("listed global positions other than the first g have no closed form")
        return [_Atom("global", (Integer(g),))]
    if isinstance(pattern, (RandomPattern, Edges)):
        raise _Undecided("random and edges patterns need an integer number of tokens")
    if isinstance(pattern, Columns):  # reached with a param elsewhere in the pattern (`columns(4, 1) + window(w)`)
        raise _Undecided("columns(l, c) has no closed form in n or in a parameter")
    raise TypeError(f"unknown pattern {pattern!r}")


def prefix_global_count(pattern: GlobalAt) -> Optional[int]:
    """g when `global {p, q, ...}` lists exactly the positions 1, …, g (in any order): it then has the
    arcs of global(g) (i attends to j iff i or j is listed; docs/theory.md §11.11, "Listed globals"),
    else None."""
    g = len(pattern.positions)
    return g if g and set(pattern.positions) == set(range(1, g + 1)) else None


def _offsets_atom(ks: tuple, cyclic: bool) -> _Atom:
    nonzero = tuple(k for k in ks if k != 0)
    if not nonzero:
        return _Atom("empty")
    if all(_is_int(k) for k in nonzero):
        vals = sorted({int(k) for k in nonzero})
        w = max(abs(v) for v in vals)
        if len(vals) == 2 * w:  # 2w distinct nonzero integers in [−w, w]: every one of them
            return _Atom("cwindow" if cyclic else "window", (Integer(w),))
    return _Atom("coffsets" if cyclic else "offsets", tuple(sorted(set(nonzero), key=sympy.default_sort_key)))


def _merge(atoms: list[_Atom]) -> list[_Atom]:
    """Drop empties and duplicates; merge windows (union of windows = the largest) and globals (global(a) ∪
    global(b) = global(max(a, b)), so no head carries two global atoms of which a rule would read only one)."""
    out: list[_Atom] = []
    windows, cwindows = [], []
    globals_: list = []
    for a in atoms:
        if a.kind == "empty" or a in out:
            continue
        if a.kind == "window":
            windows.append(a.args[0])
        elif a.kind == "cwindow":
            cwindows.append(a.args[0])
        elif a.kind == "global":
            if not globals_:
                out.append(a)  # its place; the size is the largest, below
            globals_.append(a.args[0])
        else:
            out.append(a)
    if len(set(globals_)) > 1:
        out = [_Atom("global", (_max(globals_),)) if a.kind == "global" else a for a in out]
    w = _max(windows) if windows else None
    c = _max(cwindows) if cwindows else None
    if w is not None and c is not None and _is_int(w) and _is_int(c) and int(w) <= int(c):
        w = None  # window(w) ⊆ window(c) cyclic
    if w is not None:
        out.append(_Atom("window", (w,)))
    if c is not None:
        out.append(_Atom("cwindow", (c,)))
    return out


def _max(values: list) -> sympy.Expr:
    values = list(dict.fromkeys(values))
    return values[0] if len(values) == 1 else Max(*values)


def _sign(k: sympy.Expr) -> int:
    if k.is_positive:
        return 1
    if k.is_negative:
        return -1
    raise _Undecided(f"the sign of offset {k} is unknown")


def _n(n: Value) -> sympy.Expr:
    if isinstance(n, bool):
        raise TypeError("n must be an integer or a sympy Symbol")
    if isinstance(n, int):
        if n < 1:
            raise ValueError("n must be >= 1")
        return Integer(n)
    if isinstance(n, sympy.Symbol) and n.is_integer and n.is_positive:
        return n
    if isinstance(n, sympy.Basic) and n.is_Integer and n >= 1:
        return n
    raise ValueError("n must be a positive integer or a positive integer Symbol")


def _prune(cases):
    return [c for c in cases if c.condition is not sympy.false]


def closed_forms(heads: Sequence[Pattern], n: Value, params: Optional[Mapping[str, Value]] = None,
                 biases: Optional[Sequence[Optional[str]]] = None, positional: str = "none"):
    """(closed_connectivity(...), closed_group(...)): either may be None (undecided)."""
    from .closed_connectivity import closed_connectivity
    from .closed_groups import closed_group
    return (closed_connectivity(heads, n, params),
            closed_group(heads, n, params, biases, positional))


# ---------------------------------------------------------------------------------------------
# Closed-form view witnesses (docs/theory.md §11.9, "Families")

@dataclass(frozen=True)
class WitnessCase:
    """Where ``condition`` holds, the swap (a b) is a view witness at ``position`` for D layers."""
    condition: sympy.Basic
    position: sympy.Expr
    swap: tuple
    rule: str


def closed_view_witness(heads: Sequence[Pattern], n: Value, params: Optional[Mapping[str, Value]] = None,
                        biases: Optional[Sequence[Optional[str]]] = None,
                        positional: str = "none") -> Optional[WitnessCase]:
    """A view witness stated for a range of n, for the families where one is proved; else None.

    window(w) + global(g) in one head (w, g ≥ 1), n ≥ g + 3w + 3: with a = g + w + 1, the swap
    (a a+1) can change only the neighbourhoods of g + 1, a, a + 1 and a + w + 1 (the others see both or
    neither of a, a + 1; the globals see both), all at distance 2 = D from i = g + 3w + 3; and it is
    not in G = Sym(globals) × ⟨reflection of the others⟩.
    """
    n = _n(n)
    params = dict(params or {})
    if biases and any(b is not None for b in biases) or positional != "none":
        return None
    if len(set(heads)) != 1:
        return None
    try:
        atoms = _merge(_atoms(heads[0], params))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    if sorted(a.kind for a in atoms) != ["global", "window"]:
        return None
    by = {a.kind: a for a in atoms}
    w, g = by["window"].args[0], by["global"].args[0]
    a = g + w + 1
    return WitnessCase(Ge(n, g + 3 * w + 3), g + 3 * w + 3, (a, a + 1),
                       "window(w) + global(g), n ≥ g + 3w + 3: the swap (g+w+1 g+w+2) at position g+3w+3")
