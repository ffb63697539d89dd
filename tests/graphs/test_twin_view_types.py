"""Lemma F (Theorem F204, docs/theory.md §11.11): the class-map search of Theorem F181 cut at every prefix of the
view's classes by the sizes of the prefix types (the positions that are keys of exactly a given set of the mapped
classes, against those that are keys of exactly the images). Checked: the cut search against the uncut one on every
quotient of several shapes at n ≤ 60, against the concrete engine on the token graph at every n ≤ 60, against brute
force over S_n for n ≤ 8, and `blocks(200000) + strided(7)` at n = 1,048,576 (42 residue cells of nearly equal sizes,
where the uncut search ran past its former limit of 50,000 partial maps) in seconds."""
from __future__ import annotations

import math

import pytest

from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs import twin_views as V

from .test_twin_quotient import _allowed, _brute, _engine, _spec
from .timed_checks import timed_check as _run

SHAPES = ["blocks(9) + strided(7)", "blocks(15) + strided(7)", "blocks(20) + strided(5)",
          "blocks(12) + strided(5) + global(1)", "blocks(13) + strided(8)", "blocks(10) + window(1) + strided(6)",
          "blocks(8) + strided(3) + global(2)", "blocks(11) + window(1) + global(1)", "blocks(6) + star"]


def _quotient(pattern: str, n: int):
    return T.quotient(_spec(n, pattern).heads[0].pattern, n, T.WIDE_CLASSES)


def _answer(q, found):
    if found is None:
        return None
    order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
    if found.pair is not None:
        return False, None, None, None, order
    return True, found.diameter, found.layers, True, order


class _Long(Exception):
    pass


def _uncut(self, x: int, u: int) -> bool:
    """`_Search.balanced` without the cut: the image side's masks pushed, every prefix let through (the full
    condition (3) is still checked on the whole view). A search past 2,000 partial maps is left out."""
    if self.nodes > 2_000:
        raise _Long
    keys = self.q.keys[u]
    self.theirs.append([m | (1 << x) if t in keys else m for t, m in enumerate(self.theirs[-1])])
    return True


@pytest.mark.parametrize("pattern", [p for p in SHAPES if p != "blocks(9) + strided(7)"])  # up to 49 classes there
def test_the_cut_search_equals_the_uncut_search_at_every_n_up_to_60(pattern, monkeypatch):
    compared = 0
    for n in range(2, 61):
        if not _allowed(n, pattern):
            continue
        q = _quotient(pattern, n)
        if q is None:
            continue
        cut = V.decide(q)
        with monkeypatch.context() as m:
            m.setattr(V._Search, "balanced", _uncut)
            try:
                whole = V.decide(q)
            except _Long:
                continue
        assert cut == whole, (pattern, n)
        compared += cut is not None
    assert compared >= 10, compared


@pytest.mark.parametrize("pattern", SHAPES)
def test_the_cut_search_equals_the_concrete_engine_at_every_n_up_to_60(pattern):
    decided = 0
    for n in range(1, 61):
        if not _allowed(n, pattern):
            continue
        q = _quotient(pattern, n)
        got = None if q is None else _answer(q, V.decide(q))
        if got is None:
            continue
        decided += 1
        assert got == _engine(pattern, n), (pattern, n)
    assert decided >= 30, decided


@pytest.mark.parametrize("pattern", ["blocks(3) + strided(2)", "blocks(4) + strided(3)", "blocks(5) + strided(4)",
                                     "blocks(3) + strided(3) + global(1)", "blocks(4) + global(1)",
                                     "blocks(3) + window(1) + strided(2)"])
def test_the_cut_search_equals_brute_force_over_s_n(pattern):
    seen = 0
    for n in range(2, 9):
        if not _allowed(n, pattern):
            continue
        q = _quotient(pattern, n)
        got = None if q is None else _answer(q, V.decide(q))
        if got is None:
            continue
        seen += 1
        connected, diameter, least, order = _brute(pattern, n)
        assert got[4] == order and got[0] == connected, (pattern, n)
        if connected:
            assert (got[1], got[2]) == (diameter, least), (pattern, n)
    assert seen >= 4


def test_a_cut_prefix_has_no_witness_extending_it():
    """The cut is a necessary condition: on `blocks(9) + strided(7)` at n = 40 every prefix it refuses is also
    refused by the whole condition (3) for every completion found by the uncut search."""
    q = _quotient("blocks(9) + strided(7)", 40)
    assert q is not None
    group = V._Group(q)
    for r in range(q.k):
        search = V._Search(q, r, 2, group)
        assert search.counts[0] == {0: sum(q.sizes)}
        # the root's own prefix: the keys of r against the keys of its image, as many positions on both sides
        for u in range(q.k):
            if search.fits(search.known[0], u):
                keys_r = sum(q.sizes[t] for t in q.keys[r])
                keys_u = sum(q.sizes[t] for t in q.keys[u])
                assert search.balanced(0, u) == (keys_r == keys_u)
                if keys_r == keys_u:
                    search.theirs.pop()


def test_classes_that_share_their_keys_are_refused_before_any_search():
    """Theorem F181's premise (pairwise distinct key sets) is checked by `decide` itself: a quotient whose classes
    share a key set is refused (None) whatever its sizes, and the twin route then takes the stand-in of Lemma L."""
    seen = 0
    for n in range(8, 40):
        q = T.quotient(_spec(n, "blocks(6) + offsets {1}").heads[0].pattern, n)
        assert q is not None
        if len(set(q.keys)) < q.k:
            seen += 1
            assert V.decide(q) is None
            assert V.decide(T.Quotient(q.n, q.runs, tuple(10 ** 6 + c for c in q.sizes), q.keys)) is None
    assert seen >= 10


def test_forty_two_near_equal_cells_at_a_real_size():
    """`blocks(200000) + strided(7)` at n = 1,048,576: six blocks (five of 200,000 positions, one of 48,576) times
    seven residues, cells of 28,571 or 28,572 (and 6,939 or 6,940) positions; D = 2, no view witness of depth 2, so
    2 layers, least; no class permutation keeps the sizes (the residues of 28,572 positions shift by 3 from block to
    block), so G is the product of the cells' symmetric groups."""
    r, steps, cpu = _run("blocks(200000) + strided(7)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    name = steps["SYM-AUT"].facts["group"].name
    assert name.startswith("S_28572 on {1, 8, …, 199998} × ") and "⋊" not in name
    assert name.count(" × ") == 41
    assert cpu < 10.0
