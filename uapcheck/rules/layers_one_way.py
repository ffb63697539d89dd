"""Per-layer lists whose every arc goes one way, at a symbolic n (docs/theory.md §21.14, Theorem F138): a decoder's
layers (`causal & window(w)`, `causal`, non-positive offsets, sinks) without `target causal`, read for equivariant
targets. Position 1 (or n) is reached from itself alone through any layers, so x_2 never reaches position 1 (or x_1
never reaches position n) at any depth: NOT-UAP for every n ≥ 2; n = 1 is the concrete engine's (below the range).
"""
from __future__ import annotations

from typing import Optional

import sympy

from .. import spec as S
from ..graphs.arith import lower_triangular, upper_triangular
from ..layer_certificates_one_way import OneWayLayers
from .structured import head_layer_patterns
from .symmetry import group_undecided


def one_way_outcome(spec: S.Spec, desc: str):
    """The PatternOutcome (NOT-UAP for n ≥ 2) when every layer pattern of every head goes one way, else None."""
    from .pattern import PatternOutcome, disconnected_step
    n = spec.tokens
    if isinstance(n, int) or not any(isinstance(h.pattern, S.PatternSequence) for h in spec.heads):
        return None
    pats = tuple(dict.fromkeys(p for _, p in head_layer_patterns(spec)))
    lower: Optional[bool] = True if all(map(lower_triangular, pats)) else (
        False if all(map(upper_triangular, pats)) else None)
    if lower is None or not pats:
        return None
    i, j = (1, 2) if lower else (str(n), 1)
    why = ("every arc j → i of every head of every layer has j ≤ i, so only position 1 has a path to 1 through "
           "increasing layers (no arc enters {1} from outside)" if lower else
           "every arc j → i of every head of every layer has j ≥ i, so only position n has a path to n through "
           "increasing layers")
    where = sympy.Ge(sympy.Symbol(str(n), integer=True, positive=True), 2)
    evidence = {"positions that reach i": [i], "why": why, "range": f"for {n} ≥ 2", "theorem": "F138"}
    obstruction = disconnected_step(desc, i, j, evidence, OneWayLayers(pats, lower), condition=where)
    gstep = group_undecided(desc, "the group of per-layer one-way patterns at a symbolic n is not computed (the "
                                  "verdict does not need it)")
    return PatternOutcome(gstep, None, (obstruction,), None, None, obstruction)
