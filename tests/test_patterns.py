"""Sparse patterns end to end: verdicts, layers, groups and NOT-UAP witnesses through uapcheck.check.

The graph engine itself is tested in tests/graphs; here the point is that its certificates reach
the verdict correctly (connectivity and layers from the union of heads, G from the heads separately).
"""
from __future__ import annotations

import pytest
import sympy

import uapcheck

SOFTMAX = "kernel k(x, y) = exp(x . y)"


def run(body: str, header: str = ""):
    return uapcheck.check(header + body + "\n", "pattern.uap")


def head(pattern: str, extra: str = "") -> str:
    return "attention {\n " + SOFTMAX + "\n pattern " + pattern + extra + "\n}\n"


def witness(result):
    for step in result.root.walk():
        if step.rule.startswith("PAT-") and "witness" in step.evidence:
            return step.evidence["witness"]
    return None


def test_causal_is_not_uap_with_the_receptive_field_witness():
    r = run(head("causal"))
    assert r.verdict == "NOT-UAP"
    assert witness(r) == {"i": 1, "j": 2, "target": "F(X)_k = x_1 + ... + x_n at every position k"}


def test_causal_is_not_uap_whatever_the_kernel():
    r = run("attention { features phi(x) = relu(x); pattern causal }\n")
    assert r.verdict == "NOT-UAP"


@pytest.mark.parametrize("pattern,i,j", [("blocks(4)", 1, 5), ("strided(3)", 1, 2), ("dilated(2, 3)", 1, 2)])
def test_disconnected_patterns(pattern, i, j):
    r = run(head(pattern))
    assert r.verdict == "NOT-UAP"
    w = witness(r)
    assert (w["i"], w["j"]) == (i, j)


def test_longformer_symbolic():
    r = run(head("window(w)"), "param w integer >= 1\n")
    assert r.verdict == "UAP"
    n, w = sympy.Symbol("n", integer=True, positive=True), sympy.Symbol("w", integer=True, positive=True)
    assert sympy.simplify(r.layers - sympy.ceiling((n - 1) / w)) == 0
    assert r.group.name == "reflection" and r.group.condition == "n ≥ 2·w + 1"


def test_cyclic_window_symbolic_is_dihedral_for_large_n():
    r = run(head("window(2) cyclic"))  # Theorem F5: G = D_n and D layers, least, for n ≥ 2w + 3
    assert r.verdict == "UAP" and r.group.name == "D_n" and r.group.condition == "n ≥ 7"


def test_cyclic_window_n6_w2_is_the_octahedron():
    r = run(head("window(2) cyclic"), "tokens 6\n")
    assert r.verdict == "UAP" and r.group.order == 48 and r.layers == 2


def test_one_sided_cyclic_offsets_give_the_cyclic_group():
    r = run(head("offsets {1, 2} cyclic"), "tokens 7\n")
    assert r.group.name == "C_n" and r.group.order == 7 and r.layers == 3


def test_group_is_the_intersection_over_heads_not_aut_of_the_union():
    r = run(head("offsets {1, -1} cyclic") + head("offsets {2, -2} cyclic"), "tokens 6\n")
    assert r.verdict == "UAP" and r.group.order == 12  # the union is the octahedron, |Aut| = 48
    assert r.layers == 2


def test_star_fixes_the_centre():
    r = run(head("star"))
    assert r.verdict == "UAP" and r.group.name == "S_(n − 1) on {2, …, n}" and r.layers == 2


def test_window_plus_global_needs_three_layers():
    """Diameter 2, but swapping two far-apart window positions is invisible at a position whose
    depth-2 view only reaches them through the global tokens (which see every token alike)."""
    r = run(head("window(3) + global(2)"))
    assert r.verdict == "UAP" and r.layers == 3
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["diameter"] == 2 and step.evidence["least"] is True
    w = step.evidence["view witness"]
    # docs/theory.md §11.11, Theorem F2: the swap (g+1 g+2) at position g + 2w + 3, for n ≥ g + 2w + 3
    assert w["position"] == "11" and w["swap"] == ["3", "4"] and w["range"] == "for n ≥ 11"


def test_directed_cycle_from_edges():
    r = run(head("edges {1 -> 2, 2 -> 3, 3 -> 4, 4 -> 5, 5 -> 1}"), "tokens 5\n")
    assert r.verdict == "UAP" and r.group.name == "C_n" and r.layers == 4


def test_layer_budget_below_the_diameter_is_not_uap_with_witness():
    r = run(head("window(1)"), "tokens 10\nlayers 2\n")
    assert r.verdict == "NOT-UAP"
    w = witness(r)
    assert w["distance from j to i"] == 9 and {w["i"], w["j"]} == {1, 10}


def test_layer_budget_against_a_diameter_growing_with_n():
    r = run(head("window(w)"), "param w integer >= 1\nlayers 3\n")
    assert r.verdict == "NOT-UAP"
    assert any(s.rule == "PAT-BUDGET-N" for s in r.root.walk())


def test_layer_budget_that_suffices():
    r = run(head("window(3) + global(2)"), "layers 3\n")
    assert r.verdict == "UAP"


def test_layer_budget_between_the_diameter_and_the_view_bound_is_undecided():
    """D = 2 and 3 layers sufficient, not shown least (Theorem F89 (d), open case, no F112 table): `layers 2` is undecided. With a
    count proved least (window(3) + global(2), Theorem F2: 3 least) the same budget is NOT-UAP on the range."""
    r = run(head("strided(4) + strided(5) + strided(6)"), "layers 2\n")
    assert r.verdict == "INCONCLUSIVE"
    assert any(s.rule == "PAT-BUDGET-VIEW" for s in r.root.walk())
    decided = run(head("window(3) + global(2)"), "layers 2\n")
    assert decided.verdict == "NOT-UAP" and any(s.rule == "PAT-BUDGET-CLASS" for s in decided.root.walk())


def test_view_witness_for_a_small_pattern():
    """n = 4: positions 1, 2 see everyone, 3 sees 2, 4 sees 1 (diameter 2). After 2 layers the
    output at 4 is the same for X and X with x_2, x_3 exchanged (docs/theory.md §11.2, checked
    numerically too)."""
    r = run(head("edges {1 -> 2, 1 -> 3, 1 -> 4, 2 -> 1, 2 -> 3, 2 -> 4, 3 -> 2, 4 -> 1}"), "tokens 4\n")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert r.layers == 3 and step.evidence["least"] is True
    assert step.evidence["view witness"]["position"] == 4 and step.evidence["view witness"]["swap"] == [2, 3]


@pytest.mark.parametrize("pattern,n", [("window(1)", 6), ("window(2)", 7), ("window(2)", 8), ("star", 6),
                                       ("window(1) cyclic", 7), ("window(2) cyclic", 8)])
def test_diameter_suffices_where_proved_or_exhaustive(pattern, n):
    r = run(head(pattern), f"tokens {n}\n")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert r.layers == step.evidence["diameter"] and step.evidence["least"] is True


def test_circulant_bias_on_a_cyclic_window():
    r = run(head("window(1) cyclic", "\n bias circulant"))
    assert r.verdict == "UAP" and r.group.name == "C_n"


def test_bigbird_tokens_64_group_swaps_the_global_tokens():
    """Diameter 2, but 2 layers are not enough (a view witness); 3 are. LANGUAGE.md's example
    expects 2: the catalog copy states 3 and says why."""
    r = uapcheck.check(open("catalog/bigbird.uap").read(), "catalog/bigbird.uap")
    assert r.verdict == "UAP" and r.layers == 3 and r.group.order == 2
    assert [list(g) for g in r.group.generators] == [[2, 1] + list(range(3, 65))]
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["diameter"] == 2 and "view witness" in step.evidence


def test_sparse_pattern_does_not_rescue_a_failing_kernel():
    r = run("attention { features phi(x) = relu(x); pattern window(1) }\n")
    assert r.verdict == "INCONCLUSIVE"


def test_union_without_a_group_closed_form_is_inconclusive_not_guessed():
    # s ≤ w + 1, b ≥ w + 2: Theorem F119's clique check fails ({1, 3, 4, 5} is a clique of b positions), §13 L4
    r = run(head("blocks(4) + window(1) + strided(2)"))
    assert r.verdict == "INCONCLUSIVE"
    assert any(s.rule == "SYM-UNDECIDED" for s in r.root.walk())


@pytest.mark.parametrize("pattern,verdict,layers", [("window(n)", "UAP", 1), ("global(n)", "UAP", 1),
                                                    ("blocks(n)", "UAP", 1), ("strided(n)", "NOT-UAP", None)])
def test_the_length_itself_as_a_pattern_size(pattern, verdict, layers):
    r = run(head(pattern))
    assert r.verdict == verdict
    if layers is not None:
        assert sympy.simplify(r.layers.subs(sympy.Symbol("n", integer=True, positive=True), 10)) == layers


def test_budget_depending_on_the_parameters_is_undecided():
    r = run(head("window(w)"), "tokens 20\nparam w integer >= 1\nlayers 3\n")
    assert r.verdict == "INCONCLUSIVE"
    assert any(s.rule == "PAT-BUDGET-PARAM" for s in r.root.walk())


def test_upper_bound_on_the_diameter_is_not_called_the_diameter():
    # window(1) + dilated(8, 12): outside Theorem F15's computation (no base-case radius ≤ 6), so at
    # symbolic n the diameter is only bounded (window(1) + dilated(1, 3) is F15's now: NOT-UAP here)
    r = run(head("window(1) + dilated(8, 12)"), "layers 1\n")
    assert r.verdict == "INCONCLUSIVE"
    layers = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert "at most" in layers.claim


def test_a_free_bias_on_a_head_holding_every_arc_is_decided_by_theorem_f163():
    """A `free` bias labels every arc of its head; with every row seeing two keys, Theorem F163 (§11.10) gives D
    layers, least (formerly the witness search was skipped and the count stated sufficient only)."""
    r = run(head("window(1) + global(1)", "\n bias free"), "tokens 7\n")
    step = next(s for s in r.root.walk() if s.rule == "PAT-LAYERS")
    assert step.evidence["least"] is True


def test_causal_on_one_token_is_uap_and_on_two_is_not():
    softmax = "kernel k(x, y) = exp(x . y)"
    assert str(uapcheck.check(f"tokens 1\nattention {{ {softmax}; pattern causal }}", "causal.uap").verdict) == "UAP"
    assert str(uapcheck.check(f"tokens 2\nattention {{ {softmax}; pattern causal }}", "causal.uap").verdict) == "NOT-UAP"
