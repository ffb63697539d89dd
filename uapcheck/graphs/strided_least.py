"""Least layer counts of `window(w) + strided(s)` at symbolic n (docs/theory.md §11.11, Theorems F53, F54).

Theorem F11 gives the diameter (D = 2 or 3 by n mod s) and the group (the reflection) for w + 2 ≤ s ≤ 2w + 1
and n ≥ s(4w + 3); Theorem F53 decides the least number of attention layers there:

* where D = 3, D layers suffice: the positions at distance 3 from any root lie within s − w − 2 ≤ w − 1 of
  one end, so they are pairwise adjacent, and a rooted view that knows every other arc knows them all
  (the *far-clique lemma*);
* for s = 2w + 1 the swap (s, s + w + 1), and for w + 3 ≤ s ≤ 2w the swap (s + w + 2, s + w + 3), is a view
  witness at position 1 with 2 layers at every n in the range (both positions have the same neighbours
  in N(1)), so 3 layers are least at every n;
* for s = w + 2 with w ≥ 2 no such swap exists, and Theorem F81 proves that 2 layers suffice where D = 2: a
  permutation keeping every neighbourhood within distance 1 of a root keeps its residue class (many common
  neighbours), orders it (the runs of the class), is the identity or the reflection there (the counts at its ends,
  and where those agree, n ≡ w (mod s), the position n with no neighbour in the class and its one neighbour near
  the root), and then fixes every other position (for w ≥ 4 by its step (6′): the neighbourhoods of the class's
  next run read on the root's window, then every other position's neighbours near the root; for w = 2, 3 by the
  finite check of Theorem F7's step (6)); so the least count is D (2 or 3 by n mod s) at every w ≥ 2.

Theorem F14 gives D (M or M + 1 by n mod s, M = 1 + ⌈⌊s/2⌋/w⌉) and G for s ≥ 2w + 2; Theorem F54 adds: where
D = M + 1, D layers suffice (a rooted view knows every position but a few of one end, and fixes them); for s
odd with w | ⌊s/2⌋, exchanging two consecutive blocks of s positions is a view witness at position 1 with M
layers, so M + 1 layers are least at every n; otherwise (case (c)) Theorem F120 decides the classes of n mod s where
D = M by Theorem F98's finite check read class by class (`beyond_classes`): M layers, least, on the classes where the
common-neighbour premise holds at every length of the check, M + 1, least, on those where a swap of two far positions is
a view witness at every length (F99); on the other classes whether M suffice stays open (O11).

For `window(w) cyclic + strided(s)` (Theorem F26's range, D = 3), Theorem F56 adds: for s = 2w + 2 every position
at distance 3 from a root i lies in the class of i + w + 1 (the one residue that no window around i or around a
member of i's class reaches within two steps), so the far positions are pairwise adjacent and the far-clique
lemma gives D = 3 layers, least; for s = 2w + 3 the count stays D + 1 (least for w = 1 by Theorem F55, open
for w ≥ 2, O6).

This module only states the theorems' values; the proofs are in docs/theory.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

__all__ = ["BeyondClasses", "beyond_classes", "wide_stride_witness", "wide_stride_rigid", "wide_stride_why", "stride_beyond_block_witness", "STRIDE_BEYOND_OPEN",
           "cyclic_even_stride_why", "cyclic_odd_stride_divides_why", "CYCLIC_ODD_STRIDE_OPEN",
           "cyclic_odd_stride_classes_why", "CYCLIC_ODD_STRIDE_CLASSES_OPEN"]

def cyclic_even_stride_why(w: int) -> str:
    """Why D = 3 layers suffice for `window(w) cyclic + strided(2w + 2)` (docs/theory.md §11.11, Theorem F56)."""
    return (f"Theorem F56: every position at distance 3 from a position i lies in the residue class of i + {w + 1} "
            f"(mod {2 * w + 2}), so the positions at distance 3 from any position are pairwise adjacent, and D = 3 "
            "layers suffice (the far-clique lemma of Theorem F53); D layers are always needed")


def cyclic_odd_stride_divides_why(w: int, s: int) -> str:
    """Why D = 3 layers suffice for `window(w) cyclic + strided(2w + 3)`, w ≥ 2, at a length n with s | n (docs/theory.md
    §11.11, Theorem F67)."""
    return (f"Theorem F67: as {s} divides n, the positions at distance 3 from a position i are those of the classes of "
            f"i ± {w + 1} (mod {s}) more than {2 * w} away from i, and two of them are adjacent exactly when a position "
            "within distance 2 of i is adjacent to both, so D = 3 layers suffice (the common-neighbour lemma of Theorem "
            "F57); D layers are always needed")


def cyclic_odd_stride_classes_why(w: int, s: int) -> str:
    """The count by class of `window(w) cyclic + strided(2w + 3)`, w ≥ 2, at symbolic n (docs/theory.md §11.11,
    Theorem F67 on the class s | n, the view argument on the others)."""
    return (f"Theorem F67 for n mod {s} = 0: the positions at distance 3 from a position i are those of the classes of "
            f"i ± {w + 1} (mod {s}) more than {2 * w} away from i, and two of them are adjacent exactly when a position "
            "within distance 2 of i is adjacent to both, so D = 3 layers suffice (the common-neighbour lemma of Theorem "
            "F57) and are least; on the other classes D + 1 = 4 layers suffice by the view argument, and whether D = 3 "
            "do is open (open question O6)")


#: what stays open for `window(w) cyclic + strided(2w + 3)`, w ≥ 2, at symbolic n: the classes s ∤ n (O6)
CYCLIC_ODD_STRIDE_CLASSES_OPEN = (
    "whether D = 3 layers suffice for n mod s ≠ 0 is not proved for s = 2w + 3 with w ≥ 2 (docs/theory.md §11.11, "
    "Theorem F26, open question O6; for n mod s = 0 Theorem F67 proves 3 least)")

#: what stays open for `window(w) cyclic + strided(2w + 3)` with w ≥ 2 (docs/theory.md §11.11, O6)
CYCLIC_ODD_STRIDE_OPEN = (
    "whether D = 3 layers suffice is not proved for s = 2w + 3 with w ≥ 2 (docs/theory.md §11.11, Theorem F26, "
    "open question O6; for window(1) cyclic + strided(5) Theorem F55 proves 4 least, for s = 2w + 2 "
    "Theorem F56 proves 3 least, and at a length n with s | n Theorem F67 proves 3 least)")

#: Theorem F81's finite check (Theorem F7's step (6) at every root offset) is run for these widths; for w ≥ 4 its
#: step (6′) proves what the check verified, at every w
F81_CHECKED_WIDTHS = (2, 3)


@lru_cache(maxsize=None)
def wide_stride_rigid(w: int) -> bool:
    """Theorem F81: for `window(w) + strided(w + 2)`, w ≥ 2, a permutation fixing a root's class pointwise and
    keeping every neighbourhood within distance 1 of the root is the identity, so no view witness exists at depth 2,
    at every n ≥ s(4w + 3) (s = w + 2): for w ≥ 4 by step (6′) of its proof, for w = 2, 3 by the finite check of
    Theorem F7's step (6) at every root offset i = 1, …, 3w + 3s + 1. False for w < 2 or when the check fails."""
    from .families import strided_local_rigid
    s = w + 2
    if w < 2:
        return False
    if w not in F81_CHECKED_WIDTHS:
        return True
    return all(strided_local_rigid(w, s, i) is None for i in range(1, 3 * w + 3 * s + 2))


def wide_stride_why(w: int) -> str:
    """Why D layers suffice for `window(w) + strided(w + 2)` (Theorem F81 where D = 2, F53 (a) where D = 3)."""
    return ("Theorem F81: a permutation that keeps every neighbourhood within distance 1 of a position i keeps i's "
            f"residue class mod {w + 2} (its many common neighbours), orders it (the runs of that class within {w} of "
            "each other position), is the identity or the reflection there (the counts at its two ends; where they "
            f"agree, n ≡ {w} (mod {w + 2}), the only position with no neighbour in the class and its neighbours near i), "
            "and then fixes every other position (" + ("the finite check of Theorem F7's step (6)" if w in F81_CHECKED_WIDTHS
                                                     else "step (6′): the neighbourhoods of the next run of the class "
                                                     "read on i's window, then each other position's neighbours near "
                                                     "i") + "): no view witness, so "
            "D = 2 layers suffice where D = 2; where D = 3 the positions at distance 3 from any position are pairwise "
            "adjacent (Theorem F53 (a)): D layers suffice, and D layers are always needed")


def wide_stride_witness(w: int, s: int) -> Optional[tuple[int, tuple[int, int]]]:
    """Theorem F53 (b): the view witness (position, (a, b)) with 2 layers for `window(w) + strided(s)`,
    w + 2 ≤ s ≤ 2w + 1, at every n ≥ s(4w + 3): the swap (a b) keeps N(v) for every v ∈ N(1) and is not the
    reflection. None for s = w + 2 with w ≥ 2 (no such swap: Theorem F81)."""
    if not (w >= 1 and w + 2 <= s <= 2 * w + 1):
        return None
    if s == 2 * w + 1:
        return 1, (s, s + w + 1)
    if s >= w + 3:
        return 1, (s + w + 2, s + w + 3)
    return None


#: what stays open for `window(w) + strided(s)` with s ≥ 2w + 2 (docs/theory.md §11.11, O11)
STRIDE_BEYOND_OPEN = ("whether D = M layers suffice where D = M is not proved unless s is odd and w divides ⌊s/2⌋ "
                      "(the concrete engine finds M at most such n, and M + 1 at some, e.g. n ≡ 2 (mod 12) for "
                      "window(3) + strided(12); docs/theory.md §11.11, open question O11)")


def stride_beyond_block_witness(w: int, s: int) -> Optional[tuple[int, int]]:
    """Theorem F54 (b): for `window(w) + strided(s)` with s ≥ 2w + 2 odd and w | ⌊s/2⌋, the exchange of the blocks
    [p, p + s − 1] and [p + s, p + 2s − 1] (x ↦ x ± s) is a view witness at position 1 with M = 1 + ⌊s/2⌋/w
    layers at every n ≥ s(4w + 3): (1, p), p the least p ≥ Mw + 2 with p ≡ ⌊s/2⌋ + 2 (mod s). None otherwise."""
    half = s // 2
    if w < 1 or s < 2 * w + 2 or s % 2 == 0 or half % w:
        return None
    middle = 1 + half // w
    p = middle * w + 2
    p += (half + 2 - p) % s
    return 1, p


@dataclass(frozen=True)
class BeyondClasses:
    """Theorem F120: the residues of n mod s of `window(w) + strided(s)`, s ≥ 2w + 2 (case (c) of F54), by what decides
    the least layer count there, from Theorem F98's finite check at every length from s(4w + 3) through `top`."""
    top: int                    # N₁ + s − 1, the last length of the check
    far: tuple[int, ...]        # D = M + 1: D layers, least (F54 (a))
    premise: tuple[int, ...]    # D = M and the common-neighbour premise at every length of the class: M layers, least
    swaps: tuple[int, ...]      # D = M and a swap of two far positions is a view witness at every length: M + 1, least
    open: tuple[int, ...]       # D = M and neither at some length of the class: M + 1 sufficient (O11)
    pendant: tuple[int, ...] = ()  # w = 1, D = M: Theorem F199's far clique with one pendant at every length: M, least

    @property
    def least(self) -> tuple[int, ...]:
        """The residues where the count is least."""
        return tuple(sorted(self.far + self.premise + self.swaps + self.pendant))

    @property
    def fewest(self) -> tuple[int, ...]:
        """The residues where M = D layers suffice (the common-neighbour premise, or F199's)."""
        return tuple(sorted(self.premise + self.pendant))


#: Theorem F199's bound c: the far clique's members have at most c neighbours in the ball, the pendant more
PENDANT_BOUND = 4


def far_pendant_holds(s: int, n: int) -> bool:
    """Theorem F199's premise (Y) for `window(1) + strided(s)`, s even, at the length n, at the roots within h − 1 =
    s/2 − 1 of an end (the proof gives it at the others): the positions at distance D = h + 1 from the root are a clique
    Q of members with at most c = 4 neighbours within distance h, and at most one position p more, with more than c such
    neighbours, adjacent among the far positions to one q ∈ Q only, which has fewer such neighbours than every other
    member of Q. Plain breadth-first search on the arcs |u − v| = 1 or s | u − v."""
    h = s // 2
    if s < 4 or s % 2 or n < 2 * s:
        return False

    def near(v: int):
        yield from (u for u in (v - 1, v + 1) if 1 <= u <= n)
        yield from (u for u in range(v % s or s, n + 1, s) if u != v)

    for root in sorted(set(range(1, h)) | set(range(n - h + 2, n + 1))):
        dist = {root: 0}
        frontier = [root]
        while frontier:
            nxt = []
            for u in frontier:
                for v in near(u):
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        if len(dist) != n or max(dist.values()) != h + 1:
            return False
        far = [v for v in dist if dist[v] == h + 1]
        farset = set(far)
        kappa = {x: sum(1 for u in near(x) if u not in farset) for x in far}
        clique = [x for x in far if kappa[x] <= PENDANT_BOUND]
        pendant = [x for x in far if kappa[x] > PENDANT_BOUND]
        if len(pendant) > 1 or len({x % s for x in clique}) > 1:  # one class: pairwise adjacent
            return False
        if pendant:
            p = pendant[0]
            touched = [x for x in clique if abs(x - p) == 1 or (x - p) % s == 0]
            if len(touched) != 1 or any(kappa[x] <= kappa[touched[0]] for x in clique if x != touched[0]):
                return False
    return True


def window_jumps(w: int) -> tuple[int, ...]:
    """The jumps ±1, …, ±w of `window(w)` (as `strided_lines_least` reads a local part)."""
    return tuple(k for k in range(-w, w + 1) if k)


@lru_cache(maxsize=64)
def beyond_classes(w: int, s: int) -> Optional[BeyondClasses]:
    """Theorem F120 for `window(w) + strided(s)`, s ≥ 2w + 2: per residue r of n mod s where D = M, whether the
    common-neighbour premise (Theorem F98's P) holds at every n ≡ r from s(4w + 3) through N₁ + s − 1, or a swap of two
    far positions is a view witness (F99's W) at every such n; past N₁ both are the same at n and n + s (F98 (a), F99
    (b): Lemma A and the cut of Lemma B, with F74 (a)'s distance types, which hold for a window). None when the check
    would read a length above MAX_CHECK_TOP."""
    from .families import stride_beyond_far
    from .strided_lines_least import MAX_CHECK_TOP, check_span, decide_length
    if w < 1 or s < 2 * w + 2:
        return None
    jumps = window_jumps(w)
    low = s * (4 * w + 3)
    _, top = check_span(s, jumps, low)
    if top > MAX_CHECK_TOP:
        return None
    far = tuple(m for m in range(s) if stride_beyond_far(w, s, m))
    seen: dict[int, set] = {}
    for n in range(low, top + 1):
        if n % s not in far:
            seen.setdefault(n % s, set()).add(decide_length(s, jumps, n))
    premise = tuple(r for r in sorted(seen) if seen[r] == {0})
    swaps = tuple(r for r in sorted(seen) if seen[r] == {1})
    rest = tuple(r for r in sorted(seen) if r not in premise and r not in swaps)
    pendant: tuple[int, ...] = ()
    if w == 1 and s % 2 == 0:  # Theorem F199 on the classes F120 leaves (F185's)
        pendant = tuple(r for r in rest if all(far_pendant_holds(s, n) for n in range(low + (r - low) % s, top + 1, s)))
        rest = tuple(r for r in rest if r not in pendant)
    return BeyondClasses(top, far, premise, swaps, rest, pendant)


def beyond_classes_why(w: int, s: int, found: BeyondClasses) -> str:
    """Why the count by class of `window(w) + strided(s)` in F54's case (c) holds (Theorems F54 (a), F120)."""
    middle = 1 + -(-(s // 2) // w)
    low = s * (4 * w + 3)

    def cls(rs) -> str:
        return f"n mod {s} ∈ {{{', '.join(map(str, rs))}}}"
    parts = []
    if found.premise:
        parts.append(f"for {cls(found.premise)}, M = {middle} layers, least (Theorem F120 with F98: two positions at "
                     f"distance M from a root are adjacent exactly when a position within M − 1 of it is adjacent to "
                     f"both, checked at every n of those classes from {low} to {found.top} and the same at n and n + {s} "
                     f"past {found.top + 1 - s}; the common-neighbour lemma, Theorem F57)")
    if found.pendant:
        parts.append(f"for {cls(found.pendant)}, M = {middle} layers, least (Theorem F199: from every root the positions "
                     "at distance M are a clique of one residue class and at most one more position, singled out by its "
                     "number of neighbours within M − 1 and adjacent among them to the clique member with the fewest, "
                     f"checked at every n of those classes from {low} to {found.top} and the same at n and n + {s} past "
                     f"{found.top + 1 - s}; lemma X′)")
    if found.swaps:
        parts.append(f"for {cls(found.swaps)}, M + 1 = {middle + 1} layers, least (Theorem F120 with F99: some root has "
                     "two positions at distance M with the same neighbours within M − 1 of it that are not twins, so "
                     "their swap is a view witness with M layers, at every n of those classes from "
                     f"{low} to {found.top} and the same at n and n + {s} past {found.top + 1 - s})")
    if found.far:
        parts.append(f"for {cls(found.far)}, where D = M + 1, D = {middle + 1} layers, least (Theorem F54 (a): a rooted "
                     "view fixes every position)")
    if found.open:
        parts.append(f"for {cls(found.open)}, M + 1 = {middle + 1} layers suffice (the view argument) and whether M do "
                     "is open (neither the common-neighbour premise nor a far swap holds at every length of the class; "
                     "docs/theory.md §11.11, open question O11)")
    return "; ".join(parts)
