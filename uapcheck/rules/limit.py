"""The kernel-limit rules: is lim_{t→∞} k(x, tWy₁)/k(x, tWy₂) ∈ {0, ∞} for generic parameters?

Method (docs/theory.md, "Kernel limit"): reduce to invariants, compute the growth of
log k(x, t z) = E(t) + p·log t + O(1) on each sign region of the invariants, and decide whether
the growing part depends on the key. If it does, the growing part of
log k(x,tz₁) − log k(x,tz₂) is a non-zero analytic function of (x, z₁, z₂) on each region, so it
is non-zero off a null set and the ratio tends to 0 or ∞; an exact witness point shows the
dependence. If it does not, the ratio has a finite limit at generic points and (LIM) fails.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Optional

import sympy

from .. import proof
from ..asymptotics import (Context, Growth, NeedSign, Oscillates, Undecided, ZERO, compare,
                           growth, sign_of)
from ..budget import BudgetExceeded
from ..lower import ClosedKernel, FeatureKernel, KernelModel, a, b, c, t

CITE_LIM = "Cheng et al. 2025, kernel corollary (condition LIM); proof: docs/theory.md §Kernel limit"

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
    status: str  # "holds" | "fails" | "oscillates" | "zero" | "undecided"
    reason: str = ""
    witness: Optional[dict] = None


@dataclass
class LimitAnalysis:
    kind: str  # the class: exppoly, expalg, featsum, regvar, bounded, oscillating, scaleinv, undecided
    results: list = field(default_factory=list)
    holds_generically: Optional[bool] = None  # None: undecided
    region_used: Optional[Region] = None
    dims: str = "d ≥ 1"
    reason: str = ""
    failure_witness: Optional[dict] = None


def _explore(fn, ctx: Context, depth: int = 0):
    """Run fn(ctx) on every sign region it asks for; yield (ctx, result or exception)."""
    try:
        yield ctx, fn(ctx)
    except NeedSign as need:
        if depth >= MAX_SPLITS:
            yield ctx, Undecided("too many sign cases")
            return
        for sgn in (1, -1):
            sub = Context(dict(ctx.signs, **{}))
            sub.signs[need.atom] = sgn
            yield from _explore(fn, sub, depth + 1)
    except (Undecided, Oscillates, BudgetExceeded) as exc:
        yield ctx, exc


def _region(ctx: Context) -> Region:
    return Region(tuple(sorted((k.name, s) for k, s in ctx.signs.items())))


# ---------------------------------------------------------------------------------------------
# Witness points: exact 1-dimensional vectors (they embed in every dimension d).

def _candidate_points(region: Region, feature: bool):
    """(x, z1, z2) triples of non-zero integers in each sign orthant consistent with the region."""
    signs = dict(region.signs)
    for xs, zs in itertools.product((1, -1), (1, -1)):
        found = []
        for x0, (z1, z2) in itertools.product((1, 2), ((1, 2), (1, 3), (2, 3), (2, 1))):
            x, k1, k2 = xs * x0, zs * z1, zs * z2
            ok = True
            for name, s in signs.items():
                for z in (k1, k2):
                    val = {"a": x * z, "v": z, "e": z, "u": x, "f": x}[name]
                    if (val > 0) != (s > 0):
                        ok = False
            if ok:
                found.append((x, k1, k2))
        if found:
            yield (xs, zs), found


def _invariants(model: KernelModel, x: int, z: int, tie: bool = False) -> dict:
    if isinstance(model, FeatureKernel):
        return {model.key_symbol: sympy.Integer(z), model.query_symbol: sympy.Integer(x),
                b: sympy.Integer(z * z), c: sympy.Integer(x * x)}
    return {a: sympy.Integer(x * z), b: sympy.Integer(z * z), c: sympy.Integer(x * x)}


def _growing_difference(g: Growth, model: KernelModel, x: int, z1: int, z2: int):
    """Exact coefficients of log k(x,tz1) − log k(x,tz2) that grow; the first non-zero one."""
    s1, s2 = _invariants(model, x, z1), _invariants(model, x, z2)
    exps = sorted({alpha for alpha, _ in g.E}, reverse=True)
    coeffs = dict(g.E)
    for alpha in exps:
        diff = sympy.simplify(coeffs[alpha].xreplace(s1) - coeffs[alpha].xreplace(s2))
        try:
            if sign_of(diff, Context()) != 0:
                return f"t^{alpha}", diff
        except (Undecided, NeedSign):
            continue
    diff = sympy.simplify(g.p.xreplace(s1) - g.p.xreplace(s2))
    try:
        if diff != 0 and sign_of(diff, Context()) != 0:
            return "log t", diff
    except (Undecided, NeedSign):
        pass
    return None


def _depends_on_key(g: Growth, model: KernelModel) -> bool:
    key = {b, model.key_symbol} if isinstance(model, FeatureKernel) else {a, b}
    syms = set(g.p.free_symbols)
    for _, coeff in g.E:
        syms |= coeff.free_symbols
    return bool(syms & key)


def _is_polynomial_growth(g: Growth, model: KernelModel) -> bool:
    gens = [a, b, c] if isinstance(model, ClosedKernel) else [b, c, model.key_symbol, model.query_symbol]
    return all(coeff.is_polynomial(*gens) for _, coeff in g.E) and g.p.is_polynomial(*gens)


def _witness_for(g: Growth, model: KernelModel, region: Region):
    """Exact points where the growing part differs between two keys, per sign orthant."""
    witnesses = {}
    for orthant, points in _candidate_points(region, isinstance(model, FeatureKernel)):
        for x, z1, z2 in points:
            hit = _growing_difference(g, model, x, z1, z2)
            if hit:
                witnesses[orthant] = {"x": [x], "z1": [z1], "z2": [z2], "term": hit[0],
                                      "coefficient difference": hit[1]}
                break
    return witnesses


def _finite_limit_witness(g: Growth, model: KernelModel, region: Region) -> Optional[dict]:
    for _, points in _candidate_points(region, isinstance(model, FeatureKernel)):
        for x, z1, z2 in points:
            s1, s2 = _invariants(model, x, z1), _invariants(model, x, z2)
            c1, c2 = sympy.simplify(g.C.xreplace(s1)), sympy.simplify(g.C.xreplace(s2))
            if c2 != 0:
                return {"x": [x], "z1": [z1], "z2": [z2], "limit of the ratio": sympy.simplify(c1 / c2)}
    return None


# ---------------------------------------------------------------------------------------------
# Analysis per model

def _closed_growth(model: ClosedKernel):
    def run(ctx: Context):
        return growth(model.scaled, ctx)
    return run


def _judge(g, model, region: Region, ctx: Context) -> RegionResult:
    if isinstance(g, Oscillates):
        return RegionResult(region, None, "oscillates", str(g))
    if isinstance(g, BudgetExceeded):
        return RegionResult(region, None, "undecided", str(g))
    if isinstance(g, Undecided):
        return RegionResult(region, None, "undecided", str(g))
    if g is ZERO:
        return RegionResult(region, g, "zero", "the kernel vanishes for all large t")
    if not _depends_on_key(g, model):
        wit = _finite_limit_witness(g, model, region)
        return RegionResult(region, g, "fails",
                            "the growing part of log k(x, t z) does not depend on the key", wit)
    wits = _witness_for(g, model, region)
    if not wits:
        return RegionResult(region, g, "undecided",
                            "no exact witness point shows that the growing part depends on the key")
    poly = _is_polynomial_growth(g, model)
    need = 1 if poly else len(list(_candidate_points(region, isinstance(model, FeatureKernel))))
    status = "holds" if len(wits) >= need else "holds-d2"
    first = next(iter(wits.values()))
    return RegionResult(region, g, status, "polynomial coefficients" if poly else "analytic coefficients",
                        {"points": [dict(w, orthant=list(o)) for o, w in wits.items()], "first": first})


def analyse_closed(model: ClosedKernel) -> list[RegionResult]:
    out = []
    for ctx, g in _explore(_closed_growth(model), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
    return out


def analyse_features(model: FeatureKernel) -> tuple[list[RegionResult], Optional[str]]:
    """Per sign region of the key feature: the growth of one term Q(q) K(t, k_r)."""
    problem = None
    # The query factors must be non-negative so that no terms cancel. Landmark coefficients may
    # have either sign, but the dominant landmark is generically unique and its coefficient is
    # generically non-zero (LIM-NYSTROM), so no cancellation can happen there either.
    checks = [] if model.index == "landmark" else _explore(lambda cx: sign_of(model.query, cx), Context())
    for ctx, res in checks:
        if isinstance(res, Exception) or res < 0:
            problem = (f"the feature map φ = {sympy.sstr(model.query)} is not shown non-negative, "
                       "so terms of the feature sum may cancel")
    out = []
    for ctx, g in _explore(lambda cx: growth(model.key, cx), Context()):
        out.append(_judge(g, model, _region(ctx), ctx))
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
                regions["mixed signs"] = None
    else:
        regions["mixed signs"] = None
    return regions


# ---------------------------------------------------------------------------------------------
# Rules

def _growth_text(g: Growth) -> str:
    parts = [f"({sympy.sstr(co)})*t^{al}" if al != 1 else f"({sympy.sstr(co)})*t" for al, co in g.E]
    if g.p != 0:
        parts.append(f"({sympy.sstr(g.p)})*log t")
    return " + ".join(parts) if parts else "0 (bounded)"


@proof.rule("LIM-REDUCE", "Reduce the kernel limit to scalar invariants",
            "Cheng et al. 2025, kernel corollary; reduction: docs/theory.md §Reduction")
def reduce_step(model: KernelModel, head_text: str) -> proof.Step:
    if isinstance(model, ClosedKernel):
        claim = f"{model.description}: k = {sympy.sstr(model.scaled)}"
        ev = {"k(x, t z)": model.scaled, "invariants": "a = x.z, b = |z|^2, c = |x|^2"}
    else:
        claim = (f"{model.description}: k = Σ_r ({sympy.sstr(model.query)}) · ({sympy.sstr(model.key)})")
        ev = {"query factor": model.query, "key factor": model.key,
              "invariants": f"{model.query_symbol}, {model.key_symbol} per feature r; b = |z|^2, c = |x|^2"}
    return proof.conclude(claim, proof.PROVED, evidence=dict(ev, head=head_text))


def _classify(results: list[RegionResult], model: KernelModel) -> str:
    statuses = {r.status for r in results}
    if "oscillates" in statuses:
        return "LIM-OSC"
    if isinstance(model, FeatureKernel) and statuses <= {"holds", "holds-d2"}:
        return "LIM-FEATSUM"
    if statuses <= {"holds", "holds-d2"}:
        gs = [r.growth for r in results]
        if all(_is_polynomial_growth(g, model) and all(al.is_integer for al, _ in g.E) for g in gs):
            return "LIM-EXPPOLY"
        return "LIM-EXPALG"
    if isinstance(model, ClosedKernel) and model.scaled.subs(t, 1) == model.scaled:
        return "LIM-SCALEINV"
    fails = [r for r in results if r.status == "fails"]
    if fails and all(not r.growth.E for r in fails):
        if all(r.growth.p == 0 for r in fails):
            return "LIM-BOUNDED"
        return "LIM-REGVAR"
    return "LIM-UNDECIDED"


def limit_premise(model: KernelModel, affine: bool, reduce: proof.Step) -> proof.Step:
    """Analyse and return the (LIM) step; the rule id names the asymptotic class."""
    if isinstance(model, ClosedKernel):
        results = analyse_closed(model)
        problem = None
        regions = {r.region.describe(): r for r in results}
    else:
        results, problem = analyse_features(model)
        regions = key_regions_for_features(results, model)
    rule_id = _classify(results, model)
    if problem:
        rule_id = "LIM-UNDECIDED"
    return _LIM_RULES[rule_id](model, affine, reduce, results, regions, problem)


def _region_evidence(regions: dict) -> dict:
    ev = {}
    for name, r in regions.items():
        if r is None:
            ev[name] = {"status": "undecided", "reason": "the dominant terms could not be compared"}
            continue
        item = {"status": r.status, "growing part of log k(x, t z)": _growth_text(r.growth) if r.growth else None,
                "reason": r.reason}
        if r.witness:
            item["witness"] = r.witness
        ev[name] = item
    return ev


def _conclude_lim(model, affine, reduce, results, regions, problem, label: str) -> proof.Step:
    ev = _region_evidence(regions)
    statuses = {name: (r.status if r else "undecided") for name, r in regions.items()}
    holds_all = all(s in ("holds", "holds-d2") for s in statuses.values())
    dims = "d ≥ 2" if any(s == "holds-d2" for s in statuses.values()) else "d ≥ 1"
    notes = []
    if problem:
        return proof.conclude(f"(LIM) undecided: {problem}", proof.UNDECIDED, [reduce], ev)
    if holds_all:
        claim = (f"{label}: the growing part of log k(x,tz₁) − log k(x,tz₂) depends on the key, so "
                 f"k(x,tWy₁)/k(x,tWy₂) → 0 or ∞ for generic W, x and keys ({dims})")
        return proof.conclude(claim, proof.PROVED, [reduce], dict(ev, dimensions=dims), notes)
    # A region that every finite key set can reach at once, with affine query/key terms.
    reachable = []
    for name, r in regions.items():
        if r is None or r.status not in ("holds", "holds-d2"):
            continue
        if name.startswith("all ") or (isinstance(model, ClosedKernel) and name in ("a < 0", "a > 0")):
            reachable.append(name)
    if affine and reachable and (isinstance(model, ClosedKernel) or model.index == "coordinate"):
        name = reachable[0]
        claim = (f"{label} on the open parameter region where {name} for every key: there the ratio "
                 f"tends to 0 or ∞ for generic parameters; `affine query key` reaches this region for "
                 f"any finite key set (bias terms of one sign dominate), and scaling the affine key keeps it")
        notes.append("outside this region (LIM) fails: " + "; ".join(
            f"{n}: {s}" for n, s in statuses.items() if s not in ("holds", "holds-d2")))
        return proof.conclude(claim, proof.PROVED, [reduce], dict(ev, region=name), notes)
    failing = [n for n, s in statuses.items() if s not in ("holds", "holds-d2")]
    if reachable and not affine:
        notes.append(f"(LIM) holds on the region {reachable[0]}, but without `affine query key` no "
                     "parameter choice puts every key there (keys y and −y have opposite signs)")
    claim = f"(LIM) is not established: it fails or is undecided on {', '.join(failing)}"
    status = proof.REFUTED if all(statuses[n] in ("fails", "oscillates", "zero") for n in failing) else proof.UNDECIDED
    return proof.conclude(claim, status, [reduce], ev, notes)


def _make(rule_id: str, title: str, label: str):
    @proof.rule(rule_id, title, CITE_LIM)
    def rule_fn(model, affine, reduce, results, regions, problem):
        return _conclude_lim(model, affine, reduce, results, regions, problem, label)
    rule_fn.__name__ = rule_fn.__qualname__ = "rule_" + rule_id.replace("-", "_").lower()
    return rule_fn


_LIM_RULES = {
    "LIM-EXPPOLY": _make("LIM-EXPPOLY", "Exp-polynomial kernels: log k(x,tz) is a polynomial in t",
                         "exp-polynomial class"),
    "LIM-EXPALG": _make("LIM-EXPALG", "Algebraic growth: log k(x,tz) grows like a sum of powers t^α",
                        "algebraic growth class"),
    "LIM-FEATSUM": _make("LIM-FEATSUM", "Feature sums: the generically unique dominant feature decides",
                         "feature-sum class (the generic maximum dominates)"),
    "LIM-REGVAR": _make("LIM-REGVAR", "Regularly varying or homogeneous kernels: the ratio has a finite limit",
                        "regularly varying class"),
    "LIM-BOUNDED": _make("LIM-BOUNDED", "Bounded kernels: the ratio stays bounded",
                         "bounded class"),
    "LIM-OSC": _make("LIM-OSC", "Oscillating kernels: the ratio has no limit", "oscillating class"),
    "LIM-SCALEINV": _make("LIM-SCALEINV", "Scale-invariant kernels: scaling the key changes nothing",
                          "scale-invariant class"),
    "LIM-UNDECIDED": _make("LIM-UNDECIDED", "The engine could not decide the kernel limit",
                           "undecided"),
}
