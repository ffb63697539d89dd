"""Certificates at a concrete n above 256 tokens whose group order the report prints in a bounded form
("≈ 10^k · ..."): the certificate still carries the exact order (from the kernel's automorphism
certificate), and `uapcheck verify` re-derives it instead of rejecting a correct group."""
import json

import uapcheck
from uapcheck import certfile
from uapcheck.verifier import verify

TEXT = "attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern blocks(4) + dilated(1, 2)\n}}\ntokens {n}\n"


def _certificate(n: int) -> dict:
    text = TEXT.format(n=n)
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def test_a_long_order_is_stated_exactly_and_verified():
    n = 400  # F95: the junction swaps and the free pairs give 2^(n/4 + 2) when 4 | n
    cert = _certificate(n)
    group = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    assert group["data"]["order"] == 2 ** (n // 4 + 2)
    report = verify(cert, seconds=120)
    assert [s.reason for s in report.rejected] == []
    assert not report.problems


def test_a_wrong_long_order_is_rejected():
    cert = _certificate(400)
    group = next(s for s in cert["steps"] if s["rule"] == "SYM-AUT")
    group["data"]["order"] = 2 ** 101
    report = verify(cert, seconds=120)
    assert any("order" in s.reason for s in report.rejected)
