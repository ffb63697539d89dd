"""Sparse patterns: connectivity, the number of attention layers, and the symmetry group.

The graph work (arcs, strong connectivity, directed diameter, automorphisms, closed forms for
symbolic n) lives in uapcheck/graphs; these rules turn its certificates into derivation steps.
"""
from __future__ import annotations

from .. import proof
from .. import spec as S
from ..show import show_pattern

CITE_SPARSE = ("Cheng et al. 2025, sparse corollary (strong connectivity, directed diameter ≤ m); "
               "necessity by the receptive-field argument, docs/theory.md §Patterns")


@proof.rule("PAT-UNDECIDED", "Pattern analysis not available", CITE_SPARSE)
def _pattern_undecided(spec: S.Spec):
    pats = "; ".join(show_pattern(h.pattern) for h in spec.heads)
    return proof.conclude(f"the pattern analysis of {pats} is not decided by this version", proof.UNDECIDED,
                          evidence={"patterns": pats})


def pattern_premises(spec: S.Spec):
    """(group step, group, structure steps, layers, obstruction step or None)."""
    step = _pattern_undecided(spec)
    return step, None, [step], None, None


@proof.rule("PAT-BUDGET", "A layer budget below the directed diameter", CITE_SPARSE)
def layer_budget(spec: S.Spec, layers: int):
    return proof.conclude(f"`layers {spec.layers}` is below the {layers} attention layers the pattern needs",
                          proof.PROVED, evidence={"budget": spec.layers, "needed": layers})
