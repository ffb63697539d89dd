"""Per-layer windows with global tokens (docs/theory.md §21.13, Theorems F237–F239, F129, Lemma AP) on random lists,
checked two ways that share no code with the closed forms: the per-layer view argument by brute force over S_n at
n ≤ 6 (the definition of §21.1–21.3: G as the permutations keeping every layer's neighbourhoods, D_Φ by the views
V_ℓ unfolded layer by layer, the least count as the first depth from D_Φ on with no σ ∉ G meeting the view condition
at some root) against the arc engine of §21.4 (rooted views, BLISS) on this class of lists; and the arc engine against
the closed forms (graphs/layers_globals.decide) at the first length the closed forms decide and at a random length
above it. Random lists: periodic (period 2–5) and finite (2–7 layers), widths 0–4, g = 1–4, globals on any subset of
the layers (first only, last only, all), and `layers M` budgets read as the cut or unrolled list."""
from __future__ import annotations

import itertools
import math
import random

import pytest

from uapcheck import spec as S
from uapcheck.graphs import build_graph, symmetry_group
from uapcheck.graphs.layers import LayerSequence, connectivity, least_layers
from uapcheck.graphs.layers_globals import decide, group_kind, recognise, unchanged_by_budget
from uapcheck.rules.layers import _membership

from graphs.reference import attends  # tests/ is on sys.path
from sample_sizes import sample_size


def _pattern(w: int, g: int) -> S.Pattern:
    if g and w:
        return S.PatternUnion((S.Window(w), S.Global(g)))
    return S.Global(g) if g else S.Window(w)


def _random_lists(seed: int, count: int, widest: int, periods=(2, 5), lengths=(2, 7)):
    """`count` distinct (pairs, periodic), each layer (w, g_ℓ) with g_ℓ ∈ {0, g} and at least one global layer."""
    rng, seen = random.Random(seed), set()
    out: list[tuple[tuple[tuple[int, int], ...], bool]] = []
    while len(out) < count:
        periodic = rng.random() < 0.6
        k = rng.randint(*periods) if periodic else rng.randint(*lengths)
        g = rng.choice([1, 1, 2, 3, 4])
        pairs = tuple((rng.randint(0, widest), g if rng.random() < 0.5 else 0) for _ in range(k))
        if any(h for _, h in pairs) and (pairs, periodic) not in seen:
            seen.add((pairs, periodic))
            out.append((pairs, periodic))
    return out


def _arc_engine(pairs, periodic, n):
    """(|G|, D_Φ, the least count or "witness" at a finite list's whole depth) by the arc engine."""
    seq = LayerSequence(n, tuple((build_graph(_pattern(w, g), n, {}),) for w, g in pairs), periodic)
    grp = symmetry_group(seq.distinct_graphs())
    limit = None if periodic else len(pairs)
    reach = connectivity(seq, limit)
    if reach.depth is None:
        return int(grp.order), None, None
    gens = tuple(tuple(g) for g in grp.generators)
    least = least_layers(seq, max(reach.depth, 1), int(grp.order), gens, _membership(seq), limit)
    if least.layers is None:
        return int(grp.order), reach.depth, "witness"
    assert least.least, (pairs, periodic, n, least)
    return int(grp.order), reach.depth, least.layers


# ---------------------------------------------------------------------------------------------
# Brute force over S_n: the per-layer view argument by its definition (§21.1–21.3)


def _brute(pairs, periodic, n):
    def closed(w, g):
        arcs = attends(_pattern(w, g), n)
        return [frozenset()] + [frozenset([v] + [j for (i, j) in arcs if i == v]) for v in range(1, n + 1)]
    nb = {key: closed(*key) for key in set(pairs)}

    def layer(ell):
        return nb[pairs[(ell - 1) % len(pairs)]]

    def keeps(s, N, v):
        return frozenset(s[u] for u in N[v]) == N[s[v]]
    perms = [(0,) + p for p in itertools.permutations(range(1, n + 1))]
    group = {s for s in perms if all(keeps(s, nb[key], v) for key in nb for v in range(1, n + 1))}
    every = frozenset(range(1, n + 1))
    top = 3 * len(pairs) + 4 if periodic else len(pairs)

    def views(i, m):  # V_m = {i}, V_{ℓ−1} = ∪_{v ∈ V_ℓ} N_ℓ(v)
        V = {m: {i}}
        for ell in range(m, 0, -1):
            V[ell - 1] = set().union(*(layer(ell)[v] for v in V[ell]))
        return V
    depth = next((m for m in range(0, top + 1) if all(views(i, m)[0] == every for i in every)), None)
    if depth is None:
        return len(group), None, None

    def witness(m):
        Vs = {i: views(i, m) for i in every}
        return any(all(keeps(s, layer(ell), v) for ell in range(1, m + 1) for v in Vs[i][ell])
                   for s in perms if s not in group for i in every)
    least = next((m for m in range(max(depth, 1), top + 1) if not witness(m)), "witness")
    return len(group), depth, least


SMALL = _random_lists(29, sample_size(12, 120), 3, periods=(2, 3), lengths=(2, 4))


@pytest.mark.parametrize("pairs,periodic", SMALL)
def test_the_arc_engine_matches_the_view_argument_by_brute_force(pairs, periodic):
    for n in range(3, 7):
        assert _arc_engine(pairs, periodic, n) == _brute(pairs, periodic, n), (pairs, periodic, n)


# ---------------------------------------------------------------------------------------------
# The closed forms against the arc engine, from the first length they decide


# two finite lists that keep a view witness at their whole depth (globals on the first layers only), then random ones
LARGE = [(((1, 1), (1, 1), (1, 0)), False), (((2, 2), (0, 2), (1, 0), (0, 0)), False)] + _random_lists(
    2906, sample_size(16, 400), 4)
TOP = 96


def _first_decided(L) -> int | None:
    return next((n for n in range(3, TOP + 1) if decide(L, n) is not None), None)


@pytest.mark.parametrize("index", range(len(LARGE)))
def test_the_closed_forms_match_the_arc_engine_from_their_start(index):
    pairs, periodic = LARGE[index]
    L = recognise([_pattern(w, g) for w, g in pairs], periodic)
    assert L is not None
    if group_kind(L) is None:  # every width 0: outside Theorem F238
        assert decide(L, TOP) is None
        return
    first = _first_decided(L)
    if first is None:
        return  # the range starts above the lengths the arc engine is asked about here
    for n in sorted({first, min(first + 1, TOP), random.Random(index).randint(first, TOP)}):
        dec = decide(L, n)
        assert dec is not None and dec.n == n
        order, depth, least = _arc_engine(pairs, periodic, n)
        assert order == (1 if group_kind(L) == "trivial" else 2 * math.factorial(L.g)), (pairs, periodic, n)
        if dec.depth is None:
            assert depth is None, (pairs, periodic, n)
        else:
            assert (depth, least) == (dec.depth, "witness" if dec.layers is None else dec.layers), (pairs, periodic, n)


def test_the_sample_reaches_every_outcome():
    """The random lists decided above cover a count equal to D_Φ, a count above it, a finite list that never connects
    and one with a witness at its whole depth, and both groups."""
    outcomes = set()
    for pairs, periodic in LARGE:
        L = recognise([_pattern(w, g) for w, g in pairs], periodic)
        if L is None or group_kind(L) is None or _first_decided(L) is None:
            continue
        dec = decide(L, TOP)
        outcomes.add(group_kind(L))
        outcomes.add("never" if dec.depth is None else "witness" if dec.layers is None else
                     "D_Φ" if dec.layers == dec.depth else "above D_Φ")
    assert outcomes == {"trivial", "globals", "never", "witness", "D_Φ", "above D_Φ"}, outcomes


# ---------------------------------------------------------------------------------------------
# Budgets: `layers M` reads the network's first M layers


@pytest.mark.parametrize("budget", [1, 2, 3, 4, 5, 7, 11, 16])
def test_a_budget_reads_the_first_layers(budget):
    for pairs, periodic in LARGE[:40]:
        pats = [_pattern(w, g) for w, g in pairs]
        top = budget if periodic else min(budget, len(pairs))
        cut = [pats[(k - 1) % len(pats)] for k in range(1, top + 1)]
        L, M = recognise(pats, periodic, budget), recognise(cut, False)
        assert (L is None) == (M is None), (pairs, periodic, budget)
        if L is not None and L.periodic:  # a budget of a_2 + 3p layers or more keeps the periodic list (§21.13)
            assert periodic and budget >= unchanged_by_budget(pairs)
            assert decide(L, 500) == decide(M, 500)
        elif L is not None:
            assert (L.widths, L.globals_, L.periodic) == (M.widths, M.globals_, False)
            assert decide(L, 500) == decide(M, 500)
