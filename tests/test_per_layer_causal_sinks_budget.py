"""Per-layer causal heads with attention sinks under a budget below the count (docs/theory.md §21.9, F128 (a) and (d)):
NOT-UAP when x_j does not reach a position within the network's depth, or when a transposition witness sits at the
whole depth. Checked against §21.5's rooted-view engine (no shared code) at every n ≤ 30 for random lists and budgets,
end to end above 1,024 tokens (certificate and verifier), and forged witnesses and pairs rejected by the verifier."""
from __future__ import annotations

import copy
import json
import random

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck.graphs.layers_sinks import SinkLayers, decide, find_witness
from uapcheck.verifier import verify
from uapcheck.verifier.check import REJECTED, VERIFIED

POOL = ["causal", "causal & window(1)", "causal & window(2)", "causal & window(3)", "offsets {0}",
        "offsets {0} + sinks(2)", "causal & window(1) + sinks(1)", "causal & window(2) + sinks(3)",
        "causal + sinks(2)", "causal & window(3) + sinks(2)"]


def text(row: list, n: int, budget: int) -> str:
    return (f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {', '.join(row)} }}\n}}\n"
            f"tokens {n}\nlayers {budget}\ntarget causal\n")


def heads_of(row: list) -> tuple:
    from uapcheck.graphs.layers_sinks import sink_head
    from uapcheck.parse import parse_source
    spec = parse_source(text(row, 40, 1))
    return tuple((sink_head(p),) for p in spec.heads[0].pattern.patterns)


def sink_verdict(row: list, n: int, budget: int) -> str:
    """The sinks route's verdict with the budget (NOT-UAP by F128 (a)/(d), UAP when a count within it is found)."""
    heads = heads_of(row)
    rows, periodic = (heads[:budget], False) if budget < len(heads) else (heads, True)
    L = SinkLayers(n, rows, periodic, budget)
    c = decide(L)
    if c.layers is not None:
        return "UAP"
    if c.depth is None and c.missing is not None:
        return "NOT-UAP"
    return "NOT-UAP" if c.depth is not None and find_witness(L, budget) else "open"


def test_the_budget_verdicts_agree_with_the_rooted_views():
    rng = random.Random(5)
    claimed = {"NOT-UAP": 0, "UAP": 0}
    for _ in range(45):
        row = [rng.choice(POOL) for _ in range(rng.randint(2, 3))]
        if not any("sinks" in h for h in row):
            continue
        budget = rng.randint(1, 5)
        for n in range(4, 31, 3):
            mine = sink_verdict(row, n, budget)
            if mine == "open":
                continue
            exact = uapcheck.check(text(row, n, budget), "t.uap").verdict
            if mine == "NOT-UAP":
                assert exact == "NOT-UAP", (row, n, budget)
            claimed[mine] += 1
    assert claimed["NOT-UAP"] >= 20 and claimed["UAP"] >= 20, claimed


def certificate(src: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(src, "t.uap"), src)))


def not_causal(cert: dict) -> str:
    return next(s.outcome for s in verify(cert).steps if s.rule == "TGT-NOT-CAUSAL")


@pytest.mark.parametrize("row, budget, route, forged_j", [
    (["causal & window(16) + sinks(4)", "causal & window(16)"], 20, "unreached", 2047),  # the neighbour is reached
    (["offsets {0} + sinks(2)", "causal"], 2, "sink witness", 2),  # N(v) holds the sink 2, not 3, for v > 3
    (["causal + sinks(2)", "causal & window(3)"], 2, "sink witness", 1097),  # N(1097) ∌ 1098 ∈ N(1098)
])
def test_above_the_engine_a_budget_below_the_count_is_not_uap_and_verified(row, budget, route, forged_j):
    src = text(row, 2048 if route == "unreached" else 1100, budget)
    assert uapcheck.check(src, "t.uap").verdict == "NOT-UAP"
    cert = certificate(src)
    step = next(s for s in cert["steps"] if s["rule"] == "TGT-NOT-CAUSAL")
    assert step["data"]["route"] == route
    assert not_causal(cert) == VERIFIED
    forged = copy.deepcopy(cert)
    data = next(s for s in forged["steps"] if s["rule"] == "TGT-NOT-CAUSAL")["data"]
    data["j"] = forged_j
    assert not_causal(forged) == REJECTED
