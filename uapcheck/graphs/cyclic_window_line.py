"""`window(w) cyclic` with non-cyclic offsets outside it at symbolic n: Theorem F101 of docs/theory.md §11.11.

After the normal form (§11.13) such a union is `window(w) cyclic` with non-cyclic parts whose offsets outside
{−w, …, w} form a set A ≠ ∅ (the others are cyclic arcs already). With J = max |A| and S = {−w, …, w} ∪ A without 0:
the positions of largest in- plus out-degree are F = [J + 1, n − J] (a jump of A out of range is no arc, and none of
A is ≡ one of the window's mod n); the arcs among them are those of `offsets S` on a line, whose group is Theorem F41's
(trivial, or the reversal when S = −S) once |F| reaches F41's range; Theorem F41 (3)'s end argument extends the
identity to the positions near the seam (the positions it uses attend to no wrapped position). So G is the reflection
i ↦ n + 1 − i when A = −A, else trivial. D is at most the cyclic window's ⌈⌊n/2⌋/w⌉ (Theorem F5; more arcs shorten
distances), so that bound plus one layers suffice; D itself is not periodic from small n on and is not named.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import sympy
from sympy import Integer

from .offsets_line import MAX_JUMP, group_low, rigid_steps

SECTION = "docs/theory.md §11.11"


@dataclass(frozen=True)
class SeamData:
    w: int
    outside: tuple[int, ...]     # A: the non-cyclic offsets outside {−w, …, w}, sorted
    steps: tuple[int, ...]       # S = {−w, …, w} ∪ A without 0, as F41 reads it (mirrored so that a ≤ b)
    radius: int                  # F28's ball certificate radius for S
    low: int                     # the range: n ≥ low
    symmetric: bool              # A = −A


@lru_cache(maxsize=128)
def seam_data(w: int, jumps: tuple[int, ...]) -> Optional[SeamData]:
    """F101 for `window(w) cyclic` with the non-cyclic offsets ``jumps`` (0 and the window's own ignored), or None
    (nothing outside the window, a jump beyond MAX_JUMP, or no ball certificate)."""
    window = set(range(-w, w + 1))
    outside = tuple(sorted(set(jumps) - window))
    if w < 1 or not outside or max(abs(k) for k in outside) > MAX_JUMP:
        return None
    found = rigid_steps(sorted((window | set(outside)) - {0}))
    if found is None:
        return None
    steps, radius = found
    far = max(abs(k) for k in outside)
    # |F| = n − 2J reaches F41's range; n > 2J + w (no cyclic arc among F wraps, no jump of A ≡ one of the window's
    # mod n); n ≥ 2w + 3 (Theorem F5's bound on D)
    low = max(2 * far + group_low(steps, radius), 2 * far + w + 1, 2 * w + 3)
    return SeamData(w, outside, steps, radius, low, set(outside) == {-k for k in outside})


def theorem(n, data: SeamData):
    """F101 at the length n (a positive integer Symbol or an Integer)."""
    from .families import FamilyTheorem
    w = data.w
    bound = sympy.ceiling(sympy.floor(n / 2) / w)
    shown = ", ".join(str(k) for k in data.outside)
    if data.symmetric:
        group, order = "reflection", Integer(2)
    else:
        group, order = "trivial", Integer(1)
    why = (f"D ≤ ⌈⌊n/2⌋/{w}⌉, the diameter of window({w}) cyclic alone (Theorem F5; the other parts only add arcs), "
           "so one layer more suffices (§11.2); the exact D is not named (Theorem F101)")
    return FamilyTheorem(
        "F101", "window(w) cyclic + non-cyclic offsets outside it", (("w", Integer(w)),), Integer(data.low), bound,
        group, order, (), bound + 1, False, why,
        open_question=(f"the exact diameter and the least layer count: with the non-cyclic offsets {{{shown}}} the "
                       "diameter is not periodic in n from small n on, so only the cyclic window's bound is stated "
                       f"({SECTION}, Theorem F101, §13 L4)"),
        diameter_exact=False)
