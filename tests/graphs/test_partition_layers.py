"""Theorem F76 of docs/theory.md §11.11 (partition heads whose union has D = 2: 2 layers, least, on a residue class
where no position's ball misses two parts of one head), with F86 taking those classes as D classes and F88's swaps
the others: every decided head tuple against the concrete engine (graphs, BLISS rooted views with the heads as arc
colours) at EVERY n ≤ 60 in its range; the theorem itself (at any n, no family theorem) by brute force over S_n at
n ≤ 8 with the reference neighbourhoods of tests/graphs/brute_views.py and a reference reading of the parts."""
from __future__ import annotations

import itertools

import pytest
import sympy

from uapcheck.graphs import build_graph
from uapcheck.graphs import partition_layers as PL
from uapcheck.spec import Blocks, Global, PatternUnion, Strided

from .heads_engines import closed_least, engine_least
from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# (heads, the residues mod the answer's modulus where F76 gives 2 layers)
DECIDED = [
    ((U(Blocks(4), Global(1)), Strided(4)), {0, 3}),     # catalog blocks_global_strided_heads_n
    ((U(Blocks(3), Global(1)), Strided(3)), {0, 2}),
    ((U(Blocks(4), Global(2)), Strided(4)), {0, 3}),
    ((U(Strided(4), Global(1)), Blocks(4)), {0, 3}),
    ((U(Blocks(4), Global(1)), Strided(2)), {0, 1, 2, 3}),
]


@pytest.mark.parametrize("heads,two", DECIDED)
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads, two):
    found = closed_least(heads)
    assert found is not None and found.theorem == "F86" and found.union_theorem == "F87"
    assert {c.residue for c in found.classes if c.found_by == "F76"} == two
    assert all(c.found_by == "F88" for c in found.classes if c.residue not in two)
    assert found.low <= NMAX
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == 2, n
        layers = int(found.layers.xreplace({N: n}))
        assert layers == (2 if suffices else 3), (n, layers, suffices)


def test_the_catalog_pair_by_class():
    found = closed_least((U(Blocks(4), Global(1)), Strided(4)))
    assert found.modulus == 4
    assert [int(found.layers.xreplace({N: n})) for n in (20, 21, 22, 23)] == [2, 3, 3, 2]


def test_no_claim_where_a_ball_hides_two_parts_and_no_swap_exists():
    # blocks(3) + global(2) | strided(2): 2 layers at every n ≤ 40 (the concrete engine), but at n ≡ 1 (mod 6) a ball
    # hides two blocks: F76 makes no claim on that class, F88 finds no swap, so no least count
    found = closed_least((U(Blocks(3), Global(2)), Strided(2)))
    assert found is None


def _reference_hidden(texts, n):
    """(H) read off the reference neighbourhoods: each head's universal positions and a clique partition of the rest,
    and no root outside them with a ball missing two parts of one head; None when a head is no such partition."""
    nbs = neighbourhoods(texts, n)
    every = frozenset(range(1, n + 1))
    heads = []
    for nb in nbs:
        uni = frozenset(u for u in every if nb[u] == every and all(u in nb[v] for v in every))
        parts = {frozenset(nb[v] - uni) for v in every - uni}
        if any(not (nb[v] - uni) or frozenset(nb[v] - uni) not in parts for v in every - uni):
            return None
        if sum(len(p) for p in parts) != len(every - uni):
            return None
        heads.append((uni, parts))
    outside = every - frozenset().union(*(u for u, _ in heads))
    for i in outside:
        ball = frozenset().union(*(nb[i] for nb in nbs))
        if any(sum(1 for p in parts if not (p & ball)) > 1 for _, parts in heads):
            return False
    return True


PARTS = ["blocks(2)", "blocks(3)", "strided(2)", "strided(3)", "global(1)", "blocks(2) + global(1)",
         "blocks(3) + global(1)", "strided(2) + global(1)", "strided(3) + global(1)"]


def test_the_theorem_by_brute_force_over_s_n_for_partition_heads():
    # F76 at any n, with no family theorem: partition heads with D = 2 whose balls hide at most one part of each head
    # need 2 layers (the brute force over S_n decides with no reading of the parts)
    seen = 0
    for texts in itertools.combinations(PARTS, 2):
        for n in (6, 7):
            nbs = neighbourhoods(list(texts), n)
            if brute_diameter(nbs, n) != 2 or not _reference_hidden(list(texts), n):
                continue
            seen += 1
            assert brute_least(nbs, n) == 2, (texts, n)
            graphs = [build_graph_text(t, n) for t in texts]
            assert PL.hidden_parts_at_most_one(graphs, n), (texts, n)
    assert seen >= 8


def build_graph_text(text, n):
    from uapcheck.parse import parse_source
    spec = parse_source(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {text} }}", "t.uap")
    return build_graph(spec.heads[0].pattern, n, {})


def test_the_engines_condition_agrees_with_the_reference_reading():
    for texts in itertools.combinations(PARTS, 2):
        for n in (9, 12, 13):
            graphs = [build_graph_text(t, n) for t in texts]
            ref = _reference_hidden(list(texts), n)
            assert PL.hidden_parts_at_most_one(graphs, n) == bool(ref), (texts, n)


def test_the_catalog_pair_by_brute_force_at_the_start_of_its_classes():
    # blocks(4) + global(1) | strided(4): F76 from n = 7 (n ≡ 3) and 8 (n ≡ 0), F88 from 9 (n ≡ 1): the least count by
    # brute force over S_n
    heads = (U(Blocks(4), Global(1)), Strided(4))
    found = closed_least(heads)
    texts = ["blocks(4) + global(1)", "strided(4)"]
    for n in (7, 8):
        assert found.low <= n
        assert brute_least(neighbourhoods(texts, n), n) == int(found.layers.xreplace({N: n})), n
