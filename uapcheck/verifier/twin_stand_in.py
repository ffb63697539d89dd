"""D layers, least, of one head at a concrete n from its twin quotient (Theorem F196, Lemma L (c), docs/theory.md
§11.11), decided by the verifier itself: the engine's stand-in graph is rebuilt here, never read.

    twin classes   the verifier's own (`large.twin_partition` on the interval model: modules checked exactly, maximal);
                   Lemma L's twins have equal in- and out-neighbourhoods, every position attending to itself, so they
                   are its classes of adjacent twins, and a class of pairwise non-adjacent ones is split into
                   single positions
    quotient Q     In(t) = the classes within the in-neighbourhood of one member of C_t (a union of classes)
    stand-in c′    the certificate's stand-in sizes, read as a map from a class's size (a hint only): c′ must be
                   R-equivalent to c, R = Σ_t min(c_t, k), checked here over every signed sum Σ ε_t c_t
                   (`r_equivalent`)
    Γ′ = Γ(Q, c′)  built here; its diameter by breadth-first search must be the pattern's D (Lemma L (a)); its rooted
                   views at depth D decided with nauty (views.decide, §11.9) under its whole group (nauty): by Lemma L
                   (c), for D ≥ 2, a view witness of Γ exists iff one of Γ′ does

So D layers suffice (none in Γ′), or they do not (one in Γ′: a count of D, least, is rejected). A certificate with no
stand-in sizes (the count decided by Lemma N's class-map search on the quotient at the true sizes) is left to the
verifier's other routes (its own rooted views up to its arc limit; `trusted` above it, §18.5). Everything else stays with the other routes: several heads, labelled arcs (a bias, a position term or an encoding), D ≤ 1, more than
MAX_CLASSES classes, a stand-in above the rooted-view limit or sizes that are not R-equivalent.
"""
from __future__ import annotations

import bisect
import itertools
import re
from typing import Optional

from . import groups, intervals as I, patterns, views
from .check import VERIFIED, Reject, Trust

THEOREM = "Theorem F196"
MAX_CLASSES = 64
MAX_COMBINATIONS = 200_000  # signed combinations of the large sizes' multiplicities, each against the small sums
MAX_STANDIN_ARCS = 400_000


def applies(s: dict) -> bool:
    """The step's certificate is the twin quotient's (a trusted block naming Lemma L, Theorem F196)."""
    cert = s.get("certificate") or {}
    return (cert.get("kind") == "trusted" and "Theorem F196" in str(cert.get("reason", ""))
            and isinstance(cert.get("data"), dict) and isinstance(cert["data"].get("twin classes"), list))


def classes(ctx) -> list[list[int]]:
    """Lemma L's twin classes of the one head, each a sorted list of positions (cached): the verifier's twin
    partition with its open (pairwise non-adjacent) classes split into single positions."""
    if "lemma L classes" not in ctx.cache:
        from . import large
        parts, _ = large.twin_partition(ctx)
        out: list = []
        for members, kind in parts:
            if kind == "o":
                out.extend([v] for v in members)
            else:
                out.append(sorted(members))
        ctx.cache["lemma L classes"] = sorted(out)
    return ctx.cache["lemma L classes"]


def quotient(spans: I.Spans, cls: list[list[int]]) -> list[frozenset]:
    """In(t) for every class t: the classes u whose (first) member lies in the in-neighbourhood of C_t's first member.
    Each in-neighbourhood is a union of twin classes (Lemma L), so one member decides."""
    out = []
    for members in cls:
        nb = spans.neighbourhood(members[0])
        out.append(frozenset(u for u, other in enumerate(cls) if I.contains(nb, other[0])))
    return out


def r_equivalent(sizes: list[int], stand: list[int]) -> Optional[str]:
    """None when c′ = `stand` is R-equivalent to c = `sizes` (Lemma L): for every ε ∈ {−1, 0, 1}^k, s = Σ ε_t c_t and
    s′ = Σ ε_t c′_t have s′ = s when |s| ≤ R, else |s′| > R with the sign of s; R = Σ min(c_t, k). Else the reason.

    Exact: the classes are grouped by (c_t, c′_t); a group of multiplicity m contributes a·c and a·c′ with any integer
    |a| ≤ m. The groups with c′ = c contribute the same A to s and s′ (their sums, a set computed exactly); for each
    combination of the other groups (B, B′) every A is compared at once on the sorted set (no A may put A + B within
    [−R, R] when B′ ≠ B, nor on the other side of ±R in s′ than in s)."""
    k = len(sizes)
    if len(stand) != k or any(not isinstance(c, int) or isinstance(c, bool) or c < 1 for c in stand):
        return "a stand-in size is not a positive integer"
    r = sum(min(c, k) for c in sizes)
    groups_: dict = {}
    for c, c2 in zip(sizes, stand):
        groups_[(c, c2)] = groups_.get((c, c2), 0) + 1
    same = [(c, m) for (c, c2), m in groups_.items() if c == c2]
    other = [(c, c2, m) for (c, c2), m in groups_.items() if c != c2]
    combos = 1
    for _, _, m in other:
        combos *= 2 * m + 1
    if combos > MAX_COMBINATIONS:
        return f"{combos} signed combinations of the resized classes, more than the verifier tries"
    sums = {0}
    for c, m in same:
        sums = {a + j * c for a in sums for j in range(-m, m + 1)}
    small = sorted(sums)

    def any_in(lo: int, hi: int) -> bool:
        """Some A of the small sums lies in [lo, hi]."""
        p = bisect.bisect_left(small, lo)
        return p < len(small) and small[p] <= hi

    for coeffs in itertools.product(*(range(-m, m + 1) for _, _, m in other)):
        b = sum(a * c for a, (c, _, _) in zip(coeffs, other))
        b2 = sum(a * c2 for a, (_, c2, _) in zip(coeffs, other))
        if b == b2:
            continue  # s′ = s for every A
        if any_in(-r - b, r - b):
            return f"a signed sum within ±{r} changes (Σ ε c = {b} + A, Σ ε c′ = {b2} + A)"
        if b2 < b and any_in(r - b + 1, r - b2):  # s > R but s′ ≤ R
            return f"a signed sum above {r} is not above it with the stand-in sizes"
        if b2 > b and any_in(-r - b2, -r - b - 1):  # s < −R but s′ ≥ −R
            return f"a signed sum below −{r} is not below it with the stand-in sizes"
    return None


def _stand_in_sizes(s: dict, sizes: list[int]) -> list[int]:
    """c′ from the certificate's `twin classes` (a map from a class's size to its stand-in size): the hint the
    verifier checks. Its classes' sizes must be the verifier's (as a multiset), else the block states other twin
    classes than the pattern's."""
    listed = s["certificate"]["data"]["twin classes"]
    pairs: list[tuple[int, int]] = []
    for entry in listed:
        c, c2 = (entry.get("size"), entry.get("stand-in size")) if isinstance(entry, dict) else (None, None)
        if not (isinstance(c, int) and isinstance(c2, int)) or isinstance(c, bool) or isinstance(c2, bool):
            raise Reject("a twin class of the certificate states no integer size and stand-in size")
        pairs.append((c, c2))
    if sorted(c for c, _ in pairs) != sorted(sizes):
        raise Reject(f"the certificate's twin classes have the sizes {sorted(c for c, _ in pairs)[:8]}, the "
                     f"pattern's (re-derived on the interval model) {sorted(sizes)[:8]}")
    table: dict = {}
    for c, c2 in pairs:
        if table.setdefault(c, c2) != c2:
            raise Trust("the certificate gives two twin classes of one size different stand-in sizes")
    return [table[c] for c in sizes]


def layers(ctx, s: dict, d: int):
    """PAT-LAYERS: D = d layers, least, by Lemma L (c) on the verifier's own stand-in; None when the route does not
    apply here (the caller goes on to its other routes)."""
    spec = ctx.spec
    if (not applies(s) or len(spec.heads) != 1 or spec.positional != "none" or spec.heads[0].bias
            or spec.heads[0].position is not None or d < 2):
        return None
    listed = s["certificate"]["data"]["twin classes"]
    if all(isinstance(entry, dict) and "stand-in size" not in entry for entry in listed):
        return None  # Lemma N's class-map search at the true sizes (no stand-in): the verifier's other routes
    from . import large
    spans = large._spans(ctx)
    cls = classes(ctx)
    k = len(cls)
    if k > MAX_CLASSES:
        raise Trust(f"{k} twin classes: the stand-in is built here for at most {MAX_CLASSES}")
    sizes = [len(c) for c in cls]
    stand = _stand_in_sizes(s, sizes)
    n2 = sum(stand)
    if n2 > views.MAX_N:
        raise Trust(f"the stand-in has {n2} positions, above the rooted-view limit {views.MAX_N}")
    why = r_equivalent(sizes, stand)
    if why:
        raise Trust(f"the certificate's stand-in sizes are not R-equivalent to the twin classes' ({why})")
    into = quotient(spans, cls)
    starts = list(itertools.accumulate([0] + stand))
    arcs: set[tuple[int, int]] = set()
    for t in range(k):
        for u in into[t]:
            arcs.update((starts[u] + a + 1, starts[t] + b + 1) for a in range(stand[u]) for b in range(stand[t]))
            if len(arcs) > MAX_STANDIN_ARCS:
                raise Trust(f"the stand-in has more than {MAX_STANDIN_ARCS:,} arcs")
    heads = [frozenset(arcs)]
    outs = patterns.union_out(heads, n2)
    dist = [patterns.bfs(outs, v) for v in range(1, n2 + 1)]
    reached = [x for row in dist for x in row[1:]]
    if any(x is None for x in reached):
        raise Trust("the stand-in is not strongly connected where the pattern is")
    if max(x for x in reached if x is not None) != d:
        raise Trust(f"the stand-in's diameter is not the pattern's {d}")
    gens, method = groups.full_generators(patterns.head_labels(heads), n2, "none")
    if gens is None:
        raise Trust(f"the stand-in's group is not re-derived: {method}")
    try:
        problem = views.decide(heads, n2, d, gens)
    except views.NoNauty as exc:
        raise Trust(f"the stand-in's rooted views are not decided: {exc}") from None
    if problem:
        raise Reject(f"{d} layers do not suffice: on the stand-in Γ(Q, c′) of {n2} positions {problem}, and by Lemma "
                     f"L (c) ({THEOREM}) so has the pattern")
    return VERIFIED, (f"{THEOREM} (Lemma L (c)): the verifier's own twin classes ({k}, on the interval model), the "
                      f"quotient Q and the stand-in sizes R-equivalent to theirs (checked over every signed sum, R = "
                      f"{sum(min(c, k) for c in sizes)}); on the stand-in Γ(Q, c′) of {n2} positions, built here, the "
                      f"diameter is {d} (breadth-first search) and the rooted views (§11.9) decided with nauty under "
                      f"its whole group ({method}) show no view witness at depth {d}, so none exists in the pattern "
                      f"and D = {d} layers suffice")


# ---------------------------------------------------------------------------------------------
# G's name (Lemma L (b)): "S_c on P × …", with "(…) ⋊ the E permutations of whole twin classes that keep the pattern"

_RUN = re.compile(r"\{(\d+)\}|\{(\d+), (\d+)\}|\{(\d+), (\d+), …, (\d+)\}|\{(\d+), …, (\d+)\}")


def _positions(text: str) -> Optional[list[range]]:
    """The positions a class's words name, "{a}", "{a, b}", "{a, a + s, …, b}", "{a, …, b}" joined by " ∪ ", as
    ranges; None when the words are not of that form."""
    out = []
    for piece in text.split(" ∪ "):
        m = _RUN.fullmatch(piece)
        if m is None:
            return None
        a, b1, b2, c1, c2, c3, d1, d2 = m.groups()
        if a:
            out.append(range(int(a), int(a) + 1))
        elif b1:
            out.append(range(int(b1), int(b2) + 1, max(int(b2) - int(b1), 1)))
        elif c1:
            step = int(c2) - int(c1)
            if step < 1 or (int(c3) - int(c1)) % step:
                return None
            out.append(range(int(c1), int(c3) + 1, step))
        else:
            out.append(range(int(d1), int(d2) + 1))
    return out


def _exchanges(spans: I.Spans, cls: list[list[int]]) -> int:
    """|Aut_c(Q)|: the class permutations that keep the quotient's arcs and the sizes, by nauty (Lemma L (b))."""
    from . import nauty_digraph
    into = quotient(spans, cls)
    k = len(cls)
    adjacency = {u: sorted(t for t in range(k) if u in into[t] and t != u) for u in range(k)}
    by_size: dict = {}
    for t, c in enumerate(cls):
        by_size.setdefault(len(c), set()).add(t)
    gens = nauty_digraph.generators(k, adjacency, [by_size[c] for c in sorted(by_size)])
    return groups.order([[v + 1 for v in p] for p in gens], k)


def group_name(ctx, s: dict) -> str:
    """SYM-AUT of the twin quotient: the stated name is G's by Lemma L (b) — one factor "S_c on P" for each of the
    verifier's own twin classes of two or more positions (P read back as positions and compared with the class), and
    the class permutations' count E = |Aut_c(Q)| (nauty on the quotient coloured by size) written as the engine writes
    it. Rejected when the name states another group; Trust when it is not read. Returns the reason's clause."""
    name = (s.get("data") or {}).get("name")
    if not isinstance(name, str):
        raise Reject("the group of the twin quotient states no name")
    from . import large
    cls = classes(ctx)
    try:
        exchanges = _exchanges(large._spans(ctx), cls)
    except ImportError:
        raise Trust("pynauty is not installed: the group's name is not re-derived") from None
    inner = name
    whole = re.fullmatch(r"\((.*)\) ⋊ the (\d+) permutations of whole twin classes that keep the pattern", name)
    bare = re.fullmatch(r"the (\d+) permutations of the positions that keep the pattern", name)
    stated = 1
    if whole:
        inner, stated = whole.group(1), int(whole.group(2))
    elif bare:
        inner, stated = "trivial", int(bare.group(1))
    if stated != exchanges:
        raise Reject(f"the name {name[:80]!r} states {stated} permutations of whole twin classes; the quotient has "
                     f"{exchanges}")
    wide = {tuple(c) for c in cls if len(c) >= 2}
    if inner == "trivial":
        said: set = set()
    else:
        said = set()
        for factor in inner.split(" × "):
            m = re.fullmatch(r"S_(\d+) on (.*)", factor)
            runs = _positions(m.group(2)) if m else None
            if m is None or runs is None:
                raise Trust(f"the group's name {name[:80]!r} is not read as the twin classes' symmetric groups")
            members = tuple(sorted({v for r in runs for v in r}))
            if len(members) != int(m.group(1)):
                raise Reject(f"the name's factor S_{m.group(1)} acts on {len(members)} positions")
            said.add(members)
    if said != wide:
        raise Reject(f"the name {name[:80]!r} does not state the symmetric groups of the twin classes (re-derived on "
                     f"the interval model: {len(wide)} of two or more positions)")
    return f"; its name states the symmetric groups of exactly those classes and {exchanges} class permutation(s)"
