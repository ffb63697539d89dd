"""Certificates of the per-layer pattern rules (SEQ-*) and the convolution mixer rules (CONV-*).

Each `check()` re-derives what its rule concludes from plain data: the reach recurrence of
docs/theory.md §21.1 recomputed in plain Python, a witness checked by its definition arc by arc,
generators checked head by head and layer by layer. What rests on BLISS (that no larger group
exists, and the canonical forms behind "no view witness") is named in the JSON under `trusted`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Union

from .proof import Certificate, CertificateRejected


def _reject(cls, why: str):
    raise CertificateRejected(f"{cls.__name__}: {why}")


@dataclass(frozen=True)
class _DepthAndPair(Certificate):
    """A depth reached, and the pair (i, j) whose x_j does not reach i within depth − 1 layers (`missing`)."""
    seq: Any  # graphs.layers.LayerSequence
    depth: int
    missing: Optional[tuple]

    def _check_pair(self, reaches, fewer: str) -> None:
        """`reaches(i, j, m)`: x_j reaches i within m layers; `fewer` says what fewer layers do not do."""
        if self.depth >= 1:
            if self.missing is None:
                raise CertificateRejected(f"{type(self).__name__}: no pair shows that fewer layers do not {fewer}")
            i, j = self.missing
            if reaches(i, j, self.depth - 1):
                _reject(type(self), f"x_{j} reaches {i} within {self.depth - 1} layers")

    def to_json(self) -> Any:
        out: dict = {"kind": self.kind, "n": self.seq.n, "depth": self.depth}
        if self.missing:
            out["not within depth − 1"] = {"i": self.missing[0], "j": self.missing[1]}
        return out


@dataclass(frozen=True)
class LayersConnected(_DepthAndPair):
    """Φ is connected within `depth` layers, and x_j does not reach i within depth − 1 (`missing`)."""
    kind = "layers-connected"

    def check(self) -> None:
        from .graphs.layers import verify_connected, verify_unreached
        if not verify_connected(self.seq, self.depth):
            _reject(LayersConnected, f"some x_j does not reach some position within {self.depth} layers")
        self._check_pair(lambda i, j, m: not verify_unreached(self.seq, i, j, m), "connect")


@dataclass(frozen=True)
class LayersUnreached(Certificate):
    """x_j never reaches i: within `layers` layers (a finite sequence or a budget), or at any depth
    (`closed`: the positions reaching i, closed under the in-arcs of every layer's heads)."""
    seq: Any
    i: int
    j: int
    layers: Optional[int]
    closed: Optional[frozenset] = None
    kind = "layers-receptive-field"

    def check(self) -> None:
        from .graphs.layers import verify_closed, verify_unreached
        if self.layers is None:
            if self.closed is None or not verify_closed(self.seq, self.i, self.j, self.closed):
                _reject(LayersUnreached, "the set is not closed under the layers' in-arcs")
        elif not verify_unreached(self.seq, self.i, self.j, self.layers):
            _reject(LayersUnreached, f"x_{self.j} reaches {self.i} within {self.layers} layers")

    def to_json(self) -> Any:
        out: dict = {"kind": self.kind, "i": self.i, "j": self.j, "within layers": self.layers}
        if self.closed is not None and self.seq.n <= 4096:
            out["reaches i (closed under every layer)"] = sorted(self.closed)
        return out


def _in_group(seq, perm) -> bool:
    from .graphs import is_automorphism
    return is_automorphism(list(perm), seq.distinct_graphs())


@dataclass(frozen=True)
class LayerViewWitness(Certificate):
    """`depth` layers are not enough: σ is outside G = ⋂ Aut(N_{ℓ,h}) and keeps every in-neighbourhood
    N_{ℓ,h}(v), v ∈ V_ℓ, of position `position` for ℓ ≤ depth (checked by the definition)."""
    seq: Any
    depth: int
    position: int
    permutation: tuple
    kind = "layer-view-witness"

    def check(self) -> None:
        from .graphs.layers import witness_condition_holds
        if _in_group(self.seq, self.permutation):
            _reject(LayerViewWitness, "the permutation preserves every layer's heads: it is in G")
        if not witness_condition_holds(self.seq, self.permutation, self.position, self.depth):
            _reject(LayerViewWitness, "some layer's neighbourhood in the view is not carried over")

    def to_json(self) -> Any:
        return {"kind": self.kind, "depth": self.depth, "position": self.position,
                "permutation": list(self.permutation)}


@dataclass(frozen=True)
class LayerViews(Certificate):
    """No view witness at `depth`: per G-orbit representative, |Aut(R_i)| = |G| / |orbit| and the
    canonical digests pairwise distinct. The check: the generators are in G, the orbits they generate
    are the listed ones, the orders agree, the digests differ; the canonical forms are BLISS's."""
    seq: Any
    depth: int
    generators: tuple
    group_order: int
    data: Any  # graphs.layers.SeqViewCertificate
    kind = "layer-rooted-views"

    def check(self) -> None:
        from .groups import orbits
        d = self.data
        n = self.seq.n
        if d.depth != self.depth or d.group_order != self.group_order:
            _reject(LayerViews, "the data is for another depth or group")
        for g in self.generators:
            if sorted(g) != list(range(1, n + 1)) or not _in_group(self.seq, g):
                _reject(LayerViews, f"the generator {list(g)} is not in G")
        orbit_of = orbits(n, self.generators)
        reps = sorted(set(orbit_of))
        if tuple(r + 1 for r in reps) != d.representatives:
            _reject(LayerViews, "the orbit representatives differ")
        sizes = tuple(orbit_of.count(r) for r in reps)
        if sizes != d.orbit_sizes:
            _reject(LayerViews, "the orbit sizes differ")
        for size, aut in zip(sizes, d.automorphism_orders):
            if aut * size != self.group_order:
                _reject(LayerViews, "a rooted view has more automorphisms than the stabiliser")
        if len(set(d.canonical_digests)) != len(d.canonical_digests):
            _reject(LayerViews, "two rooted views have the same canonical form")

    def to_json(self) -> Any:
        return {"kind": self.kind, "depth": self.depth, **self.data.as_evidence(),
                "trusted": "the canonical forms and automorphism counts (BLISS)"}


@dataclass(frozen=True)
class LayerGroupCovering(Certificate):
    """No view witness at `depth` by the covering lemma (docs/theory.md §21.3): every layer ℓ of `covered` is below
    the depth and seen whole by every position (layers ℓ + 1, …, depth connect every position to every position,
    the reach recurrence recomputed here), and the automorphisms of those layers' heads alone lie in G (each of
    `generators` preserves every layer's heads, arc by arc). That the generators generate the whole automorphism
    group of the covered layers' heads is BLISS's."""
    seq: Any
    depth: int
    covered: tuple
    generators: tuple
    group_order: int
    kind = "layer-group-covering"

    def check(self) -> None:
        from .graphs.layers import reach_sets
        n = self.seq.n
        full = (1 << n) - 1
        if not self.covered:
            _reject(LayerGroupCovering, "no layer is named as seen whole")
        for ell in self.covered:
            if not 1 <= ell < self.depth:
                _reject(LayerGroupCovering, f"layer {ell} is not below the depth {self.depth}")
            if self.seq.depth is not None and self.depth > self.seq.depth:
                _reject(LayerGroupCovering, f"the depth {self.depth} exceeds the sequence's {self.seq.depth} layers")
            if any(s != full for s in reach_sets(self.seq, self.depth - ell, start=ell)):
                _reject(LayerGroupCovering, f"layers {ell + 1}…{self.depth} do not connect every position: layer "
                                            f"{ell} is not seen whole")
        for g in self.generators:
            if sorted(g) != list(range(1, n + 1)) or not _in_group(self.seq, g):
                _reject(LayerGroupCovering, f"the generator {list(g)[:12]} of the covered layers' group is not in G")
        if n <= 256:
            from .schreier_sims import generated_order
            if generated_order(n, self.generators) != self.group_order:
                _reject(LayerGroupCovering, "the generators do not generate a group of the stated order")

    def to_json(self) -> Any:
        return {"kind": self.kind, "depth": self.depth, "layers seen whole": list(self.covered),
                "order": self.group_order,
                "generators": _listed(self.generators, self.seq.n),
                "trusted": "that the generators generate every automorphism of the covered layers' heads (BLISS)"}


@dataclass(frozen=True)
class LayerGenerators(Certificate):
    """Every generator preserves every layer's heads (arc by arc), and the group they generate has
    the stated order (Schreier–Sims, uapcheck/schreier_sims.py, up to 256 points). That no larger group
    exists is BLISS's."""
    seq: Any
    generators: tuple
    order: int
    kind = "layer-automorphism-generators"

    def check(self) -> None:
        n = self.seq.n
        for g in self.generators:
            if sorted(g) != list(range(1, n + 1)) or not _in_group(self.seq, g):
                _reject(LayerGenerators, f"the generator {list(g)} does not preserve every layer's heads")
        if n <= 256:
            from .schreier_sims import generated_order
            if generated_order(n, self.generators) != self.order:
                _reject(LayerGenerators, "the generators do not generate a group of the stated order")

    def to_json(self) -> Any:
        return {"kind": self.kind, "order": self.order,
                "generators": _listed(self.generators, self.seq.n),
                "trusted": "that no larger group preserves every layer's heads (BLISS)"}


#: generators are written out in a certificate while they hold at most this many entries (n per generator)
MAX_LISTED_ENTRIES = 1 << 20


def _listed(generators: tuple, n: int) -> "list | int":
    """The generators as lists (for the independent verifier), or their number when they are too many to write."""
    if n * len(generators) <= MAX_LISTED_ENTRIES:
        return [list(g) for g in generators]
    return len(generators)


# ---------------------------------------------------------------------------------------------
# The circular convolution mixer


@dataclass(frozen=True)
class CirculantSpan(Certificate):
    """For taps K ⊆ Z_n: g = gcd(n, K \\ {0}), and `depth` = the least m with the m-fold sum set of
    K ∪ {0} covering Z_n (recomputed), or None when g > 1 (never covered)."""
    n: int
    taps: tuple
    gcd: int
    depth: Optional[int]
    kind = "circulant-span"

    def check(self) -> None:
        n = self.n
        nonzero = sorted({t % n for t in self.taps} - {0})
        g = math.gcd(n, *nonzero) if nonzero else n
        if g != self.gcd:
            _reject(CirculantSpan, f"gcd(n, taps) is {g}, not {self.gcd}")
        from .graphs.circulant import sumset_depth
        if sumset_depth(n, self.taps) != self.depth:
            _reject(CirculantSpan, "the covering depth differs")

    def to_json(self) -> Any:
        return {"kind": self.kind, "n": self.n, "taps": list(self.taps), "gcd": self.gcd, "depth": self.depth}


@dataclass(frozen=True)
class ZeroTaps(Certificate):
    """Every tap is the integer 0, so for every n the mixer is X ↦ (1 + ψ_0) X: it never moves a token
    (the sum sets stay {0}), and it commutes with every permutation."""
    taps: tuple
    kind = "zero-taps"

    def check(self) -> None:
        if not self.taps or any(not isinstance(t, int) or isinstance(t, bool) or t != 0 for t in self.taps):
            _reject(ZeroTaps, f"the taps {list(self.taps)} are not all the integer 0")

    def to_json(self) -> Any:
        return {"kind": self.kind, "taps": list(self.taps)}


@dataclass(frozen=True)
class ScaledTapInterval(Certificate):
    """Symbolic n: K ∪ {0} = s·[a, b] with s ≥ 2 the gcd of the non-zero taps and b − a ≥ 1, so
    gcd(n, K \\ {0}) = gcd(n, s) depends on n mod s alone: on the classes with gcd(n mod s, s) = 1,
    multiplication by s is an automorphism of Z_n and the m-fold sum set is s·[ma, mb] (D = ⌈(n − 1)/(b − a)⌉,
    G = C_n); on the others every tap and n are multiples of e = gcd(n, s) > 1 (docs/theory.md §22.5)."""
    taps: tuple
    step: int
    kind = "scaled-tap-interval"

    def check(self) -> None:
        from .graphs.circulant import scaled_interval
        if any(not isinstance(t, int) or isinstance(t, bool) for t in self.taps):
            _reject(ScaledTapInterval, "the taps are not integers")
        found = scaled_interval(self.taps)
        if found is None or found[0] != self.step:
            _reject(ScaledTapInterval, f"the taps with 0 are not {self.step} times an interval of width ≥ 1")

    def to_json(self) -> Any:
        return {"kind": self.kind, "taps": list(self.taps), "step": self.step}


@dataclass(frozen=True)
class TapSumsets(Certificate):
    """Symbolic n, any integer taps K (not all 0), Lemma P (docs/theory.md §22.6): with s the gcd of the non-zero
    taps and A = (K ∪ {0})/s − min ⊆ [0, b], the k-fold sum set of A is [0, kb] minus the gaps of ⟨A⟩ and kb minus the
    gaps of ⟨b − A⟩ from k₀ on (a finite check at k₀ and an induction), so for n prime to s the depth is
    D(n) = (n + u*[−n mod b])/b from max(F + 1, max u* + 1, k₀b) on, and down to `start` by the sum-set recurrence."""
    taps: tuple
    step: int
    start: int
    kind = "tap-sumsets"

    def check(self) -> None:
        from .graphs.circulant import tap_sumset_form
        if any(not isinstance(t, int) or isinstance(t, bool) for t in self.taps):
            _reject(TapSumsets, "the taps are not integers")
        form = tap_sumset_form(self.taps)
        if form is None:
            raise CertificateRejected("TapSumsets: no closed form for these taps (every tap 0, or a span above the "
                                      "limit)")
        if form.step != self.step:
            _reject(TapSumsets, f"the gcd of the non-zero taps is {form.step}, not {self.step}")
        if self.start < form.start:
            _reject(TapSumsets, f"the closed form fails at some n below {form.start} (n ≥ {self.start} stated)")

    def to_json(self) -> Any:
        from .graphs.circulant import tap_sumset_form
        form = tap_sumset_form(self.taps)
        out: dict = {"kind": self.kind, "taps": list(self.taps), "step": self.step, "from": self.start}
        if form is not None:
            out.update({"reduced": list(form.reduced), "span": form.span, "gaps": list(form.gaps_low),
                        "mirrored gaps": list(form.gaps_high), "least excess": list(form.least_excess),
                        "k0": form.k0, "proved from": form.proved_from})
        return out


@dataclass(frozen=True)
class TapInterval(Certificate):
    """Symbolic n: K ∪ {0} is the integer interval [a, b] of width w = b − a ≥ 1 (`circular(l)`: taps
    0..l with l declared `integer >= 1`, or an integer l ≥ 1), so K \\ {0} contains ±1 or two consecutive integers
    and generates Z_n for every n, and the m-fold sum set is [ma, mb] (mod n)."""
    taps: tuple  # integer offsets, or () with `span` the name of l or the integer l (the taps 0..l are not listed)
    span: Union[str, int, None] = None
    span_lower: Optional[int] = None
    kind = "tap-interval"

    def check(self) -> None:
        if isinstance(self.span, int):
            if self.span < 1:
                _reject(TapInterval, "the span l must be at least 1")
            return
        if self.span is not None:
            if self.span_lower is None or self.span_lower < 1:
                _reject(TapInterval, "the span l must be declared `integer >= 1`")
            return
        from .graphs.circulant import interval_width
        w = interval_width(self.taps)
        if w is None or w < 1:
            _reject(TapInterval, "the taps with 0 are not an interval of width ≥ 1")

    def to_json(self) -> Any:
        return {"kind": self.kind, "taps": list(self.taps), "span": self.span, "span lower bound": self.span_lower}


# ---------------------------------------------------------------------------------------------
# Per-layer causal patterns and causal targets (docs/theory.md §21.5)


@dataclass(frozen=True)
class LayersPrefixReach(_DepthAndPair):
    """Every arc of every layer goes from a position to itself or a later one, In_depth(i) = {1, …, i} for every i,
    and x_j does not reach i within depth − 1 layers (`missing`, j < i), recomputed from the layers' arcs."""
    kind = "layers-prefix-reach"

    def check(self) -> None:
        from .graphs.layers import reach_sets
        from .graphs.layers_causal import causal_class, prefix_masks
        forward = causal_class(self.seq)
        if forward is not None:
            _reject(LayersPrefixReach, f"layer {forward[0]} has the arc {forward[1]} → {forward[2]} to an earlier "
                                       "position")
        if reach_sets(self.seq, self.depth) != prefix_masks(self.seq.n):
            _reject(LayersPrefixReach, f"some prefix is not reached within {self.depth} layers")
        n = self.seq.n
        self._check_pair(lambda i, j, m: not 1 <= j < i <= n or bool(reach_sets(self.seq, m)[i - 1] >> (j - 1) & 1),
                         "reach the prefixes")


@dataclass(frozen=True)
class CausalLayerWitness(Certificate):
    """`depth` layers are not enough for causal targets: σ keeps every in-neighbourhood N_{ℓ,h}(v), v ∈ V_ℓ, of
    `position` for ℓ ≤ depth and is not the identity on {1, …, position} (checked by the definition)."""
    seq: Any
    depth: int
    position: int
    permutation: tuple
    kind = "layer-causal-witness"

    def check(self) -> None:
        from .graphs.layers_causal import causal_witness_holds
        n = self.seq.n
        if sorted(self.permutation) != list(range(1, n + 1)) or not 1 <= self.position <= n:
            _reject(CausalLayerWitness, "not a permutation of the positions, or not a position")
        if not causal_witness_holds(self.seq, self.permutation, self.position, self.depth):
            _reject(CausalLayerWitness, "σ fixes the prefix, or some layer's neighbourhood in the view is not "
                                        "carried over")

    def to_json(self) -> Any:
        return {"kind": self.kind, "depth": self.depth, "position": self.position,
                "permutation": list(self.permutation)}


@dataclass(frozen=True)
class CausalLayerViews(Certificate):
    """No causal view witness at `depth`: every position's rooted view on its prefix has one automorphism and the
    canonical digests are pairwise distinct (BLISS's, trusted here)."""
    seq: Any
    depth: int
    data: Any  # graphs.layers_causal.CausalViewCertificate
    kind = "layer-causal-views"

    def check(self) -> None:
        d = self.data
        if d.depth != self.depth or len(d.automorphism_orders) != self.seq.n:
            _reject(CausalLayerViews, "the data is for another depth or misses positions")
        if any(a != 1 for a in d.automorphism_orders):
            _reject(CausalLayerViews, "a rooted view has an automorphism other than the identity")
        if len(set(d.canonical_digests)) != len(d.canonical_digests):
            _reject(CausalLayerViews, "two rooted views have the same canonical form")

    def to_json(self) -> Any:
        return {"kind": self.kind, **self.data.as_evidence(),
                "trusted": "the canonical forms and automorphism counts (BLISS)"}


@dataclass(frozen=True)
class CausalIntervalCount(Certificate):
    """Per-layer causal interval heads (docs/theory.md §21.6): every head of every layer attends at v to
    [max(1, v − w), v]; D_c, the least count (Theorem F121) and the witness below it recomputed from the widths."""
    layers_: Any  # graphs.layers_intervals.IntervalLayers
    limit: Optional[int]
    depth: int
    layers: int
    witness: Any  # graphs.layers_intervals.IntervalWitness or None
    kind = "layers-causal-intervals"

    def check(self) -> None:
        from .graphs.layers_intervals import interval_least, interval_reach, witness_holds
        L = self.layers_
        reach = interval_reach(L, self.limit)
        if reach.depth != self.depth:
            _reject(CausalIntervalCount, f"the widths give D_c = {reach.depth}, not {self.depth}")
        least = interval_least(L, self.depth, self.limit)
        if least.layers != self.layers:
            _reject(CausalIntervalCount, f"Theorem F121 gives {least.layers} layers, not {self.layers}")
        if self.layers > self.depth:
            w = self.witness
            if w is None or w.depth != self.layers - 1:
                _reject(CausalIntervalCount, "no witness at the depth below the count")
            if L.n <= 4096 and not witness_holds(L, w.position, w.depth, w.j):
                _reject(CausalIntervalCount, "the transposition fails the view condition")

    def to_json(self) -> Any:
        L = self.layers_
        out: dict = {"kind": self.kind, "n": L.n, "widths": [["∞" if w is None else w for w in row] for row in L.widths],
                     "periodic": L.periodic, "D_c": self.depth, "layers": self.layers}
        if self.witness is not None:
            w = self.witness
            out["witness"] = {"position": w.position, "depth": w.depth, "transposition": [w.j, w.j + 1]}
        return out


#: The param values at which CausalIntervalForm compares its closed forms with Theorem F121 at concrete lengths
#: (offsets from the param's lower bound), and the longest length compared there.
FORM_INSTANCE_OFFSETS = (0, 1, 2, 3, 6)
FORM_INSTANCE_MAX_N = 160


@dataclass(frozen=True)
class CausalIntervalForm(Certificate):
    """Per-layer causal interval heads at a symbolic n (docs/theory.md §21.8, Theorem F123): C layers, least, for
    every n ≥ start, and the pieces below. The check: the form recomputed from the widths; then Theorem F121 (§21.6,
    an independent decision at one concrete n) at lengths of the range (the start, the theorem's bound N₀ and beyond
    it) and at both ends of every piece (the count is nondecreasing in n, §21.8), and the length before the start has
    fewer layers (the range is sharp); with a param width, F121 at every n ≤ FORM_INSTANCE_MAX_N for several values."""
    layers_: Any  # graphs.layers_interval_forms.FormLayers
    form: Any     # graphs.layers_interval_forms.IntervalForm
    tokens: str
    kind = "layers-causal-interval-form"

    def check(self) -> None:
        from .graphs.layers_interval_forms import count_at, interval_form, piece_at
        L, f = self.layers_, self.form
        got = interval_form(L, self.tokens)
        if (got.layers, got.start, got.pieces) != (f.layers, f.start, f.pieces):
            _reject(CausalIntervalForm, f"Theorem F123 gives {got.layers} layers from n ≥ {got.start}, pieces "
                                        f"{got.pieces}, not the ones stated")
        if L.param is None:
            p = len(L.rows)
            for n in sorted({f.start, f.start + 1, f.bound, f.bound + 1, f.bound + 2 * p + 5, 2 * f.bound + 7}):
                if count_at(L, n) != f.layers:
                    _reject(CausalIntervalForm, f"Theorem F121 at n = {n} differs from {f.layers} layers")
            if count_at(L, f.start - 1) == f.layers:
                _reject(CausalIntervalForm, f"the range is not sharp: n = {f.start - 1} has {f.layers} layers too")
            for piece in f.pieces:
                for n in (piece.lower, piece.upper - 1):
                    if count_at(L, n) != piece.layers:
                        _reject(CausalIntervalForm, f"Theorem F121 at n = {n} differs from the piece's {piece.layers}")
            return
        for off in FORM_INSTANCE_OFFSETS:
            w = L.lower + off
            for n in range(1, FORM_INSTANCE_MAX_N + 1):
                if piece_at(f, n, {L.param: w}, self.tokens) != count_at(L, n, w):
                    _reject(CausalIntervalForm, f"at {L.param} = {w}, n = {n} Theorem F121 differs from the form")

    def to_json(self) -> Any:
        from .certfile import _tree
        L, f = self.layers_, self.form

        def out(v):
            return v if isinstance(v, int) else _tree(v)
        return {"kind": self.kind, "widths": [["∞" if w is None else w for w in row] for row in L.rows],
                "periodic": L.periodic, "limit": L.limit, "param": L.param, "layers": f.layers, "least": True,
                "from": out(f.start),
                "pieces": [{"from": out(q.lower), "below": out(q.upper), "layers": out(q.layers)} for q in f.pieces]}


#: CausalGrowingForm re-checks every length of [start, 2u + P) by Theorem F121 when there are at most this many.
GROWING_EXHAUSTIVE = 20_000


@dataclass(frozen=True)
class CausalGrowingForm(Certificate):
    """Per-layer causal interval heads of finite widths at a symbolic n (docs/theory.md §21.10, Theorem F137): the
    least count is D_c(n) = Σ_r ⌈(n − 1 − S_r)/P⌉ for every n ≥ start, and the pieces below. The check: the form
    recomputed from the widths; Theorem F121 (an independent decision at one concrete n) at every length from the
    start through 2u + P (beyond 2u the count is D_c(n), which gains p layers when n gains P, and so does the
    formula), or at the ends and a spread of them past GROWING_EXHAUSTIVE lengths; the length before the start
    differs from the formula (the range is sharp); both ends of every piece."""
    layers_: Any  # graphs.layers_interval_forms.FormLayers
    form: Any     # graphs.layers_interval_forms.GrowingForm
    tokens: str
    kind = "layers-causal-growing-form"

    def check(self) -> None:
        import sympy
        from .graphs.layers_interval_forms import _sym, count_at, growing_form
        L, f = self.layers_, self.form
        got = growing_form(L, self.tokens)
        same = all(sympy.simplify(sympy.sympify(a, strict=True) - sympy.sympify(b, strict=True)) == 0  # safe: strict
                   for a, b in ((got.layers, f.layers), (got.start, f.start), (got.bound, f.bound),
                                (got.total, f.total)))
        if not same or got.pieces != f.pieces or got.period != f.period:
            _reject(CausalGrowingForm, f"Theorem F137 gives {got.layers} layers from n ≥ {got.start}, pieces "
                                       f"{got.pieces}, not the ones stated")
        n_sym = _sym(self.tokens)
        for w in ([None] if L.param is None else [L.lower + off for off in FORM_INSTANCE_OFFSETS]):
            subs = {} if w is None else {_sym(L.param): w}

            def value(x, n: Optional[int] = None, subs: dict = subs) -> int:
                return int(sympy.sympify(x, strict=True).xreplace({**subs, n_sym: n} if n else subs))  # safe: strict
            start, top = value(f.start), max(value(f.bound), value(f.start)) + value(f.total)
            lengths = list(range(start, top + 1))
            if len(lengths) > GROWING_EXHAUSTIVE:
                stride = len(lengths) // GROWING_EXHAUSTIVE + 1
                lengths = sorted({*lengths[::stride], *range(max(start, value(f.bound) - 50), top + 1)})
            for n in lengths:
                if count_at(L, n, w) != value(f.layers, n):
                    _reject(CausalGrowingForm, f"Theorem F121 at n = {n}{'' if w is None else f', w = {w}'} differs "
                                               f"from the formula's {value(f.layers, n)}")
        if f.pieces is None:
            return
        if f.start > 2 and count_at(L, f.start - 1) == int(f.layers.xreplace({n_sym: f.start - 1})):
            _reject(CausalGrowingForm, f"the range is not sharp: n = {f.start - 1} has the formula's count too")
        for piece in f.pieces:
            for n in (piece.lower, piece.upper - 1):
                if count_at(L, n) != piece.layers:
                    _reject(CausalGrowingForm, f"Theorem F121 at n = {n} differs from the piece's {piece.layers}")

    def to_json(self) -> Any:
        from .certfile import _tree
        L, f = self.layers_, self.form

        def out(v):
            return v if isinstance(v, int) else _tree(v)
        return {"kind": self.kind, "widths": [list(row) for row in L.rows], "periodic": True, "limit": None,
                "param": L.param, "layers": _tree(f.layers), "least": True, "from": out(f.start), "growing": True,
                "pieces": [{"from": q.lower, "below": q.upper, "layers": q.layers} for q in f.pieces or ()]}


@dataclass(frozen=True)
class CausalBudgetSplit(Certificate):
    """M layers of finite widths at a symbolic n (docs/theory.md §21.10, Theorem F159): UAP for causal targets at every
    n < N* with the counts of the pieces, NOT-UAP from N* on. The check: N* and the pieces recomputed from the widths;
    Theorem F121 (an independent decision at one concrete n) at every length below N* (the pieces' counts, least) and
    at N* and the next W(0, M] + 2 lengths (no count within M layers: not reached, or a witness at the whole depth)."""
    layers_: Any  # graphs.layers_interval_forms.FormLayers
    split: Any    # graphs.layers_interval_forms.BudgetSplit
    tokens: str
    kind = "layers-causal-budget-split"

    def check(self) -> None:
        from .graphs.layers_interval_forms import budget_split, count_at
        L, f = self.layers_, self.split
        got = budget_split(L)
        if got != f:
            _reject(CausalBudgetSplit, f"Theorem F159 gives NOT-UAP from n = {got.start} with the pieces {got.pieces}, "
                                       "not the ones stated")
        for n in range(1, f.start):
            stated = [q.layers for q in f.pieces if q.lower <= n < q.upper]
            if stated != [count_at(L, n)]:
                _reject(CausalBudgetSplit, f"Theorem F121 at n = {n} differs from the pieces {stated}")
        for n in range(f.start, f.start + f.reach_end + 1):
            try:
                count_at(L, n)
            except ValueError:
                continue
            _reject(CausalBudgetSplit, f"Theorem F121 at n = {n} ≥ N* = {f.start} gives a count within "
                                       f"{f.depth} layers")

    def to_json(self) -> Any:
        f = self.split
        return {"kind": self.kind, "widths": [list(row) for row in self.layers_.rows], "limit": f.depth,
                "from": f.start, "reach end": f.reach_end, "threshold": f.threshold, "first wide layer": f.first_wide,
                "pieces": [{"from": q.lower, "below": q.upper, "layers": q.layers} for q in f.pieces]}


@dataclass(frozen=True)
class CausalSinkGrowth(Certificate):
    """Periodic sink interval heads of finite widths at a symbolic n (docs/theory.md §21.9, Theorem F146): the least
    count is Σ_r ⌈(n − 1 − k* − S_r)/P⌉ for every n ≥ start. The check: the form recomputed from the heads; F145's
    exact decision at every length from the start through N₁ + 2P (a spread past SINK_GROWTH_LENGTHS of them) has
    the formula's count, least (beyond N₁ the theorem carries it)."""
    heads: tuple
    growth: Any   # graphs.layers_sinks.SinkGrowth
    tokens: str
    kind = "layers-causal-sinks-growth"

    def check(self) -> None:
        import sympy
        from .graphs.layers_sinks import SinkLayers, decide, growth_count, sink_growth
        f = self.growth
        got = sink_growth(self.heads, True, None, self.tokens)
        if got is None or (got.start, got.bound, got.first_wide, got.total, got.offsets, got.top_sink) != \
                (f.start, f.bound, f.first_wide, f.total, f.offsets, f.top_sink) or \
                sympy.simplify(got.layers - f.layers) != 0:
            _reject(CausalSinkGrowth, "Theorem F146 gives another form")
        lengths = list(range(f.start, f.bound + 2 * f.total + 1))
        if len(lengths) > SINK_GROWTH_LENGTHS:
            lengths = sorted({*lengths[:SINK_GROWTH_LENGTHS // 2], *lengths[::len(lengths) // 50 + 1], lengths[-1]})
        n_sym = sympy.Symbol(self.tokens, integer=True, positive=True)
        for n in lengths:
            c = decide(SinkLayers(n, self.heads, True, None))
            want = growth_count(f.total, f.offsets, f.top_sink, n)
            if not c.least or c.layers != want or int(f.layers.xreplace({n_sym: n})) != want:
                _reject(CausalSinkGrowth, f"at n = {n} F145 gives {c.layers} layers (least: {c.least}), not {want}")

    def to_json(self) -> Any:
        from .certfile import _tree
        f = self.growth
        return {"kind": self.kind, "heads": [[[w, k] for w, k in row] for row in self.heads], "periodic": True,
                "limit": None, "layers": _tree(f.layers), "least": True, "from": f.start, "growing": True,
                "first wide layer": f.first_wide}


#: CausalSinkGrowth re-decides at most about this many lengths (every one of the first half, then a spread).
SINK_GROWTH_LENGTHS = 300


#: Up to this n CausalSinkCount also re-checks the reach, the covering and the witness on explicit position sets.
SINK_EXPLICIT_N = 200


def _sink_nb(w, k, v: int) -> set:
    """N(v) of a sink interval head, as a set (the definition)."""
    out = set(range(1 if w is None else max(1, v - w), v + 1))
    if v > k:
        out |= set(range(1, k + 1))
    return out


def _sink_views(L, i: int, m: int) -> list:
    """V_0 … V_m of root i by §21.3's recursion on explicit sets."""
    views: list[set] = [set() for _ in range(m + 1)]
    views[m] = {i}
    for ell in range(m, 0, -1):
        views[ell - 1] = set().union(*(_sink_nb(w, k, v) for v in views[ell] for w, k in L.row(ell)))
    return views


@dataclass(frozen=True)
class CausalSinkCount(Certificate):
    """Per-layer causal heads with attention sinks (docs/theory.md §21.9, Theorem F128): D_c, the covering count and,
    when it is claimed least above D_c, a transposition witness one layer below. The check: the decision recomputed;
    the witness by the definition on the implicit neighbourhoods; at n ≤ SINK_EXPLICIT_N the reach, the pair not
    reached, the covering of every root and the witness again on explicit position sets."""
    layers_: Any  # graphs.layers_sinks.SinkLayers
    count: Any    # graphs.layers_sinks.SinkCount
    kind = "layers-causal-sinks"

    def check(self) -> None:
        from .graphs.layers_sinks import decide, transposition_holds
        L, c = self.layers_, self.count
        got = decide(L)
        if (got.depth, got.missing, got.layers, got.least, got.witness, got.keys, got.twin) != \
                (c.depth, c.missing, c.layers, c.least, c.witness, c.keys, c.twin):
            _reject(CausalSinkCount, f"Theorem F128 gives D_c = {got.depth}, {got.layers} layers (least: {got.least}),"
                                     f" not D_c = {c.depth}, {c.layers} (least: {c.least})")
        if c.layers is None or c.depth is None:
            _reject(CausalSinkCount, "no count to certify")
        if c.least and c.layers > max(c.depth, 1):
            if c.twin is None and (c.witness is None or c.witness[1] != c.layers - 1):
                _reject(CausalSinkCount, "a count above D_c claimed least without a witness one layer below")
            if c.twin is not None:
                self._twin()
            else:
                i, m, j = c.witness
                if not transposition_holds(L, i, m, j):
                    _reject(CausalSinkCount, "the transposition fails the view condition")
        if L.n <= SINK_EXPLICIT_N:
            self._explicit()

    def _twin(self) -> None:
        """F145's twins: both in root i's gap at layer ℓ₁ one layer below the count, with equal out-keys."""
        from .graphs.layers_sinks import gap_of, key_layer, out_key
        L, c = self.layers_, self.count
        i, m, x, y = c.twin
        ell = key_layer(L)
        if ell is None or ell != c.keys or c.layers is None or m != c.layers - 1:
            _reject(CausalSinkCount, "the twins are not F145's (no such first layer, or not one layer below)")
            return
        K, a, _ = gap_of(L, ell, m, i)
        if not (K < x < y < a and out_key(L, ell, a, i, x) == out_key(L, ell, a, i, y)):
            _reject(CausalSinkCount, f"positions {x} and {y} are not twins at root {i} (F145)")

    def _explicit(self) -> None:
        L, c = self.layers_, self.count
        n = L.n
        for m, want in ((c.depth, True), (c.depth - 1, False)):
            if m < 0:
                continue
            full = all(_sink_views(L, v, m)[0] == set(range(1, v + 1)) for v in range(1, n + 1)) if m >= 0 else False
            if full != want:
                _reject(CausalSinkCount, f"the explicit reach at depth {m} does not match D_c = {c.depth}")
        if c.depth >= 1 and c.missing is not None:
            v, j = c.missing
            if j in _sink_views(L, v, c.depth - 1)[0] or not 1 <= j < v <= n:
                _reject(CausalSinkCount, f"x_{j} reaches position {v} within D_c − 1 layers")
        for i in range(2, n + 1):
            self._explicit_root(i, c.layers)
        if c.witness is not None or c.twin is not None:
            i, d, j, j2 = c.twin if c.twin is not None else (*c.witness, c.witness[2] + 1)
            views = _sink_views(L, i, d)
            tau = {j: j2, j2: j}
            for ell in range(1, d + 1):
                if {tau.get(x, x) for x in views[ell]} != views[ell]:
                    _reject(CausalSinkCount, "the transposition does not keep a view set")
                for v in views[ell]:
                    for w, k in L.row(ell):
                        if {tau.get(x, x) for x in _sink_nb(w, k, v)} != _sink_nb(w, k, tau.get(v, v)):
                            _reject(CausalSinkCount, f"the transposition breaks layer {ell} at {v} (explicit)")

    def _explicit_root(self, i: int, m: int) -> None:
        """Root i at depth m on explicit sets: F145's gap has no twins, or a layer with a chain head is seen whole."""
        L, c = self.layers_, self.count
        views = _sink_views(L, i, m)
        if c.keys is not None:
            gap = views[0] - views[c.keys]
            keys = [tuple(frozenset(v for v in views[c.keys] if x in _sink_nb(w, k, v)) for w, k in L.row(c.keys))
                    for x in gap]
            if len(set(keys)) != len(keys):
                _reject(CausalSinkCount, f"root {i} has twins at depth {m} (explicit)")
        elif not any(views[ell] == set(range(1, i + 1)) and any(w is None or w >= 1 for w, _ in L.row(ell))
                     for ell in range(1, m + 1)):
            _reject(CausalSinkCount, f"root {i} has no layer with a chain head seen whole at depth {m}")

    def to_json(self) -> Any:
        L, c = self.layers_, self.count
        out: dict = {"kind": self.kind, "n": L.n,
                     "heads": [[["∞" if w is None else w, k] for w, k in row] for row in L.heads],
                     "periodic": L.periodic, "limit": L.limit, "D_c": c.depth, "layers": c.layers, "least": c.least}
        if c.missing is not None:
            out["not within D_c − 1"] = {"i": c.missing[0], "j": c.missing[1]}
        if c.witness is not None:
            out["witness"] = {"position": c.witness[0], "depth": c.witness[1],
                              "transposition": [c.witness[2], c.witness[2] + 1]}
        if c.twin is not None:
            out["witness"] = {"position": c.twin[0], "depth": c.twin[1], "transposition": [c.twin[2], c.twin[3]]}
        if c.keys is not None:
            out["sufficiency"] = {"rule": "out-set keys (F145)", "layer": c.keys}
        return out


@dataclass(frozen=True)
class CausalSinkForm(Certificate):
    """Per-layer causal heads with attention sinks at a symbolic n (docs/theory.md §21.9, Theorem F128 (e)): C = c₁
    layers, least, for every n ≥ start. The check: the form recomputed from the heads; F128's concrete decision
    (reach and covering) gives C, least, at the start, the next length and far beyond it. The start is N₀ of the
    theorem, not claimed sharp: a length below it may have D_c = C already (a sink of a layer before c₁ reaches
    only positions after it: `periodic { causal & window(1) + sinks(3), causal + sinks(3), causal }` has D_c = 2
    from n = 3 and N₀ = 6); those lengths are decided one by one."""
    heads: tuple
    periodic: bool
    limit: Optional[int]
    form: Any  # graphs.layers_sinks.SinkForm
    params: tuple = ()  # (name, lower bound) of each param among the widths and sink counts
    kind = "layers-causal-sinks-form"

    def check(self) -> None:
        from .graphs.layers_sinks import param_sink_form, sink_form
        f = self.form
        if not self.params:
            if sink_form(self.heads, self.periodic, self.limit) != f:
                _reject(CausalSinkForm, "Theorem F128 (e) gives another count or start")
            self._at_values(self.heads, f.start)
            return
        import itertools

        import sympy
        lower = dict(self.params)
        got = param_sink_form(self.heads, self.periodic, self.limit, lower)
        if got is None or (got.layers, got.first_wide) != (f.layers, f.first_wide) or \
                sympy.simplify(got.start - f.start) != 0:
            _reject(CausalSinkForm, "Theorem F128 (e) gives another count or start")
        from .graphs.layers_sinks import instantiate
        names = [name for name, _ in self.params]
        for combo in itertools.product(*[[lo, lo + 1, lo + 3] for _, lo in self.params]):
            values = dict(zip(names, combo))
            start = int(sympy.sympify(f.start, strict=True).xreplace(  # safe: strict
                {sympy.Symbol(k, integer=True, positive=True): v for k, v in values.items()}))
            heads = instantiate(self.heads, values)
            whole = sink_form(heads, self.periodic, self.limit)
            if whole is None or (whole.layers, whole.start) != (f.layers, start):
                _reject(CausalSinkForm, f"at {values} Theorem F128 (e) gives another count or start")
            self._at_values(heads, start)

    def _at_values(self, heads: tuple, start: int) -> None:
        from .graphs.layers_sinks import SinkLayers, decide
        f = self.form
        ks = [k for row in heads for _, k in row]
        for n in sorted({start, start + 1, 2 * start + len(heads) + 5, max(ks + [0]) + start}):
            got = decide(SinkLayers(n, heads, self.periodic, self.limit))
            if (got.depth, got.layers, got.least) != (f.layers, f.layers, True):
                _reject(CausalSinkForm, f"at n = {n} F128 gives D_c = {got.depth}, {got.layers} layers, not {f.layers}")

    def to_json(self) -> Any:
        from .certfile import _tree
        start = self.form.start
        return {"kind": self.kind, "heads": [[["∞" if w is None else w, k] for w, k in row] for row in self.heads],
                "periodic": self.periodic, "limit": self.limit, "D_c": self.form.layers, "layers": self.form.layers,
                "least": True, "from": start if isinstance(start, int) else _tree(start),
                **({"params": dict(self.params)} if self.params else {})}


@dataclass(frozen=True)
class CausalSinkValues(Certificate):
    """Per-layer causal heads with attention sinks at a concrete n whose windows or sink counts are one param
    (docs/theory.md §21.9): F128's decision gives one D_c and one count at every value from `low` to `high` (the values
    a file of n tokens allows). The check: the decision re-run at every value."""
    heads: tuple
    periodic: bool
    limit: Optional[int]
    n: int
    param: str
    low: int
    high: int
    depth: int
    layers: int
    least: bool
    kind = "layers-causal-sinks-values"

    def check(self) -> None:
        from .graphs.layers_sinks import SinkLayers, decide, instantiate
        if self.least and self.layers != max(self.depth, 1):
            _reject(CausalSinkValues, "a count above D_c is claimed least")
        for v in range(self.low, self.high + 1):
            got = decide(SinkLayers(self.n, instantiate(self.heads, {self.param: v}), self.periodic, self.limit))
            if (got.depth, got.layers) != (self.depth, self.layers) or (self.least and not got.least):
                _reject(CausalSinkValues, f"at {self.param} = {v} F128 gives D_c = {got.depth}, {got.layers} layers")

    def to_json(self) -> Any:
        return {"kind": self.kind, "heads": [[["∞" if w is None else w, k] for w, k in row] for row in self.heads],
                "periodic": self.periodic, "limit": self.limit, "D_c": self.depth, "layers": self.layers,
                "least": self.least, "values": {"param": self.param, "from": self.low, "to": self.high}}


# ---------------------------------------------------------------------------------------------
# Sparse Transformer's alternations at any n (docs/theory.md §21.7, Theorems F133 and F134)

#: Above this n the kernel re-checks the theorem's closed forms and premises only, not the witness on the
#: implicit neighbourhoods (its cost grows like n²/s for the class exchange).
ALTERNATION_RECHECK_N = 65536


@dataclass(frozen=True)
class AlternationGroup(Certificate):
    """G of an alternation of Theorems F133 (a) / F134 (a), recomputed from the premises; at n ≤ 256 every listed
    generator preserves both layers' neighbourhoods (their definitions, position by position) and the generators
    generate a group of the stated order (Schreier–Sims)."""
    alt: Any  # graphs.layers_structured.Alternation
    name: str
    order: Optional[int]  # None: too many digits to compute (the name and the theorem fix it)
    generators: tuple
    kind = "layer-alternation-group"

    def check(self) -> None:
        from .graphs.layers_structured import decide, neighbourhood
        got = decide(self.alt).group
        if (got.name, got.order) != (self.name, self.order):
            _reject(AlternationGroup, f"Theorem {self.theorem} gives {got.name} of order {got.order}")
        n = self.alt.n
        if n <= 256:
            for g in self.generators:
                if sorted(g) != list(range(1, n + 1)):
                    _reject(AlternationGroup, "a generator is not a permutation of 1..n")
                for kind in self.alt.kinds:
                    for v in range(1, n + 1):
                        if frozenset(g[u - 1] for u in neighbourhood(self.alt, kind, v)) != \
                                neighbourhood(self.alt, kind, g[v - 1]):
                            _reject(AlternationGroup, f"a generator does not preserve the {kind} layer at {v}")
            from .schreier_sims import generated_order
            if generated_order(n, self.generators) != self.order:
                _reject(AlternationGroup, "the generators do not generate a group of the stated order")

    @property
    def theorem(self) -> str:
        return "F133" if self.alt.family == "strided" else "F134"

    def to_json(self) -> Any:
        a = self.alt
        out = {"kind": self.kind, "theorem": self.theorem, "n": a.n, "family": a.family,
               "parameters": [a.p, a.q], "first layer": a.kinds[0], "name": self.name}
        if self.order is not None and self.order < 10 ** 60:  # a longer order is named only (docs/language.md §8)
            out["order"] = self.order
        out["generators"] = _listed(self.generators, a.n)
        return out


@dataclass(frozen=True)
class AlternationCount(Certificate):
    """D_Φ, the count and `least` of Theorems F133 / F134, recomputed from the premises; the pair (i, j) not reached
    within D_Φ − 1 layers by the reach recurrence of §21.1 on implicit neighbourhoods; the witness one layer below
    the count by the definition of §21.3 (up to ALTERNATION_RECHECK_N positions) and outside G."""
    alt: Any
    depth: int
    missing: tuple
    layers: int
    least: bool
    witness: Any  # graphs.layers_structured.AltWitness or None
    covered: tuple
    kind = "layer-alternation-count"

    def check(self) -> None:
        from .graphs.layers_structured import decide, reach, witness_holds
        a = self.alt
        got = decide(a)
        if (got.depth, got.layers, got.least, got.missing, got.covered) != \
                (self.depth, self.layers, self.least, tuple(self.missing), tuple(self.covered)):
            _reject(AlternationCount, "the closed forms give another D_Φ, count, pair or covering")
        i, j = self.missing
        if j in reach(a, i, self.depth - 1):
            _reject(AlternationCount, f"x_{j} reaches position {i} within {self.depth - 1} layers")
        w = self.witness
        if self.layers > self.depth and self.least:
            if w is None or w.depth != self.layers - 1 or w != got.witness:
                _reject(AlternationCount, "no witness at the depth below the count")
            if a.n <= ALTERNATION_RECHECK_N:
                perm = w.permutation(a)
                if not witness_holds(a, perm, w.position, w.depth):
                    _reject(AlternationCount, "the witness fails the view condition")
                if perm == list(range(1, a.n + 1)) or perm == list(range(a.n, 0, -1)):
                    _reject(AlternationCount, "the witness is in G")

    def to_json(self) -> Any:
        a = self.alt
        out: dict = {"kind": self.kind, "theorem": "F133" if a.family == "strided" else "F134", "n": a.n,
                     "family": a.family, "parameters": [a.p, a.q], "first layer": a.kinds[0], "D_Φ": self.depth,
                     "not within D_Φ − 1": list(self.missing), "layers": self.layers, "least": self.least}
        if self.covered:
            out["layers seen whole"] = list(self.covered)
        if self.witness is not None:
            w = self.witness
            out["witness"] = {"position": w.position, "depth": w.depth, "a": w.a,
                              "exchange": "the residue classes of a and a + 1" if w.exchange else "(a a + 1)"}
        return out


# ---------------------------------------------------------------------------------------------
# Per-layer two-sided windows at any n (docs/theory.md §21.12, Theorems F231–F234, Lemma AO)


def _windows_json(layers: Any, n: Any) -> dict:
    return {"widths": list(layers.widths), "periodic": layers.periodic, "n": n}


@dataclass(frozen=True)
class WindowsGroup(Certificate):
    """G = the reflection (Theorem F232): at an integer n, n ≥ 2w_* + 1 and n ≥ 3 recomputed from the widths; at a
    symbolic n, the range's start `start` at least max(3, 2w_* + 1)."""
    layers: Any  # graphs.layers_windows.WindowLayers
    n: Any  # an int, or the symbolic length's name
    start: Optional[int]  # the range's first length at a symbolic n
    kind = "layer-windows-group"

    def check(self) -> None:
        from .graphs.layers_windows import is_reflection, least_positive
        w = least_positive(self.layers)
        if w is None:
            raise CertificateRejected("WindowsGroup: every layer has width 0: G is S_n")
        if isinstance(self.n, int):
            if not is_reflection(self.layers, self.n):
                _reject(WindowsGroup, f"n = {self.n} is below 2w_* + 1 = {2 * w + 1} (or below 3): G is larger")
        elif self.start is None or self.start < max(3, 2 * w + 1):
            _reject(WindowsGroup, f"the range must start at n ≥ max(3, 2w_* + 1) = {max(3, 2 * w + 1)}")

    def to_json(self) -> Any:
        from .graphs.layers_windows import least_positive
        out = {"kind": self.kind, "theorem": "F232", **_windows_json(self.layers, self.n), "name": "reflection",
               "order": 2, "least positive width": least_positive(self.layers)}
        if self.start is not None:
            out["from"] = self.start
        return out


@dataclass(frozen=True)
class WindowsCount(Certificate):
    """D_Φ (Theorem F231) and the least count (Theorem F233 through Lemma AO at the layer `pinned`), or for a finite list
    that never connects (`depth` None) the pair (1, n) not reached (Theorem F234). At an integer n: D_Φ recomputed by
    R(m), the pair (1, n) at distance n − 1 > R(D_Φ − 1), and Lemma AO's premises at the pinned layer; at a symbolic n:
    the formula equal to Σ_r ⌈(n − 1 − S_r)/P⌉ and read against R(m) at every n ≤ 200, the pinned layer ℓ₁ and the
    start max(3, 2u + 1)."""
    layers: Any  # graphs.layers_windows.WindowLayers
    n: Any
    depth: Any  # an int, a SymPy expression (symbolic n), or None (never connected within a finite list)
    pinned: Optional[int]
    start: Optional[int]
    kind = "layer-windows-count"

    def check(self) -> None:
        if isinstance(self.n, int):
            self._check_concrete()
        else:
            self._check_symbolic()

    def _check_concrete(self) -> None:
        from .graphs.layers_windows import is_reflection, reach_depth
        L, n = self.layers, self.n
        d = reach_depth(L, n)
        if d != self.depth:
            _reject(WindowsCount, f"D_Φ is {d} by R(m), not {self.depth}")
        if d is None:
            if L.reach(len(L.widths)) >= n - 1 or L.periodic:
                _reject(WindowsCount, "the network's layers reach every position")
            return
        if d >= 1 and L.reach(d - 1) >= n - 1:
            _reject(WindowsCount, f"x_{n} reaches position 1 within {d - 1} layers")
        if self.pinned is None or not is_reflection(L, n) or not _lemma_ao(L, n, d, self.pinned):
            _reject(WindowsCount, f"Lemma AO's premises fail at layer {self.pinned} and depth {d}")

    def _check_symbolic(self) -> None:
        import sympy
        from .graphs.layers_windows import reach_depth, symbolic_form
        L = self.layers
        form = symbolic_form(L, str(self.n))
        if form is None or sympy.simplify(form.layers - self.depth) != 0:
            raise CertificateRejected("WindowsCount: the formula is not Σ_r ⌈(n − 1 − S_r)/P⌉ for these widths")
        if self.pinned != form.first_wide or self.start is None or self.start < form.start:
            raise CertificateRejected(f"WindowsCount: the range must start at max(3, 2u + 1) = {form.start} with "
                                      f"layer {form.first_wide}")
        n = sympy.Symbol(str(self.n), integer=True, positive=True)
        for k in (*range(max(2, self.start), 201), 10 ** 6 + 3):
            if int(self.depth.xreplace({n: k})) != reach_depth(L, k):
                _reject(WindowsCount, f"the formula is not D_Φ at n = {k}")

    def to_json(self) -> Any:
        from .certfile import _tree
        d = self.depth if self.depth is None or isinstance(self.depth, int) else _tree(self.depth)
        out = {"kind": self.kind, "theorem": "F234" if self.depth is None else "F233",
               **_windows_json(self.layers, self.n), "D_Φ": d, "pinned layer": self.pinned}
        if self.depth is not None:
            out.update({"layers": d, "least": True})
        if self.start is not None:
            out["from"] = self.start
        return out


def _lemma_ao(L: Any, n: int, m: int, ell: int) -> bool:
    """Lemma AO's premises at depth m and layer ℓ ≤ m, with n ≥ 2w_ℓ + 1 (written from the lemma, not from the
    engine's search)."""
    if not 1 <= ell <= m:
        return False
    w, r = L.width(ell), L.reach(m) - L.reach(ell)
    return w >= 1 and n >= 2 * w + 1 and r + w >= n - 2 and n <= 2 * r + 2


# ---------------------------------------------------------------------------------------------
# Per-layer windows with global tokens at any n (docs/theory.md §21.13, Theorems F237–F239, F129, Lemma AP). The
# checks restate the theorems from the layer list (widths w_ℓ, global counts g_ℓ ∈ {0, g}); they read the engine's
# GlobalLayers only for the list itself.


def _globals_kinds(L: Any) -> list[str]:
    """Each layer's kind over one period (or the finite list): P, Z, GW, G0."""
    return [("GW" if w >= 1 else "G0") if g else ("P" if w >= 1 else "Z") for w, g in zip(L.widths, L.globals_)]


def _globals_group_name(L: Any) -> Optional[str]:
    """Theorem F238's case: 'trivial' (a P layer), 'globals' (no P layer, a GW layer), None (outside)."""
    kinds = _globals_kinds(L)
    return "trivial" if "P" in kinds else "globals" if "GW" in kinds else None


def _globals_group_start(L: Any) -> Optional[int]:
    """F238's threshold: trivial from max(3, min over P layers of 2w + 1, min over global layers of g + w + 2);
    S_g × C_2 from the least g + 2w + 2 over GW layers."""
    g = max(L.globals_)
    name = _globals_group_name(L)
    pairs = list(zip(L.widths, L.globals_))
    if name == "trivial":
        return max(3, min(2 * w + 1 for w, h in pairs if not h and w >= 1), min(g + w + 2 for w, h in pairs if h))
    if name == "globals":
        return min(g + 2 * w + 2 for w, h in pairs if h and w >= 1)
    return None


def _globals_layer(L: Any, ell: int) -> tuple[int, int]:
    """(w_ℓ, g_ℓ) of layer ℓ (a periodic list repeats)."""
    q = (ell - 1) % len(L.widths)
    return L.widths[q], L.globals_[q]


def _globals_at(L: Any, upto: int) -> list[int]:
    top = upto if L.periodic else min(upto, len(L.widths))
    return [ell for ell in range(1, top + 1) if _globals_layer(L, ell)[1] > 0]


def _globals_reach(L: Any, m: int) -> int:
    return sum(_globals_layer(L, ell)[0] for ell in range(1, m + 1))


def _globals_kind_of(L: Any, ell: int) -> str:
    w, g = _globals_layer(L, ell)
    return ("GW" if w >= 1 else "G0") if g else ("P" if w >= 1 else "Z")


def _globals_sets(L: Any, m: int) -> tuple[set[int], set[int]]:
    """(C_m, B_m): the layers ℓ < m followed by two global layers within m, and ℓ ≤ m followed by one."""
    glob = _globals_at(L, m)
    after = {ell: len([a for a in glob if a > ell]) for ell in range(1, m + 1)}
    return {ell for ell, k in after.items() if k >= 2 and ell < m}, {ell for ell, k in after.items() if k >= 1}


def _globals_witness(L: Any, m: int) -> Optional[str]:
    """Lemma AP at depth m (restated): None when no view witness exists, else the witness's kind."""
    whole, followed = _globals_sets(L, m)
    kinds = {_globals_kind_of(L, ell) for ell in whole}
    if _globals_group_name(L) == "globals":
        return None if "GW" in kinds else "swap"
    if "P" in kinds:
        return None
    if "GW" not in kinds:
        return "swap"
    return None if any(_globals_kind_of(L, ell) == "P" for ell in followed) else "reflection"


def _globals_pin_start(L: Any, m: int, pins: tuple) -> Optional[int]:
    """The threshold of Lemma AP's no-witness case these pins name at depth m, or None when they name none: (p) a P
    layer of C_m, max(2w_p + 1, g + w_{a_1} + 2); (q, p) a GW layer of C_m and a P layer of B_m (G trivial),
    max(g + 2w_q + 2, g + w_p + 1); (q) a GW layer of C_m (G = S_g × C_2), g + 2w_q + 2."""
    whole, followed = _globals_sets(L, m)
    g, name = max(L.globals_), _globals_group_name(L)
    kinds = [_globals_kind_of(L, q) if isinstance(q, int) and 1 <= q <= m else "" for q in pins]
    if name == "trivial" and kinds == ["P"] and pins[0] in whole:
        a1 = _globals_at(L, m)[0]
        return max(2 * _globals_layer(L, pins[0])[0] + 1, g + _globals_layer(L, a1)[0] + 2)
    if name == "trivial" and kinds == ["GW", "P"] and pins[0] in whole and pins[1] in followed:
        return max(g + 2 * _globals_layer(L, pins[0])[0] + 2, g + _globals_layer(L, pins[1])[0] + 1)
    if name == "globals" and kinds == ["GW"] and pins[0] in whole:
        return g + 2 * _globals_layer(L, pins[0])[0] + 2
    return None


@dataclass(frozen=True)
class GlobalsGroup(Certificate):
    """G (Theorem F238): trivial with a P layer, S_g × C_2 without; n (or the range's start) at least the threshold
    recomputed from the layers."""
    layers: Any  # graphs.layers_globals.GlobalLayers
    n: Any
    start: Optional[int]
    name: str = ""  # the group's words (GroupInfo.name)
    kind = "layer-globals-group"

    def check(self) -> None:
        t = _globals_group_start(self.layers)
        if t is None:
            raise CertificateRejected("GlobalsGroup: no layer has a positive width: outside Theorem F238")
        if isinstance(self.n, int):
            if self.n < t:
                _reject(GlobalsGroup, f"n = {self.n} is below Theorem F238's threshold {t}")
        elif self.start is None or self.start < t:
            _reject(GlobalsGroup, f"the range must start at n ≥ {t}")

    def to_json(self) -> Any:
        L = self.layers
        name = _globals_group_name(L)
        g = max(L.globals_)
        out = {"kind": self.kind, "theorem": "F238", "widths": list(L.widths), "globals": list(L.globals_),
               "periodic": L.periodic, "n": self.n, "case": name, "name": self.name or name, "g": g,
               "order": 1 if name == "trivial" else 2 * math.factorial(g)}
        if self.start is not None:
            out["from"] = self.start
        return out


@dataclass(frozen=True)
class GlobalsCount(Certificate):
    """D_Φ = a_2 (Theorem F237) and the least count by Lemma AP (Theorem F239), or NOT-UAP (Theorem F129): a finite
    network with at most one global layer (`depth` None), or whose whole depth keeps a witness (`count` None, the
    witness's kind named). `pins`: the layers Lemma AP's no-witness case reads at the count; `witness`: the kind of the
    witness one layer below the count (None when the count is a_2); `start`: N* at the count (or the whole depth)."""
    layers: Any
    n: Any
    depth: Optional[int]
    count: Optional[int]
    pins: tuple[int, ...]
    witness: Optional[str]
    start: int
    kind = "layer-globals-count"

    def check(self) -> None:
        L = self.layers
        if _globals_group_name(L) is None:
            raise CertificateRejected("GlobalsCount: no layer has a positive width: outside Theorem F239")
        if isinstance(self.n, int) and self.n < self.start:
            _reject(GlobalsCount, f"n = {self.n} is below the range's start {self.start}")
        if not isinstance(self.n, int) and not L.periodic:
            _reject(GlobalsCount, "a finite list at a symbolic n is not stated here")
        k, g = len(L.widths), max(L.globals_)
        base = _globals_group_start(L) or 3
        glob = _globals_at(L, 3 * k + 3 if L.periodic else k)
        if self.depth is None:
            if L.periodic or len(glob) >= 2 or self.start < max(base, g + 2 * _globals_reach(L, k) + 2):
                _reject(GlobalsCount, "the network has two global layers (or the start is below g + 2R(k) + 2)")
            return
        if len(glob) < 2 or self.depth != glob[1]:
            _reject(GlobalsCount, f"D_Φ is the second global layer, not {self.depth}")
        floor = max(base, g + 2 * _globals_reach(L, self.depth - 1) + 2)
        if self.count is None:
            if L.periodic or _globals_witness(L, k) is None or _globals_witness(L, k) != self.witness or \
                    self.start < max(floor, g + 2 * _globals_reach(L, k) + 3):
                _reject(GlobalsCount, f"Lemma AP gives no {self.witness} witness at the whole depth {k} from "
                                      f"n = {self.start}")
            return
        self._check_count(floor)

    def _check_count(self, floor: int) -> None:
        L, m, g = self.layers, self.count, max(self.layers.globals_)
        assert m is not None and self.depth is not None
        if m < self.depth or (not L.periodic and m > len(L.widths)):
            _reject(GlobalsCount, f"the count {m} is outside the network's layers from D_Φ on")
        pinned = _globals_pin_start(L, m, tuple(self.pins))
        if _globals_witness(L, m) is not None or pinned is None:
            raise CertificateRejected(f"GlobalsCount: Lemma AP's no-witness case fails at depth {m} with layers "
                                      f"{self.pins}")
        below = _globals_witness(L, m - 1) if m > self.depth else None
        if below != self.witness or (m > self.depth and below is None):
            _reject(GlobalsCount, f"the witness at depth {m - 1} is {below}, not {self.witness}: {m} is not least")
        need = max(floor, pinned, g + 2 * _globals_reach(L, m - 1) + 3 if m > self.depth else 0)
        if self.start < need:
            _reject(GlobalsCount, f"the range must start at n ≥ {need}")

    def to_json(self) -> Any:
        L = self.layers
        theorem = "F239" if self.count is not None else "F129"
        return {"kind": self.kind, "theorem": theorem, "widths": list(L.widths), "globals": list(L.globals_),
                "periodic": L.periodic, "n": self.n, "D_Φ": self.depth, "layers": self.count,
                "least": self.count is not None or None, "pins": list(self.pins), "witness": self.witness,
                "from": self.start}
