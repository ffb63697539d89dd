"""Per-layer two-sided windows at any n (docs/theory.md §21.12, Theorems F231–F234, Lemma AO): the group, D_Φ and
the least count by arithmetic on the widths, without materialising arcs. The arc engine of rules/layers.py decides
n ≤ 1,024; this route takes the lengths above it, and a symbolic n for periodic lists, when the file has one head
whose per-layer patterns are all non-cyclic windows of integer widths and F233's premises hold (else the arc engine,
or an undecided step, as before).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import written
from ..graphs.layers_windows import WindowLayers, decide, from_spec, is_reflection, least_positive, symbolic_form
from ..groups import GroupInfo
from ..layer_certificates import WindowsCount, WindowsGroup
from .wording import SUM_TARGET as SUM_TARGET_CLAIM
from .wording import S_N, X_J, group_is, token

CITE_WINDOWS_GROUP = proof.derived(
    "Corollary 2",
    text="Cheng et al. 2025, Corollary 2 (G = ⋂_p Aut(N_p)); the intersection for per-layer two-sided windows in "
         "closed form, derived here (docs/theory.md §21.12, Theorem F232)")
CITE_WINDOWS_LAYERS = proof.corrected(
    "Definition 4", "Corollary 2",
    text="Cheng et al. 2025, Definition 4 and Corollary 2; D_Φ and the least count of per-layer two-sided windows in "
         "closed form, derived here (docs/theory.md §21.12, Theorems F231, F233, F234 and Lemma AO)")
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"


@proof.rule("SEQ-WINDOWS-GROUP", "G of per-layer two-sided windows at any n: the reflection (Theorem F232)",
            CITE_WINDOWS_GROUP, statuses=(proof.PROVED,), certificates=(WindowsGroup,))
def windows_group_step(desc: str, info: GroupInfo, cert: WindowsGroup) -> proof.Step:
    w = least_positive(cert.layers) or 0  # the certificate's check needs a positive width
    claim = claim_of("the exact equivariance group of the family is ", group_is(info), f": window({w}), the narrowest "
                     "window of positive width, alone has only the reflection ",
                     written("i ↦ n + 1 − i", r"i \mapsto n + 1 - i"), " once ",
                     written(f"n ≥ {2 * w + 1}", rf"n \geq {2 * w + 1}"), ", and the reflection keeps every window "
                     "(Theorem F232)")
    ev = {"patterns": desc, "order": 2, "name": "reflection", "theorem": "F232", "least positive width": w}
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"group": info}, certificate=cert)


@proof.rule("SEQ-WINDOWS-LAYERS",
            "D_Φ and the least number of layers of per-layer two-sided windows at any n (Theorems F231, F233, F234)",
            CITE_WINDOWS_LAYERS, statuses=(proof.PROVED,), certificates=(WindowsCount,))
def windows_layers_step(desc: str, cert: WindowsCount, name: str = "n") -> proof.Step:
    L = cert.layers
    ev: dict = {"patterns": desc, "widths": list(L.widths), "periodic": L.periodic,
                "theorem": "F234" if cert.depth is None else "F233"}
    x_j = written("x_j", "x_{j}")
    within = claim_of(x_j, " reaches i within m layers iff ", written("|i − j| ≤ R(m)", r"|i - j| \leq R(m)"),
                      ", the sum of the first m widths")
    if cert.depth is None:
        total = L.reach(len(L.widths))
        k = len(L.widths)
        claim = claim_of(token(cert.n), f" never reaches position 1 within the network's {k} attention "
                         f"layer{'s' if k != 1 else ''} (the widths sum to ", total, " < ", cert.n - 1, "; ", within, "), so every model's "
                         "output at 1 ignores ", token(cert.n), ", while the target ", SUM_TARGET_CLAIM, " (", S_N,
                         "-invariant, hence G-equivariant) depends on it (Theorem F234)")
        ev["witness"] = {"i": 1, "j": cert.n, "target": SUM_TARGET}
        return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"obstruction": True, "layers": None},
                              certificate=cert)
    d = cert.depth
    shown = d if isinstance(d, int) else written(sympy.sstr(d), sympy.latex(d))
    facts: dict = {"layers": d, "least": True}
    if isinstance(d, int):
        reach = claim_of("every ", X_J, " reaches every position within ", shown, f" layer{'s' if d != 1 else ''}, "
                         "and not within one fewer (", within, "; ", token(cert.n), " does not reach position 1)")
        ev.update({"D_Φ": d, "layers": d, "least": True, "not within D_Φ − 1": {"i": 1, "j": cert.n}})
    else:
        reach = claim_of(within, ", so the least m with ", written("R(m) ≥ n − 1", r"R(m) \geq n - 1"), " is ", shown,
                         f" (Theorem F231; {sum(L.widths)} per period of {len(L.widths)}); for ",
                         written(f"{name} ≥ {cert.start}", rf"{name} \geq {cert.start}"))
        ev.update({"D_Φ": sympy.sstr(d), "layers": sympy.sstr(d), "least": True, "range": f"{name} ≥ {cert.start}"})
        n = sympy.Symbol(name, integer=True, positive=True)
        facts.update({"condition": f"{name} ≥ {cert.start}", "condition_formula": sympy.Ge(n, cert.start)})
    claim = claim_of(reach, f"; these layers suffice and are least: one layer below the view of layer {cert.pinned} "
                     "the positions a root does not see lie within one window of each other, so a permutation keeping "
                     f"the view keeps layer {cert.pinned}'s window, whose group is the reflection, G (Lemma AO, "
                     "Theorem F233)")
    ev["pinned layer"] = cert.pinned
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts=facts, certificate=cert)


def _group_info(n, start: Optional[int]) -> GroupInfo:
    if isinstance(n, int):
        from ..groups import reflection
        return GroupInfo("reflection", 2, (tuple(reflection(n)),) if n <= 256 else ())
    sym = sympy.Symbol(n, integer=True, positive=True)
    return GroupInfo("reflection", 2, ("i ↦ n + 1 − i",), condition=f"{n} ≥ {start}",
                     condition_formula=sympy.Ge(sym, start))


def windows_outcome(spec: S.Spec, desc: str):
    """The PatternOutcome of per-layer two-sided windows within Theorems F231–F234, or None (outside: the caller keeps
    the arc engine or its undecided step)."""
    from .pattern import PatternOutcome
    L: Optional[WindowLayers] = from_spec(spec)
    if L is None:
        return None
    n = spec.tokens
    if not isinstance(n, int):
        form = symbolic_form(L, str(n))
        if form is None:
            return None
        info = _group_info(str(n), form.start)
        gstep = windows_group_step(desc, info, WindowsGroup(L, str(n), form.start))
        lstep = windows_layers_step(desc, WindowsCount(L, str(n), form.layers, form.first_wide, form.start), str(n))
        return PatternOutcome(gstep, info, (lstep,), form.layers, form.layers, None)
    dec = decide(L, n)
    if dec.depth is None and not L.periodic and n >= 3:
        if not is_reflection(L, n):
            return None  # the group below the threshold is the arc engine's
        info = _group_info(n, None)
        gstep = windows_group_step(desc, info, WindowsGroup(L, n, None))
        obstruction = windows_layers_step(desc, WindowsCount(L, n, None, None, None))
        return PatternOutcome(gstep, info, (obstruction,), None, None, obstruction)
    if dec.depth is None or dec.pinned is None:
        return None
    info = _group_info(n, None)
    gstep = windows_group_step(desc, info, WindowsGroup(L, n, None))
    lstep = windows_layers_step(desc, WindowsCount(L, n, dec.depth, dec.pinned, None))
    return PatternOutcome(gstep, info, (lstep,), dec.depth, dec.depth, None)
