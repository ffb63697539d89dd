"""Derivations that a referee read as misleading: a mixed-sign region's witness points lie in the sign class
they are checked in, and a target-class verdict of a disconnected family does not list an open group step
among its premises (the receptive analysis does not read the group)."""
from __future__ import annotations

from pathlib import Path

import uapcheck

REPO = Path(__file__).resolve().parents[1]


def _check(name: str):
    return uapcheck.check((REPO / "catalog" / name).read_text("utf-8"), f"catalog/{name}")


def test_every_mixed_sign_witness_point_names_the_sign_class_it_lies_in():
    r = _check("performer_hyperbolic.uap")
    lim = next(s for s in r.root.walk() if s.rule.startswith("LIM-") and "mixed signs" in s.evidence)
    points = lim.evidence["mixed signs"]["witness"]["points"]
    assert {p["sign class"] for p in points} == {"all w·z > 0", "all w·z < 0"}
    for p in points:
        sign = 1 if p["sign class"].endswith("> 0") else -1
        assert p["z1"][0] * sign > 0 and p["z2"][0] * sign > 0, p


def test_a_causal_verdict_of_a_disconnected_family_does_not_rest_on_an_open_group():
    r = _check("causal_window_decoder.uap")
    assert r.verdict == "UAP" and r.root.rule == "TGT-VERDICT"
    assert all(p.rule != "SYM-UNDECIDED" for p in r.root.premises)
    assert all(s.proved for s in r.root.walk())
