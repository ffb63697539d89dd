"""The verifier's interval model refuses patterns whose neighbourhoods have too many intervals (a strided part puts
n/s single positions in each): `blocks(600000) + strided(4)` at n = 1,048,576 ran out of memory in its searches; the
model now refuses it at once, naming the limit, and the verifier decides it on its cells instead (grid_cells.py)."""
from __future__ import annotations

import time

import pytest

from certificates import certificate_of, softmax_source
from uapcheck import parse
from uapcheck.verifier import intervals as I


def _pattern(text: str):
    return parse.parse_source(softmax_source(text, 1048576), "t.uap").heads[0].pattern


def test_a_neighbourhood_of_half_a_million_intervals_is_refused():
    with pytest.raises(I.Unsupported, match="524,292 intervals"):
        I.Spans([_pattern("blocks(600000) + strided(4)")], 1048576)


def test_a_wide_stride_stays_in_the_model():
    spans = I.Spans([_pattern("blocks(524288) + strided(262144)")], 1048576)
    assert spans.neighbourhood(1) == [(1, 524289), (786433, 786433)]  # 1 + 262,144 and 1 + 524,288 merged


def test_the_certificate_at_two_to_the_twenty_is_decided_on_its_cells():
    from uapcheck.verifier import verify
    cert = certificate_of(softmax_source("blocks(600000) + strided(4)", 1048576))
    start = time.process_time()
    report = verify(cert)
    assert time.process_time() - start < 30
    steps = {s.rule: s for s in report.steps}
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    for rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):  # the model's limit no longer leaves them trusted
        assert "cells of blocks(600000) × residues mod 4" in steps[rule].reason
    assert "(order 24)" in steps["SYM-AUT"].reason  # the four columns are exchanged by the quotient's group
