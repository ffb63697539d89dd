"""Theorem F171 of docs/theory.md §11.11 (a head `blocks(b) + strided(s)` beside heads of hubs, at symbolic n): every
class's order formula against nauty's order of the heads (the verifier's count: python-igraph 1.0's BLISS ends the
process on some of these unions' quotients, e.g. `strided(6) + blocks(2)` | `global(1)` at n = 19) at EVERY n ≤ 60 in
its range for twelve seeded instances, against the concrete engine (BLISS, in a forked child) wherever it answers for
four of them, against an automorphism count written in tests/graphs/reference.py at
n ≤ 10, and the group's name read as its definition (the permutations keeping the blocks, the residue classes and
every head's hubs) by brute force over S_n."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy

from uapcheck.graphs import grid_hub_heads as GH
from uapcheck.spec import Blocks, Global, PatternUnion, Star, Strided
from uapcheck.verifier import groups, patterns

from .reference import attends, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def _instances() -> list:
    rng = random.Random(171)
    out: list = [(PatternUnion((Strided(6), Blocks(2))), Global(1)), (PatternUnion((Blocks(7), Strided(5))), Star()),
                 (PatternUnion((Blocks(3), Strided(2))), Star()), (PatternUnion((Blocks(4), Strided(3))), Global(2))]
    while len(out) < 12:
        b, s = rng.randint(2, 6), rng.randint(2, 6)
        hubs = sorted(rng.sample(range(1, min(b, 3) + 1), rng.randint(1, min(b, 3, 2))))
        heads = (PatternUnion((Blocks(b), Strided(s))),) + tuple(Star() if g == 1 and rng.random() < 0.5 else Global(g)
                                                                for g in hubs)
        if GH.decide(list(heads)) is not None and heads not in out:
            out.append(heads)
    return out


INSTANCES = _instances()


def _nauty(heads, n) -> int:
    got, method = groups.full_order(patterns.head_labels([patterns.head_arcs(h, n) for h in heads]), n, "none")
    assert got is not None, method
    return got


def _ids(heads) -> str:
    from uapcheck.show import show_pattern
    return " | ".join(show_pattern(h) for h in heads)


@pytest.mark.parametrize("heads", INSTANCES, ids=[_ids(h) for h in INSTANCES])
def test_every_class_agrees_with_nauty_at_every_n_in_range(heads):
    found = GH.decide(list(heads))
    assert found is not None
    cases = GH.group_cases(list(heads), N)
    assert len(cases) == found.modulus
    for n in range(min(c.low for c in found.classes), NMAX + 1):
        (c,) = [c for c in found.classes if c.residue == n % found.modulus]
        if n < c.low:
            continue
        (case,) = [k for k in cases if k.condition.xreplace({N: n}) is sympy.true]
        order = int(case.order.xreplace({N: n}))
        assert order == _nauty(heads, n) == GH.order_at(found.block, found.stride, found.hubs, n), n
        assert case.structure == found.name()


def test_the_ranges_start_where_the_theorem_holds():
    for heads in INSTANCES:
        found = GH.decide(list(heads))
        assert all(c.low >= GH.floor_of(found.block, found.stride, found.hubs) for c in found.classes)
        assert all(c.low % found.modulus == c.residue for c in found.classes)


SMALL = [(PatternUnion((Blocks(3), Strided(2))), Star()), (PatternUnion((Blocks(2), Strided(2))), Star()),
         (PatternUnion((Blocks(2), Strided(3))), Global(2)), (PatternUnion((Blocks(2), Strided(2))), Star(), Global(2))]


@pytest.mark.parametrize("heads", SMALL, ids=[_ids(h) for h in SMALL])
def test_the_orders_against_a_count_written_in_the_tests(heads):
    found = GH.decide(list(heads))
    checked = 0
    for c in found.classes:
        for n in range(c.low, 11, found.modulus):
            arcs = [attends(h, n) for h in heads]

            def arc(u, v, arcs=arcs):  # a coloured arc: the set of heads that have it
                return tuple((u, v) in a for a in arcs)
            assert c.at(n, found.modulus) == count_automorphisms(n, arc), n
            checked += 1
    assert checked


def _keeps_definition(b, s, hubs, n, perm) -> bool:
    """σ maps blocks onto blocks, residue classes onto residue classes, and keeps {1..g} for every hub count g."""
    blocks = {frozenset(range(k, min(k + b, n + 1))) for k in range(1, n + 1, b)}
    classes = {frozenset(range(r, n + 1, s)) for r in range(1, s + 1)}
    return ({frozenset(perm[x - 1] for x in p) for p in blocks} == blocks
            and {frozenset(perm[x - 1] for x in p) for p in classes} == classes
            and all({perm[x - 1] for x in range(1, g + 1)} == set(range(1, g + 1)) for g in hubs))


@pytest.mark.parametrize("b, s, hubs, n", [(2, 2, (1,), 6), (2, 2, (1, 2), 7), (3, 2, (2,), 8), (2, 3, (1,), 9)])
def test_the_name_is_the_group_by_brute_force(b, s, hubs, n):
    heads = [PatternUnion((Blocks(b), Strided(s)))] + [Global(g) for g in hubs]
    found = GH.decide(heads)
    assert found is not None and n >= GH.floor_of(b, s, hubs)
    assert found.name().startswith(f"the permutations keeping the blocks of {b}, the residue classes mod {s}, and {{1")
    arcs = [attends(h, n) for h in heads]
    kept = 0
    for perm in itertools.permutations(range(1, n + 1)):
        heads_kept = all({(perm[u - 1], perm[v - 1]) for u, v in a} == a for a in arcs)
        assert heads_kept == _keeps_definition(b, s, hubs, n, perm), perm
        kept += heads_kept
    c = next(c for c in found.classes if c.residue == n % found.modulus)
    if n >= c.low:
        assert c.at(n, found.modulus) == kept


@pytest.mark.parametrize("heads", [
    (PatternUnion((Blocks(2), Strided(3))), Global(3)),          # hubs beyond the first block
    (PatternUnion((Blocks(4), Strided(3), Global(1))), Star()),  # hubs inside the grid head
    (Blocks(4), Star()),                                         # no grid head
    (PatternUnion((Blocks(4), Strided(3))),),                    # no hub head
])
def test_outside_the_theorem_nothing_is_decided(heads):
    assert GH.decide(list(heads)) is None


def _engine_order_apart(heads, n):
    """The concrete engine's order (graphs/symmetry.py, BLISS) in a forked child: the int, "undecided" when its two
    splitting heuristics disagree, or None when BLISS ends the child's process."""
    import os
    import pickle
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        import faulthandler
        faulthandler.disable()  # a fault ends the child quietly; the parent reads the empty pipe
        os.close(r)
        from uapcheck.bignum import AutomorphismCountsDisagree
        from uapcheck.graphs.build import build_graph
        from uapcheck.graphs.symmetry import symmetry_group
        try:
            got = int(symmetry_group([build_graph(h, n, {}) for h in heads]).order)
        except AutomorphismCountsDisagree:
            got = "undecided"
        with os.fdopen(w, "wb") as f:
            f.write(pickle.dumps(got))
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    return pickle.loads(data) if data else None


@pytest.mark.parametrize("heads", INSTANCES[:4], ids=[_ids(h) for h in INSTANCES[:4]])
def test_every_class_agrees_with_the_concrete_engine_where_it_answers(heads):
    found = GH.decide(list(heads))
    compared = 0
    for n in range(min(c.low for c in found.classes), NMAX + 1):
        c = next(c for c in found.classes if c.residue == n % found.modulus)
        if n < c.low:
            continue
        got = _engine_order_apart(heads, n)
        if isinstance(got, int):  # BLISS answered with both heuristics agreeing: the same order
            assert got == c.at(n, found.modulus), n
            compared += 1
    assert compared >= 5
