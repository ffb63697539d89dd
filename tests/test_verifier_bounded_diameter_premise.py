"""A layer count of D + 1 over a connectivity step that states only a bound D ≤ b (a closed form's `diameter bound`,
Theorem F197 of docs/theory.md §11.11) is checked against that bound: b + 1 layers suffice by the view argument, any
other count is rejected. (The verifier used to reject the honest step: it read the bound only from a certificate's
`upper`, which a closed form's connectivity step does not write.)"""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, layers_step, step_outcome
from uapcheck.verifier import REJECTED, VERIFIED, verify

TEXT = """tokens 1048576
attention a {
  kernel k(x, y) = exp(x . y)
  pattern blocks(6) + window(3)
}
attention b {
  kernel k(x, y) = exp(x . y)
  pattern window(3) cyclic + strided(5)
}
"""


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(TEXT)


def _with_layers(cert: dict, m: int) -> dict:
    forged = json.loads(json.dumps(cert))
    layers_step(forged)["data"]["layers"] = m
    return forged


def test_the_premise_states_only_a_bound(cert):
    premise = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    assert premise["data"]["diameter"] is None and premise["data"]["diameter bound"] == 2
    assert "upper" not in (premise.get("certificate") or {})
    assert layers_step(cert)["data"]["layers"] == 3


def test_one_layer_more_than_the_bound_is_verified(cert):
    report = verify(cert, seconds=120)
    assert step_outcome(report, "PAT-LAYERS") == VERIFIED
    assert not report.rejected


@pytest.mark.parametrize("m", [2, 4])
def test_another_count_is_rejected(cert, m):
    step = layers_step(cert)
    report = verify(_with_layers(cert, m), only={step["id"]}, seconds=60)
    assert step_outcome(report, "PAT-LAYERS") == REJECTED
