"""One token (`tokens 1`): S_1 is the trivial group, the diameter is 0 and one attention layer is the fewest a model has.
The engine states `G = S_n` and one layer, least; the verifier rejected these certificates (PAT-LAYERS: "D + 1 layers
are claimed necessary without a view witness"; TGT-PLAIN: "the group is 'S_n', not trivial"; the target verdict: "a
verdict for a target class states the trivial group or none, the certificate names 'S_n'"). Its checks now accept
them at n = 1 only."""
from __future__ import annotations

import json

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify


def _cert(src: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(src), src)))


def _src(tokens: int, head: str, target: str) -> str:
    return f"tokens {tokens}\nattention {{\n  kernel k(q, key) = exp(q . key)\n{head}\n}}\n{target}\n"


HEADS = ["  pattern causal", "  pattern full", "  pattern window(1)", "  pattern star", "  rotary\n  pattern causal",
         "  bias toeplitz\n  pattern causal", "  heads 4 kv 2\n  rotary\n  pattern causal"]


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("target", ["", "target causal"])
def test_one_token_certificates_verify(head, target):
    src = _src(1, head, target)
    r = uapcheck.check(src)
    assert r.verdict == "UAP" and r.layers == 1
    report = verify(_cert(src))
    assert report.ok, [(s.rule, s.reason) for s in report.rejected] + report.problems


def test_the_name_s_n_with_another_order_is_rejected():
    """At n = 1 the name S_n passes only with order 1 (or none) and no generators."""
    src1 = _src(1, "  pattern full", "target causal")
    assert verify(_cert(src1)).ok
    for bad in ({"generators": None, "name": "S_n", "order": 2}, {"generators": [[1]], "name": "S_n", "order": 1},
                {"generators": None, "name": "C_n", "order": 1}):
        cert = _cert(src1)
        cert["group"] = bad
        assert not verify(cert).ok, bad
