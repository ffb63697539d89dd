"""Target classes: causal maps and the receptive-field class of a pattern (docs/theory.md §14).

The paper's targets are the G-equivariant maps; a pattern that is not strongly connected (every
causal mask) is NOT-UAP for them. Such a family approximates exactly its *receptive-field class*:
maps whose i-th output depends only on the positions that reach i, agreeing on isomorphic receptive
fields. For a causal-class pattern whose union has every arc k − 1 → k this class is the class of
causal maps, F(X)_i = f_i(x_1, …, x_i). This module decides that class, its least number of
attention layers (the receptive diameter r, or r + 1 with a witness), and the verdict for it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import sympy

from .. import proof
from .. import spec as S
from ..budget import BudgetExceeded, time_limit
from ..show import show_pattern

CITE_TGT = ("derived here: receptive-field classes, the causal analogue of Definition 3 and Theorem 1, and the "
            "receptive view argument, docs/theory.md §14")
TARGETS = ("equivariant", "causal", "receptive")
CLASS_TEXT = {"causal": "causal targets (F(X)_i depends only on x_1, …, x_i)",
              "receptive": "receptive-field targets (F(X)_i depends only on the positions that reach i)"}


@dataclass(frozen=True)
class TargetOutcome:
    """The verdict for a target class other than the G-equivariant maps (typed, for JSON and panels)."""
    target: str  # "causal" | "receptive"
    verdict: str  # "UAP" | "NOT-UAP" | "INCONCLUSIVE"
    layers: Union[int, sympy.Expr, None]
    least: bool
    steps: tuple = field(default=())  # derivation steps (premises of the verdict step)
    reason: str = ""

    def record(self) -> dict:
        lay = self.layers
        if lay is not None and not isinstance(lay, int):
            lay = sympy.sstr(lay)
        return {"target": self.target, "verdict": self.verdict, "layers": lay, "least": self.least,
                "reason": self.reason or None}

    def phrase(self) -> str:
        """"UAP for causal targets with 2 attention layers" (the panel's second half)."""
        if self.verdict == "UAP":
            lay = self.layers if isinstance(self.layers, int) else sympy.sstr(self.layers)
            least = "" if self.least else " (sufficient, not shown least)"
            return (f"UAP for {self.target} targets with {lay} attention layer{'' if self.layers == 1 else 's'}"
                    f"{least}")
        return f"{self.verdict} for {self.target} targets"


# ---------------------------------------------------------------------------------------------
# Structural recognition (any n): the full causal mask and the causal window.

def _window_width(p: S.Pattern) -> Optional[int]:
    """w for a causal window: non-cyclic `offsets {−w, …, −1}` (0 optional), or `causal & window(w)`."""
    if isinstance(p, S.Offsets) and not p.cyclic and all(isinstance(o, int) for o in p.offsets):
        neg = {o for o in p.offsets if o != 0}
        if not neg or max(neg) > -1:
            return None
        w = -min(neg)
        return w if neg == set(range(-w, 0)) else None
    if isinstance(p, S.PatternIntersection) and len(p.parts) == 2:
        kinds = {type(q) for q in p.parts}
        if kinds == {S.Causal, S.Window}:
            win = next(q for q in p.parts if isinstance(q, S.Window))
            if not win.cyclic and isinstance(win.w, int) and win.w >= 1:
                return win.w
    return None


def _head_kind(p: S.Pattern) -> Optional[tuple[str, int, int]]:
    """("causal", 0, k) or ("window", w, k): a causal mask or causal window, with k attention sinks (k ≥ 0)."""
    sinks = 0
    if isinstance(p, S.PatternUnion) and len(p.parts) == 2 and any(isinstance(q, S.Sinks) for q in p.parts):
        sink = next(q for q in p.parts if isinstance(q, S.Sinks))
        if not isinstance(sink.k, int) or sink.k < 1:
            return None
        sinks, p = sink.k, next(q for q in p.parts if not isinstance(q, S.Sinks))
    if isinstance(p, S.Causal):
        return ("causal", 0, 0)  # sinks add nothing to the full causal mask
    w = _window_width(p)
    return None if w is None else ("window", w, sinks)


def _causal_kind(patterns) -> Optional[tuple[str, int, int]]:
    """The common kind of every head (the same causal mask or causal window, with the same sinks)."""
    kinds = {_head_kind(p) for p in patterns}
    if len(kinds) == 1 and None not in kinds:
        return kinds.pop()
    return None


def _causal_closed(kind: tuple[str, int, int], n) -> tuple:
    """(r, least layers, method) for the full causal mask, or a causal window of width w with k sinks.

    Window with k sinks (k = 0: none), n ≥ k + w + 2: r = ⌈(n − k − 1)/w⌉ ≥ 2 (from position k + 1 to n;
    the sinks are one hop from every later position), and no receptive witness exists (§14.7)."""
    name, w, k = kind
    symbolic = not isinstance(n, int)
    if name == "window" and (symbolic or n >= k + w + 2):
        far = (n - k - 1) / sympy.Integer(w)
        inner = sympy.Integer(k - 1) / w
        # symbolic n: the case n ≥ max(k + w + 2, 2k), where the far pair (k + 1 → n) is the farthest
        r = sympy.ceiling(far) if symbolic else max(int(sympy.ceiling(far)), int(sympy.ceiling(inner)))
        sink = f" with {k} attention sink{'s' if k != 1 else ''}" if k else ""
        return r, r, (f"causal window of width {w}{sink}: the depth-r view of every position fixes the order of its "
                      "prefix (σ is increasing along the arcs into the known part, which then fix the rest, §14.7)")
    if name == "window" and k:
        return None  # a short window with sinks: left to the search
    # the full causal mask (a window with w ≥ n − 1 is the full mask)
    if isinstance(n, int) and n <= 2:
        return (1 if n == 2 else 0), 1, "n ≤ 2: one layer sees x_i and the set of the prefix, which fixes its order"
    return 1, 2, ("full causal mask: one layer sees only the set {x_1, …, x_i} (the order of a prefix of length ≥ 2 "
                  "before i is lost); two layers see the nested prefix sets and recover it (§14.6)")


# ---------------------------------------------------------------------------------------------
# Rules

def _desc(spec: S.Spec) -> str:
    return "; ".join(f"head {h.label or i + 1}: {show_pattern(h.pattern)}" for i, h in enumerate(spec.heads))


@proof.rule("TGT-RECEPTIVE", "The receptive-field class of the pattern (causal maps for a causal mask)", CITE_TGT, statuses=(proof.PROVED,))
def receptive_step(spec: S.Spec, target: str, radius, evidence: dict) -> proof.Step:
    r = radius if isinstance(radius, int) else sympy.sstr(radius)
    if target == "causal":
        what = ("every arc goes from an earlier position to a later one and every position k − 1 attends-reaches k, "
                "so the receptive field of i is {1, …, i} and the family's models are exactly causal: its target "
                "class is the causal maps F(X)_i = f_i(x_1, …, x_i)")
    else:
        what = ("the family's models are receptive: F(X)_i depends only on the tokens at the positions that reach "
                "i, and agrees at i and j whenever a head-preserving isomorphism of the receptive fields carries i "
                "to j: that is its target class")
    return proof.conclude(f"{what}; receptive diameter r = {r}: fewer than r attention layers leave some x_j out of "
                          "the output at a position it reaches", proof.PROVED,
                          evidence=dict(evidence, patterns=_desc(spec), target=target, radius=radius))


@proof.rule("TGT-LAYERS", "Least attention layers for the receptive-field class: r or r + 1", CITE_TGT, statuses=(proof.PROVED,))
def layers_step(receptive: proof.Step, target: str, radius, layers, least: bool, method: str,
                witness: Optional[dict] = None) -> proof.Step:
    lay = layers if isinstance(layers, int) else sympy.sstr(layers)
    r = radius if isinstance(radius, int) else sympy.sstr(radius)
    if least and layers == radius:
        claim = f"{lay} attention layer{'s' if layers != 1 else ''} (= r) suffice for {target} targets and are the least"
    elif least:
        claim = (f"{lay} attention layers are needed and suffice for {target} targets: with r = {r} layers some "
                 f"position cannot tell two inputs that the class separates")
    else:
        claim = (f"{lay} attention layers suffice for {target} targets (r + 1, the receptive view argument); "
                 f"r = {r} are necessary, and whether they suffice is not decided: sufficient, not shown least")
    ev = {"radius": radius, "layers": layers, "least": least, "method": method}
    if witness:
        ev["receptive witness"] = witness
    return proof.conclude(f"{claim} ({method})", proof.PROVED, [receptive], ev)


@proof.rule("TGT-UNDECIDED", "Target-class analysis undecided", CITE_TGT, statuses=(proof.UNDECIDED,))
def undecided_step(spec: S.Spec, target: str, reason: str) -> proof.Step:
    return proof.conclude(f"the analysis for {target} targets is undecided: {reason}", proof.UNDECIDED,
                          evidence={"patterns": _desc(spec), "target": target, "reason": reason})


@proof.rule("TGT-NOT-CAUSAL", "A family that cannot represent every causal map: NOT-UAP for causal targets", CITE_TGT, statuses=(proof.PROVED,))
def not_causal_step(spec: S.Spec, why: str, evidence: dict) -> proof.Step:
    return proof.conclude(f"NOT-UAP for causal targets: {why}", proof.PROVED,
                          evidence=dict(evidence, patterns=_desc(spec)))


@proof.rule("TGT-BUDGET", "A layer budget below the least layers of the receptive-field class", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED))
def budget_step(spec: S.Spec, target: str, radius, layers, least: bool, proved: bool, evidence: dict) -> proof.Step:
    if proved:
        why = (f"`layers {spec.layers}` is below the receptive diameter r = {radius}: some x_j reaches position i "
               f"only in more hops, so the output at i ignores x_j, while the target F(X)_i = Σ_(l reaches i) x_l "
               f"of the class depends on it" if spec.layers < radius else
               f"`layers {spec.layers}` is below the least {layers} layers: the receptive witness shows that "
               f"{spec.layers} layer{'s' if spec.layers != 1 else ''} cannot tell apart two inputs the class "
               "separates")
        return proof.conclude(f"NOT-UAP for {target} targets: {why}", proof.PROVED, evidence=evidence)
    return proof.conclude(f"`layers {spec.layers}` reaches every position (r = {radius}) but is below the {layers} "
                          "layers shown sufficient; whether it suffices is not decided", proof.UNDECIDED,
                          evidence=evidence)


@proof.rule("TGT-VERDICT", "Theorem 1 for the receptive-field class (causal form)", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED))
def verdict_step(target: str, verdict: str, claim: str, premises: list) -> proof.Step:
    status = proof.PROVED if verdict in ("UAP", "NOT-UAP") else proof.UNDECIDED
    return proof.conclude(claim, status, premises, {"target": target, "verdict": verdict})


# ---------------------------------------------------------------------------------------------
# The analysis

def _has_only_patterns(spec: S.Spec) -> bool:
    return all(h.projection is None for h in spec.heads)


def _structure(spec: S.Spec):
    """(target, r, far, least layers, exact?, method, witness, missing) or an undecided reason (str)."""
    patterns = [h.pattern for h in spec.heads]
    n = spec.tokens
    kind = _causal_kind(patterns)
    closed = None
    if kind is not None and (isinstance(n, str) or n > 8):
        closed = _causal_closed(kind, n if isinstance(n, int) else sympy.Symbol(n, integer=True, positive=True))
    if closed is not None:
        r, lay, method = closed
        if spec.positional == "absolute":
            lay, method = (r if not isinstance(r, int) else max(r, 1)), ("an absolute positional encoding labels every token with its position, so the "
                              "depth-r view fixes the tokens of the whole receptive field")
        form = ("causal mask" if kind[0] == "causal" else f"causal window w = {kind[1]}" +
                (f" with {kind[2]} sinks" if kind[2] else ""))
        return {"target": "causal", "radius": r, "layers": lay, "least": True, "method": method,
                "evidence": {"closed form": form,
                             "range": "for every n" if kind[0] == "causal" or isinstance(n, int)
                             else f"for n ≥ {max(kind[2] + kind[1] + 2, 2 * kind[2])}"}}
    if not isinstance(n, int):
        return "no closed form for this pattern with symbolic n (give `tokens N` to compute it for one n)"
    from ..graphs import GraphTooLarge, build_graph
    from ..graphs.receptive import TooLarge, receptive_fields, search
    try:
        with time_limit("the receptive fields of the pattern", 20.0):
            graphs = [build_graph(p, n, {}) for p in patterns]
            rec = receptive_fields(graphs)
    except (GraphTooLarge, TooLarge, ValueError, KeyError, TypeError, BudgetExceeded) as exc:
        return f"the receptive fields are not computed ({exc})"
    target = "causal" if rec.causal_class and rec.prefix_fields else "receptive"
    ev = {"far pair": {"from j": rec.far[1], "to i": rec.far[0], "distance": rec.far[2]},
          "causal class": rec.causal_class, "strongly connected": rec.strongly_connected}
    if rec.missing:
        ev["not reached"] = {"i": rec.missing[0], "j": rec.missing[1]}
    proven = None
    try:
        with time_limit("searching for a receptive witness", 30.0):
            found = None
            if proven is None and rec.causal_class and rec.prefix_fields:
                from ..graphs.receptive import causal_exact
                try:
                    found = causal_exact(graphs, rec)
                except TooLarge:
                    found = None
            if found is None:
                found = search(graphs, rec, proven)
    except BudgetExceeded:
        from ..graphs.receptive import WitnessSearch
        found = WitnessSearch(rec.radius + 1, False, "r + 1 layers suffice; the witness search ran out of time")
    if spec.positional == "absolute" and found.layers > max(rec.radius, 1):
        from ..graphs.receptive import WitnessSearch
        found = WitnessSearch(max(rec.radius, 1), True, "an absolute positional encoding labels every token with its "
                              "position, so the depth-r view fixes the tokens of the whole receptive field")
    return {"target": target, "radius": rec.radius, "layers": found.layers, "least": found.least,
            "method": found.method, "witness": found.witness, "evidence": ev, "missing": rec.missing}


def analyse(spec: S.Spec, target: str, ffn_step: proof.Step, tds: list) -> TargetOutcome:
    """The verdict for `target` ("causal" or "receptive") of a pattern family that is not strongly connected."""
    if any(h.bias for h in spec.heads) or not _has_only_patterns(spec):
        step = undecided_step(spec, target, "a bias or a sequence projection: receptive classes are analysed for "
                                            "plain patterns only")
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    info = _structure(spec)
    if isinstance(info, str):
        step = undecided_step(spec, target, info)
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    if target == "causal" and info["target"] != "causal":
        missing = info.get("missing")
        if missing:
            i, j = missing
            step = not_causal_step(spec, f"x_{j} never reaches position {i} although {j} < {i}, so every model's output "
                                   f"at {i} ignores x_{j}, while the causal target F(X)_{i} = x_{j} depends on it",
                                   {"witness": {"i": i, "j": j, "target": f"F(X)_{i} = x_{j}"}})
            return _finish(spec, target, "NOT-UAP", None, False, [step], step.claim, ffn_step, tds)
        step = undecided_step(spec, target, "the pattern is not in the causal class (some position attends to a later "
                                            "one); use `target receptive` for the family's own class")
        return _finish(spec, target, "INCONCLUSIVE", None, False, [step], step.claim, ffn_step, tds)
    rec_step = receptive_step(spec, info["target"], info["radius"], info["evidence"])
    lay_step = layers_step(rec_step, info["target"], info["radius"], info["layers"], info["least"], info["method"],
                           info.get("witness"))
    steps = [rec_step, lay_step]
    cls = info["target"]
    if spec.layers is not None and isinstance(spec.layers, int) and isinstance(info["layers"], int) \
            and spec.layers < info["layers"]:
        below_r = isinstance(info["radius"], int) and spec.layers < info["radius"]
        proved = below_r or info["least"]
        b = budget_step(spec, cls, info["radius"], info["layers"], info["least"], proved,
                        {"budget": spec.layers, "radius": info["radius"], "layers": info["layers"]})
        steps.append(b)
        if proved:
            return _finish(spec, cls, "NOT-UAP", None, False, steps, b.claim, ffn_step, tds)
        return _finish(spec, cls, "INCONCLUSIVE", None, False, steps, b.claim, ffn_step, tds)
    if ffn_step.proved and all(td.proved for td in tds):
        return _finish(spec, cls, "UAP", info["layers"], info["least"], steps, "", ffn_step, tds)
    failing = [s for s in [ffn_step, *tds] if not s.proved]
    reason = "; ".join(f"{s.rule}: {s.claim}" for s in failing)
    return _finish(spec, cls, "INCONCLUSIVE", None, False, steps, reason, ffn_step, tds)


def _finish(spec, target, verdict, layers, least, steps, reason, ffn_step, tds) -> TargetOutcome:
    return TargetOutcome(target, verdict, layers, least, tuple(steps), reason)


@dataclass(frozen=True)
class Decision:
    """What derive reports once the target class is taken into account."""
    verdict: str
    layers: object
    root: proof.Step
    outcome: Optional[TargetOutcome]  # the verdict for the declared target (None: G-equivariant)
    alternative: Optional[TargetOutcome]  # without a declaration: the class a NOT-UAP family does approximate


def decide(spec: S.Spec, ffn_step: proof.Step, tds: list, structure: list, group_step: proof.Step, group,
           obstruction: Optional[proof.Step], verdict: str, layers, make_root) -> Decision:
    """The verdict for the declared target class (or the alternative class of a NOT-UAP pattern).

    `make_root(extra_steps)` builds the G-equivariant verdict step with extra premises."""
    disconnected = obstruction is not None and obstruction.rule == "PAT-DISCONNECTED"
    if spec.target == "equivariant" or (spec.target == "receptive" and not disconnected) or verdict == "ILL-POSED":
        # `target receptive` on a strongly connected (or dense) family: every receptive field is 1..n and
        # the class is the G-equivariant maps, so the verdict is the equivariant one.
        if spec.target == "equivariant" and verdict == "NOT-UAP" and disconnected:
            alt = analyse(spec, "receptive", ffn_step, tds)
            return Decision(verdict, layers, make_root([_alternative_step(alt)]), None, alt)
        return Decision(verdict, layers, make_root([]), None, None)
    if disconnected:
        outcome = analyse(spec, spec.target, ffn_step, tds)
    else:
        outcome = causal_from_equivariant(spec, verdict, group, layers)
        if outcome is None:
            step = undecided_step(spec, "causal", f"the family is {verdict} for its G-equivariant targets and its "
                                                  "group is not shown non-trivial")
            outcome = TargetOutcome("causal", "INCONCLUSIVE", None, False, (step,), step.claim)
    claim = _claim(outcome)
    top = verdict_step(outcome.target, outcome.verdict, claim,
                       [ffn_step, *tds, *structure, group_step, *outcome.steps])
    return Decision(outcome.verdict, outcome.layers if outcome.verdict == "UAP" else None, top, outcome, None)


def _claim(outcome: TargetOutcome) -> str:
    if outcome.verdict == "UAP":
        lay = outcome.layers if isinstance(outcome.layers, int) else sympy.sstr(outcome.layers)
        return (f"{outcome.phrase()}: Definition 2 holds and the family is {lay}-layer token distinguishing in the "
                f"receptive sense (tokens differ unless they sit at positions with isomorphic receptive fields and "
                f"equal tokens there), so Theorem 1 in its receptive form gives the UAP for {CLASS_TEXT[outcome.target]}")
    return f"{outcome.verdict} for {outcome.target} targets: {outcome.reason}"


@proof.rule("TGT-ALTERNATIVE", "The class a NOT-UAP pattern does approximate", CITE_TGT, statuses=(proof.PROVED, proof.UNDECIDED))
def _alternative_step(alt: TargetOutcome) -> proof.Step:
    claim = (f"not part of the verdict above: {alt.phrase()}" +
             (f" — {alt.reason}" if alt.reason and alt.verdict != "UAP" else ""))
    status = proof.PROVED if alt.verdict in ("UAP", "NOT-UAP") else proof.UNDECIDED
    return proof.conclude(claim, status, list(alt.steps), {"alternative": alt.record()})


def causal_from_equivariant(spec: S.Spec, verdict: str, group, layers) -> Optional[TargetOutcome]:
    """`target causal` for a strongly connected family: plain UAP covers causal maps; a non-trivial
    group excludes some of them. None when neither applies."""
    if verdict == "UAP" and group is not None and (group.name == "trivial" or str(group.order) == "1"):
        step = _from_plain(spec, layers)
        return TargetOutcome("causal", "UAP", layers, layers == 1, (step,), "")
    nontrivial = group is not None and group.name != "trivial" and str(group.order) != "1" and spec.tokens != 1
    if nontrivial:
        where = f" (for {group.condition})" if group.condition else ""
        step = not_causal_step(spec, f"every model is equivariant under the family's group G = "
                               f"{group.name or f'of order {group.order}'}{where}, which is not trivial, while the causal target "
                               "F(X)_l = x_k for l ≥ k (0 before k), with k the first position some σ ∈ G moves, is "
                               "not σ-equivariant", {"group": group.name, "order": group.order})
        return TargetOutcome("causal", "NOT-UAP", None, False, (step,), step.claim.split(": ", 1)[1])
    return None


@proof.rule("TGT-PLAIN", "Plain UAP covers the causal maps", CITE_TGT, statuses=(proof.PROVED,))
def _from_plain(spec: S.Spec, layers) -> proof.Step:
    lay = layers if isinstance(layers, int) else sympy.sstr(layers)
    return proof.conclude(f"the family has the plain UAP (trivial group) with {lay} attention layers, and every causal "
                          "map is a continuous map: UAP for causal targets" +
                          ("" if layers == 1 else " (sufficient, not shown least: causal targets may need fewer)"),
                          proof.PROVED, evidence={"layers": layers, "least": layers == 1})
