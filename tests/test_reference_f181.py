"""Theorem F181 (Lemma N, docs/theory.md §11.11): a union with few wide blocks decided on its twin quotient at the true
class sizes, checked apart from the engines. The class-map search (graphs/twin_views.decide, called on the quotient
directly, since at small n the engine takes Lemma L's stand-in first) on seeded random heads `blocks(b)` with at most
eight blocks beside strided, global, star, window, cyclic window, offsets, cyclic offsets and dilated parts, against
arcs written from docs/language.md's definitions (tests/graphs/reference.py: BFS, nauty with Schreier–Sims for the
exact order), the sweep's rooted views and brute force over S_n (tests/graphs/brute_views.py) at n ≤ 7; and the
statement `uapcheck` prints at the true sizes where no stand-in exists (blocks(600000) + strided(4) at 1,048,576)
against its count by hand."""
from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from test_reference_f197 import reference

from uapcheck.errors import UapError
from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs import twin_views as V
from uapcheck.parse import parse_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
CASES = 160 if NIGHTLY else 70
NMAX = 40 if NIGHTLY else 26


def _part(rng: random.Random):
    kind = rng.choice(("strided", "strided", "global", "star", "window", "cyclic", "offsets", "offsets_cyclic",
                       "dilated"))
    if kind == "strided":
        return (kind, rng.randint(2, 5))
    if kind in ("global", "window", "cyclic"):
        return (kind, rng.randint(1, 3))
    if kind in ("offsets", "offsets_cyclic"):
        return (kind, tuple(sorted({rng.choice((-4, -3, -2, -1, 1, 2, 3, 4)) for _ in range(rng.randint(1, 2))})))
    if kind == "dilated":
        return (kind, rng.randint(1, 2), rng.randint(2, 4))
    return ("star",)


def _decided(head, n: int):
    """Lemma N's answer as (verdict, |G|, D, layers), or None when it stands aside."""
    try:
        spec = parse_source(SP.file_text([head], n), "t.uap")
    except UapError:
        return None
    q = T.quotient(spec.heads[0].pattern, n)
    if q is None:
        return None
    found = V.decide(q)
    if found is None:
        return None
    order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
    if found.pair is not None:
        return ("NOT-UAP", order, None, None)
    return ("UAP", order, found.diameter, found.layers)


def test_the_class_map_search_against_the_reference():
    rng = random.Random(181)
    decided = witnesses = 0
    for _ in range(CASES):
        n = rng.randint(4, NMAX)
        b = rng.randint(max(2, -(-n // 8)), n + 2)
        head = (("blocks", b),) + tuple(_part(rng) for _ in range(rng.choice((1, 1, 2))))
        got = _decided(head, n)
        if got is None:
            continue
        decided += 1
        ref = reference((head,), n)
        text = SP.head_text(head)
        assert got[:2] == (ref["verdict"], ref["order"]), (text, n, got, ref)
        if got[0] == "UAP":
            # the route states the least count: below it is unsound, above it a wrong `least`
            assert got[2:] == (ref["diameter"], ref["layers"]), (text, n, got, ref)
            witnesses += got[3] == got[2] + 1
        if "brute_layers" in ref:
            assert ref["brute_layers"] == ref["layers"], (text, n, ref)
    assert decided >= 30 and witnesses >= 3, (decided, witnesses)


def test_the_true_sizes_where_no_stand_in_exists():
    """blocks(600000) + strided(4) at n = 2^20: the cells are the block × class intersections (four of 150,000 and
    four of 112,144); the quotient is the rook's graph K_2 □ K_4 with the blocks told apart by their sizes, so
    |G| = 4! · 150000!^4 · 112144!^4; D = 2 (two cells of different blocks and classes), and 2 layers least (the rook
    graph's views: each root's ball of depth 1 is its row and column, and a permutation keeping those arcs keeps
    the cells — checked on the scaled-down blocks(6) + strided(4) at n = 10 against the reference)."""
    result = SP.engine(SP.file_text([(("blocks", 600000), ("strided", 4))], 1048576))
    assert result is not None
    d = result.to_dict()
    assert (d["verdict"], d["layers"], d["least"]) == ("UAP", 2, True), d
    order = d["group"]["order"]
    assert order.startswith("24 · 150000! · 150000! · 150000! · 150000! · 112144! · 112144! · 112144! · 112144!"), order
    small = reference(((("blocks", 6), ("strided", 4)),), 10)
    assert (small["diameter"], small["layers"]) == (2, 2), small
    assert small["order"] == 2 * math.factorial(2) ** 2 * 1 * 2, small
