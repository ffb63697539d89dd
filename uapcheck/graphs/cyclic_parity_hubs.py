"""A head `offsets {2, 4} cyclic` (or {−2, −4}, with or without the offset 0) beside a head `global(g)` (g ≥ 1) or
`star`, at symbolic n: Theorem F221 of docs/theory.md §11.11.

The offsets' graph A has the arcs i → i ± 2, i ± 4 (one sign, mod n). For odd n, multiplication by 2⁻¹ mod n maps it
onto the directed circulant C_n(1, 2), whose automorphisms are the rotations for n ≥ 4 (Lemma AI: of the two
out-neighbours v + 1, v + 2 of v exactly one has an arc to the other, so φ(v + 1) = φ(v) + 1); for even n = 2m it is
two copies of C_m(1, 2), on the odd and on the even positions, so Aut(A) = C_m ≀ S_2 for m ≥ 4. The hub head keeps
X = {1, …, g} (its positions adjacent to every other, n ≥ g + 2). A rotation keeping an interval of g < n positions is
the identity; so G is trivial for odd n ≥ max(5, g + 2), and for even n ≥ max(8, g + 2) it is {id, σ} with
σ = (1 2)(3 4)…(n − 1 n) when g is even, trivial when g is odd ≥ 3, and the n/2 rotations i ↦ i + 2t (mod n) of the
even positions, the odd ones fixed, when g = 1.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Optional, Sequence

import sympy
from sympy import And, Eq, Ge, Integer, Mod

from ..spec import Global, Offsets, Pattern, Star
from .closed_forms import GroupCase, _span

SECTION = "docs/theory.md §11.11, Theorem F221"
GROUP_KIND = "cyclic parity hubs"
#: σ's structure name: every odd position exchanged with the next
SWAP_NAME = "the exchange of 2j − 1 and 2j for every j"
#: g = 1, n even: the rotations of the even positions
ROTATIONS_NAME = "C_{n/2}: the rotations i ↦ i + 2t (mod n) of the even positions, the odd ones fixed"
#: the order code of that class (the others are the integers 1 and 2)
HALF = "n/2"


@dataclass(frozen=True)
class ParityHubs:
    """The offsets' sign (+1: {2, 4}; −1: {−2, −4}), whether 0 is among them, the hub count g, and the group on each
    class of n mod 2 from its bound: (residue, bound, order), order 2 meaning {id, σ} and HALF the rotations of the
    even positions."""
    sign: int
    loops: bool
    hubs: int
    classes: tuple


def classes_of(g: int) -> tuple:
    """F221's classes: odd n ≥ max(5, g + 2) trivial; even n ≥ max(8, g + 2) order 2 (g even), 1 (g odd ≥ 3) or
    n/2 (g = 1)."""
    odd = max(5, g + 2)
    odd += 1 - odd % 2
    even = max(8, g + 2)
    even += even % 2
    return ((0, even, HALF if g == 1 else 2 if g % 2 == 0 else 1), (1, odd, 1))


def order_of(code, n) -> sympy.Expr:
    """A class's order at n (a Symbol or an Integer)."""
    return n / 2 if code == HALF else Integer(code)


def rotation(n: int) -> tuple:
    """The generator of the g = 1 class at an even n: i ↦ i + 2 (mod n) on the even positions."""
    return tuple(i if i % 2 else (i + 1) % n + 1 for i in range(1, n + 1))


def swap(n: int) -> tuple:
    """σ at an even n: the images of 1..n."""
    return tuple(i + 1 if i % 2 else i - 1 for i in range(1, n + 1))


def _literal(term) -> Optional[int]:
    return term if isinstance(term, int) and not isinstance(term, bool) else None


def read_heads(patterns: Sequence[Pattern], params: Mapping) -> Optional[tuple[int, bool, int]]:
    """(sign, loops, g) when the distinct heads are exactly one `offsets {0?, 2, 4} cyclic` or `offsets {0?, −2, −4}
    cyclic` and one `global(g)` with a literal g ≥ 1 or `star` (g = 1), in either order, as written (integer literals);
    None otherwise."""
    distinct = list(dict.fromkeys(patterns))
    if len(distinct) != 2:
        return None
    offsets, hubs = None, None
    for pattern in distinct:
        if isinstance(pattern, Offsets) and pattern.cyclic and offsets is None:
            values = [_literal(k) for k in pattern.offsets]
            if any(v is None for v in values):
                return None
            nonzero = {v for v in values if v != 0}
            if nonzero not in ({2, 4}, {-2, -4}):
                return None
            offsets = (1 if nonzero == {2, 4} else -1, 0 in values)
        elif isinstance(pattern, Global) and (_literal(pattern.g) or 0) >= 1 and hubs is None:
            hubs = _literal(pattern.g)
        elif isinstance(pattern, Star) and hubs is None:
            hubs = 1
        else:
            return None
    if offsets is None or hubs is None:
        return None
    return offsets[0], offsets[1], hubs


def decide(patterns: Sequence[Pattern], params: Optional[Mapping] = None) -> Optional[ParityHubs]:
    got = read_heads(patterns, dict(params or {}))
    if got is None:
        return None
    sign, loops, g = got
    return ParityHubs(sign, loops, g, classes_of(g))


def case_of(found: ParityHubs, residue: int, n) -> GroupCase:
    """The GroupCase of one class of n mod 2 (n a Symbol: from the class's bound on; an Integer: true)."""
    _, low, order = next(c for c in found.classes if c[0] == residue)
    cond = sympy.true if isinstance(n, Integer) else And(Ge(n, low), Eq(Mod(n, 2), residue))
    rule = (f"offsets {{2, 4}} cyclic (two circulants C_m(1, 2) on the odd and the even positions when n is even) "
            f"beside {found.hubs} hubs: the maps of the offsets' head that keep {_span(1, found.hubs)} ({SECTION})")
    if order == 1:
        return GroupCase(cond, Integer(1), "trivial", None, frozenset(), rule, intersection=(GROUP_KIND, found, residue))
    return GroupCase(cond, order_of(order, n), None, None, frozenset(), rule,
                     ROTATIONS_NAME if order == HALF else SWAP_NAME, intersection=(GROUP_KIND, found, residue))


def group_cases(patterns: Sequence[Pattern], n, params: Optional[Mapping] = None) -> Optional[list]:
    """Theorem F221 as two GroupCases (n even, n odd, each from its bound), each carrying (GROUP_KIND, the decision,
    the residue) for its certificate; None outside the theorem."""
    if not isinstance(n, sympy.Symbol):
        return None
    found = decide(patterns, params)
    if found is None:
        return None
    return [case_of(found, r, n) for r in (0, 1)]


def group_at(patterns: Sequence[Pattern], n: int, params: Optional[Mapping] = None) -> Optional[GroupCase]:
    """F221 at a concrete length n from its class's bound on (no arc built), carrying the length; None otherwise."""
    found = decide(patterns, params)
    if found is None:
        return None
    _, low, _ = found.classes[0] if n % 2 == 0 else found.classes[1]
    if n < low:
        return None
    case = case_of(found, n % 2, Integer(n))
    return replace(case, rule=f"{case.rule}, read at n = {n:,}", intersection=(GROUP_KIND, found, n % 2, n))


def parity_json(found: ParityHubs, encode, n: "sympy.Symbol | None" = None) -> dict:
    """The decision as the certificates write it, a class's order as the expression that ``encode`` writes in the
    length's symbol ``n`` (the file's symbolic length; the theorems' n by default)."""
    n = sympy.Symbol("n", integer=True, positive=True) if n is None else n
    return {"sign": found.sign, "loops": found.loops, "hubs": found.hubs,
            "classes": [{"residue": r, "from": low, "order": encode(order_of(order, n))}
                        for r, low, order in found.classes]}
