"""SYM-AUT at a symbolic n for the full causal mask with a trainable bias or an encoding (docs/theory.md §18.4, the
`forward` lemma): a labelled automorphism is an automorphism of the arcs, and the causal mask's arcs j → i, j < i,
are a total order, kept by the identity only; labels and an encoding add no arcs. The verifier's table left every
biased head out ("no closed form of the verifier's table matches these patterns"), so `pattern causal` with
`bias toeplitz` and `target causal` was NOT FULLY VERIFIED; it is now verified, and a forged group is rejected. A
biased head that is not the full causal mask stays outside the table (its unlabelled group is not the labelled one)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402


def _text(item: str, pattern: str = "causal", extra: str = "target causal\n") -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n  {item}\n}}\n{extra}"


@pytest.mark.parametrize("item", ["bias toeplitz", "bias free", "bias symmetric toeplitz", "bias circulant"])
@pytest.mark.parametrize("extra", ["target causal\n", "", "positional absolute\ntarget causal\n"])
def test_the_biased_causal_mask_s_trivial_group_is_verified(item, extra):
    report = verify(certificate_of(_text(item, extra=extra)))
    outcomes = {s.rule: (s.outcome, s.reason) for s in report.steps}
    assert outcomes["SYM-AUT"][0] == "verified", outcomes["SYM-AUT"]
    assert "forward" in outcomes["SYM-AUT"][1]
    assert report.ok and "rejected" not in {o for o, _ in outcomes.values()}


@pytest.mark.parametrize("name", ["reflection", "S_n", "C_n"])
def test_a_forged_group_is_rejected(name):
    cert = certificate_of(_text("bias toeplitz"))
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["name"] = name
    assert rejects(forged, "SYM-AUT")


def test_a_biased_head_other_than_the_causal_mask_is_not_read_by_the_lemma():
    """`offsets {-1, 0}` with a free bias: the free bias makes the group trivial, while the `forward` lemma states no
    group for these arcs; the step stays trusted rather than rejected."""
    report = verify(certificate_of(_text("bias free", "offsets {-1, 0}")))
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert outcomes["SYM-AUT"] == "trusted" and "rejected" not in outcomes.values()
