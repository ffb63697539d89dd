"""Do D attention layers suffice?  The exact decision of the view argument (docs/theory.md §11.9).

Setting (unbiased heads, no positional encoding): each head h has in-neighbourhoods N_h(v) (v
included); distances d(v → i) are taken in the union graph, whose directed diameter is D; G is
⋂_h Aut(Γ_h).  A *view witness* is a position i and a permutation σ ∉ G with
σ(N_h(v)) = N_h(σ v) for every head h and every v with d(v → i) ≤ D − 1.  By §11.2, D layers give
the G-UAP iff no view witness exists.

**Rooted views.**  R_i is the arc-labelled digraph on all n positions holding the arcs u → v into
the ball B_i = {v : d(v → i) ≤ D − 1}, each labelled by the set of heads that contain it, with
position v coloured by min(d(v → i), D).  Theorem (§11.9):

* a permutation σ satisfies the witness condition at i iff σ is an isomorphism R_i → R_{σ(i)};
* hence a view witness exists iff, for some G-orbit representative i, either
  |Aut(R_i)| > |Stab_G(i)| = |G| / |G·i|  (Stab_G(i) ≤ Aut(R_i) always), or R_i ≅ R_j for a
  representative j of another orbit.

Both are decided by BLISS (python-igraph): the automorphism count of R_i, and canonical forms
compared across representatives; a view with large classes of twins (`global(2)`'s, whose groups are S_1998-like)
is counted and labelled through its twin quotient (graphs/view_twins.py, Lemma AK, Theorem F222).  Every witness found is re-checked directly on the arcs
(``verify_witness``), independently of BLISS; a "no witness" answer carries the per-orbit
automorphism orders and canonical digests (``RootedViewCertificate``).

A cheaper probe runs first: transpositions (a b), whose changed positions are the a few positions
that see exactly one of a, b; a transposition outside G whose changed positions all lie at distance
D from some i is a witness.  It finds most witnesses (BigBird at n = 65,536) without canonical
labelling, and it is only a shortcut: the answer "no witness" always comes from the exact test.
"""
from __future__ import annotations

import hashlib
from itertools import compress, islice, repeat
from operator import ne
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence

from ..bignum import count_automorphisms
from ..groups import offset_class, orbits
from .build import PatternGraph, _decoded_by_numpy, code_array, reversed_code_array, rows_without_loops
from .. import bliss

@dataclass(frozen=True)
class ArcClasses:
    """A head's arc labels as a function of the offset m = u − v of the arc u → v (key u, query v):
    ``table[m + n − 1]`` for m = −(n − 1), …, n − 1 (bias classes of `toeplitz`, `circulant`, the
    symmetric kinds, T5 buckets, or the value classes of a fixed offset bias; docs/theory.md §11.10)."""
    table: tuple

    def of(self, n: int, v: int, u: int):
        """The label of the arc u → v (0-based positions)."""
        return self.table[u - v + n - 1]




@dataclass(frozen=True)
class FreeClasses:
    """A `free` bias's arc labels: every arc is its own class, the pair (query, key) (docs/theory.md §11.10, Theorem
    F178). Read through ``of`` only: the one-head path of `Neighbourhoods` reads offset tables, and a lone `free` head
    is Theorem F163's (it holds its own arcs), decided without views."""

    def of(self, n: int, v: int, u: int):
        """The label of the arc u → v (0-based positions): the pair itself."""
        return ("free", v, u)


def offset_classes(kind: str, n: int) -> ArcClasses:
    """The classes of a trainable `bias KIND` that depends on the offset (every kind but `free`)."""
    return ArcClasses(tuple(offset_class(kind, n, m) for m in range(-(n - 1), n)))


#: Work (arc visits summed over the rooted views) the exact test may spend.
DEFAULT_WORK_LIMIT = 40_000_000
#: Arcs (summed over heads) the labelled neighbourhood lists may hold (about 1 GB of Python objects).
MAX_NEIGHBOURHOOD_ARCS = 4_000_000
#: Past the work limit (unlabelled views): arcs summed over the rooted views that colour refinement reads
#: (view_refine.py); the 30 s budget of the caller bounds the rest.
LARGE_VIEW_ARCS = 400_000_000


@dataclass(frozen=True)
class ViewWitness:
    """σ (image list, 1-based) satisfies the witness condition at ``position`` and is not in G."""
    position: int
    permutation: tuple[int, ...] = field(repr=False)
    how: str

    def moved(self) -> list[int]:
        return [k for k, p in enumerate(self.permutation, 1) if p != k]

    def as_evidence(self, diameter: int) -> dict:
        moved = self.moved()
        ev: dict = {"position": self.position, "diameter": diameter, "found by": self.how}
        if len(moved) == 2:
            a, b = moved
            ev["swap"] = [a, b]
            ev["why"] = (f"every position whose neighbourhood the swap σ = ({a} {b}) changes is at distance "
                         f"≥ {diameter} from {self.position}, so after {diameter} layers the output at "
                         f"{self.position} for X equals the output at σ({self.position}) for X with x_{a}, "
                         f"x_{b} exchanged")
        elif len(self.permutation) <= 64:
            ev["permutation"] = list(self.permutation)
        else:
            ev["permutation (moved points)"] = {k: self.permutation[k - 1] for k in moved[:64]}
            if len(moved) > 64:
                ev["moved points"] = len(moved)
        return ev


@dataclass(frozen=True)
class RootedViewCertificate:
    """No view witness: for each G-orbit representative i, |Aut(R_i)| = |Stab_G(i)|, and the
    canonical forms of the R_i are pairwise distinct (SHA-256 digests of BLISS canonical forms)."""
    radius: int
    group_order: int
    representatives: tuple[int, ...]
    orbit_sizes: tuple[int, ...]
    automorphism_orders: tuple[int, ...] = field(repr=False)
    canonical_digests: tuple[str, ...] = field(repr=False)
    #: mid-size n (view_refine.py): the orbit representatives left out because their ball is every position
    covering: Optional[tuple[int, ...]] = field(default=None, repr=False)
    #: mid-size n: how many of the examined views BLISS decided (the others by colour refinement)
    by_bliss: Optional[int] = None
    #: Theorem F132: the far sets whose marked graph refined to a discrete colouring (None: not used), and the
    #: positions searched forward to find the far sets
    far_groups: Optional[int] = None
    far_searched: int = 0
    #: the other positions searched so that fewer candidates need a search of their own (their exact eccentricities
    #: lower the bounds over the arcs)
    far_seeded: int = 0
    #: Theorem F132: each far set decided by its discrete refinement, (U, its roots), sorted and 1-based
    far_sets: tuple = field(default=(), repr=False)

    def as_data(self) -> dict:
        """The evidence, and for the certificate the far sets with their roots (`uapcheck verify` recomputes them
        and compares)."""
        data = self.as_evidence()
        if self.far_sets:
            data["far sets"] = [{"positions": list(u), "roots": list(roots)} for u, roots in self.far_sets]
        return data

    def as_evidence(self) -> dict:
        ev: dict = {"radius": self.radius, "G-orbits": len(self.representatives)}
        if self.covering is not None:
            ev["G-orbits"] = len(self.representatives) + len(self.covering)
            ev["orbits whose (D − 1)-ball is every position (no witness there)"] = len(self.covering)
            ev["orbits examined"] = len(self.representatives)
            ev["decided by"] = (f"colour refinement (a discrete colouring: no automorphism but the identity; "
                                f"the sorted colours differ between views) for {len(self.representatives) - (self.by_bliss or 0)}"
                                f", BLISS for {self.by_bliss or 0}")
            if self.far_groups is not None:
                ev["far sets (Theorem F132)"] = (
                    f"the {self.far_searched:,} positions whose eccentricity bound reaches D "
                    + (f"(after searches from {self.far_seeded:,} other positions, whose exact eccentricities lowered "
                       f"the bounds of the rest below D) " if self.far_seeded else "") +
                    f"searched forward give every root's far set; the roots of one far set U share the graph with the arcs into U removed "
                    f"and U marked, and {self.far_groups} such graphs refine to a discrete colouring, deciding "
                    f"their roots at once")
        if len(self.representatives) <= 16:
            ev["per orbit"] = [{"position": i, "orbit size": s, "|Aut(rooted view)|": _short(a),
                                **({"colour refinement (sha256 of the sorted colours, first 16 hex)": d[8:24]}
                                   if d.startswith("refined:") else
                                   {"canonical form (sha256, first 16 hex)": d[:16]})}
                               for i, s, a, d in zip(self.representatives, self.orbit_sizes,
                                                     self.automorphism_orders, self.canonical_digests)]
        return ev


@dataclass(frozen=True)
class ViewDecision:
    """``sufficient``: True (D layers suffice: ``certificate``), False (``witness``), None (undecided:
    ``reason`` says which resource ran out and what would fit)."""
    sufficient: Optional[bool]
    witness: Optional[ViewWitness] = None
    certificate: Optional[RootedViewCertificate] = None
    reason: str = ""


def _short(k: int) -> object:
    return k if k.bit_length() <= 64 else f"≈ 2^{k.bit_length() - 1}"


# ---------------------------------------------------------------------------------------------
# Labelled in-neighbourhoods


class Neighbourhoods:
    """0-based union in-lists (``ins``) with joint head labels (``labels``, None when every arc has
    label 0), union out-lists (``outs``), and per-head in-sets on demand (``head_set``).

    Neighbour lists come from igraph (C) on the cached graphs; labels are built in Python only when
    several distinct heads share arcs."""

    def __init__(self, graphs: Sequence[PatternGraph], arc_classes: Optional[Sequence[Optional[ArcClasses]]] = None,
                 vertex_classes: Optional[Sequence] = None):
        from .build import neighbour_lists, neighbours, out_degrees, union_graph

        n = graphs[0].n
        self.n = n
        self.exact_views = False  # set by decide_views for the exact test (`arc_arrays`)
        classes = list(arc_classes) if arc_classes is not None else [None] * len(graphs)
        # identical heads (pattern and labels) impose identical conditions
        distinct_pairs = list(dict.fromkeys(zip(graphs, classes)))
        distinct = [g for g, _ in distinct_pairs]
        self.classes: list[Optional[ArcClasses]] = [c for _, c in distinct_pairs]
        self.labelled = any(c is not None for c in self.classes)
        # positions' own labels (an absolute positional encoding): None, or one hashable per position (0-based)
        self.vertex_classes = None if vertex_classes is None else list(vertex_classes)
        self.num_heads = len(distinct)
        self.graphs = distinct
        self._head_sets: list[dict[int, frozenset]] = [{} for _ in distinct]
        self._sorted_codes: dict = {}  # `holds_arcs`' sorted codes of a large head, by head
        union = union_graph(list(dict.fromkeys(distinct)))
        self.union = union  # the union of the distinct heads: ``outs`` are its out-lists
        self.num_arcs = union.num_arcs
        if len(distinct) == 1 and not self.labelled:
            # one unlabelled head: its lists fetched per position as the search needs them
            self._head_lists = [neighbours(distinct[0], "in")]
            self.outs = neighbours(union, "out")
            self.out_degrees = out_degrees(union) if not union.complete else [n - 1] * n
            self.ins = self._head_lists[0]
            self.labels = None
            self.num_labels = 1
            return
        if (len(distinct) > 1 and all(c is None for c in self.classes) and len(distinct) <= ARRAY_LABEL_HEADS
                and self.num_arcs >= ARRAY_LABEL_ARCS and all(map(_decoded_by_numpy, (union, *distinct)))):
            # several unlabelled heads, large: the arcs' labels made on the compressed rows, and the in-lists
            # fetched per position as a search needs them (`neighbours`, the same lists as `neighbour_lists`); the
            # out-lists, which the probe's searches walk, made at once
            head_rows = [rows_without_loops(g, "in") for g in distinct]
            union_in = rows_without_loops(union, "in")
            self._head_lists = [neighbours(g, "in") for g in distinct]
            self.outs = neighbour_lists(union, "out")
            self.out_degrees = list(map(len, self.outs))
            self.ins = neighbours(union, "in")
            self.labels, self.num_labels = _plain_labels_from_rows(n, head_rows, union_in)
            return
        self._head_lists = [neighbour_lists(g, "in") for g in distinct]
        self.outs = neighbour_lists(union, "out")
        self.out_degrees = list(map(len, self.outs))
        self.ins = neighbour_lists(union, "in")
        masks: list[list] = []
        counts: dict = {}
        if len(distinct) == 1:
            # one labelled head: every arc is its own, labelled (0, its class); the classes are read off the
            # offset table (ArcClasses.of), one tuple per offset
            table, ins = self.classes[0].table, self.ins  # type: ignore[union-attr]
            keys = [((0, c),) for c in table]
            for v in range(n):
                row = [keys[u - v + n - 1] for u in ins[v]]
                for m in row:
                    counts[m] = counts.get(m, 0) + 1
                masks.append(row)
        elif (all(c is None for c in self.classes) and len(distinct) <= ARRAY_LABEL_HEADS
              and self.num_arcs >= ARRAY_LABEL_ARCS):
            self.labels, self.num_labels = _plain_labels(n, self._head_lists, self.ins)
            return
        else:
            # the heads holding u → v as bits of one integer, from each head's in-list; without arc classes the
            # label tuple depends on those bits alone and is made once per set of heads
            heads = range(len(distinct))
            plain = all(c is None for c in self.classes)
            by_bits: dict[int, tuple] = {}
            for v in range(n):
                held: dict[int, int] = {}
                for h in heads:
                    bit = 1 << h
                    for u in self._head_lists[h][v]:
                        held[u] = held.get(u, 0) | bit
                row = []
                for u in self.ins[v]:
                    bits = held[u]
                    if plain:
                        m = by_bits.get(bits)
                        if m is None:
                            m = by_bits[bits] = tuple((h, None) for h in heads if bits >> h & 1)
                    else:
                        m = tuple((h, None if self.classes[h] is None else self.classes[h].of(n, v, u))
                                  for h in heads if bits >> h & 1)
                    row.append(m)
                    counts[m] = counts.get(m, 0) + 1
                masks.append(row)
        # label 0 is the most frequent head set (plain arcs for BLISS), then by its key
        order = sorted(counts, key=lambda m: (-counts[m], repr(m)))
        label_of = {m: k for k, m in enumerate(order)}
        self.num_labels = len(order)
        self.labels = [[label_of[m] for m in row] for row in masks] if len(order) > 1 else None

    def whole_view(self):
        """For unlabelled arcs: (the digraph of every arc u → v, its arc count), built once and shared by the rooted
        views whose ball is every position (their arcs are all the arcs, in whatever order; BLISS's answers do not
        depend on the order of the arcs). Read-only."""
        got = getattr(self, "_whole", None)
        if got is None:
            from ..lazy import digraph
            ins = self.ins
            edges = [(u, v) for v in range(self.n) for u in ins[v]]
            got = self._whole = (digraph(self.n, edges), len(edges))
        return got

    def arc_arrays(self):
        """For unlabelled arcs with at least VIEW_ARRAY_ARCS of them, in the exact test (`exact_views`: every
        representative's view is built, so reading all the arcs once costs no more than one view): (sources, targets)
        of every arc u → v as numpy int64 arrays, for canonical forms compared by sorting arrays; None otherwise (the
        forms of one decision are all made one way, since the choice is made here, per set of neighbourhoods)."""
        if self.labels is not None or self.num_arcs < VIEW_ARRAY_ARCS or not self.exact_views:
            return None
        got = getattr(self, "_arrays", None)
        if got is None:
            import numpy as np
            ins = self.ins
            sources = np.fromiter((u for v in range(self.n) for u in ins[v]), dtype=np.int64)
            targets = np.repeat(np.arange(self.n, dtype=np.int64), [len(ins[v]) for v in range(self.n)])
            got = self._arrays = (sources, targets)
        return got

    def in_ball_by_search(self, root0: int, radius: int) -> dict[int, int]:
        """`in_ball` by igraph's breadth-first search on `whole_view`'s digraph against the arcs (C), for the
        neighbourhoods that give `arc_arrays`: the same distances."""
        graph, _ = self.whole_view()
        order, starts, _ = graph.bfs(root0, mode="in")
        dist = {}
        for d in range(min(radius + 1, len(starts) - 1)):
            for v in order[starts[d]:starts[d + 1]]:
                dist[v] = d
        return dist

    def head_set(self, h: int, v: int) -> frozenset:
        """N_h(v), 0-based, v included (cached)."""
        cache = self._head_sets[h]
        got = cache.get(v)
        if got is None:
            got = cache[v] = frozenset(self._head_lists[h][v]).union((v,))
        return got

    def arc_codes(self, h: int) -> set:
        """Head h's arcs u → v as the integers v·n + u (0-based, v's own u = v left out), built once: `u in
        head_set(h, v)` for u ≠ v, read without a set per position (the transposition probe tests two positions
        against every neighbour of a pair)."""
        codes = getattr(self, "_arc_codes", None)
        if codes is None:
            codes = self._arc_codes = [None] * self.num_heads
        got = codes[h]
        if got is None:
            n, lists = self.n, self._head_lists[h]
            got = codes[h] = {v * n + u for v in range(n) for u in lists[v] if u != v}
        return got

    def holds_arcs(self, h: int, keys: list) -> list:
        """Whether head h holds each arc v·n + u of ``keys`` (u ≠ v), as `arc_codes` would answer: a large head
        (`build._decoded_by_numpy`) is searched in its sorted reversed codes, loops left out, without the set."""
        if not _decoded_by_numpy(self.graphs[h]):
            codes = self.arc_codes(h)
            return [k in codes for k in keys]
        import numpy as np
        table = self._sorted_codes.get(h)
        if table is None:
            n = self.n
            rev = reversed_code_array(self.graphs[h])
            table = self._sorted_codes[h] = rev[rev // n != rev % n]
        if not len(table) or not keys:
            return [False] * len(keys)
        wanted = np.asarray(keys, dtype=np.int64)
        at = np.minimum(np.searchsorted(table, wanted), len(table) - 1)
        return (table[at] == wanted).tolist()

    def arc_label(self, h: int, v: int, u: int):
        """Head h's label of the arc u → v (0-based; None for an unlabelled head)."""
        c = self.classes[h]
        return None if c is None else c.of(self.n, v, u)

    def vertex_ok(self, p0: Sequence[int], v: int, moved: Optional[frozenset] = None) -> bool:
        """σ (0-based images p0) carries every head's labelled in-neighbourhood of v onto that of σ(v).

        ``moved``: the points σ moves, when the caller has them. σ fixes every other point and maps
        the moved ones onto themselves, so σ(N) = (N − M) ∪ σ(N ∩ M), which is N' exactly when N and N'
        differ only inside M (their symmetric difference, a C-level set operation) and σ(N ∩ M) = N' ∩ M:
        the image of a large neighbourhood (a global token's) is never built point by point."""
        for h in range(self.num_heads):
            nv = self.head_set(h, v)
            image = self.head_set(h, p0[v])
            if moved is not None and len(moved) < len(nv):
                if not (nv ^ image) <= moved or frozenset(p0[u] for u in nv & moved) != image & moved:
                    return False
            elif frozenset(p0[u] for u in nv) != image:
                return False
            if self.classes[h] is not None and any(self.arc_label(h, p0[v], p0[u]) != self.arc_label(h, v, u)
                                                   for u in nv):
                return False
        return True

    def vertex_class_index(self) -> dict:
        """Each position class numbered 0, 1, … (sorted by its text: the same in every rooted view)."""
        if not hasattr(self, "_vindex"):
            self._vindex = {c: k for k, c in enumerate(sorted(set(self.vertex_classes), key=repr))}
        return self._vindex

    def in_ball(self, root0: int, radius: int) -> dict[int, int]:
        """{v: d(v → root)} for the positions within ``radius`` (0-based)."""
        dist = {root0: 0}
        frontier = [root0]
        ins = self.ins
        for d in range(1, radius + 1):
            nxt = []
            for v in frontier:
                for u in ins[v]:
                    if u not in dist:
                        dist[u] = d
                        nxt.append(u)
            frontier = nxt
            if not frontier:
                break
        return dist


#: Several heads without arc classes, with at least this many arcs in their union and at most this many heads: the
#: arcs' labels are made on arrays (`_plain_labels`), the same labels as the loop of `Neighbourhoods`.
ARRAY_LABEL_ARCS = 50_000
ARRAY_LABEL_HEADS = 16


def _plain_labels(n: int, head_lists: Sequence, ins: Sequence) -> tuple[Optional[list], int]:
    """(labels, number of labels) of `Neighbourhoods` for several heads without arc classes: an arc u → v's label is
    the set of heads holding it, numbered by decreasing count, ties by the set's key ((h, None) for each head h);
    labels[v][k] is the label of ins[v][k] → v, and labels is None when every arc has one label."""
    return _plain_labels_from_rows(n, [_rows_of_lists(n, lists) for lists in head_lists], _rows_of_lists(n, ins))


def _rows_of_lists(n: int, lists: Sequence):
    """(indptr, tails): n lists as compressed rows (numpy int64)."""
    import numpy as np
    from itertools import chain
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=n)
    tails = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(lengths.sum()))
    return np.concatenate(([0], np.cumsum(lengths))).astype(np.int64), tails


def _plain_labels_from_rows(n: int, head_rows: Sequence, ins) -> tuple[Optional[list], int]:
    """`_plain_labels` with each head's in-lists and the union's (``ins``) given as compressed rows (indptr, tails)."""
    import numpy as np
    indptr, sources = ins
    lengths = np.diff(indptr)
    codes = np.repeat(np.arange(n, dtype=np.int64), lengths) * n + sources
    bits = np.zeros(len(codes), dtype=np.int64)
    for h, (held_ptr, held_tails) in enumerate(head_rows):
        own = np.repeat(np.arange(n, dtype=np.int64), np.diff(held_ptr)) * n + held_tails
        own = np.sort(own, kind="stable")  # ascending already when each row is (`rows_without_loops`): a linear pass
        at = np.minimum(np.searchsorted(own, codes), max(len(own) - 1, 0))
        if len(own):
            bits |= (own[at] == codes).astype(np.int64) << h
    heads = range(len(head_rows))
    counts = np.bincount(bits, minlength=1 << len(head_rows))
    keys = {b: tuple((h, None) for h in heads if b >> h & 1) for b in np.flatnonzero(counts).tolist()}
    order = sorted(keys, key=lambda b: (-int(counts[b]), repr(keys[b])))
    if len(order) <= 1:
        return None, len(order)
    label_of = np.zeros(1 << len(head_rows), dtype=np.int64)
    label_of[order] = np.arange(len(order))
    flat = label_of[bits].tolist()
    ends = np.cumsum(lengths).tolist()
    return [flat[start:end] for start, end in zip([0] + ends[:-1], ends)], len(order)


# ---------------------------------------------------------------------------------------------
# Direct re-check of a witness (no BLISS)


def witness_condition_holds(nb: Neighbourhoods, perm: Sequence[int], position: int, radius: int) -> bool:
    """σ(N_h(v)) = N_h(σ v) for every head h and every v with d(v → position) ≤ radius, with every arc
    label kept (λ_h(σv, σu) = λ_h(v, u)); with vertex classes, σ keeps the class of every position
    within distance radius + 1 (the tokens the view holds)."""
    n = nb.n
    if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
        return False
    p0 = [x - 1 for x in perm]
    moved = frozenset(compress(range(n), map(ne, p0, range(n))))
    for v in nb.in_ball(position - 1, radius):
        if not nb.vertex_ok(p0, v, moved):
            return False
    if nb.vertex_classes is not None:
        vc = nb.vertex_classes
        if any(vc[p0[v]] != vc[v] for v in nb.in_ball(position - 1, radius + 1)):
            return False
    return True


def verify_witness(graphs: Sequence[PatternGraph], diameter: int, witness: ViewWitness,
                   in_group: Callable[[Sequence[int]], bool], arc_classes=None, vertex_classes=None) -> bool:
    """Re-check a view witness on the arcs: σ ∉ G and the condition on the (D − 1)-ball."""
    nb = Neighbourhoods(graphs, arc_classes, vertex_classes)
    return (not in_group(witness.permutation)
            and witness_condition_holds(nb, witness.permutation, witness.position, diameter - 1))


# ---------------------------------------------------------------------------------------------
# The transposition probe (a shortcut to witnesses; never concludes "no witness")


def _transposition_bad(nb: Neighbourhoods, a: int, b: int) -> Optional[set]:
    """0-based positions whose neighbourhood the swap (a b) changes (None: the swap changes nothing)."""
    if nb.vertex_classes is not None and nb.vertex_classes[a] != nb.vertex_classes[b]:
        return None  # every position is within D of the root: the swap changes a token's label in every view
    if nb.labelled:
        p0 = list(range(nb.n))
        p0[a], p0[b] = b, a
        candidates = set(nb.outs[a]).union(nb.outs[b], (a, b))
        bad = {v for v in candidates if not nb.vertex_ok(p0, v)}
        return bad if bad else None
    bad: set = set()
    swap_ok = True
    ends = frozenset((a, b))
    for h in range(nb.num_heads):
        na, nbb = nb.head_set(h, a), nb.head_set(h, b)
        # (a b) maps N_h(a) onto N_h(b) exactly when they agree off {a, b} and a, b trade places between them
        if na - ends != nbb - ends or (a in na) != (b in nbb) or (b in na) != (a in nbb):
            swap_ok = False
    # v ∉ {a, b} is changed iff in some head it sees exactly one of a, b (so it sees a or b in the union)
    candidates = set(nb.outs[a]).union(nb.outs[b])
    candidates.discard(a)
    candidates.discard(b)
    n = nb.n
    listed = list(candidates)
    for h in range(nb.num_heads):
        # v ∉ {a, b}: a ∈ N_h(v) exactly when the arc a → v is in the head
        from_a = nb.holds_arcs(h, [v * n + a for v in listed])
        from_b = nb.holds_arcs(h, [v * n + b for v in listed])
        for v, x, y in zip(listed, from_a, from_b):
            if x != y:
                bad.add(v)
    if not swap_ok:
        bad.update((a, b))
    return bad if bad else None


class _SwapMasks:
    """``_transposition_bad`` for unlabelled heads, as bit masks built once per position the probe meets: seen[h][k]
    has bit v when k ∈ N_h(v) (v ≠ k), own[h][k] is N_h(k) (k included). For v ∉ {a, b}, the swap (a b) changes
    N_h(v) exactly when N_h(v) holds one of a, b, that is when v is in seen[h][a] △ seen[h][b]; a and b themselves
    are changed when the swap does not carry some N_h(a) onto N_h(b) (it carries N_h(b) onto N_h(a) then too)."""

    def __init__(self, nb: Neighbourhoods) -> None:
        self.nb = nb
        self.seen: list[dict[int, int]] = [{} for _ in range(nb.num_heads)]
        self.own: list[dict[int, int]] = [{} for _ in range(nb.num_heads)]

    def _seen(self, h: int, k: int) -> int:
        got = self.seen[h].get(k)
        if got is None:
            nb = self.nb
            bits = bytearray((nb.n >> 3) + 1)
            for v in nb.outs[k]:
                if v != k and k in nb.head_set(h, v):
                    bits[v >> 3] |= 1 << (v & 7)
            got = self.seen[h][k] = int.from_bytes(bits, "little")
        return got

    def _own(self, h: int, k: int) -> int:
        got = self.own[h].get(k)
        if got is None:
            bits = bytearray((self.nb.n >> 3) + 1)
            for v in self.nb.head_set(h, k):
                bits[v >> 3] |= 1 << (v & 7)
            got = self.own[h][k] = int.from_bytes(bits, "little")
        return got

    def bad(self, a: int, b: int) -> int:
        """The positions (bits, 0-based) whose neighbourhood the swap (a b) changes; 0: it changes none."""
        if self.nb.vertex_classes is not None and self.nb.vertex_classes[a] != self.nb.vertex_classes[b]:
            return 0  # as _transposition_bad: the swap changes a token's label in every view
        pair = (1 << a) | (1 << b)
        bad = 0
        swap_ok = True
        for h in range(self.nb.num_heads):
            bad |= self._seen(h, a) ^ self._seen(h, b)
            if swap_ok:
                m = self._own(h, a)
                swapped = (m & ~pair) | (((m >> a) & 1) << b) | (((m >> b) & 1) << a)
                swap_ok = swapped == self._own(h, b)
        bad &= ~pair
        return bad if swap_ok else bad | pair


def _bits(mask: int) -> Iterable[int]:
    """The positions of the set bits of mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


BALL_MASKS_MAX_N = 4096  # the probe keeps one n-bit mask per position it met: n²/8 bytes at most


def _within(nb: Neighbourhoods, sources: Iterable[int], radius: int) -> set:
    """The positions (0-based) at distance ≤ radius from some source."""
    seen = set(sources)
    frontier = list(seen)
    for _ in range(radius):
        nxt = []
        for x in frontier:
            for w in nb.outs[x]:
                if w not in seen:
                    seen.add(w)
                    nxt.append(w)
        frontier = nxt
        if not frontier or len(seen) == nb.n:
            break
    return seen


def _ball_mask(nb: Neighbourhoods, v: int, radius: int) -> int:
    """The positions at distance ≤ radius from v (0-based), as the bits of an int."""
    bits = bytearray((nb.n >> 3) + 1)
    for w in _within(nb, (v,), radius):
        bits[w >> 3] |= 1 << (w & 7)
    return int.from_bytes(bits, "little")


def _blind_by_masks(nb: Neighbourhoods, bad: Iterable[int], radius: int, balls: dict,
                    work: Optional[list] = None) -> Optional[int]:
    """_blind from the balls of the bad positions (computed once per position and kept in `balls`):
    a position is within `radius` of the bad set exactly when it is within `radius` of one of them. ``work``
    (optional, one int): increased by the arcs the new balls' searches read and the words of the masks joined."""
    seen = 0
    words = (nb.n >> 10) + 1
    for v in bad:
        ball = balls.get(v)
        if ball is None:
            ball = balls[v] = _ball_mask(nb, v, radius)
            if work is not None:
                work[0] += _arcs_of(nb, _bits(ball))
        seen |= ball
        if work is not None:
            work[0] += words
    if seen == (1 << nb.n) - 1:
        return None
    return (~seen & (seen + 1)).bit_length() - 1  # the lowest position not seen


def _arcs_of(nb: Neighbourhoods, positions: Iterable[int]) -> int:
    """The arcs a breadth-first search reads from these positions (their out-degrees)."""
    degree = nb.out_degrees
    return sum(degree[v] for v in positions) + 1


def _blind(nb: Neighbourhoods, bad: Iterable[int], radius: int, work: Optional[list] = None) -> Optional[int]:
    """A position (0-based) at distance > radius from every bad position, if any (``work`` as in
    `_blind_by_masks`: increased by the arcs the search read)."""
    seen = _within(nb, bad, radius)
    if work is not None:
        work[0] += _arcs_of(nb, seen)
    if len(seen) == nb.n:
        return None
    return next(v for v in range(nb.n) if v not in seen)


def _candidate_pairs(nb: "Neighbourhoods") -> Iterable[tuple[int, int]]:
    """Pairs at small index distance first (windows, blocks, BigBird), then the rest; positions
    that many others see (global tokens, whose swaps change almost everything) come last."""
    n = nb.n
    degree = nb.out_degrees
    typical = 4 * (sum(degree) // max(1, n)) + 4
    low = [d <= typical for d in degree]
    for gap in range(1, n):
        for a in range(0, n - gap):
            if low[a] and low[a + gap]:
                yield a, a + gap
    for gap in range(1, n):
        for a in range(0, n - gap):
            if not (low[a] and low[a + gap]):
                yield a, a + gap


#: The transposition probe with the positions of eccentricity D known lists its pairs (`_possible_pairs`) when there
#: are at most this many such positions and this many pairs of twins.
POSSIBLE_POSITIONS_MAX = 400
TWIN_PAIRS_MAX = 100_000


def _twin_pairs(nb: Neighbourhoods) -> Optional[set]:
    """Every pair a < b (0-based) that the swap (a b) could keep in every head, and more: in head 0 either
    N(a) = N(b) (b ∈ N(a)) or N(a) − {a} = N(b) − {b} (b ∉ N(a)), since σ(N(a)) = N(b) says exactly that. Found by
    equal sums of mixed members (a wrapping sum: equal sets give equal sums, a collision only adds a pair). None when
    there are more than TWIN_PAIRS_MAX."""
    import numpy as np
    from .build import code_array
    from .view_refine import _mix
    n = nb.n
    codes = code_array(nb.graphs[0])
    src, dst = codes // n, codes % n
    loop = src == dst
    src, dst = src[~loop], dst[~loop]
    mixed = _mix(np.arange(n, dtype=np.uint64) + np.uint64(0x632BE59BD9B4E019))
    open_sum = np.zeros(n, dtype=np.uint64)
    np.add.at(open_sum, dst, mixed[src])
    pairs: set = set()
    for key in (open_sum, open_sum + mixed):
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1], [True])))
        shared = np.flatnonzero(starts[1:] - starts[:-1] >= 2)  # the runs of two or more: only they give pairs
        for lo, hi in zip(starts[shared].tolist(), starts[shared + 1].tolist()):
            members = sorted(order[lo:hi].tolist())
            if len(pairs) + len(members) * (len(members) - 1) // 2 > TWIN_PAIRS_MAX:
                return None
            pairs.update((x, y) for k, x in enumerate(members) for y in members[k + 1:])
    return pairs


def _possible_pairs(nb: Neighbourhoods, possible) -> Optional[list]:
    """The pairs in `_candidate_pairs`' order that can give a witness when only the positions of ``possible``
    (boolean) have eccentricity D: a swap that does not keep N_h(a) onto N_h(b) changes a and b themselves, which
    must then both be possible; the others are twins in head 0 (`_twin_pairs`). None when the list would be long."""
    import numpy as np
    where = np.flatnonzero(possible).tolist()
    if len(where) > POSSIBLE_POSITIONS_MAX:
        return None
    twins = _twin_pairs(nb)
    if twins is None:
        return None
    pairs = twins.union((x, y) for k, x in enumerate(where) for y in where[k + 1:])
    degree = nb.out_degrees
    typical = 4 * (sum(degree) // max(1, nb.n)) + 4
    return sorted(pairs, key=lambda p: (not (degree[p[0]] <= typical and degree[p[1]] <= typical), p[1] - p[0], p[0]))


#: The transposition probe's work bound (`probe_transpositions`): about 2 s of CPU here (5 to 10 million units a
#: second on windows, offsets, blocks and several heads, n from 300 to 6,000), where a CPU clock of 2 s stopped it. A count, so the witness the
#: probe finds (and, past the exact test's work limit, whether one is found) is the same on every machine.
PROBE_WORK = 10_000_000
#: The steps of one pair beside its arcs (the Python loop, the swap's test).
PAIR_STEPS = 8


def probe_transpositions(nb: Neighbourhoods, diameter: int, in_group: Callable[[Sequence[int]], bool],
                         work: int = PROBE_WORK, possible=None) -> Optional[ViewWitness]:
    """A transposition that is a view witness, found within ``work`` units (None: none found). A unit is an arc
    read or a word of an n-bit mask combined: each pair costs its two out-degrees and, with masks, a word per head
    and n/64 positions; each search for a blind position the arcs it reads. A count, not a clock, so the pairs
    tried, and the witness found, do not depend on the machine's speed.

    ``possible`` (optional boolean array): every position outside it has ecc_out ≤ D − 1 (a re-checked bound, or
    searches), so every position is within D − 1 of it, and a swap that changes it is a witness nowhere: such pairs
    are skipped, and when the positions of ``possible`` are few only the pairs that can pass are listed, in the same
    order (`_possible_pairs`), so the probe finds the same first witness as without it."""
    n = nb.n
    spent = [0]
    degree = nb.out_degrees
    pair_words = nb.num_heads * ((n >> 10) + 1)
    radius = diameter - 1
    balls: Optional[dict] = {} if n <= BALL_MASKS_MAX_N else None
    swaps = _SwapMasks(nb) if balls is not None and not nb.labelled else None
    ball_masks: dict = balls if balls is not None else {}
    pairs: Optional[Iterable[tuple[int, int]]] = None
    if possible is not None and not nb.labelled and nb.vertex_classes is None:
        pairs = _possible_pairs(nb, possible)
    listed = _candidate_pairs(nb) if pairs is None else pairs
    passed = None
    if swaps is None and possible is not None and not nb.labelled and nb.vertex_classes is None:
        # a pair some of whose changed positions lie outside `possible` is passed over below after its units are
        # counted: such pairs are found for many pairs at once on arrays (`_OutsidePossible`), the same pairs
        listed, passed = _with_outside_flags(pairs, _OutsidePossible(nb, possible))
    for a, b in listed:
        if spent[0] >= work:  # every pair: one _blind can read millions of arcs
            return None
        spent[0] += degree[a] + degree[b] + PAIR_STEPS
        if passed is not None and passed[0]:
            spent[0] += nb.num_heads * (degree[a] + degree[b])
            continue  # as below: a changed position outside `possible`
        if swaps is not None:
            spent[0] += pair_words
            mask = swaps.bad(a, b)
            if not mask:
                continue  # an automorphism of every head
            if possible is not None and not all(possible[v] for v in _bits(mask)):
                continue  # a changed position within D − 1 of every position
            i = _blind_by_masks(nb, _bits(mask), radius, ball_masks, spent)
        else:
            spent[0] += nb.num_heads * (degree[a] + degree[b])
            bad = _transposition_bad(nb, a, b)
            if bad is None:
                continue  # an automorphism of every head
            if possible is not None and not all(possible[v] for v in bad):
                continue  # a changed position within D − 1 of every position
            i = _blind(nb, bad, radius, spent) if balls is None else _blind_by_masks(nb, bad, radius, balls, spent)
        if i is None:
            continue
        spent[0] += n // 16 + 1  # the permutation, for the group's membership test (built in C)
        perm = list(range(1, n + 1))
        perm[a], perm[b] = b + 1, a + 1
        if in_group(perm):
            continue
        return ViewWitness(i + 1, tuple(perm), "transposition probe")
    return None


class _OutsidePossible:
    """For unlabelled heads without position classes: which pairs (a, b) change some position v ∉ {a, b} that lies
    outside ``possible``, on arrays. The swap (a b) changes v ∉ {a, b} exactly when some head holds one of the arcs
    a → v, b → v and not the other (`_transposition_bad`); such a v sees a or b in the union, so it is in
    outs[a] ∪ outs[b]. A pair so flagged has a changed position outside ``possible``: `_transposition_bad` gives a set
    with that position, and the probe passes over it. A pair not flagged is tested as before."""

    def __init__(self, nb: Neighbourhoods, possible) -> None:
        import numpy as np
        n = nb.n
        self.nb = nb
        self.n = n
        # nb.outs as compressed rows (the union's out-lists, self excluded, each ascending), not read list by list
        self.indptr, self.targets = rows_without_loops(nb.union, "out")
        self.outside = ~np.asarray(possible, dtype=bool)
        self.out_bits = None
        self.tables = []
        if len(nb.graphs) <= HEADS_PER_TABLE:
            # the heads holding each out-arc u → targets[e] of the union, as bits (bit h for head h), beside the rows:
            # a pair's arcs are then read, not searched for (`flags`)
            ends = np.repeat(np.arange(n, dtype=np.int64), np.diff(self.indptr)) * n + self.targets  # ascending
            self.out_bits = np.zeros(len(self.targets), dtype=np.int64)
            for h, g in enumerate(nb.graphs):
                own = code_array(g)  # head h's arcs u → v as u·n + v, sorted
                own = own[own // n != own % n]
                self.out_bits[np.searchsorted(ends, own)] |= np.int64(1) << np.int64(h)
            return
        codes = []
        for g in nb.graphs:  # head h's arcs u → v as v·n + u (u ≠ v), sorted: `Neighbourhoods.arc_codes`
            rev = reversed_code_array(g)  # the codes v·n + u of its in-lists (`neighbour_lists`), sorted
            codes.append(rev[rev // n != rev % n])
        # the arcs of up to HEADS_PER_TABLE heads in one sorted table, each with the heads holding it as bits (bit h
        # for the table's h-th head): one search a side tells every head's arcs apart
        for first in range(0, len(codes), HEADS_PER_TABLE):
            group = codes[first:first + HEADS_PER_TABLE]
            table = np.sort(np.concatenate(group), kind="stable")  # sorted runs: merged (timsort)
            if len(table):
                table = table[np.concatenate(([True], table[1:] != table[:-1]))]
            bits = np.zeros(len(table), dtype=np.int64)
            for h, own in enumerate(group):
                bits[np.searchsorted(table, own)] |= np.int64(1) << np.int64(h)
            self.tables.append((table, bits))

    @staticmethod
    def _heads_holding(table, bits, codes):
        """The heads of one table holding each arc v·n + u of ``codes``, as bits (0: none)."""
        import numpy as np
        if not table.size:
            return np.zeros(codes.shape, dtype=np.int64)
        at = np.minimum(np.searchsorted(table, codes), table.size - 1)
        return np.where(table[at] == codes, bits[at], 0)

    def flags(self, a, b):
        """Boolean per pair (a[k], b[k]): a changed position v ∉ {a, b} outside ``possible``."""
        if self.out_bits is not None:
            return self._flags_by_rows(a, b)
        import numpy as np
        n, indptr, targets = self.n, self.indptr, self.targets
        which, near = [], []
        for ends in (a, b):
            starts, stops = indptr[ends], indptr[ends + 1]
            counts = stops - starts
            which.append(np.repeat(np.arange(len(ends), dtype=np.int64), counts))
            first = np.repeat(starts - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
            near.append(targets[first + np.arange(int(counts.sum()), dtype=np.int64)])
        k, v = np.concatenate(which), np.concatenate(near)
        keep = (v != a[k]) & (v != b[k]) & self.outside[v]
        k, v = k[keep], v[keep]
        changed = np.zeros(len(k), dtype=bool)
        for table, bits in self.tables:  # some head holds one of a → v, b → v and not the other
            changed |= self._heads_holding(table, bits, v * n + a[k]) != self._heads_holding(table, bits, v * n + b[k])
        out = np.zeros(len(a), dtype=bool)
        out[k[changed]] = True
        return out

    def _flags_by_rows(self, a, b):
        """`flags` from the out-rows of a and b with their arcs' head bits (``out_bits``): for v in outs[a], the
        heads holding a → v against those holding b → v (none when v is not in outs[b]: no head holds b → v); for v
        in outs[b] only, no head holds a → v and some holds b → v, so v is changed. The same flags as the search of
        both arcs in every head's table."""
        import numpy as np
        n, indptr, targets = self.n, self.indptr, self.targets
        sides = []
        for ends in (a, b):
            starts = indptr[ends]
            counts = indptr[ends + 1] - starts
            k = np.repeat(np.arange(len(ends), dtype=np.int64), counts)
            at = np.repeat(starts - (np.cumsum(counts) - counts), counts) + np.arange(int(counts.sum()), dtype=np.int64)
            v = targets[at]
            sides.append((k, v, k * n + v, self.out_bits[at]))  # the keys k·n + v ascending: rows ascending
        (ka, va, key_a, bits_a), (kb, vb, key_b, bits_b) = sides
        if len(key_b):
            pos = np.minimum(np.searchsorted(key_b, key_a), len(key_b) - 1)
            found = key_b[pos] == key_a
            changed_a = bits_a != np.where(found, bits_b[pos], 0)
            in_a = np.zeros(len(key_b), dtype=bool)
            in_a[pos[found]] = True
        else:
            changed_a = np.ones(len(key_a), dtype=bool)
            in_a = np.zeros(0, dtype=bool)
        k, v = np.concatenate((ka, kb)), np.concatenate((va, vb))
        changed = np.concatenate((changed_a, ~in_a)) & (v != a[k]) & (v != b[k]) & self.outside[v]
        out = np.zeros(len(a), dtype=bool)
        out[k[changed]] = True
        return out


#: Heads whose arcs `_OutsidePossible` keeps in one table (their bits in an int64).
HEADS_PER_TABLE = 62
#: Pairs flagged at once by `_OutsidePossible` (the first batch small: the probe often ends early).
OUTSIDE_BATCH_FIRST, OUTSIDE_BATCH_MOST = 64, 8192


def _candidate_pair_arrays(nb: Neighbourhoods):
    """`_candidate_pairs` as arrays (a, b), one gap of one kind at a time: the same pairs in the same order."""
    import numpy as np
    n = nb.n
    degree = np.asarray(nb.out_degrees, dtype=np.int64)
    typical = 4 * (int(degree.sum()) // max(1, n)) + 4
    low = degree <= typical
    for both_low in (True, False):
        for gap in range(1, n):
            both = low[:n - gap] & low[gap:]
            a = np.flatnonzero(both if both_low else ~both)
            if a.size:
                yield a, a + gap


def _with_outside_flags(pairs: Optional[Iterable[tuple[int, int]]], test: _OutsidePossible):
    """(the pairs, one at a time, `_candidate_pairs` when ``pairs`` is None; a one-element list holding the current
    pair's flag), the flags made by batches."""
    import numpy as np
    flag = [False]

    def listed_batches():
        it = iter(pairs)
        while True:
            batch = list(islice(it, OUTSIDE_BATCH_MOST))
            if not batch:
                return
            ends = np.array(batch, dtype=np.int64).reshape(-1, 2)
            yield ends[:, 0], ends[:, 1]

    def walk():
        size = OUTSIDE_BATCH_FIRST
        for a_all, b_all in (_candidate_pair_arrays(test.nb) if pairs is None else listed_batches()):
            for at in range(0, len(a_all), OUTSIDE_BATCH_MOST):
                a_rest, b_rest = a_all[at:at + OUTSIDE_BATCH_MOST], b_all[at:at + OUTSIDE_BATCH_MOST]
                while len(a_rest):
                    a, b = a_rest[:size], b_rest[:size]
                    a_rest, b_rest = a_rest[size:], b_rest[size:]
                    flags = test.flags(a, b).tolist()
                    for pair, f in zip(zip(a.tolist(), b.tolist()), flags):
                        flag[0] = f
                        yield pair
                    size = min(2 * size, OUTSIDE_BATCH_MOST)
    return walk(), flag


# ---------------------------------------------------------------------------------------------
# The exact test by canonical labelling


class _RootedView:
    """R_i encoded for BLISS: vertices 0..n-1 are positions (colour min(d, D)), and each arc with a
    label ≠ 0 is subdivided by a vertex of colour D + 1 + label."""

    def __init__(self, nb: Neighbourhoods, root0: int, diameter: int):
        from ..lazy import digraph

        n, radius = nb.n, diameter - 1
        arrays = nb.arc_arrays()
        dist = nb.in_ball(root0, radius) if arrays is None else nb.in_ball_by_search(root0, radius)
        colours = [diameter] * n
        for v, d in dist.items():
            colours[v] = d
        if nb.vertex_classes is not None:
            # (distance colour, position class), numbered the same way in every rooted view
            index = nb.vertex_class_index()
            colours = [c + (diameter + 1) * index[nb.vertex_classes[v]] for v, c in enumerate(colours)]
            arc_base = (diameter + 1) * len(index) - (diameter + 1)
        else:
            arc_base = 0
        self.n = n
        self.colours = colours
        self.arcs = None  # (sources, targets) as numpy arrays when the neighbourhoods give them (`arc_arrays`)
        self.edges: Optional[list[tuple[int, int]]] = None  # the arcs the graph was built from, when built here
        if nb.labels is None:
            if arrays is not None:
                sources, targets = arrays
                if len(dist) < n:
                    # the arcs into the ball: the whole digraph's arcs (numbered as the arrays list them) kept by a mask
                    import numpy as np
                    inside = np.zeros(n, dtype=bool)
                    inside[list(dist)] = True
                    keep = np.flatnonzero(inside[targets])
                    self.arcs = (sources[keep], targets[keep])
                    self.graph = nb.whole_view()[0].subgraph_edges(keep.tolist(), delete_vertices=False)
                    self.work = len(keep)
                    return
                self.arcs = (sources, targets)
            if len(dist) == n:
                # every arc: the one digraph of all the arcs, shared
                self.graph, self.work = nb.whole_view()
                return
        edges: list[tuple[int, int]] = []
        nxt = n
        if nb.labels is None:
            for v in dist:
                edges.extend(zip(nb.ins[v], repeat(v)))
        else:
            for v in dist:
                for u, lab in zip(nb.ins[v], nb.labels[v]):
                    if lab == 0:
                        edges.append((u, v))
                    else:
                        edges.append((u, nxt))
                        edges.append((nxt, v))
                        colours.append(arc_base + diameter + 1 + lab)
                        nxt += 1
        self.work = len(edges)
        self.graph = digraph(nxt, edges)
        self.edges = edges

    def _edge_list(self) -> list[tuple[int, int]]:
        """The graph's arcs: the list it was built from (igraph keeps every arc given, so the same arcs), else
        igraph's own list (a shared digraph)."""
        edges = getattr(self, "edges", None)  # None too on a view made without __init__
        return edges if edges is not None else self.graph.get_edgelist()

    def invariant(self) -> tuple:
        """Kept by every isomorphism of rooted views (colours and arcs are): the sorted (colour, in-degree,
        out-degree) of the vertices."""
        g = self.graph
        return tuple(sorted(zip(self.colours, g.indegree(), g.outdegree())))

    def twins(self):
        """The view's twin quotient (graphs/view_twins.py) when its classes of twins save at least
        `view_twins.MIN_SAVED` vertices, else None (cached): the view is then decided on it (Lemma AK, Theorem F222).
        Whether it is used depends on the view's isomorphism class alone, so isomorphic views are labelled alike."""
        if not hasattr(self, "_twins"):
            from . import view_twins
            m = self.graph.vcount()
            if m - 1 < view_twins.MIN_SAVED:
                self._twins = None
            elif getattr(self, "arcs", None) is not None:
                self._twins = view_twins.quotient(m, self.colours, *self.arcs)  # type: ignore[misc]
            else:
                import numpy as np
                from itertools import chain
                edges = self._edge_list()
                flat = np.fromiter(chain.from_iterable(edges), dtype=np.int64, count=2 * len(edges))
                self._twins = view_twins.quotient(m, self.colours, flat[0::2], flat[1::2])
        return self._twins

    def automorphism_order(self) -> int:
        q = self.twins()
        if q is not None:
            return q.automorphism_order()
        return count_automorphisms(self.graph, color=self.colours)

    def automorphism_generators(self) -> list[tuple[int, ...]]:
        q = self.twins()
        gens = bliss.generators(self.graph, self.colours) if q is None else q.generators()
        return [tuple(k + 1 for k in g[:self.n]) for g in gens]

    def _canonical_labels(self) -> tuple[list[int], list[int]]:
        """(v ↦ its canonical index, the colours in canonical order). igraph returns, for each canonical index k,
        the vertex placed there (the form that ``permute_vertices`` applies); the labelling is its inverse."""
        order = bliss.canonical_permutation(self.graph, self.colours)
        m = len(order)
        lab = [0] * m
        for k, v in enumerate(order):
            lab[v] = k
        cols = [0] * m
        for v, c in enumerate(self.colours):
            cols[lab[v]] = c
        return lab, cols

    def canonical(self) -> tuple[list[int], str]:
        """(canonical labelling v ↦ canonical index, digest of the canonical form; of the twin quotient's canonical
        form with its keys when the view is decided on it, Theorem F222 (d))."""
        q = self.twins()
        if q is not None:
            lab, form = q.canonical()
            return lab, hashlib.sha256(repr(form).encode()).hexdigest()
        lab, cols = self._canonical_labels()
        m = len(lab)
        arcs = sorted((lab[a], lab[b]) for a, b in self._edge_list())
        h = hashlib.sha256()
        h.update(repr((m, cols)).encode())
        h.update(repr(arcs).encode())
        return list(lab), h.hexdigest()

    def canonical_form(self) -> tuple[list[int], tuple]:
        """(canonical labelling, the canonical form itself): the form that `canonical` digests (vertex count,
        colours in canonical order, arcs as codes a·m + b in canonical labels, sorted), for views compared with
        each other only (no digest to show): equal forms, equal digests, and no hash to collide. A view decided on its
        twin quotient gives the quotient's form (`TwinQuotient.canonical`), never equal to a form of the other kind."""
        q = self.twins()
        if q is not None:
            return q.canonical()
        lab, cols = self._canonical_labels()
        m = len(lab)
        if self.arcs is not None:
            # the same codes, sorted by numpy (the views of one decision all come here or all below)
            import numpy as np
            sources, targets = self.arcs
            at = np.array(lab, dtype=np.int64)
            return lab, (m, tuple(cols), np.sort(at[sources] * m + at[targets]).tobytes())
        codes = sorted([lab[a] * m + lab[b] for a, b in self._edge_list()])
        return lab, (m, tuple(cols), tuple(codes))


def decide_views(graphs: Sequence[PatternGraph], diameter: int, group_order: int,  # noqa: C901 - the view argument's exits (budget, witness, proof); to be split
                 group_generators: Optional[Sequence[Sequence[int]]],
                 in_group: Callable[[Sequence[int]], bool], *,
                 work_limit: int = DEFAULT_WORK_LIMIT, probe_work: int = PROBE_WORK,
                 arc_classes: Optional[Sequence[Optional[ArcClasses]]] = None,
                 vertex_classes: Optional[Sequence] = None,
                 orbit_of: Optional[Sequence[int]] = None, certificate: bool = True,
                 ecc_bound=None, orbits_why: str = "") -> ViewDecision:
    """Decide whether a view witness exists for D = ``diameter`` (exact; see the module docstring).

    ``group_order``/``group_generators`` describe G = ⋂_h Aut(Γ_h) (the unlabelled pattern group),
    ``in_group`` tests membership in it; ``orbit_of`` (the least member of each position's orbit) stands
    in for generators too many to list (``orbits_why``: why neither is given, named when the test needs them). With ``arc_classes`` (a head's arc labels, §11.10) or
    ``vertex_classes`` (an absolute positional encoding), the views are labelled and G must be the
    group that keeps the labels too.

    ``certificate=False`` (the caller wants the answer only, e.g. the concrete engine inside a family theorem's
    checks): the answer is the same, but the views of different orbits are told apart by a cheap invariant
    first (``_RootedView.invariant``), canonical forms are computed only where invariants coincide, and a
    "sufficient" answer carries no certificate.
    """
    n = graphs[0].n
    if diameter < 1:
        return ViewDecision(True, reason="n = 1")
    total = sum(g.num_arcs for g in graphs)
    if total > MAX_NEIGHBOURHOOD_ARCS:
        fit = int(n * (MAX_NEIGHBOURHOOD_ARCS / total) ** 0.5)
        return ViewDecision(None, reason=f"the heads have {total:,} arcs in all (limit {MAX_NEIGHBOURHOOD_ARCS:,} "
                                         f"for the neighbourhood lists); a pattern of this kind fits up to about "
                                         f"n = {fit:,}")
    nb = Neighbourhoods(graphs, arc_classes, vertex_classes)
    known = group_generators is not None or orbit_of is not None
    # the orbits from the generators, or as the group engine computed them without listing generators
    orbit_of = (orbits(n, group_generators) if group_generators is not None else list(orbit_of or ())) if known else []
    reps = sorted(set(orbit_of))
    # the work of one rooted view is at most the number of arcs (plus subdivisions)
    estimate = len(reps) * max(1, nb.num_arcs) * (2 if nb.num_labels > 1 else 1)
    if nb.labelled:
        estimate *= max(1, len(graphs))  # labels are read per head
    # Without a certificate to show, a witness is wanted only as an answer: when the exact test fits its budget
    # it finds one as surely as the probe (an automorphism of a view outside G, or isomorphic views), so the
    # probe, which would scan every transposition when D layers suffice, is skipped
    if certificate and known and estimate <= min(EXACT_FIRST_WORK, work_limit):
        # a small exact test runs first: where D layers suffice (no witness exists, so the probe would find none
        # after scanning every transposition) its certificate is the answer; where it finds a witness, the
        # search runs as below (the probe, then the exact test), so the witness reported is the same
        nb.exact_views = True
        shown = _no_witness_certificate(nb, diameter, group_order, reps, _orbit_sizes(reps, orbit_of))
        nb.exact_views = False
        if shown is not None:
            return shown
    unlabelled = not nb.labelled and nb.vertex_classes is None
    mid_size = unlabelled and (estimate > work_limit or (ecc_bound is not None and estimate > EXACT_FIRST_WORK))
    arrays = searched = possible = None
    candidates = None if ecc_bound is None else _candidates(ecc_bound, diameter)
    if known and mid_size and candidates is not None and diameter >= 2 and FAR_FIRST_SHARE * int(candidates.sum()) <= n:
        # the far sets first (Theorem F132), when few positions are candidates (their searches are then cheap): they
        # give the positions of eccentricity D, the only ones a transposition witness may change, so the probe below
        # tries only the pairs that can pass. With many candidates the probe runs first, as it may find a witness
        # long before those searches end (the far sets then come in decide_large, if the probe finds none)
        from .view_refine import ArcArrays, far_search
        arrays = ArcArrays(graphs)
        searched = far_search(arrays, ecc_bound, diameter, reps)
        if searched.far is not None:
            possible = searched.eccentric
    if certificate or not (known and estimate <= work_limit):
        if ecc_bound is not None:  # the far sets (Theorem F132) decide exactly where the probe finds nothing
            probe_work = min(probe_work, FAR_SET_PROBE_WORK)
            if possible is None:
                possible = candidates  # the others are within D − 1 of every position
        found = probe_transpositions(nb, diameter, in_group, probe_work, possible)
        if found is not None:
            if not witness_condition_holds(nb, found.permutation, found.position, diameter - 1):
                raise AssertionError("internal error: a transposition witness failed its re-check")
            return ViewDecision(False, witness=found)
    if not known:
        return ViewDecision(None, reason="the generators of G were not listed (too many to list), so its "
                                         "orbits are unknown" + (f": {orbits_why}" if orbits_why else ""))
    sizes = _orbit_sizes(reps, orbit_of)
    if mid_size:
        # past the work limit, or wherever the diameter's certificate bounds every eccentricity (the far sets of
        # Theorem F132 then leave most roots out at once, where BLISS would build every orbit's view)
        return _decide_mid_size(graphs, nb, diameter, group_order, reps, sizes, in_group, ecc_bound, arrays, searched)
    if estimate > work_limit:
        # work grows like (orbits × arcs); with orbits and arcs both ∝ n, like n²
        fit = int(n * (work_limit / estimate) ** 0.5)
        return ViewDecision(None, reason=f"the exact test would build {len(reps)} rooted views of up to "
                                         f"{nb.num_arcs} arcs each (about {estimate:,} arc visits, limit "
                                         f"{work_limit:,}); a pattern of this kind fits up to about "
                                         f"n = {fit:,}")
    nb.exact_views = True
    return _exact(nb, diameter, group_order, reps, sizes, in_group, certificate)


def _candidates(ecc_bound, diameter: int):
    """The positions whose eccentricity bound reaches D (boolean array): every other is within D − 1 of all."""
    import numpy as np
    return np.asarray(ecc_bound) >= diameter


#: The far sets' searches run before the transposition probe when at most 1/FAR_FIRST_SHARE of the positions are
#: candidates (bound ≥ D).
FAR_FIRST_SHARE = 4

#: The transposition probe's work bound when the diameter's certificate bounds every eccentricity, so that the far
#: sets of Theorem F132 can decide the mid-size views exactly (the probe only finds a witness sooner): about 0.5 s of
#: CPU, where a clock of 0.5 s stopped it before.
FAR_SET_PROBE_WORK = PROBE_WORK // 4

#: Unlabelled views with at least this many arcs in all compare canonical forms as numpy arrays (`arc_arrays`).
VIEW_ARRAY_ARCS = 4096

#: The exact test runs before the transposition probe when its work estimate (arc visits) is at most this: a few
#: milliseconds, where the probe would scan all n(n − 1)/2 transpositions before the exact test runs anyway.
EXACT_FIRST_WORK = 250_000


def _orbit_sizes(reps: Sequence[int], orbit_of: Sequence[int]) -> dict:
    sizes = {r: 0 for r in reps}
    for r in orbit_of:
        sizes[r] += 1
    return sizes


def _no_witness_certificate(nb: Neighbourhoods, diameter: int, group_order: int, reps: Sequence[int],
                            sizes: dict) -> Optional[ViewDecision]:
    """`_exact`'s certificate when no view witness exists, or None when one may exist: every rooted view's
    automorphism order first (a witness is most often an automorphism outside G), then the canonical forms, which
    must be pairwise distinct. The certificate is the one `_exact` makes: the same orders and digests, in the same
    order of representatives."""
    views = []
    for r in reps:
        view = _RootedView(nb, r, diameter)
        if view.automorphism_order() != group_order // sizes[r]:
            return None
        views.append(view)
    digests = [view.canonical()[1] for view in views]
    if len(set(digests)) != len(digests):
        return None
    auts = tuple(group_order // sizes[r] for r in reps)
    cert = RootedViewCertificate(diameter - 1, group_order, tuple(r + 1 for r in reps),
                                 tuple(sizes[r] for r in reps), auts, tuple(digests))
    return ViewDecision(True, certificate=cert)


def _exact(nb: Neighbourhoods, diameter: int, group_order: int, reps: Sequence[int], sizes: dict,
           in_group: Callable[[Sequence[int]], bool], certificate: bool) -> ViewDecision:
    """The exact test by canonical labelling (the module docstring): an automorphism of a rooted view outside G,
    two isomorphic views of different orbits, or the certificate that no view witness exists."""
    auts, digests, labellings = [], [], {}
    seen: dict = {}  # digest (or, without a certificate, the canonical form itself) → representative
    buckets: dict[tuple, list] = {}
    for r in reps:
        view = _RootedView(nb, r, diameter)
        stab = group_order // sizes[r]
        aut = view.automorphism_order()
        if aut != stab:
            if aut < stab or aut % stab:
                raise AssertionError(f"internal error: |Aut(R_{r + 1})| = {aut} is not a multiple of "
                                     f"|Stab_G({r + 1})| = {stab}")
            for gen in view.automorphism_generators():
                if not in_group(gen):
                    w = ViewWitness(r + 1, gen, "an automorphism of the rooted view outside G")
                    if not witness_condition_holds(nb, gen, r + 1, diameter - 1):
                        raise AssertionError("internal error: a rooted-view automorphism failed its re-check")
                    return ViewDecision(False, witness=w)
            raise AssertionError("internal error: Aut(R_i) is larger than Stab_G(i) but every generator is in G")
        if not certificate:
            # isomorphic views have equal invariants: only views whose invariants coincide are compared
            bucket = buckets.setdefault(view.invariant(), [])
            bucket.append((r, view))
            if len(bucket) == 1:
                continue
            pending = bucket if len(bucket) == 2 else bucket[-1:]
        else:
            pending = [(r, view)]
        for q, q_view in pending:
            lab, digest = q_view.canonical() if certificate else q_view.canonical_form()
            if digest in seen:
                return _isomorphic_views(nb, diameter, in_group, q, lab, seen[digest], labellings[seen[digest]])
            seen[digest] = q
            labellings[q] = lab
            digests.append(digest)
        auts.append(aut)
    if not certificate:
        return ViewDecision(True, reason="no view witness (the rooted views told apart by invariants and canonical "
                                         "forms)")
    cert = RootedViewCertificate(diameter - 1, group_order, tuple(r + 1 for r in reps),
                                 tuple(sizes[r] for r in reps), tuple(auts), tuple(digests))
    return ViewDecision(True, certificate=cert)


def _isomorphic_views(nb: Neighbourhoods, diameter: int, in_group: Callable[[Sequence[int]], bool],
                      r: int, lab: Sequence[int], other: int, lab_j: Sequence[int]) -> ViewDecision:
    """Two representatives whose rooted views have the same canonical digest: the isomorphism
    φ = lab_j⁻¹ ∘ lab_r : R_r → R_other, re-checked on the arcs, is a witness."""
    inv_j = [0] * len(lab_j)
    for v, k in enumerate(lab_j):
        inv_j[k] = v
    perm = tuple(inv_j[lab[v]] + 1 for v in range(nb.n))
    if witness_condition_holds(nb, perm, r + 1, diameter - 1) and not in_group(perm):
        return ViewDecision(False, witness=ViewWitness(
            r + 1, perm, f"the rooted views of positions {r + 1} and {other + 1} (different G-orbits) "
                         "are isomorphic"))
    return ViewDecision(None, reason="two canonical digests coincided without an isomorphism "
                                     "(a hash collision)")


def _decide_mid_size(graphs: Sequence[PatternGraph], nb: Neighbourhoods, diameter: int, group_order: int,
                     reps: Sequence[int], sizes: dict, in_group: Callable[[Sequence[int]], bool],
                     ecc_bound=None, arrays=None, searched=None) -> ViewDecision:
    """The same decision past the work limit, by view_refine.py: roots whose ball is every position are
    left out, colour refinement decides the views it makes discrete, BLISS the others (docs/theory.md
    §11.9, "Mid-size n"); with ``ecc_bound`` (a re-checked upper bound on every ecc_out) the roots are grouped
    by their far sets first (Theorem F132)."""
    from .view_refine import decide_large

    out = decide_large(graphs, diameter, reps, lambda r: group_order // sizes[r],
                       lambda r: _RootedView(nb, r, diameter), in_group, LARGE_VIEW_ARCS, ecc_bound=ecc_bound,
                       arrays=arrays, searched=searched)
    if out.witness is not None:
        r, perm, how = out.witness
        if not witness_condition_holds(nb, perm, r + 1, diameter - 1) or in_group(perm):
            raise AssertionError("internal error: a rooted-view witness failed its re-check")
        return ViewDecision(False, witness=ViewWitness(r + 1, tuple(perm), how))
    if out.undecided:
        return ViewDecision(None, reason=out.undecided)
    cert = RootedViewCertificate(diameter - 1, group_order, tuple(r + 1 for r in out.examined),
                                 tuple(sizes[r] for r in out.examined), tuple(out.auts), tuple(out.keys),
                                 covering=tuple(r + 1 for r in out.covering), by_bliss=out.bliss,
                                 far_groups=out.far_groups, far_searched=out.far_searched, far_seeded=out.far_seeded,
                                 far_sets=tuple(out.far_listing))
    return ViewDecision(True, certificate=cert)
