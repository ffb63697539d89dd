"""Theorem F53 (docs/theory.md §11.11): the least layer count of `window(w) + strided(s)`, w + 2 ≤ s ≤ 2w + 1.

Compared with the concrete engine (graphs, BLISS, rooted views: the least count by canonical labelling) at
every n ≤ 60 in Theorem F11's range for every (w, s) with w ≤ 3 (for w = 3 the range starts above 60: one
period and a bit from its start), and up to n = 120 for window(1) + strided(3); the witness and the
far-clique lemma re-checked here by code written in the test; the verifier's own entry, and forged counts
and residue sets rejected.
"""
from __future__ import annotations

import json
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.graphs.strided_least import wide_stride_witness
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify
from uapcheck.verifier import strided_least as V

N = sympy.Symbol("n", integer=True, positive=True)
PAIRS = [(w, s) for w in range(1, 4) for s in range(w + 2, 2 * w + 2)]


def _lengths(w: int, s: int) -> list[int]:
    low = s * (4 * w + 3)
    top = 120 if (w, s) == (1, 3) else max(60, low + s + 1)
    return list(range(low, top + 1))


def _adj(w: int, s: int, u: int, v: int) -> bool:
    return abs(u - v) <= w or (u - v) % s == 0


def _distances(n: int, w: int, s: int, root: int) -> dict:
    dist = {root: 0}
    queue = deque([root])
    while queue:
        x = queue.popleft()
        for y in range(1, n + 1):
            if y not in dist and _adj(w, s, x, y):
                dist[y] = dist[x] + 1
                queue.append(y)
    return dist


@pytest.mark.parametrize("w,s", PAIRS)
def test_f53_agrees_with_the_concrete_engine_at_every_n_in_range(w, s):
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F11"
    proved = wide_stride_witness(w, s) is not None
    assert theorem.least is proved and proved is (s != w + 2 or w == 1)
    for n in _lengths(w, s):
        got = F.concrete(pattern, n)
        want = F.at(theorem, {"n": n})
        assert got.least and got.diameter == want["diameter"]
        if proved:
            assert got.layers == want["layers"] == 3, n
        else:
            # s = w + 2, w ≥ 2: 3 layers least where D = 3; where D = 2 the engine finds 2 (not proved: O11)
            assert got.layers == got.diameter and want["layers"] == 3 and not theorem.least, n


@pytest.mark.parametrize("w,s", [p for p in PAIRS if wide_stride_witness(*p) is not None])
def test_the_witness_keeps_every_neighbourhood_in_the_ball_of_its_position(w, s):
    """F53 (b) on the arcs, with code written here: the swap changes N(v) only for v at distance ≥ 2."""
    pos, (a, b) = wide_stride_witness(w, s)
    for n in _lengths(w, s)[: 2 * s]:
        dist = _distances(n, w, s, pos)

        def image(x):
            return b if x == a else a if x == b else x
        changed = [v for v in range(1, n + 1)
                   if {image(x) for x in range(1, n + 1) if _adj(w, s, v, x)}
                   != {x for x in range(1, n + 1) if _adj(w, s, image(v), x)}]
        assert changed and min(dist[v] for v in changed) >= 2
        assert any(_adj(w, s, u, v) != _adj(w, s, image(u), image(v)) for u in range(1, n + 1)
                   for v in range(1, n + 1))  # not a symmetry (G is the reflection)


@pytest.mark.parametrize("w,s", PAIRS)
def test_the_far_positions_are_pairwise_adjacent_where_d_is_3(w, s):
    """F53 (a)'s premise, by a search written here: positions at distance 3 from a root form a clique."""
    for n in _lengths(w, s)[: s + 1]:
        for root in range(1, n + 1):
            dist = _distances(n, w, s, root)
            far = [v for v, d in dist.items() if d == 3]
            assert all(_adj(w, s, u, v) for u in far for v in far)


def test_s_equal_w_plus_2_has_no_local_swap_witness():
    """For s = w + 2, w ≥ 2, no swap of two positions near the left end keeps every neighbourhood in N(i) for
    a root i near it (the case that stays open, O11); for the other s the theorem's swap is one."""
    for w in range(2, 6):
        s = w + 2
        for i in range(1, s + 2 * w + 1):
            top = 3 * s + 4 * w
            ball = [v for v in range(1, top + 2 * w + 1) if _adj(w, s, v, i)]
            traces = {}
            for x in range(1, top + 1):
                if _adj(w, s, x, i):
                    continue
                t = frozenset(v for v in ball if _adj(w, s, v, x))
                assert t not in traces, (w, i, traces.get(t), x)
                traces[t] = x


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "stride"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("tokens", ["", "tokens 4096\n"])
def test_the_verifier_rechecks_f53_with_its_own_entry(tokens):
    report = verify(_cert(_source("window(1) + strided(3)", tokens)))
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "Theorem F11" in step.reason


def test_the_verifier_rejects_a_count_one_too_low():
    cert = _cert(_source("window(1) + strided(3)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 2
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_a_count_one_too_low_at_a_concrete_n():
    cert = _cert(_source("window(1) + strided(3)", "tokens 4096\n"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    text = json.dumps(step["data"]).replace('"layers": 3', '"layers": 2')
    step["data"] = json.loads(text)
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_a_wrong_residue_set():
    """D = 3 claimed for n ≡ 1 (mod 3) instead of n ≡ 0: the diameter tree of a shifted residue."""
    good = _cert(_source("window(1) + strided(3)"))
    step = next(s for s in good["steps"] if s["rule"] == "PAT-LAYERS")
    text = json.dumps(step["data"]["diameter"])
    # ⌊n/3⌋ − ⌊(n − 1)/3⌋ is 1 exactly at n ≡ 0; ⌊(n − 1)/3⌋ − ⌊(n − 2)/3⌋ marks n ≡ 1
    forged = text.replace('{"q": [-1, 3]}', '{"q": [-2, 3]}').replace(
        '{"args": [{"args": [{"q": [1, 3]}, {"sym": "n"}], "op": "*"}], "op": "floor"}',
        '{"args": [{"args": [{"q": [-1, 3]}, {"args": [{"q": [1, 3]}, {"sym": "n"}], "op": "*"}], "op": "+"}], '
        '"op": "floor"}')
    assert forged != text
    for rule in ("PAT-LAYERS", "PAT-CONNECTED"):
        next(s for s in good["steps"] if s["rule"] == rule)["data"]["diameter"] = json.loads(forged)
    report = verify(good)
    assert not report.ok and any(s.rule == "PAT-CONNECTED" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_least_for_the_open_case():
    """window(2) + strided(4) (s = w + 2): 3 layers are not claimed least; a certificate saying so fails."""
    cert = _cert(_source("window(2) + strided(4)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False
    step["data"]["least"] = True
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


@pytest.mark.parametrize("w,s", [p for p in PAIRS if wide_stride_witness(*p) is not None])
def test_the_verifier_restates_the_witness_and_rechecks_instances(w, s):
    assert V.witness(w, s) == (wide_stride_witness(w, s)[0],) + wide_stride_witness(w, s)[1]
    assert V.witness_on_the_half_line(w, s) is None
    low = s * (4 * w + 3)
    for n in (low, low + 1, low + 2):
        d = F.at(F.match(
            [PatternUnion((Window(w), Strided(s)))], N, {}), {"n": n})["diameter"]
        assert V.instance_problem(w, s, n, d) is None


def test_the_verifier_rejects_a_wrong_witness_on_the_half_line(monkeypatch):
    monkeypatch.setattr(V, "witness", lambda w, s: (1, s, s + w + 2))
    assert V.witness_on_the_half_line(1, 3) is not None
