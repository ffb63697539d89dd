"""Residue sets of n in conditions (uapcheck/conditions.py): intersected in a conjunction and united in a
disjunction, exactly, under the lcm of their moduli, and written mod the least modulus that states them; all the
residues are no condition, none is false. Every simplification is compared with the condition at every n ≤ 240."""
from __future__ import annotations

import pytest
import sympy

from uapcheck.conditions import simplify_condition as simplify
from uapcheck.groups import class_condition
from uapcheck.show import show_condition

N = sympy.Symbol("n", integer=True, positive=True)


def _mod(m: int, *rs: int):
    return class_condition(N, m, rs)


CASES = [
    (sympy.And(N >= 76, _mod(20, *range(20))), "n ≥ 76"),
    (sympy.And(sympy.Eq(sympy.Mod(N, 7), 0, evaluate=False), _mod(7, 0, 3, 4, 5, 6)), "n mod 7 = 0"),
    (_mod(20, 0, 5, 10, 15), "n mod 5 = 0"),
    (sympy.And(N >= 9, _mod(2, 1)), "n ≥ 9 and n odd"),
    (sympy.And(N >= 116, _mod(4, 1, 2, 3)), "n ≥ 116 and (n mod 4 ∈ {1, 2, 3})"),
    (sympy.And(_mod(4, 1, 2, 3), _mod(6, 0, 3)), "n mod 12 ∈ {3, 6, 9}"),
    (sympy.And(_mod(4, 1, 3), sympy.Ne(sympy.Mod(N, 2), 1)), "False"),
    (sympy.Or(sympy.And(N >= 9, _mod(2, 0)), sympy.And(N >= 3, N <= 5)), None),
    (sympy.And(N >= 9, sympy.Or(_mod(3, 0), _mod(6, 1, 4))), "n ≥ 9 and (n mod 3 ∈ {0, 1})"),
    # lower bounds by class that together hold from one length on: one bound
    (sympy.And(N >= 61, sympy.Or(sympy.And(N >= 61, _mod(2, 1)), sympy.And(N >= 62, _mod(2, 0)))), "n ≥ 61"),
    (sympy.Or(sympy.And(N >= 55, _mod(3, 0)), sympy.And(N >= 56, _mod(3, 1)), sympy.And(N >= 59, _mod(3, 2))),
     "n ≥ 57"),
    (sympy.Or(sympy.And(N >= 59, _mod(3, 0)), sympy.And(N >= 61, _mod(3, 1)), sympy.And(N >= 63, _mod(3, 2))), None),
    (sympy.Or(sympy.And(N >= 61, _mod(2, 1)), sympy.And(N >= 64, _mod(2, 0))), None),
    (sympy.Or(sympy.And(N >= 10, _mod(4, 1, 2)), N >= 12, sympy.And(N >= 7, _mod(4, 3, 0))), None),  # 9 is not in it
    (sympy.Or(sympy.And(N >= 8, _mod(4, 1, 2)), N >= 12, sympy.And(N >= 7, _mod(4, 3, 0))), "n ≥ 7"),
]


@pytest.mark.parametrize("cond, shown", CASES)
def test_residue_sets_are_combined_exactly(cond, shown):
    got = simplify(cond)
    if shown is not None:
        assert show_condition(got) == shown
    for v in range(1, 241):
        want = bool(cond.subs(N, v))
        assert (bool(got.subs(N, v)) if isinstance(got, sympy.Basic) else got) == want, (cond, got, v)


def test_a_union_of_every_class_is_no_condition():
    assert simplify(sympy.Or(_mod(2, 0), _mod(2, 1))) is sympy.true
    assert simplify(sympy.Or(_mod(4, 0, 2), _mod(2, 1))) is sympy.true
    assert simplify(sympy.And(N >= 3, sympy.Or(_mod(3, 0), _mod(3, 1, 2)))) == (N >= 3)


def test_random_alternatives_of_classed_bounds_keep_their_truth_table():
    """Alternatives of (n ≥ a and n mod m ∈ R), random, simplified: the same truth value at every n ≤ 240; one bound
    whenever the table is a ray."""
    import random
    rng = random.Random(7)
    for _ in range(100):
        parts = []
        for _ in range(rng.randint(2, 4)):
            m = rng.choice([1, 2, 3, 4, 6])
            rs = rng.sample(range(m), rng.randint(1, m))
            bound = N >= rng.randint(1, 40)
            parts.append(bound if m == 1 else sympy.And(bound, _mod(m, *rs)))
        cond = sympy.Or(*parts)
        got = simplify(cond)
        table = [bool(cond.subs(N, v)) for v in range(1, 241)]
        assert [bool(got.subs(N, v)) if isinstance(got, sympy.Basic) else got for v in range(1, 241)] == table, cond
        first = table.index(True) if True in table else None
        if first is not None and all(table[first:]) and first > 0:
            assert got == (N >= first + 1), (cond, got)
