"""An unnormalised head's weights keep the row factor e^(b(i, i)): its fixed bias gives offset classes only when
b(i, i) is the same on every row (docs/theory.md §16.1). The verifier refuses the offset function otherwise, so a
certificate claiming the reflection for `score exp(x . y)` with `bias b(i, j) = i - |i - j|` (G is trivial) is
rejected, while the normalised head with the same bias keeps its symmetric classes."""
from __future__ import annotations

import pytest

from uapcheck.parse import parse_source
from uapcheck.verifier.check import Reject
from uapcheck.verifier.rules_positions import offset_class, offset_function

ROW_BIAS = "bias b(i, j) = i - |i - j|"


def _spec(head: str, bias: str = ROW_BIAS):
    return parse_source(f"tokens 8\nattention {{\n  {head}\n  {bias}\n}}\n", "t.uap")


def test_an_unnormalised_head_with_a_row_dependent_diagonal_has_no_offset_classes():
    spec = _spec("score s(x, y) = exp(x . y)")
    with pytest.raises(Reject, match="does not cancel"):
        offset_function(spec, spec.heads[0])


def test_the_normalised_head_with_the_same_bias_keeps_its_symmetric_classes():
    spec = _spec("kernel k(x, y) = exp(x . y)")
    assert offset_class(spec, spec.heads[0])[0] == "symmetric"


def test_an_unnormalised_head_with_a_constant_diagonal_keeps_its_classes():
    spec = _spec("score s(x, y) = exp(x . y)", "bias b(i, j) = -|i - j|")
    assert offset_class(spec, spec.heads[0])[0] == "symmetric"


def test_the_certificate_claiming_the_reflection_is_not_ok():
    from certificates import certificate_of
    from uapcheck.verifier import verify
    cert = certificate_of("tokens 8\nattention {\n  score s(x, y) = exp(x . y)\n  " + ROW_BIAS + "\n}\n")
    report = verify(cert)
    dense = next((s for s in cert["steps"] if s["rule"] == "SYM-DENSE"), None)
    if dense is not None and dense["status"] == "proved" and (dense["data"] or {}).get("group") == "reflection":
        assert any(s.rule == "SYM-DENSE" and s.outcome == "rejected" for s in report.steps)
    else:  # the engine no longer claims that group (its group step is undecided)
        assert cert["group"] is None or cert["group"].get("name") != "reflection"
        assert report.ok
