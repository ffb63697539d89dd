"""`uapcheck verify` on Theorem F190 (docs/theory.md §11.11): `window(w) cyclic` with non-cyclic offsets outside it that
are not symmetric. The verifier's own restatement (uapcheck/verifier/cyclic_window_directed.py: its own arcs,
distances, colour refinement and N₂) re-decides the colour premise and the far swap at every length of the check, class
by class, and at every instance; a count or a least flag the check does not give is rejected."""
from __future__ import annotations

import json

import pytest

from certificates import certificate_of, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.cyclic_window_directed import properties

EVERY = "window(1) cyclic + offsets {2}"     # D on n ≡ 0, 1 and D + 1 on n ≡ 2 (mod 3), least on every class
SOME = "window(2) cyclic + offsets {4}"      # n ≡ 1 (mod 6) open: D + 1, sufficient


@pytest.fixture(scope="module")
def every() -> dict:
    return certificate_of(softmax_source(EVERY))


@pytest.fixture(scope="module")
def some() -> dict:
    return certificate_of(softmax_source(SOME))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_least_count_rests_on_the_verifier_s_own_check(every, some):
    for cert in (every, some):
        report = verify(cert)
        assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
        assert "Theorem F190" in next(s.reason for s in report.steps if s.rule == "PAT-LAYERS")
    assert _step(every, "PAT-LAYERS")["data"]["least"] is True
    data = _step(some, "PAT-LAYERS")["data"]
    assert data["least"] is False and data["least classes"] == {"modulus": 6, "residues": [0, 2, 3, 4, 5]}


def test_the_open_class_claimed_least_is_rejected(some):
    for forged_data in ({"least": True}, {"least classes": {"modulus": 6, "residues": [0, 1, 2, 3, 4, 5]}}):
        forged = json.loads(json.dumps(some))
        _step(forged, "PAT-LAYERS")["data"].update(forged_data)
        assert rejects(forged, "PAT-LAYERS"), forged_data


def test_d_layers_on_the_swap_class_are_rejected(every):
    forged = json.loads(json.dumps(every))
    _step(forged, "PAT-LAYERS")["data"]["layers"] = _step(forged, "PAT-CONNECTED")["data"]["diameter"]
    assert rejects(forged, "PAT-LAYERS")


def test_the_verifier_s_properties_by_class():
    # window(1) cyclic + offsets {2}: the premise on n ≡ 0, 1 (mod 3), the swap on n ≡ 2, never both
    assert [properties(1, (2,), n) for n in (30, 31, 32)] == [(True, False), (True, False), (False, True)]


@pytest.fixture(scope="module")
def heads() -> dict:
    from certificates import heads_certificate
    return heads_certificate("offsets {2}", "window(1) cyclic")     # Theorem F191: D on every class mod 3


def test_several_heads_rest_on_the_verifier_s_own_check(heads):
    report = verify(heads)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    cert = _step(heads, "PAT-LAYERS")["certificate"]
    assert cert["theorem"] == "F191" and cert["directed heads"]["outside"] == [2]
    assert "F191" in next(s.reason for s in report.steps if s.rule == "PAT-LAYERS")


@pytest.mark.parametrize("field, value", [("extra", [0, 0, 1]), ("outside", [2, 3]), ("rounds", 9)])
def test_forged_data_of_several_heads_are_rejected(heads, field, value):
    forged = json.loads(json.dumps(heads))
    _step(forged, "PAT-LAYERS")["certificate"]["directed heads"][field] = value
    assert rejects(forged, "PAT-LAYERS")


def test_d_plus_one_for_several_heads_is_rejected(heads):
    forged = json.loads(json.dumps(heads))
    data = _step(forged, "PAT-LAYERS")["data"]
    data["layers"] = {"op": "+", "args": [data["diameter"], 1]}
    assert rejects(forged, "PAT-LAYERS")
