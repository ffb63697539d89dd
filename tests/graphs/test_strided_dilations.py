"""Theorem F91 (docs/theory.md §11.11): `strided(s)` with non-cyclic local parts whose jumps leaving a class share a
factor 2 ≤ r < s, gcd(r, s) = 1 — D by residue of n mod s, G = the reflection (S′ = −S′) or trivial, D + 1 layers —
against the concrete engine (graphs, BLISS, rooted views) through two periods of n mod s from the range's start, and
the group at every n from max(20, rs) to 60 (it holds below the proof's range too). Theorem F92 (r > s): the lines of
one class can be exchanged; D, |G| against the concrete engine and a brute-force count of the line maps."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families, strided_dilations
from uapcheck.graphs.families import concrete
from uapcheck.spec import Dilated, Offsets, PatternUnion, Strided

N = sympy.Symbol("n", integer=True, positive=True)

# (s, local parts, r, S′ = −S′)
CASES = [(5, (Dilated(2, 3),), 3, True), (5, (Dilated(1, 2),), 2, True), (7, (Dilated(2, 3),), 3, True),
         (7, (Dilated(1, 2),), 2, True), (5, (Offsets((-2, 4)),), 2, False), (3, (Dilated(1, 2),), 2, True),
         (4, (Dilated(2, 3),), 3, True), (5, (Dilated(1, 3), Offsets((6, -3, 9))), 3, False)]


def _pattern(s, rest):
    return PatternUnion((Strided(s),) + tuple(rest))


@pytest.mark.parametrize("s, rest, r, symmetric", CASES)
def test_against_concrete_engine(s, rest, r, symmetric):
    theorem = families.match([_pattern(s, rest)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F91"
    assert theorem.values()["r"] == r and theorem.group == ("reflection" if symmetric else "trivial")
    assert not theorem.least or symmetric  # Theorem F98 (tests/graphs/test_strided_lines_least.py)
    if (s, rest) == (5, (Dilated(2, 3),)):
        assert theorem.least
    low = int(theorem.low)
    pattern = _pattern(s, rest)
    for n in range(low, low + 2 * s):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (s, rest, n)
        assert got.order == want["order"] == (2 if symmetric else 1), (s, rest, n)
        assert want["layers"] - want["diameter"] in ((0, 1) if theorem.least else (1,))  # F98/F99 when least
    for n in range(max(20, r * s), 61):
        assert concrete(pattern, n, layers=False).order == (2 if symmetric else 1), (s, rest, n)


@pytest.mark.parametrize("s, rest", [(3, (Dilated(1, 2),)), (5, (Dilated(1, 2),)), (4, (Dilated(2, 3),))])
def test_d_plus_one_is_sufficient_at_the_range_start(s, rest):
    """The concrete engine's least count never exceeds the theorem's D + 1."""
    theorem = families.match([_pattern(s, rest)], N, {})
    n = int(theorem.low)
    got = concrete(_pattern(s, rest), n)
    assert got.layers <= families.at(theorem, {"n": n})["layers"]


@pytest.mark.parametrize("s, rest", [(4, (Dilated(1, 2),)), (6, (Dilated(2, 3),)), (5, (Offsets((3, 6)),)),
                                     (2, (Offsets((3, 6)),))])
def test_outside_the_theorem(s, rest):
    """gcd(r, s) > 1 (not strongly connected), S′/r one-sided."""
    assert strided_dilations.strided_scaled(s, tuple(sorted({k for q in rest for k in _jumps(q)}))) is None


def _jumps(q):
    if isinstance(q, Dilated):
        return [k * q.r for k in range(-q.w, q.w + 1) if k]
    return list(q.offsets)


# Theorem F92: r > s, gcd(r, s) = 1 (s, local parts, r, S′ = −S′)
WIDE = [(2, (Dilated(1, 3),), 3, True), (3, (Dilated(1, 4),), 4, True), (2, (Dilated(2, 3),), 3, True),
        (3, (Dilated(1, 5),), 5, True), (4, (Dilated(1, 5),), 5, True), (2, (Dilated(1, 5),), 5, True),
        (3, (Offsets((-4, 8)),), 4, False), (5, (Dilated(2, 7),), 7, True), (2, (Offsets((-3, 9)),), 3, False)]


def _brute_order(n, s, r, symmetric):
    """|G| by the definition of F92 (b): every assignment of lines to lines and orientations, kept when every line
    induces one map of the classes mod s (written here without the engine's count by line types)."""
    from itertools import permutations, product
    lines = [list(range(a, n + 1, r)) for a in range(1, r + 1)]
    count = 0
    for beta in permutations(range(r)):
        if any(len(lines[a]) != len(lines[b]) for a, b in enumerate(beta)):
            continue
        for turns in product((False, True) if symmetric else (False,), repeat=r):
            image = {}
            ok = True
            for a, b in enumerate(beta):
                target = lines[b][::-1] if turns[a] else lines[b]
                for u, v in zip(lines[a], target):
                    if image.setdefault(u % s, v % s) != v % s:
                        ok = False
            count += ok
    return count


@pytest.mark.parametrize("s, rest, r, symmetric", WIDE)
def test_r_above_s_against_the_concrete_engine(s, rest, r, symmetric):
    """F92: D and |G| against the concrete engine at every n from max(12, rs) to 60 (the group holds below the proof's
    range) and through one period of n mod rs from the range's start where that is at most 100; the order by residue
    against the brute-force count."""
    theorem = families.match([_pattern(s, rest)], N, {})
    assert isinstance(theorem, families.FamilyTheorem) and theorem.theorem == "F92"
    # Theorems F97 (s = 2) and F98 (s ≥ 3): D layers, least, only with S′ = −S′ (tests/graphs/test_strided_lines_least.py)
    assert theorem.least if s == 2 and symmetric else (symmetric or not theorem.least)
    assert theorem.values()["r"] == r and (theorem.least or theorem.layers == theorem.diameter + 1)
    pattern = _pattern(s, rest)
    low = int(theorem.low)
    top = low + r * s - 1 if low + r * s <= 100 else low + s
    for n in range(low, top + 1):
        want = families.at(theorem, {"n": n})
        got = concrete(pattern, n, layers=False)
        assert got.connected and got.diameter == want["diameter"], (s, rest, n)
        assert got.order == want["order"] == _brute_order(n, s, r, symmetric), (s, rest, n)
    if isinstance(rest[0], Offsets):
        return  # offsets on a line need their lines longer than here (F41's range)
    for n in range(max(12, r * s), 61):
        assert concrete(pattern, n, layers=False).order == strided_dilations.line_order(n, s, r, symmetric), n


@pytest.mark.parametrize("s, rest", [(2, (Dilated(1, 3),)), (3, (Dilated(1, 4),))])
def test_r_above_s_d_plus_one_is_sufficient_at_the_range_start(s, rest):
    theorem = families.match([_pattern(s, rest)], N, {})
    n = int(theorem.low)
    assert concrete(_pattern(s, rest), n).layers <= families.at(theorem, {"n": n})["layers"]


def test_r_above_s_order_at_symbolic_n_is_one_closed_form_per_residue():
    theorem = families.match([_pattern(2, (Dilated(1, 3),))], N, {})
    assert isinstance(theorem.order, sympy.Piecewise)
    for n in range(40, 52):
        assert families.at(theorem, {"n": n})["order"] == _brute_order(n, 2, 3, True)
