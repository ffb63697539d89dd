"""The exact symmetry group G of a multi-head sparse attention layer, by BLISS (python-igraph).

G is the set of permutations σ of the positions under which the layer is equivariant for every
parameter value.  Heads have independent parameters, so σ must preserve each head separately:
G = ∩_h Aut(Γ_h) ∩ (bias) ∩ (PE), never Aut of the union (two heads ±1 and ±2 at n = 6: the
intersection is D_6, order 12, the union is the octahedron, order 48).

Bias.  A head with bias kind K scores the pair (query i, key j) with q_i·k_j + B_ij, B in the
structured class K, and only the pairs the head's pattern allows are ever used.  For generic B,
σ preserves the head iff it maps every arc j -> i of Γ_h to an arc of Γ_h *of the same bias class*:
  circulant: (j - i) mod n       symmetric circulant: min(|j - i|, n - |j - i|)
  toeplitz:  j - i               symmetric toeplitz:  |j - i|            free: the pair itself
(self-loops all have class 0 and are dropped).  For the full pattern this is exactly the bias
group (C_n, D_n, trivial, reflection, trivial); on a sparse pattern it can be larger than
Aut(Γ) ∩ bias group (blocks(2) at n = 4 with a toeplitz bias keeps the block swap (13)(24)), and
reporting the smaller group would be a wrong G-UAP claim.  On a complete head the classes of all
pairs are preserved iff the class-1 arcs are (directed cycle / cycle / directed path / path), so
the complete head is replaced by that small graph.  "free" bias and absolute positional encodings
give the trivial group.

Encoding.  All heads go into one arc-labelled digraph: the label of a pair (j, i) is the tuple of
(head, bias class) over the heads that contain the arc; σ ∈ G iff σ preserves labels.  Labels are
encoded for BLISS by vertex colours: the most frequent label keeps plain arcs, every other arc
j -> i of label ℓ becomes j -> s -> i through a new vertex s of colour ℓ.  Each subdivision vertex
has one in- and one out-neighbour, so automorphisms of the coloured graph restrict faithfully to
the positions and the two groups have the same order.

Twins.  Before BLISS, positions u, v with (u v) ∈ G (equal labelled neighbourhoods, "twins") are
merged: twinship is an equivalence relation, G contains the product of the symmetric groups of the
classes as a normal subgroup, and G/∏Sym(C) is the automorphism group of the quotient coloured by
(class size, internal label).  Hence |G| = ∏|C|! · |Aut(quotient)|.  This keeps S_{n-1} (star) at
n = 65,536 down to two generators instead of BLISS's n - 2.

Speed at large n (BigBird or a window at n = 65,536: under a second).  Twins are found from the
support's neighbour lists, computed by igraph in C (the igraph and the decoded endpoints are cached
on the PatternGraph and shared with the connectivity analysis); a cheap key (sizes and sums of the
lists) is counted for all positions and exact keys are built only where it collides.  The quotient
is the subgraph induced by one representative per class.  BLISS gets a finer colouring that every
automorphism preserves (distances from the smallest degree class), which spares it ~n/w refinement
rounds along a window.  The name is decided before any generator is listed: a named group keeps its
standard generators, so BLISS runs only once for it.  A large unlabelled head is first coloured by
colour refinement on its arc arrays (graphs/refinement.py): when the colours are the twin classes, G is
their product and BLISS does not run at all (random patterns).  Membership checks stay plain Python over the
codes (C-level ``map``/``filter``): the reflection by code arithmetic, permutations that move few
points by probing the codes at those points only, others by one pass over the arcs.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress, repeat
from operator import add, eq, mul, ne, sub
from typing import Mapping, Optional, Sequence

from ..bignum import count_automorphisms
from ..lazy import digraph, igraph as ig, igraph_without_numpy  # imported on first use: dense checks never need it

from ..groups import group_structure as typed_structure
from ..groups import (NamedGroup, factorial_order_latex, factorial_order_text, reflection, rotation,
                      symmetric_generators)
from ..spec import BIAS_KINDS
from ..groups import bucket_kind, offset_class
from .build import (PatternGraph, _decoded_by_numpy, _derived, _no_gc, code_array, code_endpoints, edge_order,
                    endpoints, neighbour_lists, to_igraph)
from .. import bliss

POSITIONAL_KINDS = ("none", "absolute")

#: Generators are listed only while (number of generators) × n stays below this.
MAX_GENERATOR_ENTRIES = 5_000_000
#: The orbits are read from BLISS's generators of the twin quotient while (bits of its order) × (classes) stays below
#: this, whatever the memory limit (BLISS lists every generator at once, about 30 bytes an entry once in Python) ...
MAX_ORBIT_ENTRIES = 5_000_000
#: ... and beyond it while that list takes at most a quarter of the file's memory limit (`--memory`, a fixed 4 GiB by
#: default: not the machine's free memory, so whether the orbits are read depends on the file's options alone), at
#: this many bytes per entry (random(1, seed=0) at 65,536 positions: 746 bits × 61,536 classes, 1.4 GB at once)
ORBIT_BYTES_PER_ENTRY = 32
#: The part of G permuting twin classes is named by structure up to this many classes (class_action).
MAX_NAMED_CLASSES = 20_000


@dataclass(frozen=True)
class SymmetryGroup:
    """The exact group G ≤ S_n.

    ``generators`` are image lists ``[σ(1), ..., σ(n)]`` (1-based) generating G; they are None only
    when listing them would exceed ``MAX_GENERATOR_ENTRIES`` (order and name stay exact).
    ``name`` is one of "S_n", "trivial", "C_n", "D_n", "reflection", "stabilizer K" (K an integer),
    decided by the order and membership of the named generators, or None.
    """
    n: int
    order: int
    name: Optional[str]
    generators: Optional[tuple[tuple[int, ...], ...]]
    method: str
    #: G by its structure when it has no standard name (or is a stabiliser): symmetric groups on the
    #: twin classes and the part permuting them, e.g. "S_2 on {1, 2} × the reflection of {3, …, 64}"
    structure: Optional[str] = None
    #: the order as an int when short, else as a product of factorials ("4095!", "2 · 62!")
    order_text: object = None
    #: `structure` as typed parts (groups.GroupStructure), for formulas
    structure_parts: object = None
    #: `order_text` in math mode when it is a product of factorials
    order_latex: object = None
    #: when ``generators`` is None: the least member (0-based) of each position's G-orbit (twin classes
    #: joined by the quotient's automorphisms), for the rooted-view decision (views.py)
    orbit_of: Optional[tuple[int, ...]] = None
    #: when neither ``generators`` nor ``orbit_of`` is given: why the orbits are not read (the size and its bound)
    orbits_why: str = ""


# ---------------------------------------------------------------------------------------------
# The labelled structure preserved by G

def _bias_class(kind: Optional[str], n: int, j0: int, i0: int):
    d = j0 - i0
    if kind is None:
        return 0
    if kind == "circulant":
        return d % n
    if kind == "symmetric circulant":
        m = d % n
        return min(m, n - m)
    if kind == "toeplitz":
        return d
    if kind == "symmetric toeplitz":
        return abs(d)
    if bucket_kind(kind) is not None:  # T5's bucket of the offset (docs/theory.md §16.5)
        return offset_class(kind, n, d)
    raise ValueError(f"unknown bias kind {kind!r}")


def _class_one_arcs(kind: str, n: int) -> frozenset[int]:
    """Arcs whose preservation is equivalent to preserving every bias class of a complete head."""
    codes: set[int] = set()
    if kind in ("circulant", "symmetric circulant"):
        for i0 in range(n):  # query i attends to key i + 1 mod n: arc (i+1) -> i
            j0 = (i0 + 1) % n
            if j0 != i0:
                codes.add(j0 * n + i0)
                if kind == "symmetric circulant":
                    codes.add(i0 * n + j0)
    elif kind in ("toeplitz", "symmetric toeplitz"):
        for i0 in range(n - 1):
            codes.add((i0 + 1) * n + i0)
            if kind == "symmetric toeplitz":
                codes.add(i0 * n + i0 + 1)
    else:
        raise ValueError(f"unknown bias kind {kind!r}")
    return frozenset(codes)


class _Structure:
    """The arcs G must preserve, with their joint labels; ``trivial`` when G = {id} is known upfront.

    ``support`` is a PatternGraph holding every constrained arc (for one unbiased head, that head's
    own graph, so its cached decoding and igraph are shared with the connectivity analysis).
    ``labels`` maps each code to its label 0 .. L-1, or is None when all arcs carry one label.
    """

    def __init__(self, n: int, support: Optional[PatternGraph], labels: Optional[Mapping[int, int]],
                 num_labels: int, trivial: bool, reason: str):
        self.n = n
        self.support = support if support is not None else PatternGraph(n, frozenset())
        self.num_arcs = self.support.num_arcs
        self.labels = labels
        self.num_labels = num_labels
        self.trivial = trivial
        self.reason = reason
        self._edge_labels: Optional[list[int]] = None
        self._checked: dict[tuple, bool] = {}

    def edge_labels(self) -> list[int]:
        """The label of every arc, in the edge order of ``endpoints``/``to_igraph`` (cached)."""
        if self._edge_labels is None:
            kept = _derived(self.support).get(JOINT_LABELS_BY_CODE) if self.labels is not None else None
            if self.labels is None:
                self._edge_labels = [0] * self.num_arcs
            elif kept is not None and kept[0] is self.labels and _decoded_by_numpy(self.support):
                self._edge_labels = kept[1].tolist()  # the edge order is the codes ascending
            else:
                self._edge_labels = list(map(self.labels.__getitem__, edge_order(self.support)))
        return self._edge_labels

    @property
    def codes(self) -> frozenset[int]:
        """The support's codes as a frozenset (made on first use for a graph built on arrays)."""
        return self.support.codes

    def preserves(self, perm: Sequence[int]) -> bool:
        """perm: 1-based images.  True iff every labelled arc maps to an arc of the same label.

        Plain Python over the arc codes, independent of igraph and BLISS: the reflection by code
        arithmetic (c -> n² - 1 - c), a permutation moving k points with k·n < 2·|arcs| by probing
        the 2n possible codes at each moved point (arcs between fixed points map to themselves),
        any other by one pass over the decoded arcs.  Each stops at the first arc not preserved.
        Results are memoised, so a permutation checked while naming the group is not re-checked.
        """
        key = tuple(perm)
        known = self._checked.get(key)
        if known is None:
            known = self._checked[key] = self._preserves(key)
        return known

    def _preserves(self, perm: tuple) -> bool:
        n = self.n
        if len(perm) != n:
            return False
        if self.labels is None and self.num_arcs >= NUMPY_PRESERVE_ARCS and n * n < 2 ** 63 and not self.trivial:
            arrays = _preserves_arrays(self.support, perm)  # the permutation checked there, on its array
            if arrays is not None:
                return arrays
        if sorted(perm) != list(range(1, n + 1)):
            return False
        if self.trivial:
            return perm == tuple(range(1, n + 1))
        moved = list(compress(range(n), map(ne, perm, range(1, n + 1))))
        if not moved or not self.num_arcs:
            return True
        codes, labels = self.codes, self.labels
        if perm == reflection(n):
            # (j, i) -> (n-1-j, n-1-i) in 0-based terms, i.e. code c -> n² - 1 - c: no decoding
            top = n * n - 1
            if labels is None:
                return all(map(codes.__contains__, map(sub, repeat(top), codes)))
            return all(map(eq, map(labels.get, map(sub, repeat(top), labels)), labels.values()))
        row = [(p - 1) * n for p in perm]
        col = [p - 1 for p in perm]
        if len(moved) * n < 2 * len(codes):
            # An arc between two fixed points maps to itself, so only the arcs at a moved point
            # can fail; they are found by probing the 2n possible codes at each moved point
            # (twin transpositions and cycles move few points).
            for u in moved:
                heads = list(compress(range(n), map(codes.__contains__, range(u * n, u * n + n))))
                tails = list(compress(range(n), map(codes.__contains__, range(u, n * n, n))))
                images = chain(map(add, repeat(row[u]), map(col.__getitem__, heads)),   # u -> v
                               map(add, map(row.__getitem__, tails), repeat(col[u])))   # j -> u
                if labels is None:
                    ok = all(map(codes.__contains__, images))
                else:
                    own = chain(map(add, repeat(u * n), heads),
                                map(add, map(mul, tails, repeat(n)), repeat(u)))
                    ok = all(map(eq, map(labels.get, images), map(labels.__getitem__, own)))
                if not ok:
                    return False
            return True
        js, is_ = endpoints(self.support)
        arc_images = map(add, map(row.__getitem__, js), map(col.__getitem__, is_))
        if labels is None:  # σ is a bijection: arcs into arcs suffices
            return all(map(codes.__contains__, arc_images))
        return all(map(eq, map(labels.get, arc_images), self.edge_labels()))


#: From this many arcs on, an unlabelled membership test runs on the sorted code array (numpy).
NUMPY_PRESERVE_ARCS = 50_000


def _preserves_arrays(support: PatternGraph, perm: tuple) -> Optional[bool]:
    """Whether ``perm`` (1-based images, n of them) is a permutation of 1 … n and σ maps every arc of
    ``support`` to an arc (so onto the arcs: σ is a bijection), on numpy arrays (exact int64 codes): the
    reflection c ↦ n² − 1 − c reverses the sorted codes; any other σ maps the arcs at its moved points
    (the others are fixed): when they are few (`FEW_MOVED_POINTS`), σ(N(u)) = N(σu) for the out- and the
    in-neighbours of each moved u, on the support's compressed rows; else each image is looked up in the
    sorted codes. None when an entry is not an integer that int64 holds as it is (the caller's
    plain-Python check then decides)."""
    import numpy as np
    n = support.n
    if perm == reflection(n):
        codes = code_array(support)
        return bool(np.array_equal(n * n - 1 - codes[::-1], codes))
    try:
        p0 = np.fromiter(perm, dtype=np.int64, count=n)
    except (TypeError, ValueError, OverflowError):
        return None
    if p0.tolist() != list(perm):  # an entry int64 does not hold exactly (a fraction, text)
        return None
    p0 -= 1
    # (stable sorts throughout: timsort takes a permutation's long ascending runs as they are)
    if not np.array_equal(np.sort(p0, kind="stable"), np.arange(n, dtype=np.int64)):
        return False  # not a permutation of 1 … n
    codes = code_array(support)
    if len(codes) == 0:
        return True
    moved = p0 != np.arange(n, dtype=np.int64)
    few = np.flatnonzero(moved)
    if len(few) <= FEW_MOVED_POINTS:
        return _moved_rows_kept(support, p0, few.tolist())
    src, dst = code_endpoints(support)
    select = moved[src] | moved[dst]
    images = p0[src[select]] * n + p0[dst[select]]
    at = np.minimum(np.searchsorted(codes, images), len(codes) - 1)
    return bool((codes[at] == images).all())


#: A permutation moving at most this many points is checked on the neighbour rows of its moved points (a twin
#: transposition at a global position moves two points and thousands of arcs: their images looked up one by
#: one in the sorted codes cost more than sorting two rows).
FEW_MOVED_POINTS = 64


def _moved_rows_kept(support: PatternGraph, p0, moved: list[int]) -> bool:
    """σ (0-based images ``p0``) maps every arc of ``support`` to an arc, for σ moving only ``moved``: an arc
    between fixed points maps to itself, an arc u → v (v → u) with u moved lies in u's out-row (in-row), so σ
    keeps the arcs exactly when σ(N_out(u)) = N_out(σu) and σ(N_in(u)) = N_in(σu) for every moved u (as sets:
    the rows are ascending, so the sorted images equal σu's row)."""
    import numpy as np

    from .arc_arrays import graph_csr
    for mode in ("out", "in"):
        indptr, targets = graph_csr(support, mode)
        for u in moved:
            v = int(p0[u])
            images = p0[targets[indptr[u]:indptr[u + 1]]]
            images.sort(kind="stable")
            if not np.array_equal(images, targets[indptr[v]:indptr[v + 1]]):
                return False
    return True


def _structure(graphs: Sequence[PatternGraph], biases: Optional[Sequence[Optional[str]]],  # noqa: C901 - one branch per head structure (bias, positions); to be split
               positional: str) -> _Structure:
    if not graphs:
        raise ValueError("at least one head is needed")
    n = graphs[0].n
    if any(g.n != n for g in graphs):
        raise ValueError("all heads must have the same number of tokens")
    if biases is None:
        biases = [None] * len(graphs)
    if len(biases) != len(graphs):
        raise ValueError("one bias entry per head is needed")
    for b in biases:
        if b is not None and b not in BIAS_KINDS and bucket_kind(b) is None:
            raise ValueError(f"unknown bias kind {b!r}")
    if positional not in POSITIONAL_KINDS:
        raise ValueError(f"unknown positional encoding {positional!r}")
    if positional == "absolute":
        return _Structure(n, None, None, 0, True, "absolute positional encoding")
    if "free" in biases:
        return _Structure(n, None, None, 0, True, "free bias")
    # one layer per distinct (head graph, bias); identical heads give identical constraints
    layers: list[tuple[PatternGraph, Optional[str], Optional[PatternGraph]]] = []
    seen: set = set()
    for g, b in zip(graphs, biases):
        if g.complete:
            if b is None:
                continue  # a complete unbiased head is preserved by every permutation
            # T5 buckets on a complete head: every offset's sign is kept, so σ is increasing, the identity, as
            # for the Toeplitz classes (docs/theory.md §16.5): the same arcs i → i + 1 stand for both
            arcs, kind, source = PatternGraph(n, _class_one_arcs("toeplitz" if bucket_kind(b) else b, n)), None, None
        else:
            arcs, kind, source = g, b, g
        key = (arcs, kind)  # graphs compare by their arc sets (and hash without reading them)
        if key not in seen:
            seen.add(key)
            layers.append((arcs, kind, source))
    if not layers:
        return _Structure(n, None, None, 0, False, "no constraint")
    if len(layers) == 1 and layers[0][1] is None:
        arcs, _, source = layers[0]
        support = source if source is not None else arcs
        return _Structure(n, support, None, 1 if arcs.num_arcs else 0, False, "one head")
    support, labels, count = _joint_labels(n, tuple((arcs, kind) for arcs, kind, _ in layers))
    reason = f"{len(layers)} labelled layer(s)"
    if count <= 1:
        return _Structure(n, support, None, count, False, reason)
    return _Structure(n, support, labels, count, False, reason)


#: _joint_labels' results for the last two tuples of layers, by the identity of their graphs (each entry holds its
#: graphs, so an id in a key cannot be reused while the entry is kept).
_JOINT: dict[tuple, tuple] = {}


def _joint_labels(n: int, layers: tuple) -> tuple[PatternGraph, Mapping[int, int], int]:
    """The union of the layers' arcs, each arc's joint label (its classes in every layer) and the number of labels:
    once for the same (graph, bias kind) layers (the group, its membership checks and the certificates' re-checks of
    one pattern ask for the same graph objects; each gets a _Structure of its own). The labels are read, never
    changed."""
    key = (n, tuple((id(arcs), kind) for arcs, kind in layers))
    got = _JOINT.get(key)
    if got is not None and all(a is b for (a, _), (b, _) in zip(got[0], layers)):
        return got[1:]
    with _no_gc():
        if all(kind is None for _, kind in layers) and len(layers) <= 62 and \
                sum(arcs.num_arcs for arcs, _ in layers) >= JOINT_ARRAY_ARCS:
            support, labels, count = _plain_joint_labels(n, [arcs for arcs, _ in layers])
            if len(_JOINT) >= 2:
                del _JOINT[next(iter(_JOINT))]
            _JOINT[key] = (layers, support, labels, count)
            return support, labels, count
        joint: dict[int, tuple] = defaultdict(tuple)
        for h, (arcs, kind) in enumerate(layers):
            if kind is None:  # every arc of an unbiased layer has class 0
                tag = ((h, 0),)
                for c in arcs.codes:
                    joint[c] += tag
            else:
                for c in arcs.codes:
                    j0, i0 = divmod(c, n)
                    joint[c] += ((h, _bias_class(kind, n, j0, i0)),)
        ids: dict[tuple, int] = {}
        labels = {c: ids.setdefault(lab, len(ids)) for c, lab in joint.items()}
        support = PatternGraph(n, frozenset(labels))
    if len(_JOINT) >= 2:  # the calls for one pattern come together; a large pattern's labels are large
        del _JOINT[next(iter(_JOINT))]
    _JOINT[key] = (layers, support, labels, len(ids))
    return support, labels, len(ids)


#: From this many arcs in all, unbiased layers' joint labels are made on arrays (`_plain_joint_labels`).
JOINT_ARRAY_ARCS = 50_000


def _plain_joint_labels(n: int, graphs: list) -> tuple[PatternGraph, Mapping[int, int], int]:
    """`_joint_labels` for unbiased layers, on arrays: an arc's label tuple ((h, 0) for each layer h holding it) is
    fixed by the set of layers holding it, here a bit mask. The labels are numbered as the loop of `_joint_labels`
    numbers them, by first occurrence over each layer's codes as its frozenset lists them (a code at its first layer):
    a mask's first occurrence lies in the layer of its lowest bit, among that layer's codes, so each layer's frozenset
    is read only until every mask first met there has been met. The dict holds the same pairs (made in ascending code
    order; it is only looked up), and the support is the same set of codes: made from the sorted codes when it is
    large enough to be decoded on arrays (its edge order is then ascending whatever its frozenset's order), else as
    the frozenset of the loop's order (its iteration order gives the edge order)."""
    import numpy as np

    from .build import code_array
    listed = [code_array(g) for g in graphs]  # each sorted
    every = np.concatenate(listed)
    heads = np.repeat(np.arange(len(graphs), dtype=np.int64), [len(c) for c in listed])
    order = np.argsort(every, kind="stable")
    ordered = every[order]
    new = np.concatenate(([True], ordered[1:] != ordered[:-1])) if len(ordered) else np.zeros(0, dtype=bool)
    starts = np.flatnonzero(new)
    codes = ordered[starts]  # the union, ascending
    mask = np.bitwise_or.reduceat(np.left_shift(np.int64(1), heads[order]), starts) if len(starts) else \
        np.zeros(0, dtype=np.int64)
    masks_present = np.flatnonzero(np.bincount(mask, minlength=1)).tolist()  # masks below 2^62 (at most 62 layers)
    rank: dict[int, int] = {}
    for h, g in enumerate(graphs):
        wanted = {m for m in masks_present if m & -m == 1 << h}  # the masks first met in layer h
        if not wanted:
            continue
        for c in g.codes:  # the frozenset's order, as the loop reads it
            m = int(mask[int(np.searchsorted(codes, c))])
            if m in wanted:
                rank[m] = len(rank)
                wanted.discard(m)
                if not wanted:
                    break
    distinct_masks = np.asarray(masks_present, dtype=np.int64)
    ranks = np.asarray([rank[m] for m in masks_present], dtype=np.int64)
    in_code_order = ranks[np.searchsorted(distinct_masks, mask)]
    labels = CodeLabels(codes, in_code_order)
    support = PatternGraph.from_sorted_codes(n, codes)
    if not _decoded_by_numpy(support):
        loop: dict[int, None] = {}
        for g in graphs:
            loop.update(dict.fromkeys(g.codes))
        support = PatternGraph(n, frozenset(loop))
    in_code_order.flags.writeable = False
    _derived(support)[JOINT_LABELS_BY_CODE] = (labels, in_code_order)
    return support, labels, len(rank)


class CodeLabels(Mapping):
    """Each code's label, {code: label}, held as the sorted codes and their labels (numpy int64 arrays): the dict of
    Python ints is made on the first look-up only (colour refinement reads the arrays, and decides most large
    labelled unions with no look-up at all). Iterated in ascending code order."""

    def __init__(self, codes, labels):
        self._codes = codes
        self._labels = labels
        self._dict: Optional[dict[int, int]] = None

    def _made(self) -> dict[int, int]:
        if self._dict is None:
            with _no_gc():
                self._dict = dict(zip(self._codes.tolist(), self._labels.tolist()))
        return self._dict

    def __getitem__(self, code: int) -> int:
        return self._made()[code]

    def get(self, code, default=None):
        return self._made().get(code, default)

    def __contains__(self, code: object) -> bool:
        return code in self._made()

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._codes)

    def values(self):
        return self._made().values()

    def items(self):
        return self._made().items()

    def keys(self):
        return self._made().keys()


#: The derived-forms key of a support's joint labels in ascending code order, with the dict they are the values of.
JOINT_LABELS_BY_CODE = "joint labels by code"


# ---------------------------------------------------------------------------------------------
# Twin classes, quotient, BLISS

def _exact_twins(st: _Structure, members: list[int], outs: list[list[int]],
                 ins: list[list[int]], closed: bool) -> list[list[int]]:
    """Split positions whose cheap keys collide into groups of pairwise twins (exact keys)."""
    exact: dict[tuple, list[int]] = defaultdict(list)
    if st.labels is None:
        for u in members:
            o, i = frozenset(outs[u]), frozenset(ins[u])
            if closed:  # adjacent twins: equal once each is added to its own neighbourhood
                o, i = o.union((u,)), i.union((u,))
            exact[(o, i)].append(u)
    else:
        # labelled neighbours v * L + label; adjacent twins u, v need u -> v and v -> u with one
        # label ℓ, and agree once u * L + ℓ (resp. v * L + ℓ) is added: one key per such ℓ
        n, big, lab = st.n, st.num_labels, st.labels
        keyed = []
        for u in members:
            o = frozenset([v * big + lab[u * n + v] for v in outs[u]])
            i = frozenset([v * big + lab[v * n + u] for v in ins[u]])
            if not closed:
                exact[(o, i)].append(u)
                continue
            keyed.append((u, o, i, _xor_hash(o), _xor_hash(i)))
        if closed:
            # a position with k labels on its two-way arcs has k candidate keys: each is hashed from its sets' hashes
            # in O(1) (XOR of mixed elements), and the sets are built only for keys that some other position shares
            # (a hub with 65,536 differently labelled arcs built 65,536 sets of 65,536: quadratic memory)
            def cheap(o, i, ho, hi, t):
                return (ho if t in o else ho ^ _mix(t), len(o) + (t not in o), hi if t in i else hi ^ _mix(t),
                        len(i) + (t not in i))
            count: dict[tuple, int] = defaultdict(int)
            for u, o, i, ho, hi in keyed:
                for ell in {e % big for e in o & i}:
                    count[cheap(o, i, ho, hi, u * big + ell)] += 1
            for u, o, i, ho, hi in keyed:
                for ell in {e % big for e in o & i}:
                    t = u * big + ell
                    if count[cheap(o, i, ho, hi, t)] > 1:
                        exact[(o.union((t,)), i.union((t,)))].append(u)
    return [m for m in exact.values() if len(m) > 1]


def _mix(x: int) -> int:
    """splitmix64's finaliser: a 64-bit mixing of x (so that an XOR of mixed elements hashes a set)."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


#: From this many values, `_xor_hash` mixes them on a numpy array (uint64 arithmetic wraps as the masks do).
XOR_HASH_ARRAY = 1024


def _xor_hash(values) -> int:
    if len(values) >= XOR_HASH_ARRAY and max(values) < 1 << 63:
        import numpy as np
        x = np.fromiter(values, dtype=np.uint64, count=len(values)) + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return int(np.bitwise_xor.reduce(x ^ (x >> np.uint64(31))))
    out = 0
    for v in values:
        out ^= _mix(v)
    return out


def _twin_classes(st: _Structure) -> list[list[int]]:
    """Classes of positions u ~ v with (u v) ∈ G, each sorted, 0-based, ordered by least member.

    u, v are twins iff their labelled out- and in-neighbourhoods agree outside {u, v}: either both
    are non-adjacent with equal neighbourhoods ("open" keys), or u -> v and v -> u carry the same
    label ℓ and the neighbourhoods agree once each vertex is added to its own ("closed" keys).
    Labelled twins are in particular twins of the unlabelled support, so candidates come from the
    support's neighbour lists (igraph, in C): a cheap key (sizes and sums of the neighbour lists,
    necessary for equal sets) is counted for every position, and exact keys, with labels, are
    built only for positions whose cheap key collides.
    """
    n = st.n
    groups: list[list[int]] = []
    if st.num_arcs >= NUMPY_PRESERVE_ARCS and n * n < 2 ** 63:
        with _no_gc():
            for closed, members_list in _cheap_buckets_arrays(st.support):
                outs, ins = _neighbours_of(st.support, sum(map(len, members_list)))
                for members in members_list:
                    groups.extend(_exact_twins(st, members, outs, ins, closed))
        return _merge_twin_groups(n, groups)
    with _no_gc():  # 2n neighbour lists: no collection pass can free anything meanwhile
        outs = neighbour_lists(st.support, "out")
        ins = neighbour_lists(st.support, "in")
        lo, li = list(map(len, outs)), list(map(len, ins))
        so, si = list(map(sum, outs)), list(map(sum, ins))
        for closed in (False, True):
            if closed:
                keys = list(zip(lo, map(add, so, range(n)), li, map(add, si, range(n))))
            else:
                keys = list(zip(lo, so, li, si))
            counts = Counter(keys)
            if len(counts) == n:
                continue
            buckets: dict[tuple, list[int]] = defaultdict(list)
            for u, c in enumerate(map(counts.__getitem__, keys)):
                if c > 1:
                    buckets[keys[u]].append(u)
            for members in buckets.values():
                groups.extend(_exact_twins(st, members, outs, ins, closed))
    return _merge_twin_groups(n, groups)


def _cheap_buckets_arrays(support: PatternGraph):
    """The colliding cheap keys of `_twin_classes` from the sorted code arrays (numpy): for the open
    keys (out-degree, sum of out-neighbours, in-degree, sum of in-neighbours) and the closed ones (each
    sum plus the position itself), the groups of ≥ 2 positions sharing a key, each ascending. The sums
    are exact (float64 sums of integers below 2⁵³)."""
    import numpy as np
    n = support.n
    src, dst = code_endpoints(support)
    lo = np.bincount(src, minlength=n).astype(np.int64)
    li = np.bincount(dst, minlength=n).astype(np.int64)
    so = np.bincount(src, weights=dst, minlength=n).astype(np.int64)
    si = np.bincount(dst, weights=src, minlength=n).astype(np.int64)
    here = np.arange(n, dtype=np.int64)
    for closed in (False, True):
        keys = (lo, so + here, li, si + here) if closed else (lo, so, li, si)
        order = np.lexsort(keys[::-1]) if n > PREFILTER_MAX_N else _sharing_first_two(keys, n)
        if len(order) == 0:
            continue
        ks = np.stack([k[order] for k in keys], axis=1)
        new = np.concatenate(([True], np.any(ks[1:] != ks[:-1], axis=1)))
        starts = np.flatnonzero(new)
        sizes = np.diff(np.append(starts, len(order)))
        many = sizes > 1
        if many.any():
            yield closed, [sorted(order[a:a + z].tolist()) for a, z in zip(starts[many].tolist(), sizes[many].tolist())]


#: Up to this n the first two cheap keys fit one int64 (lo·n² + sum < n³ + n² < 2⁶³) for the prefilter.
PREFILTER_MAX_N = 1 << 20


def _sharing_first_two(keys, n: int):
    """The positions sharing their first two keys (out-degree, sum) with another position, ordered as
    ``np.lexsort`` orders them by all four keys: every group of equal keys lies among them, in the same
    order, and the others (most positions of a random pattern) are never sorted on four keys. The sum
    is below n² (at most n − 1 neighbours, each below n, plus the position itself)."""
    import numpy as np
    first = keys[0] * (n * n) + keys[1]
    by_first = np.argsort(first, kind="stable")
    ordered = first[by_first]
    same = ordered[1:] == ordered[:-1]
    shared = np.zeros(n, dtype=bool)
    shared[1:] |= same
    shared[:-1] |= same
    candidates = np.sort(by_first[shared])
    return candidates[np.lexsort([k[candidates] for k in keys[::-1]])]


class _NeighboursOf:
    """Neighbour lists of single positions on demand, for a few colliding positions: slices of the
    support's compressed rows (graphs.arc_arrays.graph_csr, shared with the connectivity search), the
    same ascending lists as igraph's ``neighbors(u, mode)`` (a self-loop lists u once)."""

    def __init__(self, support: PatternGraph, mode: str):
        from .arc_arrays import graph_csr
        self.indptr, self.targets = graph_csr(support, mode)

    def __getitem__(self, u: int) -> list[int]:
        return self.targets[int(self.indptr[u]):int(self.indptr[u + 1])].tolist()


def _neighbours_of(support: PatternGraph, count: int):
    """(outs, ins) indexable by position: all lists (cached, shared) when many positions are asked
    for, else each position's list read off the compressed rows."""
    if count * 8 >= support.n or "neighbours out" in support.__dict__.get("_derived", {}):
        return neighbour_lists(support, "out"), neighbour_lists(support, "in")
    return _NeighboursOf(support, "out"), _NeighboursOf(support, "in")


def _merge_twin_groups(n: int, groups: list[list[int]]) -> list[list[int]]:
    """The classes of the equivalence generated by the groups of pairwise twins (union-find): each
    sorted, ordered by least member, singletons included."""
    if not groups:
        with _no_gc():
            return [[u] for u in range(n)]
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for members in groups:
        r = find(members[0])
        for u in members[1:]:
            s = find(u)
            if s != r:
                parent[s] = r
    by_root: dict[int, list[int]] = defaultdict(list)
    for u in sorted(parent):
        by_root[find(u)].append(u)
    first = {m[0]: m for m in by_root.values()}  # each m is sorted
    with _no_gc():
        return [first[u] if u in first else [u] for u in range(n) if u in first or u not in parent]


def _encode(num_vertices: int, vertex_colours: list[int], sources: Sequence[int],
            targets: Sequence[int], labels: Sequence[int]):
    """A coloured igraph: the most frequent arc label stays plain, the others are subdivided."""
    counts = Counter(labels)
    colours = list(vertex_colours)
    if len(counts) <= 1:
        return digraph(num_vertices, zip(sources, targets)), colours
    plain = counts.most_common(1)[0][0]
    base = max(vertex_colours, default=-1) + 1
    other = sorted(lab for lab in counts if lab != plain)
    colour_of_label = {lab: base + k for k, lab in enumerate(other)}
    if len(labels) >= ENCODE_ARRAY_ARCS:
        return _encode_on_arrays(num_vertices, colours, sources, targets, labels, plain, colour_of_label)
    edges: list[tuple[int, int]] = []
    nxt = num_vertices
    with _no_gc():
        for a, b, lab in zip(sources, targets, labels):
            if lab == plain:
                edges.append((a, b))
            else:
                edges.append((a, nxt))
                edges.append((nxt, b))
                colours.append(colour_of_label[lab])
                nxt += 1
    return digraph(nxt, edges), colours


#: From this many arcs on, `_encode` subdivides on numpy arrays: the same graph (vertex numbers, arc order) and colours.
ENCODE_ARRAY_ARCS = 50_000


def _encode_on_arrays(num_vertices: int, colours: list[int], sources, targets, labels, plain, colour_of_label: dict):
    """`_encode`'s loop on arrays: arc k stays (a, b) when its label is ``plain``, else becomes (a, x), (x, b) for the
    next new vertex x, coloured by its label, in the order of the arcs."""
    import numpy as np
    a = np.asarray(sources, dtype=np.int64)
    b = np.asarray(targets, dtype=np.int64)
    lab = np.asarray(labels, dtype=np.int64)
    split = lab != plain
    before = np.cumsum(split) - split           # subdivided arcs before arc k
    at = np.arange(len(lab), dtype=np.int64) + before   # arc k's first edge
    new = num_vertices + before                 # arc k's new vertex, when it is subdivided
    edges = np.empty((len(lab) + int(split.sum()), 2), dtype=np.int64)
    edges[at, 0] = a
    edges[at, 1] = np.where(split, new, b)
    edges[at[split] + 1, 0] = new[split]
    edges[at[split] + 1, 1] = b[split]
    keys = np.array(sorted(colour_of_label), dtype=np.int64)
    values = np.array([colour_of_label[k] for k in sorted(colour_of_label)], dtype=np.int64)
    added = values[np.searchsorted(keys, lab[split])]
    graph = digraph(num_vertices + len(added), zip(edges[:, 0].tolist(), edges[:, 1].tolist()))
    graph.arc_arrays = (edges[:, 0], edges[:, 1])  # its arcs in igraph's order, read by bliss's encoding
    return graph, colours + added.tolist()


def _quotient(st: _Structure, classes: list[list[int]]):
    """The coloured quotient for BLISS: vertex k = class k, coloured by (size, internal label).

    Twins agree on their arcs to every other class (with labels): between two classes either all
    arcs are present, with one label, or none.  So the quotient is the subgraph induced by one
    representative per class (the least member; classes are ordered by it, so igraph keeps the
    class order).
    """
    n = st.n
    q = len(classes)
    if q == n:  # no twins: the support itself, one colour
        colours = [0] * n
        if st.labels is None:
            return to_igraph(st.support), colours
        js, is_ = endpoints(st.support)  # labelled: the subdivided graph alone, the support's igraph is not needed
        return _encode(n, colours, js, is_, st.edge_labels())
    g = to_igraph(st.support)
    kinds: dict[tuple, int] = {(1, None): 0}
    colours = [0] * q  # singletons
    for k, members in enumerate(classes):
        if len(members) > 1:
            c = members[1] * n + members[0]
            internal = st.labels.get(c) if st.labels is not None else (0 if st.support.has_code(c) else None)
            colours[k] = kinds.setdefault((len(members), internal), len(kinds))
    reps = [m[0] for m in classes]
    with igraph_without_numpy():
        h = g.induced_subgraph(reps)
    if st.labels is None:
        return h, colours
    pairs = h.get_edgelist()
    sources, targets = [a for a, _ in pairs], [b for _, b in pairs]
    labels = [st.labels[reps[a] * n + reps[b]] for a, b in pairs]
    return _encode(q, colours, sources, targets, labels)


#: From this many arcs on, an unlabelled support's group is first tried by colour refinement on its arc arrays
#: (`_refined_twin_classes`): a few numpy passes over the arcs, where BLISS builds its own graph and searches.
REFINE_MIN_ARCS = 50_000

#: Up to this many twins (positions beyond the least of their twin class), a large unlabelled support's
#: group is counted by BLISS on the support itself rather than on its twin quotient (`_Solution`).
MAX_TWINS_ON_SUPPORT = 64

def _degrees_spread(support: PatternGraph) -> bool:
    """No position shares its (out-degree, in-degree) with half the positions or more: BLISS's own degree
    refinement then separates the positions in a few rounds (a pattern with random arcs), and the distance
    invariant of ``_invariant_colours`` (two more searches) would only repeat it. The count is the same either
    way (the invariant only refines the colouring by an invariant of every automorphism); this only decides
    whether to compute it where the colouring is used for the count alone."""
    import numpy as np
    n = support.n
    if n < 2 or support.complete:
        return False
    src, dst = code_endpoints(support)  # decoded once, shared with the twin classes' cheap keys
    out_deg = np.bincount(src, minlength=n).astype(np.int64)
    in_deg = np.bincount(dst, minlength=n).astype(np.int64)
    key = np.sort(out_deg * (n + 1) + in_deg)  # (np.unique would import numpy.ma)
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    return int(np.diff(np.append(starts, n)).max()) * 2 < n


#: Sources of the distance invariant (see ``_invariant_colours``): at most this many BFS runs.
MAX_INVARIANT_SOURCES = 8


def _invariant_colours(g: ig.Graph, colours: list[int],
                       arcs_of: Optional[PatternGraph] = None) -> list[int]:
    """A finer colouring that every colour-preserving automorphism of g preserves, so BLISS counts
    the same group: (colour, out-degree, in-degree, d(S -> v), d(v -> S)), where S is the smallest
    class of (colour, out-degree, in-degree) (the least such key on ties) and d(S -> v) the
    distance from the nearest member of S.  σ fixes S setwise, so both distances are invariant.

    BLISS refines the same degrees itself, but along a path-like pattern (a window) its refinement
    needs about n/w rounds to tell positions apart from the two ends; the distances from the ends
    give that partition in two BFS.
    """
    n = g.vcount()
    if n >= NUMPY_INVARIANT_VERTICES:
        return _invariant_colours_arrays(g, colours, arcs_of)
    key = list(zip(colours, g.outdegree(), g.indegree()))
    counts = Counter(key)
    size, first = min((c, k) for k, c in counts.items())
    if size == n or len(counts) == n or size > MAX_INVARIANT_SOURCES:
        return colours  # BLISS refines by degrees itself
    sources = [v for v, k in enumerate(key) if k == first]
    d_from = g.distances(source=sources, mode="out")  # rows: d(s -> v)
    d_to = g.distances(source=sources, mode="in")     # rows: d(v -> s)
    if len(sources) > 1:
        d_from, d_to = [list(map(min, *d_from))], [list(map(min, *d_to))]
    ids: dict = {}
    return [ids.setdefault(k, len(ids)) for k in zip(key, d_from[0], d_to[0])]


#: From this many vertices on, ``_invariant_colours`` runs on numpy arrays (the same colouring).
NUMPY_INVARIANT_VERTICES = 20_000


def _one_key(columns):
    """Each row of the integer columns as one int64, ordered as the rows are lexicographically (each
    column shifted to start at 0 and weighted by the ranges of the columns after it), or None when the
    ranges' product reaches 2⁶²."""
    import numpy as np
    lows = [int(c.min()) for c in columns]
    spans = [int(c.max()) - low + 1 for c, low in zip(columns, lows)]
    if math.prod(spans) >= 1 << 62:
        return None
    key = np.zeros(len(columns[0]), dtype=np.int64)
    for c, low, span in zip(columns, lows, spans):
        key *= span
        key += c - low
    return key


def _first_occurrence_ids(columns) -> tuple:
    """For integer columns (numpy, one row per vertex): each row's class id, numbered by first
    occurrence (as ``dict.setdefault(key, len(ids))`` over the rows), the class sizes (by id) and the
    first row of each class."""
    import numpy as np
    n = len(columns[0])
    key = _one_key(columns)
    if key is not None:  # the rows as one exact int64 each: one stable sort instead of a lexsort
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        new = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    else:
        order = np.lexsort(columns[::-1])
        rows = np.stack([c[order] for c in columns], axis=1)
        new = np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1)))
    group_sorted = np.cumsum(new) - 1
    group = np.empty(n, dtype=np.int64)
    group[order] = group_sorted
    k = int(group_sorted[-1]) + 1
    first = order[np.flatnonzero(new)]  # both sorts are stable: a class's first row comes first
    rank = np.empty(k, dtype=np.int64)
    by_first = np.argsort(first, kind="stable")
    rank[by_first] = np.arange(k, dtype=np.int64)
    sizes = np.bincount(group, minlength=k)
    return rank[group], sizes[by_first], first[by_first]


def _invariant_colours_arrays(g, colours: list[int], arcs_of: Optional[PatternGraph] = None) -> list[int]:
    """``_invariant_colours`` on numpy arrays: the same smallest class S (least size, then least key
    (colour, out-degree, in-degree)), the same distances (unreached: one value of its own) and the same
    numbering of the final classes by first occurrence. ``arcs_of``: the pattern graph g was made from
    (vertex k is position k + 1, the same arcs), when it is one: its degrees and distances are then
    read from its compact arc arrays (graphs.arc_arrays) instead of n-long lists from igraph."""
    import numpy as np
    n = g.vcount()
    csr = None
    if arcs_of is not None and arcs_of.n == n and not arcs_of.complete:
        from .arc_arrays import graph_csr
        csr = {mode: graph_csr(arcs_of, mode) for mode in ("out", "in")}
        cols = [np.asarray(colours, dtype=np.int64), np.diff(csr["out"][0]), np.diff(csr["in"][0])]
    else:
        cols = [np.asarray(colours, dtype=np.int64), np.asarray(g.outdegree(), dtype=np.int64),
                np.asarray(g.indegree(), dtype=np.int64)]
    ids, sizes, firsts = _first_occurrence_ids(cols)
    if len(sizes) == n or int(sizes.min()) == n:
        return colours
    small = np.flatnonzero(sizes == sizes.min())
    # the least key among the smallest classes (lexicographic on the three columns)
    keys = np.stack([c[firsts[small]] for c in cols], axis=1)
    pick = small[np.lexsort(keys.T[::-1])[0]]
    if int(sizes[pick]) > MAX_INVARIANT_SOURCES:
        return colours
    sources = np.flatnonzero(ids == pick).tolist()

    def nearest(mode: str):
        if csr is not None:  # one search from every source at once: the distance from the nearest
            from .arc_arrays import bfs
            indptr, targets = csr[mode]
            return bfs(indptr, targets, n, sources, reverse=csr["in" if mode == "out" else "out"])  # unreached: −1
        rows = np.asarray(g.distances(source=sources, mode=mode), dtype=np.float64)
        d = rows.min(axis=0)
        return np.where(np.isinf(d), -1, d).astype(np.int64)  # unreached: −1, apart from every distance

    final, _, _ = _first_occurrence_ids(cols + [nearest("out"), nearest("in")])
    return final.tolist()


#: Refined colours of two or more positions are checked to be twin classes only up to this many positions in
#: them in all (beyond the least of each); past it the twin classes are found as without refinement.
MAX_REFINED_TWINS = 4_096


def _refined_twin_classes(st: _Structure) -> Optional[list[list[int]]]:
    """The twin classes as `_twin_classes` lists them (each ascending, ordered by least member, singletons
    included), when colour refinement on the support's arc arrays (graphs.refinement) makes every colour of
    two or more positions one twin class, checked on its members' neighbourhoods; else None.

    Twins always share a colour (a twin transposition is an automorphism, and automorphisms keep the
    refined colouring), so a colour that is one twin class is all of it, and positions alone in their
    colour are alone in their class: the colours are then exactly the twin classes. This holds after any
    round, so refinement stops at the first round whose colours of two or more positions (at most
    `EARLY_TWIN_CHECK` positions beyond the least of each) are twin classes: as many colours as twin classes is
    the most any colouring G keeps can have, so the next round would add none and end the rounds there."""
    from .refinement import cells, refined_colours
    support = st.support
    n = st.n
    if support is None or support.complete or n * n >= 2 ** 63:
        return None
    src, dst = code_endpoints(support)
    labels = None if st.labels is None else _labels_by_code(st)
    settled: list = []

    def twin_classes_now(colour, count: int) -> bool:
        if n - count > EARLY_TWIN_CHECK:
            return False
        found = cells(colour)
        if not _cells_are_twin_classes(st, found):
            return False
        settled.append((colour, found))
        return True

    colour = refined_colours(src, dst, n, settled=twin_classes_now, labels=labels, num_labels=max(1, st.num_labels))
    if colour is None:
        return None
    if settled and settled[-1][0] is colour:
        return _with_singletons(n, settled[-1][1])
    found = cells(colour)
    if sum(map(len, found)) - len(found) > MAX_REFINED_TWINS or not _cells_are_twin_classes(st, found):
        return None
    return _with_singletons(n, found)


def _labels_by_code(st: _Structure):
    """Every arc's joint label in ascending code order (the order of ``code_endpoints``), numpy int64: the labels
    the joint labels kept in that order when made on arrays, else read off the dict."""
    import numpy as np
    assert st.labels is not None
    kept = _derived(st.support).get(JOINT_LABELS_BY_CODE)
    if kept is not None and kept[0] is st.labels:
        return kept[1]
    codes = code_array(st.support)
    return np.fromiter(map(st.labels.__getitem__, codes.tolist()), dtype=np.int64, count=len(codes))


#: Refinement stops early (`_refined_twin_classes`) when at most this many positions share a colour beyond the
#: least of each and those colours are twin classes (global positions: one fewer than their count).
EARLY_TWIN_CHECK = 8


def _cells_are_twin_classes(st: _Structure, found: list[list[int]]) -> bool:
    """Every cell (ascending positions) is one twin class, on its members' neighbourhoods; the cells of
    fewer arcs first, so that a cell that is not a class is found before the large ones are compared."""
    if not found:
        return True
    support, n = st.support, st.n
    assert support is not None
    outs, ins = _neighbours_of(support, sum(map(len, found)))
    for cell in sorted(found, key=lambda c: len(outs[c[0]]) + len(ins[c[0]])):
        # a class of twins is all open (no arcs between them) or all closed (arcs both ways), so the cell
        # is one twin class exactly when the open or the closed keys make it one group (the closed keys
        # first when its first two positions are adjacent: open twins are not)
        closed = support.has_code(cell[0] * n + cell[1])
        if _exact_twins(st, cell, outs, ins, closed) != [cell] and \
                _exact_twins(st, cell, outs, ins, not closed) != [cell]:
            return False
    return True


def _with_singletons(n: int, groups: list[list[int]]) -> list[list[int]]:
    """Disjoint ascending groups and every other position alone, as one list ordered by least member."""
    lead = {g[0]: g for g in groups}
    special = sorted(set(lead).union(*(g[1:] for g in groups)))
    out: list[list[int]] = []
    at = 0
    with _no_gc():
        for u in special:
            out.extend([v] for v in range(at, u))
            if u in lead:
                out.append(lead[u])
            at = u + 1
        out.extend([v] for v in range(at, n))
    return out


@lru_cache(maxsize=32)
def _factorial(k: int) -> int:
    return math.factorial(k)


def _factorial_bits_floor(k: int) -> int:
    """S with k! >= 2^S, exactly: S = Σ_{m=2..k} (bit_length(m) - 1), in O(log k)."""
    total, b = 0, 1
    while (1 << (b - 1)) <= k:
        lo, hi = 1 << (b - 1), min((1 << b) - 1, k)
        total += (hi - lo + 1) * (b - 1)
        b += 1
    return total


def _is_factorial(order: int, k: int) -> bool:
    """order == k!, without computing k! when the bit lengths already rule it out."""
    if order.bit_length() <= _factorial_bits_floor(k):  # order < 2^S <= k!
        return False
    return order == _factorial(k)


class _Solution:
    """Twin classes, the coloured quotient and its BLISS order; |G| = ∏|C|! · |Aut(quotient)|."""

    def __init__(self, st: _Structure):
        self.st = st
        refined = _refined_twin_classes(st) if st.num_arcs >= REFINE_MIN_ARCS else None
        # the count came from colour refinement: its colours are the twin classes
        self.refined = refined is not None
        self.classes = refined if refined is not None else _twin_classes(st)
        twins = st.n - len(self.classes)  # positions beyond the least of their class
        sizes = Counter(filter((1).__lt__, map(len, self.classes)))  # classes of ≥ 2
        in_classes = 1
        for size, count in sizes.items():
            in_classes *= _factorial(size) ** count
        self._quotient: Optional[tuple] = None
        if self.refined:
            # every automorphism keeps each refined colour, and the colours are the twin classes: G = ∏ Sym(C),
            # the quotient's group is trivial (docs/theory.md §11.6 SYM-AUT, "Colour refinement first")
            self.q_order = 1
        elif 0 < twins <= MAX_TWINS_ON_SUPPORT and st.labels is None and st.num_arcs >= NUMPY_PRESERVE_ARCS:
            # A few twins in a large graph: BLISS runs on the support itself (the igraph the analysis
            # has already) with every twin but the least of its class in a colour of its own, and the
            # quotient, an induced subgraph as large as the support, is made only if its generators or
            # orbits are asked for. The count is |H| for H = the σ ∈ G keeping that set T of twins,
            # and |H| = ∏(|C| − 1)! · |Aut(quotient)| (docs/theory.md §11.6 SYM-AUT, "Twins pinned").
            g = to_igraph(st.support)
            base = [0] * st.n
            for members in self.classes:
                for v in members[1:]:
                    base[v] = 1
            with _no_gc():
                colours = base if _degrees_spread(st.support) else _invariant_colours(g, base, st.support)
            pinned = count_automorphisms(g, color=colours)
            kept = 1
            for size, count in sizes.items():
                kept *= _factorial(size - 1) ** count
            self.q_order, rest = divmod(pinned, kept)
            if rest:
                raise AssertionError("internal error: BLISS's count is not a multiple of ∏(|C| − 1)!")
        elif st.num_arcs >= NUMPY_PRESERVE_ARCS and _degrees_spread(st.support):
            # degrees alone separate most positions (random arcs): BLISS counts on the quotient's own colours;
            # the distance invariant (the same count) is made only if the names or generators ask for it
            qgraph, colours = self._raw_quotient = _quotient(st, self.classes)
            self.q_order = count_automorphisms(qgraph, color=colours)
        else:
            self._make_quotient()
            self.q_order = count_automorphisms(self.qgraph, color=self.qcolours)
        self.order = self.q_order * in_classes
        self._qgens: Optional[list] = None

    _raw_quotient: Optional[tuple] = None

    def _make_quotient(self) -> None:
        st = self.st
        qgraph, colours = self._raw_quotient or _quotient(st, self.classes)
        # no twins and no labels: the quotient is the support's own igraph, and its arc arrays serve
        same = len(self.classes) == st.n and qgraph is _derived(st.support).get("igraph")  # made by _quotient if so
        with _no_gc():
            qcolours = _invariant_colours(qgraph, colours, st.support if same else None)
        self._quotient = (qgraph, qcolours)

    @property
    def qgraph(self):
        """The coloured twin quotient (igraph), made on first use."""
        if self._quotient is None:
            self._make_quotient()
        assert self._quotient is not None
        return self._quotient[0]

    @property
    def qcolours(self) -> list[int]:
        """The quotient's vertex colours (refined by `_invariant_colours`), made on first use."""
        if self._quotient is None:
            self._make_quotient()
        assert self._quotient is not None
        return self._quotient[1]

    def quotient_generators(self) -> list:
        """BLISS's generators of Aut(quotient), as permutations of the class indices (cached)."""
        if self._qgens is None:
            q = len(self.classes)
            raw = (bliss.generators(self.qgraph, self.qcolours)
                   if self.q_order > 1 else [])
            self._qgens = [tuple(g[:q]) for g in raw]
        return self._qgens

    def orbits(self) -> tuple[int, ...]:
        """The least member (0-based) of each position's G-orbit, without listing G's generators: a twin
        class lies in one orbit, and the quotient's automorphisms (BLISS generators on the classes) join
        classes; G is generated by Sym(C) for the classes and those generators lifted (``generators``). The
        generators are read one at a time into a union-find on arrays (`_orbit_roots`)."""
        classes = self.classes
        root = _orbit_roots(len(classes), bliss.each_generator(self.qgraph, self.qcolours)) if self.q_order > 1 \
            else list(range(len(classes)))
        least: dict[int, int] = {}
        for k, members in enumerate(classes):
            least[root[k]] = min(least.get(root[k], self.st.n), min(members))
        out = [0] * self.st.n
        for k, members in enumerate(classes):
            for v in members:
                out[v] = least[root[k]]
        return tuple(out)

    def generators(self) -> Optional[tuple[tuple[int, ...], ...]]:
        """Generators of G (None beyond ``MAX_GENERATOR_ENTRIES``): Sym(C) for each twin class
        (a transposition and a cycle) and BLISS's quotient generators lifted class by class."""
        n, classes, q_order = self.st.n, self.classes, self.q_order
        # BLISS's generators each enlarge the group, so there are at most log2 |Aut(quotient)|
        in_class = sum((1 if len(m) == 2 else 2) for m in classes if len(m) >= 2)
        if (in_class + q_order.bit_length()) * n > MAX_GENERATOR_ENTRIES:
            return None
        qgens = self.quotient_generators()
        gens: list[tuple[int, ...]] = []
        ident = list(range(1, n + 1))
        for members in classes:
            if len(members) >= 2:
                p = ident[:]
                p[members[0]], p[members[1]] = members[1] + 1, members[0] + 1
                gens.append(tuple(p))
                if len(members) >= 3:
                    p = ident[:]
                    for a, b in zip(members, members[1:] + members[:1]):
                        p[a] = b + 1
                    gens.append(tuple(p))
        for qg in qgens:
            if len(classes) == n:  # classes are [0], [1], ...: the generator itself
                p = [k + 1 for k in qg]
            else:
                p = [0] * n
                for k, members in enumerate(classes):
                    for a, b in zip(members, classes[qg[k]]):
                        p[a] = b + 1
            if p != ident:
                gens.append(tuple(p))
        return tuple(gens)


# ---------------------------------------------------------------------------------------------
# Names

def _name(n: int, order: int, st: _Structure, classes: list[list[int]]):
    """(name, standard generators) when G is exactly a named group, else (None, None).

    Priority when names coincide at small n: S_n, trivial, C_n, D_n, reflection, stabilizer K.
    """
    if _is_factorial(order, n):
        return NamedGroup.SYMMETRIC, symmetric_generators(list(range(1, n + 1)), n)
    if order == 1:
        return NamedGroup.TRIVIAL, ()
    rot_ok = None
    if order == n and n >= 3:
        rot_ok = st.preserves(rotation(n))
        if rot_ok:  # <rotation> has order n = |G|
            return NamedGroup.CYCLIC, (rotation(n),)
    if order == 2 * n and n >= 3:
        if rot_ok is None:
            rot_ok = st.preserves(rotation(n))
        if rot_ok and st.preserves(reflection(n)):  # <rotation, reflection> = D_n, order 2n
            return NamedGroup.DIHEDRAL, (rotation(n), reflection(n))
    if order == 2 and st.preserves(reflection(n)):
        return NamedGroup.REFLECTION, (reflection(n),)
    if n >= 3 and _is_factorial(order, n - 1):
        # G ⊇ Sym(C) for a twin class C of size n - 1, and |G| = (n-1)! forces G = Stab(K)
        big = [m for m in classes if len(m) == n - 1]
        if big:
            members = set(big[0])
            k = next(v for v in range(n) if v not in members) + 1
            return f"stabilizer {k}", symmetric_generators([v + 1 for v in big[0]], n)
    return None, None


# ---------------------------------------------------------------------------------------------
# Public API

def symmetry_group(graphs: Sequence[PatternGraph],
                   biases: Optional[Sequence[Optional[str]]] = None,
                   positional: str = "none") -> SymmetryGroup:
    """G = ∩_h Aut(Γ_h, bias_h) ∩ Stab(PE): order, generators and name, exactly."""
    st = _structure(graphs, biases, positional)
    n = st.n
    if st.trivial:
        name = NamedGroup.SYMMETRIC if n == 1 else NamedGroup.TRIVIAL
        return SymmetryGroup(n, 1, name, (), st.reason)
    if not st.num_arcs:  # no constraint at all: every head complete and unbiased
        return SymmetryGroup(n, math.factorial(n), NamedGroup.SYMMETRIC,
                             symmetric_generators(list(range(1, n + 1)), n), "no constraint")
    sol = _Solution(st)
    order, classes = sol.order, sol.classes
    # the name is decided by the exact order and exact membership checks of its generators; a
    # named group keeps its standard generators and BLISS's second search is not needed
    name, gens = _name(n, order, st, classes)
    if gens is None:
        gens = sol.generators()
    if gens is not None:
        # self-check: a generator outside G would be a wrong equivariance claim
        budget = MAX_GENERATOR_ENTRIES * 10
        if len(gens) * max(1, st.num_arcs) <= budget:
            bad = [p for p in gens if not st.preserves(p)]
            if bad:
                raise AssertionError(f"internal error: computed generator {bad[0]} is not in G")
    method = (f"colour refinement, whose colours are the twin classes ({len(classes)} classes; {st.reason})"
              if sol.refined else f"BLISS on the twin quotient ({len(classes)} classes; {st.reason})")
    parts = None
    if name is None or name.startswith("stabilizer"):
        reflected = _quotient_is_reflection(classes, gens, sol.q_order)
        # Q's generators only when BLISS lists few (at most log2 |Q| of them, each on the classes)
        listed = sol.q_order.bit_length() * len(classes) <= MAX_GENERATOR_ENTRIES
        qgens = sol.quotient_generators() if sol.q_order > 1 and not reflected and listed and \
            len(classes) <= MAX_NAMED_CLASSES else None
        parts = typed_structure(n, classes, sol.q_order, reflected, qgens,
                                sol.qcolours[:len(classes)] if sol.q_order > 1 else None)
    return SymmetryGroup(n, order, name, gens, method, None if parts is None else parts.text,
                         factorial_order_text(classes, sol.q_order), parts, factorial_order_latex(classes, sol.q_order),
                         orbit_of=sol.orbits() if gens is None and _orbits_fit(sol) else None,
                         orbits_why=_orbits_refused(sol) if gens is None and not _orbits_fit(sol) else "")


def orbit_entries_bound() -> int:
    """The most entries (bits of |Aut(quotient)| × classes) for which the orbits are read from BLISS's generators:
    MAX_ORBIT_ENTRIES, or a quarter of the file's memory limit at ORBIT_BYTES_PER_ENTRY each when that is more."""
    from .. import budget
    return max(MAX_ORBIT_ENTRIES, budget.memory_bytes // 4 // ORBIT_BYTES_PER_ENTRY)


def _orbits_fit(sol: "_Solution") -> bool:
    """Whether the orbits may be read from BLISS's generators of the quotient: it lists them all at once, at most
    log2 |Aut(quotient)| of them on the classes, so (bits of the order) × (classes) entries bound the list
    (random(1, seed=0) at 65,536 positions: 746 bits × 61,536 classes, 1.4 GB at once); they are read one at a time
    into arrays (`_orbit_roots`). Beyond `orbit_entries_bound` the orbits are unknown and the rooted views say so,
    naming the size (`_orbits_refused`)."""
    return _orbit_entries(sol) <= orbit_entries_bound()


def _orbit_entries(sol: "_Solution") -> int:
    """A bound on BLISS's list of the quotient's generators: each generator enlarges the group, so they are at most
    log2 |Aut(quotient)| and at most the longest chain of subgroups of S_q, below 3q/2 (Cameron, Solomon and Turull,
    J. Algebra 127, 1989), each on the q classes."""
    q = len(sol.classes)
    return min(sol.q_order.bit_length(), (3 * q + 1) // 2) * q


def _orbits_refused(sol: "_Solution") -> str:
    from .. import budget
    entries = _orbit_entries(sol)
    return (f"BLISS lists the generators of the twin quotient's group all at once: up to {entries // len(sol.classes):,} "
            f"generators (the bits of its order, and 3q/2 for q classes) × {len(sol.classes):,} twin classes = "
            f"{entries:,} entries (about "
            f"{entries * ORBIT_BYTES_PER_ENTRY / 2 ** 30:.1f} GiB), above the bound {orbit_entries_bound():,} for the "
            f"{budget.memory_budget_text()} (a quarter of it, at {ORBIT_BYTES_PER_ENTRY} bytes an entry)")


def _orbit_roots(size: int, generators) -> list[int]:
    """The least member of each point's orbit under the permutations ``generators`` of 0..size − 1 (each a list of
    images, possibly longer: its first ``size`` entries are read), by a union-find on arrays, one generator at a time:
    each generator joins k and g(k) for every moved k. Parents only point to smaller points (a root is hooked under a
    smaller root), so the structure stays a forest; each round hooks at least one root, and the rounds end when every
    pair has one root."""
    import numpy as np
    parent = np.arange(size, dtype=np.int64)

    def compress() -> None:
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                return
            parent[:] = up
    for gen in generators:
        image = np.fromiter(gen, dtype=np.int64, count=size)
        moved = np.flatnonzero(image != np.arange(size, dtype=np.int64))
        a, b = moved, image[moved]
        del image
        while a.size:
            compress()
            ra, rb = parent[a], parent[b]
            apart = ra != rb
            a, b, ra, rb = a[apart], b[apart], ra[apart], rb[apart]
            if a.size:
                np.minimum.at(parent, np.maximum(ra, rb), np.minimum(ra, rb))
    compress()
    return parent.tolist()


def _quotient_is_reflection(classes: list[list[int]], gens, q_order: int) -> bool:
    """|Aut(quotient)| = 2 and some generator keeps every twin class and reverses the singletons."""
    if q_order != 2 or not gens:
        return False
    singles = [m[0] for m in classes if len(m) == 1]
    if len(singles) < 2:
        return False
    for g in gens:
        if all(g[s] - 1 == singles[-1 - k] for k, s in enumerate(singles)) and \
                all({g[v] - 1 for v in m} == set(m) for m in classes if len(m) > 1):
            return True
    return False


def pattern_structure(graphs: Sequence[PatternGraph]) -> "_Structure":
    """The unlabelled heads' structure; ``.preserves(perm)`` tests membership in ⋂_h Aut(Γ_h)
    (built once, so that many membership tests do not rebuild it)."""
    return _structure(graphs, None, "none")


def is_automorphism(perm: Sequence[int], graphs: Sequence[PatternGraph],
                    biases: Optional[Sequence[Optional[str]]] = None,
                    positional: str = "none") -> bool:
    """True iff perm ([σ(1), ..., σ(n)], 1-based) preserves every head (with its bias) and the PE."""
    return _structure(graphs, biases, positional).preserves(perm)


def verify_group(group: SymmetryGroup, graphs: Sequence[PatternGraph],
                 biases: Optional[Sequence[Optional[str]]] = None,
                 positional: str = "none") -> bool:
    """Re-check that every listed generator lies in G (the order is BLISS's, not re-derived)."""
    if group.generators is None:
        return False
    st = _structure(graphs, biases, positional)
    return all(st.preserves(p) for p in group.generators)


def automorphisms_of_graph(graph: PatternGraph) -> Optional[list[tuple[int, ...]]]:
    """Generators of Aut(graph) for a single unlabelled digraph (None if too many to list)."""
    st = _structure([graph], None, "none")
    if not st.num_arcs:
        return [tuple(p) for p in symmetric_generators(list(range(1, graph.n + 1)), graph.n)]
    gens = _Solution(st).generators()
    return None if gens is None else list(gens)


def group_structure(graphs: Sequence[PatternGraph], biases: Optional[Sequence[Optional[str]]] = None,
                    positional: str = "none") -> "_Structure":
    """The structure G = ∩_h Aut(Γ_h, bias_h) ∩ Stab(PE) is read from; its `preserves` tests membership."""
    return _structure(graphs, biases, positional)
