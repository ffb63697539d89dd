"""Theorem F159 (docs/theory.md §21.10): a budget `layers M` on a periodic list of causal interval heads of finite
widths splits the lengths exactly — UAP for causal targets for n < N* = min(W(0, M] + 2, θ_M), NOT-UAP for n ≥ N*,
θ_M = W(ℓ₁, M] + 3 + t for the least t ∈ {0} ∪ {the widths of layer ℓ₁} with every head of ℓ₁ at most t or at least
W(ℓ₁, M] + 2 + t. TGT-NOT-CAUSAL's route "budget split" states it (tests/test_per_layer_causal_budget_split_verdict.py);
the closed form is written here from the statement and checked against Theorem F121's concrete decision (§21.6) at every n < 80 for random lists and budgets, and against
§21.5's rooted views (no shared code) at every n ≤ 30 for three lists."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs.layers_causal import causal_least_layers, prefix_reach
from uapcheck.graphs.layers_intervals import IntervalLayers, interval_least, interval_reach
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence


def first_not_uap(rows: tuple, M: int) -> int:
    """N* of F159 from the widths alone."""
    p = len(rows)

    def W(a: int, b: int) -> int:
        return sum(max(rows[(q - 1) % p]) for q in range(a + 1, b + 1))
    first = next((ell for ell in range(1, M + 1) if max(rows[(ell - 1) % p]) >= 1), None)
    if first is None:
        return 2
    rest, heads = W(first, M), rows[(first - 1) % p]
    theta = next((rest + 3 + t for t in sorted({0, *heads}) if all(h <= t or h >= rest + 2 + t for h in heads)), None)
    return W(0, M) + 2 if theta is None else min(W(0, M) + 2, theta)


def f121_uap(rows: tuple, M: int, n: int) -> bool:
    if n <= 1:
        return True
    L = IntervalLayers(n, rows, True)
    reach = interval_reach(L, M)
    if reach.depth is None or reach.depth > M:
        return False
    least = interval_least(L, max(reach.depth, 1), M)
    return least.layers is not None and least.layers <= M


@pytest.mark.parametrize("seed", range(2))
def test_the_split_equals_theorem_f121_at_every_n_below_80(seed):
    rng = random.Random(60 + seed)
    both = 0
    for _ in range(150):
        rows = tuple(tuple(rng.choice([0, 1, 2, 3, 5, 9]) for _ in range(rng.choice([1, 2])))
                     for _ in range(rng.choice([1, 2, 3])))
        if not any(max(r) for r in rows):
            continue
        M = rng.randint(1, 7)
        N = first_not_uap(rows, M)
        for n in range(1, 80):
            assert f121_uap(rows, M, n) == (n < N), (rows, M, n, N)
        both += 2 < N < 80
    assert both > 100


def head(w: int) -> str:
    return "offsets {0}" if w == 0 else f"causal & window({w})"


@pytest.mark.parametrize("rows, M", [(((3,), (2,)), 4), (((5,), (1,)), 3), (((0,), (4,), (1,)), 5)])
def test_the_split_equals_the_rooted_views(rows, M):
    N = first_not_uap(rows, M)
    for n in range(2, 31):
        src = (f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern periodic {{ {', '.join(head(r[0]) for r in rows)} }}"
               f"\n}}\nlayers {M}\ntokens {n}\ntarget causal\n")
        seq = build_sequence(parse_source(src))
        reach = prefix_reach(seq, seq.depth)
        if reach.depth is None:
            assert n >= N, (rows, M, n)
            continue
        least = causal_least_layers(seq, max(reach.depth, 1), M)
        assert not least.reason
        assert (least.layers is not None and least.layers <= M) == (n < N), (rows, M, n, N, least.layers)
