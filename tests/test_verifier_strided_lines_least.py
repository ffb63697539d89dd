"""`uapcheck verify` on Theorem F97 (docs/theory.md §11.11): `strided(2)` with non-cyclic local parts whose jumps
leaving a class are symmetric needs D layers, least. The verifier restates it (uapcheck/verifier/strided_lines.py,
`least_layers`: s = 2 and S′ = −S′ on its own jump sets, and the far-clique premise on its own arcs at every instance)
and rejects a least claim outside it."""
from __future__ import annotations

import pytest
import sympy
from certificates import certificate_of, least_flag_flipped_is_rejected, rejects, softmax_source

from uapcheck.verifier import verify
from uapcheck.verifier.trees import encode


@pytest.mark.parametrize("pattern, name", [("strided(2) + dilated(1, 3)", "F92"),
                                           ("strided(2) + window(1) + dilated(1, 3)", "F74")])
def test_d_layers_least_rest_on_the_verifier_s_own_theorem(pattern, name):
    cert = certificate_of(softmax_source(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    layers = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert f"Theorem {name}" in layers.reason and "F97" in layers.reason


def test_at_a_large_length():
    report = verify(certificate_of(softmax_source("strided(2) + dilated(1, 3)", 1_048_576)))
    assert report.ok, [(s.rule, s.outcome, s.reason) for s in report.steps]


def test_one_layer_more_is_rejected():
    assert least_flag_flipped_is_rejected("strided(2) + dilated(1, 3)", least=True)


@pytest.mark.parametrize("pattern", ["strided(2) + offsets {-3, 9}", "strided(5) + offsets {-2, 4}"])
def test_least_outside_the_theorem_is_rejected(pattern):
    """An asymmetric S′ (the far-clique lemma needs a symmetric pattern), or s ≥ 3: D + 1, not least."""
    assert least_flag_flipped_is_rejected(pattern, least=False)


def test_the_premise_check_finds_a_far_pair_that_is_not_adjacent():
    """The instance check itself: on `strided(5) + dilated(2, 3)` at n = 60 (five classes, D = 3) some far positions
    of two classes are not adjacent, so the restated check reports a problem there."""
    from uapcheck import spec as S
    from uapcheck.verifier.strided_lines import least_layers
    least, _, check, _ = least_layers(2, True, lambda n: sympy.Integer(3),
                                      S.PatternUnion((S.Strided(5), S.Dilated(2, 3))), [-6, -3, 3, 6], 135)
    assert least and check is not None
    assert check(60, 3) is not None


def test_layers_stated_as_data_are_compared():
    cert = certificate_of(softmax_source("strided(2) + dilated(1, 3)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    step["data"]["layers"] = encode(3)
    assert rejects(cert, "PAT-LAYERS")


# Theorem F98: s ≥ 3, S′ = −S′, the common-neighbour premise on the verifier's own graph through N₁ + s − 1


@pytest.mark.parametrize("pattern, name", [("strided(5) + dilated(2, 3)", "F91"), ("strided(3) + dilated(1, 4)", "F92")])
def test_premise_d_layers_least_rest_on_the_verifier_s_own_check(pattern, name):
    cert = certificate_of(softmax_source(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    layers = next(s for s in report.steps if s.rule == "PAT-LAYERS")
    assert f"Theorem {name}" in layers.reason and "F98" in layers.reason


def test_premise_one_layer_more_is_rejected():
    cert = certificate_of(softmax_source("strided(5) + dilated(2, 3)"))
    next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")["data"]["least"] = False
    assert rejects(cert, "PAT-LAYERS")


@pytest.mark.parametrize("pattern", ["strided(6) + window(1) + dilated(1, 3)"])
def test_least_where_the_premise_fails_is_rejected(pattern):
    """The verifier's own finite check finds a length with neither the premise nor a swap of far positions."""
    cert = certificate_of(softmax_source(pattern))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is False
    step["data"]["least"] = True
    assert rejects(cert, "PAT-LAYERS")


def test_the_restated_finite_check():
    from uapcheck.verifier.strided_lines import least_table
    assert least_table(5, [-6, -3, 3, 6], 135) == (312, {r: 0 for r in range(5)})  # N₁ = 16·18 + 20 = 308
    assert least_table(4, [-5, 5], 92) == (339, {r: 1 for r in range(4)})         # F99: a swap at every n
    assert least_table(4, [-4, -1, 1, 4], 60) is None    # n = 60: neither
    assert least_table(7, [-20, -10, 10, 20], 100) is None  # N₁ + s − 1 above 720: not run


def test_the_instance_check_names_a_failing_pair():
    from uapcheck import spec as S
    from uapcheck.verifier.strided_lines import common_neighbour_problem
    problem = common_neighbour_problem(S.PatternUnion((S.Strided(6), S.Window(1), S.Dilated(1, 3))), 90, 3)
    assert problem is not None and "common neighbour" in problem
    assert common_neighbour_problem(S.PatternUnion((S.Strided(5), S.Dilated(2, 3))), 140, 3) is None


# Theorem F99: D + 1 layers least where a swap of two far positions is a view witness, at every residue


def test_swap_d_plus_one_least_rests_on_the_verifier_s_own_check():
    cert = certificate_of(softmax_source("strided(4) + dilated(1, 5)"))
    step = next(s for s in cert["steps"] if s["rule"] == "PAT-LAYERS")
    assert step["data"]["least"] is True
    report = verify(cert)
    assert report.ok and report.complete, [(s.rule, s.outcome, s.reason) for s in report.steps]
    assert "F99" in next(s for s in report.steps if s.rule == "PAT-LAYERS").reason
    step["data"]["layers"] = step["data"]["diameter"]   # D, one too few
    assert rejects(cert, "PAT-LAYERS")


def test_the_instance_witness_check():
    from uapcheck import spec as S
    from uapcheck.verifier.strided_lines import swap_witness_problem
    assert swap_witness_problem(S.PatternUnion((S.Strided(4), S.Dilated(1, 5))), 92, 3) is None
    assert swap_witness_problem(S.PatternUnion((S.Strided(5), S.Dilated(2, 3))), 136, 3) is not None
