"""PE-LIFT (docs/theory.md §10) passes a head's token distinguishing step through an absolute encoding, whatever rule
made it. The verifier accepted six of those rules as its premise only: the honest certificates of T5 buckets, RoPE,
`heads H kv G` and differential heads beside `positional absolute` were rejected ("premise s7 (TD-BUCKETS) is not one
this rule uses"). Each is now verified; a premise that is not a head's step is still rejected."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(item: str, n: int = 12) -> str:
    return f"tokens {n}\npositional absolute\nattention {{\n  kernel k(x, y) = exp(x . y)\n  {item}\n}}\n"


@pytest.mark.parametrize("item,rule", [("bias buckets(32, 128)", "TD-BUCKETS"), ("rotary", "TD-ROTARY"),
                                       ("heads 4 kv 2", "HEADS-SHARED"), ("differential", "HEADS-DIFF"),
                                       ("sink logit learned", "HEADS-SINK"), ("sink logit 0", "HEADS-SINK")])
def test_an_encoding_beside_each_head_rule_verifies(item, rule):
    cert = certificate_of(_text(item))
    lift = next(s for s in cert["steps"] if s["rule"] == "PE-LIFT")
    assert [p["rule"] for p in cert["steps"] if p["id"] in lift["premises"]] == [rule]
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_a_premise_that_is_not_a_head_step_is_rejected():
    cert = certificate_of(_text("bias buckets(32, 128)"))
    forged = json.loads(json.dumps(cert))
    lift = next(s for s in forged["steps"] if s["rule"] == "PE-LIFT")
    an = next(s for s in forged["steps"] if s["rule"] == "AN-STRUCT")
    lift["premises"] = [an["id"]]
    assert rejects(forged, "PE-LIFT")
