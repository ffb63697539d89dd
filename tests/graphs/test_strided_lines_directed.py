"""Theorem F114 (docs/theory.md §11.11): `strided(s)` with non-cyclic local parts whose jumps leaving a class are not
symmetric (F74, G trivial) needs D layers, least, where the pinning premise holds at every length of its finite check.
Checked against the concrete engine (graphs, BLISS, rooted views by canonical labelling) through one period of the
range and at a later length, the unions where the premise fails stay at D + 1 with the clause named, and the closure's
rules against brute force over the permutations of 1..n that keep the residues."""
from __future__ import annotations

from itertools import permutations, product

import pytest
import sympy

from uapcheck.graphs import families
from uapcheck.graphs.families import concrete
from uapcheck.graphs.strided_lines import strided_line
from uapcheck.graphs.strided_lines_directed import directed_check, directed_span, pin_closure
from uapcheck.parse import parse_source

from .reference import attends

N = sympy.Symbol("n", integer=True, positive=True)


def _theorem(pattern: str):
    spec = parse_source(f"attention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}", "t.uap")
    return families.match([spec.heads[0].pattern], N, {}), spec.heads[0].pattern


def test_the_catalog_union_d_layers_least():
    theorem, pat = _theorem("strided(8) + offsets {-5, 9}")
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F74"
    assert theorem.least and theorem.layers == theorem.diameter == 5 and "F114" in theorem.why_layers
    assert "from 312 to 391" in theorem.why_layers and not theorem.open_question
    got = concrete(pat, 312)
    assert got.least and got.layers == got.diameter == 5


def test_a_second_union_against_the_concrete_engine():
    theorem, pat = _theorem("strided(5) + offsets {-3, 4}")
    assert theorem.least and theorem.layers == theorem.diameter and "F114" in theorem.why_layers
    assert int(theorem.low) == 95
    for n in list(range(95, 100)) + [131]:
        got = concrete(pat, n)
        want = families.at(theorem, {"n": n})
        assert got.least and got.layers == want["layers"] == want["diameter"] == got.diameter, n


@pytest.mark.parametrize("pattern, clause", [("strided(3) + offsets {-2, 5}", "Q1: the middle interval"),
                                             ("strided(4) + offsets {-1, 3}", "Q1: far positions"),
                                             ("strided(3) + offsets {-1, 1, 2}", "Q0")])
def test_where_the_premise_fails_d_plus_one_stays_sufficient(pattern, clause):
    theorem, pat = _theorem(pattern)
    assert theorem.theorem == "F74" and not theorem.least
    assert theorem.layers == theorem.diameter + 1 and "F114" in theorem.why_layers and clause in theorem.why_layers
    low = int(theorem.low)
    got = concrete(pat, low)   # the engine still finds D at the range's start: the premise is not necessary
    assert got.least and got.layers == got.diameter


def test_the_check_span():
    data = strided_line(8, (-5, 9))
    span = directed_span(8, data.jumps, data.low, data.radius)
    assert (span.far, span.radius, span.cut_low, span.top) == (45, 13, 384, 391)
    assert directed_check(8, (-5, 9), 312, 13)[0]
    assert directed_check(8, (-9, 9), 312, 13) == (False, "S′ is symmetric (Theorems F97, F98 apply)")


def _witness_condition(perm: dict, attended: dict, ball: set) -> bool:
    return all({perm[u] for u in attended[v]} == attended[perm[v]] for v in ball)


@pytest.mark.parametrize("s, jumps, n", [(3, (-2, 5), 8), (3, (-1, 2), 8), (2, (-1, 3), 8), (3, (-2, 1), 7)])
def test_the_closure_rules_against_brute_force(s, jumps, n):
    """For every root, ball radius and start set [p, n] or [1, p]: every permutation keeping the residues, fixing the
    start pointwise and meeting the witness condition on the ball (reference arcs) fixes what the closure adds."""
    pattern = parse_source(f"attention {{ kernel k(x, y) = exp(x . y); pattern strided({s}) + offsets "
                           f"{{{', '.join(map(str, jumps))}}} }}", "t.uap").heads[0].pattern
    pairs = attends(pattern, n)
    attended = {v: {j for (i, j) in pairs if i == v} | {v} for v in range(1, n + 1)}
    classes = [[p for p in range(1, n + 1) if p % s == r] for r in range(s)]
    perms = []
    for images in product(*(permutations(c) for c in classes)):
        perm = {}
        for c, img in zip(classes, images):
            perm.update(zip(c, img))
        perms.append(perm)
    leaving = tuple(k for k in jumps if k % s)
    checked = grew = 0
    for root in range(1, n + 1):
        dist = {root: 0}
        layer = [root]
        while layer:
            layer = [u for v in layer for u in attended[v] if u not in dist and not dist.setdefault(u, dist[v] + 1) < 0]
        for radius in range(0, max(dist.values()) + 1):
            ball = {v for v in dist if dist[v] <= radius}
            bits = sum(1 << v for v in ball)
            for p in range(1, n + 1):
                for start in ({q for q in range(p, n + 1)}, {q for q in range(1, p + 1)}):
                    pinned = pin_closure(s, leaving, n, bits, start)
                    grew += len(pinned) > len(start)
                    for perm in perms:
                        if all(perm[q] == q for q in start) and _witness_condition(perm, attended, ball):
                            assert all(perm[q] == q for q in pinned), (root, radius, start, perm)
                            checked += 1
    assert checked > 0 and grew > 0


def test_past_the_check_s_limits_d_plus_one_stays_sufficient():
    holds, why = directed_check(8, (-5, 9), 100, 13)   # a start far below N₁: more lengths than the check reads
    assert not holds and "beyond its limits" in why


def test_the_worklist_closure_is_the_closure_by_sweeps():
    """pin_closure (a worklist) against pin_closure_by_sweeps (every rule everywhere until nothing moves): the same set
    on random strides, jumps, balls and start sets, duplicated jumps included."""
    import random

    from uapcheck.graphs.strided_lines_directed import pin_closure_by_sweeps
    rng = random.Random(114)
    grew = 0
    for _ in range(3000):
        s = rng.randint(2, 6)
        n = rng.randint(1, 40)
        leaving = tuple(rng.choice([k for k in range(-9, 10) if k % s]) for _ in range(rng.randint(1, 4)))
        ball = sum(1 << v for v in range(1, n + 1) if rng.random() < rng.choice([0.3, 0.8, 1.0]))
        cut = rng.randint(0, n + 1)
        start = set(range(cut, n + 1)) if rng.random() < 0.5 else set(range(1, cut))
        start |= {p for p in range(1, n + 1) if rng.random() < 0.05}
        closure = pin_closure(s, leaving, n, ball, set(start))
        assert closure == pin_closure_by_sweeps(s, leaving, n, ball, set(start)), (s, leaving, n, ball, start)
        grew += len(closure) > len(start)
    assert grew > 500
