"""Theorem F184 (docs/theory.md §11.11) checked a second way, apart from the concrete engine: (1) the least count at
every n from the range's first length through every class of n mod P, by an exact search for view witnesses at depth D
(every isomorphism of rooted views, §11.9's Lemma 1, tests/view_witness_reference.py, which imports nothing of
uapcheck) — the stated count equals it on the classes stated least and is never below it elsewhere; (2) the theorem's
part (a) past its own check: the count premise and the far swap, computed here from their definitions (profiles read
as D − d, so that they compare across lengths), hold on the classes the check names at every length from N₂ + P
through one to three periods more, beyond the lengths the engine's check computes; (3) the proof's far region and cut
directly: at every root from N₂ on, both cuts at the edge of their margin, the inserted positions add one to every
distance near the far region."""
from __future__ import annotations

from fractions import Fraction
from math import floor

import pytest
import sympy

from uapcheck.graphs.circulant_general import constants, reduce_jumps
from uapcheck.graphs.cyclic_window_line import seam_data, theorem
from uapcheck.graphs.cyclic_window_seam_least import cut_low, seam_classes
from uapcheck.graphs.offsets_line import rays

import view_witness_reference as R  # tests/ is on sys.path

N = sympy.Symbol("n", integer=True, positive=True)


def _stated(w: int, outside: tuple):
    data = seam_data(w, outside)
    return theorem(N, data), data


@pytest.mark.parametrize("w, outside, upto", [(1, (-2, 2), 8), (2, (-3, 3), 6), (1, (-3, 3), 6)])
def test_the_count_is_the_exact_least_count_from_the_first_length(w, outside, upto):
    stated, _ = _stated(w, outside)
    low = int(stated.low)
    for n in range(low, low + upto):
        nb = R.neighbourhoods(R.union(R.window_cyclic(w), R.offsets(outside)), n)
        d = R.diameter([nb], n)
        group = [tuple(range(n + 1)), tuple([0] + [n + 1 - v for v in range(1, n + 1)])]
        assert R.group_order(n, [(nb, None)]) == 2, n
        least = d + (R.rooted_view_witness(n, [nb], d, group, roots=range(1, (n + 1) // 2 + 1)) is not None)
        layers = int(stated.layers.subs(N, n))
        assert layers >= least, (w, outside, n, layers, least)
        if stated.least_at(n):
            assert layers == least, (w, outside, n, layers, least)


def _premise_and_swap(w: int, outside: tuple, n: int) -> tuple[bool, bool]:
    """F184's count premise P(n) and F99's swap W(n) from their definitions, on the reference neighbourhoods."""
    nb = R.neighbourhoods(R.union(R.window_cyclic(w), R.offsets(outside)), n)
    dist = {i: R.distances_to([nb], n, i) for i in range(1, n + 1)}
    d = max(max(row.values()) for row in dist.values())
    seen: dict = {}
    premise, swap = True, False
    for i in range(1, n + 1):
        ball = {v for v in range(1, n + 1) if dist[i][v] <= d - 1}

        def profiles(zs, at=dist[i]):
            return tuple(sorted((d - at[z],) + tuple(sum(1 for v in nb[z] if v != z and at[v] == d - k)
                                                     for k in range(3)) for z in zs))
        far = [v for v in range(1, n + 1) if dist[i][v] == d]
        for k, x in enumerate(far):
            for y in far[k + 1:]:
                nx, ny = (nb[x] - {x}) & ball, (nb[y] - {y}) & ball
                kappa = (profiles(nx & ny), tuple(sorted((profiles(nx), profiles(ny)))))
                if seen.setdefault(kappa, y in nb[x]) != (y in nb[x]):
                    premise = False
                if nx == ny and nb[x] - {x, y} != nb[y] - {x, y}:
                    swap = True
    return premise, swap


@pytest.mark.parametrize("w, outside, periods", [(1, (-2, 2), 3), (2, (-3, 3), 3), (1, (-3, 3), 3), (3, (-4, 4), 2),
                                                (1, (-4, 4), 2), (1, (-8, -4, 4, 8), 1)])
def test_both_properties_hold_past_the_check_as_part_a_says(w, outside, periods):
    stated, data = _stated(w, outside)
    classes = seam_classes(w, data.outside, int(stated.low))
    P, start = classes.period, classes.proved_low + classes.period
    for n in range(start, start + periods * P):
        premise, swap = _premise_and_swap(w, outside, n)
        if n % P in classes.least and n % P not in classes.by_cut:  # F227's classes rest on its own check
            assert swap if classes.extra[n % P] else premise, (w, outside, n)


def _cut_constants(w: int, outside: tuple) -> tuple:
    """(J, K, L) of F184: J = max A, K F168's slope constant, L = w + μ + 1."""
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    c = constants(reduce_jumps(steps))
    r = rays(steps, c)
    return steps[-1], Fraction(c.k_slope), 1 + w + max(r.plus, r.minus)


@pytest.mark.parametrize("w, outside, periods", [(1, (-2, 2), 2), (2, (-3, 3), 1), (3, (-4, 4), 1)])
def test_the_cut_carries_the_far_region_and_its_distances(w, outside, periods):
    """F184 (1) and (2) at every root of every length from N₂ through the periods given, with both cuts at the edge of
    (2)'s margin (q(c_up) and n − q(c_dn + 1) the largest allowed, moved towards the root only where the seam rule
    excludes them): every position within D − 1 of the root lies in the far region C_i, |C_i| ≤ w + P(4 + 2K), and
    inserting J positions at each cut (ι) adds one to the distance of every position within 2J of C_i and maps the far
    positions of i onto those of ι(i) at n + P."""
    J, K, L = _cut_constants(w, outside)
    P, low = 2 * J, cut_low(w, outside)
    for n in range(low, low + periods * P):
        nb = R.neighbourhoods(R.union(R.window_cyclic(w), R.offsets(outside)), n)
        wider = R.neighbourhoods(R.union(R.window_cyclic(w), R.offsets(outside)), n + P)
        d = R.diameter([nb], n)
        assert R.diameter([wider], n + P) == d + 1 and d > Fraction(n - w, P) - 1, n
        reach = J * (Fraction(n - w, P) - 4 - 2 * K)   # J·Y(n)
        for i in range(1, n + 1):
            dist = R.distances_to([nb], n, i)
            far = {z for z in range(1, n + 1) if min((i - z) % n, n - (i - z) % n) > reach}
            assert all(z in far for z in dist if dist[z] >= d - 1) and len(far) <= w + P * (4 + 2 * K), (n, i)
            ups = [(i - t - 1) % n + 1 for t in range(floor(reach) - 2 * J - 1, 0, -1)]       # q(c) = t
            downs = [(i + t - 2) % n + 1 for t in range(floor(reach) - 2 * J - 1, 0, -1)]     # n − q(c + 1) = t
            c_up = next((c for c in ups if L <= c <= n - L), None)
            c_dn = next((c for c in downs if L <= c <= n - L), None)
            assert c_up is not None and c_dn is not None, (n, i)   # (3): every root has a cut pair

            def iota(v: int, a: int = c_up, b: int = c_dn) -> int:
                return v + J * ((v > a) + (v > b))
            moved = R.distances_to([wider], n + P, iota(i))
            band = {z for z in range(1, n + 1) if any(min(abs(z - y), n - abs(z - y)) <= 2 * J for y in far)}
            assert all(moved[iota(z)] == dist[z] + 1 for z in band), (n, i)
            assert {iota(z) for z in dist if dist[z] == d} == {z for z in moved if moved[z] == d + 1}, (n, i)
