"""The verifier binds each step's certificate block to the checked copies of its values (uapcheck/verifier/blocks.py,
docs/theory.md §18.1): a false number placed only in the block (a family theorem's claims, a verdict premise's facts,
a mixed row's witness) is rejected; the dense head's S_n generators are accepted at an integer n; a reweight that
vanishes on the diagonal is named as such."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate, certificate_of

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier.blocks import closed_form

UNION = "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(4) + window(2) + strided(5)\n}\n"
LEMMA_Q = ("tokens 6\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern causal\n  reweight c(i, j) = 1 + j - i\n}\n")


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _rejected_at(cert: dict, rule: str) -> bool:
    report = verify(cert)
    return not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)


@pytest.fixture(scope="module")
def union() -> dict:
    cert = certificate_of(UNION)
    assert verify(cert).ok
    return cert


def test_family_claims_order_is_bound(union):
    bad = copy.deepcopy(union)
    claims = _step(bad, "SYM-AUT")["certificate"]["claims"]
    assert claims["order"][0]["order"] == 2
    claims["order"][0]["order"] = 3
    assert _rejected_at(bad, "SYM-AUT")


def test_verdict_premise_facts_are_bound(union):
    bad = copy.deepcopy(union)
    premises = _step(bad, "VERDICT-T1")["certificate"]["premises"]
    group = next(p for p in premises if p["rule"] == "SYM-AUT")["facts"]["group"]
    group["order"][0]["order"] = 3
    assert _rejected_at(bad, "VERDICT-T1")


def test_verdict_premise_rule_and_status_are_bound(union):
    bad = copy.deepcopy(union)
    premises = _step(bad, "VERDICT-T1")["certificate"]["premises"]
    premises[0]["status"] = "refuted"
    assert _rejected_at(bad, "VERDICT-T1")


def test_twins_residue_order_is_bound():
    cert = certificate("blocks_window_strided_twins_n.uap")
    assert verify(cert).ok
    claims = _step(cert, "SYM-AUT")["certificate"]["claims"]
    piece = next(p for p in claims["order"] if 6 in p["residues"])
    assert piece["order"] == 8
    piece["order"] = 16
    assert _rejected_at(cert, "SYM-AUT")


def test_pairs_closed_form_order_is_bound():
    cert = certificate("blocks_window_strided_pairs_n.uap")
    assert verify(cert).ok
    claims = _step(cert, "SYM-AUT")["certificate"]["claims"]
    piece = next(p for p in claims["order"] if 5 in p["residues"])
    assert piece["order"] == "4096 · 4^(⌊n/10⌋ − 4)"
    piece["order"] = "8192 · 4^(⌊n/10⌋ − 4)"
    assert _rejected_at(cert, "SYM-AUT")


@pytest.mark.parametrize("edit", ["row", "n", "visible", "negative keys", "negative q"])
def test_mixed_row_block_is_bound(edit):
    cert = certificate_of(LEMMA_Q)
    assert cert["verdict"] == "ILL-POSED" and verify(cert).ok
    block = _step(cert, "WP-POSITIVE")["certificate"]
    assert block["kind"] == "mixed-row"
    if edit == "row":
        block["row"] = 2
    elif edit == "n":
        block["n"] = 2
    elif edit == "visible":
        block["visible"] = [2, 3]
    elif edit == "negative keys":
        block["negative at"]["keys"] = [0, 1, 1]
    else:
        block["negative at"]["q"] = 0
    assert _rejected_at(cert, "WP-POSITIVE")


def test_unbound_block_values_are_reported(union):
    report = verify(union)
    assert report.ok and report.unbound
    from uapcheck.verifier.report import statement_lines
    assert "the certificate blocks' values that no check compares" in statement_lines(report)[-1]


def test_closed_form_reader():
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)
    assert closed_form("8192 · 4^(⌊n/10⌋ − 4)", {"n": n}) == 8192 * 4 ** (sympy.floor(n / 10) - 4)
    assert closed_form("2 · 5!", {}) == 240
    assert closed_form("m + 1", {"n": n}) is None  # an undeclared name is not read
    assert closed_form("__import__('os')", {"n": n}) is None


@pytest.mark.parametrize("n", [3, 4, 8])
def test_dense_head_s_n_generators(n):
    cert = certificate_of(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n}}\n")
    assert cert["group"]["name"] == "S_n" and len(cert["group"]["generators"]) == 2
    assert verify(cert).ok
    bad = copy.deepcopy(cert)
    bad["group"]["generators"][1] = list(range(1, n + 1))  # the identity in place of the n-cycle: not S_n's pair
    assert not verify(bad).ok


def test_reweight_vanishing_on_the_diagonal_is_named():
    # (j − i)²: 0 on the diagonal and positive off it (`j - i` has factors −1, 0, 1 on row 2 of `window(1)`, so it is
    # ILL-POSED from n = 3 on by Lemma T, docs/theory.md §4)
    text = "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(1)\n  reweight c(i, j) = (j - i)^2\n}\n"
    cert = certificate_of(text)
    assert cert["verdict"] == "INCONCLUSIVE"
    step = _step(cert, "POS-OFFSET")
    assert step["status"] == "undecided"
    reason = step["evidence"]["reason"]
    assert "zoo" not in reason and "`c(i, i)` = 0 on the diagonal" in reason
