"""Group orders' texts kept per process (uapcheck.groups.order_text, uapcheck.bignum.json_order) and simplify's
results (uapcheck.zero.simplified): a kept answer, asked in any order among others, is what the uncached function
computes with every cache empty, and a caller changing its copy of a JSON order changes no later answer."""
from __future__ import annotations

import random

import pytest
import sympy
from sympy import Eq, Mod, Piecewise, Symbol, ceiling, factorial, floor

from uapcheck.bignum import json_order
from uapcheck.groups import order_text
from uapcheck.memo import clear_caches
from uapcheck.zero import simplified

N = Symbol("n", integer=True, positive=True)
M = Symbol("n", positive=True)  # the same name, other assumptions
K = Symbol("k", integer=True)
ORDERS = [
    1, 2, 12345, 10 ** 20, 10 ** 300, 3 * 10 ** 5000, -7, True, sympy.Integer(24), sympy.Integer(10) ** 400,
    2 * N, factorial(N), factorial(N - 1), 2 * factorial(floor(N / 4)) ** 3, factorial(ceiling(N / 3)) * N,
    2 * M, factorial(M), 2 ** N * factorial(N), N - 1, sympy.Integer(2) ** 100000 * N,
    sympy.factorial(sympy.Integer(70000), evaluate=False) * 2,
    Piecewise((2 * N, Eq(Mod(N, 4), 0)), (2, True)), Piecewise((factorial(N), Eq(Mod(N, 3), 1)), (N, True)),
    Piecewise((2, N >= 5), (1, True)), "already words", [{"modulus": 2, "residues": [0], "order": 4}],
]
EXPRESSIONS = [1 - K, 4 * K + 2, K * N - 1, sympy.cos(K) ** 2 + sympy.sin(K) ** 2, (N ** 2 - 1) / (N - 1),
               factorial(K + 1) / factorial(K), sympy.Float(0.5) * K, 2 * sympy.exp(K), floor(N / 2) - floor(N / 2)]


def _uncached(fn, value):
    clear_caches()
    return fn.__wrapped__(value)


@pytest.mark.parametrize("seed", range(4))
def test_kept_orders_and_simplifications_are_computed_afresh(seed):
    asked = [(fn, value) for value in ORDERS for fn in (order_text, json_order)
             if fn is json_order or not isinstance(value, (str, list))]
    asked += [(simplified, e) for e in EXPRESSIONS]
    random.Random(seed).shuffle(asked)
    kept = [fn(value) for fn, value in asked + asked]
    for (fn, value), answer in zip(asked + asked, kept):
        fresh = _uncached(fn, value)
        assert answer == fresh and type(answer) is type(fresh), (fn.__name__, value)


def test_a_changed_copy_changes_no_later_answer():
    order = Piecewise((2 * N, Eq(Mod(N, 4), 0)), (2, True))
    first = json_order(order)
    first[0]["order"] = "changed"
    first.append("more")
    assert json_order(order) == _uncached(json_order, order)
