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
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Optional, Sequence

import igraph as ig

from .build import PatternGraph, _no_gc

BIAS_KINDS = ("free", "circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz")
POSITIONAL_KINDS = ("none", "absolute")

#: Generators are listed only while (number of generators) × n stays below this.
MAX_GENERATOR_ENTRIES = 5_000_000
#: BLISS splitting heuristic (first largest maximally non-equitable cell).
SPLITTING = "flm"


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
    """Arc codes with joint labels (0 .. L-1); ``trivial`` when G = {id} is known upfront."""

    def __init__(self, n: int, labels: dict[int, int], num_labels: int, trivial: bool,
                 reason: str):
        self.n = n
        self.labels = labels
        self.num_labels = num_labels
        self.trivial = trivial
        self.reason = reason
        self._arrays: Optional[tuple[list[int], list[int], list[int]]] = None

    def arrays(self) -> tuple[list[int], list[int], list[int]]:
        """Sources, targets (0-based) and labels of the arcs, in ``labels`` order (cached)."""
        if self._arrays is None:
            n = self.n
            with _no_gc():
                js = [c // n for c in self.labels]
                is_ = [c % n for c in self.labels]
            self._arrays = (js, is_, list(self.labels.values()))
        return self._arrays

    def preserves(self, perm: Sequence[int]) -> bool:
        """perm: 1-based images.  True iff every labelled arc maps to an arc of the same label."""
        n = self.n
        if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
            return False
        if self.trivial:
            return all(perm[k] == k + 1 for k in range(n))
        js, is_, labs = self.arrays()
        row = [(p - 1) * n for p in perm]
        col = [p - 1 for p in perm]
        with _no_gc():
            images = [row[j] + col[i] for j, i in zip(js, is_)]
        if self.num_labels <= 1:  # σ is a bijection: arcs to arcs suffices
            return self.labels.keys() >= set(images)
        get = self.labels.get
        return all(get(c) == lab for c, lab in zip(images, labs))


def _structure(graphs: Sequence[PatternGraph], biases: Optional[Sequence[Optional[str]]],
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
        if b is not None and b not in BIAS_KINDS:
            raise ValueError(f"unknown bias kind {b!r}")
    if positional not in POSITIONAL_KINDS:
        raise ValueError(f"unknown positional encoding {positional!r}")
    if positional == "absolute":
        return _Structure(n, {}, 0, True, "absolute positional encoding")
    if "free" in biases:
        return _Structure(n, {}, 0, True, "free bias")
    # one layer per distinct (head graph, bias); identical heads give identical constraints
    layers: list[tuple[frozenset[int], Optional[str]]] = []
    seen: set = set()
    for g, b in zip(graphs, biases):
        if g.complete:
            if b is None:
                continue  # a complete unbiased head is preserved by every permutation
            codes, kind = _class_one_arcs(b, n), None
        else:
            codes, kind = g.codes, b
        key = (codes, kind)
        if key not in seen:
            seen.add(key)
            layers.append(key)
    with _no_gc():
        if len(layers) == 1 and layers[0][1] is None:
            labels = dict.fromkeys(layers[0][0], 0)
            return _Structure(n, labels, 1 if labels else 0, False, "one head")
        joint: dict[int, tuple] = defaultdict(tuple)
        for h, (codes, kind) in enumerate(layers):
            for c in codes:
                j0, i0 = divmod(c, n)
                joint[c] += ((h, _bias_class(kind, n, j0, i0)),)
        ids: dict[tuple, int] = {}
        labels = {c: ids.setdefault(lab, len(ids)) for c, lab in joint.items()}
    return _Structure(n, labels, len(ids), False, f"{len(layers)} labelled layer(s)")


# ---------------------------------------------------------------------------------------------
# Twin classes, quotient, BLISS

def _neighbourhoods(st: _Structure) -> tuple[list[list[int]], list[list[int]], int]:
    """Per position, its out- and in-neighbours encoded as v * L + label (L = number of labels)."""
    n = st.n
    big = max(1, st.num_labels)
    outs: list[list[int]] = [[] for _ in range(n)]
    ins: list[list[int]] = [[] for _ in range(n)]
    js, is_, labs = st.arrays()
    with _no_gc():
        if big == 1:
            for j0, i0 in zip(js, is_):
                outs[j0].append(i0)
                ins[i0].append(j0)
        else:
            for j0, i0, lab in zip(js, is_, labs):
                outs[j0].append(i0 * big + lab)
                ins[i0].append(j0 * big + lab)
    return outs, ins, big


def _twin_classes(st: _Structure):
    """Classes of positions u ~ v with (u v) ∈ G, each sorted, 0-based (with the encoded
    out-neighbourhoods and the label base, reused for the quotient).

    u, v are twins iff their labelled out- and in-neighbourhoods agree outside {u, v}: either both
    are non-adjacent with equal neighbourhoods ("F" keys), or u -> v and v -> u carry the same
    label ℓ and the neighbourhoods agree once each vertex is added to its own ("T" keys, one per ℓ).
    A cheap key (sizes and sums) is compared first; exact sorted keys only within its collisions.
    """
    n = st.n
    outs, ins, big = _neighbourhoods(st)
    cheap: dict[tuple, list[int]] = defaultdict(list)
    with _no_gc():
        for u in range(n):
            o, i = outs[u], ins[u]
            so, si = sum(o), sum(i)
            cheap[("F", len(o), so, len(i), si)].append(u)
            both = set(o).intersection(i)
            if both:
                self_code = u * big
                for lab in {e % big for e in both}:
                    t = self_code + lab
                    cheap[("T", lab, len(o), so + t, len(i), si + t)].append(u)
        groups: list[list[int]] = []
        for key, members in cheap.items():
            if len(members) < 2:
                continue
            exact: dict[tuple, list[int]] = defaultdict(list)
            for u in members:
                o, i = outs[u], ins[u]
                if key[0] == "F":
                    exact[(tuple(sorted(o)), tuple(sorted(i)))].append(u)
                else:
                    t = u * big + key[1]
                    exact[(tuple(sorted(o + [t])), tuple(sorted(i + [t])))].append(u)
            groups.extend(m for m in exact.values() if len(m) > 1)
    parent = list(range(n))

    def find(x: int) -> int:
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
    classes: dict[int, list[int]] = defaultdict(list)
    for u in range(n):
        classes[find(u)].append(u)
    return sorted(classes.values()), outs, big


def _encode(num_vertices: int, vertex_colours: list[int], arcs: dict[tuple[int, int], int]):
    """A coloured igraph: the most frequent arc label stays plain, the others are subdivided."""
    counts = Counter(arcs.values())
    plain = counts.most_common(1)[0][0] if counts else None
    colours = list(vertex_colours)
    if len(counts) <= 1:
        return ig.Graph(n=num_vertices, edges=list(arcs), directed=True), colours
    base = max(vertex_colours, default=-1) + 1
    other = sorted(lab for lab in counts if lab != plain)
    colour_of_label = {lab: base + k for k, lab in enumerate(other)}
    edges: list[tuple[int, int]] = []
    nxt = num_vertices
    with _no_gc():
        for (a, b), lab in arcs.items():
            if lab == plain:
                edges.append((a, b))
            else:
                edges.append((a, nxt))
                edges.append((nxt, b))
                colours.append(colour_of_label[lab])
                nxt += 1
    return ig.Graph(n=nxt, edges=edges, directed=True), colours


def _solve(st: _Structure, want_generators: bool = True):
    """(order, generators or None, twin classes) of the structure's group."""
    n = st.n
    classes, outs, big = _twin_classes(st)
    q = len(classes)
    cls_of = [0] * n
    for k, members in enumerate(classes):
        for u in members:
            cls_of[u] = k
    # quotient: vertex k = class k, coloured by (size, internal label); arcs from representatives
    kinds: dict[tuple, int] = {}
    colours = []
    for members in classes:
        internal = (st.labels.get(members[1] * n + members[0]) if len(members) > 1 else None)
        colours.append(kinds.setdefault((len(members), internal), len(kinds)))
    with _no_gc():
        if big == 1:  # one label: plain arcs, no subdivision
            if q == n:
                edges = [(u, v) for u in range(n) for v in outs[u]]
            else:
                edges = list({(k, cls_of[v]) for k, members in enumerate(classes)
                              for v in outs[members[0]] if cls_of[v] != k})
            qgraph, qcolours = ig.Graph(n=q, edges=edges, directed=True), colours
        else:
            qarcs: dict[tuple[int, int], int] = {}
            for k, members in enumerate(classes):
                for e in outs[members[0]]:
                    v, lab = divmod(e, big)
                    if cls_of[v] != k:
                        qarcs[(k, cls_of[v])] = lab
            qgraph, qcolours = _encode(q, colours, qarcs)
    q_order = qgraph.count_automorphisms(sh=SPLITTING, color=qcolours)
    order = q_order
    for members in classes:
        if len(members) > 1:
            order *= math.factorial(len(members))
    if not want_generators:
        return order, None, classes
    # BLISS's generators each enlarge the group, so there are at most log2 |Aut(quotient)|
    in_class = sum((1 if len(m) == 2 else 2) for m in classes if len(m) >= 2)
    if (in_class + q_order.bit_length()) * n > MAX_GENERATOR_ENTRIES:
        return order, None, classes
    qgens = qgraph.automorphism_group(sh=SPLITTING, color=qcolours) if q_order > 1 else []
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
        p = [0] * n
        for k, members in enumerate(classes):
            for a, b in zip(members, classes[qg[k]]):
                p[a] = b + 1
        if p != ident:
            gens.append(tuple(p))
    return order, tuple(gens), classes


# ---------------------------------------------------------------------------------------------
# Names

def rotation(n: int) -> tuple[int, ...]:
    """i ↦ i + 1 mod n, as images [σ(1), ..., σ(n)]."""
    return tuple(list(range(2, n + 1)) + [1])


def reflection(n: int) -> tuple[int, ...]:
    """i ↦ n + 1 - i."""
    return tuple(range(n, 0, -1))


def _symmetric_generators(points: list[int], n: int) -> tuple[tuple[int, ...], ...]:
    """Generators of the symmetric group on ``points`` (1-based), fixing the others."""
    if len(points) < 2:
        return ()
    ident = list(range(1, n + 1))
    t = ident[:]
    t[points[0] - 1], t[points[1] - 1] = points[1], points[0]
    if len(points) == 2:
        return (tuple(t),)
    c = ident[:]
    for a, b in zip(points, points[1:] + points[:1]):
        c[a - 1] = b
    return (tuple(t), tuple(c))


def _name(n: int, order: int, st: _Structure, classes: list[list[int]]):
    """(name, standard generators) when G is exactly a named group, else (None, None).

    Priority when names coincide at small n: S_n, trivial, C_n, D_n, reflection, stabilizer K.
    """
    if order == math.factorial(n):
        return "S_n", _symmetric_generators(list(range(1, n + 1)), n)
    if order == 1:
        return "trivial", ()
    rot_ok = None
    if order == n and n >= 3:
        rot_ok = st.preserves(rotation(n))
        if rot_ok:  # <rotation> has order n = |G|
            return "C_n", (rotation(n),)
    if order == 2 * n and n >= 3:
        if rot_ok is None:
            rot_ok = st.preserves(rotation(n))
        if rot_ok and st.preserves(reflection(n)):  # <rotation, reflection> = D_n, order 2n
            return "D_n", (rotation(n), reflection(n))
    if order == 2 and st.preserves(reflection(n)):
        return "reflection", (reflection(n),)
    if n >= 3 and order == math.factorial(n - 1):
        # G ⊇ Sym(C) for a twin class C of size n - 1, and |G| = (n-1)! forces G = Stab(K)
        big = [m for m in classes if len(m) == n - 1]
        if big:
            k = next(v for v in range(n) if v not in set(big[0])) + 1
            return f"stabilizer {k}", _symmetric_generators([v + 1 for v in big[0]], n)
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
        name = "S_n" if n == 1 else "trivial"
        return SymmetryGroup(n, 1, name, (), st.reason)
    if not st.labels:  # no constraint at all: every head complete and unbiased
        return SymmetryGroup(n, math.factorial(n), "S_n",
                             _symmetric_generators(list(range(1, n + 1)), n), "no constraint")
    order, gens, classes = _solve(st)
    if gens is not None:
        # self-check: a generator outside G would be a wrong equivariance claim
        budget = MAX_GENERATOR_ENTRIES * 10
        if len(gens) * max(1, len(st.labels)) <= budget:
            bad = [p for p in gens if not st.preserves(p)]
            if bad:
                raise AssertionError(f"internal error: computed generator {bad[0]} is not in G")
    name, named_gens = _name(n, order, st, classes)
    if named_gens is not None:
        gens = named_gens
    method = f"BLISS on the twin quotient ({len(classes)} classes; {st.reason})"
    return SymmetryGroup(n, order, name, gens, method)


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
    if not st.labels:
        return [tuple(p) for p in _symmetric_generators(list(range(1, graph.n + 1)), graph.n)]
    _, gens, _ = _solve(st)
    return None if gens is None else list(gens)
