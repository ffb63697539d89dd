"""Two partition heads at one concrete length without their arcs (docs/theory.md §11.11, Theorem F126): the class of
Theorem F72 holding at n gives G at n, and Theorems F76/F86/F88 (read at n by F125 (b)) the least count. Compared
with the concrete engine (the coloured union's automorphisms by BLISS, nauty's order, the least count from rooted
views) at the lengths up to 60, and with the whole checker at n = 4,000…4,003 and 1,048,576…1,048,579 (catalog
blocks_global_strided_heads_n and blocks_strided_heads_n with a concrete length, formerly INCONCLUSIVE)."""
from __future__ import annotations

import time

import pytest
import sympy

import uapcheck
from uapcheck.certificates import CertificateRejected, PartitionHeads
from uapcheck.graphs.build import build_graph
from uapcheck.graphs.heads_at_length import group_at, partition_class_at, partition_order_at, symbol
from uapcheck.graphs.partition_heads import decide
from uapcheck.graphs.symmetry import symmetry_group
from uapcheck.spec import Blocks, Global, PatternUnion, Strided

NMAX = 60


def U(*parts):
    return PatternUnion(tuple(parts))


HEADS = [
    (U(Blocks(4), Global(1)), Strided(4)),  # catalog blocks_global_strided_heads_n
    (Blocks(4), Strided(4)),  # catalog blocks_strided_heads_n
    (Global(2), Strided(4)),
    (U(Blocks(2), Global(1)), Strided(3)),
    (U(Blocks(3), Global(1)), Strided(3)),
]


def _order(case) -> int:
    return int(case.order.doit())


@pytest.mark.parametrize("heads", HEADS, ids=[str(i) for i in range(len(HEADS))])
def test_the_class_at_n_is_the_concrete_group_at_every_n_up_to_60(heads):
    found = decide(list(heads))
    assert found is not None
    covered = 0
    for n in range(2, NMAX + 1):
        case = group_at(heads, n)
        c = partition_class_at(found, n)
        assert (case is None) == (c is None), (heads, n)
        if case is None:
            continue
        covered += 1
        assert case.condition is sympy.true and not case.order.free_symbols
        assert _order(case) == symmetry_group([build_graph(h, n) for h in heads]).order, (heads, n, case.order)
        assert case.structure == found.name() and case.intersection[2] == n
    assert covered >= NMAX - max(c.low for c in found.classes)


@pytest.mark.parametrize("heads", HEADS[:3], ids=[str(i) for i in range(3)])
def test_the_order_at_n_is_nauty_order(heads):
    """A second count (the verifier's nauty) at the first lengths of every class."""
    from uapcheck.verifier.partition_heads import nauty_order as _nauty_order
    found = decide(list(heads))
    for n in range(max(c.low for c in found.classes), 41, 3):
        case = group_at(heads, n)
        assert case is not None and _order(case) == _nauty_order(list(heads), n), (heads, n)


def test_the_order_at_a_million_positions_stays_unevaluated_and_is_the_class_formula():
    heads = HEADS[1]
    found = decide(list(heads))
    n = 1_048_576
    case = group_at(heads, n)
    assert sympy.sstr(case.order) == "24*factorial(262144)"
    c = partition_class_at(found, n)
    assert c.expression(symbol(), found.modulus).xreplace({symbol(): 1_048_576}) == 24 * sympy.factorial(262144)
    # the unevaluated form is the class's formula at small lengths too (evaluated)
    for m in (40, 44, 101):
        cm = partition_class_at(found, m)
        assert int(partition_order_at(cm, m, found.modulus).doit()) == cm.at(m, found.modulus)


def test_the_kernel_checks_the_length_and_the_class():
    heads = HEADS[0]
    found = decide(list(heads))
    formula = partition_class_at(found, 1_048_577).expression(symbol(), found.modulus)
    PartitionHeads(heads, found, formula, 1_048_577, length_symbol=symbol()).check()  # accepted
    with pytest.raises(CertificateRejected):
        PartitionHeads(heads, found, formula, 1_048_578, length_symbol=symbol()).check()  # the length is in another class
    other = partition_class_at(found, 1_048_578).expression(symbol(), found.modulus)  # 2·(⌊n/4⌋ − 1)!, not 6·
    assert sympy.simplify(other - formula) != 0
    with pytest.raises(CertificateRejected):
        PartitionHeads(heads, found, other, 1_048_577, length_symbol=symbol()).check()  # another class's formula
    with pytest.raises(CertificateRejected):
        PartitionHeads(heads, found, formula, 1, length_symbol=symbol()).check()  # below every bound


def _source(n: int, heads: list[str]) -> str:
    return f"tokens {n}\n" + "".join(f"attention {{\n  kernel k(x, y) = exp(x . y)\n  pattern {h}\n}}\n"
                                     for h in heads)


def _least(result) -> bool:
    return bool(next(s.evidence.get("least") for s in result.root.walk() if s.rule == "PAT-LAYERS"))


@pytest.mark.parametrize("heads, layers", [
    (["blocks(4) + global(1)", "strided(4)"], {0: 2, 1: 3, 2: 3, 3: 2}),
    (["blocks(4)", "strided(4)"], {0: 2, 1: 3, 2: 3, 3: 2})])
def test_the_catalog_heads_at_real_lengths_are_decided_quickly(heads, layers):
    for n in (4_000, 4_001, 4_002, 4_003, 1_048_576, 1_048_577, 1_048_578, 1_048_579):
        start = time.process_time()
        result = uapcheck.check(_source(n, heads))
        assert result.verdict == "UAP", (heads, n, result.verdict)
        assert result.layers == layers[n % 4] and _least(result), (heads, n, result.layers)
        assert result.group.name.startswith("the permutations keeping"), result.group.name
        assert time.process_time() - start < 20


@pytest.mark.parametrize("heads", [["blocks(4) + global(1)", "strided(4)"], ["blocks(4)", "strided(4)"],
                                   ["global(2)", "strided(4)"]])
def test_the_count_and_group_read_at_n_are_the_concrete_engines(heads):
    """Every third n ≤ 60 where both decisions hold: the symbolic decisions read at n against the whole checker
    (which builds the token graph at these n: BLISS's group and the rooted-view search)."""
    from uapcheck.graphs.heads_at_length import heads_layers_at, layers_at
    from uapcheck.parse import parse_source
    pats = [h.pattern for h in parse_source(_source(10 ** 6, heads), "t.uap").heads]
    first = heads_layers_at(pats, 10 ** 6)
    assert first is not None
    compared = 0
    for n in range(first.found.low, NMAX + 1, 3):
        at, case = layers_at(first.found, n), group_at(pats, n)
        if at is None or case is None:
            continue
        result = uapcheck.check(_source(n, heads))
        assert result.verdict == "UAP" and _least(result), (heads, n)
        assert result.layers == at.layers, (heads, n, result.layers, at.layers)
        assert result.group.order == sympy.Integer(_order(case)) or "!" in str(result.group.order), (heads, n)
        compared += 1
    assert compared >= 5
