"""`target causal` on a strongly connected family with a `layers M` budget below its directed diameter (docs/theory.md
§14.9, TGT-NOT-CAUSAL's budget route): when some x_j with j < i needs more than M hops to reach position i, every
model's output at i ignores x_j, whatever positions add (an encoding X + E, position terms in the weights: they change
values, not the arcs), while the causal target F(X)_i = x_j depends on it: NOT-UAP for causal targets.

Before, `positional absolute` + `window(1)` at `tokens 8` with `layers 2` and `target causal` was INCONCLUSIVE ("the
family is NOT-UAP for its G-equivariant targets and its group is not shown non-trivial"): the group route needs a
non-trivial group, and the encoding makes it trivial, while the reach argument needs no group at all.

The reference here is independent of the engines: the arcs are written from the definitions of the patterns (window:
|i − j| ≤ w; `edges`: i attends to j), and the far pair is found by a BFS written in this file."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from certificates import certificate_of, rejects  # noqa: E402

import uapcheck  # noqa: E402
from uapcheck.verifier import verify  # noqa: E402

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def _text(pattern: str, n: int, budget: int, positional: bool = True) -> str:
    return (f"tokens {n}\n" + ("positional absolute\n" if positional else "") + f"layers {budget}\ntarget causal\n"
            f"attention {{\n  {SOFTMAX}\n  pattern {pattern}\n}}\n")


def _distances(n: int, attends: set, source: int) -> dict:
    """Hops from x_source to each position: an arc source → i when i attends to source (plus i attends to i)."""
    dist, frontier = {source: 0}, [source]
    while frontier:
        nxt = []
        for u in frontier:
            for i in range(1, n + 1):
                if (i, u) in attends and i not in dist:
                    dist[i] = dist[u] + 1
                    nxt.append(i)
        frontier = nxt
    return dist


def _causal_far_pair(n: int, attends: set, budget: int) -> bool:
    """Some j < i with x_j more than `budget` hops from i (or never reaching it)."""
    for j in range(1, n + 1):
        dist = _distances(n, attends, j)
        if any(dist.get(i, budget + 1) > budget for i in range(j + 1, n + 1)):
            return True
    return False


def _strongly_connected(n: int, attends: set) -> bool:
    return all(len(_distances(n, attends, j)) == n for j in range(1, n + 1))


def _diameter(n: int, attends: set) -> int:
    return max(max(_distances(n, attends, j).values()) for j in range(1, n + 1))


def test_the_reported_case_is_not_uap_for_causal_targets():
    r = uapcheck.check(_text("window(1)", 8, 2), "t.uap")
    assert r.verdict == "NOT-UAP", r.verdict
    step = next(s for s in r.root.walk() if s.rule == "TGT-NOT-CAUSAL")
    assert step.proved and step.evidence["witness"]["budget"] == 2
    i, j = step.evidence["witness"]["i"], step.evidence["witness"]["j"]
    window = {(a, b) for a in range(1, 9) for b in range(1, 9) if abs(a - b) <= 1}
    assert j < i and _distances(8, window, j)[i] > 2


@pytest.mark.parametrize("n,w,budget", [(8, 1, 2), (8, 1, 6), (9, 2, 3), (12, 3, 3), (7, 1, 1), (10, 4, 2)])
@pytest.mark.parametrize("positional", [True, False])
def test_windows_below_their_reach_are_not_uap(n, w, budget, positional):
    window = {(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if abs(a - b) <= w}
    assert _causal_far_pair(n, window, budget)
    r = uapcheck.check(_text(f"window({w})", n, budget, positional), "t.uap")
    assert r.verdict == "NOT-UAP"
    cert = certificate_of(_text(f"window({w})", n, budget, positional))
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_random_edge_patterns_agree_with_the_reach_argument():
    """Strongly connected `edges` patterns at n ≤ 7 with an absolute encoding (trivial group), a budget below the
    diameter: NOT-UAP for causal targets exactly when this file's BFS finds an earlier token out of reach; the
    verifier accepts each NOT-UAP certificate completely."""
    rng = random.Random(20261205)
    seen = {True: 0, False: 0}
    for _ in range(400):
        if min(seen.values()) >= 6:
            break
        n = rng.randint(3, 7)
        attends = {(i, i) for i in range(1, n + 1)}
        attends |= {(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if a != b and rng.random() < 0.3}
        if not _strongly_connected(n, attends) or _diameter(n, attends) < 2:
            continue
        budget = rng.randint(1, _diameter(n, attends) - 1)
        far = _causal_far_pair(n, attends, budget)
        if seen[far] >= 6:
            continue
        seen[far] += 1
        pattern = "edges {" + ", ".join(f"{a} -> {b}" for a, b in sorted(attends) if a != b) + "}"
        text = _text(pattern, n, budget)
        r = uapcheck.check(text, "t.uap")
        assert (r.verdict == "NOT-UAP") == far, (text, r.verdict)
        if far:  # the budget route verified; nothing rejected (PAT-LAYERS' view witness under an encoding is trusted)
            report = verify(certificate_of(text))
            outcomes = {s.rule: s.outcome for s in report.steps}
            assert outcomes["TGT-NOT-CAUSAL"] == "verified" and "rejected" not in outcomes.values(), \
                (text, [(s.rule, s.outcome, s.reason) for s in report.steps])
    assert min(seen.values()) >= 6, seen


def test_a_forward_complete_pattern_is_not_not_uap():
    """Every earlier token reaches every later position in one hop (`causal` in one head, `window(1)` in the other):
    the diameter is n − 1 (x_n reaches 1 along the window) but no causal target is out of reach of `layers 2`."""
    text = ("tokens 8\npositional absolute\nlayers 2\ntarget causal\n"
            f"attention {{\n  {SOFTMAX}\n  pattern causal\n}}\nattention {{\n  {SOFTMAX}\n  pattern window(1)\n}}\n")
    r = uapcheck.check(text, "t.uap")
    assert r.verdict != "NOT-UAP"


def _budget_cert() -> dict:
    return certificate_of(_text("window(1)", 8, 2))


def _route(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "TGT-NOT-CAUSAL")


@pytest.mark.parametrize("key,value", [("budget", 7), ("i", 3), ("j", 9), ("distance", 6), ("distance", None)])
def test_forged_budget_routes_are_rejected(key, value):
    cert = _budget_cert()
    step = _route(cert)
    assert step["data"]["route"] == "budget"
    step["data"][key] = value
    if key in ("budget", "i", "j"):
        step["evidence"]["witness"][key] = value  # the printed witness forged alike
    assert rejects(cert, "TGT-NOT-CAUSAL")


def test_a_pair_out_of_order_is_rejected():
    cert = _budget_cert()
    step = _route(cert)
    i, j = step["data"]["i"], step["data"]["j"]
    step["data"]["i"], step["data"]["j"] = j, i
    step["evidence"]["witness"]["i"], step["evidence"]["witness"]["j"] = j, i
    assert rejects(cert, "TGT-NOT-CAUSAL")


def test_the_certificate_of_another_budget_is_rejected():
    """The honest certificate at `layers 2` presented for the file with `layers 7` (which reaches every position)."""
    import copy
    import hashlib
    cert = copy.deepcopy(_budget_cert())
    text = _text("window(1)", 8, 7)
    cert["input"]["text"] = text
    cert["input"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    assert not verify(cert).ok
