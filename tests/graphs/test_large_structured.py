"""Structured patterns at real sizes (issue 9 §4): the fast paths at a concrete n agree with the concrete
engine (token graph, BLISS, rooted views) where both run, and the large cases end quickly with the
right verdict."""
from __future__ import annotations

import math
import time

import pytest
import sympy

import uapcheck
from uapcheck.graphs import families as F
from uapcheck.graphs.families import bounded_product
from uapcheck.spec import Blocks, Global, PatternUnion


def _source(n: int, pattern: str) -> str:
    return f"tokens {n}\nattention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {pattern}\n}}\n"


def _exact(g: int, counts: dict) -> int:
    out = math.factorial(g)
    for size, mult in counts.items():
        out *= math.factorial(size) ** mult * math.factorial(mult)
    return out


@pytest.mark.parametrize("g, counts", [(2, {6: 1, 8: 130}), (1, {7: 1, 8: 40, 3: 1}), (25, {4: 30}),
                                       (3, {5: 2, 2: 70})])
def test_bounded_product_is_the_order_when_kept_unevaluated(monkeypatch, g, counts):
    """The product kept as powers and factorials evaluates to the exact order."""
    exact = _exact(g, counts)
    assert bounded_product(g, counts) == exact  # small: computed exactly
    monkeypatch.setattr(F, "EXACT_ORDER_DIGITS", 10)
    kept = bounded_product(g, counts)
    assert not kept.is_Integer
    assert kept.doit() == exact


@pytest.mark.parametrize("b, g", [(8, 2), (3, 1), (4, 5), (2, 3)])
def test_blocks_global_order_at_concrete_n_is_the_symbolic_one(b, g):
    """Theorem F4's order at an integer n (one residue, computed directly) is its symbolic closed form at
    that n, for every n in the range up to 2,000 (sampled)."""
    n_sym = sympy.Symbol("n", integer=True, positive=True)
    pattern = PatternUnion((Blocks(b), Global(g)))
    symbolic = F.match([pattern], n_sym, {})
    low = int(symbolic.low)
    for n in list(range(low, low + 3 * b)) + [997, 1024, 2000]:
        at_n = F.match([pattern], sympy.Integer(n), {})
        want = symbolic.order.xreplace({n_sym: n})
        if isinstance(want, sympy.Piecewise):
            want = want.doit()
        assert int(at_n.order) == int(want), n


def test_blocks_global_at_n_matches_the_concrete_engine():
    """At n ≤ 2,000 the family path and the concrete engine agree on verdict, order and least layers."""
    from uapcheck.graphs.families import concrete
    for b, g, n in [(8, 2, 200), (4, 1, 97), (3, 2, 64)]:
        pattern = PatternUnion((Blocks(b), Global(g)))
        theorem = F.match([pattern], sympy.Integer(n), {})
        got = concrete(pattern, n, True)
        assert got.connected and got.diameter == int(theorem.diameter)
        assert got.order == int(theorem.order)
        assert got.least and got.layers == int(theorem.layers)


@pytest.mark.parametrize("pattern, verdict", [("blocks(8) + global(2)", "UAP"),
                                              ("offsets {0, 2, 4, 10} cyclic", "NOT-UAP")])
def test_large_structured_cases_end_quickly(pattern, verdict):
    """At n = 1,048,576 these end in well under 20 s (a loaded machine) with the right verdict."""
    start = time.process_time()
    result = uapcheck.check(_source(1_048_576, pattern))
    assert time.process_time() - start < 20
    assert result.verdict == verdict


def test_blocks_global_large_order_is_printed_by_structure():
    result = uapcheck.check(_source(1_048_576, "blocks(8) + global(2)"))
    assert result.layers == 3
    assert result.group.order == "131071! · (8!)^131071 · 6! · 2!"  # as the group engine prints it


def test_disconnected_cyclic_offsets_at_large_n_skip_the_group():
    """gcd 2 of the jumps at an even n: not strongly connected (F27), proved without the token graph; the
    group step says why it is not computed, and the pattern's obstruction is the closed form's."""
    result = uapcheck.check(_source(1_048_576, "offsets {0, 2, 4, 10} cyclic"))
    steps = {s.rule: s for s in _walk(result.root)}
    assert result.verdict == "NOT-UAP"
    assert steps["PAT-DISCONNECTED"].evidence["witness"]["i"] == 1
    assert "the verdict does not depend on it" in steps["SYM-UNDECIDED"].claim


def _walk(step):
    yield step
    for p in step.premises:
        yield from _walk(p)


def test_offsets_of_both_signs_at_a_million_are_decided_by_the_closed_form():
    """`offsets {-1, 0, 3}` at n = 1,048,576: Theorems F40–F42 (docs/theory.md §11.11) give D = n − 1, G trivial and
    D layers, least, at that n without building the token graph (formerly D + 1 sufficient, the rooted-view test
    stopping on its projected work)."""
    n = 1_048_576
    start = time.process_time()
    result = uapcheck.check(_source(n, "offsets {-1, 0, 3}"))
    assert time.process_time() - start < 40
    assert result.verdict == "UAP" and result.layers == n - 1 and result.group.order == 1
    layers = next(s for s in _walk(result.root) if s.rule == "PAT-LAYERS")
    assert layers.evidence["least"] is True


def test_instance_check_without_views_still_compares_diameter_and_order():
    """Theorem F14 (`window(2) + strided(8)`, s even: M + 1 layers, not claimed least, F54 (c)): its instance check
    skips the rooted views (a sufficient count is never exceeded) and still catches a wrong diameter or order."""
    from dataclasses import replace
    from uapcheck.spec import Strided, Window
    pattern = PatternUnion((Window(2), Strided(8)))
    n_sym = sympy.Symbol("n", integer=True, positive=True)
    theorem = F.match([pattern], n_sym, {})
    assert theorem.theorem == "F14" and not theorem.least
    values = {"n": int(theorem.low)}
    assert F.instance_check(theorem, pattern, values) is None
    assert "diameter" in F.instance_check(replace(theorem, diameter=theorem.diameter + 1), pattern, values)
    assert "|G|" in F.instance_check(replace(theorem, order=theorem.order * 2), pattern, values)
