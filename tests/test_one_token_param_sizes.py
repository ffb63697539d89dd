"""One token with pattern sizes given as params (docs/theory.md §21.9, "n = 1"): one position has no arc but the
self-loop, whatever the sizes, so the pattern graph, its group S_1 and its reach do not depend on them; a count of
positions (`sinks(k)`, `global(g)`) is at most n, so at n = 1 only k = 1 is allowed, and a lower bound above 1 leaves
no value there. StreamingLLM's symbolic verdict said "INCONCLUSIVE at n = 1"; it is UAP there, 1 layer, and the
verifier re-checks it on its own (empty) arcs."""
from __future__ import annotations

import copy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of  # noqa: E402

from uapcheck.derive import check_spec  # noqa: E402
from uapcheck.parse import parse_source  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.patterns import head_arcs  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
STREAMING = (REPO / "catalog" / "streaming_llm.uap").read_text()


def _one_token(lower_k: int = 1, lower_w: int = 1, pattern: str = "causal & window(w) + sinks(k)") -> str:
    return (f"tokens 1\nparam w integer >= {lower_w}\nparam k integer >= {lower_k}\n"
            f"attention {{\n  kernel k(q, key) = exp(q . key)\n  pattern {pattern}\n}}\n")


def test_streaming_llm_headline_has_no_inconclusive_piece():
    result = check_spec(parse_source(STREAMING, "streaming_llm.uap"))
    assert result.verdict == "NOT-UAP"
    cert = certificate_of(STREAMING)
    (one,) = cert["steps"][-1]["data"]["lengths"]
    assert one == {"n": 1, "verdict": "UAP", "layers": 1, "least": True, "order": 1}
    report = verify(cert)
    assert report.ok and not any(o.outcome == "trusted" for o in report.steps)
    assert "UAP at n = 1" in report.statement.below and "INCONCLUSIVE" not in report.statement.below


def test_a_forged_verdict_or_count_at_one_token_is_rejected():
    cert = certificate_of(STREAMING)
    for change in ({"verdict": "NOT-UAP", "layers": None, "least": None, "order": None}, {"layers": 2},
                   {"order": 2}):
        bad = copy.deepcopy(cert)
        bad["steps"][-1]["data"]["lengths"][0].update(change)
        assert not verify(bad).ok, change


def test_one_token_with_param_sizes_is_decided_for_several_patterns():
    for pattern in ("causal & window(w) + sinks(k)", "window(w) + global(k)", "dilated(w, k)",
                    "causal & window(w)"):
        for lower in (1, 3):
            text = _one_token(lower_w=lower, pattern=pattern)
            result = check_spec(parse_source(text, "one.uap"))
            assert result.verdict == "UAP" and result.layers == 1, (pattern, lower)
            report = verify(certificate_of(text))
            assert report.ok and not any(o.outcome == "trusted" for o in report.steps), (pattern, lower)


def test_a_sink_count_whose_least_value_exceeds_one_token_is_not_decided():
    """`param k integer >= 2`: no value of k the file allows is at most n = 1 (k ≤ n, docs/language.md)."""
    result = check_spec(parse_source(_one_token(lower_k=2), "one.uap"))
    assert result.verdict == "INCONCLUSIVE"
    text = STREAMING.replace("param k integer >= 1", "param k integer >= 2")
    cert = certificate_of(text)
    (one,) = cert["steps"][-1]["data"]["lengths"]
    assert one["n"] == 1 and one["verdict"] is None
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    bad["steps"][-1]["data"]["lengths"][0].update(verdict="UAP", layers=1, least=True, order=1)
    assert not verify(bad).ok


def test_the_verifier_reads_no_arc_at_one_position_whatever_the_sizes():
    spec = parse_source(_one_token(), "one.uap")
    assert head_arcs(spec.heads[0].pattern, 1) == frozenset()
