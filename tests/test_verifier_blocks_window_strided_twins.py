"""`uapcheck verify` on Theorem F119 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b ≥ s,
b ≥ w + 2 and s ≤ w + 1. The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-checks the
certificate's clique and local-orbit conditions on its own arcs (networkx, nauty), the order from its own twin classes
with nauty on the quotient, and its own swap witness; a forged claim is rejected naming its step."""
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
SUFFICIENT = "blocks(5) + window(1) + strided(2)"


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


def test_without_a_witness_three_layers_are_verified_and_a_forged_least_is_rejected():
    cert = certificate_of(softmax_source(SUFFICIENT))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False
    step["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("b, w, s", [(5, 3, 2), (6, 4, 5), (4, 1, 2)])
def test_the_restatement_declines_where_its_certificate_fails(b, w, s):
    parts = [S.Blocks(b), S.Window(w), S.Strided(s)]
    assert restated.match(parts) is None
