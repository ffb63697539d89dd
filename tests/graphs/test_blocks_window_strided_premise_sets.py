"""Theorem F113's premise read on whole sets (graphs/blocks_window_strided_classes.py: `closure`, `piece_premise`)
against the premise read position by position (the earlier implementation, kept here as the reference: every far
position's pieces and every pair of far positions through its own local neighbours) and the breadth-first rings of
graphs/bit_rings.py, on the theorem's unions and on unions outside its range (the premise is a plain property of the
graph at every b, w, s)."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs import bit_rings
from uapcheck.graphs import blocks_window_strided_classes as B
from uapcheck.graphs.strided_lines import class_masks


def _premise_per_position(n: int, b: int, w: int, s: int, diameter: int) -> bool:
    """The premise with one pass per far position u: (P1) u's own piece is non-empty and no other piece lies inside
    N[u]; (P2) the far v of another class adjacent to u are those some z in the ball, in neither's class, is adjacent
    to (its local neighbours' local neighbourhoods)."""
    near = B.closed_neighbourhoods(n, b, w, s)
    full = (1 << n) - 1
    classes = class_masks(n, s)
    local = [0] + [near[p] & ~classes[p % s] | 1 << (p - 1) for p in range(1, n + 1)]
    for root in range(1, n + 1):
        rings = bit_rings.rings(near, n, root)
        if rings is None:
            return False
        if len(rings) - 1 < diameter:
            continue
        if len(rings) - 1 != diameter:
            return False
        far = rings[diameter]
        ball = full & ~far
        pieces = [c & ball for c in classes]
        for u in bit_rings.members(far):
            own = u % s
            if not pieces[own] or any(piece and not piece & ~near[u] for r, piece in enumerate(pieces) if r != own):
                return False
            said = 0
            for z in bit_rings.members(near[u] & ball & ~classes[own]):
                said |= local[z]
            if (said ^ near[u]) & far & ~classes[own]:
                return False
    return True


def _diameters(n: int, b: int, w: int, s: int) -> set:
    near = B.closed_neighbourhoods(n, b, w, s)
    out = set()
    for root in range(1, n + 1):
        rings = bit_rings.rings(near, n, root)
        if rings is not None:
            out.add(len(rings) - 1)
    return out


@pytest.mark.parametrize("b", range(1, 7))
def test_the_closure_is_the_union_of_the_closed_neighbourhoods(b):
    for w in range(0, 4):
        for s in range(1, 10):
            for n in (1, 2, 5, 13, 37, 64):
                near = B.closed_neighbourhoods(n, b, w, s)
                closed = B.closure(n, b, w, s)
                rnd = random.Random(n * 1000 + b * 100 + w * 10 + s)
                for bits in [rnd.getrandbits(n) for _ in range(12)] + [1 << (p - 1) for p in range(1, n + 1)]:
                    want = 0
                    for p in bit_rings.members(bits):
                        want |= near[p]
                    assert closed(bits) == want, (n, b, w, s, bits)


@pytest.mark.parametrize("b, w, s, n", [(4, 1, 7, 120), (4, 1, 7, 117), (3, 1, 4, 30), (2, 0, 3, 11), (5, 3, 2, 19)])
def test_the_rings_by_whole_sets_are_the_breadth_first_rings(b, w, s, n):
    near = B.closed_neighbourhoods(n, b, w, s)
    closed = B.closure(n, b, w, s)
    for root in range(1, n + 1):
        assert bit_rings.rings_by(closed, n, root) == bit_rings.rings(near, n, root)


def test_unconnected_rings_are_none():
    near = [0, 0b01, 0b10]  # two positions, no arc
    assert bit_rings.rings_by(lambda bits: bits, 2, 1) is None
    assert bit_rings.rings(near, 2, 1) is None


@pytest.mark.parametrize("b, w, s", [(b, w, s) for b in range(3, 6) for w in range(1, b - 1) for s in range(b + 1, 10)])
def test_the_premise_on_the_theorem_s_unions_agrees_with_the_reference(b, w, s):
    """Through one period of lengths from the range's start (and a few before it), at the true D and beside it."""
    data = B.decide(b, w, s)
    if data is None:
        pytest.skip("outside the decided range")
    seen = set()
    for n in list(range(data.low, data.low + min(data.period, 16))) + [2 * s + 1, 3 * s + 2]:
        for d in {data.diameters[n % data.period], 2, 3}:
            got = B.piece_premise(n, b, w, s, d)
            assert got is _premise_per_position(n, b, w, s, d), (n, b, w, s, d)
            seen.add(got)
    assert seen == {True, False}


@pytest.mark.parametrize("b", range(1, 8))
def test_the_premise_outside_the_theorem_s_range_agrees_with_the_reference(b):
    """Any b, w, s (windows reaching a class, blocks longer than the stride, s = 1): the whole-set reading is the same
    property of the graph."""
    seen = set()
    for w in range(0, 5):
        for s in range(1, 10):
            for n in range(1, 40, 4):
                for d in _diameters(n, b, w, s) | {2}:
                    got = B.piece_premise(n, b, w, s, d)
                    assert got is _premise_per_position(n, b, w, s, d), (n, b, w, s, d)
                    seen.add(got)
    assert seen == {True, False}


@pytest.mark.parametrize("n", [116, 117, 118, 119, 120, 121, 122, 123, 148, 379])
def test_the_catalog_union_at_its_check_lengths(n):
    assert B.piece_premise(n, 4, 1, 7, 3) is _premise_per_position(n, 4, 1, 7, 3) is (n % 4 == 0)


def test_the_classes_are_unchanged():
    assert B.premise_residues(4, 1, 7) == frozenset(range(0, 28, 4))


def _joins_alike_per_position(n: int, b: int, w: int, s: int, far: int, ball: int) -> bool:
    near = B.closed_neighbourhoods(n, b, w, s)
    classes = class_masks(n, s)
    local = [0] + [near[p] & ~classes[p % s] | 1 << (p - 1) for p in range(1, n + 1)]
    for u in bit_rings.members(far):
        own = classes[u % s]
        said = 0
        for z in bit_rings.members(near[u] & ball & ~own):
            said |= local[z]
        if (said ^ near[u]) & far & ~own:
            return False
    return True


@pytest.mark.parametrize("b, w, s", [(4, 1, 7), (3, 1, 4), (5, 2, 7), (6, 3, 4), (3, 4, 5), (2, 1, 9)])
def test_p2_on_any_far_set_and_ball_agrees_with_the_reference(b, w, s):
    """(P2) by offsets (`_LocalPairs.joins_alike`) on random far sets and balls, not only the rings of a root: every
    offset up to twice the local reach is exercised."""
    rnd = random.Random(b * 100 + w * 10 + s)
    seen = set()
    for n in (9, 17, 30):
        near = B.closed_neighbourhoods(n, b, w, s)
        pairs = B._LocalPairs(n, near, class_masks(n, s), s)
        for _ in range(300):
            far = rnd.getrandbits(n) & rnd.getrandbits(n)
            ball = rnd.getrandbits(n) & ~far
            got = pairs.joins_alike(far, ball)
            assert got is _joins_alike_per_position(n, b, w, s, far, ball), (n, far, ball)
            seen.add(got)
    assert seen == {True, False}
