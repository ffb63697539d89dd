"""Forged certificates of the two families decided most recently, each stating something false, rejected by
`uapcheck verify`: Theorem F143's case (S) on catalog/ring_one_way_wrap_heads_n.uap (a ring head cut on one side at the
wrap beside `window(2) cyclic`: D + 1 layers, least, G trivial, from n = 7) and Theorem F81 at a width its finite check
never ran (`window(8) + strided(10)`: 3 layers on s | n, else 2, least, from n = 350).
Each mutant changes one field of the step's data or of its certificate block and claims less layers, a larger group,
an earlier range, another case, zone or failing hull, or other classes. A weaker statement (a least count stated not
least, a later start) is true and not listed."""
from __future__ import annotations

import copy
import json
from functools import lru_cache

import pytest

from certificates import certificate, certificate_of, verified_in_full_by_the_catalog_test  # tests/ is on sys.path

from uapcheck.verifier import REJECTED, verify

RING = "ring_one_way_wrap_heads_n.uap"
WIDE = "tokens n\nattention {\n  kernel k(x, y) = exp(x . y)\n  pattern window(8) + strided(10)\n}\n"


@lru_cache(maxsize=None)
def _text(source: str) -> str:
    return json.dumps(certificate(source) if source.endswith(".uap") else certificate_of(source))


@lru_cache(maxsize=None)
def _verified(source: str) -> bool:
    if verified_in_full_by_the_catalog_test(source):  # every step verified, none trusted: tests/test_verifier.py
        return True
    return verify(json.loads(_text(source))).ok


def _set(where: str, path: tuple, value):
    def change(step: dict) -> None:
        obj = step[where]
        for p in path[:-1]:
            obj = obj[p]
        obj[path[-1]] = value(obj[path[-1]]) if callable(value) else value
    return change


def _diameter_for_layers(step: dict) -> None:
    step["data"]["layers"] = copy.deepcopy(step["data"]["diameter"])


# (source, rule, change, what the mutant claims)
FORGERIES = [
    (RING, "PAT-LAYERS", _diameter_for_layers, "D layers on every class (the reflection's witness ignored)"),
    (RING, "PAT-LAYERS", _set("data", ("from",), 5), "F143 from n = 5 < 2w + 3"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "case"), "reflected"), "case (R): ρ keeps every head"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "case"), "asymmetric"), "case (A)"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "failing"), []), "no failing zone position"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "failing"), [0, 1]), "a failing hull of two"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "extra residues"), [0, 1, 3]),
     "D on n ≡ 2 (mod 4), the rotation's classes alone"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "b"), 0), "no zone at the start"),
    (RING, "PAT-LAYERS", _set("certificate", ("cyclic heads", "w"), 1), "the union window(1) cyclic"),
    (RING, "SYM-AUT", _set("data", ("name",), "reflection"), "the reflection in G"),
    (RING, "SYM-AUT", _set("certificate", ("order",), 2), "a group of order 2"),
    (WIDE, "PAT-LAYERS", _set("data", ("layers",), 2), "2 layers also where s | n (D = 3)"),
    (WIDE, "PAT-LAYERS", _set("data", ("from",), 349), "F81 below F11's range s(4w + 3)"),
    (WIDE, "PAT-LAYERS", _set("certificate", ("claims", "layers"), "2"), "the block's count 2 on every class"),
]


@pytest.mark.parametrize("source, rule, change, claim", FORGERIES, ids=[f[3] for f in FORGERIES])
def test_a_forged_step_is_rejected(source, rule, change, claim):
    assert _verified(source)
    cert = json.loads(_text(source))
    step = next(s for s in cert["steps"] if s["rule"] == rule)
    change(step)
    report = verify(cert, only={step["id"]})
    rejected = [s.id for s in report.steps if s.outcome == REJECTED]
    assert step["id"] in rejected or report.problems, f"{claim}: accepted ({[(s.id, s.outcome) for s in report.steps]})"
