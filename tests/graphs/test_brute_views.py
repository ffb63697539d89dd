"""The reference view argument (tests/graphs/brute_views.py) on cases worked by hand."""
from __future__ import annotations

from .brute_views import diameter, least_layers, neighbourhoods, view_witness


def test_full_plus_window_has_a_one_layer_witness_and_none_at_two():
    nbs = neighbourhoods(["full", "window(1)"], 4)
    assert diameter(nbs, 4) == 1
    assert view_witness(nbs, 4, 1) is not None
    assert view_witness(nbs, 4, 2) is None
    assert least_layers(nbs, 4) == 2


def test_a_witness_is_outside_the_group_and_agrees_on_the_ball():
    nbs = neighbourhoods(["full", "window(1)"], 4)
    p, i = view_witness(nbs, 4, 1)
    sigma = (0,) + p
    # outside G: some neighbourhood of the window head is not mapped onto a neighbourhood
    assert any(frozenset(sigma[k] for k in nbs[1][v]) != nbs[1][sigma[v]] for v in range(1, 5))
    # the ball of radius 0 around i is {i}: σ maps N_h(i) onto N_h(σ(i)) for both heads
    assert all(frozenset(sigma[k] for k in nb[i]) == nb[sigma[i]] for nb in nbs)


def test_full_plus_star_needs_one_layer():
    nbs = neighbourhoods(["full", "star"], 5)
    assert view_witness(nbs, 5, 1) is None
    assert least_layers(nbs, 5) == 1


def test_a_path_needs_its_diameter():
    # window(1) on 5 tokens: D = 4; G is the reflection, and 4 layers separate its orbits.
    nbs = neighbourhoods(["window(1)"], 5)
    assert diameter(nbs, 5) == 4
    assert least_layers(nbs, 5) >= 4


def test_a_disconnected_union_has_no_diameter():
    nbs = neighbourhoods(["causal"], 3)
    assert diameter(nbs, 3) is None
