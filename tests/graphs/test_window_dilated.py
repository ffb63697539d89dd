"""Theorem F9 (docs/theory.md §11.11): `window(w) + dilated(w', r)` with integers 2 ≤ r ≤ w + 1 and
w'r ≥ w + 2. With the step set S = {1..w} ∪ {r, …, w'r}, L = w'r and μ the least non-step:
D = ⌊(n − 1 − μ)/L⌋ + 2, G = the reflection, and D layers, least, for n ≥ max(2L + 1, RL + μ + 1).

The diameter formula is checked by breadth-first search on the steps (n ≤ 80, many triples); the
theorem against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in its range; the
parameters outside the subfamily stay an open question; and a million tokens are decided without a
token graph.
"""
from __future__ import annotations

from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck.graphs import families as F
from uapcheck.spec import Dilated, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60
ENGINE = [(2, 2, 2), (1, 2, 2), (2, 2, 3), (3, 3, 2), (2, 3, 3), (3, 2, 4), (1, 3, 2)]


def pattern(w, wd, r):
    return PatternUnion((Window(w), Dilated(wd, r)))


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


def triples():
    return [(w, wd, r) for w in range(1, 5) for r in range(2, w + 2) for wd in range(1, 5) if wd * r >= w + 2]


def test_the_diameter_formula_agrees_with_breadth_first_search():
    checked = 0
    for w, wd, r in triples():
        steps, top, mu = F.dilated_steps(w, wd, r)
        assert steps == sorted(set(range(1, w + 1)) | {k * r for k in range(1, wd + 1)}) and top == wd * r
        assert mu == (w + 2 if (w + 1) % r == 0 else w + 1)
        for n in range(2, 81):
            want = 1 if n - 1 < mu else (n - 1 - mu) // top + 2
            assert bfs_diameter(n, steps) == want, (w, wd, r, n)
            checked += 1
    assert checked > 1500


def test_the_base_case_settles_at_radius_two():
    for w in range(1, 7):
        for r in range(2, w + 2):
            for wd in range(1, 7):
                if wd * r >= w + 2:
                    assert F.dilated_base_check(w, wd, r) == 1 + 2 * wd * r, (w, wd, r)


@pytest.mark.parametrize("w,wd,r", ENGINE)
def test_f9_agrees_with_the_concrete_engine_for_every_n_up_to_60(w, wd, r):
    theorem = F.match([pattern(w, wd, r)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F9"
    _, top, mu = F.dilated_steps(w, wd, r)
    assert theorem.low == max(2 * top + 1, 2 * top + mu + 1)
    assert theorem.group == "reflection" and theorem.least and theorem.witness is None
    checked = 0
    for n in range(int(theorem.low), NMAX + 1):
        point = {"n": n}
        want = F.at(theorem, point)
        assert want["diameter"] == (n - 1 - mu) // top + 2 == want["layers"] and want["order"] == 2
        assert F.instance_check(theorem, pattern(w, wd, r), point) is None
        got = F.concrete(pattern(w, wd, r), n)
        assert (got.diameter, got.order, got.layers, got.least) == (want["diameter"], 2, want["diameter"], True)
        checked += 1
    assert checked > 0


def test_outside_the_subfamily_the_question_stays_open():
    k = sympy.Symbol("k", integer=True, positive=True)
    for p in (pattern("k", 2, 2), pattern(2, "k", 2), pattern(1, 10, 12)):
        found = F.match([p], N, {"k": k})
        assert isinstance(found, F.OpenFamily) and "open question O3" in found.question
    # integer sizes outside F9 and F15 with jumps up to 40 are offsets on a line: Theorems F40–F42
    # (window(3) + dilated(2, 2) has the jumps ±1, …, ±4, the arcs of window(4); dilated(8, 12) reaches 96 > 40)
    line = F.match([pattern(3, 2, 2)], N, {})
    assert line.theorem == "F40" and all(F.at(line, {"n": n})["diameter"] == -(-(n - 1) // 4) for n in range(25, 60))
    assert isinstance(F.match([pattern(1, 8, 12)], N, {}), F.OpenFamily)
    # r > w + 1 is Theorem F15: a residue between multiples of r may need a detour, so F9's formula fails
    steps = [1, 4, 8]
    assert bfs_diameter(32, steps) == 6 != (32 - 1 - 2) // 8 + 2
    assert F.match([pattern(1, 2, 4)], N, {}).theorem == "F15"


def test_a_million_tokens_are_decided_by_the_theorem_without_arcs(no_graphs):
    r = uapcheck.check("tokens 1048576\nattention { kernel k(x, y) = exp(x . y); "
                       "pattern window(2) + dilated(2, 2) }\n")
    assert r.verdict == "UAP" and r.group.name == "reflection" and r.layers == 262145
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["least"] is True and "Theorem F9" in step.evidence["method"]


def test_symbolic_n_states_the_range_and_the_small_cases():
    r = uapcheck.check("attention { kernel k(x, y) = exp(x . y); pattern window(2) + dilated(2, 2) }\n")
    assert r.verdict == "UAP" and r.group.name == "reflection"
    step = next(s for s in r.root.walk() if s.rule == "PAT-CONNECTED")
    assert step.evidence["range"] == "for n ≥ 12" and "Theorem F9" in step.evidence["theorem"]
    assert any("n = 11: D = 3" in note for note in step.notes)


def test_the_verifier_concludes_d_layers_above_its_arc_limit_from_its_f9_entry():
    """n = 1030 > the verifier's arc limit (1024): PAT-LAYERS (D layers, least) is re-checked by the
    verifier's own F9 entry at that n, with its instances, not trusted."""
    import json

    from uapcheck import certfile
    from uapcheck.verifier import VERIFIED, verify
    text = "tokens 1030\nattention { kernel k(x, y) = exp(x . y); pattern window(2) + dilated(2, 2) }\n"
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    report = verify(cert)
    step = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert report.ok and step.outcome == VERIFIED and "Theorem F9" in step.reason and "n = 1030" in step.reason
