"""Per-layer causal heads with attention sinks for causal targets at any concrete n (docs/theory.md §21.9, Theorem
F128): `causal & window(w) + sinks(k)` in some layers, interval heads in the others, decided by arithmetic on the
widths and sink counts (the reach), the causal covering lemma (a count that suffices) and a transposition witness one
layer below (least); when the layers before the first of positive width have width 0 (sinks allowed, Theorem F157),
the out-set keys of Theorem F145 decide the least count exactly. Taken above §21.5's engine (n > 1,024) and where its rooted views stop at a limit.
"""
from __future__ import annotations

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import written
from ..layer_certificates import CausalSinkCount, CausalSinkForm, CausalSinkGrowth, CausalSinkValues
from .wording import token

CITE_SEQ_SINKS = proof.derived(
    "Definition 4", "Theorem 1",
    text="derived here: per-layer causal heads with attention sinks, the reach by the widths and sink counts, a "
         "sufficient count by the causal covering lemma and the least by a transposition witness (Theorem F128), "
         "exactly by out-set keys (Theorems F145, F157), docs/theory.md §21.9")


def _early_sinks(L, ell) -> list[int]:
    """The sink counts of the layers before ℓ₁ (Theorem F157's bands); empty without ℓ₁."""
    from ..graphs.layers_sinks import early_counts
    return [] if ell is None else list(early_counts(L, ell))


def _listed(counts: list[int]) -> str:
    return ", ".join(map(str, counts))


@proof.rule("SEQ-CAUSAL-SINKS",
            "Per-layer causal heads with attention sinks at any n: D_c, a sufficient count and the least (Theorem F128)",
            CITE_SEQ_SINKS, statuses=(proof.PROVED,),
            certificates=(CausalSinkCount, CausalSinkForm, CausalSinkValues, CausalSinkGrowth))
def sinks_step(desc: str, cert: "CausalSinkCount | CausalSinkForm | CausalSinkValues | CausalSinkGrowth") -> proof.Step:
    if isinstance(cert, CausalSinkForm):
        return _form_step(desc, cert)
    if isinstance(cert, CausalSinkGrowth):
        return _growth_step(desc, cert)
    if not isinstance(cert, CausalSinkCount):
        return _values_step(desc, cert)
    c = cert.count
    d, m = c.depth, c.layers
    statement = claim_of(
        "every head of every layer attends at v to an interval [v − w, v] and, when v > k, to the k sinks 1, …, k, so "
        "every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), " only, and after m "
        "layers exactly the first sinks and an interval as long as the widths' sum (Theorem F128): every prefix is "
        f"reached within {d} layer{'s' if d != 1 else ''}")
    ev: dict = {"patterns": desc, "D_c": d, "layers": m, "least": c.least,
                "heads": [[["∞" if w is None else w, k] for w, k in row] for row in cert.layers_.heads]}
    if c.missing is not None:
        v, j = c.missing
        statement += claim_of(f" (not within {d - 1}: ", token(j), f" does not reach position {v})")
        ev["not within D_c − 1"] = {"i": v, "j": j}
    why = (f"at depth {m} every position sees, in some layer with a head of width ≥ 1, its whole prefix through the "
           "layers above it, so no view has a symmetry moving its prefix (the causal covering lemma)")
    early = _early_sinks(cert.layers_, c.keys)
    if c.keys is not None and not early:
        why = (f"at depth {m} no two positions outside a root's view of layer {c.keys}, the first layer with a head "
               "of width ≥ 1, have the same out-sets into it, so no view has a symmetry moving its prefix (Theorem "
               "F145)")
        ev["sufficiency"] = {"rule": "out-set keys (F145)", "layer": c.keys}
    elif c.keys is not None:
        why = (f"at depth {m} no two positions outside a root's view of layer {c.keys}, the first layer with a head "
               f"of width ≥ 1, have the same out-sets into it and lie below the same sink counts {_listed(early)} of "
               "the layers before it, so no view has a symmetry moving its prefix (Theorems F145, F157)")
        ev["sufficiency"] = {"rule": "out-set keys (F145, F157)", "layer": c.keys, "earlier sink counts": early}
    if not c.least:
        statement += claim_of(f"; {m} attention layers suffice for causal targets ({why}); whether fewer do is not "
                              f"shown: D_c = {d} are needed")
    elif c.witness is None:
        statement += claim_of(f"; {m} attention layer{'s' if m != 1 else ''} suffice for causal targets and are "
                              f"least ({why})")
    elif c.twin is not None:
        i, dep, x, y = c.twin
        statement += claim_of(f"; {m} attention layers are needed and suffice for causal targets: with {dep} the "
                              f"output at position {i} is the same for X and σX, σ the transposition of positions "
                              f"{x} and {y}, which have the same out-sets into layer {c.keys}'s view "
                              f"{'(Theorem F145)' if not early else 'and lie below the same earlier sink counts (Theorem F157)'}"
                              f" and moves its prefix; {why}")
        ev["causal view witness"] = {"position": i, "depth": dep, "transposition": [x, y]}
    else:
        i, dep, j = c.witness
        statement += claim_of(f"; {m} attention layers are needed and suffice for causal targets: with {dep} the "
                              f"output at position {i} is the same for X and σX, σ the transposition of positions "
                              f"{j} and {j + 1}, which moves its prefix; {why}")
        ev["causal view witness"] = {"position": i, "depth": dep, "transposition": [j, j + 1]}
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": m, "least": c.least, "depth": d}, certificate=cert)


def sinks_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """The TargetOutcome for `target causal` on per-layer sink interval heads at a concrete n (None: outside F128 or
    no count found; a head without sinks everywhere is §21.6's)."""
    from ..graphs.layers_sinks import decide, sink_layers
    from .layers import _describe, budget_of, concrete_layer_patterns, network_rows
    from .targets import TargetOutcome
    got = concrete_layer_patterns(spec)
    if got is None:
        return None
    n, listed, periodic = got
    per_layer, periodic, limit = network_rows(listed, periodic, budget_of(spec))
    L = sink_layers(per_layer, periodic, n, limit)
    if L is None:
        return _values_outcome(spec, per_layer, periodic, limit, ffn_step, tds)
    if not L.counts():
        return None
    if any(k > n for k in L.counts()):
        return None
    c = decide(L)
    if c.layers is None:
        return _short_of_the_count(spec, L, c, tds)
    step = sinks_step(_describe(spec), CausalSinkCount(L, c))
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    return TargetOutcome("causal", "UAP", c.layers, c.least, (step,), "", tuple(tds))


def _param_rows(spec: S.Spec, per_layer) -> "tuple[tuple, dict] | None":
    """The (w, k) of each head of each listed layer, windows and sink counts possibly params, with the params' lower
    bounds; None when a head is not a sink interval head."""
    from ..graphs.layers_sinks import param_sink_head
    lower = {p.name: p.lower for p in spec.params if p.constraint.startswith("integer")}
    rows = []
    for pats in per_layer:
        got = [param_sink_head(p, lower) for p in pats]
        if any(g is None for g in got):
            return None
        rows.append(tuple(g for g in got if g is not None))
    return tuple(rows), lower


#: A concrete n with a param window or sink count is decided value by value up to this many values.
MAX_VALUES = 65_536


def _values_outcome(spec: S.Spec, per_layer, periodic: bool, limit, ffn_step: proof.Step, tds: list):
    """Sink heads at a concrete n whose windows or sink counts are one param: F128's decision at every value a file of
    n tokens allows (a sink count at most n; a window of n − 1 or more is the causal mask, so n − 1 stands for them),
    when every value gives one count, the least by D_c (None otherwise)."""
    from ..graphs.layers_sinks import SinkLayers, decide, instantiate
    from .layers import _describe
    from .targets import TargetOutcome
    n = spec.tokens
    if not isinstance(n, int):
        return None
    read = _param_rows(spec, per_layer)
    if read is None:
        return None
    heads, lower = read
    names = {x for row in heads for head in row for x in head if isinstance(x, str)}
    if len(names) != 1 or not any(k for row in heads for _, k in row):
        return None
    name = names.pop()
    top = n if any(k == name for row in heads for _, k in row) else n - 1
    values = range(lower.get(name) or 1, top + 1)
    if not 1 <= len(values) <= MAX_VALUES:
        return None
    seen = {(c.depth, c.layers, c.least) for c in
            (decide(SinkLayers(n, instantiate(heads, {name: v}), periodic, limit)) for v in values)}
    if len(seen) != 1:
        return None
    depth, layers, least = seen.pop()
    if layers is None or depth is None or (least and layers != max(depth, 1)):
        return None
    cert = CausalSinkValues(heads, periodic, limit, n, name, values.start, values.stop - 1, depth, layers, least)
    step = sinks_step(_describe(spec), cert)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    return TargetOutcome("causal", "UAP", layers, least, (step,), "", tuple(tds))


def _values_step(desc: str, cert) -> proof.Step:
    d, m = cert.depth, cert.layers
    statement = claim_of(
        "every head of every layer attends at v to an interval [v − w, v] and, when v > k, to the k sinks 1, …, k, so "
        "every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), f" only; at every value "
        f"{cert.param} = {cert.low}, …, {cert.high} (the values a file of {cert.n} tokens allows"
        f"{'' if cert.high == cert.n else f'; a window of {cert.n - 1} or more is the causal mask'}) Theorem F128 "
        f"gives D_c = {d} and {m} attention layer{'s' if m != 1 else ''} for causal targets (the causal covering "
        "lemma)" + (", the least (D_c layers are needed)" if cert.least else ", whether fewer do is not shown"))
    ev = {"patterns": desc, "D_c": d, "layers": m, "least": cert.least,
          "values": {"param": cert.param, "from": cert.low, "to": cert.high}}
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": m, "least": cert.least, "depth": d}, certificate=cert)


def _param_sinks_form_outcome(spec: S.Spec, per_layer, periodic: bool, ffn_step: proof.Step, tds: list):
    """F128 (e) with widths or sink counts given by params: C layers, least, for n ≥ max(2, W + K + 2, k*) in the
    params; the lengths below it are not decided (None: outside (e))."""
    from dataclasses import replace

    from ..graphs.layers_sinks import param_sink_form
    from .layers import _describe, budget_of, network_rows
    from .targets import TargetOutcome, _range_text
    read = _param_rows(spec, per_layer)
    if read is None:
        return None
    rows, lower = read
    names = sorted({x for row in rows for head in row for x in head if isinstance(x, str)})
    if not names or not any(k for row in rows for _, k in row):
        return None
    heads, periodic, limit = network_rows(rows, periodic, budget_of(spec))
    form = param_sink_form(heads, periodic, limit, lower)
    if form is None:
        return None
    cert = CausalSinkForm(heads, periodic, limit, form, tuple((x, lower[x]) for x in names))
    step = sinks_step(_describe(spec), cert)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    outcome = TargetOutcome("causal", "UAP", form.layers, True, (step,), "", tuple(tds),
                            range=_range_text(form.start, str(spec.tokens)), below=None, pieces=None)
    return replace(outcome, below_open="for param widths or sink counts (F128 (e) decides each at integer values)")


def _short_of_the_count(spec: S.Spec, L, c, tds: list):
    """NOT-UAP when the network's depth (a finite list or a budget) is below the count (docs/theory.md §21.9, F128
    (a) and (d)): x_j does not reach position v within it, or a transposition witness sits at root n at the whole
    depth; None when neither is shown."""
    from ..graphs.layers_sinks import WITNESS_WORK, find_witness
    from .targets import TargetOutcome, not_causal_step
    if L.limit is None:
        return None
    if c.depth is None and c.missing is not None:
        v, j = c.missing
        step = not_causal_step(spec, f"x_{j} does not reach position {v} within the network's {L.limit} attention "
                               f"layers although {j} < {v} (after m layers v reads the first sinks and an interval as "
                               f"long as the widths' sum, Theorem F128 (a)), so every model's output at {v} ignores "
                               f"x_{j}, while the causal target F(X)_{v} = x_{j} depends on it",
                               {"witness": {"i": v, "j": j, "target": f"F(X)_{v} = x_{j}"}})
    else:
        wit = find_witness(L, L.limit) if c.depth is not None and L.n * L.limit <= WITNESS_WORK else None
        pair, why = (None if wit is None else (wit[0], wit[1], wit[1] + 1)), "Theorem F128 (d)"
        if pair is None and c.depth is not None:
            pair, why = _twins_at_depth(L, L.limit), "twins of Theorem F145"
        if pair is None:
            return None
        i, j, j2 = pair
        said = {"position": i, "depth": L.limit, "j": j} | ({} if j2 == j + 1 else {"j2": j2})
        step = not_causal_step(spec, f"at the network's whole depth of {L.limit} attention layers the output at "
                               f"position {i} is the same for X and σX, σ the transposition of positions {j} and "
                               f"{j2}, which moves its prefix (a causal view witness, {why}), while a "
                               "causal target tells them apart",
                               {"sink witness": said, "route": "sink witness"})
    return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1], tuple(tds))


def _twins_at_depth(L, m: int):
    """(i, x, y): F145's twins at root i and depth m (None outside its premise or work, or without twins)."""
    from ..graphs.layers_sinks import WITNESS_WORK, key_layer, key_witness, key_work
    ell = key_layer(L)
    if ell is None or ell > m or key_work(L, ell, m) > WITNESS_WORK:
        return None
    return key_witness(L, ell, m)


def _form_step(desc: str, cert: CausalSinkForm) -> proof.Step:
    from ..show import show_size
    f = cert.form
    start, back = ((f.start, f.start - 2) if isinstance(f.start, int) else
                   (show_size(f.start), show_size(f.start - 2)))
    statement = claim_of(
        "every head of every layer attends at v to an interval [v − w, v] and, when v > k, to the k sinks 1, …, k, so "
        "every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"), f" only; for n ≥ "
        f"{start} the layers before layer {f.layers} (the first of width ∞) read at most {back} positions "
        f"back, so every prefix is reached within {f.layers} layers and not fewer, and layer {f.first_wide} (a head of "
        f"width ≥ 1) is seen whole from every position at that depth, so {f.layers} attention layers suffice for causal "
        "targets and are least (Theorem F128 (e))")
    ev = {"patterns": desc, "D_c": f.layers, "layers": f.layers, "least": True, "range": f"n ≥ {start}",
          "heads": [[["∞" if w is None else w, k] for w, k in row] for row in cert.heads]}
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": f.layers, "least": True, "depth": f.layers, "from": f.start},
                          certificate=cert)


def sinks_form_outcome(spec: S.Spec, ffn_step: proof.Step, tds: list):
    """`target causal` on sink interval heads at a symbolic n by F128 (e): C layers from the start on, each shorter
    length by the derivation at that n (None: outside F128 (e))."""
    from ..graphs.layers_sinks import sink_form, sink_head
    from .layers import _describe, budget_of, layer_patterns, network_rows
    from .targets import TargetOutcome, _with_range
    try:
        per_layer, periodic = layer_patterns(spec)
    except ValueError:
        return None
    rows = []
    for pats in per_layer:
        got = [sink_head(p) for p in pats]
        if any(g is None for g in got):
            return _param_sinks_form_outcome(spec, per_layer, periodic, ffn_step, tds)
        rows.append(tuple(g for g in got if g is not None))
    if not any(k for row in rows for _, k in row):
        return None
    heads, periodic, limit = network_rows(rows, periodic, budget_of(spec))
    form = sink_form(heads, periodic, limit)
    if form is None:
        return _growth_outcome(spec, heads, periodic, limit, ffn_step, tds)
    step = sinks_step(_describe(spec), CausalSinkForm(heads, periodic, limit, form))
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    outcome = TargetOutcome("causal", "UAP", form.layers, True, (step,), "", tuple(tds))
    return _with_range(spec, outcome, form.start)


def _growth_step(desc: str, cert: CausalSinkGrowth) -> proof.Step:
    from ..show import show_size
    f = cert.growth
    statement = claim_of(
        "every head of every layer attends at v to an interval [v − w, v] of finite width w and, when v > k, to the k "
        "sinks 1, …, k, so every model's output at i reads ", written("x_1, …, x_i", r"x_{1}, \ldots, x_{i}"),
        f" only, and after m layers the first sinks and the last W(0, m] + 1 positions ({f.total} per period of "
        f"{f.period}); for n ≥ {f.start} the least number of attention layers for causal targets is the least m with "
        f"W(0, m] ≥ n − 1 − {f.top_sink}, ", written(show_size(f.layers), sympy.latex(f.layers)), " (with fewer a "
        f"position misses an earlier token, and at that depth no two positions outside a view of layer {f.first_wide} "
        f"have the same out-sets into it: Theorems F145 and F146; from n = {f.bound} by the theorem, below it by F145 "
        "at each length)")
    ev: dict = {"patterns": desc, "layers": show_size(f.layers), "least": True, "range": f"n ≥ {f.start}",
                "first wide layer": f.first_wide, "widths per period": f.total,
                "heads": [[[w, k] for w, k in row] for row in cert.heads]}
    return proof.conclude(statement, proof.PROVED, evidence=ev,
                          facts={"layers": f.layers, "least": True, "from": f.start}, certificate=cert)


def _growth_outcome(spec: S.Spec, heads: tuple, periodic: bool, limit, ffn_step: proof.Step, tds: list):
    """F146 at a symbolic n (None outside it): the formula from the start on, each shorter length by the derivation
    at that n; the range is always stated (the verdict's lengths below carry counts, not the formula)."""
    from dataclasses import replace

    from ..graphs.layers_sinks import sink_growth
    from .layers import _describe
    from .targets import TargetOutcome, _range_text, _with_range
    growth = sink_growth(heads, periodic, limit, str(spec.tokens))
    if growth is None:
        return None
    step = sinks_step(_describe(spec), CausalSinkGrowth(heads, growth, str(spec.tokens)))
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    if failing:
        reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
        return TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), reason, tuple(tds))
    outcome = _with_range(spec, TargetOutcome("causal", "UAP", growth.layers, True, (step,), "", tuple(tds)),
                          growth.start)
    return outcome if outcome.range else replace(outcome, range=_range_text(growth.start, str(spec.tokens)))
