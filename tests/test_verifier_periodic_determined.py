"""`uapcheck verify` on Theorem F122 (docs/theory.md §11.11): `blocks(b)` with non-cyclic line parts whose automorphisms
are all periodic symmetries (`blocks(6) + dilated(2, 3)`, `blocks(8) + dilated(2, 4)`). The verifier's own
restatement (uapcheck/verifier/periodic_determined.py: its own symmetries, balls, (C5₀), patch, determining window,
N_G, the count of the symmetries keeping 1..n by n mod b, the range by BFS and nauty) matches the engine's values, and
a certificate whose order of a class, list of symmetries, D or range is tampered with is rejected at its step."""
from __future__ import annotations

import pytest
from certificates import certificate_of, softmax_source
from periodic_restatements import assert_agrees, assert_rests_on
from periodic_restatements import forged as _forged

from uapcheck.graphs import periodic_determined as engine
from uapcheck.parse import parse_source
from uapcheck.verifier import families, verify
from uapcheck.verifier import periodic_determined as restated
from uapcheck.verifier.trees import encode


@pytest.fixture(scope="module")
def classes_of_three() -> dict:
    return certificate_of(softmax_source("blocks(6) + dilated(2, 3)"))


def test_the_union_rests_on_the_verifier_s_own_theorem(classes_of_three):
    assert_rests_on(classes_of_three, "F122")


@pytest.mark.parametrize("b, jumps", [(6, (-6, -3, 3, 6)), (8, (-8, -4, 4, 8))])
def test_the_restatement_agrees_with_the_engine(b, jumps):
    data = engine.decide(b, jumps)
    classes = assert_agrees(data, restated.restated(b, jumps))
    assert tuple(order for order, _ in classes) == data.orders
    assert restated.window(b, jumps) == data.width


def test_the_dispatch_leaves_f117_and_f116_their_unions():
    def fam(pattern):
        return families.match(parse_source(softmax_source(pattern), "t.uap"))
    assert fam("blocks(6) + dilated(2, 3)").theorem == "F122"
    assert fam("blocks(4) + dilated(3, 2)").theorem == "F117"
    assert fam("blocks(3) + dilated(2, 2)").theorem == "F115"


def test_forged_values_are_rejected(classes_of_three):
    def order(d):
        next(c for c in d["order cases"] if c["residue"] == 3)["order"] = encode(12)  # 6 for n ≡ 3 (mod 6)
    assert _forged(classes_of_three, "SYM-AUT", order)
    assert _forged(classes_of_three, "SYM-AUT", lambda d: d["periodic symmetries"]["symmetries"].pop())
    assert _forged(classes_of_three, "SYM-AUT", lambda d: d.update(name=d["name"].replace("(order 12)", "(order 24)")))
    assert _forged(classes_of_three, "PAT-CONNECTED",
                   lambda d: d.update(diameter={"op": "+", "args": [d["diameter"], 1]}))
    assert _forged(classes_of_three, "PAT-LAYERS", lambda d: d.update(least=False))  # D, least (Theorem F118)
    assert _forged(classes_of_three, "PAT-CONNECTED", lambda d: d.update({"from": encode(60)}))
    assert _forged(classes_of_three, "SYM-AUT", lambda d: d.update({"from": encode(50)}))


def test_a_real_size_is_rechecked_without_a_token_graph():
    """n = 1,048,576 ≡ 0 (mod 8) for blocks(8) + dilated(2, 4): |G| = 48, D layers, least (Theorem F118)."""
    cert = certificate_of(softmax_source("blocks(8) + dilated(2, 4)", tokens=1048576))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    group = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")["data"]
    assert group["order"] == 48
    assert _forged(cert, "SYM-AUT", lambda d: d.update(order=24))
