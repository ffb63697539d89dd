"""`uapcheck verify` on Theorems F115 and F116 (docs/theory.md §11.11): `blocks(b)` with non-cyclic window, dilated and
offsets parts. The verifier's own restatement (uapcheck/verifier/periodic_lines.py: its own transfer matrices on Z,
min-plus powers, ranges, D at one length per residue by BFS on its own arcs, ball certificate and end groups with
nauty) matches the engine's values, re-checks instances on its arcs, and rejects forged claims naming their step."""
from __future__ import annotations

import pytest
from certificates import assert_rests_on, certificate_of
from periodic_restatements import forged as _forged

from uapcheck.graphs import periodic_lines as engine
from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier import periodic_lines as restated
from uapcheck.verifier.trees import encode


def _source(pattern: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


@pytest.fixture(scope="module")
def overlap() -> dict:
    return certificate_of(_source("blocks(3) + dilated(2, 2)"))


def test_the_union_rests_on_the_verifier_s_own_theorem(overlap):
    assert_rests_on(overlap, "Theorem F115")


@pytest.mark.parametrize("b, jumps", [(3, (-4, -2, 2, 4)), (3, (-4, 1)), (7, (-4, -3, -2, 3, 4)), (3, (-2, 2))])
def test_the_restatement_agrees_with_the_engine(b, jumps):
    """Range, D at the base lengths and the end groups' orders, computed independently."""
    data = engine.decide(b, jumps)
    found = restated.restated(b, jumps)
    assert data is not None and found is not None
    low, diameter_low, period, growth, base, left, right, symmetric = found
    assert (low, diameter_low, period, growth, base) == (data.low, data.diameter_low, data.period, data.growth, data.base)
    assert (left, right, symmetric) == (data.left_order, data.right_orders, data.symmetric)


def test_no_restatement_without_a_certificate():
    """`blocks(4) + dilated(3, 2)`: the residues mod 2 are exchanged by a symmetry, so neither the engine nor the
    verifier states F115 there."""
    assert restated.restated(4, (-6, -4, -2, 2, 4, 6)) is None
    assert restated.restated(8, (-6, -4, 6)) is None


def test_a_forged_order_is_rejected(overlap):
    assert _forged(overlap, "SYM-AUT", lambda d: d["order cases"][0].update(order=encode(4)))


def test_a_range_below_the_theorem_is_rejected(overlap):
    step = next(s for s in overlap["steps"] if s["rule"] == "PAT-CONNECTED")
    assert step["data"]["from"] == encode(61)  # proved from 90, the lengths 61..89 computed (the verifier's own too)
    assert _forged(overlap, "PAT-CONNECTED", lambda d: d.update({"from": encode(60)}))
    assert _forged(overlap, "SYM-AUT", lambda d: d.update({"from": encode(40)}))


def test_a_forged_layer_count_is_rejected(overlap):
    """D, least (Theorem F118): D + 1 layers, or D not claimed least, is rejected."""
    step = next(s for s in overlap["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True and step["data"]["layers"] == step["data"]["diameter"]
    assert _forged(overlap, "PAT-LAYERS", lambda d: d.update(layers={"op": "+", "args": [d["diameter"], 1]}))
    assert _forged(overlap, "PAT-LAYERS", lambda d: d.update(least=False))


def test_a_forged_diameter_is_rejected(overlap):
    from uapcheck.verifier.trees import decode
    import sympy
    n = sympy.Symbol("n", integer=True, positive=True)

    def forge(d):
        d["diameter"] = encode(decode(d["diameter"], {"n": n}) + 1)
    assert _forged(overlap, "PAT-CONNECTED", forge)


def test_a_concrete_length_far_past_the_engine_is_verified():
    """At n = 1,048,576 the verifier's own closed forms give D, the order and the layers."""
    report = verify(certificate_of(_source("blocks(3) + dilated(2, 2)", "tokens 1048576\n")))
    assert REJECTED not in {s.outcome for s in report.steps}, [(s.rule, s.outcome, s.reason) for s in report.steps]
