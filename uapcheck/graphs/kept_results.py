"""The token graph's connectivity and symmetry group, kept per process for equal arcs.

`analyze_connectivity` and `symmetry_group` are functions of their arguments alone: the same arcs (PatternGraph
compares arc sets), the same bias kinds and encoding give the same answer. A batch asks for the same small graphs
many times: a family's small cases (graphs/families.py `concrete`) and the lengths below a stated range
(rules/small_lengths.py) derive the same pattern at the same n, and several files share a pattern at a length.
The answers are immutable (frozen dataclasses of tuples), so the kept one is returned as it is. Only graphs of at
most `KEPT_MAX_ARCS` arcs are kept, and a diameter left undecided (a time or work limit ran out: `reason`) is not.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Optional, Sequence

from ..memo import kept_store
from .build import PatternGraph
from .connectivity import DIAMETER_WORK, Connectivity
from .connectivity import analyze_connectivity as _analyze_connectivity
from .symmetry import SymmetryGroup
from .symmetry import symmetry_group as _symmetry_group

#: Graphs with more arcs than this (all heads together) are computed afresh every time.
KEPT_MAX_ARCS = 60_000
#: Answers kept per function (the least recently used is dropped first).
KEPT_ANSWERS = 512

#: emptied by memo.clear_caches()
_CONNECTIVITY: "OrderedDict[Any, Connectivity]" = kept_store()
_GROUPS: "OrderedDict[Any, SymmetryGroup]" = kept_store()


def _small(graphs: Sequence[PatternGraph]) -> bool:
    return sum(g.num_arcs for g in graphs) <= KEPT_MAX_ARCS


def _keep(store: OrderedDict, key: Any, value: Any) -> None:
    store[key] = value
    if len(store) > KEPT_ANSWERS:
        store.popitem(last=False)


def analyze_connectivity(graphs: Sequence[PatternGraph], *, max_probes: int = 400, work_budget: int = DIAMETER_WORK,
                         use_symmetry: bool = True,
                         union_automorphisms: Optional[Sequence[Sequence[int]]] = None) -> Connectivity:
    """graphs/connectivity.py `analyze_connectivity`, kept for equal arguments."""
    def compute() -> Connectivity:
        return _analyze_connectivity(graphs, max_probes=max_probes, work_budget=work_budget,
                                     use_symmetry=use_symmetry, union_automorphisms=union_automorphisms)
    if not _small(graphs):
        return compute()
    known = None if union_automorphisms is None else tuple(tuple(g) for g in union_automorphisms)
    key = (tuple(graphs), max_probes, work_budget, use_symmetry, known)
    got = _CONNECTIVITY.get(key)
    if got is not None:
        _CONNECTIVITY.move_to_end(key)
        return got
    value = compute()
    if not value.reason:
        _keep(_CONNECTIVITY, key, value)
    return value


def symmetry_group(graphs: Sequence[PatternGraph], biases: Optional[Sequence[Optional[str]]] = None,
                   positional: str = "none") -> SymmetryGroup:
    """graphs/symmetry.py `symmetry_group`, kept for equal arguments (no biases and no bias on any head are one)."""
    if not _small(graphs):
        return _symmetry_group(graphs, biases, positional)
    kinds = tuple(biases) if biases is not None else (None,) * len(graphs)
    key = (tuple(graphs), kinds, positional)
    got = _GROUPS.get(key)
    if got is not None:
        _GROUPS.move_to_end(key)
        return got
    value = _symmetry_group(graphs, biases, positional)
    _keep(_GROUPS, key, value)
    return value
