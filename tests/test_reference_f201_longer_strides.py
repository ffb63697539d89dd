"""Theorem F201 (lemma Y, docs/theory.md §11.11) past tests/test_reference_f201.py's lengths: the group of
`window(w) cyclic + strided(s)`, s ≥ w + 1, is D_n when s | n and the reflection otherwise for n ≥ s(3w + 2). That
file reads every n up to 60 (one period past the start), which for w ≥ 3 is the start alone; here w up to 6 and
strides up to 3w + 2, at every n of two whole periods from the range's start (n up to 234), by nauty with
Schreier–Sims on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference, no engine
imported), and the order `uapcheck` states at `tokens n` read at those lengths. And the premise s ≥ w + 1: for
s ≤ w the statement's formula fails at some length of the range, and the engine names no group there."""
from __future__ import annotations

import sys
from pathlib import Path

import pynauty
import pytest
from sympy.combinatorics import Permutation, PermutationGroup

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

TUPLES = [(3, 6), (3, 11), (4, 5), (4, 6), (4, 9), (4, 13), (5, 6), (5, 7), (5, 11), (6, 7), (6, 13), (2, 8),
          (1, 9)]


def head(w: int, s: int):
    return (("cyclic", w), ("strided", s))


def order(w: int, s: int, n: int) -> int:
    """|Aut| of the one head on n positions: nauty's generators, Schreier–Sims for the order."""
    adjacency = {v: [u for u in range(n) if u != v and (min(abs(u - v), n - abs(u - v)) <= w or (u - v) % s == 0)]
                 for v in range(n)}
    gens = [Permutation(list(g)) for g in pynauty.autgrp(pynauty.Graph(n, adjacency_dict=adjacency))[0]]
    return 1 if not gens else int(PermutationGroup(gens).order())


def test_the_adjacency_here_is_the_languages():
    for w, s, n in [(2, 3, 24), (3, 5, 30), (1, 9, 20)]:
        arcs = SP.head_arcs(head(w, s), n)
        mine = {(u + 1, v + 1) for u in range(n) for v in range(n)
                if u == v or min(abs(u - v), n - abs(u - v)) <= w or (u - v) % s == 0}
        assert arcs == mine


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_the_group_over_two_periods_from_the_start(w, s):
    start = s * (3 * w + 2)
    for n in range(start, start + 2 * s):
        assert order(w, s, n) == (2 * n if n % s == 0 else 2), (w, s, n)


STATED = [(3, 4), (3, 5), (3, 7), (4, 5), (4, 9), (5, 7)]


@pytest.mark.parametrize("w,s", STATED, ids=[f"window({w}) cyclic + strided({s})" for w, s in STATED])
def test_the_stated_order_at_lengths_past_sixty(w, s):
    """The order `uapcheck` states at `tokens n` (F201 for s ≤ 2w + 1, F26 for 2w + 2, 2w + 3), read at every
    length of one period from the range's start, against nauty."""
    result = SP.engine(SP.file_text([head(w, s)], "n"))
    assert result is not None
    start = s * (3 * w + 2)
    read = 0
    for n in range(start, start + s + 1):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        verdict, got, _layers, _least = claim
        assert verdict == "UAP", (w, s, n, claim)
        if got is not None:
            assert got == order(w, s, n), (w, s, n, claim)
            read += 1
    if s <= 2 * w + 1:
        assert read == s + 1, (w, s, read)


SHORT = [(2, 2), (3, 2), (3, 3), (4, 3), (4, 4), (5, 5)]


@pytest.mark.parametrize("w,s", SHORT, ids=[f"window({w}) cyclic + strided({s})" for w, s in SHORT])
def test_no_group_is_stated_for_strides_up_to_the_radius(w, s):
    """Outside the premise (s ≤ w) the engine states no order at symbolic n (F201 is not read there), and any order
    it states at a concrete length is nauty's."""
    result = SP.engine(SP.file_text([head(w, s)], "n"))
    assert result is not None
    for n in range(s * (3 * w + 2), s * (3 * w + 2) + s):
        claim = SP.claims_at(result, n)
        if claim is not None and claim[1] is not None:
            assert claim[1] == order(w, s, n), (w, s, n, claim)
    for n in (s * (3 * w + 2), s * (3 * w + 2) + 1):
        concrete = SP.engine(SP.file_text([head(w, s)], n))
        claim = SP.claims_at(concrete, n) if concrete is not None else None
        if claim is not None and claim[1] is not None:
            assert claim[1] == order(w, s, n), (w, s, n, claim)


def test_the_formula_fails_somewhere_for_strides_up_to_the_radius():
    """s ≤ w is outside F201 for a reason: window pairs lie in one class, and the formula fails at some length."""
    fails = [(w, s, n) for w, s in SHORT for n in range(2 * w + 3, s * (3 * w + 2) + 2 * s)
             if order(w, s, n) != (2 * n if n % s == 0 else 2)]
    assert fails
