"""Theorem F191 of docs/theory.md §11.11 (several heads whose union is `window(w) cyclic` with non-cyclic offsets
A ≠ −A, Theorem F101's union with a trivial group): Theorem F190's colour premise and far swap read on the heads' arcs
coloured apart decide the least count on every class of n mod a + b. Every head tuple against the concrete engine
(coloured rooted views) at every n from the range's start to 60, and the colour lemma for heads at n ≤ 8 by brute
force over S_n (tests/graphs/brute_views.py, no code shared with the engine)."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs.cyclic_window_directed_least import heads_label
from uapcheck.show import show_pattern
from uapcheck.spec import Offsets, Window

from .brute_views import diameter as brute_diameter
from .brute_views import least_layers as brute_least
from .brute_views import neighbourhoods
from .heads_engines import closed_least, engine_least

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60

# (heads, the union's w and A): the union's one-head count has D + 1 on some class, so F70 does not apply (not decided
# on every class, so stated D + 1, sufficient: `offsets {3}` | `window(2) cyclic`, `offsets {−4}` | `window(3) cyclic`;
# beyond the check's work bound: `offsets {4}` | `window(1) cyclic`)
DECIDED = [
    ((Window(2), Offsets((-3,)), Window(1, True)), 1, (-3, -2, 2)),   # the referee sweep's file (seed 46)
    ((Offsets((2,)), Window(1, True)), 1, (2,)),
    ((Offsets((-2,)), Window(1, True)), 1, (-2,)),
    ((Offsets((3,)), Window(1, True)), 1, (3,)),
    ((Offsets((-3,)), Window(1, True)), 1, (-3,)),
    ((Window(2), Offsets((3,)), Window(1, True)), 1, (-2, 2, 3)),
    ((Offsets((-3,)), Offsets((2,)), Window(1, True)), 1, (-3, 2)),
    ((Offsets((-3, 2)), Window(1, True)), 1, (-3, 2)),
    ((Offsets((-2,)), Offsets((-3,)), Window(1, True)), 1, (-3, -2)),
    ((Offsets((-2,)), Offsets((3,)), Window(1, True)), 1, (-2, 3)),
    ((Offsets((2,)), Offsets((-1,)), Window(1, True)), 1, (2,)),
    ((Window(2), Offsets((-3,)), Offsets((1,), True), Offsets((-1,), True)), 1, (-3, -2, 2)),
]
IDS = [" | ".join(map(show_pattern, h)) for h, *_ in DECIDED]


def _at(expr, n: int) -> int:
    return int(sympy.sympify(expr, strict=True).xreplace({N: n}))  # safe: strict (no text parsed)


@pytest.mark.parametrize("heads,w,outside", DECIDED, ids=IDS)
def test_the_count_agrees_with_the_concrete_engine_at_every_n_in_range(heads, w, outside):
    found = closed_least(heads)
    assert found is not None and found.theorem in ("F191", "F70") and found.union_theorem == "F101"
    if found.theorem == "F191":
        assert (found.directed_heads.w, found.directed_heads.outside) == (w, outside)
    for n in range(found.low, NMAX + 1):
        d, suffices = engine_least(heads, n)
        assert d == _at(found.diameter, n), n
        assert _at(found.layers, n) == (d if suffices else d + 1), n


def test_the_sweeps_file_needs_d_layers_on_every_class():
    found = closed_least(DECIDED[0][0])
    assert found.theorem == "F191" and found.low == 17 and found.directed_heads.extra == (0, 0, 0, 0, 0)
    assert all(_at(found.layers, n) == _at(found.diameter, n) for n in range(17, 61))


def test_the_colour_lemma_for_heads_agrees_with_brute_force_over_s_n():
    """Where the premise holds on the heads' arcs at n ≤ 8, no view witness of the heads exists at depth D (their group
    at that length, whatever it is)."""
    checked = 0
    for heads, w, outside in DECIDED[:8]:
        for n in (7, 8):
            if n <= 2 * w + max(abs(k) for k in outside):
                continue
            if heads_label(tuple(heads), n, w, outside) == "premise":
                nbs = neighbourhoods([show_pattern(h) for h in heads], n)
                checked += 1
                assert brute_least(nbs, n) == brute_diameter(nbs, n), (heads, n)
    assert checked >= 4


def test_a_symmetric_union_is_not_f191_s():
    found = closed_least((Window(2), Window(1, True)))     # A = {±2}: F184's union, the reflection
    assert found is None or found.theorem != "F191"
