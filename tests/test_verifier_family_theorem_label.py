"""A family theorem block's `theorem` and `parameters` (docs/theory.md §18.1): the label must be the theorem the
verifier's own tables match on the re-parsed pattern (named where they match none, e.g. F5's cyclic window, which a
lemma of §18.4 restates), and each parameter must be a name the input declares (the length, a param). Both used to be
named on the `not certified` line and never compared, so a block labelled with another theorem passed."""
from __future__ import annotations

import copy
import json

import pytest

from certificates import certificate_of, certificate_text, softmax_source

from uapcheck.verifier import REJECTED, verify


def _family_steps(cert: dict) -> list:
    return [s for s in cert["steps"] if (s.get("certificate") or {}).get("kind") == "family theorem"]


@pytest.fixture(scope="module")
def f40() -> dict:
    return certificate_of(softmax_source("window(1) + dilated(2, 3) + offsets {7}"))


def _rejected_step(cert: dict, sid: str):
    report = verify(cert)
    got = next(s for s in report.steps if s.id == sid)
    return not report.ok and got.outcome == REJECTED, got.reason


def test_the_honest_label_is_compared_not_named(f40):
    report = verify(f40)
    assert report.ok and report.complete
    assert {s["certificate"]["theorem"] for s in _family_steps(f40)} == {"F40"}
    assert not any(path.endswith(".theorem") or path.endswith(".parameters") for path in report.unbound), report.unbound


@pytest.mark.parametrize("label", ["F41", "F2", "F190", "", None, 40])
def test_another_theorem_s_label_is_rejected(f40, label):
    for k in range(len(_family_steps(f40))):
        forged = copy.deepcopy(f40)
        step = _family_steps(forged)[k]
        step["certificate"]["theorem"] = label
        rejected, reason = _rejected_step(forged, step["id"])
        assert rejected and "theorem" in reason, reason


@pytest.mark.parametrize("parameters", [{"n": "m"}, {"m": "m"}, {"n": 7}, {"n": "n", "w": "w"}, [], "n"])
def test_a_parameter_the_input_does_not_declare_is_rejected(f40, parameters):
    forged = copy.deepcopy(f40)
    step = _family_steps(forged)[0]
    step["certificate"]["parameters"] = parameters
    rejected, reason = _rejected_step(forged, step["id"])
    assert rejected and "parameters" in reason, reason


def test_a_param_family_s_reading_is_compared():
    cert = json.loads(certificate_text("longformer_global_param.uap"))
    assert verify(cert).ok
    step = _family_steps(cert)[0]
    assert step["certificate"]["parameters"] == {"g": "g", "n": "n", "w": "w"}
    forged = copy.deepcopy(cert)
    _family_steps(forged)[0]["certificate"]["parameters"]["w"] = "g"
    assert _rejected_step(forged, step["id"])[0]


def test_a_label_no_table_of_the_verifier_matches_is_named():
    """F5 (a cyclic window of a named width) is restated by the verifier's `cyclic window` lemma, not a family table:
    its label is named on the `not certified` line, never taken as checked."""
    cert = json.loads(certificate_text("cyclic_window.uap"))
    report = verify(cert)
    assert report.ok
    assert any(path.endswith("certificate.theorem") for path in report.unbound), report.unbound
