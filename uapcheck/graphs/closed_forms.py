"""Closed forms for symbolic n: connectivity, directed diameter and symmetry group of structured
patterns, each stated with the range of n (and of the parameters) where it holds.

Inputs: ``n`` a sympy Symbol (integer, positive) or an int; parameters map names to ints or to
sympy Symbols that are integer and positive (a symbol without those assumptions makes the result
undecided).  Every answer is a ``ClosedForm``: a tuple of cases with pairwise disjoint conditions.
Values of (n, parameters) that no case covers are undecided, and a pattern with no closed form we
are sure of returns None: nothing is guessed.  ``tests/graphs/test_closed_forms.py`` compares every
case with the concrete engine for all n ≤ 40 and several parameter values.

Proof sketches (Γ has the arc j -> i when i attends to j; d(j -> i) is the directed distance).

Connectivity and diameter
* full: complete; diameter 1 (n ≥ 2).  Empty patterns (window(0), blocks(1), global(0), offsets
  {0}): no arcs; (i, j) = (1, 2) is a witness for n ≥ 2.
* window(w): |i - j| ≤ w; one hop moves at most w, and w-steps reach: d = ceil(|i - j| / w), so the
  diameter is ceil((n - 1)/w) for all n ≥ 1.  Cyclic: the circular distance is at most floor(n/2),
  so the diameter is ceil(floor(n/2)/w) for all n ≥ 1 (1 when 2w + 1 ≥ n ≥ 2: complete).
* causal: only j ≤ i; x_2 never reaches position 1 (n ≥ 2).  causal + window(w): a forward pair is
  one hop; an arc a -> b always has b ≥ a - w, so going back by k needs ceil(k/w) hops and window
  steps achieve it: diameter ceil((n - 1)/w).
* offsets (not cyclic), K' = K minus 0: all positive: position n attends to nothing else, so x_1
  never reaches n (witness (n, 1)); all negative: witness (1, 2); gcd(K') = d ≥ 2: arcs join only
  positions congruent mod d, witness (1, 2); K' ⊇ {1, -1}: the path is a subgraph, strongly
  connected (diameter ≤ n - 1, exact value not derived); K' = {±1..±w}: window(w).
* offsets cyclic: Cay(Z_n, K) is strongly connected iff gcd(K' ∪ {n}) = gcd(gcd(K'), n) = 1 (a
  finite group: the generated monoid is the subgroup); otherwise all arcs stay in the cosets of
  dZ_n, witness (1, 2).  K' = {1..w} (or {-1..-w}): one hop advances by 1..w, so the diameter is
  ceil((n - 1)/w).
* dilated(w, r), r ≥ 2: arcs join positions congruent mod r, witness (1, 2); r = 1 is window(w).
* strided(s), s ≥ 2: arcs join positions congruent mod s, witness (1, 2); s = 1 is full.
* blocks(b): n ≤ b is complete; n > b: positions 1 and b + 1 lie in different blocks, no arc leaves
  a block, witness (1, b + 1).
* any global(g ≥ 1) (star = global(1)): j -> 1 -> i for all i, j, so strongly connected with
  diameter ≤ 2; it is 1 exactly when the union is complete.  With the other parts P the union is
  complete iff n ≤ N0:  none, causal, strided(s ≥ 2), dilated(r ≥ 2): N0 = g + 1 (the pair g + 1,
  g + 2 is a non-arc); window(w): N0 = g + w + 1; window(w) cyclic: N0 = max(g + w + 1, 2w + 1)
  (a non-global pair at circular distance w + 1 exists iff n ≥ g + w + 2 and n ≥ 2w + 2); blocks(b):
  N0 = b·ceil((g + 1)/b) (all non-globals in one block); offsets K (integers, not cyclic):
  N0 = g + d* with d* the least d ≥ 1 with d ∉ K or -d ∉ K.
* a union containing window(w ≥ 1) (or offsets ⊇ {±1}) is strongly connected, with the window's
  diameter as an upper bound ``diameter_bound``; its exact diameter is not derived.

Groups (per head; heads intersect; "S_n" also covers n ≤ 2 or 3 where the named groups coincide)
* full: S_n.  Empty patterns: S_n.  causal (transitive tournament): trivial for n ≥ 2.
* window(w) = the proper interval graph P_n^w.  Twins (equal closed neighbourhoods) are exactly the
  universal vertices U = [n - w, w + 1], u = |U| = max(0, 2w + 2 - n).  A connected proper interval
  graph has a unique straight ordering of its twin classes up to reversal (Deng, Hell, Huang 1996),
  so Aut = Sym(U) × <reflection>:  n ≤ w + 1: S_n;  w + 2 ≤ n ≤ 2w: order 2·(2w + 2 - n)!
  (no standard name; at n = w + 2 this is K_n minus an edge, 2·(n - 2)!);  n ≥ max(w + 2, 2w + 1):
  reflection.  (The usual claim "reflection for n ≥ w + 3" is false: window(3) at n = 6 has
  order 4, the two middle positions are universal.)
* window(w) cyclic = C_n^w:  n ≤ 2w + 1: complete, S_n;  n = 2w + 2: the complement of the
  antipodal perfect matching, (S_2)^{n/2} ⋊ S_{n/2} of order 2^{n/2}(n/2)! (= D_4 at n = 4);
  n ≥ 2w + 3: the edges {i, i+1} are exactly those with the most (2w - 2) common neighbours
  (distance-d edges have 2w - 1 - d, or 4w - n after wrapping), so Aut preserves the n-cycle and
  equals D_n.
* offsets {1..w} cyclic (one-sided): n ≤ w + 1 complete, S_n; n ≥ w + 2: the arcs i -> i + 1 are
  exactly those with w - 1 common out-neighbours (the others have fewer, also after wrapping), so
  Aut preserves the directed n-cycle: C_n.
* global(g) / star: n ≤ g + 1 complete; n ≥ g + 2: the complete split graph, Sym(globals) ×
  Sym(others): g = 1 is "stabilizer 1", order (n - 1)!; g ≥ 2 has order g!(n - g)!.
* window(w) + global(g): the universal vertices are the globals and the universal vertices of the
  window on the n - g others; Aut = Sym(universal) × Aut(rest) with |Aut(rest)| = 2 (above):
  n ≤ g + w + 1: S_n; n ≥ g + w + 2: order 2·(g + max(0, 2w + 2 - n + g))!, no standard name.
* blocks(b): disjoint cliques, q = floor(n/b) of size b and one of size ρ = n - qb:
  order (b!)^q q! ρ!; n = b + 1: "stabilizer b + 1"; n ≤ b or b = 1: S_n.
* strided(s): disjoint cliques on residue classes: ρ = n mod s classes of size q + 1 and s - ρ of
  size q = floor(n/s): order ((q+1)!)^ρ ρ! (q!)^(s-ρ) (s-ρ)!; n ≤ s or s = 1: S_n; (s, n) = (2, 3):
  reflection; (2, 4): D_4 (the complement of 2K_2 is the 4-cycle).
* Bias on the arcs of a head (see symmetry.py): the class-1 arcs of the bias inside the pattern
  force the group into Aut(directed path) = trivial (toeplitz), Aut(path) = reflection (symmetric
  toeplitz), Aut(directed cycle) = C_n (circulant), Aut(cycle) = D_n (symmetric circulant), and
  those groups preserve the pattern and the classes.  Done for full, window(w) and cyclic
  window(w); for a non-cyclic window with n ≥ w + 2 the wrap-around class-1 pair is missing, so
  circulant gives trivial and symmetric circulant gives reflection.
* Intersections over heads use only exact facts: S_n ∩ X = X, trivial ∩ X = trivial, X ∩ X = X
  for identical heads, and for X among C_n, D_n, reflection: X ∩ Y = X when Y is known to contain
  X, C_n ∩ D_n = C_n, D_n ∩ reflection = reflection, C_n ∩ reflection = trivial.  Anything else is
  undecided.  Absolute positional encodings and "free" bias give the trivial group.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import reduce
from typing import Mapping, Optional, Sequence, Union

import sympy
from sympy import (And, Eq, Ge, Integer, Le, Max, Mod, Ne, Or, ceiling, floor)

from ..bignum import factorial  # k! stays symbolic above a bound: never (10⁹)! computed exactly

from ..spec import (Blocks, Causal, Dilated, Edges, Full, Global, Offsets, Pattern, PatternUnion,
                    RandomPattern, Star, Strided, Window)

Value = Union[int, sympy.Expr]

#: Factorials of integers above this stay unevaluated (`factorial(1048575)`): an order is stated, never
#: computed digit by digit (a concrete n of 10⁶ would otherwise spend seconds on n!).
EAGER_FACTORIAL_MAX = 20


def _span(lo, hi) -> str:
    """{lo, …, hi} (the positions listed when there are at most three)."""
    if _is_int(lo) and _is_int(hi) and int(hi) - int(lo) < 3:
        return "{" + ", ".join(str(k) for k in range(int(lo), int(hi) + 1)) + "}"
    return f"{{{sympy.sstr(lo)}, …, {sympy.sstr(hi)}}}"


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


def _atoms(pattern: Pattern, params: Mapping[str, Value]) -> list[_Atom]:
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
    if isinstance(pattern, (RandomPattern, Edges)):
        raise _Undecided("random and edges patterns need an integer number of tokens")
    raise TypeError(f"unknown pattern {pattern!r}")


def _offsets_atom(ks: tuple, cyclic: bool) -> _Atom:
    nonzero = tuple(k for k in ks if k != 0)
    if not nonzero:
        return _Atom("empty")
    if all(_is_int(k) for k in nonzero):
        vals = sorted({int(k) for k in nonzero})
        w = max(abs(v) for v in vals)
        if set(vals) == set(range(-w, w + 1)) - {0}:
            return _Atom("cwindow" if cyclic else "window", (Integer(w),))
    return _Atom("coffsets" if cyclic else "offsets", tuple(sorted(set(nonzero), key=sympy.default_sort_key)))


def _merge(atoms: list[_Atom]) -> list[_Atom]:
    """Drop empties and duplicates; merge windows (union of windows = the largest)."""
    out: list[_Atom] = []
    windows, cwindows = [], []
    for a in atoms:
        if a.kind == "empty" or a in out:
            continue
        if a.kind == "window":
            windows.append(a.args[0])
        elif a.kind == "cwindow":
            cwindows.append(a.args[0])
        else:
            out.append(a)
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


# ---------------------------------------------------------------------------------------------
# Connectivity

def _conn(cond, sc, diameter=None, witness=None, bound=None, rule=""):
    return ConnectivityCase(cond, sc, diameter, witness, bound, rule)


def _complete_cases(n, upto, rule):
    """Complete for 2 ≤ n ≤ upto (diameter 1), n = 1 (diameter 0)."""
    return [_conn(Eq(n, 1), True, Integer(0), rule=rule + "; n = 1"),
            _conn(And(Ge(n, 2), Le(n, upto)), True, Integer(1), rule=rule + "; complete")]


def closed_connectivity(heads: Sequence[Pattern], n: Value,
                        params: Optional[Mapping[str, Value]] = None) -> Optional[ClosedForm]:
    """Connectivity and diameter of the union over heads as cases in n; None when undecided."""
    n = _n(n)
    try:
        atoms = _merge([a for p in heads for a in _atoms(p, dict(params or {}))])
        cases = _connectivity(atoms, n)
    except _Undecided:
        return None
    return None if cases is None else ClosedForm(tuple(_prune(cases)))


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


def _connectivity(atoms: list[_Atom], n) -> Optional[list[ConnectivityCase]]:
    kinds = {a.kind for a in atoms}
    one = Eq(n, 1)
    many = Ge(n, 2)
    if "full" in kinds:
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, True, Integer(1), rule="full: complete")]
    if not atoms:
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=(Integer(1), Integer(2)), rule="no arcs")]
    if "global" in kinds:
        return _global_connectivity(atoms, n)
    if len(atoms) == 1:
        return _single_connectivity(atoms[0], n)
    by = {a.kind: a for a in atoms}
    if kinds == {"causal", "window"}:
        w = by["window"].args[0]
        return [_conn(sympy.true, True, ceiling((n - 1) / w),
                      rule="causal + window(w): forward in one hop, back by at most w per hop")]
    # fallback: a spanning path (window, or offsets containing ±1) proves strong connectivity
    for a in atoms:
        if a.kind == "window":
            return [_conn(sympy.true, True, None, bound=ceiling((n - 1) / a.args[0]),
                          rule="contains window(w ≥ 1): strongly connected; bound from the window")]
        if a.kind == "cwindow":
            return [_conn(sympy.true, True, None, bound=ceiling(floor(n / 2) / a.args[0]),
                          rule="contains a cyclic window: strongly connected; bound from the window")]
        if a.kind == "offsets" and Integer(1) in a.args and Integer(-1) in a.args:
            return [_conn(sympy.true, True, None, bound=n - 1,
                          rule="offsets contain ±1: the path is a subgraph")]
    return None


def _single_connectivity(a: _Atom, n) -> Optional[list[ConnectivityCase]]:
    one, many = Eq(n, 1), Ge(n, 2)
    w12 = (Integer(1), Integer(2))
    if a.kind == "window":
        w = a.args[0]
        return [_conn(sympy.true, True, ceiling((n - 1) / w), rule="window(w): ceil((n-1)/w)")]
    if a.kind == "cwindow":
        w = a.args[0]
        return [_conn(sympy.true, True, ceiling(floor(n / 2) / w),
                      rule="window(w) cyclic: ceil(floor(n/2)/w)")]
    if a.kind == "causal":
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=w12, rule="causal: x_2 never reaches position 1")]
    if a.kind in ("dilated", "strided"):
        what = "dilated(w, r ≥ 2)" if a.kind == "dilated" else "strided(s ≥ 2)"
        step = a.args[1] if a.kind == "dilated" else a.args[0]
        if not _is_int(step):
            return [_conn(one, True, Integer(0), rule="n = 1"),
                    _conn(And(many, Eq(step, 1)), *_unit_step(a, n)),
                    _conn(And(many, Ge(step, 2)), False, witness=w12,
                          rule=f"{what}: arcs join positions congruent mod {step}")]
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=w12,
                      rule=f"{what}: arcs join positions congruent mod {step}")]
    if a.kind == "blocks":
        b = a.args[0]
        return _complete_cases(n, b, "blocks(b), n ≤ b") + [
            _conn(Ge(n, b + 1), False, witness=(Integer(1), b + 1),
                  rule="blocks(b): no arc leaves a block")]
    if a.kind == "offsets":
        return _offsets_connectivity(a.args, n)
    if a.kind == "coffsets":
        return _cyclic_offsets_connectivity(a.args, n)
    return None


def _unit_step(a: _Atom, n):
    """The r = 1 / s = 1 branch of a symbolic dilation or stride (n ≥ 2)."""
    if a.kind == "dilated":
        w = a.args[0]
        return (True, ceiling((n - 1) / w), None, None, "dilated(w, 1) = window(w)")
    return (True, Integer(1), None, None, "strided(1) = full")


def _offsets_connectivity(ks, n):
    one, many = Eq(n, 1), Ge(n, 2)
    signs = {_sign(k) for k in ks}
    if signs == {1}:
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=(n, Integer(1)),
                      rule="offsets all positive: position n attends to no other position")]
    if signs == {-1}:
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=(Integer(1), Integer(2)),
                      rule="offsets all negative: position 1 attends to no other position")]
    if all(_is_int(k) for k in ks):
        d = reduce(math.gcd, (abs(int(k)) for k in ks))
        if d >= 2:
            return [_conn(one, True, Integer(0), rule="n = 1"),
                    _conn(many, False, witness=(Integer(1), Integer(2)),
                          rule=f"offsets with gcd {d}: arcs join positions congruent mod {d}")]
        if 1 in {int(k) for k in ks} and -1 in {int(k) for k in ks}:
            return [_conn(sympy.true, True, None, bound=n - 1,
                          rule="offsets contain ±1: the path is a subgraph")]
    return None


def _cyclic_offsets_connectivity(ks, n):
    if not all(_is_int(k) for k in ks):
        return None
    vals = sorted({int(k) for k in ks})
    w = max(abs(v) for v in vals)
    if vals == list(range(1, w + 1)) or vals == list(range(-w, 0)):
        return [_conn(sympy.true, True, ceiling((n - 1) / w),
                      rule="one-sided cyclic offsets {1..w}: ceil((n-1)/w)")]
    d = reduce(math.gcd, (abs(v) for v in vals))
    primes = sorted(sympy.primefactors(d))
    if not primes:  # d = 1
        return [_conn(Eq(n, 1), True, Integer(0), rule="n = 1"),
                _conn(Ge(n, 2), True, None, rule="cyclic offsets with gcd 1: strongly connected")]
    coprime = And(*[Ne(Mod(n, p), 0) for p in primes])
    shared = Or(*[Eq(Mod(n, p), 0) for p in primes])
    return [_conn(Eq(n, 1), True, Integer(0), rule="n = 1"),
            _conn(And(Ge(n, 2), coprime), True, None,
                  rule=f"cyclic offsets: gcd({d}, n) = 1, strongly connected"),
            _conn(shared, False, witness=(Integer(1), Integer(2)),
                  rule=f"cyclic offsets: gcd({d}, n) > 1, arcs stay in cosets")]


def _global_connectivity(atoms, n):
    g = _max([a.args[0] for a in atoms if a.kind == "global"])
    others = [a for a in atoms if a.kind != "global"]
    rule = "global tokens: j -> 1 -> i"
    if not others:
        n0 = g + 1
    elif len(others) == 1:
        a = others[0]
        if a.kind in ("causal", "strided", "dilated"):
            step = a.args[-1] if a.args else None  # the stride s, or the dilation r
            if step is not None and not _is_int(step):
                return None  # a symbolic stride or dilation may be 1 (full, window)
            n0 = g + 1
        elif a.kind == "window":
            n0 = g + a.args[0] + 1
        elif a.kind == "cwindow":
            w = a.args[0]
            n0 = Max(g + w + 1, 2 * w + 1)
        elif a.kind == "blocks":
            b = a.args[0]
            n0 = b * ceiling((g + 1) / b)
        elif a.kind == "offsets" and all(_is_int(k) for k in a.args):
            ks = {int(k) for k in a.args}
            d = 1
            while d in ks and -d in ks:
                d += 1
            n0 = g + d
        else:
            return None
    else:
        return None
    return [_conn(Eq(n, 1), True, Integer(0), rule="n = 1"),
            _conn(And(Ge(n, 2), Le(n, n0)), True, Integer(1), rule=rule + "; the union is complete"),
            _conn(Ge(n, n0 + 1), True, Integer(2), rule=rule + "; a non-adjacent pair exists")]


# ---------------------------------------------------------------------------------------------
# Groups

_ALL = frozenset({"C_n", "D_n", "reflection"})


def _grp(cond, order, name, rule, contains=frozenset(), fixed=None):
    if name == "S_n":
        contains = _ALL
    elif name == "D_n":
        contains = contains | {"C_n", "D_n", "reflection"}
    elif name in ("C_n", "reflection"):
        contains = contains | {name}
    return GroupCase(cond, order, name, fixed, frozenset(contains), rule)


def _sym(cond, n, rule):
    return _grp(cond, _fact(n), "S_n", rule)


def _triv(cond, rule):
    return _grp(cond, Integer(1), "trivial", rule)


def closed_group(heads: Sequence[Pattern], n: Value, params: Optional[Mapping[str, Value]] = None,
                 biases: Optional[Sequence[Optional[str]]] = None,
                 positional: str = "none") -> Optional[ClosedForm]:
    """G = ∩_h Aut(Γ_h, bias_h) ∩ Stab(PE) as cases in n; None when undecided."""
    n = _n(n)
    params = dict(params or {})
    if biases is None:
        biases = [None] * len(heads)
    if len(biases) != len(heads) or not heads:
        raise ValueError("one bias entry per head (and at least one head) is needed")
    if positional not in ("none", "absolute"):
        raise ValueError(f"unknown positional encoding {positional!r}")
    try:
        distinct = [(_merge(_atoms(p, params)), b)
                    for p, b in dict.fromkeys(zip(heads, biases))]  # identical heads: same group
    except _Undecided:
        return None
    if len(distinct) > 1 and all(b is None and len(a) == 1 and a[0].kind == "cwindow"
                                 for a, b in distinct):
        # ∩ Aut(C_n^{w_k}) = Aut(C_n^{min w}): for n ≤ 2 min w + 1 all are S_n; at n = 2 min w + 2
        # the others are complete; for n ≥ 2 min w + 3 it is D_n, contained in every other one
        radius = sympy.Min(*[a[0].args[0] for a, _ in distinct])
        distinct = [([_Atom("cwindow", (radius,))], None)]
    per_head = [_head_group(a, b, n) for a, b in distinct]
    if any(h is None for h in per_head):
        return None
    if positional == "absolute" or "free" in biases:
        per_head.append([_sym(Eq(n, 1), n, "n = 1"),
                         _triv(Ge(n, 2), "absolute PE or free bias: trivial")])
    cases = per_head[0]
    for other in per_head[1:]:
        cases = _intersect(cases, other)
    cases = _prune(cases)
    return ClosedForm(tuple(cases)) if cases else None


def _head_group(atoms: list[_Atom], bias: Optional[str], n) -> Optional[list[GroupCase]]:
    if bias == "free":
        return [_sym(Eq(n, 1), n, "n = 1"), _triv(Ge(n, 2), "free bias: trivial")]
    kinds = {a.kind for a in atoms}
    if "full" in kinds:
        return _full_bias(bias, n)
    if not atoms:  # no arcs: every permutation (self-loops have bias class 0)
        return [_sym(sympy.true, n, "no arcs")]
    if kinds == {"causal"} or (bias is not None and "causal" in kinds):
        # causal alone: a transitive tournament; any bias only shrinks the group further
        if kinds == {"causal"}:
            return [_sym(Eq(n, 1), n, "n = 1"), _triv(Ge(n, 2), "causal: transitive tournament")]
        return None
    if bias is not None:
        if len(atoms) == 1 and atoms[0].kind in ("window", "cwindow"):
            return _window_bias(atoms[0], bias, n)
        return None
    if len(atoms) == 1:
        return _single_group(atoms[0], n)
    by = {a.kind: a for a in atoms}
    if kinds == {"window", "global"}:
        w, g = by["window"].args[0], by["global"].args[0]
        return [_sym(Le(n, g + w + 1), n, "window(w) + global(g): complete"),
                replace(_grp(And(Ge(n, g + w + 2), Ge(n, g + 2 * w + 2)), 2 * _fact(g), None,
                             "window + global: Sym(globals) × <reflection of the others>"),
                        structure=(f"S_{sympy.sstr(g)} on {_span(1, g)} × the reflection of "
                                   f"{_span(g + 1, n)}" if g != 1 else f"the reflection of {_span(2, n)}")),
                _grp(And(Ge(n, g + w + 2), Le(n, g + 2 * w + 1)),
                     2 * _fact(2 * g + 2 * w + 2 - n), None,
                     "window + global: Sym(universal) × <reflection of the others>")]
    return None


def _full_bias(bias, n):
    if bias is None:
        return [_sym(sympy.true, n, "full: S_n")]
    if bias == "circulant":
        return [_sym(Le(n, 2), n, "circulant bias, n ≤ 2"),
                _grp(Ge(n, 3), n, "C_n", "circulant bias: rotations")]
    if bias == "symmetric circulant":
        return [_sym(Le(n, 3), n, "symmetric circulant bias, n ≤ 3"),
                _grp(Ge(n, 4), 2 * n, "D_n", "symmetric circulant bias: dihedral")]
    if bias == "toeplitz":
        return [_sym(Eq(n, 1), n, "n = 1"), _triv(Ge(n, 2), "toeplitz bias: trivial")]
    if bias == "symmetric toeplitz":
        return [_sym(Le(n, 2), n, "symmetric toeplitz bias, n ≤ 2"),
                _grp(Ge(n, 3), Integer(2), "reflection", "symmetric toeplitz bias: reflection")]
    raise ValueError(f"unknown bias kind {bias!r}")


def _window_bias(a: _Atom, bias: str, n):
    w = a.args[0]
    if bias == "toeplitz":
        return [_sym(Eq(n, 1), n, "n = 1"),
                _triv(Ge(n, 2), "toeplitz bias on a window: the class +1 arcs form a directed path")]
    if bias == "symmetric toeplitz":
        return [_sym(Le(n, 2), n, "n ≤ 2"),
                _grp(Ge(n, 3), Integer(2), "reflection",
                     "symmetric toeplitz bias on a window: the class-1 arcs form a path")]
    if a.kind == "cwindow":
        if bias == "circulant":
            return [_sym(Le(n, 2), n, "n ≤ 2"),
                    _grp(Ge(n, 3), n, "C_n", "circulant bias: the class-1 arcs form a directed cycle")]
        if bias == "symmetric circulant":
            return [_sym(Le(n, 3), n, "n ≤ 3"),
                    _grp(Ge(n, 4), 2 * n, "D_n", "symmetric circulant bias: the class-1 arcs form a cycle")]
    else:
        complete = Le(n, w + 1)
        if bias == "circulant":
            return [_sym(And(Le(n, 2), complete), n, "n ≤ 2"),
                    _grp(And(Ge(n, 3), complete), n, "C_n", "complete window + circulant bias"),
                    _triv(Ge(n, w + 2), "circulant bias on a window: the class-1 arcs form a directed path")]
        if bias == "symmetric circulant":
            return [_sym(And(Le(n, 3), complete), n, "n ≤ 3"),
                    _grp(And(Ge(n, 4), complete), 2 * n, "D_n", "complete window + symmetric circulant bias"),
                    _grp(Ge(n, w + 2), Integer(2), "reflection",
                         "symmetric circulant bias on a window: the class-1 arcs form a path")]
    raise ValueError(f"unknown bias kind {bias!r}")


def _single_group(a: _Atom, n) -> Optional[list[GroupCase]]:
    if a.kind == "window":
        w = a.args[0]
        return [_sym(Le(n, w + 1), n, "window(w), n ≤ w + 1: complete"),
                _grp(And(Ge(n, w + 2), Le(n, 2 * w)), 2 * _fact(2 * w + 2 - n), None,
                     "window(w): Sym(universal vertices) × <reflection>", {"reflection"}),
                _grp(And(Ge(n, w + 2), Ge(n, 2 * w + 1)), Integer(2), "reflection",
                     "window(w): proper interval graph, unique ordering up to reversal")]
    if a.kind == "cwindow":
        w = a.args[0]
        return [_sym(Le(n, 2 * w + 1), n, "window(w) cyclic, n ≤ 2w + 1: complete"),
                _grp(And(Eq(n, 2 * w + 2), Eq(w, 1)), Integer(8), "D_n", "n = 4, w = 1: the 4-cycle"),
                _grp(And(Eq(n, 2 * w + 2), Ge(w, 2)), 2 ** (w + 1) * _fact(w + 1), None,
                     "n = 2w + 2: complement of the antipodal matching", {"D_n", "C_n", "reflection"}),
                _grp(Ge(n, 2 * w + 3), 2 * n, "D_n", "window(w) cyclic, n ≥ 2w + 3: dihedral")]
    if a.kind == "coffsets":
        if not all(_is_int(k) for k in a.args):
            return None
        vals = sorted({int(k) for k in a.args})
        w = max(abs(v) for v in vals)
        if vals == list(range(1, w + 1)) or vals == list(range(-w, 0)):
            return [_sym(Le(n, w + 1), n, "one-sided cyclic offsets, n ≤ w + 1: complete"),
                    _grp(Ge(n, w + 2), n, "C_n", "one-sided cyclic offsets {1..w}: rotations")]
        return None
    if a.kind == "global":
        g = a.args[0]
        cases = [_sym(Le(n, g + 1), n, "global(g), n ≤ g + 1: complete")]
        if _is_int(g):
            if int(g) == 1:
                cases.append(_grp(Ge(n, 3), _fact(n - 1), "stabilizer 1",
                                  "star: Sym(others) fixing the centre", fixed=Integer(1)))
            else:
                cases.append(_grp(Ge(n, g + 2), _fact(g) * _fact(n - g), None,
                                  "global(g): Sym(globals) × Sym(others)"))
        else:
            cases.append(_grp(And(Eq(g, 1), Ge(n, 3)), _fact(n - 1), "stabilizer 1",
                              "star: Sym(others) fixing the centre", fixed=Integer(1)))
            cases.append(_grp(And(Ge(g, 2), Ge(n, g + 2)), _fact(g) * _fact(n - g), None,
                              "global(g): Sym(globals) × Sym(others)"))
        return cases
    if a.kind == "blocks":
        b = a.args[0]
        q = floor(n / b)
        rho = n - b * q
        return [_sym(Or(Le(n, b), Eq(b, 1)), n, "blocks(b), n ≤ b: one block (b = 1: no arcs)"),
                _grp(And(Eq(n, b + 1), Ge(b, 2)), _fact(b), "stabilizer",
                     "blocks(b), n = b + 1", fixed=b + 1),
                _grp(And(Ge(n, b + 2), Ge(b, 2)), _fact(b) ** q * _fact(q) * _fact(rho),
                     None, "blocks(b): disjoint cliques, Sym(b) wr Sym(q) × Sym(ρ)")]
    if a.kind == "strided":
        s = a.args[0]
        q = floor(n / s)
        rho = n - s * q
        order = (_fact(q + 1) ** rho * _fact(rho) * _fact(q) ** (s - rho)
                 * _fact(s - rho))
        small = And(Eq(s, 2), Or(Eq(n, 3), Eq(n, 4)))
        return [_sym(Or(Le(n, s), Eq(s, 1)), n, "strided(s), n ≤ s: no arcs (s = 1: full)"),
                _grp(And(Eq(s, 2), Eq(n, 3)), Integer(2), "reflection", "strided(2), n = 3"),
                _grp(And(Eq(s, 2), Eq(n, 4)), Integer(8), "D_n", "strided(2), n = 4: complement of C_4"),
                _grp(And(Ge(n, s + 1), Ge(s, 2), sympy.Not(small)), order, None,
                     "strided(s): disjoint cliques on residue classes")]
    if a.kind == "causal":
        return [_sym(Eq(n, 1), n, "n = 1"), _triv(Ge(n, 2), "causal: transitive tournament")]
    return None


def _meet(x: GroupCase, y: GroupCase) -> Optional[tuple]:
    """(order, name, fixed, contains) of x ∩ y when exactly known, else None."""
    if x.name == "S_n":
        return (y.order, y.name, y.fixed_point, y.contains)
    if y.name == "S_n":
        return (x.order, x.name, x.fixed_point, x.contains)
    if x.name == "trivial" or y.name == "trivial":
        return (Integer(1), "trivial", None, frozenset())
    std = {"C_n", "D_n", "reflection"}
    if x.name in std and x.name in y.contains:
        return (x.order, x.name, None, x.contains)
    if y.name in std and y.name in x.contains:
        return (y.order, y.name, None, y.contains)
    pair = {x.name, y.name}
    if pair == {"C_n", "reflection"}:
        return (Integer(1), "trivial", None, frozenset())
    return None


def _intersect(xs: list[GroupCase], ys: list[GroupCase]) -> list[GroupCase]:
    out = []
    for x in xs:
        for y in ys:
            cond = And(x.condition, y.condition)
            if cond is sympy.false:
                continue
            m = _meet(x, y)
            if m is None:
                continue  # undecided where both conditions hold
            order, name, fixed, contains = m
            out.append(GroupCase(cond, order, name, fixed, contains, f"{x.rule} ∩ {y.rule}"))
    return out


def closed_forms(heads: Sequence[Pattern], n: Value, params: Optional[Mapping[str, Value]] = None,
                 biases: Optional[Sequence[Optional[str]]] = None, positional: str = "none"):
    """(closed_connectivity(...), closed_group(...)): either may be None (undecided)."""
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
    (a a+1) changes only the neighbourhoods of g + 1, a, a + 1 and a + w + 1 (the others see both or
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
