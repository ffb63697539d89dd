"""`uapcheck verify` on Theorems F40–F42 (docs/theory.md §11.11): non-cyclic offsets and unions of windows,
dilations and offsets at symbolic n; the verifier's own restatement (uapcheck/verifier/offsets_line.py) re-derives
the range, the diameter by residue, the group and the layer count on its own arcs, and a forged claim is rejected
naming its step."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, families, verify
from uapcheck.verifier.trees import encode


def _symbolic(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _cert_of(pattern: str) -> dict:
    text = _symbolic(pattern)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _pattern_steps(report):
    return [s for s in report.steps if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT")]


@pytest.mark.parametrize("pattern", ["offsets {-1, 0, 3}", "offsets {-2, 0, 1}", "window(1) + offsets {0, 5}",
                                     "window(2) + offsets {-5, 5}", "window(1) + dilated(2, 3) + dilated(1, 7)"])
def test_the_steps_rest_on_the_verifier_s_own_theorem(pattern):
    report = verify(_cert_of(pattern))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    steps = _pattern_steps(report)
    assert len(steps) == 3
    for s in steps:
        assert s.outcome == VERIFIED and "Theorem F40" in s.reason and "instances" in s.reason


def test_the_table_restates_the_range_and_values():
    fam = families.match(parse_source(_symbolic("window(2) + offsets {-5, 5}"), "t.uap"))
    assert fam.theorem == "F40" and fam.low == 9 and fam.period == 5
    assert [int(fam.d(n)) for n in (9, 10, 14, 15)] == [3, 3, 4, 4]
    assert int(fam.order(20)) == 2 and fam.name("reflection") and not fam.name("trivial")
    one_sided = families.match(parse_source(_symbolic("offsets {0, 1, 3}"), "t.uap"))
    assert one_sided is None or one_sided.theorem != "F40"


def test_a_forged_range_is_rejected():
    cert = _cert_of("offsets {-1, 0, 3}")
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    step["data"]["from"] = encode(5)  # at n = 5 the group is the reflection, not trivial: below the range
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-CONNECTED" and s.outcome == REJECTED for s in report.steps)


def test_a_forged_group_is_rejected():
    cert = _cert_of("offsets {-1, 0, 3}")
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["name"] = "reflection"
    step["data"]["order"] = encode(2)
    report = verify(cert)
    assert not report.ok and any(s.rule == "SYM-AUT" and s.outcome == REJECTED for s in report.steps)


def test_a_forged_layer_count_is_rejected():
    cert = _cert_of("window(2) + offsets {-5, 5}")
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(sympy.floor(sympy.Symbol("n", integer=True, positive=True) / 5))
    report = verify(cert)
    rejected = [s for s in report.steps if s.rule == "PAT-LAYERS" and s.outcome == REJECTED]
    assert not report.ok and rejected and "layers" in rejected[0].reason


@pytest.mark.parametrize("pattern", ["window(1) + offsets {0, 5} + global(1)", "offsets {-1, 0, 3} + global(2)",
                                     "window(2) + offsets {-5, 5} + star"])
def test_hubs_on_a_line_take_the_verifier_s_own_group(pattern):
    """Theorem F43: F31's group step rests on the verifier's own restatement of F41."""
    report = verify(_cert_of(pattern))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    group = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert group.outcome == VERIFIED and "Theorem F31" in group.reason


def test_a_forged_hub_group_is_rejected():
    cert = _cert_of("window(1) + offsets {0, 5} + global(1)")
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["name"] = "the reflection of {2, …, n}"
    step["data"]["order"] = encode(2)
    report = verify(cert)
    assert not report.ok and any(s.rule == "SYM-AUT" and s.outcome == REJECTED for s in report.steps)
