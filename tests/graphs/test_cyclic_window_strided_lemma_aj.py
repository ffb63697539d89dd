"""Theorem F219 and lemma AJ (docs/theory.md §11.11): `window(w) cyclic + strided(s)`, w + 1 ≤ s ≤ 2w, on a class
e ≠ 0 of n mod s: a view witness with 2 layers at n + s gives one at n (n ≥ max(s(3w + 2), 15s)), so where the rooted
views find none at the class's first lengths, D = 2 layers suffice at every n of the class.

Checked a second way: the lemma's ingredients on arcs written from docs/language.md's definitions (the relation R of
the root's class, S(a, b) ≠ ∅, is the path or the cycle of consecutive members with the seam chords, and its marks
leave only the identity and the reversal; the period Q_j is the set of positions whose class members within w are
{m_j} or {m_j, m_{j+1}}); the theorem's count against the concrete engine's rooted views at every n ≤ 60 in range and
at two periods past the check; and the verifier's own check (nauty on its arcs) finding the engine's classes."""
from __future__ import annotations

import pytest

from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.graphs import families as F
from uapcheck.verifier import cyclic_covered_least as V

from .cyclic_window_strided_files import pattern


def _closed(v: int, n: int, w: int, s: int) -> frozenset:
    """N[v] from the definitions: the cyclic window of radius w and the class of v mod s among 1, …, n."""
    return frozenset((v - 1 + k) % n + 1 for k in range(-w, w + 1)) | frozenset(range((v - 1) % s + 1, n + 1, s))


def _marked_relation(w: int, s: int, n: int, r: int):
    """The members of the class r (1 ≤ r ≤ s) in order, the relation S(a, b) ≠ ∅ as index pairs, and the marks
    |N(a)| by index and |S(a, b)| by pair (lemma AJ, step (2))."""
    members = list(range(r, n + 1, s))
    cls = frozenset(members)
    nb = {m: _closed(m, n, w, s) for m in members}
    edges, sizes = set(), {}
    for a in range(len(members)):
        for b in range(a + 1, len(members)):
            shared = (nb[members[a]] & nb[members[b]]) - cls
            if shared:
                edges.add((a, b))
                sizes[(a, b)] = len(shared)
    return members, edges, sizes, [len(nb[m]) for m in members]


def _keeps(perm, edges, sizes, degree) -> bool:
    mapped = {tuple(sorted((perm[a], perm[b]))): k for (a, b), k in sizes.items()}
    return set(mapped) == edges and all(sizes[e] == k for e, k in mapped.items()) \
        and all(degree[perm[a]] == degree[a] for a in range(len(degree)))


@pytest.mark.parametrize("w, s, n", [(2, 3, 52), (2, 4, 66), (3, 4, 45), (4, 6, 130), (5, 7, 124), (5, 7, 125),
                                     (5, 6, 105), (4, 5, 72)])
def test_the_class_keeps_its_order_and_its_seam(w, s, n):
    assert n % s and n >= L.low(w, s)
    for r in range(1, s + 1):
        members, edges, sizes, degree = _marked_relation(w, s, n, r)
        t = len(members)
        consecutive = {(a, a + 1) for a in range(t - 1)}
        assert consecutive <= edges, (r, edges)
        seam = members[0] + n - members[-1]  # the seam gap: e or s + e
        extra = edges - consecutive
        assert extra <= {(0, t - 1), (0, t - 2), (1, t - 1)}, (r, extra)
        assert ((0, t - 1) in edges) == (seam <= 2 * w), r
        # the chords' |S| differs from the cycle's edges': a bijection keeping |S| keeps the cycle (so it is dihedral)
        chords = extra - {(0, t - 1)}
        assert not {sizes[e] for e in chords} & {sizes[e] for e in edges - chords}, (r, sizes)
        # every rotation and reflection of the indices that keeps R and its marks is the identity or the reversal
        kept = [(c, sgn) for c in range(t) for sgn in (1, -1)
                if _keeps([(c + sgn * a) % t for a in range(t)], edges, sizes, degree)]
        assert set(kept) <= {(0, 1), (t - 1, -1)} and (0, 1) in kept, (r, kept)


@pytest.mark.parametrize("w, s, n", [(2, 3, 52), (3, 5, 121), (5, 7, 124)])
def test_the_period_is_read_off_the_class_members_within_w(w, s, n):
    a = s - w - 1
    for r in range(1, s + 1):
        members = list(range(r, n + 1, s))
        cls = frozenset(members)
        for j in range(2, len(members) - 3):
            m, nxt = members[j], members[j + 1]
            block = {x for x in range(1, n + 1) if x not in cls
                     and (_closed(x, n, w, s) & cls) in ({m}, {m, nxt})} | {m}
            assert block == set(range(m - a, m + w + 1)), (r, j)


@pytest.mark.parametrize("w, s", [(2, 3), (2, 4), (3, 4)])
def test_the_count_is_the_concrete_engine_s_up_to_60_and_past_the_check(w, s):
    two = (0,) + L.suffice_classes(w, s)
    assert set(two) | set(L.witness_classes(w, s)) == set(range(s))
    top = L.pump_from(w, s) + s
    lengths = list(range(L.low(w, s), 61)) + list(range(top, top + 2 * s))
    for n in lengths:
        got = F.concrete(pattern(w, s), n)
        assert got.least and got.diameter == 2, n
        assert got.layers == (2 if n % s in two else 3), (n, got.layers)


def test_the_check_s_lengths():
    assert L.base_lengths(5, 7, 5) == (124,)  # s(3w + 2) = 119 ≥ 15s: one length a class
    assert L.base_lengths(2, 3, 1) == (25, 28, 31, 34, 37, 40, 43, 46)  # from 24 below max(24, 45) + 3
    assert L.suffice_classes(2, 5) == () and L.suffice_classes(1, 2) == ()  # s = 2w + 1; s = 2 (Theorem F202)


@pytest.mark.parametrize("w, s", [(2, 3), (3, 4)])
def test_the_verifier_s_own_check_finds_the_engine_s_classes(w, s):
    assert V.suffice_classes(w, s) == L.suffice_classes(w, s)
    assert V.suffice_problem(w, s, 1 + s * 20) is not None if 1 in L.witness_classes(w, s) else True
    assert V.suffice_problem(w, s, s * 20 + L.suffice_classes(w, s)[0]) is None
