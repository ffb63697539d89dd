"""`uapcheck verify` on Theorem F119 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b ≥ s,
b ≥ w + 2 and s ≤ w + 1. The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-checks the
certificate's clique and local-orbit conditions on its own arcs (networkx, nauty), the order from its own twin classes
with nauty on the quotient, its own swap witness, and with s = 2 the far-clique premise on its own arcs (F119 (d)); a
forged claim is rejected naming its step."""
from __future__ import annotations

import json

import pytest

from certificates import (assert_rests_on, assert_verified_by, certificate_of, forged, forged_order_case,
                          rejects, softmax_source)

from uapcheck.verifier import blocks_window_strided as restated
from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode
from uapcheck import spec as S

LEAST = "blocks(7) + window(2) + strided(3)"
TWO_CLASSES = "blocks(5) + window(1) + strided(2)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(LEAST))


def test_the_union_rests_on_the_verifier_s_own_theorem(cert):
    assert_rests_on(cert, "Theorem F119")


def test_a_real_size_rests_on_the_theorem():
    assert_verified_by(certificate_of(softmax_source(LEAST, 1_048_576)), "Theorem F119")


def test_a_forged_order_is_rejected(cert):
    assert rejects(forged_order_case(cert, 0, 32, 16), "SYM-AUT")  # 7 | n (and n ≡ 0 mod 3): the twins and the reflection


def test_a_range_below_the_theorem_is_rejected(cert):
    assert rejects(forged(cert, "PAT-CONNECTED", "from", encode(40)), "PAT-CONNECTED")


@pytest.mark.parametrize("layers", [2, 4])
def test_another_layer_count_is_rejected(cert, layers):
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(layers)
    assert rejects(forged, "PAT-LAYERS")


@pytest.fixture(scope="module")
def two_classes() -> dict:
    return certificate_of(softmax_source(TWO_CLASSES))


def test_with_two_classes_two_layers_least_are_verified(two_classes):
    report = verify(two_classes)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in two_classes["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == encode(2)
    done = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert "F119 (d)" in done.reason and "pairwise adjacent" in done.reason


@pytest.mark.parametrize("layers, least", [(3, False), (3, True), (2, False)])
def test_with_two_classes_the_former_count_or_least_false_is_rejected(two_classes, layers, least):
    """3 layers (the count stated before F119 (d)), least or not, and 2 layers not least, are all rejected."""
    forged = json.loads(json.dumps(two_classes))
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(layers)
    step["data"]["least"] = least
    assert rejects(forged, "PAT-LAYERS")


def test_two_layers_claimed_where_a_swap_witness_exists_are_rejected(cert):
    """With s = 3 the far positions need not be adjacent: 2 layers least is refused (the verifier's swap is a view
    witness at depth 2)."""
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(2)
    step["data"]["least"] = True
    assert rejects(forged, "PAT-LAYERS")


def test_the_far_clique_check_finds_a_non_adjacent_far_pair():
    """The verifier's own premise check (its arcs, BFS) on a union with three classes reports the far pair."""
    from uapcheck.verifier.blocks_dilated_chains import far_clique_problem
    pattern = S.PatternUnion((S.Blocks(7), S.Window(2), S.Strided(3)))
    problem = far_clique_problem(pattern, 81, 2)
    assert problem is not None and "not adjacent" in problem
    assert far_clique_problem(S.PatternUnion((S.Blocks(5), S.Window(1), S.Strided(2))), 40, 2) is None


@pytest.mark.parametrize("b, w, s", [(5, 3, 2), (6, 4, 5), (4, 1, 2)])
def test_the_restatement_declines_where_its_certificate_fails(b, w, s):
    parts = [S.Blocks(b), S.Window(w), S.Strided(s)]
    assert restated.match(parts) is None
