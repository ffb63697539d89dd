"""Run the rule engines on a Spec and assemble the derivation and its verdict."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Union

import sympy

from . import proof
from . import spec as S
from .asymptotics import Undecided
from . import budget
from .budget import BudgetExceeded, FileBudgetExceeded, stage
from .lower import FeatureKernel, Unsupported, ffn_activation, lower_head
from .graphs.normal_form import normalise_spec
from .rules import (analytic, budget_witness, complete_head, complex_scale, dense_bias, depth_one, ffn, heads, limit, means, nystrom, pattern, positions, ridge,
                    reweight_rows,
                    sink, small_lengths, symmetry, targets, verdict, witness)
from .render.notebook import ResultViews
from .expect import check_expect
from .groups import GroupInfo
from .memo import exact_cache, key_without
from .show import show_expr, show_head



@dataclass(frozen=True, repr=False)
class Result(ResultViews):
    spec: S.Spec
    verdict: str
    group: Optional[GroupInfo]
    layers: Union[int, sympy.Expr, None]
    root: proof.Step
    expect_holds: Optional[bool]
    expect_reason: str = ""
    target: Optional[targets.TargetOutcome] = None  # the verdict for a declared `target causal|receptive`
    alternative: Optional[targets.TargetOutcome] = None  # the class a NOT-UAP pattern does approximate


def _head_label(i: int, head: S.Head) -> str:
    return f"head {head.label or i + 1}"


def _premises_key(spec: S.Spec, i: int, head: S.Head) -> tuple:
    """Everything a head's kernel premises depend on: the head (every field: kernel, projection,
    bias, position, sharing and label; of its pattern only whether it is full, all the premises ask
    of it: the position rules and the witness search), its index, the declared params, the length
    and the number of heads (all the premises read of the spec), the side of the pattern for a head with
    a position term, and the budgets in force (the local
    budgets' scale and the file's budget: a step derived under one budget is not reused under
    another, where it could have run out). Heads that differ in their sparse pattern alone (most of
    a catalog) share their premises."""
    full = isinstance(head.pattern, S.Full)
    # a normalised reweight reads its rows' visible keys (rules/reweight_rows.py): its whole pattern is in the key
    rows = head.position is not None and head.position.kind == "reweight" and head.normalized
    kernel_head = head if full or rows else replace(head, pattern=_FULL)
    # a position term also asks whether the pattern's arcs lie on one side of the diagonal (Lemma O, §16.2)
    side = positions.pattern_side(head.pattern) if head.position is not None and not full else None
    # where the head and the params stand in the file is not read (steps name a head by its label or index; the
    # one error that names a line, an undefined kernel, is raised, never kept): the same head written at another
    # line of another file of a batch shares its premises
    return (key_without(spec.params, S.Loc), spec.tokens, len(spec.heads), i, key_without(kernel_head, S.Loc), full,
            side, budget.scale(), budget.file_seconds)


def _core_key(spec: S.Spec, i: int, head: S.Head) -> tuple:
    """`_premises_key` without the length when the head has no position in its weights, save whether it is 1 (the
    positivity forms that need two keys per row are not used then): the steps before the
    witness route (lowering, positivity, projections, Nyström, LIM, analyticity, the moment routes) read no other
    length then (only the position rules and the witness route do), so the lengths below a by-class range,
    derived one by one, share them."""
    key = _premises_key(spec, i, head)
    # a symbolic length is kept: the third and fourth forms of WP-POSITIVE then state the range n ≥ 2 (§4, §12)
    return key if head.position is not None else (key[0], key[1] if key[1] == 1 or isinstance(key[1], str) else None,
                                                  *key[2:])


_FULL = S.Full()


@exact_cache(maxsize=256, key=_core_key)
def _kernel_core(spec: S.Spec, i: int, head: S.Head):
    """The premises of head i up to the witness route: ((TD step, ill-posed?), None) when they are finished
    there, else (None, (model, TD step, LIM step, analyticity step)) for `_kernel_premises` to go on from."""
    label = _head_label(i, head)
    try:
        model = lower_head(spec, head)
    except Unsupported as exc:
        return (limit.unsupported(label, str(exc)), False), None
    _reject_undefined(model, head)
    # no length read here beyond n = 1 (_core_key keeps only that): the third and fourth forms of WP-POSITIVE need
    # n ≥ 2 keys per row, which `tokens 1` does not have (its one row's normaliser k(q, k) vanishes on the quadric
    # q·k = 0 in the parameters, which splits them)
    one_token = spec.tokens == 1
    dense = (isinstance(head.pattern, S.Full) and not head.tie and head.projection is None and not head.nystrom
             and not one_token)
    zero_row = reweight_rows.zero_row(spec, head)
    pos = analytic.positive_kernel(model, head.normalized, dense, tied=bool(head.tie), zero_row=zero_row,
                                   mixed_row=None if zero_row else reweight_rows.mixed_row(spec, head, model),
                                   length=spec.tokens if isinstance(spec.tokens, str) else None)
    if head.normalized and pos.status == proof.REFUTED:
        return (pos, True), None
    if head.projection:
        an = analytic.analytic_structural(model, pos, head.normalized, tied=bool(head.tie))
        return (verdict.td_linformer(an, pos, head.projection.fixed, head.projection.size, label,
                                     analytic.zero_key_positive(model)), False), None
    lim_model = model
    extra = []
    if head.nystrom and head.normalized:
        pos = analytic.nystrom_sign()
    if head.nystrom:
        nys, fk = nystrom.nystrom_model(head, model)
        extra.append(nys)
        if fk is None:
            return (verdict.td_kernel(nys, analytic.analytic_structural(model, pos, head.normalized, tied=bool(head.tie)), label), False), None
        lim_model = fk
    red = limit.reduce_step(lim_model, show_head(head))
    try:
        lim = limit.limit_premise(lim_model, head.affine, red)
    except (Undecided, BudgetExceeded) as exc:
        lim = limit.CLASS_RULES["LIM-UNDECIDED"](lim_model, head.affine, red, [], {}, str(exc))
    if extra:
        lim = _attach(lim, extra)
    region = None
    if lim.proved and lim.facts.get("region") and isinstance(lim_model, FeatureKernel):
        # Coordinate regions {(W y + b)_r < 0 for every token} are convex in (W, b), hence connected,
        # so Theorem 2 may be used on them; score regions (bilinear in the parameters) are not shown
        # connected, so there the layer must be analytic everywhere.
        region = _region_signs(lim.facts["region"])
    an = analytic.analytic_structural(model, pos, head.normalized, region, tied=bool(head.tie))
    td = verdict.td_kernel(lim, an, label)
    return None, (model, _moment_routes(spec, head, model, td, lim, an, label), lim, an)


@exact_cache(maxsize=256, key=_premises_key)
def _kernel_premises(spec: S.Spec, i: int, head: S.Head):
    """(TD step, ill-posed?) for head i. Kept per process (uapcheck/memo.py; docs/theory.md §19): the
    steps are finished theorems about exactly the inputs of the key (`_premises_key`), made and
    checked by the kernel once; the suggestion search re-derives edited specs with the same heads."""
    label = _head_label(i, head)
    finished, core = _kernel_core(spec, i, head)
    if finished is not None:
        if head.sink is None:
            return finished
        # a sink logit changes the normaliser: an ill-posed or unsupported sink-free head leaves it open
        return sink.sink_step(head, None, finished[0], label), False
    model, td, lim, an = core
    td = _witness_route(spec, head, model, td, lim, an, label)
    if spec.tokens == 1 and not td.proved and td.rule == "TD-KERNEL" and _well_posed(head, an):
        td = verdict.td_kernel(lim, an, label, one_token=True)
    if head.bias:
        td = verdict.td_bias(td, head.bias, label)
    if head.position is not None:
        td = positions.position_td(spec, head, model, an, td, label)
    if head.differential:
        td = heads.differential(td, label)
    if head.sink is not None:
        td = sink.sink_step(head, model, td, label)
    if head.heads is not None:
        td = heads.shared_heads(head, td, label)
    return td, False


def _well_posed(head: S.Head, an: proof.Step) -> bool:
    """The head's layer is defined everywhere: unnormalised, or normalised with the kernel proved positive (the
    WP-POSITIVE premise of its analyticity step)."""
    return not head.normalized or any(p.rule == "WP-POSITIVE" and p.proved for p in an.premises)


def _moment_routes(spec: S.Spec, head: S.Head, model, td: proof.Step, lim: proof.Step, an: proof.Step,
                   label: str) -> proof.Step:
    """When (LIM) does not give TD-KERNEL: the moment routes (docs/theory.md §20)."""
    if td.proved:
        return td
    params = frozenset(p.name for p in spec.params)
    if ridge.applies(head, model, params):
        # Corollary 5's scores α(q·k) with bias terms, and radial kernels g(|q − k|²).
        td = ridge.separation_step(model, head, params, an, lim, label)
    if not td.proved:
        # an entire even profile α(q·k): an imaginary key scale gives a kernel with (LIM) (§20.10, Theorem F172)
        td = complex_scale.complex_route(model, head, an, lim, label) or td
    return td


def _witness_route(spec: S.Spec, head: S.Head, model, td: proof.Step, lim: proof.Step, an: proof.Step,
                   label: str) -> proof.Step:
    """When neither (LIM) nor a moment route gives TD-KERNEL: an exact one-layer witness (docs/theory.md
    §20), which needs as many tokens as the witness has points."""
    if not td.proved:
        found = witness.find_witness(model, head, len(spec.heads))
        if found is not None and not (isinstance(spec.tokens, int) and spec.tokens < len(found.left) + 1):
            td = witness.td_witness(found, spec.tokens, lim, an, label)
    return td

def _reject_undefined(model, head: S.Head) -> None:
    """A kernel that SymPy evaluates to ∞ or NaN (e.g. a division by 0 hidden in a product) is an
    input error at the head, not something to reason about."""
    from .errors import UapError
    exprs = [model.scaled, model.plain] if hasattr(model, "scaled") else [e for part in model.parts for e in part]
    if any(e.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) for e in exprs):
        raise UapError("the kernel is undefined: it evaluates to ∞ or NaN (a division by zero or the "
                       "log of zero)", head.loc.line, head.loc.column)


def _attach(step: proof.Step, extra: list) -> proof.Step:
    return step if not extra else nystrom.with_premises(step, extra)


def _region_signs(signs) -> dict:
    """The region's signs as Context assumptions. Queries and keys go through the same feature map,
    and the same bias sign reaches both: a sign on the key coordinate z[r] holds for x[r] too."""
    from .lower import KEY_COORD, QUERY_COORD
    out = dict(signs)
    if KEY_COORD in out:
        out[QUERY_COORD] = out[KEY_COORD]
    return out


def _position_classes(spec: S.Spec):
    """(the spec the group engines see, reasons, why the group is undecided or ""): each head with
    positions in its weights gets the trainable-bias kind with the same classes (docs/theory.md §16)."""
    from dataclasses import replace
    heads, reasons, undecided = [], {}, ""
    for i, head in enumerate(spec.heads):
        if head.position is None:
            heads.append(head)
            continue
        try:
            model = lower_head(spec, head)
        except Unsupported:
            model = None
        kind, why = positions.effective_bias(spec, head, model)
        if kind is None:
            undecided = f"{_head_label(i, head)}: {why}"
            kind = "free"  # only for the pattern structure; the group is reported undecided
        reasons[i] = (kind, why)
        heads.append(replace(head, bias=kind, position=None))
    return replace(spec, heads=tuple(heads)), reasons, undecided


def pattern_spec(spec: S.Spec, group_spec: Optional[S.Spec] = None) -> tuple[S.Spec, tuple, frozenset]:
    """The spec the pattern engines decide (connectivity, layers, group), the normal-form rewrites that lead to it,
    and the heads whose bias kind stands for fixed position weights that no separation lemma covers (not a trainable
    bias, §11.10; a fixed bias or factor on a sparse normalised softmax head, injective on its classes, is covered by
    Lemma V^ρ, §14.11(f), Theorem F161; complete heads keep their own rules: Lemma E, Theorems F141, F149): positions in the weights as the trainable bias with the same offset classes
    (`_position_classes`), a union written in several parts as the pattern it is (docs/theory.md §11.13). The
    certificate's pattern data are re-read from this spec, so they state what the derivation's steps prove."""
    from .rules.positions import fixed_softmax_classes
    if group_spec is None:
        group_spec = _position_classes(spec)[0]
    fixed = frozenset(k for k, h in enumerate(spec.heads) if h.position is not None and h.position.kind != "buckets"
                      and (isinstance(h.pattern, S.Full) or fixed_softmax_classes(spec, h) is None))
    normal_spec, rewrites = normalise_spec(group_spec)
    return normal_spec, rewrites, fixed


def check_spec(spec: S.Spec, budget_seconds: Optional[float] = None) -> Result:
    """The derivation and verdict of a file, within one CPU-time budget for the whole file (default
    `budget.file_seconds`, the CLI's --budget). Running out of it, or of memory, gives INCONCLUSIVE
    naming the step and the budget (rule BUDGET). SymPy's units and tensor modules are not imported
    on the way (uapcheck/lazy.py: the same answers without them)."""
    from .lazy import sympy_stand_ins
    from .stack import deep_recursion
    try:
        with budget.file_budget(budget_seconds), sympy_stand_ins(), deep_recursion(), proof.about_file(spec.tokens):
            return _check_spec(spec)
    except FileBudgetExceeded as exc:
        if budget.enclosing_file_budget_expired():
            raise  # an enclosing check's budget, not this file's
        return budget_result(spec, exc.step, exc.budget)
    except MemoryError as exc:
        return budget_result(spec, getattr(exc, "uap_step", "starting"), budget.memory_budget_text())


def budget_result(spec: S.Spec, step: str, what: str) -> Result:
    """The result of a file whose budget ran out: INCONCLUSIVE, naming the step and the budget."""
    from .rules.resources import budget_step
    root = budget_step(step, what)
    holds, reason = (None, "") if spec.expect is None else (
        False, f"the {what} ran out in: {step}, so the expectation is not checked")
    return Result(spec, "INCONCLUSIVE", None, None, root, holds, reason)


def _check_mixer(spec: S.Spec, ffn_step) -> Result:
    """A token mixer that is not attention (`convolution`): docs/theory.md §21."""
    from .rules import convolution
    with stage("the convolution mixer's group, reach and layers"):
        group_step, group, structure, layers, obstruction = convolution.convolution_premises(spec)
    decision = verdict.at_length(verdict.decide(ffn_step, [], structure, group_step, spec.dim), spec.tokens)
    decided, group, layers = verdict.outcome(ffn_step, [], structure, group_step, spec.dim, decision)
    verdict_name = decided.value
    # the lengths below a range that starts above 2 (Lemma P's, docs/theory.md §22.6), each decided at that n (§12)
    with stage("the lengths below the stated range"):
        classes = [s.facts["residue_class"] for s, _ in verdict.class_verdicts(structure, group_step, decided,
                                                                                decision[1])]
        lengths, open_below = small_lengths.below_range(spec, decided, group, layers, classes,
                                                        verdict.obstruction_range(decision[1]))
    root = verdict.verdict_step(ffn_step, [], structure, group_step, spec.dim, unit="convolution", lengths=lengths,
                                open_below=open_below, decided=decision)
    shown_layers = layers if verdict_name == "UAP" else None
    with stage("checking `expect`"):
        holds, reason = check_expect(spec, verdict_name, group, shown_layers, root.facts.get("by_class", ()),
                                     root=root)
    return Result(spec, verdict_name, group if verdict_name == "UAP" else None, shown_layers, root, holds, reason)


def _ffn_text(block: S.FFN) -> str:
    if block.kind == "none":
        return "none"
    if block.kind == "named" or block.expr is None:
        return block.name or ""
    return f"{block.name}({block.var}) = {show_expr(block.expr)}"


def _zero_value(spec: S.Spec, j: int, td: proof.Step, k: int) -> proof.Step:
    with proof.about_head(str(spec.heads[j].label or j + 1)):
        return heads.zero_value(td, _head_label(j, spec.heads[j]), _head_label(k, spec.heads[k]), k)


def _ffn_key(sigma, z, text: str) -> tuple:
    """Everything Definition 2's step depends on: the activation σ and its variable, the FFN as the file writes
    it (the step's evidence), and the budgets in force (the scale of the local budgets: σ's affinity test has
    one; and the file's budget)."""
    return (sigma, z, text, budget.scale(), budget.file_seconds)


@exact_cache(maxsize=64, key=_ffn_key)
def _ffn_step(sigma, z, text: str) -> proof.Step:
    """FFN-DEF2 for the activation σ, kept per process as a finished step (uapcheck/memo.py; docs/theory.md §19),
    as a head's kernel premises are: every file of a batch with the same FFN, every length below a range and
    every edit of the suggestion search concludes the same step from the same inputs."""
    return ffn.ffn_definition2(sigma, z, text)


def _met_with_full(spec: S.Spec) -> tuple[S.Spec, tuple[str, ...]]:
    """The spec with each head `P & full` read as P (`full & full` as `full`; graphs/normal_form.without_full: `full`
    has every arc, so the intersection with it removes none) and each union with `full` among its parts as `full`,
    and the rewrites' reasons. Every rule then sees the
    head as the pattern it is: a complete head takes the dense heads' path (its bias, its kernel premises), a
    `causal & window(w) & full` head the causal targets' (docs/theory.md §11.13)."""
    from .graphs.normal_form import normalise, without_full
    heads: list = []
    reasons: list[str] = []
    for i, h in enumerate(spec.heads):
        label = f"head {h.label or i + 1}: " if len(spec.heads) > 1 else ""
        pattern, dropped = without_full(h.pattern)  # `(P & full) & full` is P
        reasons.extend(label + r for r in dropped)
        if isinstance(pattern, S.PatternUnion):  # a union with `full` among its parts (`window(1) + full`) is `full`
            form = normalise(pattern)
            if isinstance(form.pattern, S.Full):
                reasons.extend(label + r for r in form.reasons)
                pattern = form.pattern
        heads.append(h if pattern is h.pattern else replace(h, pattern=pattern))
    return (spec, ()) if not reasons else (replace(spec, heads=tuple(heads)), tuple(reasons))


def _check_spec(spec: S.Spec) -> Result:  # noqa: C901 - orchestration; the verdict chain moves into the VERDICT rules
    written = spec
    spec, met = _met_with_full(spec)
    sigma, z = ffn_activation(spec)
    ffn_step = _ffn_step(sigma, z, _ffn_text(spec.ffn))

    if spec.mixer is not None:
        return _check_mixer(spec, ffn_step)

    normal_premises: list = []
    tds = []
    for i, head in enumerate(spec.heads):
        with proof.about_head(str(head.label or i + 1)):
            try:
                with stage(f"analysing {_head_label(i, head)}"):
                    td, _ = _kernel_premises(spec, i, head)
            except BudgetExceeded as exc:
                td = limit.unsupported(_head_label(i, head), str(exc))
        tds.append(td)

    diameter: object = 1
    layers: object
    # Positions in the weights act on the group as the trainable bias with the same offset classes.
    group_spec, position_reasons, undecided_group = _position_classes(spec)
    if any(not isinstance(h.pattern, S.Full) for h in spec.heads):
        with stage("the attention pattern's connectivity, layers and symmetry group"):
            normal_spec, rewrites, fixed = pattern_spec(spec, group_spec)
            rewrites = met + rewrites  # each head as written against its normal form
            normal = [pattern.normal_form_step(tuple((k, a.pattern, b.pattern) for k, (a, b) in
                                                     enumerate(zip(written.heads, normal_spec.heads))
                                                     if a.pattern != b.pattern), rewrites)] if rewrites else []
            outcome = pattern.pattern_premises(normal_spec, fixed)
        group_step, group, layers, obstruction = outcome.group_step, outcome.group, outcome.layers, outcome.obstruction
        structure, diameter = [*normal, *outcome.structure], outcome.diameter
        alone = complete_head.one_layer(spec, tds, structure, group) if obstruction is None else None
        if alone is None and obstruction is None:  # fixed offset weights at D = 1 (Theorem F149, §16.5)
            alone = depth_one.one_layer(spec, group_spec, tds, structure, group)
        if alone is not None:  # a complete head separating alone w.r.t. the trivial group (Theorem F141, §16.5)
            structure, layers = alone, 1
    else:
        with stage("the symmetry group"):
            group_step, group = symmetry.dense_symmetry(group_spec, position_reasons)
        structure, layers, obstruction = [], 1, None
        if met:  # heads written `full & full`: the dense heads' premises, beside the rewrite that makes them so
            normal_premises = [pattern.normal_form_step(tuple((k, a.pattern, b.pattern) for k, (a, b) in
                                                              enumerate(zip(written.heads, spec.heads))
                                                              if a.pattern != b.pattern), met)]
        if dense_bias.applies(spec):
            with stage("the layers of dense heads with a symmetric bias"):
                structure = [dense_bias.dense_bias_layers(spec, tds)]
            if structure[0].proved:
                layers = structure[0].facts["layers"]  # a `layers M` budget is checked against this count
    if undecided_group:
        trivial = complete_head.trivial_group(spec, group_spec, tds)  # a complete head with offset classes (F150)
        group_step, group = trivial or (symmetry.group_undecided("; ".join(show_head(h) for h in spec.heads),
                                                                 undecided_group), None)

    if not structure and group_step.proved:
        k = heads.separating_head(spec, tds, group)
        if k is not None:  # Lemma Z (docs/theory.md §17.3): the open heads get W_V = 0
            tds = [_zero_value(spec, j, td, k) if j != k and heads.left_out(td, tds[k]) else td
                   for j, td in enumerate(tds)]

    if not structure and group_step.proved and group is not None and group.name == "S_n" and spec.layers is None \
            and spec.target == "equivariant":
        route = means.applies(spec, tds[0], ffn_step) if len(tds) == 1 else None
        if route is not None:  # Lemma M (docs/theory.md §20.9): an FFN block, then uniform weights
            with proof.about_head(str(spec.heads[0].label or 1)):
                tds = [means.means_step(tds[0], route[0], ffn_step, route[1], _head_label(0, spec.heads[0]))]

    if spec.positional == "absolute" and group is not None:
        tds = [verdict.pe_lift(td) for td in tds]

    # a budget below a count that a view witness shows least (docs/theory.md §11.12): NOT-UAP with the witness
    # a budget against a count by residue class of n: decided class by class (docs/theory.md §12)
    layer_step = next((s for s in structure if s.rule == "PAT-LAYERS"), None)
    by_class = pattern.budget_by_class(spec, layer_step, group) if obstruction is None else None
    budget_fail = budget_witness.budget_step(spec, structure) if obstruction is None and by_class is None else None
    if budget_fail is None and obstruction is None and by_class is None:
        least = layer_step.facts.get("least") if layer_step is not None and layer_step.proved else None
        connected = next((s for s in structure if s.rule == "PAT-CONNECTED" and s.proved), None)
        budget_fail = pattern.budget_check(spec, layers, diameter, least, connected, group)
    if budget_fail is not None:
        structure = [*structure, budget_fail]
    structure = [*structure, *(by_class or ())]
    decided = verdict.at_length(verdict.decide(ffn_step, tds, structure, group_step, spec.dim), spec.tokens)
    verdict_name, group, layers = verdict.outcome(ffn_step, tds, structure, group_step, spec.dim, decided)
    # the lengths below a range stated by residue class, each decided at that n (docs/theory.md §12)
    with stage("the lengths below the stated range"):
        why = decided[1]  # the deciding obstruction
        classes = [s.facts["residue_class"] for s, _ in verdict.class_verdicts(structure, group_step, verdict_name,
                                                                                why, tds)]
        lengths, open_below = small_lengths.below_range(spec, verdict_name, group, layers, classes,
                                                        verdict.obstruction_range(why))

    def make_root(extra):
        return verdict.verdict_step(ffn_step, tds, structure, group_step, spec.dim, [*normal_premises, *extra],
                                    lengths=lengths, open_below=open_below, decided=decided)
    # A declared target class (or, for a NOT-UAP pattern, the class it does approximate): §14.
    # The target analysis sees the heads as written: positions in the weights change the causal layer
    # count (ALiBi and RoPE see the order of a prefix in one layer, docs/theory.md §14.11).
    decision = targets.decide(spec, ffn_step, tds, structure, group_step, group, obstruction, verdict_name.value,
                              layers, make_root)
    verdict_name, layers, root = decision.verdict, decision.layers, decision.root
    # The group is the family's whatever the verdict; a number of layers exists only for UAP.
    shown_layers = layers if verdict_name == "UAP" else None
    with stage("checking `expect`"):
        holds, reason = check_expect(spec, verdict_name, group, shown_layers, root.facts.get("by_class", ()),
                                     root=root)
    # The group is the verdict's: only a UAP verdict names one (as the JSON does).
    return Result(spec, verdict_name, group if verdict_name == "UAP" else None, shown_layers, root, holds, reason,
                  decision.outcome, decision.alternative)
