"""Theorem F124 of docs/theory.md §11.11 (several heads whose union needs D layers and has the reflection as its only
symmetry, while the heads' group is smaller): D layers, least, where the reflection moves some head's neighbourhood
of every position. Every decided head tuple against the concrete engine (graphs, BLISS rooted views with the heads as
arc colours) at every n ≤ 60 in its range (and at n = 115..122 for `blocks(5) + strided(5)` | `window(5)`, whose range
starts at 115), the premise (X) re-checked with the reference neighbourhoods (tests/graphs/brute_views.py, no code
shared with the engine), and the theorem at one length by brute force over S_n: wherever its premises hold at n
(the union needs D layers and its group is {id, ρ}, by brute force; (X) holds), the heads need D layers."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import build_graph
from uapcheck.graphs import head_layers as HL
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, PatternUnion, Strided, Window

from .heads_engines import closed_least, engine_least
from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


BLOCKS_WINDOW = (U(Blocks(5), Strided(5)), Window(5))  # §13 L2′ (i): the union is F7's window(5) + strided(5)
# (heads, the classes of n mod M decided by F124) — the union is F7's window(w) + strided(s) in each
DECIDED = [
    ((Offsets((1, 2)), U(Offsets((-2, -1)), Strided(3))), {0, 1, 2}),       # the heads' group trivial on every class
    ((U(Blocks(3), Strided(3)), Window(2)), {1, 2}),                         # the reflection kept for n ≡ 0 (mod 3): F70
    ((Offsets((1,)), U(Offsets((-1,)), Strided(2))), {0, 1}),
    ((U(Blocks(3), Strided(4)), Window(3)), {1, 2, 4, 5, 7, 8, 10, 11}),
    ((Offsets((1, 2, 3)), U(Window(3), Strided(4))), {0, 1, 2, 3}),
    ((U(Blocks(2), Strided(2)), Window(1)), {1}),
    ((U(Blocks(2), Strided(3)), Window(2)), {1, 3, 5}),
]


def _moved_everywhere(nbs, n: int) -> bool:
    """(X), read on the whole neighbourhoods: every position v has a head with ρ(N_h(v)) ≠ N_h(ρ v), ρ(x) = n + 1 − x."""
    return all(any(frozenset(n + 1 - u for u in nb[v]) != nb[n + 1 - v] for nb in nbs) for v in range(1, n + 1))


@pytest.mark.parametrize("heads,classes", DECIDED, ids=[" | ".join(map(show_pattern, h)) for h, _ in DECIDED])
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads, classes):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F86" and found.union_theorem == "F7"
    assert {c.residue for c in found.classes if c.found_by == "F124"} == classes
    assert found.low <= NMAX
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == int(found.diameter) == 2 and int(found.layers.xreplace({N: n})) == 2, n
        assert suffices, n


def test_the_blocks_and_window_heads_of_l2_prime_against_the_concreteengine_least():
    found = closed_least(BLOCKS_WINDOW)
    assert found.theorem == "F86" and found.union_theorem == "F7" and found.low == 115
    assert {c.residue: c.found_by for c in found.classes} == {0: "F70", 1: "F124", 2: "F124", 3: "F124", 4: "F124"}
    for n in range(115, 123):
        d, suffices = engine_least(BLOCKS_WINDOW, n)
        assert d == 2 and suffices and found.layers == 2, n


@pytest.mark.parametrize("heads,classes", DECIDED + [(BLOCKS_WINDOW, {1, 2, 3, 4})],
                         ids=[" | ".join(map(show_pattern, h)) for h, _ in DECIDED + [(BLOCKS_WINDOW, None)]])
def test_the_reflection_moves_a_heads_neighbourhood_of_every_position_by_the_reference(heads, classes):
    found = closed_least(heads)
    texts = [show_pattern(h) for h in heads]
    for c in found.classes:
        if c.found_by != "F124":
            continue
        for n in range(c.low, c.low + 3 * found.modulus, found.modulus):
            nbs = neighbourhoods(texts, n)
            assert _moved_everywhere(nbs, n), n
            union = [[frozenset()] + [frozenset().union(*(nb[v] for nb in nbs)) for v in range(1, n + 1)]]
            assert all(frozenset(n + 1 - u for u in union[0][v]) == union[0][n + 1 - v] for v in range(1, n + 1))


def test_the_local_check_finds_a_position_the_reflection_keeps():
    # window(3) | strided(4) keeps the reflection in both heads (F70's pair): (X) fails at every position
    heads = [build_graph(h, 40, {}) for h in (Window(3), Strided(4))]
    assert HL.reflection_broken_at(heads, 40, 4) == 1
    heads = [build_graph(h, 41, {}) for h in BLOCKS_WINDOW]
    assert HL.reflection_broken_at(heads, 41, 5) is None


# ---------------------------------------------------------------------------------------------
# The theorem at one length, by brute force over S_n

SMALL = ["window(1)", "window(2)", "offsets {1}", "offsets {-1}", "offsets {1, 2}", "strided(2)", "strided(3)",
         "blocks(2)", "blocks(3)", "offsets {-1} + strided(2)", "blocks(2) + strided(2)", "blocks(3) + strided(3)"]


def _union_group_is_the_reflection(nb, n: int) -> bool:
    """By brute force over S_n: the union's automorphisms are the identity and ρ."""
    found = []
    for p in itertools.permutations(range(1, n + 1)):
        sigma = (0,) + p
        if all(frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]] for v in range(1, n + 1)):
            found.append(p)
            if len(found) > 2:
                return False
    return sorted(found) == sorted([tuple(range(1, n + 1)), tuple(range(n, 0, -1))])


@pytest.mark.parametrize("n", [7])
def test_the_theorem_at_one_length_by_brute_force(n):
    applied = 0
    for a, b in itertools.combinations(SMALL, 2):
        nbs = neighbourhoods([a, b], n)
        d = brute_diameter(nbs, n)
        if d is None or d < 2 or not _moved_everywhere(nbs, n):
            continue
        union = [[frozenset()] + [frozenset().union(*(nb[v] for nb in nbs)) for v in range(1, n + 1)]]
        if not _union_group_is_the_reflection(union[0], n) or brute_least(union, n) != d:
            continue
        applied += 1
        assert brute_least(nbs, n) == d, (a, b)
    assert applied >= 3
