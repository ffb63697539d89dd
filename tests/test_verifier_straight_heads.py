"""`uapcheck verify` on Theorem F75 (docs/theory.md §11.11): several symmetric heads whose union is straight
(F21's blocks(b) + window(w)) need D layers when the positions at distance D from any position form a clique in
every head. The verifier (uapcheck/verifier/straight_heads.py) takes the union from its own F21 entry and re-checks
the cliques from every root on its own arcs at every length up to its own N + M − 1; tampered certificates are
rejected."""
from __future__ import annotations

import copy
import hashlib
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


def _rejected(cert) -> bool:
    return _layers(verify(cert)).outcome == REJECTED


CASES = [("window(2)", "blocks(4)"), ("window(1)", "blocks(3)"), ("window(3)", "blocks(6)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_least_count_is_verified(patterns):
    cert = _cert(*patterns)
    step = _step(cert)
    assert step["certificate"]["kind"] == "head layers" and step["certificate"]["theorem"] == "F75"
    assert step["data"]["least"] is True
    got = _layers(verify(cert))
    assert got.outcome == VERIFIED, got.reason
    assert "F75" in got.reason


@pytest.fixture(scope="module")
def pair():
    return _cert("window(2)", "blocks(4)")


def test_one_layer_fewer_is_rejected(pair):
    cert = copy.deepcopy(pair)
    step = _step(cert)
    step["data"]["layers"] = encode(uapcheck_layers_minus_one(step))
    assert _rejected(cert)


def uapcheck_layers_minus_one(step):
    import sympy

    from uapcheck.verifier.trees import decode
    n = sympy.Symbol("n", integer=True, positive=True)
    return decode(step["data"]["layers"], {"n": n}) - 1


def test_a_range_below_the_unions_bound_is_rejected(pair):
    cert = copy.deepcopy(pair)
    _step(cert)["certificate"]["from"] = 12
    _step(cert)["data"]["from"] = 12
    assert _rejected(cert)


def test_another_union_theorem_is_rejected(pair):
    cert = copy.deepcopy(pair)
    _step(cert)["certificate"]["union theorem"] = "F7"
    assert _rejected(cert)


def test_other_heads_under_the_same_certificate_are_rejected(pair):
    # the same certificate for window(1) | blocks(4) (the input re-hashed): another D on some class, and far ends
    # that are not cliques in the window head (the concrete engine finds D + 1 layers there)
    cert = copy.deepcopy(pair)
    text = cert["input"]["text"].replace("window(2)", "window(1)")
    cert["input"].update({"text": text, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    assert _rejected(cert)


def test_the_verifiers_clique_check_sees_a_head_that_splits_a_far_end():
    # window(3) | blocks(6) passes at every length; a third head window(1) keeps the union (and D) but splits the
    # far ends (positions at distance D from a root that are more than 1 apart)
    from uapcheck.spec import Blocks, Window
    from uapcheck.verifier import patterns
    from uapcheck.verifier.straight_heads import _far_cliques
    for n in range(19, 31):
        two = [patterns.head_arcs(p, n) for p in (Window(3), Blocks(6))]
        three = two + [patterns.head_arcs(Window(1), n)]
        assert _far_cliques(two, n) >= 2 and _far_cliques(three, n) == -1, n


def test_an_unknown_theorem_is_rejected(pair):
    cert = copy.deepcopy(pair)
    _step(cert)["certificate"]["theorem"] = "F76"
    assert _rejected(cert)
