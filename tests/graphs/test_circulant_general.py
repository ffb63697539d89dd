"""Theorems F27–F29 (docs/theory.md §11.11): `offsets S cyclic` with any finite S at symbolic n.

Checked a second way: the diameter against breadth-first search on Z_n (written here), and D, |G| and
the least layer count against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in
range and at spot lengths beyond; the group also by counting the automorphisms fixing 0 with networkx
(VF2), independent of BLISS.
"""
from __future__ import annotations

import json
from math import gcd

import networkx as nx
import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.graphs import circulant_general as C
from uapcheck.parse import parse_source
from uapcheck.spec import Offsets
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)

#: three and four jumps, both signs, symmetric, a shared factor (these are not F5/F6/F8/F12/F17)
JUMP_SETS = [
    (1, 2, 5), (-2, -1, 1, 2, 5), (-1, 2), (2, 4), (3, 4, 5), (-3, 1), (-2, 2, 3), (1, 4, 6), (-1, 3),
    (2, 6), (-2, 1, 4), (-2, -1, 1, 2, 5, 6), (1, 3, 5), (-2, -1, 1, 2, 4), (-3, -2, 2, 3), (-5, 2, 3),
    (2, 3, 7), (-4, -1, 4), (3, 6, 9), (-6, -3, 3, 6), (-5, -1, -2),
]


def _bfs_diameter(jumps, n: int) -> int:
    """The directed diameter of the circulant (arcs v + k → v), by breadth-first search from 0."""
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for k in jumps:
                v = (u + k) % n
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    assert len(dist) == n
    return max(dist.values())


@pytest.mark.parametrize("jumps", JUMP_SETS)
def test_diameter_table_matches_breadth_first_search(jumps):
    data = C.circulant_data(jumps)
    assert data is not None
    for n in range(data.low_diameter, data.low_diameter + 200):
        if gcd(n, data.red.g) == 1:
            assert data.diameter(n) == _bfs_diameter(jumps, n), n


def _pattern(jumps) -> Offsets:
    return Offsets(tuple(sorted(set(jumps) | {0})), True)


def _spot_lengths(data, upto: int = 60) -> list[int]:
    spots = [n for n in range(data.low, upto + 1) if gcd(n, data.red.g) == 1]
    extra = [n for n in (97, 101, 118, 131, 150) if n >= data.low and gcd(n, data.red.g) == 1]
    if not spots:  # a range beyond 60: one whole period from its start
        spots = [n for n in range(data.low, data.low + data.period + 1) if gcd(n, data.red.g) == 1]
    return spots + extra[:2]


@pytest.mark.parametrize("jumps", JUMP_SETS)
def test_theorem_agrees_with_the_concrete_engine(jumps):
    found = F.match([_pattern(jumps)], N, {})
    assert isinstance(found, F.FamilyTheorem) and found.theorem == "F27" and found.least
    data = C.circulant_data(jumps)
    for n in _spot_lengths(data):
        got = F.concrete(_pattern(jumps), n)
        want = F.at(found, {"n": n})
        assert got.connected and got.diameter == want["diameter"], n
        assert got.order == want["order"] == (2 * n if data.red.symmetric else n), n
        assert got.least and got.layers == want["layers"], n


@pytest.mark.parametrize("jumps", [(1, 2, 5), (-1, 2), (-2, 2, 3), (-3, -2, 2, 3), (2, 4)])
def test_the_group_by_vf2(jumps):
    """|G| = n or 2n counted by networkx's VF2 (independent of BLISS) at a few lengths in range."""
    data = C.circulant_data(jumps)
    for n in [m for m in range(data.low_group, data.low_group + 6) if gcd(m, data.red.g) == 1][:3]:
        graph = nx.DiGraph()
        graph.add_nodes_from(range(n))
        graph.add_edges_from(((v + k) % n, v) for v in range(n) for k in jumps)
        count = sum(1 for _ in nx.algorithms.isomorphism.DiGraphMatcher(graph, graph).isomorphisms_iter())
        assert count == (2 * n if data.red.symmetric else n), n


def test_the_ball_certificate_counts_the_permutations_of_the_jumps():
    whole, fixed = C.ball_orders((-2, -1, 1, 2, 5), 2)
    assert whole == fixed  # not symmetric: the identity on S only
    whole, fixed = C.ball_orders((-3, -2, 2, 3), C.rigid_radius(C.reduce_jumps((-3, -2, 2, 3))))
    assert whole == 2 * fixed  # symmetric: ±1
    # at radius 1 the ball of {1, s} cannot tell the jumps apart (F12's reason for its range)
    whole, fixed = C.ball_orders((-4, -1, 1, 4), 1)
    assert whole > 2 * fixed


def test_the_top_check_is_the_concrete_least_count_at_every_residue():
    """F29's criterion at n and n + L: the concrete engine's least count is D exactly where the top of
    the view is rigid (here at two lengths per residue beyond the check's own)."""
    for jumps in [(1, 2, 5), (-1, 2), (-2, 2, 3)]:
        data = C.circulant_data(jumps)
        for n in range(data.low_layers + data.period, data.low_layers + 3 * data.period):
            rigid = C.top_rigid(data.red.steps, n, data.radius)
            got = F.concrete(_pattern(jumps), n)
            assert got.least and (got.layers == got.diameter) == rigid
            assert rigid == (not data.extra[n % data.period])


def test_normal_form_divides_by_the_gcd_and_mirrors():
    red = C.reduce_jumps((-6, -4))
    assert (red.g, red.steps, red.mirrored) == (2, (2, 3), True)
    assert C.reduce_jumps((0, -1, 2)).steps == (-1, 2) and C.reduce_jumps((-1, 2)).two_sided


def test_ordering_lemma_interval_gives_exact_lengths():
    """ℓ from the interval search equals ℓ from a much wider search on [−X, X] (F27 (c))."""
    steps = (-2, -1, 1, 2, 5)
    narrow = C.z_lengths(steps, -40 - 2, 40 + 5)
    wide = C.z_lengths(steps, -400, 400)
    assert all(narrow[m] == wide[m] for m in range(-40, 41))


def _source(pattern: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def test_a_shared_factor_is_uap_for_odd_n_and_says_not_uap_for_even_n():
    result = uapcheck.check(_source("offsets {0, 2, 4} cyclic", "tokens n\n"), "t.uap")
    assert result.verdict == "UAP" and (result.group.name, result.group.condition) == ("C_n", "n ≥ 5 and n odd")
    # the even class is a step of its own (F27 (a), docs/theory.md §12 by residue class), and the verdict says it
    step = next(s for s in result.root.walk() if s.rule == "PAT-DISCONNECTED")
    assert (step.facts["modulus"], step.facts["residues"]) == (2, (0,))
    assert "; NOT-UAP for n ≥ 5 and n even: " in str(result.root.claim)
    six = uapcheck.check(_source("offsets {0, 6, 9} cyclic", "tokens n\n"), "t.uap")
    assert six.verdict == "UAP" and six.group.condition.endswith("gcd(n, 3) = 1")
    step = next(s for s in six.root.walk() if s.rule == "PAT-DISCONNECTED")
    assert (step.facts["modulus"], step.facts["residues"]) == (3, (0,))


def test_unions_of_cyclic_parts_are_one_circulant():
    union = F.match([parse_source(_source("offsets {0, 1} cyclic + offsets {0, 3} cyclic")).heads[0].pattern], N, {})
    assert isinstance(union, F.FamilyTheorem) and union.theorem == "F8"  # {1, 3}
    mixed = F.match([parse_source(_source("window(1) cyclic + offsets {0, 5} cyclic")).heads[0].pattern], N, {})
    assert isinstance(mixed, F.FamilyTheorem) and mixed.theorem == "F27"
    single = F.match([_pattern((-1, 1, 5))], N, {})
    assert mixed.diameter == single.diameter and mixed.layers == single.layers and mixed.low == single.low


def test_a_large_concrete_length_is_decided_without_the_token_graph(no_graphs):
    result = uapcheck.check(_source("offsets {0, 1, 2, 5} cyclic", "tokens 1048575\n"), "t.uap")
    assert result.verdict == "UAP" and result.group.name == "C_n"
    data = C.circulant_data((1, 2, 5))
    assert result.layers == data.diameter(1048575)


def test_jumps_beyond_the_bound_name_their_question():
    found = F.match([_pattern((1, 2, 97))], N, {})
    assert isinstance(found, F.OpenFamily) and "F27" in found.question


@pytest.mark.parametrize("pattern", ["offsets {0, 2, 4} cyclic", "offsets {-2, -1, 0, 1, 2, 5} cyclic",
                                     "window(1) cyclic + offsets {0, 5} cyclic"])
def test_the_verifier_restates_f27_and_verifies_the_pattern_steps(pattern):
    text = _source(pattern, "tokens n\n")
    report = verify(json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text))))
    assert report.ok and report.complete
    steps = {st.rule: st for st in report.steps}
    for rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
        assert steps[rule].outcome == VERIFIED and "Theorem F27" in steps[rule].reason


def test_the_verifier_rejects_a_range_without_the_coprime_condition():
    text = _source("offsets {0, 2, 4} cyclic", "tokens n\n")
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))

    def strip(x):
        if isinstance(x, dict):
            if isinstance(x.get("data"), dict):
                x["data"].pop("coprime to", None)
            for v in x.values():
                strip(v)
        elif isinstance(x, list):
            for v in x:
                strip(v)
    strip(cert)
    report = verify(cert)
    assert any(st.outcome == REJECTED and "gcd(n, 2) = 1" in st.reason for st in report.steps)


def test_the_verifier_restated_ranges_equal_the_engines():
    from uapcheck.verifier import circulant_general as V
    for jumps in JUMP_SETS:
        mine = V.restated(jumps)
        data = C.circulant_data(jumps)
        assert mine is not None and (mine[0], mine[1]) == (data.proved_low, data.period), jumps
