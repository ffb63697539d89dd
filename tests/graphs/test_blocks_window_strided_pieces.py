"""Theorem F113 (docs/theory.md §11.11): in Theorem F93's setting (`blocks(b) + window(w) + strided(s)`, 3 ≤ b < s,
1 ≤ w ≤ b − 2), D layers suffice, and are least, on the classes of n mod P where the class-piece premise holds at every
length of F110's finite check (carried to every n by the cut argument). Checked a second way: the concrete engine
(rooted views by canonical labelling, BLISS) at every length of those classes from the range's start through 200 for
the catalog's pattern and through a period for three more unions, the premise re-read on the reference arcs with sets,
Theorem F111's independent table at sample lengths, the premise past the check, and the verifier's restatement."""
from __future__ import annotations

import pytest
import sympy
from certificates import certificate_of, rejects, softmax_source

from uapcheck.graphs import blocks_window_strided_classes as B
from uapcheck.graphs import families
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.families import concrete
from uapcheck.graphs.far_view_least import quick_count
from uapcheck.spec import Blocks, PatternUnion, Strided, Window
from uapcheck.verifier import verify
from uapcheck.verifier import blocks_window_strided as V

from .reference import closed_neighbourhoods, distances_from

N = sympy.Symbol("n", integer=True, positive=True)
SHORTER = "blocks(4) + window(1) + strided(7)"


def _pattern(b: int, w: int, s: int) -> PatternUnion:
    return PatternUnion((Blocks(b), Window(w, False), Strided(s)))


def test_the_classes():
    assert B.premise_residues(4, 1, 7) == frozenset(range(0, 28, 4))
    data = B.decide(4, 2, 5)  # F113 on the classes with D = 3, F110's swap on those with D = 2
    assert B.premise_residues(4, 2, 5) == frozenset(r for r in range(20) if data.diameters[r] == 3)
    assert B.premise_residues(3, 1, 4) == frozenset(range(12))  # every class: D = 3 layers, least
    theorem = families.match([_pattern(3, 1, 4)], N, {})
    assert theorem.least and theorem.layers == 3 and "F113" in theorem.why_layers
    theorem = families.match([_pattern(4, 2, 5)], N, {})
    assert theorem.least and theorem.layers == 3  # D = 3 where D = 3, D + 1 = 3 where D = 2


@pytest.mark.parametrize("n", range(116, 201, 4))
def test_the_catalog_pattern_needs_three_layers_at_4_dividing_n(n):
    """At every n ≡ 0 (mod 4) from 116 to 200 the rooted views (canonical labelling) find D = 3 layers least, as
    Theorem F113 states, and the premise holds."""
    got = concrete(_pattern(4, 1, 7), n)
    assert got.least and got.diameter == 3 and got.layers == 3
    assert B.piece_premise(n, 4, 1, 7, 3)


@pytest.mark.parametrize("b, w, s", [(3, 1, 4), (4, 2, 5), (4, 1, 6)])
def test_other_unions_against_the_concrete_engine(b, w, s):
    """Through one period of n mod P from the range's start: on F113's classes the engine's least count is D."""
    data = B.decide(b, w, s)
    fits = B.premise_residues(b, w, s)
    assert fits
    for n in range(data.low, data.low + data.period):
        if n % data.period in fits:
            got = concrete(_pattern(b, w, s), n)
            assert got.least and got.layers == got.diameter == data.diameters[n % data.period], (b, w, s, n)


def _premise_on_reference(b: int, w: int, s: int, n: int) -> bool:
    """The premise with Python sets on the reference arcs (tests/graphs/reference.py): pieces, (P1), (P2)."""
    near = closed_neighbourhoods(_pattern(b, w, s), n)
    for root in range(1, n + 1):
        dist = distances_from(near, root)
        d = max(dist.values())
        if d < 3:
            continue
        ball = {v for v in dist if dist[v] < d}
        far = sorted(v for v in dist if dist[v] == d)
        pieces = {r: {v for v in ball if v % s == r} for r in range(s)}
        for u in far:
            if not pieces[u % s] or any(p and p <= near[u] for r, p in pieces.items() if r != u % s):
                return False
            for v in far:
                if v != u and v % s != u % s:
                    common = {z for z in ball & near[u] & near[v] if z % s not in (u % s, v % s)}
                    if (v in near[u]) != bool(common):
                        return False
    return True


@pytest.mark.parametrize("n", [116, 117, 118, 119, 120, 148])
def test_the_premise_on_the_reference_arcs(n):
    assert _premise_on_reference(4, 1, 7, n) is (n % 4 == 0) is B.piece_premise(n, 4, 1, 7, 3)


@pytest.mark.parametrize("n", [120, 172])
def test_theorem_f111s_table_agrees(n):
    """An independent sufficient condition (§11.9, F111's far-adjacency table) also finds D layers at these n."""
    graph = build_graph(_pattern(4, 1, 7), n, {})
    found = quick_count(graph, 3, list(range(1, n // 2 + 1)))
    assert found is not None and found.sufficient


@pytest.mark.parametrize("n", [380, 400, 404, 432])
def test_the_premise_past_the_check(n):
    """Past N₁ + P − 1 = 379 the cut argument carries the premise; it holds where it was not checked."""
    assert B.piece_premise(n, 4, 1, 7, 3)


@pytest.mark.parametrize("n", [116, 117, 120, 121])
def test_the_verifier_s_premise_agrees(n):
    assert V._premise_on(V._near_on_arcs(_pattern(4, 1, 7), n), n, 7, 3) is (n % 4 == 0)
    assert V._premise_on(V._near_by_rule(n, 4, 1, 7), n, 7, 3) is (n % 4 == 0)


def test_the_verifier_restates_f113():
    cert = certificate_of(softmax_source(SHORTER))
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    (layers,) = [s for s in report.steps if s.rule == "PAT-LAYERS"]
    assert "D layers least for n mod 4 in [0] (Theorem F113" in layers.reason
    from uapcheck.verifier.trees import encode
    for forged in (3, 4):  # one count on every class: 3 is below the least count off 4 | n, 4 is not least on 4 | n
        cert = certificate_of(softmax_source(SHORTER))
        next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = encode(forged)
        assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("n", [116, 120, 144])
def test_nauty_finds_no_view_witness_at_4_dividing_n(n):
    """A second implementation of the rooted views (the verifier's, nauty): no view witness at depth 3 with G = the
    reflection, while at n = 117 it finds one."""
    from uapcheck.verifier import patterns, views
    arcs = patterns.head_arcs(_pattern(4, 1, 7), n)
    assert views.decide([arcs], n, 3, [[n + 1 - i for i in range(1, n + 1)]]) is None
    assert views.decide([patterns.head_arcs(_pattern(4, 1, 7), 117)], 117, 3, []) is not None
