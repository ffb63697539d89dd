"""Theorem F34 of docs/theory.md §11.11 (`blocks(b) + strided(s)`, b > s ≥ 2) against the concrete engine (graphs,
BLISS, rooted views) at every n ≤ 60 in range, its group order against an automorphism count written here at small
n, its witness on the arcs, and the disconnection of `blocks(b) + strided(kb)` (k ≥ 2) by breadth-first search.
Theorems F44 and F57 (b < s, b ∤ s): D, |G| and the least layer count against the concrete engine; F57's premise
(far positions adjacent iff they have a common neighbour in the ball) and its witness on the reference arcs
(tests/graphs/reference.py); the verifier's F57 entry accepts and rejects forged counts."""
from __future__ import annotations

from collections import deque
from math import gcd

import pytest
import sympy

from uapcheck.graphs import blocks_strided as BS
from uapcheck.graphs import families as F
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.spec import Blocks, PatternUnion, Strided

from .reference import all_distances, attends
from .reference import count_automorphisms as count_graph_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
PAIRS = [(3, 2), (5, 2), (4, 3), (5, 3), (7, 3), (5, 4), (6, 4), (7, 2), (6, 3), (4, 2), (8, 2), (9, 3), (7, 5)]


def pattern(b, s):
    return PatternUnion((Blocks(b), Strided(s)))


def adjacent(b, s, u, v):
    return (u - 1) // b == (v - 1) // b or (u - v) % s == 0


@pytest.mark.parametrize("b, s", PAIRS)
def test_theorem_agrees_with_the_concrete_engine(b, s):
    theorem = F.match([pattern(b, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F34" and theorem.least
    assert int(theorem.low) <= 60
    for n in range(int(theorem.low), 61):
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern(b, s), n)
        assert (got.diameter, got.order, got.layers, got.least) == (2, want["order"], want["layers"], True), n
        assert want["layers"] == (3 if 1 <= n % b <= s - 2 else 2)


def count_automorphisms(n, b, s):
    return count_graph_automorphisms(n, lambda u, v: adjacent(b, s, u, v))


@pytest.mark.parametrize("b, s", [(3, 2), (4, 3), (4, 2)])
def test_order_by_extending_partial_maps(b, s):
    theorem = F.match([pattern(b, s)], N, {})
    for n in range(int(theorem.low), min(int(theorem.low) + b, 23)):
        assert count_automorphisms(n, b, s) == F.at(theorem, {"n": n})["order"], n


@pytest.mark.parametrize("b, s", [(4, 3), (5, 3), (7, 5), (6, 4)])
def test_witness_on_the_arcs(b, s):
    for n in range(BS.low(b, s), 61):
        found = BS.witness_at(n, b, s)
        if found is None:
            continue
        i, (a, c) = found
        sw = {a: c, c: a}.get

        ins = {v: {u for u in range(1, n + 1) if adjacent(b, s, u, v)} for v in range(1, n + 1)}
        assert all({sw(z, z) for z in ins[x]} == ins[sw(x, x)] for x in ins[i]), n
        assert not all({sw(z, z) for z in ins[x]} == ins[sw(x, x)] for x in range(1, n + 1)), n


@pytest.mark.parametrize("b, k", [(2, 2), (3, 2), (2, 3), (4, 2)])
def test_blocks_dividing_the_stride_disconnect(b, k):
    s = k * b
    form = closed_connectivity([pattern(b, s)], N, {})
    assert form is not None
    for n in range(b + 1, 40):
        seen, todo = {1}, deque([1])
        while todo:
            u = todo.popleft()
            for v in range(1, n + 1):
                if v not in seen and adjacent(b, s, u, v):
                    seen.add(v)
                    todo.append(v)
        assert b + 1 not in seen
        case = form.at({"n": n})
        assert case is not None and not case.strongly_connected


def test_other_pairs_stay_open():
    # b < s, s > 7 with one period bL above 72 lengths (below it, F44: test_blocks_strided_below_wide.py)
    assert isinstance(F.match([pattern(11, 12)], N, {}), F.OpenFamily)
    # b > s > 7 with one period b·s/gcd(b, s) above 4,096 lengths (below it, F34: test_blocks_strided_wide.py)
    assert isinstance(F.match([pattern(5000, 4999)], N, {}), F.OpenFamily)
    assert F.match([pattern(9, 8)], N, {}).theorem == "F34"


BELOW = [(2, 3), (3, 4), (3, 5), (4, 6), (2, 5), (4, 7), (5, 6)]
OPEN_BELOW = [(2, 5), (2, 7), (3, 7)]  # D > 3: F57 does not apply
PUMPED = [(2, 5), (2, 7), (3, 7)]  # F58 decides these, (3, 7) with F66's conditions


@pytest.mark.parametrize("b, s", BELOW)
def test_f44_against_the_concrete_engine(b, s):
    """Theorem F44 (b < s, b ∤ s): D by residue, |G| and D + 1 ≥ the least layer count, at every n ≤ 60 in range
    (and one whole period of n mod bL beyond the range's start)."""
    theorem = F.match([pattern(b, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F44"
    assert theorem.least is ((b, s) not in OPEN_BELOW or (b, s) in PUMPED)  # F57 where D = 3, else F58
    low = int(theorem.low)
    period = b * (s // gcd(b, s))
    for n in range(low, max(61, low + period)):
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern(b, s), n)
        assert got.connected and got.diameter == want["diameter"], (b, s, n)
        assert got.order == want["order"], (b, s, n)
        if theorem.least and (b, s) in PUMPED:  # F58: D + 1 exactly for odd n (b = 2)
            assert got.least and want["layers"] == got.layers == got.diameter + n % 2, (b, s, n)
        elif theorem.least:
            assert got.least and want["layers"] == got.layers == (4 if 1 <= n % b <= s - b else 3), (b, s, n)
        else:
            assert got.least and want["layers"] == got.diameter + 1 >= got.layers, (b, s, n)


@pytest.mark.parametrize("b, s, n", [(2, 3, 9), (2, 3, 10), (2, 3, 11), (3, 4, 16), (2, 5, 18)])
def test_f44_order_by_counting(b, s, n):
    """|G| against an automorphism count written in the test (partial maps extended position by position)."""
    theorem = F.match([pattern(b, s)], N, {})
    assert F.at(theorem, {"n": n})["order"] == count_graph_automorphisms(n, lambda u, v: adjacent(b, s, u, v) and u != v)


def test_f44_is_a_line_graph():
    """Γ is the line graph of the block–residue incidence graph: b < s puts at most one position in each (block,
    residue) pair, and u ~ v iff they share a block or a residue."""
    for b, s in BELOW:
        for n in range(1, 40):
            pairs = [((p - 1) // b, p % s) for p in range(1, n + 1)]
            assert len(set(pairs)) == n


def test_f57_decides_exactly_the_pairs_with_diameter_3():
    for s in range(3, 8):
        for b in range(2, s):
            if s % b:
                assert BS.below_least(b, s) is ((b, s) not in OPEN_BELOW), (b, s)


@pytest.mark.parametrize("b, s", [(2, 3), (3, 4), (3, 5), (4, 5), (4, 6), (4, 7)])
def test_f57_premise_and_witness_on_the_reference_arcs(b, s):
    """Where F57 says 3 layers: at every root, two positions at distance 3 are adjacent exactly when some position
    within distance 2 of the root is adjacent to both (the lemma's premise). Where it says 4: the swap keeps every
    neighbourhood within distance 2 of the root and is not a symmetry. Over one period of n mod bL from the start."""
    low = BS.low_below(b, s)
    for n in range(low, low + b * (s // gcd(b, s)) + 1):
        pairs = attends(pattern(b, s), n)
        nb = {v: {v} | {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
        dist = all_distances(pairs, n)
        if 1 <= n % b <= s - b:
            root, (x, y) = BS.below_witness(n, b, s)

            image = {v: v for v in range(1, n + 1)} | {x: y, y: x}
            changed = [v for v in range(1, n + 1) if {image[u] for u in nb[v]} != nb[image[v]]]
            assert changed and min(dist[root][v] for v in changed) >= 3, (b, s, n)
            continue
        for root in range(1, n + 1):
            far = [v for v in range(1, n + 1) if dist[root][v] == 3]
            for u in far:
                for v in far:
                    if u < v:
                        common = any(dist[root][z] <= 2 for z in nb[u] & nb[v])
                        assert (v in nb[u]) == common, (b, s, n, root, u, v)


def _cert(body: str) -> dict:
    import json

    import uapcheck
    from uapcheck import certfile
    text = f'architecture "c"\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {body}\n}}\n'
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def test_the_verifier_rechecks_f57_and_rejects_forged_counts():
    from uapcheck.verifier import REJECTED, VERIFIED, verify
    cert = _cert("blocks(2) + strided(3)")
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F57" in step.reason
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True
    data["layers"] = 3  # 3 at every n: one too low at odd n
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)
    cert = _cert("blocks(3) + strided(9)")  # 3 | 9: not strongly connected, no layer count to forge
    assert not any(s["rule"] == "PAT-LAYERS" and s["data"].get("least") for s in cert["steps"])


@pytest.mark.parametrize("b, s", [(2, 3), (3, 4), (2, 5)])
def test_f58_check_agrees_with_f57_and_the_engine(b, s):
    """F58's finite check (the twin-block witness or the common-neighbour premise, carried by twin insertion)
    gives F57's count where both apply, and decides (2, 5): D + 1 = 6 exactly for odd n, from n = 18."""
    start, table = BS.pumped_layers(b, s)
    if (b, s) == (2, 5):
        assert start == 18 and all(v == 5 + t % 2 for t, v in table.items())
    else:
        assert start == BS.low_below(b, s)
        assert all(v == (4 if 1 <= t % b <= s - b else 3) for t, v in table.items())
    start, table = BS.pumped_layers(3, 7)  # F66: the in-block swap at n ≡ 1 (mod 3), the far-star premise else
    assert start == 28 and all(v == (5 if t % 3 == 1 else 4) for t, v in table.items())


@pytest.mark.parametrize("b, s, n", [(2, 5, 19), (2, 5, 21), (2, 7, 23)])
def test_f58_witness_on_the_reference_arcs(b, s, n):
    """The swap changes no neighbourhood within distance D − 1 of its root, and is not a symmetry."""
    root, (x, y) = BS.pumping_witness(n, b, s)
    pairs = attends(pattern(b, s), n)
    nb = {v: {v} | {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    dist = all_distances(pairs, n)
    d = max(max(row.values()) for row in dist.values())
    image = {v: v for v in range(1, n + 1)} | {x: y, y: x}
    changed = [v for v in range(1, n + 1) if {image[u] for u in nb[v]} != nb[image[v]]]
    assert changed and min(dist[root][v] for v in changed) >= d


def test_the_verifier_rechecks_f58():
    from uapcheck.verifier import REJECTED, VERIFIED, verify
    cert = _cert("blocks(2) + strided(5)")
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F58" in step.reason
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = 5
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_o9_the_block_swap_at_the_last_position_when_n_is_1_mod_3():
    """O9, blocks(3) + strided(7), n ≡ 1 (mod 3): the last block is {n}; with r = n mod 7 the positions of residues
    r + 3, r + 4 in one whole block see, from within distance D − 1 = 3 of n, only their own block (every position
    within 3 of n is in a block meeting n's class, whose residues are within 2 of r, or in a class within 2 of r), so
    their swap is a view witness at n and D + 1 = 5 layers are needed there (the concrete engine agrees). Checked on
    the reference arcs at every n ≡ 1 (mod 3) from 22 to 60; n ≡ 2 (mod 3) stays open."""
    b, s = 3, 7
    for n in range(22, 61, 3):
        r = n % s
        blocks = [range(3 * k + 1, 3 * k + 4) for k in range(n // 3)]
        block = next(B for B in blocks if {(r + 3) % s, (r + 4) % s} <= {p % s for p in B})
        x, y = (next(p for p in block if p % s == (r + t) % s) for t in (3, 4))
        pairs = attends(pattern(b, s), n)
        nb = {v: {v} | {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
        dist = all_distances(pairs, n)
        d = max(max(row.values()) for row in dist.values())
        image = {v: v for v in range(1, n + 1)} | {x: y, y: x}
        changed = [v for v in range(1, n + 1) if {image[u] for u in nb[v]} != nb[image[v]]]
        assert d == 4 and changed and min(dist[n][v] for v in changed) >= d, n
    for n in (43, 46, 49):
        assert F.concrete(pattern(b, s), n).layers == (5 if n % 3 == 1 else 4), n


def test_o9_closed_blocks_3_strided_7_against_the_concrete_engine():
    """Theorems F82 and F66: `blocks(3) + strided(7)` needs 5 = D + 1 layers for n ≡ 1 (mod 3) and D = 4 otherwise,
    least, from n = 28 — against the concrete engine (rooted views by canonical labelling) at every n ≤ 60 in range."""
    theorem = F.match([pattern(3, 7)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F44" and theorem.least
    assert int(theorem.low) == 28 and "F66" in theorem.why_layers and "far-star" in theorem.why_layers
    for n in range(28, 61):
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern(3, 7), n)
        assert got.least and got.diameter == want["diameter"] == 4, n
        assert want["layers"] == got.layers == (5 if n % 3 == 1 else 4), n


def test_f66_conditions_on_the_reference_arcs():
    """F66 on the reference arcs (tests/graphs/reference.py) for (3, 7) over one period of n mod 21 from 28: where the
    check finds the in-block swap, it changes only neighbourhoods at distance ≥ D from its root and is not a
    symmetry; where it finds the far-star premise, every block and class has two positions or more and at most one of
    them lies entirely at distance D from any root."""
    b, s = 3, 7
    for n in range(28, 50):
        pairs = attends(pattern(b, s), n)
        nb = {v: {v} | {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
        dist = all_distances(pairs, n)
        d = max(max(row.values()) for row in dist.values())
        kind = BS.pumping_verdict(n, b, s)[1]
        assert kind == ("X" if n % 3 == 1 else "Q" if n % 3 == 0 else "S"), n
        if kind == "X":
            root, (x, y) = BS.pumping_witness(n, b, s)
            image = {v: v for v in range(1, n + 1)} | {x: y, y: x}
            changed = [v for v in range(1, n + 1) if {image[u] for u in nb[v]} != nb[image[v]]]
            assert changed and min(dist[root][v] for v in changed) >= d, n
            continue
        stars = [{p for p in range(1, n + 1) if (p - 1) // b == k} for k in range(-(-n // b))]
        stars += [{p for p in range(1, n + 1) if p % s == c} for c in range(s)]
        assert all(len(st) >= 2 for st in stars), n
        assert all(sum(all(dist[root][p] == d for p in st) for st in stars) <= 1 for root in range(1, n + 1)), n


def _line_graph(edges):
    """The closed neighbourhoods of the line graph of a graph H given by its edge list (one head)."""
    m = len(edges)
    out = [frozenset()] + [frozenset(f + 1 for f in range(m) if set(edges[e]) & set(edges[f])) for e in range(m)]
    return [out]


def test_far_star_lemma_against_brute_force():
    """Theorem F65 (the far-star lemma) on line graphs of bipartite graphs H with every vertex of degree ≥ 2 (every
    star of two positions or more), at most 8 edges: wherever at most one star lies entirely at distance D from every
    root, brute force over S_n (tests/graphs/brute_views.py) finds no view witness at depth D (every such H with at
    most 8 edges meets the premise). The premise is not idle: `blocks(2) + strided(5)` at n = 19 has two blocks
    entirely at distance D from a root, and the concrete engine needs D + 1 layers there."""
    import itertools
    import random

    from .brute_views import diameter, distances_to, view_witness
    rng = random.Random(7)
    held = 0
    seen = set()
    for _ in range(400):
        left, right = rng.randint(2, 4), rng.randint(2, 4)
        cells = list(itertools.product(range(left), range(right)))
        edges = sorted(rng.sample(cells, rng.randint(4, min(8, len(cells)))))
        ends = [("L", a) for a, _ in edges] + [("R", c) for _, c in edges]
        if any(ends.count(x) < 2 for x in set(ends)) or tuple(edges) in seen:
            continue
        seen.add(tuple(edges))
        nbs = _line_graph([(("L", a), ("R", c)) for a, c in edges])
        n = len(edges)
        d = diameter(nbs, n)
        if d is None or d < 2:
            continue
        dist = distances_to(nbs, n)
        stars = [{e + 1 for e, x in enumerate(edges) if x[k] == v} for k in (0, 1) for v in {x[k] for x in edges}]
        premise = all(sum(all(dist[i][p] == d for p in st) for st in stars) <= 1 for i in range(1, n + 1))
        assert premise, edges
        held += 1
        assert view_witness(nbs, n, d) is None, edges
        if held >= 12:
            break
    assert held >= 12
    n = 19
    pairs = attends(pattern(2, 5), n)
    dist = all_distances(pairs, n)
    d = max(max(row.values()) for row in dist.values())
    stars = [{p for p in range(1, n + 1) if (p - 1) // 2 == k} for k in range(10)]
    stars += [{p for p in range(1, n + 1) if p % 5 == c} for c in range(5)]
    assert max(sum(all(dist[i][p] == d for p in st) for st in stars) for i in range(1, n + 1)) >= 2
    assert F.concrete(pattern(2, 5), n).layers == d + 1


def test_the_verifier_rechecks_f66_and_rejects_forged_counts():
    """The verifier re-derives `blocks(3) + strided(7)`'s count with its own F58/F66 check, and rejects 4 layers
    (one too low at n ≡ 1 mod 3) and 5 layers claimed least (one too many at the other n)."""
    import copy

    from uapcheck.verifier import REJECTED, VERIFIED, verify
    cert = _cert("blocks(3) + strided(7)")
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F66" in step.reason
    data = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]
    assert data["least"] is True
    for forged in (4, 5):
        bad = copy.deepcopy(cert)
        next(s for s in bad["steps"] if s["rule"] == "PAT-LAYERS")["data"]["layers"] = forged
        report = verify(bad)
        step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
        assert not report.ok and step.outcome == REJECTED and "F44" in step.reason, (forged, step.reason)


def _column_permutations_by_enumeration(vectors, s):
    """|T| by trying all s! column permutations (the definition)."""
    from collections import Counter
    from itertools import permutations
    count = Counter(vectors)
    total = 0
    for tau in permutations(range(s)):
        inverse = [0] * s
        for c, t in enumerate(tau):
            inverse[t] = c
        total += all(count[tuple(v[inverse[c]] for c in range(s))] == k for v, k in count.items())
    return total


@pytest.mark.parametrize("s", [2, 3, 4, 5, 6])
def test_column_permutations_cut_column_by_column_count_every_permutation(s):
    """The column-by-column search counts exactly the permutations the definition admits: on the row vectors of
    blocks(b) + strided(s) at every n ≤ 40 and on vectors with repeated, rotated and unequal rows."""
    import random
    rng = random.Random(s)
    cases = [BS.row_vectors(n, b, s) for b in range(2, 9) for n in range(1, 41)]
    for _ in range(60):
        base = tuple(rng.randint(0, 2) for _ in range(s))
        rotated = [tuple(base[(i + k) % s] for i in range(s)) for k in range(s)]
        cases.append(rotated + [tuple(rng.randint(0, 2) for _ in range(s)) for _ in range(rng.randint(0, 2))])
        cases.append([tuple(rng.randint(0, 1) for _ in range(s)) for _ in range(rng.randint(1, 6))])
    for vectors in cases:
        assert BS.column_permutations(vectors, s) == _column_permutations_by_enumeration(vectors, s), vectors


def _distances_by_search(nbrs):
    """{root: {p: d(root, p)}} by breadth-first search from every position."""
    dist = {}
    for root in nbrs:
        seen, frontier = {root: 0}, [root]
        while frontier:
            nxt = []
            for u in frontier:
                for v in nbrs[u]:
                    if v not in seen:
                        seen[v] = seen[u] + 1
                        nxt.append(v)
            frontier = nxt
        dist[root] = seen
    return dist


def _pumping_verdict_by_search(n, b, s):
    """F58/F66's conditions at n as first written: breadth-first search from every position of Γ, sets of positions
    (the reference for the distance matrix read off the block–residue incidence graph)."""
    nbrs = {p: {q for q in range(1, n + 1) if adjacent(b, s, p, q)} for p in range(1, n + 1)}
    dist = _distances_by_search(nbrs)
    d = max(max(x.values()) for x in dist.values())
    kinds: dict = {}
    for k in range(n // b):
        kinds.setdefault(frozenset(p % s for p in range(k * b + 1, k * b + b + 1)), []).append(k)
    common = True
    for root in sorted(dist, reverse=True):
        here = dist[root]
        for ks in kinds.values():
            far = [k for k in ks if all(here[k * b + j] >= d for j in range(1, b + 1))]
            if len(far) >= 2:
                return d, "W", (root, (far[0], far[1]))
        if common:
            ball = {v for v, x in here.items() if x < d}
            rim = [v for v, x in here.items() if x == d]
            common = all((v in nbrs[u]) == bool(nbrs[u] & nbrs[v] & ball) for a, u in enumerate(rim)
                         for v in rim[a + 1:])
    classes = {c: [p for p in range(1, n + 1) if p % s == c] for c in range(s)}
    for root in sorted(dist, reverse=True):
        far = {c for c, members in classes.items() if all(dist[root][p] >= d for p in members)}
        if len(far) >= 2:
            for k in range(n // b):
                inside = [p for p in range(k * b + 1, k * b + b + 1) if p % s in far]
                if len(inside) >= 2:
                    return d, "X", (root, (inside[0], inside[1]))
    if common:
        return d, "Q", None
    stars = [list(range(k * b + 1, min(n, k * b + b) + 1)) for k in range(-(-n // b))] + list(classes.values())
    if any(len(st) < 2 for st in stars):
        return d, "?", None
    rigid = all(sum(all(here[p] >= d for p in st) for st in stars) <= 1 for here in dist.values())
    return d, "S" if rigid else "?", None


@pytest.mark.parametrize("b, s", [(2, 3), (2, 5), (3, 5), (2, 7), (3, 7), (4, 7), (5, 7)])
def test_pumping_verdict_from_the_incidence_graph_agrees_with_the_search_on_positions(b, s):
    """Every verdict kind (W, X, Q, S, ?) and witness of pumping_verdict, from distances read off H, equals the one
    the breadth-first search on the positions gives, over one period from F44's start and around 4bL."""
    period = b * (s // gcd(b, s))
    low = BS.low_below(b, s)
    for n in [*range(low, low + period), *range(4 * period, 4 * period + 3)]:
        if n >= low:
            assert BS.pumping_verdict(n, b, s) == _pumping_verdict_by_search(n, b, s), n
