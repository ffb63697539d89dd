"""`uapcheck verify` on Theorem F74 (docs/theory.md §11.11): `strided(s)` with non-cyclic windows, dilations and
offsets. The verifier's own restatement (uapcheck/verifier/strided_lines.py) re-derives the jump sets, the range, the
ball certificate and D per residue on its own arcs; a forged claim is rejected naming its step."""
from __future__ import annotations

import pytest

from certificates import assert_rests_on, certificate_of, rejects

from uapcheck.verifier import strided_lines as restated
from uapcheck.verifier.trees import encode


def _source(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


@pytest.mark.parametrize("pattern", ["strided(3) + offsets {-1, 1, 2}", "strided(4) + window(1) + dilated(1, 3)"])
def test_the_union_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(_source(pattern)), "Theorem F74")


def test_a_forged_diameter_is_rejected():
    cert = certificate_of(_source("strided(3) + offsets {-1, 1, 2}"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    step["data"]["diameter"] = encode(3)  # D = 2 unless 3 | n
    assert rejects(cert, "PAT-CONNECTED")


def test_a_forged_group_is_rejected():
    cert = certificate_of(_source("strided(3) + offsets {-1, 1, 2}"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order"] = encode(2)
    assert rejects(cert, "SYM-AUT")


def test_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(_source("strided(3) + offsets {-1, 1, 2}"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["from"] = encode(20)
    assert rejects(cert, "PAT-LAYERS")


def test_a_least_claim_is_rejected():
    """F74 claims D + 1 layers, not least."""
    cert = certificate_of(_source("strided(3) + offsets {-1, 1, 2}"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")


def test_shared_factors_and_one_sided_jumps_are_not_restated():
    from uapcheck import spec as S
    assert restated.match([S.Strided(9), S.Offsets((-4, -2, 6), False)]) is None
    assert restated.match([S.Strided(4), S.Offsets((1, 3), False)]) is None
    assert restated.match([S.Strided(4), S.Window(2)]) is None  # Theorems F7, F11, F14
