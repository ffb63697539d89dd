"""At `tokens 1` every route counts one attention (or convolution) layer, least, as the single-pattern path does
(PAT-LAYERS: D = 0, and one layer is the fewest a model has): per-layer patterns (`pattern periodic { … }`,
`pattern sequence { … }`) said "0 attention layers" and the verifier rejected their SEQ-CONNECTED step; the
convolution mixer's CONV-LAYERS and CONV-GROUP were rejected at n = 1. The verifier accepts these certificates and
rejects a count of 0."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402

PER_LAYER = ("periodic { window(8), strided(8) }", "sequence { window(2), window(3) }", "sequence { causal, causal }")


def _attention(pattern: str, extra: str = "") -> str:
    return f"tokens 1\n{extra}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern", PER_LAYER)
@pytest.mark.parametrize("extra", ["", "layers 1\n", "target causal\n"])
def test_per_layer_patterns_at_one_token_count_one_layer_as_a_single_pattern_does(pattern, extra):
    single = uapcheck.check(_attention("window(2)", extra), "t.uap")
    got = uapcheck.check(_attention(pattern, extra), "t.uap")
    assert (got.verdict, got.layers) == (single.verdict, single.layers) == ("UAP", 1)
    report = verify(certificate_of(_attention(pattern, extra)))
    assert report.ok, [(s.rule, s.reason) for s in report.steps if s.outcome != "verified"]


@pytest.mark.parametrize("pattern", PER_LAYER[:2])
def test_a_per_layer_count_of_zero_at_one_token_is_rejected(pattern):
    cert = certificate_of(_attention(pattern))
    bad = copy.deepcopy(cert)
    _step(bad, "SEQ-LAYERS")["data"]["layers"] = 0
    assert rejects(bad, "SEQ-LAYERS")


def test_a_causal_per_layer_count_of_zero_at_one_token_is_rejected():
    cert = certificate_of(_attention("sequence { causal, causal }", "target causal\n"))
    bad = copy.deepcopy(cert)
    _step(bad, "SEQ-CAUSAL-LAYERS")["data"]["layers"] = 0
    assert rejects(bad, "SEQ-CAUSAL-LAYERS")


def test_a_depth_above_zero_at_one_token_is_rejected():
    cert = certificate_of(_attention(PER_LAYER[0]))
    bad = copy.deepcopy(cert)
    step = _step(bad, "SEQ-CONNECTED")
    step["data"]["depth"] = step["evidence"]["D_Φ"] = 1
    assert rejects(bad, "SEQ-CONNECTED")


@pytest.mark.parametrize("span", [1, 2])
@pytest.mark.parametrize("extra", ["", "layers 1\n"])
def test_the_convolution_mixer_at_one_token_counts_one_layer_and_verifies(span, extra):
    text = f"tokens 1\n{extra}convolution circular({span})\n"
    got = uapcheck.check(text, "t.uap")
    assert (got.verdict, got.layers) == ("UAP", 1)
    cert = certificate_of(text)
    report = verify(cert)
    assert report.ok, [(s.rule, s.reason) for s in report.steps if s.outcome != "verified"]
    for layers, least in ((0, True), (2, True)):
        bad = copy.deepcopy(cert)
        _step(bad, "CONV-LAYERS")["data"].update(layers=layers, least=least)
        assert rejects(bad, "CONV-LAYERS"), layers
    bad = copy.deepcopy(cert)
    _step(bad, "CONV-GROUP")["data"]["order"] = 2
    assert rejects(bad, "CONV-GROUP")


def test_per_layer_patterns_under_a_causal_target_keep_the_group_their_layer_step_reads():
    # the G-equivariant SEQ-LAYERS step reads G from SEQ-GROUP; under `target causal` the group step was left out of
    # the derivation and the verifier rejected SEQ-LAYERS at every n
    text = ("tokens 3\ntarget causal\nattention {\n  kernel k(x, y) = exp(x . y)\n"
            "  pattern sequence { window(2), window(3) }\n}\n")
    report = verify(certificate_of(text))
    assert report.ok, [(s.rule, s.reason) for s in report.steps if s.outcome != "verified"]
