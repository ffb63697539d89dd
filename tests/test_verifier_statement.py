"""`uapcheck verify` states what an OK certifies, read off the fields it re-checked (verifier/statement.py), and
says what it does not certify (the steps' prose); a lemma's group step names the lengths it holds for."""
from __future__ import annotations

import copy

from certificates import certificate
from uapcheck.verifier import verify
from uapcheck.verifier.report import render


def _text(cert: dict) -> str:
    return render("c.json", verify(cert))


def _certified(cert: dict) -> str:
    lines = [line.strip() for line in _text(cert).splitlines() if line.strip().startswith("certified:")]
    assert len(lines) <= 1
    return lines[0] if lines else ""


def test_a_concrete_uap_states_its_group_order_and_least_count():
    assert _certified(certificate("longformer_16.uap")) == (
        "certified: UAP (at n = 16) · G = reflection (order 2) · 8 attention layers (least)")


def test_the_prose_is_said_not_to_be_certified():
    assert "not certified: the steps' prose (claim, evidence, facts)" in _text(certificate("longformer_16.uap"))


def test_a_target_class_states_its_count_and_range():
    assert _certified(certificate("causal.uap")) == (
        "certified: NOT-UAP for G-equivariant targets (for n ≥ 2; UAP at n = 1); UAP for causal targets with 2 attention "
        "layers (least) for n ≥ 3")


def test_a_sufficient_count_is_not_stated_least():
    import sympy
    from uapcheck.verifier.check import Report
    from uapcheck.verifier.report import statement_lines
    from uapcheck.verifier.statement import Statement
    report = Report("f.uap", "UAP", statement=Statement("UAP", "trivial", 1, sympy.Integer(6), False))
    assert statement_lines(report)[0] == (
        "  certified: UAP · G = trivial (order 1) · 6 attention layers (sufficient, not shown least)")
    report = Report("f.uap", "UAP", statement=Statement("UAP", "trivial", 1, sympy.Integer(6), None))
    assert statement_lines(report)[0] == "  certified: UAP · G = trivial (order 1) · 6 attention layers"


def test_a_symbolic_lemma_names_its_range_and_the_statement_points_to_it():
    text = _text(certificate("cyclic_window.uap"))
    assert "G = D_n for n ≥ 2*w + 3" in text
    assert "for the lengths n that each step's line above states" in text


def test_a_rejected_certificate_states_nothing_certified():
    cert = copy.deepcopy(certificate("longformer_16.uap"))
    cert["layers"] = 7
    text = _text(cert)
    assert "REJECTED" in text and "certified:" not in text


def test_an_inconclusive_verdict_states_no_property():
    assert _certified(certificate("polynomial.uap")) == ""


def test_an_edit_to_prose_alone_does_not_change_the_certified_statement():
    cert = copy.deepcopy(certificate("longformer_16.uap"))
    before = _certified(cert)
    for s in cert["steps"]:
        s["claim"] = "UAP for every group with 1 layer"
    assert _certified(cert) == before


def test_a_count_by_residue_class_is_stated_class_by_class():
    # F86: blocks(4) | strided(4) needs 3 layers for n ≡ 1, 2 (mod 4), else 2 (docs/theory.md §13 L2)
    assert "attention layers by n mod 4: 2 for n mod 4 ∈ {0, 3}, 3 for n mod 4 ∈ {1, 2} (least)" in _certified(
        certificate("blocks_strided_heads_n.uap"))


def test_a_count_with_floors_is_written_by_class():
    # F101 with F168, F184 and F227: D layers by n mod 16; on each class the polynomial the verifier reduced it to,
    # with the class written out; the certificate's sum of the classes' indicators (floors of n/16 and its shifts) is
    # not printed
    line = _certified(certificate("cyclic_window_dilated_n.uap"))
    assert ("attention layers by n mod 16: n/16 + 3 for n mod 16 = 0, (n + 47)/16 for n mod 16 = 1, (n + 46)/16 for "
            "n mod 16 = 2, (n + 61)/16 for n mod 16 = 3") in line
    assert "⌊" not in line


def _with_budget(name: str, budget: int) -> dict:
    """The certificate of a catalog file with its `expect` line dropped and `layers BUDGET` added."""
    import json
    import re
    from pathlib import Path
    import uapcheck
    from uapcheck import certfile
    text = (Path(__file__).resolve().parent.parent / "catalog" / name).read_text("utf-8")
    text = re.sub(r"(?m)^expect .*$", "", text) + f"\nlayers {budget}\n"
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, name), text)))


def test_a_budget_by_class_states_the_classes_it_is_not_uap_on():
    # Theorems F86–F88: 2 layers least on n ≡ 0, 3 (mod 4), 3 least on n ≡ 1, 2; `layers 2` is NOT-UAP on the
    # latter. The line states the range it certifies 2 layers (least) on, the NOT-UAP classes and the lengths below.
    assert _certified(_with_budget("blocks_global_strided_heads_n.uap", 2)) == (
        "certified: UAP (for n ≥ 8 and n mod 4 ∈ {0, 3}) · G = the permutations keeping {1} and the blocks of 4 minus "
        "it, and the residue classes mod 4 · 2 attention layers (least); NOT-UAP for n ≥ 8 and n mod 4 ∈ {1, 2}; UAP "
        "at n = 1…7")


def test_a_not_uap_range_states_the_lengths_below_it():
    assert _certified(_with_budget("blocks_dilated_chains_n.uap", 5)) == \
        "certified: NOT-UAP (for n ≥ 13); UAP at n = 1…12"


def test_a_convolution_count_is_stated_in_convolution_layers():
    line = _certified(certificate("cn_convolution.uap"))
    assert "convolution layers (least)" in line and "attention" not in line


def test_a_symbolic_verdict_states_its_range():
    # the range is the verdict step's, re-checked against its premises' starts (tests/test_verifier_verdict_range.py)
    assert _certified(certificate("strided_three_witness_n.uap")).startswith("certified: UAP (for n ≥ 36) · G = ")


def test_a_concrete_length_is_stated():
    assert _certified(certificate("strided_dilated_1m.uap")).startswith("certified: UAP (at n = 1,048,576) · G = ")


def test_a_count_least_on_some_classes_states_them():
    """A count by class least on some classes (a least flag by class) states the classes its step's check re-derived
    least, and sufficient on the others, in words (no formula parts); without them, sufficient everywhere."""
    import re

    import sympy
    from uapcheck.verifier.check import Report
    from uapcheck.verifier.report import statement_lines
    from uapcheck.verifier.statement import Statement
    report = Report("f.uap", "UAP", statement=Statement("UAP", "trivial", 1, sympy.Integer(3), False, (6, (0, 2, 3, 4, 5))))
    line = statement_lines(report)[0]
    assert line == ("  certified: UAP · G = trivial (order 1) · 3 attention layers (least for n mod 6 ∈ {0, 2, 3, 4, 5}; "
                    "sufficient, not shown least, for n mod 6 = 1)")
    assert not re.search(r"\\_|\*\*|\w\*\w|_\{", line)
    report = Report("f.uap", "UAP", statement=Statement("UAP", "trivial", 1, sympy.Integer(3), False, (2, (0, 1))))
    assert statement_lines(report)[0].endswith("3 attention layers (least)")  # every class: least


def test_the_least_classes_stated_are_those_the_layer_check_re_derived(monkeypatch):
    """`window(2) cyclic + offsets {4}` (Theorem F190): least on n mod 6 ≠ 1, D + 1 sufficient on n ≡ 1. The
    statement reads the classes from the verifier's own check of the layer step (verifier/rules_families.py), so
    the step's data alone does not make a class least."""
    from certificates import certificate_of, softmax_source
    from uapcheck.verifier import rules_families
    cert = certificate_of(softmax_source("window(2) cyclic + offsets {4}"))
    report = verify(cert)
    assert report.ok and report.statement.least is False and report.statement.least_classes == (6, (0, 2, 3, 4, 5))
    assert "mod 6 = 5 (least for n mod 6 ∈ {0, 2, 3, 4, 5}; sufficient, not shown least, for n mod 6 = 1)" in \
        _certified(cert)
    checked = rules_families.layers

    def forgetful(ctx, s, fam):  # the same check, its record of the classes dropped
        found = checked(ctx, s, fam)
        ctx.least_classes.clear()
        return found
    monkeypatch.setattr(rules_families, "layers", forgetful)
    assert "mod 6 = 5 (sufficient, not shown least); UAP at n = 1…20" in _certified(cert)
