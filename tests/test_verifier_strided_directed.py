"""`uapcheck verify` on Theorem F114 (docs/theory.md §11.11): `strided(s)` with local parts whose jumps leaving a class
are not symmetric (F74, G trivial) needs D layers, least, where the pinning premise holds through one period past N₁.
The verifier restates it (uapcheck/verifier/strided_directed.py: its own constants, distances on its own arcs and its
own closure at every length of the check and at every instance) and rejects a least claim where its check fails."""
from __future__ import annotations

import pytest
from certificates import certificate_of, least_flag_flipped_is_rejected, rejects, softmax_source

from uapcheck import spec as S
from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode
from uapcheck.verifier.strided_directed import constants, directed_least, premise_problem


def _pattern(s: int, jumps: tuple) -> S.Pattern:
    return S.PatternUnion((S.Strided(s), S.Offsets(jumps, False)))


def test_d_layers_least_rest_on_the_verifier_s_own_check():
    cert = certificate_of(softmax_source("strided(5) + offsets {-3, 4}"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    step["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("pattern", ["strided(3) + offsets {-2, 5}", "strided(4) + offsets {-1, 3}"])
def test_least_where_the_premise_fails_is_rejected(pattern):
    assert least_flag_flipped_is_rejected(pattern, least=False)


def test_one_layer_less_is_rejected():
    cert = certificate_of(softmax_source("strided(5) + offsets {-3, 4}"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(3)   # D = 4: one layer too few
    assert rejects(cert, "PAT-LAYERS")


def test_the_restated_check():
    assert constants(8, [-5, 9])[1:] == (45, 13, 384)
    assert directed_least(5, [-3, 4], 95, _pattern(5, (-3, 4))) == 102
    assert directed_least(3, [-2, 5], 69, _pattern(3, (-2, 5))) is None
    assert directed_least(3, [-2, 5], 72, _pattern(3, (-2, 5))) == 88     # from 72 the premise holds
    assert directed_least(5, [-3, 3], 95, _pattern(5, (-3, 3))) is None   # symmetric: F98's business


def test_the_instance_check_names_the_clause():
    assert premise_problem(_pattern(3, (-2, 5)), 3, [-2, 5], 69) is not None
    assert "(Q1)" in premise_problem(_pattern(4, (-1, 3)), 4, [-1, 3], 70)
    assert "(Q0)" in premise_problem(_pattern(3, (-1, 1, 2)), 3, [-1, 1, 2], 34)
    assert premise_problem(_pattern(8, (-5, 9)), 8, [-5, 9], 313) is None
