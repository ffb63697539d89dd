"""Theorem F202 (docs/theory.md §11.11): `window(1) cyclic + strided(2)` needs D = 2 layers, least, for n ≥ 10.
Checked apart from the engines, on arcs written from docs/language.md's definitions (scripts/sweep_patterns.py's
reference): the premise of the far-clique lemma (F97: the positions at distance D from each root form a clique) by
breadth-first search at every n from 10 to NMAX, the least count by the reference's rooted views (BLISS) at every n
from 10 to 40, and the statement `uapcheck` prints at `tokens n` (and at concrete lengths) read there."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 120 if NIGHTLY else 60
HEAD = (("cyclic", 1), ("strided", 2))


def test_the_far_positions_of_every_root_are_a_clique():
    for n in range(10, NMAX + 1):
        arcs = SP.head_arcs(HEAD, n)
        nb = SP.neighbours([arcs], n)
        assert SP.diameter([arcs], n) == 2, n
        for i in range(1, n + 1):
            far = [v for v, d in SP.depth(nb, n, i).items() if d == 2]
            assert all(b in nb[a] for a, b in itertools.combinations(far, 2)), (n, i, far)


def test_the_statement_against_the_rooted_views():
    result = SP.engine(SP.file_text([HEAD], "n"))
    read = 0
    for n in range(10, 41):
        arcs = SP.head_arcs(HEAD, n)
        assert SP.least_layers([arcs], n, 2) == 2, n
        claim = SP.claims_at(result, n)
        if claim is not None:
            verdict, _order, layers, least = claim
            assert verdict == "UAP" and layers >= 2, (n, claim)
            assert least and layers == 2, (n, claim)  # the theorem's statement, and the reference's count
            read += 1
    assert read >= 20, read
    for n in (10, 11, 1000, 1001):
        d = SP.engine(SP.file_text([HEAD], n)).to_dict()
        assert d["verdict"] == "UAP" and d["layers"] == 2 and d["least"], (n, d["layers"], d["least"])
