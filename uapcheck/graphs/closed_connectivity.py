"""Closed forms for symbolic n: strong connectivity and directed diameter of structured patterns
(the shared atoms and results are in closed_forms.py).

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
  dZ_n, witness (1, 2).  At an integer n with gcd 1 the diameter is the eccentricity of one
  position (the rotations are automorphisms), found by a BFS over Z_n with numpy arrays (n·|K|
  work, no arc list).  K' = {1..w} (or {-1..-w}): one hop advances by 1..w, so the diameter is
  ceil((n - 1)/w).  K' = {1, s} (or {-1, -s}), s ≥ 3: for n ≥ max(s + 1, s² - 3s + 2) the diameter
  is q + max(r, s - 2) with n - 1 = qs + r (docs/theory.md §11.11, Theorem F8; wrap-around cannot
  help there); below, strongly connected (1 ∈ K') with no closed form here.
* dilated(w, r), r ≥ 2: arcs join positions congruent mod r, witness (1, 2); r = 1 is window(w).
* strided(s), s ≥ 2: arcs join positions congruent mod s, witness (1, 2); s = 1 is full. Several strided and
  dilated parts whose strides and steps share a factor g ≥ 2: every arc keeps p mod g, witness (1, 2) (Theorem F89
  (a)).
* blocks(b): n ≤ b is complete; n > b: positions 1 and b + 1 lie in different blocks, no arc leaves
  a block, witness (1, b + 1). With non-cyclic offsets of one sign beside it (one b, no other kind), an offset arc
  never carries information to a later block (all positive: witness (b + 1, 1)) or an earlier one (all negative:
  witness (1, b + 1)). Several blocks parts, L = lcm(b_i) (with strided or dilated parts whose steps are multiples
  of L sharing a factor M ≥ 2 beside them): every arc keeps ⌈p/L⌉ (mod M), so for n > L x_1 never reaches L + 1
  (Theorem F182).
* any global(g ≥ 1) (star = global(1)): j -> 1 -> i for all i, j, so strongly connected with
  diameter ≤ 2; it is 1 exactly when the union is complete.  With the other parts P the union is
  complete iff n ≤ N0:  none, causal, strided(s ≥ 2), dilated(r ≥ 2): N0 = g + 1 (the pair g + 1,
  g + 2 is a non-arc); window(w): N0 = g + w + 1; window(w) cyclic: N0 = max(g + w + 1, 2w + 1)
  (a non-global pair at circular distance w + 1 exists iff n ≥ g + w + 2 and n ≥ 2w + 2); blocks(b):
  N0 = b·ceil((g + 1)/b) (all non-globals in one block); offsets K (integers, not cyclic):
  N0 = g + d* with d* the least d ≥ 1 with d ∉ K or -d ∉ K.  Several parts with integer sizes, or cyclic
  offsets: Theorem F87 (graphs/global_unions.py).
* a union containing window(w ≥ 1) (or offsets ⊇ {±1}) is strongly connected, with the window's
  diameter as an upper bound ``diameter_bound``; its exact diameter is not derived.
"""
from __future__ import annotations

import math
from dataclasses import replace
from functools import reduce
from typing import Mapping, Optional, Sequence

import sympy
from sympy import (And, Eq, Ge, Integer, Le, Max, Mod, Ne, Or, ceiling, floor)

from ..spec import Pattern
from .array_sets import distinct
from .closed_forms import (ClosedForm, ConnectivityCase, Value, _Atom, _atoms, _is_int, _max, _merge, _n, _prune,
                           _sign, _Undecided)


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
        cases = None
    if len(set(heads)) > 1 and isinstance(n, sympy.Symbol):
        union = _union_family(heads, n, params)  # several heads: connectivity is the union's (its theorem first)
        if union is not None:
            below = [replace(c, condition=And(c.condition, sympy.Not(union.condition))) for c in cases or ()]
            return ClosedForm((union,) + tuple(_prune(below)))
        if cases is not None and any(c.strongly_connected and c.diameter is None for c in cases):
            cases = _normal_form_cases(heads, n, params) or cases
    if len(set(heads)) > 1 and n.is_Integer and not _exact_at(cases):
        # a concrete length the atoms' own cases leave without an exact diameter: the union's family theorem
        # read at n (Theorem F125 (c)), without the arcs at n
        at = _union_family_at(heads, int(n), params)
        if at is not None:
            return ClosedForm((at,))
    return None if cases is None else ClosedForm(tuple(_prune(cases)))


def _normal_form_cases(heads: Sequence[Pattern], n, params) -> Optional[list[ConnectivityCase]]:
    """Several heads whose parts' atoms bound D only: the cases of the union of their arcs in normal form (§11.13: the
    arcs are equal at every n, e.g. `blocks(7)` | `window(6)` is `window(6)`, blocks of 7 within distance 6), when
    those state D exactly wherever the union is strongly connected; else None."""
    from .normal_form import heads_union
    try:
        cases = _connectivity(_merge(_atoms(heads_union(heads), dict(params or {}))), n)
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    if cases is None or any(c.strongly_connected and c.diameter is None for c in cases):
        return None
    return [replace(c, rule=f"the union of the heads' arcs in normal form (docs/theory.md §11.13): {c.rule}")
            for c in cases]


def _exact_at(cases) -> bool:
    """Some case holds at this concrete n and states the connectivity exactly (a diameter, or not connected)."""
    return any(c.condition is sympy.true and (not c.strongly_connected or c.diameter is not None)
               for c in cases or ())


def _union_family_at(heads: Sequence[Pattern], n: int, params) -> Optional[ConnectivityCase]:
    """Several heads at a concrete n ≥ the bound of their union's family theorem: that theorem's diameter at n."""
    big = sympy.Symbol("n", integer=True, positive=True)
    union = _union_family(heads, big, params)
    if union is None or union.diameter is None or union.condition.xreplace({big: Integer(n)}) is not sympy.true:
        return None
    diameter = union.diameter.xreplace({big: Integer(n)})
    if not diameter.is_Integer:
        return None
    return _conn(sympy.true, True, diameter, rule=f"{union.rule}, at n = {n:,} (Theorem F125 (c))")


def _union_family(heads: Sequence[Pattern], n, params) -> Optional[ConnectivityCase]:
    """Several heads at symbolic n: the union of their arcs is one pattern, in the normal form of all the heads'
    parts side by side (§11.13); its family theorem (graphs/families.py, docs/theory.md §11.11) gives the
    connectivity and diameter for n ≥ its bound."""
    from .families import FamilyTheorem, match
    from .normal_form import heads_union
    try:
        found = match([heads_union(heads)], n, params)
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    if not isinstance(found, FamilyTheorem) or found.coprime_to > 1 or found.low.free_symbols:
        return None
    rule = f"the union of the heads' arcs is one pattern of {found.section} ({found.family})"
    # F50, F51, and F101 where Theorem F168's base check lies beyond its budget: the theorem bounds D only (it was
    # stated as D itself); F101 with F168's D is exact
    if not found.diameter_exact:
        return _conn(Ge(n, found.low), True, bound=found.diameter, rule=rule)
    return _conn(Ge(n, found.low), True, found.diameter, rule=rule)


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
    if kinds == {"blocks", "strided"} and len(atoms) == 2:
        split = _blocks_stride_split(by["blocks"].args[0], by["strided"].args[0], n)
        if split is not None:
            return split
    one_way = _blocks_one_way(atoms, n) or _several_blocks_split(atoms, n)
    if one_way is not None:
        return one_way
    modulus = _common_modulus(atoms)
    if modulus is not None:
        return [_conn(one, True, Integer(0), rule="n = 1"),
                _conn(many, False, witness=(Integer(1), Integer(2)),
                      rule=f"strided and dilated parts whose steps are all multiples of {modulus}: every arc keeps "
                           f"p mod {modulus} (docs/theory.md §11.11, Theorem F89 (a))")]
    if kinds == {"causal", "window"}:
        w = by["window"].args[0]
        return [_conn(sympy.true, True, ceiling((n - 1) / w),
                      rule="causal + window(w): forward in one hop, back by at most w per hop")]
    pair = cyclic_window_stride_pair(atoms)
    if pair is not None:  # Theorem F197: a cyclic window beside a stride it covers, D ≤ 2 at every n
        w, s = pair
        rule = f"window({w}) cyclic"
        return _complete_cases(n, 2 * w + 1, rule) + [
            _conn(Ge(n, 2 * w + 2), True, None, bound=Integer(2),
                  rule=f"contains window({w}) cyclic and strided({s}) with {s} ≤ 2·{w} + 1: every cyclic window of a "
                       "position meets every residue class, or two window steps join the ends, so D ≤ 2 "
                       "(docs/theory.md §11.11, Theorem F197)")]
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


def cyclic_window_stride_pair(atoms: list[_Atom]) -> Optional[tuple[int, int]]:
    """Theorem F197 (docs/theory.md §11.11): the integer (w, s) of a `window(w) cyclic` and a `strided(s)` among the
    union's atoms with 2 ≤ s ≤ 2w + 1 (the largest w, then the least such s), or None. Every other part only adds arcs,
    which never lengthen a walk, so D ≤ 2 holds for the whole union at every n."""
    radii = [int(a.args[0]) for a in atoms if a.kind == "cwindow" and _is_int(a.args[0]) and int(a.args[0]) >= 1]
    strides = [int(a.args[0]) for a in atoms if a.kind == "strided" and _is_int(a.args[0]) and int(a.args[0]) >= 2]
    if not radii or not strides:
        return None
    w = max(radii)
    fits = [s for s in strides if s <= 2 * w + 1]
    return (w, min(fits)) if fits else None


def _blocks_one_way(atoms: list[_Atom], n) -> Optional[list[ConnectivityCase]]:
    """blocks(b) with non-cyclic offsets of one sign (integers b ≥ 1, no other kind): a block arc keeps the block
    ⌈p/b⌉, and with every offset positive (i attends to i + k) an offset arc carries information from a position to an
    earlier one, so the block of a position x_j reaches never grows: x_1 never reaches b + 1; with every offset negative,
    likewise x_(b + 1) never reaches 1. Complete for n ≤ b (one block). With several blocks parts the same holds for
    the stretches ⌈p/L⌉, L the lcm of the sizes (Theorem F182 (b)), and for max b < n ≤ L the blocks alone join p
    and p + 1 (Theorem F182 (a))."""
    if {a.kind for a in atoms} != {"blocks", "offsets"}:
        return None
    blocks = [a for a in atoms if a.kind == "blocks"]
    if not all(_is_int(a.args[0]) and int(a.args[0]) >= 1 for a in blocks):
        return None
    sizes = [int(a.args[0]) for a in blocks]
    b = Integer(math.lcm(*sizes))
    widest = Integer(max(sizes))
    offsets = [k for a in atoms if a.kind == "offsets" for k in a.args]
    if not all(k.is_positive or k.is_negative for k in offsets):
        return None  # a named offset of unknown sign: the other rules decide
    signs = {_sign(k) for k in offsets}
    if len(blocks) == 1:
        name, later = "blocks(b)", "block"
    else:
        name, later = f"{len(blocks)} blocks parts (L = lcm = {b})", "stretch of L (Theorem F182 (b))"
    if signs == {1}:
        witness, rule = (b + 1, Integer(1)), f"{name} + offsets all positive: information never moves to a later {later}"
    elif signs == {-1}:
        witness, rule = (Integer(1), b + 1), f"{name} + offsets all negative: information never moves to an earlier {later}"
    else:
        return None
    cases = _complete_cases(n, widest, "blocks(b), n ≤ b" if len(blocks) == 1 else f"{name}, n ≤ {widest}")
    if b > widest:
        cases.append(_conn(And(Ge(n, widest + 1), Le(n, b)), True, None, bound=n - 1,
                           rule=f"{name}, n ≤ L: p and p + 1 share a block (Theorem F182 (a))"))
    return cases + [_conn(Ge(n, b + 1), False, witness=witness, rule=rule)]


def _several_blocks_split(atoms: list[_Atom], n) -> Optional[list[ConnectivityCase]]:
    """`blocks` parts (integer sizes b_i ≥ 2, L = lcm(b_i); one part: L = b) with strided and dilated parts whose steps
    are multiples of L sharing a factor M = gcd(step / L) ≥ 2 (none: M = ∞), no other kind (docs/theory.md §11.11,
    Theorem F182): each b_i divides L, so a block of any part lies inside one stretch {kL + 1, …, kL + L} and a block
    arc keeps ⌈p/L⌉; a step arc moves ⌈p/L⌉ by a multiple of M. So every arc keeps ⌈p/L⌉ (mod M), which differs at 1
    and L + 1: for n ≥ L + 1, x_1 never reaches position L + 1. For n ≤ L the blocks alone link p to p + 1 unless
    every b_i divides p, i.e. L | p: strongly connected (D ≤ n − 1), complete for n ≤ max b_i."""
    blocks = [a for a in atoms if a.kind == "blocks"]
    if not blocks or not all(_is_int(a.args[0]) and int(a.args[0]) >= 2 for a in blocks):
        return None
    period = math.lcm(*(int(a.args[0]) for a in blocks))
    steps = []
    for a in atoms:
        if a.kind == "blocks":
            continue
        step = a.args[0] if a.kind == "strided" else (a.args[1] if a.kind == "dilated" else None)
        if step is None or not _is_int(step) or int(step) % period:
            return None
        steps.append(int(step) // period)
    common = math.gcd(*steps)  # M (0 when there are no steps: M = ∞)
    if steps and common < 2:
        return None
    widest = max(int(a.args[0]) for a in blocks)
    parts = f"{len(blocks)} blocks parts, L = lcm = {period}" if len(blocks) > 1 else f"blocks({period}), L = {period}"
    rule = (parts + (f", steps multiples of {period}·{common}" if steps else "")
            + ": every arc keeps ⌈p/L⌉" + (f" (mod {common})" if steps else "")
            + " (docs/theory.md §11.11, Theorem F182)")
    cases = _complete_cases(n, widest, rule)
    if period > widest:
        cases.append(_conn(And(Ge(n, widest + 1), Le(n, period)), True, None, bound=n - 1,
                           rule=rule + "; n ≤ L: p and p + 1 share a block"))
    return cases + [_conn(Ge(n, period + 1), False, witness=(Integer(period + 1), Integer(1)), rule=rule)]


def _common_modulus(atoms: list[_Atom]) -> Optional[int]:
    """g ≥ 2 dividing the stride of every `strided` part and the step r of every `dilated(w, r)` part (integers, no
    other kind): every arc keeps p mod g. None otherwise."""
    steps = []
    for a in atoms:
        if a.kind == "strided" and _is_int(a.args[0]):
            steps.append(int(a.args[0]))
        elif a.kind == "dilated" and _is_int(a.args[1]):
            steps.append(int(a.args[1]))
        else:
            return None
    g = math.gcd(*steps) if steps else 0
    return g if g >= 2 else None


def _blocks_stride_split(b, s, n) -> Optional[list[ConnectivityCase]]:
    """blocks(b) + strided(kb), integers b ≥ 2, k ≥ 2: every arc keeps ⌈p/b⌉ mod k (one block: the same ⌈p/b⌉; a
    multiple of kb apart: ⌈p/b⌉ changes by a multiple of k), which differs at 1 and b + 1, so for n ≥ b + 1 the
    pattern is not strongly connected (docs/theory.md §11.11, after Theorem F34); complete for n ≤ b."""
    if not (_is_int(b) and _is_int(s)) or int(b) < 2 or int(s) % int(b) or int(s) < 2 * int(b):
        return None
    return _complete_cases(n, b, "blocks(b) + strided(kb), n ≤ b") + [
        _conn(Ge(n, b + 1), False, witness=(Integer(1), b + 1),
              rule=f"blocks(b) + strided(kb), k = {int(s) // int(b)}: every arc keeps ⌈p/b⌉ mod k")]


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
    # {1, …, w} or {−w, …, −1}, told by the count and the ends of the distinct sorted values (never a list of w entries:
    # `offsets {1, 999999999} cyclic` built one of 10⁹)
    if len(vals) == w and (vals[0], vals[-1]) in ((1, w), (-w, -1)):
        return [_conn(sympy.true, True, ceiling((n - 1) / w),
                      rule="one-sided cyclic offsets {1..w}: ceil((n-1)/w)")]
    if len(vals) == 2 and (vals[0] == 1 or vals[1] == -1) and w >= 3:
        from .families import two_jump_diameter
        low = max(w + 1, w * w - 3 * w + 2)
        return [_conn(Eq(n, 1), True, Integer(0), rule="n = 1"),
                _conn(And(Ge(n, 2), Le(n, low - 1)), True, None,
                      rule="cyclic offsets {1, s}: 1 is a jump, strongly connected"),
                _conn(Ge(n, low), True, two_jump_diameter(n, w),
                      rule="cyclic offsets {1, s}: q + max(r, s - 2) with n - 1 = qs + r (Theorem F8)")]
    d = reduce(math.gcd, (abs(v) for v in vals))
    if _is_int(n) and int(n) >= 2 and math.gcd(d, int(n)) == 1:
        return [_conn(sympy.true, True, Integer(circulant_eccentricity(int(n), vals)),
                      rule="cyclic offsets at this n: a circulant is vertex-transitive (the rotations), so "
                           "the diameter is the eccentricity of one position, a BFS over Z_n")]
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


def circulant_eccentricity(n: int, jumps: Sequence[int]) -> int:
    """max over t of the least number of jumps (each in ``jumps``, mod n) summing to t: the directed
    diameter of the circulant (every rotation is an automorphism, so every position has this
    eccentricity). Exact integer BFS over Z_n with numpy arrays; the circulant must be strongly
    connected (gcd of the jumps and n is 1)."""
    import numpy as np
    seen = np.zeros(n, dtype=bool)
    seen[0] = True
    frontier = np.zeros(1, dtype=np.int64)
    steps = np.array(sorted({j % n for j in jumps} - {0}), dtype=np.int64)
    level = 0
    while True:
        reach = distinct((frontier[:, None] + steps[None, :]).ravel() % n)
        new = reach[~seen[reach]]
        if new.size == 0:
            break
        seen[new] = True
        frontier = new
        level += 1
    if not seen.all():
        raise ValueError("the circulant is not strongly connected")
    return level


def _global_union(g, others: list, n) -> Optional[list[ConnectivityCase]]:
    """Theorem F87 (graphs/global_unions.py): globals with other parts of integer sizes, D = 2 from a length checked
    down from an explicit non-adjacent pair."""
    from .global_unions import decide
    if not _is_int(g) or not all(all(_is_int(x) for x in a.args) for a in others):
        return None
    found = decide(int(g), [(a.kind, tuple(int(x) for x in a.args)) for a in others])
    if found is None:
        return None
    rule = (f"global tokens: j -> 1 -> i; g + 1 does not attend to g + 1 + {found.step} in any other part from "
            f"n = {found.far} on, and every length from {found.low} up to there has a non-adjacent pair (Theorem F87)")
    cases = [_conn(Eq(n, 1), True, Integer(0), rule="n = 1")]
    if found.low - 1 >= 2:
        if found.monotone:
            cases.append(_conn(And(Ge(n, 2), Le(n, found.low - 1)), True, Integer(1),
                               rule="global tokens: the union is complete (Theorem F87: no cyclic part, so the union at "
                                    "n is the union at n + 1 restricted to 1..n)"))
        else:
            cases.append(_conn(And(Ge(n, 2), Le(n, found.low - 1)), True, None, bound=Integer(2),
                               rule="global tokens: j -> 1 -> i (Theorem F87)"))
    cases.append(replace(_conn(Ge(n, found.low), True, Integer(2), rule=rule), hub=found))
    return cases


def _global_connectivity(atoms, n):
    g = _max([a.args[0] for a in atoms if a.kind == "global"])
    others = [a for a in atoms if a.kind != "global"]
    rule = "global tokens: j -> 1 -> i"
    if len(others) > 1:
        return _global_union(g, others, n)
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
            return _global_union(g, others, n)  # cyclic offsets (Theorem F87)
    else:
        return None
    return [_conn(Eq(n, 1), True, Integer(0), rule="n = 1"),
            _conn(And(Ge(n, 2), Le(n, n0)), True, Integer(1), rule=rule + "; the union is complete"),
            _conn(Ge(n, n0 + 1), True, Integer(2), rule=rule + "; a non-adjacent pair exists")]


