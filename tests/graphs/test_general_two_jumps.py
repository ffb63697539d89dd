"""Theorem F17 (docs/theory.md §11.11): `offsets {a, b} cyclic` (or {−a, −b}) with integers 2 ≤ a < b and
gcd(a, b) = 1. For n ≥ max(b² + b + 1, ab − a + 1, (b − a)(b − 1) + 1): D = ⌊n/b⌋ + h(n mod b), G = C_n, and
D layers, least.

Checked a second way: the diameter against breadth-first search on Z_n over six periods from the range's
start (every coprime 2 ≤ a < b ≤ 11); the theorem against the concrete engine (graphs, BLISS, rooted views)
at every n ≤ 60 in range; the facts the proof of the layers uses, on the actual graph; a shared factor
stays open with its question; the verifier's own entry; a million tokens without arcs.
"""
from __future__ import annotations

import json
from collections import deque
from math import gcd

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import Offsets
from uapcheck.verifier import VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)


def levels(n, jumps):
    dist = [-1] * n
    dist[0] = 0
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for k in jumps:
            v = (u + k) % n
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def pairs():
    return [(a, b) for b in range(3, 12) for a in range(2, b) if gcd(a, b) == 1]


def test_the_diameter_is_breadth_first_search_over_six_periods():
    checked = 0
    for a, b in pairs():
        low = F.general_two_jump_low(a, b)
        theorem = F.match([Offsets((a, b), True)], N, {})
        assert theorem.theorem == "F17" and theorem.low == low
        for n in range(low, low + 6 * b):
            want = max(levels(n, (a, b)))
            assert F.general_two_jump_diameter(n, a, b) == want, (a, b, n)
            assert F.at(theorem, {"n": n})["diameter"] == want, (a, b, n)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("jumps", [(2, 3), (3, 4), (2, 5), (3, 5), (4, 5), (-3, -2)])
def test_f17_agrees_with_the_concrete_engine_for_every_n_up_to_60(jumps):
    pattern = Offsets(jumps, True)
    theorem = F.match([pattern], N, {})
    assert theorem.theorem == "F17" and theorem.group == "C_n" and theorem.least
    checked = 0
    for n in range(int(theorem.low), 61):
        want = F.at(theorem, {"n": n})
        assert F.instance_check(theorem, pattern, {"n": n}) is None
        got = F.concrete(pattern, n)
        assert (got.diameter, got.order, got.layers, got.least) == (want["diameter"], n, want["diameter"], True)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("a,b", [(2, 3), (2, 5), (3, 7), (4, 9)])
def test_the_facts_the_proof_uses_hold_on_the_graph(a, b):
    """(1): ka and kb (k ≤ b − 1) have level k and one lower neighbour; (k − 1)b + a and (k − 1)a + b at
    level k have two; (2): a² is none of b² − b, b² − b + a, b² modulo n; (3): T is injective on each level."""
    low = F.general_two_jump_low(a, b)
    for n in (low, low + 1, low + b, 3 * low + 2):
        lev = levels(n, (a, b))

        def lower(u, n=n, lev=lev):
            return frozenset(v for v in ((u - a) % n, (u - b) % n) if lev[v] == lev[u] - 1)
        assert max(lev) >= b
        for k in range(1, b):
            assert lev[k * a % n] == k and lower(k * a % n) == {(k - 1) * a % n}
            assert lev[k * b % n] == k and lower(k * b % n) == {(k - 1) * b % n}
            for u in ((k - 1) * b + a, (k - 1) * a + b):
                if k >= 2 and lev[u % n] == k:
                    assert len(lower(u % n)) == 2
        assert a * a % n not in {(b * b - b) % n, (b * b - b + a) % n, b * b % n}
        for level in range(2, max(lev) + 1):  # level 1: a and b, both below 0 (fixed by (2))
            sets = [lower(u) for u in range(n) if lev[u] == level]
            assert len(sets) == len(set(sets))


def test_below_the_range_the_group_can_be_larger():
    """n = 21 divides b² − a² for {2, 5}: x ↦ 5·2⁻¹·x exchanges the jumps, |G| = 2n (the range needs n > b²)."""
    got = F.concrete(Offsets((2, 5), True), 21)
    assert got.order == 42


def test_a_shared_factor_is_theorem_f27_for_n_coprime_to_it():
    found = F.match([Offsets((2, 4), True)], N, {})
    assert isinstance(found, F.FamilyTheorem) and found.theorem == "F27" and found.coprime_to == 2
    assert not F.concrete(Offsets((2, 4), True), 20).connected and F.concrete(Offsets((2, 4), True), 21).connected


def _source(pattern: str, tokens: str = "") -> str:
    return f"{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def test_symbolic_n_is_uap_with_c_n_and_d_layers_and_the_verifier_agrees():
    text = _source("offsets {2, 5} cyclic")
    result = uapcheck.check(text, "t.uap")
    assert result.verdict == "UAP" and (result.group.name, result.group.condition) == ("C_n", "n ≥ 31")
    step = next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")
    assert step.facts.get("least") and "Theorem F17" in step.evidence["method"]
    report = verify(json.loads(json.dumps(certfile.build(result, text))))
    assert report.ok and report.complete
    for st in report.steps:
        if st.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert st.outcome == VERIFIED and "Theorem F17" in st.reason


def test_a_million_tokens_are_decided_without_arcs(no_graphs):
    n = 1_000_003
    result = uapcheck.check(_source("offsets {3, 7} cyclic", f"tokens {n}\n"), "t.uap")
    assert result.verdict == "UAP" and result.group.name == "C_n"
    low = F.general_two_jump_low(3, 7)
    m = low + (n - low) % 7  # D(n + b) = D(n) + 1: breadth-first search at the same residue in range
    assert result.layers == max(levels(m, (3, 7))) + (n - m) // 7
