"""The verifier reads the input's declared target class before it accepts a G-equivariant verdict (VERDICT-T1): the
engine decides a file that declares `target causal` by TGT-VERDICT (VERDICT-T1 only for ILL-POSED, which no class
changes), and `target receptive` by VERDICT-T1 only on a family that is not disconnected (then the receptive class is
the G-equivariant maps, docs/theory.md §14.1). A certificate built for the file without the `target` line, with the
line added to its input (and the hash recomputed), states the equivariant verdict for the declared class: `full`
attention at n = 20 was certified "UAP · G = S_n · 1 attention layer" for causal targets, where the engine's verdict
is NOT-UAP (G = S_n is not trivial: a causal map moving position 1 is not S_n-equivariant, §14.9)."""
from __future__ import annotations

import copy
import hashlib
import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _file(pattern: str, tokens: int, target: str = "") -> str:
    line = f"target {target}\n" if target else ""
    return (f'architecture "t"\ntokens {tokens}\n{line}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f'  pattern {pattern}\n}}\n')


def _certificate(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _with_input(cert: dict, text: str) -> dict:
    out = copy.deepcopy(cert)
    out["input"]["text"] = text
    out["input"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


@pytest.mark.parametrize("pattern,tokens", [("full", 20), ("window(2)", 20),
                                            ("periodic { window(1) + global(2), window(2) + global(2) }", 2000)])
def test_an_equivariant_verdict_is_refused_for_a_file_that_declares_causal_targets(pattern, tokens):
    plain = _certificate(_file(pattern, tokens))
    assert plain["verdict"] == "UAP" and verify(plain).ok
    causal = _file(pattern, tokens, "causal")
    assert uapcheck.check(causal, "t.uap").verdict != "UAP"  # the engine's verdict for the declared class
    report = verify(_with_input(plain, causal))
    assert not report.ok
    assert any("target causal" in p for p in report.problems), report.problems


def test_the_receptive_class_reads_the_equivariant_verdict_only_on_a_connected_family():
    connected = _file("window(2)", 12, "receptive")
    cert = _certificate(connected)
    assert next(s for s in cert["steps"] if s["id"] == cert["steps"][-1]["id"])["rule"] == "VERDICT-T1"
    assert verify(cert).ok  # the engine's own certificate: the class is the G-equivariant maps
    plain = _certificate(_file("offsets {1}", 6))  # x_6 never reaches position 1 (every arc goes one way)
    assert plain["verdict"] == "NOT-UAP" and verify(plain).ok
    receptive = _file("offsets {1}", 6, "receptive")
    assert uapcheck.check(receptive, "t.uap").root.rule == "TGT-VERDICT"
    report = verify(_with_input(plain, receptive))
    assert not report.ok
    assert any("target receptive" in p for p in report.problems), report.problems


def test_the_engines_certificates_of_declared_classes_stay_verified():
    for text in (_file("causal", 8, "causal"), _file("full", 8, "causal"), _file("window(1)", 8, "receptive")):
        assert verify(_certificate(text)).ok, text
