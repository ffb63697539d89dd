"""A coloured digraph decided on its twin quotient (Lemma AK, Theorem F222, docs/theory.md §11.9): the automorphism
count, a canonical labelling and automorphism generators of a rooted view with large classes of twins, from BLISS on
the classes instead of the vertices.

Twins: vertices u ≠ v of one colour with the same out- and in-neighbours apart from each other, the same loop, and
either both arcs u → v, v → u or neither. Twin-ness is an equivalence; every automorphism maps classes onto classes;
|Aut(Γ)| = |Aut(Q)| · Π_C |C|!, where Q is the digraph on the classes (an arc C → D, C ≠ D, when the members' arcs
run so) coloured by (colour, |C|, loop, both arcs inside C); and the classes taken in Q's canonical order, each class's
members in increasing order, label Γ canonically. BLISS spends a search path per member of a symmetric class (O(n)
paths of O(n) work on the S_1998-like groups of `global(2)`'s rooted views at n = 2,000); on Q the class is one vertex.

The classes are found exactly: a wrapping 64-bit sum of mixed neighbours proposes candidates (equal sets give equal
sums, in any order), and the candidates are grouped by their neighbour sets themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import factorial
from typing import Optional, Sequence

#: A view is decided on its quotient when the classes of twins save at least this many vertices (m − k). The rule
#: depends on the view's isomorphism class alone (the twin classes are an isomorphism invariant), so two isomorphic
#: views are always labelled the same way, and their canonical forms compare.
MIN_SAVED = 64


@dataclass(frozen=True)
class TwinQuotient:
    """The twin classes of a coloured digraph on m vertices (each a sorted tuple; classes ordered by least member),
    and its coloured quotient Q on the k classes (``arcs`` between distinct classes, ``colours`` the ranks of the
    keys (colour, size, loop, both arcs inside))."""
    m: int
    classes: tuple[tuple[int, ...], ...]
    arcs: tuple[tuple[int, int], ...]
    colours: tuple[int, ...]
    keys: tuple[tuple, ...] = ()  # each class's (colour, size, looped, full), the colours' ranks are of

    @property
    def k(self) -> int:
        return len(self.classes)

    def graph(self):
        from ..lazy import digraph
        return digraph(self.k, list(self.arcs))

    def automorphism_order(self) -> int:
        """|Aut(Γ)| = |Aut(Q)| · Π |C|! (Lemma AK); |Aut(Q)| counted by BLISS with the cross-check of
        `count_automorphisms` (two splitting heuristics)."""
        from ..bignum import count_automorphisms
        order = count_automorphisms(self.graph(), color=list(self.colours))
        for members in self.classes:
            if len(members) > 1:
                order *= factorial(len(members))
        return order

    def canonical_labels(self) -> list[int]:
        """v ↦ its canonical index in Γ: the classes in Q's canonical order (BLISS), each class's members in increasing
        order, one after the other."""
        return self.canonical()[0]

    def canonical(self) -> tuple[list[int], tuple]:
        """(`canonical_labels`, Q's canonical form with its keys): ("twin quotient", m, the keys in canonical order, the
        arcs between classes in canonical positions, sorted). Equal forms exactly for isomorphic coloured digraphs
        (Theorem F222 (d)); its size is Q's, not Γ's."""
        from .. import bliss
        order = bliss.canonical_permutation(self.graph(), list(self.colours))
        lab, position = canonical_member_labels(self.m, self.classes, order)
        arcs = tuple(sorted((position[a], position[b]) for a, b in self.arcs))
        return lab, ("twin quotient", self.m, tuple(self.keys[c] for c in order), arcs)

    def generators(self) -> list[list[int]]:
        """Generators of Aut(Γ) (each the list of the m images): the lifts of BLISS's generators of Aut(Q) (a class onto
        its image, members in increasing order onto members in increasing order), and for each class of two or
        more members a transposition and a cycle of its members (they generate its symmetric group)."""
        from .. import bliss
        return lifted_generators(self.m, self.classes, bliss.generators(self.graph(), list(self.colours)))


def canonical_member_labels(m: int, classes, order) -> tuple[list[int], list[int]]:
    """(v ↦ its canonical index, class ↦ its canonical position) for a twin quotient whose classes BLISS's canonical
    labelling puts in `order`: the classes one after the other in that order, each class's members in increasing
    order (Theorems F222 (d), F223 (d))."""
    lab = [0] * m
    position = [0] * len(classes)
    at = 0
    for p, c in enumerate(order):
        position[c] = p
        for v in classes[c]:
            lab[v] = at
            at += 1
    return lab, position


def lifted_generators(m: int, classes, quotient_generators) -> list[list[int]]:
    """Generators of a graph's group from its twin quotient's (Theorem F222 / F223): each quotient generator lifted
    (every class onto its image, members in increasing order onto members in increasing order), and for each class
    of two or more members a transposition and a cycle of its members (they generate its symmetric group)."""
    out = []
    for gen in quotient_generators:
        image = list(range(m))
        for c, d in enumerate(gen):
            for u, v in zip(classes[c], classes[d]):
                image[u] = v
        out.append(image)
    for members in classes:
        if len(members) > 1:
            swap = list(range(m))
            swap[members[0]], swap[members[1]] = members[1], members[0]
            out.append(swap)
            if len(members) > 2:
                cycle = list(range(m))
                for a, b in zip(members, members[1:] + members[:1]):
                    cycle[a] = b
                out.append(cycle)
    return out


def _mix(x):
    """A 64-bit mix of each entry (splitmix64's finaliser), wrapping."""
    import numpy as np
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def twin_classes(m: int, colours: Sequence[int], sources, targets, min_saved: int = 0) -> Optional[list[tuple[int, ...]]]:
    """The twin classes of the coloured digraph on m vertices with the arcs sources[e] → targets[e] (numpy integer
    arrays or sequences), each a sorted tuple, ordered by least member; None when the candidates (vertices with equal
    keys, a superset of the twins) cannot save ``min_saved`` vertices."""
    import numpy as np
    src, dst = _arc_arrays(m, sources, targets)
    loops = src == dst
    looped = np.zeros(m, dtype=np.uint64)
    looped[src[loops]] = 1
    src, dst = src[~loops], dst[~loops]
    with np.errstate(over="ignore"):
        mixed = _mix(np.arange(m, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15))
        out_sum = np.zeros(m, dtype=np.uint64)
        in_sum = np.zeros(m, dtype=np.uint64)
        np.add.at(out_sum, src, mixed[dst])
        np.add.at(in_sum, dst, mixed[src])
        kind = np.asarray(colours, dtype=np.int64).astype(np.uint64) * np.uint64(2) + looped
        # one wrapping 64-bit key per vertex: equal (colour, loop, out-set, in-set) give equal keys; non-adjacent
        # twins have equal open neighbourhoods, adjacent ones equal closed ones (each its own member)
        base = _mix(kind) + out_sum * np.uint64(_OUT) + in_sum * np.uint64(_IN)
        keys = (base, base + mixed * np.uint64((_OUT + _IN) % 2 ** 64))
    candidates = []  # (closed, the vertices of one run of equal keys)
    for closed, key in enumerate(keys):
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1], [True])))
        runs = np.flatnonzero(starts[1:] - starts[:-1] >= 2)
        candidates += [(closed, order[lo:hi].tolist()) for lo, hi in zip(starts[runs].tolist(), starts[runs + 1].tolist())]
    if sum(len(members) - 1 for _, members in candidates) < min_saved:
        return None
    # the candidates grouped exactly (a collision of the keys only proposes a group that is split here)
    sets = _NeighbourSets(m, src, dst)
    has_loop = looped.astype(bool).tolist()
    class_of = np.arange(m)
    for closed, members in candidates:
        groups: dict = {}
        for v in members:
            own = frozenset((v,)) if closed else frozenset()
            groups.setdefault((colours[v], has_loop[v], sets.outs(v) | own, sets.ins(v) | own), []).append(v)
        for group in groups.values():
            if len(group) > 1:
                class_of[group] = min(group)
    found: dict[int, list[int]] = {}
    for v, c in enumerate(class_of.tolist()):
        found.setdefault(c, []).append(v)
    return [tuple(members) for members in found.values()]


#: odd multipliers of the out- and in-sums in a vertex's key
_OUT = 0xD6E8FEB86659FD93
_IN = 0xA0761D6478BD642F


def _arc_arrays(m: int, sources, targets):
    """The arcs as two int64 arrays, each arc once (sorted by source, then target)."""
    import numpy as np
    codes = np.sort(np.asarray(sources, dtype=np.int64) * m + np.asarray(targets, dtype=np.int64))
    if len(codes) > 1:
        codes = codes[np.concatenate(([True], codes[1:] != codes[:-1]))]
    return codes // m, codes % m


class _NeighbourSets:
    """A vertex's out- and in-neighbours (loops left out) as frozensets, read off the arcs sorted both ways."""

    def __init__(self, m: int, src, dst) -> None:
        import numpy as np
        points = np.arange(m + 1)
        self.out_at, self.out_to = np.searchsorted(src, points).tolist(), dst  # src is sorted
        by_target = np.argsort(dst, kind="stable")
        self.in_at, self.in_from = np.searchsorted(dst[by_target], points).tolist(), src[by_target]

    def outs(self, v: int) -> frozenset:
        return frozenset(self.out_to[self.out_at[v]:self.out_at[v + 1]].tolist())

    def ins(self, v: int) -> frozenset:
        return frozenset(self.in_from[self.in_at[v]:self.in_at[v + 1]].tolist())


def quotient(m: int, colours: Sequence[int], sources, targets, min_saved: int = MIN_SAVED) -> Optional[TwinQuotient]:
    """The twin quotient of the coloured digraph (as `twin_classes` reads it), or None when its classes save fewer than
    ``min_saved`` vertices."""
    if m - 1 < min_saved:
        return None  # k ≥ 1 class
    classes = twin_classes(m, colours, sources, targets, min_saved)
    if classes is None or m - len(classes) < min_saved:
        return None
    import numpy as np
    from itertools import chain
    k = len(classes)
    class_of = np.empty(m, dtype=np.int64)
    class_of[np.fromiter(chain.from_iterable(classes), dtype=np.int64, count=m)] = np.repeat(
        np.arange(k, dtype=np.int64), [len(members) for members in classes])
    src, dst = _arc_arrays(m, sources, targets)
    cu, cv = class_of[src], class_of[dst]
    loops = src == dst
    looped = set(np.unique(cu[loops]).tolist())
    inside = set(np.unique(cu[(cu == cv) & ~loops]).tolist())  # classes with arcs between members: every pair, both ways
    between = np.unique(cu[cu != cv] * k + cv[cu != cv])
    arcs = list(zip((between // k).tolist(), (between % k).tolist()))
    keys = tuple((colours[members[0]], len(members), c in looped, c in inside) for c, members in enumerate(classes))
    rank = {key: x for x, key in enumerate(sorted(set(keys)))}
    return TwinQuotient(m, tuple(classes), tuple(arcs), tuple(rank[key] for key in keys), keys)
