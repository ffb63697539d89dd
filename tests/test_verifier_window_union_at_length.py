"""PAT-CONNECTED at an integer n above the arc limit for several heads whose union is one head's window(w)
(docs/theory.md §18.4): the verifier reads the diameter from its own window lemma for that head, counted, not
searched. The two heads of catalog/ring_mirrored_wide_window_heads_n.uap at 1,048,576 positions ran out of any budget
(one breadth-first search per position); a forged diameter is rejected, and a head outside the window is not read so."""
from __future__ import annotations

import copy
import time

import pytest

from certificates import certificate_of  # tests/ is on sys.path

from uapcheck import spec as S
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.rules_graph import _arcs_within_window

SOURCE = ("tokens 1048576\nattention ring {\n  kernel k(x, y) = exp(x . y)\n"
          "  pattern offsets {-2, -1} cyclic + offsets {1, 2}\n}\n"
          "attention window {\n  kernel k(x, y) = exp(x . y)\n  pattern window(40) cyclic\n}\n")


@pytest.fixture(scope="module")
def cert():
    return certificate_of(SOURCE)


def _connected(report):
    return next(s for s in report.steps if s.rule == "PAT-CONNECTED")


def test_the_union_is_read_as_the_window_within_seconds(cert):
    start = time.process_time()
    report = verify(cert)
    step = _connected(report)
    assert step.outcome == VERIFIED, step.reason
    assert "the union is window(40) cyclic alone" in step.reason and "13108" in step.reason
    assert report.ok
    assert time.process_time() - start < 60


@pytest.mark.parametrize("delta", [1, -1])
def test_a_forged_diameter_is_rejected(cert, delta):
    forged = copy.deepcopy(cert)
    step = next(s for s in forged["steps"] if s["rule"] == "PAT-CONNECTED")
    step["data"]["diameter"] += delta
    assert _connected(verify(forged)).outcome == REJECTED


def test_only_arcs_within_the_window_are_read_as_inside_it():
    ring = S.PatternUnion((S.Offsets((-2, -1), True), S.Offsets((1, 2), False)))
    assert _arcs_within_window(ring, 40, True)
    assert not _arcs_within_window(ring, 40, False)  # the cyclic offsets wrap: not inside a non-cyclic window
    assert _arcs_within_window(S.Offsets((1, 2), False), 2, False)
    assert not _arcs_within_window(S.Offsets((41,), True), 40, True)
    assert not _arcs_within_window(S.Window(41, False), 40, True)
    assert not _arcs_within_window(S.Full(), 40, True)
