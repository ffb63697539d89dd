"""Theorem F197 (lemma I, docs/theory.md §11): a union holding `window(w) cyclic` and `strided(s)`, 2 ≤ s ≤ 2w + 1,
checked apart from the engines. On seeded random unions (the two parts in one head or in two, beside windows,
offsets, cyclic offsets, dilations, strides, blocks and hubs) the statement `uapcheck` prints at a symbolic n is read
at every length up to NMAX and compared with a reference on arcs written from docs/language.md's definitions
(tests/graphs/reference.py: BFS for D, nauty on an arc-path encoding with Schreier–Sims for |G|, exact), the least
layer count by the sweep's rooted views (scripts/sweep_patterns.py, no engine imported) and by brute force over S_n
(tests/graphs/brute_views.py) at n ≤ 7. The theorem's own claims, D ≤ 2 at every n and D = 2 from d* + K + 1 in
case (b), are checked on the reference arcs alone."""
from __future__ import annotations

import functools
import math
import random
import sys
from pathlib import Path

import pynauty
import pytest
from graphs.brute_views import least_layers as brute_least
from graphs.brute_views import neighbourhoods
from graphs.reference import all_distances, attends
from sympy.combinatorics import Permutation, PermutationGroup

from uapcheck.parse import parse_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 40 if NIGHTLY else 24
UNIONS = 16 if NIGHTLY else 8
BRUTE_N = 7


def reference_heads(heads, n: int) -> list:
    """Each head's arcs (i, j) from docs/language.md's definitions (tests/graphs/reference.py), i ≠ j."""
    spec = parse_source(SP.file_text(heads, n), "ref.uap")
    return [frozenset(attends(h.pattern, n)) for h in spec.heads]


def reference_diameter(pairs_list, n: int):
    union = frozenset().union(*pairs_list)
    dist = all_distances(union, n)
    if any(len(d) < n for d in dist.values()):
        return None
    return max(max(d.values()) for d in dist.values())


def nauty_order(pairs_list, n: int) -> int:
    """|∩_h Aut(head h)|, exactly: nauty's generators on an arc-path encoding (one path of two vertices per ordered
    pair, coloured by the set of heads holding it), restricted to the positions, and Schreier–Sims."""
    mask: dict = {}
    for h, pairs in enumerate(pairs_list):
        for p in pairs:
            mask[p] = mask.get(p, 0) | (1 << h)
    adjacency: dict = {v: [] for v in range(n)}
    colours: dict = {}
    k = n
    for (i, j), m in sorted(mask.items()):
        a, b = k, k + 1
        k += 2
        adjacency[i - 1].append(a)  # undirected path i – a – b – j, a and b coloured apart: the direction is kept
        adjacency[a] = [b]
        adjacency[b] = [j - 1]
        colours.setdefault((m, 0), set()).add(a)
        colours.setdefault((m, 1), set()).add(b)
    cells = [set(range(n))] + [colours[key] for key in sorted(colours)]
    graph = pynauty.Graph(k, directed=False, adjacency_dict=adjacency, vertex_coloring=cells)
    gens = [Permutation(list(g[:n])) for g in pynauty.autgrp(graph)[0]]
    if not gens:
        return 1
    return int(PermutationGroup(gens).order())


def reference(heads, n: int) -> dict:
    pairs_list = reference_heads(heads, n)
    d = reference_diameter(pairs_list, n)
    out = {"order": nauty_order(pairs_list, n), "diameter": d}
    if d is None:
        out["verdict"] = "NOT-UAP"
        return out
    out["verdict"] = "UAP"
    arcs_list = list(dict.fromkeys(SP.head_arcs(h, n) for h in heads))
    out["layers"] = SP.least_layers(arcs_list, n, d)
    if n <= BRUTE_N:
        out["brute_layers"] = brute_least(neighbourhoods([SP.head_text(h) for h in heads], n), n)
    return out


def _draw(rng: random.Random):
    """One union with `window(w) cyclic` and `strided(s)`, s ≤ 2w + 1, in one head or two, with other parts."""
    w = rng.randint(1, 4)
    s = rng.randint(2, 2 * w + 1)
    extra = [("window", rng.randint(1, 3)), ("offsets", tuple(sorted(rng.sample([-7, -5, -3, -1, 2, 4, 6, 8], 2)))),
             ("offsets_cyclic", (rng.choice((-3, 2, 5)),)), ("dilated", rng.randint(1, 2), rng.randint(2, 4)),
             ("strided", rng.randint(2, 6)), ("blocks", rng.randint(2, 5)), ("global", rng.randint(1, 2)), ("star",),
             ("cyclic", rng.randint(1, 3))]
    cyc, st = ("cyclic", w), ("strided", s)
    shape = rng.choice(("one", "two", "three"))
    if shape == "one":
        heads = [(cyc, st) + tuple(rng.sample(extra, rng.randint(0, 1)))]
    elif shape == "two":
        heads = [(cyc,) + tuple(rng.sample(extra, rng.randint(0, 1))), (st,) + tuple(rng.sample(extra, rng.randint(0, 1)))]
    else:
        heads = [(cyc, st), tuple(rng.sample(extra, rng.randint(1, 2)))]
    return w, s, heads


@functools.lru_cache(maxsize=1)
def _unions() -> tuple:
    rng = random.Random(197)
    out = []
    seen = set()
    while len(out) < UNIONS:
        w, s, heads = _draw(rng)
        key = SP.file_text(heads, "n")
        if key not in seen:
            seen.add(key)
            out.append((w, s, tuple(heads)))
    return tuple(out)


@pytest.mark.parametrize("index", range(UNIONS))
def test_the_statement_at_every_length_against_the_reference(index):
    w, s, heads = _unions()[index]
    text = " | ".join(SP.head_text(h) for h in heads)
    result = SP.engine(SP.file_text(list(heads), "n"))
    assert result is not None, text
    stated = 0
    for n in range(2, NMAX + 1):
        ref = reference(heads, n)
        # the theorem itself on the reference arcs: strongly connected with D ≤ 2, and D ≤ 1 while complete
        assert ref["verdict"] == "UAP" and ref["diameter"] <= 2, (text, n, ref)
        if n <= 2 * w + 1:
            assert ref["diameter"] <= 1, (text, n, ref)
        if "brute_layers" in ref:
            assert ref["brute_layers"] == ref["layers"], (text, n, ref)
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        verdict, order, layers, least = claim
        assert verdict == "UAP", (text, n, claim)
        assert order == ref["order"], (text, n, claim, ref["order"])
        assert layers >= ref["layers"], (text, n, claim, ref["layers"])  # below the least count: unsound
        if least:
            assert layers == ref["layers"], (text, n, claim, ref["layers"])
        assert layers <= 3 or n <= 2 * w + 1, (text, n, claim)  # the theorem's 3 from n = 2w + 2 at least
        stated += 1
    if stated == 0:  # a statement by class of n, or INCONCLUSIVE: nothing read, nothing unsound
        assert result.to_dict()["verdict"] in ("UAP", "INCONCLUSIVE"), (text, result.to_dict()["verdict"])


def _case_b(heads):
    """d* and K of (b) when every part is a window, offsets, dilated, cyclic window or offsets, or strided part."""
    K, strides = 0, []
    for head in heads:
        for kind, *a in head:
            if kind in ("window", "cyclic"):
                K = max(K, a[0])
            elif kind in ("offsets", "offsets_cyclic"):
                K = max(K, max(abs(x) for x in a[0]))
            elif kind == "dilated":
                K = max(K, a[0] * a[1])
            elif kind == "strided":
                strides.append(a[0])
            else:
                return None
    d = K + 1
    while any(d % x == 0 for x in strides):
        d += 1
    assert d <= K + math.lcm(*strides), (heads, d)
    return d, K


def test_exact_diameter_two_from_the_explicit_length():
    rng = random.Random(1970)
    checked = 0
    for _ in range(60):
        _, _, heads = _draw(rng)
        case = _case_b(heads)
        if case is None:
            continue
        d_star, K = case
        text = " | ".join(SP.head_text(h) for h in heads)
        for n in range(d_star + K + 1, d_star + K + 13):
            assert reference_diameter(reference_heads(heads, n), n) == 2, (text, n, d_star, K)
        checked += 1
    assert checked >= 15, checked


@pytest.mark.parametrize("heads,n", [
    ([(("cyclic", 5), ("strided", 7)), (("window", 4), ("offsets", (-8,)))], 33),
    ([(("cyclic", 4),), (("strided", 4),), (("cyclic", 5),)], 30),
    ([(("offsets", (-3, -1, 5)), ("strided", 4)), (("cyclic", 2), ("dilated", 3, 2)), (("offsets", (-3, 7, 9)),)], 28),
])
def test_the_named_examples_at_a_concrete_length(heads, n):
    """The theorem's examples at `tokens n` (the concrete engine): never below the reference's least count."""
    result = SP.engine(SP.file_text(heads, n))
    assert result is not None
    findings = SP.compare_concrete(heads, n, result)
    assert not [f for f in findings if f[0] in SP.UNSOUND], (heads, n, findings)
    ref = reference(heads, n)
    assert result.to_dict()["group"]["order"] == ref["order"], (heads, n)
