"""Sparse Transformer's per-layer alternations at any concrete n, by arithmetic (docs/theory.md §21.7, Theorems F133
and F134).

Two families of `pattern periodic { P, Q }` with one head per layer (positions 1-based, every position sees itself):

* **strided** (Child et al. 2019, A^(1) the local window and A^(2) every s-th position): the layers alternate
  window(w) (N(v) = [v − w, v + w] ∩ [n]) and strided(s) (N(v) = the positions ≡ v mod s), in either order, with
  w ≥ 1, 2 ≤ s ≤ w + 1 and n ≥ 2w + 2. Theorem F133: G is the reflection, D_Φ = 2, and 3 layers (window first) or
  4 (strided first) suffice by the covering lemma of §21.3; they are least when the residues
  E = {0, −1, w, −w − 1} (mod s) leave one out — a view witness one layer below is then written down: the
  transposition (a a + 1) at position 1 (window first), or the exchange of the residue classes a and a + 1
  (strided first), with a ∉ 1 + E (mod s).
* **fixed** (A^(1) the block of l positions, A^(2) the last c positions of every block, "summary columns"): the
  layers alternate blocks(b) and columns(b, c), in either order, with 1 ≤ c < b, b | n and n ≥ 2b. Theorem F134:
  G = (S_{b−c} × S_c) ≀ S_{n/b} (blocks onto blocks, summaries onto summaries), D_Φ = 2 (blocks first) or 3
  (columns first), and D_Φ layers are least: every block holds a summary, and the summaries are in every view one
  layer below the block layer, so a view-keeping σ maps blocks onto blocks and summaries onto summaries.

Nothing is materialised: the counts, the pair not reached one layer below D_Φ, the group and the witness are closed
forms in (n, w, s) or (n, b, c). ``witness_holds`` re-checks a witness by the definition of §21.3 on implicit
neighbourhoods (each set built when it is compared), for the certificate's check and the tests.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Optional, Sequence

from .. import spec as S

STRIDED, FIXED = "strided", "fixed"


def _nat(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class Alternation:
    """One of the two families: ``family`` STRIDED (p, q) = (w, s) or FIXED (p, q) = (b, c); ``local_first``: the
    window (blocks) is layer 1, else the strided (columns) pattern is."""
    n: int
    family: str
    p: int
    q: int
    local_first: bool

    @property
    def kinds(self) -> tuple[str, str]:
        """The patterns of layers 1 and 2 (then repeating)."""
        pair = ("window", "strided") if self.family == STRIDED else ("blocks", "columns")
        return pair if self.local_first else (pair[1], pair[0])

    def kind_at(self, layer: int) -> str:
        return self.kinds[(layer - 1) % 2]

    def words(self) -> str:
        w = {"window": f"window({self.p})", "strided": f"strided({self.q})", "blocks": f"blocks({self.p})",
             "columns": f"columns({self.p}, {self.q})"}
        return "periodic { " + ", ".join(w[k] for k in self.kinds) + " }"


def recognise(per_layer: Sequence[Sequence[S.Pattern]], periodic: bool, n: int) -> Optional[Alternation]:
    """The alternation of one of the families within its theorem's range, or None (not one, or out of range)."""
    if not periodic or len(per_layer) != 2 or any(len(heads) != 1 for heads in per_layer) or not _nat(n):
        return None
    first, second = per_layer[0][0], per_layer[1][0]
    for local_first, (x, y) in ((True, (first, second)), (False, (second, first))):
        if isinstance(x, S.Window) and isinstance(y, S.Strided) and not x.cyclic and _nat(x.w) and _nat(y.s):
            w, s = int(x.w), int(y.s)
            if w >= 1 and 2 <= s <= w + 1 and n >= 2 * w + 2:
                return Alternation(n, STRIDED, w, s, local_first)
            return None
        if isinstance(x, S.Blocks) and isinstance(y, S.Columns) and _nat(x.b) and _nat(y.l) and _nat(y.c):
            b, c = int(x.b), int(y.c)
            if int(y.l) == b and 1 <= c < b and n % b == 0 and n >= 2 * b:
                return Alternation(n, FIXED, b, c, local_first)
            return None
    return None


# ---------------------------------------------------------------------------------------------
# The decision


@dataclass(frozen=True)
class AltWitness:
    """A view witness at ``depth`` for ``position``: the transposition (a a + 1) (``exchange`` False) or the exchange
    of the residue classes of a and a + 1 mod s, j ↔ j + 1 for every j ≡ a (``exchange`` True)."""
    position: int
    depth: int
    a: int
    exchange: bool

    def moved(self, alt: Alternation) -> list[tuple[int, int]]:
        """The 2-cycles of the permutation (j, j + 1)."""
        if not self.exchange:
            return [(self.a, self.a + 1)]
        return [(j, j + 1) for j in range(self.a, alt.n, alt.q)]

    def permutation(self, alt: Alternation) -> list[int]:
        perm = list(range(1, alt.n + 1))
        for x, y in self.moved(alt):
            perm[x - 1], perm[y - 1] = y, x
        return perm


@dataclass(frozen=True)
class AltGroup:
    name: str
    order: Optional[int]  # None: more than MAX_ORDER_DIGITS digits (then `order_words` only)
    order_words: str
    generators: tuple  # image tuples (1-based), listed for n ≤ 256


@dataclass(frozen=True)
class AltDecision:
    depth: int  # D_Φ
    missing: tuple[int, int]  # (i, j): x_j does not reach i within D_Φ − 1 layers
    layers: int  # the count that suffices
    least: bool
    witness: Optional[AltWitness]  # at depth layers − 1 when layers > D_Φ and least
    covered: tuple[int, ...]  # the layers seen whole at depth `layers` (the covering lemma), or () for F134
    group: AltGroup


def exclusions(w: int, s: int) -> frozenset:
    """E = {0, −1, w, −w − 1} mod s: a ∈ i + E splits a pair (a, a + 1) against the class of i or its windows."""
    return frozenset(x % s for x in (0, -1, w, -w - 1))


def strided_witness(alt: Alternation) -> Optional[AltWitness]:
    """Theorem F133 (d): the least a with a mod s ∉ 1 + E (and, strided first, 1 ≤ a ≤ s − 1 and a ≢ n), or None."""
    w, s, n = alt.p, alt.q, alt.n
    bad = {(1 + e) % s for e in exclusions(w, s)}
    if alt.local_first:
        for a in range(1, min(n - 1, s) + 1):
            if a % s not in bad:
                return AltWitness(1, 2, a, False)
        return None
    for a in range(1, s):
        if a not in bad and a != n % s:
            return AltWitness(1, 3, a, True)
    return None


def reflection_group(n: int) -> AltGroup:
    gens = (tuple(range(n, 0, -1)),) if n <= 256 else ()
    return AltGroup("reflection", 2, "2", gens)


def fixed_group(n: int, b: int, c: int) -> AltGroup:
    """(S_{b−c} × S_c) ≀ S_{n/b}: blocks onto blocks, each block's summaries (its last c positions) onto the image
    block's summaries."""
    from ..class_action import WreathOn, _blocks_words
    k = n // b
    blocks = tuple(tuple(range(t * b + 1, t * b + b + 1)) for t in range(k))
    parts = tuple((blk[:b - c], blk[b - c:]) for blk in blocks)
    words = _blocks_words(blocks, False)
    if words is None:  # pragma: no cover - equal consecutive blocks are always written
        raise ValueError("the blocks cannot be written")
    name = WreathOn("S", blocks, parts, words).text
    order = fixed_order(b, c, k)
    factors = [f"{b - c}!^{k}"] + ([f"{c}!^{k}"] if c > 1 else []) + [f"{k}!"]
    gens: tuple = ()
    if n <= 256:
        out = []

        def perm(pairs):
            p = list(range(1, n + 1))
            for x, y in pairs:
                p[x - 1], p[y - 1] = p[y - 1], p[x - 1]
            return tuple(p)
        for blk in blocks:
            low, high = blk[:b - c], blk[b - c:]
            for part in (low, high):
                if len(part) >= 2:
                    out.append(perm([(part[0], part[1])]))
                    out.append(tuple(_cycle(n, part)))
        out.append(perm([(x, x + b) for x in range(1, b + 1)]))
        out.append(tuple(((v - 1 + b) % n) + 1 for v in range(1, n + 1)))
        gens = tuple(dict.fromkeys(out))
    return AltGroup(name, order, " · ".join(factors), gens)


#: An order with more digits than this is kept as its words only (computing it would cost seconds at 10⁶ positions).
MAX_ORDER_DIGITS = 4000


def fixed_order(b: int, c: int, k: int) -> Optional[int]:
    """((b − c)! c!)^k k!, or None when it has more than MAX_ORDER_DIGITS digits (bounded by lgamma first)."""
    log10 = (k * (math.lgamma(b - c + 1) + math.lgamma(c + 1)) + math.lgamma(k + 1)) / math.log(10)
    if log10 > MAX_ORDER_DIGITS:
        return None
    return (math.factorial(b - c) * math.factorial(c)) ** k * math.factorial(k)


def _cycle(n: int, part: Sequence[int]) -> list[int]:
    p = list(range(1, n + 1))
    for x, y in zip(part, list(part[1:]) + list(part[:1])):
        p[x - 1] = y
    return p


def decide(alt: Alternation) -> AltDecision:
    """Theorems F133 and F134 at this n."""
    n = alt.n
    covered: tuple[int, ...]
    if alt.family == STRIDED:
        group = reflection_group(n)
        if alt.local_first:  # In_1(1) = [1, w + 1] misses n
            depth, missing, layers, covered = 2, (1, n), 3, (1,)
        else:  # In_1(1) is the class of 1, which misses 2
            depth, missing, layers, covered = 2, (1, 2), 4, (1, 2)
        wit = strided_witness(alt)
        return AltDecision(depth, missing, layers, wit is not None, wit, covered, group)
    b, c = alt.p, alt.q
    group = fixed_group(n, b, c)
    if alt.local_first:  # In_1(1) = [1, b] misses n
        return AltDecision(2, (1, n), 2, True, None, (), group)
    # In_2(1) = [1, b] ∪ summaries misses b + 1 (not a summary: (−(b + 1)) mod b = b − 1 ≥ c)
    return AltDecision(3, (1, b + 1), 3, True, None, (), group)


# ---------------------------------------------------------------------------------------------
# Re-checks on implicit neighbourhoods (the definitions, no closed form)


def neighbourhood(alt: Alternation, kind: str, v: int) -> frozenset:
    """N(v) of one layer's head, built from its definition (docs/language.md)."""
    n = alt.n
    if kind == "window":
        return frozenset(range(max(1, v - alt.p), min(n, v + alt.p) + 1))
    if kind == "strided":
        return frozenset(range((v - 1) % alt.q + 1, n + 1, alt.q))
    if kind == "blocks":
        start = (v - 1) // alt.p * alt.p + 1
        return frozenset(range(start, min(n, start + alt.p - 1) + 1))
    if kind == "columns":
        return summaries(n, alt.p, alt.q) | {v}
    raise ValueError(kind)


@functools.lru_cache(maxsize=8)
def summaries(n: int, b: int, c: int) -> frozenset:
    """The summary positions of columns(b, c): the last c of every block of b."""
    return frozenset(j for j in range(1, n + 1) if (-j) % b < c)


def _grown(alt: Alternation, cur: set, kind: str) -> set:
    """∪_{v ∈ cur} N(v) for one layer's pattern (a class or block shared by several v is added once)."""
    if kind == "columns":
        return set(cur) | summaries(alt.n, alt.p, alt.q)
    out = set(cur)
    seen: set = set()
    for v in cur:
        key = v if kind == "window" else (v - 1) % alt.q if kind == "strided" else (v - 1) // alt.p
        if key not in seen:  # one class or block is added once
            seen.add(key)
            out |= neighbourhood(alt, kind, v)
    return out


def views(alt: Alternation, position: int, depth: int) -> list[set]:
    """[V_0, …, V_depth] of §21.3 for ``position``."""
    sets: list[set] = [set() for _ in range(depth + 1)]
    sets[depth] = {position}
    for ell in range(depth, 0, -1):
        sets[ell - 1] = _grown(alt, sets[ell], alt.kind_at(ell))
    return sets


def witness_holds(alt: Alternation, perm: Sequence[int], position: int, depth: int) -> bool:
    """σ(N_ℓ(v)) = N_ℓ(σ v) for every ℓ ≤ depth and v ∈ V_ℓ (§21.3), on implicit neighbourhoods; a set shared by
    several v (a class, a block) is mapped once."""
    n = alt.n
    if len(perm) != n or sorted(perm) != list(range(1, n + 1)):
        return False
    sets = views(alt, position, depth)
    for ell in range(1, depth + 1):
        kind = alt.kind_at(ell)
        images: dict = {}  # per class or block: its image under σ, and the set itself
        for v in sets[ell]:
            if kind in ("strided", "blocks"):
                image = _shared(alt, kind, v, perm, images)[0]
                target = _shared(alt, kind, perm[v - 1], perm, images)[1]
            else:
                image = frozenset(perm[u - 1] for u in neighbourhood(alt, kind, v))
                target = neighbourhood(alt, kind, perm[v - 1])
            if image != target:
                return False
    return True


def _shared(alt: Alternation, kind: str, v: int, perm: Sequence[int], memo: dict) -> tuple[frozenset, frozenset]:
    """(σ(N(v)), N(v)) for a pattern whose N(v) is v's class or block, computed once per class or block."""
    key = (v - 1) % alt.q if kind == "strided" else (v - 1) // alt.p
    if key not in memo:
        nv = neighbourhood(alt, kind, v)
        memo[key] = (frozenset(perm[u - 1] for u in nv), nv)
    return memo[key]


def reach(alt: Alternation, position: int, layers: int) -> set:
    """In_layers(position) by the recurrence of §21.1 on implicit neighbourhoods (paths through increasing layers):
    the last layer is applied first."""
    cur = {position}
    for ell in range(layers, 0, -1):
        cur = _grown(alt, cur, alt.kind_at(ell))
    return cur
