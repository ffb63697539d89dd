"""Theorem F132 (docs/theory.md §11.9: far sets) re-checked on the verifier's own arc arrays: D layers suffice (no view
witness) when every root's far set is found by the verifier's own searches and every far set's marked graph refines,
by the verifier's own colour refinement, to a discrete colouring, the colourings of different far sets told apart.

Theorem F132, restated (unlabelled heads: no bias, no position term, no positional encoding; arcs labelled by the set
of heads holding them; D ≥ 2 the exact diameter). For a root i let U_i = {v : d(v → i) = D}, and for a set U let Γ^U be
the labelled digraph on all n positions with the arcs of the union whose head is outside U, the positions of U marked.
Let b bound every ecc_out from above and C = {v : b(v) ≥ D}. (a) U_i = {v ∈ C : d(v → i) = D}. (b) The rooted view R_i
with its colours coarsened to "colour D or not" is Γ^{U_i}. (c) A view witness σ at i with j = σ(i) is an isomorphism
Γ^{U_i} → Γ^{U_j} of marked labelled digraphs; colour refinement started from the mark commutes with isomorphisms, so
if Γ^U is discrete no witness has both roots among the roots of U (σ would be an automorphism of a discrete Γ^U, the
identity, which is in G); and if Γ^U and Γ^{U′} are discrete with different refinement keys (round count, sorted
colours) or one is discrete and the other not, no witness goes from a root of U to one of U′. A root with U_i = ∅ has
B_i = every position, so a witness there keeps every in-neighbourhood and lies in G, and a witness from a root with
U_i ≠ ∅ to one with U_j = ∅ would map B_i onto B_j, of different sizes (§11.9, R1). So: every far set discrete and the
keys pairwise distinct ⇒ no view witness ⇒ D layers suffice (the rooted-view theorem, §11.2/§11.9); D − 1 do not, D
being realised by a pair (the connectivity step).

What runs here: b is Theorem F131's least bound re-built from the connectivity step's seeds (seeded_diameter.py), so
(a) needs only the searches from C: bit-parallel, 64 at a time, D − 1 levels (bit k of level D − 1 unset at i ⇔
d(c_k → i) ≥ D, hence = D, D being the diameter); the refinement is this module's own (64-bit mixes of a position's
colour with the sums, over its in- and out-arcs, of the other end's colour times an odd multiplier of the arc's label; any fixed function works: a collision
only merges colours, which can make a colouring non-discrete, never a wrong conclusion), and it stops when the number
of colours stops growing. The certificate's far sets (positions and roots), radius and root counts are compared with
these; its prose fields are listed as not compared.
"""
from __future__ import annotations

import hashlib
from typing import Optional

import numpy as np

from . import seeded_diameter as SD
from .check import VERIFIED, Reject, Trust

#: arcs read by the refinements, summed over the far sets (each round reads every arc twice): past it, trusted
REFINE_WORK = 2_000_000_000
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_IN, _OUT, _SELF = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xD6E8FEB86659FD93), np.uint64(0xA0761D6478BD642F)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise (uint64, wrapping)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def applies(ctx, s: dict) -> bool:
    """Unlabelled heads on arc arrays (no bias, no position term, no positional encoding)."""
    from .large import arrays, labelled
    return not labelled(ctx) and arrays(ctx) is not None


def _seeded(prem: dict) -> bool:
    cert = prem.get("certificate") or {}
    return cert.get("upper bound method") == "seeded" and isinstance(cert.get("seeds"), list)


def _bound(ctx, prem: dict, d: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(b, seeds, their eccentricities, how): an upper bound on every ecc_out. A seeded premise: Theorem F131's least
    bound re-built from its seeds (seeded_diameter.py). Otherwise b ≡ D, once the verifier's own searches on the
    arrays (large.py) give the exact diameter D: every ecc_out is at most D."""
    data = prem.get("data") or {}
    if _seeded(prem):
        try:
            b, _ = SD.check(ctx, prem, d, data.get("pair") or [None, None])
        except Reject as exc:
            raise Trust(f"the connectivity step's seeded certificate does not check ({exc}), so the far sets are "
                        "not computed") from None
        seeds, ecc = SD._pairs((prem.get("certificate") or {}).get("seeds"), n)  # checked by SD.check
        return b, seeds, ecc, "the connectivity step's re-checked seeded bound"
    from .large import _diameter_on_arrays
    fact = _diameter_on_arrays(ctx)  # Trust when its searches are over their limit
    if fact is None or fact.strong is not True or fact.exact != d:
        raise Trust(f"the verifier's own searches do not give the diameter D = {d} exactly, so the far sets are not "
                    "computed")
    none = np.zeros(0, dtype=np.int64)
    return np.full(n, d, dtype=np.int64), none, none, f"the bound D = {d} on every eccentricity (the verified diameter)"


def _labels(ctx) -> np.ndarray:
    """Per arc of the union (in the order of its codes), the set of heads holding it as a bit mask."""
    from .large import arrays
    heads, adj = arrays(ctx)
    if len(heads) > 63:
        raise Trust("more than 63 heads: their arc labels are not packed here")
    lab = np.zeros(adj.codes.size, dtype=np.uint64)
    for h, codes in enumerate(heads):
        lab[np.searchsorted(adj.codes, codes)] |= np.uint64(1) << np.uint64(h)
    return lab


#: batches of 64 searched between two re-computations of the bound
ROUND_BATCHES = 4


def far_sets(ctx, b: np.ndarray, d: int, seeds: np.ndarray, ecc: np.ndarray) -> tuple[dict, int]:
    """{root: its far set} (0-based, sorted tuples) for every root with a non-empty one, and how many positions were
    searched. C shrinks as it is searched: each position searched gets its exact eccentricity and becomes a seed of
    Theorem F131, whose least bound b′ (still a bound on every ecc_out) is re-computed every ROUND_BATCHES batches;
    a position not searched when no bound reaches D any more has b′ ≤ D − 1, so it is in no far set (F132 (a) with
    b′). The positions of largest out-degree first (low eccentricity: their in-neighbours' bounds drop most)."""
    from .large import arrays
    _, adj = arrays(ctx)
    n = adj.n
    cand = np.flatnonzero(b >= d)
    work = -(-cand.size // SD.BATCH) * (d - 1) * max(adj.arcs, 1)
    if work > SD.SEARCH_WORK:
        raise Trust(f"the far sets need searches from the {cand.size:,} positions whose eccentricity bound reaches "
                    f"D = {d} (about {work:,} arc visits, limit {SD.SEARCH_WORK:,}): a pattern of this density fits up "
                    f"to about n = {SD.fitting_n(n, work, SD.SEARCH_WORK):,}")
    into, outs = SD.columns(ctx, "in"), SD.columns(ctx, "out")
    out_degree = np.diff(adj.outs()[0])
    known = np.zeros(n, dtype=bool)
    known[seeds] = True
    exact = np.full(n, -1, dtype=np.int64)
    exact[seeds] = ecc
    done = np.zeros(n, dtype=bool)
    far: dict[int, list] = {}
    bound = b
    while True:
        cand = np.flatnonzero((bound >= d) & ~done)
        if not cand.size:
            break
        picks = cand[np.argsort(-out_degree[cand], kind="stable")][:ROUND_BATCHES * SD.BATCH]
        for k in range(0, picks.size, SD.BATCH):
            part = picks[k:k + SD.BATCH].tolist()
            got, last = SD.search(into, part, d, keep=d - 1)  # bit b unset at i at level D − 1: d(part[b] → i) = D
            if min(got) < 0:
                raise Reject(f"a search from {part[got.index(min(got))] + 1} does not reach every position within "
                             f"D = {d} levels")
            want = (1 << len(part)) - 1
            for i in np.flatnonzero(last != np.uint64(want)).tolist():
                missing = ~int(last[i]) & want
                while missing:
                    low = missing & -missing
                    far.setdefault(i, []).append(part[low.bit_length() - 1])
                    missing ^= low
            done[part] = True
            known[part] = True
            exact[part] = got
        every = np.flatnonzero(known)
        bound = np.minimum(b, SD.least_bound(outs, every, exact[every]))  # each an upper bound on every ecc_out
    return {i: tuple(sorted(u)) for i, u in far.items()}, int(done.sum())


class _Union:
    """The union's arcs once for every far set: (tail, label) in the order of the codes (tails ascending) and
    (head, label) in the order of the heads, each with its non-empty rows' starts."""

    def __init__(self, ctx):
        from .large import arrays
        _, adj = arrays(ctx)
        n = adj.n
        lab = _labels(ctx)
        src, dst = np.divmod(adj.codes, n)
        order = np.argsort(dst, kind="stable")
        self.n = n
        self.out_head, self.out_tail = dst, src
        self.in_tail, self.in_head = src[order], dst[order]
        # odd multipliers, one per label (x ↦ x·m is injective on 64-bit words for odd m)
        self.lab_out = _mix(lab * _OUT) | np.uint64(1)
        self.lab_in = _mix(lab[order] * _IN) | np.uint64(1)
        out_ptr, in_ptr = adj.outs()[0], adj.ins()[0]
        self.out_rows = np.flatnonzero(np.diff(out_ptr) > 0)
        self.out_starts = out_ptr[self.out_rows]
        self.in_rows = np.flatnonzero(np.diff(in_ptr) > 0)
        self.in_starts = in_ptr[self.in_rows]


def _distinct(ordered: np.ndarray) -> int:
    """The number of distinct values of a sorted array."""
    return int(ordered.size and 1 + np.count_nonzero(ordered[1:] != ordered[:-1]))


def refine_marked(ctx, far: tuple) -> tuple[bool, str, int]:
    """Colour refinement of Γ^U, U = `far` (0-based): (discrete, key, rounds) with key the sha256 of the round count
    and the sorted final colours. The arcs into U are not in Γ^U: their terms are zero in every sum (the sum over the
    multiset of the remaining arcs' values is unchanged by adding zeros)."""
    if "far-set union" not in ctx.cache:
        ctx.cache["far-set union"] = _Union(ctx)
    g: _Union = ctx.cache["far-set union"]
    n = g.n
    mark = np.zeros(n, dtype=bool)
    mark[np.asarray(far, dtype=np.int64)] = True
    # an arc's term: its tail's (head's) colour times its label's multiplier, 0 for an arc into U (not in Γ^U)
    mult_in = np.where(mark[g.in_head], np.uint64(0), g.lab_in)
    mult_out = np.where(mark[g.out_head], np.uint64(0), g.lab_out)
    colour = _mix(mark.astype(np.uint64) + _SELF)
    final = np.sort(colour)
    count = _distinct(final)
    rounds = 0
    while True:
        s_in = np.zeros(n, dtype=np.uint64)
        s_in[g.in_rows] = np.add.reduceat(colour[g.in_tail] * mult_in, g.in_starts)
        s_out = np.zeros(n, dtype=np.uint64)
        s_out[g.out_rows] = np.add.reduceat(colour[g.out_head] * mult_out, g.out_starts)
        new = _mix(_mix(colour ^ _SELF) + _mix(s_in ^ _IN) + _mix(s_out + _OUT))
        rounds += 1
        ordered = np.sort(new)
        got = _distinct(ordered)
        if got <= count:
            break
        colour, count, final = new, got, ordered
    key = hashlib.sha256(rounds.to_bytes(8, "little") + final.tobytes()).hexdigest()
    return count == n, key, rounds


def check(ctx, s: dict, d: int) -> Optional[tuple[str, str]]:
    """D layers (least) for the step s by Theorem F132, or None when it does not apply; Reject / Trust as found."""
    if not applies(ctx, s) or d < 2:
        return None
    from .large import arrays
    prem = ctx.premises(s)[0]
    _, adj = arrays(ctx)
    n = adj.n
    b, seeds, ecc, how = _bound(ctx, prem, d, n)
    far, searched = far_sets(ctx, b, d, seeds, ecc)
    groups: dict[tuple, list] = {}
    for root in sorted(far):
        groups.setdefault(far[root], []).append(root)
    work = len(groups) * 2 * max(adj.arcs, 1) * 8  # a few rounds each, as a floor on the work
    if work > REFINE_WORK:
        raise Trust(f"{len(groups):,} far sets would each refine a graph of {adj.arcs:,} arcs (limit {REFINE_WORK:,} "
                    f"arc visits in all)")
    keys: dict[str, tuple] = {}
    rounds_max = 0
    for u, roots in groups.items():
        discrete, key, rounds = refine_marked(ctx, u)
        rounds_max = max(rounds_max, rounds)
        if not discrete:
            raise Trust(f"the marked graph of the far set {_show(u)} (roots {_show(roots)}) does not refine to a "
                        "discrete colouring here: its roots' views are not decided by the verifier")
        if key in keys:
            raise Trust(f"the marked graphs of the far sets {_show(u)} and {_show(keys[key])} refine to the same "
                        "colours: the colour-matching bijection between them is not tested here")
        keys[key] = u
    _compare(ctx, s, d, n, groups)
    rooted = sum(len(r) for r in groups.values())
    return VERIFIED, (f"on the arc arrays ({adj.arcs:,} arcs), Theorem F132 with {how}: the verifier's own searches from {_count(searched, 'position')} (those whose "
                      f"bound, lowered as they are searched, reaches D = {d}) give {_count(rooted, 'root')} a far set "
                      f"({_count(len(groups), 'distinct far set')}; every other root's "
                      f"(D − 1)-ball is every position), and each far set's marked graph refines to a discrete "
                      f"colouring (at most {rounds_max} rounds of the verifier's own refinement) with keys pairwise "
                      f"distinct, so no view witness exists: D = {d} layers suffice, and D − 1 do not (the diameter's "
                      f"pair)")


def _count(k: int, what: str) -> str:
    return f"{k:,} {what}" + ("" if k == 1 else "s")


def _show(items) -> str:
    items = [int(x) + 1 for x in items]
    return "{" + ", ".join(map(str, items[:6])) + (", …" if len(items) > 6 else "") + "}"


def _compare(ctx, s: dict, d: int, n: int, groups: dict) -> None:
    """The rooted-view block's far sets, radius and root counts against the ones found; the rest listed as not
    compared."""
    block = (s.get("certificate") or {}).get("data")
    for name in ("layers", "diameter"):
        if isinstance(block, dict) and name in block and block[name] != d:
            raise Reject(f"{s['id']} certificate.data.{name} is {str(block[name])[:40]}, not D = {d}")
    views = block.get("rooted views") if isinstance(block, dict) else None
    where = f"{s['id']} certificate.data.rooted views"
    if not isinstance(views, dict):
        return
    mine = {(tuple(v + 1 for v in u), tuple(r + 1 for r in roots)) for u, roots in groups.items()}
    listed = views.get("far sets")
    if listed is not None:
        try:
            theirs = {(tuple(sorted(g["positions"])), tuple(sorted(g["roots"]))) for g in listed}
            size = len(listed)
        except (TypeError, KeyError) as exc:
            raise Reject(f"{where}.far sets is malformed ({exc})") from None
        if theirs != mine or size != len(mine):
            extra = sorted(theirs - mine)[:1]
            lost = sorted(mine - theirs)[:1]
            raise Reject(f"{where}.far sets differ from the verifier's: listed, not found "
                         f"{_brief(extra)}; found, not listed {_brief(lost)}")
    if views.get("radius") != d - 1:
        raise Reject(f"{where}.radius is {views.get('radius')}, not D − 1 = {d - 1}")
    roots = sum(len(r) for r in groups.values())
    if views.get("G-orbits") == n:  # every position its own orbit: every root is a representative
        for name, want in (("orbits examined", roots),
                           ("orbits whose (D − 1)-ball is every position (no witness there)", n - roots)):
            if name in views and views[name] != want:
                raise Reject(f"{where}.{name} is {views[name]}, not {want}")
    else:
        ctx.unbound.extend(f"{where}.{name}" for name in ("orbits examined",
                           "orbits whose (D − 1)-ball is every position (no witness there)") if name in views)
    ctx.unbound.extend(f"{where}.{name}" for name in views
                       if name not in ("far sets", "radius", "orbits examined",
                                       "orbits whose (D − 1)-ball is every position (no witness there)"))


def _brief(pairs: list) -> str:
    if not pairs:
        return "none"
    u, roots = pairs[0]
    return f"U = {list(u)[:6]} with roots {list(roots)[:6]}"
