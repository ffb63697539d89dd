"""The proof kernel cannot be bypassed: every ordinary way of making, copying or changing a step fails.

Each test below is one way a `proved` step could be forged; each must fail. (Python has no true
encapsulation — closure cells, the garbage collector and ctypes reach anything; docs/theory.md §2
states the trust model.)"""
from __future__ import annotations

import copy
import dataclasses
import pickle
import weakref

import pytest

import uapcheck
from uapcheck import proof
from uapcheck.rules import limit, pattern, verdict

DENSE = "attention { kernel k(x, y) = exp(x . y) }\n"


@pytest.fixture(scope="module")
def result():
    return uapcheck.check(DENSE)


@pytest.fixture(scope="module")
def undecided_step():
    return pattern.undecided_step("a pattern", "a reason")


def test_a_step_cannot_be_constructed():
    with pytest.raises(RuntimeError):
        proof.Step("X", "claim", proof.PROVED, (), {}, "cite")
    with pytest.raises(RuntimeError):
        proof.conclude("claim", proof.PROVED)


def test_replace_cannot_copy_a_step_with_another_status(undecided_step):
    with pytest.raises(TypeError):
        dataclasses.replace(undecided_step, status=proof.PROVED)


def test_no_seal_or_step_table_is_a_module_attribute(result):
    assert not hasattr(proof, "_SEAL")
    for name, value in vars(proof).items():
        if isinstance(value, (dict, weakref.WeakKeyDictionary)):
            assert not any(isinstance(k, proof.Step) for k in list(value)), name
    # RULES is a read-only view
    with pytest.raises(TypeError):
        proof.RULES["FORGED"] = proof.RULES["VERDICT-T1"]  # type: ignore[index]


def test_object_setattr_cannot_change_a_step(undecided_step):
    with pytest.raises(AttributeError):
        object.__setattr__(undecided_step, "status", proof.PROVED)
    with pytest.raises(AttributeError):
        undecided_step.status = proof.PROVED
    with pytest.raises(AttributeError):
        del undecided_step.claim
    assert undecided_step.status is proof.UNDECIDED


def test_the_step_class_cannot_be_patched_or_subclassed():
    with pytest.raises(AttributeError):
        proof.Step.status = property(lambda self: proof.PROVED)
    with pytest.raises(AttributeError):
        proof.Step.proved = True
    with pytest.raises(TypeError):
        type("Fake", (proof.Step,), {})


def test_steps_cannot_be_pickled_or_copied(undecided_step):
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps, lambda s: s.__reduce_ex__(4)):
        with pytest.raises(TypeError):
            attempt(undecided_step)


def test_an_empty_step_object_is_no_step_and_no_premise():
    hollow = object.__new__(proof.Step)
    with pytest.raises(RuntimeError):
        _ = hollow.status
    assert not proof.is_step(hollow)
    with pytest.raises(RuntimeError):
        verdict.pe_lift(hollow)


def test_evidence_and_facts_are_copies(result):
    step = next(s for s in result.root.walk() if s.evidence)
    before = step.evidence
    step.evidence.clear()
    assert step.evidence == before
    facts = step.facts
    facts["forged"] = True
    assert "forged" not in step.facts


def test_rules_are_registered_only_in_the_rules_package():
    with pytest.raises(RuntimeError, match="registry is closed|uapcheck.rules"):
        @proof.rule("TEST-FORGE", "forged", "nowhere", statuses=(proof.PROVED,))
        def forge():
            return proof.conclude("anything", proof.PROVED)
    assert "TEST-FORGE" not in proof.RULES


def test_the_registry_is_closed_after_the_rules_load():
    glb = {"__name__": "uapcheck.rules.forged", "proof": proof}
    code = ("@proof.rule('TEST-LATE', 't', 'c', statuses=(proof.PROVED,))\n"
            "def late():\n    return proof.conclude('x', proof.PROVED)\n")
    with pytest.raises(RuntimeError, match="registry is closed"):
        exec(code, glb)  # noqa: S102 - the test forges a module of the rules package on purpose
    assert "TEST-LATE" not in proof.RULES


def test_a_rule_concludes_only_its_declared_statuses():
    # WP-NYSTROM declares `undecided` only
    assert proof.RULES["WP-NYSTROM"].statuses == frozenset({proof.UNDECIDED})
    assert proof.PROVED not in proof.RULES["LIM-UNDECIDED"].statuses
    assert proof.RULES["VERDICT-T1"].statuses >= {proof.PROVED, proof.UNDECIDED}


def test_code_running_inside_a_rule_cannot_conclude_for_it():
    class Sneaky(dict):
        def items(self):
            proof.conclude("forged from a callback", proof.PROVED)
            return super().items()

    with pytest.raises(RuntimeError, match="outside its module"):
        pattern.undecided_step("p", Sneaky())  # the reason is formatted inside the rule
    class SneakyNumber(int):
        def __format__(self, spec):
            proof.conclude("forged from a callback", proof.PROVED)
            return "2"

    with pytest.raises(RuntimeError, match="outside its module"):
        pattern.connected_step("p", SneakyNumber(2), {})


def test_rule_info_copies_do_not_change_the_kernel():
    info = proof.RULES["WP-NYSTROM"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.statuses = frozenset(proof.STATUSES)  # type: ignore[misc]
    object.__setattr__(info, "statuses", frozenset(proof.STATUSES))
    try:
        step = __import__("uapcheck.rules.analytic", fromlist=["x"]).nystrom_sign()
        assert step.status is proof.UNDECIDED
    finally:
        object.__setattr__(info, "statuses", frozenset({proof.UNDECIDED}))


def test_an_empty_reason_list_is_not_a_proof():
    reduce = limit.reduce_step(_closed_model(), "head")
    step = limit._LIM_RULES["LIM-UNDECIDED"](_closed_model(), False, reduce, [], {}, None)
    assert step.status is proof.UNDECIDED
    step = limit._LIM_RULES["LIM-EXPPOLY"](_closed_model(), False, reduce, [], {}, None)
    assert step.status is proof.UNDECIDED


def test_statuses_are_an_enum_with_the_json_strings(result):
    assert [s.value for s in proof.Status] == ["proved", "refuted", "undecided"]
    assert proof.PROVED == "proved" and f"{proof.PROVED}" == "proved" and str(proof.REFUTED) == "refuted"
    from uapcheck.render.jsonout import dumps, result_json
    text = dumps(result_json(result))
    assert '"status": "proved"' in text


def _closed_model():
    from uapcheck.lower import lower_head
    from uapcheck.parse import parse_source
    spec = parse_source(DENSE, "t.uap")
    return lower_head(spec, spec.heads[0])
