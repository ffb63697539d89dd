"""`uapcheck verify` on Theorem F93 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with 3 ≤ b < s,
1 ≤ w ≤ b − 2. The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-derives the range, D by
residue on its own arcs and the order from its own twin classes, and compares both with BFS and nauty over a whole
period of n mod lcm(b, s); a forged claim is rejected naming its step."""
from __future__ import annotations


import pytest

from certificates import (assert_rests_on, assert_verified_by, certificate_of, forged, rejects, softmax_source)

from uapcheck.verifier.trees import encode


PATTERN = "blocks(3) + window(1) + strided(4)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(PATTERN))


def test_the_union_rests_on_the_verifier_s_own_theorem(cert):
    assert_rests_on(cert, "Theorem F93")


def test_a_real_size_rests_on_the_theorem():
    assert_verified_by(certificate_of(softmax_source(PATTERN, 1_048_576)), "Theorem F93", ("PAT-CONNECTED", "SYM-AUT"))


def test_a_forged_diameter_is_rejected(cert):
    assert rejects(forged(cert, "PAT-CONNECTED", "diameter", encode(2)), "PAT-CONNECTED")


def test_a_forged_order_is_rejected():
    forged = certificate_of(softmax_source(PATTERN, 1_048_576))    # 3 ∤ 1,048,576: trivial
    step = next(s for s in forged["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["order"] == encode(1)
    step["data"]["name"] = "reflection"
    step["data"]["order"] = encode(2)
    assert rejects(forged, "SYM-AUT")


def test_a_range_below_the_theorem_is_rejected(cert):
    assert rejects(forged(cert, "PAT-CONNECTED", "from", encode(20)), "PAT-CONNECTED")
