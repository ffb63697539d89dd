"""At an integer n, Theorems F26 and F201 (`window(w) cyclic + strided(s)`) name the group of n's class — D_n when
s | n, else the reflection i ↦ n + 1 − i — not both classes; the verifier checks the name against n's class and rejects
the other class's name (the order is checked apart from the name)."""
from __future__ import annotations

import pytest

from certificates import certificate_of, forged, rejects, softmax_source  # tests/ is on sys.path
from uapcheck.verifier import verify

REFLECTION = "the reflection i ↦ n + 1 − i"


def _group(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]


@pytest.mark.parametrize("pattern, n, theorem, name, other", [
    ("window(1) cyclic + strided(4)", 1_048_576, "F26", "D_n", REFLECTION),
    ("window(1) cyclic + strided(4)", 1_048_577, "F26", REFLECTION, "D_n"),
    ("window(5) cyclic + strided(7)", 1_048_579, "F201", "D_n", REFLECTION),
    ("window(5) cyclic + strided(7)", 1_048_580, "F201", REFLECTION, "D_n"),
])
def test_the_group_of_the_length_s_class_is_named_and_checked(pattern, n, theorem, name, other):
    cert = certificate_of(softmax_source(pattern, n))
    data = _group(cert)
    assert data["name"] == name
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step = next(s for s in report.steps if s.rule == "SYM-AUT")
    assert step.outcome == "verified" and f"Theorem {theorem}" in step.reason
    assert rejects(forged(cert, "SYM-AUT", "name", other), "SYM-AUT")
    assert rejects(forged(cert, "SYM-AUT", "name", f"D_n when {pattern[-2]} | n, else {REFLECTION}"), "SYM-AUT")


def test_at_a_symbolic_n_both_classes_are_named():
    cert = certificate_of(softmax_source("window(5) cyclic + strided(7)"))
    assert _group(cert)["name"] == f"D_n when 7 | n, else {REFLECTION}"
    assert verify(cert).ok
    assert rejects(forged(cert, "SYM-AUT", "name", "D_n"), "SYM-AUT")
