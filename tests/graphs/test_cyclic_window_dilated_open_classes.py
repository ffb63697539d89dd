"""`window(1) cyclic + dilated(2, 4)` (catalog/cyclic_window_dilated_n.uap) on the classes n mod 16 in {0, 2, 4, 5, 6, 9}
that Theorem F184 leaves open (docs/theory.md §11.11, F184's *Open*, where D + 1 layers are stated, sufficient): the
concrete engine's least count there is D (no view witness at depth D) one period past the lengths that
test_cyclic_window_seam_least.py runs, and the stated count is never below it; and the two routes that give every
distance (F168 (1) read for w = 1, the rays of the word length starting at 0), the first step of the route F184's *Open*
describes, against breadth-first search on the reference arcs."""
from __future__ import annotations

import sympy

from uapcheck.graphs.cyclic_window_line import seam_data, theorem
from uapcheck.graphs.families import concrete

from .reference import all_distances, attends
from .test_cyclic_window_dilated_lemma_an import OPEN, PATTERN, _word_lengths

N = sympy.Symbol("n", integer=True, positive=True)


def test_the_open_classes_need_exactly_d_layers_one_period_past_130():
    stated = theorem(N, seam_data(1, (-8, -4, 4, 8)))
    checked = 0
    for n in range(131, 147):
        if n % 16 not in OPEN:
            continue
        found = concrete(PATTERN, n)
        diameter = int(stated.diameter.subs(N, n))
        assert found.least and found.layers == diameter, n          # D layers suffice: no view witness at depth D
        assert int(stated.layers.subs(N, n)) >= found.layers, n     # the stated count is never below the least one
        checked += 1
    assert checked == len(OPEN)


def test_the_word_length_grows_by_one_per_jump_of_8_from_0():
    length = _word_lengths(420)
    for m in range(0, 412):
        assert length[m + 8] == length[m] + 1 and length[-m] == length[m], m


def test_every_distance_is_the_shorter_of_the_two_routes():
    """d(z, i) = min(ℓ(|z − i|), 1 + ℓ(min(z, i) − 1) + ℓ(n − max(z, i))): the walk inside 1..n, or the one through the
    cyclic arc between n and 1."""
    length = _word_lengths(200)
    for n in (146, 147, 153, 162):
        dist = all_distances(attends(PATTERN, n), n)
        for i in range(1, n + 1):
            for z in range(1, n + 1):
                low, high = min(z, i), max(z, i)
                assert dist[z][i] == min(length[high - low], 1 + length[low - 1] + length[n - high]), (n, i, z)
