"""A PAT-CONNECTED step at a concrete n whose diameter comes from a closed form read at n (Theorem F125 (c), several
heads) carries no receptive-field pair. Where the verifier has no lemma of its own for those heads, it re-derives
the diameter by its own breadth-first search from every position (it used to reject the honest step: "the pair is
not an integer"), and rejects a forged diameter."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, VERIFIED, verify

SOURCE = ("tokens 1000\nattention ring {\n  kernel k(x, y) = exp(x . y)\n"
          "  pattern offsets {-2, -1} cyclic + offsets {1, 2}\n}\n"
          "attention window {\n  kernel k(x, y) = exp(x . y)\n  pattern window(40) cyclic\n}\n")


@pytest.fixture(scope="module")
def cert():
    return certificate_of(SOURCE)


def _connected(report):
    return next(s for s in report.steps if s.rule == "PAT-CONNECTED")


def test_the_closed_form_diameter_without_a_pair_is_verified_by_search(cert):
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    assert step["data"].get("pair") == [None, None]
    report = verify(cert)
    assert _connected(report).outcome == VERIFIED, _connected(report).reason
    assert report.ok


@pytest.mark.parametrize("delta", [1, -1])
def test_a_forged_diameter_is_rejected(cert, delta):
    forged = copy.deepcopy(cert)
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-CONNECTED")
    step["data"]["diameter"] += delta
    assert _connected(verify(forged)).outcome == REJECTED
