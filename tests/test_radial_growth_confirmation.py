"""TD-RADIAL concludes only what its MomentCertificate confirms: a radial profile whose growth at +∞ is
not followed closely at the certificate's check points (1/sqrt(7 + |x − y|), slowly converging) leaves
the step undecided, never an internal error (a fuzzed catalog file found this)."""
from __future__ import annotations

import uapcheck


def test_a_slowly_converging_radial_profile_is_undecided_not_an_internal_error():
    text = ('architecture "slow radial"\n'
            "attention { kernel k(x, y) = 1 / sqrt(7 + |x - y|^1) }\n")
    result = uapcheck.check(text, "t.uap")
    step = next(s for s in result.root.walk() if s.rule == "TD-RADIAL")
    assert step.status.value == "undecided" and "not confirmed" in step.claim
    assert result.verdict == "INCONCLUSIVE"
