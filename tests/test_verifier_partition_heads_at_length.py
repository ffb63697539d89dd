"""`uapcheck verify` on two partition heads at a concrete length (docs/theory.md §11.11, Theorem F126): the verifier
re-derives Theorem F72's classes at symbolic n with its own cells, twin classes and nauty, then checks that the file's
length lies in the class whose formula the certificate states, from its bound on; a tampered length or formula is
rejected. The least count at that length (F86 by F125 (b)) is verified alongside."""
from __future__ import annotations

import copy

import pytest
from certificates import certificate_of

from uapcheck.verifier import REJECTED, VERIFIED, verify

N = 1_048_577  # n ≡ 1 (mod 4): 3 layers, |G| = 6·(⌊n/4⌋ − 1)!


def _source(*heads: str, n: int = N) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n" for h in heads)


def _step(cert, rule="SYM-AUT"):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def _outcome(cert, rule="SYM-AUT"):
    return next(s for s in verify(cert).steps if s.rule == rule)


@pytest.fixture(scope="module")
def cert():
    return certificate_of(_source("blocks(4) + global(1)", "strided(4)"))


def test_the_group_and_the_count_at_the_length_are_verified(cert):
    assert _step(cert)["certificate"]["kind"] == "partition heads" and _step(cert)["certificate"]["n"] == N
    step = _outcome(cert)
    assert step.outcome == VERIFIED, step.reason
    assert f"read at n = {N}" in step.reason and "n ≡ 1 (mod 4)" in step.reason
    layers = _outcome(cert, "PAT-LAYERS")
    assert layers.outcome == VERIFIED and "3 layers" in layers.reason, layers.reason


def test_another_length_is_rejected(cert):
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["n"] = N + 1
    assert _outcome(forged).outcome == REJECTED


def test_another_class_formula_is_rejected(cert):
    """The class n ≡ 2 (mod 4) has 2·(⌊n/4⌋ − 1)!: stating it at n ≡ 1 is rejected."""
    other = certificate_of(_source("blocks(4) + global(1)", "strided(4)", n=N + 1))
    forged = copy.deepcopy(cert)
    _step(forged)["certificate"]["order"] = _step(other)["certificate"]["order"]
    assert _step(forged)["certificate"]["order"] != _step(cert)["certificate"]["order"]
    assert _outcome(forged).outcome == REJECTED


def test_a_tampered_class_constant_is_rejected(cert):
    forged = copy.deepcopy(cert)
    classes = _step(forged)["certificate"]["classes"]
    classes[1]["constant"] *= 2
    assert _outcome(forged).outcome == REJECTED


def test_the_other_catalog_pair_is_verified_at_each_class():
    for n in (1_048_576, 1_048_579):
        cert = certificate_of(_source("blocks(4)", "strided(4)", n=n))
        step = _outcome(cert)
        assert step.outcome == VERIFIED, (n, step.reason)
        assert _outcome(cert, "PAT-LAYERS").outcome == VERIFIED


def test_a_count_of_the_other_classes_is_rejected(cert):
    """F86's count by class is written as floors (it was a Piecewise the certificate could not carry); stating 2, the
    count of n ≡ 0, 3 (mod 4), at n ≡ 1 is rejected."""
    forged = copy.deepcopy(cert)
    _step(forged, "PAT-LAYERS")["data"]["layers"] = 2
    assert _outcome(forged, "PAT-LAYERS").outcome == REJECTED
