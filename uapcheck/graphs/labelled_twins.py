"""An arc-labelled coloured digraph decided on its twin quotient (Lemma AL, Theorem F223, docs/theory.md §11.9): the
automorphism count, a canonical form and automorphism generators of a per-layer rooted view (graphs/layers.py) with
large classes of twins, from BLISS on the classes instead of the positions and their subdivided arcs.

The digraph: vertices 0..m − 1 with colours, and a label L(u, v) on each arc u → v (loops allowed, no multiple arcs);
write L(u, v) = ⊥ when there is no arc. Twins: vertices u ≠ v of one colour with L(u, u) = L(v, v),
L(u, v) = L(v, u), and L(u, x) = L(v, x), L(x, u) = L(x, v) for every other x. Twin-ness is an equivalence, the
pairs inside a class carry one label (or none) both ways, the arcs between two classes one label (or none); every
automorphism (keeping colours and labels) maps classes onto classes; |Aut(Γ)| = |Aut(Q)| · Π_C |C|!, where Q is the
labelled digraph on the classes keyed by (colour, |C|, loop label, inside label); and the classes taken in Q's
canonical order, each class's members in increasing order, label Γ canonically. Theorem F222 (graphs/view_twins.py)
is the case of one label; this module reuses its 64-bit mix and its threshold, and leaves it as it is.

Labels are non-negative ints (the per-layer views' bitsets of (layer, head)); −1 stands for ⊥ in the keys. The
classes are found exactly: wrapping 64-bit sums of mixed (neighbour, label) pairs propose candidates (equal sets give
equal sums), and the candidates are grouped by their labelled neighbour sets themselves.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import factorial
from typing import Optional, Sequence

from .view_twins import MIN_SAVED, _IN, _OUT, _mix

__all__ = ["LabelledTwinQuotient", "MIN_SAVED", "labelled_twin_classes", "quotient"]

#: the tag that opens a quotient's canonical form: a whole view's form (graphs/layers.canonical_digest) never equals it
FORM_TAG = "labelled twin quotient"


@dataclass(frozen=True)
class LabelledTwinQuotient:
    """The twin classes of an arc-labelled coloured digraph on m vertices (each a sorted tuple, ordered by least member)
    and its labelled quotient Q on the k classes: ``arcs`` (C, D, label) between distinct classes, ``keys`` each
    class's (colour, size, loop label, inside label), −1 for none."""
    m: int
    classes: tuple[tuple[int, ...], ...]
    arcs: tuple[tuple[int, int, int], ...]
    keys: tuple[tuple[int, int, int, int], ...]

    @property
    def k(self) -> int:
        return len(self.classes)

    def graph(self):
        """Q for BLISS, with its colours: the classes 0..k − 1 coloured by the ranks of their keys, each arc subdivided
        by a vertex coloured (number of keys) + the rank of its label among Q's labels, as the per-layer views encode
        their arcs (graphs/layers.subdivided). The ranks are of sorted sets that are isomorphism invariants, so
        isomorphic quotients get corresponding colours."""
        from ..lazy import digraph
        key_rank = {key: x for x, key in enumerate(sorted(set(self.keys)))}
        label_rank = {label: x for x, label in enumerate(sorted({label for _, _, label in self.arcs}))}
        colours = [key_rank[key] for key in self.keys]
        edges: list[tuple[int, int]] = []
        for c, d, label in self.arcs:
            mid = len(colours)
            colours.append(len(key_rank) + label_rank[label])
            edges += [(c, mid), (mid, d)]
        return digraph(len(colours), edges), colours

    def automorphism_order(self) -> int:
        """|Aut(Γ)| = |Aut(Q)| · Π |C|! (Lemma AL); |Aut(Q)| counted by BLISS with the cross-check of
        `count_automorphisms` (two splitting heuristics)."""
        from ..bignum import count_automorphisms
        graph, colours = self.graph()
        order = count_automorphisms(graph, color=colours)
        for members in self.classes:
            if len(members) > 1:
                order *= factorial(len(members))
        return order

    def canonical(self) -> tuple[list[int], tuple]:
        """(v ↦ its canonical index, Q's canonical form): the classes in the order BLISS's canonical labelling of Q
        places them, each class's members in increasing order, one after the other; the form is (FORM_TAG, m, the keys
        in that order, the arcs (position, position, label) sorted). Equal forms exactly for isomorphic digraphs
        (Theorem F223 (d)); its size is Q's."""
        from .. import bliss
        graph, colours = self.graph()
        from .view_twins import canonical_member_labels
        order = [c for c in bliss.canonical_permutation(graph, colours) if c < self.k]
        lab, position = canonical_member_labels(self.m, self.classes, order)
        arcs = tuple(sorted((position[c], position[d], label) for c, d, label in self.arcs))
        return lab, (FORM_TAG, self.m, tuple(self.keys[c] for c in order), arcs)

    def digest(self) -> tuple[list[int], str]:
        """(`canonical`'s labelling, the SHA-256 of its form)."""
        lab, form = self.canonical()
        return lab, hashlib.sha256(repr(form).encode()).hexdigest()

    def generators(self) -> list[list[int]]:
        """Generators of Aut(Γ) (each the list of the m images): the lifts of BLISS's generators of Aut(Q) (a class
        onto its image, members in increasing order onto members in increasing order), and for each class of two or
        more members a transposition and a cycle of its members (they generate its symmetric group)."""
        from .. import bliss
        from .view_twins import lifted_generators
        graph, colours = self.graph()
        return lifted_generators(self.m, self.classes, ([g[c] for c in range(self.k)]
                                                        for g in bliss.generators(graph, colours)))


def _labelled_arcs(m: int, sources, targets, labels):
    """The arcs as int64 arrays (source, target, label id) sorted by source then target, and the sorted distinct label
    values (ids index them). Each ordered pair must carry one label."""
    import numpy as np
    src = np.asarray(sources, dtype=np.int64)
    dst = np.asarray(targets, dtype=np.int64)
    values = sorted(set(int(x) for x in labels))
    if values and values[0] < 0:
        raise ValueError("arc labels are non-negative ints")
    index = {x: t for t, x in enumerate(values)}
    lab = np.fromiter((index[int(x)] for x in labels), dtype=np.int64, count=len(src))
    codes = src * m + dst
    order = np.argsort(codes, kind="stable")
    codes, lab = codes[order], lab[order]
    if len(codes) > 1 and bool((codes[1:] == codes[:-1]).any()):
        raise ValueError("an ordered pair carries two arcs")
    return codes // m, codes % m, lab, values


class _LabelledSets:
    """A vertex's labelled out- and in-neighbours (loops left out) as frozensets of (neighbour, label id)."""

    def __init__(self, m: int, src, dst, lab) -> None:
        import numpy as np
        points = np.arange(m + 1)
        self.out_at = np.searchsorted(src, points).tolist()  # src is sorted
        self.out_to, self.out_lab = dst.tolist(), lab.tolist()
        by_target = np.argsort(dst, kind="stable")
        self.in_at = np.searchsorted(dst[by_target], points).tolist()
        self.in_from, self.in_lab = src[by_target].tolist(), lab[by_target].tolist()

    def outs(self, v: int) -> frozenset:
        lo, hi = self.out_at[v], self.out_at[v + 1]
        return frozenset(zip(self.out_to[lo:hi], self.out_lab[lo:hi]))

    def ins(self, v: int) -> frozenset:
        lo, hi = self.in_at[v], self.in_at[v + 1]
        return frozenset(zip(self.in_from[lo:hi], self.in_lab[lo:hi]))


def _runs(key) -> list[list[int]]:
    """The indices of each run of two or more equal entries of ``key`` (a numpy array)."""
    import numpy as np
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1], [True])))
    runs = np.flatnonzero(starts[1:] - starts[:-1] >= 2)
    return [order[lo:hi].tolist() for lo, hi in zip(starts[runs].tolist(), starts[runs + 1].tolist())]


def labelled_twin_classes(m: int, colours: Sequence[int], sources, targets, labels,
                          min_saved: int = 0) -> Optional[list[tuple[int, ...]]]:
    """The twin classes of the arc-labelled coloured digraph on m vertices with the arcs sources[e] → targets[e]
    labelled labels[e], each a sorted tuple, ordered by least member; None when the candidates (a superset of the
    twins) cannot save ``min_saved`` vertices."""
    import numpy as np
    src, dst, lab, _ = _labelled_arcs(m, sources, targets, labels)
    loops = src == dst
    loop_label = np.full(m, -1, dtype=np.int64)
    loop_label[src[loops]] = lab[loops]
    src, dst, lab = src[~loops], dst[~loops], lab[~loops]
    with np.errstate(over="ignore"):
        mixed = _mix(np.arange(m, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15))

        def pair(x, label):  # a mixed value of (vertex, label id)
            return _mix(mixed[x] + (label.astype(np.uint64) + np.uint64(1)) * np.uint64(_LABEL))
        out_sum = np.zeros(m, dtype=np.uint64)
        in_sum = np.zeros(m, dtype=np.uint64)
        np.add.at(out_sum, src, pair(dst, lab))
        np.add.at(in_sum, dst, pair(src, lab))
        kind = _mix(_mix(np.asarray(colours, dtype=np.int64).astype(np.uint64)) +
                    (loop_label + 1).astype(np.uint64))
        # open twins (no arcs between them) have equal labelled out- and in-sets; twins u, v joined by λ both ways
        # have equal sets once (u, λ) is added to u's and (v, λ) to v's: λ is one of u's out-labels
        base = _mix(kind) + out_sum * np.uint64(_OUT) + in_sum * np.uint64(_IN)
        width = int(lab.max()) + 1 if len(lab) else 1
        own = np.unique(src * width + lab)
        own_v, own_l = own // width, own % width
        closed_key = base[own_v] + pair(own_v, own_l) * np.uint64((_OUT + _IN) % 2 ** 64)
    # each candidate a run of (vertex, the label joining it to its twins, −1 for none)
    candidates: list[list[tuple[int, int]]] = [[(v, -1) for v in run] for run in _runs(base)]
    candidates += [[(int(own_v[x]), int(own_l[x])) for x in run] for run in _runs(closed_key)]
    if sum(len(members) - 1 for members in candidates) < min_saved:
        return None
    # the candidates grouped exactly (a collision of the keys only proposes a group that is split here)
    sets = _LabelledSets(m, src, dst, lab)
    loop_of = loop_label.tolist()
    class_of = list(range(m))
    placed = [False] * m
    for members in candidates:
        groups: dict = {}
        for v, joined in members:
            own_pair = frozenset(((v, joined),)) if joined >= 0 else frozenset()
            key = (joined, colours[v], loop_of[v], sets.outs(v) | own_pair, sets.ins(v) | own_pair)
            groups.setdefault(key, []).append(v)
        for group in groups.values():
            if len(group) > 1:
                if any(placed[v] for v in group):
                    raise AssertionError("internal error: a vertex in two classes of twins")
                least = min(group)
                for v in group:
                    class_of[v], placed[v] = least, True
    found: dict[int, list[int]] = {}
    for v, c in enumerate(class_of):
        found.setdefault(c, []).append(v)
    return [tuple(members) for members in found.values()]


#: an odd multiplier of a label id in a (vertex, label) pair's mixed value
_LABEL = 0xC2B2AE3D27D4EB4F


def quotient(m: int, colours: Sequence[int], sources, targets, labels,
             min_saved: Optional[int] = None) -> Optional[LabelledTwinQuotient]:
    """The labelled twin quotient of the digraph (as `labelled_twin_classes` reads it), or None when its classes save
    fewer than ``min_saved`` vertices (default: view_twins.MIN_SAVED, read at the call)."""
    import numpy as np
    from . import view_twins
    if min_saved is None:
        min_saved = view_twins.MIN_SAVED
    if m - 1 < min_saved:
        return None  # k ≥ 1 class
    classes = labelled_twin_classes(m, colours, sources, targets, labels, min_saved)
    if classes is None or m - len(classes) < min_saved:
        return None
    src, dst, lab, values = _labelled_arcs(m, sources, targets, labels)
    k = len(classes)
    class_of = np.empty(m, dtype=np.int64)
    for c, members in enumerate(classes):
        class_of[list(members)] = c
    cu, cv = class_of[src], class_of[dst]
    loops = src == dst
    looped = dict(zip(cu[loops].tolist(), lab[loops].tolist()))
    inner = (cu == cv) & ~loops
    inside = dict(zip(cu[inner].tolist(), lab[inner].tolist()))  # every pair of the class carries this label
    width = len(values)
    between = np.unique((cu[cu != cv] * k + cv[cu != cv]) * width + lab[cu != cv])
    pairs = between // width
    if len(pairs) > 1 and bool((pairs[1:] == pairs[:-1]).any()):
        raise AssertionError("internal error: the arcs between two classes of twins carry two labels")
    arcs = tuple(zip((pairs // k).tolist(), (pairs % k).tolist(), [values[x] for x in (between % width).tolist()]))
    keys = tuple((int(colours[members[0]]), len(members), values[looped[c]] if c in looped else -1,
                  values[inside[c]] if c in inside else -1) for c, members in enumerate(classes))
    return LabelledTwinQuotient(m, tuple(classes), arcs, keys)
