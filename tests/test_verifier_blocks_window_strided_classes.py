"""`uapcheck verify` on Theorem F93 (docs/theory.md §11.11): `blocks(b) + window(w) + strided(s)` with 3 ≤ b < s,
1 ≤ w ≤ b − 2. The verifier's own restatement (uapcheck/verifier/blocks_window_strided.py) re-derives the range, D by
residue on its own arcs and the order from its own twin classes, and compares both with BFS and nauty over a whole
period of n mod lcm(b, s); a forged claim is rejected naming its step."""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode



PATTERN = "blocks(3) + window(1) + strided(4)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(PATTERN))


def test_the_union_rests_on_the_verifier_s_own_theorem(cert):
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all("Theorem F93" in s.reason for s in report.steps if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))


def test_a_real_size_rests_on_the_theorem():
    report = verify(certificate_of(softmax_source(PATTERN, 1_048_576)))
    steps = {s.rule: s for s in report.steps}
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(steps[r].outcome == "verified" and "Theorem F93" in steps[r].reason for r in ("PAT-CONNECTED", "SYM-AUT"))


def test_a_forged_diameter_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    next(s for s in forged["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"] = encode(2)
    assert rejects(forged, "PAT-CONNECTED")


def test_a_forged_order_is_rejected():
    forged = certificate_of(softmax_source(PATTERN, 1_048_576))    # 3 ∤ 1,048,576: trivial
    step = next(s for s in forged["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["order"] == encode(1)
    step["data"]["name"] = "reflection"
    step["data"]["order"] = encode(2)
    assert rejects(forged, "SYM-AUT")


def test_a_range_below_the_theorem_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    next(s for s in forged["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["from"] = encode(20)
    assert rejects(forged, "PAT-CONNECTED")
