"""Strong connectivity, directed diameter and the receptive-field check of the union over heads.

Every conclusion carries evidence a third party can re-check without trusting this module:

* not strongly connected: a pair (i, j) and the set R of every position with a path to i.  R is
  closed under incoming arcs (no arc enters R from outside), contains i and not j, so no path
  carries x_j to i (``verify_separation``);
* diameter ``<= m``: BFS distance arrays from a few probe vertices (each array is checked locally:
  it is the exact distance iff every arc satisfies d(b) <= d(a) + 1 and every vertex but the root
  has an arc from a vertex one closer), and optionally automorphisms of the union graph.  Since
  ecc_out(w) <= d(w, p) + ecc_out(p) and ecc_out is constant on automorphism orbits, every orbit
  containing a w with min_p d(w, p) + ecc_out(p) <= m has eccentricity <= m
  (``verify_upper_bound``);
* diameter ``>= m``: a pair (j, i) with d(j -> i) = m read off a probe's BFS array.

The diameter is computed exactly by the bounding scheme of Takes & Kosters (2011), in its directed
form: a probe p, by one forward and one backward BFS, bounds every ecc_out(w) within
[max(d(w, p), ecc_out(p) - d(p, w)), d(w, p) + ecc_out(p)].  Probes are chosen alternately with the
largest upper and the smallest lower bound until the largest upper bound meets the largest known
eccentricity.  Vertex-transitive graphs (cyclic windows) never close this way, so when the probes
stall the orbits of Aut(union) are added (all vertices of an orbit share their eccentricity); small
graphs fall back to computing every eccentricity exactly.  A budget that runs out gives proven
lower and upper bounds and ``diameter=None``: an undecided result, never an estimate.  When every
eccentricity would exceed its work limit and the probes' progress (positions settled over the last
``PROGRESS_WINDOW`` probes, a count, so the same on every machine) cannot close the bounds within
``max_probes``, the loop stops early and ``reason`` names the size that fits.
"""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import add, or_, sub
from typing import Any, Optional, Sequence

from ..lazy import igraph as ig  # imported on first use: dense checks never need it

from ..groups import orbits, reflection, rotation
from .build import (PatternGraph, _derived, code_array, code_endpoints, endpoints, reversed_code_array,
                    to_igraph, union_graph)

# When the bounds stall, graphs with n·m up to this fall back to exact all-pairs eccentricities
# (n BFS runs in igraph's C code: about a second per 10⁸ arc visits).
EXHAUSTIVE_MAX_WORK = 300_000_000
#: The diameter's probes and seeded searches (Theorem F131) read at most this many positions and arcs in all (a BFS
#: probe reads each of them once each way, a bit-parallel search once per level); beyond, the diameter is stated by
#: its bounds with the size that fits. 5 to 25 s of CPU here, where a CPU clock of 20 s stopped them before: a count,
#: so whether the diameter is exact does not depend on the machine's speed.
DIAMETER_WORK = 2_000_000_000
# Above this n·m (and on arc arrays) the seeded searches of Theorem F131 are tried before those n BFS runs.
SEEDED_FIRST_WORK = 30_000_000


@dataclass(frozen=True)
class Separation:
    """Evidence that the union is not strongly connected: x_j never reaches position i.

    ``reach_i`` is the set of positions with a directed path to i (i included); it is closed under
    incoming arcs and does not contain j.
    """
    i: int
    j: int
    reach_i: frozenset[int] = field(repr=False)


@dataclass(frozen=True, eq=False)
class BFSProbe:
    """Exact BFS distances around one vertex p (1-based lists: index k-1 is position k).

    ``dist_out[k-1] = d(p -> k)`` (how many layers x_p needs to reach k) and
    ``dist_in[k-1] = d(k -> p)``: tuples, or read-only numpy int64 arrays when the probe loop runs on
    arc arrays (above ``LIST_BOUNDS_MAX_N`` positions). Equal probes have the same vertex and the same
    distances, whichever the representation.
    """
    vertex: int
    dist_out: Sequence[int] = field(repr=False)
    dist_in: Sequence[int] = field(repr=False)

    @functools.cached_property
    def ecc_out(self) -> int:
        d = self.dist_out
        return int(d.max()) if hasattr(d, "max") else max(d)  # numpy's max, not a Python loop over an array

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BFSProbe):
            return NotImplemented
        return (self.vertex == other.vertex and list(map(int, self.dist_out)) == list(map(int, other.dist_out))
                and list(map(int, self.dist_in)) == list(map(int, other.dist_in)))

    def __hash__(self) -> int:
        return hash(self.vertex)


@dataclass(frozen=True, eq=False)
class BFSBatch:
    """Breadth-first searches from up to 64 probes at once, both ways, as bit-parallel level masks
    (read-only numpy uint64 arrays, 0-based positions): bit k of ``forward[L][v]`` is set iff
    d(sources[k] → v) ≤ L, and bit k of ``backward[L][w]`` iff d(w → order[k]) ≤ L. ``order`` holds the
    same probes by ascending ecc_out, so the lowest bit set in ``backward[L][w]`` names the probe of least
    eccentricity within L hops of w. Each mask list ends at its first fixed point; probes are 1-based."""
    sources: tuple[int, ...]
    forward: tuple = field(repr=False)
    order: tuple[int, ...]
    backward: tuple = field(repr=False)


@dataclass(frozen=True)
class UpperBound:
    """Evidence that every pair (j, i) has d(j -> i) <= ``bound``.

    ``method``: "complete" (the union is complete, bound 1; or n = 1, bound 0), "bounds" (probes
    and automorphisms, see the module docstring) or "exhaustive" (``eccentricities[k-1]`` is
    ecc_out(k) for every k, each re-checkable by one BFS).
    """
    bound: int
    method: str
    probes: tuple[BFSProbe, ...] = ()
    automorphisms: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    eccentricities: Optional[tuple[int, ...]] = field(default=None, repr=False)
    #: probes searched 64 at a time on arc arrays (method "bounds" only)
    batches: tuple[BFSBatch, ...] = field(default=(), repr=False)
    #: method "seeded" (Theorem F131): (position, ecc_out) of each searched seed, 1-based, and the bound
    #: array (numpy int64, 0-based) with ecc_out(w) <= seeded_bound[w] for every w
    seeds: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    seeded_bound: Any = field(default=None, repr=False)

    def every_ecc_out(self) -> Any:
        """An upper bound on every position's ecc_out that this certificate holds (the kernel re-checks it with
        the certificate): every eccentricity (method "exhaustive") or Theorem F131's bound array (method
        "seeded"); None otherwise."""
        if self.method == "exhaustive" and self.eccentricities is not None:
            return self.eccentricities
        if self.method == "seeded" and self.seeded_bound is not None:
            return self.seeded_bound
        return None


@dataclass(frozen=True)
class Connectivity:
    """Strong connectivity and directed diameter of the union over heads.

    When strongly connected: ``lower_pair`` = (j, i) with d(j -> i) = ``lower`` and ``upper``
    certified by ``upper_bound``; ``diameter`` is set exactly when ``lower == upper``.
    When not: ``separation`` holds the witness and the diameter fields are None.
    """
    n: int
    strongly_connected: bool
    separation: Optional[Separation] = None
    diameter: Optional[int] = None
    lower: Optional[int] = None
    lower_pair: Optional[tuple[int, int]] = None
    upper: Optional[int] = None
    upper_bound: Optional[UpperBound] = None
    probes_used: int = 0
    #: when the diameter is undecided: which resource ran out, and the size that would fit
    reason: str = ""
    #: when the work limit stopped it: the largest n of this density decided exactly (every eccentricity)
    fits_up_to: Optional[int] = None

    @property
    def witness(self) -> Optional[tuple[int, int]]:
        """(i, j): position i never receives x_j."""
        return None if self.separation is None else (self.separation.i, self.separation.j)


@dataclass(frozen=True)
class LayerCheck:
    """Whether ``budget`` attention layers reach every pair (the receptive-field condition).

    ``sufficient`` is True (proved: diameter <= budget), False (``witness`` = (i, j) with
    d(j -> i) = ``distance`` > budget, ``distance`` None meaning unreachable) or None (undecided).
    """
    budget: int
    sufficient: Optional[bool]
    witness: Optional[tuple[int, int]] = None
    distance: Optional[int] = None
    connectivity: Optional[Connectivity] = None


# ---------------------------------------------------------------------------------------------
# igraph helpers

def _bfs(g: ig.Graph, v0: int, mode: str) -> list[int]:
    return g.distances(source=[v0], mode=mode)[0]


# ---------------------------------------------------------------------------------------------
# Connectivity

def _separation(g: ig.Graph, n: int) -> Optional[Separation]:
    """None when strongly connected; else a witness, preferring (i, j) = (1, smallest j)."""
    to_first = set(g.subcomponent(0, mode="in"))  # who reaches position 1
    if len(to_first) < n:
        j0 = min(v for v in range(n) if v not in to_first)
        return Separation(1, j0 + 1, frozenset(v + 1 for v in to_first))
    from_first = set(g.subcomponent(0, mode="out"))  # whom position 1 reaches
    if len(from_first) < n:
        i0 = min(v for v in range(n) if v not in from_first)
        reach = g.subcomponent(i0, mode="in")
        return Separation(i0 + 1, 1, frozenset(v + 1 for v in reach))
    return None


def analyze_connectivity(graphs: Sequence[PatternGraph], *, max_probes: int = 400,
                         work_budget: int = DIAMETER_WORK, use_symmetry: bool = True,
                         union_automorphisms: Optional[Sequence[Sequence[int]]] = None) -> Connectivity:
    """Strong connectivity and the exact directed diameter of the union over heads.

    ``union_automorphisms``: generators of the whole automorphism group of the union, when the caller
    has them (one unbiased head: its symmetry group); the probe loop then uses their orbits instead of
    running BLISS on the union a second time. Each one is re-checked on the arcs before use."""
    union = union_graph(graphs)
    n = union.n
    if n == 1:
        return Connectivity(1, True, diameter=0, lower=0, lower_pair=(1, 1), upper=0,
                            upper_bound=UpperBound(0, "complete"))
    if union.complete:
        return Connectivity(n, True, diameter=1, lower=1, lower_pair=(2, 1), upper=1,
                            upper_bound=UpperBound(1, "complete"))
    if _array_bounds(n):
        # On arc arrays the first probe's two searches (from a hub) decide strong connectivity: every
        # position reached both ways. Only a pattern that is not gets igraph's canonical witness; the
        # igraph graph is made only if something asks for it (a deep search, the exhaustive test).
        search = _ArraySearch(union)
        degree = search.degree()
        hub = int(degree.argmax())  # the first position of largest degree, as the probe loop picks it
        first = (hub, search.distances(hub, "out"), search.distances(hub, "in"))
        if int(first[1].min()) < 0 or int(first[2].min()) < 0:
            sep = _separation(to_igraph(union), n)
            assert sep is not None  # a position missed from the hub: not strongly connected
            return Connectivity(n, False, separation=sep)
        return _diameter(union, None, max_probes=max_probes, work_budget=work_budget, use_symmetry=use_symmetry,
                         known=union_automorphisms, search=search, degree=degree, first=first)
    g = to_igraph(union)
    sep = _separation(g, n)
    if sep is not None:
        return Connectivity(n, False, separation=sep)
    return _diameter(union, g, max_probes=max_probes, work_budget=work_budget,
                     use_symmetry=use_symmetry, known=union_automorphisms)


#: The probe loop checks its progress over this many probes before it gives up early.
PROGRESS_WINDOW = 8
#: When batches apply, the probes searched one at a time before them, and the probes of one batch.
SEQUENTIAL_PROBES = 3
BATCH_PROBES = 64
#: The level masks all batches may keep for the kernel (uint64 words: 2²⁵ is 256 MiB).
MAX_BATCH_WORDS = 1 << 25


def fitting_n(n: int, arcs: int, work: int) -> int:
    """The largest n' whose n' BFS runs fit ``work`` arc visits for a pattern of the same density
    (arcs ∝ n, so the work grows like n'²·arcs/n)."""
    per_position = max(1.0, arcs / max(1, n))
    return max(1, int((work / per_position) ** 0.5))


#: Up to this many positions the probe loop keeps its bounds in Python lists (numpy's import, about
#: 70 ms, costs more than the loop there); from it on, in numpy arrays. The same integers either way.
LIST_BOUNDS_MAX_N = 8_192

#: With numpy loaded already (a large pattern's symmetry group loads it), the probe loop runs on arrays
#: from this many positions on: the same integers, probe for probe, for less than the lists cost.
ARRAY_BOUNDS_LOADED_MIN_N = 1_024


def _array_bounds(n: int) -> bool:
    return n > LIST_BOUNDS_MAX_N or (n >= ARRAY_BOUNDS_LOADED_MIN_N and "numpy" in sys.modules)


#: No upper bound yet (numpy's int64 maximum // 4 in both representations).
_NO_BOUND = (2 ** 63 - 1) // 4


class _ListBounds:
    """The probe loop's bounds on every ecc_out(w), in Python lists."""

    def __init__(self, n: int, degree: Sequence[int]):
        self.upper = [_NO_BOUND] * n   # upper bound on ecc_out(w)
        self.lower = [0] * n           # lower bound on ecc_out(w)
        self.probed = [False] * n
        self.degree = list(degree)
        self.orbit_of: Optional[list[int]] = None

    def add_probe(self, v0: int, d_in: Sequence[int], d_out: Sequence[int], e_out: int) -> None:
        # upper[w] = min(upper[w], d_in[w] + e_out); lower[w] = max(lower[w], d_in[w], e_out - d_out[w])
        self.upper = [min(u, di + e_out) for u, di in zip(self.upper, d_in)]
        self.lower = [max(lo, di, e_out - do) for lo, di, do in zip(self.lower, d_in, d_out)]
        self.upper[v0] = self.lower[v0] = e_out
        self.probed[v0] = True

    def use_orbits(self, orbit_of: list[int]) -> None:
        self.orbit_of = list(orbit_of)

    def spread_over_orbits(self) -> None:
        """All members of an orbit share ecc_out: share the tightest bounds too."""
        assert self.orbit_of is not None
        up: dict[int, int] = {}
        lo: dict[int, int] = {}
        for o, u, low in zip(self.orbit_of, self.upper, self.lower):
            up[o] = min(up.get(o, _NO_BOUND), u)
            lo[o] = max(lo.get(o, -1), low)
        self.upper = [up[o] for o in self.orbit_of]
        self.lower = [lo[o] for o in self.orbit_of]

    def open_count(self, best: int) -> int:
        return sum(u > best for u in self.upper)

    def top(self) -> int:
        return max(self.upper)

    def hub(self) -> int:
        return self.degree.index(max(self.degree))

    def next_probe(self, best: int, pick_high: bool) -> int:
        """The open position (upper bound above `best`), unprobed if any, with the largest upper
        (`pick_high`) or the smallest lower bound, then the largest degree, then the smallest index."""
        open_ = [w for w, u in enumerate(self.upper) if u > best]
        fresh = [w for w in open_ if not self.probed[w]] or open_
        key = self.upper if pick_high else self.lower
        extreme = max(key[w] for w in fresh) if pick_high else min(key[w] for w in fresh)
        mask = [w for w in fresh if key[w] == extreme]
        most = max(self.degree[w] for w in mask)
        return next(w for w in mask if self.degree[w] == most)


class _ArrayBounds:
    """The same bounds in numpy int64 arrays (large n)."""

    def __init__(self, n: int, degree: Sequence[int]):
        import numpy as np
        self.np = np
        self.n = n
        self.upper = np.full(n, _NO_BOUND, dtype=np.int64)
        self.lower = np.zeros(n, dtype=np.int64)
        self.probed = np.zeros(n, dtype=bool)
        self.degree = np.asarray(degree, dtype=np.int64)
        self.orbit_of: Any = None  # a numpy array once the orbits are known

    def add_probe(self, v0: int, d_in: Sequence[int], d_out: Sequence[int], e_out: int) -> None:
        np = self.np
        a_in = np.asarray(d_in, dtype=np.int64)
        a_out = np.asarray(d_out, dtype=np.int64)
        np.minimum(self.upper, a_in + int(e_out), out=self.upper)
        np.maximum(self.lower, a_in, out=self.lower)
        np.maximum(self.lower, int(e_out) - a_out, out=self.lower)
        self.upper[v0] = self.lower[v0] = e_out
        self.probed[v0] = True

    def add_batch(self, sources0: Sequence[int], ecc: Sequence[int], upper, lower) -> None:
        """A batch's bounds: ``upper`` on every ecc_out (min over its probes of d(w → p) + ecc_out(p)),
        ``lower`` (max over its probes of d(w → p)) and each probe's own ecc_out."""
        np = self.np
        np.minimum(self.upper, upper, out=self.upper)
        np.maximum(self.lower, lower, out=self.lower)
        at = np.asarray(sources0, dtype=np.int64)
        self.upper[at] = self.lower[at] = np.asarray(ecc, dtype=np.int64)
        self.probed[at] = True

    def use_orbits(self, orbit_of: list[int]) -> None:
        self.orbit_of = self.np.asarray(orbit_of, dtype=self.np.int64)

    def spread_over_orbits(self) -> None:
        np = self.np
        assert self.orbit_of is not None
        up = np.full(self.n, _NO_BOUND, dtype=np.int64)
        lo = np.full(self.n, -1, dtype=np.int64)
        np.minimum.at(up, self.orbit_of, self.upper)
        np.maximum.at(lo, self.orbit_of, self.lower)
        self.upper[:] = up[self.orbit_of]
        self.lower[:] = lo[self.orbit_of]

    def open_count(self, best: int) -> int:
        return int((self.upper > best).sum())

    def top(self) -> int:
        return int(self.upper.max())

    def _first(self, mask) -> int:
        return int(self.np.flatnonzero(mask)[0])

    def hub(self) -> int:
        return self._first(self.degree == self.degree.max())

    def next_probes(self, best: int, pick_high: bool, count: int) -> list[int]:
        """The positions `next_probe` would return one after another, alternating from `pick_high`, were
        each marked probed in turn and the bounds left as they are: two rankings of the fresh open
        positions (largest upper bound, then largest degree, then least index; smallest lower bound,
        then the same), taken in turn, each position once. Fewer than `count` when fewer are fresh."""
        np = self.np
        fresh = np.flatnonzero((self.upper > best) & ~self.probed)
        if len(fresh) == 0:
            return []
        deg = self.degree[fresh]
        high = fresh[np.lexsort((fresh, -deg, -self.upper[fresh]))][:count].tolist()
        low = fresh[np.lexsort((fresh, -deg, self.lower[fresh]))][:count].tolist()
        picks: list[int] = []
        taken: set[int] = set()
        rankings = {True: iter(high), False: iter(low)}
        side = pick_high
        while len(picks) < min(count, len(fresh)):
            v = next(w for w in rankings[side] if w not in taken)
            picks.append(v)
            taken.add(v)
            side = not side
        return picks

    def next_probe(self, best: int, pick_high: bool) -> int:
        open_ = self.upper > best
        fresh = open_ & ~self.probed
        if not fresh.any():
            fresh = open_
        if pick_high:
            mask = fresh & (self.upper == self.upper[fresh].max())
        else:
            mask = fresh & (self.lower == self.lower[fresh].min())
        return self._first(mask & (self.degree == self.degree[mask].max()))


class _ArraySearch:
    """BFS distances on the union's compact arc arrays (numpy; graphs.arc_arrays.bfs), for the probe
    loop at large n: about half of igraph's time per search there, most of which goes into the
    Python list of n distances igraph returns, and the arrays go on to the bounds and the re-check
    without a conversion. The graph is strongly connected, so every distance is reached (≥ 0)."""

    #: Levels a numpy search expands before it hands the search to igraph: numpy pays a few calls per
    #: level, so a path-like pattern (window(3) at n = 65,536: 21,845 levels) is searched by igraph.
    MAX_LEVELS = 64

    def __init__(self, union: PatternGraph):
        from .arc_arrays import graph_csr
        self.n, self.union = union.n, union
        self.out, self.in_ = graph_csr(union, "out"), graph_csr(union, "in")
        self.deep = False  # a search went past MAX_LEVELS: igraph searches from then on

    def degree(self):
        """In- plus out-degree of every position (igraph's ``degree(mode="all")``: no loops, no multi-arcs)."""
        import numpy as np
        return np.diff(self.out[0]) + np.diff(self.in_[0])

    def distances(self, v0: int, mode: str):
        """d(v0 → ·) (``"out"``) or d(· → v0) (``"in"``), a read-only numpy int64 array, −1: unreached."""
        import numpy as np
        from .arc_arrays import bfs
        d = None
        if not self.deep:
            (indptr, targets), reverse = (self.out, self.in_) if mode == "out" else (self.in_, self.out)
            d = bfs(indptr, targets, self.n, [v0], radius=self.MAX_LEVELS, reverse=reverse)
            if int(d.min()) < 0 and int((d == self.MAX_LEVELS).sum()) > 0:  # not finished: deeper than that
                self.deep, d = True, None
        if d is None:
            row = np.asarray(_bfs(to_igraph(self.union), v0, mode), dtype=np.float64)
            d = np.where(np.isinf(row), -1, row).astype(np.int64)
        d.flags.writeable = False
        return d

    def batch(self, sources0: Sequence[int]) -> Optional["_SearchedBatch"]:
        """Up to 64 probes searched at once both ways (``arc_arrays.bit_levels``), with what the probe
        loop reads off them; None when a search is deeper than MAX_LEVELS (then one at a time)."""
        import numpy as np
        from .arc_arrays import bit_levels, lowest_bit_index
        if self.deep:
            return None
        n, k = self.n, len(sources0)
        forward = bit_levels(self.in_[0], self.in_[1], n, sources0, self.MAX_LEVELS)
        if forward is None:
            return None
        ecc = _first_levels_everywhere(forward, k)
        if min(ecc) < 0:
            return None  # a probe misses a position (never, strongly connected)
        order = sorted(range(k), key=lambda b: (ecc[b], b))
        backward = bit_levels(self.out[0], self.out[1], n, [sources0[b] for b in order], self.MAX_LEVELS)
        if backward is None:
            return None
        ecc_in = _first_levels_everywhere(backward, k)
        if min(ecc_in) < 0:
            return None
        # index 0: no bit set (lowest_bit_index −1, shifted by one), never a bound
        by_low = np.asarray([_NO_BOUND] + [ecc[b] for b in order], dtype=np.int64)
        upper = np.full(n, _NO_BOUND, dtype=np.int64)
        for level, mask in enumerate(backward):
            candidate = by_low[lowest_bit_index(mask) + 1]
            candidate += level
            np.minimum(upper, candidate, out=upper)
        full = np.uint64((1 << k) - 1)
        lower = np.zeros(n, dtype=np.int64)
        for mask in backward[:-1]:
            lower += mask != full  # max over the probes of d(w → p): the levels before w reaches them all
        evidence = BFSBatch(tuple(v + 1 for v in sources0), tuple(forward),
                            tuple(sources0[b] + 1 for b in order), tuple(backward))
        return _SearchedBatch(evidence, ecc, [ecc_in[order.index(b)] for b in range(k)], upper, lower)


@dataclass(frozen=True, eq=False)
class _SearchedBatch:
    """A batch's evidence and what the probe loop reads off it (``ecc``, ``ecc_in``: per probe, in
    ``evidence.sources`` order)."""
    evidence: BFSBatch
    ecc: list[int]
    ecc_in: list[int]
    upper: Any
    lower: Any

    def far(self, b: int, backward: bool) -> int:
        """The first position (0-based) at the largest distance from probe b (to it, ``backward``)."""
        import numpy as np
        ev = self.evidence
        if backward:
            bit, masks, e = ev.order.index(ev.sources[b]), ev.backward, self.ecc_in[b]
        else:
            bit, masks, e = b, ev.forward, self.ecc[b]
        missing = (masks[e - 1] >> np.uint64(bit)) & np.uint64(1)
        return int(np.flatnonzero(missing == 0)[0])


def _first_levels_everywhere(masks, k: int) -> list[int]:
    """For each bit b < k, the first level at which every position has it (−1: never)."""
    import numpy as np
    first = [-1] * k
    for level, mask in enumerate(masks):
        common = int(np.bitwise_and.reduce(mask))
        for b in range(k):
            if first[b] < 0 and (common >> b) & 1:
                first[b] = level
    return first


def _diameter(union: PatternGraph, g: Optional[ig.Graph], *, max_probes: int, work_budget: int,  # noqa: C901 - the probe loop with its budget and symmetry exits; to be split
              use_symmetry: bool, known: Optional[Sequence[Sequence[int]]] = None,
              search: Optional[_ArraySearch] = None, degree: Any = None,
              first: Optional[tuple] = None) -> Connectivity:
    """The probe loop. On arc arrays the caller passes its ``search``, the degrees and the hub's
    two distance arrays (``first``: the first probe, searched already to decide connectivity); ``g``, the
    union's igraph graph, is then None (made only if the exhaustive test is reached)."""
    n = union.n
    arcs = union.num_arcs  # the igraph graph's edge count: one edge per arc code
    spent = 0  # positions and arcs read by the searches: a probe reads them twice, a batch twice per level
    INF = float("inf")
    if degree is None:
        assert g is not None  # lists: the caller passes the graph
        degree = g.degree(mode="all")
    bounds = _ArrayBounds(n, degree) if search is not None else _ListBounds(n, degree)
    best, best_pair = 0, None  # largest proven distance and the pair (j, i) realising it
    probes: list[BFSProbe] = []
    orbits_known = False   # once symmetry is used
    automorphisms: tuple[tuple[int, ...], ...] = ()
    cheap_tried = bliss_tried = not use_symmetry
    remaining: dict[int, int] = {}  # number of probes -> candidates left then (the progress record)
    # Large graphs whose every eccentricity is out of reach search probes 64 at a time after the first
    # few (bit-parallel, one pass over the arcs per level for all of them): see `_ArraySearch.batch`.
    batching = (search is not None and union.num_arcs >= NUMPY_CHECK_ARCS
                and n * union.num_arcs > EXHAUSTIVE_MAX_WORK)
    batches: list[BFSBatch] = []
    batch_words = 0
    last_batch = 0  # probes in the last step when it was a batch (the progress record's window)

    def used() -> int:
        return len(probes) + sum(len(b.sources) for b in batches)

    def probe_batch(picks: list[int]) -> bool:
        nonlocal best, best_pair, batch_words, spent
        assert search is not None
        got = search.batch(picks)
        if got is None:
            return False
        spent += (n + arcs) * (len(got.evidence.forward) + len(got.evidence.backward))
        batches.append(got.evidence)
        batch_words += n * (len(got.evidence.forward) + len(got.evidence.backward))
        for b, v0 in enumerate(picks):  # as one probe after another would
            if got.ecc[b] > best:
                best, best_pair = got.ecc[b], (v0 + 1, got.far(b, False) + 1)
            if got.ecc_in[b] > best:
                best, best_pair = got.ecc_in[b], (got.far(b, True) + 1, v0 + 1)
        assert isinstance(bounds, _ArrayBounds)
        bounds.add_batch(picks, got.ecc, got.upper, got.lower)
        return True

    def probe(v0: int) -> None:
        nonlocal best, best_pair, spent
        spent += 2 * (n + arcs)
        if search is not None:  # numpy arrays, searched and kept as arrays
            if first is not None and first[0] == v0 and not probes:
                d_out, d_in = first[1], first[2]
            else:
                d_out, d_in = search.distances(v0, "out"), search.distances(v0, "in")
            e_out, e_in = int(d_out.max()), int(d_in.max())
            far_out, far_in = int(d_out.argmax()), int(d_in.argmax())  # the first position at that distance
            probes.append(BFSProbe(v0 + 1, d_out, d_in))
        else:
            assert g is not None
            d_out, d_in = _bfs(g, v0, "out"), _bfs(g, v0, "in")
            e_out, e_in = max(d_out), max(d_in)
            far_out, far_in = d_out.index(e_out), d_in.index(e_in)
            probes.append(BFSProbe(v0 + 1, tuple(d_out), tuple(d_in)))
        if e_out > best:
            best, best_pair = e_out, (v0 + 1, far_out + 1)
        if e_in > best:
            best, best_pair = e_in, (far_in + 1, v0 + 1)
        bounds.add_probe(v0, d_in, d_out, e_out)

    def use(perms) -> None:
        nonlocal orbits_known
        bounds.use_orbits(orbits(n, perms))
        orbits_known = True

    probe(bounds.hub())  # a hub first: global tokens close at once
    pick_high = True
    while True:
        if orbits_known:
            bounds.spread_over_orbits()
        count = bounds.open_count(best)
        remaining[used()] = count
        if not count:
            ub = UpperBound(best, "bounds", tuple(probes), automorphisms, batches=tuple(batches))
            return Connectivity(n, True, diameter=best, lower=best, lower_pair=best_pair,
                                upper=best, upper_bound=ub, probes_used=used())
        if not cheap_tried and used() >= 8 and known is not None and not any(
                p != tuple(range(1, n + 1)) for p in map(tuple, known)):
            # the caller's whole automorphism group is trivial: neither the rotation nor the
            # reflection (both move points for n ≥ 2) is an automorphism, as the check would find
            cheap_tried = True
        if not cheap_tried and used() >= 8:
            # stalled: vertex-transitive patterns (circulants) need symmetry; try the rotation
            # and the reflection first, they cost one pass over the arcs each
            cheap_tried = True
            automorphisms = tuple(p for p in (rotation(n), reflection(n))
                                  if _is_graph_automorphism(p, union))
            if automorphisms:
                use(automorphisms)
                continue
        exhaustive_fits = n * arcs <= EXHAUSTIVE_MAX_WORK
        if used() >= 16 and exhaustive_fits:
            if search is not None and n * arcs > SEEDED_FIRST_WORK:
                # on arc arrays the seeded searches (Theorem F131) are far cheaper than n BFS runs
                seeded = _seeded_diameter(union, search, bounds, best, best_pair, work_budget - spent, used())
                if seeded is not None and seeded.diameter is not None:
                    return seeded
            return _exhaustive(union, g if g is not None else to_igraph(union), probes)
        if not bliss_tried and used() >= 16:
            bliss_tried = True
            gens: Optional[list[tuple[int, ...]]]
            if known is not None:
                gens = [p for p in map(tuple, known) if p != tuple(range(1, n + 1))]
            else:
                gens = _union_automorphisms(union)
            # a wrong automorphism would make a wrong diameter: re-check each one on the arcs
            if gens and all(_is_graph_automorphism(p, union) for p in gens):
                automorphisms = automorphisms + tuple(gens)
                use(automorphisms)
                continue
        reason, fit, named = None, None, None
        span = last_batch or PROGRESS_WINDOW
        if used() >= max_probes or spent > work_budget:
            cap = min(EXHAUSTIVE_MAX_WORK, work_budget)
            named = fitting_n(n, arcs, cap)  # the size whose n BFS runs fit the smaller limit: named, never used
            reason = (f"the probes ran out of their budget ({used()} BFS probes, limit {max_probes}; {spent:,} "
                      f"reads of positions and arcs, limit {work_budget:,}); every eccentricity takes n = {n:,} BFS "
                      f"runs over {arcs:,} arcs ({n * arcs:,} arc visits, limit {cap:,}): the exact diameter of a "
                      f"pattern of this density is decided up to about n = {named:,}")
        elif used() >= 16 and bliss_tried and used() - span in remaining:
            removed = remaining[used() - span] - count
            needed = count * span / removed if removed > 0 else INF
            if used() + needed > max_probes:
                work = n * arcs
                fit = fitting_n(n, arcs, EXHAUSTIVE_MAX_WORK)
                reason = (f"after {used()} BFS probes {count:,} positions still have an eccentricity bound "
                          f"above the longest distance found ({best}), and the last {span} probes "
                          f"settled {max(0, removed):,} of them, so the probes would not close within their "
                          f"limit ({max_probes}); every eccentricity takes n = {n:,} BFS runs over "
                          f"{arcs:,} arcs ({work:,} arc visits, limit {EXHAUSTIVE_MAX_WORK:,}): the exact "
                          f"diameter of a pattern of this density is decided up to about n = {fit:,}")
        if reason is not None and fit is not None and search is not None:
            # the probes stall: settle the eccentricities by seeded searches instead (Theorem F131), within what
            # is left of the work bound, the only limit there
            seeded = _seeded_diameter(union, search, bounds, best, best_pair, work_budget - spent, used())
            if seeded is not None:
                return seeded
        if reason is not None:
            top = bounds.top()
            ub = UpperBound(top, "bounds", tuple(probes), automorphisms, batches=tuple(batches))
            return Connectivity(n, True, diameter=None, lower=best, lower_pair=best_pair,
                                upper=top, upper_bound=ub, probes_used=used(), reason=reason,
                                fits_up_to=fit if fit is not None else named)
        if batching and used() >= SEQUENTIAL_PROBES and n * 2 * (best + 2) + batch_words <= MAX_BATCH_WORDS:
            # the next probes by the same rule, each pick leaving the fresh ones, searched at once
            assert isinstance(bounds, _ArrayBounds)
            picks = bounds.next_probes(best, pick_high, min(BATCH_PROBES, max_probes - used()))
            if len(picks) % 2:
                pick_high = not pick_high
            if len(picks) > 1 and probe_batch(picks):
                last_batch = len(picks)
                continue
            batching = False  # deeper than a batch searches: one probe at a time from here
        last_batch = 0
        v = bounds.next_probe(best, pick_high)
        pick_high = not pick_high
        probe(v)


#: Seeded searches (Theorem F131): the seeds searched first, in order of out-degree, before the open positions
#: are settled one search each; seeding goes on while a batch of 64 seeds closes more than 64 open positions.
SEED_BATCH = 64
#: One wide search (arc_arrays.wide_search) takes a batch's positions not searched yet and the positions the same rule
#: would pick next, up to SEED_BATCH × SEED_AHEAD in all.
SEED_AHEAD = 4


def _propagated(ub, out_indptr, out_targets):
    """The least fixed point below ``ub`` of ub(w) <= 1 + ub(z) over the arcs w -> z (numpy int64): every
    position has an out-arc (strongly connected, n >= 2), so each position's least neighbour bound is one
    reduceat over the out-arcs; the iteration stops when nothing changes (at most max(ub) rounds)."""
    import numpy as np
    from .arc_arrays import _padded_rows
    # padded with the last z or w itself: no effect
    columns, rest, shifts = _padded_rows(out_indptr, out_targets, len(ub))
    while True:
        cand = ub.copy()
        for column in columns:
            np.minimum(cand, ub[column], out=cand)
        for c, lo, hi in shifts:  # the arcs w → w + c for lo ≤ w < hi
            np.minimum(cand[lo:hi], ub[lo + c:hi + c], out=cand[lo:hi])
        if rest is not None:
            heads, tails, starts = rest
            cand[heads] = np.minimum(cand[heads], np.minimum.reduceat(ub[tails], starts))
        cand += 1
        new = np.minimum(ub, cand)
        if np.array_equal(new, ub):
            return ub
        ub = new


def _seeded_diameter(union: PatternGraph, search: "_ArraySearch", bounds: "_ListBounds | _ArrayBounds",  # noqa: C901 - one loop: seeds, then open positions, with its budget exit
                     best: int, best_pair, budget: int, probes_used: int) -> Optional[Connectivity]:
    """The exact diameter by seeded searches (docs/theory.md §11.3, Theorem F131): forward searches, 64 at a time,
    give the exact ecc_out of their sources (the seeds); ecc_out(w) <= 1 + ecc_out(z) for an arc w -> z spreads
    their values to an upper bound on every position; the positions whose bound stays above the longest distance
    found are searched themselves, until none is left. The positions the probes searched already are seeds too.
    None when a search is deeper than the bit-parallel levels allow (the caller keeps its bounds). When ``budget``
    (reads of positions and arcs: a wide search reads them once per level) would run out first, the bounds found so
    far, the reason and the size that fits."""
    import numpy as np
    from .arc_arrays import bfs, spread_lowered
    n = union.n
    arcs = union.num_arcs
    spent = 0
    in_indptr, in_tails = search.in_
    out_indptr, out_targets = search.out
    settled = np.zeros(n, dtype=bool)
    ecc = np.full(n, -1, dtype=np.int64)
    probed = np.flatnonzero(np.asarray(bounds.probed, dtype=bool))
    if len(probed):
        up = np.asarray(bounds.upper, dtype=np.int64)[probed]
        low = np.asarray(bounds.lower, dtype=np.int64)[probed]
        keep = probed[up == low]  # a probe's own bounds are its exact eccentricity
        settled[keep] = True
        ecc[keep] = np.asarray(bounds.upper, dtype=np.int64)[keep]
    ub = np.where(settled, ecc, _NO_BOUND)
    ub = _propagated(ub, out_indptr, out_targets)
    out_degree = np.diff(out_indptr)
    seed_order = np.lexsort((np.arange(n), -out_degree))  # largest out-degree first, then the least index
    seed_at = 0
    seeding = True
    batch_cost = 0
    searches = 0

    def bounded(reason: str, fit: Optional[int]) -> Connectivity:
        top = int(ub.max())
        seeds = tuple((int(v) + 1, int(ecc[v])) for v in np.flatnonzero(settled))
        ub.flags.writeable = False
        cert = UpperBound(top if reason else best, "seeded", seeds=seeds, seeded_bound=ub)
        if not reason:
            return Connectivity(n, True, diameter=best, lower=best, lower_pair=best_pair, upper=best,
                                upper_bound=cert, probes_used=probes_used + searches)
        return Connectivity(n, True, diameter=None, lower=best, lower_pair=best_pair, upper=top, upper_bound=cert,
                            probes_used=probes_used + searches, reason=reason, fits_up_to=fit)

    known: dict[int, int] = {}  # eccentricities found ahead: position → ecc_out
    while True:
        open_ = ub > best
        count = int(open_.sum())
        if not count:
            return bounded("", None)
        if seeding:
            while seed_at < n and settled[seed_order[seed_at]]:
                seed_at += 1
            following = seed_order[seed_at:seed_at + SEED_BATCH * SEED_AHEAD]
            following = following[~settled[following]]
            picks = seed_order[seed_at:seed_at + SEED_BATCH]
            picks = picks[~settled[picks]]
            seed_at += SEED_BATCH
        else:
            todo = np.flatnonzero(open_ & ~settled)
            following = todo[np.lexsort((todo, -ub[todo]))][:SEED_BATCH * SEED_AHEAD]
            picks = following[:SEED_BATCH]
        if len(picks) == 0:
            seeding = False
            continue
        sources = [int(v) for v in picks]
        missing = [v for v in sources if v not in known]
        if missing:
            if batches_left := (0 if seeding else -(-count // SEED_BATCH)):
                needed = spent + batches_left * batch_cost
            else:
                needed = spent + batch_cost
            if searches and needed > budget:
                projected = spent + max(1, -(-count // SEED_BATCH)) * batch_cost
                fit = max(1, int(n * (max(budget, 1) / max(projected, 1)) ** 0.5))
                return bounded(f"the diameter's work bound ({max(budget, 0):,} reads of positions and arcs left after "
                               f"the probes) ran out: after {searches:,} seeded searches {count:,} positions still have "
                               f"an eccentricity bound above the longest distance found ({best}), which would take "
                               f"about {projected:,} reads in all (searches of {n:,} positions over {arcs:,} arcs, 64 "
                               f"at a time); the exact diameter of a pattern of this density fits that bound up to "
                               f"about n = {fit:,}", fit)
            # the batch's positions not searched yet, and with them the positions the same rule would pick next (the
            # next seeds in order, or the next open positions by bound): one wide search; the batches are taken one
            # at a time as before, each with its own positions' eccentricities, whichever search found them
            taken = set(missing)
            fill = missing + [v for v in following.tolist() if v not in known and v not in taken]
            fill = fill[:SEED_BATCH * SEED_AHEAD]
            # the kernel's own search (it keeps each eccentricity, and the certificate's re-check reads them back)
            first, level = kernel_ecc_out(union, fill, search.MAX_LEVELS)
            cost = (n + arcs) * (level + 1)
            spent += cost
            if int(first[:len(missing)].min()) < 0:
                return None  # deeper than the bit-parallel searches go (never unreached: strongly connected)
            known.update((v, int(e)) for v, e in zip(fill, first.tolist()) if e >= 0)
            batch_cost = max(batch_cost, -(-cost * SEED_BATCH // len(fill)))
        got = [known.pop(v) for v in sources]
        for v, e in zip(sources, got):
            ecc[v] = e
            settled[v] = True
            if e > best:  # the least position at distance e from v
                dist = bfs(out_indptr, out_targets, n, [v])
                best, best_pair = e, (v + 1, int(np.flatnonzero(dist == e)[0]) + 1)
        searches += len(sources)
        before = count
        at = np.asarray(sources, dtype=np.int64)
        lowered = at[ecc[at] < ub[at]]
        ub[lowered] = ecc[lowered]
        # ub met ub(w) <= 1 + ub(z) on every arc before: spreading from the lowered seeds gives the same least fixed
        # point as passes over all the arcs (_propagated)
        spread_lowered(ub, lowered, in_indptr, in_tails)
        if seeding and before - int((ub > best).sum()) <= len(sources):
            seeding = False  # a batch of seeds closed no more than searching the open positions would


def _exhaustive(union: PatternGraph, g: ig.Graph, probes: list[BFSProbe]) -> Connectivity:
    ecc = [int(e) for e in g.eccentricity(mode="out")]
    d = max(ecc)
    j0 = ecc.index(d)
    dist = _bfs(g, j0, "out")
    pair = (j0 + 1, dist.index(d) + 1)
    ub = UpperBound(d, "exhaustive", eccentricities=tuple(ecc))
    return Connectivity(union.n, True, diameter=d, lower=d, lower_pair=pair, upper=d,
                        upper_bound=ub, probes_used=len(probes))


def _union_automorphisms(union: PatternGraph) -> Optional[list[tuple[int, ...]]]:
    from .symmetry import automorphisms_of_graph  # local import: symmetry imports build only
    return automorphisms_of_graph(union)


# ---------------------------------------------------------------------------------------------
# The receptive-field check

def check_layers(graphs: Sequence[PatternGraph], budget: int,
                 connectivity: Optional[Connectivity] = None) -> LayerCheck:
    """Do ``budget`` attention layers carry every x_j to every position i?"""
    c = connectivity if connectivity is not None else analyze_connectivity(graphs)
    if not c.strongly_connected:
        return LayerCheck(budget, False, c.witness, None, c)
    if c.upper is not None and c.upper <= budget:
        return LayerCheck(budget, True, None, None, c)
    if c.lower is not None and c.lower > budget:
        assert c.lower_pair is not None  # set together with `lower`
        j, i = c.lower_pair
        return LayerCheck(budget, False, (i, j), c.lower, c)
    return LayerCheck(budget, None, None, None, c)


# ---------------------------------------------------------------------------------------------
# Re-checking evidence (independent of igraph: plain Python over the arc codes)

def adjacency_lists(graph: PatternGraph) -> tuple[list[list[int]], list[list[int]]]:
    """0-based (out-neighbour lists, in-neighbour lists) in the order of ``endpoints``, in plain Python over the arc
    codes. Made once per graph and kept on it (the diameter's re-check, the distance of its realising pair and the
    proof kernel's check of automorphism generators read the same lists); callers must not modify them."""
    cache = _derived(graph)
    if "adjacency lists" not in cache:
        n = graph.n
        sources, targets = endpoints(graph)
        if graph.complete and _complete_in_code_order(n, sources, targets):
            # every arc, in ascending codes: each list is every other position, ascending (as the loop makes them)
            outs = [[*range(v), *range(v + 1, n)] for v in range(n)]
            ins = [[*range(v), *range(v + 1, n)] for v in range(n)]
        else:
            outs = [[] for _ in range(n)]
            ins = [[] for _ in range(n)]
            for j0, i0 in zip(sources, targets):
                outs[j0].append(i0)
                ins[i0].append(j0)
        cache["adjacency lists"] = (outs, ins)
    return cache["adjacency lists"]


def _complete_in_code_order(n: int, sources: list[int], targets: list[int]) -> bool:
    """The arcs j → i (i ≠ j) of the complete graph on n positions, listed in ascending codes j·n + i (compared
    list to list, in C)."""
    return (sources == list(chain.from_iterable(map(repeat, range(n), repeat(n - 1, n))))
            and targets == list(chain.from_iterable(chain(range(v), range(v + 1, n)) for v in range(n))))


def verify_separation(graphs: Sequence[PatternGraph], sep: Separation) -> bool:
    """Re-check that no directed path carries x_j to i."""
    union = union_graph(graphs)
    n = union.n
    reach = sep.reach_i
    if sep.i not in reach or sep.j in reach or not all(1 <= v <= n for v in reach):
        return False
    if union.complete:
        return False
    for j0, i0 in zip(*endpoints(union)):
        if (i0 + 1) in reach and (j0 + 1) not in reach:
            return False  # an arc enters the closed set: it is not closed
    return True


def _valid_bfs(root0: int, dist: Sequence[int], preds: list[list[int]], succs: list[list[int]]) -> bool:
    """dist is the exact BFS distance from root0 along the arcs given by succs (preds: the same arcs reversed), and
    every vertex is reached. The distances are searched again from root0 and compared entry by entry: the same answer
    as the local conditions (dist[root0] = 0; every other vertex at distance ≥ 1 with a predecessor one step closer; no
    successor more than one step further), which hold exactly for the true distances with every vertex reached (a
    chain of closer predecessors is a path of length dist[a], and along a shortest path dist grows by at most one a
    step), in one pass over the arcs instead of two reads of each vertex's lists."""
    n = len(preds)
    if len(dist) != n or len(succs) != n or not 0 <= root0 < n:
        return False
    searched = _plain_bfs(succs, root0)
    return -1 not in searched and list(dist) == searched


def _eccentricities(ins: list[list[int]]) -> Optional[list[int]]:
    """The out-eccentricity of every vertex (0-based lists of in-neighbours), or None when some vertex does
    not reach every other: all the searches at once, bit-parallel. ``reach[w]`` holds bit s when d(s → w) ≤ k;
    one level ors into it the sets of w's in-neighbours, so the work is one pass over the arcs per level, up to
    the largest eccentricity, instead of one search per vertex. Vertex s's eccentricity is the first level at
    which bit s is in every ``reach[w]``."""
    n = len(ins)
    reach = [1 << w for w in range(n)]
    full = (1 << n) - 1
    ecc: list = [None] * n
    done = 0
    level = 0
    while True:
        common = full
        for r in reach:
            common &= r
        fresh = common & ~done
        while fresh:
            low = fresh & -fresh
            ecc[low.bit_length() - 1] = level
            fresh ^= low
        done |= common
        if done == full:
            return ecc
        grown = [functools.reduce(or_, map(reach.__getitem__, into), own) for own, into in zip(reach, ins)]
        if grown == reach:
            return None  # nothing more is reached: some vertex never reaches some other
        reach = grown
        level += 1


def _plain_bfs(outs: list[list[int]], source: int, stop: Optional[int] = None) -> list[int]:
    """0-based distances from `source` (−1: unreachable), in plain Python so that re-checks do not
    depend on igraph; stops early once `stop` is reached."""
    dist = [-1] * len(outs)
    dist[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for a in frontier:
            for b in outs[a]:
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    if b == stop:
                        return dist
                    nxt.append(b)
        frontier = nxt
    return dist


def _arc_arrays(union: PatternGraph):
    """(sources, targets) as numpy int64 arrays, 0-based, from exact integer division of the codes."""
    return code_endpoints(union)


def _valid_bfs_arrays(root0: int, dist: Sequence[int], grouped: "_InArcs", n: int) -> bool:
    """`_valid_bfs` on arc arrays, vectorised. ``grouped``: the arcs of the search's direction grouped
    by head (``_InArcs``). The three conditions of `_valid_bfs` (dist[root] = 0 and every other vertex
    at distance ≥ 1; no arc a → b with dist[b] > dist[a] + 1; every other vertex has an in-arc from
    distance dist − 1) hold iff the first does, every other vertex b has an in-arc, and
    min over in-arcs a → b of dist[a] = dist[b] − 1: the minimum is ≥ dist[b] − 1 exactly when no
    in-arc of b breaks the second, and ≤ exactly when one meets the third (arcs into the root meet the
    second whatever they are, every distance being ≥ 0)."""
    import numpy as np
    if len(dist) != n or dist[root0] != 0:
        return False
    d = np.asarray(dist, dtype=np.int64)
    if int((d < 1).sum()) != 1:  # only the root is at distance 0, none unreached (−1)
        return False
    heads = grouped.heads
    missing = n - len(heads)
    if missing > 1 or (missing == 1 and not grouped.is_head_missing(root0)):
        return False  # a vertex other than the root has no in-arc
    least = np.minimum.reduceat(d[grouped.tails], grouped.starts)  # min of dist over each head's in-arcs
    expected = d[heads] - 1
    if missing == 0:  # every vertex is a head (heads = 0, …, n − 1), the root too: its in-arcs need nothing
        least[root0] = expected[root0]
    return bool(np.array_equal(least, expected))


def _valid_bit_levels(sources: Sequence[int], masks: Sequence, grouped: "_InArcs", n: int) -> bool:
    """``masks`` are the level masks of a bit-parallel search from ``sources`` (1-based; bit k for
    sources[k]) along the arcs grouped by head in ``grouped``: level 0 is each source's own bit, each
    next level is the previous one or-ed, at every head, with the masks of its arcs' tails, the last
    level is its own next (nothing more is reached) and every position has every bit (all reached).
    Then bit k of masks[L][v] is set iff the search distance from sources[k] to v is at most L."""
    import numpy as np
    k = len(sources)
    if not (1 <= k <= 64) or len(set(sources)) != k or not all(1 <= v <= n for v in sources) or not masks:
        return False
    if any(getattr(m, "dtype", None) != np.uint64 or m.shape != (n,) for m in masks):
        return False
    start = np.zeros(n, dtype=np.uint64)
    start[np.asarray(sources, dtype=np.int64) - 1] = np.left_shift(np.uint64(1), np.arange(k, dtype=np.uint64))
    if not np.array_equal(masks[0], start):
        return False
    everyone = len(grouped.heads) == n  # every position has an arc in: the or-ed masks line up with them
    for level, mask in enumerate(masks):
        if everyone:
            nxt = np.bitwise_or.reduceat(mask[grouped.tails], grouped.starts)
            nxt |= mask
        else:
            nxt = mask.copy()
            if len(grouped.tails):
                nxt[grouped.heads] |= np.bitwise_or.reduceat(mask[grouped.tails], grouped.starts)
        want = masks[level + 1] if level + 1 < len(masks) else mask
        if not np.array_equal(nxt, want):
            return False
    return bool((masks[-1] == np.uint64((1 << k) - 1)).all())


def _batch_bound(batch: BFSBatch, n: int):
    """Every position's bound min over the batch's probes p of d(w → p) + ecc_out(p) (numpy int64), from
    masks `_valid_bit_levels` accepted: ecc_out(p) is the first forward level at which every position
    has p's bit; ``order`` must list the probes by ascending ecc_out, so the lowest bit set in a
    backward mask names the least ecc_out within that many hops. None when it does not."""
    import numpy as np
    from .arc_arrays import lowest_bit_index
    k = len(batch.sources)
    ecc = [-1] * k
    for level, mask in enumerate(batch.forward):
        common = int(np.bitwise_and.reduce(mask))
        for b in range(k):
            if ecc[b] < 0 and (common >> b) & 1:
                ecc[b] = level
    of = dict(zip(batch.sources, ecc))
    by_order = np.asarray([of[v] for v in batch.order], dtype=np.int64)
    if min(ecc) < 0 or bool((by_order[1:] < by_order[:-1]).any()):
        return None
    unreached = 2 ** 62  # no bit set yet: no bound (above any level plus eccentricity)
    by_low = np.concatenate(([unreached], by_order))  # lowest_bit_index + 1: 0 when no bit is set
    bound = np.full(n, unreached, dtype=np.int64)
    for level, mask in enumerate(batch.backward):
        np.minimum(bound, by_low[lowest_bit_index(mask) + 1] + level, out=bound)
    return bound


class _InArcs:
    """The arcs of one direction grouped by head for `_valid_bfs_arrays`, from the kernel's own
    division of the codes: ``tails`` in head order, ``heads`` the distinct heads ascending and
    ``starts`` where each head's arcs begin."""

    def __init__(self, tail, head, n: int, grouped_codes=None):
        import numpy as np
        if len(head) and bool((head[1:] >= head[:-1]).all()):  # already grouped (sorted codes, by source)
            sorted_heads, self.tails = head, tail
        else:  # the codes head·n + tail sorted (each arc once: distinct codes), then divided
            # (``grouped_codes``: that sorted array, when the graph has it cached)
            grouped = np.sort(head * n + tail) if grouped_codes is None else grouped_codes
            sorted_heads = grouped // n
            self.tails = grouped - sorted_heads * n
        if len(sorted_heads):
            first = np.concatenate(([True], sorted_heads[1:] != sorted_heads[:-1]))
            self.starts = np.flatnonzero(first)
            self.heads = sorted_heads[self.starts]
        else:
            self.starts = self.heads = np.zeros(0, dtype=np.int64)

    def is_head_missing(self, v: int) -> bool:
        import numpy as np
        at = int(np.searchsorted(self.heads, v))
        return at == len(self.heads) or int(self.heads[at]) != v


#: From this many arcs on, the probes' BFS arrays are re-checked with numpy (same conditions).
NUMPY_CHECK_ARCS = 50_000
#: From this many (probe, position) entries on, the probes' bounds are combined with numpy.
NUMPY_BOUNDS_ENTRIES = 4_096


def verify_upper_bound(graphs: Sequence[PatternGraph], ub: UpperBound) -> bool:
    """Re-check that every pair (j, i) of the union has d(j -> i) <= ub.bound."""
    union = union_graph(graphs)
    n = union.n
    if ub.method == "complete":
        return (n == 1 and ub.bound >= 0) or (union.complete and ub.bound >= 1)
    if ub.method == "seeded":
        return _seeded_bound_holds(union, ub)
    if ub.method == "bounds" and (ub.probes or ub.batches) and union.num_arcs >= NUMPY_CHECK_ARCS and n * n < 2 ** 63:
        return _upper_bound_on_arrays(union, ub)
    if ub.batches:
        return False  # batches are searched, and checked, on arc arrays only
    outs, ins = adjacency_lists(union)
    if ub.method == "exhaustive":
        ecc = ub.eccentricities
        if ecc is None or len(ecc) != n or max(ecc) > ub.bound:
            return False
        got = _eccentricities(ins)  # every vertex's, all at once: as one search per vertex would find them
        return got is not None and not any(mine != theirs for mine, theirs in zip(got, ecc))
    if ub.method != "bounds" or not ub.probes:
        return False
    for p in ub.probes:
        v0 = p.vertex - 1
        if not (0 <= v0 < n):
            return False
        if not _valid_bfs(v0, p.dist_out, ins, outs) or not _valid_bfs(v0, p.dist_in, outs, ins):
            return False
    return _probe_bounds_hold(union, ub)


def _upper_bound_on_arrays(union: PatternGraph, ub: UpperBound) -> bool:
    """`verify_upper_bound` for probes and batches on arc arrays (numpy): every distance array and
    every batch's level masks checked arc by arc, then the bound."""
    n = union.n
    src, dst = _arc_arrays(union)
    # heads: the arcs' targets (the reversed codes (i−1)·n + (j−1), sorted); their sources
    into, out_of = _InArcs(src, dst, n, reversed_code_array(union)), _InArcs(dst, src, n)
    for p in ub.probes:
        v0 = p.vertex - 1
        if not (0 <= v0 < n):
            return False
        if not _valid_bfs_arrays(v0, p.dist_out, into, n) or not _valid_bfs_arrays(v0, p.dist_in, out_of, n):
            return False
    for b in ub.batches:
        if not (_valid_bit_levels(b.sources, b.forward, into, n) and sorted(b.order) == sorted(b.sources)
                and _valid_bit_levels(b.order, b.backward, out_of, n)):
            return False
    return _probe_bounds_hold(union, ub)


def _seeded_bound_holds(union: PatternGraph, ub: UpperBound) -> bool:
    """Theorem F131's certificate: each seed's eccentricity re-computed (bit-parallel searches, 256 seeds at a time,
    on the kernel's own grouping of the arcs), the bound array at least the eccentricity at every seed and at least
    1 + the least bound over the out-arcs at every other position, and no entry above ``ub.bound``. Then
    ecc_out(w) <= bound[w] everywhere, by induction on the bound's value."""
    import numpy as np
    n = union.n
    bound = ub.seeded_bound
    if bound is None or getattr(bound, "shape", None) != (n,) or not ub.seeds or n < 2:
        return False
    bound = np.asarray(bound, dtype=np.int64)
    if int(bound.min()) < 0 or int(bound.max()) > ub.bound:
        return False
    src, dst = _arc_arrays(union)
    out_of = _InArcs(dst, src, n)
    seeds = [v for v, _ in ub.seeds]
    claimed = np.asarray([e for _, e in ub.seeds], dtype=np.int64)
    if len(set(seeds)) != len(seeds) or not all(1 <= v <= n for v in seeds):
        return False
    at = np.asarray(seeds, dtype=np.int64) - 1
    # a seed the kernel searched already on this graph (`kernel_ecc_out`, which the diameter's own search calls) is
    # compared with that search's value; the others are searched here
    found = _derived(union).get(_KERNEL_ECC)
    todo = np.arange(len(seeds), dtype=np.int64)
    if found:
        known = np.asarray([found.get(v - 1, -1) for v in seeds], dtype=np.int64)
        have = known >= 0
        if bool((known[have] != claimed[have]).any()) or bool((known[have] > int(ub.bound)).any()):
            return False
        todo = todo[~have]
    if len(todo):
        layout = _kernel_layout(union)
        # searched in the order of the claimed values (each claim is compared with its own seed's search, whatever the
        # order): a search lasts as many levels as its largest eccentricity, so seeds of one value are searched together
        by_claim = todo[np.argsort(claimed[todo], kind="stable")]
        for k in range(0, len(by_claim), KERNEL_SEEDS):
            part = by_claim[k:k + KERNEL_SEEDS]
            got = _kernel_eccentricities([seeds[i] for i in part.tolist()], layout, n, int(ub.bound))
            if got is None or got != claimed[part].tolist():
                return False
    if bool((bound[at] < claimed).any()):
        return False
    if len(out_of.heads) != n:  # a position without an out-arc: not strongly connected
        return False
    least = np.minimum.reduceat(bound[out_of.tails], out_of.starts) + 1
    is_seed = np.zeros(n, dtype=bool)
    is_seed[at] = True
    return bool(((bound >= least) | is_seed).all())


def _kernel_columns(grouped: "_InArcs", n: int):
    """The arcs of ``grouped`` (by head) as padded columns plus the rest (arc_arrays._padded_rows: one gather per
    column instead of one per arc; padding with a head's last tail or the head itself changes no or)."""
    import numpy as np
    from .arc_arrays import _padded_rows
    indptr = np.zeros(n + 1, dtype=np.int64)
    if len(grouped.tails):
        ends = np.concatenate((grouped.starts[1:], [len(grouped.tails)]))
        indptr[grouped.heads + 1] = ends - grouped.starts
        np.cumsum(indptr, out=indptr)
    return _padded_rows(indptr, grouped.tails, n)


#: Seeds one kernel search follows at once (64 per uint64 word of a position's row).
KERNEL_SEEDS = 256


def _kernel_eccentricities(sources: Sequence[int], layout, n: int, cap: Optional[int] = None) -> Optional[list[int]]:
    """ecc_out of up to KERNEL_SEEDS sources (1-based) by one bit-parallel search (`_kernel_levels`). None when some
    position is never reached, or, with ``cap``, when some source's eccentricity is above it."""
    ecc, _ = _kernel_levels(sources, layout, n, cap)
    return None if bool((ecc < 0).any()) else ecc.tolist()


_KERNEL_ECC = "kernel ecc_out"  # the derived-forms key of the eccentricities `kernel_ecc_out` found: 0-based position → ecc


def _kernel_layout(union: PatternGraph):
    """The kernel's own grouping of ``union``'s arcs by head, as padded columns (`_kernel_columns`); cached on the graph."""
    cache = _derived(union)
    if "kernel layout" not in cache:
        src, dst = _arc_arrays(union)
        cache["kernel layout"] = _kernel_columns(_InArcs(src, dst, union.n, reversed_code_array(union)), union.n)
    return cache["kernel layout"]


def kernel_ecc_out(union: PatternGraph, sources: Sequence[int], cap: int):
    """(ecc, level): ecc_out of up to KERNEL_SEEDS sources (0-based) by the kernel's own search on ``union``
    (`_kernel_levels`), −1 for a source whose bit is not everywhere by level ``cap``, and the last level searched.
    Each eccentricity found is kept on the graph, and the re-check of a seeded bound (`_seeded_bound_holds`) compares
    a seed's claimed value with it instead of searching that seed again: one search per position, by the kernel's
    code, whichever asks first."""
    positions = [int(v) for v in sources]
    ecc, level = _kernel_levels([v + 1 for v in positions], _kernel_layout(union), union.n, cap)
    kept = _derived(union).setdefault(_KERNEL_ECC, {})
    for v, e in zip(positions, ecc.tolist()):
        if e >= 0:
            kept[v] = e
    return ecc, level


def _kernel_levels(sources: Sequence[int], layout, n: int, cap: Optional[int] = None):
    """(ecc, level): ecc_out of up to KERNEL_SEEDS sources (1-based) by one bit-parallel search along the arcs grouped
    by head (``layout``: `_kernel_columns`), each position holding a row of uint64 words (bit b of word w for source
    64 w + b): level 0 each source's own bit, each next level the previous one or-ed at every head with its in-arcs'
    tails; a source's eccentricity is the first level at which every position holds its bit. A source whose bit is not
    everywhere when the search stops has −1: with ``cap`` the search stops at level ``cap``, without one at a fixed
    point (some position never reached). ``level``: the last level searched."""
    import numpy as np
    from .arc_arrays import _and_of_rows, _or_of_columns
    k = len(sources)
    words = -(-k // 64)
    index = np.arange(k, dtype=np.int64)
    bits = np.left_shift(np.uint64(1), (index % 64).astype(np.uint64))
    mask = np.zeros((n, words), dtype=np.uint64)
    np.bitwise_or.at(mask, (np.asarray(sources, dtype=np.int64) - 1, index // 64), bits)
    ecc = np.full(k, -1, dtype=np.int64)
    columns, rest, shifts = layout
    buf = np.empty_like(mask)
    found = np.zeros(words, dtype=np.uint64)
    sample = max(1, n // 256)
    spare = None
    level = 0
    while True:
        if bool((_and_of_rows(mask[::sample]) & ~found).any()):  # a bit in every row is in every sampled row
            common = _and_of_rows(mask)
            ecc[((common[index // 64] & bits) != 0) & (ecc < 0)] = level
            found |= common
        if bool((ecc >= 0).all()) or (cap is not None and level >= cap):
            return ecc, level
        nxt = _or_of_columns(mask, columns, spare if spare is not None else np.empty_like(mask), buf, shifts)
        if rest is not None:
            heads, tails, starts = rest
            nxt[heads] |= np.bitwise_or.reduceat(mask[tails], starts, axis=0)
        if cap is None and np.array_equal(nxt, mask):  # with a cap the search ends there anyway
            return ecc, level
        spare, mask = mask, nxt
        level += 1


def _probe_bounds_hold(union: PatternGraph, ub: UpperBound) -> bool:
    """With every probe's BFS arrays checked: the automorphisms re-checked on the arcs, and every
    eccentricity bounded by min over probes of d_in + ecc_out (shared over orbits) ≤ ub.bound."""
    n = union.n
    for perm in ub.automorphisms:
        if not _is_graph_automorphism(perm, union):
            return False
    if len(ub.probes) * n >= NUMPY_BOUNDS_ENTRIES or ub.batches:
        return _probe_bounds_hold_arrays(n, ub)
    probe_bounds = [(p.dist_in, p.ecc_out) for p in ub.probes]
    best = [min(d_in[w] + e for d_in, e in probe_bounds) for w in range(n)]
    if ub.automorphisms:  # ecc_out is constant on orbits: the best bound in an orbit holds for all
        orbit = orbits(n, ub.automorphisms)
        orbit_best: dict[int, int] = {}
        for w in range(n):
            orbit_best[orbit[w]] = min(orbit_best.get(orbit[w], best[w]), best[w])
        best = [orbit_best[orbit[w]] for w in range(n)]
    return max(best) <= ub.bound


def _probe_bounds_hold_arrays(n: int, ub: UpperBound) -> bool:
    """The bound of `_probe_bounds_hold` with numpy (exact int64): min over probes of d_in + ecc_out
    per position, then the least bound over each orbit, against ub.bound."""
    import numpy as np
    best = None
    for p in ub.probes:
        row = np.asarray(p.dist_in, dtype=np.int64) + int(p.ecc_out)
        best = row if best is None else np.minimum(best, row)
    for b in ub.batches:
        row = _batch_bound(b, n)
        if row is None:
            return False
        best = row if best is None else np.minimum(best, row)
    assert best is not None  # called with probes or batches only
    if ub.automorphisms:
        orbit = np.asarray(orbits(n, ub.automorphisms), dtype=np.int64)
        orbit_best = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(orbit_best, orbit, best)
        best = orbit_best[orbit]
    return int(best.max()) <= ub.bound


def _is_graph_automorphism(perm: Sequence[int], union: PatternGraph) -> bool:
    n = union.n
    if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
        return False
    if union.complete:
        return True
    # every arc j -> i maps to an arc (σ(j), σ(i)); σ is a bijection, so arcs map onto arcs.
    # Endpoints come from dividing the codes (numpy on a large graph, else plain Python): no igraph.
    if union.num_arcs >= NUMPY_CHECK_ARCS and n * n < 2 ** 63:
        from .symmetry import _preserves_arrays
        on_arrays = _preserves_arrays(union, tuple(perm))
        if on_arrays is not None:
            return on_arrays
    codes = union.codes
    if tuple(perm) == reflection(n):  # code c -> n² - 1 - c
        return all(map(codes.__contains__, map(sub, repeat(n * n - 1), codes)))
    js, is_ = endpoints(union)
    row = [(p - 1) * n for p in perm]
    col = [p - 1 for p in perm]
    images = map(add, map(row.__getitem__, js), map(col.__getitem__, is_))
    return all(map(union.codes.__contains__, images))


def distance(graphs: Sequence[PatternGraph], j: int, i: int) -> Optional[int]:
    """d(j -> i) in the union (None when unreachable), by a plain BFS."""
    union = union_graph(graphs)
    if j == i:
        return 0
    if union.complete:
        return 1
    if union.num_arcs >= NUMPY_CHECK_ARCS and union.n * union.n < 2 ** 63:
        from .arc_arrays import bfs, out_csr
        indptr, targets = out_csr(code_array(union), union.n)
        d = int(bfs(indptr, targets, union.n, [j - 1], stop=i - 1)[i - 1])
    else:
        outs, _ = adjacency_lists(union)
        d = _plain_bfs(outs, j - 1, stop=i - 1)[i - 1]
    return d if d >= 0 else None


def verify_connectivity(graphs: Sequence[PatternGraph], c: Connectivity) -> bool:
    """Re-check a Connectivity result: its witness, or its diameter bounds and realising pair."""
    if not c.strongly_connected:
        return c.separation is not None and verify_separation(graphs, c.separation)
    if c.upper is None or c.upper_bound is None or c.upper_bound.bound != c.upper:
        return False
    if not verify_upper_bound(graphs, c.upper_bound):
        return False
    if c.lower_pair is not None:
        j, i = c.lower_pair
        if distance(graphs, j, i) != c.lower:
            return False
    if c.diameter is not None and not (c.lower == c.upper == c.diameter):
        return False
    return True
