"""The verifier on a count decided by Theorem F181 (the twin quotient at the true class sizes, no stand-in): the
connectivity and the diameter are re-derived on its own arcs; the count goes to the verifier's other routes (verified
there, or `trusted`, §18.5), never rejected for the stand-in sizes it does not state."""
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
    # no stand-in sizes to check: the verifier's other routes (its rooted views need G's generators, not listed here)
    assert outcome["PAT-LAYERS"].outcome in (VERIFIED, TRUSTED)
    assert "stand-in" not in outcome["PAT-LAYERS"].reason


def test_the_class_map_witness_is_verified_on_the_arcs():
    """`blocks(150) + strided(3) + global(1)` at n = 451 (a last block of one position): the search finds a view
    witness of depth 2 and reports a transposition of two classes' first members, which the verifier checks on its
    own arcs: 3 layers, least, verified."""
    cert = certificate_of(softmax_source("blocks(150) + strided(3) + global(1)", 451))
    layers = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert "Theorem F181" in layers["certificate"]["reason"]
    assert (layers["data"]["layers"], layers["data"]["diameter"], layers["data"]["least"]) == (3, 2, True)
    report = verify(cert)
    outcome = {s.rule: s for s in report.steps}
    assert outcome["PAT-LAYERS"].outcome == VERIFIED and "view witness" in outcome["PAT-LAYERS"].reason
    assert outcome["PAT-CONNECTED"].outcome == VERIFIED


def test_the_diameter_above_the_arc_limit_takes_one_search_per_twin_class():
    """`blocks(700) + strided(4)` at n = 1,200 (the interval model): 8 twin classes, so 8 backward searches instead of
    1,200 (which ran out of the verifier's 60 s budget); the group from the same classes."""
    cert = certificate_of(softmax_source("blocks(700) + strided(4)", 1200))
    report = verify(cert, seconds=60)
    outcome = {s.rule: s for s in report.steps}
    assert outcome["PAT-CONNECTED"].outcome == VERIFIED, outcome["PAT-CONNECTED"].reason
    assert "8 backward searches (one per twin class" in outcome["PAT-CONNECTED"].reason
    assert outcome["SYM-AUT"].outcome == VERIFIED
    assert not any(s.outcome == REJECTED for s in report.steps)
