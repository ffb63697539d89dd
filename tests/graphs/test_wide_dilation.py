"""Theorem F15 (docs/theory.md §11.11): `window(w) + dilated(w', r)` with integers w, w' ≥ 1 and r ≥ w + 2.
With S = {1..w} ∪ {r, …, w'r}, L = w'r, c the cost on Z and μ', C fitted to its running maximum:
D = ⌊(n − 1 − μ')/L⌋ + C, G = the reflection, and D layers, least, for n ≥ n₀.

Each lemma of the proof is checked a second way: the cost formula against breadth-first search on Z,
walks inside [0, x] against the cost for x ≥ L, the periodicity beyond X₂, and the diameter against
breadth-first search on the token graph over three periods from the range's start; the theorem against
the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in its range; the verifier's own
restatement; and a million tokens without a token graph.
"""
from __future__ import annotations

from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck.graphs import families as F
from uapcheck.spec import Dilated, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)
ENGINE = [(1, 1, 3), (2, 1, 5), (1, 2, 4), (1, 1, 4)]


def pattern(w, wd, r):
    return PatternUnion((Window(w), Dilated(wd, r)))


def triples():
    return [(w, wd, r) for w in range(1, 4) for r in range(w + 2, w + 6) for wd in range(1, 4)]


def z_costs(steps, top):
    """Breadth-first search on the integers in [−4L, top + 4L] (wider than the proof needs)."""
    big = max(steps)
    lo, hi = -4 * big, top + 4 * big
    dist = {0: 0}
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for s in steps:
            for v in (u - s, u + s):
                if lo <= v <= hi and v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
    return [dist[x] for x in range(top + 1)]


def inside_cost(steps, x):
    dist = {0: 0}
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for s in steps:
            for v in (u - s, u + s):
                if 0 <= v <= x and v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
    return dist[x]


def bfs_diameter(n, steps):
    best = 0
    for src in range(1, n + 1):
        dist = {src: 0}
        queue = deque([src])
        while queue:
            u = queue.popleft()
            for s in steps:
                for v in (u - s, u + s):
                    if 1 <= v <= n and v not in dist:
                        dist[v] = dist[u] + 1
                        queue.append(v)
        if len(dist) < n:
            return None
        best = max(best, max(dist.values()))
    return best


def test_the_cost_formula_is_breadth_first_search_on_the_integers():
    for w, wd, r in triples():
        data = F.wide_dilation(w, wd, r)
        top = 6 * data.L + 20
        want = z_costs(list(data.steps), top)
        assert [F.dilated_cost(w, wd, r, x) for x in range(top + 1)] == want, (w, wd, r)


def test_walks_inside_the_pair_cost_no_more_from_l_on():
    """Step (3): g(x) = c(x) for x ≥ L, and G_s is the largest g below L."""
    for w, wd, r in triples():
        data = F.wide_dilation(w, wd, r)
        steps = list(data.steps)
        for x in range(data.L, 4 * data.L + 1):
            assert inside_cost(steps, x) == F.dilated_cost(w, wd, r, x), (w, wd, r, x)
        assert data.short == max(inside_cost(steps, x) for x in range(1, data.L))
    # the detour matters below L: 3 = 4 − 1 costs 2 on Z but 3 inside [0, 3]
    assert F.dilated_cost(1, 2, 4, 3) == 2 and inside_cost([1, 4, 8], 3) == 3


def test_the_cost_gains_one_per_period_beyond_the_threshold():
    for w, wd, r in triples():
        data = F.wide_dilation(w, wd, r)
        for x in range(data.periodic, data.periodic + 5 * data.L):
            assert F.dilated_cost(w, wd, r, x + data.L) == F.dilated_cost(w, wd, r, x) + 1, (w, wd, r, x)


def test_the_diameter_agrees_with_breadth_first_search_over_three_periods():
    checked = 0
    for w, wd, r in triples():
        data = F.wide_dilation(w, wd, r)
        assert data.radius is not None
        for n in range(data.low, data.low + 3 * data.L + 1):
            assert bfs_diameter(n, data.steps) == (n - 1 - data.mu) // data.L + data.top, (w, wd, r, n)
            checked += 1
    assert checked > 600


@pytest.mark.parametrize("w,wd,r", ENGINE)
def test_f15_agrees_with_the_concrete_engine_for_every_n_up_to_60(w, wd, r):
    theorem = F.match([pattern(w, wd, r)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F15"
    assert theorem.group == "reflection" and theorem.least and theorem.witness is None
    checked = 0
    for n in range(int(theorem.low), 61):
        want = F.at(theorem, {"n": n})
        assert F.instance_check(theorem, pattern(w, wd, r), {"n": n}) is None
        got = F.concrete(pattern(w, wd, r), n)
        assert (got.diameter, got.order, got.layers, got.least) == (want["diameter"], 2, want["diameter"], True)
        checked += 1
    assert checked >= 25


def test_the_examples_of_the_issue():
    expect = {(1, 1, 3): (12, "floor(n/3) + 1"), (1, 2, 4): (31, "floor(n/8 - 7/8) + 3"),
              (2, 1, 5): (14, "floor(n/5 - 4/5) + 2")}
    for (w, wd, r), (low, d) in expect.items():
        theorem = F.match([pattern(w, wd, r)], N, {})
        assert theorem.low == low and sympy.sstr(theorem.diameter) == d


def test_large_parameters_stay_open_with_their_question():
    for p in (pattern(1, 8, 12), pattern(1, 10, 12)):  # no radius ≤ 6; w'r > 96
        found = F.match([p], N, {})
        assert isinstance(found, F.OpenFamily) and "F15" in found.question


def test_symbolic_n_is_uap_with_the_range_and_the_verifier_agrees():
    import json

    from uapcheck import certfile
    from uapcheck.verifier import verify
    text = "attention { kernel k(x, y) = exp(x . y); pattern window(1) + dilated(2, 4) }\n"
    r = uapcheck.check(text, "t.uap")
    assert r.verdict == "UAP" and r.group.name == "reflection"
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["least"] is True and "Theorem F15" in step.evidence["method"]
    conn = next(s for s in r.root.walk() if s.rule == "PAT-CONNECTED")
    assert conn.evidence["range"] == "for n ≥ 31"
    assert any("n = 30: D = 5" in note for note in conn.notes)
    cert = json.loads(json.dumps(certfile.build(r, text)))
    report = verify(cert)
    assert report.ok
    assert "Theorem F15" in next(s for s in report.steps if s.rule == "PAT-LAYERS").reason


def test_a_million_tokens_are_decided_without_arcs(no_graphs):
    r = uapcheck.check("tokens 1000000\nattention { kernel k(x, y) = exp(x . y); "
                       "pattern window(1) + dilated(2, 4) }\n")
    assert r.verdict == "UAP" and r.group.name == "reflection" and r.layers == (1000000 - 7) // 8 + 3
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["least"] is True and "Theorem F15" in step.evidence["method"]
