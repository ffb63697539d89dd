"""Theorem F210 (docs/theory.md §11.11): several unbiased heads whose patterns are `window(w) cyclic`, `strided(s)` and
their union `window(w) cyclic + strided(s)` (at least two of the three, both parts present), integers w + 1 ≤ s ≤ 2w + 1,
s ≥ 3, at every n ≥ s(3w + 2) (Theorem F201's range). The union of their arcs is F201's pattern: D = 2 (Theorem F197,
which lets the parts lie in different heads), and G = ∩ Aut(head) is F201's group, so D + 1 = 3 layers suffice; on the
classes of n mod s where Theorem F200 gives a view witness of the union (every class for s = 2w + 1), that witness also
keeps every head's neighbourhood of every position within distance 1 of its root, and it is no symmetry of the union,
so it is not in G: 3 layers are least there (a least flag by class), sufficient, not shown least, on the others;
for s ≤ 2w, on the class n ≡ 0 (mod s), D = 2 layers suffice and are least (Theorem F218, lemma AH: a view witness of
the heads would be one of the union). A count by class: 2 on n ≡ 0, 3 on the others.

The rule as data: the heads' parts are read off the patterns, the classes are Theorem F200's
(``cyclic_covered_least.witness_classes``). Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import sympy

from .. import spec as S
from . import cyclic_covered_least as covered


@dataclass(frozen=True)
class CoveredHeads:
    """The heads' w and s, the range's start s(3w + 2) and the residues of n mod s where 3 layers are least."""

    w: int
    s: int
    low: int
    classes: tuple[int, ...]

    @property
    def every(self) -> bool:
        return len(self.classes) == self.s

    @property
    def divisible(self) -> bool:
        """Theorem F218 (lemma AH): for s ≤ 2w, D = 2 layers suffice (and are least) on the class n ≡ 0 (mod s)."""
        return self.s <= 2 * self.w

    @property
    def least_residues(self) -> tuple[int, ...]:
        """The residues of n mod s where the count is least: 0 by Theorem F218 (s ≤ 2w), and F200's classes."""
        return tuple(sorted(set(self.classes) | ({0} if self.divisible else set())))

    def layers(self, n) -> sympy.Expr:
        """The count at the length n (a Symbol or an integer): 2 on n ≡ 0 (mod s) when s ≤ 2w (Theorem F218), else
        D + 1 = 3 (the view argument; least on F200's classes)."""
        if not self.divisible:
            return sympy.Integer(3)
        if not isinstance(n, sympy.Symbol):
            return sympy.Integer(2 if int(n) % self.s == 0 else 3)
        return sympy.Piecewise((sympy.Integer(2), sympy.Eq(sympy.Mod(n, self.s), 0)), (sympy.Integer(3), True))


def _int(v) -> Optional[int]:
    try:
        got = int(v)
    except (TypeError, ValueError):
        return None
    return got if got == v and not isinstance(v, bool) else None


def _parts(p: S.Pattern) -> Optional[frozenset]:
    """A head's parts as ("window", w) and ("strided", s) with integer sizes (the window cyclic); None for any
    other part."""
    out = set()
    for q in (p.parts if isinstance(p, S.PatternUnion) else (p,)):
        if isinstance(q, S.Window) and q.cyclic and _int(q.w) is not None:
            out.add(("window", _int(q.w)))
        elif isinstance(q, S.Strided) and _int(q.s) is not None:
            out.add(("strided", _int(q.s)))
        else:
            return None
    return frozenset(out)


def match(patterns: Sequence[S.Pattern]) -> Optional[CoveredHeads]:
    """F210's heads: at least two distinct patterns, each `window(w) cyclic`, `strided(s)` or their union (one w, one
    s), w + 1 ≤ s ≤ 2w + 1 and s ≥ 3; else None. (The caller asks for no bias and no positional encoding.)"""
    distinct = list(dict.fromkeys(patterns))
    if len(distinct) < 2:
        return None
    every: frozenset = frozenset()
    for p in distinct:
        head = _parts(p)
        if not head:
            return None
        every |= head
    kinds = sorted(kind for kind, _ in every)
    if kinds != ["strided", "window"]:
        return None
    w = next(v for kind, v in every if kind == "window")
    s = next(v for kind, v in every if kind == "strided")
    if not (w >= 1 and w + 1 <= s <= 2 * w + 1 and s >= 3):
        return None
    return CoveredHeads(w, s, covered.low(w, s), covered.witness_classes(w, s))
