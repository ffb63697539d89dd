"""`uapcheck verify` on several heads' group at a concrete length (docs/theory.md §11.11, Theorem F125 (a)): the
verifier re-decides Theorems F35–F39 at symbolic n with its own arcs and tables, then checks that the file's length
lies in the stated class from its bound on and that the order is the class's there; a tampered length, order or
class is rejected."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate_of

from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier.trees import encode

N = 1_048_576


def _source(*heads: str, n: int = N) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n" for h in heads)


def _step(cert):
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _outcome(cert):
    return next(s for s in verify(cert).steps if s.rule == "SYM-AUT")


@pytest.fixture(scope="module")
def cert():
    return certificate_of(_source("star", "offsets {-5, 3} cyclic"))


def test_the_group_at_the_length_is_verified(cert):
    step = _outcome(cert)
    assert step.outcome == VERIFIED, step.reason
    assert f"n = {N} lies in the class" in step.reason and "F35" in step.reason


def test_another_length_is_rejected(cert):
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["n"] = N + 1
    assert _outcome(forged).outcome == REJECTED


def test_a_wrong_order_is_rejected(cert):
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["order"] = encode(2)
    _step(forged)["data"]["order"] = 2
    assert _outcome(forged).outcome == REJECTED


def test_a_class_that_does_not_hold_the_length_is_rejected():
    cert = certificate_of(_source("window(2) + global(3)", "strided(9) + global(2)"))
    certificate = _step(cert)["certificate"]
    assert certificate["stated class"]["residue"] == N % 9
    assert _outcome(cert).outcome == VERIFIED
    other = next(c for c in certificate["classes"] if c["residue"] != N % 9)
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["stated class"] = {"residue": other["residue"], "from": other["from"]}
    assert _outcome(forged).outcome == REJECTED


def test_classes_with_one_group_and_their_own_bounds_are_verified():
    """No class is stated when every class has the same group (trivial here, modulus 24, bounds 11 to 34): the
    length's own class and bound are checked."""
    cert = certificate_of(_source("star + window(4)", "blocks(8) + blocks(3)"))
    certificate = _step(cert)["certificate"]
    assert "stated class" not in certificate and certificate["modulus"] == 24
    step = _outcome(cert)
    assert step.outcome == VERIFIED, step.reason


def _layers(cert):
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def test_the_count_at_the_length_is_verified_and_a_tampered_one_rejected(cert):
    step = next(s for s in verify(cert).steps if s.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED, step.reason
    assert f"read at n = {N}: 3 layers" in step.reason
    forged = copy.deepcopy(cert)
    _layers(forged)["data"]["layers"] = 2
    assert next(s for s in verify(forged).steps if s.rule == "PAT-LAYERS").outcome == REJECTED
    forged = copy.deepcopy(cert)
    _layers(forged)["certificate"]["n"] = 7
    assert next(s for s in verify(forged).steps if s.rule == "PAT-LAYERS").outcome == REJECTED
