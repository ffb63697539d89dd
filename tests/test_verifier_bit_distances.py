"""The verifier's instance checks at a few thousand positions: every breadth-first search at once on bit sets
(uapcheck/verifier/bit_distances.py) and the group of a one-label digraph from nauty on the positions alone
(groups._one_label_arcs). Both are compared with the plain searches and with every permutation; then a
`window(20) + strided(22)` file at `tokens n` (Theorem F11, instances n = 1,826…1,848) is verified within the
default budget, and a forged diameter is rejected."""
from __future__ import annotations

import copy
import itertools
import json
import random
import time

import pytest

import uapcheck
from uapcheck import certfile
from uapcheck import spec as S
from uapcheck.parse import parse_source
from uapcheck.verifier import REJECTED, VERIFIED, bit_distances, families, groups, patterns, verify


def _random_digraph(rng: random.Random, n: int, p: float) -> list[list[int]]:
    return [[]] + [sorted(i for i in range(1, n + 1) if i != j and rng.random() < p) for j in range(1, n + 1)]


def test_balls_are_the_breadth_first_searches():
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(1, 24)
        outs = _random_digraph(rng, n, rng.choice([0.05, 0.15, 0.4]))
        balls = bit_distances.Balls(outs, n)
        dist = {v: patterns.bfs(outs, v) for v in range(1, n + 1)}
        assert balls.diameter() == patterns.diameter(outs, n)
        for v in range(1, n + 1):
            for u in range(1, n + 1):
                for k in range(0, n + 1):
                    assert balls.within(v, u, k) == (dist[v][u] is not None and dist[v][u] <= k)
                if dist[v][u]:
                    assert balls.sphere(v, dist[v][u]) >> u & 1
        for v in range(1, n + 1):
            assert bit_distances.members(balls.ball(v, 1)) == sorted({v, *outs[v]})


def test_one_label_digraph_group_is_every_permutation_that_keeps_the_arcs():
    rng = random.Random(3)
    for _ in range(200):
        n = rng.randint(2, 7)
        arcs = {(j, i) for j in range(1, n + 1) for i in range(1, n + 1) if rng.random() < 0.35}  # loops too
        if not arcs:
            continue
        lab = dict.fromkeys(arcs, ((0, 0),))
        brute = sum(1 for p in itertools.permutations(range(1, n + 1)) if patterns.preserves(list(p), lab))
        gens, _ = groups.full_generators(lab, n, "none")
        assert groups.order(gens, n) == brute
    # two labels: not the plain digraph's group (a swap of the two heads' arcs is no symmetry)
    assert groups._one_label_arcs({(1, 2): ((0, 0),), (2, 1): ((1, 0),)}) is None


FILE = """architecture "window(20) + strided(22), symbolic n"
tokens n
attention {
  kernel k(x, y) = exp(x . y)
  pattern window(20) + strided(22)
}
"""


def test_an_instance_whose_diameter_differs_is_found():
    spec = parse_source(FILE, "t.uap")
    fam = families.match(spec)
    assert fam is not None and fam.theorem == "F11" and fam.low == 1826
    forged = copy.copy(fam)
    object.__setattr__(forged, "diameter_at", lambda n: 2 + 0 * n)  # 2 at every n: 3 where 22 | n
    assert families.instance_problem(spec, forged, "connectivity") == "n = 1826: the diameter is 3, not 2"


@pytest.fixture(scope="module")
def certificate() -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(FILE, "t.uap"), FILE)))


def test_window_strided_at_symbolic_n_verifies_within_its_budget(certificate):
    start = time.process_time()
    report = verify(certificate, seconds=60)
    spent = time.process_time() - start
    outcomes = {s.rule: s.outcome for s in report.steps}
    assert all(o == VERIFIED for o in outcomes.values()), outcomes
    assert spent < 60


def test_a_forged_diameter_is_rejected(certificate):
    cert = copy.deepcopy(certificate)
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")
    step["data"]["diameter"] = 2
    outcomes = {s.rule: s.outcome for s in verify(cert, only={step["id"]}, seconds=60).steps}
    assert outcomes["PAT-CONNECTED"] == REJECTED


def test_the_far_positions_are_checked_above_the_rooted_view_limit():
    from uapcheck.verifier import strided_least, views
    n = 1826  # 22 | n: D = 3, above views.MAX_N, where the far-clique premise alone is re-checked
    assert n > views.MAX_N
    assert strided_least.instance_problem(20, 22, n, 3) is None
    assert strided_least.instance_problem(20, 22, n, 2) is None  # nothing to re-check where D = 2 (s = w + 2)
    head = patterns.head_arcs(S.PatternUnion((S.Window(20), S.Strided(22))), n)
    assert bit_distances.Balls(patterns.union_out([head], n), n).diameter() == 3
