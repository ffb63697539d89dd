"""`uapcheck verify` on Theorem F87 (docs/theory.md §11.11): a union with globals and other parts of integer sizes,
D = 2 from a checked bound, and D + 1 = 3 layers on it. The verifier (uapcheck/verifier/global_unions.py) re-reads
the heads' parts, re-derives the explicit pair and re-checks every length from the bound on its own arcs; a
tampered certificate is rejected."""
from __future__ import annotations

import copy

import pytest

from certificates import heads_certificate
from uapcheck.verifier import REJECTED, VERIFIED, verify


def _step(cert, rule="PAT-CONNECTED"):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _report(cert, rule="PAT-CONNECTED"):
    return next(s for s in verify(cert).steps if s.rule == rule)


CASES = [("blocks(4) + global(1)", "strided(4)"), ("blocks(2) + global(1)", "strided(3)"),
         ("offsets {0, 2} cyclic", "blocks(3) + global(1)"), ("causal", "blocks(3) + global(1)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_diameter_and_the_layers_are_verified(patterns):
    cert = heads_certificate(*patterns)
    assert _step(cert)["certificate"]["kind"] == "global union"
    for rule in ("PAT-CONNECTED", "PAT-LAYERS"):
        got = _report(cert, rule)
        assert got.outcome == VERIFIED, got.reason
    assert "F87" in _report(cert).reason


@pytest.fixture(scope="module")
def heads():
    return heads_certificate("blocks(4) + global(1)", "strided(4)")


def test_a_bound_at_a_complete_length_is_rejected(heads):
    cert = copy.deepcopy(heads)
    _step(cert)["certificate"]["from"] = 4   # at n = 4 the union is complete: D = 1
    assert _report(cert).outcome == REJECTED


def test_other_globals_are_rejected(heads):
    cert = copy.deepcopy(heads)
    _step(cert)["certificate"]["globals"] = 2
    assert _report(cert).outcome == REJECTED


def test_another_diameter_is_rejected(heads):
    cert = copy.deepcopy(heads)
    _step(cert)["data"]["diameter"] = 1
    assert _report(cert).outcome == REJECTED


def test_d_layers_claimed_least_on_it_are_rejected(heads):
    cert = copy.deepcopy(heads)
    _step(cert, "PAT-LAYERS")["data"].update({"layers": 2, "least": True})
    assert _report(cert, "PAT-LAYERS").outcome == REJECTED


def test_the_certificate_on_heads_without_a_global_is_rejected():
    cert = heads_certificate("blocks(4)", "strided(4)")
    step = _step(cert)
    step["certificate"] = {"kind": "global union", "globals": 1, "from": 20, "far": 30, "step": 5, "diameter": 2,
                           "parts": []}
    assert _report(cert).outcome == REJECTED
