"""The one-layer witness search dismisses kernels that visibly are not homogeneous (or odd) by one
closed-number comparison, without SymPy's simplify; homogeneous and odd kernels are still found,
and the certificate check keeps the exact identity test."""
from __future__ import annotations

import pytest
import sympy

import uapcheck.zero
from uapcheck.lower import QUERY_DOT_KEY as a
from uapcheck.rules import witness as W


@pytest.fixture
def no_simplify(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("simplify was called")
    monkeypatch.setattr(uapcheck.zero.sympy, "simplify", refuse)


@pytest.mark.parametrize("kernel", [2 + sympy.tanh(a), sympy.exp(sympy.cos(a)), 1 / (1 + sympy.exp(-a)),
                                    sympy.exp(a), sympy.log(1 + sympy.exp(a))], ids=str)
def test_non_homogeneous_kernels_are_dismissed_without_simplify(no_simplify, kernel):
    for degree in (1, 2, 3):
        assert W.homogeneous_degree_holds(kernel, a, degree, search=True) is False


def test_homogeneous_kernels_are_still_found():
    assert W.homogeneous_degree_holds(a ** 2, a, 2, search=True)
    assert W.homogeneous_degree_holds(sympy.Abs(a), a, 1, search=True)
    assert W.homogeneous_degree_holds(a * sympy.Abs(a) ** 2, a, 3, search=True)
    assert not W.homogeneous_degree_holds(a ** 2, a, 1, search=True)


def test_closed_numbers_are_told_apart_only_when_sympy_decides():
    assert W._differs(sympy.exp(2) - 2 * sympy.E)
    assert not W._differs(sympy.Integer(0))
    assert not W._differs(sympy.sqrt(2) ** 2 - 2)
    assert not W._differs(a - 1)  # not a closed number
