"""Standard families whose sizes are declared parameters (`param b integer >= 2`, then `blocks(b) +
global(1)`): Theorems F47–F49 of docs/theory.md §11.11, each the literal-size theorem's proof read with
the size as a symbol (F47–F52), with its range of n in the parameters and the least parameter value it needs.

* F47 ``blocks(b) + global(g)`` (b or g a parameter; b ≥ 2): F4 for every b ≥ 2, g ≥ 1. For
  n ≥ b(⌊g/b⌋ + 2) + 1: D = 2, G = S_g on the globals × the automorphisms of the disjoint cliques on the
  pieces (the blocks minus the globals), 3 layers, least (the swap of the first non-global position with
  the first position of the next-to-last block is a view witness at position n). The order by cases:
  whether b | g (the first piece is a whole block), b | n (the last is), b | n + g (they have one size).
* F48 ``strided(s) + global(g)`` (s or g a parameter; s ≥ 3): F23 for every s ≥ 3, g ≥ 1. For
  n ≥ g + s + 1: D = 2, G = S_g × the automorphisms of the disjoint cliques on the residue classes mod s
  of {g + 1, …, n}, order g!·((q + 1)!)^e·e!·(q!)^(s − e)·(s − e)! with n − g = qs + e, 3 layers, least
  (the swap (g+1 g+3) at position g + 2). At s = 2 the least count is 2 (F23), so s ≥ 3 is required.
* F49 ``offsets {1, s} cyclic`` or ``{−1, −s}`` (s a parameter; s ≥ 2): F8 for every s ≥ 3 and F6 (w = 2)
  at s = 2. For n ≥ max(s² + 1, 6): D = q + max(r, s − 2) with n − 1 = qs + r, G = C_n, D layers, least.

* F50 ``window(w) + strided(s)`` (w a literal, s a parameter; s ≥ w + 2): F11 and F14 for every such s. For
  n ≥ s(4w + 3): D ≤ M + 1, M = 1 + ⌈⌊s/2⌋/w⌉ (an upper bound: which residues of n mod s give M + 1 is computed
  per pair), G = the reflection, M + 1 layers (F53 (a) and F54 (a): D layers where D = M + 1; not shown least:
  least for odd s with w | ⌊s/2⌋ and for s = 2w + 1 or w + 3 ≤ s ≤ 2w, open for even s ≥ 2w + 2).
* F51 ``offsets {−s, −1, 1, s} cyclic`` (s a parameter; s ≥ 3): F12 (b) and a walk bound. For n ≥ s² + s + 2:
  D ≤ ⌊n/(2s)⌋ + ⌈s/2⌉ (an upper bound), G = D_n, bound + 1 layers (not shown least).

* F52 ``window(w) + dilated(w′, r)`` (w a parameter, w′ and r literals; w ≥ w′r − 1): the union is the window of
  radius m = max(w, w′r); for n ≥ 2m + 1: D = ⌈(n − 1)/m⌉, G = the reflection, D layers, least.

A parameter whose declared least value is below what the theorem needs gets an ``OpenFamily`` saying
which value changes the answer and what to declare. Families with parameter sizes that are not here
(window + strided with w named, window + dilated, other named jumps) stay open:
docs/theory.md §11.11, open question O10.

Nothing here reads user text; the expressions are built from SymPy constructors.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import sympy
from sympy import Integer, ceiling, floor

from .closed_forms import _span

SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class OrderCase:
    """One case of a group order: it holds when every ``divides`` pair (m, x) has m | x and no ``not_divides``
    pair does; the cases are tried in order, the last one has no conditions."""
    order: sympy.Expr
    divides: tuple = ()
    not_divides: tuple = ()


def _divides(m, x) -> sympy.Basic:
    return sympy.Eq(sympy.Mod(x, m), 0)


def order_piecewise(cases: Sequence[OrderCase]) -> sympy.Expr:
    """The cases as one Piecewise (for evaluation at integer values)."""
    pieces = []
    for c in cases:
        conds = [_divides(m, x) for m, x in c.divides] + [sympy.Not(_divides(m, x)) for m, x in c.not_divides]
        pieces.append((c.order, sympy.And(*conds) if conds else sympy.true))
    return sympy.Piecewise(*pieces)


def _show(e) -> str:
    from ..show import show_size
    return show_size(e).replace(" - ", " − ")


def _factor_text(e) -> str:
    from ..groups import order_text
    return str(order_text(e))


def order_cases_text(cases: Sequence[OrderCase]) -> str:
    """"6 · 24^M · M! when b | n; … otherwise": the conditions in words, never SymPy's Piecewise."""
    out = []
    for c in cases:
        conds = [f"{_show(m)} | {_show(x)}" for m, x in c.divides] + [f"{_show(m)} ∤ {_show(x)}" for m, x in c.not_divides]
        out.append(f"{_factor_text(c.order)} " + (f"when {' and '.join(conds)}" if conds else "otherwise"))
    return "; ".join(out)


def _value(x, lower: Mapping[str, int]) -> int:
    """The least value a size can take: the integer itself, or the declared lower bound of its symbol."""
    if isinstance(x, (int, Integer)) or (isinstance(x, sympy.Basic) and x.is_Integer):
        return int(x)
    return int(lower.get(x.name, 1)) if isinstance(x, sympy.Symbol) else 1


def _is_param(x) -> bool:
    return isinstance(x, sympy.Symbol)


def match_parametric(kinds: list, by: dict, n, lower: Mapping[str, int]):
    """The parameter-size theorem for these atoms (a FamilyTheorem or an OpenFamily), or None when no size
    is a parameter or the family is not one of F47–F49."""
    args = [x for a in by.values() for x in a.args]
    if not any(isinstance(x, sympy.Basic) and x.free_symbols for x in args):
        return None
    if kinds == ["blocks", "global"]:
        return _blocks_global(n, by["blocks"].args[0], by["global"].args[0], lower)
    if kinds == ["global", "strided"]:
        return _strided_global(n, by["strided"].args[0], by["global"].args[0], lower)
    if kinds == ["coffsets"]:
        found = _symmetric_two_jumps(n, by["coffsets"].args, lower)
        return found if found is not None else _two_jumps(n, by["coffsets"].args, lower)
    if kinds == ["strided", "window"]:
        return _window_strided(n, by["window"].args[0], by["strided"].args[0], lower)
    if kinds == ["dilated", "window"]:
        wd, r = by["dilated"].args
        return _window_dilated(n, by["window"].args[0], wd, r, lower)
    return None


def _need(name: str, least: int, why: str, family: str):
    from .families import OpenFamily
    return OpenFamily(family, f"the answer changes at {name} < {least} ({why}), so one verdict for every declared "
                              f"value cannot be stated: declare `param {name} integer >= {least}` or give {name} a value "
                              f"({SECTION}, Theorem F4{'7' if 'blocks' in family else '8'}; open question O10 (e))")


# ---------------------------------------------------------------------------------------------
# F47: blocks(b) + global(g)

def blocks_global_low(b, g) -> sympy.Expr:
    """F4/F47's range: n ≥ b(⌊g/b⌋ + 2) + 1 (at least three pieces)."""
    return b * (floor(g / b) + 2) + 1


def blocks_global_cases(n, b, g, lower: Mapping[str, int] = {}, shown: bool = False) -> list[OrderCase]:
    """|G| of F47 by cases: with f = b − (g mod b) the first piece's size, M = ⌈n/b⌉ − ⌊g/b⌋ − 2 the whole
    blocks strictly between the first and the last piece, and ρ = n − b(⌈n/b⌉ − 1) the last piece's size.
    When g is an integer below b's declared least value, ⌊g/b⌋ = 0 and f = b − g, and the cases with b | g
    drop out. ``shown``: M, ρ (and f when it is not b − g) as named symbols, for the text."""
    from .families import _fact
    small_g = _value(g, lower) == g and _value(b, lower) > int(g) if not _is_param(g) else False
    if small_g:
        k, f = Integer(0), b - g
    else:
        k, f = floor(g / b), b - sympy.Mod(g, b)
    whole = ceiling(n / b) - k - 2
    rho = n - b * (ceiling(n / b) - 1)
    if shown:
        whole, rho = sympy.Symbol("M"), sympy.Symbol("ρ")
        if not small_g:
            f = sympy.Symbol("f")
    gf = _fact(g)
    cases = [] if small_g else [
        OrderCase(gf * _fact(b) ** (whole + 2) * _fact(whole + 2), ((b, g), (b, n))),
        OrderCase(gf * _fact(b) ** (whole + 1) * _fact(whole + 1) * _fact(rho), ((b, g),)),
    ]
    return cases + [
        OrderCase(gf * _fact(f) * _fact(b) ** (whole + 1) * _fact(whole + 1), ((b, n),)),
        OrderCase(gf * _fact(f) ** 2 * 2 * _fact(b) ** whole * _fact(whole), ((b, n + g),)),
        OrderCase(gf * _fact(f) * _fact(rho) * _fact(b) ** whole * _fact(whole)),
    ]


def blocks_global_order_text(n, b, g, lower: Mapping[str, int]) -> str:
    """F47's order in words: the cases with M, ρ (and f) named, and what they stand for."""
    small_g = not _is_param(g) and _value(b, lower) > int(g)
    k = Integer(0) if small_g else floor(g / b)
    nb, bb = _show(n), _show(b)
    bb = bb if bb.isalnum() else f"({bb})"
    names = [f"M = {_show(ceiling(n / b) - k - 2)} (the whole blocks between the first and the last piece)",
             f"ρ = {nb} − {bb}·(⌈{nb}/{bb}⌉ − 1) (the last block's size)"]
    if not small_g:
        names.append(f"f = {_show(b)} − ({_show(g)} mod {_show(b)}) (the first piece's size)")
    return order_cases_text(blocks_global_cases(n, b, g, lower, shown=True)) + "; with " + ", ".join(names)


def _blocks_global(n, b, g, lower: Mapping[str, int]):
    from .families import FamilyTheorem
    family = "blocks(b) + global(g)"
    if _value(b, lower) < 2:
        return _need(sympy.sstr(b), 2, "blocks(1) has no arcs, and the pattern is global(g): Theorem F1, 2 layers",
                     family)
    if _value(g, lower) < 1:
        return None
    cases = blocks_global_cases(n, b, g, lower)
    k0b = b * (floor(g / b) + 1) if _is_param(g) or _value(b, lower) <= int(g) else b
    globals_ = "" if g == 1 else f"S_{_show(g)} on {_span(1, g, _show)} × "
    group = (f"{globals_}the automorphisms of the disjoint cliques {_span(g + 1, k0b, _show)}, "
             f"{_span(k0b + 1, k0b + b, _show)}, …, {_span(b * ceiling(n / b) - b + 1, n, _show)} "
             f"(the blocks of {_show(b)} minus the globals; cliques of equal size may be exchanged"
             + ("; position 1 fixed)" if g == 1 else ")"))
    a = b * (ceiling(n / b) - 2) + 1
    low = blocks_global_low(b, g) if _is_param(g) or _value(b, lower) <= int(g) else 2 * b + 1
    return FamilyTheorem(
        "F47", family, (("b", b), ("g", g)), low, Integer(2), group,
        order_piecewise(cases), (), Integer(3), True,
        "the swap of the first non-global position g + 1 with the first position of the next-to-last block "
        "changes no neighbourhood within distance 1 of position n (the globals see everything; the last piece "
        "is fixed pointwise), and is not in G (it carries an arc inside the next-to-last block to one between "
        "two pieces): D = 2 layers are not enough, D + 1 = 3 suffice",
        witness=(n, (a, g + 1)), order_cases=tuple(cases), order_shown=blocks_global_order_text(n, b, g, lower))


# ---------------------------------------------------------------------------------------------
# F48: strided(s) + global(g)

def strided_global_order(n, s, g) -> sympy.Expr:
    """g!·((q + 1)!)^e·e!·(q!)^(s − e)·(s − e)! with n − g = qs + e, 0 ≤ e < s."""
    from .families import _fact
    q = floor((n - g) / s)
    e = n - g - s * q
    return _fact(g) * _fact(q + 1) ** e * _fact(e) * _fact(q) ** (s - e) * _fact(s - e)


def _strided_global(n, s, g, lower: Mapping[str, int]):
    from .families import FamilyTheorem
    family = "strided(s) + global(g)"
    if s == 2:
        return _strided2_global(n, g)
    if _value(s, lower) < 3:
        return _need(sympy.sstr(s), 3, "strided(1) is complete, and at s = 2 two layers suffice (Theorem F23) where "
                                       "s ≥ 3 needs three", family)
    globals_ = "" if g == 1 else f"S_{_show(g)} on {_span(1, g, _show)} × "
    group = (f"{globals_}the automorphisms of the disjoint cliques formed by the residue classes mod {_show(s)} of "
             f"{_span(g + 1, n, _show)} (cliques of equal size may be exchanged"
             + ("; position 1 fixed)" if g == 1 else ")"))
    return FamilyTheorem(
        "F48", family, (("s", s), ("g", g)), g + s + 1, Integer(2), group, strided_global_order(n, s, g),
        (), Integer(3), True,
        "the swap (g+1 g+3) of positions of two residue classes other than that of g + 2 changes no neighbourhood "
        "within distance 1 of position g + 2 (the globals and its class), and is not in G (g + 1 ~ g + 1 + s is "
        "carried to a non-arc, as s ≥ 3): D = 2 layers are not enough, D + 1 = 3 suffice",
        witness=(g + 2, (g + 1, g + 3)))


def _strided2_global(n, g):
    """F48 at s = 2 (F23's argument for s = 2, which does not use the value of g): 2 layers, least."""
    from .families import FamilyTheorem
    globals_ = "" if g == 1 else f"S_{_show(g)} on {_span(1, g, _show)} × "
    group = (f"{globals_}the automorphisms of the disjoint cliques formed by the residue classes mod 2 of "
             f"{_span(g + 1, n, _show)} (cliques of equal size may be exchanged)")
    return FamilyTheorem(
        "F48", "strided(s) + global(g)", (("s", Integer(2)), ("g", g)), g + 3, Integer(2), group,
        strided_global_order(n, Integer(2), g), (), Integer(2), True,
        "at a non-global position the view holds the globals (the only universal positions) and the position's "
        "residue class, so a permutation meeting the witness condition keeps the globals, maps that class onto a "
        "class and hence the other class onto the other: it is an automorphism, no view witness exists, and "
        "D = 2 layers suffice")


# ---------------------------------------------------------------------------------------------
# F49: offsets {1, s} cyclic (or {−1, −s})

def two_jump_low(s) -> sympy.Expr:
    """F49's range: n ≥ max(s² + 1, 6) (F8's s² + 1 for s ≥ 3; F6's 2w + 2 = 6 at s = 2)."""
    return sympy.Max(s ** 2 + 1, 6)


def _two_jumps(n, ks: tuple, lower: Mapping[str, int]):
    from .families import FamilyTheorem, two_jump_diameter
    if len(ks) != 2:
        return None
    one = [k for k in ks if k in (Integer(1), Integer(-1))]
    other = [k for k in ks if k not in one]
    if len(one) != 1 or len(other) != 1:
        return None
    sign, k = int(one[0]), other[0]
    s = k if sign > 0 else -k
    if not _is_param(s):
        return None  # −s with a positive s next to +1, or a jump of another shape: not this family
    family = f"offsets {{{sign}, {sympy.sstr(k)}}} cyclic"
    if _value(s, lower) < 2:
        from .families import OpenFamily
        return OpenFamily(family, f"at {s} = 1 the two jumps coincide (one jump: Theorem F6 with another range), so one "
                                  f"verdict for every declared value cannot be stated: declare `param {s} integer >= 2` "
                                  f"({SECTION}, Theorem F49; open question O10 (e))")
    d = two_jump_diameter(n, s)
    return FamilyTheorem(
        "F49", "offsets {1, s} cyclic" if sign > 0 else "offsets {−1, −s} cyclic", (("s", s),), two_jump_low(s), d,
        "C_n", n, ("(1 2 ... n)",), d, True,
        "the rooted view of a position has no automorphism but the identity (the levels of the lattice costs x + y "
        "of x + sy; the ends of level s − 1 tell the jumps 1 and s apart), so no view witness exists and D layers "
        "suffice (Theorem F8 for s ≥ 3, F6 at s = 2)")


# ---------------------------------------------------------------------------------------------
# F50: window(w) + strided(s), s ≥ w + 2, s named; F51: offsets {−s, −1, 1, s} cyclic, s named

def stride_bound(w, s) -> sympy.Expr:
    """F50's bound D ≤ M + 1, M = 1 + ⌈⌊s/2⌋/w⌉ (F11 and F14: D is M or M + 1 by the residue of n mod s); M + 1
    layers suffice (F53 (a), F54 (a))."""
    return 2 + ceiling(floor(s / 2) / w)


def _window_strided(n, w, s, lower: Mapping[str, int]):
    from .families import FamilyTheorem, OpenFamily
    family = "window(w) + strided(s)"
    if _is_param(w):
        return OpenFamily(family, "with the window radius named, every declaration allows w ≥ s − 1, Theorem F7's regime, "
                                  "whose group and layer count rest on finite checks made per pair (w, s) "
                                  f"({SECTION}, open questions O2 and O10 (a))")
    if not _is_param(s):
        return None
    if _value(s, lower) < int(w) + 2:
        return OpenFamily(family, f"the answer changes at {s} ≤ {int(w) + 1} (Theorem F7's regime, finite checks per pair, "
                                  f"and {s} = 1 is complete), so one verdict for every declared value cannot be stated: "
                                  f"declare `param {s} integer >= {int(w) + 2}` ({SECTION}, Theorem F50; open questions "
                                  "O2 and O10 (a))")
    bound = stride_bound(w, s)
    return FamilyTheorem(
        "F50", "window(w) + strided(s), s ≥ w + 2", (("w", w), ("s", s)), s * (4 * w + 3), bound, "reflection",
        Integer(2), ("i ↦ n + 1 − i",), bound, False,
        "M + 1 layers suffice, M = 1 + ⌈⌊s/2⌋/w⌉: D is M or M + 1 (Theorems F11 and F14); where D = M the view "
        "argument gives D + 1 = M + 1, and where D = M + 1 a rooted view fixes every position, so D layers suffice "
        "(Theorem F53 (a) for s ≤ 2w + 1, F54 (a) for s ≥ 2w + 2, proofs that take s as any integer in range)",
        open_question=("the exact diameter (M or M + 1 by a set of residues of n mod s computed per pair (w, s)), and "
                       "whether M layers suffice where D = M: they do not for odd s when w divides ⌊s/2⌋ (F54 (b)) nor "
                       "for s = 3 with w = 1 (F53), and are open at even s (F54 (c)), so M + 1 is least only on part "
                       f"of the declared values ({SECTION}, open question O10 (a))"),
        diameter_exact=False)


def symmetric_two_jump_bound(n, s) -> sympy.Expr:
    """F51's bound: D ≤ ⌊n/(2s)⌋ + ⌈s/2⌉ (a position t ≤ n/2 away costs ⌊t/s⌋ + min(r, s + 1 − r), and
    min(r, s + 1 − r) ≤ ⌊(s + 1)/2⌋ = ⌈s/2⌉)."""
    return floor(n / (2 * s)) + ceiling(s / 2)


def _symmetric_two_jumps(n, ks: tuple, lower: Mapping[str, int]):
    from .families import FamilyTheorem, OpenFamily
    if len(ks) != 4 or Integer(1) not in ks or Integer(-1) not in ks:
        return None
    others = [k for k in ks if k not in (Integer(1), Integer(-1))]
    names = {x for k in others for x in k.free_symbols}
    if len(names) != 1:
        return None
    s = names.pop()
    if set(others) != {s, -s}:
        return None
    family = "offsets {−s, −1, 1, s} cyclic"
    if _value(s, lower) < 3:
        return OpenFamily(family, f"the answer changes at {s} ≤ 2 (the jumps coincide at {s} = 1; {{±1, ±2}} is the cyclic "
                                  f"window of radius 2), so one verdict for every declared value cannot be stated: declare "
                                  f"`param {s} integer >= 3` ({SECTION}, Theorem F51; open question O10 (c))")
    bound = symmetric_two_jump_bound(n, s)
    return FamilyTheorem(
        "F51", family, (("s", s),), s ** 2 + s + 2, bound, "D_n", 2 * n, ("(1 2 ... n)", "i ↦ n + 1 − i"),
        bound + 1, False,
        "the view argument with the bound ⌊n/(2s)⌋ + ⌈s/2⌉ on the diameter (every position is at most ⌊n/2⌋ "
        "away around the ring, reached with ⌊t/s⌋ jumps and min(r, s + 1 − r) steps), so D + 1 layers suffice",
        open_question=("the exact diameter ⌊n/(2s)⌋ + h_s(n mod 2s) (Theorem F12 (a), h_s tabulated per s) is not "
                       f"stated in closed form in s ({SECTION}, open question O10 (c)); D layers suffice for each "
                       "integer s ≥ 4 (F12 (c)), but D is not named here"),
        diameter_exact=False)


# ---------------------------------------------------------------------------------------------
# F52: window(w) + dilated(w', r) with w named, w ≥ w'r − 1: the window of radius max(w, w'r)

def _window_dilated(n, w, wd, r, lower: Mapping[str, int]):
    from .families import FamilyTheorem, OpenFamily
    if not (_is_param(w) and not _is_param(wd) and not _is_param(r)):
        return None  # a named dilation or step: open (O3, O10 (b)), as the literal-size path says
    top = int(wd) * int(r)
    if _value(w, lower) < top - 1:
        return OpenFamily("window(w) + dilated(w', r)",
                          f"with {w} named from {_value(w, lower)}, the values {w} < {top - 1} give Theorem F9's or F15's "
                          f"pattern, whose constants are computed per triple; declare `param {w} integer >= {top - 1}` "
                          f"(then the union is a window, Theorem F52) ({SECTION}, open question O3; with named sizes, "
                          "O10 (b))")
    radius = w if _value(w, lower) >= top else sympy.Max(w, top)
    d = ceiling((n - 1) / radius)
    return FamilyTheorem(
        "F52", "window(w) + dilated(w', r), w ≥ w'r − 1: the window of radius max(w, w'r)",
        (("w", w), ("w'", Integer(int(wd))), ("r", Integer(int(r)))), 2 * radius + 1, d, "reflection", Integer(2),
        ("i ↦ n + 1 − i",), d, True,
        "the union has the arcs of the window of radius max(w, w'r) (every multiple of r up to w'r is at most w, or is "
        "w'r = w + 1), a straight-ordered pattern: no view witness exists and D layers suffice (§11.2, item 4; "
        "Theorem F20)")


def parameter_names(theorem) -> list[str]:
    """The declared parameters a theorem's values depend on."""
    return sorted({x.name for _, x in theorem.params if isinstance(x, sympy.Symbol)})


