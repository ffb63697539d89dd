"""Colour refinement as the symmetry engine's shortcut past BLISS (graphs.refinement), and the large-graph
paths that no longer build an igraph graph: each against what it stands in for.

Covered: the refinement's verdict against brute-force automorphism counts on small random digraphs (it
reaches one colour per twin class only when G = ∏ Sym(C)); the group with refinement first against BLISS
alone (thresholds lowered) on random digraphs with planted twins and on graphs refinement cannot split
(vertex-transitive, regular), which must fall back to BLISS; the orbits of generators against a plain
union-find over every point; neighbour lists and out-degrees read off the compressed rows against
igraph's; and the connectivity probe loop on arc arrays leaving the igraph graph unmade."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from .reference import count_automorphisms
from uapcheck.graphs import analyze_connectivity, build_graph
from uapcheck.graphs import symmetry as sym_mod
from uapcheck.graphs.arc_arrays import graph_csr
from uapcheck.graphs.build import LazyNeighbours, PatternGraph, _derived, out_degrees, to_igraph
from uapcheck.graphs.refinement import cells, refined_colours
from uapcheck.groups import orbits
from uapcheck.spec import Global, PatternUnion, RandomPattern, Window


def _arrays(n, arcs):
    codes = np.asarray(sorted(a * n + b for a, b in arcs), dtype=np.int64)
    return codes // n, codes % n


def _random_arcs(rng, n, p):
    return {(a, b) for a in range(n) for b in range(n) if rng.random() < p}


def _twin_class_count(n, arcs):
    def swapped(a, b):
        image = {({a: b, b: a}.get(x, x), {a: b, b: a}.get(y, y)) for x, y in arcs}
        return image == arcs
    parent = list(range(n))
    for a in range(n):
        for b in range(a + 1, n):
            if parent[b] == b and swapped(a, b):
                parent[b] = parent[a]
    return n - sum(parent[v] != v for v in range(n)), [sum(parent[v] == r for v in range(n)) for r in set(parent)]


def _colours(src, dst, n):
    colour = refined_colours(src, dst, n)
    return None if colour is None else int(colour.max()) + 1


def test_as_many_colours_as_twin_classes_means_the_group_is_their_product():
    rng = random.Random(20261202)
    reached = 0
    for trial in range(150):
        n = rng.choice((3, 4, 5, 6))
        arcs = _random_arcs(rng, n, rng.choice((0.2, 0.4, 0.6)))
        classes, sizes = _twin_class_count(n, arcs)
        src, dst = _arrays(n, arcs)
        brute = count_automorphisms(n, lambda u, v, arcs=arcs: (u - 1, v - 1) in arcs)
        count = _colours(src, dst, n)
        assert count is not None and count <= classes  # twins share a colour
        if count == classes:
            reached += 1
            assert brute == math.prod(math.factorial(s) for s in sizes), (trial, n, sorted(arcs))
    assert reached > 60  # most random digraphs refine down to their twin classes


def test_refined_colours_are_kept_by_every_automorphism():
    # an automorphism maps each position to one of the same colour: checked against all permutations
    import itertools
    rng = random.Random(11)
    for _ in range(40):
        n = rng.choice((4, 5, 6))
        arcs = _random_arcs(rng, n, 0.35)
        src, dst = _arrays(n, arcs)
        colour = refined_colours(src, dst, n).tolist()
        for perm in itertools.permutations(range(n)):
            if {(perm[a], perm[b]) for a, b in arcs} == arcs:
                assert all(colour[perm[v]] == colour[v] for v in range(n))


def test_refinement_never_splits_a_vertex_transitive_graph():
    for n in (5, 8, 13):
        cycle = {(a, (a + 1) % n) for a in range(n)}
        src, dst = _arrays(n, cycle)
        assert _colours(src, dst, n) == 1  # C_n acts transitively: one colour stays
    # a regular graph: K_{3,3} minus a perfect matching (a 6-cycle), arcs both ways; every position has the
    # same degrees, so refinement keeps one colour and the count is left to BLISS
    arcs = {(a, b) for a in range(3) for b in range(3, 6) if b - 3 != a}
    arcs |= {(b, a) for a, b in arcs}
    src, dst = _arrays(6, arcs)
    assert _colours(src, dst, 6) == 1


def test_cells_are_the_colours_of_two_or_more():
    import numpy as np
    assert cells(np.asarray([2, 0, 2, 1, 0, 3])) == [[0, 2], [1, 4]]
    assert cells(np.asarray([0, 1, 2])) == []
    src, dst = _arrays(3, {(0, 1), (1, 2)})
    assert refined_colours(src, dst, 0) is None


def _with_planted_twins(rng, base, p):
    arcs = {(a, b) for a in range(base) for b in range(base) if a != b and rng.random() < p}
    n = base
    for _ in range(rng.choice((0, 1, 2, 3))):
        u = rng.randrange(base)
        for _ in range(rng.choice((1, 1, 2))):
            v = n
            n += 1
            arcs |= {(v, b) for a, b in arcs if a == u} | {(a, v) for a, b in arcs if b == u}
            if rng.random() < 0.5:
                arcs |= {(u, v), (v, u)}
    return PatternGraph(n, frozenset(a * n + b for a, b in arcs))


def _group(monkeypatch, g, refine: bool):
    monkeypatch.setattr(sym_mod, "REFINE_MIN_ARCS", 1 if refine else 10 ** 9)
    found = sym_mod.symmetry_group([g])
    return found, (found.order, found.name, found.structure, found.order_text, found.generators)


def test_the_group_with_refinement_first_is_blisss(monkeypatch):
    rng = random.Random(7)
    refined = 0
    for trial in range(80):
        g = _with_planted_twins(rng, rng.choice((6, 9, 14)), rng.choice((0.15, 0.3, 0.5)))
        by_bliss, expected = _group(monkeypatch, g, False)
        assert "BLISS" in by_bliss.method
        by_refinement, got = _group(monkeypatch, g, True)
        assert got == expected, trial
        refined += by_refinement.method.startswith("colour refinement")
    assert refined > 40


@pytest.mark.parametrize("n", [12, 17])
def test_graphs_refinement_cannot_split_go_to_bliss(monkeypatch, n):
    g = build_graph(Window(2, cyclic=True), n)  # D_n: every position alike
    found, got = _group(monkeypatch, g, True)
    assert "BLISS" in found.method and found.order == 2 * n
    assert got == _group(monkeypatch, g, False)[1]


def test_a_large_random_pattern_is_counted_by_refinement():
    g = build_graph(PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))), 4096)
    found = sym_mod.symmetry_group([g])
    assert found.method.startswith("colour refinement") and found.order == 2
    assert "igraph" not in _derived(g)  # neither BLISS nor the twins' neighbour lists needed it


def test_refinement_stopped_at_twin_classes_ends_as_the_full_rounds(monkeypatch):
    """The rounds stop once the colours of two or more positions are twin classes: the same classes as running
    refinement until it adds no colour (checked with the early stop off), here and on planted twins."""
    rng = random.Random(11)
    graphs = [_with_planted_twins(rng, rng.choice((9, 14)), rng.choice((0.15, 0.3))) for _ in range(40)]
    graphs.append(build_graph(PatternUnion((Window(3), Global(3), RandomPattern(3, seed=0))), 4096))
    for g in graphs:
        st = sym_mod._structure([g], None, "none")
        early = sym_mod._refined_twin_classes(st)
        monkeypatch.setattr(sym_mod, "EARLY_TWIN_CHECK", -1)
        assert sym_mod._refined_twin_classes(sym_mod._structure([g], None, "none")) == early
        monkeypatch.undo()
    assert early is not None and [c for c in early if len(c) > 1] == [[0, 1, 2]]


def test_permutations_moving_few_points_are_checked_on_rows_as_on_codes(monkeypatch):
    """`_preserves_arrays` on the moved points' rows (few moved) against the image look-up in the sorted codes
    and against the arc set itself: twin swaps, other swaps, 3-cycles, non-permutations."""
    rng = random.Random(5)
    kept_count = 0
    for trial in range(30):
        g = _with_planted_twins(rng, rng.choice((9, 14)), rng.choice((0.15, 0.3, 0.5)))
        n, arcs = g.n, {(c // g.n, c % g.n) for c in g.codes}
        swaps = [[a, b] for a in range(n) for b in range(a + 1, n)]
        for moved in swaps + [rng.sample(range(n), 3) for _ in range(5)]:
            p0 = list(range(n))
            for a, b in zip(moved, moved[1:] + moved[:1]):
                p0[a] = b
            perm = tuple(x + 1 for x in p0)
            kept = {(p0[a], p0[b]) for a, b in arcs} == arcs
            kept_count += kept
            assert sym_mod._preserves_arrays(g, perm) is kept, trial
            monkeypatch.setattr(sym_mod, "FEW_MOVED_POINTS", -1)
            assert sym_mod._preserves_arrays(g, perm) is kept, trial
            monkeypatch.undo()
        assert sym_mod._preserves_arrays(g, (1,) * n) is False
        assert sym_mod._preserves_arrays(g, tuple(range(1, n)) + (1.5,)) is None
    assert kept_count >= 20  # the planted twins' swaps, among others


def _orbits_everywhere(n, generators):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x
    for perm in generators:
        for x in range(n):
            a, b = find(x), find(perm[x] - 1)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return [find(x) for x in range(n)]


def test_orbits_visit_only_moved_points_and_agree_with_every_point():
    rng = random.Random(3)
    for _ in range(400):
        n = rng.randint(1, 25)
        gens = []
        for _ in range(rng.randint(0, 3)):
            moved = rng.sample(range(n), rng.randint(0, n))
            images = moved[:]
            rng.shuffle(images)
            perm = list(range(1, n + 1))
            for a, b in zip(moved, images):
                perm[a] = b + 1
            gens.append(tuple(perm))
        assert orbits(n, gens) == _orbits_everywhere(n, gens)


@pytest.mark.parametrize("pattern", [PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
                                     PatternUnion((Window(1), RandomPattern(2, seed=1)))], ids=str)
def test_neighbours_from_the_rows_are_igraphs(pattern):
    n = 300
    g = build_graph(pattern, n)
    igraph_lists = {mode: [to_igraph(g).neighbors(v, mode=mode) for v in range(n)] for mode in ("out", "in")}
    degrees = to_igraph(g).outdegree()
    fresh = build_graph(pattern, n)
    graph_csr(fresh, "out"), graph_csr(fresh, "in")
    for mode in ("out", "in"):
        lazy = LazyNeighbours(fresh, mode)
        assert [lazy[v] for v in range(n)] == igraph_lists[mode]
    assert out_degrees(fresh) == degrees
    assert "igraph" not in _derived(fresh)


def test_the_probe_loop_on_arc_arrays_makes_no_igraph_graph():
    n = 14000  # above the arcs from which probes are batched
    g = build_graph(PatternUnion((Window(1), RandomPattern(2, seed=1))), n)
    conn = analyze_connectivity([g], union_automorphisms=[tuple(range(1, n + 1))])  # its group: trivial
    assert conn.strongly_connected and conn.lower >= 1 and conn.upper >= conn.lower
    assert "igraph" not in _derived(g)
