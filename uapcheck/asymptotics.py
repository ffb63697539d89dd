"""Asymptotics of expressions in t as t → +∞, with coefficients in the kernel invariants.

Two forms, both exact statements about f(t) for large t:

* `Growth(C, p, E)`: f(t) = C · t^p · exp(E(t)) · (1 + o(1)), with C ≠ 0 independent of t and
  E(t) = Σ_α E_α t^α a finite sum over rational α > 0. `ZERO` means f(t) = 0 for all large t.
* `Additive(E, lam, const)`: f(t) = Σ_α E_α t^α + lam · log t + const + o(1).

Whenever the answer depends on the sign of an invariant (a, u, v, e, f), the engine raises
`NeedSign(atom)` so the caller can split into the two sign regions; anything it cannot decide
raises `Undecided(reason)`, and a trigonometric function of a growing argument raises
`Oscillates`. It never guesses: a sign is used only when SymPy's assumptions prove it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import sympy
from sympy import Rational

from typing import Optional

from .budget import BudgetExceeded, time_limit
from .expansion_size import factoring_fits
from .realness import proved_real
from .sign_points import excluded
from .lower import KEY_COORD, QUERY_COORD, QUERY_DOT_KEY, RANDOM_DOT_KEY, RANDOM_DOT_QUERY, SCALE

SIGN_ATOMS = (QUERY_DOT_KEY, QUERY_COORD, KEY_COORD, RANDOM_DOT_KEY, RANDOM_DOT_QUERY)


class Undecided(Exception):
    pass


class _Said:
    """A reason's text written when it is read (`str`), not when the exception is raised: most Undecided and Oscillates
    raised here are caught and dropped by a caller trying another route, and printing their expressions (sympy.sstr)
    was a measurable part of a derivation. The expressions are immutable; the text is the same either way."""
    __slots__ = ("_write", "_text")

    def __init__(self, write: Callable[[], str]) -> None:
        self._write = write
        self._text: Optional[str] = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._write()
        return text

    def __repr__(self) -> str:
        return repr(str(self))


class Oscillates(Exception):
    pass


class NeedSign(Exception):
    def __init__(self, atom: sympy.Symbol):
        super().__init__(f"the sign of {atom} decides")
        self.atom = atom


Poly = tuple[tuple[Rational, sympy.Expr], ...]  # ((α, E_α), ...) with α > 0, descending


def _poly(d: Mapping) -> Poly:
    items = []
    for k, val in d.items():
        val = sympy.expand(val)
        if val != 0:
            items.append((Rational(k), val))
    return tuple(sorted(items, key=lambda kv: -kv[0]))


def _padd(p: Poly, q: Poly, sign=1) -> Poly:
    d: dict = {}
    for k, val in p:
        d[k] = d.get(k, 0) + val
    for k, val in q:
        d[k] = d.get(k, 0) + sign * val
    return _poly(d)


def _pscale(p: Poly, s) -> Poly:
    return _poly({k: val * s for k, val in p})


@dataclass(frozen=True)
class Growth:
    C: sympy.Expr
    p: sympy.Expr
    E: Poly = ()
    # True when f(t) also carries a factor that oscillates between two positive bounds: it does not
    # change the growing part of log f, but then f(t)/(C t^p e^E) has no limit.
    oscillating: bool = False

    def __mul__(self, other: "Growth") -> "Growth":
        return Growth(self.C * other.C, self.p + other.p, _padd(self.E, other.E),
                      self.oscillating or other.oscillating)


ZERO = Growth(sympy.Integer(0), sympy.Integer(0), ())


@dataclass(frozen=True)
class Additive:
    E: Poly = ()
    lam: sympy.Expr = sympy.Integer(0)
    const: sympy.Expr = sympy.Integer(0)
    oscillating: bool = False  # a bounded oscillating O(1) term: `const` is then not a limit

    def __add__(self, other: "Additive") -> "Additive":
        return Additive(_padd(self.E, other.E), self.lam + other.lam, self.const + other.const,
                        self.oscillating or other.oscillating)

    def scale(self, s) -> "Additive":
        return Additive(_pscale(self.E, s), self.lam * s, self.const * s, self.oscillating)


@dataclass
class Context:
    """Signs assumed for the invariant atoms in the region being analysed."""
    signs: dict = field(default_factory=dict)

    def positive_form(self, expr: sympy.Expr) -> sympy.Expr:
        subs = {}
        for atom, s in self.signs.items():
            dummy = sympy.Symbol(f"{atom.name}_pos", positive=True)
            subs[atom] = dummy if s > 0 else -dummy
        if not subs:
            return expr
        try:
            return expr.xreplace(subs)
        except (TypeError, ValueError) as exc:
            # A comparison (relu, elu, max, abs) of a non-real value, e.g. sqrt(x·z) where x·z < 0:
            # the formula is not real-valued in this region, so no sign is decided there.
            signs = self._signs_text()
            raise Undecided(_Said(lambda: f"{sympy.sstr(expr)} is not real-valued where the signs are {signs}")) from exc

    def _signs_text(self) -> str:
        return ", ".join(f"{atom} {'>' if s > 0 else '<'} 0" for atom, s in sorted(self.signs.items(), key=str))


def _sign_candidates(pos: sympy.Expr):
    """The form whose sign the assumptions are asked first, then its factored terms, made only when the
    form itself leaves the sign open (most signs are read off the form)."""
    yield pos
    yield sympy.factor_terms(pos)


def sign_of(expr: sympy.Expr, ctx: Context) -> int:
    """+1, -1 or 0 when the assumptions prove it; NeedSign or Undecided otherwise."""
    if not isinstance(expr, sympy.Basic):
        expr = sympy.Integer(expr)
    if expr == 0:
        return 0
    pos = ctx.positive_form(expr)
    # Queries that cannot answer True (exact values of a rational function of both signs or non-zero at allowed
    # points, uapcheck/sign_points.py) are not asked, of `pos` nor of its rewritings, which are equal to it.
    out = excluded(pos)
    asked: list = []  # the forms asked so far: an equal form is not asked again (the same queries of the same tree)
    if not out.every:
        for candidate in _sign_candidates(pos):
            if candidate in asked:
                continue
            asked.append(candidate)
            sign = _asked_sign(candidate, out)
            if sign is not None:
                return sign
    # Find an undecided atom to split on: the first sign atom the expression depends on.
    for atom in SIGN_ATOMS:
        if atom in expr.free_symbols and atom not in ctx.signs:
            raise NeedSign(atom)
    if out.every or not factoring_fits(pos):  # a degree-999 polynomial is not factored (uapcheck/expansion_size.py)
        raise Undecided(_Said(lambda: f"cannot decide the sign of {sympy.sstr(expr)}"))
    with time_limit("deciding the sign of a coefficient", 2.0):
        simplified = sympy.factor(pos)
    sign = None if simplified in asked else _asked_sign(simplified, out)
    if sign is not None:
        return sign
    raise Undecided(_Said(lambda: f"cannot decide the sign of {sympy.sstr(expr)}"))


def _asked_sign(value: sympy.Expr, out) -> Optional[int]:
    """1, −1 or 0 when SymPy's assumptions decide the sign of `value`, asking only the queries that `out`
    (sign_points.excluded) has not ruled out, in the order positive, negative, zero; else None."""
    if not out.positive and value.is_positive:
        return 1
    if not out.negative and value.is_negative:
        return -1
    if not out.zero and value.is_zero:
        return 0
    return None


def _has_t(expr) -> bool:
    return SCALE in expr.free_symbols


def _is_algebraic_in_t(expr) -> bool:
    """No exp/log/trig/piecewise of anything that involves t."""
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Function) and _has_t(node):
            return False
        if isinstance(node, sympy.Pow) and _has_t(node.exp):
            return False
        if isinstance(node, (sympy.Piecewise, sympy.Max, sympy.Min, sympy.Abs)) and _has_t(node):
            return False
    return True


def _root_of_quadratic(g: sympy.Expr, s: sympy.Symbol) -> Optional[sympy.Expr]:
    """The Puiseux expansion of g = √(a/s² + b/s + c) at s = 0 down to o(1), by its closed form √a/s + b/(2√a) (with
    a, b, c free of s and a a positive symbol or number: √(a/s² + b/s + c) = (√a/s)·√(1 + (b/a)s + (c/a)s²) and
    √(1 + x) = 1 + x/2 + O(x²)), where `sympy.series` would expand it in general; None for any other g."""
    if not (isinstance(g, sympy.Pow) and g.exp == sympy.S.Half):
        return None
    base = sympy.expand(g.base * s ** 2)
    if not base.is_polynomial(s):
        return None
    poly = sympy.Poly(base, s)
    if poly.degree() > 2:
        return None
    a, b = poly.coeff_monomial(1), poly.coeff_monomial(s)  # the coefficients of t² and t
    if not (a.is_Symbol or a.is_Rational) or a.is_positive is not True:
        return None  # (for a sum or product a, `series` writes b/(2√a) as b√a/(2a): the same value printed otherwise)
    root = sympy.sqrt(a)
    return root / s + b / (2 * root)


def puiseux(expr: sympy.Expr, ctx: Context) -> Additive:
    """Exact expansion of an algebraic function of t down to o(1), via a series in s = 1/t (the square root of a
    quadratic in t by its closed form, `_root_of_quadratic`)."""
    s = sympy.Symbol("1/t", positive=True)
    g = ctx.positive_form(expr).xreplace({SCALE: 1 / s})
    # SymPy's series drops an absolute value of a t-free atom (√(1 + |x·z|/s) expands to √(x·z)/√s): every t-free
    # branch node (Abs, Max, Min, Piecewise) is a symbol during the expansion and put back after it
    frozen = _freeze_branches(g, s)
    g = g.xreplace(frozen)
    ser = _root_of_quadratic(g, s)
    if ser is None:
        with time_limit("a Puiseux expansion at t = ∞", 3.0):
            ser = sympy.series(g, s, 0, n=1).removeO()
    ser = sympy.expand(ser)
    terms: dict = {}
    const = sympy.Integer(0)
    for term in sympy.Add.make_args(ser):
        coeff, power = term.as_coeff_exponent(s)
        if s in coeff.free_symbols or not power.is_Rational:
            raise Undecided(_Said(lambda: f"no Puiseux expansion of {sympy.sstr(expr)}"))
        if power < 0:
            terms[-power] = terms.get(-power, 0) + coeff
        elif power == 0:
            const += coeff
    thawed = {sym: node for node, sym in frozen.items()}
    back = _undo(ctx)
    return Additive(_poly({k: val.xreplace(thawed).xreplace(back) for k, val in terms.items()}), sympy.Integer(0),
                    const.xreplace(thawed).xreplace(back))


def _freeze_branches(expr: sympy.Expr, var: sympy.Symbol) -> dict:
    """Each outermost branch node free of the expansion variable `var` -> a fresh symbol with what is known of it
    (an absolute value non-negative, the others real)."""
    out: dict = {}
    branchy = (sympy.Abs, sympy.Max, sympy.Min, sympy.Piecewise)
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, branchy) and not node.has(var) and not any(done.has(node) for done in out):
            out[node] = sympy.Dummy("branch", nonnegative=True) if isinstance(node, sympy.Abs) else \
                sympy.Dummy("branch", real=True)
    return out


def _undo(ctx: Context) -> dict:
    back = {}
    for atom, sgn in ctx.signs.items():
        dummy = sympy.Symbol(f"{atom.name}_pos", positive=True)
        back[dummy] = atom if sgn > 0 else -atom
    return back


def additive(expr: sympy.Expr, ctx: Context) -> Additive:  # noqa: C901 - one branch per SymPy node kind
    if not _has_t(expr):
        return Additive(const=expr)
    if expr == SCALE:
        return Additive(E=((Rational(1), sympy.Integer(1)),))
    if isinstance(expr, sympy.Add):
        total = Additive()
        for arg in expr.args:
            try:
                total = total + additive(arg, ctx)
            except Oscillates:
                if not _bounded(arg, ctx):
                    raise
                total = total + Additive(oscillating=True)
        return total
    if isinstance(expr, sympy.Mul):
        const, dep = expr.as_independent(SCALE, as_Add=False)
        if const != 1:
            return additive(dep, ctx).scale(const)
    if isinstance(expr, sympy.log):
        g = growth(expr.args[0], ctx)
        if g is ZERO or g.C == 0:
            raise Undecided("the logarithm of a quantity that vanishes")
        if sign_of(g.C, ctx) <= 0:
            raise Undecided(_Said(lambda: f"the logarithm of a negative quantity {sympy.sstr(expr.args[0])}"))
        return Additive(g.E, g.p, sympy.log(g.C))
    if isinstance(expr, sympy.exp):
        inner = additive(expr.args[0], ctx)
        if inner.E:
            top = sign_of(inner.E[0][1], ctx)
            if top < 0:
                return Additive()  # exp(-∞) → 0
            raise Undecided("exponential growth inside an additive expansion")
        if inner.lam != 0:
            raise Undecided("a power of t inside an additive expansion")
        return Additive(const=sympy.exp(inner.const))
    if isinstance(expr, (sympy.sin, sympy.cos)):
        inner = additive(expr.args[0], ctx)
        if inner.E or inner.lam != 0:
            _require_real_growth(expr, inner, ctx)
            raise Oscillates(_Said(lambda: f"{sympy.sstr(expr)} oscillates as t → ∞"))
    expanded = sympy.expand(expr)
    if expanded.is_polynomial(SCALE):
        poly = sympy.Poly(expanded, SCALE)
        terms = {}
        const = sympy.Integer(0)
        for (k,), coeff in poly.terms():
            if k == 0:
                const += coeff
            else:
                terms[k] = coeff
        return Additive(_poly(terms), sympy.Integer(0), const)
    if _is_algebraic_in_t(expr):
        return puiseux(expr, ctx)
    g = growth(expr, ctx)
    if g is ZERO:
        return Additive()
    if not g.E and g.p == 0:
        return Additive(const=g.C)
    if not g.E and sign_of(g.p, ctx) < 0:
        return Additive()
    raise Undecided(_Said(lambda: f"no additive expansion of {sympy.sstr(expr)}"))


def eventual_sign(expr: sympy.Expr, ctx: Context) -> int:
    g = growth(expr, ctx)
    if g is ZERO:
        return 0
    return sign_of(g.C, ctx)


def _resolve_branch(expr: sympy.Expr, ctx: Context) -> sympy.Expr:
    """Replace Max/Min/Abs/Piecewise by the branch that holds for all large t."""
    if isinstance(expr, sympy.Abs):
        s = eventual_sign(expr.args[0], ctx)
        return expr.args[0] * (1 if s >= 0 else -1)
    if isinstance(expr, (sympy.Max, sympy.Min)):
        args = list(expr.args)
        best = args[0]
        for other in args[1:]:
            s = eventual_sign(sympy.expand(other - best), ctx)
            if s == 0:
                raise Undecided(_Said(lambda: f"the branches of {sympy.sstr(expr)} agree asymptotically"))
            if (s > 0) == isinstance(expr, sympy.Max):
                best = other
        return best
    if isinstance(expr, sympy.Piecewise):
        for value, cond in expr.args:
            if cond is sympy.true:
                return value
            if isinstance(cond, (sympy.StrictGreaterThan, sympy.GreaterThan)):
                diff = cond.lhs - cond.rhs
            elif isinstance(cond, (sympy.StrictLessThan, sympy.LessThan)):
                diff = cond.rhs - cond.lhs
            else:
                raise Undecided(f"a piecewise condition {cond} the engine cannot follow")
            s = eventual_sign(diff, ctx)
            if s == 0:
                raise Undecided(f"the condition {cond} sits on its boundary asymptotically")
            if s > 0:
                return value
        raise Undecided("a piecewise expression with no branch for large t")
    return expr


def _resolve_all_branches(expr: sympy.Expr, ctx: Context) -> sympy.Expr:
    """Resolve every branch node that involves t, innermost first, so that sums like
    elu(t v) + 1 simplify (to exp(t v) on v < 0) before their leading terms are compared."""
    branchy = (sympy.Abs, sympy.Max, sympy.Min, sympy.Piecewise)
    while True:
        nodes = [n for n in sympy.postorder_traversal(expr) if isinstance(n, branchy) and _has_t(n)]
        if not nodes:
            return expr
        node = nodes[0]
        expr = expr.xreplace({node: _resolve_branch(node, ctx)})


def growth(expr: sympy.Expr, ctx: Context) -> Growth:  # noqa: C901 - one branch per SymPy node kind
    if _has_t(expr) and expr.has(sympy.Abs, sympy.Max, sympy.Min, sympy.Piecewise):
        expr = _resolve_all_branches(expr, ctx)
    if not _has_t(expr):
        if expr == 0:
            return ZERO
        return Growth(expr, sympy.Integer(0), ())
    if expr == SCALE:
        return Growth(sympy.Integer(1), sympy.Integer(1), ())
    if isinstance(expr, (sympy.Abs, sympy.Max, sympy.Min, sympy.Piecewise)):
        return growth(_resolve_branch(expr, ctx), ctx)
    if isinstance(expr, (sympy.tanh, sympy.sinh, sympy.cosh)):
        return growth(expr.rewrite(sympy.exp), ctx)
    if isinstance(expr, sympy.Mul):
        out = Growth(sympy.Integer(1), sympy.Integer(0), ())
        for arg in expr.args:
            try:
                g = growth(arg, ctx)
            except Oscillates:
                if not _positive_bounded_oscillation(arg, ctx):
                    raise
                g = Growth(sympy.Integer(1), sympy.Integer(0), (), True)
            if g is ZERO:
                return ZERO
            out = out * g
        return out
    if isinstance(expr, sympy.Pow):
        base, ex = expr.args
        if _has_t(ex):
            return growth(sympy.exp(ex * sympy.log(base)), ctx)
        g = growth(base, ctx)
        if g is ZERO:
            if sign_of(ex, ctx) > 0:
                return ZERO
            raise Undecided("a negative power of a quantity that vanishes")
        if not (ex.is_integer or sign_of(g.C, ctx) > 0):
            raise Undecided(_Said(lambda: f"a fractional power of a quantity of unknown sign in {sympy.sstr(expr)}"))
        return Growth(g.C ** ex, g.p * ex, _pscale(g.E, ex))
    if isinstance(expr, sympy.exp):
        inner = additive(expr.args[0], ctx)
        return Growth(sympy.exp(inner.const), inner.lam, inner.E, inner.oscillating)
    if isinstance(expr, sympy.log):
        add = additive(expr, ctx)
        if add.E:
            alpha, coeff = add.E[0]
            return Growth(coeff, alpha, ())
        if add.lam != 0:
            raise Undecided("logarithmic growth (log t) has no power-exponential form")
        if add.const != 0:
            return growth(add.const, ctx)
        if add.oscillating:
            return _zero_or_undecided(expr)
        # log A with A → 1: log(1 + u) = u (1 + O(u)) as u → 0, so log A has the growth of A − 1
        # (softplus(t a) = log(1 + e^{t a}) ~ e^{t a} for a < 0). docs/theory.md §20.3.
        rest = growth(sympy.Add(expr.args[0], -1), ctx)
        if rest is ZERO:
            return ZERO
        if not (rest.E and sign_of(rest.E[0][1], ctx) < 0) and not (not rest.E and sign_of(rest.p, ctx) < 0):
            raise Undecided(_Said(lambda: f"{sympy.sstr(expr)}: A − 1 is not shown to tend to 0"))
        return rest
    if isinstance(expr, (sympy.sin, sympy.cos, sympy.tan)):
        inner = additive(expr.args[0], ctx)
        if inner.E or inner.lam != 0:
            _require_real_growth(expr, inner, ctx)
            raise Oscillates(_Said(lambda: f"{sympy.sstr(expr)} oscillates as t → ∞"))
        limit = type(expr)(inner.const)
        return Growth(limit, sympy.Integer(0), ()) if limit != 0 else _zero_or_undecided(expr)
    if isinstance(expr, sympy.erf):
        inner = additive(expr.args[0], ctx)
        if inner.E:
            return Growth(sympy.Integer(sign_of(inner.E[0][1], ctx)), sympy.Integer(0), ())
        if inner.lam != 0:
            return Growth(sympy.Integer(sign_of(inner.lam, ctx)), sympy.Integer(0), ())
        return Growth(sympy.erf(inner.const), sympy.Integer(0), ())
    if isinstance(expr, sympy.Add):
        return _growth_of_sum(expr, ctx)
    raise Undecided(_Said(lambda: f"no asymptotic rule for {type(expr).__name__} in {sympy.sstr(expr)}"))


def _require_real_growth(expr, inner: Additive, ctx: Context) -> None:
    """A sine or cosine of a growing argument oscillates only when its argument is real: cos(√(t a)) is
    cosh(√(t |a|)) for a < 0. NeedSign for an invariant the coefficients depend on, Undecided when they are not
    proved real in this region."""
    coefficients = [co for _, co in inner.E] + [inner.lam, inner.const]
    if all(proved_real(ctx.positive_form(co)) for co in coefficients):
        return
    for atom in SIGN_ATOMS:
        if atom not in ctx.signs and any(atom in co.free_symbols for co in coefficients):
            raise NeedSign(atom)
    raise Undecided(f"{sympy.sstr(expr)}: its argument is not shown real, so it need not "
                    "oscillate (cos(i s) = cosh s)")


def _zero_or_undecided(expr):
    raise Undecided(_Said(lambda: f"{sympy.sstr(expr)} tends to 0 at an unknown rate"))


def compare(g1: Growth, g2: Growth, ctx: Context) -> int:
    """Sign of (order of g1) − (order of g2): +1 when g1 dominates."""
    diff = _padd(g1.E, g2.E, -1)
    if diff:
        return sign_of(diff[0][1], ctx)
    return sign_of(sympy.expand(g1.p - g2.p), ctx)


def _trig_atoms(expr) -> list:
    return [node for node in sympy.preorder_traversal(expr)
            if isinstance(node, (sympy.sin, sympy.cos)) and _has_t(node)]


def _replace_trig(expr, ctx: Context):
    """The sines and cosines in t replaced by real symbols standing for values in [−1, 1]; no symbols when
    one of their arguments is not proved real in this region (its value is then not in [−1, 1])."""
    atoms = _trig_atoms(expr)
    if not all(proved_real(ctx.positive_form(atom.args[0])) for atom in atoms):
        return expr, []
    symbols = [sympy.Symbol(f"trig[{k}]", real=True) for k in range(len(atoms))]
    return expr.xreplace(dict(zip(atoms, symbols))), symbols


def _positive_bounded_oscillation(expr, ctx: Context) -> bool:
    """expr depends on t only through sin/cos of growing arguments and stays between two positive
    constants: exp of a polynomial in those values, or A + Σ B_k s_k with A > Σ |B_k| (numbers)."""
    g, symbols = _replace_trig(expr, ctx)
    if not symbols or _has_t(g):
        return False
    if isinstance(g, sympy.exp) and g.args[0].is_polynomial(*symbols):
        return True
    return trig_polynomial_positive(g, symbols)


def trig_polynomial_positive(g, symbols) -> bool:
    """g is a polynomial in values s_k ∈ [−1, 1] with numeric coefficients whose constant term
    exceeds the sum of the other coefficients' absolute values (each monomial is at most 1 in size)."""
    if not g.is_polynomial(*symbols):
        return False
    poly = sympy.Poly(g, *symbols)
    if not all(co.is_number for co in poly.coeffs()):
        return False
    const = poly.coeff_monomial(1)
    rest = sum(abs(co) for mon, co in poly.terms() if any(mon))
    return bool(const - rest > 0)


def _bounded(expr, ctx: Context) -> bool:
    """expr depends on t only through sin/cos values of real arguments and is a polynomial in them."""
    g, symbols = _replace_trig(expr, ctx)
    return bool(symbols) and not _has_t(g) and g.is_polynomial(*symbols)


def _growth_of_sum(expr: sympy.Add, ctx: Context) -> Growth:  # noqa: C901 - the cancellation cases of a sum, in the order of theory §Kernel limit
    parts, bounded = [], []
    for arg in expr.args:
        try:
            parts.append(growth(arg, ctx))
        except Oscillates:
            if not _bounded(arg, ctx):
                raise
            bounded.append(arg)
    parts = [g for g in parts if g is not ZERO]
    if bounded:
        # Bounded oscillating terms vanish against a term that grows without bound.
        grows = [g for g in parts if (g.E and sign_of(g.E[0][1], ctx) > 0) or
                 (not g.E and g.p != 0 and sign_of(g.p, ctx) > 0)]
        if not grows:
            raise Oscillates(_Said(lambda: f"{sympy.sstr(expr)} has a bounded oscillating part that no term outgrows"))
    if not parts:
        return ZERO
    top = [parts[0]]
    for g in parts[1:]:
        s = compare(g, top[0], ctx)
        if s > 0:
            top = [g]
        elif s == 0:
            top.append(g)
    total = sympy.expand(sum(g.C for g in top))
    if total != 0:
        try:
            if sign_of(total, ctx) != 0:
                return Growth(total, top[0].p, top[0].E)
        except Undecided:
            pass
    if _is_algebraic_in_t(expr):
        add = puiseux(expr, ctx)
        if add.E:
            return Growth(add.E[0][1], add.E[0][0], ())
        if add.const != 0:
            return Growth(add.const, sympy.Integer(0), ())
    raise Undecided(_Said(lambda: f"the leading terms of {sympy.sstr(expr)} may cancel"))


def explore_regions(fn, budget: Optional[tuple[str, float]] = None, ctx: Optional[Context] = None,
                    max_splits: int = 4, depth: int = 0):
    """Run fn(ctx) on every sign region it asks for (through NeedSign); yield (ctx, result or the
    exception that ended it). `budget` = (step name, seconds) puts each run under a time limit."""
    ctx = ctx if ctx is not None else Context()
    try:
        if budget is None:
            value = fn(ctx)
        else:
            with time_limit(*budget):
                value = fn(ctx)
        yield ctx, value
    except NeedSign as need:
        if depth >= max_splits:
            yield ctx, Undecided("too many sign cases")
            return
        for sgn in (1, -1):
            sub = Context(dict(ctx.signs))
            sub.signs[need.atom] = sgn
            yield from explore_regions(fn, budget, sub, max_splits, depth + 1)
    except (Undecided, Oscillates, BudgetExceeded) as exc:
        yield ctx, exc
