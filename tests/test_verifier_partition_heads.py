"""`uapcheck verify` on Theorem F72 (docs/theory.md §11.11): two partition heads at symbolic n. The verifier
(uapcheck/verifier/partition_heads.py) re-derives every class's order formula from its own cells and twin classes
and nauty's order; a tampered certificate (constant, growth, range, name, modulus, stated order) is rejected."""
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


def _partition(cert) -> dict:
    """The Theorem F72 certificate: the step's own, or (the group stated by residue class) its first class's."""
    c = _step(cert)["certificate"]
    return c if c["kind"] == "partition heads" else c["classes"][0]["certificate"]


CASES = [("blocks(4) + global(1)", "strided(4)"), ("blocks(4)", "strided(4)"), ("blocks(2)", "strided(3)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_group_is_verified(patterns):
    cert = _cert(*patterns)
    assert _partition(cert)["kind"] == "partition heads"
    step = _group(verify(cert))
    assert step.outcome == VERIFIED, step.reason
    assert "F72" in step.reason and "nauty" in step.reason


@pytest.fixture(scope="module")
def grid():
    return _cert("blocks(4)", "strided(4)")


def _rejected(cert) -> bool:
    return _group(verify(cert)).outcome == REJECTED


def _first(cert):
    return _partition(cert)["classes"][0]


def test_a_wrong_constant_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _first(cert)["constant"] *= 2
    assert _rejected(cert)


def test_a_wrong_growth_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _first(cert)["factorials"][0][1] += 1
    assert _rejected(cert)


def test_a_range_below_the_hypotheses_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _first(cert)["from"] = 0
    assert _rejected(cert)


def test_a_wrong_name_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _partition(cert)["name"] = "the permutations keeping the blocks of 4"
    assert _rejected(cert)


def test_a_wrong_modulus_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _partition(cert)["modulus"] = 2
    assert _rejected(cert)


def test_a_stated_order_of_no_class_is_rejected(grid):
    cert = copy.deepcopy(grid)
    _partition(cert)["order"] = encode(48)
    assert _rejected(cert)


def test_an_order_written_in_a_params_name_is_rejected():
    """Each class's formula in n written in q, a param of the file: not the class's order (only the length is n)."""
    from certificates import certificate_of, rename_class_orders
    cert = certificate_of("param q integer >= 1\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in ("blocks(4)", "strided(4)")))
    assert _group(verify(cert)).outcome == VERIFIED
    forged = copy.deepcopy(cert)
    rename_class_orders(_step(forged), "n", "q")
    assert _group(verify(forged)).outcome == REJECTED
