"""TGT-POSITIONS' route `labelled views` (docs/theory.md §14.11(e), Lemma V^λ) and the TGT-LAYERS count it gives,
re-decided by the verifier's own labelled receptive search at n ≤ 7: every permutation σ and root i, σ keeping the
labelled neighbourhoods (arcs and their bias classes or T5 buckets, read by the verifier) of the positions within
m − 1 of i but not all of R(i). m layers suffice when no such witness exists at depth m, and are the least when
m = max(r, 1) or a witness exists at depth m − 1. Both steps were trusted ("a positions route other than §14.11's one
layer and collision is not re-checked here"). Above n = 7, with a `free` bias or a fixed term they stay trusted."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402

PATTERNS = ["causal + sinks(1)", "causal & window(2)", "causal & window(1) + sinks(1)", "offsets {-2, -1, 0}"]
BIASES = ["bias toeplitz", "bias symmetric circulant", "bias buckets(4, 5)", "bias buckets(8, 9)"]


def _text(n: int, pattern: str, bias: str) -> str:
    return f"tokens {n}\ntarget causal\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {bias}\n}}\n"


def _steps(cert: dict) -> dict:
    return {s["rule"]: s for s in cert["steps"]}


def _labelled(n: int, pattern: str, bias: str):
    cert = certificate_of(_text(n, pattern, bias))
    pos = _steps(cert).get("TGT-POSITIONS")
    return cert if pos is not None and pos["data"].get("route") == "labelled views" else None


@pytest.mark.parametrize("n", [3, 5, 7])
@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_honest_certificates_are_verified(n, pattern):
    seen = 0
    for bias in BIASES:
        cert = _labelled(n, pattern, bias)
        if cert is None:
            continue
        seen += 1
        report = verify(cert)
        outcomes = {s.rule: (s.outcome, s.reason) for s in report.steps}
        assert outcomes["TGT-POSITIONS"][0] == outcomes["TGT-LAYERS"][0] == "verified", (bias, outcomes["TGT-LAYERS"])
        assert report.ok
    if n == 3:
        assert seen, "no labelled-views route among these files"


def test_a_count_one_off_either_way_is_rejected():
    tried = 0
    for pattern in PATTERNS:
        for bias in BIASES:
            cert = _labelled(5, pattern, bias)
            if cert is None:
                continue
            m = _steps(cert)["TGT-LAYERS"]["data"]["layers"]
            for forged_m in (m - 1, m + 1):
                if forged_m < 1:
                    continue
                forged = json.loads(json.dumps(cert))
                _steps(forged)["TGT-LAYERS"]["data"]["layers"] = forged_m
                assert rejects(forged, "TGT-LAYERS"), (pattern, bias, m, forged_m)
                tried += 1
    assert tried >= 4


def test_the_route_with_a_free_bias_or_above_seven_tokens_stays_trusted():
    cert = _labelled(3, "causal + sinks(1)", "bias toeplitz")
    assert cert is not None
    import hashlib
    text = _text(3, "causal + sinks(1)", "bias free")
    forged = json.loads(json.dumps(cert))
    forged["input"]["text"] = text
    forged["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    outcomes = {s.rule: s.outcome for s in verify(forged).steps}
    assert outcomes["TGT-POSITIONS"] in ("trusted", "rejected")  # never verified for a `free` bias
