"""The verifier's reading of a condition of n at one length (verifier/by_class.condition_at: Python's exact integers
and fractions for relations of sums, products and Mods, SymPy's substitution otherwise) against SymPy's substitution,
on random condition trees of integers, rationals, n, +, ×, mod (by integers of both signs and a rational) and floor,
under and, or and not, at n = 1…12: the same value wherever SymPy decides it."""
from __future__ import annotations

import random

import sympy

from uapcheck.verifier.by_class import condition_at
from uapcheck.verifier.trees import TreeError, decode_condition

N = sympy.Symbol("n", integer=True, positive=True)


def _expr(rng: random.Random, depth: int = 0):
    k = rng.random()
    if depth > 2 or k < 0.3:
        return rng.choice([{"sym": "n"}, rng.randint(-20, 20), {"q": [rng.randint(-9, 9), rng.randint(1, 9)]}])
    if k < 0.55:
        return {"op": "+", "args": [_expr(rng, depth + 1), _expr(rng, depth + 1)]}
    if k < 0.75:
        return {"op": "*", "args": [_expr(rng, depth + 1), _expr(rng, depth + 1)]}
    if k < 0.9:
        return {"op": "mod", "args": [_expr(rng, depth + 1), rng.choice([2, 3, 5, 7, -4, {"q": [3, 2]}])]}
    return {"op": "floor", "args": [_expr(rng, depth + 1)]}


def _condition(rng: random.Random, depth: int = 0):
    k = rng.random()
    if depth > 2 or k < 0.5:
        return {"rel": rng.choice(["==", "!=", "<", "<=", ">", ">="]), "args": [_expr(rng), _expr(rng)]}
    if k < 0.8:
        return {rng.choice(["and", "or"]): [_condition(rng, depth + 1) for _ in range(rng.randint(1, 3))]}
    return {"not": _condition(rng, depth + 1)}


def test_a_condition_at_a_length_is_sympys_value():
    rng = random.Random(5)
    decided = 0
    for _ in range(300):
        try:
            cond = decode_condition(_condition(rng), {"n": N})
        except TreeError:
            continue
        for v in range(1, 13):
            want = cond.xreplace({N: sympy.Integer(v)})
            if want in (sympy.true, sympy.false):
                assert condition_at(cond, N, v) is want, (cond, v)
                decided += 1
    assert decided > 2000
