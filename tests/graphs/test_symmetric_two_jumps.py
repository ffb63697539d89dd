"""Theorem F12 (docs/theory.md §11.11): `offsets {−s, −1, 1, s} cyclic`, the circulant C_n(1, s), s ≥ 3,
n ≥ s² + s + 2 — D = ⌊n/(2s)⌋ + h_s(n mod 2s) (a closed form), G = D_n, D layers least for s ≥ 4, and
for s = 3 by Theorem F16.

Checked a second way: the closed form against a plain BFS over Z_n far past the engine's reach; the
theorem at symbolic n against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in its
range for several s; the structural facts the proof of the layers uses, on the actual graph; the
exception s = 6, n = 21 below the range; the verifier's own entry, and forged claims rejected.
"""
from __future__ import annotations

import json
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import Offsets
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def _levels(n: int, s: int) -> list:
    """Distances from 0 in C_n(1, s), by BFS."""
    dist = [-1] * n
    dist[0] = 0
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for k in (1, -1, s, -s):
            v = (u + k) % n
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def _pattern(s: int) -> Offsets:
    return Offsets((-s, -1, 1, s), True)


@pytest.mark.parametrize("s", range(3, 13))
def test_the_closed_form_is_the_bfs_diameter_from_s2_plus_s(s):
    for n in range(s * s + s, 520):
        assert F.symmetric_two_jump_diameter(n, s) == max(_levels(n, s)), (s, n)


@pytest.mark.parametrize("s", [3, 4, 5, 6, 8, 11])
def test_the_printed_residue_table_is_the_closed_form(s):
    theorem = F.match([_pattern(s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == ("F16" if s == 3 else "F12")
    assert theorem.low == s * s + s + 2 and theorem.group == "D_n"
    for n in range(s * s + s + 2, s * s + s + 2 + 6 * s):
        assert F.at(theorem, {"n": n})["diameter"] == F.symmetric_two_jump_diameter(n, s)
        assert F.at(theorem, {"n": n})["order"] == 2 * n


def test_the_table_of_s_4_and_s_6():
    assert F.symmetric_two_jump_excess(4) == [1, 1, 1, 1, 2, 2, 2, 2]
    assert F.symmetric_two_jump_excess(6) == [2, 2, 2, 2, 2, 2, 3, 3, 3, 2, 2, 3]


@pytest.mark.parametrize("s", [3, 4, 5, 6, 7])
def test_f12_agrees_with_the_concrete_engine_at_every_n_in_range(s):
    theorem = F.match([_pattern(s)], N, {})
    assert theorem.least  # s = 3: Theorem F16
    for n in range(s * s + s + 2, NMAX + 1):
        assert F.instance_check(theorem, _pattern(s), {"n": n}) is None
        got = F.concrete(_pattern(s), n)
        assert got.least and got.layers == got.diameter == F.at(theorem, {"n": n})["layers"]


def test_f12_agrees_with_the_concrete_engine_past_60_for_s_4():
    theorem = F.match([_pattern(4)], N, {})
    for n in range(61, 73):
        assert F.instance_check(theorem, _pattern(4), {"n": n}) is None


def test_the_order_of_the_offsets_does_not_matter():
    for offsets in ((1, -1, 5, -5), (5, 1, -5, -1)):
        theorem = F.match([Offsets(offsets, True)], N, {})
        assert theorem.theorem == "F12" and theorem.values() == {"s": 5}


@pytest.mark.parametrize("s", [4, 5, 6, 7, 8, 9])
def test_the_facts_the_layer_proof_uses_hold_on_the_graph(s):
    """(F1) two positions p − a, p − b (a ≠ ±b) have exactly the common neighbours p and p − a − b;
    (c1) the ray k has the single lower neighbour k − 1 for 2 ≤ k ≤ ⌊s/2⌋, ks ± 1 has two; s even: s/2
    and −s/2 are adjacent on level s/2; s odd: (s + 1)/2 has three lower neighbours, and the level-(K + 1)
    neighbours of Ks at most two; D ≥ ⌊s/2⌋ + 1."""
    steps = (1, -1, s, -s)
    for n in (s * s + s + 2, s * s + s + 3, s * s + 3 * s, 2 * s * s + 7):
        lev = _levels(n, s)

        def lower(u, n=n, lev=lev):
            return {(u + k) % n for k in steps if lev[(u + k) % n] == lev[u] - 1}
        for p in range(0, n, max(1, n // 17)):
            for a in steps:
                for b in steps:
                    if a != b and a != -b:
                        common = {(p - a + c) % n for c in steps} & {(p - b + d) % n for d in steps}
                        assert common == {p % n, (p - a - b) % n}
        big_k = s // 2
        assert max(lev) >= big_k + 1
        for k in range(2, big_k + 1):
            assert lev[k] == k and lower(k) == {k - 1}
            assert lev[k * s % n] == k and len(lower((k - 1) * s + 1)) == 2 and len(lower((k - 1) * s - 1)) == 2
        if s % 2 == 0:
            assert lev[big_k] == lev[n - big_k] == big_k
            assert all(lev[(big_k * s + k) % n] != big_k for k in steps)
        else:
            assert lower(big_k + 1) == {big_k, big_k + 2, n - big_k}
            for u in ((big_k + 1) * s, big_k * s + 1, big_k * s - 1):
                assert lev[u % n] == big_k + 1 and len(lower(u % n)) <= 2


def test_below_the_range_s_6_n_21_needs_d_plus_1_layers_with_g_dihedral():
    """D(21) = 3 < ⌊6/2⌋ + 1 = 4: the view of radius D − 1 does not reach the level that tells 1 from 6."""
    got = F.concrete(_pattern(6), 21)
    assert got.order == 42 and got.diameter == 3 and got.least and got.layers == 4


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "two jumps"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _layers_step(result):
    return next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")


def test_symbolic_n_states_the_range_the_table_and_least():
    result = uapcheck.check(_source("offsets {-4, -1, 1, 4} cyclic"), "t.uap")
    assert result.verdict == "UAP" and (result.group.name, result.group.condition) == ("D_n", "n ≥ 22")
    step = _layers_step(result)
    assert step.facts.get("least") and "Theorem F12" in step.evidence["method"]
    assert [int(sympy.piecewise_fold(result.layers.xreplace({N: n})).doit()) for n in range(22, 31)] == \
        [max(_levels(n, 4)) for n in range(22, 31)]


def test_s_3_states_d_layers_least_by_f16():
    result = uapcheck.check(_source("offsets {-3, -1, 1, 3} cyclic"), "t.uap")
    assert result.verdict == "UAP" and (result.group.name, result.group.condition) == ("D_n", "n ≥ 14")
    step = _layers_step(result)
    assert step.facts.get("least") and "Theorem F16" in step.evidence["method"]
    assert [int(sympy.piecewise_fold(result.layers.xreplace({N: n})).doit()) for n in range(14, 80)] == \
        [max(_levels(n, 3)) for n in range(14, 80)]


def test_the_facts_the_proof_of_f16_uses_hold_on_the_graph():
    """F16 (i): p − a, p − b have the common neighbours {p, p − a − b} (opposite signs) and {p, p − a − b,
    p − 2a} (equal signs); (ii): level 1 = {±1, ±3}, level 2 = {±2, ±4, ±6} with the lower sets ±{1, 3, −1},
    ±{1, 3}, ±{3}, at every 14 ≤ n ≤ 80."""
    steps = (1, -1, 3, -3)
    for n in range(14, 81):
        lev = _levels(n, 3)

        def lower(u, n=n, lev=lev):
            return {(u + k) % n for k in steps if lev[(u + k) % n] == lev[u] - 1}
        for a in (1, -1):
            for b in (3, -3):
                for p in range(n):
                    common = {(p - a + c) % n for c in steps} & {(p - b + d) % n for d in steps}
                    want = {p, (p - a - b) % n} | ({(p - 2 * a) % n} if a * b > 0 else set())
                    assert common == want, (n, a, b, p)
        assert {t for t in range(n) if lev[t] == 1} == {1, 3, n - 1, n - 3}
        assert {t for t in range(n) if lev[t] == 2} == {2, 4, 6, n - 2, n - 4, n - 6}
        for sign in (1, -1):
            assert lower(sign * 2 % n) == {sign % n, sign * 3 % n, -sign % n}
            assert lower(sign * 4 % n) == {sign % n, sign * 3 % n}
            assert lower(sign * 6 % n) == {sign * 3 % n}


def test_a_million_tokens_is_decided_without_arcs():
    n = 1_048_576
    result = uapcheck.check(_source("offsets {-5, -1, 1, 5} cyclic", f"tokens {n}\n"), "t.uap")
    assert result.verdict == "UAP" and result.group.name == "D_n"
    assert result.layers == max(_levels(n, 5)) and _layers_step(result).facts.get("least")


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("s", [3, 4, 6])
def test_the_verifier_rechecks_f12_with_its_own_entry(s):
    report = verify(_cert(_source(f"offsets {{-{s}, -1, 1, {s}}} cyclic")))
    assert report.ok and report.complete
    for st in report.steps:
        if st.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert st.outcome == VERIFIED and ("Theorem F16" if s == 3 else "Theorem F12") in st.reason


@pytest.mark.parametrize("rule, key, value", [
    ("PAT-CONNECTED", "diameter", {"op": "floor", "args": [{"op": "*", "args": [{"q": [1, 8]}, {"sym": "n"}]}]}),
    ("PAT-LAYERS", "layers", {"op": "+", "args": [1, {"op": "floor", "args": [
        {"op": "*", "args": [{"q": [1, 8]}, {"sym": "n"}]}]}]}),
    ("PAT-CONNECTED", "from", 21),  # below s² + s + 2 = 22
    ("SYM-AUT", "order", {"sym": "n"}),
    ("SYM-AUT", "name", "C_n"),
])
def test_the_verifier_rejects_a_forged_f12_claim(rule, key, value):
    cert = _cert(_source("offsets {-4, -1, 1, 4} cyclic"))
    next(s for s in cert["steps"] if s["rule"] == rule)["data"][key] = value
    report = verify(cert)
    assert not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)
