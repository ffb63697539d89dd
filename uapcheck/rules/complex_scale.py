"""TD-COMPLEX: an entire even profile α(q·k), turned by an imaginary key scale into a kernel with (LIM).

For a score or kernel α(x·z) whose profile α is entire (built from polynomials, exp, sin, cos, sinh and
cosh) and even, the rotated profile β(s) = α(i s) is real. The two samples' cross-multiplied output
difference at a shared token is an entire function of W_K; put W_K = i W and it is the difference of the
head with kernel β(x·z) at W. So if the β-head separates a pair, so does the α-head (an entire function
that vanishes on every real W_K vanishes everywhere): Theorem F172 (docs/theory.md §20.10). (LIM) for β
is proved by the LIM engine, directly or, when β = exp(γ), for γ with γ(±t) → +∞ (the log-ratio
γ(t a₁) − γ(t a₂) then tends to ±∞ where γ's ratio tends to 0 or ∞). exp(cos(x·y)) is the example: its
(LIM) fails (LIM-OSC), and β = exp(cosh(s)).

The certificate re-checks the profile's structure (entire), evenness and β = α(i s) exactly, the form
β = exp(γ) and γ's limits at ±∞ when that route is used, and that the (LIM) steps it rests on are proved.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import sympy

from .. import proof
from .. import spec as S
from ..asymptotics import Undecided
from ..budget import BudgetExceeded, time_limit
from ..claim import Formula, claim, written
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE as t, ClosedKernel
from ..zero import is_zero
from . import limit
from .wording import S_N

CITE_COMPLEX = proof.derived(
    "Theorem 2", "Corollary 1",
    text="Cheng et al. 2025, Theorem 2 (two samples suffice) and Corollary 1's dominant-pair argument, applied "
         "to the kernel rotated by an imaginary key scale; the rotation lemma is derived here: docs/theory.md "
         "§20.10 (Theorem F172)")

#: the functions an entire profile may be built from (besides +, ·, non-negative integer powers and numbers)
ENTIRE_FUNCTIONS = (sympy.exp, sympy.sin, sympy.cos, sympy.sinh, sympy.cosh)


def entire_by_structure(expr: sympy.Expr, variable: sympy.Symbol) -> bool:
    """`expr` is an entire function of `variable`: a number, the variable, or a sum, product, non-negative
    integer power or exp/sin/cos/sinh/cosh of entire functions (and no other symbol)."""
    if expr == variable:
        return True
    if expr.is_Number:
        return bool(expr.is_finite) and expr.is_real is True
    if isinstance(expr, sympy.NumberSymbol):
        return True
    if expr.is_Symbol:
        return False
    if expr.is_Add or expr.is_Mul:
        return all(entire_by_structure(arg, variable) for arg in expr.args)
    if expr.is_Pow:
        base, exponent = expr.args
        if base == sympy.E:
            return entire_by_structure(exponent, variable)
        return bool(exponent.is_Integer and exponent >= 0) and entire_by_structure(base, variable)
    if isinstance(expr, ENTIRE_FUNCTIONS):
        return all(entire_by_structure(arg, variable) for arg in expr.args)
    return False


def profile(model) -> Optional[sympy.Expr]:
    """α(a) when the kernel is a function of x·z alone (no |z|², |x|², scale or param), else None."""
    if not isinstance(model, ClosedKernel):
        return None
    alpha = model.plain
    if alpha.free_symbols != {a}:
        return None
    return alpha


def even(alpha: sympy.Expr) -> bool:
    return is_zero(sympy.expand(alpha - alpha.xreplace({a: -a})))


def rotated(alpha: sympy.Expr) -> Optional[sympy.Expr]:
    """β(a) = α(i a) as a real expression (no imaginary unit), or None."""
    beta = alpha.xreplace({a: sympy.I * a})
    if beta.has(sympy.I):
        beta = sympy.expand_complex(beta)
    if beta.has(sympy.I) or beta.free_symbols != {a} or beta.has(sympy.sin, sympy.cos, sympy.tan):
        return None  # an exp-log rotation only (a Hardy-field function; the verifier's samples can confirm its (LIM))
    return beta


def tends_to_infinity(gamma: sympy.Expr) -> bool:
    """γ(t A) → +∞ as t → +∞ for every A > 0 and every A < 0 (SymPy's limits, on each sign)."""
    A = sympy.Symbol("A", positive=True)
    try:
        with time_limit("the limits of the rotated profile's exponent", 4.0):
            return all(sympy.limit(gamma.xreplace({a: sign * A * t}), t, sympy.oo) is sympy.oo for sign in (1, -1))
    except (BudgetExceeded, NotImplementedError, ValueError, TypeError):
        return False


def _model(expr: sympy.Expr, what: str) -> ClosedKernel:
    return ClosedKernel(expr.xreplace({a: t * a}), expr, (a, b), (c,), f"{what}: the key direction z = W y is "
                        "scaled by t")


@dataclass(frozen=True)
class ComplexCertificate(proof.Certificate):
    """α (the head's profile), β = α(i·) and, on the exponential route, γ with β = exp(γ); the (LIM) step for
    β (or γ) and the head's analyticity step. The check re-derives the hypotheses of Theorem F172."""

    alpha: sympy.Expr
    beta: sympy.Expr
    gamma: Optional[sympy.Expr]
    lim: proof.Step  # (LIM) for β, or for γ on the exponential route
    analytic: proof.Step
    normalized: bool
    kind = "complex-rotation"

    def check(self) -> None:
        reject = proof.CertificateRejected
        if self.alpha.free_symbols != {a} or not entire_by_structure(self.alpha, a):
            raise reject("ComplexCertificate: α is not shown entire in x·z alone")
        if not even(self.alpha):
            raise reject("ComplexCertificate: α is not even")
        if self.beta.has(sympy.I, sympy.sin, sympy.cos, sympy.tan) or not is_zero(
                sympy.expand_complex(self.alpha.xreplace({a: sympy.I * a})) - self.beta):
            raise reject("ComplexCertificate: β is not α(i s) as a real expression")
        if self.gamma is not None:
            if not is_zero(self.beta - sympy.exp(self.gamma)) or not tends_to_infinity(self.gamma):
                raise reject("ComplexCertificate: β = exp(γ) with γ(±t) → +∞ does not hold")
        if (not self.lim.proved or not self.lim.rule.startswith("LIM-") or self.lim.rule == "LIM-REGION"
                or self.lim.fact("min_dim") != 1):
            raise reject("ComplexCertificate: (LIM) of the rotated kernel is not proved")
        if not self.analytic.proved:
            raise reject("ComplexCertificate: the layer is not shown analytic in θ")
        if self.normalized and not any(p.rule == "WP-POSITIVE" and p.proved for p in self.analytic.premises):
            raise reject("ComplexCertificate: a normalised head needs its kernel proved positive")

    def to_json(self) -> Any:
        return {"kind": self.kind, "alpha": sympy.sstr(self.alpha), "beta": sympy.sstr(self.beta),
                "gamma": None if self.gamma is None else sympy.sstr(self.gamma), "lim": self.lim.rule,
                "normalized": self.normalized}


def _plain_head(head: S.Head) -> bool:
    return (not head.tie and head.bias is None and head.position is None and head.projection is None
            and not head.nystrom and not head.differential and head.heads is None and head.sink is None
            and not head.affine)


def complex_route(model, head: S.Head, analytic: proof.Step, lim: proof.Step, label: str) -> Optional[proof.Step]:
    """TD-COMPLEX's step when its hypotheses hold (a plain head, any pattern, beside any other heads; α entire and even,
    the layer analytic, (LIM) proved for β or for γ), else None (the caller keeps its own step). On a sparse pattern
    the step is the property the view argument uses in place of the dominant-pair lemma (docs/theory.md §20.10)."""
    if not _plain_head(head) or not analytic.proved:
        return None
    alpha = profile(model)
    if alpha is None or not entire_by_structure(alpha, a) or not even(alpha):
        return None
    if head.normalized and not any(p.rule == "WP-POSITIVE" and p.proved for p in analytic.premises):
        return None
    beta = rotated(alpha)
    if beta is None:
        return None
    candidates = [(None, beta, "the rotated kernel β(x·z)")]
    if isinstance(beta, sympy.exp) or (beta.is_Pow and beta.args[0] == sympy.E):
        gamma = beta.args[0] if isinstance(beta, sympy.exp) else beta.args[1]
        # γ first: where β's own class would be LIM-EXPEXP (the same argument, Theorem F209) the step names γ
        candidates.insert(0, (gamma, gamma, "the exponent γ(x·z) of β = exp(γ)"))
    for gamma, expr, what in candidates:
        if gamma is not None and not tends_to_infinity(gamma):
            continue
        rotated_model = _model(expr, what)
        red = limit.reduce_step(rotated_model, what)
        try:
            rotated_lim = limit.limit_premise(rotated_model, False, red)
        except (Undecided, BudgetExceeded):
            continue
        # (LIM) for every d ≥ 1 and on all invariants (not a data-dependent region, not for d ≥ 2 only): the step
        # concluded here carries no dimension range
        if rotated_lim.proved and rotated_lim.rule != "LIM-REGION" and rotated_lim.fact("min_dim") == 1:
            return td_complex(alpha, beta, gamma, rotated_lim, analytic, lim, head.normalized, label)
    return None


@proof.rule("TD-COMPLEX", "An entire even profile α(q·k): an imaginary key scale gives a kernel with (LIM); one "
            "layer distinguishes", CITE_COMPLEX, statuses=(proof.PROVED,), certificates=(ComplexCertificate,))
def td_complex(alpha: sympy.Expr, beta: sympy.Expr, gamma: Optional[sympy.Expr], rotated_lim: proof.Step,
               analytic: proof.Step, lim: proof.Step, normalized: bool, label: str) -> proof.Step:
    s = sympy.Symbol("s")
    alpha_s, beta_s = alpha.xreplace({a: s}), beta.xreplace({a: s})
    profiles = claim(Formula(sympy.Eq(sympy.Function("alpha")(s), alpha_s, evaluate=False),
                             f"α(s) = {sympy.sstr(alpha_s)}"), " is entire and even, so its rotation ",
                     written("β(s) = α(i s)", r"\beta(s) = \alpha(i s)"), ", ",
                     Formula(sympy.Eq(sympy.Function("beta")(s), beta_s, evaluate=False),
                             f"β(s) = {sympy.sstr(beta_s)}"), ", is real")
    if gamma is None:
        why = claim("β satisfies (LIM) (", rotated_lim.rule, ")")
    else:
        gamma_s = gamma.xreplace({a: s})
        why = claim("β = exp(γ) with ", Formula(sympy.Eq(sympy.Function("gamma")(s), gamma_s, evaluate=False),
                                                f"γ(s) = {sympy.sstr(gamma_s)}"),
                    ", which tends to +∞ at ±∞ and satisfies (LIM) (", rotated_lim.rule, "), so β's log-ratio "
                    "tends to ±∞ and β satisfies (LIM)")
    statement = claim(f"{label}: ", profiles, "; ", why, ". The two samples' cross-multiplied output difference at a "
                      "shared token is entire in ", written("W_K", "W_{K}"), ", and at ",
                      written("W_K = i W", r"W_{K} = i W"), " it is the β-head's difference at W, which the "
                      "dominant-pair lemma makes non-zero for some W; so some real ", written("W_K", "W_{K}"),
                      " separates the two samples (Theorem F172), and analyticity in θ with Theorem 2 makes the "
                      "layer 1-token distinguishing w.r.t. ", S_N, f" ((LIM) itself is {lim.status.value} for α, "
                      f"{lim.rule}). Samples symmetric on a line (X = −X) are fixed by every layer of an even profile and "
                      "never separated: a null set, left out as (LIM)'s antipodal keys are (docs/theory.md §6.3, "
                      "§20.10)")
    ev = {"α(s)": alpha_s, "β(s) = α(i s)": beta_s, "route": "exp(γ)" if gamma is not None else "β",
          "rotated (LIM)": rotated_lim.rule, "rotated (LIM) claim": str(rotated_lim.claim)}
    if gamma is not None:
        ev["γ(s)"] = gamma.xreplace({a: s})
    cert = ComplexCertificate(alpha, beta, gamma, rotated_lim, analytic, normalized)
    # neither (LIM) step is a premise: the head's own (failing) one is not used, and the rotated kernel's formula is
    # not the head's, which the verifier's LIM checks re-parse; the verifier re-checks β's (LIM) itself
    # (verifier/rules_routes.py), and the certificate holds the rotated step
    return proof.conclude(statement, proof.PROVED, [analytic], dict(ev, **{"(LIM) for α": lim.rule}), facts={"layers": 1},
                          certificate=cert)
