"""`uapcheck verify` on Theorem F100 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b > s and
w + 2 ≤ s ≤ 2w. The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-derives the range, the
root, the order from its own twin classes with nauty, and the swap on its own arcs; a forged claim is rejected naming
its step."""
from __future__ import annotations

import json

import pytest

from certificates import (assert_rests_on, assert_verified_by, certificate_of, forged, forged_order_case,
                          rejects, softmax_source)

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode

PATTERN = "blocks(5) + window(2) + strided(4)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(PATTERN))


def test_the_union_rests_on_the_verifier_s_own_theorem(cert):
    assert_rests_on(cert, "Theorem F100")


def test_a_real_size_rests_on_the_theorem():
    assert_verified_by(certificate_of(softmax_source(PATTERN, 1_048_576)), "Theorem F100")


def test_a_forged_order_is_rejected(cert):
    assert rejects(forged_order_case(cert, 0, 2, 4), "SYM-AUT")  # 5 | n: the reflection


def test_a_range_below_the_theorem_is_rejected(cert):
    assert rejects(forged(cert, "PAT-CONNECTED", "from", encode(20)), "PAT-CONNECTED")


@pytest.mark.parametrize("layers", [2, 4])
def test_another_layer_count_is_rejected(cert, layers):
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(layers)
    assert rejects(forged, "PAT-LAYERS")


def test_with_the_block_equal_to_the_stride_three_layers_are_verified_and_a_forged_least_is_rejected():
    cert = certificate_of(softmax_source("blocks(4) + window(2) + strided(4)"))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False
    step["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")
