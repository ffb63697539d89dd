"""`uapcheck verify` on Theorem F171 (docs/theory.md §11.11): a head `blocks(b) + strided(s)` beside heads of hubs at
symbolic n. The verifier (uapcheck/verifier/grid_hubs.py) re-derives every class's order formula from its own marked
partitions, cells and twin classes and nauty's order; a tampered certificate (constant, growth, range, name, hubs,
modulus, stated order) is rejected."""
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


def _grid(cert) -> dict:
    """The Theorem F171 certificate of the first class (the group is stated by residue class)."""
    c = _step(cert)["certificate"]
    return c if c["kind"] == "grid hub heads" else c["classes"][0]["certificate"]


CASES = [("blocks(4) + strided(3)", "global(2)"), ("blocks(3) + strided(2)", "star"),
         ("blocks(2) + strided(3)", "star", "global(2)")]


@pytest.mark.parametrize("patterns", CASES, ids=[" | ".join(c) for c in CASES])
def test_the_group_is_verified(patterns):
    cert = _cert(*patterns)
    assert _grid(cert)["kind"] == "grid hub heads"
    step = _group(verify(cert))
    assert step.outcome == VERIFIED, step.reason
    assert "F171" in step.reason and "nauty" in step.reason


@pytest.fixture(scope="module")
def grid():
    return _cert("blocks(3) + strided(2)", "star")


def _rejected(cert) -> bool:
    return _group(verify(cert)).outcome == REJECTED


def _every(cert):
    """Every class's Theorem F171 certificate (each carries the whole decision)."""
    c = _step(cert)["certificate"]
    return [e["certificate"] for e in c["classes"]] if c["kind"] != "grid hub heads" else [c]


def _tamper(grid, change) -> dict:
    cert = copy.deepcopy(grid)
    for c in _every(cert):
        change(c)
    return cert


def test_a_wrong_constant_is_rejected(grid):
    assert _rejected(_tamper(grid, lambda c: c["classes"][0].update(constant=c["classes"][0]["constant"] * 2)))


def test_a_wrong_growth_is_rejected(grid):
    def change(c):
        f = c["classes"][0]["factorials"]
        f[0][1] += 1
    assert _rejected(_tamper(grid, change))


def test_a_range_lowered_below_the_lemma_is_rejected(grid):
    def change(c):
        for k in c["classes"]:
            k["from"] = k["from"] - 6
    assert _rejected(_tamper(grid, change))


def test_a_wrong_name_is_rejected(grid):
    assert _rejected(_tamper(grid, lambda c: c.update(name=c["name"].replace("mod 2", "mod 3"))))


def test_other_hubs_are_rejected(grid):
    assert _rejected(_tamper(grid, lambda c: c.update(hubs=[2])))


def test_another_modulus_is_rejected(grid):
    assert _rejected(_tamper(grid, lambda c: c.update(modulus=12)))


def test_a_stated_order_that_is_no_class_formula_is_rejected(grid):
    assert _rejected(_tamper(grid, lambda c: c.update(order=encode(__import__("sympy").Integer(7)))))


def test_an_order_written_in_a_params_name_is_rejected():
    """Each class's formula in n written in q, a param of the file: not the class's order (only the length is n)."""
    from certificates import certificate_of, rename_class_orders
    cert = certificate_of("param q integer >= 1\n" + "".join(
        f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n" for p in ("blocks(3) + strided(2)", "star")))
    assert _group(verify(cert)).outcome == VERIFIED
    forged = copy.deepcopy(cert)
    rename_class_orders(_step(forged), "n", "q")
    assert _group(verify(forged)).outcome == REJECTED
