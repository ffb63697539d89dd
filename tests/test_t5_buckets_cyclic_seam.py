"""docs/theory.md §16.5, the lemma of the ball antipodal to the seam: on `window(w) cyclic` with T5 buckets, at
n = 2Dw + 1 the ball of radius (D − 1)w around i = Dw + 1 misses every seam position, and still only the identity keeps
its labelled neighbourhoods (the labels keep the sign of the real offset, so the counts of keys below a position name
the seam positions, and the middle is peeled off from both ends).

Checked over all of S_n with the released bucket function in floating point, and against the concrete labelled-view
engine (D layers, least) at every n = 2Dw + 1 ≤ 49 for w = 1, 2, 3."""
from __future__ import annotations

import itertools

import pytest

from t5_buckets import bucket_label, labelled_views, window_neighbours

KERNEL = "  kernel k(q, key) = exp(q . key)\n"


def keeps_ball(perm, ball, nbs, label) -> bool:
    for v in ball:
        sv = perm[v]
        if {perm[u] for u in nbs[v]} != nbs[sv]:
            return False
        if any(label(sv, perm[u]) != label(v, u) for u in nbs[v]):
            return False
    return True


@pytest.mark.parametrize("w,depth", [(1, 2), (1, 3), (1, 4), (2, 2)])
def test_only_the_identity_keeps_the_antipodal_ball(w, depth):
    n = 2 * depth * w + 1
    nbs = window_neighbours(n, w, cyclic=True)
    label = bucket_label((8, 16))
    i = depth * w + 1
    ball = [v for v in range(1, n + 1) if min(abs(v - i), n - abs(v - i)) <= (depth - 1) * w]
    assert ball == list(range(w + 1, n - w + 1))  # the ball is the middle: no seam position in it
    kept = [perm for perm in ((0,) + images for images in itertools.permutations(range(1, n + 1)))
            if keeps_ball(perm, ball, nbs, label)]
    assert kept == [tuple(range(n + 1))]


@pytest.mark.parametrize("w", [1, 2, 3])
def test_the_concrete_engine_finds_d_layers_least_there(w):
    """The labelled rooted views alone (not Theorem F152, which the derivation applies first)."""
    for depth in range(2, 9):
        n = 2 * depth * w + 1
        if n > 49:
            break
        text = f"tokens {n}\nattention {{\n{KERNEL}  pattern window({w}) cyclic\n  bias buckets(8, 16)\n}}\n"
        assert labelled_views(text) == (1, depth, True), (w, n)
