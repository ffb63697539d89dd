"""`target causal` with `layers 1` on dense heads whose positions enter only through trainable classes (docs/theory.md
§14.9, TGT-NOT-CAUSAL's one-layer collision): keys l < i and l′ ∉ {i, l} of a row i alike in every head make X and X
with x_l, x_l′ exchanged give one layer the same output at i, while F(X)_i = x_l tells them apart: NOT-UAP for causal
targets. T5's buckets at 10 tokens (row 10: offsets −9 and −8 share a bucket) were INCONCLUSIVE ("the family is
INCONCLUSIVE for its G-equivariant targets and its group is not shown non-trivial").

The reference is written here: T5's released bucket function in floating point, and the collision searched row by
row; where no row has one, the engine must not say NOT-UAP."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402


def released_bucket(m: int, num_buckets: int, max_distance: int) -> int:
    half = num_buckets // 2
    ret = half if m > 0 else 0
    d, exact = abs(m), half // 2
    if d < exact:
        return ret + d
    return ret + min(exact + int(math.log(d / exact) / math.log(max_distance / exact) * (half - exact)), half - 1)


def _collision(n: int, buckets) -> bool:
    for i in range(2, n + 1):
        for l in range(1, i):
            for l2 in range(1, n + 1):
                if l2 not in (i, l) and released_bucket(l - i, *buckets) == released_bucket(l2 - i, *buckets):
                    return True
    return False


def _text(n: int, buckets, layers: int = 1, extra: str = "") -> str:
    return (f"tokens {n}\ntarget causal\nlayers {layers}\n{extra}attention {{\n  kernel k(x, y) = exp(x . y)\n"
            f"  bias buckets({buckets[0]}, {buckets[1]})\n}}\n")


@pytest.mark.parametrize("buckets", [(32, 128), (8, 20), (12, 30)])
def test_one_layer_is_not_uap_exactly_where_a_row_has_a_collision(buckets):
    for n in list(range(3, 13)) + [16]:
        r = uapcheck.check(_text(n, buckets), "t.uap")
        assert (r.verdict == "NOT-UAP") == _collision(n, buckets), (n, buckets, r.verdict)
        if r.verdict == "NOT-UAP":
            report = verify(certificate_of(_text(n, buckets)))
            assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_the_reported_case():
    r = uapcheck.check(_text(10, (32, 128)), "t.uap")
    step = next(s for s in r.root.walk() if s.rule == "TGT-NOT-CAUSAL")
    assert step.evidence["collision"] == [10, 1, 2]  # offsets −9 and −8 share bucket 8


def test_two_layers_or_an_encoding_are_not_this_route():
    assert uapcheck.check(_text(10, (32, 128), layers=2), "t.uap").verdict == "UAP"
    assert uapcheck.check(_text(10, (32, 128), extra="positional absolute\n"), "t.uap").verdict != "NOT-UAP"


@pytest.mark.parametrize("collision", [[10, 1, 3], [10, 2, 10], [1, 1, 2], [10, 9, 8]])
def test_forged_collisions_are_rejected(collision):
    cert = certificate_of(_text(10, (32, 128)))
    forged = json.loads(json.dumps(cert))
    step = next(s for s in forged["steps"] if s["rule"] == "TGT-NOT-CAUSAL")
    step["data"]["collision"] = step["evidence"]["collision"] = collision
    assert rejects(forged, "TGT-NOT-CAUSAL")


def test_the_certificate_for_two_layers_is_rejected():
    import hashlib
    cert = certificate_of(_text(10, (32, 128)))
    text = _text(10, (32, 128), layers=2)
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    assert rejects(cert, "TGT-NOT-CAUSAL")
