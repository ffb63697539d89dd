"""A negative power, a log or a root needs its base positive everywhere, not only in the open sign regions of the
sign engine (docs/theory.md §4, the factor test): |x·z| is positive for x·z > 0 and for x·z < 0, yet 1/|x·z| has a pole
at x·z = 0, where exp(1/|x·y|) is infinite. Such a kernel is not `proved` in the first form (all inputs). Checked with
mpmath: the kernel grows without bound as x·y → 0."""
from __future__ import annotations

import mpmath
import pytest

import uapcheck


def _wp(body: str):
    result = uapcheck.check(f"tokens n\nattention {{ kernel k(x, y) = {body} }}\n", "t.uap")
    return next(s for s in result.root.walk() if s.rule == "WP-POSITIVE")


@pytest.mark.parametrize("body", ["exp(1 / abs(x . y))", "exp(exp(|x + y| / abs(x . y)))", "exp(exp(abs(log(|y|))))"])
def test_a_pole_on_a_sign_boundary_is_not_positivity_for_all_inputs(body):
    wp = _wp(body)
    assert not (wp.status == "proved" and wp.evidence.get("dimensions") == "d ≥ 1"), wp.claim


def test_the_pole_is_real():
    values = [mpmath.exp(1 / abs(mpmath.mpf(10) ** -k)) for k in range(1, 4)]
    assert values[0] < values[1] < values[2] and values[2] > mpmath.mpf(10) ** 400


def test_positive_kernels_with_positive_denominators_stay_proved():
    for body in ("exp(x . y / (1 + |x - y|^2))", "exp(-|x - y|)", "exp(|x + y| - |x - y|)"):
        wp = _wp(body)
        assert wp.status == "proved" and wp.evidence.get("dimensions") == "d ≥ 1", body
