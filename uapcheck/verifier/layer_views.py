"""Per-layer patterns for the verifier (docs/theory.md §21): the layers' arcs rebuilt from the re-parsed
heads, receptive sets through increasing layers, the view condition by its definition, and the
rooted views per layer decided with nauty (pynauty), not the engines' BLISS.

Φ = (N_1, N_2, …): attention layer ℓ of head h uses its sequence's ℓ-th pattern (a periodic
sequence repeats; a plain pattern is used in every layer); N_{ℓ,h}(v) holds v itself.

    reach     In_0(i) = {i},  In_ℓ(i) = ∪_{u ∈ N_ℓ(i)} In_{ℓ−1}(u)   (§21.1; sets as bit masks)
    views     V_m = {i},  V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v)                 (§21.3)
    witness   σ ∉ G with σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v) for ℓ ≤ m, v ∈ V_ℓ, every head h
    rooted    R_i^m: the arcs u → v of layer ℓ with v ∈ V_ℓ, labelled by the set of (ℓ, h) holding
              them; v coloured by the largest ℓ with v ∈ V_ℓ. A witness at depth m exists iff for
              some G-orbit representative i, |Aut(R_i^m)| > |Stab_G(i)|, or R_i^m ≅ R_j^m for two
              representatives i ≠ j (§21.4).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Optional, Sequence

from .. import spec as S
from . import nauty_graph, patterns
from .layer_table import layer_table
from .views import NoNauty, first_view_witness

#: Per-layer patterns are rebuilt as sets of arcs up to this n (a complete layer holds n(n − 1) arcs: about 4.2
#: million at 2,048, as many as the engine holds, rules/layers.fit_sequence); above it the steps are trusted.
MAX_N = 2048
MAX_PERIOD = 256


class NotLayered(Exception):
    """The input has no per-layer patterns this module rebuilds (the message says why)."""


@dataclass
class Layers:
    n: int
    rows: list  # rows[q][h]: the arcs (j, i) of head h in the layers ℓ ≡ q + 1 (mod period)
    periodic: bool
    limit: Optional[int]  # the number of attention layers (a finite sequence, a budget), None: any
    #: what the steps of one certificate read again and again, computed once: each row's union in-neighbourhoods
    #: and the reach vectors (keyed by what they depend on). `with_limit` shares it; `dataclasses.replace` does not.
    memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def with_limit(self, limit: Optional[int]) -> "Layers":
        """The same layers with another number of attention layers (the rows, and so the memo, unchanged)."""
        out = Layers(self.n, self.rows, self.periodic, limit)
        out.memo = self.memo
        return out

    @property
    def period(self) -> int:
        return len(self.rows)

    def at(self, layer: int) -> list:
        return self.rows[(layer - 1) % self.period]

    def group_layers(self) -> list:
        """The layers whose heads G must preserve: one period, cut by the depth."""
        count = self.period if self.limit is None else min(self.period, self.limit)
        return self.rows[:count]

    def labels(self) -> dict:
        """(j, i) -> the sorted tuple of (layer index, head) holding the arc."""
        return layer_labels(self, range(1, len(self.group_layers()) + 1))

    def ins(self, layer: int) -> list:
        """Per head, the in-neighbourhoods N_{ℓ,h}(v) (v included) of layer ℓ, v = 0..n."""
        out = []
        for arcs in self.at(layer):
            nb = [{v} for v in range(self.n + 1)]
            for j, i in arcs:
                nb[i].add(j)
            out.append([frozenset(s) for s in nb])
        return out


def build(spec: S.Spec) -> Layers:
    n = spec.tokens
    if isinstance(n, bool) or not isinstance(n, int):
        raise NotLayered("per-layer patterns are re-checked at an integer n only")
    if n > MAX_N:
        raise NotLayered(f"n = {n} is above the verifier's per-layer limit {MAX_N}")
    table = layer_table(spec, NotLayered, MAX_PERIOD)
    cache: dict = {}
    rows = []
    for row in table.rows:
        for p in row:
            if p not in cache:
                cache[p] = patterns.head_arcs(p, n)
        rows.append([cache[p] for p in row])
    return Layers(n, rows, table.periodic, table.limit)


def _union_ins(L: Layers, layer: int) -> list:
    """Per position v = 0..n, the positions j ≠ v some head of layer ℓ reads at v (each once), as a list; computed
    once per row of the period."""
    key = ("ins", (layer - 1) % L.period)
    if key not in L.memo:
        heads = L.at(layer)
        arcs = heads[0] if len(heads) == 1 else frozenset().union(*heads)
        nb: list = [[] for _ in range(L.n + 1)]
        for j, i in arcs:
            nb[i].append(j)
        L.memo[key] = nb
    return L.memo[key]


def _step(L: Layers, layer: int, cur: list) -> list:
    """In_ℓ from In_{ℓ−1}: position i's set joined with those of the positions layer ℓ reads at i. Where the positions
    read form long intervals (a causal layer's prefixes, windows), each interval [a, b] is joined in two reads off a
    doubling table (D_k[u] = the join over u, …, u + 2^k − 1); else position by position."""
    nb = _union_ins(L, layer)
    levels = _interval_levels(L, layer)
    new = cur[:]
    if levels is None:
        for i in range(1, L.n + 1):
            new[i] = reduce(or_, map(cur.__getitem__, nb[i]), cur[i])
        return new
    table = cur
    for k, reads in enumerate(levels):
        if k:
            table = [x | y for x, y in zip(table, table[1 << (k - 1):])]
        for i, a, b in reads:
            new[i] |= table[a] | table[b]
    return new


def _interval_levels(L: Layers, layer: int) -> Optional[list]:
    """Per level k, the reads (i, a, b − 2^k + 1) of the maximal intervals [a, b] of 2^k to 2^{k+1} − 1 positions that
    layer ℓ reads at i; None when the table would cost more than reading position by position. Once per row."""
    key = ("intervals", (layer - 1) % L.period)
    if key not in L.memo:
        nb = _union_ins(L, layer)
        levels: list = []
        for i in range(1, L.n + 1):
            for a, b in _maximal_intervals(nb[i]):
                k = (b - a + 1).bit_length() - 1
                while len(levels) <= k:
                    levels.append([])
                levels[k].append((i, a, b - (1 << k) + 1))
        reads = sum(len(r) for r in levels)
        entries = sum(len(x) for x in nb)
        L.memo[key] = levels if 2 * reads + (len(levels) - 1) * (L.n + 1) < entries else None
    return L.memo[key]


def _maximal_intervals(positions: Sequence[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for v in sorted(positions):
        if out and out[-1][1] == v - 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def reach(L: Layers, depth: int) -> list[int]:
    """In_depth(i) as a bit mask (bit v for position v), i = 0..n (entry 0 unused)."""
    return reach_from(L, 0, depth)


def reach_from(L: Layers, start: int, count: int) -> list[int]:
    """In(i) as bit masks (bit v for position v, i = 0..n, entry 0 unused) through layers start + 1, …, start + count
    only (paths through increasing layers of that stretch)."""
    key = ("reach", start % L.period, count)
    if key not in L.memo:
        cur = [1 << v for v in range(L.n + 1)]
        for layer in range(start + 1, start + count + 1):
            cur = _step(L, layer, cur)
        L.memo[key] = cur
    return L.memo[key][:]


def layer_labels(L: Layers, layers: Sequence[int]) -> dict:
    """(j, i) -> the sorted tuple of (layer index, head) holding the arc, over the given layers (1-based) only."""
    lab: dict = {}
    for q in sorted({(ell - 1) % L.period for ell in layers}):
        for h, arcs in enumerate(L.rows[q]):
            for arc in arcs:
                lab.setdefault(arc, []).append((q, h))
    return {k: tuple(v) for k, v in lab.items()}


def reach_limit(L: Layers, i: int) -> tuple[int, Optional[int]]:
    """(the positions whose token ever reaches i, within the depth; the depth used). For a periodic Φ
    the set stops growing once it is unchanged through one whole period (§21.1)."""
    key = ("reach limit", L.limit)
    if key not in L.memo:
        L.memo[key] = _reach_limit_all(L)
    got, used = L.memo[key]
    return got[i], used


def _reach_limit_all(L: Layers) -> tuple[list[int], Optional[int]]:
    """reach_limit for every position at once (the depth where it stops does not depend on the position)."""
    full = sum(1 << v for v in range(1, L.n + 1))
    cur = [1 << v for v in range(L.n + 1)]
    layer, quiet = 0, 0
    while True:
        if L.limit is not None and layer >= L.limit:
            return cur, layer
        if L.limit is None and quiet >= L.period:
            return cur, None
        layer += 1
        new = _step(L, layer, cur)
        quiet = quiet + 1 if new == cur else 0
        cur = new
        if all(c == full for c in cur[1:]) and L.limit is None:
            return cur, layer


def view_sets(L: Layers, i: int, depth: int) -> list[set]:
    """V_0 ⊇ V_1 ⊇ … ⊇ V_depth = {i}."""
    V: list = [set() for _ in range(depth + 1)]
    V[depth] = {i}
    for layer in range(depth, 0, -1):
        nb = _union_ins(L, layer)
        V[layer - 1] = set(V[layer]).union(*(nb[v] for v in V[layer]))
    return V


def witness_holds(L: Layers, perm: Sequence[int], i: int, depth: int) -> Optional[str]:
    """None when σ satisfies the view condition at i for depth `depth`, else the first failure."""
    V = view_sets(L, i, depth)
    for layer in range(1, depth + 1):
        for h, nb in enumerate(L.ins(layer)):
            for v in V[layer]:
                if frozenset(perm[u - 1] for u in nb[v]) != nb[perm[v - 1]]:
                    return f"layer {layer}, head {h + 1}: σ(N({v})) ≠ N(σ({v}))"
    return None


def _rooted_view(L: Layers, i: int, depth: int):
    """i's rooted view at this depth for nauty: the arcs of layer ℓ into V_ℓ labelled by the (layer, head)
    pairs containing them, positions coloured by the last layer whose view set holds them."""
    n = L.n
    V = view_sets(L, i, depth)
    colour = [-1] * (n + 1)
    for layer in range(depth + 1):
        for v in V[layer]:
            colour[v] = layer
    labels: dict = {}
    for layer in range(1, depth + 1):
        for h, arcs in enumerate(L.at(layer)):
            for u, v in arcs:
                if v in V[layer]:
                    labels.setdefault((u, v), []).append((layer, h))
    cells: list = [set() for _ in range(depth + 2)]
    for v in range(1, n + 1):
        cells[colour[v] + 1].add(v)
    return nauty_graph.build(n, {arc: tuple(hs) for arc, hs in labels.items()}, cells)


def no_witness(L: Layers, depth: int, gens: Sequence[Sequence[int]]) -> Optional[str]:
    """None when no view witness exists at depth `depth` (the generators must generate G and preserve
    every layer's heads), else the reason (§21.4's theorem, decided with nauty)."""
    try:
        import pynauty  # noqa: F401 - only whether it is there: first_view_witness uses it
    except ImportError:
        raise NoNauty("pynauty is not installed (pip install pynauty)") from None
    return first_view_witness(L.n, gens, lambda i: _rooted_view(L, i, depth),
                              "|Aut(R_{i})| = {aut} is not |Stab_G({i})| = {stab}: an automorphism of {i}'s rooted "
                              "view at this depth lies outside G, a view witness")


# ---------------------------------------------------------------------------------------------
# Causal targets (docs/theory.md §21.5)


def forward_arc(L: Layers) -> Optional[tuple[int, int, int]]:
    """(layer, j, i) of an arc j → i with j > i in some layer's head, or None (every layer causal-class). Only the
    layers the network has: a budget `layers M` below the period cuts the later ones off (docs/theory.md §21)."""
    for q, row in enumerate(L.group_layers()):
        for arcs in row:
            for j, i in arcs:
                if j > i:
                    return (q + 1, j, i)
    return None


def prefix_reached(L: Layers, depth: int) -> Optional[tuple[int, int]]:
    """None when In_depth(i) = {1, …, i} for every i; else (i, j) with j ≤ i missing (the first)."""
    got = reach(L, depth)
    for i in range(1, L.n + 1):
        want = sum(1 << v for v in range(1, i + 1))
        gap = want & ~got[i]
        if gap:
            return (i, (gap & -gap).bit_length() - 1)
    return None


def causal_witness(L: Layers, perm: Sequence[int], i: int, depth: int) -> Optional[str]:
    """None when σ is a causal view witness at i and this depth (the view condition, and σ moves some position
    of {1, …, i}); else why not."""
    if all(perm[k - 1] == k for k in range(1, i + 1)):
        return f"σ fixes every position of {{1, …, {i}}}"
    return witness_holds(L, perm, i, depth)


def _prefix_view(L: Layers, i: int, depth: int):
    """i's rooted view on V_0 for nauty, its positions renumbered 1..|V_0| in increasing order: the arcs of layer ℓ
    into V_ℓ labelled by the (layer, head) pairs holding them, positions coloured by the last layer whose view set
    holds them."""
    V = view_sets(L, i, depth)
    positions = sorted(V[0])
    index = {v: k + 1 for k, v in enumerate(positions)}
    colour = {v: max(layer for layer in range(depth + 1) if v in V[layer]) for v in positions}
    labels: dict = {}
    for layer in range(1, depth + 1):
        for h, arcs in enumerate(L.at(layer)):
            for u, v in arcs:
                if v in V[layer]:
                    labels.setdefault((index[u], index[v]), []).append((layer, h))
    cells: list = [set() for _ in range(depth + 1)]
    for v in positions:
        cells[colour[v]].add(index[v])
    return nauty_graph.build(len(positions), {arc: tuple(hs) for arc, hs in labels.items()}, cells)


def no_causal_witness(L: Layers, depth: int) -> Optional[str]:
    """None when no causal view witness exists at this depth (every position's view on its prefix has only the
    identity as automorphism, and no two are isomorphic: decided with nauty), else the reason."""
    try:
        import pynauty
    except ImportError:
        raise NoNauty("pynauty is not installed (pip install pynauty)") from None
    forms: dict = {}
    for i in range(1, L.n + 1):
        try:
            g, signature = _prefix_view(L, i, depth)
        except nauty_graph.TooLarge as exc:
            raise NoNauty(f"{i}'s rooted view: {exc}") from None
        _, size1, size2, _, _ = pynauty.autgrp(g)
        if size1 != 1 or size2 != 0:
            return f"{i}'s rooted view on its prefix has an automorphism other than the identity: a causal view witness"
        cert = pynauty.certificate(g)
        key = (g.number_of_vertices, signature, cert)
        if key in forms:
            return f"the rooted views of {forms[key]} and {i} are isomorphic: a causal view witness"
        forms[key] = i
    return None
