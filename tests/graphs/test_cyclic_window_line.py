"""Theorem F101 (docs/theory.md §11.11): `window(w) cyclic` with non-cyclic parts whose offsets outside {−w, …, w}
form A ≠ ∅ — G = the reflection when A = −A, else trivial, D = ⌊n/P⌋ + h(n mod P) by Theorem F168 (or, beyond its
base check, D ≤ ⌈⌊n/2⌋/w⌉) — against the concrete engine (graphs, BLISS) and nauty on the reference arcs, from the
theorem's range on."""
from __future__ import annotations

import pynauty
import pytest
import sympy

from uapcheck.graphs import families
from uapcheck.graphs.cyclic_window_line import seam_data
from uapcheck.graphs.families import concrete
from uapcheck.parse import parse_source

from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)

CASES = ["window(1) cyclic + dilated(2, 4)", "window(4) cyclic + offsets {-4, 5}", "dilated(3, 2) + window(4) cyclic",
         "window(2) cyclic + window(3)", "window(1) cyclic + offsets {3}", "window(2) cyclic + offsets {-5, 5, 7}"]


def _pattern(text: str):
    return parse_source(f"attention {{ kernel k(x, y) = exp(x . y); pattern {text} }}\n", "t.uap").heads[0].pattern


def _nauty_order(pattern, n: int) -> int:
    adj: dict = {v: set() for v in range(n)}
    for i, j in attends(pattern, n):
        if i != j:
            adj[i - 1].add(j - 1)
    graph = pynauty.Graph(n, directed=True, adjacency_dict={v: sorted(a) for v, a in adj.items()})
    _, mantissa, exponent, _, _ = pynauty.autgrp(graph)
    return round(mantissa * 10 ** exponent)


@pytest.mark.parametrize("text", CASES)
def test_against_the_concrete_engine_from_the_range_on(text):
    theorem = families.match([_pattern(text)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F101"
    assert theorem.diameter_exact
    low = int(theorem.low)
    classes = theorem.least_classes  # Theorem F184: least on these classes of n mod P (D or D + 1), else D + 1
    if theorem.least:  # least on every class
        classes = (1, (0,))
    for n in range(low, max(61, low + 12)):
        got = concrete(_pattern(text), n, layers=False)
        want = families.at(theorem, {"n": n})
        assert got.connected and got.diameter == want["diameter"] and got.order == want["order"], (text, n)
        if classes and n % classes[0] in classes[1]:
            assert want["layers"] in (want["diameter"], want["diameter"] + 1), (text, n)
        else:
            assert want["layers"] == want["diameter"] + 1, (text, n)


def test_beyond_the_base_check_the_bound_is_stated():
    """window(1) cyclic + offsets {17}: F168's N₀ is 5,490, beyond its base check: the cyclic window's bound."""
    theorem = families.match([_pattern("window(1) cyclic + offsets {17}")], N, {})
    assert theorem.theorem == "F101" and not theorem.diameter_exact and not theorem.least
    want = families.at(theorem, {"n": 230})
    assert want["diameter"] == 115 and want["layers"] == 116
    assert concrete(_pattern("window(1) cyclic + offsets {17}"), 230, layers=False).diameter <= 115


@pytest.mark.parametrize("text", CASES[:3])
def test_the_order_is_nauty_s_on_the_reference_arcs(text):
    theorem = families.match([_pattern(text)], N, {})
    low = int(theorem.low)
    for n in (low, low + 1, low + 7):
        assert _nauty_order(_pattern(text), n) == int(theorem.order), (text, n)


def test_the_reflection_is_in_the_group_exactly_when_the_outside_offsets_are_symmetric():
    assert seam_data(1, (-8, -4, 0, 4, 8)).symmetric
    assert seam_data(4, (-4, 5)).outside == (5,) and not seam_data(4, (-4, 5)).symmetric
    assert seam_data(2, (-2, -1, 0, 1, 2)) is None        # nothing outside the window


def test_the_diameter_is_not_monotone_and_the_closed_form_says_so():
    """D for window(1) cyclic + dilated(2, 4) is not monotone in n (5 at n = 41, 6 at n = 40 and 42); F168's closed
    form, ⌊n/16⌋ + h(n mod 16), gives the same from n = 36."""
    from uapcheck.graphs.cyclic_window_diameter import seam_diameter
    ds = {n: concrete(_pattern(CASES[0]), n, layers=False).diameter for n in (40, 41, 42)}
    assert ds == {40: 6, 41: 5, 42: 6}
    assert {n: seam_diameter(1, (-8, -4, 4, 8), 0).diameter(n) for n in (40, 41, 42)} == ds


def test_a_real_size_is_decided_without_arcs():
    found = families.match([_pattern(CASES[0])], sympy.Integer(1_048_576), {})
    assert found.theorem == "F101" and found.order == 2 and found.diameter == 65_539 and found.layers == 65_539
