"""`window(w) cyclic` with non-cyclic offsets outside it at symbolic n: Theorem F101 of docs/theory.md §11.11.

After the normal form (§11.13) such a union is `window(w) cyclic` with non-cyclic parts whose offsets outside
{−w, …, w} form a set A ≠ ∅ (the others are cyclic arcs already). With J = max |A| and S = {−w, …, w} ∪ A without 0:
the positions of largest in- plus out-degree are F = [J + 1, n − J] (a jump of A out of range is no arc, and none of
A is ≡ one of the window's mod n); the arcs among them are those of `offsets S` on a line, whose group is Theorem F41's
(trivial, or the reversal when S = −S) once |F| reaches F41's range; Theorem F41 (3)'s end argument extends the
identity to the positions near the seam (the positions it uses attend to no wrapped position). So G is the reflection
i ↦ n + 1 − i when A = −A, else trivial. D is ⌊n/P⌋ + h(n mod P) with P = a + b (Theorem F168,
``graphs/cyclic_window_diameter.py``), and D + 1 layers suffice; where F168's base check is beyond its budget, only the
cyclic window's ⌈⌊n/2⌋/w⌉ (Theorem F5; more arcs shorten distances) is stated, a bound, and that plus one layers.

Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Union

import sympy
from sympy import Integer

from .cyclic_window_diameter import MAX_CHECK_N as MAX_BASE_N
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
    """F101 at the length n (a positive integer Symbol or an Integer), with F168's D where its base check fits."""
    from .cyclic_window_diameter import seam_diameter
    from .cyclic_window_seam_least import seam_classes
    from .families import FamilyTheorem, _by_residue
    w = data.w
    shown = ", ".join(str(k) for k in data.outside)
    if data.symmetric:
        group, order = "reflection", Integer(2)
    else:
        group, order = "trivial", Integer(1)
    exact = seam_diameter(w, data.outside, data.low)
    if exact is None:
        bound = sympy.ceiling(sympy.floor(n / 2) / w)
        why = (f"D ≤ ⌈⌊n/2⌋/{w}⌉, the diameter of window({w}) cyclic alone (Theorem F5; the other parts only add arcs), "
               "so one layer more suffices (§11.2); the exact D is not named: F168's base check lies beyond "
               "its budget (Theorem F101)")
        return FamilyTheorem(
            "F101", "window(w) cyclic + non-cyclic offsets outside it", (("w", Integer(w)),), Integer(data.low), bound,
            group, order, (), bound + 1, False, why,
            open_question=(f"the exact diameter and the least layer count: with the non-cyclic offsets {{{shown}}} "
                           f"Theorem F168's base check lies beyond n = {MAX_BASE_N}, so only the cyclic window's "
                           f"bound is stated ({SECTION}, Theorems F101 and F168, §13 L4)"),
            diameter_exact=False)
    P = exact.period
    diameter = _by_residue(sympy.floor(n / P), n, P, exact.excess)
    low = max(data.low, exact.low)
    why = (f"D = ⌊n/{P}⌋ + h(n mod {P}) (Theorem F168: a walk crosses the seam between n and 1 by a window step only, "
           f"so D grows by one when n grows by a + b = {P}, from n = {exact.proved_low}; h read off one period by "
           "breadth-first search, and each length below re-decided)")
    params = (("w", Integer(w)), ("P", Integer(P)))
    from .cyclic_window_directed_least import DirectedClasses, directed_classes
    from .cyclic_window_seam_least import SeamClasses
    classes: Optional[Union[SeamClasses, DirectedClasses]] = (
        seam_classes(w, data.outside, low) if data.symmetric else directed_classes(w, data.outside, low))
    if classes is not None and classes.least:
        return _least_by_class(n, data, params, low, exact.excess, why, classes)
    return FamilyTheorem(
        "F101", "window(w) cyclic + non-cyclic offsets outside it", params,
        Integer(low), diameter, group, order, (), diameter + 1, False, why + ", so one layer more suffices (§11.2)",
        open_question=(f"the least layer count: D = ⌊n/{P}⌋ + h(n mod {P}) is exact (Theorem F168), and whether D "
                       f"layers suffice (a view witness at depth D) is not decided at symbolic n ({SECTION}, "
                       "Theorems F168 and F184, §13 L4)"))


def _least_by_class(n, data: SeamData, params: tuple, low: int, excess: tuple, why: str, classes):
    """F101 with F168's D and the count by class of n mod P — F184's for A = −A, F190's for A ≠ −A: D where the count
    premise holds at every length of the class checked, D + 1 where a far swap does (least on both), D + 1,
    sufficient, elsewhere."""
    from .families import FamilyTheorem, _by_residue
    P = classes.period
    if data.symmetric:
        group, order, name = "reflection", Integer(2), "F184"
        inserted = "inserting b positions into each arc between a root and its far positions"
        premise = "the adjacency of far positions is a function of their neighbour counts in the ball"
        swap = "a swap of two far positions is a view witness"
    else:
        group, order, name = "trivial", Integer(1), "F190"
        inserted = (f"inserting a positions into the arc below a root and b above it, a + b = {P}, away from the seam "
                    "and the far positions")
        premise = ("the arcs into far positions are a function of the colours that refining the rooted view gives "
                   "them and their common in-neighbours in the ball")
        swap = "a swap of two far positions with the same in-neighbours in the ball is a view witness"
    count = _by_residue(sympy.floor(n / P), n, P, tuple(e + x for e, x in zip(excess, classes.extra)))
    diameter = _by_residue(sympy.floor(n / P), n, P, excess)
    every = len(classes.least) == P
    cut = getattr(classes, "by_cut", ())  # F227's classes (SeamClasses only), stated apart
    free = [r for r in classes.least if not classes.extra[r] and r not in cut]
    bound = [r for r in classes.least if classes.extra[r]]

    def listed(residues) -> str:
        return f"n mod {P} ∈ {{{', '.join(map(str, residues))}}}"
    parts = ([f"D layers on {listed(free)} ({premise})"] if free else []) + \
        ([f"D + 1 on {listed(bound)} ({swap})"] if bound else [])
    why_layers = (why + f"; Theorem {name} ({inserted} "
                  f"keeps both properties from n = {classes.proved_low}; checked at every length from {low} to "
                  f"{classes.proved_low + P - 1}): " + ", ".join(parts) + ", least"
                  + (_by_cut_text(cut, P) if cut else "")
                  + ("" if every else ", and D + 1 layers, sufficient, on the other classes"))
    question = "" if every else (
        f"the least layer count on the classes n mod {P} outside {{{', '.join(map(str, classes.least))}}}: neither "
        f"the count premise nor a far swap holds at every length of the class checked, so whether D layers "
        f"suffice is not decided at symbolic n ({SECTION}, Theorem {name}, §13 L4)")
    if isinstance(n, (int, Integer)):  # a concrete length reads its class's count and one flag
        least = int(n) % P in classes.least
        return FamilyTheorem(
            "F101", "window(w) cyclic + non-cyclic offsets outside it", params, Integer(low), diameter, group,
            order, (), count, least, why_layers, open_question="" if least else question)
    return FamilyTheorem(
        "F101", "window(w) cyclic + non-cyclic offsets outside it", params, Integer(low), diameter, group,
        order, (), count, every, why_layers, open_question=question,
        least_classes=() if every else (P, classes.least))


def _by_cut_text(residues: tuple, period: int) -> str:
    """Theorem F227's part of the count's reason: the classes F184's check leaves open that its cut decides."""
    shown = ", ".join(map(str, residues))
    return (f"; on n mod {period} ∈ {{{shown}}} Theorem F227 (lemma AN: a view witness with D layers at n + 16 ≥ 240 "
            "is cut to one at n, two blocks of 8 positions taken out where the witness is affine; the rooted views "
            "find none at every length of these classes from 65 to 239, run at the roots without blocks from 82): "
            "D layers, least")
