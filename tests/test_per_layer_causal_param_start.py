"""Theorem F158 (docs/theory.md §21.10): with one param width w among finite widths, the sharp start N_s(w) of
F137's range is one affine form in w for every w > Z, and the start stated (min(2u, max(A(w), S₀))) is at least
N_s(w) at every w ≥ L and equal to it for every w ≥ Z + 1 where it reads A(w).

Checked against Theorem F121's concrete decision (§21.6; the sharp start found by scanning every n below 2u + P, no
F137 (c) code) at every w from L to Z + 8 for random lists, and against §21.5's rooted views (no shared code) for
`periodic { causal & window(w), causal & window(2) }` at w = 4, 5, 6."""
from __future__ import annotations

import random

import pytest
import sympy

from uapcheck.graphs.layers_interval_forms import GrowingForm, count_at, flip_bound

from test_per_layer_causal_growing import PARAM_FINITE, form_of, text, views_count

N, W = sympy.Symbol("n", integer=True, positive=True), sympy.Symbol("w", integer=True, positive=True)


def scanned_start(L, form, w: int) -> int:
    """One past the last n ≥ 2 whose F121 count differs from the formula (2 if none), scanning up to 2u + P."""
    top = int(sympy.sympify(form.bound).xreplace({W: w})) + int(sympy.sympify(form.total).xreplace({W: w}))
    bad = [n for n in range(2, top + 1) if count_at(L, n, w) != int(form.layers.xreplace({N: n, W: w}))]
    return max(bad, default=1) + 1


@pytest.mark.parametrize("seed, lower", [(51, 2), (52, 1), (53, 4)])
def test_the_stated_start_is_never_below_the_sharp_one_and_equals_it_past_z(seed, lower):
    rng = random.Random(seed)
    params = f"param w integer >= {lower}\n"
    lists = sharp_everywhere = 0
    for _ in range(60):
        heads = [[rng.choice(PARAM_FINITE) for _ in range(rng.randint(1, 4))] for _ in range(rng.choice([1, 1, 2]))]
        if not any("(w)" in h for row in heads for h in row):
            continue
        try:
            L, form = form_of(heads, params)
        except Exception:  # a head whose width depends on w beside a larger integer, or a list of one pattern
            continue
        assert isinstance(form, GrowingForm)
        lists += 1
        start = sympy.sympify(form.start)
        affine = not start.has(sympy.Max, sympy.Min)
        sharp = True
        for w in range(lower, max(lower, flip_bound(L) + 1) + 8):
            stated, want = int(start.xreplace({W: w})), scanned_start(L, form, w)
            assert stated >= want, (heads, w, stated, want)
            assert stated <= int(sympy.sympify(form.bound).xreplace({W: w})), (heads, w)
            if w > flip_bound(L) and affine:
                assert stated == want, (heads, w, stated, want)
            sharp = sharp and stated == want
        sharp_everywhere += sharp
    assert lists >= 15 and sharp_everywhere >= 5, (lists, sharp_everywhere)


def test_the_start_against_the_rooted_views():
    """`periodic { causal & window(w), causal & window(2) }`, w ≥ 4: the count is the formula exactly from n = w + 4
    (it was stated from 2w), by §21.5's rooted views at every n up to 40; n = w + 3 has one layer more."""
    L, form = form_of([["causal & window(w)", "causal & window(2)"]], "param w integer >= 4\n")
    assert sympy.simplify(sympy.sympify(form.start) - (W + 4)) == 0
    for w in (4, 5, 6):
        heads = [[f"causal & window({w})", "causal & window(2)"]]
        for n in range(w + 3, 41):
            want = int(form.layers.xreplace({N: n, W: w}))
            got = views_count(heads, n)
            assert (got == want) == (n >= w + 4), (w, n, got, want)


def test_the_file_states_the_sharper_range_and_verifies():
    import json

    import uapcheck
    from uapcheck import certfile
    from uapcheck.verifier import verify
    from uapcheck.verifier.check import VERIFIED
    src = "param w integer >= 4\n" + text([["causal & window(w)", "causal & window(2)"]])
    r = uapcheck.check(src, "t.uap")
    assert r.verdict == "UAP" and r.target.range == "n ≥ w + 4", r.target.range
    rep = verify(json.loads(json.dumps(certfile.build(r, src))))
    assert rep.problems == [] and all(s.outcome == VERIFIED for s in rep.steps)
