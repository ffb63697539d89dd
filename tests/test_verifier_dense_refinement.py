"""Dense heads with bias classes at an n where nauty's graph is too large (cosFormer at 1,024: an offset class per
distance, 21,504 vertices above the verifier's nauty limit): SYM-DENSE's completeness was left trusted ("needs
pynauty"). The verifier now re-derives the order by colour refinement on the labelled complete arcs, then one
position individualised (the route of the labelled groups above n = 1,024, docs/theory.md §18.3). Checked against
nauty at small n (a second way); a tampered group name is rejected."""
from __future__ import annotations

import copy

import pytest

from certificates import certificate

from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, groups, patterns, verify
from uapcheck.verifier.rules_infer import _dense_by_refinement


def _dense(n: int, kind: str, heads: int = 1) -> S.Spec:
    body = "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  bias {kind}\n}}\n" for _ in range(heads))
    return parse_source(f"tokens {n}\n{body}")


@pytest.mark.parametrize("kind", ["toeplitz", "symmetric toeplitz", "circulant", "symmetric circulant", "free"])
@pytest.mark.parametrize("n", [8, 9, 12])
def test_refinement_gives_nautys_order_on_complete_labelled_heads(kind, n):
    spec = _dense(n, kind)
    arcs = [patterns.head_arcs(S.Full(), n)]
    full, _ = groups.full_order(patterns.labels_at(spec, arcs, n), n, "none")
    mine = _dense_by_refinement(spec, n, None)
    assert mine is None or mine == full, (kind, n, mine, full)
    if kind != "circulant" and kind != "symmetric circulant":  # C_n, D_n: no stabiliser is trivial after one step
        assert mine == full


def test_cosformer_at_1024_is_verified_and_a_changed_group_rejected():
    cert = certificate("cosformer.uap")
    dense = next(s for s in cert["steps"] if s["rule"] == "SYM-DENSE")
    found = next(r for r in verify(cert, only={dense["id"]}).steps if r.rule == "SYM-DENSE")
    assert found.outcome == VERIFIED and "colour refinement" in found.reason
    assert dense["evidence"]["group"] == "reflection"
    outcome = {}
    for name in ("trivial", "D_n"):
        bad = copy.deepcopy(cert)
        step = next(s for s in bad["steps"] if s["rule"] == "SYM-DENSE")
        step["evidence"]["group"] = name
        if isinstance(step.get("data"), dict) and "group" in step["data"]:
            step["data"]["group"] = name
        outcome[name] = next(r for r in verify(bad, only={step["id"]}).steps if r.rule == "SYM-DENSE").outcome
    # a smaller group than the structure's is left trusted (a construct the verifier may not model), never verified;
    # a larger one breaks the classes and is rejected
    assert outcome == {"trivial": "trusted", "D_n": REJECTED}
