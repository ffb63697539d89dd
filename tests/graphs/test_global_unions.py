"""Theorem F87 of docs/theory.md §11.11 (a union with globals and other parts of integer sizes: D = 2 from a checked
bound): the closed form against the diameter of the reference semantics (tests/graphs/reference.py through
brute_views.neighbourhoods, no code shared with the engine) at EVERY n ≤ 60 from 2, for fixed unions and heads
and for random unions; the explicit pair of the proof absent at every length from N₁."""
from __future__ import annotations

import random

import pytest
import sympy

from uapcheck.errors import UapError
from uapcheck.graphs import global_unions as GU
from uapcheck.graphs.closed_connectivity import closed_connectivity
from uapcheck.show import show_pattern
from uapcheck.spec import Blocks, Causal, Dilated, Global, Offsets, PatternUnion, Star, Strided, Window

from .brute_views import diameter, neighbourhoods

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


HEADS = [
    (U(Blocks(4), Global(1)), Strided(4)),           # the Sparse Transformer's heads with a global (issue 9)
    (U(Blocks(2), Global(1)), Strided(3)),
    (U(Blocks(3), Global(2)), Strided(2)),
    (U(Blocks(4), Strided(3), Global(1)),),
    (U(Blocks(2), Strided(4), Global(3)),),
    (U(Offsets((0, 1), True), Global(1)),),          # cyclic offsets: no monotonicity, every length below checked
    (Offsets((1, 3), True), Global(2)),
    (U(Window(1, True), Blocks(3)), Star()),
    (U(Window(1), Strided(3)), Global(2)),
    (Causal(), U(Blocks(3), Global(1))),
    (U(Dilated(1, 3), Blocks(2)), Global(1)),
]


def _reference_diameter(texts, n: int):
    """D of the union by the reference semantics, or False when a size exceeds n (the language rejects it)."""
    try:
        return diameter(neighbourhoods(texts, n), n)
    except UapError:
        return False


def _case(form, n: int):
    here = [c for c in form.cases if c.condition.xreplace({N: n}) is sympy.true]
    assert len(here) == 1, (n, form.cases)
    return here[0]


@pytest.mark.parametrize("heads", HEADS, ids=lambda h: " | ".join(show_pattern(p) for p in h))
def test_the_diameter_agrees_with_the_reference_at_every_n(heads):
    form = closed_connectivity(list(heads), N)
    assert form is not None
    top = next(c for c in form.cases if c.hub is not None)
    texts = [show_pattern(h) for h in heads]
    for n in range(2, NMAX + 1):
        d = _reference_diameter(texts, n)
        if d is False:
            continue
        case = _case(form, n)
        assert case.strongly_connected and d is not None
        if case.diameter is not None:
            assert int(case.diameter) == d, (n, case.rule)
        else:
            assert d <= int(case.diameter_bound), n
    assert top.hub.low <= NMAX


@pytest.mark.parametrize("heads", HEADS, ids=lambda h: " | ".join(show_pattern(p) for p in h))
def test_the_proofs_pair_is_not_an_arc_from_its_length_on(heads):
    form = closed_connectivity(list(heads), N)
    found = next(c for c in form.cases if c.hub is not None).hub
    texts = [show_pattern(h) for h in heads]
    a = found.globals + 1
    for n in range(found.far, found.far + 25):
        assert all(a + found.step not in nb[a] for nb in neighbourhoods(texts, n)), n


_PARTS = [Window(1), Window(2), Window(1, True), Offsets((0, 1)), Offsets((1, 3), True), Offsets((0, -2), True),
          Dilated(1, 2), Dilated(2, 3), Strided(2), Strided(3), Strided(4), Blocks(2), Blocks(3), Blocks(5), Causal()]


def test_random_unions_with_globals_agree_with_the_reference():
    rng = random.Random(87)
    checked = 0
    for _ in range(25):
        parts = rng.sample(_PARTS, rng.choice((2, 3)))
        g = rng.choice((1, 2, 3))
        heads = (U(*parts[:-1], Global(g)), parts[-1]) if rng.random() < 0.5 else (U(*parts, Global(g)),)
        form = closed_connectivity(list(heads), N)
        if form is None:
            continue
        checked += 1
        texts = [show_pattern(h) for h in heads]
        for n in range(2, 41):
            d = _reference_diameter(texts, n)
            if d is False:
                continue
            case = _case(form, n)
            if case.diameter is not None:
                assert int(case.diameter) == d, (texts, n)
            else:
                assert d is not None and d <= int(case.diameter_bound), (texts, n)
    assert checked >= 20


def test_outside_the_vocabulary_no_claim():
    assert GU.decide(1, [("strided", (1,))]) is None          # a stride of 1 is a complete part
    assert GU.decide(0, [("blocks", (3,)), ("strided", (2,))]) is None
    assert GU.decide(1, [("blocks", (300,)), ("strided", (7,))]) is None   # N₁ beyond the checked lengths


def test_the_kernel_re_checks_the_certificate():
    from dataclasses import replace

    from uapcheck import proof
    from uapcheck.certificates import GlobalUnion
    heads = (U(Blocks(4), Global(1)), Strided(4))
    form = closed_connectivity(list(heads), N)
    found = next(c for c in form.cases if c.hub is not None).hub
    GlobalUnion(heads, found).check()
    for bad in (GlobalUnion(heads, replace(found, low=found.low - 1)),      # n = 4 is complete
                GlobalUnion((U(Blocks(4), Global(2)), Strided(4)), found),    # other globals
                GlobalUnion((U(Blocks(4), Global(1)), Strided(3)), found)):   # other parts
        with pytest.raises(proof.CertificateRejected):
            bad.check()
