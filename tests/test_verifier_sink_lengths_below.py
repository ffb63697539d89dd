"""A causal window with k ≥ 2 attention sinks at a symbolic n (docs/theory.md §14.7): the lengths n < k are not lengths
the file allows (`sinks(k)` needs k ≤ n) and the verdict lists them so; the verifier's check of the lengths below the
range took them for lengths with one layer and rejected the honest verdict ('at n = 1 below the range the least is 1
layers'). A forged one-layer entry there is still rejected."""
from __future__ import annotations

import copy
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED


def src(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\ntarget causal\n"


def verdict_outcome(cert: dict) -> str:
    return next(s.outcome for s in verify(cert).steps if s.rule == "TGT-VERDICT")


@pytest.mark.parametrize("pattern", ["causal & window(1) + sinks(3)", "periodic { causal & window(1) + sinks(3) }",
                                     "causal & window(3) + sinks(2)", "causal & window(2) + sinks(1)"])
def test_lengths_below_a_sink_count_are_listed_not_allowed_and_verified(pattern):
    text = src(pattern)
    r = uapcheck.check(text, "t.uap")
    assert r.verdict == "UAP"
    cert = json.loads(json.dumps(certfile.build(r, text)))
    rep = verify(cert)
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps), \
        [(s.rule, s.reason) for s in rep.steps if s.outcome != VERIFIED]
    data = next(s for s in cert["steps"] if s["rule"] == "TGT-VERDICT")["data"]
    closed = [rec for rec in data["below_range"] if rec["allowed"] is False]
    assert [rec["n"] for rec in closed] == list(range(1, int(pattern.split("sinks(")[1][0])))
    if closed:
        forged = copy.deepcopy(cert)
        rec = next(s for s in forged["steps"] if s["rule"] == "TGT-VERDICT")["data"]["below_range"][0]
        rec.update(allowed=True, verdict="UAP", layers=1, least=True, why=None)
        assert verdict_outcome(forged) == REJECTED
