"""Theorem F8 (docs/theory.md §11.11): `offsets {1, s} cyclic` (and {−1, −s}), s ≥ 3, n ≥ s² + 1 —
D = q + max(r, s − 2) with n − 1 = qs + r, G = C_n, D layers least.

Checked a second way: the theorem at symbolic n against the concrete engine (graphs, BLISS, rooted
views) at every n ≤ 60 in its range; the diameter formula against a plain BFS over Z_n on its larger
range n ≥ max(s + 1, s² − 3s + 2), and its failure just below; the group's range against the
multiplier x ↦ sx at n = s² − 1; the open cases naming O1; the verifier's own entry; n = 1,048,576.
"""
from __future__ import annotations

import json

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import Offsets, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def _bfs_diameter(n: int, jumps) -> int:
    """The directed diameter of Cay(Z_n, jumps) (vertex-transitive: one eccentricity), by BFS."""
    dist = [-1] * n
    dist[0] = 0
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for k in jumps:
                v = (u + k) % n
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        frontier = nxt
    assert min(dist) >= 0
    return max(dist)


def _formula(n: int, s: int) -> int:
    q, r = divmod(n - 1, s)
    return q + max(r, s - 2)


@pytest.mark.parametrize("s", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("mirror", [False, True])
def test_f8_agrees_with_the_concrete_engine_at_every_n_in_range(s, mirror):
    offsets = (-1, -s) if mirror else (1, s)
    theorem = F.match([Offsets(offsets, True)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F8"
    assert theorem.low == s * s + 1 and theorem.group == "C_n" and theorem.least
    checked = 0
    for n in range(s * s + 1, NMAX + 1):
        assert F.instance_check(theorem, Offsets(offsets, True), {"n": n}) is None
        checked += 1
    assert checked >= 1 or s * s + 1 > NMAX


def test_f8_with_the_query_listed_is_the_same_family():
    theorem = F.match([Offsets((0, 1, 5), True)], N, {})
    assert theorem.theorem == "F8" and theorem.values() == {"s": 5}


@pytest.mark.parametrize("s", range(3, 12))
def test_the_diameter_formula_holds_from_s2_minus_3s_plus_2_and_fails_just_below(s):
    low = max(s + 1, s * s - 3 * s + 2)
    for n in range(low, 240):
        assert _bfs_diameter(n, (1, s)) == _formula(n, s), (s, n)
        assert _bfs_diameter(n, (-1, -s)) == _formula(n, s), (s, n)
    if s >= 4:  # n = s² − 3s + 1: wrap-around reaches n − 2 = qs − 1 in 2s − 6 steps (theory: sharpness)
        n = s * s - 3 * s + 1
        assert _bfs_diameter(n, (1, s)) < _formula(n, s)


@pytest.mark.parametrize("s", [3, 4, 5, 6, 7, 9])
def test_the_printed_diameter_is_q_plus_max_r_s_minus_2(s):
    expr = F.two_jump_diameter(N, s)
    for n in range(s + 1, 400):
        assert int(expr.xreplace({N: n})) == _formula(n, s)


@pytest.mark.parametrize("s", [3, 4, 5, 6])
def test_the_group_is_cyclic_from_s2_and_larger_at_s2_minus_1(s):
    """G = C_n for n ≥ s² (walk counts of length s tell the arcs of size 1 and s apart); at n = s² − 1 the
    multiplier x ↦ sx is an automorphism, so the range of the group is sharp."""
    pattern = Offsets((1, s), True)
    for n in range(s * s, NMAX + 1):
        assert F.concrete(pattern, n, False).order == n
    n = s * s - 1
    assert F.concrete(pattern, n, False).order >= 2 * n
    perm = {x: (s * x) % n for x in range(n)}
    arcs = {(x, (x + k) % n) for x in range(n) for k in (1, s)}
    assert {(perm[a], perm[b]) for a, b in arcs} == arcs


def test_d_layers_suffice_below_the_range_too_where_the_engine_decides():
    """Below n = s² + 1 the theorem claims nothing; the concrete engine decides each n (for s ≤ 6 it
    finds D layers enough at every 3 ≤ n ≤ s², which the theorem does not claim: theory §11.11, F8)."""
    for s in (3, 4, 5, 6):
        for n in range(3, s * s + 1):
            got = F.concrete(Offsets((1, s), True), n)
            assert got.least and got.layers == got.diameter


@pytest.mark.parametrize("offsets", [(2, 4), (1, -3), (-1, 3), (1, 3, 5), (2, -2, 3, -3), (3, 6)])  # {2, 3}, {2, 5}: F17
def test_other_cyclic_offsets_are_theorem_f27(offsets):
    found = F.match([Offsets(offsets, True)], N, {})
    assert isinstance(found, F.FamilyTheorem) and found.theorem == "F27" and found.least


def test_symbolic_cyclic_offsets_name_their_open_question():
    s = {"s": sympy.Symbol("s", integer=True, positive=True)}
    found = F.match([Offsets((2, "s"), True)], N, s)
    assert isinstance(found, F.OpenFamily) and "symbolic offsets" in found.question
    # {1, s} with s named is Theorem F49 from s ≥ 2; declared from 1, the derivation says what to declare
    found = F.match([Offsets((1, "s"), True)], N, s)
    assert isinstance(found, F.OpenFamily) and "param s integer >= 2" in found.question and "O10" in found.question
    assert F.match([Offsets((1, "s"), True)], N, s, lower={"s": 2}).theorem == "F49"


def _check(text: str):
    return uapcheck.check(text, "t.uap")


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "two jumps"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _layers_step(result):
    return next(s for s in result.root.walk() if s.rule == "PAT-LAYERS")


def test_a_million_tokens_is_decided_by_the_theorem_without_arcs():
    result = _check(_source("offsets {1, 3} cyclic", "tokens 1048576\n"))
    assert result.verdict == "UAP"
    step = _layers_step(result)
    assert result.layers == 349526 and step.facts.get("least")  # (n − 1)/3 + 1
    assert "Theorem F8" in step.evidence["method"]


def test_symbolic_n_states_the_range_and_the_formula():
    result = _check(_source("offsets {-1, -4} cyclic"))
    assert result.verdict == "UAP"
    step = _layers_step(result)
    assert step.facts.get("least") and "n ≥ 17" in step.evidence["method"]
    assert (result.group.name, result.group.condition) == ("C_n", "n ≥ 17")
    assert [int(result.layers.xreplace({sympy.Symbol("n", integer=True, positive=True): n})) for n in (17, 18, 19, 20)] \
        == [6, 6, 6, 7]  # n − 1 = 4q + r: q + max(r, 2)


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _step(cert, rule):
    return next(s for s in cert["steps"] if s["rule"] == rule)


def test_the_verifier_rechecks_f8_with_its_own_entry():
    report = verify(_cert(_source("offsets {1, 3} cyclic")))
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and "Theorem F8" in s.reason and "10..14" in s.reason


@pytest.mark.parametrize("rule, key, value", [
    ("PAT-CONNECTED", "diameter", {"op": "ceiling", "args": [{"op": "*", "args": [{"q": [1, 3]}, {"sym": "n"}]}]}),
    ("PAT-LAYERS", "layers", {"op": "+", "args": [1, {"sym": "n"}]}),
    ("PAT-CONNECTED", "from", 9),  # below s² + 1 = 10
    ("SYM-AUT", "order", {"op": "*", "args": [2, {"sym": "n"}]}),
    ("SYM-AUT", "name", "D_n"),
])
def test_the_verifier_rejects_a_forged_f8_claim(rule, key, value):
    cert = _cert(_source("offsets {1, 3} cyclic"))
    _step(cert, rule)["data"][key] = value
    report = verify(cert)
    assert not report.ok and any(s.rule == rule and s.outcome == REJECTED for s in report.steps)


# ---------------------------------------------------------------------------------------------
# The symmetric {±1, ±s}: parts (b) and (a) of Theorem F12 (docs/theory.md §11.11; the rest in
# tests/graphs/test_symmetric_two_jumps.py)

def _walks(n: int, s: int, target: int) -> int:
    """Walks of length s from 0 to target in C_n(1, s) (steps ±1, ±s), by dynamic programming."""
    cur = {0: 1}
    for _ in range(s):
        nxt: dict = {}
        for u, c in cur.items():
            for k in (1, -1, s, -s):
                v = (u + k) % n
                nxt[v] = nxt.get(v, 0) + c
        cur = nxt
    return cur.get(target % n, 0)


@pytest.mark.parametrize("s", [3, 4, 5, 6, 7, 8])
def test_symmetric_two_jumps_edges_of_size_1_have_s_minus_1_more_walks_of_length_s(s):
    for n in range(s * s + s + 1, s * s + s + 25):
        assert _walks(n, s, 1) - _walks(n, s, s) == s - 1


@pytest.mark.parametrize("s", [3, 4, 5, 6])
def test_symmetric_two_jumps_have_the_dihedral_group_from_s2_plus_s_plus_1(s):
    pattern = Offsets((1, -1, s, -s), True)
    for n in range(s * s + s + 1, NMAX + 1):
        assert F.concrete(pattern, n, False).order == 2 * n
    assert F.concrete(pattern, s * s + 1, False).order > 2 * (s * s + 1)  # x ↦ sx at n = s² + 1


@pytest.mark.parametrize("s", [3, 4, 5, 6, 7])
def test_symmetric_two_jumps_diameter_grows_by_one_every_2s_from_s2_plus_s(s):
    jumps = (1, -1, s, -s)
    for n in range(s * s + s, s * s + s + 10 * s):
        assert _bfs_diameter(n + 2 * s, jumps) == _bfs_diameter(n, jumps) + 1


def test_symmetric_two_jumps_can_need_d_plus_1_layers_where_g_is_dihedral():
    """s = 6, n = 21, below Theorem F12's range: G = D_21 and yet a view witness exists (D = 3 < ⌊6/2⌋ + 1)."""
    got = F.concrete(Offsets((1, -1, 6, -6), True), 21)
    assert got.order == 42 and got.least and got.layers == got.diameter + 1


@pytest.mark.parametrize("s", [3, 4, 5, 6])
def test_the_closed_forms_of_a_head_carry_f8_for_unions_of_heads(s):
    """graphs/closed_connectivity.py and closed_groups.py state F8's diameter (n ≥ max(s + 1, s² − 3s + 2))
    and group (n ≥ s²) per head, so heads with other patterns intersect with C_n exactly."""
    from uapcheck.graphs import closed_connectivity, closed_group
    pattern = Offsets((1, s), True)
    for n in range(2, NMAX + 1):
        case = closed_connectivity([pattern], n).at({})
        assert case is not None and case.strongly_connected
        if case.diameter is not None:
            assert n >= max(s + 1, s * s - 3 * s + 2) and int(case.diameter) == _bfs_diameter(n, (1, s))
        group = closed_group([pattern], n)
        found = group.at({}) if group is not None else None
        if n >= s * s:
            assert found is not None and found.name == "C_n" and int(found.order) == n
            assert F.concrete(pattern, n, False).order == n
        else:
            assert found is None
    both = closed_group([pattern, Window(2, True)], N)  # C_n ∩ D_n = C_n for n ≥ max(s², 7)
    case = both.at({"n": max(s * s, 7) + 1})
    assert case.name == "C_n"


@pytest.mark.parametrize("offsets", [(2, 3), (1, -3), (1, -1, 3, -3), (2, 5), (1, 3, 5), (-2, -7)])
def test_at_an_integer_n_a_circulant_s_diameter_is_one_bfs_over_z_n(offsets):
    """closed_connectivity at an integer n: one position's eccentricity (the rotations are automorphisms),
    by a numpy BFS over Z_n; compared with the concrete engine's all-pairs answer."""
    from math import gcd
    from uapcheck.graphs import closed_connectivity
    pattern = Offsets(offsets, True)
    for n in range(3, 41):
        if gcd(gcd(*[abs(k) for k in offsets]), n) != 1:
            continue
        case = closed_connectivity([pattern], n).at({})
        assert case.strongly_connected and int(case.diameter) == F.concrete(pattern, n, False).diameter


def test_the_symmetric_two_jumps_at_600000_tokens_take_the_closed_forms():
    """{±1, ±3} at n = 600,000 (2.4 million arcs, above the token-graph limit of rules/pattern.py): G = D_n
    and D layers, least (Theorem F16), D by one BFS over Z_n. (At 150,000 tokens the token graph is built
    and decides D layers, least, too.)"""
    from uapcheck.graphs.closed_connectivity import circulant_eccentricity
    n = 600_000
    result = _check(_source("offsets {1, -1, 3, -3} cyclic", f"tokens {n}\n"))
    d = _bfs_diameter(n, (1, -1, 3, -3))
    assert circulant_eccentricity(n, (1, -1, 3, -3)) == d
    assert result.verdict == "UAP" and result.group.name == "D_n" and result.layers == d
    assert _layers_step(result).facts.get("least") and "Theorem F16" in _layers_step(result).evidence["method"]
