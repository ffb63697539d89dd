"""Theorem F200 (lemma AA, docs/theory.md §11.11): the least layer count of one head `window(w) cyclic + strided(s)`,
w + 1 ≤ s ≤ 2w + 1 (D = 2 by Theorem F197, G by Theorem F201), by class of n mod s from n = s(3w + 2). Checked apart
from the engines on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference: BFS for
D, BLISS canonical forms of the rooted views for the least count; no engine imported):

- the count and `least` flag `uapcheck` states at `tokens n`, read at every length from the range's start through
  two whole periods (every n ≤ 60 nightly), against the reference: never below it, and equal wherever `least`;
- the residues where the reference needs 3 layers are a union of classes mod s (the same at two lengths of each
  class), so a statement by class can be right;
- every witness the theorem names at a length is a view witness of depth 2 on the reference arcs (σ outside G,
  keeping N(v) for every v within distance 1 of the root)."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
# (w, s) with w + 1 ≤ s ≤ 2w + 1; start s(3w + 2) ≤ 55 by default (a period of lengths up to 60 costs about 40 s)
TUPLES = [(1, 2), (1, 3), (2, 3), (2, 4), (2, 5), (3, 4), (3, 5)]
if NIGHTLY:
    TUPLES += [(3, 6), (3, 7), (4, 5), (4, 6), (5, 6)]


def head(w: int, s: int):
    return (("cyclic", w), ("strided", s))


def start(w: int, s: int) -> int:
    return s * (3 * w + 2)


@functools.lru_cache(maxsize=None)
def reference_layers(w: int, s: int, n: int) -> int:
    a = SP.head_arcs(head(w, s), n)
    D = SP.diameter([a], n)
    assert D == 2, (w, s, n, D)
    return SP.least_layers([a], n, D)


def lengths(w: int, s: int) -> range:
    """Two whole periods from the start (every n ≤ 60 in the nightly run)."""
    return range(start(w, s), max(60 if NIGHTLY else 0, start(w, s) + 2 * s) + 1)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_the_reference_count_is_one_value_per_class(w, s):
    """3 layers or 2 by residue: the reference agrees at two lengths of each class (s apart) from the start."""
    for n in range(start(w, s), start(w, s) + s):
        assert reference_layers(w, s, n) == reference_layers(w, s, n + s), (w, s, n)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_the_statement_at_every_length_against_the_reference(w, s):
    result = SP.engine(SP.file_text([head(w, s)], "n"))
    assert result is not None
    for n in lengths(w, s):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        verdict, _order, layers, least = claim
        assert verdict == "UAP", (w, s, n, claim)
        want = reference_layers(w, s, n)
        assert layers >= want, (w, s, n, claim, want)  # below the least count: unsound
        if least:
            assert layers == want, (w, s, n, claim, want)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_a_concrete_length_of_each_class(w, s):
    """`tokens n` at one integer length of each class from the start: the count and flag against the reference."""
    for n in range(start(w, s), start(w, s) + s):
        result = SP.engine(SP.file_text([head(w, s)], n))
        assert result is not None
        d = result.to_dict()
        assert d["verdict"] == "UAP", (w, s, n)
        want = reference_layers(w, s, n)
        assert d["layers"] >= want, (w, s, n, d["layers"], want)
        if d["least"]:
            assert d["layers"] == want, (w, s, n, d["layers"], want)


@pytest.mark.parametrize("w,s", TUPLES, ids=[f"window({w}) cyclic + strided({s})" for w, s in TUPLES])
def test_every_named_witness_is_one_on_the_reference_arcs(w, s):
    """Each class the theorem decides has its witness checked here by the definition at two lengths of the class
    (σ outside G, keeping N(v) for every v within distance 1 of the root); the classes are exactly the reference's
    3-layer classes (so no class needing 3 is left sufficient where the witness search missed it, and none needing
    2 is called least)."""
    from uapcheck.graphs import cyclic_covered_least as F
    classes = set(F.witness_classes(w, s))
    assert classes == {n % s for n in range(start(w, s), start(w, s) + s) if reference_layers(w, s, n) == 3}, (w, s)
    for n in range(start(w, s), start(w, s) + 2 * s):
        found = F.witness(w, s, n)
        assert (found is not None) == (n % s in classes), (w, s, n)
        if found is None:
            continue
        root, cycles = found
        perm = list(range(1, n + 1))
        for a, b in cycles:
            perm[a - 1], perm[b - 1] = b, a
        assert SP.is_witness(perm, root, [SP.head_arcs(head(w, s), n)], n, 2), (w, s, n, found)


def test_the_catalog_statement_by_class():
    """`window(5) cyclic + strided(7)` at `tokens n`: 2 layers, least, on 7 | n (Theorem F218) and on n ≡ 5, 6
    (Theorem F219), 3, least, on n mod 7 ∈ {1, …, 4} (Theorem F200). (The reference finds 3 layers exactly on the
    classes 1, …, 4 over the period n = 119 … 125, and 2 on n ≡ 0, 5, 6: about 5 s a length, read once when this test
    was written and not repeated here.)"""
    result = SP.engine(SP.file_text([head(5, 7)], "n"))
    for n in range(119, 126):
        verdict, _order, layers, least = SP.claims_at(result, n)
        assert verdict == "UAP" and layers == (2 if n % 7 in (0, 5, 6) else 3), (n, layers)
        assert least, (n, layers, least)
