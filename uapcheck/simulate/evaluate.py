"""A small numpy evaluator for the user's expressions: it walks the Spec expression tree.

Nothing here turns text into code (no lambdify, eval or sympify): each node of `uapcheck.spec`
(Num, Name, Call, BinOp, Neg, Dot, Norm) has its own numpy rule. Values are `Value`s: an array and
whether it is a vector (then its last axis is the token dimension d) or a scalar field. Arrays
broadcast, so one walk evaluates a kernel on every (query, key) pair at once.

Two arithmetics share the walk (`Arithmetic`): float64, and mpmath numbers in numpy object arrays
for the places where round-off matters (the coincidences the experiments show are checked at 50
significant digits).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from .. import spec as S


class SimulationUnsupported(Exception):
    """A construct the simulator does not model: reported as an input error (exit 2)."""

    def __init__(self, message: str, loc: S.Loc = S.NOLOC):
        super().__init__(message)
        self.message = message
        self.loc = loc


@dataclass(frozen=True)
class Value:
    array: np.ndarray
    vector: bool


class Arithmetic:
    """float64 arithmetic: numpy's own functions."""

    name = "float64"

    def __init__(self) -> None:
        erf = np.frompyfunc(math.erf, 1, 1)
        self._erf = lambda z: np.asarray(erf(z), dtype=float)  # frompyfunc returns a bare float on a 0-d array

    def const(self, value) -> object:
        return float(value)

    def array(self, a) -> np.ndarray:
        return np.asarray(a, dtype=float)

    def exp(self, z):
        return np.exp(z)

    def log(self, z):
        return np.log(z)

    def sqrt(self, z):
        return np.sqrt(z)

    def sin(self, z):
        return np.sin(z)

    def cos(self, z):
        return np.cos(z)

    def tan(self, z):
        return np.tan(z)

    def sinh(self, z):
        return np.sinh(z)

    def cosh(self, z):
        return np.cosh(z)

    def tanh(self, z):
        return np.tanh(z)

    def erf(self, z):
        return self._erf(np.asarray(z, dtype=float))

    def abs(self, z):
        return np.abs(z)

    def where(self, cond, a, b):
        return np.where(cond, a, b)

    def power(self, a, b):
        return np.power(a, b)

    def pinv(self, m):
        return np.linalg.pinv(m)


class MpArithmetic(Arithmetic):
    """mpmath numbers (at the working precision of the caller's `mpmath.workdps`)."""

    name = "mpmath"

    def __init__(self) -> None:
        import mpmath
        self.mp = mpmath
        wrap = lambda f: np.frompyfunc(f, 1, 1)  # noqa: E731
        self._fns = {name: wrap(getattr(mpmath, name)) for name in
                     ("exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "erf")}
        self._abs = wrap(abs)
        self._pow = np.frompyfunc(lambda a, b: self.mp.power(a, b), 2, 1)

    def const(self, value):
        if hasattr(value, "p") and hasattr(value, "q"):  # an exact SymPy Rational
            return self.mp.mpf(int(value.p)) / int(value.q)
        return self.mp.mpf(value)

    def array(self, a) -> np.ndarray:
        a = np.asarray(a)
        if a.dtype == object:
            return a
        return np.frompyfunc(self.mp.mpf, 1, 1)(a) if a.ndim else np.array(self.mp.mpf(float(a)), dtype=object)

    def _apply(self, name, z):
        out = self._fns[name](z)
        return out if isinstance(out, np.ndarray) else np.array(out, dtype=object)

    def exp(self, z):
        return self._apply("exp", z)

    def log(self, z):
        return self._apply("log", z)

    def sqrt(self, z):
        return self._apply("sqrt", z)

    def sin(self, z):
        return self._apply("sin", z)

    def cos(self, z):
        return self._apply("cos", z)

    def tan(self, z):
        return self._apply("tan", z)

    def sinh(self, z):
        return self._apply("sinh", z)

    def cosh(self, z):
        return self._apply("cosh", z)

    def tanh(self, z):
        return self._apply("tanh", z)

    def erf(self, z):
        return self._apply("erf", z)

    def abs(self, z):
        out = self._abs(z)
        return out if isinstance(out, np.ndarray) else np.array(out, dtype=object)

    def power(self, a, b):
        out = self._pow(a, b)
        return out if isinstance(out, np.ndarray) else np.array(out, dtype=object)

    def pinv(self, m):
        mat = self.mp.matrix(m.tolist())
        inv = self.mp.inverse(mat)
        return np.array(inv.tolist(), dtype=object)


FLOAT = Arithmetic()


def _relu(ar: Arithmetic, z):
    return ar.where(z > 0, z, z * 0)


def _sigmoid(ar: Arithmetic, z):
    if ar.name == "float64":
        with np.errstate(over="ignore"):
            return np.where(z >= 0, 1 / (1 + np.exp(-np.abs(z))), np.exp(-np.abs(z)) / (1 + np.exp(-np.abs(z))))
    return 1 / (1 + ar.exp(-z))


def _softplus(ar: Arithmetic, z):
    if ar.name == "float64":
        return np.logaddexp(0.0, z)
    return ar.log(1 + ar.exp(z))


def _elu(ar: Arithmetic, z):
    if ar.name == "float64":
        with np.errstate(over="ignore"):
            return np.where(z > 0, z, np.expm1(np.minimum(z, 0)))
    return ar.where(z > 0, z, ar.exp(z) - 1)


def _gelu(ar: Arithmetic, z):
    return z * (1 + ar.erf(z / ar.sqrt(ar.array(2.0)))) / 2


def _silu(ar: Arithmetic, z):
    return z * _sigmoid(ar, z)


def _max(ar: Arithmetic, x, y):
    return ar.where(x >= y, x, y)


def _min(ar: Arithmetic, x, y):
    return ar.where(x <= y, x, y)


#: Each function of the language, as a rule on arrays (elementwise on vectors).
FUNCTIONS: dict[str, Callable] = {
    "exp": lambda ar, z: ar.exp(z), "log": lambda ar, z: ar.log(z), "sqrt": lambda ar, z: ar.sqrt(z),
    "sin": lambda ar, z: ar.sin(z), "cos": lambda ar, z: ar.cos(z), "tan": lambda ar, z: ar.tan(z),
    "sinh": lambda ar, z: ar.sinh(z), "cosh": lambda ar, z: ar.cosh(z), "tanh": lambda ar, z: ar.tanh(z),
    "sigmoid": _sigmoid, "softplus": _softplus, "erf": lambda ar, z: ar.erf(z), "relu": _relu,
    "elu": _elu, "gelu": _gelu, "silu": _silu, "abs": lambda ar, z: ar.abs(z), "max": _max, "min": _min,
}

#: The named FFN activations (`ffn NAME`), with the definitions of uapcheck/lower.py.
ACTIVATIONS: dict[str, Callable] = {
    "relu": _relu, "leaky_relu": lambda ar, z: _max(ar, z, z / 100), "gelu": _gelu,
    "tanh": lambda ar, z: ar.tanh(z), "sigmoid": _sigmoid, "softplus": _softplus, "elu": _elu,
    "silu": _silu, "sin": lambda ar, z: ar.sin(z), "identity": lambda ar, z: z,
}


def _as_vector(v: Value) -> np.ndarray:
    """A scalar field broadcast against the token axis (a scalar acting on every coordinate)."""
    return v.array if v.vector else v.array[..., None]


def evaluate(node: S.Expr, env: Mapping[str, Value], ar: Arithmetic = FLOAT) -> Value:  # noqa: C901 - one branch per expression kind (spec.Expr)
    """The value of `node` where each free name takes its value in `env`."""
    if isinstance(node, S.Num):
        return Value(ar.array(ar.const(node.value)), False)
    if isinstance(node, S.Name):
        if node.id not in env:
            raise SimulationUnsupported(f"the name `{node.id}` has no value in the simulation", node.loc)
        return env[node.id]
    if isinstance(node, S.Neg):
        x = evaluate(node.operand, env, ar)
        return Value(-x.array, x.vector)
    if isinstance(node, S.Dot):
        x, y = evaluate(node.left, env, ar), evaluate(node.right, env, ar)
        if not (x.vector and y.vector):
            raise SimulationUnsupported("an inner product needs two vectors", node.loc)
        return Value((x.array * y.array).sum(axis=-1), False)
    if isinstance(node, S.Norm):
        x = evaluate(node.operand, env, ar)
        if x.vector:
            return Value(ar.sqrt((x.array * x.array).sum(axis=-1)), False)
        return Value(ar.abs(x.array), False)
    if isinstance(node, S.Call):
        fn = FUNCTIONS.get(node.fn)
        if fn is None:
            raise SimulationUnsupported(f"the function `{node.fn}` is not modelled by the simulator", node.loc)
        args = [evaluate(a, env, ar) for a in node.args]
        if any(a.vector for a in args):
            return Value(fn(ar, *[_as_vector(a) for a in args]), True)
        return Value(fn(ar, *[a.array for a in args]), False)
    if isinstance(node, S.BinOp):
        x, y = evaluate(node.left, env, ar), evaluate(node.right, env, ar)
        vector = x.vector or y.vector
        if node.op == "/" and y.vector:
            raise SimulationUnsupported("division by a vector", node.loc)
        if node.op == "^" and y.vector:
            raise SimulationUnsupported("a power with a vector exponent", node.loc)
        a, b = (_as_vector(x), _as_vector(y)) if vector else (x.array, y.array)
        if node.op == "+":
            return Value(a + b, vector)
        if node.op == "-":
            return Value(a - b, vector)
        if node.op == "*":
            return Value(a * b, vector)
        if node.op == "/":
            return Value(a / b, vector)
        if node.op == "^":
            exponent = node.right
            if isinstance(exponent, S.Num) and exponent.value.is_integer and ar.name == "float64":
                return Value(a ** int(exponent.value), vector)
            return Value(ar.power(a, b), vector)
        raise SimulationUnsupported(f"the operator `{node.op}` is not modelled by the simulator", node.loc)
    raise SimulationUnsupported(f"the expression {type(node).__name__} is not modelled by the simulator",
                                getattr(node, "loc", S.NOLOC))
