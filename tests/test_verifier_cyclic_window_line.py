"""`uapcheck verify` on Theorem F101 (docs/theory.md §11.11): `window(w) cyclic` with non-cyclic offsets outside it.
The verifier's own restatement (uapcheck/verifier/cyclic_window_line.py) re-derives the outside offsets, the range
(from its own F41 restatement) and the group, and checks the diameter bound on its own arcs; a forged claim is
rejected naming its step."""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode

PATTERN = "window(1) cyclic + dilated(2, 4)"


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(PATTERN))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern", [PATTERN, "window(4) cyclic + offsets {-4, 5}"])
def test_the_union_rests_on_the_verifier_s_own_theorem(pattern):
    report = verify(certificate_of(softmax_source(pattern)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all("Theorem F101" in s.reason for s in report.steps if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))


def test_a_forged_order_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    _step(forged, "SYM-AUT")["data"]["order"] = encode(1)
    assert rejects(forged, "SYM-AUT")


def test_a_smaller_bound_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    bound = _step(forged, "PAT-CONNECTED")["data"]["diameter bound"]
    assert bound is not None
    _step(forged, "PAT-CONNECTED")["data"]["diameter bound"] = encode(3)
    assert rejects(forged, "PAT-CONNECTED")


def test_a_bound_stated_as_the_diameter_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    data = _step(forged, "PAT-CONNECTED")["data"]
    data["diameter"] = data["diameter bound"]
    assert rejects(forged, "PAT-CONNECTED")


def test_a_range_below_the_verifier_s_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-CONNECTED")["data"]["from"] = encode(10)
    assert rejects(forged, "PAT-CONNECTED")


def test_a_least_count_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-LAYERS")["data"]["least"] = True
    assert rejects(forged, "PAT-LAYERS")


def test_a_real_size_rests_on_the_theorem_with_the_bound():
    cert = certificate_of(softmax_source(PATTERN, 1_048_576))
    report = verify(cert)
    steps = {s.rule: s for s in report.steps}
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(steps[r].outcome == "verified" and "Theorem F101" in steps[r].reason
               for r in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))
    data = _step(cert, "PAT-CONNECTED")["data"]
    assert data["diameter"] is None and data["diameter bound"] == 524_288
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-CONNECTED")["data"]["diameter"] = 524_288     # the bound stated as D itself
    assert rejects(forged, "PAT-CONNECTED")
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-LAYERS")["data"]["layers"] = 524_288
    assert rejects(forged, "PAT-LAYERS")
