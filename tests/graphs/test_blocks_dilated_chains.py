"""Theorem F95 (docs/theory.md §11.11): `blocks(b) + dilated(w, r)` with r ≥ 2, 2wr ≤ b — chains of blocks joined by
the dilation's junctions — D by residue of n mod b, |G| by residue (times (b − 2wr)!·r! per block) and D layers
(least), against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in range, the order by an
automorphism count written in the test (no engine), and the far-clique premise (the positions at distance D from a
root pairwise adjacent) by a breadth-first search written in the test on the reference arcs."""
from __future__ import annotations

from collections import deque

import pytest
import sympy

from .reference import attends, count_automorphisms
from uapcheck.graphs import blocks_dilated_chains as F95
from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, Global, PatternUnion

N = sympy.Symbol("n", integer=True, positive=True)
PARAMS = [(4, 1, 2), (5, 1, 2), (6, 1, 3), (7, 1, 3), (8, 2, 2), (8, 1, 4), (9, 1, 4)]


def _pattern(b, w, r):
    return PatternUnion((Blocks(b), Dilated(w, r)))


def _theorem(b, w, r):
    return families.match([_pattern(b, w, r)], N, {})


@pytest.mark.parametrize("b, w, r", PARAMS)
def test_against_concrete_engine(b, w, r):
    theorem = _theorem(b, w, r)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F95"
    assert theorem.least and theorem.group is not None and int(theorem.low) == 2 * b
    for n in range(2 * b, 61):
        want = families.at(theorem, {"n": n})
        got = concrete(_pattern(b, w, r), n)
        assert got.connected and got.diameter == want["diameter"] == F95.diameter_at(n, b, w, r), (b, w, r, n)
        assert got.order == want["order"] == F95.order_at(n, b, w, r), (b, w, r, n)
        assert got.least and got.layers == want["layers"] == want["diameter"], (b, w, r, n)


@pytest.mark.parametrize("b, w, r", [(4, 1, 2), (5, 1, 2), (6, 1, 3)])
def test_order_by_counting(b, w, r):
    """|Aut| by extending partial maps (arcs written here: one block, or a difference jr with 1 ≤ j ≤ w)."""
    def arc(u, v):
        return u != v and ((u - 1) // b == (v - 1) // b or (abs(u - v) % r == 0 and abs(u - v) <= w * r))
    for n in range(2 * b, 3 * b + 1):
        assert count_automorphisms(n, arc) == F95.order_at(n, b, w, r), (b, w, r, n)


def _far_positions_adjacent(n, pattern):
    """The diameter when, at every root, the positions at distance D are pairwise adjacent; else None."""
    arcs = attends(pattern, n)
    near = {v: {j for i, j in arcs if i == v} for v in range(1, n + 1)}
    dist = {}
    for root in range(1, n + 1):
        d = {root: 0}
        todo = deque([root])
        while todo:
            v = todo.popleft()
            for x in near[v]:
                if x not in d:
                    d[x] = d[v] + 1
                    todo.append(x)
        dist[root] = d
    diameter = max(max(d.values()) for d in dist.values())
    for d in dist.values():
        far = [v for v, x in d.items() if x == diameter]
        if any(v not in near[u] for k, u in enumerate(far) for v in far[k + 1:]):
            return None
    return diameter


@pytest.mark.parametrize("b, w, r", [(4, 1, 2), (6, 1, 2), (8, 2, 2), (6, 1, 3)])
def test_far_positions_form_a_clique(b, w, r):
    """F95 (c): the far-clique lemma's premise at every root, over one period of n mod b past the range's start."""
    for n in range(2 * b, 3 * b + 1):
        assert _far_positions_adjacent(n, _pattern(b, w, r)) == F95.diameter_at(n, b, w, r), (b, w, r, n)


def test_the_order_grows_by_a_block_factor():
    """|G|(n + b) = |G|(n)·(b − 2wr)!·r! in the range, and the symbolic order agrees at a large n."""
    theorem = _theorem(8, 1, 3)
    for n in range(16, 40):
        assert F95.order_at(n + 8, 8, 1, 3) == F95.order_at(n, 8, 1, 3) * 2 * 6
    assert families.at(theorem, {"n": 10_003})["order"] == F95.order_at(10_003, 8, 1, 3)


@pytest.mark.parametrize("pattern", ["blocks(3) + dilated(2, 2)", "blocks(5) + dilated(2, 2)", "blocks(2) + dilated(1, 3)"])
def test_other_dilations_stay_outside(pattern):
    """2wr > b (the dilation reaches past the next block's first half, or beyond it) is not F95's."""
    b, (w, r) = int(pattern[7]), (int(pattern[-5]), int(pattern[-2]))
    found = families.match([_pattern(b, w, r)], N, {})
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F95")


def test_the_kernel_rechecks_the_family_step():
    """The proof kernel re-matches F95 on the pattern, compares each claimed value with the theorem's and runs the
    instance check; a forged order, diameter, layer count or theorem is rejected."""
    from uapcheck.certificates import StandardFamily
    from uapcheck.proof import CertificateRejected
    theorem = _theorem(4, 1, 2)
    pattern = _pattern(4, 1, 2)
    good = (("diameter", theorem.diameter), ("layers", theorem.layers), ("least", True), ("order", theorem.order))
    StandardFamily(pattern, N, (), (), "F95", good).check()
    for bad in [(("layers", theorem.diameter + 1),), (("diameter", theorem.diameter - 1),),
                (("order", 2 * theorem.order),), (("least", False),)]:
        with pytest.raises(CertificateRejected):
            StandardFamily(pattern, N, (), (), "F95", bad).check()
    with pytest.raises(CertificateRejected):
        StandardFamily(pattern, N, (), (), "F63", ()).check()
    with pytest.raises(CertificateRejected):
        StandardFamily(_pattern(3, 2, 2), N, (), (), "F95", ()).check()


GLOBAL_PARAMS = [(4, 1, 2, 1), (4, 1, 2, 3), (4, 1, 2, 5), (6, 1, 3, 2), (6, 1, 3, 7), (8, 2, 2, 1), (5, 1, 2, 2)]


def _global_pattern(b, w, r, g):
    return PatternUnion((Blocks(b), Dilated(w, r), Global(g)))


@pytest.mark.parametrize("b, w, r, g", GLOBAL_PARAMS)
def test_globals_against_concrete_engine(b, w, r, g):
    """F96: D = 2, |G| by residue and 3 layers (least) at every n from the range's start to 60."""
    theorem = families.match([_global_pattern(b, w, r, g)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F96"
    assert theorem.least and int(theorem.layers) == 3 and int(theorem.low) == F95.low_global(b, g)
    for n in range(F95.low_global(b, g), 61):
        want = families.at(theorem, {"n": n})
        got = concrete(_global_pattern(b, w, r, g), n)
        assert got.connected and got.diameter == want["diameter"] == 2, (b, w, r, g, n)
        assert got.order == want["order"] == F95.global_order_at(n, b, w, r, g), (b, w, r, g, n)
        assert got.least and got.layers == want["layers"] == 3, (b, w, r, g, n)


@pytest.mark.parametrize("b, w, r, g", [(4, 1, 2, 1), (4, 1, 2, 2)])
def test_globals_order_by_counting(b, w, r, g):
    def arc(u, v):
        return u != v and (u <= g or v <= g or (u - 1) // b == (v - 1) // b
                           or (abs(u - v) % r == 0 and abs(u - v) <= w * r))
    for n in range(F95.low_global(b, g), F95.low_global(b, g) + b):
        assert count_automorphisms(n, arc) == F95.global_order_at(n, b, w, r, g), (b, w, r, g, n)


@pytest.mark.parametrize("b, w, r, g", GLOBAL_PARAMS)
def test_the_globals_swap_is_a_view_witness(b, w, r, g):
    """The swap (x x+1) is not a symmetry (on the reference arcs) and every position whose neighbourhood it changes is
    more than 1 from n, over one period of n mod b from the range's start."""
    x = F95.swap_position(b, w, r, g)
    for n in range(F95.low_global(b, g), F95.low_global(b, g) + b):
        arcs = attends(_global_pattern(b, w, r, g), n)
        sigma = {x: x + 1, x + 1: x}
        image = {(sigma.get(i, i), sigma.get(j, j)) for i, j in arcs}
        assert image != arcs, (b, w, r, g, n)
        near_n = {n} | {j for i, j in arcs if i == n}
        for v in near_n:
            seen = {j for i, j in arcs if i == v}
            assert {sigma.get(j, j) for j in seen} == {j for i, j in arcs if i == sigma.get(v, v)}, (b, w, r, g, n, v)


def test_the_chain_count_restates_f95():
    """F96's chain count with a whole first block (g = 0 in effect) is F95's order."""
    for b, w, r in [(4, 1, 2), (6, 1, 3), (8, 2, 2), (9, 1, 4)]:
        for n in range(4 * b, 9 * b):
            blocks = -(-n // b)
            count = F95.chain_order(b, blocks - 2, n % b or b, b, w, r) * (2 if n % b == 0 else 1)
            assert count == F95.order_at(n, b, w, r), (b, w, r, n)
