"""Theorem F227 (lemma AN, docs/theory.md §11.11): `window(1) cyclic + dilated(2, 4)` on the classes n mod 16 in
{0, 2, 4, 5, 6, 9} — a view witness with D + 1 layers at n + 16 ≥ 240 is cut to one with D layers at n. Each step of
the proof checked a second way, on the reference arcs (tests/graphs/reference.py) and by brute force: (i) the word
length's closed form and the two-route distances, (ii) the rigidity of the radius-2 ball (F41's certificate for
S = {±1, ±4, ±8}) and which positions of the cycle have that ball, (iii) the cut: distances beyond both blocks drop by
exactly one, none rises, the balls correspond, and the cut of a view isomorphism meets the view condition, (iv) the
far-region bound and the blocks at every root from n + 16 = 240 (and not at 224 + r: the range is sharp); and the
theorem's check — no view witness at depth D — with the concrete engine at every length of the classes from 65 to
164 (131 to 146 in test_cyclic_window_dilated_open_classes.py), the rest of the check (165 to 239) nightly."""
from __future__ import annotations

import functools
import itertools
from collections import deque

import networkx as nx
import numpy as np
import pytest

from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.families import concrete
from uapcheck.graphs.views import Neighbourhoods, _exact
from uapcheck.spec import Offsets, PatternUnion, Window

from .reference import closed_neighbourhoods, distances_from

OPEN = (0, 2, 4, 5, 6, 9)
STEPS = (-8, -4, -1, 1, 4, 8)
H8 = (0, 1, 2, 2, 1, 2, 3, 2)            # ℓ(m) = ⌊m/8⌋ + H8[m mod 8] for m ≥ 0
PATTERN = PatternUnion((Window(1, True), Offsets((-8, -4, 0, 4, 8), False)))
START = 240                               # lemma AN's range: n + 16 ≥ 240
BLOCK, MARGIN = 8, 8                      # a block of 8 positions with 8 on each side (the run W of the proof)


def _word_lengths(top: int) -> dict[int, int]:
    """ℓ on Z over the steps, for |m| ≤ top, by breadth-first search on a wider range."""
    wide = top + 64
    length = {0: 0}
    queue = deque([0])
    while queue:
        m = queue.popleft()
        for s in STEPS:
            if abs(m + s) <= wide and m + s not in length:
                length[m + s] = length[m] + 1
                queue.append(m + s)
    return {m: k for m, k in length.items() if abs(m) <= top}


def _near(n: int) -> dict[int, set[int]]:
    """The reference neighbours (both directions, the position itself excluded)."""
    near = closed_neighbourhoods(PATTERN, n)
    return {v: near[v] - {v} for v in near}


@functools.lru_cache(maxsize=8)
def _all(n: int) -> tuple[dict[int, dict[int, int]], int]:
    near = _near(n)
    dist = {i: distances_from(near, i) for i in range(1, n + 1)}
    return dist, max(max(d.values()) for d in dist.values())


def _arc(n: int, i: int, step: int, dist: dict[int, int], diameter: int) -> list[int]:
    """The positions from i (excluded) along the cycle in direction `step` before the first at distance ≥ D − 1."""
    out, z = [], i
    while True:
        z = (z - 1 + step) % n + 1
        if dist[z] >= diameter - 1:
            return out
        out.append(z)


def _block(n: int, arc: list[int], dist: dict[int, int], diameter: int):
    """The first block of 8 positions of the arc with 8 positions on each side inside it (the run W), every position
    of W deep (17 ≤ z ≤ n − 16) and within D − 3 of the root; None where there is none."""
    run = 0
    for k, z in enumerate(arc):
        run = run + 1 if 17 <= z <= n - 16 and dist[z] <= diameter - 3 else 0
        if run >= BLOCK + 2 * MARGIN:
            return arc[k - BLOCK - MARGIN + 1:k - MARGIN + 1]
    return None


def test_the_word_length_is_the_closed_form_and_its_least_excess():
    length = _word_lengths(400)
    for m in range(-400, 401):
        assert length[m] == abs(m) // 8 + H8[abs(m) % 8], m
    # the proof's lower bound: a word of k steps with sum m has 8k − m = Σ(8 − s) over its steps, a sum of
    # {0, 4, 7, 9, 12, 16}; its least value ≡ −r (mod 8) is 8·H8[r] − r
    excess = {0, 4, 7, 9, 12, 16}
    sums = {0}
    for _ in range(4):
        sums |= {a + b for a in sums for b in excess}
    for r in range(8):
        assert min(t for t in sums if t % 8 == (-r) % 8) == 8 * H8[r] - r, r
    # the slack the far-region bound uses: 0 ≤ ℓ(m) − m/8 ≤ 9/4, and ℓ(m) ≥ K iff m ≥ 8K − 18 (m ≥ 0, K ≥ 3)
    for m in range(0, 400):
        assert 0 <= 8 * length[m] - m <= 18
    for k in range(3, 40):
        assert min(m for m in range(0, 400) if length[m] >= k) == 8 * k - 18


def test_the_two_route_distances_hold_at_the_lemmas_lengths():
    length = _word_lengths(300)
    for n in (240, 245, 249):
        near = _near(n)
        for i in range(1, n + 1, 13):
            dist = distances_from(near, i)
            for z in range(1, n + 1):
                low, high = min(z, i), max(z, i)
                assert dist[z] == min(length[high - low], 1 + length[low - 1] + length[n - high]), (n, i, z)


def test_the_radius_two_ball_of_the_line_is_rigid():
    """F41's certificate at R = 2: every automorphism of Z's ball B_2 over S, rooted at 0 and coloured by ℓ, maps
    each s ∈ S to εs with one ε = ±1 (at R = 1 it does not: ±1 are two leaves)."""
    length = _word_lengths(40)
    for radius, rigid in ((2, True), (1, False)):
        ball = [m for m in length if length[m] <= radius]
        g = nx.Graph()
        g.add_nodes_from((m, {"c": length[m]}) for m in ball)
        g.add_edges_from((a, b) for a, b in itertools.combinations(ball, 2) if abs(a - b) in (1, 4, 8))
        maps = list(nx.algorithms.isomorphism.GraphMatcher(
            g, g, node_match=lambda x, y: x["c"] == y["c"]).isomorphisms_iter())
        on_s = {tuple(f[s] for s in STEPS) for f in maps}
        assert (on_s == {STEPS, tuple(-s for s in STEPS)}) is rigid, radius


def test_the_positions_with_the_lines_ball_are_those_16_from_the_seam():
    """A position's rooted radius-2 ball (with its arcs and levels) is Z's exactly when 17 ≤ z ≤ n − 16: the lemma's
    *deep* positions, which a view isomorphism maps to deep positions."""
    length = _word_lengths(40)
    ball = [m for m in length if length[m] <= 2]
    line = nx.Graph()
    line.add_nodes_from((m, {"c": length[m]}) for m in ball)
    line.add_edges_from((a, b) for a, b in itertools.combinations(ball, 2) if abs(a - b) in (1, 4, 8))
    n = 80
    near = _near(n)
    for z in range(1, n + 1):
        dist = distances_from(near, z)
        inside = [v for v in dist if dist[v] <= 2]
        g = nx.Graph()
        g.add_nodes_from((v, {"c": dist[v]}) for v in inside)
        g.add_edges_from((a, b) for a, b in itertools.combinations(inside, 2) if b in near[a])
        same = nx.is_isomorphic(g, line, node_match=lambda x, y: x["c"] == y["c"])
        assert same == (17 <= z <= n - 16), z


@pytest.mark.parametrize("r", OPEN)
def test_the_far_region_bound(r):
    """Every z with d(z, i) ≥ D − 2 has (n − r)/2 − 10 ≤ |z − i| ≤ (n + r)/2 + 35 (n ≡ r mod 16, D ≥ (n − r)/16 + 3):
    so every position within 8⌊n/16⌋ − 36 of the root along the cycle, either way, is within D − 3."""
    for n in (240 + r,):
        dist, diameter = _all(n)
        assert 16 * (diameter - 3) >= n - r
        for i in range(1, n + 1):
            for z, d in dist[i].items():
                if d >= diameter - 2:
                    assert (n - r) / 2 - 10 <= abs(z - i) <= (n + r) / 2 + 35, (n, i, z)
                t = min((z - i) % n, (i - z) % n)
                if t <= 8 * (n // 16) - 36:
                    assert d <= diameter - 3, (n, i, z)


@pytest.mark.parametrize("r", OPEN)
def test_both_blocks_exist_at_every_root_from_240_and_not_one_period_before(r):
    for n, every in ((224 + r, False), (240 + r, True)):
        dist, diameter = _all(n)
        found = all(_block(n, _arc(n, i, s, dist[i], diameter), dist[i], diameter) is not None
                    for i in range(1, n + 1) if max(dist[i].values()) == diameter for s in (1, -1))
        assert found is every, n


def _cut(n: int, blocks: list[list[int]]):
    """δ: the positions outside the blocks onto 1..n − 16, order kept."""
    gone = set().union(*blocks)
    keep = [z for z in range(1, n + 1) if z not in gone]
    return {z: k + 1 for k, z in enumerate(keep)}


def _view_holds(near: dict, sigma: dict, ball: set) -> bool:
    return all({sigma[u] for u in near[v]} == near[sigma[v]] for v in ball)


@pytest.mark.parametrize("r", OPEN)
def test_the_cut_lowers_the_far_side_by_one_and_carries_the_view_condition(r):
    """(i) and (iii) on the reference arcs at n + 16 = 240 + r: for every root (sampled) with eccentricity D + 1 and its
    blocks, the positions beyond both blocks are exactly one closer at n, none is farther, the ball at n is the image of
    the ball at n + 16 less the blocks; and the cut of the two view isomorphisms there (the identity and the reflection
    ρ, with the blocks' images ρ(Q)) is id and ρ at n and meets the view condition at depth D."""
    big = 240 + r
    small = big - 16
    dist, diameter = _all(big)
    near_big, near_small = _near(big), _near(small)
    checked = 0
    for i in range(1, big + 1, 9):
        if max(dist[i].values()) != diameter:
            continue
        blocks = [_block(big, _arc(big, i, s, dist[i], diameter), dist[i], diameter) for s in (1, -1)]
        delta = _cut(big, blocks)
        small_dist = distances_from(near_small, delta[i])
        gone = set(blocks[0]) | set(blocks[1])
        root_side = set(_arc(big, i, 1, dist[i], diameter)[:_arc(big, i, 1, dist[i], diameter).index(blocks[0][0])]) \
            | set(_arc(big, i, -1, dist[i], diameter)[:_arc(big, i, -1, dist[i], diameter).index(blocks[1][0])]) | {i}
        for z, k in delta.items():
            if z in root_side:
                assert small_dist[k] <= dist[i][z], (big, i, z)
            else:
                assert small_dist[k] == dist[i][z] - 1, (big, i, z)
        ball_big = {z for z in dist[i] if dist[i][z] <= diameter - 1}
        ball_small = {v for v in small_dist if small_dist[v] <= diameter - 2}
        assert ball_small == {delta[z] for z in ball_big - gone}
        assert gone <= ball_big
        rho_big = {z: big + 1 - z for z in range(1, big + 1)}
        for sigma in ({z: z for z in range(1, big + 1)}, rho_big):
            assert _view_holds(near_big, sigma, ball_big)
            delta_image = _cut(big, [sorted(sigma[z] for z in b) for b in blocks])
            inverse = {k: z for z, k in delta.items()}
            cut = {k: delta_image[sigma[inverse[k]]] for k in inverse}
            assert _view_holds(near_small, cut, ball_small)
            expected = {v: v for v in range(1, small + 1)} if sigma[1] == 1 else {v: small + 1 - v
                                                                                for v in range(1, small + 1)}
            assert cut == expected
        checked += 1
    assert checked >= 6


def _check(r: int, low: int, high: int) -> int:
    """The theorem's check on the class r at the lengths low ≤ n < high: the concrete engine's least count is D
    (= ⌊n/16⌋ + 3 on these classes), so no view witness at depth D."""
    lengths = range(low + (r - low) % 16, high, 16)
    for n in lengths:
        found = concrete(PATTERN, n)
        assert found.least and found.layers == n // 16 + 3, n
    return len(lengths)


@pytest.mark.nightly
@pytest.mark.parametrize("r", OPEN)
def test_the_full_check_finds_no_witness_from_65_to_239(r):
    """The check at every root (131 to 146 also in test_cyclic_window_dilated_open_classes.py)."""
    assert _check(r, 65, START) >= 10


@functools.lru_cache(maxsize=4)
def _matrix_distances(n: int):
    """d(i, z) for every pair by breadth-first search on the definition's arcs (|u − v| ∈ {1, 4, 8}, and {1, n}),
    one root at a time on bit sets (bit z − 1 is position z)."""
    full, top = (1 << n) - 1, 1 << (n - 1)
    width = (n + 7) // 8
    dist = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        seen = frontier = 1 << i
        level = 0
        while frontier:
            bits = np.unpackbits(np.frombuffer(frontier.to_bytes(width, "little"), dtype=np.uint8),
                                 count=n, bitorder="little").astype(bool)
            dist[i, bits] = level
            grown = 0
            for k in (1, 4, 8):
                grown |= (frontier << k) | (frontier >> k)
            grown |= (top if frontier & 1 else 0) | (1 if frontier & top else 0)
            frontier = grown & full & ~seen
            seen |= frontier
            level += 1
    return dist


def _two_routes(n: int):
    z = np.arange(1, n + 1)
    length = np.array([m // 8 + H8[m % 8] for m in range(n + 1)])
    low, high = np.minimum(z[:, None], z[None, :]), np.maximum(z[:, None], z[None, :])
    return np.minimum(length[high - low], 1 + length[low - 1] + length[n - high])


def _without_blocks(n: int, dist) -> list[int]:
    """The roots of eccentricity D with no block on one side (F227 (3)), 1-based."""
    diameter = int(dist.max())
    out = []
    for i in range(1, n + 1):
        row = [0] + dist[i - 1].tolist()                  # row[z] = d(i, z)
        if max(row) == diameter and any(
                _block(n, _arc(n, i, s, row, diameter), row, diameter) is None for s in (1, -1)):
            out.append(i)
    return out


def _no_witness_rooted_at(n: int, roots: list[int]) -> bool:
    """The rooted views (the engine's exact test, canonical labelling) at one root of each G-orbit of ``roots``
    (a ρ-invariant set): no automorphism of a view outside G and no two isomorphic views of different orbits."""
    graph = build_graph(PATTERN, n, {})
    assert int(symmetry_group([graph]).order) == 2
    ident, mirror = list(range(n)), list(range(n - 1, -1, -1))
    reps = sorted({min(i, n + 1 - i) - 1 for i in roots})
    sizes = {r: 1 if 2 * r + 2 == n + 1 else 2 for r in reps}
    found = _exact(Neighbourhoods([graph]), n // 16 + 3, 2, reps, sizes, lambda p: list(p) in (ident, mirror), False)
    return found.sufficient is True


@pytest.mark.parametrize("r", OPEN)
def test_the_check_restricted_to_the_roots_without_blocks(r):
    """F227 (c): at every length n ≡ r from 82 to 239, the two routes hold at n and n − 16 (against breadth-first
    search), and no view witness is rooted at the roots without blocks (a witness at a root with blocks, or at one
    whose partner has blocks, would give one at n − 16); below 82 the full check. This is the whole check, in about
    a second of CPU a class."""
    for n in range(65 + (r - 65) % 16, 240, 16):
        if n < 82:
            assert concrete(PATTERN, n).layers == n // 16 + 3, n
            continue
        dist = _matrix_distances(n)
        assert np.array_equal(dist, _two_routes(n)), n
        assert np.array_equal(_matrix_distances(n - 16), _two_routes(n - 16)), n
        assert int(dist.max()) == n // 16 + 3
        roots = _without_blocks(n, dist)
        assert roots == sorted(n + 1 - i for i in roots)
        assert _no_witness_rooted_at(n, roots), n
