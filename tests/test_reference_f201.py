"""Theorem F201 (lemma Y, docs/theory.md §11.11): the group of `window(w) cyclic + strided(s)`, s ≥ w + 1, is D_n
(order 2n) when s | n and the reflection {id, ρ} otherwise, for n ≥ s(3w + 2). Checked apart from the engines on
arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference, no engine imported): the
order by nauty with Schreier–Sims and by BLISS, the named generators kept, at every n of the range up to NMAX (and a
whole period of n mod s past the start for every tuple), brute force over S_n being out of reach there; and the
statement `uapcheck` prints at `tokens n`, read at every length up to NMAX, never names a group other than the
reference's."""
from __future__ import annotations

import sys
from pathlib import Path

import pynauty
import pytest
from sympy.combinatorics import Permutation, PermutationGroup

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY, lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 72 if NIGHTLY else 60

# (w, s) with s ≥ w + 1: the family w + 1 ≤ s ≤ 2w + 1 (O6) and F26's strides 2w + 2, 2w + 3, and longer ones
TUPLES = [(1, 2), (1, 3), (1, 4), (1, 5), (1, 7), (2, 3), (2, 4), (2, 5), (2, 6), (2, 7), (3, 4), (3, 5), (3, 7),
          (4, 5)]


def head(w: int, s: int):
    return (("cyclic", w), ("strided", s))


def nauty_order(arcs, n: int) -> int:
    """|Aut| of one head's arcs (i ≠ j), exactly: nauty's generators on the undirected graph (the relation is
    symmetric here: cyclic distance and divisibility), Schreier–Sims for the order."""
    assert all((j, i) in arcs for i, j in arcs)
    adjacency = {v: sorted({j - 1 for i, j in arcs if i == v + 1 and j != i}) for v in range(n)}
    graph = pynauty.Graph(n, directed=False, adjacency_dict=adjacency)
    gens = [Permutation(list(g)) for g in pynauty.autgrp(graph)[0]]
    return 1 if not gens else int(PermutationGroup(gens).order())


def _keeps(perm, arcs) -> bool:
    return {(perm[i - 1], perm[j - 1]) for i, j in arcs} == set(arcs)


def _lengths(w: int, s: int):
    start = s * (3 * w + 2)
    return range(start, max(NMAX, start + s) + 1)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_the_group_at_every_length_of_the_range(w, s):
    for n in _lengths(w, s):
        arcs = SP.head_arcs(head(w, s), n)
        want = 2 * n if n % s == 0 else 2
        assert nauty_order(arcs, n) == want, (w, s, n)
        assert SP.group_order([arcs], n) == want, (w, s, n)
        assert _keeps([n + 1 - k for k in range(1, n + 1)], arcs)  # ρ
        assert _keeps([k % n + 1 for k in range(1, n + 1)], arcs) == (n % s == 0)  # the rotation by 1


def test_the_range_is_needed_somewhere():
    """Below s(3w + 2) the statement can fail: some tuple and length under the bound has another group (so the bound
    is not vacuous, and the engine must not read the theorem there)."""
    other = []
    for w, s in TUPLES:
        for n in range(2 * w + 3, s * (3 * w + 2)):
            want = 2 * n if n % s == 0 else 2
            if nauty_order(SP.head_arcs(head(w, s), n), n) != want:
                other.append((w, s, n))
    assert other


def _statement_lengths(w: int, s: int) -> list:
    """The lengths the statement is read at: every n up to NMAX with UAPCHECK_NIGHTLY=1; in the normal run every n
    below the range, a whole period of n mod s from its start s(3w + 2), and NMAX (the reference's rooted views cost
    about n³: the lengths past the first period were most of the file's time)."""
    return lengths(3, NMAX, s * (3 * w + 2) + s)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_the_symbolic_statement_names_the_reference_group(w, s):
    result = SP.engine(SP.file_text([head(w, s)], "n"))
    assert result is not None
    for n in _statement_lengths(w, s):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        verdict, order, layers, least = claim
        ref = SP.reference([head(w, s)], n)
        assert verdict == ref["verdict"], (w, s, n, claim)
        if verdict == "UAP":
            assert order == ref["order"], (w, s, n, claim, ref["order"])
            assert layers >= ref["layers"], (w, s, n, claim, ref["layers"])
            if least:
                assert layers == ref["layers"], (w, s, n, claim, ref["layers"])
