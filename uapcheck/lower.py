"""Spec expressions → SymPy, by explicit constructors only (never sympify, parse_expr, eval).

Vectors never become SymPy matrices. A vector expression that is linear in the arguments
(x, y, x - y, 2*y, ...) is a map basis → coefficient, and inner products expand bilinearly into
the Gram invariants (the docs write them c, a, b, f, e)

    QUERY_NORM2 = |x|^2,  QUERY_DOT_KEY = x . z,  KEY_NORM2 = |z|^2,
    RANDOM_DOT_QUERY = w . x,  RANDOM_DOT_KEY = w . z  (w a random vector).

For the kernel limit the key is scaled, y ↦ t z with t = SCALE (and the query too under
`tie query key`, since scaling the shared matrix scales both). Coordinate-wise feature maps
(relu(x), elu(x) + 1, ...) are lowered one coordinate at a time: QUERY_COORD (u in the docs) is the
query's coordinate x[r], KEY_COORD (v) the key's z[r], and the kernel is the sum over coordinates r
of Q(x[r]) K(z[r]).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

import sympy
from sympy import Abs, sqrt

from .spec import BinOp, Call, Dot, Expr, FeatureList, Head, Name, Neg, Norm, Num, Param, Spec
from .functions import ACTIVATIONS, FUNCTIONS

# Internal symbols carry names that no .uap identifier can have ([A-Za-z][A-Za-z0-9_]*), so a
# declared param can never be mistaken for one of them (`t` itself is reserved by the parser).
SCALE = sympy.Symbol("t", positive=True)
QUERY_DOT_KEY = sympy.Symbol("x·z", real=True)
KEY_NORM2 = sympy.Symbol("|z|²", positive=True)
QUERY_NORM2 = sympy.Symbol("|x|²", positive=True)
RANDOM_DOT_QUERY = sympy.Symbol("w·x", real=True)
RANDOM_DOT_KEY = sympy.Symbol("w·z", real=True)
QUERY_COORD = sympy.Symbol("x[r]", real=True)
KEY_COORD = sympy.Symbol("z[r]", real=True)
ZETA = sympy.Symbol("|z_b|²", positive=True)  # a Nyström landmark's squared norm
KAPPA = sympy.Symbol("κ_b(x)", real=True, nonzero=True)  # a Nyström landmark coefficient


class Unsupported(Exception):
    """The expression is valid .uap but outside what the engines can reason about."""


def param_symbol(p: Param) -> sympy.Symbol:
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

    def lower(self, node: Expr):  # noqa: C901 - one branch per expression kind (spec.Expr)
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Name):
            if node.id in self.bases:
                base, scale = self.bases[node.id]
                return Vec(((base, scale),))
            if node.id in self.scalars:
                return self.scalars[node.id]
            return self.params[node.id]
        if isinstance(node, Neg):
            x = self.lower(node.operand)
            return self._scale(x, -1)
        if isinstance(node, Dot):
            x, y = self.lower(node.left), self.lower(node.right)
            if isinstance(x, Vec) and isinstance(y, Vec):
                return self.dot(x, y)
            raise Unsupported("an inner product of coordinate-wise vectors inside a kernel; "
                              "write such kernels as `features`")
        if isinstance(node, Norm):
            x = self.lower(node.operand)
            if isinstance(x, Vec):
                return sqrt(self.dot(x, x))
            if isinstance(x, Coord):
                raise Unsupported("the norm of a coordinate-wise vector")
            return Abs(x)
        if isinstance(node, Call):
            args = [self.lower(arg) for arg in node.args]
            fn = FUNCTIONS[node.fn].build
            try:
                if all(not isinstance(x, (Vec, Coord)) for x in args):
                    return fn(*args)
                return Coord(fn(*[self.coord(x) for x in args]))
            except ValueError as exc:  # SymPy's max/min of a value it shows not real (min(|y|, sqrt(-tau)), tau > 0)
                raise Unsupported(f"{node.fn} of a value that is not real ({exc})") from None
        if isinstance(node, BinOp):
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
        # the node's kind, not its repr: a head's premises are kept per process without its source locations
        # (derive._premises_key), so nothing they state may name one
        raise Unsupported(f"cannot lower a {type(node).__name__} node here")

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
    """k(x, t z) = Σ_r Σ_c Q_c(query_r) K_c(t): a finite sum over features r of per-feature terms, one
    product per component c of the feature map (one component unless the map is a bracketed list)."""
    parts: tuple[tuple[sympy.Expr, sympy.Expr], ...]  # (Q_c, K_c): Q in the per-feature query symbol
    # (u or f) and c, K(t) in the per-feature key symbol (v or e), b and t
    query_symbol: sympy.Symbol
    key_symbol: sympy.Symbol
    index: str  # "coordinate" (r = 1..d) or "random" (r = 1..m, w_r fixed random vectors)
    description: str

    @property
    def single(self) -> bool:
        """One component: the per-feature term is the product Q(query_r) K(t)."""
        return len(self.parts) == 1

    @property
    def query(self) -> sympy.Expr:
        """Q of a one-component map (a rule that reads the factors alone is for such maps only)."""
        if not self.single:
            raise Unsupported("a feature map with several components has no single query factor")
        return self.parts[0][0]

    @property
    def key(self) -> sympy.Expr:
        if not self.single:
            raise Unsupported("a feature map with several components has no single key factor")
        return self.parts[0][1]

    @property
    def plain_key(self) -> sympy.Expr:
        return self.key.subs(SCALE, 1)

    @property
    def term(self) -> sympy.Expr:
        """The per-feature term Σ_c Q_c K_c(t) of k(x, t z)."""
        return sympy.Add(*[q * k for q, k in self.parts])

    @property
    def plain_term(self) -> sympy.Expr:
        return self.term.subs(SCALE, 1)


KernelModel = ClosedKernel | FeatureKernel


def _params(spec: Spec) -> dict[str, sympy.Symbol]:
    return {p.name: param_symbol(p) for p in spec.params}


def _gram_xz() -> dict[frozenset, sympy.Expr]:
    return {frozenset(("q",)): QUERY_NORM2, frozenset(("q", "k")): QUERY_DOT_KEY,
            frozenset(("k",)): KEY_NORM2}


def lower_head(spec: Spec, head: Head) -> KernelModel:
    """The kernel of a head, ready for the engines. Raises Unsupported when out of scope."""
    params = _params(spec)
    if head.kind in ("kernel", "score"):
        if isinstance(head.expr, FeatureList):
            raise Unsupported("a kernel or score is one scalar, not a list")
        xq, yk = head.params
        qscale = SCALE if head.tie else sympy.Integer(1)
        scaled = _Lowerer(params, {xq: ("q", qscale), yk: ("k", SCALE)}, _gram_xz(), {}).lower(head.expr)
        plain = _Lowerer(params, {xq: ("q", 1), yk: ("k", 1)}, _gram_xz(), {}).lower(head.expr)
        if isinstance(scaled, (Vec, Coord)):
            raise Unsupported("the kernel is not a scalar")
        desc = ("k(t x, t z): the shared query-key matrix is scaled" if head.tie
                else "k(x, t z): the key direction z = W y is scaled by t")
        query_symbols = (QUERY_NORM2,) if not head.tie else (QUERY_DOT_KEY, KEY_NORM2, QUERY_NORM2)
        return ClosedKernel(scaled, plain, (QUERY_DOT_KEY, KEY_NORM2), query_symbols, desc)

    (xname,) = head.params
    if isinstance(head.expr, FeatureList):
        return _feature_list(params, head, head.expr)
    gram: dict[frozenset, sympy.Expr] = {frozenset(("q",)): QUERY_NORM2, frozenset(("k",)): KEY_NORM2}
    if head.random:
        q, k = _random_component(params, head, head.expr)
        return FeatureKernel(((q, k),), RANDOM_DOT_QUERY, RANDOM_DOT_KEY, "random",
                             "k(x, t z) = Σ_r φ_r(x) φ_r(t z) over the fixed random vectors w_r")
    q = _Lowerer(params, {xname: ("q", 1)}, gram, {"q": QUERY_COORD}).lower(head.expr)
    k = _Lowerer(params, {xname: ("k", SCALE)}, gram, {"k": KEY_COORD}).lower(head.expr)
    if isinstance(q, Vec):
        # A linear feature map φ(x) = α x: the kernel is α² x . y, a closed form.
        (_, alpha_q), = q.coeffs if len(q.coeffs) == 1 else ((None, None),)
        (_, alpha_k), = k.coeffs if isinstance(k, Vec) and len(k.coeffs) == 1 else ((None, None),)
        if alpha_q is None or alpha_k is None:
            raise Unsupported("a linear feature map must be a multiple of its argument")
        # φ(x) = α(|x|²) x: k(x, t z) = α(|x|²) x · α(t²|z|²) t z, the key's coefficient α(t²|z|²) t from
        # the key's own lowering (the query's coefficient used twice gave α(|x|²)² t x·z)
        scaled = alpha_q * alpha_k * QUERY_DOT_KEY
        return ClosedKernel(scaled, scaled.subs(SCALE, 1), (QUERY_DOT_KEY, KEY_NORM2), (QUERY_NORM2,),
                            "k(x, t z) = φ(x) . φ(t z)")
    if isinstance(q, Coord):
        assert isinstance(k, Coord)
        return FeatureKernel(((q.value, k.value),), QUERY_COORD, KEY_COORD, "coordinate",
                             "k(x, t z) = Σ_r φ(x)_r φ(t z)_r over the coordinates r")
    # A scalar feature map: a single feature.
    scaled = q * k
    return ClosedKernel(scaled, scaled.subs(SCALE, 1), (QUERY_DOT_KEY, KEY_NORM2), (QUERY_NORM2,),
                        "k(x, t z) = φ(x) φ(t z)")


def _feature_gram() -> dict[frozenset, sympy.Expr]:
    return {frozenset(("q",)): QUERY_NORM2, frozenset(("k",)): KEY_NORM2}


def _random_component(params: dict[str, sympy.Symbol], head: Head, expr: Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(Q, K(t)) of one scalar random feature: in f = w·x and |x|², and in e = w·z, |z|² and t."""
    (xname,), wname = head.params, head.random
    assert wname is not None
    gram_q = dict(_feature_gram())
    gram_q[frozenset(("w", "q"))] = RANDOM_DOT_QUERY
    gram_k = dict(_feature_gram())
    gram_k[frozenset(("w", "k"))] = RANDOM_DOT_KEY
    q = _Lowerer(params, {xname: ("q", 1), wname: ("w", 1)}, gram_q, {}).lower(expr)
    k = _Lowerer(params, {xname: ("k", SCALE), wname: ("w", 1)}, gram_k, {}).lower(expr)
    if isinstance(q, (Vec, Coord)) or isinstance(k, (Vec, Coord)):
        raise Unsupported("a random feature must be a scalar")
    return q, k


def _coordinate_component(params: dict[str, sympy.Symbol], head: Head, expr: Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """(Q, K(t)) of one coordinate-wise component: in u = x[r] (and |x|²), and in v = z[r], |z|², t."""
    (xname,) = head.params
    qlow = _Lowerer(params, {xname: ("q", 1)}, _feature_gram(), {"q": QUERY_COORD})
    klow = _Lowerer(params, {xname: ("k", SCALE)}, _feature_gram(), {"k": KEY_COORD})
    q, k = qlow.lower(expr), klow.lower(expr)
    if not isinstance(q, (Vec, Coord)) or not isinstance(k, (Vec, Coord)):
        raise Unsupported("a component of a coordinate-wise feature list must be a vector")
    return qlow.coord(q), klow.coord(k)


def _feature_list(params: dict[str, sympy.Symbol], head: Head, body: FeatureList) -> FeatureKernel:
    """A bracketed list [φ_1, …, φ_C]: the kernel Σ_r Σ_c φ_c(x)_r φ_c(t z)_r (docs/theory.md §6.1)."""
    if head.random:
        parts = tuple(_random_component(params, head, item) for item in body.items)
        return FeatureKernel(parts, RANDOM_DOT_QUERY, RANDOM_DOT_KEY, "random",
                             "k(x, t z) = Σ_r Σ_c φ_c(x; w_r) φ_c(t z; w_r) over the fixed random vectors w_r "
                             "and the components c")
    parts = tuple(_coordinate_component(params, head, item) for item in body.items)
    return FeatureKernel(parts, QUERY_COORD, KEY_COORD, "coordinate",
                         "k(x, t z) = Σ_r Σ_c φ_c(x)_r φ_c(t z)_r over the coordinates r and the components c")


@lru_cache(maxsize=64)  # the same for every file: each one used built once per process
def _named_activation(name: str, z: sympy.Symbol) -> sympy.Expr:
    return ACTIVATIONS[name](z)


def ffn_activation(spec: Spec) -> tuple[Optional[sympy.Expr], sympy.Symbol]:
    """σ as a SymPy expression in one real variable (None for `ffn none`)."""
    z = sympy.Symbol("ξ", real=True)  # not a possible .uap name, so no param can collide with it
    ffn = spec.ffn
    if ffn.kind == "none":
        return None, z
    if ffn.kind == "named":
        assert ffn.name is not None  # the parser sets the name of every named activation
        return _named_activation(ffn.name, z), z
    assert ffn.var is not None and ffn.expr is not None  # `ffn sigma(u) = EXPR` sets both
    params = _params(spec)
    low = _Lowerer(params, {}, {}, {}, scalars={ffn.var: z})
    return low.lower(ffn.expr), z
