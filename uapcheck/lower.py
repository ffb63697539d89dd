"""Spec expressions → SymPy, by explicit constructors only (never sympify, parse_expr, eval).

Vectors never become SymPy matrices. A vector expression that is linear in the arguments
(x, y, x - y, 2*y, ...) is a map basis → coefficient, and inner products expand bilinearly into
the Gram invariants

    c = |x|^2 (query),  a = x . z,  b = |z|^2 (key),  f = w . x,  e = w . z (random vector w).

For the kernel limit the key is scaled, y ↦ t z (and the query too under `tie query key`, since
scaling the shared matrix scales both). Coordinate-wise feature maps (relu(x), elu(x) + 1, ...)
are lowered one coordinate at a time: u is the query's coordinate, v the key's, and the kernel
is the sum over coordinates r of Q(u_r) K(v_r).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import sympy
from sympy import Abs, sqrt

from . import spec as S
from .functions import ACTIVATIONS, FUNCTIONS

# Internal symbols carry names that no .uap identifier can have ([A-Za-z][A-Za-z0-9_]*), so a
# declared param can never be mistaken for one of them (`t` itself is reserved by the parser).
t = sympy.Symbol("t", positive=True)
a = sympy.Symbol("x·z", real=True)
b = sympy.Symbol("|z|²", positive=True)
c = sympy.Symbol("|x|²", positive=True)
f = sympy.Symbol("w·x", real=True)
e = sympy.Symbol("w·z", real=True)
u = sympy.Symbol("x[r]", real=True)
v = sympy.Symbol("z[r]", real=True)
ZETA = sympy.Symbol("|z_b|²", positive=True)  # a Nyström landmark's squared norm
KAPPA = sympy.Symbol("κ_b(x)", real=True, nonzero=True)  # a Nyström landmark coefficient


class Unsupported(Exception):
    """The expression is valid .uap but outside what the engines can reason about."""


def param_symbol(p: S.Param) -> sympy.Symbol:
    if p.constraint == "> 0":
        return sympy.Symbol(p.name, positive=True)
    if p.constraint == ">= 0":
        return sympy.Symbol(p.name, nonnegative=True)
    if p.constraint == "!= 0":
        return sympy.Symbol(p.name, real=True, nonzero=True)
    if p.constraint == "integer":
        if p.lower is not None and p.lower >= 1:
            return sympy.Symbol(p.name, integer=True, positive=True)
        if p.lower is not None and p.lower >= 0:
            return sympy.Symbol(p.name, integer=True, nonnegative=True)
        return sympy.Symbol(p.name, integer=True)
    return sympy.Symbol(p.name, real=True)


@dataclass(frozen=True)
class Vec:
    """A vector linear in the base vectors: basis name → SymPy coefficient."""
    coeffs: tuple[tuple[str, sympy.Expr], ...]

    def as_dict(self) -> dict[str, sympy.Expr]:
        return dict(self.coeffs)


def _vec(d: dict) -> Vec:
    return Vec(tuple(sorted((k, v_) for k, v_ in d.items() if v_ != 0)))


@dataclass(frozen=True)
class Coord:
    """One coordinate of a coordinate-wise vector expression."""
    value: sympy.Expr


class _Lowerer:
    """Lower one expression. `bases` maps vector argument names to (basis, scale)."""

    def __init__(self, params: dict[str, sympy.Symbol], bases: dict[str, tuple[str, sympy.Expr]],
                 gram: dict[frozenset, sympy.Expr], coords: dict[str, sympy.Expr],
                 scalars: Optional[dict[str, sympy.Expr]] = None):
        self.params = params
        self.bases = bases
        self.gram = gram
        self.coords = coords  # basis → coordinate symbol (for coordinate-wise lowering)
        self.scalars = scalars or {}

    def dot(self, x: Vec, y: Vec) -> sympy.Expr:
        total = sympy.Integer(0)
        for bx, cx in x.coeffs:
            for by, cy in y.coeffs:
                key = frozenset((bx, by))
                if key not in self.gram:
                    raise Unsupported(f"no invariant for the inner product of {bx} and {by}")
                total += cx * cy * self.gram[key]
        return sympy.expand(total)

    def coord(self, x) -> sympy.Expr:
        if isinstance(x, Coord):
            return x.value
        if isinstance(x, Vec):
            total = sympy.Integer(0)
            for base, coef in x.coeffs:
                if base not in self.coords:
                    raise Unsupported(f"coordinates of {base} are not available here")
                total += coef * self.coords[base]
            return total
        return x  # a scalar broadcast to every coordinate

    def lower(self, node: S.Expr):  # noqa: C901 - one branch per expression kind (spec.Expr)
        if isinstance(node, S.Num):
            return node.value
        if isinstance(node, S.Name):
            if node.id in self.bases:
                base, scale = self.bases[node.id]
                return Vec(((base, scale),))
            if node.id in self.scalars:
                return self.scalars[node.id]
            return self.params[node.id]
        if isinstance(node, S.Neg):
            x = self.lower(node.operand)
            return self._scale(x, -1)
        if isinstance(node, S.Dot):
            x, y = self.lower(node.left), self.lower(node.right)
            if isinstance(x, Vec) and isinstance(y, Vec):
                return self.dot(x, y)
            raise Unsupported("an inner product of coordinate-wise vectors inside a kernel; "
                              "write such kernels as `features`")
        if isinstance(node, S.Norm):
            x = self.lower(node.operand)
            if isinstance(x, Vec):
                return sqrt(self.dot(x, x))
            if isinstance(x, Coord):
                raise Unsupported("the norm of a coordinate-wise vector")
            return Abs(x)
        if isinstance(node, S.Call):
            args = [self.lower(arg) for arg in node.args]
            fn = FUNCTIONS[node.fn].build
            if all(not isinstance(x, (Vec, Coord)) for x in args):
                return fn(*args)
            return Coord(fn(*[self.coord(x) for x in args]))
        if isinstance(node, S.BinOp):
            x, y = self.lower(node.left), self.lower(node.right)
            vx, vy = isinstance(x, (Vec, Coord)), isinstance(y, (Vec, Coord))
            if node.op in "+-":
                sign = 1 if node.op == "+" else -1
                if isinstance(x, Vec) and isinstance(y, Vec):
                    d = x.as_dict()
                    for k, v_ in y.coeffs:
                        d[k] = d.get(k, 0) + sign * v_
                    return _vec(d)
                if vx or vy:
                    return Coord(self.coord(x) + sign * self.coord(y))
                return x + sign * y
            if node.op == "*":
                if not vx:
                    return self._scale(y, x)
                if not vy:
                    return self._scale(x, y)
                return Coord(self.coord(x) * self.coord(y))
            if node.op == "/":
                if vy:
                    raise Unsupported("division by a vector")
                return self._scale(x, 1 / y)
            if node.op == "^":
                if vx:
                    return Coord(self.coord(x) ** y)
                return x ** y
        raise Unsupported(f"cannot lower {node!r}")

    def _scale(self, x, factor):
        if isinstance(x, Vec):
            return _vec({k: v_ * factor for k, v_ in x.coeffs})
        if isinstance(x, Coord):
            return Coord(x.value * factor)
        return x * factor


# ---------------------------------------------------------------------------------------------
# Kernel models: what the limit and analyticity engines receive.

@dataclass(frozen=True)
class ClosedKernel:
    """k(x, t z) as one SymPy expression in t and the invariants a, b, c (and params)."""
    scaled: sympy.Expr  # k(x, t z), or k(t x, t z) under `tie query key`
    plain: sympy.Expr  # k(x, z): the same at t = 1, for analyticity and positivity
    key_symbols: tuple[sympy.Symbol, ...]  # invariants that depend on the key
    query_symbols: tuple[sympy.Symbol, ...]
    description: str


@dataclass(frozen=True)
class FeatureKernel:
    """k(x, t z) = Σ_r Q(query_r) K_r(t): a finite sum of per-feature products."""
    query: sympy.Expr  # Q in the per-feature query symbol (u or f) and c
    key: sympy.Expr  # K(t) in the per-feature key symbol (v or e), b and t
    query_symbol: sympy.Symbol
    key_symbol: sympy.Symbol
    index: str  # "coordinate" (r = 1..d) or "random" (r = 1..m, w_r fixed random vectors)
    description: str

    @property
    def plain_key(self) -> sympy.Expr:
        return self.key.subs(t, 1)


KernelModel = ClosedKernel | FeatureKernel


def _params(spec: S.Spec) -> dict[str, sympy.Symbol]:
    return {p.name: param_symbol(p) for p in spec.params}


def _gram_xz() -> dict[frozenset, sympy.Expr]:
    return {frozenset(("q",)): c, frozenset(("q", "k")): a, frozenset(("k",)): b}


def lower_head(spec: S.Spec, head: S.Head) -> KernelModel:
    """The kernel of a head, ready for the engines. Raises Unsupported when out of scope."""
    params = _params(spec)
    if head.kind in ("kernel", "score"):
        xq, yk = head.params
        qscale = t if head.tie else sympy.Integer(1)
        scaled = _Lowerer(params, {xq: ("q", qscale), yk: ("k", t)}, _gram_xz(), {}).lower(head.expr)
        plain = _Lowerer(params, {xq: ("q", 1), yk: ("k", 1)}, _gram_xz(), {}).lower(head.expr)
        if isinstance(scaled, (Vec, Coord)):
            raise Unsupported("the kernel is not a scalar")
        desc = ("k(t x, t z): the shared query-key matrix is scaled" if head.tie
                else "k(x, t z): the key direction z = W y is scaled by t")
        return ClosedKernel(scaled, plain, (a, b), (c,) if not head.tie else (a, b, c), desc)

    (xname,) = head.params
    gram: dict[frozenset, sympy.Expr] = {frozenset(("q",)): c, frozenset(("k",)): b}
    if head.random:
        wname = head.random
        gram_q = dict(gram)
        gram_q[frozenset(("w", "q"))] = f
        gram_k = dict(gram)
        gram_k[frozenset(("w", "k"))] = e
        q = _Lowerer(params, {xname: ("q", 1), wname: ("w", 1)}, gram_q, {}).lower(head.expr)
        k = _Lowerer(params, {xname: ("k", t), wname: ("w", 1)}, gram_k, {}).lower(head.expr)
        if isinstance(q, (Vec, Coord)):
            raise Unsupported("a random feature must be a scalar")
        return FeatureKernel(q, k, f, e, "random",
                             "k(x, t z) = Σ_r φ_r(x) φ_r(t z) over the fixed random vectors w_r")
    q = _Lowerer(params, {xname: ("q", 1)}, gram, {"q": u}).lower(head.expr)
    k = _Lowerer(params, {xname: ("k", t)}, gram, {"k": v}).lower(head.expr)
    if isinstance(q, Vec):
        # A linear feature map φ(x) = α x: the kernel is α² x . y, a closed form.
        (_, alpha_q), = q.coeffs if len(q.coeffs) == 1 else ((None, None),)
        if alpha_q is None:
            raise Unsupported("a linear feature map must be a multiple of its argument")
        scaled = alpha_q * alpha_q * t * a
        return ClosedKernel(scaled, scaled.subs(t, 1), (a, b), (c,), "k(x, t z) = φ(x) . φ(t z)")
    if isinstance(q, Coord):
        assert isinstance(k, Coord)
        return FeatureKernel(q.value, k.value, u, v, "coordinate",
                             "k(x, t z) = Σ_r φ(x)_r φ(t z)_r over the coordinates r")
    # A scalar feature map: a single feature.
    scaled = q * k
    return ClosedKernel(scaled, scaled.subs(t, 1), (a, b), (c,), "k(x, t z) = φ(x) φ(t z)")


@lru_cache(maxsize=4)  # the same for every file: built once per process
def _named_activations(z: sympy.Symbol) -> dict[str, sympy.Expr]:
    return {name: build(z) for name, build in ACTIVATIONS.items()}


def ffn_activation(spec: S.Spec) -> tuple[Optional[sympy.Expr], sympy.Symbol]:
    """σ as a SymPy expression in one real variable (None for `ffn none`)."""
    z = sympy.Symbol("ξ", real=True)  # not a possible .uap name, so no param can collide with it
    ffn = spec.ffn
    if ffn.kind == "none":
        return None, z
    if ffn.kind == "named":
        assert ffn.name is not None  # the parser sets the name of every named activation
        return _named_activations(z)[ffn.name], z
    assert ffn.var is not None and ffn.expr is not None  # `ffn sigma(u) = EXPR` sets both
    params = _params(spec)
    low = _Lowerer(params, {}, {}, {}, scalars={ffn.var: z})
    return low.lower(ffn.expr), z
