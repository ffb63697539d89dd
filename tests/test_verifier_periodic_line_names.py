"""Theorem F116's group named in a certificate is the verifier's own: `periodic_lines.group_name_fits` accepts the
engine's words for E_L × E_R(n mod b) (× the reflection when b | n and S = −S) with the verifier's own end-group orders,
and nothing else. A consistently forged name (the step's data, its certificate's claim, the facts and the
certificate's group line all changed alike) used to pass whenever it held "keep the arcs" or "reflection i ↦ n + 1 − i";
a short name of one class's group ("reflection") stated for every n is rejected by its orders by class."""
from __future__ import annotations

import json
from functools import lru_cache

import pytest

from certificates import certificate, certificate_of  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify
from uapcheck.verifier.periodic_lines import group_name_fits

TURN = "the reflection i ↦ n + 1 − i"
# blocks(5) + dilated(1, 3): E_L of order 4 on {1, 2, 3, 4, 6, 7}, E_R of orders (4, 2, 1, 2, 2) by n mod 5, S = −S
WIDE = ("tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(5) + dilated(1, 3)\n}\n")
WIDE_NAME = ("the permutations of {1, 2, 3, 4, 6, 7} that keep the arcs (order 4) × the permutations of the positions "
             "near n that keep the arcs (order by residue of n mod 5) × " + TURN + " when 5 | n")


def test_the_names_of_trivial_end_groups_with_the_reflection():
    fits = [f"{TURN} when 3 | n, else trivial", "trivial", "reflection", "the reflection", TURN]
    unfit = [f"{TURN} when 2 | n, else trivial", f"{TURN} when 3 | n, else S_n", "S_n × keep the arcs", "keep the arcs",
             "the permutations of {1, 2} that keep the arcs (order 2)", f"{TURN} × {TURN}", "S_n", ""]
    assert all(group_name_fits(t, 3, 1, (1, 1, 1), True) for t in fits)
    assert not any(group_name_fits(t, 3, 1, (1, 1, 1), True) for t in unfit)


def test_no_reflection_without_mirror_jumps():
    assert group_name_fits("trivial", 3, 1, (1, 1, 1), False)
    assert not any(group_name_fits(t, 3, 1, (1, 1, 1), False)
                   for t in ("reflection", TURN, f"{TURN} when 3 | n, else trivial"))


def test_end_groups_are_named_with_their_own_orders():
    right = (4, 2, 1, 2, 2)
    at = {0: "the permutations of {1, 2, 3, 4, 6, 7} that keep the arcs (order 4) × the permutations of {59, 60} "
             "that keep the arcs (order 4) × " + TURN,
          2: "the permutations of {1, 2, 3, 4, 6, 7} that keep the arcs (order 4)"}
    assert group_name_fits(WIDE_NAME, 5, 4, right, True)
    assert all(group_name_fits(t, 5, 4, right, True) for t in at.values())
    for forged in (WIDE_NAME.replace("(order 4)", "(order 8)"), WIDE_NAME.replace(" when 5 | n", " when 3 | n"),
                   at[0].replace("(order 4) ×", "(order 2) ×", 1), at[2] + " × " + TURN, "trivial", "reflection",
                   f"{TURN} when 5 | n, else trivial"):
        assert not group_name_fits(forged, 5, 4, right, True), forged


def _swap(value, old: str, new: str):
    if isinstance(value, dict):
        return {k: _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    return value.replace(old, new) if isinstance(value, str) else value


@lru_cache(maxsize=None)
def _text(name: str) -> str:
    return json.dumps(certificate(name) if name.endswith(".uap") else certificate_of(name))


def _renamed(name: str, new: str) -> tuple:
    cert = json.loads(_text(name))
    step = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert step["certificate"]["theorem"] == "F115"
    return _swap(cert, step["data"]["name"], new), step["id"]


@pytest.mark.parametrize("name, forged", [
    ("blocks_dilated_overlap_n.uap", "S_n × keep the arcs"),
    ("blocks_dilated_overlap_n.uap", f"{TURN} when 2 | n, else trivial"),
    ("blocks_dilated_overlap_n.uap", "the permutations of {1, 2} that keep the arcs (order 2)"),
    ("blocks_dilated_overlap_n.uap", "reflection"),
    ("blocks_dilated_overlap_n.uap", TURN),
    (WIDE, WIDE_NAME.replace("(order 4)", "(order 8)")),
    (WIDE, WIDE_NAME.replace(" × the permutations of the positions near n that keep the arcs (order by residue of n "
                             "mod 5)", "")),
])
def test_a_consistently_forged_group_name_is_rejected_at_its_step(name, forged):
    assert verify(json.loads(_text(name))).ok
    mutant, step_id = _renamed(name, forged)
    report = verify(mutant)
    assert not report.ok
    assert any(s.id == step_id and s.outcome == REJECTED for s in report.steps), \
        [(s.rule, s.outcome, s.reason[:100]) for s in report.steps if s.outcome != "verified"]
