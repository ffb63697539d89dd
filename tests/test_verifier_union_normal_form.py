"""Several heads whose union the verifier reads as one pattern through its own normal form of unions
(verifier/rules_families.py `union_pattern`): a part whose arcs the others have is left out, the parts are flat, and a
window beside a cyclic window of another width is not one window. Each step below was reported `trusted` or rejected
on an honest certificate before; it is VERIFIED now, and REJECTED when a value is forged (docs/theory.md §18.4)."""
from __future__ import annotations

import copy

import pytest

from certificates import heads_certificate
from uapcheck.verifier import REJECTED, VERIFIED, verify


def _step(cert: dict, rule: str) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _outcome(cert: dict, rule: str) -> tuple[str, str]:
    s = next(s for s in verify(cert).steps if s.rule == rule)
    return s.outcome, s.reason


def _complete(cert: dict) -> None:
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason[:120]) for s in report.steps
                                           if s.outcome != VERIFIED]


@pytest.fixture(scope="module")
def blocks_absorbed() -> dict:
    """`blocks(3)`'s arcs are window(3)'s: the union is Theorem F31's `offsets {3, 4} cyclic + window(3) + global(1)`."""
    return heads_certificate("global(1)", "blocks(3)", "offsets {3, 4} cyclic + window(3)")


@pytest.fixture(scope="module")
def wrapped_window() -> dict:
    """window(2) and the wrap-around arcs of window(1) cyclic with a global: Theorem F31, not one window's F2/F3/F10."""
    return heads_certificate("window(1) cyclic", "window(2) + global(1)")


@pytest.fixture(scope="module")
def blocks_line() -> dict:
    """The union `dilated(3, 3) + blocks(2) + offsets {5}` is Theorem F115's pattern; its group (trivial) is the anchor."""
    return heads_certificate("dilated(3, 3) + blocks(2)", "offsets {5}")


def test_a_blocks_part_inside_a_window_leaves_f71_verified(blocks_absorbed):
    _complete(blocks_absorbed)
    outcome, reason = _outcome(blocks_absorbed, "PAT-LAYERS")
    assert outcome == VERIFIED and "Theorem F71" in reason


@pytest.mark.parametrize("field, value", [("swap", [12, 13]), ("position", 3), ("from", 12)])
def test_a_forged_f71_witness_or_range_is_rejected(blocks_absorbed, field, value):
    cert = copy.deepcopy(blocks_absorbed)
    _step(cert, "PAT-LAYERS")["certificate"][field] = value
    assert _outcome(cert, "PAT-LAYERS")[0] == REJECTED


def test_a_window_beside_a_narrower_cyclic_window_is_f31(wrapped_window):
    _complete(wrapped_window)
    outcome, reason = _outcome(wrapped_window, "PAT-CONNECTED")
    assert outcome == VERIFIED and "Theorem F31" in reason


@pytest.mark.parametrize("field, value", [("diameter", 3), ("from", 6)])
def test_a_forged_f31_diameter_or_range_is_rejected(wrapped_window, field, value):
    cert = copy.deepcopy(wrapped_window)
    _step(cert, "PAT-CONNECTED")["data"][field] = value
    assert _outcome(cert, "PAT-CONNECTED")[0] == REJECTED


def test_one_head_with_the_wrapped_window_is_f31_with_its_group():
    cert = heads_certificate("window(2) + window(1) cyclic + global(1)")
    _complete(cert)
    assert all("Theorem F31" in _outcome(cert, rule)[1] for rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"))
    forged = copy.deepcopy(cert)
    _step(forged, "SYM-AUT")["data"]["order"] = 4
    assert _outcome(forged, "SYM-AUT")[0] == REJECTED


def test_a_window_with_a_wider_cyclic_window_stays_one_window():
    """window(1) + window(2) cyclic has window(2) cyclic's arcs: Theorem F10 (a cyclic window with globals)."""
    cert = heads_certificate("window(1) + window(2) cyclic + global(1)")
    _complete(cert)
    assert "Theorem F10" in _outcome(cert, "PAT-CONNECTED")[1]


def test_the_union_anchor_is_read_flat(blocks_line):
    _complete(blocks_line)
    outcome, reason = _outcome(blocks_line, "SYM-AUT")
    assert outcome == VERIFIED and "Theorem F115" in reason


@pytest.mark.parametrize("field, value", [("order", 2), ("name", "the reflection i ↦ n + 1 − i")])
def test_a_forged_group_of_the_union_anchor_is_rejected(blocks_line, field, value):
    cert = copy.deepcopy(blocks_line)
    _step(cert, "SYM-AUT")["data"][field] = value
    assert _outcome(cert, "SYM-AUT")[0] == REJECTED


def test_a_forged_class_of_the_union_anchor_is_rejected(blocks_line):
    """A reflection added to a class's elements, or a class starting below the anchor's bound."""
    cert = copy.deepcopy(blocks_line)
    _step(cert, "SYM-AUT")["certificate"]["classes"][0]["elements"].append(["refl", 1])
    assert _outcome(cert, "SYM-AUT")[0] == REJECTED
    cert = copy.deepcopy(blocks_line)
    _step(cert, "SYM-AUT")["certificate"]["classes"][0]["from"] = 30
    assert _outcome(cert, "SYM-AUT")[0] == REJECTED


@pytest.mark.parametrize("kind", ["reflection", "dihedral"])
def test_an_anchor_group_the_tables_do_not_name_is_not_verified(blocks_line, kind):
    """A larger anchor group would still contain G (the classes are re-decided inside it), but the verifier's tables
    do not give it for this union: the step is reported trusted, never verified."""
    cert = copy.deepcopy(blocks_line)
    _step(cert, "SYM-AUT")["certificate"]["anchor"]["group"] = kind
    assert _outcome(cert, "SYM-AUT")[0] != VERIFIED


def test_one_order_for_every_class_is_read_on_each_class():
    """F116's group of `dilated(3, 3) + blocks(2) + offsets {5}` is trivial on both classes mod 2: the order 1 stated
    once is the theorem's (it was rejected: a family with a modulus took only orders by class); 2 is not."""
    cert = heads_certificate("dilated(3, 3) + blocks(2) + offsets {5}")
    _complete(cert)
    assert _step(cert, "SYM-AUT")["data"]["order"] == 1
    forged = copy.deepcopy(cert)
    _step(forged, "SYM-AUT")["data"]["order"] = 2
    assert _outcome(forged, "SYM-AUT")[0] == REJECTED


def test_a_lemma_union_states_its_diameter_and_the_verifier_checks_it():
    """`window(1)` | `blocks(2)`: the union is window(1) (the `window` lemma's pattern). Its steps once stated only
    D ≤ n − 1 and were rejected as malformed; the engine now states D = n − 1 itself (closed_connectivity reads the
    heads' normal form), the verifier checks it by the lemma on the union, and a forged n − 2 is rejected."""
    cert = heads_certificate("window(1)", "blocks(2)")
    assert _step(cert, "PAT-CONNECTED")["data"]["diameter"] == {"op": "+", "args": [-1, {"sym": "n"}]}
    _complete(cert)
    forged = copy.deepcopy(cert)
    _step(forged, "PAT-CONNECTED")["data"]["diameter"] = {"op": "+", "args": [-2, {"sym": "n"}]}
    assert _outcome(forged, "PAT-CONNECTED")[0] == REJECTED
