"""Theorems F235 and F236 (docs/theory.md §11.11) checked a second way.

F235 (lemma AR): when D layers suffice for the union Γ of the heads as one head, the heads' view witnesses at depth D
are exactly the pairs (τ, i) with τ ∈ Aut(Γ) outside the heads' group G and every position where τ moves some head's
neighbourhood at distance D from i. Checked by brute force over S_n (n ≤ 7 here, n = 8 nightly) for several pairs of
heads, with the naive pattern semantics of tests/graphs/reference.py: the union's witnesses, the heads' witnesses,
Aut(Γ), G and the pairs, all from one pass over the permutations.

F236: `blocks(3) + offsets {1}` | `blocks(2) + offsets {−1}` needs D + 1 layers when 6 | n and D layers otherwise,
least (n ≥ 10). Checked at every n of a range: the proof's distance formula against breadth-first search, its
elements of Aut(Γ) against the union's arcs, its sets of moved neighbourhoods and far positions, and the count against
an exact search for view witnesses over the rooted views (tests/view_witness_reference.py)."""
from __future__ import annotations

import itertools

import pytest

import view_witness_reference as R  # tests/ is on sys.path
from sample_sizes import lengths, sample_size

from .brute_views import distances_to, neighbourhoods

CATALOG_PAIR = ("blocks(3) + offsets {1}", "blocks(2) + offsets {-1}")
PAIRS = [
    CATALOG_PAIR,
    ("window(1)", "offsets {1}"),
    ("blocks(2) + offsets {1}", "window(1)"),
    ("blocks(3) + offsets {1}", "window(1)"),
    ("blocks(2) + offsets {-1}", "blocks(3) + offsets {1}"),
    ("offsets {1, 2}", "offsets {-1}"),
    ("blocks(3) + offsets {-1}", "offsets {1}"),
    ("blocks(2)", "offsets {-1, 1}"),
]


def _pass(nbs, n: int):
    """One pass over S_n: (D, the union has a witness at depth D, the heads have one, Aut(Γ) ∖ G as the moved sets of
    its elements, whether every heads' witness lies in Aut(Γ)); None when the union is not strongly connected."""
    union = [frozenset()] + [frozenset().union(*(nb[v] for nb in nbs)) for v in range(1, n + 1)]
    dist = distances_to([union], n)
    if any(len(d) < n for d in dist.values()):
        return None
    d = max(max(x.values()) for x in dist.values())
    balls = [[v for v, k in dist[i].items() if k <= d - 1] for i in range(1, n + 1)]
    union_witness = heads_witness = False
    outside = []  # Bad(τ) for τ ∈ Aut(Γ) ∖ G
    inside = True
    for p in itertools.permutations(range(1, n + 1)):
        s = (0,) + p
        keep_u = [frozenset(s[k] for k in union[v]) == union[s[v]] for v in range(1, n + 1)]
        keep_h = [all(frozenset(s[k] for k in nb[v]) == nb[s[v]] for nb in nbs) for v in range(1, n + 1)]
        if not all(keep_u) and any(all(keep_u[v - 1] for v in ball) for ball in balls):
            union_witness = True
        if all(keep_h):
            continue  # σ ∈ G
        if any(all(keep_h[v - 1] for v in ball) for ball in balls):
            heads_witness = True
            inside = inside and all(keep_u)
        if all(keep_u):
            outside.append({v for v in range(1, n + 1) if not keep_h[v - 1]})
    pairs = any(not (bad & set(ball)) for bad in outside for ball in balls)
    return d, union_witness, heads_witness, pairs, inside


@pytest.mark.parametrize("pair", PAIRS)
def test_f235_the_heads_witnesses_are_the_union_automorphisms_far_moved(pair):
    tried = 0
    for n in range(4, sample_size(7, 8) + 1):
        nbs = neighbourhoods(pair, n)
        got = _pass(nbs, n)
        if got is None:
            continue
        d, union_witness, heads_witness, pairs, inside = got
        if union_witness:
            continue  # F235's premise fails (the union alone needs D + 1)
        tried += 1
        assert inside, (pair, n)  # a witness of the heads meets the union's condition, so it is in Aut(Γ)
        assert heads_witness == pairs, (pair, n)
    assert tried, pair


def _d(u: int, v: int) -> int:
    """F236 (2): the distance in blocks(3) + window(1), u ≤ v."""
    if u == v:
        return 0
    k, m = (u - 1) // 3, (v - 1) // 3
    if k == m:
        return 1
    return (u % 3 != 0) + 2 * (m - k) - 1 + (v % 3 != 1)


def _perm(n: int, swaps=(), reflect=False) -> tuple:
    s = list(range(n + 1))
    for a, b in swaps:
        s[a], s[b] = s[b], s[a]
    return tuple(s) if not reflect else (0,) + tuple(n + 1 - s[v] for v in range(1, n + 1))


def _catalog_heads(n: int):
    def blocks(b):
        return lambda i, j, n: (i - 1) // b == (j - 1) // b
    return [R.neighbourhoods(R.union(blocks(3), R.offsets((1,))), n),
            R.neighbourhoods(R.union(blocks(2), R.offsets((-1,))), n)]


def _moved(sigma, nbs, n: int) -> set:
    return {v for v in range(1, n + 1) if any(frozenset(sigma[k] for k in nb[v]) != nb[sigma[v]] for nb in nbs)}


@pytest.mark.parametrize("n", lengths(10, 60, 24))
def test_f236_the_catalog_pair_needs_one_more_layer_exactly_when_six_divides_n(n):
    nbs = _catalog_heads(n)
    union = [frozenset()] + [frozenset().union(*(nb[v] for nb in nbs)) for v in range(1, n + 1)]
    dist = {i: R.distances_to(nbs, n, i) for i in range(1, n + 1)}
    for i in range(1, n + 1):
        for v in range(1, n + 1):
            assert dist[i][v] == _d(min(i, v), max(i, v)), (n, i, v)
    d = max(max(x.values()) for x in dist.values())
    assert d == 2 * (n // 3) + (-1, 0, 1)[n % 3], n
    far = {i: {v for v in range(1, n + 1) if dist[i][v] == d} for i in range(1, n + 1)}
    # (3) Aut(Γ): the twins' swaps at the ends and, when 3 | n, the reflection
    gens = [((1, 2),)] + ([((n - 1, n),)] if n % 3 == 0 else [])
    elements = [_perm(n, sum(c, ()), r) for k in range(len(gens) + 1) for c in itertools.combinations(gens, k)
                for r in ((False, True) if n % 3 == 0 else (False,))]
    assert len(set(elements)) == (8 if n % 3 == 0 else 2)
    for s in elements:
        assert all(frozenset(s[k] for k in union[v]) == union[s[v]] for v in range(1, n + 1)), (n, s)
    # (4) the moved sets: (1 2) moves 3 alone, (n − 1 n) the last two or three, every reflection moves 4
    assert _moved(_perm(n, ((1, 2),)), nbs, n) == {3}
    if n % 3 == 0:
        assert _moved(_perm(n, ((n - 1, n),)), nbs, n) == ({n - 1, n} if n % 2 == 0 else {n - 2, n - 1, n})
        assert all(4 in _moved(s, nbs, n) for s in elements if s[1] in (n, n - 1))
    assert not any(v in far[i] for i in far for v in (3, 4) + ((n - 2,) if n % 3 == 0 else ()))
    pairs = [(s, i) for s in elements[1:] for i in far if not (_moved(s, nbs, n) - far[i])]
    assert bool(pairs) == (n % 6 == 0), n
    if pairs:
        assert (_perm(n, ((n - 1, n),)), 1) in pairs
    # the count against an exact search over the rooted views (the heads' group is trivial, F180)
    ident = tuple(range(n + 1))
    found = R.rooted_view_witness(n, nbs, d, [ident])
    assert (found is not None) == (n % 6 == 0), n
