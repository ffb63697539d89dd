"""Theorem F184 (docs/theory.md §11.11): the least layer count of `window(w) cyclic` with symmetric non-cyclic offsets
outside it, class by class of n mod P: D where the common-neighbour premise holds at every length of the class checked,
D + 1 where a swap of two far positions is a view witness, D + 1 sufficient elsewhere. Checked against the concrete
engine (graphs, BLISS, rooted views by canonical labelling) at every n from the range's start to 60, and to 130 for
the first sets; the premise and the swap against a breadth-first search written here on the reference arcs; and the
periodicity of both past the check."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy

from uapcheck.graphs.cyclic_window_seam_least import count_premise_on, cut_low, length_label, seam_classes
from uapcheck.graphs.cyclic_window_line import seam_data, theorem
from uapcheck.graphs.families import concrete
from uapcheck.spec import Offsets, PatternUnion, Window

from .reference import all_distances, attends

# (w, A) with A = −A: dilations, windows and offsets; one to four jumps outside the window
SETS = [(1, (-8, -4, 4, 8)), (2, (-6, -4, 4, 6)), (1, (-3, 3)), (2, (-3, 3)), (3, (-4, 4)), (1, (-5, 5)),
        (2, (-5, 5)), (1, (-6, -3, 3, 6)), (1, (-4, 4))]
N = sympy.Symbol("n", integer=True, positive=True)


def _pattern(w: int, outside):
    return PatternUnion((Window(w, True), Offsets(tuple(sorted(set(outside) | {0})), False)))


def _stated(w: int, outside):
    return theorem(N, seam_data(w, outside))


@pytest.mark.parametrize("w, outside", SETS)
def test_every_least_class_is_the_concrete_engine_s_count(w, outside):
    stated = _stated(w, outside)
    top = 130 if outside in ((-8, -4, 4, 8), (-6, -4, 4, 6), (-3, 3)) else 60
    decided = 0
    for n in range(int(stated.low), top + 1):
        found = concrete(_pattern(w, outside), n)
        layers = int(stated.layers.subs(N, n))
        assert found.least and layers >= found.layers, (w, outside, n)   # never below the least count
        if stated.least_at(n):
            decided += 1
            assert layers == found.layers, (w, outside, n)
    assert decided > 0


def _profiles_of(group, near, dist, i: int, d: int) -> tuple:
    """The sorted profiles (distance from i; neighbours at distance d, d − 1, d − 2) of the positions in ``group``."""
    return tuple(sorted((dist[z][i],) + tuple(sum(1 for v in near[z] if dist[v][i] == d - k) for k in range(3))
                        for z in group))


def _premise_and_swap(w: int, outside, n: int) -> tuple[bool, bool]:
    """F184's count premise and F99's swap property at n, from all distances on the reference arcs."""
    arcs = attends(_pattern(w, outside), n)
    dist = all_distances(arcs, n)
    near = {v: {u for u in range(1, n + 1) if (u, v) in arcs or u == v} for v in range(1, n + 1)}
    d = max(max(row.values()) for row in dist.values())
    decided: dict = {}
    premise, swap = True, False
    for i in range(1, n + 1):
        ball = {v for v in range(1, n + 1) if dist[v][i] <= d - 1}
        far = [v for v in range(1, n + 1) if dist[v][i] == d]
        for k, x in enumerate(far):
            for y in far[k + 1:]:
                key = (_profiles_of(near[x] & near[y] & ball, near, dist, i, d),
                       tuple(sorted((_profiles_of(near[x] & ball, near, dist, i, d),
                                     _profiles_of(near[y] & ball, near, dist, i, d)))))
                if decided.setdefault(key, y in near[x]) != (y in near[x]):
                    premise = False
                if near[x] & ball == near[y] & ball and near[x] - {x, y} != near[y] - {x, y}:
                    swap = True
    return premise, swap


@pytest.mark.parametrize("w, outside", SETS[:4])
def test_the_labels_are_the_reference_premise_and_swap(w, outside):
    low = int(_stated(w, outside).low)
    for n in range(low, low + 14):
        premise, swap = _premise_and_swap(w, outside, n)
        label = length_label(n, w, outside)
        assert (label == "premise") is premise, (w, outside, n)
        if not premise:
            assert (label == "swap") is swap, (w, outside, n)


@pytest.mark.parametrize("w, outside", SETS[:5])
def test_the_classes_repeat_past_the_check(w, outside):
    low = int(_stated(w, outside).low)
    classes = seam_classes(w, outside, low)
    top = cut_low(w, outside) + classes.period
    for n in range(top, top + 2 * classes.period, 3):
        label = length_label(n, w, outside)
        r = n % classes.period
        if r in classes.least and r not in classes.by_cut:  # F227's classes hold neither property (its own cut)
            assert label == ("swap" if classes.extra[r] else "premise"), (w, outside, n)


def test_the_catalog_union_is_least_on_every_class_by_f184_and_f227():
    stated = _stated(1, (-8, -4, 4, 8))
    assert stated.least is True and stated.least_classes == ()
    assert int(stated.layers.subs(N, 67)) == int(stated.diameter.subs(N, 67))        # n ≡ 3: D, least (F184)
    assert int(stated.layers.subs(N, 64 + 16)) == int(stated.diameter.subs(N, 80))   # n ≡ 0: D, least (F227)
    assert "Theorem F184" in stated.why_layers and "Theorem F227" in stated.why_layers and not stated.open_question


def test_some_unions_are_least_on_every_class():
    for w, outside in ((1, (-3, 3)), (2, (-3, 3)), (3, (-4, 4))):
        stated = _stated(w, outside)
        assert stated.least is True and stated.least_classes == (), (w, outside)


def test_an_asymmetric_union_is_theorem_f190_s():
    stated = _stated(4, (5,))                   # A ≠ −A: a directed head, F190's colour premise and swap instead
    assert seam_classes(4, (5,), 29) is None
    assert stated.least is True and "Theorem F190" in stated.why_layers


def _all_layers(near: list[int]) -> tuple[dict, int]:
    n = len(near)
    layers = {}
    for i in range(n):
        seen = frontier = 1 << i
        found = [frontier]
        while True:
            grown = 0
            for p in range(n):
                if frontier >> p & 1:
                    grown |= near[p]
            frontier = grown & ~seen
            if not frontier:
                break
            seen |= frontier
            found.append(frontier)
        layers[i] = found
    return layers, max(len(f) - 1 for f in layers.values())


def _has_view_witness(near: list[int], layers: dict, d: int) -> bool:
    """Brute force over S_n: some σ outside Aut(Γ) keeps N[v] for every v within d − 1 of some root."""
    n = len(near)
    sets = [{u for u in range(n) if near[v] >> u & 1} for v in range(n)]
    for perm in itertools.permutations(range(n)):
        kept = [{perm[u] for u in sets[v]} == sets[perm[v]] for v in range(n)]
        if all(kept):
            continue
        for found in layers.values():
            if all(kept[v] for v in range(n) if any(level >> v & 1 for level in found[:d])):
                return True
    return False


def test_the_count_lemma_agrees_with_brute_force_over_s_n():
    rng = random.Random(184)
    checked = 0
    while checked < 12:
        n = rng.choice((6, 7))
        near = [1 << v for v in range(n)]
        for u in range(n):
            for v in range(u + 1, n):
                if rng.random() < 0.35:
                    near[u] |= 1 << v
                    near[v] |= 1 << u
        layers, d = _all_layers(near)
        if d < 2 or any(len(f) - 1 == 0 for f in layers.values()) or \
                any(sum(bin(level).count("1") for level in f) != n for f in layers.values()):
            continue   # not connected, or complete
        if count_premise_on(near, layers, d):
            checked += 1
            assert not _has_view_witness(near, layers, d), near
