"""`uapcheck verify` on Theorems F21 and F22 (docs/theory.md §11.11): blocks + window (+ global) at
symbolic n and at a real size; the verifier's own table (uapcheck/verifier/symbolic_unions.py) re-derives
the twin classes, the reversal, the greedy period and the witness on its own arcs, and a forged claim is
rejected naming its step."""
from __future__ import annotations

import pytest
from certificates import certificate, certificate_of, rejects

from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, TRUSTED, VERIFIED, families, verify


def _symbolic(pattern: str) -> str:
    return f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("name, theorem", [("blocks_window_n.uap", "F21"), ("blocks_window_global_n.uap", "F22")])
def test_the_catalog_files_rest_on_the_verifier_s_own_theorem(name, theorem):
    report = verify(certificate(name))
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason and "instances" in s.reason


@pytest.mark.parametrize("pattern", ["blocks(5) + window(2)", "blocks(3) + window(1)", "blocks(6) + window(1) + star",
                                     "global(2) + window(1) + blocks(3)"])
def test_other_members_are_rechecked(pattern):
    report = verify(certificate_of(_symbolic(pattern)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_the_table_matches_by_the_theorems_hypotheses():
    def fam(pattern):
        return families.match(parse_source(_symbolic(pattern), "t.uap"))
    assert fam("blocks(4) + window(1)").theorem == "F21"
    assert fam("blocks(4) + window(1) + global(2)").theorem == "F22"
    assert fam("blocks(4) + window(3)") is None  # w ≥ b − 1: the union is window(3)
    assert fam("blocks(4) + window(1) cyclic") is None
    assert fam("blocks(4) + window(1)").d(21) == 10 and fam("blocks(4) + window(1)").d(24) == 11


def test_forged_claims_are_rejected():
    cert = certificate("blocks_window_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("blocks_window_n.uap")
    _step(cert, "PAT-CONNECTED")["data"]["from"] = 9
    assert rejects(cert, "PAT-CONNECTED")
    cert = certificate("blocks_window_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = {"op": "+", "args": [_step(cert, "PAT-LAYERS")["data"]["layers"], -1]}
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("blocks_window_n.uap")
    case = _step(cert, "SYM-AUT")["data"]["order cases"][0]
    case["order"] = {"op": "*", "args": [2, case["order"]]}
    assert rejects(cert, "SYM-AUT")
    cert = certificate("blocks_window_global_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("blocks_window_global_n.uap")
    _step(cert, "SYM-AUT")["data"]["name"] = "D_n"
    assert rejects(cert, "SYM-AUT")


def test_a_real_size_is_decided_without_a_token_graph_and_rechecked():
    cert = certificate_of("tokens 1048576\n" + _symbolic("window(1) + blocks(4) + global(1)"))
    report = verify(cert)
    steps = {s.rule: s for s in report.steps}
    assert steps["PAT-LAYERS"].outcome == VERIFIED and "Theorem F22" in steps["PAT-LAYERS"].reason
    assert steps["PAT-CONNECTED"].outcome == VERIFIED
    assert steps["SYM-AUT"].outcome in (VERIFIED, TRUSTED)
    assert [s.rule for s in report.steps if s.outcome == REJECTED] == []


@pytest.mark.parametrize("name, theorem", [("strided_global_n.uap", "F23"), ("cyclic_relay_n.uap", "F24"),
                                           ("blocks_strided_n.uap", "F25")])
def test_the_clique_and_path_families_rest_on_the_verifier_s_own_theorem(name, theorem):
    report = verify(certificate(name))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and f"Theorem {theorem}" in s.reason


@pytest.mark.parametrize("pattern", ["strided(2) + global(2)", "strided(4) + star", "offsets {-1} cyclic + global(2)",
                                     "offsets {0, 1} cyclic + star", "blocks(4) + strided(4)"])
def test_other_clique_and_path_members_are_rechecked(pattern):
    report = verify(certificate_of(_symbolic(pattern)))
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_forged_clique_and_path_claims_are_rejected():
    cert = certificate("blocks_strided_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 2  # 3 at n ≡ 1 (mod 3)
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("strided_global_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("strided_global_n.uap")
    case = _step(cert, "SYM-AUT")["data"]["order cases"][1]
    case["order"] = {"op": "*", "args": [3, case["order"]]}
    assert rejects(cert, "SYM-AUT")
    cert = certificate("cyclic_relay_n.uap")
    _step(cert, "SYM-AUT")["data"]["name"] = "C_n"
    assert rejects(cert, "SYM-AUT")
    cert = certificate("cyclic_relay_n.uap")
    _step(cert, "PAT-CONNECTED")["data"]["from"] = 3
    assert rejects(cert, "PAT-CONNECTED")


def test_f26_is_rechecked_and_claims_the_group_of_wider_windows_off_the_open_classes():
    report = verify(certificate("cyclic_window_strided_n.uap"))
    assert report.ok and report.complete
    assert all(s.outcome == VERIFIED and "Theorem F26" in s.reason for s in report.steps
               if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))
    cert = certificate("cyclic_window_strided_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 2  # F56: 3 = D layers, least; 2 is below the diameter
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("cyclic_window_strided_n.uap")
    _step(cert, "PAT-LAYERS")["data"]["layers"] = 4  # F56 states 3
    assert rejects(cert, "PAT-LAYERS")
    cert = certificate("cyclic_window_strided_n.uap")
    _step(cert, "PAT-CONNECTED")["data"]["diameter"] = 2
    assert rejects(cert, "PAT-CONNECTED")
    fam = families.match(parse_source(_symbolic("window(2) cyclic + strided(6)"), "t.uap"))
    assert fam.theorem == "F26" and fam.name("D_n when 6 | n, else the reflection") and fam.group_open == ()  # F201
    report = verify(certificate_of(_symbolic("window(2) cyclic + strided(7)")))
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
