"""Per-layer patterns above 1,024 tokens (docs/theory.md §21.2, the size plan): the engine decides a file whose
layer graphs fit the file's resources, the independent verifier re-checks it on its own arcs, and a file beyond the
plan is INCONCLUSIVE with the largest length that fits, that length being exact (it fits; one more does not).
Before, every per-layer file above n = 1,024 outside the closed forms of §21.6 and §21.7 was INCONCLUSIVE, whatever
its size."""
from __future__ import annotations

import pytest

import uapcheck
from certificates import certificate_of  # tests/ is on sys.path
from clirun import run
from uapcheck.graphs import GraphTooLarge
from uapcheck.graphs.build import arc_budget, reach_bytes, sequence_fit
from uapcheck.parse import parse_source
from uapcheck.render.jsonout import result_json
from uapcheck.verifier import verify
from uapcheck.verifier.check import VERIFIED


def source(n: int, patterns: str, causal: bool = False) -> str:
    target = "target causal\n" if causal else ""
    return f"tokens {n}\n{target}attention {{ kernel k(x, y) = exp(x . y); pattern periodic {{ {patterns} }} }}\n"


def layer_list(n: int, patterns: str) -> list:
    return list(parse_source(source(n, patterns), "t.uap").heads[0].pattern.patterns)


def undecided_claims(text: str) -> list[str]:
    result = uapcheck.check(text, "t.uap")
    return [s["claim"] for s in result_json(result)["steps"] if s["rule"] in ("SEQ-UNDECIDED", "TGT-UNDECIDED")]


def test_a_window_then_a_full_layer_above_the_old_limit_is_two_layers_least():
    # window(64) alone does not connect 1,100 positions within one layer, so D_Φ = 2 layers are needed; the full
    # second layer sees layer 1 whole, whose heads alone have the reflection: 2 layers suffice (the covering lemma)
    got = result_json(uapcheck.check(source(1100, "window(64), full"), "t.uap"))
    assert (got["verdict"], got["group"]["order"], got["layers"], got["least"]) == ("UAP", 2, 2, True)


def test_a_sparse_sequence_above_the_old_limit_is_decided_and_fully_verified():
    # window(8) then window(8) + global(1) (+ sinks(1), the same arcs: the global position is read by every later one
    # already, but outside the closed forms of §21.13, so the per-layer engine decides it): the global position breaks
    # the reflection (G trivial); every position reaches every other within 4 layers (through the global position);
    # at depth 6 layers 1-3 are seen whole
    text = source(1100, "window(8), window(8) + global(1) + sinks(1)")
    got = result_json(uapcheck.check(text, "t.uap"))
    assert (got["verdict"], got["group"]["order"], got["layers"], got["least"]) == ("UAP", 1, 6, False)
    assert not any(s["rule"].startswith("SEQ-GLOBALS") for s in got["steps"])
    report = verify(certificate_of(text))
    assert [s.rule for s in report.steps if s.outcome != VERIFIED] == []
    # the closed forms on the same arcs written without the sinks: the least count, at most the engine's sufficient one
    closed = result_json(uapcheck.check(source(1100, "window(8), window(8) + global(1)"), "t.uap"))
    assert (closed["verdict"], closed["group"]["order"], closed["layers"], closed["least"]) == ("UAP", 1, 4, True)


def test_beyond_the_plan_the_verdict_names_the_largest_length_that_fits_and_that_length_is_exact():
    fit = 2009  # window(64) and full: 128·n-ish arcs and n(n − 1) entries within the default arc budget
    sequence_fit(layer_list(fit, "window(64), full"), fit)
    with pytest.raises(GraphTooLarge):
        sequence_fit(layer_list(fit + 1, "window(64), full"), fit + 1)
    claims = undecided_claims(source(5000, "window(64), full"))
    assert claims and all("fit up to n = 2,009" in c for c in claims)
    assert not any("1,024" in c for c in claims)


def test_the_reach_sets_bound_the_length_when_the_layers_are_sparse():
    limit = arc_budget()  # the entries are far within it for two windows; the reach sets are not at 100,000
    assert 2 * 5 * 100_000 < limit
    claims = undecided_claims(source(100_000, "window(1), window(2) cyclic"))  # outside §21.12's closed forms
    fit = int(claims[0].split("fit up to n = ")[1].rstrip(")").replace(",", ""))
    from uapcheck import budget
    share = budget.memory_bytes // 2
    assert reach_bytes(fit) <= share < reach_bytes(fit + 1)
    assert all(f"fit up to n = {fit:,}" in c for c in claims)


def test_causal_targets_use_the_same_plan():
    # causal is n(n + 1)/2 arcs: 3,000 positions do not fit beside a strided layer, and the step says so
    claims = undecided_claims(source(3000, "causal & strided(2), causal", causal=True))
    assert claims and "fit up to n = " in claims[0] and "1,024" not in claims[0]


def _disconnection(text: str) -> tuple:
    got = result_json(uapcheck.check(text, "t.uap"))
    steps = {s["rule"]: s for s in got["steps"]}
    cut = steps.get("PAT-DISCONNECTED") or steps.get("SEQ-DISCONNECTED")
    witness = cut and cut["evidence"]["witness"]
    group = (steps.get("SYM-AUT") or steps.get("SEQ-GROUP"))["facts"]["group"]
    return got["verdict"], group["order"], witness and (witness["i"], witness["j"])


def test_beyond_the_plan_a_decoders_layers_that_all_look_back_are_not_uap_for_equivariant_targets(tmp_path):
    # every layer of `periodic { causal & window(4096), causal }` attends only backwards, so position 1 sees itself alone
    # at any depth: NOT-UAP for G-equivariant targets at every n ≥ 2, read off the layers' structure where their
    # graphs do not fit (it was INCONCLUSIVE, "they fit up to n = …"); the group is trivial (the first layer holds the
    # path 1 → 2 → … → n); the suggestion names `target causal`
    text = source(1_048_576, "causal & window(4096), causal")
    verdict, order, pair = _disconnection(text)
    assert (verdict, order, pair) == ("NOT-UAP", 1, (1, 2))
    path = tmp_path / "decoder.uap"
    path.write_text(text)
    shown = run(str(path))
    assert shown.code == 0 and "NOT-UAP" in shown.stdout and "declare `target causal`" in shown.stdout
    # the same answer, a second way: the arc engine at a length whose graphs fit (its closed set {1})
    assert _disconnection(source(200, "causal & window(16), causal")) == ("NOT-UAP", 1, (1, 2))


def test_beyond_the_plan_layers_that_all_look_forward_cut_off_the_last_position():
    n = 1_048_576
    assert _disconnection(source(n, "offsets {0, 1}, offsets {0, 2}"))[0::2] == ("NOT-UAP", (n, n - 1))
    # the arc engine at a length whose graphs fit names another unreached pair (x_1 never reaches 2): the same verdict
    verdict, _, (i, j) = _disconnection(source(60, "offsets {0, 1}, offsets {0, 2}"))
    assert verdict == "NOT-UAP" and j < i


def test_beyond_the_plan_layers_looking_both_ways_are_not_called_disconnected():
    # one layer looks back, the other forward: every position reaches every other, so the triangular argument does not
    # apply and the file stays INCONCLUSIVE beyond the plan, naming the length that fits
    claims = undecided_claims(source(1_048_576, "offsets {0, -1}, offsets {0, 1}"))
    assert claims and all("fit up to n = " in c for c in claims)


def _budgeted(n: int, patterns: str, budget: int) -> str:
    return (f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern sequence {{ {patterns} }} }}\n"
            f"layers {budget}\n")


def test_beyond_the_plan_a_budget_cuts_the_layer_patterns_the_group_is_read_from():
    # `layers 1` cuts `sequence { offsets {0, -2}, causal }` after its first layer: the network is offsets {0, -2}
    # alone, two chains (odd and even positions) whose exchange is an automorphism at an even n, so G has order 2;
    # the causal layer past the cut holds the path 1 → 2 → … → n but no arc of the network (it made G "trivial")
    small = _disconnection(_budgeted(20, "offsets {0, -2}, causal", 1))
    assert small[:2] == ("NOT-UAP", 2)  # the arc engine, a second way
    got = result_json(uapcheck.check(_budgeted(1_048_576, "offsets {0, -2}, causal", 1), "t.uap"))
    rules = {s["rule"] for s in got["steps"]}
    assert got["verdict"] == "NOT-UAP" and "SYM-AUT" not in rules and "SYM-UNDECIDED" in rules
    # and a layer past the cut does not keep the network's layers from being read: `sequence { causal, full }` with
    # `layers 1` is the causal layer alone (the arc engine at n = 20 says the same)
    assert _disconnection(_budgeted(20, "causal, full", 1)) == ("NOT-UAP", 1, (1, 2))
    assert _disconnection(_budgeted(1_048_576, "causal, full", 1)) == ("NOT-UAP", 1, (1, 2))
