"""Checks shared by the verifier tests of Theorems F115, F117 and F122 (`blocks(b)` with non-cyclic line parts): a
forged certificate step is rejected at its rule, a union rests on the verifier's own theorem, and the verifier's
restatement agrees with the engine's values."""
from __future__ import annotations

import json

from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify

STEPS = ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT")


def forged(cert: dict, rule: str, forge) -> bool:
    """True when `forge` (applied to a copy of the data of the step `rule`) makes the verifier reject that step."""
    copy = json.loads(json.dumps(cert))
    forge(next(s for s in copy["steps"] if s["rule"] == rule)["data"])
    report = verify(copy)
    return not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)


def assert_rests_on(cert: dict, theorem: str) -> None:
    """The certificate verifies completely, its three graph steps by the verifier's own `theorem`, nothing trusted."""
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    steps = [s for s in report.steps if s.rule in STEPS]
    assert len(steps) == 3 and all(s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason for s in steps)
    assert not any(s.outcome == TRUSTED for s in report.steps)


def assert_agrees(data, found: tuple) -> tuple:
    """The verifier's F117/F122 values `found` against the engine's `data`: the range, D's data, the radius, N_G and
    the symmetries. Returns the class data for the caller's own comparison."""
    assert data is not None and found is not None
    low, diameter_low, period, growth, base, radius, group_low, classes, symmetries = found
    assert (low, diameter_low, period, growth, base) == (data.low, data.line.diameter_low, data.line.period,
                                                         data.line.growth, data.line.base)
    assert (radius, group_low) == (data.radius, data.group_low)
    assert set(symmetries) == {(a.sign, a.images) for a in data.found}
    return classes
