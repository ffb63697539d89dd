"""Theorem F26 (docs/theory.md §11.11): `window(w) cyclic + strided(s)` with s ∈ {2w + 2, 2w + 3}: D = 3 for
n ≥ s(4w + 3); G = D_n when s | n, else the reflection (for w ≥ 2 and n mod s ∈ {1, …, w} by Theorem F201);
D + 1 = 4 layers suffice, and Theorem F56: for s = 2w + 2, D = 3 layers, least (every position at distance 3 from a
root i lies in the class of i + w + 1).
Checked against the concrete engine at every n ≤ 60 in range (and past it for w = 2), the group against every
permutation at small n, that the stated count is never below the engine's least count and equals it for
s = 2w + 2, and F56's far-class premise by breadth-first search on the reference arcs (tests/graphs/reference.py);
the verifier's F56 entry accepts the certificate and rejects a count one too low and `least` for s = 2w + 3."""
from __future__ import annotations

import pytest
import sympy

import json

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

from .reference import all_distances, attends

N = sympy.Symbol("n", integer=True, positive=True)


def pattern(w, s):
    return PatternUnion((Window(w, True), Strided(s)))


@pytest.mark.parametrize("w,s,top", [(1, 4, 60), (1, 5, 60), (2, 6, 80), (2, 7, 85)])
def test_f26_agrees_with_the_concrete_engine(w, s, top):
    theorem = F.match([pattern(w, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F26"
    assert theorem.least is ((w, s) == (1, 5) or s == 2 * w + 2)  # F55 (tests/graphs/test_strided_least.py), F56
    assert theorem.group is not None and theorem.group_open == ()  # every class (w ≥ 2: n mod s ∈ {1, …, w} by F201)
    for n in range(s * (4 * w + 3), top + 1):
        # F56: 3; F67 at s | n (w ≥ 2, a least flag by class): 3; else 4
        stated = 3 if s == 2 * w + 2 or (w >= 2 and n % s == 0) else 4
        got = F.concrete(pattern(w, s), n)
        want = F.at(theorem, {"n": n})
        assert got.diameter == 3 == want["diameter"], n
        assert got.least and got.layers <= want["layers"] == stated, n  # a sufficient count, never below the least
        if theorem.least_at(n):
            assert got.layers == stated, n
        assert got.order == want["order"] == (2 * n if n % s == 0 else 2), n


def test_f26_below_the_range_and_outside_the_strides_claims_nothing():
    assert isinstance(F.match([pattern(1, 6)], N, {}), F.OpenFamily)  # s ≥ 2w + 4: the diameter is open
    assert F.match([pattern(3, 2)], N, {}).theorem == "F205"  # 2 ≤ s ≤ w
    assert F.match([pattern(1, 3)], N, {}).theorem == "F201"  # w + 1 ≤ s ≤ 2w + 1
    theorem = F.match([pattern(1, 4)], N, {})
    assert not F.in_range(theorem, {"n": 27}) and F.in_range(theorem, {"n": 28})


@pytest.mark.parametrize("w,top", [(1, 60), (2, 80), (3, 128)])
def test_f56_far_positions_lie_in_the_class_w_plus_1_away(w, top):
    """F56's premise on the reference arcs: for s = 2w + 2 every position at distance 3 from a root i is
    ≡ i + w + 1 (mod s), so the far positions of every root are pairwise adjacent; nothing is farther."""
    s = 2 * w + 2
    for n in range(s * (4 * w + 3), top + 1):
        pairs = attends(pattern(w, s), n)
        dist = all_distances(pairs, n)
        for root in range(1, n + 1):
            far = [v for v in range(1, n + 1) if dist[root].get(v, 99) > 2]
            assert all(dist[root].get(v) == 3 for v in far), (n, root)
            assert all((v - root - w - 1) % s == 0 for v in far), (n, root)
            assert all((u, v) in pairs for u in far for v in far if u != v), (n, root)


def test_f56_the_far_class_fails_for_the_odd_stride():
    """The premise is special to s = 2w + 2: for s = 2w + 3 some root has far positions in two classes, not
    adjacent (for (1, 5) Theorem F55 shows 3 layers are not enough)."""
    for w, n in [(1, 35), (2, 78)]:
        s = 2 * w + 3
        pairs = attends(pattern(w, s), n)
        dist = all_distances(pairs, n)
        assert any((u, v) not in pairs for root in range(1, n + 1)
                   for u in dist[root] if dist[root][u] == 3 for v in dist[root] if dist[root][v] == 3 and u != v)


@pytest.mark.parametrize("w, n", [(2, 77), (2, 84), (3, 135), (4, 209)])
def test_f67_common_neighbour_premise_when_the_stride_divides_n(w, n):
    """Theorem F67 on the reference arcs: for s = 2w + 3 with s | n, every position at distance 3 from the root 1 (one
    root suffices: the rotations are automorphisms) lies in the classes 1 ± (w + 1) more than 2w away, and two of them
    are adjacent exactly when some position within distance 2 of the root is adjacent to both (the common-neighbour
    premise), so 3 = D layers suffice; the concrete engine agrees at the lengths it can afford."""
    s = 2 * w + 3
    assert n % s == 0 and n >= s * (4 * w + 3)
    pairs = attends(pattern(w, s), n)
    nb = {v: {v} | {j for (i, j) in pairs if i == v} for v in range(1, n + 1)}
    dist = all_distances(pairs, n)
    assert max(max(row.values()) for row in dist.values()) == 3
    for r in (1, n // 2):
        assert sorted(dist[r][v] for v in range(1, n + 1)) == sorted(dist[1][v] for v in range(1, n + 1))
    far = [v for v in range(1, n + 1) if dist[1][v] == 3]
    ball = {v for v in range(1, n + 1) if dist[1][v] <= 2}
    assert all((v - 1) % s in (w + 1, s - w - 1) and min(v - 1, n + 1 - v) > 2 * w for v in far)
    for a, u in enumerate(far):
        for v in far[a + 1:]:
            assert (v in nb[u]) == bool(nb[u] & nb[v] & ball), (u, v)
    if n <= 84:
        got = F.concrete(pattern(w, s), n)
        assert got.least and got.layers == got.diameter == 3


def _cert(body: str) -> dict:
    text = f'architecture "c"\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {body}\n}}\n'
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


def _layers_step(cert: dict) -> dict:
    return next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")


def test_the_verifier_rechecks_f56_and_rejects_two_layers():
    cert = _cert("window(1) cyclic + strided(4)")
    report = verify(cert)
    assert report.ok and report.complete
    step = next(st for st in report.steps if st.rule == "PAT-LAYERS")
    assert step.outcome == VERIFIED and "F56" in step.reason
    data = _layers_step(cert)["data"]
    assert data["layers"] == 3 and data["least"] is True
    data["layers"] = 2
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-LAYERS" and s.outcome == REJECTED for s in report.steps)


def test_the_verifier_rejects_three_layers_least_for_the_odd_stride():
    cert = _cert("window(2) cyclic + strided(7)")
    data = _layers_step(cert)["data"]
    # 3 if n mod 7 = 0, else 4 (the count by class as a tree), least on n mod 7 = 0 only (Theorem F67)
    assert data["least"] is False and data["least classes"] == {"modulus": 7, "residues": [0]}
    data["layers"], data["least"] = 3, True
    del data["least classes"]
    assert not verify(cert).ok
