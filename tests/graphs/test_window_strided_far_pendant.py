"""Theorem F199 (docs/theory.md §11.11, lemma X′: a far clique with one pendant): on the classes of `window(1) +
strided(s)`, s even, where Theorem F185 breaks the common-neighbour premise, the positions at distance D = s/2 + 1 from
every root are a clique of one residue class, with at most one more position p, whose number of neighbours in the ball
exceeds 4 while the clique's members have at most 4, and which is adjacent among the far positions to one clique member
q only, the one with the fewest neighbours in the ball. The premise is checked by breadth-first search on the reference
arcs at every length of those classes from 7s to 9s − 1 for s = 4, …, 12; the lemma's conclusion (D layers suffice)
against the concrete engine at a few of them; the engine's check (graphs/strided_least.far_pendant_holds, read by
Theorem F120's class table) and the verifier's restatement decide every class F120 leaves, for every even s ≤ 16; and
the count at symbolic n, of the one head and of heads whose union it is (F70, F86), equals the concrete engine's at every
n of the range up to 60 (the range starts at 7s ≥ 28, beyond brute force over S_n)."""
from __future__ import annotations

import pytest


import sympy

from uapcheck.graphs import analyze_connectivity, build_graph, symmetry_group
from uapcheck.graphs.families import FamilyTheorem, match
from uapcheck.graphs.strided_least import beyond_classes, far_pendant_holds
from uapcheck.graphs.symmetry import pattern_structure
from uapcheck.graphs.views import PROBE_WORK, decide_views
from uapcheck.spec import Offsets, PatternUnion, Strided, Window
from uapcheck.verifier.strided_least import beyond_table, far_pendant_problem

from certificates import certificate_from_cli, verify_with_cli

from .heads_engines import closed_least, engine_least
from .reference import attends, distances_from

N = sympy.Symbol("n", integer=True, positive=True)

BOUND = 4  # c of the lemma: the far clique's members have at most c neighbours in the ball, the pendant more


def _open_classes(s: int) -> set:
    return {0} | set(range(s // 2 + 2, s))


def _premise_at(adj: dict, n: int, s: int, root: int, d: int) -> bool:
    """F199's premise at one root: F = Q ∪ P as the lemma states, read on the adjacency ``adj``."""
    dist = distances_from(adj, root)
    far = [v for v in range(1, n + 1) if dist[v] == d]
    if max(dist.values()) != d:
        return False
    kappa = {x: sum(1 for u in adj[x] if u != x and dist[u] < d) for x in far}
    clique = [x for x in far if kappa[x] <= BOUND]
    pendant = [x for x in far if kappa[x] > BOUND]
    if any(y not in adj[x] for x in clique for y in clique if x != y) or len(pendant) > 1:
        return False
    if not pendant:
        return True
    p = pendant[0]
    touched = [x for x in clique if x in adj[p]]
    if len(touched) != 1:
        return False
    q = touched[0]
    return all(kappa[q] < kappa[x] for x in clique if x != q)


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12])
def test_the_far_sets_are_a_clique_and_at_most_one_pendant_on_f185s_classes(s):
    h = s // 2
    pendants = 0
    for n in range(7 * s, 9 * s):
        if n % s not in _open_classes(s):
            continue
        arcs = attends(PatternUnion((Window(1), Strided(s))), n)
        adj = {v: {u for u in range(1, n + 1) if (v, u) in arcs and u != v} for v in range(1, n + 1)}
        for root in range(1, n + 1):
            assert _premise_at(adj, n, s, root, h + 1), (s, n, root)
        dist = distances_from(adj, 1)
        pendants += sum(1 for v in range(1, n + 1) if dist[v] == h + 1 and v % s != (1 + h) % s)
    assert pendants > 0  # the premise is not the far-clique lemma's (F97): a pendant occurs


@pytest.mark.parametrize("s,n", [(4, 28), (4, 32), (4, 36), (6, 42), (6, 47)])
def test_d_layers_suffice_there_by_the_concrete_engine(s, n):
    graphs = [build_graph(PatternUnion((Window(1), Strided(s))), n, {})]
    conn = analyze_connectivity(graphs)
    grp = symmetry_group(graphs)
    assert conn.diameter == s // 2 + 1 and grp.order == 2
    assert decide_views(graphs, int(conn.diameter), int(grp.order), grp.generators,
                        pattern_structure(graphs).preserves, probe_work=PROBE_WORK).sufficient


@pytest.mark.parametrize("s", [4, 6, 8, 10, 12, 14, 16])
def test_f199_decides_every_class_f120_leaves(s):
    found = beyond_classes(1, s)
    assert found is not None and set(found.pendant) == _open_classes(s) and not found.open
    assert len(found.least) == s and set(found.fewest) == set(range(s))


@pytest.mark.parametrize("s", [4, 6, 8])
def test_the_verifiers_table_names_the_same_classes(s):
    found = beyond_table(1, s)
    assert found is not None
    assert {r for r, kind in found[1].items() if kind == "pendant"} == _open_classes(s)


def test_the_premise_fails_below_the_range_and_for_odd_strides():
    # at n = 20 ≡ 0 (mod 4) the pendant n has only four nearer neighbours from the root 1 (4, 8, 12, 16): no pendant
    assert not far_pendant_holds(4, 20) and far_pendant_problem(4, 20) is not None
    assert far_pendant_holds(4, 28) and far_pendant_problem(4, 28) is None
    assert not far_pendant_holds(5, 35) and far_pendant_problem(5, 35) is not None


def _one_head(s: int):
    return PatternUnion((Window(1), Strided(s)))


HEADS = [
    ((Strided(4), Window(1)), "F70"),               # the open example of §13 L2′: formerly 4 on n ≡ 0 (mod 4)
    ((Strided(6), Window(1)), "F70"),
    ((Strided(8), Window(1)), "F70"),
    ((Strided(4), Offsets((-1, 1))), "F70"),
    ((Strided(6), Offsets((-1, 1))), "F70"),
    ((Strided(4), Window(1), Offsets((1,))), "F86"),
    ((PatternUnion((Strided(4), Offsets((1,)))), Offsets((-1,))), "F86"),
]


@pytest.mark.parametrize("s", [4, 6, 8])
def test_the_one_heads_count_is_the_concrete_engines_least_up_to_60(s):
    found = match([_one_head(s)], N, {})
    assert isinstance(found, FamilyTheorem) and found.least and int(found.low) == 7 * s
    assert found.layers == s // 2 + 1
    for n in range(7 * s, 61):
        d, suffices = engine_least((_one_head(s),), n)
        assert d == s // 2 + 1 and suffices, n


@pytest.mark.parametrize("heads,theorem", HEADS, ids=[" | ".join(str(h) for h in t[0]) for t in HEADS])
def test_the_heads_count_is_the_concrete_engines_least_up_to_60(heads, theorem):
    found = closed_least(heads)
    s = next(h.s for h in heads for h in ([h] if not isinstance(h, PatternUnion) else h.parts) if isinstance(h, Strided))
    assert found is not None and found.theorem == theorem and found.low == 7 * s
    for n in range(found.low, 61):
        d, suffices = engine_least(heads, n)
        assert suffices and d == s // 2 + 1, n
        count = found.layers if found.theorem == "F70" else next(
            c.layers for c in found.classes if c.residue == n % found.modulus)
        assert int(sympy.sympify(count).xreplace({N: n})) == d, n


def test_the_verifier_accepts_the_count_at_symbolic_n(tmp_path):
    cert = certificate_from_cli("tokens n\nattention { kernel k(x, y) = exp(x . y); pattern window(1) + strided(4) }\n",
                                tmp_path, no_cache=True)
    step = next(x for x in cert["steps"] if x["rule"] == "PAT-LAYERS")
    assert step["data"]["least"]
    done = verify_with_cli(cert, tmp_path)
    assert done.returncode == 0 and "Theorem F199" in done.stdout, done.stdout + done.stderr
