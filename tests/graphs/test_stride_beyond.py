"""Theorem F14 (docs/theory.md §11.11): `window(w) + strided(s)` with s ≥ 2w + 2, n ≥ s(4w + 3) — D = M + 1
when n mod s is in the set `stride_beyond_far` gives, else M = 1 + ⌈⌊s/2⌋/w⌉; G = the reflection; D + 1
layers, sufficient (whether D suffice is open, O2).

Checked a second way: the case split against a breadth-first search written here, at every n from
s + Mw + ⌊s/2⌋ (below the theorem's range) over three periods, for every w ≤ 3 and seven strides each;
the theorem against the concrete engine (graphs, BLISS, rooted views) at every n ≤ 60 in its range;
the distance lemma (walk, one jump between two walks, or two jumps) against BFS on every pair at a few
lengths; the verifier's own entry, and a forged claim rejected.
"""
from __future__ import annotations

import json
from collections import deque

import pytest
import sympy

import uapcheck
from uapcheck import certfile
from uapcheck.graphs import families as F
from uapcheck.spec import PatternUnion, Strided, Window
from uapcheck.verifier import REJECTED, VERIFIED, verify

N = sympy.Symbol("n", integer=True, positive=True)


def _distances(n: int, w: int, s: int, src: int) -> list:
    dist = [-1] * (n + 1)
    dist[src] = 0
    queue = deque([src])
    while queue:
        u = queue.popleft()
        for v in list(range(max(1, u - w), min(n, u + w) + 1)) + list(range((u - 1) % s + 1, n + 1, s)):
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def _diameter(n: int, w: int, s: int) -> int:
    return max(max(_distances(n, w, s, u)[1:]) for u in range(1, n + 1))


def _middle(w: int, s: int) -> int:
    return 1 + -(-(s // 2) // w)


@pytest.mark.parametrize("w", [1, 2, 3])
def test_the_case_split_is_the_bfs_diameter(w):
    for s in range(2 * w + 2, 2 * w + 9):
        m = _middle(w, s)
        start = s + m * w + s // 2
        for n in range(start, start + 3 * s):
            want = m + (1 if F.stride_beyond_far(w, s, n % s) else 0)
            assert _diameter(n, w, s) == want, (w, s, n)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


@pytest.mark.parametrize("w, s, n", [(1, 5, 37), (2, 7, 40), (1, 6, 29)])
def test_the_distance_lemma_on_every_pair(w, s, n):
    """d(u, v) = min(⌈|v − u|/w⌉, 1 + min ⌈|x|/w⌉ + ⌈|y|/w⌉ over u + x, v − y in [1, n] of one class,
    2 + ⌈δ/w⌉) with δ the residue gap of v − u mod s."""
    for u in range(1, n + 1):
        dist = _distances(n, w, s, u)
        for v in range(1, n + 1):
            r = (v - u) % s
            best = min(_cdiv(abs(v - u), w), 2 + _cdiv(min(r, s - r), w))
            for x in range(1 - u, n - u + 1):
                for y in range(v - n, v):
                    if (u + x - (v - y)) % s == 0 and u + x != v - y:
                        best = min(best, 1 + _cdiv(abs(x), w) + _cdiv(abs(y), w))
            assert dist[v] == best, (u, v)


@pytest.mark.parametrize("w, s", [(1, 4), (1, 5), (1, 6)])
def test_f14_agrees_with_the_concrete_engine_at_every_n_in_range(w, s):
    pattern = PatternUnion((Window(w), Strided(s)))
    theorem = F.match([pattern], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F14"
    assert theorem.low == s * (4 * w + 3) and theorem.group == "reflection"
    # least on every class: Theorem F54 (b) for s = 5 (s odd, w | ⌊s/2⌋), Theorem F199 for s = 4, 6 (w = 1, s even)
    assert theorem.least is True
    for n in range(s * (4 * w + 3), 61):
        assert F.instance_check(theorem, pattern, {"n": n}) is None  # D, |G|, and M + 1 ≥ the least count


def test_the_printed_piecewise_of_window_1_strided_5():
    theorem = F.match([PatternUnion((Window(1), Strided(5)))], N, {})
    assert [F.at(theorem, {"n": n})["diameter"] for n in range(35, 45)] == [4, 3, 3, 3, 4, 4, 3, 3, 3, 4]


def test_symbolic_parameters_stay_open_question_o2():
    found = F.match([PatternUnion((Window("w"), Strided("s")))], N,
                    {"w": sympy.Symbol("w", integer=True, positive=True),
                     "s": sympy.Symbol("s", integer=True, positive=True)})
    assert isinstance(found, F.OpenFamily) and "O2" in found.question


def _source(pattern: str, tokens: str = "") -> str:
    return (f'architecture "stride"\n{tokens}attention {{\n  kernel k(x, y) = exp(x . y)\n'
            f"  pattern {pattern}\n}}\n")


def _cert(text: str) -> dict:
    return json.loads(json.dumps(certfile.build(uapcheck.check(text, "t.uap"), text)))


@pytest.mark.parametrize("tokens", ["", "tokens 300000\n"])
def test_the_verifier_rechecks_f14_with_its_own_entry(tokens):
    report = verify(_cert(_source("window(1) + strided(5)", tokens)))
    assert report.ok and report.complete
    for st in report.steps:
        if st.rule in ("PAT-CONNECTED", "PAT-LAYERS", "SYM-AUT"):
            assert st.outcome == VERIFIED and "Theorem F14" in st.reason


def test_a_large_n_is_decided_without_a_token_graph():
    result = uapcheck.check(_source("window(1) + strided(5)", "tokens 300000\n"), "t.uap")
    assert result.verdict == "UAP" and result.group.name == "reflection"
    assert result.layers == 4  # 300000 ≡ 0 (mod 5): D = 4 = M + 1, which suffice and are least (Theorem F54)


def test_the_verifier_rejects_a_forged_f14_diameter():
    cert = _cert(_source("window(1) + strided(5)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-CONNECTED")["data"]["diameter"] = 3
    report = verify(cert)
    assert not report.ok and any(s.rule == "PAT-CONNECTED" and s.outcome == REJECTED for s in report.steps)
