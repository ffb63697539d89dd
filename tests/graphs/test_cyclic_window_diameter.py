"""Theorem F168 (docs/theory.md §11.11): the diameter of `window(w) cyclic` with non-cyclic offsets A outside it is
⌊n/P⌋ + h(n mod P), P = a + b, from a range found by the proof and re-decided downwards. Checked against breadth-first
search on the reference arcs (tests/graphs/reference.py) at every n from the range's start to 130, against the
concrete engine at every n from the start to 60, and the distance formula of F168 (1) pair by pair."""
from __future__ import annotations

import pytest

from uapcheck.graphs.circulant_general import z_lengths
from uapcheck.graphs.cyclic_window_diameter import diameter_at, proved_low, seam_diameter
from uapcheck.graphs.families import concrete
from uapcheck.spec import Offsets, PatternUnion, Window

from .reference import all_distances, attends

# (w, A): symmetric and one-sided A, from dilations, windows and offsets, a ≠ b both ways
CASES = [(1, (-8, -4, 4, 8)), (4, (5,)), (2, (-6, -4, 4, 6)), (3, (7,)), (2, (-7, 3)), (1, (-5, 2, 7)),
         (2, (-9, 4)), (1, (6,)), (1, (-3, 3))]


def _pattern(w: int, outside):
    return PatternUnion((Window(w, True), Offsets(tuple(sorted(set(outside) | {0})), False)))


def _reference_diameter(w: int, outside, n: int) -> int:
    dist = all_distances(attends(_pattern(w, outside), n), n)
    assert all(len(row) == n for row in dist.values())
    return max(max(row.values()) for row in dist.values())


@pytest.mark.parametrize("w, outside", CASES)
def test_the_closed_form_is_the_reference_diameter_from_the_range_on(w, outside):
    found = seam_diameter(w, outside, 0)
    assert found is not None and found.period == max([w] + [-k for k in outside]) + max([w] + list(outside))
    for n in range(found.low, 131):
        assert found.diameter(n) == _reference_diameter(w, outside, n), (w, outside, n)
    # the range is sharp: one length below it, the closed form fails
    below = found.low - 1
    if below >= 2 * w + 3:
        assert found.diameter(below) != _reference_diameter(w, outside, below)


@pytest.mark.parametrize("w, outside", CASES[:5])
def test_the_closed_form_is_the_concrete_engine_s_diameter_up_to_60(w, outside):
    found = seam_diameter(w, outside, 0)
    for n in range(found.low, 61):
        assert concrete(_pattern(w, outside), n, layers=False).diameter == found.diameter(n), (w, outside, n)


@pytest.mark.parametrize("w, outside", CASES[:4])
def test_the_growth_holds_past_the_base_period(w, outside):
    found = seam_diameter(w, outside, 0)
    n0, period = found.proved_low, found.period
    for n in (n0 + period, n0 + 2 * period + 1, n0 + 3 * period - 1):
        assert diameter_at(n, w, outside) == found.diameter(n)


def _crossing_formula(w: int, outside, n: int) -> dict:
    """F168 (1): d(u → v) = min(ℓ(v − u), the crossing down through 1, the crossing up through n), from word lengths
    on Z alone."""
    steps = sorted((set(range(-w, w + 1)) | set(outside)) - {0})
    a, b = -steps[0], steps[-1]
    ell = z_lengths(steps, -2 * n - 2 * a - 2 * b, 2 * n + 2 * a + 2 * b)
    out = {}
    for u in range(1, n + 1):
        for v in range(1, n + 1):
            down = min(ell[x - u] + 1 + ell[v - n - (x - c)] for x in range(1, w + 1) for c in range(x, w + 1))
            up = min(ell[x - u] + 1 + ell[v + n - (x + c)] for x in range(n - w + 1, n + 1)
                     for c in range(n + 1 - x, w + 1))
            out[(u, v)] = min(ell[v - u], down, up)
    return out


@pytest.mark.parametrize("w, outside", [(1, (-8, -4, 4, 8)), (4, (5,)), (2, (-7, 3))])
def test_the_distance_formula_is_breadth_first_search(w, outside):
    n = proved_low(w, outside)
    dist = all_distances(attends(_pattern(w, outside), n), n)   # dist[j][i] = d(j → i): i attends to j
    formula = _crossing_formula(w, [-k for k in outside], n)    # the formula's u → v is "v attends to u + (v − u)"
    assert all(formula[(j, i)] == dist[j][i] for j in range(1, n + 1) for i in range(1, n + 1))


def test_the_diameter_is_periodic_with_slope_from_a_moderate_length():
    """window(1) cyclic + dilated(2, 4): D = 6 at n = 40 and 42 and 5 at n = 41, yet D(n + 16) = D(n) + 1 from
    n = 36 on (P = 8 + 8)."""
    found = seam_diameter(1, (-8, -4, 4, 8), 0)
    assert (found.period, found.low) == (16, 36)
    assert [found.diameter(n) for n in (40, 41, 42, 56, 57, 58)] == [6, 5, 6, 7, 6, 7]
    assert found.diameter(1_048_576) == 65_539
