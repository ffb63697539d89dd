"""A group stated by residue class of n binds each class's order to that class's certificate
(uapcheck/verifier/by_class.py, partition_heads.py): the step's order for a class must be its certificate's
formula, and that formula must be the one Theorem F72 gives for each of the class's own residues."""
import copy

import pytest

from certificates import certificate

from uapcheck.verifier import verify

FILES = ["blocks_global_strided_heads_n.uap", "blocks_strided_heads_n.uap"]


def _group(cert) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")


def _rejections(cert) -> list[str]:
    report = verify(cert)
    return list(report.problems) + [s.reason for s in report.rejected]


@pytest.mark.parametrize("name", FILES)
def test_the_untouched_certificate_is_accepted_with_orders_as_formulas(name):
    cert = certificate(name)
    assert all(isinstance(c["order"], dict) for c in _group(cert)["data"]["classes"])
    assert _rejections(cert) == []


@pytest.mark.parametrize("name", FILES)
def test_an_order_set_to_one_is_rejected(name):
    cert = copy.deepcopy(certificate(name))
    for c in _group(cert)["data"]["classes"]:
        c["order"] = 1
    assert any("order stated" in r for r in _rejections(cert))


@pytest.mark.parametrize("name", FILES)
def test_orders_exchanged_between_classes_are_rejected(name):
    cert = copy.deepcopy(certificate(name))
    classes = _group(cert)["data"]["classes"]
    assert len(classes) >= 2 and classes[0]["order"] != classes[1]["order"]
    classes[0]["order"], classes[1]["order"] = classes[1]["order"], classes[0]["order"]
    assert _rejections(cert)


def test_another_classs_formula_in_the_certificate_too_is_rejected():
    cert = copy.deepcopy(certificate("blocks_global_strided_heads_n.uap"))
    step = _group(cert)
    entries = {tuple(e["residues"]): e for e in step["certificate"]["classes"]}
    other = entries[(2,)]["certificate"]["order"]
    assert other != entries[(0,)]["certificate"]["order"]
    for residues in [(0,), (1,)]:
        entries[residues]["certificate"]["order"] = other
    for c in step["data"]["classes"]:
        c["order"] = other
    assert any("not the formula of the class" in r for r in _rejections(cert))
