"""Whether D layers suffice, decided by the verifier with nauty (pynauty), not the engines' BLISS:
the rooted views of docs/theory.md §11.9.

R_i is the digraph on the n positions with the arcs u → v of the union graph for v in the ball
B_i = {v : d(v → i) ≤ D − 1}, each arc labelled by the set of heads containing it (nauty sees it as
nauty_graph's bit layers), and position v coloured by
min(d(v → i), D). A view witness exists iff for some representative i of the G-orbits
|Aut(R_i)| > |G| / |G·i|, or R_i ≅ R_j for two representatives i ≠ j (§11.9, Theorem). nauty gives
the generators of Aut(R_i) (their order is re-derived by Schreier–Sims on the positions) and a
canonical form of R_i; equal canonical forms are isomorphic views (a witness), different ones are not.
"""
from __future__ import annotations

from typing import Optional, Sequence

from . import groups, nauty_graph, patterns

MAX_N = patterns.MAX_N  # the arcs are materialised up to here


class NoNauty(Exception):
    pass


def orbits(gens: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    parent = list(range(n + 1))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for g in gens:
        for k in range(1, n + 1):
            a, b = find(k), find(g[k - 1])
            if a != b:
                parent[a] = b
    out: dict = {}
    for k in range(1, n + 1):
        out.setdefault(find(k), []).append(k)
    return sorted(out.values())


def _head_ins(heads: Sequence[frozenset], n: int) -> list:
    """Each head's in-lists: [h][v] the positions u with the arc u → v in head h."""
    out = []
    for arcs in heads:
        ins: list = [[] for _ in range(n + 1)]
        for u, v in arcs:
            ins[v].append(u)
        out.append(ins)
    return out


def _rooted_view(head_ins: Sequence[list], n: int, dist_to_i: list, d: int, kinds: Optional[Sequence] = None):
    """i's rooted view for nauty: the arcs into the (D − 1)-ball labelled by the heads containing them (with
    `kinds`, by the pairs (head, class of the arc in that head's bias kind): §11.10's labelled view R_i^λ),
    positions coloured by min(d(v → i), D). `head_ins`: each head's in-lists (_head_ins), so only the arcs into the
    ball are read."""
    ball = [v for v in range(1, n + 1) if dist_to_i[v] is not None and dist_to_i[v] <= d - 1]
    labels: dict = {}
    if len(head_ins) == 1 and (kinds is None or kinds[0] is None):  # one label, (0,): the loop below, at once
        labels = dict.fromkeys([(u, v) for v in ball for u in head_ins[0][v]], [0])
    for h, ins in enumerate(head_ins if not labels else ()):
        kind = kinds[h] if kinds is not None else None
        for v in ball:
            for u in ins[v]:
                labels.setdefault((u, v), []).append(h if kind is None else (h, patterns.bias_class(kind, n, u, v)))
    colour_cells: list = [set() for _ in range(d + 1)]
    colour = [0] * (n + 1)
    for v in range(1, n + 1):
        colour[v] = dist_to_i[v] if dist_to_i[v] is not None and dist_to_i[v] < d else d
        colour_cells[colour[v]].add(v)
    labelled = {arc: tuple(hs) for arc, hs in labels.items()}
    g, signature = nauty_graph.build(n, labelled, colour_cells)
    return g, signature, lambda: refined_colours(n, labelled, colour)


#: Each distinct arc label gets a number, the same in every view this process builds (labels are the heads' tuples).
_LABEL_IDS: dict = {}
_MIX = (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)


def _weights(keys):
    """Pseudo-random weights 1 … 2³¹ − 1 of non-negative integer keys (splitmix64's top bits): a fixed function of
    the key, so equal keys in two views weigh the same."""
    import numpy as np
    z = keys.astype(np.uint64) + np.uint64(_MIX[0])
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX[1])
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX[2])
    z ^= z >> np.uint64(31)
    return ((z >> np.uint64(33)) | np.uint64(1)).astype(np.float64)


def refined_colours(n: int, arcs: dict, colour: list, rounds: int = 3) -> tuple:
    """An isomorphism invariant of a coloured, labelled digraph, cheaper than nauty's canonical form: after `rounds`
    of colour refinement (each position's colour joined with the multisets of (label, colour) of its in- and
    out-arcs), the distinct colour rows and how many positions have each. Every value is computed from the graph
    alone: colours are ranks of invariant values among the values present, and a multiset is summed as weights
    (a fixed function of label, colour, round and direction, below 2³¹) in float64, exact while n ≤ 2²² since every
    partial sum is an integer below 2⁵³; so isomorphic graphs get equal values. Unequal values prove two views not
    isomorphic; equal ones prove nothing (which is also what the empty tuple returned past 2²² positions says)."""
    import numpy as np
    if n > 1 << 22 or len(_LABEL_IDS) >= 1 << 20:
        return ()
    m = len(arcs)
    src = np.fromiter((u - 1 for u, _ in arcs), np.int64, m)
    dst = np.fromiter((v - 1 for _, v in arcs), np.int64, m)
    label = np.fromiter((_LABEL_IDS.setdefault(hs, len(_LABEL_IDS)) for hs in arcs.values()), np.int64, m)
    uniq, c = np.unique(np.asarray(colour[1:n + 1], dtype=np.int64), return_inverse=True)
    counts = np.bincount(c.reshape(-1))
    for round_ in range(rounds):
        c = c.reshape(-1)
        # key = (round, direction, colour of the far end, label): 2 + 1 + 22 + 20 bits < 2⁶³
        base = (label + (np.int64(round_) << 44)) + (np.int64(1) << 43)
        into = np.bincount(dst, weights=_weights(base + (c[src] << 20)), minlength=n)
        out = np.bincount(src, weights=_weights(base - (np.int64(1) << 43) + (c[dst] << 20)), minlength=n)
        rows = np.stack([c, into.astype(np.int64), out.astype(np.int64)], axis=1)
        uniq, c = np.unique(rows, axis=0, return_inverse=True)
        counts = np.bincount(c.reshape(-1))
    return uniq.tobytes(), counts.tobytes()


def decide(heads: Sequence[frozenset], n: int, d: int, gens: Sequence[Sequence[int]],
           kinds: Optional[Sequence] = None, roots: Optional[frozenset] = None) -> Optional[str]:
    """None when no view witness exists at depth D = d (so D layers suffice), else the reason. `kinds`: each
    head's bias kind (None: no classes), for the labelled views of §11.10; G (`gens`) is then the labelled group.
    `roots`, when given (a union of G-orbits): no view witness rooted there (the rooted views of those orbits only)."""
    try:
        import pynauty  # noqa: F401 - only whether it is there: first_view_witness uses it
    except ImportError:
        raise NoNauty("pynauty is not installed (pip install pynauty)") from None
    if n > MAX_N:
        raise NoNauty(f"n = {n} is above the rooted-view limit {MAX_N}")
    ins: list = [[] for _ in range(n + 1)]
    in_mask = [0] * (n + 1)  # bit u of in_mask[v]: the arc u → v
    for arcs in heads:
        for u, v in arcs:
            ins[v].append(u)
            in_mask[v] |= 1 << u
    everything = (1 << (n + 1)) - 2

    def whole_ball(i: int) -> bool:
        # d(v → i) ≤ D − 1 for every v: a backward search on bit sets, each position expanded once
        seen = frontier = 1 << i
        for _ in range(d - 1):
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= in_mask[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & ~seen
            if not frontier:
                break
            seen |= frontier
        return seen == everything
    if not all(_keeps_arcs(arcs, g) for arcs in heads for g in gens):
        return "a generator of G given to the view decision does not keep every head's arcs on the verifier's arcs"
    member = _member(heads, n) if kinds is None else None
    head_ins = _head_ins(heads, n)
    return first_view_witness(n, gens, lambda i: _rooted_view(head_ins, n, patterns.bfs(ins, i), d, kinds), MISMATCH,
                              whole_ball, member, roots)


def _keeps_arcs(arcs: frozenset, p: Sequence[int]) -> bool:
    """Whether the permutation p (p[v − 1] the image of v) maps the head's arcs onto themselves: a generator of G
    must, or a view witness would pass as a symmetry."""
    return all((p[u - 1], p[v - 1]) in arcs for u, v in arcs)


def _member(heads: Sequence[frozenset], n: int):
    """Whether a permutation is an automorphism of the heads (every head's arcs kept): checked at the positions it
    moves and at the positions they are keys of, the only ones whose in-neighbourhood in a head can change."""
    into: list[list[set]] = [[set() for _ in range(n + 1)] for _ in heads]
    outs: list = [set() for _ in range(n + 1)]
    for h, arcs in enumerate(heads):
        for u, v in arcs:
            into[h][v].add(u)
            outs[u].add(v)

    def member(p: Sequence[int]) -> bool:
        moved = [v for v in range(1, n + 1) if p[v - 1] != v]
        touched = set(moved).union(*(outs[v] for v in moved)) if moved else set()
        return all({p[u - 1] for u in nb[v]} == nb[p[v - 1]] for nb in into for v in touched)
    return member


MISMATCH = ("|Aut(R_{i})| = {aut} exceeds |Stab_G({i})| = {stab}: some automorphism of {i}'s rooted view lies "
            "outside G, a view witness")


def first_view_witness(n: int, gens: Sequence[Sequence[int]], rooted_view, mismatch: str,
                       whole_ball=None, member=None, roots: Optional[frozenset] = None) -> Optional[str]:
    """§11.9's theorem, decided with nauty: None when, for every G-orbit's representative i, the rooted
    view `rooted_view(i)` (a pynauty graph and the signature of its colour cells) has exactly
    |Stab_G(i)| automorphisms and no two representatives' views are isomorphic; else the reason
    (`mismatch` worded with i, aut and stab, or the isomorphic pair).

    `whole_ball(i)`, when given, says that i's (D − 1)-ball is every position; such i are skipped (§11.9,
    R1): their rooted view is the whole labelled structure coloured by distance to i, whose automorphisms
    are exactly Stab_G(i) when G is the structure's full group (the SYM-AUT step checks that), and it
    is isomorphic to no other representative's view: to a whole-ball one only by an automorphism of the
    structure carrying i to j (then i, j share a G-orbit), to any other one never, since only the other
    has positions coloured D.

    `member(p)`, when given, says whether a permutation of the positions is an automorphism of the whole structure
    (the one G is the full group of): then |Aut(R_i)| = |Stab_G(i)| is decided by nauty's generators of Aut(R_i)
    alone, each tested for membership, without their order. Stab_G(i) ⊆ Aut(R_i) always (a symmetry fixing i keeps
    the distances to i and the arcs into the ball), and every automorphism of R_i fixes i (the only position coloured
    0), so the two are equal iff every generator of Aut(R_i) is a symmetry of the structure. (Their orders by
    Schreier–Sims took about 0.6 s per view on `blocks(13) + strided(8)` at n = 182…195, where Aut(R_i) is a product
    of many symmetric groups: most of the verifier's time on that pattern at n = 1,048,576.)"""
    import pynauty
    order = groups.order(gens, n)
    forms: dict = {}
    for orbit in orbits(gens, n):
        i = orbit[0]
        if roots is not None and not set(orbit) <= roots:
            if set(orbit) & roots:
                raise ValueError("the roots are not a union of G-orbits")
            continue
        if whole_ball is not None and whole_ball(i):
            continue
        try:
            g, signature, *refine = rooted_view(i)
        except nauty_graph.TooLarge as exc:
            raise NoNauty(f"{i}'s rooted view: {exc}") from None
        view_gens = nauty_graph.position_generators(pynauty.autgrp(g)[0], n)
        stab = order // len(orbit)
        if member is None or not all(member(p) for p in view_gens):
            aut_order = groups.order(view_gens, n)
            if aut_order != stab:
                return mismatch.format(i=i, aut=aut_order, stab=stab)
        # Isomorphic views have equal signatures and equally many automorphisms (|Aut(R_i)| = |G| / |G·i| here), so a
        # canonical form is computed only for views whose signature and orbit size another representative shares,
        # and, where the view has a refinement invariant, whose invariant it shares too (nauty's canonical labelling
        # is the costly part; the invariant is computed only on such a collision, since most views have none).
        fine = refine[0] if refine else (lambda: None)
        same = forms.setdefault((signature, len(orbit)), [])
        if same:
            mine = fine()
            cert = None
            for entry in same:  # [representative, its graph or canonical form, its invariant or how to compute it]
                if callable(entry[2]):
                    entry[2] = entry[2]()
                if entry[2] != mine:
                    continue
                if cert is None:
                    cert = pynauty.certificate(g)
                if not isinstance(entry[1], bytes):
                    entry[1] = pynauty.certificate(entry[1])
                if entry[1] == cert:
                    return (f"the rooted views of {entry[0]} and {i} (different G-orbits) are isomorphic: a view "
                            f"witness")
            same.append([i, g, mine])
        else:
            same.append([i, g, fine])
    return None
