"""Forged values in the certificate blocks of the other kinds (uapcheck/certificates.py: a diameter, an inference, the
automorphism generators, a trusted conclusion's facts, a target verdict), rejected by `uapcheck verify`
(uapcheck/verifier/blocks.py, `_bind_other`): each value the step's checked data states too must be that value, and
the premises a block names must be the step's. These blocks used to be neither compared nor named on the `not
certified` line, so every mutant below passed as `OK`; a value with no checked copy is named there instead."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest

from certificates import certificate, certificate_of, softmax_source  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify

WINDOW = softmax_source("window(1)", 8)


@lru_cache(maxsize=None)
def _text(source: str) -> str:
    return json.dumps(certificate(source) if source.endswith(".uap") else certificate_of(source))


def _set(key, change):
    def edit(block):
        block[key] = change(block[key])
    return edit


def _premise_status(block):
    block["premises"][0]["status"] = "refuted"


def _premise_rule(block):
    block["premises"][0]["rule"] = "LIM-OSC"


MUTANTS = [
    (WINDOW, "PAT-CONNECTED", "diameter", _set("diameter", lambda v: v + 1), "a diameter of 8"),
    (WINDOW, "PAT-LAYERS", "trusted", lambda b: b["data"].__setitem__("layers", 6), "6 layers in the trusted facts"),
    (WINDOW, "SYM-AUT", "automorphism-generators", _set("order", lambda v: 2 * v), "a group of order 4"),
    (WINDOW, "TD-KERNEL", "inference", _premise_status, "a refuted premise"),
    (WINDOW, "TD-KERNEL", "inference", _premise_rule, "another premise"),
    ("alibi.uap", "TGT-ALTERNATIVE", "target-verdict", _set("verdict", lambda v: "NOT-UAP"), "NOT-UAP for causal"),
    ("alibi.uap", "TD-FIXEDBIAS", "inference", lambda b: b["requires"][0].__setitem__("rule", "WP-POSITIVE"),
     "a required fact of a step that is no premise"),
]


@pytest.mark.parametrize("source, rule, kind, edit, claim", MUTANTS, ids=[m[4] for m in MUTANTS])
def test_a_forged_value_in_a_block_of_another_kind_is_rejected(source, rule, kind, edit, claim):
    cert = json.loads(_text(source))
    k = next(i for i, s in enumerate(cert["steps"]) if s["rule"] == rule)
    sid = cert["steps"][k]["id"]
    assert cert["steps"][k]["certificate"]["kind"] == kind
    assert verify(cert, only={sid}).ok
    mutant = copy.deepcopy(cert)
    edit(mutant["steps"][k]["certificate"])
    report = verify(mutant, only={sid})
    assert any(s.outcome == REJECTED for s in report.steps), f"{claim}: accepted"


def test_a_value_with_no_checked_copy_is_named_not_certified():
    """FFN-DEF2's expression, a trusted conclusion's facts the data does not state: named. (Its point is compared
    with the checked points since the verifier binds it: tests/test_certificate_mutations_unbound_fields.py.)"""
    report = verify(json.loads(_text(WINDOW)))
    assert report.ok
    named = set(report.unbound)
    assert "s1 certificate.expression" in named
    assert "s1 certificate.point" not in named
    assert not any(p.endswith((".diameter", ".order", ".premises", ".layers")) for p in named), named
