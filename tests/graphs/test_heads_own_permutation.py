"""Theorem F127 of docs/theory.md §11.11 (a view witness of the heads' own that is a permutation near the ends, not a
swap: D + 1 = 3 layers, least, on a class where neither the union's witness nor a swap of the heads' own is one):
`window(1) + strided(6)` | `offsets {−1}` | `blocks(6)` (§13 L2′), whose union is F64's `window(1) + strided(6) +
blocks(6)` (§11.13), gets 3 layers, least, on every class mod 6 — F88's swaps on n ≡ 1, …, 4 and F127's exchange of
two blocks near the right end on n ≡ 0, 5. Checked against the concrete engine (BLISS rooted views with the heads as
arc colours) at every n from the range's start to 60, and the permutation re-checked at those n with the reference
neighbourhoods of tests/graphs/brute_views.py (no code shared with the engine)."""
from __future__ import annotations

import sympy

from uapcheck.graphs import head_layers as HL
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Offsets, PatternUnion, Strided, Window

from .heads_engines import closed_least, engine_least
from .brute_views import neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60
HEADS = (PatternUnion((Window(1), Strided(6))), Offsets((-1,)), Blocks(6))


def test_every_class_is_decided_and_agrees_with_the_concreteengine_least():
    found = closed_least(HEADS)
    assert found is not None and found.theorem == "F86" and found.union_theorem == "F64" and found.low == 42
    assert {c.residue: c.found_by for c in found.classes} == {0: "F127", 1: "F88", 2: "F88", 3: "F88", 4: "F88",
                                                               5: "F127"}
    assert found.layers == 3
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(HEADS, n)
        assert d == 2 and suffices is False, n


def test_the_permutation_is_a_view_witness_by_the_reference_neighbourhoods():
    found = closed_least(HEADS)
    texts = [show_pattern(h) for h in HEADS]
    for c in found.classes:
        if c.found_by != "F127":
            continue
        pos, pairs = c.permutation
        for n in range(c.low, NMAX + 1, found.modulus):
            here = {N: n}
            i = int(sympy.sympify(pos).xreplace(here))
            perm = {int(x.xreplace(here)): int(y.xreplace(here)) for x, y in pairs}
            assert sorted(perm) == sorted(perm.values()) and all(x != y for x, y in perm.items())
            sigma = [0] + [perm.get(v, v) for v in range(1, n + 1)]
            nbs = neighbourhoods(texts, n)
            ball = {i} | set().union(*(nb[i] for nb in nbs))
            for nb in nbs:
                for v in ball:
                    assert frozenset(sigma[u] for u in nb[v]) == nb[sigma[v]], (n, v)
            # outside G: some head's neighbourhood is not mapped onto the image's
            assert any(frozenset(sigma[u] for u in nb[v]) != nb[sigma[v]] for nb in nbs for v in range(1, n + 1)), n


def test_the_class_check_rejects_a_permutation_one_head_splits():
    found = closed_least(HEADS)
    c = next(c for c in found.classes if c.found_by == "F127")
    pos, pairs = c.permutation
    half = pairs[: len(pairs) // 2 - 1] + ((pairs[len(pairs) // 2 - 1][0], pairs[-1][0]), (pairs[-1][0],
                                                                                          pairs[len(pairs) // 2 - 1][0]))
    reach, period = HL._sizes(list(HEADS), {})
    assert HL._permutation_on_class(list(HEADS), (pos, tuple(half)), N, {}, found.modulus, c.residue, found.low,
                                    reach, period) is None
