"""Theorem F164 (docs/theory.md §11.11): `window(w) + strided(s)`, 2 ≤ s ≤ w + 1, below F7's range, checked a second
way: the pair keys against their definition on the actual neighbourhood sets, the theorem's answer (the reflection,
D = 2 layers, least) against the concrete rooted-view engine at every n of its range up to 60 (further for some
pairs), the engine's certificate against the verifier's restatement, and the vectorised local checks of F7's step
(6″) against the definition."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.graphs import strided_classes as C
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import families as V

N = sympy.Symbol("n", integer=True, positive=True)

#: (w, s) pairs whose gap 6w + 4s + 1 ≤ n < F7's start holds lengths up to 60, and how far to compare each
PAIRS = [(2, 2, 60), (3, 2, 60), (4, 2, 60), (2, 3, 60), (3, 3, 60), (4, 3, 60), (3, 4, 60), (4, 4, 75),
         (4, 5, 94), (5, 3, 68), (5, 5, 90)]


def _nbhd(n: int, w: int, s: int, v: int) -> frozenset:
    return frozenset(x for x in range(1, n + 1) if abs(x - v) <= w or (x - v) % s == 0)


def _f7_start(w: int, s: int) -> int:
    theorem = F.match([PatternUnion((Window(w), Strided(s)))], N, {})
    return int(theorem.low)


@pytest.mark.parametrize("n,w,s", [(25, 2, 3), (37, 4, 3), (61, 6, 6), (70, 5, 6)])
def test_the_pair_keys_are_their_definition(n, w, s):
    nb = {v: _nbhd(n, w, s, v) for v in range(1, n + 1)}
    same, cross = set(), set()
    for i in range(1, (n + 1) // 2 + 1):
        f = {x: len(nb[x] & nb[i]) for x in nb[i]}
        for v in nb[i] - {i}:
            key = (len(nb[i]), len(nb[v]), f[v], sum(f[x] for x in nb[v] & nb[i]))
            (same if (v - i) % s == 0 else cross).add(key)
    got_same, got_cross = C.pair_keys(n, w, s)
    assert set(map(tuple, got_same.tolist())) == same
    assert set(map(tuple, got_cross.tolist())) == cross
    assert (C.class_collision(n, w, s) is None) == (not same & cross)


def test_the_keys_are_kept_by_the_reflection():
    """The roots i ≤ (n + 1)/2 stand for all: the keys of the others are the same (ρ is an automorphism)."""
    n, w, s = 41, 3, 4
    nb = {v: _nbhd(n, w, s, v) for v in range(1, n + 1)}

    def keys(roots):
        out = set()
        for i in roots:
            f = {x: len(nb[x] & nb[i]) for x in nb[i]}
            out |= {((v - i) % s == 0, len(nb[i]), len(nb[v]), f[v], sum(f[x] for x in nb[v] & nb[i]))
                    for v in nb[i] - {i}}
        return out
    assert keys(range(1, (n + 1) // 2 + 1)) == keys(range(1, n + 1))


@pytest.mark.parametrize("w,s,top", PAIRS)
def test_f164_agrees_with_the_concrete_engine(w, s, top):
    pattern = PatternUnion((Window(w), Strided(s)))
    start = _f7_start(w, s)
    decided = 0
    for n in range(C.low(w, s), min(start, top + 1)):
        theorem = F.match([pattern], sympy.Integer(n), {})
        got = F.concrete(pattern, n)
        if theorem is not None and theorem.theorem == "F164":
            decided += 1
            assert (theorem.layers, theorem.least, theorem.group, theorem.order) == (2, True, "reflection", 2)
            assert (got.diameter, got.order, got.layers, got.least) == (2, 2, 2, True), n
        assert (V._f164(w, s, n) is not None) == (theorem is not None and theorem.theorem == "F164"), n
    assert decided >= 1


def test_a_key_collision_leaves_the_length_to_the_engine():
    """At (w, s) = (6, 6), n = 61 a same-class key is also a cross key: F164 does not apply there."""
    assert C.class_collision(61, 6, 6) is not None
    theorem = F.match([PatternUnion((Window(6), Strided(6)))], sympy.Integer(61), {})
    assert theorem is None or theorem.theorem != "F164"
    assert V._f164(6, 6, 61) is None


@pytest.mark.parametrize("w", range(1, 9))
def test_the_local_refinement_is_its_definition(w):
    """F7's step (6″), vectorised in the engine and in the verifier, against a direct restatement with Python sets."""
    for s in range(2, w + 2):
        for i in range(1, 2 * w + 2 * s + 3):
            want = _refined_by_sets(w, s, i)
            assert F.strided_local_refined(w, s, i) == want, (w, s, i)
            assert V._refined_root(w, s, i) == want, (w, s, i)


def _refined_by_sets(w: int, s: int, i: int) -> bool:
    lo, hi = max(1, i - 2 * w - 2 * s), i + 2 * w + 2 * s
    member = {x for x in range(lo, hi + 1) if (x - i) % s == 0}
    run = {x: frozenset(p for p in range(max(1, x - w), x + w + 1) if (p - i) % s == 0)
           for x in range(lo, hi + 1) if x not in member}
    cut = {run[x] for x in (lo, hi) if x in run and (x == hi or lo > 1)}
    nodes = sorted(member | {x for x in run if run[x] not in cut})
    ball = {x for x in nodes if abs(x - i) <= w or x in member}
    colour = {x: ("m", x) if x in member else ("r", tuple(sorted(run[x])), x in ball) for x in nodes}
    joined = {x: [u for u in nodes if u != x and (x in ball or u in ball) and (abs(x - u) <= w or (x - u) % s == 0)]
              for x in nodes}
    count = len(set(colour.values()))
    while True:
        colour = {x: repr((colour[x], sorted(repr(colour[u]) for u in joined[x]))) for x in nodes}
        new = len(set(colour.values()))
        if new == count:
            return new == len(nodes)
        count = new


def test_the_merged_head_at_4096_is_rechecked_by_the_verifier():
    """catalog/sparse_transformer_merged_4096.uap: the layers and the group rest on the verifier's own F164 (its keys
    from matrix products, its own step (6″)); a stated count of 3, or least withdrawn, or the order 4, is rejected."""
    from certificates import certificate
    from uapcheck.verifier import REJECTED, VERIFIED, verify

    name = "sparse_transformer_merged_4096.uap"
    report = verify(certificate(name))
    assert report.ok and report.complete
    for s in report.steps:
        if s.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert s.outcome == VERIFIED and "Theorem F164" in s.reason and "n = 4096" in s.reason

    def rejected(edit, rule):
        cert = certificate(name)
        edit(next(s for s in cert["steps"] if s["rule"] == rule))
        got = verify(cert)
        return not got.ok and any(s.rule == rule and s.outcome == REJECTED for s in got.steps)
    assert rejected(lambda s: s["data"].__setitem__("layers", 3), "PAT-LAYERS")
    assert rejected(lambda s: s["certificate"]["claims"].__setitem__("least", False), "PAT-LAYERS")
    assert rejected(lambda s: s["data"].__setitem__("order", 4), "SYM-AUT")


@pytest.mark.parametrize("n,w,s", [(25, 2, 3), (61, 6, 6), (300, 9, 5), (700, 20, 7)])
def test_the_pair_keys_are_sorted_rows_each_once(n, w, s):
    """The keys come coded as one integer each and decoded: rows in lexicographic order, no row twice, and the
    neighbour table's rows ascending, each position once, padded with n."""
    import numpy as np
    for keys in C.pair_keys(n, w, s):
        rows = keys.tolist()
        assert rows == sorted(map(list, set(map(tuple, rows))))
        assert keys.dtype == np.int64 and keys.shape[1] == 4
    table = C.neighbour_table(n, w, s)
    for v in range(n):
        row = [x for x in table[v].tolist() if x < n]
        assert row == sorted(set(row)) == [x for x in range(n) if abs(x - v) <= w or (x - v) % s == 0]
        assert all(x == n for x in table[v].tolist()[len(row):])


def _pair_keys_by_gathers(n: int, w: int, s: int):
    """The keys as the engine first computed them: for each root, every v of its row and every x of N(v) gathered
    from the neighbour table (|N(i)|² entries per root), membership in N(i) read off |x − i| ≤ w or the class."""
    import numpy as np
    table = C.neighbour_table(n, w, s)
    degree = np.count_nonzero(table < n, axis=1)
    same, cross = set(), set()
    for i in range((n + 1) // 2):
        ball = table[i]
        far = table[ball]
        inside = ((np.abs(far - i) <= w) & (far < n)) | ((far < n) & ((far - i) % s == 0))
        f = np.count_nonzero(inside, axis=1)
        f_of = dict(zip(ball.tolist(), f.tolist()))
        for k, v in enumerate(ball.tolist()):
            if v == n or v == i:
                continue
            h = sum(f_of[x] for x, hit in zip(far[k].tolist(), inside[k].tolist()) if hit)
            (same if (v - i) % s == 0 else cross).add((int(degree[i]), int(degree[v]), int(f[k]), h))
    return same, cross


@pytest.mark.parametrize("n,w,s", [(5, 1, 2), (9, 4, 5), (23, 3, 3), (64, 7, 8), (150, 12, 5), (257, 16, 17),
                                   (400, 30, 2), (333, 10, 11)])
def test_the_prefix_sums_are_the_gathered_keys(n, w, s):
    """The keys by inclusion and exclusion over N(v) = W(v) ∪ C(v) (binary searches in each root's sorted row)
    against the pairwise gathers, on lengths inside and outside F164's range, short rows and full ones."""
    got_same, got_cross = C.pair_keys(n, w, s)
    same, cross = _pair_keys_by_gathers(n, w, s)
    assert set(map(tuple, got_same.tolist())) == same
    assert set(map(tuple, got_cross.tolist())) == cross


@pytest.mark.parametrize("n", [8192, 12000, 16000])
def test_the_merged_head_near_the_top_of_the_gap_matches_the_verifier(n):
    """window(64) + strided(64) up to F7's start s(4w + 3) = 16,576: the engine's keys are the verifier's (counted
    from neighbour functions and the period s), and they separate the classes."""
    same, cross = C.pair_keys(n, 64, 64)
    v_same, v_cross = V.f164_keys(64, 64, n)
    assert set(map(tuple, same.tolist())) == v_same and set(map(tuple, cross.tolist())) == v_cross
    assert C.class_collision(n, 64, 64) is None


def test_the_merged_head_at_16000_is_decided_by_f164_within_the_family_budget():
    """At n = 16,000 the keys once took longer than the 10 s the family theorems get, and the file fell to the token
    graph and D + 1 layers (INCONCLUSIVE under the default budget): now F164 decides it, 2 layers, least."""
    from uapcheck.derive import check_spec
    from uapcheck.parse import parse_source
    src = "tokens 16000\nattention { kernel k(x, y) = exp(x . y); pattern window(64) + strided(64) }"
    result = check_spec(parse_source(src, "merged.uap"), 60)
    assert result.verdict == "UAP"
    (step,) = {s for s in result.root.walk() if s.rule == "PAT-LAYERS"}
    assert step.facts == {"diameter": 2, "layers": 2, "least": True}
    assert "Theorem F164" in step.evidence["method"]
