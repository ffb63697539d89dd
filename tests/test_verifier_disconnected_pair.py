"""A symbolic PAT-DISCONNECTED step whose pair was tampered: the verifier names the pair as what fails (x_j reaches
position i at a length of the NOT-UAP range, by BFS on its own arcs), instead of falling back to `trusted` with "no
closed form of the verifier's table matches" (docs/theory.md §18.3)."""
from __future__ import annotations

import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import REJECTED, VERIFIED, verify

# Theorem F89 (a): every arc keeps p mod 2, so x_2 never reaches position 1 (NOT-UAP for n ≥ 2)
TEXT = """attention {
  kernel k(x, y) = exp(x . y)
  pattern strided(4) + strided(6)
}
"""


@pytest.fixture(scope="module")
def cert():
    return json.loads(json.dumps(certfile.build(uapcheck.check(TEXT, "f.uap"), TEXT)))


def _step(report):
    return next(s for s in report.steps if s.rule == "PAT-DISCONNECTED")


def test_the_engine_pair_is_verified(cert):
    report = verify(cert)
    assert report.ok and _step(report).outcome == VERIFIED


@pytest.mark.parametrize("j, at", [(3, 7), (5, 5)])
def test_a_tampered_pair_is_rejected_by_name(cert, j, at):
    tampered = json.loads(json.dumps(cert))
    step = next(s for s in tampered["steps"] if s["rule"] == "PAT-DISCONNECTED")
    step["data"]["j"] = step["evidence"]["witness"]["j"] = j
    report = verify(tampered)
    got = _step(report)
    assert not report.ok and got.outcome == REJECTED
    assert got.reason.startswith(f"the pair (i, j) = (1, {j}) fails: x_{j} reaches position 1 at n = {at}"), got.reason
