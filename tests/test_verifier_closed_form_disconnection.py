"""NOT-UAP at a concrete n that the verifier builds arcs for (n ≤ 1,024) but the engine decided by a closed form,
writing no closed set of positions: the verifier searches its own arcs for the pair (x_j never reaches position i).
Every such honest certificate was rejected ("no closed set of positions is certified"), and `strided(4)` at 1,000,
whose group is stated by its order's text alone ("24 · (250!)^4", no generators), had SYM-AUT rejected too."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of, softmax_source
from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify

PATTERNS = ["strided(4)", "blocks(4) + strided(8)", "blocks(11) + blocks(2)", "blocks(10) + dilated(1, 20)"]


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_an_honest_closed_form_disconnection_is_verified(pattern):
    cert = certificate_of(softmax_source(pattern, 1000))
    step = _step(cert, "PAT-DISCONNECTED")
    assert "reach" not in step["data"]  # the closed form wrote no closed set
    report = verify(cert)
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert REJECTED not in outcomes.values(), [(s.rule, s.reason) for s in report.steps if s.outcome == REJECTED]
    assert outcomes["PAT-DISCONNECTED"] == VERIFIED


def test_a_group_stated_by_its_order_text_alone_is_trusted_not_rejected():
    report = verify(certificate_of(softmax_source("strided(4)", 1000)))
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert step.outcome == TRUSTED and "order's text alone" in step.reason


@pytest.mark.parametrize("pattern, pair", [("strided(4)", (1, 5)), ("blocks(11) + blocks(2)", (1, 22)),
                                           ("blocks(10) + dilated(1, 20)", (1, 21))])
def test_a_pair_that_the_arcs_join_is_rejected(pattern, pair):
    """x_5 reaches position 1 under strided(4), x_22 under blocks(11) + blocks(2) (22 is in the first stretch of
    lcm 22), x_21 under blocks(10) + dilated(1, 20) (one dilation step back): a forged witness naming them is refuted
    on the verifier's own arcs."""
    cert = certificate_of(softmax_source(pattern, 1000))
    forged = copy.deepcopy(cert)
    step = _step(forged, "PAT-DISCONNECTED")
    i, j = pair
    step["data"].update({"i": i, "j": j})
    if isinstance(step["evidence"].get("witness"), dict):
        step["evidence"]["witness"].update({"i": i, "j": j})
    report = verify(forged)
    outcome = next(s for s in report.steps if s.rule == "PAT-DISCONNECTED")
    assert outcome.outcome == REJECTED and f"x_{j} reaches position {i}" in outcome.reason, outcome.reason
