"""The standard families' theorems at symbolic n (docs/theory.md §11.11) against the concrete engine.

For every theorem and several parameter values, the symbolic statement (parameters as positive
integer Symbols where the theorem allows it) is evaluated at EVERY n ≤ 60 in its range and compared
with the concrete decision (build_graph, analyze_connectivity, symmetry_group, and the rooted-view
decision of uapcheck/graphs/views.py): the directed diameter, the group order, and the least number
of layers. Below the range the theorem claims nothing; there the tests check that the verdict at
symbolic n states its range and that a concrete n gets the concrete engine's answer.
"""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs import families as F
from uapcheck.spec import Blocks, Dilated, Global, Offsets, PatternUnion, Star, Strided, Window

N = sympy.Symbol("n", integer=True, positive=True)
NMAX = 60


def U(*parts):
    return PatternUnion(parts)


def sym(name):
    return sympy.Symbol(name, integer=True, positive=True)


# (id, theorem, pattern with named parameters, parameter values to test)
CASES = [
    ("star", "F1", Star(), [{}]),
    ("global", "F1", Global("g"), [{"g": 2}, {"g": 3}]),
    ("window+global", "F2", U(Window("w"), Global("g")), [{"w": 1, "g": 1}, {"w": 2, "g": 1}, {"w": 1, "g": 2},
                                                            {"w": 3, "g": 2}]),
    ("cwindow+global", "F3", U(Window("w", True), Global("g")), [{"w": 1, "g": 1}, {"w": 2, "g": 2},
                                                                 {"w": 1, "g": 3}]),
    ("blocks+global", "F4", U(Blocks("b"), Global("g")), [{"b": 4, "g": 1}, {"b": 2, "g": 1}, {"b": 3, "g": 2},
                                                          {"b": 2, "g": 5}]),
    ("cwindow", "F5", Window("w", True), [{"w": 1}, {"w": 2}, {"w": 3}]),
    ("one-sided", "F6", Offsets((1, 2), True), [{}]),
    ("one-sided-3", "F6", Offsets((-1, -2, -3), True), [{}]),
    ("two-jumps", "F8", Offsets((1, 4), True), [{}]),  # s = 3..7 and the mirrors: test_two_jump_offsets.py
    ("window+strided", "F7", U(Window("w"), Strided("s")), [{"w": 2, "s": 3}, {"w": 1, "s": 2}, {"w": 3, "s": 2},
                                                             {"w": 2, "s": 2}]),
    ("window+wide-strided", "F11", U(Window("w"), Strided("s")), [{"w": 1, "s": 3}, {"w": 2, "s": 4},
                                                                  {"w": 2, "s": 5}]),
]


def _theorem(pattern, values, symbolic: bool):
    """The theorem with the parameters as Symbols (when the family allows it) or as integers."""
    params = {k: (sym(k) if symbolic else v) for k, v in values.items()}
    return F.match([pattern], N, params)


def _ids():
    return [f"{cid}-{'-'.join(f'{k}{v}' for k, v in vals.items()) or 'plain'}" for cid, _, _, vs in CASES
            for vals in vs]


@pytest.mark.parametrize("cid,theorem_id,pattern,values",
                         [(c, t, p, v) for c, t, p, vs in CASES for v in vs], ids=_ids())
def test_theorem_agrees_with_the_concrete_engine_for_every_n_up_to_60(cid, theorem_id, pattern, values):
    instance = F.instance_pattern([pattern], values)
    checked = 0
    for symbolic in (True, False):
        theorem = _theorem(pattern, values, symbolic)
        if symbolic and not isinstance(theorem, F.FamilyTheorem):
            continue  # families stated for integer parameters only (F4, F7)
        # with symbolic w, g, g ≥ w is not decided: F10 states F3's values for every w, g (k = max(g, w))
        expected = "F10" if symbolic and theorem_id == "F3" else theorem_id
        assert isinstance(theorem, F.FamilyTheorem) and theorem.theorem == expected
        for n in range(1, NMAX + 1):
            point = dict(values, n=n)
            if not F.in_range(theorem, point):
                continue
            assert F.instance_check(theorem, instance, point) is None
            checked += 1
    assert checked > 0


def test_the_witness_of_window_plus_global_is_checked_on_the_arcs():
    """F2's swap (g+1 g+2) at g + 2w + 3 re-checked by the view engine's own witness test."""
    from uapcheck.graphs import build_graph
    from uapcheck.graphs.symmetry import pattern_structure
    from uapcheck.graphs.views import Neighbourhoods, witness_condition_holds
    for w, g in [(1, 1), (2, 1), (3, 2), (2, 3)]:
        theorem = F.match([U(Window(w), Global(g))], N, {})
        pos, (a, b) = theorem.witness
        for n in range(int(theorem.low), NMAX + 1):
            graphs = [build_graph(U(Window(w), Global(g)), n, {})]
            perm = list(range(1, n + 1))
            perm[int(a) - 1], perm[int(b) - 1] = int(b), int(a)
            assert witness_condition_holds(Neighbourhoods(graphs), perm, int(pos), 1)
            assert not pattern_structure(graphs).preserves(perm)


def test_below_the_range_the_concrete_engine_differs_so_the_range_is_needed():
    """At n = g + 2w + 2 two layers suffice for window + global (no witness): the range is sharp."""
    for w, g in [(1, 1), (2, 1), (1, 2), (3, 2)]:
        got = F.concrete(U(Window(w), Global(g)), g + 2 * w + 2)
        assert got.least and got.layers == 2
    # cyclic window, w = 2: below n = 2w + 3 the group is not D_n (at n = 6 the graph is K_6 minus a perfect
    # matching, with 2^3 · 3! = 48 automorphisms, not |D_6| = 12)
    got = F.concrete(Window(2, True), 6)
    assert got.diameter == 2 and got.order == 48


def test_the_base_case_of_window_plus_strided_settles_for_small_parameters():
    """Theorem F7's finite base case (colour refinement around position 1) holds for every w ≤ 8 and
    2 ≤ s ≤ w + 1, so the group is proved for those parameters; it fails at radius w − 1 for (2, 3),
    where (2 3) is an automorphism of the radius-1 ball fixing 1 (hence the larger radii)."""
    for w in range(1, 9):
        for s in range(2, w + 2):
            assert F.strided_base_check(w, s) is not None
    assert F.strided_ball_separates(2, 3, 1) is None


def test_open_families_name_their_question():
    for pattern in (Offsets((1, "s"), True), U(Window(1), Dilated(8, 12))):  # (window(1) + strided(4): Theorem F14;
        found = F.match([pattern], N, {"s": sympy.Symbol("s", integer=True, positive=True)})  # {2, 4}: F27)
        assert isinstance(found, F.OpenFamily) and "open question" in found.question


def test_nothing_is_claimed_with_a_bias_or_an_encoding():
    assert F.match([Star()], N, {}, ["circulant"]) is None
    assert F.match([Star()], N, {}, None, "absolute") is None
    assert F.match([Star(), Window(1)], N, {}) is None  # two different heads: not one family


@pytest.mark.parametrize("w,s", [(2, 3), (1, 2), (3, 2), (3, 4)])
def test_window_plus_strided_has_diameter_two_from_the_first_non_adjacent_pair(w, s):
    """Theorem F7's diameter part: complete for n ≤ d*, D = 2 for every d* < n ≤ 60."""
    d_star = w + 1 if (w + 1) % s else w + 2
    pattern = U(Window(w), Strided(s))
    for n in range(2, NMAX + 1):
        got = F.concrete(pattern, n, False)
        assert got.connected and got.diameter == (1 if n <= d_star else 2)


def test_the_family_certificate_rejects_a_wrong_claim():
    """The kernel re-checks a family step: the family match, each claimed value against the theorem,
    and the instance check (docs/theory.md §2.2, `family theorem`; the theorems: §11.11)."""
    from uapcheck.certificates import StandardFamily
    from uapcheck.proof import CertificateRejected
    pattern = U(Window(2), Global(1))
    StandardFamily(pattern, N, (), (), "F2", (("diameter", 2), ("layers", 3), ("least", True), ("order", 2))).check()
    for bad in [(("layers", 2),), (("diameter", 3),), (("order", 4),), (("least", False),)]:
        with pytest.raises(CertificateRejected):
            StandardFamily(pattern, N, (), (), "F2", bad).check()
    with pytest.raises(CertificateRejected):
        StandardFamily(pattern, N, (), (), "F1", ()).check()  # not the star's theorem
    with pytest.raises(CertificateRejected):
        StandardFamily(U(Window(2), Dilated(2, 2)), N, (), (), "F2", ()).check()  # not a proved family
