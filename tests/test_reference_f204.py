"""Theorem F204 (Lemma F, docs/theory.md §11.11): Theorem F181's class-map search cut at every prefix by the sizes of
the prefix types. A cut that dropped a completable map would hide a view witness and state D layers where D + 1 are
needed, so the search's answer (`graphs/twin_views.decide` on the twin quotient) is compared here with a reference
that shares nothing with it: arcs written from docs/language.md's definitions (scripts/sweep_patterns.py: BFS for D,
BLISS for |G|, the sweep's rooted views for the least count; no engine imported), at every n ≤ NMAX, on the theorem's
shapes and on seeded random blocks unions with strided, window, global, star, cyclic and dilated parts; and the
lemma's own statement (F) read on the reference arcs for the witnesses brute force finds at n ≤ 7."""
from __future__ import annotations

import functools
import math
import random
import sys
from pathlib import Path

import pytest

from uapcheck.errors import UapError
from uapcheck.graphs import twin_quotient as T
from uapcheck.graphs import twin_views as V
from uapcheck.parse import parse_source

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import sweep_patterns as SP  # noqa: E402

from sample_sizes import NIGHTLY, lengths  # tests/ is on sys.path: UAPCHECK_NIGHTLY=1
NMAX = 60 if NIGHTLY else 44
#: The lengths of the sweep: every n up to NMAX with UAPCHECK_NIGHTLY=1; in the normal run every n up to 30 (each class
#: of n mod b for the blocks of the shapes at least once) and the sweep's end, NMAX, and past 30 the first and the last
#: length of each run of lengths where the search states D + 1 layers or a disconnection (the reference's rooted views
#: cost about n³: the lengths from 31 to 43 were two thirds of the file's time; the nightly run reads every length).
LENGTHS = lengths(2, NMAX, 30)


def _decided(head) -> list:
    """(n, the quotient's search answer) at the lengths the sweep reads, where the search decides."""
    found = {}
    for n in range(2, NMAX + 1):
        q = _quotient(head, n)
        if q is not None and (answer := V.decide(q)) is not None:
            found[n] = (q, answer)

    def more(n: int) -> bool:  # D + 1 layers or a disconnection stated at n
        return n in found and (found[n][1].pair is not None or found[n][1].layers > found[n][1].diameter)
    return [(n, *found[n]) for n in sorted(found)
            if n in LENGTHS or (more(n) and not (more(n - 1) and more(n + 1)))]

SHAPES = [
    (("blocks", 9), ("strided", 7)), (("blocks", 15), ("strided", 7)), (("blocks", 20), ("strided", 5)),
    (("blocks", 12), ("global", 1), ("strided", 5)), (("blocks", 13), ("strided", 8)),
    (("blocks", 10), ("strided", 6), ("window", 1)), (("blocks", 8), ("global", 2), ("strided", 3)),
    (("blocks", 11), ("global", 1), ("window", 1)), (("blocks", 6), ("star",)),
]


def _random_heads() -> list:
    rng = random.Random(204)
    out: list = []
    while len(out) < 10:
        parts = {("blocks", rng.randint(3, 16))}
        for _ in range(rng.randint(1, 2)):
            kind = rng.choice(("strided", "strided", "window", "global", "star", "cyclic", "dilated"))
            if kind == "strided":
                parts.add(("strided", rng.randint(2, 9)))
            elif kind in ("window", "cyclic"):
                parts.add((kind, 1))
            elif kind == "global":
                parts.add(("global", rng.randint(1, 2)))
            elif kind == "dilated":
                parts.add(("dilated", 1, rng.randint(2, 5)))
            else:
                parts.add(("star",))
        head = tuple(sorted(parts))
        if head not in SHAPES and head not in out:
            out.append(head)
    return out


ALL = SHAPES + _random_heads()


def _quotient(head, n: int):
    try:
        spec = parse_source(SP.file_text([head], n), "t.uap")
    except UapError:
        return None
    return T.quotient(spec.heads[0].pattern, n, T.WIDE_CLASSES)


@functools.lru_cache(maxsize=None)
def _reference(head, n: int) -> dict:
    return SP.reference([head], n)


@pytest.mark.parametrize("head", ALL, ids=[SP.head_text(h) for h in ALL])
def test_the_cut_search_against_the_reference_at_every_n(head):
    decided = 0
    for n, q, found in _decided(head):
        ref = _reference(head, n)
        order = found.exchanges * math.prod(math.factorial(c) for c in q.sizes)
        assert order == ref["order"], (SP.head_text(head), n, order, ref["order"])
        if found.pair is not None:
            assert ref["verdict"] == "NOT-UAP", (SP.head_text(head), n)
            continue
        assert ref["verdict"] == "UAP" and found.diameter == ref["diameter"], (SP.head_text(head), n)
        # a count below the reference's least count would be unsound; the search states the least count
        assert found.layers == ref["layers"], (SP.head_text(head), n, found.layers, ref["layers"])
        decided += 1
    assert decided >= 5, (SP.head_text(head), decided)


WITNESS_HEADS = [(("blocks", 2), ("strided", 3)), (("blocks", 3), ("global", 1)), (("blocks", 2), ("star",)),
                 (("blocks", 3), ("window", 1)), (("blocks", 3), ("strided", 2)), (("blocks", 4), ("global", 1)),
                 (("blocks", 2), ("window", 1))]


def _types_balanced(arcs, n: int, sigma, K_positions) -> bool:
    """(F) on positions for a witness σ at the full prefix: for every set τ of the view's positions' key sets, the
    positions that lie in exactly the key sets U_v (v ∈ τ) are as many as those lying in exactly the U_{σv}."""
    keys = {v: frozenset(j for (i, j) in arcs if i == v) for v in range(1, n + 1)}
    K = sorted(K_positions)

    def profile(p, image: bool):
        return tuple(p in (keys[sigma[v - 1]] if image else keys[v]) for v in K)

    left: dict = {}
    right: dict = {}
    for p in range(1, n + 1):
        left[profile(p, False)] = left.get(profile(p, False), 0) + 1
        right[profile(p, True)] = right.get(profile(p, True), 0) + 1
    return left == right


def test_every_brute_force_witness_passes_the_prefix_cut():
    """A witness σ found by brute force over S_n (n ≤ 7) keeps every view position's key set onto its image's, so
    the positions' type counts balance: the lemma's necessary condition, read on the witness itself."""
    import itertools
    seen = 0
    for head, n in itertools.product(WITNESS_HEADS, range(4, 8)):
        arcs = SP.head_arcs(head, n)
        D = SP.diameter([arcs], n)
        if D is None:
            continue
        nb = SP.neighbours([arcs], n)
        for i in range(1, n + 1):
            ball = {v for v, d in SP.depth(nb, n, i).items() if d <= D - 1}
            for p in itertools.permutations(range(1, n + 1)):
                if SP.in_group(list(p), [arcs]):
                    continue
                if all({p[u - 1] for u in nb[v]} == nb[p[v - 1]] for v in ball):
                    assert _types_balanced(arcs, n, p, ball), (SP.head_text(head), n, i, p)
                    seen += 1
                    break
    assert seen >= 5, seen
