"""The verifier's own reading of a head's formula: re-parsed `.uap` expressions evaluated at explicit
vectors (tuples of SymPy scalars), by explicit constructors only.

Nothing here comes from the engines' lowering: vectors are plain tuples, `x . y` is Σ x_r y_r and
`|v|` is sqrt(Σ v_r²). The checks evaluate the kernel at exact witness points (1-dimensional
vectors embed in every dimension d) and symbolically at 2-dimensional vectors, where a formula that
is a polynomial in the coordinates is a polynomial in the Gram invariants (O(2)-invariant theory).
"""
from __future__ import annotations

from typing import Mapping, Sequence, Union

import sympy
from sympy import Abs, Max, Min, Piecewise, exp, log, sqrt

from .. import spec as S

Vec = tuple
Value = Union[sympy.Expr, Vec]

T = sympy.Symbol("t", positive=True)


class OutOfScope(Exception):
    """A formula the verifier does not evaluate (it then trusts the step, with this reason)."""


def _sigmoid(z):
    return 1 / (1 + exp(-z))


def _elu(z):
    return Piecewise((z, z > 0), (exp(z) - 1, True))


FUNCTIONS = {
    "exp": exp, "log": log, "sqrt": sqrt, "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh, "sigmoid": _sigmoid,
    "softplus": lambda z: log(1 + exp(z)), "erf": sympy.erf, "relu": lambda z: Max(0, z), "elu": _elu,
    "gelu": lambda z: z * (1 + sympy.erf(z / sqrt(2))) / 2, "silu": lambda z: z / (1 + exp(-z)),
    "abs": Abs, "max": Max, "min": Min,
}

ACTIVATIONS = {
    "relu": lambda z: Max(0, z), "leaky_relu": lambda z: Max(z, z / 100), "gelu": FUNCTIONS["gelu"],
    "tanh": sympy.tanh, "sigmoid": _sigmoid, "softplus": FUNCTIONS["softplus"], "elu": _elu,
    "silu": FUNCTIONS["silu"], "sin": sympy.sin, "identity": lambda z: z,
}


def param_symbols(spec: S.Spec) -> dict[str, sympy.Symbol]:
    out = {}
    for p in spec.params:
        kw = {"> 0": {"positive": True}, ">= 0": {"nonnegative": True}, "!= 0": {"real": True, "nonzero": True},
              "integer": {"integer": True}}.get(p.constraint, {"real": True})
        if p.constraint == "integer" and p.lower is not None and p.lower >= 1:
            kw = {"integer": True, "positive": True}
        out[p.name] = sympy.Symbol(p.name, **kw)
    if isinstance(spec.tokens, str):
        out[spec.tokens] = sympy.Symbol(spec.tokens, integer=True, positive=True)
    if isinstance(spec.dim, str):
        out.setdefault(spec.dim, sympy.Symbol(spec.dim, integer=True, positive=True))
    return out


def _add(a: Value, b: Value, sign: int) -> Value:
    if isinstance(a, Vec) and isinstance(b, Vec):
        if len(a) != len(b):
            raise OutOfScope("vectors of different lengths")
        return tuple(p + sign * q for p, q in zip(a, b))
    if isinstance(a, Vec):  # coordinate-wise, as in `phi(x) = elu(x) + 1`
        return tuple(p + sign * b for p in a)
    if isinstance(b, Vec):
        return tuple(a + sign * q for q in b)
    return a + sign * b


def _mul(a: Value, b: Value) -> Value:
    if isinstance(a, Vec) and isinstance(b, Vec):
        raise OutOfScope("a product of two vectors (write x . y)")
    if isinstance(a, Vec):
        return tuple(p * b for p in a)
    if isinstance(b, Vec):
        return tuple(a * q for q in b)
    return a * b


def evaluate(expr: S.Expr, env: Mapping[str, Value], depth: int = 0) -> Value:  # noqa: C901 - one branch per expression kind (spec.Expr)
    """The value of a re-parsed expression, with `env` giving every name (vectors and params)."""
    if depth > 400:
        raise OutOfScope("expression nested too deeply")
    ev = lambda e: evaluate(e, env, depth + 1)  # noqa: E731
    if isinstance(expr, S.Num):
        return sympy.Rational(expr.value)
    if isinstance(expr, S.Name):
        if expr.id not in env:
            raise OutOfScope(f"the name {expr.id} has no value here")
        return env[expr.id]
    if isinstance(expr, S.Neg):
        v = ev(expr.operand)
        return tuple(-p for p in v) if isinstance(v, Vec) else -v
    if isinstance(expr, S.BinOp):
        a, b = ev(expr.left), ev(expr.right)
        if expr.op == "+":
            return _add(a, b, 1)
        if expr.op == "-":
            return _add(a, b, -1)
        if expr.op == "*":
            return _mul(a, b)
        if expr.op == "/":
            if isinstance(b, Vec):
                raise OutOfScope("division by a vector")
            return _mul(a, 1 / b)
        if expr.op == "^":
            if isinstance(a, Vec) and not isinstance(b, Vec):  # a coordinate-wise vector: coordinate by coordinate
                return tuple(p ** b for p in a)
            if isinstance(a, Vec) or isinstance(b, Vec):
                raise OutOfScope("a power of a vector")
            return a ** b
        raise OutOfScope(f"operator {expr.op}")
    if isinstance(expr, S.Dot):
        a, b = ev(expr.left), ev(expr.right)
        if not (isinstance(a, Vec) and isinstance(b, Vec)) or len(a) != len(b):
            raise OutOfScope("a dot product needs two vectors")
        return sympy.Add(*[p * q for p, q in zip(a, b)])
    if isinstance(expr, S.Norm):
        v = ev(expr.operand)
        if isinstance(v, Vec):
            return sqrt(sympy.Add(*[p * p for p in v]))
        return Abs(v)
    if isinstance(expr, S.Call):
        fn = FUNCTIONS.get(expr.fn)
        if fn is None:
            raise OutOfScope(f"function {expr.fn}")
        args = [ev(a) for a in expr.args]
        if len(args) == 1 and isinstance(args[0], Vec):
            return tuple(fn(p) for p in args[0])  # coordinate-wise on a vector
        if any(isinstance(a, Vec) for a in args):
            raise OutOfScope(f"{expr.fn} of vectors")
        return fn(*args)
    raise OutOfScope(f"expression node {type(expr).__name__}")


def kernel_value(spec: S.Spec, head: S.Head, x: Sequence, y: Sequence, w: Sequence | None = None) -> sympy.Expr:
    """k(x, y) for one head at explicit vectors: the formula itself (kernel, score) or
    Σ_r φ(x)_r φ(y)_r (features; random features use the vector w)."""
    env: dict[str, Value] = dict(param_symbols(spec))
    x, y = tuple(x), tuple(y)
    if head.kind in ("kernel", "score"):
        env[head.params[0]], env[head.params[1]] = x, y
        if isinstance(head.expr, S.FeatureList):
            raise OutOfScope("a kernel given as a list")
        val = evaluate(head.expr, env)
        if isinstance(val, Vec):
            raise OutOfScope("the kernel is not a scalar")
        return val
    if head.kind == "features":
        if head.random:
            env[head.random] = tuple(w if w is not None else (1,) + (0,) * (len(x) - 1))
        env[head.params[0]] = x
        fx = _feature_value(head.expr, env)
        env[head.params[0]] = y
        fy = _feature_value(head.expr, env)
        if isinstance(fx, Vec) and isinstance(fy, Vec):
            return sympy.Add(*[p * q for p, q in zip(fx, fy)])
        if isinstance(fx, Vec) or isinstance(fy, Vec):
            raise OutOfScope("a feature map that is sometimes a vector")
        return fx * fy
    raise OutOfScope(f"head kind {head.kind}")


def _feature_value(body: S.HeadExpr, env: Mapping[str, Value]) -> Value:
    """φ at one argument; a bracketed list of components is the vector of all their values (each a
    scalar per random vector, or a vector of coordinates), so Σ over it is Σ_c φ_c(x)·φ_c(y)."""
    if not isinstance(body, S.FeatureList):
        return evaluate(body, env)
    values = [evaluate(item, env) for item in body.items]
    if all(isinstance(v, Vec) for v in values):
        return tuple(p for v in values for p in v)
    if any(isinstance(v, Vec) for v in values):
        raise OutOfScope("a feature list with scalar and vector components")
    return tuple(values)


def scaled_kernel(spec: S.Spec, head: S.Head, x: Sequence, z: Sequence) -> sympy.Expr:
    """k(x, t z) (k(t x, t z) under `tie query key`) at explicit vectors, t a positive symbol."""
    xs = tuple(T * v for v in x) if head.tie else tuple(x)
    return kernel_value(spec, head, xs, tuple(T * v for v in z))


def log_polynomial(k: sympy.Expr, gens: Sequence[sympy.Symbol], growing: Sequence[sympy.Symbol] = ()):
    """log k, up to terms free of `growing`, as a polynomial in `gens` when every factor of k that
    involves `growing` is the exponential of a polynomial (factors free of `growing` and positive
    constants add t-independent terms); else None."""
    grow = set(growing)
    factors = sympy.Mul.make_args(sympy.powsimp(k))
    total = sympy.Integer(0)
    for f in factors:
        if isinstance(f, sympy.exp):
            total += f.args[0]
        elif isinstance(f, sympy.Pow) and isinstance(f.base, sympy.exp):
            total += f.base.args[0] * f.exp
        elif f.is_positive and not (f.free_symbols & set(gens)):
            total += log(f)
        elif grow and not (f.free_symbols & grow):
            continue  # a factor free of t: it only shifts log k by a t-independent term
        else:
            return None
    total = sympy.expand(total)
    body = sympy.expand(total - sympy.Add(*[a for a in sympy.Add.make_args(total) if not (a.free_symbols & set(gens))]))
    if not body.is_polynomial(*gens):
        return None
    return total
