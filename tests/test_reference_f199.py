"""Theorem F199 (lemma X′, docs/theory.md §11.11): a far clique with one pendant. (a) For one symmetric head, if at
every root i the positions at distance D split into a clique Q_i of those with at most c neighbours in the ball and at
most one pendant p adjacent to exactly one q ∈ Q_i, whose count of ball neighbours is the least in Q_i, then D layers
suffice; (b) `window(1) + strided(s)`, s even, needs M = s/2 + 1 layers, least, at every n ≥ 7s.

Checked apart from the engines, on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's
reference: BFS, BLISS, the sweep's rooted views; no engine imported): the lemma's premise read here, at every c, on
seeded random symmetric heads and lengths, and wherever it holds, no view witness at D (and brute force over S_n at
n ≤ 7); the theorem's count at every n from 7s to NMAX for s = 4, 6, 8 (and the unions it names); the statement
`uapcheck` prints at `tokens n` read at every length up to NMAX."""
from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import pytest
from graphs.brute_views import least_layers as brute_least
from graphs.brute_views import neighbourhoods

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY, lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 72 if NIGHTLY else 60


@functools.lru_cache(maxsize=None)
def _reference(heads: tuple, n: int) -> dict:
    """The reference of these heads at n (arcs from the definitions; no engine), computed once per file: the count
    test and the one head's statement read the same window(1) + strided(s) at the same lengths."""
    return SP.reference(list(heads), n)


@pytest.fixture(scope="module", autouse=True)
def _forget_references():
    yield
    _reference.cache_clear()


def _symmetric(arcs) -> bool:
    return all((j, i) in arcs for i, j in arcs)


def premise_holds(arcs, n: int, D: int, c: int) -> bool:
    """Lemma X′'s premise at every root, read on the arcs (one symmetric head)."""
    nb = SP.neighbours([arcs], n)
    adj = {v: nb[v] - {v} for v in nb}
    for i in range(1, n + 1):
        dist = SP.depth(nb, n, i)
        ball = {v for v, d in dist.items() if d <= D - 1}
        far = [v for v in range(1, n + 1) if v not in ball]
        kappa = {x: len(adj[x] & ball) for x in far}
        Q = [x for x in far if kappa[x] <= c]
        P = [x for x in far if kappa[x] > c]
        if any(y not in adj[x] for x in Q for y in Q if x != y):
            return False
        if len(P) > 1:
            return False
        if P:
            p = P[0]
            qs = [x for x in Q if x in adj[p]]
            if len(qs) != 1:
                return False
            if any(kappa[x] <= kappa[qs[0]] for x in Q if x != qs[0]):
                return False
    return True


def _term(rng: random.Random):
    kind = rng.choice(("window", "cyclic", "strided", "strided", "offsets", "dilated", "blocks"))
    if kind in ("window", "cyclic"):
        return (kind, rng.randint(1, 2))
    if kind == "strided":
        return ("strided", rng.randint(2, 8))
    if kind == "offsets":
        k = rng.randint(1, 4)
        return ("offsets", (-k, k))  # symmetric
    if kind == "dilated":
        return ("dilated", 1, rng.randint(2, 4))
    return ("blocks", rng.randint(2, 5))


@functools.lru_cache(maxsize=1)
def _lemma_cases() -> tuple:
    """(head, n, D, c) where the premise holds, over seeded random symmetric heads; and how many had a pendant."""
    rng = random.Random(199)
    out = []
    for _ in range(700):
        head = tuple(sorted({_term(rng) for _ in range(rng.randint(1, 3))}))
        n = rng.randint(5, 30)
        arcs = SP.head_arcs(head, n)
        if not _symmetric(arcs):
            continue
        D = SP.diameter([arcs], n)
        if D is None or D < 2:
            continue
        for c in range(0, 6):
            if premise_holds(arcs, n, D, c):
                out.append((head, n, D, c))
                break
    return tuple(out)


def _has_pendant(head, n: int, D: int, c: int) -> bool:
    arcs = SP.head_arcs(head, n)
    nb = SP.neighbours([arcs], n)
    for i in range(1, n + 1):
        dist = SP.depth(nb, n, i)
        ball = {v for v, d in dist.items() if d <= D - 1}
        if any(len((nb[x] - {x}) & ball) > c for x in range(1, n + 1) if x not in ball):
            return True
    return False


def test_the_lemma_on_random_symmetric_heads():
    cases = _lemma_cases()
    assert len(cases) >= 40, len(cases)
    pendants = 0
    for head, n, D, c in cases:
        arcs = SP.head_arcs(head, n)
        assert SP.least_layers([arcs], n, D) == D, (SP.head_text(head), n, D, c)
        if n <= 7:
            assert brute_least(neighbourhoods([SP.head_text(head)], n), n) == D, (SP.head_text(head), n)
        pendants += _has_pendant(head, n, D, c)
    assert pendants >= 3, pendants


S_VALUES = [4, 6, 8]


@pytest.mark.parametrize("s", S_VALUES)
def test_the_count_at_every_length_from_7s(s):
    """D = M = s/2 + 1 and no view witness at D, at every n from 7s (every class, F185's included)."""
    head = (("window", 1), ("strided", s))
    # every n with UAPCHECK_NIGHTLY=1; else a whole period of n mod s from 7s (every class) and the sweep's end
    for n in lengths(7 * s, max(NMAX, 7 * s + s), 7 * s + s):
        ref = _reference((head,), n)
        assert ref["verdict"] == "UAP" and ref["diameter"] == s // 2 + 1, (s, n, ref.get("diameter"))
        assert ref["layers"] == s // 2 + 1, (s, n, ref["layers"])


@pytest.mark.parametrize("s", S_VALUES)
def test_the_premise_y_at_every_root_on_f185s_classes(s):
    """The premise of (a) with c = 4 at every root, on the classes n mod s ∈ {0} ∪ {h + 2, …, s − 1}."""
    h = s // 2
    head = (("window", 1), ("strided", s))
    classes = {0} | set(range(h + 2, s))
    for n in range(7 * s, 7 * s + 2 * s):
        if n % s in classes:
            arcs = SP.head_arcs(head, n)
            assert premise_holds(arcs, n, h + 1, 4), (s, n)


def _union_lengths(heads) -> list:
    """Every n up to NMAX with UAPCHECK_NIGHTLY=1; in the normal run every n up to two whole periods of n mod s past 7s
    (each union's by-class range starts at 7s, s its stride: n ≥ 28 for s = 4, n ≥ 42 for s = 6) and NMAX itself."""
    s = next(t[1] for h in heads for t in h if t[0] == "strided")
    return lengths(5, NMAX, 9 * s)


UNIONS = [
    [(("strided", 4),), (("window", 1),)],
    [(("strided", 6),), (("window", 1),)],
    [(("strided", 4),), (("offsets", (-1, 1)),)],
    [(("strided", 4),), (("window", 1),), (("offsets", (1,)),)],
]


@pytest.mark.parametrize("heads", UNIONS, ids=[" | ".join(SP.head_text(h) for h in u) for u in UNIONS])
def test_the_named_unions_against_the_reference_and_their_statement(heads):
    text = " | ".join(SP.head_text(h) for h in heads)
    result = SP.engine(SP.file_text(heads, "n"))
    assert result is not None, text
    for n in _union_lengths(heads):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = _reference(tuple(heads), n)
        verdict, order, layers, least = claim
        assert verdict == ref["verdict"], (text, n, claim)
        if verdict == "UAP":
            assert order == ref["order"], (text, n, claim, ref["order"])
            assert layers >= ref["layers"], (text, n, claim, ref["layers"])
            if least:
                assert layers == ref["layers"], (text, n, claim, ref["layers"])


@pytest.mark.parametrize("s", S_VALUES + [10])
def test_the_one_head_statement_at_every_length(s):
    head = (("window", 1), ("strided", s))
    result = SP.engine(SP.file_text([head], "n"))
    assert result is not None
    # every n with UAPCHECK_NIGHTLY=1; else every n up to a whole period of n mod s past 7s, and the sweep's end
    for n in lengths(5, NMAX, 8 * s):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = _reference((head,), n)
        verdict, order, layers, least = claim
        assert verdict == ref["verdict"], (s, n, claim)
        if verdict == "UAP":
            assert order == ref["order"], (s, n, claim, ref["order"])
            assert layers >= ref["layers"], (s, n, claim, ref["layers"])
            if least:
                assert layers == ref["layers"], (s, n, claim, ref["layers"])


@pytest.mark.skipif(not NIGHTLY, reason="a whole period at n = 7s for s = 10, 12 (lengths 70 to 96): about two minutes")
@pytest.mark.parametrize("s", [10, 12])
def test_a_whole_period_from_7s_for_longer_strides(s):
    head = (("window", 1), ("strided", s))
    result = SP.engine(SP.file_text([head], "n"))
    assert result is not None
    for n in range(7 * s, 8 * s + 1):
        claim = SP.claims_at(result, n)
        ref = _reference((head,), n)
        assert claim is not None and claim[0] == "UAP", (s, n, claim)
        assert claim[1] == ref["order"] and ref["layers"] == s // 2 + 1, (s, n, claim, ref)
        assert claim[2] == ref["layers"] and claim[3], (s, n, claim, ref["layers"])
