"""`window(w) cyclic` with 2w + 3 ≤ n ≤ 4w + 1: D = 2 layers suffice (docs/theory.md §11.9, the path
argument), checked against the exact rooted-view decision (which does not use the proof) and by the
end-to-end count."""
from __future__ import annotations

import math

import pytest

from uapcheck.derive import check_spec
from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.families import INSTANCE_PROBE_WORK
from uapcheck.graphs.views import decide_views
from uapcheck.parse import parse_source
from uapcheck.spec import Window

CASES = [(w, n) for w in range(1, 11) for n in range(2 * w + 3, 4 * w + 2)]


@pytest.mark.parametrize("w,n", CASES)
def test_two_layers_suffice_by_the_exact_decision(w, n):
    graphs = [build_graph(Window(w, cyclic=True), n, {})]
    conn = analyze_connectivity(graphs)
    assert conn.diameter == 2 == math.ceil((n // 2) / w)
    grp = symmetry_group(graphs)
    assert grp.name == "D_n"
    decision = decide_views(graphs, 2, int(grp.order), grp.generators, pattern_structure(graphs).preserves,
                            probe_work=INSTANCE_PROBE_WORK)
    assert decision.sufficient is True


@pytest.mark.parametrize("w", [1, 3, 10])
def test_the_design_is_uap_and_two_layers_at_the_start_of_its_range(w):
    text = ("param w integer >= 1\nattention { kernel k(x, y) = exp(x . y); pattern window(w) cyclic }")
    r = check_spec(parse_source(text, "dn.uap"))
    assert r.verdict == "UAP" and r.group.name == "D_n"
    concrete = check_spec(parse_source(f"tokens {2 * w + 3}\nattention {{ kernel k(x, y) = exp(x . y); "
                                       f"pattern window({w}) cyclic }}", "dn.uap"))
    assert concrete.layers == 2
