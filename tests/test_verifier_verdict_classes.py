"""The verdict step's class entries (VERDICT-T1, docs/theory.md §18): each entry restates a premise stated for
residue classes of n only (its modulus, residues and verdict), and its condition, which the printed statement reads,
holds exactly on those residues. An extra entry, a changed condition or a changed verdict is a false restatement the
verifier names, even where the verdict the premises give is unchanged."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate

from uapcheck.verifier import verify

# Two catalog files whose verdict lists one class n mod 2 ∈ {0} (NOT-UAP) beside a UAP range on the odd lengths.
FILES = ("cn_convolution_even_taps.uap", "cyclic_even_jumps_n.uap")


@pytest.fixture(scope="module", params=FILES)
def honest(request):
    return certificate(request.param)


def _verdict(cert: dict) -> dict:
    return cert["steps"][-1]


def _problems(cert: dict) -> list:
    return verify(cert, only={_verdict(cert)["id"]}).problems


def test_the_honest_entries_are_accepted(honest):
    entries = _verdict(honest)["data"]["classes"]
    assert [(e["modulus"], e["residues"], e["verdict"]) for e in entries] == [(2, [0], "NOT-UAP")]
    assert _problems(honest) == []


def test_an_extra_entry_is_named(honest):
    forged = copy.deepcopy(honest)
    extra = dict(_verdict(forged)["data"]["classes"][0], modulus=4)
    _verdict(forged)["data"]["classes"].append(extra)
    assert any("n mod 4 in [0] (NOT-UAP) restates no premise's classes" in p for p in _problems(forged))


def test_an_entry_with_another_verdict_is_named(honest):
    forged = copy.deepcopy(honest)
    _verdict(forged)["data"]["classes"][0]["verdict"] = "INCONCLUSIVE"
    assert any("restates no premise's classes" in p for p in _problems(forged))


@pytest.mark.parametrize("residue", [1, 3])
def test_a_condition_off_the_residues_is_named(honest, residue):
    forged = copy.deepcopy(honest)
    modulus = 2 if residue == 1 else 4
    _verdict(forged)["data"]["classes"][0]["condition"] = {
        "rel": "==", "args": [{"op": "mod", "args": [{"sym": "n"}, modulus]}, residue]}
    assert any("condition does not hold exactly on n mod 2 in [0]" in p for p in _problems(forged))


def test_a_condition_true_on_only_part_of_the_residues_is_named(honest):
    """n mod 4 = 0 agrees with n mod 2 = 0 at n ≡ 0, 1 (mod 4) but not at n ≡ 2: the comparison runs over the
    condition's own period."""
    forged = copy.deepcopy(honest)
    _verdict(forged)["data"]["classes"][0]["condition"] = {
        "rel": "==", "args": [{"op": "mod", "args": [{"sym": "n"}, 4]}, 0]}
    assert any("condition does not hold exactly on n mod 2 in [0]" in p for p in _problems(forged))


def test_the_same_condition_written_another_way_is_accepted(honest):
    """n mod 4 ∈ {0, 2} is n mod 2 = 0: a restatement, not a change."""
    forged = copy.deepcopy(honest)
    _verdict(forged)["data"]["classes"][0]["condition"] = {"or": [
        {"rel": "==", "args": [{"op": "mod", "args": [{"sym": "n"}, 4]}, 0]},
        {"rel": "==", "args": [{"op": "mod", "args": [{"sym": "n"}, 4]}, 2]}]}
    assert _problems(forged) == []
