"""`uapcheck verify` re-checks a group named by its structure (uapcheck/verifier/named_structure.py): the
certificate lists the factors behind the name; the verifier words the name from them itself, builds the
named group's generators, and accepts only when they lie in G and the orders agree."""
import copy

import pytest

from certificates import certificate

from uapcheck.verifier import REJECTED, VERIFIED, verify

NAMED = {
    "octahedron.uap": "S_2 ≀ S_3 on the blocks {1, 4}, {2, 5}, {3, 6}",
    "blocks_global.uap": "S_7 on {2, …, 8} × (S_8 ≀ S_3 on the blocks {9, …, 16}, {17, …, 24}, {25, …, 32})",
    "longformer_global.uap": "the reflection of {2, …, 16}",
    "blocks.uap": "S_8 ≀ S_8 on the blocks {1, …, 8}, {9, …, 16}, …, {57, …, 64}",
}


def _sym(cert):
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _outcome(cert):
    report = verify(cert, only={_sym(cert)["id"]})
    return next(s for s in report.steps if s.rule == "SYM-AUT")


@pytest.mark.parametrize("name", sorted(NAMED))
def test_the_structural_name_is_rechecked(name):
    cert = certificate(name)
    assert _sym(cert)["data"]["name"] == NAMED[name]
    assert "structure" in _sym(cert)["data"]
    got = _outcome(cert)
    assert got.outcome == VERIFIED and "the named group is G" in got.reason, got.reason


def test_a_forged_name_or_structure_is_rejected():
    cert = certificate("blocks_global.uap")
    # the printed name differs from the listed structure
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["name"] = NAMED["blocks_global.uap"].replace("S_3", "S_4")
    assert _outcome(forged).outcome == REJECTED
    # a structure naming a different group, worded consistently: the block {9, …, 16} moved by one
    forged = copy.deepcopy(cert)
    wreath = next(f for f in _sym(forged)["data"]["structure"]["factors"] if f["kind"] == "wreath")
    wreath["top"] = "C"
    _sym(forged)["data"]["name"] = "S_7 on {2, …, 8} × (S_8 ≀ C_3 on the blocks {9, …, 16}, {17, …, 24}, " \
                                   "{25, …, 32} in cyclic order)"
    got = _outcome(forged)
    assert got.outcome == REJECTED and "order" in got.reason
    # a factor on the wrong positions
    forged = copy.deepcopy(cert)
    sym = next(f for f in _sym(forged)["data"]["structure"]["factors"] if f["kind"] == "symmetric")
    sym["positions"] = list(range(1, 8))
    _sym(forged)["data"]["name"] = NAMED["blocks_global.uap"].replace("{2, …, 8}", "{1, …, 7}")
    got = _outcome(forged)
    assert got.outcome == REJECTED and "not in G" in got.reason
    # malformed data
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["structure"]["factors"][0]["kind"] = "mystery"
    assert _outcome(forged).outcome == REJECTED


def test_the_reflection_of_an_interval_is_checked_position_by_position():
    cert = certificate("longformer_global.uap")
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["structure"]["factors"][0]["positions"] = list(range(1, 16))
    _sym(forged)["data"]["name"] = "the reflection of {1, …, 15}"
    assert _outcome(forged).outcome == REJECTED
