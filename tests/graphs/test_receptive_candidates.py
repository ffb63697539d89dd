"""The receptive-witness search examines only the positions a permutation can disturb (those it
moves and those whose in-neighbourhood holds a moved position): the same bad positions as the
scan over every position, for transpositions and for whole permutations, with and without labels."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs import build_graph
from uapcheck.graphs.receptive import _bad_positions, _seen_by, in_neighbourhoods
from uapcheck.graphs.views import offset_classes
from uapcheck.spec import Causal, PatternUnion, RandomPattern, Strided, Window


@pytest.mark.parametrize("patterns", [[Strided(4)], [PatternUnion((Window(1), RandomPattern(2, seed=3)))],
                                      [Causal(), Window(2)]], ids=str)
def test_candidates_give_the_same_bad_positions(patterns):
    n = 24
    nbs = in_neighbourhoods([build_graph(p, n) for p in patterns])
    seen = _seen_by(nbs, n)
    rng = random.Random(11)
    for labels in (None, [offset_classes("symmetric toeplitz", n)] * len(patterns)):
        for _ in range(80):
            if rng.random() < 0.5:
                a, b = rng.sample(range(1, n + 1), 2)
                perm = {a: b, b: a}
            else:
                images = list(range(1, n + 1))
                rng.shuffle(images)
                perm = {k + 1: images[k] for k in range(n)}
            assert _bad_positions(perm, nbs, n, labels, seen=seen) == _bad_positions(perm, nbs, n, labels)


@pytest.mark.parametrize("patterns", [[Strided(4)], [PatternUnion((Window(1), RandomPattern(2, seed=3)))],
                                      [Causal(), Window(2)], [Window(1), Strided(3)]], ids=str)
def test_a_transposition_gives_the_same_bad_positions_by_its_shortcut(patterns):
    # _swap_bad_positions (the transposition search's test) against the scan over every position
    from uapcheck.graphs.receptive import _seen_sets, _swap_bad_positions
    n = 20
    nbs = in_neighbourhoods([build_graph(p, n) for p in patterns])
    seen = _seen_sets(_seen_by(nbs, n))
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            assert _swap_bad_positions(a, b, nbs, seen) == _bad_positions({a: b, b: a}, nbs, n), (a, b)
