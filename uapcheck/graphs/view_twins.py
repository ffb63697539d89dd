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
        from .. import bliss
        order = bliss.canonical_permutation(self.graph(), list(self.colours))
        lab = [0] * self.m
        at = 0
        for c in order:
            for v in self.classes[c]:
                lab[v] = at
                at += 1
        return lab

    def generators(self) -> list[list[int]]:
        """Generators of Aut(Γ) (each the list of the m images): the lifts of BLISS's generators of Aut(Q) (a class onto
        its image, members in increasing order onto members in increasing order), and for each class of two or
        more members a transposition and a cycle of its members (they generate its symmetric group)."""
        from .. import bliss
        out = []
        for gen in bliss.generators(self.graph(), list(self.colours)):
            image = list(range(self.m))
            for c, d in enumerate(gen):
                for u, v in zip(self.classes[c], self.classes[d]):
                    image[u] = v
            out.append(image)
        for members in self.classes:
            if len(members) > 1:
                swap = list(range(self.m))
                swap[members[0]], swap[members[1]] = members[1], members[0]
                out.append(swap)
                if len(members) > 2:
                    cycle = list(range(self.m))
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


def twin_classes(m: int, colours: Sequence[int], sources, targets) -> list[tuple[int, ...]]:
    """The twin classes of the coloured digraph on m vertices with the arcs sources[e] → targets[e] (numpy integer
    arrays or sequences), each a sorted tuple, ordered by least member."""
    import numpy as np
    src, dst = _arc_arrays(m, sources, targets)
    with np.errstate(over="ignore"):
        loop = np.zeros(m, dtype=bool)
        loop[src[src == dst]] = True
        keep = src != dst
        src, dst = src[keep], dst[keep]
        mixed = _mix(np.arange(m, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15))
        out_sum = np.zeros(m, dtype=np.uint64)
        in_sum = np.zeros(m, dtype=np.uint64)
        np.add.at(out_sum, src, mixed[dst])
        np.add.at(in_sum, dst, mixed[src])
        out_deg = np.bincount(src, minlength=m)
        in_deg = np.bincount(dst, minlength=m)
        colour = np.asarray(colours, dtype=np.int64)
        # non-adjacent twins have equal open neighbourhoods, adjacent ones equal closed ones (each its own member)
        proposals = [(out_sum, in_sum, out_deg, in_deg), (out_sum + mixed, in_sum + mixed, out_deg + 1, in_deg + 1)]
    outs: Optional[list] = None
    ins: Optional[list] = None
    class_of = list(range(m))
    for closed, key in enumerate(proposals):
        order = np.lexsort(key + (loop, colour))
        columns = [colour, loop, *key]
        same = np.ones(m - 1, dtype=bool) if m > 1 else np.zeros(0, dtype=bool)
        for col in columns:
            ordered = col[order]
            same &= ordered[1:] == ordered[:-1]
        starts = np.flatnonzero(np.concatenate(([True], ~same, [True])))
        runs = np.flatnonzero(starts[1:] - starts[:-1] >= 2)
        if len(runs) and outs is None:
            outs, ins = _neighbour_sets(m, src, dst)
        for lo, hi in zip(starts[runs].tolist(), starts[runs + 1].tolist()):
            groups: dict = {}
            for v in order[lo:hi].tolist():
                own = frozenset((v,)) if closed else frozenset()
                groups.setdefault((outs[v] | own, ins[v] | own), []).append(v)  # type: ignore[index]
            for members in groups.values():
                if len(members) > 1:
                    least = min(members)
                    for v in members:
                        class_of[v] = least
    found: dict[int, list[int]] = {}
    for v in range(m):
        found.setdefault(class_of[v], []).append(v)
    return [tuple(members) for members in found.values()]


def _arc_arrays(m: int, sources, targets):
    """The arcs as two int64 arrays, each arc once (sorted by source, then target)."""
    import numpy as np
    codes = np.unique(np.asarray(sources, dtype=np.int64) * m + np.asarray(targets, dtype=np.int64))
    return codes // m, codes % m


def _neighbour_sets(m: int, src, dst) -> tuple[list, list]:
    """Each vertex's out- and in-neighbours (loops left out) as frozensets."""
    outs: list = [[] for _ in range(m)]
    ins: list = [[] for _ in range(m)]
    for u, v in zip(src.tolist(), dst.tolist()):
        outs[u].append(v)
        ins[v].append(u)
    return [frozenset(x) for x in outs], [frozenset(x) for x in ins]


def quotient(m: int, colours: Sequence[int], sources, targets, min_saved: int = MIN_SAVED) -> Optional[TwinQuotient]:
    """The twin quotient of the coloured digraph (as `twin_classes` reads it), or None when its classes save fewer than
    ``min_saved`` vertices."""
    if m - 1 < min_saved:
        return None  # k ≥ 1 class
    classes = twin_classes(m, colours, sources, targets)
    if m - len(classes) < min_saved:
        return None
    class_of = [0] * m
    for c, members in enumerate(classes):
        for v in members:
            class_of[v] = c
    src, dst = _arc_arrays(m, sources, targets)
    arcs: set = set()
    looped: set = set()
    inside: set = set()  # the classes with arcs between their members (then every pair, both ways)
    for u, v in zip(src.tolist(), dst.tolist()):
        cu, cv = class_of[u], class_of[v]
        if u == v:
            looped.add(cu)
        elif cu == cv:
            inside.add(cu)
        else:
            arcs.add((cu, cv))
    keys = [(colours[members[0]], len(members), c in looped, c in inside) for c, members in enumerate(classes)]
    rank = {key: x for x, key in enumerate(sorted(set(keys)))}
    return TwinQuotient(m, tuple(classes), tuple(sorted(arcs)), tuple(rank[key] for key in keys))
