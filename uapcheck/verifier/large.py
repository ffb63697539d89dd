"""Pattern steps above the verifier's arc limit (n > patterns.MAX_N): the same facts, checked on the
interval model of the re-parsed patterns (uapcheck/verifier/intervals.py) without listing arcs.

    PAT-DISCONNECTED  the positions that reach i (the backward search from i, closed under
                      in-neighbourhoods) do not contain j
    PAT-CONNECTED     every backward search from i reaches all n positions; the largest number of
                      levels is the diameter; the stated pair realises it (one search per twin class:
                      twins are exchanged by an automorphism, so their eccentricities are equal)
    PAT-LAYERS        a view witness σ: the positions whose in-neighbourhood σ changes (per head) are
                      at distance ≥ D from i (none among the first D − 1 levels of the search)
    SYM-AUT (trivial) every arc of the union goes forward and every arc k − 1 → k is present: an
                      automorphism keeps the unique Hamiltonian path of an acyclic digraph, so it is
                      the identity (and G ⊆ Aut(union) is trivial)
    SYM-AUT (other)   one head: |Aut| = |Aut(Q)| · ∏ |C|! over the twin classes C (modules any
                      permutation of which is an automorphism, found by neighbourhood hashes, checked
                      exactly, maximal), with Q the quotient coloured by size and kind, by nauty
"""
from __future__ import annotations

from typing import Optional

from . import intervals as I
from .check import VERIFIED, Reject, Trust
from .factored import MAX_SIEVED, Factorial, FactoredOrder, agrees_with, equals


def _spans(ctx):
    if "union spans" not in ctx.cache:
        try:
            if any(h.bias for h in ctx.spec.heads) or ctx.spec.positional != "none":
                raise I.Unsupported("a bias or positional encoding")
            ctx.cache["union spans"] = I.union_spans(ctx.spec)
            ctx.cache["head spans"] = I.head_spans(ctx.spec)
            # a kind the interval model has no spans for is found at the first span read (columns(k, p) was found
            # inside the twin partition's hashes, and the verifier's worker ended with an internal error)
            for spans in [ctx.cache["union spans"], *ctx.cache["head spans"]]:
                spans.neighbourhood(1)
        except I.Unsupported as exc:
            ctx.cache["union spans"] = exc
    sp = ctx.cache["union spans"]
    if isinstance(sp, Exception):
        raise Trust(f"n = {ctx.spec.tokens}: the interval model does not cover these patterns ({sp})")
    return sp


def _int(v, what):
    if not isinstance(v, int) or isinstance(v, bool):
        raise Reject(f"{what} is not an integer")
    return v


def disconnected(ctx, s, i, j):
    spans = _spans(ctx)
    n = spans.n
    if not (1 <= i <= n and 1 <= j <= n):
        raise Reject("the witness is outside 1..n")
    field = spans.receptive(i)
    if I.contains(field, j):
        raise Reject(f"x_{j} reaches position {i}")
    return VERIFIED, (f"the backward search from {i} on the interval model closes on {I.size(field)} positions "
                      f"without {j}: position {i} never sees x_{j} (n = {n})")


def eccentricities(ctx):
    """The eccentricity of every position (backward searches on the interval model), None when some search misses a
    position. One search per twin class when the verifier's twin classes are found (one head): every permutation of
    a class is an automorphism, which keeps distances, so twins have equal eccentricities."""
    if "eccentricities" not in ctx.cache:
        spans = _spans(ctx)
        n = spans.n
        try:
            parts = [members for members, _ in twin_partition(ctx)[0]] if len(ctx.spec.heads) == 1 else None
        except Trust:
            parts = None
        if parts is None or len(parts) == n:
            parts = [[v] for v in range(1, n + 1)]
        ecc: Optional[dict] = {}
        for members in parts:
            levels = spans.levels(members[0])
            if I.size(I.normalise(x for lv in levels for x in lv)) != n:
                ecc = None
                break
            ecc.update((v, len(levels) - 1) for v in members)
        ctx.cache["eccentricities"] = ecc
        ctx.cache["eccentricity searches"] = len(parts)
    return ctx.cache["eccentricities"]


def connected(ctx, s):
    data = s.get("data") or {}
    if data.get("diameter") is None:  # a certificate of bounds only (the exact diameter was not decided)
        fast = _diameter_on_arrays(ctx, exact=False)
        if fast is not None and fast.strong is False:
            raise Reject(f"x_{fast.unreached[0]} does not reach position {fast.unreached[1]}: not strongly connected")
        raise Trust("only bounds on the diameter are certified")
    d = _int(data.get("diameter"), "the diameter")
    pair = data.get("pair") or [None, None]
    cert = s.get("certificate") or {}
    if cert.get("upper bound method") == "seeded" and "seeds" in cert and arrays(ctx) is not None:
        from . import seeded_diameter  # Theorem F131 from the listed seeds, re-searched here
        why = seeded_diameter.check(ctx, s, d, pair)[1]
        ctx.cache[("pair checked", s["id"])] = True  # d(j → i) = D re-searched there
        return VERIFIED, why
    fast = _diameter_on_arrays(ctx)
    if fast is not None:
        return _connected_on_arrays(ctx, s, fast, d, pair)
    ecc = eccentricities(ctx)
    if ecc is None:
        raise Reject("some position does not reach every other: not strongly connected")
    true_d = max(ecc.values())
    if true_d != d:
        raise Reject(f"the directed diameter is {true_d}, not {d}")
    if pair[0] is None and pair[1] is None:
        i = max(ecc, key=lambda v: ecc[v])
        return VERIFIED, (f"every one of the {_searches(ctx)} on the interval model reaches all "
                          f"positions; diameter {d}, the eccentricity of position {i}")
    j, i = _int(pair[0], "the pair"), _int(pair[1], "the pair")
    if _spans(ctx).distance(j, i) != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}")
    ctx.cache[("pair checked", s["id"])] = True
    return VERIFIED, (f"every one of the {_searches(ctx)} on the interval model reaches all positions; "
                      f"diameter {d}, attained by x_{j} reaching position {i}")


def _searches(ctx) -> str:
    k, n = ctx.cache["eccentricity searches"], ctx.spec.tokens
    return (f"{k} backward searches" if k == n else
            f"{k} backward searches (one per twin class of the {n} positions; twins have equal eccentricities)")


# ---------------------------------------------------------------------------------------------
# The diameter on compact arc arrays (arrays.py): a few searches instead of one per position

ORBIT_WORK = 400_000_000  # representatives × arcs searched before the step is left trusted


def arrays(ctx):
    """(the heads' arc codes, the union's adjacency), or None when the array builder does not cover
    the patterns (the interval model is used then)."""
    if "arrays" not in ctx.cache:
        from . import arrays as A
        try:
            if any(h.bias for h in ctx.spec.heads) or ctx.spec.positional != "none":
                raise A.Unsupported("a bias or positional encoding")
            n = _int(ctx.spec.tokens, "the number of tokens")
            heads = [A.head_codes(h.pattern, n) for h in ctx.spec.heads]
            ctx.cache["arrays"] = (heads, A.Adjacency(heads, n))
        except A.Unsupported:
            ctx.cache["arrays"] = None
    return ctx.cache["arrays"]


def _candidates(ctx, n: int) -> list:
    """(name, 1-based image list or numpy permutation) to try as automorphisms: the verifier's own
    rotation and reflection, and the generators the certificate's group step lists or names."""
    from . import arrays as A
    from .groups import named_generators
    out: list = [("the rotation i ↦ i + 1 (mod n)", A.rotation(n)), ("the reflection i ↦ n + 1 − i", A.reflection(n))]
    for step in ctx.cert.get("steps", []):
        if not isinstance(step, dict) or step.get("rule") != "SYM-AUT":
            continue
        raw = step.get("data")
        data: dict = raw if isinstance(raw, dict) else {}
        gens = data.get("generators")
        for k, g in enumerate(gens if isinstance(gens, list) else []):
            out.append((f"the group step's generator {k + 1}", g))
        name = data.get("name")
        if isinstance(name, str) and name in ("S_n", "C_n", "D_n") or (isinstance(name, str) and name.startswith("stabilizer ")):
            for k, g in enumerate(named_generators(name, n) or []):
                out.append((f"generator {k + 1} of {name}", g))
    return out


def automorphisms(ctx) -> list:
    """The candidates (_candidates) that are automorphisms of the union of the heads, each checked on
    the arcs here (σ keeps every degree, and the images of the arcs, sorted, are the arcs): an
    eccentricity is constant on the orbits of these. A candidate that fails is dropped, never used."""
    if "automorphisms" not in ctx.cache:
        from . import arrays as A
        _, adj = arrays(ctx)
        n = adj.n
        found: list = []
        for name, cand in _candidates(ctx, n):
            perm = cand if not isinstance(cand, list) else A.as_permutation(cand, n)
            if perm is None or any(perm is g or (perm.shape == g.shape and bool((perm == g).all())) for _, g in found):
                continue
            if bool((perm == A.identity(n)).all()):
                continue
            if A.preserves(perm, adj.codes, n):
                found.append((name, perm))
        ctx.cache["automorphisms"] = found
    return ctx.cache["automorphisms"]


class _Diameter:
    """What the searches on the arrays established: strong connectivity, the diameter (or bounds), and
    for each computed search its source, direction and distances."""

    def __init__(self):
        self.strong: Optional[bool] = None
        self.unreached: tuple = ()
        self.lower = 0
        self.upper: Optional[int] = None
        self.how = ""
        self.searches: dict = {}  # (direction, 0-based source) -> distances

    @property
    def exact(self) -> Optional[int]:
        return self.lower if self.upper is not None and self.upper == self.lower else None


def _search(adj, fact: _Diameter, direction: str, v: int):
    from . import arrays as A
    key = (direction, v)
    if key not in fact.searches:
        dist = A.distances_to(adj, v) if direction == "to" else A.distances_from(adj, v)
        fact.searches[key] = dist
        if int(dist.min()) < 0:
            fact.strong = False
            u = int(dist.argmin())
            fact.unreached = (u + 1, v + 1) if direction == "to" else (v + 1, u + 1)
        fact.lower = max(fact.lower, int(dist.max()))
    return fact.searches[key]


def _diameter_on_arrays(ctx, exact: bool = True) -> Optional[_Diameter]:  # noqa: C901 - three routes, each short
    """The directed diameter from a few breadth-first searches on the arc arrays, None when the arrays do
    not cover the patterns. Three routes, each sound on its own:
      transitive  a checked automorphism group moves position 1 to every position: the eccentricity of
                  position 1 (its backward search) is every position's, so it is the diameter, and
                  that search reaching all positions is strong connectivity;
      hub         for any position c, d(j → i) ≤ d(j → c) + d(c → i): the searches both ways from a few
                  hubs bound D above, and every distance they find bounds it below; equal bounds are D;
      orbits      else one backward search per orbit of the checked automorphisms (eccentricity is
                  constant on orbits), while the work stays under ORBIT_WORK."""
    if arrays(ctx) is None:
        return None
    key = ("diameter on arrays", exact)
    if key in ctx.cache:
        return ctx.cache[key]
    from . import arrays as A
    _, adj = arrays(ctx)
    n = adj.n
    fact = _Diameter()
    gens = [g for _, g in automorphisms(ctx)]
    if any(A.is_rotation(g) for g in gens):
        dist = _search(adj, fact, "to", 0)
        fact.strong = fact.strong is not False
        fact.upper = int(dist.max()) if fact.strong else None
        fact.how = (f"{_names(ctx)} checked on the arcs, act transitively: one backward search (from position 1) "
                    f"gives every position's eccentricity")
        ctx.cache[key] = fact
        return fact
    hubs = sorted({0, n - 1, n // 2, A.busiest(adj)})
    best = None
    for c in hubs:
        into, out = _search(adj, fact, "to", c), _search(adj, fact, "from", c)
        if fact.strong is False:
            ctx.cache[key] = fact
            return fact
        bound = int(into.max()) + int(out.max())
        if best is None or bound < best[0]:
            best = (bound, c)
    fact.strong = True
    assert best is not None
    fact.upper = best[0]
    fact.how = (f"the searches both ways from position {best[1] + 1} reach every position and bound D by "
                f"{best[0]} (d(j → i) ≤ d(j → c) + d(c → i))")
    if fact.exact is not None or not exact:
        ctx.cache[key] = fact
        return fact
    reps = A.orbit_representatives(gens, n)
    if len(reps) * max(adj.arcs, 1) > ORBIT_WORK:
        raise Trust(f"the diameter is bounded by {fact.lower} ≤ D ≤ {fact.upper} on the arcs; the exact value needs "
                    f"one search per orbit of the checked automorphisms ({len(reps):,} searches over {adj.arcs:,} "
                    f"arcs), above the verifier's work limit")
    ecc = max(int(_search(adj, fact, "to", v).max()) for v in reps)
    if fact.strong is False:
        ctx.cache[key] = fact
        return fact
    fact.lower = fact.upper = ecc
    fact.how = (f"one backward search per orbit of {_names(ctx) or 'the identity'} ({len(reps):,} searches; "
                f"eccentricity is constant on orbits of automorphisms)")
    ctx.cache[key] = fact
    return fact


def _names(ctx) -> str:
    return " and ".join(name for name, _ in automorphisms(ctx))


def _connected_on_arrays(ctx, s, fact: _Diameter, d: int, pair: list):
    if fact.strong is False:
        raise Reject(f"x_{fact.unreached[0]} does not reach position {fact.unreached[1]}: not strongly connected")
    true_d = fact.exact
    if true_d is None:
        raise Trust(f"the diameter is bounded by {fact.lower} ≤ D ≤ {fact.upper} on the arcs, not decided")
    if true_d != d:
        raise Reject(f"the directed diameter is {true_d}, not {d} ({fact.how})")
    _, adj = arrays(ctx)
    head = f"on the arc arrays ({adj.arcs:,} arcs): strongly connected, diameter {d}: {fact.how}"
    if pair[0] is None and pair[1] is None:
        return VERIFIED, head
    j, i = _int(pair[0], "the pair"), _int(pair[1], "the pair")
    if not (1 <= i <= adj.n and 1 <= j <= adj.n):
        raise Reject("the pair is outside 1..n")
    if int(_search(adj, fact, "to", i - 1)[j - 1]) != d:
        raise Reject(f"d({j} -> {i}) is not the diameter {d}")
    ctx.cache[("pair checked", s["id"])] = True
    return VERIFIED, f"{head}; attained by x_{j} reaching position {i}"


def _points(sp: I.Spans, v: int) -> set:
    return {x for lo, hi in sp.neighbourhood(v) for x in range(lo, hi + 1)}


def bad_positions(ctx, perm: list) -> set:
    """Positions v with σ(N_h(v)) ≠ N_h(σ v) for some head h, computed from the moved points only."""
    _spans(ctx)
    heads = ctx.cache["head spans"]
    n = heads[0].n
    moved = [k for k in range(1, n + 1) if perm[k - 1] != k]
    bad = set()
    for sp in heads:
        for v in moved:  # a moved position: compare the whole neighbourhood
            if {perm[x - 1] for x in _points(sp, v)} != _points(sp, perm[v - 1]):
                bad.add(v)
        mset = set(moved)
        for v in range(1, n + 1):  # a fixed position: σ must map N(v) ∩ moved onto itself
            if v in mset:
                continue
            inside = {x for lo, hi in sp.neighbourhood(v) for x in mset if lo <= x <= hi}
            if {perm[x - 1] for x in inside} != inside:
                bad.add(v)
    return bad


def view_witness(ctx, perm: list, i: int, d: int) -> str:
    if arrays(ctx) is not None:
        return _view_witness_on_arrays(ctx, perm, i, d)
    spans = _spans(ctx)
    bad = bad_positions(ctx, perm)
    if not bad:
        raise Reject("σ changes no neighbourhood: it is a symmetry of the heads and shows nothing")
    near = spans.levels(i, limit=d - 1)[:d]
    for t, level in enumerate(near):
        hit = [v for v in bad if I.contains(level, v)]
        if hit:
            raise Reject(f"position {hit[0]}, whose neighbourhood σ changes, is at distance {t} < {d} from {i}")
    return (f"view witness checked on the interval model: the {len(bad)} positions whose neighbourhood σ changes "
            f"are at distance ≥ {d} from {i}")


def _view_witness_on_arrays(ctx, perm: list, i: int, d: int) -> str:
    from . import arrays as A
    heads, adj = arrays(ctx)
    sigma = A.as_permutation(perm, adj.n)
    if sigma is None:
        raise Reject("the view witness is not a permutation of 1..n")
    if not 1 <= i <= adj.n:
        raise Reject("the view witness's position is outside 1..n")
    bad = A.changed_positions(sigma, heads, adj.n)
    if bad.size == 0:
        raise Reject("σ changes no neighbourhood: it is a symmetry of the heads and shows nothing")
    dist = A.distances_to(adj, i - 1)[bad]
    near = (dist >= 0) & (dist < d)
    if bool(near.any()):
        k = int(near.argmax())
        raise Reject(f"position {int(bad[k]) + 1}, whose neighbourhood σ changes, is at distance {int(dist[k])} < {d} "
                     f"from {i}")
    return (f"view witness checked on the arc arrays: the {bad.size} positions whose neighbourhood σ changes "
            f"are at distance ≥ {d} from {i}")


def forward_chain(ctx):
    """The reason the group is trivial when every arc of the union goes forward and every arc k − 1 → k
    is present (checked at every position), else None."""
    if "forward chain" not in ctx.cache and arrays(ctx) is not None:
        import numpy as np  # the same two facts on the arc arrays, without building the interval model
        _, adj = arrays(ctx)
        n = adj.n
        src, dst = np.divmod(adj.codes, n)
        chain = np.arange(1, n, dtype=np.int64)
        chain = (chain - 1) * n + chain  # the codes of the arcs k − 1 → k (0-based)
        at = np.searchsorted(adj.codes, chain)
        present = bool((at < adj.codes.size).all()) and bool((adj.codes[np.minimum(at, adj.codes.size - 1)] == chain).all())
        ctx.cache["forward chain"] = bool((src < dst).all()) and present
    if "forward chain" not in ctx.cache:
        spans = _spans(ctx)
        ok = True
        for v in range(1, spans.n + 1):
            nb = spans.neighbourhood(v)
            if nb[-1][1] > v or (v > 1 and not I.contains(nb, v - 1)):
                ok = False
                break
        ctx.cache["forward chain"] = ok
    if not ctx.cache["forward chain"]:
        return None
    return ("every arc of the union goes forward and every arc k − 1 → k is present (checked at every position): "
            "an automorphism keeps the unique Hamiltonian path 1 → … → n of an acyclic digraph, so G is trivial")


# ---------------------------------------------------------------------------------------------
# |Aut| above the arc limit: twin classes and a quotient decided by nauty

HASH_BITS = 61
QUOTIENT_MAX_ARCS = 6_000_000
MAX_TWIN_TESTS = 200


def _hashes(spans: I.Spans) -> tuple[list, list]:
    """HC(v) = a hash of N(v) (v included) and HO(v) = a hash of N(v) ∖ {v}, from prefix sums of random
    weights. Twins (the transposition (u v) an automorphism) have N(u) = N(v) (an arc between them) or
    N(u) ∖ {u} = N(v) ∖ {v} (none), so equal HC or equal HO; a collision only costs an exact check."""
    import random
    n = spans.n
    rng = random.Random(20261201)
    mod = (1 << HASH_BITS) - 1
    weight = [0] + [rng.getrandbits(HASH_BITS) for _ in range(n)]
    prefix = [0] * (n + 1)
    for k in range(1, n + 1):
        prefix[k] = (prefix[k - 1] + weight[k]) % mod
    hc, ho = [0] * (n + 1), [0] * (n + 1)
    for v in range(1, n + 1):
        h = 0
        for lo, hi in spans.neighbourhood(v):
            h = (h + prefix[hi] - prefix[lo - 1]) % mod
        hc[v], ho[v] = h, (h - weight[v]) % mod
    return hc, ho


def _modules(spans: I.Spans, candidates: list) -> bool:
    """_module for every candidate (members, closed) at once, with one neighbourhood per position instead of one per
    position and candidate: for each position x, how many members of each candidate N(x) holds (all or none for a
    candidate without x; all, closed, or x alone, open, for x's own), and x's neighbours outside its own candidate,
    equal for its members — N(x) itself when closed (N(x) ⊇ C), N(x) ∖ {x} when open (N(x) ∩ C = {x})."""
    owner = {v: idx for idx, (members, _) in enumerate(candidates) for v in members}
    everyone = sorted(owner)
    by_class = [sorted(members) for members, _ in candidates]
    sizes = [len(members) for members in by_class]
    outside: list = [None] * len(candidates)
    memo: dict = {}
    for x in range(1, spans.n + 1):
        nb = spans.neighbourhood(x)
        key = tuple(nb) if len(nb) <= 64 else None
        counts = memo.get(key) if key is not None else None
        if counts is None:
            counts = _member_counts(nb, everyone, owner, by_class)
            if key is not None and len(memo) < 200_000:
                memo[key] = counts
        own = owner.get(x)
        if any(k != sizes[c] for c, k in counts.items() if c != own):
            return False
        if own is None:
            continue
        closed = candidates[own][1]
        if counts.get(own, 0) != (sizes[own] if closed else 1):
            return False
        rest = nb if closed else I.subtract(nb, [(x, x)])
        if outside[own] is None:
            outside[own] = rest
        elif rest != outside[own]:
            return False
    return True


def _member_counts(nb: I.Intervals, everyone: list, owner: dict, by_class: list) -> dict:
    """{candidate: how many of its members lie in nb}: the members in nb listed when they are few, else each
    candidate's members counted by bisection."""
    import bisect
    cuts = [(bisect.bisect_left(everyone, lo), bisect.bisect_right(everyone, hi)) for lo, hi in nb]
    counts: dict = {}
    if sum(b - a for a, b in cuts) <= 4 * len(by_class) + 64:
        for a, b in cuts:
            for v in everyone[a:b]:
                c = owner[v]
                counts[c] = counts.get(c, 0) + 1
        return counts
    for c, members in enumerate(by_class):
        k = sum(bisect.bisect_right(members, hi) - bisect.bisect_left(members, lo) for lo, hi in nb)
        if k:
            counts[c] = k
    return counts


def _intersect(a: I.Intervals, b: I.Intervals) -> I.Intervals:
    out, p, q = [], 0, 0
    while p < len(a) and q < len(b):
        lo, hi = max(a[p][0], b[q][0]), min(a[p][1], b[q][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[p][1] < b[q][1]:
            p += 1
        else:
            q += 1
    return out


def _swap_is_automorphism(ctx, u: int, v: int) -> bool:
    n = ctx.spec.tokens
    perm = list(range(1, n + 1))
    perm[u - 1], perm[v - 1] = v, u
    return not bad_positions(ctx, perm)


def twin_partition(ctx):
    """The twin classes (maximal sets any permutation of which is an automorphism), each with its kind (cached)."""
    if "twin partition" not in ctx.cache:
        try:
            ctx.cache["twin partition"] = _twin_partition(ctx)
        except Trust as exc:
            ctx.cache["twin partition"] = exc
    found = ctx.cache["twin partition"]
    if isinstance(found, Trust):
        raise found
    return found


def _twin_partition(ctx):
    spans = _spans(ctx)
    if len(ctx.spec.heads) != 1:
        raise Trust("the group above the arc limit is re-derived here for one head")
    n = spans.n
    hc, ho = _hashes(spans)
    by: dict = {}
    for v in range(1, n + 1):
        by.setdefault(("c", hc[v]), []).append(v)
        by.setdefault(("o", ho[v]), []).append(v)
    part_of: dict = {}
    parts: list = []
    for (kind, _), members in sorted(by.items(), key=lambda kv: kv[1]):
        if len(members) < 2:
            continue
        if any(v in part_of for v in members):
            raise Trust("a position lies in two candidate twin classes")
        for v in members:
            part_of[v] = len(parts)
        parts.append((members, kind))
    if not _modules(spans, [(members, kind == "c") for members, kind in parts]):
        raise Trust("a candidate twin class is not a module of the pattern")
    for v in range(1, n + 1):
        if v not in part_of:
            part_of[v] = len(parts)
            parts.append(([v], "single"))
    # maximality: representatives of different parts that share a hash must not be twins
    sharing: dict = {}
    for idx, (members, _) in enumerate(parts):
        u = members[0]
        for key in (("c", hc[u]), ("o", ho[u])):
            sharing.setdefault(key, []).append(idx)
    pairs = {(a, b) for group in sharing.values() for a in group for b in group if a < b}
    if len(pairs) > MAX_TWIN_TESTS:
        raise Trust("too many candidate twin classes share a neighbourhood hash")
    for a, b in sorted(pairs):
        if _swap_is_automorphism(ctx, parts[a][0][0], parts[b][0][0]):
            raise Trust("two candidate twin classes are twins of each other")
    return parts, part_of


def stated_generators(data: dict) -> Optional[list]:
    """The group step's `generators`: None (absent or null) or a list of image lists of integers; anything else (0, a
    string, a dict, a list of numbers) is malformed and rejected, whatever route checks the group."""
    gens = data.get("generators")
    if gens is None:
        return None
    if not isinstance(gens, list) or not all(isinstance(g, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                                                        for v in g) for g in gens):
        raise Reject("the generators are neither null nor a list of image lists")
    return gens


def stated_order(ctx, s):
    """The group step's order: an Integer, a Factorial (n!, N!), or (mantissa as text, exponent) for the bounded form."""
    data = s.get("data") or {}
    from .trees import decode
    if data.get("order") is None:
        # an order too long for the certificate's integers is stated in the bounded form "≈ m × 10^e"
        # (the certificate's `order`): the recomputed order is compared with that statement
        return _approximate_order(s, ctx.spec.tokens)
    claimed = decode(data.get("order"), ctx.symbols)
    if not claimed.is_Integer:
        raise Reject("the group's order is not stated as an integer")
    return claimed


def twin_order(claimed, q_order: int, sizes) -> str:
    """|Aut| = q_order · ∏ |C|! over the twin classes of the given sizes, compared with the stated order (never
    multiplied out when long): the words of the match; Reject when it differs, Trust when it is not settled."""
    order = FactoredOrder(q_order, sizes)
    if isinstance(claimed, tuple):
        if not agrees_with(order, *claimed):
            raise Reject(f"|Aut| = {q_order} · ∏ |C|! over the twin classes is not ≈ {claimed[0]} × 10^{claimed[1]}")
        return f"agrees with the stated ≈ {claimed[0]} × 10^{claimed[1]} (to one unit in its last digit)"
    same = equals(order, claimed)
    if same is None:
        raise Trust(f"|Aut| = {order.show()} is compared with the stated {claimed.n}! by Legendre's formula only "
                    f"up to {MAX_SIEVED:,}")
    if not same:
        raise Reject(f"|Aut| = {q_order} · ∏ |C|! over the twin classes is not the stated order")
    return "equals the stated order"


def group(ctx, s):
    data = s.get("data") or {}
    stated_generators(data)
    claimed = stated_order(ctx, s)
    gens = data.get("generators")
    if isinstance(gens, list):
        for g in gens:
            if not (isinstance(g, list) and len(g) == ctx.spec.tokens) or not _symmetry(ctx, g):
                raise Reject("a generator is not a symmetry of the heads")
    by_cells = _group_on_arrays(ctx, claimed)
    if by_cells:
        return by_cells
    if labelled(ctx):
        # the twin classes and the quotient below are those of the bare arcs: a bias class or a position term
        # can make the group smaller (blocks(3) + window(1) with a reweight at 4,100: the bare arcs have the
        # twins 1, 2, the labelled heads none), so they do not give the family's group
        raise Trust("bias classes on the arcs: the group is re-derived by colour refinement on the labelled arc "
                    "arrays only, which did not settle it here")
    parts, part_of = twin_partition(ctx)
    try:
        q_order = _quotient_order(ctx, parts, part_of)
    except ImportError:
        raise Trust("pynauty is not installed: the quotient's group is not re-derived") from None
    except MemoryError:
        # pynauty raises MemoryError when nauty cannot allocate the graph (offsets {±1, ±3} cyclic at
        # 1,048,576 positions, no twins): a resource limit, never a traceback
        raise Trust(f"nauty could not allocate the quotient on {len(parts)} classes: the group is not "
                    "re-derived") from None
    stated = twin_order(claimed, q_order, [len(members) for members, _ in parts])
    big = sorted((len(m) for m, _ in parts if len(m) > 1), reverse=True)
    return VERIFIED, (f"twin classes recomputed on the interval model ({len(parts)} classes; sizes ≥ 2: "
                      f"{big[:6]}{'…' if len(big) > 6 else ''}), each checked to be a module (every permutation "
                      f"of it is an automorphism) and maximal; the coloured quotient's group by nauty (order "
                      f"{q_order}); |Aut| = |Aut(quotient)| · ∏ |C|! {stated}")


def _approximate_order(s, n: int):
    """The order of a step whose exact order is too long for the certificate's integers: n! when the group
    is named S_n, N! when the certificate states "N!", else the bounded form "≈ m × 10^e" as (m as text, e)."""
    import re
    if (s.get("data") or {}).get("name") == "S_n":
        return Factorial(n)
    cert = s.get("certificate") or {}
    text = cert.get("order", (cert.get("data") or {}).get("order") if isinstance(cert.get("data"), dict) else None)
    if isinstance(text, str) and re.fullmatch(r"[1-9][0-9]{0,6}!", text):
        return Factorial(int(text[:-1]))
    match = re.fullmatch(r"≈ ([1-9]\.[0-9]+) × 10\^([0-9]+)", text) if isinstance(text, str) else None
    if match is None:
        raise Reject("the group's order is stated neither as an integer, N! nor ≈ m × 10^e")
    return match.group(1), int(match.group(2))


def _agrees_with(order: int, mantissa: str, exponent: int) -> bool:
    """Whether the positive integer `order` is mantissa × 10^exponent to within one unit in the
    mantissa's last place (the statement is a rounding of a floating-point logarithm, so its last digit
    may be off by one). Exact: compared in integers, (m − 1) · 10^(e − k) ≤ order ≤ (m + 1) · 10^(e − k)
    with m the mantissa's k-digit fraction written as an integer."""
    whole, _, frac = mantissa.partition(".")
    m, scale = int(whole + frac), exponent - len(frac)
    if scale >= 0:
        return (m - 1) * 10 ** scale <= order <= (m + 1) * 10 ** scale
    return (m - 1) <= order * 10 ** (-scale) <= (m + 1)


def _symmetry(ctx, g: list) -> bool:
    """g (a 1-based image list) keeps every head's arcs (and their bias classes): on the arc arrays when they cover
    the patterns."""
    if labelled(ctx):
        labels = arc_labels(ctx)
        if labels is None:
            raise Trust("bias classes on the arcs the arc arrays do not cover: a listed generator is not re-checked")
        from . import arrays as A
        heads, adj = arrays(ctx)
        perm = A.as_permutation(g, adj.n)
        return perm is not None and all(A.preserves_labelled(perm, codes, lab, adj.n)
                                        for codes, lab in zip(heads, labels))
    if arrays(ctx) is None:
        return not bad_positions(ctx, g)
    from . import arrays as A
    heads, adj = arrays(ctx)
    perm = A.as_permutation(g, adj.n)
    return perm is not None and all(A.preserves(perm, codes, adj.n) for codes in heads)


def labelled(ctx) -> bool:
    """A head's arcs carry classes (a bias, or a position term in the weights seen through its classes, §16) or the
    positions carry an encoding: the family's group is that of the labelled structure, a subgroup of the arcs'."""
    return ctx.spec.positional != "none" or any(h.bias or h.position is not None for h in ctx.spec.heads)


def arc_labels(ctx) -> Optional[list]:
    """Per head, the bias class of each of its arcs (aligned with its codes), as `patterns.bias_class` states them,
    the class kind of a position term read by `rules_positions.effective_bias`; None when the arrays do not cover the
    patterns, a kind has no class formula here, or the positions carry an encoding."""
    if "arc labels" not in ctx.cache:
        ctx.cache["arc labels"] = _arc_labels(ctx)
    return ctx.cache["arc labels"]


def _arc_labels(ctx) -> Optional[list]:
    import numpy as np
    from .rules_positions import effective_bias
    if ctx.spec.positional != "none" or arrays(ctx) is None:
        return None
    heads, adj = arrays(ctx)
    n = adj.n
    out = []
    for head, codes in zip(ctx.spec.heads, heads):
        kind = effective_bias(ctx, head, n)  # Trust (or Reject) when the position term's classes are not re-derived
        j, i = np.divmod(codes, n)
        d = j - i
        if kind is None:
            out.append(np.zeros(codes.size, dtype=np.int64))
        elif kind == "toeplitz":
            out.append(d)
        elif kind == "symmetric toeplitz":
            out.append(np.abs(d))
        elif kind == "circulant":
            out.append(d % n)
        elif kind == "symmetric circulant":
            m = d % n
            out.append(np.minimum(m, n - m))
        elif kind == "free":
            out.append(codes.copy())
        elif isinstance(kind, tuple):  # T5's buckets: each offset's bucket, recomputed once per offset (§16.5)
            from .patterns import bias_class
            offsets = sorted(set(d.tolist()))  # np.unique would import numpy.ma (about 35 ms)
            table = {int(m): bias_class(kind, n, int(m), 0)[1] for m in offsets}
            out.append(np.array([table[int(m)] for m in d], dtype=np.int64) if d.size else d.copy())
        else:
            return None
    return out


def _group_on_arrays(ctx, claimed):
    """|G| from colour refinement on the arc arrays (arrays.group_by_refinement) when every cell of two
    or more positions is checked to be a twin class: G is the product of the cells' symmetric groups;
    None when the arrays do not cover the patterns or refinement leaves a cell that is no twin class."""
    if arrays(ctx) is None:
        return None
    from . import arrays as A
    heads, adj = arrays(ctx)
    labels = None
    if labelled(ctx):
        labels = arc_labels(ctx)
        if labels is None:
            return None
    cells = A.group_by_refinement(heads, adj.n, labels)
    if cells is None and labels is not None:
        return _individualised_order(heads, adj, labels, claimed)
    if cells is None:
        return None
    order = FactoredOrder(1, (len(c) for c in cells))  # a multiset of cell sizes, never multiplied out when long
    if isinstance(claimed, tuple):  # stated as "≈ m × 10^e" (group)
        if not agrees_with(order, *claimed):
            raise Reject(f"|G| = ∏ |C|! over the refined cells is not ≈ {claimed[0]} × 10^{claimed[1]}")
    else:
        same = equals(order, claimed)
        if same is None:
            raise Trust(f"|G| = {order.show()} is compared with the stated {claimed.n}! by Legendre's formula only "
                        f"up to {MAX_SIEVED:,}")
        if not same:
            raise Reject(f"|G| = ∏ |C|! = {order.show()} over the refined cells, not the stated order")
    shown = ", ".join("{" + ", ".join(map(str, c[:4])) + (", …" if len(c) > 4 else "") + "}" for c in cells[:4])
    on = "the arc arrays" if labels is None else "the arc arrays labelled by their bias classes"
    if not cells:
        return VERIFIED, (f"colour refinement on {on} ({adj.arcs:,} arcs) gives every position a colour of "
                          f"its own; an automorphism keeps the refined colouring, so G is trivial")
    exact = order.value() if order.small() else None
    size = (exact if exact < 10 ** 30 else f"about 2^{exact.bit_length() - 1}") if exact is not None else \
        f"about 2^{order.bit_length_estimate() - 1}"
    return VERIFIED, (f"colour refinement on {on} ({adj.arcs:,} arcs) leaves {len(cells)} cell(s) of two or "
                      f"more positions ({shown}{', …' if len(cells) > 4 else ''}), each checked to be a twin class "
                      f"(every transposition with its first member keeps every head's arcs); an automorphism keeps "
                      f"the refined colouring, so G is the product of the cells' symmetric groups, order {size}")


def _individualised_order(heads, adj, labels: list, claimed):
    """|G| of the labelled heads when refinement leaves cells that are no twin classes (the reflection's pairs): one
    position individualised (arrays.individualised_group); None when that does not decide it."""
    from . import arrays as A
    colour = A.refine(heads, adj.n, labels, A.labelled_rounds(heads, adj.n))
    found = A.individualised_group(heads, adj.n, labels, colour) if colour is not None else None
    if found is None:
        return None
    order, gens = found
    if isinstance(claimed, Factorial):  # N! stated; |G| is v's orbit here, at most n, so below N! from N = 3 on
        claimed = order if equals(FactoredOrder(order, ()), claimed) else -1  # -1: no order is -1
    if isinstance(claimed, tuple):
        if not _agrees_with(order, *claimed):
            raise Reject(f"|G| = {order} (one position individualised) is not ≈ {claimed[0]} × 10^{claimed[1]}")
    elif order != claimed:
        raise Reject(f"|G| = {order} by colour refinement with one position individualised, not the stated order")
    return VERIFIED, (f"colour refinement on the arc arrays labelled by their bias classes ({adj.arcs:,} arcs), then "
                      f"with one position v of a cell individualised, gives every position a colour of its own: the "
                      f"stabiliser of v is trivial, so |G| is v's orbit, {order} (each candidate image of v checked on "
                      f"the labelled arcs)")


def _quotient_order(ctx, parts, part_of) -> int:
    """|Aut| of the quotient digraph on the twin classes, coloured by (size, kind), by nauty; the order of
    nauty's generators by Schreier–Sims."""
    from . import groups, nauty_digraph
    spans = _spans(ctx)
    k = len(parts)
    adjacency: dict = {x: [] for x in range(k)}
    arcs = 0
    for idx, (members, _) in enumerate(parts):
        seen = set()
        for lo, hi in spans.neighbourhood(members[0]):
            arcs += hi - lo + 1
            if arcs > QUOTIENT_MAX_ARCS:
                raise Trust("the quotient has too many arcs for the verifier")
            for v in range(lo, hi + 1):
                src = part_of[v]
                if src != idx and src not in seen:
                    seen.add(src)
                    adjacency[src].append(idx)
    colours: dict = {}
    for idx, (members, kind) in enumerate(parts):
        colours.setdefault((len(members), kind), set()).add(idx)
    gens = nauty_digraph.generators(k, adjacency, [colours[c] for c in sorted(colours)])
    return groups.order([[v + 1 for v in p] for p in gens], k)
