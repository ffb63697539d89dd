"""A periodic list of one pattern (`pattern periodic { P }`) uses P in every layer: the same family as `pattern P`,
read as it and decided by the single-pattern engines at any n (the per-layer engine stopped at n = 1,024 and at
symbolic n, and left `periodic { causal & window(4096) + sinks(4) }` at 32,768 tokens INCONCLUSIVE while the plain
pattern gives 8 layers)."""
from __future__ import annotations

import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.verifier import verify
from uapcheck.verifier.check import NUMERIC, VERIFIED


def text(pattern: str, tokens: str, extra: str = "target causal\n", params: str = "") -> str:
    return (f"{params}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"
            + (f"tokens {tokens}\n" if tokens else "") + extra)


@pytest.mark.parametrize("pattern", ["causal & window(4096) + sinks(4)", "causal", "window(2)", "strided(3)"])
def test_one_pattern_periodic_list_reads_as_the_pattern(pattern):
    plain = parse_source(text(pattern, "64"))
    listed = parse_source(text(f"periodic {{ {pattern} }}", "64"))
    assert listed.heads[0].pattern == plain.heads[0].pattern
    assert not isinstance(listed.heads[0].pattern, S.PatternSequence)
    # a longer list and a finite list of one stay per-layer patterns
    assert isinstance(parse_source(text(f"periodic {{ {pattern}, {pattern} }}", "64")).heads[0].pattern,
                      S.PatternSequence)
    assert isinstance(parse_source(text(f"sequence {{ {pattern} }}", "64")).heads[0].pattern, S.PatternSequence)


@pytest.mark.parametrize("pattern, tokens, extra, params", [
    ("causal & window(4096) + sinks(4)", "32768", "target causal\n", ""),
    ("causal & window(w) + sinks(k)", "", "target causal\n", "param w integer >= 1\nparam k integer >= 1\n"),
    ("causal & window(3)", "", "target causal\n", ""),
    ("window(1)", "12", "layers 2\n", ""),
    ("window(2)", "", "", ""),
])
def test_one_pattern_periodic_list_has_the_plain_patterns_verdict(pattern, tokens, extra, params):
    plain = uapcheck.check(text(pattern, tokens, extra, params), "p.uap")
    listed = uapcheck.check(text(f"periodic {{ {pattern} }}", tokens, extra, params), "l.uap")
    assert (listed.verdict, listed.layers) == (plain.verdict, plain.layers)
    assert listed.verdict != "INCONCLUSIVE" or plain.verdict == "INCONCLUSIVE"


def test_sinks_window_list_at_32k_is_decided_with_eight_layers_and_verified():
    src = text("periodic { causal & window(4096) + sinks(4) }", "32768")
    result = uapcheck.check(src, "s.uap")
    assert (result.verdict, result.layers) == ("UAP", 8)
    report = verify(json.loads(json.dumps(certfile.build(result, src))))
    assert report.problems == []
    assert all(s.outcome in (VERIFIED, NUMERIC) for s in report.steps if s.rule.startswith(("TGT", "PAT")))
