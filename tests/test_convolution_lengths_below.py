"""A convolution mixer's lengths below its stated range (docs/theory.md §22.6, §12): Lemma P's count holds from a
first length k₀ on, and each length below it is decided at that n and stated with the verdict, as the attention
families' lengths below a range are. Checked against the sum sets computed here from the taps alone (the k-fold
sum set of K ∪ {0} mod n fills Z_n first at the least count, §22.2; the group is the centraliser of the tap
shifts, of order (n/g)^g·g! with g = gcd(n, taps)), and the verifier re-derives each length and rejects forgeries."""
from __future__ import annotations

import copy
import json
import math

import pytest

from certificates import certificate_of  # tests/ is on sys.path

import uapcheck
from uapcheck.render.jsonout import result_json
from uapcheck.verifier import REJECTED, verify


def _source(taps: tuple[int, ...]) -> str:
    return "tokens n\nconvolution circular {" + ", ".join(map(str, taps)) + "}\n"


def _least_depth(n: int, taps: tuple[int, ...]):
    """The least k whose k-fold sum set of the taps with 0, mod n, is all of Z_n (None when it never is)."""
    steps = {t % n for t in taps} | {0}
    reached, k = {0}, 0
    while len(reached) < n:
        nxt = {(a + t) % n for a in reached for t in steps}
        if nxt == reached:
            return None
        reached, k = nxt, k + 1
    return max(k, 1)


def _order(n: int, taps: tuple[int, ...]) -> int:
    g = n
    for t in taps:
        g = math.gcd(g, t % n)
    return (n // g) ** g * math.factorial(g)


def _below(text: str) -> list[dict]:
    return result_json(uapcheck.check(text, "t.uap"))["below_range"]


@pytest.mark.parametrize("taps", [(0, 2, 5), (1, 4), (0, 3, 7), (2, 5), (0, 2, 6)])
def test_each_length_below_the_range_is_the_sum_sets_least_depth(taps):
    """Every length no stated condition covers is listed, with the verdict, count and group order the sum sets
    give at that n."""
    below = _below(_source(taps))
    assert below, "Lemma P's range starts above the first length: the lengths below it are listed"
    for x in below:
        n = x["n"]
        depth = _least_depth(n, taps)
        if depth is None:
            assert x["verdict"] == "NOT-UAP", x
            continue
        assert (x["verdict"], x["layers"], x["least"]) == ("UAP", depth, True), x
        assert x["group"]["order"] == _order(n, taps), x


def test_the_listed_lengths_are_exactly_those_below_lemma_p_start():
    """{0, 2, 5}: Lemma P's count holds from n = 8; the lengths 1…7 are decided one by one (n = 5: 4 layers, the
    taps reduce to {0, 2}; n = 6: 3 layers)."""
    result = uapcheck.check(_source((0, 2, 5)), "t.uap")
    below = result_json(result)["below_range"]
    assert [x["n"] for x in below] == list(range(1, 8))
    assert [x["layers"] for x in below] == [1, 1, 2, 2, 4, 3, 3]
    assert "UAP at n = 1…7" in result.root.claim


def test_certificate_with_lengths_below_verifies():
    report = verify(certificate_of(_source((0, 2, 5))))
    assert report.ok, report


def _forged(taps, n: int, field: str, change) -> dict:
    cert = copy.deepcopy(certificate_of(_source(taps)))
    step = next(s for s in cert["steps"] if s["rule"] == "VERDICT-T1")
    entry = next(x for x in step["data"]["lengths"] if x["n"] == n)
    entry[field] = change(entry[field])
    return json.loads(json.dumps(cert))


@pytest.mark.parametrize("n, field, change", [
    (5, "layers", lambda v: v - 1),     # 3 layers where the sum sets fill Z_5 at depth 4
    (6, "layers", lambda v: v + 1),     # 4 layers stated least, the sum sets fill Z_6 at depth 3
    (7, "order", lambda v: 2 * v),      # a group larger than the centraliser C_7
    (4, "verdict", lambda v: "NOT-UAP"),  # NOT-UAP where the taps reach every offset
])
def test_forged_length_below_is_rejected(n, field, change):
    report = verify(_forged((0, 2, 5), n, field, change))
    assert not report.ok
    assert any(s.rule == "VERDICT-T1" and s.outcome == REJECTED for s in report.steps)


def test_a_parameter_span_is_decided_at_one_token():
    """At n = 1 every tap is 0 mod n: `circular(l)` with a parameter l is UAP with one layer there, and the
    symbolic file lists n = 1 below its range n ≥ 2 as UAP (formerly INCONCLUSIVE: the span was not read)."""
    one = uapcheck.check("tokens 1\nparam l integer >= 1\nconvolution circular(l)\n", "t.uap")
    assert (one.verdict, one.layers) == ("UAP", 1)
    below = _below("param l integer >= 1\nconvolution circular(l)\n")
    assert [(x["n"], x["verdict"], x["layers"]) for x in below] == [(1, "UAP", 1)]
    assert verify(certificate_of("tokens 1\nparam l integer >= 1\nconvolution circular(l)\n")).ok
