"""`uapcheck verify` on Theorems F35–F39 (docs/theory.md §11.11): several heads with different patterns at
symbolic n. The verifier (uapcheck/verifier/head_intersection.py) re-decides every residue class on its own
arcs, takes the anchor head's group from its own tables, and re-counts instances with nauty; a tampered
certificate (group, range, elements, modulus, anchor, order) is rejected naming its step."""
from __future__ import annotations

import copy

import pytest
from certificates import heads_certificate as _cert

from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.trees import encode


def _group(report):
    return next(s for s in report.steps if s.rule == "SYM-AUT")


def _step(cert):
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


CASES = [("window(1) cyclic", "offsets {0, 2} cyclic"), ("window(2)", "blocks(4)"), ("window(1)", "strided(2)"),
         ("global(1)", "window(3)"), ("window(1) cyclic", "window(2) + global(1)"),
         ("offsets {0, 1} cyclic", "offsets {0, -1} cyclic"), ("window(1) cyclic", "blocks(2)"),
         ("window(1) cyclic", "global(1)"), ("causal", "window(1) cyclic"), ("offsets {1, 3} cyclic", "window(1)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_intersection_is_verified(patterns):
    cert = _cert(*patterns)
    kind = _step(cert)["certificate"]["kind"]
    # a group that depends on n mod L is stated class by class, each class by its head intersection
    assert kind == "head intersection" or (kind == "by residue class" and all(
        c["certificate"]["kind"] == "head intersection" for c in _step(cert)["certificate"]["classes"]))
    step = _group(verify(cert))
    assert step.outcome == VERIFIED, step.reason
    assert "F35" in step.reason and "nauty" in step.reason


def _rejected(cert) -> bool:
    return _group(verify(cert)).outcome == REJECTED


def test_a_wrong_group_name_is_rejected():
    cert = _cert("window(1) cyclic", "offsets {0, 2} cyclic")
    _step(cert)["data"]["name"] = "D_n"
    assert _rejected(cert)


def test_a_wrong_order_is_rejected():
    cert = _cert("window(1) cyclic", "offsets {0, 2} cyclic")
    _step(cert)["certificate"]["order"] = encode(2)
    assert _rejected(cert)


def test_a_range_starting_too_low_is_rejected():
    cert = _cert("window(1)", "offsets {0, 3} cyclic")  # the anchor (reflection) from n = 3, G from n = 7
    forged = _step(cert)["certificate"]
    assert forged["anchor"]["from"] == 3 and forged["classes"][0]["from"] == 7
    forged["classes"][0]["from"] = 4
    assert _rejected(cert)


def test_a_range_below_the_anchor_s_bound_is_rejected():
    cert = _cert("global(1)", "window(3)")
    _step(cert)["certificate"]["classes"][0]["from"] = 3
    assert _rejected(cert)


def test_a_wrong_element_is_rejected():
    cert = _cert("window(2)", "blocks(4)")  # G depends on n mod 4: the class n ≡ 1 has its own certificate
    entry = next(c for c in _step(cert)["certificate"]["classes"] if c["residues"] == [1])["certificate"]
    classes = entry["classes"]
    good = next(c for c in classes if c["residue"] == 0)
    assert ["refl", 1] in good["elements"]
    bad = next(c for c in classes if c["residue"] == 1)
    bad["elements"] = [["id"], ["refl", 1]]
    assert _rejected(cert)


def test_a_bigger_group_is_rejected():
    cert = _cert("window(1) cyclic", "offsets {0, 2} cyclic")
    c = _step(cert)["certificate"]["classes"][0]
    c["elements"] = [["rotations", 1, 1]]
    _step(cert)["data"]["name"] = "D_n"
    assert _rejected(cert)


def test_a_wrong_modulus_is_rejected():
    cert = _cert("window(2)", "blocks(4)")
    _step(cert)["certificate"]["modulus"] = 2
    assert _rejected(cert)


def test_a_false_anchor_is_not_verified():
    cert = _cert("window(1) cyclic", "offsets {0, 2} cyclic")
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["anchor"]["group"] = "reflection"
    assert _group(verify(forged)).outcome == REJECTED  # the anchor's own count does not divide 2
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["anchor"]["head"] = 2  # offsets {0, 2} cyclic: not D_n
    assert _group(verify(forged)).outcome == REJECTED  # its own count is not D_n's order


def test_two_large_groups_are_decided_and_verified():
    """Two heads whose groups are both large products: Theorem F72 states the group
    (tests/test_verifier_partition_heads.py tampers with it); the verifier re-checks the step."""
    cert = _cert("blocks(4) + global(1)", "strided(4)")
    assert any(s["rule"] == "SYM-AUT" for s in cert["steps"])
    assert [s.outcome for s in verify(cert).steps if s.rule == "SYM-AUT"] == [VERIFIED]


def test_several_heads_connectivity_and_layers_rest_on_the_union():
    """PAT-CONNECTED and PAT-LAYERS of several heads: the union's family theorem (window + global: F2) or the
    union's lemma (the two directions of a ring: the cyclic window); the ring's count is Theorem F143's, D = ⌊n/2⌋
    layers, least, and a count one below it is rejected (tests/test_verifier_head_layers.py for the theorems)."""
    for patterns in (("window(1)", "global(1)"), ("offsets {1} cyclic", "offsets {-1} cyclic")):
        report = verify(_cert(*patterns))
        assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    cert = _cert("offsets {1} cyclic", "offsets {-1} cyclic")
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == step["data"]["diameter"]
    step["data"]["layers"] = {"op": "+", "args": [step["data"]["layers"], -1]}
    assert any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in verify(cert).steps)


@pytest.mark.parametrize("patterns, head, forged", [
    (("window(1) cyclic", "offsets {0, 2} cyclic"), 2, "dihedral"),   # offsets {0, 2} cyclic: C_n, not D_n
    (("window(1)", "offsets {0, 3} cyclic"), 1, "dihedral"),          # window(1): the reflection, not D_n
    (("window(1)", "offsets {0, 3} cyclic"), 1, "cyclic"),
    (("global(1)", "window(3)"), 2, "dihedral"),
])
def test_a_forged_larger_anchor_group_is_rejected_by_the_verifier_s_count(patterns, head, forged):
    """A head anchor's group must be Aut(A) at every length of its range (F36–F38): where the verifier's tables do not
    name the stated group, it counts the head's group at the range's first lengths (nauty) and rejects an order that
    differs. Such an anchor was only reported trusted: its maps were tested on the other heads, never on its own."""
    cert = _cert(*patterns)
    anchor = _step(cert)["certificate"]["anchor"]
    anchor["head"], anchor["group"] = head, forged
    got = _group(verify(cert))
    assert got.outcome == REJECTED and "the verifier's count on its own arcs" in got.reason, got.reason
