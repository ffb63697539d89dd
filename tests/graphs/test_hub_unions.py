"""Theorems F30–F33 of docs/theory.md §11.11 (globals added to a base pattern) against the concrete
engine (graphs, BLISS, rooted views) at every n ≤ 60 in range for many bases, the groups against an
automorphism count written here (partial maps extended position by position) at small n, and the view
witnesses on the arcs, by the definition."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs import hub_unions as H
from uapcheck.spec import Dilated, Global, Offsets, PatternUnion, Star, Strided, Window

from .reference import count_automorphisms as count_graph_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# (pattern, theorem, group proved, least layers proved)
BASES = [
    (U(Dilated(2, 3), Global(1)), "F31", True, True),
    (U(Dilated(1, 2), Global(2)), "F31", True, True),
    (U(Dilated(2, 2), Star()), "F31", True, True),
    (U(Window(1), Dilated(3, 4), Global(2)), "F31", True, True),
    (U(Window(2), Dilated(2, 2), Global(1)), "F31", True, True),
    (U(Offsets((0, 1, 2)), Global(1)), "F31", True, True),
    (U(Offsets((-1, -3)), Global(1)), "F31", True, True),
    (U(Offsets((1, 4)), Global(2)), "F31", True, True),
    (U(Offsets((0, 1, 2), True), Global(2)), "F31", True, True),
    (U(Window(1, True), Dilated(2, 2), Global(1)), "F31", True, True),
    (U(Offsets((0, 1), True), Offsets((0, 3), True), Global(2)), "F62", True, True),  # the group by Theorem F62
    (U(Window(1), Offsets((3,)), Global(1)), "F31", True, True),  # the group by Theorem F43
    (U(Window(1), Strided(3), Global(1)), "F33", True, True),
    (U(Window(1), Strided(4), Global(1)), "F33", True, True),
    (U(Window(1), Strided(5), Global(2)), "F33", True, True),
    (U(Window(2), Strided(5), Global(1)), "F33", True, True),
    (U(Window(1), Strided(6), Star()), "F33", True, True),
    (U(Window(2), Strided(3), Global(1)), "F33", True, True),
    (U(Window(1), Strided(2), Global(1)), "F33", True, True),
    (U(Window(3), Strided(2), Global(2)), "F33", True, True),
    (U(Window(2), Strided(4), Global(1)), "F33", True, True),   # s = w + 2: 2 layers by Theorem F81
    (U(Window(2), Strided(4), Global(2)), "F33", True, True),
]


def theorem_of(pattern):
    return F.match([pattern], N, {})


@pytest.mark.parametrize("pattern, name, group, least", BASES, ids=[str(i) for i in range(len(BASES))])
def test_theorem_agrees_with_the_concrete_engine(pattern, name, group, least):
    theorem = theorem_of(pattern)
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == name
    assert (theorem.group is not None) == group and theorem.least == least
    low = int(theorem.low)
    assert low <= NMAX - 4
    for n in range(low, NMAX + 1):
        want = F.at(theorem, {"n": n})
        got = F.concrete(pattern, n)
        assert got.connected and got.diameter == want["diameter"] == 2, n
        if group:
            assert got.order == want["order"], n
        assert got.least
        if least:
            assert got.layers == want["layers"], n
        else:
            assert want["layers"] == 3 >= got.layers, n


def _part_sets(p, n):
    """{v: the positions v attends to by this part} (v not included)."""
    out: dict = {v: set() for v in range(1, n + 1)}
    for v in range(1, n + 1):
        if isinstance(p, (Global, Star)):
            g = 1 if isinstance(p, Star) else p.g
            out[v] = set(range(1, g + 1)) | (set(range(1, n + 1)) if v <= g else set())
        elif isinstance(p, Window):
            out[v] = {u for u in range(1, n + 1) if abs(u - v) <= p.w or (p.cyclic and n - abs(u - v) <= p.w)}
        elif isinstance(p, Offsets):
            out[v] = {(v + k - 1) % n + 1 for k in p.offsets} if p.cyclic else {
                v + k for k in p.offsets if 1 <= v + k <= n}
        elif isinstance(p, Dilated):
            out[v] = {u for k in range(1, p.w + 1) for u in (v - k * p.r, v + k * p.r) if 1 <= u <= n}
        elif isinstance(p, Strided):
            out[v] = {u for u in range(1, n + 1) if (u - v) % p.s == 0}
    return out


def in_sets(pattern, n):
    """N(v): the positions v attends to (v included), built here from the definitions of the parts."""
    out = {v: {v} for v in range(1, n + 1)}
    for part in pattern.parts:
        for v, found in _part_sets(part, n).items():
            out[v] |= found
    return out


def count_automorphisms(n, ins):
    arcs = {(u, v) for v in ins for u in ins[v]}
    return count_graph_automorphisms(n, lambda u, v: (u, v) in arcs, invariant=lambda v: len(ins[v]))


@pytest.mark.parametrize("pattern, name, group, least", [b for b in BASES if b[2]][:12])
def test_group_order_by_extending_partial_maps(pattern, name, group, least):
    theorem = theorem_of(pattern)
    low = int(theorem.low)
    for n in range(low, low + 3):
        if n > 22:
            break
        assert count_automorphisms(n, in_sets(pattern, n)) == F.at(theorem, {"n": n})["order"], n


@pytest.mark.parametrize("pattern, name, group, least", [b for b in BASES if b[3] and b[1] == "F31" or b[0] in (
    U(Window(1), Strided(3), Global(1)), U(Window(1), Strided(5), Global(2)), U(Window(2), Strided(5), Global(1)))])
def test_witness_on_the_arcs(pattern, name, group, least):
    theorem = theorem_of(pattern)
    assert theorem.witness is not None
    for n in range(int(theorem.low), NMAX + 1):
        ins = in_sets(pattern, n)
        i = int(theorem.witness[0])
        a, b = (int(x) for x in theorem.witness[1])
        sw = {a: b, b: a}.get
        ball = ins[i]                                # distance ≤ D − 1 = 1 from i
        assert all({sw(z, z) for z in ins[x]} == ins[sw(x, x)] for x in ball), n
        assert not all({sw(z, z) for z in ins[x]} == ins[sw(x, x)] for x in range(1, n + 1)), n


def test_the_issue_examples_are_decided():
    for pattern in (U(Window(2), Strided(3), Global(1)), U(Dilated(2, 3), Global(1)),
                    U(Window(1), Dilated(3, 4), Global(2)), U(Offsets((0, 1, 2)), Global(1))):
        theorem = theorem_of(pattern)
        assert isinstance(theorem, F.FamilyTheorem) and theorem.group is not None


def test_cyclic_parts_within_the_globals_are_straightened():
    assert H.straightened([("coffsets", (1, 2))], 2) == [("offsets", (1, 2))]
    assert H.straightened([("coffsets", (1, 3))], 2) == [("coffsets", (1, 3))]
    assert H.straightened([("cwindow", (1,))], 1) == [("window", (1,))]


def test_symbolic_parameters_are_not_matched_here():
    w = sympy.Symbol("w", integer=True, positive=True)
    assert H.match_hubs([], N) is None
    from uapcheck.graphs.closed_forms import _Atom
    assert H.match_hubs([_Atom("global", (sympy.Integer(1),)), _Atom("dilated", (w, sympy.Integer(2)))], N) is None
