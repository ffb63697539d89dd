"""The verifier's check of Theorem F146 at a symbolic n (SEQ-CAUSAL-SINKS, `_sinks_growth`): its own recursion
re-derives the count at a bounded number of lengths from the stated start, and F146 carries it from its bound on.
When those lengths stop short of the bound, the lengths between are re-derived by neither: the step must then be
trusted, naming them (docs/theory.md §18.5), never `verified`."""
from __future__ import annotations

import pytest

from certificates import certificate_of  # tests/ is on sys.path

from uapcheck.verifier import TRUSTED, VERIFIED, verify
from uapcheck.verifier import rules_layers

SOURCE = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n"
          "  pattern periodic { causal & window(40), causal & window(40) + sinks(2) }\n}\ntarget causal\n")


def _growth_step(report):
    return next(s for s in report.steps if s.rule == "SEQ-CAUSAL-SINKS")


@pytest.fixture(scope="module")
def cert():
    return certificate_of(SOURCE)


def test_every_length_below_the_bound_re_derived_is_verified(cert):
    step = _growth_step(verify(cert))
    assert step.outcome == VERIFIED, step.reason
    assert "Theorem F146 carries it" in step.reason


def test_lengths_left_between_the_recursion_and_the_bound_are_named_trusted(cert, monkeypatch):
    monkeypatch.setattr(rules_layers, "GROWTH_LENGTHS", 10)
    step = _growth_step(verify(cert))
    assert step.outcome == TRUSTED, step.reason
    assert "are not re-derived here" in step.reason



def _forged(name: str, change) -> dict:
    import copy
    from certificates import certificate
    cert = copy.deepcopy(certificate(name))
    step = next(s for s in cert["steps"] if s["rule"] == "SEQ-CAUSAL-SINKS")
    change(step["data"])
    return cert


def _sinks_outcome(cert) -> str:
    return _growth_step(verify(cert)).outcome


def test_a_forged_first_wide_layer_is_rejected():
    """F146's step names the first layer of positive width; the verifier reads its own and compares (it used to use
    its own and leave the stated one unread)."""
    def shift(data):
        data["first wide layer"] += 1
    assert _sinks_outcome(_forged("sink_windows_any_length.uap", shift)) == "rejected"


def test_a_forged_sufficiency_rule_is_rejected():
    """F145's step names the out-set keys as its sufficiency; a certificate naming another rule (the covering lemma)
    beside the same layer is rejected (only the layer used to be read)."""
    def rename(data):
        data["sufficiency"]["rule"] = "covering"
    assert _sinks_outcome(_forged("sink_windows_decoder_2k.uap", rename)) == "rejected"
