"""Theorem F127 in the verifier (uapcheck/verifier/head_layers.py, F86's classes "found by" F127): the certificate's
permutation (moved points and images, each a fixed distance from an end on the class) must be a permutation of its
moved points, move some head's arcs, and meet every head's view condition at its position on the verifier's own arcs
at every length of the class from its bound up to its own N + M − 1. `window(1) + strided(6)` | `offsets {−1}` |
`blocks(6)` is verified (3 layers, least, from n = 42); tampered certificates are rejected: pairs that are no
permutation, a permutation one head splits, a class's bound below the range, 2 layers on such a class."""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import heads_certificate, rejects  # noqa: E402

from uapcheck.verifier import verify  # noqa: E402

HEADS = ("window(1) + strided(6)", "offsets {-1}", "blocks(6)")


@functools.lru_cache(maxsize=None)
def _certificate_json() -> str:
    return json.dumps(heads_certificate(*HEADS))


def _certificate() -> dict:
    return json.loads(_certificate_json())


def _class(cert: dict, residue: int) -> dict:
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    return next(c for c in step["certificate"]["classes"] if c["residue"] == residue)


def test_the_certificate_is_verified_with_f127_on_two_classes():
    cert = _certificate()
    assert [_class(cert, r)["found by"] for r in range(6)] == ["F127", "F88", "F88", "F88", "F88", "F127"]
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "F127" in {s.rule: s.reason for s in report.steps}["PAT-LAYERS"]


def test_pairs_that_are_no_permutation_are_rejected():
    cert = _certificate()
    pairs = _class(cert, 0)["permutation"]
    pairs[0][1] = pairs[1][1]  # two points to one image
    assert rejects(cert, "PAT-LAYERS")


def test_a_permutation_one_head_splits_is_rejected():
    cert = _certificate()
    c = _class(cert, 5)
    (x, _), (y, _) = c["permutation"][:2]
    c["permutation"] = [[x, y], [y, x]]  # a swap of two moved points near the end: no swap is a witness there (F88)
    assert rejects(cert, "PAT-LAYERS")


def test_a_class_bound_below_the_range_is_rejected():
    cert = _certificate()
    _class(cert, 0)["from"] -= 6
    assert rejects(cert, "PAT-LAYERS")


def test_two_layers_on_a_permutation_class_are_rejected():
    cert = _certificate()
    _class(cert, 5)["layers"] = 2
    assert rejects(cert, "PAT-LAYERS")
