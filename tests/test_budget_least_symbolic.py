"""A `layers M` budget against a least count that is one number on a family theorem's whole range (docs/theory.md
§12, PAT-BUDGET-CLASS with L = 1): D ≤ M below a count proved least is NOT-UAP on the range (the theorem's view
witness at depth D is one at depth M), M at least the count is UAP, and M between D and a count not shown least is
INCONCLUSIVE with the reason. Each verdict is compared with the concrete engine at every n of the range up to 60;
the kernel and the verifier re-check the step, and reject it tampered."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

SOURCE = """tokens {n}
layers {m}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern {pattern}
}}
"""
# Theorem F89 (d): D = 2, 3 layers least by the swap (2 14) at the root 36, n ≥ 36
STRIDES = "strided(4) + strided(6) + strided(9)"
# Theorem F55: window(1) cyclic + strided(5), D = 3, 4 layers least, n ≥ 35
RING = "window(1) cyclic + strided(5)"
# Theorem F89: D = 2, 3 layers sufficient, not shown least (n ≥ 60; no F112 table either)
OPEN = "strided(4) + strided(5) + strided(6)"
N = sympy.Symbol("n", integer=True, positive=True)


def _check(pattern: str, n, m: int):
    return uapcheck.check(SOURCE.format(n=n, m=m, pattern=pattern), "b.uap")


@pytest.fixture(scope="module")
def strides_two():
    return _check(STRIDES, "n", 2)


def test_a_budget_below_a_least_count_is_not_uap_on_the_range(strides_two):
    r = strides_two
    assert r.verdict == "NOT-UAP"
    step = next(s for s in r.root.walk() if s.rule == "PAT-BUDGET-CLASS")
    assert step.proved and step.facts["modulus"] == 1 and step.facts["residues"] == (0,)
    assert step.facts["residue_class"] == sympy.Ge(N, 36)
    assert "`layers 2` on n ≥ 36 is below the least number of layers there (m = 3" in step.claim
    assert "the swap (2 14) at position 36" in step.claim and "Theorem F89" in step.claim
    assert r.root.premises[-2].rule == "PAT-BUDGET-CLASS" or step in r.root.premises


@pytest.mark.parametrize("pattern, low, budget, count", [(STRIDES, 36, 2, 3), (RING, 35, 3, 4)])
def test_the_symbolic_verdicts_are_the_concrete_ones_at_every_n(pattern, low, budget, count):
    """Below the count: NOT-UAP at every n of the range up to 60; with the count: UAP with it there."""
    below, enough = _check(pattern, "n", budget), _check(pattern, "n", count)
    assert below.verdict == "NOT-UAP" and enough.verdict == "UAP" and enough.layers == count
    for n in range(low, 61):
        assert _check(pattern, n, budget).verdict == "NOT-UAP", n
        at = _check(pattern, n, count)
        assert at.verdict == "UAP" and at.layers == count, n


def test_a_budget_between_d_and_a_count_not_shown_least_says_so():
    r = _check(OPEN, "n", 2)
    assert r.verdict == "INCONCLUSIVE"
    step = next(s for s in r.root.walk() if s.rule == "PAT-BUDGET-VIEW")
    assert step.status is proof.UNDECIDED and "residue_class" not in step.facts
    assert "which suffice and are not shown least (PAT-LAYERS: whether fewer suffice is open)" in step.claim
    assert not any(s.rule == "PAT-BUDGET-CLASS" for s in r.root.walk())


def test_a_budget_at_the_count_is_uap_and_one_below_the_diameter_is_not_on_the_range():
    assert _check(STRIDES, "n", 3).verdict == "UAP"
    one = _check(STRIDES, "n", 1)
    step = next(s for s in one.root.walk() if s.rule == "PAT-BUDGET-CLASS")
    assert one.verdict == "NOT-UAP" and step.facts["residue_class"] == sympy.Ge(N, 36)
    assert "`layers 1` on n ≥ 36 is below the directed diameter there (D = 2)" in step.claim


def test_the_kernel_checks_the_whole_range_budget(strides_two):
    from uapcheck.certificates import BudgetByClass
    step = next(s for s in strides_two.root.walk() if s.rule == "PAT-BUDGET-CLASS")
    layer_step = step.premises[0]
    BudgetByClass(layer_step, 2, 1, (0,)).check()
    open_step = next(s for s in _check(OPEN, "n", 2).root.walk() if s.rule == "PAT-LAYERS")
    for bad in (BudgetByClass(layer_step, 3, 1, (0,)),  # 3 layers are the count: they suffice
                BudgetByClass(layer_step, 2, 2, (0,)),  # the count is not a function of n mod 2
                BudgetByClass(layer_step, 2, 1, (1,)),  # not a residue mod 1
                BudgetByClass(open_step, 2, 1, (0,)),  # a count not shown least
                BudgetByClass(step, 2, 1, (0,))):  # not a PAT-LAYERS step
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def _cert():
    text = SOURCE.format(n="n", m=2, pattern=STRIDES)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "b.uap"), text)))


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_re_derives_the_whole_range_budget():
    report = verify(_cert())
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps] + report.problems
    step = next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS")
    assert step.outcome == VERIFIED and "n ≥ 36" in step.reason


@pytest.mark.parametrize("tamper", ["budget", "range below the theorem's", "no range", "not least", "count"])
def test_the_verifier_rejects_a_tampered_whole_range_budget(tamper):
    cert = _cert()
    budget, layers = _step(cert, "PAT-BUDGET-CLASS"), _step(cert, "PAT-LAYERS")
    if tamper == "budget":
        budget["data"]["budget"] = 3
    elif tamper == "range below the theorem's":  # NOT-UAP claimed from n = 30 on, where F89 does not hold yet
        budget["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 30]}
    elif tamper == "no range":
        budget["data"].pop("range")
    elif tamper == "not least":
        layers["data"]["least"] = False
    else:  # the count stated as 2 = D: the budget is no longer below it
        layers["data"]["layers"] = 2
    report = verify(cert)
    assert not report.ok
    assert next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS").outcome == REJECTED or tamper in (
        "not least", "count")


def test_the_headline_states_the_range(strides_two):
    assert headline(strides_two).startswith("NOT-UAP (for n ≥ 36)")
