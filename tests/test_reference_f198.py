"""Theorem F198 (lemma X, docs/theory.md §11.11): where the union of several heads needs D layers with the reflection
ρ as its only symmetry, (X₁) — every root i has, within K of it, a position v (v = i or one i attends to) at which ρ
moves some head's neighbourhood — gives D layers, least, for the heads. Checked apart from the engines:

- the theorem itself at concrete lengths, on seeded random head tuples (windows, offsets, blocks, strides,
  dilations), premises and conclusion read on arcs written from docs/language.md's definitions
  (scripts/sweep_patterns.py's reference: BFS for D, BLISS for the groups, the sweep's rooted views for the least
  count, no engine imported) and by brute force over S_n (tests/graphs/brute_views.py) at n ≤ 7;
- the statement `uapcheck` prints at a symbolic n for the theorem's examples (and random tuples of the same shapes),
  read at every length up to NMAX against the same reference: never below the least count, and equal where `least`.
"""
from __future__ import annotations

import functools
import math
import random
import sys
from pathlib import Path

import pytest
from graphs.brute_views import least_layers as brute_least
from graphs.brute_views import neighbourhoods

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY, lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 48 if NIGHTLY else 40
#: The lengths the examples' statements are read at: every n up to NMAX with UAPCHECK_NIGHTLY=1; in the normal run every
#: n up to 28 (five whole periods of n mod b at least, for every block size b ≤ 5 of the examples) and NMAX itself
#: (the reference's rooted views cost about n³: the lengths from 29 to 39 were most of their time).
LENGTHS = lengths(3, NMAX, 28)
BRUTE_N = 7


def part_size(term) -> int:
    """F35's size of one part: w, |k| for k ∈ S, w'·r, s, b, g, 1."""
    kind, *a = term
    if kind in ("window", "cyclic", "strided", "blocks", "global"):
        return a[0]
    if kind in ("offsets", "offsets_cyclic"):
        return max(abs(k) for k in a[0])
    if kind == "dilated":
        return a[0] * a[1]
    return 1


def big_k(heads) -> int:
    return max([1] + [part_size(t) for h in heads for t in h])


def _attends(arcs, i: int, j: int) -> bool:
    return (i, j) in arcs


def xk_at(arcs_list, n: int, K: int, v: int) -> bool:
    """(X_K) at v: some head h and u ≠ v, |u − v| ≤ K, with 'v attends to u in h' ≠ 'ρv attends to ρu in h'."""
    rv = n + 1 - v
    return any(_attends(arcs, v, u) != _attends(arcs, rv, n + 1 - u)
               for arcs in arcs_list for u in range(max(1, v - K), min(n, v + K) + 1) if u != v)


def x1_at(arcs_list, n: int, K: int, i: int) -> bool:
    """(X₁) at i: a v with |v − i| ≤ K, v = i or i attending to v in some head, where (X_K) holds."""
    return any((v == i or any(_attends(arcs, i, v) for arcs in arcs_list)) and xk_at(arcs_list, n, K, v)
               for v in range(max(1, i - K), min(n, i + K) + 1))


def union_of(arcs_list) -> frozenset:
    return frozenset().union(*arcs_list)


def premises(heads, n: int):
    """(arcs, D, K) when F198's setting and (a), (b) hold at n (the union needs D layers as one head, its group is
    {id, ρ}), else None."""
    arcs_list = list(dict.fromkeys(SP.head_arcs(h, n) for h in heads))
    if len(arcs_list) < 2:
        return None
    union = union_of(arcs_list)
    D = SP.diameter([union], n)
    if D is None or SP.least_layers([union], n, D) != D:
        return None
    rho = [n + 1 - k for k in range(1, n + 1)]
    if SP.group_order([union], n) != 2 or not SP.in_group(rho, [union]):
        return None
    return arcs_list, D, big_k(heads)


# ---------------------------------------------------------------------------------------------
# The theorem at concrete lengths, on random tuples

def _term(rng: random.Random):
    kind = rng.choice(("window", "offsets", "blocks", "strided", "dilated", "window", "offsets"))
    if kind == "window":
        return ("window", rng.randint(1, 3))
    if kind == "offsets":
        return ("offsets", tuple(sorted(rng.sample([-3, -2, -1, 1, 2, 3], rng.randint(1, 2)))))
    if kind == "blocks":
        return ("blocks", rng.randint(2, 5))
    if kind == "strided":
        return ("strided", rng.randint(2, 4))
    return ("dilated", rng.randint(1, 2), rng.randint(2, 3))


def _tuple(rng: random.Random):
    heads = []
    for _ in range(rng.choice((2, 2, 3))):
        parts = {_term(rng) for _ in range(rng.randint(1, 2))}
        heads.append(tuple(sorted(parts)))
    return tuple(heads)


@functools.lru_cache(maxsize=1)
def _theorem_cases() -> tuple:
    """(heads, n, x_k everywhere) for seeded random tuples and lengths where F198's premises and (X₁) hold."""
    rng = random.Random(198)
    out = []
    for _ in range(900):
        heads = _tuple(rng)
        n = rng.randint(5, 26)
        got = premises(heads, n)
        if got is None:
            continue
        arcs_list, D, K = got
        if not all(x1_at(arcs_list, n, K, i) for i in range(1, n + 1)):
            continue
        out.append((heads, n, all(xk_at(arcs_list, n, K, v) for v in range(1, n + 1))))
    return tuple(out)


def test_enough_cases_where_x1_holds_and_xk_fails():
    cases = _theorem_cases()
    assert len(cases) >= 40, len(cases)
    assert sum(1 for c in cases if not c[2]) >= 10, [c for c in cases if not c[2]]  # F198's own cases, not F124's


@pytest.mark.parametrize("chunk", range(4))
def test_d_layers_suffice_wherever_the_premises_and_x1_hold(chunk):
    """The conclusion on the sweep's rooted views, and by brute force over S_n at n ≤ 7."""
    cases = _theorem_cases()[chunk::4]
    for heads, n, _ in cases:
        arcs_list, D, _K = premises(heads, n)
        text = " | ".join(SP.head_text(h) for h in heads)
        assert SP.least_layers(arcs_list, n, D) == D, (text, n, D)
        if n <= BRUTE_N:
            assert brute_least(neighbourhoods([SP.head_text(h) for h in heads], n), n) == D, (text, n, D)


# ---------------------------------------------------------------------------------------------
# The symbolic statement of the theorem's examples, read at every length

EXAMPLES = [
    ((("blocks", 3), ("offsets", (1,))), (("window", 3),)),
    ((("blocks", 3), ("offsets", (1, 2))), (("window", 2),)),
    ((("blocks", 3), ("offsets", (2,))), (("window", 5),)),
    ((("blocks", 3), ("offsets", (-1, 1))), (("window", 2),)),
    ((("blocks", 4), ("offsets", (1,))), (("window", 3),)),
    ((("blocks", 4), ("offsets", (-1,))), (("window", 4),)),
    ((("blocks", 4), ("offsets", (2,))), (("window", 3),)),
    ((("blocks", 4), ("offsets", (-1, 1))), (("window", 3),)),
    ((("blocks", 5), ("offsets", (-1,))), (("window", 5),)),
    ((("blocks", 3), ("strided", 2)), (("window", 1),)),
    ((("blocks", 4), ("strided", 2)), (("window", 3),)),
    ((("blocks", 4), ("strided", 3)), (("window", 2),)),
]


def _more_examples() -> list:
    """Random tuples of the examples' shape, blocks(b) + offsets A | window(w)."""
    rng = random.Random(1981)
    out = []
    while len(out) < 8:
        b = rng.randint(2, 5)
        offsets = tuple(sorted(rng.sample([-3, -2, -1, 1, 2, 3], rng.randint(1, 2))))
        heads = ((("blocks", b), ("offsets", offsets)), (("window", rng.randint(1, 5)),))
        if heads not in EXAMPLES and heads not in out:
            out.append(heads)
    return out


ALL = EXAMPLES + _more_examples()


@pytest.mark.parametrize("heads", ALL, ids=[" | ".join(SP.head_text(h) for h in t) for t in ALL])
def test_the_statement_at_every_length_against_the_reference(heads):
    text = " | ".join(SP.head_text(h) for h in heads)
    result = SP.engine(SP.file_text(list(heads), "n"))
    assert result is not None, text
    stated = 0
    for n in LENGTHS:
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = SP.reference(heads, n)
        verdict, order, layers, least = claim
        assert verdict == ref["verdict"], (text, n, claim, ref["verdict"])
        if verdict != "UAP":
            continue
        assert order == ref["order"], (text, n, claim, ref["order"])
        assert layers >= ref["layers"], (text, n, claim, ref["layers"])  # below the least count: unsound
        if least:
            assert layers == ref["layers"], (text, n, claim, ref["layers"])
        stated += 1
    if heads in EXAMPLES:
        assert stated >= NMAX // 2, (text, stated)


@pytest.mark.parametrize("heads", EXAMPLES[:9], ids=[" | ".join(SP.head_text(h) for h in t) for t in EXAMPLES[:9]])
def test_the_examples_are_f198_cases_on_the_reference(heads):
    """Each of the theorem's blocks + offsets | window examples has a length up to NMAX where F198's premises and
    (X₁) hold while (X_K) fails at some position (so F124 alone does not decide it), and the reference count is D."""
    hits = 0
    for n in (n for n in LENGTHS if n >= 6):
        got = premises(heads, n)
        if got is None:
            continue
        arcs_list, D, K = got
        if all(x1_at(arcs_list, n, K, i) for i in range(1, n + 1)) and \
                not all(xk_at(arcs_list, n, K, v) for v in range(1, n + 1)):
            assert SP.least_layers(arcs_list, n, D) == D, (heads, n)
            hits += 1
    assert hits >= 1, heads


def test_d_is_at_least_two_under_the_premises():
    """The proof's first step: a complete union has the group S_n, not {id, ρ}, for n ≥ 3."""
    for n in range(3, 9):
        union = SP.head_arcs((("window", n),), n)
        assert SP.diameter([union], n) == 1 and SP.group_order([union], n) == math.factorial(n)
