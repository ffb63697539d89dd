"""Two-sample separation by Taylor moments, for analytic kernels that (LIM) does not decide.

TD-RIDGE (the paper's Corollary 5, §4.4.1, attention with a bias term): a head whose kernel is
α(q · k) for one analytic α that is not a polynomial, with `affine query key`, is 1-layer token
distinguishing w.r.t. S_n, whether or not α satisfies (LIM). TD-RADIAL: the same for a radial
kernel g(|q − k|²) with g analytic and not a polynomial (Cauchy, inverse multiquadric), without
biases, for d ≥ 2. Both rest on the moment lemma of docs/theory.md §20.1: equal outputs at a shared
token for every parameter force equal moment tensors of every degree, hence equal token sets.

The non-polynomial premise is certified by α's growth at +∞ and at −∞ (uapcheck/asymptotics.py):
a polynomial of degree D has the growth L t^D at +∞ and (−1)^D L t^D at −∞, so any other pair of
growths rules it out. The certificate re-checks that implication exactly and the growths at
high precision (the growth computation itself is the asymptotic engine's).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import sympy

from .. import proof
from ..claim import Claim, Formula, chain, claim, math, written
from .wording import S_N
from ..asymptotics import Context, Growth, NeedSign, Oscillates, Undecided, ZERO, growth, sign_of
from ..budget import BudgetExceeded, time_limit
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t, ClosedKernel
from ..zero import is_zero

CITE_RIDGE = proof.derived(
    "Corollary 5", "Theorem 2",
    text="Cheng et al. 2025, Corollary 5 (§4.4.1, attention with a bias term) with Theorem 2; the "
         "two-sample argument (by derivatives, for analytic non-polynomial α, instead of the paper's "
         "Fourier transform for α of polynomial growth) is derived here: docs/theory.md §20.1")

# Arguments at which the certified growths are re-evaluated (60 significant digits).
CITE_RADIAL = proof.derived(
    "Theorem 2",
    text="Cheng et al. 2025, Theorem 2 (two samples suffice) with the moment lemma derived here: "
         "docs/theory.md §20.2")

CHECK_POINTS = (sympy.Integer(10), sympy.Integer(10) ** 3, sympy.Integer(10) ** 5)
CHECK_DIGITS = 60


def _nonzero(value: sympy.Expr) -> bool:
    """`value` is non-zero for every admissible value of the declared params in it."""
    value = sympy.nsimplify(value) if value.is_Float else value
    if value.is_zero is False:
        return True
    if value.is_zero:
        return False
    try:
        return sign_of(value, Context()) != 0
    except (Undecided, NeedSign, BudgetExceeded):
        return False


def _finite(value: sympy.Expr) -> bool:
    """`value` is finite for every admissible value of the declared params in it (SymPy's assumptions)."""
    if value.is_finite:
        return True
    try:
        with time_limit("deciding whether a growth constant is finite", 2.0):
            return sympy.simplify(value).is_finite is True
    except BudgetExceeded:
        return False


def _degenerate_values(value: sympy.Expr) -> list[str]:
    """Admissible param values (by the params' assumptions) where `value` is 0 or not finite, when
    SymPy's solver names them: 'g = 0'. Best effort, for the wording only (the check does not use it)."""
    named: list[str] = []
    num, den = sympy.fraction(sympy.together(value))
    for sym in sorted(value.free_symbols, key=lambda s: s.name):
        for part in (den, num):
            try:
                with time_limit("naming the degenerate values of a param", 2.0):
                    roots = sympy.solve(part, sym)
            except (BudgetExceeded, NotImplementedError, ValueError, TypeError):
                continue
            for root in roots:
                text = f"{sym.name} = {sympy.sstr(root)}"
                if root.is_real is not False and text not in named:
                    named.append(text)
    return named


def growth_form_problem(g: Growth) -> Optional[str]:
    """Why the growth C t^p e^{E(t)} is not proved for every admissible value of the declared params
    (docs/theory.md §20.1, hypothesis (G)), or None: C must be finite and non-zero and p free of params
    for all of them. The engine computes the form for the params as symbols, generically: at a value
    where C vanishes or is infinite (1/g at g = 0 for `1/(1 + g r)`) the profile has another growth,
    possibly that of a polynomial (a constant)."""
    if g is ZERO:
        return None
    if g.p.free_symbols:
        return f"its power t^{sympy.sstr(g.p)} depends on a param"
    if not (_finite(g.C) and _nonzero(g.C)):
        where = _degenerate_values(g.C)
        at = f" (it is 0 or not finite at {' and at '.join(where)})" if where else ""
        return (f"its constant C = {sympy.sstr(g.C)} is not shown finite and non-zero for every admissible "
                f"param value{at}")
    return None


def _growth_json(g: Growth) -> dict:
    return {"C": sympy.sstr(g.C), "p": sympy.sstr(g.p),
            "E": [[sympy.sstr(al), sympy.sstr(co)] for al, co in g.E]}


def not_polynomial_reason(plus: Growth, minus: Growth) -> Optional[Claim]:
    """Why α with growth `plus` at +∞ (of α(t)) and `minus` at −∞ (of α(−t)) is not a polynomial, or
    None. A polynomial of degree D with leading coefficient L ≠ 0 has α(t) ~ L t^D and
    α(−t) ~ (−1)^D L t^D; the zero polynomial vanishes at both ends. The form C t^p e^{E(t)} with
    C ≠ 0 is unique, so any mismatch rules a polynomial out."""
    if plus.oscillating or minus.oscillating:
        return None
    if (plus is ZERO) != (minus is ZERO):
        return claim("α vanishes for all large arguments at one end only")
    if plus is ZERO:
        return None
    for name, g in (("+∞", plus), ("−∞", minus)):
        if g.E and any(_nonzero(co) for _, co in g.E):
            return claim(f"α grows or decays exponentially at {name} (log-growth {sympy.sstr(g.E)})")
    for name, g in (("+∞", plus), ("−∞", minus)):
        if g.p.free_symbols or g.E:
            return None  # a power that depends on a param (it may be an integer), or an E that may vanish
        if not (g.p.is_integer and g.p.is_nonnegative):
            return claim("α behaves like ", _power(None, g.p), f" at {name}, not a non-negative integer power")
    if plus.p != minus.p:
        return claim("α behaves like ", _power(None, plus.p), " at +∞ but like ", _power(None, minus.p, absolute=True),
                     " at −∞")
    expected = (-1) ** int(plus.p) * plus.C
    if _nonzero(sympy.simplify(minus.C - expected)):
        return claim(chain(written("α(t) ~ ", r"\alpha(t) \sim"), _power(plus.C, plus.p)), " at +∞ but ",
                     chain(written("α(−t) ~ ", r"\alpha(-t) \sim"), _power(minus.C, plus.p)),
                     f", while a polynomial of degree {sympy.sstr(plus.p)} would give ", math(expected))
    return None


def _power(coefficient, power, absolute: bool = False) -> Formula:
    """`C·t^p` (or `t^p`, `|t|^p`) as a formula, worded as before: the growth of a profile at infinity."""
    base = sympy.Abs(_T) if absolute else _T
    term = sympy.Pow(base, power, evaluate=False)
    text = f"{'|t|' if absolute else 't'}^{sympy.sstr(power)}"
    if coefficient is None:
        return Formula(term, text)
    return Formula(sympy.Mul(coefficient, term, evaluate=False), f"{sympy.sstr(coefficient)}·{text}")


def _growth(g: Growth) -> Formula:
    """`C·t^p·e^{E(t)}` as one formula (E(t) = Σ c·t^a over the growth's exponent terms), `C·t^p` with no E."""
    if not g.E:
        return _power(g.C, g.p)
    value = _model_value(g, _T)
    return Formula(value, sympy.sstr(value).replace("**", "^").replace("*", "·"))


def _model_value(g: Growth, tval) -> sympy.Expr:
    """C·t^p·e^{E(t)} at t = tval (a number, or the symbol t)."""
    return g.C * tval ** g.p * sympy.exp(sum((co * tval ** al for al, co in g.E), sympy.Integer(0)))


def _param_samples(params) -> list[dict]:
    """Admissible values of the params at which the certified growths are re-evaluated: 3/2, and 7 (a
    second point, so that a growth right at one value only is caught), for every param at once."""
    return [{s: value for s in params} for value in (sympy.Rational(3, 2), sympy.Integer(7))]


@dataclass(frozen=True)
class MomentCertificate(proof.Certificate):
    """The kernel as a function of one scalar (q·k for TD-RIDGE, |q − k|² for TD-RADIAL), the head's
    flags, the analyticity step, and the profile's growth at +∞ (and at −∞ for q·k). The check:
    the kernel is that function of that scalar alone (exact identity); the head's flags are those
    the rule needs; the analyticity step is proved (for a normalised head, with positivity proved
    under it); each growth holds for every admissible param value (C finite and non-zero and p free
    of params, under the params' declared signs: hypothesis (G) of docs/theory.md §20.1); the growths
    rule out a polynomial (exact); and the profile at ±T agrees with the certified growths at high
    precision at T = 10, 10³, 10⁵ (relative errors that do not grow, below 10⁻² at the largest T),
    with the declared params at 3/2 and at 7."""

    shape: str  # "dot" (k = α(x·z)) or "radial" (k = g(|x − z|²))
    kernel: sympy.Expr  # the head's k(x, z) in the invariants
    params: frozenset  # the declared params' names
    profile: sympy.Expr  # α or g in `variable`
    variable: sympy.Symbol
    normalized: bool
    affine: bool
    tied: bool
    analytic: Any  # the AN-STRUCT step
    plus: Optional[Growth]  # None when `period` shows the profile is not a polynomial
    minus: Optional[Growth]  # None for the radial shape (only r ≥ 0 is reachable)
    period: Optional[sympy.Expr] = None  # P with α(u + P) = α(u) (a periodic non-constant α: not a polynomial)
    exponent: Optional[tuple] = None  # (end ±1, growth of H) for α = exp(H) (Theorem F217, docs/theory.md §20.1)
    kind = "moment-profile"

    def check(self) -> None:
        reject = proof.CertificateRejected
        if self.tied or (self.shape == "dot" and not self.affine):
            raise reject("MomentCertificate: TD-RIDGE needs `affine query key`; neither rule allows `tie query key`")
        if not proof.is_step(self.analytic) or not self.analytic.proved:
            raise reject("MomentCertificate: analyticity in θ is not proved")
        if self.normalized and not any(p.rule == "WP-POSITIVE" and p.proved for p in self.analytic.premises):
            raise reject("MomentCertificate: a normalised head needs a proved positive kernel")
        extra = {s for s in self.kernel.free_symbols if s not in (a, b, c)}
        if any(s.name not in self.params for s in extra) or self.variable in self.kernel.free_symbols:
            raise reject("MomentCertificate: the kernel has symbols other than its invariants and params")
        scalar = a if self.shape == "dot" else c - 2 * a + b
        if self.period is not None:
            self._check_periodic(extra, scalar)
            return
        if self.exponent is not None:
            self._check_exponent(extra, scalar)
            return
        if self.plus is None:
            raise reject("MomentCertificate: neither a growth at +∞ nor a period")
        for g in (self.plus, self.minus):
            problem = None if g is None else growth_form_problem(g)
            if problem:
                raise reject(f"MomentCertificate: the growth does not hold for every admissible param value: {problem}")
        scalar = a if self.shape == "dot" else c - 2 * a + b
        if not is_zero(self.kernel - self.profile.xreplace({self.variable: scalar})):
            raise reject(f"MomentCertificate: the kernel is not the profile of {sympy.sstr(scalar)}")
        if self.shape == "radial":
            if not_polynomial_at_infinity(self.plus, self.profile, self.variable) is None:
                raise reject("MomentCertificate: the growth at +∞ does not rule out a polynomial")
        elif self.minus is None or not_polynomial_reason(self.plus, self.minus) is None:
            raise reject("MomentCertificate: the growths do not rule out a polynomial")
        for sample in _param_samples(extra):
            self._check_numerically(sample)

    def _check_periodic(self, extra: set, scalar: sympy.Expr) -> None:
        """The periodic route: a param-free α(q·k) that is the kernel, periodic and not constant."""
        reject = proof.CertificateRejected
        if self.shape != "dot" or extra or self.period is None:
            raise reject("MomentCertificate: the periodic route is for a score α(q·k) without params")
        if not is_zero(self.kernel - self.profile.xreplace({self.variable: scalar})):
            raise reject(f"MomentCertificate: the kernel is not the profile of {sympy.sstr(scalar)}")
        if periodic_not_constant(self.profile, self.variable, self.period) is None:
            raise reject("MomentCertificate: the profile is not shown periodic and non-constant")

    def _check_exponent(self, extra: set, scalar: sympy.Expr) -> None:
        """The exponent route (Theorem F217): a param-free α(q·k) = exp(H), and H's growth at one end rules out a
        polynomial; H at ±T follows that growth at 60 digits (T = 10, 10³, 10⁵)."""
        reject = proof.CertificateRejected
        if self.shape != "dot" or extra or self.exponent is None:
            raise reject("MomentCertificate: the exponent route is for a score α(q·k) without params")
        if not is_zero(self.kernel - self.profile.xreplace({self.variable: scalar})):
            raise reject(f"MomentCertificate: the kernel is not the profile of {sympy.sstr(scalar)}")
        end, g = self.exponent
        inner = exponent_of(self.profile)
        if end not in (1, -1) or inner is None or exponent_not_polynomial(g, end) is None:
            raise reject("MomentCertificate: the profile is not exp(H) with H's growth ruling out a polynomial")
        errors = []
        for T in CHECK_POINTS:
            actual = inner.xreplace({self.variable: end * T}).evalf(CHECK_DIGITS)
            errors.append(abs(actual / _model_value(g, T).evalf(CHECK_DIGITS) - 1))
        if not (errors[2] < sympy.Rational(1, 100) and errors[2] <= errors[1] <= errors[0]):
            raise reject("MomentCertificate: the exponent does not follow the certified growth")

    def _check_numerically(self, sample: dict) -> None:  # with growths (not the periodic route)
        reject = proof.CertificateRejected
        for sign, g in ((1, self.plus), (-1, self.minus)):
            if g is None or g is ZERO:
                continue
            errors = []
            for T in CHECK_POINTS:
                actual = self.profile.xreplace({self.variable: sign * T, **sample}).evalf(CHECK_DIGITS)
                model = _model_value(g, T).xreplace(sample).evalf(CHECK_DIGITS)
                if model == 0:
                    raise reject("MomentCertificate: a growth with a zero constant")
                errors.append(abs(actual / model - 1))
            if not (errors[2] < sympy.Rational(1, 100) and errors[2] <= errors[1] <= errors[0]):
                raise reject(f"MomentCertificate: the profile at {'+' if sign > 0 else '−'}T does not follow the "
                             f"certified growth (relative errors {[sympy.sstr(e.evalf(5)) for e in errors]})")

    def to_json(self) -> Any:
        reason: Any = None
        if self.period is not None:
            reason = periodic_not_constant(self.profile, self.variable, self.period)
        elif self.exponent is not None:
            reason = exponent_not_polynomial(self.exponent[1], self.exponent[0])
        elif self.plus is not None:
            reason = (not_polynomial_at_infinity(self.plus, self.profile, self.variable)
                      if self.shape == "radial" or self.minus is None
                      else not_polynomial_reason(self.plus, self.minus))
        period = {} if self.period is None else {"period": sympy.sstr(self.period)}
        if self.exponent is not None:
            period = {"exponent at": self.exponent[0], "growth of the exponent": _growth_json(self.exponent[1])}
        return {"kind": self.kind, "shape": self.shape, "profile": sympy.sstr(self.profile),
                "variable": self.variable.name, "normalized": self.normalized, "affine": self.affine,
                "tied": self.tied, **period,
                "growth at +inf": None if self.plus is None else _growth_json(self.plus),
                "growth at -inf": None if self.minus is None else _growth_json(self.minus),
                "reason": None if reason is None else str(reason)}


def periodic_not_constant(profile: sympy.Expr, variable: sympy.Symbol, period: sympy.Expr) -> Optional[str]:
    """Why α is not a polynomial when α(u + P) = α(u) exactly (P ≠ 0) and α takes two different values at 0 and
    P/4 or P/2 (a periodic polynomial is bounded, hence constant); None when that is not shown."""
    if period.free_symbols or not period.is_nonzero:
        return None
    try:
        if not is_zero(profile.xreplace({variable: variable + period}) - profile):
            return None
        for other in (period / 4, period / 2):
            gap = sympy.simplify(profile.xreplace({variable: sympy.Integer(0)}) - profile.xreplace({variable: other}))
            if gap.is_zero is False:
                return (f"α(u + {sympy.sstr(period)}) = α(u) and α(0) ≠ α({sympy.sstr(other)}): a periodic polynomial "
                        "is constant")
    except (TypeError, ValueError, NotImplementedError):
        return None
    return None


def _period(alpha: sympy.Expr) -> Optional[sympy.Expr]:
    """A period of a param-free α with sines and cosines, shown by periodic_not_constant: 2π or π, else the common
    period 2πQ/g of sines and cosines of ω_k·u + c_k with rational frequencies ω_k (Q the lcm of their denominators, g
    the gcd of the numerators ω_k·Q), or its half."""
    if alpha.free_symbols - {U} or not alpha.has(sympy.sin, sympy.cos):
        return None
    for period in (2 * sympy.pi, sympy.pi, *_common_periods(alpha)):
        if periodic_not_constant(alpha, U, period) is not None:
            return period
    return None


def _common_periods(alpha: sympy.Expr) -> tuple:
    """(2πQ/g, πQ/g) when every sine and cosine of α has an argument ω·u + c with ω a non-zero rational (a
    trigonometric polynomial in u with commensurable frequencies); () otherwise (sin(u) + sin(πu) has no period)."""
    from math import gcd, lcm
    freqs = []
    for node in sympy.preorder_traversal(alpha):
        if isinstance(node, (sympy.sin, sympy.cos)):
            omega = sympy.diff(node.args[0], U)
            if not (omega.is_Rational and omega != 0):
                return ()
            freqs.append(abs(omega))
    if not freqs:
        return ()
    q = lcm(*(int(w.q) for w in freqs))
    g = gcd(*(int(w * q) for w in freqs))
    base = 2 * sympy.pi * sympy.Rational(q, g)
    return (base, base / 2)


_T = sympy.Symbol("t")  # the variable of a growth at infinity, in a claim's formula
U = sympy.Symbol("q·k", real=True)
R = sympy.Symbol("|q−k|²", nonnegative=True)


def not_polynomial_at_infinity(g: Growth, profile: Optional[sympy.Expr] = None,
                               variable: Optional[sympy.Symbol] = None) -> Optional[Claim]:
    """Why a profile with growth `g` at +∞ is not a polynomial (a polynomial grows like L t^D). With the
    profile and its variable: a profile with a finite limit C at +∞ (p = 0, no exponential part) whose value
    at 0 differs from C for every admissible param value is not a polynomial either — a polynomial with a
    finite limit at +∞ is that constant (docs/theory.md §20.2, the bounded case)."""
    if g is ZERO or g.oscillating:
        return None
    if g.E and any(_nonzero(co) for _, co in g.E):
        return claim(f"it grows or decays exponentially at +∞ (log-growth {sympy.sstr(g.E)})")
    if g.p.free_symbols or g.E:
        return None  # a power that depends on a param (it may be an integer), or an E that may vanish
    if not (g.p.is_integer and g.p.is_nonnegative):
        return claim("it behaves like ", _power(None, g.p), " at +∞, not a non-negative integer power")
    if g.p == 0 and profile is not None and variable is not None:
        return _bounded_not_constant(g, profile, variable)
    return None


def exponent_of(profile: sympy.Expr) -> Optional[sympy.Expr]:
    """H when the profile is one exponential exp(H), else None."""
    return profile.args[0] if isinstance(profile, sympy.exp) else None


def exponent_not_polynomial(g: Growth, end: int) -> Optional[Claim]:
    """Theorem F217 (docs/theory.md §20.1): α = exp(H) with H(end·t) ~ C t^p e^{E(t)}, C a non-zero number, and E's
    leading coefficient a positive number or (no E) p ≥ 1: |H| outgrows every multiple of log t, so α grows faster
    than every power (C > 0) or tends to 0 without vanishing (C < 0) at that end; a polynomial does neither."""
    if g is ZERO or g.oscillating:
        return None
    values = [sympy.Integer(v) if isinstance(v, int) else v  # the growth engine's exact numbers (no text)
              for v in (g.C, g.p, *(co for _, co in g.E), *(al for al, _ in g.E))]
    if any(v.free_symbols for v in values) or not all(v.is_real for v in values) or not _nonzero(g.C):
        return None
    grows = bool(g.E[0][1].is_positive and g.E[0][0].is_positive) if g.E else bool(g.p >= 1)
    if not grows:
        return None
    side = "+∞" if end > 0 else "−∞"
    what = ("grows faster than every power" if g.C.is_positive else "tends to 0 without vanishing")
    return claim(f"α = exp(H) and H grows faster than log t at {side} (H ~ ", _growth(g),
                 f"), so α {what} there")


def _bounded_not_constant(g: Growth, profile: sympy.Expr, variable: sympy.Symbol) -> Optional[Claim]:
    """The bounded case: g(t) → C at +∞ and g(0) ≠ C for every admissible param value (exact)."""
    try:
        with time_limit("the profile at 0", 3.0):
            at_zero = sympy.simplify(profile.xreplace({variable: sympy.Integer(0)}))
            gap = sympy.simplify(at_zero - g.C)
    except BudgetExceeded:
        return None
    if at_zero.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or not _finite(at_zero) or not _nonzero(gap):
        return None
    zero = Formula(sympy.Eq(sympy.Function("g")(sympy.Integer(0)), at_zero, evaluate=False),
                   f"g(0) = {sympy.sstr(at_zero)}")
    return claim("it tends to ", math(g.C), " at +∞ while ", zero, ": a polynomial with a finite limit at +∞ is "
                 "that constant")


def _extra_ok(expr, params: frozenset, allowed) -> bool:
    return all(s in allowed or s.name in params for s in expr.free_symbols)


def activation(model, params: frozenset) -> Optional[sympy.Expr]:
    """α(u) when the head's kernel is a function of the query–key inner product (and declared params)
    alone, else None."""
    if not isinstance(model, ClosedKernel) or not model.plain.has(a):
        return None
    if not _extra_ok(model.plain, params, {a}):
        return None
    return model.plain.xreplace({a: U})


def radial_profile(model, params: frozenset) -> Optional[sympy.Expr]:
    """g(r) when the head's kernel is g(|x − z|²) (an exact identity in the invariants), else None."""
    if not isinstance(model, ClosedKernel) or not _extra_ok(model.plain, params, {a, b, c}):
        return None
    if not (model.plain.has(a) and model.plain.has(b)):
        return None  # g(|x − z|²) depends on |z|² unless it is constant
    try:
        g = model.plain.xreplace({a: sympy.Integer(0), b: sympy.Integer(0)}).xreplace({c: R})
    except (ValueError, TypeError):  # max/min of ∞ or NaN at a = b = 0 (max(2, |x − z|/(x·z))): not radial
        return None
    if g.has(a, b, c):
        return None
    try:
        with time_limit("checking whether the kernel is radial", 3.0):
            if not is_zero(model.plain - g.xreplace({R: c - 2 * a + b})):
                return None
    except Exception:  # noqa: BLE001 - a failed or slow simplification only means "not shown radial"
        return None
    return g


def _plain_head(head) -> bool:
    return (not head.tie and head.bias is None and head.position is None and head.projection is None
            and not head.nystrom and not head.differential)


def applies(head, model, params: frozenset) -> bool:
    """Whether TD-RIDGE or TD-RADIAL is worth running on this head (both certify the rest)."""
    if not _plain_head(head):
        return False
    return (head.affine and activation(model, params) is not None) or radial_profile(model, params) is not None


def _growth_or_problem(expr: sympy.Expr, where: str):
    try:
        with time_limit(f"the profile's growth at {where}", 5.0):
            return growth(expr, Context()), ""
    except (Undecided, NeedSign, Oscillates, BudgetExceeded) as exc:
        return None, f"the profile's growth at {where} is not determined ({exc})"


def separation_step(model, head, params: frozenset, analytic: proof.Step, lim: proof.Step, label: str):
    """TD-RIDGE or TD-RADIAL for a head `applies` accepts."""
    if head.affine and activation(model, params) is not None:
        return td_ridge(model, head, params, analytic, lim, label)
    return td_radial(model, head, params, analytic, lim, label)


_MOMENT_LEMMA = ("the moment lemma (docs/theory.md §20.1): if a shared token's outputs agreed for every θ, the "
                 "Taylor parts of the kernel at the reachable base points would force equal moment tensors of "
                 "every degree, hence equal token sets; so some θ separates two samples from different "
                 "orbits, and analyticity in θ with Theorem 2 makes the layer 1-token distinguishing w.r.t. ")


def _lim_text(lim: Any) -> str:
    return f"(LIM) is {lim.status.value} here ({lim.rule}), so Corollary 1's route is not used"


def _not_for_every_param(label: str, name: str, end: str, problem: str, lim: Any, premises: list, ev: dict):
    """The undecided step when the profile's growth is the engine's generic one only: concluded by the
    calling rule (this runs inside it)."""
    return proof.conclude(f"{label}: whether {name} is a polynomial is decided for generic params only: its growth "
                          f"at {end} is computed with the params as symbols, and {problem}; at such a value {name} "
                          f"may be a polynomial (a constant makes the layer blind to the tokens), so the step is "
                          f"undecided (a `param` range that leaves those values out decides the rest); "
                          f"{_lim_text(lim)}", proof.UNDECIDED, premises, dict(ev, reason=problem))


@proof.rule("TD-RIDGE", "An analytic non-polynomial score α(q·k) with affine query and key: one layer "
            "distinguishes (Corollary 5)", CITE_RIDGE, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(MomentCertificate,))
def td_ridge(model, head, params: frozenset, analytic: proof.Step, lim: proof.Step, label: str) -> proof.Step:
    alpha = activation(model, params)
    premises = [analytic, lim]
    ev: dict = {"α(u), u = q·k": alpha}
    if alpha is None or not (head.affine and _plain_head(head)):
        return proof.conclude(f"{label}: the head is not a score α(q·k) with `affine query key` and no other "
                              "item", proof.UNDECIDED, premises, ev)
    if not analytic.proved:
        return proof.conclude(f"{label}: the layer is not shown analytic in θ, so Theorem 2 is not available; "
                              f"{_lim_text(lim)}", proof.UNDECIDED, premises, ev)
    period = _period(alpha)
    if period is not None:
        why_periodic = str(periodic_not_constant(alpha, U, period))
        cert = MomentCertificate("dot", model.plain, frozenset(params), alpha, U, head.normalized, head.affine,
                                 head.tie, analytic, None, None, period)
        return _ridge_proved(label, alpha, why_periodic, lim, premises, dict(ev, period=period, reason=why_periodic), cert)
    plus, problem = _growth_or_problem(alpha.xreplace({U: t}), "+∞")
    minus, problem2 = _growth_or_problem(alpha.xreplace({U: -t}), "−∞") if plus is not None else (None, "")
    if problem or problem2 or plus is None or minus is None:
        route = _exponent_route(alpha, params)
        if route is not None:  # Theorem F217: α = exp(H) and H outgrows log t at one end
            end, g, why_exp = route
            cert = MomentCertificate("dot", model.plain, frozenset(params), alpha, U, head.normalized, head.affine,
                                     head.tie, analytic, None, None, None, (end, g))
            return _ridge_proved(label, alpha, why_exp, lim, premises,
                                 dict(ev, **{"growth of H at " + ("+∞" if end > 0 else "−∞"): _growth_json(g),
                                             "reason": str(why_exp)}), cert)
        why = problem or problem2 or "α's growth is not determined"
        return proof.conclude(f"{label}: whether α is a polynomial is not decided: {why}; {_lim_text(lim)}",
                              proof.UNDECIDED, premises, dict(ev, reason=why))
    ev.update({"growth of α(t), t → +∞": _growth_json(plus), "growth of α(−t), t → +∞": _growth_json(minus)})
    for end, g in (("+∞", plus), ("−∞", minus)):
        problem = growth_form_problem(g)
        if problem:
            return _not_for_every_param(label, "α", end, problem, lim, premises, ev)
    reason = not_polynomial_reason(plus, minus)
    if reason is None:
        return proof.conclude(f"{label}: α is not shown to be a non-polynomial (its growths at ±∞ are those of a "
                              f"polynomial); {_lim_text(lim)}", proof.UNDECIDED, premises, ev)
    cert = MomentCertificate("dot", model.plain, frozenset(params), alpha, U, head.normalized, head.affine,
                             head.tie, analytic, plus, minus)
    return _ridge_proved(label, alpha, reason, lim, premises, dict(ev, reason=str(reason)), cert)


def _exponent_route(alpha, params: frozenset):
    """(end, growth of H, reason) when a param-free α = exp(H) and H's growth at +∞ or −∞ rules out a polynomial
    (Theorem F217), else None."""
    inner = exponent_of(alpha)
    if inner is None or params or (inner.free_symbols - {U}):
        return None
    for end in (1, -1):
        g, _problem = _growth_or_problem(inner.xreplace({U: end * t}), "+∞" if end > 0 else "−∞")
        why = None if g is None else exponent_not_polynomial(g, end)
        if why is not None:
            return end, g, why
    return None


def _ridge_proved(label: str, alpha, reason, lim, premises: list, ev: dict, cert: MomentCertificate) -> proof.Step:
    u = sympy.Symbol("u")
    alpha_of_u = Formula(sympy.Eq(sympy.Function("alpha")(u), alpha.xreplace({U: u}), evaluate=False),
                         f"α(u) = {sympy.sstr(alpha.xreplace({U: u}))}")
    statement = claim(f"{label}: ", alpha_of_u, " is analytic and not a polynomial (", reason, "); with ",
                      written("W_Q = 0", "W_{Q} = 0"), " the score of key z is ",
                      written("α(s₀ + ε uᵀz)", r"\alpha(s_{0} + \varepsilon\, u^{\top} z)"), " with the base point ",
                      written("s₀", "s_{0}"), f" (from the biases) and u free, so by {_MOMENT_LEMMA}", S_N, f". {_lim_text(lim)}")
    return proof.conclude(statement, proof.PROVED, premises, ev, certificate=cert)


@proof.rule("TD-RADIAL", "An analytic non-polynomial radial kernel g(|q − k|²): one layer distinguishes",
            CITE_RADIAL, statuses=(proof.PROVED, proof.UNDECIDED), certificates=(MomentCertificate,))
def td_radial(model, head, params: frozenset, analytic: proof.Step, lim: proof.Step, label: str) -> proof.Step:
    g = radial_profile(model, params)
    premises = [analytic, lim]
    ev: dict = {"g(r), r = |q − k|²": g}
    if g is None or not _plain_head(head):
        return proof.conclude(f"{label}: the kernel is not shown radial, g(|q − k|²), on a head with no other "
                              "item", proof.UNDECIDED, premises, ev)
    if not analytic.proved:
        return proof.conclude(f"{label}: the layer is not shown analytic in θ, so Theorem 2 is not available; "
                              f"{_lim_text(lim)}", proof.UNDECIDED, premises, ev)
    plus, problem = _growth_or_problem(g.xreplace({R: t}), "+∞")
    if problem or plus is None:
        return proof.conclude(f"{label}: whether g is a polynomial is not decided: {problem}; {_lim_text(lim)}",
                              proof.UNDECIDED, premises, dict(ev, reason=problem))
    ev["growth of g(t), t → +∞"] = _growth_json(plus)
    problem = growth_form_problem(plus)
    if problem:
        return _not_for_every_param(label, "g", "+∞", problem, lim, premises, ev)
    reason = not_polynomial_at_infinity(plus, g, R)
    if reason is None:
        return proof.conclude(f"{label}: g is not shown to be a non-polynomial (its growth at +∞ is that of a "
                              f"polynomial); {_lim_text(lim)}", proof.UNDECIDED, premises, ev)
    cert = MomentCertificate("radial", model.plain, frozenset(params), g, R, head.normalized, head.affine,
                             head.tie, analytic, plus, None)
    r = sympy.Symbol("r")
    g_of_r = Formula(sympy.Eq(sympy.Function("g")(r), g.xreplace({R: r}), evaluate=False), f"g(r) = {sympy.sstr(g)}")
    statement = claim(f"{label}: ", g_of_r, " is analytic and not a polynomial (", reason, "); with keys ",
                      written("ε W_K y", r"\varepsilon W_{K} y"), " the kernel at a shared token is ",
                      written("g(|q|² − 2ε qᵀW_K y + ε²|W_K y|²)",
                              r"g(\lVert q \rVert^{2} - 2 \varepsilon\, q^{\top} W_{K} y + \varepsilon^{2} "
                              r"\lVert W_{K} y \rVert^{2})"),
                      ", whose Taylor parts in ε reach every "
                      f"degree (base point |q|² free, d ≥ 2), so by {_MOMENT_LEMMA}", S_N, f". {_lim_text(lim)}")
    try:
        return proof.conclude(statement, proof.PROVED, premises, dict(ev, reason=str(reason), dimensions="d ≥ 2"),
                              facts={"min_dim": 2, "layers": 1}, certificate=cert)
    except proof.CertificateRejected as exc:
        # the certificate's numeric confirmation of the growth failed (a slowly converging profile such as
        # 1/sqrt(7 + |q − k|)): nothing is concluded from it
        return proof.conclude(f"{label}: the growth of g at +∞ is not confirmed where the certificate checks it "
                              f"({exc}); {_lim_text(lim)}", proof.UNDECIDED, premises, dict(ev, reason=str(exc)))
