"""`uapcheck verify` on F86's classes found by Theorem F76 (docs/theory.md §11.11: partition heads whose union has
D = 2 need 2 layers on a class where no position's ball misses two parts of one head). The verifier
(uapcheck/verifier/partition_layers.py) reads the heads itself, recomputes N and L, and re-checks the condition
on its own arcs at every length of the class up to N + M − 1; tampered certificates are rejected."""
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


def _rejected(cert) -> bool:
    return _layers(verify(cert)).outcome == REJECTED


CASES = [("blocks(4) + global(1)", "strided(4)"), ("blocks(3) + global(1)", "strided(3)"),
         ("blocks(4) + global(1)", "strided(2)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_least_count_is_verified(patterns):
    cert = _cert(*patterns)
    step = _step(cert)
    assert step["certificate"]["theorem"] == "F86" and step["data"]["least"] is True
    assert any(c["found by"] == "F76" for c in step["certificate"]["classes"])
    got = _layers(verify(cert))
    assert got.outcome == VERIFIED, got.reason
    assert "F76" in got.reason


@pytest.fixture(scope="module")
def catalog_pair():
    return _cert("blocks(4) + global(1)", "strided(4)")


def _class(cert, residue):
    return next(c for c in _step(cert)["certificate"]["classes"] if c["residue"] == residue)


def test_a_swap_class_restated_as_two_layers_is_rejected(catalog_pair):
    # n ≡ 1 (mod 4): a root in the last block (one position) hides three residue classes; claiming F76 there (with the
    # step's count 2 everywhere) fails the verifier's own check of the balls
    cert = copy.deepcopy(catalog_pair)
    c = _class(cert, 1)
    c.update({"found by": "F76", "layers": 2})
    c.pop("position", None)
    c.pop("swap", None)
    step = _step(cert)
    step["data"]["layers"] = encode(2)
    got = _layers(verify(cert))
    assert got.outcome == REJECTED
    assert "misses two parts" in got.reason or "layers" in got.reason


def test_three_layers_on_an_f76_class_is_rejected(catalog_pair):
    cert = copy.deepcopy(catalog_pair)
    _class(cert, 0)["layers"] = 3
    assert _rejected(cert)


def test_an_f76_class_bound_outside_the_range_is_rejected(catalog_pair):
    cert = copy.deepcopy(catalog_pair)
    _class(cert, 0)["from"] = 4
    assert _rejected(cert)


def test_the_verifiers_condition_sees_a_ball_that_hides_two_parts():
    from uapcheck.spec import Blocks, Global, PatternUnion, Strided
    from uapcheck.verifier import patterns
    from uapcheck.verifier.partition_layers import no_root_hides_two_parts
    heads = (PatternUnion((Blocks(4), Global(1))), Strided(4))
    for n, holds in ((20, True), (21, False), (22, False), (23, True)):
        assert no_root_hides_two_parts([patterns.head_arcs(p, n) for p in heads], n) is holds, n
