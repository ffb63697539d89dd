"""Theorem F81 at every width (docs/theory.md §11.11, step (6′)): `window(w) + strided(w + 2)` needs D layers, least —
2 when s ∤ n, 3 when s | n (s = w + 2, n ≥ s(4w + 3)) — and with `global(g)` 2 layers, least (F33 (b)). The statement
read at `tokens n` (evaluated at each length) and at `tokens <n>` against the concrete engine (rooted views by
canonical labelling) at lengths the earlier tests did not take (n ≡ w (mod s) and s | n for w = 4, 5, 6, 8; global
with g = 1, 2), and against a view-witness search by backtracking written apart from the engine
(tests/graphs/test_window_stride_two_more_witness_search.py)."""
from __future__ import annotations

import functools

import pytest
import sympy

import uapcheck
from uapcheck.graphs import families as F
from uapcheck.spec import Global, PatternUnion, Strided, Window


N = sympy.Symbol("n", integer=True, positive=True)


def _text(pattern: str, tokens: str) -> str:
    return f'architecture "x"\ntokens {tokens}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n'


@functools.lru_cache(maxsize=None)
def _symbolic(pattern: str):
    return uapcheck.check(_text(pattern, "n"))


def _stated(pattern: str, n: int) -> tuple[int, bool]:
    """The count and least flag at n, as the symbolic statement gives it and as the file at `tokens <n>` does."""
    symbolic = _symbolic(pattern)
    assert symbolic.verdict == "UAP" and symbolic.to_dict()["least"] is True, symbolic.summary()
    at_n = int(sympy.sympify(symbolic.layers, strict=True).xreplace({N: n}))  # safe: strict (an expression)
    concrete = uapcheck.check(_text(pattern, str(n)))
    assert concrete.verdict == "UAP" and concrete.layers == at_n, (pattern, n, concrete.summary())
    return at_n, concrete.to_dict()["least"]


@pytest.mark.parametrize("w, n", [(4, 118), (5, 168), (6, 224), (8, 360)])
def test_the_statement_is_the_engines_least_count(w, n):
    s = w + 2
    assert n >= s * (4 * w + 3) and (n % s == w or n % s == 0)
    layers, least = _stated(f"window({w}) + strided({s})", n)
    got = F.concrete(PatternUnion((Window(w), Strided(s))), n)
    assert got.least and got.order == 2 and least
    assert layers == got.layers == got.diameter == (3 if n % s == 0 else 2)


@pytest.mark.parametrize("w, g, n", [(4, 1, 119), (4, 1, 121), (4, 2, 120)])
def test_with_global_positions_two_layers_are_the_engines_least_count(w, g, n):
    """n − g ≡ w (mod s) or s | n − g: the base on the non-global positions is at its end case or has diameter 3."""
    s = w + 2
    assert (n - g) % s in (0, w)
    layers, least = _stated(f"window({w}) + strided({s}) + global({g})", n)
    got = F.concrete(PatternUnion((Window(w), Strided(s), Global(g))), n)
    assert got.least and least and layers == got.layers == got.diameter == 2

