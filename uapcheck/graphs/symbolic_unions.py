"""Unions of structured patterns at symbolic n: Theorems F20–F22 of docs/theory.md §11.11.

* F20 (straight-ordered patterns): a symmetric head whose arc relation is *straight* in the natural
  order (u < v < x and u ~ x imply u ~ v and v ~ x) and which is connected with diameter D ≥ 2 needs
  exactly D layers (no view witness exists), its diameter is d(1, n) (the greedy walk to the right), and
  its group is ∏ Sym(twin class) (the twin classes are intervals), extended by the reversal of the
  positions when the reversal is an automorphism (Roberts 1971; Deng, Hell and Huang 1996).
* F21 ``blocks(b) + window(w)``, integers b ≥ 3, 1 ≤ w ≤ b − 2, n ≥ 3b + 1: straight-ordered, so F20 gives
  D (by residue of n mod the greedy period), G = the twin classes' symmetric groups, with the reflection
  i ↦ n + 1 − i when b | n, and D layers, least.
* F22 ``blocks(b) + window(w) + global(g)``, integers b ≥ 3, 1 ≤ w ≤ b − 2, g ≥ 1, n ≥ (⌊g/b⌋ + 3)b + 1:
  D = 2, G = S_g on the globals × (the twin classes of the other positions' graph, with its reflection
  i ↦ n + g + 1 − i when b | n + g), 3 layers, least (a swap of two adjacent non-twins of the second piece
  is a view witness at position n).

* F26 ``window(w) cyclic + strided(s)``, s ∈ {2w + 2, 2w + 3}: D = 3, G = D_n when s | n, else the reflection
  (for w ≥ 2 and n mod s ∈ {1, …, w} by Theorem F201); D = 3 layers, least, for s = 2w + 2 (Theorem F56), D + 1 = 4, least, for (w, s) = (1, 5) (Theorem
  F55), else D + 1 (not shown least), except on the class s | n, where Theorem F67 gives D = 3, least (a least
  flag by residue class at symbolic n, ``least_classes``).
* F201 (lemma Y) the group of ``window(w) cyclic + strided(s)`` for every s ≥ w + 1 and n ≥ s(3w + 2): D_n when
  s | n, else the reflection; with Theorem F197's D = 2, the family w + 1 ≤ s ≤ 2w + 1 gets a count by class: for
  s ≤ 2w, D = 2 layers, least, on n ≡ 0 (mod s) (Theorem F218, lemma AH); D + 1 = 3 on the other classes, least
  on those where Theorem F200 (lemma AA, ``cyclic_covered_least``) gives a view witness with 2 layers (every class
  for s = 2w + 1), sufficient, not shown least, on the others.
* F205 (lemma AB) the group of ``window(w) cyclic + strided(s)`` for 2 ≤ s ≤ w and n ≥ max(s(3w + 2), 20w): D_n when
  s | n, S_2 on {1, n} × the reflection of {2, …, n − 1} when s | w and n mod s = 1 (1 and n are twins), else the
  reflection; with Theorem F197's D = 2, D + 1 = 3 layers (not shown least).
* F23 ``strided(s) + global(g)``, F24 ``offsets {±1} cyclic + global(g)``, F25 ``blocks(s) + strided(s)`` (the
  rook's graph): D = 2, G by structure, and the least layer count (2 or 3, by residue for F25).

This module recognises the families, computes the values at an integer n from the closed forms of the
proofs (the pieces, the intervals N[p] = [l(p), r(p)], the greedy walk), and states them at symbolic n
by residue. Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial
from typing import Optional

import sympy
from sympy import Integer

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"


# ---------------------------------------------------------------------------------------------
# blocks(b) + window(w) [+ global(g)] at an integer n: the proofs' closed forms

def first_piece_blocks(b: int, g: int) -> int:
    """k0 = ⌊g/b⌋ + 1: the block that holds g + 1 (the first non-global position)."""
    return g // b + 1


def pieces(n: int, b: int, g: int) -> list[tuple[int, int]]:
    """The blocks minus the globals that are not empty, as (first, last) positions."""
    out = []
    for k in range(1, -(-n // b) + 1):
        lo, hi = max((k - 1) * b + 1, g + 1), min(k * b, n)
        if lo <= hi:
            out.append((lo, hi))
    return out


def neighbourhood_intervals(n: int, b: int, w: int, g: int) -> dict[int, tuple[int, int]]:
    """N[p] ∩ R = [l(p), r(p)] for p in R = {g + 1, …, n}: the block piece of p and the window, clipped
    to R (F20: the natural order of R is straight, so every closed neighbourhood is an interval)."""
    out = {}
    for lo, hi in pieces(n, b, g):
        for p in range(lo, hi + 1):
            out[p] = (max(g + 1, min(lo, p - w)), min(n, max(hi, p + w)))
    return out


def twin_classes(n: int, b: int, w: int, g: int) -> list[tuple[int, int]]:
    """The twin classes of the graph on R = {g + 1, …, n}, as intervals (first, last): maximal runs of
    consecutive positions with the same interval N[p] ∩ R (F20 (b): twin classes are intervals)."""
    iv = neighbourhood_intervals(n, b, w, g)
    out: list[tuple[int, int]] = []
    start = g + 1
    for p in range(g + 2, n + 2):
        if p > n or iv[p] != iv[p - 1]:
            out.append((start, p - 1))
            start = p
    return out


def reflection_is_symmetry(n: int, b: int, g: int) -> bool:
    """F21/F22: the reversal i ↦ n + g + 1 − i of R is an automorphism iff b | n + g (at least three
    pieces, w ≤ b − 2)."""
    return (n + g) % b == 0


def order_at(n: int, b: int, w: int, g: int) -> int:
    """|G| at an integer n in the range: g! · ∏ |C|! over the twin classes of R, times 2 with the
    reflection."""
    out = factorial(g)
    for lo, hi in twin_classes(n, b, w, g):
        out *= factorial(hi - lo + 1)
    return out * (2 if reflection_is_symmetry(n, b, g) else 1)


def greedy_reach(b: int, w: int, steps: int) -> list[int]:
    """p_0 = 1, p_{t+1} = f(p_t) with f(p) = max(b⌈p/b⌉, p + w): the farthest position within t steps of 1
    in blocks(b) + window(w) (unclipped; F20 (a))."""
    out = [1]
    for _ in range(steps):
        p = out[-1]
        out.append(max(b * (-(-p // b)), p + w))
    return out


def greedy_period(b: int, w: int) -> tuple[int, int]:
    """(T, Q): p_{t+T} = p_t + Q for every t ≥ 1 (Q a multiple of b); F21's diameter grows by T every Q
    positions. From p_1 = b (residue 0) the residues mod b return to 0 (each step from a residue
    r > 0 goes to 0 or to r + w − b < r)."""
    reach = greedy_reach(b, w, 2 * b + 2)
    for t in range(2, len(reach)):
        if reach[t] % b == 0:
            return t - 1, reach[t] - reach[1]
    raise AssertionError("the greedy walk of blocks + window has no period")  # not reached: see above


def diameter_at(n: int, b: int, w: int) -> int:
    """F21's diameter at an integer n ≥ 2: the least t with p_t ≥ n."""
    t, reach = 0, 1
    while reach < n:
        reach = max(b * (-(-reach // b)), reach + w)
        t += 1
    return t


def witness(n: int, b: int, w: int, g: int) -> tuple[int, tuple[int, int]]:
    """F22's view witness at D = 2 layers: the root n and the swap (x x+1), x = k0·b + w, two adjacent
    positions of the second piece that are not twins (k0·b sees x and not x + 1)."""
    x = first_piece_blocks(b, g) * b + w
    return n, (x, x + 1)


def blocks_window_low(b: int, w: int, g: int) -> int:
    """The start of F21's (g = 0) and F22's range: at least four pieces, n ≥ (k0 + 2)·b + 1, and for F22
    the witness's condition (x + w + 1 outside N[n]: n ≥ k0·b + 3w + 2)."""
    k0 = first_piece_blocks(b, g)
    low = (k0 + 2) * b + 1
    if g >= 1:
        low = max(low, k0 * b + 3 * w + 2)
    return low


def blocks_window_applies(b, w, g) -> bool:
    return all(isinstance(x, int) for x in (b, w, g)) and b >= 3 and 1 <= w <= b - 2 and g >= 0


# ---------------------------------------------------------------------------------------------
# The theorems at symbolic n (or an Integer n)

def _class_rule(b: int, w: int, g: int) -> str:
    return (f"the runs of consecutive positions p with one interval N[p] = [max({g + 1}, min(start of p's block, "
            f"p − {w})), min(n, max(end of p's block, p + {w}))]")


#: F21's and F22's group order is listed residue by residue of n mod b (each with the twin classes' factorials), for b
#: up to this (b = 128 takes about half a second, b = 1,000 fifteen seconds, and from b ≈ 3,000 a residue's order has
#: more digits than a sort key may print)
MAX_RESIDUE_PIECES = 128


def _residue_pieces(n, modulus: int, values: dict, build, explicit: bool = False) -> sympy.Expr:
    """A Piecewise over n mod ``modulus`` (values: residue -> data; build(data) -> expression), residues with
    equal expressions merged, the most frequent one last (True, or its residues when ``explicit``: the
    certificate of a group order states one closed form per residue)."""
    by_expr: dict = {}
    for m in range(modulus):
        by_expr.setdefault(build(values[m]), []).append(m)
    exprs = sorted(by_expr, key=lambda e: (len(by_expr[e]), sympy.default_sort_key(e)))
    if len(exprs) == 1:
        return exprs[0]
    pieces_ = [(e, sympy.Or(*[sympy.Eq(sympy.Mod(n, modulus), m) for m in by_expr[e]]))
               for e in (exprs if explicit else exprs[:-1])]
    return sympy.Piecewise(*pieces_) if explicit else sympy.Piecewise(*pieces_, (exprs[-1], True))


def blocks_window_theorem(n, b: int, w: int, g: int):
    """F21 (g = 0) or F22 (g ≥ 1) at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    low = blocks_window_low(b, w, g)
    inner = factorial(max(b - 2 * w, 1))          # M: a deep block's classes
    base = {m: low + (m - low) % b for m in range(b)}
    order = _residue_pieces(n, b, base, lambda n0: Integer(order_at(n0, b, w, g))
                            * Integer(inner) ** (sympy.floor(n / b) - n0 // b), explicit=True)
    rule = _class_rule(b, w, g)
    if g == 0:
        t, q = greedy_period(b, w)
        dbase = {m: low + (m - low) % q for m in range(q)}
        diameter = _residue_pieces(n, q, dbase, lambda n0: Integer(diameter_at(n0, b, w) - t * (n0 // q))
                                   + t * sympy.floor(n / q))
        group = (f"the symmetric groups of the twin classes ({rule}), with the reflection i ↦ n + 1 − i "
                 f"when {b} | n")
        return FamilyTheorem(
            "F21", "blocks(b) + window(w), 1 ≤ w ≤ b − 2", (("b", Integer(b)), ("w", Integer(w))), Integer(low),
            diameter, group, order, ("a transposition of two consecutive positions of one twin class",
                                     f"i ↦ n + 1 − i when {b} | n"),
            diameter, True,
            "the pattern is straight in the order 1..n (u < v < x and u ~ x give u ~ v ~ x): a view of depth D "
            "misses positions on one side only, and those form a clique, so every permutation meeting the "
            "witness condition is an automorphism: no view witness, D layers suffice (Theorem F20)")
    group = (f"{'' if g == 1 else f'S_{g} on {_span(1, g)} × '}the symmetric groups of the twin classes of the "
             f"positions {{{g + 1}, …, n}} ({rule}), with the reflection i ↦ n + {g + 1} − i of {{{g + 1}, …, n}} "
             f"when {b} | n + {g}" + ("; position 1 fixed" if g == 1 else ""))
    x = first_piece_blocks(b, g) * b + w
    return FamilyTheorem(
        "F22", "blocks(b) + window(w) + global(g), 1 ≤ w ≤ b − 2", (("b", Integer(b)), ("w", Integer(w)),
                                                                     ("g", Integer(g))), Integer(low),
        Integer(2), group, order, (), Integer(3), True,
        f"the swap ({x} {x + 1}) of two adjacent positions of the second block piece that are not twins "
        f"({x - w} sees {x} and not {x + 1}) can change only the neighbourhoods of {x - w}, {x}, {x + 1} and "
        f"{x + w + 1}, none within distance 1 of position n, and is not in G: D = 2 layers are not enough, "
        "D + 1 = 3 suffice (Theorem F22)",
        witness=(n, (Integer(x), Integer(x + 1))))


def match_union(kinds: list, by: dict, n):
    """The theorem of this module for the merged atoms (kinds sorted, by: kind -> atom), an OpenFamily
    naming what is open, or None (not a family of this module)."""
    from .families import OpenFamily
    if kinds in (["blocks", "window"], ["blocks", "global", "window"]):
        b, w = by["blocks"].args[0], by["window"].args[0]
        g = by["global"].args[0] if "global" in by else Integer(0)
        if not all(isinstance(x, (int, Integer)) for x in (b, w, g)):
            return OpenFamily("blocks(b) + window(w)" + (" + global(g)" if "global" in by else ""),
                              f"the closed forms are stated for integer b, w, g only ({SECTION}, Theorems F21, F22)")
        b, w, g = int(b), int(w), int(g)
        if blocks_window_applies(b, w, g) and b > MAX_RESIDUE_PIECES:
            return OpenFamily("blocks(b) + window(w)" + (" + global(g)" if "global" in by else ""),
                              f"the closed forms state one group order per residue of n mod b, listed only for b up "
                              f"to {MAX_RESIDUE_PIECES:,} (b = {b:,}; give `tokens N`)")
        if blocks_window_applies(b, w, g):
            return blocks_window_theorem(n, b, w, g)
        return None
    if kinds in (["blocks", "strided", "window"], ["blocks", "dilated"]):
        return _grids(kinds, by, n) or _periodic_line(kinds, by, n)
    if kinds == ["blocks", "dilated", "global"]:
        from . import blocks_dilated_chains  # Theorem F96: the chains of F95 with globals
        b, (w, r), g = by["blocks"].args[0], by["dilated"].args, by["global"].args[0]
        if _ints(b, w, r, g) and blocks_dilated_chains.applies_global(int(b), int(w), int(r), int(g)):
            return blocks_dilated_chains.theorem_global(n, int(b), int(w), int(r), int(g))
        return None
    return _match_more(kinds, by, n) or _periodic_line(kinds, by, n)


def _periodic_line(kinds: list, by: dict, n):
    """Theorems F115, F116 (``graphs/periodic_lines.py``), or F115 with F117 (``graphs/periodic_exchanges.py``) when a
    symmetry exchanges residues mod b, or with F122 (``graphs/periodic_determined.py``) where F117's (C5) fails: `blocks(b)` with non-cyclic window, dilated and offsets parts (no other part),
    where no theorem above applies; None when outside their bounds or certificates."""
    if len(set(kinds)) != len(kinds):  # two parts of one kind: ``by`` holds one of them
        return None
    if "blocks" not in kinds or len(kinds) < 2 or not set(kinds) - {"blocks"} <= {"window", "dilated", "offsets"}:
        return None
    from . import periodic_lines
    from .families import line_jumps
    b = by["blocks"].args[0]
    jumps = line_jumps([by[k] for k in kinds if k != "blocks"])
    if not _ints(b) or jumps is None or int(b) < 2:
        return None
    data = periodic_lines.decide(int(b), tuple(jumps))
    if data is not None:
        return periodic_lines.theorem(n, data)
    from . import periodic_exchanges  # F117: symmetries that exchange residues mod b, where F116's certificate fails
    found = periodic_exchanges.decide(int(b), tuple(jumps))
    if found is not None:
        return periodic_exchanges.theorem(n, found)
    from . import periodic_determined  # F122: every automorphism a periodic symmetry, where F117's (C5) fails
    determined = periodic_determined.decide(int(b), tuple(jumps))
    return None if determined is None else periodic_determined.theorem(n, determined)


def _grids(kinds: list, by: dict, n):
    """F63 (blocks(b) + dilated(w, b)), F95 (blocks(b) + dilated(w, r), 2wr ≤ b), F64 (blocks(s) + window(w) + strided(s),
    s ≥ max(2w + 1, w + 3)), F93 (blocks(b) + window(w) + strided(s), 3 ≤ b < s, w ≤ b − 2), F94 (b > s ≥ 2w + 1), F100
    (b ≥ s, w + 2 ≤ s ≤ 2w) and F119 (b ≥ s, b ≥ w + 2, s ≤ w + 1, where its certificate holds), or None."""
    if kinds == ["blocks", "strided", "window"]:
        from . import blocks_window_strided  # Theorem F64: the block equal to the stride, with a window
        b, s, w = by["blocks"].args[0], by["strided"].args[0], by["window"].args[0]
        if _ints(b, s, w) and blocks_window_strided.applies(int(b), int(w), int(s)):
            return blocks_window_strided.theorem(n, int(s), int(w))
        from . import blocks_window_strided_classes  # Theorem F93: the block shorter than the stride
        if _ints(b, s, w):
            data = blocks_window_strided_classes.decide(int(b), int(w), int(s))
            if data is not None:
                return blocks_window_strided_classes.theorem(n, data)
        from . import blocks_window_strided_cells  # Theorem F94: the block longer than the stride, s ≥ 2w + 1
        if _ints(b, s, w) and blocks_window_strided_cells.applies(int(b), int(w), int(s)):
            return blocks_window_strided_cells.theorem(n, int(b), int(w), int(s))
        from . import blocks_window_strided_wide  # Theorem F100: the block at least the stride, w + 2 ≤ s ≤ 2w
        if _ints(b, s, w) and blocks_window_strided_wide.applies(int(b), int(w), int(s)):
            return blocks_window_strided_wide.theorem(n, int(b), int(w), int(s))
        from . import blocks_window_strided_twins  # Theorem F119: b ≥ s, b ≥ w + 2, s ≤ w + 1 (twin classes)
        if _ints(b, s, w):
            twins = blocks_window_strided_twins.decide(int(b), int(w), int(s))
            if twins is not None:
                return blocks_window_strided_twins.theorem(n, twins)
        return None
    from . import blocks_dilated  # Theorem F63: the grid of blocks by offsets (r = b)
    b, (w, r) = by["blocks"].args[0], by["dilated"].args
    if _ints(b, w, r) and blocks_dilated.applies(int(b), int(w), int(r)):
        return blocks_dilated.theorem(n, int(b), int(w))
    from . import blocks_dilated_chains  # Theorem F95: chains of blocks joined by the dilation (2wr ≤ b)
    if _ints(b, w, r) and blocks_dilated_chains.applies(int(b), int(w), int(r)):
        return blocks_dilated_chains.theorem(n, int(b), int(w), int(r))
    return None


def _ints(*values) -> bool:
    return all(isinstance(x, (int, Integer)) for x in values)


def _match_more(kinds: list, by: dict, n):
    """F23–F25, or an OpenFamily naming what is open, or None."""
    from .families import OpenFamily
    if kinds == ["global", "strided"]:
        s, g = by["strided"].args[0], by["global"].args[0]
        if _ints(s, g) and int(s) >= 2 and int(g) >= 1:
            return strided_global_theorem(n, int(s), int(g))
        return OpenFamily("strided(s) + global(g)", f"the closed forms are stated for integer s, g only ({SECTION}, "
                          "Theorem F23)")
    if kinds == ["coffsets", "global"]:
        jumps = tuple(by["coffsets"].args)
        if jumps in ((1,), (-1,)) or jumps in ((Integer(1),), (Integer(-1),)):
            return cyclic_step_global_theorem(n, int(jumps[0]), by["global"].args[0])
        return OpenFamily("offsets cyclic + global(g)", "cyclic offsets other than {1} or {−1} with globals are not "
                          f"proved at symbolic n ({SECTION}, open question O6)")
    if kinds == ["blocks", "strided"]:
        b, s = by["blocks"].args[0], by["strided"].args[0]
        if _ints(b, s) and int(b) == int(s) and int(s) >= 3:
            return rook_theorem(n, int(s))
        from . import blocks_strided
        if _ints(b, s) and blocks_strided.applies(int(b), int(s)):
            return blocks_strided.theorem(n, int(b), int(s))
        if _ints(b, s) and blocks_strided.applies_below(int(b), int(s)):
            return blocks_strided.theorem_below(n, int(b), int(s))
        if _ints(b, s) and int(b) >= 2 and int(s) % int(b) == 0 and int(s) >= 2 * int(b):
            return None  # not strongly connected for n ≥ b + 1 (graphs/closed_connectivity.py)
        return OpenFamily("blocks(b) + strided(s)", "b = s ≥ 3 (Theorem F25, the rook's graph) and b > s (Theorem F34; "
                          "above s = 7 while one period b·s/gcd(b, s) has at most 4,096 lengths) are proved, and b | s, s ≥ 2b is not connected; b < s with b ∤ s is "
                          "Theorem F44 (above s = 7 while one period b·s/gcd(b, s) has at most 72 lengths, the cost of its finite "
                          "checks); beyond that a block meets only b of the s residues, and the diameter, the group and the least "
                          "layer count are not computed "
                          f"({SECTION}, open question O7)")
    if kinds == ["cwindow", "strided"]:
        w, s = by["cwindow"].args[0], by["strided"].args[0]
        if _ints(w, s) and int(w) >= 1 and int(s) in (2 * int(w) + 2, 2 * int(w) + 3):
            return cyclic_strided_theorem(n, int(w), int(s))
        if _ints(w, s) and int(w) + 1 <= int(s) <= 2 * int(w) + 1:
            return cyclic_covered_strided_theorem(n, int(w), int(s))
        if _ints(w, s) and 2 <= int(s) <= int(w):
            return cyclic_dense_strided_theorem(n, int(w), int(s))
        return OpenFamily("window(w) cyclic + strided(s)", "for s ≥ 2w + 4 the group is D_n when s | n, else the "
                          "reflection, for n ≥ s(3w + 2) (Theorem F201), but the diameter (walks through the "
                          "wrap-around change the residue mod s by n mod s) and the least layer count are not proved "
                          f"at symbolic n ({SECTION}, open question O6)")
    return None


# ---------------------------------------------------------------------------------------------
# F23 strided(s) + global(g); F24 offsets {±1} cyclic + global(g); F25 blocks(s) + strided(s)

def strided_global_low(s: int, g: int) -> int:
    """F23's range: n ≥ g + s + 1 (every residue class of the non-globals non-empty, one with two positions)."""
    return g + s + 1


def strided_global_order_at(n: int, s: int, g: int) -> int:
    """g! · ((q + 1)!)^e · e! · (q!)^(s − e) · (s − e)! with n − g = qs + e (F23)."""
    q, e = divmod(n - g, s)
    return factorial(g) * factorial(q + 1) ** e * factorial(e) * factorial(q) ** (s - e) * factorial(s - e)


def strided_global_theorem(n, s: int, g: int):
    """F23: `strided(s) + global(g)`, integers s ≥ 2, g ≥ 1, n ≥ g + s + 1."""
    from .families import FamilyTheorem, _fact
    low = strided_global_low(s, g)
    pieces_ = []
    for m in range(s):
        e = (m - g) % s
        q = (n - g - e) / s
        pieces_.append((_fact(g) * _fact(q + 1) ** e * _fact(e) * _fact(q) ** (s - e) * _fact(s - e),
                        sympy.Eq(sympy.Mod(n, s), m)))
    order = sympy.Piecewise(*pieces_)
    group = (f"{'' if g == 1 else f'S_{g} on {_span(1, g)} × '}the automorphisms of the disjoint cliques "
             + (", ".join(f"{{{g + r}, {g + r + s}, …}}" for r in range(1, s + 1)) if s <= 4 else
                f"{{{g + 1}, {g + 1 + s}, …}}, …, {{{g + s}, {g + 2 * s}, …}}")
             + f" (the residue classes mod {s} of the "
             f"positions {{{g + 1}, …, n}}; cliques of equal size may be exchanged"
             + ("; position 1 fixed)" if g == 1 else ")"))
    family = "strided(s) + global(g)"
    if s == 2:
        return FamilyTheorem(
            "F23", family, (("s", Integer(s)), ("g", Integer(g))), Integer(low), Integer(2), group, order, (),
            Integer(2), True,
            "at a non-global position the view holds the globals (the only universal positions) and the position's "
            "residue class, so a permutation meeting the witness condition keeps the globals, maps that class onto a "
            "class and hence the other class onto the other: it is an automorphism, no view witness exists, and "
            "D = 2 layers suffice (Theorem F23)")
    return FamilyTheorem(
        "F23", family, (("s", Integer(s)), ("g", Integer(g))), Integer(low), Integer(2), group, order, (),
        Integer(3), True,
        f"the swap ({g + 1} {g + 3}) of positions of two residue classes other than that of {g + 2} changes no "
        f"neighbourhood within distance 1 of position {g + 2} (the globals and its class), and is not in G "
        f"({g + 1} ~ {g + 1 + s} is carried to a non-arc): D = 2 layers are not enough, D + 1 = 3 suffice (Theorem F23)",
        witness=(Integer(g + 2), (Integer(g + 1), Integer(g + 3))))


def cyclic_step_global_theorem(n, sign: int, g):
    """F24: `offsets {1} cyclic + global(g)` (sign 1) or `offsets {−1} cyclic + global(g)` (sign −1), g ≥ 1,
    n ≥ g + 3: D = 2, G = S_g on the globals, 3 layers, least."""
    from .closed_forms import _span
    from .families import FamilyTheorem, _fact, _globals_generators, _sub
    one = g == 1 or g == Integer(1)
    group = "trivial" if one else f"S_{_sub(g)} on {_span(1, g)}"
    if sign > 0:
        root, pair = n, (g + 1, g + 2)
        why = (f"the swap ({sympy.sstr(g + 1)} {sympy.sstr(g + 2)}) fixes position n and the globals, which are all "
               "that is within distance 1 of n (n attends to n + 1 ≡ 1, a global), and reverses the arc "
               f"{sympy.sstr(g + 2)} → {sympy.sstr(g + 1)} of the path of the other positions: "
               "D = 2 layers are not enough, D + 1 = 3 suffice (Theorem F24)")
    else:
        root, pair = g + 1, (n - 1, n)
        why = ("the swap (n−1 n) fixes position g + 1 and the globals, which are all that is within distance 1 of g + 1 "
               "(it attends to g, a global), and reverses the arc n−1 → n of the path of the other positions: D = 2 "
               "layers are not enough, D + 1 = 3 suffice (Theorem F24)")
    return FamilyTheorem(
        "F24", f"offsets {{{sign}}} cyclic + global(g)", (("g", g),), g + 3, Integer(2), group, _fact(g),
        _globals_generators(g), Integer(3), True, why, witness=(root, pair))


def rook_low(s: int) -> int:
    """F25's range: n ≥ s(s + 1) (at least s + 1 whole blocks)."""
    return s * (s + 1)


def rook_order_at(n: int, s: int) -> int:
    """m!·ρ!·(s − ρ)! with n = ms + ρ, 0 ≤ ρ < s (F25)."""
    m, rho = divmod(n, s)
    return factorial(m) * factorial(rho) * factorial(s - rho)


def rook_theorem(n, s: int):
    """F25: `blocks(s) + strided(s)`, integer s ≥ 3, n ≥ s(s + 1): the rook's graph of the m = ⌊n/s⌋ whole
    blocks by the s residues, with the last block's ρ = n − ms positions as a partial row."""
    from .families import FamilyTheorem, _fact
    m = sympy.floor(n / s)
    pieces_ = []
    lay = []
    for rho in range(s):
        pieces_.append((_fact(m) * _fact(rho) * _fact(s - rho), sympy.Eq(sympy.Mod(n, s), rho)))
        lay.append((Integer(3 if 1 <= rho <= s - 2 else 2), sympy.Eq(sympy.Mod(n, s), rho)))
    order = sympy.Piecewise(*pieces_)
    three = [rho for rho in range(1, s - 1)]
    if three:
        layers = sympy.Piecewise((Integer(3), sympy.Or(*[sympy.Eq(sympy.Mod(n, s), r) for r in three])),
                                 (Integer(2), True))
    else:
        layers = Integer(2)
    group = (f"S_⌊n/{s}⌋ permuting the whole blocks {_span(1, s)}, {_span(s + 1, 2 * s)}, … × the permutations of "
             f"the residues mod {s} that keep the last block's residues {{1, …, n mod {s}}}: S_(n mod {s}) × "
             f"S_({s} − n mod {s}) (position (block k, residue r) ↦ (π k, τ r); the last partial block fixed)")
    return FamilyTheorem(
        "F25", "blocks(s) + strided(s)", (("s", Integer(s)),), Integer(rook_low(s)), Integer(2), group, order, (),
        layers, True,
        f"the positions form the rook's graph of the blocks by the residues mod {s}; when the last block has "
        + (f"1 ≤ ρ ≤ {s - 2} positions" if s > 3 else "ρ = 1 position") + ", the swap (ρ+1 ρ+2) of two positions of the first block in residues the last "
        "block lacks changes no neighbourhood within distance 1 of position n − ρ + 1 (the last block and its "
        "residue's column) and is not in G, so 3 layers are least; when ρ = 0 or ρ = s − 1 every rooted view holds "
        "a whole row and a column meeting every row, which forces rows onto rows and columns onto columns: no view "
        "witness, D = 2 layers suffice (Theorem F25)",
        witness=None, class_witnesses=tuple((s, rho, (n - rho + 1, (Integer(rho + 1), Integer(rho + 2))))
                                            for rho in three))


# ---------------------------------------------------------------------------------------------
# F201 (lemma Y) the group of window(w) cyclic + strided(s), s ≥ w + 1; the family w + 1 ≤ s ≤ 2w + 1

def cyclic_stride_group_low(w: int, s: int) -> int:
    """F201's range: n ≥ s(3w + 2) (a residue class has at least 3w + 2 positions, so two positions of one class
    have at least 3w common neighbours and two window-adjacent positions of different classes at most 3w − 1)."""
    return s * (3 * w + 2)


def cyclic_stride_order(n, s: int) -> sympy.Expr:
    """F201's order at the length n (a Symbol: one closed form per residue of n mod s, as the certificate states)."""
    return _residue_pieces(n, s, {m: m for m in range(s)}, lambda m: 2 * n if m == 0 else Integer(2), explicit=True)


def cyclic_stride_group_name(s: int, n=None) -> str:
    """F26's and F201's group by name: by class at a symbolic n, and at an integer n the group of n's class."""
    if isinstance(n, (int, Integer)):
        return "D_n" if int(n) % s == 0 else "the reflection i ↦ n + 1 − i"
    return f"D_n when {s} | n, else the reflection i ↦ n + 1 − i"


def cyclic_stride_generators() -> tuple:
    return ("(1 2 ... n) when s | n", "i ↦ n + 1 − i")


def cyclic_covered_strided_theorem(n, w: int, s: int):
    """F201 with F197, F200 and F218: `window(w) cyclic + strided(s)`, integers w ≥ 1, w + 1 ≤ s ≤ 2w + 1,
    n ≥ s(3w + 2): D = 2 (Theorem F197 (b): d* = w + 1, or w + 2 when s = w + 1, so D = 2 from n = 2w + 3), G = D_n when
    s | n, else the reflection (Theorem F201). Layers, by class of n mod s: for s ≤ 2w, D = 2 on n ≡ 0, least (Theorem
    F218, lemma AH) and on the classes where Theorem F219's check finds no view witness (lemma AJ carries it to every
    n of the class); D + 1 = 3 on the other classes, least where Theorem F200 gives a view witness with 2 layers
    (every class for s = 2w + 1), sufficient on any class neither decides (none for s ≤ 16, O6). A count by class: a
    Piecewise over n mod s with a least flag by class (``least_classes``) where a class stays undecided."""
    from dataclasses import replace
    from .cyclic_covered_least import witness_classes
    from .families import FamilyTheorem
    theorem = FamilyTheorem(
        "F201", "window(w) cyclic + strided(s), w + 1 ≤ s ≤ 2w + 1", (("w", Integer(w)), ("s", Integer(s))),
        Integer(cyclic_stride_group_low(w, s)), Integer(2), cyclic_stride_group_name(s, n), cyclic_stride_order(n, s),
        cyclic_stride_generators(), Integer(3), False,
        "the view argument (D + 1 layers suffice; D = 2 by Theorem F197)", open_question=CYCLIC_COVERED_STRIDE_OPEN)
    if s == 2:  # w = 1, Theorem F202: the far positions of every root lie in the other class, a clique
        return replace(theorem, layers=Integer(2), least=True, open_question="", why_layers=(
            "Theorem F202: the positions at distance 2 from any position are those of the other parity, pairwise "
            "adjacent, so no view witness exists (the far-clique lemma): D = 2 layers suffice"))
    classes = witness_classes(w, s)
    if len(classes) == s:  # s = 2w + 1: the block exchange at position 1 on every class
        return replace(theorem, least=True, open_question="", why_layers=(
            f"Theorem F200: exchanging the blocks {{{3 * w + 3}, …, {5 * w + 3}}} and {{{5 * w + 4}, …, {7 * w + 4}}} "
            "keeps the neighbourhood of every position within distance 1 of position 1 and is not in G, so D = 2 "
            "layers are not enough; D + 1 = 3 suffice by the view argument"))
    # s ≤ 2w: Theorem F218 on n ≡ 0 (mod s) and Theorem F219 (lemma AJ) on its checked classes, 2 layers least; 3
    # elsewhere, least on F200's classes
    from .cyclic_covered_least import suffice_classes
    two = (0,) + suffice_classes(w, s)
    why = _covered_why(classes, two)
    if isinstance(n, (int, Integer)):  # at a length: one count and one flag, n's class
        if int(n) % s in two:
            return replace(theorem, layers=Integer(2), least=True, open_question="",
                           why_layers=DIVISIBLE_WHY if int(n) % s == 0 else SUFFICE_WHY)
        least = int(n) % s in classes
        return replace(theorem, least=least, why_layers=why, open_question="" if least else theorem.open_question)
    layers = _residue_pieces(n, s, {m: m for m in range(s)}, lambda m: Integer(2 if m in two else 3))
    least_residues = tuple(sorted(set(two) | set(classes)))
    if len(least_residues) == s:  # F200, F218 and F219 decide every class: least on every class
        return replace(theorem, layers=layers, least=True, open_question="", why_layers=why)
    return replace(theorem, layers=layers, least_classes=(s, least_residues), why_layers=why)


#: Theorem F218 (lemma AH) in words: 2 layers on the class s | n
DIVISIBLE_WHY = (
    "Theorem F218: when s | n every rotation lies in G, the dihedral group, and a permutation fixing a root and keeping every "
    "neighbourhood within distance 1 of it is the identity or the reflection through it (lemma AH), so no view "
    "witness exists: D = 2 layers suffice")


#: Theorem F219 (lemma AJ) in words: 2 layers on a class the check decides
SUFFICE_WHY = (
    "Theorem F219: a view witness with 2 layers at n + s gives one at n (lemma AJ: the root's class keeps its order "
    "and its seam, so one period of it is cut out, aligned with the witness), and the rooted views find none at the "
    "class's lengths below max(s(3w + 2), 15s) + s: D = 2 layers suffice")


def _covered_why(classes: tuple, two: tuple = (0,)) -> str:
    """Why the count of `window(w) cyclic + strided(s)`, s ≤ 2w, holds on each class (F218 on s | n, F219 on its
    checked classes, F200's witness classes, the view argument elsewhere)."""
    why = ("D = 2 layers on n ≡ 0 (mod s) (Theorem F218: every rotation lies in G, the dihedral group, and a permutation fixing a "
           "root and keeping every neighbourhood within distance 1 of it is the identity or the reflection through it, "
           "lemma AH, so no view witness exists)")
    if len(two) > 1:
        why += (f" and on n mod s ∈ {{{', '.join(map(str, two[1:]))}}} (Theorem F219: a view witness with 2 layers at "
                "n + s gives one at n, lemma AJ, and the rooted views find none at the class's first lengths)")
    why += "; D + 1 = 3 on the other classes (the view argument, D = 2 by Theorem F197)"
    if not classes:
        return why
    return why + (", least on the classes where Theorem F200 gives a swap that keeps the neighbourhood of every "
                  "position within distance 1 of a root and is not in G (a seam pair of one class, or two neighbours "
                  "whose classes the window of an end root misses)")


#: what stays open for `window(w) cyclic + strided(s)` with w + 1 ≤ s ≤ 2w (docs/theory.md §11.11, O6)
CYCLIC_COVERED_STRIDE_OPEN = (
    "whether D = 2 layers suffice is not proved at symbolic n for w + 1 ≤ s ≤ 2w on the classes of n mod s other than "
    "n ≡ 0 (Theorem F218) where Theorem F200 gives no view witness and Theorem F219's check does not run (s > 16; "
    "docs/theory.md §11.11, open question O6)")


# ---------------------------------------------------------------------------------------------
# F205 (lemma AB) the group of window(w) cyclic + strided(s), 2 ≤ s ≤ w (F201's complement)

def cyclic_dense_stride_low(w: int, s: int) -> int:
    """F205's range: n ≥ max(s(3w + 2), 20w) (the classes told apart by common neighbours as in F201, and enough of
    the deep interior {3w + 1, …, n − 3w} mapped into itself for two of its positions s − 1 to 2w − 1 apart)."""
    return max(s * (3 * w + 2), 20 * w)


def cyclic_dense_stride_params(pattern) -> Optional[tuple[int, int]]:
    """(w, s) when ``pattern`` is `window(w) cyclic + strided(s)` (its parts in either order) with integers
    2 ≤ s ≤ w, Theorem F205's family; None otherwise."""
    from .. import spec as S
    if not isinstance(pattern, S.PatternUnion) or len(pattern.parts) != 2:
        return None
    windows = [p.w for p in pattern.parts if isinstance(p, S.Window) and p.cyclic]
    strides = [p.s for p in pattern.parts if isinstance(p, S.Strided)]
    if len(windows) != 1 or len(strides) != 1 or not _ints(windows[0], strides[0]):
        return None
    w, s = int(windows[0]), int(strides[0])
    return (w, s) if 2 <= s <= w else None


def cyclic_dense_stride_twins(w: int, s: int) -> bool:
    """Whether F205 has its third class: s | w, where 1 and n are twins exactly when n mod s = 1."""
    return w % s == 0


#: F205's group on the class n mod s = 1 when s | w: the twins 1 and n exchanged, beside the reflection
CYCLIC_DENSE_TWIN_GROUP = "S_2 on {1, n} × the reflection of {2, …, n − 1}"


def cyclic_dense_stride_order(n, w: int, s: int) -> sympy.Expr:
    """F205's order at the length n (a Symbol: one closed form per residue of n mod s)."""
    twins = cyclic_dense_stride_twins(w, s)
    return _residue_pieces(n, s, {m: m for m in range(s)},
                           lambda m: 2 * n if m == 0 else Integer(4 if twins and m == 1 else 2), explicit=True)


def cyclic_dense_stride_group_name(w: int, s: int, n=None) -> str:
    """F205's group by name: by class at a symbolic n, and at an integer n the group of n's class."""
    twins = cyclic_dense_stride_twins(w, s)
    if isinstance(n, (int, Integer)):
        if int(n) % s == 0:
            return "D_n"
        return CYCLIC_DENSE_TWIN_GROUP if twins and int(n) % s == 1 else "the reflection i ↦ n + 1 − i"
    if not twins:
        return cyclic_stride_group_name(s)
    if s == 2:
        return f"D_n when 2 | n, else {CYCLIC_DENSE_TWIN_GROUP}"
    return f"D_n when {s} | n, {CYCLIC_DENSE_TWIN_GROUP} when n mod {s} = 1, else the reflection i ↦ n + 1 − i"


def cyclic_dense_strided_theorem(n, w: int, s: int):
    """F205 with F197: `window(w) cyclic + strided(s)`, integers 2 ≤ s ≤ w, n ≥ max(s(3w + 2), 20w): D = 2 (Theorem
    F197: d* = w + 1, or w + 2 when s | w + 1), G = D_n when s | n, the twins 1, n exchanged beside the reflection when
    s | w and n mod s = 1, else the reflection (Theorem F205). Layers by class of n mod s (Theorems F224–F226): D + 1
    = 3, least, on the classes with a seam swap (F224, from the same range); D = 2, least, on the classes where the
    rooted views find no view witness at the class's length in [N₁, N₁ + s) (F226: lemma AM carries it to every n ≥
    N₁ of the class; the range then starts at N₁); 3, sufficient, on any class neither decides."""
    from dataclasses import replace
    from .cyclic_covered_least import dense_pump_from, dense_suffice_classes, dense_witness_classes
    from .families import FamilyTheorem
    generators = cyclic_stride_generators()
    if cyclic_dense_stride_twins(w, s):
        generators += ("(1 n) when n mod s = 1",)
    theorem = FamilyTheorem(
        "F205", "window(w) cyclic + strided(s), 2 ≤ s ≤ w", (("w", Integer(w)), ("s", Integer(s))),
        Integer(cyclic_dense_stride_low(w, s)), Integer(2), cyclic_dense_stride_group_name(w, s, n),
        cyclic_dense_stride_order(n, w, s), generators, Integer(3), False,
        "the view argument (D + 1 layers suffice; D = 2 by Theorem F197)", open_question=CYCLIC_DENSE_STRIDE_OPEN)
    three, two = dense_witness_classes(w, s), dense_suffice_classes(w, s)
    why = _dense_why(w, s, three, two)
    if isinstance(n, (int, Integer)):  # at a length: n's class only (F226 from N₁, F224 from the family's range)
        e = int(n) % s
        if e in two and int(n) >= dense_pump_from(w, s):
            return replace(theorem, low=Integer(dense_pump_from(w, s)), layers=Integer(2), least=True,
                           open_question="", why_layers=why)
        if e in three:
            return replace(theorem, least=True, open_question="", why_layers=why)
        return theorem
    if not two:  # F226's check did not run: 3 layers, least on F224's classes only
        if not three:
            return theorem
        return replace(theorem, least_classes=(s, three), why_layers=why)
    layers = _residue_pieces(n, s, {m: m for m in range(s)}, lambda m: Integer(2 if m in two else 3))
    low = Integer(dense_pump_from(w, s))
    decided = tuple(sorted(set(two) | set(three)))
    if len(decided) == s:
        return replace(theorem, low=low, layers=layers, least=True, open_question="", why_layers=why)
    return replace(theorem, low=low, layers=layers, least_classes=(s, decided), why_layers=why)


def _dense_why(w: int, s: int, three: tuple, two: tuple) -> str:
    """Why the count of `window(w) cyclic + strided(s)`, 2 ≤ s ≤ w, holds on each class (F224–F226)."""
    from .cyclic_covered_least import dense_pump_from
    parts = []
    if two:
        parts.append(f"D = 2 layers for n mod {s} ∈ {{{', '.join(map(str, two))}}} and n ≥ {dense_pump_from(w, s)} "
                     "(Theorem F226: a view witness with 2 layers at n + s gives one at n, lemma AM, one period of the "
                     "root's class cut out where the witness shifts it, and the rooted views find none at the class's "
                     "first length from there)")
    if three:
        parts.append(f"D + 1 = 3 layers, least, for n mod {s} ∈ {{{', '.join(map(str, three))}}} (Theorem F224: two "
                     "positions of one class across the seam, exchanged, keep every neighbourhood within distance 1 "
                     "of a root whose class misses theirs and those of the positions seeing only one of them)")
    rest = [e for e in range(s) if e not in two and e not in three]
    if rest:
        parts.append(f"D + 1 = 3 layers on n mod {s} ∈ {{{', '.join(map(str, rest))}}} (the view argument, D = 2 by "
                     "Theorem F197; not shown least)")
    return "; ".join(parts)


#: what stays open for `window(w) cyclic + strided(s)` with 2 ≤ s ≤ w (docs/theory.md §11.11, O6)
CYCLIC_DENSE_STRIDE_OPEN = (
    "whether D = 2 layers suffice is not proved at symbolic n for 2 ≤ s ≤ w (docs/theory.md §11.11, Theorem F205, "
    "open question O6; the concrete engine finds 2 or 3 by class of n mod s)")


# ---------------------------------------------------------------------------------------------
# F26 window(w) cyclic + strided(s), s ∈ {2w + 2, 2w + 3}

def cyclic_strided_low(w: int, s: int) -> int:
    """F26's range: n ≥ s(4w + 3) (the residue classes are told from the other pairs by common neighbours)."""
    return s * (4 * w + 3)


def cyclic_strided_theorem(n, w: int, s: int):
    """F26: `window(w) cyclic + strided(s)`, integers w ≥ 1, s ∈ {2w + 2, 2w + 3}, n ≥ s(4w + 3): D = 3; G = D_n when
    s | n, else the reflection (for w ≥ 2 and n mod s ∈ {1, …, w} by Theorem F201). Layers: for s = 2w + 2, D = 3,
    least (Theorem F56: the positions at distance 3 from any position lie in one residue class); for (w, s) = (1, 5),
    D + 1 = 4, least (Theorem F55); otherwise D + 1 = 4, sufficient (whether 3 suffice is open, O6)."""
    from dataclasses import replace
    from .families import FamilyTheorem
    from .strided_least import CYCLIC_ODD_STRIDE_OPEN, cyclic_even_stride_why
    family = "window(w) cyclic + strided(s), s ∈ {2w + 2, 2w + 3}"
    params = (("w", Integer(w)), ("s", Integer(s)))
    low = Integer(cyclic_strided_low(w, s))
    theorem = FamilyTheorem(
        "F26", family, params, low, Integer(3), cyclic_stride_group_name(s, n), cyclic_stride_order(n, s),
        cyclic_stride_generators(), Integer(4), False,
        "the view argument (D + 1 layers suffice)", open_question=CYCLIC_ODD_STRIDE_OPEN)
    if s == 2 * w + 2:  # Theorem F56: the far positions of every root lie in one residue class
        return replace(theorem, layers=Integer(3), least=True, why_layers=cyclic_even_stride_why(w),
                       open_question="")
    if s == 2 * w + 3 and w >= 2 and isinstance(n, (int, Integer)) and int(n) % s == 0:
        # Theorem F67 at a length n with s | n: the common-neighbour premise holds at every root (a count by residue
        # class with a least flag on one class only is not stated at symbolic n, so only a concrete n uses it)
        from .strided_least import cyclic_odd_stride_divides_why
        return replace(theorem, layers=Integer(3), least=True, why_layers=cyclic_odd_stride_divides_why(w, s),
                       open_question="")
    if s == 2 * w + 3 and w >= 2 and isinstance(n, sympy.Symbol):
        # Theorem F67 on the class s | n (3 layers, least), D + 1 = 4 sufficient on the others: a least flag by class
        from .strided_least import CYCLIC_ODD_STRIDE_CLASSES_OPEN, cyclic_odd_stride_classes_why
        layers = sympy.Piecewise((Integer(3), sympy.Eq(sympy.Mod(n, s), 0)), (Integer(4), True))
        return replace(theorem, layers=layers, least=False, least_classes=(s, (0,)),
                       why_layers=cyclic_odd_stride_classes_why(w, s),
                       open_question=CYCLIC_ODD_STRIDE_CLASSES_OPEN)
    if s == 5:  # Theorem F55: a block exchange is a view witness with 3 layers at position 2
        return replace(theorem, least=True, open_question="", why_layers=(
            "Theorem F55: exchanging the blocks {10, …, 14} and {15, …, 19} keeps the neighbourhood of every position "
            "within distance 2 of position 2 and is not in G, so D = 3 layers are not enough; D + 1 = 4 suffice"))
    return theorem
