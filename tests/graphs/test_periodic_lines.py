"""Theorems F115 and F116 (docs/theory.md §11.11): `blocks(b)` with non-cyclic window, dilated and offsets parts (a
periodic line pattern) — D by residue of n mod σQ growing by c per period, G = the ends' groups with the reflection
when b | n and S = −S — against the concrete engine (graphs, BFS, BLISS) over a whole period from the range's start,
the order by an automorphism count written in the test (no engine), and the values at 1,048,576 without arcs."""
from __future__ import annotations

import pytest
import sympy

from .reference import attends, count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs import periodic_lines as PL
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, Offsets, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)

UNIONS = [
    (Blocks(3), Dilated(2, 2)),                       # 2wr > b: the ports of a block overlap
    (Blocks(5), Dilated(2, 2)),
    (Blocks(2), Dilated(1, 3)),                       # the jumps skip past the next block's first half
    (Blocks(3), Dilated(1, 2)),
    (Blocks(3), Offsets((1, -4), False)),             # one-sided offsets: not symmetric, G trivial
    (Blocks(5), Dilated(2, 2), Window(1)),
    (Blocks(9), Window(1), Offsets((-5, -3, 3, 5), False)),  # twins at both ends: E_L, E_R non-trivial
    (Blocks(7), Offsets((-4, -3, -2, 3, 4), False)),
    (Blocks(2), Dilated(3, 3), Offsets((5,), False)),   # σQ = 90 from N₀ = 220: a base check of 8,649,000 (0.4 s)
]


# Theorem F118 proves D layers, least, for these (S = −S and its check at every length to N₁ − 1); the others stay
# at D + 1, sufficient (one-sided offsets, S ≠ −S, or a check beyond its work limit)
LEAST = {0, 1, 2, 3, 5}


def _theorem(parts):
    return families.match([PatternUnion(parts)], N, {})


@pytest.mark.parametrize("parts", UNIONS, ids=lambda p: " + ".join(map(str, p)))
def test_against_concrete_engine(parts):
    """D and |G| at every length of a whole period from the range's start (at most 24 lengths, spread over it)."""
    theorem = _theorem(parts)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F115", theorem
    assert theorem.least is (UNIONS.index(parts) in LEAST) and theorem.group is not None
    low = int(theorem.low)
    period = int(dict(theorem.params)["P"])
    step = max(1, period // 24)
    for n in range(low, low + period, step):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(parts), n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (parts, n, got.diameter, want)
        assert got.order == want["order"], (parts, n, got.order, want)
        assert want["layers"] == want["diameter"] + (0 if theorem.least else 1)


def test_the_stated_range_below_the_proved_one():
    """The range is computed downwards from the proved one (90 for blocks(3) + dilated(2, 2)) while the exact D and |G|
    agree with the closed forms, to 61: every length in between against the concrete engine."""
    data = PL.decide(3, (-4, -2, 2, 4))
    assert data is not None and data.proved_low == 90 and data.low == 61
    for n in range(61, 90):
        got = concrete(PatternUnion((Blocks(3), Dilated(2, 2))), n, layers=False)
        assert (got.diameter, got.order) == (data.diameter_at(n), data.order_at(n)), n


def test_the_diameter_grows_by_c_every_period():
    """D(n + σQ) = D(n) + c on a second period, by BFS on the reference arcs (no engine)."""
    data = PL.decide(3, (-4, -2, 2, 4))
    assert data is not None
    for n in range(data.diameter_low, data.diameter_low + data.period, 3):
        m = n + data.period
        arcs = attends(PatternUnion((Blocks(3), Dilated(2, 2))), m)
        out = {v: [i for j, i in arcs if j == v] for v in range(1, m + 1)}  # j → i: i attends to j
        worst = 0
        for root in range(1, m + 1):
            seen, frontier, level = {root}, [root], 0
            while frontier:
                nxt = [x for v in frontier for x in out[v] if x not in seen]
                seen |= set(nxt)
                frontier = list(dict.fromkeys(nxt))
                level += 1 if frontier else 0
            assert len(seen) == m
            worst = max(worst, level)
        assert worst == data.diameter_at(n) + data.growth == data.diameter_at(m), (n, worst)


@pytest.mark.parametrize("b, jumps, parts", [
    (3, (-2, 2), (Blocks(3), Dilated(1, 2))),
    (3, (-4, 1), (Blocks(3), Offsets((1, -4), False))),
])
def test_order_by_counting(b, jumps, parts):
    """|Aut| by extending partial maps on the reference arcs, at three lengths from F116's range."""
    data = PL.decide(b, jumps)
    assert data is not None
    for n in range(data.low, data.low + 3):
        arcs = attends(PatternUnion(parts), n)
        degree = {v: (sum(1 for i, j in arcs if i == v), sum(1 for i, j in arcs if j == v)) for v in range(1, n + 1)}
        count = count_automorphisms(n, lambda u, v, arcs=arcs: (u, v) in arcs,
                                    invariant=degree.__getitem__)
        assert count == data.order_at(n), (n, count)


def test_no_certificate_where_residues_are_exchanged():
    """`blocks(4) + dilated(3, 2)`: p ↦ p + 1 (p odd), p − 1 (p even) maps residue 1 onto 2 and is a symmetry at every
    even n, so (C1) fails and the theorem does not apply (the concrete engine finds |G| = 2 at n ≡ 2 (mod 4))."""
    assert PL.group_data(4, (-6, -4, -2, 2, 4, 6)) is None
    found = _theorem((Blocks(4), Dilated(3, 2)))
    assert not (isinstance(found, families.FamilyTheorem) and found.theorem == "F115")
    assert concrete(PatternUnion((Blocks(4), Dilated(3, 2))), 42, layers=False).order == 2


def test_no_certificate_for_one_sided_even_jumps():
    """`blocks(8) + offsets {−6, −4, 6}`: every jump even, so the same exchange of p and p ± 1 is a symmetry (at n = 144
    the concrete engine finds |G| = 8); a jump that is also a block arc is one arc, not two, in the balls compared."""
    assert PL.group_data(8, (-6, -4, 6)) is None
    assert concrete(PatternUnion((Blocks(8), Offsets((-6, -4, 6), False))), 144, layers=False).order == 8


def test_real_sizes_without_arcs():
    """At n = 1,048,576 the closed forms give D, |G| and the layers directly."""
    theorem = families.match([PatternUnion((Blocks(3), Dilated(2, 2)))], sympy.Integer(1_048_576), {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F115"
    assert theorem.diameter == 262_145 and theorem.order == 1 and theorem.layers == 262_145 and theorem.least
    symbolic = _theorem((Blocks(3), Dilated(2, 2)))
    assert families.at(symbolic, {"n": 1_048_575}) == {"diameter": 262_144, "order": 2, "layers": 262_144}


def test_the_kernel_rechecks_the_family_step():
    """The proof kernel re-matches F115 and compares each claimed value; forged values are rejected."""
    from uapcheck.certificates import StandardFamily
    from uapcheck.proof import CertificateRejected
    pattern = PatternUnion((Blocks(3), Dilated(2, 2)))
    theorem = _theorem((Blocks(3), Dilated(2, 2)))
    good = (("diameter", theorem.diameter), ("layers", theorem.layers), ("least", True), ("order", theorem.order))
    StandardFamily(pattern, N, (), (), "F115", good).check()
    for bad in [(("layers", theorem.diameter + 1),), (("diameter", theorem.diameter + 1),),
                (("order", 2 * theorem.order),), (("least", False),)]:
        with pytest.raises(CertificateRejected):
            StandardFamily(pattern, N, (), (), "F115", bad).check()
    with pytest.raises(CertificateRejected):
        StandardFamily(pattern, N, (), (), "F95", ()).check()
