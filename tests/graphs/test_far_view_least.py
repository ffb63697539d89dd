"""Theorem F111 (docs/theory.md §11.9) and the swap of Theorem F99 (a) at one n (graphs/far_view_least.py): for one
symmetric head, a swap of two positions at distance D with the same neighbours within D − 1 (not twins) shows D + 1
layers least, and a far-adjacency table read off the colours of the ball shows D layers enough. Each answer is
compared with the concrete engine's rooted views (canonical labelling) at every n it gives one for, n ≤ 60, for
several unions, and with brute force over S_n (tests/graphs/brute_views.py) at n ≤ 8, random symmetric heads
included; the lengths below the catalog's ranges that the check decides agree with the rooted views."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.families import concrete
from uapcheck.graphs.far_view_least import closed_neighbourhoods, quick_count
from uapcheck.groups import orbits
from uapcheck.parse import parse_source

from .brute_views import least_layers, neighbourhoods


def _head(pattern: str, n: int):
    spec = parse_source(f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n", "t.uap")
    return spec.heads[0].pattern


def _quick(pattern: str, n: int):
    """(D, the check's answer or None), the roots one per orbit of the engine's group."""
    graph = build_graph(_head(pattern, n), n, {})
    conn = analyze_connectivity([graph])
    grp = symmetry_group([graph])
    reps = sorted(set(orbits(n, grp.generators))) if grp.generators is not None else sorted(set(grp.orbit_of))
    diameter = int(conn.diameter)
    return diameter, quick_count(graph, diameter, [r + 1 for r in reps])


UNIONS = ["blocks(4) + window(1) + strided(7)", "strided(5) + dilated(2, 3)", "strided(6) + window(1) + dilated(1, 3)",
          "strided(3) + strided(4) + strided(5)", "window(1) cyclic + dilated(2, 4)", "blocks(5) + window(2) + strided(4)",
          "blocks(3) + dilated(2, 2)", "window(2) cyclic", "strided(4) + dilated(1, 5)", "blocks(8) + window(1) + strided(8)"]


@pytest.mark.parametrize("pattern", UNIONS)
def test_the_answers_agree_with_the_rooted_views(pattern):
    """Wherever the check answers (n from 12 to 60, every third length), the rooted views give the same count."""
    answered = 0
    for n in range(12, 61, 3):
        diameter, found = _quick(pattern, n)
        if found is None or diameter < 2:
            continue
        answered += 1
        exact = concrete(_head(pattern, n), n)
        assert exact.least and exact.diameter == diameter
        assert exact.layers == (diameter if found.sufficient else diameter + 1), (pattern, n, found)
    assert answered >= 3, pattern  # the check decides something for every union listed


def test_the_catalog_lengths_below_the_range_are_decided_by_the_check():
    """blocks(4) + window(1) + strided(7) below Theorem F93's range: a swap at every n ≢ 0 (mod 4), the table at every
    n ≡ 0 (mod 4), from 61 to 115, and (sampled) the rooted views agree."""
    for n in range(61, 116):
        diameter, found = _quick("blocks(4) + window(1) + strided(7)", n)
        assert diameter == 3 and found is not None, n
        assert found.sufficient == (n % 4 == 0), n
    for n in (64, 65, 66, 67, 112, 113):
        exact = concrete(_head("blocks(4) + window(1) + strided(7)", n), n)
        assert exact.layers == (3 if n % 4 == 0 else 4)


@pytest.mark.parametrize("pattern,n", [("blocks(4) + window(1) + strided(7)", 8), ("strided(3) + dilated(1, 5)", 8),
                                       ("window(2) cyclic", 8), ("strided(3) + window(1)", 7),
                                       ("blocks(3) + window(1) + strided(4)", 7), ("strided(2) + dilated(1, 3)", 7)])
def test_the_answers_agree_with_brute_force(pattern, n):
    diameter, found = _quick(pattern, n)
    if found is None or diameter < 2:
        pytest.skip("the check does not answer here")
    brute = least_layers(neighbourhoods([pattern], n), n)
    assert brute == (diameter if found.sufficient else diameter + 1)


def _random_symmetric_edges(n: int, rng: random.Random) -> str:
    pairs = {(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1) if rng.random() < 0.4}
    for i in range(1, n):  # a path keeps the head connected
        pairs.add((i, i + 1))
    arcs = [f"{i} -> {j}, {j} -> {i}" for i, j in sorted(pairs)]
    return "edges {" + ", ".join(arcs) + "}"


def test_random_symmetric_heads_against_brute_force():
    """Sixty random symmetric heads at n = 6, 7: every answer the check gives is the brute-force least count, and it
    answers for most of them (both kinds)."""
    rng = random.Random(111)
    kinds = {True: 0, False: 0}
    for k in range(60):
        n = 6 + k % 2
        pattern = _random_symmetric_edges(n, rng)
        diameter, found = _quick(pattern, n)
        if found is None or diameter < 2:
            continue
        kinds[found.sufficient] += 1
        brute = least_layers(neighbourhoods([pattern], n), n)
        assert brute == (diameter if found.sufficient else diameter + 1), (pattern, found)
    assert kinds[True] >= 5 and kinds[False] >= 5, kinds


def test_the_check_declines_what_it_does_not_cover():
    """An asymmetric head, the complete head and a diameter below 2 get no answer."""
    n = 12
    graph = build_graph(_head("offsets {-3, 9}", n), n, {})
    assert closed_neighbourhoods(graph) is None
    assert quick_count(graph, 3, list(range(1, n + 1))) is None
    full = build_graph(_head("full", n), n, {})
    assert quick_count(full, 1, [1]) is None
