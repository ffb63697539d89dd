"""Per-layer causal patterns checked for causal targets (docs/theory.md §21.5): prefix reach within m layers
and the least m by causal view witnesses. Concrete n only, as the other per-layer rules; the graph work is in
uapcheck/graphs/layers_causal.py.
"""
from __future__ import annotations

from typing import Optional

from .. import proof
from .. import spec as S
from ..budget import BudgetExceeded, time_limit
from ..claim import claim as claim_of
from ..claim import written
from ..graphs import GraphTooLarge
from ..graphs.layers_causal import causal_class, causal_least_layers, prefix_reach
from ..layer_certificates import CausalLayerViews, CausalLayerWitness, LayersPrefixReach
from .layers import MAX_SEQ_N, _describe, fit_sequence, _network_layers, _witness_evidence, build_sequence
from .wording import X_J, token

CITE_SEQ_CAUSAL = proof.derived(
    "Definition 4", "Theorem 1",
    text="derived here: per-layer causal patterns, prefix reach and causal view witnesses (the view lemma of §21.3 "
         "with the receptive form of Theorem 1, §14.3), docs/theory.md §21.5")
#: For a periodic Φ the depths from D_c up to D_c + SEARCH_PERIODS · period + 2 are searched for a depth without a
#: causal view witness (no covering bound is known for causal targets, §21.5).
SEARCH_PERIODS = 2


@proof.rule("SEQ-CAUSAL-REACH", "Per-layer causal patterns: every prefix reached within D_c layers (and not fewer)",
            CITE_SEQ_CAUSAL, statuses=(proof.PROVED,), certificates=(LayersPrefixReach,))
def reach_step(desc: str, cert: LayersPrefixReach) -> proof.Step:
    d = cert.depth
    statement = claim_of("every layer's heads attend only to the position itself and earlier ones, so every model's "
                         "output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), " only, and every ", X_J,
                         f" with j ≤ i reaches i through an "
                         f"increasing sequence of layers within the first {d} attention layer{'s' if d != 1 else ''}: "
                         "the family's target class is the causal maps")
    ev: dict = {"patterns": desc, "D_c": d}
    if cert.missing:
        i, j = cert.missing
        statement += claim_of(f"; not within {d - 1}: ", token(j), f" does not reach position {i}")
        ev["not within D_c − 1"] = {"i": i, "j": j}
    return proof.conclude(statement, proof.PROVED, evidence=ev, facts={"depth": d}, certificate=cert)


@proof.rule("SEQ-CAUSAL-LAYERS", "Per-layer causal patterns: the least number of layers for causal targets, by views",
            CITE_SEQ_CAUSAL, statuses=(proof.PROVED,), certificates=(CausalLayerViews,))
def layers_step(reach: proof.Step, depth: int, layers: int, cert: CausalLayerViews,
                witness: Optional[CausalLayerWitness]) -> proof.Step:
    ev: dict = {"D_c": depth, "layers": layers, "least": True, **cert.data.as_evidence()}
    if layers == depth:
        statement = (f"{layers} attention layer{'s' if layers != 1 else ''} suffice for causal targets and are "
                     f"least: at depth {layers} every position's view (the in-neighbourhoods of each layer at the "
                     "positions that layer feeds into it) has no symmetry moving its prefix and no two are alike, so "
                     "the views tell every two inputs with different prefixes apart")
    elif depth == 0 and layers == 1:  # n = 1: D_c = 0, and a model has at least one attention layer
        statement = ("1 attention layer suffices for causal targets and is least: at depth 1 the single position's "
                     "view tells every two inputs with different prefixes apart; D_c = 0 (n = 1), and one attention "
                     "layer is the fewest a model has")
    else:
        if witness is None:
            raise ValueError("SEQ-CAUSAL-LAYERS: more than D_c layers need the witness at depth layers − 1")
        statement = (f"{layers} attention layers are needed and suffice for causal targets: with {layers - 1} the "
                     f"output at position {witness.position} is the same for X and σX for a permutation σ that "
                     f"moves its prefix (a causal view witness); at depth {layers} no witness exists")
        ev["causal view witness"] = _witness_evidence(witness)
    return proof.conclude(statement, proof.PROVED, [reach], ev, facts={"layers": layers, "least": True},
                          certificate=cert)


def causal_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """The TargetOutcome for `target causal` on per-layer patterns (docs/theory.md §21.5): the rooted views at
    n ≤ 1,024; interval heads above that, and wherever the rooted views stop at a limit, by arithmetic (§21.6)."""
    from .layers_intervals import interval_outcome
    n = spec.tokens
    if not isinstance(n, int):  # a symbolic n: interval heads by Theorem F123 (§21.8)
        from .layers_intervals import form_outcome
        from .targets import TargetOutcome, undecided_step
        form, why = form_outcome(spec, ffn_step, tds)
        if form is not None:
            return form
        from .layers_sinks import sinks_form_outcome
        sinks = sinks_form_outcome(spec, ffn_step, tds)
        if sinks is not None:
            return sinks
        from .layers_chunks import chunk_outcome
        chunks = chunk_outcome(spec, ffn_step, tds)  # chunked layers with the full causal mask (Theorem F169)
        if chunks is not None:
            return chunks
        step = undecided_step(spec, "causal", f"per-layer patterns at a symbolic n: {why}")
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim, tuple(tds))
    if n > MAX_SEQ_N:
        from .layers_chunks import chunk_outcome
        got = interval_outcome(spec, ffn_step, tds) or _sinks(spec, ffn_step, tds) or chunk_outcome(spec, ffn_step, tds)
        if got is not None:
            return got
    out = _views_outcome(spec, ffn_step, tds)
    if out.verdict == "INCONCLUSIVE" and all(s.proved for s in [ffn_step, *tds]):
        # the rooted views stopped at a work or time limit or their periodic search bound: the interval route
        # decides interval heads at any n, so no limit turns such a file INCONCLUSIVE
        got = interval_outcome(spec, ffn_step, tds) or _sinks(spec, ffn_step, tds)
        if got is not None:
            return got
    return out


def _sinks(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """Heads with attention sinks by Theorem F128 (§21.9), or None."""
    from .layers_sinks import sinks_outcome
    return sinks_outcome(spec, ffn_step, tds)


def _views_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """§21.5's decision by rooted views on the prefixes (where the layer graphs fit: rules/layers.fit_sequence)."""
    from .targets import TargetOutcome, not_causal_step, undecided_step

    def undecided(reason: str) -> TargetOutcome:
        step = undecided_step(spec, "causal", reason)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim, tuple(tds))

    desc = _describe(spec)
    n = spec.tokens
    if not isinstance(n, int):
        return undecided("per-layer patterns need an integer `tokens N`")
    try:
        fit_sequence(spec)
    except GraphTooLarge as exc:
        return undecided(str(exc))
    try:
        with time_limit("building the per-layer pattern graphs", 30.0):
            seq = build_sequence(spec)
    except (GraphTooLarge, ValueError, KeyError, BudgetExceeded) as exc:
        return undecided(str(exc))
    budget = spec.layers if isinstance(spec.layers, int) else None
    seq, _ = _network_layers(seq, budget)
    forward = causal_class(seq)
    if forward is not None:
        return undecided(f"layer {forward[0]} has the arc {forward[1]} → {forward[2]} from a later position: the "
                         "family is not in the causal class, and per-layer receptive classes are not analysed")
    limit = seq.depth
    if budget is not None:
        limit = budget if limit is None else min(limit, budget)
    reach = prefix_reach(seq, limit)
    if reach.depth is None:
        if reach.missing is None:
            return undecided("the prefix reach named no unreached pair")
        i, j = reach.missing
        where = "at any depth" if limit is None else f"within the network's {limit} attention layers"
        step = not_causal_step(spec, f"x_{j} never reaches position {i} {where} although {j} < {i}, so every "
                               f"model's output at {i} ignores x_{j}, while the causal target F(X)_{i} = x_{j} "
                               "depends on it", {"witness": {"i": i, "j": j, "target": f"F(X)_{i} = x_{j}"}})
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1], tuple(tds))
    rstep = reach_step(desc, LayersPrefixReach(seq, reach.depth, reach.missing))
    top = limit if limit is not None else reach.depth + SEARCH_PERIODS * seq.period + 2
    try:
        with time_limit("deciding the least number of layers for causal targets (rooted views per layer)", 60.0):
            least = causal_least_layers(seq, max(reach.depth, 1), top)  # n = 1: one layer is the fewest
    except BudgetExceeded as exc:
        return undecided(f"the least number of layers: {exc}")
    if least.layers is None and least.witness is not None and not least.reason and limit is not None:
        w = least.witness
        cert = CausalLayerWitness(seq, w.depth, w.position, w.permutation)
        cert.check()
        step = not_causal_step(spec, f"at the network's whole depth of {limit} attention layers the output at position "
                               f"{w.position} is the same for X and σX for a permutation σ that moves its prefix "
                               "(a causal view witness, §21.5), while a causal target tells them apart",
                               {"view witness": _witness_evidence(cert), "route": "view witness"})
        return TargetOutcome("causal", "NOT-UAP", None, False, (rstep, step), step.claim.split(": ", 1)[1],
                             tuple(tds))
    if least.layers is None:
        why = least.reason or (f"a causal view witness at every depth up to {top} (no bound is known beyond which "
                               "none exists, §21.5)")
        step = undecided_step(spec, "causal", f"the least number of layers: {why}")
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (rstep, step), step.claim, tuple(tds))
    wcert = None
    if least.witness is not None:
        w = least.witness
        wcert = CausalLayerWitness(seq, w.depth, w.position, w.permutation)
        wcert.check()
    lstep = layers_step(rstep, reach.depth, least.layers, CausalLayerViews(seq, least.layers, least.certificate), wcert)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (rstep, lstep), reason, tuple(tds))
    return TargetOutcome("causal", "UAP", least.layers, True, (rstep, lstep), "", tuple(tds))
