"""Theorem F117 (docs/theory.md §11.11): `blocks(b)` with non-cyclic window, dilated and offsets parts whose symmetries
exchange residues mod b (all jumps even with b even: the two positions of each parity pair in a block exchanged) —
|G| by residue of n mod b, G an extension of the automorphisms fixing the deep positions by the periodic symmetries
that extend, D by F115 — against the concrete engine (graphs, BFS, BLISS) over a whole period from the range's start,
an automorphism count written in the tests (no engine), the symmetries on the reference arcs, and the values at
1,048,576 without arcs."""
from __future__ import annotations

import pytest
import sympy

from .reference import attends, count_automorphisms
from uapcheck.graphs import families
from uapcheck.graphs import periodic_exchanges as PE
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, Offsets, PatternUnion

N = sympy.Symbol("n", integer=True, positive=True)

UNIONS = [
    (Blocks(4), Dilated(3, 2)),                        # S = ±{2, 4, 6}: the exchange and the reflections
    (Blocks(8), Offsets((-6, -4, 6), False)),          # not symmetric: the exchange, end transpositions
    (Blocks(6), Offsets((-4, 2), False)),
    (Blocks(4), Offsets((-2, 6), False)),
    (Blocks(6), Dilated(2, 2)),                        # a symmetry fixes a position and a neighbour: (C5) as stated
]


# Theorem F118 proves D layers, least, for blocks(4) + dilated(3, 2), and class by class for blocks(6) + dilated(2, 2)
# (D + 1, least, at n ≡ 1, 2 mod 12, where a view witness exists at every length, D, least, elsewhere); the one-sided
# offsets (S ≠ −S) stay at D + 1, sufficient
LEAST = {0, 4}
BY_CLASS = {4: (12, {1, 2})}   # the residues of n mod P where the count is D + 1


def _theorem(parts):
    return families.match([PatternUnion(parts)], N, {})


@pytest.mark.parametrize("parts", UNIONS, ids=lambda p: " + ".join(map(str, p)))
def test_against_concrete_engine(parts):
    """D and |G| at every length of a period of n mod b from the range's start, and of a second one further on."""
    theorem = _theorem(parts)
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F117", theorem
    assert theorem.least is (UNIONS.index(parts) in LEAST) and theorem.group is not None
    low, b = int(theorem.low), int(dict(theorem.params)["b"])
    for n in list(range(low, low + b)) + list(range(low + 5 * b + 1, low + 6 * b + 1)):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(parts), n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (parts, n, got.diameter, want)
        assert got.order == want["order"], (parts, n, got.order, want)
        modulus, plus = BY_CLASS.get(UNIONS.index(parts), (1, set() if theorem.least else {0}))
        assert want["layers"] == want["diameter"] + (1 if n % modulus in plus else 0)


def test_orders_of_the_residue_exchange():
    """blocks(4) + dilated(3, 2): 4 for 4 | n (the exchange and the reflection), 2 for n ≡ 2 (mod 4), 1 for odd n;
    blocks(8) + offsets {−6, −4, 6}: 8, 4, 8, 2, 4, 2, 4, 4 by n mod 8."""
    first = PE.decide(4, (-6, -4, -2, 2, 4, 6))
    second = PE.decide(8, (-6, -4, 6))
    assert first is not None and second is not None and first.low == second.low == 61
    assert [first.order_at(n) for n in range(64, 68)] == [4, 1, 2, 1]
    assert [second.order_at(n) for n in range(64, 72)] == [8, 4, 8, 2, 4, 2, 4, 4]
    assert [c.kernel for c in second.classes] == [4, 4, 4, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("n", [61, 62, 64])
def test_order_by_a_count_written_in_the_test(n):
    """|Aut Γ_n| by extending partial maps on the reference arcs (tests/graphs/reference.py), no engine."""
    data = PE.decide(4, (-6, -4, -2, 2, 4, 6))
    assert data is not None
    arcs = attends(PatternUnion((Blocks(4), Dilated(3, 2))), n)
    degree = {v: sum(1 for i, j in arcs if j == v) for v in range(1, n + 1)}
    assert count_automorphisms(n, lambda u, v: (u, v) in arcs, lambda v: degree[v]) == data.order_at(n)


def test_the_symmetries_keep_the_reference_arcs():
    """Each periodic symmetry found maps the arcs of a middle stretch of Γ_200 onto arcs (reference arcs)."""
    for b, jumps, parts in ((4, (-6, -4, -2, 2, 4, 6), (Blocks(4), Dilated(3, 2))),
                            (8, (-6, -4, 6), (Blocks(8), Offsets((-6, -4, 6), False)))):
        found = PE.symmetries(b, jumps)
        assert found is not None and len(found) >= 2
        arcs = attends(PatternUnion(parts), 200)
        for alpha in found:
            beta = alpha.shifted(80 - alpha(80) + (alpha(80) - 80) % b)  # near the middle
            for i, j in arcs:
                if 60 <= i <= 140 and 60 <= j <= 140:
                    assert (beta(i), beta(j)) in arcs, (b, alpha, i, j)


def test_where_f116_holds_it_is_kept_and_f117_agrees():
    """blocks(3) + dilated(2, 2) has no residue exchange: F115/F116 decide it, and F117's certificate (A = the
    translations and the reflections) gives F116's orders (2 when 3 | n, else 1)."""
    from uapcheck.graphs import periodic_lines as PL
    theorem = _theorem((Blocks(3), Dilated(2, 2)))
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F115"
    old, new = PL.decide(3, (-4, -2, 2, 4)), PE.decide(3, (-4, -2, 2, 4))
    assert old is not None and new is not None and len(new.found) == 2
    for n in range(max(old.low, new.low), max(old.low, new.low) + 6):
        assert new.order_at(n) == old.order_at(n), n


def test_values_at_a_million_without_arcs():
    theorem = _theorem((Blocks(4), Dilated(3, 2)))
    want = families.at(theorem, {"n": 1_048_576})
    assert want["order"] == 4 and want["diameter"] == 174_763 and want["layers"] == 174_763  # D, least (F118)
    second = families.at(_theorem((Blocks(8), Offsets((-6, -4, 6), False))), {"n": 1_048_576})
    assert second["order"] == 8


def test_the_search_for_symmetries_stays_small():
    """The images are tried among positions whose balls of radius 2 are isomorphic: blocks(10) + dilated(2, 2) gets its
    8 symmetries (the parity exchange, the exchange of the middle pair 5, 6 of each block, the reflections) within the
    node bound, where trying every clique took over a minute; with twins in the blocks the bound ends the search."""
    found = PE.symmetries(10, (-4, -2, 2, 4))
    assert found is not None and len(found) == 8
    assert PE.symmetries(16, (-3, -1, 1, 3)) is None
