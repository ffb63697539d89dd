"""Unions with few wide blocks decided on the twin quotient at the true class sizes (Lemma N, Theorem F181,
docs/theory.md §11.11): the class-map search against the concrete engine (which builds the token graph) at every
n ≤ 60, against brute force over S_n for n ≤ 8, its transposition witnesses on the arcs, and the real sizes where no
stand-in of Lemma L exists (`blocks(600000) + strided(4)` at n = 1,048,576)."""
from __future__ import annotations

import math
from collections import deque

import pytest

from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs import twin_views as V

from .brute_views import neighbourhoods
from .test_twin_quotient import _allowed, _brute, _engine, _spec
from .timed_checks import timed_check

# each shape with two or three parameters (block widths, strides, offsets)
INSTANCES = {
    "strided": ["blocks(7) + strided(2)", "blocks(12) + strided(3)", "blocks(25) + strided(4)"],
    "strided and global": ["blocks(14) + strided(3) + global(1)", "blocks(17) + strided(2) + global(2)"],
    "strided and window": ["blocks(9) + window(1) + strided(4)", "blocks(20) + window(1) + strided(3)"],
    "global": ["blocks(20) + global(1)", "blocks(13) + global(2)", "blocks(9) + star"],
    "window": ["blocks(6) + window(1)", "blocks(16) + window(2) cyclic", "blocks(11) + window(1) + global(1)"],
    "offsets": ["blocks(10) + offsets {2, -2} cyclic", "blocks(12) + offsets {2, -2}",
                "blocks(14) + dilated(1, 2)"],
}
WITNESSES = ("blocks(20) + global(1)", "blocks(13) + global(2)", "blocks(9) + star",
             "blocks(11) + window(1) + global(1)",
             "blocks(14) + strided(3) + global(1)")


def _decided(pattern: str, n: int):
    """Theorem F181's answer as (strongly connected, D, layers, least, |G|), or None when it stands aside."""
    q = T.quotient(_spec(n, pattern).heads[0].pattern, n)
    if q is None:
        return None
    found = V.decide(q)
    if found is None:
        return None
    order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
    if found.pair is not None:
        return False, None, None, None, order
    return True, found.diameter, found.layers, True, order


@pytest.mark.parametrize("pattern", [p for shape in sorted(INSTANCES) for p in INSTANCES[shape]])
def test_the_quotient_decision_equals_the_concrete_engine_at_every_n_up_to_60(pattern):
    decided = witnesses = 0
    for n in range(1, 61):
        if not _allowed(n, pattern):
            continue
        got = _decided(pattern, n)
        if got is None:
            continue
        decided += 1
        witnesses += bool(got[0] and got[2] == got[1] + 1)
        assert got == _engine(pattern, n), (pattern, n)
    assert decided >= 40, decided
    if pattern in WITNESSES:
        assert witnesses >= 3, witnesses  # both answers of the search occur


@pytest.mark.parametrize("pattern", ["blocks(3) + global(1)", "blocks(4) + global(1)", "blocks(5) + global(2)",
                                     "blocks(4) + star", "blocks(4) + strided(2)", "blocks(3) + strided(2)",
                                     "blocks(5) + strided(3)", "blocks(5) + strided(3) + global(1)",
                                     "blocks(5) + window(1) + strided(2)", "blocks(4) + window(1)",
                                     "blocks(6) + window(1) + global(1)", "blocks(3) + offsets {1, -1}",
                                     "blocks(4) + offsets {2, -2} cyclic"])
def test_the_quotient_decision_equals_brute_force_over_s_n(pattern):
    seen = 0
    for n in range(2, 9):
        if not _allowed(n, pattern):
            continue
        got = _decided(pattern, n)
        if got is None:
            continue
        seen += 1
        connected, diameter, least, order = _brute(pattern, n)
        assert got[4] == order and got[0] == connected, (pattern, n)
        if connected:
            assert (got[1], got[2]) == (diameter, least), (pattern, n)
    assert seen >= 4


def test_the_transposition_witnesses_keep_the_neighbourhoods_on_the_arcs():
    seen = 0
    for text in ["blocks({b}) + global(1)", "blocks({b}) + window(1) + global(1)", "blocks({b}) + strided(3)",
                 "blocks({b}) + global(2)"]:
        for b in (3, 5, 8):
            for n in range(b + 1, 4 * b + 1):
                pattern = text.replace("{b}", str(b))
                if not _allowed(n, pattern):
                    continue
                q = T.quotient(_spec(n, pattern).heads[0].pattern, n)
                found = None if q is None else V.decide(q)
                if found is None or found.swap is None:
                    continue
                seen += 1
                r, t, u = found.swap
                x, y = next(T.members(q.runs[t])), next(T.members(q.runs[u]))
                root = next(T.members(q.runs[r]))
                nbs = neighbourhoods([pattern], n)[0]
                sigma = {v: (y if v == x else x if v == y else v) for v in range(1, n + 1)}
                dist = {root: 0}
                queue = deque([root])
                while queue:
                    v = queue.popleft()
                    for w in nbs[v]:
                        if w not in dist:
                            dist[w] = dist[v] + 1
                            queue.append(w)
                for v, d in dist.items():
                    if d <= found.diameter - 1:
                        assert frozenset(sigma[w] for w in nbs[v]) == nbs[sigma[v]], (pattern, n)
                assert any(frozenset(sigma[w] for w in nbs[v]) != nbs[sigma[v]] for v in range(1, n + 1))
    assert seen >= 10


def test_classes_that_share_their_keys_are_left_to_the_stand_in():
    """One-sided offsets give twin classes with equal keys and different queries: the theorem does not apply."""
    for n in range(8, 30):
        q = T.quotient(_spec(n, "blocks(6) + offsets {1}").heads[0].pattern, n)
        assert q is not None
        if len(set(q.keys)) < q.k:
            assert V.decide(q) is None


def test_three_wide_pieces_beside_a_global_need_one_layer_more_than_the_diameter():
    """F4 at n = 1,048,576 and b = 400,000, read on the quotient itself: D = 2, a view witness of depth 2 (an
    exchange of a member of the second piece with one of the first), so 3 layers, least."""
    q = T.quotient(_spec(1048576, "blocks(400000) + global(1)").heads[0].pattern, 1048576)
    assert q is not None
    found = V.decide(q)
    assert found is not None and found.pair is None
    assert (found.diameter, found.layers, found.witness_exists, found.exchanges) == (2, 3, True, 1)
    assert found.swap is not None


def test_two_wide_blocks_beside_a_strided_part_at_a_real_size():
    """`blocks(600000) + strided(4)` at n = 1,048,576: eight residue cells (150,000 and 112,144 positions) whose
    signed sums nearly cancel (4 · 112,144 − 3 · 150,000 = −1,424), so no stand-in of Lemma L is small; the
    quotient
    decides: D = 2, no view witness, 2 layers, least; G = the cells' symmetric groups ⋊ the 24 permutations of the
    residues (the two blocks have different sizes)."""
    r, steps, cpu = timed_check("blocks(600000) + strided(4)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    name = steps["SYM-AUT"].facts["group"].name
    assert name.startswith("(S_150000 on {1, 5, …, 599997} × ")
    assert name.endswith("⋊ the 24 permutations of whole twin classes that keep the pattern")
    assert name.count("S_112144 on ") == 4 and name.count("S_150000 on ") == 4
    assert cpu < 10.0


def test_a_wide_block_beside_a_global_at_twelve_hundred():
    """`blocks(700) + global(1)` at n = 1,200: two pieces, D = 2 layers, least."""
    r, steps, cpu = timed_check("blocks(700) + global(1)", 1200)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name == "S_699 on {2, …, 700} × S_500 on {701, …, 1200}"
    assert cpu < 10.0


def test_eight_equal_blocks_beside_a_strided_part_are_searched_up_to_symmetry():
    """`blocks(131072) + strided(4)` at n = 1,048,576: 32 residue cells of 32,768 positions, Aut_c(Q) = S_8 × S_4
    (967,680 class permutations); the class maps are taken up to the pointwise stabilisers, so the search is short."""
    r, steps, cpu = timed_check("blocks(131072) + strided(4)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    assert steps["SYM-AUT"].facts["group"].name.endswith("⋊ the 967680 permutations of whole twin classes that keep "
                                                          "the pattern")
    assert cpu < 10.0


def test_more_classes_than_a_stand_in_is_built_for_equal_the_concrete_engine():
    """Between 33 and 64 twin classes no stand-in is built and the quotient decides (`blocks(7) + window(1) +
    strided(6)` at n = 30 … 60: up to 54 classes), against the concrete engine on the token graph."""
    decided = 0
    pattern = "blocks(7) + window(1) + strided(6)"
    for n in range(30, 61):
        q = T.quotient(_spec(n, pattern).heads[0].pattern, n, T.WIDE_CLASSES)
        if q is None or q.k <= T.MAX_CLASSES:
            continue
        found = V.decide(q)
        if found is None:
            continue
        decided += 1
        assert _decided_wide(q, found) == _engine(pattern, n), (pattern, n)
    assert decided >= 20, decided


def _decided_wide(q, found):
    order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
    if found.pair is not None:
        return False, None, None, None, order
    return True, found.diameter, found.layers, True, order


def test_six_wide_blocks_beside_strided_six_at_a_real_size():
    """`blocks(131072) + strided(6)` at n = 1,048,576: 48 residue cells, beyond the stand-in's 32 classes: the
    quotient decides, 2 layers, least (the family theorems ran out of a 20 s budget here)."""
    r, steps, cpu = timed_check("blocks(131072) + strided(6)", 1048576)
    assert r.verdict == "UAP"
    assert (steps["PAT-CONNECTED"].facts["diameter"], steps["PAT-LAYERS"].facts["layers"]) == (2, 2)
    assert steps["PAT-LAYERS"].facts["least"]
    assert cpu < 10.0
