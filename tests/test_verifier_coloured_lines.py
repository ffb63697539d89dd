"""`uapcheck verify` on the anchors of Theorems F179 and F180 (docs/theory.md §11.11): the union's own F116 entry with
its order by class at most the anchor's, and the arc-coloured union's ball certificate restated by the verifier
(uapcheck/verifier/coloured_lines.py) with every length from the stated bound up to its range checked exactly; a
forged anchor is not verified."""
from __future__ import annotations

import copy

import pytest
from certificates import heads_certificate as _cert

from uapcheck.verifier import REJECTED, VERIFIED, verify


def _group(report):
    return next(s for s in report.steps if s.rule == "SYM-AUT")


def _steps(cert):
    """The head-intersection certificates of the SYM-AUT step (one, or one per residue class)."""
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    c = step["certificate"]
    return [c] if c["kind"] == "head intersection" else [x["certificate"] for x in c["classes"]]


CASES = [(("blocks(3) + offsets {1}", "blocks(2) + offsets {-1}"), "F180"),
         (("star", "blocks(2) + offsets {-7, -3, 9}"), "F180"),
         (("blocks(3)", "dilated(2, 2)"), "F115")]


@pytest.mark.parametrize("patterns,theorem", CASES, ids=[" | ".join(c) for c, _ in CASES])
def test_the_anchor_is_verified(patterns, theorem):
    cert = _cert(*patterns)
    assert all(c["anchor"]["head"] == 0 for c in _steps(cert))  # 0: the union of the heads
    step = _group(verify(cert))
    assert step.outcome == VERIFIED, step.reason
    assert f"Theorem {theorem}" in step.reason


def test_an_anchor_bound_below_the_exact_lengths_is_rejected():
    cert = _cert("blocks(3) + offsets {1}", "blocks(2) + offsets {-1}")
    forged = copy.deepcopy(cert)
    for c in _steps(forged):
        c["anchor"]["from"] = 3  # below g + 2J + 2 = 6
        for cls in c["classes"]:
            cls["from"] = max(cls["from"] - 6 * ((cls["from"] - 3) // 6), 3)
    assert _group(verify(forged)).outcome == REJECTED


def test_a_coloured_anchor_of_another_kind_is_not_verified():
    cert = _cert("star", "blocks(2) + offsets {-7, -3, 9}")
    forged = copy.deepcopy(cert)
    for c in _steps(forged):
        c["anchor"]["group"], c["anchor"]["prefix"] = "reflection", 0  # the hub is position 1: the prefix u = 1
    assert _group(verify(forged)).outcome != VERIFIED


def test_a_union_anchor_smaller_than_the_union_s_group_is_not_verified():
    """F116's name covers "the reflection when 3 | n, else trivial"; the anchor "trivial" is below its order at 3 | n."""
    cert = _cert("blocks(3)", "dilated(2, 2)")
    forged = copy.deepcopy(cert)
    for c in _steps(forged):
        c["anchor"]["group"] = "trivial"
    assert _group(verify(forged)).outcome != VERIFIED
