"""Per-layer causal patterns and causal targets: prefix reach and the least m (docs/theory.md §21.5).

Every layer's heads are causal-class (each arc j → i has j ≤ i), so every model's output at i reads x_1, …, x_i
only. Conventions as in ``layers.py`` (1-based positions in every public value).

**Prefix reach.** Φ *reaches the prefixes within m layers* when In_m(i) = {1, …, i} for every i; D_c is the
least such m.

**Causal view witness.** With V_ℓ as in §21.3 at depth m ≥ D_c (so V_0 = {1, …, i}), a pair (i, σ) meeting
§21.3's condition (σ(N_{ℓ,h}(v)) = N_{ℓ,h}(σ v) for every ℓ ≤ m, v ∈ V_ℓ, head h) with σ not the identity on
{1, …, i}. The decision: rooted views restricted to V_0 (the arcs of layer ℓ into V_ℓ, labelled by the set of
(ℓ, head) holding them, positions coloured by the largest ℓ with v ∈ V_ℓ); a witness exists iff some R_i^m has an
automorphism other than the identity, or two of them are isomorphic (R_i^m ≅ R_j^m needs |V_0| equal, so i = j
there: isomorphic views of two positions are a witness with σ(i) = j ≠ i).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..bignum import count_automorphisms
from .layers import (LayerSequence, _InLists, canonical_digest, subdivided, view_sets, views_fit,
                     witness_condition_holds)
from .layers_runs import reach_step
from .. import bliss

#: Above this many arcs summed over the rooted views of the depths tried, the decision reports undecided.
MAX_CAUSAL_VIEW_WORK = 20_000_000


def causal_class(seq: LayerSequence) -> Optional[tuple[int, int, int]]:
    """None when every arc j → i of every layer and head has j ≤ i; else (layer, j, i) of a forward arc."""
    for q, layer in enumerate(seq.layers):
        for g in layer:
            if g.complete and seq.n > 1:
                return (q + 1, seq.n, 1)
            for j, i in g.arcs():
                if j > i:
                    return (q + 1, j, i)
    return None


def prefix_masks(n: int) -> list[int]:
    return [(1 << (v + 1)) - 1 for v in range(n)]


@dataclass(frozen=True)
class PrefixReach:
    """``depth``: D_c, the least m with In_m(i) = {1, …, i} for every i (None: not within ``limit``, or never).
    ``missing``: a pair (i, j), j < i, with x_j not reaching i within depth − 1 layers (depth ≥ 2), or at the limit
    (depth None)."""
    depth: Optional[int]
    missing: Optional[tuple[int, int]]


def prefix_reach(seq: LayerSequence, limit: Optional[int], lists: Optional[_InLists] = None) -> PrefixReach:
    """D_c within ``limit`` layers (None: a periodic Φ, searched until the reach stops growing for a period)."""
    lists = lists or _InLists(seq)
    n, p = seq.n, seq.period
    want = prefix_masks(n)
    cur = [1 << v for v in range(n)]
    prev_missing = _first_short(cur, want)
    if prev_missing is None:
        return PrefixReach(0, None)
    m, quiet = 0, 0
    while limit is None or m < limit:
        nxt = reach_step(cur, lists.plan(m % p))
        m += 1
        quiet = quiet + 1 if nxt == cur else 0
        cur = nxt
        short = _first_short(cur, want)
        if short is None:
            return PrefixReach(m, prev_missing)
        prev_missing = short
        if limit is None and quiet >= p:
            break
    return PrefixReach(None, prev_missing)


def _first_short(cur: list[int], want: list[int]) -> Optional[tuple[int, int]]:
    """(i, j) 1-based: the first position i whose reach misses some j ≤ i (the least such j)."""
    for v, (got, full) in enumerate(zip(cur, want)):
        gap = full & ~got
        if gap:
            return (v + 1, (gap & -gap).bit_length())
    return None


def causal_witness_holds(seq: LayerSequence, perm: Sequence[int], position: int, m: int,
                         lists: Optional[_InLists] = None) -> bool:
    """§21.3's condition at ``position`` and depth m, with σ not the identity on {1, …, position}."""
    if all(perm[k] == k + 1 for k in range(position)):
        return False
    return witness_condition_holds(seq, perm, position, m, lists)


@dataclass(frozen=True)
class CausalWitness:
    position: int
    depth: int
    permutation: tuple[int, ...]
    how: str


@dataclass(frozen=True)
class CausalViewCertificate:
    """No causal witness at ``depth``: every rooted view R_i (restricted to V_0) has one automorphism, and the
    canonical digests are pairwise distinct (BLISS)."""
    depth: int
    automorphism_orders: tuple[int, ...]
    canonical_digests: tuple[str, ...]

    def as_evidence(self) -> dict:
        return {"depth": self.depth, "rooted views": len(self.canonical_digests),
                "every |Aut(rooted view)|": 1 if set(self.automorphism_orders) == {1} else
                sorted(set(self.automorphism_orders))}


@dataclass(frozen=True)
class CausalDecision:
    sufficient: Optional[bool]
    witness: Optional[CausalWitness] = None
    certificate: Optional[CausalViewCertificate] = None
    reason: str = ""


class _PrefixView:
    """R_i^m on V_0 (positions relabelled 0..|V_0| − 1 in increasing order): colours by the largest ℓ with
    v ∈ V_ℓ, every arc subdivided by a vertex coloured by its label set {(ℓ, h)} (ids shared across roots)."""

    def __init__(self, lists: _InLists, seq: LayerSequence, root0: int, m: int, label_ids: dict):
        sets = view_sets(lists, seq, root0, m)
        self.positions = sorted(sets[0])
        index = {v: k for k, v in enumerate(self.positions)}
        size = len(self.positions)
        colours = [0] * size
        for ell in range(m + 1):
            for v in sets[ell]:
                colours[index[v]] = ell
        width = max(len(heads) for heads in lists.heads)
        labels: dict[tuple[int, int], int] = {}
        for ell in range(1, m + 1):
            heads = lists.heads[(ell - 1) % seq.period]
            for v in sets[ell]:
                for h, ins in enumerate(heads):
                    bit = 1 << (ell * width + h)
                    for u in ins[v]:
                        key = (index[u], index[v])
                        labels[key] = labels.get(key, 0) | bit
        self.size = size
        self.graph = subdivided(size, [(arc, labels[arc]) for arc in sorted(labels)], label_ids, m + 1, colours)
        self.colours = colours

    def automorphism_order(self) -> int:
        return count_automorphisms(self.graph, color=self.colours)

    def moved_generator(self) -> Optional[list[int]]:
        """An automorphism moving some position, as 0-based images of the view's positions; None if none."""
        for g in bliss.generators(self.graph, self.colours):
            if any(g[k] != k for k in range(self.size)):
                return list(g[:self.size])
        return None

    def canonical(self) -> tuple[list[int], str]:
        return canonical_digest(self.graph, self.colours)


def _full_permutation(n: int, mapping: dict[int, int]) -> tuple[int, ...]:
    """A permutation of 1..n (1-based images) extending the 0-based partial bijection `mapping`."""
    image = dict(mapping)
    free_src = [v for v in range(n) if v not in image]
    free_dst = sorted(set(range(n)) - set(image.values()))
    image.update(zip(free_src, free_dst))
    return tuple(image[v] + 1 for v in range(n))


def decide_causal_depth(seq: LayerSequence, m: int, lists: Optional[_InLists] = None) -> CausalDecision:
    """Is there a causal view witness at depth m (Φ reaching the prefixes within m layers)? Exact."""
    lists = lists or _InLists(seq)
    n = seq.n
    label_ids: dict = {}
    auts: list[int] = []
    digests: list[str] = []
    seen: dict[str, tuple[int, list[int], list[int]]] = {}
    for r in range(n):
        view = _PrefixView(lists, seq, r, m, label_ids)
        aut = view.automorphism_order()
        if aut != 1:
            gen = view.moved_generator()
            if gen is None:
                raise AssertionError("internal error: a rooted view with automorphisms but no moving generator")
            perm = _full_permutation(n, {view.positions[k]: view.positions[g] for k, g in enumerate(gen)})
            if not causal_witness_holds(seq, perm, r + 1, m, lists):
                raise AssertionError("internal error: a rooted-view automorphism failed its re-check")
            return CausalDecision(False, CausalWitness(r + 1, m, perm, "an automorphism of the rooted view that "
                                                                         "moves a position of the prefix"))
        lab, digest = view.canonical()
        if digest in seen:
            other, lab_j, pos_j = seen[digest]
            inv_j = {k: v for v, k in enumerate(lab_j)}
            mapping = {view.positions[k]: pos_j[inv_j[lab[k]]] for k in range(view.size)}
            perm = _full_permutation(n, mapping)
            if causal_witness_holds(seq, perm, r + 1, m, lists):
                return CausalDecision(False, CausalWitness(r + 1, m, perm, f"the rooted views of positions "
                                                                          f"{other + 1} and {r + 1} are isomorphic"))
            return CausalDecision(None, reason="two canonical digests coincided without an isomorphism")
        seen[digest] = (r, lab, view.positions)
        auts.append(aut)
        digests.append(digest)
    return CausalDecision(True, certificate=CausalViewCertificate(m, tuple(auts), tuple(digests)))


@dataclass(frozen=True)
class CausalLeast:
    """``layers``: the least m ≥ D_c without a causal witness (None: none up to ``top``, or undecided:
    ``reason``); ``witness``: one at depth layers − 1 (when layers > D_c) or at ``top``."""
    layers: Optional[int]
    witness: Optional[CausalWitness]
    certificate: Optional[CausalViewCertificate]
    top: int
    reason: str = ""


def causal_least_layers(seq: LayerSequence, depth: int, top: int) -> CausalLeast:
    """The least m in depth..top without a causal view witness (witnesses are monotone in m, §21.5)."""
    lists = _InLists(seq)
    arcs = sum(len(s) for q in lists.heads for h in q for s in h)
    work = arcs * (top // seq.period + 1) * seq.n * (top - depth + 1)
    if work > MAX_CAUSAL_VIEW_WORK:
        return CausalLeast(None, None, None, top, f"the view decision would take about {work:,} arc visits "
                                                  f"(limit {MAX_CAUSAL_VIEW_WORK:,}; "
                                                  f"{views_fit(seq.n, work, MAX_CAUSAL_VIEW_WORK)})")
    last = None
    for m in range(depth, top + 1):
        decision = decide_causal_depth(seq, m, lists)
        if decision.sufficient:
            return CausalLeast(m, last, decision.certificate, top)
        if decision.sufficient is None:
            return CausalLeast(None, last, None, top, decision.reason)
        last = decision.witness
    return CausalLeast(None, last, None, top)
