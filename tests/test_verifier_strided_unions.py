"""`uapcheck verify` on Theorem F89 (docs/theory.md §11.11): two or more strides with gcd 1 (not two coprime ones
alone). The verifier's own restatement (uapcheck/verifier/strided_unions.py) re-derives the range, D, the order by
residue (its own twin classes and quotient count with nauty) and the layer count (the common-neighbour premise, or the
transposition witness) on its own residue graph and arcs; a forged claim is rejected naming its step."""
from __future__ import annotations

import pytest

from certificates import assert_rests_on, certificate_of, rejects, softmax_source

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier.trees import encode


@pytest.mark.parametrize("pattern", ["strided(2) + strided(3) + strided(5)", "strided(4) + strided(6) + strided(9)",
                                     "strided(6) + strided(10) + strided(15)"])
def test_the_union_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F89")


def test_a_large_length_rests_on_the_theorem_without_arcs():
    """At n = 1,048,576 (about 6·10¹¹ arcs) the connectivity and the layers are re-checked through the theorem."""
    report = verify(certificate_of(softmax_source("strided(4) + strided(6) + strided(9)", 1_048_576)))
    steps = {s.rule: s for s in report.steps}
    assert not report.rejected and steps["SYM-AUT"].outcome != REJECTED
    assert all(steps[r].outcome == "verified" and "Theorem F89" in steps[r].reason
               for r in ("PAT-CONNECTED", "PAT-LAYERS"))


def test_a_forged_order_case_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3) + strided(5)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(4)
    assert rejects(cert, "SYM-AUT")


def test_a_forged_diameter_is_rejected():
    cert = certificate_of(softmax_source("strided(6) + strided(10) + strided(15)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"] = encode(2)
    assert rejects(cert, "PAT-CONNECTED")


def test_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3) + strided(5)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["from"] = encode(29)
    assert rejects(cert, "PAT-LAYERS")


def test_a_layer_count_below_the_witness_is_rejected():
    """strided(4) + strided(6) + strided(9): D = 2, a transposition witness makes 3 least; 2 is rejected."""
    cert = certificate_of(softmax_source("strided(4) + strided(6) + strided(9)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == 3 and step["data"]["least"]
    step["data"]["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")


def test_a_count_not_shown_least_cannot_be_claimed_least():
    """strided(4) + strided(5) + strided(6): neither the premise nor a witness nor Theorem F112's table; D + 1 = 3 is
    not least."""
    cert = certificate_of(softmax_source("strided(4) + strided(5) + strided(6)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == 3 and not step["data"]["least"]
    step["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")


def test_the_far_adjacency_table_gives_d_least_and_rejects_d_plus_one_claimed_least():
    """strided(3) + strided(4) + strided(5): Theorem F112's table on the residue graph, re-derived by the verifier: 2 =
    D layers, least, verified; 3 claimed least is rejected, and 2 claimed for {4, 5, 6} (no table) is rejected."""
    cert = certificate_of(softmax_source("strided(3) + strided(4) + strided(5)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == 2 and step["data"]["least"]
    report = verify(cert)
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert any("Theorem F112" in s.reason for s in report.steps if s.rule == "PAT-LAYERS")
    step["data"]["layers"] = 3
    assert rejects(cert, "PAT-LAYERS")
    other = certificate_of(softmax_source("strided(4) + strided(5) + strided(6)"))
    step = next(s for s in other["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = 2
    step["data"]["least"] = True
    assert rejects(other, "PAT-LAYERS")


@pytest.mark.parametrize("pattern", ["strided(2) + strided(3) + strided(5) + star",
                                     "strided(4) + strided(6) + strided(9) + global(2)", "strided(2) + strided(3) + star"])
def test_globals_rest_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F90")


def test_globals_a_forged_order_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3) + global(2)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(4)
    assert rejects(cert, "SYM-AUT")


def test_globals_two_layers_below_the_witness_are_rejected():
    cert = certificate_of(softmax_source("strided(6) + strided(10) + strided(15) + star"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["layers"] == 3 and step["data"]["least"]
    step["data"]["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")


def test_globals_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3) + star"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["from"] = encode(6)
    assert rejects(cert, "PAT-LAYERS")
