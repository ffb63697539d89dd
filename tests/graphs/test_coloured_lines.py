"""Theorems F179 and F180 of docs/theory.md §11.11 (an anchor for several heads at symbolic n from the union's Theorem
F116 certificate, or from the arc-coloured union's own ball certificate with hubs): every closed form against the
concrete engine (graphs, BLISS) at every n ≤ 60 in its range, for random unions drawn with a fixed seed, and against a
count over S_n written in the test (partial maps extended position by position) at n ≤ 8."""
from __future__ import annotations

import functools
import random

import pytest
import sympy

from uapcheck.graphs import coloured_lines as CL
from uapcheck.graphs import head_intersection as HI
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Window

from sample_sizes import sample_size  # tests/ is on sys.path

from .reference import attends, count_automorphisms

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


_LINE = [Window(1), Window(2), Window(3), Dilated(1, 2), Dilated(2, 2), Dilated(1, 3), Dilated(2, 3), Offsets((1,)),
         Offsets((-1,)), Offsets((2,)), Offsets((-2, 1)), Offsets((-3, 1)), Offsets((1, 3)), Offsets((-1, 4)),
         Offsets((-4, 3)), Offsets((2, -5))]
_BLOCKS = [Blocks(2), Blocks(3), Blocks(4), Blocks(5), Blocks(6)]
_HUBS = [Star(), Global(2)]


def _random_head(rng):
    parts = []
    if rng.random() < 0.6:
        parts.append(rng.choice(_BLOCKS))
    parts += rng.sample(_LINE, rng.choice((0, 1, 1, 2)))
    if rng.random() < 0.2:
        parts.append(rng.choice(_HUBS))
    if not parts:
        parts.append(rng.choice(_LINE))
    return parts[0] if len(parts) == 1 else U(*parts)


def _anchored(heads):
    """The closed form when its anchor is Theorem F180's (or F179's union anchor), else None."""
    form = closed_group(list(heads), N)
    if form is None or form.cases[0].intersection is None:
        return None
    found = form.cases[0].intersection[0]
    if not isinstance(found, HI.Intersection) or found.anchor.head != -1 or not any(
            f"Theorem {t}" in found.anchor.source for t in ("F179", "F180")):
        return None
    return form


def _decided(count, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(4000):
        if len(out) == count:
            break
        heads = tuple(dict.fromkeys(_random_head(rng) for _ in range(rng.choice((2, 2, 3)))))
        if len(heads) < 2 or CL.decide(list(heads), {}) is None:
            continue
        form = _anchored(heads)
        if form is not None:
            out.append((heads, form))
    return out


#: the unions drawn: 15 in the normal run, the 30 of the full sample with UAPCHECK_NIGHTLY=1 (the first 15 are the same)
UNIONS = sample_size(15, 30)


@functools.cache
def decided() -> list:
    """The unions, drawn on first use (not at collection: every pytest worker collects every file)."""
    return _decided(UNIONS, seed=180)


def test_the_random_unions_are_decided():
    assert len(decided()) == UNIONS


@pytest.mark.parametrize("index", range(UNIONS))
def test_closed_form_matches_concrete_engine_at_every_n(index):
    heads, form = decided()[index]
    covered = 0
    for n in range(2, 3 * NMAX):
        if n > NMAX and covered >= 20:
            break
        case = form.at({N: n})
        if case is None:
            continue
        covered += 1
        got = symmetry_group([build_graph(h, n) for h in heads])
        assert int(case.order) == got.order, (heads, n, case.order, got.order)
    assert covered >= 20, (heads, covered)


def _brute_order(heads, n):
    pairs = [attends(h, n) for h in heads]
    return count_automorphisms(n, lambda u, v: tuple((v, u) in p for p in pairs))


def test_orders_against_brute_force_at_small_n():
    checked = 0
    for heads, form in decided():
        for n in range(2, 11):
            case = form.at({N: n})
            if case is not None:
                assert int(case.order) == _brute_order(heads, n), (heads, n)
                checked += 1
    assert checked >= 5


def test_exact_check_against_brute_force():
    """The onset's check (the coloured union's order by BLISS = the anchor maps that keep every head) agrees with a
    count over S_n at n ≤ 8: it holds exactly when every automorphism is one of those maps."""
    from uapcheck.graphs.head_intersection import keeps, perm
    for heads, _ in decided()[:8]:
        hubs = CL.line_heads(list(heads), {})[0]
        for n in range(hubs + 3, 9):
            codes = [None if g.complete else frozenset(g.codes) for g in (build_graph(h, n) for h in heads)]
            maps = CL.prefix_maps(hubs) if hubs else [("id",), ("refl", 1)]
            kept = sum(1 for e in maps if all(keeps(perm(e, n), c, n) for c in codes))
            assert CL.exact_at(list(heads), n, {}, hubs) == (kept == _brute_order(heads, n)), (heads, n)


def test_exchanges_and_split_lines_are_not_certified():
    """A periodic symmetry that permutes residues (blocks(5) | offsets {5} | star) or a line part that falls apart
    (dilated(3, 3) | global(2)) has no certificate: those unions stay undecided here."""
    assert CL.decide([Blocks(5), Offsets((5,)), Star()], {}) is None
    assert CL.decide([Dilated(3, 3), Global(2)], {}) is None
    assert CL.decide([U(Blocks(5), Offsets((2,))), Blocks(4)], {}) is None


def test_union_anchor_from_theorem_f116():
    """blocks(3) | dilated(2, 2): neither head has a small group; the union's F116 certificate (trivial ends) anchors
    it: the reflection when 3 | n, else trivial."""
    form = closed_group([Blocks(3), Dilated(2, 2)], N)
    assert form is not None
    found = form.cases[0].intersection[0]
    assert found.anchor.head == -1 and "F179" in found.anchor.source
    assert form.at({N: 999}).name == "reflection" and form.at({N: 1000}).name == "trivial"
    assert form.at({N: 1_048_576}).order == 1 and form.at({N: 1_048_575}).order == 2
