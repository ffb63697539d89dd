"""uapcheck.proof.printed: sympy.sstr kept once per process for equal values, which the limit rules' and the
analyticity step's texts now use; it prints every value exactly as sstr does, whatever was printed before it (equal
values built another way, the same name with other assumptions, a Float beside a Rational)."""
from __future__ import annotations

import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from uapcheck import proof

NAMES = ("x·z", "|z|²", "tau", "n")
SYMBOLS = [sympy.Symbol(name, **kind) for name in NAMES
           for kind in ({}, {"real": True}, {"positive": True}, {"integer": True, "positive": True})]
leaves = st.one_of(st.sampled_from(SYMBOLS), st.builds(sympy.Rational, st.integers(-5, 5), st.integers(1, 3)),
                   st.sampled_from([sympy.Float(0.5), sympy.Float(1), sympy.Integer(1), sympy.Rational(1, 2), sympy.pi]))
def _max0(p):
    try:
        return sympy.Max(0, p)
    except ValueError:  # a non-real value (a square root of a negative number): no maximum
        return p


expressions = st.recursive(leaves, lambda children: st.one_of(
    st.builds(lambda p, q: p + q, children, children), st.builds(lambda p, q: p * q, children, children),
    st.builds(lambda p, k: p ** k, children, st.sampled_from([-1, 2, sympy.Rational(1, 2)])),
    st.builds(sympy.exp, children), st.builds(_max0, children)), max_leaves=6).filter(
    lambda e: not e.has(sympy.zoo, sympy.nan))


@settings(max_examples=200, deadline=None)
@given(st.lists(expressions, min_size=1, max_size=6))
def test_printed_is_sstr_after_any_other_prints(values):
    for value in values + values[::-1]:
        assert proof.printed(value) == sympy.sstr(value)


def test_same_names_with_other_assumptions_and_floats_are_told_apart():
    for value in SYMBOLS + [sympy.Float(1), sympy.Integer(1), sympy.Float(0.5), sympy.Rational(1, 2), 1, 1.0, True]:
        assert proof.printed(value) == sympy.sstr(value)
    assert proof.printed(sympy.Float(1) * SYMBOLS[0]) == sympy.sstr(sympy.Float(1) * SYMBOLS[0]) != proof.printed(
        SYMBOLS[0])
