"""Large pattern graphs kept as sorted code arrays, and BLISS with the twins pinned, against the set-based
build and the twin quotient they stand in for at large n (thresholds lowered so small graphs take both).

Covered: the codes `_add` puts into a `_CodeChunks` against the set it fills (every pattern kind, cyclic,
with and without self-loops and repeats), a graph built on arrays against the set-built one (equality,
hash, membership, arcs, union), and |Aut(quotient)| from the pinned count against the quotient's own on
random directed graphs, connected or not, with planted twin classes (open and closed, of sizes 2 to 4)."""
from __future__ import annotations

import random

import pytest

from uapcheck.graphs import build as build_mod
from uapcheck.graphs import symmetry as sym_mod
from uapcheck.graphs.build import (PatternGraph, _add, _CodeChunks, build_graph, code_array, endpoints,
                                   union_graph)
from uapcheck.spec import (Blocks, Blockwise, Causal, Columns, Dilated, Edges, Global, GlobalAt, Offsets,
                           PatternUnion, RandomPattern, Sinks, Star, Strided, Window)

PATTERNS = [
    Window(3), Window(2, cyclic=True), Offsets((1, -3, 5)), Offsets((2, -7), cyclic=True), Dilated(2, 3),
    Strided(4), Blocks(5), Global(2), Star(), RandomPattern(3, seed=4), Edges(((1, 2), (3, 3), (5, 1), (2, 1))),
    Sinks(2), GlobalAt((1, 4)), Columns(4, 2), Causal(),
    PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0))),
    PatternUnion((Window(1), RandomPattern(2, seed=1), Edges(((2, 9),)))),
    Blockwise(2, PatternUnion((Window(1), Global(1)))),
]


def _set_codes(pattern, n):
    out: set[int] = set()
    _add(out, pattern, n, {})
    out.difference_update(range(0, n * n, n + 1))
    return sorted(out)


@pytest.mark.parametrize("pattern", PATTERNS, ids=str)
def test_code_chunks_hold_the_codes_of_the_set(pattern):
    for n in (10, 24, 32):
        chunks = _CodeChunks()
        _add(chunks, pattern, n, {})
        assert chunks.array(n).tolist() == _set_codes(pattern, n)


def test_random_codes_on_arrays_match_the_set_above_the_word_threshold():
    # random(r) draws through `_sample_rows_by_words` from n = 4,096 on: the array path must draw the same
    for pattern in (RandomPattern(3, seed=0), PatternUnion((Window(1), RandomPattern(2, seed=1)))):
        chunks = _CodeChunks()
        _add(chunks, pattern, 5000, {})
        assert chunks.array(5000).tolist() == _set_codes(pattern, 5000)


def _on_arrays(pattern, n):
    chunks = _CodeChunks()
    _add(chunks, pattern, n, {})
    return PatternGraph.from_sorted_codes(n, chunks.array(n))


@pytest.mark.parametrize("pattern", PATTERNS[:10], ids=str)
def test_a_graph_on_arrays_is_the_set_built_graph(pattern):
    n = 30
    by_set = build_graph(pattern, n)
    by_array = _on_arrays(pattern, n)
    assert by_array._array_only()
    assert by_array == by_set and by_set == by_array and hash(by_array) == hash(by_set)
    assert by_array.num_arcs == by_set.num_arcs
    assert all(by_array.has_arc(j, i) == by_set.has_arc(j, i) for j in range(0, n + 2) for i in range(0, n + 2))
    assert list(by_array.arcs()) == list(by_set.arcs())
    assert by_array._array_only()  # nothing above made the frozenset
    assert by_array.codes == by_set.codes and not by_array._array_only()
    other = _on_arrays(Window(1) if pattern != Window(1) else Window(2), n)
    assert by_array != other and len({by_array, by_set, other}) == 2


def test_a_large_build_is_kept_on_arrays_and_agrees_with_the_set_build(monkeypatch):
    pattern = PatternUnion((Window(3), Global(2), RandomPattern(3, seed=0)))
    by_set = build_graph(pattern, 300)
    monkeypatch.setattr(build_mod, "ARRAY_BUILD_ARCS", 0)
    monkeypatch.setattr(build_mod, "NUMPY_DECODE_ARCS", 100)
    by_array = build_graph(pattern, 300)
    assert by_array._array_only() and by_array == by_set
    assert code_array(by_array).tolist() == sorted(by_set.codes)
    # endpoints are the ascending codes, divided: the same lists igraph is given either way
    assert endpoints(by_array) == ((code_array(by_array) // 300).tolist(), (code_array(by_array) % 300).tolist())
    # a union of large heads stays on arrays and is the union of the arc sets
    second = build_graph(Window(5), 300)
    union = union_graph([by_array, second])
    assert union._array_only() and union.codes == by_set.codes | second.codes
    # fewer arcs than NUMPY_DECODE_ARCS: the set-built graph (its edge order is the set's)
    small = build_graph(Window(1), 40)
    assert not small._array_only()


def test_graphs_stay_immutable():
    g = build_graph(Window(1), 8)
    with pytest.raises(AttributeError):
        g.n = 9  # type: ignore[misc]


def _random_digraph_with_twins(rng: random.Random, base: int, p: float):
    """Arcs (codes) on base + t positions: a random digraph on `base` positions, then planted twins,
    each a copy of an earlier position's in- and out-neighbourhood (closed twins also get both arcs
    to it)."""
    arcs = {(a, b) for a in range(base) for b in range(base) if a != b and rng.random() < p}
    n = base
    for _ in range(rng.choice((1, 2, 3, 5))):
        u = rng.randrange(base)
        for _ in range(rng.choice((1, 1, 2, 3))):  # class sizes 2 to 4
            v = n
            n += 1
            arcs |= {(v, b) for a, b in arcs if a == u} | {(a, v) for a, b in arcs if b == u}
            if rng.random() < 0.5:  # closed twins: u and v see each other
                arcs |= {(u, v), (v, u)}
    return n, frozenset(a * n + b for a, b in arcs)


def test_pinned_twins_count_the_quotients_group(monkeypatch):
    rng = random.Random(20261202)
    planted = 0
    for trial in range(60):
        base = rng.choice((5, 8, 12))
        n, codes = _random_digraph_with_twins(rng, base, rng.choice((0.1, 0.3, 0.5)))
        g = PatternGraph(n, codes)
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 10 ** 9)  # the quotient, as for small graphs
        by_quotient = sym_mod.symmetry_group([g])
        monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 1)  # twins pinned on the graph itself
        st = sym_mod._structure([g], None, "none")
        sol = sym_mod._Solution(st)
        if sol._quotient is None:
            planted += 1
        pinned = sym_mod.symmetry_group([g])
        assert (pinned.order, pinned.name, pinned.structure, pinned.order_text) == \
            (by_quotient.order, by_quotient.name, by_quotient.structure, by_quotient.order_text), trial
        assert set(pinned.generators or ()) and all(st.preserves(p) for p in pinned.generators)
    assert planted > 40  # most trials took the pinned count


def test_pinned_twins_on_a_symmetric_graph_keep_the_quotient_generators(monkeypatch):
    # a directed 6-cycle with every position doubled (open twins): G = (S_2)^6 ⋊ C_6, |Aut(quotient)| = 6
    n = 12
    arcs = {(a + s, (a + 1) % 6 + t) for a in range(6) for s in (0, 6) for t in (0, 6)}
    arcs = {(a % 12, b % 12) for a, b in arcs}
    g = PatternGraph(n, frozenset(a * n + b for a, b in arcs))
    monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 10 ** 9)
    by_quotient = sym_mod.symmetry_group([g])
    monkeypatch.setattr(sym_mod, "NUMPY_PRESERVE_ARCS", 1)
    pinned = sym_mod.symmetry_group([g])
    assert pinned.order == by_quotient.order == 2 ** 6 * 6
    assert pinned.generators == by_quotient.generators and pinned.structure == by_quotient.structure
