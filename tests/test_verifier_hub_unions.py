"""`uapcheck verify` on Theorems F31 and F33 (docs/theory.md §11.11): globals added to a base pattern at
symbolic n; the verifier's own table (uapcheck/verifier/hub_unions.py) re-derives the range, the order and the
witness, re-checks them on its own arcs, and a forged claim is rejected naming its step."""
from __future__ import annotations

import pytest
from certificates import assert_rests_on, certificate, certificate_of, forged, rejects

from uapcheck.parse import parse_source
from uapcheck.verifier import VERIFIED, families, verify
from uapcheck.verifier.trees import encode


def _symbolic(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


@pytest.mark.parametrize("name, theorem", [("window_strided_global_n.uap", "F33"),
                                           ("window_wide_strided_global_n.uap", "F33"),
                                           ("dilated_global_n.uap", "F31"),
                                           ("blocks_strided_coprime_n.uap", "F34")])
def test_the_catalog_files_rest_on_the_verifier_s_own_theorem(name, theorem):
    report = verify(certificate(name))
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason and "instances" in s.reason


@pytest.mark.parametrize("pattern", ["offsets {0, 1, 2} + global(1)", "window(1) + dilated(3, 4) + global(2)",
                                     "offsets {-1, -3} + star", "window(1) + strided(3) + global(1)",
                                     "offsets {0, 1, 2} cyclic + global(2)", "dilated(1, 2) + global(2)",
                                     "window(3) + strided(2) + global(2)", "window(2) + strided(4) + global(1)",
                                     "blocks(6) + strided(3)", "blocks(3) + strided(2)", "blocks(5) + strided(3)"])
def test_other_members_are_rechecked(pattern):
    report = verify(certificate_of(_symbolic(pattern)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_the_table_matches_by_the_theorems_hypotheses():
    def fam(pattern):
        return families.match(parse_source(_symbolic(pattern), "t.uap"))
    assert fam("dilated(2, 3) + global(1)").theorem == "F31"
    assert fam("window(2) + strided(3) + global(1)").theorem == "F33"
    assert fam("window(2) + strided(3) + global(1)").least and fam("window(2) + strided(3) + global(1)").layers == 2
    assert fam("window(2) + strided(4) + global(1)").least and fam("window(2) + strided(4) + global(1)").layers == 2
    assert fam("window(8) + strided(10) + global(1)").least  # s = w + 2 ≥ 10: F81 by its step (6′)
    assert fam("window(8) + strided(10) + global(1)").layers == 2
    assert fam("window(8) + strided(8) + global(1)").least  # s = 8: F7 by its colour refinement (6″)
    assert fam("blocks(4) + strided(3)").theorem == "F34" and fam("blocks(4) + strided(3)").low == 20
    assert fam("blocks(3) + strided(4)").theorem == "F44" and fam("blocks(2) + strided(4)") is None
    assert fam("window(1) + strided(5) + global(2)").witness(40)[0] == 3
    assert fam("window(1) cyclic + strided(5) + global(2)") is None
    assert fam("blocks(4) + strided(3) + global(1)") is None


def test_a_forged_order_is_rejected():
    cert = certificate_of(_symbolic("window(1) + strided(5) + global(2)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order"] = encode(8)
    assert rejects(cert, "SYM-AUT")


def test_a_forged_range_is_rejected():
    cert = certificate_of(_symbolic("dilated(2, 3) + global(1)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["from"] = encode(10)
    assert rejects(cert, "PAT-LAYERS")


def test_a_forged_order_case_of_blocks_and_strides_is_rejected():
    cert = certificate_of(_symbolic("blocks(4) + strided(3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(7)
    assert rejects(cert, "SYM-AUT")


@pytest.mark.parametrize("pattern", ["blocks(2) + strided(3)", "blocks(3) + strided(5)"])
def test_blocks_below_the_stride_rest_on_the_verifier_s_own_theorem(pattern):
    """Theorem F44 (b < s, b ∤ s): D per residue, the order and D + 1 layers (not least) re-derived."""
    assert_rests_on(certificate_of(_symbolic(pattern)), "Theorem F44")


def test_a_forged_order_case_below_the_stride_is_rejected():
    cert = certificate_of(_symbolic("blocks(2) + strided(3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(7)
    assert rejects(cert, "SYM-AUT")


@pytest.mark.parametrize("pattern", ["offsets {1, 5} cyclic + global(2)", "offsets {-5, -1, 1, 5} cyclic + star",
                                     "window(2) cyclic + offsets {7} cyclic + global(1)",
                                     "window(1) + offsets {0, 4} cyclic + star"])
def test_cyclic_bases_with_a_hole_rest_on_the_verifier_s_own_theorem(pattern):
    """Theorem F62: its own ball certificate, range and onset (nauty orders on its own arcs)."""
    assert_rests_on(certificate_of(_symbolic(pattern)), "Theorem F62")


def test_a_forged_order_of_a_cyclic_hole_is_rejected():
    cert = certificate_of(_symbolic("offsets {-5, -1, 1, 5} cyclic + global(2)"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order"] = encode(2)
    assert rejects(cert, "SYM-AUT")


def test_a_range_of_a_cyclic_hole_below_its_onset_is_rejected():
    """offsets {1, 5} cyclic + star: at n = 24 the order is 2, so a range from 24 is rejected."""
    cert = certificate_of(_symbolic("offsets {1, 5} cyclic + star"))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["data"]["from"] == encode(25)
    step["data"]["from"] = encode(24)
    assert rejects(cert, "SYM-AUT")


@pytest.mark.parametrize("pattern, theorem", [("blocks(2) + dilated(1, 2)", "F63"), ("blocks(3) + dilated(2, 3)", "F63"),
                                              ("blocks(5) + window(1) + strided(5)", "F64"),
                                              ("blocks(7) + window(2) + strided(7)", "F64"),
                                              ("blocks(4) + window(1) + strided(4)", "F64")])
def test_grids_rest_on_the_verifier_s_own_theorem(pattern, theorem):
    """Theorems F63 and F64: the verifier's own range, D and order by residue, and (F64) the block exchange on its arcs."""
    assert_rests_on(certificate_of(_symbolic(pattern)), f"Theorem {theorem}")


@pytest.mark.parametrize("pattern", ["blocks(3) + dilated(1, 3)", "blocks(5) + window(1) + strided(5)"])
def test_a_forged_order_case_of_a_grid_is_rejected(pattern):
    cert = certificate_of(_symbolic(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    step["data"]["order cases"][0]["order"] = encode(5)
    assert rejects(cert, "SYM-AUT")


def test_a_forged_layer_count_of_blocks_and_dilations_is_rejected():
    """F80: D layers, least. A certificate claiming D + 1, or D not least, or D − 1 is rejected."""
    cert = certificate_of(_symbolic("blocks(3) + dilated(1, 3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == step["data"]["diameter"]
    for key, forge in (("least", False), ("layers", encode(4)), ("layers", encode(2))):
        assert rejects(forged(cert, "PAT-LAYERS", key, forge), "PAT-LAYERS"), key


def test_the_least_degree_clique_premise_is_rechecked_on_the_verifier_s_arcs():
    """F80's premise at one length: it holds for blocks(b) + dilated(w, b) at its diameter, and the check rejects a
    pattern where two far positions are adjacent with no common neighbour in the ball (window(2) + strided(4) at
    n = 45, D = 2, far pairs (c + 1, c + 3)) and a diameter one too small."""
    from uapcheck import spec as S
    from uapcheck.verifier.blocks_dilated import least_degree_clique_problem
    for b, w, n, d in ((2, 1, 6, 3), (3, 2, 17, 4), (4, 1, 15, 4)):
        pattern = S.PatternUnion((S.Blocks(b), S.Dilated(w, b)))
        assert least_degree_clique_problem(pattern, n, d) is None
        assert "farther" in least_degree_clique_problem(pattern, n, d - 1)
    problem = least_degree_clique_problem(S.PatternUnion((S.Window(2), S.Strided(4))), 45, 2)
    assert problem is not None and "break the least-degree clique premise" in problem


def test_a_range_of_the_window_grid_below_the_theorem_is_rejected():
    cert = certificate_of(_symbolic("blocks(5) + window(1) + strided(5)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["from"] = encode(25)
    assert rejects(cert, "PAT-LAYERS")


def test_window_strided_global_with_s_equal_w_plus_2_rests_on_f81():
    """F33 (b) with Theorem F81: window(2) + strided(4) + global(1) needs 2 layers, least; the verifier re-derives it
    with its own restatement of F81's check and the rooted views with nauty, and rejects 3 layers (the count before)."""
    cert = certificate_of(_symbolic("window(2) + strided(4) + global(1)"))
    report = verify(cert)
    assert report.ok and report.complete
    step = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "Theorem F33" in step.reason
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True and data["layers"] == 2
    data["layers"] = 3
    assert rejects(cert, "PAT-LAYERS")
