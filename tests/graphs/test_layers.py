"""Per-layer patterns (Definition 4; docs/theory.md §21): connectivity within m layers, the group
⋂ Aut(N_{ℓ,h}) and the least number of layers, checked against brute force over S_n (n ≤ 7).

The brute force shares no code with ``uapcheck.graphs.layers``: neighbour sets from the naive
reference semantics, receptive fields by enumerating paths through increasing layers, the views
V_ℓ by unfolding the output at i layer by layer, every permutation of the positions.
"""
from __future__ import annotations

import itertools

import pytest

from uapcheck.graphs import symmetry_group
from uapcheck.graphs.layers import connectivity, least_layers, witness_condition_holds
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.parse import parse_source
from uapcheck.rules.layers import build_sequence, layer_patterns

from .reference import attends


def _spec(heads, n, budget=None):
    body = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {h} }}" for h in heads)
    extra = f"\nlayers {budget}" if budget else ""
    return parse_source(f"tokens {n}\n{body}{extra}", "layers.uap")


def _brute(heads, n, depth_cap):  # noqa: C901 - one definition per quantity, read literally
    """(D_Φ, least m, G order) by the definitions, for depths up to depth_cap."""
    spec = _spec(heads, n)
    per_layer, periodic = layer_patterns(spec)
    p = len(per_layer)
    nb = []  # nb[q][h][v]: the in-neighbourhood of v (v included) in head h of layer q + 1
    for pats in per_layer:
        row = []
        for pat in pats:
            pairs = attends(pat, n)
            row.append([frozenset([v] + [j for (i, j) in pairs if i == v]) for v in range(n + 1)])
        nb.append(row)
    top = depth_cap if periodic else min(depth_cap, p)

    def layer(ell):
        return nb[(ell - 1) % p]

    def receptive(i, m):
        # j reaches i through layers l_1 < ... < l_k <= m: the paths, unfolded from the top layer
        def go(v, ell):
            if ell == 0:
                return {v}
            out = set()
            for u in set().union(*(h[v] for h in layer(ell))):
                out |= go(u, ell - 1)
            return out
        return go(i, m)

    every = set(range(1, n + 1))
    depth = next((m for m in range(0, top + 1) if all(receptive(i, m) == every for i in every)), None)
    group = []
    for perm in itertools.permutations(range(1, n + 1)):
        s = (0,) + perm
        if all(frozenset(s[u] for u in h[v]) == h[s[v]] for row in nb for h in row for v in every):
            group.append(perm)

    def views(i, m):
        sets = {m: {i}}
        for ell in range(m, 0, -1):
            sets[ell - 1] = set().union(*(h[v] for v in sets[ell] for h in layer(ell)))
        return sets

    def witness(m):
        gset = set(group)
        for i in every:
            sets = views(i, m)
            for perm in itertools.permutations(range(1, n + 1)):
                if perm in gset:
                    continue
                s = (0,) + perm
                if all(frozenset(s[u] for u in h[v]) == h[s[v]]
                       for ell in range(1, m + 1) for v in sets[ell] for h in layer(ell)):
                    return (i, perm)
        return None

    if depth is None:
        return None, None, len(group), []
    found = [witness(m) is not None for m in range(depth, top + 1)]
    least = next((depth + k for k, w in enumerate(found) if not w), None)
    return depth, least, len(group), found


CASES = [
    (["periodic { window(1), strided(2) }"], 6),
    (["periodic { strided(2), window(1) }"], 6),
    (["periodic { window(1) cyclic, offsets {2} cyclic }"], 7),
    (["periodic { blocks(2), columns(2, 1) }"], 6),
    (["periodic { blocks(3), columns(3, 1) }"], 6),
    (["periodic { columns(3, 1), blocks(3) }"], 6),
    (["periodic { offsets {1} cyclic, offsets {-1} cyclic }"], 6),
    (["periodic { offsets {1}, offsets {-1} }"], 5),
    (["periodic { star, window(1) }"], 6),
    (["sequence { window(1), window(1), window(1) }"], 5),
    (["sequence { window(1), full }"], 5),
    (["sequence { full, window(1) }"], 5),
    (["sequence { random(1, seed=3), full }"], 6),
    (["sequence { edges {1 -> 2, 2 -> 3, 3 -> 4, 4 -> 5, 5 -> 1}, full, window(1) }"], 5),
    (["periodic { window(1), causal }"], 5),
    (["periodic { random(1, seed=1), random(1, seed=2) }"], 6),
    (["periodic { random(2, seed=5), window(1) cyclic }"], 7),
    (["periodic { window(1), strided(3) }", "global(1)"], 6),
    (["periodic { window(1), strided(2) }", "periodic { strided(3), window(1), blocks(2) }"], 6),
    (["sequence { window(2), strided(2), window(1) }"], 6),
]


@pytest.mark.parametrize("heads,n", CASES)
def test_least_layers_match_brute_force(heads, n):
    spec = _spec(heads, n)
    seq = build_sequence(spec)
    reach = connectivity(seq)
    depth, least, order, found = _brute(heads, n, depth_cap=10)
    grp = symmetry_group(seq.distinct_graphs())
    assert grp.order == order
    assert reach.depth == depth
    if depth is None:
        return
    # a witness at depth m + 1 is one at depth m: the brute force sees the monotone pattern
    assert found == sorted(found, reverse=True)
    got = least_layers(seq, depth, int(grp.order), grp.generators,
                       pattern_structure(seq.distinct_graphs()).preserves, seq.depth)
    assert got.layers == least
    if got.witness is not None:
        w = got.witness
        assert witness_condition_holds(seq, w.permutation, w.position, w.depth)
        assert w.permutation not in set()  # a tuple
        assert not pattern_structure(seq.distinct_graphs()).preserves(list(w.permutation))


def test_the_cases_cover_every_outcome():
    """The brute-force cases include D_Φ least, more than D_Φ, never connected, and a finite depth
    whose views never settle (NOT-UAP by a witness at the whole depth)."""
    outcomes = set()
    for heads, n in CASES:
        depth, least, _, _ = _brute(heads, n, depth_cap=10)
        outcomes.add("disconnected" if depth is None else "no m" if least is None else
                     "D" if least == depth else "D+")
    assert outcomes == {"disconnected", "no m", "D", "D+"}
