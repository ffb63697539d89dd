"""Random permutations of the positions 1..n for tests that compare two deciders on many maps: mostly one
transposition (near the identity, where deciders differ most often), sometimes a whole shuffle."""
from __future__ import annotations

import random
from collections.abc import Iterator


def transpositions_and_shuffles(rng: random.Random, n: int, count: int) -> Iterator[list]:
    """`count` permutations of 1..n as lists (p[k − 1] is the image of k): each a random transposition, shuffled
    whole with probability 0.3."""
    for _ in range(count):
        p = list(range(1, n + 1))
        a, b = rng.sample(range(n), 2)
        p[a], p[b] = p[b], p[a]
        if rng.random() < 0.3:
            rng.shuffle(p)
        yield p
