"""When the family theorems are not reached in their time limit, the closed forms' fallback states D ≤ a spanning
part's bound with a range (`from`); the verifier checks that bound as the spanning-part bound it is (it holds at every
n ≥ 1, docs/theory.md §11.11) instead of rejecting it for not being the family's exact diameter. A bound that is no
spanning part's is still left to the family's check, which rejects it."""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, softmax_source, step_outcome
from uapcheck.rules import families as RF
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.trees import encode

PATTERN = "window(4) cyclic + offsets {-4, 5}"   # Theorem F101 when its family theorem is reached


@pytest.fixture(scope="module")
def fallback() -> dict:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(RF, "_matched_theorem", lambda spec, n, params: None)  # as when the time limit runs out
        return certificate_of(softmax_source(PATTERN))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_fallback_states_the_cyclic_window_bound_with_a_range(fallback):
    data = _step(fallback, "PAT-CONNECTED")["data"]
    assert data["diameter"] is None and "from" in data and data["diameter bound"] is not None
    assert fallback["verdict"] == "INCONCLUSIVE"


def test_the_bound_and_its_layer_count_are_verified(fallback):
    report = verify(fallback, seconds=60)
    assert step_outcome(report, "PAT-CONNECTED") == VERIFIED
    assert step_outcome(report, "PAT-LAYERS") == VERIFIED
    assert not report.rejected


def test_a_bound_of_no_spanning_part_is_rejected(fallback):
    import sympy
    forged = json.loads(json.dumps(fallback))
    n = sympy.Symbol("n", integer=True, positive=True)
    for rule in ("PAT-CONNECTED", "PAT-LAYERS"):
        _step(forged, rule)["data"]["diameter bound"] = encode(sympy.ceiling(sympy.floor(n / 2) / 5))
    report = verify(forged, only={_step(forged, "PAT-CONNECTED")["id"]}, seconds=60)
    assert step_outcome(report, "PAT-CONNECTED") == REJECTED
