"""Residue classes proved, not sampled (docs/theory.md §11.4): each class's case at large n is chosen when its
residue parts hold at the residue and every bound holds at every large n for every admissible parameter value
(`_eventually`), and a class whose case depends on the parameters is named exactly (`dependence`) instead of being
split. Brute-force comparisons over parameter grids check each decision."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.graphs.closed_forms import ClosedForm, ConnectivityCase
from uapcheck.rules.residue_classes import ALWAYS, DEPENDS, NEVER, _eventually, dependence, split_by_residue

N = sympy.Symbol("n", integer=True, positive=True)
W = sympy.Symbol("w", integer=True, positive=True)
S = sympy.Symbol("s", integer=True, positive=True)


@pytest.mark.parametrize("bound, lows, want", [
    (N >= 2 * W + 3, {"w": 1}, ALWAYS),
    (N > W ** 2, {"w": 1}, ALWAYS),  # n − w² > 0 at every large n, for each w
    (N ** 2 >= W, {"w": 1}, None),  # not linear in n: not decided
    (N <= 5 * W, {"w": 1}, NEVER),
    (sympy.Eq(N, W), {"w": 1}, NEVER),
    (sympy.Ne(N, 2 * W), {"w": 1}, ALWAYS),
    (W >= 2, {"w": 1}, DEPENDS),
    (W >= 2, {"w": 2}, ALWAYS),
    (W >= 2, {"w": 3}, ALWAYS),
    (W < 1, {"w": 1}, NEVER),
    (S - W >= 1, {"w": 1, "s": 2}, DEPENDS),
    (sympy.Ne(W, 0), {"w": 1}, ALWAYS),
    (sympy.And(N >= W, W >= 1), {"w": 1}, ALWAYS),
    (sympy.Or(N <= 3, W >= 5), {"w": 1}, DEPENDS),
    (2 * N - 3 * W >= 7, {"w": 1}, ALWAYS),
    (-N + W >= 0, {"w": 1}, NEVER),
    # bounds not linear in n (docs/theory.md §11.4): floors and ceilings of linear terms, slopes with parameters
    (sympy.floor(N / W) >= 3, {"w": 1}, ALWAYS),
    (sympy.floor(N / W) >= 3, {"w": 0}, None),  # w = 0 admissible: the slope 1/w is not known positive
    (sympy.ceiling((N - 1) / W) - W >= 2, {"w": 1}, ALWAYS),
    (N * W >= 5, {"w": 1}, ALWAYS),
    (5 - sympy.floor(N / 3) >= 0, {"w": 1}, NEVER),
    (sympy.Eq(sympy.floor(N / 3), 4), {"w": 1}, NEVER),
    (sympy.Ne(sympy.floor(N / 3), W), {"w": 1}, ALWAYS),
    (N - 2 * sympy.floor(N / 2) >= 1, {"w": 1}, None),  # slopes 1 and −1: bounded, not decided
    (sympy.floor(N / 2) - N >= -W, {"w": 1}, NEVER),
    (N - sympy.floor(N / W) >= 3, {"w": 2}, None),  # 1 − 1/w > 0, but of mixed signs: not shown here
])
def test_eventually_is_exact(bound, lows, want):
    assert _eventually(bound, N, lows) == want


@pytest.mark.parametrize("bound, lows", [(W >= 2, {"w": 1}), (S - W >= 1, {"w": 1, "s": 2}), (W >= 2, {"w": 2}),
                                         (W < 1, {"w": 1}), (sympy.Or(N <= 3, W >= 5), {"w": 1}),
                                         (sympy.floor(N / W) >= 3, {"w": 1}),
                                         (sympy.ceiling((N - 1) / W) - W >= 2, {"w": 1}),
                                         (5 - sympy.floor(N / 3) >= 0, {"w": 1})])
def test_eventually_agrees_with_a_grid(bound, lows):
    """At n = 10⁹ and every parameter value up to 40 above its lower bound: ALWAYS holds everywhere, NEVER
    nowhere, DEPENDS somewhere and not everywhere."""
    got = _eventually(bound, N, lows)
    names = sorted(lows)
    syms = {"w": W, "s": S}
    import itertools
    values = [bool(bound.xreplace({N: 10 ** 9, **{syms[k]: v for k, v in zip(names, vs)}}))
              for vs in itertools.product(*(range(lows[k], lows[k] + 40) for k in names))]
    assert got == (ALWAYS if all(values) else NEVER if not any(values) else DEPENDS)


def _form(*cases):
    return ClosedForm(tuple(ConnectivityCase(c, True, d, rule=r) for c, d, r in cases))


def test_a_split_is_proved_for_every_parameter_value():
    form = _form((sympy.And(N >= 2 * W + 3, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2, "even"),
                 (sympy.And(N >= 2 * W + 4, sympy.Eq(sympy.Mod(N, 2), 1)), (N + 1) / 2, "odd"),
                 (N <= 2 * W + 3, sympy.Integer(1), "small"))
    split = split_by_residue(form, N, {"w": 1})
    assert split is not None and [c.rule for c in split.chosen] == ["even", "odd"]
    assert split.bound == sympy.And(N >= 2 * W + 3, N >= 2 * W + 4)


def test_a_case_whose_choice_depends_on_the_parameters_is_named_exactly():
    """For n odd the case is `wide` when w ≥ 2 and `narrow` when w = 1: sampling at w = 1, 2, 4, 8 saw two cases
    and gave no split without saying why; now the dependence is stated."""
    form = _form((sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2, "even"),
                 (sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 1), W >= 2), (N + 1) / 2, "wide"),
                 (sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 1), W <= 1), (N + 3) / 2, "narrow"))
    assert split_by_residue(form, N, {"w": 1}) is None
    why = dependence(form, N, {"w": 1})
    assert why == "n mod 2 = 1: `wide` where n ≥ 5 and w ≥ 2 or `narrow` where n ≥ 5 and w ≤ 1"
    # with w ≥ 2 declared, the odd class's case is proved
    split = split_by_residue(form, N, {"w": 2})
    assert split is not None and [c.rule for c in split.chosen] == ["even", "wide"]


def test_an_upper_bound_is_never_the_case_at_large_n():
    """A case bounded above (n ≤ 10⁸) holds at the old sample n = 10⁶·L + r, but not at every large n."""
    form = _form((sympy.And(N <= 10 ** 8, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2, "bounded"),
                 (sympy.And(N >= 5, sympy.Eq(sympy.Mod(N, 2), 1)), (N + 1) / 2, "odd"))
    assert split_by_residue(form, N, {}) is None
    assert dependence(form, N, {}) == "n mod 2 = 0: no case holds at large n"


def test_a_split_with_a_bound_not_linear_in_n():
    """⌊n/w⌋ ≥ 3 holds at every large n for every w ≥ 1 (its slope 1/w is positive): the classes are split, and the
    range keeps the bound itself, so the chosen case's condition holds on the range (§11.4)."""
    bound = sympy.floor(N / W) >= 3
    form = _form((sympy.And(bound, sympy.Eq(sympy.Mod(N, 2), 0)), N / 2, "even"),
                 (sympy.And(bound, sympy.Eq(sympy.Mod(N, 2), 1)), (N + 1) / 2, "odd"),
                 (sympy.floor(N / W) <= 2, sympy.Integer(1), "small"))
    split = split_by_residue(form, N, {"w": 1})
    assert split is not None and [c.rule for c in split.chosen] == ["even", "odd"] and split.bound == bound
    for w in range(1, 6):  # on the range each class's case holds: brute force
        for n in range(1, 80):
            if bool(bound.xreplace({N: n, W: w})):
                case = split.chosen[n % 2]
                assert bool(case.condition.xreplace({N: n, W: w}))
