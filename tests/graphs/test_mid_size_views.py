"""Whether D layers suffice at mid-size n: the rooted-view decision past its BLISS work limit
(uapcheck/graphs/view_refine.py; docs/theory.md §11.9, "Mid-size n"): covering roots dropped, colour
refinement, BLISS only on the rest.

Forced here with ``work_limit=0`` and no transposition probe, and checked against brute force over S_n
(n ≤ 8, the 44 patterns of test_views.py) and against the BLISS path (random unions of structured
patterns, 12 ≤ n ≤ 60); the least counts of mid-size cases the BLISS path could not decide are pinned
end to end.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck.derive import check_spec
from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.view_refine import ArcArrays, covering_roots, refine
from uapcheck.graphs.views import decide_views, verify_witness
from uapcheck.parse import parse_source

from .test_views import SMALL, _brute, _spec


def _setup(patterns, n):
    spec = _spec(patterns, n)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected or conn.diameter is None:
        return None
    grp = symmetry_group(graphs)
    return graphs, int(conn.diameter), grp, pattern_structure(graphs)


def _both(graphs, d, grp, st):
    slow = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=0,
                        work_limit=10 ** 12)
    mid = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, probe_work=0, work_limit=0)
    return slow, mid


@pytest.mark.parametrize("patterns,n", SMALL)
def test_the_mid_size_path_agrees_with_brute_force_over_all_permutations(patterns, n):
    got = _setup(patterns, n)
    if got is None:
        pytest.skip("not strongly connected")
    graphs, d, grp, st = got
    bd, suffices = _brute(patterns, n)
    assert bd == d
    _, mid = _both(graphs, d, grp, st)
    assert mid.sufficient is suffices, mid.reason
    if not suffices:
        assert verify_witness(graphs, d, mid.witness, st.preserves)
    else:
        cert = mid.certificate
        assert cert.covering is not None  # the mid-size path ran
        assert len(set(cert.canonical_digests)) == len(cert.representatives)


def _random_cases(seed: int, count: int) -> list:
    rng = random.Random(seed)

    def part():
        return rng.choice([f"window({rng.randint(1, 3)})", f"window({rng.randint(1, 2)}) cyclic",
                           f"global({rng.randint(1, 2)})", "star", f"strided({rng.randint(2, 4)})",
                           f"dilated({rng.randint(1, 2)}, {rng.randint(2, 3)})", f"blocks({rng.randint(2, 4)})",
                           f"offsets {{{rng.randint(1, 2)}, {rng.randint(3, 4)}}} cyclic",
                           f"random({rng.randint(1, 2)}, seed={rng.randint(0, 9)})", "causal"])
    out = []
    for _ in range(count):
        heads = [" + ".join(part() for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 2))]
        out.append((heads, rng.randint(12, 60)))
    return out


@pytest.mark.parametrize("patterns,n", _random_cases(7, 40))
def test_the_mid_size_path_agrees_with_the_bliss_path_on_random_unions(patterns, n):
    got = _setup(patterns, n)
    if got is None or got[1] < 2 or got[2].generators is None:
        pytest.skip("not strongly connected, complete, or no generators")
    graphs, d, grp, st = got
    slow, mid = _both(graphs, d, grp, st)
    assert slow.sufficient is not None and mid.sufficient is slow.sufficient
    if mid.sufficient is False:
        assert verify_witness(graphs, d, mid.witness, st.preserves)


def test_covering_roots_are_exactly_the_positions_whose_ball_is_everything():
    """window(3) + causal, n = 50: D = 17 and B_i = [1, i + 48], so only position 1 has a smaller ball;
    the probe bound finds every other one, and a direct search from each position agrees."""
    graphs, d, _, _ = _setup(["window(3) + causal"], 50)
    assert d == 17
    arrays = ArcArrays(graphs)
    covering = covering_roots(arrays, range(50), d)
    direct = {r for r in range(50) if bool((arrays.in_distances(r, d - 1) >= 0).all())}
    assert covering <= direct and direct == set(range(1, 50))


def test_refinement_keys_are_invariant_under_relabelling():
    """The rooted views of position 1 of a pattern and of its mirror image (positions reversed) are
    isomorphic: refinement gives them the same key; a different root's view gets another key."""
    graphs, d, _, _ = _setup(["window(1) + offsets {3}"], 14)
    mirror, d2, _, _ = _setup(["window(1) + offsets {-3}"], 14)
    assert d == d2
    a, b = ArcArrays(graphs), ArcArrays(mirror)
    va = refine(a, 0, a.in_distances(0, d - 1), d)
    vb = refine(b, 13, b.in_distances(13, d - 1), d)
    vc = refine(a, 5, a.in_distances(5, d - 1), d)
    assert va.key == vb.key and va.key != vc.key
    assert va.discrete and vb.discrete


def test_a_matching_bijection_that_is_no_isomorphism_is_rejected_on_the_arcs():
    graphs, d, _, _ = _setup(["window(1) + causal"], 9)
    arrays = ArcArrays(graphs)
    dist = arrays.in_distances(0, d - 1)
    ball = (dist >= 0) & (dist <= d - 1)
    swap = np.arange(9)
    swap[[0, 1]] = [1, 0]
    assert arrays.condition_holds(np.arange(9), ball)
    assert not arrays.condition_holds(swap, ball)


def _layers(src: str) -> dict:
    result = check_spec(parse_source(src, "mid.uap"), 120)
    assert result.verdict == "UAP"
    (step,) = {s for s in result.root.walk() if s.rule == "PAT-LAYERS"}
    return step.facts


HEAD = "attention {{ kernel k(x, y) = exp(x . y); pattern {} }}"


def test_window_plus_causal_at_2332_needs_exactly_777_layers():
    """Once undecided (2,332 rooted views of about 2.7 million arcs each): only 3 roots have a ball short
    of everything, and colour refinement makes their views discrete and different."""
    facts = _layers("tokens 2332\n" + HEAD.format("window(3) + causal"))
    assert facts == {"diameter": 777, "layers": 777, "least": True}


def test_a_causal_head_with_strided_global_window_at_399_needs_exactly_2_layers():
    facts = _layers("tokens 399\n" + HEAD.format("causal") + "\n" + HEAD.format("strided(2) + global(1) + window(2)"))
    assert facts == {"diameter": 2, "layers": 2, "least": True}


@pytest.mark.parametrize("patterns,n", [(["star", "blocks(4)"], 40), (["window(1) + global(2)"], 30),
                                        (["blocks(3) + global(1)"], 31), (["strided(3) + star"], 30),
                                        (["blocks(2) + global(2)"], 20), (["blocks(2)", "global(1)"], 20)])
def test_orbits_without_listed_generators_are_the_generated_orbits(patterns, n, monkeypatch):
    """When G's generators are too many to list, the group engine still gives its orbits (twin classes
    joined by the quotient's automorphisms); they equal the orbits of the listed generators."""
    from uapcheck.graphs import symmetry
    from uapcheck.groups import orbits
    spec = _spec(patterns, n)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    listed = symmetry_group(graphs)
    monkeypatch.setattr(symmetry, "MAX_GENERATOR_ENTRIES", 0)
    unlisted = symmetry_group(graphs)
    assert unlisted.generators is None and unlisted.order == listed.order
    assert list(unlisted.orbit_of) == orbits(n, listed.generators)


def test_orbits_beyond_their_bound_are_left_unknown(monkeypatch):
    """Where BLISS's generators of the quotient would be too many to list even for the orbits (symmetry.
    orbit_entries_bound), the orbits are not computed: the rooted views find a witness by the probe (checked) or say
    that the orbits are unknown, and never that D layers suffice."""
    from uapcheck import budget
    from uapcheck.graphs import symmetry
    monkeypatch.setattr(symmetry, "MAX_GENERATOR_ENTRIES", 0)
    monkeypatch.setattr(symmetry, "MAX_ORBIT_ENTRIES", 0)
    monkeypatch.setattr(budget, "memory_bytes", 0)  # the bound's share of the memory limit (symmetry.orbit_entries_bound)
    for patterns, n in ((["star", "blocks(4)"], 40), (["window(1) + global(2)"], 30), (["blocks(2) + global(2)"], 20)):
        graphs, d, grp, st = _setup(patterns, n)
        assert grp.generators is None and grp.orbit_of is None and grp.order > 1
        decision = decide_views(graphs, d, int(grp.order), None, st.preserves, orbit_of=grp.orbit_of)
        assert decision.sufficient is not True, patterns
        if decision.sufficient is None:
            assert "orbits are unknown" in decision.reason
        else:
            assert verify_witness(graphs, d, decision.witness, st.preserves)


def test_a_group_with_too_many_generators_to_list_is_decided_from_its_orbits():
    """A `star` head and a `blocks(4)` head at n = 2,000: G (order about 10^29) has too many generators to
    list; its orbits suffice for the rooted views, which find a witness (once: undecided)."""
    got = _setup(["star", "blocks(4)"], 2000)
    graphs, d, grp, st = got
    assert grp.generators is None
    decision = decide_views(graphs, d, int(grp.order), None, st.preserves, orbit_of=grp.orbit_of)
    assert decision.sufficient is False
    assert verify_witness(graphs, d, decision.witness, st.preserves)


@pytest.mark.parametrize("patterns", [["window(3) + causal"], ["offsets {2, 4} cyclic + causal"],
                                      ["causal", "strided(2) + global(1) + window(2)"]])
def test_the_audited_mid_size_patterns_agree_with_the_bliss_path_at_small_n(patterns):
    for n in (20, 31, 44):
        got = _setup(patterns, n)
        graphs, d, grp, st = got
        slow, mid = _both(graphs, d, grp, st)
        assert slow.sufficient is not None and mid.sufficient is slow.sufficient, (patterns, n)


def test_offsets_2_4_cyclic_with_causal_at_640_needs_exactly_161_layers():
    """Found by a random audit of unions at 100 ≤ n ≤ 2,000 (once 162, not shown least)."""
    facts = _layers("tokens 640\n" + HEAD.format("offsets {2, 4} cyclic + causal"))
    assert facts == {"diameter": 161, "layers": 161, "least": True}
