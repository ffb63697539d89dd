"""Theorem F53 (docs/theory.md §11.11), restated for the verifier: the least layer count of
`window(w) + strided(s)` with w + 2 ≤ s ≤ 2w + 1 at every n ≥ s(4w + 3) (Theorem F11's range).

    (a) where D = 3, D layers suffice: the positions at distance 3 from a root lie within s − w − 2 ≤ w − 1
        of one end, pairwise adjacent (the far-clique lemma);
    (b) s = 2w + 1: the swap (s, s + w + 1), and w + 3 ≤ s ≤ 2w: the swap (s + w + 2, s + w + 3), keeps N(v)
        for every v ∈ N(1) and is not the reflection: 2 layers are not enough at any n;
    so for those s, 3 layers are least at every n ≥ s(4w + 3). For s = w + 2 with w ≥ 2, Theorem F81: where D = 2,
    D layers suffice when F7's local check (restated in verifier/families.py) succeeds; the rooted views are
    re-decided with nauty at depth D at every instance.

and Theorem F54 for s ≥ 2w + 2 (Theorem F14's range; M = 1 + ⌈⌊s/2⌋/w⌉, D = M or M + 1):

    (a) where D = M + 1, D layers suffice (re-checked at every instance with nauty);
    (b) s odd, w | ⌊s/2⌋: exchanging the blocks [p, p + s − 1] and [p + s, p + 2s − 1] is a view witness at
        position 1 with M layers (p restated here; the proof's conditions checked on the positions near the
        block boundaries, which covers every n; the exchange re-checked on the arcs at every instance);
    so M + 1 layers at every n, least in case (b).

and Theorem F199 for `window(1) + strided(s)`, s even, on the classes F120 leaves: M layers least where the far
positions from every root near an end are a one-class clique with at most one pendant, singled out by its number of
nearer neighbours (`far_pendant_problem`), at every length of the class through F120's N₁ + s − 1;
and Theorem F120 for F54's case (c): on the classes of n mod s where D = M, M layers least where the common-neighbour
premise holds at every length of the class from s(4w + 3) through N₁ + s − 1, M + 1 least where a swap of two far
positions is a view witness at every such length (`beyond_table`: N₁ from the verifier's own residue costs, the check on
its own bit sets), re-checked on its arcs at every instance (`beyond_class_problem`).

Theorem F56 for `window(w) cyclic + strided(2w + 2)` (Theorem F26's range, D = 3): every position at distance 3
from a root i lies in the class of i + w + 1, so the far positions are pairwise adjacent and D = 3 layers suffice
(the far-clique lemma), least; re-checked at every instance by breadth-first search on the verifier's arcs.

The verifier's own code: the witness positions are restated here (not read from the engine), the
witness condition of (b) is re-checked on the positions of the half-line 1, 2, … (the condition involves
only N(1)'s members within w of the swapped positions or in their classes inside [1, w + 1], none near the
far end once n ≥ s(4w + 3), so one check covers every n), and each instance n of the range re-checks, on
the verifier's arcs, the witness (not a symmetry; every position whose neighbourhood it changes at distance
≥ 2 from position 1), and where D = 3 the far-clique condition and the rooted views at depth 3 with nauty.
"""
from __future__ import annotations

from typing import Optional

from .. import spec as S
from . import bit_distances, patterns, views


def witness(w: int, s: int) -> Optional[tuple[int, int, int]]:
    """(position, a, b) of F53 (b), or None outside its parameters."""
    if not (w >= 1 and w + 2 <= s <= 2 * w + 1):
        return None
    if s == 2 * w + 1:
        return 1, s, s + w + 1
    if s >= w + 3:
        return 1, s + w + 2, s + w + 3
    return None


def witness_on_the_half_line(w: int, s: int) -> Optional[str]:
    """F53 (b)'s condition with no right end: a, b ∉ N(1), and every v ∈ N(1) with v ≤ b + w (all the
    members of N(1) that can see a or b: within w of them, or in their classes inside W(1)) sees both or
    neither. None when it holds, else what fails."""
    found = witness(w, s)
    if found is None:
        return "no witness for these parameters"
    i, a, b = found

    def adj(u: int, v: int) -> bool:
        return abs(u - v) <= w or (u - v) % s == 0
    if adj(a, i) or adj(b, i) or a == b:
        return f"{a} or {b} is in N({i})"
    for v in range(1, b + 2 * w + 2 * s + 1):
        if adj(v, i) and adj(v, a) != adj(v, b):
            return f"position {v} ∈ N({i}) sees exactly one of {a}, {b}"
    if b + w >= s * (4 * w + 3):
        return "the witness reaches the far end of the range's first length"
    return None


def instance_problem(w: int, s: int, n: int, d: int, two_rigid: bool = False) -> Optional[str]:
    """At one length n with diameter d: the witness (when the parameters have one) fails 2 layers (so 3 are
    needed), and where d = 3 the far positions of every root are pairwise adjacent (the far-clique lemma's premise)
    and, up to the rooted-view limit views.MAX_N, no view witness exists at depth 3 (nauty); with `two_rigid` (Theorem F81, s = w + 2), where d = 2 no view witness exists at depth 2
    (nauty)."""
    found = witness(w, s)
    if found is None and d != 3 and not (d == 2 and two_rigid):
        return None  # nothing to re-check at this length
    heads = [patterns.head_arcs(S.PatternUnion((S.Window(w), S.Strided(s))), n)]
    arcs = heads[0]
    reach = bit_distances.Balls(patterns.union_out(heads, n), n)  # d(v → i) ≤ k: reach.within(v, i, k)
    if found is not None:
        i, a, b = found
        perm = [b if k == a else a if k == b else k for k in range(1, n + 1)]
        if all(((perm[u - 1], perm[v - 1]) in arcs) for u, v in arcs):
            return f"n = {n}: the swap ({a} {b}) is a symmetry"
        bad = patterns.view_bad_positions(perm, heads, n)
        near = [v for v in bad if reach.within(v, i, 1)]
        if near:
            return f"n = {n}: position {near[0]}, whose neighbourhood the swap changes, is within 1 of {i}"
    if d == 2 and two_rigid:
        try:
            problem = views.decide(heads, n, 2, [list(range(n, 0, -1))])
        except views.NoNauty as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        if problem:
            return f"n = {n}: {problem}"
    if d == 3:
        into = bit_distances.Balls(patterns.union_out([frozenset((i, j) for j, i in arcs)], n), n)  # d(v → root)
        for root in range(1, n + 1):
            far = into.sphere(root, 3)  # the positions v with d(v → root) = 3
            if any(far & ~reach.ball(u, 1) for u in bit_distances.members(far)):  # some v ≠ u of them: no arc u → v
                return f"n = {n}: two positions at distance 3 from {root} are not adjacent"
        if n > views.MAX_N:
            return None  # above the rooted-view limit the far-clique lemma, its premise checked just above, decides
        try:
            problem = views.decide(heads, n, 3, [list(range(n, 0, -1))])
        except views.NoNauty as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        if problem:
            return f"n = {n}: {problem}"
    return None


def block_witness(w: int, s: int) -> Optional[tuple[int, int]]:
    """F54 (b): (position 1, p) for s ≥ 2w + 2 odd with w | ⌊s/2⌋: p the least p ≥ Mw + 2, p ≡ ⌊s/2⌋ + 2 (mod s)."""
    half = s // 2
    if w < 1 or s < 2 * w + 2 or s % 2 == 0 or half % w:
        return None
    middle = 1 + half // w
    p = next(q for q in range(middle * w + 2, middle * w + 2 + s) if (q - half - 2) % s == 0)
    return 1, p


def block_conditions(w: int, s: int) -> Optional[str]:
    """F54 (b)'s proof conditions, for every n ≥ s(4w + 3) at once: every position v within w of a block
    boundary has residue distance δ from position 1 with ⌈δ/w⌉ = M − 1 (so the walk–jump–walk and
    jump–walk–jump costs are ≥ M) and v − 1 > (M − 1)w (so a walk costs ≥ M), and the blocks end before the
    range's first length. None when they hold."""
    found = block_witness(w, s)
    if found is None:
        return "no block witness for these parameters"
    _, p = found
    half = s // 2
    middle = 1 + -(-half // w)
    for q in (p, p + s, p + 2 * s):
        for v in range(q - w, q + w):
            r = (v - 1) % s
            if -(-min(r, s - r) // w) != middle - 1 or v - 1 <= (middle - 1) * w:
                return f"position {v} (near the block boundary {q}) may lie within M − 1 of position 1"
    if p + 2 * s + w > s * (4 * w + 3):
        return "the blocks reach beyond the range's first length"
    return None


def beyond_instance_problem(w: int, s: int, n: int, d: int) -> Optional[str]:
    """F54 at one length n with diameter d: the block exchange (when the parameters have one) keeps every
    neighbourhood within M − 1 of position 1 and is no symmetry; where d = M + 1 no view witness exists at
    depth d (nauty)."""
    pattern = S.PatternUnion((S.Window(w), S.Strided(s)))
    heads = [patterns.head_arcs(pattern, n)]
    arcs = heads[0]
    middle = 1 + -(-(s // 2) // w)
    found = block_witness(w, s)
    if found is not None:
        i, p = found
        perm = list(range(1, n + 1))
        for x in range(p, p + s):
            perm[x - 1], perm[x + s - 1] = x + s, x
        if all(((perm[u - 1], perm[v - 1]) in arcs) for u, v in arcs):
            return f"n = {n}: the block exchange at {p} is a symmetry"
        dist = patterns.bfs(patterns.union_out(heads, n), i)  # symmetric: d(i → v) = d(v → i)
        near = [v for v in patterns.view_bad_positions(perm, heads, n) if (dist[v] or 0) <= middle - 1]
        if near:
            return f"n = {n}: position {near[0]}, whose neighbourhood the exchange changes, is within M − 1 of {i}"
    if d == middle + 1:
        try:
            problem = views.decide(heads, n, d, [list(range(n, 0, -1))])
        except views.NoNauty as exc:
            return f"n = {n}: the rooted views are not decided ({exc})"
        if problem:
            return f"n = {n}: {problem}"
    return None


def cyclic_block_problem(n: int) -> Optional[str]:
    """Theorem F55 at one length n ≥ 35: for `window(1) cyclic + strided(5)` the exchange of {10, …, 14} and
    {15, …, 19} is no symmetry and changes no neighbourhood within distance 2 of position 2."""
    pattern = S.PatternUnion((S.Window(1, True), S.Strided(5)))
    heads = [patterns.head_arcs(pattern, n)]
    arcs = heads[0]
    perm = list(range(1, n + 1))
    for x in range(10, 15):
        perm[x - 1], perm[x + 4] = x + 5, x
    if all(((perm[u - 1], perm[v - 1]) in arcs) for u, v in arcs):
        return f"n = {n}: the block exchange is a symmetry"
    dist = patterns.bfs(patterns.union_out(heads, n), 2)
    near = [v for v in patterns.view_bad_positions(perm, heads, n) if (dist[v] or 0) <= 2]
    if near:
        return f"n = {n}: position {near[0]}, whose neighbourhood the exchange changes, is within 2 of position 2"
    return None


def cyclic_far_class_problem(w: int, n: int) -> Optional[str]:
    """Theorem F56 at one length n ≥ s(4w + 3), s = 2w + 2: for `window(w) cyclic + strided(s)` the diameter is 3
    and every position at distance 3 from a root i lies in the class of i + w + 1 (mod s), so the far positions of
    every root are pairwise adjacent (the far-clique lemma: D = 3 layers suffice). Re-checked on the verifier's
    arcs by breadth-first search from every root."""
    s = 2 * w + 2
    pattern = S.PatternUnion((S.Window(w, True), S.Strided(s)))
    heads = [patterns.head_arcs(pattern, n)]
    arcs = heads[0]
    outs = patterns.union_out(heads, n)
    for root in range(1, n + 1):
        dist = patterns.bfs(outs, root)  # symmetric: d(root → v) = d(v → root)
        reach = [n if d is None else d for d in dist]
        far = [v for v in range(1, n + 1) if reach[v] > 2]
        if any(reach[v] != 3 for v in far):
            return f"n = {n}: a position is farther than 3 from {root}"
        odd = [v for v in far if (v - root - w - 1) % s]
        if odd:
            return f"n = {n}: position {odd[0]} is at distance 3 from {root} outside the class of {root} + {w + 1}"
        if any((u, v) not in arcs for u in far for v in far if u != v):
            return f"n = {n}: two positions at distance 3 from {root} are not adjacent"
    return None


def beyond_table(w: int, s: int) -> Optional[tuple[int, dict]]:
    """Theorem F120 restated for `window(w) + strided(s)`, s ≥ 2w + 2, not F54 (b): (the check's last length
    N₁ + s − 1, per residue r of n mod s: "far" where D = M + 1 (F54 (a): D least), "premise" where D = M and the
    common-neighbour premise holds at every length of the class, "swap" where D = M and a swap of two far positions is
    a view witness at every one, "open" otherwise), with N₁ = max(s(4w + 3), 16·K₀·w + 4s), K₀ = ⌈⌊s/2⌋/w⌉ + 2 (the
    verifier's own residue costs: c(r) = ⌈min(r, s − r)/w⌉), every length from the range's start on the verifier's own
    bit sets (`strided_lines.class_table`). None when the check would pass length 720 or D is not M or M + 1."""
    from .strided_lines import MAX_CHECK_TOP, class_table
    if w < 1 or s < 2 * w + 2:
        return None
    cost = max(-(-min(r, s - r) // w) for r in range(s))
    middle = 1 + -(-(s // 2) // w)
    low = s * (4 * w + 3)
    top = max(low, 16 * (cost + 2) * w + 4 * s) + s - 1
    if top > MAX_CHECK_TOP:
        return None
    vals = [k for k in range(-w, w + 1) if k]
    table = class_table(s, vals, low, top)
    if table is None or len(table) != s:
        return None
    out = {}
    for r, (d, found) in table.items():
        if d == middle + 1:
            out[r] = "far"
        elif d != middle:
            return None
        else:
            out[r] = {0: "premise", 1: "swap"}.get(found, "open")
    if w == 1 and s % 2 == 0:  # Theorem F199 on the classes F120 leaves: its premise at every length of the class
        for r in [r for r, kind in out.items() if kind == "open"]:
            if all(far_pendant_problem(s, n) is None for n in range(low + (r - low) % s, top + 1, s)):
                out[r] = "pendant"
    return top, out


def far_pendant_problem(s: int, n: int) -> Optional[str]:
    """Theorem F199's premise for `window(1) + strided(s)`, s even, at n, on the verifier's own arcs, at every root
    within s/2 − 1 of an end (its proof gives the others): the positions at distance D = s/2 + 1 are one residue class
    (a clique) whose members have at most 4 neighbours nearer the root, and at most one more position with more, adjacent
    among the far positions to one member only, which has fewer nearer neighbours than every other member. None when it
    holds, else what fails."""
    h = s // 2
    if s < 4 or s % 2:
        return f"F199 is for an even stride, not {s}"
    heads = [patterns.head_arcs(S.PatternUnion((S.Window(1), S.Strided(s))), n)]
    out = patterns.union_out(heads, n)
    for root in sorted(set(range(1, h)) | set(range(n - h + 2, n + 1))):
        found = patterns.bfs(out, root)  # symmetric: d(root → v) = d(v → root)
        dist = [-1 if d is None else d for d in found]
        if min(dist[1:]) < 0 or max(dist[1:]) != h + 1:
            return f"n = {n}: from {root} the largest distance is not D = {h + 1}"
        far = [v for v in range(1, n + 1) if dist[v] == h + 1]
        kappa = {x: sum(1 for u in out[x] if u != x and dist[u] <= h) for x in far}
        clique = [x for x in far if kappa[x] <= 4]
        extra = [x for x in far if kappa[x] > 4]
        if len({x % s for x in clique}) > 1 or len(extra) > 1:
            return f"n = {n}: from {root} the far positions are no one-class clique with at most one more position"
        if extra:
            p = extra[0]
            touched = [x for x in clique if (x, p) in heads[0]]
            if len(touched) != 1 or any(kappa[x] <= kappa[touched[0]] for x in clique if x != touched[0]):
                return f"n = {n}: from {root} the position {p} is not a pendant of the far clique singled out as F199 states"
    return None


def beyond_class_problem(w: int, s: int, kind: str, n: int, d: int) -> Optional[str]:
    """Theorem F120 at one length n of a decided class, on the verifier's arcs: the common-neighbour premise
    ("premise") or a swap of two far positions that is a view witness ("swap"); None when it holds (or "far"/"open")."""
    from .strided_lines import common_neighbour_problem, swap_witness_problem
    pattern = S.PatternUnion((S.Window(w), S.Strided(s)))
    if kind == "premise":
        return common_neighbour_problem(pattern, n, d)
    if kind == "swap":
        return swap_witness_problem(pattern, n, d)
    if kind == "pendant":
        return far_pendant_problem(s, n) if w == 1 else f"F199 is for window(1), not window({w})"
    return None
