"""Per-layer patterns (the paper's Definition 4, Φ = (N_1, N_2, …)): connectivity within m layers,
the group G = ⋂_{ℓ, h} Aut(N_{ℓ,h}), and the least m by views generalised to layer-dependent
neighbourhoods (docs/theory.md §21). Concrete n only; the graph work is in uapcheck/graphs/layers.py.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional, Sequence, TypeVar

from .. import proof
from .. import spec as S
from ..bignum import AutomorphismCountsDisagree
from ..budget import BudgetExceeded, time_limit
from ..graphs import GraphTooLarge, build_graph, symmetry_group
from ..graphs.layers import LayerSequence, connectivity, least_layers
from ..groups import exact_int, order_text
from ..layer_certificates import (CausalLayerWitness, LayerGenerators, LayerGroupCovering, LayersConnected,
                                  LayersUnreached, LayerViewWitness, LayerViews)
from ..show import show_pattern
from ..claim import claim as claim_of
from ..groups import GroupInfo
from .structured import triangular_outcome
from .symmetry import group_undecided
from .wording import S_N, X_J, group_is, token
from .wording import SUM_TARGET as SUM_TARGET_CLAIM

CITE_SEQ = proof.corrected(
    "Definition 4", "Corollary 2",
    text="Cheng et al. 2025, Definition 4 (connected within m layers) and Corollary 2 (G = ⋂ Aut(N_p)); "
         "the layer count corrected by the view argument for per-layer patterns, docs/theory.md §21")
CITE_SEQ_REACH = proof.derived(
    "Definition 4",
    text="derived here: receptive fields through increasing layers (necessity), docs/theory.md §21.1")
CITE_SEQ_GROUP = proof.paper(
    "Corollary 2",
    text="Cheng et al. 2025, Corollary 2: G = ⋂_p Aut(N_p), each layer's heads separately (docs/theory.md §21.2)")
MAX_PERIOD = 256
#: Above this n, §21.7's closed forms are tried before the arc engine (graphs/layers.py), which then runs when the
#: graphs it holds fit the file's resources (build.sequence_fit names the length that would fit).
MAX_SEQ_N = 1024
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"
#: Why a per-layer list at a symbolic n is left open for equivariant targets (docs/theory.md §21.12 names what is decided
#: there); every integer `tokens N` goes to the concrete per-layer engine (§21.1–21.4)
SYMBOLIC_COVERED = ("at a symbolic n the per-layer analysis is not decided for this list (decided there: one head whose "
                    "layers are all non-cyclic windows of integer widths in a `periodic` list without a `layers` "
                    "budget, §21.12, or with global tokens, §21.13; lists whose every arc goes one way, §21.14; one head of cyclic windows whose first "
                    "width pins a layer on every class of n, §21.15); each integer `tokens N` is decided by the "
                    "per-layer engine of §21.1–21.4")


def has_sequence(spec: S.Spec) -> bool:
    return any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads)


def _describe(spec: S.Spec) -> str:
    return "; ".join(f"head {h.label or i + 1}: {show_pattern(h.pattern)}" for i, h in enumerate(spec.heads))


def layer_patterns(spec: S.Spec) -> tuple[list[tuple[S.Pattern, ...]], bool]:
    """(the head patterns of layers 1..p, periodic): p is a finite sequence's length, else the lcm
    of the periods."""
    seqs = [h.pattern for h in spec.heads if isinstance(h.pattern, S.PatternSequence)]
    finite = [s for s in seqs if not s.periodic]
    if finite:
        count, periodic = len(finite[0].patterns), False
    else:
        count = 1
        for s in seqs:
            count = count * len(s.patterns) // math.gcd(count, len(s.patterns))
        periodic = True
    if count > MAX_PERIOD:
        raise ValueError(f"the layer patterns repeat with period {count} (at most {MAX_PERIOD} are analysed)")

    def at(h: S.Head, ell: int) -> S.Pattern:
        p = h.pattern
        if not isinstance(p, S.PatternSequence):
            return p
        got = p.at(ell)
        if got is None:  # parse checks that finite lists share one length
            raise ValueError("the heads' finite pattern lists have different lengths")
        return got

    return [tuple(at(h, ell) for h in spec.heads) for ell in range(1, count + 1)], periodic


def concrete_layer_patterns(spec: S.Spec) -> Optional[tuple[int, list[tuple[S.Pattern, ...]], bool]]:
    """(n, the head patterns of layers 1..p, periodic) at an integer n; None at a symbolic n or when the lists
    cannot be read as layers."""
    n = spec.tokens
    if not isinstance(n, int):
        return None
    try:
        per_layer, periodic = layer_patterns(spec)
    except ValueError:
        return None
    return n, per_layer, periodic


Row = TypeVar("Row")


def budget_of(spec: S.Spec) -> Optional[int]:
    """The budget `layers M` when it is an integer (None otherwise)."""
    return spec.layers if isinstance(spec.layers, int) and not isinstance(spec.layers, bool) else None


def network_rows(rows: Sequence[Row], periodic: bool, budget: Optional[int]) -> tuple[tuple[Row, ...], bool,
                                                                                        Optional[int]]:
    """The layers the network has (§21.2): a budget below a list's length or period cuts the list (and the cut list
    no longer repeats); with the network's depth (a finite list's length or the budget; None: any)."""
    rows = tuple(rows)
    if budget is not None and budget < len(rows):
        rows, periodic = rows[:budget], False
    limit = None if periodic else len(rows)
    if budget is not None:
        limit = budget if limit is None else min(limit, budget)
    return rows, periodic, limit


def fit_sequence(spec: S.Spec) -> None:
    """Raise GraphTooLarge when the layer graphs of ``spec`` (one period, or a finite list) would not fit the file's
    resources held at once (build.sequence_fit); ValueError, as build_sequence, when the lists cannot be read."""
    from ..graphs.build import sequence_fit
    if not isinstance(spec.tokens, int):
        return  # a symbolic n: no graphs (the closed forms or an undecided step)
    try:
        per_layer, _ = layer_patterns(spec)
    except ValueError:
        return  # build_sequence reports it
    sequence_fit([p for pats in per_layer for p in pats], spec.tokens)


def build_sequence(spec: S.Spec) -> LayerSequence:
    n = spec.tokens
    if not isinstance(n, int):
        raise ValueError("per-layer patterns need an integer `tokens N`")
    per_layer, periodic = layer_patterns(spec)
    cache: dict = {}
    layers = []
    for pats in per_layer:
        row = []
        for p in pats:
            if p not in cache:
                cache[p] = build_graph(p, n, {})
            row.append(cache[p])
        layers.append(tuple(row))
    return LayerSequence(n, tuple(layers), periodic)


@proof.rule("SEQ-CONNECTED", "Per-layer patterns connected within D_Φ layers (and not fewer)", CITE_SEQ_REACH,
            statuses=(proof.PROVED,), certificates=(LayersConnected,))
def connected_step(desc: str, cert: LayersConnected) -> proof.Step:
    d = cert.depth
    claim = claim_of("every ", X_J, " reaches every position through an increasing sequence of layers within "
                     f"the first {d} attention layer{'s' if d != 1 else ''} (Definition 4, connected within {d} "
                     f"layer{'s' if d != 1 else ''})")
    if cert.missing:
        i, j = cert.missing
        claim += claim_of(f", and not within {d - 1}: ", token(j), f" does not reach position {i}, so at least "
                          f"{d} layers are needed")
    ev: dict = {"patterns": desc, "D_Φ": d}
    if cert.missing:
        ev["not within D − 1"] = {"i": cert.missing[0], "j": cert.missing[1]}
    return proof.conclude(claim, proof.PROVED, evidence=ev, certificate=cert)


@proof.rule("SEQ-DISCONNECTED", "Per-layer patterns never connected (or not within the depth): NOT-UAP",
            CITE_SEQ_REACH, statuses=(proof.PROVED,), certificates=(LayersUnreached,))
def disconnected_step(desc: str, cert: LayersUnreached, why: str) -> proof.Step:
    claim = claim_of(token(cert.j), f" never reaches position {cert.i} {why}, so every model's output at {cert.i} "
                     "ignores ", token(cert.j), ", while the target ", SUM_TARGET_CLAIM, " (", S_N,
                     "-invariant, hence G-equivariant) depends on it (receptive-field argument)")
    return proof.conclude(claim, proof.PROVED, evidence={"patterns": desc, "within layers": cert.layers,
                                                         "witness": {"i": cert.i, "j": cert.j, "target": SUM_TARGET}},
                          facts={"obstruction": True}, certificate=cert)


@proof.rule("SEQ-GROUP", "G = ⋂ over layers and heads of Aut(N_{ℓ,h}), computed exactly", CITE_SEQ_GROUP,
            statuses=(proof.PROVED,), certificates=(LayerGenerators,))
def group_step(desc: str, info: GroupInfo, cert: LayerGenerators, method: str) -> proof.Step:
    named = group_is(info)
    return proof.conclude(claim_of("the exact equivariance group of the family is ", named, ": the intersection "
                                   "of the automorphism groups of every layer's heads, each head of each layer "
                                   "separately"),
                          proof.PROVED, evidence={"patterns": desc, "order": info.order_value, "name": info.name,
                                                  "method": method}, facts={"group": info}, certificate=cert)


@proof.rule("SEQ-LAYERS", "The least number of layers of per-layer patterns, by views", CITE_SEQ,
            statuses=(proof.PROVED,), certificates=(LayerViews, LayerGroupCovering))
def layers_step(connected: proof.Step, diameter: int, layers: int, cert: "LayerViews | LayerGroupCovering",
                witness: Optional[LayerViewWitness], least: bool = True, open_because: str = "") -> proof.Step:
    ev: dict = {"D_Φ": diameter, "layers": layers, "least": least}
    if not least and open_because:
        ev["why fewer are not decided"] = open_because
    covering = isinstance(cert, LayerGroupCovering)
    if isinstance(cert, LayerGroupCovering):
        seen = (f"layer {cert.covered[0]} is" if len(cert.covered) == 1 else
                f"layers {', '.join(map(str, cert.covered))} are")
        why_none = (f"at depth {layers} {seen} seen whole by every position and the heads there alone have only the "
                    "automorphisms of G, so no permutation outside G keeps a view (the covering lemma)")
        ev["layers seen whole"] = list(cert.covered)
    else:
        why_none = (f"at depth {layers} no position's view (the in-neighbourhoods of each layer at the positions that "
                    "layer feeds into it) is kept by a permutation outside G")
    if not least:
        claim = (f"{layers} attention layers suffice ({why_none}); whether fewer do is not shown"
                 + (f" ({open_because})" if open_because else "") + f": D_Φ = {diameter} layers are needed")
    elif layers == diameter:
        claim = (f"{layers} attention layer{'s' if layers != 1 else ''} suffice and are least: {why_none}, so the "
                 "views determine the sample up to G")
    elif diameter == 0 and layers == 1:  # n = 1: D_Φ = 0, and a model has at least one attention layer
        claim = (f"1 attention layer suffices and is least: {why_none}, so the views determine the sample up to G; "
                 "D_Φ = 0 (n = 1), and one attention layer is the fewest a model has")
    else:
        w = witness
        if w is None:
            raise ValueError("SEQ-LAYERS: more than D_Φ layers need the witness at depth layers − 1")
        claim = (f"{layers} attention layers are needed and suffice: with {layers - 1} the output at position "
                 f"{w.position} is the same for X and σX for the permutation σ of the view witness (outside G); "
                 + (why_none if covering else f"at depth {layers} no witness exists"))
        ev["view witness"] = _witness_evidence(w)
    return proof.conclude(claim, proof.PROVED, [connected], ev, facts={"layers": layers, "least": least},
                          certificate=cert)


def _witness_evidence(cert: "LayerViewWitness | CausalLayerWitness") -> dict:
    moved = [k for k, p in enumerate(cert.permutation, 1) if p != k]
    ev: dict = {"position": cert.position, "depth": cert.depth}
    if len(moved) == 2:
        ev["swap"] = moved
    else:
        ev["permutation"] = list(cert.permutation)
    return ev


@proof.rule("SEQ-DEPTH", "Per-layer patterns whose whole depth leaves a view witness: NOT-UAP", CITE_SEQ,
            statuses=(proof.PROVED,), certificates=(LayerViewWitness,))
def depth_step(connected: proof.Step, cert: LayerViewWitness, why: str) -> proof.Step:
    claim = (f"{why}, and at that depth the output at position "
             f"{cert.position} is the same for X and σX for a permutation σ outside G (a view witness), so a "
             "G-equivariant target separating them is not approximable")
    return proof.conclude(claim, proof.PROVED, [connected], {"view witness": _witness_evidence(cert)},
                          facts={"obstruction": True}, certificate=cert)


@proof.rule("SEQ-UNDECIDED", "Per-layer pattern analysis undecided", CITE_SEQ, statuses=(proof.UNDECIDED,))
def undecided_step(desc: str, reason: str) -> proof.Step:
    return proof.conclude(f"the per-layer pattern analysis is undecided: {reason}", proof.UNDECIDED,
                          evidence={"patterns": desc, "reason": reason})


def _network_layers(seq: LayerSequence, budget) -> tuple[LayerSequence, bool]:
    """The layers the network has: with a budget `layers M` below the length or period, the first M
    (the family, its group and its reach are theirs, never a later layer's: docs/theory.md §21.2)."""
    if budget is not None and budget < seq.period:
        return LayerSequence(seq.n, seq.layers[:budget], False), True
    return seq, False


def _causal_intervals(spec: S.Spec) -> bool:
    """`target causal` with interval heads in every layer (decided at any n by rules/layers_intervals.py, §21.6)."""
    from .layers_intervals import interval_sequence
    return spec.target == "causal" and (interval_sequence(spec) is not None or _sink_heads(spec))


def _sink_heads(spec: S.Spec) -> bool:
    """Every head of every layer a sink interval head (decided by rules/layers_sinks.py, §21.9)."""
    from ..graphs.layers_sinks import sink_head
    try:
        per_layer, _ = layer_patterns(spec)
    except ValueError:
        return False
    return all(sink_head(p) is not None for pats in per_layer for p in pats)


def _alternation_outcome(spec: S.Spec, desc: str, least_only: bool = False):
    """Sparse Transformer's alternation within Theorem F133's or F134's range decided by closed forms
    (rules/layers_structured.py, §21.7), or None (also, with `least_only`, when the closed forms do not show the count
    least: below MAX_SEQ_N the arc engine's count then stands)."""
    from ..graphs.layers_structured import decide
    from .layers_structured import alternation, alternation_outcome
    try:
        per_layer, periodic = layer_patterns(spec)
    except ValueError:
        return None
    alt = alternation(spec, per_layer, periodic)
    if alt is None or (least_only and not decide(alt).least):
        return None
    return alternation_outcome(spec, desc, alt)


def _above_the_limit(spec: S.Spec, desc: str, reason: str, undecided):
    """Graphs beyond the file's resources (``reason`` names the length that fits) outside §21.7's closed forms:
    undecided."""
    from .pattern import PatternOutcome
    # causal targets read neither the group nor the G-equivariant structure (§21.5); with interval heads the
    # route of §21.6 decides them at this n, so no open structure step stands under its verdict
    return PatternOutcome(group_undecided(desc, reason), None, (), None, None, None) \
        if _causal_intervals(spec) else undecided(reason)


def _closed_form_or_beyond_the_plan(spec: S.Spec, desc: str, undecided):
    """Above MAX_SEQ_N, §21.7's closed forms first; then, where the layer graphs do not fit (§21.2's size plan),
    those forms, the triangular argument (every layer's arcs go one way: §11.7, read per layer), or an undecided step
    naming the largest n that fits; None: the arc engine decides."""
    if isinstance(spec.tokens, int) and spec.tokens > MAX_SEQ_N:
        alternation = _alternation_outcome(spec, desc)
        if alternation is not None:
            return alternation
        if spec.target != "causal":
            from .layers_windows import windows_outcome
            windows = windows_outcome(spec, desc)  # §21.12: per-layer two-sided windows by arithmetic
            if windows is not None:
                return windows
            from .layers_globals import globals_outcome
            with_globals = globals_outcome(spec, desc)  # §21.13: windows with global tokens by arithmetic
            if with_globals is not None:
                return with_globals
            from .layers_cyclic_windows import cyclic_outcome
            cyclic = cyclic_outcome(spec, desc)  # §21.15: per-layer cyclic windows by arithmetic
            if cyclic is not None:
                return cyclic
    try:
        fit_sequence(spec)
    except GraphTooLarge as exc:
        # (with `target causal` the causal analysis of §21.5 stands alone, as before: the equivariant cut is not read)
        return (_alternation_outcome(spec, desc) or (triangular_outcome(spec, True) if spec.target != "causal" else None)
                or _above_the_limit(spec, desc, str(exc), undecided))
    return None


def _symbolic_n(spec: S.Spec, desc: str, undecided):
    """A symbolic n: the group is undecided; with `target causal` the causal class reads neither the group nor the
    G-equivariant structure (§21.8), so no open structure step stands under its verdict."""
    from .pattern import PatternOutcome
    if spec.target == "causal":
        reason = "per-layer patterns need an integer `tokens N` for their group"
        return PatternOutcome(group_undecided(desc, reason), None, (), None, None, None)
    from .layers_windows import windows_outcome
    windows = windows_outcome(spec, desc)  # §21.12: a periodic list of two-sided windows at any n
    if windows is not None:
        return windows
    from .layers_globals import globals_outcome
    with_globals = globals_outcome(spec, desc)  # §21.13: windows with global tokens at any n
    if with_globals is not None:
        return with_globals
    from .layers_cyclic_windows import cyclic_outcome
    from .layers_one_way import one_way_outcome
    # §21.15: per-layer cyclic windows; §21.14: every arc one way
    return cyclic_outcome(spec, desc) or one_way_outcome(spec, desc) or undecided(SYMBOLIC_COVERED)


def layered_premises(spec: S.Spec):
    """The PatternOutcome of a file with per-layer patterns (rules/pattern.py's record)."""
    from .pattern import PatternOutcome
    desc = _describe(spec)

    def undecided(reason: str):
        step = undecided_step(desc, reason)
        return PatternOutcome(group_undecided(desc, reason), None, (step,), None, None, None)

    if not isinstance(spec.tokens, int):
        return _symbolic_n(spec, desc, undecided)
    first = _closed_form_or_beyond_the_plan(spec, desc, undecided)
    if first is not None:
        return first
    try:
        with time_limit("building the per-layer pattern graphs", 30.0):
            seq = build_sequence(spec)
    except (GraphTooLarge, ValueError, KeyError, BudgetExceeded) as exc:
        return undecided(str(exc))
    budget = spec.layers if isinstance(spec.layers, int) else None
    seq, truncated = _network_layers(seq, budget)
    graphs = seq.distinct_graphs()
    try:
        with time_limit("computing the automorphism group of every layer", 60.0):
            grp = symmetry_group(graphs)
    except (BudgetExceeded, AutomorphismCountsDisagree) as exc:
        return undecided(str(exc))
    gens = tuple(tuple(g) for g in (grp.generators or ()))
    name = grp.name if not (grp.structure and (grp.name is None or grp.name.startswith("stabilizer"))) else (
        grp.structure if grp.name is None else grp.name)
    order_shown = grp.order_text if isinstance(grp.order_text, (int, str)) else order_text(int(grp.order))
    info = GroupInfo(name, order_shown, gens if seq.n <= 256 else (), exact=exact_int(int(grp.order)))
    if grp.generators is None:
        return undecided("the generators of G were not listed (too many to list)")
    gstep = group_step(desc, info, LayerGenerators(seq, gens, int(grp.order)), grp.method)

    limit = seq.depth
    if budget is not None:
        limit = budget if limit is None else min(limit, budget)
    by_budget = truncated or (budget is not None and (seq.depth is None or budget < seq.depth))
    why_limit = (f"within the budget `layers {budget}`" if by_budget else
                 f"within the sequence's {seq.depth} layers" if seq.depth is not None else "at any depth")
    try:
        with time_limit("connectivity within m layers", 30.0):
            reach = connectivity(seq, limit)
    except BudgetExceeded as exc:
        return undecided(str(exc))
    if reach.depth is None:
        if reach.missing is None:
            return undecided("the reach computation named no unreached pair")
        i, j = reach.missing
        unreached = LayersUnreached(seq, i, j, None if reach.closed is not None else limit, reach.closed)
        why = "at any depth" if reach.closed is not None else why_limit
        obstruction = disconnected_step(desc, unreached, why)
        return PatternOutcome(gstep, info, (obstruction,), None, None, obstruction)
    diameter = reach.depth
    connected = connected_step(desc, LayersConnected(seq, diameter, reach.missing))
    in_group = _membership(seq)
    try:
        with time_limit("deciding the least number of layers (rooted views per layer)", 60.0):
            # at n = 1 D_Φ = 0, and one attention layer is the fewest a model has (as PAT-LAYERS at n = 1)
            least = least_layers(seq, max(diameter, 1), int(grp.order), gens, in_group, limit)
    except BudgetExceeded as exc:
        step = undecided_step(desc, f"the least number of layers: {exc}")
        return PatternOutcome(gstep, info, (connected, step), None, diameter, None)
    if least.layers is None and least.witness is not None and not least.reason:
        wit = least.witness
        at_depth = LayerViewWitness(seq, wit.depth, wit.position, wit.permutation)
        source = f"the budget `layers {budget}`" if by_budget else f"the sequence has {seq.depth} layers"
        obstruction = depth_step(connected, at_depth, f"Φ is connected within {diameter} layer{'s' if diameter != 1 else ''}, but the network has at "
                                                  f"most {limit} attention layers ({source})")
        return PatternOutcome(gstep, info, (connected, obstruction), None, diameter, obstruction)
    if least.layers is None:  # the rooted views and the covering stop: §21.7's closed forms where they hold
        step = undecided_step(desc, f"the least number of layers: {least.reason}")
        return _alternation_outcome(spec, desc, True) or PatternOutcome(gstep, info, (connected, step), None, diameter,
                                                                        None)
    # a count past the views' work limit not shown least: §21.7's closed forms where they show theirs least, else the
    # rooted views when their work counted per G-orbit fits
    exact = None if least.least else _alternation_outcome(spec, desc, True)
    if exact is not None:
        return exact
    least = _settled_by_views(seq, max(diameter, 1), int(grp.order), gens, in_group, least)
    lstep = layers_step(connected, diameter, least.layers, _sufficiency(seq, least, gens, int(grp.order)),
                        _quoted_witness(seq, least), least.least, least.reason)
    return PatternOutcome(gstep, info, (connected, lstep), least.layers, diameter, None)


def _quoted_witness(seq: LayerSequence, least) -> Optional[LayerViewWitness]:
    """The witness one layer below the count, checked like a certificate (the claim quotes it), or None."""
    if least.witness is None:
        return None
    w = least.witness
    wcert = LayerViewWitness(seq, w.depth, w.position, w.permutation)
    wcert.check()
    return wcert


def _settled_by_views(seq: LayerSequence, diameter: int, order: int, gens: tuple, in_group, covered):
    """The covering lemma's count ``covered`` (sufficient, not shown least) settled by the rooted views below it when
    their work per G-orbit fits (graphs/layers.least_by_views_per_orbit); ``covered`` itself when it does not, or when
    the views run out of their time. A count already least is kept."""
    from ..graphs.layers import least_by_views_per_orbit
    if covered.least:
        return covered
    try:
        with time_limit("deciding the least number of layers (rooted views per layer, one per G-orbit)", 60.0):
            exact = least_by_views_per_orbit(seq, diameter, order, gens, in_group, below=covered.layers)
    except BudgetExceeded as exc:
        return replace(covered, reason=f"{covered.reason}; the rooted views, one per G-orbit, stopped: {exc}".lstrip("; "))
    if exact is None or exact.layers is None:
        return covered
    if exact.layers > covered.layers:
        raise AssertionError(f"internal error: the rooted views need {exact.layers} layers where the covering lemma "
                             f"shows {covered.layers} enough")
    return exact


def _sufficiency(seq: LayerSequence, least, gens: tuple, order: int) -> "LayerViews | LayerGroupCovering":
    """The certificate that no view witness exists at the stated depth: the rooted views, or the covering lemma."""
    if least.covering is not None:
        cov = least.covering
        return LayerGroupCovering(seq, cov.depth, cov.covered, cov.generators, cov.group_order)
    return LayerViews(seq, least.layers, gens, order, least.certificate)


def _membership(seq: LayerSequence):
    from ..graphs.symmetry import pattern_structure
    return pattern_structure(seq.distinct_graphs()).preserves
