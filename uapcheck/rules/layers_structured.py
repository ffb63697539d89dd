"""Sparse Transformer's per-layer alternations at any concrete n (docs/theory.md §21.7, Theorems F133 and F134):
the group, D_Φ and the least count by closed forms, without materialising arcs. The arc engine of rules/layers.py
decides n ≤ 1,024; this route takes the lengths above it for `periodic { window(w), strided(s) }` and
`periodic { blocks(b), columns(b, c) }` (either order, one head per layer) within the theorems' ranges.
"""
from __future__ import annotations

from typing import Optional

from .. import proof
from .. import spec as S
from ..claim import claim as claim_of
from ..graphs.layers_structured import FIXED, Alternation, AltDecision, decide, recognise
from ..groups import GroupInfo, exact_int
from ..layer_certificates import AlternationCount, AlternationGroup
from .wording import X_J, group_is, token

CITE_ALT_GROUP = proof.derived(
    "Corollary 2",
    text="Cheng et al. 2025, Corollary 2 (G = ⋂_p Aut(N_p)); the intersection for Sparse Transformer's alternations "
         "in closed form, derived here (docs/theory.md §21.7, Theorems F133 (a) and F134 (a))")
CITE_ALT_LAYERS = proof.corrected(
    "Definition 4", "Corollary 2",
    text="Cheng et al. 2025, Definition 4 and Corollary 2; D_Φ and the least count of Sparse Transformer's "
         "alternations in closed form, derived here (docs/theory.md §21.7, Theorems F133 and F134)")


@proof.rule("SEQ-ALTERNATION-GROUP",
            "G of Sparse Transformer's per-layer alternations at any n, in closed form (Theorems F133, F134)",
            CITE_ALT_GROUP, statuses=(proof.PROVED,), certificates=(AlternationGroup,))
def alternation_group_step(desc: str, info: GroupInfo, cert: AlternationGroup) -> proof.Step:
    a = cert.alt
    if a.family == FIXED:
        why = (f"blocks({a.p}) alone allows every permutation mapping blocks onto blocks, columns({a.p}, {a.q}) every "
               "permutation keeping the summary positions (the last "
               f"{a.q} of every block), and G = ⋂ Aut is their meet: blocks onto blocks, summaries onto summaries")
    else:
        why = (f"window({a.p}) alone has only the reflection i ↦ n + 1 − i at n ≥ {2 * a.p + 2}, and the reflection "
               f"maps the residue classes mod {a.q} onto residue classes, so it keeps strided({a.q})")
    claim = claim_of("the exact equivariance group of the family is ", group_is(info), f": {why} (Theorem "
                     f"{cert.theorem})")
    ev = {"patterns": desc, "order": info.order_value, "name": info.name, "theorem": cert.theorem}
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"group": info}, certificate=cert)


@proof.rule("SEQ-ALTERNATION-LAYERS",
            "D_Φ and the least number of layers of Sparse Transformer's per-layer alternations at any n "
            "(Theorems F133, F134)",
            CITE_ALT_LAYERS, statuses=(proof.PROVED,), certificates=(AlternationCount,))
def alternation_layers_step(desc: str, cert: AlternationCount) -> proof.Step:
    a, d, m = cert.alt, cert.depth, cert.layers
    i, j = cert.missing
    claim = claim_of("every ", X_J, " reaches every position through an increasing sequence of layers within "
                     f"{d} layers (Definition 4), and not within {d - 1}: ", token(j), f" does not reach position {i}")
    ev: dict = {"patterns": desc, "theorem": cert.to_json()["theorem"], "D_Φ": d, "layers": m, "least": cert.least,
                "not within D_Φ − 1": {"i": i, "j": j}}
    if a.family == FIXED:
        claim += claim_of(f"; {m} attention layers suffice and are least: every block holds a summary, and one layer "
                          "below the block layer every view holds every summary, so a permutation keeping a view maps "
                          "blocks onto blocks and summaries onto summaries: it is in G (Theorem F134)")
    else:
        seen = (f"layer {cert.covered[0]} (the window) is" if len(cert.covered) == 1 else
                "layers 1 and 2 are")
        suffice = (f"at depth {m} {seen} seen whole by every position, and the window alone has only the reflection, "
                   "which is G, so no permutation outside G keeps a view (the covering lemma, Theorem F133)")
        ev["layers seen whole"] = list(cert.covered)
        if cert.least:
            w = cert.witness
            what = (f"the transposition ({w.a} {w.a + 1})" if not w.exchange else
                    f"the exchange of the residue classes of {w.a} and {w.a + 1} mod {a.q} (j ↔ j + 1 for every "
                    f"j ≡ {w.a})")
            claim += claim_of(f"; {m} attention layers are needed and suffice: with {m - 1} the output at position "
                              f"{w.position} is the same for X and σX, σ {what} (a view witness outside G); {suffice}")
            ev["view witness"] = {"position": w.position, "depth": w.depth,
                                  **({"swap": [w.a, w.a + 1]} if not w.exchange else
                                     {"class exchange": [w.a, w.a + 1], "modulus": a.q})}
        else:
            claim += claim_of(f"; {m} attention layers suffice ({suffice}); whether fewer do is not shown: D_Φ = {d} "
                              f"layers are needed, and the residues {{0, −1, w, −w − 1}} mod {a.q} leave no pair for "
                              "the closed-form witness")
    return proof.conclude(claim, proof.PROVED, evidence=ev, facts={"layers": m, "least": cert.least},
                          certificate=cert)


def alternation(spec: S.Spec, per_layer, periodic: bool) -> Optional[Alternation]:
    """The alternation the file's layers form, within a theorem's range and the network's depth (a budget `layers M`
    at least the count), or None."""
    if not isinstance(spec.tokens, int):
        return None
    alt = recognise(per_layer, periodic, spec.tokens)
    if alt is None:
        return None
    budget = spec.layers if isinstance(spec.layers, int) else None
    if budget is not None and budget < decide(alt).layers:
        return None
    return alt


def alternation_outcome(spec: S.Spec, desc: str, alt: Alternation):
    """The PatternOutcome of an alternation (rules/pattern.py's record)."""
    from .pattern import PatternOutcome
    dec: AltDecision = decide(alt)
    g = dec.group
    shown = g.order if g.order is not None and g.order < 10 ** 15 else g.order_words
    info = GroupInfo(g.name, shown, g.generators, exact=None if g.order is None else exact_int(g.order))
    gstep = alternation_group_step(desc, info, AlternationGroup(alt, g.name, g.order, g.generators))
    lstep = alternation_layers_step(desc, AlternationCount(alt, dec.depth, dec.missing, dec.layers, dec.least,
                                                           dec.witness, dec.covered))
    return PatternOutcome(gstep, info, (lstep,), dec.layers, dec.depth, None)
