"""Theorem F186 (docs/theory.md §11.11: several heads whose symmetries exchange residue classes), its examples stated at
`tokens n` (verdict, range, group, layers, least) and read at sampled lengths 4 ≤ n ≤ 36 (every length with
UAPCHECK_NIGHTLY=1) against the sweep's reference at that n (scripts/sweep_patterns.py, no engine imported)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1

FILES = [[(("offsets", (2,)),), (("blocks", 2),)], [(("offsets", (4,)),), (("blocks", 4),)],
         [(("blocks", 5),), (("offsets", (5,)),), (("star",),)], [(("blocks", 4),), (("dilated", 3, 2),)],
         [(("blocks", 6),), (("offsets", (3,)),), (("global", 2),)], [(("blocks", 3),), (("dilated", 1, 3), ("star",))]]


@pytest.mark.parametrize("index", range(len(FILES)))
def test_statement_against_the_reference(index):
    heads = FILES[index]
    text = SP.file_text(heads, "n")
    result = SP.engine(text)
    assert result is not None, text
    lengths = range(4, 37) if NIGHTLY else sorted(random.Random(index).sample(range(4, 37), 6))
    stated = 0
    for n in lengths:
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        diffs = SP.compare_claim(claim, SP.reference(heads, n))
        assert not [d for d in diffs if d[0] in SP.UNSOUND], (text, n, claim, diffs)
        stated += 1
    assert stated >= 4, (text, stated)
