"""Every closed form against the concrete engine, for ALL n ≤ 40 and several parameter values.

For each family: the symbolic closed form (parameters as positive integer Symbols) and the closed
form with integer parameters are both evaluated at every n = 1..40 and compared with the concrete
computation (build_graph + analyze_connectivity + symmetry_group): strong connectivity, exact
diameter (or the stated upper bound), witness validity, group order and group name.
"""
import itertools

import pytest
import sympy

from uapcheck.graphs import analyze_connectivity, build_graph, distance, symmetry_group
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.spec import (Blocks, Causal, Dilated, Full, Global, Offsets, PatternUnion, Star,
                           Strided, Window)

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 40


def U(*parts):
    return PatternUnion(parts)


# id, heads, {param: values}, biases, positional, expected coverage: (connectivity, group)
# coverage: "all" = every n is covered, "some" = allowed gaps, None = the closed form is None
FAMILIES = [
    ("full", [Full()], {}, None, "none", ("all", "all")),
    ("causal", [Causal()], {}, None, "none", ("all", "all")),
    ("star", [Star()], {}, None, "none", ("all", "all")),
    ("window", [Window("w")], {"w": [1, 2, 3, 4]}, None, "none", ("all", "all")),
    ("window0", [Window(0)], {}, None, "none", ("all", "all")),
    ("cwindow", [Window("w", True)], {"w": [1, 2, 3, 4]}, None, "none", ("all", "all")),
    ("coff01", [Offsets((0, 1), True)], {}, None, "none", ("all", "all")),
    ("coff012", [Offsets((0, 1, 2), True)], {}, None, "none", ("all", "all")),
    ("coff123", [Offsets((1, 2, 3), True)], {}, None, "none", ("all", "all")),
    ("coff-1-2", [Offsets((-1, -2), True)], {}, None, "none", ("all", "all")),
    ("coff23", [Offsets((2, 3), True)], {}, None, "none", ("all", None)),
    ("coff24", [Offsets((2, 4), True)], {}, None, "none", ("all", None)),
    ("coff3-6", [Offsets((3, -6), True)], {}, None, "none", ("all", None)),
    ("coff6", [Offsets((6,), True)], {}, None, "none", ("all", None)),
    ("off12", [Offsets((1, 2))], {}, None, "none", ("all", None)),
    ("off-1-3", [Offsets((-1, -3))], {}, None, "none", ("all", None)),
    ("off a", [Offsets(("a",))], {"a": [1, 2, 3]}, None, "none", ("all", None)),
    ("off -a", [Offsets(("-a",))], {"a": [1, 2]}, None, "none", ("all", None)),
    ("off ±2", [Offsets((2, -2))], {}, None, "none", ("all", None)),
    ("off 2,-4,6", [Offsets((2, -4, 6))], {}, None, "none", ("all", None)),
    ("off ±1,3", [Offsets((1, -1, 3))], {}, None, "none", ("all", None)),
    ("off -1,0,1", [Offsets((-1, 0, 1))], {}, None, "none", ("all", "all")),
    ("dilated", [Dilated("w", "r")], {"w": [1, 2], "r": [1, 2, 3]}, None, "none", ("all", "some")),
    ("strided", [Strided("s")], {"s": [1, 2, 3, 4, 5]}, None, "none", ("all", "all")),
    ("blocks", [Blocks("b")], {"b": [1, 2, 3, 4, 5]}, None, "none", ("all", "all")),
    ("global", [Global("g")], {"g": [1, 2, 3]}, None, "none", ("all", "all")),
    ("window+global", [U(Window("w"), Global("g"))], {"w": [1, 2, 3], "g": [1, 2]}, None, "none",
     ("all", "all")),
    ("causal+window", [U(Causal(), Window("w"))], {"w": [1, 2, 3]}, None, "none", ("all", None)),
    ("cwindow+global", [U(Window("w", True), Global("g"))], {"w": [1, 2, 3], "g": [1, 2]}, None,
     "none", ("all", None)),
    ("blocks+global", [U(Blocks("b"), Global("g"))], {"b": [2, 3, 4], "g": [1, 2, 5]}, None, "none",
     ("all", None)),
    ("causal+global", [U(Causal(), Global("g"))], {"g": [1, 2]}, None, "none", ("all", None)),
    ("strided+global", [U(Strided(2), Global("g"))], {"g": [1, 3]}, None, "none", ("all", None)),
    ("strided(s)+global", [U(Strided("s"), Global(1))], {"s": [1, 2, 3]}, None, "none",
     ("some", "some")),
    ("dilated+global", [U(Dilated(2, 3), Global(1))], {}, None, "none", ("all", None)),
    ("offsets+global", [U(Offsets((1, -1, 2)), Global(1))], {}, None, "none", ("all", None)),
    ("strided+window", [U(Strided("s"), Window("w"))], {"s": [2, 3, 5], "w": [1, 2]}, None, "none",
     ("all", None)),
    ("blocks+window", [U(Blocks(3), Window(1))], {}, None, "none", ("all", None)),
    ("window+cwindow", [U(Window(1), Window(2, True))], {}, None, "none", ("all", "all")),
    # biases (per head, on the arcs the head uses) and positional encodings
    *[(f"full+{b}", [Full()], {}, [b], "none", ("all", "all"))
      for b in ("circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz", "free")],
    *[(f"window+{b}", [Window("w")], {"w": [1, 2, 3]}, [b], "none", ("all", "all"))
      for b in ("circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz")],
    *[(f"cwindow+{b}", [Window("w", True)], {"w": [1, 2, 3]}, [b], "none", ("all", "all"))
      for b in ("circulant", "symmetric circulant", "toeplitz", "symmetric toeplitz")],
    ("causal+toeplitz", [Causal()], {}, ["toeplitz"], "none", ("all", "all")),
    ("window+PE", [Window("w")], {"w": [1, 2]}, None, "absolute", ("all", "all")),
    # several heads: the union for connectivity, the intersection for the group
    ("two cwindows", [Window("w", True), Window("v", True)], {"w": [1, 2], "v": [2, 3]}, None, "none",
     ("all", "all")),
    ("window ∩ cwindow", [Window(1), Window(1, True)], {}, None, "none", ("all", "all")),
    ("C_n ∩ D_n", [Offsets((1,), True), Window(2, True)], {}, None, "none", ("all", "all")),
    ("C_n ∩ reflection", [Offsets((1,), True), Window(1)], {}, None, "none", ("all", "all")),
    ("full ∩ window", [Full(), Window("w")], {"w": [1, 3]}, None, "none", ("all", "all")),
    ("window ∩ star", [Window("w"), Star()], {"w": [1, 2]}, None, "none", ("all", "some")),
]


def _symbols(params):
    return {k: sympy.Symbol(k, integer=True, positive=True) for k in params}


def _assignments(params):
    keys = sorted(params)
    for values in itertools.product(*(params[k] for k in keys)):
        yield dict(zip(keys, values))


def _check_conn(case, concrete, graphs, where):
    assert case.strongly_connected == concrete.strongly_connected, where
    if concrete.strongly_connected:
        if case.diameter is not None:
            assert int(case.diameter) == concrete.diameter, where
        else:
            assert case.diameter_bound is None or int(case.diameter_bound) >= concrete.diameter, where
    else:
        i, j = (int(x) for x in case.witness)
        assert distance(graphs, j, i) is None, where


def _check_group(case, concrete, where):
    assert int(case.order) == concrete.order, where
    assert case.name == concrete.name, where


@pytest.mark.parametrize("fid,heads,params,biases,positional,coverage", FAMILIES,
                         ids=[f[0] for f in FAMILIES])
def test_closed_forms_match_concrete(fid, heads, params, biases, positional, coverage):
    conn_cov, group_cov = coverage
    syms = _symbols(params)
    sym_conn = closed_connectivity(heads, N, syms)
    sym_group = closed_group(heads, N, syms, biases, positional)
    for values in _assignments(params):
        int_conn = closed_connectivity(heads, N, values)
        int_group = closed_group(heads, N, values, biases, positional)
        for form in (sym_conn, int_conn):
            assert (form is None) == (conn_cov is None) or conn_cov == "some", (fid, values)
        for form in (sym_group, int_group):
            if group_cov is None:
                assert form is None, (fid, values)
            elif group_cov == "all":
                assert form is not None, (fid, values)
        for n in range(1, NMAX + 1):
            where = (fid, values, n)
            graphs = [build_graph(p, n, values) for p in heads]
            at = {"n": n, **values}
            if conn_cov is not None:
                concrete = analyze_connectivity(graphs)
                for form in (sym_conn, int_conn):
                    case = None if form is None else form.at(at)
                    if conn_cov == "all":
                        assert case is not None, where
                    if case is not None:
                        _check_conn(case, concrete, graphs, where)
            if group_cov is not None:
                concrete = symmetry_group(graphs, biases, positional)
                for form in (sym_group, int_group):
                    case = None if form is None else form.at(at)
                    if group_cov == "all":
                        assert case is not None, where
                    if case is not None:
                        _check_group(case, concrete, where)


def test_window_formulas_read_as_documented():
    w = sympy.Symbol("w", integer=True, positive=True)
    conn = closed_connectivity([Window("w")], N, {"w": w})
    assert len(conn.cases) == 1 and conn.cases[0].diameter == sympy.ceiling((N - 1) / w)
    cyc = closed_connectivity([Window("w", True)], N, {"w": w})
    assert cyc.cases[0].diameter == sympy.ceiling(sympy.floor(N / 2) / w)
    grp = closed_group([Window("w")], N, {"w": w})
    names = {c.name for c in grp.cases}
    assert names == {"S_n", "reflection", None}
    refl = next(c for c in grp.cases if c.name == "reflection")
    assert refl.condition.subs({N: 9, w: 4}) is sympy.true      # n = 2w + 1
    assert refl.condition.subs({N: 8, w: 4}) is sympy.false     # n = 2w: two universal positions
    causal = closed_connectivity([Causal()], N).at({"n": 5})
    assert not causal.strongly_connected and causal.witness == (1, 2)
    blocks = closed_connectivity([Blocks(4)], N).at({"n": 9})
    assert blocks.witness == (1, 5)


def test_undecided_is_none():
    # window(3) + global(2) + offsets {5} cyclic is decided by Theorem F87 (tests/graphs/test_global_unions.py);
    # with a named window it is not
    assert closed_connectivity([U(Window("w"), Global(2), Offsets((5,), True))], N, {"w": sympy.Symbol("w")}) is None
    from uapcheck.spec import RandomPattern
    assert closed_connectivity([U(Window(3), Global(2), RandomPattern(3, 0))], N) is None
    assert closed_group([U(Window(3), Global(2), RandomPattern(3, 0))], N) is None
    assert closed_connectivity([Window("w")], N, {"w": sympy.Symbol("w")}) is None  # no assumptions
