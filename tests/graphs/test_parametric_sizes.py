"""Theorems F47–F49 (docs/theory.md §11.11): families whose sizes are declared parameters.

Each closed form, stated with the sizes as symbols, is evaluated at every parameter value up to a bound and
at every n ≤ 60 in its range, and compared with the concrete engine (graphs, BLISS, rooted views) on the
pattern with the sizes written as literals; the group orders also with an automorphism count written in the
test at small n, and the view witnesses on the arcs. The parameter values below a theorem's least value
give an open family that says what to declare."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs.parametric_sizes import order_piecewise
from uapcheck.spec import Blocks, Global, Offsets, PatternUnion, Strided

from .reference import count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
TOP = 60


def sym(name):
    return sympy.Symbol(name, integer=True, positive=True)


def theorem(pattern, names, lower):
    found = F.match([pattern], N, {k: sym(k) for k in names}, lower=lower)
    assert isinstance(found, F.FamilyTheorem), found
    return found


def values_at(th, n, **params):
    return F.at(th, dict(params, n=n))


def compare(th, literal, n, **params):
    want = values_at(th, n, **params)
    got = F.concrete(literal, n)
    assert got.connected and got.diameter == want["diameter"], (n, params, got)
    assert got.order == want["order"], (n, params, got.order, want["order"])
    assert got.least and got.layers == want["layers"], (n, params, got)


def witness_holds(graphs, diameter, perm, position) -> bool:
    """σ keeps every neighbourhood within distance D − 1 of the position, and is not an automorphism."""
    from uapcheck.graphs.views import Neighbourhoods, witness_condition_holds
    nb = Neighbourhoods(graphs)
    n = len(perm)
    moves_an_arc = any(frozenset(perm[u] - 1 for u in nb.head_set(0, v)) != nb.head_set(0, perm[v] - 1)
                       for v in range(n))
    return moves_an_arc and witness_condition_holds(nb, perm, position, diameter - 1)


def low_at(th, **params) -> int:
    return int(th.low.xreplace({sym(k): sympy.Integer(v) for k, v in params.items()}))


def blocks_global(b, g):
    return PatternUnion((Blocks(b), Global(g)))


def strided_global(s, g):
    return PatternUnion((Strided(s), Global(g)))


# ---------------------------------------------------------------------------------------------
# F47: blocks(b) + global(g)

@pytest.mark.parametrize("b", range(2, 9))
def test_blocks_symbolic_size_one_global_matches_the_engine(b):
    th = theorem(blocks_global("b", 1), ["b"], {"b": 2})
    assert th.theorem == "F47" and low_at(th, b=b) == 2 * b + 1
    for n in range(low_at(th, b=b), TOP + 1):
        compare(th, blocks_global(b, 1), n, b=b)


@pytest.mark.parametrize("b,g", [(b, g) for b in range(2, 9) for g in (2, 3, 5)])
def test_blocks_and_globals_both_symbolic_match_the_engine(b, g):
    th = theorem(blocks_global("b", "g"), ["b", "g"], {"b": 2, "g": 1})
    low = low_at(th, b=b, g=g)
    assert low == b * (g // b + 2) + 1
    for n in range(low, min(TOP, low + 3 * b + 2) + 1):
        compare(th, blocks_global(b, g), n, b=b, g=g)


@pytest.mark.parametrize("g", range(1, 9))
def test_symbolic_global_count_with_literal_blocks_matches_the_engine(g):
    th = theorem(blocks_global(3, "g"), ["g"], {"g": 1})
    for n in range(low_at(th, g=g), TOP + 1):
        compare(th, blocks_global(3, g), n, g=g)


def test_blocks_witness_is_a_view_witness_on_the_arcs():
    from uapcheck.graphs import build_graph
    th = theorem(blocks_global("b", "g"), ["b", "g"], {"b": 2, "g": 1})
    for b, g in [(2, 1), (3, 2), (4, 1), (5, 7)]:
        for n in range(low_at(th, b=b, g=g), low_at(th, b=b, g=g) + 2 * b):
            pos, (a, c) = th.witness
            at = {N: n, sym("b"): b, sym("g"): g}
            pos, a, c = (int(sympy.sympify(x, strict=True).xreplace(at)) for x in (pos, a, c))
            perm = list(range(1, n + 1))
            perm[a - 1], perm[c - 1] = c, a
            graph = build_graph(blocks_global(b, g), n, {})
            assert witness_holds([graph], 2, perm, pos), (b, g, n)


def test_blocks_orders_by_brute_force_at_small_n():
    th = theorem(blocks_global("b", "g"), ["b", "g"], {"b": 2, "g": 1})
    for b, g in [(2, 1), (2, 2), (3, 1), (3, 3), (4, 2)]:
        for n in range(low_at(th, b=b, g=g), 14):
            def arc(u, v, b=b, g=g):
                return u != v and (u <= g or v <= g or (u - 1) // b == (v - 1) // b)
            assert count_automorphisms(n, arc) == values_at(th, n, b=b, g=g)["order"], (b, g, n)


def test_blocks_order_text_states_the_cases_in_words():
    th = theorem(blocks_global("b", "g"), ["b", "g"], {"b": 2, "g": 1})
    text = th.order_shown
    assert "b | g and b | n" in text and "b | g + n" in text and "otherwise" in text
    assert "Piecewise" not in text and "Mod(" not in text and "Eq(" not in text
    one = theorem(blocks_global("b", 1), ["b"], {"b": 2})
    assert "b | g" not in one.order_shown and "(b - 1)!" in one.order_shown.replace("−", "-")


def test_blocks_of_one_are_not_covered():
    found = F.match([blocks_global("b", 1)], N, {"b": sym("b")}, lower={"b": 1})
    assert isinstance(found, F.OpenFamily) and "param b integer >= 2" in found.question


def test_order_cases_agree_with_the_piecewise():
    th = theorem(blocks_global("b", "g"), ["b", "g"], {"b": 2, "g": 1})
    pw = order_piecewise(th.order_cases)
    assert pw == th.order


# ---------------------------------------------------------------------------------------------
# F48: strided(s) + global(g)

@pytest.mark.parametrize("s", range(3, 9))
def test_strided_symbolic_stride_matches_the_engine(s):
    th = theorem(strided_global("s", 1), ["s"], {"s": 3})
    assert th.theorem == "F48" and th.layers == 3
    for n in range(low_at(th, s=s), TOP + 1):
        compare(th, strided_global(s, 1), n, s=s)


@pytest.mark.parametrize("s,g", [(s, g) for s in range(3, 9) for g in (2, 3)])
def test_strided_stride_and_globals_symbolic_match_the_engine(s, g):
    th = theorem(strided_global("s", "g"), ["s", "g"], {"s": 3, "g": 1})
    low = low_at(th, s=s, g=g)
    assert low == g + s + 1
    for n in range(low, min(TOP, low + 2 * s + 2) + 1):
        compare(th, strided_global(s, g), n, s=s, g=g)


@pytest.mark.parametrize("g", range(1, 7))
def test_strided_two_with_symbolic_globals_needs_two_layers(g):
    th = theorem(strided_global(2, "g"), ["g"], {"g": 1})
    assert th.layers == 2
    for n in range(low_at(th, g=g), TOP + 1):
        compare(th, strided_global(2, g), n, g=g)


def test_strided_witness_is_a_view_witness_on_the_arcs():
    from uapcheck.graphs import build_graph
    th = theorem(strided_global("s", "g"), ["s", "g"], {"s": 3, "g": 1})
    for s, g in [(3, 1), (4, 2), (7, 3)]:
        for n in range(low_at(th, s=s, g=g), low_at(th, s=s, g=g) + 2 * s):
            pos, (a, c) = (int(g + 2), (g + 1, g + 3))
            assert th.witness == (sym("g") + 2, (sym("g") + 1, sym("g") + 3))
            perm = list(range(1, n + 1))
            perm[a - 1], perm[c - 1] = c, a
            assert witness_holds([build_graph(strided_global(s, g), n, {})], 2, perm, pos), (s, g, n)


def test_strided_orders_by_brute_force_at_small_n():
    th = theorem(strided_global("s", "g"), ["s", "g"], {"s": 3, "g": 1})
    for s, g in [(3, 1), (3, 2), (4, 1), (5, 2)]:
        for n in range(low_at(th, s=s, g=g), 12):
            def arc(u, v, s=s, g=g):
                return u != v and (u <= g or v <= g or (u - v) % s == 0)
            assert count_automorphisms(n, arc) == values_at(th, n, s=s, g=g)["order"], (s, g, n)


@pytest.mark.parametrize("least", [1, 2])
def test_strides_below_three_are_not_covered(least):
    found = F.match([strided_global("s", 1)], N, {"s": sym("s")}, lower={"s": least})
    assert isinstance(found, F.OpenFamily) and "param s integer >= 3" in found.question


# ---------------------------------------------------------------------------------------------
# F49: offsets {1, s} cyclic and {−1, −s} cyclic

@pytest.mark.parametrize("s", range(2, 8))
@pytest.mark.parametrize("sign", [1, -1])
def test_two_jumps_symbolic_matches_the_engine(s, sign):
    th = theorem(Offsets((sign, "s" if sign > 0 else "-s"), True), ["s"], {"s": 2})
    assert th.theorem == "F49"
    low = low_at(th, s=s)
    assert low == max(s * s + 1, 6)
    for n in range(low, TOP + 1):
        compare(th, Offsets((sign, sign * s), True), n, s=s)


def test_two_jumps_orders_by_brute_force_at_small_n():
    th = theorem(Offsets((1, "s"), True), ["s"], {"s": 2})
    for s in (2, 3):
        for n in range(low_at(th, s=s), 13):
            def arc(u, v, s=s, n=n):
                return (u - v) % n in (1, s % n)
            assert count_automorphisms(n, arc) == values_at(th, n, s=s)["order"] == n, (s, n)


def test_one_jump_value_is_not_covered():
    found = F.match([Offsets((1, "s"), True)], N, {"s": sym("s")}, lower={"s": 1})
    assert isinstance(found, F.OpenFamily) and "param s integer >= 2" in found.question


# ---------------------------------------------------------------------------------------------
# window(w) + global(g) with symbolic g (Theorem F2 and F10 read with g a symbol)

@pytest.mark.parametrize("w,g", [(w, g) for w in (1, 2, 3) for g in (1, 2, 4)])
def test_window_with_symbolic_globals_matches_the_engine(w, g):
    from uapcheck.spec import Window
    for cyclic in (False, True):
        pattern = PatternUnion((Window("w", cyclic), Global("g")))
        th = theorem(pattern, ["w", "g"], {"w": 1, "g": 1})
        assert th.theorem == ("F10" if cyclic else "F2")
        low = low_at(th, w=w, g=g)
        for n in range(low, min(TOP, low + 6) + 1):
            compare(th, PatternUnion((Window(w, cyclic), Global(g))), n, w=w, g=g)


# ---------------------------------------------------------------------------------------------
# F50: window(w) + strided(s) with s named, s ≥ w + 2 (a bound on D); F51: offsets {±1, ±s} cyclic, s named

def bound_compare(th, literal, n, **params):
    want = values_at(th, n, **params)
    got = F.concrete(literal, n)
    assert got.connected and got.diameter <= want["diameter"], (n, params, got, want)
    assert got.order == want["order"], (n, params, got.order, want["order"])
    assert got.layers is not None and got.layers <= want["layers"], (n, params, got, want)
    return got.diameter


@pytest.mark.parametrize("w,s", [(1, s) for s in range(3, 9)] + [(2, s) for s in range(4, 7)] + [(3, 5)])
def test_window_with_named_stride_is_bounded_and_the_reflection(w, s):
    from uapcheck.spec import Window
    th = theorem(PatternUnion((Window(w), Strided("s"))), ["s"], {"s": w + 2})
    assert th.theorem == "F50" and not th.diameter_exact and not th.least
    low = low_at(th, s=s)
    assert low == s * (4 * w + 3)
    seen = set()
    for n in range(low, max(TOP, low + s) + 1):  # every n ≤ 60 in range, and a period beyond when it starts later
        seen.add(bound_compare(th, PatternUnion((Window(w), Strided(s))), n, s=s))
    # the bound is M + 1 with D ∈ {M, M + 1} (F11, F14): D reaches M at least
    assert min(seen) >= values_at(th, low, s=s)["diameter"] - 1


@pytest.mark.parametrize("s", [3, 5, 7])
def test_named_stride_layers_are_the_bound_and_least_at_odd_strides(s):
    """F50 states M + 1 layers (F53 (a), F54 (a) where D = M + 1); at an odd stride with w = 1 they are least
    (F53 (b), F54 (b)): the concrete rooted views find exactly M + 1 at every n of a period from the range's start."""
    from uapcheck.spec import Window
    th = theorem(PatternUnion((Window(1), Strided("s"))), ["s"], {"s": 3})
    low = low_at(th, s=s)
    for n in range(low, low + s):
        want = values_at(th, n, s=s)
        assert want["layers"] == want["diameter"] == s // 2 + 2
        got = F.concrete(PatternUnion((Window(1), Strided(s))), n)
        assert got.least and got.layers == want["layers"], (s, n, got)


def test_window_with_named_stride_below_w_plus_two_is_open():
    from uapcheck.spec import Window
    found = F.match([PatternUnion((Window(1), Strided("s")))], N, {"s": sym("s")}, lower={"s": 2})
    assert isinstance(found, F.OpenFamily) and "param s integer >= 3" in found.question
    found = F.match([PatternUnion((Window("w"), Strided(3)))], N, {"w": sym("w")}, lower={"w": 1})
    assert isinstance(found, F.OpenFamily) and "O10 (a)" in found.question


@pytest.mark.parametrize("s", range(3, 8))
def test_symmetric_jumps_with_named_s_are_bounded_and_dihedral(s):
    th = theorem(Offsets((-1, 1, "s", "-s"), True), ["s"], {"s": 3})
    assert th.theorem == "F51" and not th.diameter_exact
    low = low_at(th, s=s)
    assert low == s * s + s + 2
    attained = False
    for n in range(low, max(TOP, low + 2 * s) + 1):  # every n ≤ 60 in range, and at least a period of n mod 2s
        d = bound_compare(th, Offsets((-s, -1, 1, s), True), n, s=s)
        attained |= d == values_at(th, n, s=s)["diameter"]
    assert attained  # h_s reaches ⌈s/2⌉ at some residue: the bound is attained


def test_symmetric_jumps_bound_against_breadth_first_search_far_beyond():
    """The bound ⌊n/(2s)⌋ + ⌈s/2⌉ against a BFS on Z_n written here, for s ≤ 12 and n up to 400."""
    th = theorem(Offsets((-1, 1, "s", "-s"), True), ["s"], {"s": 3})
    for s in range(3, 13):
        for n in range(s * s + s + 2, 400, 7):
            dist = {0: 0}
            frontier = [0]
            while frontier:
                nxt = []
                for u in frontier:
                    for k in (1, -1, s, -s):
                        v = (u + k) % n
                        if v not in dist:
                            dist[v] = dist[u] + 1
                            nxt.append(v)
                frontier = nxt
            assert max(dist.values()) <= values_at(th, n, s=s)["diameter"], (s, n)


def test_symmetric_jumps_below_three_are_open():
    found = F.match([Offsets((-1, 1, "s", "-s"), True)], N, {"s": sym("s")}, lower={"s": 2})
    assert isinstance(found, F.OpenFamily) and "param s integer >= 3" in found.question


# ---------------------------------------------------------------------------------------------
# Per-head closed group cases with a named jump (the groups other heads are intersected with)

@pytest.mark.parametrize("jumps, named, least, order", [((1, "s"), "C_n", 2, lambda n: n),
                                                       ((-1, "-s"), "C_n", 2, lambda n: n),
                                                       ((-1, 1, "s", "-s"), "D_n", 3, lambda n: 2 * n)])
def test_named_jump_group_cases_match_the_engine(jumps, named, least, order):
    from uapcheck.graphs.closed_groups import closed_group
    form = closed_group([Offsets(jumps, True)], N, {"s": sym("s")})
    assert form is not None and len(form.cases) == 1 and form.cases[0].name == named
    for s in range(least, 8):
        lit = Offsets(tuple(int(k) if isinstance(k, int) else (s if k == "s" else -s) for k in jumps), True)
        for n in range(s * s + (s + 1 if len(jumps) == 4 else 0), TOP + 1):
            case = form.at({"n": n, "s": s})
            assert case is not None and int(case.order) == order(n) == F.concrete(lit, n, False).order, (s, n)
    below = form.at({"n": 40, "s": least - 1})
    assert below is None  # no case below the parameter's least value


# ---------------------------------------------------------------------------------------------
# F52: window(w) + dilated(w', r) with w named, w ≥ w'r − 1: the window of radius max(w, w'r)

@pytest.mark.parametrize("wd,r", [(1, 5), (2, 2), (2, 3), (1, 3), (3, 2)])
def test_window_absorbing_a_dilation_matches_the_engine(wd, r):
    from uapcheck.spec import Dilated, Window
    top = wd * r
    th = theorem(PatternUnion((Window("w"), Dilated(wd, r))), ["w"], {"w": top - 1})
    assert th.theorem == "F52" and th.least
    for w in range(top - 1, top + 4):
        low = low_at(th, w=w)
        assert low == 2 * max(w, top) + 1
        for n in range(low, TOP + 1):
            compare(th, PatternUnion((Window(w), Dilated(wd, r))), n, w=w)


def test_window_below_the_dilation_is_open():
    from uapcheck.spec import Dilated, Window
    found = F.match([PatternUnion((Window("w"), Dilated(1, 5)))], N, {"w": sym("w")}, lower={"w": 1})
    assert isinstance(found, F.OpenFamily) and "param w integer >= 4" in found.question and "O3" in found.question
