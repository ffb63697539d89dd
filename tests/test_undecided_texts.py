"""The reasons of the asymptotic engine's Undecided and Oscillates (uapcheck/asymptotics.py) are written when read:
the same text as before, printed once, and not at all when the caller drops the exception."""
from __future__ import annotations

import pytest
import sympy

from uapcheck import asymptotics as A
from uapcheck.lower import QUERY_DOT_KEY, SCALE as t


def test_a_reason_is_written_when_read_and_once():
    calls = []

    def write():
        calls.append(1)
        return "the text"

    exc = A.Undecided(A._Said(write))
    assert calls == []
    assert str(exc) == "the text" and str(exc) == "the text" and f"{exc}" == "the text"
    assert calls == [1]
    assert repr(exc.args[0]) == "'the text'"


def test_the_engine_s_reasons_read_as_before():
    with pytest.raises(A.Oscillates) as osc:
        A.growth(sympy.cos(t * QUERY_DOT_KEY), A.Context({}))
    assert str(osc.value) == "cos(t*x·z) oscillates as t → ∞"
    with pytest.raises(A.Undecided) as und:
        A.growth(sympy.gamma(t), A.Context({}))
    assert str(und.value) == "no asymptotic rule for gamma in gamma(t)"
    with pytest.raises(A.Undecided) as und:
        A.growth(sympy.log(-t - 1), A.Context({}))
    assert str(und.value) == "the logarithm of a negative quantity -t - 1"
