"""Theorem F118 (docs/theory.md §11.11): `blocks(b)` with symmetric non-cyclic window, dilated and offsets parts —
D layers, least, where no view witness exists at any length from the range's start to N₁ − 1 (past N₁ a witness at
n gives one at n − σQ). Checked against the concrete engine's rooted views (canonical labelling) at every n from 61
to 100 for the catalog's two unions and four more (from 39 for one whose range starts there), the exact decision at one length against the concrete engine on
random unions with and without witnesses, and lemma (0) of the proof (the witness condition at a root is an
isomorphism of the graphs without the far positions' mutual edges) by brute force over S_n at n ≤ 8."""
from __future__ import annotations

import itertools
import random

import pytest
import sympy

from uapcheck.graphs import families
from uapcheck.graphs import periodic_exchanges as PE
from uapcheck.graphs import periodic_least as F118
from uapcheck.graphs import periodic_lines as PL
from uapcheck.graphs.families import concrete
from uapcheck.spec import Blocks, Dilated, Offsets, PatternUnion, Window

from .reference import closed_neighbourhoods, distances_from

N = sympy.Symbol("n", integer=True, positive=True)

OVERLAP = (Blocks(3), Dilated(2, 2))       # catalog/blocks_dilated_overlap_n.uap (F116)
EXCHANGE = (Blocks(4), Dilated(3, 2))      # catalog/blocks_dilated_exchange_n.uap (F117)
LEAST = [OVERLAP, EXCHANGE, (Blocks(5), Dilated(2, 2)), (Blocks(2), Dilated(1, 3)), (Blocks(3), Dilated(1, 2)),
         (Blocks(4), Dilated(1, 3))]


def _theorem(parts):
    return families.match([PatternUnion(parts)], N, {})


@pytest.mark.parametrize("parts", LEAST, ids=lambda p: " + ".join(map(str, p)))
def test_d_layers_least_against_the_rooted_views(parts):
    """The symbolic count is D, least, and the concrete engine finds D layers, least, at every n from the range's
    start (61, or 39 for blocks(3) + dilated(1, 2)) to 100."""
    theorem = _theorem(parts)
    assert theorem.least and theorem.layers == theorem.diameter and "F118" in theorem.why_layers
    assert int(theorem.low) <= 61
    for n in range(int(theorem.low), 101):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(parts), n)
        assert (got.diameter, got.layers, got.least) == (want["diameter"], want["diameter"], True), (parts, n)
        assert want["layers"] == want["diameter"]


def test_past_the_check_the_rooted_views_agree():
    """blocks(3) + dilated(2, 2): N₁ = 178; the concrete engine finds D layers, least, at every n of one period from
    N₁ (the lengths the cut argument carries, not checked by the theorem)."""
    data = PL.decide(3, (-4, -2, 2, 4))
    top = F118.premise_top(data.cut, data.sigma, data.start, data.zone, data.diameter_low, data.group_low,
                           data.radius, data.span, data.b)
    assert top == 178
    for n in range(top, top + data.period):
        got = concrete(PatternUnion(OVERLAP), n)
        assert (got.diameter, got.layers, got.least) == (data.diameter_at(n), data.diameter_at(n), True), n


def test_at_a_concrete_length_the_count_is_d_least():
    at_n = families.match([PatternUnion(OVERLAP)], sympy.Integer(1_048_576), {})
    assert at_n.least and int(at_n.layers) == int(at_n.diameter) == 262_145


SIX = (Blocks(6), Dilated(2, 2))   # F117; a view witness at depth D at every n ≡ 1, 2 (mod 12) checked


def test_a_union_with_witnesses_on_two_classes_is_decided_class_by_class():
    """blocks(6) + dilated(2, 2): the check (61 to 211, P = 12) finds a view witness at every length n ≡ 1, 2 (mod 12)
    and none at the others, so the count is D + 1 on those two classes and D elsewhere, least on every class; the
    concrete engine's least count agrees at every n from 61 to 136 and over a period past N₁ = 212 (where the theorem
    rests on the cut, not on its check)."""
    theorem = _theorem(SIX)
    assert theorem.theorem == "F117" and theorem.least and theorem.least_classes == ()
    assert "class by class of n mod 12" in theorem.why_layers and "{1, 2}" in theorem.why_layers
    data = PE.decide(6, (-4, -2, 2, 4))
    top = F118.line_top(data.line, data.group_low, data.radius)
    assert top == 212 and data.line.period == 12
    found = F118.line_classes(data.line, data.group_low, data.radius, data.low)
    assert found.free == (0, 3, 4, 5, 6, 7, 8, 9, 10, 11) and found.bound == (1, 2)
    for n in list(range(61, 137)) + list(range(top, top + 12)):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(SIX), n)
        plus = 1 if n % 12 in (1, 2) else 0
        assert (got.diameter, got.layers, got.least) == (want["diameter"], want["diameter"] + plus, True), n
        assert want["layers"] == want["diameter"] + plus, n


# more unions decided class by class (F115 with F116's group; P = σQ): the residues of n mod P with D + 1 layers, least
BY_CLASS = [((Blocks(5), Dilated(1, 3), Window(1)), 10, {1}), ((Blocks(6), Dilated(1, 4), Window(1)), 12, {1, 2}),
            ((Blocks(6), Dilated(2, 2), Window(1)), 12, {2}), ((Blocks(7), Dilated(2, 2)), 14, {1}),
            ((Blocks(7), Dilated(2, 2), Window(1)), 14, {1})]


@pytest.mark.parametrize("parts, period, plus", BY_CLASS, ids=[" + ".join(map(str, c[0])) for c in BY_CLASS])
def test_more_unions_by_class_against_the_concrete_engine(parts, period, plus):
    """The count by class, least on every class, against the concrete engine's least count at every n of a period and
    two more from the range's start (a script compared every n from 61 to 160 and a period past N₁: all agree)."""
    theorem = _theorem(parts)
    assert theorem.least and f"class by class of n mod {period}" in theorem.why_layers
    low = int(theorem.low)
    for n in range(low, low + period + 2):
        want = families.at(theorem, {"n": n})
        got = concrete(PatternUnion(parts), n)
        extra = 1 if n % period in plus else 0
        assert want["layers"] == want["diameter"] + extra, (parts, n)
        assert (got.diameter, got.layers, got.least) == (want["diameter"], want["layers"], True), (parts, n)


def test_a_concrete_length_reads_its_class():
    """At a concrete n the count and flag of n's class: D + 1, least, at n ≡ 1 (mod 12), D, least, at n ≡ 4."""
    for n, plus in ((1_048_573, 1), (1_048_576, 0), (1_048_574, 1), (1_048_575, 0)):
        at_n = families.match([PatternUnion(SIX)], sympy.Integer(n), {})
        assert at_n.least and int(at_n.layers) == int(at_n.diameter) + plus, n
        assert f"n mod 12 = {n % 12}" in at_n.why_layers


def test_a_mixed_class_is_not_claimed_least(monkeypatch):
    """A class with a view witness at some of its lengths only gets D + 1, sufficient: at symbolic n a least flag by
    class names the others, at a concrete n of that class the count is not least. (The classes are forged; the check
    itself finds none mixed for blocks(6) + dilated(2, 2).)"""
    data = PE.decide(6, (-4, -2, 2, 4))
    mixed = F118.Classes(12, (0, 3, 4, 5, 6, 7, 8, 9, 10, 11), (1,), ("n = 61: a view witness", "n = 62: one"))
    monkeypatch.setattr(F118, "line_classes", lambda *args: mixed)
    layers, least, why, question, classes = F118.layers_fields(data.line, data.group_low, data.radius, data.low,
                                                               "F117", sympy.Integer(0), N)
    assert not least and classes == (12, (0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11))
    assert "n mod 12 in {2}" in why and "open" in question
    diameter = PE.lines.diameter_at_length(N, data.line)
    for n in range(61, 85):
        assert layers.subs(N, n) == diameter.subs(N, n) + (1 if n % 12 in (1, 2) else 0), n
    at_n = F118.layers_fields(data.line, data.group_low, data.radius, data.low, "F117", sympy.Integer(0),
                              sympy.Integer(74))
    assert at_n[0] == data.line.diameter_at(74) + 1 and at_n[1] is False
    at_m = F118.layers_fields(data.line, data.group_low, data.radius, data.low, "F117", sympy.Integer(0),
                              sympy.Integer(73))
    assert at_m[0] == data.line.diameter_at(73) + 1 and at_m[1] is True
    assert F118.coarsest(12, {0, 3, 6, 9}) == (3, (0,))


def test_the_check_by_class_over_a_multiple_of_the_period():
    """The kinds are filed per length: read mod 24, the witnesses of blocks(6) + dilated(2, 2) fall on 1, 2, 13, 14."""
    data = PE.decide(6, (-4, -2, 2, 4))
    low, top = 61, F118.line_top(data.line, data.group_low, data.radius)
    found = F118.class_check(6, (-4, -2, 2, 4), low, top, tuple(data.line.diameter_at(n) for n in range(low, top)), 24)
    assert set(found.bound) == {1, 2, 13, 14} and len(found.free) == 20


def test_one_sided_offsets_stay_at_d_plus_one():
    theorem = _theorem((Blocks(3), Offsets((1, -4), False)))
    assert not theorem.least and theorem.layers == theorem.diameter + 1 and "S = −S" in theorem.why_layers


def test_the_exact_decision_against_the_concrete_engine():
    """At one length, `witness_problem` (eccentricities on boolean arrays, rooted views by BLISS, the counting
    identity) says "no view witness" exactly when the concrete engine's least count is D, on random symmetric
    `blocks(b) + offsets S` — both answers occur."""
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(160):
        b = rng.randint(2, 8)
        jumps = tuple(sorted({s for k in rng.sample(range(1, 10), rng.randint(1, 4)) for s in (k, -k)}))
        n = rng.randint(10, 24)
        got = concrete(PatternUnion((Blocks(b), Offsets(jumps, False))), n)
        if got.diameter is None or got.diameter < 2:
            continue
        none = F118.witness_problem(n, b, jumps, got.diameter) is None
        assert none == (got.layers == got.diameter), (b, jumps, n, got.layers, got.diameter)
        seen[none] += 1
    assert seen[True] > 20 and seen[False] > 5, seen


def test_the_eccentricities_against_breadth_first_search():
    for parts, b, jumps in ((OVERLAP, 3, (-4, -2, 2, 4)), (EXCHANGE, 4, (-6, -4, -2, 2, 4, 6)),
                            ((Blocks(5), Dilated(2, 2), Window(1)), 5, (-4, -2, -1, 1, 2, 4))):
        for n in (17, 40, 61):
            adj = closed_neighbourhoods(PatternUnion(parts), n)
            want = [max(distances_from(adj, v).values()) for v in range(1, n + 1)]
            assert F118._eccentricities(n, b, jumps)[1:] == want, (parts, n)


def _closed(adj, n):
    return [frozenset()] + [frozenset(adj[v] | {v}) for v in range(1, n + 1)]


@pytest.mark.parametrize("parts, n", [(OVERLAP, 7), ((Blocks(2), Dilated(1, 3)), 8), ((Blocks(3), Dilated(1, 2)), 8),
                                      ((Blocks(2), Offsets((-5, -2, 2, 5), False)), 8)])
def test_lemma_0_by_brute_force(parts, n):
    """For every root i and every σ ∈ S_n: σ meets the witness condition at depth D at i (σ(N[v]) = N[σv] for v within
    D − 1 of i) iff σ maps the far positions of i onto those of σ(i) and is an isomorphism of Γ_n without the edges
    among i's far positions onto Γ_n without those among σ(i)'s."""
    adj = closed_neighbourhoods(PatternUnion(parts), n)
    near = _closed(adj, n)
    dist = {i: distances_from(adj, i) for i in range(1, n + 1)}
    d = max(max(x.values()) for x in dist.values())
    far = {i: frozenset(v for v in range(1, n + 1) if dist[i][v] == d) for i in range(1, n + 1)}
    edges = {i: frozenset(frozenset((u, v)) for u in range(1, n + 1) for v in adj[u] if u < v
                          and not (u in far[i] and v in far[i])) for i in range(1, n + 1)}
    both = 0
    for perm in itertools.permutations(range(1, n + 1)):
        sigma = (0,) + perm
        for i in range(1, n + 1):
            if not far[i]:
                continue
            j = sigma[i]
            condition = all(frozenset(sigma[u] for u in near[v]) == near[sigma[v]]
                            for v in range(1, n + 1) if dist[i][v] <= d - 1)
            iso = (frozenset(sigma[v] for v in far[i]) == far[j]
                   and frozenset(frozenset(sigma[u] for u in e) for e in edges[i]) == edges[j])
            assert condition == iso, (parts, n, perm, i)
            both += condition
    assert both


def test_the_bit_matrix_eccentricities_are_the_boolean_matrix_ones():
    """`_eccentricities` (balls as packed bit rows, grown by row shifts) against `eccentricities_by_columns` (a boolean
    matrix grown by column shifts, the way the check computed them before): the same list, or both None, on random
    blocks and symmetric jumps at lengths across several 64-bit words."""
    rng = random.Random(118)
    compared = disconnected = 0
    for _ in range(1500):
        n, b = rng.randint(2, 200), rng.randint(1, 6)
        ks = sorted({rng.randint(1, 9) for _ in range(rng.randint(0, 3))})
        if (ks and max(ks) >= n) or b > n:
            continue
        jumps = tuple(sorted([-k for k in ks] + ks))
        want = F118.eccentricities_by_columns(n, b, jumps)
        assert F118._eccentricities(n, b, jumps) == want, (n, b, jumps)
        compared += 1
        disconnected += want is None
    assert compared > 1000 and 0 < disconnected < compared


def _relabelled_pairs(edges, label):
    return tuple(sorted((min(label[p], label[q]), max(label[p], label[q])) for p, q in edges))


def test_the_edge_codes_tell_relabelled_edge_sets_apart_as_the_sorted_pairs_do():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(2, 40)
        edges = sorted({tuple(sorted(rng.sample(range(n), 2))) for _ in range(rng.randint(1, 3 * n))})
        label = list(range(n))
        rng.shuffle(label)
        other = [e for e in edges if rng.random() < 0.9] or edges
        same_pairs = _relabelled_pairs(edges, label) == _relabelled_pairs(other, label)
        assert (F118._edge_codes(edges, label, n) == F118._edge_codes(other, label, n)) == same_pairs
        flipped = [(q, p) for p, q in edges]
        assert F118._edge_codes(flipped, label, n) == F118._edge_codes(edges, label, n)
