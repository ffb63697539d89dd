"""Theorems F218, F219, F200 and F210 read at symbolic n as a count by class (docs/theory.md §11.11): `window(w) cyclic +
strided(s)` with w + 1 ≤ s ≤ 2w, and its two parts split over heads, state 2 layers, least, on n ≡ 0 (mod s) (Theorem
F218) and on the classes of Theorem F219's check (lemma AJ), and D + 1 = 3, least, on Theorem F200's (Theorem F210
for the heads): every class is decided.

Checked a second way: each class's count and least flag, read off the symbolic statement (the family theorem for the
one head, the PAT-LAYERS step of the derivation for the heads), against the concrete engine's rooted views (canonical
labelling; coloured views for the heads) at every n of two periods from the range's start, for six (w, s) (one head)
and four (split heads): never below the concrete least count, and equal to it on every class stated least."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import cyclic_covered_least as L
from uapcheck.graphs import families as F
from uapcheck.spec import Strided, Window

from .cyclic_window_strided_files import pattern, split_heads_checked
from .heads_engines import engine_least

N = sympy.Symbol("n", integer=True, positive=True)
#: (w, s) with w + 1 ≤ s ≤ 2w: F200 gives no class at (2, 3), one at (2, 4) and (3, 4), several at the others
ONE_HEAD = [(2, 3), (2, 4), (3, 4), (3, 5), (4, 6), (5, 7)]
SPLIT = [(2, 3), (2, 4), (3, 4), (3, 5)]


def _stated(layers, least: bool, least_classes: tuple, s: int) -> dict:
    """residue r of n mod s -> (the stated count on n ≡ r, whether it is stated least there)."""
    out = {}
    for r in range(s):
        n = s * 40 + r  # any length of the class: the count is a function of n mod s
        count = sympy.sympify(layers).xreplace({x: n for x in sympy.sympify(layers).free_symbols})
        on = least or bool(least_classes and r % least_classes[0] in least_classes[1])
        out[r] = (int(count), on)
    return out


def _check_classes(stated: dict, w: int, s: int) -> None:
    """The statement itself: 2 least on n ≡ 0 (F218) and on F219's classes, 3 least on F200's: every class decided."""
    classes, two = L.witness_classes(w, s), (0,) + L.suffice_classes(w, s)
    assert set(classes) | set(two) == set(range(s)), (w, s)
    for r, (count, least) in stated.items():
        assert (count, least) == ((2, True) if r in two else (3, True)), (w, s, r, count, least)


@pytest.mark.parametrize("w, s", ONE_HEAD)
def test_one_head_count_by_class_is_the_concrete_engine_s(w, s):
    theorem = F.match([pattern(w, s)], N, {})
    assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == "F201"
    stated = _stated(theorem.layers, theorem.least, theorem.least_classes, s)
    _check_classes(stated, w, s)
    low = L.low(w, s)
    for n in range(low, low + 2 * s):
        got = F.concrete(pattern(w, s), n)
        count, least = stated[n % s]
        assert got.diameter == 2 and got.least, n
        assert got.layers <= count, (n, got.layers, count)  # never below the least count
        if least:
            assert got.layers == count, (n, got.layers, count)
        # the theorem read at this length states the class's count and flag
        at = F.match([pattern(w, s)], sympy.Integer(n), {})
        assert int(at.layers) == count and at.least_at(n) == least, n


@pytest.mark.parametrize("w, s", SPLIT)
def test_split_heads_count_by_class_is_the_concrete_engine_s(w, s):
    r = split_heads_checked("n", w, s)
    assert r.verdict == "UAP"
    step = next(x for x in r.root.walk() if x.rule == "PAT-LAYERS")
    stated = _stated(step.facts["layers"], step.facts["least"], step.facts.get("least_classes") or (), s)
    _check_classes(stated, w, s)
    low = L.low(w, s)
    for n in range(low, low + 2 * s):
        d, suffice = engine_least([Window(w, True), Strided(s)], n)
        got = d if suffice else d + 1
        count, least = stated[n % s]
        assert d == 2 and got <= count, (n, got, count)
        if least:
            assert got == count, (n, got, count)
