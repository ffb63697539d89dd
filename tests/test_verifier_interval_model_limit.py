"""The verifier's interval model refuses patterns whose neighbourhoods have too many intervals (a strided part puts
n/s single positions in each): `blocks(600000) + strided(4)` at n = 1,048,576 ran out of memory in its searches; it
now ends at once with its connectivity and group steps trusted, naming the limit."""
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


def test_the_certificate_at_two_to_the_twenty_ends_with_a_clear_report():
    from uapcheck.verifier import verify
    cert = certificate_of(softmax_source("blocks(600000) + strided(4)", 1048576))
    start = time.process_time()
    report = verify(cert)
    assert time.process_time() - start < 30
    steps = {s.rule: s for s in report.steps}
    assert not report.ok and all(s.outcome != "rejected" for s in report.steps)
    assert steps["PAT-CONNECTED"].outcome == "trusted" and "16,384" in steps["PAT-CONNECTED"].reason
