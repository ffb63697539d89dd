"""Colour refinement with arc labels as the symmetry engine's shortcut past BLISS on a labelled union (several
heads, or a biased head: docs/theory.md §11.6, "Colour refinement first", with arc labels), each against what it
stands in for.

Covered: every labelled refined colouring is kept by every permutation that keeps the labelled arcs, and reaching one
colour per labelled twin class means |G| = ∏ |C|!, both against brute force over all permutations of random
labelled digraphs on up to 6 positions; the group with refinement first against BLISS alone (thresholds lowered) on
random heads with planted twins, with and without a bias; a large pair of random heads counted by refinement with no
igraph graph made."""
from __future__ import annotations

import itertools
import math
import random

import numpy as np

from uapcheck.graphs import build_graph
from uapcheck.graphs import symmetry as sym_mod
from uapcheck.graphs.build import PatternGraph, _derived
from uapcheck.graphs.refinement import refined_colours
from uapcheck.spec import PatternUnion, RandomPattern, Window


def _labelled(rng, n, heads, p):
    """Random arcs of ``heads`` heads: {code: label}, the label the set of heads holding the arc (numbered 0, 1, …)."""
    joint: dict[int, int] = {}
    for h in range(heads):
        for a in range(n):
            for b in range(n):
                if a != b and rng.random() < p:
                    joint[a * n + b] = joint.get(a * n + b, 0) | 1 << h
    ids: dict[int, int] = {}
    return {c: ids.setdefault(m, len(ids)) for c, m in sorted(joint.items())}, max(1, len(ids))


def _keeps(perm, n, arcs: dict) -> bool:
    return all(arcs.get(perm[c // n] * n + perm[c % n]) == lab for c, lab in arcs.items())


def _labelled_twin_classes(n, arcs):
    parent = list(range(n))
    for a in range(n):
        for b in range(a + 1, n):
            swap = list(range(n))
            swap[a], swap[b] = b, a
            if parent[b] == b and _keeps(swap, n, arcs):
                parent[b] = parent[a]
    sizes = [sum(parent[v] == r for v in range(n)) for r in set(parent)]
    return len(sizes), sizes


def _refined(n, arcs, num_labels):
    codes = np.asarray(sorted(arcs), dtype=np.int64)
    labels = np.asarray([arcs[c] for c in codes.tolist()], dtype=np.int64)
    return refined_colours(codes // n, codes % n, n, labels=labels, num_labels=num_labels)


def test_labelled_refinement_is_kept_and_twin_classes_give_the_group():
    rng = random.Random(20261207)
    reached = 0
    for trial in range(70):
        n = rng.choice((3, 4, 5, 6))
        arcs, labels = _labelled(rng, n, rng.choice((2, 3)), rng.choice((0.2, 0.35, 0.5)))
        colour = _refined(n, arcs, labels).tolist()
        group = [p for p in itertools.permutations(range(n)) if _keeps(p, n, arcs)]
        for perm in group:
            assert all(colour[perm[v]] == colour[v] for v in range(n)), (trial, perm)
        classes, sizes = _labelled_twin_classes(n, arcs)
        count = len(set(colour))
        assert count <= classes  # labelled twins share a colour
        if count == classes:
            reached += 1
            assert len(group) == math.prod(math.factorial(s) for s in sizes), (trial, sorted(arcs.items()))
    assert reached > 30


def test_labels_split_what_the_bare_arcs_do_not():
    # a directed 4-cycle: refinement of the bare arcs leaves one colour (the rotations); one arc labelled apart
    # leaves only the identity, and the labelled refinement tells every position apart
    n = 4
    arcs = {0 * n + 1: 1, 1 * n + 2: 0, 2 * n + 3: 0, 3 * n + 0: 0}
    assert len(set(_refined(n, {c: 0 for c in arcs}, 1).tolist())) == 1
    assert sorted(_refined(n, arcs, 2).tolist()) == [0, 1, 2, 3]


def _heads_with_planted_twins(rng, base, p, heads):
    """Random heads on ``base`` positions, then copies v of positions u made in every head alike (v gets u's arcs in
    each head; sometimes u ↔ v in every head): planted labelled twins."""
    arcs = [{(a, b) for a in range(base) for b in range(base) if a != b and rng.random() < p} for _ in range(heads)]
    n = base
    for _ in range(rng.choice((0, 1, 2, 3))):
        u = rng.randrange(base)
        closed = rng.random() < 0.5
        for _ in range(rng.choice((1, 1, 2))):
            v = n
            n += 1
            for h in range(heads):
                arcs[h] |= {(v, b) for a, b in arcs[h] if a == u} | {(a, v) for a, b in arcs[h] if b == u}
                if closed:
                    arcs[h] |= {(u, v), (v, u)}
    return [PatternGraph(n, frozenset(a * n + b for a, b in head)) for head in arcs]


def _group(monkeypatch, graphs, biases, refine: bool):
    monkeypatch.setattr(sym_mod, "REFINE_MIN_ARCS", 1 if refine else 10 ** 9)
    sym_mod._JOINT.clear()
    found = sym_mod.symmetry_group(graphs, biases)
    return found, (found.order, found.name, found.structure, found.order_text, found.generators)


def test_the_labelled_group_with_refinement_first_is_blisss(monkeypatch):
    rng = random.Random(5)
    refined = 0
    for trial in range(60):
        heads = rng.choice((2, 3))
        graphs = _heads_with_planted_twins(rng, rng.choice((6, 9, 12)), rng.choice((0.15, 0.3, 0.5)), heads)
        biases = [None] * heads
        if rng.random() < 0.3:
            biases[0] = rng.choice(("toeplitz", "symmetric toeplitz", "circulant"))
        by_bliss, expected = _group(monkeypatch, graphs, biases, False)
        by_refinement, got = _group(monkeypatch, graphs, biases, True)
        assert got == expected, (trial, by_bliss.method, by_refinement.method)
        refined += by_refinement.method.startswith("colour refinement")
    assert refined > 25


def test_two_large_random_heads_are_counted_by_refinement():
    n = 16384  # the union holds about 98,000 arcs, past REFINE_MIN_ARCS
    graphs = [build_graph(PatternUnion((Window(1), RandomPattern(2, seed=s))), n) for s in (1, 2)]
    found = sym_mod.symmetry_group(graphs)
    assert found.method.startswith("colour refinement") and "labelled layer" in found.method
    assert found.order == 1
    assert all("igraph" not in _derived(g) for g in graphs)
