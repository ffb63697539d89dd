"""Several heads at one concrete length without their arcs (docs/theory.md §11.11, Theorem F125 (a)): the class of
Theorems F35–F39 holding at n gives G at n. Compared with the concrete engine (the coloured union's automorphisms
by BLISS) at every n ≤ 60 and at sampled larger n, and with the whole checker at n = 1,048,576."""
from __future__ import annotations

import time

import pytest
import sympy

import uapcheck
from uapcheck.certificates import CertificateRejected, HeadIntersection
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.closed_groups import closed_group
from uapcheck.graphs.heads_at_length import class_of, group_at, symbol
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Strided, Window

NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


# heads from the audit of real sizes (bench/audit_sizes.py) and the several-heads tests
HEADS = [
    (Star(), Offsets((-5, 3), True)),
    (U(Window(2), Global(3), Star()), U(Strided(9), Global(2))),
    (U(Star(), Window(4)), U(Blocks(8), Blocks(3))),
    (U(Window(2), Offsets((4, 10)), Star()), Strided(9)),
    (Dilated(3, 3), Strided(5)),
    (Window(3, True), U(Window(1, True), Dilated(3, 4))),
    (Window(1, True), Offsets((0, 2), True)),
    (Window(2), Blocks(4)),
    (Window(1), Strided(2)),
    (Window(1, True), Global(1)),
    (U(Window(1), Global(2)), Window(2)),
]


def _graphs(heads, n):
    return [build_graph(h, n) for h in heads]


def _lowest(heads) -> int:
    """The least bound of a decided class of Theorems F35–F39 for these heads."""
    form = closed_group(list(heads), sympy.Symbol("n", integer=True, positive=True))
    found = next(c.intersection[0] for c in form.cases if isinstance(c.intersection, tuple))
    return min(c.low for c in found.classes if c.kind != "open")


@pytest.mark.parametrize("heads", HEADS, ids=[str(i) for i in range(len(HEADS))])
def test_the_class_at_n_is_the_concrete_group_at_every_n_up_to_60(heads):
    covered = 0
    for n in range(2, NMAX + 1):
        case = group_at(heads, n)
        if case is None:
            continue
        covered += 1
        got = symmetry_group(_graphs(heads, n))
        assert int(case.order) == got.order, (heads, n, case.order, got.order)
        assert case.condition is sympy.true and not case.order.free_symbols
        if case.name is not None:
            assert case.name == got.name, (heads, n, case.name, got.name)
        elif "rotations" not in case.structure and "at once" not in case.structure:
            assert case.structure == (got.structure or got.name), (heads, n, case.structure, got.structure)
    low = _lowest(heads)
    assert covered >= (NMAX - low) // 9 if low <= NMAX else covered == 0  # every class from its bound on


@pytest.mark.parametrize("heads, lengths", [(HEADS[0], (97, 256)), (HEADS[1], (101, 200)), (HEADS[3], (130, 211)),
                                            (HEADS[4], (250,)), (HEADS[5], (128, 301))])
def test_sampled_larger_lengths_agree_with_the_concrete_engine(heads, lengths):
    for n in lengths:
        case = group_at(heads, n)
        assert case is not None, (heads, n)
        assert int(case.order) == symmetry_group(_graphs(heads, n)).order, (heads, n)


def test_a_length_below_the_class_bound_is_left_to_the_graph():
    heads = (Dilated(3, 3), Strided(5))
    form = closed_group(list(heads), sympy.Symbol("n", integer=True, positive=True))
    found = form.cases[0].intersection[0]
    low = min(c.low for c in found.classes if c.kind != "open")
    assert class_of(found, low - 1) is None or class_of(found, low - 1).low <= low - 1
    assert all(group_at(heads, n) is None for n in range(1, low) if class_of(found, n) is None)


def test_the_concrete_closed_group_takes_the_class_when_the_heads_own_forms_are_silent():
    heads = [Star(), Offsets((-5, 3), True)]
    form = closed_group(heads, 1_048_576)
    assert form is not None and len(form.cases) == 1
    case = form.cases[0]
    assert case.name == "trivial" and case.order == 1 and case.intersection[2] == 1_048_576


def test_the_kernel_checks_the_length_and_the_order():
    heads = (Window(3, True), U(Window(1, True), Dilated(3, 4)))
    case = group_at(heads, 1_000_000)
    found, stated, n = case.intersection
    n_named = {"length_symbol": symbol()}  # the symbol the engine names the length by
    HeadIntersection(heads, found, stated, case.order, n, **n_named).check()  # accepted
    with pytest.raises(CertificateRejected):
        HeadIntersection(heads, found, stated, sympy.Integer(4), n, **n_named).check()  # not the class's order
    with pytest.raises(CertificateRejected):
        HeadIntersection(heads, found, stated, case.order, 5, **n_named).check()  # below the class's bound
    with pytest.raises(CertificateRejected):
        HeadIntersection(heads, found, stated, sympy.Symbol("n"), n, **n_named).check()  # a symbolic order at a length


def _source(n: int, heads: list[str]) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n"
                                     for h in heads)


@pytest.mark.parametrize("heads, group, layers", [
    (["star", "offsets {-5, 3} cyclic"], "trivial", 3),
    (["window(3) cyclic", "window(1) cyclic + dilated(3, 4)"], "reflection", None),  # D only bounded: not least
    (["window(2) + global(3) + star", "strided(9) + global(2)"], "S_2 on {1, 2}", 3)])
def test_several_heads_at_a_million_positions_end_quickly_with_their_group(heads, group, layers):
    start = time.process_time()
    result = uapcheck.check(_source(1_048_576, heads))
    assert result.verdict == "UAP", result.verdict
    assert (result.group.name or result.group.structure) == group
    least = next(s.evidence.get("least") for s in result.root.walk() if s.rule == "PAT-LAYERS")
    assert bool(least) == (layers is not None) and (layers is None or result.layers == layers)
    assert time.process_time() - start < 20


# ---------------------------------------------------------------------------------------------
# F125 (b): the least layer count at a concrete length

LAYER_HEADS = [["star", "offsets {-5, 3} cyclic"], ["window(2) + global(3)", "strided(9) + global(2)"],
               ["star + window(4)", "blocks(8) + blocks(3)"], ["window(2) + offsets {4, 10} + star", "strided(9)"]]


def _parsed(heads: list[str], n: int):
    from uapcheck.parse import parse_source
    return [h.pattern for h in parse_source(_source(n, heads), "t.uap").heads]


@pytest.mark.parametrize("heads", LAYER_HEADS, ids=[str(i) for i in range(len(LAYER_HEADS))])
def test_the_count_at_n_is_the_concrete_engines_least_count(heads):
    """Every third n ≤ 60 where the decision holds, and the first lengths of its range, against the concrete
    engine's least count (rooted views on the token graph: the checker at these n never takes the symbolic route)."""
    from uapcheck.graphs.heads_at_length import heads_layers_at, layers_at
    compared = 0
    first = heads_layers_at(_parsed(heads, 10 ** 6), 10 ** 6)
    assert first is not None
    low = first.found.low
    for n in sorted(set(range(3, NMAX + 1, 3)) | {61, 62, low, low + 1, low + 7}):
        at = layers_at(first.found, n)  # the one symbolic decision, read at n
        if at is None:
            continue
        result = uapcheck.check(_source(n, heads))
        assert result.verdict == "UAP", (heads, n)
        least = next(s.evidence.get("least") for s in result.root.walk() if s.rule == "PAT-LAYERS")
        assert least and result.layers == at.layers, (heads, n, result.layers, at.layers)
        compared += 1
    assert compared >= 3


def test_the_kernel_checks_the_count_at_the_length():
    from uapcheck.certificates import HeadLayers
    from uapcheck.graphs.heads_at_length import heads_layers_at
    pats = _parsed(["star", "offsets {-5, 3} cyclic"], 1_000_000)
    at = heads_layers_at(pats, 1_000_000)
    assert at is not None and at.layers == 3
    HeadLayers(tuple(pats), at.found, 1_000_000, 3, length_symbol=symbol()).check()
    with pytest.raises(CertificateRejected):
        HeadLayers(tuple(pats), at.found, 1_000_000, 2, length_symbol=symbol()).check()  # not the count there
    with pytest.raises(CertificateRejected):
        HeadLayers(tuple(pats), at.found, 5, 3, length_symbol=symbol()).check()  # below the range


# ---------------------------------------------------------------------------------------------
# F125 (c): the union's family theorem read at a concrete length

@pytest.mark.parametrize("heads, lengths", [((Dilated(3, 3), Strided(5)), (195, 196, 197, 198, 199, 230, 401)),
                                            ((Window(1), Strided(2)), (7, 8, 31, 60, 99))])
def test_the_union_theorem_at_n_is_the_concrete_diameter(heads, lengths):
    from uapcheck.graphs import analyze_connectivity
    from uapcheck.graphs.closed_connectivity import _union_family_at
    compared = 0
    for n in lengths:
        case = _union_family_at(list(heads), n, {})
        if case is None:
            continue
        got = analyze_connectivity(_graphs(heads, n))
        assert got.strongly_connected and got.diameter == int(case.diameter), (heads, n, case.diameter, got.diameter)
        compared += 1
    assert compared >= 3


def test_the_concrete_connectivity_takes_the_union_theorem_when_the_atoms_give_no_diameter():
    from uapcheck.graphs.closed_connectivity import closed_connectivity
    form = closed_connectivity([Dilated(3, 3), Strided(5)], 1_048_576)
    assert form is not None and len(form.cases) == 1
    case = form.cases[0]
    assert case.strongly_connected and case.diameter == 3 and "F125 (c)" in case.rule
