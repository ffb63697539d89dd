"""A `layers M` budget against a count that depends on n mod L (docs/theory.md §12, PAT-BUDGET-CLASS): NOT-UAP on
the classes where M is below the diameter or below a least count, UAP on the others with the range restricted to
them (the kernel and the verifier re-derive that the range excludes the NOT-UAP classes), INCONCLUSIVE on classes
where M lies between D and a count not shown least. Compared with the concrete engine at every n in range ≤ 40."""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile, proof
from uapcheck.render import jsonout
from uapcheck.render.verdict_lines import headline
from uapcheck.verifier import REJECTED, VERIFIED, verify

BLOCKS = """tokens {n}
attention {{
  kernel k(x, y) = exp(x . y)
  pattern blocks(2) + strided(3)
}}
layers {m}
"""


@pytest.fixture(scope="module")
def three():
    return uapcheck.check(BLOCKS.format(n="n", m=3), "b.uap")


def test_a_budget_below_the_odd_classes_count_is_not_uap_there(three):
    """Theorem F57: 4 layers least for odd n, 3 for even n (n ≥ 9); `layers 3` is UAP for even n only."""
    assert three.verdict == "UAP" and three.layers == 3
    assert headline(three).endswith("· 3 attention layers (for n ≥ 9 and n even); NOT-UAP for n ≥ 9 and n odd; "
                                    "UAP at n = 1, 2, 4, 6…8; NOT-UAP at n = 3, 5")
    step = next(s for s in three.root.walk() if s.rule == "PAT-BUDGET-CLASS")
    assert step.proved and step.facts["modulus"] == 2 and step.facts["residues"] == (1,)
    out = jsonout.result_json(three)
    assert out["by_class"] == [{"condition": "n ≥ 9 and n odd", "verdict": "NOT-UAP"}]


@pytest.mark.parametrize("n", range(9, 41))
def test_each_class_verdict_is_the_concrete_one(three, n):
    concrete = uapcheck.check(BLOCKS.format(n=n, m=3), "b.uap")
    if n % 2:
        assert concrete.verdict == "NOT-UAP"
    else:
        assert concrete.verdict == "UAP" and concrete.layers == 3
        assert bool(three.group.condition_formula.subs(sympy.Symbol("n", integer=True, positive=True), n))


def test_a_range_in_words_only_falls_back_to_one_comparison_per_class():
    """Without a formula for the range the classes cannot be stated; the budget is then compared on every class
    of the count (not at one large n only): below the odd classes' count, the verdict is not UAP."""
    from uapcheck.parse import parse_source
    from uapcheck.groups import GroupInfo
    from uapcheck.rules.pattern import budget_by_class, budget_check
    n = sympy.Symbol("n", integer=True, positive=True)
    layers = sympy.Piecewise((4, sympy.Eq(sympy.Mod(n, 2), 1)), (3, True))
    spec = parse_source(BLOCKS.format(n="n", m=3), "b.uap")
    step = _layer_step(layers, sympy.Integer(3), False)
    assert budget_by_class(spec, step, GroupInfo("trivial", 1, (), "n ≥ 2·w + 3")) is None
    fallback = budget_check(spec, layers, sympy.Integer(3))
    assert fallback is not None and fallback.rule == "PAT-BUDGET-VIEW" and fallback.status is proof.UNDECIDED


def test_a_budget_below_every_class_is_not_uap_and_one_above_is_uap():
    two = uapcheck.check(BLOCKS.format(n="n", m=2), "b.uap")
    assert two.verdict == "NOT-UAP" and "by_class" not in jsonout.result_json(two)
    four = uapcheck.check(BLOCKS.format(n="n", m=4), "b.uap")
    assert four.verdict == "UAP" and not any(s.rule == "PAT-BUDGET-CLASS" for s in four.root.walk())
    assert "4 if n mod 2 = 1, else 3 attention layers (for n ≥ 9); UAP at n = " in headline(four)


def test_the_kernel_checks_the_budget_class_by_class(three):
    from uapcheck.certificates import BudgetByClass
    step = next(s for s in three.root.walk() if s.rule == "PAT-BUDGET-CLASS")
    layer_step = step.premises[0]
    BudgetByClass(layer_step, 3, 2, (1,)).check()
    for bad in (BudgetByClass(layer_step, 3, 2, (0,)),  # 3 layers suffice for even n
                BudgetByClass(layer_step, 4, 2, (1,)),  # 4 is the odd classes' count
                BudgetByClass(layer_step, 3, 4, (1,)),  # not the count's modulus
                BudgetByClass(step, 3, 2, (1,))):  # not a PAT-LAYERS step
        with pytest.raises(proof.CertificateRejected):
            bad.check()


def _layer_step(layers, diameter, least: bool):
    from uapcheck.certificates import Trusted
    from uapcheck.rules.pattern import connected_step, layers_step
    conn = connected_step("d", Trusted("t", "t", {"diameter": diameter, "exact": True}), {})
    return layers_step(conn, diameter, layers, least, "test", family=None) if least else \
        layers_step(conn, diameter, layers, False, "test")


def test_a_budget_between_d_and_a_count_not_shown_least_is_inconclusive_there():
    """D = 3 on every class, a count D + 1 = 4 not shown least on odd n and 3 on even n: `layers 3` is undecided
    on the odd classes only (PAT-BUDGET-VIEW stated for them), and the verdict of the even classes is UAP."""
    from uapcheck.parse import parse_source
    from uapcheck.rules.pattern import budget_by_class
    from uapcheck.rules import verdict as V
    n = sympy.Symbol("n", integer=True, positive=True)
    layers = sympy.Piecewise((4, sympy.Eq(sympy.Mod(n, 2), 1)), (3, True))
    step = _layer_step(layers, sympy.Integer(3), False)
    spec = parse_source(BLOCKS.format(n="n", m=3), "b.uap")
    from uapcheck.groups import GroupInfo
    steps = budget_by_class(spec, step, GroupInfo("trivial", 1, (), "n ≥ 9", n >= 9))
    assert [s.rule for s in steps] == ["PAT-BUDGET-VIEW"] and steps[0].status is proof.UNDECIDED
    assert steps[0].facts["residues"] == (1,)
    r = uapcheck.check(BLOCKS.format(n="n", m=3), "b.uap")
    cert = r.root.certificate
    structure = tuple(s for s in cert.structure if s.rule != "PAT-BUDGET-CLASS") + tuple(steps)
    got, _, group, lay, _ = V.decide(cert.ffn, cert.heads, structure, cert.group_step, cert.dim)
    assert got is proof.Verdict.UAP and lay == 3
    assert [bool(group.condition_formula.subs(n, v)) for v in (9, 10, 11, 12)] == [False, True, False, True]
    others = V.class_verdicts(structure, cert.group_step, got)
    assert [(s.rule, v) for s, v in others] == [("PAT-BUDGET-VIEW", proof.Verdict.INCONCLUSIVE)]


def _cert():
    text = BLOCKS.format(n="n", m=3)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "b.uap"), text)))


def test_the_verifier_re_derives_the_budget_and_the_range():
    report = verify(_cert())
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps] + report.problems
    step = next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS")
    assert step.outcome == VERIFIED


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


@pytest.mark.parametrize("tamper", ["even class", "budget", "range without classes", "no range", "unlisted",
                                    "summary layers"])
def test_the_verifier_rejects_a_tampered_budget_by_class(tamper):
    cert = _cert()
    budget, root = _step(cert, "PAT-BUDGET-CLASS"), cert["steps"][-1]
    if tamper == "even class":  # NOT-UAP claimed for even n, where 3 layers suffice
        budget["data"]["classes"]["residues"] = [0]
    elif tamper == "budget":
        budget["data"]["budget"] = 4
    elif tamper == "range without classes":  # the UAP range n ≥ 9 contains the odd classes
        root["data"]["range"] = {"rel": ">=", "args": [{"sym": "n"}, 9]}
    elif tamper == "no range":
        root["data"]["range"] = None
    elif tamper == "unlisted":  # the odd classes' NOT-UAP not stated
        root["data"]["classes"] = []
    else:  # the count of the odd classes stated for the verdict
        cert["layers"] = 4
    report = verify(cert)
    assert not report.ok
    if tamper in ("even class", "budget"):
        assert next(s for s in report.steps if s.rule == "PAT-BUDGET-CLASS").outcome == REJECTED
