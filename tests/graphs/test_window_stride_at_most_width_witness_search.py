"""Theorem F7's step (6″) (docs/theory.md §11.11): `window(w) + strided(s)` with 8 ≤ s ≤ w + 1 needs D = 2 layers,
least (formerly s ≤ 7 only). The statement read at `tokens n` and at `tokens <n>` against a view-witness search by
backtracking written apart from the engine (tests/graphs/backtrack_views.py): no witness at depth 2 at every root near
the start (the end cells, where refining N(i) alone fails; the reflection carries the roots near the end onto them),
at the range's first length for (w, s) = (7, 8) and at s | n for (8, 8)."""
from __future__ import annotations

import pytest
import sympy

import uapcheck

from .backtrack_views import view_witness
from .brute_views import neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)


def _text(pattern: str, tokens: str) -> str:
    return f'architecture "x"\ntokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n'


@pytest.mark.parametrize("w, s, n", [(7, 8, 248), (8, 8, 280)])
def test_two_layers_are_stated_least_and_no_witness_exists_at_depth_two(w, s, n):
    pattern = f"window({w}) + strided({s})"
    symbolic = uapcheck.check(_text(pattern, "n"))
    assert symbolic.verdict == "UAP" and symbolic.to_dict()["least"] is True
    assert int(sympy.sympify(symbolic.layers, strict=True).xreplace({N: n})) == 2  # safe: strict (an expression)
    concrete = uapcheck.check(_text(pattern, str(n)))
    assert concrete.layers == 2 and concrete.to_dict()["least"] is True and concrete.group.order == 2
    nbs = neighbourhoods([pattern], n)
    assert view_witness(nbs, n, 2, list(range(1, 10))) is None
    assert view_witness(nbs, n, 1, [1]) is not None  # the search finds a witness where one exists
