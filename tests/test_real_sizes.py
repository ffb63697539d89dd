"""Structured patterns at real sizes: verdict, group and least layers from the closed forms at n,
with no arc materialised; groups named by structure; orders in a bounded form; resource limits
that name the size that fits."""
from __future__ import annotations

import pytest
import sympy

import uapcheck
from uapcheck.graphs import GraphTooLarge, build_graph
from uapcheck.groups import order_text, position_set, structure_name
from uapcheck.spec import PatternUnion, Strided, Window


def run(n, pattern):
    return uapcheck.check(f"tokens {n}\nattention {{ kernel k(x, y) = exp(x . y); pattern {pattern} }}\n")


def layers_step(r):
    return next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")


def test_window_64_at_65536_is_decided_without_arcs(no_graphs):
    r = run(65536, "window(64)")
    assert r.verdict == "UAP" and r.group.name == "reflection" and r.layers == 1024
    assert layers_step(r).evidence["least"] is True


def test_windows_at_a_million_tokens(no_graphs):
    r = run(1048576, "window(8)")
    assert r.verdict == "UAP" and r.layers == 131072 and layers_step(r).evidence["least"] is True
    r = run(1048576, "window(8) cyclic")
    assert r.verdict == "UAP" and r.group.name == "D_n" and r.layers == 65536
    assert layers_step(r).evidence["least"] is True


def test_star_at_a_million_tokens_prints_its_order_as_a_factorial(no_graphs):
    r = run(1048576, "star")
    assert r.verdict == "UAP" and r.group.name == "S_1048575 on {2, …, 1048576}" and r.group.order == "1048575!"
    assert r.layers == 2


def test_window_plus_global_at_real_size_has_a_structural_name_and_least_layers(no_graphs):
    r = run(65536, "window(3) + global(2)")
    assert r.verdict == "UAP" and r.layers == 3 and layers_step(r).evidence["least"] is True
    assert r.group.name == "S_2 on {1, 2} × the reflection of {3, …, 65536}" and r.group.order == 4


def test_bigbird_group_by_structure_at_64_tokens():
    r = run(64, "window(3) + global(2)")
    assert r.group.name == "S_2 on {1, 2} × the reflection of {3, …, 64}" and r.group.order == 4
    r = run(64, "window(3) + global(2) + random(3, seed=0)")
    assert r.group.name == "S_2 on {1, 2}" and r.layers == 3


def test_long_orders_are_never_printed_in_full():
    r = run(4096, "blocks(64) + global(1)")
    assert isinstance(r.group.order, str) and "(64!)^63" in r.group.order and len(r.group.order) < 80
    assert order_text(10 ** 300) == "≈ 10^300" and order_text(12345) == 12345
    assert order_text(sympy.factorial(sympy.Integer(70000), evaluate=False) * 2) == "2 · 70000!"


def test_position_sets_and_structure_names():
    assert position_set([1, 2]) == "{1, 2}" and position_set(range(3, 65)) == "{3, …, 64}"
    assert position_set([2, 4, 6, 8]) == "{2, 4, …, 8}"
    assert structure_name(64, [[0, 1]] + [[k] for k in range(2, 64)], 1) == "S_2 on {1, 2}"


def test_a_graph_too_large_names_the_size_that_fits():
    pattern = PatternUnion((Window(1), Strided(2)))
    with pytest.raises(GraphTooLarge, match=r"it fits up to n = [\d,]+"):
        build_graph(pattern, 65536, {}, max_arcs=100_000)


def test_structure_names_are_typed_parts_with_a_formula():
    """groups.group_structure: the typed parts of a structural name; its words are structure_name's,
    its LaTeX sets every group and position set in math (no escaped underscores)."""
    from uapcheck.groups import group_structure
    s = group_structure(64, [[0, 1]] + [[k] for k in range(2, 64)], 1)
    assert s.text == structure_name(64, [[0, 1]] + [[k] for k in range(2, 64)], 1) == "S_2 on {1, 2}"
    assert s.latex == r"S_{2} \text{ on } \{1, 2\}"
    refl = group_structure(8, [[0, 1]] + [[k] for k in range(2, 8)], 2, quotient_is_reflection=True)
    assert refl.text == "S_2 on {1, 2} × the reflection of {3, …, 8}"
    assert refl.latex == r"S_{2} \text{ on } \{1, 2\} \times \text{the reflection}\text{ of } \{3, \ldots, 8\}"
    many = group_structure(20, [[4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3] for k in range(5)], 120)
    assert many.text.startswith("((S_4)^5 on 5 classes of 4 positions covering {1, …, 20}) ⋊ a group of order 120")
    assert r"\rtimes" in many.latex and "_" not in many.latex.replace("S_{", "")
