"""The two deciders the several-heads tests compare: the closed forms of the heads' least count at a symbolic n
(graphs/head_layers.py, on the closed group) and the concrete engine at one n (coloured rooted views)."""
from __future__ import annotations

import sympy

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs import head_layers as HL
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.views import PROBE_WORK, decide_views

N = sympy.Symbol("n", integer=True, positive=True)


def closed_least(heads):
    """The heads' family theorem at a symbolic n (its least count by class), or None."""
    grp = closed_group(list(heads), N, {}, [None] * len(heads), "none")
    return HL.least_layers(list(heads), grp.cases if grp else None, N)


def engine_least(heads, n: int):
    """(D, whether D layers suffice) from the concrete engine on the heads (coloured rooted views)."""
    graphs = [build_graph(h, n, {}) for h in heads]
    conn = analyze_connectivity(graphs)
    assert conn.strongly_connected
    grp = symmetry_group(graphs)
    d = int(conn.diameter)
    return d, decide_views(graphs, d, int(grp.order), grp.generators, pattern_structure(graphs).preserves,
                           probe_work=PROBE_WORK).sufficient
