"""The arc arrays the large-n searches share (bench/RESULTS.md, "random and edges patterns at 65,536").

- `view_refine.ArcArrays` of one graph reads the graph's cached endpoints and lists (`build.code_endpoints`,
  `arc_arrays.graph_csr`) instead of making its own: the same values as arrays made from the sorted codes
  independently here, and the very arrays the diameter's searches use (so their padded rows are laid out once);
- `arc_arrays._or_of_columns`, one level of every bit-parallel search (the first column gathered straight into the
  result, the mask or-ed in after), against the mask or-ed with each column's gather, for one word and for rows of
  words, with no column, one, and several.
"""
from __future__ import annotations

import numpy as np
import pytest

from uapcheck.graphs import build_graph
from uapcheck.graphs.arc_arrays import _or_of_columns, _padded_rows, graph_csr, wide_search
from uapcheck.graphs.view_refine import ArcArrays
from uapcheck.spec import PatternUnion, RandomPattern, Window


def _from_codes(codes, n: int):
    """(src, dst, out indptr, out targets, in indptr, in sources) of sorted codes (j − 1)·n + (i − 1), by plain
    numpy written here: a stable sort by target for the in-lists."""
    src, dst = codes // n, codes % n
    out_ptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(out_ptr, src + 1, 1)
    order = np.lexsort((src, dst))
    in_ptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(in_ptr, dst + 1, 1)
    return src, dst, np.cumsum(out_ptr), dst, np.cumsum(in_ptr), src[order]


@pytest.mark.parametrize("n,r,seed", [(300, 1, 0), (4096, 2, 1), (5000, 3, 7)])
def test_arc_arrays_of_one_graph_are_its_cached_lists_with_the_values_made_from_its_codes(n, r, seed):
    g = build_graph(PatternUnion((Window(1), RandomPattern(r, seed))), n)
    arrays = ArcArrays([g, g])  # one distinct graph
    codes = np.sort(np.fromiter(g.all_codes(), dtype=np.int64))
    for got, want in zip((arrays.src, arrays.dst, arrays.out_ptr, arrays.out_to, arrays.in_ptr, arrays.in_from),
                         _from_codes(codes, n)):
        assert np.array_equal(got, want)
    assert arrays.in_ptr is graph_csr(g, "in")[0] and arrays.in_from is graph_csr(g, "in")[1]
    assert arrays.out_ptr is graph_csr(g, "out")[0]
    assert np.array_equal(arrays.codes, codes) and not arrays.label.any()
    assert np.array_equal(arrays.indegree, np.bincount(codes % n, minlength=n))


def test_arc_arrays_of_two_heads_label_each_arc_by_its_heads():
    n = 400
    a = build_graph(PatternUnion((Window(1), RandomPattern(1, 3))), n)
    b = build_graph(RandomPattern(2, 5), n)
    arrays = ArcArrays([a, b])
    ca, cb = set(a.all_codes()), set(b.all_codes())
    codes = np.array(sorted(ca | cb), dtype=np.int64)
    assert np.array_equal(arrays.codes, codes)
    want = [(1 if c in ca else 0) | (2 if c in cb else 0) for c in codes.tolist()]
    assert arrays.label.tolist() == want
    for got, expected in zip((arrays.src, arrays.dst, arrays.out_ptr, arrays.out_to, arrays.in_ptr, arrays.in_from),
                             _from_codes(codes, n)):
        assert np.array_equal(got, expected)


def _reference_level(mask, columns):
    out = mask.copy()
    for column in columns:
        out |= mask[column]
    return out


@pytest.mark.parametrize("words", [None, 1, 3, 4])
@pytest.mark.parametrize("k", [0, 1, 2, 5])
def test_one_level_of_a_bit_parallel_search_is_the_mask_or_ed_with_every_column(words, k):
    rng = np.random.default_rng(100 * k + (words or 0))
    n = 257
    shape = (n,) if words is None else (n, words)
    mask = rng.integers(0, 2 ** 63, size=shape, dtype=np.uint64) & rng.integers(0, 2 ** 63, size=shape,
                                                                               dtype=np.uint64)
    columns = tuple(rng.integers(0, n, size=n) for _ in range(k))
    out = np.full(shape, 12345, dtype=np.uint64)  # whatever the output held before
    got = _or_of_columns(mask, columns, out, None)
    assert got is out
    assert np.array_equal(got, _reference_level(mask, columns))
    buf = np.zeros(shape, dtype=np.uint64)
    assert np.array_equal(_or_of_columns(mask, columns, np.empty_like(mask), buf), _reference_level(mask, columns))


def test_wide_search_on_the_shared_rows_gives_each_sources_eccentricity():
    n = 2048
    g = build_graph(PatternUnion((Window(1), RandomPattern(2, 1))), n)
    in_ptr, in_from = graph_csr(g, "in")
    out_ptr, out_to = graph_csr(g, "out")
    columns, rest, shifts = _padded_rows(in_ptr, in_from, n)
    # window(1) + random(2): every position has four in-arcs, the window's two read as shifts of the rows
    assert len(columns) == 2 and rest is None and shifts == ((-1, 1, n), (1, 0, n - 1))
    sources = list(range(0, n, 8))
    first, _, _ = wide_search(in_ptr, in_from, n, sources)
    for s, ecc in zip(sources[:40], first[:40].tolist()):  # queue BFS over the out-lists
        dist = np.full(n, -1)
        dist[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for v in frontier:
                for w in out_to[out_ptr[v]:out_ptr[v + 1]].tolist():
                    if dist[w] < 0:
                        dist[w] = dist[v] + 1
                        nxt.append(w)
            frontier = nxt
        assert ecc == int(dist.max())
