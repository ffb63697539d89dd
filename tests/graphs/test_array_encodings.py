"""The array forms that large patterns take in place of Python loops, each against the loop it replaces:

- `bliss._encoded_on_arrays` (the undirected encoding of a directed graph, from `bliss.ARRAY_ARCS` arcs) against
  `bliss._encoded`'s loop: the same vertices, edges in the same order and colours, so BLISS gets the same input;
- `symmetry._encode_on_arrays` (labelled arcs subdivided, from `symmetry.ENCODE_ARRAY_ARCS` arcs) against
  `symmetry._encode`'s loop: the same graph and colours;
- `symmetry._xor_hash` on a numpy array (from `symmetry.XOR_HASH_ARRAY` values) against its loop;
- `symmetry._plain_joint_labels` (unbiased heads' joint arc labels, from `symmetry.JOINT_ARRAY_ARCS` arcs) against
  `symmetry._joint_labels`' loop: the same labels, numbered alike, in the same order, and the same support; and the
  labels it keeps in code order against a lookup per arc (`_Structure.edge_labels`);
- `views._OutsidePossible` (the transposition probe's pairs flagged on arrays) against `views._transposition_bad`:
  a pair is flagged exactly when some position it changes, other than a and b, lies outside the possible set; and
  the probe of several heads with a possible set finds the same witness, with the same units spent, either way;
  and `views._candidate_pair_arrays` lists `views._candidate_pairs` in its order;
- `Neighbourhoods.holds_arcs` of a large head (a search in its sorted codes) against membership in
  `Neighbourhoods.arc_codes` (the set the loop builds).
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from uapcheck import bliss
from uapcheck.graphs import symmetry, views
from uapcheck.graphs.views import Neighbourhoods, _candidate_pairs, _OutsidePossible, _transposition_bad
from uapcheck.lazy import digraph

from .test_views import _spec


def _random_digraph(rng: random.Random):
    n = rng.randint(1, 40)
    # sparse draws give vertices of one arc in and one out (the encoding's path vertices) and loops
    arcs = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, rng.choice((n, 3 * n))))]
    return n, arcs


def test_bliss_encoding_on_arrays_is_the_loops_encoding(monkeypatch):
    rng = random.Random(14)
    paths = 0
    for case in range(300):
        n, arcs = _random_digraph(rng)
        g = digraph(n, arcs)
        colours = [rng.randrange(3) for _ in range(n)] if case % 2 else None
        monkeypatch.setattr(bliss, "ARRAY_ARCS", 10 ** 9)
        loop_graph, loop_colours = bliss._encoded(g, colours)
        array_graph, array_colours = bliss._encoded_on_arrays(g, colours)
        assert array_graph.vcount() == loop_graph.vcount()
        assert array_graph.get_edgelist() == loop_graph.get_edgelist()
        assert array_colours == loop_colours
        paths += sum(1 for c in loop_colours[:n] if c % 4 == 3)
    assert paths > 50  # the draws met path vertices


def test_bliss_counts_through_the_array_encoding(monkeypatch):
    # a directed 5-cycle with a chord's worth of colours: BLISS counts the same either way
    g = digraph(5, [(k, (k + 1) % 5) for k in range(5)])
    monkeypatch.setattr(bliss, "ARRAY_ARCS", 10 ** 9)
    loop = bliss.count(g)
    monkeypatch.setattr(bliss, "ARRAY_ARCS", 1)
    assert bliss.count(g) == loop == 5


def test_labelled_subdivision_on_arrays_is_the_loops(monkeypatch):
    rng = random.Random(6)
    for _ in range(300):
        n = rng.randint(1, 30)
        m = rng.randint(0, 3 * n)
        sources = [rng.randrange(n) for _ in range(m)]
        targets = [rng.randrange(n) for _ in range(m)]
        labels = [rng.choice((0, 0, 0, 1, 5, 7)) for _ in range(m)]
        colours = [rng.randrange(3) for _ in range(n)]
        monkeypatch.setattr(symmetry, "ENCODE_ARRAY_ARCS", 10 ** 9)
        loop_graph, loop_colours = symmetry._encode(n, colours, sources, targets, labels)
        monkeypatch.setattr(symmetry, "ENCODE_ARRAY_ARCS", 1)
        array_graph, array_colours = symmetry._encode(n, colours, sources, targets, labels)
        assert array_graph.vcount() == loop_graph.vcount()
        assert array_graph.get_edgelist() == loop_graph.get_edgelist()
        assert array_colours == loop_colours


def _heads(patterns, n: int):
    from uapcheck.graphs import build_graph
    return [build_graph(h.pattern, n, {}) for h in _spec(patterns, n).heads]


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 60),
                                        (["window(1)", "random(1, seed=3)"], 50),
                                        (["window(2) + global(1)", "random(2, seed=0)"], 40)])
def test_pairs_flagged_on_arrays_change_a_position_outside(patterns, n):
    nb = Neighbourhoods(_heads(patterns, n))
    rng = np.random.default_rng(n)
    for share in (0.2, 0.6, 0.95):
        possible = rng.random(n) < share
        test = _OutsidePossible(nb, possible)
        pairs = list(_candidate_pairs(nb))
        ends = np.array(pairs, dtype=np.int64)
        flags = test.flags(ends[:, 0], ends[:, 1]).tolist()
        for (a, b), flag in zip(pairs, flags):
            bad = _transposition_bad(nb, a, b) or set()
            assert flag == any(not possible[v] for v in bad - {a, b}), (a, b)


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 40),
                                        (["window(2) + global(1)", "random(2, seed=0)"], 30), (["star", "window(1)"], 20)])
def test_candidate_pairs_on_arrays_come_in_the_same_order(patterns, n):
    nb = Neighbourhoods(_heads(patterns, n))
    on_arrays = [pair for a, b in views._candidate_pair_arrays(nb) for pair in zip(a.tolist(), b.tolist())]
    assert on_arrays == list(_candidate_pairs(nb))


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 300),
                                        (["window(1)", "random(1, seed=3)"], 200)])
def test_probe_with_flags_finds_the_same_witness_within_the_same_units(patterns, n, monkeypatch):
    graphs = _heads(patterns, n)
    monkeypatch.setattr(views, "BALL_MASKS_MAX_N", 0)  # the probe of large n: no ball masks
    real_flags, real_blind = views._with_outside_flags, views._blind
    searches = [0]

    def counted(nb, bad, radius, work=None):
        searches[0] += 1
        return real_blind(nb, bad, radius, work)
    monkeypatch.setattr(views, "_blind", counted)
    rng = np.random.default_rng(3)
    met = 0
    for share in (0.3, 0.9, 1.0):
        possible = rng.random(n) < share
        for work in (500, 5_000, 50_000, 10 ** 7):  # budgets ending the probe at different pairs
            got = []
            for flags in (lambda pairs, test: (views._candidate_pairs(test.nb) if pairs is None else pairs, None), real_flags):
                monkeypatch.setattr(views, "_with_outside_flags", flags)
                searches[0] = 0
                found = views.probe_transpositions(Neighbourhoods(graphs), 3, lambda perm: False, work, possible)
                got.append((None if found is None else (found.position, found.permutation), searches[0]))
            assert got[0] == got[1], (share, work)
            met += got[0][0] is not None
    assert met  # some probe found a witness


@pytest.mark.parametrize("decode", [None, 0])
def test_joint_labels_on_arrays_are_the_loops(monkeypatch, decode):
    # the labels (each code's, numbered alike; the dict is only looked up) and the support's codes in their order, what
    # BLISS's encoding is made from: that order when the support is decoded with Python (its iteration order is the edge
    # order), the same set when it is decoded with numpy (``decode`` = 0: the edge order is then ascending)
    from uapcheck.graphs import build
    from uapcheck.graphs.build import PatternGraph
    rng = random.Random(9)
    for _ in range(150):
        n = rng.randint(2, 30)
        graphs = [PatternGraph(n, frozenset(rng.randrange(n * n) for _ in range(rng.randint(0, 3 * n))))
                  for _ in range(rng.randint(2, 4))]
        layers = tuple((g, None) for g in graphs)
        got = []
        for bound in (10 ** 9, 0):
            monkeypatch.setattr(symmetry, "JOINT_ARRAY_ARCS", bound)
            if decode is not None:
                monkeypatch.setattr(build, "NUMPY_DECODE_ARCS", decode)
            symmetry._JOINT.clear()
            support, labels, count = symmetry._joint_labels(n, layers)
            codes = sorted(support.codes) if decode is not None else list(support.codes)
            assert all(labels[c] == labels.get(c) and c in labels for c in support.codes) and len(labels) == len(codes)
            got.append((codes, sorted(labels.items()), count))
            if bound == 0 and count > 1:
                # the labels kept in code order give the edge labels a lookup per arc gives, when the codes are
                # decoded with numpy (ascending), and the lookups otherwise
                from uapcheck.graphs import build
                for decode in (10 ** 9, 0):
                    monkeypatch.setattr(build, "NUMPY_DECODE_ARCS", decode)
                    st = symmetry._Structure(n, support, labels, count, False, "test")
                    assert st.edge_labels() == [labels[c] for c in build.edge_order(support)]
                monkeypatch.undo()
        assert got[0] == got[1]


def test_xor_hash_on_arrays_is_the_loops(monkeypatch):
    # the twin keys of a hub (a global position's labelled neighbours) are hashed from these
    rng = random.Random(4)
    for size in (symmetry.XOR_HASH_ARRAY, 5_000):
        values = frozenset(rng.randrange(1 << 40) for _ in range(size)) | {0, (1 << 63) - 1}
        monkeypatch.setattr(symmetry, "XOR_HASH_ARRAY", 10 ** 9)
        loop = symmetry._xor_hash(values)
        monkeypatch.undo()
        assert symmetry._xor_hash(values) == loop


@pytest.mark.parametrize("patterns, n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 16_384),
                                         (["window(3) + global(2) + random(3, seed=0)"], 8_192)])
def test_holds_arcs_of_a_large_head_is_membership_in_its_arc_codes(patterns, n):
    from uapcheck.graphs import build_graph
    from uapcheck.graphs.build import _decoded_by_numpy
    nb = Neighbourhoods([build_graph(head.pattern, n, {}) for head in _spec(patterns, n).heads])
    rng = random.Random(n)
    for h in range(nb.num_heads):
        assert _decoded_by_numpy(nb.graphs[h])
        codes = nb.arc_codes(h)
        keys = rng.sample(sorted(codes), 500) + [v * n + v for v in range(0, n, n // 50)]
        keys += [rng.randrange(n * n) for _ in range(500)] + [0, n * n - 1]
        assert nb.holds_arcs(h, keys) == [k in codes for k in keys]
        assert nb.holds_arcs(h, []) == []


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 90),
                                        (["window(2) + global(1)", "random(2, seed=0)", "window(1)"], 70),
                                        (["star", "window(1) + random(1, seed=4)"], 40)])
def test_neighbourhoods_of_several_heads_on_rows_are_the_lists(patterns, n, monkeypatch):
    """Several unlabelled heads, large: labels made on the compressed rows, in-lists fetched per position; the same
    labels, label count and lists as the path that builds every list."""
    from uapcheck.graphs import build
    monkeypatch.setattr(build, "NUMPY_DECODE_ARCS", 1)  # every graph decoded on arrays, as large ones are
    monkeypatch.setattr(views, "ARRAY_LABEL_ARCS", 1)
    on_rows = Neighbourhoods(_heads(patterns, n))
    assert not isinstance(on_rows.ins, list)  # the rows' path was taken
    monkeypatch.setattr(views, "ARRAY_LABEL_HEADS", 0)  # the path that builds every list, labels by the loop
    lists = Neighbourhoods(_heads(patterns, n))
    assert isinstance(lists.ins, list)
    assert on_rows.num_labels == lists.num_labels
    assert on_rows.labels == lists.labels
    assert on_rows.out_degrees == lists.out_degrees
    for v in range(n):
        assert on_rows.ins[v] == lists.ins[v] and on_rows.outs[v] == lists.outs[v]
        for h in range(on_rows.num_heads):
            assert on_rows._head_lists[h][v] == lists._head_lists[h][v]
            assert on_rows.head_set(h, v) == lists.head_set(h, v)


@pytest.mark.parametrize("patterns,n", [(["window(1) + random(2, seed=1)", "window(1) + random(2, seed=2)"], 80),
                                        (["window(2) + global(1)", "random(2, seed=0)", "window(1)"], 60),
                                        (["star", "random(1, seed=3)"], 30)])
def test_pairs_flagged_from_the_rows_are_those_flagged_by_the_tables(patterns, n, monkeypatch):
    """The flags read off the union's out-rows with their arcs' head bits (`_OutsidePossible._flags_by_rows`, up to
    HEADS_PER_TABLE heads) are those of the search of both arcs in every head's table."""
    nb = Neighbourhoods(_heads(patterns, n))
    pairs = np.array(list(_candidate_pairs(nb)), dtype=np.int64)
    rng = np.random.default_rng(n)
    for share in (0.0, 0.3, 0.9, 1.0):
        possible = rng.random(n) < share
        by_rows = _OutsidePossible(nb, possible)
        assert by_rows.out_bits is not None
        with monkeypatch.context() as m:
            m.setattr(views, "HEADS_PER_TABLE", 1)  # one head a table: fewer than the heads, so the tables' path
            by_tables = _OutsidePossible(nb, possible)
        assert by_tables.out_bits is None
        for at in range(0, len(pairs), 97):  # batches of pairs, the last one short
            a, b = pairs[at:at + 97, 0], pairs[at:at + 97, 1]
            assert by_rows.flags(a, b).tolist() == by_tables.flags(a, b).tolist()
