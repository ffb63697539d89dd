"""`uapcheck verify` binds the certificate's summary group to the step that establishes it
(uapcheck/verifier/structure.py): a certificate naming a larger group than its derivation's, or an order that no
step states, is rejected, whatever rule established the group (SYM-AUT, SYM-DENSE, CONV-GROUP, SEQ-GROUP) and for
verdicts for a target class (whose group is trivial)."""
import copy

import pytest

from certificates import certificate

from uapcheck.verifier import verify

CASES = [
    # (file, summary field changes, a word the rejection names)
    ("longformer.uap", {"name": "S_n", "order": None}, "establishes"),
    ("longformer.uap", {"order": 24}, "differs"),
    ("cn_convolution.uap", {"name": "D_n"}, "CONV-GROUP"),
    ("sparse_transformer_fixed.uap", {"order": 5}, "differs"),
    ("softmax.uap", {"name": "trivial", "order": 1}, "SYM-DENSE"),
    ("rope.uap", {"order": 3}, "differs"),
    ("causal_decoder.uap", {"name": "S_n", "order": None}, "target class"),
    ("star.uap", {"order": 7}, "does not establish"),
]


def _rejections(cert) -> list[str]:
    report = verify(cert)
    return list(report.problems) + [s.reason for s in report.rejected]


@pytest.mark.parametrize("name", sorted({c[0] for c in CASES}))
def test_the_untouched_certificate_is_accepted(name):
    assert _rejections(certificate(name)) == []


@pytest.mark.parametrize("name, change, word", CASES)
def test_a_summary_group_other_than_the_steps_is_rejected(name, change, word):
    cert = copy.deepcopy(certificate(name))
    assert cert["verdict"] == "UAP"
    before = dict(cert["group"])
    cert["group"].update(change)
    assert cert["group"] != before, "the tampering must change the summary"
    got = _rejections(cert)
    assert any("group" in g and word in g for g in got), got


@pytest.mark.parametrize("name", ["bigbird.uap", "alibi_bidirectional.uap", "softmax.uap"])
def test_generators_other_than_the_steps_are_rejected(name):
    cert = copy.deepcopy(certificate(name))
    cert["group"]["generators"] = [[2, 1, 3, 4, 5, 6]]  # the swap (1 2)
    got = _rejections(cert)
    assert any("generators" in g for g in got), got


def test_a_convolutions_rotation_is_accepted_and_another_list_rejected():
    import json

    import uapcheck
    from uapcheck import certfile
    text = "tokens 12\nconvolution circular(2)\n"
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    assert cert["group"]["name"] == "C_n" and _rejections(cert) == []
    cert["group"]["generators"] = [[12, *range(1, 12)]]  # the rotation the other way
    assert _rejections(cert) == []
    cert["group"]["generators"] = [[*range(12, 0, -1)]]  # the reversal: not in C_n's listing
    assert any("generators" in g for g in _rejections(cert))
