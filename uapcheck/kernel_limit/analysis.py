"""The kernel-limit analysis: sign regions of the invariants, the growth of log k(x, t z) on each,
whether its growing part depends on the key, and exact witness points (docs/theory.md, "Kernel limit").

Method: reduce to invariants, compute the growth of log k(x, t z) = E(t) + p·log t + O(1) on each
sign region of the invariants, and decide whether the growing part depends on the key. If it does,
the growing part of log k(x,tz₁) − log k(x,tz₂) is a non-zero analytic function of (x, z₁, z₂) on
each region, so it is non-zero off a null set and the ratio tends to 0 or ∞; an exact witness point
shows the dependence. If it does not, the ratio has a finite limit at generic points and (LIM) fails.
The rules that conclude from these results are in uapcheck/rules/limit.py.
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Optional

import sympy

from ..asymptotics import (Context, Growth, NeedSign, Oscillates, Undecided, ZERO, compare,
                           explore_regions, growth, sign_of)
from ..budget import BudgetExceeded, time_limit
from ..certificates import RegionStatus
from ..memo import exact_cache
from ..zero import simplified
# the invariants under the docs' names (uapcheck/lower.py)
from ..lower import (KEY_COORD as v, KEY_NORM2 as b, QUERY_COORD as u, QUERY_DOT_KEY as a, QUERY_NORM2 as c,
                     RANDOM_DOT_KEY as e, RANDOM_DOT_QUERY as f, ClosedKernel, FeatureKernel, KernelModel)

MAX_SPLITS = 4


@dataclass(frozen=True)
class Region:
    signs: tuple[tuple[str, int], ...]  # atom name → sign

    def describe(self) -> str:
        if not self.signs:
            return "all invariants"
        return ", ".join(f"{n} {'> 0' if s > 0 else '< 0'}" for n, s in self.signs)


@dataclass(frozen=True)
class RegionResult:
    region: Region
    growth: Optional[Growth]  # None when undecided
    status: RegionStatus
    reason: str = ""
    witness: Optional[dict] = None


def _explore(fn, ctx: Context):
    return explore_regions(fn, ("the asymptotic expansion of log k(x, t z)", 10.0), ctx, MAX_SPLITS)


def _region(ctx: Context) -> Region:
    return Region(tuple(sorted((k.name, s) for k, s in ctx.signs.items())))


# ---------------------------------------------------------------------------------------------
# Witness points: exact 1-dimensional vectors (they embed in every dimension d).

def _candidate_points(region: Region):
    """(x, z1, z2) triples of non-zero integers in each sign orthant consistent with the region."""
    signs = dict(region.signs)
    for xs, zs in itertools.product((1, -1), (1, -1)):
        found = []
        for x0, (z1, z2) in itertools.product((1, 2), ((1, 2), (1, 3), (2, 3), (2, 1))):
            x, k1, k2 = xs * x0, zs * z1, zs * z2
            ok = True
            for name, s in signs.items():
                for z in (k1, k2):
                    val = {a.name: x * z, v.name: z, e.name: z, u.name: x, f.name: x}[name]
                    if (val > 0) != (s > 0):
                        ok = False
            if ok:
                found.append((x, k1, k2))
        if found:
            yield (xs, zs), found


def invariants_at(model: KernelModel, x: int, z: int) -> dict:
    """The invariants at the 1-dimensional query x and key z (exact integers)."""
    if isinstance(model, FeatureKernel):
        return {model.key_symbol: sympy.Integer(z), model.query_symbol: sympy.Integer(x),
                b: sympy.Integer(z * z), c: sympy.Integer(x * x)}
    return {a: sympy.Integer(x * z), b: sympy.Integer(z * z), c: sympy.Integer(x * x)}


def _growing_difference(g: Growth, model: KernelModel, x: int, z1: int, z2: int):
    """Exact coefficients of log k(x,tz1) − log k(x,tz2) that grow; the first non-zero one."""
    s1, s2 = invariants_at(model, x, z1), invariants_at(model, x, z2)
    exps = sorted({alpha for alpha, _ in g.E}, reverse=True)
    coeffs = dict(g.E)
    for alpha in exps:
        with time_limit("simplifying a witness coefficient", 3.0):
            diff = simplified(coeffs[alpha].xreplace(s1) - coeffs[alpha].xreplace(s2))
        if _nonzero_for_every_param(diff):
            return f"t^{alpha}", diff
    with time_limit("simplifying a witness coefficient", 3.0):
        diff = simplified(g.p.xreplace(s1) - g.p.xreplace(s2))
    if diff != 0 and _nonzero_for_every_param(diff):
        return "log t", diff
    return None


def _nonzero_for_every_param(diff: sympy.Expr) -> bool:
    """The coefficient difference is non-zero for every admissible value of the declared params: of one sign
    (the sign engine), or non-zero by SymPy's assumptions on the params (−g·x·z with `param g != 0`: which key
    dominates then depends on the sign of g, but one of them does for every g, which is all (LIM) asks)."""
    if diff.is_zero is False:
        return True
    try:
        return sign_of(diff, Context()) != 0
    except (Undecided, NeedSign):
        return False


def key_invariants(model: KernelModel) -> set:
    """The invariants that involve the key: |z|² and x·z (or the key feature)."""
    return {b, model.key_symbol} if isinstance(model, FeatureKernel) else {a, b}


def _depends_on_key(g: Growth, model: KernelModel) -> bool:
    key = key_invariants(model)
    syms = set(g.p.free_symbols)
    for _, coeff in g.E:
        syms |= coeff.free_symbols
    return bool(syms & key)


def is_polynomial_growth(g: Growth, model: KernelModel) -> bool:
    gens = [a, b, c] if isinstance(model, ClosedKernel) else [b, c, model.key_symbol, model.query_symbol]
    return all(coeff.is_polynomial(*gens) for _, coeff in g.E) and g.p.is_polynomial(*gens)


def _witness_for(g: Growth, model: KernelModel, region: Region):
    """Exact points where the growing part differs between two keys, per sign orthant."""
    witnesses = {}
    for orthant, points in _candidate_points(region):
        for x, z1, z2 in points:
            hit = _growing_difference(g, model, x, z1, z2)
            if hit:
                witnesses[orthant] = {"x": [x], "z1": [z1], "z2": [z2], "term": hit[0],
                                      "coefficient difference": hit[1]}
                break
    return witnesses


def _finite_limit_witness(g: Growth, model: KernelModel, region: Region) -> Optional[dict]:
    for _, points in _candidate_points(region):
        for x, z1, z2 in points:
            s1, s2 = invariants_at(model, x, z1), invariants_at(model, x, z2)
            try:
                with time_limit("simplifying the limit of the ratio at a witness point", 3.0):
                    c1, c2 = simplified(g.C.xreplace(s1)), simplified(g.C.xreplace(s2))
                    if c2 != 0:
                        return {"x": [x], "z1": [z1], "z2": [z2], "limit of the ratio": simplified(c1 / c2)}
            except BudgetExceeded:
                return None
    return None


# ---------------------------------------------------------------------------------------------
# Analysis per model

def _closed_growth(model: ClosedKernel):
    def run(ctx: Context):
        return growth(model.scaled, ctx)
    return run


def _not_shown_real(g: Growth, ctx: Context) -> Optional[sympy.Expr]:
    """The first coefficient of the growing part (Σ c_α t^α + p log t) not shown real under the region's signs,
    or None: the witness argument compares log-moduli, which a non-real coefficient (√(x·z) with x·z of either
    sign) does not give."""
    for coeff in [co for _, co in g.E] + [g.p]:
        try:
            real = ctx.positive_form(coeff).is_extended_real
        except Undecided:
            real = None
        if real is not True:
            return coeff
    return None


def _judge(g, model, region: Region, ctx: Context) -> RegionResult:
    if isinstance(g, Oscillates):
        return RegionResult(region, None, RegionStatus.OSCILLATES, str(g))
    if isinstance(g, BudgetExceeded):
        return RegionResult(region, None, RegionStatus.UNDECIDED, str(g))
    if isinstance(g, Undecided):
        return RegionResult(region, None, RegionStatus.UNDECIDED, str(g))
    if g is ZERO:
        return RegionResult(region, g, RegionStatus.ZERO, "the kernel vanishes for all large t")
    unreal = _not_shown_real(g, ctx)
    if unreal is not None:
        return RegionResult(region, g, RegionStatus.UNDECIDED, f"the growing part's coefficient {sympy.sstr(unreal)} "
                            "is not shown real here (the kernel may not be real-valued), so its difference between "
                            "two keys may turn a phase, not the modulus of k(x,tz₁)/k(x,tz₂)")
    if not _depends_on_key(g, model):
        if g.oscillating:
            return RegionResult(region, g, RegionStatus.OSCILLATES, "the growing part does not depend on the key and a "
                                "bounded oscillating factor remains: the ratio has no limit")
        wit = _finite_limit_witness(g, model, region)
        return RegionResult(region, g, RegionStatus.FAILS,
                            "the growing part of log k(x, t z) does not depend on the key", wit)
    try:
        wits = _witness_for(g, model, region)
    except BudgetExceeded as exc:
        return RegionResult(region, g, RegionStatus.UNDECIDED, str(exc))
    if not wits:
        return RegionResult(region, g, RegionStatus.UNDECIDED,
                            "no exact witness point shows that the growing part depends on the key")
    first = next(iter(wits.values()))
    lead = g.C.xreplace(invariants_at(model, first["x"][0], first["z1"][0]))
    try:
        lead_sign = sign_of(lead, Context())
    except (Undecided, NeedSign, BudgetExceeded):
        lead_sign = 0
    if lead_sign == 0:
        # e.g. (g − 1)·exp(x·z) with g > 0: at g = 1 the kernel is identically 0.
        return RegionResult(region, g, RegionStatus.UNDECIDED, f"the kernel's leading coefficient {sympy.sstr(g.C)} is not "
                            "shown non-zero for every admissible parameter value")
    poly = is_polynomial_growth(g, model)
    need = 1 if poly else len(list(_candidate_points(region)))
    status = RegionStatus.HOLDS if len(wits) >= need else RegionStatus.HOLDS_D2
    first = next(iter(wits.values()))
    return RegionResult(region, g, status, "polynomial coefficients" if poly else "analytic coefficients",
                        {"points": [dict(w, orthant=list(o)) for o, w in wits.items()], "first": first})


@exact_cache()  # a function of the model alone: computed once per batch
def analyse_closed(model: ClosedKernel) -> list[RegionResult]:
    out = []
    for ctx, g in _explore(_closed_growth(model), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
    return out


def exponent_model(model: ClosedKernel) -> Optional[ClosedKernel]:
    """The exponent H as a kernel model of its own when k(x, t z) = exp(H(x, t z)) is one exponential (the
    double-exponential class, docs/theory.md §6.5 LIM-EXPEXP), else None."""
    if not (isinstance(model.scaled, sympy.exp) and isinstance(model.plain, sympy.exp)):
        return None
    return dataclasses.replace(model, scaled=model.scaled.args[0], plain=model.plain.args[0],
                               description=f"the exponent H of k = exp(H), {model.description}")


def _sign_off_null(expr: sympy.Expr, ctx: Context, splits: int = 2) -> tuple[int, tuple]:
    """The sign of `expr` on the region, and the sign atoms split to show it: when the sign engine asks for the sign
    of an atom ι the region leaves open, the sign is the one shown on both halves ι > 0 and ι < 0 (each atom is a
    non-zero linear form in the vectors, x·z or a coordinate, so the region's part ι = 0 is a null set); Undecided
    when the halves differ or are not shown (Theorem F216, docs/theory.md §6.5 LIM-EXPEXP)."""
    try:
        return sign_of(expr, ctx), ()
    except NeedSign as need:
        if splits <= 0:
            raise Undecided("too many sign cases") from None
        halves = [_sign_off_null(expr, Context({**ctx.signs, need.atom: s}), splits - 1) for s in (1, -1)]
        if halves[0][0] != halves[1][0]:
            raise Undecided(f"the sign differs where {need.atom} > 0 and where {need.atom} < 0") from None
        atoms = (need.atom,) + tuple(at for _, split in halves for at in split if at != need.atom)
        return halves[0][0], tuple(dict.fromkeys(atoms))


def exponent_sign(g: Growth, ctx: Context) -> tuple[int, tuple]:
    """(+1, atoms) when H(t) = C t^p e^{E(t)} (1 + o(1)) tends to +∞ on the region, (−1, atoms) when it tends to −∞,
    else (0, ()): |H| → ∞ when E's leading coefficient is positive (or E = 0 and p > 0), and the sign is C's, each
    shown by the sign engine on the region, or off the null set where the sign atoms `atoms` vanish (a coefficient
    such as (x·z)², positive on both halves x·z > 0 and x·z < 0: Theorem F216)."""
    try:
        if g is ZERO:
            return 0, ()
        sign, split_c = _sign_off_null(g.C, ctx)
        lead, split_e = _sign_off_null(g.E[0][1] if g.E else g.p, ctx)
        atoms = tuple(dict.fromkeys(split_c + split_e))
        return (sign, atoms) if lead > 0 and sign != 0 else (0, ())
    except (Undecided, NeedSign, BudgetExceeded):
        return 0, ()


@exact_cache()  # a function of the model alone: computed once per batch
def analyse_exponent(model: ClosedKernel) -> list[RegionResult]:
    """Per sign region, (LIM) for the exponent H of k = exp(H) (its model from `exponent_model`) together with
    H(x, t z) → +∞ or → −∞ (the sign is recorded with the witness, "sign of H"); a region where either is not shown
    is `undecided` (never `fails`: a finite limit of H(x,tz₁)/H(x,tz₂) says nothing about exp(H₁ − H₂)). Theorem
    F209 (docs/theory.md §6.5, LIM-EXPEXP)."""
    out = []
    for ctx, g in _explore(_closed_growth(model), Context()):
        res = _judge(g, model, _region(ctx), ctx)
        sign, split = exponent_sign(res.growth, ctx) if res.status.holds and res.growth is not None else (0, ())
        if res.status.holds and sign == 0:
            res = RegionResult(res.region, res.growth, RegionStatus.UNDECIDED,
                               "the exponent H(x, t z) is not shown to tend to +∞ or to −∞ here")
        elif res.status.holds:
            extra: dict[str, object] = {"sign of H": sign}
            if split:  # Theorem F216: H → ±∞ off the null set where these atoms vanish
                extra["H → ±∞ off the null set"] = " ∪ ".join(f"{sympy.sstr(at)} = 0" for at in split)
            res = dataclasses.replace(res, witness=dict(res.witness or {}, **extra))
        else:
            res = RegionResult(res.region, res.growth, RegionStatus.UNDECIDED,
                               f"(LIM) for the exponent H is not shown here ({res.status.value}: {res.reason})")
        out.append(res)
    return out


@exact_cache()  # a function of the model alone: computed once per batch
def analyse_features(model: FeatureKernel) -> tuple[list[RegionResult], Optional[str]]:
    """Per sign region of the key feature: the growth of one term Q(q) K(t, k_r) (of the key factor K
    alone for a one-component map, of the whole term Σ_c Q_c(q) K_c(t, k_r) for several components)."""
    problem = None
    # The query factors must be non-negative so that no terms cancel. Landmark coefficients may
    # have either sign, but the dominant landmark is generically unique and its coefficient is
    # generically non-zero (LIM-NYSTROM), so no cancellation can happen there either.
    for query, _ in ([] if model.index == "landmark" else model.parts):
        for _ctx, res in _explore(lambda cx, q=query: sign_of(q, cx), Context()):
            if isinstance(res, Exception) or res < 0:
                name = "the feature map φ" if model.single else "the component φ_c"
                problem = (f"{name} = {sympy.sstr(query)} is not shown non-negative, "
                           "so terms of the feature sum may cancel")
    if not problem and model.index != "landmark":
        # A parameter factor (γ·φ with γ ≥ 0, say) could make every feature vanish.
        queries = sympy.Add(*[q for q, _ in model.parts])
        probe = queries.xreplace({model.query_symbol: sympy.Integer(1), c: sympy.Integer(1)})
        try:
            nonzero = sign_of(probe, Context()) != 0
        except (Undecided, NeedSign, BudgetExceeded):
            nonzero = False
        if not nonzero:
            problem = (f"the feature map φ = {sympy.sstr(queries)} is not shown non-zero for every "
                       "admissible parameter value")
    out = []
    studied = model.key if model.single else model.term
    for ctx, g in _explore(lambda cx: growth(studied, cx), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
    if not model.single and any(name != model.key_symbol.name for r in out for name, _ in r.region.signs):
        # The regions must be those of the key feature alone (all > 0, all < 0, mixed); a split on the
        # query's sign makes the dominant component depend on the query, which the rule does not combine.
        problem = problem or ("the dominant component of the feature map depends on the sign of the query "
                              "feature, which the feature-sum argument does not combine")
    return out, problem


def key_regions_for_features(results: list[RegionResult], model: FeatureKernel):
    """Combine per-feature regions into regions of the whole key: all +, all −, mixed."""
    by_sign = {}
    for r in results:
        sign = dict(r.region.signs).get(model.key_symbol.name)
        by_sign[sign] = r
    if None in by_sign:
        return {"every key": by_sign[None]}
    pos, neg = by_sign.get(1), by_sign.get(-1)
    regions = {f"all {model.key_symbol} > 0": pos, f"all {model.key_symbol} < 0": neg}
    # Mixed keys: the sign class whose terms dominate decides.
    if pos and neg and pos.growth is not None and neg.growth is not None:
        if neg.growth is ZERO:
            regions["mixed signs"] = pos
        elif pos.growth is ZERO:
            regions["mixed signs"] = neg
        else:
            kp = sympy.Symbol(model.key_symbol.name + "_p", positive=True)
            kn = sympy.Symbol(model.key_symbol.name + "_n", negative=True)
            gp = Growth(pos.growth.C.xreplace({model.key_symbol: kp}), pos.growth.p.xreplace({model.key_symbol: kp}),
                        tuple((al, co.xreplace({model.key_symbol: kp})) for al, co in pos.growth.E))
            gn = Growth(neg.growth.C.xreplace({model.key_symbol: kn}), neg.growth.p.xreplace({model.key_symbol: kn}),
                        tuple((al, co.xreplace({model.key_symbol: kn})) for al, co in neg.growth.E))
            try:
                s = compare(gp, gn, Context())
                regions["mixed signs"] = pos if s > 0 else neg if s < 0 else None
            except (Undecided, NeedSign):
                # Which sign class dominates depends on the key; each open sub-region is ruled by
                # one family, so the mixed region holds when both families hold.
                both = pos.status.holds and neg.status.holds
                regions["mixed signs"] = RegionResult(
                    Region(()), None if not both else pos.growth, RegionStatus.HOLDS if both else RegionStatus.UNDECIDED,
                    "either sign class may dominate; both make the growing part depend on the key (the witnesses "
                    "are those of the two sign classes)" if both else "the dominant sign class is undecided",
                    _sign_class_witness(pos, neg, model.key_symbol) if both else None)
    else:
        regions["mixed signs"] = None
    return regions


def _sign_class_witness(pos: RegionResult, neg: RegionResult, key) -> Optional[dict]:
    """The mixed region's witness when either sign class may dominate: the points of both classes, each
    marked with the class it lies in (a key whose dominant terms are one class's is ruled by that class)."""
    points = []
    for name, r in ((f"all {key} > 0", pos), (f"all {key} < 0", neg)):
        for point in (r.witness or {}).get("points", []):
            points.append(dict(point, **{"sign class": name}))
    if not points:
        return None
    return {"points": points, "first": points[0]}


def query_positive(model: FeatureKernel, name: str) -> bool:
    sign = -1 if "<" in name else 1
    try:
        return all(sign_of(q, Context({model.query_symbol: sign})) > 0 for q, _ in model.parts)
    except (Undecided, NeedSign, BudgetExceeded):
        return False
