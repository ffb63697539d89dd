"""Rooted views decided on their twin quotient (Lemma AK, Theorem F222, docs/theory.md §11.9; uapcheck/graphs/
view_twins.py), checked a second way: on random coloured digraphs of at most 8 vertices with planted twins, the twin
classes against the definition, the quotient's count against brute force over all permutations and against BLISS on
the whole graph, its generators against the brute-force group, and its canonical forms equal exactly for isomorphic
graphs; the view decision with the quotient forced on every view against brute force over S_n; and the CPU time of
`global(2)` at n = 2,000 (once about 25 s: BLISS on two S_1998-like views) and `blocks(64) + global(1)` at 4,096."""
from __future__ import annotations

import itertools
import random
import time

import igraph
import pytest

import uapcheck
from uapcheck import bliss
from uapcheck.graphs import view_twins, views as V
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.groups import orbits

from .test_views import SMALL, _brute, _decide
from permutation_groups import generated_group, relabelled  # tests/ is on sys.path


def _brute_automorphisms(m: int, arcs: set, colours: list) -> list[tuple]:
    return [p for p in itertools.permutations(range(m))
            if all(colours[p[v]] == colours[v] for v in range(m)) and {(p[u], p[v]) for u, v in arcs} == arcs]


def _brute_twins(m: int, arcs: set, colours: list) -> set:
    """The twin classes by the definition (pairs compared one by one), as a set of frozensets."""
    def twins(u: int, v: int) -> bool:
        others = [x for x in range(m) if x not in (u, v)]
        return (colours[u] == colours[v] and ((u, u) in arcs) == ((v, v) in arcs)
                and ((u, v) in arcs) == ((v, u) in arcs)
                and all(((u, x) in arcs) == ((v, x) in arcs) and ((x, u) in arcs) == ((x, v) in arcs) for x in others))
    return {frozenset(v for v in range(m) if v == u or twins(u, v)) for u in range(m)}


def _planted(rng: random.Random):
    """A random coloured digraph with loops on a few base vertices, each blown up into a class of twins (adjacent or
    not), at most 8 vertices in all."""
    base = rng.randint(1, 5)
    sizes = [1] * base
    while sum(sizes) < rng.randint(base, 8):
        sizes[rng.randrange(base)] += 1
    p = rng.choice((0.2, 0.5, 0.8))
    base_arcs = {(a, b) for a in range(base) for b in range(base) if rng.random() < p}
    base_colour = [rng.randint(0, rng.choice((0, 1, 2))) for _ in range(base)]
    inside = [rng.random() < 0.5 for _ in range(base)]
    members, start = [], 0
    for s in sizes:
        members.append(list(range(start, start + s)))
        start += s
    m = sum(sizes)
    arcs = set()
    for a in range(base):
        for b in range(base):
            for u in members[a]:
                for v in members[b]:
                    if u == v:
                        if (a, a) in base_arcs:
                            arcs.add((u, u))
                    elif a == b:
                        if inside[a]:
                            arcs.add((u, v))
                    elif (a, b) in base_arcs:
                        arcs.add((u, v))
    colours = [0] * m
    for a in range(base):
        for v in members[a]:
            colours[v] = base_colour[a]
    shuffle = list(range(m))
    rng.shuffle(shuffle)  # the classes need not be runs of vertices
    return m, {(shuffle[u], shuffle[v]) for u, v in arcs}, [colours[shuffle.index(v)] for v in range(m)]


def _quotient(m: int, arcs: set, colours: list) -> view_twins.TwinQuotient:
    ordered = sorted(arcs)
    q = view_twins.quotient(m, colours, [a for a, _ in ordered], [b for _, b in ordered], min_saved=0)
    assert q is not None
    return q


def _form(m: int, arcs: set, colours: list) -> tuple:
    """The quotient's canonical form with its keys (what `_RootedView.canonical` digests), and the whole graph
    relabelled by the quotient's canonical labelling: both canonical forms (Theorem F222 (d))."""
    lab, form = _quotient(m, arcs, colours).canonical()
    assert sorted(lab) == list(range(m))
    cols = [0] * m
    for v, c in enumerate(colours):
        cols[lab[v]] = c
    return form, tuple(cols), tuple(sorted((lab[a], lab[b]) for a, b in arcs))


@pytest.mark.parametrize("seed", range(60))
def test_the_quotient_counts_generates_and_labels_as_brute_force_and_bliss(seed):
    rng = random.Random(seed)
    m, arcs, colours = _planted(rng)
    q = _quotient(m, arcs, colours)
    assert {frozenset(c) for c in q.classes} == _brute_twins(m, arcs, colours)
    want = _brute_automorphisms(m, arcs, colours)
    assert q.automorphism_order() == len(want)
    assert q.automorphism_order() == bliss.count(igraph.Graph(n=m, edges=sorted(arcs), directed=True), colours)
    gens = q.generators()
    assert all(sorted(g) == list(range(m)) for g in gens)
    assert generated_group(gens, m) == set(want)
    # a relabelled copy has the same form; the form relabels the graph (it is the graph, up to isomorphism)
    perm = list(range(m))
    rng.shuffle(perm)
    image, image_colours = relabelled(perm, arcs, colours)
    assert _form(m, image, image_colours) == _form(m, arcs, colours)


def _isomorphic(m: int, a: tuple, b: tuple) -> bool:
    (arcs_a, col_a), (arcs_b, col_b) = a, b
    return any(all(col_b[p[v]] == col_a[v] for v in range(m)) and {(p[u], p[v]) for u, v in arcs_a} == arcs_b
               for p in itertools.permutations(range(m)))


@pytest.mark.parametrize("seed", range(12))
def test_canonical_forms_agree_exactly_when_the_graphs_are_isomorphic(seed):
    """Graphs of one size, several of them blow-ups of one base with classes in different places: equal forms
    exactly for the pairs brute force finds isomorphic."""
    rng = random.Random(1000 + seed)
    by_size: dict = {}
    for _ in range(14):
        m, arcs, colours = _planted(rng)
        if m <= 6:
            by_size.setdefault(m, []).append((frozenset(arcs), tuple(colours)))
    pairs = 0
    for m, graphs in by_size.items():
        forms = [_form(m, set(a), list(c)) for a, c in graphs]
        for x, y in itertools.combinations(range(len(graphs)), 2):
            isomorphic = _isomorphic(m, graphs[x], graphs[y])
            assert (forms[x][0] == forms[y][0]) == isomorphic  # the quotients' forms
            assert (forms[x][1:] == forms[y][1:]) == isomorphic  # the graphs relabelled
            pairs += 1
    assert pairs >= 1


@pytest.mark.parametrize("patterns,n", [(p, n) for p, n in SMALL if n <= 7])
def test_the_view_decision_on_quotients_agrees_with_brute_force(patterns, n, monkeypatch):
    """Every rooted view (of at least two vertices) decided on its twin quotient, whatever the classes save: the
    same answers as brute force over S_n, with and without a certificate."""
    monkeypatch.setattr(view_twins, "MIN_SAVED", 0)
    bd, suffices = _brute(patterns, n)
    if bd is None:
        pytest.skip("not strongly connected")
    for certificate in (True, False):
        graphs, d, decision, st = _decide(patterns, n, probe_work=0, certificate=certificate)
        assert d == bd and decision.sufficient is suffices
        if not suffices:
            assert V.verify_witness(graphs, d, decision.witness, st.preserves)


@pytest.mark.parametrize("patterns, n, suffices", [(["global(2)"], 200, True), (["star"], 150, True),
                                                   (["blocks(16) + global(1)"], 160, False)])
def test_large_views_agree_with_bliss_on_the_whole_view(patterns, n, suffices):
    """Views past the threshold: the quotient's count equals BLISS's on the whole view; the canonical digests are
    equal within a G-orbit (isomorphic views) and, where D layers suffice, differ between orbits; where they do not,
    the exact test alone (no probe) finds a witness that passes the re-check on the arcs."""
    graphs, d, decision, st = _decide(patterns, n)
    assert decision.sufficient is suffices
    grp = symmetry_group(graphs)
    orbit_of = orbits(n, grp.generators)
    nb = V.Neighbourhoods(graphs)
    digests: dict = {}
    for r in sorted(set(orbit_of)) + [r for r in range(n) if r % 23 == 5]:
        view = V._RootedView(nb, r, d)
        assert view.twins() is not None
        if r < 3 or r % 46 == 5:
            assert view.automorphism_order() == bliss.count(view.graph, view.colours)
        digests.setdefault(orbit_of[r], set()).add(view.canonical()[1])
    assert all(len(found) == 1 for found in digests.values())
    if suffices:
        assert len(set.union(*digests.values())) == len(digests)
        assert set(decision.certificate.canonical_digests) == set.union(*digests.values())
    else:
        graphs, d, alone, st = _decide(patterns, n, probe_work=0)
        assert alone.sufficient is False and alone.witness.how != "transposition probe"
        assert V.verify_witness(graphs, d, alone.witness, st.preserves)


FAST = [("tokens 2000\nattention { kernel k(x, y) = exp(x . y)\n pattern global(2) }\n", 2),
        ("tokens 4096\nattention { kernel k(x, y) = exp(x . y)\n pattern blocks(64) + global(1) }\n", 3)]


@pytest.mark.parametrize("source, layers", FAST, ids=["global2_2000", "blocks64_global1_4096"])
def test_symmetric_views_are_decided_fast(source, layers):
    start = time.process_time()
    result = uapcheck.check(source)
    spent = time.process_time() - start
    assert result.verdict == "UAP"
    assert result.layers == layers
    assert spent < 8, f"{spent:.1f} s of CPU"


@pytest.mark.parametrize("pattern, n, layers_outcome", [("global(2)", 2000, "verified"),
                                                        ("columns(3, 2) + global(1)", 1100, "trusted")])
def test_the_verifier_rechecks_or_names_what_it_trusts(pattern, n, layers_outcome):
    """The certificate of a file whose rooted views are decided on their quotients: the verifier (which re-decides
    views with nauty and never reads the digests) verifies the layer count or trusts it by name. `columns` above the
    arc limit ended the verifier's worker with an internal error (the interval model has no spans for it); it is now
    a trusted step that says so."""
    from uapcheck.verifier import check as verifier
    from certificates import certificate_of, softmax_source, step_outcome
    report = verifier.verify(certificate_of(softmax_source(pattern, n)))
    assert step_outcome(report, "PAT-LAYERS") == layers_outcome
    if layers_outcome == "trusted":
        assert step_outcome(report, "PAT-CONNECTED") == "trusted"
