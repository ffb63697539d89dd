"""Theorem F72 of docs/theory.md §11.11 (two partition heads at symbolic n: blocks, strided and global heads, or
blocks or strided with globals): every class's order formula against the concrete engine (graphs, BLISS) at
EVERY n ≤ 60 in its range, against an automorphism count written in tests/graphs/reference.py at n ≤ 10, and the
group's name read as its definition (the permutations keeping both heads' parts and globals) by brute force."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import partition_heads as PH
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Global, PatternUnion, Star, Strided

from .reference import attends, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


DECIDED = [
    (U(Blocks(4), Global(1)), Strided(4)),
    (Blocks(4), Strided(4)),
    (Blocks(2), Strided(3)),
    (Blocks(3), Strided(2)),
    (Global(2), Blocks(3)),
    (Strided(2), Strided(3)),
    (U(Strided(3), Global(1)), Blocks(2)),
    (Star(), Strided(3)),
    (U(Blocks(3), Global(2)), U(Strided(2), Global(1))),
]


def _engine_order(heads, n) -> int:
    return int(symmetry_group([build_graph(h, n, {}) for h in heads]).order)


@pytest.mark.parametrize("heads", DECIDED)
def test_every_class_agrees_with_the_concrete_engine_at_every_n_in_range(heads):
    found = PH.decide(heads)
    assert found is not None
    cases = PH.group_cases(heads, N)
    for n in range(min(c.low for c in found.classes), NMAX + 1):
        (c,) = [c for c in found.classes if c.residue == n % found.modulus]
        if n < c.low:
            continue
        (case,) = [k for k in cases if k.condition.xreplace({N: n}) is sympy.true]
        assert int(case.order.xreplace({N: n})) == _engine_order(heads, n), n


@pytest.mark.parametrize("heads", DECIDED[:6])
def test_the_orders_against_a_count_written_in_the_tests(heads):
    found = PH.decide(heads)
    for c in found.classes:
        for n in range(c.low, 11, found.modulus):
            arcs = [attends(h, n) for h in heads]

            def arc(u, v, arcs=arcs):  # a coloured arc: the set of heads that have it
                return tuple((u, v) in a for a in arcs)
            assert c.at(n, found.modulus) == count_automorphisms(n, arc), n


def _keeps(heads, n, perm) -> bool:
    """σ maps each head's parts onto parts and keeps its globals, read from the head's definition."""
    for h in (PH.classify(p, {}) for p in heads):
        parts, marked = PH.parts_at(h, n)
        if {perm[x - 1] for x in marked} != set(marked):
            return False
        images = {frozenset(perm[x - 1] for x in p) for p in parts}
        if images != set(parts):
            return False
    return True


@pytest.mark.parametrize("heads", [DECIDED[0], DECIDED[2], DECIDED[4], DECIDED[8]])
def test_the_name_is_the_group_by_brute_force(heads):
    n = 7
    graphs = [build_graph(h, n, {}) for h in heads]
    codes = [g.codes for g in graphs]

    def automorphism(perm):
        return all(frozenset((perm[c // n] - 1) * n + perm[c % n] - 1 for c in cs) == cs for cs in codes)

    for perm in itertools.permutations(range(1, n + 1)):
        assert automorphism(perm) == _keeps(heads, n, perm)


def test_heads_outside_the_theorem_are_not_decided():
    from uapcheck.spec import Window
    assert PH.decide((Blocks(2), Blocks(3))) is None      # two block partitions: the quotient grows with n
    assert PH.decide((Window(1), Strided(3))) is None     # a window is not a partition head
    assert PH.decide((U(Blocks(2), Strided(3)), Strided(2))) is None
