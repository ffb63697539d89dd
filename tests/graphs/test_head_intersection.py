"""Theorems F35–F39 of docs/theory.md §11.11 (several heads with different patterns at symbolic n):
every closed form against the concrete engine (graphs, BLISS) at EVERY n ≤ 60 in its range, the claimed
elements checked on the arcs, the orders against a count written here (partial maps extended position
by position) at small n, and random pairs of structured heads."""
from __future__ import annotations

import random

import pytest
import sympy

from uapcheck.graphs import head_intersection as HI
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import (Blocks, Causal, Dilated, Global, Offsets, PatternUnion, Star, Strided, Window)

from .reference import attends, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# head tuples (two or three heads, different families) whose group the theorems decide
DECIDED = [
    (Window(1, True), Offsets((0, 2), True)),
    (Offsets((0, 1), True), Offsets((0, -1), True)),
    (Window(2), Blocks(4)),
    (Window(1), Strided(2)),
    (Global(1), Window(3)),
    (Window(1, True), U(Window(2), Global(1))),
    (Causal(), Window(2)),
    (Window(2), Strided(3)),
    (Window(1), Blocks(2)),
    (Window(3), Blocks(3)),
    (Window(1), Global(2)),
    (Window(2), Offsets((0, 1))),
    (Window(2), Dilated(1, 3)),
    (Window(1), Offsets((0, 3), True)),
    (Window(2, True), Offsets((0, 1), True)),
    (Window(1, True), Window(3)),
    (Window(2, True), Strided(2)),
    (Window(1, True), Strided(3)),
    (Window(1, True), Global(1)),
    (Offsets((0, 1), True), Window(2)),
    (Offsets((1, 3), True), Window(1)),
    (Offsets((1, 3), True), Window(2, True)),
    (U(Window(1), Global(1)), Strided(2)),
    (U(Window(1), Global(2)), Window(2)),
    (U(Window(2), Global(1)), Blocks(3)),
    (U(Window(1), Global(1)), Offsets((0, 2))),
    (U(Window(1), Dilated(1, 3)), Strided(2)),
    (Window(1), Strided(2), Blocks(2)),
    (Window(1, True), Offsets((0, 2), True), Strided(2)),
    (Window(2), Global(1), Blocks(2)),
    (Causal(), Window(1, True)),
    (Window(1), Offsets((0, -1, 2))),
    (Window(3), Dilated(1, 2)),
    (Window(1, True), Blocks(2)),
    (Star(), Window(2)),
    (Global(2), Window(6, True)),  # the cyclic reflection i ↦ 3 − i: {1, 2} and {3, …, n} reversed at once
    (Global(3), Window(2, True)),
    (Offsets((1, 3)), Global(2), Window(1, True)),
]


def _graphs(heads, n):
    return [build_graph(h, n) for h in heads]


def _case_at(form, n):
    return form.at({N: n})


def _structure_at(text: str, n: int) -> str:
    return text.replace(", …, n}", f", …, {n}}}").replace(", …, n - 1}", f", …, {n - 1}}}")


def _closed(heads):
    form = closed_group(list(heads), N)
    assert form is not None, f"{heads}: undecided"
    assert form.cases[0].intersection is not None, "not from Theorems F35–F39"
    return form


@pytest.mark.parametrize("heads", DECIDED, ids=[str(i) for i in range(len(DECIDED))])
def test_closed_form_matches_concrete_engine_at_every_n(heads):
    form = _closed(heads)
    covered = 0
    for n in range(2, NMAX + 1):
        case = _case_at(form, n)
        if case is None:
            continue
        covered += 1
        got = symmetry_group(_graphs(heads, n))
        assert int(case.order) == got.order, (heads, n, case.order, got.order)
        if case.name is not None:
            assert case.name == got.name, (heads, n, case.name, got.name)
        elif case.structure and "rotations" not in case.structure:
            assert _structure_at(case.structure, n) == (got.structure or got.name), (heads, n, case.structure,
                                                                                     got.structure)
    assert covered >= 30  # the range reaches well below 60


@pytest.mark.parametrize("heads", DECIDED[:20], ids=[str(i) for i in range(20)])
def test_class_elements_keep_every_head(heads):
    """Each class's elements (boundary maps) are automorphisms of every head at every n ≤ 60 in range."""
    form = _closed(heads)
    found = form.cases[0].intersection[0]
    for result in found.classes:
        for n in range(result.low, NMAX + 1):
            if (n - result.residue) % result.modulus:
                continue
            graphs = _graphs(heads, n)
            if result.kind == "rotations":
                ((_, m, t),) = result.elements
                elements = [("rot", m)] + ([("refl", t)] if t is not None else [])
            else:
                elements = list(result.elements)
            for e in elements:
                p = HI.perm(e, n)
                for g in graphs:
                    assert HI.keeps(p, None if g.complete else frozenset(g.codes), n), (heads, n, e)


def _brute_order(heads, n):
    pairs = [attends(h, n) for h in heads]
    return count_automorphisms(n, lambda u, v: tuple((v, u) in p for p in pairs))


@pytest.mark.parametrize("heads", DECIDED, ids=[str(i) for i in range(len(DECIDED))])
def test_orders_against_brute_force(heads):
    form = _closed(heads)
    checked = 0
    for n in range(2, 11):
        case = _case_at(form, n)
        if case is None:
            continue
        assert int(case.order) == _brute_order(heads, n), (heads, n)
        checked += 1
    assert checked or all(_case_at(form, n) is None for n in range(2, 12))


def test_named_examples():
    def at(heads, n):
        return _case_at(_closed(heads), n)
    assert at((Window(1, True), Offsets((0, 2), True)), 40).name == "C_n"
    assert at((Window(1, True), Offsets((0, 2), True)), 41).name == "C_n"
    assert at((Window(2), Blocks(4)), 40).name == "reflection"
    assert at((Window(2), Blocks(4)), 41).name == "trivial"
    assert at((Window(1, True), U(Window(2), Global(1))), 30).structure == "the reflection of {2, …, n}"
    assert at((Global(1), Window(3)), 30).name == "trivial"


def test_two_large_products_are_decided_by_the_partition_heads_theorem():
    """Two heads whose groups are both large products (O8, no small anchor) are decided by Theorem F72
    (tests/graphs/test_partition_heads.py checks it in depth); here: a class holds at n = 1000, and its order
    at the first lengths in range is the brute-force count."""
    for heads in ([U(Blocks(4), Global(1)), Strided(4)], [Blocks(3), Strided(2)]):
        form = closed_group(heads, N)
        assert form is not None and _case_at(form, 1000) is not None
        checked = 0
        for n in range(2, 11):
            case = _case_at(form, n)
            if case is not None:
                assert int(case.order) == _brute_order(heads, n), (heads, n)
                checked += 1
        assert checked, heads


def test_symbolic_parameters_stay_undecided():
    w = sympy.Symbol("w", integer=True, positive=True)
    form = closed_group([Window("w"), Blocks(4)], N, {"w": w})
    assert form is None or all(c.intersection is None for c in form.cases)


# random pairs of structured heads: the closed form never disagrees with the concrete engine

_POOL = [Window(1), Window(2), Window(3), Window(1, True), Window(2, True), Offsets((0, 1), True),
         Offsets((0, 2), True), Offsets((1, 3), True), Offsets((0, 1)), Offsets((0, -2)), Dilated(1, 2),
         Dilated(1, 3), Strided(2), Strided(3), Blocks(2), Blocks(3), Blocks(4), Global(1), Global(2), Causal(),
         U(Window(1), Global(1)), U(Window(2), Global(1)), U(Blocks(3), Global(1)), U(Window(1), Strided(3))]


def _random_pairs(count, seed=9):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        a, b = rng.sample(_POOL, 2)
        out.append((a, b))
    return out


def test_random_pairs_never_disagree():
    decided = 0
    for heads in _random_pairs(40):
        form = closed_group(list(heads), N)
        if form is None:
            continue
        decided += 1
        for n in range(2, 41):
            case = _case_at(form, n)
            if case is None:
                continue
            got = symmetry_group(_graphs(heads, n))
            assert int(case.order) == got.order, (heads, n)
            if case.name is not None:
                assert case.name == got.name, (heads, n)
    assert decided >= 20


def test_the_union_of_the_heads_serves_as_anchor():
    """G ⊆ Aut(union): with the union window(1) + dilated(1, 3) (the reflection from its family theorem) as
    anchor, the decision agrees with the concrete engine at every n ≤ 60 of its range."""
    heads = (Window(1), Dilated(1, 3))
    anchor = HI.anchor_from_family(-1, U(*heads), N, {})
    assert anchor is not None and anchor.kind == "reflection" and anchor.head == -1
    found = HI._intersection.__wrapped__(heads, (), anchor, "n")
    assert found is not None
    for case in HI.cases_of(found, N):
        for n in range(2, NMAX + 1):
            if case.condition.xreplace({N: n}) is sympy.true:
                assert int(case.order.xreplace({N: n})) == symmetry_group(_graphs(heads, n)).order, n


@pytest.mark.parametrize("condition, low", [
    (lambda n: sympy.Ge(-n, -4), None),                       # n ≤ 4: false from 5 on (it read "every n ≥ 1")
    (lambda n: sympy.Ge(n / 3, 5), 15),                       # the root past every constant's size
    (lambda n: sympy.Ge(n, 12), 12),
    (lambda n: sympy.And(sympy.Ge(n, 7), sympy.Le(n, 100)), None),
    (lambda n: sympy.Ge(n ** 2, 50), 8),
    (lambda n: sympy.Ge(n, 20_000), 20_000),                  # past the scan: the linear route
])
def test_the_least_length_from_which_a_condition_holds_is_read_past_every_sign_change(condition, low):
    from uapcheck.graphs.head_intersection import _low_of
    n = sympy.Symbol("n", integer=True, positive=True)
    got = _low_of(condition(n), n)
    assert got == low
    if low is not None:  # a second way: the condition at every length from there to well past every root
        assert all(condition(n).xreplace({n: sympy.Integer(v)}) is sympy.true for v in range(low, low + 300))
        assert low == 1 or condition(n).xreplace({n: sympy.Integer(low - 1)}) is sympy.false
