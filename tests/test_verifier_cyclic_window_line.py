"""`uapcheck verify` on Theorem F101 (docs/theory.md §11.11): `window(w) cyclic` with non-cyclic offsets outside it.
The verifier's own restatement (uapcheck/verifier/cyclic_window_line.py) re-derives the outside offsets, the range
(from its own F41 restatement) and the group, and Theorem F168's diameter ⌊n/P⌋ + h(n mod P) from its own word lengths
and breadth-first searches on its own arcs (or, beyond F168's base check, checks the cyclic window's bound); a forged
claim is rejected naming its step. Theorem F184's least classes (A = −A) are re-checked on its own arcs."""
from __future__ import annotations

import json

import pytest

from certificates import assert_rests_on, certificate_of, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode

PATTERN = "window(1) cyclic + dilated(2, 4)"
FAR = "window(1) cyclic + offsets {17}"     # F168's N₀ = 5,490: beyond its base check, the bound is stated


@pytest.fixture(scope="module")
def cert() -> dict:
    return certificate_of(softmax_source(FAR))


@pytest.fixture(scope="module")
def exact() -> dict:
    return certificate_of(softmax_source(PATTERN))


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("pattern", [PATTERN, "window(4) cyclic + offsets {-4, 5}", FAR])
def test_the_union_rests_on_the_verifier_s_own_theorem(pattern):
    assert_rests_on(certificate_of(softmax_source(pattern)), "Theorem F101")


def test_a_forged_order_is_rejected(exact, cert):
    for good, order in ((exact, 1), (cert, 2)):
        forged = json.loads(json.dumps(good))
        _step(forged, "SYM-AUT")["data"]["order"] = encode(order)
        assert rejects(forged, "SYM-AUT")


def test_a_smaller_bound_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    bound = _step(forged, "PAT-CONNECTED")["data"]["diameter bound"]
    assert bound is not None
    _step(forged, "PAT-CONNECTED")["data"]["diameter bound"] = encode(3)
    assert rejects(forged, "PAT-CONNECTED")


def test_a_bound_stated_as_the_diameter_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    data = _step(forged, "PAT-CONNECTED")["data"]
    data["diameter"] = data["diameter bound"]
    assert rejects(forged, "PAT-CONNECTED")


def test_a_range_below_the_verifier_s_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-CONNECTED")["data"]["from"] = encode(10)
    assert rejects(forged, "PAT-CONNECTED")


def test_a_least_count_is_rejected(cert):
    forged = json.loads(json.dumps(cert))
    _step(forged, "PAT-LAYERS")["data"]["least"] = True
    assert rejects(forged, "PAT-LAYERS")


def test_the_diameter_is_stated_exactly_and_re_derived(exact):
    data = _step(exact, "PAT-CONNECTED")["data"]
    assert data.get("diameter bound") is None and data["diameter"] is not None
    assert verify(exact).ok


def test_a_forged_residue_of_the_diameter_is_rejected(exact):
    forged = json.loads(json.dumps(exact))
    text = json.dumps(_step(forged, "PAT-CONNECTED")["data"]["diameter"])
    assert "16" in text
    _step(forged, "PAT-CONNECTED")["data"]["diameter"] = json.loads(text.replace("16", "15", 1))
    assert rejects(forged, "PAT-CONNECTED")


def test_d_layers_least_are_rejected_where_the_f227_check_fails(exact, monkeypatch):
    """The certificate states D layers, least, on every class (F184 and F227); with the verifier's own F227 check
    failing on one class (its rooted views made to report a witness) the same certificate is rejected."""
    from uapcheck.verifier import cyclic_window_dilated_an as an
    failing = an.class_problem.__wrapped__

    def forged(r, low=an.LOW):
        return "n = 80: a view witness (forced)" if r == 0 else failing(r, low)
    monkeypatch.setattr(an, "class_problem", forged)
    assert rejects(exact, "PAT-LAYERS")


def test_a_real_size_rests_on_the_theorem_with_the_exact_diameter():
    cert = certificate_of(softmax_source(PATTERN, 1_048_576))
    report = verify(cert)
    steps = {s.rule: s for s in report.steps}
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert all(steps[r].outcome == "verified" and "Theorem F101" in steps[r].reason
               for r in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))
    data = _step(cert, "PAT-CONNECTED")["data"]
    assert data["diameter"] == 65_539 and data.get("diameter bound") is None
    assert _step(cert, "PAT-LAYERS")["data"]["layers"] == 65_539  # n ≡ 0 (mod 16): D layers (Theorem F227)
    for rule, key, value in (("PAT-CONNECTED", "diameter", 65_538), ("PAT-LAYERS", "layers", 65_538),
                             ("PAT-LAYERS", "layers", 524_289)):
        forged = json.loads(json.dumps(cert))
        _step(forged, rule)["data"][key] = value
        assert rejects(forged, rule), (rule, key, value)


def test_the_least_classes_of_theorems_f184_and_f227_are_re_checked(exact):
    data = _step(exact, "PAT-LAYERS")["data"]
    assert data["least"] is True and "least classes" not in data
    report = verify(exact)
    reason = next(s.reason for s in report.steps if s.rule == "PAT-LAYERS")
    assert report.ok and "Theorem F184" in reason and "Theorem F227" in reason
    assert "n mod 16 ∈ [0, 2, 4, 5, 6, 9] by Theorem F227" in reason


@pytest.mark.parametrize("residues", [[0, 1, 3, 7, 8, 10, 11, 12, 13, 14, 15], [1, 3, 7, 8, 10, 11, 12, 13, 14, 15]])
def test_a_smaller_set_of_least_classes_is_rejected(exact, residues):
    forged = json.loads(json.dumps(exact))
    data = _step(forged, "PAT-LAYERS")["data"]
    data["least"] = False
    data["least classes"] = {"modulus": 16, "residues": residues}
    assert rejects(forged, "PAT-LAYERS")
