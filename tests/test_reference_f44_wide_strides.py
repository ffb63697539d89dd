"""Theorem F44 with F57, F58 and F66 above s = 7 (docs/theory.md §11.11, `blocks(b) + strided(s)`, 2 ≤ b < s, b ∤ s,
one period bL ≤ 72): the proofs never read s ≤ 7, so D, G and the least count are stated for s ≥ 8. Checked apart
from the engines on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's reference: BFS for
D, BLISS for |G|, the rooted views for the least count; no engine imported): the statement `uapcheck` prints at
`tokens n`, read at every length from the range's start max(bL, s(b + 1)) through LAST (or b lengths past the start), for seven pairs with s ∈ {8,
9, 10} (F57's D = 3, F58's and F66's D = 4, 5, 9, and (3, 10), which the theorem leaves sufficient): the order equal,
the count never below the least, and equal wherever `least`."""
from __future__ import annotations

import functools
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
LAST = 84 if NIGHTLY else 56
PAIRS = [(3, 8), (5, 8), (7, 8), (2, 9), (4, 9), (5, 9), (3, 10)]


def head(b: int, s: int):
    return (("blocks", b), ("strided", s))


def start(b: int, s: int) -> int:
    return max(b * (s // math.gcd(b, s)), s * (b + 1))


@functools.lru_cache(maxsize=None)
def reference(b: int, s: int, n: int) -> dict:
    return SP.reference([head(b, s)], n)


@pytest.mark.parametrize("b,s", PAIRS, ids=[f"blocks({b}) + strided({s})" for b, s in PAIRS])
def test_the_statement_at_every_length_against_the_reference(b, s):
    result = SP.engine(SP.file_text([head(b, s)], "n"))
    assert result is not None
    stated = least_read = 0
    for n in range(start(b, s), max(LAST, start(b, s) + b) + 1):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = reference(b, s, n)
        verdict, order, layers, least = claim
        assert verdict == ref["verdict"] == "UAP", (b, s, n, claim)
        assert order == ref["order"], (b, s, n, order, ref["order"])
        assert layers >= ref["layers"], (b, s, n, layers, ref["layers"])  # below the least count: unsound
        if least:
            assert layers == ref["layers"], (b, s, n, layers, ref["layers"])
            least_read += 1
        stated += 1
    assert stated >= 1, (b, s)
    if (b, s) != (3, 10):
        assert least_read >= 1, (b, s)


@pytest.mark.parametrize("b,s", PAIRS[:4], ids=[f"blocks({b}) + strided({s})" for b, s in PAIRS[:4]])
def test_a_concrete_length_against_the_reference(b, s):
    for n in (start(b, s) + 1, start(b, s) + b + 2):
        d = SP.engine(SP.file_text([head(b, s)], n)).to_dict()
        ref = reference(b, s, n)
        assert d["verdict"] == "UAP" and d["group"]["order"] == ref["order"], (b, s, n, d["group"])
        assert d["layers"] >= ref["layers"], (b, s, n, d["layers"], ref["layers"])
        if d["least"]:
            assert d["layers"] == ref["layers"], (b, s, n, d["layers"], ref["layers"])
