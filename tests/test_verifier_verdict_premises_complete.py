"""A verdict's certificate block lists every premise the verdict is recomputed from (docs/theory.md §18.1): a
`verdict-premises` block (VERDICT-T1) may leave out only the declared target's alternative (TGT-ALTERNATIVE) and
DIM-RANGE, a `target-verdict` block (TGT-VERDICT) none. A block that left out a head's step, the structure or the
group used to pass, since only the premises it listed were compared."""
from __future__ import annotations

import copy
import json

import pytest

from certificates import certificate_text

from uapcheck.verifier import REJECTED, verify


def _root(cert: dict) -> dict:
    return cert["steps"][-1]


def _rejected_at_root(cert: dict) -> str:
    report = verify(cert)
    root = _root(cert)
    got = next(s for s in report.steps if s.id == root["id"])
    assert not report.ok and got.outcome == REJECTED, (got.outcome, got.reason)
    return got.reason


@pytest.fixture(scope="module")
def three_heads() -> dict:
    return json.loads(certificate_text("blocks_exchanged_beside_star_any_length.uap"))


@pytest.mark.parametrize("drop", [1, 3, 4, 6])  # a head's TD-KERNEL (the 1st, the 3rd), PAT-CONNECTED, SYM-AUT
def test_a_verdict_block_that_omits_a_premise_is_rejected(three_heads, drop):
    forged = copy.deepcopy(three_heads)
    block = _root(forged)["certificate"]
    assert block["kind"] == "verdict-premises" and len(block["premises"]) == 7
    rule = block["premises"][drop]["rule"]
    del block["premises"][drop]
    reason = _rejected_at_root(forged)
    assert "omits the step's premise" in reason and rule in reason, reason


def test_the_honest_verdict_block_is_verified(three_heads):
    assert verify(three_heads).ok


def test_a_verdict_block_may_leave_out_the_target_alternative():
    cert = json.loads(certificate_text("causal_window.uap"))
    root = _root(cert)
    rules = [s["rule"] for s in cert["steps"] if s["id"] in root["premises"]]
    assert "TGT-ALTERNATIVE" in rules and "TGT-ALTERNATIVE" not in [e["rule"] for e in root["certificate"]["premises"]]
    assert verify(cert).ok


def test_a_target_verdict_block_that_omits_a_premise_is_rejected():
    cert = json.loads(certificate_text("gpt_oss_decoder_any_length.uap"))
    root = _root(cert)
    assert root["rule"] == "TGT-VERDICT" and verify(cert).ok
    forged = copy.deepcopy(cert)
    del _root(forged)["certificate"]["premises"][1]
    assert "omits the step's premise" in _rejected_at_root(forged)
