"""Several heads with different patterns at symbolic n: G = ∩_h Aut(Γ_h), exactly, with its range of n
(docs/theory.md §11.11, Theorems F35–F39; open question O8).

The heads have independent parameters, so G is the automorphism group of the arc-coloured union (an
arc's colour is the set of heads that have it). One head, the *anchor*, has a group H that is known in
closed form for every n ≥ its bound and is small and explicit: trivial, the reflection ρ: i ↦ n + 1 − i,
Sym({1..u}) × ⟨the reflection of {u+1..n}⟩ (u ≤ PREFIX_MAX), C_n or D_n. The anchor's group comes from
its GroupCase data (graphs/closed_groups.py) or from its family theorem (graphs/families.py), never
from a list of pattern names. Then G = {h ∈ H : h keeps every other head's arcs}, decided as follows.

* F35 (types). Integer parameters; K the largest size of any part (window radius, offset, w'·r of a
  dilation, block size, number of globals), L the lcm of the block sizes and strides. For an arc (i, j) its
  type is (i's distance to either end when at most K', j's, i − j when |i − j| ≤ K' (else its sign),
  (i − 1) mod L, (j − 1) mod L). Every part's arcs are a union of types for n > 2K', and for
  n ≥ N₀ = 3K' + 2L + 1 the set of types that occur depends only on n mod L. A *boundary map* (one
  that moves positions within K' − K of the ends by a bounded amount and acts on the middle by i ↦ i + k
  or i ↦ c − i with c ≡ n + t, |k|, |t| ≤ T) maps types to types by a rule that depends only on n mod L;
  so "φ keeps the arcs of head B" has the same answer at every n ≥ N₀ in a residue class mod L.
* F36 (small anchors). H ⊆ a finite set of boundary maps (trivial, ρ, the prefix products): each element
  is kept or not, by F35 once per residue class, so G is stated for every n ≥ N₀ in the class; the
  lengths below N₀ are decided one by one (the same test at that n) down to where the class's answer
  first changes or the anchor's own range ends.
* F37 (rotations). H = C_n or D_n: when the rotation i ↦ i + 1 (mod n) keeps every other head, G ⊇ C_n,
  and G = D_n iff ρ keeps them too (H = D_n), else C_n.
* F38 (a seam). When some other head B has, for some step 1 ≤ d < n/2, every arc x → x + d with
  x ≤ n − d but not every wrapped one (x > n − d), no rotation other than the identity keeps B
  (a proper non-empty set of wrapped starts is never a union of cosets of a non-trivial subgroup of Z_n);
  likewise for the mirrored seam (every arc x → x − d with x > d, not every wrapped one), a seam of ρ(B).
  A reflection σ_c: i ↦ c − i (mod n) of the cycle that keeps B maps B's missing step-d arcs onto its
  missing step −d arcs, so c ≡ x₀ + y for the least missing start x₀ and a missing step −d start y: at most d
  candidates, each tested; at most one passes (two would give a rotation).
* F39 (the assembly) states G per residue class with its range, names it by structure, and gives the
  verifier (uapcheck/verifier/head_intersection.py) the anchor, the class results and the ranges.
* F206 (a containing anchor) a head of Theorem F26, F201 or F205 (without F205's twins' class) has its group inside
  D_n, D_n or the reflection by class of n: D_n is its anchor with the head's own arcs tested too (``contains``).
  The anchors are tried best first; the next is taken when one's representative lengths exceed the limit.

Anything else (no anchor, a class whose answer needs a map beyond the bounds, symbolic parameters, a
group with no name here) is undecided: open question O8.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from math import gcd, factorial
from typing import Mapping, Optional, Sequence

import sympy
from sympy import And, Eq, Ge, Integer, Mod, Or

from ..memo import exact_cache
from ..spec import Pattern
from .closed_forms import GroupCase, _Atom, _atoms, _is_int, _merge, _span, _Undecided

#: Anchors Sym({1..u}) × ⟨reflection of {u+1..n}⟩ are enumerated element by element up to this u.
PREFIX_MAX = 4
#: No closed form is attempted when the representative lengths would exceed this (arcs ~ n² per head).
MAX_REPRESENTATIVE_N = 400
#: The wider pass (`intersect(..., wide=True)`, taken only where no cheaper route decides): the lengths tested may go
#: up to this, provided the work, the top length times the other heads' arcs there, stays within WIDE_WORK (about
#: 2 s of CPU; e.g. `blocks(6) + window(3)` | `window(3) cyclic + strided(5)`, N₀ + 2L = 405, ~16 million).
WIDE_N = 2000
WIDE_WORK = 25_000_000
SECTION = "docs/theory.md §11.11, Theorems F35–F39"

ANCHOR_RANK = {"trivial": 0, "reflection": 1, "prefix": 2, "cyclic": 3, "dihedral": 4}


@dataclass(frozen=True)
class Anchor:
    """Head ``head``'s group is known for every n ≥ ``low``: ``kind`` (prefix: Sym({1..u}) × ⟨the
    reflection of {u+1..n}⟩ with u = ``prefix``); ``source`` says where that closed form comes from."""
    head: int
    kind: str
    low: int
    prefix: int = 0
    source: str = ""
    contains: bool = False  # Theorem F206: the head's group only lies in ``kind`` (its own arcs are tested too)


@dataclass(frozen=True)
class ClassResult:
    """G on one residue class n ≡ ``residue`` (mod ``modulus``), for every such n ≥ ``low``: ``kind``
    "finite" with ``elements`` (boundary maps, see `perm`), or "rotations" with the one element
    ("rotations", m, t): the rotations by the multiples of m, and the reflections i ↦ t + km − i when t is
    not None (m = 1: C_n, or D_n)."""
    modulus: int
    residue: int
    low: int
    kind: str
    elements: frozenset = frozenset()


@dataclass(frozen=True)
class Intersection:
    """The whole answer: the anchor, the sizes (K, L, N₀ of Theorem F35) and one result per class."""
    anchor: Anchor
    reach: int
    modulus: int
    start: int
    classes: tuple


# ---------------------------------------------------------------------------------------------
# Boundary maps (the elements of the small anchors), as permutations at a concrete n

def perm(element: tuple, n: int) -> tuple:
    """The images of 1..n under a boundary map: ("id",); ("rot", k): i ↦ i + k (mod n);
    ("refl", t): i ↦ t − i (mod n) (t = 1 is ρ: i ↦ n + 1 − i; t = 2 fixes 1 and reverses 2..n);
    ("prefix", π, e): π on 1..u (u = len(π)), and on u+1..n the identity (e = 0) or the reversal (e = 1)."""
    kind = element[0]
    if kind == "id":
        return tuple(range(1, n + 1))
    if kind == "rot":
        k = element[1]
        return tuple((i - 1 + k) % n + 1 for i in range(1, n + 1))
    if kind == "refl":
        t = element[1]
        return tuple((t - i - 1) % n + 1 for i in range(1, n + 1))
    if kind == "prefix":
        pi, e = element[1], element[2]
        u = len(pi)
        return tuple(pi) + tuple((n + u + 1 - i) if e else i for i in range(u + 1, n + 1))
    raise ValueError(f"unknown boundary map {element!r}")


def keeps(p: Sequence[int], codes: Optional[frozenset], n: int) -> bool:
    """p maps the arc set onto itself (codes: (j−1)·n + (i−1) per arc j → i; None: every pair)."""
    if codes is None:
        return True
    return all((p[c // n] - 1) * n + p[c % n] - 1 in codes for c in codes)


def _identity_prefix(u: int) -> tuple:
    return tuple(range(1, u + 1))


def anchor_elements(anchor: Anchor) -> list:
    if anchor.kind == "trivial":
        return [("id",)]
    if anchor.kind == "reflection":
        return [("id",), ("refl", 1)]
    if anchor.kind == "prefix":
        return [("prefix", tuple(pi), e) for pi in permutations(range(1, anchor.prefix + 1)) for e in (0, 1)]
    raise ValueError(anchor.kind)


def _normal(element: tuple, n: int) -> tuple:
    """One name per map: the identity prefix map is ("id",); a reflection's t in (−n/2, n/2]."""
    if element[0] == "prefix" and element[2] == 0 and tuple(element[1]) == _identity_prefix(len(element[1])):
        return ("id",)
    if element[0] == "refl":
        c = element[1] % n
        return ("refl", c if c <= n // 2 else c - n)
    return element


# ---------------------------------------------------------------------------------------------
# The decision at one length n (exact at that n)

def _seam(codes: Optional[frozenset], n: int, reach: int):
    """(d, missing wrapped starts) for the least step d ≤ reach, d < n/2, where the head has every
    unwrapped arc x → x + d and not every wrapped one; None when there is none (Theorem F38)."""
    if codes is None:
        return None
    for d in range(1, min(reach, (n - 1) // 2) + 1):
        if all((x - 1) * n + (x + d - 1) in codes for x in range(1, n - d + 1)):
            missing = [x for x in range(n - d + 1, n + 1) if (x - 1) * n + (x + d - n - 1) not in codes]
            if missing:
                return d, missing
    return None


def _boundary(x: int, n: int, reach: int) -> bool:
    return x <= reach or x > n - reach


def _marked(codes: Optional[frozenset], n: int, reach: int):
    """An Aut-invariant set X of the head's positions (universal; out- or in-universal; isolated; no
    out- or no in-arcs) that is non-empty, not everything, and lies within ``reach`` of the ends; None."""
    if codes is None or 4 * reach > n:
        return None  # the 2K positions around n | 1 must be at most n/2 (Theorem F38)
    outs = [0] * (n + 1)
    ins = [0] * (n + 1)
    for c in codes:
        outs[c // n + 1] += 1
        ins[c % n + 1] += 1
    tests = (lambda v: outs[v] == n - 1 and ins[v] == n - 1, lambda v: outs[v] == n - 1,
             lambda v: ins[v] == n - 1, lambda v: outs[v] == 0 and ins[v] == 0, lambda v: outs[v] == 0,
             lambda v: ins[v] == 0)
    for test in tests:
        xs = [v for v in range(1, n + 1) if test(v)]
        if xs and len(xs) < n and all(_boundary(x, n, reach) for x in xs):
            return xs
    return None


def _seam_candidates(codes: frozenset, n: int, reach: int) -> Optional[list]:
    """Theorem F38's seam of step d: the c (mod n) of the only reflections σ_c that can keep the head; None."""
    found = _seam(codes, n, reach)
    if found is None:
        return None
    d, missing = found
    back = [y for y in range(1, n + 1) if (y - 1) * n + (y - d - 1) % n not in codes]
    if len(back) != len(missing):
        return []
    return [(missing[0] + y) % n for y in back]


def _candidates(codes: frozenset, n: int, reach: int) -> Optional[list]:
    """Theorem F38: when this head pins the rotations to the identity (a seam of step d, the mirrored seam, or a
    marked set near the ends), the c (mod n) of the only reflections σ_c: i ↦ c − i that can keep it; else None.
    The mirrored seam (every arc x → x − d with x > d, not every wrapped one) is a seam of the head's image under ρ:
    i ↦ n + 1 − i, which conjugates every rotation to a rotation and σ_c to σ_{2 − c}."""
    found = _seam_candidates(codes, n, reach)
    if found is not None:
        return found
    mirrored = frozenset((n - 1 - c // n) * n + (n - 1 - c % n) for c in codes)
    found = _seam_candidates(mirrored, n, reach)
    if found is not None:
        return [(2 - c) % n for c in found]
    xs = _marked(codes, n, reach)
    if xs is not None:
        first = max(xs) if min(xs) == 1 and max(xs) > n // 2 else min(xs)  # any element serves
        return [(first + y) % n for y in xs]
    return None


def decide_at(n: int, anchor: Anchor, others: Sequence[Optional[frozenset]], reach: int,
              modulus: int = 1) -> Optional[tuple]:
    """G = H ∩ ⋂ Aut(others) at this n, with H the anchor's group (valid for n ≥ anchor.low):
    ("finite", frozenset of normalised boundary maps), or ("rotations", m, t): the rotations by the multiples
    of m (m | n), with the reflections σ_{t + km} when t is not None; None when not decided here."""
    if anchor.kind in ("trivial", "reflection", "prefix"):
        kept = frozenset(_normal(e, n) for e in anchor_elements(anchor)
                         if all(keeps(perm(e, n), c, n) for c in others))
        return ("finite", kept)
    reflections = anchor.kind == "dihedral"
    for m in range(1, min(modulus, n - 1) + 1):
        if n % m == 0 and all(keeps(perm(("rot", m), n), c, n) for c in others):
            t = None
            if reflections:
                for c in range(m):
                    if all(keeps(perm(("refl", c + (1 if m == 1 else 0)), n), o, n) for o in others):
                        t = c + (1 if m == 1 else 0)
                        break
            return ("rotations", m, t)
    for codes in others:
        cands = _candidates(codes, n, reach) if codes is not None else None
        if cands is None:
            continue
        if not reflections:
            return ("finite", frozenset({("id",)}))
        passing = {_normal(("refl", c), n) for c in cands
                   if all(keeps(perm(("refl", c), n), o, n) for o in others)}
        if len(passing) > 1:
            return None  # cannot happen (their product would be a rotation); refuse rather than guess
        return ("finite", frozenset({("id",)}) | frozenset(passing))
    return None


# ---------------------------------------------------------------------------------------------
# Sizes of Theorem F35

def reach_and_modulus(heads_atoms: Sequence[Sequence[_Atom]]) -> Optional[tuple[int, int]]:
    """(K, L): the largest part size and the lcm of block sizes and strides; None for parts without
    integer sizes or outside the vocabulary of Theorem F35."""
    reach, modulus = 1, 1
    for atoms in heads_atoms:
        for a in atoms:
            if not all(_is_int(x) for x in a.args):
                return None
            args = [int(x) for x in a.args]
            if a.kind in ("full", "empty", "causal"):
                continue
            if a.kind in ("window", "cwindow", "global"):
                reach = max(reach, args[0])
            elif a.kind in ("offsets", "coffsets"):
                reach = max(reach, max(abs(k) for k in args))
            elif a.kind == "dilated":
                reach = max(reach, args[0] * args[1])
            elif a.kind == "blocks":
                reach = max(reach, args[0])
                modulus = modulus * args[0] // gcd(modulus, args[0])
            elif a.kind == "strided":
                reach = max(reach, args[0])  # a seam of step s (Theorem F38)
                modulus = modulus * args[0] // gcd(modulus, args[0])
            else:
                return None
    return reach, modulus


def shift_bound(reach: int, modulus: int) -> int:
    """T: the boundary maps tested move positions by at most this (reflections |t| ≤ 2K + 2 + L, rotations
    by at most L, prefixes ≤ K)."""
    return 2 * reach + 2 + modulus


def start_length(reach: int, modulus: int) -> int:
    """N₀ = max(4K' + 2L + 1, 2K' + (K + 2)L + 1) with K' = K + T + 2 (Theorem F35: from N₀ on, every type of
    position away from the ends occurs more than K times)."""
    wide = reach + shift_bound(reach, modulus) + 2
    return max(4 * wide + 2 * modulus + 1, 2 * wide + (reach + 2) * modulus + 1)


# ---------------------------------------------------------------------------------------------
# Anchors from the heads' own closed forms

def _low_of(condition, n: sympy.Symbol) -> Optional[int]:
    """The least N with the condition true for every n ≥ N, when it involves only n and integers."""
    if condition is sympy.true:
        return 1
    if condition.free_symbols - {n}:
        return None
    if condition.atoms(Mod):
        return None
    # past every sign change: the constants' sizes (a negative one too: `-n >= -4` is n ≤ 4, false from 5 on) and,
    # for a relation polynomial in n, Cauchy's bound 1 + max |a_i / a_lead| on its roots (`n/3 >= 5` changes at 15)
    consts = [abs(int(x)) for x in condition.atoms(sympy.Integer)]
    for rel in condition.atoms(sympy.core.relational.Relational):
        diff = rel.lhs - rel.rhs
        if diff.is_polynomial(n):
            coeffs = sympy.Poly(diff, n).all_coeffs()
            if len(coeffs) > 1 and all(c.is_Rational for c in coeffs):
                consts.append(int(sympy.ceiling(1 + max(abs(c / coeffs[0]) for c in coeffs[1:]))))
    top = max(consts + [1]) + 2
    if top > LOW_SCAN_MAX:
        return _low_of_linear(condition, n)
    truth = []
    for v in range(1, top + 1):
        val = condition.xreplace({n: Integer(v)})
        if val not in (sympy.true, sympy.false):
            return None
        truth.append(val is sympy.true)
    if not truth[-1]:
        return None
    low = top
    while low > 1 and truth[low - 2]:
        low -= 1
    return low


#: `_low_of` tries n = 1, 2, … up to the largest constant + 2 while that is at most this; beyond it, only the lengths
#: next to the relations' roots (`_low_of_linear`), never one length per unit of a constant (window(10⁹))
LOW_SCAN_MAX = 10_000


def _low_of_linear(condition, n: sympy.Symbol) -> Optional[int]:
    """`_low_of` for a condition whose relations are linear in n: each relation's truth at an integer n changes only
    next to its root r, so the truth at every n ≥ 1 is that at the largest sample ≤ n, the samples being 1 and
    ⌊r⌋ − 1, …, ⌈r⌉ + 1 for each root, each with its successor (the integers up to the next sample lie on the same side
    of every root). None when a relation is not linear in n."""
    points = {1}
    for rel in condition.atoms(sympy.core.relational.Relational):
        poly = sympy.Poly(rel.lhs - rel.rhs, n) if (rel.lhs - rel.rhs).is_polynomial(n) else None
        if poly is None or poly.degree() != 1 or not all(c.is_Rational for c in poly.all_coeffs()):
            return None
        a, b = poly.all_coeffs()
        root = -b / a
        points.update(range(int(sympy.floor(root)) - 1, int(sympy.ceiling(root)) + 2))
    samples = sorted({p for p in points if p >= 1} | {p + 1 for p in points if p >= 1})
    truth = []
    for v in samples:
        val = condition.xreplace({n: Integer(v)})
        if val not in (sympy.true, sympy.false):
            return None
        truth.append(val is sympy.true)
    if not truth[-1]:
        return None
    k = len(samples) - 1
    while k > 0 and truth[k - 1]:
        k -= 1
    return samples[k]


def _prefix_text(u: int, n) -> str:
    if u == 1:
        return f"the reflection of {_span(2, n)}"
    return f"S_{u} on {_span(1, u)} × the reflection of {_span(u + 1, n)}"


def _kind_of(name: Optional[str], structure: Optional[str], n) -> Optional[tuple[str, int]]:
    """(kind, u) of a group named by a closed form (the anchor vocabulary), else None."""
    text = name or structure
    if text in ("trivial",):
        return ("trivial", 0)
    if text in ("reflection", "the reflection"):
        return ("reflection", 0)
    if text == "C_n":
        return ("cyclic", 0)
    if text == "D_n":
        return ("dihedral", 0)
    for u in range(1, PREFIX_MAX + 1):
        if structure == _prefix_text(u, n) or (name is None and text == _prefix_text(u, n)):
            return ("prefix", u)
    return None


def anchor_from_cases(head: int, cases: Sequence[GroupCase], n: sympy.Symbol) -> Optional[Anchor]:
    best = None
    for case in cases:
        kind = _kind_of(case.name, case.structure, n)
        if kind is None:
            continue
        low = _low_of(case.condition, n)
        if low is None:
            continue
        found = Anchor(head, kind[0], low, kind[1], case.rule)
        if best is None or (ANCHOR_RANK[found.kind], found.low) < (ANCHOR_RANK[best.kind], best.low):
            best = found
    return best


def anchor_from_family(head: int, pattern: Pattern, n: sympy.Symbol, params: Mapping) -> Optional[Anchor]:
    """The head's family theorem (graphs/families.py), when it names a group of the anchor vocabulary
    for every n ≥ its bound (not one that also asks gcd(n, g) = 1: G is not stated at the other n)."""
    from .families import FamilyTheorem, match
    try:
        found = match([pattern], n, params)
    except (_Undecided, ValueError, TypeError, KeyError):
        return None
    if not isinstance(found, FamilyTheorem) or found.group is None or found.coprime_to > 1 or found.group_open:
        return None
    if not _is_int(found.low):
        return None
    kind = _kind_of(found.group, found.group, n)
    if kind is None:
        return _dihedral_container(head, found)
    return Anchor(head, kind[0], int(found.low), kind[1], found.section)


#: the family theorems whose group is D_n on some classes of n and the reflection i ↦ n + 1 − i on the others (both
#: subgroups of D_n at every n of the range): Theorem F206 takes D_n as their anchor, with the head's own arcs tested
DIHEDRAL_BY_CLASS = ("F26", "F201", "F205")


def _dihedral_container(head: int, found) -> Optional[Anchor]:
    """Theorem F206: a head whose family group is D_n or the reflection by class of n (F26, F201, and F205 without its
    twins' class) has its group inside D_n at every n of the range; D_n is the anchor and the head's own arcs are
    tested like the others', so the elements kept are exactly G."""
    if found.theorem not in DIHEDRAL_BY_CLASS or "S_2" in found.group:
        return None
    low = int(found.low)
    if found.theorem == "F205":  # the group's range (F226 may start the layer count later)
        from .symbolic_unions import cyclic_dense_stride_low
        params = dict(found.params)
        low = cyclic_dense_stride_low(int(params["w"]), int(params["s"]))
    return Anchor(head, "dihedral", low, 0, f"{found.section}, inside D_n (Theorem F206)", contains=True)


# ---------------------------------------------------------------------------------------------
# The symbolic answer

def _graph_codes(pattern: Pattern, n: int, params: Mapping[str, int]) -> Optional[frozenset]:
    from .build import build_graph
    g = build_graph(pattern, n, params)
    return None if g.complete else frozenset(g.codes)


def _others(patterns: Sequence[Pattern], anchor: Anchor, n: int, params) -> list:
    """The heads whose arcs the anchor's elements are tested on: all but the anchor (all, when the anchor is
    the union of the heads, head −1)."""
    return [_graph_codes(p, n, params) for k, p in enumerate(patterns) if k != anchor.head or anchor.contains]


def _within_bounds(result: tuple, reach: int, modulus: int) -> bool:
    """F35 covers the class's answer: every reflection found moves the middle by at most T."""
    if result[0] != "finite":
        return True
    return all(e[0] != "refl" or abs(e[1]) <= shift_bound(reach, modulus) for e in result[1])


def _too_costly(patterns: tuple, anchor: Anchor, params: Mapping, top: int, wide: bool) -> bool:
    """The cost limit (never a part of the decision: the same classes are found at any limit that admits them)."""
    if top <= MAX_REPRESENTATIVE_N:
        return False
    if not wide or top > WIDE_N:
        return True
    return _work_at(patterns, anchor, params, top) > WIDE_WORK


def _work_at(patterns: tuple, anchor: Anchor, params: Mapping, top: int) -> int:
    """The wide pass's work at the top length: the length times the other heads' arcs there."""
    return top * sum(len(c) for c in _others(patterns, anchor, top, params) if c is not None)


def _widest_fit(patterns: tuple, anchor: Anchor, params: Mapping) -> int:
    """The largest top length the wide pass admits for these heads and this anchor: at most WIDE_N, with the length
    times the other heads' arcs there at most WIDE_WORK (the work grows with the length, so by bisection)."""
    lo, hi = MAX_REPRESENTATIVE_N, WIDE_N
    if _work_at(patterns, anchor, params, lo) > WIDE_WORK:
        return lo
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _work_at(patterns, anchor, params, mid) <= WIDE_WORK else (lo, mid - 1)
    return lo


def cost_refusal(patterns: Sequence[Pattern], n: sympy.Symbol, params: Optional[Mapping] = None) -> Optional[str]:
    """Why Theorems F35–F39 stated nothing, when the only reason is their cost limit: every anchor's representative
    lengths pass what the wide pass admits (a resource limit, named with the lengths that would fit); None when some
    anchor's lengths fit (it then failed on the mathematics, or decided) or there is no anchor."""
    params = dict(params or {})
    patterns = tuple(dict.fromkeys(patterns))
    if not isinstance(n, sympy.Symbol) or len(patterns) < 2:
        return None
    try:
        sizes = reach_and_modulus([_merge(_atoms(p, params)) for p in patterns])
        # the anchors the decision tried (`heads_anchors` keeps them), not found again
        found = heads_anchors(patterns, n, params) if sizes is not None else ()
    except (_Undecided, KeyError, TypeError, ValueError):
        return None  # no message rather than an error: the step stays undecided as it was
    if sizes is None:
        return None
    reach, modulus = sizes
    best = None
    for anchor in found:
        top = max(start_length(reach, modulus), anchor.low) + 2 * modulus
        if not _too_costly(patterns, anchor, params, top, True):
            return None
        if best is None or top < best[1]:
            best = (anchor, top)
    if best is None:
        return None
    anchor, top = best
    fit = _widest_fit(patterns, anchor, params)
    where = "the union of the heads" if anchor.head < 0 else f"head {anchor.head + 1}"
    return (f"Theorems F35–F39 (anchor: {where}, {anchor.kind}) need the representative lengths up to N₀ + 2L = "
            f"{top:,} (K = {reach}, L = {modulus}), but their wide pass admits lengths up to {fit:,} for "
            f"these heads (at most WIDE_N = {WIDE_N:,}, with a length times the other heads' arcs there at most "
            f"WIDE_WORK = {WIDE_WORK:,}): a resource limit, not an open question")


@lru_cache(maxsize=256)
def _intersection(patterns: tuple, params_items: tuple, anchor: Anchor, n_name: str,
                  wide: bool = False) -> Optional[Intersection]:
    params = dict(params_items)
    try:
        heads_atoms = [_merge(_atoms(p, params)) for p in patterns]
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    sizes = reach_and_modulus(heads_atoms)
    if sizes is None:
        return None
    reach, modulus = sizes
    start = max(start_length(reach, modulus), anchor.low)
    if _too_costly(patterns, anchor, params, start + 2 * modulus, wide):
        return None
    classes = []
    for residue in range(modulus):
        rep = start + (residue - start) % modulus
        result = decide_at(rep, anchor, _others(patterns, anchor, rep, params), reach, modulus)
        again = decide_at(rep + modulus, anchor, _others(patterns, anchor, rep + modulus, params), reach, modulus)
        if result is None or result != again or not _within_bounds(result, reach, modulus):
            # not decided on this class: it stays open (no group is stated there); the others are still decided
            classes.append(ClassResult(modulus, residue, rep, "open"))
            continue
        low = rep
        while low - modulus >= max(anchor.low, 1):
            m = low - modulus
            if decide_at(m, anchor, _others(patterns, anchor, m, params), reach, modulus) != result:
                break
            low = m
        classes.append(ClassResult(modulus, residue, low, result[0], frozenset(result[1]) if result[0] == "finite"
                                   else frozenset({("rotations", result[1], result[2])})))
    if all(c.kind == "open" for c in classes):
        return None
    return Intersection(anchor, reach, modulus, start, tuple(classes))


def anchor_forward(head: int, pattern: Pattern, params: Mapping) -> Optional[Anchor]:
    """A head made of `causal` and non-cyclic `offsets` only whose arcs all point one way and include every
    arc between neighbours (i → i + 1 for all i, or all i + 1 → i): a Hamiltonian directed path in an
    acyclic digraph fixes its only topological order, so its group is trivial for every n ≥ 2 (those
    parts' arcs are the same differences at every n, so one length decides both properties)."""
    try:
        atoms = _merge(_atoms(pattern, params))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    if not atoms or any(a.kind not in ("offsets", "causal") or not all(_is_int(x) for x in a.args) for a in atoms):
        return None
    n = 2 + max([abs(int(x)) for a in atoms for x in a.args] + [1])
    codes = _graph_codes(pattern, n, {k: int(v) for k, v in params.items() if _is_int(v)})
    if codes is None:
        return None
    steps = {c // n - c % n for c in codes}  # j − i for each arc j → i
    for sign in (1, -1):
        neighbours = ([i * n + i - 1 for i in range(1, n)] if sign > 0  # j = i + 1
                      else [(i - 2) * n + i - 1 for i in range(2, n + 1)])  # j = i − 1
        if all(d * sign > 0 for d in steps) and all(c in codes for c in neighbours):
            return Anchor(head, "trivial", 2, 0, "one-way arcs with every neighbour arc: an acyclic digraph with "
                                                 "a Hamiltonian path (Theorem F36)")
    return None


def anchor_from_line(head: int, pattern: Pattern, params: Mapping) -> Optional[Anchor]:
    """A head (or the union of the heads, head −1) that is `blocks(b)` with non-cyclic window, dilated and offsets parts
    whose Theorem F116 certificate holds with trivial end groups (|E_L| = |E_R| = 1 at every residue): its group is
    the reflection when b | n and S = −S, else trivial, so it lies in ⟨ρ⟩ for every n from the theorem's range on
    (docs/theory.md §11.11, Theorem F179: the union's group contains the heads' group)."""
    from . import periodic_lines
    from .families import line_jumps
    try:
        atoms = _merge(_atoms(pattern, params))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    blocks = [a for a in atoms if a.kind == "blocks"]
    rest = [a for a in atoms if a.kind != "blocks"]
    if len(blocks) != 1 or not rest or any(a.kind not in ("window", "dilated", "offsets") for a in rest):
        return None
    if not all(_is_int(x) for a in atoms for x in a.args) or int(blocks[0].args[0]) < 2:
        return None
    jumps = line_jumps(rest)
    if jumps is None:
        return None
    data = periodic_lines.decide(int(blocks[0].args[0]), tuple(jumps))
    if data is None or data.left_order != 1 or any(order != 1 for order in data.right_orders):
        return None
    return Anchor(head, "reflection", data.low, 0, f"{periodic_lines.SECTION}, Theorem F116 with trivial end groups "
                                                  "(Theorem F179)")


@lru_cache(maxsize=32)
def recheck(patterns: tuple, anchor: Anchor) -> Optional[Intersection]:
    """The decision again for these distinct heads and this anchor (the certificate's check), at the wider pass's
    limit (the limit never changes the classes found); once per heads and anchor, since a certificate by residue
    class holds one such check per class, all of the same decision."""
    return _intersection.__wrapped__(tuple(patterns), (), anchor, "n", True)


def element_json(element: tuple) -> list:
    return [element[0]] + [list(x) if isinstance(x, tuple) else x for x in element[1:]]


def intersection_json(found: Intersection) -> dict:
    a = found.anchor
    anchor = {"head": a.head + 1, "group": a.kind, "prefix": a.prefix, "from": a.low, "source": a.source}
    if a.contains:
        anchor["contains"] = True
    return {"anchor": anchor,
            "reach": found.reach, "modulus": found.modulus, "start": found.start,
            "classes": [{"residue": c.residue, "from": c.low, "kind": c.kind,
                         "elements": sorted((element_json(e) for e in c.elements), key=repr)}
                        for c in found.classes]}


def anchors(patterns: Sequence[Pattern], head_cases: Sequence[Optional[Sequence[GroupCase]]], n: sympy.Symbol,
            params: Mapping, union_cases: Optional[Sequence[GroupCase]] = None) -> list[Anchor]:
    """Every anchor found, best first (least rank, then least bound; F180's coloured union before a rotation anchor
    of a larger bound): a head, or (head −1) the union of all heads, whose group contains G since an automorphism of
    the coloured union keeps the union's arcs. `intersect` tries the next when one's representative lengths are
    beyond the limit."""
    from ..spec import PatternUnion
    out = []
    candidates = list(enumerate(zip(patterns, head_cases))) + [(-1, (PatternUnion(tuple(patterns)), union_cases))]
    for k, (pattern, cases) in candidates:
        found = anchor_from_cases(k, cases, n) if cases else None
        if found is None:
            found = (anchor_forward(k, pattern, params) or anchor_from_family(k, pattern, n, params)
                     or anchor_from_line(k, pattern, params))
        if found is not None:
            out.append(found)
    out.sort(key=lambda a: (ANCHOR_RANK[a.kind], a.low))
    if not out or out[0].kind in ("cyclic", "dihedral"):
        found = anchor_from_coloured_lines(patterns, params)
        if found is not None and (not out or found.low < out[0].low):
            out.insert(0, found)
    return out


def anchor_from_coloured_lines(patterns: Sequence[Pattern], params: Mapping) -> Optional[Anchor]:
    """Theorem F180 (graphs/coloured_lines.py): the arc-coloured union of heads made of blocks, non-cyclic line parts and
    hubs 1..g has its group in Sym({1..g}) × ⟨the reversal of {g + 1..n}⟩ from the certificate's range on."""
    from . import coloured_lines
    found = coloured_lines.decide(patterns, params)
    if found is None:
        return None
    kind = "prefix" if found.hubs else "reflection"
    return Anchor(-1, kind, found.low, found.hubs, coloured_lines.SECTION)


@exact_cache(maxsize=64)
def heads_anchors(patterns: tuple, n: sympy.Symbol, params: dict) -> tuple[Anchor, ...]:
    """Every anchor of the distinct heads, best first (`anchors`), from each head's own closed form and the union's:
    found once per heads, for both passes of the decision (`intersect_heads`) and for the words of its cost limit
    (`cost_refusal`). Raises what reading the heads' atoms raises (_Undecided, KeyError, TypeError, ValueError)."""
    from .closed_groups import _head_group
    atoms = [_merge(_atoms(p, params)) for p in patterns]

    def cases(a):
        try:
            return _head_group(a, None, n)
        except (_Undecided, ValueError, TypeError):
            return None
    return tuple(anchors(patterns, [cases(a) for a in atoms], n, params, cases(_merge([x for a in atoms for x in a]))))


def intersect_heads(patterns: Sequence[Pattern], n: sympy.Symbol, params: Optional[Mapping] = None,
                    wide: bool = False) -> Optional[list[GroupCase]]:
    """`intersect` from the heads' own anchors (`heads_anchors`: the heads' and the union's closed forms), found once
    for every pass; None also when the heads' atoms cannot be read."""
    params = dict(params or {})
    if not isinstance(n, sympy.Symbol) or len(patterns) < 2:
        return None
    try:
        found = heads_anchors(tuple(patterns), n, params)
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    return _decide(patterns, found, n, params, wide)


def intersect(patterns: Sequence[Pattern], head_cases: Sequence[Optional[Sequence[GroupCase]]], n: sympy.Symbol,
              params: Optional[Mapping] = None,
              union_cases: Optional[Sequence[GroupCase]] = None, wide: bool = False) -> Optional[list[GroupCase]]:
    """The group of several distinct unbiased heads at symbolic n as cases (one per residue class of n, or
    one), each with its range; None when no anchor decides it (open question O8). ``wide``: representative lengths
    up to WIDE_N within WIDE_WORK (the second pass, where no cheaper route decided)."""
    params = dict(params or {})
    if not isinstance(n, sympy.Symbol) or len(patterns) < 2:
        return None
    return _decide(patterns, anchors(patterns, head_cases, n, params, union_cases), n, params, wide)


def _decide(patterns: Sequence[Pattern], found: Sequence[Anchor], n: sympy.Symbol, params: Mapping,
            wide: bool) -> Optional[list[GroupCase]]:
    """The first anchor, best first, whose intersection decides, as cases; None when none does."""
    ints = tuple(sorted((k, int(v)) for k, v in params.items() if _is_int(v)))
    for anchor in found:
        got = _intersection(tuple(patterns), ints, anchor, n.name, wide)
        if got is not None:
            return cases_of(got, n)
    return None


# ---------------------------------------------------------------------------------------------
# Names

def _refl_text(t: int, n) -> str:
    if t == 2:
        return f"the reflection of {_span(2, n)}"
    if t == 0:
        return f"the reflection of {_span(1, n - 1)}"
    if t > 2:
        a, b = _span(1, t - 1), _span(t, n)
    else:
        a, b = _span(1, n + t - 1), _span(n + t, n)
    return f"the reflection of {a} and of {b} at once"


def _orbits(group: list, u: int) -> list:
    seen, out = set(), []
    for x in range(1, u + 1):
        if x in seen:
            continue
        orbit = {g[x - 1] for g in group}
        seen |= orbit
        out.append(sorted(orbit))
    return out


def _set_text(points: list) -> str:
    if points == list(range(points[0], points[-1] + 1)):
        return _span(points[0], points[-1])
    return "{" + ", ".join(str(p) for p in points) + "}"


def describe(result: ClassResult, n) -> Optional[tuple]:
    """(order, name, structure, contains) of a class's group; None when it has no name here or the class is
    open (not decided by Theorems F35–F38)."""
    if result.kind == "open":
        return None
    if result.kind == "rotations":
        ((_, m, t),) = result.elements
        if m == 1:
            if t is None:
                return n, "C_n", None, frozenset({"C_n"})
            return 2 * n, "D_n", None, frozenset({"C_n", "D_n", "reflection"})
        text = f"the rotations i ↦ i + {m}k (mod n)"
        if t is None:
            return n / m, None, text, frozenset()
        return 2 * n / m, None, f"{text} and the reflections i ↦ {t} + {m}k − i (mod n)", frozenset()
    elements = result.elements
    if elements == frozenset({("id",)}):
        return Integer(1), "trivial", None, frozenset()
    if all(e[0] in ("id", "refl") for e in elements) and len(elements) == 2:
        (t,) = [e[1] for e in elements if e[0] == "refl"]
        if t == 1:
            return Integer(2), "reflection", None, frozenset({"reflection"})
        return Integer(2), None, _refl_text(t, n), frozenset()
    if not all(e[0] in ("id", "prefix") for e in elements):
        return None
    u = next(len(e[1]) for e in elements if e[0] == "prefix")
    full = [e if e[0] == "prefix" else ("prefix", _identity_prefix(u), 0) for e in elements]
    fixed = [tuple(e[1]) for e in full if e[2] == 0]
    with_refl = [tuple(e[1]) for e in full if e[2] == 1]
    if with_refl and _identity_prefix(u) not in with_refl:
        return _coupled_reflection(fixed, with_refl, u, n)
    orbits = _orbits(fixed, u)
    if len(fixed) != _product(factorial(len(o)) for o in orbits):
        return None  # not a product of symmetric groups on its orbits
    factors = [f"S_{len(o)} on {_set_text(o)}" for o in orbits if len(o) > 1]
    if with_refl:
        factors.append(f"the reflection of {_span(u + 1, n)}")
    order = Integer(len(fixed) * (2 if with_refl else 1))
    if not factors:
        return Integer(1), "trivial", None, frozenset()
    return order, None, " × ".join(factors), frozenset()


def _coupled_reflection(fixed: list, with_refl: list, u: int, n) -> Optional[tuple]:
    """G = {id, τ} where τ permutes {1..u} by an involution π and reverses {u + 1..n}: named, as the concrete engine
    names it (class_action.py), "the reflection of {1, 2} and of {3, …, n} at once" when π reverses disjoint
    intervals of {1..u} (fixing only their midpoints inside them), three intervals in all at most; else None."""
    from ..class_action import MAX_REVERSED_INTERVALS
    if fixed != [_identity_prefix(u)] or len(with_refl) != 1:
        return None
    (pi,) = with_refl
    intervals: list[str] = []
    covered: set[int] = set()
    for p in range(1, u + 1):
        q = pi[p - 1]
        if q == p or p in covered:
            continue
        if q < p or any(pi[x - 1] != p + q - x for x in range(p, q + 1)):
            return None
        covered.update(range(p, q + 1))
        intervals.append(_span(p, q))
    if not intervals or len(intervals) + 1 > MAX_REVERSED_INTERVALS:
        return None
    text = "the reflection of " + ", of ".join(intervals) + f" and of {_span(u + 1, n)} at once"
    return Integer(2), None, text, frozenset()


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def class_condition(result: ClassResult, n: sympy.Symbol):
    low = Ge(n, result.low)
    return low if result.modulus == 1 else And(low, Eq(Mod(n, result.modulus), result.residue))


def cases_of(found: Intersection, n: sympy.Symbol) -> Optional[list[GroupCase]]:
    """One case per class whose group is decided and named; a class left open (or with no name here) has no case,
    so the closed form says nothing there (docs/theory.md §11.4: the verdict is then INCONCLUSIVE on that class
    only). None when no class is named."""
    named = []
    for result in found.classes:
        d = describe(result, n)
        if d is not None:
            named.append((result, d))
    if not named:
        return None
    rule = f"several heads: the anchor's group ∩ the others' arcs ({SECTION})"
    same = len(named) == len(found.classes) and len({(r.kind, r.elements) for r, _ in named}) == 1
    if same:
        result, (order, name, structure, contains) = named[0]
        lows = {r.low for r, _ in named}
        if len(lows) == 1:
            cond = Ge(n, result.low)
        else:
            cond = Or(*[class_condition(r, n) for r, _ in named])
        return [GroupCase(cond, order, name, None, contains, rule, structure, intersection=(found, None))]
    return [GroupCase(class_condition(r, n), order, name, None, contains, rule, structure,
                      intersection=(found, (r.residue, r.low)))
            for r, (order, name, structure, contains) in named]
