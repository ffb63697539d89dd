"""Theorem F218 and lemma AH (docs/theory.md §11.11): `window(w) cyclic + strided(s)`, w + 1 ≤ s ≤ 2w, at n ≡ 0 (mod s),
n ≥ s(3w + 2): no view witness with 2 layers, so D = 2 layers suffice and are least, for the one head and for the
heads of Theorem F210 (the parts split over heads).

Checked a second way: the proof's steps on arcs written from docs/language.md's definitions (tests/graphs/reference.py):
(1) the members of the root's class and of its window are told apart by their common neighbours with the root, (2) the
level |u| of a window position is 2w + 1 + h(u) − f(u), (4) two class members share a far position's trace exactly
when they are consecutive and both differ from the root, (5) the far positions' traces are pairwise distinct; and the
count (2, least) against the concrete engine's rooted views (canonical labelling) for the one head and the split heads
at the first three lengths of the class for eight (w, s)."""
from __future__ import annotations

import pytest

import uapcheck
from uapcheck.render.verdict_lines import layers_least
from uapcheck.spec import PatternUnion, Strided, Window

from .reference import closed_neighbourhoods

FAMILY = [(2, 3), (2, 4), (3, 4), (3, 5), (3, 6), (4, 5), (4, 7), (5, 8)]
HEAD = "attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {p}\n}}\n"


def lengths(w: int, s: int) -> list[int]:
    return [s * (3 * w + 2 + k) for k in range(3)]


def _cyclic(u: int, n: int) -> int:
    """The signed cyclic offset of position u from the root n (0), in (−n/2, n/2]."""
    d = u % n
    return d if d <= n // 2 else d - n


@pytest.mark.parametrize("w, s", FAMILY)
def test_the_steps_of_lemma_ah_on_reference_arcs(w, s):
    for n in lengths(w, s)[:2]:
        nb = closed_neighbourhoods(PatternUnion((Window(w, True), Strided(s))), n)
        root = n  # residue 0: the root 0 of the proof
        ball = nb[root]
        cls = {v for v in range(1, n + 1) if v % s == 0}
        win = {v for v in ball if abs(_cyclic(v, n)) <= w}
        assert ball == cls | win and cls & win == {root}
        # (1) common neighbours with the root split the class from the window
        assert min(len(nb[v] & ball) for v in cls - {root}) > max(len(nb[v] & ball) for v in win - {root})
        # (2) the level function
        for u in win - {root}:
            h = int(bool(nb[u] & (cls - {root})))
            assert abs(_cyclic(u, n)) == 2 * w + 1 + h - len(nb[u] & win), (n, u)
        far = [x for x in range(1, n + 1) if x not in ball]
        trace = {x: frozenset(nb[x] & ball) for x in far}
        # (4) the consecutive relation on the class without the root
        related = {frozenset((a, b)) for x in far for a in trace[x] & cls for b in trace[x] & cls if a != b}
        want = {frozenset((k * s, k * s + s)) for k in range(1, n // s - 1)}
        assert related == want, n
        # (5) pairwise distinct traces at distance 2
        assert len(set(trace.values())) == len(far), n


def source(n: int, w: int, s: int, kinds: tuple) -> str:
    text = {"window": f"window({w}) cyclic", "strided": f"strided({s})", "union": f"window({w}) cyclic + strided({s})"}
    return f"tokens {n}\n" + "".join(HEAD.format(p=text[k]) for k in kinds)


@pytest.mark.parametrize("w, s", FAMILY)
def test_two_layers_are_least_by_the_rooted_views(w, s):
    for n in lengths(w, s):
        for kinds in (("union",), ("window", "strided")):
            r = uapcheck.check(source(n, w, s, kinds), "t.uap")
            assert r.verdict == "UAP" and (r.layers, layers_least(r)) == (2, True), (n, kinds)


BIG = 70_000  # 7 | n: the strided head alone has about 7 × 10⁸ arcs, so the closed forms answer at n


def _big_certificate() -> dict:
    from certificates import certificate_of
    return certificate_of(source(BIG, 5, 7, ("window", "strided")))


def test_without_the_arcs_the_split_heads_read_f218_and_the_verifier_restates_it():
    from certificates import forged, rejects, with_text

    from uapcheck.verifier import verify
    r = uapcheck.check(source(BIG, 5, 7, ("window", "strided")), "t.uap")
    assert r.verdict == "UAP" and (r.layers, layers_least(r)) == (2, True)
    cert = _big_certificate()
    report = verify(cert)
    assert report.ok and report.complete, [(x.rule, x.outcome, x.reason) for x in report.steps]
    reason = next(x for x in report.steps if x.rule == "PAT-LAYERS").reason
    assert "F218" in reason or "F86" in reason, reason  # F210's entry, or F86 on the union's count by class
    assert rejects(forged(cert, "PAT-LAYERS", "least", False), "PAT-LAYERS")
    assert rejects(forged(cert, "PAT-LAYERS", "layers", 1), "PAT-LAYERS")  # below D
    moved = with_text(cert, f"tokens {BIG}", f"tokens {BIG + 1}")  # 70,001 ≡ 1 (mod 7): F200's witness, 3 layers
    next(x for x in moved["steps"] if x["rule"] == "PAT-LAYERS")["certificate"]["n"] = BIG + 1
    assert rejects(moved, "PAT-LAYERS")


def test_the_kernel_re_checks_lemma_ah_and_its_premises():
    from uapcheck.certificates import CoveredStrideHeads, _lemma_ah_problem
    from uapcheck.graphs import cyclic_covered_heads as H
    found = H.match([Window(5, True), Strided(7)])
    CoveredStrideHeads((Window(5, True), Strided(7)), found, BIG).check()
    assert _lemma_ah_problem(5, 7, 126) == "" and "not a multiple" in _lemma_ah_problem(5, 7, 127)
    assert _lemma_ah_problem(2, 5, 40) != ""  # s = 2w + 1: F200's block exchange, and the far relation is empty


def test_s_equal_to_2w_plus_1_keeps_f200_s_witness_at_a_multiple():
    r = uapcheck.check(source(40_000, 2, 5, ("window", "strided")), "t.uap")  # 5 | n, but s = 2w + 1
    assert r.verdict == "UAP" and (r.layers, layers_least(r)) == (3, True)
