"""Closed forms for symbolic n: the exact symmetry group of structured patterns (the shared atoms
and results are in closed_forms.py).

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
* offsets {1, s} cyclic (or {-1, -s}), s ≥ 3: n ≥ s²: the arcs of size 1 are exactly those with no
  walk of length s between their ends (an arc of size s has one), so Aut preserves the directed
  n-cycle: C_n (docs/theory.md §11.11, Theorem F8; at n = s² - 1, x ↦ sx is one more automorphism).
* offsets {±1, ±s} cyclic, s ≥ 3: n ≥ s² + s + 1: an edge of size 1 has s - 1 more walks of length s
  between its ends than an edge of size s, so Aut keeps the n-cycle: D_n (§11.11, Theorem F12 (b)).
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

from dataclasses import replace
from typing import Mapping, Optional, Sequence

import sympy
from sympy import (And, Eq, Ge, Integer, Le, Or, floor)

from ..bignum import power, product
from ..conditions import simplify_condition
from ..groups import bucket_kind, ROTATION_AND_REFLECTION_GROUPS, NamedGroup
from ..spec import Pattern
from .closed_forms import (ClosedForm, GroupCase, Value, _Atom, _atoms, _fact, _is_int, _merge, _n, _prune, _span,
                           _Undecided)


# ---------------------------------------------------------------------------------------------
# Groups

_ALL = ROTATION_AND_REFLECTION_GROUPS


def _grp(cond, order, name, rule, contains=frozenset(), fixed=None):
    if name == NamedGroup.SYMMETRIC:
        contains = _ALL
    elif name == NamedGroup.DIHEDRAL:
        contains = contains | _ALL
    elif name in (NamedGroup.CYCLIC, NamedGroup.REFLECTION):
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
    pairs = list(dict.fromkeys(zip(heads, biases)))  # identical heads: same group
    try:
        distinct = [(_merge(_atoms(p, params)), b) for p, b in pairs]
    except _Undecided:
        return None
    several = (len(pairs) > 1 and positional == "none" and all(b is None for _, b in pairs)
               and isinstance(n, sympy.Symbol))
    found = _by_heads(distinct, biases, positional, n)
    if several:
        # Theorems F35–F39 (certified, re-checked by the verifier) where they decide; the exact facts above
        # for the other n
        mine = _several_heads([p for p, _ in pairs], n, params)
        if mine is not None:
            return ClosedForm(tuple(mine.cases) + _below(found, mine, n))
        if found is None:  # nothing else decides: periodic symmetries exchanging residue classes (Theorem F186)
            from .residue_exchanging_unions import group_cases as exchange_cases
            cases = exchange_cases([p for p, _ in pairs], n, params)
            if cases:
                return ClosedForm(tuple(cases))
            from .split_line_unions import group_cases as split_cases  # a line split into classes (Theorem F187)
            cases = split_cases([p for p, _ in pairs], n, params)
            if cases:
                return ClosedForm(tuple(cases))
            from .grid_hub_heads import group_cases as grid_cases  # blocks and classes beside hubs (Theorem F171)
            cases = grid_cases([p for p, _ in pairs], n, params)
            if cases:
                return ClosedForm(tuple(cases))
    elif (len(pairs) > 1 and positional == "none" and all(b is None for _, b in pairs) and n.is_Integer
          and not _holds_at(found, n)):
        # a concrete length the heads' own closed forms leave open: the class of Theorems F35–F39 holding at
        # this n (Theorem F125 (a), graphs/heads_at_length.py), decided without the arcs at n
        from .cyclic_parity_hubs import group_at as parity_at  # Theorem F221: n's class mod 2 from its bound on
        from .heads_at_length import group_at
        at = parity_at([p for p, _ in pairs], int(n), params) or group_at([p for p, _ in pairs], int(n), params)
        if at is not None:
            return ClosedForm((at,))
    return found


def _holds_at(found: Optional[ClosedForm], n) -> bool:
    """Some case of `found` holds at the concrete length n."""
    return found is not None and any(case.condition is sympy.true for case in found.cases)


def _below(found: Optional[ClosedForm], mine: ClosedForm, n) -> tuple:
    """The cases of `found` at the lengths Theorems F35–F39 leave out (finitely many: every class holds from
    its bound on), each as a union of runs of n."""
    if found is None:
        return ()
    decision = mine.cases[0].intersection
    if decision[0] == "cyclic window heads":  # Theorem F153: one case, from the union's bound on
        top = decision[2]
    elif decision[0] == "cyclic parity hubs":  # Theorem F221: two classes, each from its bound on
        top = max(low for _, low, _ in decision[1].classes)
    else:
        owner = decision[1] if decision[0] == "partition heads" else decision[0]  # Theorem F72 or F35–F39
        top = max(c.low for c in owner.classes)

    def holds(cond, k):
        return cond.xreplace({n: Integer(k)}) is sympy.true

    out = []
    for case in found.cases:
        if case.condition.free_symbols - {n}:
            continue
        ks = [k for k in range(1, top) if holds(case.condition, k) and not any(holds(m.condition, k) for m in mine.cases)]
        runs: list[list[int]] = []
        for k in ks:
            if runs and runs[-1][1] == k - 1:
                runs[-1][1] = k
            else:
                runs.append([k, k])
        if runs:
            cond = Or(*[Eq(n, a) if a == b else And(Ge(n, a), Le(n, b)) for a, b in runs])
            out.append(replace(case, condition=cond))
    return tuple(out)


def _by_heads(distinct, biases, positional, n) -> Optional[ClosedForm]:
    """The intersection of the heads' own closed forms by the exact facts of the module docstring."""
    if len(distinct) > 1 and all(b is None and len(a) == 1 and a[0].kind == "cwindow"
                                 for a, b in distinct):
        # ∩ Aut(C_n^{w_k}) = Aut(C_n^{min w}): for n ≤ 2 min w + 1 all are S_n; at n = 2 min w + 2
        # the others are complete; for n ≥ 2 min w + 3 it is D_n, contained in every other one
        radius = sympy.Min(*[a[0].args[0] for a, _ in distinct])
        distinct = [([_Atom("cwindow", (radius,))], None)]
    per_head: list[list[GroupCase]] = []
    for a, b in distinct:
        head = _head_group(a, b, n)
        if head is None:
            return None
        per_head.append(head)
    if positional == "absolute" or "free" in biases:
        per_head.append([_sym(Eq(n, 1), n, "n = 1"),
                         _triv(Ge(n, 2), "absolute PE or free bias: trivial")])
    cases = per_head[0]
    for other in per_head[1:]:
        cases = _intersect(cases, other)
    cases = _prune(cases)
    return ClosedForm(tuple(cases)) if cases else None


def _several_heads(patterns: list[Pattern], n, params) -> Optional[ClosedForm]:
    """Distinct unbiased heads at symbolic n: the exact intersection of graphs/head_intersection.py
    (Theorems F35–F39), from the heads' own closed forms; None when it does not decide."""
    from .head_intersection import intersect_heads  # its anchors found once, for both passes
    cases = intersect_heads(patterns, n, params)
    if not cases:
        from .partition_heads import group_cases  # two partition heads (Theorem F72)
        cases = group_cases(patterns, n, params)
    if not cases:
        from .cyclic_window_heads import group_cases as cyclic_cases  # heads whose union is a cyclic window (F153)
        cases = cyclic_cases(patterns, n, params)
    if not cases:  # offsets {2, 4} cyclic beside global(g): the parity classes (Theorem F221)
        from .cyclic_parity_hubs import group_cases as parity_cases
        cases = parity_cases(patterns, n, params)
    if not cases:  # F35–F39 again, representative lengths beyond MAX_REPRESENTATIVE_N
        cases = intersect_heads(patterns, n, params, wide=True)
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
    if a.kind in ("window", "cwindow") and bucket_kind(bias) is not None:
        # T5's buckets keep every offset's sign, so a labelled automorphism of a non-cyclic window is increasing on
        # every arc, the identity (docs/theory.md §16.5, Theorem F135); on a cyclic window the counts of keys below a
        # position name the seam positions, and the identity is again the only one (Theorem F152)
        return [_sym(Eq(n, 1), n, "n = 1"),
                _triv(Ge(n, 2), "T5 buckets on a window: each bucket keeps its offset's sign, so only the identity "
                      "keeps the labelled arcs")]
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
                _grp(And(Eq(n, 2 * w + 2), Ge(w, 2)), product(power(2, w + 1), _fact(w + 1)), None,
                     "n = 2w + 2: complement of the antipodal matching", {"D_n", "C_n", "reflection"}),
                _grp(Ge(n, 2 * w + 3), 2 * n, "D_n", "window(w) cyclic, n ≥ 2w + 3: dihedral")]
    if a.kind == "coffsets":
        if not all(_is_int(k) for k in a.args):
            return _named_jumps_group(a, n)
        vals = sorted({int(k) for k in a.args})
        w = max(abs(v) for v in vals)
        if vals == list(range(1, w + 1)) or vals == list(range(-w, 0)):
            return [_sym(Le(n, w + 1), n, "one-sided cyclic offsets, n ≤ w + 1: complete"),
                    _grp(Ge(n, w + 2), n, "C_n", "one-sided cyclic offsets {1..w}: rotations")]
        if len(vals) == 2 and (vals[0] == 1 or vals[1] == -1) and w >= 3:
            return [_grp(Ge(n, w * w), n, "C_n", "cyclic offsets {1, s}, n ≥ s²: walk counts keep the n-cycle")]
        if len(vals) == 4 and vals == [-w, -1, 1, w] and w >= 3:
            return [_grp(Ge(n, w * w + w + 1), 2 * n, "D_n",
                         "cyclic offsets {±1, ±s}, n ≥ s² + s + 1: walk counts keep the n-cycle")]
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
                _grp(And(Ge(n, b + 2), Ge(b, 2)), product(power(_fact(b), q), _fact(q), _fact(rho)),
                     None, "blocks(b): disjoint cliques, Sym(b) wr Sym(q) × Sym(ρ)")]
    if a.kind == "strided":
        s = a.args[0]
        q = floor(n / s)
        rho = n - s * q
        order = product(power(_fact(q + 1), rho), _fact(rho), power(_fact(q), s - rho), _fact(s - rho))
        small = And(Eq(s, 2), Or(Eq(n, 3), Eq(n, 4)))
        return [_sym(Or(Le(n, s), Eq(s, 1)), n, "strided(s), n ≤ s: no arcs (s = 1: full)"),
                _grp(And(Eq(s, 2), Eq(n, 3)), Integer(2), "reflection", "strided(2), n = 3"),
                _grp(And(Eq(s, 2), Eq(n, 4)), Integer(8), "D_n", "strided(2), n = 4: complement of C_4"),
                _grp(And(Ge(n, s + 1), Ge(s, 2), sympy.Not(small)), order, None,
                     "strided(s): disjoint cliques on residue classes")]
    if a.kind == "causal":
        return [_sym(Eq(n, 1), n, "n = 1"), _triv(Ge(n, 2), "causal: transitive tournament")]
    return None


def _named_jumps_group(a: _Atom, n) -> Optional[list[GroupCase]]:
    """Cyclic offsets with a named jump s (docs/theory.md §11.11, F49 and F51): {1, s} or {−1, −s} has G = C_n for
    s ≥ 2 and n ≥ s² (F8's walk counts; F6 at s = 2), {−s, −1, 1, s} has G = D_n for s ≥ 3 and n ≥ s² + s + 1
    (F12 (b)). The conditions name the parameter's range; values outside it have no case (undecided)."""
    ks = set(a.args)
    names = {x for k in ks for x in k.free_symbols}
    if len(names) != 1:
        return None
    s = names.pop()
    if ks in ({Integer(1), s}, {Integer(-1), -s}):
        return [_grp(And(Ge(s, 2), Ge(n, s ** 2)), n, "C_n", "cyclic offsets {1, s}, s named, n ≥ s²: rotations "
                     "(F49: the walk counts of F8)")]
    if ks == {Integer(1), Integer(-1), s, -s}:
        return [_grp(And(Ge(s, 3), Ge(n, s ** 2 + s + 1)), 2 * n, "D_n", "cyclic offsets {±1, ±s}, s named, "
                     "n ≥ s² + s + 1: walk counts keep the n-cycle (F51, F12 (b))")]
    return None


def _meet(x: GroupCase, y: GroupCase) -> Optional[tuple]:
    """(order, name, fixed, contains) of x ∩ y when exactly known, else None."""
    if x.name == NamedGroup.SYMMETRIC:
        return (y.order, y.name, y.fixed_point, y.contains)
    if y.name == NamedGroup.SYMMETRIC:
        return (x.order, x.name, x.fixed_point, x.contains)
    if NamedGroup.TRIVIAL in (x.name, y.name):
        return (Integer(1), "trivial", None, frozenset())
    if x.name in _ALL and x.name in y.contains:
        return (x.order, x.name, None, x.contains)
    if y.name in _ALL and y.name in x.contains:
        return (y.order, y.name, None, y.contains)
    if {x.name, y.name} == {NamedGroup.CYCLIC, NamedGroup.REFLECTION}:
        return (Integer(1), "trivial", None, frozenset())
    return None


def _intersect(xs: list[GroupCase], ys: list[GroupCase]) -> list[GroupCase]:
    out = []
    for x in xs:
        for y in ys:
            cond = simplify_condition(And(x.condition, y.condition))
            if cond is sympy.false:
                continue
            m = _meet(x, y)
            if m is None:
                continue  # undecided where both conditions hold
            order, name, fixed, contains = m
            out.append(GroupCase(cond, order, name, fixed, contains, f"{x.rule} ∩ {y.rule}"))
    return out


