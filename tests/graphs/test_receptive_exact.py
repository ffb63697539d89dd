"""Theorem F68 (docs/theory.md §14.5(f)): the exact least layers for the receptive-field class of any
pattern at a concrete n, by the known parts H_i and the fields F_i of the roots.

Three implementations are compared: the engine (graphs/receptive.py, BLISS generators and canonical
labellings), the verifier (verifier/receptive.py, nauty generators and certificates, on its interval
model) and every permutation (n ≤ 7, the naive neighbourhoods of tests/graphs/brute_views.py).
"""
from __future__ import annotations

import itertools
import random

import pytest

import uapcheck
from uapcheck.graphs import build_graph
from uapcheck.graphs.receptive import receptive_exact, receptive_fields
from uapcheck.parse import parse_source
from uapcheck.verifier import intervals as I
from uapcheck.verifier import receptive as VR

from .brute_views import _preserves, distances_to, neighbourhoods


def _spec(patterns, n):
    heads = "\n".join(f"attention {{ kernel k(x, y) = exp(x . y); pattern {p} }}" for p in patterns)
    return parse_source(f"tokens {n}\n{heads}", "t.uap")


def engine_least(patterns, n):
    spec = _spec(patterns, n)
    graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
    rec = receptive_fields(graphs)
    return rec.radius, receptive_exact(graphs, rec)


def verifier_least(patterns, n):
    spec = _spec(patterns, n)
    union = I.union_spans(spec)
    return VR.exact_least(I.head_spans(spec), union, VR.scan(union).radius)[0]


def brute_least(patterns, n):
    """r, or r + 1 when some permutation σ and position i keep every N_h(v) with d(v → i) ≤ r − 1 and not
    every N_h(v) with v ∈ R(i) (the definition of §14.5(d), every permutation tried)."""
    nbs = neighbourhoods(patterns, n)
    dist = distances_to(nbs, n)
    r = max(max(d.values()) for d in dist.values())
    if r == 0:
        return 1
    for p in itertools.permutations(range(1, n + 1)):
        sigma = (0,) + p
        good = [False] + [_preserves(nbs, sigma, v) for v in range(1, n + 1)]
        for i in range(1, n + 1):
            if all(good[v] for v, k in dist[i].items() if k <= r - 1) and not all(good[v] for v in dist[i]):
                return r + 1
    return r


def _random_heads(rng, n):
    out = []
    for _ in range(rng.choice((1, 1, 2))):
        p = rng.random() * 0.5
        arcs = {(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j and rng.random() < p}
        if rng.random() < 0.5:  # symmetric heads: every weakly connected part strongly connected
            arcs |= {(j, i) for i, j in arcs}
        arcs = arcs or {(2, 1)}
        out.append("edges {" + ", ".join(f"{i} -> {j}" for i, j in sorted(arcs)) + "}")
    return out


@pytest.mark.parametrize("seed", range(60))
def test_the_exact_test_agrees_with_every_permutation(seed):
    rng = random.Random(seed)
    n = rng.randrange(3, 8)
    pats = _random_heads(rng, n)
    r, got = engine_least(pats, n)
    assert got.least
    assert got.layers == brute_least(pats, n) == verifier_least(pats, n), pats
    if got.witness is not None:  # the witness it returns is one by the definition
        nbs = neighbourhoods(pats, n)
        dist = distances_to(nbs, n)[got.witness["position"]]
        images = got.witness.get("permutation")
        if images is None:
            a, b = got.witness["swap"]
            images = [b if k == a else a if k == b else k for k in range(1, n + 1)]
        sigma = (0, *images)
        assert all(_preserves(nbs, sigma, v) for v, k in dist.items() if k <= r - 1)
        assert not all(_preserves(nbs, sigma, v) for v in dist)


def test_isomorphic_known_parts_of_non_isomorphic_fields_are_a_witness():
    # 1 attends to 2 only one way, 3 and 4 to each other: the known parts of 1 and 3 (depth 0) match, the
    # fields do not (case (2) of the theorem), so one layer is not enough.
    pats = ["edges {1 -> 2, 3 -> 4, 4 -> 3}"]
    r, got = engine_least(pats, 4)
    assert (r, got.layers, got.least) == (1, 2, True)
    assert "known parts" in got.method and got.witness["position"] in (1, 3)
    assert brute_least(pats, 4) == verifier_least(pats, 4) == 2


@pytest.mark.parametrize("pattern,r_of_n", [
    ("blocks(8)", lambda n: 1 if n > 1 else 0),
    ("strided(5)", lambda n: 1 if n > 5 else 0),
    ("dilated(2, 4)", lambda n: -(-(-(-n // 4) - 1) // 2)),
    ("dilated(1, 3)", lambda n: -(-n // 3) - 1),
])
def test_disjoint_cliques_and_lines_need_exactly_r_layers(pattern, r_of_n):
    """Components that are cliques, or path powers on the residue classes: r layers at every n ≤ 60 (engine and
    verifier), and every permutation agrees at n ≤ 7."""
    for n in range(2, 61):
        r, got = engine_least([pattern], n)
        assert r == r_of_n(n), n
        assert got.least and got.layers == max(r, 1), (pattern, n)
        if n % 7 == 0 or n <= 7:
            assert verifier_least([pattern], n) == got.layers, (pattern, n)
        if n <= 7:
            assert brute_least([pattern], n) == got.layers, (pattern, n)


@pytest.mark.parametrize("patterns,n", [(["random(2, seed=4)"], 40), (["blocks(4)", "strided(6)"], 36),
                                        (["dilated(1, 5)", "edges {1 -> 6}"], 30)])
def test_engine_and_verifier_agree_past_the_brute_force(patterns, n):
    _, got = engine_least(patterns, n)
    assert got.least and verifier_least(patterns, n) == got.layers


@pytest.mark.parametrize("name,layers", [("blocks.uap", 1), ("strided.uap", 1), ("dilated.uap", 4)])
def test_the_catalog_alternatives_are_least(name, layers):
    from pathlib import Path
    path = Path(__file__).parents[2] / "catalog" / name
    result = uapcheck.check(path.read_text(), name)
    alt = result.alternative
    assert result.verdict == "NOT-UAP" and alt.target == "receptive"
    assert (alt.verdict, alt.layers, alt.least) == ("UAP", layers, True)


def test_the_count_certificate_checks_its_far_pair_and_witness():
    from dataclasses import replace
    from uapcheck.proof import CertificateRejected
    from uapcheck.rules.targets import _count_certificate
    for pats, n in ((["dilated(2, 4)"], 32), (["edges {1 -> 2, 3 -> 4, 4 -> 3}"], 4)):
        spec = _spec(pats, n)
        graphs = [build_graph(h.pattern, n, {}) for h in spec.heads]
        rec = receptive_fields(graphs)
        cert = _count_certificate(graphs, rec, receptive_exact(graphs, rec))
        cert.check()
        i, j = cert.far
        bad = [replace(cert, radius=cert.radius + 1, layers=cert.layers + 1), replace(cert, far=(i, i)),
               replace(cert, layers=cert.layers + 1)]
        if cert.witness:
            k, images = cert.witness
            bad.append(replace(cert, witness=(k, tuple(range(1, n + 1)))))  # the identity keeps every neighbourhood
            bad.append(replace(cert, witness=(k, images[:-1])))
        for b in bad:
            with pytest.raises(CertificateRejected):
                b.check()


@pytest.mark.parametrize("pattern,n", [
    # isomorphic known parts whose canonical labellings were read the wrong way round (igraph's
    # canonical_permutation lists, for each canonical index, the vertex placed there): the engine missed
    # the cross-root isomorphism and stated 2 layers, least, where a receptive witness exists
    ("edges {2 -> 4, 3 -> 5, 4 -> 1, 5 -> 3, 5 -> 6, 6 -> 3}", 6),
    ("edges {1 -> 2, 2 -> 3, 3 -> 2, 4 -> 1, 4 -> 5, 5 -> 3, 5 -> 4}", 5),
])
def test_isomorphic_known_parts_are_found_across_roots(pattern, n):
    r, got = engine_least([pattern], n)
    assert (r, got.layers, got.least) == (2, 3, True)
    assert brute_least([pattern], n) == verifier_least([pattern], n) == 3


@pytest.mark.parametrize("seed", range(6))
def test_the_engine_agrees_with_the_verifier_on_many_random_digraphs(seed):
    rng = random.Random(1000 + seed)
    for _ in range(60):
        n = rng.randrange(5, 8)
        pats = _random_heads(rng, n)
        assert engine_least(pats, n)[1].layers == verifier_least(pats, n), (pats, n)
