"""Theorem F171 (docs/theory.md §11.11): a head `blocks(b) + strided(s)` beside heads of hubs at a symbolic n, checked
apart from the engines. On seeded random (b, s, hubs) with g ≤ b, the statement `uapcheck` prints at a symbolic n
(group order by class of n, layers, least) is read at every length up to NMAX and compared with arcs written from
docs/language.md's definitions (tests/graphs/reference.py): the exact order by nauty with Schreier–Sims, D by BFS,
the least count by the sweep's rooted views and by brute force over S_n at n ≤ 7; the group's name is checked to name
the blocks, the classes and the hubs."""
from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import pytest
from test_reference_f197 import reference

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 48 if NIGHTLY else 30
UNIONS = 12 if NIGHTLY else 6


@functools.lru_cache(maxsize=1)
def _unions() -> tuple:
    rng = random.Random(171)
    out: list = [((("blocks", 2), ("strided", 3)), (("global", 2),))]
    while len(out) < UNIONS:
        b, s = rng.randint(2, 4), rng.randint(2, 4)
        grid = (("blocks", b), ("strided", s)) if rng.random() < 0.5 else (("strided", s), ("blocks", b))
        hubs = tuple((("global", rng.randint(1, b)),) if rng.random() < 0.6 else (("star",),)
                     for _ in range(rng.randint(1, 2)))
        heads = (grid,) + hubs
        if heads not in out:
            out.append(heads)
    return tuple(out)


@pytest.mark.parametrize("index", range(UNIONS))
def test_the_statement_at_every_length_against_the_reference(index):
    heads = _unions()[index]
    text = " | ".join(SP.head_text(h) for h in heads)
    result = SP.engine(SP.file_text(list(heads), "n"))
    assert result is not None, text
    name = result.to_dict()["group"].get("name") or ""
    stated = 0
    for n in range(2, NMAX + 1):
        claim = SP.claims_at(result, n)
        if claim is None:
            continue
        ref = reference(heads, n)
        if "brute_layers" in ref:
            assert ref["brute_layers"] == ref["layers"], (text, n, ref)
        verdict, order, layers, least = claim
        assert verdict == ref["verdict"], (text, n, claim, ref)
        assert order == ref["order"], (text, n, claim, ref["order"])  # a larger group than the family's: unsound
        if verdict == "UAP":
            assert layers >= ref["layers"], (text, n, claim, ref["layers"])
            if least:
                assert layers == ref["layers"], (text, n, claim, ref["layers"])
        stated += 1
    assert stated >= NMAX // 2, (text, stated)
    if "residue classes" in name:
        b = next(t[1] for t in heads[0] if t[0] == "blocks")
        s = next(t[1] for t in heads[0] if t[0] == "strided")
        assert f"blocks of {b}" in name and f"mod {s}" in name, (text, name)
