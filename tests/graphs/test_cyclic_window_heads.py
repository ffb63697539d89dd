"""Theorem F143 of docs/theory.md §11.11 (several heads whose union is `window(w) cyclic`, each head made of window,
offsets and dilated parts, cyclic or not): D layers, or D + 1 on the classes of n mod 2w where the ball and its shift by
one fit between the ends' zone. Every head tuple against the concrete engine (coloured rooted views) at every n ≤ 60 in
its range, against the referee sweep's own reference where the theorem's count is D (the sweep's file `offsets {2}` |
`window(6) cyclic`), and the theorem at small n by brute force over S_n (tests/graphs/brute_views.py, no code shared
with the engine)."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import cyclic_window_heads as CW
from uapcheck.show import show_pattern
from uapcheck.spec import Dilated, Offsets, PatternUnion, Strided, Window

from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods
from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# (heads, case, a, b): the zone is the last a and the first b positions
DECIDED = [
    ((Offsets((2,)), Window(6, True)), "asymmetric", 2, 0),               # §13 L2′ (ii), the referee sweep's file
    ((Offsets((1,)), Window(1, True)), "asymmetric", 1, 0),
    ((Offsets((-1, 3)), Window(3, True)), "asymmetric", 3, 1),
    ((U(Offsets((1,), True), Offsets((-3,))), Window(3, True)), "asymmetric", 0, 3),
    ((Offsets((2,)), Offsets((-1,)), Window(2, True)), "asymmetric", 2, 1),
    ((Offsets((2,), True), Window(4, True)), "asymmetric", 0, 0),          # no zone: D layers at every n
    ((Offsets((1,), True), Offsets((-1,), True)), "asymmetric", 0, 0),     # the ring's two directions: G = C_n
    ((Window(2), Window(6, True)), "reflected", 2, 2),
    ((Window(1), Window(3, True)), "reflected", 1, 1),
    ((Dilated(2, 2), Window(4, True)), "reflected", 4, 4),
]
IDS = [" | ".join(map(show_pattern, h)) for h, *_ in DECIDED]


def _at(expr, n: int) -> int:
    return int(sympy.sympify(expr, strict=True).xreplace({N: n}))  # safe: strict (no text parsed)


@pytest.mark.parametrize("heads,case,a,b", DECIDED, ids=IDS)
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads, case, a, b):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F143" and found.union_theorem == "F5"
    c = found.cyclic_heads
    assert (c.case, c.a, c.b) == (case, a, b)
    assert found.low == 2 * c.w + 3
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == _at(found.diameter, n), n
        assert _at(found.layers, n) == (d if suffices else d + 1), n


def test_the_sweeps_file_needs_d_exactly_where_half_n_is_one_more_than_a_multiple_of_six():
    found = closed_least((Offsets((2,)), Window(6, True)))
    assert found.cyclic_heads.extra_residues == (0, 1, 4, 5, 6, 7, 8, 9, 10, 11)
    at_d = [n for n in range(15, 61) if _at(found.layers, n) == _at(found.diameter, n)]
    assert at_d == [15, 26, 27, 38, 39, 50, 51]  # the referee's reference: D at 26, 27, 38, 39 (§13 L2′ (ii))


def test_the_witness_position_has_a_ball_between_the_zones_ends():
    found = closed_least((Offsets((-1, 3)), Window(3, True)))
    c = found.cyclic_heads
    for n in range(found.low, NMAX + 1):
        d = _at(found.diameter, n)
        if _at(found.layers, n) == d:
            continue
        i = int(c.position(sympy.Integer(d)))
        radius = c.w * (d - 1)
        assert i - radius == c.b + 1 and i + radius + 1 <= n - c.a, n


@pytest.mark.parametrize("w,z,residues", [(6, 2, (0, 1, 4, 5, 6, 7, 8, 9, 10, 11)), (1, 1, (1,)), (3, 4, (0, 1)),
                                          (4, 8, ()), (2, 0, ()), (3, 5, (1,))])
def test_the_classes_are_those_where_the_inequality_holds_at_every_length(w, z, residues):
    assert CW.extra_residues(w, z) == residues
    for n in range(2 * w + 3, 200):
        d = -(-(n // 2) // w)
        assert (z > 0 and n - z >= 2 * w * (d - 1) + 2) == (n % (2 * w) in residues), n


@pytest.mark.parametrize("heads", [
    (U(Window(2, True), Strided(3)), Window(2)),                   # a strided part: no cyclic window union
    (Offsets((2,)), Window(6)),                                     # a non-cyclic union
], ids=["strided", "non-cyclic"])
def test_no_claim_outside_the_premises(heads):
    found = closed_least(heads)
    assert found is None or found.theorem != "F143"


# ---------------------------------------------------------------------------------------------
# Case (S): every head's offsets symmetric, some head not invariant under n + 1 − i

# (heads, a, b, the hull of the zone coordinates where ρ_Z fails or None, the classes mod 2w needing D + 1)
SYMMETRIC = [
    ((U(Offsets((1,), True), Offsets((-1,))), Window(2, True)), 0, 1, (1, 1), (0, 1, 2, 3)),
    ((U(Offsets((1,), True), Offsets((-1,))), Window(1, True)), 0, 1, (1, 1), (0, 1)),
    ((U(Offsets((2,), True), Offsets((-2,))), Window(2, True)), 0, 2, (1, 2), (0, 1, 3)),
    ((U(Offsets((-1,), True), Offsets((1,))), Window(3, True)), 1, 0, (0, 0), (0, 1, 2, 3, 4, 5)),
    ((U(Offsets((1,), True), Offsets((-1,))), U(Offsets((-1,), True), Offsets((1,))), Window(2, True)), 1, 1, (0, 1),
     (0, 1, 3)),
    ((U(Offsets((3,), True), Offsets((-3,))), Window(4, True)), 0, 3, (1, 3), (0, 1, 4, 5, 6, 7)),
    ((U(Offsets((2,), True), Offsets((-2,))), Offsets((1, -1)), Window(2, True)), 1, 2, (0, 2), (0, 1)),
    ((U(Offsets((1,), True), Offsets((-1, 2, -2))), Window(2, True)), 2, 2, (0, 1), (0, 1, 3)),
]
SYMMETRIC_IDS = [" | ".join(map(show_pattern, h)) for h, *_ in SYMMETRIC]


@pytest.mark.parametrize("heads,a,b,failing,residues", SYMMETRIC, ids=SYMMETRIC_IDS)
def test_the_symmetric_case_agrees_with_the_concrete_engine_at_every_n_in_range(heads, a, b, failing, residues):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F143" and found.union_theorem == "F5"
    c = found.cyclic_heads
    assert (c.case, c.a, c.b, c.failing, c.extra_residues) == ("symmetric", a, b, failing, residues)
    rotation = set(CW.extra_residues(c.w, a + b))
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == _at(found.diameter, n), n
        assert _at(found.layers, n) == (d if suffices else d + 1), n
        if not suffices:  # ρ_Z's ball, from the stated position, avoids the hull of the failing zone positions
            i, radius = int(c.position(sympy.Integer(d))), c.w * (d - 1)
            assert i - radius == failing[1] + 1 and i + radius <= n + failing[0] - 1, n
    assert set(residues) > rotation  # some class needs D + 1 only through the reflection


def test_the_reflection_adds_the_classes_where_a_ball_avoids_the_failing_hull():
    for w in range(1, 5):
        for span in range(0, 2 * w + 1):
            residues = CW.reflection_residues(w, span)
            for n in range(2 * w + 3, 200):
                d = -(-(n // 2) // w)
                assert (span > 0 and n - span >= 2 * w * (d - 1) + 1) == (n % (2 * w) in residues), (w, span, n)


def test_a_symmetric_tuple_whose_zone_reflection_keeps_every_head_gets_the_rotations_classes():
    heads = [CW.HeadOffsets(frozenset({1}), frozenset({-1})), CW.HeadOffsets(frozenset({-1}), frozenset({1})),
             CW.HeadOffsets(frozenset({-1, 1}), frozenset())]
    assert CW.reflection_failures(heads[:1] + heads[2:], 0, 1) == (1, 1)
    # with both one-way heads the zone {n, 1} is reversed by i ↦ n + 1 − i, which maps each head onto the other's
    # arcs, not onto its own: ρ_Z still fails
    assert CW.reflection_failures(heads, 1, 1) == (0, 1)


# ---------------------------------------------------------------------------------------------
# The theorem at small n, by brute force over S_n

SMALL = [
    (("offsets {1}", "window(1) cyclic"), 1, 1),
    (("offsets {-1}", "window(1) cyclic"), 1, 1),
    (("window(1)", "window(1) cyclic"), 1, 2),
    (("offsets {1} cyclic", "window(1) cyclic"), 1, 0),
    (("offsets {2}", "window(2) cyclic"), 2, 2),
    (("offsets {1, -2}", "window(2) cyclic"), 2, 3),
    (("window(1)", "window(2) cyclic"), 2, 2),
]
ONE_WAY = U(Offsets((1,), True), Offsets((-1,)))
OTHER_WAY = U(Offsets((-1,), True), Offsets((1,)))
SMALL_SYMMETRIC = [
    ((ONE_WAY, Window(1, True)), ("offsets {1} cyclic + offsets {-1}", "window(1) cyclic")),
    ((ONE_WAY, Window(2, True)), ("offsets {1} cyclic + offsets {-1}", "window(2) cyclic")),
    ((OTHER_WAY, ONE_WAY, Window(1, True)),
     ("offsets {-1} cyclic + offsets {1}", "offsets {1} cyclic + offsets {-1}", "window(1) cyclic")),
]


@pytest.mark.parametrize("heads,texts", SMALL_SYMMETRIC, ids=[" | ".join(t) for _, t in SMALL_SYMMETRIC])
def test_the_symmetric_case_by_brute_force_over_s_n(heads, texts):
    found = closed_least(heads)
    assert found is not None and found.cyclic_heads.case == "symmetric"
    checked = 0
    for n in range(found.low, 9):
        nbs = neighbourhoods(list(texts), n)
        d = brute_diameter(nbs, n)
        assert d == _at(found.diameter, n)
        assert brute_least(nbs, n) == _at(found.layers, n), n
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("texts,w,z", SMALL, ids=[" | ".join(t) for t, *_ in SMALL])
def test_the_theorem_by_brute_force_over_s_n(texts, w, z):
    checked = 0
    for n in range(2 * w + 3, 9):
        nbs = neighbourhoods(list(texts), n)
        d = brute_diameter(nbs, n)
        assert d == -(-(n // 2) // w)
        want = d + 1 if n % (2 * w) in CW.extra_residues(w, z) else d
        assert brute_least(nbs, n) == want, n
        checked += 1
    assert checked >= 2


# ---------------------------------------------------------------------------------------------
# F143 (O): the union is `offsets {1, …, w} cyclic` (or {−w, …, −1}), Theorem F6, Aut = C_n

# (heads, a, b)
ONE_SIDED = [
    ((Offsets((1,)), Offsets((1, 2), True)), 1, 0),
    ((Offsets((2,)), Offsets((1, 2, 3), True)), 2, 0),
    ((Offsets((-1,)), Offsets((-2, -1), True)), 0, 1),
    ((Offsets((1, 3)), U(Offsets((1, 2), True), Offsets((3,))), Offsets((3,), True)), 3, 0),
    ((Offsets((1,)), Offsets((1,), True)), 1, 0),
    ((Offsets((-3,)), Offsets((-4, -3, -2, -1), True)), 0, 3),
]
ONE_SIDED_IDS = [" | ".join(map(show_pattern, h)) for h, *_ in ONE_SIDED]


@pytest.mark.parametrize("heads,a,b", ONE_SIDED, ids=ONE_SIDED_IDS)
def test_one_sided_unions_agree_with_the_concrete_engine_at_every_n_in_range(heads, a, b):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F143" and found.union_theorem == "F6"
    c = found.cyclic_heads
    assert (c.case, c.a, c.b, c.modulus) == ("one-sided", a, b, c.w)
    assert found.low == 2 * c.w + 2
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == _at(found.diameter, n) == -(-(n - 1) // c.w), n
        assert _at(found.layers, n) == (d if suffices else d + 1), n
        if not suffices:  # the rotation's ball, from the stated position, and its shift avoid the zone
            i, radius = int(c.position(sympy.Integer(d))), c.w * (d - 1)
            low, high = (i, i + radius + 1) if c.one_sided == 1 else (i - radius, i + 1)
            assert b + 1 <= low and high <= n - a, n


@pytest.mark.parametrize("w,z", [(1, 1), (2, 1), (3, 2), (4, 3), (4, 1), (3, 0)])
def test_the_one_sided_classes_are_those_where_the_inequality_holds(w, z):
    residues = CW.one_sided_residues(w, z)
    for n in range(2 * w + 2, 200):
        d = -(-(n - 1) // w)
        assert (z > 0 and n - z >= w * (d - 1) + 2) == (n % w in residues), n


SMALL_ONE_SIDED = [(("offsets {1}", "offsets {1} cyclic"), 1, 1), (("offsets {1}", "offsets {1, 2} cyclic"), 2, 1),
                   (("offsets {-2}", "offsets {-2, -1} cyclic"), 2, 2)]


@pytest.mark.parametrize("texts,w,z", SMALL_ONE_SIDED, ids=[" | ".join(t) for t, *_ in SMALL_ONE_SIDED])
def test_the_one_sided_case_by_brute_force_over_s_n(texts, w, z):
    for n in range(2 * w + 2, 9):
        nbs = neighbourhoods(list(texts), n)
        d = brute_diameter(nbs, n)
        assert d == -(-(n - 1) // w)
        assert brute_least(nbs, n) == (d + 1 if n % w in CW.one_sided_residues(w, z) else d), n


def _random_head(rng, w: int):
    parts = []
    for _ in range(rng.choice([1, 2])):
        kind = rng.choice(["cyclic window", "cyclic offsets", "offsets", "window", "dilated"])
        if kind == "cyclic window":
            parts.append(Window(rng.randint(1, w), True))
        elif kind == "window":
            parts.append(Window(rng.randint(1, w)))
        elif kind == "dilated" and w >= 2:
            parts.append(Dilated(1, 2))
        else:
            offsets = sorted({rng.choice([-1, 1]) * rng.randint(1, w) for _ in range(rng.randint(1, 2))})
            parts.append(Offsets(tuple(offsets), kind == "cyclic offsets"))
    return parts[0] if len(parts) == 1 else U(*parts)


def test_random_symmetric_tuples_agree_with_the_concrete_engine():
    """Case (S) on random head tuples (a fixed seed): every tuple the theorem reads as case (S), against the concrete
    engine at every n from its range's start to 30."""
    import random
    rng = random.Random(7)
    checked = 0
    for _ in range(2000):
        if checked == 6:
            break
        w = rng.choice([1, 2, 3])
        heads = tuple(dict.fromkeys(_random_head(rng, w) for _ in range(rng.choice([2, 3]))))
        found = closed_least(heads) if len(heads) >= 2 else None
        if found is None or found.theorem != "F143" or found.cyclic_heads.case != "symmetric":
            continue
        for n in range(found.low, 31):
            d, suffices = engine_least(heads, n)
            assert _at(found.layers, n) == (d if suffices else d + 1), (heads, n)
        checked += 1
    assert checked == 6
