"""Well-posedness (the normaliser's sign) and analyticity in θ (the premise of Theorem 2)."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Optional

import sympy

from .. import proof
from ..claim import claim, math, written
from .wording import listed, sign, vanishes
from ..certificates import (EndRows, MixedRow, RatioRow, RealExponential, SignAtInfinity, SignChange, SignPattern, Trusted, ZeroRow,
                            sign_of_argument)
from ..asymptotics import Context, NeedSign, Undecided, explore_regions, sign_of, trig_polynomial_positive
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import KEY_NORM2 as b, QUERY_DOT_KEY as a, QUERY_NORM2 as c, SCALE, ClosedKernel, FeatureKernel, KernelModel
from ..budget import BudgetExceeded, time_limit
from ..expansion_size import expansion_fits
from ..memo import exact_cache, exact_cache_iter
from ..lazy import sympy_stand_ins
from ..zero import is_zero
from ..sign_points import excluded
from ..realness import bounded_atoms, gram_nonnegative, one_sided_atoms, proved_real, unreal_arguments

CITE_T2 = proof.paper("Theorem 2", text="Cheng et al. 2025, Theorem 2 (analytic families: two samples suffice); "
                      "docs/theory.md §Analyticity")
CITE_WP = proof.derived(text="docs/theory.md §Well-posedness (normalised attention needs a normaliser of one sign)")

NON_ANALYTIC = (sympy.Abs, sympy.Max, sympy.Min, sympy.Piecewise, sympy.sign, sympy.Heaviside)


def _plain_term(model: KernelModel) -> sympy.Expr:
    if isinstance(model, ClosedKernel):
        return model.plain
    return model.plain_term


# The Gram invariants are not independent: x . z = (|x|^2 + |z|^2 - |x - z|^2)/2 = (|x + z|^2 - |x|^2 - |z|^2)/2.
# Writing a through r = |x - z|^2 >= 0 (or s = |x + z|^2 >= 0) exposes positivity SymPy cannot see
# in a, b, c alone (e.g. 1 + |x - y|^2 > 0). Both are identities, so conclusions carry over.
r_minus = sympy.Symbol("|x−z|²", nonnegative=True)
r_plus = sympy.Symbol("|x+z|²", nonnegative=True)
with sympy_stand_ins():  # an Add of three terms would import SymPy's tensor module (uapcheck/lazy.py)
    REPARAMETRISATIONS = (
        ("x·z, |z|², |x|²", {}),
        ("x·z = (|x|² + |z|² − |x−z|²)/2", {a: (b + c - r_minus) / 2}),
        ("x·z = (|x+z|² − |x|² − |z|²)/2", {a: (r_plus - b - c) / 2}),
    )


def _forms(model: KernelModel, expr: sympy.Expr):
    """(name, form) for each way of writing the kernel, in order. Lazily: the callers stop at the first
    form that decides, and a rewritten form costs an expansion (two thirds of this work in a batch
    went to forms nobody looked at)."""
    if not isinstance(model, ClosedKernel):
        yield "per-feature invariants", expr
        return
    for index, (name, sub) in enumerate(REPARAMETRISATIONS):
        form = _rewritten(expr, index) if sub else expr
        if form is not None:
            yield name, form


@exact_cache()  # a function of its arguments alone: computed once per batch
def _rewritten(expr: sympy.Expr, index: int) -> Optional[sympy.Expr]:
    """The kernel written with the index-th reparametrisation of x·z (an identity), expanded; None when the expansion
    would exceed its bound ((1 + x·z)^50 through |x − z|² has 23,426 terms, uapcheck/expansion_size.py): that form is
    not tried."""
    written_with = expr.xreplace(REPARAMETRISATIONS[index][1])
    return sympy.expand(written_with) if expansion_fits(written_with) else None


@exact_cache_iter()
def _sign_regions(expr: sympy.Expr):
    """(region, sign) over every sign region the decision needs; sign None when undecided."""
    for ctx, result in explore_regions(lambda cx: sign_of(expr, cx), max_splits=5):
        yield ctx, (None if isinstance(result, Exception) else result)


@exact_cache()
def _positive_regions(expr: sympy.Expr) -> Optional[list]:
    """The sign regions of `expr` when every one has sign +1, else None: `_sign_regions` read up to its first region
    of another sign (the regions after it cannot make every sign +1)."""
    regions = []
    for ctx, region_sign in _sign_regions(expr):
        if region_sign != 1:
            return None
        regions.append((ctx, region_sign))
    return regions


def _point(model: KernelModel, x: int, y: int) -> dict:
    """The invariants at the 1-dimensional query x and key y."""
    if isinstance(model, ClosedKernel):
        return {a: sympy.Integer(x * y), b: sympy.Integer(y * y), c: sympy.Integer(x * x)}
    return {model.query_symbol: sympy.Integer(x), c: sympy.Integer(x * x),
            model.key_symbol: sympy.Integer(y), b: sympy.Integer(y * y)}


def _point_value(model: KernelModel, x: int, y: int) -> sympy.Expr:
    if isinstance(model, ClosedKernel):
        return model.plain.xreplace({a: sympy.Integer(x * y), b: sympy.Integer(y * y), c: sympy.Integer(x * x)})
    if not model.single:  # Σ_c Q_c(x) K_c(y) of one feature
        return model.plain_term.xreplace(_point(model, x, y))
    return (model.query.xreplace({model.query_symbol: sympy.Integer(x), c: sympy.Integer(x * x)}) *
            model.plain_key.xreplace({model.key_symbol: sympy.Integer(y), b: sympy.Integer(y * y)}))


@exact_cache()
def _sign_witnesses(model: KernelModel):
    pos = neg = zero = None
    for x, y in itertools.product((1, -1, 2, -2, 3), (1, -1, 2, -2, 3, 0)):
        try:
            # A point where the kernel is undefined (log 0 inside elu, say) is no witness: skip it.
            val = _point_value(model, x, y)
            # a query that cannot answer True (uapcheck/sign_points.py) is not asked
            out = excluded(val)
            if not out.negative and val.is_negative and neg is None:
                neg = (x, y, val)
            elif not out.positive and val.is_positive and pos is None:
                pos = (x, y, val)
            elif not out.zero and val.is_zero and zero is None:
                zero = (x, y, val)
        except (TypeError, ValueError):
            continue
    return pos, neg, zero


def _periodic_sign_change(model: FeatureKernel) -> Optional[dict]:
    """Random features A(|y|²)·P(w·y) with P 2π-periodic and negative somewhere: by Kronecker's
    theorem (almost every draw of w_r has rationally independent projections on some direction)
    the keys can put every w_r·y near a point where P < 0, so the normaliser changes sign."""
    if model.index != "random" or not model.single:
        return None
    key = model.plain_key
    amp, per = key.as_independent(model.key_symbol, as_Add=False)
    two_pi = 2 * sympy.pi
    if not is_zero(per.xreplace({model.key_symbol: model.key_symbol + two_pi}) - per):
        return None
    try:
        if sign_of(amp, Context()) <= 0:
            return None
    except (Undecided, NeedSign):
        return None
    q0 = model.query.xreplace({model.query_symbol: 0, c: 0})
    if not q0.is_positive:
        return None
    for e0 in (sympy.pi, 2, 3, sympy.pi / 2 + 1):
        val = per.xreplace({model.key_symbol: e0})
        if val.is_negative:
            pos = per.xreplace({model.key_symbol: 0})
            if pos.is_positive:
                return {"periodic factor": per, "negative at w.y": e0, "value": val, "positive at w.y": 0}
    return None


@dataclass(frozen=True)
class _Pattern:
    signs: list  # per component: "+" (sign of u) or "−" (sign of −u)
    certificate: SignPattern


def _sign_pattern(model: FeatureKernel) -> Optional[_Pattern]:
    """The sign-pattern certificate when every component of the feature map is the same function on both
    sides and has the sign of its argument (or of its negative) for every |x|² > 0 (Lemma K, theory §4)."""
    u, v = model.query_symbol, model.key_symbol
    parts = tuple((q, k.subs(SCALE, 1)) for q, k in model.parts)
    signs = []
    for q, _ in parts:
        try:
            sg = sign_of_argument(q, u)
        except (TypeError, ValueError, NotImplementedError):
            return None
        if not sg:
            return None
        signs.append("+" if sg > 0 else "−")
    certificate = SignPattern(parts, u, v, (c, b))
    try:
        certificate.check()
    except proof.CertificateRejected:
        return None
    return _Pattern(signs, certificate)


def _feature_sign(model: FeatureKernel, normalized: bool, neg) -> Optional[proof.Step]:
    """A feature kernel's sign steps: a periodic random-feature sign change, a sign pattern (Lemma K), or one
    negative feature product (undecided); None when none applies."""
    periodic = _periodic_sign_change(model)
    if periodic:
        return _positivity(normalized, "the random-feature kernel changes sign: the normaliser vanishes on a "
                              "hypersurface of inputs, where the layer has poles", proof.REFUTED,
                              evidence=periodic,
                              certificate=Trusted("Kronecker's theorem", "a positive amplitude times a 2π-periodic "
                                                  "factor negative at one point and positive at another",
                                                  periodic))
    pattern = _sign_pattern(model)
    if pattern is not None:
        where = {"coordinate": "every coordinate of x non-zero", "random": "every w_r·x non-zero"}[model.index]
        return _positivity(normalized, claim("every component of the feature map has the sign of its argument, so ",
                                             written("k(x, −x) < 0 < k(x, x)", r"k(x, -x) < 0 < k(x, x)"),
                                             " (", where, "): the kernel takes both signs, and the normaliser "
                                             "vanishes on a hypersurface of inputs, where the layer has poles "
                                             "(Lemma K)"),
                           proof.REFUTED,
                           evidence={"sign pattern": {"components": [q for q, _ in model.parts],
                                                      "sign of the argument": pattern.signs},
                                     "index": model.index},
                           certificate=pattern.certificate)
    if neg is not None:
        return _positivity(normalized, "one feature product φ_r(x)φ_r(y) takes negative values, so the "
                              "normaliser is not shown positive", proof.UNDECIDED,
                              evidence={"negative at": {"x": [neg[0]], "y": [neg[1]], "value": neg[2]}})
    return None


def _both_signs_far_out(far: SignAtInfinity, normalized: bool) -> proof.Step:
    plus, minus = far.limits()
    return _positivity(normalized, claim("the kernel takes both signs: along x = 1, z = s its limits are ",
                                         math(plus), " as s → +∞ and ", math(minus), " as s → −∞, of opposite signs "
                                         "for every admissible parameter value, so the normaliser vanishes on a "
                                         "hypersurface of inputs, where the layer has poles"), proof.REFUTED,
                       evidence={"sign at infinity": {"x": [1], "z": "s", "limit at +∞": plus, "limit at −∞": minus}},
                       certificate=far)


def _sign_at_infinity(model: ClosedKernel) -> Optional[SignAtInfinity]:
    """Opposite signs of the kernel's limits along the ray x = 1, z = s, s → ±∞, for every admissible param
    value (exp(x·y) − c with c > 0: +∞ and −c): the witness points depend on the params, the limits do not."""
    if not model.plain.free_symbols - {a, b, c}:
        return None  # without params the exact points of _sign_witnesses decide
    certificate = SignAtInfinity(model.plain, a, b, c)
    try:
        with time_limit("the kernel's limits along a ray", 3.0):
            certificate.check()
    except (proof.CertificateRejected, BudgetExceeded, NotImplementedError, ValueError, TypeError):
        return None
    return certificate


def zero_key_positive(model: KernelModel) -> bool:
    """k(q, 0) > 0 for every query q: the uniform-weight argument of TD-LINFORMER needs it."""
    try:
        if isinstance(model, ClosedKernel):
            expr = model.plain.xreplace({a: sympy.Integer(0), b: sympy.Integer(0)})
        else:
            expr = sympy.Add(*[q * k.subs(SCALE, 1).xreplace({model.key_symbol: sympy.Integer(0),
                                                              b: sympy.Integer(0)}) for q, k in model.parts])
    except (ValueError, TypeError):  # max/min of ∞ at a zero key (max(1, 1/(x·z))): SymPy refuses it, not shown
        return False
    if expr.has(sympy.zoo, sympy.nan):
        return False
    return all(s == 1 for _, s in _sign_regions(expr))


def _boundary_zeros(expr: sympy.Expr, regions) -> list:
    """The split atoms (a, u, v, ...) on whose zero set the kernel is not shown positive."""
    atoms = {atom for ctx, _ in regions for atom in ctx.signs}
    out = []
    for atom in sorted(atoms, key=str):
        on_boundary = expr.xreplace({atom: sympy.Integer(0)})
        if not all(s == 1 for _, s in _sign_regions(on_boundary)):
            out.append(atom)
    return out


@exact_cache(maxsize=512)  # a function of its arguments alone: the same kernels recur over a batch
def _trig_positive(expr: sympy.Expr, gram: bool = False) -> bool:
    """Each factor is positive: proved by the assumptions, or of the form exp(·) of a real argument, or an
    affine function A + Σ B_k s_k of sines, cosines, tanh and erf of arguments proved real, with numbers
    A > Σ |B_k| (of a non-real argument they are unbounded: 2 − cos(√(x·z)) = 2 − cosh 2 at x·z = −4). `gram`: square
    roots of Gram forms with a positive semidefinite matrix count as real (Lemma D, `realness.gram_nonnegative`)."""
    for factor in sympy.Mul.make_args(expr):
        if isinstance(factor, sympy.exp) and proved_real(factor.args[0], _provably_positive, gram):
            continue
        if factor.is_positive and not _may_be_infinite(factor):
            continue
        # cos(√u) and sin(√u)/√u of a real u: real, bounded below (−1, −2173/10000), not above; a factor increasing in
        # each of them is at least its value at their lower bounds (docs/theory.md §4, the one-sided bounds)
        factor = _at_lower_bounds(factor, gram)
        if factor is None:
            return False
        if factor.is_positive and not _may_be_infinite(factor):
            continue
        # sin, cos, tanh, erf of real arguments: each value lies in [−1, 1]
        atoms = bounded_atoms(factor)
        if not atoms or unreal_arguments(factor, _provably_positive, gram):
            return False
        syms = [sympy.Symbol(f"trig[{k}]", real=True) for k in range(len(atoms))]
        g = factor.xreplace(dict(zip(atoms, syms)))
        if g.free_symbols - set(syms) or not g.is_polynomial(*syms):
            return False
        if not trig_polynomial_positive(g, syms):
            return False
    return True


def _may_be_infinite(expr: sympy.Expr) -> bool:
    """expr holds a log of a quantity, or a negative power of a base, that SymPy's assumptions do not show positive
    (non-zero): SymPy calls exp(exp(|log |z||)) positive, yet at z = 0 it is infinite."""
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.log) and node.args[0].is_positive is not True:
            return True
        if node.is_Pow and node.exp.is_negative and node.base.is_positive is not True and node.base.is_nonzero is not True:
            return True
    return False


def _at_lower_bounds(factor: sympy.Expr, gram: bool = False) -> Optional[sympy.Expr]:
    """The factor with each cos(√u) and sin(√u)/√u of a real u (`one_sided_atoms`) at its lower bound, when the
    factor is affine in them with positive numeric coefficients (so it is at least that value); the factor itself
    when it has none; None when it has some but not in that form (2 − cos(√u) decreases in it: no bound)."""
    g, found = one_sided_atoms(factor, _provably_positive, gram)
    if not found:
        return factor
    syms = [s for s, _, _ in found]
    g = sympy.expand(g)
    if not g.is_polynomial(*syms) or sympy.Poly(g, *syms).total_degree() > 1:
        return None
    poly = sympy.Poly(g, *syms)
    for s in syms:
        co = poly.coeff_monomial(s)
        if not (co.is_number and co.is_positive):
            return None
    return sympy.expand(g.xreplace({s: lower for s, lower, _ in found}))


def _positivity(normalized: bool, statement, status, evidence: dict, certificate=None, facts=None) -> proof.Step:
    """WP-POSITIVE's conclusion: facts `min_dim` (the dimensions the proof needs) and `ill_posed` (a
    normalised head whose kernel changes sign); `facts` adds others (`range`: the lengths n a refutation holds at,
    when not every n, docs/theory.md §12)."""
    facts = dict(facts or {})
    if "dimensions" in evidence:
        facts["min_dim"] = {"d ≥ 1": 1, "d ≥ 2": 2}[evidence["dimensions"]]
    if status is proof.REFUTED and normalized:
        facts["ill_posed"] = True
    if certificate is None and status is proof.PROVED:
        certificate = Trusted("sign engine", "every sign region of the invariants gives k > 0 "
                              "(uapcheck/asymptotics.py, sign_of)", {"k": _jsonable_k(evidence)})
    return proof.conclude(statement, status, evidence=evidence, facts=facts, certificate=certificate)


def _jsonable_k(evidence: dict):
    return next((v for k, v in evidence.items() if k.startswith("k") or k.startswith("φ")), None)


def _factor_step(expr: sympy.Expr, normalized: bool, gram: bool = False) -> Optional[proof.Step]:
    """WP-POSITIVE's first test, factor by factor (`_trig_positive`): the proved step, or None when it does not apply.
    `gram`: with Lemma D's square roots of Gram forms counted real; a kernel C·exp(E) proved so gets the checked
    certificate `RealExponential` (its check re-derives the realness of E)."""
    if _trig_positive(expr, gram):
        why = claim("every factor is positive (exponentials of real quantities, positive quantities",
                    claim(", and values ", written("s_k", "s_{k}"), " in [−1, 1] (sin, cos, tanh, erf) in an "
                          "affine form ", written("A + Σ B_k s_k", r"A + \sum B_{k} s_{k}"),
                          " with ", written("A > Σ|B_k|", r"A > \sum \lvert B_{k} \rvert"),
                          "; and cos(√u) ≥ −1, sin(√u)/√u ≥ −2173/10000, real for every real u, with positive coefficients)"
                          if one_sided_atoms(expr, _provably_positive, gram)[1] else ")")
                    if expr.has(sympy.sin, sympy.cos, sympy.tanh, sympy.erf) else ")")
        if _trig_positive(_with_nonnegative_norms(expr), gram):
            certificate = _real_exponential(expr) if gram else None
            if certificate is not None:
                why = claim("k = C·exp(E) with C > 0 and E real: each square root in E is of a Gram form "
                            "α|x|² + 2γ x·z + β|z|² + κ with [[α, γ], [γ, β]] positive semidefinite and κ ≥ 0, "
                            "so it is ≥ 0 (Lemma D)")
            return _positivity(normalized, claim("k(x, y) > 0 for all inputs and parameters: ", why), proof.PROVED,
                               evidence={"k": expr, "dimensions": "d ≥ 1"}, certificate=certificate)
        return _positivity(normalized, "k(x, y) > 0 for non-zero query and key directions: a normaliser vanishes "
                              "only where every key or the query is 0", proof.PROVED,
                              evidence={"k": expr, "dimensions": "d ≥ 2"})
    return None


def _real_exponential(expr: sympy.Expr) -> Optional[RealExponential]:
    """expr = C·exp(E) with C free of exponentials and positive for |x|², |z|² ≥ 0, E real with Lemma D: the checked
    certificate; None for another form (a bounded trig factor, say), which keeps the engine's trusted one."""
    factors = sympy.Mul.make_args(expr)
    exponent = sympy.Add(*[f.args[0] for f in factors if isinstance(f, sympy.exp)])
    rest = sympy.Mul(*[f for f in factors if not isinstance(f, sympy.exp)])
    if not any(isinstance(f, sympy.exp) for f in factors):
        return None
    certificate = RealExponential(expr, exponent, rest, (a, b, c))
    try:
        certificate.check()
        certificate.trees()  # the verifier reads E and C as expression trees
    except (proof.CertificateRejected, ValueError):
        return None
    return certificate


def _positive_by_factors(model: KernelModel, expr: sympy.Expr, normalized: bool) -> Optional[proof.Step]:
    """The factor test as written, then, when an argument is not proved real as written, on the kernel written with
    |x − z|² or |x + z|² ≥ 0, common factors taken out: the norm |x − y| in 2 + cos(|x - y|) is
    √(|x|² + |y|² − 2x·y), a square root of |x−z|² once rewritten. Last, as written again with Lemma D (a square root
    of a Gram form with a positive semidefinite matrix is real): exp(|x + y| − |x − y|), whose two norms no single
    rewriting exposes."""
    step = _factor_step(expr, normalized)
    if step is not None or not unreal_arguments(expr, _provably_positive):
        return step
    return next((step for _, form in itertools.islice(_forms(model, expr), 1, None)
                 if (step := _factor_step(sympy.factor_terms(form), normalized)) is not None), None)


def _positive_with_gram_roots(model: KernelModel, expr: sympy.Expr, normalized: bool) -> Optional[proof.Step]:
    """The factor test as written once more, with Lemma D: a square root of a Gram form α|x|² + 2γ x·z + β|z|² + κ with
    [[α, γ], [γ, β]] positive semidefinite and κ ≥ 0 is real (exp(|x + y| − |x − y|), whose two norms no single
    rewriting of x·z exposes). Tried after the other tests (a kernel they decide keeps their step)."""
    if not isinstance(model, ClosedKernel) or not any(
            p.is_Pow and not p.exp.is_integer for p in sympy.preorder_traversal(expr) if isinstance(p, sympy.Expr)):
        return None
    return _factor_step(expr, normalized, gram=True)


@proof.rule("WP-POSITIVE", "The kernel is positive, so the normaliser never vanishes", CITE_WP,
            statuses=(proof.PROVED, proof.REFUTED, proof.UNDECIDED),
            certificates=(SignChange, SignPattern, SignAtInfinity, ZeroRow, EndRows, MixedRow, RatioRow, RealExponential, Trusted))
def positive_kernel(model: KernelModel, normalized: bool = True, dense: bool = False, tied: bool = False,
                    zero_row: Optional[ZeroRow] = None, mixed_row: Optional[MixedRow] = None,
                    length: Optional[str] = None) -> proof.Step:
    """`dense`: the head attends with the full pattern, with no tying, projection or landmarks, at n ≥ 2 (every row
    has n ≥ 2 keys from the tokens themselves), which the third form (positive off the hypersurfaces x·z = 0) needs.
    `tied`: query and key share one projection, so every row's normaliser holds its own token's term k(q_i, q_i) and a
    sign change of k alone does not show that a normaliser vanishes (exp(x·y) − 1/3 on `window(1)`: the normaliser
    exceeds e^{|q|²} − 1 ≥ 0); no refutation is drawn then.
    `zero_row`: a row of a normalised reweighted head whose factors c(i, j) all vanish (rules/reweight_rows.py): its
    normaliser is 0 whatever the kernel, so the step is refuted from it first.
    `mixed_row`: a row whose factors take both signs, with two configurations where its normaliser has opposite
    signs (rules/reweight_rows.py, Lemma Q of docs/theory.md §4): refuted from it next.
    `length`: the name of a symbolic length: the third and fourth forms (n ≥ 2 keys per row) then carry the fact
    `length_range` n ≥ 2, which the verdict's range takes (docs/theory.md §4, §12)."""
    row_step = _row_step(zero_row, mixed_row) if normalized else None
    if row_step is not None:
        return row_step
    expr = _plain_term(model)
    by_factors = _positive_by_factors(model, expr, normalized)
    if by_factors is not None:
        return by_factors
    for form_name, form in _forms(model, expr):
        regions = _positive_regions(form)
        if regions is not None:
            ev = {"k(x, z)" if isinstance(model, ClosedKernel) else "φ(x)_r φ(z)_r": form,
                  "written with": form_name,
                  "sign regions": [{"region": {k.name: v for k, v in ctx.signs.items()}, "sign": "+"}
                                   for ctx, _ in regions]}
            atoms = _boundary_zeros(form, regions)
            if atoms:
                # The sign regions are open: on a boundary hyperplane (e.g. x . z = 0) the kernel
                # may vanish. A normaliser then vanishes only where the query is orthogonal to every key of
                # its row: for a dense head at n ≥ 2 a closed set of parameters of codimension ≥ 2, with a
                # connected complement when d ≥ 2 (docs/theory.md §4, third form); otherwise not shown.
                boundary = [f"{atom} = 0" for atom in atoms]
                off = listed(vanishes(atom) for atom in atoms)
                if not (dense and atoms == [a]):
                    return _positive_with_gram_roots(model, expr, normalized) or _positivity(normalized, claim("the kernel is not shown positive: it vanishes on ", off,
                                                         ", and for this head (a sparse pattern, a row with one key, "
                                                         "tied, projected or landmark keys, or a coordinate boundary) the "
                                                         "parameters where a normaliser vanishes are not shown to leave "
                                                         "a connected set"), proof.UNDECIDED,
                                       evidence=dict(ev, boundary=boundary))
                return _positivity(normalized, claim("k(x, y) > 0 off the hypersurfaces ", off, ": a normaliser "
                                                     "vanishes only where the query is orthogonal to every key of its "
                                                     "row, a closed set of parameters of codimension ≥ 2 for a dense "
                                                     "head (n ≥ 2 keys per row), whose complement is connected for "
                                                     "d ≥ 2"),
                                   proof.PROVED, evidence=dict(ev, dimensions="d ≥ 2", boundary=boundary),
                                   facts=_two_keys(length))
            if all(s == 1 for _, s in _sign_regions(_with_nonnegative_norms(form))):
                return _positivity(normalized, "k(x, y) > 0 for all inputs and parameters: every normaliser is positive",
                                      proof.PROVED, evidence=dict(ev, dimensions="d ≥ 1"))
            # Positive only for non-zero query and key directions: the normaliser then vanishes only
            # where every key (or the query) is 0, a set whose complement is connected for d ≥ 2.
            return _positivity(normalized, "k(x, y) > 0 for non-zero query and key directions: a normaliser vanishes "
                                  "only where every key or the query is 0", proof.PROVED,
                                  evidence=dict(ev, dimensions="d ≥ 2"))
    return _positive_with_gram_roots(model, expr, normalized) or _not_shown_positive(model, expr, normalized, dense,
                                                                                     tied, length)


def _not_shown_positive(model: KernelModel, expr: sympy.Expr, normalized: bool, dense: bool, tied: bool,
                        length: Optional[str]) -> proof.Step:
    """WP-POSITIVE once the factor test, the sign regions and Lemma D have not shown k > 0 everywhere: positive off
    q = ±k on a dense head (the fourth form), or the search for both signs (refuted), or undecided."""
    diagonal = _positive_off_diagonal(model, expr) if dense else None
    if diagonal is not None:
        form_name, form, where = diagonal
        return _positivity(normalized, claim("k(x, y) > 0 unless the query equals ", where, ": a normaliser vanishes "
                                             "only where every key of its row equals it, which for n ≥ 2 distinct "
                                             "tokens lies in a linear subspace of parameters of codimension d, whose "
                                             "complement is connected for d ≥ 2"), proof.PROVED,
                           evidence={"k(x, z)": form, "written with": form_name, "dimensions": "d ≥ 2",
                                     "boundary": ["|x−z|² = 0" if where == "a key" else "|x+z|² = 0"]},
                           facts=_two_keys(length))
    if tied:
        return _positivity(normalized, claim("the kernel is not shown positive, and with `tie query key` every row's "
                                             "normaliser holds the term ", written("k(q_i, q_i)", r"k(q_{i}, q_{i})"),
                                             " of its own token, so a sign change of k does not show that a "
                                             "normaliser vanishes"), proof.UNDECIDED, evidence={"k": expr})
    pos, neg, zero = _sign_witnesses(model)
    if isinstance(model, FeatureKernel):
        feature_step = _feature_sign(model, normalized, neg)
        if feature_step is not None:
            return feature_step
    if neg is not None and pos is not None:
        return _positivity(normalized, claim("the kernel takes both signs: the normaliser ",
                                             written("Σ_j k(q_i, k_j)", r"\sum_{j} k(q_{i}, k_{j})"),
                                             " vanishes on a hypersurface of inputs, where the layer has poles"), proof.REFUTED,
                              evidence={"positive at": {"x": [pos[0]], "y": [pos[1]], "value": pos[2]},
                                        "negative at": {"x": [neg[0]], "y": [neg[1]], "value": neg[2]}},
                              certificate=SignChange(_plain_term(model), _point(model, pos[0], pos[1]),
                                                     _point(model, neg[0], neg[1])))
    far = _sign_at_infinity(model) if isinstance(model, ClosedKernel) and (pos is None or neg is None) else None
    if far is not None:
        return _both_signs_far_out(far, normalized)
    if zero is not None:
        return _positivity(normalized, "the kernel is not shown positive: it vanishes at some inputs, so the "
                              "normaliser can be 0 (implementations add ε)", proof.UNDECIDED,
                              evidence={"zero at": {"x": [zero[0]], "y": [zero[1]]}})
    return _open_positivity(model, expr, normalized)


def _two_keys(length: Optional[str]) -> Optional[dict]:
    """The range n ≥ 2 of the third and fourth forms at a symbolic length (every row needs two keys, §4)."""
    if length is None:
        return None
    return {"length_range": sympy.GreaterThan(sympy.Symbol(length, integer=True, positive=True), 2, evaluate=False)}


def _row_step(zero_row: Optional[ZeroRow], mixed_row: Optional[MixedRow]) -> Optional[proof.Step]:
    """The refutation from a reweight's rows: a zero row first, then a row of both signs (Lemma Q)."""
    if isinstance(zero_row, EndRows):
        return _end_rows_step(zero_row)
    if zero_row is not None:
        return _zero_row_step(zero_row)
    if isinstance(mixed_row, RatioRow):
        return _ratio_row_step(mixed_row)
    if mixed_row is not None:
        return _mixed_row_step(mixed_row)
    return None


def _ratio_row_step(row: RatioRow) -> proof.Step:
    """A dense row whose factors take both signs at every n ≥ N, with a kernel whose ratio k(q, 1)/k(q, −1) takes
    every positive value (Lemma Q, the ratio form, docs/theory.md §4): refuted from N on (fact `range`)."""
    def shown(p):
        return sympy.sstr(p)
    ratio = {"row": shown(row.row), "plus": shown(row.plus), "minus": shown(row.minus), "from n": row.from_n,
             "c(i, j)": row.term, "k": row.kernel}
    return _positivity(True, claim("the reweight takes both signs on row ", math(row.row), " of the dense head at every ",
                                   "n ≥ ", math(sympy.Integer(row.from_n)), " (", written("c(i, j)", "c(i, j)"),
                                   " > 0 at j = ", math(row.plus), ", < 0 at j = ", math(row.minus), "), and the "
                                   "kernel's ratio ", written("k(q, 1)/k(q, −1)", r"k(q, 1)/k(q, -1)"), " takes every "
                                   "positive value, so that row's normaliser ",
                                   written("Σ_j k(q_i, k_j) c(i, j)", r"\sum_{j} k(q_{i}, k_{j})\, c(i, j)"),
                                   " is positive at one input and negative at another: it vanishes on a hypersurface "
                                   "of inputs, where the layer has poles"),
                       proof.REFUTED, evidence={"ratio row": ratio}, certificate=row,
                       facts={"range": row.range()} if row.range() is not None else None)


def _open_positivity(model: KernelModel, expr: sympy.Expr, normalized: bool) -> proof.Step:
    """The undecided step when no test decides: naming a point where a closed kernel is not real, when one is found."""
    unreal = _non_real_point(model)
    if unreal is not None:
        x, y, value = unreal
        return _positivity(normalized, claim("the kernel is not real-valued: at the query x = ", math(sympy.Integer(x)),
                                             " and the key y = ", math(sympy.Integer(y)), " it is ", math(value),
                                             ", so the layer is not a real map, as Theorem 1's families are, whatever "
                                             "its normaliser does (docs/theory.md §4)"), proof.UNDECIDED,
                           evidence={"k": expr, "not real at": {"x": [x], "y": [y], "value": value}})
    return _positivity(normalized, "the kernel's positivity is undecided", proof.UNDECIDED, evidence={"k": expr})


def _non_real_point(model: KernelModel):
    """(x, y, value) at a 1-dimensional point where a closed kernel's value is provably not real (2 + sin(√(x·y)) at
    x·y = −4: 2 + i sinh 2), else None."""
    if not isinstance(model, ClosedKernel) or model.plain.free_symbols - {a, b, c}:
        return None
    for x, y in itertools.product((1, -1, 2, -2), (1, -1, 2, -2)):
        try:
            value = _point_value(model, x, y)
            imaginary = sympy.simplify(sympy.im(value))
        except (TypeError, ValueError):
            continue
        if imaginary.is_zero is False and imaginary.is_finite:
            return x, y, value
    return None


def _mixed_row_step(row: MixedRow) -> proof.Step:
    def point(p):
        return {"q": p[0], "keys": {str(j): x for j, x in zip(row.visible, p[1])}}
    where = (claim(" (at n = ", math(sympy.Integer(row.n)), " it sees the keys ") if row.from_n is None else
             claim(" (a local pattern: at every n ≥ ", math(sympy.Integer(row.from_n)), " it sees the keys "))
    mixed = {"row": row.row, "visible": list(row.visible), "n": row.n, "c(i, j)": row.term,
             "positive at": point(row.positive), "negative at": point(row.negative)}
    if row.from_n is not None:
        mixed["from n"] = row.from_n
    step = _positivity(True, claim("the reweight takes both signs on row ", math(sympy.Integer(row.row)), where,
                                   listed(math(sympy.Integer(v)) for v in row.visible), "), and that row's normaliser ",
                                   written("Σ_j k(q_i, k_j) c(i, j)", r"\sum_{j} k(q_{i}, k_{j})\, c(i, j)"),
                                   " is positive at one input and negative at another, so it vanishes on a "
                                   "hypersurface of inputs, where the layer has poles"),
                       proof.REFUTED, evidence={"mixed row": mixed}, certificate=row,
                       facts={"range": row.range()} if row.range() is not None else None)
    return step


def _end_rows_step(rows: EndRows) -> proof.Step:
    """Rows near the last one whose factors vanish at every key they see, on the residue classes of n mod L the
    certificate names (Lemma U, docs/theory.md §4): refuted there, with the facts `residue_class`, `modulus` and
    `residues` (ILL-POSED on those classes, the verdict of the others decided without this head's step, §12); at
    every n when every residue has such a row."""
    from ..claim import Formula
    from ..groups import class_condition
    from ..show import show_condition
    n, modulus = rows.length, rows.modulus
    every = len(rows.rows) == modulus
    where = None if every else class_condition(n, modulus, rows.residues)
    listed_rows = [{"n mod L": r, "row": f"n − {t}" if t else "n", "keys": [f"n − {d}" if d else "n" for d in ds],
                    "built at": b} for r, t, ds, b, _ in rows.rows]
    facts = None if every else {"residue_class": where, "modulus": modulus, "residues": rows.residues}
    at = " at every length n" if every else claim(" for ", Formula(where, show_condition(where)))
    return _positivity(True, claim("the reweight vanishes on a whole row near the last one", at,
                                   ": its keys are n − d for offsets d that depend on n mod ", math(sympy.Integer(modulus)),
                                   " only (the pattern's arcs are one relation invariant under shifts by ",
                                   math(sympy.Integer(modulus)), "), and ", written("c(i, j) = 0", "c(i, j) = 0"),
                                   " at each of them, so that row's normaliser ",
                                   written("Σ_j k(q_i, k_j) c(i, j)", r"\sum_{j} k(q_{i}, k_{j})\, c(i, j)"),
                                   " is 0 for every input and parameter: the layer is undefined there"),
                       proof.REFUTED,
                       evidence={"end rows": {"modulus": modulus, "residues": list(rows.residues), "rows": listed_rows,
                                              "c(i, j)": rows.term}},
                       certificate=rows, facts=facts)


def _zero_row_step(row: ZeroRow) -> proof.Step:
    if row.every_key:
        return _positivity(True, claim("the reweight vanishes on a whole row: ", written("c(i, j)", "c(i, j)"),
                                       " is 0 at row ", math(row.row), " for every key j, whatever keys the pattern "
                                       "gives that row, so its normaliser ",
                                       written("Σ_j k(q_i, k_j) c(i, j)", r"\sum_{j} k(q_{i}, k_{j})\, c(i, j)"),
                                       " is 0 for every input and parameter", " at every length n" if row.n is None
                                       else "", ": the layer is undefined there"),
                           proof.REFUTED,
                           evidence={"zero row": {"row": _position(row.row), "visible": [], "every key": True,
                                                  "every n": row.every_n, "n": row.n, "c(i, j)": row.term}},
                           certificate=row)
    where = (claim("row ", math(row.row), " sees only itself at every length n") if row.every_n and row.n is None else
             claim("row ", math(row.row), " sees only itself (every arc of the pattern lies on one side of the "
                   "diagonal)") if row.every_n else
             claim("at n = ", math(sympy.Integer(row.n or 0)), " row ", math(row.row), " sees only the keys ",
                   listed(math(v) for v in row.visible)))
    return _positivity(True, claim("the reweight vanishes on a whole row: ", where, ", and ",
                                   written("c(i, j) = 0", "c(i, j) = 0"), " at each of them, so that row's normaliser ",
                                   written("Σ_j k(q_i, k_j) c(i, j)", r"\sum_{j} k(q_{i}, k_{j})\, c(i, j)"),
                                   " is 0 for every input and parameter: the layer is undefined there"),
                       proof.REFUTED,
                       evidence={"zero row": {"row": _position(row.row), "visible": [_position(v) for v in row.visible],
                                              "every n": row.every_n, "n": row.n, "c(i, j)": row.term}},
                       certificate=row)


def _position(p: sympy.Expr):
    """A position as evidence: an int, or the length's name for the last row at every n."""
    return int(p) if p.is_Integer else str(p)


def _positive_off_diagonal(model: KernelModel, expr: sympy.Expr):
    """(form name, form, "a key" or "the negative of a key") when the kernel, written with |x − z|² (or |x + z|²), is
    positive wherever that distance is positive, for every |x|², |z|² ≥ 0 (e.g. |x − y|² exp(x·y)); else None."""
    for index, where in ((1, "a key"), (2, "the negative of a key")):
        if not isinstance(model, ClosedKernel):
            return None
        name, _ = REPARAMETRISATIONS[index]
        form = _rewritten(expr, index)
        distance = r_minus if index == 1 else r_plus
        if form is None or not form.has(distance):
            continue
        off = form.xreplace({distance: sympy.Symbol(f"{distance.name}>0", positive=True)})
        if all(s == 1 for _, s in _sign_regions(_with_nonnegative_norms(off))):
            return name, form, where
    return None


_PARAM_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _is_param(symbol: sympy.Symbol) -> bool:
    """A declared param: the engines' own symbols carry names no .uap identifier can have (uapcheck/lower.py), except
    the scale t, which the parser reserves."""
    return bool(_PARAM_NAME.fullmatch(symbol.name)) and symbol.name != SCALE.name


def finite_param_constant(node: sympy.Basic) -> bool:
    """node depends on the declared params alone (no invariant, no scale) and is a finite real number for every
    admissible param value (docs/theory.md §5, Lemma G): built by `realness.proved_real`'s rules — a negative power of a
    base proved non-zero (τ⁻¹ under `param tau != 0`), a logarithm or fractional power of one proved positive — and
    without tan, whose poles a real argument can meet."""
    if not isinstance(node, sympy.Expr) or node.is_number:
        return False
    symbols = node.free_symbols
    return bool(symbols) and all(isinstance(s, sympy.Symbol) and _is_param(s) for s in symbols) \
        and not node.has(sympy.tan) and proved_real(node)


def _non_analytic_nodes(expr: sympy.Expr, gram: bool = True) -> list[str]:
    """The non-analytic operations in expr; with `gram`, a root, power or log of κ + a Gram form with κ > 0 is
    analytic (Lemma D)."""
    found = []
    # each node's arguments in SymPy's sort order: a Min or Max keeps its arguments as a set, whose order as built
    # depends on the hash seed, and the list is a step's evidence (a byte-identical report under every seed)
    walk = sympy.preorder_traversal(expr, keys=True)
    for node in walk:
        if finite_param_constant(node):
            walk.skip()  # a fixed number for each admissible param value: θ does not enter it (Lemma G)
            continue
        if isinstance(node, NON_ANALYTIC):
            found.append(f"{type(node).__name__}: {proof.printed(node)}")
        elif isinstance(node, sympy.Pow) and not node.exp.is_integer or (
                isinstance(node, sympy.Pow) and node.exp.is_integer and node.exp.is_negative):
            base = node.base
            if base.is_positive is not True and not (gram and _gram_positive(base)) and not _provably_positive(base):
                found.append(f"power {proof.printed(node)} of a base not shown positive")
        elif isinstance(node, sympy.log):
            if not (gram and _gram_positive(node.args[0])) and not _provably_positive(node.args[0]):
                found.append(f"log of {proof.printed(node.args[0])}, not shown positive")
        elif isinstance(node, sympy.tan):
            found.append(f"tan has poles: {proof.printed(node)}")
    return found


def _both_distances(model: KernelModel, expr: sympy.Expr):
    """The kernel with |x − z|² and |x + z|² read off as they are written, |x|² − 2x·z + |z|² as |x−z|² and
    |x|² + 2x·z + |z|² as |x+z|² (an identity): exp(|x + y| − |x − y|) has both, which no single rewriting of x·z
    exposes."""
    if isinstance(model, ClosedKernel):
        both = expr.xreplace({b + c - 2 * a: r_minus, b + c + 2 * a: r_plus})
        if both.has(r_minus) and both.has(r_plus):
            yield "|x−z|² = |x|² − 2x·z + |z|², |x+z|² = |x|² + 2x·z + |z|²", both


def _provably_positive(expr) -> bool:
    """expr > 0 everywhere: in every open sign region of the split atoms and on their boundaries too. The regions
    alone miss a zero where an atom vanishes: |x·z| is positive for x·z > 0 and for x·z < 0, yet 1/|x·z| has a pole at
    x·z = 0, so exp(1/|x·y|) is not positive (nor real) for all inputs."""
    regions = _positive_regions(expr)
    return regions is not None and not _boundary_zeros(expr, regions)


@exact_cache(maxsize=512)
def _with_nonnegative_norms(expr: sympy.Expr) -> sympy.Expr:
    """Let |z|^2 and |x|^2 be 0 too: the check then also covers zero keys and queries (d = 1)."""
    b0, c0 = sympy.Symbol("|z|²≥0", nonnegative=True), sympy.Symbol("|x|²≥0", nonnegative=True)
    return expr.xreplace({b: b0, c: c0})


@dataclass(frozen=True)
class GramNorm:
    """A base B = p|x|² + 2q x·z + r|z|² (or the symbol |x ∓ z|²) that is a positive semidefinite Gram form: B ≥ 0
    for every query and key, and B = 0 only where α q + β k = 0 (rank 1, B = |α x + β z|², the zero set of a pair a
    linear subspace of the parameters) or where q = k = 0 (rank 2)."""
    base: sympy.Expr
    alpha: sympy.Expr  # B = |α x + β z|² when rank 1; (1, 0) stands for the rank-2 forms (zero only at x = z = 0)
    beta: sympy.Expr
    rank: int

    @property
    def vanishes_on_diagonal(self) -> bool:
        """B is 0 wherever the query equals the key: under `tie query key` the pairs (i, i) have q_i = k_i for every θ."""
        return self.rank == 1 and sympy.simplify(self.alpha + self.beta) == 0

    @property
    def shown(self) -> str:
        if self.rank == 2:
            return f"√({sympy.sstr(self.base)})"
        return "|" + _linear_text(self.alpha, "q", self.beta, "k") + "|"


def _linear_text(alpha: sympy.Expr, u: str, beta: sympy.Expr, v: str) -> str:
    def term(coef: sympy.Expr, name: str, first: bool) -> str:
        negative = coef.could_extract_minus_sign()
        size = -coef if negative else coef
        body = name if size == 1 else f"{sympy.sstr(size)}{name}"
        return ("−" if negative else "") + body if first else (" − " if negative else " + ") + body
    parts = [(alpha, u), (beta, v)]
    parts = [(c_, n) for c_, n in parts if c_ != 0]
    return "".join(term(c_, n, i == 0) for i, (c_, n) in enumerate(parts))


def _gram_norm(base: sympy.Expr) -> Optional[GramNorm]:
    """base as a positive semidefinite Gram form in the invariants, else None (docs/theory.md §20.4)."""
    if base == r_minus:
        return GramNorm(base, sympy.Integer(1), sympy.Integer(-1), 1)
    if base == r_plus:
        return GramNorm(base, sympy.Integer(1), sympy.Integer(1), 1)
    if not isinstance(base, sympy.Expr) or not base.free_symbols or not base.free_symbols <= {a, b, c} \
            or not base.is_polynomial(a, b, c):
        return None
    poly = sympy.Poly(base, a, b, c)
    if poly.total_degree() != 1 or poly.coeff_monomial(1) != 0 or not gram_nonnegative(base):
        return None  # a positive constant part makes the form positive everywhere: `_gram_positive`
    p, q, r = poly.coeff_monomial(c), poly.coeff_monomial(a) / 2, poly.coeff_monomial(b)
    if not all(v.is_number and v.is_real for v in (p, q, r)):
        return None
    det = sympy.expand(p * r - q * q)
    if det.is_positive:
        return GramNorm(base, sympy.Integer(1), sympy.Integer(0), 2)
    alpha = sympy.sqrt(p)  # p > 0: p = 0 with a term in x·z is not semidefinite, and without one not a Gram form here
    return GramNorm(base, alpha, q / alpha, 1)


def _gram_positive(base: sympy.Expr) -> bool:
    """base = κ + a positive semidefinite Gram form with κ > 0 (Lemma D): base ≥ κ > 0 for every query and key, so a
    root, negative power or log of it is analytic everywhere (1 + |x − 2z|²)."""
    return gram_nonnegative(base) and base.xreplace({a: 0, b: 0, c: 0}).is_positive is True


def _gram_norms(form: sympy.Expr) -> list[GramNorm]:
    """The Gram forms under a square root, another non-integer or negative power, a log or an |·| in form."""
    found: dict[sympy.Expr, GramNorm] = {}
    for node in sympy.preorder_traversal(form):
        if isinstance(node, sympy.Pow) and not (node.exp.is_integer and node.exp.is_nonnegative):
            base = node.base
        elif isinstance(node, (sympy.log, sympy.Abs)):
            base = node.args[0]
        elif node in (r_minus, r_plus):
            base = node
        else:
            continue
        if base not in found:
            norm = _gram_norm(base)
            if norm is not None:
                found[base] = norm
    return list(found.values())


def _analytic_off_gram_zeros(form: sympy.Expr, tied: bool) -> Optional[list[GramNorm]]:
    """The Gram norms of form when form is analytic once each is taken positive, and, under `tie query key`, the
    kernel of a pair (i, i) — every norm vanishing where q = k set to 0 — is analytic too; else None."""
    norms = _gram_norms(form)
    if not norms:
        return None
    positive = {g.base: sympy.Symbol(f"{g.shown}²>0", positive=True) for g in norms}
    if _non_analytic_nodes(form.xreplace(positive)):
        return None
    diagonal = [g for g in norms if g.vanishes_on_diagonal]
    if tied and diagonal:
        at_diagonal = form.xreplace({**positive, **{g.base: sympy.Integer(0) for g in diagonal}})
        if at_diagonal.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) or _non_analytic_nodes(at_diagonal):
            return None
    return norms


@proof.rule("AN-STRUCT", "Analytic in θ by structure", CITE_T2, statuses=(proof.PROVED, proof.UNDECIDED),
            certificates=(Trusted,))
def analytic_structural(model: KernelModel, positivity: proof.Step, normalized: bool,
                        region: Optional[dict] = None, tied: bool = False) -> proof.Step:
    expr = _plain_term(model)
    if region:
        ctx = Context({sym: s for sym, s in region.items()})
        expr = ctx.positive_form(expr)
    premises = [positivity] if normalized else []
    where = claim(" on the region ", listed(sign(k, v > 0) for k, v in region.items())) if region else claim()
    best_bad = None
    # the written forms first (1/(1 + |x − z|²) reads better than its expansion), then Lemma D on the plain one
    candidates = itertools.chain(((name, form, False) for name, form in _forms(model, expr)),
                                 [("x·z, |z|², |x|² (Lemma D)", expr, True)])
    for form_name, form, gram in candidates:
        bad = _non_analytic_nodes(form, gram)
        if normalized and not positivity.proved:
            bad.append("the normaliser is not shown non-zero")
        if not bad:
            everywhere = not _non_analytic_nodes(_with_nonnegative_norms(form))
            dims = "" if everywhere else (" away from the null set of parameters where a key or query "
                                          "direction vanishes (its complement is connected for d ≥ 2)")
            # the second and third forms of WP-POSITIVE: a normaliser that vanishes on a closed null set of
            # parameters (at W_Q = 0 for |x|² exp(x·y) or (x·y)² exp(x·y)), off which the layer is analytic
            partial = normalized and positivity.evidence.get("dimensions") == "d ≥ 2"
            divided = ("" if not normalized else
                       " and divided by a normaliser that is positive off a closed set of parameters of codimension "
                       "≥ 2 (WP-POSITIVE), on whose connected complement (d ≥ 2) the layer is analytic" if partial
                       else " and divided by a positive normaliser")
            statement = claim("the attention layer is real-analytic in θ", where, f"{dims}: the kernel is built "
                              "from analytic functions of the Gram invariants" + divided)
            everywhere = everywhere and not partial
            ev = {"kernel": form, "written with": form_name, "dimensions": "d ≥ 1" if everywhere else "d ≥ 2"}
            return proof.conclude(statement, proof.PROVED, premises, ev, facts={"min_dim": 1 if everywhere else 2},
                                  certificate=Trusted("structural scan", "no non-analytic operation (|·|, max, "
                                                      "piecewise, powers or logs of bases not shown positive, tan)"
                                                      + (" and a positive normaliser (premise)" if normalized else ""),
                                                      {"kernel": form}))
        if best_bad is None or len(bad) < len(best_bad):
            best_bad = bad
    # |q − k| or |q + k| (the Laplacian exp(−|x − y|)): analytic where q_i ≠ ±k_j. For fixed inputs,
    # θ ↦ q_i ∓ k_j is linear, so each set {q_i = ±k_j} is a linear subspace of codimension d (or all
    # of Θ, where the kernel value is constant): off finitely many of them, whose complement is
    # connected for d ≥ 2 (docs/theory.md §20.4).
    if not (normalized and not positivity.proved):
        off_diagonal = {r_minus: sympy.Symbol("|x−z|²>0", positive=True),
                        r_plus: sympy.Symbol("|x+z|²>0", positive=True)}
        for form_name, form in itertools.chain(_forms(model, expr), _both_distances(model, expr)):
            if not form.has(r_minus, r_plus) or _non_analytic_nodes(form.xreplace(off_diagonal)):
                continue
            if tied and form.has(r_minus) and _analytic_off_gram_zeros(form, tied) is None:
                continue  # q_i = k_i for every θ at the pairs (i, i): the kernel there must be analytic at |x − z| = 0
            statement = claim("the attention layer is real-analytic in θ", where, " away from the null set of "
                              "parameters where a query equals a key or its negative (finitely many linear subspaces "
                              "of codimension d, whose complement is connected for d ≥ 2): the kernel is built from "
                              "analytic functions of |q ∓ k|² > 0 and the Gram invariants" +
                              (" and divided by a positive normaliser" if normalized else ""))
            return proof.conclude(statement, proof.PROVED, premises, {"kernel": form, "written with": form_name,
                                                                   "dimensions": "d ≥ 2"},
                                  facts={"min_dim": 2, "off_diagonal": True},
                                  certificate=Trusted("structural scan", "no non-analytic operation once |q ∓ k|² > "
                                                      "0 (docs/theory.md §20.4)" + (" and a positive normaliser "
                                                      "(premise)" if normalized else ""), {"kernel": form}))
        # any positive semidefinite Gram form p|x|² + 2q x·z + r|z|² under a root, power, log or |·|: |x − 2z|
        # vanishes on the subspace {q = 2k} of each pair, of codimension d (docs/theory.md §20.4)
        if isinstance(model, ClosedKernel):
            norms = _analytic_off_gram_zeros(expr, tied)
            if norms is not None:
                shown = listed(g.shown for g in norms)
                statement = claim("the attention layer is real-analytic in θ", where, " away from the null set of "
                                  "parameters where one of ", shown, " vanishes for a query q and a key k (finitely "
                                  "many linear subspaces of codimension d, whose complement is connected for d ≥ 2): "
                                  "the kernel is built from analytic functions of these positive norms and the Gram "
                                  "invariants" + (" and divided by a positive normaliser" if normalized else ""))
                return proof.conclude(statement, proof.PROVED, premises,
                                      {"kernel": expr, "written with": "x·z, |z|², |x|²",
                                       "positive norms": [g.shown for g in norms], "dimensions": "d ≥ 2"},
                                      facts={"min_dim": 2, "off_diagonal": True},
                                      certificate=Trusted("structural scan", "no non-analytic operation once every "
                                                          "positive semidefinite Gram norm is positive (docs/theory.md "
                                                          "§20.4)" + (" and a positive normaliser (premise)"
                                                                      if normalized else ""), {"kernel": expr}))
    return proof.conclude(claim("analyticity in θ", where, " is not established"), proof.UNDECIDED, premises,
                          {"non-analytic operations": best_bad})


K_ZZ_PINV = written("K_ZZ⁺", r"K_{ZZ}^{+}")
NYSTROM_KERNEL = written("k̃(x, y) = k(x, Z) K_ZZ⁺ k(Z, y)", r"\tilde{k}(x, y) = k(x, Z)\, K_{ZZ}^{+}\, k(Z, y)")


@proof.rule("WP-NYSTROM", "A normalised Nyström head: the approximate kernel can be negative", CITE_WP, statuses=(proof.UNDECIDED,))
def nystrom_sign() -> proof.Step:
    return proof.conclude(claim(NYSTROM_KERNEL, " is not shown positive (", K_ZZ_PINV, " has entries of "
                                "both signs), so the normaliser of a normalised Nyström head may vanish; write "
                                "`unnormalized` (as SkyFormer does) to avoid it"), proof.UNDECIDED,
                          evidence={"reason": "the Nyström approximation is not a positive kernel"})
