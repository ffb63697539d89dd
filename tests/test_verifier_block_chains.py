"""`uapcheck verify` on Theorem F95 (docs/theory.md §11.11): `blocks(b) + dilated(w, r)` with r ≥ 2, 2wr ≤ b, chains
of blocks joined by the dilation. The verifier's own table (uapcheck/verifier/blocks_dilated_chains.py) restates the
range, D and the order by residue, re-checks them on its own arcs (BFS, nauty) and the far-clique premise at every
root; a forged claim is rejected naming its step."""
from __future__ import annotations

import json

import pytest

from certificates import assert_rests_on, certificate_of, forged, rejects

from uapcheck import spec as S
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.blocks_dilated_chains import far_clique_problem
from uapcheck.verifier.trees import encode


def _source(pattern: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


@pytest.mark.parametrize("pattern", ["blocks(4) + dilated(1, 2)", "blocks(6) + dilated(1, 3)", "blocks(8) + dilated(2, 2)"])
def test_the_chain_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(_source(pattern)), "Theorem F95")


def test_a_concrete_length_far_past_the_engine_is_verified():
    """At n = 65,537 the layer count and D are re-checked (F95 at that n); the order, too large to restate, is trusted by
    name, never rejected."""
    report = verify(certificate_of(_source("blocks(4) + dilated(1, 2)", "tokens 65537\n")))
    outcome = {s.rule: s.outcome for s in report.steps}
    assert outcome["PAT-CONNECTED"] == outcome["PAT-LAYERS"] == VERIFIED and REJECTED not in outcome.values()
    assert "32768 layers (least: True)" in next(s.reason for s in report.steps if s.rule == "PAT-LAYERS")


def test_a_forged_order_case_is_rejected():
    cert = certificate_of(_source("blocks(4) + dilated(1, 2)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(5)
    assert rejects(cert, "SYM-AUT")


def test_a_forged_layer_count_is_rejected():
    """D layers, least: a certificate claiming D + 1, or D not least, or D − 1 is rejected."""
    cert = certificate_of(_source("blocks(6) + dilated(1, 3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == step["data"]["diameter"]
    for key, forge in (("least", False), ("layers", encode(4)), ("layers", encode(2))):
        assert rejects(forged(cert, "PAT-LAYERS", key, forge), "PAT-LAYERS"), key


def test_a_range_below_the_theorem_is_rejected():
    cert = certificate_of(_source("blocks(4) + dilated(1, 2)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["from"] == encode(8)
    step["data"]["from"] = encode(7)
    assert rejects(cert, "SYM-AUT")


def test_the_far_clique_premise_is_rechecked_on_the_verifier_s_arcs():
    """The premise holds for the chains at their diameter, and fails for a diameter one too small and for a pattern
    whose far positions are not pairwise adjacent (blocks(3) + dilated(2, 2) at n = 15, D = 4, outside F95)."""
    for b, w, r, n, d in ((4, 1, 2, 9, 4), (4, 1, 2, 12, 5), (8, 2, 2, 21, 5), (6, 1, 3, 20, 6), (6, 1, 3, 22, 7)):
        pattern = S.PatternUnion((S.Blocks(b), S.Dilated(w, r)))
        assert far_clique_problem(pattern, n, d) is None, (b, w, r, n)
        assert "farther" in far_clique_problem(pattern, n, d - 1)
    assert "not adjacent" in far_clique_problem(S.PatternUnion((S.Blocks(3), S.Dilated(2, 2))), 15, 4)


@pytest.mark.parametrize("pattern", ["blocks(4) + dilated(1, 2) + global(1)", "blocks(6) + dilated(1, 3) + global(7)"])
def test_the_chain_with_globals_rests_on_the_verifier_s_own_theorem(pattern):
    """F96: the verifier's own range, order by residue and swap witness re-checked on its arcs."""
    assert_rests_on(certificate_of(_source(pattern)), "Theorem F96")


def test_a_forged_claim_of_the_chain_with_globals_is_rejected():
    """F96: an order, a layer count of 2 or 4, or a range below the theorem's is rejected."""
    cert = certificate_of(_source("blocks(4) + dilated(1, 2) + global(1)"))
    forgeries = [("SYM-AUT", lambda d: d["order cases"][0].update(order=encode(7))),
                 ("PAT-LAYERS", lambda d: d.update(layers=encode(2))),
                 ("PAT-LAYERS", lambda d: d.update(layers=encode(4))),
                 ("SYM-AUT", lambda d: d.update({"from": encode(16)}))]
    for rule, forge in forgeries:
        forged = json.loads(json.dumps(cert))
        forge(next(s for s in forged["steps"] if s["rule"] == rule)["data"])
        report = verify(forged)
        assert not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps), rule


def test_the_verifier_matches_the_chains_by_their_hypotheses():
    from uapcheck.parse import parse_source
    from uapcheck.verifier import families

    def fam(pattern):
        return families.match(parse_source(_source(pattern), "t.uap"))
    assert fam("blocks(4) + dilated(1, 2)").theorem == "F95" and fam("blocks(4) + dilated(1, 2)").low == 8
    assert fam("blocks(4) + dilated(1, 2) + star").theorem == "F96" and fam("blocks(4) + dilated(1, 2) + star").low == 17
    assert fam("blocks(3) + dilated(2, 2)").theorem == "F115"  # 2wr > b: Theorems F115, F116, not F95
    assert fam("blocks(5) + dilated(2, 2) + global(1)") is None
    assert fam("blocks(4) + dilated(1, 4)").theorem == "F63"
