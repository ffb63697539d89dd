"""`uapcheck verify` on Theorem F73 (docs/theory.md §11.11): `strided(s) + strided(t)` with coprime strides. The
verifier's own restatement (uapcheck/verifier/strided_pairs.py) re-derives the range, the order by residue (its own
pair count with nauty) and the common-neighbour premise on its own arcs; a forged claim is rejected naming its step."""
from __future__ import annotations

from itertools import permutations

import pytest

from certificates import assert_rests_on, certificate_of, rejects, softmax_source

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier import strided_pairs as restated
from uapcheck.verifier.trees import encode


@pytest.mark.parametrize("pattern", ["strided(2) + strided(3)", "strided(5) + strided(3)"])
def test_the_pair_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F73")


def test_a_large_length_rests_on_the_theorem_without_arcs():
    """At n = 1,048,576 (about 4·10¹¹ arcs) the connectivity and the layers are re-checked through the theorem."""
    report = verify(certificate_of(softmax_source("strided(4) + strided(9)", 1_048_576)))
    steps = {s.rule: s for s in report.steps}
    assert not report.rejected and steps["SYM-AUT"].outcome != REJECTED  # the order is too large to restate: trusted
    assert all(steps[r].outcome == "verified" and "Theorem F73" in steps[r].reason
               for r in ("PAT-CONNECTED", "PAT-LAYERS"))


def test_a_forged_order_case_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(4)
    assert rejects(cert, "SYM-AUT")


def test_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(3)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["from"] = encode(5)
    assert rejects(cert, "PAT-LAYERS")


def test_a_layer_count_of_one_is_rejected():
    cert = certificate_of(softmax_source("strided(2) + strided(5)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 1
    assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("s, t", [(2, 3), (3, 4), (2, 5)])
def test_the_verifier_s_pair_count_is_every_pair_tried(s, t):
    for rho in range(s * t):
        heavy = {(x % s, x % t) for x in range(1, rho + 1)}
        tried = sum(1 for a in permutations(range(s)) for b in permutations(range(t))
                    if {(a[x], b[y]) for x, y in heavy} == heavy)
        assert restated.pairs_keeping(s, t, rho) == tried, (s, t, rho)


def test_the_premise_check_finds_a_failure():
    """The common-neighbour premise fails for strided(2) + strided(3) at n = 5 (a cell is empty), and holds at 6."""
    from uapcheck.spec import PatternUnion, Strided
    pattern = PatternUnion((Strided(2), Strided(3)))
    assert restated.premise_problem(pattern, 6) is None
    assert restated.premise_problem(pattern, 5) is not None
