"""The verifier on a count decided by Theorem F181 (the twin quotient at the true class sizes, no stand-in): the
connectivity and the diameter are re-derived on its own arcs, the count is reported `trusted` naming its lemma
(§18.5), never rejected for the stand-in sizes it does not state."""
from __future__ import annotations

from certificates import certificate_of, softmax_source

from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, verify


def test_the_class_map_count_is_trusted_and_the_rest_verified():
    cert = certificate_of(softmax_source("blocks(300) + strided(4)", 500))
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert (layers["data"]["layers"], layers["data"]["diameter"], layers["data"]["least"]) == (2, 2, True)
    assert "Theorem F181" in layers["certificate"]["reason"]
    assert all("stand-in size" not in c for c in layers["certificate"]["data"]["twin classes"])
    report = verify(cert)
    outcome = {s.rule: s for s in report.steps}
    assert not any(s.outcome == REJECTED for s in report.steps), [(s.rule, s.reason) for s in report.steps]
    assert outcome["PAT-CONNECTED"].outcome == VERIFIED
    assert outcome["PAT-LAYERS"].outcome == TRUSTED and "Lemma N" in outcome["PAT-LAYERS"].reason
