"""FFN-DEF2's limits (uapcheck/rules/ffn.py): σ' at ±∞ term by term (when every term's limit is
rational) agrees with SymPy's limit of the whole sum; σ's one-sided limits at a breakpoint, taken
from the piece that reaches it, agree with σ evaluated just beside it; a jump is found."""
from __future__ import annotations

import pytest
import sympy

from uapcheck import proof
from uapcheck.functions import ACTIVATIONS
from uapcheck.rules import ffn

Z = sympy.Symbol("ξ", real=True)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_derivative_limits_at_infinity_agree_with_sympy(name):
    sigma = ACTIVATIONS[name](Z)
    for expr, _region in ffn._pieces(sigma, Z):
        d = sympy.diff(expr, Z)
        for end in (sympy.oo, -sympy.oo):
            assert ffn._limit_at_infinity(d, Z, end) == sympy.limit(d, Z, end)


@pytest.mark.parametrize("sigma", [
    sympy.Max(0, Z), sympy.Max(Z / 100, Z), sympy.Piecewise((Z, Z > 0), (sympy.exp(Z) - 1, True)),
    sympy.Piecewise((Z, Z > 1), (Z + 1, True)), sympy.Piecewise((Z ** 2, Z < -1), (1 - 2 * Z - 2, True)),
    sympy.Piecewise((3 * Z, Z >= 2), (sympy.Integer(6), Z > -1), (sympy.sin(Z), True))], ids=str)
def test_one_sided_limits_at_breakpoints_agree_with_sympy(sigma):
    pieces = ffn._pieces(sigma, Z)
    ends = {e for _, region in pieces for e in (region.inf, region.sup) if e.is_finite}
    assert ends
    for end in ends:
        for side in "-+":
            got = ffn._one_sided_limit(sigma, Z, pieces, end, side)
            # checked a second way: σ evaluated just beside the breakpoint
            near = sigma.xreplace({Z: end + (1 if side == "+" else -1) * sympy.Rational(1, 10 ** 30)})
            assert abs(sympy.N(near - got, 50)) < 1e-25, (end, side, got)


def test_a_jump_at_a_breakpoint_is_found():
    status, evidence = ffn._lipschitz.__wrapped__(sympy.Piecewise((Z, Z > 1), (Z + 1, True)), Z)
    assert status is proof.REFUTED and "jumps at 1" in evidence["reason"]


X = sympy.Symbol("y")


@pytest.mark.parametrize("term, end", [
    (sympy.sqrt(2) * Z * sympy.exp(-Z ** 2 / 2) / (2 * sympy.sqrt(sympy.pi)), sympy.oo),  # gelu's z·φ(z)
    (sympy.sqrt(2) * Z * sympy.exp(-Z ** 2 / 2) / (2 * sympy.sqrt(sympy.pi)), -sympy.oo),
    (Z * sympy.exp(-Z), sympy.oo), (Z ** 3 * sympy.exp(Z ** 3), -sympy.oo),
    (7 * Z ** 2 * sympy.exp(-Z ** 2 + 100 * Z), sympy.oo), (sympy.exp(-sympy.pi * Z ** 2), -sympy.oo)], ids=str)
def test_a_gaussian_decay_is_taken_as_zero_only_where_sympy_agrees(term, end):
    assert ffn._decays_like_gaussian(term, Z, end)
    assert sympy.limit(term, Z, end) == 0


@pytest.mark.parametrize("term, end", [
    (Z * sympy.exp(-Z), -sympy.oo),  # grows: the exponent tends to +∞ there
    (Z ** 3 * sympy.exp(Z ** 3), sympy.oo), (sympy.exp(Z * X), sympy.oo),  # a symbol in the exponent
    (X * sympy.exp(-Z), sympy.oo),  # a non-constant coefficient
    (sympy.exp(-Z) / Z, sympy.oo),  # a negative power: not the lemma's form (SymPy decides it)
    (sympy.exp(-Z) * sympy.sin(Z), sympy.oo), (sympy.Integer(3), sympy.oo),
    (sympy.exp(sympy.I * Z - Z ** 2), sympy.oo)], ids=str)  # a complex coefficient in the exponent
def test_anything_else_is_left_to_sympy(term, end):
    assert not ffn._decays_like_gaussian(term, Z, end)


def test_gelu_takes_the_fast_path_and_keeps_its_limits(monkeypatch):
    sigma = ACTIVATIONS["gelu"](Z)
    d = sympy.diff(sigma, Z)
    expected = {end: sympy.limit(d, Z, end) for end in (sympy.oo, -sympy.oo)}
    asked = []
    real_limit = sympy.limit

    def counting(expr, *args, **kwargs):
        asked.append(expr)
        return real_limit(expr, *args, **kwargs)
    monkeypatch.setattr(ffn.sympy, "limit", counting)
    for end, value in expected.items():
        assert ffn._limit_at_infinity(d, Z, end) == value
    assert not any(term.has(sympy.exp) for term in asked)  # z·φ(z) was never handed to SymPy's limit
