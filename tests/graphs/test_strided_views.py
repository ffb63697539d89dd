"""Theorem F7's layer count for `window(w) + strided(s)` (docs/theory.md §11.11, "Proof of the
layers"), checked a second way.

The reduction's lemmas are checked on the actual sets for every root i at every n in range: the
"same class" test by common neighbours, the graph H_i on i's residue class (two class positions within
w of one other position) is the K-th power of the class in increasing order, the end counts, and the
cell lemma (equal runs T_i force positions less than s apart). The conclusion for s = 2 (D = 2 layers
suffice, so they are least) is compared with the concrete engine (graphs, BLISS, rooted views) at
every n ≤ 60 in the theorem's range.
"""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.spec import PatternUnion, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)


def _nbhd(n: int, w: int, s: int, v: int) -> frozenset:
    return frozenset(x for x in range(1, n + 1) if abs(x - v) <= w or (x - v) % s == 0)


def _k(w: int, s: int) -> int:
    return max(k for k in range(1, 2 * w + 1) if k * s < 2 * w or (k * s == 2 * w and w % s))


def _low(w: int, s: int) -> int:
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    return int(theorem.low)


@pytest.mark.parametrize("w,s", [(1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (3, 4), (4, 3), (4, 5)])
def test_the_lemmas_of_the_reduction_hold_on_the_sets(w, s):
    for n in (_low(w, s), _low(w, s) + 1, _low(w, s) + s + 2):
        nb = {v: _nbhd(n, w, s, v) for v in range(1, n + 1)}
        for i in range(1, n + 1):
            ball = nb[i]
            cls = sorted(v for v in range(1, n + 1) if (v - i) % s == 0)
            # (1) same class inside the ball iff many common neighbours
            for u in ball:
                for v in ball:
                    same = (u - v) % s == 0
                    common = len(nb[u] & nb[v])
                    assert (common >= n // s) if same else (common <= 4 * w + 2)
            # T_i(x) for x outside the class
            runs = {x: frozenset(v for v in cls if x in nb[v]) for x in range(1, n + 1) if (x - i) % s}
            assert all(runs.values())
            # (2) H_i is the K-th power of the class in increasing order
            k = _k(w, s)
            for a_idx, a in enumerate(cls):
                for b_idx, b in enumerate(cls):
                    if a < b:
                        linked = any(a in r and b in r for r in runs.values())
                        assert linked == (b_idx - a_idx <= k)
            assert len(cls) >= 2 * k + 1
            # (3) the end counts
            lo, hi = cls[0], cls[-1]
            assert sum(lo in r for r in runs.values()) == lo + w - 1 - w // s
            assert sum(hi in r for r in runs.values()) == (n + 1 - hi) + w - 1 - w // s
            # (4) equal runs force positions less than s apart
            xs = sorted(runs)
            for a_idx, x in enumerate(xs):
                for y in xs[a_idx + 1:]:
                    if runs[x] == runs[y]:
                        assert y - x < s


@pytest.mark.parametrize("w,s", [(1, 2), (2, 2), (3, 2), (4, 2), (2, 3), (3, 3), (4, 3), (3, 4)])
def test_two_layers_suffice_at_every_n_in_range(w, s):
    """The theorem's D = 2 layers, least, against the concrete engine's rooted-view decision."""
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.layers == 2 and theorem.least and not theorem.open_question
    checked = 0
    for n in range(int(theorem.low), 61):
        got = F.concrete(pattern, n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, 2, 2, True)
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("w,s", [(5, 3), (4, 4), (4, 5), (5, 4)])
def test_two_layers_suffice_at_the_start_of_larger_ranges(w, s):
    """Ranges that start above 60: the first s + 1 lengths against the concrete engine."""
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.layers == 2 and theorem.least
    for n in range(int(theorem.low), int(theorem.low) + s + 1):
        got = F.concrete(pattern, n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, 2, 2, True)


def test_the_local_check_settles_every_small_parameter():
    """Step (5)'s finite check succeeds for every w ≤ 6 and 3 ≤ s ≤ min(w + 1, 7); the verifier's own
    restatement agrees."""
    from uapcheck.verifier import families as V
    for w in range(2, 7):
        for s in range(3, min(w + 1, F.STRIDED_VIEW_MAX_S) + 1):
            assert F.strided_views_check(w, s), (w, s)
            assert V._strided_views_rigid(w, s), (w, s)


def test_the_near_cells_are_what_excludes_a_class_permutation():
    """Without the conditions on the cells near the root, a class permutation κ ≠ id survives at a root
    next to the end (so the check's conditions are not idle); with them it does not."""
    for w, s in [(2, 3), (3, 4), (5, 6)]:
        assert F.strided_local_rigid(w, s, 1, near_cells=False) is not None
        assert F.strided_local_rigid(w, s, 1) is None
    # far from the ends the Γ-adjacency on Y alone excludes it: for s = w + 1, residue a on the right of
    # the root sees residue r on the left iff a ≤ r, so κ keeps the order
    assert F.strided_local_rigid(3, 4, 3 * 3 + 3 * 4 + 1, near_cells=False) is None


@pytest.mark.parametrize("w,s", [(65, 8), (66, 67)])
def test_widths_beyond_the_refinement_claim_no_least_count(w, s):
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    assert theorem.layers is None and "O2" in theorem.open_question
    assert not F.strided_views_check(w, s)


@pytest.mark.parametrize("w,s", [(41, 8), (45, 46)])
def test_widths_above_40_are_decided_by_the_vectorised_refinement(w, s):
    """Step (6″) runs up to w = 64 (numpy): these widths, open before, get 2 layers, least, in the engine and in the
    verifier's own restatement of the refinement."""
    from uapcheck.verifier import families as V
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    assert theorem.layers == 2 and theorem.least and not theorem.open_question
    assert F.strided_views_check(w, s) and V._strided_views_rigid(w, s)


def test_refinement_decides_strides_beyond_the_class_search():
    """F7 (6″): for 8 ≤ s ≤ w + 1 colour refinement (no search over class permutations) succeeds at every root, in
    the engine and in the verifier's own restatement; without the cells outside N(i) it fails at the roots next to
    the end, so those cells are what separates; and it agrees with the class search where both run (s ≤ 7)."""
    from uapcheck.verifier import families as V
    for w, s in [(7, 8), (8, 8), (8, 9), (10, 8), (12, 13), (20, 11)]:
        assert F.strided_views_check(w, s) and V._strided_views_rigid(w, s), (w, s)
        assert not F.strided_local_refined(w, s, 1, near_cells=False)
    for w in range(2, 7):
        for s in range(3, w + 2):
            assert all(F.strided_local_refined(w, s, i) for i in range(1, 2 * w + 2 * s + 3)), (w, s)


@pytest.mark.parametrize("w, s, n", [(7, 8, 248), (8, 8, 281), (8, 9, 315)])
def test_refinement_counts_against_the_concrete_engine(w, s, n):
    """2 layers, least, for window(w) + strided(s) with 8 ≤ s ≤ w + 1 (F7 with (6″)), as the concrete engine (rooted
    views by canonical labelling) decides at the start of the range."""
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F7" and theorem.least and theorem.layers == 2 and n >= theorem.low
    got = F.concrete(pattern, n)
    assert got.least and got.diameter == got.layers == 2 and got.order == 2
