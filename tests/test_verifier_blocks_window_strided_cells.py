"""`uapcheck verify` on Theorem F94 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with b > s ≥ 2w + 1.
The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-derives the range, the root, the order
from its own twin classes with nauty, and the block exchange on its own arcs; a forged claim is rejected naming its
step."""
from __future__ import annotations

import json

import pytest

from certificates import (assert_rests_on, assert_verified_by, certificate_of, forged, forged_order_case,
                          rejects, softmax_source)

from uapcheck.verifier.trees import encode


PATTERN = "blocks(6) + window(1) + strided(4)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(PATTERN))


def test_the_union_rests_on_the_verifier_s_own_theorem(cert):
    assert_rests_on(cert, "Theorem F94")


def test_a_real_size_rests_on_the_theorem():
    assert_verified_by(certificate_of(softmax_source(PATTERN, 1_048_576)), "Theorem F94")


def test_a_forged_order_is_rejected(cert):
    assert rejects(forged_order_case(cert, 0, 8, 16), "SYM-AUT")  # 6 | n: the theorem's count


def test_a_range_below_the_theorem_is_rejected(cert):
    assert rejects(forged(cert, "PAT-CONNECTED", "from", encode(20)), "PAT-CONNECTED")


def test_two_layers_are_rejected(cert):
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(2)
    assert rejects(forged, "PAT-LAYERS")
