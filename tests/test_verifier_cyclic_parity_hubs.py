"""`uapcheck verify` on Theorem F221 (docs/theory.md §11.11): `offsets {2, 4} cyclic` beside `global(g)`. The verifier
(uapcheck/verifier/cyclic_parity_hubs.py) reads the heads on its own, restates the classes and re-counts nauty's order
on its own arcs; a tampered certificate (order, class, bound, hub count, length) is rejected."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate_of, heads_certificate, renamed_symbol

from uapcheck.verifier import REJECTED, VERIFIED, verify

KIND = "cyclic parity hubs"


def _step(cert):
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _mine(cert) -> list:
    c = _step(cert)["certificate"]
    return [c] if c["kind"] == KIND else [e["certificate"] for e in c["classes"]]


def _outcome(cert):
    return next(s for s in verify(cert).steps if s.rule == "SYM-AUT")


@pytest.fixture(scope="module")
def symbolic():
    return heads_certificate("offsets {0, 2, 4} cyclic", "global(2)")


@pytest.fixture(scope="module")
def at_length():
    return certificate_of("tokens 1048576\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
        for p in ("offsets {0, 2, 4} cyclic", "global(2)")))


def test_the_symbolic_group_is_verified(symbolic):
    assert all(c["kind"] == KIND for c in _mine(symbolic))
    step = _outcome(symbolic)
    assert step.outcome == VERIFIED, step.reason
    assert "F221" in step.reason and "nauty" in step.reason


def test_an_odd_hub_count_is_verified():
    cert = heads_certificate("offsets {-2, -4} cyclic", "global(3)")
    assert all(c["kind"] == KIND and c["order"] == 1 for c in _mine(cert))
    assert _outcome(cert).outcome == VERIFIED


def test_one_hub_the_rotations_of_the_even_positions_are_verified():
    cert = heads_certificate("offsets {0, 2, 4} cyclic", "star")
    mine = _mine(cert)
    assert {c["residue"]: c["order"] for c in mine}[1] == 1 and any(isinstance(c["order"], dict) for c in mine)
    assert _outcome(cert).outcome == VERIFIED
    forged = copy.deepcopy(cert)
    for c in _mine(forged):
        if c["residue"] == 0:
            c["order"] = 2
    assert _outcome(forged).outcome == REJECTED


def test_the_group_at_two_to_the_twenty_is_verified(at_length):
    report = verify(at_length)
    assert report.ok
    (c,) = _mine(at_length)
    assert c["n"] == 1_048_576 and c["order"] == 2 and c["residue"] == 0


@pytest.mark.parametrize("change", [
    {"order": 1},
    {"residue": 1},
    {"hubs": 4},
    {"sign": -1},
    {"classes": [{"residue": 0, "from": 6, "order": 2}, {"residue": 1, "from": 5, "order": 1}]},
], ids=["order", "residue", "hubs", "sign", "bound"])
def test_a_tampered_symbolic_certificate_is_rejected(symbolic, change):
    cert = copy.deepcopy(symbolic)
    _mine(cert)[0].update(change)
    assert _outcome(cert).outcome == REJECTED


@pytest.mark.parametrize("change", [{"n": 1_048_578}, {"n": 1_048_577}, {"order": 1}], ids=["other", "odd", "order"])
def test_a_tampered_length_certificate_is_rejected(at_length, change):
    cert = copy.deepcopy(at_length)
    _mine(cert)[0].update(change)
    assert _outcome(cert).outcome == REJECTED


@pytest.mark.parametrize("change", [{"order": 4}, {"name": "C_4"}], ids=["order", "name"])
def test_a_class_the_step_states_otherwise_than_its_certificate_is_rejected(symbolic, change):
    cert = copy.deepcopy(symbolic)
    stated = next(c for c in _step(cert)["data"]["classes"] if c["residues"] == [0])
    stated.update(change)
    assert _outcome(cert).outcome == REJECTED


def test_a_group_named_otherwise_at_a_length_is_rejected(at_length):
    cert = copy.deepcopy(at_length)
    _step(cert)["data"]["name"] = "S_3"
    assert _outcome(cert).outcome == REJECTED


def test_an_order_written_in_a_params_name_is_rejected():
    """n/2 written as q/2, q a param of the file: the order is not the class's (the length alone is read as n)."""
    cert = certificate_of("param q integer >= 1\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in ("offsets {0, 2, 4} cyclic", "star")))
    assert _outcome(cert).outcome == VERIFIED
    forged = copy.deepcopy(cert)
    for c in _mine(forged):
        c["order"] = renamed_symbol(c["order"], "n", "q")
    for c in _step(forged)["data"]["classes"]:
        c["order"] = renamed_symbol(c["order"], "n", "q")
    assert _outcome(forged).outcome == REJECTED


def test_a_large_hub_count_is_recounted_at_its_first_lengths_or_trusted(monkeypatch):
    """Classes starting past RECOUNT_TOP are re-counted at their first two lengths; past RECOUNT_MAX_N, trusted."""
    from uapcheck.verifier import TRUSTED
    from uapcheck.verifier import cyclic_parity_hubs as PH
    cert = heads_certificate("offsets {2, 4} cyclic", f"global({PH.RECOUNT_TOP + 4})")
    step = _outcome(cert)
    assert step.outcome == VERIFIED and "matched at 4 lengths" in step.reason, step.reason
    monkeypatch.setattr(PH, "RECOUNT_MAX_N", PH.RECOUNT_TOP + 4)
    assert _outcome(cert).outcome == TRUSTED
