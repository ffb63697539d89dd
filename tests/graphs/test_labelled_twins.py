"""Arc-labelled digraphs decided on their twin quotient (Lemma AL, Theorem F223, docs/theory.md §11.9; uapcheck/graphs/
labelled_twins.py), checked a second way: on random arc-labelled coloured digraphs of at most 8 vertices with planted
twins, the classes against the definition, the count against brute force over all permutations and against BLISS on
the whole graph (arcs subdivided as the per-layer views encode them), the generated group against the brute-force
group, and the canonical forms equal exactly for isomorphic graphs; the per-layer least counts of small periodic
patterns with every rooted view taken to its quotient against the unforced engine; and the CPU time of
`periodic { global(2), global(2) }` at n = 800."""
from __future__ import annotations

import itertools
import random
import time

import pytest

import uapcheck
from uapcheck import bliss
from uapcheck.graphs import labelled_twins, layers as L, view_twins
from uapcheck.graphs.layers import subdivided

from permutation_groups import generated_group  # tests/ is on sys.path


def _brute_automorphisms(m: int, arcs: dict, colours: list) -> list[tuple]:
    return [p for p in itertools.permutations(range(m))
            if all(colours[p[v]] == colours[v] for v in range(m))
            and {(p[u], p[v]): label for (u, v), label in arcs.items()} == arcs]


def _brute_twins(m: int, arcs: dict, colours: list) -> set:
    """The twin classes by the definition (pairs compared one by one), as a set of frozensets."""
    def twins(u: int, v: int) -> bool:
        others = [x for x in range(m) if x not in (u, v)]
        return (colours[u] == colours[v] and arcs.get((u, u)) == arcs.get((v, v))
                and arcs.get((u, v)) == arcs.get((v, u))
                and all(arcs.get((u, x)) == arcs.get((v, x)) and arcs.get((x, u)) == arcs.get((x, v)) for x in others))
    return {frozenset(v for v in range(m) if v == u or twins(u, v)) for u in range(m)}


def _planted(rng: random.Random):
    """A random arc-labelled coloured digraph with loops on a few base vertices, each blown up into a class of twins
    (joined by one label both ways, or not joined), at most 8 vertices, labels from a few bitsets."""
    base = rng.randint(1, 5)
    sizes = [1] * base
    while sum(sizes) < rng.randint(base, 8):
        sizes[rng.randrange(base)] += 1
    p = rng.choice((0.3, 0.6, 0.9))
    palette = rng.sample((1, 2, 3, 4, 6, 8, 12), rng.randint(1, 3))
    base_arcs = {(a, b): rng.choice(palette) for a in range(base) for b in range(base) if rng.random() < p}
    base_colour = [rng.randint(0, rng.choice((0, 1, 2))) for _ in range(base)]
    inside = [rng.choice(palette) if rng.random() < 0.5 else None for _ in range(base)]
    members, start = [], 0
    for s in sizes:
        members.append(list(range(start, start + s)))
        start += s
    m = sum(sizes)
    arcs: dict = {}
    for a in range(base):
        for b in range(base):
            for u in members[a]:
                for v in members[b]:
                    if u == v:
                        if (a, a) in base_arcs:
                            arcs[(u, u)] = base_arcs[(a, a)]
                    elif a == b:
                        if inside[a] is not None:
                            arcs[(u, v)] = inside[a]
                    elif (a, b) in base_arcs:
                        arcs[(u, v)] = base_arcs[(a, b)]
    colours = [0] * m
    for a in range(base):
        for v in members[a]:
            colours[v] = base_colour[a]
    shuffle = list(range(m))
    rng.shuffle(shuffle)  # the classes need not be runs of vertices
    return m, {(shuffle[u], shuffle[v]): label for (u, v), label in arcs.items()}, \
        [colours[shuffle.index(v)] for v in range(m)]


def _quotient(m: int, arcs: dict, colours: list) -> labelled_twins.LabelledTwinQuotient:
    items = sorted(arcs.items())
    q = labelled_twins.quotient(m, colours, [u for (u, _), _ in items], [v for (_, v), _ in items],
                                [label for _, label in items], min_saved=0)
    assert q is not None
    return q


def _whole_count(m: int, arcs: dict, colours: list) -> int:
    """BLISS on the whole graph, its arcs subdivided by a vertex per arc coloured by its label (graphs/layers.py)."""
    cols = list(colours)
    graph = subdivided(m, sorted(arcs.items()), {}, max(colours) + 1, cols)
    return bliss.count(graph, cols)


def _relabelled(perm: list, arcs: dict, colours: list) -> tuple[dict, list]:
    image_colours = [0] * len(colours)
    for v, c in enumerate(colours):
        image_colours[perm[v]] = c
    return {(perm[u], perm[v]): label for (u, v), label in arcs.items()}, image_colours


def _form(m: int, arcs: dict, colours: list) -> tuple:
    """The quotient's canonical form, and the whole graph relabelled by its canonical labelling (Theorem F223 (d))."""
    lab, form = _quotient(m, arcs, colours).canonical()
    assert sorted(lab) == list(range(m))
    image, cols = _relabelled(lab, arcs, colours)
    return form, tuple(cols), tuple(sorted(image.items()))


@pytest.mark.parametrize("seed", range(60))
def test_the_quotient_counts_generates_and_labels_as_brute_force_and_bliss(seed):
    rng = random.Random(seed)
    m, arcs, colours = _planted(rng)
    q = _quotient(m, arcs, colours)
    assert {frozenset(c) for c in q.classes} == _brute_twins(m, arcs, colours)
    want = _brute_automorphisms(m, arcs, colours)
    assert q.automorphism_order() == len(want) == _whole_count(m, arcs, colours)
    gens = q.generators()
    assert all(sorted(g) == list(range(m)) for g in gens)
    assert generated_group(gens, m) == set(want)
    perm = list(range(m))
    rng.shuffle(perm)
    image, image_colours = _relabelled(perm, arcs, colours)
    assert _form(m, image, image_colours) == _form(m, arcs, colours)


def test_labels_tell_twins_apart():
    """Two vertices with the same neighbours but different labels on one arc are not twins; with equal labels they
    are; a pair joined one way only, or by different labels each way, is not."""
    same = {(0, 2): 1, (1, 2): 1}
    assert _quotient(3, same, [0, 0, 0]).classes == ((0, 1), (2,))
    differ = {(0, 2): 1, (1, 2): 2}
    assert _quotient(3, differ, [0, 0, 0]).classes == ((0,), (1,), (2,))
    assert _quotient(2, {(0, 1): 1}, [0, 0]).classes == ((0,), (1,))
    assert _quotient(2, {(0, 1): 1, (1, 0): 2}, [0, 0]).classes == ((0,), (1,))
    assert _quotient(2, {(0, 1): 3, (1, 0): 3}, [0, 0]).classes == ((0, 1),)


def _isomorphic(m: int, a: tuple, b: tuple) -> bool:
    (arcs_a, col_a), (arcs_b, col_b) = a, b
    return any(all(col_b[p[v]] == col_a[v] for v in range(m))
               and {(p[u], p[v]): label for (u, v), label in arcs_a} == dict(arcs_b)
               for p in itertools.permutations(range(m)))


@pytest.mark.parametrize("seed", range(10))
def test_canonical_forms_agree_exactly_when_the_graphs_are_isomorphic(seed):
    """Graphs of one size, some of them blow-ups of one base with classes in different places, some with a label
    changed: equal forms exactly for the pairs brute force finds isomorphic."""
    rng = random.Random(1000 + seed)
    by_size: dict = {}
    for _ in range(14):
        m, arcs, colours = _planted(rng)
        if m <= 6:
            variants = [arcs]
            if arcs:
                changed = dict(arcs)
                changed[rng.choice(sorted(changed))] = 5
                variants.append(changed)
                perm = list(range(m))
                rng.shuffle(perm)
                moved, colours_moved = _relabelled(perm, arcs, colours)
                by_size.setdefault(m, []).append((tuple(sorted(moved.items())), tuple(colours_moved)))
            for a in variants:
                by_size.setdefault(m, []).append((tuple(sorted(a.items())), tuple(colours)))
    pairs = 0
    for m, graphs in by_size.items():
        forms = [_form(m, dict(a), list(c)) for a, c in graphs]
        for x, y in itertools.combinations(range(len(graphs)), 2):
            isomorphic = _isomorphic(m, graphs[x], graphs[y])
            assert (forms[x][0] == forms[y][0]) == isomorphic
            assert (forms[x][1:] == forms[y][1:]) == isomorphic
            pairs += 1
    assert pairs >= 1


# ---------------------------------------------------------------------------------------------
# The per-layer views decided on their quotients

from .test_layers import CASES, _brute, _spec  # noqa: E402

from uapcheck.graphs import symmetry_group  # noqa: E402
from uapcheck.graphs.layers import connectivity, covering_depth, decide_depth, least_layers  # noqa: E402
from uapcheck.graphs.symmetry import pattern_structure  # noqa: E402
from uapcheck.groups import orbits  # noqa: E402
from uapcheck.rules.layers import build_sequence  # noqa: E402

TWINNED = [(["periodic { global(2), global(2) }"], 7), (["periodic { star, blocks(3) }"], 6),
           (["periodic { global(1), blocks(2) }"], 6), (["sequence { global(2), star, full }"], 6),
           (["periodic { blocks(3), global(2) }", "global(1)"], 7)]


def _per_depth(seq):
    """Per depth from D_Φ to the covering depth (or the sequence's): (sufficient, the automorphism orders of the
    rooted views of the orbit representatives, whether a witness was found)."""
    reach = connectivity(seq)
    grp = symmetry_group(seq.distinct_graphs())
    in_group = pattern_structure(seq.distinct_graphs()).preserves
    top = seq.depth or covering_depth(seq)
    out = []
    for m in range(max(reach.depth, 1), top + 1):
        d = decide_depth(seq, m, int(grp.order), grp.generators, in_group)
        out.append((d.sufficient, d.certificate.automorphism_orders if d.certificate else None, d.witness is not None))
    least = least_layers(seq, max(reach.depth, 1), int(grp.order), grp.generators, in_group, seq.depth)
    return out, least.layers


@pytest.mark.parametrize("heads,n", [c for c in CASES if c[1] <= 7] + TWINNED)
def test_per_layer_counts_on_quotients_agree_with_the_engine_and_brute_force(heads, n, monkeypatch):
    """Every rooted view per layer taken to its labelled twin quotient (view_twins.MIN_SAVED = 0): per depth the same
    decision and automorphism counts as the whole views, and the same least count as brute force over S_n; every
    witness passes the re-check on the arcs (decide_depth re-checks before it returns one)."""
    seq = build_sequence(_spec(heads, n))
    if connectivity(seq).depth is None:
        pytest.skip("not connected")
    whole = _per_depth(seq)
    monkeypatch.setattr(view_twins, "MIN_SAVED", 0)
    forced = _per_depth(seq)
    assert forced == whole
    assert forced[1] == _brute(heads, n, depth_cap=10)[1]


@pytest.mark.parametrize("heads, n", [(["periodic { global(2), global(2) }"], 150),
                                      (["periodic { star, blocks(40) }"], 120),
                                      (["periodic { global(1), blocks(2) }"], 130)])
def test_large_views_agree_with_bliss_on_the_whole_view(heads, n, monkeypatch):
    """Views past the threshold: the quotient's count equals BLISS's on the whole (subdivided) view, and the digests
    are equal within a G-orbit (isomorphic views) and differ between orbits where the engine finds D layers enough."""
    seq = build_sequence(_spec(heads, n))
    grp = symmetry_group(seq.distinct_graphs())
    orbit_of = orbits(n, grp.generators)
    lists = L._InLists(seq)
    m = max(connectivity(seq).depth, 1)
    digests: dict = {}
    for r in sorted(set(orbit_of)) + [r for r in range(n) if r % 37 == 4]:
        view = L._RootedLayerView(lists, seq, r, m, {})
        assert view.twins is not None
        if r < 3 or r % 74 == 4:
            monkeypatch.setattr(view_twins, "MIN_SAVED", n)
            whole = L._RootedLayerView(lists, seq, r, m, {})
            monkeypatch.undo()
            assert whole.twins is None
            assert view.automorphism_order() == whole.automorphism_order()
        digests.setdefault(orbit_of[r], set()).add(view.canonical()[1])
    assert all(len(found) == 1 for found in digests.values())
    d = decide_depth(seq, m, int(grp.order), grp.generators, pattern_structure(seq.distinct_graphs()).preserves)
    if d.sufficient:
        assert len(set.union(*digests.values())) == len(digests)


def test_global2_alternation_at_800_is_fast():
    """`periodic { global(2), global(2) }` at n = 800 with two layers: its two rooted views per depth (groups
    S_2 × S_797 and S_798) counted and digested on quotients of 3 and 4 classes (about 6 s of CPU on the whole views)."""
    source = ("tokens 800\nlayers 2\nattention {\n kernel k(x, y) = exp(x . y)\n"
              " pattern periodic { global(2), global(2) }\n}\n")
    start = time.process_time()
    result = uapcheck.check(source)
    spent = time.process_time() - start
    assert result.verdict == "UAP" and result.layers == 2
    assert spent < 4, f"{spent:.1f} s of CPU"
