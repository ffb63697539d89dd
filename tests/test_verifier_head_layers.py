"""`uapcheck verify` on Theorems F70–F71 (docs/theory.md §11.11): the least layer count of several heads with
different patterns at symbolic n, from the union of their arcs. The verifier (uapcheck/verifier/head_layers.py)
takes the union's count from its own tables, re-decides the heads' group on its own arcs (F70) or re-checks
the swap on every head at every length up to its own N (F71); a tampered certificate is rejected."""
from __future__ import annotations

import copy
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.trees import encode


def _heads(*patterns: str) -> str:
    return "tokens n\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in patterns)


def _cert(*patterns: str) -> dict:
    text = _heads(*patterns)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _layers(report):
    return next(s for s in report.steps if s.rule == "PAT-LAYERS")


def _step(cert):
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


CASES = [(("window(2)", "global(1)"), "F71"), (("window(3)", "strided(4)"), "F70"),
         (("offsets {1, -1} cyclic", "offsets {2, -2} cyclic"), "F70"), (("strided(4)", "global(1)"), "F71"),
         (("window(1) cyclic", "offsets {0, 2} cyclic"), "F70"), (("window(1)", "global(1)"), "F71"),
         (("blocks(4)", "strided(4)"), "F86"), (("blocks(3)", "strided(3)"), "F86"),
         (("global(2)", "strided(4)"), "F86"), (("blocks(2) + global(1)", "strided(3)"), "F86")]


@pytest.mark.parametrize("patterns,theorem", CASES, ids=[" | ".join(c[0]) for c in CASES])
def test_the_least_count_is_verified(patterns, theorem):
    cert = _cert(*patterns)
    step = _step(cert)
    assert step["certificate"]["kind"] == "head layers" and step["certificate"]["theorem"] == theorem
    assert step["data"]["least"] is True
    got = _layers(verify(cert))
    assert got.outcome == VERIFIED, got.reason
    assert theorem in got.reason


def _rejected(cert) -> bool:
    return _layers(verify(cert)).outcome == REJECTED


@pytest.fixture(scope="module")
def longformer():
    return _cert("window(2)", "global(1)")


@pytest.fixture(scope="module")
def sparse():
    return _cert("window(3)", "strided(4)")


def test_a_range_below_the_checked_lengths_is_rejected(longformer):
    cert = copy.deepcopy(longformer)
    _step(cert)["certificate"]["from"] = 7   # at n = 7, 2 layers suffice (the concrete engine)
    assert _rejected(cert)


def test_a_step_range_other_than_the_certificates_is_rejected(longformer):
    cert = copy.deepcopy(longformer)
    _step(cert)["data"]["from"] = 7
    assert _rejected(cert)


def test_another_swap_is_rejected(longformer):
    cert = copy.deepcopy(longformer)
    _step(cert)["certificate"]["swap"] = [encode(4), encode(5)]
    assert _rejected(cert)


def test_a_position_inside_the_swaps_reach_is_rejected(longformer):
    cert = copy.deepcopy(longformer)
    _step(cert)["certificate"]["position"] = encode(4)
    assert _rejected(cert)


def test_a_modulus_that_is_not_a_multiple_of_l_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    c = _step(cert)["certificate"]
    c["theorem"] = "F71"
    c.update({"position": encode(8), "swap": [encode(2), encode(3)], "modulus": 3})
    assert _rejected(cert)


def test_d_plus_one_claimed_by_the_equal_groups_theorem_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    _step(cert)["data"]["layers"] = encode(3)
    assert _rejected(cert)


def test_a_tampered_class_of_the_heads_group_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    inter = _step(cert)["certificate"]["intersection"]
    inter["classes"][0]["elements"] = [["id"]]   # trivial on n ≡ 0 (mod 4): not the union's order
    assert _rejected(cert)


def test_a_range_below_the_union_theorem_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    _step(cert)["certificate"]["from"] = 20
    assert _rejected(cert)


def test_an_unknown_theorem_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    _step(cert)["certificate"]["theorem"] = "F99"
    assert _rejected(cert)


def test_f31s_witness_claimed_for_a_union_outside_f31_is_rejected(sparse):
    cert = copy.deepcopy(sparse)
    c = _step(cert)["certificate"]
    c.update({"theorem": "F71", "union theorem": "F31", "position": encode(2), "swap": [encode(6), encode(7)]})
    assert _rejected(cert)


def test_least_false_with_this_certificate_is_rejected(longformer):
    cert = copy.deepcopy(longformer)
    _step(cert)["data"]["least"] = False
    assert _rejected(cert)


@pytest.fixture(scope="module")
def rook():
    return _cert("blocks(4)", "strided(4)")


def _class(cert, residue: int) -> dict:
    return next(c for c in _step(cert)["certificate"]["classes"] if c["residue"] == residue)


def test_f86_two_layers_claimed_on_a_witness_class_is_rejected(rook):
    cert = copy.deepcopy(rook)
    _class(cert, 1).update({"layers": 2})
    assert _rejected(cert)


def test_f86_a_step_count_other_than_the_classes_is_rejected(rook):
    cert = copy.deepcopy(rook)
    _step(cert)["data"]["layers"] = encode(2)   # 2 everywhere: below the least on n ≡ 1, 2 (mod 4)
    assert _rejected(cert)


def test_f86_another_swap_on_a_class_is_rejected(rook):
    cert = copy.deepcopy(rook)
    _class(cert, 2)["swap"] = [encode(2), encode(3)]
    assert _rejected(cert)


def test_f86_a_class_starting_below_the_union_theorem_is_rejected(rook):
    cert = copy.deepcopy(rook)
    _class(cert, 1)["from"] = 17
    assert _rejected(cert)


def test_f86_a_tampered_order_of_the_heads_group_is_rejected(rook):
    cert = copy.deepcopy(rook)
    _step(cert)["certificate"]["partition heads"]["classes"][0]["constant"] = 12
    assert _rejected(cert)


def test_f86_a_modulus_below_the_unions_period_is_rejected(rook):
    cert = copy.deepcopy(rook)
    c = _step(cert)["certificate"]
    c["modulus"] = 2
    c["classes"] = [x for x in c["classes"] if x["residue"] < 2]
    assert _rejected(cert)


def test_f86_a_missing_class_is_rejected(rook):
    cert = copy.deepcopy(rook)
    c = _step(cert)["certificate"]
    c["classes"] = [x for x in c["classes"] if x["residue"] != 3]
    assert _rejected(cert)


@pytest.fixture(scope="module")
def own_swaps():
    return _cert("global(2)", "strided(4)")


def test_f88_a_swap_inside_g_is_rejected(own_swaps):
    cert = copy.deepcopy(own_swaps)
    c = _class(cert, 3)    # n ≡ 3 (mod 4): 3 and 7 share a residue class and are not globals: the swap is in G
    c.update({"position": {"args": [-1, {"sym": "n"}], "op": "+"}, "swap": [encode(3), encode(7)]})
    assert _rejected(cert)


def test_f88_two_layers_claimed_on_its_class_are_rejected(own_swaps):
    cert = copy.deepcopy(own_swaps)
    _class(cert, 0)["layers"] = 2
    assert _rejected(cert)


def test_f88_a_class_bound_below_its_checked_lengths_is_rejected(own_swaps):
    cert = copy.deepcopy(own_swaps)
    c = _step(cert)["certificate"]
    _class(cert, 3)["from"] = 3    # below F23's range n ≥ 7
    c["from"] = 3
    _step(cert)["data"]["from"] = 3
    assert _rejected(cert)


def test_f88_on_f87_without_its_connectivity_premise_is_rejected():
    cert = _cert("blocks(2) + global(1)", "strided(3)")
    conn = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    conn["certificate"] = {"kind": "trusted", "engine": "graphs.closed_forms", "reason": "", "data": {}}
    assert _rejected(cert)
