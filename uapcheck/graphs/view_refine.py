"""Rooted views at mid-size n: the exact decision of ``views.py`` without one BLISS run per G-orbit
(docs/theory.md §11.9, "Mid-size n").

Three reductions, each exact:

* **Covering roots.** A position i whose ball B_i = {v : d(v → i) ≤ D − 1} is every position has no
  view witness, and its rooted view is isomorphic to no rooted view of a position whose ball is smaller
  (an isomorphism R_i → R_j maps B_i onto B_j, §11.9 Lemma 1). Such roots are dropped. They are found
  without a search from each root: for probe positions p, d(v → i) ≤ d(v → p) + d(p → i), so
  ecc_in(i) ≤ ecc_in(p) + d(p → i) ≤ D − 1 already shows the ball is everything; the other roots get
  one breadth-first search each (needed anyway to build their view).
* **Colour refinement.** Colours of the positions of R_i are refined by the multisets of (arc label,
  colour) over in-arcs and out-arcs, a colour being a fixed function (a 64-bit mix) of its signature.
  Whatever that function does, an isomorphism R_i → R_j carries the colours of round t of R_i onto those
  of R_j (induction on t), so: a *discrete* final colouring (every position alone) shows Aut(R_i) = {id};
  different final colour multisets (or round counts) show R_i ≇ R_j; and for equal ones with a discrete
  colouring the only possible isomorphism is the colour-matching bijection, which is then tested on the
  arcs. A collision of the mix can only merge colours: it may leave a colouring non-discrete (then BLISS
  decides that root) but never proves anything false.
* **BLISS only where refinement does not decide**: a root whose colouring is not discrete gets the rooted
  view of ``views.py`` (automorphism order, generators, canonical form).

Every witness is re-checked on the arcs by the caller (``views.witness_condition_holds``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from .build import PatternGraph, code_array, code_endpoints

_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def _mix(x, fresh: bool = False):
    """splitmix64's finaliser on a uint64 array (wrapping arithmetic); ``fresh``: x is a temporary of the caller's,
    mixed in place."""
    import numpy as np
    if not fresh:
        x = x.astype(np.uint64, copy=True)
    x ^= x >> np.uint64(30)
    x *= np.uint64(_M1)
    x ^= x >> np.uint64(27)
    x *= np.uint64(_M2)
    x ^= x >> np.uint64(31)
    return x


def _kept_union(distinct: Sequence[PatternGraph]) -> Optional[PatternGraph]:
    """The union of several large heads as `build.union_graph` keeps it (None for one head, a complete head or a
    union below `build.UNION_KEPT_MIN_ARCS`): its sorted codes are the union's codes, and its compressed rows the
    same arrays the union's searches read."""
    from .build import UNION_KEPT_MIN_ARCS, union_graph
    if len(distinct) < 2 or any(g.complete for g in distinct) or \
            sum(g.num_arcs for g in distinct) <= UNION_KEPT_MIN_ARCS:
        return None
    return union_graph(distinct)


class ArcArrays:
    """The union graph of the distinct heads as numpy arrays: arcs (``src`` → ``dst``, 0-based, sorted
    by code) with ``label`` the bitmask of the heads that contain the arc; per head its sorted codes and
    its in-degrees; CSR lists forward (out) and backward (in) for breadth-first search."""

    def __init__(self, graphs: Sequence[PatternGraph]):
        import numpy as np
        from .arc_arrays import graph_csr, out_csr, union_codes

        distinct = list(dict.fromkeys(graphs))
        n = distinct[0].n
        self.n = n
        self.head_codes = [code_array(g) for g in distinct]
        kept = _kept_union(distinct)
        codes = union_codes(distinct) if kept is None else code_array(kept)  # the same sorted codes
        self.codes = codes
        label = np.zeros(len(codes), dtype=np.uint64)
        if len(distinct) == 1 or kept is not None:
            # one graph, or the union the connectivity analysis keeps for several: its cached endpoints and lists, the
            # same values as below (the diameter's searches made them), so the far sets' searches also find the padded
            # rows those searches laid out
            whole = distinct[0] if kept is None else kept
            self.src, self.dst = code_endpoints(whole)
            self.out_ptr, self.out_to = graph_csr(whole, "out")
            self.in_ptr, self.in_from = graph_csr(whole, "in")
            for h, hc in enumerate(self.head_codes if kept is not None else ()):
                label[np.searchsorted(codes, hc)] |= np.uint64(1) << np.uint64(h)
        else:
            self.src, self.dst = codes // n, codes % n
            for h, hc in enumerate(self.head_codes):
                # every code of a head is in the sorted union: its place there, found by a search of the sorted
                # codes (np.isin sorted the union and the head's codes together once per head)
                label[np.searchsorted(codes, hc)] |= np.uint64(1) << np.uint64(h)
            self.out_ptr, self.out_to = out_csr(codes, n)
            self.in_ptr, self.in_from = out_csr(np.sort(self.dst * n + self.src), n)
        self.label = label
        self.head_indeg = [np.bincount(hc % n, minlength=n) for hc in self.head_codes]
        self.indegree = np.diff(self.in_ptr)
        self._by_target: Optional[tuple] = None  # `_by_target`'s arrays, made on first use
        self._base_rounds: Optional[_BaseRounds] = None  # the rounds of Γ^∅ for `marked_refinement`, made on first use
        self._labels: Optional[tuple] = None  # `_round_labels`' values, made on first use

    def in_distances(self, root: int, radius: Optional[int] = None):
        """d(v → root) for every v (−1: farther than ``radius``)."""
        from .arc_arrays import bfs
        return bfs(self.in_ptr, self.in_from, self.n, [root], radius)

    def out_distances(self, root: int):
        """d(root → v) for every v (−1: unreachable)."""
        from .arc_arrays import bfs
        return bfs(self.out_ptr, self.out_to, self.n, [root])

    def condition_holds(self, perm0, root_ball) -> bool:
        """σ (0-based image array) carries N_h(v) onto N_h(σ v) for every head h and every v of the ball
        (a boolean mask): every arc u → v of h into the ball maps to an arc of h, and in-degrees agree."""
        import numpy as np
        n = self.n
        for hc, deg in zip(self.head_codes, self.head_indeg):
            dst = hc % n
            sel = root_ball[dst]
            mapped = perm0[hc[sel] // n] * n + perm0[dst[sel]]
            pos = np.searchsorted(hc, mapped)
            pos[pos >= len(hc)] = 0
            if len(mapped) and not bool(np.all(hc[pos] == mapped)):
                return False
            ball = np.flatnonzero(root_ball)
            if not bool(np.all(deg[ball] == deg[perm0[ball]])):
                return False
        return True


@dataclass
class RefinedView:
    """A rooted view after colour refinement: the final colours (uint64 per position), the rounds it took,
    whether every position has a colour of its own, and the key (rounds and the sorted colours' digest)
    that isomorphic views share."""
    root: int
    ball: Any  # boolean mask of B_i (numpy)
    colours: Any  # uint64 per position (numpy)
    rounds: int
    discrete: bool
    key: str
    arcs: int


def _runs(keys):
    """(the distinct values of a sorted int array, where each run of one value starts)."""
    import numpy as np
    if len(keys) == 0:
        return keys, keys
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    return keys[starts], starts


def _distinct(values) -> int:
    """How many distinct values a uint64 array holds (one sort; np.unique's hash table is about 20 times slower on
    65,536 words)."""
    import numpy as np
    if len(values) == 0:
        return 0
    ordered = np.sort(values)
    return 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1]))


def _by_target(arrays: ArcArrays):
    """The arcs in order of target (stable: by code within one target), made once per arrays: (that order, the
    sources in it, the mixed in-labels in it, the runs of one target in it, the runs of one source in code order, the
    mixed out-labels in code order)."""
    import numpy as np
    got = arrays._by_target
    if got is None:
        order = np.argsort(arrays.dst, kind="stable")
        got = arrays._by_target = (order, arrays.src[order], _mix(arrays.label[order] * np.uint64(2) + np.uint64(0x51ED27), True),
                                   _runs(arrays.dst[order]), _runs(arrays.src),
                                   _mix(arrays.label * np.uint64(2) + np.uint64(0x2545F491), True))
    return got


#: A view holding at least this share of the arcs is refined over all of them, the others' terms multiplied by 0
#: (a wrapping sum with zeros added is the same sum), instead of over a copy of its own arcs.
WHOLE_ARCS_SHARE = 0.75


def refine(arrays: ArcArrays, root: int, dist, diameter: int, work: Optional[RefineWork] = None) -> RefinedView:
    """Colour refinement of R_root (positions coloured min(d(v → root), D), arcs into the ball with their
    head-set labels). ``work``: each round's reads of positions and arcs are counted on it (it raises
    RefineWorkExceeded past its limit)."""
    import numpy as np
    n = arrays.n
    ball = (dist >= 0) & (dist <= diameter - 1)
    sel = ball[arrays.dst]
    kept = int(np.count_nonzero(sel))
    level = np.where(ball, dist, diameter).astype(np.uint64)
    colours = _mix(level + np.uint64(1), True)
    count = _distinct(colours)
    rounds = 0
    # the multisets as wrapping uint64 sums per position, over runs of one source (the arcs are sorted by source) and
    # of one target (the arcs' order by target, made once per arrays): the same sums as np.add.at, position by
    # position. The view's arcs are those into the ball: taken out (a stable order by target of the arcs kept), or,
    # for a view of most arcs, every arc with the others' terms multiplied by 0.
    order, src_d, lab_in_d, in_runs, out_runs, lab_out = _by_target(arrays)
    dst = arrays.dst
    keep_in = keep_out = None
    one_label = bool(len(arrays.label)) and not bool(np.any(arrays.label != arrays.label[0]))
    if kept < WHOLE_ARCS_SHARE * len(sel):
        pick = order[sel[order]]
        src_d, lab_in_d, in_runs = arrays.src[pick], lab_in_d[sel[order]], _runs(dst[pick])
        dst, lab_out, out_runs = dst[sel], lab_out[sel], _runs(arrays.src[sel])
    elif kept < len(sel):
        keep_in, keep_out = sel[order].astype(np.uint64), sel.astype(np.uint64)
    while True:
        rounds += 1
        if count == n:
            break  # discrete: the next round has at most n colours, so the loop would stop here after it
        if work is not None:
            work.add(n + len(src_d) + len(dst))
        ins = np.zeros(n, dtype=np.uint64)
        outs = np.zeros(n, dtype=np.uint64)
        if kept:
            if one_label:  # every arc has the label of the first: each term is a function of one colour, mixed once
                term = _mix(colours ^ lab_in_d[0], True)[src_d]
            else:
                term = _mix(colours[src_d] ^ lab_in_d, True)
            if keep_in is not None:
                term *= keep_in
            ins[in_runs[0]] = np.add.reduceat(term, in_runs[1])
            term = _mix(colours ^ lab_out[0], True)[dst] if one_label else _mix(colours[dst] ^ lab_out, True)
            if keep_out is not None:
                term *= keep_out
            outs[out_runs[0]] = np.add.reduceat(term, out_runs[1])
        new = _mix(colours ^ _mix(ins + np.uint64(0x9E3779B97F4A7C15), True) ^ (_mix(outs, True) * np.uint64(3)), True)
        new_count = _distinct(new)
        if new_count <= count:
            break  # the partition is stable (a colour is a function of the previous one and more)
        colours, count = new, new_count
    digest = hashlib.sha256(np.sort(colours).tobytes() + f"|{rounds}".encode()).hexdigest()
    return RefinedView(root, ball, colours, rounds, count == n, digest, kept)


def matching_bijection(a: RefinedView, b: RefinedView):
    """For discrete views with the same key: the colour-matching bijection (0-based image array), the
    only candidate for an isomorphism R_a → R_b."""
    import numpy as np
    order_a, order_b = np.argsort(a.colours), np.argsort(b.colours)
    if not bool(np.all(a.colours[order_a] == b.colours[order_b])):
        return None
    perm = np.empty(len(order_a), dtype=np.int64)
    perm[order_a] = order_b
    return perm


def covering_roots(arrays: ArcArrays, roots: Sequence[int], diameter: int, probes: int = 3) -> set:
    """Roots (0-based) shown to have B_i = every position from probe searches: for a probe p,
    ecc_in(i) ≤ ecc_in(p) + d(p → i)."""
    import numpy as np
    n = arrays.n
    order = np.argsort(-arrays.indegree, kind="stable")[:probes]
    bound = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    for p in order.tolist():
        back = arrays.in_distances(p)
        if (back < 0).any():
            continue
        fwd = arrays.out_distances(p)
        reach = np.where(fwd >= 0, fwd + int(back.max()), np.iinfo(np.int64).max)
        bound = np.minimum(bound, reach)
    return {r for r in roots if bound[r] <= diameter - 1}


#: After this many roots, a projected total (arcs so far × roots ÷ roots done) above PROJECTED_MARGIN times the
#: limit ends the search: it would reach the limit long before the last root.
PROJECTED_AFTER_ROOTS = 4
PROJECTED_MARGIN = 4

#: The colour refinements of the rooted views (the far sets' marked graphs of Theorem F132 and the per-root views)
#: may read at most this many positions and arcs in all, every round counted (a round reads each position and arc of
#: its view once, and a marked graph's round also copies the n colours). About 25 s of CPU here (about 125 million
#: reads a second), where a CPU clock of 30 s stopped the whole rooted-views step before: a count, so whether D layers
#: are shown enough, or D + 1 stated sufficient, is the same on every machine.
REFINE_WORK = 3_000_000_000

#: A rooted view handed to BLISS (its colouring not discrete) is charged this many reads per position and arc on the
#: same bound: BLISS exposes no count of its own search, so its time is bounded by the view's size only (a few
#: microseconds an arc on most views; far more on views of several strided heads, where the step's backstop clock,
#: far above the count, is what remains).
BLISS_ARC_WORK = 100


class RefineWorkExceeded(Exception):
    """The refinements' reads went past their bound (``RefineWork``)."""


@dataclass
class RefineWork:
    """The reads of positions and arcs the refinements of one decision have made, against ``limit``."""
    limit: int = REFINE_WORK
    spent: int = 0

    def add(self, reads: int) -> None:
        self.spent += reads
        if self.spent > self.limit:
            raise RefineWorkExceeded

    def projected(self, done: int, total: int) -> int:
        """The reads all ``total`` items would take at the rate of the ``done`` first ones (for the size that fits
        only: the first roots' views are often the largest, so no projection ends the search)."""
        return self.spent * total // max(1, done)

    def reason(self, n: int, done: int, total: int, what: str) -> str:
        projected = max(self.projected(done, total), self.spent, self.limit + 1)
        fit = int(n * (self.limit / projected) ** 0.5)
        return (f"the colour refinements of {what} would read about {projected:,} positions and arcs over their "
                f"rounds (limit {self.limit:,}, view_refine.REFINE_WORK); a pattern of this kind fits up to about "
                f"n = {fit:,}")


@dataclass
class LargeOutcome:
    """``witness``: (root, 1-based image tuple, how) or None; ``auts``/``keys`` per examined root;
    ``covering``: roots dropped because their ball is every position; ``bliss``: roots BLISS decided."""
    witness: Optional[tuple] = None
    examined: list = field(default_factory=list)
    auts: list = field(default_factory=list)
    keys: list = field(default_factory=list)
    covering: list = field(default_factory=list)
    bliss: int = 0
    arcs: int = 0
    undecided: str = ""
    #: Theorem F132: the far sets (as groups of roots with one far set) whose marked graph refines to a discrete
    #: colouring, and the positions searched to find the far sets (None: the far sets were not used)
    far_groups: Optional[int] = None
    far_searched: int = 0
    far_seeded: int = 0
    #: Theorem F132: each decided far set U (sorted, 1-based) with its roots (1-based), for the certificate
    far_listing: list = field(default_factory=list)


def _by_refinement(out: LargeOutcome, arrays: ArcArrays, view: RefinedView, refined: dict,
                   in_group: Callable[[Sequence[int]], bool]) -> bool:
    """A discrete view: compare it with the earlier discrete views of the same key through their
    colour-matching bijections (True: a witness was recorded in ``out``)."""
    r = view.root
    for other in refined.get(view.key, []):
        perm = matching_bijection(view, other)
        if perm is not None and arrays.condition_holds(perm, view.ball):
            images = tuple(int(x) + 1 for x in perm)
            if not in_group(images):
                out.witness = (r, images, f"the rooted views of positions {r + 1} and {other.root + 1} "
                                          "(different G-orbits) are isomorphic")
                return True
    refined.setdefault(view.key, []).append(view)
    out.examined.append(r)
    out.auts.append(1)
    out.keys.append("refined:" + view.key)
    return False


def _by_bliss(out: LargeOutcome, n: int, r: int, stab: int, rv, canon: dict,
              in_group: Callable[[Sequence[int]], bool]) -> bool:
    """views.py's test on one root (True: a witness, or an undecided collision, was recorded in ``out``)."""
    out.bliss += 1
    aut = rv.automorphism_order()
    if aut != stab:
        if aut < stab or aut % stab:
            raise AssertionError(f"internal error: |Aut(R_{r + 1})| = {aut} is not a multiple of "
                                 f"|Stab_G({r + 1})| = {stab}")
        for gen in rv.automorphism_generators():
            if not in_group(gen):
                out.witness = (r, tuple(gen), "an automorphism of the rooted view outside G")
                return True
        raise AssertionError("internal error: Aut(R_i) is larger than Stab_G(i) but every generator is in G")
    lab, digest = rv.canonical()
    if digest in canon:
        other, lab_j = canon[digest]
        inv_j = [0] * len(lab_j)
        for v, k in enumerate(lab_j):
            inv_j[k] = v
        perm = tuple(inv_j[lab[v]] + 1 for v in range(n))
        if not in_group(perm):
            out.witness = (r, perm, f"the rooted views of positions {r + 1} and {other + 1} (different G-orbits) "
                                    "are isomorphic")
        else:
            out.undecided = "two canonical digests coincided without an isomorphism (a hash collision)"
        return True
    canon[digest] = (r, lab)
    out.examined.append(r)
    out.auts.append(aut)
    out.keys.append(digest)
    return False


#: The far sets' searches (Theorem F132) may read at most this many arcs and positions in all (each pass reads every
#: arc and position once per level, to level D − 1); beyond, the per-root reductions run instead. 2 to 12 s of CPU
#: here (80 to 500 million reads a second: cyclic windows and offsets at n = 20,000, windows with strides at 5,000),
#: where a CPU clock of 10 s decided it before: a count, so the method (and the evidence shown) is the same on every
#: machine.
FAR_SET_WORK = 1_000_000_000


#: Far-set searches (Theorem F132): a pass searches up to 64 × arc_arrays.WIDE_WORDS positions; first *seed* passes
#: from positions picked to lower the bounds of many candidates (their exact eccentricities spread over the arcs),
#: while a pass closes more than FAR_SEED_GAIN passes' worth of candidates, then passes from the candidates left.
FAR_SEED_GAIN = 1.5


@dataclass
class FarSearch:
    """Theorem F132's far sets: ``far`` {root: the positions at distance D from it} for every root (0-based) that has
    any (None: the searches would not fit their time, ``reason``); ``candidates``: |C| for the certificate's bound;
    ``searched``: the candidates searched; ``seeded``: the other positions searched to lower the bounds;
    ``eccentric``: the positions of eccentricity D (boolean mask; every other position is within D − 1 of all)."""
    far: Optional[dict]
    candidates: int
    searched: int = 0
    seeded: int = 0
    eccentric: Any = None
    reason: str = ""


def _top(score, k: int):
    """np.argsort(-score, kind="stable")[:k] (the k largest, ties by least index) without a stable argsort of all of
    ``score`` (finite floats): the k-th largest value read off a sort of the values, the positions above it and the
    first ones at it."""
    import numpy as np
    n = len(score)
    if k >= n:
        return np.argsort(-score, kind="stable")
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    # not np.partition: its selection took 30 to 50 ms on the far search's scores at n = 65,536 (few distinct values,
    # laid out by position), where the sort takes about 0.5 ms
    cut = np.sort(score)[n - k]
    above = np.flatnonzero(score > cut)
    chosen = np.concatenate((above, np.flatnonzero(score == cut)[:k - len(above)]))
    return chosen[np.lexsort((chosen, -score[chosen]))]


class _NearOpen:
    """For a shrinking set of open positions (a boolean mask): one[v], the arcs u → v with u open, and two[v], the sum
    of one[u] over the arcs u → v (float64, as np.bincount with weights gives them). Made once by two passes over the
    arcs, then kept up to date from the positions that left the set: each update subtracts their arcs' counts. Every
    value is a count below 2⁵³, so the float sums are exact in any order and equal the fresh bincounts bit for bit."""

    def __init__(self, arrays: ArcArrays) -> None:
        self.arrays = arrays
        self.open_ = None
        self.one = self.two = None

    def update(self, open_):
        import numpy as np
        from .arc_arrays import _neighbours_of_all
        a, n = self.arrays, self.arrays.n
        if self.open_ is None:
            self.one = np.bincount(a.dst, weights=open_[a.src], minlength=n)
            self.two = np.bincount(a.dst, weights=self.one[a.src], minlength=n)
        else:
            if bool((open_ & ~self.open_).any()):  # never: positions only leave the set
                raise AssertionError("internal error: a position joined the open set")
            left = np.flatnonzero(self.open_ & ~open_)
            if len(left):
                reached, _ = _neighbours_of_all(a.out_ptr, a.out_to, left)
                less_one = np.bincount(reached, minlength=n).astype(np.float64)
                self.one -= less_one
                moved = np.flatnonzero(less_one)
                reached, lens = _neighbours_of_all(a.out_ptr, a.out_to, moved)
                self.two -= np.bincount(reached, weights=np.repeat(less_one[moved], lens), minlength=n)
        self.open_ = open_.copy()
        return self.one, self.two


def far_search(arrays: ArcArrays, ecc_bound, diameter: int, roots: Sequence[int],
               work: int = FAR_SET_WORK) -> FarSearch:
    """Theorem F132's far sets. ``ecc_bound`` bounds every ecc_out from above (a certificate the kernel re-checked).
    Only the candidates C = {v : bound ≥ D} can be at distance D from anything. Each pass searches forward from up to 256 positions at
    once, bit-parallel, to level D − 1: a position whose bit is everywhere by level L has ecc_out ≤ L (exactly L, the
    first such level), one whose bit is not everywhere by level D − 1 has ecc_out = D (D is the diameter) and the
    roots its bit has not reached are at distance D from it. A lowered bound spreads, ecc_out(w) ≤ 1 + ecc_out(z) for
    an arc w → z (Theorem F131's step), and candidates whose bound falls below D need no search: the first passes
    search non-candidates picked for that (many candidates within two steps before them, a low bound), the later
    ones the candidates left. Each bound stays an upper bound on ecc_out: it is the certificate's, an exact
    eccentricity, or 1 + a bound at an out-neighbour. The searches stop when those still to come would take the
    reads past ``work`` (a pass: n + arcs per level, D levels)."""
    import numpy as np
    from .arc_arrays import WIDE_WORDS, spread_lowered, wide_search
    n = arrays.n
    batch = 64 * WIDE_WORDS
    ub = np.asarray(ecc_bound, dtype=np.int64).copy()
    done = np.zeros(n, dtype=bool)
    wanted = np.zeros(n, dtype=bool)
    wanted[np.asarray(list(roots), dtype=np.int64)] = True
    eccentric = np.zeros(n, dtype=bool)
    far: dict[int, list[int]] = {}
    out = FarSearch(far, int(np.count_nonzero(ub >= diameter)), eccentric=eccentric)
    seeding = True
    near_open = _NearOpen(arrays)
    cost = (n + len(arrays.src)) * max(1, diameter)  # one pass: every position and arc read at each level up to D − 1
    passes = 0
    while True:
        open_ = (ub >= diameter) & ~done
        count = int(np.count_nonzero(open_))
        if not count:
            return out
        picks = None
        one, two = near_open.update(open_)
        if seeding and count > batch:
            # positions before many open candidates (one or two arcs), weighted towards a low bound (a low
            # eccentricity spreads below D further back)
            score = (one + two) * (diameter + 1 - np.minimum(ub, diameter))
            score[done | open_] = 0
            picks = _top(score, batch)
            picks = picks[score[picks] > 0]
            if not len(picks):
                picks = None
        if picks is None:
            seeding = False
            cand = np.flatnonzero(open_)
            near = one + two
            picks = cand[_top(near[cand], batch)]
            left = -(-count // batch)
            if passes and (passes + left) * cost > work:
                projected = (passes + left) * cost
                fit = int(n * (work / projected) ** 0.5)
                out.far = None
                out.reason = (f"the far sets need forward searches from the {count:,} positions whose eccentricity "
                              f"bound is D = {diameter} (about {projected:,} reads of positions and arcs, limit "
                              f"{work:,}); a pattern of this kind fits up to about n = {fit:,}")
                return out
        passes += 1
        sources = picks.tolist()
        first, mask, level = wide_search(arrays.in_ptr, arrays.in_from, n, sources, last_level=diameter - 1)
        missing = first < 0
        if bool(missing.any()) and level < diameter - 1:
            raise AssertionError("internal error: a far-set search stopped before level D − 1 (not strongly connected)")
        exact = np.where(missing, diameter, first)
        lowered = picks[exact < ub[picks]]
        ub[picks] = np.minimum(ub[picks], exact)
        done[picks] = True
        if seeding:
            out.seeded += len(picks)
        else:
            out.searched += len(picks)
        if bool(missing.any()):
            eccentric[picks[missing]] = True
            words = mask.shape[1]
            full = np.zeros(words, dtype=np.uint64)
            index = np.arange(len(sources))
            np.bitwise_or.at(full, index // 64, np.left_shift(np.uint64(1), (index % 64).astype(np.uint64)))
            for i in np.flatnonzero((mask != full).any(axis=1) & wanted).tolist():
                for w in range(words):
                    gone = int(full[w]) & ~int(mask[i, w])
                    while gone:
                        low = gone & -gone
                        far.setdefault(i, []).append(sources[64 * w + low.bit_length() - 1])
                        gone ^= low
        spread_lowered(ub, lowered, arrays.in_ptr, arrays.in_from)
        if seeding and count - int(np.count_nonzero((ub >= diameter) & ~done)) <= FAR_SEED_GAIN * len(picks):
            seeding = False


def far_sets(arrays: ArcArrays, ecc_bound, diameter: int, roots: Sequence[int], work: int = FAR_SET_WORK):
    """``far_search``'s far sets: (far, candidates searched) or (None, reason) when the searches would not fit
    ``work``."""
    got = far_search(arrays, ecc_bound, diameter, roots, work)
    if got.far is None:
        return None, got.reason
    return got.far, got.searched + got.seeded


def _segment_sums(terms, lens):
    """Wrapping uint64 sums of consecutive segments of ``terms`` of the given lengths (0 for an empty one)."""
    import numpy as np
    if not len(lens):
        return np.zeros(0, dtype=np.uint64)
    starts = np.cumsum(lens) - lens
    sums = np.add.reduceat(np.concatenate((terms, np.zeros(1, dtype=np.uint64))), starts)
    sums[lens == 0] = 0
    return sums


def _arc_slots(indptr, vertices):
    """(the arc slots indptr[v]:indptr[v + 1] of every v in ``vertices``, concatenated in order;
    how many each has)."""
    import numpy as np
    starts = indptr[vertices]
    lens = indptr[vertices + 1] - starts
    offsets = np.cumsum(lens) - lens
    return np.arange(int(lens.sum()), dtype=np.int64) + np.repeat(starts - offsets, lens), lens


def _round_labels(arrays: ArcArrays):
    """``_by_target``'s mixed in-labels (in the order of ``arrays.in_from``: by target, then source) and out-labels (in
    code order); when every arc has one label, each as one value (0-d), without ordering the arcs by target."""
    import numpy as np
    if arrays._labels is not None:
        return arrays._labels
    label = arrays.label
    if not len(label) or not bool(np.any(label != label[0])):
        first = label[:1] if len(label) else np.zeros(1, dtype=np.uint64)
        got = (_mix(first * np.uint64(2) + np.uint64(0x51ED27), True)[0],
               _mix(first * np.uint64(2) + np.uint64(0x2545F491), True)[0])
    else:
        ordered = _by_target(arrays)
        got = (ordered[2], ordered[5])
    arrays._labels = got
    return got


def _round_at(arrays: ArcArrays, colours, vertices, in_u):
    """One round of ``refine``'s colour at ``vertices`` (int64 array, distinct, ascending; n of them: every one) of Γ^U from ``colours`` (a full array), U the
    boolean mask ``in_u`` (None: U empty): the arcs into U left out, as ``refine`` leaves out the arcs into positions
    outside its ball. The same values as ``refine``'s round at those positions (the same terms summed, wrapping)."""
    import numpy as np
    lab_in_d, lab_out = _round_labels(arrays)
    one_label = lab_in_d.ndim == 0
    every = len(vertices) == arrays.n
    if every:
        terms = _mix(colours[arrays.in_from] ^ lab_in_d, True)
        lens = np.diff(arrays.in_ptr)
    else:
        slots, lens = _arc_slots(arrays.in_ptr, vertices)
        terms = _mix(colours[arrays.in_from[slots]] ^ (lab_in_d if one_label else lab_in_d[slots]), True)
    ins = _segment_sums(terms, lens)
    if in_u is not None:
        ins[in_u[vertices]] = 0  # no arc into U is kept
    if every:
        heads, lens = arrays.out_to, np.diff(arrays.out_ptr)
        terms = _mix(colours[heads] ^ lab_out, True)
    else:
        slots, lens = _arc_slots(arrays.out_ptr, vertices)
        heads = arrays.out_to[slots]
        terms = _mix(colours[heads] ^ (lab_out if one_label else lab_out[slots]), True)
    if in_u is not None:
        terms[in_u[heads]] = 0
    outs = _segment_sums(terms, lens)
    return _mix(colours[vertices] ^ _mix(ins + np.uint64(0x9E3779B97F4A7C15), True) ^ (_mix(outs, True) * np.uint64(3)),
                True)


class _BaseRounds:
    """The rounds of ``refine`` on Γ^∅ (every arc, no position marked), made as far as asked, with each round's sorted
    distinct colours and their counts: Γ^U differs from it only near U (``marked_refinement``)."""

    def __init__(self, arrays: ArcArrays):
        import numpy as np
        self.arrays = arrays
        self.every = np.arange(arrays.n, dtype=np.int64)
        self.colours = [_mix(np.ones(arrays.n, dtype=np.uint64), True)]
        self.stats = [self._stats(self.colours[0])]

    @staticmethod
    def _stats(colours):
        """(the sorted distinct colours, how many positions hold each, where each starts in the sorted colours,
        the sorted colours)."""
        import numpy as np
        ordered = np.sort(colours)
        values, starts = _runs(ordered)
        return values, np.diff(np.append(starts, len(ordered))), starts, ordered

    def round(self, t: int):
        while len(self.colours) <= t:
            self.colours.append(_round_at(self.arrays, self.colours[-1], self.every, None))
            self.stats.append(self._stats(self.colours[-1]))
        return self.colours[t], self.stats[t]


def _count_replaced(stats, base, where, values) -> int:
    """How many distinct values the array ``base`` holds once ``base[where] = values`` (``where`` distinct), from
    ``stats`` (base's sorted distinct values and their counts) and the changed entries only."""
    import numpy as np
    uniq, counts = stats[:2]
    if not len(where):
        return len(uniq)
    slot, first = _runs(np.sort(np.searchsorted(uniq, base[where])))  # base's values are all among uniq
    left = counts[slot] - np.diff(np.append(first, len(where)))  # what is left of each value taken out
    new_values, _ = _runs(np.sort(values))
    at = np.minimum(np.searchsorted(uniq, new_values), len(uniq) - 1)
    k = np.minimum(np.searchsorted(slot, at), len(slot) - 1)
    remaining = np.where(slot[k] == at, left[k], counts[at])
    present = (uniq[at] == new_values) & (remaining > 0)  # a new value already held by a position left unchanged
    return len(uniq) - int(np.count_nonzero(left == 0)) + int(np.count_nonzero(~present))


def _sorted_replaced(stats, base, where, values):
    """np.sort of the array ``base`` once ``base[where] = values`` (``where`` distinct), from ``stats`` (base's sorted
    distinct values, their counts and starts, base sorted): the entries taken out deleted from base sorted (for a value
    taken r times, its first r places) and the new ones inserted in order."""
    import numpy as np
    uniq, _counts, starts, ordered = stats
    if not len(where):
        return ordered
    slot = np.sort(np.searchsorted(uniq, base[where]))
    rank = np.arange(len(slot)) - np.searchsorted(slot, slot)  # 0, 1, … within each run of one value
    kept = np.delete(ordered, starts[slot] + rank)
    new = np.sort(values)
    return np.insert(kept, np.searchsorted(kept, new), new)


def marked_refinement(arrays: ArcArrays, far: Sequence[int], diameter: int,
                      work: Optional[RefineWork] = None) -> RefinedView:
    """Colour refinement of Γ^U (Theorem F132): every arc whose head is outside U = ``far``, the positions of U
    marked; it is ``refine`` on a view whose ball is V minus U, every ball position at level 0 (the same colours,
    rounds and key). Γ^U and Γ^∅ have the same arcs and marks away from U, and a colour of round t is a function of
    the colours of round t − 1 at the position and its neighbours; so at a position farther than t steps (either
    way along the arcs) from U the colour of round t is Γ^∅'s, made once per arrays (``_BaseRounds``), and only the
    positions within t steps of U are computed: for a far set of a few positions, a few hundred of them. ``work``:
    each round's reads (the n colours copied, the positions recomputed and their arcs) are counted on it (it raises
    RefineWorkExceeded past its limit)."""
    import numpy as np
    n = arrays.n
    base = arrays._base_rounds
    if base is None:
        base = arrays._base_rounds = _BaseRounds(arrays)
    in_u = np.zeros(n, dtype=bool)
    in_u[np.asarray(list(far), dtype=np.int64)] = True
    near = in_u.copy()  # the positions whose colour may differ from Γ^∅'s in the current round
    where = np.flatnonzero(near)
    values = _mix(np.full(len(where), diameter + 1, dtype=np.uint64), True)  # U at level D, the rest at level 0
    kept = len(arrays.dst) - int(arrays.indegree[where].sum())  # the arcs into V minus U
    base_colours, stats = base.round(0)
    count = _count_replaced(stats, base_colours, where, values)
    rounds = 0
    while True:
        rounds += 1
        if count == n:
            break
        current = base_colours.copy()
        current[where] = values
        slots, _ = _arc_slots(arrays.in_ptr, where)
        near[arrays.in_from[slots]] = True
        slots, _ = _arc_slots(arrays.out_ptr, where)
        near[arrays.out_to[slots]] = True
        new_where = np.flatnonzero(near)
        if work is not None:
            work.add(n + len(new_where) + int((arrays.in_ptr[new_where + 1] - arrays.in_ptr[new_where]).sum())
                     + int((arrays.out_ptr[new_where + 1] - arrays.out_ptr[new_where]).sum()))
        new_values = _round_at(arrays, current, new_where, in_u)
        if work is not None and rounds >= len(base.colours):  # Γ^∅'s round made now, once per arrays
            work.add(n + 2 * len(arrays.dst))
        new_base, new_stats = base.round(rounds)
        new_count = _count_replaced(new_stats, new_base, new_where, new_values)
        if new_count <= count:
            break
        where, values, base_colours, stats, count = new_where, new_values, new_base, new_stats, new_count
    colours = base_colours.copy()
    colours[where] = values
    ordered = _sorted_replaced(stats, base_colours, where, values)
    digest = hashlib.sha256(ordered.tobytes() + f"|{rounds}".encode()).hexdigest()
    return RefinedView(-1, ~in_u, colours, rounds, count == n, digest, kept)


def _by_far_sets(out: LargeOutcome, arrays: ArcArrays, far: dict, reps: Sequence[int], diameter: int,
                 in_group: Callable[[Sequence[int]], bool], stab_of: Callable[[int], int], arc_limit: int,
                 work: RefineWork) -> list:
    """Theorem F132 on the roots with a far set: the roots of one far set U share Γ^U; a discrete refinement of it
    decides them all (no automorphism but the identity, so no witness among them), and two discrete far sets are
    compared once, through the colour-matching bijection. Returns the roots left to the per-root test (their Γ^U is
    not discrete); a witness is recorded in ``out``, and ``out.undecided`` says so when the refinements' reads
    would pass ``work``'s limit."""
    groups: dict[tuple, list[int]] = {}
    for r in reps:
        if r in far:
            groups.setdefault(tuple(sorted(far[r])), []).append(r)
    estimate = len(groups) * len(arrays.codes)
    if estimate > arc_limit:
        # one refinement over the arcs per far set; the per-root path would refine at least as many views
        fit = int(arrays.n * (arc_limit / estimate) ** 0.5)
        out.undecided = (f"the {len(groups):,} far sets would each refine a graph of {len(arrays.codes):,} arcs "
                         f"(about {estimate:,} arcs in all, limit {arc_limit:,}); a pattern of this kind fits up to "
                         f"about n = {fit:,}")
        return []
    left: list[int] = []
    seen: dict[str, list[tuple]] = {}
    decided = 0
    for k, (u, roots) in enumerate(groups.items()):
        try:
            view = marked_refinement(arrays, u, diameter, work)
        except RefineWorkExceeded:
            out.undecided = work.reason(arrays.n, k + 1, len(groups), f"the {len(groups):,} far sets' graphs")
            return []
        out.arcs += view.arcs
        if not view.discrete:
            left.extend(roots)
            continue
        for other_view, other_roots in seen.get(view.key, []):
            perm = matching_bijection(view, other_view)
            if perm is not None and arrays.condition_holds(perm, view.ball):
                images = tuple(int(x) + 1 for x in perm)
                if not in_group(images):
                    out.witness = (roots[0], images, f"the graphs with the arcs into the far sets of positions "
                                                     f"{roots[0] + 1} and {other_roots[0] + 1} removed are isomorphic "
                                                     "(Theorem F132)")
                    return []
        seen.setdefault(view.key, []).append((view, roots))
        decided += 1
        out.far_listing.append((tuple(int(v) + 1 for v in u), tuple(int(r) + 1 for r in roots)))
        for r in roots:
            if stab_of(r) != 1:  # Stab_G(r) ≤ Aut(R_r) ≤ Aut(Γ^U) = {id}
                raise AssertionError(f"internal error: a discrete far-set graph at {r + 1} but |Stab_G| = {stab_of(r)}")
            out.examined.append(r)
            out.auts.append(1)
            out.keys.append("far set:" + view.key)
    out.far_groups = decided
    return left


def decide_large(graphs: Sequence[PatternGraph], diameter: int, reps: Sequence[int], stab_of: Callable[[int], int],
                 bliss_view: Callable[[int], object], in_group: Callable[[Sequence[int]], bool],
                 arc_limit: int, ecc_bound=None, arrays: Optional[ArcArrays] = None,
                 searched: Optional[FarSearch] = None, refine_work: Optional[int] = None) -> LargeOutcome:
    """§11.9's theorem over the G-orbit representatives ``reps`` (0-based) with the three reductions of
    the module docstring. ``bliss_view(r)`` builds views.py's rooted view of r (for roots whose colouring
    is not discrete); ``stab_of(r)`` is |Stab_G(r)|. The caller re-checks a witness on the arcs.
    ``ecc_bound`` (an upper bound on every ecc_out, re-checked by the kernel with the diameter): the covering roots
    and the far sets come from it, and roots sharing a far set are decided together (Theorem F132). ``arrays`` and
    ``searched`` (the far sets of ``reps``): when the caller has them already. ``refine_work``: the bound on the
    refinements' reads of positions and arcs over all their rounds (REFINE_WORK when None); past it the decision is
    left open, naming the bound and the size that would fit."""
    arrays = ArcArrays(graphs) if arrays is None else arrays
    work = RefineWork(REFINE_WORK if refine_work is None else refine_work)
    todo = None
    if ecc_bound is not None and diameter >= 2:
        if searched is None:
            searched = far_search(arrays, ecc_bound, diameter, reps)
        far = searched.far
        if far is not None:
            out = LargeOutcome(covering=sorted(r for r in reps if r not in far))
            out.far_searched = searched.searched
            out.far_seeded = searched.seeded
            todo = _by_far_sets(out, arrays, far, reps, diameter, in_group, stab_of, arc_limit, work)
            if out.witness is not None or out.undecided:
                return out
            if not todo:
                return out
    if todo is None:
        covering = covering_roots(arrays, reps, diameter)
        out = LargeOutcome(covering=sorted(covering))
        todo = [r for r in reps if r not in covering]
    return _per_root(out, arrays, todo, diameter, stab_of, bliss_view, in_group, arc_limit, work)


def _per_root(out: LargeOutcome, arrays: ArcArrays, todo: Sequence[int], diameter: int, stab_of: Callable[[int], int],
              bliss_view: Callable[[int], object], in_group: Callable[[Sequence[int]], bool], arc_limit: int,
              work: RefineWork) -> LargeOutcome:
    """The roots ``todo`` one by one: a covering root is dropped, a discrete refinement is compared with the earlier
    ones, BLISS decides the others; the arcs read and the refinements' reads are bounded (``arc_limit``, ``work``)."""
    refined: dict[str, list[RefinedView]] = {}
    canon: dict[str, tuple] = {}
    for k, r in enumerate(todo):
        dist = arrays.in_distances(r, diameter - 1)
        if bool((dist >= 0).all()):
            out.covering.append(r)
            out.arcs += len(arrays.codes)  # the search read every arc: counted as work like a view's arcs
            if k + 1 >= PROJECTED_AFTER_ROOTS and out.arcs * len(todo) / (k + 1) > PROJECTED_MARGIN * arc_limit:
                estimate = out.arcs * len(todo) / (k + 1)
                fit = int(arrays.n * (arc_limit / estimate) ** 0.5)
                out.undecided = (f"the searches and rooted views of the {len(todo):,} roots would read about "
                                 f"{int(estimate):,} arcs in all (limit {arc_limit:,}); a pattern of this kind fits "
                                 f"up to about n = {fit:,}")
                return out
            continue
        what = f"the rooted views of the {len(todo):,} roots whose ball is not every position"
        try:
            view = refine(arrays, r, dist, diameter, work)
        except RefineWorkExceeded:
            out.undecided = work.reason(arrays.n, k + 1, len(todo), what)
            return out
        out.arcs += view.arcs
        estimate = out.arcs * len(todo) / (k + 1)
        if out.arcs > arc_limit or (k + 1 >= PROJECTED_AFTER_ROOTS and estimate > PROJECTED_MARGIN * arc_limit):
            # work grows like (roots × arcs), both ∝ n for the same kind of pattern; a projection far above
            # the limit after a few roots ends the search at once instead of when the limit is reached
            fit = int(arrays.n * (arc_limit / estimate) ** 0.5)
            out.undecided = (f"{what} hold about {int(estimate):,} arcs in all (limit {arc_limit:,}); a pattern of "
                             f"this kind fits up to about n = {fit:,}")
            return out
        try:
            if _one_root(out, arrays, view, stab_of(r), bliss_view, in_group, refined, canon, work):
                return out
        except RefineWorkExceeded:
            out.undecided = work.reason(arrays.n, k + 1, len(todo), what)
            return out
    out.covering.sort()
    return out


def _one_root(out: LargeOutcome, arrays: ArcArrays, view: RefinedView, stab: int, bliss_view: Callable[[int], object],
              in_group: Callable[[Sequence[int]], bool], refined: dict, canon: dict, work: RefineWork) -> bool:
    """One root's refined view (its ball not every position), ``stab`` = |Stab_G(root)|: compared with the earlier
    discrete ones, or handed to BLISS (charged on ``work`` by its size). True: a witness (or an undecided collision)
    is in ``out``."""
    r = view.root
    if view.discrete:
        if stab != 1:
            raise AssertionError(f"internal error: a discrete rooted view at {r + 1} but |Stab_G| = {stab}")
        return _by_refinement(out, arrays, view, refined, in_group)
    rv = bliss_view(r)
    work.add(BLISS_ARC_WORK * (arrays.n + int(getattr(rv, "work", 0) or 0)))
    return _by_bliss(out, arrays.n, r, stab, rv, canon, in_group)
