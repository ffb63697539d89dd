"""Per-layer patterns: connectivity within m layers and the least m (docs/theory.md §21).

The paper's sparse family (Definition 4) has a pattern per layer, Φ = (N_1, N_2, …): attention layer
ℓ uses N_ℓ (one graph per head). Conventions as in ``uapcheck.graphs``: positions 1-based in every
public value, the arc j → i when query i attends to key j, every position sees itself.

**Reach.** After m layers the output at i depends on x_j iff there is a path j = p_0 → … → p_k = i
whose arcs come from layers l_1 < … < l_k ≤ m (the residual keeps a state through the layers
between). With In_ℓ(i) the set of such j for m = ℓ: In_0(i) = {i} and
In_ℓ(i) = ∪_{u ∈ N_ℓ(i)} In_{ℓ−1}(u) (N_ℓ(i) the union over heads, i included). Φ is *connected
within m layers* iff In_m(i) = [n] for every i; D_Φ is the least such m.

**Views.** For a position i and a depth m let V_m = {i} and V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v): the
positions whose state after layer ℓ − 1 enters the output at i. A *view witness* at depth m is a
position i and σ ∉ G = ⋂_{ℓ, h} Aut(N_{ℓ,h}) with σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v) for every layer
ℓ ≤ m, every v ∈ V_ℓ and every head h. By §21.3, m ≥ D_Φ layers give the G-UAP iff no view witness
exists at depth m, and a witness at depth m + 1 is one at depth m (so the least m is the first
m ≥ D_Φ without a witness). The decision uses rooted views as in ``views.py``: R_i^m has the arcs
u → v of layer ℓ with v ∈ V_ℓ, labelled by the set of (ℓ, head) containing them, and colours
v by the largest ℓ with v ∈ V_ℓ; σ is a witness at i iff it is an isomorphism R_i^m → R_σ(i)^m.
Every witness is re-checked on the arcs by the definition (no BLISS).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..bignum import count_automorphisms
from .build import PatternGraph, _derived, code_endpoints
from . import labelled_twins, view_twins
from .layers_runs import ReachPlan, grown_views, masks_of, positions, reach_plan, reach_step
from .. import bliss

#: Above this many (layer, head) arcs summed over the depths tried, the view decision reports undecided.
MAX_VIEW_WORK = 20_000_000


@dataclass(frozen=True)
class LayerSequence:
    """Φ on n positions: ``layers[q]`` holds the head graphs of layer q + 1 (0-based q < len(layers)).
    ``periodic``: layer ℓ uses ``layers[(ℓ − 1) mod p]`` for every ℓ; otherwise the network has exactly
    ``len(layers)`` attention layers."""
    n: int
    layers: tuple[tuple[PatternGraph, ...], ...]
    periodic: bool

    @property
    def period(self) -> int:
        return len(self.layers)

    @property
    def depth(self) -> Optional[int]:
        """The number of attention layers of a finite sequence (None: periodic, any depth)."""
        return None if self.periodic else len(self.layers)

    def at(self, layer: int) -> tuple[PatternGraph, ...]:
        """The head graphs of attention layer ``layer`` (1-based)."""
        if self.periodic:
            return self.layers[(layer - 1) % self.period]
        return self.layers[layer - 1]

    def distinct_graphs(self) -> list[PatternGraph]:
        return list(dict.fromkeys(g for layer in self.layers for g in layer))


class _InLists:
    """0-based in-neighbour lists per (layer index q, head h) and their union per q (v excluded)."""

    def __init__(self, seq: LayerSequence):
        n = seq.n
        self.n = n
        self.heads: list[list[list[frozenset]]] = []
        self.union: list[list[frozenset]] = []
        unions: dict = {}
        for layer in seq.layers:
            per_head = [_in_sets(g) for g in layer]
            self.heads.append(per_head)
            key = tuple(id(h) for h in per_head)  # the lists live as long as their graphs (seq holds them)
            if key not in unions:  # one head: its own sets (immutable), else one union per position
                unions[key] = per_head[0] if len(per_head) == 1 else \
                    [frozenset().union(*(h[v] for h in per_head)) for v in range(n)]
            self.union.append(unions[key])
        self.graphs = [tuple(layer) for layer in seq.layers]
        self._kept: dict = {}
        self._dense: Optional[bool] = None

    def plan(self, q: int) -> ReachPlan:
        """Layer index q's in-sets as runs for the reach step (layers_runs.py), made once per union list."""
        return self._made("reach plan", q, reach_plan)

    def dense(self) -> bool:
        """Whether the layers' in-sets are dense enough to be held as bitsets beside the sets (about n²/16 bytes per
        layer, at most a fifth more than the sets themselves): at least n²/128 in-neighbour entries per layer."""
        if self._dense is None:
            distinct = {id(u): u for u in self.union}.values()
            self._dense = all(128 * sum(len(s) for s in u) >= self.n * self.n for u in distinct)
        return self._dense

    def masks(self, q: int) -> list[int]:
        """Layer index q's in-sets (of every head, v excluded) as bitsets, made once per union list."""
        return self._made("in masks", q, masks_of)

    def _made(self, what: str, q: int, make: Callable):
        """make(union of layer index q), kept with this object per union list and, for a layer of one head, with its
        graph's derived data (the union is then the graph's own in-sets: every pass over a sequence shares it)."""
        union = self.union[q]
        graphs = self.graphs[q]
        store = _derived(graphs[0]) if len(graphs) == 1 else self._kept
        key = what if len(graphs) == 1 else (what, id(union))
        got = store.get(key)
        if got is None:
            got = store[key] = make(union)
        return got


def _in_sets(g: PatternGraph) -> list[frozenset]:
    """The 0-based in-neighbours of every position of ``g`` (v excluded), made once per graph (kept with the
    graph's other derived data: every reach, connectivity and least-layers pass over a sequence reads them)."""
    cache = _derived(g)
    got = cache.get("in sets")
    if got is None:
        n = g.n
        if g.complete:
            got = [frozenset(range(n)) - {v} for v in range(n)]
        else:  # the sources grouped by target: a stable sort of the sorted codes' targets, then one slice each
            import numpy as np
            src, dst = code_endpoints(g)
            order = np.argsort(dst, kind="stable")
            srcs = src[order].tolist()
            ends = np.searchsorted(dst[order], np.arange(n + 1)).tolist()
            got = [frozenset(srcs[ends[v]:ends[v + 1]]) for v in range(n)]
        cache["in sets"] = got
    return got


# ---------------------------------------------------------------------------------------------
# Reach: connectivity within m layers


def reach_sets(seq: LayerSequence, layers: int, start: int = 0, lists: Optional[_InLists] = None) -> list[int]:
    """In(i) as bitsets (bit j − 1 for position j) after ``layers`` layers, starting with layer start + 1."""
    lists = lists or _InLists(seq)
    n, p = seq.n, seq.period
    cur = [1 << v for v in range(n)]
    for t in range(layers):
        cur = reach_step(cur, lists.plan((start + t) % p))
    return cur


@dataclass(frozen=True)
class Reach:
    """``depth``: D_Φ, the least m with Φ connected within m layers (None: never, or not within the
    sequence). ``missing``: for ``depth`` None, a pair (i, j) with x_j not reaching i; for a depth
    D ≥ 1, a pair (i, j) with x_j not reaching i within D − 1 layers (so D is least).
    ``closed``: for a periodic Φ that is never connected, the positions reaching i (closed under the
    in-arcs of every layer)."""
    depth: Optional[int]
    missing: Optional[tuple[int, int]]
    closed: Optional[frozenset] = None
    limit: Optional[int] = None  # the depth examined (a finite sequence or a budget)


def connectivity(seq: LayerSequence, limit: Optional[int] = None, start: int = 0,
                 lists: Optional[_InLists] = None) -> Reach:
    """D_Φ for Φ started at layer start + 1 (the least m with every In_m(i) = [n]), within ``limit``
    layers (a finite sequence's depth or a budget; None: unbounded for a periodic Φ). Kept with ``lists`` (the
    covering depth and the covering lemma ask the same starts)."""
    lists = lists or _InLists(seq)
    key = ("connectivity", limit, start % seq.period if seq.periodic else start)
    got = lists._kept.get(key)
    if got is None:
        got = lists._kept[key] = _connectivity(seq, limit, start, lists)
    return got


def _connectivity(seq: LayerSequence, limit: Optional[int], start: int, lists: _InLists) -> Reach:
    n, p = seq.n, seq.period
    full = (1 << n) - 1
    if limit is None and not seq.periodic:
        limit = seq.depth
    cur = [1 << v for v in range(n)]
    prev_missing = _first_missing(cur, full)
    if prev_missing is None:
        return Reach(0, None, limit=limit)
    unchanged = 0
    m = 0
    while limit is None or m < limit:
        nxt = reach_step(cur, lists.plan((start + m) % p))
        m += 1
        unchanged = unchanged + 1 if nxt == cur else 0
        cur = nxt
        missing = _first_missing(cur, full)
        if missing is None:
            return Reach(m, prev_missing, limit=limit)
        prev_missing = missing
        if seq.periodic and unchanged >= p:
            i, j = missing
            closed = frozenset(v + 1 for v in range(n) if cur[i - 1] >> v & 1)
            return Reach(None, missing, closed, limit=limit)
    return Reach(None, prev_missing, limit=limit)


def _first_missing(sets: list[int], full: int) -> Optional[tuple[int, int]]:
    for i0, s in enumerate(sets):
        if s != full:
            rest = full & ~s
            j0 = (rest & -rest).bit_length() - 1
            return (i0 + 1, j0 + 1)
    return None


def verify_unreached(seq: LayerSequence, i: int, j: int, layers: int) -> bool:
    """x_j does not reach i within ``layers`` layers (recomputed by the recurrence, plain Python)."""
    return not (reach_sets(seq, layers)[i - 1] >> (j - 1) & 1)


def verify_connected(seq: LayerSequence, layers: int) -> bool:
    full = (1 << seq.n) - 1
    return all(s == full for s in reach_sets(seq, layers))


def verify_closed(seq: LayerSequence, i: int, j: int, closed: frozenset) -> bool:
    """``closed`` contains i, not j, and no arc of any layer's head enters it from outside."""
    if i not in closed or j in closed:
        return False
    inside = frozenset(b - 1 for b in closed)  # 0-based, as the in-sets
    for layer in seq.layers:
        for g in layer:
            if g.complete and len(closed) < seq.n:
                return False
            if not g.complete:
                ins = _in_sets(g)  # every arc a → b of g, grouped by b (the graph's own arcs)
                if any(not ins[b] <= inside for b in inside if 0 <= b < seq.n):
                    return False
    return True


# ---------------------------------------------------------------------------------------------
# Views


def view_sets(lists: _InLists, seq: LayerSequence, root0: int, m: int) -> list[set]:
    """[V_0, …, V_m] (0-based positions) for position root0 at depth m."""
    if not lists.dense():
        return _view_sets_by_arcs(lists, seq, root0, m)
    return [positions(bits) for bits in view_masks(lists, seq, root0, m)]


def view_masks(lists: _InLists, seq: LayerSequence, root0: int, m: int) -> list[int]:
    """[V_0, …, V_m] as bitsets (bit v for the 0-based position v) for position root0 at depth m: grown by the
    in-sets' bitsets where the layers are dense (layers_runs.grown_views), else in-set by in-set."""
    if not lists.dense():
        return [sum(1 << v for v in got) for got in _view_sets_by_arcs(lists, seq, root0, m)]
    return grown_views([lists.masks(q) if q < m else [] for q in range(seq.period)], seq.period, root0, m)


def _view_sets_by_arcs(lists: _InLists, seq: LayerSequence, root0: int, m: int) -> list[set]:
    sets: list[set] = [set() for _ in range(m + 1)]
    sets[m] = {root0}
    for ell in range(m, 0, -1):
        union = lists.union[(ell - 1) % seq.period]
        nxt = set(sets[ell])
        for v in sets[ell]:
            nxt.update(union[v])
        sets[ell - 1] = nxt
    return sets


def witness_condition_holds(seq: LayerSequence, perm: Sequence[int], position: int, m: int,
                            lists: Optional[_InLists] = None) -> bool:
    """σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v) for every ℓ ≤ m, v ∈ V_ℓ (of ``position``), every head h."""
    lists = lists or _InLists(seq)
    n = seq.n
    if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
        return False
    p0 = [x - 1 for x in perm]
    sets = view_sets(lists, seq, position - 1, m)
    for ell in range(1, m + 1):
        heads = lists.heads[(ell - 1) % seq.period]
        for v in sets[ell]:
            for h in heads:
                if frozenset(p0[u] for u in h[v]) != h[p0[v]]:
                    return False
    return True


@dataclass(frozen=True)
class SeqWitness:
    position: int
    depth: int
    permutation: tuple[int, ...] = field(repr=False)
    how: str

    def as_evidence(self) -> dict:
        moved = [k for k, p in enumerate(self.permutation, 1) if p != k]
        ev: dict = {"position": self.position, "depth": self.depth, "found by": self.how}
        if len(moved) == 2:
            ev["swap"] = moved
        elif len(self.permutation) <= 64:
            ev["permutation"] = list(self.permutation)
        else:
            ev["permutation (moved points)"] = {k: self.permutation[k - 1] for k in moved[:64]}
        return ev


@dataclass(frozen=True)
class SeqViewCertificate:
    """No witness at ``depth``: per G-orbit representative, |Aut(R_i)| = |Stab_G(i)|, and the
    canonical digests of the R_i pairwise distinct."""
    depth: int
    group_order: int
    representatives: tuple[int, ...]
    orbit_sizes: tuple[int, ...]
    automorphism_orders: tuple[int, ...]
    canonical_digests: tuple[str, ...]

    def as_evidence(self) -> dict:
        ev: dict = {"depth": self.depth, "G-orbits": len(self.representatives)}
        if len(self.representatives) <= 16:
            ev["per orbit"] = [{"position": i, "orbit size": s, "|Aut(rooted view)|": a,
                                "canonical form (sha256, first 16 hex)": d[:16]}
                               for i, s, a, d in zip(self.representatives, self.orbit_sizes,
                                                     self.automorphism_orders, self.canonical_digests)]
        return ev


@dataclass(frozen=True)
class SeqViewDecision:
    sufficient: Optional[bool]
    witness: Optional[SeqWitness] = None
    certificate: Optional[SeqViewCertificate] = None
    reason: str = ""


class _RootedLayerView:
    """R_i^m for BLISS: positions 0..n−1 coloured by the largest ℓ with v ∈ V_ℓ; every arc is
    subdivided by a vertex whose colour names its label set {(ℓ, h)} (ids shared across roots) — or, when its twins
    save view_twins.MIN_SAVED positions, its labelled twin quotient (graphs/labelled_twins.py, Theorem F223)."""

    def __init__(self, lists: _InLists, seq: LayerSequence, root0: int, m: int, label_ids: dict):
        n = seq.n
        sets = view_sets(lists, seq, root0, m)
        colours = [0] * n
        for ell in range(m + 1):
            for v in sets[ell]:
                colours[v] = ell
        # each arc u → v as the code u·n + v (sorted codes: the order of the pairs (u, v)), its label set
        # {(ℓ, h)} as the bits ℓ·H + h of an int (H heads at most per layer): one int per arc instead of a
        # set of pairs, the same label ids (a set and its bits determine each other)
        width = max(len(heads) for heads in lists.heads)
        labels: dict[int, int] = {}
        get = labels.get
        for ell in range(1, m + 1):
            heads = lists.heads[(ell - 1) % seq.period]
            for v in sets[ell]:
                for h, ins in enumerate(heads):
                    bit = 1 << (ell * width + h)
                    for u in ins[v]:
                        code = u * n + v
                        labels[code] = get(code, 0) | bit
        self.n = n
        codes = sorted(labels)
        # a view whose classes of twins save view_twins.MIN_SAVED positions is decided on its labelled twin quotient
        # (Lemma AL, Theorem F223): whether it is depends on the number of classes, an isomorphism invariant, so
        # isomorphic views are digested the same way
        self.twins = None
        if n - 1 >= view_twins.MIN_SAVED:
            self.twins = labelled_twins.quotient(n, colours, [c // n for c in codes], [c % n for c in codes],
                                                 [labels[c] for c in codes])
        if self.twins is None:
            self.graph = subdivided(n, [(divmod(code, n), labels[code]) for code in codes], label_ids, m + 1, colours)
        self.colours = colours

    def automorphism_order(self) -> int:
        if self.twins is not None:
            return self.twins.automorphism_order()
        return count_automorphisms(self.graph, color=self.colours)

    def automorphism_generators(self) -> list[tuple[int, ...]]:
        if self.twins is not None:
            return [tuple(k + 1 for k in g) for g in self.twins.generators()]
        gens = bliss.generators(self.graph, self.colours)
        return [tuple(k + 1 for k in g[:self.n]) for g in gens]

    def canonical(self) -> tuple[list[int], str]:
        """(the canonical labelling, the digest of the canonical form): the whole view's (arcs subdivided), or its
        twin quotient's form (tagged, so never equal to a whole view's but by a SHA-256 collision)."""
        if self.twins is not None:
            return self.twins.digest()
        return canonical_digest(self.graph, self.colours)


def subdivided(size: int, arcs: list, label_ids: dict, first_colour: int, colours: list[int]):
    """The digraph on positions 0..size − 1 with every arc ((u, v), label) subdivided by a vertex coloured
    first_colour + the label's id (ids shared across views through `label_ids`); the arcs' vertices' colours are
    appended to `colours`. The rooted views per layer and those on a prefix (layers_causal.py) are built so."""
    from ..lazy import digraph
    edges: list[tuple[int, int]] = []
    nxt = size
    for (u, v), label in arcs:
        edges.append((u, nxt))
        edges.append((nxt, v))
        colours.append(first_colour + label_ids.setdefault(label, len(label_ids)))
        nxt += 1
    return digraph(nxt, edges)


def canonical_digest(graph, colours: list[int]) -> tuple[list[int], str]:
    """(the canonical labelling, a sha256 of the canonically labelled coloured digraph) by BLISS: equal digests for
    isomorphic coloured digraphs (the rooted views per layer, and those restricted to a prefix, layers_causal.py)."""
    order = bliss.canonical_permutation(graph, colours)
    size = len(order)
    lab = [0] * size
    for k, v in enumerate(order):
        lab[v] = k
    cols = [0] * size
    for v, c in enumerate(colours):
        cols[lab[v]] = c
    arcs = sorted((lab[a], lab[b]) for a, b in graph.get_edgelist())
    digest = hashlib.sha256()
    digest.update(repr((size, cols)).encode())
    digest.update(repr(arcs).encode())
    return lab, digest.hexdigest()


def decide_depth(seq: LayerSequence, m: int, group_order: int, generators: Sequence[Sequence[int]],
                 in_group: Callable[[Sequence[int]], bool], lists: Optional[_InLists] = None) -> SeqViewDecision:
    """Is there a view witness at depth m (Φ connected within m layers)? Exact (module docstring)."""
    from ..groups import orbits

    lists = lists or _InLists(seq)
    n = seq.n
    orbit_of = orbits(n, generators)
    reps = sorted(set(orbit_of))
    sizes = {r: 0 for r in reps}
    for r in orbit_of:
        sizes[r] += 1
    label_ids: dict = {}
    auts: list[int] = []
    digests: list[str] = []
    labellings: dict[int, list[int]] = {}
    seen: dict[str, int] = {}
    for r in reps:
        view = _RootedLayerView(lists, seq, r, m, label_ids)
        stab = group_order // sizes[r]
        aut = view.automorphism_order()
        if aut != stab:
            if aut < stab or aut % stab:
                raise AssertionError(f"internal error: |Aut(R_{r + 1})| = {aut} is not a multiple of "
                                     f"|Stab_G({r + 1})| = {stab}")
            for gen in view.automorphism_generators():
                if not in_group(gen):
                    if not witness_condition_holds(seq, gen, r + 1, m, lists):
                        raise AssertionError("internal error: a rooted-view automorphism failed its re-check")
                    return SeqViewDecision(False, SeqWitness(r + 1, m, tuple(gen),
                                                             "an automorphism of the rooted view outside G"))
            raise AssertionError("internal error: Aut(R_i) is larger than Stab_G(i) but every generator is in G")
        lab, digest = view.canonical()
        if digest in seen:
            other = seen[digest]
            lab_j = labellings[other]
            if len(lab_j) != len(lab):  # a quotient's form and a whole view's: a SHA-256 collision, never assumed
                return SeqViewDecision(None, reason="two canonical digests coincided without an isomorphism")
            inv_j = [0] * len(lab_j)
            for v, k in enumerate(lab_j):
                inv_j[k] = v
            perm = tuple(inv_j[lab[v]] + 1 for v in range(n))
            if witness_condition_holds(seq, perm, r + 1, m, lists) and not in_group(perm):
                return SeqViewDecision(False, SeqWitness(
                    r + 1, m, perm, f"the rooted views of positions {r + 1} and {other + 1} (different G-orbits) "
                                    "are isomorphic"))
            return SeqViewDecision(None, reason="two canonical digests coincided without an isomorphism")
        seen[digest] = r
        labellings[r] = lab
        auts.append(aut)
        digests.append(digest)
    cert = SeqViewCertificate(m, group_order, tuple(r + 1 for r in reps), tuple(sizes[r] for r in reps),
                              tuple(auts), tuple(digests))
    return SeqViewDecision(True, certificate=cert)


@dataclass(frozen=True)
class SeqCovering:
    """No witness at ``depth`` by the covering lemma (docs/theory.md §21.3): each layer ℓ of ``covered`` (1-based,
    ℓ < depth) is seen whole by every position (layers ℓ + 1, …, depth connect), and the heads of those layers
    alone have the automorphism group G (``generators`` generate it, each preserving every layer's heads)."""
    depth: int
    covered: tuple[int, ...]
    generators: tuple[tuple[int, ...], ...] = field(repr=False)
    group_order: int

    def as_evidence(self) -> dict:
        return {"depth": self.depth, "layers seen whole by every position": list(self.covered),
                "|Aut of their heads|": self.group_order}


def views_fit(n: int, work: int, limit: int) -> str:
    """The size the rooted views per layer would fit, named with the scaling it assumes: their work is (arcs of a
    period) × (depths) × n × (depths tried), which grows like n³ when the arcs and the covering depth grow like n
    and the depths tried stay as many (a window's)."""
    fit = max(1, int(n * (limit / work) ** (1 / 3)))
    return f"the work grows like n³ for a sequence of this kind, which fits up to about n = {fit:,}"


@dataclass(frozen=True)
class LeastLayers:
    """``layers``: the least m ≥ D_Φ without a view witness (None: none within ``limit``, or
    undecided: ``reason``). ``witness``: a witness at depth layers − 1 (when layers > D_Φ) or at the
    limit (when no m works). ``certificate``: the rooted-view data at depth ``layers``, or ``covering``:
    the covering lemma's data there. ``least`` False: ``layers`` suffice, and whether fewer do is open
    (the rooted views below it were beyond their work limit and no transposition witness was found)."""
    layers: Optional[int]
    witness: Optional[SeqWitness]
    certificate: Optional[SeqViewCertificate]
    reason: str = ""
    forced: bool = False  # True when `layers` was reached by the covering bound (every layer pattern seen whole)
    covering: Optional[SeqCovering] = None
    least: bool = True


def covering_depth(seq: LayerSequence, lists: Optional[_InLists] = None) -> Optional[int]:
    """For a periodic Φ: a depth m* at which every position's views cover every layer pattern of
    the period whole (so no witness exists): the max over q of q + 1 + D(Φ started at layer q + 2)."""
    if not seq.periodic:
        return None
    lists = lists or _InLists(seq)
    p = seq.period
    worst = 0
    for q in range(p):
        r = connectivity(seq, None, start=(q + 1) % p, lists=lists)
        if r.depth is None:
            return None
        worst = max(worst, q + 1 + r.depth)
    return worst


def _starts_depth(seq: LayerSequence, lists: _InLists) -> Callable[[int, int], bool]:
    """connects(ℓ, k): layers ℓ + 1, …, ℓ + k of Φ connect every position to every position (memoised per start
    for a periodic Φ)."""
    memo: dict = {}

    def connects(ell: int, k: int) -> bool:
        if seq.periodic:
            q = ell % seq.period
            if q not in memo:
                memo[q] = connectivity(seq, None, start=q, lists=lists).depth
            d = memo[q]
            return d is not None and d <= k
        reach = connectivity(seq, k, start=ell, lists=lists)
        return reach.depth is not None and reach.depth <= k
    return connects


def group_covering(seq: LayerSequence, m: int, group_order: int, lists: _InLists,
                   connects: Optional[Callable[[int, int], bool]] = None) -> Optional[SeqCovering]:
    """The covering lemma at depth m (docs/theory.md §21.3): the layers ℓ < m seen whole by every position, when the
    automorphism group of their heads alone is G (its order equals ``group_order``, as it contains G); else None."""
    from .symmetry import symmetry_group
    connects = connects or _starts_depth(seq, lists)
    covered = tuple(ell for ell in range(1, m) if connects(ell, m - ell))
    if not covered:
        return None
    graphs = list(dict.fromkeys(g for ell in covered for g in seq.at(ell)))
    grp = symmetry_group(graphs)
    if int(grp.order) != group_order or grp.generators is None:
        return None
    return SeqCovering(m, covered, tuple(tuple(g) for g in grp.generators), group_order)


class _SwapTables:
    """Per (layer index, head): for each position u the bitset of the v with u ∈ N(v) (v ∈ N(v) included), and the
    in-neighbourhood bitsets N(v) (v included), built on first use."""

    def __init__(self, lists: _InLists, n: int):
        self.lists, self.n = lists, n
        self.tables: dict = {}

    def get(self, q: int, h: int) -> tuple[list[int], list[int]]:
        if (q, h) not in self.tables:
            g = self.lists.graphs[q][h]
            inb = [m | 1 << v for v, m in enumerate(masks_of(self.lists.heads[q][h]))]
            out = [m | 1 << u for u, m in enumerate(masks_of(_out_sets(g)))]
            self.tables[(q, h)] = (out, inb)
        return self.tables[(q, h)]


def _out_sets(g: PatternGraph) -> list:
    """The 0-based out-neighbours of every position of ``g`` (u excluded): the sources of the sorted codes are
    ascending, so one slice each."""
    n = g.n
    if g.complete:
        return [range(u) if u == n - 1 else [*range(u), *range(u + 1, n)] for u in range(n)]
    import numpy as np
    src, dst = code_endpoints(g)
    ends = np.searchsorted(src, np.arange(n + 1)).tolist()
    dsts = dst.tolist()
    return [dsts[ends[u]:ends[u + 1]] for u in range(n)]


def _swap_keeps(per_layer: list, a: int, b: int) -> bool:
    """Whether σ = (a b) keeps the view: for every layer (its V_ℓ mask and its heads' tables), no v ∈ V_ℓ other than a,
    b has exactly one of a, b in N(v), and when a or b is in V_ℓ, σ(N(a)) = N(b)."""
    pair = (1 << a) | (1 << b)
    for mask, heads in per_layer:
        for out, inb in heads:
            if (out[a] ^ out[b]) & mask & ~pair:
                return False
            if mask & pair:
                na = inb[a]
                swapped = na & ~pair
                if na >> a & 1:
                    swapped |= 1 << b
                if na >> b & 1:
                    swapped |= 1 << a
                if swapped != inb[b]:
                    return False
    return True


def _swap_candidates(roots: Sequence[int], n: int):
    """(root, a, b), 0-based a < b: neighbours (a, a + 1) at every root first, then every other pair."""
    for root in roots:
        for a in range(n - 1):
            yield root, a, a + 1
    for root in roots:
        for a in range(n):
            for b in range(a + 2, n):
                yield root, a, b


def transposition_witness(seq: LayerSequence, m: int, in_group: Callable[[Sequence[int]], bool],
                          roots: Sequence[int], lists: _InLists, budget: int = 4_000_000) -> Optional[SeqWitness]:
    """A view witness σ = (a b) at depth m for one of ``roots`` (1-based), searched with bitsets (`_swap_keeps`). A
    candidate is re-checked by the definition (`witness_condition_holds`) and against G. None when none is found
    within ``budget`` layer checks (an incomplete search: it proves nothing)."""
    n, p = seq.n, seq.period
    tables = _SwapTables(lists, n)
    views: dict = {}

    def layers_of(root: int) -> list:
        if root not in views:
            sets = view_masks(lists, seq, root - 1, m)
            views[root] = [(sets[ell],
                            [tables.get((ell - 1) % p, h) for h in range(len(lists.heads[(ell - 1) % p]))])
                           for ell in range(1, m + 1)]
        return views[root]
    # (a b) ∈ G = ⋂ Aut(N_{q,h}) iff it keeps every head of every layer of the period whole: the same bitset test with
    # every position in the mask (a transposition of G keeps every view and is no witness; skipping it before
    # `in_group`, which tests the same membership arc by arc, changes nothing but the time)
    full = (1 << n) - 1
    whole = [(full, [tables.get(q, h) for h in range(len(lists.heads[q]))]) for q in range(p)]
    spent = 0
    for root, a, b in _swap_candidates(roots, n):
        per_layer = layers_of(root)
        spent += len(per_layer)
        if spent > budget:
            return None
        if not _swap_keeps(per_layer, a, b) or _swap_keeps(whole, a, b):
            continue
        perm = list(range(1, n + 1))
        perm[a], perm[b] = b + 1, a + 1
        if not in_group(perm) and witness_condition_holds(seq, perm, root, m, lists):
            return SeqWitness(root, m, tuple(perm), "a transposition keeping the view (bitset search)")
    return None


def least_layers(seq: LayerSequence, diameter: int, group_order: int, generators: Sequence[Sequence[int]],
                 in_group: Callable[[Sequence[int]], bool], limit: Optional[int] = None) -> LeastLayers:
    """The least m ≥ D_Φ (= ``diameter``) with no view witness, up to ``limit`` (a finite sequence's
    depth or a budget; None: a periodic Φ, searched up to its covering depth). Past the rooted views' work limit,
    the first depth where the covering lemma holds is witness-free without views (§21.3), and a transposition
    witness one layer below it makes it least."""
    lists = _InLists(seq)
    top = limit
    if top is None:
        top = covering_depth(seq, lists)
        if top is None:
            return LeastLayers(None, None, None, "the periodic sequence has no covering depth")
    arcs = sum(len(s) for q in lists.heads for h in q for s in h)  # arcs of one period
    # per depth m: one rooted view per orbit (≤ n), each with at most the arcs of m layers
    work = arcs * (top // seq.period + 1) * seq.n * (top - diameter + 1)
    if work > MAX_VIEW_WORK:
        return _least_by_covering(seq, diameter, group_order, generators, in_group, top, lists,
                                  f"the view decision would take about {work:,} arc visits (limit {MAX_VIEW_WORK:,}; "
                                  f"{views_fit(seq.n, work, MAX_VIEW_WORK)})")
    return _least_by_views(seq, diameter, top, group_order, generators, in_group, limit, lists)


def _least_by_views(seq: LayerSequence, diameter: int, top: int, group_order: int, generators: Sequence[Sequence[int]],
                    in_group: Callable[[Sequence[int]], bool], limit: Optional[int], lists: _InLists) -> LeastLayers:
    """The rooted views at every depth from D_Φ (= ``diameter``) to ``top``: the first without a witness."""
    last_witness = None
    for m in range(diameter, top + 1):
        decision = decide_depth(seq, m, group_order, generators, in_group, lists)
        if decision.sufficient:
            return LeastLayers(m, last_witness, decision.certificate)
        if decision.sufficient is None:
            return LeastLayers(None, last_witness, None, decision.reason)
        last_witness = decision.witness
    if limit is None:
        raise AssertionError("internal error: a witness at the covering depth")
    return LeastLayers(None, last_witness, None)


def least_by_views_per_orbit(seq: LayerSequence, diameter: int, group_order: int, generators: Sequence[Sequence[int]],
                             in_group: Callable[[Sequence[int]], bool], limit: Optional[int] = None,
                             below: Optional[int] = None) -> Optional[LeastLayers]:
    """The exact rooted-view decision up to ``below`` (a count the covering lemma showed sufficient, not least) when
    its work counted per G-orbit — one rooted view per orbit and depth — fits MAX_VIEW_WORK; None otherwise. Few
    orbits mean a large G, whose views' classes of twins go to their labelled quotients (Theorem F223):
    `periodic { global(2), global(2) }` at n = 800 has two orbits, and n times the arcs is past the limit."""
    from ..groups import orbits
    lists = _InLists(seq)
    top = below if below is not None else limit
    if top is None:
        top = covering_depth(seq, lists)
        if top is None:
            return None
    arcs = sum(len(s) for q in lists.heads for h in q for s in h)
    work = arcs * (top // seq.period + 1) * len(set(orbits(seq.n, generators))) * (top - diameter + 1)
    if work > MAX_VIEW_WORK:
        return None
    # below a count shown sufficient, a witness at that count contradicts it: an internal error (limit None), as at the
    # covering depth, not a count left undecided
    return _least_by_views(seq, diameter, top, group_order, generators, in_group, limit if below is None else None,
                           lists)


def _least_by_covering(seq: LayerSequence, diameter: int, group_order: int, generators: Sequence[Sequence[int]],
                       in_group: Callable[[Sequence[int]], bool], top: int, lists: _InLists,
                       too_costly: str) -> LeastLayers:
    """The rooted views are beyond their work limit: the first depth m ≥ D_Φ (up to ``top``) where the covering
    lemma holds suffices; it is least when m = D_Φ or a transposition witness at depth m − 1 is found (views grow
    with the depth, so a witness at m − 1 is one at every smaller depth); otherwise it is sufficient, not shown
    least. None (with the reason) when no depth up to ``top`` is covered."""
    from ..groups import orbits
    connects = _starts_depth(seq, lists)
    covered_at = None
    for m in range(max(diameter, 1), top + 1):
        covered_at = group_covering(seq, m, group_order, lists, connects)
        if covered_at is not None:
            break
    if covered_at is None:
        return LeastLayers(None, None, None, too_costly + ", and no depth up to "
                           f"{top} has layers seen whole whose heads alone have the group G")
    m = covered_at.depth
    if m == diameter:
        return LeastLayers(m, None, None, covering=covered_at)
    roots = [r + 1 for r in sorted(set(orbits(seq.n, generators)))]
    witness = transposition_witness(seq, m - 1, in_group, roots, lists)
    if witness is not None:
        return LeastLayers(m, witness, None, covering=covered_at)
    return LeastLayers(m, None, None, covering=covered_at, least=False,
                       reason=f"{too_costly}, and no transposition keeping a view at depth {m - 1} was found")
