"""Several heads whose union is a cyclic window, each head a union of translation-invariant parts (windows, offsets
and dilations, cyclic or not): their least layer count at symbolic n (docs/theory.md §11.11, Theorem F143).

The union `window(w) cyclic` needs D = ⌈⌊n/2⌋/w⌉ layers for n ≥ 2w + 3 with Aut(Γ) = D_n and no view witness
(Theorem F5), so a view witness of the heads is a rotation or a reflection that keeps every head's neighbourhoods
on the ball B_i, the cyclic interval of radius R = w(D − 1) around i. Write each head's neighbourhood of v as
offsets: its cyclic offsets C_h at every v, its non-cyclic offsets P_h outside C_h where v + p lies in [1, n]. The
positions where some non-cyclic offset leaves [1, n] form the zone Z around the wrap, z = a + b positions (a the
largest positive non-cyclic offset, b the largest negative one in absolute value); elsewhere every head has its
full offset set T_h = C_h ∪ P_h. When some T_h ≠ −T_h (no reflection keeps a position of full profile) or every head
is invariant under ρ(x) = n + 1 − x, a witness exists iff z > 0 and n − z ≥ 2R + 2 (the ball and its shift by one
fit between the zone's ends); that is a condition on n mod 2w alone (``extra_residues``). When every T_h = −T_h but
some head is not ρ-invariant (case (S)), the one reflection ρ_Z that reverses the zone may be a witness too: it fails
the condition exactly on the zone positions F where some head's profile is not the mirror image of its image's, and
is a witness iff F ≠ ∅ and a ball avoids F's hull (f positions): n − f ≥ 2R + 1 (``reflection_residues``). Likewise (F143 (O)) when the
union is `offsets {1, …, w} cyclic` (Theorem F6, Aut = C_n, the ball the R + 1 positions i, …, i + R): a witness, a
rotation, exists iff the non-cyclic offsets reach a > 0 positions past the end and n − a ≥ R + 2, a condition on n mod
w (``one_sided_residues``).

The heads' group (Theorem F153) comes from the same data: G ⊆ Aut(Γ) (D_n, or C_n for (O)), an element keeps every head
iff it keeps every position's profiles, so a rotation in G fixes the zone (none but the identity when z > 0), and a
reflection in G keeps a full profile reversed (none in case (A)) and reverses the zone (ρ_Z alone, which fails at the
zone's end position in case (S)): C_n or D_n without a zone, else {id, ρ} in case (R) and trivial otherwise
(``heads_group``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

import sympy
from sympy import Integer

from ..spec import Pattern

SECTION = "docs/theory.md §11.11, Theorem F143"
#: the union's family theorems: F5 `window(w) cyclic`, D = ⌈⌊n/2⌋/w⌉ layers, Aut = D_n, n ≥ 2w + 3; F6 `offsets {1, …,
#: w} cyclic` (or {−w, …, −1}), D = ⌈(n − 1)/w⌉ layers, Aut = C_n, n ≥ 2w + 2 (F143 (O))
UNION_THEOREMS = ("F5", "F6")


@dataclass(frozen=True)
class HeadOffsets:
    """One head as offsets: ``cyclic`` at every position, ``line`` (non-cyclic, not among the cyclic ones) where
    v + p lies in [1, n]; nonzero, each at most w in absolute value."""
    cyclic: frozenset
    line: frozenset

    @property
    def full(self) -> frozenset:
        return self.cyclic | self.line

    def reflected(self) -> bool:
        """The head's arcs are invariant under x ↦ n + 1 − x (both offset sets symmetric)."""
        return self.cyclic == frozenset(-x for x in self.cyclic) and self.line == frozenset(-x for x in self.line)


@dataclass(frozen=True)
class CyclicHeads:
    """Theorem F143's data: the union's radius ``w``, the zone's sides ``a`` (positions n − a + 1, …, n) and ``b``
    (positions 1, …, b), the case (``asymmetric``: some head's full offset set is not symmetric; ``reflected``: every
    head is invariant under ρ; ``symmetric``: every full offset set symmetric, some head not invariant under ρ) and
    the residues of n mod 2w where the count is D + 1; in the symmetric case the zone positions where ρ_Z fails, as
    the interval ``failing`` = (lo, hi) of zone coordinates (x = v for v ≤ b, x = v − n for v > n − a), or None."""
    w: int
    a: int
    b: int
    case: str
    extra_residues: tuple
    one_sided: int = 0  # F143 (O): the union is `offsets {1, …, w} cyclic` (1) or {−w, …, −1} (−1), not a cyclic window
    failing: Optional[tuple] = None  # case (S): the hull (lo, hi) of the zone coordinates where ρ_Z fails, or None

    @property
    def reflection_witness(self) -> bool:
        """Case (S) with ρ_Z outside G: the witness on every class that needs D + 1 is ρ_Z (its classes hold the
        rotation's, f ≤ z)."""
        return self.failing is not None

    @property
    def modulus(self) -> int:
        return self.w if self.one_sided else 2 * self.w

    def position(self, diameter: sympy.Expr) -> sympy.Expr:
        """The witness's position: its ball (the arc of radius R = w(D − 1) around it; one-sided, the R positions after
        it, or before it for {−w, …, −1}) and the ball's shift by one avoid the zone."""
        if self.one_sided == 1:
            return Integer(1)
        if self.failing is not None:  # ρ_Z: the ball is the 2R + 1 positions after F's hull
            return Integer(self.failing[1] + 1) + self.w * (diameter - 1)
        return Integer(self.b + 1) + self.w * (diameter - 1)

    def permutation(self) -> str:
        """The witness: the rotation by one, or in case (S) with F ≠ ∅ the reflection ρ_Z exchanging b and n − a + 1."""
        if self.failing is None:
            return "i ↦ i + 1 (mod n)"
        shift = self.b - self.a + 1
        return f"i ↦ n {'+' if shift >= 0 else '−'} {abs(shift)} − i (mod n)"


def head_offsets(pattern: Pattern, params: Mapping) -> Optional[HeadOffsets]:
    """The head as offsets when every part is a window, offsets or dilation with integer sizes; else None."""
    from .closed_forms import _atoms, _is_int, _Undecided
    try:
        atoms = _atoms(pattern, dict(params))
    except (_Undecided, KeyError, TypeError, ValueError):
        return None
    cyclic: set = set()
    line: set = set()
    for x in atoms:
        if x.kind == "empty":
            continue
        if not all(_is_int(v) for v in x.args):
            return None
        args = [int(v) for v in x.args]
        if x.kind in ("window", "cwindow"):
            values = set(range(-args[0], args[0] + 1)) - {0}
        elif x.kind in ("offsets", "coffsets"):
            values = set(args) - {0}
        elif x.kind == "dilated":
            w, r = args
            values = {k * r for k in range(-w, w + 1)} - {0}
        else:
            return None
        (cyclic if x.kind in ("cwindow", "coffsets") else line).update(values)
    return HeadOffsets(frozenset(cyclic), frozenset(line - cyclic))


def one_sided_residues(w: int, z: int) -> tuple:
    """F143 (O): the residues r of n mod w where n − z ≥ w(D − 1) + 2, D = ⌈(n − 1)/w⌉ (for n − 1 = wq + c: D = q when c
    = 0, q + 1 when c > 0, so the inequality reads z ≤ w − 1, resp. z ≤ c − 1, whatever q); none when z = 0."""
    if z == 0:
        return ()
    return tuple(r for r in range(w) if (z <= w - 1 if (r - 1) % w == 0 else z <= (r - 1) % w - 1))


def extra_residues(w: int, z: int) -> tuple:
    """The residues r of n mod 2w where n − z ≥ 2w(D − 1) + 2, D = ⌈⌊n/2⌋/w⌉ (for n = 2wq + r: D = q when r ≤ 1,
    q + 1 when r ≥ 2, so the inequality reads z ≤ 2w − 2 + r, resp. z ≤ r − 2, whatever q); none when z = 0."""
    if z == 0:
        return ()
    return tuple(r for r in range(2 * w) if (z <= 2 * w - 2 + r if r <= 1 else z <= r - 2))


def zone_profile(head: HeadOffsets, x: int) -> frozenset:
    """T_h at the zone coordinate x (x = v for the first positions, x = v − n ≤ 0 for the last ones; n ≥ 2w + 3): the
    cyclic offsets and the non-cyclic ones that stay in [1, n] (p ≤ −x for x ≤ 0, p ≥ 1 − x for x ≥ 1)."""
    kept = {p for p in head.line if (p <= -x if x <= 0 else p >= 1 - x)}
    return head.cyclic | frozenset(kept)


def reflection_failures(heads: Sequence[HeadOffsets], a: int, b: int) -> Optional[tuple]:
    """Case (S): the hull (lo, hi) of the zone coordinates x ∈ [−a + 1, b] where ρ_Z (x ↦ b − a + 1 − x, the
    reflection reversing the zone) maps some head's profile onto another set than the mirror image, T_h(ρ_Z x) ≠
    −T_h(x); None when there is none (ρ_Z keeps every head)."""
    bad = [x for x in range(-a + 1, b + 1)
           if any(zone_profile(h, b - a + 1 - x) != frozenset(-p for p in zone_profile(h, x)) for h in heads)]
    return (min(bad), max(bad)) if bad else None


def reflection_residues(w: int, span: int) -> tuple:
    """Case (S): the residues r of n mod 2w where n − f ≥ 2w(D − 1) + 1 (a ball of 2R + 1 positions avoids F's hull
    of f positions; for n = 2wq + r this reads f ≤ 2w − 1 + r for r ≤ 1, f ≤ r − 1 for r ≥ 2); none when f = 0."""
    if span == 0:
        return ()
    return tuple(r for r in range(2 * w) if (span <= 2 * w - 1 + r if r <= 1 else span <= r - 1))


def decide(patterns: Sequence[Pattern], w: int, params: Mapping, one_sided: bool = False) -> Optional[CyclicHeads]:
    """F143's premises on the heads (their cyclic offsets cover ±1, …, ±w, or for (O) 1, …, w or −w, …, −1; every
    offset within that set) and its answer by case (asymmetric, reflected, symmetric), or None."""
    heads = [head_offsets(p, params) for p in patterns]
    if w < 1 or any(h is None for h in heads):
        return None
    found = [h for h in heads if h is not None]
    cyclic = frozenset().union(*[h.cyclic for h in found])
    if one_sided:
        sign = 1 if cyclic and min(cyclic) > 0 else -1
        window = frozenset(sign * k for k in range(1, w + 1))
    else:
        window = frozenset(range(-w, w + 1)) - {0}
    if cyclic != window or any(not h.full <= window for h in found):
        return None
    if one_sided:
        zone = max([0] + [abs(p) for h in found for p in h.line])
        a, b = (zone, 0) if sign == 1 else (0, zone)
        return CyclicHeads(w, a, b, "one-sided", one_sided_residues(w, zone), sign)
    if any(h.full != frozenset(-x for x in h.full) for h in found):
        case = "asymmetric"
    elif all(h.reflected() for h in found):
        case = "reflected"
    else:
        case = "symmetric"
    a = max([0] + [p for h in found for p in h.line])
    b = max([0] + [-p for h in found for p in h.line])
    failing = reflection_failures(found, a, b) if case == "symmetric" else None
    extra = extra_residues(w, a + b)
    if failing is not None:
        extra = tuple(sorted(set(extra) | set(reflection_residues(w, failing[1] - failing[0] + 1))))
    return CyclicHeads(w, a, b, case, extra, failing=failing)


#: the group's theorem, and the certificate kind that carries it (docs/theory.md §11.11, Theorem F153)
GROUP_SECTION = "docs/theory.md §11.11, Theorem F153"
GROUP_KIND = "cyclic window heads"


def heads_group(found: CyclicHeads) -> tuple:
    """Theorem F153: the heads' group for every n in F143's range, as a class result of graphs/head_intersection.py —
    ("rotations", 1, None) for C_n, ("rotations", 1, 1) for D_n without a zone; with one, ("finite", elements): the
    identity, and ρ: i ↦ n + 1 − i in case (R)."""
    if found.a + found.b == 0:  # every head cyclic: the rotations keep each; a reflection keeps a head iff T_h = −T_h
        return ("rotations", 1, 1 if found.case == "reflected" else None)
    if found.case == "reflected":  # a = b: ρ_Z is ρ, which keeps every head
        return ("finite", frozenset({("id",), ("refl", 1)}))
    return ("finite", frozenset({("id",)}))  # (A), (O), and (S), where position 1 or n always fails ρ_Z


def group_cases(patterns: Sequence[Pattern], n: sympy.Symbol, params: Mapping) -> Optional[list]:
    """Theorem F153 as one GroupCase for every n ≥ the union's bound (2w + 3, or 2w + 2 for (O)), carrying
    (GROUP_KIND, the CyclicHeads, the bound) for its certificate; None outside F143's premises."""
    from .closed_forms import GroupCase
    from .head_intersection import ClassResult, describe
    from .head_layers import union_theorem
    patterns = list(dict.fromkeys(patterns))
    if len(patterns) < 2 or not isinstance(n, sympy.Symbol):
        return None
    union = union_theorem(patterns, n, params)
    found = _tuple_of(patterns, union, params)
    if found is None:
        return None
    low = int(union.low)
    kind, *rest = heads_group(found)
    result = ClassResult(1, 0, low, kind, rest[0] if kind == "finite" else frozenset({(kind, *rest)}))
    named = describe(result, n)
    if named is None:
        return None
    order, name, structure, contains = named
    union_words = "one-sided cyclic offsets" if found.one_sided else "a cyclic window"
    rule = (f"several heads whose union is {union_words} (Theorem {union.theorem}): the union's group ∩ the heads' "
            f"profiles ({GROUP_SECTION})")
    return [GroupCase(sympy.Ge(n, low), order, name, None, contains, rule, structure,
                      intersection=(GROUP_KIND, found, low))]


def _tuple_of(patterns, union, params: Mapping):
    """The heads read as F143's tuple when their union is a cyclic window (or one-sided cyclic offsets) of an integer
    width from an integer bound on: `decide`'s answer, or None."""
    if union is None or union.theorem not in UNION_THEOREMS or union.low.free_symbols:
        return None
    w_value = dict(union.params).get("w")
    if w_value is None or not getattr(w_value, "is_Integer", False):
        return None
    return decide(patterns, int(w_value), params, one_sided=union.theorem == "F6")


def cyclic_window_heads(patterns: Sequence[Pattern], union, n: sympy.Symbol, params: Mapping):
    """Theorem F143 as a head_layers.HeadLayers (D, or D + 1 on the residues of n mod 2w it names, least, for every
    n ≥ 2w + 3), or None when its premises fail."""
    from .head_layers import HeadLayers
    found = _tuple_of(patterns, union, params)
    if found is None:
        return None
    diameter = union.diameter.xreplace({union.n_symbol: n})
    layers: sympy.Expr = diameter
    if len(found.extra_residues) == found.modulus:
        layers = diameter + 1
    elif found.extra_residues:
        layers = sympy.Piecewise(
            (diameter + 1, sympy.Or(*[sympy.Eq(sympy.Mod(n, found.modulus), r) for r in found.extra_residues])),
            (diameter, True))
    return HeadLayers("F143", union.theorem, int(union.low), diameter, layers, modulus=found.modulus,
                      cyclic_heads=found)
