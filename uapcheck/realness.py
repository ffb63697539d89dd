"""Which expressions are proved real-valued: the premise under which sin, cos, tanh and erf lie in [−1, 1].

Off the real line these functions are unbounded (cos(2i) = cosh 2 > 1, tanh(iπ/4) = i), so a rule that
bounds them first proves their argument real here (docs/theory.md §4). The proof is structural: real
symbols and numbers, sums, products and integer powers of real quantities, the real functions of a real
argument, the logarithm of a quantity proved positive, a negative power of one proved non-zero, and a
fractional power of one proved positive (or non-negative, for a positive exponent) — a Gram form among the
latter: α|x|² + 2γ x·z + β|z|² + κ with [[α, γ], [γ, β]] positive semidefinite and κ ≥ 0, such as |x ± z|² (docs/theory.md
§4, Lemma D). Anything else (sqrt of an expression of unknown sign, a logarithm of one not proved positive, a function
this module does not know) is not proved real.
"""
from __future__ import annotations

from typing import Callable, Optional

import sympy

# sin, cos, tanh and erf of a real argument lie in [−1, 1]; of a complex one they do not.
BOUNDED_FUNCTIONS = (sympy.sin, sympy.cos, sympy.tanh, sympy.erf)
# (no tan: real where defined, but its poles make it infinite at real arguments)
_REAL_OF_REAL = (sympy.exp, sympy.sin, sympy.cos, sympy.sinh, sympy.cosh, sympy.tanh, sympy.erf,
                 sympy.atan, sympy.sign, sympy.Heaviside)

Positive = Callable[[sympy.Expr], bool]


def proved_real(expr: sympy.Basic, positive: Optional[Positive] = None, gram: bool = False) -> bool:  # noqa: C901 - one branch per node kind
    """expr is real (and finite) by its structure: a negative power needs a base proved non-zero. `positive` proves a quantity > 0 (the sign
    engine) where SymPy's assumptions do not; a logarithm's argument and a fractional power's base need it. `gram`: a
    fractional power with a positive exponent of a Gram form with a positive semidefinite matrix (`gram_nonnegative`,
    Lemma D) is real too."""
    def pos(e: sympy.Expr) -> bool:
        return e.is_positive is True or (positive is not None and positive(e))

    if expr.is_Number or expr.is_NumberSymbol or expr.is_Symbol:
        return expr.is_real is True
    if expr.is_Add or expr.is_Mul:
        return all(proved_real(arg, positive, gram) for arg in expr.args)
    if expr.is_Pow:
        base, ex = expr.args
        if base is sympy.E:
            return proved_real(ex, positive, gram)
        if not proved_real(ex, positive, gram) or not proved_real(base, positive, gram):
            return False
        if ex.is_integer and ex.is_nonnegative:
            return True
        if ex.is_integer:  # a negative power: finite only where the base is not 0
            return base.is_nonzero is True or pos(base)
        return (ex.is_positive is True and (base.is_nonnegative is True or (gram and nonnegative_by_structure(base)))) \
            or pos(base)
    if isinstance(expr, sympy.log):
        return pos(expr.args[0]) and proved_real(expr.args[0], positive, gram)
    if isinstance(expr, sympy.Abs):  # real where its argument is finite: |log |z|| is ∞ at z = 0
        return proved_real(expr.args[0], positive, gram)
    if isinstance(expr, sympy.cos) and _square_root_of_real(expr.args[0], positive, gram) is not None:
        return True  # cos(√u) = Σ_k (−u)^k/(2k)! is real for every real u (cosh(√−u) for u < 0)
    if isinstance(expr, _REAL_OF_REAL):
        return proved_real(expr.args[0], positive, gram)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        return all(proved_real(arg, positive, gram) for arg in expr.args)
    if isinstance(expr, sympy.Piecewise):
        return all(proved_real(value, positive, gram) for value, _ in expr.args)
    return False


# The Gram invariants of a kernel's query x and key z (uapcheck/lower.py), and the same with |x|², |z|² allowed to be 0
# (the second run of WP-POSITIVE, rules/analytic.py): a polynomial in them is a function of the Gram matrix of (x, z).
QUERY_NORM2_NAMES = ("|x|²", "|x|²≥0")
KEY_NORM2_NAMES = ("|z|²", "|z|²≥0")
DOT_NAME = "x·z"


def gram_nonnegative(base: sympy.Expr) -> bool:
    """base = α|x|² + 2γ x·z + β|z|² + κ ≥ 0 for every query x and key z (docs/theory.md §4, Lemma D): α, γ, β and κ
    free of the invariants, with α ≥ 0, β ≥ 0, αβ − γ² ≥ 0 and κ ≥ 0 by SymPy's assumptions (on the params and the
    scale t). Then base − κ = tr(M G) with M = [[α, γ], [γ, β]] and G the Gram matrix of (x, z), both positive
    semidefinite, so base ≥ κ ≥ 0: |x − z|² = |x|² − 2x·z + |z|² and 1 + |x + 2z|² are such forms, although
    x·z alone has no sign."""
    if not isinstance(base, sympy.Expr) or not base.is_Add:
        return False
    syms = {s.name: s for s in base.free_symbols if isinstance(s, sympy.Symbol)}
    queries = [syms[n] for n in QUERY_NORM2_NAMES if n in syms]
    keys = [syms[n] for n in KEY_NORM2_NAMES if n in syms]
    dot = syms.get(DOT_NAME)
    if len(queries) > 1 or len(keys) > 1 or dot is None:
        return False
    gens = [dot] + queries + keys
    poly = sympy.Poly(base, *gens) if base.is_polynomial(*gens) else None
    if poly is None or poly.total_degree() > 1:
        return False
    one = sympy.Integer(1)
    gamma2 = poly.coeff_monomial(dot)  # 2γ
    alpha = poly.coeff_monomial(queries[0]) if queries else sympy.Integer(0)
    beta = poly.coeff_monomial(keys[0]) if keys else sympy.Integer(0)
    kappa = poly.coeff_monomial(one)
    det = sympy.expand(4 * alpha * beta - gamma2 ** 2)  # 4(αβ − γ²)
    return all(v.is_nonnegative is True or v == 0 for v in (alpha, beta, kappa, det))


def nonnegative_by_structure(expr: sympy.Expr) -> bool:  # noqa: C901 - one branch per node kind
    """expr ≥ 0 (and real) for every input, by structure with Lemma D: SymPy's assumptions, a Gram form with a
    positive semidefinite matrix (`gram_nonnegative`), sums and products of such, an even power of a real quantity, a
    positive power of a non-negative one (√(|x − z|·|x + z|)), an exponential of a real quantity, an absolute value."""
    if expr.is_nonnegative is True or gram_nonnegative(expr):
        return True
    if expr.is_Add or expr.is_Mul:
        return all(isinstance(arg, sympy.Expr) and nonnegative_by_structure(arg) for arg in expr.args)
    if expr.is_Pow:
        base, ex = expr.args
        if base is sympy.E:
            return proved_real(ex, gram=True)
        if ex.is_integer and ex.is_even and ex.is_nonnegative:
            return proved_real(base, gram=True)
        return ex.is_positive is True and proved_real(ex, gram=True) and nonnegative_by_structure(base)
    if isinstance(expr, sympy.Abs):
        return proved_real(expr.args[0], gram=True)
    return False


def bounded_atoms(expr: sympy.Basic) -> list:
    """The sin, cos, tanh and erf nodes of expr, outermost first."""
    return [node for node in sympy.preorder_traversal(expr) if isinstance(node, BOUNDED_FUNCTIONS)]


def unreal_arguments(expr: sympy.Basic, positive: Optional[Positive] = None, gram: bool = False) -> list:
    """The sin, cos, tanh and erf nodes of expr whose argument is not proved real."""
    return [node for node in bounded_atoms(expr) if not proved_real(node.args[0], positive, gram)]


# Even functions of a square root (docs/theory.md §4, the one-sided bounds): for a real u, cos(√u) = Σ_k (−u)^k/(2k)!
# and sin(√u)/√u = Σ_k (−u)^k/(2k + 1)! are real entire functions of u, whichever square root is taken. For u ≥ 0
# they are cos t and sin t / t at t = √u ≥ 0, so cos(√u) ≥ −1 and sin(√u)/√u > −2173/10000 (sin t / t ≥ 0 on [0, π],
# ≥ −1/t ≥ −1/(2π) beyond 2π, and sin t + (2173/10000) t > 0 on [π, 2π] by convexity and two interval evaluations at
# t = 4.4933 and 4.4934: docs/theory.md §4, Lemma W; the true minimum is about −0.217234, at tan t = t); for u < 0
# they are cosh s and sinh s / s at s = √−u > 0, both ≥ 1. Neither is bounded above (they grow like e^{√−u}), so each
# bounds a factor from below only.
COS_SQRT_LOWER = sympy.Integer(-1)
SINC_SQRT_LOWER = sympy.Rational(-2173, 10000)


def _square_root_of_real(node: sympy.Basic, positive: Optional[Positive], gram: bool = False) -> Optional[sympy.Expr]:
    """u when node is √u with u proved real but √u not (its sign unknown), else None."""
    if node.is_Pow and node.args[1] == sympy.S.Half and proved_real(node.args[0], positive, gram) \
            and not proved_real(node, positive, gram):
        return node.args[0]
    return None


def one_sided_atoms(expr: sympy.Expr, positive: Optional[Positive] = None, gram: bool = False) -> tuple:
    """(expr with each cos(√u) and each product sin(√u)·u^(−1/2) of a real u not proved ≥ 0 replaced by a real
    symbol, [(symbol, its lower bound, the node replaced)]): the even functions of a square root above, whose values
    are real and bounded below on the whole real line of u (cos(√u) ≥ −1, sin(√u)/√u ≥ −2173/10000)."""
    found: list = []
    cache: dict = {}

    def symbol(node, lower):
        if node not in cache:
            cache[node] = sympy.Symbol(f"even[{len(cache)}]", real=True)
            found.append((cache[node], lower, node))
        return cache[node]

    def walk(e: sympy.Expr) -> sympy.Expr:
        if isinstance(e, sympy.cos) and _square_root_of_real(e.args[0], positive, gram) is not None:
            return symbol(e, COS_SQRT_LOWER)
        if e.is_Mul:
            args = list(e.args)
            for s in [a for a in args if isinstance(a, sympy.sin)]:
                u = _square_root_of_real(s.args[0], positive, gram)
                inverse = sympy.Pow(u, -sympy.S.Half) if u is not None else None
                if inverse is not None and s in args and inverse in args:
                    args.remove(s)
                    args.remove(inverse)
                    args.append(symbol(sympy.Mul(s, inverse, evaluate=False), SINC_SQRT_LOWER))
            return sympy.Mul(*[walk(a) for a in args])
        if e.args and not e.is_Atom:
            return e.func(*[walk(a) for a in e.args])
        return e

    return walk(expr), found
