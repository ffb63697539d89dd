"""`uapcheck verify` re-checks a group named by its structure (uapcheck/verifier/named_structure.py): the
certificate lists the factors behind the name; the verifier words the name from them itself, builds the
named group's generators, and accepts only when they lie in G and the orders agree."""
import copy

import pytest

from certificates import certificate, heads_certificate

import json

from uapcheck import certfile, check
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


def _at_length(n: int, *patterns: str) -> dict:
    text = f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"
                                       for p in patterns)
    return json.loads(json.dumps(certfile.build(check(text, "t.uap"), text)))


def test_a_cyclic_reflection_is_named_as_two_intervals_reversed_at_once_and_rechecked():
    """global(2) | window(6) cyclic: G = {id, i ↦ 3 − i (mod n)}, which reverses {1, 2} and {3, …, n} at once.
    At n = 30 the verifier words the name from the typed intervals and finds the involution in G; moving an
    interval's end, or naming one interval only, is rejected."""
    cert = _at_length(30, "global(2)", "window(6) cyclic")
    data = _sym(cert)["data"]
    assert data["name"] == "the reflection of {1, 2} and of {3, …, 30} at once"
    assert data["structure"]["factors"] == [{"kind": "reflections", "intervals": [[1, 2], [3, 30]]}]
    got = _outcome(cert)
    assert got.outcome == VERIFIED and "the named group is G" in got.reason, got.reason
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["structure"]["factors"][0]["intervals"] = [[1, 2], [4, 30]]
    _sym(forged)["data"]["name"] = "the reflection of {1, 2} and of {4, …, 30} at once"
    got = _outcome(forged)
    assert got.outcome == REJECTED and "not in G" in got.reason, got.reason
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["structure"]["factors"][0]["intervals"] = [[3, 30]]
    _sym(forged)["data"]["name"] = "the reflection of {3, …, 30} at once"
    assert _outcome(forged).outcome == REJECTED
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["structure"]["factors"][0]["intervals"] = [[1, 3], [3, 30]]  # overlapping
    _sym(forged)["data"]["name"] = "the reflection of {1, 2, 3} and of {3, …, 30} at once"
    assert _outcome(forged).outcome == REJECTED


def test_several_heads_with_a_group_named_by_structure_state_its_order_at_symbolic_n():
    """Theorems F35–F39 at symbolic n: the group step states the class's order beside a structural name, so the
    certificate's summary order is established (it was rejected as unestablished: only standard names fixed an
    order); a changed order is rejected against the class's elements."""
    for patterns, name in ((("global(2)", "window(6) cyclic"), "the reflection of {1, 2} and of {3, …, n} at once"),
                           (("window(1) cyclic", "window(2) + global(1)"), "the reflection of {2, …, n}")):
        cert = heads_certificate(*patterns)
        assert cert["group"]["name"] == name and cert["group"]["order"] == 2
        got = _outcome(cert)
        assert got.outcome == VERIFIED, got.reason
        report = verify(cert)
        assert not [p for p in report.problems if "group" in p], report.problems
        forged = copy.deepcopy(cert)
        forged["group"]["order"] = 4
        assert any("order" in p for p in verify(forged).problems)


def _two_block_heads_at_130() -> dict:
    text = ("tokens 130\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern blocks({b})\n}}\n"
                                     for b in (4, 2)) + "ffn relu\n")
    return json.loads(json.dumps(certfile.build(check(text, "t.uap"), text)))


def test_a_long_quotient_order_worded_approximately_is_verified_and_a_wrong_one_rejected():
    # `blocks(4)` | `blocks(2)` at 130: a quotient of order about 10^45, printed "≈ 10^45"; the verifier rejected the
    # honest name because it did not word long orders
    cert = _two_block_heads_at_130()
    name = _sym(cert)["data"]["name"]
    assert "a group of order ≈ 10^45 permuting the 65 twin classes" in name
    assert _outcome(cert).outcome == VERIFIED
    for wrong in ("≈ 10^47", "≈ 10^43", "≈ 7 × 10^45", "about 10^45"):
        forged = copy.deepcopy(cert)
        _sym(forged)["data"]["name"] = name.replace("≈ 10^45", wrong)
        assert _outcome(forged).outcome == REJECTED, wrong
    forged = copy.deepcopy(cert)
    _sym(forged)["data"]["name"] = name.replace("(S_2)^65", "(S_3)^65")
    assert _outcome(forged).outcome == REJECTED


def test_a_bounded_wording_of_an_integer_is_read_exactly():
    from uapcheck.verifier.named_structure import _approximates
    q = 41694745422194119645161936836413254545072207 * 10 ** 3
    assert q > 4 * 10 ** 46  # log10 q ≈ 46.62: both neighbouring powers are bounded wordings, no others
    assert _approximates("≈ 10^46", q) and _approximates("≈ 10^47", q)
    assert not _approximates("≈ 10^45", q) and not _approximates("≈ 10^48", q)
    assert _approximates("≈ 4.17 × 10^46", q) and not _approximates("≈ 4.19 × 10^46", q)
    assert not _approximates("≈ 4.17 × 10^45", q)
