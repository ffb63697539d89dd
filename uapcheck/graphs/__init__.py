"""Attention-pattern graphs: arcs, strong connectivity, diameter, exact symmetry groups.

Direction convention: the arc j -> i exists when query i attends to key j (information flows
from key j to query i).  Positions are 1-based in every public value.
"""
from .closed_connectivity import closed_connectivity
from .closed_forms import ClosedForm, ConnectivityCase, GroupCase, closed_forms
from .closed_groups import closed_group
from .build import (DEFAULT_MAX_ARCS, GraphTooLarge, PatternGraph, build_graph, resolve,
                    union_graph)
from .connectivity import (BFSProbe, Connectivity, LayerCheck, Separation, UpperBound,
                           check_layers, distance, verify_connectivity,
                           verify_separation, verify_upper_bound)
from .symmetry import (BIAS_KINDS, SymmetryGroup, automorphisms_of_graph, is_automorphism,
                       reflection, rotation, verify_group)
# kept per process for equal arcs (the engines' answers are functions of their arguments)
from .kept_results import analyze_connectivity, symmetry_group

__all__ = [
    "DEFAULT_MAX_ARCS", "GraphTooLarge", "PatternGraph", "build_graph", "resolve", "union_graph",
    "BFSProbe", "Connectivity", "LayerCheck", "Separation", "UpperBound", "analyze_connectivity",
    "check_layers", "distance", "verify_connectivity", "verify_separation", "verify_upper_bound",
    "BIAS_KINDS", "SymmetryGroup", "automorphisms_of_graph", "is_automorphism", "reflection",
    "rotation", "symmetry_group", "verify_group",
    "ClosedForm", "ConnectivityCase", "GroupCase", "closed_connectivity", "closed_forms",
    "closed_group",
]
