"""Hubs on a cyclic base: Theorem F62 of docs/theory.md §11.11.

``global(g)`` united with cyclic offsets (and cyclic windows) with an offset above g, and possibly non-cyclic parts
whose offsets are all at most g (F30 (c): such a part has the arcs of its cyclic version). With P = {1, …, g} and
R = {g + 1, …, n}, Γ[R] is the circulant C_n(S) with the hole P: the positions of R, the arcs v + k → v (k ∈ S, mod n)
between them. F30 (b) gives G = Sym(P) × Aut(Γ[R]), F31 gives D = 2 and 3 layers, least; F62 proves Aut(Γ[R]) =
{id, ρ} (ρ: i ↦ n + g + 1 − i) when S = −S, and {id} otherwise, for gcd(S) = 1 and n from ``proved_low``, with F28's
ball certificate: a position whose radius-R ball misses the hole (a *full* position) has the ball of Z, and only
those have a ball of |B_R| positions; the full positions hold one run longer than all the others, on which every
automorphism is a translation or (S = −S) a reflection, which fixes that run; the ends follow as in F41 (3).

Below the proved range the concrete engine (graphs, BLISS) decides each n downwards while it finds the same order
(``onset``), as for F29 and F42. Nothing here reads user text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

SECTION = "docs/theory.md §11.11"
#: below a proved range at most this, each n is decided by the concrete engine down to the onset
ONSET_MAX = 160


@dataclass(frozen=True)
class HoleData:
    jumps: tuple[int, ...]       # S, the nonzero jumps of the cyclic base (sorted)
    g: int
    radius: int                  # F28's certificate radius R for S
    symmetric: bool              # S = −S: Aut(Γ[R]) = {id, ρ}
    proved_low: int              # F62's range
    low: int                     # the stated range: the proved one, down to the concrete onset


def cyclic_base(parts: list, g: int) -> bool:
    """Whether the local parts (kind, args) with integer sizes are a cyclic base with a hole: every non-cyclic part
    with offsets at most g and some cyclic part with an offset above g (read from the parts' reaches, so a window
    of 10⁷ positions costs no list of its jumps)."""
    from .hub_unions import CYCLIC, reach
    above = False
    for kind, args in parts:
        if kind not in ("window", "cwindow", "offsets", "coffsets"):
            return False
        r = reach(kind, args)
        if kind in CYCLIC:
            above = above or r > g
        elif r > g:
            return False
    return above and any(reach(kind, args) > 0 for kind, args in parts)


def widest_window(parts: list) -> int:
    """The largest window radius among the parts (0 if none): a window holds every jump ±1, …, ±w, so its jumps
    have gcd 1 and one of them is w."""
    return max((int(args[0]) for kind, args in parts if kind in ("window", "cwindow")), default=0)


def cyclic_jumps(parts: list, g: int) -> Optional[tuple[int, ...]]:
    """S for a base of local parts (kind, args) with integer sizes, every non-cyclic part with offsets at most g
    and some cyclic part with an offset above g (else None: not a cyclic base with a hole)."""
    if not cyclic_base(parts, g):
        return None
    from .hub_unions import reach
    jumps: set = set()
    for kind, args in parts:
        r = reach(kind, args)
        if kind in ("window", "cwindow"):
            jumps |= set(range(-r, r + 1))
        else:
            jumps |= {int(k) for k in args}
    out = tuple(sorted(jumps - {0}))
    return out


def proved_low(jumps: tuple[int, ...], g: int, radius: int, frobenius: int) -> int:
    """F62's range. With a = max(0, −min S), b = max(0, max S) (mirrored when every jump is negative), r = max |S|:
    the balls of radius R are those of Z (n > R(a + b) + max(a, b), n > 2r), the run of full positions is longer
    than all the other full positions together (n ≥ g + 2R(a + b) + 1) and long enough for the walks of the proof
    (two-sided: a + b positions; one-sided: 2(F + 1) + 1, F the Frobenius number), and no position of R is
    universal there (n ≥ g + |S| + 2)."""
    pos = [k for k in jumps if k > 0]
    neg = [-k for k in jumps if k < 0]
    if not pos:
        pos, neg = neg, []
    b, a = max(pos), max(neg, default=0)
    r = max(abs(k) for k in jumps)
    span = radius * (a + b)
    low = max(span + max(a, b) + 1, 2 * r + 1, g + 2 * span + 1, g + len(jumps) + 2)
    if neg:
        return max(low, g + span + a + b)
    return max(low, g + radius * b + 2 * (frobenius + 1) + 1)


def hole_order(g: int, symmetric: bool) -> int:
    from math import factorial
    return factorial(g) * (2 if symmetric else 1)


@lru_cache(maxsize=128)
def hole_data(jumps: tuple[int, ...], g: int, floor: int) -> Optional[HoleData]:
    """F62 for the jumps S (gcd 1) and g globals, or None (gcd(S) > 1, a jump beyond F28's bound, no certificate
    radius). ``floor`` is the least n the onset search may reach (F31's range)."""
    from .circulant_general import MAX_JUMP, constants, reduce_jumps, rigid_radius
    red = reduce_jumps(jumps)
    if red.g != 1 or max(abs(s) for s in red.steps) > MAX_JUMP:
        return None
    radius = rigid_radius(red)
    if radius is None:
        return None
    low = max(proved_low(jumps, g, radius, constants(red).frobenius), floor)
    symmetric = red.symmetric
    stated = onset(jumps, g, symmetric, low, floor) if low <= ONSET_MAX else low
    return HoleData(jumps, g, radius, symmetric, low, stated)


def onset(jumps: tuple[int, ...], g: int, symmetric: bool, low: int, floor: int) -> int:
    """The least n₁ ≤ low (and ≥ floor) such that at every n in [n₁, low) the concrete engine (graphs, BLISS) finds
    |G| = g!·(2 if S = −S else 1), D = 2: each such n is decided by that computation (G contains Sym(P) × {id, ρ},
    so the order settles it), the others by F62."""
    from ..spec import Global, Offsets, PatternUnion
    from .families import concrete
    pattern = PatternUnion((Offsets(tuple(sorted(set(jumps) | {0})), True), Global(g)))
    want = hole_order(g, symmetric)
    start = low
    n = low - 1
    while n >= floor:
        got = concrete(pattern, n, layers=False)
        if not (got.connected and got.diameter == 2 and got.order == want):
            break
        start = n
        n -= 1
    return start


def hole_group(g: int, parts: list):
    """F62's group for the base parts: (low, name or "reflection", order as a function of n, generators), the open
    question as a string, or None (not a cyclic base with a hole)."""
    from .hub_unions import local_low, reach
    if not cyclic_base(parts, g):
        return None
    from .circulant_general import MAX_JUMP
    wide = widest_window(parts)
    if wide > MAX_JUMP:  # the jumps have gcd 1 and one of them is above F28's bound: hole_data would give None
        return ("the group of the positions {g + 1, …, n}: the circulant of the jumps of a window of radius "
                f"{wide} and more, with the hole {{1, …, g}} — the jump {wide} exceeds Theorem F28's bound "
                f"{MAX_JUMP}, so Theorem F62 does not apply")
    jumps = cyclic_jumps(parts, g)
    if jumps is None:
        return None
    r = max(reach(kind, args) for kind, args in parts)
    data = hole_data(jumps, g, local_low(g, r, True))
    if data is None:
        return ("the group of the positions {g + 1, …, n}: the circulant of the jumps "
                f"{{{', '.join(map(str, jumps))}}} with the hole {{1, …, g}} — the jumps have a common factor, exceed "
                "Theorem F28's bound, or have no ball certificate, so Theorem F62 does not apply")
    return _hub_group(data, g)



def _hub_group(data, g: int):
    """(range start, group name, order, generators) of Theorem F62's or F230's data: the reflection beside S_g on the
    hubs when the base is symmetric (the order and generators then come from the caller's table), else S_g alone."""
    from sympy import Integer
    from .closed_forms import _span
    from .families import _fact, _globals_generators
    if data.symmetric:
        return Integer(data.low), "reflection", None, None
    name = "trivial" if g == 1 else f"S_{g} on {_span(1, g)}"
    return Integer(data.low), name, lambda n: _fact(Integer(g)), _globals_generators(Integer(g))


# ---------------------------------------------------------------------------------------------
# Theorem F230: hubs on a mixed base (cyclic parts and non-cyclic parts, both with an offset above g)

LOCAL_KINDS = ("window", "cwindow", "offsets", "coffsets", "dilated")


def part_jumps(kind: str, args: tuple) -> set:
    """The non-zero jumps of one local part: window(w) ±1..±w, offsets K as listed, dilated(w, r) ±r, …, ±wr."""
    if kind in ("window", "cwindow"):
        w = int(args[0])
        return set(range(-w, w + 1)) - {0}
    if kind in ("offsets", "coffsets"):
        return {int(k) for k in args} - {0}
    w, r = int(args[0]), int(args[1])
    return {s * k * r for k in range(1, w + 1) for s in (1, -1)}


def mixed_base(parts: list, g: int) -> bool:
    """Whether the local parts (kind, args) with integer sizes are F230's base: window, offsets (cyclic or not) and
    dilated parts, some cyclic part with an offset above g, and not F62's base (some non-cyclic part with an offset
    above g, or a dilated part); read from the reaches, so a wide window costs no list of its jumps."""
    from .hub_unions import CYCLIC, reach
    if not all(kind in LOCAL_KINDS for kind, _ in parts) or cyclic_base(parts, g):
        return False
    return any(kind in CYCLIC and reach(kind, args) > g for kind, args in parts)


def mixed_jumps(parts: list, g: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(C, L): C the cyclic jumps, with the non-cyclic jumps of absolute value at most g (F30 (c): their wrap-around
    pairs have an end among the globals, so they have the arcs of their cyclic version); L the other non-cyclic jumps
    that are not in C (an arc of a jump in both is in the circulant already)."""
    from .hub_unions import CYCLIC
    cyc: set = set()
    line: set = set()
    for kind, args in parts:
        for k in part_jumps(kind, args):
            (cyc if kind in CYCLIC or abs(k) <= g else line).add(k)
    return tuple(sorted(cyc)), tuple(sorted(line - cyc))


def _spec_part(kind: str, args: tuple):
    from ..spec import Dilated, Offsets, Window
    if kind in ("window", "cwindow"):
        return Window(int(args[0]), kind == "cwindow")
    if kind in ("offsets", "coffsets"):
        return Offsets(tuple(int(k) for k in args), kind == "coffsets")
    return Dilated(int(args[0]), int(args[1]))


@lru_cache(maxsize=128)
def mixed_data(cyc: tuple[int, ...], line: tuple[int, ...], g: int, floor: int, parts: tuple) -> Optional[HoleData]:
    """F230 for the cyclic jumps C and non-cyclic jumps L (mixed_jumps) and g globals, or None: gcd(S) > 1 for
    S = C ∪ L, a jump beyond F28's bound, no certificate radius, or S = −S while C ≠ −C or L ≠ −L (then the
    reflection ρ is no automorphism of Γ[R] and the proof's step (4) does not apply: open). ``parts`` (the base as
    (kind, args) pairs) is the pattern the onset search builds; ``floor`` as in hole_data."""
    from .circulant_general import MAX_JUMP, constants, reduce_jumps, rigid_radius
    jumps = tuple(sorted(set(cyc) | set(line)))
    red = reduce_jumps(jumps)
    if red.g != 1 or max(abs(s) for s in red.steps) > MAX_JUMP:
        return None
    symmetric = set(jumps) == {-k for k in jumps}
    if symmetric and not (set(cyc) == {-k for k in cyc} and set(line) == {-k for k in line}):
        return None
    radius = rigid_radius(red)
    if radius is None:
        return None
    low = max(proved_low(jumps, g, radius, constants(red).frobenius), floor)
    if low <= ONSET_MAX:
        from ..spec import Global, PatternUnion
        pattern = PatternUnion(tuple(_spec_part(kind, args) for kind, args in parts) + (Global(g),))
        stated = pattern_onset(pattern, hole_order(g, symmetric), low, floor)
    else:
        stated = low
    return HoleData(jumps, g, radius, symmetric, low, stated)


def pattern_onset(pattern, want: int, low: int, floor: int) -> int:
    """The least n₁ ≤ low (≥ floor) such that at every n in [n₁, low) the concrete engine finds D = 2 and |G| = want
    for the pattern (the theorem's group is a subgroup of G there, so the order settles it)."""
    from .families import concrete
    start, n = low, low - 1
    while n >= floor:
        got = concrete(pattern, n, layers=False)
        if not (got.connected and got.diameter == 2 and got.order == want):
            break
        start, n = n, n - 1
    return start


def mixed_group(g: int, parts: list):
    """F230's group for the base parts, as hole_group gives F62's: (low, name or "reflection", order, generators),
    the open question as a string, or None (not a mixed base)."""
    from .hub_unions import local_low, reach
    if not mixed_base(parts, g):
        return None
    from .circulant_general import MAX_JUMP
    r = max(reach(kind, args) for kind, args in parts)
    if r > MAX_JUMP:
        return (f"the group of the positions {{g + 1, …, n}}: a jump above Theorem F28's bound {MAX_JUMP}, so "
                "Theorem F230 does not apply")
    cyc, line = mixed_jumps(parts, g)
    key = tuple((kind, tuple(int(a) for a in args)) for kind, args in parts)
    data = mixed_data(cyc, line, g, local_low(g, r, True), key)
    if data is None:
        return ("the group of the positions {g + 1, …, n}: the circulant of the cyclic jumps "
                f"{{{', '.join(map(str, cyc))}}} with the hole {{1, …, g}} and the non-cyclic jumps "
                f"{{{', '.join(map(str, line))}}} — the jumps have a common factor, exceed Theorem F28's bound, have "
                "no ball certificate, or are symmetric only together, so Theorem F230 does not apply")
    return _hub_group(data, g)
