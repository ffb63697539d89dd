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

Re-checked here on implicit neighbourhoods (each N(v) written from the pattern's definition): the reach sets behind
D_Φ and the covering (as unions of the sets N(v), by residue class or block, for every position), the pair not
reached within D_Φ − 1, and the witness by the definition of §21.3 (position by position, up to WITNESS_MAX_N);
the group's order by nauty on the verifier's own arcs at the family's least length (an instance test of the
closed form). The closed forms at every n of their ranges are trusted mathematics (§18.2)."""
from __future__ import annotations

import math
from typing import Optional

from .. import spec as S
from . import groups, patterns

#: The witness is re-checked by its definition up to this n (its cost grows like n²/s for the class exchange).
WITNESS_MAX_N = 65536
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


def reach(alt: Alt, i: int, layers: int, start: int = 0) -> set:
    """In(i) through layers start + 1, …, start + layers (the last one applied first at i), §21.1."""
    cur = {i}
    for ell in range(start + layers, start, -1):
        cur = _grown(alt, cur, alt.kind_at(ell))
    return cur


def connects_all(alt: Alt, start: int, layers: int) -> bool:
    """Layers start + 1, …, start + layers connect every position to every position. The reach of i depends on i only
    through its last layer's set N(i) (a class, a block, a window): one reach per distinct N(i), the windows' reach
    by the classes (strided) they meet."""
    last = alt.kind_at(start + layers)
    done: set = set()
    full = alt.n
    for i in range(1, alt.n + 1):
        key: object = i
        if last in ("strided", "blocks"):
            key = alt.N(last, i)  # the reach of i is that of its class or block
        elif layers >= 2 and last == "window":  # the layer before is strided: only the residues of N(i) matter
            key = frozenset((u - 1) % alt.q for u in alt.N(last, i))
        elif layers >= 2 and last == "columns":  # the layer before is blocks: only the block of i matters
            key = ("columns", (i - 1) // alt.p)
        if key in done:
            continue
        done.add(key)
        if len(reach(alt, i, layers, start)) != full:
            return False
    return True


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
    """σ(N_ℓ(v)) = N_ℓ(σ v) for every ℓ ≤ depth and v ∈ V_ℓ (V_depth = {position}, V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v))."""
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
