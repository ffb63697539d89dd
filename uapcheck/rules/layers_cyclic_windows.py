"""Per-layer cyclic windows at any n (docs/theory.md §21.15, Theorems F139 and F160, Lemma AQ): the group, D_Φ and the
least count by arithmetic on the widths, without materialising arcs. The arc engine of rules/layers.py decides
n ≤ 1,024; this route takes the lengths above it where Lemma AQ pins a layer, and a symbolic n for periodic lists whose
every class of n mod 2P has such a layer (and finite lists, NOT-UAP from 2R(k) + 2 on); else the arc engine, or an
undecided step, as before.
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import group as group_name
from ..claim import written
from ..graphs.layers_cyclic_windows import (CyclicLayers, decide, far_position, from_spec, is_dihedral, least_positive,
                                            symbolic_form)
from ..groups import GroupInfo
from ..layer_certificates_cyclic import CyclicCount, CyclicGroup
from .wording import SUM_TARGET as SUM_TARGET_CLAIM
from .wording import S_N, X_J, group_is, token

CITE_CYCLIC_GROUP = proof.derived(
    "Corollary 2",
    text="Cheng et al. 2025, Corollary 2 (G = ⋂_p Aut(N_p)); the intersection for per-layer cyclic windows in closed "
         "form, derived here (docs/theory.md §21.15, Theorem F139)")
CITE_CYCLIC_LAYERS = proof.corrected(
    "Definition 4", "Corollary 2",
    text="Cheng et al. 2025, Definition 4 and Corollary 2; D_Φ and the least count of per-layer cyclic windows in "
         "closed form, derived here (docs/theory.md §21.15, Theorems F139, F160 and Lemma AQ)")
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"


@proof.rule("SEQ-CYCLIC-GROUP", "G of per-layer cyclic windows at any n: D_n (Theorem F139)", CITE_CYCLIC_GROUP,
            statuses=(proof.PROVED,), certificates=(CyclicGroup,))
def cyclic_group_step(desc: str, info: GroupInfo, cert: CyclicGroup) -> proof.Step:
    w = least_positive(cert.layers) or 0
    claim = claim_of("the exact equivariance group of the family is ", group_is(info), f": window({w}) cyclic, the "
                     "narrowest window, alone has only the rotations and reflections of the cycle once ",
                     written(f"n ≥ {2 * w + 3}", rf"n \geq {2 * w + 3}"), ", and they keep every cyclic window "
                     "(Theorem F139)")
    ev = {"patterns": desc, "name": "D_n", "theorem": "F139", "least positive width": w}
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"group": info}, certificate=cert)


def _never(desc: str, cert: CyclicCount, name: str) -> proof.Step:
    L = cert.layers
    total = L.reach(len(L.widths))
    ev: dict = {"patterns": desc, "widths": list(L.widths), "periodic": False, "theorem": "F139"}
    within = claim_of(X_J, " reaches i within m layers iff the cyclic distance of i and j is at most R(m), the sum of "
                      "the first m widths")
    if isinstance(cert.n, int):
        far = far_position(cert.n)
        claim = claim_of(token(far), f" never reaches position 1 within the network's {len(L.widths)} attention "
                         f"layers (the widths sum to {total}, below ", cert.n // 2, "; ", within, ")")
        ev["witness"] = {"i": 1, "j": far, "target": SUM_TARGET}
    else:
        claim = claim_of("for ", written(f"{name} ≥ {cert.start}", rf"{name} \geq {cert.start}"),
                         f", the position opposite 1 never reaches position 1 within the network's {len(L.widths)} "
                         f"attention layers (the widths sum to {total}, below ",
                         written(f"⌊{name}/2⌋", rf"\lfloor {name}/2 \rfloor"), "; ", within, ")")
        ev["range"] = f"{name} ≥ {cert.start}"
    claim += claim_of(", so every model's output at 1 ignores it, while the target ", SUM_TARGET_CLAIM, " (", S_N,
                      "-invariant, hence G-equivariant) depends on it (Theorem F139)")
    facts: dict = {"obstruction": True, "layers": None}
    if not isinstance(cert.n, int):
        facts["range"] = sympy.Ge(sympy.Symbol(name, integer=True, positive=True), cert.start)
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts=facts, certificate=cert)


@proof.rule("SEQ-CYCLIC-LAYERS",
            "D_Φ and the least number of layers of per-layer cyclic windows at any n (Theorems F139, F160)",
            CITE_CYCLIC_LAYERS, statuses=(proof.PROVED,), certificates=(CyclicCount,))
def cyclic_layers_step(desc: str, cert: CyclicCount, name: str = "n") -> proof.Step:
    if cert.depth is None:
        return _never(desc, cert, name)
    L = cert.layers
    ev: dict = {"patterns": desc, "widths": list(L.widths), "periodic": L.periodic, "theorem": "F160"}
    within = claim_of(written("x_j", "x_{j}"), " reaches i within m layers iff the cyclic distance of i and j is at "
                      "most R(m), the sum of the first m widths")
    d = cert.depth
    facts: dict = {"layers": d, "least": True}
    if isinstance(d, int):
        far = far_position(cert.n)
        reach = claim_of("every ", X_J, " reaches every position within ", d, f" layer{'s' if d != 1 else ''}, and "
                         "not within one fewer (", within, "; ", token(far), " does not reach position 1)")
        ev.update({"D_Φ": d, "layers": d, "least": True, "not within D_Φ − 1": {"i": 1, "j": far}})
    else:
        shown = written(sympy.sstr(d), sympy.latex(d))
        reach = claim_of(within, ", so the least m with ", written(f"R(m) ≥ ⌊{name}/2⌋", rf"R(m) \geq \lfloor "
                                                                    rf"{name}/2 \rfloor"),
                         " is ", shown, f" (Theorem F139; {sum(L.widths)} per period of {len(L.widths)}); for ",
                         written(f"{name} ≥ {cert.start}", rf"{name} \geq {cert.start}"))
        ev.update({"D_Φ": sympy.sstr(d), "layers": sympy.sstr(d), "least": True, "range": f"{name} ≥ {cert.start}"})
        n = sympy.Symbol(name, integer=True, positive=True)
        facts.update({"condition": f"{name} ≥ {cert.start}", "condition_formula": sympy.Ge(n, cert.start)})
    where = (f"layer {cert.pinned}" if isinstance(d, int) else "some layer of the first period (on every class of "
             f"{name} mod {2 * sum(L.widths)})")
    claim = claim_of(reach, f"; these layers suffice and are least: at {where} the positions a root's view does not "
                     "reach form one arc within one window, so a permutation keeping the view keeps that layer's "
                     "cyclic window, whose group is ", group_name("D_n"), ", G (Lemma AQ, Theorem F160)")
    ev["pinned layer"] = cert.pinned
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts=facts, certificate=cert)


def _group_info(n, start: Optional[int]) -> GroupInfo:
    from dataclasses import replace

    from ..groups import concrete_group, symbolic_group
    if isinstance(n, int):
        return concrete_group("D_n", n)
    sym = sympy.Symbol(n, integer=True, positive=True)
    return replace(symbolic_group("D_n", n), condition=f"{n} ≥ {start}", condition_formula=sympy.Ge(sym, start))


def _symbolic(spec: S.Spec, desc: str, L: CyclicLayers):
    from .pattern import PatternOutcome
    name = str(spec.tokens)
    w = least_positive(L)
    if w is None:
        return None
    if not L.periodic:
        start = max(2 * L.reach(len(L.widths)) + 2, 2 * w + 3)
        info = _group_info(name, start)
        gstep = cyclic_group_step(desc, info, CyclicGroup(L, name, start))
        obstruction = cyclic_layers_step(desc, CyclicCount(L, name, None, None, start), name)
        return PatternOutcome(gstep, info, (obstruction,), None, None, obstruction)
    form = symbolic_form(L, name)
    if form is None:
        return None
    info = _group_info(name, form.start)
    gstep = cyclic_group_step(desc, info, CyclicGroup(L, name, form.start))
    lstep = cyclic_layers_step(desc, CyclicCount(L, name, form.layers, None, form.start), name)
    return PatternOutcome(gstep, info, (lstep,), form.layers, form.layers, None)


def cyclic_outcome(spec: S.Spec, desc: str):
    """The PatternOutcome of per-layer cyclic windows within Theorems F139 and F160, or None (outside: the caller keeps
    the arc engine or its undecided step)."""
    from .pattern import PatternOutcome
    L = from_spec(spec)
    if L is None:
        return None
    n = spec.tokens
    if not isinstance(n, int):
        return _symbolic(spec, desc, L)
    dec = decide(L, n)
    if not is_dihedral(L, n):
        return None  # the group below the threshold is the arc engine's
    info = _group_info(n, None)
    if dec.depth is None and not L.periodic:
        gstep = cyclic_group_step(desc, info, CyclicGroup(L, n, None))
        obstruction = cyclic_layers_step(desc, CyclicCount(L, n, None, None, None))
        return PatternOutcome(gstep, info, (obstruction,), None, None, obstruction)
    if dec.depth is None or dec.pinned is None:
        return None
    gstep = cyclic_group_step(desc, info, CyclicGroup(L, n, None))
    lstep = cyclic_layers_step(desc, CyclicCount(L, n, dec.depth, dec.pinned, None))
    return PatternOutcome(gstep, info, (lstep,), dec.depth, dec.depth, None)
