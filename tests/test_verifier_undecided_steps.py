"""An `undecided` step asserts nothing, so the verifier accepts it as such, and rejects a step of a rule that only
ever concludes `undecided` stated with another status. SEQ-UNDECIDED and CONV-UNDECIDED were missing from that list:
a per-layer file whose derivation leaves one route undecided before another decides it (`sinks(k)` at 12 tokens:
the rooted views stop at the param, F128 runs at every value) was reported with a trusted step, not `OK`."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, VERIFIED, verify

SINKS_PARAM = ("param k integer >= 1\nattention {\n  kernel k(x, y) = exp(x . y)\n"
               "  pattern periodic { causal & window(3) + sinks(k), causal }\n}\ntokens 12\ntarget causal\n")


def test_an_undecided_per_layer_step_asserts_nothing():
    cert = certificate_of(SINKS_PARAM)
    report = verify(cert)
    assert next(s.outcome for s in report.steps if s.rule == "SEQ-UNDECIDED") == VERIFIED
    assert report.ok


@pytest.mark.parametrize("status", ["proved", "refuted"])
def test_an_undecided_rule_stated_proved_or_refuted_is_rejected(status):
    mutant = copy.deepcopy(certificate_of(SINKS_PARAM))
    step = next(s for s in mutant["steps"] if s["rule"] == "SEQ-UNDECIDED")
    step["status"] = status
    report = verify(mutant, only={step["id"]})
    assert next(s.outcome for s in report.steps if s.id == step["id"]) == REJECTED
