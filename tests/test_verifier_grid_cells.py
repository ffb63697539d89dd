"""`uapcheck verify` on one head `blocks(b) + strided(s)` above its arc limit, on the verifier's cells (block × residue,
uapcheck/verifier/grid_cells.py): at n = 1,048,576 with `blocks(200000) + strided(7)` the connectivity, layer and group
steps were trusted (the interval model would need ~300,000 intervals per neighbourhood); they are re-checked in a few
seconds. Compared a second way at every n ≤ 40 for several (b, s) with the verifier's own arcs (patterns.py): each
position's neighbourhood, the diameter by breadth-first search, |Aut| by nauty on the whole pattern, and the least
count by the rooted views (views.py) against the class-map search on the cells; forged steps are rejected."""
from __future__ import annotations

import time
from functools import lru_cache

import pytest

from certificates import certificate_of, rejects, softmax_source

from uapcheck.parse import parse_source
from uapcheck.verifier import VERIFIED, verify
from uapcheck.verifier import groups, patterns, twin_class_maps, views
from uapcheck.verifier.check import Reject
from uapcheck.verifier.grid_cells import _grid, quotient_order

PAIRS = [(3, 2), (4, 3), (5, 2), (6, 4), (8, 3), (9, 7), (2, 5), (7, 7)]
LARGE = softmax_source("blocks(200000) + strided(7)", 1_048_576)


def _positions(g, t: int) -> set:
    return set(range(g.firsts[t], g.firsts[t] + g.s * g.sizes[t], g.s))


@pytest.mark.parametrize("b,s", PAIRS, ids=[f"blocks({b})+strided({s})" for b, s in PAIRS])
def test_the_cells_agree_with_the_verifier_s_arcs(b, s):
    from math import factorial
    decided = 0
    for n in range(2, 41):
        spec = parse_source(softmax_source(f"blocks({b}) + strided({s})", n), "t.uap")
        g = _grid(spec)
        if g is None:  # two cells share an In-set: the route stands aside
            continue
        arcs = patterns.head_arcs(spec.heads[0].pattern, n)
        ins = {v: {v} for v in range(1, n + 1)}
        for u, v in arcs:
            ins[v].add(u)
        assert all((v, u) in arcs for u, v in arcs)  # symmetric, as the module says
        assert sorted(p for t in range(len(g.cells)) for p in _positions(g, t)) == list(range(1, n + 1))
        for p in range(1, n + 1):
            assert ins[p] == set().union(*(_positions(g, u) for u in g.into[g.cell_of(p)])), (n, p)
        outs = patterns.union_out([arcs], n)
        dist = {v: patterns.bfs(outs, v) for v in range(1, n + 1)}
        d = max(x for v in dist for x in dist[v][1:])
        assert twin_class_maps.quotient_diameter(list(g.into), list(g.sizes)) == d, n
        assert all(g.distance(j, i) == dist[j][i] for j in (1, n, (n + 1) // 2) for i in range(1, n + 1))
        lab = patterns.labels_at(spec, [arcs], n, kinds=[None])
        whole, _ = groups.full_order(lab, n, "none")
        cells = quotient_order(g)
        for size in g.sizes:
            cells *= factorial(size)
        assert cells == whole, n
        if d >= 2 and len(g.cells) <= twin_class_maps.MAX_CLASSES:
            gens, _ = groups.full_generators(lab, n, "none")
            by_views = views.decide([arcs], n, d, gens) is None
            try:
                twin_class_maps.decide(d, list(g.sizes), list(g.into), list(g.firsts), "here")
                by_maps = True
            except Reject:
                by_maps = False
            assert by_maps == by_views, (n, d)
            decided += 1
    assert decided >= 10


@lru_cache(maxsize=None)
def _large() -> str:
    import json
    return json.dumps(certificate_of(LARGE))


def _forged(rule: str, change) -> dict:
    import json
    cert = json.loads(_large())
    change(next(s for s in cert["steps"] if s["rule"] == rule))
    return cert


def test_the_large_length_is_verified_in_a_few_seconds():
    import json
    cert = json.loads(_large())
    start = time.process_time()
    report = verify(cert)
    assert time.process_time() - start < 10
    outcomes = {s.rule: (s.outcome, s.reason) for s in report.steps}
    assert report.ok and report.complete, outcomes
    for rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
        assert outcomes[rule][0] == VERIFIED and "cells of blocks(200000) × residues mod 7" in outcomes[rule][1]


def _set_order(step: dict) -> None:
    assert step["certificate"]["data"]["order"] == "≈ 3.24 × 10^4187245"
    step["certificate"]["data"]["order"] = "≈ 3.24 × 10^4187240"


def _shrink_a_class(step: dict) -> None:
    step["certificate"]["data"]["twin classes"][0]["size"] -= 1


def _diameter(step: dict) -> None:
    step["data"]["diameter"] = 3


@pytest.mark.parametrize("rule, change", [("SYM-AUT", _set_order), ("PAT-LAYERS", _shrink_a_class),
                                          ("PAT-CONNECTED", _diameter)], ids=["order", "class size", "diameter"])
def test_a_forged_step_at_the_large_length_is_rejected(rule, change):
    assert rejects(_forged(rule, change), rule)
