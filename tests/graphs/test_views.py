"""Whether D attention layers suffice: the exact rooted-view decision (docs/theory.md §11.9),
checked against brute force over S_n (n ≤ 8) and pinned for patterns up to n = 64.

The brute force shares no code with ``uapcheck.graphs.views``: neighbourhoods from the naive
reference semantics, every permutation of the positions, the witness condition of §11.2 read
literally.
"""
from __future__ import annotations


import pytest
import sympy

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.views import PROBE_WORK, ViewWitness, decide_views, verify_witness
from uapcheck.parse import parse_source

from .brute_views import diameter, neighbourhoods, view_witness


def _spec(patterns, n):
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    return parse_source(f"tokens {n}\n{heads}", "views.uap")


def _decide(patterns, n, probe_work=PROBE_WORK, certificate=True):
    spec = _spec(patterns, n)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    conn = analyze_connectivity(graphs)
    assert conn.strongly_connected and conn.diameter is not None
    grp = symmetry_group(graphs)
    st = pattern_structure(graphs)
    d = int(conn.diameter)
    return graphs, d, decide_views(graphs, d, int(grp.order), grp.generators, st.preserves,
                                  probe_work=probe_work, certificate=certificate), st


def _brute(patterns, n):
    """(D, whether D layers suffice) by the reference view argument (tests/graphs/brute_views.py)."""
    nbs = neighbourhoods(patterns, n)
    d = diameter(nbs, n)
    return d, view_witness(nbs, n, d) is None


SMALL = [
    (["window(1)"], 5), (["window(2)"], 7), (["window(1) cyclic"], 6), (["window(1) cyclic"], 7),
    (["window(2) cyclic"], 7), (["window(2) cyclic"], 8), (["offsets {1} cyclic"], 6),
    (["offsets {1, 2} cyclic"], 7), (["offsets {1, 3} cyclic"], 7), (["offsets {1, -2} cyclic"], 7),
    (["star"], 6), (["global(2)"], 6), (["window(1) + global(1)"], 6), (["window(1) + global(1)"], 7),
    (["window(1)", "global(1)"], 6), (["window(1)", "full"], 5), (["blocks(2)", "global(1)"], 6),
    (["blocks(3) + global(1)"], 7), (["offsets {1} cyclic", "offsets {2} cyclic"], 6),
    (["window(1) + strided(2)"], 6), (["window(1) + strided(3)"], 7), (["window(1) + dilated(1, 3)"], 7),
    (["window(1) + dilated(2, 2)"], 7), (["window(1) cyclic + global(1)"], 7),
    (["edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"], 4),
    (["window(1) + random(1, seed=0)"], 6), (["window(1) + random(1, seed=3)"], 7),
    (["random(2, seed=1)"], 6), (["random(2, seed=5)"], 7), (["window(1) cyclic", "window(2) cyclic"], 7),
    (["offsets {1, 2}", "offsets {-1}"], 6), (["window(1)", "window(2)"], 6), (["window(2) + global(1)"], 7),
    (["offsets {1} cyclic + global(1)"], 6), (["window(1) + blocks(3)"], 6), (["causal + window(1)"], 5),
    (["window(1) + offsets {3}"], 6), (["blocks(2) + window(1)"], 7), (["strided(2) + global(1)"], 6),
    (["window(1) + random(2, seed=2)"], 8), (["window(1) cyclic"], 8), (["window(2)"], 8),
    # witnesses only from isomorphic rooted views of positions in different G-orbits
    (["edges {1 -> 5, 1 -> 6, 2 -> 4, 2 -> 5, 2 -> 6, 3 -> 1, 4 -> 2, 5 -> 2, 6 -> 3, 6 -> 4, 6 -> 5}"], 6),
    (["edges {1 -> 2, 1 -> 3, 1 -> 4, 1 -> 5, 2 -> 1, 2 -> 5, 3 -> 1, 3 -> 4, 3 -> 5, 4 -> 3, 4 -> 5, 5 -> 3, "
      "5 -> 4}"], 5),
]


@pytest.mark.parametrize("patterns,n", SMALL)
def test_the_exact_decision_agrees_with_brute_force_over_all_permutations(patterns, n):
    spec = _spec(patterns, n)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    conn = analyze_connectivity(graphs)
    if not conn.strongly_connected:
        pytest.skip("not strongly connected")
    graphs, d, decision, st = _decide(patterns, n)
    bd, suffices = _brute(patterns, n)
    assert bd == d
    assert decision.sufficient is suffices
    if not suffices:
        assert verify_witness(graphs, d, decision.witness, st.preserves)
    # the canonical test alone (no transposition probe) decides the same
    graphs, d, alone, st = _decide(patterns, n, probe_work=0)
    assert alone.sufficient is suffices
    if not suffices:
        assert verify_witness(graphs, d, alone.witness, st.preserves)
    # and so does the answer without a certificate (no probe; views told apart by invariants first)
    graphs, d, bare, st = _decide(patterns, n, certificate=False)
    assert bare.sufficient is suffices and bare.certificate is None
    if not suffices:
        assert verify_witness(graphs, d, bare.witness, st.preserves)


def test_enough_small_patterns_are_pinned():
    assert len(SMALL) >= 40


# Least layers pinned up to n = 64 (the canonical decision; proved families agree: §11.2 items 4-5)
PINNED = [
    (["window(3)"], 64, 21, True), (["window(1)"], 40, 39, True), (["star"], 64, 2, True),
    (["window(1) cyclic"], 64, 32, True), (["window(3) cyclic"], 61, 10, True),
    (["offsets {1, 2} cyclic"], 50, 25, True), (["offsets {1, -3} cyclic"], 40, 12, True),
    (["window(3) + global(2) + random(3, seed=0)"], 64, 2, False),
    (["window(1) + global(1)"], 33, 2, False), (["blocks(8) + global(1)"], 64, 2, False),
    (["window(1) + strided(8)"], 64, 5, True), (["window(2) + dilated(2, 5)"], 60, 7, True),
    (["window(1) cyclic", "window(2) cyclic"], 64, 16, True),
]


@pytest.mark.parametrize("patterns,n,diameter,suffices", PINNED)
def test_least_layers_up_to_64(patterns, n, diameter, suffices):
    graphs, d, decision, st = _decide(patterns, n)
    if diameter is not None:
        assert d == diameter
    assert decision.sufficient is not None, decision.reason
    if suffices is not None:
        assert decision.sufficient is suffices
    if decision.sufficient is False:
        assert verify_witness(graphs, d, decision.witness, st.preserves)
    else:
        cert = decision.certificate
        assert sum(cert.orbit_sizes) == n and len(set(cert.canonical_digests)) == len(cert.representatives)
    assert _decide(patterns, n, certificate=False)[2].sufficient is decision.sufficient


def test_a_witness_outside_the_group_is_rejected_by_the_recheck():
    graphs, d, decision, st = _decide(["window(1)"], 6)
    reflection = (6, 5, 4, 3, 2, 1)
    assert not verify_witness(graphs, d, ViewWitness(1, reflection, "test"), st.preserves)  # σ ∈ G
    assert not verify_witness(graphs, d, ViewWitness(1, (2, 1, 3, 4, 5, 6), "test"), st.preserves)


def test_isomorphic_rooted_views_in_different_orbits_give_the_witness_isomorphism():
    """With the directed 6-cycle and G taken as trivial (so every position is its own orbit), the
    rooted views of 1 and 2 are isomorphic: the isomorphism is the rotation, re-checked directly."""
    spec = _spec(["offsets {1} cyclic"], 6)
    graphs = [build_graph(h.pattern, 6, {}) for h in spec.heads]
    identity = tuple(range(1, 7))
    decision = decide_views(graphs, 5, 1, [identity], lambda p: tuple(p) == identity, probe_work=0)
    assert decision.sufficient is False and "isomorphic" in decision.witness.how
    assert decision.witness.permutation in {(2, 3, 4, 5, 6, 1), (6, 1, 2, 3, 4, 5)}
    # without a certificate the views' invariants coincide, so their canonical forms are compared: the same witness
    bare = decide_views(graphs, 5, 1, [identity], lambda p: tuple(p) == identity, certificate=False)
    assert bare.sufficient is False and "isomorphic" in bare.witness.how
    assert bare.witness.permutation in {(2, 3, 4, 5, 6, 1), (6, 1, 2, 3, 4, 5)}


def test_a_resource_limit_is_reported_with_the_size_that_fits(monkeypatch):
    """Past the BLISS work limit the mid-size path decides (tests/graphs/test_mid_size_views.py); its own
    limit, on the arcs of the views it reads, names the size that fits."""
    from uapcheck.graphs import views
    graphs, d, _, st = _decide(["window(1) + random(1, seed=3)"], 30)
    grp = symmetry_group(graphs)
    decided = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, work_limit=100,
                           probe_work=0)
    assert decided.sufficient is not None
    monkeypatch.setattr(views, "LARGE_VIEW_ARCS", 100)
    decision = decide_views(graphs, d, int(grp.order), grp.generators, st.preserves, work_limit=100,
                            probe_work=0)
    assert decision.sufficient is None and "fits up to about n =" in decision.reason


@pytest.mark.parametrize("w,g", [(1, 1), (2, 1), (1, 2), (3, 2), (2, 3)])
def test_the_closed_form_witness_of_window_plus_global_for_every_n_up_to_60(w, g):
    """window(w) + global(g), n ≥ g + 3w + 3: the closed-form swap is a witness (re-checked on the arcs),
    and the concrete decision agrees that D = 2 layers are not enough."""
    from uapcheck.graphs.closed_forms import closed_view_witness
    from uapcheck.spec import Global, PatternUnion, Window
    pattern = PatternUnion((Window(w), Global(g)))
    for n in range(g + w + 2, 61):
        case = closed_view_witness([pattern], n)
        holds = n >= g + 3 * w + 3
        assert (case.condition is sympy.true) == holds
        graphs, d, decision, st = _decide([f"window({w}) + global({g})"], n)
        assert d == 2
        if holds:
            a, b = (int(x) for x in case.swap)
            perm = list(range(1, n + 1))
            perm[a - 1], perm[b - 1] = b, a
            assert verify_witness(graphs, d, ViewWitness(int(case.position), tuple(perm), "closed form"),
                                  st.preserves)
            assert decision.sufficient is False


@pytest.mark.parametrize("w", [1, 2, 3, 4])
def test_cyclic_windows_need_only_the_diameter_for_every_n_up_to_60(w):
    """§11.9 proves D layers suffice for `window(w) cyclic` when n ≥ 2w + 3 (two arguments: n ≥ 4w + 2
    and 2w + 3 ≤ n ≤ 4w + 1); the concrete decision agrees for every n ≤ 60."""
    for n in range(2 * w + 3, 61):
        graphs, d, decision, st = _decide([f"window({w}) cyclic"], n)
        assert decision.sufficient is True, (w, n)


@pytest.mark.parametrize("offsets", ["1", "1, 2", "1, 2, 3", "-1, -2"])
def test_one_sided_cyclic_offsets_need_only_the_diameter_for_every_n_up_to_60(offsets):
    """§11.9 proves D layers suffice for one-sided cyclic offsets when n ≥ 2w + 2; the concrete decision
    agrees for every n ≤ 60 (and for w + 2 ≤ n ≤ 2w + 1)."""
    w = len(offsets.split(","))
    for n in range(w + 2, 61):
        graphs, d, decision, st = _decide([f"offsets {{{offsets}}} cyclic"], n)
        assert decision.sufficient is True, (offsets, n)


@pytest.mark.parametrize("patterns", ["window(1) + strided(3)", "strided(4)", "causal; window(2)",
                                      "window(1) + random(2, 3)", "window(1); strided(3)"])
def test_the_view_probe_swap_masks_give_the_positions_a_swap_changes(patterns):
    """The view probe's bit masks (graphs/views._SwapMasks) against its set-based test, with and without position
    labels, at every transposition."""
    from uapcheck.graphs.views import Neighbourhoods, _bits, _SwapMasks, _transposition_bad
    from uapcheck.spec import Causal, PatternUnion, RandomPattern, Strided, Window
    heads = {"window(1) + strided(3)": [PatternUnion((Window(1), Strided(3)))], "strided(4)": [Strided(4)],
             "causal; window(2)": [Causal(), Window(2)], "window(1); strided(3)": [Window(1), Strided(3)],
             "window(1) + random(2, 3)": [PatternUnion((Window(1), RandomPattern(2, seed=3)))]}[patterns]
    for n in (2, 7, 16):
        graphs = [build_graph(p, n) for p in heads]
        for labels in (None, [p % 3 for p in range(n)]):
            nb = Neighbourhoods(graphs, None, labels)
            masks = _SwapMasks(nb)
            for a in range(n):
                for b in range(a + 1, n):
                    assert set(_bits(masks.bad(a, b))) == (_transposition_bad(nb, a, b) or set()), (n, a, b)
