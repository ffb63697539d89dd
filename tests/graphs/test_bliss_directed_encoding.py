"""BLISS is asked about directed graphs only through their undirected encoding (uapcheck/bliss.py): python-igraph
1.0's BLISS ends the process with a segmentation fault on some coloured digraphs under every splitting heuristic
(the coloured quotient of `strided(6) + blocks(2)` | `global(1)` at n = 19), and undercounts others under the "m"
heuristics. The encoding's counts, generators and canonical labellings are checked here against brute force over
all permutations of small coloured digraphs, written without igraph."""
from __future__ import annotations

import itertools
import random
import subprocess
import sys
import textwrap

import igraph
import pytest

from uapcheck import bliss
from permutation_groups import generated_group, relabelled  # tests/ is on sys.path


def _digraph(n: int, arcs) -> igraph.Graph:
    return igraph.Graph(n=n, edges=sorted(arcs), directed=True)


def _brute_automorphisms(n: int, arcs: set, colours: list) -> list[tuple]:
    return [p for p in itertools.permutations(range(n))
            if all(colours[p[v]] == colours[v] for v in range(n)) and {(p[u], p[v]) for u, v in arcs} == arcs]


def _random_case(rng: random.Random):
    n = rng.randint(2, 7)
    arcs = {(u, v) for u in range(n) for v in range(n) if u != v and rng.random() < rng.choice((0.2, 0.4, 0.6))}
    colours = [rng.randint(0, rng.choice((0, 1, 2))) for _ in range(n)]
    return n, arcs, colours


@pytest.mark.parametrize("seed", range(40))
def test_the_encoding_counts_and_generates_the_coloured_digraphs_group(seed):
    n, arcs, colours = _random_case(random.Random(seed))
    want = _brute_automorphisms(n, arcs, colours)
    graph = _digraph(n, arcs)
    assert bliss.count(graph, colours) == len(want)
    gens = bliss.generators(graph, colours)
    assert all({(g[u], g[v]) for u, v in arcs} == arcs and all(colours[g[v]] == colours[v] for v in range(n))
               for g in gens)
    assert generated_group(gens, n) == set(want)


@pytest.mark.parametrize("seed", range(30))
def test_the_encodings_canonical_labelling_names_isomorphic_digraphs_alike(seed):
    rng = random.Random(1000 + seed)
    n, arcs, colours = _random_case(rng)
    p = list(range(n))
    rng.shuffle(p)
    image, image_colours = relabelled(p, arcs, colours)

    def form(arcs_, colours_):
        order = bliss.canonical_permutation(_digraph(n, arcs_), colours_)  # order[k]: the vertex placed at k
        at = {v: k for k, v in enumerate(order)}
        return sorted((at[u], at[v]) for u, v in arcs_), [colours_[v] for v in order]
    assert form(arcs, colours) == form(image, image_colours)
    # a digraph that is not isomorphic (one more arc, where there is room) gets another form
    missing = [(u, v) for u in range(n) for v in range(n) if u != v and (u, v) not in arcs]
    if missing:
        assert form(arcs | {missing[0]}, colours) != form(arcs, colours)


def test_an_undirected_graph_is_passed_through():
    graph = igraph.Graph(n=4, edges=[(0, 1), (1, 2), (2, 3)])
    assert bliss.count(graph) == 2 and bliss.generators(graph) == [[3, 2, 1, 0]]


SOURCE = """tokens 19
attention {
  kernel k(x, y) = exp(x . y)
  pattern strided(6) + blocks(2)
}
attention {
  kernel k(x, y) = exp(x . y)
  pattern global(1)
}
ffn relu
"""


def test_the_digraph_that_crashed_bliss_is_decided_in_process(tmp_path):
    # in a child process: before the encoding, BLISS ended the whole process (SIGSEGV) on this file's quotient
    code = textwrap.dedent(f"""
        from uapcheck.parse import parse_source
        from uapcheck.derive import check_spec
        r = check_spec(parse_source({SOURCE!r}, "crash.uap"), 60.0)
        print(r.verdict, r.group.order if r.group else None, r.layers)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["UAP", "576", "3"]


def _subdivided_case(rng: random.Random):
    """A digraph with arcs subdivided by labelled vertices (u → e → v, e coloured by its label), as the engines'
    arc-labelled graphs are: the subdividing vertices are the encoding's path vertices, left single. Some arcs stay
    plain, some loops are kept, and at most 8 vertices in all (brute force over S_8)."""
    k = rng.randint(2, 4)
    arcs: set = set()
    colours = [rng.randint(0, 1) for _ in range(k)]
    for u in range(k):
        for v in range(k):
            if rng.random() < 0.35 and (u != v or rng.random() < 0.3):
                if u != v and len(colours) < 8 and rng.random() < 0.7:
                    e = len(colours)
                    colours.append(2 + rng.randint(0, 1))   # the arc's label
                    arcs |= {(u, e), (e, v)}
                else:
                    arcs.add((u, v))
    return len(colours), arcs, colours


@pytest.mark.parametrize("seed", range(40))
def test_subdivided_digraphs_keep_their_group_and_canonical_form(seed):
    rng = random.Random(5000 + seed)
    n, arcs, colours = _subdivided_case(rng)
    want = _brute_automorphisms(n, arcs, colours)
    graph = _digraph(n, arcs)
    assert bliss.count(graph, colours) == len(want)
    assert generated_group(bliss.generators(graph, colours), n) == set(want)
    # reversing one subdivided arc (u → e → v into v → e → u) changes the digraph: when it is not isomorphic, the
    # canonical forms differ; a relabelled copy has the same form
    p = list(range(n))
    rng.shuffle(p)
    image, image_colours = relabelled(p, arcs, colours)

    def form(arcs_, colours_):
        order = bliss.canonical_permutation(_digraph(n, arcs_), colours_)
        at = {v: k for k, v in enumerate(order)}
        return sorted((at[u], at[v]) for u, v in arcs_), [colours_[v] for v in order]
    assert form(arcs, colours) == form(image, image_colours)
    path = next((e for e in range(n) if colours[e] >= 2), None)
    if path is not None:
        (u,), (v,) = [a for a, b in arcs if b == path], [b for a, b in arcs if a == path]
        if u != v:
            reversed_ = (arcs - {(u, path), (path, v)}) | {(v, path), (path, u)}
            iso = any({(q[a], q[b]) for a, b in arcs} == reversed_ for q in _brute_automorphisms_any(n, colours))
            assert (form(reversed_, colours) == form(arcs, colours)) == iso


def _brute_automorphisms_any(n: int, colours: list):
    return (q for q in itertools.permutations(range(n)) if all(colours[q[v]] == colours[v] for v in range(n)))


def test_an_arc_labelled_graph_is_encoded_on_about_as_many_vertices():
    # 1,000 positions, each arc i → i + 1 and i → i + 3 subdivided by a labelled vertex: 1,000 triples' worth of
    # extra vertices, not 3 · 3,000
    n, arcs, colours = 1000, set(), [0] * 1000
    for i in range(n):
        for step, label in ((1, 1), (3, 2)):
            e = len(colours)
            colours.append(label)
            arcs |= {(i, e), (e, (i + step) % n)}
    encoded, _ = bliss._encoded(_digraph(len(colours), arcs), colours)
    assert encoded.vcount() == 3 * n + 2 * n
    assert bliss.count(_digraph(len(colours), arcs), colours) == n   # the rotations
