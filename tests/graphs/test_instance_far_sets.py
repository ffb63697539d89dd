"""The concrete engine of the family theorems' instance checks (`families.concrete`, answer only) hands the rooted-view
decision an upper bound on every ecc_out from the diameter's search (`families._ecc_bound`: every eccentricity, Theorem
F131's array, or the probes' d(w -> p) + ecc_out(p)), so it decides by the far sets of Theorem F132 (docs/theory.md
§11.9) instead of one canonical form per root. Checked here: the bound is an upper bound on every eccentricity (one
queue BFS per position), and the answer with it is the answer without it (one BLISS view per orbit), on the single-head
patterns of the instance checks (strided, dilated, offset and block unions, random arcs) at lengths 20 to 420."""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.families import INSTANCE_PROBE_WORK, _ecc_bound
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.views import decide_views

from .test_far_set_views import _eccentricities
from .test_views import _spec


def _cases(seed: int, count: int, lo: int, hi: int) -> list:
    rng = random.Random(seed)
    kinds = [lambda: f"strided({rng.randint(2, 9)})", lambda: f"offsets {{{rng.randint(-6, -1)}, {rng.randint(1, 9)}}}",
             lambda: f"dilated({rng.randint(1, 3)}, {rng.randint(2, 3)})", lambda: f"blocks({rng.randint(2, 6)})",
             lambda: f"window({rng.randint(1, 3)})", lambda: f"global({rng.randint(1, 2)})",
             lambda: f"random({rng.randint(1, 2)}, seed={rng.randint(0, 9)})", lambda: f"window({rng.randint(1, 2)}) cyclic"]
    out = []
    for _ in range(count):
        pattern = " + ".join(rng.choice(kinds)() for _ in range(rng.randint(2, 3)))
        out.append((pattern, rng.randint(lo, hi)))
    return out


#: decided by the far sets (past the exact test's first work, with a bound): the instance that strided_offsets_1m.uap
#: checks, and two more
FAR_CASES = [("strided(8) + offsets {-5, 9}", 312), ("strided(4) + window(1)", 150),
             ("window(2) cyclic + offsets {-4, 2}", 230)]
CASES = [*FAR_CASES, ("blocks(4) + dilated(3, 2)", 97), ("blocks(4) + dilated(3, 2)", 120), *_cases(3, 24, 20, 320),
         *_cases(5, 16, 200, 420)]


@pytest.mark.parametrize("pattern,n", CASES)
def test_the_instance_answer_is_the_same_with_the_far_sets(pattern, n):
    graphs = [build_graph(h.pattern, n, {}) for h in _spec([pattern], n).heads]
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected or conn.diameter is None or conn.diameter < 2:
        pytest.skip("not strongly connected, diameter not decided, or complete")
    d = int(conn.diameter)
    bound = _ecc_bound(conn)
    if bound is not None:
        assert bool((np.asarray(bound) >= _eccentricities(graphs)).all())
    grp = symmetry_group(graphs)
    if grp.generators is None:
        pytest.skip("the generators of G are not listed")
    st = pattern_structure(graphs)
    common = dict(probe_work=INSTANCE_PROBE_WORK, certificate=False)
    plain = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, **common)
    far = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, ecc_bound=bound, **common)
    assert plain.sufficient is not None and far.sufficient is plain.sufficient
    if (pattern, n) in FAR_CASES:
        assert far.certificate is not None and far.certificate.far_groups is not None


def test_a_small_instance_makes_no_bound_and_loads_no_numpy():
    # below the exact test's first work the far sets are not used: the bound (numpy) is not made, so a small pattern's
    # check still runs without numpy (issue 14's start-up)
    import subprocess
    import sys
    code = ("import sys\n"
            "from uapcheck.graphs.families import concrete\n"
            "from uapcheck.parse import parse_source\n"
            "spec = parse_source('tokens 17\\nattention { kernel k(x, y) = exp(x . y); "
            "pattern blocks(4) + dilated(1, 2) + global(1) }\\n')\n"
            "got = concrete(spec.heads[0].pattern, 17)\n"
            "print(got.layers, got.least, 'numpy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["3", "True", "False"]
