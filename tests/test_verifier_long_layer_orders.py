"""The verifier reads per-layer group and rooted-view orders too long to write as integers (docs/language.md,
"Orders": "≈ m × 10^e" from 1,000 digits on): `periodic { global(2), global(2) }` at n = 455 with two layers has
|G| = 2 · 453! ≈ 3.20 × 10^1008, and its certificate was rejected at SEQ-GROUP (the data's order is null) and at
SEQ-LAYERS (the per-orbit counts are bounded texts). Both are now compared with the verifier's exact orders through a
bounded wording within one unit of its last digit; a forged wording is still rejected."""
from __future__ import annotations

import json
import math

import pytest

from uapcheck.verifier import VERIFIED, verify
from uapcheck.verifier.blocks_layers import states_order

from certificates import certificate_of, rejects  # tests/ is on sys.path

SOURCE = ("tokens 455\nlayers 2\nattention {\n kernel k(x, y) = exp(x . y)\n"
          " pattern periodic { global(2), global(2) }\n}\n")


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(SOURCE)


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_long_orders_are_verified(cert):
    assert _step(cert, "SEQ-GROUP")["certificate"]["order"].startswith("≈ 3.20 × 10^1008")
    ids = {_step(cert, r)["id"] for r in ("SEQ-GROUP", "SEQ-LAYERS")}
    report = verify(cert, only=ids)
    assert report.ok
    assert {s.rule: s.outcome for s in report.steps if s.id in ids} == {"SEQ-GROUP": VERIFIED, "SEQ-LAYERS": VERIFIED}


def test_a_forged_long_order_is_rejected(cert):
    group = json.loads(json.dumps(cert))
    _step(group, "SEQ-GROUP")["certificate"]["order"] = "≈ 3.25 × 10^1008"
    assert rejects(group, "SEQ-GROUP")
    views = json.loads(json.dumps(cert))
    per_orbit = _step(views, "SEQ-LAYERS")["certificate"]["per orbit"]
    per_orbit[1]["|Aut(rooted view)|"] = per_orbit[0]["|Aut(rooted view)|"]
    assert rejects(views, "SEQ-LAYERS")


def test_a_bounded_wording_stands_only_for_a_long_order():
    big = 2 * math.factorial(453)
    assert states_order("≈ 3.20 × 10^1008", big) and not states_order("≈ 3.2 × 10^1007", big)
    assert states_order(720, 720) and not states_order("≈ 7.20 × 10^2", 720) and not states_order(True, 1)
