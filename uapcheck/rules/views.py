"""How many attention layers a sparse pattern needs: the diameter D, or D + 1.

View argument (docs/theory.md §11.2, §11.9, derived here). After m layers the output at position i
is a function of its depth-m view: the tokens within distance m and, per head, the in-neighbourhood
N_h(v) of every position v with d(v → i) ≤ m − 1. Hence

* m ≥ D is necessary (receptive field);
* m = D + 1 always suffices: then every v is within distance m − 1, and σ must be an automorphism;
* m = D suffices iff no *view witness* exists: a σ outside the group that keeps the neighbourhoods of
  all positions within distance D − 1 of some i. ``uapcheck.graphs.views.decide_views`` decides this
  exactly (rooted views and canonical labelling), with a certificate either way, or reports the
  resource that ran out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ..graphs import PatternGraph
from ..graphs.views import decide_views


@dataclass(frozen=True)
class LayerCount:
    layers: int
    exact: bool  # True: `layers` is the least number that works
    method: str
    witness: Optional[dict] = None  # a view witness showing D layers are not enough
    certificate: Optional[dict] = None  # the rooted-view data showing D layers suffice


def layers_needed(graphs: Sequence[PatternGraph], diameter: int, in_group, group_order: Optional[int] = None,
                  group_generators=None, arc_classes=None, no_witness_proves: bool = True) -> LayerCount:
    """The number of layers for a strongly connected pattern with directed diameter D.

    `in_group(perm_list)` tells whether a permutation (1-based image list) is in the pattern's group
    G = ⋂_h Aut(Γ_h); `group_order` and `group_generators` describe G (without them only a witness
    can be found, and "D suffices" is not decided).
    """
    n = graphs[0].n
    if diameter <= 1 and all(g.complete or g.num_arcs == n * (n - 1) for g in graphs):
        return LayerCount(1, True, "every head is complete: every position sees every token in one layer")
    if group_order is None:
        group_order, group_generators = 0, None
    decision = decide_views(graphs, diameter, group_order, group_generators, in_group, arc_classes=arc_classes)
    labelled = arc_classes is not None and any(c is not None for c in arc_classes)
    if decision.sufficient is False:
        what = "labelled view witness (it keeps every bias class)" if labelled else "view witness"
        return LayerCount(diameter + 1, True, f"{what}: D layers are not enough, D + 1 suffice",
                          decision.witness.as_evidence(diameter))
    if decision.sufficient and not no_witness_proves:
        return LayerCount(diameter + 1, False, "view argument: no labelled view witness exists, but D layers are "
                          "shown sufficient only for trainable bias classes (§11.10); with fixed position weights "
                          f"D + 1 = {diameter + 1} suffice, not shown least")
    if decision.sufficient and labelled:
        cert = decision.certificate.as_evidence() if decision.certificate else {}
        return LayerCount(diameter, True, "labelled rooted views (§11.10): for every G-orbit representative i the "
                          "automorphisms of i's rooted view with its bias classes are exactly Stab_G(i), and no two "
                          "orbits have isomorphic labelled views, so no labelled view witness exists and D layers "
                          "suffice (the trainable bias separates labelled views)", certificate=cert)
    if decision.sufficient:
        cert = decision.certificate.as_evidence() if decision.certificate else {}
        return LayerCount(diameter, True, "rooted views (§11.9): for every G-orbit representative i the "
                          "automorphisms of i's rooted depth-(D − 1) view are exactly Stab_G(i), and no two "
                          "orbits have isomorphic rooted views, so no view witness exists and D layers "
                          "suffice", certificate=cert)
    return LayerCount(diameter + 1, False, f"view argument: D + 1 = {diameter + 1} layers suffice; whether "
                      f"D = {diameter} suffice is not decided: {decision.reason}")
