"""Sparse Transformer's per-layer alternations at any n, for the verifier (docs/theory.md §21.7, Theorems F133 and
F134). Written here from the statements, not from the engine (uapcheck/graphs/layers_structured.py).

The verifier's own reading of the file: one head whose pattern is `periodic { P, Q }` with {P, Q} = {window(w),
strided(s)} (F133: w ≥ 1, 2 ≤ s ≤ w + 1, n ≥ 2w + 2) or {blocks(b), columns(b, c)} (F134: 1 ≤ c < b, b | n,
n ≥ 2b), in either order; the reading of both patterns is confirmed on the arcs the verifier builds itself
(verifier/patterns.py) at a small length of the same family. Then, at the file's n and without arcs:

    F133  G = the reflection (Aut(window(w)) is the reflection for n ≥ 2w + 1, §11.11, and the reflection maps residue
          classes mod s onto residue classes); D_Φ = 2; at depth 3 (window first) or 4 (strided first) the window layer
          (and the strided one) is seen whole, so no view witness (the covering lemma of §21.3); one layer below, the
          transposition (a a + 1) (window first, depth 2) or the exchange j ↔ j + 1 of the residue classes of a and
          a + 1 (strided first, depth 3) keeps position 1's view when a ∉ 1 + {0, −1, w, −w − 1} (mod s).
    F134  G = (S_{b−c} × S_c) ≀ S_{n/b}; D_Φ = 2 (blocks first) or 3 (columns first), and D_Φ layers suffice: every
          block holds a summary, so a permutation keeping a view one layer below the block layer maps blocks onto
          blocks and summaries onto summaries.

Re-checked here in closed form (`Reach`: intervals, residue classes, blocks; each layer's growth integer arithmetic
on them, written from each N(v)'s definition): the reach sets behind D_Φ and the covering, the pair not reached
within D_Φ − 1, and the witness by the definition of §21.3 (position by position up to BY_POSITIONS_N, in closed
form above it, up to WITNESS_MAX_N); the group's order by nauty on the verifier's own arcs at the family's least
length (an instance test of the closed form, which is trusted mathematics at the file's n, §18.2). The same sets
written out position by position (`reach_by_positions`, `connects_all_by_positions`, `witness_by_positions`) are
what the tests compare the closed forms with (docs/theory.md §21.7)."""
from __future__ import annotations

import math
from typing import Optional

from .. import spec as S
from . import groups, patterns

#: The witness is re-checked up to this n (the permutation is a list of n images): by its definition, position by
#: position, up to BY_POSITIONS_N (its cost grows like n²/s for the class exchange), above it in closed form.
WITNESS_MAX_N = 1 << 22
BY_POSITIONS_N = 65536
#: The closed-form group is compared with nauty's at small lengths of the family up to this many positions.
INSTANCE_MAX_N = 600


class NotAlternation(Exception):
    pass


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class Alt:
    """The verifier's reading: `kinds` the patterns of layers 1 and 2 (then repeating)."""

    def __init__(self, n: int, family: str, p: int, q: int, kinds: tuple):
        self.n, self.family, self.p, self.q, self.kinds = n, family, p, q, kinds
        self._summaries: Optional[frozenset] = None
        self.small: list[int] = []  # the small lengths the closed forms were instance-tested at

    def kind_at(self, layer: int) -> str:
        return self.kinds[(layer - 1) % 2]

    def summaries(self) -> frozenset:
        if self._summaries is None:
            self._summaries = frozenset(j for j in range(1, self.n + 1) if (-j) % self.p < self.q)
        return self._summaries

    def N(self, kind: str, v: int) -> frozenset:
        n = self.n
        if kind == "window":
            return frozenset(range(max(1, v - self.p), min(n, v + self.p) + 1))
        if kind == "strided":
            return frozenset(range((v - 1) % self.q + 1, n + 1, self.q))
        if kind == "blocks":
            lo = (v - 1) // self.p * self.p + 1
            return frozenset(range(lo, min(n, lo + self.p - 1) + 1))
        return self.summaries() | {v}  # columns(b, c): the last c positions of every block of b, and v itself

    def at_length(self, m: int) -> "Alt":
        return Alt(m, self.family, self.p, self.q, self.kinds)


def _kind(p) -> tuple[str, tuple[int, ...]]:
    """(the pattern's kind, its integer parameters)."""
    if isinstance(p, S.Window) and not p.cyclic and _nat(p.w):
        return "window", (int(p.w),)
    if isinstance(p, S.Strided) and _nat(p.s):
        return "strided", (int(p.s),)
    if isinstance(p, S.Blocks) and _nat(p.b):
        return "blocks", (int(p.b),)
    if isinstance(p, S.Columns) and _nat(p.l) and _nat(p.c):
        return "columns", (int(p.l), int(p.c))
    raise NotAlternation("a pattern other than window, strided, blocks or columns with integer parameters")


def _family(kinds: list, n: int) -> tuple[Alt, int]:
    """The alternation within its theorem's range, and the family's least length (for the instance tests)."""
    par = dict(kinds)
    order = (kinds[0][0], kinds[1][0])
    if set(par) == {"window", "strided"}:
        (w,), (s,) = par["window"], par["strided"]
        if not (w >= 1 and 2 <= s <= w + 1 and n >= 2 * w + 2):
            raise NotAlternation("outside Theorem F133's range (w ≥ 1, 2 ≤ s ≤ w + 1, n ≥ 2w + 2)")
        return Alt(n, "strided", w, s, order), 2 * w + 2
    if set(par) == {"blocks", "columns"}:
        (b,), (l, c) = par["blocks"], par["columns"]
        if not (l == b and 1 <= c < b and n % b == 0 and n >= 2 * b):
            raise NotAlternation("outside Theorem F134's range (columns(b, c) with 1 ≤ c < b, b | n, n ≥ 2b)")
        return Alt(n, "fixed", b, c, order), 2 * b
    raise NotAlternation("not one of the two alternations")


def read(spec: S.Spec) -> Alt:
    n = spec.tokens
    if not _nat(n):
        raise NotAlternation("the alternations are re-checked at an integer n")
    if len(spec.heads) != 1 or not isinstance(spec.heads[0].pattern, S.PatternSequence):
        raise NotAlternation("one head with a per-layer pattern list is needed")
    seq = spec.heads[0].pattern
    if not seq.periodic or len(seq.patterns) != 2:
        raise NotAlternation("a periodic list of two patterns is needed")
    kinds = [_kind(p) for p in seq.patterns]
    alt, m = _family(kinds, int(n))
    if m <= INSTANCE_MAX_N:  # the verifier's arcs at a small length are the neighbourhoods read here
        small_alt = alt.at_length(m)
        for p, (kind, _) in zip(seq.patterns, kinds):
            got = patterns.head_arcs(p, m)
            want = {(j, i) for i in range(1, m + 1) for j in small_alt.N(kind, i) if j != i}
            if got != want:
                raise NotAlternation(f"the arcs of {kind} at n = {m} are not the neighbourhoods read here")
        alt.small = [m]
    return alt


# ---------------------------------------------------------------------------------------------
# Closed forms (the statements)


def count(alt: Alt) -> tuple[int, int, tuple]:
    """(D_Φ, the count, the pair (i, j) with x_j not reaching i within D_Φ − 1 layers)."""
    local_first = alt.kinds[0] in ("window", "blocks")
    if alt.family == "strided":
        return 2, (3 if local_first else 4), ((1, alt.n) if local_first else (1, 2))
    return (2, 2, (1, alt.n)) if local_first else (3, 3, (1, alt.p + 1))


def witness_residue(alt: Alt) -> Optional[int]:
    """F133 (d): the least a outside 1 + {0, −1, w, −w − 1} mod s (strided first: 1 ≤ a ≤ s − 1, a ≢ n)."""
    w, s = alt.p, alt.q
    bad = {(1 + e) % s for e in (0, -1, w, -w - 1)}
    if alt.kinds[0] == "window":
        return next((a for a in range(1, min(alt.n - 1, s) + 1) if a % s not in bad), None)
    return next((a for a in range(1, s) if a not in bad and a != alt.n % s), None)


def group_words(alt: Alt) -> tuple[str, Optional[int]]:
    """The group's name and order (None: more than 4,000 digits, not computed)."""
    if alt.family == "strided":
        return "reflection", 2
    from .named_structure import words
    b, c, k = alt.p, alt.q, alt.n // alt.p
    parts = [[list(range(t * b + 1, t * b + b - c + 1)), list(range(t * b + b - c + 1, t * b + b + 1))]
             for t in range(k)]
    name = words({"factors": [{"kind": "wreath", "top": "S", "parts": parts}]})
    log10 = (k * (math.lgamma(b - c + 1) + math.lgamma(c + 1)) + math.lgamma(k + 1)) / math.log(10)
    if log10 > 4000:
        return name, None
    return name, (math.factorial(b - c) * math.factorial(c)) ** k * math.factorial(k)


# ---------------------------------------------------------------------------------------------
# Re-checks on implicit neighbourhoods


class Reach:
    """A reach set In(i) in closed form (docs/theory.md §21.1), exact at any n, never a list of its positions: for
    F133 a union of disjoint intervals or of residue classes mod s, for F134 a union of whole blocks, the summary
    columns and single positions. Each layer's growth ∪_{v ∈ cur} N(v) is integer arithmetic on that description
    (the window's on interval ends, the strided class's on residues, the block's on block numbers)."""

    def __init__(self, alt: Alt, intervals=(), residues=None, blocks=frozenset(), summaries: bool = False,
                 singles=frozenset()):
        self.alt = alt
        self.intervals = tuple(intervals)  # F133: disjoint, sorted, merged when adjacent
        self.residues = residues  # F133: a frozenset of residues (v − 1) mod s, or None
        self.blocks, self.with_summaries, self.singles = frozenset(blocks), summaries, frozenset(singles)  # F134

    @classmethod
    def single(cls, alt: Alt, i: int) -> "Reach":
        if alt.family == "strided":
            return cls(alt, intervals=((i, i),))
        return cls(alt, singles={i})

    def __contains__(self, j: int) -> bool:
        alt = self.alt
        if not 1 <= j <= alt.n:
            return False
        if alt.family == "strided":
            if self.residues is not None:
                return (j - 1) % alt.q in self.residues
            return any(lo <= j <= hi for lo, hi in self.intervals)
        return ((j - 1) // alt.p in self.blocks or j in self.singles
                or (self.with_summaries and (-j) % alt.p < alt.q))

    @property
    def full(self) -> bool:
        alt = self.alt
        if alt.family == "strided":
            if self.residues is not None:
                return len(self.residues) == alt.q
            return self.intervals == ((1, alt.n),)
        return len(self.blocks) == alt.n // alt.p

    def grown(self, kind: str) -> "Reach":
        """∪_{v ∈ self} N(v) for one layer of this kind (each N(v) contains v)."""
        alt = self.alt
        n = alt.n
        if kind == "window":
            w = alt.p
            spans = list(self.intervals)
            if self.residues is not None:  # the class of residue r: r + 1, r + 1 + s, …; gaps s ≤ 2w + 1 close up
                if alt.q > 2 * w + 1:
                    raise NotAlternation("the strided classes' windows leave gaps (s > 2w + 1)")
                spans = [(r + 1, r + 1 + alt.q * ((n - r - 1) // alt.q)) for r in sorted(self.residues) if r + 1 <= n]
            return Reach(alt, intervals=_merged((max(1, lo - w), min(n, hi + w)) for lo, hi in spans))
        if kind == "strided":
            if self.residues is not None:
                return self  # a union of classes is its own strided growth
            found: set = set()
            for lo, hi in self.intervals:
                if hi - lo + 1 >= alt.q:
                    found = set(range(alt.q))
                    break
                found.update((v - 1) % alt.q for v in range(lo, hi + 1))
            return Reach(alt, residues=frozenset(found))
        if kind == "blocks":
            touched = set(self.blocks) | {(v - 1) // alt.p for v in self.singles}
            if self.with_summaries:  # the last c ≥ 1 positions of every block are summaries: every block is met
                touched = set(range(n // alt.p))
            return Reach(alt, blocks=touched)
        # columns(b, c): N(v) = the summaries ∪ {v}; the set is not empty, so the summaries join it
        return Reach(alt, blocks=self.blocks, summaries=True, singles=self.singles)


def _merged(spans) -> list:
    out: list = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def reach(alt: Alt, i: int, layers: int, start: int = 0) -> Reach:
    """In(i) through layers start + 1, …, start + layers (the last one applied first at i), §21.1, in closed form."""
    cur = Reach.single(alt, i)
    for ell in range(start + layers, start, -1):
        cur = cur.grown(alt.kind_at(ell))
    return cur


def _reach_from(alt: Alt, first: Reach, start: int, layers: int) -> Reach:
    """The growth of `first` (the last layer's N(i)) through layers start + layers − 1 down to start + 1."""
    cur = first
    for ell in range(start + layers - 1, start, -1):
        cur = cur.grown(alt.kind_at(ell))
    return cur


def connects_all(alt: Alt, start: int, layers: int) -> bool:
    """Layers start + 1, …, start + layers connect every position to every position, in closed form. The reach of i
    depends on i only through its last layer's set N(i), and the growth is a union over the set's elements:
    - strided last: N(i) is the class of i, one per residue (s of them);
    - blocks last: N(i) is the block of i (n/b of them);
    - columns last: N(i) = S ∪ {i} ⊇ S (the summaries), so In(i) ⊇ the growth of S; when that is everything, every
      i is connected, and when no blocks layer follows, In(i) = S ∪ {i} misses a non-summary (n ≥ 2b, c < b);
    - window last: N(i) = [i − w, i + w] ∩ [1, n], whose strided growth is everything when it holds s consecutive
      positions, else the classes of its residues: one key per (first residue, length) below s."""
    if layers < 1:
        return alt.n == 1
    last = alt.kind_at(start + layers)
    if last == "columns":
        rest = _reach_from(alt, Reach(alt, summaries=True), start, layers)
        if rest.full:
            return True
        if not any(alt.kind_at(ell) == "blocks" for ell in range(start + 1, start + layers)):
            return False  # S ∪ {i} and nothing after it: a non-summary position other than i stays out
        raise NotAlternation("the summaries' growth is not everything although a blocks layer follows")
    if last == "strided":
        firsts = [Reach(alt, residues=frozenset({r})) for r in range(min(alt.q, alt.n))]
    elif last == "blocks":
        firsts = [Reach(alt, blocks={k}) for k in range(alt.n // alt.p)]
    else:
        w, n, seen = alt.p, alt.n, set()
        firsts = []
        for i in range(1, n + 1):
            lo, hi = max(1, i - w), min(n, i + w)
            key = "all" if hi - lo + 1 >= alt.q else (lo % alt.q, hi - lo)
            if layers >= 2 and key in seen:  # the strided layer after it reads its residues only
                continue
            seen.add(key)
            firsts.append(Reach(alt, intervals=((lo, hi),)))
    return all(_reach_from(alt, first, start, layers).full for first in firsts)


# The same sets written out position by position (each N(v) from the pattern's definition): the closed forms above are
# compared with them at small n (tests/test_verifier_alternation_closed_forms.py).

def reach_by_positions(alt: Alt, i: int, layers: int, start: int = 0) -> set:
    cur = {i}
    for ell in range(start + layers, start, -1):
        cur = _grown(alt, cur, alt.kind_at(ell))
    return cur


def connects_all_by_positions(alt: Alt, start: int, layers: int) -> bool:
    return all(len(reach_by_positions(alt, i, layers, start)) == alt.n for i in range(1, alt.n + 1))


def _grown(alt: Alt, cur: set, kind: str) -> set:
    """∪_{v ∈ cur} N(v) for one layer's pattern."""
    if kind == "columns":
        return set(cur) | alt.summaries()
    out = set(cur)
    seen: set = set()
    for v in cur:
        key = v if kind == "window" else (v - 1) % alt.q if kind == "strided" else (v - 1) // alt.p
        if key not in seen:  # one class or block is added once
            seen.add(key)
            out |= alt.N(kind, v)
    return out


def witness_holds(alt: Alt, perm: list, position: int, depth: int) -> bool:
    """σ(N_ℓ(v)) = N_ℓ(σ v) for every ℓ ≤ depth and v ∈ V_ℓ (V_depth = {position}, V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v)):
    position by position up to BY_POSITIONS_N, above it in closed form (`witness_closed`)."""
    if alt.n > BY_POSITIONS_N:
        return witness_closed(alt, perm, position, depth)
    return witness_by_positions(alt, perm, position, depth)


def witness_by_positions(alt: Alt, perm: list, position: int, depth: int) -> bool:
    n = alt.n
    views = {depth: {position}}
    for ell in range(depth, 0, -1):
        views[ell - 1] = _grown(alt, views[ell], alt.kind_at(ell))
    for ell in range(1, depth + 1):
        kind = alt.kind_at(ell)
        mapped: dict = {}  # per class or block: (its image under σ, the set)
        for v in views[ell]:
            if kind in ("strided", "blocks"):
                image = _mapped(alt, kind, v, perm, mapped)[0]
                target = _mapped(alt, kind, perm[v - 1], perm, mapped)[1]
            else:
                image = frozenset(perm[u - 1] for u in alt.N(kind, v))
                target = alt.N(kind, perm[v - 1])
            if image != target:
                return False
    return len(perm) == n


def _mapped(alt: Alt, kind: str, v: int, perm: list, memo: dict) -> tuple:
    key = (v - 1) % alt.q if kind == "strided" else (v - 1) // alt.p
    if key not in memo:
        nv = alt.N(kind, v)
        memo[key] = (frozenset(perm[u - 1] for u in nv), nv)
    return memo[key]


def instance_order(alt: Alt, m: int) -> tuple[Optional[int], str]:
    """|Aut| of both layers' arcs at length m, by the verifier's own arcs and nauty (or brute force)."""
    small = alt.at_length(m)
    lab: dict = {}
    for q, kind in enumerate(small.kinds):
        for i in range(1, m + 1):
            for j in small.N(kind, i):
                if j != i:
                    lab.setdefault((j, i), []).append((q, 0))
    return groups.full_order({k: tuple(v) for k, v in lab.items()}, m, "none")


# ---------------------------------------------------------------------------------------------
# The witness in closed form (F133: σ exchanges x and x + 1 for every x of a set X, X = {a} or the class of a)


def _exchanges(alt: Alt, perm: list) -> Optional[frozenset]:
    """X when σ = perm is the product of the exchanges (x x + 1), x ∈ X, and X is {a} or every x ≡ a (mod s) below n;
    None otherwise (the closed form covers these two shapes only)."""
    n = alt.n
    if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
        return None
    moved = [v for v in range(1, n + 1) if perm[v - 1] != v]
    xs = moved[0::2]
    if not xs or len(moved) != 2 * len(xs) or any(moved[2 * k + 1] != x + 1 or perm[x - 1] != x + 1 or perm[x] != x
                                                   for k, x in enumerate(xs)):
        return None
    if len(xs) > 1 and (alt.family != "strided" or xs[0] >= alt.q or xs != list(range(xs[0], n, alt.q))):
        return None  # X: the whole class of a below n, a < s (so a + 1 ≤ s starts its class too)
    return frozenset(xs)


def _hits(alt: Alt, view: Reach, target: "int | None", residue: "int | None", shift: int, low: int, high: int) -> bool:
    """Some v of the view with low ≤ v ≤ high and v + shift in X, X = {target} or the class of `residue` (mod s)."""
    s, lo_v, hi_v = alt.q, max(1, low), min(alt.n, high)
    if lo_v > hi_v:
        return False
    if target is not None:
        v = target - shift
        return lo_v <= v <= hi_v and v in view
    if residue is None:
        raise ValueError("neither a target nor a residue")
    want = (residue - shift) % s  # v + shift ≡ residue (mod s) ⇔ v ≡ want (mod s)
    if view.residues is not None:
        r = (want - 1) % s  # v ≡ want (mod s) ⇔ (v − 1) mod s = want − 1
        if r not in view.residues:
            return False
        first = lo_v + ((r + 1 - lo_v) % s)
        return first <= hi_v
    for a, b in view.intervals:
        a, b = max(a, lo_v), min(b, hi_v)
        if a <= b and a + ((want - a) % s) <= b:
            return True
    return False


def witness_closed(alt: Alt, perm: list, position: int, depth: int) -> bool:
    """The view condition of §21.3 for σ = ∏_{x ∈ X} (x x + 1) on the closed-form views V_ℓ (Reach sets):
    - a strided layer ℓ: σ maps the class of v onto the class of σ v for every v ∈ V_ℓ. A class holding neither a
      moved x nor x + 1 is fixed; with X = {a} the classes of a and a + 1 are cut (s ≥ 2), so V_ℓ must avoid both;
      with X the class of a below n, the classes of a and a + 1 are exchanged whole exactly when the last position
      of a's class is below n (n ≢ a (mod s)), else they are cut;
    - a window layer ℓ: every v ∈ V_ℓ is fixed by σ and its window [max(1, v − w), min(n, v + w)] is a union of
      σ's orbits: neither its top end t < n nor the position below its bottom end is in X.
    σ fixes the position and moves something, so it is neither the identity nor the reflection (which moves 1 to n
    for n ≥ 2): σ ∉ G. Only F133's alternation (G the reflection) is read here."""
    if alt.family != "strided":
        return False
    xs = _exchanges(alt, perm)
    if xs is None or perm[position - 1] != position:
        return False
    n, s, w = alt.n, alt.q, alt.p
    one = len(xs) == 1
    a = min(xs)
    target, residue = (a, None) if one else (None, a % s)
    views = {depth: Reach.single(alt, position)}
    for ell in range(depth, 0, -1):
        views[ell - 1] = views[ell].grown(alt.kind_at(ell))
    for ell in range(1, depth + 1):
        view = views[ell]
        if one:
            moved_in = a in view or a + 1 in view
        else:  # some v ≡ a below n (in X) or v ≡ a + 1 from 2 on (in X + 1)
            moved_in = _hits(alt, view, None, a % s, 0, 1, n - 1) or _hits(alt, view, None, (a + 1) % s, 0, 2, n)
        if alt.kind_at(ell) == "strided":
            classes = {(a - 1) % s, a % s}  # the residues (v − 1) mod s of a and a + 1
            touched = view.residues if view.residues is not None else _interval_residues(alt, view)
            if touched & classes and (one or (n - a) % s == 0):
                return False
            continue
        if moved_in:
            return False
        # a window's top end t = v + w < n in X, or the position v − w − 1 ≥ 1 below its bottom end in X
        if _hits(alt, view, target, residue, w, 1, n - 1 - w) or _hits(alt, view, target, residue, -w - 1, w + 2, n):
            return False
    return True


def _interval_residues(alt: Alt, view: Reach) -> frozenset:
    found: set = set()
    for lo, hi in view.intervals:
        if hi - lo + 1 >= alt.q:
            return frozenset(range(alt.q))
        found.update((v - 1) % alt.q for v in range(lo, hi + 1))
    return frozenset(found)
