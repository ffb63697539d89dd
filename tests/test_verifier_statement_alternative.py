"""The `certified:` line of `uapcheck verify` states the class a NOT-UAP family does approximate (TGT-ALTERNATIVE) only
when that step and every step it rests on were re-checked. A NOT-UAP verdict rests on its obstruction alone, so the
alternative's steps may be `trusted`: e.g. `bias toeplitz` on the causal window `offsets {-1, 0}`, whose TGT-POSITIONS
route ("contains plain") and the TGT-LAYERS count from it are not re-checked. (`bias symmetric circulant` on the causal
mask was the example while its "collision" route was trusted — the line said "UAP for causal targets with 2 attention
layers (least)" all the same; that route is re-checked now, tests/test_verifier_causal_positions.py.)"""
from __future__ import annotations

import json

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify
from uapcheck.verifier.check import TRUSTED
from uapcheck.verifier.report import render


def _report(src: str):
    return verify(json.loads(json.dumps(certfile.build(uapcheck.check(src), src))))


def _lines(report) -> list:
    return [line.strip() for line in render("c.json", report).splitlines()]


TRUSTED_ROUTE = "tokens n\nattention {\n  kernel k(q, key) = exp(q . key)\n  bias toeplitz\n  pattern offsets {-1, 0}\n}\n"
SYMMETRIC = "tokens n\nattention {\n  kernel k(q, key) = exp(q . key)\n  bias symmetric circulant\n  pattern causal\n}\n"
ROPE = "tokens n\nattention {\n  kernel k(q, key) = exp(q . key)\n  rotary\n  pattern causal\n}\n"


def test_an_alternative_on_trusted_steps_is_not_certified():
    report = _report(TRUSTED_ROUTE)
    assert report.ok and report.verdict == "NOT-UAP"
    assert any(s.outcome == TRUSTED and s.rule == "TGT-POSITIONS" for s in report.steps)
    assert report.statement.alternatives == ()
    certified = next(x for x in _lines(report) if x.startswith("certified:"))
    assert "causal targets" not in certified
    assert any("nor the class the family does approximate" in x for x in _lines(report) if x.startswith("not certified:"))


def test_an_alternative_on_rechecked_steps_is_certified():
    report = _report(ROPE)
    assert report.ok and report.verdict == "NOT-UAP"
    assert [(a.target, a.layers, a.least) for a in report.statement.alternatives] == [("causal", 1, True)]
    certified = next(x for x in _lines(report) if x.startswith("certified:"))
    assert "UAP for causal targets with 1 attention layer (least)" in certified
    assert not any("nor the class the family does approximate" in x for x in _lines(report))


def test_the_collision_route_is_rechecked_and_its_alternative_certified():
    report = _report(SYMMETRIC)
    assert report.ok and report.verdict == "NOT-UAP"
    assert {s.rule: s.outcome for s in report.steps}["TGT-POSITIONS"] == "verified"
    assert [(a.target, a.layers, a.least) for a in report.statement.alternatives] == [("causal", 2, True)]
