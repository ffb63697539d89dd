"""Theorems F192 and F193 (docs/theory.md §11.9), checked apart from the engines: uapcheck's statement at `tokens n`
(its range, classes and below-range lengths, as the JSON gives them) read at lengths 4 ≤ n ≤ 60 and compared with the
sweep's reference at that n (scripts/sweep_patterns.py: BFS diameters, BLISS on an arc-path encoding, rooted views by
canonical forms; it imports no engine), on seeded random head tuples of the theorems' settings: `blocks(b)` |
`window(w)` and one-sided offsets beside a window (F192), `strided(s)` beside windows and offsets (F193). A layer
count below the reference's least, `least` claimed above it, another group order or another verdict fails. A sample
of lengths per file; every length with UAPCHECK_NIGHTLY=1."""
from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 60
SAMPLE = 6  # lengths per file in the normal run


def _f192(rng: random.Random):
    if rng.random() < 0.7:
        w = rng.randint(1, 7)
        b = rng.randint(2, w + 1) if rng.random() < 0.6 else rng.randint(2, 9)
        return [(("blocks", b),), (("window", w),)]
    w = rng.randint(1, 3)
    side = rng.choice((1, -1))
    offs = tuple(sorted({side * rng.randint(1, w + 1) for _ in range(rng.randint(1, 2))}))
    return [(("offsets", offs),), (("window", w),)]


def _f193(rng: random.Random):
    s = rng.randint(2, 5)
    kind = rng.random()
    if kind < 0.6:
        return [(("strided", s),), (("window", rng.randint(1, 3)),)]
    if kind < 0.8:
        return [(("strided", s),), (("offsets", (-1, 1)),)]
    return [(("strided", s), ("offsets", (rng.choice((-1, 1)),))), (("window", 1),)]


@functools.lru_cache(maxsize=None)
def _files(name: str) -> tuple:
    rng = random.Random(192 if name == "F192" else 193)
    draw = _f192 if name == "F192" else _f193
    out: list = []
    while len(out) < 20:
        heads = draw(rng)
        if heads not in out:
            out.append(heads)
    return tuple(tuple(h) for h in out)


def _lengths(rng: random.Random) -> list[int]:
    if NIGHTLY:
        return list(range(4, NMAX + 1))
    return sorted(rng.sample(range(4, 25), SAMPLE // 2) + rng.sample(range(25, NMAX + 1), SAMPLE - SAMPLE // 2))


def _check(heads, rng) -> tuple[int, int]:
    """(lengths stated, lengths stated least) of one file; asserts no unsound disagreement."""
    text = SP.file_text(list(heads), "n")
    result = SP.engine(text)
    assert result is not None, text
    stated = least = 0
    for n in _lengths(rng):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = SP.reference(list(heads), n)
        diffs = SP.compare_claim(claim, ref)
        assert not [d for d in diffs if d[0] in SP.UNSOUND], (text, n, claim, diffs)
        stated += 1
        least += bool(claim[3]) and not diffs
    return stated, least


@pytest.mark.parametrize("name", ["F192", "F193"])
@pytest.mark.parametrize("half", [0, 1])
def test_statement_at_every_sampled_length_against_the_reference(name, half):
    rng = random.Random(f"{name}-{half}")
    files = _files(name)[half * 10:(half + 1) * 10]
    stated = least = 0
    for heads in files:
        s, k = _check(heads, rng)
        stated += s
        least += k
    assert stated >= 5 * len(files), stated
    assert least >= 3 * len(files), least  # the theorems' least counts are met, not only bounds


def test_the_named_values():
    """`blocks(7)` | `window(6)`: ⌈(n − 1)/6⌉ layers, least, from n = 19; `strided(3)` | `window(1)`: 3, least,
    from n = 21, each against the reference at every n from the range's start to 40."""
    for heads, start in [([(("blocks", 7),), (("window", 6),)], 19), ([(("strided", 3),), (("window", 1),)], 21)]:
        result = SP.engine(SP.file_text(heads, "n"))
        assert result is not None
        for n in range(start, 41):
            claim = SP.claims_at(result, n)
            assert claim is not None, (heads, n)
            ref = SP.reference(heads, n)
            assert claim[0] == "UAP" and claim[2] == ref["layers"] == ref["diameter"] + (heads[0][0][0] == "strided"
                                                                                          and n % 3 != 0), (heads, n)
            assert claim[3], (heads, n)
