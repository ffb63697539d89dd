"""Standard pattern families at symbolic n: connectivity, diameter, exact group and least layers.

Each theorem here is proved in docs/theory.md §11.11 ("Standard families at symbolic n"); this module
only recognises the family, checks the parameter ranges, and states the theorem's values with the
range of n where they hold. A family is one head (or several identical heads), no bias, no
positional encoding. For n below the range the values differ or are not proved: the concrete engine
decides each such n (``small_cases`` lists them when the parameters are integers).

Theorems (Γ has the arc j → i when i attends to j; all these patterns are symmetric):

* F1 ``global(g)`` (``star`` = global(1)), g ≥ 1, n ≥ g + 2: D = 2, G = S_g on {1..g} × S_(n−g)
  on {g+1..n}, 2 layers, least.
* F2 ``window(w) + global(g)``, w, g ≥ 1, n ≥ g + 2w + 3: D = 2, G = S_g on {1..g} × the reflection
  of {g+1..n}, 3 layers, least (the swap (g+1 g+2) is a view witness at g + 2w + 3).
* F3 ``window(w) cyclic + global(g)`` with g ≥ w: the same graph as F2 (every wrap-around arc has
  an end in 1..w ⊆ globals), so F2's values.
* F4 ``blocks(b) + global(g)``, b ≥ 2, g ≥ 1 (integers), n ≥ b(⌊g/b⌋ + 2) + 1 (at least three
  blocks meet the non-globals): D = 2, G = S_g on {1..g} × Aut(disjoint cliques: the blocks minus
  the globals), 3 layers, least.
* F5 ``window(w) cyclic``, n ≥ 2w + 3: D = ⌈⌊n/2⌋/w⌉, G = D_n, D layers, least (§11.9).
* F6 ``offsets {1..w} cyclic`` (or {−w..−1}), n ≥ 2w + 2: D = ⌈(n−1)/w⌉, G = C_n, D layers, least.
* F8 ``offsets {1, s} cyclic`` (or {−1, −s}), s ≥ 3, n ≥ s² + 1: D = q + max(r, s − 2) with
  n − 1 = qs + r, G = C_n, D layers, least (s = 2 is F6).
* F12 ``offsets {−s, −1, 1, s} cyclic`` (the circulant C_n(1, s)), integer s ≥ 3, n ≥ s² + s + 2:
  D = ⌊n/(2s)⌋ + h_s(n mod 2s) (``symmetric_two_jump_diameter``; one closed form, tabulated by residue),
  G = D_n; for s ≥ 4, D layers, least; for s = 3, D + 1 layers (whether D suffice is not proved).
* F16 ``offsets {−3, −1, 1, 3} cyclic``, n ≥ 14: F12's D and G = D_n, and D layers, least.
* F17 ``offsets {a, b} cyclic`` (or {−a, −b}), integers 2 ≤ a < b, gcd(a, b) = 1, n ≥ max(b² + b + 1,
  ab − a + 1, (b − a)(b − 1) + 1): D = ⌊n/b⌋ + h(n mod b) (``general_two_jump_diameter``), G = C_n, D layers,
  least. With gcd(a, b) > 1, F27.
* F27–F29 (``graphs/circulant_general.py``) ``offsets S cyclic`` with any other integer S (and unions of cyclic
  offsets and cyclic windows, the circulant of the union of their jumps): strongly connected iff gcd(n, g) = 1
  (g = gcd(S); the range then says "n odd" or "gcd(n, g) = 1"), D = ⌊n/L⌋ + h(n mod L), G = C_n (D_n when
  S = −S) by a ball certificate, and D or D + 1 layers by residue, least, for n ≥ N₂.
* F13 (a lemma at an integer n) cyclic offsets K that a unit u of Z_n maps onto {1, s} or {±1, ±s} in the
  range of F8 or F12 at that n (``multiplier_image``): x ↦ ux is an isomorphism of circulants, so the
  image theorem's D, G and layers hold at n (e.g. ``offsets {2, 6} cyclic`` at odd n ≥ 10 is {1, 3}).
* F11 ``window(w) + strided(s)``, integers w + 2 ≤ s ≤ 2w + 1, n ≥ s(4w + 3): D = 3 when n mod s is in
  the set ``wide_stride_far`` gives, else D = 2; G = the reflection; 3 layers, least, by Theorem F53
  (``graphs/strided_least.py``) unless s = w + 2 with w ≥ 2, where Theorem F81 gives D layers, least.
* F14 ``window(w) + strided(s)``, integers w ≥ 1, s ≥ 2w + 2, n ≥ s(4w + 3): D = M + 1 when n mod s is in
  the set ``stride_beyond_far`` gives, else D = M, with M = 1 + ⌈⌊s/2⌋/w⌉; G = the reflection; M + 1 layers by
  Theorem F54 (``graphs/strided_least.py``), least when s is odd and w | ⌊s/2⌋; else least where D = M + 1, and where
  D = M Theorem F120 gives M (F98's premise) or M + 1 (F99's far swap), least, on the classes of n mod s its finite
  check decides, a least flag by class (M + 1 sufficient on the others: O11).
* F7 ``window(w) + strided(s)``, integers 2 ≤ s ≤ w + 1: D = 2 for n ≥ d* + 1 (d* the least d > w
  with s ∤ d); G = the reflection for n ≥ max(d* + 1, s(4w + 3), 1 + (w − 1)w, 2w + 1) when a finite
  base case (``strided_base_check``) is settled; on that range D = 2 layers suffice (least) for s = 2,
  and for 3 ≤ s ≤ w + 1 from n ≥ 6w + 4s + 1 too when a finite local check (``strided_views_check``: a
  search over class permutations for s ≤ 7, colour refinement for larger s and w ≤ 64) succeeds (it does for
  every (w, s) tried); beyond, whether D layers suffice is open (D + 1 suffice).
* F9 ``window(w) + dilated(w', r)``, integers 2 ≤ r ≤ w + 1 and w'r ≥ w + 2: with L = w'r and μ the
  least d ≤ L that is not a step, and a finite base case (``dilated_base_check``, radius R) settled,
  for n ≥ max(2L + 1, R·L + μ + 1): D = ⌊(n − 1 − μ)/L⌋ + 2, G = the reflection, D layers, least.
* F15 ``window(w) + dilated(w', r)``, integers w, w' ≥ 1, r ≥ w + 2, w'r ≤ 96: with the cost c on Z of the steps
  and μ', C fitted to its running maximum (``wide_dilation``), D = ⌊(n − 1 − μ')/L⌋ + C, G = the reflection,
  D layers, least, for n ≥ n₀ (``wide_dilation_low``: every hypothesis of the proof holds from there).
* F10 ``window(w) cyclic + global(g)`` for any w, g ≥ 1 (used when g ≥ w is not decided: g < w, or
  symbolic parameters), k = max(g, w), n ≥ k + 2w + 3: D = 2, G = S_g on {1..g} × the reflection of
  {g+1..n}, 3 layers, least (the swap (k+1 k+2) is a view witness at n); for g ≥ w it is F3.

* F40–F42 (``graphs/offsets_line.py``) ``offsets S`` on a line, and every union of non-cyclic windows, dilations and
  offsets (the jumps S of both signs, gcd 1; F9 and F15 first where they apply): d(j → i) = ℓ(j − i) for n ≥ a + b,
  D = ⌊n/a⌋ + h(n mod a) after the mirror (a ≤ b), G = the reflection when S = −S else trivial (F28's ball
  certificate), D or D + 1 layers by residue, least, from N₂ (down to the sharp onset by the concrete engine).
  F43 (``graphs/hub_unions.py``) adds globals to such a base; F44 (``graphs/blocks_strided.py``) is
  ``blocks(b) + strided(s)`` with b < s, b ∤ s.

* F20–F22 (``graphs/symbolic_unions.py``): straight-ordered patterns (D layers, least; G from the twin
  classes and the reversal), ``blocks(b) + window(w)`` (F21) and ``blocks(b) + window(w) + global(g)`` (F22);
  ``strided(s) + global(g)`` (F23), ``offsets {±1} cyclic + global(g)`` (F24), ``blocks(s) + strided(s)`` (F25).

* F74 (``graphs/strided_lines.py``) ``strided(s)`` with non-cyclic windows, dilations and offsets (not a window alone)
  whose jumps leaving a residue class have both signs and gcd 1: D by residue of n mod s (one breadth-first search
  per residue past N₀), G = the reflection or trivial (F41 for those jumps), D + 1 layers (whether D suffice open).
* F89 (``graphs/strided_unions.py``) two or more strides with gcd 1, not F73's two coprime ones alone, n ≥ L =
  lcm of the strides (after dropping multiples): D = the diameter of the residue graph Q on Z_L, G = the twin classes'
  symmetric groups (cells of one coset of the translations keeping Q's neighbourhoods) with the automorphisms of the
  quotient keeping their sizes, by residue of n mod L; D layers least by the common-neighbour lemma on Q, or D + 1
  least by a transposition witness on Q, else D + 1 sufficient.
* F90 (``graphs/strided_globals.py``, through ``hub_unions.match_hubs``) two or more strides with gcd 1 and
  ``global(g)``, n ≥ g + L: D = 2, G = S_g × F89's group on n − g positions, 2 layers least by the common-neighbour
  lemma with the globals left out, or 3 least by a transposition witness, else 3 sufficient.
* F91 (``graphs/strided_dilations.py``) F74's setting with the jumps leaving a class sharing a factor 2 ≤ r < s,
  gcd(r, s) = 1 (``strided(5) + dilated(2, 3)``): D by residue of n mod s (F74 (a)), G = the reflection or trivial,
  D + 1 layers (whether D suffice open). F92 (same module) the same with r > s (``strided(2) + dilated(1, 3)``): the
  lines of one class can be exchanged, so G = the maps of lines onto lines of the same length (in order, or reversed
  when S′ = −S′) moving the classes alike, of order constant by residue of n mod rs.
* F93 (``graphs/blocks_window_strided_classes.py``, through ``symbolic_unions.match_union``) ``blocks(b) + window(w) +
  strided(s)``, 3 ≤ b < s, 1 ≤ w ≤ b − 2: D by residue of n mod lcm(b, s) (breadth-first search at one n per residue),
  G = the permutations of the classes mod s keeping every twin run's residues of ``blocks(b) + window(w)``, with the
  reflection when b | n; D + 1 layers, least on F110's classes (a swap), and D layers, least, on F113's (the
  class-piece premise); whether D suffice on the other classes is open.
* F94 (``graphs/blocks_window_strided_cells.py``, through ``symbolic_unions.match_union``) ``blocks(b) + window(w) +
  strided(s)``, b > s ≥ 2w + 1: D = 2, G = the cells' symmetric groups of the positions without window edges between
  blocks (with the class permutations that keep them, and the reflection when b | n), 3 layers, least (an exchange of
  blocks).
* F100 (``graphs/blocks_window_strided_wide.py``, through ``symbolic_unions.match_union``) ``blocks(b) + window(w) +
  strided(s)``, b ≥ s, w + 2 ≤ s ≤ 2w: D = 2, G = the cells' symmetric groups of the positions without window edges
  between blocks (every class fixed), with the reflection when b | n; 3 layers, least when b > s (a swap inside the
  first block), not shown least when b = s.
* F119 (``graphs/blocks_window_strided_twins.py``, through ``symbolic_unions.match_union``) ``blocks(b) + window(w) +
  strided(s)``, b ≥ s, b ≥ w + 2, s ≤ w + 1, where its certificate (the blocks as the cliques of b positions meeting
  two classes; local orbits inside twin classes) holds: D = 2, G = ∏ Sym(twin class) with the reflection when b | n,
    3 layers, least where a swap in the first four blocks is a view witness; 2 layers, least, when s = 2 (F119 (d): the
  far positions lie in the other class, a clique).
* F101 (``graphs/cyclic_window_line.py``) ``window(w) cyclic`` with non-cyclic window, dilated and offsets parts whose
  offsets outside {−w, …, w} form A ≠ ∅: G = the reflection when A = −A, else trivial (the positions of largest degree
  are a line pattern with F41's group, the seam follows); D = ⌊n/P⌋ + h(n mod P), P = a + b, by Theorem F168
  (``graphs/cyclic_window_diameter.py``), D + 1 layers sufficient; where F168's base check is beyond its budget,
  D ≤ ⌈⌊n/2⌋/w⌉ (the cyclic window's), that plus one layers.
* F95 (``graphs/blocks_dilated_chains.py``) ``blocks(b) + dilated(w, r)``, integers r ≥ 2, 2wr ≤ b, n ≥ 2b: chains of blocks
  joined by the dilation's junctions (r half graphs each); D = 2⌈n/b⌉ − 2 or − 1 by residue, G = the junctions' class
  permutations and the blocks' free positions, with the reflection when b | n; D layers, least (far-clique lemma).
  F96 adds ``global(g)``: D = 2, G = S_g × the chain's group on {g + 1, …, n}, 3 layers, least (a swap witness).
* F115, F116 (``graphs/periodic_lines.py``, through ``symbolic_unions.match_union``) ``blocks(b)`` with non-cyclic window,
  dilated and offsets parts where no theorem above applies: D = c⌊n/(σQ)⌋ + h(n mod σQ) from min-plus powers of the
  transfer matrix between stretches of Q positions (one breadth-first search per residue), G = the ends' finite groups
    with the reflection when b | n and S = −S (a ball certificate with period b), D + 1 layers; D, least, by F118
  (``graphs/periodic_least.py``) where S = −S and no view witness exists at any length from the range's start to N₁ − 1
  (a witness past N₁ gives one a period earlier: the cut argument), also for F117 and F122.
* F117 (``graphs/periodic_exchanges.py``, after F116) the same unions when a periodic symmetry exchanges residues mod b:
  |G| by residue of n mod b (BLISS at b lengths, a certificate relative to the periodic symmetries), G an extension of
  the automorphisms fixing the deep positions by the periodic symmetries that extend; D by F115.
* F122 (``graphs/periodic_determined.py``, after F117) the same unions when F117's (C5) fails but every automorphism
  is a periodic symmetry (a patch of positions and a determining window W): G = the periodic symmetries keeping 1..n.
* F73 (``graphs/strided_pairs.py``) ``strided(s) + strided(t)``, integers 2 ≤ s < t coprime, n ≥ st: D = 2, G = the
  cells' symmetric groups (a cell: one residue mod s and one mod t) with the pairs of residue permutations that keep
  the cells holding one position more, by residue of n mod st; 2 layers, least.

Families whose closed forms are not proved (cyclic offsets with symbolic jumps or beyond F27's bounds, window + dilated
with symbolic parameters or beyond F15's computation, window + strided with symbolic w or s) get an ``OpenFamily`` that names the
open question; nothing is concluded from it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from math import gcd
from typing import Mapping, Optional, Sequence, Union

import sympy
from sympy import Integer, ceiling, floor

from ..claim import Claim, claim, written
from ..spec import Pattern
from .closed_forms import _Atom, _atoms, _is_int, _merge, _Undecided, _fact, _span
from ..bignum import factorial
from ..memo import exact_cache
from .normal_form import SET_WIDTH_LIMIT
from .array_sets import dense_ranks

Value = Union[int, sympy.Expr]
SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class FamilyTheorem:
    """A proved family theorem at the parameters given: for every n ≥ ``low`` the union pattern is
    strongly connected with directed diameter ``diameter``; when ``group`` is set, G is that group
    (named by structure) of order ``order``; when ``layers`` is set, that many attention layers
    suffice and are the least number (``least``)."""
    theorem: str                  # "F2"
    family: str                   # "window(w) + global(g)"
    params: tuple                 # ((name, value), ...)
    low: sympy.Expr               # the range: n ≥ low
    diameter: sympy.Expr
    group: Optional[str] = None
    order: Optional[sympy.Expr] = None
    generators: tuple = ()
    layers: Optional[sympy.Expr] = None
    least: bool = False
    why_layers: str | Claim = ""  # a claim where it holds formulas
    open_question: str = ""       # what the theorem leaves open (group, least layers)
    witness: Optional[tuple] = None  # (position, (a, b)): the swap that is a view witness at D layers
    n_symbol: sympy.Expr = Integer(0)  # the length the expressions are stated in
    image: tuple = ()             # F13: the offsets x ↦ u·x (mod n) maps the pattern's onto
    coprime_to: int = 1           # F27: the range is also gcd(n, coprime_to) = 1 (else not strongly connected)
    order_cases: tuple = ()       # F47: the order by divisibility cases (parametric_sizes.OrderCase), in order
    order_shown: str = ""         # F47: those cases in words, as the report shows the order
    diameter_exact: bool = True   # F50, F51: `diameter` is only an upper bound (the layers not least)
    class_witnesses: tuple = ()   # F25: ((modulus, residue, (position, (a, b))), ...): the swap witness on the
    #                               classes where the layers are D + 1 (`witness` is None there: it varies by class)
    group_open: tuple = ()        # F26 (w ≥ 2): (modulus, residues, why): `group` is not proved on n mod modulus
    #                               in residues, for the reason `why` (the verdict is INCONCLUSIVE there, by class)
    least_classes: tuple = ()     # (modulus, residues) with `least` False: the count is least on the classes n mod
    #                               modulus in residues and sufficient, not shown least, on the others (F67 at s | n)
    at_length: bool = False       # F164: proved at the one n given, by a check run at it (``low`` is that n), not on a
    #                               range of lengths
    periodic: tuple = ()          # F117: (R, ((sign, (a_1, …, a_b)), ...)): the certificate's radius and the periodic
    #                               symmetries modulo translation (kb + x ↦ sign·kb + a_x), which the verifier re-derives

    @property
    def section(self) -> str:
        return f"{SECTION}, Theorem {self.theorem}"

    def least_at(self, n: int) -> bool:
        """Whether the count is proved least at the integer length n: on every class, or on n's class."""
        return self.least or bool(self.least_classes and n % self.least_classes[0] in self.least_classes[1])

    def values(self) -> dict:
        return {k: v for k, v in self.params}


@dataclass(frozen=True)
class OpenFamily:
    """A standard family whose symbolic-n closed form is not proved: the open question, exactly."""
    family: str
    question: str


def _sym_text(e) -> str:
    return sympy.sstr(e).replace(" - ", " − ")


def _sub(e) -> str:
    """A subscript: S_7, S_(n − 1)."""
    text = _sym_text(e)
    return text if text.isalnum() else f"({text})"


def _param(atom: _Atom, k: int = 0):
    return atom.args[k]


def _ge(a, b) -> Optional[bool]:
    """a ≥ b decided exactly (integers, or SymPy's assumptions on positive integer symbols)."""
    d = sympy.sympify(a - b, strict=True)  # safe: strict (no text parsed)
    if d.is_nonnegative:
        return True
    if d.is_negative:
        return False
    return None


def match(heads: Sequence[Pattern], n: sympy.Expr, params: Optional[Mapping[str, Value]] = None,
          biases: Optional[Sequence[Optional[str]]] = None,
          positional: str = "none", lower: Optional[Mapping[str, int]] = None) -> Union[FamilyTheorem, OpenFamily, None]:
    """The family theorem for these heads (stated with the length ``n``, a positive integer Symbol
    or an Integer), an OpenFamily, or None (not a standard family). ``lower`` gives the declared least
    value of each parameter (default 1): the theorems with parameter sizes (F47–F52) need it."""
    try:
        key = (tuple(heads), n, tuple(sorted((params or {}).items())), tuple(biases or ()), positional,
               tuple(sorted((lower or {}).items())))
        hash(key)
    except TypeError:
        return _match_uncached(heads, n, params, biases, positional, lower or {})
    return _match_cached(key)


@lru_cache(maxsize=256)
def _match_cached(key: tuple):
    """`match` once per (heads, n, params, biases, positional, lower): the theorems are immutable values, and a
    derivation asks for the same one several times (the steps, their certificates' re-checks)."""
    heads, n, params, biases, positional, lower = key
    return _match_uncached(list(heads), n, dict(params), list(biases) or None, positional, dict(lower))


def _match_uncached(heads, n, params, biases, positional, lower):
    found = _parametric(heads, n, params, biases, positional, lower)
    if found is None:
        found = _match(heads, n, params, biases, positional)
    if isinstance(found, FamilyTheorem):
        return replace(found, n_symbol=n)
    return found


def _parametric(heads, n, params, biases, positional, lower):
    """Theorems F47–F49 (``graphs/parametric_sizes.py``): one family whose sizes are declared parameters."""
    if biases and any(b is not None for b in biases) or positional != "none" or not heads or len(set(heads)) != 1:
        return None
    try:
        atoms = _merge(_atoms(heads[0], dict(params or {})))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    by = {a.kind: a for a in atoms}
    if len(by) != len(atoms):
        return None
    from .parametric_sizes import match_parametric
    return match_parametric(sorted(by), by, n, lower)


def _match(heads, n, params, biases, positional):
    if biases and any(b is not None for b in biases):
        return None
    if positional != "none" or not heads or len(set(heads)) != 1:
        return None
    try:
        atoms = _merge(_atoms(heads[0], dict(params or {})))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    return _match_atoms(tuple(atoms), n)


@exact_cache(maxsize=256)
def _match_atoms(merged: tuple, n):
    """The theorem for one head's merged atoms at the length n: what ``_match`` decides reads the pattern only
    through its atoms (the parameters resolved), so the steps, their certificates' re-checks and the instance
    checks, which pass the parameters, biases and lower bounds in different but equivalent forms, compute each
    theorem once per process."""
    atoms = list(merged)
    kinds = sorted(a.kind for a in atoms)
    by = {a.kind: a for a in atoms}
    if kinds == ["global"]:
        return _global(n, _param(by["global"]))
    if kinds == ["global", "window"]:
        return _window_global(n, _param(by["window"]), _param(by["global"]), cyclic=False)
    if kinds == ["cwindow", "global"]:
        w, g = _param(by["cwindow"]), _param(by["global"])
        if _ge(g, w):
            return _window_global(n, w, g, cyclic=True)
        return _cyclic_window_global(n, w, g)
    if kinds == ["blocks", "global"]:
        b, g = _param(by["blocks"]), _param(by["global"])
        if _is_int(b) and _is_int(g) and int(b) >= 2:
            return _blocks_global(n, int(b), int(g))
        return OpenFamily("blocks(b) + global(g)", "the symbolic group is stated for integer b, g only "
                          f"({SECTION}, Theorem F4)")
    if kinds == ["cwindow"]:
        return _cyclic_window(n, _param(by["cwindow"]))
    if kinds == ["coffsets"]:
        return _cyclic_offsets(n, by["coffsets"].args)
    if len(atoms) >= 2 and set(kinds) <= {"coffsets", "cwindow"}:
        return _cyclic_union(n, atoms)
    if kinds == ["strided", "window"]:
        return _strided_family(n, _param(by["window"]), _param(by["strided"]))
    if "cwindow" in kinds and len(kinds) >= 2 and set(kinds) - {"cwindow"} <= {"window", "offsets", "dilated"}:
        found = _cyclic_window_line(n, atoms)
        if found is not None:
            return found
    several = len(kinds) >= 2 and set(kinds) == {"strided"}
    line = _strided_union(n, atoms) if several else _line_family(n, atoms, kinds, by)
    if line is not None:
        return line
    from .symbolic_unions import match_union  # F20–F22: unions of structured patterns
    return _or_hubs(match_union(kinds, by, n), kinds, atoms, n)


def _window_wrap(n, w, jumps) -> Optional[FamilyTheorem]:
    """Theorem F144: `window(w) + offsets S cyclic` with S inside {1, …, w} or inside {−w, …, −1} (integers): the cyclic
    offsets add only the arcs across the wrap, all in one direction; D = ⌈(n − 1)/w⌉, G trivial, D layers, least, for
    n ≥ 3w + 2. None otherwise."""
    if not _is_int(w) or not all(_is_int(k) for k in jumps):
        return None
    w, vals = int(w), sorted({int(k) for k in jumps} - {0})
    if w < 1 or not vals or not (all(1 <= k <= w for k in vals) or all(-w <= k <= -1 for k in vals)):
        return None
    diameter = ceiling((n - 1) / w)
    return FamilyTheorem(
        "F144", "window(w) + offsets S cyclic, S one-sided within w", (("w", Integer(w)),), Integer(3 * w + 2),
        diameter, "trivial", Integer(1), (), diameter, True,
        "the cyclic offsets add only arcs across the wrap, all one way: information never moves down faster than the "
        "window, so D = ⌈(n − 1)/w⌉; a permutation meeting the view condition keeps the window's adjacency on the "
        "ball, all but an end segment of at most w positions, so it is a translation or a reflection there, which the "
        "ends' neighbourhood sizes force to be the identity (Theorem F144)")


def _cyclic_window_line(n, atoms: list) -> Optional[FamilyTheorem]:
    """Theorem F101 (``graphs/cyclic_window_line.py``): one `window(w) cyclic` with non-cyclic window, dilated and
    offsets parts some of whose offsets lie outside {−w, …, w}; None otherwise."""
    from .cyclic_window_line import seam_data, theorem
    cyclic = [a for a in atoms if a.kind == "cwindow"]
    jumps = line_jumps([a for a in atoms if a.kind != "cwindow"])
    if len(cyclic) != 1 or jumps is None or not _is_int(cyclic[0].args[0]):
        return None
    data = seam_data(int(cyclic[0].args[0]), tuple(jumps))
    return None if data is None else theorem(n, data)


def _strided_pair(n, atoms: list):
    """Theorem F73 (``graphs/strided_pairs.py``): two coprime strides; None otherwise (a common factor is not
    strongly connected, ``graphs/closed_connectivity.py``)."""
    from .strided_pairs import applies, theorem
    strides = [a.args[0] for a in atoms]
    if not all(_is_int(x) for x in strides):
        return OpenFamily("strided(s) + strided(t)", f"the closed forms are stated for integer s, t only ({SECTION}, "
                          "Theorem F73)")
    s, t = sorted(int(x) for x in strides)
    return theorem(n, s, t) if applies(s, t) else None


def _strided_union(n, atoms: list):
    """Two or more strides: Theorem F73 for two coprime ones, Theorem F89 (``graphs/strided_unions.py``) for the
    others with gcd 1; None otherwise (a common factor is not strongly connected, ``graphs/closed_connectivity.py``)."""
    if len(atoms) == 2:
        found = _strided_pair(n, atoms)
        if found is not None:
            return found
    from .strided_unions import applies, theorem
    strides = [a.args[0] for a in atoms]
    if not all(_is_int(x) for x in strides):
        return OpenFamily("strided(s₁) + … + strided(s_k)", f"the closed forms are stated for integer strides only "
                          f"({SECTION}, Theorem F89)")
    return theorem(n, strides) if applies(strides) else None


def _or_hubs(found, kinds: list, atoms: list, n):
    """Theorems F30–F33 (globals added to a base, ``graphs/hub_unions.py``) where no theorem above decides:
    no family, or the open family of cyclic offsets other than {±1} with globals."""
    if found is None or (isinstance(found, OpenFamily) and kinds == ["coffsets", "global"]):
        from .hub_unions import match_hubs
        hub = match_hubs(atoms, n)
        if hub is not None:
            return hub
    return found


# ---------------------------------------------------------------------------------------------
# The theorems (proofs: docs/theory.md §11.11)

def stabilizer_name(k: int, n) -> Optional[str]:
    """The structural name of the stabilizer of position k in S_n, as the theorems print it (k = 1:
    the star's group "S_(n − 1) on {2, …, n}"); None for other k."""
    return f"S_{_sub(n - 1)} on {_span(2, n)}" if k == 1 else None


def _global(n, g) -> FamilyTheorem:
    if g == 1:
        group, gens = stabilizer_name(1, n), ("(2 3)", f"(2 3 … {sympy.sstr(n)})")
    else:
        group = f"S_{_sub(g)} on {_span(1, g)} × S_{_sub(n - g)} on {_span(g + 1, n)}"
        gens = _globals_generators(g) + (f"({sympy.sstr(g + 1)} {sympy.sstr(g + 2)})",
                                         f"({sympy.sstr(g + 1)} … {sympy.sstr(n)})")
    return FamilyTheorem(
        "F1", "star" if g == 1 else "global(g)", (("g", g),), g + 2, Integer(2), group,
        _fact(g) * _fact(n - g), gens, Integer(2), True,
        "at a non-global position the view fixes the global set; at a global one it is the whole graph")


def _words(size) -> str:
    """A position named by sizes as the claims' words write it ("g + 2·w + 3"; a product is a formula part)."""
    from ..show import show_size
    return show_size(size)


def _window_global(n, w, g, cyclic: bool) -> FamilyTheorem:
    group = (f"the reflection of {_span(2, n)}" if g == 1 else
             f"S_{_sym_text(g)} on {_span(1, g)} × the reflection of {_span(g + 1, n)}")
    fam = "window(w) cyclic + global(g), g ≥ w" if cyclic else "window(w) + global(g)"
    return FamilyTheorem(
        "F3" if cyclic else "F2", fam, (("w", w), ("g", g)), g + 2 * w + 3, Integer(2), group,
        2 * _fact(g), _globals_generators(g) + (f"i ↦ {sympy.sstr(n + g + 1)} − i on {_span(g + 1, n)}",),
        Integer(3), True,
        f"the swap ({_words(g + 1)} {_words(g + 2)}) can change only the neighbourhoods of {_words(g + 1)}, "
        f"{_words(g + 2)} and {_words(g + w + 2)}, all at distance 2 from {_words(g + 2 * w + 3)}, and is "
        "not in G: D = 2 layers are not enough, D + 1 = 3 suffice",
        witness=(g + 2 * w + 3, (g + 1, g + 2)))


def _cyclic_window_global(n, w, g) -> FamilyTheorem:
    """Theorem F10: `window(w) cyclic + global(g)` for any w, g ≥ 1 (g < w, or g ≥ w not decided),
    with k = max(g, w): for n ≥ k + 2w + 3, D = 2, G = S_g on the globals × the reflection of the
    others, 3 layers, least, with the view witness (k+1 k+2) at position n (for g ≥ w it is F3)."""
    k = sympy.Max(g, w)
    group = (f"the reflection of {_span(2, n)}" if g == 1 else
             f"S_{_sym_text(g)} on {_span(1, g)} × the reflection of {_span(g + 1, n)}")
    return FamilyTheorem(
        "F10", "window(w) cyclic + global(g)", (("w", w), ("g", g)), k + 2 * w + 3, Integer(2), group,
        2 * _fact(g), _globals_generators(g) + (f"i ↦ {sympy.sstr(n + g + 1)} − i on {_span(g + 1, n)}",),
        Integer(3), True,
        (f"the swap ({sympy.sstr(k + 1)} {sympy.sstr(k + 2)}) can change only the neighbourhoods of {sympy.sstr(k + 1)}, "
         f"{sympy.sstr(k + 2)} and {sympy.sstr(k + w + 2)} " if k.is_Integer else
         "with k = max(g, w), the swap (k+1 k+2) can change only the neighbourhoods of k + 1, k + 2 and k + w + 2 ") +
        "(the globals see both), none within distance 1 of position n, and is not in G: D = 2 layers are not "
        "enough, D + 1 = 3 suffice",
        witness=(n, (k + 1, k + 2)))


def _globals_generators(g) -> tuple:
    """Generators of S_g on the globals {1, …, g}; for a symbolic g each with the range where it is one
    (at g = 1 the group on the globals is trivial, and (1 2) would move a non-global position)."""
    if not isinstance(g, (int, sympy.Integer)):
        return (f"(1 2) if {sympy.sstr(g)} ≥ 2", f"(1 2 … {sympy.sstr(g)}) if {sympy.sstr(g)} ≥ 3")
    if g == 1:
        return ()
    if g == 2:
        return ("(1 2)",)
    return ("(1 2)", f"(1 2 … {sympy.sstr(g)})")


def _blocks_global(n, b: int, g: int) -> FamilyTheorem:
    k0 = g // b + 1                     # the block holding g + 1
    first = k0 * b - g                  # its non-global part: g + 1 .. k0·b
    blocks = ceiling(n / b)
    middle = blocks - k0 - 1            # full blocks strictly between
    # |G| = g! · ∏ over clique sizes s of (s!)^m_s · m_s!, per residue of n mod b
    if isinstance(n, (int, Integer)):
        # a concrete n: only its own residue, with no exact power or factorial of a huge size
        rho = int(n) - b * (int(blocks) - 1)
        counts_at: dict = {}
        for size, mult in ((first, 1), (b, int(middle)), (rho, 1)):
            counts_at[size] = counts_at.get(size, 0) + mult
        order = bounded_product(g, counts_at)
        pieces = [(order, sympy.true)]
    else:
        pieces = []
    for rho in range(1, b + 1) if not pieces else ():  # rho: the last piece's size, n - b(⌈n/b⌉ - 1)
        counts: dict = {}
        for size, mult in ((first, Integer(1)), (b, middle), (rho, Integer(1))):
            counts[size] = counts.get(size, Integer(0)) + mult
        order = _fact(g)
        for size, mult in counts.items():
            order *= _fact(size) ** mult * sympy.factorial(mult)
        pieces.append((order, sympy.Eq(sympy.Mod(n, b), rho % b)))
    order = pieces[0][0] if pieces[0][1] is sympy.true else sympy.Piecewise(*pieces)
    group = (f"{'' if g == 1 else f'S_{g} on {_span(1, g)} × '}the automorphisms of the disjoint cliques "
             f"{_span(g + 1, k0 * b)}, {_span(k0 * b + 1, (k0 + 1) * b)}, …, "
             f"{{{b}⌈{sympy.sstr(n)}/{b}⌉ − {b - 1}, …, {sympy.sstr(n)}}} (the blocks minus the globals; "
             f"cliques of equal size may be exchanged{'; position 1 fixed' if g == 1 else ''})")
    return FamilyTheorem(
        "F4", "blocks(b) + global(g)", (("b", b), ("g", g)), Integer(b * (g // b + 2) + 1), Integer(2), group,
        order, (), Integer(3), True,
        "a swap of a position of the first non-global block piece with one of the next-to-last block changes "
        "no neighbourhood within distance 1 of a position of the last block, and is not in G: D = 2 layers "
        "are not enough, D + 1 = 3 suffice",
        witness=None)


#: An order whose exact value would have more decimal digits than this is kept as a product of factorials and
#: their powers (printed by structure, as the concrete engine prints it, never computed digit by digit).
EXACT_ORDER_DIGITS = 1000


def bounded_product(g: int, counts: Mapping[int, int]) -> sympy.Expr:
    """g! · ∏_s (s!)^(m_s) · m_s! over the clique sizes s with multiplicities m_s (the order of S_g times
    the automorphisms of disjoint cliques): an Integer when it has at most EXACT_ORDER_DIGITS digits, else
    the unevaluated product ∏ m_s! · ∏_s (s!)^(c_s) over the class sizes s (the globals a class of size
    g), largest first."""
    import math
    counts = {s: m for s, m in counts.items() if m > 0}
    log_order = math.lgamma(g + 1) + sum(m * math.lgamma(s + 1) + math.lgamma(m + 1) for s, m in counts.items())
    if log_order / math.log(10) <= EXACT_ORDER_DIGITS:
        out = math.factorial(g)
        for size, mult in counts.items():
            out *= math.factorial(size) ** mult * math.factorial(mult)
        return Integer(out)
    parts = [factorial(Integer(m), evaluate=False) for _, m in sorted(counts.items(), reverse=True) if m >= 2]
    sizes = dict(counts)
    sizes[g] = sizes.get(g, 0) + 1
    for size, mult in sorted(sizes.items(), reverse=True):
        if size >= 2:
            fact = factorial(Integer(size), evaluate=False)
            parts.append(fact if mult == 1 else sympy.Pow(fact, Integer(mult), evaluate=False))
    return sympy.Mul(*parts, evaluate=False)


def _cyclic_window(n, w) -> FamilyTheorem:
    return FamilyTheorem(
        "F5", "window(w) cyclic", (("w", w),), 2 * w + 3, ceiling(floor(n / 2) / w), "D_n", 2 * n,
        ("(1 2 ... n)", "i ↦ n + 1 − i"), ceiling(floor(n / 2) / w), True,
        claim("the rooted view of a position has only the reflection through it as automorphism (§11.9: the "
              "colour-class argument for ", written("n ≥ 4w + 2", r"n \geq 4 w + 2"), ", the path argument for ",
              written("2w + 3 ≤ n ≤ 4w + 1", r"2 w + 3 \leq n \leq 4 w + 1"), "), so no view witness exists and D "
              "layers suffice"))


def _cyclic_offsets(n, ks) -> Union[FamilyTheorem, OpenFamily, None]:
    if not all(_is_int(k) for k in ks):
        return OpenFamily("offsets cyclic", f"symbolic offsets are not covered ({SECTION}, open question O1 (d))")
    vals = sorted({int(k) for k in ks})
    w = max(abs(v) for v in vals)
    if len(vals) == w and (vals[0] == 1 and vals[-1] == w or vals[0] == -w and vals[-1] == -1):  # {1..w}, {−w..−1}
        return FamilyTheorem(
            "F6", "offsets {1, …, w} cyclic", (("w", Integer(w)),), Integer(2 * w + 2),
            ceiling((n - 1) / w), "C_n", n, ("(1 2 ... n)",), ceiling((n - 1) / w), True,
            "the rooted view of a position has no automorphism but the identity (§11.9), so no view witness "
            "exists and D layers suffice")
    if len(vals) == 2 and (vals[0] == 1 or vals[1] == -1) and w >= 3:
        return _two_jumps(n, w)
    if vals == [-w, -1, 1, w] and w >= 3:
        return _symmetric_two_jumps(n, w)
    if isinstance(n, Integer) or isinstance(n, int):
        found = multiplier_image(vals, int(n))
        if found is not None:
            return _multiplied(int(n), vals, *found)
    if len(vals) == 2 and (vals[0] > 0 or vals[1] < 0) and min(abs(v) for v in vals) >= 2:
        a, b = sorted(abs(v) for v in vals)
        if gcd(a, b) == 1 and b <= GENERAL_TWO_JUMPS_MAX_B:
            return _general_two_jumps(n, a, b)
    return _general_circulant(n, vals)


# A cyclic window wider than this is not written out as its list of jumps (F27–F29 take jumps up to
# circulant_general.MAX_JUMP, so a wider window beside other offsets is an open family either way).
EXPLICIT_WINDOW_JUMPS = 100_000


def _cyclic_union(n, atoms) -> Union[FamilyTheorem, OpenFamily, None]:
    """A union of cyclic offsets and cyclic windows is the circulant of the union of their jumps: the
    single pattern `offsets S cyclic` (its arcs are the union of the parts' arcs)."""
    radius = 0  # the widest cyclic window's: its jumps are every k with 0 < |k| ≤ radius
    jumps: set = set()
    for a in atoms:
        if a.kind == "cwindow":
            if not _is_int(a.args[0]):
                return OpenFamily("cyclic windows and offsets", f"a symbolic window radius is not covered ({SECTION})")
            radius = max(radius, int(a.args[0]))
        else:
            if not all(_is_int(k) for k in a.args):
                return OpenFamily("offsets cyclic", f"symbolic offsets are not covered ({SECTION}, open question O1 (d))")
            jumps |= {int(k) for k in a.args}
    beyond = {k for k in jumps if abs(k) > radius}
    if radius > EXPLICIT_WINDOW_JUMPS:  # the window's jumps are not listed: a window or an open family
        top = max([radius] + [abs(k) for k in beyond])
        if len(beyond) == 2 * (top - radius):  # the jumps beyond the window fill [−top, −radius) and (radius, top]
            return _cyclic_window(n, Integer(top))
        from .circulant_general import MAX_JUMP
        return OpenFamily("cyclic windows and offsets", f"a cyclic window of radius {radius} beside offsets beyond "
                          f"it: the union is not a window, and its jumps beyond {MAX_JUMP} have no "
                          f"certificate of Theorems F27–F29 ({SECTION})")
    vals = sorted((set(range(-radius, radius + 1)) - {0}) | jumps)
    w = max(abs(v) for v in vals)
    if vals == list(range(-w, 0)) + list(range(1, w + 1)):
        return _cyclic_window(n, Integer(w))
    return _cyclic_offsets(n, tuple(Integer(v) for v in vals))


def _by_residue(head, n, period: int, table: Sequence[int]) -> sympy.Expr:
    """head + table[n mod period], written as one Piecewise with the most frequent value last."""
    values = sorted(set(table), key=lambda v: -list(table).count(v))
    pieces = [(head + v, sympy.Or(*[sympy.Eq(sympy.Mod(n, period), r) for r, e in enumerate(table) if e == v]))
              for v in values[1:]]
    return (head + values[0]) if len(values) == 1 else sympy.Piecewise(*pieces, (head + values[0], True))


def _general_circulant(n, vals: list) -> Union[FamilyTheorem, OpenFamily]:
    """Theorems F27–F29: `offsets S cyclic` with any finite S (docs/theory.md §11.11)."""
    from .circulant_general import MAX_JUMP, circulant_data, max_radius
    name = f"offsets {{{', '.join(map(str, vals))}}} cyclic"
    data = circulant_data(tuple(vals))
    if data is None:
        return OpenFamily(name, f"a jump beyond {MAX_JUMP} in absolute value (after dividing by the gcd): the "
                                f"constants and certificates of Theorems F27–F29 are not computed ({SECTION})")
    red = data.red
    if isinstance(n, (int, Integer)) and gcd(int(n), red.g) != 1:
        return OpenFamily(name, f"gcd(n, {red.g}) > 1: not strongly connected")
    L = data.period
    diameter = _by_residue(floor(n / L), n, L, data.excess)
    reduced = f"x ↦ {red.g}⁻¹x (mod n) maps it onto the jumps {{{', '.join(map(str, red.steps))}}}" if red.g > 1 else ""
    group = order = None
    generators: tuple = ()
    question = ""
    if data.radius is None:
        question = (f"no radius R ≤ {max_radius(red)} makes the rooted ball of the Cayley graph of Z rigid on the jumps "
                    f"(Theorem F28's certificate): the group at symbolic n is not proved ({SECTION})")
    elif red.symmetric:
        group, order, generators = "D_n", 2 * n, ("(1 2 ... n)", "i ↦ n + 1 − i")
    else:
        group, order, generators = "C_n", n, ("(1 2 ... n)",)
    layers = None
    least = False
    why = ""
    if data.low_layers is not None and group is not None:
        layers = diameter + _by_residue(Integer(0), n, L, [int(e) for e in data.extra]) if any(data.extra) else diameter
        least = True
        how = ("the rooted view of a position has no automorphism outside G" if not any(data.extra) else
               "by residue: where D suffice, the rooted view of a position has no automorphism outside G; where "
               "D + 1 are needed, an automorphism of the view fixes every position of level ≤ D − R and moves a "
               "top one")
        acts = "as ±1" if red.symmetric else "as the identity"
        why = (f"{how} (Theorem F29: every automorphism of the view acts {acts} on the levels ≤ D − {data.radius} by "
               f"the ball certificate of F28, and what it can do on the top levels "
               + (f"depends on n mod {L} only" if L > 1 else "does not depend on n") +
               f", checked at n = {', '.join(map(str, data.checked_at))})")
    elif group is not None:
        question = (f"the layer check of Theorem F29 is beyond its budget for these jumps: D + 1 layers suffice, "
                    f"whether D do is not decided at symbolic n ({SECTION})")
    below = (f"; proved for n ≥ {data.proved_low}, and each {data.low} ≤ n < {data.proved_low} decided by the concrete "
             "engine with the same values (the range is sharp)") if data.low < data.proved_low else ""
    return FamilyTheorem(
        "F27", "offsets S cyclic (any finite S)" + (f", {reduced}" if reduced else "") + below,
        (("L", Integer(L)), ("R", Integer(data.radius or 0))), Integer(data.low), diameter, group, order, generators,
        layers, least, why, open_question=question, coprime_to=red.g)


def line_jumps(atoms) -> Optional[list[int]]:
    """The jumps S of a union of non-cyclic window, dilated and offsets parts with integer sizes (its arcs
    are those of `offsets S`, docs/theory.md §11.13), else None."""
    jumps: set = set()
    for a in atoms:
        if not all(_is_int(x) for x in a.args):
            return None
        if a.kind in ("window", "dilated") and int(a.args[0]) > SET_WIDTH_LIMIT:
            return None  # not listed one by one (the theorems' jump bounds are far below it)
        if a.kind == "window":
            w = int(a.args[0])
            jumps |= set(range(-w, w + 1))
        elif a.kind == "dilated":
            w, r = (int(x) for x in a.args)
            jumps |= {k * r for k in range(-w, w + 1)}
        elif a.kind == "offsets":
            jumps |= {int(k) for k in a.args}
        else:
            return None
    out = sorted(jumps - {0})
    return out or None


def _line_family(n, atoms, kinds: list, by: dict) -> Union[FamilyTheorem, OpenFamily, None]:
    """`window + dilated` by F9 or F15 where they apply, else (and for every union of non-cyclic windows,
    dilations and offsets with an offsets part or two dilations) by F40–F42; a window with one-sided cyclic offsets
    inside it by F144; None when none matches."""
    if kinds == ["coffsets", "window"]:
        return _window_wrap(n, by["window"].args[0], by["coffsets"].args)
    if kinds == ["dilated", "window"]:
        found = _window_dilated(n, _param(by["window"]), *by["dilated"].args)
        return found if isinstance(found, FamilyTheorem) else (_line_offsets(n, atoms) or found)
    if kinds.count("strided") == 1 and set(kinds) - {"strided"} <= {"window", "offsets", "dilated"}:
        return _strided_line(n, atoms)
    if "offsets" in kinds or kinds.count("dilated") >= 2:
        return _line_offsets(n, atoms)
    return None


def _strided_line(n, atoms) -> Optional[FamilyTheorem]:
    """Theorem F74 (``graphs/strided_lines.py``): `strided(s)` with non-cyclic windows, dilations and offsets whose
    jumps leaving a residue class have both signs and gcd 1; None otherwise."""
    from .strided_lines import strided_line, theorem
    stride = next(a for a in atoms if a.kind == "strided").args[0]
    jumps = line_jumps([a for a in atoms if a.kind != "strided"])
    if jumps is None or not _is_int(stride) or int(stride) < 2:
        return None
    data = strided_line(int(stride), tuple(jumps))
    if data is not None:
        return theorem(n, data)
    from . import strided_dilations  # Theorems F91, F92: the jumps leaving a class share a factor r ≠ s
    scaled = strided_dilations.strided_scaled(int(stride), tuple(jumps))
    return None if scaled is None else strided_dilations.theorem(n, scaled)


def _line_offsets(n, atoms) -> Optional[FamilyTheorem]:
    """Theorems F40–F42: a union of non-cyclic window, dilated and offsets parts, the pattern `offsets S` on
    a line, with jumps of both signs and gcd 1 (docs/theory.md §11.11); None when it is not one (one-sided
    or a shared factor: not strongly connected, §11.3) or beyond the computation's bounds."""
    from .offsets_line import line_data
    jumps = line_jumps(atoms)
    if jumps is None:
        return None
    data = line_data(tuple(jumps))
    if data is None or data.radius is None:
        return None
    L = data.period
    diameter = _by_residue(floor(n / L), n, L, data.excess)
    generators: tuple = ("i ↦ n + 1 − i",) if data.symmetric else ()
    group, order = ("reflection", Integer(2)) if data.symmetric else ("trivial", Integer(1))
    layers: Optional[sympy.Expr] = None
    least, why, question = False, "", ""
    if data.low_layers is not None:
        layers = diameter + _by_residue(Integer(0), n, L, [int(e) for e in data.extra]) if any(data.extra) else diameter
        least = True
        why = ("a permutation meeting the view condition at a position is, by the ball certificate of radius "
               f"{data.radius} on the deep positions and the ends' induction, the identity (or the reflection) "
               "outside the far end's top levels; what it can do there "
               + (f"depends on n mod {L} only" if L > 1 else "does not depend on n") +
               f" (Theorem F42), decided at n = {', '.join(map(str, data.checked_at))} by the rooted views")
    else:
        question = (f"the layer check of Theorem F42 is beyond its budget for these jumps: D + 1 layers suffice, "
                    f"whether D do is not decided at symbolic n ({SECTION})")
    shown = ", ".join(map(str, data.jumps))
    mirror = " (mirrored: i ↦ n + 1 − i maps it onto the jumps −S)" if data.mirrored else ""
    below = (f"; proved for n ≥ {data.proved_low}, and each {data.low} ≤ n < {data.proved_low} decided by the concrete "
             "engine with the same values (the range is sharp)") if data.low < data.proved_low else ""
    return FamilyTheorem(
        "F40", f"offsets S on a line (S = {{{shown}}}){mirror}{below}",
        (("L", Integer(L)), ("R", Integer(data.radius))), Integer(data.low), diameter, group, order, generators,
        layers, least, why, open_question=question)


def two_jump_diameter(n, s: int) -> sympy.Expr:
    """Theorem F8's diameter of `offsets {1, s} cyclic`: q + max(r, s − 2) with n − 1 = qs + r, written
    max(q + r, q + s − 2) = max(n + s − 2 − (s − 1)⌈n/s⌉, ⌈n/s⌉ + s − 3), as q = ⌈n/s⌉ − 1 (no Mod: the
    certificate trees have none)."""
    c = ceiling(n / s)
    return sympy.Max(c + s - 3, n + s - 2 - (s - 1) * c)


def _two_jumps(n, s: int) -> FamilyTheorem:
    """Theorem F8: `offsets {1, s} cyclic` (or {−1, −s}), s ≥ 3, n ≥ s² + 1 (docs/theory.md §11.11)."""
    d = two_jump_diameter(n, s)
    return FamilyTheorem(
        "F8", "offsets {1, s} cyclic", (("s", Integer(s)),), Integer(s * s + 1), d, "C_n", n,
        ("(1 2 ... n)",), d, True,
        "the rooted view of a position has no automorphism but the identity (the levels of the lattice "
        "costs x + y of x + sy; the ends of level s − 1 tell the jumps 1 and s apart), so no view witness "
        "exists and D layers suffice")


def symmetric_two_jump_diameter(n: int, s: int) -> int:
    """Theorem F12's diameter of the circulant C_n(1, s) (`offsets {−s, −1, 1, s} cyclic`) for integers
    s ≥ 3 and n ≥ s² + s: with m = ⌊(s − 1)/2⌋, D − 1 is the largest of ⌊(n + m(s − 1) − 2)/(2s)⌋ and
    of ⌊(n + K(s − 1) − 2)/(2s)⌋ over the K in (m, 2m] for which [n + (K − 2)s + K, n + K(s − 1) − 2]
    holds a multiple of 2s (docs/theory.md §11.11: the levels L at which n is a sum of two positions
    that the ball of radius L around 0 misses)."""
    m = (s - 1) // 2
    best = (n + m * (s - 1) - 2) // (2 * s)
    for k in range(m + 1, 2 * m + 1):
        high = (n + k * (s - 1) - 2) // (2 * s)
        if high - (n + (k - 2) * s + k - 1) // (2 * s) == 1:
            best = max(best, high)
    return best + 1


def symmetric_two_jump_excess(s: int) -> list[int]:
    """h_s(ρ) = D(n) − ⌊n/(2s)⌋ for n ≡ ρ (mod 2s), ρ = 0, …, 2s − 1 (Theorem F12: every term of
    ``symmetric_two_jump_diameter`` minus ⌊n/(2s)⌋ depends on n mod 2s only)."""
    base = 2 * s * (s + 1)  # a multiple of 2s with base ≥ s² + s
    return [symmetric_two_jump_diameter(base + rho, s) - (s + 1) for rho in range(2 * s)]


def _symmetric_two_jumps(n, s: int) -> FamilyTheorem:
    """Theorem F12: `offsets {−s, −1, 1, s} cyclic`, s ≥ 3, n ≥ s² + s + 2 (docs/theory.md §11.11)."""
    excess = symmetric_two_jump_excess(s)
    base = floor(n / (2 * s))
    values = sorted(set(excess), key=lambda v: -excess.count(v))  # the most frequent value last (True)
    pieces = [(base + v, sympy.Or(*[sympy.Eq(sympy.Mod(n, 2 * s), r) for r, e in enumerate(excess) if e == v]))
              for v in values[1:]]
    diameter: sympy.Expr = (base + values[0]) if len(values) == 1 else sympy.Piecewise(
        *pieces, (base + values[0], True))
    if s == 3:
        return FamilyTheorem(
            "F16", "offsets {−3, −1, 1, 3} cyclic", (("s", Integer(s)),), Integer(s * s + s + 2), diameter,
            "D_n", 2 * n, ("(1 2 ... n)", "i ↦ n + 1 − i"), diameter, True,
            claim("the rooted view of a position has only the reflection through it as automorphism (the lower sets "
                  "of level 2 fix ", written("±2", r"\pm 2"), ", then ", written("±3", r"\pm 3"), " and ",
                  written("±1", r"\pm 1"), "; every further position is told apart from the other common neighbours "
                  "of two fixed lower ones by a fixed lower neighbour), so no view witness exists and D layers "
                  "suffice"))
    return FamilyTheorem(
        "F12", "offsets {−s, −1, 1, s} cyclic", (("s", Integer(s)),), Integer(s * s + s + 2), diameter,
        "D_n", 2 * n, ("(1 2 ... n)", "i ↦ n + 1 − i"), diameter, True,
        claim("the rooted view of a position has only the reflection through it as automorphism (the level ",
              written("⌊s/2⌋ + 1 ≤ D", r"\left\lfloor s / 2 \right\rfloor + 1 \leq D"), " tells the jump 1 from "
              "the jump s, the other jump's sign follows, and every further position is the one common neighbour "
              "at its level of two lower ones), so no view witness exists and D layers suffice"))


#: Theorem F17's table of h(n mod b) is computed for b up to this.
GENERAL_TWO_JUMPS_MAX_B = 400


def general_two_jump_low(a: int, b: int) -> int:
    """Theorem F17's range: n ≥ max(b² + b + 1, F + b + 1, (b − a)(b − 1) + 1), F = ab − a − b."""
    return max(b * b + b + 1, a * b - a - b + b + 1, (b - a) * (b - 1) + 1)


def general_two_jump_diameter(n: int, a: int, b: int) -> int:
    """Theorem F17 (a): the diameter of `offsets {a, b} cyclic` (2 ≤ a < b, gcd(a, b) = 1) at an integer
    n ≥ the range: the largest of f(t) over n − b ≤ t < n and of f(γ + n) over the gaps γ of ⟨a, b⟩, with
    f(T) = (T + (b − a)x_T)/b, x_T ≡ T·a⁻¹ (mod b) (docs/theory.md §11.11)."""
    inverse = pow(a, -1, b)

    def cost(t: int) -> Optional[int]:
        x = (t * inverse) % b
        return (t + (b - a) * x) // b if a * x <= t else None
    last = [cost(t) for t in range(n - b, n)]
    if any(c is None for c in last):
        raise ValueError(f"n = {n} is below Theorem F17's range")
    gaps = [cost(g + n) for g in range(a * b - a - b + 1) if cost(g) is None]
    return max([c for c in last if c is not None] + [c for c in gaps if c is not None])


def _general_two_jumps(n, a: int, b: int) -> FamilyTheorem:
    """Theorem F17: `offsets {a, b} cyclic` (or {−a, −b}), 2 ≤ a < b, gcd(a, b) = 1 (docs/theory.md §11.11)."""
    low = general_two_jump_low(a, b)
    base = b * (-(-low // b))
    excess = [general_two_jump_diameter(base + rho, a, b) - (base + rho) // b for rho in range(b)]
    head = floor(n / b)
    values = sorted(set(excess), key=lambda v: -excess.count(v))
    pieces = [(head + v, sympy.Or(*[sympy.Eq(sympy.Mod(n, b), r) for r, e in enumerate(excess) if e == v]))
              for v in values[1:]]
    diameter: sympy.Expr = (head + values[0]) if len(values) == 1 else sympy.Piecewise(
        *pieces, (head + values[0], True))
    return FamilyTheorem(
        "F17", "offsets {a, b} cyclic, gcd(a, b) = 1", (("a", Integer(a)), ("b", Integer(b))), Integer(low),
        diameter, "C_n", n, ("(1 2 ... n)",), diameter, True,
        "the rooted view of a position has no automorphism but the identity (the ray of a-steps and the ray of "
        "b-steps cannot be exchanged: a·b closes after a steps of b but b steps of a; then every position is "
        "the only one of its level with its lower neighbours), so only the identity fixes a position, no view "
        "witness exists and D layers suffice")


def multiplier_image(jumps: Sequence[int], n: int) -> Optional[tuple[int, tuple]]:
    """Lemma F13 at an integer n: a unit u of Z_n with u·K (mod n) = {1, s} (Theorem F8 in range:
    s ≥ 3, n ≥ s² + 1) or {±1, ±s} (Theorem F12 in range: 3 ≤ s ≤ n/2, n ≥ s² + s + 2), for the cyclic
    offsets K (no 0, at least one jump other than ±1); (u, the image offsets) with the least s, or None."""
    ks = {k % n for k in jumps}
    if 0 in ks or len(ks) != len(jumps) or n < 3:
        return None
    best: Optional[tuple[int, tuple]] = None
    for k in sorted(ks):
        if gcd(k, n) != 1:
            continue
        u = pow(k, -1, n)
        image = sorted({(u * j) % n for j in ks})
        cand: tuple[int, tuple[int, ...]]
        if len(image) == 2 and image[0] == 1 and image[1] >= 3 and n >= image[1] ** 2 + 1:
            cand = (u, (1, image[1]))
        elif len(image) == 4 and image[0] == 1 and image[3] == n - 1 and image[1] + image[2] == n \
                and 3 <= image[1] and n >= image[1] ** 2 + image[1] + 2:
            cand = (u, (-image[1], -1, 1, image[1]))
        else:
            continue
        if best is None or max(cand[1]) < max(best[1]):
            best = cand
    return best


def _multiplied(n: int, jumps: Sequence[int], u: int, image: tuple) -> FamilyTheorem:
    """Lemma F13: x ↦ u·x (mod n) is an isomorphism of the circulant with offsets ``jumps`` onto the one
    with offsets ``image``, so Theorem F8 or F12 gives D, G and the layers at this n."""
    s = max(image)
    inner = _two_jumps(Integer(n), s) if len(image) == 2 else _symmetric_two_jumps(Integer(n), s)
    d = Integer(int(sympy.sympify(inner.diameter, strict=True).doit()))  # safe: strict (no text parsed)
    layers = None if inner.layers is None else Integer(int(sympy.sympify(inner.layers, strict=True).doit()))  # safe: strict
    shown = ", ".join(str(k) for k in image)
    return FamilyTheorem(
        "F13", f"offsets {{{', '.join(str(k) for k in jumps)}}} cyclic ≅ offsets {{{shown}}} cyclic",
        (("u", Integer(u)), ("s", Integer(s))), Integer(n), d, inner.group, inner.order, inner.generators,
        layers, inner.least,
        claim(f"x ↦ {u}·x (mod {n}) maps the pattern onto offsets {{{shown}}} cyclic (an isomorphism of circulants, "
              f"Lemma F13), and for that pattern Theorem {inner.theorem} holds at n = {n}: ", inner.why_layers),
        open_question=inner.open_question, image=image)


def strided_base_check(w: int, s: int) -> Optional[int]:
    """The least ball extent M for which ``strided_ball_separates`` holds (radius w − 1 up to w + 4)."""
    for radius in range(max(w - 1, 0), w + 5):
        extent = strided_ball_separates(w, s, radius)
        if extent is not None:
            return extent
    return None


def strided_ball_separates(w: int, s: int, radius: int) -> Optional[int]:
    """The finite base case of Theorem F7's group: the positions 1..w are told apart, among the
    automorphisms fixing position 1, by colour refinement on the ball of radius R ≥ w − 1 around 1 in
    the cross graph X (u, v adjacent in different residue classes mod s). Returns the ball's extent
    M = 1 + R·w (the structure is the same for every n ≥ M) when they are, else None.

    The structure refined: the positions p ≤ M at X-distance ≤ R from 1, coloured by that distance,
    with two relations — adjacency in Γ and "same class mod s" (automorphisms of Γ keep the classes
    as a partition for n ≥ s(4w + 3), Theorem F7, step 1). Colour refinement is invariant under every
    automorphism of that structure fixing 1, so a position with a colour of its own is fixed."""
    extent = 1 + radius * w
    cross = {d for d in range(1, w + 1) if d % s}
    dist = {1: 0}
    frontier = [1]
    while frontier:
        nxt = []
        for u in frontier:
            for d in cross:
                for v in (u - d, u + d):
                    if 1 <= v <= extent and v not in dist and dist[u] + 1 <= radius:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    import numpy as np
    ball = np.array(sorted(dist), dtype=np.int64)
    first, last = int(ball[0]), int(ball[-1])
    index = np.full(last - first + 1, -1, dtype=np.int64)   # a position's row in the ball, −1 outside it
    index[ball - first] = np.arange(len(ball))
    # the positions u ≠ v of the ball with |v − u| ≤ w or u ≡ v (mod s), each with whether it is in v's class: the
    # window's steps, then the class's farther ones; they do not depend on the colours, so they are listed once
    near = np.array([d for d in range(-w, w + 1) if d], dtype=np.int64)
    far = np.array([k * s for k in range(-(last - first) // s - 1, (last - first) // s + 2) if abs(k * s) > w],
                   dtype=np.int64)
    steps = np.concatenate([near, far])
    same = np.concatenate([near % s == 0, np.ones(len(far), dtype=bool)]).astype(np.int64)
    u = ball[:, None] + steps[None, :]
    inside = (u >= first) & (u <= last)
    inside[inside] = index[u[inside] - first] >= 0
    rows = np.broadcast_to(np.arange(len(ball))[:, None], u.shape)[inside]
    colour = refine_on_lists(np.array([dist[v] for v in ball.tolist()], dtype=np.int64), rows,
                             index[u[inside] - first], np.broadcast_to(same[None, :], u.shape)[inside])
    counts = np.bincount(colour)
    return extent if all(first <= p <= last and index[p - first] >= 0 and counts[colour[index[p - first]]] == 1
                         for p in range(1, w + 1)) else None


#: The local view check of Theorem F7 searches the permutations of the s − 1 other residue classes; it
#: runs for s up to this (s = 8 takes seconds), and above it the least layer count stays open.
STRIDED_VIEW_MAX_S = 7


@lru_cache(maxsize=64)
def strided_views_check(w: int, s: int) -> bool:
    """The finite step (6) of Theorem F7's proof of the layers (docs/theory.md §11.11): for every root
    offset i = 1, …, 3w + 3s + 1 (the last one stands for every root away from the ends), no
    permutation τ ≠ id fixing C(i) pointwise meets the necessary conditions near i (``strided_local_rigid``).
    False when it fails or is not run (s > STRIDED_VIEW_MAX_S and w > STRIDED_REFINE_MAX_W). For s above
    STRIDED_VIEW_MAX_S the search over class permutations is replaced by colour refinement (``strided_local_refined``),
    which needs no search: it is run at the roots 1, …, 2w + 2s + 2 (beyond, the positions within 2w + 2s of the root
    are a translate of those of root 2w + 2s + 2)."""
    if not 2 <= s <= w + 1:
        return False
    if s <= STRIDED_VIEW_MAX_S:
        return all(strided_local_rigid(w, s, i) is None for i in range(1, 3 * w + 3 * s + 2))
    return w <= STRIDED_REFINE_MAX_W and strided_refined_check(w, s)


@lru_cache(maxsize=64)
def strided_refined_check(w: int, s: int) -> bool:
    """F7's step (6″) at every root offset i = 1, …, 2w + 2s + 2 (beyond, the positions within 2w + 2s of the root
    are a translate of those of root 2w + 2s + 2)."""
    return all(strided_local_refined(w, s, i) for i in range(1, 2 * w + 2 * s + 3))


#: colour refinement of F7's step (6″) (and of F164's check) runs up to this w (w = 64, s = 65: about 3 s)
STRIDED_REFINE_MAX_W = 64


def strided_local_refined(w: int, s: int, i: int, near_cells: bool = True) -> bool:
    """F7, step (6″) (docs/theory.md §11.11): at the root i of window(w) + strided(s) (i − 1 positions before it,
    the other end beyond i + 2w + 2s), colour refinement of the positions within 2w + 2s of i — the members of C(i)
    each alone in its colour (τ fixes them), the others coloured by their run W(x) ∩ C(i) (τ keeps each cell) and by
    whether they lie in N(i), joined when adjacent with one end in N(i) (the arcs the witness condition keeps) —
    ends with every position alone in its colour (so τ = id there). Cells cut by the edge of the range are left out
    (each kept cell and N(i) are mapped onto themselves by τ, so τ is an automorphism of what is refined).
    ``near_cells=False`` refines N(i) alone (used by a test to show that the cells outside it are what separates).
    A run is an arithmetic progression of step s, named by its first and last member. Each round's colour is the rank
    of (colour, the wrapping uint64 sum of a 64-bit mix of the joined positions' colours): a function of what τ keeps,
    so τ keeps every round's colours and a discrete end shows τ = id; a collision of the mix can only merge colours
    (the answer is then False, never a wrong True)."""
    import numpy as np
    lo, hi = max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s
    xs = np.arange(lo, hi + 1)
    member = (xs - i) % s == 0
    start = np.maximum(1, xs - w)
    first = start + (i - start) % s                      # the least member ≥ max(1, x − w)
    last = xs + w - (xs + w - i) % s                     # the greatest member ≤ x + w
    cell = first * (hi + s + 1) + last                   # the run, named (never empty: 2w + 1 ≥ s positions)
    cut = set(cell[(xs == hi) & ~member].tolist()) | (set(cell[(xs == lo) & ~member].tolist()) if lo > 1 else set())
    kept = member | ~np.isin(cell, list(cut))
    ball = (np.abs(xs - i) <= w) | member
    if not near_cells:
        kept &= ball
    xs, member, cell, ball = xs[kept], member[kept], cell[kept], ball[kept]
    near = np.abs(xs[:, None] - xs[None, :]) <= w
    residue = xs % s   # u − v ≡ 0 (mod s) iff u and v have one residue: no N × N division
    joined = (near | (residue[:, None] == residue[None, :])) & (ball[:, None] | ball[None, :])
    np.fill_diagonal(joined, False)
    start_key = np.where(member, -xs, cell * 2 + ball)   # members by position, the others by (run, in N(i))
    from .view_refine import _mix
    colour = dense_ranks(start_key)
    weights = joined.astype(np.uint64)
    while True:
        sums = weights @ _mix(colour.astype(np.uint64) + np.uint64(1), True)   # wrapping: order-free
        refined = _row_ranks(np.column_stack([colour.astype(np.uint64), sums]))   # the rows' ranks
        if refined.max() == colour.max():
            return int(refined.max()) + 1 == len(xs)
        colour = refined


def _ranks(keys: dict) -> dict:
    table = {k: r for r, k in enumerate(sorted(set(keys.values()), key=repr))}
    return {x: table[k] for x, k in keys.items()}


def strided_local_rigid(w: int, s: int, i: int, near_cells: bool = True) -> Optional[str]:
    """None when no τ ≠ id fixing C(i) pointwise can be an automorphism of the rooted view R_i of
    window(w) + strided(s) with root i (i − 1 positions before it, the other end at least 3w + 2s
    beyond it), else what admits one. Proof that these conditions are necessary: docs/theory.md §11.11,
    F7, step (6).

    The *cells* are the positions outside C(i) with the same run T(x) = W(x) ∩ C(i); τ keeps each.
    Y = W(i) ∖ C(i) holds every other class; τ permutes the classes by κ (read on Y), so τ on Y is
    κ inside each cell, and on every cell away from [i − 2w, i + 2w] τ is κ too. On a *near* cell Z
    (meeting [i − 2w, i + 2w]), x ∈ N(v) iff τx ∈ N(τv) for v ∈ Y: the *type* t(x) = {v ∈ Y : x ∈ N(v)}
    satisfies t(τx) = τ(t(x)). Searched: every κ ≠ id (by backtracking, keeping Γ on Y), with, per near
    cell, τ fixed on its part in Y and the types of the rest matched as multisets; and for κ = id, the
    rest of each near cell must have distinct types (else τ may swap two of them). ``near_cells=False``
    skips the near cells' conditions (used by a test to show that they are what excludes κ ≠ id)."""
    return _StridedRoot(w, s, i, near_cells).problem()


class _StridedRoot:
    """The data of ``strided_local_rigid`` at one root: Y, the cells, the near cells and the types."""

    def __init__(self, w: int, s: int, i: int, near_cells: bool):
        self.w, self.s, self.i, self.near_cells = w, s, i, near_cells
        self.lo, self.hi = max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s
        self.ys = [u for u in self.window(i) if self.res(u)]
        self.yset = set(self.ys)
        by_run: dict = {}
        for x in range(self.lo, self.hi + 1):
            if self.res(x):
                by_run.setdefault(frozenset(p for p in self.window(x) if self.res(p) == 0), []).append(x)
        self.near = [z for z in by_run.values() if any(max(1, i - 2 * w) <= x <= i + 2 * w for x in z)]
        self.cell = {x: z for z in by_run.values() for x in z}
        self.kind = {x: frozenset(v for v in self.ys if self.adj(v, x)) for z in self.near for x in z}
        self.residues = list(range(1, s))

    def res(self, x: int) -> int:
        return (x - self.i) % self.s

    def window(self, x: int) -> range:
        top = self.i + 4 * self.w + 4 * self.s + 2          # a right end beyond everything looked at
        return range(max(1, x - self.w), min(top, x + self.w) + 1)

    def adj(self, v: int, x: int) -> bool:
        return abs(x - v) <= self.w or (x - v) % self.s == 0

    def image(self, u: int, kappa: dict) -> Optional[int]:
        target = [x for x in self.cell[u] if self.res(x) == kappa[self.res(u)]]
        return target[0] if target and target[0] in self.yset else None

    def tau(self, kappa: dict) -> Optional[dict[int, int]]:
        """τ on the positions of Y whose class κ assigns (None if one has no image in Y)."""
        out: dict[int, int] = {}
        for u in self.ys:
            if self.res(u) in kappa:
                v = self.image(u, kappa)
                if v is None:
                    return None
                out[u] = v
        return out

    def consistent(self, kappa: dict) -> bool:
        tau = self.tau(kappa)
        return tau is not None and all(self.adj(u, v) == self.adj(tau[u], tau[v]) for u in tau for v in tau)

    def near_ok(self, kappa: dict) -> bool:
        tau = self.tau(kappa)
        if tau is None:
            return False
        for z in self.near:
            if any(x in self.yset and self.kind[tau[x]] != frozenset(tau[v] for v in self.kind[x]) for x in z):
                return False
            rest = [x for x in z if x not in self.yset]
            if sorted(sorted(tau[v] for v in self.kind[x]) for x in rest) != sorted(sorted(self.kind[x]) for x in rest):
                return False
        return True

    def search(self, kappa: dict, used: set) -> Optional[dict]:
        if len(kappa) == len(self.residues):
            moved = any(kappa[r] != r for r in self.residues)
            return dict(kappa) if moved and (not self.near_cells or self.near_ok(kappa)) else None
        r = self.residues[len(kappa)]
        for img in self.residues:
            if img in used:
                continue
            kappa[r] = img
            found = self.search(kappa, used | {img}) if self.consistent(kappa) else None
            if found is not None:
                return found
            del kappa[r]
        return None

    def problem(self) -> Optional[str]:
        if any((min(z) <= self.lo and self.lo > 1) or max(z) >= self.hi for z in self.near):
            return "a near cell reaches the edge of the region looked at"  # not expected (cells span < s)
        found = self.search({}, set())
        if found is not None:
            return f"root {self.i}: the class permutation {sorted(found.items())} is not excluded"
        if not self.near_cells:
            return None
        for z in self.near:
            rest = [x for x in z if x not in self.yset]
            if len({self.kind[x] for x in rest}) != len(rest):
                return f"root {self.i}: two positions of the cell {z} have the same type"
        return None


def _strided_family(n, w, s) -> Union[FamilyTheorem, OpenFamily]:
    """`window(w) + strided(s)`: Theorem F7 (2 ≤ s ≤ w + 1), F11 (w + 2 ≤ s ≤ 2w + 1), else open."""
    if _is_int(w) and _is_int(s) and 2 <= int(s) <= int(w) + 1:
        return _window_strided(n, int(w), int(s))
    if _is_int(w) and _is_int(s) and int(w) + 2 <= int(s) <= 2 * int(w) + 1:
        return _window_wide_stride(n, int(w), int(s))
    if _is_int(w) and _is_int(s) and int(w) >= 1 and int(s) >= 2 * int(w) + 2:
        return _window_stride_beyond(n, int(w), int(s))
    return OpenFamily("window(w) + strided(s)",
                      "for symbolic w, s the diameter depends on n mod s and is not proved; the group and the "
                      f"least layer count are open ({SECTION}, open question O2)")


def wide_stride_far(w: int, s: int, m: int) -> bool:
    """Theorem F11: for w + 2 ≤ s ≤ 2w + 1 and n ≡ m (mod s) in the range, some pair is at distance 3
    (so D = 3, else D = 2): positions a and n + 1 − b, 1 ≤ a, b ≤ s − w − 1, with
    (m − a − b) mod s in [w, s − 1 − max(a, b)]."""
    return any(w <= (m - a - b) % s <= s - 1 - max(a, b) for a in range(1, s - w) for b in range(1, s - w))


def stride_beyond_far(w: int, s: int, m: int) -> bool:
    """Theorem F14: for s ≥ 2w + 2 and n ≡ m (mod s) in the range, some pair is at distance M + 1 (else
    the diameter is M = 1 + ⌈⌊s/2⌋/w⌉): positions a and n + 1 − b, 1 ≤ a, b ≤ ⌊s/2⌋, whose residue gap
    r = (m + 1 − a − b) mod s has ⌈min(r, s − r)/w⌉ = M − 1 and no walk–jump–walk of cost < M + 1, i.e.
    ⌈|x|/w⌉ + ⌈|y|/w⌉ ≥ M for all x ≥ 1 − a, y ≥ 1 − b with x + y ≡ r (mod s)."""
    half = s // 2
    top = -(-half // w)
    cost = 1 + top
    for a in range(1, half + 1):
        for b in range(1, half + 1):
            r = (m + 1 - a - b) % s
            if -(-min(r, s - r) // w) != top:
                continue
            if all(-(-abs(x) // w) + -(-abs(y) // w) >= cost
                   for x in range(1 - a, cost * w + 1) for y in range(1 - b, cost * w + 1) if (x + y - r) % s == 0):
                return True
    return False


def _window_stride_beyond(n, w: int, s: int) -> FamilyTheorem:
    """Theorem F14: `window(w) + strided(s)`, s ≥ 2w + 2, n ≥ s(4w + 3) (docs/theory.md §11.11)."""
    middle = 1 + -(-(s // 2) // w)  # M
    far = [m for m in range(s) if stride_beyond_far(w, s, m)]
    diameter, _ = _one_more_on_residues(n, s, far, middle)
    from .strided_least import STRIDE_BEYOND_OPEN, stride_beyond_block_witness
    found = stride_beyond_block_witness(w, s)
    if found is not None:
        p = found[1]
        least, why = True, (
            f"Theorem F54: exchanging the blocks {_span(p, p + s - 1)} and {_span(p + s, p + 2 * s - 1)} keeps the "
            f"neighbourhood of every position within distance M − 1 = {middle - 1} of position 1 and is not in G, so "
            f"M = {middle} layers are not enough; where D = M + 1 a rooted view fixes every position, so D layers "
            "suffice (and where D = M, D + 1 do)")
    else:
        least, why = len(far) == s, (
            "Theorem F54 (a): where D = M + 1 a rooted view fixes every position, so D layers suffice (least); where "
            f"D = M, D + 1 do, and {STRIDE_BEYOND_OPEN}")
    theorem = FamilyTheorem(
        "F14", "window(w) + strided(s), s ≥ 2w + 2", (("w", Integer(w)), ("s", Integer(s))),
        Integer(s * (4 * w + 3)), diameter, "reflection", Integer(2), ("i ↦ n + 1 − i",), Integer(middle + 1),
        least, why)
    if found is not None or least:
        return theorem
    from .strided_least import beyond_classes, beyond_classes_why
    classes = beyond_classes(w, s)  # Theorem F120: the classes where D = M, by F98's finite check class by class
    if classes is None or not classes.least:
        return theorem
    layers = Integer(middle + 1) if not classes.fewest else Integer(middle) if len(classes.fewest) == s else \
        sympy.Piecewise((Integer(middle), sympy.Or(*[sympy.Eq(sympy.Mod(n, s), r) for r in classes.fewest])),
                        (Integer(middle + 1), True))
    every = len(classes.least) == s
    question = "" if every else (
        f"whether M = {middle} layers suffice for n mod {s} ∈ {{{', '.join(map(str, classes.open))}}} is not proved "
        "(neither the common-neighbour premise of Theorem F98 nor a swap of two far positions holds at every length "
        "of those classes; docs/theory.md §11.11, Theorem F120, open question O11)")
    if isinstance(n, (int, Integer)):  # a concrete length reads its class's count and flag
        r = int(n) % s
        return replace(theorem, layers=Integer(middle if r in classes.fewest else middle + 1),
                       least=r in classes.least, why_layers=beyond_classes_why(w, s, classes),
                       open_question="" if r in classes.least else question)
    return replace(theorem, layers=layers, least=every, why_layers=beyond_classes_why(w, s, classes),
                   least_classes=() if every else (s, classes.least), open_question=question)


def _one_more_on_residues(n, s: int, far: list, base: int) -> tuple:
    """D = base + 1 when n mod s is one of `far`, else base (as one number when every residue, or none, is
    far), and D + 1 layers: the diameters of F11 and F14."""
    if not far:
        diameter: sympy.Expr = Integer(base)
    elif len(far) == s:
        diameter = Integer(base + 1)
    else:
        diameter = sympy.Piecewise((Integer(base + 1), sympy.Or(*[sympy.Eq(sympy.Mod(n, s), m) for m in far])),
                                   (Integer(base), True))
    layers = diameter + 1 if not isinstance(diameter, sympy.Piecewise) else sympy.Piecewise(
        *[(e + 1, c) for e, c in diameter.args])
    return diameter, layers


def _window_wide_stride(n, w: int, s: int) -> FamilyTheorem:
    from .strided_least import wide_stride_rigid, wide_stride_why, wide_stride_witness
    far = [m for m in range(s) if wide_stride_far(w, s, m)]
    diameter, layers = _one_more_on_residues(n, s, far, 2)
    theorem = FamilyTheorem(
        "F11", "window(w) + strided(s), w + 2 ≤ s ≤ 2w + 1", (("w", Integer(w)), ("s", Integer(s))),
        Integer(s * (4 * w + 3)), diameter, "reflection", Integer(2), ("i ↦ n + 1 − i",), layers, False,
        "the view argument (D + 1 layers suffice)")
    found = wide_stride_witness(w, s)
    if len(far) == s:
        return theorem
    if found is None and wide_stride_rigid(w):  # s = w + 2, w ≥ 2: D layers (F81 where D = 2, F53 (a) where D = 3)
        return replace(theorem, layers=diameter, least=True, why_layers=wide_stride_why(w))
    if found is None:  # not reached: F53 (b) gives the witness for every s in range but s = w + 2, w ≥ 2 (F81)
        return replace(theorem, layers=Integer(3), why_layers=(
            "Theorem F53 (a): where D = 3 the positions at distance 3 from any position are pairwise adjacent, so "
            "D = 3 layers suffice (least); where D = 2, D + 1 = 3 suffice"))
    pos, (a, b) = found
    return replace(theorem, layers=Integer(3), least=True, witness=(Integer(pos), (Integer(a), Integer(b))),
                   why_layers=(f"Theorem F53: the swap ({a} {b}) keeps the neighbourhood of every position within "
                               "distance 1 of position 1 and is not in G, so 2 layers are not enough; where D = 3 "
                               "the positions at distance 3 from any position are pairwise adjacent, so D = 3 "
                               "layers suffice (and where D = 2, D + 1 = 3 do)"))


def _window_strided(n, w: int, s: int) -> FamilyTheorem:
    d_star = w + 1 if (w + 1) % s else w + 2
    below = _below_f7_range(n, w, s, s * (4 * w + 3))  # F7's range starts at s(4w + 3) or later: no base case needed
    if below is not None:
        return below
    extent = strided_base_check(w, s)
    if extent is None:
        return FamilyTheorem(
            "F7", "window(w) + strided(s), 2 ≤ s ≤ w + 1", (("w", Integer(w)), ("s", Integer(s))),
            Integer(d_star + 1), Integer(2),
            open_question=("the group of window(w) + strided(s) at symbolic n is not proved for these parameters "
                           f"(the base case of Theorem F7 is not settled by colour refinement; {SECTION}, open "
                           "question O2), nor the least layer count"))
    low = max(d_star + 1, s * (4 * w + 3), extent, 2 * w + 1)
    below = _below_f7_range(n, w, s, low)
    if below is not None:
        return below
    if s >= 3 and strided_views_check(w, s):
        return FamilyTheorem(
            "F7", "window(w) + strided(s), 2 ≤ s ≤ w + 1", (("w", Integer(w)), ("s", Integer(s))),
            Integer(max(low, 6 * w + 4 * s + 1)), Integer(2), "reflection", Integer(2), ("i ↦ n + 1 − i",),
            Integer(2), True,
            "a permutation that keeps every neighbourhood within distance 1 of a position i keeps i's residue "
            "class mod s (its many common neighbours), orders it (the runs of that class within w of each "
            "other position), is the identity or the reflection there (the counts at its two ends), and then "
            "fixes every other position (a finite check of the positions within 2w + 2s of i, for every "
            "offset of i from the nearer end): no view witness, so D = 2 layers suffice")
    if s == 2:
        return FamilyTheorem(
            "F7", "window(w) + strided(s), 2 ≤ s ≤ w + 1", (("w", Integer(w)), ("s", Integer(s))),
            Integer(low), Integer(2), "reflection", Integer(2), ("i ↦ n + 1 − i",), Integer(2), True,
            "a permutation that keeps every neighbourhood within distance 1 of a position i keeps i's residue "
            "class mod 2 (its many common neighbours), orders it as a path (the runs of that class within w of "
            "each other position), is the identity or the reflection there (the counts at its two ends), and "
            "then fixes every other position (its run): no view witness, so D = 2 layers suffice")
    return FamilyTheorem(
        "F7", "window(w) + strided(s), 2 ≤ s ≤ w + 1", (("w", Integer(w)), ("s", Integer(s))),
        Integer(low), Integer(2), "reflection", Integer(2), ("i ↦ n + 1 − i",),
        open_question=("whether D = 2 layers suffice for window(w) + strided(s) at symbolic n is not proved for "
                       f"w = {w}, s = {s} (the finite check of Theorem F7's step (6) runs for s ≤ {STRIDED_VIEW_MAX_S}, "
                       f"its colour refinement for w ≤ {STRIDED_REFINE_MAX_W}; {SECTION}, open question O2); "
                       "D + 1 = 3 suffice"))


def _below_f7_range(n, w: int, s: int, low: int) -> Optional[FamilyTheorem]:
    """Theorem F164 at a concrete n below F7's range (F7's layer count least from max(low, 6w + 4s + 1) for s ≥ 3):
    the pair keys of ``strided_classes`` tell the same-class pairs from the others at this n, so F7's steps (2)–(6″)
    give the reflection and D = 2 layers, least. None when n is symbolic, outside that gap, or a check fails."""
    from . import strided_classes
    if not isinstance(n, (int, Integer)) or not strided_classes.low(w, s) <= int(n) < max(low, 6 * w + 4 * s + 1):
        return None
    if s >= 3 and (w > STRIDED_REFINE_MAX_W or not strided_refined_check(w, s)):
        return None  # step (6″), not (6): (6) reads the classes on Y from F7's step (1), which the keys do not give
    if strided_classes.class_collision(int(n), w, s):
        return None
    return FamilyTheorem(
        "F164", "window(w) + strided(s), 2 ≤ s ≤ w + 1, below Theorem F7's range", (("w", Integer(w)), ("s", Integer(s))),
        Integer(n), Integer(2), "reflection", Integer(2), ("i ↦ n + 1 − i",), Integer(2), True,
        at_length=True,
        why_layers="at this n no pair of positions in one residue class mod s, both within distance 1 of a root, has the "
        "key (degrees, common neighbours, their common-neighbour sum) of a pair in different classes, so a "
        "permutation that keeps every neighbourhood within distance 1 of a position i keeps i's class; it orders it, "
        "is the identity or the reflection there, and fixes every other position (Theorem F7's steps (2)–(6″)): no "
        "view witness, so D = 2 layers suffice and G is the reflection")


def dilated_steps(w: int, wd: int, r: int) -> tuple[list, int, int]:
    """The step set S = {1..w} ∪ {r, 2r, …, w'r} of window(w) + dilated(w', r), its largest step
    L = w'r and μ = the least d in 1..L outside S (Theorem F9)."""
    steps = sorted(set(range(1, w + 1)) | {k * r for k in range(1, wd + 1)})
    top = steps[-1]
    mu = next(d for d in range(1, top + 1) if d not in steps)
    return steps, top, mu


def dilated_base_check(w: int, wd: int, r: int) -> Optional[int]:
    """The least ball extent M = 1 + R·L (R = 1, …, 4) for which ``dilated_ball_separates`` holds."""
    for radius in range(1, 5):
        extent = dilated_ball_separates(w, wd, r, radius)
        if extent is not None:
            return extent
    return None


def dilated_ball_separates(w: int, wd: int, r: int, radius: int) -> Optional[int]:
    """The finite base case of Theorem F9's group: among the automorphisms fixing position 1, the
    positions 1..L are told apart by colour refinement on the ball of radius R around 1 (positions
    coloured by their distance to 1, one relation: adjacency). Returns the ball's extent M = 1 + R·L
    (the ball and its structure are the same for every n ≥ M: distances from 1 are reached by
    increasing paths) when they are, else None."""
    steps, top, _ = dilated_steps(w, wd, r)
    extent = 1 + radius * top
    dist = {1: 0}
    frontier = [1]
    while frontier:
        nxt = []
        for u in frontier:
            for d in steps:
                for v in (u - d, u + d):
                    if 1 <= v <= extent and v not in dist and dist[u] < radius:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    ball = sorted(dist)
    # the positions u of the ball with |u − v| a step, as the ball's scan found them (each once; sorted after)
    joined = {v: [u for d in steps for u in (v - d, v + d) if u in dist] for v in ball}
    colour = refine_on_ball(ball, {v: dist[v] for v in ball}, lambda v, colour: [colour[u] for u in joined[v]])
    return extent if each_alone(colour, ball, range(1, top + 1)) else None


def refine_on_ball(ball, colour: dict, marks) -> dict:
    """Colour refinement on a finite ball (the base cases of F7 and F9): each position's colour and the
    sorted marks `marks(v, colour)` it sees give its next colour, until the number of colours stops
    growing; the stable colouring. Refinement is invariant under every automorphism of the structure
    that keeps the first colours, so a position with a colour of its own is fixed by all of them."""
    while True:
        signature = {v: (colour[v], tuple(sorted(marks(v, colour)))) for v in ball}
        ranks = {sig: k for k, sig in enumerate(sorted(set(signature.values())))}
        refined = {v: ranks[signature[v]] for v in ball}
        if len(set(refined.values())) == len(set(colour.values())):
            return colour
        colour = refined


def refine_on_lists(colour, rows, cols, tags):
    """`refine_on_ball` on arrays: the ball's positions are the rows 0..N−1 with first colours `colour` (integers),
    and position `rows[k]` sees `cols[k]` with the mark `tags[k]` (an integer ≥ 0); a position's next colour is its
    colour with the sorted marks (tag, colour) it sees, told apart exactly (rows of integers sorted and compared,
    no hashing), until the number of colours stops growing. Returns the stable colouring as the ranks 0..C−1 (the
    partition `refine_on_ball` ends with; only the colours' names differ)."""
    import numpy as np
    count = len(colour)
    per_row = np.bincount(rows, minlength=count)
    width = int(per_row.max()) if len(rows) else 0
    start = np.concatenate([[0], np.cumsum(per_row)[:-1]])
    colour = dense_ranks(colour)
    while True:
        key = tags * (count + 1) + colour[cols]                # (tag, colour) as one integer, both exact
        order = np.lexsort((key, rows))
        by_row = rows[order]
        table = np.full((count, width + 1), -1, dtype=np.int64)  # −1 pads a shorter list (every key is ≥ 0)
        table[:, 0] = colour
        table[by_row, np.arange(len(by_row)) - start[by_row] + 1] = key[order]
        refined = _row_ranks(table)
        if refined.max() == colour.max():
            return colour
        colour = refined


def _row_ranks(table):
    """The rank of each row of an integer table among its distinct rows (equal rows, equal ranks)."""
    import numpy as np
    order = np.lexsort(table.T[::-1])
    ordered = table[order]
    new = np.empty(len(ordered), dtype=bool)
    new[0] = True
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    ranks = np.empty(len(ordered), dtype=np.int64)
    ranks[order] = np.cumsum(new) - 1
    return ranks


def each_alone(colour: dict, ball, positions) -> bool:
    """Whether each of `positions` is in the ball with a colour no other position of the ball has."""
    counts = Counter(colour[v] for v in ball)
    return all(p in colour and counts[colour[p]] == 1 for p in positions)


def _window_dilated(n, w, wd, r) -> Union[FamilyTheorem, OpenFamily]:
    if all(_is_int(x) for x in (w, wd, r)) and int(w) >= 1 and int(wd) >= 1 and int(r) >= int(w) + 2:
        return _window_wide_dilation(n, int(w), int(wd), int(r))
    if not (all(_is_int(x) for x in (w, wd, r)) and 2 <= int(r) <= int(w) + 1 and int(wd) * int(r) >= int(w) + 2):
        return OpenFamily("window(w) + dilated(w', r)",
                          "outside Theorem F9's parameters (integers 2 ≤ r ≤ w + 1 with w'r ≥ w + 2: r > w + 1, or "
                          "symbolic w, w', r) the exact diameter (an offset-sum problem with boundary effects), the "
                          f"group and the least layer count at symbolic n are not proved ({SECTION}, open question O3)")
    w, wd, r = int(w), int(wd), int(r)
    steps, top, mu = dilated_steps(w, wd, r)
    extent = dilated_base_check(w, wd, r)
    if extent is None:
        return OpenFamily("window(w) + dilated(w', r)",
                          "the base case of Theorem F9 is not settled by colour refinement for these parameters, so "
                          f"the group and the least layer count at symbolic n are not proved ({SECTION}, open question O3)")
    radius = (extent - 1) // top
    diameter = floor((n - 1 - mu) / top) + 2
    return FamilyTheorem(
        "F9", "window(w) + dilated(w', r), 2 ≤ r ≤ w + 1 ≤ w'r − 1",
        (("w", Integer(w)), ("w'", Integer(wd)), ("r", Integer(r))),
        Integer(max(2 * top + 1, radius * top + mu + 1)), diameter, "reflection", Integer(2), ("i ↦ n + 1 − i",),
        diameter, True,
        "a permutation that keeps the neighbourhoods within distance D − 1 of a position fixes an end (the only "
        "positions of least degree), then the positions near it (colour refinement of the ball around the end), "
        "then each next position by its least known neighbour; so it is in G and no view witness exists: D layers "
        "suffice")


# ---------------------------------------------------------------------------------------------
# Theorem F15: window(w) + dilated(w', r) with r ≥ w + 2 (docs/theory.md §11.11)

def dilated_cost(w: int, wd: int, r: int, x: int) -> int:
    """c(x): the least number of steps from ±S, S = {1..w} ∪ {r, …, w'r} (r ≥ w + 2), summing to x ≥ 0
    (walks in Z, no boundary): min over J ≥ 0 of ⌈J/w'⌉ + ⌈|x − Jr|/w⌉, J ≤ ⌊x/r⌋ + 1 (Theorem F15, (1))."""
    return min(-(-j // wd) + -(-abs(x - j * r) // w) for j in range(0, x // r + 2))


def confined_cost(steps: Sequence[int], x: int) -> int:
    """g(x): the least number of steps from ±S of a walk from 0 to x that stays in [0, x] (BFS)."""
    dist = {0: 0}
    frontier = [0]
    while x not in dist:
        nxt = []
        for u in frontier:
            for d in steps:
                for v in (u - d, u + d):
                    if 0 <= v <= x and v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
        frontier = nxt
    return dist[x]


@dataclass(frozen=True)
class WideDilation:
    """The finite data of Theorem F15 for window(w) + dilated(w', r), r ≥ w + 2: D(n) = ⌊(n − 1 − mu)/L⌋ + top
    for n ≥ ``low`` (with G the reflection and D layers, least), computed from the step costs."""
    steps: tuple
    L: int
    excess: int        # E = max of c over 0 ≤ ρ < L
    periodic: int      # X2: c(x + L) = c(x) + 1 for x ≥ X2
    mu: int            # D(n) = ⌊(n − 1 − mu)/L⌋ + top
    top: int
    formula_from: int  # N1: max_{x ≤ N} c(x) = ⌊(N − mu)/L⌋ + top for every N ≥ N1
    short: int         # Gs = max over x < L of g(x)
    radius: Optional[int]  # R of the base case (None: not settled)
    low: int           # the range n ≥ low


#: Theorem F15's finite computation runs for w'r up to this.
WIDE_DILATION_MAX_L = 96


@lru_cache(maxsize=64)
def wide_dilation(w: int, wd: int, r: int) -> WideDilation:
    """Theorem F15's constants (docs/theory.md §11.11), each by the finite computation its proof names."""
    steps = tuple(sorted(set(range(1, w + 1)) | {k * r for k in range(1, wd + 1)}))
    L = wd * r
    cost = [dilated_cost(w, wd, r, x) for x in range(L)]
    excess = max(cost)
    # (2): beyond X2 every optimal J for x + L is ≥ w', so c(x + L) = c(x) + 1: a J < w' leaves a small part
    # ≥ x + r, costing ≥ (x + r)/w > (x + L)/L + E ≥ c(x + L) once x(L − w) > (w(1 + E) − r)L
    periodic = max(0, (w * (1 + excess) - r) * L // (L - w) + 1)
    start = periodic + L - 1                          # N0 ≥ X2 + L − 1
    end = start + 2 * L
    cost += [dilated_cost(w, wd, r, x) for x in range(L, end + 1)]
    running, best = [], -1
    for x in range(end + 1):
        best = max(best, cost[x])
        running.append(best)
    # P(N0) = max over X2 ≤ x ≤ N0 of c(x) must reach max_{x ≤ X2 + L − 1} c(x) (then the running maximum
    # gains exactly 1 per period from N0 on)
    if max(cost[periodic:start + 1]) < running[periodic + L - 1]:
        raise ValueError("the running maximum of the costs is not periodic at N0")  # not reached (proof)
    top_value = running[start]
    # fit ⌊(N − mu)/L⌋ + t on the period [start, start + L)
    jumps = [N for N in range(start + 1, start + L + 1) if running[N] == running[N - 1] + 1]
    if len(jumps) != 1:
        raise ValueError("the running maximum does not gain exactly once per period")
    mu = jumps[0] % L
    top = top_value - (start - mu) // L

    def formula(N: int) -> int:
        return (N - mu) // L + top
    if any(formula(N) != running[N] for N in range(start, end + 1)):
        raise ValueError("the closed form does not fit one period")
    first = start
    while first > 0 and formula(first - 1) == running[first - 1]:
        first -= 1
    short = max(confined_cost(steps, x) for x in range(1, L))
    radius = next((k for k in range(1, 7) if dilated_ball_separates(w, wd, r, k) is not None), None)
    low = wide_dilation_low(L, mu, top, first, short, radius or 0)
    return WideDilation(steps, L, excess, periodic, mu, top, first, short, radius, low)


def wide_dilation_low(L: int, mu: int, top: int, first: int, short: int, radius: int) -> int:
    """The least n₀ such that every n ≥ n₀ satisfies the hypotheses of Theorem F15's proof: n ≥ 2L + 1 and
    n ≥ 1 + RL (the ends, the group); n − 1 ≥ N1 and D ≥ Gs + 1 with D = ⌊(n − 1 − mu)/L⌋ + top (the
    diameter, and every pair less than L apart within D − 1); with X = L⌊(n − 1 − mu)/L⌋ + mu (the least
    offset whose running maximum reaches D): X − 1 ≥ N1, 2X > n − 1 and X ≥ RL + 1 (the ball)."""
    def holds(n: int) -> bool:
        q = (n - 1 - mu) // L
        x = L * q + mu
        return (n >= 2 * L + 1 and n >= 1 + radius * L and n - 1 >= first and q + top >= short + 1
                and x - 1 >= first and 2 * x > n - 1 and x >= radius * L + 1)
    # every condition holds from U on (X > n − 1 − L), so scan down from there
    n = max(2 * L + 2, first + L + 1, radius * L + L + 2, L * (short + 1 - top) + mu + 1 + L)
    assert all(holds(m) for m in range(n, n + 2 * L))
    while n > 1 and holds(n - 1):
        n -= 1
    return n


def _window_wide_dilation(n, w: int, wd: int, r: int) -> Union[FamilyTheorem, OpenFamily]:
    """Theorem F15: `window(w) + dilated(w', r)`, integers w, w' ≥ 1, r ≥ w + 2 (docs/theory.md §11.11)."""
    if wd * r > WIDE_DILATION_MAX_L:
        return OpenFamily("window(w) + dilated(w', r)",
                          f"Theorem F15's finite computation (step costs, the ball around position 1) is run for "
                          f"w'r ≤ {WIDE_DILATION_MAX_L} only; here w'r = {wd * r}, so the diameter, the group and the "
                          f"least layer count at symbolic n are not stated ({SECTION}, open question O3)")
    data = wide_dilation(w, wd, r)
    if data.radius is None:
        return OpenFamily("window(w) + dilated(w', r)",
                          "the base case of Theorem F15 (colour refinement of the ball around position 1) is not "
                          f"settled for these parameters, so the group and the least layer count at symbolic n are "
                          f"not proved ({SECTION}, open question O3)")
    diameter = floor((n - 1 - data.mu) / data.L) + data.top
    return FamilyTheorem(
        "F15", "window(w) + dilated(w', r), r ≥ w + 2",
        (("w", Integer(w)), ("w'", Integer(wd)), ("r", Integer(r))),
        Integer(data.low), diameter, "reflection", Integer(2), ("i ↦ n + 1 − i",), diameter, True,
        "a permutation that keeps the neighbourhoods within distance D − 1 of a position fixes an end (the only "
        "positions of least degree), then the positions near it (colour refinement of the ball around the end), "
        "then each next position by its least known neighbour; so it is in G and no view witness exists: D layers "
        "suffice")


def _exact_int(e, values: Mapping[str, int]) -> Optional[int]:
    """An expression of the theorem at integer values of n and the parameters (by symbol name)."""
    if e is None:
        return None
    e = sympy.sympify(e, strict=True)  # safe: strict (no text parsed)
    sub = {s: Integer(values[s.name]) for s in e.free_symbols if s.name in values}
    v = e.xreplace(sub)
    if isinstance(v, sympy.Piecewise):
        v = v.doit()
        for expr, cond in v.args:
            if cond is sympy.true or sympy.simplify(cond) is sympy.true:
                v = expr
                break
    v = sympy.sympify(v, strict=True).doit()  # safe: strict (no text parsed)
    if not v.is_Integer:
        raise ValueError(f"{e} is not decided by {values}")
    return int(v)


def in_range(theorem: FamilyTheorem, values: Mapping[str, int]) -> bool:
    """n (values[name of n]) ≥ low at these integer values (and gcd(n, coprime_to) = 1)."""
    gap = _exact_int(theorem.n_symbol - theorem.low, values)
    if theorem.coprime_to > 1 and gcd(_exact_int(theorem.n_symbol, values) or 0, theorem.coprime_to) != 1:
        return False
    return gap is not None and gap >= 0


def coprime_words(n, g: int) -> str:
    """The condition gcd(n, g) = 1 in words: "n odd" for g = 2."""
    name = sympy.sstr(n)
    return f"{name} odd" if g == 2 else f"gcd({name}, {g}) = 1"


def at(theorem: FamilyTheorem, values: Mapping[str, int]) -> dict:
    """The theorem's values at integer n and parameters (keys: symbol names), n in the range."""
    if not in_range(theorem, values):
        raise ValueError(f"{values} is outside the theorem's range n ≥ {theorem.low}")
    return {"diameter": _exact_int(theorem.diameter, values), "order": _exact_int(theorem.order, values),
            "layers": _exact_int(theorem.layers, values)}


# ---------------------------------------------------------------------------------------------
# The concrete engine, for the instance check and for the n below the range

@dataclass(frozen=True)
class ConcreteAnswer:
    n: int
    connected: bool
    diameter: Optional[int]
    order: int
    group: Optional[str]
    layers: Optional[int]
    least: bool


@lru_cache(maxsize=512)
def concrete(pattern: Pattern, n: int, layers: bool = True) -> ConcreteAnswer:
    """The concrete engine's answer for one head at this n (graphs, connectivity, symmetry, and with
    ``layers`` the rooted-view decision; without it `layers` is None)."""
    from . import analyze_connectivity, build_graph, symmetry_group
    from .symmetry import pattern_structure
    from .views import decide_views
    graphs = [build_graph(pattern, n, {})]
    grp = symmetry_group(graphs)
    # G is the head's whole automorphism group: its orbits serve the probe loop, as on the rules' route
    # (rules/pattern.py), so both ask for one kept answer (graphs/kept_results.py)
    conn = analyze_connectivity(graphs, union_automorphisms=grp.generators)
    name = grp.structure or grp.name
    if not conn.strongly_connected or conn.diameter is None:
        return ConcreteAnswer(n, bool(conn.strongly_connected), None, int(grp.order), name, None, False)
    d = int(conn.diameter)
    if d <= 1:
        return ConcreteAnswer(n, True, d, int(grp.order), name, 1, True)
    if not layers:
        return ConcreteAnswer(n, True, d, int(grp.order), name, None, False)
    st = pattern_structure(graphs)
    # the transposition probe only finds witnesses early; the canonical test after it decides either way, so
    # its work bound is small here (an instance check where D layers suffice would spend all of it)
    # the far sets need a bound on every eccentricity; below the exact test's first work (views.EXACT_FIRST_WORK,
    # at most n views of every arc) they are not used, and the bound, numpy's, is not made
    from .views import EXACT_FIRST_WORK
    far = n * max(1, graphs[0].num_arcs) > EXACT_FIRST_WORK
    dec = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=INSTANCE_PROBE_WORK,
                       certificate=False, ecc_bound=_ecc_bound(conn) if far else None)
    if dec.sufficient is None:
        return ConcreteAnswer(n, True, d, int(grp.order), name, d + 1, False)
    return ConcreteAnswer(n, True, d, int(grp.order), name, d if dec.sufficient else d + 1, True)


def _ecc_bound(conn):
    """An upper bound on every position's ecc_out from the diameter's search: all eccentricities, Theorem F131's bound
    array, or the probes' ecc_out(w) <= d(w -> p) + ecc_out(p) (docs/theory.md §11.3); the rooted views then come
    from the far sets of Theorem F132 (§11.9), with the same answer as one canonical form per root. None otherwise."""
    ub = conn.upper_bound
    held = None if ub is None else ub.every_ecc_out()
    if ub is None or held is not None or ub.method != "bounds" or ub.batches or not ub.probes:
        return held
    import numpy as np
    best = None
    for p in ub.probes:
        row = np.asarray(p.dist_in, dtype=np.int64) + int(p.ecc_out)
        best = row if best is None else np.minimum(best, row)
    return best


def instance_pattern(heads: Sequence[Pattern], values: Mapping[str, int]) -> Optional[Pattern]:
    """The head's pattern with the parameters replaced by integers (None if a parameter has none)."""
    from ..spec import PatternUnion
    import dataclasses

    def sub(p):
        if isinstance(p, PatternUnion):
            return PatternUnion(tuple(sub(q) for q in p.parts))
        changes = {}
        for f in dataclasses.fields(p):
            v = getattr(p, f.name)
            if isinstance(v, str):
                name, sign = (v[1:], -1) if v.startswith("-") else (v, 1)
                if name not in values:
                    raise KeyError(name)
                changes[f.name] = sign * int(values[name])
            elif isinstance(v, tuple) and any(isinstance(x, str) for x in v):
                out = []
                for x in v:
                    if isinstance(x, str):
                        name, sign = (x[1:], -1) if x.startswith("-") else (x, 1)
                        out.append(sign * int(values[name]))
                    else:
                        out.append(x)
                changes[f.name] = tuple(out)
        return dataclasses.replace(p, **changes) if changes else p
    try:
        return sub(heads[0])
    except KeyError:
        return None


def instance_check(theorem: FamilyTheorem, pattern: Pattern, values: Mapping[str, int]) -> Optional[str]:
    """Compare the theorem at integer values (n in its range, keyed by the symbol's name) with the
    concrete engine on ``pattern`` (the instance at those parameter values): None when they agree,
    else what differs (a discrepancy is an engine or theorem bug, never a verdict)."""
    want = at(theorem, values)
    n = int(values[theorem.n_symbol.name]) if isinstance(theorem.n_symbol, sympy.Symbol) else int(theorem.n_symbol)
    if theorem.group_open and n % theorem.group_open[0] in theorem.group_open[1]:
        want = dict(want, order=None)  # no group is claimed on this class (F26, w ≥ 2)
    # A count D + 1 not claimed least can never be exceeded (the concrete count is D or D + 1, §11.2): once the
    # diameters agree there is nothing to compare, and the rooted-view decision is not run
    least = theorem.least_at(n)  # least on every class, or on n's (a least flag by residue class)
    vacuous = (want["layers"] is not None and not least and want["diameter"] is not None
               and want["layers"] == want["diameter"] + 1)
    got = concrete(pattern, n, want["layers"] is not None and not vacuous)
    if not theorem.diameter_exact:  # F50, F51: a bound on D, and the layers sufficient (F50: the bound; F51: + 1)
        if not got.connected or got.diameter is None or got.diameter > want["diameter"]:
            return f"n = {n}: diameter {got.diameter} (concrete) above the bound {want['diameter']} (theorem {theorem.theorem})"
        if want["order"] is not None and got.order != want["order"]:
            return f"n = {n}: |G| = {got.order} (concrete) ≠ {want['order']} (theorem {theorem.theorem})"
        if want["layers"] is not None and got.least and got.layers > want["layers"]:
            return f"n = {n}: least layers {got.layers} (concrete) above {want['layers']} (theorem {theorem.theorem})"
        return None
    if not got.connected or got.diameter != want["diameter"]:
        return f"n = {n}: diameter {got.diameter} (concrete) ≠ {want['diameter']} (theorem {theorem.theorem})"
    if want["order"] is not None and got.order != want["order"]:
        return f"n = {n}: |G| = {got.order} (concrete) ≠ {want['order']} (theorem {theorem.theorem})"
    if want["layers"] is not None and got.least and got.layers != want["layers"] and (
            least or got.layers > want["layers"]):  # a count not claimed least must be sufficient
        return f"n = {n}: least layers {got.layers} (concrete) ≠ {want['layers']} (theorem {theorem.theorem})"
    return None


def check_instance(pattern: Pattern, lower_bounds: Mapping[str, int], biases=None,
                   positional: str = "none", length: Optional[int] = None) -> tuple[str, Optional[str]]:
    """The instance check of a family theorem: the theorem at symbolic n (each named parameter with a
    lower bound ≥ 1 as a positive Symbol) evaluated at the start of its range, parameters at their
    lower bounds, against the concrete engine. Returns (what was compared, the discrepancy or None).
    For Lemma F13 (a theorem at the integer ``length`` only): the multiplier is checked on the offsets,
    and the image's theorem gets its own instance check. Kept per process (uapcheck/memo.py): a function of its
    arguments alone, which the step, its certificate's check and each length below a range ask again."""
    return _check_instance(pattern, lower_bounds, biases, positional, length)


@exact_cache(maxsize=256)
def _check_instance(pattern: Pattern, lower_bounds: Mapping[str, int], biases, positional: str,
                    length: Optional[int]) -> tuple[str, Optional[str]]:
    if length is not None and not biases_or_positional(biases, positional):
        at_n = match([pattern], Integer(length), {})
        if isinstance(at_n, FamilyTheorem) and at_n.theorem == "F13":
            return _multiplier_instance(at_n, pattern, length)
    n = sympy.Symbol("n", integer=True, positive=True)
    params = {k: sympy.Symbol(k, integer=True, positive=True) for k, v in lower_bounds.items() if v >= 1}
    theorem = match([pattern], n, params, biases, positional, lower=dict(lower_bounds))
    if not isinstance(theorem, FamilyTheorem):
        return "", "the family theorem does not match at symbolic n"
    values = dict(lower_bounds)
    low = theorem.low.xreplace({s: Integer(values[s.name]) for s in theorem.low.free_symbols if s.name in values})
    if not low.is_Integer:
        return "", f"theorem {theorem.theorem}: no integer instance to check"
    values["n"] = max(int(low), 1)
    instance = instance_pattern([pattern], values)
    if instance is None:
        return "", f"theorem {theorem.theorem}: a parameter has no value for the instance check"
    shown = ", ".join(f"{k} = {v}" for k, v in sorted(values.items()))
    if values["n"] > INSTANCE_MAX_N:
        return f"instance check skipped at {shown} (above {INSTANCE_MAX_N} positions)", None
    return f"the concrete engine agrees at {shown}", instance_check(theorem, instance, values)


def biases_or_positional(biases, positional: str) -> bool:
    return bool(biases and any(b is not None for b in biases)) or positional != "none"


def _multiplier_instance(theorem: FamilyTheorem, pattern: Pattern, n: int) -> tuple[str, Optional[str]]:
    from ..spec import Offsets
    u = int(theorem.values()["u"])
    jumps = [int(k) for k in getattr(pattern, "offsets", ())]
    mapped = sorted({(u * k) % n for k in jumps})
    if not isinstance(pattern, Offsets) or not pattern.cyclic or mapped != sorted({k % n for k in theorem.image}):
        return "", f"x ↦ {u}x (mod {n}) does not map the offsets onto {theorem.image}"
    text, problem = check_instance(Offsets(theorem.image, True), {})
    shown = ", ".join(str(k) for k in theorem.image)
    return f"x ↦ {u}x (mod {n}) maps the offsets onto {{{shown}}}; for those, {text}", problem


#: The transposition probe's work bound in the concrete engine's answer (the exact test follows it): about 0.2 s of
#: CPU, where a clock of 0.2 s stopped it before (views.PROBE_WORK).
INSTANCE_PROBE_WORK = 1_000_000

#: The instance check runs the concrete engine up to this many positions.
INSTANCE_MAX_N = 512

#: Below a theorem's range, the concrete answers are listed when the range starts at most here.
SMALL_N_LISTED = 40


def small_cases(pattern: Pattern, low: int) -> list[ConcreteAnswer]:
    """The concrete engine's answers for 1 ≤ n < low (only when low ≤ SMALL_N_LISTED)."""
    if low > SMALL_N_LISTED:
        return []
    return [concrete(pattern, n) for n in range(1, low)]


def describe(answer: ConcreteAnswer) -> str:
    if not answer.connected:
        return f"n = {answer.n}: not strongly connected"
    if answer.n == 1:
        return "n = 1: a single position"
    lay = f"{answer.layers} layer{'s' if answer.layers != 1 else ''}" + ("" if answer.least else " (sufficient)")
    group = f" ({answer.group})" if answer.group else ""
    return f"n = {answer.n}: D = {answer.diameter}, |G| = {answer.order}{group}, {lay}"
