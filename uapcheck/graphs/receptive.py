"""Receptive fields of a concrete pattern, and the witness search for the receptive-field class.

docs/theory.md §14 (derived here). For a position i, R(i) is the set of positions with a path to i
in the union graph (arc j → i when i attends to j); r is the *receptive diameter*, the largest
distance d(j → i) over j ∈ R(i). The family approximates exactly the maps F with F(X)_i a function
of the tokens on R(i), the same function at i and j whenever a head-preserving isomorphism of the
receptive fields carries i to j (the receptive-field class). r layers are necessary; r + 1
suffice; r suffice exactly when no *receptive witness* exists: a permutation σ and a position i
such that σ carries N_h(v) onto N_h(σ v) for every head h and every v with d(v → i) ≤ r − 1, but not
for some v ∈ R(i) (then the depth-r views of (X, i) and (σX, σ i) coincide while σ restricted to
R(i) is not an isomorphism of receptive fields).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional, Sequence

from .build import PatternGraph
from .. import bliss

EXHAUSTIVE_MAX_N = 8
TRANSPOSITION_MAX_N = 64  # the plain search is cubic per transposition; causal classes use causal_exact
MAX_WORK = 4_000_000  # n · (arcs + n): BFS from every position


class TooLarge(ValueError):
    """The receptive analysis would exceed its work budget for this concrete pattern."""


@dataclass(frozen=True)
class Receptive:
    n: int
    fields: tuple[frozenset, ...]  # fields[i] = R(i) (index 0 unused)
    dist: tuple[dict, ...]  # dist[i][v] = d(v → i) for v ∈ R(i)
    radius: int  # the receptive diameter r
    far: tuple[int, int, int]  # (i, j, d) with d(j → i) = r
    causal_class: bool  # every arc j → i has j < i
    prefix_fields: bool  # R(i) = {1, ..., i} for every i
    missing: Optional[tuple[int, int]]  # (i, j): j < i does not reach i (only for causal-class patterns)
    strongly_connected: bool


@dataclass(frozen=True)
class WitnessSearch:
    layers: int
    least: bool
    method: str
    witness: Optional[dict] = None


def in_neighbourhoods(graphs: Sequence[PatternGraph]) -> list[list[frozenset]]:
    n = graphs[0].n
    out = []
    for g in graphs:
        nb = [set([v]) for v in range(n + 1)]
        for j, i in g.arcs():
            nb[i].add(j)
        out.append([frozenset(s) for s in nb])
    return out


def receptive_fields(graphs: Sequence[PatternGraph]) -> Receptive:
    n = graphs[0].n
    arcs = sum(g.num_arcs for g in graphs)
    if n * (arcs + n) > MAX_WORK:
        raise TooLarge(f"{n} positions and {arcs} arcs exceed the receptive-field work budget")
    pred = [set() for _ in range(n + 1)]
    causal_class = True
    for g in graphs:
        for j, i in g.arcs():
            pred[i].add(j)
            if j > i:
                causal_class = False
    fields, dists = [frozenset()], [dict()]
    radius, far = 0, (1, 1, 0)
    for i in range(1, n + 1):
        dist = {i: 0}
        frontier = [i]
        while frontier:
            nxt = []
            for a in frontier:
                for b in pred[a]:
                    if b not in dist:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        fields.append(frozenset(dist))
        dists.append(dist)
        top = max(dist.items(), key=lambda kv: (kv[1], -kv[0]))
        if top[1] > radius:
            radius, far = top[1], (i, top[0], top[1])
    prefix = all(fields[i] == frozenset(range(1, i + 1)) for i in range(1, n + 1))
    missing = None
    if causal_class and not prefix:
        for i in range(1, n + 1):
            gap = [j for j in range(1, i) if j not in fields[i]]
            if gap:
                missing = (i, gap[0])
                break
    strong = all(len(fields[i]) == n for i in range(1, n + 1))
    return Receptive(n, tuple(fields), tuple(dists), radius, far, causal_class, prefix, missing, strong)


def _seen_by(nbs, n: int) -> list[list[list[int]]]:
    """seen[h][k] = the positions v whose in-neighbourhood under head h contains k (v = k included)."""
    out = []
    for nb in nbs:
        seen: list[list[int]] = [[] for _ in range(n + 1)]
        for v in range(1, n + 1):
            for k in nb[v]:
                seen[k].append(v)
        out.append(seen)
    return out


def _bad_positions(perm: dict, nbs, n: int, classes=None, seen=None) -> set:
    """Positions v whose (labelled) in-neighbourhood σ does not carry onto that of σ(v); `classes[h]` is
    head h's arc labels (graphs.views.ArcClasses, 0-based offsets) or None. With `seen` (_seen_by) only
    the positions that σ moves or whose in-neighbourhood holds a moved position are examined: any
    other v has σ(v) = v and σ fixing N_h(v) pointwise, so its neighbourhood and labels are kept."""
    bad = set()
    for h, nb in enumerate(nbs):
        cls = None if classes is None else classes[h]
        if seen is None:
            candidates = range(1, n + 1)
        else:
            candidates = sorted({v for k, pk in perm.items() if pk != k for v in seen[h][k]})
        for v in candidates:
            pv = perm.get(v, v)
            if frozenset(perm.get(k, k) for k in nb[v]) != nb[pv]:
                bad.add(v)
            elif cls is not None and any(cls.of(n, pv - 1, perm.get(k, k) - 1) != cls.of(n, v - 1, k - 1)
                                         for k in nb[v]):
                bad.add(v)
    return bad


def _any_bad_among(perm: dict, nbs, positions) -> bool:
    """Whether some v in `positions` is in _bad_positions(perm, nbs, n) (unlabelled): the same test, made only
    at those positions and stopped at the first bad one (receptive_exact asks only about R(i))."""
    for v in positions:
        pv = perm.get(v, v)
        for nb in nbs:
            if frozenset(perm.get(k, k) for k in nb[v]) != nb[pv]:
                return True
    return False


def _seen_sets(seen) -> list[list[int]]:
    """_seen_by's lists as bit masks (bit v set for each v), for _swap_bad_mask."""
    return [[_mask(vs) for vs in per_head] for per_head in seen]


def _mask(positions) -> int:
    out = 0
    for v in positions:
        out |= 1 << v
    return out


def _positions(mask: int) -> set:
    out = set()
    while mask:
        low = mask & -mask
        out.add(low.bit_length() - 1)
        mask ^= low
    return out


def _neighbourhood_masks(nbs) -> list[list[int]]:
    """nbs (in_neighbourhoods) as bit masks: masks[h][v] has bit k for each k ∈ N_h(v)."""
    return [[_mask(s) for s in nb] for nb in nbs]


def _swap_bad_mask(a: int, b: int, nb_masks, seen_masks) -> int:
    """_bad_positions for the transposition σ = (a b), unlabelled, as a bit mask. For v ∉ {a, b},
    σ(v) = v and σ carries N_h(v) onto N_h(v) exactly when N_h(v) holds both of a, b or neither: when
    it holds one, the image holds the other instead. So v is bad exactly when some N_h(v) meets
    {a, b} once, that is v ∈ seen[h][a] △ seen[h][b]; the two moved positions are tested as written
    (σ N_h(v) is N_h(v) with the bits of a and b exchanged, compared with N_h(σ v))."""
    bad = 0
    for seen in seen_masks:
        bad |= seen[a] ^ seen[b]
    pair = (1 << a) | (1 << b)
    bad &= ~pair
    for v, image in ((a, b), (b, a)):
        for masks in nb_masks:
            m = masks[v]
            swapped = (m & ~pair) | (((m >> a) & 1) << b) | (((m >> b) & 1) << a)
            if swapped != masks[image]:
                bad |= 1 << v
                break
    return bad


def _swap_bad_positions(a: int, b: int, nbs, seen_masks) -> set:
    """_swap_bad_mask as a set of positions."""
    return _positions(_swap_bad_mask(a, b, _neighbourhood_masks(nbs), seen_masks))


def _witness_at(bad: set, rec: Receptive, depth: int) -> Optional[int]:
    """A position i such that every bad v in R(i) has d(v → i) ≥ depth, and some bad v lies in R(i)."""
    return _WitnessIndex(rec, depth).first(bad)


class _WitnessIndex:
    """`_witness_at` for many bad sets against one (rec, depth). Position i qualifies exactly when bad
    meets R(i) and misses the near set {v : d(v → i) < depth} (then every bad v in R(i) is at distance
    ≥ depth). Indexed by v instead of i, as bit masks over the positions: reaches[v] has bit i when
    v ∈ R(i), near[v] when d(v → i) < depth. The positions that qualify are then
    (OR of reaches[v]) AND NOT (OR of near[v]) over the bad v, and the first is the lowest bit: a
    cost in the size of the bad set (a few positions for a transposition), not in n."""

    def __init__(self, rec: Receptive, depth: int) -> None:
        reaches = [0] * (rec.n + 1)
        near = [0] * (rec.n + 1)
        for i in range(1, rec.n + 1):
            bit = 1 << i
            for v, d in rec.dist[i].items():
                reaches[v] |= bit
                if d < depth:
                    near[v] |= bit
        self.reaches, self.near = reaches, near

    def first(self, bad: set) -> Optional[int]:
        return self.first_of_mask(_mask(bad))

    def first_of_mask(self, bad: int) -> Optional[int]:
        """`first` for the bad positions as a bit mask."""
        reached = excluded = 0
        while bad:
            low = bad & -bad
            v = low.bit_length() - 1
            reached |= self.reaches[v]
            excluded |= self.near[v]
            bad ^= low
        qualifying = reached & ~excluded
        return (qualifying & -qualifying).bit_length() - 1 if qualifying else None


def search(graphs: Sequence[PatternGraph], rec: Receptive, proven: Optional[str] = None) -> WitnessSearch:
    """The least number of layers for the receptive-field class: r, or r + 1 with a witness."""
    n, r = rec.n, rec.radius
    if r == 0:
        return WitnessSearch(1, True, "no position attends to another: one layer (the FFN alone decides)")
    if proven is not None:
        return WitnessSearch(r, True, proven)
    nbs = in_neighbourhoods(graphs)
    index = _WitnessIndex(rec, r)
    if n <= TRANSPOSITION_MAX_N:
        seen = _seen_sets(_seen_by(nbs, n))
        nb_masks = _neighbourhood_masks(nbs)
        for a, b in itertools.combinations(range(1, n + 1), 2):
            perm = {a: b, b: a}
            i = index.first_of_mask(_swap_bad_mask(a, b, nb_masks, seen))
            if i is not None:
                return WitnessSearch(r + 1, True, f"receptive witness: {r} layer{'s are' if r != 1 else ' is'} not "
                                     f"enough, {r + 1} suffice", _witness_record(i, [a, b], None, perm, r))
    if n <= EXHAUSTIVE_MAX_N:
        for images in itertools.permutations(range(1, n + 1)):
            perm = {k + 1: images[k] for k in range(n)}
            bad = _bad_positions(perm, nbs, n)
            i = index.first(bad)
            if i is not None:
                return WitnessSearch(r + 1, True, f"receptive witness: {r} layer{'s are' if r != 1 else ' is'} not "
                                     f"enough, {r + 1} suffice",
                                     _witness_record(i, None, list(images), perm, r))
        return WitnessSearch(r, True, f"exhaustive over all {n}! permutations: no receptive witness, so the "
                                      f"depth-{r} views separate every pair outside one class")
    if n > TRANSPOSITION_MAX_N:
        return WitnessSearch(r + 1, False, f"{r + 1} = r + 1 layers suffice; whether r = {r} suffice is not "
                                           f"searched above {TRANSPOSITION_MAX_N} tokens")
    return WitnessSearch(r + 1, False, f"{r + 1} = r + 1 layers suffice; no transposition is a receptive witness "
                                       "at depth r, and other permutations are not searched")


def _witness_record(i: int, swap, images, perm: dict, r: int) -> dict:
    j = perm.get(i, i)
    what = f"σ = ({swap[0]} {swap[1]})" if swap else f"σ = {images} (images of 1..n)"
    out = {"position": i, "image position": j, "depth": r,
           "why": f"{what} keeps the neighbourhoods of every position within distance {r - 1} of {i} but is not "
                  f"an isomorphism of the receptive fields R({i}) → R({j}): after {r} layer{'s' if r != 1 else ''} "
                  f"the output at {i} for X equals the output at {j} for σX, while a target of the class "
                  "separates them"}
    if swap and all(perm.get(k, k) == k for k in perm if k not in swap):
        out["swap"] = list(swap)
    else:
        out["permutation"] = images
    return out


def causal_exact(graphs: Sequence[PatternGraph], rec: Receptive, budget_vertices: int = 200_000,
                 classes=None) -> WitnessSearch:
    """The exact least layers for a causal-class pattern with R(i) = {1, …, i} (docs/theory.md §14.9).

    A receptive witness at i fixes i (|R(σ i)| = |R(i)| forces σ(i) = i) and is an automorphism of
    H_i: the positions of R(i) with the arcs into the known part K_i = {v : d(v → i) ≤ r − 1} (i and K_i
    coloured), each head's arcs told apart by subdivision vertices of the head's colour. It is a
    witness iff it fails to carry some N_h(v), v ∈ R(i), onto N_h(σ v). The structure-preserving
    automorphisms form a subgroup, so some witness exists iff some *generator* of Aut(H_i) is one:
    BLISS's generators decide the question exactly."""
    from ..lazy import digraph  # without its drawing backends (uapcheck/lazy.py)
    n, r = rec.n, rec.radius
    if r == 0:
        return WitnessSearch(1, True, "no position attends to another: one layer (the FFN alone decides)")
    nbs = in_neighbourhoods(graphs)
    labelled = classes is not None and any(c is not None for c in classes)
    arc_colour: dict = {}  # (head, label) ↦ colour, the same in every H_i
    work = 0
    for i in range(1, n + 1):
        dist = rec.dist[i]
        if max(dist.values()) < r:
            continue  # every position of R(i) is known at depth r: no witness at i
        verts = sorted(dist)
        index = {v: k for k, v in enumerate(verts)}
        colours = [1 if v == i else (2 if dist[v] <= r - 1 else 3) for v in verts]
        edges = []
        for h, nb in enumerate(nbs):
            for v in verts:
                if dist[v] > r - 1:
                    continue
                for u in nb[v]:
                    if u == v:
                        continue
                    if len(nbs) == 1 and not labelled:
                        edges.append((index[u], index[v]))
                    else:
                        key = (h, None if not labelled or classes[h] is None else classes[h].of(n, v - 1, u - 1))
                        if key not in arc_colour:
                            arc_colour[key] = 4 + len(arc_colour)
                        s = len(colours)
                        colours.append(arc_colour[key])
                        edges.append((index[u], s))
                        edges.append((s, index[v]))
        work += len(colours) + len(edges)
        if work > budget_vertices:
            raise TooLarge(f"the automorphism computations exceed {budget_vertices} vertices and arcs")
        g = digraph(len(colours), edges)
        for gen in bliss.generators(g, colours):
            perm = {verts[k]: verts[gen[k]] for k in range(len(verts)) if gen[k] != k}
            if not perm:
                continue
            bad = _bad_positions(perm, nbs, n, classes)
            if bad & set(verts):
                moved = sorted(perm)
                images = [perm.get(k, k) for k in range(1, n + 1)]
                what = "labelled receptive witness (it keeps every bias class)" if labelled else "receptive witness"
                return WitnessSearch(r + 1, True, f"{what} (a generator of the automorphisms of the known "
                                     f"part at {i}, BLISS): {r} layer{'s are' if r != 1 else ' is'} not enough, "
                                     f"{r + 1} suffice",
                                     _witness_record(i, moved if len(moved) == 2 else None, images, perm, r))
    return WitnessSearch(r, True, "exact: at every position, every automorphism of the known part of the receptive "
                                  "field (BLISS generators) preserves the whole receptive field, so no receptive witness "
                                  "exists and the depth-r views separate every pair outside one class")


def _known_part_graph(i: int, rec: Receptive, nbs, arc_colour: dict):
    """(verts, colours, edges) of H_i: the positions of R(i), i coloured 1, the known part
    K_i = {v : d(v → i) ≤ r − 1} coloured 2, the rest 3; each arc u → v of head h with v ∈ K_i, u ≠ v,
    as a subdivision vertex of the head's colour (4, 5, …: `arc_colour`, shared by every H_i)."""
    dist, r = rec.dist[i], rec.radius
    verts = sorted(dist)
    index = {v: k for k, v in enumerate(verts)}
    colours = [1 if v == i else (2 if dist[v] <= r - 1 else 3) for v in verts]
    edges = []
    for h, nb in enumerate(nbs):
        if h not in arc_colour:
            arc_colour[h] = 4 + len(arc_colour)
        for v in verts:
            if dist[v] > r - 1:
                continue
            for u in sorted(nb[v]):
                if u == v:
                    continue
                s = len(colours)
                colours.append(arc_colour[h])
                edges.append((index[u], s))
                edges.append((s, index[v]))
    return verts, colours, edges


def receptive_exact(graphs: Sequence[PatternGraph], rec: Receptive, budget_vertices: int = 200_000) -> WitnessSearch:
    """The exact least layers for any pattern at a concrete n (docs/theory.md §14.5(f), Theorem F68).

    A receptive witness (σ, i) has d(v → i) = r for some v (so i is a *root*: its receptive field has
    eccentricity r), maps R(i) onto R(σ i), and is then a question about τ = σ restricted to R(i) alone:
    an isomorphism of the coloured graphs H_i → H_σ(i) (_known_part_graph) that is not an isomorphism of
    the receptive fields (some N_h(v), v ∈ R(i), not carried onto N_h(τ v)). Decided by BLISS: (1) at every
    root, some generator of Aut(H_i) that is not an automorphism of R(i) is a witness (they form a subgroup);
    (2) when every Aut(H_i) lies in Aut(R(i)), the isomorphisms H_i → H_j are one coset τ₀·Aut(H_i), all
    receptive-field isomorphisms or none, so one canonical isomorphism from a representative of each
    canonical class to each other member decides it."""
    from ..lazy import digraph
    n, r = rec.n, rec.radius
    if r == 0:
        return WitnessSearch(1, True, "no position attends to another: one layer (the FFN alone decides)")
    nbs = in_neighbourhoods(graphs)
    roots = [i for i in range(1, n + 1) if max(rec.dist[i].values()) == r]
    arc_colour: dict = {}
    classes: dict = {}  # canonical form of H_i ↦ (representative root, its canonical labelling, its verts)
    work = 0
    for i in roots:
        verts, colours, edges = _known_part_graph(i, rec, nbs, arc_colour)
        work += len(colours) + len(edges)
        if work > budget_vertices:
            raise TooLarge(f"the automorphism computations exceed {budget_vertices} vertices and arcs")
        g = digraph(len(colours), edges)
        for gen in bliss.generators(g, colours):
            perm = {verts[k]: verts[gen[k]] for k in range(len(verts)) if gen[k] != k}
            if perm and _any_bad_among(perm, nbs, verts):
                return _exact_witness(i, perm, n, r, "a generator of the automorphisms of the known part at "
                                      f"{i}, BLISS")
        order = bliss.canonical_permutation(g, colours)  # canonical index c -> the vertex placed there
        label = [0] * len(order)  # vertex k -> its canonical index
        for c, k in enumerate(order):
            label[k] = c
        form = (len(verts), tuple(sorted(colours[k] for k in range(len(colours)))),
                tuple(sorted((label[a], label[b]) for a, b in edges)),
                tuple(sorted((label[k], colours[k]) for k in range(len(colours)))))
        if form not in classes:
            classes[form] = (i, label, verts)
            continue
        i0, label0, verts0 = classes[form]
        at = {label[k]: verts[k] for k in range(len(verts))}
        perm = {verts0[k]: at[label0[k]] for k in range(len(verts0))}  # τ₀ : R(i0) → R(i), i0 ↦ i
        if _any_bad_among(_extend(perm, n), nbs, verts0):
            return _exact_witness(i0, _extend(perm, n), n, r, f"the known parts at {i0} and {i} are isomorphic, "
                                  "the receptive fields not by that isomorphism, BLISS canonical forms")
    return WitnessSearch(r, True, "exact (Theorem F68, §14.5(f)): at every position whose receptive field reaches "
                                  "depth r, every automorphism of the known part preserves the receptive field, and "
                                  "isomorphic known parts belong to isomorphic receptive fields (BLISS generators and "
                                  "canonical forms), so no receptive witness exists")


def _extend(perm: dict, n: int) -> dict:
    """A bijection between two sets of positions extended to a permutation of 1..n: the positions outside
    its domain go, in increasing order, to the positions outside its image (identities left out)."""
    rest = sorted(set(range(1, n + 1)) - set(perm))
    free = sorted(set(range(1, n + 1)) - set(perm.values()))
    out = dict(perm)
    out.update(zip(rest, free))
    return {k: v for k, v in out.items() if k != v}


def _exact_witness(i: int, perm: dict, n: int, r: int, how: str) -> WitnessSearch:
    moved = sorted(perm)
    swap = moved if len(moved) == 2 else None
    images = None if swap else [perm.get(k, k) for k in range(1, n + 1)]
    return WitnessSearch(r + 1, True, f"receptive witness (Theorem F68: {how}): {r} layer{'s are' if r != 1 else ' is'} not "
                         f"enough, {r + 1} suffice", _witness_record(i, swap, images, perm, r))
