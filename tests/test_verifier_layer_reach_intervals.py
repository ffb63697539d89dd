"""The verifier's per-layer reach step (uapcheck/verifier/layer_views.py) joins the reach sets over intervals of the
positions a layer reads off a doubling table: the same sets as the join position by position (§21.1's recurrence), on
random layers of causal, window, residue and random arcs."""
from __future__ import annotations

import random

from uapcheck.verifier.layer_views import Layers, _interval_levels, _step, _union_ins


def random_arcs(rng: random.Random, n: int) -> frozenset:
    kind = rng.choice(["causal", "window", "random", "residue", "prefix"])
    w = rng.randrange(0, 8)
    arcs = set()
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            if i == j:
                continue
            if (kind == "causal" and j < i) or (kind == "window" and abs(i - j) <= w) \
                    or (kind == "random" and rng.random() < 0.2) or (kind == "residue" and (i - j) % (w + 2) == 0) \
                    or (kind == "prefix" and j <= w < i):
                arcs.add((j, i))
    return frozenset(arcs)


def test_the_interval_step_is_the_recurrence():
    rng = random.Random(3)
    tabled = 0
    for _ in range(150):
        n = rng.randrange(1, 40)
        rows = [[random_arcs(rng, n) for _ in range(rng.randrange(1, 3))] for _ in range(rng.randrange(1, 3))]
        L = Layers(n, rows, True, None)
        cur = [rng.getrandbits(n + 1) for _ in range(n + 1)]
        for layer in range(1, len(rows) + 1):
            nb = _union_ins(L, layer)
            want = cur[:]
            for i in range(1, n + 1):
                for j in nb[i]:
                    want[i] |= cur[j]
            assert _step(L, layer, cur) == want
            tabled += _interval_levels(L, layer) is not None
    assert tabled >= 20  # the doubling table is used, not only the join position by position
