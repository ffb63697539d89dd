"""Theorems F190 and F191 (docs/theory.md §11.9), checked apart from the engines: `window(w) cyclic` with non-cyclic
offsets A ≠ −A outside it, as one head (F190) or split into several heads (F191), stated at `tokens n` (range,
classes, below-range lengths) and read at sampled lengths 8 ≤ n ≤ 40 (every length up to 60 with
UAPCHECK_NIGHTLY=1) against the sweep's reference at that n (scripts/sweep_patterns.py, no engine imported): no
count below the least, no least above it, the reference's group order and verdict."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1


def _files() -> list:
    rng = random.Random(190)
    out: list = []
    while len(out) < 10:
        w = rng.randint(1, 2)
        offsets = tuple(sorted({rng.choice((1, -1)) * rng.randint(w + 1, w + 3) for _ in range(rng.randint(1, 2))}))
        if offsets == tuple(sorted(-a for a in offsets)):
            continue
        heads = ([(("cyclic", w), ("offsets", offsets))] if len(out) % 2 == 0
                 else [(("cyclic", w),), (("offsets", offsets),)])
        if heads not in out:
            out.append(heads)
    return out


@pytest.mark.parametrize("index", range(10))
def test_statement_against_the_reference(index):
    heads = _files()[index]
    text = SP.file_text(heads, "n")
    result = SP.engine(text)
    assert result is not None, text
    rng = random.Random(index)
    lengths = range(8, 61) if NIGHTLY else sorted(rng.sample(range(8, 41), 5))
    stated = 0
    for n in lengths:
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        diffs = SP.compare_claim(claim, SP.reference(heads, n))
        assert not [d for d in diffs if d[0] in SP.UNSOUND], (text, n, claim, diffs)
        stated += 1
    assert stated >= 3, (text, stated)
