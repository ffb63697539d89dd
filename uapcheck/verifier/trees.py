"""Exact values in certificate files: a small JSON expression tree, never a string to parse.

    7                          an integer
    {"q": [3, 8]}              the rational 3/8
    {"sym": "n"}               a named quantity: the length n or a declared param
    {"op": "+", "args": [...]} also "*", "^" (base, exponent), "ceiling", "floor", "max", "min",
                               "factorial" (of an integer 0..100,000), "mod" (a, b): a mod b
    {"fn": "cos", "args": [...]}  only with functions=True (an offset function h(δ)): one of FUNCTION_NAMES;
    {"const": "pi"}            likewise, π or "e"

`encode` (used by the certificate writer) and `decode` (used by the verifier) are inverse on the
values the derivations produce. `decode` builds SymPy objects by explicit constructors only.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import sympy


class TreeError(ValueError):
    """The tree is not one this format describes."""


_OPS: dict[str, Callable] = {
    "+": lambda args: sympy.Add(*args),
    "*": lambda args: sympy.Mul(*args),
    "^": lambda args: sympy.Pow(args[0], args[1]),
    "ceiling": lambda args: sympy.ceiling(args[0]),
    "floor": lambda args: sympy.floor(args[0]),
    "max": lambda args: sympy.Max(*args),
    "min": lambda args: sympy.Min(*args),
    "factorial": lambda args: _factorial(args[0]),
    "mod": lambda args: sympy.Mod(args[0], args[1]),
}
_ARITY = {"^": 2, "ceiling": 1, "floor": 1, "factorial": 1, "mod": 2}
MAX_FACTORIAL = 100_000


def _factorial(k):
    if isinstance(k, sympy.Expr) and not k.is_number and k.free_symbols:
        return sympy.factorial(k)  # a closed form in n (a family's group order), not evaluated
    if not (isinstance(k, sympy.Integer) and 0 <= k <= MAX_FACTORIAL):
        raise TreeError(f"factorial of {str(k)[:20]} (an integer 0..{MAX_FACTORIAL} only)")
    return sympy.factorial(k)
MAX_DEPTH = 60
MAX_INT_DIGITS = 2000

# the functions and constants of an offset function's tree (`functions=True`), by explicit constructors
FUNCTION_NAMES: dict[str, Callable] = {
    "exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan, "sinh": sympy.sinh,
    "cosh": sympy.cosh, "tanh": sympy.tanh, "erf": sympy.erf, "abs": sympy.Abs, "atan": sympy.atan,
}
CONSTANTS: dict[str, sympy.Expr] = {"pi": sympy.pi, "e": sympy.E}


def _decode_function(tree: dict, symbols: Mapping[str, sympy.Symbol], depth: int) -> sympy.Expr:
    if set(tree) == {"const"}:
        if tree["const"] not in CONSTANTS:
            raise TreeError(f"unknown constant {str(tree['const'])[:30]!r}")
        return CONSTANTS[tree["const"]]
    if set(tree) == {"fn", "args"}:
        name, args = tree["fn"], tree["args"]
        if name not in FUNCTION_NAMES or not isinstance(args, list) or len(args) != 1:
            raise TreeError(f"unknown function {str(name)[:30]!r} (one argument)")
        return FUNCTION_NAMES[name](decode(args[0], symbols, depth + 1, functions=True))
    raise TreeError(f"not an expression tree: {str(tree)[:60]}")


def decode(tree: Any, symbols: Mapping[str, sympy.Symbol], depth: int = 0, functions: bool = False) -> sympy.Expr:
    if depth > MAX_DEPTH:
        raise TreeError("expression tree nested too deeply")
    if isinstance(tree, bool):
        raise TreeError("a boolean is not a value")
    if isinstance(tree, int):
        if len(str(abs(tree))) > MAX_INT_DIGITS:
            raise TreeError("integer too large")
        return sympy.Integer(tree)
    if not isinstance(tree, dict) or len(tree) not in (1, 2):
        raise TreeError(f"not an expression tree: {str(tree)[:60]}")
    if set(tree) == {"q"}:
        pq = tree["q"]
        if (not isinstance(pq, list) or len(pq) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in pq) or pq[1] == 0):
            raise TreeError("a rational is {\"q\": [p, q]} with integers p and q != 0")
        return sympy.Rational(pq[0], pq[1])
    if set(tree) == {"sym"}:
        name = tree["sym"]
        if not isinstance(name, str) or name not in symbols:
            raise TreeError(f"unknown name {name!r} in an expression tree")
        return symbols[name]
    if set(tree) == {"op", "args"}:
        op, args = tree["op"], tree["args"]
        if op not in _OPS or not isinstance(args, list) or not args:
            raise TreeError(f"unknown operation {str(op)[:30]!r}")
        if op in _ARITY and len(args) != _ARITY[op]:
            raise TreeError(f"{op} takes {_ARITY[op]} arguments")
        return _OPS[op]([decode(a, symbols, depth + 1, functions) for a in args])
    if functions:
        return _decode_function(tree, symbols, depth)
    raise TreeError(f"not an expression tree: {str(tree)[:60]}")


def encode(value: Any, functions: bool = False) -> Any:
    """A SymPy (or Python int) value as a tree; TreeError when it has other parts (with `functions`, the
    functions of FUNCTION_NAMES and the constants π and e are parts too)."""
    if isinstance(value, bool):
        raise TreeError("a boolean is not a value")
    if isinstance(value, int):
        return value
    if isinstance(value, sympy.Integer):
        return int(value)
    if isinstance(value, sympy.Rational):
        return {"q": [int(value.p), int(value.q)]}
    if isinstance(value, sympy.Symbol):
        return {"sym": value.name}
    for cls, op in ((sympy.Add, "+"), (sympy.Mul, "*"), (sympy.Pow, "^"), (sympy.factorial, "factorial"), (sympy.ceiling, "ceiling"),
                    (sympy.floor, "floor"), (sympy.Max, "max"), (sympy.Min, "min"), (sympy.Mod, "mod")):
        if isinstance(value, cls):
            return {"op": op, "args": [encode(a, functions) for a in value.args]}
    if functions:
        for name, const in CONSTANTS.items():
            if value == const:
                return {"const": name}
        for name, fn in FUNCTION_NAMES.items():
            if isinstance(value, sympy.Function) and value.func == fn and len(value.args) == 1:
                return {"fn": name, "args": [encode(value.args[0], True)]}
    raise TreeError(f"no tree form for {type(value).__name__}")


# Conditions on n (a verdict's range, docs/theory.md §12): {"rel": OP, "args": [tree, tree]} with OP one of
# "==", "!=", ">=", ">", "<=", "<"; {"and": [...]}, {"or": [...]}, {"not": c}; {"bool": true|false}.
_RELATIONS: dict[str, Callable] = {"==": sympy.Eq, "!=": sympy.Ne, ">=": sympy.Ge, ">": sympy.Gt, "<=": sympy.Le,
                                   "<": sympy.Lt}


def encode_condition(cond: Any) -> Any:
    """A SymPy condition as a tree; TreeError when it has other parts."""
    if cond is sympy.true or cond is sympy.false:
        return {"bool": cond is sympy.true}
    if isinstance(cond, (sympy.And, sympy.Or)):
        return {"and" if isinstance(cond, sympy.And) else "or": [encode_condition(a) for a in cond.args]}
    if isinstance(cond, sympy.Not):
        return {"not": encode_condition(cond.args[0])}
    for op, cls in _RELATIONS.items():
        if type(cond) is cls:
            return {"rel": op, "args": [encode(cond.lhs), encode(cond.rhs)]}
    raise TreeError(f"no tree form for the condition {type(cond).__name__}")


def decode_condition(tree: Any, symbols: Mapping[str, sympy.Symbol], depth: int = 0) -> Any:
    """The condition a tree of `encode_condition` describes, built by explicit constructors."""
    if depth > MAX_DEPTH:
        raise TreeError("condition tree nested too deeply")
    if not isinstance(tree, dict) or len(tree) not in (1, 2):
        raise TreeError(f"not a condition tree: {str(tree)[:60]}")
    if set(tree) == {"bool"} and isinstance(tree["bool"], bool):
        return sympy.true if tree["bool"] else sympy.false
    if set(tree) in ({"and"}, {"or"}):
        (key,) = tree
        parts = tree[key]
        if not isinstance(parts, list) or not parts:
            raise TreeError(f"{key} takes a list of conditions")
        args = [decode_condition(p, symbols, depth + 1) for p in parts]
        return sympy.And(*args, evaluate=False) if key == "and" else sympy.Or(*args, evaluate=False)
    if set(tree) == {"not"}:
        return sympy.Not(decode_condition(tree["not"], symbols, depth + 1))
    if set(tree) == {"rel", "args"} and tree["rel"] in _RELATIONS and isinstance(tree["args"], list) \
            and len(tree["args"]) == 2:
        lhs, rhs = (decode(a, symbols, depth + 1) for a in tree["args"])
        return _RELATIONS[tree["rel"]](lhs, rhs, evaluate=False)
    raise TreeError(f"not a condition tree: {str(tree)[:60]}")
