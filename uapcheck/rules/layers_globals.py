"""Per-layer windows with global tokens at any n (docs/theory.md §21.13, Theorems F237–F239, F129, Lemma AP): D_Φ,
the group and the least count by arithmetic on the layer list, without materialising arcs. The arc engine of
rules/layers.py decides n ≤ 1,024; this route takes the lengths above it from the theorems' start N* on, and a symbolic
n for periodic lists (the lengths below N* decided one by one by the arc engine, §12), when the file has one head
whose per-layer patterns are windows, `window(w) + global(g)` or `global(g)` with one g (else the arc engine, or an
undecided step, as before).
"""
from __future__ import annotations

import math
from typing import Optional

import sympy

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..claim import written
from ..graphs.closed_forms import _span
from ..graphs.layers_globals import (GlobalLayers, claim_start, decide, from_spec, group_kind, least_depth,
                                     second_global)
from ..groups import GroupInfo
from ..layer_certificates import GlobalsCount, GlobalsGroup, _globals_group_start
from .wording import SUM_TARGET as SUM_TARGET_CLAIM
from .wording import S_N, X_J, group_is, token

CITE_GLOBALS_GROUP = proof.derived(
    "Corollary 2",
    text="Cheng et al. 2025, Corollary 2 (G = ⋂_p Aut(N_p)); the intersection for per-layer windows with global "
         "tokens in closed form, derived here (docs/theory.md §21.13, Theorem F238)")
CITE_GLOBALS_LAYERS = proof.corrected(
    "Definition 4", "Corollary 2",
    text="Cheng et al. 2025, Definition 4 and Corollary 2; D_Φ and the least count of per-layer windows with global "
         "tokens in closed form, derived here (docs/theory.md §21.13, Theorems F237, F239 and Lemma AP)")
CITE_GLOBALS_DEPTH = proof.derived(
    "Definition 4",
    text="derived here: a finite list of windows with global tokens that never connects, or whose whole depth keeps a "
         "view witness (docs/theory.md §21.13, Theorem F129)")
SUM_TARGET = "F(X)_k = x_1 + ... + x_n at every position k"
WITNESS_WORDS = {"swap": "the swap of two positions far from the root, from the globals and from each other",
                 "reflection": "the reflection of the non-global positions, which keeps every global layer"}


def _cond(name: str, start: int) -> tuple[str, sympy.Basic]:
    n = sympy.Symbol(name, integer=True, positive=True)
    return f"{name} ≥ {start}", sympy.Ge(n, start)


def group_info(L: GlobalLayers, n, start: Optional[int]) -> GroupInfo:
    """F238's group at an integer n, or at a symbolic n with the range n ≥ start."""
    symbolic = not isinstance(n, int)
    cond = _cond(str(n), start) if symbolic and start is not None else ("", None)
    if group_kind(L) == "trivial":
        return GroupInfo("trivial", 1, (), condition=cond[0], condition_formula=cond[1])
    g = L.g
    size = sympy.Symbol(str(n), integer=True, positive=True) if symbolic else n
    name = (f"the reflection of {_span(2, size)}" if g == 1 else
            f"S_{g} on {_span(1, g)} × the reflection of {_span(g + 1, size)}")
    gens: list = []
    if not symbolic and n <= 256:
        if g >= 2:
            gens.append((2, 1) + tuple(range(3, n + 1)))
        if g >= 3:
            gens.append(tuple(range(2, g + 1)) + (1,) + tuple(range(g + 1, n + 1)))
        gens.append(tuple(range(1, g + 1)) + tuple(range(n, g, -1)))
    elif symbolic:
        gens = ["(1 2)"] if g >= 2 else []
        if g >= 3:
            gens.append(f"(1 2 … {g})")
        gens.append(f"i ↦ {sympy.sstr(size + g + 1)} − i on {_span(g + 1, size)}")
    return GroupInfo(name, 2 * math.factorial(g), tuple(gens), condition=cond[0], condition_formula=cond[1])


@proof.rule("SEQ-GLOBALS-GROUP", "G of per-layer windows with global tokens at any n (Theorem F238)",
            CITE_GLOBALS_GROUP, statuses=(proof.PROVED,), certificates=(GlobalsGroup,))
def globals_group_step(desc: str, info: GroupInfo, cert: GlobalsGroup) -> proof.Step:
    L = cert.layers
    t = _globals_group_start(L)
    if group_kind(L) == "trivial":
        why = claim_of("a layer without globals is a window of positive width, whose only non-identity symmetry is "
                       "the reflection ", written("i ↦ n + 1 − i", r"i \mapsto n + 1 - i"), ", and that reflection "
                       "moves the globals of a global layer onto positions that are not global there")
    else:
        why = claim_of("every layer of positive width has the globals ", written(f"1, …, {L.g}", rf"1, \dots, {L.g}"),
                       ", which any permutation of them keeps, and on the other positions a window, whose only "
                       "non-identity symmetry is their reflection; layers of width 0 keep both")
    claim = claim_of("the exact equivariance group of the family is ", group_is(info), ": ", why, " (from ",
                     written(f"n ≥ {t}", rf"n \geq {t}"), ", Theorem F238)")
    ev = {"patterns": desc, "order": info.order, "name": group_kind(L), "theorem": "F238", "from": t}
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"group": info}, certificate=cert)


@proof.rule("SEQ-GLOBALS-LAYERS",
            "D_Φ and the least number of layers of per-layer windows with global tokens at any n (Theorems F237, F239)",
            CITE_GLOBALS_LAYERS, statuses=(proof.PROVED,), certificates=(GlobalsCount,))
def globals_layers_step(desc: str, cert: GlobalsCount, name: str = "n") -> proof.Step:
    d, m = cert.depth, cert.count
    assert d is not None and m is not None
    ev: dict = {"patterns": desc, "widths": list(cert.layers.widths), "globals": list(cert.layers.globals_),
                "theorem": "F239", "D_Φ": d, "layers": m, "least": True, "pins": list(cert.pins), "from": cert.start}
    facts: dict = {"layers": m, "least": True}
    if not isinstance(cert.n, int):
        cond = _cond(name, cert.start)
        facts.update({"condition": cond[0], "condition_formula": cond[1]})
    reach = claim_of("every ", X_J, f" reaches every position within the first {d} layers — into the globals of "
                     "one global layer, out of them in the next — and not within one fewer (Theorem F237, from ",
                     written(f"{name} ≥ {cert.start}", rf"{name} \geq {cert.start}"), ")")
    if m == d:
        tail = claim_of(f"; these {m} layers suffice and are least")
    else:
        tail = claim_of(f"; {m} layers are needed and suffice: with {m - 1} a view witness remains (",
                        WITNESS_WORDS[cert.witness or "swap"], ")")
    pins = ", ".join(map(str, cert.pins))
    claim = claim_of(reach, tail, f": at depth {m} every permutation keeping a root's view keeps layer"
                     f"{'s' if len(cert.pins) > 1 else ''} {pins} (seen whole, or read at the globals), and none "
                     "outside G does (Lemma AP, Theorem F239)")
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts=facts, certificate=cert)


@proof.rule("SEQ-GLOBALS-DEPTH", "A finite list of windows with global tokens too shallow: NOT-UAP (Theorem F129)",
            CITE_GLOBALS_DEPTH, statuses=(proof.PROVED,), certificates=(GlobalsCount,))
def globals_depth_step(desc: str, cert: GlobalsCount) -> proof.Step:
    L = cert.layers
    k = len(L.widths)
    ev: dict = {"patterns": desc, "widths": list(L.widths), "globals": list(L.globals_), "theorem": "F129",
                "from": cert.start}
    if cert.depth is None:
        i = L.g + L.reach(k) + 1
        claim = claim_of(token(cert.n), f" never reaches position {i} within the network's {k} attention layers (at "
                         "most one of them has globals, so x_n is read only within the widths' sum of n and, after "
                         "the global layer, of the globals; Theorem F237), so every model's output there ignores ",
                         token(cert.n), ", while the target ", SUM_TARGET_CLAIM, " (", S_N, "-invariant, hence "
                         "G-equivariant) depends on it (Theorem F129)")
        ev["witness"] = {"i": i, "j": cert.n, "target": SUM_TARGET}
    else:
        claim = claim_of(f"Φ is connected within {cert.depth} layers, but at the network's whole depth {k} a view "
                         "witness remains (", WITNESS_WORDS[cert.witness or "swap"], "): the output at the root is the "
                         "same for X and σX with σ outside G, so a G-equivariant target separating them is not "
                         "approximable (Lemma AP, Theorem F129)")
        ev["view witness"] = cert.witness
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"obstruction": True, "layers": None},
                          certificate=cert)


def _symbolic(L: GlobalLayers, name: str, desc: str):
    from .pattern import PatternOutcome
    if not L.periodic or group_kind(L) is None:
        return None
    m, v = least_depth(L)
    a2 = second_global(L)
    if m is None or v is None or a2 is None:
        return None
    start = claim_start(L, m, v)
    below = least_depth_witness(L, m, a2)
    info = group_info(L, name, start)
    gstep = globals_group_step(desc, info, GlobalsGroup(L, name, start, info.name or ""))
    lstep = globals_layers_step(desc, GlobalsCount(L, name, a2, m, v.pins, below, start), name)
    return PatternOutcome(gstep, info, (lstep,), sympy.Integer(m), sympy.Integer(a2), None)


def least_depth_witness(L: GlobalLayers, m: int, a2: int) -> Optional[str]:
    from ..graphs.layers_globals import at_depth
    return at_depth(L, m - 1).witness if m > a2 else None


def globals_outcome(spec: S.Spec, desc: str):
    """The PatternOutcome of per-layer windows with global tokens within Theorems F237–F239 and F129, or None
    (outside, or below the range: the caller keeps the arc engine or its undecided step)."""
    from .pattern import PatternOutcome
    L = from_spec(spec)
    if L is None:
        return None
    n = spec.tokens
    if not isinstance(n, int):
        return _symbolic(L, str(n), desc)
    dec = decide(L, n)
    t = _globals_group_start(L)
    if dec is None or t is None or n < t:
        return None
    info = group_info(L, n, None)
    gstep = globals_group_step(desc, info, GlobalsGroup(L, n, None, info.name or ""))
    if dec.depth is None or dec.layers is None:
        witness = dec.verdict.witness if dec.verdict is not None and dec.depth is not None else None
        cert = GlobalsCount(L, n, dec.depth, None, (), witness, dec.start)
        obstruction = globals_depth_step(desc, cert)
        return PatternOutcome(gstep, info, (obstruction,), None, dec.depth, obstruction)
    assert dec.verdict is not None
    below = least_depth_witness(L, dec.layers, dec.depth)
    cert = GlobalsCount(L, n, dec.depth, dec.layers, dec.verdict.pins, below, dec.start)
    lstep = globals_layers_step(desc, cert)
    return PatternOutcome(gstep, info, (lstep,), dec.layers, dec.depth, None)
