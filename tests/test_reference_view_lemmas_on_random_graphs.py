"""Three view lemmas of docs/theory.md §11.11 checked on random graphs that are no pattern at all, apart from the
engines: Theorem F198 (lemma X: the union's reflection ruled out at a position of every ball), Theorem F199 (a)
(lemma X′: a far clique with one pendant) and Theorems F181/F204 (lemma N, its search cut by the prefix types of
lemma F). Each lemma is a statement about graphs at one length, proved for any arcs; the tests of the patterns
(tests/test_reference_f198.py, f199, f204) read it on pattern arcs only, where the regular structure may hide a
counterexample. Here the premises are read on seeded random arcs, and wherever they hold the conclusion is compared
with brute force over S_n (tests/graphs/brute_views.py, n ≤ 7) and with the sweep's rooted views
(scripts/sweep_patterns.py: BLISS canonical forms, n ≤ 13). No engine is imported, except the quotient search of
F181/F204 itself, which is the thing compared."""
from __future__ import annotations

import functools
import itertools
import math
import random
import sys
from pathlib import Path

import pytest
from graphs.brute_views import least_layers as brute_least
from graphs.brute_views import view_witness

from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs import twin_views as V

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

BRUTE_N = 7


def nbs_of(arcs_list, n: int) -> list:
    """brute_views' closed neighbourhoods from arc sets (every (i, i) is in each set)."""
    return [[frozenset()] + [frozenset(j for (i, j) in arcs if i == v) for v in range(1, n + 1)] for arcs in arcs_list]


def closed(arcs, n: int) -> frozenset:
    return frozenset(arcs) | {(i, i) for i in range(1, n + 1)}


def least(arcs_list, n: int, D: int) -> int:
    """The least count, by brute force at n ≤ 7, else by the sweep's rooted views (D or D + 1)."""
    if n <= BRUTE_N:
        return brute_least(nbs_of(arcs_list, n), n)
    return SP.least_layers(arcs_list, n, D)


# ---------------------------------------------------------------------------------------------
# Theorem F198 (lemma X) on random digraph heads whose union has the reflection as its only symmetry

def _reflected(n: int, i: int, j: int) -> tuple:
    return n + 1 - i, n + 1 - j


def _random_reflection_union(rng: random.Random, n: int, p: float) -> frozenset:
    """A union kept by ρ: each ρ-orbit of ordered pairs taken with probability p."""
    arcs = set()
    for i, j in itertools.permutations(range(1, n + 1), 2):
        if (i, j) in arcs or _reflected(n, i, j) in arcs:
            continue
        if rng.random() < p:
            arcs |= {(i, j), _reflected(n, i, j)}
    return closed(arcs, n)


def _split(rng: random.Random, union: frozenset, n: int, heads: int, local: bool) -> list:
    """Heads whose union is `union`: each arc given to a non-empty random set of heads (self-arcs to all). When
    `local`, each ρ-orbit of arcs goes to one set of heads (every head kept by ρ) but for one or two arcs, which
    break ρ at their query positions alone (so (X₁) can fail at the roots far from them)."""
    out: list = [set() for _ in range(heads)]

    def some() -> list:
        return [h for h in range(heads) if rng.random() < 0.5] or [rng.randrange(heads)]

    loose = [a for a in sorted(union) if a[0] != a[1]]
    odd = set(rng.sample(loose, min(len(loose), rng.randint(1, 2)))) if local else set(loose)
    chosen: dict = {}
    for i, j in sorted(union):
        if i == j:
            for h in out:
                h.add((i, j))
            continue
        if (i, j) in odd or _reflected(n, i, j) not in chosen:
            chosen[(i, j)] = some()
        else:
            chosen[(i, j)] = chosen[_reflected(n, i, j)]
        for h in chosen[(i, j)]:
            out[h].add((i, j))
    return [frozenset(h) for h in out]


def _moved(arcs, n: int, v: int) -> bool:
    """ρ(N_h(v)) ≠ N_h(ρv) for the head's arcs."""
    image = {n + 1 - j for (i, j) in arcs if i == v}
    return image != {j for (i, j) in arcs if i == n + 1 - v}


def x1_holds(heads: list, n: int) -> bool:
    """(X₁) with K = n (the one-length argument needs no locality): every root i has v = i or v with i attending to
    v in some head, at which ρ moves some head's neighbourhood."""
    union = frozenset().union(*heads)
    return all(any(_moved(h, n, v) for h in heads for v in {i} | {j for (a, j) in union if a == i})
               for i in range(1, n + 1))


@functools.lru_cache(maxsize=1)
def _f198_cases() -> tuple:
    """(heads, n, D, x1) with F198's premises (a), (b) at n on random ρ-invariant unions split into 2 or 3 distinct
    heads."""
    rng = random.Random(21198)
    out = []
    for _ in range(700):
        n = rng.randint(4, 11)
        union = _random_reflection_union(rng, n, rng.choice((0.15, 0.25, 0.35)))
        D = SP.diameter([union], n)
        if D is None or D < 2:
            continue
        if SP.group_order([union], n) != 2:
            continue
        if SP.least_layers([union], n, D) != D:  # premise (a): D layers suffice for the union as one head
            continue
        heads = _split(rng, union, n, rng.choice((2, 2, 3)), rng.random() < 0.5)
        if len(set(heads)) < 2:
            continue
        out.append((tuple(heads), n, D, x1_holds(heads, n)))
    return tuple(out)


def test_lemma_x_cases_exist_on_both_sides():
    cases = _f198_cases()
    assert sum(1 for c in cases if c[3]) >= 60, len(cases)
    assert sum(1 for c in cases if not c[3]) >= 10, len(cases)


@pytest.mark.parametrize("chunk", range(3))
def test_lemma_x_d_layers_suffice_wherever_x1_holds(chunk):
    """The conclusion wherever (X₁) holds: the heads' least count is D (brute force at n ≤ 7)."""
    for heads, n, D, x1 in _f198_cases()[chunk::3]:
        if x1:
            assert least(list(heads), n, D) == D, (sorted(map(sorted, heads)), n, D)


def test_lemma_x_is_not_vacuous():
    """Where (X₁) fails, a witness of depth D can exist (so the premise carries weight): some case needs D + 1."""
    needs_more = [(n, D) for heads, n, D, x1 in _f198_cases() if not x1 and least(list(heads), n, D) > D]
    assert needs_more


def test_lemma_x_exclusion_of_rho_is_what_the_proof_says():
    """The proof's last step on every case at n ≤ 7: a σ that meets every head's view condition at i is id or ρ
    (from (a)), and ρ fails it exactly when a position of the ball has a moved neighbourhood."""
    seen = 0
    for heads, n, D, x1 in _f198_cases():
        if n > BRUTE_N or not x1:
            continue
        union = frozenset().union(*heads)
        nb = SP.neighbours([union], n)
        rho = [n + 1 - k for k in range(1, n + 1)]
        for i in range(1, n + 1):
            ball = {v for v, d in SP.depth(nb, n, i).items() if d <= D - 1}
            keeps = all({rho[j - 1] for (a, j) in h if a == v} == {j for (a, j) in h if a == rho[v - 1]}
                        for h in heads for v in ball)
            assert not keeps, (n, i)
        assert view_witness(nbs_of(list(heads), n), n, D) is None
        seen += 1
    assert seen >= 20, seen


# ---------------------------------------------------------------------------------------------
# Theorem F199 (a) (lemma X′) on random symmetric graphs

def _random_symmetric(rng: random.Random, n: int) -> frozenset:
    """A connected-ish sparse symmetric graph: a random spanning tree or path plus a few chords."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    arcs = set()
    for k in range(1, n):
        parent = order[rng.randrange(k)] if rng.random() < 0.6 else order[k - 1]
        arcs |= {(order[k], parent), (parent, order[k])}
    for _ in range(rng.randint(0, n)):
        a, b = rng.sample(range(1, n + 1), 2)
        arcs |= {(a, b), (b, a)}
    return closed(arcs, n)


def lemma_x_prime_premise(arcs, n: int, D: int, c: int) -> bool:
    """The premise of F199 (a) at every root, read on the arcs (written here from the statement)."""
    adj = {v: {j for (i, j) in arcs if i == v and j != v} for v in range(1, n + 1)}
    nb = SP.neighbours([arcs], n)
    for i in range(1, n + 1):
        dist = SP.depth(nb, n, i)
        ball = {v for v, d in dist.items() if d <= D - 1}
        far = [v for v in range(1, n + 1) if dist[v] == D]
        kappa = {x: len(adj[x] & ball) for x in far}
        Q = [x for x in far if kappa[x] <= c]
        P = [x for x in far if kappa[x] > c]
        if len(P) > 1 or any(y not in adj[x] for x, y in itertools.combinations(Q, 2)):
            return False
        for p in P:
            qs = [x for x in Q if x in adj[p]]
            if len(qs) != 1 or any(kappa[x] <= kappa[qs[0]] for x in Q if x != qs[0]):
                return False
    return True


def _has_pendant(arcs, n: int, D: int, c: int) -> bool:
    adj = {v: {j for (i, j) in arcs if i == v and j != v} for v in range(1, n + 1)}
    nb = SP.neighbours([arcs], n)
    for i in range(1, n + 1):
        dist = SP.depth(nb, n, i)
        ball = {v for v, d in dist.items() if d <= D - 1}
        if any(dist[x] == D and len(adj[x] & ball) > c for x in range(1, n + 1)):
            return True
    return False


@functools.lru_cache(maxsize=1)
def _f199_cases() -> tuple:
    rng = random.Random(21199)
    out = []
    for _ in range(1500):
        n = rng.randint(4, 12)
        arcs = _random_symmetric(rng, n)
        D = SP.diameter([arcs], n)
        if D is None or D < 2:
            continue
        for c in range(n):
            if lemma_x_prime_premise(arcs, n, D, c):
                out.append((arcs, n, D, c, _has_pendant(arcs, n, D, c)))
                break
    return tuple(out)


def test_lemma_x_prime_has_cases_with_a_pendant():
    cases = _f199_cases()
    assert len(cases) >= 80, len(cases)
    assert sum(1 for c in cases if c[4]) >= 15, sum(1 for c in cases if c[4])


@pytest.mark.parametrize("chunk", range(3))
def test_lemma_x_prime_d_layers_suffice_wherever_the_premise_holds(chunk):
    for arcs, n, D, c, _ in _f199_cases()[chunk::3]:
        assert least([arcs], n, D) == D, (sorted(arcs), n, D, c)


def test_lemma_x_prime_is_not_vacuous():
    """Where the premise fails at every c, a witness of depth D exists on some random graphs (n ≤ 7)."""
    rng = random.Random(211990)
    found = 0
    for _ in range(500):
        n = rng.randint(4, 7)
        arcs = _random_symmetric(rng, n)
        D = SP.diameter([arcs], n)
        if D is None or D < 2 or any(lemma_x_prime_premise(arcs, n, D, c) for c in range(n)):
            continue
        found += least([arcs], n, D) > D
    assert found >= 5, found


# ---------------------------------------------------------------------------------------------
# Theorems F181 and F204 (lemma N, lemma F) on random quotients: the search compared with brute force on the blow-up

def _random_quotient(rng: random.Random, k: int, total: int):
    """Random key sets In(t) ∋ t, pairwise distinct, and sizes c_t ≥ 1 summing to `total`."""
    while True:
        keys = [frozenset({t} | {u for u in range(k) if u != t and rng.random() < 0.4}) for t in range(k)]
        if len(set(keys)) == k:
            break
    cuts = sorted(rng.sample(range(1, total), k - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [total])]
    runs, lo = [], 1
    for c in sizes:
        runs.append(((lo, lo + c - 1, 1),))
        lo += c
    q = T.Quotient(total, tuple(runs), tuple(sizes), tuple(keys))
    cls = [t for t, c in enumerate(sizes) for _ in range(c)]
    arcs = frozenset((i, j) for i in range(1, total + 1) for j in range(1, total + 1)
                     if cls[j - 1] in keys[cls[i - 1]])
    return q, arcs


@functools.lru_cache(maxsize=1)
def _quotient_cases() -> tuple:
    rng = random.Random(21181)
    out = []
    for _ in range(1200):
        total = rng.randint(4, 12)
        k = rng.randint(2, min(total, 6))
        q, arcs = _random_quotient(rng, k, total)
        if SP.diameter([arcs], total) is None and rng.random() < 0.9:
            continue  # mostly strongly connected ones: the layer count is the point
        out.append((q, arcs))
    return tuple(out)


@pytest.mark.parametrize("chunk", range(3))
def test_the_quotient_search_against_brute_force_on_the_blow_up(chunk):
    """decide's connectivity, D, |G| and least count against the blow-up's arcs (BFS, BLISS, brute force over S_n
    at n ≤ 7, the sweep's rooted views above); a reported transposition is a witness on the arcs."""
    decided = 0
    for q, arcs in _quotient_cases()[chunk::3]:
        n = q.n
        found = V.decide(q)
        assert found is not None
        D = SP.diameter([arcs], n)
        if found.pair is not None:
            assert D is None, (q, found)
            continue
        assert D == found.diameter, (q, D, found)
        order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
        assert order == SP.group_order([arcs], n), (q, order)
        if D < 1:
            continue
        assert found.layers == least([arcs], n, max(D, 1)), (q, found, D)
        if found.swap is not None:
            r, t, u = found.swap
            first = [run[0][0] for run in q.runs]
            perm = list(range(1, n + 1))
            perm[first[t] - 1], perm[first[u] - 1] = first[u], first[t]
            assert not SP.in_group(perm, [arcs])
            assert SP.is_witness(perm, first[r], [arcs], n, found.diameter), (q, found.swap)
        decided += 1
    assert decided >= 50, decided
