"""Lemma F13 (docs/theory.md §11.11): at an integer n, cyclic offsets that a unit u of Z_n maps onto
{1, s} (Theorem F8's range) or {±1, ±s} (Theorem F12's range) have the image's D, G and layer count —
x ↦ ux is an isomorphism of circulants.

Checked a second way: the lemma's values against the concrete engine (graphs, BLISS, rooted views) at
every n ≤ 60 where it applies; the arc map itself; a large n end to end with the verifier, which
restates the lemma with its own inverse; a forged claim rejected.
"""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import Offsets
from uapcheck.verifier import REJECTED, VERIFIED, verify

TWO = [(2, 6), (3, 9), (2, 3), (2, 5), (3, 5), (2, 7), (3, 4), (4, 6), (5, 7), (-2, -6), (2, -6), (2, -5)]
FOUR = [(-10, -2, 2, 10), (-6, -3, 3, 6), (-7, -2, 2, 7)]


@pytest.mark.parametrize("offsets", TWO + FOUR)
def test_the_lemma_agrees_with_the_concrete_engine_at_every_n_where_it_applies(offsets):
    applied = 0
    for n in range(3, 61):
        theorem = F.match([Offsets(offsets, True)], sympy.Integer(n), {})
        if not (isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F13"):
            continue
        applied += 1
        got = F.concrete(Offsets(offsets, True), n)
        assert got.connected and got.diameter == int(theorem.diameter), (offsets, n)
        assert got.order == int(theorem.order), (offsets, n)
        if theorem.least:
            assert got.least and got.layers == int(theorem.layers), (offsets, n)
        else:
            assert got.layers <= int(theorem.layers)
    if offsets in ((2, 6), (3, 9), (-2, -6), (-10, -2, 2, 10)):
        assert applied >= 10


@pytest.mark.parametrize("offsets", TWO + FOUR)
def test_the_multiplier_maps_the_arcs_onto_the_image_s_arcs(offsets):
    for n in range(5, 61):
        found = F.multiplier_image(offsets, n)
        if found is None:
            continue
        u, image = found
        arcs = {((x + k) % n, x) for x in range(n) for k in offsets}
        image_arcs = {((x + k) % n, x) for x in range(n) for k in image}
        assert {((u * a) % n, (u * b) % n) for a, b in arcs} == image_arcs


def test_two_six_at_odd_n_is_one_three_and_at_even_n_not():
    for n in range(11, 61, 2):
        assert F.multiplier_image((2, 6), n) == ((n + 1) // 2, (1, 3))
    for n in range(10, 61, 2):
        assert F.multiplier_image((2, 6), n) is None


def test_symbolic_n_is_theorem_f27_for_odd_n():
    """At symbolic n the shared factor 2 is Theorem F27's: {1, 3} after x ↦ 2⁻¹x, for odd n only."""
    found = F.match([Offsets((2, 6), True)], sympy.Symbol("n", integer=True, positive=True), {})
    assert isinstance(found, F.FamilyTheorem) and found.theorem == "F27" and found.coprime_to == 2


def _source(pattern: str, n: int) -> str:
    return (f'architecture "two jumps"\ntokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


@pytest.mark.parametrize("pattern, n, group, layers", [
    ("offsets {2, 6} cyclic", 300_001, "C_n", 100_001),          # F8, s = 3: q + max(r, 1), n − 1 = 3q + r
    ("offsets {-10, -2, 2, 10} cyclic", 150_001, "D_n", None),    # F12, s = 5
])
def test_large_n_is_decided_without_a_token_graph_and_verified(pattern, n, group, layers):
    text = _source(pattern, n)
    result = uapcheck.check(text, "t.uap")
    assert result.verdict == "UAP" and result.group.name == group
    step = next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts.get("least") and "Lemma F13" in step.evidence["method"]
    if layers is not None:
        assert result.layers == layers
    else:
        assert result.layers == F.symmetric_two_jump_diameter(n, 5)
    report = verify(json.loads(json.dumps(certfile.build(result, text))))
    assert report.ok and report.complete
    for st in report.steps:
        if st.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert st.outcome == VERIFIED and "Theorem F13" in st.reason


def test_the_verifier_rejects_a_forged_lemma_claim():
    text = _source("offsets {2, 6} cyclic", 300_001)
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = 100_000
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)
