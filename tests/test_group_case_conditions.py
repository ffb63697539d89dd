"""The cases of an intersected group closed form hold somewhere: a meet of a head's case for n = 1 with another
head's case for n ≥ 3 holds for no length and is not stated, and a bound met twice is stated once."""
import sympy

from uapcheck.conditions import simplify_condition
from uapcheck.derive import check_spec
from uapcheck.parse import parse_source

N = sympy.Symbol("n", integer=True, positive=True)

TWO_BIASED_WINDOWS = """tokens n
attention { kernel k(x, y) = exp(x . y); pattern window(1); bias symmetric toeplitz }
attention { kernel k(x, y) = exp(x . y); pattern window(1); bias toeplitz }
"""


def test_contradictory_integer_bounds_are_false():
    assert simplify_condition(sympy.And(sympy.Eq(N, 1), sympy.Ge(N, 3))) is sympy.false
    assert simplify_condition(sympy.And(sympy.Le(N, 2), sympy.Ge(N, 3))) is sympy.false
    assert simplify_condition(sympy.And(sympy.Eq(N, 2), sympy.Eq(N, 3))) is sympy.false


def test_satisfiable_bounds_stay():
    assert simplify_condition(sympy.And(sympy.Ge(N, 3), sympy.Le(N, 3))) == sympy.Eq(N, 3)
    kept = simplify_condition(sympy.And(sympy.Ge(N, 3), sympy.Le(N, 5)))
    assert kept not in (sympy.true, sympy.false) and kept.subs(N, 4) is sympy.true and kept.subs(N, 6) is sympy.false
    assert simplify_condition(sympy.And(sympy.Ge(N, 3), sympy.Ge(N, 3))) == sympy.Ge(N, 3)


def test_group_step_states_no_empty_case_and_each_bound_once():
    result = check_spec(parse_source(TWO_BIASED_WINDOWS, "two.uap"), 60.0)
    step = next(s for s in result.to_dict()["steps"] if s["rule"] == "SYM-AUT")
    text = repr(step)
    assert "n = 1 and n ≥ 3" not in text
    assert "n ≥ 3 and n ≥ 3" not in text
    assert result.group.order == 1
