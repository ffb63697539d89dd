"""Hubs added to a base pattern at symbolic n: Theorems F30–F33 of docs/theory.md §11.11.

The pattern is ``global(g)`` (``star`` = global(1)) united with a base B, any union of the other
structured patterns. With P = {1, …, g} (the globals) and R = {g + 1, …, n}:

* F30 (the hub lemma): Γ is strongly connected with D ≤ 2, and D = 2 iff Γ[R] (B restricted to R) is
  not complete; when Γ[R] has no position that attends to all of R and is attended by all of R,
  G = Sym(P) × Aut(Γ[R]). When B is built from window, offsets, dilated and strided parts that are not
  cyclic (their arcs depend on u − v only), x ↦ x − g maps Γ[R] onto B on n − g positions, so
  Aut(Γ[R]) is B's group on n − g positions, shifted by g.
* F31 (local bases): B a union of window, offsets and dilated parts, cyclic or not, whose offsets are at
  most r in absolute value. For n ≥ g + 3r + 3 (and n ≥ 4r + 3 when a part is cyclic): D = 2, and the swap
  (g+2r+2 g+2r+3) is a view witness at position g + 1, so 3 = D + 1 layers are least.
* F32 (groups of the local bases): Aut(Γ[R]) is trivial when every offset has one sign and ±1 is among
  them (non-cyclic); the disjoint path powers of the residue classes for ``dilated(w, r)`` alone; the
  reflection of R for ``window(w) + dilated(w', r)`` in Theorem F9's or F15's range on n − g positions.
  A cyclic part whose offsets are at most g is its non-cyclic part (every wrap-around arc has an end in
  P). Other bases: the group is not proved (the union stays undecided there).
* F33 ``window(w) + strided(s) + global(g)``: G = S_g × the reflection of R in the range of F7, F11 or F14
  on n − g positions; 3 layers least for s ≥ w + 3 and for (w, s) = (1, 3) (explicit witnesses); 2 layers least
  where Theorem F7 (s ≤ w + 1) or F81 (s = w + 2) shows the base rigid at depth 2 (F7's finite check, s ≤ 7);
  else 3 = D + 1 suffice and whether 2 do is not proved.
* F90 (``graphs/strided_globals.py``) two or more strides (gcd 1) with ``global(g)``: matched here, decided there.

Nothing here reads user text.
"""
from __future__ import annotations

from math import factorial
from typing import Optional, Union

import sympy
from sympy import Integer

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"
LOCAL = ("window", "cwindow", "offsets", "coffsets", "dilated")
CYCLIC = ("cwindow", "coffsets")


def _ints(*values) -> bool:
    return all(isinstance(x, (int, Integer)) for x in values)


def reach(kind: str, args: tuple) -> int:
    """The largest |offset| of a local part: window(w) w, offsets K max |k|, dilated(w, r) w·r."""
    if kind in ("window", "cwindow"):
        return int(args[0])
    if kind in ("offsets", "coffsets"):
        return max(abs(int(k)) for k in args)
    return int(args[0]) * int(args[1])


def local_low(g: int, r: int, cyclic: bool) -> int:
    """F31's range: n ≥ g + 3r + 3, and n ≥ 4r + 3 with a cyclic part."""
    return max(g + 3 * r + 3, 4 * r + 3) if cyclic else g + 3 * r + 3


def local_witness(g: int, r: int) -> tuple[int, tuple[int, int]]:
    """F31's view witness at D = 2 layers: position g + 1 and the swap (g+2r+2 g+2r+3)."""
    return g + 1, (g + 2 * r + 2, g + 2 * r + 3)


def straightened(parts: list, g: int) -> list:
    """F32 (a): a cyclic part whose offsets are all at most g in absolute value has the arcs of its
    non-cyclic part (every wrap-around pair has an end among the globals); such parts made non-cyclic."""
    out = []
    for kind, args in parts:
        if kind in CYCLIC and reach(kind, args) <= g:
            kind = {"cwindow": "window", "coffsets": "offsets"}[kind]
        out.append((kind, args))
    return out


def one_sided_with_step_one(parts: list) -> bool:
    """Every part non-cyclic offsets, all offsets of one sign, and ±1 among them (F32 (b))."""
    if not all(kind == "offsets" for kind, _ in parts):
        return False
    ks = {int(k) for _, args in parts for k in args}
    return (all(k > 0 for k in ks) and 1 in ks) or (all(k < 0 for k in ks) and -1 in ks)


def dilated_alone_low(g: int, w: int, r: int) -> int:
    """F32 (c): every residue class of R mod r has at least 2w + 1 positions: n − g ≥ r(2w + 1)."""
    return g + r * (2 * w + 1)


def dilated_alone_order_at(n: int, g: int, r: int) -> int:
    """g!·2^r·e!·(r − e)! with n − g = qr + e (F32 (c))."""
    e = (n - g) % r
    return factorial(g) * 2 ** r * factorial(e) * factorial(r - e)


def _globals_text(g: int) -> str:
    return "" if g == 1 else f"S_{g} on {_span(1, g)} × "


def _reflection_group(g: int, n):
    """S_g on the globals × the reflection of {g + 1, …, n} (F2's naming; n the length, a Symbol or an Integer)."""
    from .closed_forms import _span
    from .families import _fact, _globals_generators
    rest = _span(g + 1, n)
    name = f"the reflection of {rest}" if g == 1 else f"S_{g} on {_span(1, g)} × the reflection of {rest}"
    gens = _globals_generators(Integer(g)) + (f"i ↦ {sympy.sstr(n + g + 1)} − i on {rest}",)
    return name, 2 * _fact(Integer(g)), gens


def match_hubs(atoms: list, n):
    """The theorem of this module for the merged atoms (a list of closed_forms._Atom), or None (not a hub
    union with integer parameters, or one this module does not decide)."""
    globs = [a for a in atoms if a.kind == "global"]
    base = [(a.kind, a.args) for a in atoms if a.kind != "global"]
    if len(globs) != 1 or not base or not _ints(*globs[0].args):
        return None
    g = int(globs[0].args[0])
    if g < 1 or not all(_ints(*args) for _, args in base):
        return None
    kinds = sorted(kind for kind, _ in base)
    if all(kind in LOCAL for kind in kinds):
        return local_theorem(n, g, base)
    if len(kinds) >= 2 and set(kinds) == {"strided"}:
        from . import strided_globals  # Theorem F90: several strides with globals
        strides = [args[0] for _, args in base]
        return strided_globals.theorem(n, strides, g) if strided_globals.applies(strides, g) else None
    if kinds == ["strided", "window"]:
        w = int(next(args for kind, args in base if kind == "window")[0])
        s = int(next(args for kind, args in base if kind == "strided")[0])
        if w >= 1 and s >= 2:
            return window_strided_theorem(n, g, w, s)
    return None


def _base_text(parts: list) -> str:
    def one(kind, args):
        if kind in ("window", "cwindow"):
            return f"window({args[0]})" + (" cyclic" if kind == "cwindow" else "")
        if kind in ("offsets", "coffsets"):
            return "offsets {" + ", ".join(str(k) for k in args) + "}" + (" cyclic" if kind == "coffsets" else "")
        if kind == "dilated":
            return f"dilated({args[0]}, {args[1]})"
        return f"{kind}({', '.join(str(a) for a in args)})"
    return " + ".join(one(k, a) for k, a in parts)


def local_group(g: int, parts: list) -> Union[tuple, str]:
    """F32: (low, name, order as a function of n, generators) of G for the local base, or the open question."""
    from .families import FamilyTheorem, _window_dilated
    flat = straightened(parts, g)
    if any(kind in CYCLIC for kind, _ in flat):
        from .cyclic_hubs import hole_group  # Theorem F62: the circulant with a hole
        found = hole_group(g, parts)
        if found is not None:
            return found
        from .cyclic_hubs import mixed_group  # Theorem F230: the circulant with a hole and non-cyclic jumps
        found = mixed_group(g, parts)
        if found is not None:
            return found
        return ("the group of the positions {g + 1, …, n}: a cyclic part with an offset above g adds "
                      "wrap-around arcs inside them, and with non-cyclic parts of offsets above g their automorphisms "
                      "are not proved at symbolic n")
    if one_sided_with_step_one(flat):
        from .closed_forms import _span
        from .families import _fact, _globals_generators
        name = "trivial" if g == 1 else f"S_{g} on {_span(1, g)}"
        return Integer(g + 2), name, lambda n: _fact(Integer(g)), _globals_generators(Integer(g))
    kinds = sorted(kind for kind, _ in flat)
    if kinds == ["dilated"]:
        w, r = (int(x) for x in flat[0][1])
        return Integer(dilated_alone_low(g, w, r)), _dilated_name(g, w, r), lambda n: _dilated_order(n, g, r), ()
    if kinds == ["dilated", "window"]:
        w = int(next(args for kind, args in flat if kind == "window")[0])
        wd, r = (int(x) for x in next(args for kind, args in flat if kind == "dilated"))
        m = sympy.Symbol("m", integer=True, positive=True)
        base = _window_dilated(m, Integer(w), Integer(wd), Integer(r))
        if isinstance(base, FamilyTheorem) and base.group is not None:
            return Integer(g) + base.low, "reflection", None, None
        line = _line_group(g, flat)
        if line is not None:
            return line
        return (f"the group of the positions {{g + 1, …, n}}: window({w}) + dilated({wd}, {r}) on n − g "
                      "positions has no proved closed form for its group (Theorems F9, F15 do not apply)")
    line = _line_group(g, flat)
    if line is not None:
        return line
    return (f"the group of the positions {{g + 1, …, n}}: {_base_text(flat)} on n − g positions has no "
                  "proved closed form for its group")


def _line_group(g: int, flat: list) -> Optional[tuple]:
    """Theorem F43: a base of non-cyclic windows, dilations and offsets is `offsets S` on the m = n − g positions
    of R (F30 (c)); where F41 proves its group (the reflection when S = −S, else trivial) for m ≥ m₀, and no
    position of R attends to all of R (m ≥ |S| + 2), G = S_g × that group for n ≥ g + m₀."""
    from .closed_forms import _Atom, _span
    from .families import _fact, _globals_generators, line_jumps
    from .offsets_line import line_data
    jumps = line_jumps([_Atom(kind, tuple(Integer(x) for x in args)) for kind, args in flat])
    if not jumps:
        return None
    data = line_data(tuple(jumps))
    if data is None or data.low_group is None:
        return None
    low = Integer(g + max(min(data.low, data.low_group), len(jumps) + 2))
    if data.symmetric:
        return low, "reflection", None, None
    name = "trivial" if g == 1 else f"S_{g} on {_span(1, g)}"
    return low, name, lambda n: _fact(Integer(g)), _globals_generators(Integer(g))


def _dilated_name(g: int, w: int, r: int) -> str:
    return (f"{_globals_text(g)}the automorphisms of the residue classes mod {r} of {{{g + 1}, …, n}}, each a path "
            f"(in increasing order) with arcs between members at most {w} apart (a class reversed, or exchanged with a "
            f"class of equal size{'; position 1 fixed' if g == 1 else ''})")


def _dilated_order(n, g: int, r: int) -> sympy.Expr:
    from .families import _fact
    pieces = []
    for m in range(r):
        e = (m - g) % r
        pieces.append((_fact(Integer(g)) * Integer(2) ** r * _fact(Integer(e)) * _fact(Integer(r - e)),
                       sympy.Eq(sympy.Mod(n, r), m)))
    return sympy.Piecewise(*pieces)


def local_theorem(n, g: int, parts: list):
    """F31 with F32's group when it is proved (else the group is left open, with the question)."""
    from .families import FamilyTheorem
    r = max(reach(kind, args) for kind, args in parts)
    if r < 1:
        return None
    cyclic = any(kind in CYCLIC for kind, _ in parts)
    low = Integer(local_low(g, r, cyclic))
    root, (a, b) = local_witness(g, r)
    family = f"{_base_text(parts)} + global(g), offsets at most r"
    params = (("g", Integer(g)), ("r", Integer(r)))
    why = (f"the swap ({a} {b}) of two positions at more than 2r = {2 * r} from position {root} changes no "
           f"neighbourhood within distance 1 of {root} (the globals see everything; the others within r of {root} "
           f"attend within 2r of it), and is not in G ({a} and {b} attend to different positions): D = 2 layers "
           f"are not enough, D + 1 = 3 suffice (Theorem F31)")
    found = local_group(g, parts)
    if isinstance(found, str):
        return FamilyTheorem("F31", family, params, low, Integer(2), None, None, (), Integer(3), True, why,
                             open_question=f"{found} ({SECTION}, Theorem F30; open question O7)",
                             witness=(Integer(root), (Integer(a), Integer(b))))
    glow, name, order, gens = found
    size = order(n) if order is not None else None
    if name == "reflection":
        name, size, gens = _reflection_group(g, n)
    from .cyclic_hubs import cyclic_base, mixed_base
    hole = cyclic and cyclic_base(parts, g)   # the group is Theorem F62's (graphs/cyclic_hubs.py)
    mixed = cyclic and mixed_base(parts, g)   # ... or Theorem F230's
    if hole:
        family += "; the other positions: a circulant with the hole {1, …, g} (Theorem F62)"
    elif mixed:
        family += ("; the other positions: a circulant with the hole {1, …, g} and non-cyclic jumps above g "
                   "(Theorem F230)")
    return FamilyTheorem("F62" if hole else "F230" if mixed else "F31", family, params, sympy.Max(low, glow), Integer(2), name, size, gens,
                         Integer(3), True, why, witness=(Integer(root), (Integer(a), Integer(b))))


def window_strided_group_low(w: int, s: int) -> Optional[int]:
    """The range (in the number m of positions) of the reflection for window(w) + strided(s): F7's group
    range when its base case is settled (2 ≤ s ≤ w + 1), s(4w + 3) for F11 and F14; None when not proved."""
    from .families import strided_base_check
    if 2 <= s <= w + 1:
        extent = strided_base_check(w, s)
        if extent is None:
            return None
        d_star = w + 1 if (w + 1) % s else w + 2
        return max(d_star + 1, s * (4 * w + 3), extent, 2 * w + 1)
    return s * (4 * w + 3)


def window_strided_witness(g: int, w: int, s: int) -> Optional[tuple[int, tuple[int, int], int]]:
    """F33's view witness at D = 2 layers: (position, (a, b), the least n it needs), or None (s ≤ w + 2,
    except (w, s) = (1, 3))."""
    if (w, s) == (1, 3):
        return g + 1, (g + 3, g + 5), g + 9
    if s < w + 3:
        return None
    u = g + s + w + 2                   # relative position s + w + 2 ≡ w + 2 (mod s)
    v = u + s if s >= 2 * w + 2 else u + 1
    return g + 1, (u, v), g + 2 * s + w + 2


def window_strided_two_layers(w: int, s: int) -> Optional[int]:
    """F33 (b): the range in m (positions of the base) from which Theorem F7 (2 ≤ s ≤ w + 1) or Theorem F81 (s = w + 2)
    proves that no view witness exists at depth 2 for window(w) + strided(s), or None (not proved for these
    parameters)."""
    from .families import FamilyTheorem, _window_strided
    from .strided_least import wide_stride_rigid
    if s == w + 2 and wide_stride_rigid(w):  # Theorem F81: no depth-2 witness at any m ≥ s(4w + 3)
        return s * (4 * w + 3)
    if not 2 <= s <= w + 1:
        return None
    base = _window_strided(sympy.Symbol("m", integer=True, positive=True), w, s)
    if isinstance(base, FamilyTheorem) and base.least and base.layers == 2 and base.group is not None:
        return int(base.low)
    return None


def window_strided_theorem(n, g: int, w: int, s: int):
    """F33: window(w) + strided(s) + global(g), integers w ≥ 1, s ≥ 2, g ≥ 1."""
    from .families import FamilyTheorem
    mlow = window_strided_group_low(w, s)
    family = "window(w) + strided(s) + global(g)"
    params = (("w", Integer(w)), ("s", Integer(s)), ("g", Integer(g)))
    found = window_strided_witness(g, w, s)
    two = window_strided_two_layers(w, s)
    base_low = g + (mlow if mlow is not None else s * (4 * w + 3))
    if mlow is not None and two is not None:
        name, order, gens = _reflection_group(g, n)
        return FamilyTheorem(
            "F33", family, params, Integer(max(base_low, g + two)), Integer(2), name, order, gens, Integer(2), True,
            "a permutation meeting the witness condition keeps the globals (the only positions that see everything) "
            f"and, on the other positions, meets the condition of window({w}) + strided({s}) there, which forces it "
            f"into that pattern's group (Theorem {'F81' if s == w + 2 else 'F7'}'s layer proof): no view witness, D = 2 "
            "layers suffice (Theorem F33)")
    low = base_low if found is None else max(base_low, found[2])
    if found is None:
        layers_open = (f"whether D = 2 layers suffice is not proved here for window({w}) + strided({s}) ({SECTION}, "
                       "Theorem F33, open question O7; the concrete engine finds 2 at every n it ran); D + 1 = 3 suffice")
    if mlow is None:
        question = (f"the group of window({w}) + strided({s}) on the positions {{g + 1, …, n}} is not proved (Theorem "
                    f"F7's base case is not settled; {SECTION}, open question O2)")
        if found is None:
            return FamilyTheorem("F33", family, params, Integer(low), Integer(2), layers=Integer(3), least=False,
                                 why_layers="the view argument (D + 1 layers suffice)",
                                 open_question=question + "; " + layers_open)
    name, order, gens = _reflection_group(g, n)
    if found is None:
        return FamilyTheorem("F33", family, params, Integer(low), Integer(2), name, order, gens, Integer(3), False,
                             "the view argument (D + 1 layers suffice)", open_question=layers_open)
    root, (a, b), _ = found
    why = (f"the swap ({a} {b}) changes no neighbourhood within distance 1 of position {root} (the globals, the "
           f"window of {root} and its residue class mod {s} see both or neither) and is not in G: D = 2 layers are "
           f"not enough, D + 1 = 3 suffice (Theorem F33)")
    if mlow is None:
        return FamilyTheorem("F33", family, params, Integer(low), Integer(2), None, None, (), Integer(3), True, why,
                             open_question=question, witness=(Integer(root), (Integer(a), Integer(b))))
    return FamilyTheorem("F33", family, params, Integer(low), Integer(2), name, order, gens, Integer(3), True, why,
                         witness=(Integer(root), (Integer(a), Integer(b))))
