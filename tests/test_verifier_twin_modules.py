"""The verifier's check that candidate twin classes are modules (every permutation of one is an automorphism), made
for all candidates in one pass over the positions (large._modules), agrees with the transpositions checked on the
arcs, for true twin classes and for sets that are not modules; and the group of `blocks(8) + window(1)` above the arc
limit is re-derived within seconds."""
from __future__ import annotations

import random
import time

import pytest

from certificates import softmax_source
from uapcheck import parse
from uapcheck.verifier import intervals as I
from uapcheck.verifier import large, patterns

PATTERNS = ["blocks(4) + window(1)", "blocks(5) + strided(3)", "window(2)", "blocks(6) + global(1)", "star + blocks(3)",
            "blocks(4) + offsets {5}"]


def _brute(arcs: set, members: list, closed: bool, n: int) -> bool:
    """Every transposition of two members keeps the arcs, and inside the set all arcs (closed) or none (open)."""
    for a in members:
        for b in members:
            if a < b:
                swap = {a: b, b: a}
                if {(swap.get(j, j), swap.get(i, i)) for j, i in arcs} != arcs:
                    return False
    inside = {(j, i) for j in members for i in members if j != i}
    return inside <= arcs if closed else not (inside & arcs)


@pytest.mark.parametrize("text", PATTERNS)
def test_modules_agree_with_transpositions(text):
    n = 24
    pattern = parse.parse_source(softmax_source(text, n), "t.uap").heads[0].pattern
    spans = I.Spans([pattern], n)
    arcs = set(patterns.head_arcs(pattern, n))
    rng = random.Random(text)
    hc, ho = large._hashes(spans)
    twins = [([v for v in range(1, n + 1) if h[v] == h[u]], kind == "c") for h, kind in ((hc, "c"), (ho, "o"))
             for u in range(1, n + 1)]
    tried = [t for t in twins if len(t[0]) >= 2]
    tried += [(sorted(rng.sample(range(1, n + 1), rng.randint(2, 5))), rng.random() < 0.5) for _ in range(30)]
    for members, closed in tried:
        assert large._modules(spans, [(members, closed)]) == _brute(arcs, members, closed, n), (members, closed)


def test_the_twin_classes_above_the_arc_limit_are_checked_in_one_pass():
    """`blocks(8) + window(1)` at n = 16,384: 2,048 candidate classes, each checked against every position;
    one neighbourhood per position (under a second), where one pass per candidate took about 2,000 times as long."""
    n = 16384
    spans = I.Spans([parse.parse_source(softmax_source("blocks(8) + window(1)", n), "t.uap").heads[0].pattern], n)
    hc, _ = large._hashes(spans)
    by: dict = {}
    for v in range(1, n + 1):
        by.setdefault(hc[v], []).append(v)
    candidates = [(members, True) for members in by.values() if len(members) >= 2]
    assert len(candidates) == 2048  # the inner six of each block (1..7 in the first)
    start = time.process_time()
    assert large._modules(spans, candidates)
    assert not large._modules(spans, candidates + [([1, 9], True)])  # 1 and 9 lie in different blocks
    assert time.process_time() - start < 30
