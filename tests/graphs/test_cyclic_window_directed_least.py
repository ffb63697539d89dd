"""Theorem F190 (docs/theory.md §11.11): the least layer count of `window(w) cyclic` with non-cyclic offsets outside it
that are not symmetric (A ≠ −A: one directed head, G trivial), class by class of n mod P = a + b: D where the colour
premise holds at every length of the class checked, D + 1 where two far positions are attended by the same ball
positions, D + 1 sufficient elsewhere. Checked against the concrete engine (graphs, BLISS, rooted views by canonical
labelling) at every n from the range's start to 60; the colour lemma against brute force over S_n at n ≤ 8
(tests/graphs/brute_views.py); the check's shortcut (colours only near the zone) against a refinement over every
position written here on the reference arcs; and the periodicity of both properties past the check."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs.cyclic_window_directed_least import cut_low, directed_classes, length_label
from uapcheck.graphs.cyclic_window_line import seam_data, theorem
from uapcheck.graphs.families import concrete
from uapcheck.spec import Offsets, PatternUnion, Window

from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods
from .reference import all_distances, attends

# (w, A) with A ≠ −A: one to three jumps outside the window, of one sign or both
SETS = [(1, (2,)), (1, (-2,)), (1, (3,)), (2, (3,)), (1, (-3, 2)), (3, (-4,)), (2, (4,)), (1, (-3, -2, 2)),
        (4, (5,)), (2, (-6, 3)), (2, (-4, 3)), (1, (4,))]
N = sympy.Symbol("n", integer=True, positive=True)


def _pattern(w: int, outside):
    return PatternUnion((Window(w, True), Offsets(tuple(sorted(set(outside) | {0})), False)))


def _stated(w: int, outside):
    return theorem(N, seam_data(w, outside))


@pytest.mark.parametrize("w, outside", SETS)
def test_every_least_class_is_the_concrete_engine_s_count(w, outside):
    stated = _stated(w, outside)
    assert "Theorem F190" in stated.why_layers and stated.order == 1
    decided = 0
    for n in range(int(stated.low), 61):
        found = concrete(_pattern(w, outside), n)
        layers = int(stated.layers.subs(N, n))
        assert found.least and layers >= found.layers, (w, outside, n)   # never below the least count
        if stated.least_at(n):
            decided += 1
            assert layers == found.layers, (w, outside, n)
    assert decided > 0


def _colour_premise(w: int, outside, n: int, rounds: int = 2) -> tuple[bool, bool]:
    """F190's colour premise and swap property at n from all distances on the reference arcs, refining every position
    (not only those near the zone)."""
    arcs = attends(_pattern(w, outside), n)
    dist = all_distances(arcs, n)           # dist[v][i] = d(v → i)
    near = {v: {j for (i, j) in arcs if i == v} | {v} for v in range(1, n + 1)}
    back = {z: {v for v in range(1, n + 1) if z in near[v]} for z in range(1, n + 1)}
    d = max(max(row.values()) for row in dist.values())
    reach = -(-max(abs(k) for k in outside) // w)
    names: dict = {}
    decided: dict = {}
    premise, swap = True, False
    for i in range(1, n + 1):
        level = {v: dist[v][i] for v in range(1, n + 1)}
        if max(level.values()) != d:
            continue
        ball = {v for v in level if level[v] < d}
        colour = dict(level)
        for k in range(1, rounds + 1):
            colour = {z: names.setdefault((k, colour[z], tuple(sorted(colour[y] for y in near[z])) if z in ball else None,
                                           tuple(sorted(colour[v] for v in back[z] & ball))), len(names))
                      for z in colour}
        far = [u for u in level if level[u] == d]
        if len({frozenset(back[u] & ball) for u in far}) < len(far):
            swap = True
        for u in far:
            for x in (x for x in level if level[x] >= d - reach and x != u):
                key = (colour[u], colour[x], tuple(sorted(colour[v] for v in back[u] & back[x] & ball)))
                if decided.setdefault(key, x in near[u]) != (x in near[u]):
                    premise = False
    return premise, swap


@pytest.mark.parametrize("w, outside", SETS[:6] + [(1, (-3, -2, 2))])
def test_the_labels_are_the_reference_refinement(w, outside):
    low = int(_stated(w, outside).low)
    for n in range(low, low + 12):
        premise, swap = _colour_premise(w, outside, n)
        label = length_label(n, w, outside)
        assert not (premise and swap), (w, outside, n)     # the two properties exclude each other (F190 (b))
        assert label == ("swap" if swap else "premise" if premise else None), (w, outside, n)


@pytest.mark.parametrize("w, outside", SETS[:8])
def test_the_classes_repeat_past_the_check(w, outside):
    low = int(_stated(w, outside).low)
    classes = directed_classes(w, outside, low)
    top = cut_low(w, outside) + classes.period
    for n in range(top, top + 2 * classes.period, 2):
        r = n % classes.period
        if r in classes.least:
            assert length_label(n, w, outside) == ("swap" if classes.extra[r] else "premise"), (w, outside, n)


def test_the_colour_lemma_agrees_with_brute_force_over_s_n():
    """Where the colour premise holds at n ≤ 8 no view witness exists at depth D (the group there is Aut(Γ), whatever
    it is at that length); where the swap property holds, D layers do not suffice unless the swap is an
    automorphism."""
    checked = 0
    for w, outside in ((1, (2,)), (1, (-2,)), (1, (3,)), (1, (-3, 2)), (2, (3,)), (1, (-3, -2, 2))):
        text = f"window({w}) cyclic + offsets {{{', '.join(map(str, sorted(set(outside) | {0})))}}}"
        for n in (6, 7, 8):
            if n <= 2 * w + max(abs(k) for k in outside):
                continue
            nbs = neighbourhoods([text], n)
            d = brute_diameter(nbs, n)
            label = length_label(n, w, outside)
            if label == "premise":
                checked += 1
                assert brute_least(nbs, n) == d, (w, outside, n)
    assert checked >= 4


def test_stated_counts_by_class():
    full = _stated(2, (-6, 3))              # D on every class
    assert full.least is True and full.least_classes == ()
    assert int(full.layers.subs(N, 40)) == int(full.diameter.subs(N, 40))
    mixed = _stated(1, (-3, -2, 2))         # D on 0, 3, 4 and D + 1 on 1, 2 (mod 5), least on every class
    assert mixed.least is True
    assert [int(mixed.layers.subs(N, n)) - int(mixed.diameter.subs(N, n)) for n in range(40, 45)] == [0, 1, 1, 0, 0]
    part = _stated(2, (4,))                 # n ≡ 1 (mod 6) open: D + 1, sufficient
    assert part.least is False and part.least_classes == (6, (0, 2, 3, 4, 5))
    assert "Theorem F190" in part.open_question
    assert directed_classes(1, (-3, 3), 17) is None   # A = −A is Theorem F184's
