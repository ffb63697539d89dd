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


def _closure(gens: list, n: int) -> set:
    seen = {tuple(range(n))}
    frontier = list(seen)
    while frontier:
        p = frontier.pop()
        for g in gens:
            q = tuple(g[p[v]] for v in range(n))
            if q not in seen:
                seen.add(q)
                frontier.append(q)
    return seen


@pytest.mark.parametrize("seed", range(40))
def test_the_encoding_counts_and_generates_the_coloured_digraphs_group(seed):
    n, arcs, colours = _random_case(random.Random(seed))
    want = _brute_automorphisms(n, arcs, colours)
    graph = _digraph(n, arcs)
    assert bliss.count(graph, colours) == len(want)
    gens = bliss.generators(graph, colours)
    assert all({(g[u], g[v]) for u, v in arcs} == arcs and all(colours[g[v]] == colours[v] for v in range(n))
               for g in gens)
    assert _closure(gens, n) == set(want)


@pytest.mark.parametrize("seed", range(30))
def test_the_encodings_canonical_labelling_names_isomorphic_digraphs_alike(seed):
    rng = random.Random(1000 + seed)
    n, arcs, colours = _random_case(rng)
    p = list(range(n))
    rng.shuffle(p)
    image = {(p[u], p[v]) for u, v in arcs}
    image_colours = [0] * n
    for v in range(n):
        image_colours[p[v]] = colours[v]

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
