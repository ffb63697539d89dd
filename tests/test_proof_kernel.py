"""The proof kernel cannot be bypassed: every ordinary way of making, copying or changing a step fails.

Each test below is one way a `proved` step could be forged; each must fail. (Python has no true
encapsulation — closure cells, the garbage collector and ctypes reach anything; docs/theory.md §2
states the trust model.)"""
from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import weakref

import pytest
import sympy

import uapcheck
from uapcheck import proof
from uapcheck.certificates import Generators
from uapcheck.rules import limit, pattern, symmetry, verdict
from uapcheck.groups import GroupInfo

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


def test_nested_evidence_and_certificate_data_are_copies_too():
    """The JSON views of a step (evidence, facts, certificate) are copied all the way down: changing a list or
    dict inside what a caller got never changes the record (a pattern step's evidence nests both)."""
    res = uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\n")
    checked = set()
    for step in res.root.walk():
        for name in ("evidence", "facts_json", "certificate_json"):
            before = json.dumps(getattr(step, name), sort_keys=True)
            got = getattr(step, name)
            for value in (got.values() if isinstance(got, dict) else ()):
                if isinstance(value, (dict, list)) and value:
                    value.clear()
                    checked.add(name)
            assert json.dumps(getattr(step, name), sort_keys=True) == before, (step.rule, name)
    assert checked == {"evidence", "facts_json", "certificate_json"}


def test_a_value_changed_after_conclude_leaves_the_record_as_it_was():
    """`conclude` keeps the evidence and the facts as they were when it ran: a rule (or its caller) that changes a
    nested list or dict it passed afterwards changes neither the step's evidence nor the JSON printed from it,
    whether that JSON is first made before or after the change."""
    res = uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\n")
    connected = next(s for s in res.root.walk() if s.rule == "PAT-CONNECTED")
    for read_first in (False, True):
        witness = {"position": 1, "swap": [2, 3], "range": {"from": [4]}}
        rooted = {"views": [[1, 2], {"depth": [3]}]}
        step = pattern.layers_step(connected, 7, 8, True, "the method", witness, certificate=rooted)
        expected = {"view witness": copy.deepcopy(witness), "rooted views": copy.deepcopy(rooted)}
        if read_first:
            assert step.evidence["view witness"] == expected["view witness"]
        witness["swap"].append(9)
        witness["range"]["from"].clear()
        witness["forged"] = True
        rooted["views"][1]["depth"].append(5)
        rooted["views"][0][0] = 7
        assert step.evidence["view witness"] == expected["view witness"]
        assert step.evidence["rooted views"] == expected["rooted views"]


def test_the_record_copy_shares_only_values_that_cannot_change():
    """`proof._frozen`, what `conclude` keeps of the evidence and the facts: every dict, list and set (and a tuple
    holding one) is copied, a mutable object of any other class too; text, numbers, SymPy values, claims,
    certificates and frozen dataclasses are shared."""
    class Box:
        def __init__(self):
            self.items = [1]

    info = GroupInfo("S_n", "n!", ())
    n = sympy.Symbol("n")
    original = {"list": [1, [2]], "tuple": (1, [2]), "set": {3}, "box": Box(), "info": info, "n": n,
                "nested": {"a": {"b": [1]}}}
    frozen = proof._frozen(original)
    original["list"][1].append(9)
    original["tuple"][1].append(9)
    original["set"].add(9)
    original["box"].items.append(9)
    original["nested"]["a"]["b"].append(9)
    original["new"] = 1
    assert frozen["list"] == [1, [2]] and frozen["tuple"] == (1, [2]) and frozen["set"] == {3}
    assert frozen["box"].items == [1] and frozen["nested"] == {"a": {"b": [1]}} and "new" not in frozen
    assert frozen["info"] is info and frozen["n"] is n
    plain = (1, "a", n)
    assert proof._frozen(plain) is plain


def test_a_fact_holding_a_list_inside_a_dataclass_cannot_be_changed_through_a_reader():
    """`step.fact` and `step.facts` hand out the record's values: a list inside a frozen dataclass fact (a group's
    generators) that a reader, or the rule that passed it, changes afterwards leaves the record, what the next
    reader gets and the JSON made from it as `conclude` saw them."""
    from uapcheck.certificates import Generators
    from uapcheck.rules import symmetry
    graphs = _graphs("window(1)", 6)
    reflection = (6, 5, 4, 3, 2, 1)
    generators = [reflection]
    info = GroupInfo("reflection", 2, generators)  # type: ignore[arg-type]  # a list where the engine puts a tuple
    step = symmetry.group_step("window(1)", info, {}, Generators(graphs, (None,), "none", (reflection,), 2))
    json_before = json.dumps(step.facts_json, sort_keys=True)
    generators.append((1, 2, 3, 4, 5, 6))  # the rule's own list
    step.fact("group").generators.append((2, 1, 3, 4, 5, 6))  # a reader's
    step.facts["group"].generators.clear()
    assert step.fact("group").generators == [reflection] and step.facts["group"].generators == [reflection]
    assert json.dumps(step.facts_json, sort_keys=True) == json_before


def test_a_certificate_holding_a_list_cannot_be_changed_after_it_was_checked():
    """The certificate a step keeps is its own copy of the one checked: a list inside it (a graph tuple passed as a
    list, the realising pair of the diameter as a list) changed by the rule afterwards, or by a reader of
    `step.certificate`, changes neither the record nor its JSON."""
    from uapcheck.certificates import Diameter
    from uapcheck.graphs import analyze_connectivity
    graphs = list(_graphs("window(1)", 8))
    conn = analyze_connectivity(tuple(graphs))
    conn = dataclasses.replace(conn, lower_pair=list(conn.lower_pair))
    certificate = Diameter(graphs, conn)  # type: ignore[arg-type]
    step = pattern.connected_step("window(1)", certificate, {})
    pair = list(conn.lower_pair)
    graphs.clear()
    conn.lower_pair[0] = 99
    step.certificate.graphs.clear()
    step.certificate.connectivity.lower_pair[1] = 99
    assert len(step.certificate.graphs) == 1 and list(step.certificate.connectivity.lower_pair) == pair
    assert step.certificate_json["realised by"] == {"from j": pair[0], "to i": pair[1]}
    step.certificate.check()  # what the record keeps is still the certificate that was checked


def test_values_that_cannot_change_are_shared_with_readers_not_copied():
    """A fact or a certificate holding nothing changeable (tuples, numbers, frozen dataclasses of them) is the
    record's own object; `_frozen` of a frozen dataclass holding a list is a copy with its own list."""
    res = uapcheck.check("tokens 8\nattention { kernel k(x, y) = exp(x . y); pattern window(1) }\n")
    group = next(s for s in res.root.walk() if s.rule == "SYM-AUT")
    assert group.fact("group") is group.fact("group") and group.certificate is group.certificate
    info = GroupInfo("reflection", 2, [(2, 1)])  # type: ignore[arg-type]
    kept = proof._frozen(info)
    assert kept is not info and kept == info and kept.generators is not info.generators


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

    # `conclude` copies the evidence as it is then (the record cannot change later): the callback runs inside the
    # rule, from the test's module, and is refused there
    with pytest.raises(RuntimeError, match="outside its module"):
        pattern.undecided_step("p", Sneaky())
    class SneakyLabel(str):
        def __format__(self, spec):
            proof.conclude("forged from a callback", proof.PROVED)
            return str(self)

    premise = pattern.undecided_step("p", "r")
    with pytest.raises(RuntimeError, match="outside its module"):
        verdict.td_kernel(premise, premise, SneakyLabel("head 1"))


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
    step = limit.CLASS_RULES["LIM-UNDECIDED"](_closed_model(), False, reduce, [], {}, None)
    assert step.status is proof.UNDECIDED
    step = limit.CLASS_RULES["LIM-EXPPOLY"](_closed_model(), False, reduce, [], {}, None)
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


# -- certificates: a rule concludes only from data it re-checks ----------------------------------

def test_a_pattern_rule_does_not_stamp_what_it_is_handed():
    with pytest.raises(proof.CertificateRejected):
        pattern.connected_step("nonsense", 12345, {})
    with pytest.raises(proof.CertificateRejected):
        symmetry.group_step("nonsense", GroupInfo("S_n", 720, ()), {}, {"order": 720})
    graphs = _graphs("window(1)", 6)
    with pytest.raises(proof.CertificateRejected):  # a genuine certificate of another group
        symmetry.group_step("window(1)", GroupInfo("S_n", 720, ()), {},
                           Generators(graphs, (None,), "none", ((6, 5, 4, 3, 2, 1),), 2))


def _graphs(text: str, n: int):
    from uapcheck.graphs import build_graph
    from uapcheck.parse import parse_source
    spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y)\n pattern {text} }}\n", "t.uap")
    return tuple(build_graph(h.pattern, n, {}) for h in spec.heads)


def test_a_wrong_diameter_certificate_is_rejected():
    from uapcheck.certificates import Diameter
    from uapcheck.graphs import analyze_connectivity
    graphs = _graphs("window(1)", 8)
    conn = analyze_connectivity(graphs)
    assert conn.diameter == 7
    Diameter(graphs, conn).check()
    forged = dataclasses.replace(conn, diameter=3, upper=3, lower=3,
                                 upper_bound=dataclasses.replace(conn.upper_bound, bound=3))
    with pytest.raises(proof.CertificateRejected):
        Diameter(graphs, forged).check()
    with pytest.raises(proof.CertificateRejected):
        pattern.connected_step("window(1)", Diameter(graphs, forged), {})
    assert pattern.connected_step("window(1)", Diameter(graphs, conn), {}).facts["diameter"] == 7


def test_receptive_field_and_budget_certificates_are_checked_on_the_arcs():
    from uapcheck.certificates import FarPair, Unreachable
    graphs = _graphs("window(1)", 8)
    FarPair(graphs, 8, 1, 6, 7).check()
    with pytest.raises(proof.CertificateRejected):
        FarPair(graphs, 2, 1, 6, 1).check()  # x_1 reaches 2 in one layer
    with pytest.raises(proof.CertificateRejected):
        Unreachable(graphs, 8, 1, frozenset({8, 7})).check()  # the arc 6 → 7 enters the set


def test_a_view_witness_outside_the_bound_is_rejected():
    from uapcheck.certificates import ViewWitness
    graphs = _graphs("window(1)", 6)
    with pytest.raises(proof.CertificateRejected):
        ViewWitness(graphs, 5, 1, (1, 2, 3, 4, 5, 6)).check()  # the identity is in the group
    with pytest.raises(proof.CertificateRejected):
        ViewWitness(graphs, 5, 1, (2, 1, 3, 4, 5, 6)).check()  # position 1 sees the swap at once


def test_generators_must_preserve_the_heads_and_have_the_stated_order():
    from uapcheck.certificates import Generators
    graphs = _graphs("window(1)", 6)
    reflection = (6, 5, 4, 3, 2, 1)
    Generators(graphs, (None,), "none", (reflection,), 2).check()
    with pytest.raises(proof.CertificateRejected):
        Generators(graphs, (None,), "none", ((2, 1, 3, 4, 5, 6),), 2).check()
    with pytest.raises(proof.CertificateRejected):
        Generators(graphs, (None,), "none", (reflection,), 4).check()


def test_a_limit_certificate_with_no_region_or_agreeing_points_is_rejected():
    from uapcheck.certificates import KeyPoints, LimitCertificate, RegionCertificate, RegionStatus
    from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c  # the docs' names of the invariants
    with pytest.raises(proof.CertificateRejected):
        LimitCertificate((), proof.PROVED).check()
    same = KeyPoints("t^1", a, {a: 1, b: 1, c: 1}, {a: 1, b: 4, c: 1})  # x·z equal at both keys
    with pytest.raises(proof.CertificateRejected):
        LimitCertificate((RegionCertificate("all", RegionStatus.HOLDS, (), (same,)),), proof.PROVED).check()
    differ = KeyPoints("t^1", a, {a: 1, b: 1, c: 1}, {a: 2, b: 4, c: 1})
    LimitCertificate((RegionCertificate("all", RegionStatus.HOLDS, (), (differ,)),), proof.PROVED).check()


def test_the_verdict_comes_from_the_premises_not_from_a_string():
    premise = pattern.undecided_step("p", "r")
    root = verdict.verdict_step(premise, [premise], [], premise, 3)
    assert root.status is proof.UNDECIDED and root.facts["verdict"] is proof.Verdict.INCONCLUSIVE
    forged = verdict.VerdictPremises(premise, (premise,), (), premise, 3, proof.Verdict.UAP)
    with pytest.raises(proof.CertificateRejected):
        forged.check()
    with pytest.raises(TypeError):
        verdict.verdict_step(premise, [premise], [], premise, 3, "UAP", "UAP: forged")


def test_decisive_rules_must_declare_certificates():
    for rule_id, info in proof.RULES.items():
        if info.statuses & {proof.PROVED, proof.REFUTED}:
            assert info.certificates, rule_id


def test_catalog_steps_carry_checked_certificates_and_facts():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "catalog"
    for name in ("softmax.uap", "bigbird.uap", "longformer.uap"):
        path = root / name
        if not path.exists():
            continue
        result = uapcheck.check(path.read_text("utf-8"), str(path))
        for step in result.root.walk():
            if step.status in (proof.PROVED, proof.REFUTED):
                assert step.certificate is not None and step.certificate_json["kind"], step.rule
        assert result.root.facts["verdict"].value == result.verdict


def test_citations_say_whose_statement_a_step_applies():
    info = proof.RULES
    assert info["FFN-DEF2"].citation.to_json() == {"kind": "paper", "statements": ["Definition 2"]}
    assert info["VERDICT-T1"].citation.provenance is proof.Provenance.PAPER
    assert info["PAT-LAYERS"].citation.to_json() == {"kind": "corrected", "statements": ["Corollary 2"]}
    assert info["LIM-EXPPOLY"].citation.provenance is proof.Provenance.DERIVED
    from uapcheck.render.jsonout import result_json
    steps = result_json(uapcheck.check(DENSE))["steps"]
    assert {s["rule"]: s["provenance"]["kind"] for s in steps}["TD-KERNEL"] == "paper"


# -- the rules of positions and shared heads conclude from certificates too ---------------------

def test_an_offset_certificate_checks_the_identity_evenness_and_injectivity():
    from uapcheck.certificates import OffsetClass
    from uapcheck.rules.positions import I, J, M
    alibi = -(J - I) * sympy.Rational(1, 2)
    OffsetClass(alibi, I, J, M, -M / 2, False, False, 8, "linear").check()
    with pytest.raises(proof.CertificateRejected):  # h is not the term's offset function
        OffsetClass(alibi, I, J, M, M / 2, False, False, 8, "linear").check()
    with pytest.raises(proof.CertificateRejected):  # a term that depends on i itself
        OffsetClass(alibi + I, I, J, M, -M / 2 + I, False, False, 8, "linear").check()
    with pytest.raises(proof.CertificateRejected):  # not even
        OffsetClass(alibi, I, J, M, -M / 2, False, True, 8, "linear").check()
    square = (J - I) ** 2
    with pytest.raises(proof.CertificateRejected):  # m² is not injective on −7..7
        OffsetClass(square, I, J, M, M ** 2, False, False, 8, "intervals", 80).check()
    OffsetClass(square, I, J, M, M ** 2, False, True, 8, "intervals", 80).check()  # injective on |m|
    with pytest.raises(proof.CertificateRejected):  # intervals need a concrete n
        OffsetClass(square, I, J, M, M ** 2, False, True, sympy.Symbol("n"), "intervals", 80).check()
    soft = sympy.log(1 + sympy.exp(J - I))
    h = sympy.log(1 + sympy.exp(M)) - sympy.log(2)
    OffsetClass(soft, I, J, M, h, False, False, 64, "intervals", 400).check()
    with pytest.raises(proof.CertificateRejected):  # at m ≈ −63 neighbours differ by ~e^−63 < 2^−80
        OffsetClass(soft, I, J, M, h, False, False, 64, "intervals", 80).check()


def test_side_conditions_of_position_rules_are_checked():
    from uapcheck.certificates import BucketRange, PositiveValue, SoftmaxKernel
    from uapcheck.lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c  # the docs' names of the invariants
    PositiveValue(sympy.exp(0), "k(0, 0)").check()
    for bad in (sympy.Integer(0), sympy.Integer(-1), sympy.nan):
        with pytest.raises(proof.CertificateRejected):
            PositiveValue(bad, "k(0, 0)").check()
    SoftmaxKernel(sympy.exp(a / 8), a, (b, c)).check()
    for bad in (sympy.exp(-a), sympy.exp(a * b), a ** 2):
        with pytest.raises(proof.CertificateRejected):
            SoftmaxKernel(bad, a, (b, c)).check()
    BucketRange(8, 32, 128).check()  # every offset below T5's exact range 8
    with pytest.raises(proof.CertificateRejected):
        BucketRange(64, 32, 128).check()  # offsets 8.. share logarithmic buckets


def test_an_inference_checks_the_facts_and_side_conditions_it_needs():
    from uapcheck.certificates import Inference, PositiveValue
    r = uapcheck.check((Path_catalog() / "fixed_position_bias.uap").read_text("utf-8"))
    offset = next(s for s in r.root.walk() if s.rule == "POS-OFFSET")
    assert offset.proved and offset.facts["offset classes"] == "injective"
    assert offset.certificate_json["kind"] == "offset-classes"
    Inference(((offset, proof.PROVED),), "x", ((offset, "offset classes", "injective"),)).check()
    with pytest.raises(proof.CertificateRejected):
        Inference(((offset, proof.PROVED),), "x", ((offset, "offset classes", "symmetric"),)).check()
    other = pattern.undecided_step("p", "r")
    with pytest.raises(proof.CertificateRejected):  # a fact of a step that is not a premise
        Inference(((offset, proof.PROVED),), "x", ((other, "offset classes", "injective"),)).check()
    with pytest.raises(proof.CertificateRejected):
        Inference(((offset, proof.PROVED),), "x", (), (PositiveValue(sympy.Integer(0), "k(0, 0)"),)).check()


def test_position_and_head_rules_do_not_stamp_what_they_are_handed():
    from uapcheck.parse import parse_source
    from uapcheck.rules import heads, positions
    undecided = pattern.undecided_step("p", "r")
    spec = parse_source("tokens 8\nattention { kernel k(x, y) = exp(x . y)\n bias buckets(32, 128) }\n", "t.uap")
    head = spec.heads[0]
    for step in (heads.shared_heads(dataclasses.replace(head, heads=(4, 2)), undecided, "h"),
                 heads.differential(undecided, "h"),
                 positions.td_buckets(head, undecided, 8, "h")):
        assert step.status is proof.UNDECIDED
    proved = uapcheck.check("attention { kernel k(x, y) = exp(x . y) }\n").root
    td = next(s for s in proved.walk() if s.rule == "TD-KERNEL")
    assert positions.td_buckets(head, td, 8, "h").proved
    small = dataclasses.replace(head, position=dataclasses.replace(head.position, buckets=4))
    shared = positions.td_buckets(small, td, 8, "h")  # offsets share buckets: one layer is not enough,
    assert shared.proved and shared.facts == {"labelled_views": True}  # and the count is left to the labelled views
    from uapcheck.lower import QUERY_DOT_KEY as a  # the docs' names of the invariants
    assert positions.td_rotary(head, td, sympy.exp(a), "h").proved
    with pytest.raises(proof.CertificateRejected):  # a kernel that is not softmax is not stamped
        positions.td_rotary(head, td, sympy.exp(-a), "h")


def Path_catalog():  # noqa: N802
    from pathlib import Path
    return Path(__file__).resolve().parent.parent / "catalog"


CATALOG = sorted(p.name for p in Path_catalog().glob("*.uap"))


@pytest.mark.parametrize("name", CATALOG)
def test_every_decisive_catalog_step_carries_its_certificate_and_citation(name):
    """Every proved or refuted step of every catalog file was concluded from a typed certificate the
    kernel checked (its kind is in the certificate file), and says whose statement it applies."""
    from certificates import certificate
    steps = certificate(name)["steps"]
    for s in steps:
        if s["status"] in ("proved", "refuted"):
            assert s["certificate"] and s["certificate"]["kind"], (s["rule"], s["claim"][:60])
        assert s["provenance"]["kind"] in ("paper", "corrected", "derived"), s["rule"]
        if s["provenance"]["kind"] != "derived":  # the paper's statement is named by its number
            assert s["provenance"]["statements"], s["rule"]


def test_every_printer_says_whose_statement_each_step_applies():
    """Provenance (issue 8 §4): paper with its number, paper corrected here, or derived here."""
    import io

    from rich.console import Console

    from uapcheck.render import latex, markdown, text
    path = Path_catalog() / "bigbird.uap"
    result = uapcheck.check(path.read_text("utf-8"), "catalog/bigbird.uap")
    buf = io.StringIO()
    text.render(result, Console(file=buf, width=400, color_system=None), full=True)
    outputs = {"text": buf.getvalue(), "markdown": markdown.render(result), "latex": latex.render(result)}
    for name, out in outputs.items():
        assert "the paper's Corollary 2, corrected here" in out, name  # PAT-LAYERS
        assert "the paper's Theorem 1, Theorem 2" in out, name  # VERDICT-T1
        assert "the paper's Corollary 2, Definition 4" in out, name  # PAT-CONNECTED
        assert "derived here (from the paper's Corollary 1)" in out, name  # LIM-*
    labels = {r: info.citation.label() for r, info in proof.RULES.items()}
    assert labels["FFN-DEF2"] == "the paper's Definition 2"
    assert labels["POS-OFFSET"] == "derived here"
    assert labels["TD-ROTARY"] == "derived here (from the paper's Theorem 2)"
    assert labels["TGT-VERDICT"] == "derived here (from the paper's Definition 3, Theorem 1)"
    for rule_id, info in proof.RULES.items():  # a paper or corrected statement is named by its number
        if info.citation.provenance is not proof.Provenance.DERIVED:
            assert info.citation.statements, rule_id
