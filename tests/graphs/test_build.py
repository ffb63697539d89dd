"""Arc sets: the arithmetic generator against the pair-by-pair definition of LANGUAGE.md."""
import random
import time

import pytest

from uapcheck.graphs import GraphTooLarge, build_graph, resolve, union_graph
from uapcheck.spec import (Blocks, Causal, Dilated, Edges, Full, Global, Offsets, PatternUnion,
                           RandomPattern, Star, Strided, Window)

from .reference import attends

PATTERNS = [
    Full(), Causal(), Star(),
    Window(0), Window(1), Window(2), Window(3), Window("w"),
    Window(1, cyclic=True), Window(2, cyclic=True), Window(3, cyclic=True),
    Offsets((0, 1, 2), cyclic=True), Offsets((1, -2)), Offsets((-1,)), Offsets((3, -3, 5)),
    Offsets(("a", "-a")), Offsets((2, 7, -9), cyclic=True), Offsets((-3,), cyclic=True),
    Dilated(1, 2), Dilated(2, 3), Dilated(2, 1), Dilated("w", "a"),
    Strided(1), Strided(2), Strided(3),
    Blocks(1), Blocks(2), Blocks(3),
    Global(0), Global(1), Global(2), Global(20),
    RandomPattern(2, seed=5), RandomPattern(3, seed=0),
    Edges(((1, 2), (2, 3), (3, 1))),
    PatternUnion((Window(1), Global(1))),
    PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
    PatternUnion((Strided(3), Window(1))),
    PatternUnion((Causal(), Window(2))),
]


@pytest.mark.parametrize("pattern", PATTERNS, ids=repr)
def test_arcs_match_definition(pattern):
    params = {"w": 2, "a": 3}
    for n in range(1, 13):
        if isinstance(pattern, RandomPattern) and pattern.r > n:
            continue
        if isinstance(pattern, PatternUnion) and any(isinstance(p, RandomPattern) for p in pattern.parts) and n < 3:
            continue
        if isinstance(pattern, Edges) and n < 3:
            continue
        g = build_graph(pattern, n, params)
        expected = attends(pattern, n, params)
        got = {(i, j) for (j, i) in g.arcs()}
        assert got == expected, (pattern, n)
        assert g.complete == (len(expected) == n * (n - 1))
        for (i, j) in list(expected)[:20]:
            assert g.has_arc(j, i) and g.attends(i, j)


def test_direction_is_key_to_query():
    g = build_graph(Edges(((1, 2),)), 3)  # 1 attends to 2: information flows 2 -> 1
    assert list(g.arcs()) == [(2, 1)]
    assert g.has_arc(2, 1) and not g.has_arc(1, 2)
    assert g.attends(1, 2) and not g.attends(2, 1) and g.attends(3, 3)


def test_random_pattern_is_seeded_sample_per_query():
    n, r, seed = 50, 3, 11
    g = build_graph(RandomPattern(r, seed), n)
    rng = random.Random(seed)
    expected = set()
    for i in range(1, n + 1):
        for j in rng.sample(range(1, n + 1), r):
            if j != i:
                expected.add((j, i))
    assert set(g.arcs()) == expected
    assert build_graph(RandomPattern(r, seed), n) == g  # reproducible


def test_full_is_not_materialised():
    g = build_graph(Full(), 10 ** 6)
    assert g.complete and g.codes == frozenset() and g.num_arcs == 10 ** 6 * (10 ** 6 - 1)
    assert build_graph(PatternUnion((Window(1), Full())), 10 ** 6).complete


def test_budget_and_errors():
    with pytest.raises(GraphTooLarge):
        build_graph(Causal(), 100_000)
    with pytest.raises(ValueError):
        build_graph(RandomPattern(5, 0), 4)
    with pytest.raises(ValueError):
        build_graph(Edges(((1, 9),)), 4)
    with pytest.raises(KeyError):
        build_graph(Window("w"), 5)
    with pytest.raises(ValueError):
        build_graph(Window(-1), 5)
    assert resolve("-a", {"a": 4}) == -4 and resolve(7, {}) == 7


def test_union_graph():
    a, b = build_graph(Offsets((1,), True), 6), build_graph(Offsets((-1,), True), 6)
    u = union_graph([a, b])
    assert u == build_graph(Window(1, True), 6)
    assert union_graph([a, build_graph(Full(), 6)]).complete


def test_bigbird_65536_builds_fast():
    t = time.perf_counter()
    g = build_graph(PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))), 65536)
    elapsed = time.perf_counter() - t
    assert 800_000 < g.num_arcs < 900_000
    assert elapsed < 5.0  # about 0.5 s on the reference machine; generous for CI noise


@pytest.mark.parametrize("r", [0, 1, 2, 3, 5, 6, 9])
def test_random_rows_are_the_documented_samples(r):
    """`random(r, seed)`: query i's keys are the i-th `Random(seed).sample(range(1, n + 1), r)`, also
    where large n draws them without calling `sample`."""
    import random

    from uapcheck.graphs.build import random_rows
    for n in (max(r, 1), 30, 4096, 9000):
        for seed in (0, 1, 12345):
            rng = random.Random(seed)
            assert random_rows(seed, n, r) == [rng.sample(range(1, n + 1), r) for _ in range(n)], (n, seed)


@pytest.mark.parametrize("r", [1, 2, 3, 5])
def test_random_codes_are_the_codes_of_the_documented_rows(r, monkeypatch):
    """Large n draws `random(r, seed)` from the generator's 32-bit words in bulk (numpy): the same
    codes, query by query, as the rows of `random_rows`; passes of a few rows exercise the rows that
    repeat a candidate at a pass boundary."""
    from uapcheck.graphs import build as build_mod
    for n in (4096, 5000):
        for seed in (0, 3):
            rows = build_mod.random_rows(seed, n, r)
            expected = [(j - 1) * n + i0 for i0, row in enumerate(rows) for j in row]
            assert build_mod.random_codes(seed, n, r) == expected, (n, seed)
            monkeypatch.setattr(build_mod, "ROWS_PER_PASS", 7)
            assert build_mod.random_codes(seed, n, r) == expected, (n, seed, "short passes")
            monkeypatch.undo()
    assert build_mod.random_codes(0, 100, r) is None  # small n: the rows themselves


@pytest.mark.parametrize("r", [2, 3, 5, 6, 9])
def test_fast_rows_probe_draws_repeats_and_rejections(r):
    """The once-per-r probe that licenses the fast draws covers both paths of `sample`'s rejection loop:
    rows that draw a candidate twice, and draws of n or more."""
    import random

    from uapcheck.graphs import build as build_mod
    n = build_mod._sample_threshold(r) + build_mod.PROBE_ABOVE_THRESHOLD
    bits, k = random.Random(20261201).getrandbits, n.bit_length()
    repeats = too_large = 0
    for _ in range(build_mod.PROBE_ROWS):
        row: list[int] = []
        while len(row) < r:
            j = bits(k)
            too_large += j >= n
            repeats += j < n and j + 1 in row
            if j < n and j + 1 not in row:
                row.append(j + 1)
    assert repeats >= 5 and too_large >= 5
    build_mod._FAST_ROWS_AGREE.pop(r, None)
    build_mod._WORD_ROWS_AGREE.pop(r, None)
    assert build_mod._fast_rows(r) == (True, True)


def test_complete_graphs_on_n_share_their_derived_forms_which_equal_a_fresh_build(monkeypatch):
    """Two complete graphs on the same n (a head's and a union's, built apart) share one set of derived forms, made
    once; each form equals the one a graph not shared makes for itself; another n has its own; memo.clear_caches()
    forgets them (a graph built afterwards makes them afresh)."""
    from uapcheck.graphs import build
    from uapcheck.graphs.connectivity import adjacency_lists
    from uapcheck.memo import clear_caches
    first, second = build_graph(Window(20), 12), union_graph([build_graph(Full(), 12), build_graph(Window(1), 12)])
    assert first.complete and second.complete and first is not second
    assert build.endpoints(first) is build.endpoints(second)
    assert adjacency_lists(first) is adjacency_lists(second)
    assert build.endpoints(build_graph(Full(), 13)) is not build.endpoints(first)
    monkeypatch.setattr(build, "SHARED_COMPLETE_MAX_N", 0)  # no sharing: the graph's own forms
    alone = build_graph(Full(), 12)
    assert build.endpoints(alone) is not build.endpoints(first)
    assert build.endpoints(alone) == build.endpoints(first)
    assert list(build.arc_codes(alone)) == list(build.arc_codes(first))
    assert adjacency_lists(alone) == adjacency_lists(first)
    assert build.neighbour_lists(alone, "in") == build.neighbour_lists(first, "in")
    monkeypatch.undo()
    clear_caches()
    assert build.endpoints(build_graph(Full(), 12)) is not build.endpoints(first)


@pytest.mark.parametrize("n", [2, 3, 7, 64, 129])
def test_complete_graphs_adjacency_lists_are_the_arcs_grouped_in_their_order(n):
    """A complete graph's adjacency lists (made from the positions when its arcs come in ascending codes) equal the
    lists the arc-by-arc loop makes from `endpoints`, and a graph whose arcs are not listed so takes the loop."""
    from uapcheck.graphs import build, connectivity
    g = build_graph(Full(), n)
    sources, targets = build.endpoints(g)
    outs, ins = [[] for _ in range(n)], [[] for _ in range(n)]
    for j0, i0 in zip(sources, targets):
        outs[j0].append(i0)
        ins[i0].append(j0)
    assert connectivity._complete_in_code_order(n, sources, targets)
    assert connectivity.adjacency_lists(g) == (outs, ins)
    if n > 2:
        assert not connectivity._complete_in_code_order(n, sources[::-1], targets[::-1])


@pytest.mark.parametrize("pattern, n", [(PatternUnion((Window(1), RandomPattern(2, seed=1))), 16_384),
                                        (PatternUnion((Window(3), Global(2))), 8_192),
                                        (Edges(((1, 1), (1, 2), (2, 1), (2, 3), (3, 3), (5, 1))), 6)])
def test_large_graphs_neighbour_lists_are_igraphs_read_off_the_rows(pattern, n, monkeypatch):
    """From NUMPY_DECODE_ARCS arcs on, the neighbour lists are read off the compressed rows without building the
    igraph graph: equal to igraph's lists (ascending, the position itself left out when it has a loop), either way."""
    from uapcheck.graphs import build
    if n < 100:  # a small list with loops, through the same path
        monkeypatch.setattr(build, "NUMPY_DECODE_ARCS", 1)
    g = build_graph(pattern, n)
    assert build._decoded_by_numpy(g)
    got = {mode: build.neighbour_lists(g, mode) for mode in ("out", "in")}
    assert "igraph" not in build._derived(g)
    for mode in ("out", "in"):
        assert got[mode] == build.to_igraph(g).neighborhood(None, order=1, mode=mode, mindist=1)
