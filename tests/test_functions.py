"""The language's functions (uapcheck/functions.py): one table for the parser and the lowering, and
the independent definitions of the verifier and the simulator agree with it name for name and value
for value."""
from __future__ import annotations

import pytest
import sympy

from uapcheck import functions, parse
from uapcheck.simulate import evaluate as simulated
from uapcheck.verifier import kernels as verified

POINTS = [sympy.Rational(-7, 3), sympy.Integer(-1), sympy.Rational(1, 5), sympy.Integer(2)]


def test_the_parser_reads_names_and_arities_from_the_table():
    assert parse.FUNCTIONS is functions.FUNCTIONS
    assert parse.ACTIVATIONS is functions.ACTIVATIONS
    assert parse.LAYER_FUNCTIONS is functions.LAYER_FUNCTIONS


def test_the_verifier_and_the_simulator_define_exactly_the_language_functions():
    assert set(verified.FUNCTIONS) == set(functions.FUNCTIONS)
    assert set(simulated.FUNCTIONS) == set(functions.FUNCTIONS)
    assert set(verified.ACTIVATIONS) == set(functions.ACTIVATIONS)
    assert set(simulated.ACTIVATIONS) == set(functions.ACTIVATIONS)


@pytest.mark.parametrize("name", sorted(functions.FUNCTIONS))
def test_each_function_agrees_with_the_verifiers_definition(name):
    f = functions.FUNCTIONS[name]
    for p in POINTS:
        args = [p] if f.arity == 1 else [p, sympy.Rational(1, 2)]
        if name in ("log", "sqrt") and p <= 0:
            continue
        ours = sympy.N(f.build(*args), 30)
        theirs = sympy.N(verified.FUNCTIONS[name](*args), 30)
        assert abs(ours - theirs) < sympy.Float(10) ** -25, (name, p)


@pytest.mark.parametrize("name", sorted(functions.ACTIVATIONS))
def test_each_activation_agrees_with_the_verifiers_definition(name):
    for p in POINTS:
        ours = sympy.N(functions.ACTIVATIONS[name](p), 30)
        theirs = sympy.N(verified.ACTIVATIONS[name](p), 30)
        assert abs(ours - theirs) < sympy.Float(10) ** -25, (name, p)


def test_importing_the_table_does_not_import_sympy():
    import subprocess
    import sys
    code = "import sys, uapcheck.functions; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
