"""At a symbolic n, a PAT-CONNECTED step of a file with a complete head (`full`, e.g. a dense RoPE head beside a local
window) is checked against the `complete head` lemma: the union of the heads' arcs is complete, D = 1 from n = 2 on.
A certificate stating another diameter was left trusted when the verifier checked that step alone."""
from __future__ import annotations

import json

from certificates import certificate  # tests/ is on sys.path
from uapcheck.verifier import REJECTED, VERIFIED, verify

NAME = "t5_window_beside_rope_any_length.uap"


def _connected(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")


def test_the_honest_diameter_is_verified_alone():
    cert = certificate(NAME)
    step = _connected(cert)
    report = verify(cert, only={step["id"]})
    (checked,) = [s for s in report.steps if s.id == step["id"]]
    assert checked.outcome == VERIFIED


def test_a_changed_diameter_is_rejected_at_its_own_step():
    cert = json.loads(json.dumps(certificate(NAME)))
    step = _connected(cert)
    assert step["data"]["diameter"] == 1
    step["data"]["diameter"] = 2
    report = verify(cert, only={step["id"]})
    (checked,) = [s for s in report.steps if s.id == step["id"]]
    assert checked.outcome == REJECTED and "complete head" in checked.reason
