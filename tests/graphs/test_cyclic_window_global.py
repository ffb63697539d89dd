"""Theorem F10 (docs/theory.md §11.11): `window(w) cyclic + global(g)` with fewer globals than the
radius (g < w), and for symbolic parameters where g ≥ w is not decided.

With k = max(g, w), for n ≥ k + 2w + 3: D = 2, G = S_g on {1..g} × the reflection of {g+1..n}
(order 2·g!), and 3 layers, least, the swap (k+1 k+2) being a view witness at position n. Checked
against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in the range, the witness
on the arcs by the view engine's own test, the group a second way (the maximal cliques of the
non-global part, as in the proof), the range's sharpness, and the decision at a million tokens
without a token graph.
"""
from __future__ import annotations

import itertools

import pytest
import sympy

import uapcheck
from uapcheck.graphs import families as F
from uapcheck.spec import Global, PatternUnion, Window

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60
PARAMS = [(2, 1), (3, 1), (3, 2), (4, 1), (4, 3), (5, 2)]


def pattern(w, g):
    return PatternUnion((Window(w, True), Global(g)))


def sym(name):
    return sympy.Symbol(name, integer=True, positive=True)


@pytest.mark.parametrize("w,g", PARAMS)
def test_f10_agrees_with_the_concrete_engine_for_every_n_up_to_60(w, g):
    for params in ({"w": w, "g": g}, {"w": sym("w"), "g": sym("g")}, {"w": sym("w"), "g": g}):
        theorem = F.match([pattern("w", "g") if isinstance(params["g"], sympy.Symbol) else pattern("w", g)],
                          N, params)
        assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F10"
        checked = 0
        for n in range(1, NMAX + 1):
            point = {"n": n, "w": w, "g": g}
            if not F.in_range(theorem, point):
                assert n < 3 * w + 3
                continue
            assert F.at(theorem, point) == {"diameter": 2, "order": 2 * sympy.factorial(g), "layers": 3}
            assert F.instance_check(theorem, pattern(w, g), point) is None
            got = F.concrete(pattern(w, g), n)
            assert (got.diameter, got.order, got.layers, got.least) == (2, 2 * sympy.factorial(g), 3, True)
            checked += 1
        assert checked == NMAX - 3 * w - 2


def test_g_at_least_w_stays_theorem_f3_with_its_range():
    for w, g in [(1, 1), (2, 2), (2, 3)]:
        theorem = F.match([pattern(w, g)], N, {})
        assert theorem.theorem == "F3" and theorem.low == g + 2 * w + 3


def test_a_symbolic_radius_with_one_global_is_decided_for_every_w():
    """`param w` with global(1): g ≥ w only when w = 1 (F3), so F10 states both with k = max(1, w) = w:
    n ≥ 3w + 3, which at w = 1 is F3's n ≥ g + 2w + 3 = 6, and the witness (w+1 w+2) at n is F3's kind."""
    w = sym("w")
    theorem = F.match([pattern("w", 1)], N, {"w": w})
    assert theorem.theorem == "F10" and sympy.simplify(theorem.low - (3 * w + 3)) == 0
    assert theorem.group == "the reflection of {2, …, n}" and theorem.order == 2 and theorem.layers == 3
    assert theorem.least and theorem.witness == (N, (w + 1, w + 2))
    for wv in (1, 2, 3, 4):
        for n in range(3 * wv + 3, 3 * wv + 8):
            assert F.instance_check(theorem, pattern(wv, 1), {"n": n, "w": wv}) is None


def test_the_witness_is_checked_on_the_arcs_at_every_n_in_range():
    """The swap (k+1 k+2) at position n: the view engine's own witness test, and not a symmetry."""
    from uapcheck.graphs import build_graph
    from uapcheck.graphs.symmetry import pattern_structure
    from uapcheck.graphs.views import Neighbourhoods, witness_condition_holds
    for w, g in PARAMS + [(1, 1), (2, 3)]:
        theorem = F.match([pattern(w, g)], N, {})
        _, (a, b) = theorem.witness
        a, b = int(a), int(b)
        assert (a, b) == (max(g, w) + 1, max(g, w) + 2)
        for n in range(max(g, w) + 2 * w + 3, NMAX + 1):
            graphs = [build_graph(pattern(w, g), n, {})]
            perm = list(range(1, n + 1))
            perm[a - 1], perm[b - 1] = b, a
            assert witness_condition_holds(Neighbourhoods(graphs), perm, n, 1)
            assert not pattern_structure(graphs).preserves(perm)


def _adjacent(n, w, g, u, v):
    d = abs(u - v)
    return u <= g or v <= g or min(d, n - d) <= w


@pytest.mark.parametrize("w,g", [(2, 1), (3, 2), (4, 1), (5, 3)])
def test_the_non_global_part_has_the_cliques_of_the_proof(w, g):
    """The proof's second way to the group, by brute force on the non-global part R = {g+1..n}: for
    n ≥ 3w + 1 its maximal cliques are the m − w windows {x..x+w} (size w + 1) and w − g wrap-around
    cliques (size w + 1 − g); the reflection of R is an automorphism and a transposition is not."""
    for n in range(3 * w + 1, 3 * w + 9):
        R = range(g + 1, n + 1)
        m = len(R)
        cliques = []
        for size in range(1, w + 2):
            for c in itertools.combinations(R, size):
                if all(_adjacent(n, w, g, u, v) for u, v in itertools.combinations(c, 2)):
                    cliques.append(frozenset(c))
        maximal = [c for c in cliques if not any(c < d for d in cliques)]
        windows = {frozenset(range(x, x + w + 1)) for x in range(g + 1, n - w + 1)}
        assert windows <= set(maximal)
        rest = [c for c in maximal if c not in windows]
        assert len(windows) == m - w and len(rest) == w - g and all(len(c) == w + 1 - g for c in rest)
        reflect = {v: n + g + 1 - v for v in R}
        assert all(_adjacent(n, w, g, reflect[u], reflect[v]) == _adjacent(n, w, g, u, v)
                   for u, v in itertools.combinations(R, 2))


def test_below_the_range_two_layers_suffice_so_the_range_is_sharp():
    """At n = 3w + 2 (g < w) the concrete engine finds that D = 2 layers suffice: the witness needs
    position n more than w away from 2w + 2."""
    for w, g in PARAMS:
        got = F.concrete(pattern(w, g), 3 * w + 2)
        assert got.diameter == 2 and got.least and got.layers == 2


def test_a_million_tokens_are_decided_by_the_theorem_without_arcs(no_graphs):
    r = uapcheck.check("tokens 1048576\nattention { kernel k(x, y) = exp(x . y); "
                       "pattern window(2) cyclic + global(1) }\n")
    assert r.verdict == "UAP" and r.layers == 3 and r.group.order == 2
    assert r.group.name == "the reflection of {2, …, 1048576}"
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["least"] is True and "Theorem F10" in step.evidence["method"]
    assert step.evidence["view witness"]["position"] == 1048576
    assert step.evidence["view witness"]["swap"] == [3, 4]
    r = uapcheck.check("tokens 65536\nattention { kernel k(x, y) = exp(x . y); "
                       "pattern window(5) cyclic + global(3) }\n")
    assert r.verdict == "UAP" and r.layers == 3 and r.group.order == 12
    assert r.group.name == "S_3 on {1, 2, 3} × the reflection of {4, …, 65536}"


def test_the_certificate_states_the_family_diameter_above_the_arc_limit():
    """At an integer n where F10 decides without a token graph, the certificate's connectivity step
    carries the diameter (the verifier's interval model re-checks it), not null."""
    import json

    from uapcheck import certfile
    text = "tokens 70000\nattention { kernel k(x, y) = exp(x . y); pattern window(2) cyclic + global(1) }\n"
    cert = json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))
    steps = {s["rule"]: s for s in cert["steps"]}
    assert steps["PAT-CONNECTED"]["data"]["diameter"] == 2
    assert steps["PAT-LAYERS"]["data"]["view witness"]["position"] == 70000
