"""`uapcheck verify` on Theorem F91 (docs/theory.md §11.11): `strided(s)` with local parts whose jumps leaving a class
share a factor r < s. The verifier's own restatement (uapcheck/verifier/strided_dilations.py) re-derives the factor, the
range, the group and D per residue on its own arcs; a forged claim is rejected naming its step."""
from __future__ import annotations

import pytest

from certificates import assert_rests_on, certificate_of, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode


@pytest.mark.parametrize("pattern", ["strided(3) + dilated(1, 2)", "strided(5) + offsets {-2, 4}"])
def test_the_union_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F91")


def test_a_large_length_rests_on_the_theorem_without_arcs():
    report = verify(certificate_of(softmax_source("strided(5) + dilated(2, 3)", 1_048_576)))
    steps = {s.rule: s for s in report.steps}
    assert not report.rejected
    assert all(steps[r].outcome == "verified" and "Theorem F91" in steps[r].reason for r in ("PAT-CONNECTED",))


def test_a_forged_diameter_is_rejected():
    cert = certificate_of(softmax_source("strided(3) + dilated(1, 2)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"] = encode(2)
    assert rejects(cert, "PAT-CONNECTED")


def test_a_forged_group_is_rejected():
    cert = certificate_of(softmax_source("strided(5) + offsets {-2, 4}"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["name"] = "reflection"
    step["data"]["order"] = encode(2)
    assert rejects(cert, "SYM-AUT")


def test_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(softmax_source("strided(3) + dilated(1, 2)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["from"] = encode(20)
    assert rejects(cert, "PAT-CONNECTED")


# Theorem F92: r > s, lines of one class exchanged; the verifier counts the group its own way and by nauty at instances


@pytest.mark.parametrize("pattern", ["strided(2) + dilated(1, 3)", "strided(3) + offsets {-4, 8}"])
def test_r_above_s_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F92")


def test_r_above_s_at_a_large_length():
    report = verify(certificate_of(softmax_source("strided(3) + dilated(1, 4)", 1_048_576)))
    steps = {s.rule: s for s in report.steps}
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(steps[r].outcome == "verified" and "Theorem F92" in steps[r].reason for r in ("PAT-CONNECTED", "SYM-AUT"))


def test_r_above_s_a_forged_order_is_rejected():
    cert = certificate_of(softmax_source("strided(3) + dilated(1, 4)", 1_048_576))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["order"] == encode(4)  # n = 1,048,576 ≡ 4 (mod 12): the lines' types give 4
    step["data"]["order"] = encode(8)
    assert rejects(cert, "SYM-AUT")


def test_r_above_s_a_forged_group_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + dilated(1, 3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["name"] = "reflection"
    step["data"]["order"] = encode(2)
    assert rejects(cert, "SYM-AUT")


def test_r_above_s_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + dilated(1, 3)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["from"] = encode(20)
    assert rejects(cert, "PAT-CONNECTED")
