"""Theorem F124 in the verifier (uapcheck/verifier/head_layers.py, F86's classes "found by" F124): the union's own
family entry names the reflection as its group, of order 2 on the class, and proves D layers; (X) — every position
has a head whose neighbourhood within K the reflection moves — is re-checked on the verifier's own arcs at every
length of the class from its bound up to its own N + M − 1. Certificates of two head tuples are verified; tampered
ones are rejected: F124 claimed on a class where the heads keep the reflection, a class's bound below the union's
range, a class's count above D."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import heads_certificate, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402
from uapcheck.verifier.trees import encode  # noqa: E402

BLOCKS_WINDOW = ("blocks(3) + strided(3)", "window(2)")   # F70 on n ≡ 0 (mod 3), F124 on n ≡ 1, 2
ONE_SIDED = ("offsets {1, 2}", "offsets {-2, -1} + strided(3)")  # the heads' group trivial: F124 on every class


@functools.lru_cache(maxsize=None)
def _certificate_json(heads: tuple) -> str:
    return json.dumps(heads_certificate(*heads))


def _certificate(heads: tuple) -> dict:
    return json.loads(_certificate_json(heads))


def _step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def _class(cert: dict, residue: int) -> dict:
    return next(c for c in _step(cert)["certificate"]["classes"] if c["residue"] == residue)


@pytest.mark.parametrize("heads, f124", [(BLOCKS_WINDOW, [1, 2]), (ONE_SIDED, [0, 1, 2])], ids=["blocks", "one-sided"])
def test_the_certificate_is_verified_by_f124_on_its_classes(heads, f124):
    cert = _certificate(heads)
    step = _step(cert)
    assert step["data"]["least"] is True and step["data"]["layers"] == 2
    assert [c["residue"] for c in step["certificate"]["classes"] if c["found by"] == "F124"] == f124
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    reason = {s.rule: s.reason for s in report.steps}["PAT-LAYERS"]
    assert f"D layers on {f124} (the union's group the reflection" in reason and "F124" in reason


def test_f124_on_a_class_where_the_heads_keep_the_reflection_is_rejected():
    cert = _certificate(BLOCKS_WINDOW)
    assert _class(cert, 0)["found by"] == "F70"
    _class(cert, 0)["found by"] = "F124"  # for n ≡ 0 (mod 3) the reflection keeps both heads: (X) fails everywhere
    assert rejects(cert, "PAT-LAYERS")


def test_a_class_bound_below_the_unions_range_is_rejected():
    cert = _certificate(ONE_SIDED)
    c = _class(cert, 1)
    c["from"] = c["from"] - 3 * 5
    assert rejects(cert, "PAT-LAYERS")


def test_a_class_count_above_d_is_rejected():
    cert = _certificate(ONE_SIDED)
    _class(cert, 2)["layers"] = 3
    assert rejects(cert, "PAT-LAYERS")


def test_a_step_count_above_d_is_rejected():
    cert = _certificate(ONE_SIDED)
    _step(cert)["data"]["layers"] = encode(3)
    assert rejects(cert, "PAT-LAYERS")
