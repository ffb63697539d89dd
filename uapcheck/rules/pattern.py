"""Sparse patterns: connectivity, the number of attention layers, and the symmetry group.

The graph work (arcs, strong connectivity, directed diameter, automorphisms, closed forms for
symbolic n) lives in uapcheck/graphs; these rules turn its certificates into derivation steps.
For symbolic n every result comes as cases with conditions on n and the pattern parameters; the
verdict is stated for the case that holds for all large n, and the other cases are listed.
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Sequence

import sympy

from ..layer_certificates_one_way import OneWayLayers
from .. import proof
from .wording import L_P, position, quantity, S_N, SUM_TARGET as SUM_TARGET_CLAIM, token, X_J
from ..claim import Claim, claim as claim_of, eq, Formula, math, written
from .. import spec as S
from ..bignum import AutomorphismCountsDisagree, show_order
from ..certificates import (BudgetBeyond, BudgetByClass, ByResidueClass, CompleteHeadAlone, CosetInvariant,
                            CoveredStrideHeads, Diameter,
                            DepthOneLabelled,
                            FarPair, Generators, GlobalUnion, HeadLayers, Inference, SameArcs, StandardFamily, Trusted,
                            LabelledWindowLayers, LabelledWindowRange, Unreachable,
                            ViewWitness)
from ..zero import is_zero
from ..budget import BudgetExceeded, share, stage, time_limit
from dataclasses import dataclass

from ..graphs import (GraphTooLarge, PatternGraph, analyze_connectivity, build_graph, check_layers,
                      closed_connectivity, closed_group, symmetry_group)
from ..graphs.build import heads_fit
from ..graphs.symmetry import group_structure, pattern_structure
from ..graphs.views import decide_views
from ..groups import exact_int, order_text
from ..show import show_classes, show_condition, show_pattern, show_size
from ..groups import GroupClass, GroupInfo, class_condition, symbolic_generators
from .residue_classes import dependence, pieces_by_residue, split_by_residue, split_partially
from ..conditions import simplify_condition
from .symmetry import group_step, group_undecided

CITE_SPARSE_TEXT = ("Cheng et al. 2025, sparse corollary (strong connectivity, directed diameter ≤ m); "
               "necessity by the receptive-field argument, docs/theory.md §Patterns")
CITE_SPARSE = proof.derived("Corollary 2", text=CITE_SPARSE_TEXT)
CITE_CONNECTED = proof.paper("Corollary 2", "Definition 4", text=CITE_SPARSE_TEXT)
CITE_VIEWS_TEXT = ("the view argument (diameter + 1 layers suffice; D when no view witness "
              "exists), docs/theory.md §11.2")
CITE_VIEWS = proof.derived("Corollary 2", text=CITE_VIEWS_TEXT)
# the paper's Corollary 2 layer count (m hops), corrected here (docs/theory.md §1.8, §11.5)
CITE_LAYERS = proof.corrected("Corollary 2", text=CITE_VIEWS_TEXT)
MAX_GENERATORS_SHOWN = 256
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"


def _patterns(spec: S.Spec) -> list[S.Pattern]:
    return [h.pattern for h in spec.heads]


def _biases(spec: S.Spec) -> list[Optional[str]]:
    return [h.bias for h in spec.heads]


def _describe(spec: S.Spec) -> str:
    return "; ".join(f"head {h.label or i + 1}: {show_pattern(h.pattern)}" for i, h in enumerate(spec.heads))


def _edge_lists(p) -> list:
    """The `edges { … }` parts of a pattern."""
    if isinstance(p, S.Edges):
        return [p]
    return [e for q in getattr(p, "parts", ()) for e in _edge_lists(q)]


def _described_once(spec: S.Spec, desc: str, structure: list) -> str:
    """The heads' description for the group step when the pattern step before it (`structure`) writes it out: each
    `edges { … }` list, up to n·(n − 1) arcs, is named there by its size and the step that lists it, not repeated."""
    if not structure:
        return desc
    for e in dict.fromkeys(e for h in spec.heads for e in _edge_lists(h.pattern)):
        desc = desc.replace(show_pattern(e), f"edges {{{len(e.edges)} arcs, listed in {structure[0].rule}'s evidence}}")
    return desc


def _symbols(spec: S.Spec) -> tuple[sympy.Expr, dict]:
    """n (a positive integer Symbol, or the Integer itself) and the integer params as Symbols."""
    if isinstance(spec.tokens, int):
        n = sympy.Integer(spec.tokens)
    else:
        n = sympy.Symbol(spec.tokens, integer=True, positive=True)
    params = {}
    for p in spec.params:
        if p.constraint == "integer":
            params[p.name] = sympy.Symbol(p.name, integer=True, positive=p.lower is not None and p.lower >= 1)
    if isinstance(spec.tokens, str):
        params[spec.tokens] = n  # `window(n)`: the length itself as a pattern size
    return n, params


def _free_params(spec: S.Spec) -> dict:
    """The declared integer params only (not the sequence length)."""
    n, params = _symbols(spec)
    return {k: v for k, v in params.items() if k != spec.tokens}


def _lower_bounds(spec: S.Spec) -> dict:
    return {p.name: max(p.lower or 1, 1) for p in spec.params if p.constraint == "integer"}


def _primary(form, spec: S.Spec, n: sympy.Symbol):
    """The case of a closed form that holds for every large n (checked at several parameter values)."""
    if form is None:
        return None
    lows = _lower_bounds(spec)
    chosen = None
    for bump in (0, 1, 3, 7):
        values = {name: v + bump for name, v in lows.items()}
        if isinstance(n, sympy.Symbol):
            values[n.name] = 10 ** 7  # symbolic n: the case that holds for all large n
        picks = []
        for case in form.cases:
            cond = case.condition
            sub = {s: sympy.Integer(values[s.name]) for s in cond.free_symbols if s.name in values}
            val = cond.xreplace(sub) if sub else cond
            if val is sympy.true:
                picks.append(case)
        if len(picks) != 1 or (chosen is not None and picks[0] is not chosen):
            return None
        chosen = picks[0]
    return chosen


def _diameter_eq(diameter) -> Formula:
    """`D = …` with the diameter worded as the verdict words a count (⌊n/16⌋ + 3 if n mod 16 = 1, …)."""
    return eq("D", diameter, None if isinstance(diameter, int) else quantity(diameter).text)


def _show_condition(cond, n=None) -> str:
    """`n`: the length, when the condition was read at a concrete one (its range is then that length only)."""
    cond = simplify_condition(cond) if isinstance(cond, sympy.Basic) else cond
    if cond is sympy.true:
        return f"at n = {n}" if isinstance(n, (int, sympy.Integer)) else "for every n"
    return f"for {show_condition(cond)}"


def _order_in(case):
    """A case's order; its number when the case's condition is one length (n = 4: 2·(6 − n)! is 4)."""
    order = case.order
    single = simplify_condition(case.condition) if isinstance(case.condition, sympy.Basic) else None
    if (isinstance(single, sympy.Eq) and isinstance(order, sympy.Basic) and single.rhs.is_Integer
            and single.lhs.is_Symbol and order.free_symbols <= {single.lhs}):
        return order.subs(single.lhs, single.rhs)
    return order


def _other_cases(form, primary, stated=()) -> list[str]:
    """The cases of a closed form other than the one stated (`primary`, or the cases `stated` it was merged from)."""
    out = []
    for case in form.cases:
        if case is primary or any(case is c for c in stated):
            continue
        if hasattr(case, "strongly_connected"):
            what = ((f"strongly connected, diameter {show_size(case.diameter)}" if case.diameter is not None else
                     "strongly connected (no closed form of the diameter there; an integer n is decided by the "
                     "concrete engine)") if case.strongly_connected
                    else f"not strongly connected (x_{case.witness[1]} never reaches position {case.witness[0]})")
        else:
            what = f"|G| = {show_order(_order_in(case))}" + (f" ({case.name})" if case.name else "")
        out.append(f"{_show_condition(case.condition)}: {what}")
    return out


# ---------------------------------------------------------------------------------------------
# Concrete n

def _index_text(k) -> str:
    """A position as a subscript: x_3, x_n, x_(b + 1)."""
    text = sympy.sstr(k) if isinstance(k, sympy.Basic) else str(k)
    return text if text.isalnum() else f"({text})"


def _diameter_of(certificate) -> tuple:
    """(diameter or upper bound, exact?) from a connectivity certificate."""
    if isinstance(certificate, Diameter):
        c = certificate.connectivity
        return (c.diameter, True) if c.diameter is not None else (c.upper, False)
    if isinstance(certificate, StandardFamily):
        claims = dict(certificate.claims)
        return claims["diameter"], bool(claims.get("diameter_exact", True))
    if isinstance(certificate, Trusted) and "diameter" in certificate.data:
        return certificate.data["diameter"], bool(certificate.data.get("exact", True))
    if isinstance(certificate, GlobalUnion):
        return 2, True
    raise proof.CertificateRejected(f"PAT-CONNECTED concludes from a Diameter certificate, not {certificate!r}")


@proof.rule("PAT-CONNECTED", "Strongly connected pattern: m = the directed diameter", CITE_CONNECTED,
            statuses=(proof.PROVED,), certificates=(Diameter, StandardFamily, GlobalUnion, Trusted))
def connected_step(desc: str, certificate, evidence: dict, notes=()) -> proof.Step:
    diameter, exact = _diameter_of(certificate)
    shown = diameter if isinstance(diameter, int) else show_size(diameter)
    size = shown if isinstance(diameter, int) else Formula(diameter, str(shown))
    what = (claim_of("the union of the heads' pattern graphs (arc j → i when i attends to j) is strongly "
                     "connected with directed diameter ", size) if exact else
            claim_of("the union of the heads' pattern graphs is strongly connected with directed diameter at "
                     "most ", size))
    return proof.conclude(claim_of(what, ": every ", X_J, " reaches every position within ", size,
                                   " attention layers"),
                          proof.PROVED, evidence=dict(evidence, patterns=desc), notes=notes,
                          facts={"diameter": diameter, "exact": exact}, certificate=certificate)


CITE_NORMAL = proof.derived("Definition 4", text="the normal form of a union of structured patterns: set "
                            "identities on the arcs, for every n (docs/theory.md §11.13)")


@proof.rule("PAT-NORMAL", "A union of patterns analysed as the pattern it is", CITE_NORMAL,
            statuses=(proof.PROVED,), certificates=(SameArcs,))
def normal_form_step(heads: tuple, reasons: tuple) -> proof.Step:
    """The heads' patterns as written ((head index, written, normal form), ...) have the arcs of their
    normal forms (graphs/normal_form.py): the later pattern steps analyse the normal forms."""
    shown = "; ".join(f"{show_pattern(a)} has the arcs of {show_pattern(b)}" for _, a, b in heads)
    return proof.conclude(f"{shown}, at every n, so the pattern steps below analyse the latter", proof.PROVED,
                          evidence={"rewrites": list(reasons),
                                    "normal form": [show_pattern(b) for _, _, b in heads]},
                          certificate=SameArcs(tuple(heads)))


@proof.rule("PAT-DISCONNECTED", "A pattern that is not strongly connected: NOT-UAP", CITE_SPARSE,
            statuses=(proof.PROVED,), certificates=(Unreachable, Trusted, CosetInvariant, OneWayLayers))
def disconnected_step(desc: str, i, j, evidence: dict, certificate, notes=(), condition=None,
                      by_class: Optional[tuple] = None) -> proof.Step:
    """`condition`: the range of n where the closed form holds (a SymPy condition), for the claim's formula.
    `by_class`: (L, residues) when the condition is residue classes of n mod L beside a verdict for the other
    classes (§12, by residue class): the facts `residue_class` (the condition), `modulus` and `residues` carry
    it, so the verdict states NOT-UAP for these classes only."""
    witness = {"i": i, "j": j, "target": SUM_TARGET}
    at, reader = position(i), token(j)
    where = evidence.get("range")
    typed = isinstance(condition, sympy.Basic) and condition is not sympy.true
    where = (claim_of(" (for ", Formula(condition, show_condition(condition)), ")") if typed else
             f" ({where})") if where and where != "for every n" and not where.startswith("at n = ") else ""
    return proof.conclude(claim_of("the pattern is not strongly connected", where, ": ", reader, " never reaches "
                                   "position ", at, " in any number of layers, so every model's output at ",
                                   at, " ignores ", reader, ", while the target ", SUM_TARGET_CLAIM, " (", S_N,
                                   "-invariant, hence G-equivariant) depends on it: its ", L_P,
                                   " distance to the family stays positive (receptive-field argument)"), proof.PROVED,
                          evidence=dict(evidence, patterns=desc, witness=witness),
                          notes=notes, facts={"obstruction": "unreachable", "i": witness["i"], "j": witness["j"],
                                              **({"residue_class": condition, "modulus": by_class[0],
                                                  "residues": tuple(by_class[1])} if by_class else
                                                 {"range": condition} if typed else {})},
                          certificate=certificate)


@proof.rule("PAT-BUDGET", "A layer budget below the directed diameter: NOT-UAP", CITE_SPARSE,
            statuses=(proof.PROVED,), certificates=(FarPair, Trusted))
def layer_budget(spec: S.Spec, diameter, certificate, witness: Optional[tuple] = None, distance=None) -> proof.Step:
    ev = {"budget": spec.layers, "diameter": diameter}
    claim = claim_of(f"`layers {spec.layers}` is below the directed diameter ",
                     diameter if isinstance(diameter, int) else Formula(diameter, str(diameter)), " of the pattern")
    if witness:
        i, j = witness
        ev["witness"] = {"i": i, "j": j, "distance from j to i": distance, "target": SUM_TARGET}
        claim += claim_of(": ", token(j), f" needs {distance} hops to reach position {i}, so with {spec.layers} "
                          f"layers the output at {i} ignores ", token(j), ", while the equivariant target ",
                          SUM_TARGET_CLAIM, " depends on it")
    return proof.conclude(claim, proof.PROVED, evidence=ev, certificate=certificate,
                          facts={"obstruction": "layer budget", "budget": spec.layers, "diameter": diameter})


@proof.rule("PAT-UNDECIDED", "Pattern analysis undecided", CITE_SPARSE, statuses=(proof.UNDECIDED,))
def undecided_step(desc: str, reason: str) -> proof.Step:
    return proof.conclude(f"the pattern analysis is undecided: {reason}", proof.UNDECIDED,
                          evidence={"patterns": desc, "reason": reason})


@dataclass(frozen=True)
class PatternOutcome:
    group_step: proof.Step
    group: Optional[GroupInfo]
    structure: tuple  # the connectivity and layer steps
    layers: object  # the number of attention layers the verdict uses (int or SymPy expression)
    diameter: object  # the directed diameter D: fewer layers are never enough
    obstruction: Optional[proof.Step]


# ---------------------------------------------------------------------------------------------
# How many attention layers a sparse pattern needs: the diameter D, or D + 1.
#
# View argument (docs/theory.md §11.2, §11.9, derived here). After m layers the output at position i
# is a function of its depth-m view: the tokens within distance m and, per head, the in-neighbourhood
# N_h(v) of every position v with d(v → i) ≤ m − 1. Hence
#
# * m ≥ D is necessary (receptive field);
# * m = D + 1 always suffices: then every v is within distance m − 1, and σ must be an automorphism;
# * m = D suffices iff no *view witness* exists: a σ outside the group that keeps the neighbourhoods of
#   all positions within distance D − 1 of some i. ``uapcheck.graphs.views.decide_views`` decides this
#   exactly (rooted views and canonical labelling), with a certificate either way, or reports the
#   resource that ran out.

@dataclass(frozen=True)
class LayerCount:
    layers: int
    exact: bool  # True: `layers` is the least number that works
    method: str | Claim
    witness: Optional[dict] = None  # a view witness showing D layers are not enough (as evidence)
    certificate: Optional[dict] = None  # the rooted-view data showing D layers suffice
    permutation: Optional[tuple[int, ...]] = None  # the witness σ in full (its evidence lists at most 64 points)
    #: the count is a family theorem's at this n (§11.11), or Theorem F135's (a labelled window, §16.5)
    family: Optional[StandardFamily | LabelledWindowLayers | LabelledWindowRange] = None
    #: the same for the certificate file (with Theorem F132's far sets listed), when it says more than the evidence
    certificate_data: Optional[dict] = None


def layers_needed(graphs: Sequence[PatternGraph], diameter: int, in_group, group_order: Optional[int] = None,
                  group_generators=None, arc_classes=None, no_witness_proves: bool = True,
                  orbit_of=None, ecc_bound=None, orbits_why: str = "") -> LayerCount:
    """The number of layers for a strongly connected pattern with directed diameter D.

    `in_group(perm_list)` tells whether a permutation (1-based image list) is in the pattern's group
    G = ⋂_h Aut(Γ_h); `group_order` and `group_generators` describe G (without them only a witness
    can be found, and "D suffices" is not decided).
    """
    n = graphs[0].n
    labelled = arc_classes is not None and any(c is not None for c in arc_classes)
    if n == 1 or diameter <= 1 and not labelled and all(g.complete or g.num_arcs == n * (n - 1) for g in graphs):
        # unlabelled only (or one position): a bias class on the arcs can still make one layer's views agree (§11.10)
        return LayerCount(1, True, "every head is complete: every position sees every token in one layer")
    if group_order is None:
        group_order, group_generators = 0, None
    from .small_lengths import FACTS_ONLY
    quick = _quick_count(graphs, diameter, group_generators, orbit_of, arc_classes) if FACTS_ONLY.get() else None
    if quick is not None:
        return quick
    decision = decide_views(graphs, diameter, group_order, group_generators, in_group, arc_classes=arc_classes,
                            orbit_of=orbit_of, certificate=not FACTS_ONLY.get(), ecc_bound=ecc_bound,
                            orbits_why=orbits_why)
    if decision.sufficient is False:
        what = "labelled view witness (it keeps every bias class)" if labelled else "view witness"
        return LayerCount(diameter + 1, True, f"{what}: D layers are not enough, D + 1 suffice",
                          decision.witness.as_evidence(diameter), permutation=tuple(decision.witness.permutation))
    if decision.sufficient and not no_witness_proves:
        return LayerCount(diameter + 1, False, "view argument: no labelled view witness exists, but D layers are "
                          "shown sufficient only for trainable bias classes (§11.10); with fixed position weights "
                          f"D + 1 = {diameter + 1} suffice, not shown least")
    if decision.sufficient and labelled:
        cert = decision.certificate.as_evidence() if decision.certificate else {}
        return LayerCount(diameter, True, "labelled rooted views (§11.10): for every G-orbit representative i the "
                          "automorphisms of i's rooted view with its bias classes are exactly Stab_G(i), and no two "
                          "orbits have isomorphic labelled views, so no labelled view witness exists and D layers "
                          "suffice (the bias classes separate labelled views: trainable classes of the offset by "
                          "§11.10, the fixed weights of a normalised softmax head by §14.11(f), Theorem F161)",
                          certificate=cert)
    if decision.sufficient:
        cert = decision.certificate.as_evidence() if decision.certificate else {}
        return LayerCount(diameter, True, "rooted views (§11.9): for every G-orbit representative i the "
                          "automorphisms of i's rooted depth-(D − 1) view are exactly Stab_G(i), and no two "
                          "orbits have isomorphic rooted views, so no view witness exists and D layers "
                          "suffice", certificate=cert,
                          certificate_data=decision.certificate.as_data() if decision.certificate else None)
    return LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice; whether "
                      f"D = {diameter} suffice is not decided: {decision.reason}")


def _quick_count(graphs: Sequence[PatternGraph], diameter: int, group_generators, orbit_of,
                 arc_classes) -> Optional[LayerCount]:
    """Where only the answer is read (a length below a stated range): for one symmetric head without labels, a swap
    witness (Theorem F99 (a)) or Theorem F111's far-adjacency table answers as the rooted views would, without
    canonical forms (graphs/far_view_least.py); None when neither holds (the exact test decides)."""
    from ..graphs.far_view_least import quick_count
    from ..groups import orbits
    if len(graphs) != 1 or (arc_classes is not None and any(c is not None for c in arc_classes)):
        return None
    n = graphs[0].n
    if group_generators is not None:
        reps = sorted(set(orbits(n, group_generators)))
    elif orbit_of is not None:
        reps = sorted(set(orbit_of))
    else:
        return None
    found = quick_count(graphs[0], diameter, [r + 1 for r in reps])
    if found is None:
        return None
    if found.sufficient:
        return LayerCount(diameter, True, "the far-adjacency table (Theorem F111): whether two positions at distance "
                          "D from a root are adjacent is read off the colours of their neighbours within D − 1, so no "
                          "view witness exists and D layers suffice")
    x, y = found.swap
    perm = tuple(y if k == x else x if k == y else k for k in range(1, n + 1))
    witness = {"diameter": diameter, "position": found.root, "swap": [x, y]}
    return LayerCount(diameter + 1, True, "view witness: D layers are not enough, D + 1 suffice (a swap of two "
                      "positions at distance D with the same neighbours within distance D − 1, Theorem F99 (a))",
                      witness, permutation=perm)


@proof.rule("PAT-LAYERS", "How many attention layers the pattern needs: D or D + 1", CITE_LAYERS,
            statuses=(proof.PROVED,), certificates=(ViewWitness, Inference, StandardFamily, HeadLayers, CoveredStrideHeads, LabelledWindowLayers,
                          LabelledWindowRange, CompleteHeadAlone, DepthOneLabelled, Trusted))
def layers_step(connected: proof.Step, diameter, layers, exact: bool, method: str | Claim,
                witness: Optional[dict] = None, notes=(), certificate: Optional[dict] = None,
                graphs=None, labelled: bool = False,
                family: Optional[StandardFamily | HeadLayers | CoveredStrideHeads | LabelledWindowLayers
                                 | LabelledWindowRange
                                 | CompleteHeadAlone | DepthOneLabelled | Trusted] = None,
                permutation: Optional[tuple[int, ...]] = None, least_classes: tuple = (),
                length: Optional[sympy.Symbol] = None, certificate_data: Optional[dict] = None) -> proof.Step:
    """PAT-LAYERS: `layers` attention layers suffice, least when `exact`; `least_classes` = (L, residues) with
    `exact` False: least on the classes `length` mod L in residues only, sufficient, not shown least, on the others
    (a least flag by residue class, docs/theory.md §12)."""
    count = layers if isinstance(layers, int) else quantity(layers)
    bound = connected.facts.get("diameter") if diameter is None else None  # F50, F51: an upper bound on D
    if diameter is None and (bound is None or is_zero(sympy.sympify(layers - bound - 1, strict=True))):  # safe: strict
        claim = claim_of(count, " attention layers suffice by the view argument: the directed diameter is at "
                         "most ", quantity(layers - 1), " (", method, ")")
    elif diameter is None:  # F50: the bound itself, by the theorem's own argument where D reaches it
        claim = claim_of(count, " attention layers suffice: the directed diameter is at most ", quantity(bound),
                         " (", method, ")")
    elif layers == diameter:
        if isinstance(layers, sympy.Piecewise):  # a count by residue: the view's depth is that count, D
            claim = claim_of(count, " attention layers suffice: the depth-D view of every position, D = the "
                             "directed diameter (that count), determines the sample up to the group (",
                             method, ")")
        else:
            depth = ("(", count, ")") if isinstance(layers, sympy.Add) else (count,)
            claim = claim_of(count, f" attention layer{'s' if layers != 1 else ''} suffice: the depth-", *depth,
                             " view of every position determines the sample up to the group (", method, ")")
    elif exact and isinstance(diameter, sympy.Piecewise):
        # D by residue (Theorem F53): the count is least in every residue class, D or D + 1 as the method says
        claim = claim_of(count, " attention layers are needed and suffice for every n in the range, with ",
                         _diameter_eq(diameter), " (", method, ")")
    elif exact and isinstance(layers, sympy.Piecewise):
        # the count depends on n mod L (Theorems F25, F86): D on some classes, D + 1 on the others, least on each
        claim = claim_of(count, " attention layers are needed and suffice for every n in the range, with ",
                         _diameter_eq(diameter), ": D on the residue classes where no view witness exists, D + 1 where "
                         "one does (", method, ")")
    elif least_classes:
        where = class_condition(length, least_classes[0], least_classes[1])
        claim = claim_of(count, " attention layers suffice for every n in the range, with ", _diameter_eq(diameter),
                         "; they are least for ", Formula(where, show_condition(where)), " and sufficient, not shown "
                         "least, on the other classes (", method, ")")
    elif exact and not is_zero(sympy.sympify(layers - diameter - 1, strict=True)):  # safe: strict
        # a count other than D and D + 1 at some n (Theorem F151: max(2, D)): the method says why it is least
        claim = claim_of(count, " attention layers are needed and suffice, with ", _diameter_eq(diameter), " (",
                         method, ")")
    elif exact:
        claim = claim_of(count, " attention layers are needed and suffice: with ", _diameter_eq(diameter),
                         " layers some position cannot tell a sample from a rearrangement outside the group; with "
                         "D + 1 its view determines the whole sample (", method, ")")
    else:
        claim = claim_of(count, " = D + 1 attention layers suffice by the view argument; ",
                         _diameter_eq(diameter), " layers are necessary, and whether they suffice is not decided (", method, ")")
    method = str(method)  # the evidence and the certificate word it as the claim does
    ev = {"diameter": diameter, "layers": layers, "least": exact, "method": method}
    facts = {"layers": layers, "diameter": diameter, "least": exact}
    if least_classes:
        ev["least classes"] = {"modulus": least_classes[0], "residues": list(least_classes[1])}
        facts["least_classes"] = (least_classes[0], tuple(least_classes[1]))
    if witness:
        ev["view witness"] = witness
    if certificate:
        ev["rooted views"] = certificate
    return proof.conclude(claim, proof.PROVED, [connected], ev, notes,
                          facts=facts,
                          certificate=family or _layers_certificate(connected, diameter, layers, exact, method,
                                                                    witness, graphs, certificate_data or certificate,
                                                                    labelled, permutation))


def _layers_certificate(connected, diameter, layers, exact, method, witness, graphs, rooted=None,
                        labelled: bool = False, permutation: Optional[tuple[int, ...]] = None):
    """D + 1 layers (or bound + 1) follow from the view argument and the connectivity step; D + 1 as
    the least number needs a view witness (checked on the arcs; a witness that keeps bias classes as
    arc labels is the views engine's, §11.10); D as enough is the views engine's."""
    if witness and labelled:
        return Trusted("views", "a labelled view witness (bias classes as arc labels, docs/theory.md §11.10): "
                       "the kernel's arc-by-arc check does not read labels", {"witness": witness})
    if witness and graphs is not None:
        if permutation is not None:
            perm = permutation
        elif "permutation" in witness:
            perm = tuple(witness["permutation"])
        else:
            a, b = witness["swap"]
            perm = tuple(b if k == a else a if k == b else k for k in range(1, graphs[0].n + 1))
        return ViewWitness(tuple(graphs), int(witness["diameter"]), int(witness["position"]), perm)
    bound = connected.facts.get("diameter")
    numeric = (int, sympy.Basic)
    if isinstance(bound, numeric) and isinstance(layers, numeric) and is_zero(sympy.sympify(layers, strict=True) - sympy.sympify(bound, strict=True) - 1):  # safe: strict (no text parsed)
        return Inference(((connected, proof.PROVED),), "the view argument: one layer more than the (bound on "
                         "the) directed diameter always suffices (docs/theory.md §11.2)")
    data = {"layers": layers, "diameter": diameter}
    if rooted:
        data["rooted views"] = rooted
    return Trusted("views", method, data)


_N_FROM_4W_2 = written("n ≥ 4w + 2", r"n \geq 4 w + 2")
_D_FROM_3 = written("D ≥ 3", r"D \geq 3")


def _proven_family(spec: S.Spec) -> Optional[str | Claim]:
    """Pattern families for which D layers are proved to suffice (docs/theory.md §11.2)."""
    pats = _patterns(spec)
    # A positional encoding keeps the base family's layer count (PE-LIFT); a bias adds labels
    # that the proofs below do not cover.
    if any(h.bias for h in spec.heads):
        return None
    if all(isinstance(p, S.Full) for p in pats):
        return "every head is complete: one layer sees every token"
    if all(isinstance(p, S.Window) and not p.cyclic for p in pats) and len(set(pats)) == 1:
        return "non-cyclic window: the unseen positions' adjacency is fixed by the seen part (§11.2)"
    if all(isinstance(p, S.Star) for p in pats):
        return "star: a permutation keeping the centre's and one leaf's neighbourhoods fixes the centre (§11.2)"
    if len(set(pats)) == 1 and isinstance(pats[0], S.Window) and pats[0].cyclic and spec.positional == "none":
        w, n = pats[0].w, spec.tokens
        if isinstance(w, int) and isinstance(n, int):
            if n >= 4 * w + 2:
                return claim_of("cyclic window with ", _N_FROM_4W_2, " (", _D_FROM_3, "): the rooted view of a "
                                "position has only the reflection through it as automorphism (§11.9, cyclic windows)")
            if n >= 2 * w + 3:
                return claim_of("cyclic window with ", written("2w + 3 ≤ n ≤ 4w + 1", r"2 w + 3 \leq n \leq 4 w + 1"),
                                " (", eq("D", 2), "): the non-neighbour arcs of the ball carry the path order, so the "
                                "rooted view has only the reflection (§11.9, cyclic windows)")
            return None
        if isinstance(n, str):  # symbolic n: n ≥ 2w + 3 (D = 2 up to 4w + 1, D ≥ 3 from 4w + 2)
            return claim_of("cyclic window, for ", written("n ≥ 2w + 3", r"n \geq 2 w + 3"), ": the rooted view of a "
                            "position has only the reflection through it as automorphism (§11.9, cyclic windows: ",
                            eq("D", 2), " and ", _D_FROM_3, ")")
    if len(set(pats)) == 1 and isinstance(pats[0], S.Offsets) and pats[0].cyclic and spec.positional == "none":
        offs = pats[0].offsets
        if all(isinstance(o, int) for o in offs):
            vals = sorted(set(offs) - {0})  # 0: the query itself, always seen
            w = len(vals)
            if w and vals in (list(range(1, w + 1)), list(range(-w, 0))):
                n = spec.tokens
                if isinstance(n, str) or n >= 2 * w + 2:
                    return claim_of("one-sided cyclic offsets ", written("{1, …, w}", r"\{1, \dots, w\}"), ", ",
                                    written("n ≥ 2w + 2", r"n \geq 2 w + 2"), " (", _D_FROM_3, "): the rooted view of a "
                                    "position has no automorphism but the identity (§11.9, one-sided cyclic offsets)")
    return None


def _labelled_window_heads(spec: S.Spec, fixed_heads: frozenset) -> Optional[tuple]:
    """(the window, the heads' label kinds) when every head is one window of a concrete radius w ≥ 1 with trainable
    offset classes, one of them keeping the positive offsets apart (`toeplitz`, T5 buckets; on a cyclic window for
    every real offset), no positional encoding: Theorems F135, F140, F152 (docs/theory.md §16.5); or, on a non-cyclic
    window, every class even and one head's naming the distance (`symmetric toeplitz`, or a fixed even term that
    Theorem F161 covers, read as that kind): Theorem F176. Else None."""
    from ..certificates import reflecting_labels, sign_separating
    biases = tuple(_biases(spec))
    pats = set(_patterns(spec))
    if spec.positional != "none" or len(pats) != 1 or not any(biases) or \
            fixed_heads & {k for k, b in enumerate(biases) if b is not None} or \
            any(h.projection or h.nystrom or h.heads is not None or (h.differential or h.sink is not None) for h in spec.heads):
        return None  # fixed position weights: Lemma V^λ does not give the sufficiency (§11.10)
    (p,) = pats
    if not (isinstance(p, S.Window) and isinstance(p.w, int) and p.w >= 1):
        return None
    if "free" in biases or not (any(sign_separating(b, p.w, p.cyclic) for b in biases)
                                or reflecting_labels(biases, p)):
        return None
    return p, biases


_EVEN_WINDOW = ("a non-cyclic window whose labels are even in the offset, one head's naming the distance |m|: "
                "position 1's keys are named by their distances, so a permutation keeping the labelled ball of "
                "radius D − 1 of a position is the identity or the reflection, both in the group, and the depth-D "
                "labelled views determine the sample ")


def _labelled_window(spec: S.Spec, diameter: int, fixed_heads: frozenset) -> Optional[LayerCount]:
    """Theorem F135 (docs/theory.md §16.5): one non-cyclic window at a concrete n ≥ w + 2 whose heads carry trainable
    offset classes, one of them keeping the positive offsets apart (`toeplitz`, T5 buckets): D layers, least. Theorem
    F152: the cyclic window at n ≥ 2w + 2, one head's classes keeping the sign of every real offset. Theorem F176: a
    non-cyclic window at n ≥ w + 2 whose classes are even, one head's naming the distance: D layers, least, G the
    reflection."""
    from ..certificates import labelled_window_start, labelled_window_theorem
    found = _labelled_window_heads(spec, fixed_heads)
    n = spec.tokens
    if found is None or not isinstance(n, int) or n < labelled_window_start(found[0]):
        return None
    p, biases = found
    cert = LabelledWindowLayers(p, n, biases, diameter, diameter)
    try:
        cert.check()
    except proof.CertificateRejected:
        return None
    if labelled_window_theorem(p, biases) == "F176":
        return LayerCount(diameter, True, _EVEN_WINDOW + "(Theorem F176, docs/theory.md §16.5)", family=cert)
    if p.cyclic:
        return LayerCount(diameter, True, "a cyclic window whose labels keep the sign of every offset: the counts of "
                          "keys below a position name the seam positions, and only the identity keeps the labelled "
                          "ball of radius D − 1 of a position, so the depth-D labelled views determine the sample "
                          "(Theorem F152, docs/theory.md §16.5)", family=cert)
    return LayerCount(diameter, True, "a non-cyclic window whose labels keep the positive offsets apart: no "
                      "permutation but the identity keeps the labelled ball of radius D − 1 of a position, so the "
                      "depth-D labelled views determine the sample (Theorem F135, docs/theory.md §16.5)", family=cert)


def _labelled_window_any_length(spec: S.Spec, n: sympy.Symbol, diameter, fixed_heads: frozenset
                                ) -> Optional[LayerCount]:
    """Theorem F140 (docs/theory.md §16.5): Theorem F135 at a symbolic n. The labels of a window's arcs are the
    classes of its offsets −w, …, w, which do not depend on n (T5's bucket of an offset does not), so F135's hypotheses
    hold at every n ≥ w + 2 as soon as they hold at one: D = ⌈(n − 1)/w⌉ layers, least, G trivial, for n ≥ w + 2.
    Theorem F152: a cyclic window whose labels keep the sign of every real offset, for n ≥ 2w + 2. Theorem F176: a
    non-cyclic window whose classes are even, one head's naming the distance, for n ≥ w + 2 (G the reflection)."""
    from ..certificates import labelled_window_start, labelled_window_theorem
    found = _labelled_window_heads(spec, frozenset(fixed_heads))
    if found is None:
        return None
    p, biases = found
    low, layers, below = labelled_window_start(p), diameter, ""
    from .small_lengths import TOP
    even = labelled_window_theorem(p, biases) == "F176"
    if p.w + 1 > TOP and not p.cyclic and not even:  # the complete windows n ≤ w + 1 reach above the lengths decided one by one
        from .dense_bias import dense_start  # (Theorem F151)
        start = dense_start(tuple(sorted({b for b in biases if b is not None})))
        if start is not None and start <= p.w + 1:
            low, layers = start, sympy.Max(2, diameter)
            below = (f"; for {start} ≤ n ≤ {p.w + 1} the window is complete, and two layers are needed and suffice "
                     "there (Theorem F142 (b)), which is max(2, D) (Theorem F151)")
    cert = LabelledWindowRange(p, n, biases, diameter, layers, low)
    try:
        cert.check()
    except proof.CertificateRejected:
        return None
    if even:
        return LayerCount(layers, True, f"at every n ≥ {low}, " + _EVEN_WINDOW + "(the labels of the arcs are the "
                          f"classes of the offsets −{p.w}, …, {p.w}, the same at every n; Theorem F176, docs/theory.md "
                          "§16.5)", family=cert)
    if p.cyclic:
        return LayerCount(layers, True, f"a cyclic window whose labels keep the sign of every offset, at every "
                          f"n ≥ {low}: the sign of a real offset does not depend on n, the counts of keys below a "
                          "position name the seam positions, and only the identity keeps the labelled ball of radius "
                          "D − 1 of a position, so the depth-D labelled views determine the sample (Theorem F152, "
                          "docs/theory.md §16.5)", family=cert)
    return LayerCount(layers, True, f"a non-cyclic window whose labels keep the positive offsets apart, at every "
                      f"n ≥ {p.w + 2}: the labels of the arcs are the classes of the offsets −{p.w}, …, {p.w}, the "
                      "same at every n, so no permutation but the identity keeps the labelled ball of radius D − 1 "
                      "of a position, and the depth-D labelled views determine the sample (Theorem F140, "
                      f"docs/theory.md §16.5){below}", family=cert)


def _free_bias_count(graphs, biases, diameter: int, fixed_heads: frozenset) -> Optional[LayerCount]:
    """Theorem F163 (docs/theory.md §11.10): a head h* with a `free` bias whose arcs hold every head's arcs, every row
    of every (normalised) `free` head seeing at least two keys, the other biases trainable classes of the offset (or fixed weights
    that Lemma V^ρ covers). A labelled witness would fix every position within D of its root in h*'s labels (a `free`
    class is the pair itself), so there is none, and Lemma V^λ holds for `free` classes on rows of two keys or more:
    D layers, least. None when the hypotheses fail."""
    free = [graphs[k] for k, b in enumerate(biases) if b == "free"]
    if not _free_rows_separated(graphs, biases, fixed_heads):
        return None
    if not any(all(_holds_arcs(host, g) for g in graphs) for host in free) or diameter < 1:
        return None
    return LayerCount(diameter, True, "a `free` bias on a head whose arcs hold every head's arcs: its classes are the "
                      "arcs themselves, so a labelled view witness would fix every position within D of its root, all "
                      "of them, and none exists; every row of a `free` head sees two keys or more, so each layer "
                      "separates different labelled views (Theorem F163, docs/theory.md §11.10): D layers suffice, "
                      "and are least")


def _free_rows_separated(graphs, biases, fixed_heads: frozenset) -> bool:
    """Every row of every `free` head sees two keys or more (itself and another), and no head's fixed weights block the
    sufficiency: the separation step of Theorem F163 holds for every head (a row that sees itself alone is the same
    whatever its `free` bias, and Lemma V^λ fails there)."""
    if fixed_heads & {k for k, b in enumerate(biases) if b is not None}:
        return False
    return not any(not g.complete and len({i for _, i in g.arcs()}) < g.n
                   for g, b in zip(graphs, biases) if b == "free")


def _holds_arcs(host, graph) -> bool:
    """Every arc of `graph` is an arc of `host`."""
    return host.complete or (not graph.complete and all(host.has_arc(j, i) for j, i in graph.arcs()))


#: The rooted views' steps stop on counts (views.PROBE_WORK, DEFAULT_WORK_LIMIT, view_refine.FAR_SET_WORK and
#: REFINE_WORK, about 30 s of CPU here in all); this clock is only a backstop far above them (docs/theory.md §19), for
#: what no count bounds (BLISS's own search on a view, charged by the view's size only). Its seconds at the default
#: --budget; a share of the run's budget otherwise (budget.share), as every local clock.
ROOTED_VIEWS_BACKSTOP = 300.0


def _labelled_count(spec: S.Spec, graphs, diameter: int, grp, fixed_heads: frozenset) -> LayerCount:
    """The layer count with bias classes as arc labels (docs/theory.md §11.10): a labelled view witness
    shows D layers are not enough (for fixed and trainable labels alike); no witness proves D enough when
    every labelled head has a trainable bias of a kind that depends on the offset."""
    from ..graphs.views import FreeClasses, offset_classes
    biases = _biases(spec)
    n = spec.tokens
    free_views = False  # Theorem F178: `free` heads on rows of two keys or more, decided by the labelled views
    if "free" in biases and grp is not None and spec.positional == "none" and all(
            h.normalized for h in spec.heads if h.bias == "free"):
        free = _free_bias_count(graphs, biases, diameter, fixed_heads)
        if free is not None:
            return free
        free_views = _free_rows_separated(graphs, biases, fixed_heads) and diameter >= 1 and \
            len(set(zip(graphs, biases))) > 1
    if ("free" in biases and not free_views) or grp is None or spec.positional != "none":
        return LayerCount(diameter + 1, False, "view argument with bias labels (a `free` bias or a positional "
                          "encoding is not labelled here); no witness search")
    classes = [None if b is None else FreeClasses() if b == "free" else offset_classes(b, n) for b in biases]
    trainable = not (fixed_heads & {k for k, b in enumerate(biases) if b is not None and b != "free"})
    try:
        with time_limit("deciding whether D layers suffice (labelled rooted views)", ROOTED_VIEWS_BACKSTOP):
            preserves = group_structure(graphs, biases, spec.positional).preserves
            count = layers_needed(graphs, diameter, preserves, int(grp.order), grp.generators,
                                  arc_classes=classes, no_witness_proves=trainable)
            if free_views and count.exact:
                from dataclasses import replace
                count = replace(count, method=count.method + " (a `free` head's classes are its arcs, and every row "
                                "of a `free` head sees two keys or more, so each layer separates different labelled "
                                "views: Theorem F178, docs/theory.md §11.10)")
            return count
    except BudgetExceeded:
        return LayerCount(diameter + 1, False, "view argument with bias labels; the exact test ran out of its "
                          f"backstop clock ({share(ROOTED_VIEWS_BACKSTOP):g} s of CPU, far above its work bounds)")


def _family_count(spec: S.Spec, diameter: int) -> Optional[LayerCount]:
    """The least layer count of a family theorem at this n (docs/theory.md §11.11), or None."""
    from .families import family_layer_count
    found = family_layer_count(spec)
    if found is None or found["diameter"] != diameter:
        return _covered_heads_at(spec, diameter)
    return LayerCount(found["layers"], True, found["method"], found["witness"], family=found["certificate"])


def _covered_heads_at(spec: S.Spec, diameter: int) -> Optional[LayerCount]:
    """Theorem F210 at a concrete n (docs/theory.md §11.11): several unbiased heads among `window(w) cyclic`,
    `strided(s)` and their union (w + 1 ≤ s ≤ 2w + 1, s ≥ 3), n ≥ s(3w + 2) in a class of n mod s where Theorem F200
    gives a witness, D = 2: Theorem F200's witness at this n, 3 layers least. The witness goes out as a view witness
    on the heads' arcs (the kernel and the verifier re-check it there); None otherwise (the rooted views decide)."""
    from ..graphs.cyclic_covered_heads import match
    from ..graphs.cyclic_covered_least import witness
    n = spec.tokens
    if not isinstance(n, int) or diameter != 2 or spec.positional != "none" or any(
            h.bias or h.position is not None for h in spec.heads):
        return None
    found = match(_patterns(spec))
    if found is None or n < found.low or n % found.s not in found.classes:
        return None
    got = witness(found.w, found.s, n)
    if got is None:
        return None
    root, cycles = got
    perm = list(range(1, n + 1))
    for a, b in cycles:
        perm[a - 1], perm[b - 1] = b, a
    how = (f"Theorem F210 at n = {n:,} (n mod {found.s} = {n % found.s}, n ≥ {found.low}): Theorem F200's "
           + ("seam or end-root swap" if len(cycles) == 1 else "block exchange"))
    ev: dict = {"position": root, "diameter": diameter, "found by": how}
    if len(cycles) == 1:
        ev["swap"] = list(cycles[0])
    else:
        ev["permutation (moved points)"] = {k: perm[k - 1] for a, b in cycles for k in (a, b)}
    return LayerCount(3, True, claim_of(
        "view witness (Theorem F210, docs/theory.md §11.11): the union of the heads is `window(", str(found.w),
        ") cyclic + strided(", str(found.s), ")` (D = 2 by Theorem F197); at n = ", f"{n:,}", " Theorem F200's ",
        "swap" if len(cycles) == 1 else "block exchange", " keeps every head's neighbourhood of every position within "
        "distance 1 of position ", str(root), " and is not in G, so D = 2 layers are not enough; D + 1 = 3 suffice by "
        "the view argument"), ev, permutation=tuple(perm))


def _layer_count(spec: S.Spec, graphs, diameter: int, grp, fixed_heads: frozenset, ecc_bound=None) -> LayerCount:
    """D or D + 1 for a strongly connected pattern at a concrete n (§11.2, §11.9, §11.10); ``ecc_bound``: the
    diameter certificate's upper bound on every ecc_out, when it has one (Theorem F132's far sets)."""
    count = _layer_count_by_views(spec, graphs, diameter, grp, fixed_heads, ecc_bound)
    if not count.exact and count.family is None:
        family = _family_count(spec, diameter)  # the search ran out: a theorem proved at this n decides
        if family is not None:
            return family
    return count


def _above_top_count(spec: S.Spec, graphs, diameter: int, grp) -> Optional[LayerCount]:
    """The count at a length above small_lengths.TOP below a range (small_lengths.above_top: Theorem F205's family,
    D = 2): a family theorem's least count at this n (Theorem F224's witness), else a swap witness or Theorem F111's
    far-adjacency table where one answers (`_quick_count`, no canonical forms), None where G is transitive (the
    rooted views read one root), else D + 1 layers, sufficient by the view argument (§11.2), the rooted views not run
    over the many root orbits of a length that large."""
    from ..groups import orbits
    family = _family_count(spec, diameter)
    if family is not None:
        return family
    n = spec.tokens
    gens = getattr(grp, "generators", ()) or ()
    if not (isinstance(n, int) and gens and all(isinstance(g, tuple) and len(g) == n for g in gens)):
        return LayerCount(diameter + 1, False, "view argument: D + 1 layers suffice (§11.2)")
    quick = _quick_count(graphs, diameter, gens, None, None)
    if quick is not None:
        return quick
    if len(set(orbits(n, gens))) == 1:
        return None
    return LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice (§11.2); whether D "
                      "suffice is not decided at this length, above the lengths whose rooted views are read one by "
                      "one below the range (docs/theory.md §11.11, Theorem F205's range)")


def _layer_count_by_views(spec: S.Spec, graphs, diameter: int, grp, fixed_heads: frozenset,
                          ecc_bound=None) -> LayerCount:
    from .small_lengths import ABOVE_TOP
    if ABOVE_TOP.get():
        stated = _above_top_count(spec, graphs, diameter, grp)
        if stated is not None:
            return stated
    family = _proven_family(spec)
    if not family and sum(g.num_arcs for g in graphs) > FAMILY_FIRST_ARCS:
        theorem = _family_count(spec, diameter)
        if theorem is not None:
            return theorem
    labelled_window = _labelled_window(spec, diameter, fixed_heads) if not family else None
    if family:
        count = LayerCount(max(diameter, 1), True, family)  # n = 1 (D = 0): one layer, as for every pattern
    elif labelled_window is not None:
        count = labelled_window
    elif any(_biases(spec)):
        count = _labelled_count(spec, graphs, diameter, grp, fixed_heads)
    elif spec.positional == "absolute":
        count = LayerCount(diameter, True, "an absolute positional encoding labels every position: a view "
                           "witness must keep the label of every position within distance D of its root, which "
                           "is every position, so it is the identity, and D layers suffice (§11.10)")
    else:
        # A positional encoding keeps the base family's layer count (PE-LIFT): search in the
        # pattern's own group.
        try:
            with time_limit("deciding whether D layers suffice (rooted views)", ROOTED_VIEWS_BACKSTOP):
                pgroup = grp if (grp is not None and spec.positional == "none") else \
                    symmetry_group(graphs)
                preserves = pattern_structure(graphs).preserves
                count = layers_needed(graphs, diameter, preserves, int(pgroup.order), pgroup.generators,
                                      orbit_of=pgroup.orbit_of, ecc_bound=ecc_bound, orbits_why=pgroup.orbits_why)
        except BudgetExceeded:
            count = LayerCount(diameter + 1, False, "view argument; the exact test of whether D layers "
                               f"suffice ran out of its backstop clock ({share(ROOTED_VIEWS_BACKSTOP):g} s of CPU, far "
                               "above its work bounds)")
        except AutomorphismCountsDisagree as exc:
            count = LayerCount(diameter + 1, False, f"view argument; the exact test of whether D layers suffice is "
                               f"not established ({exc})")
        if spec.positional != "none" and count.layers > diameter:
            # The count is the base family's; with the encoding fewer layers might do.
            count = LayerCount(count.layers, False, count.method + " (for the family without the "
                               "positional encoding; with it the count is sufficient, not shown least)")
    return count


def _ecc_bound(conn):
    """An upper bound on every position's ecc_out from the diameter's certificate (re-checked by the kernel with
    it): every eccentricity (method "exhaustive") or the seeded bound array (Theorem F131); None otherwise."""
    return None if conn.upper_bound is None else conn.upper_bound.every_ecc_out()


def _concrete(spec: S.Spec, closed: Optional["PatternOutcome"] = None,
              fixed_heads: frozenset = frozenset()) -> PatternOutcome:
    n = spec.tokens
    desc = _describe(spec)
    try:
        with time_limit("building the pattern graphs", 30.0):
            heads_fit(_patterns(spec), n)
            graphs = [build_graph(p, n, {}) for p in _patterns(spec)]
    except GraphTooLarge as exc:
        if _usable(closed):
            return closed  # the closed forms at this n; the least count stays open (noted in PAT-LAYERS)
        step = undecided_step(desc, f"the pattern graph is too large to build ({exc})")
        return PatternOutcome(group_undecided(desc, "the pattern graph is too large"), None, (step,), None, None, None)
    except (ValueError, KeyError, BudgetExceeded) as exc:
        step = undecided_step(desc, str(exc))
        return PatternOutcome(group_undecided(desc, str(exc)), None, (step,), None, None, None)
    structure, layers, diameter, obstruction = [], None, None, None
    try:
        with time_limit("computing the automorphism group", 60.0):
            grp = symmetry_group(graphs, _biases(spec), spec.positional)
    except (BudgetExceeded, AutomorphismCountsDisagree) as exc:
        grp, undecided_group = None, str(exc)
    # one unbiased head without a positional encoding: G is the union's whole automorphism group, so
    # the diameter's probe loop takes its orbits from G instead of running BLISS a second time
    whole = (grp is not None and grp.generators is not None and len(set(graphs)) == 1
             and not any(_biases(spec)) and spec.positional == "none")
    conn = analyze_connectivity(graphs, union_automorphisms=grp.generators if whole else None)
    if not conn.strongly_connected:
        i, j = conn.witness
        sep = conn.separation
        obstruction = disconnected_step(desc, i, j, {"positions that reach i": len(sep.reach_i),
                                                      "no arc enters that set from outside": True},
                                        Unreachable(tuple(graphs), sep.i, sep.j, sep.reach_i))
        structure.append(obstruction)
    elif conn.diameter is not None:
        diameter = int(conn.diameter)
        ev = {"diameter": diameter, "realised by": {"from j": conn.lower_pair[0], "to i": conn.lower_pair[1]}
              if conn.lower_pair else None,
              "upper bound method": conn.upper_bound.method if conn.upper_bound else None}
        connected = connected_step(desc, Diameter(tuple(graphs), conn), ev)
        structure.append(connected)
        count = _layer_count(spec, graphs, diameter, grp, fixed_heads, _ecc_bound(conn))
        layers = count.layers
        structure.append(layers_step(connected, diameter, layers, count.exact, count.method, count.witness,
                                     certificate=count.certificate, graphs=graphs,
                                     labelled=bool(any(_biases(spec))), permutation=count.permutation,
                                     family=count.family, certificate_data=count.certificate_data))
    elif conn.upper is not None:
        bounds = {"lower bound": conn.lower, "upper bound": conn.upper}
        if conn.fits_up_to is not None:
            bounds["exact diameter decided up to about n"] = conn.fits_up_to  # an estimate from the density: named, never used
        connected = connected_step(desc, Diameter(tuple(graphs), conn), bounds,
                                   notes=(f"the exact diameter was not decided: {conn.reason or 'the time budget ran out'}",))
        structure.append(connected)
        layers = int(conn.upper) + 1
        structure.append(layers_step(connected, None, layers, False,
                                     "view argument with an upper bound on the diameter"))
    else:
        structure.append(undecided_step(desc, "the diameter is not decided"))
    desc = _described_once(spec, desc, structure)
    if grp is None:
        return PatternOutcome(group_undecided(desc, undecided_group), None, tuple(structure), layers, diameter,
                              obstruction)
    gens = grp.generators or ()
    shown = tuple(tuple(g) for g in gens) if n <= MAX_GENERATORS_SHOWN else ()
    name = grp.name
    if grp.structure and (name is None or name.startswith("stabilizer")):
        name = grp.structure if name is None else name
    typed = grp.structure_parts if name == grp.structure else None
    info = GroupInfo(name, grp.order_text if grp.order_text is not None else order_text(int(grp.order)), shown,
                     structure=typed, order_latex=grp.order_latex if grp.order_text is not None else None,
                     exact=exact_int(int(grp.order)))
    ev = {"generators": [list(g) for g in shown] if shown else
          f"{len(gens)} generators on {n} points (not listed above {MAX_GENERATORS_SHOWN} tokens)",
          "method": grp.method}
    if grp.structure:
        ev["structure"] = grp.structure
    if grp.generators is not None:
        cert = Generators(tuple(graphs), tuple(_biases(spec)), spec.positional, tuple(tuple(g) for g in gens),
                          int(grp.order), info.order)
    else:
        cert = Trusted("graphs.symmetry", f"{grp.method}: the generators are too many to list",
                       {"order": grp.order, "shown": info.order})
    return PatternOutcome(group_step(desc, info, ev, cert), info, tuple(structure), layers, diameter, obstruction)


# ---------------------------------------------------------------------------------------------
# Symbolic n

def _symbolic(spec: S.Spec, fixed_heads: Optional[frozenset] = None) -> PatternOutcome:
    """The closed forms (symbolic n, or a concrete n without arcs). `fixed_heads`: the heads whose bias kind stands
    for fixed position weights, when known (Theorem F135 is applied only then: it needs trainable labels)."""
    from .families import family_outcome, open_question
    family = family_outcome(spec)  # a standard family's theorem (docs/theory.md §11.11)
    if family is not None:
        return family
    desc = _describe(spec)
    n, params = _symbols(spec)
    try:
        with time_limit("the closed forms of the pattern", 20.0):
            conn = closed_connectivity(_patterns(spec), n, params)
            grp = closed_group(_patterns(spec), n, params, _biases(spec), spec.positional)
    except (ValueError, BudgetExceeded) as exc:
        step = undecided_step(desc, str(exc))
        return PatternOutcome(group_undecided(desc, str(exc)), None, (step,), None, None, None)
    structure, layers, diameter, obstruction = [], None, None, None
    layer_range = None  # where the layer count's proof holds, when narrower than the group's range
    primary, apart = _connected_by_class(conn, spec, n)
    question = open_question(spec)
    question = f" ({question})" if question else ""
    if primary is None:
        structure.append(undecided_step(desc, "no closed form for this pattern with symbolic n (give "
                                              f"`tokens N` to compute it for one n){question}" if isinstance(n, sympy.Symbol)
                                        else "no closed form for this pattern with symbolic parameters (give "
                                             "them integer values to compute it)"))
    else:
        notes = tuple(_other_cases(conn, primary))
        ev = {"range": _show_condition(primary.condition, n), "closed form": primary.rule}
        if not primary.strongly_connected:
            i, j = primary.witness
            obstruction = disconnected_step(desc, i, j, ev, _closed_form(primary, {"i": i, "j": j}, n), notes,
                                            condition=primary.condition)
            structure.append(obstruction)
        elif primary.diameter is not None:
            diameter = primary.diameter
            certificate = (GlobalUnion(tuple(dict.fromkeys(_patterns(spec))), primary.hub) if primary.hub is not None
                           else _closed_form(primary, {"diameter": diameter, "exact": True}, n))
            connected = connected_step(desc, certificate, ev, notes)
            structure.append(connected)
            labelled = (_labelled_window(spec, int(diameter), fixed_heads)  # an integer n, integer sizes
                        if fixed_heads is not None and isinstance(spec.tokens, int)
                        and isinstance(diameter, (int, sympy.Integer)) else None)
            if labelled is None and fixed_heads is not None and isinstance(n, sympy.Symbol):
                labelled = _labelled_window_any_length(spec, n, diameter, fixed_heads)
            if labelled is not None:  # Theorem F135 at a concrete n, F140 at every n ≥ w + 2 (docs/theory.md §16.5)
                step = layers_step(connected, diameter, labelled.layers, True, labelled.method,
                                   family=labelled.family)
                layers = labelled.layers
                layer_range = sympy.Ge(n, labelled.family.low) if isinstance(labelled.family,
                                                                             LabelledWindowRange) else None
            else:
                step, layers, layer_range = _symbolic_layers(spec, n, params, grp, connected, diameter)
            structure.append(step)
        elif primary.diameter_bound is not None:
            bound = primary.diameter_bound
            connected = connected_step(desc, _closed_form(primary, {"diameter": bound, "exact": False}, n), ev, notes)
            structure.append(connected)
            layers = bound + 1
            structure.append(layers_step(connected, None, layers, False,
                                         "view argument with an upper bound on the diameter"))
        else:
            structure.append(undecided_step(desc, f"the diameter has no closed form here{question}"))
    if obstruction is None and apart:  # NOT-UAP on the residue classes where the pattern falls apart (§12)
        structure.extend(_apart_step(desc, case, where, classes, _patterns(spec)) for case, where, classes in apart)
        # the verdict of the other classes is stated only where the connected case holds: the group's range
        # takes its condition, so no range stated for UAP contains a class stated NOT-UAP
        layer_range = primary.condition if layer_range is None else \
            simplify_condition(sympy.And(layer_range, primary.condition))
    if (layer_range is None and primary is not None and primary.condition is not sympy.true
            and len(set(_patterns(spec))) > 1):
        layer_range = primary.condition  # several heads: the verdict holds where the union's closed form does too
    step, info, *undecided = _symbolic_group(spec, desc, n, grp, layer_range if obstruction is None else None,
                                             question)
    structure.extend(undecided)  # the group undecided on some residue classes only (INCONCLUSIVE there, §12)
    return PatternOutcome(step, info, tuple(structure), layers, diameter, obstruction)


def _cost_refusal(spec: S.Spec, n) -> str:
    """"; " and the resource limit that left several unbiased heads' group undecided, with the lengths that would fit
    (graphs/head_intersection.cost_refusal), or ""."""
    from ..graphs.head_intersection import cost_refusal
    pats = list(dict.fromkeys(_patterns(spec)))
    if len(pats) < 2 or spec.positional != "none" or any(h.bias for h in spec.heads):
        return ""
    with stage("naming the resource limit of several heads' group"):
        why = cost_refusal(pats, n, _symbols(spec)[1])
    return f"; {why}" if why else ""


def _symbolic_group(spec: S.Spec, desc: str, n, grp, layer_range, question: str) -> tuple:
    """SYM-AUT at symbolic n from the group's closed form: by residue class of n when the case at large n
    depends on n mod L (§11.4), else the case at large n, stated where the layer count holds too
    (`layer_range`); SYM-UNDECIDED (and no group) when no case is chosen."""
    split = split_by_residue(grp, n, _lower_bounds(spec))
    if split is not None and len({_group_key(case) for case in split.chosen}) > 1:
        # G depends on n mod L: one group per residue class (Theorem 1 per class, docs/theory.md §11.4)
        return _group_by_class(spec, desc, n, grp, split, layer_range)
    partial = split_partially(grp, n, _lower_bounds(spec)) if split is None else None
    if partial is not None:
        # G proved on some residue classes only: stated there, and undecided on the others (§11.4, §12)
        return _group_by_class(spec, desc, n, grp, partial.split, layer_range, partial)
    # one group on every residue class, by several cases (F72's classes n even and n odd): stated on all of them
    merged = _one_group_by_class(split) if split is not None else None
    gprimary = merged or _primary(grp, spec, n)
    # a class whose case at large n depends on the parameters is named exactly (docs/theory.md §11.4)
    why = dependence(grp, n, _lower_bounds(spec)) if split is None else None
    apart = f"by residue class of n the case at large n is not one: {why}" if why else ""
    if gprimary is None:
        return group_undecided(desc, f"no closed form for the group with symbolic n{question}"
                               + (f"; {apart}" if apart else "") + _cost_refusal(spec, n)), None
    name = gprimary.name or gprimary.structure
    if gprimary.fixed_point is not None:
        name = f"stabilizer {sympy.sstr(gprimary.fixed_point)}"
    cond = "" if gprimary.condition is sympy.true else show_condition(gprimary.condition)
    gens = symbolic_generators(name)
    info = GroupInfo(name, order_text(gprimary.order), gens, cond, gprimary.condition if cond else None,
                     exact=_exact_order(gprimary.order))
    if layer_range is not None:
        # the verdict holds where both the group and the layer count are proved: the step states that range
        from dataclasses import replace as _replace
        layer_range = simplify_condition(layer_range)
        lr = show_condition(layer_range)
        alone = not cond or _implies(layer_range, gprimary.condition, spec, n)
        if not (cond and not alone and _implies(gprimary.condition, layer_range, spec, n)):  # else: G's range
            both = layer_range if alone else simplify_condition(sympy.And(gprimary.condition, layer_range))
            info = _replace(info, condition=lr if alone else show_condition(both), condition_formula=both)
    own = _show_condition(gprimary.condition, n)
    stated = f"for {info.condition}" if info.condition else _show_condition(sympy.true, n)
    # the step states G where the verdict holds (the group's range and the layer count's); the closed form's own
    # range, when wider, is said as such
    ranges = {"range": own} if stated == own else {"range": stated, "the group's closed form holds": own}
    step = group_step(desc, info, {**ranges, "closed form": gprimary.rule, "generators": list(gens)},
                      _group_certificate(spec, gprimary, info),
                      tuple(_other_cases(grp, gprimary, split.chosen if merged else ())) + ((apart,) if apart else ()))
    return step, info


def _one_group_by_class(split):
    """One case for the range R where every residue class's chosen case holds, when those cases are several but
    state one group (its name and order) from one proof (the same intersection, or the engine's closed forms):
    for n in R with n ≡ r (mod L) class r's case holds (residue_classes.ResidueSplit), so G is that group on R.
    None when there is one case (`_primary` states it) or the cases' groups or proofs differ (stated by class)."""
    from dataclasses import replace
    cases = [case for _, case in split.classes()]
    if len(cases) < 2 or len({_group_key(case) for case in cases}) != 1:
        return None
    first = cases[0]
    if any(case.intersection != first.intersection for case in cases):
        return None
    rules = list(dict.fromkeys(case.rule for case in cases))
    rule = rules[0] if len(rules) == 1 else f"by residue class of n mod {split.modulus}: " + "; ".join(
        f"{list(residues)}: {case.rule}" for residues, case in split.classes())
    return replace(first, condition=simplify_condition(split.bound), rule=rule)


def _connected_by_class(conn, spec: S.Spec, n) -> tuple:
    """(the connectivity case the verdict states, [(case, its classes' condition), ...] for the residue classes
    of n where the pattern is not strongly connected). When the cases at large n depend on n mod L, are
    strongly connected on some classes (all by one case) and not on the others, the verdict is stated for the
    connected classes and NOT-UAP for the others (docs/theory.md §12, by residue class); otherwise the case
    that holds at large n, and no classes."""
    split = split_by_residue(conn, n, _lower_bounds(spec))
    if split is not None:
        joined = [case for _, case in split.classes() if case.strongly_connected]
        apart = [(rs, case) for rs, case in split.classes() if not case.strongly_connected]
        if len(joined) == 1 and apart:
            out = []
            for residues, case in apart:
                where = sympy.And(case.condition, class_condition(n, split.modulus, residues))
                out.append((case, simplify_condition(where), (split.modulus, residues)))
            return joined[0], out
        if not apart and len(joined) > 1 and all(case.diameter is not None for case in joined):
            return _diameter_by_class(split, n), []
    return _primary(conn, spec, n), []


def _diameter_by_class(split, n):
    """One connectivity case for the range where every class's case holds, its diameter a Piecewise over
    n mod L (each class's case's diameter; the largest class last): for n in the range with n ≡ r (mod L)
    the class's case holds, so its diameter is the value (docs/theory.md §11.4)."""
    from ..graphs.closed_forms import ConnectivityCase
    pieces = sorted(split.classes(), key=lambda item: (len(item[0]), item[0][0]))
    last = pieces[-1]
    cases = [(case.diameter, class_condition(n, split.modulus, residues)) for residues, case in pieces[:-1]]
    diameter = sympy.Piecewise(*cases, (last[1].diameter, True))
    rule = "by residue class of n mod " + str(split.modulus) + ": " + "; ".join(
        f"{list(residues)}: {case.rule}" for residues, case in split.classes())
    return ConnectivityCase(simplify_condition(split.bound), True, diameter, rule=rule)


def _apart_step(desc: str, case, where, classes: tuple, patterns: list) -> proof.Step:
    """PAT-DISCONNECTED on residue classes of n (`where`; `classes`: (L, residues)): the closed form's case,
    its witness (i, j)."""
    i, j = case.witness
    certificate = _closed_form(case, {"i": i, "j": j})
    if (i, j) == (1, 2) and all(isinstance(p, S.Offsets) for p in patterns):
        coset = CosetInvariant(tuple(dict.fromkeys(patterns)), *classes)
        try:
            coset.check()  # cyclic offsets whose gcd the classes share: Theorem F27 (a), checked, not trusted
            certificate = coset
        except proof.CertificateRejected:
            pass
    return disconnected_step(desc, i, j, {"range": _show_condition(where), "closed form": case.rule},
                             certificate, condition=where, by_class=classes)


def _case_group(case) -> GroupInfo:
    """The group a closed form's case states (no range: the caller states it)."""
    name = case.name or case.structure
    if case.fixed_point is not None:
        name = f"stabilizer {sympy.sstr(case.fixed_point)}"
    return GroupInfo(name, order_text(case.order), symbolic_generators(name), exact=_exact_order(case.order))


def _exact_order(order):
    """The order itself when it is a symbolic expression (the JSON writes it by its pieces), its int when it is a
    number of at most 1000 digits (the JSON writes it out), else None."""
    return order if isinstance(order, sympy.Basic) and order.free_symbols else exact_int(order)


def _group_key(case) -> tuple:
    info = _case_group(case)
    return info.name, str(info.order)


def _group_by_class(spec: S.Spec, desc: str, n, grp, split, layer_range, partial=None) -> tuple:
    """SYM-AUT for a group that depends on n mod L: each residue class's case of the closed form, classes with
    the same group merged, stated for the range where every chosen case (and the layer count) holds. With
    `partial` (a PartialSplit: some classes have no case proved at large n), the range is also restricted to the
    decided classes, and SYM-UNDECIDED is stated for the open ones (their facts name the classes, so the verdict
    is INCONCLUSIVE there only): (SYM-AUT, its group, SYM-UNDECIDED)."""
    merged: dict = {}
    entries = []
    for residues, case in split.classes():
        info = _case_group(case)
        entries.append((residues, _group_certificate(spec, case, info)))
        merged.setdefault((info.name, str(info.order)), ([], info))[0].extend(residues)
    classes = [GroupClass(split.modulus, tuple(sorted(rs)), class_condition(n, split.modulus, rs), info)
               for rs, info in merged.values()]
    last = max(classes, key=lambda c: (len(c.residues), c.residues[0]))  # the largest class reads "else"
    classes = sorted((c for c in classes if c is not last), key=lambda c: c.residues[0]) + [last]
    where = bound = simplify_condition(split.bound if layer_range is None else sympy.And(split.bound, layer_range))
    if partial is not None:
        where = simplify_condition(sympy.And(bound, class_condition(n, split.modulus, partial.decided())))
    every = partial is None
    words = show_classes(((c.group.name or f"a group of order {c.group.order}", c.condition) for c in classes), every)
    orders = show_classes(((str(c.group.order), c.condition) for c in classes), every)
    shown = "" if where is sympy.true else show_condition(where)
    info = GroupInfo(words, orders, (), shown, where if shown else None, classes=tuple(classes))
    chosen = {id(case) for case in split.chosen}
    notes = tuple(f"{_show_condition(case.condition)}: |G| = {show_order(_order_in(case))}"
                  + (f" ({case.name})" if case.name else "") for case in grp.cases if id(case) not in chosen)
    ev = {"range": _show_condition(where), "modulus": split.modulus,
          "classes": [{"residues": list(c.residues), "name": c.group.name, "order": c.group.order_value,
                       "generators": list(c.group.generators)} for c in classes],
          "closed forms": sorted({case.rule for case in split.chosen if case is not None})}
    if partial is None:
        return group_step(desc, info, ev, ByResidueClass(split.modulus, tuple(entries)), notes), info
    ev["open classes"] = show_condition(class_condition(n, split.modulus, partial.open))
    step = group_step(desc, info, ev, ByResidueClass(split.modulus, tuple(entries), partial.open), notes)
    reason = (f"no closed form gives G there at large n ({partial.why})" if partial.why
              else "no closed form gives G there at large n")
    return step, info, group_undecided(desc, reason, (n, split.modulus, partial.open, bound))


def _symbolic_layers(spec: S.Spec, n, params, grp, connected: proof.Step, diameter):
    """Symbolic n with an exact D: (the PAT-LAYERS step, the count, the range of its proof or None)."""
    heads = _heads_layers(spec, n, params, grp, diameter)
    if heads is not None and not isinstance(n, sympy.Symbol):  # a concrete length (Theorem F125 (b))
        from ..graphs.heads_at_length import symbol
        cert = HeadLayers(tuple(dict.fromkeys(_patterns(spec))), heads.found, heads.n, heads.layers,
                          length_symbol=symbol())
        return (layers_step(connected, diameter, heads.layers, True,
                            claim_of(_heads_layers_method(heads.found), f"; here n = {heads.n:,} (Theorem F125 (b))"),
                            _witness_at(heads), family=cert), heads.layers, None)
    if heads is not None:
        cert = HeadLayers(tuple(dict.fromkeys(_patterns(spec))), heads, length_symbol=n)
        return (layers_step(connected, diameter, heads.layers, True, _heads_layers_method(heads),
                            _heads_witness(heads), family=cert), heads.layers, sympy.Ge(n, heads.low))
    covered = _covered_heads(spec, n, connected, diameter)
    if covered is not None:
        return covered
    family = _proven_family(spec)
    if not family and diameter == 1 and len(set(_patterns(spec))) == 1 and not any(_biases(spec)):
        # (with labels a complete pattern is a dense labelled family: one layer may not suffice, §16.4)
        family = "the single pattern is complete: one layer sees every token"
    if family:
        return (layers_step(connected, diameter, diameter, True, family), diameter,
                _family_range(spec, n, params))
    witness = _closed_witness(spec, n, params)
    if witness is not None:
        return (layers_step(connected, diameter, diameter + 1, True, "view witness (closed form, docs/theory.md "
                            "§11.9): D layers are not enough, D + 1 suffice", witness), diameter + 1, None)
    several = len(set(_patterns(spec))) > 1
    return (layers_step(connected, diameter, diameter + 1, False, "view argument: D + 1 layers suffice; no family "
                        "theorem decides whether D do for this pattern (docs/theory.md §11.11; open, §13 L2"
                        + (", O8 for several heads" if several else "") + ")" + _refused_check(spec, n, params)),
            diameter + 1, None)


def _covered_heads(spec: S.Spec, n, connected: proof.Step, diameter):
    """Theorems F210 and F218: several unbiased heads among `window(w) cyclic`, `strided(s)` and their union (w + 1 ≤ s
    ≤ 2w + 1, s ≥ 3) at symbolic n, D = 2: (the PAT-LAYERS step, the count, n ≥ s(3w + 2)); the count is a count by
    class for s ≤ 2w (2 on n ≡ 0 (mod s), Theorem F218; 3 on the others), least on n ≡ 0 and on Theorem F200's classes
    (a least flag by class), and 3, least on every class, for s = 2w + 1; None otherwise."""
    from ..graphs.cyclic_covered_heads import match
    if spec.positional != "none" or any(h.bias or h.position is not None for h in spec.heads) or diameter != 2:
        return None
    found = match(_patterns(spec))
    if found is not None and not isinstance(n, sympy.Symbol) and int(n) >= found.low and int(n) % found.s == 0 \
            and found.s <= 2 * found.w:  # Theorem F218 at a concrete length without its arcs: 2 layers, least
        at = int(n)
        cert = CoveredStrideHeads(tuple(dict.fromkeys(_patterns(spec))), found, at)
        method = claim_of("Theorem F218 at n = ", f"{at:,}", " (", str(found.s), " | n, n ≥ ", str(found.low),
                          "): the union of the heads is `window(", str(found.w), ") cyclic + strided(", str(found.s),
                          ")`, whose automorphism group G is the dihedral group; by lemma AH a permutation keeping every "
                          "neighbourhood of a root's ball is a rotation or a reflection, so no view witness exists "
                          "(for the heads either: one would be the union's)")
        return layers_step(connected, diameter, 2, True, method, family=cert), 2, None
    if found is None or not found.least_residues:
        return None
    if not isinstance(n, sympy.Symbol):  # a concrete length without its arcs: F210 read at n, on F200's classes
        at = int(n)
        if at < found.low or at % found.s not in found.classes:
            return None
        cert = CoveredStrideHeads(tuple(dict.fromkeys(_patterns(spec))), found, at)
        method = claim_of("Theorem F210 at n = ", f"{at:,}", " (n mod ", str(found.s), " = ", str(at % found.s), ", n ≥ ",
                          str(found.low), "): the union of the heads is `window(", str(found.w), ") cyclic + strided(",
                          str(found.s), ")` (D = 2 by Theorem F197); Theorem F200's witness at n keeps every head's "
                          "neighbourhood of every position within distance 1 of its root and is not in G, so D = 2 "
                          "layers are not enough; D + 1 = 3 suffice by the view argument")
        return layers_step(connected, diameter, 3, True, method, family=cert), 3, None
    layers = found.layers(n)
    every = len(found.least_residues) == found.s
    cert = CoveredStrideHeads(tuple(dict.fromkeys(_patterns(spec))), found, layers=layers,
                              least_classes=() if every else (found.s, found.least_residues))
    divisible = ("on n ≡ 0 (mod " + str(found.s) + ") D = 2 layers suffice and are least (Theorem F218: G, the "
                 "dihedral group, holds "
                 "every rotation, and by lemma AH a permutation keeping every neighbourhood of a root's ball is a "
                 "rotation or a reflection, so no view witness of the union exists, nor of the heads, whose witness "
                 "would be the union's); on the other classes " if found.divisible else "")
    method = ("Theorem F210: the union of the heads is `window(" + str(found.w) + ") cyclic + strided(" + str(found.s)
              + ")` (D = 2 by Theorem F197, G by Theorem F201); " + divisible + "Theorem F200's " + (
                  "block exchange at position 1 keeps every head's neighbourhood of every position within distance 1 of "
                  "it and is not in G, so D = 2 layers are not enough; D + 1 = 3 suffice by the view argument"
                  if found.every else
                  "swap (a seam pair of one class, or two neighbours whose classes the window of an end root misses) "
                  "keeps every head's neighbourhood of every position within distance 1 of its root and is not in G, "
                  "so 3 layers are least on its classes; D + 1 = 3 suffice by the view argument"
                  if found.classes else "D + 1 = 3 layers suffice by the view argument"))
    step = layers_step(connected, diameter, layers, every, method, family=cert,
                       least_classes=() if every else (found.s, found.least_residues), length=n)
    return step, layers, sympy.Ge(n, found.low)


def _refused_check(spec: S.Spec, n, params) -> str:
    """Why Theorem F191's check did not decide several heads meeting its premise, when a work bound refused it: the
    bound, the check's size and the size that would fit (a resource limit, reported as such); else ""."""
    from ..graphs.cyclic_window_directed_least import MAX_CHECK_N, MAX_WORK
    from ..graphs.head_layers import directed_heads_refused
    pats = list(dict.fromkeys(_patterns(spec)))
    if len(pats) < 2 or not isinstance(n, sympy.Symbol) or spec.positional != "none" or any(h.bias for h in spec.heads):
        return ""
    size = directed_heads_refused(pats, n, params)
    if size is None:
        return ""
    if size.last > MAX_CHECK_N:
        bound = (f"its last length {size.last:,} passes the check's length bound MAX_CHECK_N = {MAX_CHECK_N:,} "
                 f"(a check whose last length is at most {MAX_CHECK_N:,} fits)")
    else:
        bound = (f"its work, (lengths checked) × (last length) × (parts per position) × (heads) = "
                 f"{size.last - size.low:,} × {size.last:,} × {size.per_length:,} = {size.work:,}, passes the work "
                 f"bound MAX_WORK = {MAX_WORK:,} (a check of these heads fits when its last length is at most "
                 f"{size.last_that_fits():,})")
    return (f"; Theorem F191's check on the heads' arcs, at every length from {size.low:,} to {size.last - 1:,}, "
            f"was not run: {bound}")


def _heads_layers(spec: S.Spec, n, params, grp, diameter):
    """Several distinct unbiased heads without a positional encoding at symbolic n: the least count from the
    union of their arcs (Theorems F70–F71, graphs/head_layers.py), when it decides and its D is this one."""
    from ..graphs.head_layers import least_layers
    pats = list(dict.fromkeys(_patterns(spec)))
    if len(pats) < 2 or spec.positional != "none" or any(h.bias for h in spec.heads):
        return None
    if not isinstance(n, sympy.Symbol):
        # a concrete length: the symbolic theorems evaluated at n (Theorem F125 (b)), without the arcs at n
        from ..graphs.heads_at_length import heads_layers_at
        # No clock of its own (the count must not depend on the machine's speed): the checks inside stop on
        # deterministic work bounds (F190/F191's MAX_WORK and MAX_CHECK_N, MAX_CHECKED_N), and the file's --budget.
        with stage("the least layer count of several heads"):
            at = heads_layers_at(pats, int(n), params)
        return at if at is not None and at.diameter == diameter else None
    with stage("the least layer count of several heads"):
        found = least_layers(pats, grp.cases if grp is not None else None, n, params)
    if found is None or not is_zero(sympy.sympify(found.diameter - diameter, strict=True)):  # safe: strict (no text parsed)
        return None
    return found


_IN_BALL = ("the union needs D ≥ 2 layers and its only symmetry, the reflection, moves some head's neighbourhood "
            "within K of a position within K of every root that the root attends to (or of the root), so in every "
            "ball, and a permutation meeting every head's view condition is the identity (Theorem F198), checked on "
            "the heads' arcs at every length of the class up to its profile bound")


def _growing_heads_method(found) -> str:
    """Theorem F192's method: the union's D growing with n, its F70, F124 and F198 classes."""
    by = f"Theorem {found.union_theorem}" if found.union_theorem.startswith("F") else \
        f"a non-cyclic window, {found.union_theorem}"
    few = [c.residue for c in found.growing if c.found_by == "F70"]
    broken = [c.residue for c in found.growing if c.found_by == "F124"]
    in_ball = [c.residue for c in found.growing if c.found_by == "F198"]
    parts = [f"on n mod {found.modulus} ∈ {{{', '.join(map(str, broken))}}} its only symmetry, the reflection, "
             "moves some head's neighbourhood within K of every position, so a permutation meeting every head's "
             "view condition is the identity (Theorem F124), checked on the heads' arcs at every length of the "
             "class up to its profile bound"] if broken else []
    if in_ball:
        parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, in_ball))}}} {_IN_BALL}")
    if few:
        parts.insert(0, f"on n mod {found.modulus} ∈ {{{', '.join(map(str, few))}}} the heads' group has the "
                        "union's order, so a view witness of the heads would be one of the union")
    return (f"several heads, Theorem F192 (docs/theory.md §11.11): the union of the heads' arcs needs D layers "
            f"({by}), D growing with n, and its group is the reflection; {'; '.join(parts)}; for n ≥ {found.low}")


def _union_automorphism_method(found) -> str:
    """Theorem F236's method (with F235): the union's automorphisms that move heads only far from the root."""
    more = ", ".join(map(str, found.extra_residues))
    return (f"several heads, Theorem F236 (docs/theory.md §11.11): the union of the heads' arcs needs D layers "
            f"(Theorem {found.union_theorem}), so by Theorem F235 (lemma AR) a view witness of the heads is an "
            "automorphism of the union outside the heads' group that moves some head's neighbourhood only at "
            "positions at distance D from its root; the twins' swap at the start moves position 3's and every "
            "reflection position 4's, never at distance D, and the twins' swap at the end moves only the last two "
            f"positions', both at distance D from position 1, exactly when n mod {found.modulus} ∈ {{{more}}}: D + 1 "
            f"layers there, D elsewhere; for n ≥ {found.low}")


#: the several-heads theorems whose method has a function of its own
_OWN_METHODS = {"F192": lambda found: _growing_heads_method(found), "F236": lambda found: _union_automorphism_method(found),
                "F143": lambda found: _cyclic_heads_method(found)}


def _heads_layers_method(found) -> str | Claim:
    if found.theorem == "F86":
        more = [c.residue for c in found.classes if c.found_by == "F71"]
        own = [c.residue for c in found.classes if c.found_by == "F88"]
        moved = [c.residue for c in found.classes if c.found_by == "F127"]
        few = [c.residue for c in found.classes if c.found_by == "F70"]  # (D layers on the class)
        hidden = [c.residue for c in found.classes if c.found_by == "F76"]
        broken = [c.residue for c in found.classes if c.found_by == "F124"]
        in_ball = [c.residue for c in found.classes if c.found_by == "F198"]
        parts = []
        if few:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, few))}}} the union needs D layers "
                         f"(Theorem {found.union_theorem}) and the heads' group has the union's order, so a view "
                         "witness of the heads would be one of the union")
        if broken:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, broken))}}} the union needs D layers "
                         f"(Theorem {found.union_theorem}) and its only symmetry, the reflection, moves some head's "
                         "neighbourhood of every position, so a permutation meeting every head's view condition is the "
                         "identity (Theorem F124), checked on the heads' arcs at every length of the class up to its "
                         "profile bound" + ("; the union's reflection fixes the global 1 and reflects {2, …, n}, and it "
                                            "suffices that it moves a head's neighbourhood of 1, which lies in every "
                                            "ball (Theorem F170)" if found.union_theorem == "F33" else ""))
        if in_ball:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, in_ball))}}} {_IN_BALL}")
        if hidden:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, hidden))}}} the heads are partition heads "
                         "and no position's ball misses two parts of one head, so a permutation meeting every head's "
                         "view condition maps every part onto a part (Theorem F76): D = 2 layers suffice, checked on the "
                         "heads' arcs at every length of the class up to its profile bound")
        if more:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, more))}}} the union's view witness "
                         f"(Theorem {found.union_theorem}) keeps every head's neighbourhoods on the ball, checked on "
                         "the heads' arcs at every length of the class up to its profile bound")
        if own:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, own))}}} a swap near the ends that is no "
                         "automorphism of some head keeps every head's neighbourhoods on the ball of D = 2 (Theorem "
                         f"F88; D from Theorem {found.union_theorem}), checked on the heads' arcs at every length of the "
                         "class up to its profile bound")
        if moved:
            parts.append(f"on n mod {found.modulus} ∈ {{{', '.join(map(str, moved))}}} a permutation near the ends "
                         "(found by the concrete engine at one length of the class) that is no automorphism of some "
                         "head keeps every head's neighbourhoods on the ball of D = 2 (Theorem F127), checked on the "
                         "heads' arcs at every length of the class up to its profile bound")
        return (f"several heads, Theorem F86 (docs/theory.md §11.11), class by class: {'; '.join(parts)}; "
                f"for n ≥ {found.low}")
    if found.theorem == "F188":
        return ("several heads, Theorem F188 (docs/theory.md §11.11): every head is `full` or `star`, so the union is "
                "complete (D = 1) and the heads' group is the stabiliser of position 1; a permutation keeping every "
                "head's neighbourhood of one position fixes 1 (only 1 attends to every position, and a leaf's "
                "neighbourhood {1, i} is kept only if 1 is), so no view witness: one layer suffices, the fewest a "
                f"model has; for n ≥ {found.low}")
    own = _OWN_METHODS.get(found.theorem)
    if own is not None:
        return own(found)
    if found.theorem == "F191":
        h = found.directed_heads
        more = [r for r in range(found.modulus) if h.extra[r]]
        return (f"several heads, Theorem F191 (docs/theory.md §11.11): the union of the heads' arcs is `window({h.w}) "
                f"cyclic` with the non-cyclic offsets {{{', '.join(map(str, h.outside))}}} (Theorem F101: its group, "
                "and so the heads', is trivial), and at every length from the range's start to "
                f"{h.proved_low + found.modulus - 1} {h.rounds} rounds of colour refinement of each rooted view, every "
                "head's arcs coloured apart, decide every head's arcs into the far positions (D layers suffice), "
                "or two far positions are attended by the same ball positions in every head (a view witness), "
                f"each property the same at n and n + {found.modulus} past that check (Theorem F190's cut)"
                + (f": D + 1 on n mod {found.modulus} ∈ {{{', '.join(map(str, more))}}}, D elsewhere" if more
                   else ": D layers on every class") + f"; for n ≥ {found.low}")
    if found.theorem == "F75":
        e = found.far_ends
        return (f"several heads, Theorem F75 (docs/theory.md §11.11): the union of the heads' arcs is straight "
                f"(Theorem {found.union_theorem}) and the positions at distance D from any position form a clique in "
                f"every head, so a permutation meeting every head's view condition keeps every head's arcs (those "
                f"meeting the ball by the condition, those outside it as cliques): no view witness, though the "
                f"heads' group may be smaller than the union's; checked on the heads' arcs up to "
                f"n = {e.start + e.modulus - 1} and the same for every larger n of each residue class mod "
                f"{e.modulus}; for n ≥ {found.low}")
    if found.theorem == "F70":
        by = f"Theorem {found.union_theorem}" if found.union_theorem.startswith("F") else \
            f"a non-cyclic window, {found.union_theorem}"
        return (f"several heads, Theorem F70 (docs/theory.md §11.11): the union of the heads' arcs needs D layers "
                f"({by}) and the heads' group has the union's order on every residue "
                f"class, so a view witness of the heads would be one of the union; for n ≥ {found.low}")
    return (f"several heads, Theorem F71 (docs/theory.md §11.11): the union's view witness (Theorem "
            f"{found.union_theorem}) keeps every head's neighbourhoods on the ball, checked on the heads' arcs "
            f"up to n = {found.start + found.modulus - 1} and the same for every larger n"
            + (f" of each residue class mod {found.modulus}" if found.modulus > 1 else "") + f"; for n ≥ {found.low}")


def _cyclic_heads_method(found) -> Claim:
    """Theorem F143's method: its inequalities on n, the ball's size 2w(D − 1) + 1 (one-sided w(D − 1) + 1) and the
    zone's fit, are formula parts worded as before."""
    c = found.cyclic_heads
    n, w, depth = sympy.symbols("n w D")
    if c.one_sided:
        union = f"`offsets {{{'' if c.one_sided > 0 else '−'}1, …, {'' if c.one_sided > 0 else '−'}{c.w}}} cyclic`"
        ball, ball_text = w * (depth - 1), "w(D − 1)"
        group, shape = "the rotations of the cycle (Theorem F6)", "rotation"
        case = "every head's offsets lie on one side"
    else:
        union, ball, ball_text = f"`window({c.w}) cyclic`", 2 * w * (depth - 1), "2w(D − 1)"
        group, shape = "the rotations and reflections of the cycle (Theorem F5)", "rotation or reflection"
        case = {"asymmetric": "some head's offsets are not symmetric, so no reflection keeps a position away from "
                              "the ends",
                "reflected": "every head is invariant under i ↦ n + 1 − i",
                "symmetric": "every head's offsets are symmetric, some head is not invariant under i ↦ n + 1 − i, "
                             "so the one reflection that reverses the zone may meet the condition too"}[c.case]

    def fits(outside: int, extra: int):  # n − outside ≥ ball + extra, worded "n − 5 ≥ 2w(D − 1) + 2"
        return math(sympy.GreaterThan(sympy.Add(n, -outside, evaluate=False), ball + extra, evaluate=False),
                    f"n − {outside} ≥ {ball_text} + {extra}")
    mirror: tuple = ()
    if c.failing is not None:
        lo, hi = c.failing
        mirror = (f"; the reflection reversing the zone moves some head's neighbourhood exactly at the zone "
                  f"positions x = {lo} to {hi} (x = i for the first positions, i − n for the last), so it is a "
                  "witness iff a ball avoids them, ", fits(hi - lo + 1, 1))
    elif c.case == "symmetric":
        mirror = ("; the reflection reversing the zone keeps every head, so it is no witness",)
    return claim_of(f"several heads, Theorem F143 (docs/theory.md §11.11): the union of the heads' arcs is {union}, "
                    f"which needs D layers with its group {group}, so a view witness of the heads is a {shape} keeping "
                    "every head's neighbourhoods on the ball, an arc of ", math(ball + 1, f"{ball_text} + 1"),
                    f" positions; every head is made of window, offsets and dilated parts, {case}, and the positions "
                    f"where a non-cyclic offset leaves [1, n] are the last {c.a} and the first {c.b}: a "
                    f"{'rotation ' if c.case == 'symmetric' else ''}witness exists iff they are some and the ball and "
                    "its shift by one fit between them, ", fits(c.a + c.b, 2), *mirror,
                    f", a condition on n mod {c.modulus}; for n ≥ {found.low}")


def _heads_witness(found) -> Optional[dict]:
    if found.classes:
        return _heads_class_witnesses(found)
    if found.cyclic_heads is not None and found.cyclic_heads.extra_residues:  # F143: the rotation by one
        c = found.cyclic_heads
        return {"position": sympy.sstr(c.position(found.diameter)), "permutation": c.permutation(),
                "range": f"for n ≥ {found.low} with n mod {c.modulus} ∈ {{{', '.join(map(str, c.extra_residues))}}}",
                "found by": found.section,
                "why": (f"the ball of the position, positions {c.failing[1] + 1} to {c.failing[1] + 1} + 2w(D − 1) "
                        f"(mod n), avoids the zone positions where the reflection moves a head's neighbourhood onto "
                        f"another set than the image's, so every head's neighbourhood of a ball position is moved onto "
                        f"the image's" if c.failing is not None else
                        f"the ball of the position, positions {c.b + 1} to {c.b + 1} + 2w(D − 1), and its image lie "
                        f"between the positions where a non-cyclic offset leaves [1, n], so every head's neighbourhood "
                        f"of a ball position is moved onto the image's")}
    if found.witness is None:
        return None
    pos, (a, b) = found.witness
    show = sympy.sstr
    return {"position": show(pos), "swap": [show(a), show(b)], "range": f"for n ≥ {found.low}",
            "found by": f"{found.section} (the union's witness, Theorem {found.union_theorem})",
            "why": f"every position whose neighbourhood in some head the swap ({show(a)} {show(b)}) changes is at "
                   f"distance 2 from {show(pos)}, so after 2 layers the output there is the same for X and for "
                   f"X with x_{_index_text(a)}, x_{_index_text(b)} exchanged"}


def _witness_at(at) -> Optional[dict]:
    """The union's swap at a concrete length (Theorem F125 (b)), when the count there is D + 1."""
    if at.witness is None:
        return None
    pos, (a, b) = at.witness
    return {"position": pos, "swap": [a, b], "diameter": at.diameter,
            "found by": f"{at.found.section} (the union's witness, Theorem {at.found.union_theorem}), at n = {at.n:,}"}


def _heads_class_witnesses(found) -> Optional[dict]:
    """F86: the swap of every class that needs D + 1 layers."""
    show = sympy.sstr
    out = {}
    for c in found.classes:
        if c.witness is not None:
            pos, (a, b) = c.witness
            out[f"n mod {found.modulus} = {c.residue}"] = {"position": show(pos), "swap": [show(a), show(b)],
                                                           "range": f"for n ≥ {c.low} in the class"}
        elif c.permutation is not None:
            pos, pairs = c.permutation
            out[f"n mod {found.modulus} = {c.residue}"] = {
                "position": show(pos), "permutation": [f"{show(x)} ↦ {show(y)}" for x, y in pairs],
                "range": f"for n ≥ {c.low} in the class"}
    if not out:
        return None
    return {"by class": out, "found by": f"{found.section} (the union's witnesses, Theorem {found.union_theorem})"}


def _group_certificate(spec: S.Spec, case, info):
    """Several heads decided by Theorems F35–F39: the intersection itself (re-checked by the kernel and the
    verifier); any other closed form: the engine's, trusted."""
    if case.intersection is None:
        return _closed_form(case, {"order": info.order}, spec.tokens)
    from ..graphs.heads_at_length import symbol
    n, _ = _symbols(spec)
    named = {"length_symbol": n if isinstance(n, sympy.Symbol) else symbol()}  # the symbol the order names n by
    if case.intersection[0] == "cyclic window heads":  # Theorem F153
        from ..certificates import CyclicHeadsGroup
        _, found, low, *length = case.intersection  # a concrete length: the closed form read there
        return CyclicHeadsGroup(tuple(dict.fromkeys(_patterns(spec))), found, low, case.order,
                                length[0] if length else None, **named)
    if case.intersection[0] == "residue exchanging heads":  # Theorem F186
        from ..certificates import ResidueExchangesGroup
        _, found, residue, *length = case.intersection
        return ResidueExchangesGroup(tuple(dict.fromkeys(_patterns(spec))), found, residue, case.order,
                                     length[0] if length else None)
    if case.intersection[0] == "split line heads":  # Theorem F187
        from ..certificates import SplitLinesGroup
        _, found, residue, *length = case.intersection
        return SplitLinesGroup(tuple(dict.fromkeys(_patterns(spec))), found, residue, case.order,
                               length[0] if length else None)
    if case.intersection[0] == "cyclic parity hubs":  # Theorem F221
        from ..certificates import ParityHubsGroup
        _, found, residue, *length = case.intersection
        return ParityHubsGroup(tuple(dict.fromkeys(_patterns(spec))), found, residue, case.order,
                               length[0] if length else None, **named)
    if case.intersection[0] == "grid hub heads":  # Theorem F171
        from ..certificates import GridHubsGroup
        return GridHubsGroup(tuple(dict.fromkeys(_patterns(spec))), case.intersection[1], case.order, **named)
    if case.intersection[0] == "partition heads":  # Theorem F72
        from ..certificates import PartitionHeads
        found, *length = case.intersection[1:]
        if length:  # a concrete length (Theorem F126): the class's formula in n, and the length it is read at
            from ..graphs.heads_at_length import partition_class_at
            c = partition_class_at(found, length[0])
            return PartitionHeads(tuple(dict.fromkeys(_patterns(spec))), found, c.expression(symbol(), found.modulus),
                                  length[0], length_symbol=symbol())
        return PartitionHeads(tuple(dict.fromkeys(_patterns(spec))), found, case.order, **named)
    from ..certificates import HeadIntersection
    found, stated, *length = case.intersection  # a concrete length: Theorem F125 (a)
    return HeadIntersection(tuple(dict.fromkeys(_patterns(spec))), found, stated, case.order,
                            length[0] if length else None, **named)


def _family_range(spec: S.Spec, n, params):
    """Symbolic n: the range of n where `_proven_family`'s proof of the layer count holds, when it is
    narrower than every n (docs/theory.md §11.9: cyclic windows n ≥ 2w + 3, one-sided offsets n ≥ 2w + 2)."""
    if not isinstance(n, sympy.Symbol):
        return None
    pats = _patterns(spec)
    if len(set(pats)) != 1:
        return None
    p = pats[0]
    if isinstance(p, S.Window) and p.cyclic:
        w = sympy.Integer(p.w) if isinstance(p.w, int) else params.get(p.w)
        return None if w is None else sympy.Ge(n, 2 * w + 3)
    if isinstance(p, S.Offsets) and p.cyclic:
        w = len(set(p.offsets) - {0})
        return sympy.Ge(n, 2 * w + 2)
    return None


def _implies(stronger, weaker, spec: S.Spec, n) -> bool:
    """`stronger` ⇒ `weaker`, both `n ≥ a·p + b` with at most one integer parameter p ≥ p_0: exactly
    when a_s·p + b_s ≥ a_w·p + b_w for every p ≥ p_0, i.e. a_s ≥ a_w and the inequality holds at p_0."""
    if weaker is sympy.true:
        return True
    if isinstance(weaker, sympy.Or) and isinstance(stronger, sympy.GreaterThan) and stronger.lhs == n \
            and stronger.rhs.is_Integer:
        # residue classes each from its own bound (Theorem F39): implied when n ≥ N reaches every bound
        lows = [a.rhs for arg in weaker.args for a in (arg.args if isinstance(arg, sympy.And) else (arg,))
                if isinstance(a, sympy.GreaterThan) and a.lhs == n]
        residues = [a for arg in weaker.args for a in (arg.args if isinstance(arg, sympy.And) else (arg,))
                    if isinstance(a, sympy.Eq)]
        return (len(lows) == len(weaker.args) == len(residues) and all(x.is_Integer and x <= stronger.rhs for x in lows)
                and len({r.rhs for r in residues}) == len(residues)
                and all(isinstance(r.lhs, sympy.Mod) and r.lhs.args[0] == n and r.lhs.args[1] == len(residues)
                        for r in residues))
    if not (isinstance(stronger, sympy.GreaterThan) and isinstance(weaker, sympy.GreaterThan)
            and stronger.lhs == n and weaker.lhs == n):
        return False
    free = (stronger.rhs.free_symbols | weaker.rhs.free_symbols) - {n}
    if len(free) > 1:
        return False
    if not free:
        return bool(stronger.rhs >= weaker.rhs)
    (p,) = free
    lows = _lower_bounds(spec)
    if p.name not in lows:
        return False
    diff = sympy.expand(stronger.rhs - weaker.rhs)
    if not diff.is_polynomial(p) or sympy.degree(diff, p) > 1:
        return False
    slope = diff.coeff(p, 1)
    return bool(slope >= 0 and diff.subs(p, lows[p.name]) >= 0)


def _closed_witness(spec: S.Spec, n, params) -> Optional[dict]:
    """The closed-form view witness when its range holds here (every large n, or this n)."""
    from ..graphs.closed_forms import closed_view_witness
    case = closed_view_witness(_patterns(spec), n, params, _biases(spec), spec.positional)
    if case is None:
        return None
    cond = case.condition
    if isinstance(n, sympy.Symbol):
        holds = _primary_condition(cond, spec, n)
    else:
        values = {s: sympy.Integer(v) for s in cond.free_symbols for k, v in _lower_bounds(spec).items()
                  if s.name == k}
        holds = cond.xreplace(values) is sympy.true if not cond.free_symbols - set(values) else False
    if not holds:
        return None
    a, b = case.swap
    show = sympy.sstr
    return {"position": show(case.position), "swap": [show(a), show(b)], "range": _show_condition(cond),
            "found by": case.rule,
            "why": f"every position whose neighbourhood the swap ({show(a)} {show(b)}) changes is at distance 2 "
                   f"from {show(case.position)}, so after 2 layers the output there is the same for X and "
                   f"for X with x_{_index_text(a)}, x_{_index_text(b)} exchanged"}


def _primary_condition(cond, spec: S.Spec, n) -> bool:
    """cond holds at n = 10⁷ for the sampled parameter values (as `_primary` chooses cases)."""
    lows = _lower_bounds(spec)
    for bump in (0, 1, 3, 7):
        values = {name: v + bump for name, v in lows.items()}
        values[n.name] = 10 ** 7
        sub = {s: sympy.Integer(values[s.name]) for s in cond.free_symbols if s.name in values}
        if cond.xreplace(sub) is not sympy.true:
            return False
    return True


def _closed_form(case, data: dict, n=None) -> Trusted:
    """A symbolic-n result: the closed form of uapcheck/graphs/closed_forms.py (proved in
    docs/theory.md §11), taken from the engine. `n`: the length, when it is read at a concrete one."""
    where = _show_condition(sympy.true, n) if case.condition is sympy.true else f"for {sympy.sstr(case.condition)}"
    return Trusted("graphs.closed_forms", f"closed form `{case.rule}` {where}", dict(data, rule=case.rule))


def pattern_premises(spec: S.Spec, fixed_heads: frozenset = frozenset()) -> PatternOutcome:
    """`fixed_heads`: the heads whose bias kind stands for fixed position weights (a fixed offset bias
    seen through its classes, docs/theory.md §16), not a trainable bias."""
    from .layers import has_sequence, layered_premises
    if has_sequence(spec):
        return layered_premises(spec)  # a pattern per layer (Definition 4): rules/layers.py
    one = _at_one_position(spec)
    if one is not None:
        return pattern_premises(one, fixed_heads)
    from .structured import structured_outcome
    structured = structured_outcome(spec)  # triangular and block-level patterns at any size
    if structured is not None:
        return structured
    if isinstance(spec.tokens, int) and all(_concrete_params(h.pattern) for h in spec.heads):
        closed = None
        if _estimated_arcs(spec) > CLOSED_FORM_FIRST_ARCS and _two_blocks_at_most(spec):
            # one or two blocks (b ≥ n/2, outside every blocks family's range) or a few wide ones: the twin
            # quotient decides (Lemma L, Theorem F196) before the closed forms are tried
            from .twins import twin_outcome
            twins = twin_outcome(spec)
            if twins is not None:
                return twins
        if _closed_kinds_only(spec) and _estimated_arcs(spec) > CLOSED_FORM_FIRST_ARCS:
            # Structured patterns at real sizes: the closed forms at this n, without any arc. When they
            # settle everything (verdict, G, and the least layer count) the token graph is not built.
            # Theorem F135 in closed form at every such n (the verifier re-derives it at every concrete n)
            closed = _symbolic(spec, fixed_heads)
            if _settled(closed):
                return closed
            if closed.obstruction is not None:
                # proved not strongly connected at this n (NOT-UAP): the group does not change the verdict,
                # and the token graph is not built for it
                return _without_group(spec, closed)
            if _usable(closed) and _estimated_arcs(spec) > GRAPH_AFTER_CLOSED_ARCS:
                # the token graph would take longer than the budget; keep the closed forms' answer
                return closed
        if _estimated_arcs(spec) > CLOSED_FORM_FIRST_ARCS:
            # few wide blocks: the twin quotient decides at this n without the arcs (Lemma L, Theorem F196)
            from .twins import twin_outcome
            twins = twin_outcome(spec)
            if twins is not None:
                return twins
        outcome = _concrete(spec, closed, fixed_heads)
        if outcome.group is None or _least_open(outcome):
            # the token graph left the group or the least count open (a resource ran out): a family
            # theorem proved at this n decides them, so a proved least count is never reported as only
            # sufficient (the layer count alone is also taken from it in `_layer_count`)
            return _theorem_at_length(spec, closed, fixed_heads) or outcome
        return outcome
    return _symbolic(spec, fixed_heads)


def _theorem_at_length(spec: S.Spec, closed: Optional[PatternOutcome], fixed_heads: frozenset):
    """A standard family's outcome at this n, or, for several heads, their theorems' (F125 (b): F188's `star` beside
    `full` at n = 8,000, whose neighbourhood lists are over their limit) when it settles the group and the least
    count; None otherwise."""
    family = _family_least(spec)
    if family is not None:
        return family
    if closed is None and len(set(h.pattern for h in spec.heads)) > 1 and _closed_kinds_only(spec):
        closed = _symbolic(spec, fixed_heads)
        if _settled(closed) and closed.group is not None:
            return closed
    return None


def _two_blocks_at_most(spec: S.Spec) -> bool:
    """One head whose pattern has a `blocks(b)` part with 2b ≥ n (one or two blocks at this n), or at most eight
    blocks of at least 4,096 positions (the families' closed forms would write out factorials of the block's width,
    about 10 s for b = 600,000)."""
    if len(spec.heads) != 1 or not isinstance(spec.tokens, int):
        return False
    n = spec.tokens
    p = spec.heads[0].pattern
    parts = p.parts if isinstance(p, S.PatternUnion) else (p,)
    return any(isinstance(q, S.Blocks) and isinstance(q.b, int) and q.b >= 1
               and (2 * q.b >= n or (q.b >= 4096 and -(-n // q.b) <= 8)) for q in parts)


def _at_one_position(spec: S.Spec) -> Optional[S.Spec]:
    """At `tokens 1` with sizes given as params: the file with each param at its lower bound (None otherwise).
    One position has one possible arc, 1 → 1, which every pattern holds (each position attends to itself), so the
    pattern graph, its group S_1 and its reach do not depend on the sizes (docs/theory.md §21.9, n = 1); a count of
    positions (`sinks(k)`, `global(g)`) is at most n, so k = 1 is the only value such a file allows there; with a
    lower bound above 1 the file allows no value at n = 1 and the sizes stay undecided (None)."""
    if spec.tokens != 1:
        return None
    from .small_lengths import refused_at
    values = _lower_bounds(spec)
    heads = tuple(dataclasses.replace(h, pattern=S.resolve_sizes(h.pattern, values)) for h in spec.heads)
    if heads == spec.heads or any(refused_at(h.pattern, 1) for h in heads):
        return None  # no params in the sizes, or no value of a count the file allows at n = 1
    return dataclasses.replace(spec, heads=heads)


def _without_group(spec: S.Spec, closed: PatternOutcome) -> PatternOutcome:
    """A closed-form outcome that proves the pattern not strongly connected at a concrete n: when no closed
    form gives the group either, its step says so at this n (the verdict does not depend on it)."""
    if closed.group is not None:
        return closed
    arcs = _estimated_arcs(spec)
    step = group_undecided(_describe(spec), f"no closed form for the group at n = {spec.tokens:,}; the verdict "
                           f"does not depend on it (the pattern is not strongly connected), so the token graph "
                           f"(about {arcs:,} arcs) is not built for it")
    return PatternOutcome(step, None, closed.structure, closed.layers, closed.diameter, closed.obstruction)


def _family_least(spec: S.Spec) -> Optional[PatternOutcome]:
    """The outcome of a standard family's theorem at this concrete n (docs/theory.md §11.11) when the
    pattern is the family exactly, n is in the theorem's range and the theorem proves the least layer
    count; else None."""
    from .families import family_outcome
    if len(set(h.pattern for h in spec.heads)) != 1:
        return None
    outcome = family_outcome(spec)
    return outcome if _settled(outcome) else None


def _least_open(outcome: PatternOutcome) -> bool:
    """A strongly connected outcome whose layer count is D + 1 not shown least."""
    return outcome.obstruction is None and any(step.rule == "PAT-LAYERS" and not step.evidence.get("least")
                                               for step in outcome.structure)


#: Above this many arcs (estimated), a structured pattern at a concrete n tries its closed forms first.
CLOSED_FORM_FIRST_ARCS = 50_000
#: Above this many arcs, a pattern at a concrete n that is a standard family inside its theorem's range
#: takes the theorem's least layer count (docs/theory.md §11.11) instead of the rooted-view search;
#: below, the search decides (and the theorem is the fallback when it runs out).
FAMILY_FIRST_ARCS = 10_000
#: Above this many, a closed-form answer that leaves only the least layer count open is kept rather
#: than building the token graph (a time limit: about 10 s of graph work on one core).
GRAPH_AFTER_CLOSED_ARCS = 2_000_000
_CLOSED_KINDS = (S.Full, S.Causal, S.Window, S.Offsets, S.Dilated, S.Strided, S.Blocks, S.Global, S.Star)


def _closed_kinds_only(spec: S.Spec) -> bool:
    def ok(p) -> bool:
        if isinstance(p, S.PatternUnion):
            return all(ok(q) for q in p.parts)
        return type(p) in _CLOSED_KINDS
    return all(ok(h.pattern) or _window_and_listed_globals(h.pattern) for h in spec.heads)


def _window_and_listed_globals(p: S.Pattern) -> bool:
    """`window(w) + global {1, …, g}`: the listed first g positions are global(g) (docs/theory.md
    §11.11, "Listed globals"), so Theorem F2 applies at n; the verifier re-checks it with its own lemma
    (§18.4). Other patterns with listed globals are decided on the token graph."""
    from ..graphs.closed_forms import prefix_global_count
    if not isinstance(p, S.PatternUnion) or len(p.parts) != 2:
        return False
    kinds = sorted(p.parts, key=lambda q: isinstance(q, S.GlobalAt))
    window, listed = kinds
    return (isinstance(window, S.Window) and not window.cyclic and isinstance(listed, S.GlobalAt)
            and prefix_global_count(listed) is not None)


def _estimated_arcs(spec: S.Spec) -> int:
    """The arcs the token graphs would hold; heads that are all `full` (a union with `full` in normal form) count their
    n² arcs: the graph engine stores them implicitly, but its group and views are then those of S_n at this n (the
    order n!, a list of n positions), which the closed forms state without them (`full + window(1)` at n = 10⁹)."""
    from ..graphs.build import _estimate
    n = spec.tokens
    if isinstance(n, int) and spec.heads and all(isinstance(h.pattern, S.Full) for h in spec.heads):
        return n * n
    try:
        return sum(_estimate(h.pattern, n, {}) for h in spec.heads)
    except (KeyError, TypeError, ValueError):
        return 0


def _settled(outcome: PatternOutcome) -> bool:
    """The closed forms decided the group, and either an obstruction or the least layer count."""
    if outcome is None or outcome.group is None:
        return False
    if outcome.obstruction is not None:
        return True
    for step in outcome.structure:
        if step.rule == "PAT-LAYERS":
            return bool(step.evidence.get("least"))
    return False


def _usable(outcome: Optional[PatternOutcome]) -> bool:
    """A closed-form outcome that decided the verdict's inputs (possibly with D + 1 not least)."""
    return outcome is not None and outcome.group is not None and (
        outcome.obstruction is not None or outcome.layers is not None)


def _concrete_params(p: S.Pattern) -> bool:
    """Whether every size in the pattern is an integer (no param name), parts of unions, intersections,
    per-layer lists and block-level patterns included."""
    if isinstance(p, (S.PatternUnion, S.PatternIntersection)):
        return all(_concrete_params(q) for q in p.parts)
    if isinstance(p, S.PatternSequence):
        return all(_concrete_params(q) for q in p.patterns)
    if isinstance(p, S.Blockwise):
        return _concrete_params(p.inner)
    if isinstance(p, S.Edges):
        return True  # integer literals (the parser refuses names in them)
    for value in vars(p).values():
        if isinstance(value, str):
            return False
        if isinstance(value, tuple) and any(isinstance(x, str) for x in value):
            return False
    return True


def _exceeds(spec: S.Spec, expr) -> list[bool]:
    """Whether `expr` exceeds the budget at large n (or the given n) for a few parameter values."""
    n, params = _symbols(spec)
    params = _free_params(spec)
    lows = _lower_bounds(spec)
    out = []
    split = pieces_by_residue(expr, n) if isinstance(n, sympy.Symbol) else None
    for bump in (0, 1, 3):
        # every residue class of a count by residue of n (not one large n only, docs/theory.md §12)
        for r in range(split[0] if split is not None else 1):
            sub = {n: sympy.Integer(10 ** 7 * (split[0] if split else 1) + r)} if isinstance(n, sympy.Symbol) else {}
            sub.update({sym: sympy.Integer(lows[name] + bump) for name, sym in params.items()})
            value = sympy.Integer(expr) if isinstance(expr, int) else expr.xreplace(sub)
            out.append(bool(value.is_Integer and value > spec.layers))
    return out


def budget_check(spec: S.Spec, layers, diameter, least: Optional[bool] = None,
                 connected: Optional[proof.Step] = None, group: Optional[GroupInfo] = None):
    """A `layers M` budget: a NOT-UAP step below the diameter, an undecided step between the
    diameter and the layers the view argument needs, or None when it suffices. `least`: the PAT-LAYERS step's
    fact (False: its count is sufficient, not shown least; the undecided step says so). `connected`, `group`: the
    PAT-CONNECTED step and the group step's group, whose range the diameter's closed form holds on (a symbolic n:
    PAT-BUDGET-N states the range where the budget is below it, docs/theory.md §12)."""
    if spec.layers is None or layers is None or not isinstance(spec.layers, int):
        return None
    if any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads):
        return None  # per-layer patterns: the budget is a depth limit of their own analysis (rules/layers.py)
    if isinstance(layers, int):
        if spec.layers >= layers:
            return None
        if isinstance(diameter, int) and spec.layers < diameter:
            graphs = None
            if isinstance(spec.tokens, int) and all(_concrete_params(h.pattern) for h in spec.heads):
                try:  # the far pair on the token graph, when it fits (`star` at n = 10⁹ does not: the closed form's
                    # diameter states the budget's failure below)
                    graphs = [build_graph(h.pattern, spec.tokens, {}) for h in spec.heads]
                except GraphTooLarge:
                    graphs = None
            if graphs is not None:
                chk = check_layers(graphs, spec.layers)
                if chk.sufficient is False:
                    i, j = chk.witness
                    cert = FarPair(tuple(graphs), i, j, spec.layers, chk.distance)
                    return layer_budget(spec, diameter, cert, chk.witness, chk.distance)
            return layer_budget(spec, diameter, Trusted("graphs", f"the directed diameter {diameter} exceeds the "
                                                        f"budget {spec.layers}", {"diameter": diameter}))
        return budget_between(spec, layers, diameter, least=least)
    n, _ = _symbols(spec)
    if diameter is not None:
        if isinstance(n, sympy.Symbol) and _grows_beyond(diameter, n, spec.layers):
            ranged = budget_beyond(spec, diameter, n, connected, group)
            return ranged if ranged is not None else symbolic_budget(spec, diameter)
        if any(_exceeds(spec, diameter)):
            return budget_depends(spec, diameter)
    if any(_exceeds(spec, layers)):
        return budget_between(spec, layers, diameter, least=least)
    return None


def _grows_beyond(expr, n: sympy.Symbol, budget: int) -> bool:
    """Proved: for every admissible parameter value, expr > budget for all large n (its limit as
    n → ∞ is +∞, or a number above the budget). SymPy's limit runs on an expression whose other
    symbols are positive integers, under a time budget; anything else is 'not proved'."""
    try:
        with time_limit("the limit of the diameter as n grows", 5.0):
            lim = sympy.limit(expr, n, sympy.oo)
    except (BudgetExceeded, NotImplementedError, ValueError, TypeError):
        return False
    if lim is sympy.oo:
        return True
    return bool(lim.is_number and lim.is_finite and lim > budget)


def budget_by_class(spec: S.Spec, layer_step: Optional[proof.Step], group: Optional[GroupInfo]) -> Optional[list]:
    """A `layers M` budget against a count that depends on n mod L (docs/theory.md §12, by residue class): None
    when the count is not a Piecewise over residues of n with integer pieces (budget_check decides then); else
    one step per kind of class where M is short — PAT-BUDGET-CLASS (NOT-UAP there) where M < D, or M < m with m
    least; PAT-BUDGET-VIEW on those classes (undecided there) where D ≤ M < m is not shown least — and [] when M
    suffices on every class. `group`: the group step's, whose range the count is proved on."""
    where = getattr(group, "condition_formula", None)
    if spec.layers is None or not isinstance(spec.layers, int) or layer_step is None or not layer_step.proved:
        return None
    if where is None and group is not None and group.condition:
        return None  # a range in words only: the classes' condition could not carry it (budget_check decides)
    n, _ = _symbols(spec)
    layers, diameter = layer_step.facts.get("layers"), layer_step.facts.get("diameter")
    on = layer_step.facts.get("least_classes") or ()  # least on these classes only (a least flag by class)
    split = pieces_by_residue(layers, n)
    if split is None and on and isinstance(n, sympy.Symbol) and isinstance(where, sympy.Basic) and \
            all(isinstance(x, (int, sympy.Integer)) and not isinstance(x, bool) for x in (layers, diameter)):
        split = (on[0], (sympy.Integer(layers),) * on[0])  # one count on the range, least on some classes of n mod L
    if split is None and isinstance(n, sympy.Symbol) and isinstance(where, sympy.Basic) and \
            isinstance(layers, (int, sympy.Integer)) and not isinstance(layers, bool):
        dsplit = pieces_by_residue(diameter, n)  # one count on the range, D by class (D where D = 3, D + 1 where 2)
        if dsplit is not None:
            split = (dsplit[0], (sympy.Integer(layers),) * dsplit[0])
    if split is None:
        return _budget_below_least(spec, layer_step, where, n)
    modulus, pieces = split
    dsplit = pieces_by_residue(diameter, n)
    dpieces = [dsplit[1][r % dsplit[0]] for r in range(modulus)] if dsplit is not None else [diameter] * modulus
    if not all(isinstance(x, sympy.Integer) for x in (*pieces, *dpieces)) or (dsplit and modulus % dsplit[0]):
        return None
    budget, least = spec.layers, layer_step.facts.get("least") is True
    least_at = [least or bool(on and modulus % on[0] == 0 and r % on[0] in on[1]) for r in range(modulus)]
    short = tuple(r for r in range(modulus) if budget < dpieces[r] or (least_at[r] and budget < pieces[r]))
    open_ = tuple(r for r in range(modulus) if r not in short and budget < pieces[r])
    steps = []
    from ..groups import class_condition
    for residues, make in ((short, budget_class_step), (open_, budget_class_open)):
        if residues:
            cond = class_condition(n, modulus, residues)
            cond = simplify_condition(cond if where is None else sympy.And(where, cond))
            steps.append(make(spec, layer_step, modulus, residues, cond,
                              {r: (int(dpieces[r]), int(pieces[r])) for r in residues}))
    return steps


def _budget_below_least(spec: S.Spec, layer_step: proof.Step, where, n) -> Optional[list]:
    """A diameter D and a count m that are one number each on the whole range R of a symbolic n, and a budget
    M < D, or D ≤ M < m with m proved least (a family theorem's view witness at depth D = m − 1 for every n in R):
    PAT-BUDGET-CLASS on every residue (L = 1), NOT-UAP on R (docs/theory.md §12); None otherwise (budget_check
    decides: PAT-BUDGET-VIEW when the count is not least, nothing when M suffices). The range must be a formula in
    n (the group step's), so the verdict states it."""
    layers, diameter = layer_step.facts.get("layers"), layer_step.facts.get("diameter")
    if not isinstance(n, sympy.Symbol) or not isinstance(where, sympy.Basic) or where is sympy.true:
        return None
    if not all(isinstance(x, (int, sympy.Integer)) and not isinstance(x, bool) for x in (layers, diameter)):
        return None
    budget, m, d = spec.layers, int(layers), int(diameter)
    if not (budget < d or (budget < m and layer_step.facts.get("least") is True)):
        return None
    return [budget_class_step(spec, layer_step, 1, (0,), where, {0: (d, m)})]


@proof.rule("PAT-BUDGET-CLASS", "A layer budget below the count of some residue classes of n: NOT-UAP there",
            CITE_SPARSE, statuses=(proof.PROVED,), certificates=(BudgetByClass,))
def budget_class_step(spec: S.Spec, layer_step: proof.Step, modulus: int, residues: tuple, where, counts: dict
                      ) -> proof.Step:
    """NOT-UAP on the classes n mod `modulus` in `residues` (`where`: their condition with the range); `counts`:
    residue → (D, m) there."""
    below_d = all(spec.layers < d for d, _ in counts.values())
    by_d = {r: c for r, c in counts.items() if spec.layers < c[0]}
    if below_d:
        why = claim_of(" is below the directed diameter there (", listed_counts(counts, 0, modulus),
                       "): some ", X_J, " never reaches some position i within the budget, while the equivariant "
                       "target ", SUM_TARGET_CLAIM, " depends on it")
    elif by_d:  # below D on some classes, below a count least there on the others
        by_m = {r: c for r, c in counts.items() if r not in by_d}
        why = claim_of(" is below the directed diameter on some classes (", listed_counts(by_d, 0, modulus),
                       ": some ", X_J, " never reaches some position i within the budget) and below the least number "
                       "of layers on the others (", listed_counts(by_m, 1, modulus), ", least by PAT-LAYERS: with "
                       "fewer layers some position cannot tell a sample from a rearrangement outside the group), so "
                       "the family misses an equivariant target there")
    else:
        why = claim_of(" is below the least number of layers there (", listed_counts(counts, 1, modulus),
                       ", least by PAT-LAYERS", _witness_words(layer_step) if modulus == 1 else "", ": with fewer "
                       "layers some position cannot tell a sample from a rearrangement outside the group, so the "
                       "family misses an equivariant target)")
    return proof.conclude(claim_of(f"`layers {spec.layers}` on ", Formula(where, show_condition(where)), why),
                          proof.PROVED, [layer_step],
                          evidence={"budget": spec.layers, "range": _show_condition(where), "modulus": modulus,
                                    "residues": list(residues),
                                    "counts": {str(r): {"diameter": d, "layers": m} for r, (d, m) in counts.items()}},
                          facts={"obstruction": "layer budget", "budget": spec.layers, "residue_class": where,
                                 "modulus": modulus, "residues": tuple(residues)},
                          certificate=BudgetByClass(layer_step, spec.layers, modulus, tuple(residues)))


def _witness_words(layer_step: proof.Step) -> str:
    """", whose view witness is the swap (2 14) at position 36 (docs/theory.md §11.11, Theorem F89)": the PAT-LAYERS
    step's witness at depth D, which is one at every smaller depth too; "" when the step states none."""
    witness = layer_step.evidence.get("view witness")
    if not isinstance(witness, dict) or not isinstance(witness.get("swap"), list) or "position" not in witness:
        return ""
    a, b = witness["swap"]
    source = ", ".join(str(witness[k]) for k in ("found by", "range") if witness.get(k))
    return f", whose view witness is the swap ({a} {b}) at position {witness['position']}" + \
        (f" ({source})" if source else "")


def budget_class_open(spec: S.Spec, layer_step: proof.Step, modulus: int, residues: tuple, where, counts: dict
                      ) -> proof.Step:
    """PAT-BUDGET-VIEW on the classes n mod `modulus` in `residues` only: D ≤ M below a count not shown least."""
    return budget_between(spec, None, None, (layer_step, modulus, tuple(residues), where, counts))


def listed_counts(counts: dict, k: int, modulus: int) -> str:
    """"D = 3 for n mod 2 = 1" words, one value per group of residues (k = 0: the diameter, 1: the layers)."""
    what = "D" if k == 0 else "m"
    if modulus == 1:  # one number on the whole range
        return f"{what} = {next(iter(counts.values()))[k]}"
    out = []
    for v in sorted({c[k] for c in counts.values()}):
        rs = sorted(r for r, c in counts.items() if c[k] == v)
        out.append(f"{what} = {v} for n mod {modulus} " + (f"= {rs[0]}" if len(rs) == 1 else
                                                            "in {" + ", ".join(map(str, rs)) + "}"))
    return "; ".join(out)


@proof.rule("PAT-BUDGET-PARAM", "A layer budget whose sufficiency depends on the parameters", CITE_SPARSE, statuses=(proof.UNDECIDED,))
def budget_depends(spec: S.Spec, diameter) -> proof.Step:
    return proof.conclude(claim_of(f"`layers {spec.layers}` reaches every position exactly when ",
                                   Formula(sympy.Le(diameter, spec.layers, evaluate=False),
                                           f"{sympy.sstr(diameter)} ≤ {spec.layers}"),
                                   ": the verdict depends on the parameter values (NOT-UAP where it fails)"),
                          proof.UNDECIDED, evidence={"budget": spec.layers, "diameter": diameter})


@proof.rule("PAT-BUDGET-VIEW", "A layer budget that reaches every position but may not separate", CITE_VIEWS, statuses=(proof.UNDECIDED,))
def budget_between(spec: S.Spec, layers, diameter, by_class: Optional[tuple] = None,
                   least: Optional[bool] = None) -> proof.Step:
    """`by_class`: (the PAT-LAYERS step, L, residues, their condition, residue → (D, m)) when the budget falls
    between D and the count on those residue classes of n only (docs/theory.md §12): undecided there."""
    if by_class is not None:
        layer_step, modulus, residues, where, counts = by_class
        return proof.conclude(claim_of(f"`layers {spec.layers}` on ", Formula(where, show_condition(where)),
                                       " lets every token reach every position (", listed_counts(counts, 0, modulus),
                                       ") but is below the layers the view argument uses there (",
                                       listed_counts(counts, 1, modulus), "); whether the budget suffices there "
                                       "is not decided"), proof.UNDECIDED, [layer_step],
                              evidence={"budget": spec.layers, "range": _show_condition(where), "modulus": modulus,
                                        "residues": list(residues)},
                              facts={"residue_class": where, "modulus": modulus, "residues": residues})
    if diameter is None:
        return proof.conclude(claim_of(f"`layers {spec.layers}` is below the ", quantity(layers), " layers the view "
                                       "argument uses, and the diameter is only bounded: whether the budget suffices "
                                       "is not decided"),
                              proof.UNDECIDED, evidence={"budget": spec.layers, "layers": layers})
    why = ", which suffice and are not shown least (PAT-LAYERS: whether fewer suffice is open)" if least is False \
        else ""
    return proof.conclude(claim_of(f"`layers {spec.layers}` lets every token reach every position (diameter ",
                                   quantity(diameter), ") but is below the ", quantity(layers), " layers the view argument "
                                   f"uses{why}; whether the budget suffices is not decided"), proof.UNDECIDED,
                          evidence={"budget": spec.layers, "diameter": diameter, "layers": layers})


def budget_beyond(spec: S.Spec, diameter, n, connected: Optional[proof.Step], group) -> Optional[proof.Step]:
    """PAT-BUDGET-N with its range (docs/theory.md §12): the least N with D(n) > M for every n ≥ N, from the
    diameter's closed form on the residue classes of n (rules/budget_range.py), within the range the closed forms
    hold on (the group step's); None when the closed form is not of that shape (a parameter in it, a class that
    stays at or below M), when there is no proved PAT-CONNECTED step, or when the group's range has no formula."""
    from .budget_range import first_beyond
    from .small_lengths import _in_n
    if connected is None or spec.params or not isinstance(spec.layers, int):
        return None
    where = _in_n(getattr(group, "condition_formula", None), n) if group is not None else None
    if group is None or (where is None and group.condition):
        return None
    where = sympy.true if where is None else where
    if not isinstance(where, sympy.Basic) or where.free_symbols - {n}:
        return None
    found = first_beyond(diameter, n, spec.layers)
    if found is None:
        return None
    low = found.start
    while low <= 10_000 and where.xreplace({n: sympy.Integer(low)}) is not sympy.true:
        low += 1  # the first length of the closed forms' range from N on
    if low > 10_000:
        return None
    stated = simplify_condition(sympy.And(where, sympy.Ge(n, low)))
    return symbolic_budget(spec, diameter, (connected, found, low, stated, where))


@proof.rule("PAT-BUDGET-N", "A layer budget below a diameter that grows with n: NOT-UAP from the first n where it is",
            CITE_SPARSE, statuses=(proof.PROVED,), certificates=(Trusted, BudgetBeyond))
def symbolic_budget(spec: S.Spec, layers, ranged: Optional[tuple] = None) -> proof.Step:
    """`ranged`: (the PAT-CONNECTED step, budget_range.Beyond, the range's first length, the range, the closed
    forms' range) when the first n with D(n) > M for all larger n is computed from the closed form; None: the
    sampled limit only (a diameter with parameters), "for all large n"."""
    if ranged is not None:
        connected, found, low, stated, where = ranged
        return proof.conclude(claim_of(f"`layers {spec.layers}` is below the directed diameter D = ", quantity(layers),
                                       " of the pattern on ", Formula(stated, show_condition(stated)), ": ",
                                       _beyond_words(spec.layers, layers, found, low),
                                       "; some ", X_J, " then never reaches some position i within the budget"),
                              proof.PROVED, [connected],
                              evidence={"budget": spec.layers, "needed": layers, "range": _show_condition(stated),
                                        "fails when": f"{sympy.sstr(layers)} > {spec.layers}",
                                        "first n": found.start, "by n mod": found.modulus},
                              facts={"obstruction": "layer budget", "budget": spec.layers, "diameter": layers,
                                     "range": stated, "from": low, "modulus": found.modulus},
                              certificate=BudgetBeyond(connected, spec.layers, low, found.modulus, stated, where))
    return proof.conclude(claim_of(f"`layers {spec.layers}` is below the directed diameter ", quantity(layers),
                                   " of the pattern whenever ",
                                   Formula(sympy.StrictGreaterThan(layers, spec.layers, evaluate=False),
                                           f"{sympy.sstr(layers)} > {spec.layers}"),
                                   ", which holds for all large n (for each admissible value of the parameters): "
                                   "some ", X_J, " then never reaches some position i within the budget"),
                          proof.PROVED, evidence={"budget": spec.layers, "needed": layers,
                                                  "fails when": f"{sympy.sstr(layers)} > {spec.layers}"},
                          facts={"obstruction": "layer budget", "budget": spec.layers, "diameter": layers},
                          certificate=Trusted("sympy.limit", f"lim_(n→∞) {sympy.sstr(layers)} exceeds {spec.layers}",
                                              {"diameter": layers, "budget": spec.layers}))


def _beyond_words(budget: int, diameter, found, low: int) -> str:
    """"D > 5 exactly from n = 13 on (on n = 4k + r: D = 2k - 1, 2k, 2k, 2k + 1 for r = 0, 1, 2, 3, none decreasing
    in k; D(12) = 5)": the first length and why, from the closed form's lines on the classes."""
    from .budget_range import K, value_at
    n = next(iter(diameter.free_symbols))
    why = []
    if found.modulus > 1:
        lines = ", ".join(sympy.sstr(a * K + b).replace("*", "") for a, b in found.lines)
        why.append(f"on n = {found.modulus}k + r: D = {lines} for r = {', '.join(map(str, range(found.modulus)))}, "
                   "none decreasing in k")
    else:
        (a, b), = found.lines
        why.append(f"D = {sympy.sstr(a * K + b).replace('k', 'n')}, not decreasing in n")
    before = found.start - 1
    if before >= 1:
        why.append(f"D({before}) = {value_at(diameter, n, before)}")
    words = f"D > {budget} exactly from n = {found.start} on ({'; '.join(why)})"
    if low > found.start:
        words += f", and the closed forms hold from n = {low} on"
    return words
